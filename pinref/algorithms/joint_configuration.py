"""The robot's configuration space, joint by joint (algorithm/joint-configuration.hxx, 3.8.0).

The configuration space of a model is the product of its joints' spaces (R^n, SO(2), SO(3),
SE(2), SE(3): ``jmodel.lie_group``). Every model-level operation loops over the joints and
applies the joint's own operation to its segments, q[idx_q : idx_q + nq] and
v[idx_v : idx_v + nv] (IntegrateStep, DifferenceStep, ... in multibody/liegroup/liegroup-algo):

    integrate(q, v)[q_i]          = integrate_i(q[q_i], v[v_i])        q (+) v, one unit of time
    difference(q1, q2)[v_i]       = difference_i(q1[q_i], q2[q_i])     q2 (-) q1
    interpolate(q1, q2, u)[q_i]   = interpolate_i(q1[q_i], q2[q_i], u)
    neutral()[q_i]                = neutral_i
    normalize(q)[q_i]             = normalize_i(q[q_i])                (a copy; q is not changed)
    isNormalized(q)               = all_i isNormalized_i(q[q_i], prec)
    isSameConfiguration(q1, q2)   = all_i isSameConfiguration_i(q1[q_i], q2[q_i], prec)
    randomConfiguration(lo, up)   = random_i(lo[q_i], up[q_i])         (finite bounds only)
    squaredDistance(q1, q2)[i-1]  = |difference_i(q1[q_i], q2[q_i])|^2  (one entry per joint)
    distance(q1, q2)              = sqrt(sum_i squaredDistance_i)
    dIntegrate(q, v, arg)         = block-diag_i dIntegrate_i(q[q_i], v[v_i], arg)    (nv x nv)
    dDifference(q1, q2, arg)      = block-diag_i dDifference_i(q1[q_i], q2[q_i], arg)
    dIntegrateTransport(q, v, J, arg)[v_i, :] = dIntegrate_i(q[q_i], v[v_i], arg) J[v_i, :]

Every function takes leading batch axes; the batch axes of the arguments broadcast. The
operations that read q as a configuration refuse a quaternion or (cos, sin) pair of non-unit
norm with NotNormalizedError naming the joint (fix: ``pinref.normalize(model, q)``).
"""

import weakref

import numpy as np

from ..errors import ModelError, NonFiniteError, ShapeError, UnsupportedError
from ..model.model import real_array
from ..model.tree import tree
from ._args import ArgumentPosition, state


def _joints(model):
    return model.joints[1:]


def _configurations(model, where, **configs):
    """Check each named configuration (size, finite, unit quaternions); their batch shape."""
    arrays = {name: model.check_configuration(q, f"{where}: {name}") for name, q in configs.items()}
    try:
        shape = np.broadcast_shapes(*(q.shape[:-1] for q in arrays.values()))
    except ValueError:
        raise ShapeError(f"{where}: the batch shapes of "
                         f"{', '.join(f'{k} {q.shape}' for k, q in arrays.items())} do not "
                         "broadcast") from None
    return arrays, shape


def integrate(model, q, v):
    """``q (+) v``: the configuration reached from q after moving with velocity v for one unit
    of time, ``(..., model.nq)``. The free-flyer's v is LOCAL: its linear part is in the base
    frame, so a base turned 90 degrees about z moving with v = (1, 0, 0, ...) goes along world y.

    Mirrors ``pinocchio::integrate`` (joint-configuration.hxx). q : (..., nq) ; v : (..., nv).
    """
    q, arrays, shape = state(model, q, v=v)
    v = arrays["v"]
    out = np.empty(shape + (model.nq,))
    for space, q_index, v_index, joints in _spaces(model):
        # q_out[q_i] = integrate_i(q[q_i], v[v_i])   (the joints of one space at once; q and v
        # were checked above, as integrate_i checks them)
        q_i = q[..., q_index].reshape(q.shape[:-1] + joints + (space.nq,))
        v_i = v[..., v_index].reshape(v.shape[:-1] + joints + (space.nv,))
        out[..., q_index] = space._integrate(q_i, v_i).reshape(shape + (len(q_index),))
    return out


