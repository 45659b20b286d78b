"""MJCF keyframes as ``referenceConfigurations`` against ``pin.buildModelFromMJCF`` (3.8.0):
MuJoCo's (w, x, y, z) quaternions of free and ball joints reordered to (x, y, z, w), a
hinge's or slide's ref subtracted (with Pinocchio's misaligned refs when the first body has
joints: a warning), unnamed keys skipped, a key of the wrong size refused."""

import numpy as np
import pytest

import pinref
from mjcf_check import MJCF_DIR, PIN_PARSER_IS_3_8_0, assert_matches_pin, load, variant

pytestmark = PIN_PARSER_IS_3_8_0


def test_matches_pin():
    assert_matches_pin(MJCF_DIR / "keyframes.xml", roots=(False,))


def test_values():
    rmodel, _ = load(MJCF_DIR / "keyframes.xml")
    assert set(rmodel.referenceConfigurations) == {"home", "bent"}
    home = rmodel.referenceConfigurations["home"]
    np.testing.assert_allclose(home[:2], [0.5 - np.pi / 6, 0.2 - 0.1], rtol=1e-15)
    np.testing.assert_array_equal(home[2:6], [0.0, 0.0, 0.0, 1.0])


def test_shifted_refs_warn():
    assert_matches_pin(MJCF_DIR / "keyframes_free.xml",
                       warns="lists the first body's joints twice")
    rmodel, _ = load(MJCF_DIR / "keyframes_free.xml")
    np.testing.assert_array_equal(rmodel.referenceConfigurations["stand"],
                                  [0.1, 0.2, 0.9, 0.1, 0.2, 0.3, 0.9, 0.5])


def test_wrong_size_is_refused():
    with pytest.raises(pinref.errors.MJCFError, match="line 27, <key>.*12 positions.*nq = 19"):
        pinref.buildModelFromMJCF(MJCF_DIR / "keyframes.xml", pinref.JointModelFreeFlyer())


def test_key_without_qpos_is_skipped(tmp_path):
    assert_matches_pin(variant(tmp_path, "keyframes", '<key qpos="1 2 3',
                               '<key name="empty"/><key qpos="1 2 3'), roots=(False,),
                       caches=False)
