"""The joints' configuration spaces (pinref.joints.liegroup) against Pinocchio 3.8.0.

For each space a one-joint pin model with a joint type that uses it is the oracle:
pin.integrate, difference, interpolate, neutral, normalize, isNormalized, dIntegrate and
dDifference (ARG0 / ARG1), on normalized configurations from pin.randomConfiguration and random
tangent vectors, at batch shapes (), (5,) and (2, 3), state by state, with the project tolerance
``1e-12 * max(1, max|ref|)``. Edge cases: the SE(3)/SO(3) quaternion sign (q1 = -q0, relative
angles near pi, integration past pi), the SO(2) interpolation thresholds (|theta| < 1e-6 and
> pi - 1e-6), SE(2)'s small-angle branches, and bad input. Every joint type of
pinref.joints.JOINT_TYPES is also checked through its own methods (jm.integrate, ...) against
pin's model-level functions on a one-joint model of that type, at the same shapes and tolerance.
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close, assert_close_each
from models import pin_joint_like

import pinref
from pinref.errors import (NonFiniteError, NotNormalizedError, PinrefError, ShapeError,
                           UnsupportedError)
from pinref.joints import JOINT_TYPES
from pinref.joints import liegroup as L

SHAPES = [(), (5,), (2, 3)]
BOUND = 3.0
SPACES = {
    "SE3": (pin.JointModelFreeFlyer, L.SpecialEuclidean3()),
    "SO3": (pin.JointModelSpherical, L.SpecialOrthogonal3()),
    "SO2": (pin.JointModelRUBZ, L.SpecialOrthogonal2()),
    "SO2-RUBX": (pin.JointModelRUBX, L.SpecialOrthogonal2()),
    "SE2": (pin.JointModelPlanar, L.SpecialEuclidean2()),
    "R1": (pin.JointModelRX, L.VectorSpace(1)),
    "R3": (pin.JointModelTranslation, L.VectorSpace(3)),
    "R3-SphericalZYX": (pin.JointModelSphericalZYX, L.VectorSpace(3)),
}
NAMES = list(SPACES)


def one_joint_model(name):
    factory, _ = SPACES[name]
    model = pin.Model()
    model.addJoint(0, factory(), pin.SE3.Identity(), "joint")
    model.lowerPositionLimit[:] = -BOUND
    model.upperPositionLimit[:] = BOUND
    return model


def pin_configurations(model, batch):
    return np.stack([pin.randomConfiguration(model) for _ in np.ndindex(*batch)]).reshape(
        tuple(batch) + (model.nq,))


def tangents(rng, nv, batch):
    scale = rng.choice([1e-9, 1e-5, 1.0, 3.0], tuple(batch) + (1,))
    return rng.normal(size=tuple(batch) + (nv,)) * scale


def reference(fn, batch, *arrays):
    """``fn(*states)`` for every state of the batch, the ``(..., n)`` arrays broadcast, stacked."""
    arrays = [np.broadcast_to(a, tuple(batch) + a.shape[-1:]) for a in arrays]
    outs = [np.asarray(fn(*(a[idx] for a in arrays)), dtype=float) for idx in np.ndindex(*batch)]
    return np.stack(outs).reshape(tuple(batch) + outs[0].shape)


def check_integrate_difference_interpolate(space, model, q0, q1, v, u, batch):
    """``space`` (a Lie group or a joint model) against pin's integrate, difference and
    interpolate on ``model``, state by state; interpolate at the per-state ``u`` and at 0, 1/4
    and 1."""
    assert_close_each(space.integrate(q0, v),
                      reference(lambda a, b: pin.integrate(model, a, b), batch, q0, v), batch,
                      what="integrate")
    assert_close_each(space.difference(q0, q1),
                      reference(lambda a, b: pin.difference(model, a, b), batch, q0, q1), batch,
                      what="difference")
    ref = np.stack([pin.interpolate(model, q0[i], q1[i], u[i]) for i in np.ndindex(*batch)])
    assert_close_each(space.interpolate(q0, q1, u), ref.reshape(q0.shape), batch,
                      what="interpolate")
    for s in (0.0, 0.25, 1.0):
        ref = reference(lambda a, b: pin.interpolate(model, a, b, s), batch, q0, q1)
        assert_close_each(space.interpolate(q0, q1, s), ref, batch, what=f"interpolate u={s}")


def check_jacobians(space, model, q0, q1, v, batch):
    """``space`` against pin's dIntegrate and dDifference on ``model``, ARG0 and ARG1 (given as
    L.ARG0 and 1), state by state."""
    for pin_arg, arg in ((pin.ArgumentPosition.ARG0, L.ARG0), (pin.ArgumentPosition.ARG1, 1)):
        ref = reference(lambda a, b: pin.dIntegrate(model, a, b, pin_arg), batch, q0, v)
        assert_close_each(space.dIntegrate(q0, v, arg), ref, batch, what=f"dIntegrate {arg}")
        ref = reference(lambda a, b: pin.dDifference(model, a, b, pin_arg), batch, q0, q1)
        assert_close_each(space.dDifference(q0, q1, arg), ref, batch, what=f"dDifference {arg}")


@pytest.fixture(autouse=True)
def _seed_pin():
    pin.seed(20240607)


# --- against pin, at batch shapes --------------------------------------------------------


@pytest.mark.parametrize("batch", SHAPES, ids=str)
@pytest.mark.parametrize("name", NAMES)
def test_integrate_difference_interpolate_match_pin(name, batch, rng):
    model, lg = one_joint_model(name), SPACES[name][1]
    q0, q1 = pin_configurations(model, batch), pin_configurations(model, batch)
    v = tangents(rng, model.nv, batch)
    u = rng.uniform(0, 1, batch)
    check_integrate_difference_interpolate(lg, model, q0, q1, v, u, batch)


@pytest.mark.parametrize("batch", SHAPES, ids=str)
@pytest.mark.parametrize("name", NAMES)
def test_jacobians_match_pin(name, batch, rng):
    model, lg = one_joint_model(name), SPACES[name][1]
    q0, q1 = pin_configurations(model, batch), pin_configurations(model, batch)
    v = tangents(rng, model.nv, batch)
    check_jacobians(lg, model, q0, q1, v, batch)
    for pin_arg in (pin.ArgumentPosition.ARG0, pin.ArgumentPosition.ARG1):
        ref = reference(lambda a, b: pin.dIntegrate(model, a, b, pin_arg), batch, q0, v)
        assert_close_each(lg.dIntegrate(q0, v, pin_arg), ref, batch, what="dIntegrate pin arg")


@pytest.mark.parametrize("batch", SHAPES, ids=str)
@pytest.mark.parametrize("name", NAMES)
def test_neutral_normalize_is_normalized_match_pin(name, batch, rng):
    model, lg = one_joint_model(name), SPACES[name][1]
    assert_close(lg.neutral(), pin.neutral(model), what="neutral")
    assert lg.neutral().shape == (lg.nq,) and (lg.nq, lg.nv) == (model.nq, model.nv)
    q = pin_configurations(model, batch) * rng.uniform(0.5, 2.0, tuple(batch) + (1,))
    assert_close_each(lg.normalize(q), reference(lambda a: pin.normalize(model, a), batch, q),
                      batch, what="normalize")
    for x in (q, lg.normalize(q), pin_configurations(model, batch)):
        for prec in (1e-12, 1e-3, 10.0):
            ref = np.array([pin.isNormalized(model, x[i], prec) for i in np.ndindex(*batch)])
            got = lg.is_normalized(x, prec) if prec != 1e-12 else lg.is_normalized(x)
            assert np.shape(got) == batch
            assert np.array_equal(np.reshape(got, -1), ref)


def test_arguments_broadcast_over_batch_axes(rng):
    model, lg = one_joint_model("SE3"), L.SpecialEuclidean3()
    q = pin_configurations(model, (5,))
    v = tangents(rng, 6, ())
    ref = reference(lambda a, b: pin.integrate(model, a, b), (5,), q, v)
    assert_close_each(lg.integrate(q, v), ref, (5,), what="integrate (5,) x ()")
    q1 = pin_configurations(model, (2, 1))
    ref = reference(lambda a, b: pin.difference(model, a, b), (2, 5), q, q1)
    assert_close_each(lg.difference(q, q1), ref, (2, 5), what="difference (5,) x (2, 1)")
    J = lg.dIntegrate(q[0], rng.normal(size=(3, 6)), L.ARG1)
    assert J.shape == (3, 6, 6)


def test_joint_models_delegate_to_their_lie_group(rng):
    jm = pinref.JointModelFreeFlyer()
    model = one_joint_model("SE3")
    q0, q1 = pin_configurations(model, (4,)), pin_configurations(model, (4,))
    v = tangents(rng, 6, (4,))
    assert jm.lie_group == L.SpecialEuclidean3()
    assert_close_each(jm.integrate(q0, v), L.SpecialEuclidean3().integrate(q0, v), (4,))
    assert_close_each(jm.dDifference(q0, q1, pin.ArgumentPosition.ARG0),
                      reference(lambda a, b: pin.dDifference(model, a, b,
                                                             pin.ArgumentPosition.ARG0),
                                (4,), q0, q1), (4,))


# --- every joint type, through the joint's own methods ------------------------------------

JOINT_NAMES = [factory().shortname() for factory in JOINT_TYPES]


def joint_pair(factory):
    """(pinref joint at idx_q = idx_v = 0, one-joint pin model of the same type and arguments).

    pin.JointModelRevoluteUnboundedUnaligned takes no axis in Python: that type is built about
    x on both sides (its configuration space, SO(2), does not depend on the axis)."""
    jm = factory()
    name = jm.shortname()
    if name == "JointModelRevoluteUnboundedUnaligned":
        jm = pinref.JointModelRevoluteUnboundedUnaligned(np.array([1.0, 0.0, 0.0]))
    pj = pin_joint_like(jm)
    jm.setIndexes(1, 0, 0)
    model = pin.Model()
    model.addJoint(0, pj, pin.SE3.Identity(), "joint")
    model.lowerPositionLimit[:] = -BOUND
    model.upperPositionLimit[:] = BOUND
    assert model.joints[1].shortname() == name and (model.nq, model.nv) == (jm.nq, jm.nv)
    return jm, model


@pytest.mark.parametrize("batch", SHAPES, ids=str)
@pytest.mark.parametrize("factory", JOINT_TYPES, ids=JOINT_NAMES)
def test_every_joint_type_configuration_space_matches_pin(factory, batch, rng):
    """integrate, difference, interpolate, neutral, normalize, is_normalized, dIntegrate and
    dDifference (ARG0, ARG1) of each joint type, called on the joint model, against pin's
    model-level functions on a one-joint model of that type."""
    jm, model = joint_pair(factory)
    q0, q1 = pin_configurations(model, batch), pin_configurations(model, batch)
    v = tangents(rng, jm.nv, batch)
    u = rng.uniform(0, 1, batch)
    assert_close(jm.neutral(), pin.neutral(model), what="neutral")
    assert jm.neutral().shape == (jm.nq,)
    check_integrate_difference_interpolate(jm, model, q0, q1, v, u, batch)
    scaled = q0 * rng.uniform(0.5, 2.0, tuple(batch) + (1,))
    assert_close_each(jm.normalize(scaled),
                      reference(lambda a: pin.normalize(model, a), batch, scaled), batch,
                      what="normalize")
    for x in (q0, scaled):
        ref = np.array([pin.isNormalized(model, x[i]) for i in np.ndindex(*batch)])
        assert np.array_equal(np.reshape(jm.is_normalized(x), -1), ref)
    check_jacobians(jm, model, q0, q1, v, batch)


def test_every_joint_type_is_covered_and_delegates():
    """Each joint type's space is one of the 8 compared above, and the joint methods give the
    same bits as its lie_group's."""
    spaces = {type(lg) for _, lg in SPACES.values()}
    rng = np.random.default_rng(9)
    for factory in JOINT_TYPES:
        jm, model = joint_pair(factory)
        assert type(jm.lie_group) in spaces
        q0, q1 = pin_configurations(model, (3,)), pin_configurations(model, (3,))
        v = tangents(rng, jm.nv, (3,))
        assert np.array_equal(jm.integrate(q0, v), jm.lie_group.integrate(q0, v))
        assert np.array_equal(jm.dDifference(q0, q1, 0), jm.lie_group.dDifference(q0, q1, 0))


