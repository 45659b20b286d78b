"""Bad input to the joint models raises a typed pinref error that names the joint
(design.md §5), and leaves no half-written result behind."""

import pickle
import warnings

import numpy as np
import pytest

import pinref
from pinref.errors import (AxisWarning, ModelError, NonFiniteError, NotPositiveDefiniteError,
                           PinrefError, ShapeError)
from pinref.joints import JOINT_TYPES

IDS = [factory().shortname() for factory in JOINT_TYPES]
UNALIGNED = ["JointModelRevoluteUnaligned", "JointModelRevoluteUnboundedUnaligned",
             "JointModelPrismaticUnaligned", "JointModelHelicalUnaligned"]


def placed(factory, id=7):
    jm = factory()
    jm.setIndexes(id, 0, 0)
    return jm


# --- constructors ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", UNALIGNED)
@pytest.mark.parametrize("axis, error", [([0.0, 0.0, 0.0], ModelError),
                                         ([np.nan, 0.0, 1.0], NonFiniteError),
                                         ([1.0, np.inf, 0.0], NonFiniteError),
                                         ([1.0, 0.0], ShapeError)],
                         ids=["zero", "nan", "inf", "two-entries"])
def test_bad_axis_vector(name, axis, error):
    cls = getattr(pinref, name)
    with pytest.raises(error, match=name) as info:
        cls(np.array(axis))
    assert isinstance(info.value, (PinrefError, ValueError))
    assert "axis" in str(info.value)


@pytest.mark.parametrize("name", UNALIGNED)
@pytest.mark.parametrize("xyz, error", [((0.0, 0.0, 0.0), ModelError),
                                        ((0.0, np.nan, 1.0), NonFiniteError)], ids=["zero", "nan"])
def test_bad_axis_scalars(name, xyz, error):
    cls = getattr(pinref, name)
    args = xyz + (0.1,) if name == "JointModelHelicalUnaligned" else xyz
    with pytest.raises(error, match=name):
        cls(*args)


def test_bad_axis_assignment_keeps_the_old_axis():
    jm = pinref.JointModelRevoluteUnaligned(0.0, 0.0, 1.0)
    with pytest.raises(ModelError, match="JointModelRevoluteUnaligned"):
        jm.axis = [0.0, 0.0, 0.0]
    assert np.array_equal(jm.axis, [0.0, 0.0, 1.0])


@pytest.mark.parametrize("which", ["axis1", "axis2"])
@pytest.mark.parametrize("bad, error", [([0.0, 0.0, 0.0], ModelError),
                                        ([0.0, np.nan, 0.0], NonFiniteError)], ids=["zero", "nan"])
def test_bad_universal_axes(which, bad, error):
    axes = {"axis1": [1.0, 0.0, 0.0], "axis2": [0.0, 1.0, 0.0]}
    axes[which] = bad
    with pytest.raises(error, match=f"JointModelUniversal.*{which}"):
        pinref.JointModelUniversal(np.array(axes["axis1"]), np.array(axes["axis2"]))


@pytest.mark.parametrize("cls", [pinref.JointModelHX, pinref.JointModelHelicalUnaligned])
def test_non_finite_pitch(cls):
    args = (np.nan,) if cls is pinref.JointModelHX else (np.array([0.0, 0.0, 1.0]), np.inf)
    with pytest.raises(NonFiniteError, match=f"{cls.__name__}.*pitch"):
        cls(*args)


def test_wrong_number_of_constructor_arguments():
    with pytest.raises(ShapeError, match="JointModelRevoluteUnaligned"):
        pinref.JointModelRevoluteUnaligned(1.0, 2.0)
    with pytest.raises(ShapeError, match="JointModelHelicalUnaligned"):
        pinref.JointModelHelicalUnaligned(1.0, 2.0, 3.0)
    with pytest.raises(ShapeError, match="JointModelUniversal"):
        pinref.JointModelUniversal(np.array([1.0, 0.0, 0.0]))


# --- calc: q and v of the wrong size ----------------------------------------------------------

@pytest.mark.parametrize("factory", JOINT_TYPES, ids=IDS)
def test_q_too_short(factory):
    jm = factory()
    jm.setIndexes(3, 2, 1)  # the joint reads q[2:2+nq], v[1:1+nv]
    jd = jm.createData()
    with pytest.raises(ShapeError, match=f"joint 3 \\({jm.shortname()}\\): q has shape") as info:
        jm.calc(jd, np.zeros(2 + jm.nq - 1), np.zeros(1 + jm.nv))
    assert isinstance(info.value, ValueError)
    with pytest.raises(ShapeError, match=jm.shortname()):
        jm.calc(jd, np.zeros((4, 2 + jm.nq - 1)))
    with pytest.raises(ShapeError, match=jm.shortname()):
        jm.calc(jd, np.float64(0.3))


