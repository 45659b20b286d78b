"""Unit quaternions and angle-axis rotations as Pinocchio exposes them (``pin.Quaternion`` and
``pin.AngleAxis``, eigenpy's bindings of ``Eigen::Quaternion<double>`` and
``Eigen::AngleAxis<double>``), with leading batch axes.

Coefficients are stored ``(..., 4)`` in Eigen's order (x, y, z, w); the four-scalar constructor
takes them in the order (w, x, y, z), as Eigen and eigenpy do. The formulas and their evaluation
order are Eigen 3.4's (``Quaternion.h``). The module also holds the quaternion functions that
SE3, the exp/log maps, the conversions and the Lie groups share (``quaternion_to_matrix``,
``quaternion_multiply``, ...: checked public functions over unchecked kernels ``_quat_mul``,
...); it imports neither se3.py nor explog.py.
"""

import numpy as np

from ..errors import ShapeError
from . import _kernels as K
from ._kernels import as_array, cross
from ._numerics import _DIAG, _acos, _atan2, _cos, _dot3, _quiet, _s, _sin, _trace3

__all__ = ["Quaternion", "AngleAxis", "quaternion_to_matrix", "matrix_to_quaternion",
           "quaternion_multiply", "quaternion_conjugate", "quaternion_rotate", "quaternion_dot",
           "quaternion_first_order_normalize"]

DUMMY_PRECISION = 1e-12
"""``NumTraits<double>::dummy_precision()``, Eigen's default ``isApprox`` precision."""


# --- quaternion functions (math/quaternion.hpp and Eigen's Quaternion.h) ----------------------


def quaternion_to_matrix(quat):
    """Rotation matrix of the (x, y, z, w) quaternion, **not normalised** (``toRotationMatrix``).

    With tx = 2x, ty = 2y, tz = 2z:
    R = [[1-(ty y+tz z), tx y-tz w, tx z+ty w], [tx y+tz w, 1-(tx x+tz z), ty z-tx w],
         [tx z-ty w, ty z+tx w, 1-(tx x+ty y)]];  ``(..., 4)`` (or a ``(4, 1)`` column)
    ``-> (..., 3, 3)``.
    """
    return _quat_to_matrix(as_array(quat, "quaternion_to_matrix: quat (x, y, z, w)", (4,), True))


def _quat_to_matrix(quat):
    x, y, z, w = quat[..., 0], quat[..., 1], quat[..., 2], quat[..., 3]
    tx, ty, tz = 2.0 * x, 2.0 * y, 2.0 * z
    twx, twy, twz = tx * w, ty * w, tz * w
    txx, txy, txz = tx * x, ty * x, tz * x
    tyy, tyz, tzz = ty * y, tz * y, tz * z
    R = np.stack((1.0 - (tyy + tzz), txy - twz, txz + twy,
                  txy + twz, 1.0 - (txx + tzz), tyz - twx,
                  txz - twy, tyz + twx, 1.0 - (txx + tyy)), axis=-1)
    return R.reshape(R.shape[:-1] + (3, 3))


@_quiet
def matrix_to_quaternion(R):
    """The (x, y, z, w) quaternion of a rotation matrix, Eigen's ``Quaternion(R)`` conversion.

    If tr R > 0: w = sqrt(tr + 1) / 2 and (x, y, z) = unSkew-like differences / (4 w).
    Otherwise, with i the largest diagonal entry (j, k the next ones, cyclically):
    q_i = sqrt(R_ii - R_jj - R_kk + 1) / 2, w = (R_kj - R_jk) / (4 q_i),
    q_j = (R_ji + R_ij) / (4 q_i), q_k = (R_ki + R_ik) / (4 q_i).
    Mirrors ``pinocchio::quaternion::assignQuaternion``.  ``(..., 3, 3) -> (..., 4)``.
    """
    R = as_array(R, "matrix_to_quaternion: R", (3, 3))
    tr = _trace3(R)
    t = np.sqrt(tr + 1.0)
    half_inv = 0.5 / t
    positive = np.stack(((R[..., 2, 1] - R[..., 1, 2]) * half_inv,
                         (R[..., 0, 2] - R[..., 2, 0]) * half_inv,
                         (R[..., 1, 0] - R[..., 0, 1]) * half_inv,
                         0.5 * t), axis=-1)
    d = R[..., _DIAG[0], _DIAG[1]]
    largest = np.where(d[..., 1] > d[..., 0], 1, 0)
    d_largest = np.take_along_axis(d, largest[..., None], -1)[..., 0]
    largest = np.where(d[..., 2] > d_largest, 2, largest)
    per_axis = []
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        ti = np.sqrt(((R[..., i, i] - R[..., j, j]) - R[..., k, k]) + 1.0)
        inv = 0.5 / ti
        q = np.empty(R.shape[:-2] + (4,))
        q[..., i] = 0.5 * ti
        q[..., 3] = (R[..., k, j] - R[..., j, k]) * inv
        q[..., j] = (R[..., j, i] + R[..., i, j]) * inv
        q[..., k] = (R[..., k, i] + R[..., i, k]) * inv
        per_axis.append(q)
    negative = np.choose(largest[..., None], per_axis)
    return np.where((tr > 0.0)[..., None], positive, negative)


