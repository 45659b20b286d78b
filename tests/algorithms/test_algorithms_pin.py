"""RNEA, CRBA, ABA, nonLinearEffects, gravity, static torque and forward kinematics against
Pinocchio 3.8.0, cache by cache, after every call of a call sequence run on one Data.

Each state of a batch gets its own pin Data running the same sequence; pinref runs the sequence
once on the whole batch. After every call, every cache of both Data objects is compared per
state at ``1e-12 * max(1, max|ref|)``: the ones the call writes, and the ones it must leave
alone (which is how the call-history quirks of docs/quirks.md are checked).
"""

import zlib

import numpy as np
import pinocchio as pin
import pytest

import pinref
from conftest import assert_close
from models import MODEL_NAMES, build, random_fext, random_states

BATCHES = [(), (1,), (5,), (2, 3)]

# Call sequences: each step is (function name, arguments it takes from the state).
SEQUENCES = {
    "rnea": [("rnea", "qva")],
    "rnea_fext": [("rnea", "qvaf")],
    "crba": [("crba", "q")],
    "aba": [("aba", "qvt")],
    "aba_fext_twice": [("aba", "qvtf"), ("aba", "qvtf")],
    "fk_then_aba": [("forwardKinematics", "qva"), ("aba", "qvt")],
    "aba_then_rnea_crba": [("aba", "qvt"), ("rnea", "qva"), ("crba", "q"), ("aba", "qvtf")],
    "nle_gravity_static": [("nonLinearEffects", "qv"), ("computeGeneralizedGravity", "q"),
                           ("computeStaticTorque", "qf")],
}


def _pin_fext(fext):
    return [pin.Force(np.array(f)) for f in fext]


def _args(step, state, lib):
    """The positional arguments of one call for pinocchio (lib='pin') or pinref."""
    q, v, a, tau, fext = state
    out = []
    for key in step:
        if key == "f":
            out.append(_pin_fext(fext) if lib == "pin" else fext)
        else:
            out.append({"q": q, "v": v, "a": a, "t": tau}[key])
    return out


def _caches(model, data, lib, idx, batch):
    """Every cache as a dict of arrays, for one state ``idx`` (pinref arrays are broadcast)."""
    def get(x, tail):
        x = np.asarray(x, dtype=float)
        return x if lib == "pin" else np.broadcast_to(x, batch + tail)[idx]

    out = {"tau": get(data.tau, (model.nv,)), "nle": get(data.nle, (model.nv,)),
           "g": get(data.g, (model.nv,)), "ddq": get(data.ddq, (model.nv,)),
           "M": get(data.M, (model.nv, model.nv))}
    for i in range(model.njoints):
        out[f"liMi[{i}]"] = get(data.liMi[i].homogeneous, (4, 4))
        out[f"oMi[{i}]"] = get(data.oMi[i].homogeneous, (4, 4))
        for name in ("v", "a", "a_gf", "h", "f"):
            out[f"{name}[{i}]"] = get(getattr(data, name)[i].vector, (6,))
        Y = data.Ycrb[i]
        out[f"Ycrb[{i}].mass"] = get(Y.mass, ())
        out[f"Ycrb[{i}].lever"] = get(Y.lever, (3,))
        out[f"Ycrb[{i}].inertia"] = get(Y.inertia, (3, 3))
        out[f"Fcrb[{i}]"] = get(data.Fcrb[i], (6, model.nv))
        out[f"Yaba[{i}]"] = get(data.Yaba[i], (6, 6))
    for i in range(1, model.njoints):
        jd, nv = data.joints[i], model.nvs[i]
        out[f"joints[{i}].M"] = get(jd.M.homogeneous, (4, 4))
        for name, tail in (("S", (6, nv)), ("U", (6, nv)), ("UDinv", (6, nv)),
                           ("Dinv", (nv, nv)), ("v", (6,)), ("c", (6,))):
            value = getattr(jd, name)
            if name in ("v", "c"):
                value = value.vector
            elif lib == "pin":
                value = np.reshape(value, tail)
            out[f"joints[{i}].{name}"] = get(value, tail)
    return out


def _compare(rmodel, rdata, pdatas, pmodel, batch, when):
    for k, idx in enumerate(np.ndindex(*batch)):
        ref = _caches(pmodel, pdatas[k], "pin", idx, batch)
        got = _caches(rmodel, rdata, "pinref", idx, batch)
        for key in ref:
            assert_close(got[key], ref[key], what=f"{when}: {key} at state {idx}")


def _check_hidden_caches(rmodel, rdata, pmodel, pdata, idx, batch):
    """u and StU, which pin does not expose, from the identities they satisfy in pin's caches:
    u_i = D_i (ddq_i + UDinv_i^T a_pre_i) with a_pre_i = a_gf_i - S_i ddq_i, and
    StU_i = S_i^T U_i + diag(armature_i)."""
    u = np.broadcast_to(rdata.u, batch + (rmodel.nv,))[idx]
    for i in range(1, rmodel.njoints):
        jd, nv, iv = pdata.joints[i], rmodel.nvs[i], rmodel.joints[i].v_slice
        S, U = np.reshape(jd.S, (6, nv)), np.reshape(jd.U, (6, nv))
        UDinv, Dinv = np.reshape(jd.UDinv, (6, nv)), np.reshape(jd.Dinv, (nv, nv))
        ddq = pdata.ddq[iv]
        a_pre = pdata.a_gf[i].vector - S @ ddq
        u_ref = np.linalg.solve(Dinv, ddq + UDinv.T @ a_pre)
        assert_close(u[iv], u_ref, tol=1e-11, what=f"u of joint {i}")
        StU = np.broadcast_to(rdata.joints[i].StU, batch + (nv, nv))[idx]
        assert_close(StU, S.T @ U + np.diag(pmodel.armature[iv]), what=f"StU of joint {i}")


@pytest.mark.parametrize("armature", [False, True], ids=["no_armature", "armature"])
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("sequence", list(SEQUENCES))
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_call_sequence_matches_pin(model_name, sequence, batch, armature):
    rng = np.random.default_rng(zlib.crc32(repr((model_name, sequence, batch, armature)).encode()))
    rmodel, pmodel = build(model_name)
    if armature:
        rmodel.armature = rng.uniform(0.1, 1.0, rmodel.nv)
        pmodel.armature = rmodel.armature.copy()
    q, v, a = random_states(pmodel, batch, rng)
    tau = rng.normal(size=batch + (rmodel.nv,)) * 10
    fext = random_fext(rmodel.njoints, batch, rng)
    rdata = pinref.Data(rmodel)
    states = list(np.ndindex(*batch))
    pdatas = [pmodel.createData() for _ in states]
    _compare(rmodel, rdata, pdatas, pmodel, batch, "fresh Data")
    for name, keys in SEQUENCES[sequence]:
        got = getattr(pinref, name)(rmodel, rdata, *_args(keys, (q, v, a, tau, fext), "pinref"))
        for k, idx in enumerate(states):
            state = (q[idx], v[idx], a[idx], tau[idx], fext[idx])
            ref = getattr(pin, name)(pmodel, pdatas[k], *_args(keys, state, "pin"))
            if ref is not None:
                assert got.shape == batch + np.shape(ref)
                assert_close(got[idx], ref, what=f"{name} result at state {idx}")
        _compare(rmodel, rdata, pdatas, pmodel, batch, f"after {name}")
        if name == "aba":
            for k, idx in enumerate(states):
                _check_hidden_caches(rmodel, rdata, pmodel, pdatas[k], idx, batch)
