"""Configuration spaces of the joints (multibody/liegroup/*.hpp of Pinocchio 3.8.0).

Each space has ``nq`` (storage size), ``nv`` (tangent size), ``neutral``, ``integrate``,
``difference``, ``interpolate``, ``normalize``, ``is_normalized``, ``is_same_configuration``,
``random_configuration``, ``dIntegrate`` and ``dDifference``, all with leading batch axes:
q ``(..., nq)``, v ``(..., nv)``, results ``(..., nq)``, ``(..., nv)`` or ``(..., nv, nv)``; the
batch axes of the arguments broadcast. The formulas, branches and evaluation order are
Pinocchio's (see each method), so results agree with ``pin.integrate`` & co. to a few ulps.

Which joint uses which space (``LieGroupMap`` in multibody/liegroup/liegroup.hpp):
FreeFlyer -> ``SpecialEuclidean3``, Spherical -> ``SpecialOrthogonal3``, RUBX/RUBY/RUBZ and
RevoluteUnboundedUnaligned -> ``SpecialOrthogonal2``, Planar -> ``SpecialEuclidean2``, every
other joint -> ``VectorSpace(nq)``.

Checks (a typed error, never a silently wrong result): wrong trailing sizes and batch shapes
that do not broadcast raise ShapeError, NaN or infinity NonFiniteError, and the operations that
read a quaternion or (cos, sin) pair as a rotation (integrate, difference, interpolate,
dDifference, is_same_configuration) raise NotNormalizedError when its norm is off 1 by more than
``UNIT_NORM_TOLERANCE`` (Pinocchio asserts this in debug builds and computes garbage in release
builds; call ``normalize(q)`` first). ``arg`` of dIntegrate / dDifference is ARG0 (0) or
ARG1 (1), or anything whose ``int`` is, such as ``pin.ArgumentPosition.ARG0``.
"""

import enum

import numpy as np

from ..errors import NonFiniteError, ShapeError, UnsupportedError
from ..spatial._kernels import as_array, batch_shape, cross, skew, unit_norm_error
from ..spatial._numerics import _acos, _asin, _atan2, _cos, _quiet, _sin
from ..spatial.explog import (
    _Jexp3, _Jexp6, _Jlog3, _Jlog6, _exp3, _exp6, _log3, _mm3, _quat_exp3, _quat_exp6,
    _quat_log3, _quat_log6,
)
from ..spatial.quaternion import (
    _dot4, _first_order_normalize, _quat_conj, _quat_mul, _quat_rotate, _quat_to_matrix,
)

__all__ = ["ArgumentPosition", "ARG0", "ARG1", "ARG2", "ARG3", "ARG4", "UNIT_NORM_TOLERANCE",
           "VectorSpace", "SpecialOrthogonal2", "SpecialOrthogonal3", "SpecialEuclidean2",
           "SpecialEuclidean3"]

UNIT_NORM_TOLERANCE = 1e-6
"""Largest accepted ``| |quaternion| - 1 |`` (or of a (cos, sin) pair) in the operations."""


class ArgumentPosition(enum.IntEnum):
    """Which argument a Jacobian is taken with respect to (``pinocchio::ArgumentPosition``).

    Pinocchio's enum has ARG0 .. ARG4; the configuration-space derivatives take ARG0 or ARG1
    and refuse the others (Pinocchio's return zeros or uninitialised memory for them). Printed
    as Pinocchio's: ``str(ARG0) == "ARG0"``.
    """

    ARG0 = 0
    ARG1 = 1
    ARG2 = 2
    ARG3 = 3
    ARG4 = 4

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"pinref.ArgumentPosition.{self.name}"


ARG0, ARG1, ARG2, ARG3, ARG4 = ArgumentPosition


def _stack(*columns):
    """Stack batch-shaped arrays along a new last axis, broadcasting them first."""
    return np.stack(np.broadcast_arrays(*columns), axis=-1)


def _concat(*parts):
    """Concatenate ``(..., k)`` arrays along the last axis, broadcasting their batch axes."""
    if all(p.shape[:-1] == parts[0].shape[:-1] for p in parts):
        return np.concatenate(parts, axis=-1)
    shape = np.broadcast_shapes(*(p.shape[:-1] for p in parts))
    return np.concatenate([np.broadcast_to(p, shape + p.shape[-1:]) for p in parts], axis=-1)


