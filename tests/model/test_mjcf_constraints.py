"""The constraint list of ``buildModelFromMJCF(file, root_joint, root_joint_name)`` against
pin 3.8.0's: one CONTACT_3D RigidConstraintModel per <connect>, in the order of their names
(a std::map), joint ids of body1 and body2 (0 for the world), placements of the anchor, LOCAL
reference frame; other equalities are dropped with a warning."""

import numpy as np
import pinocchio as pin
import pytest

import pinref
from mjcf_check import MJCF_DIR, PIN_PARSER_IS_3_8_0, assert_models_equal, warning_text

pytestmark = PIN_PARSER_IS_3_8_0

PATH = MJCF_DIR / "constraints.xml"


def _load():
    import warnings
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        rmodel, rcons = pinref.buildModelFromMJCF(PATH, pinref.JointModelFreeFlyer(), "base")
    pmodel, pcons = pin.buildModelFromMJCF(str(PATH), pin.JointModelFreeFlyer(), "base")
    return rmodel, rcons, pmodel, pcons, record


def test_model_and_constraints_match_pin():
    rmodel, rcons, pmodel, pcons, _ = _load()
    assert_models_equal(rmodel, pmodel)
    assert len(rcons) == len(pcons) == 3
    for r, p in zip(rcons, pcons):
        assert (r.type, r.joint1_id, r.joint2_id, r.name, r.size()) == (
            int(p.type), p.joint1_id, p.joint2_id, p.name, p.size())
        assert int(r.reference_frame) == int(p.reference_frame)
        for key in ("joint1_placement", "joint2_placement"):
            np.testing.assert_array_equal(getattr(r, key).homogeneous,
                                          getattr(p, key).homogeneous)


def test_weld_is_dropped_with_a_warning():
    record = _load()[-1]
    assert "the <weld> equality is dropped" in warning_text(record)


def test_other_overloads_return_a_model():
    assert isinstance(pinref.buildModelFromMJCF(PATH), pinref.Model)
    assert isinstance(pinref.buildModelFromMJCF(PATH, pinref.JointModelFreeFlyer()),
                      pinref.Model)


def test_empty_root_joint_name_is_refused():
    with pytest.raises(pinref.errors.MJCFError, match="without a name"):
        pinref.buildModelFromMJCF(PATH, pinref.JointModelFreeFlyer(), "")
    with pytest.raises(ValueError):
        pin.buildModelFromMJCF(str(PATH), pin.JointModelFreeFlyer(), "")


def test_unknown_body_is_refused(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text(PATH.read_text().replace('body1="right" anchor', 'body1="nobody" anchor'))
    with pytest.raises(pinref.errors.MJCFError, match="<connect>.*'nobody'"):
        pinref.buildModelFromMJCF(path, pinref.JointModelFreeFlyer(), "base")