def quaternion_conjugate(quat):
    """(-x, -y, -z, w): the inverse rotation of a unit quaternion. ``(..., 4) -> (..., 4)``."""
    quat = as_array(quat, "quaternion_conjugate: quat", (4,))
    return quat * np.array([-1.0, -1.0, -1.0, 1.0])


def quaternion_multiply(a, b):
    """The Hamilton product ``a * b`` (rotation a then b in a's frame), Eigen's SSE2 order.

    x = (aw bx + ay bz) - (az by - ax bw) ; y = (aw by + ay bw) + (az bx - ax bz) ;
    z = (aw bz - ay bx) + (az bw + ax by) ; w = (aw bw - ay by) - (az bz + ax bx).
    ``(..., 4), (..., 4) -> (..., 4)``, (x, y, z, w) storage.
    """
    a = as_array(a, "quaternion_multiply: a", (4,))
    b = as_array(b, "quaternion_multiply: b", (4,))
    return _quat_mul(a, b)


def _quat_mul(a, b):
    ax, ay, az, aw = a[..., 0], a[..., 1], a[..., 2], a[..., 3]
    bx, by, bz, bw = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
    return np.stack(((aw * bx + ay * bz) - (az * by - ax * bw),
                     (aw * by + ay * bw) + (az * bx - ax * bz),
                     (aw * bz - ay * bx) + (az * bw + ax * by),
                     (aw * bw - ay * by) - (az * bz + ax * bx)), axis=-1)


def _quat_conj(q):
    return q * np.array([-1.0, -1.0, -1.0, 1.0])


def quaternion_rotate(quat, v):
    """``quat * v``: the vector v rotated by the quaternion, Eigen's ``_transformVector``.

    uv = 2 (q_vec x v) ; result = v + w uv + q_vec x uv.  ``(..., 4), (..., 3) -> (..., 3)``.
    """
    quat = as_array(quat, "quaternion_rotate: quat", (4,))
    v = as_array(v, "quaternion_rotate: v", (3,))
    return _quat_rotate(quat, v)


def _quat_rotate(q, v):
    qv = q[..., :3]
    uv = cross(qv, v)
    uv = uv + uv
    return (v + _s(q[..., 3]) * uv) + cross(qv, uv)


def quaternion_dot(a, b):
    """``a.dot(b)`` over (x, y, z, w) in Eigen's order (ax bx + az bz) + (ay by + aw bw).

    ``(..., 4), (..., 4) -> (...)``.
    """
    a = as_array(a, "quaternion_dot: a", (4,))
    b = as_array(b, "quaternion_dot: b", (4,))
    return _dot4(a, b)


def _dot4(a, b):
    return ((a[..., 0] * b[..., 0] + a[..., 2] * b[..., 2])
            + (a[..., 1] * b[..., 1] + a[..., 3] * b[..., 3]))


def quaternion_first_order_normalize(quat):
    """``quat * (3 - |quat|^2) / 2``: one Newton step towards unit norm, no square root.

    Mirrors ``pinocchio::quaternion::firstOrderNormalize`` (valid when |quat|^2 - 1 is small).
    ``(..., 4) -> (..., 4)``.
    """
    return _first_order_normalize(as_array(quat, "quaternion_first_order_normalize: quat", (4,)))


def _first_order_normalize(q):
    return q * _s((3.0 - _dot4(q, q)) / 2.0)


