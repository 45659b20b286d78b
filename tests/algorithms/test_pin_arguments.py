"""The algorithms' argument boundary against Pinocchio 3.8.0 (issue 12 item 2, issue 13 items
1, 3, 8 and the overflow warning): (n, 1) columns give what Pinocchio returns, a column is told
apart from a batch of one, and what Pinocchio refuses (or pinref refuses on purpose) raises a
typed error naming the argument.
"""

import warnings

import numpy as np
import pinocchio as pin
import pytest

import pinref
from conftest import assert_close
from models import build, random_states
from pinref import errors


def _column(x):
    return np.asarray(x).reshape(-1, 1)


def _calls(lib):
    """name -> f(model, data, q, v, a): every algorithm taking q, v, a/tau as vectors."""
    return {
        "rnea": lambda m, d, q, v, a: lib.rnea(m, d, q, v, a),
        "aba": lambda m, d, q, v, a: lib.aba(m, d, q, v, a),
        "crba": lambda m, d, q, v, a: lib.crba(m, d, q),
        "nonLinearEffects": lambda m, d, q, v, a: lib.nonLinearEffects(m, d, q, v),
        "computeGeneralizedGravity": lambda m, d, q, v, a: lib.computeGeneralizedGravity(m, d, q),
        "computeRNEADerivatives": lambda m, d, q, v, a: lib.computeRNEADerivatives(m, d, q, v, a),
        "computeABADerivatives": lambda m, d, q, v, a: lib.computeABADerivatives(m, d, q, v, a),
        "computeJointJacobians": lambda m, d, q, v, a: lib.computeJointJacobians(m, d, q),
        "jacobianCenterOfMass": lambda m, d, q, v, a: lib.jacobianCenterOfMass(m, d, q),
        "centerOfMass": lambda m, d, q, v, a: lib.centerOfMass(m, d, q, v, a),
        "computeKineticEnergy": lambda m, d, q, v, a: lib.computeKineticEnergy(m, d, q, v),
        "integrate": lambda m, d, q, v, a: lib.integrate(m, q, v),
        "difference": lambda m, d, q, v, a: lib.difference(m, q, lib.integrate(m, q, v)),
        "interpolate": lambda m, d, q, v, a: lib.interpolate(m, q, lib.integrate(m, q, v), 0.3),
        "dIntegrate": lambda m, d, q, v, a: lib.dIntegrate(m, q, v, lib.ARG0),
        "squaredDistance": lambda m, d, q, v, a: lib.squaredDistance(m, q, q),
        "normalize": lambda m, d, q, v, a: lib.normalize(m, q),
    }


@pytest.mark.parametrize("name", ["manipulator", "humanoid", "tutorial"])
@pytest.mark.parametrize("call", list(_calls(pin)))
def test_column_vectors_give_what_pin_returns(name, call):
    model, pmodel = build(name)
    q, v, a = random_states(pmodel, (), np.random.default_rng(3))
    pdata = pmodel.createData()  # alive while ref is: pin returns views of its caches
    got = _calls(pinref)[call](model, model.createData(), _column(q), _column(v), _column(a))
    ref = _calls(pin)[call](pmodel, pdata, _column(q), _column(v), _column(a))
    flat = _calls(pinref)[call](model, model.createData(), q, v, a)
    for g, r, f in zip(*(x if isinstance(x, tuple) else (x,) for x in (got, ref, flat))):
        assert np.shape(g) == np.shape(r) == np.shape(f)
        assert_close(g, np.asarray(r), what=call)


def test_random_configuration_bounds_as_columns():
    """bindings_rnea/aba/com setUp: bounds np.full((nq, 1), pi) give a (nq,) configuration."""
    model, pmodel = build("humanoid")
    qmax = np.full((model.nq, 1), np.pi)
    q = pinref.randomConfiguration(model, -qmax, qmax)
    assert q.shape == pin.randomConfiguration(pmodel, -qmax, qmax).shape == (model.nq,)
    assert np.all(np.abs(q[7:]) <= np.pi) and pinref.isNormalized(model, q, 1e-12)
    with pytest.raises(errors.ShapeError, match="lower_bound: expected trailing shape"):
        pinref.randomConfiguration(model, -np.ones((model.nq, 2)), np.ones(model.nq))


def test_a_column_is_told_apart_from_a_batch_of_one():
    model, pmodel = build("manipulator")
    q, v, a = random_states(pmodel, (), np.random.default_rng(4))
    data = model.createData()
    ref = pin.rnea(pmodel, pmodel.createData(), q, v, a)
    assert pinref.rnea(model, data, _column(q), _column(v), a).shape == (6,)
    batch_of_one = pinref.rnea(model, data, q[None], v[None], a[None])  # (1, nq): a batch
    assert batch_of_one.shape == (1, 6)
    assert_close(batch_of_one[0], ref)
    with pytest.raises(TypeError):  # pin refuses a row
        pin.rnea(pmodel, pmodel.createData(), q[None], v, a)
    with pytest.raises(errors.ShapeError, match="expected trailing shape"):  # not (nq, 1, 1)
        pinref.rnea(model, data, q[:, None, None], v, a)


