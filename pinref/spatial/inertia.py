"""Rigid-body spatial inertias (``pinocchio::InertiaTpl``, spatial/inertia.hpp).

``Inertia(mass, lever, inertia)``: mass m ``(...)``, centre of mass c in the body frame
``(..., 3)``, rotational inertia I about the centre of mass in body axes ``(..., 3, 3)``.
Pinocchio stores I as a Symmetric3 (six numbers, read from the lower triangle); pinref stores the
full symmetric matrix and refuses a non-symmetric one.
"""

import numpy as np

from . import _kernels as K
from .motion import Force, Motion
from ..errors import InertiaError

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

    def copy(self):
        return Inertia._wrap(self.mass.copy(), self.lever.copy(), self.inertia.copy())

    def matrix(self):
        """6x6 ``[[m I3, -m [c]x]; [m [c]x, I - m [c]x [c]x]]`` (``Inertia::matrix``)."""
        return K.inertia_matrix(self.mass, self.lever, self.inertia)

    def __mul__(self, motion):
        """``Y * v -> Force``: f = m (v - c x w) ; n = I w + c x f  (== matrix() @ v)."""
        if not isinstance(motion, Motion):
            return NotImplemented
        return Force._wrap(K.inertia_mult(self.mass, self.lever, self.inertia, motion.vector))

    def __add__(self, other):
        """Merge two bodies expressed in one frame (``Inertia::__plus__``; zero mass guarded).

        M = ma + mb ; inv = 1 / max(M, eps) ; AB = ca - cb ;
        c = ca (ma inv) + (mb inv) cb ; I = Ia + Ib - (ma mb inv) [AB]x^2
        """
        if not isinstance(other, Inertia):
            return NotImplemented
        return Inertia._wrap(*K.inertia_add(self.mass, self.lever, self.inertia,
                                            other.mass, other.lever, other.inertia))

    def __iadd__(self, other):
        if not isinstance(other, Inertia):
            return NotImplemented
        self.mass, self.lever, self.inertia = K.inertia_add(
            self.mass, self.lever, self.inertia, other.mass, other.lever, other.inertia)
        return self

    def se3Action(self, M):
        """``M.act(self)``: (m, R c + p, R I R^T) with Pinocchio's ``Symmetric3::rotate``."""
        return M.act(self)

    def se3ActionInverse(self, M):
        """``M.actInv(self)``: (m, R^T (c - p), R^T I R)."""
        return M.actInv(self)

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

    def variation(self, v):
        """6x6 time variation ``v x* Y - Y v x`` (``Inertia::variation``)."""
        Y = self.matrix()
        crm = K.motion_action(v.vector)
        return -K.mT(crm) @ Y - Y @ crm

    def isApprox(self, other, prec=1e-12):
        """Eigen's ``isApprox`` on mass (absolute), lever and inertia (relative)."""
        def approx(a, b, axes):
            d = np.sqrt(np.sum((a - b) ** 2, axis=axes))
            ref = np.minimum(np.sqrt(np.sum(a**2, axis=axes)), np.sqrt(np.sum(b**2, axis=axes)))
            return np.all(d <= prec * ref)
        return bool(np.all(np.abs(self.mass - other.mass) <= prec)
                    and approx(self.lever, other.lever, -1)
                    and approx(self.inertia, other.inertia, (-2, -1)))

    def __repr__(self):
        return f"Inertia(mass={self.mass!r}, lever={self.lever!r}, inertia={self.inertia!r})"

