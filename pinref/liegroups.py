"""``pinocchio.liegroups``: the configuration spaces as Lie group objects (``pin.liegroups.SO3()``,
``R3() * SO3()``, ...), as Pinocchio's Python bindings expose ``LieGroupGenericTpl``.

A ``LieGroup`` is a cartesian product of the spaces of ``pinref.joints.liegroup`` (one space for
``R3()``, ``SO3()``, ...; ``A * B`` concatenates them): q and v are split by the factors' nq and
nv, each factor computes with its own formulas, and Jacobians are block diagonal. Arguments
take leading batch axes as the spaces do.

Differences from Pinocchio's binding: ``normalize(q)`` normalises q in place and returns None
(Pinocchio's binding returns None and leaves q unchanged, since it works on a copy).
"""

import numbers

import numpy as np

from .errors import ArgumentTypeError, ShapeError
from .joints.liegroup import (SpecialEuclidean2, SpecialEuclidean3, SpecialOrthogonal2,
                              SpecialOrthogonal3, VectorSpace)
from .spatial._kernels import as_array, batch_shape

__all__ = ["LieGroup", "R1", "R2", "R3", "Rn", "SO2", "SO3", "SE2", "SE3"]


class LieGroup:
    """A product of configuration spaces with Pinocchio's ``LieGroup`` methods."""

    def __init__(self, *spaces):
        self._spaces = spaces
        self.name = " x ".join(space.name for space in spaces)
        self.nq = sum(space.nq for space in spaces)
        self.nv = sum(space.nv for space in spaces)

    def __mul__(self, other):
        """The cartesian product ``self x other``."""
        if not isinstance(other, LieGroup):
            return NotImplemented
        return LieGroup(*self._spaces, *other._spaces)

    def __eq__(self, other):
        return isinstance(other, LieGroup) and self._spaces == other._spaces

    def __hash__(self):
        return hash(self._spaces)

    def __repr__(self):
        return f"LieGroup({self.name})"

    # --- splitting into factors ------------------------------------------------------------

    def _parts(self, x, size, attr, op, what):
        x = as_array(x, f"{self.name}.{op}: {what}", (size,), True)
        out, start = [], 0
        for space in self._spaces:
            n = getattr(space, attr)
            out.append(x[..., start:start + n])
            start += n
        return out

    def _qs(self, q, op, what="q"):
        return self._parts(q, self.nq, "nq", op, what)

    def _vs(self, v, op, what="v"):
        return self._parts(v, self.nv, "nv", op, what)

    @staticmethod
    def _concat(parts):
        shape = np.broadcast_shapes(*(p.shape[:-1] for p in parts))
        return np.concatenate([np.broadcast_to(p, shape + p.shape[-1:]) for p in parts], -1)

    def _block_diagonal(self, blocks):
        shape = np.broadcast_shapes(*(b.shape[:-2] for b in blocks))
        out = np.zeros(shape + (self.nv, self.nv))
        start = 0
        for block in blocks:
            n = block.shape[-1]
            out[..., start:start + n, start:start + n] = block
            start += n
        return out

    # --- the operations ----------------------------------------------------------------------

    @property
    def neutral(self):
        """The neutral configuration ``(nq,)``."""
        return np.concatenate([space.neutral() for space in self._spaces])

    def random(self):
        """A random configuration: vector parts uniform in [-1, 1] (Eigen's ``setRandom``),
        rotation parts uniform."""
        return self._concat([space.random_configuration(-np.ones(space.nq), np.ones(space.nq))
                             for space in self._spaces])

    def randomConfiguration(self, lower, upper):
        """A random configuration with the vector parts uniform in [lower, upper]."""
        lows = self._qs(lower, "randomConfiguration", "lower")
        highs = self._qs(upper, "randomConfiguration", "upper")
        return self._concat([space.random_configuration(lo, hi)
                             for space, lo, hi in zip(self._spaces, lows, highs)])

    def integrate(self, q, v):
        qs, vs = self._qs(q, "integrate"), self._vs(v, "integrate")
        return self._concat([s.integrate(a, b) for s, a, b in zip(self._spaces, qs, vs)])

    def difference(self, q0, q1):
        a, b = self._qs(q0, "difference", "q0"), self._qs(q1, "difference", "q1")
        return self._concat([s.difference(x, y) for s, x, y in zip(self._spaces, a, b)])

    def interpolate(self, q0, q1, u):
        a, b = self._qs(q0, "interpolate", "q0"), self._qs(q1, "interpolate", "q1")
        return self._concat([s.interpolate(x, y, u) for s, x, y in zip(self._spaces, a, b)])

    def squaredDistance(self, q0, q1):
        d = self.difference(q0, q1)
        return np.sum(d * d, axis=-1)[()]

    def distance(self, q0, q1):
        return np.sqrt(self.squaredDistance(q0, q1))[()]

    def normalize(self, q):
        """Normalise the quaternion / (cos, sin) parts of the array q in place; returns None."""
        if not isinstance(q, np.ndarray) or q.dtype != float:
            raise ArgumentTypeError(f"{self.name}.normalize: q must be a float numpy array "
                                    "(it is normalised in place)")
        parts = self._qs(q, "normalize")
        q[...] = self._concat([s.normalize(x) for s, x in zip(self._spaces, parts)]).reshape(
            q.shape)

    def dIntegrate(self, q, v, arg):
        """Jacobian of integrate w.r.t. q (ARG0) or v (ARG1), ``(..., nv, nv)``."""
        qs, vs = self._qs(q, "dIntegrate"), self._vs(v, "dIntegrate")
        return self._block_diagonal([s.dIntegrate(a, b, arg)
                                     for s, a, b in zip(self._spaces, qs, vs)])

    def dIntegrate_dq(self, q, v, *product):
        """``dIntegrate(q, v, ARG0)``; with ``(SELF, J)`` it is ``J_int @ J``, with
        ``(J, SELF)`` ``J @ J_int`` (SELF is 0, as Pinocchio's)."""
        return _product(self.dIntegrate(q, v, 0), product, f"{self.name}.dIntegrate_dq")

    def dIntegrate_dv(self, q, v, *product):
        """``dIntegrate(q, v, ARG1)``, optionally multiplied as in ``dIntegrate_dq``."""
        return _product(self.dIntegrate(q, v, 1), product, f"{self.name}.dIntegrate_dv")

    def dDifference(self, q0, q1, arg, *product):
        """Jacobian of difference(q0, q1) w.r.t. q0 (ARG0) or q1 (ARG1), optionally multiplied
        by a matrix as in ``dIntegrate_dq``."""
        a, b = self._qs(q0, "dDifference", "q0"), self._qs(q1, "dDifference", "q1")
        J = self._block_diagonal([s.dDifference(x, y, arg)
                                  for s, x, y in zip(self._spaces, a, b)])
        return _product(J, product, f"{self.name}.dDifference")

    def dIntegrateTransport(self, q, v, J, arg):
        """``dIntegrate(q, v, arg) @ J``: a tangent vector ``(..., nv)`` or matrix
        ``(..., nv, m)`` carried from the end point of integrate back to q. J is read as
        vectors when it has one axis less than the Jacobian ``(..., nv, nv)`` (so with batched
        q and v, a matrix J carries the batch axes too)."""
        Jint = self.dIntegrate(q, v, arg)
        J = as_array(J, f"{self.name}.dIntegrateTransport: J", ())
        if J.ndim == Jint.ndim - 1:
            return _multiply(Jint, J[..., None], f"{self.name}.dIntegrateTransport")[..., 0]
        return _multiply(Jint, J, f"{self.name}.dIntegrateTransport")


