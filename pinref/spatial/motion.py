"""Spatial motions and forces (``pinocchio::MotionTpl``, ``pinocchio::ForceTpl``).

A Motion is ``[v; w]`` (linear velocity of the point at the frame origin; angular velocity),
a Force is ``[f; n]`` (force; moment about the frame origin), both ``(..., 6)`` arrays with
leading batch axes, both expressed in one frame which the caller keeps track of.
"""

import numbers

import numpy as np

from ..errors import ArgumentTypeError, ShapeError
from . import _kernels as K

_set = object.__setattr__  # stores an already-checked array, past the checked __setattr__
_FIELDS = {"vector": (6,)}


class _SpatialVector(K.PinCopies):
    """Shared storage and vector-space arithmetic of Motion and Force (one ``(..., 6)`` array)."""

    __slots__ = ("vector",)
    # NumPy defers to our operators: ``array * m`` calls ``m.__rmul__`` (a batch of scalars)
    # instead of building an object array of Motions.
    __array_ufunc__ = None

    def __init__(self, *args):
        """``(vector)`` of shape ``(..., 6)`` or a ``(6, 1)`` column, ``(linear, angular)``,
        a copy of the same type, or nothing (zero; Pinocchio leaves it uninitialised)."""
        name = type(self).__name__
        if not args:
            vector = np.zeros(6)
        elif len(args) == 1 and isinstance(args[0], _SpatialVector):
            K.expect_type(args[0], type(self), f"{name}({name})",
                          "a Motion and a Force are not interchangeable; pass .vector to reuse "
                          "the six numbers")
            vector = args[0].vector.copy()
        elif len(args) == 1:
            vector = np.array(K.as_array(args[0], f"{name}(vector)", (6,), True))
        elif len(args) == 2:
            linear = K.as_array(args[0], f"{name}(linear, angular): linear", (3,), True)
            angular = K.as_array(args[1], f"{name}(linear, angular): angular", (3,), True)
            vector = K.stack6(linear, angular)
        else:
            raise ShapeError(f"{name} takes (vector) of shape (..., 6) or (linear, angular)")
        _set(self, "vector", vector)

    def __setattr__(self, name, value):
        """``x.vector = ...`` is checked and coerced as the constructor's argument."""
        K.checked_setattr(self, name, value, _FIELDS)

    @classmethod
    def unchecked(cls, vector):
        """The Motion (Force) of an array the caller has checked: ``(..., 6)``, float, finite;
        no check, no copy (a view stays a view). The algorithms build their results with it;
        user code wants ``Motion(vector)``, which checks and copies."""
        obj = object.__new__(cls)
        _set(obj, "vector", vector)
        return obj

    @classmethod
    def Zero(cls, shape=()):
        """The zero vector, with leading batch axes ``shape``."""
        return cls.unchecked(np.zeros(tuple(shape) + (6,)))

    @classmethod
    def Random(cls, shape=(), rng=None):
        """Entries uniform in [-1, 1], as Eigen's ``Random`` (values differ from Pinocchio's)."""
        rng = np.random.default_rng() if rng is None else rng
        return cls.unchecked(rng.uniform(-1.0, 1.0, tuple(shape) + (6,)))

    @property
    def linear(self):
        """The linear part, ``vector[..., 0:3]`` (a view)."""
        return self.vector[..., K.LINEAR]

    @linear.setter
    def linear(self, value):
        self.vector[..., K.LINEAR] = K.as_array(value, f"{type(self).__name__}.linear", (3,), True)

    @property
    def angular(self):
        """The angular part, ``vector[..., 3:6]`` (a view)."""
        return self.vector[..., K.ANGULAR]

    @angular.setter
    def angular(self, value):
        self.vector[..., K.ANGULAR] = K.as_array(value, f"{type(self).__name__}.angular", (3,),
                                                 True)

    def setRandom(self):
        """Replace the values in place by ``Random(self.shape)``."""
        _set(self, "vector", self.Random(self.shape).vector)

    def np(self):
        """Alias of ``vector``, as Pinocchio's ``.np`` (a property of each subclass, in its own
        class dict where ``pinocchio.utils.isapprox`` looks for it)."""
        return self.vector

    def __array__(self, dtype=None, copy=None):
        """``np.array(m)`` is the ``(..., 6)`` vector (a copy)."""
        return np.array(self.vector, dtype=dtype)

    @property
    def shape(self):
        """The batch shape (the leading axes of ``vector``)."""
        return self.vector.shape[:-1]

    def __getitem__(self, index):
        """The batch element(s) at ``index`` (indexes the leading axes only)."""
        K.check_batch_index(index, self.shape, type(self).__name__)
        return self.unchecked(self.vector[index])

    def copy(self):
        return self.unchecked(self.vector.copy())

    def _same(self, other, op):
        if type(other) is not type(self):
            raise ArgumentTypeError(
                f"{type(self).__name__} {op} {K.type_name(other)} is not defined")
        return other.vector

    def _se3(self, M, op):
        from .se3 import SE3

        return K.expect_type(M, SE3, f"{type(self).__name__}.{op}: M",
                             "pass the placement M whose action is meant")

    def se3Action(self, M):
        """``M.act(self)``."""
        return self._se3(M, "se3Action").act(self)

    def se3ActionInverse(self, M):
        """``M.actInv(self)``."""
        return self._se3(M, "se3ActionInverse").actInv(self)

    @K.broadcasting()
    def __add__(self, other):
        return self.unchecked(self.vector + self._same(other, "+"))

    @K.broadcasting()
    def __sub__(self, other):
        return self.unchecked(self.vector - self._same(other, "-"))

    @K.broadcasting()
    def __iadd__(self, other):
        _set(self, "vector", self.vector + self._same(other, "+"))
        return self

    @K.broadcasting()
    def __isub__(self, other):
        _set(self, "vector", self.vector - self._same(other, "-"))
        return self

    def __neg__(self):
        return self.unchecked(-self.vector)

    @K.broadcasting()
    def __mul__(self, scalar):
        """``alpha * x`` for a scalar, or an array of scalars of batch shape ``(...)``."""
        if not isinstance(scalar, (numbers.Real, np.ndarray)):
            return NotImplemented
        return self.unchecked(self.vector * np.asarray(scalar, dtype=float)[..., None])

    __rmul__ = __mul__

    @K.broadcasting()
    def __truediv__(self, scalar):
        if not isinstance(scalar, (numbers.Real, np.ndarray)):
            return NotImplemented
        return self.unchecked(self.vector / np.asarray(scalar, dtype=float)[..., None])

    def __eq__(self, other):
        return type(other) is type(self) and np.array_equal(self.vector, other.vector)

    __hash__ = None

    @K.broadcasting()
    def isApprox(self, other, prec=1e-12):
        """True when, in every batch element, the linear parts and the angular parts are each
        ``isApprox`` (Eigen: |a - b|^2 <= prec^2 min(|a|^2, |b|^2)), as Pinocchio tests them."""
        a, b = self.vector, self._same(other, "isApprox")
        return bool(np.all(K.is_approx(a[..., K.LINEAR], b[..., K.LINEAR], prec, 1)
                           & K.is_approx(a[..., K.ANGULAR], b[..., K.ANGULAR], prec, 1)))

    def isZero(self, prec=1e-12):
        """True when every entry is at most ``prec`` in absolute value (Eigen's ``isZero``)."""
        return bool(np.all(np.abs(self.vector) <= prec))

    def setZero(self):
        _set(self, "vector", np.zeros_like(self.vector))

    def __str__(self):
        """As Pinocchio prints it (``  v =`` / ``  w =`` rows, ``  f =`` / ``tau =``)."""
        if self.shape:
            return f"{type(self).__name__} batch of shape {self.shape}\n{self!r}"
        first, second = self._labels
        return (f"{first} = {K.eigen_str(self.linear)}\n"
                f"{second} = {K.eigen_str(self.angular)}\n")

    def __repr__(self):
        return f"{type(self).__name__}(linear={self.linear!r}, angular={self.angular!r})"


