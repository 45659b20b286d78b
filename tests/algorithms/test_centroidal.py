"""ccrba, dccrba, computeCentroidalMap[TimeVariation], computeCentroidalMomentum[TimeVariation]
(pinref/algorithms/centroidal.py).

Oracles: Pinocchio 3.8.0 call by call on one Data (centroidal_cases.check_sequence: results and
every cache, per state, including what a call leaves alone); the identities hg = Ag v and
dhg = Ag a + dAg v; dAg against central differences of pin's own computeCentroidalMap along
the motion q(t) = q (+) t v. Pinocchio's dAg takes each joint's S as constant in the joint
frame, so the last two hold with v = 0 on the joints whose S changes with q (SphericalZYX,
Universal: their c_J = dS/dt v_J is missing from dAg, in pin as in pinref).
"""

import numpy as np
import pinocchio as pin
import pytest
from centroidal_cases import BATCHES, check_sequence
from conftest import assert_close
from models import MODEL_NAMES, build, random_states
from test_rnea_derivatives import configuration_dependent_columns

import pinref
from pinref.errors import (
    ArgumentTypeError,
    NotComputedError,
    NotNormalizedError,
    ShapeError,
)

SEQUENCES = {
    "maps": [("ccrba", ("q", "v")), ("computeCentroidalMap", ("q",)), ("dccrba", ("q", "v")),
             ("computeCentroidalMapTimeVariation", ("q", "v"))],
    "momentum": [("computeCentroidalMomentum", ("q", "v")),
                 ("computeCentroidalMomentumTimeVariation", ("q", "v", "a")),
                 ("forwardKinematics", ("q", "v", "a")), ("computeCentroidalMomentum", ()),
                 ("computeCentroidalMomentumTimeVariation", ())],
    # computeCentroidalMapTimeVariation reads vcom[0] as it is: zeros in a fresh Data, then the
    # CoM velocity of centerOfMass, then computeCentroidalMomentum's
    "stale_vcom": [("computeCentroidalMapTimeVariation", ("q", "v")),
                   ("centerOfMass", ("q", "v")), ("computeCentroidalMapTimeVariation", ("q", "v")),
                   ("computeCentroidalMomentum", ("q", "a")),
                   ("computeCentroidalMapTimeVariation", ("q", "v"))],
    # after crba and rnea: h, f, mass and com are overwritten, oYcrb and Ag replaced
    "after_other_passes": [("crba", ("q",)), ("rnea", ("q", "v", "a")), ("ccrba", ("q", "v")),
                           ("computeCentroidalMomentumTimeVariation", ("q", "v", "a"))],
}


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("sequence", list(SEQUENCES))
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_call_sequence_matches_pin(model_name, sequence, batch):
    check_sequence(SEQUENCES[sequence], model_name, sequence, batch)


