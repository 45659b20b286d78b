"""Inputs at the edges of what the algorithms take, against Pinocchio 3.8.0 where it has an
answer and typed pinref.errors where it has none:

- a model whose every inertia is zero: the centre of mass is 0/0; pinref returns Pinocchio's
  NaN with one NonFiniteResultWarning naming the zero mass, and no NumPy warning;
- empty batches ``(0, nq)`` and ``(2, 0, nq)``: every algorithm returns empty arrays of the
  batch's shape, as it does for any other batch;
- a model with nv = 0 (every joint of the humanoid locked by buildReducedModel): the results
  have pin's shapes, such as (3, 0), and values;
- an empty JointModelComposite is refused at addJoint (createData failed on it; pin crashes);
- arguments of the wrong kind get typed errors instead of builtin ones.
"""

import warnings

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close

import pinref
from pinref import errors

# name -> call(lib, model, data, q, v, a); results are compared as arrays (a Force's vector)
CALLS = {
    "rnea": lambda L, m, d, q, v, a: L.rnea(m, d, q, v, a),
    "nonLinearEffects": lambda L, m, d, q, v, a: L.nonLinearEffects(m, d, q, v),
    "computeGeneralizedGravity": lambda L, m, d, q, v, a: L.computeGeneralizedGravity(m, d, q),
    "crba": lambda L, m, d, q, v, a: L.crba(m, d, q),
    "crba WORLD": lambda L, m, d, q, v, a: L.crba(m, d, q, L.Convention.WORLD),
    "aba": lambda L, m, d, q, v, a: L.aba(m, d, q, v, a),
    "aba WORLD": lambda L, m, d, q, v, a: L.aba(m, d, q, v, a, L.Convention.WORLD),
    "computeMinverse": lambda L, m, d, q, v, a: L.computeMinverse(m, d, q),
    "computeJointJacobians": lambda L, m, d, q, v, a: L.computeJointJacobians(m, d, q),
    "jacobianCenterOfMass": lambda L, m, d, q, v, a: L.jacobianCenterOfMass(m, d, q),
    "centerOfMass": lambda L, m, d, q, v, a: L.centerOfMass(m, d, q, v, a),
    "computeCentroidalMap": lambda L, m, d, q, v, a: L.computeCentroidalMap(m, d, q),
    "computeCentroidalMapTimeVariation":
        lambda L, m, d, q, v, a: L.computeCentroidalMapTimeVariation(m, d, q, v),
    "computeCentroidalMomentum":
        lambda L, m, d, q, v, a: L.computeCentroidalMomentum(m, d, q, v).vector,
    "computeCentroidalMomentumTimeVariation":
        lambda L, m, d, q, v, a: L.computeCentroidalMomentumTimeVariation(m, d, q, v, a).vector,
    "ccrba": lambda L, m, d, q, v, a: L.ccrba(m, d, q, v),
    "dccrba": lambda L, m, d, q, v, a: L.dccrba(m, d, q, v),
    "computeRNEADerivatives": lambda L, m, d, q, v, a: L.computeRNEADerivatives(m, d, q, v, a),
    "computeABADerivatives": lambda L, m, d, q, v, a: L.computeABADerivatives(m, d, q, v, a),
    "computeGeneralizedGravityDerivatives":
        lambda L, m, d, q, v, a: L.computeGeneralizedGravityDerivatives(m, d, q),
    "computeCoriolisMatrix": lambda L, m, d, q, v, a: L.computeCoriolisMatrix(m, d, q, v),
    "computeAllTerms": lambda L, m, d, q, v, a: (L.computeAllTerms(m, d, q, v), d.M)[1],
    "computeKineticEnergy": lambda L, m, d, q, v, a: L.computeKineticEnergy(m, d, q, v),
    "computePotentialEnergy": lambda L, m, d, q, v, a: L.computePotentialEnergy(m, d, q),
    "computeJointTorqueRegressor":
        lambda L, m, d, q, v, a: L.computeJointTorqueRegressor(m, d, q, v, a),
    "computeStaticRegressor": lambda L, m, d, q, v, a: L.computeStaticRegressor(m, d, q),
    "computeForwardKinematicsDerivatives":
        lambda L, m, d, q, v, a: (L.computeForwardKinematicsDerivatives(m, d, q, v, a), d.J)[1],
    "computeCentroidalDynamicsDerivatives":
        lambda L, m, d, q, v, a: L.computeCentroidalDynamicsDerivatives(m, d, q, v, a),
    "framesForwardKinematics":
        lambda L, m, d, q, v, a: (L.framesForwardKinematics(m, d, q), d.oMf[-1].translation)[1],
}
# with their results' shapes at nv = 0 (pin 3.8.0 gave them in a script, and crashed on
# getFrameJacobian of that model inside the test run: these are not called in pin)
FRAME_CALLS = {
    "getFrameJacobian": (lambda L, m, d, q, v, a: (
        L.computeJointJacobians(m, d, q), L.updateFramePlacements(m, d),
        L.getFrameJacobian(m, d, m.nframes - 1, L.ReferenceFrame.LOCAL))[-1], [(6, 0)]),
    "computeFrameJacobian": (lambda L, m, d, q, v, a: L.computeFrameJacobian(m, d, q,
                                                                             m.nframes - 1),
                             [(6, 0)]),
    "getFrameVelocityDerivatives": (lambda L, m, d, q, v, a: (
        L.computeForwardKinematicsDerivatives(m, d, q, v, a),
        L.getFrameVelocityDerivatives(m, d, m.nframes - 1, L.ReferenceFrame.LOCAL))[-1],
        [(6, 0), (6, 0)]),
    "computeJointJacobiansTimeVariation": (
        lambda L, m, d, q, v, a: L.computeJointJacobiansTimeVariation(m, d, q, v), [(6, 0)]),
}


