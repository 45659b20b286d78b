"""Model-level configuration space (integrate, difference, ...) against Pinocchio 3.8.0.

Every function runs once on a batch in pinref and per state in pin; results are compared per
state at ``1e-12 * max(1, max|ref|)``. randomConfiguration cannot match pin's generator, so it
is checked for its bounds, its unit quaternions, its batch shape and its seed.
"""

import zlib

import numpy as np
import pinocchio as pin
import pytest

import pinref
from conftest import assert_close
from models import MODEL_NAMES, build, random_states

BATCHES = [(), (5,), (2, 3)]


@pytest.fixture(params=[(m, b) for m in MODEL_NAMES for b in BATCHES],
                ids=lambda p: f"{p[0]}-{p[1]}")
def case(request):
    name, batch = request.param
    rng = np.random.default_rng(zlib.crc32(repr(request.param).encode()))
    rmodel, pmodel = build(name)
    q1, v, _ = random_states(pmodel, batch, rng)
    q2, _, _ = random_states(pmodel, batch, rng)
    return rmodel, pmodel, batch, q1, q2, v, rng


def _each(batch, got, ref_fn, what):
    got = np.asarray(got)
    for idx in np.ndindex(*batch):
        ref = np.asarray(ref_fn(idx), dtype=float)
        assert got.shape == batch + ref.shape, f"{what}: shape {got.shape}"
        assert_close(got[idx], ref, what=f"{what} at state {idx}")


def test_integrate_difference_interpolate(case):
    rmodel, pmodel, batch, q1, q2, v, rng = case
    _each(batch, pinref.integrate(rmodel, q1, v),
          lambda i: pin.integrate(pmodel, q1[i], v[i]), "integrate")
    _each(batch, pinref.difference(rmodel, q1, q2),
          lambda i: pin.difference(pmodel, q1[i], q2[i]), "difference")
    for alpha in (0.0, 0.3, 1.0):
        _each(batch, pinref.interpolate(rmodel, q1, q2, alpha),
              lambda i: pin.interpolate(pmodel, q1[i], q2[i], alpha), f"interpolate({alpha})")
    alphas = rng.uniform(size=batch)
    _each(batch, pinref.interpolate(rmodel, q1, q2, alphas),
          lambda i: pin.interpolate(pmodel, q1[i], q2[i], float(alphas[i])),
          "interpolate(batched alpha)")


def test_distances(case):
    rmodel, pmodel, batch, q1, q2, _, _ = case
    _each(batch, pinref.squaredDistance(rmodel, q1, q2),
          lambda i: pin.squaredDistance(pmodel, q1[i], q2[i]), "squaredDistance")
    _each(batch, pinref.distance(rmodel, q1, q2),
          lambda i: pin.distance(pmodel, q1[i], q2[i]), "distance")


def test_derivatives(case):
    rmodel, pmodel, batch, q1, q2, v, _ = case
    for arg in (pinref.ARG0, pinref.ARG1):
        parg = pin.ArgumentPosition(int(arg))
        _each(batch, pinref.dIntegrate(rmodel, q1, v, arg),
              lambda i: pin.dIntegrate(pmodel, q1[i], v[i], parg), f"dIntegrate {arg.name}")
        _each(batch, pinref.dDifference(rmodel, q1, q2, arg),
              lambda i: pin.dDifference(pmodel, q1[i], q2[i], parg), f"dDifference {arg.name}")
    both = pinref.dIntegrate(rmodel, q1, v)
    for k in range(2):
        _each(batch, both[k], lambda i: pin.dIntegrate(pmodel, q1[i], v[i])[k],
              f"dIntegrate tuple[{k}]")
    both = pinref.dDifference(rmodel, q1, q2)
    for k in range(2):
        _each(batch, both[k], lambda i: pin.dDifference(pmodel, q1[i], q2[i])[k],
              f"dDifference tuple[{k}]")


def test_neutral_normalize_is_normalized(case):
    rmodel, pmodel, batch, q1, _, _, rng = case
    assert_close(pinref.neutral(rmodel), pin.neutral(pmodel), what="neutral")
    scaled = q1 * rng.uniform(0.5, 2.0, size=batch + (1,))
    before = scaled.copy()
    out = pinref.normalize(rmodel, scaled)
    assert np.array_equal(scaled, before), "normalize must not change its argument"
    _each(batch, out, lambda i: pin.normalize(pmodel, scaled[i]), "normalize")
    for q in (scaled, out, q1):
        _each(batch, pinref.isNormalized(rmodel, q),
              lambda i: float(pin.isNormalized(pmodel, q[i])), "isNormalized")
        _each(batch, pinref.isNormalized(rmodel, q, 1e-3),
              lambda i: float(pin.isNormalized(pmodel, q[i], 1e-3)), "isNormalized(prec=1e-3)")
    assert type(pinref.isNormalized(rmodel, pinref.neutral(rmodel))) in (bool, np.bool_)


def test_random_configuration_within_finite_bounds(case):
    rmodel, pmodel, batch, _, _, _, rng = case
    lower = -rng.uniform(0.1, 2.0, rmodel.nq)
    upper = rng.uniform(0.1, 2.0, rmodel.nq)
    q = pinref.randomConfiguration(rmodel, np.broadcast_to(lower, batch + (rmodel.nq,)), upper,
                                   rng=7)
    assert q.shape == batch + (rmodel.nq,)
    assert np.all(pinref.isNormalized(rmodel, q, 1e-12))
    again = pinref.randomConfiguration(rmodel, np.broadcast_to(lower, batch + (rmodel.nq,)),
                                       upper, rng=7)
    assert np.array_equal(q, again), "a seed gives the same configuration"
    for jmodel in rmodel.joints[1:]:
        bounded = jmodel.lie_group.bounded
        seg = q[..., jmodel.q_slice][..., bounded]
        lo, hi = lower[jmodel.q_slice][bounded], upper[jmodel.q_slice][bounded]
        assert np.all((lo <= seg) & (seg <= hi)), rmodel.names[jmodel.id]
    for idx in np.ndindex(*batch):  # pin agrees that it is a valid configuration
        assert pin.isNormalized(pmodel, q[idx])


def test_random_configuration_uses_the_model_limits():
    model = pinref.buildSampleModelManipulator()
    q = pinref.randomConfiguration(model, rng=0)
    assert np.all((model.lowerPositionLimit <= q) & (q <= model.upperPositionLimit))
    assert q.shape == (model.nq,)