def _multiply(A, B, name):
    """``A @ B`` of ``(..., n, k)`` and ``(..., k, m)`` matrices, or ShapeError naming both."""
    if A.ndim < 2 or B.ndim < 2 or A.shape[-1] != B.shape[-2]:
        raise ShapeError(f"{name}: cannot multiply shapes {A.shape} and {B.shape}")
    batch_shape((A, 2), (B, 2))
    return A @ B


def _product(J, product, name):
    """``J`` alone, ``J @ M`` for ``(SELF, M)`` or ``M @ J`` for ``(M, SELF)``."""
    if not product:
        return J
    if len(product) == 2:
        first, second = product
        if isinstance(first, numbers.Integral) and not isinstance(second, numbers.Integral):
            return _multiply(J, as_array(second, f"{name}: J", ()), name)
        if isinstance(second, numbers.Integral) and not isinstance(first, numbers.Integral):
            return _multiply(as_array(first, f"{name}: J", ()), J, name)
    raise ShapeError(f"{name}: after the configuration arguments pass nothing, (SELF, J) "
                     "for J_int @ J or (J, SELF) for J @ J_int (SELF = 0)")


def R1():
    return LieGroup(VectorSpace(1))


def R2():
    return LieGroup(VectorSpace(2))


def R3():
    return LieGroup(VectorSpace(3))


def Rn(n):
    return LieGroup(VectorSpace(n))


def SO2():
    return LieGroup(SpecialOrthogonal2())


def SO3():
    return LieGroup(SpecialOrthogonal3())


def SE2():
    return LieGroup(SpecialEuclidean2())


def SE3():
    return LieGroup(SpecialEuclidean3())
