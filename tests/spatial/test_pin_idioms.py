"""pin's Python idioms on the spatial types, against Pinocchio 3.8.0 state by state.

``SE3 * x``, ``~M``, ``setRandom``/``setIdentity``/``setZero``, ``.np``, ``np.array``, copies,
``cast``, ``==``, ``Motion.homogeneous``, ``pin.Quaternion``, the XYZQUAT conversions,
``SE3.Interpolate``, ``skewSquare``, the Inertia shape constructors and parametrisations
(dynamic parameters, PseudoInertia, LogCholeskyParameters), Symmetric3, and (n, 1) columns.
Tolerance ``1e-12 * max(1, max|ref|)`` per quantity and state, or exact where pin is exact.
"""

import copy
import pickle

import eigenpy
import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close, rigid_body_inertia

import pinref
from pinref import SE3, Force, Inertia, Motion
from pinref.errors import ArgumentTypeError, BatchIndexError, NotNormalizedError, ShapeError

SHAPES = [(), (5,), (2, 3)]


@pytest.fixture(params=SHAPES, ids=str)
def batch(request):
    return request.param


def rotations(rng, shape):
    Q, R = np.linalg.qr(rng.normal(size=tuple(shape) + (3, 3)))
    Q = Q * np.sign(np.diagonal(R, axis1=-2, axis2=-1))[..., None, :]
    Q[..., :, 0] *= np.sign(np.linalg.det(Q))[..., None]
    return Q


def placements(rng, shape):
    R, p = rotations(rng, shape), rng.normal(size=tuple(shape) + (3,))
    return SE3(R, p), (lambda idx: pin.SE3(R[idx], p[idx]))


def inertias(rng, shape):
    shape = tuple(shape)
    A = rng.normal(size=shape + (3, 3))
    I = rigid_body_inertia(A)
    m, c = rng.uniform(0.1, 3.0, shape), rng.normal(size=shape + (3,))
    return Inertia(m, c, I), (lambda idx: pin.Inertia(float(m[idx]), c[idx], I[idx]))


def each(batch, check):
    for idx in np.ndindex(*batch):
        check(idx)


# --- SE3 * x, ~M, act on points --------------------------------------------------------------


def test_se3_times_motion_force_inertia_se3_and_point_match_pin(rng, batch):
    M, pM = placements(rng, batch)
    v, f = Motion(rng.normal(size=batch + (6,))), Force(rng.normal(size=batch + (6,)))
    Y, pY = inertias(rng, batch)
    N, pN = placements(rng, batch)
    x = rng.normal(size=batch + (3,))
    Mv, Mf, MY, MN, Mx = M * v, M * f, M * Y, M * N, M * x
    assert isinstance(Mv, Motion) and isinstance(Mf, Force) and isinstance(MY, Inertia)

    def check(idx):
        assert_close(Mv.vector[idx], (pM(idx) * pin.Motion(v.vector[idx])).vector)
        assert_close(Mf.vector[idx], (pM(idx) * pin.Force(f.vector[idx])).vector)
        assert_close(MY[idx].matrix() if batch else MY.matrix(), (pM(idx) * pY(idx)).matrix())
        assert_close((MN[idx] if batch else MN).homogeneous, (pM(idx) * pN(idx)).homogeneous)
        assert_close(Mx[idx], pM(idx) * x[idx])
        assert_close((~M)[idx].homogeneous if batch else (~M).homogeneous,
                     (~pM(idx)).homogeneous)

    each(batch, check)


def test_se3_act_and_act_inv_take_a_column_point_and_return_pins_shape(rng):
    M, pM = placements(rng, ())
    x = rng.normal(size=(3, 1))
    for ours, theirs in ((M * x, pM(()) * x), (M.act(x), pM(()).act(x)),
                         (M.actInv(x), pM(()).actInv(x))):
        assert ours.shape == theirs.shape == (3,)
        assert_close(ours, theirs)


