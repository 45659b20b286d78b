"""MJCF <include> against ``pin.buildModelFromMJCF`` (3.8.0), which does not follow it.

include_main.xml includes a file setting angle="radian"; Pinocchio does not read it, so the
body's euler and the joint's range stay in degrees, and pinref warns. A <worldbody> whose
bodies all come from an <include> has no body for Pinocchio ("No such node (body)").
"""

import numpy as np
import pytest

import pinref
from mjcf_check import MJCF_DIR, PIN_PARSER_IS_3_8_0, assert_matches_pin, load, warning_text, write

pytestmark = PIN_PARSER_IS_3_8_0


def test_matches_pin_and_warns():
    record = assert_matches_pin(MJCF_DIR / "include_main.xml")
    assert "<include file='include_part.xml'> is not followed" in warning_text(record)


def test_included_compiler_is_not_applied():
    rmodel, _ = load(MJCF_DIR / "include_main.xml")
    assert rmodel.upperPositionLimit[0] == 45 * np.pi / 180


def test_bodies_only_in_an_include_are_refused(tmp_path):
    write(tmp_path, "<mujoco><body name='b'><joint/><geom size='0.1'/></body></mujoco>",
          "part.xml")
    path = write(tmp_path, "<mujoco model='m'><worldbody>\n<include file='part.xml'/>"
                 "</worldbody></mujoco>")
    with pytest.raises(pinref.errors.MJCFError, match="line 1, <worldbody>.*No such node"):
        pinref.buildModelFromMJCF(path)