_SPACES = weakref.WeakKeyDictionary()   # the model's Tree -> its joints grouped by space


def _spaces(model):
    """The model's joints grouped by configuration space (equal ``lie_group``, in the order of
    their first joint): ``(space, q entries, v entries, joints)`` for each space, ``joints``
    the shape of the joint axis (``(K,)``, or ``()`` for a space of one joint), so that an
    operation applied joint by joint runs once per space. Built once per Tree (it follows the
    model's joints)."""
    key = tree(model)
    if key not in _SPACES:
        groups = {}
        for jmodel in _joints(model):
            groups.setdefault(jmodel.lie_group, []).append(jmodel)
        _SPACES[key] = [(space,
                         np.concatenate([np.arange(j.idx_q, j.idx_q + j.nq) for j in joints]),
                         np.concatenate([np.arange(j.idx_v, j.idx_v + j.nv) for j in joints]),
                         (len(joints),) if len(joints) > 1 else ())
                        for space, joints in groups.items()]
    return _SPACES[key]


def difference(model, q1, q2):
    """``q2 (-) q1``: the velocity v, ``(..., model.nv)``, with ``integrate(q1, v) == q2``.

    Mirrors ``pinocchio::difference``. q1, q2 : (..., nq).
    """
    arrays, shape = _configurations(model, "difference", q1=q1, q2=q2)
    q1, q2 = arrays["q1"], arrays["q2"]
    out = np.empty(shape + (model.nv,))
    for jmodel in _joints(model):
        qs = jmodel.q_slice
        # v[v_i] = difference_i(q1[q_i], q2[q_i])
        out[..., jmodel.v_slice] = jmodel.difference(q1[..., qs], q2[..., qs])
    return out


def interpolate(model, q1, q2, alpha):
    """The configuration a fraction ``alpha`` of the way from q1 to q2, ``(..., model.nq)``.

    alpha : float, or an array of the batch shape. Mirrors ``pinocchio::interpolate``.
    """
    arrays, shape = _configurations(model, "interpolate", q1=q1, q2=q2)
    q1, q2 = arrays["q1"], arrays["q2"]
    alpha = real_array(alpha, "interpolate: alpha")
    if not np.all(np.isfinite(alpha)):
        raise NonFiniteError(f"interpolate: alpha must be finite, got {alpha!r}")
    shape = np.broadcast_shapes(shape, alpha.shape)
    out = np.empty(shape + (model.nq,))
    for jmodel in _joints(model):
        qs = jmodel.q_slice
        # q_out[q_i] = interpolate_i(q1[q_i], q2[q_i], alpha)
        out[..., qs] = jmodel.interpolate(q1[..., qs], q2[..., qs], alpha)
    return out


def neutral(model):
    """The neutral configuration ``(model.nq,)``: zeros, identity quaternions (0, 0, 0, 1) and
    (cos, sin) = (1, 0). Mirrors ``pinocchio::neutral``."""
    out = np.empty(model.nq)
    for jmodel in _joints(model):
        # q[q_i] = neutral_i
        out[jmodel.q_slice] = jmodel.neutral()
    return out


def normalize(model, q):
    """A copy of q whose quaternions and (cos, sin) pairs are divided by their norms.

    q : (..., model.nq), need not be normalized. Mirrors ``pinocchio::normalize`` as Pinocchio's
    Python API exposes it (a new array; q is left unchanged).
    """
    q = model.check_vector(q, "normalize: q", model.nq, "model.nq")
    out = q.copy()
    for jmodel in _joints(model):
        # q_out[q_i] = normalize_i(q[q_i])
        out[..., jmodel.q_slice] = jmodel.normalize(q[..., jmodel.q_slice])
    return out