def test_a_one_dof_model_reads_1x1_as_a_column_and_bx1_as_a_batch():
    model = pinref.Model()
    j = model.addJoint(0, pinref.JointModelRY(), pinref.SE3.Identity(), "hinge")
    model.appendBodyToJoint(j, pinref.Inertia(1.0, np.array([0.0, 0.0, 0.5]), np.eye(3)))
    pmodel = pinref.to_pinocchio(model)
    data, pdata = model.createData(), pmodel.createData()
    x = np.array([[0.3]])
    ref = pin.rnea(pmodel, pdata, x, x, x)
    got = pinref.rnea(model, data, x, x, x)
    assert got.shape == ref.shape == (1,)
    assert_close(got, ref)
    three = np.array([[0.3], [0.4], [0.5]])  # (3, 1): three states of the one dof
    batch = pinref.rnea(model, data, three, three, three)
    assert batch.shape == (3, 1)
    for k in range(3):
        assert_close(batch[k], pin.rnea(pmodel, pdata, three[k], three[k], three[k]))
    assert pinref.rnea(model, data, x[None], x[None], x[None]).shape == (1, 1, 1)


CALLS_WITH_DATA = {
    "rnea": lambda m, d, q, v: pinref.rnea(m, d, q, v, v),
    "nonLinearEffects": lambda m, d, q, v: pinref.nonLinearEffects(m, d, q, v),
    "jacobianCenterOfMass": lambda m, d, q, v: pinref.jacobianCenterOfMass(m, d, q),
    "computeSubtreeMasses": lambda m, d, q, v: pinref.computeSubtreeMasses(m, d),
    "aba": lambda m, d, q, v: pinref.aba(m, d, q, v, v),
    "crba": lambda m, d, q, v: pinref.crba(m, d, q),
    "computeRNEADerivatives": lambda m, d, q, v: pinref.computeRNEADerivatives(m, d, q, v, v),
    "computeABADerivatives": lambda m, d, q, v: pinref.computeABADerivatives(m, d, q, v, v),
    "forwardKinematics": lambda m, d, q, v: pinref.forwardKinematics(m, d, q, v),
    "centerOfMass": lambda m, d, q, v: pinref.centerOfMass(m, d, q),
    "computeTotalMass": lambda m, d, q, v: pinref.computeTotalMass(m, d),
    "getVelocity": lambda m, d, q, v: pinref.getVelocity(m, d, 1),
    "computeFrameJacobian": lambda m, d, q, v: pinref.computeFrameJacobian(m, d, q, 3),
    "getFrameJacobianTimeVariation": lambda m, d, q, v: pinref.getFrameJacobianTimeVariation(
        m, d, 3, pinref.LOCAL),
    "updateFramePlacements": lambda m, d, q, v: pinref.updateFramePlacements(m, d),
    "getJointJacobian": lambda m, d, q, v: pinref.getJointJacobian(m, d, 1, pinref.LOCAL),
    "computePotentialEnergy": lambda m, d, q, v: pinref.computePotentialEnergy(m, d),
}


@pytest.mark.parametrize("call", [c for c in CALLS_WITH_DATA if c != "computeTotalMass"])
def test_data_none_is_refused_by_every_call(call):
    """(computeTotalMass(model, data=None) is the model-only overload.)"""
    model = pinref.buildTutorialModel()
    with pytest.raises(errors.ArgumentTypeError, match="data: expected a pinref.Data, got None"):
        CALLS_WITH_DATA[call](model, None, pinref.neutral(model), np.zeros(model.nv))


@pytest.mark.parametrize("call", list(CALLS_WITH_DATA))
def test_a_data_of_another_model_is_refused(call):
    """issue 13 item 1: aba(T, H.createData(), ...) returned a wrong ddq; pin raises
    RuntimeError, pinref DataModelMismatchError (a RuntimeError too)."""
    T, H = pinref.buildTutorialModel(), pinref.buildSampleModelHumanoid()
    q, v = pinref.neutral(T), np.zeros(T.nv)
    with pytest.raises(errors.DataModelMismatchError, match="created for another model.*"
                       r"njoints 30, nq 35.*model.createData\(\)"):
        CALLS_WITH_DATA[call](T, H.createData(), q, v)
    with pytest.raises(RuntimeError):
        CALLS_WITH_DATA[call](T, H.createData(), q, v)
    pT, pH = pinref.to_pinocchio(T), pin.buildSampleModelHumanoid()
    with pytest.raises(RuntimeError):
        pin.aba(pT, pH.createData(), q, v, v)


