"""computeABADerivatives.

Oracles, in order: identities with other algorithms (ddq == aba, Minv == (M + armature)^-1,
ddq_dx == -Minv dtau_dx with the RNEA partials at (q, v, ddq)); central finite differences of
aba along the tangent space swept over eps = 1e-3 .. 1e-8; Pinocchio 3.8.0, result and exposed
caches, per state at ``1e-11 * max(1, max|ref|)``, with armature and fext, at batch shapes (),
(5,), (2, 3). The finite-difference checks leave out the columns of joints whose motion subspace
depends on q, where Pinocchio's derivatives are not aba's (test_rnea_derivatives.py).
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close
from models import (
    MODEL_NAMES,
    assert_caches_match_pin,
    assert_matrices_match_pin,
    assert_results_are_owned_copies,
    cache_getter,
)
from test_rnea_derivatives import (
    BATCHES,
    TOL,
    _pin_fext,
    _setup,
    configuration_dependent_columns,
    constant_subspace_columns,
)

import pinref
from pinref.checking.finite_differences import eps_sweep


def _aba_caches(model, data, lib, idx, batch):
    """The caches the ABA derivatives write and pin exposes, for state ``idx``."""
    get = cache_getter(lib, idx, batch)
    nv = model.nv
    out = {name: get(getattr(data, name), (6, nv))
           for name in ("J", "dJ", "dAdq", "dAdv", "dFda", "dFdq", "dFdv")}
    out["ddq"] = get(data.ddq, (nv,))
    for name in ("dtau_dq", "dtau_dv", "Minv", "ddq_dq", "ddq_dv", "ddq_dtau"):
        out[name] = get(getattr(data, name), (nv, nv))
    for i in range(model.njoints):
        out[f"Fcrb[{i}]"] = get(data.Fcrb[i], (6, nv))
    for i in range(1, model.njoints):
        out[f"liMi[{i}]"] = get(data.liMi[i].homogeneous, (4, 4))
        out[f"oMi[{i}]"] = get(data.oMi[i].homogeneous, (4, 4))
        for name in ("ov", "oa", "oa_gf", "oh", "of"):
            out[f"{name}[{i}]"] = get(getattr(data, name)[i].vector, (6,))
        out[f"oYaba[{i}]"] = get(data.oYaba[i], (6, 6))
        out[f"oYcrb[{i}]"] = get(data.oYcrb[i].matrix(), (6, 6))
        nvi = model.nvs[i]
        for name, tail in (("U", (6, nvi)), ("UDinv", (6, nvi)), ("Dinv", (nvi, nvi))):
            value = getattr(data.joints[i], name)
            out[f"joints[{i}].{name}"] = (np.reshape(value, tail) if lib == "pin"
                                          else get(value, tail))
    return out


@pytest.mark.parametrize("with_fext", [False, True], ids=["no_fext", "fext"])
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_aba_derivatives_match_pin(model_name, batch, with_fext):
    rmodel, pmodel, q, v, tau, fext = _setup(model_name, batch, "aba")
    tau = 10 * tau
    rdata = pinref.Data(rmodel)
    got = pinref.computeABADerivatives(rmodel, rdata, q, v, tau, fext if with_fext else None)
    for idx in np.ndindex(*batch):
        pdata = pmodel.createData()
        args = (q[idx], v[idx], tau[idx]) + ((_pin_fext(fext[idx]),) if with_fext else ())
        ref = [r.copy() for r in pin.computeABADerivatives(pmodel, pdata, *args)]
        assert_matrices_match_pin(("ddq_dq", "ddq_dv", "ddq_dtau"), got, ref, rmodel.nv, idx,
                                  batch, TOL)
        assert_caches_match_pin(_aba_caches, rmodel, rdata, pmodel, pdata, idx, batch, TOL)


def test_results_are_owned_copies_and_ddq_dtau_is_never_written():
    rmodel, pmodel, q, v, tau, _ = _setup("tutorial", (2,), "views")
    rdata, pdata = pinref.Data(rmodel), pmodel.createData()
    assert_results_are_owned_copies(
        lambda *x: pinref.computeABADerivatives(rmodel, rdata, *x),
        rdata, ("ddq_dq", "ddq_dv", "Minv"), (q[0], v[0], tau[0]), (q[1], v[1], tau[1]))
    ref = pin.computeABADerivatives(pmodel, pdata, q[0], v[0], tau[0])
    caches = (pdata.ddq_dq, pdata.ddq_dv, pdata.Minv)
    assert all(np.shares_memory(x, c) for x, c in zip(ref, caches))
    # Pinocchio keeps d ddq / d tau in data.Minv; data.ddq_dtau stays zero
    np.testing.assert_array_equal(rdata.ddq_dtau, 0.0)
    np.testing.assert_array_equal(pdata.ddq_dtau, 0.0)


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_identities_with_aba_crba_and_rnea_derivatives(model_name):
    rmodel, _, q, v, tau, fext = _setup(model_name, (3,), "aba identities")
    rdata = pinref.Data(rmodel)
    ddq_dq, ddq_dv, Minv = pinref.computeABADerivatives(rmodel, rdata, q, v, tau, fext)
    ddq = pinref.aba(rmodel, pinref.Data(rmodel), q, v, tau, fext)
    M = pinref.crba(rmodel, pinref.Data(rmodel), q)
    dtau_dq, dtau_dv, _ = pinref.computeRNEADerivatives(rmodel, pinref.Data(rmodel), q, v, ddq,
                                                       fext)
    eye = np.eye(rmodel.nv)
    for idx in np.ndindex(3):
        assert_close(rdata.ddq[idx], ddq[idx], TOL, "data.ddq == aba")
        assert_close(Minv[idx] @ M[idx], eye, 1e-10, "Minv (M + armature) == I")
        assert_close(rdata.dtau_dq[idx], dtau_dq[idx], TOL, "data.dtau_dq == RNEA partial")
        assert_close(rdata.dtau_dv[idx], dtau_dv[idx], TOL, "data.dtau_dv == RNEA partial")
        assert_close(ddq_dq[idx], -Minv[idx] @ dtau_dq[idx], TOL, "ddq_dq == -Minv dtau_dq")
        assert_close(ddq_dv[idx], -Minv[idx] @ dtau_dv[idx], TOL, "ddq_dv == -Minv dtau_dv")


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_aba_derivatives_against_finite_differences(model_name):
    """ddq in q: a valley; ddq is quadratic in v and linear in tau: rounding error only."""
    rmodel, _, q, v, tau, fext = _setup(model_name, (), "aba fd")
    analytic = pinref.computeABADerivatives(rmodel, pinref.Data(rmodel), q, v, tau, fext)

    def ddq(q, v, tau):
        return pinref.aba(rmodel, pinref.Data(rmodel), q, v, tau, fext)

    cols = constant_subspace_columns(rmodel)
    for wrt, A in zip("qva", analytic):
        sweep = eps_sweep(rmodel, ddq, q, v, tau, A, wrt=wrt, label="ddq", columns=cols)
        assert sweep.best.relative_error < 1e-6, str(sweep)
        assert sweep.shape == ("valley" if wrt == "q" else "rounding"), str(sweep)


def test_aba_derivatives_inherit_the_configuration_dependent_subspace_gap():
    rmodel, _, q, v, tau, fext = _setup("tree1", (), "aba fd")
    analytic = pinref.computeABADerivatives(rmodel, pinref.Data(rmodel), q, v, tau, fext)

    def ddq(q, v, tau):
        return pinref.aba(rmodel, pinref.Data(rmodel), q, v, tau, fext)

    bad = configuration_dependent_columns(rmodel)
    for wrt, A in zip("qv", analytic):
        sweep = eps_sweep(rmodel, ddq, q, v, tau, A, wrt=wrt, label="ddq", columns=bad)
        assert sweep.shape == "flat", str(sweep)


@pytest.mark.parametrize("model_name", ["humanoid", "tree1"])
def test_a_state_gives_the_same_bits_alone_or_in_a_batch(model_name):
    rmodel, _, q, v, tau, fext = _setup(model_name, (2, 3), "aba bits")
    batched = pinref.computeABADerivatives(rmodel, pinref.Data(rmodel), q, v, tau, fext)
    for idx in np.ndindex(2, 3):
        alone = pinref.computeABADerivatives(rmodel, pinref.Data(rmodel), q[idx], v[idx],
                                             tau[idx], fext[idx])
        for x, y in zip(batched, alone):
            np.testing.assert_array_equal(x[idx], y)


@pytest.mark.parametrize("model_name", ["manipulator", "tree0"])
def test_call_sequence_on_one_data_matches_pin(model_name):
    """Derivative calls mixed with crba and aba on one Data: M, Minv, Fcrb and the partials
    hold what Pinocchio's hold after each call (the caches are rewritten in place)."""
    rmodel, pmodel, q, v, tau, fext = _setup(model_name, (2,), "sequence")
    rdata, pdata = pinref.Data(rmodel), pmodel.createData()
    steps = [("computeABADerivatives", 0, True), ("crba", 1, False),
             ("computeRNEADerivatives", 1, True), ("aba", 0, True),
             ("computeABADerivatives", 1, True), ("computeRNEADerivatives", 0, False)]
    nv = rmodel.nv
    for name, k, with_fext in steps:
        args = (q[k],) if name == "crba" else (q[k], v[k], tau[k])
        extra_r = (fext[k],) if with_fext and name != "crba" else ()
        extra_p = (_pin_fext(fext[k]),) if extra_r else ()
        getattr(pinref, name)(rmodel, rdata, *args, *extra_r)
        getattr(pin, name)(pmodel, pdata, *args, *extra_p)
        for cache in ("M", "Minv", "dtau_dq", "dtau_dv", "ddq_dq", "ddq_dv"):
            assert_close(getattr(rdata, cache), getattr(pdata, cache), TOL, f"{name}: {cache}")
        for i in range(rmodel.njoints):
            assert_close(np.broadcast_to(rdata.Fcrb[i], (6, nv)), pdata.Fcrb[i], TOL,
                         f"{name}: Fcrb[{i}]")
