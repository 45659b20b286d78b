"""Rigid-body spatial inertias (``pinocchio::InertiaTpl``, spatial/inertia.hpp).

``Inertia(mass, lever, inertia)``: mass m ``(...)``, centre of mass c in the body frame
``(..., 3)``, rotational inertia I about the centre of mass in body axes ``(..., 3, 3)``.
Pinocchio stores I as a Symmetric3 (six numbers, read from the lower triangle); pinref stores the
full symmetric matrix and refuses a non-symmetric one.
"""

import numpy as np

from ..errors import InertiaError
from . import _kernels as K
from .motion import Force, Motion

SYMMETRY_TOLERANCE = 1e-12


class Inertia:
    """``(mass (...), lever (..., 3), inertia (..., 3, 3))`` with leading batch axes."""

    __slots__ = ("mass", "lever", "inertia")

    def __init__(self, mass, lever, inertia):
        m = K.as_array(mass, "Inertia: mass", ())
        c = K.as_array(lever, "Inertia: lever", (3,))
        I = K.as_array(inertia, "Inertia: inertia", (3, 3))
        if np.any(m < 0):
            raise InertiaError(f"Inertia: mass must be >= 0, got {m}")
        asym = np.abs(I - K.mT(I))
        if np.any(asym > SYMMETRY_TOLERANCE * np.maximum(1.0, np.abs(I).max())):
            raise InertiaError(
                "Inertia: the rotational inertia must be symmetric, got\n"
                f"{I}\n(asymmetry {asym.max():.3g}); pass 0.5 * (I + I.T) if that is meant")
        shape = K.batch_shape((m, 0), (c, 1), (I, 2))
        self.mass = np.broadcast_to(m, shape).copy()
        self.lever = np.broadcast_to(c, shape + (3,)).copy()
        # Symmetric3 keeps the lower triangle; mirror it so both triangles agree exactly.
        lower = np.tril(np.broadcast_to(I, shape + (3, 3)))
        self.inertia = lower + K.mT(np.tril(lower, -1))

    @classmethod
    def _wrap(cls, mass, lever, inertia):
        """Wrap arrays already checked (no copy), broadcast to one batch shape if they differ."""
        shape = mass.shape
        if lever.shape[:-1] != shape or inertia.shape[:-2] != shape:
            shape = np.broadcast_shapes(shape, lever.shape[:-1], inertia.shape[:-2])
            mass = np.broadcast_to(mass, shape).copy()
            lever = np.broadcast_to(lever, shape + (3,)).copy()
            inertia = np.broadcast_to(inertia, shape + (3, 3)).copy()
        obj = object.__new__(cls)
        obj.mass = mass
        obj.lever = lever
        obj.inertia = inertia
        return obj

    @classmethod
    def Zero(cls, shape=()):
        """Zero mass, lever and inertia."""
        shape = tuple(shape)
        return cls._wrap(np.zeros(shape), np.zeros(shape + (3,)), np.zeros(shape + (3, 3)))

    @classmethod
    def Identity(cls, shape=()):
        """Unit mass at the origin with unit rotational inertia (``matrix() == eye(6)``)."""
        shape = tuple(shape)
        return cls._wrap(np.ones(shape), np.zeros(shape + (3,)),
                         np.broadcast_to(np.eye(3), shape + (3, 3)).copy())

    @classmethod
    def Random(cls, shape=(), rng=None):
        """A physically valid random inertia (mass in (0, 1], positive-definite I)."""
        rng = np.random.default_rng() if rng is None else rng
        shape = tuple(shape)
        A = rng.uniform(-1.0, 1.0, shape + (3, 3))
        I = A @ K.mT(A) + 1e-2 * np.eye(3)
        return cls._wrap(rng.uniform(0.1, 1.0, shape), rng.uniform(-1.0, 1.0, shape + (3,)),
                         0.5 * (I + K.mT(I)))

    @property
    def shape(self):
        """The batch shape."""
        return np.broadcast_shapes(self.mass.shape, self.lever.shape[:-1],
                                   self.inertia.shape[:-2])

    def __getitem__(self, index):
        """The batch element(s) at ``index`` (indexes the leading axes only)."""
        return Inertia._wrap(self.mass[index], self.lever[index], self.inertia[index])

    def copy(self):
        return Inertia._wrap(self.mass.copy(), self.lever.copy(), self.inertia.copy())

    def matrix(self):
        """6x6 ``[[m I3, -m [c]x]; [m [c]x, I - m [c]x [c]x]]`` (``Inertia::matrix``)."""
        return K.inertia_matrix(self.mass, self.lever, self.inertia)

    @K.broadcasting()
    def __mul__(self, motion):
        """``Y * v -> Force``: f = m (v - c x w) ; n = I w + c x f  (== matrix() @ v)."""
        if not isinstance(motion, Motion):
            return NotImplemented
        return Force._wrap(K.inertia_mult(self.mass, self.lever, self.inertia, motion.vector))

    @K.broadcasting()
    def __add__(self, other):
        """Merge two bodies expressed in one frame (``Inertia::__plus__``; zero mass guarded).

        M = ma + mb ; inv = 1 / max(M, eps) ; AB = ca - cb ;
        c = (ma ca + mb cb) inv ; I = Ia + Ib - (ma mb inv) [AB]x^2
        Two massless inertias give mass 0, lever 0 and I = Ia + Ib (no division by zero).
        """
        if not isinstance(other, Inertia):
            return NotImplemented
        return Inertia._wrap(*K.inertia_add(self.mass, self.lever, self.inertia,
                                            other.mass, other.lever, other.inertia))

    @K.broadcasting()
    def __iadd__(self, other):
        """``Ya += Yb`` (``Inertia::__pequ__``): as ``+`` with c = ca (ma inv) + (mb inv) cb."""
        if not isinstance(other, Inertia):
            return NotImplemented
        merged = Inertia._wrap(*K.inertia_iadd(self.mass, self.lever, self.inertia,
                                               other.mass, other.lever, other.inertia))
        self.mass, self.lever, self.inertia = merged.mass, merged.lever, merged.inertia
        return self

    def se3Action(self, M):
        """``M.act(self)``: (m, R c + p, R I R^T) with Pinocchio's ``Symmetric3::rotate``."""
        return M.act(self)

    def se3ActionInverse(self, M):
        """``M.actInv(self)``: (m, R^T (c - p), R^T I R)."""
        return M.actInv(self)

    @K.broadcasting()
    def vxiv(self, v):
        """``v x* (Y v)`` in Pinocchio's closed form (used by ``nonLinearEffects``).

        mcxw = m (c x w) ; p = m v_lin - mcxw ;
        f = w x p ; n = w x (c x p + I w) - v_lin x mcxw
        """
        vl, w = v.vector[..., K.LINEAR], v.vector[..., K.ANGULAR]
        mcxw = self.mass[..., None] * K.cross(self.lever, w)
        p = self.mass[..., None] * vl - mcxw
        n = K.cross(w, K.cross(self.lever, p) + K.matvec(self.inertia, w)) - K.cross(vl, mcxw)
        return Force._wrap(K.stack6(K.cross(w, p), n))

    @K.broadcasting()
    def variation(self, v):
        """6x6 time variation ``v x* Y - Y v x = crf(v) Y - Y crm(v)`` (``Inertia::variation``).

        Pinocchio evaluates a blockwise closed form; the matrix products agree to rounding.
        """
        Y = self.matrix()
        return K.motion_dual_action(v.vector) @ Y - Y @ K.motion_action(v.vector)

    @K.broadcasting()
    def isApprox(self, other, prec=1e-12):
        """``Inertia::isApprox`` per batch element: |ma - mb| <= prec, and Eigen's
        ``isApprox`` on the lever and on the six stored numbers (xx, xy, yy, xz, yz, zz) of I."""
        if not isinstance(other, Inertia):
            raise TypeError(f"Inertia.isApprox takes an Inertia, not {type(other).__name__}")
        return bool(np.all(
            (np.abs(self.mass - other.mass) <= prec)
            & K.is_approx(self.lever, other.lever, prec, 1)
            & K.is_approx(K.symmetric3_data(self.inertia), K.symmetric3_data(other.inertia),
                          prec, 1)))

    def __repr__(self):
        return f"Inertia(mass={self.mass!r}, lever={self.lever!r}, inertia={self.inertia!r})"