def isNormalized(model, q, prec=1e-12):
    """True when every quaternion and (cos, sin) pair of q has norm 1 to ``prec``.

    A bool for one configuration, a bool array of the batch shape for several. Mirrors
    ``pinocchio::isNormalized`` (default prec 1e-12, as Pinocchio).
    """
    q = model.check_vector(q, "isNormalized: q", model.nq, "model.nq")
    if not prec >= 0:
        raise ModelError(f"isNormalized: prec must be a number >= 0, got {prec!r}")
    result = np.full(q.shape[:-1], True)
    for jmodel in _joints(model):
        # all_i isNormalized_i(q[q_i], prec)
        result = result & jmodel.is_normalized(q[..., jmodel.q_slice], prec)
    return result[()]


def isSameConfiguration(model, q1, q2, prec):
    """True when q1 and q2 are the same configuration to the relative precision ``prec``.

    Joint by joint: the segments are Eigen-approximately equal,
    ``|a - b|^2 <= prec^2 min(|a|^2, |b|^2)`` (so a joint at exactly 0 matches only 0), and a
    quaternion q matches q and -q (the same rotation); the free-flyer and planar joints compare
    their translation and rotation parts separately. A bool for one pair, a bool array of the
    broadcast batch shape for several. q1, q2 : (..., nq), unit quaternions and (cos, sin)
    pairs; prec : a number >= 0 (no default, as Pinocchio's Python API).

    Mirrors ``pinocchio::isSameConfiguration`` (joint-configuration.hxx, 3.8.0).
    """
    arrays, shape = _configurations(model, "isSameConfiguration", q1=q1, q2=q2)
    q1, q2 = arrays["q1"], arrays["q2"]
    if not prec >= 0:
        raise ModelError(f"isSameConfiguration: prec must be a number >= 0, got {prec!r}")
    result = np.full(shape, True)
    for jmodel in _joints(model):
        qs = jmodel.q_slice
        # all_i isSameConfiguration_i(q1[q_i], q2[q_i], prec)
        result = result & jmodel.lie_group.is_same_configuration(q1[..., qs], q2[..., qs], prec)
    return result[()]


def randomConfiguration(model, lower_bound=None, upper_bound=None, rng=None):
    """A configuration drawn uniformly within the bounds, ``(..., model.nq)``.

    Parameters
    ----------
    lower_bound, upper_bound : ndarray, shape (..., model.nq), optional
        Default ``model.lowerPositionLimit`` and ``model.upperPositionLimit``. Rotations
        (quaternions, (cos, sin) pairs) ignore their bounds and are uniform; every other entry
        needs a finite interval. Batch axes give several configurations.
    rng : numpy.random.Generator, seed or None

    Mirrors ``pinocchio::randomConfiguration``, except that infinite bounds raise
    NonFiniteError naming the joint: Pinocchio raises on infinite bounds but returns inf for
    its default limits of +-DBL_MAX (what ``addJoint`` sets when no limits are given).
    """
    lower = model.lowerPositionLimit if lower_bound is None else lower_bound
    upper = model.upperPositionLimit if upper_bound is None else upper_bound
    lower = _bound(model, lower, "lower_bound")
    upper = _bound(model, upper, "upper_bound")
    shape = np.broadcast_shapes(lower.shape[:-1], upper.shape[:-1])
    rng = np.random.default_rng(rng)
    out = np.empty(shape + (model.nq,))
    for jmodel in _joints(model):
        qs = jmodel.q_slice
        try:
            # q[q_i] = random_i(lower[q_i], upper[q_i])
            out[..., qs] = jmodel.random_configuration(lower[..., qs], upper[..., qs], rng)
        except NonFiniteError:
            source = ("model.lowerPositionLimit / model.upperPositionLimit"
                      if lower_bound is None or upper_bound is None else "the bounds")
            raise NonFiniteError(
                f"randomConfiguration: joint {model.names[jmodel.id]!r} "
                f"({jmodel.shortname()}), q[{qs.start}:{qs.stop}]: {source} are infinite or "
                f"+-DBL_MAX (lower {_fmt(lower[..., qs])}, upper {_fmt(upper[..., qs])}), so "
                "no uniform draw exists; pass finite bounds, randomConfiguration(model, lower, "
                "upper), or set finite model.lowerPositionLimit and model.upperPositionLimit"
            ) from None
    return out