@pytest.mark.parametrize("point", [np.ones(4), np.ones(5), "42", np.ones((3, 2))])
def test_se3_refuses_points_that_are_not_3_vectors(point):
    M = SE3.Random()
    with pytest.raises(TypeError if isinstance(point, str) else ShapeError):
        M * point
    with pytest.raises(ShapeError):
        M.actInv(point)


def test_a_homogeneous_point_is_refused_with_the_fix():
    with pytest.raises(ShapeError, match=r"x\[:3\]"):
        SE3.Random().act(np.array([1.0, 2.0, 3.0, 1.0]))


def test_se3_times_a_scalar_is_a_type_error():
    with pytest.raises(TypeError):
        SE3.Random() * 2
    with pytest.raises(TypeError):
        np.ones(3) * SE3.Random()


# --- constructors, (n, 1) columns ---------------------------------------------------------------


def test_constructors_accept_pins_columns_and_return_pins_shapes(rng):
    R, p = rotations(rng, ()), rng.normal(size=(3, 1))
    assert_close(SE3(R, p).translation, pin.SE3(R, p).translation)
    assert SE3(R, p).translation.shape == (3,)
    v = rng.normal(size=(6, 1))
    for ours, theirs in ((Motion(v), pin.Motion(v)), (Force(v), pin.Force(v)),
                         (Motion(v[:3], v[3:]), pin.Motion(v[:3], v[3:]))):
        assert ours.vector.shape == (6,)
        assert_close(ours.vector, theirs.vector)
    c = rng.normal(size=(3, 1))
    assert_close(Inertia(2.0, c, np.eye(3)).matrix(), pin.Inertia(2.0, c, np.eye(3)).matrix())


def test_identity_copy_and_quaternion_constructors_match_pin(rng):
    M, pM = placements(rng, ())
    assert SE3(1) == SE3.Identity() == SE3()
    assert SE3(M) == M and SE3(M) is not M
    q = pin.Quaternion(pM(()).rotation)
    for quat in (q, pinref.Quaternion(M.rotation)):
        assert_close(SE3(quat, M.translation).homogeneous, pin.SE3(q, M.translation).homogeneous)
    assert Motion() == Motion.Zero() and Force() == Force.Zero() and Inertia() == Inertia.Zero()
    Y, _ = inertias(rng, ())
    assert Inertia(Y) == Y and Inertia(Y) is not Y


def test_a_motion_is_not_a_force():
    with pytest.raises(ArgumentTypeError, match=r"\.vector"):
        Motion(Force.Random())


# --- in-place setters, np, copies, cast, equality -----------------------------------------------


def test_set_random_identity_zero_work_in_place_and_keep_the_batch(batch):
    M = SE3.Identity(batch)
    M.setRandom()
    assert M.shape == batch and not np.allclose(M.translation, 0)
    assert np.allclose(M.rotation @ np.swapaxes(M.rotation, -1, -2), np.eye(3))
    M.setIdentity()
    assert M == SE3.Identity(batch)
    for cls in (Motion, Force):
        x = cls.Zero(batch)
        x.setRandom()
        assert x.shape == batch and np.all(np.abs(x.vector) <= 1) and np.any(x.vector != 0)
        x.setZero()
        assert x == cls.Zero(batch)
    Y = Inertia.Zero(batch)
    Y.setRandom()
    assert Y.shape == batch and np.all(Y.mass > 0)
    Y.setIdentity()
    assert Y == Inertia.Identity(batch)
    Y.setZero()
    assert Y == Inertia.Zero(batch) and Y.isZero()


def test_np_and_array_are_pins(rng):
    M, pM = placements(rng, ())
    v = Motion.Random()
    Y, pY = inertias(rng, ())
    assert_close(M.np, pM(()).np)
    assert_close(np.array(M), np.array(pM(())))
    assert_close(v.np, pin.Motion(v.vector).np)
    assert_close(np.array(v), np.array(pin.Motion(v.vector)))
    assert_close(Y.np, pY(()).np)
    assert_close(np.array(Y), np.array(pY(())))
    for cls in (SE3, Motion, Force, Inertia):
        assert "np" in cls.__dict__  # where pinocchio.utils.isapprox looks