def coefficients(x, name):
    """The ``(..., 4)`` (x, y, z, w) coefficients of a pinref Quaternion, of any object with a
    ``coeffs()`` method (eigenpy's Quaternion), or of an array-like (a ``(4, 1)`` column too)."""
    if isinstance(x, Quaternion):
        return x._coeffs
    coeffs = getattr(x, "coeffs", None)
    if callable(coeffs):
        x = coeffs()
    return K.as_array(x, name, (4,), column=True)


class Quaternion:
    """``(x, y, z, w)`` coefficients ``(..., 4)``. Mirrors eigenpy's ``Quaternion``.

    Constructors: ``Quaternion()`` (identity), ``Quaternion(w, x, y, z)``, ``Quaternion(vec4)``
    (x, y, z, w order; ``(4,)``, ``(4, 1)`` or ``(..., 4)``), ``Quaternion(R)`` (a ``(..., 3, 3)``
    rotation, Eigen's conversion), ``Quaternion(u, v)`` (the rotation taking u to v,
    ``FromTwoVectors``), ``Quaternion(aa)`` (an AngleAxis), ``Quaternion(quat)`` (a copy).
    """

    __slots__ = ("_coeffs",)
    __array_ufunc__ = None

    def __init__(self, *args):
        if not args:
            self._coeffs = np.array([0.0, 0.0, 0.0, 1.0])
        elif len(args) == 4:
            w, x, y, z = (K.as_array(a, f"Quaternion(w, x, y, z): {n}", ())
                          for a, n in zip(args, "wxyz"))
            self._coeffs = np.stack(np.broadcast_arrays(x, y, z, w), axis=-1)
        elif len(args) == 2:
            self._coeffs = _from_two_vectors(K.as_array(args[0], "Quaternion(u, v): u", (3,), True),
                                             K.as_array(args[1], "Quaternion(u, v): v", (3,), True))
        elif len(args) == 1:
            x = args[0]
            if isinstance(x, Quaternion) or callable(getattr(x, "coeffs", None)):
                self._coeffs = np.array(coefficients(x, "Quaternion(quat)"))
                return
            if isinstance(x, AngleAxis):
                self._coeffs = x.quaternion()._coeffs
                return
            a = K.as_array(x, "Quaternion(array)", ())
            if a.shape[-2:] == (3, 3):
                self._coeffs = matrix_to_quaternion(a)
            else:
                self._coeffs = np.array(K.as_array(
                    a, "Quaternion(vec4) (x, y, z, w), or Quaternion(R) with R 3x3", (4,), True))
        else:
            raise ShapeError("Quaternion takes (), (w, x, y, z), (vec4 as x, y, z, w), (R 3x3), "
                             f"(u, v) or (quat), got {len(args)} arguments")

    @classmethod
    def unchecked(cls, coeffs):
        """The Quaternion of coefficients ``(..., 4)`` (x, y, z, w) the caller has checked;
        no check, no copy."""
        obj = object.__new__(cls)
        obj._coeffs = coeffs
        return obj

    @classmethod
    def Identity(cls, shape=()):
        """(0, 0, 0, 1), with leading batch axes ``shape``."""
        return cls.unchecked(np.broadcast_to(np.array([0.0, 0.0, 0.0, 1.0]),
                                         tuple(shape) + (4,)).copy())

    @staticmethod
    def FromTwoVectors(a, b):
        """The rotation taking the direction of a to that of b (``setFromTwoVectors``)."""
        return Quaternion(a, b)

    @property
    def shape(self):
        """The batch shape."""
        return self._coeffs.shape[:-1]

    def _part(i):
        def get(self):
            return self._coeffs[..., i][()]

        def set(self, value):
            self._coeffs[..., i] = K.as_array(value, f"Quaternion.{'xyzw'[i]}", ())

        return property(get, set, doc=f"The {'xyzw'[i]} coefficient, shape ``(...)``.")

    x, y, z, w = _part(0), _part(1), _part(2), _part(3)
    del _part

    def coeffs(self):
        """``(..., 4)`` (x, y, z, w), read-only as eigenpy's."""
        view = self._coeffs.view()
        view.flags.writeable = False
        return view

    def vec(self):
        """The imaginary part (x, y, z), ``(..., 3)``."""
        return self._coeffs[..., :3].copy()

    def matrix(self):
        """The rotation matrix ``(..., 3, 3)`` (``toRotationMatrix``; not normalised first)."""
        return _quat_to_matrix(self._coeffs)

    toRotationMatrix = matrix

    def squaredNorm(self):
        return _dot4(self._coeffs, self._coeffs)[()]

    def norm(self):
        return np.sqrt(_dot4(self._coeffs, self._coeffs))[()]

    def normalized(self):
        """``q / |q|``; a zero quaternion stays zero (Eigen's ``normalized``)."""
        n2 = _dot4(self._coeffs, self._coeffs)
        scale = np.where(n2 > 0.0, 1.0 / np.sqrt(np.where(n2 > 0.0, n2, 1.0)), 1.0)
        return Quaternion.unchecked(self._coeffs * scale[..., None])

    def normalize(self):
        """Normalise in place (a zero quaternion stays zero) and return self."""
        self._coeffs = self.normalized()._coeffs
        return self

    def conjugate(self):
        """(-x, -y, -z, w)."""
        return Quaternion.unchecked(_quat_conj(self._coeffs))

    def inverse(self):
        """``conjugate / |q|^2``, or zero for a zero quaternion (Eigen's ``inverse``)."""
        n2 = _dot4(self._coeffs, self._coeffs)
        inv = np.where(n2 > 0.0, 1.0 / np.where(n2 > 0.0, n2, 1.0), 0.0)
        return Quaternion.unchecked(_quat_conj(self._coeffs) * inv[..., None])

    def dot(self, other):
        """Coefficient dot product (ax bx + az bz) + (ay by + aw bw)."""
        return _dot4(self._coeffs, coefficients(other, "Quaternion.dot: other"))[()]

    @_quiet
    def angularDistance(self, other):
        """``2 atan2(|d_vec|, |d_w|)`` with ``d = self * other.conjugate()``, in radians."""
        d = _quat_mul(self._coeffs, _quat_conj(coefficients(other, "angularDistance: other")))
        vec = d[..., :3]
        return (2.0 * _atan2(np.sqrt(_dot3(vec, vec)), np.abs(d[..., 3])))[()]

    @_quiet
    def slerp(self, t, other):
        """Spherical interpolation from self (t = 0) to other (t = 1), Eigen's ``slerp``.

        d = a.b ; if |d| >= 1 - eps: (1 - t, t) ; else theta = acos|d|,
        (sin((1 - t) theta), sin(t theta)) / sin theta ; the second scale flips when d < 0.
        """
        t = K.as_array(t, "Quaternion.slerp: t", ())
        b = coefficients(other, "Quaternion.slerp: other")
        d = _dot4(self._coeffs, b)
        abs_d = np.abs(d)
        theta = _acos(abs_d)
        sin_theta = _sin(theta)
        near = abs_d >= 1.0 - K.EPS
        scale0 = np.where(near, 1.0 - t, _sin((1.0 - t) * theta) / sin_theta)
        scale1 = np.where(near, t, _sin(t * theta) / sin_theta)
        scale1 = np.where(d < 0.0, -scale1, scale1)
        return Quaternion.unchecked(scale0[..., None] * self._coeffs + scale1[..., None] * b)

    def isApprox(self, other, prec=DUMMY_PRECISION):
        """Eigen's ``coeffs().isApprox(other.coeffs(), prec)`` for every batch element."""
        return bool(np.all(K.is_approx(self._coeffs, coefficients(other, "isApprox: other"),
                                       prec, 1)))

    def setIdentity(self):
        self._coeffs = Quaternion.Identity(self.shape)._coeffs
        return self

    def setFromTwoVectors(self, a, b):
        self._coeffs = Quaternion(a, b)._coeffs
        return self

    def assign(self, quat):
        self._coeffs = np.array(coefficients(quat, "Quaternion.assign: quat"))
        return self

    def _transformVector(self, v):
        """The vector v rotated by self: v + w uv + q_vec x uv with uv = 2 q_vec x v."""
        return _quat_rotate(self._coeffs, K.as_array(v, "Quaternion * v", (3,), True))

    def __mul__(self, other):
        """``q1 * q2`` (Hamilton product) or ``q * v`` (v rotated, ``_transformVector``)."""
        if isinstance(other, Quaternion) or callable(getattr(other, "coeffs", None)):
            return Quaternion.unchecked(_quat_mul(self._coeffs, coefficients(other, "q1 * q2")))
        return self._transformVector(other)

    def __imul__(self, other):
        self._coeffs = _quat_mul(self._coeffs, coefficients(other, "q1 *= q2"))
        return self

    def __eq__(self, other):
        return isinstance(other, Quaternion) and np.array_equal(self._coeffs, other._coeffs)

    __hash__ = None

    def __copy__(self):
        return Quaternion.unchecked(self._coeffs.copy())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __str__(self):
        if self.shape:
            return f"Quaternion batch of shape {self.shape}:\n{self._coeffs}"
        return "(x,y,z,w) = " + K.eigen_str(self._coeffs) + "\n"

    def __repr__(self):
        return f"Quaternion(coeffs={self._coeffs!r})"


