"""exp/log maps of SO(3) and SE(3), their Jacobians and the quaternion helpers, against pin 3.8.0.

Every pinref result is compared, state by state, with a loop of Pinocchio calls, at batch shapes
(), (5,) and (2, 3), with the project tolerance ``1e-12 * max(1, max|ref|)``. Inputs: seeded
random rotation vectors over [0, 2 pi], hypothesis-generated ones, and the branch edges of the
C++: angles 0, 1e-9, 1e-5, the Taylor thresholds eps^(1/3) and eps^(1/4) (log3, log6, Jexp3,
Jlog3, Jexp6, Jlog6 switch there), and pi - 1e-5, pi - 1e-9, pi (log3's near-pi branch).
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close, assert_close_each
from hypothesis import given, settings
from hypothesis import strategies as st

from pinref.errors import NonFiniteError, PinrefError, ShapeError
from pinref.spatial import SE3, Motion
from pinref.spatial import explog as X
from pinref.spatial import quaternion as Q

SHAPES = [(), (5,), (2, 3)]
P2, P3 = X.TAYLOR_PRECISION_2, X.TAYLOR_PRECISION_3
NEAR_ZERO = [0.0, 1e-12, 1e-9, 1e-5, P2 * (1 - 1e-9), P2 * (1 + 1e-9), P3 * (1 - 1e-9),
             P3 * (1 + 1e-9), np.sqrt(P2), 2.4e-3]
NEAR_PI = [np.pi - np.sqrt(P2), np.pi - 1e-5, np.pi - 1e-7, np.pi - 1e-9, np.pi - 1e-12, np.pi,
           np.pi + 1e-9]
EDGE_ANGLES = NEAR_ZERO + NEAR_PI
# Axis-aligned, diagonal and random unit axes, with both signs.
_AXES = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 1, 1], [-1, 2, -3],
                  [0.3, -0.2, 0.9]])
AXES = np.concatenate((_AXES, -_AXES)) / np.linalg.norm(np.concatenate((_AXES, -_AXES)), axis=-1,
                                                         keepdims=True)


# --- helpers ------------------------------------------------------------------------------


def reference(fn, x, batch):
    """Loop of Pinocchio calls: ``fn(x[idx])`` for every state, stacked with the batch axes."""
    outs = [np.asarray(fn(x[idx]), dtype=float) for idx in np.ndindex(*batch)]
    return np.stack(outs).reshape(tuple(batch) + outs[0].shape)


def rotation_vectors(rng, batch, scale=None):
    """Random rotation vectors: uniform direction, angle mixing [0, 2 pi] and the edge angles."""
    n = int(np.prod(batch, dtype=int))
    axes = rng.normal(size=(n, 3))
    axes /= np.linalg.norm(axes, axis=-1, keepdims=True)
    if scale is None:
        angles = np.where(rng.random(n) < 0.3, rng.choice(EDGE_ANGLES, n),
                          rng.uniform(0, 2 * np.pi, n))
    else:
        angles = np.full(n, scale)
    return (axes * angles[:, None]).reshape(tuple(batch) + (3,))


def twists(rng, batch):
    w = rotation_vectors(rng, batch)
    v = rng.normal(size=tuple(batch) + (3,)) * rng.choice([1e-6, 1.0, 10.0], tuple(batch) + (1,))
    return np.concatenate((v, w), axis=-1)


def pin_rotation(w):
    return pin.exp3(np.ascontiguousarray(w))


def pin_placement(nu):
    return pin.exp6(np.ascontiguousarray(nu))


def homogeneous_of(nu, batch):
    return reference(lambda x: pin_placement(x).homogeneous, nu, batch)


def pin_log3_theta(R):
    theta = np.zeros(1)
    pin.log3(np.ascontiguousarray(R), theta)
    return theta[0]


# --- SO(3) --------------------------------------------------------------------------------


@pytest.mark.parametrize("batch", SHAPES, ids=str)
def test_exp3_and_Jexp3_match_pin(batch, rng):
    w = rotation_vectors(rng, batch)
    assert_close_each(X.exp3(w), reference(pin.exp3, w, batch), batch, what="exp3")
    assert_close_each(X.Jexp3(w), reference(pin.Jexp3, w, batch), batch, what="Jexp3")


@pytest.mark.parametrize("batch", SHAPES, ids=str)
def test_log3_and_Jlog3_match_pin(batch, rng):
    R = reference(pin_rotation, rotation_vectors(rng, batch), batch)
    w, theta = X.log3(R, return_theta=True)
    assert_close_each(X.log3(R), reference(pin.log3, R, batch), batch, what="log3")
    assert_close_each(w, reference(pin.log3, R, batch), batch, what="log3 (w, theta)")
    assert_close_each(theta, reference(pin_log3_theta, R, batch), batch, what="theta")
    assert_close_each(X.Jlog3(R), reference(pin.Jlog3, R, batch), batch, what="Jlog3")


@pytest.mark.parametrize("batch", SHAPES, ids=str)
def test_log3_renormalises_a_slightly_non_orthonormal_matrix_as_pin(batch, rng):
    R = reference(pin_rotation, rotation_vectors(rng, batch), batch)
    R = R + 1e-7 * rng.normal(size=R.shape)
    assert_close_each(X.log3(R), reference(pin.log3, R, batch), batch, what="log3")
    assert_close_each(X.Jlog3(R), reference(pin.Jlog3, R, batch), batch, what="Jlog3")
    assert_close_each(X.renormalize_rotation_matrix(R), reference(_renormalized, R, batch),
                      batch, what="renormalize")


def _renormalized(R):
    """Oracle for ``renormalize_rotation_matrix``: Gram-Schmidt on the first two columns."""
    c0 = R[:, 0] / np.linalg.norm(R[:, 0])
    c1 = R[:, 1] / np.linalg.norm(R[:, 1])
    c2 = np.cross(c0, c1)
    return np.stack((np.cross(c1, c2), c1, c2), axis=-1)


@pytest.mark.parametrize("angle", EDGE_ANGLES)
def test_so3_maps_at_the_branch_edges(angle):
    w = AXES * angle
    batch = w.shape[:-1]
    R = reference(pin_rotation, w, batch)
    assert_close_each(X.exp3(w), R, batch, what="exp3")
    assert_close_each(X.Jexp3(w), reference(pin.Jexp3, w, batch), batch, what="Jexp3")
    log, theta = X.log3(R, return_theta=True)
    assert_close_each(log, reference(pin.log3, R, batch), batch, what="log3")
    assert_close_each(theta, reference(pin_log3_theta, R, batch), batch, what="theta")
    assert_close_each(X.Jlog3(R), reference(pin.Jlog3, R, batch), batch, what="Jlog3")
    quat = reference(pin.exp3_quat, w, batch)
    assert_close_each(X.quaternion_exp3(w), quat, batch, what="quaternion_exp3")
    assert_close_each(X.quaternion_log3(quat), reference(pin.log3, quat, batch), batch,
                      what="quaternion_log3")
    assert_close_each(Q.matrix_to_quaternion(R),
                      reference(lambda r: pin.Quaternion(r).coeffs(), R, batch), batch,
                      what="matrix_to_quaternion")


def _half_turns():
    """Exact rotations by pi: R = 2 a a^T - I for axis-aligned and diagonal unit axes a."""
    axes = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, -1, 1], [1, 1, 1]])
    axes /= np.linalg.norm(axes, axis=-1, keepdims=True)
    return 2.0 * axes[:, :, None] * axes[:, None, :] - np.eye(3)


def test_log3_of_exact_half_turns_and_identity():
    R = np.concatenate((_half_turns(), np.eye(3)[None]))
    batch = R.shape[:-2]
    assert_close_each(X.log3(R), reference(pin.log3, R, batch), batch, what="log3")
    assert_close_each(X.Jlog3(R), reference(pin.Jlog3, R, batch), batch, what="Jlog3")
    assert_close_each(Q.matrix_to_quaternion(R),
                      reference(lambda r: pin.Quaternion(r).coeffs(), R, batch), batch,
                      what="matrix_to_quaternion")
    assert np.allclose(np.linalg.norm(X.log3(R[:-1]), axis=-1), np.pi, rtol=0, atol=1e-12)
    assert np.array_equal(X.log3(np.eye(3)), np.zeros(3))


@pytest.mark.parametrize("batch", SHAPES, ids=str)
def test_quaternion_exp3_log3_and_conversion_match_pin(batch, rng):
    w = rotation_vectors(rng, batch)
    quat = reference(pin.exp3_quat, w, batch)
    assert_close_each(X.quaternion_exp3(w), quat, batch, what="quaternion_exp3")
    # Both hemispheres: log3 picks the w >= 0 representative.
    flipped = quat * np.where(rng.random(tuple(batch) + (1,)) < 0.5, -1.0, 1.0)
    ref = reference(pin.log3, flipped, batch)
    assert_close_each(X.quaternion_log3(flipped), ref, batch, what="quaternion_log3")
    assert_close_each(X.log3(flipped), ref, batch, what="log3 of a quaternion")
    R = reference(pin_rotation, w, batch)
    assert_close_each(Q.matrix_to_quaternion(R),
                      reference(lambda r: pin.Quaternion(r).coeffs(), R, batch), batch,
                      what="matrix_to_quaternion")
    assert_close_each(Q.quaternion_to_matrix(quat),
                      reference(lambda q: pin.Quaternion(q).toRotationMatrix(), quat, batch),
                      batch, what="quaternion_to_matrix")


# --- SE(3) --------------------------------------------------------------------------------


@pytest.mark.parametrize("batch", SHAPES, ids=str)
def test_exp6_and_Jexp6_match_pin(batch, rng):
    nu = twists(rng, batch)
    H = homogeneous_of(nu, batch)
    for arg in (nu, Motion(nu)):
        M = X.exp6(arg)
        assert isinstance(M, SE3) and M.shape == batch
        assert_close_each(M.homogeneous, H, batch, what="exp6")
    assert_close_each(X.Jexp6(nu), reference(pin.Jexp6, nu, batch), batch, what="Jexp6")
    assert_close_each(X.Jexp6(Motion(nu)), reference(lambda x: pin.Jexp6(pin.Motion(x)), nu,
                                                     batch), batch, what="Jexp6(Motion)")
    assert_close_each(X.quaternion_exp6(nu), reference(pin.exp6_quat, nu, batch), batch,
                      what="quaternion_exp6")


@pytest.mark.parametrize("batch", SHAPES, ids=str)
def test_log6_and_Jlog6_match_pin(batch, rng):
    nu = twists(rng, batch)
    H = homogeneous_of(nu, batch)
    M = SE3(H)
    ref = reference(lambda h: pin.log6(h).vector, H, batch)
    for arg in (H, M):
        out = X.log6(arg)
        assert isinstance(out, Motion) and out.shape == batch
        assert_close_each(out.vector, ref, batch, what="log6")
    assert_close_each(X.Jlog6(M), reference(lambda h: pin.Jlog6(pin.SE3(h)), H, batch), batch,
                      what="Jlog6")
    q7 = reference(pin.exp6_quat, nu, batch)
    assert_close_each(X.quaternion_log6(q7).vector,
                      reference(lambda q: pin.log6_quat(q).vector, q7, batch), batch,
                      what="quaternion_log6")


@pytest.mark.parametrize("angle", EDGE_ANGLES)
def test_se3_maps_at_the_branch_edges(angle, rng):
    w = AXES * angle
    batch = w.shape[:-1]
    nu = np.concatenate((rng.normal(size=w.shape), w), axis=-1)
    H = homogeneous_of(nu, batch)
    assert_close_each(X.exp6(nu).homogeneous, H, batch, what="exp6")
    assert_close_each(X.Jexp6(nu), reference(pin.Jexp6, nu, batch), batch, what="Jexp6")
    assert_close_each(X.log6(H).vector, reference(lambda h: pin.log6(h).vector, H, batch),
                      batch, what="log6")
    assert_close_each(X.Jlog6(H), reference(lambda h: pin.Jlog6(pin.SE3(h)), H, batch), batch,
                      what="Jlog6")
    q7 = reference(pin.exp6_quat, nu, batch)
    assert_close_each(X.quaternion_exp6(nu), q7, batch, what="quaternion_exp6")
    assert_close_each(X.quaternion_log6(q7).vector,
                      reference(lambda q: pin.log6_quat(q).vector, q7, batch), batch,
                      what="quaternion_log6")


def test_log6_of_exact_half_turns_and_pure_translation(rng):
    R = np.concatenate((_half_turns(), np.eye(3)[None]))
    p = rng.normal(size=R.shape[:-1])
    M = SE3(R, p)
    batch = M.shape
    H = M.homogeneous
    assert_close_each(X.log6(M).vector, reference(lambda h: pin.log6(h).vector, H, batch), batch,
                      what="log6")
    assert_close_each(X.Jlog6(M), reference(lambda h: pin.Jlog6(pin.SE3(h)), H, batch), batch,
                      what="Jlog6")


def test_batched_se3_broadcasts_rotation_and_translation(rng):
    R = reference(pin_rotation, rotation_vectors(rng, (4,)), (4,))
    M = SE3.unchecked(R, rng.normal(size=3))
    ref = np.stack([pin.log6(pin.SE3(R[i], M.translation)).vector for i in range(4)])
    assert_close_each(X.log6(M).vector, ref, (4,), what="log6")


def test_Jexp6_at_a_full_turn_is_nan_where_pin_is():
    """|w| = 2 pi: 1 - cos|w| rounds to 0 and Pinocchio's beta is NaN; pinref keeps that."""
    nu = np.array([0.3, 0.2, 0.1, 2 * np.pi, 0.0, 0.0])
    assert np.array_equal(X.Jexp6(nu), pin.Jexp6(nu), equal_nan=True)
    assert np.isnan(X.Jexp6(nu)).any()