def test_copies_are_deep_equal_and_independent(rng):
    M, _ = placements(rng, (2,))
    Y, _ = inertias(rng, ())
    for x in (M, Motion.Random(), Force.Random(), Y):
        for clone in (x.copy(), copy.copy(x), copy.deepcopy(x), x.cast(),
                      pickle.loads(pickle.dumps(x))):
            assert clone == x and clone is not x and not (clone != x)
        clone = copy.copy(x)
        clone.setRandom()
        assert clone != x


def test_equality_is_exact(rng):
    M, _ = placements(rng, ())
    N = M.copy()
    N.translation[0] += 1e-15 * max(1.0, abs(N.translation[0]))
    assert M != N and M != 1 and Motion.Zero() != Force.Zero()


def test_motion_homogeneous_matches_pin(rng, batch):
    v = Motion(rng.normal(size=batch + (6,)))
    H = v.homogeneous
    each(batch, lambda idx: np.testing.assert_array_equal(
        H[idx], pin.Motion(v.vector[idx]).homogeneous))


def test_str_matches_pins_layout():
    assert str(Motion(np.arange(6.0))) == str(pin.Motion(np.arange(6.0)))
    assert str(Force(np.arange(6.0))) == str(pin.Force(np.arange(6.0)))
    assert str(Inertia.Identity()) == str(pin.Inertia.Identity())
    assert str(SE3.Identity()) == str(pin.SE3.Identity())
    assert str(pinref.Quaternion(1, 2, 3, 4)) == str(pin.Quaternion(1, 2, 3, 4))


def test_to_action_matrix_aliases(rng):
    M, pM = placements(rng, ())
    assert_close(M.toActionMatrix(), pM(()).toActionMatrix())
    assert_close(M.toActionMatrixInverse(), pM(()).toActionMatrixInverse())
    assert_close(M.toDualActionMatrix(), pM(()).toDualActionMatrix())


# --- SE3.Interpolate, XYZQUAT -------------------------------------------------------------------


def test_interpolate_matches_pin(rng, batch):
    A, pA = placements(rng, batch)
    B, pB = placements(rng, batch)
    alpha = rng.uniform(0, 1, batch)
    C = SE3.Interpolate(A, B, alpha)
    each(batch, lambda idx: assert_close(
        (C[idx] if batch else C).homogeneous,
        pin.SE3.Interpolate(pA(idx), pB(idx), float(alpha[idx])).homogeneous))


def test_xyzquat_conversions_match_pin(rng, batch):
    M, pM = placements(rng, batch)
    x = pinref.SE3ToXYZQUAT(M)
    assert x.shape == batch + (7,)
    each(batch, lambda idx: assert_close(x[idx], pin.SE3ToXYZQUAT(pM(idx))))
    N = pinref.XYZQUATToSE3(x)
    each(batch, lambda idx: assert_close(
        (N[idx] if batch else N).homogeneous, pin.XYZQUATToSE3(x[idx]).homogeneous))
    if not batch:
        t = pinref.SE3ToXYZQUATtuple(M)
        assert isinstance(t, tuple) and t == pin.SE3ToXYZQUATtuple(pM(()))
        assert pinref.XYZQUATToSE3(t) == pinref.XYZQUATToSE3(list(t)) == N


def test_xyzquat_refusals():
    with pytest.raises(ShapeError):
        pinref.XYZQUATToSE3([1.0, 2.0, 3.0])
    with pytest.raises(ShapeError, match="batch"):
        pinref.SE3ToXYZQUATtuple(SE3.Identity((2,)))
    with pytest.raises(NotNormalizedError, match="norm 2 "):
        pinref.XYZQUATToSE3([0, 0, 0, 0, 0, 0, 2.0])
    with pytest.raises(NotNormalizedError, match="zero") as info:
        pinref.XYZQUATToSE3(np.zeros(7))
    assert "normalize" not in str(info.value).split("leaves")[-1]


# --- Quaternion -------------------------------------------------------------------------------


def quaternions(rng, shape):
    q = rng.normal(size=tuple(shape) + (4,))
    return q / np.linalg.norm(q, axis=-1, keepdims=True)


