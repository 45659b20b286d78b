"""The sparse Cholesky factorisation M = U D U^T (pinref/algorithms/cholesky.py, pinref.cholesky).

Oracles: Pinocchio 3.8.0's ``pin.cholesky`` (decompose, solve, computeMinv) after pin's crba on
one Data per state: the results and data.U, data.D, data.Minv, per state at
``1e-12 * max(1, max|ref|)``, with armature, at batch shapes (), (5,), (2, 3); Dinv (hidden in
pin) against 1 / pin's D; the sweeps pin's Python does not expose (Uv, Utv, Uiv, Utiv, UDUtv,
Mv) against the matrix products with pin's U, D and M.
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close
from models import MODEL_NAMES, build, random_states
from test_rnea_derivatives import _seed

import pinref
from pinref.algorithms import cholesky
from pinref.errors import NotComputedError, NotPositiveDefiniteError, ShapeError

BATCHES = [(), (5,), (2, 3)]


def _setup(model_name, batch, armature):
    rng = np.random.default_rng(_seed(model_name, batch, armature, "cholesky"))
    rmodel, pmodel = build(model_name)
    if armature:
        rmodel.armature = rng.uniform(0.1, 1.0, rmodel.nv)
        pmodel.armature = rmodel.armature.copy()
    q, v, _ = random_states(pmodel, batch, rng)
    return rng, rmodel, pmodel, q, v


@pytest.mark.parametrize("armature", [False, True], ids=["no_armature", "armature"])
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_decompose_solve_and_minv_match_pin(model_name, batch, armature):
    _, rmodel, pmodel, q, v = _setup(model_name, batch, armature)
    rdata = rmodel.createData()
    pinref.crba(rmodel, rdata, q)
    U = pinref.cholesky.decompose(rmodel, rdata)
    x = pinref.cholesky.solve(rmodel, rdata, v)
    Minv = pinref.cholesky.computeMinv(rmodel, rdata)
    nv = rmodel.nv
    assert U.shape == Minv.shape == batch + (nv, nv) and x.shape == batch + (nv,)
    assert not np.shares_memory(U, rdata.U) and not np.shares_memory(Minv, rdata.Minv)
    for idx in np.ndindex(*batch):
        pdata = pmodel.createData()
        pin.crba(pmodel, pdata, q[idx])
        assert_close(U[idx], pin.cholesky.decompose(pmodel, pdata), what=f"U at {idx}")
        assert_close(rdata.U[idx], pdata.U, what=f"data.U at {idx}")
        assert_close(rdata.D[idx], pdata.D, what=f"data.D at {idx}")
        assert_close(rdata.Dinv[idx], 1.0 / pdata.D, what=f"data.Dinv at {idx}")
        assert_close(x[idx], pin.cholesky.solve(pmodel, pdata, v[idx]), what=f"solve at {idx}")
        ref = pin.cholesky.computeMinv(pmodel, pdata)
        assert_close(Minv[idx], ref, what=f"computeMinv at {idx}")
        assert_close(rdata.Minv[idx], pdata.Minv, what=f"data.Minv at {idx}")
        assert_close(rdata.M[idx], pdata.M, what=f"data.M at {idx}")


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_sweeps_are_the_products_with_pin_factors(model_name):
    """Uv = U x, Utv = U^T x, Uiv = U^-1 x, Utiv = U^-T x, UDUtv = M x, Mv = M x from M's upper
    triangle, solve_in_place = M^-1 x, on several columns at once."""
    rng, rmodel, pmodel, q, _ = _setup(model_name, (), False)
    rdata, pdata = rmodel.createData(), pmodel.createData()
    pinref.crba(rmodel, rdata, q)
    pinref.cholesky.decompose(rmodel, rdata)
    M = pin.crba(pmodel, pdata, q)
    pin.cholesky.decompose(pmodel, pdata)
    U, D = pdata.U, pdata.D
    R = cholesky.rows(rmodel, rdata)
    X = rng.normal(size=(rmodel.nv, 3))
    upper = np.triu(M)
    for name, got, ref in [
        ("Uv", cholesky.Uv(R, rdata.U, X.copy()), U @ X),
        ("Utv", cholesky.Utv(R, rdata.U, X.copy()), U.T @ X),
        ("Uiv", cholesky.Uiv(R, rdata.U, X.copy()), np.linalg.solve(U, X)),
        ("Utiv", cholesky.Utiv(R, rdata.U, X.copy()), np.linalg.solve(U.T, X)),
        ("UDUtv", cholesky.UDUtv(R, rdata.U, rdata.D, X.copy()), M @ X),
        ("Mv", cholesky.Mv(R, upper, X), M @ X),
        ("solve", cholesky.solve_in_place(R, rdata.U, rdata.Dinv, X.copy()),
         np.linalg.solve(M, X)),
    ]:
        assert_close(got, ref, what=name)
    assert_close(U @ np.diag(D) @ U.T, M, what="U D U^T")


def test_factors_before_their_compute_functions_raise():
    _, rmodel, _, q, v = _setup("humanoid", (), False)
    data = rmodel.createData()
    with pytest.raises(NotComputedError, match="crba"):
        pinref.cholesky.decompose(rmodel, data)
    with pytest.raises(NotComputedError, match="decompose"):
        pinref.cholesky.solve(rmodel, data, v)
    with pytest.raises(NotComputedError, match="decompose"):
        pinref.cholesky.computeMinv(rmodel, data)
    pinref.crba(rmodel, data, q)
    pinref.cholesky.decompose(rmodel, data)
    with pytest.raises(ShapeError, match="v"):
        pinref.cholesky.solve(rmodel, data, v[:-1])
    data.M = -data.M
    with pytest.raises(NotPositiveDefiniteError, match="not positive definite"):
        pinref.cholesky.decompose(rmodel, data)
