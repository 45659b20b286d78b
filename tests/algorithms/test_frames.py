"""Frame placements, joint and frame velocities and accelerations, and the frame Jacobian's
time variation (pinref/algorithms/frames.py) against Pinocchio 3.8.0, on every model of
tests/models.py with one extra OP_FRAME per joint (frame_cases.Case): results and the caches
the calls write, per state at ``1e-12 * max(1, max|ref|)``; pinref runs once on the batch, pin
once per state on its own Data.
"""

import numpy as np
import pytest
from frame_cases import BATCHES, FRAMES, Case
from models import MODEL_NAMES

import pinref
from pinref.errors import ArgumentTypeError, DataModelMismatchError, ModelError, ShapeError


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
def test_frame_jacobian_time_variation_matches_pin(model_name, batch):
    c = Case(model_name, batch, seed=11)
    for rf in FRAMES:
        for f in range(c.rmodel.nframes):
            got, refs = c.run("frameJacobianTimeVariation", c.q, c.v, f, rf)
            c.compare(got, refs, f"frameJacobianTimeVariation({f}, {rf.name})")
        c.compare_caches(f"frameJacobianTimeVariation(..., {rf.name})",
                         ("liMi", "oMi", "v", "ov", "J", "dJ", "oMf"))


def test_equals_the_two_step_form_of_pins_unit_test():
    """bindings_frame::test_frame_algo: the one call equals computeJointJacobiansTimeVariation
    then getFrameJacobianTimeVariation on another Data, bit for bit; by name too."""
    c = Case("humanoid", (3,), seed=2)
    frame = c.rmodel.frames[-1].name
    for rf in FRAMES:
        one = pinref.frameJacobianTimeVariation(c.rmodel, c.rmodel.createData(), c.q, c.v,
                                                frame, rf)
        data = c.rmodel.createData()
        pinref.computeJointJacobiansTimeVariation(c.rmodel, data, c.q, c.v)
        two = pinref.getFrameJacobianTimeVariation(c.rmodel, data, c.rmodel.nframes - 1, rf)
        assert np.array_equal(one, two), rf.name


def test_refusals_leave_data_untouched():
    c = Case("tutorial", ())
    data = c.rmodel.createData()
    q, v = c.q, c.v
    for args, error, match in (
            ((c.rmodel.nframes, pinref.LOCAL), ModelError, "frame"),
            (("no_such_frame", pinref.LOCAL), ModelError, "no_such_frame"),
            ((1, 7), ModelError, "reference_frame"),
    ):
        with pytest.raises(error, match=match):
            pinref.frameJacobianTimeVariation(c.rmodel, data, q, v, *args)
        assert "dJ" not in data.written, "a refused call must not write data"
    with pytest.raises(ShapeError, match="v"):
        pinref.frameJacobianTimeVariation(c.rmodel, data, q, v[:-1], 1, pinref.LOCAL)
    with pytest.raises(ArgumentTypeError, match="data"):
        pinref.frameJacobianTimeVariation(c.rmodel, None, q, v, 1, pinref.LOCAL)
    other = pinref.buildSampleModelManipulator().createData()
    with pytest.raises(DataModelMismatchError):
        pinref.frameJacobianTimeVariation(c.rmodel, other, q, v, 1, pinref.LOCAL)
    with pytest.raises(TypeError):
        pinref.frameJacobianTimeVariation(c.rmodel, data, q, v, 1)  # rf required, as in pin