def eig(c):
    return pin.Quaternion(np.array(c))


def test_quaternion_constructors_match_eigenpy(rng):
    c = quaternions(rng, ())
    Q = pinref.Quaternion
    np.testing.assert_array_equal(Q(c).coeffs(), eig(c).coeffs())
    np.testing.assert_array_equal(Q(c.reshape(4, 1)).coeffs(), eig(c.reshape(4, 1)).coeffs())
    np.testing.assert_array_equal(Q(c[3], c[0], c[1], c[2]).coeffs(),
                                  pin.Quaternion(c[3], c[0], c[1], c[2]).coeffs())
    R = eig(c).matrix()
    assert_close(Q(R).coeffs(), pin.Quaternion(R).coeffs())
    np.testing.assert_array_equal(Q().coeffs(), pin.Quaternion.Identity().coeffs())
    np.testing.assert_array_equal(Q(eig(c)).coeffs(), c)
    np.testing.assert_array_equal(Q(Q(c)).coeffs(), c)
    u, v = rng.normal(size=3), rng.normal(size=3)
    assert_close(Q(u, v).coeffs(), pin.Quaternion(u, v).coeffs())
    assert_close(Q.FromTwoVectors(u, v).coeffs(), pin.Quaternion.FromTwoVectors(u, v).coeffs())
    # Opposite directions: w = sqrt((1 + c) / 2) as Eigen's, about an axis orthogonal to u
    # (the SVD's choice among them, so the axis itself is not compared).
    w, pw = Q(u, -2.0 * u), pin.Quaternion(u, -2.0 * u)
    assert_close(w.w, pw.w)
    assert_close(w.norm(), 1.0)
    assert abs(w.vec() @ u) <= 1e-12 * np.linalg.norm(u)


def test_quaternion_operations_match_eigenpy(rng, batch):
    a = quaternions(rng, batch) * rng.uniform(0.5, 2.0, batch + (1,))
    b = quaternions(rng, batch)
    x = rng.normal(size=batch + (3,))
    t = rng.uniform(0, 1, batch)
    A, B = pinref.Quaternion(a), pinref.Quaternion(b)
    results = {"coeffs": A.coeffs(), "vec": A.vec(), "matrix": A.matrix(),
               "toRotationMatrix": A.toRotationMatrix(), "norm": A.norm(),
               "squaredNorm": A.squaredNorm(), "normalized": A.normalized().coeffs(),
               "inverse": A.inverse().coeffs(), "conjugate": A.conjugate().coeffs(),
               "mul": (A * B).coeffs(), "rotate": A.normalized() * x, "dot": A.dot(B),
               "angularDistance": A.normalized().angularDistance(B),
               "slerp": A.normalized().slerp(t, B).coeffs(), "x": A.x, "y": A.y, "z": A.z,
               "w": A.w}

    def check(idx):
        pa, pb = eig(a[idx]), eig(b[idx])
        pan = pa.normalized()
        ref = {"coeffs": pa.coeffs(), "vec": pa.vec(), "matrix": pa.matrix(),
               "toRotationMatrix": pa.toRotationMatrix(), "norm": pa.norm(),
               "squaredNorm": pa.squaredNorm(), "normalized": pan.coeffs(),
               "inverse": pa.inverse().coeffs(), "conjugate": pa.conjugate().coeffs(),
               "mul": (pa * pb).coeffs(), "rotate": pan * x[idx], "dot": pa.dot(pb),
               "angularDistance": pan.angularDistance(pb),
               "slerp": pan.slerp(float(t[idx]), pb).coeffs(), "x": pa.x, "y": pa.y,
               "z": pa.z, "w": pa.w}
        for key, value in ref.items():
            assert_close(np.asarray(results[key])[idx], value, what=key)

    each(batch, check)


