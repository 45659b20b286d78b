"""Symmetric 3x3 matrices as Pinocchio stores them (``Symmetric3Tpl``, spatial/symmetric3.hpp).

``data (..., 6)`` holds the lower triangle row by row, (xx, xy, yy, xz, yz, zz). pinref's
Inertia keeps the full matrix instead (its ``inertia``); this class is for scripts that use
``pin.Symmetric3`` directly.
"""

import numpy as np

from ..errors import ShapeError
from . import _kernels as K

_IDENTITY = np.array([1.0, 0.0, 1.0, 0.0, 0.0, 1.0])


class Symmetric3:
    """``Symmetric3()`` (zero), ``Symmetric3(I)`` (a symmetric ``(..., 3, 3)``, its lower
    triangle is read), ``Symmetric3(data)`` (``(..., 6)``), ``Symmetric3(a0, ..., a5)``, or a
    copy of another Symmetric3."""

    __slots__ = ("data",)

    def __init__(self, *args):
        if not args:
            self.data = np.zeros(6)
        elif len(args) == 6:
            values = [K.as_array(a, f"Symmetric3(a0, ..., a5): a{k}", ())
                      for k, a in enumerate(args)]
            self.data = np.stack(np.broadcast_arrays(*values), axis=-1)
        elif len(args) == 1 and isinstance(args[0], Symmetric3):
            self.data = args[0].data.copy()
        elif len(args) == 1:
            a = K.as_array(args[0], "Symmetric3(I)", ())
            if a.shape[-2:] == (3, 3):
                self.data = K.symmetric3_data(a)
            else:
                self.data = np.array(K.as_array(
                    a, "Symmetric3(data) (xx, xy, yy, xz, yz, zz), or Symmetric3(I) with I 3x3",
                    (6,), True))
        else:
            raise ShapeError("Symmetric3 takes (), (I 3x3), (data of 6), (a0, ..., a5) or "
                             f"(Symmetric3), got {len(args)} arguments")

    @classmethod
    def unchecked(cls, data):
        """The Symmetric3 of its six coefficients ``(..., 6)`` the caller has checked; no check,
        no copy."""
        obj = object.__new__(cls)
        obj.data = data
        return obj

    @classmethod
    def Zero(cls, shape=()):
        return cls.unchecked(np.zeros(tuple(shape) + (6,)))

    @classmethod
    def Identity(cls, shape=()):
        return cls.unchecked(np.broadcast_to(_IDENTITY, tuple(shape) + (6,)).copy())

    @classmethod
    def Random(cls, shape=(), rng=None):
        """A random positive-definite matrix ``A A^T + I/100`` with A uniform in [-1, 1]
        (values differ from Pinocchio's ``RandomPositive``)."""
        rng = np.random.default_rng() if rng is None else rng
        A = rng.uniform(-1.0, 1.0, tuple(shape) + (3, 3))
        return cls.unchecked(K.symmetric3_data(A @ K.mT(A) + 1e-2 * np.eye(3)))

    @property
    def shape(self):
        return self.data.shape[:-1]

    def matrix(self):
        """The full symmetric ``(..., 3, 3)`` matrix."""
        return K.symmetric3_matrix(self.data)

    def __array__(self, dtype=None, copy=None):
        return np.array(self.matrix(), dtype=dtype)

    def setZero(self):
        self.data = np.zeros_like(self.data)

    def setIdentity(self):
        self.data = Symmetric3.Identity(self.shape).data

    def setRandom(self):
        self.data = Symmetric3.Random(self.shape).data

    def setDiagonal(self, diag):
        """Set xx, yy, zz from ``diag (..., 3)``; the other entries are kept."""
        d = K.as_array(diag, "Symmetric3.setDiagonal: diag", (3,), True)
        data = np.array(np.broadcast_to(self.data, K.batch_shape((self.data, 1), (d, 1)) + (6,)))
        data[..., [0, 2, 5]] = d
        self.data = data

    def rotate(self, R):
        """``R S R^T`` as ``Symmetric3::rotate`` evaluates it (exact symmetry)."""
        R = K.as_array(R, "Symmetric3.rotate: R", (3, 3))
        return Symmetric3.unchecked(K.symmetric3_data(K.symmetric_rotate(self.matrix(), R)))

    def copy(self):
        return Symmetric3.unchecked(self.data.copy())

    def isApprox(self, other, prec=1e-12):
        """Eigen's ``isApprox`` on the six stored numbers."""
        K.expect_type(other, Symmetric3, "Symmetric3.isApprox: other")
        return bool(np.all(K.is_approx(self.data, other.data, prec, 1)))

    def isZero(self, prec=1e-12):
        return bool(np.all(np.abs(self.data) <= prec))

    def __add__(self, other):
        K.expect_type(other, Symmetric3, "Symmetric3 + other")
        return Symmetric3.unchecked(self.data + other.data)

    def __sub__(self, other):
        K.expect_type(other, Symmetric3, "Symmetric3 - other")
        return Symmetric3.unchecked(self.data - other.data)

    def __eq__(self, other):
        return isinstance(other, Symmetric3) and np.array_equal(self.data, other.data)

    __hash__ = None

    def __repr__(self):
        return f"Symmetric3(data={self.data!r})"