def test_a_data_of_a_model_with_another_structure_but_equal_sizes_is_refused():
    a, b = pinref.Model(), pinref.Model()
    for model, types in ((a, (pinref.JointModelRX, pinref.JointModelRY)),
                         (b, (pinref.JointModelRX, pinref.JointModelRZ))):
        j = 0
        for k, joint in enumerate(types):
            j = model.addJoint(j, joint(), pinref.SE3.Identity(), f"j{k}")
            model.appendBodyToJoint(j, pinref.Inertia(1.0, np.ones(3) * 0.1, np.eye(3)))
    with pytest.raises(errors.DataModelMismatchError):
        pinref.rnea(a, b.createData(), np.zeros(2), np.zeros(2), np.zeros(2))


def test_a_data_of_the_same_model_with_other_parameters_is_accepted_as_in_pin():
    model, pmodel = build("manipulator")
    data, pdata = model.createData(), pmodel.createData()
    q, v, a = random_states(pmodel, (), np.random.default_rng(8))
    for m in (model, pmodel):
        m.inertias[2] = type(m.inertias[2])(2.0, np.array([0.1, 0.0, 0.3]), np.eye(3))
        m.jointPlacements[3] = type(m.jointPlacements[3])(np.eye(3), np.array([0.0, 0.2, 0.5]))
    assert_close(pinref.aba(model, data, q, v, a), pin.aba(pmodel, pdata, q, v, a))


COMPLEX_ARGUMENTS = {
    "q": lambda m, d, q, v: pinref.rnea(m, d, q * (1 + 0j), v, v),
    "v": lambda m, d, q, v: pinref.aba(m, d, q, v + 1e-3j, v),
    "a": lambda m, d, q, v: pinref.rnea(m, d, q, v, v + 1j),
    "tau": lambda m, d, q, v: pinref.aba(m, d, q, v, v + 1j),
    "fext": lambda m, d, q, v: pinref.rnea(m, d, q, v, v, np.zeros((m.njoints, 6)) + 1j),
    "q2": lambda m, d, q, v: pinref.difference(m, q, q + 0j),
    "alpha": lambda m, d, q, v: pinref.interpolate(m, q, q, 0.5 + 0.1j),
    "lower_bound": lambda m, d, q, v: pinref.randomConfiguration(m, -np.ones(m.nq) + 0j,
                                                                 np.ones(m.nq)),
    "armature": lambda m, d, q, v: setattr(m, "armature", np.ones(m.nv) + 0j),
    "centerOfMass": lambda m, d, q, v: pinref.centerOfMass(m, d, q + 0j),
}


@pytest.mark.parametrize("argument", list(COMPLEX_ARGUMENTS))
def test_complex_input_is_refused_in_every_argument(argument):
    """issue 13 item 3: complex input lost its imaginary part silently."""
    model = pinref.buildTutorialModel()
    q, v = pinref.neutral(model), np.zeros(model.nv)
    with pytest.raises(errors.ArgumentTypeError, match="expected real numbers"):
        COMPLEX_ARGUMENTS[argument](model, model.createData(), q, v)


@pytest.mark.parametrize("case", ["ragged", "ragged_com", "data=None", "convention=5", "alpha='x'",
                                  "q=None", "q='abc'", "fext[2]=array"])
def test_bad_arguments_at_the_api_boundary(case):
    """issue 13 item 8: each raised a raw NumPy/attribute error or went through."""
    model = pinref.buildTutorialModel()
    data, q, v = model.createData(), pinref.neutral(model), np.zeros(model.nv)
    forces = [pinref.Force.Zero() for _ in range(model.njoints)]
    forces[2] = np.zeros(6)
    error, match, run = {
        "ragged": (errors.ShapeError, r"q: .*ragged list of rows of lengths \[9, 8\]",
                   lambda: pinref.rnea(model, data, [[0.0] * 9, [0.0] * 8], v, v)),
        "ragged_com": (errors.ShapeError, r"q: .*ragged list of rows of lengths \[9, 8\]",
                       lambda: pinref.centerOfMass(model, data, [[0.0] * 9, [0.0] * 8])),
        "data=None": (errors.ArgumentTypeError, r"data: expected a pinref.Data, got None",
                      lambda: pinref.rnea(model, None, q, v, v)),
        "convention=5": (errors.ModelError, "convention must be pinref.Convention",
                         lambda: pinref.aba(model, data, q, v, v, convention=5)),
        "alpha='x'": (errors.ArgumentTypeError, "interpolate: alpha: expected an array of real",
                      lambda: pinref.interpolate(model, q, q, "x")),
        "q=None": (errors.ArgumentTypeError, "q: expected an array of real numbers, got None",
                   lambda: pinref.crba(model, data, None)),
        "q='abc'": (errors.ArgumentTypeError, "q: expected an array of real numbers, got str",
                    lambda: pinref.crba(model, data, "abc")),
        "fext[2]=array": (errors.ShapeError, r"fext\[2\]: expected a pinref.Force.*Pinocchio",
                          lambda: pinref.rnea(model, data, q, v, v, forces)),
    }[case]
    with pytest.raises(error, match=match):
        run()


