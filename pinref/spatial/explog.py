"""Exponential and logarithm maps of SO(3) and SE(3), and quaternion conversions.

Mirrors spatial/explog.hpp, spatial/explog-quaternion.hpp and math/quaternion.hpp of
Pinocchio 3.8.0. Quaternions are stored (x, y, z, w), as in Pinocchio's configuration vectors.
"""

import numpy as np


def quaternion_to_matrix(quat):
    """Rotation matrix of the (x, y, z, w) quaternion, **not normalised** (Eigen ``toRotationMatrix``).

    With tx = 2x, ty = 2y, tz = 2z:
    R = [[1-(ty y+tz z), tx y-tz w, tx z+ty w], [tx y+tz w, 1-(tx x+tz z), ty z-tx w],
         [tx z-ty w, ty z+tx w, 1-(tx x+ty y)]];  ``(..., 4) -> (..., 3, 3)``.
    """
    x, y, z, w = quat[..., 0], quat[..., 1], quat[..., 2], quat[..., 3]
    tx, ty, tz = 2.0 * x, 2.0 * y, 2.0 * z
    twx, twy, twz = tx * w, ty * w, tz * w
    txx, txy, txz = tx * x, ty * x, tz * x
    tyy, tyz, tzz = ty * y, tz * y, tz * z
    R = np.stack((1.0 - (tyy + tzz), txy - twz, txz + twy,
                  txy + twz, 1.0 - (txx + tzz), tyz - twx,
                  txz - twy, tyz + twx, 1.0 - (txx + tyy)), axis=-1)
    return R.reshape(R.shape[:-1] + (3, 3))