# --- the quaternion sign and other branch edges -----------------------------------------

NEAR_PI = [np.pi - 1e-5, np.pi - 1e-7, np.pi - 1e-9, np.pi - 1e-12, np.pi]
NEAR_ZERO = [0.0, 1e-12, 1e-9, 1e-7, 1e-5, 1e-4 * (1 - 1e-9), 1e-4 * (1 + 1e-9)]


def _compare_all(name, q0, q1, v, u, batch):
    model, lg = one_joint_model(name), SPACES[name][1]
    assert_close_each(lg.integrate(q0, v),
                      reference(lambda a, b: pin.integrate(model, a, b), batch, q0, v), batch,
                      what="integrate")
    assert_close_each(lg.difference(q0, q1),
                      reference(lambda a, b: pin.difference(model, a, b), batch, q0, q1), batch,
                      what="difference")
    assert_close_each(lg.interpolate(q0, q1, u),
                      reference(lambda a, b: pin.interpolate(model, a, b, u), batch, q0, q1),
                      batch, what="interpolate")
    for arg in (pin.ArgumentPosition.ARG0, pin.ArgumentPosition.ARG1):
        assert_close_each(lg.dDifference(q0, q1, arg),
                          reference(lambda a, b: pin.dDifference(model, a, b, arg), batch, q0,
                                    q1), batch, what=f"dDifference {arg}")
        assert_close_each(lg.dIntegrate(q0, v, arg),
                          reference(lambda a, b: pin.dIntegrate(model, a, b, arg), batch, q0,
                                    v), batch, what=f"dIntegrate {arg}")


