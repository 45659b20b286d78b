"""Spatial algebra with leading batch axes: SE3, Motion, Force, Inertia, exp/log maps.

Conventions (fixed, as in Pinocchio):

- spatial vectors are ``[linear; angular]``: ``LINEAR = slice(0, 3)``, ``ANGULAR = slice(3, 6)``;
- ``aMb`` is the placement of frame b in frame a, ``aMb.act(x_b) = x_a``;
- every object wraps arrays that may carry leading batch axes, and every operation broadcasts.
"""

from ._kernels import ANGULAR, LINEAR
from .conversions import *  # noqa: F401,F403  (skew, unSkew, skewSquare, SE3ToXYZQUAT, ...)
from .conversions import __all__ as _conversions_all
from .dynamic_parameters import LogCholeskyParameters, PseudoInertia
from .explog import *  # noqa: F401,F403  (exp3, log3, ..., their quaternion forms)
from .explog import __all__ as _explog_all
from .inertia import Inertia
from .motion import Force, Motion
from .quaternion import *  # noqa: F401,F403  (Quaternion, AngleAxis, quaternion_to_matrix, ...)
from .quaternion import __all__ as _quaternion_all
from .se3 import SE3
from .symmetric3 import Symmetric3

__all__ = ["ANGULAR", "LINEAR", "SE3", "Motion", "Force", "Inertia", "Symmetric3", "PseudoInertia",
           "LogCholeskyParameters", *_quaternion_all, *_conversions_all, *_explog_all]
