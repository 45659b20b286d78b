"""computeForwardKinematicsDerivatives and the joint and point getters of
kinematics-derivatives.hxx.

Oracles: Pinocchio 3.8.0, every cache the forward pass writes and every getter's results for
every joint and reference frame, per state at ``1e-12 * max(1, max|ref|)``, at batch shapes (),
(5,), (2, 3) (frame_cases.Case); and central finite differences of pin's own getVelocity,
getAcceleration, getFrameVelocity and getFrameClassicalAcceleration, swept over eps = 1e-3 ..
1e-8, along the tangent space. Pinocchio's LOCAL_WORLD_ALIGNED q-partials are the WORLD ones
moved to the joint origin: they leave out the motion of that origin (pin issue 2702), and the
sweep shows it: flat without the missing term, a valley with it (docs/quirks.md). Columns of
joints whose S depends on q (SphericalZYX, Universal) are left out of the q and v sweeps, as in
test_rnea_derivatives.py (Pinocchio's derivative passes take S constant).
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close
from frame_cases import BATCHES, Case, to_pin
from models import MODEL_NAMES, build, random_states
from test_rnea_derivatives import constant_subspace_columns

import pinref
from pinref import errors
from pinref.checking.finite_differences import eps_sweep

LOCAL, WORLD, LWA = (pinref.ReferenceFrame.LOCAL, pinref.ReferenceFrame.WORLD,
                     pinref.ReferenceFrame.LOCAL_WORLD_ALIGNED)
FRAMES = [LOCAL, WORLD, LWA]
CACHES = ("liMi", "oMi", "v", "a", "ov", "oa", "J", "dJ")


def computed(name, batch, seed=0):
    """A Case on which computeForwardKinematicsDerivatives ran in pinref and in pin."""
    case = Case(name, batch, seed)
    got, refs = case.run("computeForwardKinematicsDerivatives", case.q, case.v, case.a)
    assert got is None and all(r is None for r in refs)
    return case


def compare_tuple(case, got, refs, what):
    """A getter's tuple of batched results against pin's tuples per state."""
    assert isinstance(got, tuple) and len(got) == len(refs[0]), what
    for k, x in enumerate(got):
        case.compare(x, [r[k] for r in refs], f"{what}[{k}]")


# --- against Pinocchio --------------------------------------------------------------------------


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_forward_kinematics_derivatives_caches_match_pin(model_name, batch):
    case = computed(model_name, batch)
    case.compare_caches("computeForwardKinematicsDerivatives", CACHES)


@pytest.mark.parametrize("rf", FRAMES, ids=str)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_joint_derivatives_match_pin(model_name, batch, rf):
    case = computed(model_name, batch)
    for i in range(case.rmodel.njoints):
        for name in ("getJointVelocityDerivatives", "getJointAccelerationDerivatives"):
            got, refs = case.run(name, i, rf)
            compare_tuple(case, got, refs, f"{name}({i}, {rf})")
    case.compare_caches("after the getters", CACHES)


@pytest.mark.parametrize("rf", [LOCAL, LWA], ids=str)
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_point_derivatives_match_pin(model_name, batch, rf):
    case = computed(model_name, batch)
    for i in range(case.rmodel.njoints):
        placement = pinref.SE3.Random(rng=case.rng)
        for name in ("getPointVelocityDerivatives", "getPointClassicAccelerationDerivatives"):
            got, refs = case.run(name, i, placement, rf)
            compare_tuple(case, got, refs, f"{name}({i}, {rf})")


def test_results_are_new_arrays_as_pins():
    case = computed("humanoid", ())
    last = case.rmodel.njoints - 1
    for name, args in (("getJointAccelerationDerivatives", (last, LOCAL)),
                       ("getPointClassicAccelerationDerivatives",
                        (last, pinref.SE3.Identity(), LOCAL))):
        got, refs = case.run(name, *args)
        assert all(r.flags.owndata for r in refs[0])
        for x in got:
            assert not any(np.shares_memory(x, c) for c in (case.rdata.J, case.rdata.dJ))
        got[0][...] = 1.0
        case.compare(getattr(pinref, name)(case.rmodel, case.rdata, *args)[0],
                     [r[0] for r in refs], f"{name} after writing into a result")


def test_getters_read_what_later_calls_left():
    """computeJointJacobiansTimeVariation at another state rewrites J, dJ, oMi, v and ov but not
    oa: the acceleration getter then mixes both states, in pin and in pinref alike."""
    case = computed("tree1", (3,))
    rng = np.random.default_rng(7)
    q, v, _ = random_states(case.pmodel, (3,), rng)
    case.run("computeJointJacobiansTimeVariation", q, v)
    for rf in FRAMES:
        got, refs = case.run("getJointAccelerationDerivatives", case.rmodel.njoints - 1, rf)
        compare_tuple(case, got, refs, f"mixed caches, {rf}")


@pytest.mark.parametrize("model_name", ["humanoid", "tree0"])
def test_a_state_gives_the_same_bits_alone_or_in_a_batch(model_name):
    case = computed(model_name, (2, 3))
    last = case.rmodel.njoints - 1
    batched = pinref.getJointAccelerationDerivatives(case.rmodel, case.rdata, last, LWA)
    for idx in case.states:
        alone = pinref.Data(case.rmodel)
        pinref.computeForwardKinematicsDerivatives(case.rmodel, alone, case.q[idx], case.v[idx],
                                                   case.a[idx])
        for x, y in zip(batched, pinref.getJointAccelerationDerivatives(case.rmodel, alone, last,
                                                                        LWA)):
            np.testing.assert_array_equal(x[idx], y)


# --- against finite differences of pin's own functions ----------------------------------------


def _fd_setup(model_name):
    rng = np.random.default_rng(11)
    rmodel, pmodel = build(model_name)
    q, v, a = random_states(pmodel, (), rng)
    pdata = pmodel.createData()
    pin.computeForwardKinematicsDerivatives(pmodel, pdata, q, v, a)
    joints = sorted({rmodel.njoints // 2, rmodel.njoints - 1})   # the last one: every column
    return rmodel, pmodel, pdata, q, v, a, joints, rng


def pin_motion(pmodel, getter, *args):
    """``f(q, v, a)``: pin's ``getter(model, data, *args)`` after forwardKinematics(q, v, a), as a
    6-vector (one Data for every call: forwardKinematics rewrites all that the getter reads)."""
    data = pmodel.createData()

    def f(q, v, a):
        pin.forwardKinematics(pmodel, data, q, v, a)
        return getter(pmodel, data, *args).vector
    return f


def origin_motion_term(motion, jacobian):
    """The term pin's LOCAL_WORLD_ALIGNED q-partials leave out: ``[w x dp/dq ; 0]``, w the
    angular part of the WORLD motion (ov or oa), dp/dq the linear rows of the LWA Jacobian
    (how the origin moves)."""
    term = np.zeros_like(jacobian)
    term[:3] = np.cross(motion.angular[:, None], jacobian[:3], axis=0)
    return term


def check_sweeps(rmodel, f, q, v, a, partials, label):
    """``partials``: (wrt, matrix) pairs; q a valley (or rounding only, where f happens to be
    linear in the columns compared: a prismatic joint's), v and a rounding only (f is quadratic
    in v, linear in a), on the columns where pin's S is constant."""
    cols = constant_subspace_columns(rmodel)
    for wrt, A in partials:
        sweep = eps_sweep(rmodel, f, q, v, a, A, wrt=wrt, batched=False, label=label,
                          columns=cols)
        assert sweep.best.relative_error < 1e-6, f"{label}/{wrt}\n{sweep}"
        if wrt == "q":
            assert sweep.shape in ("valley", "rounding") or sweep.best.max_abs_error == 0.0, \
                f"{label}/{wrt}\n{sweep}"
        else:
            assert sweep.best.relative_error < 1e-9, f"{label}/{wrt}\n{sweep}"


