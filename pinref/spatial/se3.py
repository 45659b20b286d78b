"""Rigid transforms (``pinocchio::SE3Tpl``, spatial/se3-tpl.hpp).

``aMb = SE3(R, p)`` is the placement of frame b in frame a: a point with coordinates x_b in b
has coordinates ``R x_b + p`` in a. Composition ``(R1, p1) * (R2, p2) = (R1 R2, p1 + R1 p2)``.
Inverse actions use ``R^T``, never a matrix inverse, as Pinocchio does.

``SE3.Interpolate`` is defined in explog.py, beside exp6 and log6 which it needs (and which take
and return SE3), as Pinocchio declares it in se3-tpl.hpp and defines it in explog.hpp.
"""

import numpy as np

from ..errors import ShapeError
from . import _kernels as K
from .inertia import Inertia
from .motion import Force, Motion
from .quaternion import Quaternion, _quat_to_matrix, coefficients

_set = object.__setattr__  # stores an already-checked array, past the checked __setattr__
_FIELDS = {"rotation": (3, 3), "translation": (3,)}


class SE3(K.PinCopies):
    """``(rotation (..., 3, 3), translation (..., 3))`` with leading batch axes.

    Constructors (``SE3Tpl`` and its Python binding): ``SE3(R, p)``, ``SE3(quat, p)`` (a
    Quaternion, pinref's or eigenpy's, whose matrix becomes R), ``SE3(H)`` (``(..., 4, 4)``
    homogeneous), ``SE3(M)`` (a copy), ``SE3(1)`` and ``SE3()`` (the identity; Pinocchio's
    default constructor leaves the entries uninitialised). p may be a ``(3, 1)`` column.
    """

    __slots__ = ("rotation", "translation")
    # NumPy defers to our operators (``array * M`` is refused instead of an object array).
    __array_ufunc__ = None

    def __init__(self, *args):
        if len(args) == 2:
            rot = args[0]
            if isinstance(rot, Quaternion) or callable(getattr(rot, "coeffs", None)):
                R = _quat_to_matrix(coefficients(rot, "SE3(quat, translation): quat"))
            else:
                R = K.as_array(rot, "SE3(rotation, translation): rotation", (3, 3))
            p = K.as_array(args[1], "SE3(rotation, translation): translation", (3,), True)
            shape = K.batch_shape((R, 2), (p, 1))
            R = np.broadcast_to(R, shape + (3, 3)).copy()
            p = np.broadcast_to(p, shape + (3,)).copy()
        elif len(args) == 1 and isinstance(args[0], SE3):
            R, p = np.array(args[0].rotation), np.array(args[0].translation)
        elif not args or (len(args) == 1 and isinstance(args[0], int)
                          and not isinstance(args[0], bool)):
            if args and args[0] != 1:
                raise ShapeError(f"SE3(int): only SE3(1) (the identity) is defined, got {args[0]}")
            R, p = np.eye(3), np.zeros(3)
        elif len(args) == 1:
            H = K.as_array(args[0], "SE3(homogeneous)", (4, 4))
            R, p = H[..., :3, :3].copy(), H[..., :3, 3].copy()
        else:
            raise ShapeError(
                "SE3 takes (rotation, translation), (quaternion, translation), a (..., 4, 4) "
                "homogeneous matrix, an SE3, or nothing (the identity)")
        _set(self, "rotation", R)
        _set(self, "translation", p)

    def __setattr__(self, name, value):
        """``M.rotation = ...`` / ``M.translation = ...`` are checked and coerced as the
        constructor's arguments (a ``(3, 1)`` translation is stored ``(3,)``)."""
        K.checked_setattr(self, name, value, _FIELDS)

    @classmethod
    def unchecked(cls, R, p):
        """The SE3 of arrays the caller has checked: ``R (..., 3, 3)`` a rotation, ``p (..., 3)``,
        float, finite; no check, no copy (views stay views: ``data.oMi[i]``). User code wants
        ``SE3(R, p)``, which checks and copies."""
        obj = object.__new__(cls)
        _set(obj, "rotation", R)
        _set(obj, "translation", p)
        return obj

    @classmethod
    def Identity(cls, shape=()):
        """The identity placement, with leading batch axes ``shape``."""
        shape = tuple(shape)
        return cls.unchecked(np.broadcast_to(np.eye(3), shape + (3, 3)).copy(), np.zeros(shape + (3,)))

    @classmethod
    def Random(cls, shape=(), rng=None):
        """A uniformly random rotation and a translation uniform in [-1, 1]^3."""
        rng = np.random.default_rng() if rng is None else rng
        quat = rng.normal(size=tuple(shape) + (4,))
        quat /= np.linalg.norm(quat, axis=-1, keepdims=True)
        return cls.unchecked(_quat_to_matrix(quat), rng.uniform(-1.0, 1.0, tuple(shape) + (3,)))

    def setRandom(self):
        """Replace the values in place by ``SE3.Random(self.shape)``."""
        other = SE3.Random(self.shape)
        _set(self, "rotation", other.rotation)
        _set(self, "translation", other.translation)

    def setIdentity(self):
        """Replace the values in place by the identity (the batch shape is kept)."""
        other = SE3.Identity(self.shape)
        _set(self, "rotation", other.rotation)
        _set(self, "translation", other.translation)

    @property
    def shape(self):
        """The batch shape."""
        return np.broadcast_shapes(self.rotation.shape[:-2], self.translation.shape[:-1])

    def __getitem__(self, index):
        shape = self.shape
        K.check_batch_index(index, shape, "SE3", ".rotation[i, j], .translation[i]")
        R = np.broadcast_to(self.rotation, shape + (3, 3))[index]
        return SE3.unchecked(R, np.broadcast_to(self.translation, shape + (3,))[index])

    def copy(self):
        return SE3.unchecked(self.rotation.copy(), self.translation.copy())

    @property
    def np(self):
        """The homogeneous matrix, as Pinocchio's ``.np``."""
        return self.homogeneous

    def __array__(self, dtype=None, copy=None):
        """``np.array(M)`` is the homogeneous matrix ``(..., 4, 4)``."""
        H = self.homogeneous
        return H if dtype is None else H.astype(dtype)

    @property
    def homogeneous(self):
        """4x4 ``[[R, p], [0, 1]]``."""
        shape = self.shape
        H = np.zeros(shape + (4, 4))
        H[..., :3, :3] = self.rotation
        H[..., :3, 3] = self.translation
        H[..., 3, 3] = 1.0
        return H

    @property
    def action(self):
        """6x6 ``[[R, [p]x R]; [0, R]]``: ``M.action @ m.vector == M.act(m).vector``."""
        return K.se3_action(self.rotation, self.translation)

    @property
    def actionInverse(self):
        """6x6 ``[[R^T, -R^T [p]x]; [0, R^T]]``, with
        ``M.actionInverse @ m.vector == M.actInv(m).vector``.

        Equal to ``M.inverse().action`` only when R is orthonormal; Pinocchio (and ABA's
        ``SE3actOn``) use this form for any R.
        """
        return K.se3_action_inverse(self.rotation, self.translation)

    @property
    def dualAction(self):
        """6x6 ``[[R, 0]; [[p]x R, R]]``: ``M.dualAction @ f.vector == M.act(f).vector``."""
        return K.se3_dual_action(self.rotation, self.translation)

    def toActionMatrix(self):
        return self.action

    def toActionMatrixInverse(self):
        return self.actionInverse

    def toDualActionMatrix(self):
        return self.dualAction

    def inverse(self):
        """``(R^T, -R^T p)``."""
        Rt = K.mT(self.rotation)
        return SE3.unchecked(Rt.copy(), -K.matvec(Rt, self.translation))

    __invert__ = inverse

    @K.broadcasting(tail=1)
    def __mul__(self, other):
        """Composition ``aMb * bMc = aMc``: ``(R1 R2, p1 + R1 p2)``; with a Motion, Force,
        Inertia or a point ``(..., 3)`` (or a ``(3, 1)`` column), ``M.act(other)``."""
        if isinstance(other, SE3):
            R = self.rotation @ other.rotation
            return SE3.unchecked(R, self.translation + K.matvec(self.rotation, other.translation))
        if isinstance(other, (Motion, Force, Inertia, np.ndarray)):
            return self.act(other)
        return NotImplemented

    def __eq__(self, other):
        """Exact equality of rotation and translation (``SE3Tpl::isEqual``)."""
        return (isinstance(other, SE3) and np.array_equal(self.rotation, other.rotation)
                and np.array_equal(self.translation, other.translation))

    __hash__ = None

    @K.broadcasting(tail=1)
    def act(self, x):
        """``aMb.act(x_b) -> x_a`` for an SE3, Motion, Force, Inertia or a point ``(..., 3)``.

        motion: w' = R w ; v' = R v + p x w'        force: f' = R f ; n' = R n + p x f'
        inertia: (m, R c + p, R I R^T)              point: R x + p
        """
        R, p = self.rotation, self.translation
        if isinstance(x, Motion):
            return Motion.unchecked(K.act_motion(R, p, x.vector))
        if isinstance(x, Force):
            return Force.unchecked(K.act_force(R, p, x.vector))
        if isinstance(x, SE3):
            return self * x
        if isinstance(x, Inertia):
            return Inertia.unchecked(*K.act_inertia(R, p, x.mass.copy(), x.lever, x.inertia))
        point = _point(x, "SE3.act(point)")
        return K.matvec(R, point) + p

    @K.broadcasting(tail=1)
    def actInv(self, x):
        """``aMb.actInv(x_a) -> x_b``, the action of ``aMb.inverse()`` written with R^T.

        motion: v' = R^T (v - p x w) ; w' = R^T w   force: f' = R^T f ; n' = R^T (n - p x f)
        inertia: (m, R^T (c - p), R^T I R)          point: R^T (x - p)
        """
        R, p = self.rotation, self.translation
        if isinstance(x, Motion):
            return Motion.unchecked(K.act_inv_motion(R, p, x.vector))
        if isinstance(x, Force):
            return Force.unchecked(K.act_inv_force(R, p, x.vector))
        if isinstance(x, SE3):
            Rt = K.mT(R)
            return SE3.unchecked(Rt @ x.rotation, K.matvec(Rt, x.translation - p))
        if isinstance(x, Inertia):
            Rt = K.mT(R)
            return Inertia.unchecked(
                x.mass.copy(), K.matvec(Rt, x.lever - p), K.symmetric_rotate(x.inertia, Rt))
        point = _point(x, "SE3.actInv(point)")
        return K.matvec(K.mT(R), point - p)

    def isIdentity(self, prec=1e-12):
        """True when every batch element is the identity to ``prec``, as Eigen judges it.

        ``rotation.isIdentity(prec)``: |R_ii - 1| <= prec min(|R_ii|, 1), |R_ij| <= prec;
        ``translation.isZero(prec)``: |p_i| <= prec.
        """
        return bool(np.all(K.is_identity(self.rotation, prec))
                    and np.all(np.abs(self.translation) <= prec))

    @K.broadcasting()
    def isApprox(self, other, prec=1e-12):
        """True when every batch element has ``rotation.isApprox`` and ``translation.isApprox``
        (Eigen: |a - b|^2 <= prec^2 min(|a|^2, |b|^2), each part on its own)."""
        K.expect_type(other, SE3, "SE3.isApprox: other")
        return bool(np.all(K.is_approx(self.rotation, other.rotation, prec, 2)
                           & K.is_approx(self.translation, other.translation, prec, 1)))

    def __str__(self):
        """As Pinocchio prints an SE3 (``  R =`` rows, ``  p =`` row); a batch shows its shape."""
        if self.shape:
            return f"SE3 batch of shape {self.shape}\n{self!r}"
        return f"  R =\n{K.eigen_str(self.rotation)}\n  p = {K.eigen_str(self.translation)}\n"

    def __repr__(self):
        return f"SE3(rotation={self.rotation!r}, translation={self.translation!r})"


def _point(x, name):
    """A point ``(..., 3)`` (or a ``(3, 1)`` column) for ``act``/``actInv``; a homogeneous
    ``(4,)`` point is refused with the fix, as Pinocchio has no such overload."""
    if np.shape(x) == (4,):
        raise ShapeError(f"{name}: got a (4,) vector; a homogeneous point is not accepted, pass "
                         "its first three entries x[:3] (or use M.homogeneous @ x)")
    return K.as_array(x, f"{name} (a (..., 3) point)", (3,), True)
