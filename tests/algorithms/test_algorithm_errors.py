"""Bad input to the algorithms: each raises a pinref.errors type and returns nothing."""

import numpy as np
import pinocchio as pin
import pytest

import pinref
from pinref import errors

MODEL = pinref.buildTutorialModel()


def _state(batch=()):
    q = np.zeros(batch + (MODEL.nq,))
    q[..., 6] = 1.0
    return q, np.zeros(batch + (MODEL.nv,)), np.zeros(batch + (MODEL.nv,))


@pytest.mark.parametrize("call", ["rnea", "aba", "crba", "nonLinearEffects",
                                  "computeGeneralizedGravity", "forwardKinematics"])
def test_wrong_sizes(call):
    q, v, a = _state()
    args = {"rnea": (q, v, a), "aba": (q, v, a), "crba": (q,), "nonLinearEffects": (q, v),
            "computeGeneralizedGravity": (q,), "forwardKinematics": (q, v, a)}[call]
    for k in range(len(args)):
        bad = list(args)
        bad[k] = bad[k][:-1]
        with pytest.raises(errors.ShapeError, match="expected trailing shape"):
            getattr(pinref, call)(MODEL, pinref.Data(MODEL), *bad)


def test_batches_that_do_not_broadcast():
    q, _, _ = _state((2,))
    _, v, a = _state((3,))
    with pytest.raises(errors.ShapeError, match="do not broadcast"):
        pinref.rnea(MODEL, pinref.Data(MODEL), q, v, a)


@pytest.mark.parametrize("bad_value", [np.nan, np.inf])
def test_non_finite(bad_value):
    q, v, a = _state()
    v[3] = bad_value
    with pytest.raises(errors.NonFiniteError, match="v: contains NaN or infinity"):
        pinref.aba(MODEL, pinref.Data(MODEL), q, v, a)
    q[0] = bad_value
    with pytest.raises(errors.NonFiniteError, match="q: contains NaN"):
        pinref.crba(MODEL, pinref.Data(MODEL), q)


def test_non_unit_quaternion_names_the_joint_and_the_fix():
    q, v, a = _state((3,))
    q[1, 3:7] = [0.1, 0.2, 0.3, 2.0]
    with pytest.raises(errors.NotNormalizedError, match="'root_joint'.*pinref.normalize"):
        pinref.rnea(MODEL, pinref.Data(MODEL), q, v, a)
    q[1, 3:7] *= (1 + 1e-9) / np.linalg.norm(q[1, 3:7])
    pinref.rnea(MODEL, pinref.Data(MODEL), q, v, a)  # within UNIT_NORM_TOLERANCE


def test_unit_norm_messages_say_the_real_norm_and_a_zero_quaternion_is_not_told_to_normalize():
    q, v, a = _state()
    q[3:7] = [0.0, 0.0, 0.0, 2.0]
    with pytest.raises(errors.NotNormalizedError, match=r"'root_joint'.*norm 2 \(off 1 by 1,"):
        pinref.aba(MODEL, pinref.Data(MODEL), q, v, a)
    q[3:7] = 0.0
    with pytest.raises(errors.NotNormalizedError, match="norm 0") as info:
        pinref.aba(MODEL, pinref.Data(MODEL), q, v, a)
    assert "normalize(model" not in str(info.value) and "(0, 0, 0, 1)" in str(info.value)


def test_non_unit_cos_sin_pair():
    model = pinref.Model()
    model.addJoint(0, pinref.JointModelRUBZ(), pinref.SE3.Identity(), "wheel")
    model.appendBodyToJoint(1, pinref.Inertia.Random())
    with pytest.raises(errors.NotNormalizedError, match=r"'wheel'.*cos, sin\) pair of norm 0.707"):
        pinref.crba(model, pinref.Data(model), np.array([0.5, 0.5]))


def test_fext_of_wrong_length_or_type():
    q, v, a = _state()
    forces = [pinref.Force.Zero() for _ in range(MODEL.njoints)]
    with pytest.raises(errors.ShapeError, match="njoints = 4"):
        pinref.rnea(MODEL, pinref.Data(MODEL), q, v, a, forces[:-1])
    forces[2] = pin.Force.Zero()
    with pytest.raises(errors.ShapeError, match=r"fext\[2\]: expected a pinref.Force"):
        pinref.aba(MODEL, pinref.Data(MODEL), q, v, a, forces)
    with pytest.raises(errors.ShapeError, match="fext"):
        pinref.aba(MODEL, pinref.Data(MODEL), q, v, a, np.zeros((MODEL.njoints, 5)))


def test_mimic_joint_is_refused():
    with pytest.raises(errors.UnsupportedError, match="Mimic"):
        pinref.compare.from_pinocchio(pin.buildSampleModelManipulator(True))


CONVENTIONS = [pinref.Convention.LOCAL, pinref.Convention.WORLD]


