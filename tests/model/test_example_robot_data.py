"""Every URDF of example-robot-data 4.3.0 and 6.0.0 against pin.buildModelFromUrdf.

Oracle: Pinocchio 3.8.0's parse of the same file. Each file pin loads, pinref loads too, with
and without a free-flyer root, and every model field (``model_fields`` of test_bridge.py:
names, parents, joint types, axes and indexes, placements, inertias, limits, frames, ...) is
equal, numbers to 1e-15 * max(1, |ref|); the links whose inertia no rigid body has come in one
InertiaWarning (strict=True refuses them with InertiaError). Each file pin refuses, pinref
refuses with a URDFError. Package-relative mesh paths play no part in the model. The bridge
copies every model both ways exactly. 4.3.0 is the installed test dependency, 6.0.0 (the
current release, which adds g1, centauro, so100, xarm7, ...) is fetched from PyPI
(example_robots.py). The files marked quick run by default; the whole matrix is ``slow``.
"""

import warnings

import pinocchio as pin
import pytest

import pinref
from example_robots import VERSIONS, robot_id, urdf_files
from pinref.compare import from_pinocchio, to_pinocchio
from pinref.errors import InertiaError, InertiaWarning, URDFError
from test_bridge import assert_fields_equal, model_fields

ROBOTS = {version: urdf_files(version) for version in VERSIONS}
QUICK = {("4.3.0", "ur_description/urdf/ur5_robot"), ("4.3.0", "talos_reduced"),
         ("4.3.0", "falcon_description/urdf/falcon"), ("6.0.0", "tiago_dual"),
         ("6.0.0", "g1_description/urdf/g1_29dof_with_hand_rev_1_0"),
         ("6.0.0", "so_arm_description/urdf/so100"), ("6.0.0", "xarm_description/urdf/xarm7")}
PARAMS = [pytest.param(path, id=f"{version}-{robot_id(path)}",
                       marks=() if (version, robot_id(path)) in QUICK else pytest.mark.slow)
          for version in VERSIONS for path in ROBOTS[version]]
TOL = 1e-15
# Measured: (files, files pin loads, files with links of non-physical inertia). ur3's robot has
# no name (both releases); 4.3.0's falcon names a link it lacks.
COUNTS = {"4.3.0": (69, 67, 23), "6.0.0": (69, 68, 18)}


def _pin_model(path, root):
    try:
        return pin.buildModelFromUrdf(path) if root is None else pin.buildModelFromUrdf(
            path, root)
    except ValueError:
        return None


@pytest.mark.parametrize("path", PARAMS)
def test_model_equals_pin_with_and_without_a_free_flyer(path):
    for ref_root, pin_root in ((None, None),
                               (pinref.JointModelFreeFlyer(), pin.JointModelFreeFlyer())):
        pmodel = _pin_model(path, pin_root)
        if pmodel is None:
            with pytest.raises(URDFError):
                pinref.buildModelFromUrdf(path, ref_root)
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rmodel = pinref.buildModelFromUrdf(path, ref_root)
        assert len(caught) <= 1 and all(w.category is InertiaWarning for w in caught)
        assert_fields_equal(model_fields(rmodel), model_fields(pmodel), tol=TOL)
        # The bridge copies each robot both ways, including the inertias pin's own Inertia
        # constructor refuses but its URDF parser keeps (icub's -5e-20 diagonal).
        assert_fields_equal(model_fields(from_pinocchio(pmodel)), model_fields(pmodel))
        assert_fields_equal(model_fields(to_pinocchio(rmodel)), model_fields(rmodel))


@pytest.mark.slow
@pytest.mark.parametrize("version", VERSIONS)
def test_counts_and_strict(version):
    """Every file pin loads loads; strict=True refuses exactly those that warn, and its
    InertiaError lists the same links as the warning."""
    loaded = inconsistent = 0
    for path in ROBOTS[version]:
        if _pin_model(path, None) is None:
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            pinref.buildModelFromUrdf(path)
        loaded += 1
        if caught:
            inconsistent += 1
            with pytest.raises(InertiaError) as info:
                pinref.buildModelFromUrdf(path, strict=True)
            listed = str(caught[0].message).splitlines()[1:]
            assert str(info.value).splitlines()[1:] == listed and listed
        else:
            pinref.buildModelFromUrdf(path, strict=True)
    assert (len(ROBOTS[version]), loaded, inconsistent) == COUNTS[version]
