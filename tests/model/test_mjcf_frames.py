"""MJCF bodies and sites as frames against ``pin.buildModelFromMJCF`` (3.8.0): a BODY frame
per body (on its joint, or a FIXED_JOINT "<body>_fixed" then BODY for a body without a
joint), an OP_FRAME per site (named "<body>Site_<k>" without a name; fromto, classes), and
the unnamed body "<parent>Bis"."""

import numpy as np

import pinref
from mjcf_check import MJCF_DIR, PIN_PARSER_IS_3_8_0, assert_matches_pin, load

pytestmark = PIN_PARSER_IS_3_8_0

BODY, FIXED, OP = pinref.FrameType.BODY, pinref.FrameType.FIXED_JOINT, pinref.FrameType.OP_FRAME


def test_matches_pin():
    assert_matches_pin(MJCF_DIR / "frames.xml",
                       warns="placed as if its parent body sat at the origin")


def test_frame_kinds_and_names():
    rmodel, _ = load(MJCF_DIR / "frames.xml")
    kinds = {(f.name, f.type) for f in rmodel.frames}
    assert {("bracket_fixed", FIXED), ("bracket", BODY), ("plate", BODY), ("arm", BODY),
            ("armBis", BODY), ("imu", OP), ("baseSite_1", OP), ("tip", OP),
            ("armBisSite_0", OP), ("plate_site", OP)} <= kinds


def test_site_on_a_jointed_body_is_in_the_body_frame():
    """tip: body arm's joint sits at pos 0 0 0.02 in the body, so the site at 0 0 0.2 of the
    body is at 0 0 0.18 of the joint."""
    rmodel, _ = load(MJCF_DIR / "frames.xml")
    np.testing.assert_allclose(rmodel.frames[rmodel.getFrameId("tip")].placement.translation,
                               [0.0, 0.0, 0.18], atol=1e-16)
