"""Exponential and logarithm maps of SO(3) and SE(3), their Jacobians and quaternion forms.

Mirrors spatial/explog.hpp, spatial/explog-quaternion.hpp and spatial/log.hxx of Pinocchio 3.8.0
(the quaternion functions of math/quaternion.hpp are in quaternion.py, the rounding helpers
``_dot3``, ``_sin``, ``_quiet``, ... in _numerics.py). ``SE3.Interpolate`` is defined here,
after exp6 and log6, as Pinocchio defines it in explog.hpp. Quaternions are stored (x, y, z, w),
as in Pinocchio's configuration vectors. Every function takes leading batch axes: ``(..., 3)``
rotation vectors, ``(..., 3, 3)`` rotations, ``(..., 6)`` twists ordered [linear; angular],
``(..., 4)`` quaternions, and SE3 / Motion objects wrapping such arrays.

Reproducing Pinocchio to the last bits matters here more than anywhere else: near the
thresholds of the Taylor branches, formulas such as ``1/t^2 - sin t / (2 t (1 - cos t))`` lose
most of their digits, so Pinocchio's own result there is only as good as its rounding, and a
reimplementation matches it only when it rounds the same way. Hence three rules in this file:

- each expression is written in Eigen 3.4's evaluation order for double on SSE2 (no BLAS, no
  fused multiply-add): a reduction over a contiguous 3-vector is ``(x0 + x1) + x2`` (one packet
  then the rest), over a strided one (a trace, a matrix row) ``x0 + (x1 + x2)``, and a 3x3
  product mixes both (see ``_mm3``);
- both branches of every ``if_then_else`` are evaluated, as in Pinocchio, and the unused one may
  hold inf or NaN (warnings are silenced with ``np.errstate``);
- sin, cos, acos, asin and atan2 come from the C library (Python's ``math``), which Pinocchio's
  ``std::`` calls use too; NumPy's SIMD versions may differ from it by one ulp.

The Taylor thresholds are ``TaylorSeriesExpansion<double>::precision<n>() = eps^(1/(n+1))``:
``precision<2>`` = eps^(1/3) ~ 6.1e-6 and ``precision<3>`` = eps^(1/4) ~ 1.2e-4.

Each public function checks its arguments (ShapeError, NonFiniteError) and calls an unchecked
kernel of the same name with a leading underscore (``_exp3``, ``_log6``, ...); the joints'
Lie groups (joints/liegroup.py) call those kernels on arrays they have already checked.
"""

import numpy as np

from ._kernels import ANGULAR, LINEAR, as_array, cross, expect_type, stack6, unSkew
from ._numerics import (_DIAG, _acos, _atan2, _cos, _dot3, _identity_times, _quiet, _s, _sin,
                        _trace3)
from .motion import Motion
from .se3 import SE3

__all__ = [
    "exp3", "log3", "Jexp3", "Jlog3", "exp6", "log6", "Jexp6", "Jlog6",
    "renormalize_rotation_matrix", "quaternion_exp3", "quaternion_log3", "quaternion_exp6",
    "quaternion_log6", "exp3_quat", "exp6_quat", "log6_quat",
]

EPS = np.finfo(float).eps
TAYLOR_PRECISION_2 = EPS ** (1.0 / 3.0)
TAYLOR_PRECISION_3 = EPS ** (1.0 / 4.0)

# --- small kernels in Eigen's evaluation order -------------------------------------------------


def _outer(a, b):
    """``a * b.transpose()``: entry (i, j) = a_i b_j, ``(..., 3, 3)``."""
    return a[..., :, None] * b[..., None, :]


