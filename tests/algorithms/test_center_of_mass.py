"""Centre of mass, its Jacobian and the masses (pinref/algorithms/center_of_mass.py) against
Pinocchio 3.8.0, call by call (call_sequences.check_com_energy_sequence: the result and the
caches of every call, per state, including the entries a call leaves alone).
"""

import numpy as np
import pinocchio as pin
import pytest
from call_sequences import COM_BATCHES, check_com_energy_sequence
from conftest import assert_close
from models import MODEL_NAMES, build, random_states

import pinref

# Call sequences: (function, arguments). "q", "v", "a" are the state; the rest is passed as is.
SEQUENCES = {
    "com_q_v_a": [("centerOfMass", ("q", "v", "a"))],
    "com_levels": [("centerOfMass", ("q",)), ("centerOfMass", ("q", "v")),
                   ("centerOfMass", ("q", "v", "a", False)), ("centerOfMass", ("q", False))],
    "com_from_data": [("forwardKinematics", ("q", "v", "a")),
                      ("centerOfMass", (pinref.KinematicLevel.VELOCITY, True)),
                      ("centerOfMass", (pinref.KinematicLevel.POSITION, False)),
                      ("centerOfMass", ()), ("centerOfMass", (False,))],
    "com_after_crba": [("crba", ("q",)), ("centerOfMass", (pinref.KinematicLevel.POSITION, True))],
    "jacobian_com": [("jacobianCenterOfMass", ("q",)), ("jacobianCenterOfMass", ("q", False)),
                     ("centerOfMass", ("q", "v"))],
    "jacobian_com_from_data": [("forwardKinematics", ("q",)), ("jacobianCenterOfMass", ()),
                               ("jacobianCenterOfMass", (False,))],
    "masses": [("computeSubtreeMasses", ()), ("computeTotalMass", ())],
}


@pytest.mark.parametrize("armature", [False, True], ids=["no_armature", "armature"])
@pytest.mark.parametrize("batch", COM_BATCHES, ids=str)
@pytest.mark.parametrize("sequence", list(SEQUENCES))
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_call_sequence_matches_pin(model_name, sequence, batch, armature):
    check_com_energy_sequence(SEQUENCES[sequence], model_name, sequence, batch, armature)


def test_level_without_compute_subtree_coms_is_honoured_unlike_pins_python_dispatch():
    """pin 3.8.0's Python ``centerOfMass(model, data, level)`` (three arguments) resolves to the
    ``(model, data, compute_subtree_coms)`` overload: the level becomes a bool and the
    ACCELERATION pass runs. pinref honours the level (docs/kinematics.md); the returned com[0]
    is the same in both."""
    rmodel, pmodel = build("manipulator")
    q, v, a = random_states(pmodel, (), np.random.default_rng(3))
    pdata, rdata = pmodel.createData(), rmodel.createData()
    pin.forwardKinematics(pmodel, pdata, q, v, a)
    pinref.forwardKinematics(rmodel, rdata, q, v, a)
    com = pin.centerOfMass(pmodel, pdata, pin.KinematicLevel.POSITION)
    assert np.abs(pdata.acom[0]).max() > 0.1  # pin ran the acceleration pass
    assert_close(pinref.centerOfMass(rmodel, rdata, pinref.KinematicLevel.POSITION), com)
    assert np.abs(rdata.acom[0]).max() == 0.0  # pinref did not
    reference = pmodel.createData()
    pin.forwardKinematics(pmodel, reference, q, v, a)
    pin.centerOfMass(pmodel, reference, False)
    assert_close(pdata.com[2], reference.com[2])  # pin: compute_subtree_coms = bool(POSITION)


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_total_mass_without_data(model_name):
    rmodel, pmodel = build(model_name)
    assert_close(pinref.computeTotalMass(rmodel), pin.computeTotalMass(pmodel))
