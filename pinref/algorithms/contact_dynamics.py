"""Dynamics with rigid contacts J ddq = -gamma, impacts J v+ = -r J v-, and the KKT inverse
(algorithm/contact-dynamics.hxx, 3.8.0; the Python overloads of bindings' expose-contact-dynamics).

J (nc, nv) is the constraint Jacobian, gamma (nc,) its drift, mu >= 0 a damping added to the
Delassus matrix J M^-1 J^T (it regularises dependent contact rows), r the restitution
coefficient. With M = U D U^T (cholesky.py) each solver builds

    sDUiJt  = D^-1/2 U^-1 J^T                      (Uiv on the columns of J^T, rows / sqrt(D))
    JMinvJt = sDUiJt^T sDUiJt + mu I  = J M^-1 J^T + mu I ;  llt_JMinvJt = its Cholesky factor L

and then:

    forwardDynamics(tau, J, gamma, mu):            (after computeAllTerms: data.M, data.nle)
        decompose ; torque_residual = M^-1 (tau - nle)
        lambda_c = -(J M^-1 J^T + mu I)^-1 (J torque_residual + gamma)
        ddq      = M^-1 J^T lambda_c + torque_residual
    forwardDynamics(q, v, tau, J, gamma, mu):      computeAllTerms(q, v), then the above
    impulseDynamics(v_before, J, r, mu):           (after crba: data.M)
        decompose ; impulse_c = -(1 + r) (J M^-1 J^T + mu I)^-1 J v_before
        dq_after  = M^-1 J^T impulse_c + v_before
    impulseDynamics(q, v_before, J, r, mu):        crba(q, WORLD) without the binding's
                                                   symmetrisation, then the above
    computeKKTContactDynamicMatrixInverse(q, J, mu):  crba(q, WORLD), decompose, JMinvJt, then
    getKKTContactDynamicMatrixInverse(J):          from the last factors (no Data written)
        [[M, J^T], [J, -mu I]]^-1 = [[Minv - Minv J^T S J Minv, Minv J^T S],
                                     [S J Minv,                  -S]],   S = (J M^-1 J^T + mu I)^-1

ddq is the acceleration minimising the distance to the free motion in the M-metric under the
contact constraint; lambda_c the contact forces (in the space of J's rows), impulse_c the contact
impulses. The KKT inverse is built as Pinocchio builds it: bottom-right -S by the LLT, top-left
M^-1 by cholesky.solve on the identity, bottom-left J M^-1, top-right (J M^-1)^T S, then the
top-left corrected.

Batches: q, v, tau, gamma ``(..., n)`` and J ``(nc, nv)`` or ``(..., nc, nv)``, broadcast
together and with the batch of the caches the call reads. ``llt_JMinvJt`` (Eigen's LLT, run by
``internal::PerformCholeskyCompute``) is NumPy's lower Cholesky factor, and the solves of
``PerformCholeskySolveInPlace`` are its two triangular substitutions, by ``np.linalg.solve``
on L and L^T. The other statements mirror the header line by line, on all the states and all
the columns of J at once; the sweeps over the dof rows are in cholesky.py.

Pinocchio leaves J M^-1 J^T + mu I unchecked: dependent rows of J with mu = 0 make it singular
and its LLT fails silently (lambda_c is then made of rounding). pinref raises
NotPositiveDefiniteError there instead, asking for mu > 0 (docs/quirks.md).
"""

import numbers

import numpy as np

from ..errors import (
    ArgumentTypeError,
    ArgumentValueError,
    NonFiniteError,
    NotPositiveDefiniteError,
    ShapeError,
    UnsupportedError,
)
from ..model.model import bind_positional, real_array
from . import steps as S
from ._args import check_data, check_model
from ._levels import inputs
from .cholesky import Uiv, _decompose, inverse, rows, solved
from .compute_all_terms import computeAllTerms
from .crba_world import crba_world_upper

_FIX_M = "crba(model, data, q), or pass q"
_FIX_ALL_TERMS = "computeAllTerms(model, data, q, v), or pass q and v"


