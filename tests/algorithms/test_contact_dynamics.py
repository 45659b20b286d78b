"""Contact dynamics (pinref/algorithms/contact_dynamics.py): forwardDynamics, impulseDynamics,
computeKKTContactDynamicMatrixInverse and getKKTContactDynamicMatrixInverse, every overload.

Oracles: Pinocchio 3.8.0 on one Data per state running the same call sequence as pinref's one
(batched) Data: the results and every cache pin exposes (ddq, lambda_c, impulse_c, dq_after, U, D,
and those of computeAllTerms and the WORLD crba that the solvers with q run, M with its
unwritten lower triangle) after each call, per state at
``1e-12 * max(1, max|ref|)``; the caches pin hides from pin's exposed ones: Dinv = 1 / D,
torque_residual = pin.cholesky.solve(tau - nle), sDUiJt = D^-1/2 U^-1 J^T, JMinvJt = its Gram
matrix + damping, llt_JMinvJt its Cholesky factor. The contact Jacobians are pin's joint
Jacobians of the deepest joint: its independent linear rows (a point contact), and all six rows
plus the sum of two of them (rank-deficient) with damping.
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close
from models import MODEL_NAMES, build, random_states
from test_compute_all_terms import _cat_caches
from test_rnea_derivatives import _seed

import pinref
from pinref.errors import (
    ArgumentTypeError,
    ArgumentValueError,
    NonFiniteError,
    NotComputedError,
    NotNormalizedError,
    NotPositiveDefiniteError,
    ShapeError,
    UnsupportedError,
)

BATCHES = [(), (5,), (2, 3)]
DAMPING = 0.1          # for the rank-deficient Jacobian (keeps J M^-1 J^T + mu I well conditioned)


def _setup(model_name, batch, armature, *key):
    rng = np.random.default_rng(_seed(model_name, batch, armature, "contact", *key))
    rmodel, pmodel = build(model_name)
    if armature:
        rmodel.armature = rng.uniform(0.1, 1.0, rmodel.nv)
        pmodel.armature = rmodel.armature.copy()
    return rng, rmodel, pmodel


def _deepest_joint(pmodel):
    return max(range(1, pmodel.njoints), key=lambda i: len(pmodel.supports[i]))


def _independent_rows(J):
    """Indices of rows of ``J (states, rows, nv)``, in order, each far from dependent on the
    rows before it at every state (condition number below 1e3: the contact problems stay well
    conditioned, so that rounding stays far inside the tolerance)."""
    keep = []
    for r in range(J.shape[1]):
        if max(np.linalg.cond(Jk[keep + [r]]) for Jk in J) < 1e3:
            keep.append(r)
    return keep


def _jacobians(pmodel, q, batch):
    """(J, J_deficient), ``batch + (nc, nv)`` from pin's joint Jacobian of the deepest joint at
    each state: J its linear rows (a point contact) that are independent, J_deficient all six
    rows and their sum of the first and the last (dependent rows, for use with damping)."""
    jid = _deepest_joint(pmodel)
    states = list(np.ndindex(*batch))
    full = np.array([pin.computeJointJacobian(pmodel, pmodel.createData(), q[idx], jid)
                     for idx in states])
    rows = _independent_rows(full[:, :3])
    J = full[:, rows]
    deficient = np.concatenate([full, full[:, :1] + full[:, -1:]], axis=1)
    return (J.reshape(batch + (len(rows), pmodel.nv)),
            deficient.reshape(batch + (7, pmodel.nv)))


def _exposed(model, data, lib, idx, batch, ref=None):
    """The caches pin exposes, for state ``idx``: those of computeAllTerms (a superset of what
    the WORLD crba writes) and the contact solvers' (pinref's broadcast to ``batch`` + the
    shape of pin's, ``ref``, since nc varies)."""
    names = ("ddq", "lambda_c", "impulse_c", "dq_after", "U", "D", "Minv")
    out = _cat_caches(model, data, lib, idx, batch)
    for name in names:
        x = np.asarray(getattr(data, name), dtype=float)
        out[name] = x if lib == "pin" else np.broadcast_to(x, batch + ref[name].shape)[idx]
    return out


