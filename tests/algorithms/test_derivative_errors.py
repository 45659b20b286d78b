"""Bad input to the derivative algorithms and to the eps-sweep helper: each raises a pinref.errors
type (checked before anything is written) with a message naming the argument or the joint."""

import numpy as np
import pytest

import pinref
from pinref import errors
from pinref.checking.finite_differences import central_differences, eps_sweep

MODEL = pinref.buildTutorialModel()
CALLS = {
    "computeRNEADerivatives": "qva",
    "computeABADerivatives": "qva",
    "computeGeneralizedGravityDerivatives": "q",
    "computeStaticTorqueDerivatives": "qf",
}


def _state(batch=()):
    q = np.zeros(batch + (MODEL.nq,))
    q[..., 6] = 1.0
    v = np.full(batch + (MODEL.nv,), 0.1)
    return q, v, v.copy(), np.zeros(batch + (MODEL.njoints, 6))


def _args(keys, q, v, a, fext):
    return [{"q": q, "v": v, "a": a, "f": fext}[k] for k in keys]


@pytest.mark.parametrize("call", list(CALLS))
def test_wrong_sizes(call):
    keys = CALLS[call]
    for k in range(len(keys)):
        args = _args(keys, *_state())
        args[k] = args[k][..., :-1]
        with pytest.raises(errors.ShapeError, match="expected trailing shape"):
            getattr(pinref, call)(MODEL, pinref.Data(MODEL), *args)


@pytest.mark.parametrize("call", ["computeRNEADerivatives", "computeABADerivatives"])
def test_batches_that_do_not_broadcast(call):
    q, _, _, _ = _state((2,))
    _, v, a, _ = _state((3,))
    with pytest.raises(errors.ShapeError, match="do not broadcast"):
        getattr(pinref, call)(MODEL, pinref.Data(MODEL), q, v, a)


@pytest.mark.parametrize("bad_value", [np.nan, np.inf])
@pytest.mark.parametrize("call", list(CALLS))
def test_non_finite(call, bad_value):
    keys = CALLS[call]
    for k, key in enumerate(keys):
        args = _args(keys, *_state())
        args[k] = args[k].copy()
        args[k][..., 1] = bad_value
        name = {"q": "q", "v": "v", "a": "a" if call == "computeRNEADerivatives" else "tau",
                "f": "fext"}[key]
        with pytest.raises(errors.NonFiniteError, match=f"{name}: contains NaN or infinity"):
            getattr(pinref, call)(MODEL, pinref.Data(MODEL), *args)


@pytest.mark.parametrize("call", list(CALLS))
def test_non_unit_quaternion_names_the_joint_and_the_fix(call):
    q, v, a, fext = _state((3,))
    q[1, 3:7] = [0.1, 0.2, 0.3, 2.0]
    with pytest.raises(errors.NotNormalizedError, match="'root_joint'.*pinref.normalize"):
        getattr(pinref, call)(MODEL, pinref.Data(MODEL), *_args(CALLS[call], q, v, a, fext))


@pytest.mark.parametrize("call", ["computeRNEADerivatives", "computeABADerivatives",
                                  "computeStaticTorqueDerivatives"])
def test_wrong_fext(call):
    q, v, a, _ = _state()
    args = [q, v, a] if call != "computeStaticTorqueDerivatives" else [q]
    data = pinref.Data(MODEL)
    run = getattr(pinref, call)
    forces = [pinref.Force.Zero() for _ in range(MODEL.njoints)]
    with pytest.raises(errors.ShapeError, match="model.njoints = 4"):
        run(MODEL, data, *args, forces[:-1])
    with pytest.raises(errors.ShapeError, match=r"fext\[2\]: expected a pinref.Force"):
        run(MODEL, data, *args, forces[:2] + [np.zeros(6)] + forces[3:])
    with pytest.raises(errors.ShapeError, match="fext: expected trailing shape"):
        run(MODEL, data, *args, np.zeros((MODEL.njoints, 3)))
    states_of_two = [np.broadcast_to(x, (2,) + x.shape) for x in args]
    with pytest.raises(errors.ShapeError, match="do not broadcast"):
        run(MODEL, data, *states_of_two, np.zeros((3, MODEL.njoints, 6)))


@pytest.mark.parametrize("call", ["computeRNEADerivatives", "computeABADerivatives"])
def test_gravity_with_an_angular_part_is_refused_as_in_pinocchio(call):
    model = pinref.buildTutorialModel()
    model.gravity = pinref.Motion(np.array([0.0, 0.0, -9.81]), np.array([0.1, 0.0, 0.0]))
    q, v, a, _ = _state()
    with pytest.raises(errors.ModelError, match="pure linear acceleration"):
        getattr(pinref, call)(model, pinref.Data(model), q, v, a)


@pytest.mark.parametrize("call", list(CALLS))
def test_subtrees_not_numbered_contiguously(call):
    model = pinref.Model()
    for parent in (0, 1, 1, 2):  # joint 4 hangs from joint 2 after joint 3: subtree 2 = {2, 4}
        jid = model.addJoint(parent, pinref.JointModelRX(), pinref.SE3.Identity(), f"j{parent}")
        model.appendBodyToJoint(jid, pinref.Inertia.Identity())
    q, v = np.zeros(4), np.zeros(4)
    args = {"q": q, "v": v, "a": v, "f": None}
    with pytest.raises(errors.ModelError, match="not numbered contiguously"):
        getattr(pinref, call)(model, pinref.Data(model), *[args[k] for k in CALLS[call]])


def test_singular_joint_inertia_names_the_joint_and_leaves_minv_alone():
    model = pinref.buildTutorialModel()
    last = model.njoints - 1
    model.inertias[last] = pinref.Inertia.Zero()  # a massless leaf: StU = 0 without armature
    data = pinref.Data(model)
    before = data.Minv.copy()
    q, v, a, _ = _state()
    with pytest.raises(errors.NotPositiveDefiniteError, match=repr(model.names[last])) as info:
        pinref.computeABADerivatives(model, data, q, v, a)
    assert info.value.joint_id == last
    np.testing.assert_array_equal(data.Minv, before)
    model.armature = np.full(model.nv, 0.1)  # armature makes it invertible again
    pinref.computeABADerivatives(model, data, q, v, a)


def test_eps_sweep_bad_input():
    q, v, a, _ = _state()

    def tau(q, v, a):
        return pinref.rnea(MODEL, pinref.Data(MODEL), q, v, a)

    good = np.zeros((MODEL.nv, MODEL.nv))
    with pytest.raises(ValueError, match="wrt"):
        eps_sweep(MODEL, tau, q, v, a, good, wrt="tau")
    with pytest.raises(errors.ShapeError, match="analytic: expected shape"):
        eps_sweep(MODEL, tau, q, v, a, good[:, :-1])
    with pytest.raises(errors.ShapeError, match="columns"):
        eps_sweep(MODEL, tau, q, v, a, good, columns=[MODEL.nv])
    with pytest.raises(errors.ShapeError, match="one state"):
        central_differences(MODEL, tau, np.stack([q, q]), v, a)
    with pytest.raises(errors.ShapeError, match="f returned"):
        eps_sweep(MODEL, lambda q, v, a: tau(q, v, a)[..., :2], q, v, a, good)
