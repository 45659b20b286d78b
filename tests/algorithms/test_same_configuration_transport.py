"""isSameConfiguration, dIntegrateTransport and ArgumentPosition against Pinocchio 3.8.0.

pinref runs once on a batch, pin once per state; booleans must be equal, arrays agree at
``1e-12 * max(1, max|ref|)``. The isSameConfiguration pairs are built so that every joint's
rule decides the answer somewhere: one joint moved at a time by steps around the precision,
quaternions negated, a joint at exactly 0 against a tiny value.
"""

import numpy as np
import pinocchio as pin
import pytest

import pinref
from conftest import assert_close
from models import build, random_states
from pinref.errors import (ModelError, NonFiniteError, NotNormalizedError, ShapeError,
                           UnsupportedError)
from test_joint_configuration import case  # noqa: F401  (the fixture, used by name)

PRECISIONS = [0.0, 1e-12, 1e-8, 1e-5, 1e-2, 0.5]


def _same_as_pin(rmodel, pmodel, batch, q1, q2, prec, what):
    got = pinref.isSameConfiguration(rmodel, q1, q2, prec)
    assert np.shape(got) == batch, f"{what}: shape {np.shape(got)}"
    for idx in np.ndindex(*batch):
        ref = pin.isSameConfiguration(pmodel, q1[idx], q2[idx], prec)
        assert bool(np.asarray(got)[idx]) == ref, f"{what}, prec {prec}, state {idx}: pin {ref}"


def test_is_same_configuration_of_random_and_equal_pairs(case):
    rmodel, pmodel, batch, q1, q2, _, _ = case
    for prec in PRECISIONS:
        _same_as_pin(rmodel, pmodel, batch, q1, q1, prec, "q1 vs q1")
        _same_as_pin(rmodel, pmodel, batch, q1, q2, prec, "q1 vs q2")
    assert np.all(pinref.isSameConfiguration(rmodel, q1, q1, 0.0))


def test_is_same_configuration_one_joint_moved(case):
    """Each joint moved alone by integrate(q1, eps v) on its dofs: the joint's own rule
    (isApprox, SE(2)/SE(3) parts, quaternion sign) decides, at precisions around eps."""
    rmodel, pmodel, batch, q1, _, v, _ = case
    steps = (1e-10, 1e-6, 1e-3, 0.5)
    # leading axes (joint, step): every moved configuration in one batch
    dv = np.zeros((rmodel.njoints - 1, len(steps)) + v.shape)
    for k, jmodel in enumerate(rmodel.joints[1:]):
        for e, eps in enumerate(steps):
            dv[k, e][..., jmodel.v_slice] = eps * v[..., jmodel.v_slice]
    q2 = pinref.integrate(rmodel, q1, dv)
    q1 = np.broadcast_to(q1, q2.shape)
    for prec in PRECISIONS:
        _same_as_pin(rmodel, pmodel, q2.shape[:-1], q1, q2, prec, "one joint moved (joint, step"
                     ", state)")


def test_is_same_configuration_negated_rotations_and_zeros(case):
    rmodel, pmodel, batch, q1, _, _, _ = case
    flipped = q1.copy()
    for jmodel in rmodel.joints[1:]:
        unit = jmodel.lie_group.unit
        if unit is not None:
            seg = slice(jmodel.idx_q + unit.start, jmodel.idx_q + unit.stop)
            flipped[..., seg] = -flipped[..., seg]
    # -quat is the same rotation (SO(3), SE(3)); -(cos, sin) is another one (SO(2), SE(2))
    for prec in PRECISIONS:
        _same_as_pin(rmodel, pmodel, batch, q1, flipped, prec, "rotations negated")
    zero = np.broadcast_to(pinref.neutral(rmodel), q1.shape).copy()
    tiny = zero.copy()
    first = rmodel.joints[1]
    tiny[..., first.idx_q] += 1e-20
    # relative: a segment at exactly 0 matches only 0
    for prec in PRECISIONS:
        _same_as_pin(rmodel, pmodel, batch, zero, tiny, prec, "0 vs 1e-20")
        _same_as_pin(rmodel, pmodel, batch, zero, zero, prec, "0 vs 0")


