"""Bad input to the kinematic functions: each raises a pinref.errors type whose message names
the argument, joint or frame and the fix, and leaves no half-written result behind."""

import numpy as np
import pinocchio as pin
import pytest

import pinref
from pinref import errors

MODEL = pinref.buildTutorialModel()


def _state(batch=()):
    q = np.zeros(batch + (MODEL.nq,))
    q[..., 3:7] = [0.0, 0.0, np.sin(0.3), np.cos(0.3)]
    q[..., 7:] = [0.4, -0.2]
    return q, np.full(batch + (MODEL.nv,), 0.5), np.full(batch + (MODEL.nv,), -0.3)


def _computed_data():
    q, v, a = _state()
    data = MODEL.createData()
    pinref.computeJointJacobiansTimeVariation(MODEL, data, q, v)
    pinref.forwardKinematics(MODEL, data, q, v, a)
    return data


# --- unknown ids and names ---------------------------------------------------------------------

FRAME_CALLS = {
    "getFrameVelocity": lambda d, f: pinref.getFrameVelocity(MODEL, d, f),
    "getFrameAcceleration": lambda d, f: pinref.getFrameAcceleration(MODEL, d, f, pinref.WORLD),
    "getFrameClassicalAcceleration": lambda d, f: pinref.getFrameClassicalAcceleration(MODEL, d, f),
    "getFrameJacobian": lambda d, f: pinref.getFrameJacobian(MODEL, d, f, pinref.LOCAL),
    "getFrameJacobianTimeVariation":
        lambda d, f: pinref.getFrameJacobianTimeVariation(MODEL, d, f, pinref.LOCAL),
    "computeFrameJacobian": lambda d, f: pinref.computeFrameJacobian(MODEL, d, _state()[0], f),
    "updateFramePlacement": lambda d, f: pinref.updateFramePlacement(MODEL, d, f),
}
JOINT_CALLS = {
    "getVelocity": lambda d, j: pinref.getVelocity(MODEL, d, j),
    "getAcceleration": lambda d, j: pinref.getAcceleration(MODEL, d, j),
    "getClassicalAcceleration": lambda d, j: pinref.getClassicalAcceleration(MODEL, d, j),
    "getJointJacobian": lambda d, j: pinref.getJointJacobian(MODEL, d, j, pinref.WORLD),
    "getJointJacobianTimeVariation":
        lambda d, j: pinref.getJointJacobianTimeVariation(MODEL, d, j, pinref.WORLD),
    "computeJointJacobian": lambda d, j: pinref.computeJointJacobian(MODEL, d, _state()[0], j),
    "getFrameVelocity(joint_id, placement)":
        lambda d, j: pinref.getFrameVelocity(MODEL, d, j, pinref.SE3.Identity()),
}


@pytest.mark.parametrize("call", list(FRAME_CALLS))
def test_unknown_frame(call):
    data = _computed_data()
    name = call.split("(")[0]
    for bad, match in ((MODEL.nframes, rf"{name}: frame id 7 is out of range.*0 \.\. 6"),
                       (-1, "frame id -1 is out of range.*getFrameId"),
                       ("no_such_frame", "no frame is named 'no_such_frame'.*'ry2_body'"),
                       (2.0, "frame_id must be an int or a frame name")):
        with pytest.raises(errors.ModelError, match=match):
            FRAME_CALLS[call](data, bad)


def test_frame_names_are_accepted_and_ambiguous_ones_refused():
    data = _computed_data()
    by_name = pinref.getFrameVelocity(MODEL, data, "ry2_body", pinref.WORLD)
    by_id = pinref.getFrameVelocity(MODEL, data, MODEL.getFrameId("ry2_body"), pinref.WORLD)
    assert np.array_equal(by_name.vector, by_id.vector)
    model = pinref.buildTutorialModel()
    model.addFrame(pinref.Frame("ry2_body", 3, 0, pinref.SE3.Identity(),
                                pinref.FrameType.OP_FRAME), False)
    with pytest.raises(errors.ModelError, match="several frames are named 'ry2_body'"):
        pinref.computeFrameJacobian(model, model.createData(), _state()[0], "ry2_body")