def _fmt(x):
    return np.array2string(x, precision=3, max_line_width=10**6)


def _bound(model, x, name):
    """A bound of shape (..., nq), or one column (nq, 1) read as (nq,); +-inf pass (the joint
    that needs a finite one is named later), NaN does not."""
    a = real_array(x, f"randomConfiguration: {name}")
    if a.shape == (model.nq, 1):
        a = a[:, 0]
    if a.ndim < 1 or a.shape[-1] != model.nq:
        raise ShapeError(f"randomConfiguration: {name}: expected trailing shape ({model.nq},) "
                         f"(model.nq), got shape {a.shape}")
    if np.any(np.isnan(a)):
        raise NonFiniteError(f"randomConfiguration: {name} contains NaN")
    return a


def squaredDistance(model, q1, q2):
    """Per joint, the squared norm of ``difference_i(q1, q2)``: ``(..., model.njoints - 1)``.

    Mirrors ``pinocchio::squaredDistance``: entry i - 1 belongs to joint i.
    """
    arrays, shape = _configurations(model, "squaredDistance", q1=q1, q2=q2)
    q1, q2 = arrays["q1"], arrays["q2"]
    out = np.zeros(shape + (model.njoints - 1,))
    for jmodel in _joints(model):
        qs = jmodel.q_slice
        # d_i = |difference_i(q1[q_i], q2[q_i])|^2
        d = jmodel.difference(q1[..., qs], q2[..., qs])
        out[..., jmodel.id - 1] += np.sum(d * d, axis=-1)
    return out


def distance(model, q1, q2):
    """``sqrt(sum_i squaredDistance_i(q1, q2))``: a float, or an array of the batch shape.

    Mirrors ``pinocchio::distance`` (the sum is taken joint by joint, as squaredDistanceSum).
    """
    d2 = squaredDistance(model, q1, q2)
    total = np.zeros(d2.shape[:-1])
    for k in range(model.njoints - 1):
        # sum_i d_i
        total = total + d2[..., k]
    return np.sqrt(total)[()]


def _arg(arg, where):
    """ARG0 or ARG1; the other ArgumentPosition values (Pinocchio returns zeros or garbage for
    them) and what is no position raise UnsupportedError."""
    try:
        value = int(arg)
    except (TypeError, ValueError):
        value = None
    if value not in (0, 1):
        raise UnsupportedError(f"{where}: arg must be pinref.ArgumentPosition.ARG0 or ARG1 "
                               f"(0 or 1), got {arg!r}")
    return ArgumentPosition(value)


def dIntegrate(model, q, v, arg=None):
    """Jacobian of ``integrate(q, v)`` with respect to q (ARG0) or v (ARG1), ``(..., nv, nv)``.

    Block diagonal: joint i's block is its own dIntegrate. With ``arg`` omitted, the tuple
    (d/dq, d/dv), as Pinocchio's three-argument overload. Mirrors ``pinocchio::dIntegrate``.
    """
    if arg is None:
        return (dIntegrate(model, q, v, ArgumentPosition.ARG0),
                dIntegrate(model, q, v, ArgumentPosition.ARG1))
    arg = _arg(arg, "dIntegrate")
    q, arrays, shape = state(model, q, v=v)
    v = arrays["v"]
    J = np.zeros(shape + (model.nv, model.nv))
    for jmodel in _joints(model):
        vs = jmodel.v_slice
        # J[v_i, v_i] = dIntegrate_i(q[q_i], v[v_i], arg)
        J[..., vs, vs] = jmodel.dIntegrate(q[..., jmodel.q_slice], v[..., vs], arg)
    return J


