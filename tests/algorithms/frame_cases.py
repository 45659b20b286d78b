"""What the frame and Jacobian tests (test_frames.py, test_jacobian.py) share: the models with
one extra OP_FRAME per joint and the Case that runs a call in pinref on a batch and in pin per
state.

Every model of tests/models.py gets one extra OP_FRAME per joint (universe included) at a random
placement, so that every frame function meets frames that are not at their joint's origin. Each
state of a batch gets its own pin Data running the same call sequence; pinref runs it once on
the whole batch. Results and the caches the calls write (oMi, liMi, v, ov, J, dJ, oMf, iMf) are
compared per state at ``1e-12 * max(1, max|ref|)``.
"""

import numpy as np
import pinocchio as pin

import pinref
from conftest import assert_close
from models import build, random_states

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