@pytest.mark.parametrize("call", list(JOINT_CALLS))
def test_unknown_joint(call):
    data = _computed_data()
    for bad, match in ((MODEL.njoints, "joint id 4 is out of range.*0 \\.\\. 3.*getJointId"),
                       (-2, "joint id -2 is out of range"),
                       ("elbow", "no joint named 'elbow'.*'ry1_joint'"),
                       (None, "joint_id must be an int or a joint name")):
        with pytest.raises(errors.ModelError, match=match):
            JOINT_CALLS[call](data, bad)


@pytest.mark.parametrize("bad", [3, -1, "LOCAL", 1.0, True, None])
def test_invalid_reference_frame(bad):
    data = _computed_data()
    calls = [lambda: pinref.getVelocity(MODEL, data, 1, bad),
             lambda: pinref.getFrameVelocity(MODEL, data, 2, bad),
             lambda: pinref.getFrameClassicalAcceleration(MODEL, data, 1, pinref.SE3.Identity(),
                                                           bad),
             lambda: pinref.getJointJacobian(MODEL, data, 1, bad),
             lambda: pinref.getFrameJacobian(MODEL, data, 2, bad),
             lambda: pinref.computeFrameJacobian(MODEL, data, _state()[0], 2, bad),
             lambda: pinref.getFrameJacobianTimeVariation(MODEL, data, 2, bad)]
    for call in calls:
        with pytest.raises(errors.ModelError, match="reference_frame must be pinref.Reference"
                                                    "Frame.LOCAL, WORLD or LOCAL_WORLD_ALIGNED"):
            call()


def test_data_made_before_frames_were_added():
    model = pinref.buildTutorialModel()
    data = model.createData()
    pinref.forwardKinematics(model, data, _state()[0])
    model.addFrame(pinref.Frame("tool", 3, 0, pinref.SE3.Identity(),
                                pinref.FrameType.OP_FRAME), False)
    with pytest.raises(errors.ModelError, match="create the Data again"):
        pinref.updateFramePlacements(model, data)
    with pytest.raises(errors.ModelError, match="data has 7 frame placements"):
        pinref.computeFrameJacobian(model, data, _state()[0], "tool")


def test_pinocchio_enum_values_are_accepted():
    data = _computed_data()
    ours = pinref.getFrameVelocity(MODEL, data, 2, pinref.LOCAL_WORLD_ALIGNED)
    theirs = pinref.getFrameVelocity(MODEL, data, 2, pin.ReferenceFrame.LOCAL_WORLD_ALIGNED)
    assert np.array_equal(ours.vector, theirs.vector)


def test_reference_frame_is_required_for_jacobians_as_in_pinocchio():
    data = _computed_data()
    with pytest.raises(TypeError):
        pinref.getJointJacobian(MODEL, data, 1)
    with pytest.raises(TypeError, match="missing argument.*reference_frame"):
        pinref.getFrameJacobian(MODEL, data, 2)
    with pytest.raises(TypeError, match="unexpected or repeated argument 'frame'"):
        pinref.getFrameVelocity(MODEL, data, frame=2)
    with pytest.raises(TypeError, match="placement must be a pinref.SE3"):
        pinref.getFrameVelocity(MODEL, data, 1, placement=np.eye(4))


# --- prerequisites never computed in this Data -------------------------------------------------

