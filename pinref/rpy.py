"""Roll-pitch-yaw angles (``pinocchio.rpy``, math/rpy.hpp of Pinocchio 3.8.0).

``rpy = (r, p, y)`` stands for ``R = R_z(y) R_y(p) R_x(r)``. Every function takes leading batch
axes: rpy ``(..., 3)`` (or a ``(3, 1)`` column), rotations ``(..., 3, 3)``. sin, cos and atan2
come from the C library, as Pinocchio's.
"""

import numpy as np

from .algorithms import ReferenceFrame
from .errors import ShapeError, UnsupportedError
from .spatial import _kernels as K
from .spatial._numerics import _atan2, _cos, _sin
from .spatial.quaternion import (_quat_mul, _quat_to_matrix, angle_axis_matrix,
                                angle_axis_quaternion)

__all__ = ["rpyToMatrix", "matrixToRpy", "rotate", "computeRpyJacobian",
           "computeRpyJacobianInverse", "computeRpyJacobianTimeDerivative"]


def rpyToMatrix(*rpy):
    """``R_z(y) R_y(p) R_x(r)`` from ``rpyToMatrix(r, p, y)`` or ``rpyToMatrix(rpy)``.

    As Eigen evaluates ``(AngleAxis(y, z) * AngleAxis(p, y) * AngleAxis(r, x))
    .toRotationMatrix()``: the product of the three axis quaternions, then its matrix.
    """
    if len(rpy) == 3:
        r, p, y = (K.as_array(a, f"rpyToMatrix: {n}", ()) for a, n in zip(rpy, "rpy"))
    elif len(rpy) == 1:
        a = K.as_array(rpy[0], "rpyToMatrix: rpy", (3,), True)
        r, p, y = a[..., 0], a[..., 1], a[..., 2]
    else:
        raise ShapeError(f"rpyToMatrix takes (r, p, y) or (rpy), got {len(rpy)} arguments")
    z, y_axis, x = np.eye(3)[2], np.eye(3)[1], np.eye(3)[0]
    q = _quat_mul(_quat_mul(angle_axis_quaternion(y, z), angle_axis_quaternion(p, y_axis)),
                  angle_axis_quaternion(r, x))
    return _quat_to_matrix(q)


def matrixToRpy(R):
    """The (r, p, y) of R with r, y in [-pi, pi] and p in [-pi/2, pi/2] (``rpy::matrixToRpy``).

    Eigen's ``R.eulerAngles(2, 1, 0).reverse()``: a0 = atan2(R10, R00), shifted by pi when
    negative; c2 = |(R22, R21)|; a1 = atan2(-R20, -c2) after a shift, else atan2(-R20, c2);
    a2 = atan2(s1 R02 - c1 R12, c1 R11 - s1 R01) with (s1, c1) of a0. Then Pinocchio's fix-ups:
    p < -pi/2 -> p + 2 pi; p > pi/2 -> p = pi - p, r -+ pi, y - pi.
    """
    R = K.as_array(R, "matrixToRpy: R", (3, 3))
    pi = np.pi
    a0 = _atan2(R[..., 1, 0], R[..., 0, 0])
    c2 = np.sqrt(R[..., 2, 2] * R[..., 2, 2] + R[..., 2, 1] * R[..., 2, 1])
    shifted = a0 < 0.0
    a0 = np.where(shifted, a0 + pi, a0)
    a1 = np.where(shifted, _atan2(-R[..., 2, 0], -c2), _atan2(-R[..., 2, 0], c2))
    s1, c1 = _sin(a0), _cos(a0)
    a2 = _atan2(s1 * R[..., 0, 2] - c1 * R[..., 1, 2], c1 * R[..., 1, 1] - s1 * R[..., 0, 1])
    r, p, y = a2, a1, a0
    p = np.where(p < -pi / 2, p + 2 * pi, p)
    over = p > pi / 2
    p = np.where(over, pi - p, p)
    r = np.where(over, np.where(r < 0.0, r + pi, r - pi), r)
    y = np.where(over, y - pi, y)
    return np.stack((r, p, y), axis=-1)


_AXES = {"x": 0, "y": 1, "z": 2}


def rotate(axis, angle):
    """The rotation of ``angle`` about ``axis`` ("x", "y" or "z"), ``(..., 3, 3)`` for an angle
    of batch shape ``(...)``: Eigen's ``AngleAxis(angle, e_axis).toRotationMatrix()``."""
    if axis not in _AXES:
        raise ShapeError(f"rotate: Invalid axis: {axis!r}; pass 'x', 'y' or 'z'")
    return angle_axis_matrix(K.as_array(angle, "rotate: angle", ()), np.eye(3)[_AXES[axis]])


