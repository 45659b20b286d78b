"""Bad input to the spatial classes raises pinref's typed errors (design.md section 5).

Every error is a ``pinref.errors.PinrefError`` and the builtin a caller would catch
(``ValueError`` here): ShapeError for wrong sizes and batch shapes that do not broadcast,
NonFiniteError for NaN or infinity, InertiaError for non-physical inertias. A failed in-place
operation leaves its target unchanged.
"""

import numpy as np
import pytest

from pinref import SE3, Force, Inertia, Motion
from pinref.errors import InertiaError, NonFiniteError, PinrefError, ShapeError


def raises(error, match=None):
    """pytest.raises that also checks the error is a PinrefError and a ValueError."""
    assert issubclass(error, PinrefError) and issubclass(error, ValueError)
    return pytest.raises(error, match=match)


# --- wrong sizes ---------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [Motion, Force])
@pytest.mark.parametrize("vector", [np.zeros(5), np.zeros(7), np.zeros((4, 5)), np.zeros(()),
                                    [1.0, 2.0], "abc", [[1.0, 2.0], [3.0]]])
def test_motion_and_force_need_six_vectors(cls, vector):
    with raises(ShapeError, match=r"\(6,\)|trailing shape"):
        cls(vector)


@pytest.mark.parametrize("cls", [Motion, Force])
def test_motion_and_force_parts_need_three_vectors(cls):
    with raises(ShapeError, match="linear"):
        cls(np.zeros(2), np.zeros(3))
    with raises(ShapeError, match="angular"):
        cls(np.zeros(3), np.zeros(4))
    with raises(ShapeError):
        cls(np.zeros(3), np.zeros(3), np.zeros(3))


@pytest.mark.parametrize("rotation", [np.eye(2), np.eye(4), np.zeros((3, 4)), np.zeros((4, 3)),
                                      np.zeros(9), np.zeros((2, 3, 2))])
def test_a_rotation_must_be_3x3(rotation):
    with raises(ShapeError, match="rotation"):
        SE3(rotation, np.zeros(3))


@pytest.mark.parametrize("translation", [np.zeros(2), np.zeros(4), np.zeros((3, 2)),
                                         np.zeros((1, 3, 1))])
def test_a_translation_must_be_a_3_vector(translation):
    with raises(ShapeError, match="translation"):
        SE3(np.eye(3), translation)


@pytest.mark.parametrize("H", [np.eye(3), np.eye(5), np.zeros((4, 3)), np.zeros(16)])
def test_a_homogeneous_matrix_must_be_4x4(H):
    with raises(ShapeError, match="homogeneous"):
        SE3(H)


def test_se3_takes_at_most_two_arguments():
    with raises(ShapeError):
        SE3(2)
    with raises(ShapeError):
        SE3(np.eye(3), np.zeros(3), np.zeros(3))


def test_a_point_must_be_a_3_vector():
    M = SE3.Identity()
    with raises(ShapeError, match="point"):
        M.act(np.zeros(4))
    with raises(ShapeError, match="point"):
        M.actInv(np.zeros(2))
    with raises(ShapeError, match="point"):
        M.act("not a point")


@pytest.mark.parametrize("lever, inertia", [
    (np.zeros(2), np.eye(3)), (np.zeros(4), np.eye(3)), (np.zeros(3), np.eye(2)),
    (np.zeros(3), np.zeros((3, 4))), (np.zeros(3), np.zeros(6))])
def test_inertia_needs_a_3_vector_lever_and_a_3x3_inertia(lever, inertia):
    with raises(ShapeError):
        Inertia(1.0, lever, inertia)


# --- non-finite numbers --------------------------------------------------------------------


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_numbers_are_refused_by_every_constructor(bad):
    def poisoned(shape, at):
        a = np.zeros(shape)
        a[at] = bad
        return a

    R = poisoned((3, 3), (1, 2)) + np.eye(3)
    H = np.eye(4)
    H[0, 3] = bad
    calls = {
        "SE3 rotation": lambda: SE3(R, np.zeros(3)),
        "SE3 translation": lambda: SE3(np.eye(3), poisoned(3, 1)),
        "SE3 homogeneous": lambda: SE3(H),
        "Motion vector": lambda: Motion(poisoned(6, 4)),
        "Motion linear": lambda: Motion(poisoned(3, 0), np.zeros(3)),
        "Motion angular": lambda: Motion(np.zeros(3), poisoned(3, 2)),
        "Force vector": lambda: Force(poisoned((2, 6), (1, 5))),
        "Force linear": lambda: Force(poisoned(3, 0), np.zeros(3)),
        "Force angular": lambda: Force(np.zeros(3), poisoned(3, 2)),
        "Inertia mass": lambda: Inertia(bad, np.zeros(3), np.eye(3)),
        "Inertia lever": lambda: Inertia(1.0, poisoned(3, 1), np.eye(3)),
        "Inertia inertia": lambda: Inertia(1.0, np.zeros(3), poisoned((3, 3), (2, 2)) + np.eye(3)),
        "point": lambda: SE3.Identity().act(poisoned(3, 0)),
    }
    for name, call in calls.items():
        with raises(NonFiniteError, match="NaN or infinity"):
            call()
            pytest.fail(f"{name}: no error")


# --- non-physical inertias -----------------------------------------------------------------


@pytest.mark.parametrize("mass", [-1.0, -1e-300, [1.0, -0.5, 2.0]])
def test_negative_mass_is_refused(mass):
    with raises(InertiaError, match="mass"):
        Inertia(mass, np.zeros(3), np.eye(3))