class AngleAxis:
    """A rotation of ``angle (...)`` about ``axis (..., 3)`` (not normalised, as Eigen keeps it).
    Mirrors eigenpy's ``AngleAxis`` (``pin.AngleAxis``).

    Constructors: ``AngleAxis()`` (angle 0 about x), ``AngleAxis(angle, axis)``,
    ``AngleAxis(R)`` (a ``(..., 3, 3)`` rotation, through its quaternion, as Eigen),
    ``AngleAxis(quat)``, ``AngleAxis(aa)`` (a copy).
    """

    __slots__ = ("angle", "axis")
    __array_ufunc__ = None

    def __init__(self, *args):
        if not args:
            self.angle, self.axis = np.array(0.0)[()], np.array([1.0, 0.0, 0.0])
        elif len(args) == 2:
            angle = K.as_array(args[0], "AngleAxis(angle, axis): angle", ())
            axis = K.as_array(args[1], "AngleAxis(angle, axis): axis", (3,), True)
            shape = K.batch_shape((angle, 0), (axis, 1))
            self.angle = np.broadcast_to(angle, shape).copy()[()]
            self.axis = np.broadcast_to(axis, shape + (3,)).copy()
        elif len(args) == 1 and isinstance(args[0], AngleAxis):
            self.angle, self.axis = np.array(args[0].angle)[()], np.array(args[0].axis)
        elif len(args) == 1:
            x = args[0]
            if not (isinstance(x, Quaternion) or callable(getattr(x, "coeffs", None))):
                x = matrix_to_quaternion(K.as_array(x, "AngleAxis(R)", (3, 3)))
            self.angle, self.axis = _angle_axis_of_quaternion(coefficients(x, "AngleAxis(quat)"))
        else:
            raise ShapeError("AngleAxis takes (), (angle, axis), (R 3x3), (quat) or (aa), got "
                             f"{len(args)} arguments")

    def matrix(self):
        """``(..., 3, 3)`` rotation, Eigen's ``AngleAxis::toRotationMatrix``."""
        return angle_axis_matrix(np.asarray(self.angle), self.axis)

    toRotationMatrix = matrix

    def fromRotationMatrix(self, R):
        self.angle, self.axis = AngleAxis(R).angle, AngleAxis(R).axis
        return self

    def inverse(self):
        """The rotation of -angle about the same axis."""
        return AngleAxis(-np.asarray(self.angle), self.axis)

    def quaternion(self):
        """``Quaternion(aa)``: (sin(angle / 2) axis, cos(angle / 2))."""
        return Quaternion.unchecked(angle_axis_quaternion(np.asarray(self.angle), self.axis))

    def isApprox(self, other, prec=DUMMY_PRECISION):
        """Eigen's: the axes ``isApprox`` and |a1 - a2| <= prec min(|a1|, |a2|)."""
        K.expect_type(other, AngleAxis, "AngleAxis.isApprox: other")
        a, b = np.asarray(self.angle), np.asarray(other.angle)
        return bool(np.all(K.is_approx(self.axis, other.axis, prec, 1)
                           & (np.abs(a - b) <= prec * np.minimum(np.abs(a), np.abs(b)))))

    def __mul__(self, other):
        """With an AngleAxis or a Quaternion: the Quaternion product; with a vector: R v."""
        if isinstance(other, AngleAxis):
            return self.quaternion() * other.quaternion()
        if isinstance(other, Quaternion) or callable(getattr(other, "coeffs", None)):
            return self.quaternion() * other
        return K.matvec(self.matrix(), K.as_array(other, "AngleAxis * v", (3,), True))

    def __str__(self):
        if np.shape(self.angle):
            return f"AngleAxis batch of shape {np.shape(self.angle)}:\n{self!r}"
        return f"angle: {float(self.angle):.6g}\naxis: {K.eigen_str(self.axis)}\n"

    def __repr__(self):
        return f"AngleAxis(angle={self.angle!r}, axis={self.axis!r})"