def test_quaternion_in_place_methods_and_setters():
    q = pinref.Quaternion(1.0, 2.0, 3.0, 4.0)
    p = pin.Quaternion(1.0, 2.0, 3.0, 4.0)
    assert q.normalize() is q
    p.normalize()
    assert_close(q.coeffs(), p.coeffs())
    q.x = 7.0
    assert q.coeffs()[0] == 7.0
    with pytest.raises(ValueError):
        q.coeffs()[0] = 1.0  # read-only, as eigenpy's
    assert q.setIdentity() == pinref.Quaternion.Identity()
    assert pinref.Quaternion(0, 0, 0, 0).inverse() == pinref.Quaternion(0, 0, 0, 0)
    assert pinref.Quaternion(np.eye(3)).isApprox(pinref.Quaternion())
    r = pinref.Quaternion(0.0, 1.0, 0.0, 0.0)
    r *= r
    np.testing.assert_array_equal(r.coeffs(), (pin.Quaternion(0, 1, 0, 0)
                                               * pin.Quaternion(0, 1, 0, 0)).coeffs())


def test_log3_takes_a_quaternion_object():
    c = np.array([0.1, -0.2, 0.3, 0.9])
    c /= np.linalg.norm(c)
    ref = pin.log3(eigenpy.Quaternion(c))
    assert_close(pinref.log3(eigenpy.Quaternion(c)), ref)
    assert_close(pinref.log3(pinref.Quaternion(c)), ref)


def test_quaternion_exp_log_names_match_pin(rng):
    w = rng.normal(size=3)
    nu = rng.normal(size=6)
    assert_close(pinref.exp3_quat(w), pin.exp3_quat(w))
    assert_close(pinref.exp6_quat(nu), pin.exp6_quat(nu))
    q = pin.exp6_quat(nu)
    assert_close(pinref.log6_quat(q).vector, pin.log6_quat(q).vector)


# --- skew, unSkew, skewSquare -------------------------------------------------------------------


def test_skew_square_and_checked_skews_match_pin(rng, batch):
    u, v = rng.normal(size=batch + (3,)), rng.normal(size=batch + (3,))
    S, K, U = pinref.skewSquare(u, v), pinref.skew(u), pinref.unSkew(rng.normal(size=(3, 3)))
    assert U.shape == (3,)

    def check(idx):
        assert_close(S[idx], pin.skewSquare(u[idx], v[idx]))
        np.testing.assert_array_equal(K[idx], pin.skew(u[idx]))

    each(batch, check)
    col = u.reshape(-1)[:3].reshape(3, 1)
    np.testing.assert_array_equal(pinref.skew(col), pin.skew(col))


@pytest.mark.parametrize("call", [lambda: pinref.quaternion_to_matrix(np.zeros(3)),
                                  lambda: pinref.quaternion_to_matrix(np.zeros((4, 2))),
                                  lambda: pinref.skew(np.zeros(4)),
                                  lambda: pinref.skew(np.zeros(2)),
                                  lambda: pinref.unSkew(np.eye(2)),
                                  lambda: pinref.unSkew(np.eye(4)),
                                  lambda: pinref.skewSquare(np.zeros(3), np.zeros(4))])
def test_skews_and_quaternion_to_matrix_refuse_wrong_sizes(call):
    with pytest.raises(ShapeError):
        call()


# --- Inertia constructors and parametrisations -------------------------------------------------


@pytest.mark.parametrize("name, args", [("FromSphere", (2.5, 0.3)),
                                        ("FromEllipsoid", (2.5, 0.3, 0.7, 1.1)),
                                        ("FromCylinder", (2.5, 0.3, 1.7)),
                                        ("FromBox", (2.5, 0.3, 0.7, 1.1)),
                                        ("FromCapsule", (2.5, 0.3, 1.7))])
def test_shape_inertias_match_pin(name, args, batch):
    scale = np.linspace(0.5, 1.5, int(np.prod(batch))).reshape(batch)
    Y = getattr(Inertia, name)(*(a * scale for a in args))
    assert Y.shape == batch

    def check(idx):
        ref = getattr(pin.Inertia, name)(*(float(a * scale[idx]) for a in args))
        assert_close(Y.matrix()[idx], ref.matrix())

    each(batch, check)


