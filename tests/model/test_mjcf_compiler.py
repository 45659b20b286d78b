"""MJCF <compiler> settings against ``pin.buildModelFromMJCF`` (3.8.0): angle (degree,
radian), eulerseq, inertiafromgeom (true, false, auto) with boundmass/boundinertia, autolimits.

Each file is compared field by field and by the RNEA, CRBA and ABA caches (mjcf_check.py),
with and without a free-flyer root joint.
"""

import numpy as np
import pytest

import pinref
from mjcf_check import MJCF_DIR, PIN_PARSER_IS_3_8_0, assert_matches_pin, load, variant, write

pytestmark = PIN_PARSER_IS_3_8_0

FILES = ["compiler_radian_zyx", "compiler_degree_xyz", "compiler_inertiafromgeom_false"]


@pytest.mark.parametrize("name", FILES)
def test_matches_pin(name):
    assert_matches_pin(MJCF_DIR / f"{name}.xml")


def test_degrees_are_converted():
    """The default angle unit is the degree: a range of -90..45 becomes radians."""
    rmodel, _ = load(MJCF_DIR / "compiler_degree_xyz.xml")
    j1 = rmodel.joints[rmodel.getJointId("j1")].idx_q
    assert rmodel.lowerPositionLimit[j1] == -90 * np.pi / 180
    assert rmodel.upperPositionLimit[j1] == 45 * np.pi / 180


def test_inertiafromgeom_true_ignores_inertial():
    """inertiafromgeom="true": base's <inertial mass="3"> is ignored, its box's mass counts."""
    rmodel, _ = load(MJCF_DIR / "compiler_radian_zyx.xml")
    box_mass = 0.2 * 0.4 * 0.6 * 1000
    assert rmodel.inertias[rmodel.getJointId("j0")].mass == pytest.approx(box_mass, rel=1e-15)


def test_boundmass_and_boundinertia():
    rmodel, _ = load(MJCF_DIR / "compiler_inertiafromgeom_false.xml")
    Y = rmodel.inertias[rmodel.getJointId("j1")]
    assert Y.mass == 0.01
    np.testing.assert_allclose(np.diag(Y.inertia), [0.001, 0.01, 0.001], rtol=1e-15)


@pytest.mark.parametrize("seq", ["xyz", "zyx", "yzx", "xzy"])
def test_eulerseq(tmp_path, seq):
    assert_matches_pin(variant(tmp_path, "compiler_radian_zyx", 'eulerseq="zyx"',
                               f'eulerseq="{seq}"'))


def test_autolimits_false_is_ignored_with_a_warning(tmp_path):
    """pin reads autolimits but only ever sets it true: a range without limited="true" is
    applied (MuJoCo ignores it)."""
    path = variant(tmp_path, "compiler_degree_xyz", 'autolimits="true"', 'autolimits="false"')
    assert_matches_pin(path, warns='autolimits="false" is ignored')
    rmodel, _ = load(path)
    assert np.isfinite(rmodel.upperPositionLimit).all()


def test_inertiafromgeom_false_without_inertial_is_refused(tmp_path):
    text = """<mujoco model="m"><compiler inertiafromgeom="false"/><worldbody>
      <body name="b"><joint/><geom size="0.1"/></body></worldbody></mujoco>"""
    with pytest.raises(pinref.errors.MJCFError, match="line 2, <body>.*no <inertial>"):
        pinref.buildModelFromMJCF(write(tmp_path, text))