def _mm3(A, B):
    """3x3 product ``A B`` summed as Eigen 3.4 does for a fixed-size (lazy) product.

    Rows 0 and 1 are computed as one SSE2 packet, accumulating k = 0, 1, 2 in order:
    (A_i0 B_0j + A_i1 B_1j) + A_i2 B_2j. Row 2 is left over and computed coefficient-wise as the
    reduction of a strided row, which pairs the last two terms first:
    A_20 B_0j + (A_21 B_1j + A_22 B_2j).
    """
    out = ((A[..., :, 0, None] * B[..., None, 0, :] + A[..., :, 1, None] * B[..., None, 1, :])
           + A[..., :, 2, None] * B[..., None, 2, :])
    out[..., 2, :] = (A[..., 2, 0, None] * B[..., 0, :]
                      + (A[..., 2, 1, None] * B[..., 1, :] + A[..., 2, 2, None] * B[..., 2, :]))
    return out


def _mtv3(A, x):
    """``A^T x`` for a 3x3 A; entry i = (A_0i x_0 + A_1i x_1) + A_2i x_2.

    The rows of ``A^T`` are A's contiguous columns, so Eigen's reduction is vectorised: first
    pair, then the third term.
    """
    return ((A[..., 0, :] * x[..., 0, None] + A[..., 1, :] * x[..., 1, None])
            + A[..., 2, :] * x[..., 2, None])


def _add_skew(M, u):
    """``pinocchio::addSkew``: M += [u]x, in place on ``(..., 3, 3)``."""
    M[..., 0, 1] -= u[..., 2]
    M[..., 0, 2] += u[..., 1]
    M[..., 1, 0] += u[..., 2]
    M[..., 1, 2] -= u[..., 0]
    M[..., 2, 0] -= u[..., 1]
    M[..., 2, 1] += u[..., 0]


def _alpha_skew(alpha, u):
    """``pinocchio::alphaSkew(alpha, u)``: [alpha u]x with entries (-u2) alpha, u1 alpha, ..."""
    out = np.zeros(u.shape[:-1] + (3, 3))
    out[..., 0, 1] = -u[..., 2] * alpha
    out[..., 0, 2] = u[..., 1] * alpha
    out[..., 1, 0] = -out[..., 0, 1]
    out[..., 1, 2] = -u[..., 0] * alpha
    out[..., 2, 0] = -out[..., 0, 2]
    out[..., 2, 1] = -out[..., 1, 2]
    return out


def _motion_vector(nu, name):
    """The ``(..., 6)`` array of a Motion or of an array-like, checked."""
    if isinstance(nu, Motion):
        nu = nu.vector
    return as_array(nu, name, (6,))


def _se3_arrays(M, name):
    """``(R, p)`` of an SE3 or of a ``(..., 4, 4)`` homogeneous matrix, checked."""
    if isinstance(M, SE3):
        R = as_array(M.rotation, f"{name}.rotation", (3, 3))
        p = as_array(M.translation, f"{name}.translation", (3,))
        shape = np.broadcast_shapes(R.shape[:-2], p.shape[:-1])
        return np.broadcast_to(R, shape + (3, 3)), np.broadcast_to(p, shape + (3,))
    H = as_array(M, name, (4, 4))
    return H[..., :3, :3], H[..., :3, 3]


# --- SO(3) ---------------------------------------------------------------------------------


def exp3(w):
    """Rotation matrix ``exp([w]x)`` of the rotation vector w. Mirrors ``pinocchio::exp3``.

    t = sqrt(|w|^2 + eps^2) ; R = a (w w^T) + b [w]x + c I3 with
    a = (1 - cos t) / t^2, b = sin t / t, c = cos t, or, when t <= eps^(1/4), their Taylor
    expansions a = 1/2 - t^2/24, b = 1 - t^2/6, c = 1 - t^2/2.  ``(..., 3) -> (..., 3, 3)``.
    """
    return _exp3(as_array(w, "exp3: w", (3,)))


@_quiet
def _exp3(v):
    t2 = _dot3(v, v) + EPS * EPS
    t = np.sqrt(t2)
    st, ct = _sin(t), _cos(t)
    exact = t > TAYLOR_PRECISION_3
    alpha_vxvx = np.where(exact, (1.0 - ct) / t2, 0.5 - t2 / 24)
    alpha_vx = np.where(exact, st / t, 1.0 - t2 / 6)
    diag = np.where(exact, ct, 1.0 - t2 / 2)
    R = _outer(_s(alpha_vxvx) * v, v)
    _add_skew(R, _s(alpha_vx) * v)
    R[..., _DIAG[0], _DIAG[1]] += _s(diag)
    return R