def test_dynamic_parameters_match_pin(rng, batch):
    Y, pY = inertias(rng, batch)
    params = Y.toDynamicParameters()
    back = Inertia.FromDynamicParameters(params)
    pseudo = Y.toPseudoInertia()

    def check(idx):
        ref = pY(idx).toDynamicParameters()
        assert_close(params[idx], ref)
        assert_close(back[idx].matrix() if batch else back.matrix(),
                     pin.Inertia.FromDynamicParameters(ref).matrix())
        ps = pY(idx).toPseudoInertia()
        assert_close(np.asarray(pseudo.mass)[idx], ps.mass)
        assert_close(pseudo.h[idx], ps.h)
        assert_close(pseudo.sigma[idx], ps.sigma)
        assert_close(pseudo.toMatrix()[idx], ps.toMatrix())
        assert_close(pseudo.toDynamicParameters()[idx], ps.toDynamicParameters())

    each(batch, check)
    assert_close(Inertia.FromDynamicParameters(params[..., None] if not batch else params)
                 .matrix(), back.matrix())
    with pytest.raises(ShapeError):
        Inertia.FromDynamicParameters(np.array([]))


def test_pseudo_inertia_round_trips_match_pin(rng):
    Y, pY = inertias(rng, ())
    P, pP = pinref.PseudoInertia.FromInertia(Y), pin.PseudoInertia.FromInertia(pY(()))
    assert_close(P.toInertia().matrix(), pP.toInertia().matrix())
    Q = pinref.PseudoInertia.FromMatrix(P.toMatrix())
    assert_close(np.array(Q), np.array(pin.PseudoInertia.FromMatrix(pP.toMatrix())))
    assert_close(pinref.PseudoInertia(P).toMatrix(), P.toMatrix())
    assert_close(Inertia.FromPseudoInertia(P).matrix(), pin.Inertia.FromPseudoInertia(pP).matrix())
    with pytest.raises(ShapeError):
        pinref.PseudoInertia.FromDynamicParameters(np.array([]))


def test_log_cholesky_parameters_match_pin(rng, batch):
    theta = 0.5 * rng.normal(size=batch + (10,))
    L = pinref.LogCholeskyParameters(theta)
    params, J = L.toDynamicParameters(), L.calculateJacobian()
    Y, P = L.toInertia(), L.toPseudoInertia()
    Y2 = Inertia.FromLogCholeskyParameters(L)

    def check(idx):
        ref = pin.LogCholeskyParameters(theta[idx])
        assert_close(params[idx], ref.toDynamicParameters())
        assert_close(J[idx], ref.calculateJacobian())
        assert_close(Y.matrix()[idx], ref.toInertia().matrix())
        assert_close(Y2.matrix()[idx], pin.Inertia.FromLogCholeskyParameters(ref).matrix())
        assert_close(P.toMatrix()[idx], ref.toPseudoInertia().toMatrix())
        assert_close(pinref.PseudoInertia.FromLogCholeskyParameters(L).toMatrix()[idx],
                     pin.PseudoInertia.FromDynamicParameters(
                         ref.toDynamicParameters()).toMatrix())

    each(batch, check)
    np.testing.assert_array_equal(np.array(L), theta)
    with pytest.raises(ShapeError):
        pinref.LogCholeskyParameters(np.array([]))


def test_inertia_is_zero_matches_pin():
    for Y, pY in ((Inertia.Zero(), pin.Inertia.Zero()),
                  (Inertia(1e-13, np.zeros(3), np.zeros((3, 3))),
                   pin.Inertia(1e-13, np.zeros(3), np.zeros((3, 3)))),
                  (Inertia.Identity(), pin.Inertia.Identity())):
        assert Y.isZero() == pY.isZero()


# --- Symmetric3 --------------------------------------------------------------------------------


