"""computeMinverse (aba.hxx), both overloads.

Oracles: Pinocchio 3.8.0, the result and every cache it exposes, per state at
``1e-12 * max(1, max|ref|)``, with armature, at batch shapes (), (5,), (2, 3); the caches pin
hides (SDinv, StU) through the equations they satisfy with pin's caches; call sequences on one
Data (stale columns of Fcrb, the reuse overload after each WORLD-frame call); the identity
(M + diag(armature)) Minv = I with pin's crba.
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close
from models import MODEL_NAMES, cache_getter
from test_rnea_derivatives import _setup

import pinref
from pinref.errors import (
    ArgumentTypeError,
    DataModelMismatchError,
    ModelError,
    NotComputedError,
    NotNormalizedError,
    NotPositiveDefiniteError,
    ShapeError,
)

BATCHES = [(), (5,), (2, 3)]


def _caches(model, data, lib, idx, batch):
    """Every cache computeMinverse writes and pin exposes, for state ``idx`` (pin's reshaped,
    since eigenpy hands a one-column matrix back as a vector)."""
    at = cache_getter(lib, idx, batch)

    def get(x, tail):
        return np.reshape(x, tail) if lib == "pin" else at(x, tail)

    nv = model.nv
    out = {"Minv": get(data.Minv, (nv, nv)), "J": get(data.J, (6, nv))}
    for i in range(model.njoints):
        out[f"Fcrb[{i}]"] = get(data.Fcrb[i], (6, nv))
    for i in range(1, model.njoints):
        nvi = model.nvs[i]
        out[f"liMi[{i}]"] = get(data.liMi[i].homogeneous, (4, 4))
        out[f"oMi[{i}]"] = get(data.oMi[i].homogeneous, (4, 4))
        out[f"oYaba[{i}]"] = get(data.oYaba[i], (6, 6))
        out[f"oYcrb[{i}]"] = get(data.oYcrb[i].matrix(), (6, 6))
        jd = data.joints[i]
        out[f"joints[{i}].M"] = get(jd.M.homogeneous, (4, 4))
        for name, tail in (("S", (6, nvi)), ("U", (6, nvi)), ("UDinv", (6, nvi)),
                           ("Dinv", (nvi, nvi))):
            out[f"joints[{i}].{name}"] = get(getattr(jd, name), tail)
    return out


def _assert_matches_pin(rmodel, rdata, pmodel, pdata, idx, batch, when):
    ref = _caches(pmodel, pdata, "pin", idx, batch)
    got = _caches(rmodel, rdata, "pinref", idx, batch)
    for key, r in ref.items():
        assert_close(got[key], r, what=f"{when}: data.{key} at state {idx}")


def _assert_hidden_caches(rmodel, rdata, pdata, idx, batch):
    """SDinv and StU, which pin's Python does not expose, from pin's J, U and Dinv:
    SDinv_i = J_i Dinv_i for the joints with children (the others' columns are never written:
    zero in a fresh Data) and StU_i = J_i^T U_i + diag(armature_i)."""
    J = np.asarray(pdata.J)
    SDinv = np.broadcast_to(rdata.SDinv, batch + J.shape)[idx]
    for i in range(1, rmodel.njoints):
        iv, nvi = rmodel.joints[i].v_slice, rmodel.nvs[i]
        U = np.reshape(pdata.joints[i].U, (6, nvi))
        Dinv = np.reshape(pdata.joints[i].Dinv, (nvi, nvi))
        sdinv = J[:, iv] @ Dinv if rdata.nvSubtree[i] > nvi else np.zeros((6, nvi))
        assert_close(SDinv[:, iv], sdinv, what=f"SDinv of joint {i} at state {idx}")
        StU = np.broadcast_to(rdata.joints[i].StU, batch + (nvi, nvi))[idx]
        assert_close(StU, J[:, iv].T @ U + np.diag(rmodel.armature[iv]),
                     what=f"StU of joint {i} at state {idx}")


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_computeMinverse_matches_pin(model_name, batch):
    rmodel, pmodel, q, _, _, _ = _setup(model_name, batch, "minverse")
    rdata = pinref.Data(rmodel)
    got = pinref.computeMinverse(rmodel, rdata, q)
    assert got.shape == batch + (rmodel.nv, rmodel.nv)
    for idx in np.ndindex(*batch):
        pdata = pmodel.createData()
        ref = pin.computeMinverse(pmodel, pdata, q[idx])
        assert_close(got[idx], ref, what=f"returned Minv at state {idx}")
        _assert_matches_pin(rmodel, rdata, pmodel, pdata, idx, batch, "computeMinverse(q)")
        _assert_hidden_caches(rmodel, rdata, pdata, idx, batch)


def _world_aba(lib, model, data, q, v, tau):
    return lib.aba(model, data, q, v, tau, convention=lib.Convention.WORLD)


def _aba_derivatives(lib, model, data, q, v, tau):
    return lib.computeABADerivatives(model, data, q, v, tau)


@pytest.mark.parametrize("before", [_world_aba, _aba_derivatives], ids=["aba_WORLD", "abaDerivs"])
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_reuse_overload_matches_pin(model_name, batch, before):
    """computeMinverse(model, data) on the WORLD U, Dinv, UDinv and J that aba(WORLD) or
    computeABADerivatives leaves, at another state than the Data's last Minv (its stale
    SDinv and Fcrb columns)."""
    rmodel, pmodel, q, v, tau, _ = _setup(model_name, batch, "reuse")
    rdata = pinref.Data(rmodel)
    other = q[..., ::-1, :] if batch else pin.neutral(pmodel)
    pinref.computeMinverse(rmodel, rdata, other)
    before(pinref, rmodel, rdata, q, v, tau)
    got = pinref.computeMinverse(rmodel, rdata)
    for idx in np.ndindex(*batch):
        pdata = pmodel.createData()
        pin.computeMinverse(pmodel, pdata, other[idx] if batch else other)
        before(pin, pmodel, pdata, q[idx], v[idx], tau[idx])
        ref = pin.computeMinverse(pmodel, pdata)
        assert_close(got[idx], ref, what=f"returned Minv at state {idx}")
        _assert_matches_pin(rmodel, rdata, pmodel, pdata, idx, batch, "computeMinverse()")


@pytest.mark.parametrize("model_name", ["manipulator", "tree0"])
def test_call_sequence_on_one_data_matches_pin(model_name):
    """Both overloads mixed with crba, kinematics, aba(WORLD) and the ABA derivatives on one
    Data, every cache of ``_caches`` compared after every call: Fcrb[i]'s columns right of
    joint i's subtree keep computeMinverse's values through crba, the reuse overload reads what
    the last WORLD-frame call left."""
    rmodel, pmodel, q, v, tau, _ = _setup(model_name, (2,), "sequence")
    rdata, pdata = pinref.Data(rmodel), pmodel.createData()
    steps = [("crba", 0), ("computeMinverse", 1), ("computeMinverse", None),
             ("forwardKinematics", 0), ("computeMinverse", None),
             ("computeABADerivatives", 0), ("computeMinverse", None), ("crba", 1),
             ("computeMinverse", 0), ("abaWorld", 1), ("computeMinverse", None),
             ("computeABADerivatives", 1), ("computeMinverse", 0)]
    for name, k in steps:
        if name == "computeMinverse" and k is None:
            args = ()
        elif name in ("crba", "computeMinverse"):
            args = (q[k],)
        elif name == "forwardKinematics":
            args = (q[k], v[k])
        else:
            args = (q[k], v[k], tau[k])
        if name == "abaWorld":
            _world_aba(pinref, rmodel, rdata, *args)
            _world_aba(pin, pmodel, pdata, *args)
        else:
            getattr(pinref, name)(rmodel, rdata, *args)
            getattr(pin, name)(pmodel, pdata, *args)
        _assert_matches_pin(rmodel, rdata, pmodel, pdata, (), (), f"{name} {k}")


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_minv_is_the_inverse_of_pins_mass_matrix(model_name):
    """(M + diag(armature)) Minv = I with M from pin's crba (which symmetrises M and adds the
    armature)."""
    rmodel, pmodel, q, _, _, _ = _setup(model_name, (3,), "identity")
    Minv = pinref.computeMinverse(rmodel, pinref.Data(rmodel), q)
    eye = np.eye(rmodel.nv)
    for idx in np.ndindex(3):
        M = pin.crba(pmodel, pmodel.createData(), q[idx])
        assert_close(M, M.T, 0.0, "pin's M symmetric")
        assert_close(M @ Minv[idx], eye, 1e-10, f"M Minv == I at state {idx}")
        assert_close(Minv[idx], Minv[idx].T, 0.0, "Minv symmetric")


def test_result_is_an_owned_copy_and_data_minv_is_symmetric():
    """pin's Python returns a copy of data.Minv, which its binding fills on both sides."""
    rmodel, pmodel, q, _, _, _ = _setup("humanoid", (2,), "copies")
    for lib, model, data in ((pinref, rmodel, pinref.Data(rmodel)),
                             (pin, pmodel, pmodel.createData())):
        for args in ((q[0],), ()):
            got = lib.computeMinverse(model, data, *args)
            assert not np.shares_memory(got, data.Minv)
            np.testing.assert_array_equal(got, data.Minv)
            np.testing.assert_array_equal(data.Minv, data.Minv.T)
            kept = got.copy()
            lib.computeMinverse(model, data, q[1])
            np.testing.assert_array_equal(got, kept)


