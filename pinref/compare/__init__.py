"""Everything that talks to Pinocchio (the ``pin`` extra). Nothing else in pinref imports it,
and importing this package does not: pinocchio is imported when a function is called.

- ``to_pinocchio(model)`` / ``from_pinocchio(pin_model)``: the same model, number for number.
- ``compare(model, q, v, a, tau, fext=..., armature=..., algorithm=...)``: pinref against
  Pinocchio 3.8.0, every cache of the end state and every field of every stop of the passes;
  returns a ``DiffReport`` (prints as a table, ``to_json()``). See docs/tools.md.
"""

from .bridge import from_pinocchio, to_pinocchio
from .diff import ALGORITHMS, TOLERANCE, compare
from .report import AlgorithmDiff, CacheDiff, DiffReport, Divergence, Location

__all__ = ["ALGORITHMS", "TOLERANCE", "AlgorithmDiff", "CacheDiff", "DiffReport", "Divergence",
           "Location", "compare", "from_pinocchio", "to_pinocchio"]