def angle_axis_quaternion(angle, axis):
    """Eigen's ``Quaternion(AngleAxis(angle, axis))``: (sin(angle/2) axis, cos(angle/2)),
    ``(...), (..., 3) -> (..., 4)``."""
    half = 0.5 * angle
    vec = _sin(half)[..., None] * axis
    w = np.broadcast_to(_cos(half), vec.shape[:-1])
    return np.concatenate((vec, w[..., None]), axis=-1)


def angle_axis_matrix(angle, axis):
    """Eigen's ``AngleAxis::toRotationMatrix``, ``(...), (..., 3) -> (..., 3, 3)``.

    s = sin(angle) axis, c = cos(angle), d = (1 - c) axis: off the diagonal
    R01 = d_x a_y - s_z, R10 = d_x a_y + s_z (and the same pattern for (0, 2), (1, 2)), and on
    the diagonal R_ii = d_i a_i + c.
    """
    angle = np.asarray(angle)
    sin_axis = _sin(angle)[..., None] * axis
    c = _cos(angle)
    cos1_axis = (1.0 - c)[..., None] * axis
    R = np.empty(np.broadcast_shapes(angle.shape, axis.shape[:-1]) + (3, 3))
    for i, j, k, sign in ((0, 1, 2, 1.0), (0, 2, 1, -1.0), (1, 2, 0, 1.0)):
        tmp = cos1_axis[..., i] * axis[..., j]
        R[..., i, j] = tmp - sign * sin_axis[..., k]
        R[..., j, i] = tmp + sign * sin_axis[..., k]
    R[..., [0, 1, 2], [0, 1, 2]] = cos1_axis * axis + c[..., None]
    return R


