"""Spatial algebra with leading batch axes: SE3, Motion, Force, Inertia, exp/log maps.

Conventions (fixed, as in Pinocchio):

- spatial vectors are ``[linear; angular]``: ``LINEAR = slice(0, 3)``, ``ANGULAR = slice(3, 6)``;
- ``aMb`` is the placement of frame b in frame a, ``aMb.act(x_b) = x_a``;
- every object wraps arrays that may carry leading batch axes, and every operation broadcasts.
"""

from ._kernels import ANGULAR, LINEAR, skew, unSkew
from .explog import *  # noqa: F401,F403  (exp3, log3, ..., quaternion helpers)
from .explog import __all__ as _explog_all
from .inertia import Inertia
from .motion import Force, Motion
from .se3 import SE3

__all__ = ["ANGULAR", "LINEAR", "SE3", "Motion", "Force", "Inertia", "skew", "unSkew",
           *_explog_all]