# --- properties (oracles other than pin) ---------------------------------------------------


EPS = np.finfo(float).eps


def round_trip_angles(rng, batch):
    """Rotation angles ``batch + (1,)`` in [0, pi - 1e-3], one of three laws per state: uniform,
    log-uniform in [1e-6, 0.1] (across the Taylor switches eps^(1/4), eps^(1/6)) and pi minus a
    log-uniform in [1e-3, 0.5] (up to log3's switch to its near-pi branch, pi - 3.5e-3)."""
    shape = tuple(batch) + (1,)
    laws = [rng.uniform(0, np.pi - 1e-3, shape),
            np.exp(rng.uniform(np.log(1e-6), np.log(0.1), shape)),
            np.pi - np.exp(rng.uniform(np.log(1e-3), np.log(0.5), shape))]
    return np.choose(rng.integers(0, 3, shape), laws)


def round_trip_tolerances(theta):
    """Per-state tolerances (relative to ``max(1, max|ref|)``, as ``assert_close``) of the round
    trips below, for rotation angles theta ``(...)``: the project 1e-12 where it holds, a
    conditioning bound where Pinocchio's closed forms lose digits.

    pinref reproduces those closed forms to the bit (the comparisons with pin above hold at
    1e-12, and pin's own round trips have the same errors), so a round trip between two of them is
    as good as the worse of the two, and no better; measured on 6e5 seeded states per law
    (uniform, log-uniform near 0, log-uniform near pi):

    - log3 near pi (nominal branch, cos > -1 + eps^(1/3)): theta = acos((tr R - 1) / 2) with
      tr R known to ~eps is off by ~eps / sin(theta), and w = theta / sin(theta) * unSkew(R)
      makes that a relative error ~eps / (pi - theta)^2 (the map is well conditioned there:
      the formula is not). Measured <= 4.2 eps / (pi - theta)^2 (log3, log6 and Jlog6 alike),
      i.e. 2.8e-11 at pi - 3.5e-3; bound 8 eps / (pi - theta)^2, which is below 1e-12 for
      pi - theta > 0.042 (measured there: <= 3.9e-13).
    - log6 at small angles: log3 reads theta from tr R with an absolute error ~eps / theta
      (sqrt(2 (1 - cos)), then acos above eps^(1/6) = 2.5e-3), and log6's
      beta = 1/t^2 - sin t / (2 t (1 - cos t)) (~1/12 from two terms ~1/t^2) amplifies it.
      Measured <= 11.4 eps / theta, 1.03e-12 at theta in [2e-3, 4e-3]; bound 32 eps / theta
      above the Taylor switch eps^(1/4) (below it: <= 4.4e-16).
    - Jexp6^-1 == Jlog6 at small angles: beta' = -2/t^4 + (1 + sin t / t) / (2 t^2 (1 - cos t))
      (~1/360 from two terms ~2/t^4, 1 - cos t with a relative error ~eps / t^2) carries an
      error ~eps / t^6 and multiplies (w.p) w w^T ~ t^3 |p|. Measured <= 2.33 eps / theta^3,
      i.e. 1.6e-4 at theta = 1.26e-4 just above the switch eps^(1/4) to the Taylor branch,
      3.7e-7 at 1e-3, 2.5e-10 at 1e-2, 2.5e-13 above 0.1; bound 8 eps / theta^3 there.

    Returns ``(log3, log6, jacobian)`` tolerances of shape ``(...)``.
    """
    theta = np.asarray(theta, dtype=float)
    with np.errstate(divide="ignore"):
        near_pi = 8 * EPS / (np.pi - theta) ** 2
        taylor = theta < X.TAYLOR_PRECISION_3
        small_log6 = np.where(taylor, 0.0, 32 * EPS / theta)
        small_jacobian = np.where(taylor, 0.0, 8 * EPS / theta ** 3)
    log3 = np.maximum(1e-12, near_pi)
    return log3, np.maximum(log3, small_log6), np.maximum(log3, small_jacobian)


