"""Frames, velocities, accelerations, Jacobians and their time variation against Pinocchio 3.8.0.

Every model of tests/models.py gets one extra OP_FRAME per joint (universe included) at a random
placement, so that every frame function meets frames that are not at their joint's origin. Each
state of a batch gets its own pin Data running the same call sequence; pinref runs it once on
the whole batch. Results and the caches the calls write (oMi, liMi, v, ov, J, dJ, oMf, iMf) are
compared per state at ``1e-12 * max(1, max|ref|)``.
"""

import numpy as np
import pinocchio as pin
import pytest

import pinref
from conftest import assert_close
from models import MODEL_NAMES, build, random_states

BATCHES = [(), (5,), (2, 3)]
FRAMES = [pinref.ReferenceFrame.LOCAL, pinref.ReferenceFrame.WORLD,
          pinref.ReferenceFrame.LOCAL_WORLD_ALIGNED]


def to_pin(arg, idx):
    """A pinref call's argument for pin at state ``idx``: arrays indexed, enums and SE3 mapped."""
    if isinstance(arg, np.ndarray):
        return arg[idx]
    for enum, pin_enum in ((pinref.ReferenceFrame, pin.ReferenceFrame),
                           (pinref.KinematicLevel, pin.KinematicLevel),
                           (pinref.ArgumentPosition, pin.ArgumentPosition)):
        if isinstance(arg, enum):
            return pin_enum(int(arg))
    if isinstance(arg, pinref.SE3):
        return pin.SE3(arg.rotation, arg.translation)
    return arg


def models_with_frames(name, rng):
    """build(name) plus one OP_FRAME at a random placement on every joint, in both models."""
    rmodel, pmodel = build(name)
    for j in range(rmodel.njoints):
        M = pinref.SE3.Random(rng=rng)
        rmodel.addFrame(pinref.Frame(f"op_{j}", j, 0, M, pinref.FrameType.OP_FRAME), False)
        pmodel.addFrame(pin.Frame(f"op_{j}", j, 0, pin.SE3(M.rotation, M.translation),
                                  pin.FrameType.OP_FRAME), False)
    assert rmodel.nframes == pmodel.nframes
    return rmodel, pmodel