def _hidden(pmodel, rdata, pdata, idx, batch, J, mu, tau=None):
    """The caches pin does not expose, against what pin's exposed caches give."""
    U, D = np.asarray(pdata.U), np.asarray(pdata.D)
    at = lambda x, tail: np.broadcast_to(x, batch + tail)[idx]
    nv, nc = U.shape[0], J.shape[-2]
    assert_close(at(rdata.Dinv, (nv,)), 1.0 / D, what=f"Dinv at {idx}")
    sDUiJt = np.linalg.solve(U, J.T) / np.sqrt(D)[:, None]
    assert_close(at(rdata.sDUiJt, (nv, nc)), sDUiJt, what=f"sDUiJt at {idx}")
    JMinvJt = sDUiJt.T @ sDUiJt + mu * np.eye(nc)
    assert_close(at(rdata.JMinvJt, (nc, nc)), JMinvJt, what=f"JMinvJt at {idx}")
    assert_close(at(rdata.llt_JMinvJt, (nc, nc)), np.linalg.cholesky(JMinvJt),
                 what=f"llt_JMinvJt at {idx}")
    if tau is not None:
        residual = pin.cholesky.solve(pmodel, pdata, tau - pdata.nle)
        assert_close(at(rdata.torque_residual, (nv,)), residual, what=f"torque_residual at {idx}")


def _run(rmodel, pmodel, batch, steps):
    """Run ``steps`` (name, pinref arguments, per-state pin arguments ``f(idx)``, hidden-cache
    check or None) on one pinref Data and one pin Data per state; compare the results and the
    exposed caches after every call, and the hidden ones where the step asks."""
    rdata = rmodel.createData()
    states = list(np.ndindex(*batch))
    pdatas = [pmodel.createData() for _ in states]
    for name, rargs, pargs, hidden in steps:
        got = getattr(pinref, name)(rmodel, rdata, *rargs)
        for k, idx in enumerate(states):
            ref = getattr(pin, name)(pmodel, pdatas[k], *pargs(idx))
            if ref is not None:
                ref = np.asarray(ref)
                assert got.shape == batch + ref.shape, name
                assert_close(got[idx], ref, what=f"{name} result at state {idx}")
            pref = _exposed(pmodel, pdatas[k], "pin", idx, batch)
            pgot = _exposed(rmodel, rdata, "pinref", idx, batch, pref)
            for key, r in pref.items():
                assert_close(pgot[key], r, what=f"after {name}: data.{key} at state {idx}")
            if hidden is not None:
                hidden(rdata, pdatas[k], idx)
    return rdata


@pytest.mark.parametrize("armature", [False, True], ids=["no_armature", "armature"])
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_forward_dynamics_matches_pin(model_name, batch, armature):
    """crba (symmetric M), forwardDynamics(q, v, ...) (M's lower triangle keeps crba's values),
    getKKT, computeAllTerms, forwardDynamics(tau, ...) with a rank-deficient batched J and damping,
    getKKT again, forwardDynamics(q, ...) with one J for the whole batch."""
    rng, rmodel, pmodel = _setup(model_name, batch, armature)
    q, v, tau = random_states(pmodel, batch, rng)
    q2, v2, tau2 = random_states(pmodel, batch, rng)
    J, Jd = _jacobians(pmodel, q, batch)
    gamma = rng.normal(size=batch + J.shape[-2:-1])
    gamma_d = rng.normal(size=batch + Jd.shape[-2:-1])
    J0, g0 = J[(0,) * len(batch)], gamma[(0,) * len(batch)]
    steps = [
        ("crba", [q2], lambda idx: [q2[idx]], None),
        ("forwardDynamics", [q, v, tau, J, gamma], lambda idx: [q[idx], v[idx], tau[idx], J[idx],
                                                                gamma[idx]],
         lambda rd, pd, idx: _hidden(pmodel, rd, pd, idx, batch, J[idx], 0.0, tau[idx])),
        ("getKKTContactDynamicMatrixInverse", [J], lambda idx: [J[idx]], None),
        ("computeAllTerms", [q2, v2], lambda idx: [q2[idx], v2[idx]], None),
        ("forwardDynamics", [tau2, Jd, gamma_d, DAMPING],
         lambda idx: [tau2[idx], Jd[idx], gamma_d[idx], DAMPING],
         lambda rd, pd, idx: _hidden(pmodel, rd, pd, idx, batch, Jd[idx], DAMPING, tau2[idx])),
        ("getKKTContactDynamicMatrixInverse", [Jd], lambda idx: [Jd[idx]], None),
        ("forwardDynamics", [q, v2, tau, J0, g0, 0.0], lambda idx: [q[idx], v2[idx], tau[idx], J0,
                                                                    g0, 0.0],
         lambda rd, pd, idx: _hidden(pmodel, rd, pd, idx, batch, J0, 0.0, tau[idx])),
    ]
    _run(rmodel, pmodel, batch, steps)


