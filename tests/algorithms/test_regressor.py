"""The regressors (algorithm/regressor.hxx) against Pinocchio 3.8.0, call by call, and the
identities a user checks with them.

Each state of a batch gets its own pin Data running the same calls as the one pinref Data.
After every call, its result and every cache of ``models.caches`` (liMi, oMi, v, a, a_gf, f,
the joints' M, S, v, c, ...: what the call writes and what it leaves alone), the regressor
caches and ``oMf`` agree per state at ``1e-12 * max(1, max|ref|)``. ``data.bodyRegressor`` is
not exposed by pin's Python; ``jointBodyRegressor(1)`` returns it after the torque regressor.
"""

import zlib

import numpy as np
import pinocchio as pin
import pytest

import pinref
from conftest import assert_close
from models import MODEL_NAMES, build, caches, random_states
from pinref.errors import ArgumentTypeError, ModelError, NotComputedError, ShapeError

BATCHES = [(), (5,), (2, 3)]
RFS = [pinref.LOCAL, pinref.WORLD, pinref.LOCAL_WORLD_ALIGNED]


def setup(model_name, test, batch):
    """(pinref model, pin model, q, v, a, placement) with an extra OP frame "target" on the
    deepest joint at a random placement (pinref and pin SE3)."""
    rng = np.random.default_rng(zlib.crc32(repr((model_name, test, batch)).encode()))
    rmodel, pmodel = build(model_name)
    X = pinref.SE3.Random(rng=rng)
    joint = rmodel.njoints - 1
    rmodel.addFrame(pinref.Frame("target", joint, X, pinref.FrameType.OP_FRAME))
    pmodel.addFrame(pin.Frame("target", joint, pin.SE3(X.homogeneous), pin.FrameType.OP_FRAME))
    q, v, a = random_states(pmodel, batch, rng)
    return rmodel, pmodel, q, v, a, X


def regressor_caches(model, data, lib, idx, batch):
    """``models.caches`` plus the regressor caches pin exposes and every oMf, for state idx."""
    out = caches(model, data, lib, idx, batch)

    def get(x, tail):
        x = np.asarray(x, dtype=float)
        return np.reshape(x, tail) if lib == "pin" else np.broadcast_to(x, batch + tail)[idx]

    n = model.njoints - 1
    out["jointTorqueRegressor"] = get(data.jointTorqueRegressor, (model.nv, 10 * n))
    out["staticRegressor"] = get(data.staticRegressor, (3, 4 * n))
    out["kineticEnergyRegressor"] = get(data.kineticEnergyRegressor, (10 * n,))
    out["potentialEnergyRegressor"] = get(data.potentialEnergyRegressor, (10 * n,))
    for f in range(model.nframes):
        out[f"oMf[{f}]"] = get(data.oMf[f].homogeneous, (4, 4))
    return out