def renormalize_rotation_matrix(R):
    """The nearby rotation Pinocchio's log3 works on. Mirrors ``renormalize_rotation_matrix``.

    c0 = R[:, 0] / |R[:, 0]| ; c1 = R[:, 1] / |R[:, 1]| ; c2 = c0 x c1 ; c0 = c1 x c2.
    ``(..., 3, 3) -> (..., 3, 3)``.
    """
    return _renormalize(as_array(R, "renormalize_rotation_matrix: R", (3, 3)))


def _renormalize(R):
    c0, c1 = R[..., :, 0], R[..., :, 1]
    c0 = c0 / _s(np.sqrt(_dot3(c0, c0)))
    c1 = c1 / _s(np.sqrt(_dot3(c1, c1)))
    c2 = cross(c0, c1)
    c0 = cross(c1, c2)
    return np.stack((c0, c1, c2), axis=-1)


def log3(R, return_theta=False):
    """Rotation vector w with ``exp3(w) == R`` and |w| <= pi. Mirrors ``pinocchio::log3``.

    R is first renormalised (``renormalize_rotation_matrix``), then, with
    cos = (tr R - 1) / 2:

    - nominal case: theta = acos(cos) (or sqrt(2 (1 - cos)) when tr R >= 3 - eps^(1/3)),
      w = theta / sin(theta) * unSkew(R) (Taylor 1 + n/6 + 3 n^2/40 of it, n = |unSkew R|^2,
      when theta < eps^(1/3));
    - near pi (cos < -1 + eps^(1/3)): the axis is read from the column k with the largest
      2 R_kk - tr R + 1, as in ``internal::compute_theta_axis``, and w = theta * axis.

    ``(..., 3, 3) -> (..., 3)``; a ``(..., 4)`` argument is taken as a quaternion and passed to
    ``quaternion_log3``, as ``pin.log3`` does. With ``return_theta=True`` returns
    ``(w, theta)``, theta of shape ``(...)``.
    """
    if callable(getattr(R, "coeffs", None)):  # a Quaternion (pinref's or eigenpy's)
        R = R.coeffs()
    R = as_array(R, "log3: R", ())
    if R.ndim >= 1 and R.shape[-1] == 4:
        return quaternion_log3(R, return_theta)
    w, theta = _log3(as_array(R, "log3: R (a rotation, or a quaternion of shape (..., 4))", (3, 3)))
    return (w, theta) if return_theta else w


def _compute_theta_axis(i0, val, R):
    """``internal::compute_theta_axis<i0>``: angle and unit axis read from column i0 of R."""
    i1, i2 = (i0 + 1) % 3, (i0 + 2) % 3
    sign = np.where(R[..., i2, i1] >= R[..., i1, i2], 1.0, -1.0)
    s = np.sqrt((val + EPS) + EPS * EPS) * sign
    inv_2s = 1.0 / (2.0 * s)
    axis = np.empty(R.shape[:-1])
    axis[..., i0] = s / 2
    axis[..., i1] = inv_2s * (R[..., i1, i0] + R[..., i0, i1])
    axis[..., i2] = inv_2s * (R[..., i2, i0] + R[..., i0, i2])
    w = inv_2s * (R[..., i2, i1] - R[..., i1, i2])
    axis_norm = np.sqrt(_dot3(axis, axis))
    angle = 2.0 * _atan2(axis_norm, w)
    return angle, axis / _s(axis_norm)