@pytest.mark.parametrize("factory", JOINT_TYPES, ids=IDS)
def test_own_segment_is_too_short_when_the_joint_sits_further_in_q(factory):
    """calc reads q[..., idx_q:idx_q + nq] of a model-sized q: a q of exactly nq entries is too
    short for a joint placed at idx_q > 0 (and a v of nv entries at idx_v > 0), batched too;
    nothing is written."""
    jm = factory()
    jm.setIndexes(5, 1, 2)
    jd = jm.createData()
    M0, q0, v0 = jd.M, jd.joint_q, jd.joint_v
    own_q, own_v = jm.neutral(), np.zeros(jm.nv)
    with pytest.raises(ShapeError, match=f"joint 5 \\({jm.shortname()}\\): q has shape "
                                         f"\\({jm.nq},\\).*q\\[\\.\\.\\., 1:{1 + jm.nq}\\]"):
        jm.calc(jd, own_q, np.zeros(2 + jm.nv))
    with pytest.raises(ShapeError, match=f"joint 5 \\({jm.shortname()}\\): v has shape"):
        jm.calc(jd, np.concatenate(([0.0], own_q)), own_v)
    with pytest.raises(ShapeError, match=f"joint 5 \\({jm.shortname()}\\): q has shape"):
        jm.calc(jd, np.broadcast_to(own_q, (2, 3, jm.nq)))
    assert jd.M is M0 and jd.joint_q is q0 and jd.joint_v is v0


@pytest.mark.parametrize("factory", JOINT_TYPES, ids=IDS)
def test_a_longer_q_is_read_through_idx_q_only(factory):
    """Entries of q and v outside the joint's segments are not read (NaN there changes
    nothing): the joint at idx_q = 1, idx_v = 2 gives what the same joint at 0, 0 gives on its
    own segments."""
    rng = np.random.default_rng(3)
    at_zero, jm = placed(factory), factory()
    jm.setIndexes(7, 1, 2)
    own_q = at_zero.integrate(at_zero.neutral(), rng.normal(size=at_zero.nv))
    own_v = rng.normal(size=jm.nv)
    q = np.concatenate(([np.nan], own_q, [np.nan, np.nan]))
    v = np.concatenate(([np.nan, np.nan], own_v, [np.nan]))
    jd, ref = jm.createData(), at_zero.createData()
    jm.calc(jd, q, v)
    at_zero.calc(ref, own_q, own_v)
    assert np.array_equal(jd.M.homogeneous, ref.M.homogeneous)
    assert np.array_equal(jd.v.vector, ref.v.vector) and np.array_equal(jd.c.vector, ref.c.vector)
    assert np.array_equal(jd.S, ref.S)
    assert np.array_equal(jd.joint_q, own_q) and np.array_equal(jd.joint_v, ref.joint_v)


@pytest.mark.parametrize("factory", JOINT_TYPES, ids=IDS)
def test_v_too_short_writes_nothing(factory):
    jm = placed(factory)
    jd = jm.createData()
    M0, q0 = jd.M, jd.joint_q
    with pytest.raises(ShapeError, match=f"{jm.shortname()}\\): v has shape"):
        jm.calc(jd, jm.neutral(), np.zeros(jm.nv - 1))
    assert jd.M is M0 and jd.joint_q is q0


def test_q_that_is_not_an_array():
    jm = placed(pinref.JointModelRX)
    with pytest.raises(ShapeError, match="JointModelRX"):
        jm.calc(jm.createData(), [[0.1], [0.2, 0.3]])


# --- calc_aba: a block that is not positive definite ------------------------------------------

def _calc_aba_fails(jm, I, armature):
    jd = jm.createData()
    jm.calc(jd, np.broadcast_to(jm.neutral(), I.shape[:-2] + (jm.nq,)), None)
    fields = (jd.U, jd.StU, jd.Dinv, jd.UDinv)
    I_before = I.copy()
    with pytest.raises(NotPositiveDefiniteError, match=f"joint 7 \\({jm.shortname()}\\)") as info:
        jm.calc_aba(jd, armature, I, True)
    assert isinstance(info.value, ArithmeticError) and isinstance(info.value, PinrefError)
    assert info.value.joint_id == 7
    copy = pickle.loads(pickle.dumps(info.value))  # as the diff's workers send it back
    assert (type(copy), copy.args, copy.joint_id) == (type(info.value), info.value.args, 7)
    assert all(a is b for a, b in zip(fields, (jd.U, jd.StU, jd.Dinv, jd.UDinv)))
    assert np.array_equal(I, I_before, equal_nan=True)
    return info.value