# --- identities ---------------------------------------------------------------------------------


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_momentum_is_the_map_times_the_velocity(model_name):
    """hg = Ag v (ccrba and computeCentroidalMomentum), dhg = Ag a + dAg v (dccrba and the time
    variation), Ag.linear = mass Jcom, Ig.mass = total mass, on a batch of 4."""
    rmodel, pmodel = build(model_name)
    q, v, a = random_states(pmodel, (4,), np.random.default_rng(7))
    v[:, configuration_dependent_columns(rmodel)] = 0.0
    data = rmodel.createData()
    Ag = pinref.ccrba(rmodel, data, q, v)
    hg = pinref.computeCentroidalMomentum(rmodel, rmodel.createData(), q, v)
    dAg = pinref.dccrba(rmodel, data, q, v)
    dhg = pinref.computeCentroidalMomentumTimeVariation(rmodel, rmodel.createData(), q, v, a)
    Jcom = pinref.jacobianCenterOfMass(rmodel, rmodel.createData(), q)
    mass = pinref.computeTotalMass(rmodel)
    for k in range(4):
        assert_close(Ag[k] @ v[k], hg.vector[k], what="hg = Ag v")
        assert_close(Ag[k] @ a[k] + dAg[k] @ v[k], dhg.vector[k], what="dhg = Ag a + dAg v")
        assert_close(Ag[k, :3], mass * Jcom[k], what="Ag.linear = mass Jcom")
    assert_close(data.Ig.mass, np.full(4, mass), what="Ig.mass")


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_map_time_variation_against_finite_differences_of_pin(model_name):
    """dAg = d/dt Ag(q (+) t v) at t = 0, by central differences of pin.computeCentroidalMap
    (the error falls as eps^2 down to rounding: at eps = 1e-4 it is below 1e-6 relative)."""
    rmodel, pmodel = build(model_name)
    q, v, _ = random_states(pmodel, (), np.random.default_rng(11))
    v[configuration_dependent_columns(rmodel)] = 0.0
    dAg = pinref.dccrba(rmodel, rmodel.createData(), q, v)
    eps = 1e-4

    def Ag(t):
        return pin.computeCentroidalMap(pmodel, pmodel.createData(),
                                        pin.integrate(pmodel, q, t * v)).copy()

    fd = (Ag(eps) - Ag(-eps)) / (2 * eps)
    assert_close(dAg, fd, 1e-6, "dAg against finite differences")


def test_results_are_owned_copies_as_in_pin():
    """pin's Python returns copies of Ag, dAg and hg (the next call leaves them alone); so does
    pinref."""
    rmodel, pmodel = build("humanoid")
    q, v, _ = random_states(pmodel, (2,), np.random.default_rng(5))
    data, pdata = rmodel.createData(), pmodel.createData()
    for name in ("ccrba", "dccrba"):
        got, ref = getattr(pinref, name)(rmodel, data, q[0], v[0]), \
            getattr(pin, name)(pmodel, pdata, q[0], v[0])
        kept, kept_ref = got.copy(), ref.copy()
        getattr(pinref, name)(rmodel, data, q[1], v[1])
        getattr(pin, name)(pmodel, pdata, q[1], v[1])
        np.testing.assert_array_equal(got, kept)
        np.testing.assert_array_equal(ref, kept_ref)
    hg = pinref.computeCentroidalMomentum(rmodel, data, q[0], v[0])
    kept = hg.vector.copy()
    pinref.computeCentroidalMomentum(rmodel, data, q[1], v[1])
    np.testing.assert_array_equal(hg.vector, kept)


# --- bad input ----------------------------------------------------------------------------------


def test_bad_input_raises_typed_errors():
    rmodel, pmodel = build("humanoid")
    q, v, _ = random_states(pmodel, (), np.random.default_rng(2))
    data = rmodel.createData()
    with pytest.raises(ShapeError, match="q"):
        pinref.ccrba(rmodel, data, q[:-1], v)
    with pytest.raises(ShapeError, match="v"):
        pinref.dccrba(rmodel, data, q, v[:-1])
    bad_q = q.copy()
    bad_q[3:7] *= 2.0                                     # the free flyer's quaternion
    with pytest.raises(NotNormalizedError):
        pinref.computeCentroidalMap(rmodel, data, bad_q)
    with pytest.raises(ArgumentTypeError, match="both q and v"):
        pinref.computeCentroidalMomentum(rmodel, data, q)
    with pytest.raises(ArgumentTypeError, match="q, v and a"):
        pinref.computeCentroidalMomentumTimeVariation(rmodel, data, q, v)


def test_momentum_from_data_before_the_kinematics_raises():
    rmodel, pmodel = build("manipulator")
    q, v, _ = random_states(pmodel, (), np.random.default_rng(3))
    data = rmodel.createData()
    with pytest.raises(NotComputedError, match="forwardKinematics"):
        pinref.computeCentroidalMomentum(rmodel, data)
    pinref.forwardKinematics(rmodel, data, q, v)
    pinref.computeCentroidalMomentum(rmodel, data)
    with pytest.raises(NotComputedError, match="data.a"):
        pinref.computeCentroidalMomentumTimeVariation(rmodel, data)