@_quiet
def _log3(R):
    """``log3_impl::run``: ``(w, theta)`` for ``(..., 3, 3)`` R."""
    Rn = _renormalize(R)
    tr = _trace3(Rn)
    cos_value = (tr - 1.0) / 2.0

    val = (2.0 * Rn[..., _DIAG[0], _DIAG[1]] - _s(tr)) + 1.0
    candidates = [_compute_theta_axis(k, val[..., k], Rn) for k in range(3)]
    v0, v1, v2 = val[..., 0], val[..., 1], val[..., 2]
    pick = np.where(v0 >= v1, np.where(v0 >= v2, 0, 2), np.where(v1 >= v2, 1, 2))
    theta_singular = np.choose(pick, [c[0] for c in candidates])
    axis_singular = np.choose(_s(pick), [c[1] for c in candidates])

    acos_expansion = np.sqrt(2.0 * (1.0 - cos_value) + EPS * EPS)
    theta_nominal = np.where(
        tr <= 3.0 - TAYLOR_PRECISION_2,
        np.where(tr >= -1.0 + TAYLOR_PRECISION_2, _acos(cos_value), np.pi - acos_expansion),
        acos_expansion)

    antisymmetric_R = unSkew(Rn)
    n2 = _dot3(antisymmetric_R, antisymmetric_R)
    t = np.where(theta_nominal >= TAYLOR_PRECISION_2,
                 theta_nominal / _sin(theta_nominal),
                 (1.0 + n2 / 6) + n2 * n2 * 3.0 / 40)

    nominal = cos_value >= -1.0 + TAYLOR_PRECISION_2
    theta = np.where(nominal, theta_nominal, theta_singular)
    w = np.where(_s(nominal), _s(t) * antisymmetric_R, _s(theta_singular) * axis_singular)
    return w, theta


def Jexp3(w):
    """Right Jacobian of exp3 at w. Mirrors ``pinocchio::Jexp3``.

    J = a I3 + b [w]x + c w w^T with n = |w|, a = sin n / n, b = -(1 - cos n) / n^2,
    c = (1 - a) / n^2, or, when n < eps^(1/4), a = 1 - n^2/6, b = -1/2 - n^2/24,
    c = 1/6 - n^2/120.  ``(..., 3) -> (..., 3, 3)``.
    """
    return _Jexp3(as_array(w, "Jexp3: w", (3,)))


@_quiet
def _Jexp3(r):
    n2 = _dot3(r, r)
    n = np.sqrt(n2)
    n_inv = 1.0 / n
    n2_inv = n_inv * n_inv
    sn, cn = _sin(n), _cos(n)
    taylor = n < TAYLOR_PRECISION_3
    a = np.where(taylor, 1.0 - n2 / 6.0, sn * n_inv)
    b = np.where(taylor, -1.0 / 2.0 - n2 / 24.0, -(1.0 - cn) * n2_inv)
    c = np.where(taylor, 1.0 / 6.0 - n2 / 120.0, n2_inv * (1.0 - a))
    J = np.zeros(r.shape[:-1] + (3, 3))
    J[..., _DIAG[0], _DIAG[1]] = _s(a)
    J[..., 0, 1] = -b * r[..., 2]
    J[..., 1, 0] = -J[..., 0, 1]
    J[..., 0, 2] = b * r[..., 1]
    J[..., 2, 0] = -J[..., 0, 2]
    J[..., 1, 2] = -b * r[..., 0]
    J[..., 2, 1] = -J[..., 1, 2]
    return J + _outer(_s(c) * r, r)


def Jlog3(R):
    """Right Jacobian of log3 at R. Mirrors ``pinocchio::Jlog3(R, J)``.

    With (w, theta) = log3(R): J = alpha w w^T + d I3 + [w / 2]x where
    alpha = 1/theta^2 - sin theta / (2 theta (1 - cos theta)) and
    d = theta sin theta / (2 (1 - cos theta)), or, when theta < eps^(1/4),
    alpha = 1/12 + theta^2/720 and d = (2 - theta^2/6) / 2.  ``(..., 3, 3) -> (..., 3, 3)``.
    """
    R = as_array(R, "Jlog3: R", (3, 3))
    w, theta = _log3(R)
    return _Jlog3(theta, w)


