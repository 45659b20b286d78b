"""computeAllTerms (algorithm/compute-all-terms.hxx, 3.8.0, and its Python binding).

Oracles: Pinocchio 3.8.0, every cache computeAllTerms writes and pin exposes, per state at
``1e-12 * max(1, |ref|)``, at batch shapes (), (5,), (2, 3), with armature, after a call
history that leaves numbers in the caches (rnea at another state, M filled, then
computeAllTerms twice: f[0] adds to what it held, M is zeroed by the binding); identities with
pin's own algorithms (crba, nonLinearEffects, computeGeneralizedGravity, hg = Ag v); typed
errors for bad input.
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close
from models import (
    COMPOSITE_MODEL_NAMES,
    MODEL_NAMES,
    assert_caches_match_pin,
    cache_getter,
    random_states,
    sequence_setup,
)
from test_coriolis import check_state_errors

import pinref
from pinref import errors

BATCHES = [(), (5,), (2, 3)]


def _setup(model_name, batch, key):
    """Models with the same random armature, and three random states for ``batch``."""
    rng, rmodel, pmodel, q, v, a = sequence_setup(model_name, key, batch, True)
    return rmodel, pmodel, [(q, v, a)] + [random_states(pmodel, batch, rng) for _ in range(2)]


def _cat_caches(model, data, lib, idx, batch):
    """The caches computeAllTerms writes and pin exposes, for state ``idx``."""
    get = cache_getter(lib, idx, batch)
    nv = model.nv
    out = {name: get(getattr(data, name), (6, nv)) for name in ("J", "dJ", "Ag", "dAg")}
    out["Jcom"] = get(data.Jcom, (3, nv))
    out["M"] = get(data.M, (nv, nv))
    for name in ("nle", "g"):
        out[name] = get(getattr(data, name), (nv,))
    for name in ("kinetic_energy", "potential_energy", "mechanical_energy"):
        out[name] = get(getattr(data, name), ())
    for name in ("hg", "dhg"):
        out[name] = get(getattr(data, name).vector, (6,))
    out["Ig"] = get(data.Ig.matrix(), (6, 6))
    for i in range(model.njoints):
        out[f"liMi[{i}]"] = get(data.liMi[i].homogeneous, (4, 4))
        out[f"oMi[{i}]"] = get(data.oMi[i].homogeneous, (4, 4))
        for name in ("v", "ov", "a", "a_gf", "h", "f"):
            out[f"{name}[{i}]"] = get(getattr(data, name)[i].vector, (6,))
        out[f"oYcrb[{i}]"] = get(data.oYcrb[i].matrix(), (6, 6))
        out[f"mass[{i}]"] = get(data.mass[i], ())
        out[f"com[{i}]"] = get(data.com[i], (3,))
        out[f"vcom[{i}]"] = get(data.vcom[i], (3,))
    return out


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_compute_all_terms_matches_pin_after_a_call_history(model_name, batch):
    rmodel, pmodel, states = _setup(model_name, batch, "history")
    (q0, v0, a0), (q1, v1, _), (q2, v2, _) = states
    rdata = pinref.Data(rmodel)
    pinref.rnea(rmodel, rdata, q0, v0, a0)
    rdata.M = np.full((rmodel.nv, rmodel.nv), 7.0)
    pdatas = []
    for idx in np.ndindex(*batch):
        pdata = pmodel.createData()
        pin.rnea(pmodel, pdata, q0[idx], v0[idx], a0[idx])
        pdata.M[:] = 7.0
        pdatas.append(pdata)
    for q, v in ((q1, v1), (q2, v2)):
        assert pinref.computeAllTerms(rmodel, rdata, q, v) is None
        for idx, pdata in zip(np.ndindex(*batch), pdatas):
            pin.computeAllTerms(pmodel, pdata, q[idx], v[idx])
            assert_caches_match_pin(_cat_caches, rmodel, rdata, pmodel, pdata, idx, batch, 1e-12)


@pytest.mark.parametrize("model_name", COMPOSITE_MODEL_NAMES)
def test_compute_all_terms_matches_pin_on_composite_joints(model_name):
    test_compute_all_terms_matches_pin_after_a_call_history(model_name, (2,))


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_compute_all_terms_agrees_with_pins_other_algorithms(model_name):
    rmodel, pmodel, states = _setup(model_name, (3,), "identities")
    q, v, _ = states[0]
    rdata = pinref.Data(rmodel)
    pinref.computeAllTerms(rmodel, rdata, q, v)
    for idx in np.ndindex(3):
        pdata = pmodel.createData()
        assert_close(rdata.M[idx], pin.crba(pmodel, pdata, q[idx]), what="M == crba")
        assert_close(rdata.nle[idx], pin.nonLinearEffects(pmodel, pdata, q[idx], v[idx]),
                     what="nle == nonLinearEffects")
        assert_close(rdata.g[idx], pin.computeGeneralizedGravity(pmodel, pdata, q[idx]),
                     what="g == computeGeneralizedGravity")
        assert_close(rdata.Jcom[idx], pin.jacobianCenterOfMass(pmodel, pdata, q[idx]),
                     what="Jcom == jacobianCenterOfMass")
        hg = pin.computeCentroidalMomentum(pmodel, pdata, q[idx], v[idx]).vector
        assert_close(rdata.hg.vector[idx], hg, what="hg == computeCentroidalMomentum")
        assert_close(rdata.Ag[idx] @ v[idx], hg, tol=1e-11, what="Ag v == hg")


def test_f0_adds_up_over_calls():
    """The driver does not reset f[0]: a second call on the same state doubles it."""
    model = pinref.buildSampleModelHumanoid()
    data = pinref.Data(model)
    rng = np.random.default_rng(3)
    q = pinref.randomConfiguration(model, -np.ones(model.nq), np.ones(model.nq))
    v = rng.normal(size=model.nv)
    pinref.computeAllTerms(model, data, q, v)
    once = data.f[0].vector.copy()
    pinref.computeAllTerms(model, data, q, v)
    assert_close(data.f[0].vector, 2 * once, what="f[0] after two calls")
    assert np.any(once)


def test_bad_input_raises_typed_errors():
    check_state_errors(pinref.computeAllTerms)
    model = pinref.buildTutorialModel()
    q = pinref.neutral(model)
    with pytest.raises(errors.ShapeError, match="do not broadcast"):
        pinref.computeAllTerms(model, pinref.Data(model), np.stack([q, q]),
                               np.zeros((3, model.nv)))
