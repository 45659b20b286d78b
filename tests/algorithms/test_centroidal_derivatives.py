"""computeCentroidalDynamicsDerivatives and getCentroidalDynamicsDerivatives
(pinref/algorithms/centroidal_derivatives.py).

Oracles: Pinocchio 3.8.0 call by call on one Data (centroidal_cases.check_sequence: the four
results and every cache, per state); identities with the centroidal map and momentum; central
finite differences of pin's own computeCentroidalMomentum[TimeVariation] along the tangent
space, on the columns where Pinocchio's derivatives are the true ones (not the SphericalZYX and
Universal joints, whose S changes with q: test_rnea_derivatives.py).
"""

import numpy as np
import pinocchio as pin
import pytest
from centroidal_cases import BATCHES, check_sequence
from conftest import assert_close, slow_cases
from models import MODEL_NAMES, build, random_states
from test_rnea_derivatives import constant_subspace_columns

import pinref
from pinref.checking.finite_differences import eps_sweep
from pinref.errors import NotComputedError, ShapeError

SEQUENCES = {
    "compute": [("computeCentroidalDynamicsDerivatives", ("q", "v", "a")),
                ("computeCentroidalDynamicsDerivatives", ("q", "a", "v"))],
    "get_after_rnea": [("computeRNEADerivatives", ("q", "v", "a")),
                       ("getCentroidalDynamicsDerivatives", ())],
    "get_after_rnea_fext": [("computeRNEADerivatives", ("q", "v", "a", "f")),
                            ("getCentroidalDynamicsDerivatives", ()),
                            ("getCentroidalDynamicsDerivatives", ())],
    "compute_then_get": [("computeCentroidalDynamicsDerivatives", ("q", "v", "a")),
                         ("getCentroidalDynamicsDerivatives", ()),
                         ("computeCentroidalMomentumTimeVariation", ("q", "v", "a"))],
}


@pytest.mark.parametrize("armature", [False, True], ids=["no_armature", "armature"])
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("sequence", list(SEQUENCES))
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_call_sequence_matches_pin(model_name, sequence, batch, armature):
    check_sequence(SEQUENCES[sequence], model_name, sequence, batch, armature)


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_identities_with_the_centroidal_map_and_momentum(model_name):
    """dhdot_da is the centroidal map; hg and dhg are those of the centroidal passes; the getter
    after computeRNEADerivatives gives the same four matrices (batch of 3)."""
    rmodel, pmodel = build(model_name)
    q, v, a = random_states(pmodel, (3,), np.random.default_rng(4))
    data = rmodel.createData()
    out = pinref.computeCentroidalDynamicsDerivatives(rmodel, data, q, v, a)
    other = rmodel.createData()
    Ag = pinref.computeCentroidalMap(rmodel, other, q)
    dhg = pinref.computeCentroidalMomentumTimeVariation(rmodel, other, q, v, a)
    rnea = rmodel.createData()
    pinref.computeRNEADerivatives(rmodel, rnea, q, v, a)
    got = pinref.getCentroidalDynamicsDerivatives(rmodel, rnea)
    for k in range(3):
        assert_close(out[3][k], Ag[k], what="dhdot_da = Ag")
        assert_close(data.dhg.vector[k], dhg.vector[k], what="dhg")
        assert_close(data.hg.vector[k], other.hg.vector[k], what="hg")
        for j in range(4):
            assert_close(got[j][k], out[j][k], what=f"getter result {j}")


@pytest.mark.parametrize("model_name", slow_cases(MODEL_NAMES, ("tree0", "tree1")))
def test_derivatives_against_finite_differences_of_pin(model_name):
    """Central differences (eps 1e-3 .. 1e-8) of pin.computeCentroidalMomentum (q) and
    pin.computeCentroidalMomentumTimeVariation (q, v, a): a valley below 1e-6 in q, rounding
    only in v and a (dhg is quadratic in v, linear in a)."""
    rmodel, pmodel = build(model_name)
    q, v, a = random_states(pmodel, (), np.random.default_rng(8))
    dh_dq, dhdot_dq, dhdot_dv, dhdot_da = pinref.computeCentroidalDynamicsDerivatives(
        rmodel, rmodel.createData(), q, v, a)

    def hg(q, v, a):
        return pin.computeCentroidalMomentum(pmodel, pmodel.createData(), q, v).vector.copy()

    def dhg(q, v, a):
        return pin.computeCentroidalMomentumTimeVariation(pmodel, pmodel.createData(), q, v,
                                                          a).vector.copy()

    cols = constant_subspace_columns(rmodel)
    for f, wrt, analytic in ((hg, "q", dh_dq), (dhg, "q", dhdot_dq), (dhg, "v", dhdot_dv),
                             (dhg, "a", dhdot_da)):
        sweep = eps_sweep(rmodel, f, q, v, a, analytic, wrt=wrt, batched=False, columns=cols)
        assert sweep.best.relative_error < 1e-6, str(sweep)
        if wrt == "q":
            assert sweep.is_valley, str(sweep)


def test_results_are_new_arrays():
    rmodel, pmodel = build("humanoid")
    q, v, a = random_states(pmodel, (), np.random.default_rng(9))
    data = rmodel.createData()
    out = pinref.computeCentroidalDynamicsDerivatives(rmodel, data, q, v, a)
    assert all(x.flags.owndata for x in out)
    assert not np.shares_memory(out[3], data.Ag)


def test_bad_input_raises_typed_errors():
    rmodel, pmodel = build("manipulator")
    q, v, a = random_states(pmodel, (), np.random.default_rng(1))
    data = rmodel.createData()
    with pytest.raises(ShapeError, match="a"):
        pinref.computeCentroidalDynamicsDerivatives(rmodel, data, q, v, a[:-1])
    with pytest.raises(NotComputedError, match="computeRNEADerivatives"):
        pinref.getCentroidalDynamicsDerivatives(rmodel, data)