def _frame(reference_frame, name):
    try:
        return ReferenceFrame(reference_frame)
    except ValueError:
        raise UnsupportedError(
            f"{name}: reference_frame must be LOCAL, WORLD or LOCAL_WORLD_ALIGNED, got "
            f"{reference_frame!r}") from None


def _matrix(*rows):
    """A ``(..., 3, 3)`` matrix from nine entries given row by row (arrays or 0.0)."""
    return np.stack(np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in rows)),
                    axis=-1).reshape(np.broadcast_shapes(*(np.shape(x) for x in rows)) + (3, 3))


def computeRpyJacobian(rpy, reference_frame=ReferenceFrame.LOCAL):
    """J with ``omega = J(rpy) rpydot`` (``rpy::computeRpyJacobian``).

    LOCAL: [[1, 0, -sp], [0, cr, sr cp], [0, -sr, cr cp]];
    WORLD and LOCAL_WORLD_ALIGNED: [[cp cy, -sy, 0], [cp sy, cy, 0], [-sp, 0, 1]].
    """
    frame = _frame(reference_frame, "computeRpyJacobian")
    a = K.as_array(rpy, "computeRpyJacobian: rpy", (3,), True)
    sp, cp = _sin(a[..., 1]), _cos(a[..., 1])
    if frame == ReferenceFrame.LOCAL:
        sr, cr = _sin(a[..., 0]), _cos(a[..., 0])
        return _matrix(1.0, 0.0, -sp, 0.0, cr, sr * cp, 0.0, -sr, cr * cp)
    sy, cy = _sin(a[..., 2]), _cos(a[..., 2])
    return _matrix(cp * cy, -sy, 0.0, cp * sy, cy, 0.0, -sp, 0.0, 1.0)


def computeRpyJacobianInverse(rpy, reference_frame=ReferenceFrame.LOCAL):
    """The inverse of ``computeRpyJacobian`` in closed form (tp = sp / cp).

    LOCAL: [[1, sr tp, cr tp], [0, cr, -sr], [0, sr / cp, cr / cp]];
    WORLD: [[cy / cp, sy / cp, 0], [-sy, cy, 0], [cy tp, sy tp, 1]].
    """
    frame = _frame(reference_frame, "computeRpyJacobianInverse")
    a = K.as_array(rpy, "computeRpyJacobianInverse: rpy", (3,), True)
    sp, cp = _sin(a[..., 1]), _cos(a[..., 1])
    tp = sp / cp
    if frame == ReferenceFrame.LOCAL:
        sr, cr = _sin(a[..., 0]), _cos(a[..., 0])
        return _matrix(1.0, sr * tp, cr * tp, 0.0, cr, -sr, 0.0, sr / cp, cr / cp)
    sy, cy = _sin(a[..., 2]), _cos(a[..., 2])
    return _matrix(cy / cp, sy / cp, 0.0, -sy, cy, 0.0, cy * tp, sy * tp, 1.0)


def computeRpyJacobianTimeDerivative(rpy, rpydot, reference_frame=ReferenceFrame.LOCAL):
    """dJ/dt along rpydot (``rpy::computeRpyJacobianTimeDerivative``).

    LOCAL: [[0, 0, -cp dp], [0, -sr dr, cr cp dr - sr sp dp], [0, -cr dr, -sr cp dr - cr sp dp]];
    WORLD: [[-sp cy dp - cp sy dy, -cy dy, 0], [cp cy dy - sp sy dp, -sy dy, 0], [-cp dp, 0, 0]].
    """
    frame = _frame(reference_frame, "computeRpyJacobianTimeDerivative")
    a = K.as_array(rpy, "computeRpyJacobianTimeDerivative: rpy", (3,), True)
    d = K.as_array(rpydot, "computeRpyJacobianTimeDerivative: rpydot", (3,), True)
    sp, cp = _sin(a[..., 1]), _cos(a[..., 1])
    dp = d[..., 1]
    if frame == ReferenceFrame.LOCAL:
        sr, cr = _sin(a[..., 0]), _cos(a[..., 0])
        dr = d[..., 0]
        return _matrix(0.0, 0.0, -cp * dp, 0.0, -sr * dr, cr * cp * dr - sr * sp * dp,
                       0.0, -cr * dr, -sr * cp * dr - cr * sp * dp)
    sy, cy = _sin(a[..., 2]), _cos(a[..., 2])
    dy = d[..., 2]
    return _matrix(-sp * cy * dp - cp * sy * dy, -cy * dy, 0.0, cp * cy * dy - sp * sy * dp,
                   -sy * dy, 0.0, -cp * dp, 0.0, 0.0)