def test_queries_before_the_call_that_writes_their_cache():
    q, v, a = _state()
    cases = [
        (lambda d: pinref.getFrameJacobian(MODEL, d, 2, pinref.LOCAL), "data.J",
         r"computeJointJacobians\(model, data, q\)"),
        (lambda d: pinref.getJointJacobian(MODEL, d, 2, pinref.WORLD), "data.J",
         "computeJointJacobians"),
        (lambda d: pinref.getFrameVelocity(MODEL, d, 2), "data.v",
         r"forwardKinematics\(model, data, q, v\)"),
        (lambda d: pinref.getVelocity(MODEL, d, 2, pinref.WORLD), "data.v", "forwardKinematics"),
        (lambda d: pinref.getFrameAcceleration(MODEL, d, 2), "data.a",
         r"forwardKinematics\(model, data, q, v, a\)"),
        (lambda d: pinref.getClassicalAcceleration(MODEL, d, 2), "data.v", "forwardKinematics"),
        (lambda d: pinref.getFrameJacobianTimeVariation(MODEL, d, 2, pinref.LOCAL), "data.dJ",
         r"computeJointJacobiansTimeVariation\(model, data, q, v\)"),
        (lambda d: pinref.getJointJacobianTimeVariation(MODEL, d, 2, pinref.WORLD), "data.dJ",
         "computeJointJacobiansTimeVariation"),
        (lambda d: pinref.updateFramePlacements(MODEL, d), "data.oMi",
         r"forwardKinematics\(model, data, q\)"),
        (lambda d: pinref.updateFramePlacement(MODEL, d, 2), "data.oMi", "forwardKinematics"),
        (lambda d: pinref.computeJointJacobians(MODEL, d), "data.oMi", "or pass q"),
        (lambda d: pinref.jacobianCenterOfMass(MODEL, d), "data.oMi", "or pass q"),
        (lambda d: pinref.centerOfMass(MODEL, d, pinref.POSITION), "data.liMi",
         "forwardKinematics"),
        (lambda d: pinref.centerOfMass(MODEL, d), "data.liMi", "forwardKinematics"),
        (lambda d: pinref.computeKineticEnergy(MODEL, d), "data.v", "or pass q and v"),
        (lambda d: pinref.computePotentialEnergy(MODEL, d), "data.oMi", "or pass q"),
        (lambda d: pinref.computeMechanicalEnergy(MODEL, d), "data.v", "forwardKinematics"),
    ]
    for call, cache, fix in cases:
        data = MODEL.createData()
        with pytest.raises(errors.NotComputedError, match=f"{cache} was never computed.*{fix}"):
            call(data)
        with pytest.raises(RuntimeError):
            call(data)


def test_a_cache_written_by_another_call_is_enough_and_partial_ones_are_not():
    q, v, a = _state()
    data = MODEL.createData()
    pinref.rnea(MODEL, data, q, v, a)  # writes v (LOCAL) but not oMi
    local = pinref.getFrameVelocity(MODEL, data, 2)
    assert local.vector.shape == (6,)
    with pytest.raises(errors.NotComputedError, match="data.oMi was never computed"):
        pinref.getFrameVelocity(MODEL, data, 2, pinref.WORLD)
    pinref.crba(MODEL, data, q)  # writes liMi: the POSITION level of centerOfMass can run
    pinref.centerOfMass(MODEL, data, pinref.POSITION, True)
    with pytest.raises(errors.NotComputedError, match="data.a was never computed"):
        pinref.centerOfMass(MODEL, data, pinref.ACCELERATION, True)
    data = MODEL.createData()
    pinref.computeFrameJacobian(MODEL, data, q, 2, pinref.WORLD)  # oMi of the support only
    with pytest.raises(errors.NotComputedError, match="data.oMi"):
        pinref.updateFramePlacements(MODEL, data)


def test_acceleration_after_aba_needs_the_placements():
    """aba builds data.a from a_gf with the rotations in data.oMi, which aba does not compute:
    on a fresh Data pinref refuses to return that value (Pinocchio returns a wrong one)."""
    q, v, a = _state()
    data = MODEL.createData()
    pinref.aba(MODEL, data, q, v, a)
    with pytest.raises(errors.NotComputedError,
                       match=r"data.oMi was never computed.*forwardKinematics\(model, data, q\) "
                             "before aba"):
        pinref.getAcceleration(MODEL, data, 2)
    with pytest.raises(errors.NotComputedError, match="before aba"):
        pinref.centerOfMass(MODEL, data)
    pinref.forwardKinematics(MODEL, data, q)
    pinref.aba(MODEL, data, q, v, a)
    pinref.getAcceleration(MODEL, data, 2)


# --- sizes and values ------------------------------------------------------------------------