def _eye(n, shape, scale=1.0):
    """``scale * I_n`` with leading batch axes ``shape``."""
    return np.broadcast_to(scale * np.eye(n), tuple(shape) + (n, n)).copy()


def _squared_norm(x):
    """Eigen's ``squaredNorm()`` of ``(..., k)`` vectors, k <= 4, in its summation order (the
    pairs (0, 2) and (1, 3) first for k = 4, left to right otherwise)."""
    if x.shape[-1] == 4:
        return _dot4(x, x)
    sq = x[..., 0] * x[..., 0]
    for k in range(1, x.shape[-1]):
        sq = sq + x[..., k] * x[..., k]
    return sq


def _normalized(x):
    """Eigen's ``normalize()``: x / |x| when |x|^2 > 0, else x unchanged (``(..., k)``)."""
    sq = _squared_norm(x)
    return np.where((sq > 0.0)[..., None], x / np.sqrt(np.where(sq > 0.0, sq, 1.0))[..., None], x)


def _norm(x):
    """Eigen's ``norm()`` of a quaternion or (cos, sin) pair, in its summation order."""
    return np.sqrt(_squared_norm(x))


def _is_approx(a, b, prec):
    """Eigen's ``a.isApprox(b, prec)`` per state: ``|a - b|^2 <= prec^2 min(|a|^2, |b|^2)``
    (so a zero vector is approximately only itself)."""
    return _squared_norm(a - b) <= prec * prec * np.minimum(_squared_norm(a), _squared_norm(b))


