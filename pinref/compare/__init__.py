"""Everything that talks to Pinocchio (the ``pin`` extra). Nothing else in pinref imports it,
and importing this package does not: pinocchio is imported when a function is called.

- ``to_pinocchio(model)`` / ``from_pinocchio(pin_model)``: the same model, number for number.
- ``compare(model, q, v, a, tau, fext=..., armature=..., algorithm=...)``: pinref against
  Pinocchio 3.8.0, every cache of the end state and every field of every stop of the passes;
  returns a ``DiffReport`` (prints as a table, ``to_json()``). See docs/tools.md.
"""

from .bridge import from_pinocchio, to_pinocchio
from .diff import ALGORITHMS, TOLERANCE, compare, random_states
from .models import SAMPLE_MODELS, load_model, with_free_flyer
from .report import AlgorithmDiff, CacheDiff, DiffReport, Divergence, Location

__all__ = ["ALGORITHMS", "SAMPLE_MODELS", "TOLERANCE", "AlgorithmDiff", "CacheDiff", "DiffReport",
           "Divergence", "Location", "compare", "from_pinocchio", "load_model", "random_states",
           "to_pinocchio", "with_free_flyer"]