def _rotated(quat0, w):
    """quat0 * exp(w) for batches, through pin (the oracle)."""
    out = [(pin.Quaternion(a) * pin.Quaternion(pin.exp3_quat(b))).coeffs()
           for a, b in zip(quat0.reshape(-1, 4), w.reshape(-1, 3))]
    return np.reshape(out, quat0.shape)


@pytest.mark.parametrize("angle", NEAR_ZERO + NEAR_PI)
@pytest.mark.parametrize("name", ["SE3", "SO3"])
def test_quaternion_sign_and_relative_angle_edges(name, angle, rng):
    """q1 = +-q0 exp(angle axis), both hemispheres for q0 and q1; v turning by +-angle and
    +-1.5 angle (integration past pi, where SE(3) flips the result into q0's hemisphere)."""
    batch = (8,)
    axes = rng.normal(size=batch + (3,))
    axes /= np.linalg.norm(axes, axis=-1, keepdims=True)
    quat0 = np.stack([pin.exp3_quat(w) for w in rng.normal(size=batch + (3,))])
    quat1 = _rotated(quat0, angle * axes)
    signs = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0])[:, None]
    quat1 = quat1 * signs
    quat0 = quat0 * signs[::-1] * np.array([1.0, 1.0, -1.0, -1.0] * 2)[:, None]
    w = angle * axes * np.array([1.0, 1.5, -1.0, -1.5] * 2)[:, None]
    if name == "SE3":
        q0 = np.concatenate((rng.normal(size=batch + (3,)), quat0), axis=-1)
        q1 = np.concatenate((rng.normal(size=batch + (3,)), quat1), axis=-1)
        v = np.concatenate((rng.normal(size=batch + (3,)), w), axis=-1)
    else:
        q0, q1, v = quat0, quat1, w
    _compare_all(name, q0, q1, v, 0.3, batch)