class _LieGroup:
    """What every space shares: argument checks, the generic interpolate, the public API."""

    nq = 0
    nv = 0
    name = ""
    unit = None
    """The slice of q that must have unit norm (quaternion or (cos, sin)), or None."""

    bounded = slice(0, 0)
    """The slice of q that ``random_configuration`` draws within the bounds."""

    @property
    def units(self):
        """Every slice of q that must have unit norm: ``(unit,)``, or ``()`` (a product of
        spaces, ``CartesianProduct``, may have several)."""
        return () if self.unit is None else (self.unit,)

    identity = ()
    """The neutral configuration's entries."""

    # --- argument checks -------------------------------------------------------------------

    def _config(self, q, op, what="q", unit=True):
        q = as_array(q, f"{self.name}.{op}: {what}", (self.nq,))
        if unit and self.unit is not None:
            norms = _norm(q[..., self.unit])
            if np.any(np.abs(norms - 1.0) > UNIT_NORM_TOLERANCE):
                kind = "quaternion" if self.unit.stop - self.unit.start == 4 else "(cos, sin) pair"
                raise unit_norm_error(f"{self.name}.{op}: {what}", kind, norms,
                                      UNIT_NORM_TOLERANCE, f"call normalize({what}) first")
        return q

    def _tangent(self, v, op, what="v"):
        return as_array(v, f"{self.name}.{op}: {what}", (self.nv,))

    def _bounds(self, x, name):
        """A bound as a float ``(..., nq)`` array; infinite entries are allowed here."""
        try:
            a = np.asarray(x, dtype=float)
        except (TypeError, ValueError):
            raise ShapeError(f"{name}: expected an array of trailing shape ({self.nq},), "
                             f"got {x!r}") from None
        if a.ndim < 1 or a.shape[-1] != self.nq:
            raise ShapeError(f"{name}: expected trailing shape ({self.nq},) (the joint's nq), "
                             f"got shape {a.shape}")
        return a

    def _arg(self, arg, op):
        try:
            value = int(arg)
        except (TypeError, ValueError):
            value = None
        if value not in (0, 1):
            raise UnsupportedError(
                f"{self.name}.{op}: arg must be ARG0 (0) or ARG1 (1), got {arg!r}")
        return value

    # --- public API ---------------------------------------------------------------------

    def neutral(self):
        """The neutral configuration (identity element), a new ``(nq,)`` array."""
        return np.array(self.identity, dtype=float)

    def integrate(self, q, v):
        """q (+) v: the configuration reached from q along the tangent vector v in unit time."""
        q = self._config(q, "integrate")
        v = self._tangent(v, "integrate")
        batch_shape((q, 1), (v, 1))
        return self._integrate(q, v)

    def difference(self, q0, q1):
        """q1 (-) q0: the tangent vector v with ``integrate(q0, v) == q1``, ``(..., nv)``."""
        q0 = self._config(q0, "difference", "q0")
        q1 = self._config(q1, "difference", "q1")
        batch_shape((q0, 1), (q1, 1))
        return self._difference(q0, q1)

    def interpolate(self, q0, q1, u):
        """The configuration a fraction u in [0, 1] of the way from q0 to q1, ``(..., nq)``.

        ``integrate(q0, u * difference(q0, q1))`` (``LieGroupBase::interpolate_impl``) unless
        the space overrides it. u is a scalar or an array of the batch shape.
        """
        q0 = self._config(q0, "interpolate", "q0")
        q1 = self._config(q1, "interpolate", "q1")
        u = as_array(u, f"{self.name}.interpolate: u", ())
        batch_shape((q0, 1), (q1, 1), (u, 0))
        return self._interpolate(q0, q1, u)

    def _interpolate(self, q0, q1, u):
        return self._integrate(q0, u[..., None] * self._difference(q0, q1))

    def normalize(self, q):
        """q with its quaternion / (cos, sin) part divided by its norm (a zero part stays zero)."""
        q = self._config(q, "normalize", unit=False)
        out = q.copy()
        if self.unit is not None:
            out[..., self.unit] = _normalized(q[..., self.unit])
        return out

    def is_normalized(self, q, prec=1e-12):
        """``| |unit part| - 1 | < prec`` per state: a bool, or a bool array of the batch shape.

        Always true for a vector space (``isNormalized_impl``).
        """
        q = self._config(q, "is_normalized", unit=False)
        if self.unit is None:
            return np.full(q.shape[:-1], True)[()]
        return (np.abs(_norm(q[..., self.unit]) - 1.0) < prec)[()]

    def is_same_configuration(self, q0, q1, prec):
        """True when q0 and q1 are the same configuration to ``prec`` (relative): a bool, or a
        bool array of the batch shape (``isSameConfiguration``).

        ``q0.isApprox(q1, prec)`` (``LieGroupBase::isSameConfiguration_impl``) unless the space
        overrides it: a quaternion q and -q are the same rotation.
        """
        q0 = self._config(q0, "is_same_configuration", "q0")
        q1 = self._config(q1, "is_same_configuration", "q1")
        batch_shape((q0, 1), (q1, 1))
        return self._is_same(q0, q1, prec)[()]

    def _is_same(self, q0, q1, prec):
        return _is_approx(q0, q1, prec)

    def random_configuration(self, lower, upper, rng=None):
        """A random configuration, ``(..., nq)`` with the batch shape of the bounds.

        As ``randomConfiguration_impl``: the vector-space part ``bounded`` of q is uniform in
        [lower, upper] (finite bounds required: Pinocchio raises on infinite ones and returns inf
        for its default +-DBL_MAX limits, pinref raises NonFiniteError on both), the rotation
        part is uniform on SO(2) / SO(3) and ignores the bounds. ``rng`` is a
        ``numpy.random.Generator``, a seed, or None.
        """
        name = f"{self.name}.random_configuration"
        lower = self._bounds(lower, f"{name}: lower")
        upper = self._bounds(upper, f"{name}: upper")
        shape = batch_shape((lower, 1), (upper, 1))
        rng = np.random.default_rng(rng)
        out = np.empty(shape + (self.nq,))
        if self.bounded.stop > self.bounded.start:
            lo, hi = lower[..., self.bounded], upper[..., self.bounded]
            with np.errstate(over="ignore", invalid="ignore"):
                span = hi - lo
            if not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))
                    and np.all(np.isfinite(span))):
                raise NonFiniteError(
                    f"{name}: the bounds of entries {self.bounded.start}..{self.bounded.stop - 1} "
                    "must be finite and span a finite interval (Pinocchio's default limits are "
                    "+-DBL_MAX); pass finite lower and upper bounds")
            out[..., self.bounded] = lo + span * rng.random(shape + (span.shape[-1],))
        self._random_rotation(out, rng)
        return out

    def dIntegrate(self, q, v, arg):
        """Jacobian of integrate(q, v) w.r.t. q (ARG0) or v (ARG1), ``(..., nv, nv)``.

        Right (local) Jacobians, as every derivative in Pinocchio (``dIntegrate_dq_impl``,
        ``dIntegrate_dv_impl``); q only sets the batch shape.
        """
        arg = self._arg(arg, "dIntegrate")
        q = self._config(q, "dIntegrate", unit=False)
        v = self._tangent(v, "dIntegrate")
        shape = batch_shape((q, 1), (v, 1))
        v = np.broadcast_to(v, shape + (self.nv,))
        return self._dIntegrate_dq(v) if arg == 0 else self._dIntegrate_dv(v)

    def dDifference(self, q0, q1, arg):
        """Jacobian of difference(q0, q1) w.r.t. q0 (ARG0) or q1 (ARG1), ``(..., nv, nv)``."""
        arg = self._arg(arg, "dDifference")
        q0 = self._config(q0, "dDifference", "q0")
        q1 = self._config(q1, "dDifference", "q1")
        shape = batch_shape((q0, 1), (q1, 1))
        q0 = np.broadcast_to(q0, shape + (self.nq,))
        q1 = np.broadcast_to(q1, shape + (self.nq,))
        return self._dDifference(q0, q1, arg)

    def __eq__(self, other):
        return type(other) is type(self) and other.nq == self.nq

    def __hash__(self):
        return hash((type(self).__name__, self.nq))

    def __repr__(self):
        return f"{type(self).__name__}()"