@pytest.mark.parametrize("convention", CONVENTIONS, ids=str)
@pytest.mark.parametrize("joint", [pinref.JointModelRY, pinref.JointModelFreeFlyer])
def test_singular_joint_space_inertia_names_the_joint(joint, convention):
    model = pinref.Model()
    j1 = model.addJoint(0, pinref.JointModelRX(), pinref.SE3.Identity(), "shoulder")
    model.appendBodyToJoint(j1, pinref.Inertia.Random())
    model.addJoint(j1, joint(), pinref.SE3.Identity(), "massless_tip")
    q = np.concatenate(([0.3], model.joints[2].lie_group.neutral()))
    zero = np.zeros(model.nv)
    with pytest.raises(errors.NotPositiveDefiniteError, match="aba: joint 'massless_tip'"):
        pinref.aba(model, pinref.Data(model), q, zero, zero, convention=convention)
    with pytest.raises(ArithmeticError):
        pinref.aba(model, pinref.Data(model), q, zero, zero, convention=convention)


@pytest.mark.parametrize("convention", CONVENTIONS, ids=str)
def test_crba_refuses_a_tree_whose_subtrees_are_not_contiguous(convention):
    model = pinref.Model()
    a = model.addJoint(0, pinref.JointModelRX(), pinref.SE3.Identity(), "a")
    model.addJoint(0, pinref.JointModelRY(), pinref.SE3.Identity(), "b")
    model.addJoint(a, pinref.JointModelRZ(), pinref.SE3.Identity(), "a_child")
    for j in range(1, 4):
        model.appendBodyToJoint(j, pinref.Inertia.Random())
    with pytest.raises(errors.ModelError, match="subtree of joint 'a'.*depth-first"):
        pinref.crba(model, pinref.Data(model), np.zeros(3), convention=convention)
    pinref.aba(model, pinref.Data(model), np.zeros(3), np.zeros(3), np.zeros(3),
               convention=convention)


@pytest.mark.parametrize("call", ["rnea", "aba", "crba", "computeRNEADerivatives",
                                  "computeABADerivatives"])
def test_a_pinocchio_model_or_data_is_refused(call):
    q, v, a = _state()
    args = {"crba": (q,)}.get(call, (q, v, a))
    pm = pin.buildSampleModelManipulator(True)  # holds a mimic joint
    with pytest.raises(errors.UnsupportedError, match="pinref.from_pinocchio"):
        getattr(pinref, call)(pm, pm.createData(), *args)
    pt = pinref.to_pinocchio(MODEL)
    with pytest.raises(errors.UnsupportedError, match="model.createData"):
        getattr(pinref, call)(MODEL, pt.createData(), *args)


@pytest.mark.parametrize("armature", [np.full(8, np.nan), -np.ones(8)],
                         ids=["nan", "negative"])
def test_bad_armature_is_refused(armature):
    model = pinref.buildTutorialModel()
    model.armature = armature
    q, v, a = _state()
    with pytest.raises(errors.ShapeError, match="model.armature"):
        pinref.rnea(model, pinref.Data(model), q, v, a)


def test_armature_or_gravity_changed_in_place_after_a_call_is_refused():
    """The checked armature and gravity are remembered by their bytes: a change in place after
    a call that passed is checked again."""
    model = pinref.buildTutorialModel()
    data = pinref.Data(model)
    q, v, a = _state()
    pinref.rnea(model, data, q, v, a)
    model.armature[0] = -1.0
    with pytest.raises(errors.ShapeError, match="model.armature"):
        pinref.rnea(model, data, q, v, a)
    model.armature[0] = 0.0
    pinref.rnea(model, data, q, v, a)
    model.gravity.vector[2] = np.inf
    with pytest.raises(errors.NonFiniteError, match="model.gravity"):
        pinref.aba(model, data, q, v, a)


def test_fext_with_more_batch_axes_than_the_states_is_refused():
    q, v, a = _state((3,))
    with pytest.raises(errors.ShapeError, match=r"fext: its batch shape \(2, 3\)"):
        pinref.aba(MODEL, pinref.Data(MODEL), q, v, a, np.zeros((2, 3, MODEL.njoints, 6)))
    pinref.aba(MODEL, pinref.Data(MODEL), q, v, a, np.zeros((MODEL.njoints, 6)))


@pytest.mark.parametrize("convention", CONVENTIONS, ids=str)
def test_singular_block_leaves_nan_not_a_valid_looking_ddq(convention):
    model = pinref.Model()
    j1 = model.addJoint(0, pinref.JointModelRX(), pinref.SE3.Identity(), "shoulder")
    model.appendBodyToJoint(j1, pinref.Inertia.Random())
    model.addJoint(j1, pinref.JointModelRY(), pinref.SE3.Identity(), "massless_tip")
    data = pinref.Data(model)
    with pytest.raises(errors.NotPositiveDefiniteError):
        pinref.aba(model, data, np.zeros(2), np.zeros(2), np.zeros(2), convention=convention)
    assert np.all(np.isnan(data.ddq)) and np.all(np.isnan(data.u))


def test_singular_block_in_aba_derivatives_leaves_nan():
    model = pinref.Model()
    j1 = model.addJoint(0, pinref.JointModelRX(), pinref.SE3.Identity(), "shoulder")
    model.appendBodyToJoint(j1, pinref.Inertia.Random())
    model.addJoint(j1, pinref.JointModelRY(), pinref.SE3.Identity(), "massless_tip")
    data = pinref.Data(model)
    with pytest.raises(errors.NotPositiveDefiniteError, match="massless_tip"):
        pinref.computeABADerivatives(model, data, np.zeros(2), np.zeros(2), np.ones(2))
    assert np.all(np.isnan(data.ddq)) and np.all(np.isnan(data.u))