def _arrays(result):
    return [np.asarray(x) for x in (result if isinstance(result, tuple) else (result,))]


# --- a model of zero mass --------------------------------------------------------------------

ZERO_MASS_CALLS = ["centerOfMass", "computeCentroidalMomentum",
                   "computeCentroidalMomentumTimeVariation", "jacobianCenterOfMass", "dccrba"]


def _massless(model):
    for i in range(model.njoints):
        model.inertias[i] = type(model.inertias[i]).Zero()
    return model


@pytest.mark.parametrize("call", ZERO_MASS_CALLS)
def test_a_model_of_zero_mass_gives_pins_nan_with_one_typed_warning(call):
    rmodel = _massless(pinref.buildSampleModelHumanoid())
    pmodel = _massless(pin.buildSampleModelHumanoid())
    rng = np.random.default_rng(2)
    pin.seed(2)
    q = pin.randomConfiguration(pmodel, -np.ones(pmodel.nq), np.ones(pmodel.nq))
    v, a = rng.normal(size=pmodel.nv), rng.normal(size=pmodel.nv)
    rdata, pdata = rmodel.createData(), pmodel.createData()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = CALLS[call](pinref, rmodel, rdata, q, v, a)
    ref = CALLS[call](pin, pmodel, pdata, q, v, a)
    for g, r in zip(_arrays(got), _arrays(ref), strict=True):
        assert_close(g, r, what=call)
    assert np.isnan(np.asarray(rdata.com[0])).all() == np.isnan(pdata.com[0]).all()
    assert [w.category for w in caught] == [errors.NonFiniteResultWarning], \
        [str(w.message) for w in caught]
    assert "data.mass[0], the model's total mass, is 0" in str(caught[0].message)


# --- empty batches ---------------------------------------------------------------------------

@pytest.mark.parametrize("batch", [(0,), (2, 0)], ids=str)
@pytest.mark.parametrize("call", list(CALLS))
def test_an_empty_batch_gives_empty_results(call, batch):
    """Each result has the batch's shape followed by the shape one state gives."""
    model = pinref.buildSampleModelHumanoid()
    q = np.broadcast_to(pinref.neutral(model), batch + (model.nq,))
    v = np.zeros(batch + (model.nv,))
    got = CALLS[call](pinref, model, model.createData(), q, v, v)
    one = CALLS[call](pinref, model, model.createData(), pinref.neutral(model),
                      np.zeros(model.nv), np.zeros(model.nv))
    for g, o in zip(_arrays(got), _arrays(one), strict=True):
        assert g.shape == batch + o.shape


# --- nv = 0 ----------------------------------------------------------------------------------