@_quiet
def _Jlog3(theta, log):
    """``Jlog3_impl::run(theta, log)``."""
    st, ct = _sin(theta), _cos(theta)
    st_1mct = st / (1.0 - ct)
    taylor = theta < TAYLOR_PRECISION_3
    alpha = np.where(taylor, 1.0 / 12.0 + theta * theta / 720.0,
                     1.0 / (theta * theta) - st_1mct / (2.0 * theta))
    diag = np.where(taylor, 0.5 * (2.0 - theta * theta / 6.0), 0.5 * (theta * st_1mct))
    J = _outer(_s(alpha) * log, log)
    J[..., _DIAG[0], _DIAG[1]] += _s(diag)
    _add_skew(J, 0.5 * log)
    return J


# --- SE(3) ---------------------------------------------------------------------------------


def exp6(nu):
    """The placement ``exp(nu)`` reached by the twist nu in unit time. Mirrors ``pinocchio::exp6``.

    With t = sqrt(|w|^2 + eps^2) (w the angular, v the linear part):
    R = a_wxv w w^T + a_v [w]x + c I3 ; p = a_v v + (a_w w.v) w + a_wxv w x v with
    a_wxv = (1 - cos t)/t^2, a_v = sin t / t, a_w = (1 - a_v)/t^2, c = cos t, or their Taylor
    expansions when t < eps^(1/4).  Motion or ``(..., 6)`` -> SE3.
    """
    R, p = _exp6(_motion_vector(nu, "exp6: nu"))
    return SE3.unchecked(R, p)


@_quiet
def _exp6(nu):
    v, w = nu[..., LINEAR], nu[..., ANGULAR]
    t2 = _dot3(w, w) + EPS * EPS
    t = np.sqrt(t2)
    st, ct = _sin(t), _cos(t)
    inv_t2 = 1.0 / t2
    taylor = t < TAYLOR_PRECISION_3
    alpha_wxv = np.where(taylor, 1.0 / 2.0 - t2 / 24, (1.0 - ct) * inv_t2)
    alpha_v = np.where(taylor, 1.0 - t2 / 6, st / t)
    alpha_w = np.where(taylor, 1.0 / 6.0 - t2 / 120, (1.0 - alpha_v) * inv_t2)
    diagonal_term = np.where(taylor, 1.0 - t2 / 2, ct)

    p = (_s(alpha_v) * v + _s(alpha_w * _dot3(w, v)) * w) + _s(alpha_wxv) * cross(w, v)
    R = _outer(_s(alpha_wxv) * w, w)
    _add_skew(R, _s(alpha_v) * w)
    R[..., _DIAG[0], _DIAG[1]] += _s(diagonal_term)
    return R, p


def log6(M):
    """The twist nu with ``exp6(nu) == M``. Mirrors ``pinocchio::log6(SE3)``.

    w = log3(R) (theta its angle) ; v = alpha p - (w x p) / 2 + (beta w.p) w with
    alpha = theta sin theta / (2 (1 - cos theta)), beta = 1/theta^2 - sin theta / (2 theta
    (1 - cos theta)), or, when tr R >= 3 - eps^(1/3), alpha = 1 - n/12 - n^2/720 and
    beta = 1/12 + n/720 with n = |unSkew R|^2 (R not renormalised there).
    SE3 or ``(..., 4, 4)`` -> Motion.
    """
    R, p = _se3_arrays(M, "log6: M")
    return Motion.unchecked(_log6(R, p))


@_quiet
def _log6(R, p):
    antisymmetric_R = unSkew(R)
    t2 = _dot3(antisymmetric_R, antisymmetric_R)
    tr = _trace3(R)
    w, theta = _log3(R)
    st, ct = _sin(theta), _cos(theta)
    taylor = tr >= 3.0 - TAYLOR_PRECISION_2
    alpha = np.where(taylor, (1.0 - t2 / 12) - t2 * t2 / 720, theta * st / (2.0 * (1.0 - ct)))
    beta = np.where(taylor, 1.0 / 12 + t2 / 720,
                    1.0 / (theta * theta) - st / (2.0 * theta * (1.0 - ct)))
    linear = (_s(alpha) * p - 0.5 * cross(w, p)) + _s(beta * _dot3(w, p)) * w
    return stack6(linear, w)


