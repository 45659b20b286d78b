"""Rigid-body spatial inertias (``pinocchio::InertiaTpl``, spatial/inertia.hpp).

``Inertia(mass, lever, inertia)``: mass m ``(...)``, centre of mass c in the body frame
``(..., 3)``, rotational inertia I about the centre of mass in body axes ``(..., 3, 3)``.
Pinocchio stores I as a Symmetric3 (six numbers, read from the lower triangle); pinref stores the
full symmetric matrix and refuses a non-symmetric one.
"""

import math

import numpy as np

from ..errors import InertiaError
from . import _kernels as K
from ._numerics import _c_function
from .motion import Force, Motion
from .physical import check_rigid_body

SYMMETRY_TOLERANCE = 1e-12

_set = object.__setattr__  # stores an already-checked array, past the checked __setattr__
_FIELDS = {"mass": (), "lever": (3,), "inertia": (3, 3)}
_pow = _c_function(math.pow, 2)  # the C library's pow (r**3 in NumPy is r*r*r, 1 ulp off)


class Inertia(K.PinCopies):
    """``(mass (...), lever (..., 3), inertia (..., 3, 3))`` with leading batch axes."""

    __slots__ = ("mass", "lever", "inertia")

    def __init__(self, mass=None, lever=None, inertia=None):
        """``Inertia(mass, lever, inertia)`` (lever may be a ``(3, 1)`` column), ``Inertia(Y)``
        (a copy) or ``Inertia()`` (zero; Pinocchio leaves it uninitialised)."""
        if lever is None and inertia is None:
            other = Inertia.Zero() if mass is None else K.expect_type(mass, Inertia, "Inertia(Y)")
            self._assign(other.copy())
            return
        m = K.as_array(mass, "Inertia: mass", ())
        c = K.as_array(lever, "Inertia: lever", (3,), True)
        I = K.as_array(inertia, "Inertia: inertia", (3, 3))
        if np.any(m < 0):
            raise InertiaError(f"Inertia: mass must be >= 0, got {m}")
        asym = np.abs(I - K.mT(I))
        if np.any(asym > SYMMETRY_TOLERANCE * np.maximum(1.0, np.abs(I).max(initial=0.0))):
            raise InertiaError(
                "Inertia: the rotational inertia must be symmetric, got\n"
                f"{I}\n(asymmetry {asym.max():.3g}); pass 0.5 * (I + I.T) if that is meant")
        check_rigid_body(I, "Inertia")
        shape = K.batch_shape((m, 0), (c, 1), (I, 2))
        _set(self, "mass", np.broadcast_to(m, shape).copy())
        _set(self, "lever", np.broadcast_to(c, shape + (3,)).copy())
        # Symmetric3 keeps the lower triangle; mirror it so both triangles agree exactly.
        lower = np.tril(np.broadcast_to(I, shape + (3, 3)))
        _set(self, "inertia", lower + K.mT(np.tril(lower, -1)))

    @classmethod
    def unchecked(cls, mass, lever, inertia):
        """The Inertia of arrays the caller has checked: ``mass (...)``, ``lever (..., 3)``,
        ``inertia (..., 3, 3)`` symmetric, float, finite; no check, no copy (broadcast to one
        batch shape if they differ). The algorithms build their results with it; user code
        wants ``Inertia(mass, lever, inertia)``, which checks and copies."""
        shape = mass.shape
        if lever.shape[:-1] != shape or inertia.shape[:-2] != shape:
            shape = np.broadcast_shapes(shape, lever.shape[:-1], inertia.shape[:-2])
            mass = np.broadcast_to(mass, shape).copy()
            lever = np.broadcast_to(lever, shape + (3,)).copy()
            inertia = np.broadcast_to(inertia, shape + (3, 3)).copy()
        obj = object.__new__(cls)
        obj._assign_arrays(mass, lever, inertia)
        return obj

    def __setattr__(self, name, value):
        """``Y.mass = ...``, ``Y.lever = ...``, ``Y.inertia = ...`` are checked and coerced as
        the constructor's arguments (a ``(3, 1)`` lever is stored ``(3,)``)."""
        K.checked_setattr(self, name, value, _FIELDS)

    def _assign_arrays(self, mass, lever, inertia):
        _set(self, "mass", mass)
        _set(self, "lever", lever)
        _set(self, "inertia", inertia)

    @classmethod
    def Zero(cls, shape=()):
        """Zero mass, lever and inertia."""
        shape = tuple(shape)
        return cls.unchecked(np.zeros(shape), np.zeros(shape + (3,)), np.zeros(shape + (3, 3)))

    @classmethod
    def Identity(cls, shape=()):
        """Unit mass at the origin with unit rotational inertia (``matrix() == eye(6)``)."""
        shape = tuple(shape)
        return cls.unchecked(np.ones(shape), np.zeros(shape + (3,)),
                         np.broadcast_to(np.eye(3), shape + (3, 3)).copy())

    @classmethod
    def Random(cls, shape=(), rng=None):
        """A physically valid random inertia: mass in [0.1, 1), lever in [-1, 1)^3 and
        ``I = tr(S) I3 - S`` for a random second-moment matrix ``S = A A^T + 0.01 I3`` (positive
        principal moments obeying the triangle inequality, as a rigid body's)."""
        rng = np.random.default_rng() if rng is None else rng
        shape = tuple(shape)
        A = rng.uniform(-1.0, 1.0, shape + (3, 3))
        S = A @ K.mT(A) + 1e-2 * np.eye(3)
        S = 0.5 * (S + K.mT(S))
        I = np.trace(S, axis1=-2, axis2=-1)[..., None, None] * np.eye(3) - S
        return cls.unchecked(rng.uniform(0.1, 1.0, shape), rng.uniform(-1.0, 1.0, shape + (3,)), I)

    @classmethod
    def FromEllipsoid(cls, mass, length_x, length_y, length_z):
        """A solid ellipsoid of semi-axes (x, y, z) about its centre (``FromEllipsoid``):
        diag(m (y^2 + z^2) / 5, m (x^2 + z^2) / 5, m (y^2 + x^2) / 5). Arguments broadcast."""
        m, x, y, z = _scalars("Inertia.FromEllipsoid", mass=mass, length_x=length_x,
                              length_y=length_y, length_z=length_z)
        return cls._principal(m, m * (y * y + z * z) / 5, m * (x * x + z * z) / 5,
                              m * (y * y + x * x) / 5)

    @classmethod
    def FromSphere(cls, mass, radius):
        """A solid sphere: ``FromEllipsoid(mass, radius, radius, radius)``."""
        return cls.FromEllipsoid(mass, radius, radius, radius)

    @classmethod
    def FromCylinder(cls, mass, radius, length):
        """A solid cylinder along z (``FromCylinder``): diag(a, a, m r^2 / 2) with
        a = m (r^2 / 4 + l^2 / 12)."""
        m, r, length = _scalars("Inertia.FromCylinder", mass=mass, radius=radius, length=length)
        r2 = r * r
        a = m * (r2 / 4 + length * length / 12)
        return cls._principal(m, a, a, m * (r2 / 2))

    @classmethod
    def FromBox(cls, mass, length_x, length_y, length_z):
        """A solid box of side lengths (x, y, z) (``FromBox``):
        diag(m (y^2 + z^2) / 12, m (x^2 + z^2) / 12, m (y^2 + x^2) / 12)."""
        m, x, y, z = _scalars("Inertia.FromBox", mass=mass, length_x=length_x,
                              length_y=length_y, length_z=length_z)
        return cls._principal(m, m * (y * y + z * z) / 12, m * (x * x + z * z) / 12,
                              m * (y * y + x * x) / 12)

    @classmethod
    def FromCapsule(cls, mass, radius, height):
        """A solid capsule along z: a cylinder of the given height between two half-spheres
        (``FromCapsule``, uniform density). With V_c = pi r^2 h, V_s = 2/3 pi r^3,
        m_c = m V_c / (V_c + 2 V_s), m_s = m V_s / (V_c + 2 V_s), d = h/2 + 3/8 r:
        Ixx = Iyy = m_c (h^2/12 + r^2/4) + 2 (0.259375 m_s r^2 + m_s d^2),
        Izz = m_c r^2 / 2 + 2 (0.4 m_s r^2)."""
        m, r, h = _scalars("Inertia.FromCapsule", mass=mass, radius=radius, height=height)
        v_cyl = np.pi * (r ** 2) * h
        v_hs = 2.0 / 3.0 * _pow(r, 3.0) * np.pi
        total = v_cyl + 2.0 * v_hs
        m_cyl, m_hs = m * (v_cyl / total), m * (v_hs / total)
        dist = h / 2 + 0.375 * r
        ix = m_cyl * ((h ** 2) / 12 + (r ** 2) / 4) + 2.0 * (m_hs * (r ** 2) * 0.259375
                                                            + m_hs * (dist ** 2))
        iz = m_cyl * (r ** 2) / 2 + 2.0 * (m_hs * (r ** 2) * 0.4)
        return cls._principal(m, ix, ix, iz)

    @classmethod
    def _principal(cls, m, a, b, c):
        """Mass m at the origin with inertia diag(a, b, c) (the shapes' constructors)."""
        I = np.zeros(np.shape(a) + (3, 3))
        I[..., 0, 0], I[..., 1, 1], I[..., 2, 2] = a, b, c
        return cls(m, np.zeros(np.shape(m) + (3,)), I)

    def toDynamicParameters(self):
        """``(..., 10)`` ``[m, m c, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz]`` with I the rotational
        inertia about the frame origin, ``I_c - m [c]x^2`` (``toDynamicParameters``)."""
        shape = self.shape
        out = np.empty(shape + (10,))
        out[..., 0] = self.mass
        out[..., 1:4] = self.mass[..., None] * self.lever
        out[..., 4:10] = K.symmetric3_data(self.inertia - K.alpha_skew_square(self.mass,
                                                                              self.lever))
        return out

    @classmethod
    def FromDynamicParameters(cls, params):
        """The inverse of ``toDynamicParameters``: c = (m c) / m, I_c = I + m [c]x^2
        (``FromDynamicParameters``); params ``(..., 10)`` or a ``(10, 1)`` column."""
        v = K.as_array(params, "Inertia.FromDynamicParameters: params", (10,), True)
        mass = v[..., 0]
        with np.errstate(divide="ignore", invalid="ignore"):
            lever = v[..., 1:4] / mass[..., None]
        inertia = K.symmetric3_matrix(v[..., 4:10]) + K.alpha_skew_square(mass, lever)
        return cls(mass, lever, inertia)

    def toPseudoInertia(self):
        """The 4x4 pseudo-inertia of this body as a ``PseudoInertia``."""
        from .dynamic_parameters import PseudoInertia

        return PseudoInertia.FromInertia(self)

    @classmethod
    def FromPseudoInertia(cls, pseudo_inertia):
        return pseudo_inertia.toInertia()

    @classmethod
    def FromLogCholeskyParameters(cls, log_cholesky):
        """``FromDynamicParameters(log_cholesky.toDynamicParameters())``."""
        from .dynamic_parameters import LogCholeskyParameters

        K.expect_type(log_cholesky, LogCholeskyParameters,
                      "Inertia.FromLogCholeskyParameters: log_cholesky")
        return cls.FromDynamicParameters(log_cholesky.toDynamicParameters())

    def setRandom(self):
        """Replace the values in place by ``Inertia.Random(self.shape)``."""
        self._assign(Inertia.Random(self.shape))

    def setZero(self):
        self._assign(Inertia.Zero(self.shape))

    def setIdentity(self):
        self._assign(Inertia.Identity(self.shape))

    def _assign(self, other):
        self._assign_arrays(other.mass, other.lever, other.inertia)

    def isZero(self, prec=1e-12):
        """|m| <= prec and every entry of the lever and of I at most prec (``isZero``)."""
        return bool(np.all(np.abs(self.mass) <= prec) and np.all(np.abs(self.lever) <= prec)
                    and np.all(np.abs(self.inertia) <= prec))

    def __eq__(self, other):
        """Exact equality of mass, lever and inertia (``InertiaTpl::isEqual``)."""
        return (isinstance(other, Inertia) and np.array_equal(self.mass, other.mass)
                and np.array_equal(self.lever, other.lever)
                and np.array_equal(self.inertia, other.inertia))

    __hash__ = None

    @property
    def shape(self):
        """The batch shape."""
        return np.broadcast_shapes(self.mass.shape, self.lever.shape[:-1],
                                   self.inertia.shape[:-2])

    def __getitem__(self, index):
        """The batch element(s) at ``index`` (indexes the leading axes only)."""
        K.check_batch_index(index, self.shape, "Inertia", ".lever[i], .inertia[i, j]")
        return Inertia.unchecked(self.mass[index], self.lever[index], self.inertia[index])

    def copy(self):
        return Inertia.unchecked(self.mass.copy(), self.lever.copy(), self.inertia.copy())

    def matrix(self):
        """6x6 ``[[m I3, -m [c]x]; [m [c]x, I - m [c]x [c]x]]`` (``Inertia::matrix``)."""
        return K.inertia_matrix(self.mass, self.lever, self.inertia)

    @property
    def np(self):
        """``matrix()``, as Pinocchio's ``.np``."""
        return self.matrix()

    def __array__(self, dtype=None, copy=None):
        """``np.array(Y)`` is ``Y.matrix()``."""
        M = self.matrix()
        return M if dtype is None else M.astype(dtype)

    @K.broadcasting()
    def __mul__(self, motion):
        """``Y * v -> Force``: f = m (v - c x w) ; n = I w + c x f  (== matrix() @ v)."""
        if not isinstance(motion, Motion):
            return NotImplemented
        return Force.unchecked(K.inertia_mult(self.mass, self.lever, self.inertia, motion.vector))

    @K.broadcasting()
    def __add__(self, other):
        """Merge two bodies expressed in one frame (``Inertia::__plus__``; zero mass guarded).

        M = ma + mb ; inv = 1 / max(M, eps) ; AB = ca - cb ;
        c = (ma ca + mb cb) inv ; I = Ia + Ib - (ma mb inv) [AB]x^2
        Two massless inertias give mass 0, lever 0 and I = Ia + Ib (no division by zero).
        """
        if not isinstance(other, Inertia):
            return NotImplemented
        return Inertia.unchecked(*K.inertia_add(self.mass, self.lever, self.inertia,
                                            other.mass, other.lever, other.inertia))

    @K.broadcasting()
    def __iadd__(self, other):
        """``Ya += Yb`` (``Inertia::__pequ__``): as ``+`` with c = ca (ma inv) + (mb inv) cb."""
        if not isinstance(other, Inertia):
            return NotImplemented
        merged = Inertia.unchecked(*K.inertia_iadd(self.mass, self.lever, self.inertia,
                                               other.mass, other.lever, other.inertia))
        self._assign(merged)
        return self

    def se3Action(self, M):
        """``M.act(self)``: (m, R c + p, R I R^T) with Pinocchio's ``Symmetric3::rotate``."""
        return _se3(M, "se3Action").act(self)

    def se3ActionInverse(self, M):
        """``M.actInv(self)``: (m, R^T (c - p), R^T I R)."""
        return _se3(M, "se3ActionInverse").actInv(self)

    @K.broadcasting()
    def vxiv(self, v):
        """``v x* (Y v)`` in Pinocchio's closed form (used by ``nonLinearEffects``).

        mcxw = m (c x w) ; p = m v_lin - mcxw ;
        f = w x p ; n = w x (c x p + I w) - v_lin x mcxw
        """
        K.expect_type(v, Motion, "Inertia.vxiv: v", "vxiv takes the body's spatial velocity")
        vl, w = v.vector[..., K.LINEAR], v.vector[..., K.ANGULAR]
        mcxw = self.mass[..., None] * K.cross(self.lever, w)
        p = self.mass[..., None] * vl - mcxw
        n = K.cross(w, K.cross(self.lever, p) + K.matvec(self.inertia, w)) - K.cross(vl, mcxw)
        return Force.unchecked(K.stack6(K.cross(w, p), n))

    @K.broadcasting()
    def variation(self, v):
        """6x6 time variation ``v x* Y - Y v x = crf(v) Y - Y crm(v)`` (``Inertia::variation``).

        Pinocchio evaluates a blockwise closed form; the matrix products agree to rounding.
        """
        K.expect_type(v, Motion, "Inertia.variation: v")
        Y = self.matrix()
        return K.motion_dual_action(v.vector) @ Y - Y @ K.motion_action(v.vector)

    @K.broadcasting()
    def isApprox(self, other, prec=1e-12):
        """``Inertia::isApprox`` per batch element: |ma - mb| <= prec, and Eigen's
        ``isApprox`` on the lever and on the six stored numbers (xx, xy, yy, xz, yz, zz) of I."""
        K.expect_type(other, Inertia, "Inertia.isApprox: other")
        return bool(np.all(
            (np.abs(self.mass - other.mass) <= prec)
            & K.is_approx(self.lever, other.lever, prec, 1)
            & K.is_approx(K.symmetric3_data(self.inertia), K.symmetric3_data(other.inertia),
                          prec, 1)))

    def __str__(self):
        """As Pinocchio prints it (``  m =``, ``  c =``, ``  I =`` rows)."""
        if self.shape:
            return f"Inertia batch of shape {self.shape}\n{self!r}"
        return (f"  m = {self.mass:.6g}\n  c = {K.eigen_str(self.lever)}\n"
                f"  I = \n{K.eigen_str(self.inertia)}")

    def __repr__(self):
        return f"Inertia(mass={self.mass!r}, lever={self.lever!r}, inertia={self.inertia!r})"


def _se3(M, op):
    from .se3 import SE3

    return K.expect_type(M, SE3, f"Inertia.{op}: M", "pass the placement M whose action is meant")


def _scalars(name, **values):
    """The named arguments of a shape constructor as float arrays (scalars or batches)."""
    return [K.as_array(x, f"{name}: {key}", ()) for key, x in values.items()]