class Case:
    """One model, a batch of states, a pinref Data and one pin Data per state."""

    def __init__(self, name, batch, seed=0):
        rng = np.random.default_rng(seed)
        self.rmodel, self.pmodel = models_with_frames(name, rng)
        self.batch = batch
        self.q, self.v, self.a = random_states(self.pmodel, batch, rng)
        self.states = list(np.ndindex(*batch))
        self.rdata = self.rmodel.createData()
        self.pdatas = [self.pmodel.createData() for _ in self.states]
        self.rng = rng

    def state(self, k):
        idx = self.states[k]
        return self.q[idx], self.v[idx], self.a[idx]

    def run(self, name, *args):
        """Call ``name`` in pinref on the batch and in pin per state; return (got, [refs])."""
        got = getattr(pinref, name)(self.rmodel, self.rdata, *args)
        refs = [getattr(pin, name)(self.pmodel, self.pdatas[k], *(to_pin(a, idx) for a in args))
                for k, idx in enumerate(self.states)]
        return got, refs

    def compare(self, got, refs, what):
        """A batched pinref result against the per-state pin results (arrays or Motions/SE3)."""
        for k, idx in enumerate(self.states):
            ref = refs[k]
            if isinstance(ref, pin.Motion):
                assert isinstance(got, pinref.Motion), what
                g, r = np.broadcast_to(got.vector, self.batch + (6,))[idx], ref.vector
            elif isinstance(ref, pin.SE3):
                g = np.broadcast_to(got.homogeneous, self.batch + (4, 4))[idx]
                r = ref.homogeneous
            else:
                r = np.asarray(ref, dtype=float)
                assert np.shape(got) == self.batch + r.shape, f"{what}: shape {np.shape(got)}"
                g = np.asarray(got)[idx]
            assert_close(g, r, what=f"{what} at state {idx}")

    def compare_caches(self, what, names=("liMi", "oMi", "v", "ov", "iMf", "oMf", "J", "dJ")):
        """The caches the kinematic functions write, per state, against each pin Data."""
        rd = self.rdata
        for k, idx in enumerate(self.states):
            pd = self.pdatas[k]
            for name in names:
                if name in ("J", "dJ"):
                    g = np.broadcast_to(getattr(rd, name), self.batch + (6, self.rmodel.nv))
                    assert_close(g[idx], getattr(pd, name), what=f"{what}: {name} at {idx}")
                    continue
                for i, (x, y) in enumerate(zip(getattr(rd, name), getattr(pd, name),
                                               strict=True)):
                    if isinstance(y, pin.SE3):
                        g = np.broadcast_to(x.homogeneous, self.batch + (4, 4))[idx]
                        r = y.homogeneous
                    else:
                        g, r = np.broadcast_to(x.vector, self.batch + (6,))[idx], y.vector
                    assert_close(g, r, what=f"{what}: {name}[{i}] at {idx}")


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_frame_placements(model_name, batch):
    c = Case(model_name, batch)
    got, refs = c.run("framesForwardKinematics", c.q)
    assert got is None and refs[0] is None
    c.compare_caches("framesForwardKinematics", ("liMi", "oMi", "oMf"))
    for f in range(c.rmodel.nframes):
        got, refs = c.run("updateFramePlacement", f)
        c.compare(got, refs, f"updateFramePlacement({f})")
    got, refs = c.run("updateFramePlacements")
    c.compare_caches("updateFramePlacements", ("oMf",))


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_velocities_and_accelerations(model_name, batch):
    c = Case(model_name, batch, seed=1)
    c.run("forwardKinematics", c.q, c.v, c.a)
    c.compare_caches("forwardKinematics(q, v, a)", ("liMi", "oMi", "v"))
    for rf in FRAMES:
        for i in range(c.rmodel.njoints):
            for name in ("getVelocity", "getAcceleration", "getClassicalAcceleration"):
                got, refs = c.run(name, i, rf)
                c.compare(got, refs, f"{name}({i}, {rf.name})")
        for f in range(c.rmodel.nframes):
            for name in ("getFrameVelocity", "getFrameAcceleration",
                         "getFrameClassicalAcceleration"):
                got, refs = c.run(name, f, rf)
                c.compare(got, refs, f"{name}({f}, {rf.name})")
    # the (joint_id, placement) overloads, and the default reference frame (LOCAL)
    M = pinref.SE3.Random(rng=c.rng)
    j = c.rmodel.njoints - 1
    for rf in FRAMES:
        for name in ("getFrameVelocity", "getFrameAcceleration", "getFrameClassicalAcceleration"):
            got, refs = c.run(name, j, M, rf)
            c.compare(got, refs, f"{name}({j}, placement, {rf.name})")
    for name in ("getVelocity", "getFrameVelocity", "getFrameClassicalAcceleration"):
        got, refs = c.run(name, j)
        c.compare(got, refs, f"{name}({j}) with the default frame")


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_joint_and_frame_jacobians(model_name, batch):
    c = Case(model_name, batch, seed=2)
    got, refs = c.run("computeJointJacobians", c.q)
    c.compare(got, refs, "computeJointJacobians")
    c.compare_caches("computeJointJacobians", ("liMi", "oMi", "J"))
    got[...] = 0.0  # an owned copy: data.J is not touched
    c.compare_caches("computeJointJacobians (result modified)", ("J",))
    for rf in FRAMES:
        for i in range(c.rmodel.njoints):
            got, refs = c.run("getJointJacobian", i, rf)
            c.compare(got, refs, f"getJointJacobian({i}, {rf.name})")
        for f in range(c.rmodel.nframes):
            got, refs = c.run("getFrameJacobian", f, rf)
            c.compare(got, refs, f"getFrameJacobian({f}, {rf.name})")
        c.compare_caches(f"getFrameJacobian(..., {rf.name})", ("oMf", "J"))
        M = pinref.SE3.Random(rng=c.rng)
        j = c.rmodel.njoints - 1
        got, refs = c.run("getFrameJacobian", j, M, rf)
        c.compare(got, refs, f"getFrameJacobian({j}, placement, {rf.name})")


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_jacobians_computed_from_q(model_name, batch):
    c = Case(model_name, batch, seed=3)
    for i in range(c.rmodel.njoints):
        got, refs = c.run("computeJointJacobian", c.q, i)
        c.compare(got, refs, f"computeJointJacobian({i})")
    c.compare_caches("computeJointJacobian", ("liMi", "iMf", "oMi", "J"))
    for rf in FRAMES:
        for f in range(c.rmodel.nframes):
            got, refs = c.run("computeFrameJacobian", c.q, f, rf)
            c.compare(got, refs, f"computeFrameJacobian({f}, {rf.name})")
        c.compare_caches(f"computeFrameJacobian(..., {rf.name})", ("liMi", "oMi", "iMf", "oMf"))
    f = c.rmodel.nframes - 1
    got, refs = c.run("computeFrameJacobian", c.q, f)
    c.compare(got, refs, "computeFrameJacobian with the default frame (LOCAL)")
    # the no-q overload of computeJointJacobians uses the oMi already in data
    c.run("forwardKinematics", c.q)
    got, refs = c.run("computeJointJacobians")
    c.compare(got, refs, "computeJointJacobians(model, data)")
    c.compare_caches("computeJointJacobians(model, data)", ("oMi", "J"))


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_jacobian_time_variation(model_name, batch):
    c = Case(model_name, batch, seed=4)
    got, refs = c.run("computeJointJacobiansTimeVariation", c.q, c.v)
    c.compare(got, refs, "computeJointJacobiansTimeVariation")
    c.compare_caches("computeJointJacobiansTimeVariation", ("liMi", "oMi", "v", "ov", "J", "dJ"))
    for rf in FRAMES:
        for i in range(c.rmodel.njoints):
            got, refs = c.run("getJointJacobianTimeVariation", i, rf)
            c.compare(got, refs, f"getJointJacobianTimeVariation({i}, {rf.name})")
        for f in range(c.rmodel.nframes):
            got, refs = c.run("getFrameJacobianTimeVariation", f, rf)
            c.compare(got, refs, f"getFrameJacobianTimeVariation({f}, {rf.name})")
        c.compare_caches(f"getFrameJacobianTimeVariation(..., {rf.name})", ("oMf", "dJ"))


def test_results_are_owned_copies():
    c = Case("tutorial", (2,))
    pinref.computeJointJacobiansTimeVariation(c.rmodel, c.rdata, c.q, c.v)
    pinref.updateFramePlacements(c.rmodel, c.rdata)
    results = [pinref.getJointJacobian(c.rmodel, c.rdata, 3, pinref.WORLD),
               pinref.getFrameJacobian(c.rmodel, c.rdata, 2, pinref.WORLD),
               pinref.getJointJacobianTimeVariation(c.rmodel, c.rdata, 3, pinref.WORLD),
               pinref.getVelocity(c.rmodel, c.rdata, 3).vector,
               pinref.updateFramePlacement(c.rmodel, c.rdata, 2).translation]
    caches = [c.rdata.J, c.rdata.dJ, c.rdata.v[3].vector, c.rdata.oMf[2].translation]
    for r in results:
        assert not any(np.shares_memory(r, x) for x in caches)