def test_is_same_configuration_broadcasts_and_takes_columns():
    rmodel, pmodel = build("humanoid")
    rng = np.random.default_rng(3)
    q1, _, _ = random_states(pmodel, (4,), rng)
    got = pinref.isSameConfiguration(rmodel, q1, q1[2], 1e-8)
    assert got.shape == (4,) and list(got) == [k == 2 for k in range(4)]
    column = q1[0].reshape(-1, 1)
    assert pinref.isSameConfiguration(rmodel, column, q1[0], 1e-12) == \
        pin.isSameConfiguration(pmodel, column, q1[0], 1e-12)
    assert type(pinref.isSameConfiguration(rmodel, q1[0], q1[0], 1e-12)) in (bool, np.bool_)


def test_is_same_configuration_refusals():
    rmodel, pmodel = build("humanoid")
    q = pinref.neutral(rmodel)
    with pytest.raises(ValueError, match="precision should be positive"):
        pin.isSameConfiguration(pmodel, q, q, -1.0)
    for prec in (-1.0, float("nan")):
        with pytest.raises(ModelError, match="prec must be a number >= 0"):
            pinref.isSameConfiguration(rmodel, q, q, prec)
    with pytest.raises(ShapeError, match="q2"):
        pinref.isSameConfiguration(rmodel, q, q[:-1], 1e-8)
    with pytest.raises(ShapeError, match="do not broadcast"):
        pinref.isSameConfiguration(rmodel, np.stack([q] * 2), np.stack([q] * 3), 1e-8)
    twice = q.copy()
    twice[3:7] *= 2
    with pytest.raises(NotNormalizedError, match="root_joint"):
        pinref.isSameConfiguration(rmodel, q, twice, 1e-8)
    with pytest.raises(TypeError):
        pinref.isSameConfiguration(rmodel, q, q)  # prec is required, as in pin's Python API


def test_lie_group_is_same_configuration_matches_the_model_level():
    """The joints' spaces directly: SE(3) as R^3 x SO(3), SO(3) up to sign, SE(2) by parts."""
    lg = pinref.joints.liegroup
    se3, so3 = lg.SpecialEuclidean3(), lg.SpecialOrthogonal3()
    se2, so2 = lg.SpecialEuclidean2(), lg.SpecialOrthogonal2()
    quat = np.array([0.5, -0.5, 0.5, 0.5])
    assert so3.is_same_configuration(quat, -quat, 0.0)
    assert se3.is_same_configuration(np.r_[1.0, 2.0, 3.0, quat], np.r_[1.0, 2.0, 3.0, -quat], 0.0)
    assert not se3.is_same_configuration(np.r_[0.0, 0.0, 0.0, quat], np.r_[1e-20, 0, 0, quat], 0.5)
    cs = np.array([0.6, 0.8])
    assert not so2.is_same_configuration(cs, -cs, 1e-3)
    assert not se2.is_same_configuration(np.r_[0.0, 0.0, cs], np.r_[1e-20, 0.0, cs], 0.5)
    assert se2.is_same_configuration(np.r_[1.0, 1.0, cs], np.r_[1.0, 1.0 + 1e-9, cs], 1e-6)
    got = so3.is_same_configuration(np.stack([quat, -quat, [0, 0, 0, 1.0]]), quat, 1e-12)
    assert list(got) == [True, True, False]


def test_dintegrate_transport_matches_pin(case):
    rmodel, pmodel, batch, q, _, v, rng = case
    for arg in (pinref.ARG0, pinref.ARG1, 0, 1):
        parg = pin.ArgumentPosition(int(arg))
        mats = rng.normal(size=batch + (rmodel.nv, 3))
        vecs = rng.normal(size=batch + (rmodel.nv,))
        got_m = pinref.dIntegrateTransport(rmodel, q, v, mats, arg)
        got_v = pinref.dIntegrateTransport(rmodel, q, v, vecs, arg)
        assert got_m.shape == mats.shape and got_v.shape == vecs.shape
        for idx in np.ndindex(*batch):
            ref_m = pin.dIntegrateTransport(pmodel, q[idx], v[idx], mats[idx], parg)
            ref_v = pin.dIntegrateTransport(pmodel, q[idx], v[idx], vecs[idx], parg)
            assert_close(got_m[idx], ref_m, what=f"matrix Jin, {arg}, state {idx}")
            assert_close(got_v[idx], ref_v, what=f"vector Jin, {arg}, state {idx}")
        # one matrix for every state of the batch (size-1 batch axes)
        shared = rng.normal(size=(1,) * len(batch) + (rmodel.nv, 2))
        got_s = pinref.dIntegrateTransport(rmodel, q, v, shared, arg)
        assert got_s.shape == batch + (rmodel.nv, 2)
        for idx in np.ndindex(*batch):
            ref = pin.dIntegrateTransport(pmodel, q[idx], v[idx], shared[(0,) * len(batch)],
                                          parg)
            assert_close(got_s[idx], ref, what=f"shared Jin, {arg}, state {idx}")