@pytest.mark.parametrize("armature", [False, True], ids=["no_armature", "armature"])
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_impulse_dynamics_and_kkt_match_pin(model_name, batch, armature):
    """crba, impulseDynamics(q, ...) (the C++ crba: M's lower triangle kept), impulseDynamics
    without q on a rank-deficient J with damping, computeKKTContactDynamicMatrixInverse with
    and without damping, getKKT after it."""
    rng, rmodel, pmodel = _setup(model_name, batch, armature)
    q, v, _ = random_states(pmodel, batch, rng)
    q2, v2, _ = random_states(pmodel, batch, rng)
    J, Jd = _jacobians(pmodel, q, batch)
    r = 0.4
    steps = [
        ("crba", [q2], lambda idx: [q2[idx]], None),
        ("impulseDynamics", [q, v, J], lambda idx: [q[idx], v[idx], J[idx]],
         lambda rd, pd, idx: _hidden(pmodel, rd, pd, idx, batch, J[idx], 0.0)),
        ("impulseDynamics", [v2, Jd, r, DAMPING], lambda idx: [v2[idx], Jd[idx], r, DAMPING],
         lambda rd, pd, idx: _hidden(pmodel, rd, pd, idx, batch, Jd[idx], DAMPING)),
        ("impulseDynamics", [q2, v, J, r, DAMPING], lambda idx: [q2[idx], v[idx], J[idx], r,
                                                                 DAMPING], None),
        ("computeKKTContactDynamicMatrixInverse", [q, J], lambda idx: [q[idx], J[idx]],
         lambda rd, pd, idx: _hidden(pmodel, rd, pd, idx, batch, J[idx], 0.0)),
        ("computeKKTContactDynamicMatrixInverse", [q2, Jd, DAMPING],
         lambda idx: [q2[idx], Jd[idx], DAMPING],
         lambda rd, pd, idx: _hidden(pmodel, rd, pd, idx, batch, Jd[idx], DAMPING)),
        ("getKKTContactDynamicMatrixInverse", [Jd], lambda idx: [Jd[idx]], None),
    ]
    _run(rmodel, pmodel, batch, steps)


def test_keywords_and_kkt_identity():
    """Pinocchio's keyword names bind; the KKT inverse inverts [[M, J^T], [J, -mu I]]; the
    results are owned copies (a later call leaves them alone)."""
    rng, rmodel, pmodel = _setup("humanoid", (), False)
    q, v, tau = random_states(pmodel, (), rng)
    J, Jd = _jacobians(pmodel, q, ())
    gamma = rng.normal(size=J.shape[0])
    data = rmodel.createData()
    ddq = pinref.forwardDynamics(rmodel, data, q=q, v=v, tau=tau, constraint_jacobian=J,
                                 constraint_drift=gamma, damping=0.0)
    kept = ddq.copy()
    assert not np.shares_memory(ddq, data.ddq)
    np.testing.assert_array_equal(pinref.forwardDynamics(rmodel, data, tau, J, gamma), ddq)
    dq = pinref.impulseDynamics(rmodel, data, q=q, v_before=v, constraint_jacobian=Jd,
                                restitution_coefficient=0.5, damping=DAMPING)
    assert not np.shares_memory(dq, data.dq_after)
    np.testing.assert_array_equal(ddq, kept)
    K = pinref.computeKKTContactDynamicMatrixInverse(rmodel, data, q, Jd, damping=DAMPING)
    nc = Jd.shape[0]
    M = pinref.crba(rmodel, rmodel.createData(), q)
    KKT = np.block([[M, Jd.T], [Jd, -DAMPING * np.eye(nc)]])
    assert_close(K @ KKT, np.eye(rmodel.nv + nc), 1e-10, "K KKT = I")


def _humanoid():
    rng, rmodel, pmodel = _setup("humanoid", (), False, "errors")
    q, v, tau = random_states(pmodel, (), rng)
    J, Jd = _jacobians(pmodel, q, ())
    return rmodel, q, v, tau, J, Jd


