"""``pinocchio.explog``: ``exp`` and ``log`` choosing the map from their argument, as Pinocchio's
Python module does (also ``pinref.exp`` / ``pinref.log``).

exp: a Motion -> ``exp6`` (an SE3); a real number -> ``math.exp``; an array of shape (6,) or
(6, 1) -> ``exp6``; (3,) or (3, 1) -> ``exp3`` (a rotation matrix).
log: an SE3 -> ``log6`` (a Motion); a real number -> ``math.log``; a (4, 4) array -> ``log6``;
(3, 3) -> ``log3``. Anything else raises ShapeError (a ValueError, as Pinocchio's).

The dispatch is on exact shapes, so a batch goes to ``exp3``/``exp6``/``log3``/``log6``
directly; a Motion or SE3 may carry batch axes.
"""

import math
import numbers

import numpy as np

from .errors import ShapeError
from .spatial import SE3, Motion, exp3, exp6, log3, log6

__all__ = ["exp", "log"]


def exp(x):
    """exp6 of a Motion or a 6-vector, exp3 of a 3-vector, math.exp of a real number."""
    if isinstance(x, Motion):
        return exp6(x)
    if isinstance(x, numbers.Real):
        return math.exp(x)
    if isinstance(x, np.ndarray):
        if x.shape in ((6,), (6, 1)):
            return exp6(x.reshape(6))
        if x.shape in ((3,), (3, 1)):
            return exp3(x.reshape(3))
        raise ShapeError(f"exp: an array must be a 3-vector (exp3) or a 6-vector (exp6), got "
                         f"shape {x.shape}; for a batch call exp3 or exp6")
    raise ShapeError(f"exp is defined for a real number, a 3- or 6-vector array and a Motion, "
                     f"not {type(x).__name__}; convert a list with np.array")


def log(x):
    """log6 of an SE3 or a 4x4 matrix, log3 of a 3x3 matrix, math.log of a real number."""
    if isinstance(x, SE3):
        return log6(x)
    if isinstance(x, numbers.Real):
        return math.log(x)
    if isinstance(x, np.ndarray):
        if x.shape == (4, 4):
            return log6(x)
        if x.shape == (3, 3):
            return log3(x)
        raise ShapeError(f"log: an array must be a 3x3 rotation (log3) or a 4x4 homogeneous "
                         f"matrix (log6), got shape {x.shape}; for a batch call log3 or log6")
    raise ShapeError(f"log is defined for a real number, a 3x3 or 4x4 array and an SE3, "
                     f"not {type(x).__name__}; convert a list with np.array")
