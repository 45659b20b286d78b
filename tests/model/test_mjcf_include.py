"""MJCF <include> against ``pin.buildModelFromMJCF`` (3.8.0), which does not follow it.

include_main.xml includes a file setting angle="radian"; Pinocchio does not read it, so the
body's euler and the joint's range stay in degrees, and pinref warns. A <worldbody> whose
bodies all come from an <include> has no body for Pinocchio ("No such node (body)").
"""

import numpy as np
import pytest

import pinref
from mjcf_check import MJCF_DIR, PIN_PARSER_IS_3_8_0, assert_matches_pin, load, write

pytestmark = PIN_PARSER_IS_3_8_0


def test_matches_pin_and_warns():
    """The included compiler is not applied: the range stays in degrees."""
    path = MJCF_DIR / "include_main.xml"
    assert_matches_pin(path, warns="<include file='include_part.xml'> is not followed")
    assert load(path)[0].upperPositionLimit[0] == 45 * np.pi / 180


def test_bodies_only_in_an_include_are_refused(tmp_path):
    write(tmp_path, "<mujoco><body name='b'><joint/><geom size='0.1'/></body></mujoco>",
          "part.xml")
    path = write(tmp_path, "<mujoco model='m'><worldbody>\n<include file='part.xml'/>"
                 "</worldbody></mujoco>")
    with pytest.raises(pinref.errors.MJCFError, match="line 1, <worldbody>.*No such node"):
        pinref.buildModelFromMJCF(path)
