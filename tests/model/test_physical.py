"""The one physical-consistency rule (pinref/spatial/physical.py) at ``Inertia(...)``.

Oracle: pin.Inertia(mass, lever, I) of Pinocchio 3.8.0, which raises on a non-symmetric I and
on a negative diagonal entry ("The 3d inertia should be positive") and accepts the rest; where
pin accepts an inertia no rigid body has (the triangle inequality broken, an indefinite I),
pinref accepts it too and warns (InertiaWarning). Issue 13 item 2: ``Inertia(1, 0,
diag(-5, 1, 1))`` and ``-I`` were accepted (crba then returned M = [[-5]]).
"""

import warnings

import numpy as np
import pinocchio as pin
import pytest

import pinref
from pinref.errors import InertiaError, InertiaWarning
from pinref.spatial.physical import inconsistent, inertia_problems, principal_moments

C = np.zeros(3)
RAISES = {"diag(-5, 1, 1)": np.diag([-5.0, 1.0, 1.0]), "-I": -np.eye(3),
          "non-symmetric": np.array([[1.0, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])}
WARNS = {"indefinite": np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
         "triangle": np.diag([1.0, 1.0, 3.0]), "placeholder": np.full((3, 3), 1e-6)}
PHYSICAL = {"identity": np.eye(3), "rod": np.diag([0.0, 1.0, 1.0]),
            "plate_6_digits": np.diag([0.0833333, 0.333333, 0.416667]), "zero": np.zeros((3, 3))}


def _rotated_rod(seed):
    """A thin rod (moments 0, 1, 1) turned at random: its smallest eigenvalue rounds to about
    +-1e-16, which is no negative moment."""
    Q, _ = np.linalg.qr(np.random.default_rng(seed).normal(size=(3, 3)))
    return Q @ np.diag([0.0, 1.0, 1.0]) @ Q.T


@pytest.mark.parametrize("name", list(RAISES))
def test_raises_where_pin_raises(name):
    with pytest.raises(RuntimeError):
        pin.Inertia(1.0, C, RAISES[name])
    with pytest.raises(InertiaError):
        pinref.Inertia(1.0, C, RAISES[name])


@pytest.mark.parametrize("name", list(WARNS))
def test_warns_where_pin_accepts_what_no_rigid_body_has(name):
    ref = pin.Inertia(1.0, C, WARNS[name])
    with pytest.warns(InertiaWarning, match="no rigid body"):
        Y = pinref.Inertia(1.0, C, WARNS[name])
    np.testing.assert_array_equal(Y.matrix(), ref.matrix())


@pytest.mark.parametrize("name", list(PHYSICAL) + ["rotated_rod"])
def test_physical_inertias_are_silent(name):
    I = _rotated_rod(3) if name == "rotated_rod" else PHYSICAL[name]
    I = 0.5 * (I + I.T)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pinref.Inertia(1.0, C, I)
    assert inertia_problems(I) == []


def test_the_rule_reports_numbers():
    (triangle,) = inertia_problems(np.diag([1.0, 1.0, 3.0]))
    assert "(1, 1, 3)" in triangle and "by 1 (50 % of the sum" in triangle
    (pr2,) = inertia_problems(np.diag([0.001, 0.001, 0.01]))
    assert "4 times the sum" in pr2
    (negative,) = inertia_problems(WARNS["indefinite"])
    assert "(-1, 1, 3)" in negative and "indefinite" in negative
    (placeholder,) = inertia_problems(WARNS["placeholder"])
    assert "negative" not in placeholder and "triangle" in placeholder


def test_batched_inertia_warns_once_naming_the_first_bad_element():
    I = np.broadcast_to(np.eye(3), (2, 3, 3, 3)).copy()
    I[1, 2] = np.diag([1.0, 1.0, 3.0])
    I[1, 0] = WARNS["indefinite"]
    with pytest.warns(InertiaWarning) as caught:
        pinref.Inertia(np.ones((2, 3)), np.zeros((2, 3, 3)), I)
    assert len(caught) == 1 and "2 of 6 batch elements; the first, (1, 0)" in str(
        caught[0].message)
    assert inconsistent(principal_moments(I)).tolist() == [[False] * 3, [True, False, True]]
    I[0, 1, 2, 2] = -1.0
    with pytest.raises(InertiaError, match=r"-1 \(I\[2, 2\] of batch element \(0, 1\)\)"):
        pinref.Inertia(np.ones((2, 3)), np.zeros((2, 3, 3)), I)


def test_check_reports_the_links_the_loader_warns_about(tmp_path):
    """`pinref check`'s model-consistency group (issue 12 item 1): for a URDF model, the links
    of the loader's InertiaWarning, each with its problem; for a model built in Python, the
    bodies it holds; reported, not failed."""
    from test_urdf import INCONSISTENT_XML

    path = tmp_path / "odd.urdf"
    path.write_text(INCONSISTENT_XML)
    with pytest.warns(InertiaWarning) as caught:
        model = pinref.buildModelFromUrdf(path, pinref.JointModelFreeFlyer())
    warned = [line.split('"')[1] for line in str(caught[0].message).splitlines()[1:]]
    report = pinref.check(model, n_states=2, checks=["sizes"], source={"model": str(path)})
    assert [c["links"] for c in report.consistency] == [[name] for name in warned]
    assert report.passed and "model consistency: 3 bodies" in report.to_text()
    assert report.to_dict()["model_consistency"] == report.consistency
    in_python = pinref.check(model, n_states=2, checks=["sizes"])
    frames = [c for c in in_python.consistency if c["body"].startswith("frame")]
    assert [c["links"] for c in frames] == [[name] for name in warned]
    physical = pinref.check(pinref.buildSampleModelHumanoid(), n_states=2, checks=["sizes"])
    assert physical.consistency == [] and "every inertia is a rigid body's" in \
        physical.to_text()
