"""Pinocchio's free functions on spatial quantities, checked at the API boundary: ``skew``,
``unSkew``, ``skewSquare`` (spatial/skew.hpp) and the conversions between an SE3 and its
``[x, y, z, qx, qy, qz, qw]`` vector (``SE3ToXYZQUAT``, ``SE3ToXYZQUATtuple``,
``XYZQUATToSE3`` of Pinocchio's Python bindings).

The unchecked kernels (``_kernels.skew``, ``_kernels.unSkew``) are what the algorithms call.
"""

import numpy as np

from ..errors import ShapeError
from . import _kernels as K
from ._numerics import _dot3
from .quaternion import _dot4, _quat_to_matrix, matrix_to_quaternion
from .se3 import SE3

__all__ = ["skew", "unSkew", "skewSquare", "SE3ToXYZQUAT", "SE3ToXYZQUATtuple", "XYZQUATToSE3",
           "UNIT_QUATERNION_TOLERANCE"]

UNIT_QUATERNION_TOLERANCE = 1e-6
"""Largest accepted ``| |quat| - 1 |`` in ``XYZQUATToSE3`` (as for configuration vectors)."""


def skew(v):
    """``[v]x`` with ``[v]x w == v x w``: ``(..., 3)`` or a ``(3, 1)`` column -> ``(..., 3, 3)``.
    Mirrors ``pinocchio::skew``."""
    return K.skew(K.as_array(v, "skew: v", (3,), True))


def unSkew(M):
    """``0.5 (M21 - M12, M02 - M20, M10 - M01)``, ``(..., 3, 3) -> (..., 3)``. Mirrors
    ``pinocchio::unSkew``."""
    return K.unSkew(K.as_array(M, "unSkew: M (a 3x3 matrix)", (3, 3)))


def skewSquare(u, v):
    """``[u]x [v]x = v u^T - (u . v) I3`` (``pinocchio::skewSquare``): ``u x (v x w)`` is
    ``skewSquare(u, v) @ w``. ``(..., 3), (..., 3) -> (..., 3, 3)``."""
    u = K.as_array(u, "skewSquare: u", (3,), True)
    v = K.as_array(v, "skewSquare: v", (3,), True)
    C = v[..., :, None] * u[..., None, :]
    C[..., [0, 1, 2], [0, 1, 2]] -= _dot3(u, v)[..., None]
    return C


def SE3ToXYZQUAT(M):
    """``[p, quat]`` ``(..., 7)`` of an SE3: the translation, then the (x, y, z, w) quaternion
    of the rotation by Eigen's matrix-to-quaternion conversion."""
    K.expect_type(M, SE3, "SE3ToXYZQUAT: M")
    shape = M.shape
    out = np.empty(shape + (7,))
    out[..., :3] = M.translation
    out[..., 3:] = matrix_to_quaternion(np.broadcast_to(M.rotation, shape + (3, 3)))
    return out


def SE3ToXYZQUATtuple(M):
    """``SE3ToXYZQUAT(M)`` as a tuple of seven floats (one placement, no batch)."""
    if K.expect_type(M, SE3, "SE3ToXYZQUATtuple: M").shape:
        raise ShapeError(f"SE3ToXYZQUATtuple: M has batch shape {M.shape}; a tuple holds one "
                         "placement, use SE3ToXYZQUAT(M) for the (..., 7) array")
    return tuple(float(x) for x in SE3ToXYZQUAT(M))


def XYZQUATToSE3(xyzquat):
    """The SE3 of ``[x, y, z, qx, qy, qz, qw]`` (an array ``(..., 7)``, a tuple or a list):
    translation (x, y, z), rotation the matrix of the quaternion.

    A quaternion whose norm is off 1 by more than ``UNIT_QUATERNION_TOLERANCE`` raises
    NotNormalizedError (Pinocchio would build a non-orthonormal rotation from it).
    """
    v = K.as_array(xyzquat, "XYZQUATToSE3: xyzquat [x, y, z, qx, qy, qz, qw]", (7,), True)
    quat = v[..., 3:]
    norms = np.sqrt(_dot4(quat, quat))
    if np.any(np.abs(norms - 1.0) > UNIT_QUATERNION_TOLERANCE):
        raise K.unit_norm_error("XYZQUATToSE3: xyzquat[3:7]", "quaternion", norms,
                                UNIT_QUATERNION_TOLERANCE,
                                "divide the quaternion by its norm first")
    return SE3.unchecked(_quat_to_matrix(quat), v[..., :3].copy())