def test_wrong_sizes():
    q, v, a = _state()
    data = MODEL.createData()
    calls = [lambda: pinref.framesForwardKinematics(MODEL, data, q[:-1]),
             lambda: pinref.computeJointJacobians(MODEL, data, q[:-1]),
             lambda: pinref.computeJointJacobian(MODEL, data, q[:-1], 2),
             lambda: pinref.computeFrameJacobian(MODEL, data, q[:-1], 2),
             lambda: pinref.computeJointJacobiansTimeVariation(MODEL, data, q, v[:-1]),
             lambda: pinref.centerOfMass(MODEL, data, q, v[:-1]),
             lambda: pinref.jacobianCenterOfMass(MODEL, data, q[:-1]),
             lambda: pinref.computeKineticEnergy(MODEL, data, q, v[:-1]),
             lambda: pinref.computePotentialEnergy(MODEL, data, q[:-1]),
             lambda: pinref.integrate(MODEL, q, v[:-1]),
             lambda: pinref.difference(MODEL, q, q[:-1]),
             lambda: pinref.interpolate(MODEL, q[:-1], q, 0.5),
             lambda: pinref.squaredDistance(MODEL, q, q[:-1]),
             lambda: pinref.dIntegrate(MODEL, q, v[:-1], pinref.ARG0),
             lambda: pinref.dDifference(MODEL, q[:-1], q, pinref.ARG1),
             lambda: pinref.normalize(MODEL, q[:-1]),
             lambda: pinref.isNormalized(MODEL, q[:-1]),
             lambda: pinref.randomConfiguration(MODEL, q[:-1], q)]
    for call in calls:
        with pytest.raises(errors.ShapeError, match=r"expected trailing shape \(([89]),\)"):
            call()
    assert data.written == {}, "nothing was written by the refused calls"


def test_batches_that_do_not_broadcast():
    q, _, _ = _state((2,))
    q3, v3, _ = _state((3,))
    with pytest.raises(errors.ShapeError, match="do not broadcast"):
        pinref.difference(MODEL, q, q3)
    with pytest.raises(errors.ShapeError, match="do not broadcast"):
        pinref.integrate(MODEL, q, v3)


def test_non_unit_quaternion_names_the_joint_and_the_fix():
    q, v, _ = _state()
    q[3:7] *= 1.5
    for call in (lambda: pinref.integrate(MODEL, q, v),
                 lambda: pinref.difference(MODEL, _state()[0], q),
                 lambda: pinref.computeJointJacobians(MODEL, MODEL.createData(), q),
                 lambda: pinref.framesForwardKinematics(MODEL, MODEL.createData(), q)):
        with pytest.raises(errors.NotNormalizedError,
                           match=r"'root_joint'.*call pinref.normalize\(model, q\)"):
            call()
    fixed = pinref.normalize(MODEL, q)
    assert pinref.isNormalized(MODEL, fixed) and not pinref.isNormalized(MODEL, q)
    pinref.integrate(MODEL, fixed, v)


def test_random_configuration_refuses_unbounded_limits():
    # the tutorial's free-flyer has Pinocchio's default limits, +-DBL_MAX (pin returns inf)
    with pytest.raises(errors.NonFiniteError,
                       match=r"joint 'root_joint' \(JointModelFreeFlyer\), q\[0:7\]: "
                             r"model.lowerPositionLimit.*pass finite bounds"):
        pinref.randomConfiguration(MODEL)
    lower, upper = -np.ones(MODEL.nq), np.ones(MODEL.nq)
    lower[7] = -np.inf
    with pytest.raises(errors.NonFiniteError, match=r"joint 'ry1_joint'.*q\[7:8\]"):
        pinref.randomConfiguration(MODEL, lower, upper)
    lower[7] = np.nan
    with pytest.raises(errors.NonFiniteError, match="lower_bound contains NaN"):
        pinref.randomConfiguration(MODEL, lower, upper)
    lower[7] = -1.0
    lower[3:7] = -np.inf  # the quaternion's bounds are not used
    assert pinref.isNormalized(MODEL, pinref.randomConfiguration(MODEL, lower, upper, rng=1))