class VectorSpace(_LieGroup):
    """R^n (``VectorSpaceOperationTpl<n>``): q (+) v = q + v, q1 (-) q0 = q1 - q0.

    Interpolate is q0 + u (q1 - q0); Jacobians are +-I; normalize does nothing and every q is
    normalized.
    """

    def __init__(self, n):
        self.nq = self.nv = int(n)
        self.name = f"R^{self.nq}"
        self.bounded = slice(0, self.nq)
        self.identity = (0.0,) * self.nq

    def _integrate(self, q, v):
        return q + v

    def _difference(self, q0, q1):
        return q1 - q0

    def _random_rotation(self, out, rng):
        pass

    def _dIntegrate_dq(self, v):
        return _eye(self.nv, v.shape[:-1])

    _dIntegrate_dv = _dIntegrate_dq

    def _dDifference(self, q0, q1, arg):
        return _eye(self.nv, q0.shape[:-1], -1.0 if arg == 0 else 1.0)

    def __repr__(self):
        return f"VectorSpace({self.nq})"


class SpecialOrthogonal2(_LieGroup):
    """SO(2) as q = (cos theta, sin theta) (``SpecialOrthogonalOperationTpl<2>``), nv = 1."""

    nq, nv = 2, 1
    name = "SO(2)"
    unit = slice(0, 2)
    identity = (1.0, 0.0)

    @staticmethod
    @_quiet
    def log(R00, R01, R10, R11):
        """The angle of the 2x2 rotation [[R00, R01], [R10, R11]] (``SO2::log``), ``(...)``.

        With tr = R00 + R11: 0 if tr > 2; +-pi (sign of R10) if tr < -2; asin((R10 - R01)/2)
        if tr > 2 - 1e-2; else +-acos(tr / 2) with the sign of R10.
        """
        tr = R00 + R11
        sign = np.where(R10 >= 0.0, 1.0, -1.0)
        return np.where(
            tr > 2.0, 0.0,
            np.where(tr < -2.0, sign * np.pi,
                     np.where(tr > 2.0 - 1e-2, _asin((R10 - R01) / 2.0), sign * _acos(tr / 2.0))))

    @staticmethod
    def _relative(q0, q1):
        """R0^T R1 of two (cos, sin) pairs as (cos, sin) = (q0 . q1, q0_0 q1_1 - q0_1 q1_0)."""
        return (q0[..., 0] * q1[..., 0] + q0[..., 1] * q1[..., 1],
                q0[..., 0] * q1[..., 1] - q0[..., 1] * q1[..., 0])

    def _integrate(self, q, v):
        """(cos w ca - sin w sa, sin w ca + cos w sa), then times (3 - |.|^2) / 2."""
        ca, sa, omega = q[..., 0], q[..., 1], v[..., 0]
        c, s = _cos(omega), _sin(omega)
        out = _stack(c * ca - s * sa, s * ca + c * sa)
        norm2 = out[..., 0] * out[..., 0] + out[..., 1] * out[..., 1]
        return out * ((3.0 - norm2) / 2.0)[..., None]

    def _difference(self, q0, q1):
        """log(R0^T R1), as a ``(..., 1)`` array."""
        c, s = self._relative(q0, q1)
        return self.log(c, -s, s, c)[..., None]

    @_quiet
    def _interpolate(self, q0, q1, u):
        """Slerp on the circle (``SO2::interpolate_impl``).

        theta = atan2(sin, cos) of R0^T R1; linear blend (1-u) q0 + u q1 when |theta| < 1e-6,
        q0 unchanged when |theta| >= pi - 1e-6, else
        sin((1-u) theta)/sin theta q0 + sin(u theta)/sin theta q1.
        """
        cos_theta, sin_theta = self._relative(q0, q1)
        theta = _atan2(sin_theta, cos_theta)
        abs_theta = np.abs(theta)
        small = (abs_theta < 1e-6)[..., None]
        regular = (abs_theta < np.pi - 1e-6)[..., None]
        u1 = u[..., None]
        linear = (1.0 - u1) * q0 + u1 * q1
        a = (_sin((1.0 - u) * theta) / sin_theta)[..., None]
        b = (_sin(u * theta) / sin_theta)[..., None]
        slerp = a * q0 + b * q1
        return np.where(small, linear, np.where(regular, slerp, np.broadcast_to(q0, slerp.shape)))

    def _random_rotation(self, out, rng):
        """angle uniform in [-pi, pi): (cos, sin) (``SO2::random_impl``)."""
        angle = -np.pi + 2.0 * np.pi * rng.random(out.shape[:-1])
        out[..., self.unit] = _stack(_cos(angle), _sin(angle))

    def _dIntegrate_dq(self, v):
        return np.ones(v.shape[:-1] + (1, 1))

    _dIntegrate_dv = _dIntegrate_dq

    def _dDifference(self, q0, q1, arg):
        return np.full(q0.shape[:-1] + (1, 1), -1.0 if arg == 0 else 1.0)


