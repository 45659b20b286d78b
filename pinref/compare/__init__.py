"""Everything that talks to Pinocchio (the ``pin`` extra). Nothing else in pinref imports it."""

from .bridge import from_pinocchio, to_pinocchio

__all__ = ["from_pinocchio", "to_pinocchio"]