def check_motion_sweeps(rmodel, pmodel, pdata, state, j, rf, derivatives, getters, target,
                        label):
    """The sweeps of the velocity and acceleration partials ``derivatives = ((dv_dq, dv_dv),
    (da_dq, da_dv, da_da))`` of a target on joint j against pin's ``getters`` (velocity,
    acceleration) of ``target`` in rf; in LOCAL_WORLD_ALIGNED with the term pin leaves out."""
    (dv_dq, dv_dv), (da_dq, da_dv, da_da) = derivatives
    if rf == LWA:
        dv_dq = dv_dq + origin_motion_term(pdata.ov[j], dv_dv)
        da_dq = da_dq + origin_motion_term(pdata.oa[j], da_da)
    q, v, a = state
    prf = to_pin(rf, ())
    check_sweeps(rmodel, pin_motion(pmodel, getters[0], target, prf), q, v, a,
                 [("q", dv_dq), ("v", dv_dv)], f"{label} velocity")
    check_sweeps(rmodel, pin_motion(pmodel, getters[1], target, prf), q, v, a,
                 [("q", da_dq), ("v", da_dv), ("a", da_da)], f"{label} acceleration")


@pytest.mark.parametrize("rf", FRAMES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_joint_derivatives_against_finite_differences_of_pin(model_name, rf):
    rmodel, pmodel, pdata, q, v, a, joints, _ = _fd_setup(model_name)
    rdata = rmodel.createData()
    pinref.computeForwardKinematicsDerivatives(rmodel, rdata, q, v, a)
    for j in joints:
        dv_dq, dv_dv = pinref.getJointVelocityDerivatives(rmodel, rdata, j, rf)
        v_dq, da_dq, da_dv, da_da = pinref.getJointAccelerationDerivatives(rmodel, rdata, j, rf)
        assert_close(v_dq, dv_dq, 0.0, "the two getters' dv_dq")
        check_motion_sweeps(rmodel, pmodel, pdata, (q, v, a), j, rf,
                            ((dv_dq, dv_dv), (da_dq, da_dv, da_da)),
                            (pin.getVelocity, pin.getAcceleration), j, f"joint {j}")


@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_pins_local_world_aligned_q_partials_miss_the_motion_of_the_origin(model_name):
    """Without origin_motion_term the sweep is flat: the q-partial is not getVelocity's."""
    rmodel, pmodel, pdata, q, v, a, _, _ = _fd_setup(model_name)
    j = rmodel.njoints - 1
    prf = pin.LOCAL_WORLD_ALIGNED
    dv_dq, _ = pin.getJointVelocityDerivatives(pmodel, pdata, j, prf)
    _, da_dq, _, _ = pin.getJointAccelerationDerivatives(pmodel, pdata, j, prf)
    cols = constant_subspace_columns(rmodel)
    for getter, A in ((pin.getVelocity, dv_dq), (pin.getAcceleration, da_dq)):
        sweep = eps_sweep(rmodel, pin_motion(pmodel, getter, j, prf), q, v, a, A, wrt="q",
                          batched=False, columns=cols)
        assert sweep.shape == "flat" and sweep.best.relative_error > 1e-3, str(sweep)


@pytest.mark.parametrize("rf", [LOCAL, LWA], ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_point_derivatives_against_finite_differences_of_pin(model_name, rf):
    """The point's velocity and classic acceleration are the linear parts of pin's
    getFrameVelocity and getFrameClassicalAcceleration of a frame at the point."""
    rmodel, pmodel, _, q, v, a, joints, rng = _fd_setup(model_name)
    rdata = rmodel.createData()
    pinref.computeForwardKinematicsDerivatives(rmodel, rdata, q, v, a)
    prf = to_pin(rf, ())
    for j in joints:
        M = pinref.SE3.Random(rng=rng)
        PM = to_pin(M, ())
        dv_dq, dv_dv = pinref.getPointVelocityDerivatives(rmodel, rdata, j, M, rf)
        v_dq, da_dq, da_dv, da_da = pinref.getPointClassicAccelerationDerivatives(rmodel, rdata,
                                                                                   j, M, rf)
        assert_close(v_dq, dv_dq, 0.0, "the two getters' dv_dq")
        vel = pin_motion(pmodel, pin.getFrameVelocity, j, PM, prf)
        acc = pin_motion(pmodel, pin.getFrameClassicalAcceleration, j, PM, prf)
        check_sweeps(rmodel, lambda *x: vel(*x)[:3], q, v, a, [("q", dv_dq), ("v", dv_dv)],
                     f"point v[{j}]")
        check_sweeps(rmodel, lambda *x: acc(*x)[:3], q, v, a,
                     [("q", da_dq), ("v", da_dv), ("a", da_da)], f"point acc[{j}]")


# --- bad input ----------------------------------------------------------------------------------


MODEL = pinref.buildTutorialModel()


def _state():
    rmodel, pmodel = build("tutorial")
    return random_states(pmodel, (), np.random.default_rng(0))


@pytest.mark.parametrize("name,args", [
    ("getJointVelocityDerivatives", (1, LOCAL)),
    ("getJointAccelerationDerivatives", (1, LOCAL)),
    ("getPointVelocityDerivatives", (1, pinref.SE3.Identity(), LOCAL)),
    ("getPointClassicAccelerationDerivatives", (1, pinref.SE3.Identity(), LOCAL)),
])
def test_a_getter_before_the_compute_call(name, args):
    with pytest.raises(errors.NotComputedError, match="computeForwardKinematicsDerivatives"):
        getattr(pinref, name)(MODEL, MODEL.createData(), *args)


def test_the_acceleration_getter_after_a_call_that_wrote_no_oa():
    data = MODEL.createData()
    q, v, _ = _state()
    pinref.computeJointJacobiansTimeVariation(MODEL, data, q, v)
    pinref.getJointVelocityDerivatives(MODEL, data, 1, WORLD)
    with pytest.raises(errors.NotComputedError, match=r"data\.oa was never computed"):
        pinref.getJointAccelerationDerivatives(MODEL, data, 1, WORLD)


def test_wrong_sizes_non_finite_and_unnormalized_states():
    q, v, a = _state()
    data = MODEL.createData()
    for k, name in enumerate("qva"):
        args = [q, v, a]
        args[k] = args[k][:-1]
        with pytest.raises(errors.ShapeError, match=f"{name}: expected trailing shape"):
            pinref.computeForwardKinematicsDerivatives(MODEL, data, *args)
        args = [q, v, a]
        args[k] = args[k].copy()
        args[k][0] = np.nan
        with pytest.raises(errors.NonFiniteError, match=f"{name}: contains NaN"):
            pinref.computeForwardKinematicsDerivatives(MODEL, data, *args)
    with pytest.raises(errors.NotNormalizedError, match="pinref.normalize"):
        pinref.computeForwardKinematicsDerivatives(MODEL, data, 2 * q, v, a)
    assert not data.written


def test_bad_joint_ids_reference_frames_and_placements():
    q, v, a = _state()
    data = MODEL.createData()
    pinref.computeForwardKinematicsDerivatives(MODEL, data, q, v, a)
    for name in ("getJointVelocityDerivatives", "getJointAccelerationDerivatives"):
        with pytest.raises(errors.ModelError, match="out of range"):
            getattr(pinref, name)(MODEL, data, MODEL.njoints, LOCAL)
        with pytest.raises(errors.ModelError, match="reference_frame must be"):
            getattr(pinref, name)(MODEL, data, 1, 5)
    for name in ("getPointVelocityDerivatives", "getPointClassicAccelerationDerivatives"):
        with pytest.raises(errors.ModelError, match="LOCAL or LOCAL_WORLD_ALIGNED"):
            getattr(pinref, name)(MODEL, data, 1, pinref.SE3.Identity(), WORLD)
        with pytest.raises(errors.ArgumentTypeError, match="placement must be a pinref.SE3"):
            getattr(pinref, name)(MODEL, data, 1, np.eye(4), LOCAL)


def test_pin_refuses_a_world_point_derivative_too():
    _, pmodel = build("tutorial")
    q, v, a = _state()
    pdata = pmodel.createData()
    pin.computeForwardKinematicsDerivatives(pmodel, pdata, q, v, a)
    with pytest.raises(ValueError, match="LOCAL or LOCAL_WORLD_ALIGNED"):
        pin.getPointVelocityDerivatives(pmodel, pdata, 1, pin.SE3.Identity(), pin.WORLD)
