"""computeRNEADerivatives, computeGeneralizedGravityDerivatives, computeStaticTorqueDerivatives.

Oracles, in order: identities with other algorithms (dtau_da == crba, tau == rnea, the gravity
derivatives == the RNEA ones at v = a = 0); central finite differences along the tangent space
swept over eps = 1e-3 .. 1e-8 (pinref.checking.finite_differences); Pinocchio 3.8.0, result
and exposed caches, per state at ``1e-11 * max(1, max|ref|)``, with armature and fext, at batch
shapes (), (5,), (2, 3).

Pinocchio's derivative passes treat a joint's motion subspace S as constant in the joint frame.
For SphericalZYX and Universal joints S depends on q, and Pinocchio's dtau/dq and dtau/dv are
then not the derivatives of its rnea in those joints' columns; pinref reproduces Pinocchio, and
the finite-difference checks leave those columns out (docs/derivatives.md), with a test that
shows the gap.
"""

import zlib

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close
from models import (
    MODEL_NAMES,
    assert_caches_match_pin,
    assert_matrices_match_pin,
    assert_results_are_owned_copies,
    build,
    cache_getter,
    random_fext,
    random_states,
)

import pinref
from pinref.checking.finite_differences import eps_sweep

BATCHES = [(), (5,), (2, 3)]
TOL = 1e-12   # the contract (tests/conftest.py assert_close); test_aba_derivatives imports it


def _seed(*key):
    return zlib.crc32(repr(key).encode())


def _setup(model_name, batch, *key):
    """Models with random armature, states, and fext (array) for ``batch``."""
    rng = np.random.default_rng(_seed(model_name, batch, *key))
    rmodel, pmodel = build(model_name)
    rmodel.armature = rng.uniform(0.1, 1.0, rmodel.nv)
    pmodel.armature = rmodel.armature.copy()
    q, v, a = random_states(pmodel, batch, rng)
    return rmodel, pmodel, q, v, a, random_fext(rmodel.njoints, batch, rng)


def _pin_fext(fext):
    return [pin.Force(np.array(f)) for f in fext]


def _world_caches(model, data, lib, idx, batch):
    """The caches the RNEA derivatives write and pin exposes, for state ``idx``."""
    get = cache_getter(lib, idx, batch)
    nv = model.nv
    out = {name: get(getattr(data, name), (6, nv))
           for name in ("J", "dJ", "dAdq", "dAdv", "dFda", "dFdq", "dFdv")}
    out["Fcrb[0]"] = get(data.Fcrb[0], (6, nv))
    out["tau"] = get(data.tau, (nv,))
    for name in ("dtau_dq", "dtau_dv", "M"):
        out[name] = get(getattr(data, name), (nv, nv))
    for i in range(1, model.njoints):
        out[f"liMi[{i}]"] = get(data.liMi[i].homogeneous, (4, 4))
        out[f"oMi[{i}]"] = get(data.oMi[i].homogeneous, (4, 4))
        for name in ("v", "a", "ov", "oa", "oa_gf", "oh", "of"):
            out[f"{name}[{i}]"] = get(getattr(data, name)[i].vector, (6,))
        Y = data.oYcrb[i]
        out[f"oYcrb[{i}].mass"] = get(Y.mass, ())
        out[f"oYcrb[{i}].lever"] = get(Y.lever, (3,))
        out[f"oYcrb[{i}].inertia"] = get(Y.inertia, (3, 3))
    return out


def configuration_dependent_columns(model):
    """Tangent indices of the joints whose motion subspace S changes with q (SphericalZYX,
    Universal): S compared at two random configurations."""
    rng = np.random.default_rng(0)
    cols = []
    for jmodel in model.joints[1:]:
        S = []
        for _ in range(2):
            q = np.zeros(model.nq)
            q[jmodel.q_slice] = jmodel.normalize(rng.normal(size=jmodel.nq))
            jdata = jmodel.createData()
            jmodel.calc(jdata, q)
            S.append(np.array(jdata.S))
        if not np.allclose(S[0], S[1], rtol=0, atol=1e-12):
            cols.extend(range(jmodel.idx_v, jmodel.idx_v + jmodel.nv))
    return cols


def constant_subspace_columns(model):
    """The other tangent indices: where Pinocchio's derivatives are the true derivatives."""
    bad = set(configuration_dependent_columns(model))
    return [k for k in range(model.nv) if k not in bad]


# --- against Pinocchio ------------------------------------------------------------------------


@pytest.mark.parametrize("with_fext", [False, True], ids=["no_fext", "fext"])
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_rnea_derivatives_match_pin(model_name, batch, with_fext):
    rmodel, pmodel, q, v, a, fext = _setup(model_name, batch, "rnea")
    rdata = pinref.Data(rmodel)
    got = pinref.computeRNEADerivatives(rmodel, rdata, q, v, a, fext if with_fext else None)
    for k, idx in enumerate(np.ndindex(*batch)):
        pdata = pmodel.createData()
        args = (q[idx], v[idx], a[idx]) + ((_pin_fext(fext[idx]),) if with_fext else ())
        ref = [r.copy() for r in pin.computeRNEADerivatives(pmodel, pdata, *args)]
        assert_matrices_match_pin(("dtau_dq", "dtau_dv", "dtau_da"), got, ref, rmodel.nv, idx,
                                  batch, TOL)
        assert_caches_match_pin(_world_caches, rmodel, rdata, pmodel, pdata, idx, batch, TOL)


