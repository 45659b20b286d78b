"""Inertia against Pinocchio 3.8.0, state by state, and against its 6x6 matrix.

Oracles: (1) ``Y.matrix()`` (``Y * v == Y.matrix() @ v``, ``vxiv(v) == v x* (Y v)``,
``variation(v) == crf(v) Y - Y crm(v)``), and the congruence ``act(Y).matrix() == X* Y X^-1``;
(2) pin 3.8.0 called once per batch element. Tolerance: ``1e-12 * max(1, max|ref|)`` per
quantity (mass, lever, inertia, 6x6 matrix, force) and per state (design.md section 7).

Pinocchio rotates the rotational inertia with ``Symmetric3::rotate``, a formula that equals
R I R^T only for an orthonormal R; pin.SE3 accepts any R, so the actions are also checked with
R scaled by 1.3 and with the matrix of an unnormalised quaternion.
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
from pinref.compare.versions import differs


def check_each(actual, batch, reference, what):
    """assert_close(actual[idx], reference(idx)) for every state idx of the batch."""
    actual = np.asarray(actual)
    assert actual.shape[: len(batch)] == tuple(batch), f"{what}: shape {actual.shape}"
    for idx in np.ndindex(*batch):
        assert_close(actual[idx], reference(idx), what=f"{what}[{idx}]")


def inertia_arrays(rng, shape, scale=1.0):
    """Random (mass, lever, a rigid body's rotational inertia); ``scale`` scales the lever."""
    shape = tuple(shape)
    A = rng.normal(size=shape + (3, 3))
    I = rigid_body_inertia(A)
    return rng.uniform(0.1, 3.0, shape), scale * rng.normal(size=shape + (3,)), I


def pin_inertia(m, c, I, idx=()):
    return pin.Inertia(float(m[idx]), np.array(c[idx]), np.array(I[idx]))


def rotations(rng, shape, kind):
    """Orthonormal, 1.3 x orthonormal, or the matrix of an unnormalised quaternion (Eigen)."""
    shape = tuple(shape)
    if kind == "unnormalised_quaternion":
        wxyz = rng.normal(size=(int(np.prod(shape)), 4))
        wxyz *= rng.uniform(0.3, 3.0, (len(wxyz), 1)) / np.linalg.norm(wxyz, axis=1, keepdims=True)
        mats = [pin.Quaternion(*q).toRotationMatrix() for q in wxyz]  # Eigen, |q| != 1
        return np.array(mats).reshape(shape + (3, 3))
    Q, R = np.linalg.qr(rng.normal(size=shape + (3, 3)))
    Q = Q * np.sign(np.diagonal(R, axis1=-2, axis2=-1))[..., None, :]
    Q[..., :, 0] *= np.sign(np.linalg.det(Q))[..., None]
    return 1.3 * Q if kind == "scaled" else Q


def check_inertia(Y, batch, reference, what):
    """Compare mass, lever and inertia of Y, state by state, with pin's reference(idx)."""
    check_each(Y.mass, batch, lambda i: reference(i).mass, f"{what}.mass")
    check_each(Y.lever, batch, lambda i: reference(i).lever, f"{what}.lever")
    check_each(Y.inertia, batch, lambda i: reference(i).inertia, f"{what}.inertia")


@pytest.fixture(params=BATCH_SHAPES, ids=str)
def batch(request):
    return request.param


# --- constructors and attributes -------------------------------------------------------------


def test_constructor_attributes_and_matrix_match_pin(rng, batch):
    m, c, I = inertia_arrays(rng, batch, scale=3.0)
    Y = Inertia(m, c, I)
    assert Y.mass.shape == batch and Y.lever.shape == batch + (3,)
    assert Y.inertia.shape == batch + (3, 3) and Y.shape == batch
    check_inertia(Y, batch, lambda i: pin_inertia(m, c, I, i), "Y")
    check_each(Y.matrix(), batch, lambda i: pin_inertia(m, c, I, i).matrix(), "matrix()")


def test_matrix_layout():
    """[[m I3, -m [c]x], [m [c]x, I - m [c]x^2]] written out for one body."""
    m, c, I = 2.0, np.array([1.0, -2.0, 0.5]), np.diag([1.0, 2.0, 3.0])
    cx = np.array([[0.0, -c[2], c[1]], [c[2], 0.0, -c[0]], [-c[1], c[0], 0.0]])
    expected = np.block([[m * np.eye(3), -m * cx], [m * cx, I - m * cx @ cx]])
    assert_close(Inertia(m, c, I).matrix(), expected)
    assert_close(pin.Inertia(m, c, I).matrix(), expected)


def test_constructor_broadcasts_mass_lever_and_inertia(rng):
    c = rng.normal(size=(2, 3, 3))
    Y = Inertia(1.5, c, np.eye(3))
    assert Y.mass.shape == (2, 3) and Y.inertia.shape == (2, 3, 3, 3)
    for idx in np.ndindex(2, 3):
        assert_close(Y.matrix()[idx], pin.Inertia(1.5, c[idx], np.eye(3)).matrix())


def test_symmetric_input_within_rounding_is_read_from_the_lower_triangle(rng):
    """Pinocchio keeps the lower triangle (Symmetric3); a 1e-14 asymmetry is accepted."""
    m, c, I = inertia_arrays(rng, ())
    I[0, 2] += 1e-14
    assert_close(Inertia(m, c, I).inertia, pin_inertia(m, c, I).inertia)
    assert np.array_equal(Inertia(m, c, I).inertia, Inertia(m, c, I).inertia.T)


def test_zero_identity_and_random(batch):
    z = Inertia.Zero(batch)
    check_inertia(z, batch, lambda i: pin.Inertia.Zero(), "Zero")
    check_each(z.matrix(), batch, lambda i: np.zeros((6, 6)), "Zero.matrix()")
    e = Inertia.Identity(batch)
    check_inertia(e, batch, lambda i: pin.Inertia.Identity(), "Identity")
    check_each(e.matrix(), batch, lambda i: pin.Inertia.Identity().matrix(), "Identity.matrix()")
    r = Inertia.Random(batch, rng=np.random.default_rng(2))
    assert r.shape == batch and np.all(r.mass > 0)
    check_each(r.inertia, batch, lambda i: r.inertia[i].T, "symmetric")
    assert np.all(np.linalg.eigvalsh(r.inertia) > 0)
    again = Inertia.Random(batch, rng=np.random.default_rng(2))
    assert np.array_equal(again.inertia, r.inertia) and np.array_equal(again.mass, r.mass)


# --- Inertia * Motion ------------------------------------------------------------------------


def test_inertia_times_motion_matches_pin_and_the_matrix(rng, batch):
    m, c, I = inertia_arrays(rng, batch, scale=5.0)
    v = rng.normal(size=batch + (6,)) * 10.0 ** rng.uniform(-2, 2, 6)
    Y = Inertia(m, c, I)
    h = Y * Motion(v)
    assert type(h) is Force and h.vector.shape == batch + (6,)
    check_each(h.vector, batch, lambda i: (pin_inertia(m, c, I, i) * pin.Motion(v[i])).vector,
               "Y * v")
    check_each(h.vector, batch, lambda i: Y.matrix()[i] @ v[i], "matrix() @ v")


def test_inertia_times_a_batch_of_motions(rng):
    m, c, I = inertia_arrays(rng, ())
    v = rng.normal(size=(2, 3, 6))
    h = Inertia(m, c, I) * Motion(v)
    assert h.vector.shape == (2, 3, 6)
    for idx in np.ndindex(2, 3):
        assert_close(h.vector[idx], (pin_inertia(m, c, I) * pin.Motion(v[idx])).vector)


def test_inertia_times_anything_else_is_a_type_error(rng):
    with pytest.raises(TypeError):
        Inertia(*inertia_arrays(rng, ())) * Force(rng.normal(size=6))


def test_kinetic_energy_is_half_v_dot_y_v(rng, batch):
    """1/2 v . (Y v) == 1/2 v^T matrix() v == pin's vtiv / 2, and it is positive."""
    m, c, I = inertia_arrays(rng, batch)
    v = rng.normal(size=batch + (6,))
    Y = Inertia(m, c, I)
    energy = Motion(v).dot(Y * Motion(v))
    check_each(energy, batch, lambda i: pin_inertia(m, c, I, i).vtiv(pin.Motion(v[i])), "vtiv")
    assert np.all(energy > 0)


# --- merging two bodies ----------------------------------------------------------------------


def test_addition_matches_pin(rng, batch):
    a, b = inertia_arrays(rng, batch, 2.0), inertia_arrays(rng, batch, 2.0)
    Ya, Yb = Inertia(*a), Inertia(*b)
    check_inertia(Ya + Yb, batch, lambda i: pin_inertia(*a, i) + pin_inertia(*b, i), "Ya + Yb")
    Yc = Inertia(*a)
    Yc += Yb
    check_inertia(Yc, batch, lambda i: pin_inertia(*a, i) + pin_inertia(*b, i), "Ya += Yb")
    check_inertia(Ya, batch, lambda i: pin_inertia(*a, i), "Ya unchanged by Ya + Yb")
    # matrix() is additive: the 6x6 inertia of two bodies is the sum of theirs
    check_each((Ya + Yb).matrix(), batch, lambda i: Ya.matrix()[i] + Yb.matrix()[i], "additive")


def test_zero_plus_zero_is_zero_as_in_pin():
    """Pinocchio guards the division by the total mass with max(M, eps)."""
    for Y, ref in ((Inertia.Zero() + Inertia.Zero(), pin.Inertia.Zero() + pin.Inertia.Zero()),
                   (Inertia.Zero((3,)) + Inertia.Zero(), pin.Inertia.Zero() + pin.Inertia.Zero())):
        assert np.all(np.isfinite(Y.lever)) and np.all(np.isfinite(Y.inertia))
        for idx in np.ndindex(*Y.shape):
            assert_close(Y.mass[idx], ref.mass)
            assert_close(Y.lever[idx], ref.lever)
            assert_close(Y.inertia[idx], ref.inertia)
    Y = Inertia.Zero()
    Y += Inertia.Zero()
    assert_close(Y.matrix(), np.zeros((6, 6)))


@pytest.mark.parametrize("masses", [(0.0, 0.0), (0.0, 1.5), (1e-300, 1e-300), (1e-17, 0.0),
                                    (2.0, 1e-30)])
def test_small_and_zero_masses_merge_as_in_pin(rng, masses):
    c1, c2 = rng.normal(size=3), rng.normal(size=3)
    _, _, I1 = inertia_arrays(rng, ())
    _, _, I2 = inertia_arrays(rng, ())
    Y = Inertia(masses[0], c1, I1) + Inertia(masses[1], c2, I2)
    ref = pin.Inertia(masses[0], c1, I1) + pin.Inertia(masses[1], c2, I2)
    assert_close(Y.mass, ref.mass, what="mass")
    assert_close(Y.lever, ref.lever, what="lever")
    assert_close(Y.inertia, ref.inertia, what="inertia")
    Y = Inertia(masses[0], c1, I1)
    Y += Inertia(masses[1], c2, I2)
    assert_close(Y.lever, ref.lever, what="+= lever")
    assert_close(Y.inertia, ref.inertia, what="+= inertia")


# --- actions of SE3 --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["orthonormal", "scaled", "unnormalised_quaternion"])
def test_se3_action_matches_pin_for_any_rotation(rng, batch, kind):
    R, p = rotations(rng, batch, kind), rng.normal(size=batch + (3,))
    m, c, I = inertia_arrays(rng, batch)
    Y, M = Inertia(m, c, I), SE3(R, p)

    def ref_M(i):
        return pin.SE3(R[i], p[i])

    check_inertia(Y.se3Action(M), batch,
                  lambda i: pin_inertia(m, c, I, i).se3Action(ref_M(i)), "se3Action")
    check_inertia(Y.se3ActionInverse(M), batch,
                  lambda i: pin_inertia(m, c, I, i).se3ActionInverse(ref_M(i)), "se3ActionInverse")
    check_inertia(M.act(Y), batch, lambda i: ref_M(i).act(pin_inertia(m, c, I, i)), "M.act(Y)")
    check_inertia(M.actInv(Y), batch, lambda i: ref_M(i).actInv(pin_inertia(m, c, I, i)),
                  "M.actInv(Y)")


def test_rotate_differs_from_r_i_rt_for_a_non_orthonormal_rotation(rng):
    """The case the previous test exists for: with R scaled by 1.3, Pinocchio's result is not
    R I R^T, and pinref reproduces Pinocchio's."""
    R, p = rotations(rng, (), "scaled"), rng.normal(size=3)
    m, c, I = inertia_arrays(rng, ())
    ref = pin.SE3(R, p).act(pin_inertia(m, c, I)).inertia
    assert np.abs(ref - R @ I @ R.T).max() > 1e-3
    assert_close(SE3(R, p).act(Inertia(m, c, I)).inertia, ref)


def test_se3_action_is_the_congruence_of_the_matrix(rng, batch):
    """act(Y).matrix() == M.dualAction @ Y.matrix() @ M.actionInverse for an orthonormal R."""
    R, p = rotations(rng, batch, "orthonormal"), rng.normal(size=batch + (3,))
    Y, M = Inertia(*inertia_arrays(rng, batch)), SE3(R, p)
    X = M.dualAction @ Y.matrix() @ M.actionInverse
    check_each(Y.se3Action(M).matrix(), batch, lambda i: X[i], "congruence")
    # and the momentum transforms as a force: act(Y) * act(v) == act(Y * v)
    v = Motion(rng.normal(size=batch + (6,)))
    check_each((M.act(Y) * M.act(v)).vector, batch, lambda i: M.act(Y * v).vector[i], "momentum")


def test_a_batch_of_placements_moves_one_inertia(rng):
    R, p = rotations(rng, (4,), "orthonormal"), rng.normal(size=(4, 3))
    m, c, I = inertia_arrays(rng, ())
    out = SE3(R, p).act(Inertia(m, c, I))
    assert out.shape == (4,)
    for k in range(4):
        ref = pin.SE3(R[k], p[k]).act(pin_inertia(m, c, I))
        assert_close(out.mass[k], ref.mass)
        assert_close(out.lever[k], ref.lever)
        assert_close(out.inertia[k], ref.inertia)


# --- vxiv, variation -------------------------------------------------------------------------


def test_vxiv_and_variation_match_pin(rng, batch):
    m, c, I = inertia_arrays(rng, batch, 2.0)
    v = rng.normal(size=batch + (6,))
    Y, mv = Inertia(m, c, I), Motion(v)
    check_each(Y.vxiv(mv).vector, batch,
               lambda i: pin_inertia(m, c, I, i).vxiv(pin.Motion(v[i])).vector, "vxiv")
    check_each(Y.variation(mv), batch,
               lambda i: pin_inertia(m, c, I, i).variation(pin.Motion(v[i])), "variation")
    assert type(Y.vxiv(mv)) is Force


def test_vxiv_and_variation_against_the_matrix_forms(rng, batch):
    """vxiv(v) == v x* (Y v); variation(v) == crf(v) Y - Y crm(v), the time derivative of the
    6x6 inertia of a body moving with velocity v (expressed in a fixed frame)."""
    Y = Inertia(*inertia_arrays(rng, batch))
    v = Motion(rng.normal(size=batch + (6,)))
    check_each(Y.vxiv(v).vector, batch, lambda i: v.cross(Y * v).vector[i], "v x* (Y v)")
    dY = v.dualAction @ Y.matrix() - Y.matrix() @ v.action
    check_each(Y.variation(v), batch, lambda i: dY[i], "crf Y - Y crm")


def test_variation_is_the_derivative_of_the_moving_inertia(rng):
    """d/dt exp(t v).act(Y).matrix() at t = 0 equals Y.variation(v) (central difference)."""
    Y = Inertia(*inertia_arrays(rng, ()))
    v = rng.normal(size=6)
    h = 1e-6
    moved = [pin.exp6(pin.Motion(s * v)).act(pin_inertia(Y.mass, Y.lever, Y.inertia)).matrix()
             for s in (-h, h)]
    numerical = (moved[1] - moved[0]) / (2 * h)
    error = np.abs(numerical - Y.variation(Motion(v))).max()
    assert error < 1e-6 * max(1, np.abs(numerical).max())


# --- isApprox --------------------------------------------------------------------------------


@pytest.mark.parametrize("where, rel", [
    ("mass", 5e-13), ("mass", 2e-12), ("lever", 5e-13), ("lever", 2e-12),
    ("off_diagonal", 1.5e-12), ("off_diagonal", 5e-13), ("off_diagonal", 2.5e-12),
    ("diagonal", 1.5e-12), ("none", 0.0), ("heavy_mass", 5e-13), ("heavy_mass", 2e-12)])
def test_is_approx_matches_pin(where, rel):
    """Pinocchio 3.8.0 compares the mass absolutely and the lever and the six stored numbers
    (xx, xy, yy, xz, yz, zz) of the rotational inertia with Eigen's isApprox. (A heavy body
    tells an absolute mass comparison from pin 4.x's relative one.)"""
    m, c, I = (1000.0 if where == "heavy_mass" else 1.0), np.array([0.5, -1.0, 2.0]), np.eye(3)
    m2, c2, I2 = m, c.copy(), I.copy()
    if where.endswith("mass"):
        m2 += rel * m
    elif where == "lever":
        c2[0] += rel * np.linalg.norm(c)
    elif where == "off_diagonal":
        I2[0, 1] = I2[1, 0] = rel
    elif where == "diagonal":
        I2[2, 2] += rel * np.sqrt(3.0)
    assert Inertia(m, c, I).isApprox(Inertia(m2, c2, I2)) == _pin_is_approx(m, c, I, m2, c2, I2)
    for prec in (1e-12, 1e-11):
        expected = _pin_is_approx(m, c, I, m2, c2, I2, prec)
        assert Inertia(m, c, I).isApprox(Inertia(m2, c2, I2), prec) == expected


def _pin_is_approx(m, c, I, m2, c2, I2, prec=1e-12):
    """pin's ``Inertia.isApprox`` under 3.8.0's rule. pin 4.x compares the masses relatively
    (docs/quirks.md, "pin 4.1.0 differences"); there the masses are compared absolutely here
    and the rest by pin with equal masses."""
    if not differs(pin, "inertia_is_approx"):
        return pin.Inertia(m, c, I).isApprox(pin.Inertia(m2, c2, I2), prec)
    return abs(m - m2) <= prec and pin.Inertia(m, c, I).isApprox(pin.Inertia(m, c2, I2), prec)


def test_heavy_masses_are_compared_absolutely_as_in_pin_3_8():
    """The ledger's entry: masses 1000 and 1000 (1 + 5e-13) are approximately equal for pin
    4.x (relative), not for 3.8.0 and pinref (absolute, 5e-10 > 1e-12)."""
    c, I = np.zeros(3), np.eye(3)
    m, m2 = 1000.0, 1000.0 * (1 + 5e-13)
    assert pin.Inertia(m, c, I).isApprox(pin.Inertia(m2, c, I)) == differs(pin,
                                                                           "inertia_is_approx")
    assert not Inertia(m, c, I).isApprox(Inertia(m2, c, I))


def test_batched_is_approx_holds_when_every_element_does(rng):
    m, c, I = inertia_arrays(rng, (3,))
    assert Inertia(m, c, I).isApprox(Inertia(m, c, I))
    c2 = c.copy()
    c2[1, 0] += 1e-6
    assert not Inertia(m, c, I).isApprox(Inertia(m, c2, I))


# --- hypothesis ------------------------------------------------------------------------------

finite = st.floats(-10.0, 10.0, allow_nan=False, allow_subnormal=False)


@st.composite
def inertias(draw):
    """(mass, lever, inertia) with inertia = tr(S) I3 - S, S = A A^T + 0.01 I3 (a rigid body's)."""
    mass = draw(st.floats(0.0, 10.0, allow_subnormal=False))
    lever = draw(hnp.arrays(float, (3,), elements=finite))
    A = draw(hnp.arrays(float, (3, 3), elements=st.floats(-3, 3, allow_subnormal=False)))
    return mass, lever, rigid_body_inertia(A, 0.01)


@st.composite
def rotation_matrices(draw):
    """The matrix of a quaternion of norm in [1, 2]: not a rotation, but well conditioned
    (its singular values are at least 1; see test_se3.placements)."""
    q = draw(hnp.arrays(float, (4,), elements=st.floats(-1, 1, allow_subnormal=False)))
    if np.linalg.norm(q) < 0.1:
        q = np.array([1.0, 0.0, 0.0, 0.0])
    q = q * draw(st.floats(1.0, 2.0)) / np.linalg.norm(q)
    return pin.Quaternion(*q).toRotationMatrix()


@settings(max_examples=80, deadline=None)
@given(a=inertias(), b=inertias(), v=hnp.arrays(float, (6,), elements=finite),
       R=rotation_matrices(), p=hnp.arrays(float, (3,), elements=finite))
def test_hypothesis_inertia_operations_match_pin(a, b, v, R, p):
    Ya, Yb, ra, rb = Inertia(*a), Inertia(*b), pin.Inertia(*a), pin.Inertia(*b)
    assert_close(Ya.matrix(), ra.matrix(), what="matrix")
    assert_close((Ya * Motion(v)).vector, (ra * pin.Motion(v)).vector, what="Y * v")
    assert_close(Ya.vxiv(Motion(v)).vector, ra.vxiv(pin.Motion(v)).vector, what="vxiv")
    assert_close(Ya.variation(Motion(v)), ra.variation(pin.Motion(v)), what="variation")
    for ours, ref in ((Ya + Yb, ra + rb), (SE3(R, p).act(Ya), pin.SE3(R, p).act(ra)),
                      (SE3(R, p).actInv(Ya), pin.SE3(R, p).actInv(ra))):
        assert_close(ours.mass, ref.mass, what="mass")
        assert_close(ours.lever, ref.lever, what="lever")
        assert_close(ours.inertia, ref.inertia, what="inertia")


def test_pinref_reexports_inertia():
    assert pinref.Inertia is Inertia
