"""getFrameVelocityDerivatives and getFrameAccelerationDerivatives (frames-derivatives.hxx), both
overloads, after computeForwardKinematicsDerivatives.

Oracles: Pinocchio 3.8.0 per state at ``1e-12 * max(1, max|ref|)`` for the frames that
frame_cases adds to the models (one OP_FRAME per joint at a random placement), every reference
frame, batch shapes (), (5,), (2, 3), with ``oMf`` after the frame_id form (which writes it); central
finite differences of pin's own getFrameVelocity and getFrameAcceleration. As for the joints
(test_kinematics_derivatives.py), pin's LOCAL_WORLD_ALIGNED q-partials leave out the motion of
the frame's origin; the sweep checks them with that term added.
"""

import numpy as np
import pinocchio as pin
import pytest
from frame_cases import BATCHES, Case, models_with_frames
from models import MODEL_NAMES, random_states
from test_kinematics_derivatives import (
    FRAMES,
    check_motion_sweeps,
    compare_tuple,
    computed,
)

import pinref
from pinref import errors

GETTERS = ("getFrameVelocityDerivatives", "getFrameAccelerationDerivatives")


@pytest.mark.parametrize("rf", FRAMES, ids=str)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_frame_derivatives_match_pin(model_name, batch, rf):
    case = computed(model_name, batch, seed=3)
    for j in range(case.rmodel.njoints):
        f = case.rmodel.getFrameId(f"op_{j}")   # one frame per joint, at a random placement
        frame = case.rmodel.frames[f]
        for name in GETTERS:
            got, refs = case.run(name, f, rf)
            compare_tuple(case, got, refs, f"{name}({f}, {rf})")
            got, refs = case.run(name, frame.parentJoint, frame.placement, rf)
            compare_tuple(case, got, refs, f"{name}({frame.parentJoint}, placement, {rf})")
    case.compare_caches("after the frame getters", ("oMi", "v", "a", "ov", "oa", "J", "dJ",
                                                     "oMf"))


def test_only_the_frame_id_form_writes_oMf():
    case = computed("humanoid", (2,), seed=3)
    f = case.rmodel.nframes - 1
    frame = case.rmodel.frames[f]
    identity = np.broadcast_to(np.eye(4), (2, 4, 4))
    for name in GETTERS:
        case.run(name, frame.parentJoint, frame.placement, pinref.WORLD)
        np.testing.assert_array_equal(np.broadcast_to(case.rdata.oMf[f].homogeneous,
                                                      (2, 4, 4)), identity)
        assert all(np.array_equal(pd.oMf[f].homogeneous, np.eye(4)) for pd in case.pdatas)
    case.run(GETTERS[0], f, pinref.WORLD)
    case.compare_caches("oMf after the frame_id form", ("oMf",))
    assert not np.allclose(case.rdata.oMf[f].homogeneous, identity)


@pytest.mark.parametrize("rf", FRAMES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_frame_derivatives_against_finite_differences_of_pin(model_name, rf):
    rng = np.random.default_rng(5)
    rmodel, pmodel = models_with_frames(model_name, rng)
    q, v, a = random_states(pmodel, (), rng)
    rdata, pdata = rmodel.createData(), pmodel.createData()
    pinref.computeForwardKinematicsDerivatives(rmodel, rdata, q, v, a)
    pin.computeForwardKinematicsDerivatives(pmodel, pdata, q, v, a)
    for j in sorted({rmodel.njoints // 2, rmodel.njoints - 1}):
        f = rmodel.getFrameId(f"op_{j}")
        dv_dq, dv_dv = pinref.getFrameVelocityDerivatives(rmodel, rdata, f, rf)
        _, da_dq, da_dv, da_da = pinref.getFrameAccelerationDerivatives(rmodel, rdata, f, rf)
        check_motion_sweeps(rmodel, pmodel, pdata, (q, v, a), j, rf,
                            ((dv_dq, dv_dv), (da_dq, da_dv, da_da)),
                            (pin.getFrameVelocity, pin.getFrameAcceleration), f, f"frame {f}")


def test_bad_input():
    case = Case("tutorial", (), seed=1)
    model, data = case.rmodel, case.rdata
    for name in GETTERS:
        with pytest.raises(errors.NotComputedError, match="computeForwardKinematicsDerivatives"):
            getattr(pinref, name)(model, data, 1, pinref.LOCAL)
    case.run("computeForwardKinematicsDerivatives", case.q, case.v, case.a)
    for name in GETTERS:
        getter = getattr(pinref, name)
        with pytest.raises(errors.ModelError, match="frame id .* is out of range"):
            getter(model, data, model.nframes, pinref.LOCAL)
        with pytest.raises(errors.ModelError, match="no frame is named"):
            getter(model, data, "no such frame", pinref.LOCAL)
        with pytest.raises(errors.ModelError, match="joint id .* is out of range"):
            getter(model, data, model.njoints, pinref.SE3.Identity(), pinref.LOCAL)
        with pytest.raises(errors.ModelError, match="reference_frame must be"):
            getter(model, data, 1, 7)
        with pytest.raises(TypeError, match="missing argument"):
            getter(model, data, 1)
    model.addFrame(pinref.Frame("late", 1, 0, pinref.SE3.Identity(), pinref.FrameType.OP_FRAME))
    with pytest.raises(errors.ModelError, match="create the Data again"):
        pinref.getFrameVelocityDerivatives(model, data, model.nframes - 1, pinref.LOCAL)