def Jexp6(nu):
    """Right Jacobian of exp6 at nu, ``(..., 6, 6)``. Mirrors ``pinocchio::Jexp6``.

    [[A, -A J], [0, A]] with A = Jexp3(w), p = A^T v and, with t = |w|,
    J = [p/2]x + (beta' w.p) w w^T - (t^2 beta' + 2 beta) p w^T + (w.p) beta I3 + beta w p^T,
    beta = 1/t^2 - sin t / (2 t (1 - cos t)), beta' = -2/t^4 + (1 + sin t / t) / (2 t^2 (1 - cos t))
    (1/12 + t^2/720 and 1/360 when t < eps^(1/4)).  Motion or ``(..., 6)``.
    """
    return _Jexp6(_motion_vector(nu, "Jexp6: nu"))


@_quiet
def _Jexp6(nu):
    v, w = nu[..., LINEAR], nu[..., ANGULAR]
    t2 = _dot3(w, w)
    t = np.sqrt(t2)
    tinv = 1.0 / t
    t2inv = tinv * tinv
    st, ct = _sin(t), _cos(t)
    inv_2_2ct = 1.0 / (2.0 * (1.0 - ct))
    taylor = t < TAYLOR_PRECISION_3
    beta = np.where(taylor, 1.0 / 12.0 + t2 / 720.0, t2inv - st * tinv * inv_2_2ct)
    beta_dot_over_theta = np.where(
        taylor, 1.0 / 360.0, -2.0 * t2inv * t2inv + (1.0 + st * tinv) * t2inv * inv_2_2ct)

    A = _Jexp3(w)
    p = _mtv3(A, v)
    wTp = _dot3(w, p)
    J = (((_alpha_skew(0.5, p) + _outer(_s(beta_dot_over_theta * wTp) * w, w))
          - _outer(_s(t2 * beta_dot_over_theta + 2.0 * beta) * p, w))
         + _identity_times(wTp * beta)) + _outer(_s(beta) * w, p)
    out = np.zeros(nu.shape[:-1] + (6, 6))
    out[..., LINEAR, LINEAR] = A
    out[..., ANGULAR, ANGULAR] = A
    out[..., LINEAR, ANGULAR] = -_mm3(A, J)
    return out


def Jlog6(M):
    """Right Jacobian of log6 at M, ``(..., 6, 6)``. Mirrors ``pinocchio::Jlog6``.

    [[A, C A], [0, A]] with (w, t) = log3(R), A = Jlog3, and
    C = [p/2]x + (beta' w.p) w w^T - (t^2 beta' + 2 beta) p w^T + (w.p) beta I3 + beta w p^T,
    beta, beta' as in ``Jexp6`` (Taylor branch when t < eps^(1/4)).  SE3 or ``(..., 4, 4)``.
    """
    R, p = _se3_arrays(M, "Jlog6: M")
    return _Jlog6(R, p)


@_quiet
def _Jlog6(R, p):
    w, t = _log3(R)
    A = _Jlog3(t, w)
    t2 = t * t
    tinv = 1.0 / t
    t2inv = tinv * tinv
    st, ct = _sin(t), _cos(t)
    inv_2_2ct = 1.0 / (2.0 * (1.0 - ct))
    taylor = t < TAYLOR_PRECISION_3
    beta = np.where(taylor, 1.0 / 12.0 + t2 / 720.0, t2inv - st * tinv * inv_2_2ct)
    beta_dot_over_theta = np.where(
        taylor, 1.0 / 360.0, -2.0 * t2inv * t2inv + (1.0 + st * tinv) * t2inv * inv_2_2ct)

    wTp = _dot3(w, p)
    v3_tmp = _s(beta_dot_over_theta * wTp) * w - _s(t2 * beta_dot_over_theta + 2.0 * beta) * p
    C = _outer(v3_tmp, w) + _outer(_s(beta) * w, p)
    C[..., _DIAG[0], _DIAG[1]] += _s(wTp * beta)
    _add_skew(C, 0.5 * p)
    out = np.zeros(np.broadcast_shapes(R.shape[:-2], p.shape[:-1]) + (6, 6))
    out[..., LINEAR, LINEAR] = A
    out[..., ANGULAR, ANGULAR] = A
    out[..., LINEAR, ANGULAR] = _mm3(C, A)
    return out