class SpecialOrthogonal3(_LieGroup):
    """SO(3) as the (x, y, z, w) unit quaternion (``SpecialOrthogonalOperationTpl<3>``), nv = 3."""

    nq, nv = 4, 3
    name = "SO(3)"
    unit = slice(0, 4)
    identity = (0.0, 0.0, 0.0, 1.0)

    def _integrate(self, q, v):
        """firstOrderNormalize(q * exp3_quat(v)); no sign change (``SO3::integrate_impl``)."""
        return _first_order_normalize(_quat_mul(q, _quat_exp3(v)))

    def _difference(self, q0, q1):
        """quaternion log3(conj(q0) * q1), taken on the w >= 0 representative."""
        return _quat_log3(_quat_mul(_quat_conj(q0), q1))[0]

    def _random_rotation(self, out, rng):
        out[..., self.unit] = _uniform_quaternion(rng, out.shape[:-1])

    @staticmethod
    def _is_same(q0, q1, prec):
        """q1 or -q1 approximately q0 (``quaternion::defineSameRotation``)."""
        return _is_approx(q0, q1, prec) | _is_approx(q0, -q1, prec)

    def _dIntegrate_dq(self, v):
        """exp3(-v)."""
        return _exp3(-v)

    def _dIntegrate_dv(self, v):
        """Jexp3(v)."""
        return _Jexp3(v)

    def _dDifference(self, q0, q1, arg):
        """R = matrix(conj(q0) q1): ARG0 -> -Jlog3(R) R^T, ARG1 -> Jlog3(R)."""
        R = _quat_to_matrix(_quat_mul(_quat_conj(q0), q1))
        w, theta = _log3(R)
        J = _Jlog3(theta, w)
        if arg == 1:
            return J
        return _mm3(-J, np.swapaxes(R, -1, -2))


