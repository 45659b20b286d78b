"""aba and crba with ``convention=Convention.WORLD`` (aba_world.py, crba_world.py) against
Pinocchio 3.8.0, cache by cache, after every call of call sequences run on one Data.

After each call every WORLD cache both expose (oMi, liMi, ov, oa, oa_gf, oh, of, oYcrb, oYaba,
J, Ag, mass[0], com[0], M, ddq and the joints' M, S, v, c, U, UDinv, Dinv) and every LOCAL
cache (tests/models.py ``caches``: what the WORLD passes must leave alone) are compared per
state at ``1e-12 * max(1, max|ref|)``; u, StU and oinertias, which pin does not expose, through
the equations pin's caches satisfy. A singular joint block and a tree whose subtrees are not
contiguous: tests/algorithms/test_algorithm_errors.py, in both conventions.
"""

import numpy as np
import pinocchio as pin
import pytest
from call_sequences import CASES
from conftest import assert_close
from models import (build, cache_getter, compare_caches, compare_data, random_fext,
                    sequence_setup)

import pinref
from pinref import errors

WORLD = pinref.Convention.WORLD

# Call sequences: (function, arguments taken from the state, convention)
SEQUENCES = {
    "aba_fext_twice": [("aba", "qvtf", "WORLD"), ("aba", "qvtf", "WORLD")],
    "aba_then_fext": [("aba", "qvt", "WORLD"), ("aba", "qvtf", "WORLD")],
    "local_then_world": [("aba", "qvtf", "LOCAL"), ("crba", "q", "LOCAL"),
                         ("aba", "qvt", "WORLD"), ("crba", "q", "WORLD")],
    "crba_then_aba": [("crba", "q", "WORLD"), ("aba", "qvtf", "WORLD"), ("crba", "q", "WORLD")],
}


def world_caches(model, data, lib, idx, batch):
    """The caches of the WORLD passes that pin exposes, for state ``idx`` (pin's reshaped:
    eigenpy hands a one-column J back as a vector)."""
    state = cache_getter(lib, idx, batch)

    def get(x, tail):
        return np.reshape(state(x, tail), tail)

    nv = model.nv
    out = {"J": get(data.J, (6, nv)), "Ag": get(data.Ag, (6, nv)), "M": get(data.M, (nv, nv)),
           "ddq": get(data.ddq, (nv,)), "mass[0]": get(data.mass[0], ()),
           "com[0]": get(data.com[0], (3,))}
    for i in range(model.njoints):
        out[f"oMi[{i}]"] = get(data.oMi[i].homogeneous, (4, 4))
        out[f"oYcrb[{i}]"] = get(data.oYcrb[i].matrix(), (6, 6))
        out[f"oYaba[{i}]"] = get(data.oYaba[i], (6, 6))
        for name in ("ov", "oa", "oa_gf", "oh", "of"):
            out[f"{name}[{i}]"] = get(getattr(data, name)[i].vector, (6,))
    for i in range(1, model.njoints):
        jd, nvi = data.joints[i], model.nvs[i]
        for name, tail in (("U", (6, nvi)), ("UDinv", (6, nvi)), ("Dinv", (nvi, nvi))):
            out[f"joints[{i}].{name}"] = get(getattr(jd, name), tail)
    return out


