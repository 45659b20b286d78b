"""MJCF default classes and childclass against ``pin.buildModelFromMJCF`` (3.8.0).

defaults.xml: a main (unnamed) default, nested classes inheriting joint, geom and site
attributes, a body childclass applied to its subtree, and class attributes on joints, geoms
and sites. Pinocchio applies main < childclass < class < element, level by level.
"""

import numpy as np
import pytest

import pinref
from mjcf_check import MJCF_DIR, PIN_PARSER_IS_3_8_0, assert_matches_pin, load, variant, write

pytestmark = PIN_PARSER_IS_3_8_0


def test_matches_pin():
    assert_matches_pin(MJCF_DIR / "defaults.xml")


def test_named_top_default_matches_pin(tmp_path):
    """A top <default class="main"> is a class and the main default at once."""
    assert_matches_pin(variant(tmp_path, "defaults", "<default>\n    <joint",
                               '<default class="main">\n    <joint'), caches=False)


def test_class_values_reach_the_model():
    rmodel, _ = load(MJCF_DIR / "defaults.xml")
    hip, knee, ankle = (rmodel.joints[rmodel.getJointId(n)].idx_v
                        for n in ("hip", "knee", "ankle"))
    assert rmodel.damping[hip] == 0.4          # childclass leg over the main default
    assert rmodel.damping[knee] == 3.0         # class heavy over childclass leg
    assert rmodel.armature[ankle] == 0.2       # class foot, nested in leg
    assert rmodel.damping[ankle] == 0.4        # inherited by foot from leg
    assert rmodel.lowerPositionLimit[rmodel.joints[rmodel.getJointId("ankle")].idx_q] == -1.0
    assert rmodel.joints[rmodel.getJointId("ankle")].shortname() == "JointModelRX"
    assert rmodel.joints[rmodel.getJointId("hip")].shortname() == "JointModelRY"


def test_unknown_class_is_refused(tmp_path):
    text = """<mujoco model="m"><worldbody><body name="b">
      <joint class="nope"/><geom size="0.1"/></body></worldbody></mujoco>"""
    with pytest.raises(pinref.errors.MJCFError, match="line 2, <joint>.*'nope'"):
        pinref.buildModelFromMJCF(write(tmp_path, text))


def test_class_placement_is_lost_with_a_warning():
    """The sole's class gives pos 0 0 -0.05 and the site none: Pinocchio places it at the
    origin of its body (MuJoCo at the class's pos), and pinref warns."""
    assert_matches_pin(MJCF_DIR / "defaults.xml", roots=(False,), caches=False,
                       warns="line 35, <site>: the pos of its default class is lost")
    rmodel, _ = load(MJCF_DIR / "defaults.xml")
    sole = rmodel.frames[rmodel.getFrameId("sole")]
    np.testing.assert_array_equal(sole.placement.translation, [0.0, 0.0, 0.0])
