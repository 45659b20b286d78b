"""The names of the stops a trace records, as Pinocchio 3.8.0's code names them.

The core declares its steps (``pinref/algorithms/steps.py``); these are their names: step
structs (algorithm/aba.hxx, rnea.hxx, crba.hxx) and, for statements the drivers run between or
after their loops, ``"<driver>: <statement>"``. ``pinref.compare`` keys its reference values by
these names.
"""

from ..algorithms import steps as _core

ABA_INIT = _core.ABA_INIT.name
ABA_FORWARD1 = _core.ABA_FORWARD1.name
ABA_FEXT = _core.ABA_FEXT.name
ABA_BACKWARD = _core.ABA_BACKWARD.name
ABA_FORWARD2 = _core.ABA_FORWARD2.name
ABA_FINAL_LOOP = _core.ABA_FINAL_LOOP.name

RNEA_FORWARD = _core.RNEA_FORWARD.name
RNEA_FEXT = _core.RNEA_FEXT.name
RNEA_BACKWARD = _core.RNEA_BACKWARD.name
RNEA_ARMATURE = _core.RNEA_ARMATURE.name

CRBA_FORWARD = _core.CRBA_FORWARD.name
CRBA_BACKWARD = _core.CRBA_BACKWARD.name
CRBA_ARMATURE = _core.CRBA_ARMATURE.name
CRBA_SYMMETRIC = _core.CRBA_SYMMETRIC.name

ABA_WORLD_INIT = _core.ABA_WORLD_INIT.name
ABA_WORLD_FORWARD1 = _core.ABA_WORLD_FORWARD1.name
ABA_WORLD_FEXT = _core.ABA_WORLD_FEXT.name
ABA_WORLD_BACKWARD = _core.ABA_WORLD_BACKWARD.name
ABA_WORLD_FORWARD2 = _core.ABA_WORLD_FORWARD2.name
ABA_WORLD_FINAL_LOOP = _core.ABA_WORLD_FINAL_LOOP.name

CRBA_WORLD_INIT = _core.CRBA_WORLD_INIT.name
CRBA_WORLD_FORWARD = _core.CRBA_WORLD_FORWARD.name
CRBA_WORLD_BACKWARD = _core.CRBA_WORLD_BACKWARD.name
CRBA_WORLD_ARMATURE = _core.CRBA_WORLD_ARMATURE.name
CRBA_WORLD_CENTROIDAL = _core.CRBA_WORLD_CENTROIDAL.name

# Every stop of each algorithm, in the order its passes run them.
STEPS = {algorithm: tuple(step.name for step in steps)
         for algorithm, steps in _core.STEPS.items()}