def check_world_hidden_caches(rmodel, rdata, pdata, idx, batch):
    """u, StU and oinertias, which pin does not expose, after aba(WORLD): pass 3 computed
    ddq_i = Dinv_i u_i - UDinv_i^T oa_pre_i (oa_pre_i = oa_gf_i - J_i ddq_i), so pinref's u
    must give pin's ddq with pin's Dinv, UDinv and oa_pre; StU_i = J_i^T U_i + armature_i;
    oinertias_i = oMi Y_i with pin's oMi."""
    u = np.broadcast_to(rdata.u, batch + (rmodel.nv,))[idx]
    J = np.asarray(pdata.J).reshape(6, rmodel.nv)
    for i in range(1, rmodel.njoints):
        jd, nv, iv = pdata.joints[i], rmodel.nvs[i], rmodel.joints[i].v_slice
        U = np.reshape(jd.U, (6, nv))
        UDinv, Dinv = np.reshape(jd.UDinv, (6, nv)), np.reshape(jd.Dinv, (nv, nv))
        ddq = pdata.ddq[iv]
        oa_pre = pdata.oa_gf[i].vector - J[:, iv] @ ddq
        assert_close(Dinv @ u[iv] - UDinv.T @ oa_pre, ddq, what=f"u of joint {i}")
        StU = np.broadcast_to(rdata.joints[i].StU, batch + (nv, nv))[idx]
        assert_close(StU, J[:, iv].T @ U + np.diag(rmodel.armature[iv]), what=f"StU of joint {i}")
        ref = pdata.oMi[i].act(pin.Inertia(*_inertia_args(rmodel.inertias[i]))).matrix()
        got = np.broadcast_to(rdata.oinertias[i].matrix(), batch + (6, 6))[idx]
        assert_close(got, ref, what=f"oinertias[{i}]")


def _inertia_args(inertia):
    return float(inertia.mass), np.array(inertia.lever), np.array(inertia.inertia)


def run_sequence(steps, model_name, sequence, batch, armature):
    """Run ``steps`` in pinref (the whole batch at once) and pin (state by state, one Data
    each), comparing results and every cache after each call."""
    rng, rmodel, pmodel, q, v, _ = sequence_setup(model_name, sequence, batch, armature)
    tau = rng.normal(size=batch + (rmodel.nv,)) * 10
    fext = random_fext(rmodel.njoints, batch, rng)
    rdata = pinref.Data(rmodel)
    states = list(np.ndindex(*batch))
    pdatas = [pmodel.createData() for _ in states]
    for name, keys, convention in steps:
        conv = getattr(pinref.Convention, convention)
        args = [{"q": q, "v": v, "t": tau, "f": fext}[k] for k in keys]
        got = getattr(pinref, name)(rmodel, rdata, *args, convention=conv)
        for k, idx in enumerate(states):
            pargs = [{"q": q, "v": v, "t": tau}[key][idx] for key in keys if key != "f"]
            if "f" in keys:
                pargs.append([pin.Force(np.array(f)) for f in fext[idx]])
            ref = getattr(pin, name)(pmodel, pdatas[k], *pargs,
                                     getattr(pin.Convention, convention))
            assert got.shape == batch + np.shape(ref)
            assert_close(got[idx], ref, what=f"{name} result at state {idx}")
        when = f"after {name}({keys}, {convention})"
        compare_caches(world_caches, rmodel, rdata, pdatas, pmodel, batch, when)
        compare_data(rmodel, rdata, pdatas, pmodel, batch, when)
        if name == "aba" and convention == "WORLD":
            for k, idx in enumerate(states):
                check_world_hidden_caches(rmodel, rdata, pdatas[k], idx, batch)
    return rdata


@pytest.mark.parametrize("armature", [False, True], ids=["no_armature", "armature"])
@pytest.mark.parametrize("sequence", list(SEQUENCES))
@pytest.mark.parametrize(("model_name", "batch"), [c for c in CASES if c[1] != (1,)], ids=str)
def test_call_sequence_matches_pin(model_name, sequence, batch, armature):
    run_sequence(SEQUENCES[sequence], model_name, sequence, batch, armature)