def _number(x, where, name):
    """``x`` as a finite float (ArgumentTypeError / NonFiniteError naming ``name``)."""
    if isinstance(x, (bool, np.bool_)) or np.ndim(x) != 0 or np.asarray(x).dtype.kind not in "iuf":
        got = repr(x) if np.ndim(x) == 0 else f"an array of shape {np.shape(x)}"
        raise ArgumentTypeError(f"{where}: {name} must be a real number, got {got}")
    x = float(x)
    if not np.isfinite(x):
        raise NonFiniteError(f"{where}: {name} = {x} is not finite")
    return x


def _damping(x, where):
    """The damping mu: a finite number >= 0 (ArgumentValueError for a negative one, as
    Pinocchio's computeKKTContactDynamicMatrixInverse: "mu must be positive")."""
    mu = _number(x, where, "damping")
    if mu < 0:
        raise ArgumentValueError(f"{where}: damping = {mu} is negative; it must be >= 0 (it is "
                                 "added to the diagonal of J M^-1 J^T)")
    return mu


def _jacobian(model, J, where):
    """The constraint Jacobian as a finite float array ``(..., nc, nv)``."""
    a = real_array(J, f"{where}: constraint_jacobian")
    if a.ndim < 2 or a.shape[-1] != model.nv:
        hint = " (one constraint row: reshape it to (1, nv))" if a.ndim == 1 else ""
        raise ShapeError(f"{where}: constraint_jacobian must have shape (..., nc, {model.nv}) "
                         f"(model.nv = {model.nv} columns), got {a.shape}{hint}")
    if not np.isfinite(a).all():
        raise NonFiniteError(f"{where}: constraint_jacobian holds NaN or infinity")
    return a


def _batch(where, *shapes):
    """The broadcast of the batch shapes ``shapes`` (ShapeError naming the call otherwise)."""
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise ShapeError(f"{where}: the batch shapes {', '.join(map(str, shapes))} of the "
                         "arguments and of the caches read do not broadcast") from None


def _delassus(model, data, J, mu, where):
    """sDUiJt, JMinvJt = J M^-1 J^T + mu I and its Cholesky factor L from the factors of M (the
    statements the three solvers of contact-dynamics.hxx share after decompose); returns L."""
    R, U, D, nv, nc = rows(model, data), data.U, data.D, model.nv, J.shape[-2]
    shape = np.broadcast_shapes(U.shape[:-2], J.shape[:-2])
    # sDUiJt = J^T ; sDUiJt = U^-1 sDUiJt ; sDUiJt.row(k) /= sqrt(D[k])
    sDUiJt = np.array(np.broadcast_to(J.mT, shape + (nv, nc)))
    Uiv(R, U, sDUiJt)
    sDUiJt /= np.sqrt(D)[..., None]
    # JMinvJt = sDUiJt^T sDUiJt ; JMinvJt.diagonal() += mu
    JMinvJt = sDUiJt.mT @ sDUiJt
    np.einsum("...ii->...i", JMinvJt)[...] += mu
    data.sDUiJt, data.JMinvJt = sDUiJt, JMinvJt
    # llt_JMinvJt.compute(JMinvJt)
    data.llt_JMinvJt = _llt(JMinvJt, mu, where)
    return data.llt_JMinvJt


def _llt(A, mu, where):
    """The lower Cholesky factor of ``A (..., nc, nc)``; NotPositiveDefiniteError when A is not
    (numerically) positive definite: J's rows are dependent and mu = 0, or mu is too small."""
    nc = A.shape[-1]
    try:
        L = np.linalg.cholesky(A)
    except np.linalg.LinAlgError:
        L = None
    if L is not None and nc == 0:
        return L
    if L is not None:
        # a pivot L_kk^2 at rounding level of the diagonal's scale: numerically singular
        pivots = np.einsum("...ii->...i", L) ** 2
        scale = np.einsum("...ii->...i", A).max(axis=-1, keepdims=True)
        if (pivots > 8 * nc * np.finfo(float).eps * scale).all():
            return L
    raise NotPositiveDefiniteError(
        f"{where}: J M^-1 J^T + damping I (damping = {mu}) is singular: the rows of "
        "constraint_jacobian are linearly dependent (a repeated or redundant contact); pass a "
        "damping > 0 (e.g. 1e-8 times the scale of M^-1), or drop the dependent rows")


def _llt_solve(L, B):
    """``(L L^T)^-1 B`` for ``B (..., nc, k)`` (Eigen's LLT::solveInPlace: two substitutions)."""
    return np.linalg.solve(L.mT, np.linalg.solve(L, B))