class SpecialEuclidean2(_LieGroup):
    """SE(2) as q = (x, y, cos theta, sin theta) (``SpecialEuclideanOperationTpl<2>``), nv = 3.

    The tangent vector is (v_x, v_y, omega) in the moving frame.
    """

    nq, nv = 4, 3
    name = "SE(2)"
    unit = slice(2, 4)
    bounded = slice(0, 2)
    identity = (0.0, 0.0, 1.0, 0.0)

    @staticmethod
    @_quiet
    def exp(v):
        """``SE2::exp``: (c, s, t) with R = [[c, -s], [s, c]], c = cos omega, s = sin omega.

        t = ((-v_y, v_x) - (-v_y R[:, 0] + v_x R[:, 1])) / omega, or (v_x, v_y) when
        |omega| <= 1e-14.
        """
        vx, vy, omega = v[..., 0], v[..., 1], v[..., 2]
        c, s = _cos(omega), _sin(omega)
        t0 = (-vy - (-vy * c + vx * -s)) / omega
        t1 = (vx - (-vy * s + vx * c)) / omega
        moving = np.abs(omega) > 1e-14
        return c, s, _stack(np.where(moving, t0, vx), np.where(moving, t1, vy))

    @staticmethod
    def _relative(q0, q1):
        """(c, s, t) of M0^-1 M1: R = R0^T R1, t = R0^T (t1 - t0)."""
        c0, s0, c1, s1 = q0[..., 2], q0[..., 3], q1[..., 2], q1[..., 3]
        R00 = c0 * c1 + s0 * s1
        R01 = c0 * -s1 + s0 * c1
        R10 = -s0 * c1 + c0 * s1
        R11 = -s0 * -s1 + c0 * c1
        d = q1[..., :2] - q0[..., :2]
        t = _stack(c0 * d[..., 0] + s0 * d[..., 1], -s0 * d[..., 0] + c0 * d[..., 1])
        return (R00, R01, R10, R11), t

    @staticmethod
    @_quiet
    def log(R, p):
        """``SE2::log``: (alpha p_x + theta/2 p_y, alpha p_y - theta/2 p_x, theta).

        theta = SO2 log(R), alpha = |theta| sin|theta| / (2 (1 - cos theta)), or
        1 - theta^2/12 - theta^4/720 when |theta| < 1e-4.
        """
        t = SpecialOrthogonal2.log(*R)
        tabs = np.abs(t)
        t2 = t * t
        st, ct = _sin(tabs), _cos(tabs)
        alpha = np.where(tabs < 1e-4, (1.0 - t2 / 12) - t2 * t2 / 720, tabs * st / (2 * (1.0 - ct)))
        return _stack(alpha * p[..., 0] + t / 2 * p[..., 1],
                      alpha * p[..., 1] + -t / 2 * p[..., 0],
                      t)

    @staticmethod
    @_quiet
    def Jlog(R, p):
        """``SE2::Jlog``: [[V R, (alpha' p_x + p_y/2, -p_x/2 + alpha' p_y)], [0, 0, 1]].

        V = [[alpha, theta/2], [-theta/2, alpha]], alpha = theta sin theta / (2 (1 - cos theta)),
        alpha' = (sin theta - theta) / (2 (1 - cos theta)); 1 - theta^2/12 and
        -theta/6 - theta^3/180 when |theta| < 1e-4.
        """
        t = SpecialOrthogonal2.log(*R)
        tabs = np.abs(t)
        t2 = t * t
        st, ct = _sin(t), _cos(t)
        inv_2_1_ct = 0.5 / (1.0 - ct)
        small = tabs < 1e-4
        alpha = np.where(small, 1.0 - t2 / 12, t * st * inv_2_1_ct)
        alpha_dot = np.where(small, -t / 6 - t2 * t / 180, (st - t) * inv_2_1_ct)
        V10 = -t / 2
        V01 = -V10
        R00, R01, R10, R11 = R
        px, py = p[..., 0], p[..., 1]
        zero, one = np.zeros_like(t), np.ones_like(t)
        rows = (_stack(alpha * R00 + V01 * R10, alpha * R01 + V01 * R11, alpha_dot * px + py / 2),
                _stack(V10 * R00 + alpha * R10, V10 * R01 + alpha * R11, -px / 2 + alpha_dot * py),
                _stack(zero, zero, one))
        return np.stack(np.broadcast_arrays(*rows), axis=-2)

    def _integrate(self, q, v):
        """(R0 t + t0, R0 R[:, 0]) with (R, t) = exp(v), not renormalised (``integrate_impl``)."""
        c, s, t = self.exp(v)
        c0, s0 = q[..., 2], q[..., 3]
        return _stack(c0 * t[..., 0] + -s0 * t[..., 1] + q[..., 0],
                      s0 * t[..., 0] + c0 * t[..., 1] + q[..., 1],
                      c0 * c + -s0 * s,
                      s0 * c + c0 * s)

    def _difference(self, q0, q1):
        """log(M0^-1 M1)."""
        R, t = self._relative(q0, q1)
        return self.log(R, t)

    @staticmethod
    def _is_same(q0, q1, prec):
        """R^2 x SO(2): the translations and the (cos, sin) pairs each approximately equal."""
        return _is_approx(q0[..., :2], q1[..., :2], prec) & _is_approx(q0[..., 2:], q1[..., 2:],
                                                                       prec)

    def _random_rotation(self, out, rng):
        angle = -np.pi + 2.0 * np.pi * rng.random(out.shape[:-1])
        out[..., self.unit] = _stack(_cos(angle), _sin(angle))

    def _dIntegrate_dq(self, v):
        """The inverse action of exp(v): [[R^T, (-(R^T t)_1, (R^T t)_0)], [0, 0, 1]]."""
        c, s, t = self.exp(v)
        Rt_t0 = c * t[..., 0] + s * t[..., 1]
        Rt_t1 = -s * t[..., 0] + c * t[..., 1]
        zero, one = np.zeros_like(c), np.ones_like(c)
        rows = (_stack(c, s, -Rt_t1), _stack(-s, c, Rt_t0), _stack(zero, zero, one))
        return np.stack(np.broadcast_arrays(*rows), axis=-2)

    def _dIntegrate_dv(self, v):
        """Jexp6 of the planar twist (v_x, v_y, 0, 0, 0, omega), restricted to x, y, omega."""
        zero = np.zeros_like(v[..., 0])
        J6 = _Jexp6(_stack(v[..., 0], v[..., 1], zero, zero, zero, v[..., 2]))
        keep = [0, 1, 5]
        return J6[..., keep, :][..., :, keep]

    def _dDifference(self, q0, q1, arg):
        """ARG1: Jlog(M0^-1 M1); ARG0: Jlog * [[-R^T, R1^T (y1 - y0, x0 - x1)], [0, 0, -1]]."""
        R, t = self._relative(q0, q1)
        J1 = self.Jlog(R, t)
        if arg == 1:
            return J1
        R00, R01, R10, R11 = R
        c1, s1 = q1[..., 2], q1[..., 3]
        pc0 = q1[..., 1] - q0[..., 1]
        pc1 = q0[..., 0] - q1[..., 0]
        zero = np.zeros_like(R00)
        rows = (_stack(-R00, -R10, c1 * pc0 + s1 * pc1),
                _stack(-R01, -R11, -s1 * pc0 + c1 * pc1),
                _stack(zero, zero, np.full_like(R00, -1.0)))
        J0 = np.stack(np.broadcast_arrays(*rows), axis=-2)
        return _mm3(J1, J0)