def _without_dofs():
    """The humanoid with every joint locked (nq = nv = 0, one joint: the universe), both."""
    humanoid, phumanoid = pinref.buildSampleModelHumanoid(), pin.buildSampleModelHumanoid()
    rmodel = pinref.buildReducedModel(humanoid, list(range(1, humanoid.njoints)),
                                      pinref.neutral(humanoid))
    pmodel = pin.buildReducedModel(phumanoid, list(range(1, phumanoid.njoints)),
                                   pin.neutral(phumanoid))
    assert rmodel.nv == pmodel.nv == 0
    return rmodel, pmodel


def _run_without_dofs(run, model):
    empty = np.zeros(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", errors.NonFiniteResultWarning)   # mass 0: com is NaN
        return _arrays(run(pinref, model, model.createData(), empty, empty, empty))


@pytest.mark.parametrize("call", list(CALLS))
def test_a_model_without_degrees_of_freedom_gives_pins_results(call):
    rmodel, pmodel = _without_dofs()
    got = _run_without_dofs(CALLS[call], rmodel)
    empty = np.zeros(0)
    ref = _arrays(CALLS[call](pin, pmodel, pmodel.createData(), empty, empty, empty))
    for g, r in zip(got, ref, strict=True):
        assert_close(g, r, what=call)


@pytest.mark.parametrize("call", list(FRAME_CALLS))
def test_frame_jacobians_without_degrees_of_freedom_have_no_column(call):
    rmodel, _ = _without_dofs()
    run, shapes = FRAME_CALLS[call]
    assert [x.shape for x in _run_without_dofs(run, rmodel)] == shapes


# --- an empty composite ----------------------------------------------------------------------

def test_an_empty_composite_is_refused_where_it_is_added():
    model = pinref.Model()
    with pytest.raises(errors.ModelError, match="JointModelComposite holds no joint"):
        model.addJoint(0, pinref.JointModelComposite(), pinref.SE3.Identity(), "empty")
    assert model.njoints == 1
    composite = pinref.JointModelComposite(pinref.JointModelRX())
    with pytest.raises(errors.ModelError, match="JointModelComposite.addJoint: joint_model"):
        composite.addJoint(pinref.JointModelComposite())
    assert composite.njoints == 1
    model.addJoint(0, composite, pinref.SE3.Identity(), "rx")
    model.createData()


# --- typed errors ----------------------------------------------------------------------------

def _derivatives_ready():
    model = pinref.buildSampleModelHumanoid()
    data = model.createData()
    zeros = np.zeros(model.nv)
    pinref.computeForwardKinematicsDerivatives(model, data, pinref.neutral(model), zeros, zeros)
    return model, data


@pytest.mark.parametrize("getter", ["getFrameVelocityDerivatives",
                                    "getFrameAccelerationDerivatives"])
@pytest.mark.parametrize("placement", [np.eye(4), pin.SE3.Identity(), "M"],
                         ids=["matrix", "pin SE3", "str"])
def test_a_frame_derivative_placement_that_is_no_se3_is_named(getter, placement):
    model, data = _derivatives_ready()
    with pytest.raises(errors.ArgumentTypeError, match="placement must be a pinref.SE3"):
        getattr(pinref, getter)(model, data, 2, placement, pinref.LOCAL)


@pytest.mark.parametrize("form", ["positional", "list keyword"])
def test_build_reduced_model_refuses_a_pinocchio_geometry_model(form):
    model = pinref.buildSampleModelHumanoid()
    q = pinref.neutral(model)
    with pytest.raises(errors.ArgumentTypeError, match="pinocchio.GeometryModel"):
        if form == "positional":
            pinref.buildReducedModel(model, pin.GeometryModel(), [1], q)
        else:
            pinref.buildReducedModel(model, list_of_geom_models=pin.GeometryModel(),
                                     list_of_joints_to_lock=[1], reference_configuration=q)


@pytest.mark.parametrize("call", ["ccrba", "dccrba"])
def test_centroidal_maps_with_momentum_refuse_v_none(call):
    model = pinref.buildSampleModelHumanoid()
    with pytest.raises(errors.ArgumentTypeError, match="^v: "):
        getattr(pinref, call)(model, model.createData(), pinref.neutral(model), None)


def test_body_regressor_refuses_batches_that_do_not_broadcast():
    v, a = pinref.Motion(np.zeros((3, 6))), pinref.Motion(np.zeros((2, 6)))
    with pytest.raises(errors.ShapeError, match="velocity \\(3,\\) and acceleration \\(2,\\)"):
        pinref.bodyRegressor(v, a)