def _forward_dynamics(model, data, tau, J, gamma, mu, where):
    """The overload after computeAllTerms (contact-dynamics.hxx's first forwardDynamics)."""
    tau = model.check_vector(tau, f"{where}: tau", model.nv)
    J = _jacobian(model, J, where)
    gamma = model.check_vector(gamma, f"{where}: constraint_drift", J.shape[-2],
                               "the rows of the constraint Jacobian")
    shape = _batch(where, data.batch_shape, data.M.shape[:-2], data.nle.shape[:-1],
                   tau.shape[:-1], J.shape[:-2], gamma.shape[:-1])
    data.conform(model, shape)
    _decompose(model, data, where)
    # torque_residual = tau - nle ; cholesky::solve(torque_residual)
    data.torque_residual = solved(model, data, tau - data.nle)
    L = _delassus(model, data, J, mu, where)
    # lambda_c = -J torque_residual - gamma ; llt_JMinvJt.solveInPlace(lambda_c)
    data.lambda_c = _llt_solve(L, (-np.matvec(J, data.torque_residual) - gamma)[..., None])[..., 0]
    # ddq = J^T lambda_c ; cholesky::solve(ddq) ; ddq += torque_residual
    data.ddq = solved(model, data, np.vecmat(data.lambda_c, J)) + data.torque_residual
    data.mark(where, "U", "D", "Dinv", "torque_residual", "sDUiJt", "JMinvJt", "llt_JMinvJt",
              "lambda_c", "ddq")
    return data.ddq.copy()


def _impulse_dynamics(model, data, v_before, J, r_coeff, mu, where):
    """The overload after crba (contact-dynamics.hxx's second impulseDynamics)."""
    v_before = model.check_vector(v_before, f"{where}: v_before", model.nv)
    J = _jacobian(model, J, where)
    shape = _batch(where, data.batch_shape, data.M.shape[:-2], v_before.shape[:-1],
                   J.shape[:-2])
    data.conform(model, shape)
    _decompose(model, data, where)
    L = _delassus(model, data, J, mu, where)
    # impulse_c = (-r - 1) J v_before ; llt_JMinvJt.solveInPlace(impulse_c)
    data.impulse_c = _llt_solve(L, ((-r_coeff - 1.0) * np.matvec(J, v_before))[..., None])[..., 0]
    # dq_after = J^T impulse_c ; cholesky::solve(dq_after) ; dq_after += v_before
    data.dq_after = solved(model, data, np.vecmat(data.impulse_c, J)) + v_before
    data.mark(where, "U", "D", "Dinv", "sDUiJt", "JMinvJt", "llt_JMinvJt", "impulse_c",
              "dq_after")
    return data.dq_after.copy()


def _kkt_inverse(model, data, J, where):
    """getKKTContactDynamicMatrixInverse's blocks from data's factors (reads, writes nothing)."""
    nv, nc = model.nv, data.JMinvJt.shape[-1]
    if J.shape[-2] != nc:
        raise ShapeError(f"{where}: constraint_jacobian has {J.shape[-2]} rows, but the last "
                         f"forwardDynamics/impulseDynamics/computeKKTContactDynamicMatrixInverse "
                         f"of this Data had nc = {nc}: pass the same Jacobian")
    L = data.llt_JMinvJt
    shape = _batch(where, L.shape[:-2], data.U.shape[:-2], J.shape[:-2])
    # bottomRight = -I ; llt_JMinvJt.solveInPlace(bottomRight)
    BR = _llt_solve(L, -np.eye(nc))
    # topLeft = I ; cholesky::solve(topLeft)
    TL = inverse(model, data)
    # bottomLeft = J topLeft ; topRight = bottomLeft^T (-bottomRight)
    BL = J @ TL
    TR = BL.mT @ -BR
    # topLeft -= topRight bottomLeft ; bottomLeft = topRight^T
    TL = TL - TR @ BL
    BL = TR.mT
    K = np.empty(shape + (nv + nc, nv + nc))
    K[..., :nv, :nv], K[..., :nv, nv:], K[..., nv:, :nv], K[..., nv:, nv:] = TL, TR, BL, BR
    return K