@pytest.mark.parametrize("factory", JOINT_TYPES, ids=IDS)
def test_negative_definite_block(factory):
    jm = placed(factory)
    _calc_aba_fails(jm, -np.eye(6), np.zeros(jm.nv))


@pytest.mark.parametrize("factory", JOINT_TYPES, ids=IDS)
def test_zero_block_without_armature(factory):
    jm = placed(factory)
    _calc_aba_fails(jm, np.zeros((6, 6)), np.zeros(jm.nv))


@pytest.mark.parametrize("factory", JOINT_TYPES, ids=IDS)
def test_nan_block(factory):
    jm = placed(factory)
    _calc_aba_fails(jm, np.full((6, 6), np.nan), np.zeros(jm.nv))


@pytest.mark.parametrize("factory", JOINT_TYPES, ids=IDS)
def test_one_bad_state_in_a_batch_is_located(factory):
    jm = placed(factory)
    I = np.broadcast_to(np.eye(6), (2, 3, 6, 6)).copy()
    I[1, 2] = -np.eye(6)
    err = _calc_aba_fails(jm, I, np.zeros(jm.nv))
    assert "batch index (1, 2)" in str(err)


def test_armature_can_make_the_block_positive_definite():
    jm = placed(pinref.JointModelSpherical)
    jd = jm.createData()
    jm.calc(jd, jm.neutral())
    jm.calc_aba(jd, np.full(3, 1.0), np.zeros((6, 6)), True)
    assert np.allclose(jd.Dinv, np.eye(3))


# --- an axis kept as given that is not of unit length -------------------------------------------


@pytest.mark.parametrize("name", ["JointModelRevoluteUnaligned",
                                  "JointModelRevoluteUnboundedUnaligned",
                                  "JointModelHelicalUnaligned"])
def test_a_rotation_axis_not_of_unit_length_warns(name):
    with pytest.warns(AxisWarning, match=rf"{name}: axis \[0.0, 0.0, -2.0\] has length 2.*"
                                         r"Pass a unit axis"):
        getattr(pinref, name)(np.array([0.0, 0.0, -2.0]))


def test_unit_axes_and_a_scaled_prismatic_axis_are_silent():
    """(x, y, z) is normalised; a prismatic joint's long axis scales its d and nothing else."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pinref.JointModelRevoluteUnaligned(np.array([0.0, 0.6, 0.8]))
        pinref.JointModelRevoluteUnaligned(0.0, 0.0, -2.0)
        pinref.JointModelPrismaticUnaligned(np.array([0.0, 0.0, -2.0]))


def test_why_a_long_rotation_axis_warns():
    """On a joint about a long axis, Pinocchio 3.8.0's crba is not the M its own rnea implies
    (its inertia action, Symmetric3::rotate, assumes a rotation). pinref computes what Pinocchio
    computes for any rotation matrix (tests/algorithms/test_near_unit_rotations.py), so its
    crba is Pinocchio's, and not rnea's M either."""
    import pinocchio as pin

    model = pinref.buildSampleModelManipulator()
    old = model.joints[3]
    with pytest.warns(AxisWarning):
        model.joints[3] = pinref.JointModelRevoluteUnaligned(np.array([0.0, 0.0, -2.0]))
    model.joints[3].setIndexes(3, old.idx_q, old.idx_v)
    pm = pinref.to_pinocchio(model)
    pd = pm.createData()
    q, zero = np.linspace(-1.0, 1.0, model.nv), np.zeros(model.nv)
    g = pin.rnea(pm, pd, q, zero, zero).copy()
    M_rnea = np.stack([pin.rnea(pm, pd, q, zero, e) - g for e in np.eye(model.nv)], axis=1)
    M_pin = pin.crba(pm, pd, q).copy()
    assert np.abs(M_pin - M_rnea).max() > 0.1
    M = pinref.crba(model, model.createData(), q)
    assert np.abs(M - M_pin).max() < 1e-12 * np.abs(M_pin).max()
    assert np.abs(pinref.rnea(model, model.createData(), q, zero, zero) - g).max() < 1e-12