@pytest.mark.parametrize("model_name", ["humanoid", "tree1"])
def test_a_state_gives_the_same_bits_alone_or_in_a_batch(model_name):
    rmodel, _, q, _, _, _ = _setup(model_name, (2, 3), "bits")
    rdata = pinref.Data(rmodel)
    batched = pinref.computeMinverse(rmodel, rdata, q)
    reused = pinref.computeMinverse(rmodel, rdata)
    np.testing.assert_array_equal(reused, batched)
    for idx in np.ndindex(2, 3):
        alone = pinref.computeMinverse(rmodel, pinref.Data(rmodel), q[idx])
        np.testing.assert_array_equal(batched[idx], alone)


def test_reuse_overload_without_world_aba_raises():
    """Pinocchio reads the initial zeros (fresh Data) or aba's LOCAL U (its default
    convention) and returns a wrong Minv; pinref refuses."""
    rmodel, pmodel, q, v, tau, _ = _setup("manipulator", (), "errors")
    Minv = pin.computeMinverse(pmodel, pmodel.createData(), q)
    pdata = pmodel.createData()
    pin.aba(pmodel, pdata, q, v, tau)
    assert np.abs(pin.computeMinverse(pmodel, pdata) - Minv).max() > 1e-3
    with pytest.raises(NotComputedError, match="Convention.WORLD"):
        pinref.computeMinverse(rmodel, pinref.Data(rmodel))
    rdata = pinref.Data(rmodel)
    pinref.aba(rmodel, rdata, q, v, tau)
    with pytest.raises(NotComputedError, match="never computed"):
        pinref.computeMinverse(rmodel, rdata)
    rdata = pinref.Data(rmodel)
    pinref.computeMinverse(rmodel, rdata, q)
    pinref.aba(rmodel, rdata, q, v, tau)
    with pytest.raises(NotComputedError, match="LOCAL convention"):
        pinref.computeMinverse(rmodel, rdata)
    # a WORLD-frame call after the LOCAL aba makes them valid again
    pinref.aba(rmodel, rdata, q, v, tau, convention=pinref.Convention.WORLD)
    assert_close(pinref.computeMinverse(rmodel, rdata), Minv)
    pinref.aba(rmodel, rdata, q, v, tau)
    with pytest.raises(NotComputedError, match="LOCAL convention"):
        pinref.computeMinverse(rmodel, rdata)
    pinref.computeABADerivatives(rmodel, rdata, q, v, tau)
    assert_close(pinref.computeMinverse(rmodel, rdata), Minv)