def run_and_compare(rmodel, pmodel, batch, calls, caches_after_each=True):
    """Run ``calls`` [(what, pinref call, pin call)] on one pinref Data and one pin Data per
    state; ``pinref call(data)`` returns the batched result, ``pin call(data, k, idx)`` the one of
    state idx (None for both when the call returns nothing). After each call, results agree per
    state, and so does every regressor_caches entry (after the last call only, when not
    ``caches_after_each``: for long sequences of calls that each write at most one entry that
    no later call writes)."""
    rdata = rmodel.createData()
    states = list(np.ndindex(*batch))
    pdatas = [pmodel.createData() for _ in states]
    for what, rcall, pcall in calls:
        got = rcall(rdata)
        for k, idx in enumerate(states):
            ref = pcall(pdatas[k], idx)
            assert (got is None) == (ref is None), what
            if ref is not None:
                ref = np.asarray(ref, dtype=float)
                assert got.shape == batch + ref.shape, f"{what}: shape {got.shape}"
                assert got.flags.owndata
                assert_close(got[idx], ref, what=f"{what} result at state {idx}")
            if not caches_after_each and what != calls[-1][0]:
                continue
            ref_caches = regressor_caches(pmodel, pdatas[k], "pin", idx, batch)
            got_caches = regressor_caches(rmodel, rdata, "pinref", idx, batch)
            for key, r in ref_caches.items():
                assert_close(got_caches[key], r, what=f"after {what}: data.{key} at state {idx}")
    return rdata, pdatas


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_joint_torque_regressor_matches_pin(model_name, batch):
    """After rnea, then the torque regressor (which writes liMi, v, a_gf, joints and leaves f,
    h, oMi alone), then with other states; data.bodyRegressor ends as joint 1's."""
    rmodel, pmodel, q, v, a, _ = setup(model_name, "torque", batch)
    q2, v2, a2 = random_states(pmodel, batch, np.random.default_rng(len(batch)))
    rdata, pdatas = run_and_compare(rmodel, pmodel, batch, [
        ("rnea", lambda d: pinref.rnea(rmodel, d, q, v, a),
         lambda d, i: pin.rnea(pmodel, d, q[i], v[i], a[i])),
        ("computeJointTorqueRegressor",
         lambda d: pinref.computeJointTorqueRegressor(rmodel, d, q, v, a),
         lambda d, i: pin.computeJointTorqueRegressor(pmodel, d, q[i], v[i], a[i])),
        ("computeJointTorqueRegressor (second state)",
         lambda d: pinref.computeJointTorqueRegressor(rmodel, d, q2, v2, a2),
         lambda d, i: pin.computeJointTorqueRegressor(pmodel, d, q2[i], v2[i], a2[i])),
    ])
    for k, idx in enumerate(np.ndindex(*batch)):
        body = pin.jointBodyRegressor(pmodel, pdatas[k], 1)
        assert_close(np.broadcast_to(rdata.bodyRegressor, batch + (6, 10))[idx], body,
                     what=f"data.bodyRegressor at state {idx}")


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_body_regressors_match_pin(model_name, batch):
    """jointBodyRegressor of every joint (0 included) and frameBodyRegressor of every frame,
    after rnea; data.bodyRegressor holds the last one."""
    rmodel, pmodel, q, v, a, _ = setup(model_name, "body", batch)
    calls = [("rnea", lambda d: pinref.rnea(rmodel, d, q, v, a),
              lambda d, i: pin.rnea(pmodel, d, q[i], v[i], a[i]))]
    for j in range(rmodel.njoints):
        calls.append((f"jointBodyRegressor({j})",
                      lambda d, j=j: pinref.jointBodyRegressor(rmodel, d, j),
                      lambda d, i, j=j: pin.jointBodyRegressor(pmodel, d, j)))
    for f in range(rmodel.nframes):
        calls.append((f"frameBodyRegressor({f})",
                      lambda d, f=f: pinref.frameBodyRegressor(rmodel, d, f),
                      lambda d, i, f=f: pin.frameBodyRegressor(pmodel, d, f)))
    rdata, _ = run_and_compare(rmodel, pmodel, batch, calls, caches_after_each=False)
    last = pinref.frameBodyRegressor(rmodel, rdata, rmodel.nframes - 1)
    np.testing.assert_array_equal(rdata.bodyRegressor, last)


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_static_and_energy_regressors_match_pin(model_name, batch):
    rmodel, pmodel, q, v, _, _ = setup(model_name, "static", batch)
    run_and_compare(rmodel, pmodel, batch, [
        ("computeStaticRegressor", lambda d: pinref.computeStaticRegressor(rmodel, d, q),
         lambda d, i: pin.computeStaticRegressor(pmodel, d, q[i])),
        ("computeKineticEnergyRegressor",
         lambda d: pinref.computeKineticEnergyRegressor(rmodel, d, q, v),
         lambda d, i: pin.computeKineticEnergyRegressor(pmodel, d, q[i], v[i])),
        ("computePotentialEnergyRegressor",
         lambda d: pinref.computePotentialEnergyRegressor(rmodel, d, q),
         lambda d, i: pin.computePotentialEnergyRegressor(pmodel, d, q[i])),
    ])


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_kinematic_regressors_match_pin(model_name, batch):
    """Every joint with and without a placement, every frame, in the three reference frames,
    after forwardKinematics; the frame version writes oMf[frame_id]."""
    rmodel, pmodel, q, _, _, X = setup(model_name, "kinematic", batch)
    pX = pin.SE3(X.homogeneous)
    calls = [("forwardKinematics", lambda d: pinref.forwardKinematics(rmodel, d, q),
              lambda d, i: pin.forwardKinematics(pmodel, d, q[i]))]
    for rf in RFS:
        prf = pin.ReferenceFrame(int(rf))
        for j in range(1, rmodel.njoints):
            calls.append((f"computeJointKinematicRegressor({j}, {rf.name})",
                          lambda d, j=j, rf=rf: pinref.computeJointKinematicRegressor(
                              rmodel, d, j, rf),
                          lambda d, i, j=j, prf=prf: pin.computeJointKinematicRegressor(
                              pmodel, d, j, prf)))
            calls.append((f"computeJointKinematicRegressor({j}, {rf.name}, placement)",
                          lambda d, j=j, rf=rf: pinref.computeJointKinematicRegressor(
                              rmodel, d, j, rf, X),
                          lambda d, i, j=j, prf=prf: pin.computeJointKinematicRegressor(
                              pmodel, d, j, prf, pX)))
        for f in range(1, rmodel.nframes):
            calls.append((f"computeFrameKinematicRegressor({f}, {rf.name})",
                          lambda d, f=f, rf=rf: pinref.computeFrameKinematicRegressor(
                              rmodel, d, f, rf),
                          lambda d, i, f=f, prf=prf: pin.computeFrameKinematicRegressor(
                              pmodel, d, f, prf)))
    run_and_compare(rmodel, pmodel, batch, calls, caches_after_each=False)


