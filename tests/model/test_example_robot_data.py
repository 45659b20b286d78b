"""Every URDF of example-robot-data 4.3.0 (a test dependency) against pin.buildModelFromUrdf.

Oracle: Pinocchio 3.8.0's parse of the same file. Each file pin loads, pinref loads too, with
and without a free-flyer root, and every model field (``model_fields`` of test_bridge.py:
names, parents, joint types, axes and indexes, placements, inertias, limits, frames, ...) is
equal, numbers to 1e-15 * max(1, |ref|); the links whose inertia no rigid body has come in one
InertiaWarning (strict=True refuses them with InertiaError). Each file pin refuses, pinref
refuses with a URDFError. Package-relative mesh paths play no part in the model. The bridge
copies every model both ways exactly.
"""

import warnings
from importlib.metadata import distribution

import pinocchio as pin
import pytest

import pinref
from pinref.compare import from_pinocchio, to_pinocchio
from pinref.errors import InertiaError, InertiaWarning, URDFError
from test_bridge import assert_fields_equal, model_fields

ROBOTS = sorted(str(f.locate()) for f in distribution("example-robot-data").files
                if f.suffix == ".urdf")
IDS = [path.split("/robots/")[-1][:-5] for path in ROBOTS]
TOL = 1e-15
# Measured with 4.3.0: pin loads 67 of the 69 (falcon names a link it lacks, ur3's robot has
# no name); 23 of the 67 have links of non-physical inertia.
PIN_LOADS, INCONSISTENT = 67, 23


def _pin_model(path, root):
    try:
        return pin.buildModelFromUrdf(path) if root is None else pin.buildModelFromUrdf(
            path, root)
    except ValueError:
        return None


@pytest.mark.parametrize("path", ROBOTS, ids=IDS)
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


def test_counts_and_strict():
    """Every file pin loads loads; strict=True refuses exactly those that warn, and its
    InertiaError lists the same links as the warning."""
    loaded = inconsistent = 0
    for path in ROBOTS:
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
    assert (len(ROBOTS), loaded, inconsistent) == (69, PIN_LOADS, INCONSISTENT)
