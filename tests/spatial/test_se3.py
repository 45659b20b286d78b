"""SE3 against Pinocchio 3.8.0, state by state, and against its own 6x6 matrix forms.

Oracles: (1) the 6x6 forms (``action``, ``dualAction``, ``actionInverse``) and round trips;
(2) pin 3.8.0 called once per batch element. Tolerance: ``1e-12 * max(1, max|ref|)`` per
quantity and per state (design.md section 7).

Rotations come in four kinds, because Pinocchio never normalises them: orthonormal, an
orthonormal one scaled by 1.3, the (non-orthonormal) matrix of an unnormalised quaternion, and
a general 3x3 matrix. pin.SE3 accepts all of them.
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import BATCH_SHAPES, assert_close, rigid_body_inertia
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import pinref
from pinref import SE3, Force, Inertia, Motion

ROTATION_KINDS = ["orthonormal", "scaled", "unnormalised_quaternion", "general"]


# --- inputs and conversions (independent of pinref) ---------------------------------------------


def orthonormal(rng, shape):
    """Random proper rotations from the QR decomposition of Gaussian matrices."""
    Q, R = np.linalg.qr(rng.normal(size=tuple(shape) + (3, 3)))
    Q = Q * np.sign(np.diagonal(R, axis1=-2, axis2=-1))[..., None, :]
    Q[..., :, 0] *= np.sign(np.linalg.det(Q))[..., None]
    return Q


def rotations(rng, shape, kind):
    """``(*shape, 3, 3)`` matrices of one of the ROTATION_KINDS."""
    shape = tuple(shape)
    if kind == "orthonormal":
        return orthonormal(rng, shape)
    if kind == "scaled":
        return 1.3 * orthonormal(rng, shape)
    if kind == "unnormalised_quaternion":
        wxyz = rng.normal(size=(int(np.prod(shape)), 4))
        wxyz *= rng.uniform(0.5, 2.0, (len(wxyz), 1)) / np.linalg.norm(wxyz, axis=1, keepdims=True)
        mats = [pin.Quaternion(*q).toRotationMatrix() for q in wxyz]  # Eigen, |q| != 1
        return np.array(mats).reshape(shape + (3, 3))
    return rng.normal(size=shape + (3, 3))


def inertia_arrays(rng, shape):
    """Random (mass, lever, a rigid body's rotational inertia) arrays."""
    shape = tuple(shape)
    A = rng.normal(size=shape + (3, 3))
    I = rigid_body_inertia(A)
    return rng.uniform(0.1, 3.0, shape), rng.normal(size=shape + (3,)), I


def pin_se3(R, p, idx=()):
    return pin.SE3(np.array(R[idx]), np.array(p[idx]))


def pin_inertia(m, c, I, idx=()):
    return pin.Inertia(float(m[idx]), np.array(c[idx]), np.array(I[idx]))


def check_each(actual, batch, reference, what):
    """assert_close(actual[idx], reference(idx)) for every state idx of the batch."""
    actual = np.asarray(actual)
    assert actual.shape[: len(batch)] == tuple(batch), f"{what}: shape {actual.shape}"
    for idx in np.ndindex(*batch):
        assert_close(actual[idx], reference(idx), what=f"{what}[{idx}]")


@pytest.fixture(params=BATCH_SHAPES, ids=str)
def batch(request):
    return request.param


# --- constructors and attributes -------------------------------------------------------------


@pytest.mark.parametrize("kind", ROTATION_KINDS)
def test_constructor_attributes_and_homogeneous_match_pin(rng, batch, kind):
    R, p = rotations(rng, batch, kind), rng.normal(size=batch + (3,))
    M = SE3(R, p)
    assert M.rotation.shape == batch + (3, 3) and M.translation.shape == batch + (3,)
    assert M.shape == batch
    check_each(M.rotation, batch, lambda i: pin_se3(R, p, i).rotation, "rotation")
    check_each(M.translation, batch, lambda i: pin_se3(R, p, i).translation, "translation")
    check_each(M.homogeneous, batch, lambda i: pin_se3(R, p, i).homogeneous, "homogeneous")


def test_constructor_copies_its_inputs(rng):
    R, p = orthonormal(rng, ()), rng.normal(size=3)
    M = SE3(R, p)
    R[0, 0] += 1.0
    p[0] += 1.0
    assert M.rotation[0, 0] != R[0, 0] and M.translation[0] != p[0]


def test_homogeneous_constructor_matches_pin(rng, batch):
    R, p = rotations(rng, batch, "scaled"), rng.normal(size=batch + (3,))
    H = np.zeros(batch + (4, 4))
    H[..., :3, :3], H[..., :3, 3], H[..., 3, 3] = R, p, 1.0
    M = SE3(H)
    for idx in np.ndindex(*batch):
        ref = pin.SE3(H[idx])
        assert_close(M.rotation[idx], ref.rotation, what="rotation")
        assert_close(M.translation[idx], ref.translation, what="translation")
    assert_close(SE3(H).homogeneous, H)


def test_rotation_and_translation_broadcast_in_the_constructor(rng):
    R, p = orthonormal(rng, (2, 3)), rng.normal(size=3)
    M = SE3(R, p)
    assert M.rotation.shape == (2, 3, 3, 3) and M.translation.shape == (2, 3, 3)
    for idx in np.ndindex(2, 3):
        assert_close(M.translation[idx], p)


def test_identity_matches_pin(batch):
    M = SE3.Identity(batch)
    assert M.shape == batch
    check_each(M.homogeneous, batch, lambda i: pin.SE3.Identity().homogeneous, "Identity")
    assert M.isIdentity()


def test_random_is_a_proper_rotation_and_a_bounded_translation(batch):
    M = SE3.Random(batch, rng=np.random.default_rng(7))
    assert M.rotation.shape == batch + (3, 3) and M.translation.shape == batch + (3,)
    RtR = np.swapaxes(M.rotation, -1, -2) @ M.rotation
    check_each(RtR, batch, lambda i: np.eye(3), "R^T R")
    check_each(np.linalg.det(M.rotation), batch, lambda i: 1.0, "det R")
    assert np.all(np.abs(M.translation) <= 1.0)
    again = SE3.Random(batch, rng=np.random.default_rng(7))
    assert np.array_equal(again.rotation, M.rotation)  # seeded: reproducible
    assert not np.array_equal(SE3.Random(batch, rng=np.random.default_rng(8)).rotation, M.rotation)


def test_random_rotations_are_not_concentrated():
    """The mean of uniformly distributed rotations is the zero matrix (Haar measure)."""
    R = SE3.Random((4000,), rng=np.random.default_rng(3)).rotation
    assert np.abs(R.mean(axis=0)).max() < 0.05


# --- 6x6 forms -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ROTATION_KINDS)
def test_action_matrices_match_pin(rng, batch, kind):
    R, p = rotations(rng, batch, kind), rng.normal(size=batch + (3,))
    M = SE3(R, p)
    check_each(M.action, batch, lambda i: pin_se3(R, p, i).action, "action")
    check_each(M.actionInverse, batch, lambda i: pin_se3(R, p, i).actionInverse, "actionInverse")
    check_each(M.dualAction, batch, lambda i: pin_se3(R, p, i).dualAction, "dualAction")


@pytest.mark.parametrize("kind", ROTATION_KINDS)
def test_six_by_six_forms_agree_with_the_structured_actions(rng, batch, kind):
    """M.action @ m == M.act(m), M.actionInverse @ m == M.actInv(m), M.dualAction @ f == M.act(f),
    for any R (Pinocchio writes actionInverse with R^T and [p]x, never with an inverse)."""
    M = SE3(rotations(rng, batch, kind), rng.normal(size=batch + (3,)))
    m, f = Motion(rng.normal(size=batch + (6,))), Force(rng.normal(size=batch + (6,)))
    mv, fv = m.vector[..., None], f.vector[..., None]
    check_each(M.act(m).vector, batch, lambda i: (M.action @ mv)[i][:, 0], "action @ m")
    check_each(M.actInv(m).vector, batch, lambda i: (M.actionInverse @ mv)[i][:, 0], "actInv")
    check_each(M.act(f).vector, batch, lambda i: (M.dualAction @ fv)[i][:, 0], "dualAction @ f")
    # actInv on a force is the transpose of the motion action: f' = X^T f
    check_each(M.actInv(f).vector, batch, lambda i: (np.swapaxes(M.action, -1, -2) @ fv)[i][:, 0],
               "action^T @ f")


def test_action_inverse_is_the_action_of_the_inverse_for_a_rotation(rng, batch):
    M = SE3(orthonormal(rng, batch), rng.normal(size=batch + (3,)))
    check_each(M.actionInverse, batch, lambda i: M.inverse().action[i], "actionInverse")
    check_each(M.action @ M.actionInverse, batch, lambda i: np.eye(6), "action @ actionInverse")


# --- group operations ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ROTATION_KINDS)
def test_inverse_and_composition_match_pin(rng, batch, kind):
    R1, p1 = rotations(rng, batch, kind), rng.normal(size=batch + (3,))
    R2, p2 = rotations(rng, batch, kind), rng.normal(size=batch + (3,))
    A, B = SE3(R1, p1), SE3(R2, p2)
    check_each(A.inverse().homogeneous, batch,
               lambda i: pin_se3(R1, p1, i).inverse().homogeneous, "inverse")
    check_each((A * B).homogeneous, batch,
               lambda i: (pin_se3(R1, p1, i) * pin_se3(R2, p2, i)).homogeneous, "A * B")
    check_each(A.act(B).homogeneous, batch,
               lambda i: pin_se3(R1, p1, i).act(pin_se3(R2, p2, i)).homogeneous, "A.act(B)")
    check_each(A.actInv(B).homogeneous, batch,
               lambda i: pin_se3(R1, p1, i).actInv(pin_se3(R2, p2, i)).homogeneous, "A.actInv(B)")


def test_composition_with_the_inverse_is_the_identity(rng, batch):
    M = SE3(orthonormal(rng, batch), 10.0 * rng.normal(size=batch + (3,)))
    assert (M * M.inverse()).isIdentity(1e-12) and (M.inverse() * M).isIdentity(1e-12)
    check_each(M.actInv(M).homogeneous, batch, lambda i: np.eye(4), "M.actInv(M)")


def test_composition_is_associative(rng, batch):
    A, B, C = (SE3(orthonormal(rng, batch), rng.normal(size=batch + (3,))) for _ in range(3))
    check_each(((A * B) * C).homogeneous, batch, lambda i: (A * (B * C)).homogeneous[i], "assoc")


# --- actions on motions, forces, inertias and points -------------------------------------------


@pytest.mark.parametrize("kind", ROTATION_KINDS)
def test_act_and_act_inv_on_motion_and_force_match_pin(rng, batch, kind):
    R, p = rotations(rng, batch, kind), 3.0 * rng.normal(size=batch + (3,))
    v, w = rng.normal(size=batch + (6,)), rng.normal(size=batch + (6,))
    M, m, f = SE3(R, p), Motion(v), Force(w)
    check_each(M.act(m).vector, batch, lambda i: pin_se3(R, p, i).act(pin.Motion(v[i])).vector,
               "act(motion)")
    check_each(M.actInv(m).vector, batch,
               lambda i: pin_se3(R, p, i).actInv(pin.Motion(v[i])).vector, "actInv(motion)")
    check_each(M.act(f).vector, batch, lambda i: pin_se3(R, p, i).act(pin.Force(w[i])).vector,
               "act(force)")
    check_each(M.actInv(f).vector, batch,
               lambda i: pin_se3(R, p, i).actInv(pin.Force(w[i])).vector, "actInv(force)")
    assert type(M.act(m)) is Motion and type(M.actInv(f)) is Force


@pytest.mark.parametrize("kind", ROTATION_KINDS)
def test_act_and_act_inv_on_inertia_match_pin(rng, batch, kind):
    R, p = rotations(rng, batch, kind), rng.normal(size=batch + (3,))
    mass, lever, inertia = inertia_arrays(rng, batch)
    M, Y = SE3(R, p), Inertia(mass, lever, inertia)
    for name in ("act", "actInv"):
        out = getattr(M, name)(Y)
        assert type(out) is Inertia

        def ref(i, name=name):
            return getattr(pin_se3(R, p, i), name)(pin_inertia(mass, lever, inertia, i))

        check_each(out.mass, batch, lambda i: ref(i).mass, f"{name}(Y).mass")
        check_each(out.lever, batch, lambda i: ref(i).lever, f"{name}(Y).lever")
        check_each(out.inertia, batch, lambda i: ref(i).inertia, f"{name}(Y).inertia")


@pytest.mark.parametrize("kind", ROTATION_KINDS)
def test_act_and_act_inv_on_points_match_pin(rng, batch, kind):
    R, p = rotations(rng, batch, kind), rng.normal(size=batch + (3,))
    x = rng.normal(size=batch + (3,))
    M = SE3(R, p)
    check_each(M.act(x), batch, lambda i: pin_se3(R, p, i).act(x[i]), "act(point)")
    check_each(M.actInv(x), batch, lambda i: pin_se3(R, p, i).actInv(x[i]), "actInv(point)")
    assert_close(SE3(R[(0,) * len(batch)], p[(0,) * len(batch)]).act(list(x.reshape(-1, 3)[0])),
                 pin_se3(R, p, (0,) * len(batch)).act(x.reshape(-1, 3)[0]), what="list point")


def test_act_on_inertia_is_the_congruence_of_its_matrix(rng, batch):
    """act(Y).matrix() == M.dualAction @ Y.matrix() @ M.actionInverse for an orthonormal R."""
    M = SE3(orthonormal(rng, batch), rng.normal(size=batch + (3,)))
    Y = Inertia(*inertia_arrays(rng, batch))
    X = M.dualAction @ Y.matrix() @ M.actionInverse
    check_each(M.act(Y).matrix(), batch, lambda i: X[i], "act(Y).matrix()")
    Xinv = np.swapaxes(M.action, -1, -2) @ Y.matrix() @ M.action
    check_each(M.actInv(Y).matrix(), batch, lambda i: Xinv[i], "actInv(Y).matrix()")


def test_act_returns_new_objects_not_views(rng):
    M = SE3(orthonormal(rng, ()), rng.normal(size=3))
    Y = Inertia(*inertia_arrays(rng, ()))
    mass_before = float(Y.mass)
    moved = M.act(Y)
    moved.mass += 1.0
    assert float(Y.mass) == mass_before


def test_round_trips(rng, batch):
    """actInv(act(x)) == x for motions, forces, inertias, placements and points (R orthonormal)."""
    M = SE3(orthonormal(rng, batch), 5.0 * rng.normal(size=batch + (3,)))
    m, f = Motion(rng.normal(size=batch + (6,))), Force(rng.normal(size=batch + (6,)))
    Y = Inertia(*inertia_arrays(rng, batch))
    B = SE3(orthonormal(rng, batch), rng.normal(size=batch + (3,)))
    x = rng.normal(size=batch + (3,))
    check_each(M.actInv(M.act(m)).vector, batch, lambda i: m.vector[i], "motion")
    check_each(M.act(M.actInv(m)).vector, batch, lambda i: m.vector[i], "motion (other way)")
    check_each(M.actInv(M.act(f)).vector, batch, lambda i: f.vector[i], "force")
    check_each(M.actInv(M.act(Y)).inertia, batch, lambda i: Y.inertia[i], "inertia")
    check_each(M.actInv(M.act(Y)).lever, batch, lambda i: Y.lever[i], "lever")
    check_each(M.actInv(M.act(B)).homogeneous, batch, lambda i: B.homogeneous[i], "SE3")
    check_each(M.actInv(M.act(x)), batch, lambda i: x[i], "point")


def test_power_is_frame_invariant(rng, batch):
    """(M.act(m)).dot(M.act(f)) == m.dot(f): motions and forces are dual (R orthonormal)."""
    M = SE3(orthonormal(rng, batch), rng.normal(size=batch + (3,)))
    m, f = Motion(rng.normal(size=batch + (6,))), Force(rng.normal(size=batch + (6,)))
    check_each(M.act(m).dot(M.act(f)), batch, lambda i: m.dot(f)[i], "power")


def test_se3_batch_with_extra_leading_axes_acts_on_motions(rng):
    """Rotation (2, 3, 3, 3) with a shared translation acts on Motion (2, 3, 6); and an SE3
    batch (3,) broadcasts against a Motion batch (2, 3)."""
    R, p, v = orthonormal(rng, (2, 3)), rng.normal(size=3), rng.normal(size=(2, 3, 6))
    out = SE3(R, p).act(Motion(v))
    assert out.vector.shape == (2, 3, 6)
    for idx in np.ndindex(2, 3):
        assert_close(out.vector[idx], pin.SE3(R[idx], p).act(pin.Motion(v[idx])).vector)
    R3, p3 = orthonormal(rng, (3,)), rng.normal(size=(3, 3))
    out = SE3(R3, p3).actInv(Force(v))
    assert out.vector.shape == (2, 3, 6)
    for a, b in np.ndindex(2, 3):
        assert_close(out.vector[a, b], pin.SE3(R3[b], p3[b]).actInv(pin.Force(v[a, b])).vector)


def test_single_placement_acts_on_a_batch(rng):
    R, p, v = orthonormal(rng, ()), rng.normal(size=3), rng.normal(size=(5, 6))
    out = SE3(R, p).act(Force(v))
    assert out.vector.shape == (5, 6)
    for k in range(5):
        assert_close(out.vector[k], pin.SE3(R, p).act(pin.Force(v[k])).vector)


# --- isIdentity / isApprox --------------------------------------------------------------------


@pytest.mark.parametrize("scale", [0.6, 0.9, 1.0 - 1e-13, 1.0, 1.0 + 1e-13, 1.5])
@pytest.mark.parametrize("prec", [1e-12, 1e-3, 0.5, 0.7])
def test_is_identity_matches_pin(scale, prec):
    R = scale * np.eye(3)
    assert SE3(R, np.zeros(3)).isIdentity(prec) == pin.SE3(R, np.zeros(3)).isIdentity(prec)
    p = np.array([0.0, prec * 0.99, 0.0])
    assert SE3(np.eye(3), p).isIdentity(prec) == pin.SE3(np.eye(3), p).isIdentity(prec)
    p = np.array([0.0, 0.0, prec * 1.01])
    assert SE3(np.eye(3), p).isIdentity(prec) == pin.SE3(np.eye(3), p).isIdentity(prec)


def test_is_identity_default_precision_matches_pin(rng):
    for eps in (0.0, 1e-14, 5e-13, 2e-12, 1e-9):
        R = np.eye(3)
        R[1, 2] = eps
        assert SE3(R, np.zeros(3)).isIdentity() == pin.SE3(R, np.zeros(3)).isIdentity()
    M = SE3(orthonormal(rng, ()), rng.normal(size=3))
    assert not M.isIdentity() and not pin_se3(M.rotation, M.translation).isIdentity()


@pytest.mark.parametrize("rel", [0.0, 1e-14, 5e-13, 9e-13, 1.1e-12, 1e-9])
@pytest.mark.parametrize("part", ["rotation", "translation", "zero_translation"])
def test_is_approx_matches_pin(rng, rel, part):
    R, p = orthonormal(rng, ()), rng.normal(size=3)
    if part == "zero_translation":
        p = np.zeros(3)
    R2, p2 = R.copy(), p.copy()
    if part == "rotation":
        R2[0, 1] += rel * np.linalg.norm(R)
    else:
        p2[2] += rel * max(np.linalg.norm(p), 1e-300)
    for prec in (1e-12, 1e-10):
        expected = pin.SE3(R, p).isApprox(pin.SE3(R2, p2), prec)
        assert SE3(R, p).isApprox(SE3(R2, p2), prec) == expected
    assert SE3(R, p).isApprox(SE3(R2, p2)) == pin.SE3(R, p).isApprox(pin.SE3(R2, p2))


def test_batched_is_approx_is_true_when_every_element_is(rng):
    R, p = orthonormal(rng, (4,)), rng.normal(size=(4, 3))
    p2 = p.copy()
    assert SE3(R, p).isApprox(SE3(R, p2))
    p2[2, 0] += 1e-6
    assert not SE3(R, p).isApprox(SE3(R, p2))
    assert SE3(R, p)[0].isApprox(SE3(R, p2)[0])


# --- hypothesis ------------------------------------------------------------------------------

finite = st.floats(-10.0, 10.0, allow_nan=False, allow_subnormal=False)


@st.composite
def placements(draw, shape=()):
    """(R, p) with R the matrix of a possibly unnormalised quaternion, |q| in [1, 2].

    The matrix of q = s u (|u| = 1) is (1 - s^2) I + s^2 R(u): for s >= 1 its singular values
    are at least 1, so no product with R cancels catastrophically (for s^2 near 1/2 and a
    half turn it is singular, and then no two summation orders agree to 1e-12).
    """
    q = draw(hnp.arrays(float, shape + (4,), elements=st.floats(-1, 1, allow_subnormal=False)))
    norm = np.linalg.norm(q, axis=-1, keepdims=True)
    q = np.where(norm < 0.1, np.array([0.0, 0.0, 0.0, 1.0]), q)
    q = q * draw(st.floats(1.0, 2.0)) / np.linalg.norm(q, axis=-1, keepdims=True)
    R = np.array([pin.Quaternion(q[i][3], *q[i][:3]).toRotationMatrix()
                  for i in np.ndindex(*shape)]).reshape(shape + (3, 3))
    p = draw(hnp.arrays(float, shape + (3,), elements=finite))
    return R, p


@settings(max_examples=60, deadline=None)
@given(placement=placements(), v=hnp.arrays(float, (6,), elements=finite),
       x=hnp.arrays(float, (3,), elements=finite))
def test_hypothesis_actions_match_pin(placement, v, x):
    R, p = placement
    M, ref = SE3(R, p), pin.SE3(R, p)
    assert_close(M.act(Motion(v)).vector, ref.act(pin.Motion(v)).vector, what="act motion")
    assert_close(M.actInv(Motion(v)).vector, ref.actInv(pin.Motion(v)).vector, what="actInv m")
    assert_close(M.act(Force(v)).vector, ref.act(pin.Force(v)).vector, what="act force")
    assert_close(M.actInv(Force(v)).vector, ref.actInv(pin.Force(v)).vector, what="actInv f")
    assert_close(M.act(x), ref.act(x), what="act point")
    assert_close(M.actInv(x), ref.actInv(x), what="actInv point")
    assert_close(M.inverse().homogeneous, ref.inverse().homogeneous, what="inverse")
    assert_close(M.actionInverse, ref.actionInverse, what="actionInverse")
    assert_close(M.dualAction, ref.dualAction, what="dualAction")


@settings(max_examples=40, deadline=None)
@given(a=placements((2,)), b=placements((2,)))
def test_hypothesis_batched_composition_matches_pin(a, b):
    A, B = SE3(*a), SE3(*b)
    for k in range(2):
        ref_a, ref_b = pin.SE3(a[0][k], a[1][k]), pin.SE3(b[0][k], b[1][k])
        assert_close((A * B).homogeneous[k], (ref_a * ref_b).homogeneous, what="A * B")
        assert_close(A.actInv(B).homogeneous[k], ref_a.actInv(ref_b).homogeneous, what="actInv")


def test_pinref_reexports_the_spatial_classes():
    assert pinref.SE3 is SE3 and pinref.spatial.SE3 is SE3