def test_symmetric3_matches_pin(rng):
    data = rng.normal(size=6)
    S, pS = pinref.Symmetric3(data), pin.Symmetric3(data)
    np.testing.assert_array_equal(S.matrix(), pS.matrix())
    np.testing.assert_array_equal(pinref.Symmetric3(S.matrix()).data, data)
    np.testing.assert_array_equal(pinref.Symmetric3(*data).data, pin.Symmetric3(*data).data)
    R = rotations(rng, ())
    assert_close(S.rotate(R).matrix(), pS.rotate(R).matrix())
    S.setDiagonal(np.array([1.0, 2.0, 3.0]))
    pS.setDiagonal(np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(S.data, pS.data)
    for name in ("Zero", "Identity"):
        np.testing.assert_array_equal(getattr(pinref.Symmetric3, name)().data,
                                      getattr(pin.Symmetric3, name)().data)
    T = pinref.Symmetric3.Zero((2, 3))
    T.setRandom()
    assert T.shape == (2, 3) and np.all(np.linalg.eigvalsh(T.matrix()) > 0)


# --- issue 13: typed errors at the spatial boundary ----------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: SE3(np.eye(3) + 0j, np.zeros(3)),
    lambda: SE3(np.eye(3), np.zeros(3) + 1j),
    lambda: Motion(np.zeros(6, dtype=complex)),
    lambda: Force(np.zeros(3), np.zeros(3) * 1j),
    lambda: Inertia(1.0 + 0j, np.zeros(3), np.eye(3)),
    lambda: pinref.Quaternion(np.array([0, 0, 0, 1j])),
    lambda: pinref.exp3(np.zeros(3) + 1j),
])
def test_complex_input_is_refused(call):
    with pytest.raises(ArgumentTypeError, match="complex"):
        call()


@pytest.mark.parametrize("obj", [Motion.Random(), Force.Random(), SE3.Random(),
                                 Inertia.Random()])
def test_indexing_an_unbatched_object_is_refused(obj):
    with pytest.raises(BatchIndexError, match="no batch axes"):
        obj[5]


def test_indexing_past_the_batch_axes_is_refused():
    with pytest.raises(BatchIndexError, match=r"batch shape \(5,\)"):
        Motion.Zero((5,))[0, 3]
    assert Motion.Zero((5,))[1:3].shape == (2,)


def test_wrong_kinds_of_arguments_name_the_fix():
    with pytest.raises(ArgumentTypeError, match="Force.se3Action: M: expected a pinref SE3"):
        Force.Random().se3Action(Motion.Random())
    with pytest.raises(ArgumentTypeError, match="Inertia.vxiv: v: expected a pinref Motion"):
        Inertia.Random().vxiv(Force.Random())
    with pytest.raises(ArgumentTypeError, match=r"pinocchio\.Force \(from the pinocchio package"):
        Motion.Random().cross(pin.Force.Random())
    with pytest.raises(ArgumentTypeError, match="SE3.isApprox: other: expected a pinref SE3, got "
                                                 r"pinocchio\.SE3 \(from the pinocchio"):
        SE3.Identity().isApprox(pin.SE3.Identity())


def test_an_empty_batch_inertia_is_an_empty_batch():
    Y = Inertia(np.zeros(0), np.zeros((0, 3)), np.zeros((0, 3, 3)))
    assert Y.shape == (0,) and Y.matrix().shape == (0, 6, 6)
    assert (SE3.Identity((0,)) * Y).shape == (0,)


# --- issue 13 item 10: messages that say the real norm and the real fix -------------------------


def test_not_normalized_messages_print_the_real_norm_and_the_real_fix():
    so3 = pinref.joints.liegroup.SpecialOrthogonal3()
    with pytest.raises(NotNormalizedError, match=r"norm 2 \(off 1 by 1,") as info:
        so3.integrate(np.array([0.0, 0.0, 0.0, 2.0]), np.zeros(3))
    assert "normalize(q)" in str(info.value)
    with pytest.raises(NotNormalizedError, match=r"zero \(norm 0\)") as info:
        so3.integrate(np.array([[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0]]), np.zeros(3))
    assert "call normalize" not in str(info.value) and "(0, 0, 0, 1)" in str(info.value)
    with pytest.raises(NotNormalizedError, match=r"\(1, 0\)"):
        pinref.joints.liegroup.SpecialOrthogonal2().integrate(np.zeros(2), np.zeros(1))
    with pytest.raises(NotNormalizedError, match=r"norm 0\.5 "):
        pinref.liegroups.SE3().difference(np.array([0, 0, 0, 0, 0, 0, 0.5]),
                                          pinref.liegroups.SE3().neutral)


