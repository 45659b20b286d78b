"""pin's small Python modules against Pinocchio 3.8.0: ``utils``, ``explog`` (``exp``/``log``),
``rpy`` and ``liegroups``. Tolerance ``1e-12 * max(1, max|ref|)`` per quantity and state."""

import contextlib
import io
import math

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close

import pinref
from pinref.errors import ShapeError, UnsupportedError

SHAPES = [(), (5,), (2, 3)]


@pytest.fixture(params=SHAPES, ids=str)
def batch(request):
    return request.param


def each(batch, check):
    for idx in np.ndindex(*batch):
        check(idx)


# --- utils ------------------------------------------------------------------------------------


def test_utils_helpers_match_pin():
    m = np.arange(9.0)
    for M in (m, m.reshape(1, 9), m.reshape(9, 1), m.reshape(3, 3)):
        assert pinref.utils.npToTuple(M) == pin.utils.npToTuple(M)
    assert pinref.utils.npToTTuple(m.reshape(3, 3)) == pin.utils.npToTTuple(m.reshape(3, 3))
    np.testing.assert_array_equal(pinref.utils.eye(4), pin.utils.eye(4))
    np.testing.assert_array_equal(pinref.utils.zero((2, 3)), pin.utils.zero((2, 3)))
    assert pinref.utils.rand(3).shape == pin.utils.rand(3).shape
    assert pinref.utils.rand([2, 4]).shape == pin.utils.rand([2, 4]).shape
    assert pinref.utils.np is np and pinref.utils.npl is np.linalg
    assert_close(pinref.utils.rotate("y", 0.3), pin.utils.rotate("y", 0.3))


@pytest.mark.parametrize("a, b, eps", [(1, 2, 1e-6), (1, 2, 10), ([1e10, 1e-7], [1.00001e10, 1e-8],
                                       1e-6), ([1e10, 1e-8], [1.00001e10, 1e-9], 1e-5)])
def test_isapprox_matches_pin(a, b, eps):
    assert pinref.utils.isapprox(a, b, eps) == pin.utils.isapprox(a, b, eps)


def test_isapprox_compares_spatial_objects_by_np():
    M = pinref.SE3.Random()
    assert pinref.utils.isapprox(M, M.copy())
    v = pinref.Motion.Random()
    assert pinref.utils.isapprox(v, v.copy()) and not pinref.utils.isapprox(v, v * 2.0)


def test_mprint_prints_as_pin():
    H = pin.SE3.Random().homogeneous
    ours, theirs = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(ours):
        pinref.utils.mprint(pinref.SE3(H))
    with contextlib.redirect_stdout(theirs):
        pin.utils.mprint(pin.SE3(H))
    assert ours.getvalue() == theirs.getvalue()


def test_from_list_to_vector_of_string():
    v = pinref.utils.fromListToVectorOfString(["a", "b"])
    assert list(v) == list(pin.utils.fromListToVectorOfString(["a", "b"]))


# --- explog -----------------------------------------------------------------------------------


def test_exp_log_dispatch_as_pin(rng):
    w, nu = rng.normal(size=3), rng.normal(size=6)
    for x in (w, w.reshape(3, 1)):
        assert_close(pinref.exp(x), pin.exp(x))
    for x in (nu, nu.reshape(6, 1)):
        assert_close(pinref.exp(x).homogeneous, pin.exp(x).homogeneous)
    assert_close(pinref.exp(pinref.Motion(nu)).homogeneous, pin.exp(pin.Motion(nu)).homogeneous)
    assert pinref.exp(0.5) == pin.exp(0.5) == math.exp(0.5)
    assert pinref.log(42) == pin.log(42) == math.log(42)
    R = pin.exp3(w)
    assert_close(pinref.log(R), pin.log(R))
    H = pin.exp6(nu).homogeneous
    assert_close(pinref.log(H).vector, pin.log(H).vector)
    assert_close(pinref.log(pinref.SE3(H)).vector, pin.log(pin.SE3(H)).vector)
    assert pinref.explog.exp is pinref.exp and pinref.explog.log is pinref.log


@pytest.mark.parametrize("call", [lambda: pinref.exp(np.eye(4)), lambda: pinref.exp([0, 1, 2]),
                                  lambda: pinref.log([0, 1, 2]), lambda: pinref.log(np.zeros(5)),
                                  lambda: pinref.log(np.zeros((3, 1))),
                                  lambda: pinref.exp("x")])
def test_exp_log_refuse_what_pin_refuses(call):
    with pytest.raises(ShapeError):
        call()


def test_exp_log_of_batched_objects(rng):
    nu = pinref.Motion(rng.normal(size=(5, 6)))
    M = pinref.exp(nu)
    assert M.shape == (5,)
    assert_close(pinref.log(M).vector, pinref.log6(M).vector)


