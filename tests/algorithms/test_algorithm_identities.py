"""Identities between the algorithms (oracle 2 of design.md §7), each able to fail."""

import numpy as np
import pytest

import pinref
from conftest import assert_close
from models import MODEL_NAMES, build, random_states


@pytest.fixture(params=MODEL_NAMES)
def case(request):
    rng = np.random.default_rng(7)
    rmodel, pmodel = build(request.param)
    rmodel.armature = rng.uniform(0.0, 0.5, rmodel.nv)
    q, v, a = random_states(pmodel, (4,), rng)
    return rmodel, q, v, a


def test_rnea_is_M_a_plus_nle(case):
    model, q, v, a = case
    data = pinref.Data(model)
    tau = pinref.rnea(model, data, q, v, a)
    M = pinref.crba(model, data, q)
    nle = pinref.nonLinearEffects(model, data, q, v)
    for k in range(len(q)):
        assert_close(tau[k], M[k] @ a[k] + nle[k], what="rnea vs M a + nle")


def test_aba_inverts_rnea(case):
    model, q, v, a = case
    data = pinref.Data(model)
    tau = pinref.rnea(model, data, q, v, a)
    ddq = pinref.aba(model, data, q, v, tau)
    for k in range(len(q)):
        assert_close(ddq[k], a[k], what="aba(rnea(a))")


def test_nle_is_rnea_without_acceleration_or_armature(case):
    model, q, v, _ = case
    data = pinref.Data(model)
    nle = pinref.nonLinearEffects(model, data, q, v)
    tau0 = pinref.rnea(model, data, q, v, np.zeros(model.nv))
    for k in range(len(q)):
        assert_close(nle[k], tau0[k], what="nle vs rnea(q, v, 0)")


def test_M_columns_are_rnea_differences(case):
    model, q, v, a = case
    data = pinref.Data(model)
    M = pinref.crba(model, data, q)
    base = pinref.rnea(model, data, q, v, a)
    for col in (0, model.nv - 1):
        a2 = a.copy()
        a2[:, col] += 1.0
        diff = pinref.rnea(model, data, q, v, a2) - base
        for k in range(len(q)):
            assert_close(diff[k], M[k][:, col], what=f"column {col}")


def test_gravity_enters_only_through_the_universe_acceleration():
    """With a free-flyer root (S = I), gravity g is the same as an extra base acceleration
    liMi[1]^-1 (-g): rnea_g(q, v, a) == rnea_0(q, v, a + (liMi[1]^-1(-g); 0...))."""
    rng = np.random.default_rng(3)
    model, pmodel = build("tutorial")
    q, v, a = random_states(pmodel, (3,), rng)
    data = pinref.Data(model)
    tau_g = pinref.rnea(model, data, q, v, a)
    shifted = a.copy()
    shifted[:, :6] += data.liMi[1].actInv(-model.gravity).vector
    model.gravity = pinref.Motion.Zero()
    tau_0 = pinref.rnea(model, pinref.Data(model), q, v, shifted)
    for k in range(3):
        assert_close(tau_0[k], tau_g[k], what="gravity as base acceleration")
    assert np.abs(tau_0 - pinref.rnea(model, pinref.Data(model), q, v, a)).max() > 1.0


def test_projected_articulated_inertia_annihilates_S():
    """After aba, Yaba[i] S_i == 0 for parent > 0 (the projection Ia = IA - U D^-1 U^T)."""
    rng = np.random.default_rng(5)
    model, pmodel = build("humanoid")
    q, v, a = random_states(pmodel, (), rng)
    data = pinref.Data(model)
    pinref.aba(model, data, q, v, a)
    for i in range(2, model.njoints):
        S = data.joints[i].S
        assert np.abs(data.Yaba[i] @ S).max() < 1e-12 * max(1.0, np.abs(data.Yaba[i]).max())
    assert np.abs(data.Yaba[1] @ data.joints[1].S).max() > 1e-3


def test_batched_equals_loop_of_single_calls():
    rng = np.random.default_rng(11)
    model, pmodel = build("tree0")
    q, v, a = random_states(pmodel, (2, 3), rng)
    data = pinref.Data(model)
    batched = (pinref.rnea(model, data, q, v, a), pinref.crba(model, data, q),
               pinref.aba(model, data, q, v, a))
    for idx in np.ndindex(2, 3):
        single = pinref.Data(model)
        assert np.array_equal(batched[0][idx], pinref.rnea(model, single, q[idx], v[idx], a[idx]))
        assert np.array_equal(batched[1][idx], pinref.crba(model, single, q[idx]))
        assert_close(batched[2][idx], pinref.aba(model, single, q[idx], v[idx], a[idx]))