def test_quirks_of_the_fext_overload_and_the_local_caches():
    """With fext, of[0] keeps its value and of[i] is body i's own wrench (no last loop);
    without, of[0] = 0 then collects every body's; the LOCAL v, a, f, Yaba stay as they were
    (docs/quirks.md). Checked against pin by run_sequence too; here what they hold."""
    model, _ = build("tutorial")
    data = model.createData()
    rng = np.random.default_rng(3)
    q = pinref.randomConfiguration(model, -np.ones(model.nq), np.ones(model.nq))
    v, tau = rng.normal(size=model.nv), rng.normal(size=model.nv)
    data.of[0] = pinref.Force(np.ones(6))
    pinref.aba(model, data, q, v, tau, rng.normal(size=(model.njoints, 6)), convention=WORLD)
    np.testing.assert_array_equal(data.of[0].vector, np.ones(6))
    body = [data.oinertias[i].matrix() @ data.oa_gf[i].vector
            + pinref.Motion(data.ov[i].vector).cross(pinref.Force(data.oh[i].vector)).vector
            for i in range(model.njoints)]
    assert_close(data.of[3].vector, body[3])
    pinref.aba(model, data, q, v, tau, convention=WORLD)
    assert_close(data.of[0].vector, sum(data.of[i].vector for i in model.children[0]))
    for name in ("v", "a", "f"):
        assert not getattr(data, name).vector.any()
    assert not data.Yaba.matrix.any()


def test_positional_convention_and_results_are_owned_copies():
    """pin.aba(model, data, q, v, tau, convention) puts the convention sixth; ddq and M come
    back as copies, M symmetric."""
    model, _ = build("humanoid")
    data = model.createData()
    q = pinref.randomConfiguration(model, -np.ones(model.nq), np.ones(model.nq))
    v = tau = np.ones(model.nv)
    ddq = pinref.aba(model, data, q, v, tau, WORLD)
    assert "oYaba" in data.written and not data.Yaba.matrix.any()
    assert ddq.flags.owndata and not np.shares_memory(ddq, data.ddq)
    assert_close(ddq, pinref.aba(model, model.createData(), q, v, tau))
    M = pinref.crba(model, data, q, convention=WORLD)
    assert M.flags.owndata and not np.shares_memory(M, data.M)
    np.testing.assert_array_equal(M, M.T)
    assert_close(M, pinref.crba(model, model.createData(), q))


# --- bad input ---------------------------------------------------------------------------------

MODEL = pinref.buildTutorialModel()


def _state():
    q = pinref.neutral(MODEL)
    return q, np.zeros(MODEL.nv), np.zeros(MODEL.nv)


def test_wrong_sizes_and_types_name_the_argument():
    q, v, tau = _state()
    with pytest.raises(errors.ShapeError, match="tau"):
        pinref.aba(MODEL, MODEL.createData(), q, v, tau[:-1], convention=WORLD)
    with pytest.raises(errors.ShapeError, match="q"):
        pinref.crba(MODEL, MODEL.createData(), q[:-1], convention=WORLD)
    with pytest.raises(errors.ShapeError, match="fext"):
        pinref.aba(MODEL, MODEL.createData(), q, v, tau, np.zeros((MODEL.njoints, 5)),
                   convention=WORLD)
    with pytest.raises(errors.ModelError, match="convention must be"):
        pinref.crba(MODEL, MODEL.createData(), q, convention="WORLD")
    with pytest.raises(errors.ArgumentTypeError, match="data"):
        pinref.aba(MODEL, None, q, v, tau, convention=WORLD)
    other = pinref.buildSampleModelManipulator()
    with pytest.raises(errors.DataModelMismatchError):
        pinref.crba(MODEL, other.createData(), q, convention=WORLD)


def test_unnormalized_quaternion_names_the_joint():
    q, v, tau = _state()
    q[3:7] = [0.1, 0.2, 0.3, 2.0]
    with pytest.raises(errors.NotNormalizedError, match="'root_joint'"):
        pinref.aba(MODEL, MODEL.createData(), q, v, tau, convention=WORLD)
    with pytest.raises(errors.NotNormalizedError, match="'root_joint'"):
        pinref.crba(MODEL, MODEL.createData(), q, convention=WORLD)
