"""MJCF orientations against ``pin.buildModelFromMJCF`` (3.8.0): quat (normalised), euler,
axisangle, xyaxes and zaxis on bodies, geoms, inertials and sites, in degrees and radians."""

import numpy as np
import pytest

from mjcf_check import MJCF_DIR, PIN_PARSER_IS_3_8_0, assert_matches_pin, load, variant

pytestmark = PIN_PARSER_IS_3_8_0


def test_matches_pin():
    assert_matches_pin(MJCF_DIR / "orientations.xml")


def test_matches_pin_in_radians(tmp_path):
    assert_matches_pin(variant(tmp_path, "orientations", 'angle="degree"', 'angle="radian"'))


@pytest.mark.parametrize("zaxis", ["0 0 1", "0 0 -1", "1 0 0", "0 -2 0", "0.3 -0.2 -0.9"])
def test_zaxis(tmp_path, zaxis):
    """Quaternion::FromTwoVectors(e_z, zaxis), the opposite direction included."""
    assert_matches_pin(variant(tmp_path, "orientations", 'zaxis="1 1 1"', f'zaxis="{zaxis}"'),
                       caches=False)


def test_placements_are_rotations():
    rmodel, _ = load(MJCF_DIR / "orientations.xml")
    for M in rmodel.jointPlacements:
        np.testing.assert_allclose(M.rotation @ M.rotation.T, np.eye(3), atol=1e-15)