def forwardDynamics(model, data, *args, **kwargs):
    """Constrained forward dynamics: ``ddq`` ``(..., nv)`` under ``J ddq = -gamma``.

    ``forwardDynamics(model, data, q, v, tau, constraint_jacobian, constraint_drift,
    damping=0)`` runs computeAllTerms(q, v) first; ``forwardDynamics(model, data, tau,
    constraint_jacobian, constraint_drift, damping=0)`` reads data.M and data.nle (call
    computeAllTerms first). Writes U, D, Dinv, torque_residual, sDUiJt, JMinvJt, llt_JMinvJt,
    lambda_c (the contact forces, ``(..., nc)``) and ddq; returns a copy of ddq. Mirrors
    ``pinocchio::forwardDynamics`` (contact-dynamics.hxx) and its Python overloads.
    """
    where = "forwardDynamics"
    # (tau, J, gamma[, damping]) has a matrix second; (q, v, tau, J, gamma[, damping]) a vector
    if len(args) >= 5 or "q" in kwargs or "v" in kwargs or \
            (len(args) >= 2 and not _is_matrix(args[1])):
        names = ("q", "v", "tau", "constraint_jacobian", "constraint_drift", "damping")
    else:
        names = ("tau", "constraint_jacobian", "constraint_drift", "damping")
    a = _bound(where, names, args, kwargs)
    mu = _damping(a.get("damping", 0.0), where)
    check_model(model, data)
    if "q" in a:
        # computeAllTerms(q, v), Pinocchio's C++ one: M's unwritten entries keep their values
        M_before = data.M
        computeAllTerms(model, data, a["q"], a["v"])
        _keep_unwritten(model, data, M_before)
    else:
        data.require(where, "M", _FIX_ALL_TERMS)
        data.require(where, "nle", _FIX_ALL_TERMS)
    return _forward_dynamics(model, data, a["tau"], a["constraint_jacobian"],
                             a["constraint_drift"], mu, where)


def impulseDynamics(model, data, *args, **kwargs):
    """Impact dynamics: the velocity after the impact ``dq_after`` ``(..., nv)``, with
    ``J dq_after = -r J v_before``.

    ``impulseDynamics(model, data, q, v_before, constraint_jacobian,
    restitution_coefficient=0, damping=0)`` runs crba(q) first (Convention.WORLD, as
    Pinocchio's C++ calls it: M's upper triangle); ``impulseDynamics(model, data, v_before,
    constraint_jacobian, restitution_coefficient=0, damping=0)`` reads data.M (call crba
    first). Writes U, D, Dinv, sDUiJt, JMinvJt, llt_JMinvJt, impulse_c (the contact impulses,
    ``(..., nc)``) and dq_after; returns a copy of dq_after. Mirrors
    ``pinocchio::impulseDynamics`` (contact-dynamics.hxx) and its Python overloads; the
    overload on lists of RigidConstraintModel (constraint dynamics) is not implemented.
    """
    where = "impulseDynamics"
    if "contact_models" in kwargs or any(_constraint_models(x) for x in args):
        raise UnsupportedError(
            f"{where}: the overload on RigidConstraintModel lists (constraint dynamics, "
            "initConstraintDynamics) is not implemented in pinref; pass the stacked contact "
            "Jacobian: impulseDynamics(model, data, q, v_before, J, r_coeff, damping)")
    with_q = "q" in kwargs or (len(args) >= 3 and _is_matrix(args[2])) or \
        (len(args) == 2 and "constraint_jacobian" in kwargs)
    names = ("v_before", "constraint_jacobian", "restitution_coefficient", "damping")
    a = _bound(where, ("q",) * with_q + names, args, kwargs)
    r_coeff = _number(a.get("restitution_coefficient", 0.0), where, "restitution_coefficient")
    mu = _damping(a.get("damping", 0.0), where)
    check_model(model, data)
    if with_q:
        _crba_world(model, data, a["q"])
    else:
        data.require(where, "M", _FIX_M)
    return _impulse_dynamics(model, data, a["v_before"], a["constraint_jacobian"], r_coeff, mu,
                             where)