# --- assignments coerce as pin's setters do ---------------------------------------------------


def test_field_assignments_take_columns_and_refuse_wrong_sizes(rng):
    M, pM = SE3.Random(), pin.SE3.Random()
    col = rng.normal(size=(3, 1))
    M.translation, pM.translation = col, col
    assert M.translation.shape == pM.translation.shape == (3,)
    assert_close(M.translation, pM.translation)
    v, pv = Motion.Zero(), pin.Motion.Zero()
    v.linear, pv.linear = col, col
    v.vector[3:] = 1.0
    assert_close(v.linear, pv.linear)
    v.vector = rng.normal(size=(6, 1))
    assert v.vector.shape == (6,)
    Y = Inertia.Zero()
    Y.mass, Y.lever = 10, col
    assert Y.mass.shape == () and Y.lever.shape == (3,)
    assert_close(Y.matrix(), pin.Inertia(10.0, col, np.zeros((3, 3))).matrix())
    for obj, name, value in ((M, "translation", np.zeros(4)), (M, "rotation", np.eye(2)),
                             (v, "vector", np.zeros(5)), (v, "angular", np.zeros(2)),
                             (Y, "lever", np.zeros(2)), (Y, "mass", "abc"),
                             (M, "translation", np.array([np.nan, 0, 0]))):
        with pytest.raises(ValueError, match=name):
            setattr(obj, name, value)


# --- AngleAxis -----------------------------------------------------------------------------------


def test_angle_axis_matches_eigenpy(rng, batch):
    angle = rng.uniform(-4, 4, batch)
    axis = rng.normal(size=batch + (3,))
    axis /= np.linalg.norm(axis, axis=-1, keepdims=True)
    q = quaternions(rng, batch)
    A = pinref.AngleAxis(angle, axis)
    from_q, from_R = pinref.AngleAxis(pinref.Quaternion(q)), pinref.AngleAxis(
        pinref.Quaternion(q).matrix())
    x = rng.normal(size=batch + (3,))
    res = {"matrix": A.matrix(), "quaternion": pinref.Quaternion(A).coeffs(),
           "from_q.angle": from_q.angle, "from_q.axis": from_q.axis,
           "from_R.angle": from_R.angle, "from_R.axis": from_R.axis,
           "inverse": A.inverse().matrix(), "A * A": (A * A).coeffs(), "A * x": A * x}

    def check(idx):
        e = eigenpy.AngleAxis(float(angle[idx]), axis[idx])
        eq = eigenpy.AngleAxis(eigenpy.Quaternion(q[idx]))
        eR = eigenpy.AngleAxis(eigenpy.Quaternion(q[idx]).matrix())
        ref = {"matrix": e.matrix(), "quaternion": eigenpy.Quaternion(e).coeffs(),
               "from_q.angle": eq.angle, "from_q.axis": eq.axis, "from_R.angle": eR.angle,
               "from_R.axis": eR.axis, "inverse": e.inverse().matrix(), "A * A": (e * e).coeffs(),
               "A * x": e * x[idx]}
        for key, value in ref.items():
            assert_close(np.asarray(res[key])[idx], value, what=key)

    each(batch, check)


def test_angle_axis_defaults_copies_and_print():
    assert str(pinref.AngleAxis()) == str(eigenpy.AngleAxis(eigenpy.Quaternion(1, 0, 0, 0)))
    A = pinref.AngleAxis(0.3, np.array([0.0, 0.0, 1.0]))
    assert str(A) == str(eigenpy.AngleAxis(0.3, np.array([0.0, 0.0, 1.0])))
    assert pinref.AngleAxis(A).isApprox(A) and not A.isApprox(A.inverse())
    assert pinref.AngleAxis(pinref.Quaternion()).angle == 0.0
    assert pinref.AngleAxis is pinref.spatial.AngleAxis
    with pytest.raises(ShapeError):
        pinref.AngleAxis(0.3, np.zeros(4))