class SpecialEuclidean3(_LieGroup):
    """SE(3) as q = (x, y, z, qx, qy, qz, qw) (``SpecialEuclideanOperationTpl<3>``), nv = 6.

    The tangent vector is a twist [v; w] in the moving (local) frame.
    """

    nq, nv = 7, 6
    name = "SE(3)"
    unit = slice(3, 7)
    bounded = slice(0, 3)
    identity = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)

    def _integrate(self, q, v):
        """``SE3::integrate_impl``: with (p, quat_v) = exp6_quat(v),

        translation = quat * p + q_t ; quaternion = quat * quat_v, negated when its dot product
        with quat is negative (so it stays in quat's hemisphere), then first-order normalised.
        """
        quat = q[..., 3:7]
        expv = _quat_exp6(v)
        trans = _quat_rotate(quat, expv[..., :3]) + q[..., :3]
        res = _quat_mul(quat, expv[..., 3:7])
        res = np.where((_dot4(res, quat) < 0.0)[..., None], -res, res)
        return _concat(trans, _first_order_normalize(res))

    def _difference(self, q0, q1):
        """log6 of M0^-1 M1 in quaternion form: log6(conj(quat0) quat1, conj(quat0) (t1 - t0))."""
        conj0 = _quat_conj(q0[..., 3:7])
        dv = _quat_rotate(conj0, q1[..., :3] - q0[..., :3])
        return _quat_log6(_quat_mul(conj0, q1[..., 3:7]), dv)

    def _random_rotation(self, out, rng):
        out[..., self.unit] = _uniform_quaternion(rng, out.shape[:-1])

    @staticmethod
    def _is_same(q0, q1, prec):
        """R^3 x SO(3): the translations approximately equal, the quaternions the same rotation."""
        return (_is_approx(q0[..., :3], q1[..., :3], prec)
                & SpecialOrthogonal3._is_same(q0[..., 3:], q1[..., 3:], prec))

    def _dIntegrate_dq(self, v):
        """``exp6(v).toDualActionMatrix().transpose()``: [[R^T, (p x R)^T], [0, R^T]]."""
        R, p = _exp6(v)
        Rt = np.swapaxes(R, -1, -2)
        out = np.zeros(v.shape[:-1] + (6, 6))
        out[..., :3, :3] = Rt
        out[..., 3:, 3:] = Rt
        out[..., :3, 3:] = cross(p[..., None, :], Rt)
        return out

    def _dIntegrate_dv(self, v):
        """Jexp6(v)."""
        return _Jexp6(v)

    def _dDifference(self, q0, q1, arg):
        """``SE3::dDifference_impl`` with M = (matrix(conj(quat0) quat1), conj(quat0) (t1 - t0)).

        ARG1: Jlog6(M). ARG0: Jlog6(M) [[-R^T, [p10]x R^T], [0, -R^T]] with
        p10 = conj(quat1) (t1 - t0).
        """
        quat0, quat1 = q0[..., 3:7], q1[..., 3:7]
        dv_pre = q1[..., :3] - q0[..., :3]
        conj0 = _quat_conj(quat0)
        trans = _quat_rotate(conj0, dv_pre)
        R = _quat_to_matrix(_quat_mul(conj0, quat1))
        J1 = _Jlog6(R, trans)
        if arg == 1:
            return J1
        p1_p0 = _quat_rotate(_quat_conj(quat1), dv_pre)
        Rt = np.swapaxes(R, -1, -2)
        J0 = np.zeros(J1.shape)
        J0[..., :3, :3] = -Rt
        J0[..., 3:, 3:] = -Rt
        J0[..., :3, 3:] = _mm3(skew(p1_p0), Rt)
        return _mm6(J1, J0)


def _mm6(A, B):
    """6x6 product A B, each entry accumulated over k = 0..5 in order (Eigen's packet path)."""
    out = A[..., :, 0, None] * B[..., None, 0, :]
    for k in range(1, 6):
        out = out + A[..., :, k, None] * B[..., None, k, :]
    return out


def _uniform_quaternion(rng, shape):
    """``quaternion::uniformRandom``: a uniformly distributed unit (x, y, z, w) quaternion.

    With u1, u2, u3 uniform in [0, 1): w = sqrt(1-u1) sin(2 pi u2), x = sqrt(1-u1) cos(2 pi u2),
    y = sqrt(u1) sin(2 pi u3), z = sqrt(u1) cos(2 pi u3).
    """
    u1, u2, u3 = rng.random((3,) + tuple(shape))
    mult1, mult2 = np.sqrt(1.0 - u1), np.sqrt(u1)
    a2, a3 = 2.0 * np.pi * u2, 2.0 * np.pi * u3
    return _stack(mult1 * _cos(a2), mult2 * _sin(a3), mult2 * _cos(a3), mult1 * _sin(a2))