# --- rpy --------------------------------------------------------------------------------------


def test_rpy_to_matrix_and_back_match_pin(rng, batch):
    rpy = rng.uniform(-np.pi, np.pi, batch + (3,)) * np.array([1.0, 0.5, 1.0])
    R = pinref.rpy.rpyToMatrix(rpy)
    back = pinref.rpy.matrixToRpy(R)

    def check(idx):
        ref = pin.rpy.rpyToMatrix(rpy[idx])
        assert_close(R[idx], ref)
        assert_close(pinref.rpy.rpyToMatrix(*rpy[idx]), pin.rpy.rpyToMatrix(*rpy[idx]))
        assert_close(back[idx], pin.rpy.matrixToRpy(ref))

    each(batch, check)


@pytest.mark.parametrize("pitch", [np.pi / 2, -np.pi / 2])
def test_matrix_to_rpy_at_the_singularity_matches_pin(rng, pitch):
    for r, y in rng.uniform(-np.pi, np.pi, (20, 2)):
        R = pin.rpy.rpyToMatrix(r, pitch, y)
        assert_close(pinref.rpy.matrixToRpy(R), pin.rpy.matrixToRpy(R))


def test_matrix_to_rpy_of_random_rotations_matches_pin(rng):
    for _ in range(100):
        R = pin.Quaternion(rng.uniform(size=4)).normalized().toRotationMatrix()
        assert_close(pinref.rpy.matrixToRpy(R), pin.rpy.matrixToRpy(R))


@pytest.mark.parametrize("axis", ["x", "y", "z"])
def test_rotate_matches_pin(axis, batch, rng):
    angle = rng.uniform(-4, 4, batch)
    R = pinref.rpy.rotate(axis, angle)
    each(batch, lambda idx: assert_close(R[idx], pin.rpy.rotate(axis, float(angle[idx]))))


@pytest.mark.parametrize("frame", ["LOCAL", "WORLD", "LOCAL_WORLD_ALIGNED"])
def test_rpy_jacobians_match_pin(rng, batch, frame):
    rpy = rng.uniform(-1.5, 1.5, batch + (3,))
    rpydot = rng.normal(size=batch + (3,))
    ours, theirs = getattr(pinref, frame), getattr(pin, frame)
    J = pinref.rpy.computeRpyJacobian(rpy, ours)
    Jinv = pinref.rpy.computeRpyJacobianInverse(rpy, ours)
    dJ = pinref.rpy.computeRpyJacobianTimeDerivative(rpy, rpydot, ours)

    def check(idx):
        assert_close(J[idx], pin.rpy.computeRpyJacobian(rpy[idx], theirs))
        assert_close(Jinv[idx], pin.rpy.computeRpyJacobianInverse(rpy[idx], theirs))
        assert_close(dJ[idx], pin.rpy.computeRpyJacobianTimeDerivative(rpy[idx], rpydot[idx],
                                                                      theirs))

    each(batch, check)
    np.testing.assert_array_equal(pinref.rpy.computeRpyJacobian(rpy),
                                  pinref.rpy.computeRpyJacobian(rpy, pinref.LOCAL))


def test_rpy_refusals():
    with pytest.raises(ShapeError, match="Invalid axis"):
        pinref.rpy.rotate("w", 1.0)
    with pytest.raises(ShapeError):
        pinref.rpy.rotate("toto", 1.0)
    with pytest.raises(UnsupportedError):
        pinref.rpy.computeRpyJacobian(np.zeros(3), 7)
    with pytest.raises(ShapeError):
        pinref.rpy.rpyToMatrix(1.0, 2.0)


# --- liegroups --------------------------------------------------------------------------------

GROUPS = ["R3", "SO3", "SO2", "SE3", "SE2", "R3xSO3", "R1", "R2", "Rn"]


def groups(name):
    if name == "R3xSO3":
        return (pinref.liegroups.R3() * pinref.liegroups.SO3(),
                pin.liegroups.R3() * pin.liegroups.SO3())
    if name == "Rn":
        return pinref.liegroups.Rn(7), pin.liegroups.Rn(7)
    return getattr(pinref.liegroups, name)(), getattr(pin.liegroups, name)()


def configurations(lg, rng, shape):
    """Random configurations drawn by pinref (pin's random is not seedable)."""
    q = np.stack([lg.random() for _ in range(int(np.prod(shape)))])
    return q.reshape(tuple(shape) + (lg.nq,))


@pytest.mark.parametrize("name", GROUPS)
def test_lie_group_attributes_match_pin(name):
    ours, theirs = groups(name)
    assert (ours.name, ours.nq, ours.nv) == (theirs.name, theirs.nq, theirs.nv)
    np.testing.assert_array_equal(ours.neutral, theirs.neutral)