@pytest.mark.parametrize("call", ["gravity", "static"])
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_gravity_and_static_torque_derivatives_match_pin(model_name, batch, call):
    rmodel, pmodel, q, _, _, fext = _setup(model_name, batch, call)
    rdata = pinref.Data(rmodel)
    if call == "gravity":
        got = pinref.computeGeneralizedGravityDerivatives(rmodel, rdata, q)
        torque = "g"
    else:
        got = pinref.computeStaticTorqueDerivatives(rmodel, rdata, q, fext)
        torque = "tau"
    assert got.shape == batch + (rmodel.nv, rmodel.nv)
    nv = rmodel.nv
    for idx in np.ndindex(*batch):
        pdata = pmodel.createData()
        if call == "gravity":
            ref = pin.computeGeneralizedGravityDerivatives(pmodel, pdata, q[idx])
        else:
            ref = pin.computeStaticTorqueDerivatives(pmodel, pdata, q[idx], _pin_fext(fext[idx]))
        assert_close(got[idx], ref, TOL, f"{call} derivative at state {idx}")
        caches = {torque: (nv,), "J": (6, nv), "dAdq": (6, nv), "dFdq": (6, nv), "Ag": (6, nv)}
        for name, tail in caches.items():
            assert_close(np.broadcast_to(getattr(rdata, name), batch + tail)[idx],
                         getattr(pdata, name), TOL, f"data.{name} at state {idx}")
        for i in range(1, rmodel.njoints):
            assert_close(np.broadcast_to(rdata.of[i].vector, batch + (6,))[idx],
                         pdata.of[i].vector, TOL, f"data.of[{i}]")
            Yr, Yp = rdata.oYcrb[i], pdata.oYcrb[i]
            assert_close(np.broadcast_to(Yr.matrix(), batch + (6, 6))[idx], Yp.matrix(), TOL,
                         f"data.oYcrb[{i}]")


def test_results_are_owned_copies_while_pin_returns_views():
    rmodel, pmodel, q, v, a, _ = _setup("humanoid", (2,), "views")
    rdata, pdata = pinref.Data(rmodel), pmodel.createData()
    assert_results_are_owned_copies(
        lambda *x: pinref.computeRNEADerivatives(rmodel, rdata, *x),
        rdata, ("dtau_dq", "dtau_dv", "M"), (q[0], v[0], a[0]), (q[1], v[1], a[1]))
    # pin: the tuple aliases data.dtau_dq, data.dtau_dv, data.M, and the next call rewrites it
    ref = pin.computeRNEADerivatives(pmodel, pdata, q[0], v[0], a[0])
    assert all(np.shares_memory(x, c) for x, c in zip(ref, (pdata.dtau_dq, pdata.dtau_dv, pdata.M)))
    before = ref[0].copy()
    pin.computeRNEADerivatives(pmodel, pdata, q[1], v[1], a[1])
    assert not np.allclose(ref[0], before)


# --- identities ---------------------------------------------------------------------------------


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_identities_with_rnea_and_crba(model_name):
    rmodel, _, q, v, a, fext = _setup(model_name, (3,), "identities")
    rdata = pinref.Data(rmodel)
    _, _, da = pinref.computeRNEADerivatives(rmodel, rdata, q, v, a, fext)
    M = pinref.crba(rmodel, pinref.Data(rmodel), q)
    tau = pinref.rnea(rmodel, pinref.Data(rmodel), q, v, a, fext)
    g_dq = pinref.computeGeneralizedGravityDerivatives(rmodel, pinref.Data(rmodel), q)
    static_dq = pinref.computeStaticTorqueDerivatives(rmodel, pinref.Data(rmodel), q, fext)
    zero = np.zeros_like(v)
    rnea_static = pinref.computeRNEADerivatives(rmodel, pinref.Data(rmodel), q, zero, zero, fext)
    rnea_gravity = pinref.computeRNEADerivatives(rmodel, pinref.Data(rmodel), q, zero, zero)
    for idx in np.ndindex(3):
        assert_close(da[idx], M[idx], TOL, "dtau_da == crba")
        assert_close(rdata.tau[idx], tau[idx], TOL, "data.tau == rnea")
        assert_close(g_dq[idx], rnea_gravity[0][idx], TOL, "dg/dq == dtau/dq at v = a = 0")
        assert_close(static_dq[idx], rnea_static[0][idx], TOL, "static torque derivative")
        assert_close(da[idx], da[idx].T, 0.0, "dtau_da symmetric")


# --- against finite differences -----------------------------------------------------------------