@pytest.mark.parametrize("name", ["SE3", "SO3"])
def test_opposite_quaternions_are_the_same_configuration(name, rng):
    model, lg = one_joint_model(name), SPACES[name][1]
    q0 = pin_configurations(model, (6,))
    q1 = q0.copy()
    q1[..., lg.unit] *= -1.0
    _compare_all(name, q0, q1, tangents(rng, lg.nv, (6,)), 0.5, (6,))
    d = lg.difference(q0, q1)
    assert np.max(np.abs(d[..., -3:])) <= 1e-12


@pytest.mark.parametrize("angle", NEAR_ZERO + NEAR_PI + [np.pi - 1e-6 + 1e-9, np.pi - 1e-6 - 1e-9,
                                                         1e-6 * (1 - 1e-6), 1e-6 * (1 + 1e-6)])
@pytest.mark.parametrize("name", ["SO2", "SE2"])
def test_planar_rotation_edges(name, angle, rng):
    """Relative angles around SO(2)'s interpolation thresholds 1e-6 and pi - 1e-6, both signs;
    tangent angles around SE(2)'s 1e-14 (exp) and 1e-4 (log, Jlog) branches."""
    batch = (6,)
    a0 = rng.uniform(-np.pi, np.pi, batch)
    a1 = a0 + angle * np.array([1.0, -1.0] * 3)
    c0 = np.stack((np.cos(a0), np.sin(a0)), axis=-1)
    c1 = np.stack((np.cos(a1), np.sin(a1)), axis=-1)
    omega = (angle * np.array([1.0, -1.0, 1e-10, -1e-10, 1.5, 1e-3]))[:, None]
    if name == "SE2":
        q0 = np.concatenate((rng.normal(size=batch + (2,)), c0), axis=-1)
        q1 = np.concatenate((rng.normal(size=batch + (2,)), c1), axis=-1)
        v = np.concatenate((rng.normal(size=batch + (2,)), omega), axis=-1)
    else:
        q0, q1, v = c0, c1, omega
    for u in (0.0, 0.4, 1.0):
        _compare_all(name, q0, q1, v, u, batch)