def computeKKTContactDynamicMatrixInverse(model, data, q, constraint_jacobian, damping=0.0):
    """The inverse of the KKT matrix ``[[M, J^T], [J, -damping I]]``, ``(..., nv+nc, nv+nc)``.

    Runs crba(q) (Convention.WORLD, M's upper triangle), decomposes M, writes U, D, Dinv,
    sDUiJt, JMinvJt and llt_JMinvJt, then returns getKKTContactDynamicMatrixInverse's matrix.
    damping must be >= 0 (ArgumentValueError, Pinocchio's "mu must be positive"). Mirrors
    ``pinocchio::computeKKTContactDynamicMatrixInverse`` (contact-dynamics.hxx).
    """
    where = "computeKKTContactDynamicMatrixInverse"
    mu = _damping(damping, where)
    check_model(model, data)
    J = _jacobian(model, constraint_jacobian, where)
    _crba_world(model, data, q)
    data.conform(model, _batch(where, data.batch_shape, J.shape[:-2]))
    _decompose(model, data, where)
    _delassus(model, data, J, mu, where)
    data.mark(where, "U", "D", "Dinv", "sDUiJt", "JMinvJt", "llt_JMinvJt")
    return _kkt_inverse(model, data, J, where)


def getKKTContactDynamicMatrixInverse(model, data, constraint_jacobian):
    """The KKT inverse (see computeKKTContactDynamicMatrixInverse) from the factors that the
    last forwardDynamics, impulseDynamics or computeKKTContactDynamicMatrixInverse left in
    data; J must be the Jacobian given to it. Writes nothing. Mirrors
    ``pinocchio::getKKTContactDynamicMatrixInverse`` (contact-dynamics.hxx)."""
    where = "getKKTContactDynamicMatrixInverse"
    check_data(model, data)
    data.require(where, "JMinvJt", "forwardDynamics, impulseDynamics or "
                 "computeKKTContactDynamicMatrixInverse with this Jacobian")
    return _kkt_inverse(model, data, _jacobian(model, constraint_jacobian, where), where)


def _bound(where, names, args, kwargs):
    """The arguments bound to ``names``; ArgumentTypeError for an unknown or missing one."""
    a = bind_positional(where, names, args, dict(kwargs))
    unknown = set(a) - set(names)
    if unknown:
        raise ArgumentTypeError(f"{where}: unexpected argument(s) {sorted(unknown)}; this "
                                f"overload takes ({', '.join(names)})")
    missing = [n for n in names if n not in a and n not in ("damping", "restitution_coefficient")]
    if missing:
        raise ArgumentTypeError(f"{where}: missing argument(s) {missing}; this overload takes "
                                f"({', '.join(names)})")
    return a


def _is_matrix(x):
    """Whether ``x`` looks like a matrix (a constraint Jacobian), not a vector or a number."""
    try:
        return np.ndim(x) >= 2
    except ValueError:          # a ragged nested list: let the checks name it
        return True


def _constraint_models(x):
    """Whether ``x`` is a list of constraint models (an object that is no number array)."""
    return isinstance(x, (list, tuple)) and bool(x) and not isinstance(
        x[0], (numbers.Number, list, tuple, np.ndarray))


def _keep_unwritten(model, data, M_before):
    """Put back into data.M the entries that the C++ computeAllTerms does not write (it writes
    M[cols_i, sub_i] for every joint i: the upper triangle and the diagonal blocks), which the
    Python binding that pinref's computeAllTerms mirrors zeroes and then symmetrises."""
    written = np.zeros((model.nv, model.nv), dtype=bool)
    for i in range(1, model.njoints):
        start = model.idx_vs[i]
        written[start:start + model.nvs[i], start:start + data.nvSubtree[i]] = True
    try:
        before = np.broadcast_to(M_before, data.M.shape)
    except ValueError:          # data was reset for the new batch shape (Data.conform)
        before = np.zeros(data.M.shape)
    np.copyto(data.M, before, where=~written)


def _crba_world(model, data, q):
    """``crba(model, data, q, Convention::WORLD)`` as Pinocchio's C++ calls it: M's upper
    triangle and diagonal blocks written, the other entries left as they were (the Python
    binding's zeroing and symmetrisation are not run)."""
    with S.Call("crbaWorldConvention", model, data, inputs(q=q)) as call:
        crba_world_upper(model, data, q, call)


__all__ = [
    "computeKKTContactDynamicMatrixInverse",
    "forwardDynamics",
    "getKKTContactDynamicMatrixInverse",
    "impulseDynamics",
]