def test_pin_refuses_the_same_arguments():
    pmodel = pinref.to_pinocchio(pinref.buildTutorialModel())
    pdata, q, v = pmodel.createData(), pin.neutral(pmodel), np.zeros(pmodel.nv)
    for run in (lambda: pin.rnea(pmodel, pdata, [[0.0] * 9, [0.0] * 8], v, v),
                lambda: pin.rnea(pmodel, None, q, v, v),
                lambda: pin.interpolate(pmodel, q, q, "x"),
                lambda: pin.rnea(pmodel, pdata, q, v, v, [pin.Force.Zero()] * 2 + [np.zeros(6)]
                                 + [pin.Force.Zero()])):
        with pytest.raises(TypeError):
            run()


@pytest.mark.parametrize("call, cache", [("rnea", "a_gf[1]"), ("aba", "a_gf[1]"),
                                         ("nonLinearEffects", "a_gf[1]"),
                                         ("computeRNEADerivatives", "a[1]"),
                                         ("computeKineticEnergy", "kinetic_energy")])
def test_overflow_from_finite_input_warns_naming_the_first_cache(call, cache):
    """issue 13 'Also': v = 1e200 gives NaN/inf like pin, and pinref says where it began."""
    model, pmodel = build("humanoid")
    q, v = pinref.neutral(model), np.full(model.nv, 1e200)
    args = {"nonLinearEffects": (q, v), "computeKineticEnergy": (q, v)}.get(call, (q, v, v * 0))
    with np.errstate(all="ignore"), pytest.warns(errors.NonFiniteResultWarning,
                                                 match=rf"{call}: data.{cache.replace('[', '.')}"):
        got = getattr(pinref, call)(model, model.createData(), *args)
    pdata = pmodel.createData()
    ref = getattr(pin, call)(pmodel, pdata, *args)
    first = lambda x: x[0] if isinstance(x, tuple) else x  # noqa: E731
    assert not np.all(np.isfinite(first(got))) and not np.all(np.isfinite(first(ref)))


def test_an_overflow_in_the_torque_regressor_warns_once():
    """Issue 25 item 16: v = 1e200 gave about 200 NumPy RuntimeWarnings before pinref's own; now
    that one alone, as pin's result holds NaN/inf too."""
    model, pmodel = build("humanoid")
    q, v = pinref.neutral(model), np.full(model.nv, 1e200)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = pinref.computeJointTorqueRegressor(model, model.createData(), q, v, v * 0)
    assert [w.category for w in caught] == [errors.NonFiniteResultWarning], \
        [str(w.message) for w in caught]
    assert "computeJointTorqueRegressor: data." in str(caught[0].message)
    with np.errstate(all="ignore"):
        ref = pin.computeJointTorqueRegressor(pmodel, pmodel.createData(), q, v, v * 0)
    assert not np.all(np.isfinite(got)) and not np.all(np.isfinite(ref))


def test_finite_results_do_not_warn():
    model, pmodel = build("humanoid")
    q, v, a = random_states(pmodel, (5,), np.random.default_rng(1))
    with warnings.catch_warnings():
        warnings.simplefilter("error", errors.NonFiniteResultWarning)
        data = model.createData()
        for call in _calls(pinref).values():
            call(model, data, q, v * 1e3, a)


@pytest.mark.parametrize("model", [pin.buildSampleModelManipulator(), None, "humanoid"],
                         ids=["pin.Model", "None", "str"])
def test_data_of_what_is_no_pinref_model_is_refused(model):
    with pytest.raises(errors.UnsupportedError, match=r"Data\(model\): expected a pinref.Model"):
        pinref.Data(model)


def test_fext_of_forces_built_from_columns_as_in_pin():
    """issue 12 item 2, fext entries: pin takes Forces (not bare arrays) in fext; Forces built
    from (6, 1) columns give what pin gives, as a list and as a StdVec_Force."""
    model, pmodel = build("humanoid")
    q, v, a = random_states(pmodel, (), np.random.default_rng(12))
    columns = np.random.default_rng(13).normal(size=(model.njoints, 6, 1))
    pdata = pmodel.createData()
    ref = pin.rnea(pmodel, pdata, q, v, a, [pin.Force(c) for c in columns])
    forces = [pinref.Force(c) for c in columns]
    for fext in (forces, pinref.StdVec_Force(forces)):
        assert_close(pinref.rnea(model, model.createData(), _column(q), v, _column(a), fext), ref)