@pytest.mark.parametrize("batch", SHAPES, ids=str)
def test_exp_log_round_trips(batch, rng):
    theta = round_trip_angles(rng, batch)
    w = rotation_vectors(rng, batch, scale=1.0) * theta
    nu = np.concatenate((rng.normal(size=w.shape), w), axis=-1)
    tol3, tol6, tolJ = round_trip_tolerances(theta[..., 0])
    log3, log6 = X.log3(X.exp3(w)), X.log6(X.exp6(nu)).vector
    Jinv, Jlog = np.linalg.inv(X.Jexp6(nu)), X.Jlog6(X.exp6(nu))
    for idx in np.ndindex(*batch):
        assert_close(log3[idx], w[idx], tol=tol3[idx], what=f"log3(exp3(w))[{idx}]")
        assert_close(log6[idx], nu[idx], tol=tol6[idx], what=f"log6(exp6(nu))[{idx}]")
        assert_close(Jinv[idx], Jlog[idx], tol=tolJ[idx], what=f"Jexp6^-1 == Jlog6(exp6)[{idx}]")
    quat = X.quaternion_exp3(w)
    assert_close_each(Q.quaternion_to_matrix(quat), X.exp3(w), batch, what="exp3 vs quaternion")


def test_round_trip_tolerances_are_the_project_one_away_from_the_ill_conditioned_formulas():
    """The looser bounds only apply near pi (log) and between eps^(1/4) and ~0.12 (log6's beta,
    Jexp6's and Jlog6's beta'); the round trips there do need them (they fail at 1e-12)."""
    theta = np.array([0.0, 1e-6, 1e-4, 0.3, 1.0, 2.0, 3.0, np.pi - 0.05])
    for tol in round_trip_tolerances(theta):
        assert np.array_equal(tol, np.full(theta.shape, 1e-12))
    nu = np.array([0.3, -0.5, 0.8, 1.3e-4, 0.0, 0.0])  # Jexp6 just above its Taylor switch
    with pytest.raises(AssertionError):
        assert_close(np.linalg.inv(X.Jexp6(nu)), X.Jlog6(X.exp6(nu)))
    w = np.array([0.0, 0.0, np.pi - 3.6e-3])  # log3 just above its near-pi branch
    errors = [np.abs(X.log3(X.exp3(R @ w)) - R @ w).max()
              for R in (X.exp3(v) for v in np.random.default_rng(0).normal(size=(50, 3)))]
    assert max(errors) > 1e-12