# --- identities ------------------------------------------------------------------------------


def dynamic_parameters(model):
    return np.concatenate([model.inertias[i].toDynamicParameters()
                           for i in range(1, model.njoints)])


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_regressors_times_parameters_give_the_dynamics(model_name, batch):
    """Y pi == rnea (no armature), static Y (m, m c) == com, the energy regressors give the
    energies, and each joint's body regressor gives the body's own wrench Y_i a_gf_i + v_i x* Y_i
    v_i (rnea's f[i] before its backward pass adds the children's); checked per state."""
    rmodel, _, q, v, a, _ = setup(model_name, "identities", batch)
    data = rmodel.createData()
    pi = dynamic_parameters(rmodel)
    phi = np.concatenate([np.r_[Y.mass, Y.mass * Y.lever]
                          for Y in rmodel.inertias[1:]])
    tau_regressor = pinref.computeJointTorqueRegressor(rmodel, data, q, v, a) @ pi
    com_regressor = pinref.computeStaticRegressor(rmodel, data, q) @ phi
    T_regressor = pinref.computeKineticEnergyRegressor(rmodel, data, q, v) @ pi
    U_regressor = pinref.computePotentialEnergyRegressor(rmodel, data, q) @ pi
    tau = pinref.rnea(rmodel, data, q, v, a)
    bodies = [pinref.jointBodyRegressor(rmodel, data, i) @ rmodel.inertias[i].toDynamicParameters()
              for i in range(1, rmodel.njoints)]
    com = pinref.centerOfMass(rmodel, data, q)
    T = pinref.computeKineticEnergy(rmodel, data, q, v)
    U = pinref.computePotentialEnergy(rmodel, data, q)
    for idx in np.ndindex(*batch):
        assert_close(tau_regressor[idx], tau[idx], what=f"Y pi vs rnea at {idx}")
        assert_close(com_regressor[idx], com[idx], what=f"static Y phi vs com at {idx}")
        assert_close(T_regressor[idx], np.asarray(T)[idx], what=f"kinetic energy at {idx}")
        assert_close(U_regressor[idx], np.asarray(U)[idx], what=f"potential energy at {idx}")
        for i, f in enumerate(bodies, 1):
            Y, vi, ai = rmodel.inertias[i], data.v[i], data.a_gf[i]
            own = (Y * ai).vector + Y.vxiv(vi).vector  # data.f[i] before rnea's backward pass
            assert_close(f[idx], np.broadcast_to(own, batch + (6,))[idx],
                         what=f"body {i} wrench at {idx}")


def test_body_regressor_gives_the_body_wrench():
    rng = np.random.default_rng(5)
    Y = pinref.Inertia.Random(rng=rng)
    v = pinref.Motion(rng.normal(size=(4, 6)))
    a = pinref.Motion(rng.normal(size=(4, 6)))
    f = (Y * a).vector + Y.vxiv(v).vector
    got = pinref.bodyRegressor(v, a) @ Y.toDynamicParameters()
    for k in range(4):
        assert_close(got[k], f[k], what=f"bodyRegressor state {k}")
        ref = pin.bodyRegressor(pin.Motion(v.vector[k]), pin.Motion(a.vector[k]))
        assert_close(pinref.bodyRegressor(v, a)[k], ref, what=f"vs pin, state {k}")