def _interpolate(A, B, alpha):
    """``A * exp6(alpha * log6(A.actInv(B)))`` (``SE3Tpl::Interpolate``): alpha = 0 gives A,
    alpha = 1 gives B. alpha is a scalar or an array of the batch shape."""
    expect_type(A, SE3, "SE3.Interpolate: A")
    expect_type(B, SE3, "SE3.Interpolate: B")
    alpha = as_array(alpha, "SE3.Interpolate: alpha", ())
    return A * exp6(alpha * log6(A.actInv(B)))


SE3.Interpolate = staticmethod(_interpolate)


# --- quaternion forms of the maps (x, y, z, w) ------------------------------------------------


def quaternion_exp3(w):
    """The unit (x, y, z, w) quaternion of the rotation vector w. Mirrors ``quaternion::exp3``.

    t = sqrt(|w|^2 + eps^2): (sin(t/2) w / t, cos(t/2)) (Eigen's AngleAxis conversion), or,
    when |w|^2 <= eps^(1/4) (Pinocchio compares the *squared* norm), the Taylor expansion
    (w (1 - s/6 + s^2/120) / 2, 1 - s/2 + s^2/24) with s = |w|^2 / 4.
    ``(..., 3) -> (..., 4)``; ``pin.exp3_quat``.
    """
    return _quat_exp3(as_array(w, "quaternion_exp3: w", (3,)))


@_quiet
def _quat_exp3(v):
    t2 = _dot3(v, v)
    t = np.sqrt(t2 + EPS * EPS)
    half = 0.5 * t
    axis = v / _s(t)
    exact = np.concatenate((_s(_sin(half)) * axis, _s(_cos(half))), axis=-1)
    t2_2 = t2 / 4
    taylor = np.concatenate((_s(0.5 * ((1.0 - t2_2 / 6) + t2_2 * t2_2 / 120)) * v,
                             _s((1.0 - t2_2 / 2) + t2_2 * t2_2 / 24)), axis=-1)
    return np.where(_s(t2 > TAYLOR_PRECISION_3), exact, taylor)


def quaternion_log3(quat, return_theta=False):
    """Rotation vector of a unit (x, y, z, w) quaternion, |w| <= pi. Mirrors ``quaternion::log3``.

    The quaternion is first flipped to w >= 0. With n = |q_vec|: theta = 2 atan2(n, w) and
    result = theta / sin(theta / 2) * q_vec, or, when n^2 < eps^(1/3),
    theta = 2 (1 - y^2/3) y (y = n / w) and the factor 2 (1 + s/6 + 7 s^2/360), s = theta^2/4.
    ``(..., 4) -> (..., 3)``; with ``return_theta=True`` returns ``(w, theta)``.
    """
    w, theta = _quat_log3(as_array(quat, "quaternion_log3: quat", (4,)))
    return (w, theta) if return_theta else w


@_quiet
def _quat_log3(quat):
    vec = quat[..., :3]
    norm_squared = _dot3(vec, vec)
    norm = np.sqrt(norm_squared + EPS * EPS)
    pos_neg = np.where(quat[..., 3] >= 0.0, 1.0, -1.0)
    w_pos = pos_neg * quat[..., 3]
    vec_pos = _s(pos_neg) * vec
    theta_2 = _atan2(norm, w_pos)
    y_x = norm / w_pos
    y_x_sq = norm_squared / (w_pos * w_pos)
    taylor = norm_squared < TAYLOR_PRECISION_2
    theta = np.where(taylor, 2.0 * (1.0 - y_x_sq / 3.0) * y_x, 2.0 * theta_2)
    th2_2 = theta * theta / 4.0
    inv_sinc = np.where(taylor,
                        2.0 * ((1.0 + th2_2 / 6.0) + 7.0 / 360.0 * th2_2 * th2_2),
                        theta / _sin(theta_2))
    return _s(inv_sinc) * vec_pos, theta