def test_invalid_kinematic_level_argument_position_and_precision():
    q, v, a = _state()
    data = MODEL.createData()
    pinref.forwardKinematics(MODEL, data, q, v, a)
    with pytest.raises(errors.ModelError, match="kinematic_level must be pinref.KinematicLevel"):
        pinref.centerOfMass(MODEL, data, 3)
    with pytest.raises(errors.UnsupportedError, match="arg must be pinref.ArgumentPosition"):
        pinref.dIntegrate(MODEL, q, v, 2)
    with pytest.raises(errors.UnsupportedError, match="ARG0 or ARG1"):
        pinref.dDifference(MODEL, q, q, "ARG0")
    with pytest.raises(errors.ModelError, match="prec must be a number >= 0"):
        pinref.isNormalized(MODEL, q, -1.0)
    with pytest.raises(TypeError, match="computeKineticEnergy takes"):
        pinref.computeKineticEnergy(MODEL, data, q)


def test_a_cache_reset_by_a_call_on_another_batch_shape_says_so():
    """Issue 25 item 14: after a call whose batch shape the one before does not broadcast to,
    the Data starts afresh; the error says that call reset it, not 'never computed'."""
    q2, v2, _ = _state((2,))
    q3, _, _ = _state((3,))
    data = MODEL.createData()
    pinref.forwardKinematics(MODEL, data, q2, v2)
    pinref.computeKineticEnergy(MODEL, data)
    pinref.crba(MODEL, data, q3)
    with pytest.raises(errors.NotComputedError,
                       match=r"computeKineticEnergy: data.v holds its initial value again: a "
                             r"call on a batch of shape \(3,\) reset this Data, since the batch "
                             r"shape \(2,\) of the call before does not broadcast to it.*"
                             "forwardKinematics.*again on this batch shape"):
        pinref.computeKineticEnergy(MODEL, data)


def test_messages_name_the_call_the_frame_type_the_model_and_the_size():
    """Issue 25 item 15: each message names what the user called and gave."""
    data = MODEL.createData()
    with pytest.raises(errors.NotComputedError, match=r"^getClassicalAcceleration: data\.v"):
        pinref.getClassicalAcceleration(MODEL, data, 1)
    with pytest.raises(errors.NotComputedError, match=r"^getFrameAccelerationDerivatives: "):
        pinref.getFrameAccelerationDerivatives(MODEL, data, 1, pinref.LOCAL)
    with pytest.raises(errors.NotComputedError, match=r"^getFrameVelocityDerivatives: "):
        pinref.getFrameVelocityDerivatives(MODEL, data, 1, pinref.LOCAL)
    with pytest.raises(errors.ModelError, match=r"^no frame named 'nope'$"):
        MODEL.getFrameId("nope")
    body = next(f.name for f in MODEL.frames if f.type == pinref.FrameType.BODY)
    with pytest.raises(errors.ModelError, match=rf"^no frame named '{body}' of type "
                       r"pinref\.FrameType\.OP_FRAME \| pinref\.FrameType\.SENSOR \(the model "
                       "has one of type BODY\\)$"):
        MODEL.getFrameId(body, pinref.FrameType.OP_FRAME | pinref.FrameType.SENSOR)
    unnamed = pinref.buildSampleModelManipulator()
    unnamed.name = ""
    with pytest.raises(errors.DataModelMismatchError, match=r"than the unnamed model \(njoints"):
        pinref.crba(unnamed, data, pinref.neutral(unnamed))
    with pytest.raises(errors.ShapeError,
                       match=r"^q: expected trailing shape \(9,\) \(model\.nq\)"):
        pinref.rnea(MODEL, data, np.zeros(3), np.zeros(8), np.zeros(8))
    with pytest.raises(errors.ShapeError,
                       match=r"^v: expected trailing shape \(8,\) \(model\.nv\)"):
        pinref.rnea(MODEL, data, _state()[0], np.zeros(3), np.zeros(8))


def test_an_unnamed_model_is_named_so_in_the_tools():
    from pinref.checking import check
    from pinref.model.loading import with_free_flyer

    unnamed = pinref.buildTutorialModel()
    unnamed.name = ""
    with pytest.raises(errors.ModelError, match="^the unnamed model already has a free-flyer"):
        with_free_flyer(unnamed)
    assert check(unnamed, n_states=1, checks=["sizes"]).to_text().startswith(
        "pinref check: the unnamed model (nq 9")