def test_frame_kinematic_regressor_equals_the_joint_one_at_the_frame_placement():
    """As Pinocchio's own bindings_kinematic_regressor test."""
    rmodel, _, q, _, _, X = setup("humanoid", "frame_vs_joint", (3,))
    data = rmodel.createData()
    pinref.forwardKinematics(rmodel, data, q)
    f = rmodel.nframes - 1
    for rf in RFS:
        joint = pinref.computeJointKinematicRegressor(rmodel, data, rmodel.njoints - 1, rf, X)
        frame = pinref.computeFrameKinematicRegressor(rmodel, data, f, rf)
        for k in range(3):
            assert_close(frame[k], joint[k], what=f"{rf.name} state {k}")


# --- errors ------------------------------------------------------------------------------------


def test_bad_arguments_raise_typed_errors():
    rmodel, _ = build("manipulator")
    data = rmodel.createData()
    q, v = np.zeros(rmodel.nq), np.zeros(rmodel.nv)
    with pytest.raises(NotComputedError, match="rnea"):
        pinref.jointBodyRegressor(rmodel, data, 1)
    with pytest.raises(NotComputedError, match="forwardKinematics"):
        pinref.computeJointKinematicRegressor(rmodel, data, 1, pinref.LOCAL)
    with pytest.raises(ShapeError, match="q"):
        pinref.computeJointTorqueRegressor(rmodel, data, np.zeros(rmodel.nq + 1), v, v)
    with pytest.raises(ShapeError, match="a"):
        pinref.computeJointTorqueRegressor(rmodel, data, q, v, np.zeros(2))
    with pytest.raises(ShapeError):
        pinref.computeJointTorqueRegressor(rmodel, data, np.zeros((2, rmodel.nq)), v,
                                           np.zeros((3, rmodel.nv)))
    pinref.rnea(rmodel, data, q, v, v)
    with pytest.raises(NotComputedError, match="forwardKinematics"):  # rnea leaves oMi alone
        pinref.computeFrameKinematicRegressor(rmodel, data, 1, pinref.LOCAL)
    pinref.forwardKinematics(rmodel, data, q)
    for bad in (rmodel.njoints, -1, "no_such_joint", 1.5):
        with pytest.raises(ModelError, match="jointBodyRegressor"):
            pinref.jointBodyRegressor(rmodel, data, bad)
    with pytest.raises(ModelError, match="frame"):
        pinref.frameBodyRegressor(rmodel, data, rmodel.nframes)
    with pytest.raises(ModelError, match="universe"):
        pinref.computeJointKinematicRegressor(rmodel, data, 0, pinref.LOCAL)
    with pytest.raises(ModelError, match="universe"):
        pinref.computeFrameKinematicRegressor(rmodel, data, 0, pinref.LOCAL)
    with pytest.raises(ModelError, match="reference_frame"):
        pinref.computeJointKinematicRegressor(rmodel, data, 1, 7)
    with pytest.raises(ArgumentTypeError, match="placement"):
        pinref.computeJointKinematicRegressor(rmodel, data, 1, pinref.LOCAL, np.eye(4))
    with pytest.raises(ArgumentTypeError, match="velocity"):
        pinref.bodyRegressor(np.zeros(6), pinref.Motion.Zero())
    with pytest.raises(ModelError, match="mass"):
        massless = pinref.Model()
        massless.addJoint(0, pinref.JointModelRX(), pinref.SE3.Identity(), "rx")
        pinref.computeStaticRegressor(massless, massless.createData(), np.zeros(1))


def test_by_name_ids_and_pin_enum():
    """Joint and frame names stand for their ids, and pin's ReferenceFrame is taken."""
    rmodel, _ = build("manipulator")
    data = rmodel.createData()
    q = np.full(rmodel.nq, 0.3)
    pinref.forwardKinematics(rmodel, data, q)
    name = rmodel.names[3]
    np.testing.assert_array_equal(
        pinref.computeJointKinematicRegressor(rmodel, data, name, pin.ReferenceFrame.WORLD),
        pinref.computeJointKinematicRegressor(rmodel, data, 3, pinref.WORLD))
