"""Motion and Force against Pinocchio 3.8.0, state by state, and against their 6x6 forms.

Oracles: (1) the 6x6 forms ``m.action`` (crm) and ``m.dualAction`` (crf) and algebraic
identities (Jacobi, duality of ^ and x*); (2) pin 3.8.0 called once per batch element.
Tolerance: ``1e-12 * max(1, max|ref|)`` per quantity and per state (design.md section 7).
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import BATCH_SHAPES, assert_close
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import pinref
from pinref import SE3, Force, Motion
from pinref.compare.versions import differs

CLASSES = [(Motion, pin.Motion), (Force, pin.Force)]


def check_each(actual, batch, reference, what):
    """assert_close(actual[idx], reference(idx)) for every state idx of the batch."""
    actual = np.asarray(actual)
    assert actual.shape[: len(batch)] == tuple(batch), f"{what}: shape {actual.shape}"
    for idx in np.ndindex(*batch):
        assert_close(actual[idx], reference(idx), what=f"{what}[{idx}]")


def vectors(rng, shape, scale=1.0):
    """Spatial vectors whose entries span several magnitudes."""
    return scale * rng.normal(size=tuple(shape) + (6,)) * 10.0 ** rng.uniform(-2, 2, 6)


@pytest.fixture(params=BATCH_SHAPES, ids=str)
def batch(request):
    return request.param


# --- constructors and attributes -------------------------------------------------------------


@pytest.mark.parametrize("cls, ref_cls", CLASSES, ids=["Motion", "Force"])
def test_constructors_and_attributes_match_pin(rng, batch, cls, ref_cls):
    v = vectors(rng, batch)
    from_vector, from_parts = cls(v), cls(v[..., :3], v[..., 3:])
    for x in (from_vector, from_parts):
        assert x.vector.shape == batch + (6,) and x.shape == batch
        check_each(x.vector, batch, lambda i: ref_cls(v[i]).vector, "vector")
        check_each(x.linear, batch, lambda i: ref_cls(v[i][:3], v[i][3:]).linear, "linear")
        check_each(x.angular, batch, lambda i: ref_cls(v[i][:3], v[i][3:]).angular, "angular")
        check_each(x.np, batch, lambda i: ref_cls(v[i]).np, "np")


@pytest.mark.parametrize("cls, ref_cls", CLASSES, ids=["Motion", "Force"])
def test_zero_and_random(batch, cls, ref_cls):
    z = cls.Zero(batch)
    assert z.vector.shape == batch + (6,)
    check_each(z.vector, batch, lambda i: ref_cls.Zero().vector, "Zero")
    assert z.isZero()
    r = cls.Random(batch, rng=np.random.default_rng(1))
    assert r.vector.shape == batch + (6,)
    assert np.all(np.abs(r.vector) <= 1.0)  # Eigen's Random is uniform in [-1, 1]
    assert np.array_equal(cls.Random(batch, rng=np.random.default_rng(1)).vector, r.vector)
    assert type(z) is cls and type(r) is cls


def test_zero_vector_batch_keeps_its_shape():
    assert Motion(np.zeros((4, 6))).vector.shape == (4, 6)
    assert Force(np.zeros((4, 6))).vector.shape == (4, 6)
    assert Motion(np.zeros((4, 3)), np.zeros(3)).vector.shape == (4, 6)


def test_constructor_copies_and_parts_are_views(rng):
    v = rng.normal(size=6)
    m = Motion(v)
    v[0] = 100.0
    assert m.vector[0] != 100.0
    m.linear = [1.0, 2.0, 3.0]
    m.angular = np.array([4.0, 5.0, 6.0])
    assert_close(m.vector, np.arange(1.0, 7.0))
    ref = pin.Motion(np.zeros(6))
    ref.linear, ref.angular = np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])
    assert_close(m.vector, ref.vector)


# --- vector-space operations -----------------------------------------------------------------


@pytest.mark.parametrize("cls, ref_cls", CLASSES, ids=["Motion", "Force"])
def test_linear_operations_match_pin(rng, batch, cls, ref_cls):
    a, b = vectors(rng, batch), vectors(rng, batch)
    x, y = cls(a), cls(b)
    alpha = 2.5

    def ref(i):
        return ref_cls(a[i]), ref_cls(b[i])

    check_each((x + y).vector, batch, lambda i: (ref(i)[0] + ref(i)[1]).vector, "+")
    check_each((x - y).vector, batch, lambda i: (ref(i)[0] - ref(i)[1]).vector, "-")
    check_each((-x).vector, batch, lambda i: (-ref(i)[0]).vector, "unary -")
    check_each((x * alpha).vector, batch, lambda i: (ref(i)[0] * alpha).vector, "x * alpha")
    check_each((alpha * x).vector, batch, lambda i: (alpha * ref(i)[0]).vector, "alpha * x")
    for result in (x + y, x - y, -x, x * alpha, alpha * x):
        assert type(result) is cls
    assert_close(x.vector, a)  # operands are left alone


def test_in_place_operations_and_batched_scalars(rng, batch):
    a, b = vectors(rng, batch), vectors(rng, batch)
    x = Motion(a)
    x += Motion(b)
    check_each(x.vector, batch, lambda i: (pin.Motion(a[i]) + pin.Motion(b[i])).vector, "+=")
    x -= Motion(b)
    x -= Motion(b)
    check_each(x.vector, batch, lambda i: (pin.Motion(a[i]) - pin.Motion(b[i])).vector, "-=")
    alphas = rng.normal(size=batch)
    check_each((Force(a) * alphas).vector, batch,
               lambda i: (pin.Force(a[i]) * float(alphas[i])).vector, "batched scalar")


def test_mixing_motions_and_forces_is_a_type_error(rng):
    with pytest.raises(TypeError):
        Motion(rng.normal(size=6)) + Force(rng.normal(size=6))
    with pytest.raises(TypeError):
        Force(rng.normal(size=6)) - Motion(rng.normal(size=6))
    with pytest.raises(TypeError):
        Motion(rng.normal(size=6)) * Motion(rng.normal(size=6))


# --- cross products and their 6x6 forms ------------------------------------------------------


def test_cross_products_match_pin(rng, batch):
    a, b, c = vectors(rng, batch), vectors(rng, batch), vectors(rng, batch)
    m, n, f = Motion(a), Motion(b), Force(c)
    check_each(m.cross(n).vector, batch,
               lambda i: pin.Motion(a[i]).cross(pin.Motion(b[i])).vector, "m.cross(n)")
    check_each((m ^ n).vector, batch, lambda i: (pin.Motion(a[i]) ^ pin.Motion(b[i])).vector, "^")
    check_each(m.cross(f).vector, batch,
               lambda i: pin.Motion(a[i]).cross(pin.Force(c[i])).vector, "m.cross(f)")
    check_each((m ^ f).vector, batch, lambda i: (pin.Motion(a[i]) ^ pin.Force(c[i])).vector, "^ f")
    assert type(m ^ n) is Motion and type(m ^ f) is Force


def test_action_matrices_match_pin_and_the_cross_products(rng, batch):
    a, b, c = vectors(rng, batch), vectors(rng, batch), vectors(rng, batch)
    m, n, f = Motion(a), Motion(b), Force(c)
    check_each(m.action, batch, lambda i: pin.Motion(a[i]).action, "action")
    check_each(m.dualAction, batch, lambda i: pin.Motion(a[i]).dualAction, "dualAction")
    check_each(m.action @ b[..., None], batch, lambda i: (m ^ n).vector[i][:, None], "action @ n")
    check_each(m.dualAction @ c[..., None], batch, lambda i: m.cross(f).vector[i][:, None],
               "dualAction @ f")
    check_each(m.dualAction, batch, lambda i: -m.action[i].T, "crf == -crm^T")


def test_cross_identities(rng, batch):
    """m ^ m == 0; Jacobi for ^; (m ^ n) x* f == m x* (n x* f) - n x* (m x* f); and the duality
    (m ^ n) . f == -n . (m x* f)."""
    m, n, k = (Motion(rng.normal(size=batch + (6,))) for _ in range(3))
    f = Force(rng.normal(size=batch + (6,)))
    check_each((m ^ m).vector, batch, lambda i: np.zeros(6), "m ^ m")
    jacobi = (m ^ (n ^ k)) + (n ^ (k ^ m)) + (k ^ (m ^ n))
    check_each(jacobi.vector, batch, lambda i: np.zeros(6), "Jacobi")
    lhs = (m ^ n).cross(f)
    rhs = m.cross(n.cross(f)) - n.cross(m.cross(f))
    check_each(lhs.vector, batch, lambda i: rhs.vector[i], "x* is a representation")
    check_each((m ^ n).dot(f), batch, lambda i: -n.dot(m.cross(f))[i], "duality")


def test_cross_with_an_unsupported_type_is_a_type_error(rng):
    with pytest.raises(TypeError):
        Motion(rng.normal(size=6)).cross(rng.normal(size=6))


# --- dot products ----------------------------------------------------------------------------


def test_dot_matches_pin(rng, batch):
    a, b = vectors(rng, batch), vectors(rng, batch)
    m, f = Motion(a), Force(b)
    assert np.shape(m.dot(f)) == batch and np.shape(f.dot(m)) == batch
    check_each(m.dot(f), batch, lambda i: pin.Motion(a[i]).dot(pin.Force(b[i])), "m.dot(f)")
    check_each(f.dot(m), batch, lambda i: pin.Force(b[i]).dot(pin.Motion(a[i])), "f.dot(m)")


@pytest.mark.parametrize("linear, angular", [
    ([1e16, 1.0, -1e16], [0.0, 0.0, 0.0]),
    ([1e16, -1e16, 1.0], [0.0, 0.0, 0.0]),
    ([1e16, 0.0, 0.0], [1.0, -1e16, 0.0]),
    ([1.0, 0.0, 0.0], [1e16, -1e16, 0.0]),
    ([3.0, 1e17, 0.5], [-1e17, 0.25, 7.0]),
])
def test_dot_sums_in_pinocchios_order(linear, angular):
    """With cancelling terms the order of the sum decides the result; Pinocchio's is
    (l0 + l1 + l2) + (a0 + a1 + a2). The products here are exact, so the results are too."""
    v = np.array(linear + angular)
    expected = pin.Motion(v).dot(pin.Force(np.ones(6)))
    assert Motion(v).dot(Force(np.ones(6))) == expected
    assert Force(np.ones(6)).dot(Motion(v)) == pin.Force(np.ones(6)).dot(pin.Motion(v))


def test_dot_type_checks(rng):
    with pytest.raises(TypeError):
        Motion(rng.normal(size=6)).dot(Motion(rng.normal(size=6)))
    with pytest.raises(TypeError):
        Force(rng.normal(size=6)).dot(Force(rng.normal(size=6)))


# --- se3Action / se3ActionInverse ------------------------------------------------------------


@pytest.mark.parametrize("cls, ref_cls", CLASSES, ids=["Motion", "Force"])
def test_se3_action_matches_pin(rng, batch, cls, ref_cls):
    Q, _ = np.linalg.qr(rng.normal(size=batch + (3, 3)))
    R, p, v = 1.3 * Q, rng.normal(size=batch + (3,)), vectors(rng, batch)
    M, x = SE3(R, p), cls(v)
    check_each(x.se3Action(M).vector, batch,
               lambda i: ref_cls(v[i]).se3Action(pin.SE3(R[i], p[i])).vector, "se3Action")
    check_each(x.se3ActionInverse(M).vector, batch,
               lambda i: ref_cls(v[i]).se3ActionInverse(pin.SE3(R[i], p[i])).vector,
               "se3ActionInverse")
    check_each(x.se3Action(M).vector, batch, lambda i: M.act(x).vector[i], "== M.act")


# --- isApprox / isZero -----------------------------------------------------------------------


@pytest.mark.parametrize("cls, ref_cls", CLASSES, ids=["Motion", "Force"])
@pytest.mark.parametrize("case", ["tiny_angular", "zero_both", "rel_5e-13", "rel_2e-12",
                                  "big_diff"])
def test_is_approx_matches_pin(cls, ref_cls, case):
    """Pinocchio compares the linear and the angular parts separately (Eigen's isApprox on each),
    so a zero part is approximately equal only to an exact zero."""
    a = np.array([1.0, 2.0, 3.0, 0.0, 0.0, 0.0])
    b = a.copy()
    if case == "tiny_angular":
        b[3] = 1e-20
    elif case == "zero_both":
        a[:] = b[:] = 0.0
    elif case.startswith("rel"):
        b[0] += float(case.split("_")[1]) * np.linalg.norm(a[:3])
        a[3:] = b[3:] = [0.5, 0.5, 0.5]
    else:
        b[4] = 1.0
    for prec in (1e-12, 1e-9):
        assert cls(a).isApprox(cls(b), prec) == _pin_is_approx(ref_cls, a, b, prec), prec
    assert cls(a).isApprox(cls(b)) == _pin_is_approx(ref_cls, a, b)


def _pin_is_approx(ref_cls, a, b, *prec):
    """pin's ``isApprox`` under 3.8.0's rule: Eigen's isApprox on the linear and on the angular
    part. pin 4.x also accepts a part that is zero on both sides (docs/quirks.md, "pin 4.1.0
    differences"); there each part's Eigen isApprox is read from pin's ``SE3.isApprox`` of two
    translations (rotations equal), which is Eigen's isApprox in both versions."""
    if not differs(pin, "motion_is_approx"):
        return ref_cls(a).isApprox(ref_cls(b), *prec)
    eye = np.eye(3)
    return all(pin.SE3(eye, a[part]).isApprox(pin.SE3(eye, b[part]), *prec)
               for part in (slice(0, 3), slice(3, 6)))


@pytest.mark.parametrize("cls, ref_cls", CLASSES, ids=["Motion", "Force"])
def test_a_zero_part_is_approx_only_to_an_exact_zero_as_in_pin_3_8(cls, ref_cls):
    """The ledger's entry: pin 4.x accepts an angular part of 1e-20 against 0, 3.8.0 and
    pinref do not."""
    a = np.array([1.0, 2.0, 3.0, 0.0, 0.0, 0.0])
    b = a + np.array([0.0, 0.0, 0.0, 1e-20, 0.0, 0.0])
    assert ref_cls(a).isApprox(ref_cls(b), 1e-12) == differs(pin, "motion_is_approx")
    assert not cls(a).isApprox(cls(b), 1e-12)


@pytest.mark.parametrize("value", [0.0, 1e-13, 9.9e-13, 1.1e-12, 1e-3])
def test_is_zero_matches_pin(value):
    v = np.array([0.0, -value, 0.0, 0.0, 0.0, value])
    assert Motion(v).isZero() == pin.Motion(v).isZero()
    assert Force(v).isZero(1e-3) == pin.Force(v).isZero(1e-3)


# --- hypothesis ------------------------------------------------------------------------------

finite = st.floats(-100.0, 100.0, allow_nan=False, allow_subnormal=False)
six = hnp.arrays(float, (6,), elements=finite)


@settings(max_examples=80, deadline=None)
@given(a=six, b=six, c=six, alpha=finite)
def test_hypothesis_algebra_matches_pin(a, b, c, alpha):
    m, n, f = Motion(a), Motion(b), Force(c)
    rm, rn, rf = pin.Motion(a), pin.Motion(b), pin.Force(c)
    assert_close((m + n).vector, (rm + rn).vector, what="+")
    assert_close((m - n).vector, (rm - rn).vector, what="-")
    assert_close((alpha * f).vector, (alpha * rf).vector, what="alpha * f")
    assert_close((m ^ n).vector, (rm ^ rn).vector, what="m ^ n")
    assert_close(m.cross(f).vector, rm.cross(rf).vector, what="m x* f")
    assert_close(m.action, rm.action, what="action")
    assert_close(m.dualAction, rm.dualAction, what="dualAction")
    assert_close(m.dot(f), rm.dot(rf), what="m.dot(f)")


@settings(max_examples=30, deadline=None)
@given(a=hnp.arrays(float, (2, 3, 6), elements=finite),
       b=hnp.arrays(float, (3, 6), elements=finite))
def test_hypothesis_batches_broadcast_like_a_loop_over_pin(a, b):
    m, n = Motion(a), Motion(b)
    out, dots = m ^ n, m.dot(Force(b))
    assert out.vector.shape == (2, 3, 6) and dots.shape == (2, 3)
    for i, j in np.ndindex(2, 3):
        assert_close(out.vector[i, j], (pin.Motion(a[i, j]) ^ pin.Motion(b[j])).vector)
        assert_close(dots[i, j], pin.Motion(a[i, j]).dot(pin.Force(b[j])))


def test_pinref_reexports_motion_and_force():
    assert pinref.Motion is Motion and pinref.Force is Force