def test_getters_before_their_compute_functions_raise():
    rmodel, q, v, tau, J, _ = _humanoid()
    gamma = np.zeros(J.shape[0])
    data = rmodel.createData()
    with pytest.raises(NotComputedError, match="JMinvJt"):
        pinref.getKKTContactDynamicMatrixInverse(rmodel, data, J)
    with pytest.raises(NotComputedError, match="computeAllTerms"):
        pinref.forwardDynamics(rmodel, data, tau, J, gamma)
    with pytest.raises(NotComputedError, match="crba"):
        pinref.impulseDynamics(rmodel, data, v, J)
    pinref.crba(rmodel, data, q)
    with pytest.raises(NotComputedError, match="nle"):
        pinref.forwardDynamics(rmodel, data, tau, J, gamma)
    pinref.impulseDynamics(rmodel, data, v, J)
    with pytest.raises(ShapeError, match="same Jacobian"):
        pinref.getKKTContactDynamicMatrixInverse(rmodel, data, J[:2])


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda m, d, q, v, t, J: pinref.forwardDynamics(m, d, q, v, t, J, np.zeros(J.shape[0] + 1)),
     ShapeError, "constraint_drift"),
    (lambda m, d, q, v, t, J: pinref.forwardDynamics(m, d, q, v, t[:-1], J, np.zeros(J.shape[0])),
     ShapeError, "tau"),
    (lambda m, d, q, v, t, J: pinref.forwardDynamics(m, d, q, v, t, J[:, :-1], np.zeros(J.shape[0])),
     ShapeError, "constraint_jacobian"),
    (lambda m, d, q, v, t, J: pinref.forwardDynamics(m, d, q, v, t, J[0], np.zeros(1)),
     ShapeError, "reshape it to"),
    (lambda m, d, q, v, t, J: pinref.impulseDynamics(m, d, q, v, np.where(J == 0, np.nan, J)),
     NonFiniteError, "constraint_jacobian"),
    (lambda m, d, q, v, t, J: pinref.impulseDynamics(m, d, q, v, J, "0.5"),
     ArgumentTypeError, "restitution_coefficient"),
    (lambda m, d, q, v, t, J: pinref.impulseDynamics(m, d, q, v, J, 0.0, -1.0),
     ArgumentValueError, "damping"),
    (lambda m, d, q, v, t, J: pinref.computeKKTContactDynamicMatrixInverse(m, d, q, J, -1e-3),
     ArgumentValueError, "damping"),
    (lambda m, d, q, v, t, J: pinref.computeKKTContactDynamicMatrixInverse(m, d, 2 * q, J),
     NotNormalizedError, "normalize"),
    (lambda m, d, q, v, t, J: pinref.forwardDynamics(m, d, q, v, t, J),
     ArgumentTypeError, "constraint_drift"),
    (lambda m, d, q, v, t, J: pinref.forwardDynamics(m, d, q, v, t, J, np.zeros(J.shape[0]),
                                                     inv_damping=0.1),
     ArgumentTypeError, "inv_damping"),
    (lambda m, d, q, v, t, J: pinref.impulseDynamics(m, d, q, v, [object()], [object()]),
     UnsupportedError, "RigidConstraintModel"),
    (lambda m, d, q, v, t, J: pinref.forwardDynamics(m, d, q, v, t, np.vstack([J, J[:1]]),
                                                     np.zeros(J.shape[0] + 1)),
     NotPositiveDefiniteError, "damping > 0"),
    (lambda m, d, q, v, t, J: pinref.forwardDynamics(m, d, q, v, t, J[None].repeat(2, 0),
                                                     np.zeros((3, J.shape[0]))),
     ShapeError, "broadcast"),
])
def test_bad_input_raises_typed_errors(call, error, match):
    rmodel, q, v, tau, J, _ = _humanoid()
    with pytest.raises(error, match=match):
        call(rmodel, rmodel.createData(), q, v, tau, J)


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_no_contact_rows_match_pin(model_name):
    """nc = 0: forwardDynamics is the free dynamics and impulseDynamics returns v_before, as in
    pin; the KKT inverse is M^-1."""
    rng, rmodel, pmodel = _setup(model_name, (), True, "nc0")
    q, v, tau = random_states(pmodel, (), rng)
    J0, g0 = np.zeros((0, rmodel.nv)), np.zeros(0)
    rdata, pdata = rmodel.createData(), pmodel.createData()
    assert_close(pinref.forwardDynamics(rmodel, rdata, q, v, tau, J0, g0),
                 pin.forwardDynamics(pmodel, pdata, q, v, tau, J0, g0), what="ddq")
    assert rdata.lambda_c.shape == (0,)
    assert_close(pinref.getKKTContactDynamicMatrixInverse(rmodel, rdata, J0),
                 pin.getKKTContactDynamicMatrixInverse(pmodel, pdata, J0), what="KKT inverse")
    assert_close(pinref.impulseDynamics(rmodel, rdata, q, v, J0),
                 pin.impulseDynamics(pmodel, pdata, q, v, J0), what="dq_after")