class Motion(_SpatialVector):
    """A spatial velocity or acceleration ``[v; w]``, shape ``(..., 6)``. Mirrors ``MotionTpl``."""

    __slots__ = ()
    _labels = ("  v", "  w")
    np = property(_SpatialVector.np)

    @property
    def homogeneous(self):
        """4x4 twist matrix ``[[[w]x, v], [0, 0]]`` (``MotionDense::toHomogeneousMatrix``)."""
        H = np.zeros(self.shape + (4, 4))
        H[..., :3, :3] = K.skew(self.angular)
        H[..., :3, 3] = self.linear
        return H

    @K.broadcasting()
    def cross(self, other):
        """``self ^ other``: motion x motion -> Motion, or motion x* force -> Force.

        m ^ n: v = m_v x n_w + m_w x n_v ; w = m_w x n_w    (== m.action @ n.vector)
        m x* f: f' = m_w x f ; n' = m_w x n + m_v x f       (== m.dualAction @ f.vector)
        """
        if isinstance(other, Motion):
            return Motion.unchecked(K.motion_cross_motion(self.vector, other.vector))
        if isinstance(other, Force):
            return Force.unchecked(K.motion_cross_force(self.vector, other.vector))
        raise ArgumentTypeError(f"Motion.cross takes a Motion or a Force, not {K.type_name(other)}")

    __xor__ = cross

    @property
    def action(self):
        """6x6 ``[[w]x, [v]x; 0, [w]x]`` (crm): ``m.action @ n.vector == (m ^ n).vector``."""
        return K.motion_action(self.vector)

    @property
    def dualAction(self):
        """6x6 ``-action^T`` (crf): ``m.dualAction @ f.vector == m.cross(f).vector``."""
        return K.motion_dual_action(self.vector)

    @K.broadcasting()
    def dot(self, force):
        """Power ``m . f = v . f + w . n``, shape ``(...)``, summed in Pinocchio's order."""
        K.expect_type(force, Force, "Motion.dot: force")
        return K.spatial_dot(self.vector, force.vector)


class Force(_SpatialVector):
    """A spatial force (wrench) ``[f; n]``, shape ``(..., 6)``. Mirrors ``ForceTpl``."""

    __slots__ = ()
    _labels = ("  f", "tau")
    np = property(_SpatialVector.np)

    @K.broadcasting()
    def dot(self, motion):
        """Power ``f . m = f . v + n . w``, shape ``(...)``, summed in Pinocchio's order."""
        K.expect_type(motion, Motion, "Force.dot: motion")
        return K.spatial_dot(motion.vector, self.vector)