@_quiet
def _angle_axis_of_quaternion(q):
    """Eigen's ``AngleAxis(quat)``: n = |q_vec| (its stable form when n < eps); angle
    2 atan2(n, |w|) and axis +-q_vec / n (sign of w), or angle 0 about x when n = 0."""
    vec, w = q[..., :3], q[..., 3]
    n = np.sqrt(_dot3(vec, vec))
    scale = np.max(np.abs(vec), axis=-1)
    scaled = vec / np.where(scale > 0.0, scale, 1.0)[..., None]
    n = np.where(n < K.EPS, scale * np.sqrt(_dot3(scaled, scaled)), n)
    zero = n == 0.0
    safe_n = np.where(zero, 1.0, n)
    angle = np.where(zero, 0.0, 2.0 * _atan2(n, np.abs(w)))
    axis = np.where((w < 0.0)[..., None], -vec, vec) / safe_n[..., None]
    axis = np.where(zero[..., None], np.array([1.0, 0.0, 0.0]), axis)
    return angle[()], axis


@_quiet
def _from_two_vectors(a, b):
    """Eigen's ``setFromTwoVectors(a, b)``, ``(..., 3), (..., 3) -> (..., 4)``.

    v0 = a/|a|, v1 = b/|b|, c = v1.v0 ; s = sqrt(2 (1 + c)): (v0 x v1 / s, s / 2); when
    c < -1 + 1e-12 (opposite directions), the axis is the right singular vector of [v0; v1] of
    the smallest singular value, w^2 = (1 + max(c, -1)) / 2 (its sign is the SVD's).
    """
    v0 = a / np.sqrt(_dot3(a, a))[..., None]
    v1 = b / np.sqrt(_dot3(b, b))[..., None]
    c = _dot3(v1, v0)
    s = np.sqrt((1.0 + c) * 2.0)
    regular = np.concatenate((K.cross(v0, v1) * (1.0 / s)[..., None], (s * 0.5)[..., None]), -1)
    opposite = c < -1.0 + DUMMY_PRECISION
    if not np.any(opposite):
        return regular
    axis = np.linalg.svd(np.stack((v0, v1), axis=-2))[2][..., 2, :]
    w2 = (1.0 + np.maximum(c, -1.0)) * 0.5
    flipped = np.concatenate((axis * np.sqrt(1.0 - w2)[..., None], np.sqrt(w2)[..., None]), -1)
    return np.where(opposite[..., None], flipped, regular)