# --- hypothesis ---------------------------------------------------------------------------

_unit = st.tuples(*(st.floats(-1, 1) for _ in range(3))).filter(
    lambda a: 1e-3 < np.linalg.norm(a))
_angle = st.one_of(st.floats(0, 2 * np.pi), st.floats(0, 1e-3), st.sampled_from(EDGE_ANGLES),
                   st.floats(np.pi - 1e-4, np.pi))


def assert_close_nan(actual, ref, what):
    """``assert_close``, where NaN entries of Pinocchio's result must be NaN in pinref's too
    (Jexp6 at |w| = 2 pi, see ``test_Jexp6_at_a_full_turn_is_nan_where_pin_is``)."""
    nan = np.isnan(ref)
    assert np.array_equal(np.isnan(actual), nan), f"{what}: NaN pattern differs"
    assert_close(np.where(nan, 0.0, actual), np.where(nan, 0.0, ref), what=what)


def _vec(axis, angle):
    a = np.asarray(axis, dtype=float)
    return a / np.linalg.norm(a) * angle


@settings(max_examples=300, deadline=None)
@given(axis=_unit, angle=_angle)
def test_so3_maps_match_pin_hypothesis(axis, angle):
    w = _vec(axis, angle)
    assert_close(X.exp3(w), pin.exp3(w), what="exp3")
    assert_close(X.Jexp3(w), pin.Jexp3(w), what="Jexp3")
    R = pin.exp3(w)
    assert_close(X.log3(R), pin.log3(R), what="log3")
    assert_close(X.Jlog3(R), pin.Jlog3(R), what="Jlog3")
    quat = pin.exp3_quat(w)
    assert_close(X.quaternion_exp3(w), quat, what="quaternion_exp3")
    assert_close(X.quaternion_log3(quat), pin.log3(quat), what="quaternion_log3")