# --- properties ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_integrate_of_difference_and_interpolate_endpoints(name, rng):
    model, lg = one_joint_model(name), SPACES[name][1]
    q0, q1 = pin_configurations(model, (5,)), pin_configurations(model, (5,))
    same = lambda a, b: np.allclose(lg.difference(a, b), 0.0, atol=1e-9)  # noqa: E731
    assert same(lg.integrate(q0, lg.difference(q0, q1)), q1)
    assert same(lg.interpolate(q0, q1, 0.0), q0)
    assert same(lg.interpolate(q0, q1, 1.0), q1)
    assert np.all(lg.is_normalized(lg.integrate(q0, tangents(rng, lg.nv, (5,))), 1e-9))


@pytest.mark.parametrize("name", NAMES)
def test_jacobians_match_finite_differences(name, rng):
    """dIntegrate/dDifference against central differences in the local (right) convention."""
    model, lg = one_joint_model(name), SPACES[name][1]
    q0, q1 = pin_configurations(model, ()), pin_configurations(model, ())
    v = rng.normal(size=lg.nv)
    h = 1e-6
    E = np.eye(lg.nv) * h
    fd_dq = np.stack([lg.difference(lg.integrate(q0, v),
                                    lg.integrate(lg.integrate(q0, E[k]), v))
                      - lg.difference(lg.integrate(q0, v),
                                      lg.integrate(lg.integrate(q0, -E[k]), v))
                      for k in range(lg.nv)], axis=-1) / (2 * h)
    assert_close(lg.dIntegrate(q0, v, 0), fd_dq, tol=1e-6)
    fd_dd = np.stack([lg.difference(q0, lg.integrate(q1, E[k]))
                      - lg.difference(q0, lg.integrate(q1, -E[k])) for k in range(lg.nv)],
                     axis=-1) / (2 * h)
    assert_close(lg.dDifference(q0, q1, 1), fd_dd, tol=1e-6)


# --- random_configuration ------------------------------------------------------------------


@pytest.mark.parametrize("batch", SHAPES, ids=str)
@pytest.mark.parametrize("name", NAMES)
def test_random_configuration_in_bounds_and_normalized(name, batch):
    lg = SPACES[name][1]
    lower = np.broadcast_to(np.linspace(-2.0, -1.0, lg.nq), tuple(batch) + (lg.nq,))
    upper = np.linspace(0.5, 1.5, lg.nq)
    q = lg.random_configuration(lower, upper, rng=np.random.default_rng(7))
    assert q.shape == tuple(batch) + (lg.nq,)
    assert np.all(lg.is_normalized(q))
    part = lg.bounded
    assert np.all(q[..., part] >= lower[..., part]) and np.all(q[..., part] <= upper[..., part])
    again = lg.random_configuration(lower, upper, rng=np.random.default_rng(7))
    assert np.array_equal(q, again)


@pytest.mark.parametrize("name", ["SO3", "SO2"])
def test_rotation_spaces_ignore_bounds_as_pin(name):
    model, lg = one_joint_model(name), SPACES[name][1]
    q = lg.random_configuration(np.full(lg.nq, -np.inf), np.full(lg.nq, np.inf), rng=1)
    assert bool(lg.is_normalized(q))
    assert pin.isNormalized(model, pin.randomConfiguration(model, np.full(lg.nq, -np.inf),
                                                           np.full(lg.nq, np.inf)))


