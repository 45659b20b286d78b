"""States whose quaternions and (cos, sin) pairs are off unit length by less than the tolerance
pinref accepts (``UNIT_NORM_TOLERANCE``, 1e-6), as ``integrate`` and float32 leave them: the
rotations built from them are then slightly off orthonormal, and every algorithm must still give
what Pinocchio 3.8.0 gives, cache by cache, at ``1e-12 * max(1, |ref|)`` per state.

Where that needs care: a body inertia moved by a placement is Pinocchio's
``Inertia::se3Action`` (mass m, lever R c + p, ``Symmetric3::rotate``), whose 6x6 matrix differs
from ``X* Y X*^T`` when R is not orthonormal (its linear block is m R R^T), by about the norm
error (1e-6 relative for a norm off by 5e-7 before the fix); and the world velocities of ABA's
derivatives are Pinocchio's sums ``oMi v_J + ov_parent``, not ``oMi v_i``.

The quick cases run the humanoid (free flyer at the root) and a random tree (spherical, free
flyer and unbounded joints deep in the tree) with every state of a batch off by its own amount;
the slow ones every test model, norm errors from 1e-9 to 9e-7 of both signs, float32 states and
the batch shapes of the project.
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import BATCH_SHAPES, assert_close
from models import COMPOSITE_MODEL_NAMES, MODEL_NAMES, build, random_states

import pinref
from pinref.compare import compare
from pinref.model.model import _unit_parts
from pinref.spatial._kernels import act_inertia_matrix

SCALES = [1e-9, 1e-8, 1e-7, 5e-7, 9e-7, -9e-7]

# (function, arguments from the state, Data fields both expose that the call writes)
_WORLD = ["oMi", "ov", "oa", "oa_gf", "oh", "of", "oYcrb", "oYaba", "J", "dJ", "Ag", "dAg"]
CALLS = {
    "crba WORLD": (lambda L, m, d, q, v, a: L.crba(m, d, q, L.Convention.WORLD),
                   ["M", "J", "Ag", "oYcrb", "mass", "com"]),
    "crba LOCAL": (lambda L, m, d, q, v, a: L.crba(m, d, q), ["M", "Ycrb", "Fcrb"]),
    "aba WORLD": (lambda L, m, d, q, v, a: L.aba(m, d, q, v, a, L.Convention.WORLD),
                  ["ddq", "oYaba", "oYcrb", "ov", "oa", "oa_gf", "oh", "of", "J"]),
    "aba LOCAL": (lambda L, m, d, q, v, a: L.aba(m, d, q, v, a), ["ddq", "Yaba", "f", "a"]),
    "computeMinverse": (lambda L, m, d, q, v, a: L.computeMinverse(m, d, q),
                        ["Minv", "oYcrb", "oYaba", "J"]),
    "computeRNEADerivatives": (lambda L, m, d, q, v, a: L.computeRNEADerivatives(m, d, q, v, a),
                               ["tau", "M", "dtau_dq", "dtau_dv", "dFdq", "dFdv", "dFda",
                                *_WORLD]),
    "computeABADerivatives": (lambda L, m, d, q, v, a: L.computeABADerivatives(m, d, q, v, a),
                              ["ddq", "Minv", "ddq_dq", "ddq_dv", "dtau_dq", "dtau_dv", "dFdq",
                               "dFdv", "dFda", *_WORLD]),
    "computeCoriolisMatrix": (lambda L, m, d, q, v, a: L.computeCoriolisMatrix(m, d, q, v),
                              ["C", "B", "oYcrb", "ov", "oh", "J", "dJ"]),
    "computeAllTerms": (lambda L, m, d, q, v, a: L.computeAllTerms(m, d, q, v),
                        ["M", "nle", "g", "Ag", "dAg", "hg", "dhg", "Ig", "Jcom", "com", "vcom",
                         "mass", "oYcrb", "J", "dJ", "kinetic_energy", "potential_energy"]),
    "ccrba": (lambda L, m, d, q, v, a: L.ccrba(m, d, q, v), ["Ag", "hg", "Ig", "com", "oYcrb"]),
    "dccrba": (lambda L, m, d, q, v, a: L.dccrba(m, d, q, v),
               ["Ag", "dAg", "hg", "Ig", "com", "vcom", "oYcrb"]),
    "computeCentroidalMapTimeVariation": (
        lambda L, m, d, q, v, a: L.computeCentroidalMapTimeVariation(m, d, q, v),
        ["Ag", "dAg", "com", "oYcrb"]),
    "computeCentroidalDynamicsDerivatives": (
        lambda L, m, d, q, v, a: L.computeCentroidalDynamicsDerivatives(m, d, q, v, a),
        ["hg", "dhg", "Ag", "dHdq", "dFdq", "dFdv", "dFda", "oYcrb", "of", "oh"]),
    "computeGeneralizedGravityDerivatives": (
        lambda L, m, d, q, v, a: L.computeGeneralizedGravityDerivatives(m, d, q),
        ["g", "dFdq", "oYcrb", "of"]),
    "computeCentroidalMomentumTimeVariation": (
        lambda L, m, d, q, v, a: L.computeCentroidalMomentumTimeVariation(m, d, q, v, a),
        ["hg", "dhg", "com", "vcom", "mass"]),
}


def off_unit(model, q, scale):
    """``q`` with every quaternion and (cos, sin) pair multiplied by ``1 + scale`` (``scale``
    broadcast over the batch axes)."""
    q = np.array(q)
    factor = 1.0 + np.asarray(scale, dtype=float)[..., None]
    for jmodel, unit in _unit_parts(model):
        q[..., jmodel.idx_q + unit.start:jmodel.idx_q + unit.stop] *= factor
    return q


def _as_array(x):
    """A cache as an array: SE3 homogeneous, Inertia matrix, a spatial vector, a per-joint list
    stacked (pinref's stacked caches read joint by joint), or the array itself."""
    if isinstance(x, (list, tuple)) or type(x).__name__.startswith("StdVec") \
            or type(x).__name__.endswith(("Stack", "FromMatrices")):
        return [_as_array(x[k]) for k in range(len(x))]
    if hasattr(x, "homogeneous"):
        return np.asarray(x.homogeneous, dtype=float)
    if hasattr(x, "matrix") and callable(x.matrix):
        return np.asarray(x.matrix(), dtype=float)
    return np.asarray(getattr(x, "vector", x), dtype=float)


def _compare(got, ref, idx, batch, what):
    """pinref's ``got`` (batched) at state ``idx`` against pin's ``ref`` (one state)."""
    if isinstance(ref, list):
        assert len(got) == len(ref), what
        for k, (g, r) in enumerate(zip(got, ref)):
            _compare(g, r, idx, batch, f"{what}[{k}]")
        return
    g = np.asarray(got)
    tail = g.shape[len(batch):] if g.ndim >= len(batch) and g.shape[:len(batch)] == batch \
        else g.shape
    g = np.broadcast_to(g, batch + tail)[idx]
    assert_close(g, np.reshape(ref, g.shape) if np.size(ref) == g.size else ref, what=what)


def check_against_pin(model_name, batch, scale, call, rng, dtype=None):
    """Run ``call`` in pinref on a batch of states whose unit parts are off by ``scale`` (one
    value, or one per state) and in pin state by state; compare the result and the caches.
    Both models get one random armature (a composite of more than 6 dofs needs it in ABA)."""
    rmodel, pmodel = build(model_name)
    rmodel.armature = rng.uniform(0.1, 1.0, rmodel.nv)
    pmodel.armature = rmodel.armature.copy()
    q, v, a = random_states(pmodel, batch, rng)
    q = off_unit(rmodel, q, np.broadcast_to(scale, batch))
    if dtype is not None:
        q = q.astype(dtype).astype(float)
    run, fields = CALLS[call]
    rdata = rmodel.createData()
    got = run(pinref, rmodel, rdata, q, v, a)
    for idx in np.ndindex(*batch):
        pdata = pmodel.createData()
        ref = run(pin, pmodel, pdata, q[idx], v[idx], a[idx])
        if ref is not None:
            for k, r in enumerate(ref if isinstance(ref, tuple) else (ref,)):
                g = got[k] if isinstance(ref, tuple) else got
                _compare(_as_array(g), _as_array(r), idx, batch, f"{call} result {k}")
        for name in fields:
            _compare(_as_array(getattr(rdata, name)), _as_array(getattr(pdata, name)), idx,
                     batch, f"{call}: data.{name} at state {idx}")


@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize("model_name", ["humanoid", "tree0"])
def test_states_off_unit_by_their_own_amounts_match_pin(model_name, call):
    """Five states in one batch, each off unit by its own amount (up to 9e-7 of both signs):
    the humanoid's root free flyer, and the random tree's deeper joints."""
    check_against_pin(model_name, (5,), [1e-9, 1e-7, 5e-7, 9e-7, -9e-7], call,
                      np.random.default_rng(7))


def test_the_inertia_of_a_body_moved_by_a_scaled_rotation_is_pins():
    """``SE3.act(Inertia)`` with a rotation scaled by 1 + 5e-7 gives pin's (m, c, I), and the
    6x6 matrix the algorithms start from (``act_inertia_matrix``) is its matrix."""
    rng = np.random.default_rng(3)
    Y = pinref.Inertia.Random(rng=rng)
    M = pinref.SE3.Random(rng=rng)
    R = M.rotation * (1 + 5e-7)
    pY = pin.Inertia(float(Y.mass), Y.lever.copy(), Y.inertia.copy())
    ref = pin.SE3(R, M.translation.copy()).act(pY)
    got = pinref.SE3.unchecked(R, M.translation).act(Y)
    assert_close(got.matrix(), ref.matrix())
    assert_close(act_inertia_matrix(R, M.translation, Y.mass, Y.lever, Y.inertia), ref.matrix())


# pin 3.8.0's computeCoriolisMatrix crashes on a composite joint of more than 6 dofs, as these
# models' have (tests/algorithms/test_coriolis.py)
_PIN_CRASHES = {("composite_tree", "computeCoriolisMatrix"),
                ("composite_nested", "computeCoriolisMatrix")}


@pytest.mark.slow
@pytest.mark.parametrize("dtype", [None, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("batch", BATCH_SHAPES, ids=str)
@pytest.mark.parametrize("model_name, call", [
    (model_name, call) for model_name in MODEL_NAMES + COMPOSITE_MODEL_NAMES for call in CALLS
    if (model_name, call) not in _PIN_CRASHES])
def test_every_model_scale_and_batch_matches_pin(model_name, call, batch, dtype):
    """Every test model, every call, the project's batch shapes: each scale of SCALES in turn
    (float64), or the float32 rounding of random states (norms off by about 1e-8)."""
    rng = np.random.default_rng(11)
    for scale in (SCALES if dtype is None else [0.0]):
        check_against_pin(model_name, batch, scale, call, rng, dtype)


@pytest.mark.parametrize("convention", ["LOCAL", "WORLD"])
@pytest.mark.parametrize("model_name", ["humanoid", "tree0"])
def test_diff_agrees_on_states_off_unit(model_name, convention):
    """``pinref diff`` (``pinref.compare.compare``) on such states: every cache at every stop
    agrees, the intermediate values it rebuilds from pin's end state included (oMi Y_i and
    liMi Ycrb_c through Pinocchio's Symmetric3 formula, ``reference.inertia_action``)."""
    rmodel, pmodel = build(model_name)
    rng = np.random.default_rng(5)
    q, v, a = random_states(pmodel, (6,), rng)
    q = off_unit(rmodel, q, np.linspace(-9e-7, 9e-7, 6))
    tau = rng.normal(size=v.shape)
    report = compare(rmodel, q, v, a, tau, convention=convention)
    assert report.agree, str(report)