def test_dintegrate_transport_pin_unit_test_identity(case):
    """bindings_joint_algorithms::test_transport: dIntegrateTransport(J, arg) equals
    dIntegrate(arg) J, with pin's dIntegrate as the reference."""
    rmodel, pmodel, batch, q, _, v, rng = case
    mat = rng.normal(size=batch + (rmodel.nv, 2))
    for arg in (0, 1):
        got = pinref.dIntegrateTransport(rmodel, q, v, mat, arg)
        for idx in np.ndindex(*batch):
            J = pin.dIntegrate(pmodel, q[idx], v[idx], pin.ArgumentPosition(arg))
            assert_close(got[idx], J @ mat[idx], what=f"arg {arg}, state {idx}")


def test_dintegrate_transport_unbatched_shapes_as_pin():
    rmodel, pmodel = build("humanoid")
    rng = np.random.default_rng(7)
    q, v, _ = random_states(pmodel, (), rng)
    for J in (rng.normal(size=rmodel.nv), rng.normal(size=(rmodel.nv, 1)),
              rng.normal(size=(rmodel.nv, rmodel.nv))):
        got = pinref.dIntegrateTransport(rmodel, q, v, J, pinref.ARG0)
        ref = pin.dIntegrateTransport(pmodel, q, v, J, pin.ARG0)
        assert got.shape == ref.shape, f"Jin {J.shape}: {got.shape} != pin's {ref.shape}"
        assert_close(got, ref, what=f"Jin {J.shape}")
    column_q = q.reshape(-1, 1)
    assert_close(pinref.dIntegrateTransport(rmodel, column_q, v, np.eye(rmodel.nv), 1),
                 pin.dIntegrateTransport(pmodel, column_q, v, np.eye(rmodel.nv), pin.ARG1))


def test_dintegrate_transport_refusals():
    rmodel, _ = build("humanoid")
    q, v = pinref.neutral(rmodel), np.zeros(rmodel.nv)
    J = np.ones((rmodel.nv, 2))
    for arg in (pinref.ARG2, pinref.ARG4, 5, "x", None):
        with pytest.raises(UnsupportedError, match="ARG0 or ARG1"):
            pinref.dIntegrateTransport(rmodel, q, v, J, arg)
    with pytest.raises(ShapeError, match="Jin: expected 34 rows"):
        pinref.dIntegrateTransport(rmodel, q, v, np.ones((rmodel.nv + 1, 2)), 0)
    with pytest.raises(ShapeError, match="Jin"):
        pinref.dIntegrateTransport(rmodel, q, v, np.ones(rmodel.nv + 1), 0)
    with pytest.raises(ShapeError, match="does not broadcast"):
        pinref.dIntegrateTransport(rmodel, np.stack([q] * 2), v, np.ones((3, rmodel.nv, 2)), 0)
    bad = J.copy()
    bad[0, 0] = np.nan
    with pytest.raises(NonFiniteError, match="Jin"):
        pinref.dIntegrateTransport(rmodel, q, v, bad, 0)
    with pytest.raises(TypeError):
        pinref.dIntegrateTransport(rmodel, q, v, J)  # arg is required, as in pin's Python API


def test_argument_position_as_pin():
    assert [m.name for m in pinref.ArgumentPosition] == list(pin.ArgumentPosition.names)
    assert [int(m) for m in pinref.ArgumentPosition] == list(pin.ArgumentPosition.values)
    for name in pin.ArgumentPosition.names:
        ours, theirs = getattr(pinref, name), getattr(pin, name)
        assert str(ours) == str(theirs) == name
        assert ours == int(theirs) and ours is getattr(pinref.ArgumentPosition, name)
        assert repr(ours) == f"pinref.ArgumentPosition.{name}"
    rmodel, pmodel = build("tutorial")
    q, v = pinref.neutral(rmodel), np.ones(rmodel.nv)
    with pytest.raises(UnsupportedError, match="ARG0 or ARG1"):
        pinref.dIntegrate(rmodel, q, v, pinref.ARG2)
    with pytest.raises(UnsupportedError, match="ARG0 or ARG1"):
        pinref.dDifference(rmodel, q, q, pinref.ARG3)