def quaternion_exp6(nu):
    """``exp6(nu)`` as a configuration (x, y, z, qx, qy, qz, qw). Mirrors ``quaternion::exp6``.

    With t = sqrt(|w|^2 + eps^2): p = v + a (w x v) + b w x (w x v), a = (1 - cos t)/t^2,
    b = (t - sin t)/t^3 (1/2 - t^2/24 and 1/6 - t^2/120 when t < eps^(1/4)); the rotation is
    ``quaternion_exp3(w)``.  Motion or ``(..., 6)`` -> ``(..., 7)``; ``pin.exp6_quat``.
    """
    return _quat_exp6(_motion_vector(nu, "quaternion_exp6: nu"))


@_quiet
def _quat_exp6(nu):
    v, w = nu[..., LINEAR], nu[..., ANGULAR]
    t2 = _dot3(w, w) + EPS * EPS
    t = np.sqrt(t2)
    st, ct = _sin(t), _cos(t)
    inv_t2 = 1.0 / t2
    taylor = t < TAYLOR_PRECISION_3
    alpha_wxv = np.where(taylor, 0.5 - t2 / 24.0, (1.0 - ct) * inv_t2)
    alpha_w2 = np.where(taylor, 1.0 / 6.0 - t2 / 120.0, (t - st) * inv_t2 / t)
    wxv = cross(w, v)
    p = (v + _s(alpha_wxv) * wxv) + _s(alpha_w2) * cross(w, wxv)
    return np.concatenate((p, _quat_exp3(w)), axis=-1)


def quaternion_log6(q):
    """``log6`` of a configuration (x, y, z, qx, qy, qz, qw). Mirrors ``log6(quat, vec)``.

    (w, theta) = quaternion_log3(quat) ; v = p - (w x p)/2 + beta w x (w x p) with
    beta = 1/theta^2 - cot(theta/2) / (2 theta), cot(theta/2) = |w_q| / sqrt(|q_vec|^2 + eps^2)
    (|w_q| the scalar part), or (1/3 - theta^2/180) / 4 when theta <= eps^(1/4).
    ``(..., 7)`` -> Motion; ``pin.log6_quat``.
    """
    q = as_array(q, "quaternion_log6: q", (7,))
    return Motion.unchecked(_quat_log6(q[..., 3:7], q[..., 0:3]))


@_quiet
def _quat_log6(quat, vec):
    """``log6_impl::run(quat, vec)``: the ``(..., 6)`` twist."""
    pos_neg = np.where(quat[..., 3] >= 0.0, 1.0, -1.0)
    w, theta = _quat_log3(quat)
    t2 = _dot3(w, w)
    qv = quat[..., :3]
    ct_2 = pos_neg * quat[..., 3]
    st_2 = np.sqrt(_dot3(qv, qv) + EPS * EPS)
    cot_th_2 = ct_2 / st_2
    th_2_squared = t2 / 4.0
    beta_alt = (1.0 / 3.0 - th_2_squared / 45.0) / 4.0
    beta = np.where(theta <= TAYLOR_PRECISION_3, beta_alt, 1.0 / t2 - cot_th_2 * 0.5 / theta)
    wxv = cross(w, vec)
    linear = (vec - 0.5 * wxv) + _s(beta) * cross(w, wxv)
    return stack6(linear, w)


# Pinocchio's Python names of the quaternion forms.
exp3_quat = quaternion_exp3
exp6_quat = quaternion_exp6
log6_quat = quaternion_log6