@pytest.mark.parametrize("name", GROUPS)
def test_lie_group_operations_match_pin(name, rng, batch):
    ours, theirs = groups(name)
    q0, q1 = configurations(ours, rng, batch), configurations(ours, rng, batch)
    v = rng.normal(size=batch + (ours.nv,))
    J0 = rng.normal(size=batch + (ours.nv, ours.nv))
    u = 0.3
    res = {"integrate": ours.integrate(q0, v), "difference": ours.difference(q0, q1),
           "interpolate": ours.interpolate(q0, q1, u),
           "distance": ours.distance(q0, q1), "squaredDistance": ours.squaredDistance(q0, q1)}
    for arg in (0, 1):
        res[f"dIntegrate{arg}"] = ours.dIntegrate(q0, v, arg)
        res[f"dDifference{arg}"] = ours.dDifference(q0, q1, arg)
        res[f"dDifference{arg}SJ"] = ours.dDifference(q0, q1, arg, 0, J0)
        res[f"dDifference{arg}JS"] = ours.dDifference(q0, q1, arg, J0, 0)
        res[f"transport{arg}"] = ours.dIntegrateTransport(q0, v, J0, arg)
        res[f"transport_vec{arg}"] = ours.dIntegrateTransport(q0, v, v, arg)
    for which in ("dq", "dv"):
        f = getattr(ours, f"dIntegrate_{which}")
        res[which] = f(q0, v)
        res[which + "SJ"], res[which + "JS"] = f(q0, v, 0, J0), f(q0, v, J0, 0)

    def check(idx):
        a, b, w, J = q0[idx], q1[idx], v[idx], J0[idx]
        ref = {"integrate": theirs.integrate(a, w), "difference": theirs.difference(a, b),
               "interpolate": theirs.interpolate(a, b, u), "distance": theirs.distance(a, b),
               "squaredDistance": theirs.squaredDistance(a, b)}
        for arg, parg in ((0, pin.ARG0), (1, pin.ARG1)):
            ref[f"dIntegrate{arg}"] = theirs.dIntegrate(a, w, parg)
            ref[f"dDifference{arg}"] = theirs.dDifference(a, b, parg)
            ref[f"dDifference{arg}SJ"] = theirs.dDifference(a, b, parg, 0, J)
            ref[f"dDifference{arg}JS"] = theirs.dDifference(a, b, parg, J, 0)
            ref[f"transport{arg}"] = theirs.dIntegrateTransport(a, w, J, parg)
            # pin returns a 1-element tangent vector as a (1, 1) matrix (eigenpy's MatrixXd)
            ref[f"transport_vec{arg}"] = theirs.dIntegrateTransport(a, w, w, parg).reshape(-1)
        for which in ("dq", "dv"):
            f = getattr(theirs, f"dIntegrate_{which}")
            ref[which], ref[which + "SJ"], ref[which + "JS"] = f(a, w), f(a, w, 0, J), f(a, w, J, 0)
        for key, value in ref.items():
            assert_close(np.asarray(res[key])[idx], value, what=key)

    each(batch, check)


@pytest.mark.parametrize("name", GROUPS)
def test_lie_group_random_and_normalize(name, rng):
    ours, _ = groups(name)
    q = ours.random()
    assert q.shape == (ours.nq,)
    assert_close(ours.difference(q, ours.integrate(q, np.zeros(ours.nv))), np.zeros(ours.nv))
    lower, upper = -np.ones(ours.nq) * 0.1, np.ones(ours.nq) * 0.1
    q = ours.randomConfiguration(lower, upper)
    scaled = 2.0 * q
    assert ours.normalize(scaled) is None  # in place (pin's binding leaves q unchanged)
    expected = 2.0 * q
    for space, start in zip(ours._spaces, np.cumsum([0] + [s.nq for s in ours._spaces])):
        if space.unit is not None:
            unit = slice(start + space.unit.start, start + space.unit.stop)
            expected[unit] = q[unit] / np.linalg.norm(q[unit])
    assert_close(scaled, expected)
    assert_close(ours.distance(q, ours.integrate(q, np.zeros(ours.nv))), 0.0)


def test_lie_group_products_and_equality():
    R3, SO3 = pinref.liegroups.R3(), pinref.liegroups.SO3()
    assert (R3 * SO3).name == "R^3 x SO(3)" and R3 == pinref.liegroups.Rn(3) and R3 != SO3
    assert pinref.LieGroup is pinref.liegroups.LieGroup
    with pytest.raises(ShapeError):
        R3.integrate(np.zeros(3), np.zeros(4))
    with pytest.raises(ShapeError, match="SELF"):
        R3.dIntegrate_dq(np.zeros(3), np.zeros(3), np.eye(3))