def test_bad_input_raises_typed_errors():
    rmodel, _, q, _, _, _ = _setup("humanoid", (), "bad input")
    rdata = pinref.Data(rmodel)
    with pytest.raises(ShapeError, match="q"):
        pinref.computeMinverse(rmodel, rdata, np.zeros(rmodel.nq + 1))
    with pytest.raises(ArgumentTypeError, match="q"):
        pinref.computeMinverse(rmodel, rdata, "q")
    bad = q.copy()
    bad[3:7] *= 2.0
    with pytest.raises(NotNormalizedError, match="normalize"):
        pinref.computeMinverse(rmodel, rdata, bad)
    other = pinref.Data(pinref.buildSampleModelManipulator())
    with pytest.raises(DataModelMismatchError):
        pinref.computeMinverse(rmodel, other, q)
    with pytest.raises(DataModelMismatchError):
        pinref.computeMinverse(rmodel, other)


def test_a_singular_joint_is_named():
    """A massless leaf body without armature: StU = 0 cannot be inverted."""
    model = pinref.Model()
    j1 = model.addJoint(0, pinref.JointModelRY(), pinref.SE3.Identity(), "shoulder")
    model.appendBodyToJoint(j1, pinref.Inertia.Random(rng=np.random.default_rng(1)))
    model.addJoint(j1, pinref.JointModelRX(), pinref.SE3.Random(rng=np.random.default_rng(2)),
                   "wrist")
    with pytest.raises(NotPositiveDefiniteError, match="wrist"):
        pinref.computeMinverse(model, pinref.Data(model), pinref.neutral(model))


def test_subtrees_not_numbered_depth_first_raise():
    """Pinocchio assumes every subtree owns a contiguous range of dofs and returns a wrong
    Minv otherwise; pinref refuses, as for crba."""
    model = pinref.Model()
    rng = np.random.default_rng(3)
    a = model.addJoint(0, pinref.JointModelRY(), pinref.SE3.Random(rng=rng), "a")
    b = model.addJoint(0, pinref.JointModelRY(), pinref.SE3.Random(rng=rng), "b")
    model.addJoint(a, pinref.JointModelRX(), pinref.SE3.Random(rng=rng), "a_child")
    for j in (a, b, 3):
        model.appendBodyToJoint(j, pinref.Inertia.Random(rng=rng))
    with pytest.raises(ModelError, match="depth-first"):
        pinref.computeMinverse(model, pinref.Data(model), pinref.neutral(model))