def dDifference(model, q1, q2, arg=None):
    """Jacobian of ``difference(q1, q2)`` with respect to q1 (ARG0) or q2 (ARG1),
    ``(..., nv, nv)``, block diagonal. With ``arg`` omitted, the tuple (d/dq1, d/dq2).
    Mirrors ``pinocchio::dDifference``.
    """
    if arg is None:
        return (dDifference(model, q1, q2, ArgumentPosition.ARG0),
                dDifference(model, q1, q2, ArgumentPosition.ARG1))
    arg = _arg(arg, "dDifference")
    arrays, shape = _configurations(model, "dDifference", q1=q1, q2=q2)
    q1, q2 = arrays["q1"], arrays["q2"]
    J = np.zeros(shape + (model.nv, model.nv))
    for jmodel in _joints(model):
        qs, vs = jmodel.q_slice, jmodel.v_slice
        # J[v_i, v_i] = dDifference_i(q1[q_i], q2[q_i], arg)
        J[..., vs, vs] = jmodel.dDifference(q1[..., qs], q2[..., qs], arg)
    return J


def dIntegrateTransport(model, q, v, Jin, arg):
    """``dIntegrate(model, q, v, arg) @ Jin``: tangent vectors or matrices given at
    ``integrate(q, v)`` carried back to the tangent space at q (the chain rule of
    ``f(integrate(q, v))``), computed joint block by joint block.

    Parameters
    ----------
    q : (..., nq) ; v : (..., nv)
    Jin : (..., nv, m) matrices, or (..., nv) vectors when Jin has one axis less than the
        Jacobian (..., nv, nv) (with batched q, a matrix Jin carries the batch axes too, or
        size-1 ones); an unbatched ``(nv, 1)`` column is one vector and gives ``(nv,)``, as
        Pinocchio returns it.
    arg : ArgumentPosition.ARG0 (the Jacobian with respect to q) or ARG1 (to v); required.

    Returns an array of Jin's shape, broadcast against the batch of q and v. Mirrors
    ``pinocchio::dIntegrateTransport`` (joint-configuration.hxx; Pinocchio's Python API has
    only this five-argument overload, returning a new array).
    """
    where = "dIntegrateTransport"
    arg = _arg(arg, where)
    q, arrays, shape = state(model, q, v=v)
    v = arrays["v"]
    J = real_array(Jin, f"{where}: Jin")
    vectors = J.ndim == len(shape) + 1 or J.shape == (model.nv, 1)
    if vectors:
        J = model.check_vector(J, f"{where}: Jin", model.nv)[..., None]
    elif J.ndim < 2 or J.shape[-2] != model.nv:
        raise ShapeError(f"{where}: Jin: expected {model.nv} rows (model.nv), shape "
                         f"(..., {model.nv}, m) or (..., {model.nv}), got shape {J.shape}")
    elif not np.all(np.isfinite(J)):
        raise NonFiniteError(f"{where}: Jin contains NaN or infinity")
    try:
        out_shape = np.broadcast_shapes(shape, J.shape[:-2]) + J.shape[-2:]
    except ValueError:
        raise ShapeError(f"{where}: the batch shape {J.shape[:-2]} of Jin {J.shape} does not "
                         f"broadcast against the batch shape {shape} of q and v") from None
    out = np.empty(out_shape)
    for jmodel in _joints(model):
        vs = jmodel.v_slice
        # Jout[v_i, :] = dIntegrate_i(q[q_i], v[v_i], arg) Jin[v_i, :]
        out[..., vs, :] = jmodel.dIntegrate(q[..., jmodel.q_slice], v[..., vs], arg) @ J[..., vs, :]
    return out[..., 0] if vectors else out


__all__ = ["integrate", "difference", "interpolate", "neutral", "normalize", "isNormalized",
           "isSameConfiguration", "randomConfiguration", "squaredDistance", "distance",
           "dIntegrate", "dDifference", "dIntegrateTransport"]