def _check_sweeps(rmodel, f, q, v, a, analytic, label, variables=("q", "v", "a")):
    """q: a valley with its bottom inside the sweep and below 1e-6; v and a (the function is
    quadratic or linear in them): only rounding error, smallest at the largest eps."""
    cols = constant_subspace_columns(rmodel)
    for wrt, A in zip(variables, analytic):
        sweep = eps_sweep(rmodel, f, q, v, a, A, wrt=wrt, label=label, columns=cols)
        assert sweep.best.relative_error < 1e-6, str(sweep)
        if wrt == "q":
            assert sweep.is_valley, str(sweep)
        else:
            assert sweep.shape == "rounding" and sweep.best.relative_error < 1e-9, str(sweep)


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_rnea_derivatives_against_finite_differences(model_name):
    rmodel, _, q, v, a, fext = _setup(model_name, (), "fd")
    analytic = pinref.computeRNEADerivatives(rmodel, pinref.Data(rmodel), q, v, a, fext)

    def tau(q, v, a):
        return pinref.rnea(rmodel, pinref.Data(rmodel), q, v, a, fext)

    _check_sweeps(rmodel, tau, q, v, a, analytic, "tau")


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_static_torque_derivatives_against_finite_differences(model_name):
    rmodel, _, q, v, a, fext = _setup(model_name, (), "fd static")
    analytic = pinref.computeStaticTorqueDerivatives(rmodel, pinref.Data(rmodel), q, fext)

    def static_torque(q, v, a):
        return pinref.computeStaticTorque(rmodel, pinref.Data(rmodel), q, fext)

    _check_sweeps(rmodel, static_torque, q, v, a, [analytic], "tau_static", ("q",))


def test_pinocchio_derivatives_miss_the_variation_of_a_configuration_dependent_subspace():
    """On tree0's SphericalZYX and Universal joints pin's and pinref's dtau/dq and dtau/dv agree
    with each other (test above) but not with the derivative of rnea: the sweep shows a floor
    that does not move with eps, in those joints' columns only."""
    rmodel, _, q, v, a, fext = _setup("tree0", (), "fd")
    bad = configuration_dependent_columns(rmodel)
    names = {rmodel.joints[j].shortname() for j in range(1, rmodel.njoints)
             if rmodel.joints[j].idx_v in bad}
    assert names == {"JointModelSphericalZYX", "JointModelUniversal"}
    analytic = pinref.computeRNEADerivatives(rmodel, pinref.Data(rmodel), q, v, a, fext)

    def tau(q, v, a):
        return pinref.rnea(rmodel, pinref.Data(rmodel), q, v, a, fext)

    for wrt, A in zip("qv", analytic):
        sweep = eps_sweep(rmodel, tau, q, v, a, A, wrt=wrt, label="tau", columns=bad)
        assert sweep.shape == "flat" and sweep.best.relative_error > 1e-3, str(sweep)


# --- the eps-sweep helper itself ----------------------------------------------------------------


def test_sweep_table_and_worst_entry_on_a_function_of_pinocchio():
    """The sweep works on any f(q, v, a): here pin.rnea called state by state (batched=False),
    against pinref's derivative; the worst entry is mapped to joint names and idx_v."""
    rmodel, pmodel, q, v, a, _ = _setup("humanoid", (), "table")
    analytic = pinref.computeRNEADerivatives(rmodel, pinref.Data(rmodel), q, v, a)

    def tau(q, v, a):
        return pin.rnea(pmodel, pmodel.createData(), q, v, a)

    sweep = eps_sweep(rmodel, tau, q, v, a, analytic[0], batched=False, label="tau")
    assert [s.eps for s in sweep.steps] == [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8]
    assert sweep.shape == "valley" and sweep.best.relative_error < 1e-6
    text = str(sweep).splitlines()
    assert text[0] == "eps sweep of dtau/dq (central differences, tangent space)"
    assert len(text) == 2 + 6 + 1 and text[2 + sweep.best_index].endswith("  < best eps")
    assert text[-1].startswith("valley")
    row, col = sweep.best.worst
    assert sweep.best.worst_row == pinref.checking.finite_differences.tangent_label(rmodel, row)
    name = sweep.best.worst_column.split("[")[0]
    jmodel = rmodel.joints[rmodel.getJointId(name)]
    assert jmodel.idx_v <= col < jmodel.idx_v + jmodel.nv
    assert f"[{jmodel.idx_v}" in sweep.best.worst_column


@pytest.mark.parametrize("model_name", ["humanoid", "tree0"])
def test_a_state_gives_the_same_bits_alone_or_in_a_batch(model_name):
    rmodel, _, q, v, a, fext = _setup(model_name, (2, 3), "bits")
    batched = pinref.computeRNEADerivatives(rmodel, pinref.Data(rmodel), q, v, a, fext)
    gravity = pinref.computeStaticTorqueDerivatives(rmodel, pinref.Data(rmodel), q, fext)
    for idx in np.ndindex(2, 3):
        alone = pinref.computeRNEADerivatives(rmodel, pinref.Data(rmodel), q[idx], v[idx], a[idx],
                                              fext[idx])
        for x, y in zip(batched, alone):
            np.testing.assert_array_equal(x[idx], y)
        np.testing.assert_array_equal(
            gravity[idx], pinref.computeStaticTorqueDerivatives(rmodel, pinref.Data(rmodel),
                                                                q[idx], fext[idx]))