def test_zero_mass_is_accepted():
    assert float(Inertia(0.0, np.zeros(3), np.zeros((3, 3))).mass) == 0.0


@pytest.mark.parametrize("asymmetry", [1e-9, 1e-3, 1.0])
def test_non_symmetric_rotational_inertia_is_refused(asymmetry):
    I = np.eye(3)
    I[0, 2] += asymmetry
    with raises(InertiaError, match="symmetric"):
        Inertia(1.0, np.zeros(3), I)
    batch = np.broadcast_to(np.eye(3), (4, 3, 3)).copy()
    batch[2, 1, 0] += asymmetry
    with raises(InertiaError, match="symmetric"):
        Inertia(np.ones(4), np.zeros(3), batch)


# --- batch shapes that do not broadcast ----------------------------------------------------


def test_se3_batch_2_acting_on_motion_batch_3_is_a_shape_error():
    M, m = SE3.Random((2,), rng=np.random.default_rng(0)), Motion.Random((3,))
    with raises(ShapeError, match=r"\(2,\).*\(3,\)"):
        M.act(m)


def _operands():
    """Pairs (name, call) of binary operations on batches (2,) and (3,)."""
    rng = np.random.default_rng(0)
    M2, M3 = SE3.Random((2,), rng=rng), SE3.Random((3,), rng=rng)
    m2, m3 = Motion.Random((2,), rng=rng), Motion.Random((3,), rng=rng)
    f2, f3 = Force.Random((2,), rng=rng), Force.Random((3,), rng=rng)
    Y2, Y3 = Inertia.Random((2,), rng=rng), Inertia.Random((3,), rng=rng)
    return [
        ("M.act(m)", lambda: M2.act(m3)), ("M.actInv(m)", lambda: M2.actInv(m3)),
        ("M.act(f)", lambda: M2.act(f3)), ("M.actInv(f)", lambda: M2.actInv(f3)),
        ("M.act(Y)", lambda: M2.act(Y3)), ("M.actInv(Y)", lambda: M2.actInv(Y3)),
        ("M.act(M)", lambda: M2.act(M3)), ("M.actInv(M)", lambda: M2.actInv(M3)),
        ("M * M", lambda: M2 * M3), ("M.isApprox(M)", lambda: M2.isApprox(M3)),
        ("M.act(point)", lambda: M2.act(np.zeros((3, 3)))),
        ("M.actInv(point)", lambda: M2.actInv(np.zeros((3, 3)))),
        ("m.se3Action(M)", lambda: m3.se3Action(M2)),
        ("f.se3ActionInverse(M)", lambda: f3.se3ActionInverse(M2)),
        ("Y.se3Action(M)", lambda: Y3.se3Action(M2)),
        ("m + m", lambda: m2 + m3), ("m - m", lambda: m2 - m3), ("f + f", lambda: f2 + f3),
        ("m ^ m", lambda: m2 ^ m3), ("m.cross(f)", lambda: m2.cross(f3)),
        ("m.dot(f)", lambda: m2.dot(f3)), ("f.dot(m)", lambda: f2.dot(m3)),
        ("m.isApprox(m)", lambda: m2.isApprox(m3)),
        ("alpha * m", lambda: np.ones(3) * m2), ("m * alpha", lambda: m2 * np.ones(3)),
        ("Y * m", lambda: Y2 * m3), ("Y + Y", lambda: Y2 + Y3),
        ("Y.vxiv(m)", lambda: Y2.vxiv(m3)), ("Y.variation(m)", lambda: Y2.variation(m3)),
        ("Y.isApprox(Y)", lambda: Y2.isApprox(Y3)),
    ]


@pytest.mark.parametrize("name, call", _operands(), ids=[name for name, _ in _operands()])
def test_binary_operations_on_incompatible_batches_raise_shape_error(name, call):
    with raises(ShapeError, match="do not broadcast"):
        call()


def test_constructors_with_incompatible_batches_raise_shape_error():
    with raises(ShapeError, match="broadcast"):
        SE3(np.broadcast_to(np.eye(3), (2, 3, 3)), np.zeros((3, 3)))
    with raises(ShapeError, match="broadcast"):
        Motion(np.zeros((2, 3)), np.zeros((3, 3)))
    with raises(ShapeError, match="broadcast"):
        Inertia(np.ones(2), np.zeros((3, 3)), np.eye(3))


def test_failed_in_place_operations_leave_the_target_unchanged():
    m = Motion(np.arange(12.0).reshape(2, 6))
    with raises(ShapeError):
        m += Motion.Zero((3,))
    assert np.array_equal(m.vector, np.arange(12.0).reshape(2, 6))
    Y = Inertia.Random((2,), rng=np.random.default_rng(1))
    before = Y.copy()
    with raises(ShapeError):
        Y += Inertia.Random((3,))
    assert np.array_equal(Y.mass, before.mass) and np.array_equal(Y.inertia, before.inertia)


def test_compatible_batches_still_broadcast():
    """(2, 1) with (3,) broadcasts to (2, 3): not an error."""
    M = SE3.Random((2, 1), rng=np.random.default_rng(2))
    assert M.act(Motion.Random((3,))).vector.shape == (2, 3, 6)
    assert (Motion.Zero((2, 1)) + Motion.Zero((3,))).vector.shape == (2, 3, 6)


def test_errors_are_catchable_as_value_error():
    with pytest.raises(ValueError):
        Motion(np.zeros(5))
    with pytest.raises(ValueError):
        SE3.Random((2,)).act(Force.Zero((3,)))
    with pytest.raises(ValueError):
        Inertia(-1.0, np.zeros(3), np.eye(3))