@settings(max_examples=300, deadline=None)
@given(axis=_unit, angle=_angle,
       v=st.tuples(*(st.floats(-100, 100) for _ in range(3))))
def test_se3_maps_match_pin_hypothesis(axis, angle, v):
    nu = np.concatenate((np.asarray(v, dtype=float), _vec(axis, angle)))
    M = pin.exp6(nu)
    assert_close(X.exp6(nu).homogeneous, M.homogeneous, what="exp6")
    assert_close_nan(X.Jexp6(nu), pin.Jexp6(nu), what="Jexp6")
    assert_close(X.log6(M.homogeneous).vector, pin.log6(M).vector, what="log6")
    assert_close(X.Jlog6(M.homogeneous), pin.Jlog6(M), what="Jlog6")
    assert_close(X.quaternion_exp6(nu), pin.exp6_quat(nu), what="quaternion_exp6")
    q7 = pin.exp6_quat(nu)
    assert_close(X.quaternion_log6(q7).vector, pin.log6_quat(q7).vector, what="quaternion_log6")


# --- bad input ----------------------------------------------------------------------------

_NAN3 = np.array([0.1, np.nan, 0.2])
BAD = [
    (X.exp3, np.zeros(4), ShapeError), (X.exp3, _NAN3, NonFiniteError),
    (X.Jexp3, np.zeros((2, 2)), ShapeError), (X.Jexp3, np.array([np.inf, 0, 0]), NonFiniteError),
    (X.log3, np.eye(2), ShapeError), (X.log3, np.full((3, 3), np.nan), NonFiniteError),
    (X.log3, "not an array", ShapeError),
    (X.Jlog3, np.zeros(3), ShapeError), (X.Jlog3, np.diag([1.0, np.nan, 1.0]), NonFiniteError),
    (X.exp6, np.zeros(5), ShapeError), (X.exp6, np.r_[_NAN3, _NAN3], NonFiniteError),
    (X.Jexp6, np.zeros(3), ShapeError), (X.Jexp6, np.r_[0, 0, 0, _NAN3], NonFiniteError),
    (X.log6, np.eye(3), ShapeError), (X.log6, np.full((4, 4), np.nan), NonFiniteError),
    (X.Jlog6, np.zeros(6), ShapeError),
    (X.quaternion_exp3, np.zeros(4), ShapeError), (X.quaternion_log3, np.zeros(3), ShapeError),
    (X.quaternion_log3, np.array([0, 0, 0, np.nan]), NonFiniteError),
    (X.quaternion_exp6, np.zeros(7), ShapeError), (X.quaternion_log6, np.zeros(6), ShapeError),
    (Q.matrix_to_quaternion, np.zeros(4), ShapeError),
    (X.renormalize_rotation_matrix, np.zeros((3, 4)), ShapeError),
]


@pytest.mark.parametrize("fn, x, error", BAD, ids=lambda p: getattr(p, "__name__", None))
def test_bad_input_raises_typed_errors(fn, x, error):
    with pytest.raises(error) as info:
        fn(x)
    assert isinstance(info.value, PinrefError) and isinstance(info.value, ValueError)
    assert fn.__name__ in str(info.value)


def test_bad_se3_arrays_raise():
    M = SE3.unchecked(np.full((3, 3), np.nan), np.zeros(3))
    with pytest.raises(NonFiniteError, match="rotation"):
        X.log6(M)
    with pytest.raises(ShapeError):
        X.exp6(np.zeros((2, 5)))