@pytest.mark.parametrize("name", ["SE3", "SE2", "R3"])
def test_random_configuration_needs_finite_bounds(name):
    lg = SPACES[name][1]
    big = np.finfo(float).max
    for lower, upper in ((np.full(lg.nq, -big), np.full(lg.nq, big)),
                         (np.full(lg.nq, -np.inf), np.zeros(lg.nq)),
                         (np.zeros(lg.nq), np.full(lg.nq, np.nan))):
        with pytest.raises(NonFiniteError, match="finite"):
            lg.random_configuration(lower, upper)


def test_uniform_quaternions_cover_the_sphere():
    q = L.SpecialOrthogonal3().random_configuration(np.zeros((4000, 4)), np.zeros(4), rng=3)
    assert np.all(np.abs(q.mean(axis=0)) < 0.05)
    assert_close(q.T @ q / len(q), np.eye(4) / 4, tol=0.02)


# --- bad input ----------------------------------------------------------------------------


def _calls(lg):
    q, v = lg.neutral(), np.zeros(lg.nv)
    return {
        "integrate": lambda a, b: lg.integrate(a, b),
        "difference": lambda a, b: lg.difference(a, q),
        "interpolate": lambda a, b: lg.interpolate(q, a, 0.5),
        "dIntegrate": lambda a, b: lg.dIntegrate(a, b, 0),
        "dDifference": lambda a, b: lg.dDifference(q, a, 1),
        "normalize": lambda a, b: lg.normalize(a),
        "is_normalized": lambda a, b: lg.is_normalized(a),
    }, q, v


@pytest.mark.parametrize("name", NAMES)
def test_bad_sizes_and_nan_raise_typed_errors(name):
    lg = SPACES[name][1]
    calls, q, v = _calls(lg)
    for op, call in calls.items():
        with pytest.raises(ShapeError, match=op):
            call(np.zeros(lg.nq + 1), v)
        with pytest.raises(NonFiniteError, match=op):
            call(np.where(np.arange(lg.nq) == 0, np.nan, q), v)
    with pytest.raises(ShapeError, match="v"):
        lg.integrate(q, np.zeros(lg.nv + 1))
    with pytest.raises(NonFiniteError):
        lg.integrate(q, np.full(lg.nv, np.inf))
    with pytest.raises(ShapeError):
        lg.integrate(np.broadcast_to(q, (2, lg.nq)), np.zeros((3, lg.nv)))
    with pytest.raises(NonFiniteError, match="u"):
        lg.interpolate(q, q, np.nan)
    with pytest.raises(ShapeError, match="lower"):
        lg.random_configuration(np.zeros(lg.nq + 1), np.ones(lg.nq))


@pytest.mark.parametrize("name", NAMES)
def test_bad_argument_position_raises(name):
    lg = SPACES[name][1]
    q, v = lg.neutral(), np.zeros(lg.nv)
    for arg in (2, -1, "ARG0", None):
        with pytest.raises(UnsupportedError, match="ARG0"):
            lg.dIntegrate(q, v, arg)
        with pytest.raises(UnsupportedError, match="ARG0"):
            lg.dDifference(q, q, arg)


@pytest.mark.parametrize("name", ["SE3", "SO3", "SO2", "SE2"])
def test_non_unit_rotation_part_raises_not_normalized(name):
    lg = SPACES[name][1]
    q = lg.neutral()
    bad = q.copy()
    bad[lg.unit] *= 1.0 + 1e-4
    ok = q.copy()
    ok[lg.unit] *= 1.0 + 1e-9
    v = np.zeros(lg.nv)
    for call in (lambda a: lg.integrate(a, v), lambda a: lg.difference(q, a),
                 lambda a: lg.interpolate(a, q, 0.5), lambda a: lg.dDifference(a, q, 0)):
        with pytest.raises(NotNormalizedError, match="normalize") as info:
            call(bad)
        assert isinstance(info.value, PinrefError) and isinstance(info.value, ValueError)
        call(ok)
    lg.dIntegrate(bad, v, 0)  # q is not read by dIntegrate, as in Pinocchio
    assert not lg.is_normalized(bad) and lg.is_normalized(lg.normalize(bad))
