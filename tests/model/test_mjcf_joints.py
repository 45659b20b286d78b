"""MJCF joints against ``pin.buildModelFromMJCF`` (3.8.0): hinge and slide about e_x, e_y,
e_z or any axis (the Unaligned joints, -e_z included), ball, free (type="free" and
<freejoint>, at the root and below it), several joints in one body (a JointModelComposite
"Composite_<first>"), armature, damping, frictionloss, ranges and actuatorfrcrange."""

import numpy as np
import pytest

from mjcf_check import MJCF_DIR, PIN_PARSER_IS_3_8_0, assert_matches_pin, load, variant

pytestmark = PIN_PARSER_IS_3_8_0


def test_matches_pin():
    assert_matches_pin(MJCF_DIR / "joints.xml")


def test_joint_types():
    rmodel, _ = load(MJCF_DIR / "joints.xml")
    types = {name: rmodel.joints[k].shortname() for k, name in enumerate(rmodel.names)}
    assert types["base_free"] == "JointModelFreeFlyer"
    assert types["hinge_x"] == "JointModelRX"
    assert types["hinge_unaligned"] == "JointModelRevoluteUnaligned"
    assert types["slide_minus_z"] == "JointModelPrismaticUnaligned"
    assert types["ball"] == "JointModelSpherical"
    assert types["Composite_m_hinge"] == "JointModelComposite"
    assert types["child_free"] == "JointModelFreeFlyer"
    composite = rmodel.joints[rmodel.getJointId("Composite_m_hinge")]
    assert [j.shortname() for j in composite.joints] == [
        "JointModelRY", "JointModelPrismaticUnaligned", "JointModelSpherical", "JointModelRZ"]


def test_dynamics_parameters():
    rmodel, _ = load(MJCF_DIR / "joints.xml")
    v = {name: rmodel.joints[k].v_slice for k, name in enumerate(rmodel.names) if k}
    assert rmodel.damping[v["hinge_x"]] == [0.3]
    assert rmodel.armature[v["hinge_x"]] == [0.02]
    assert rmodel.effortLimit[v["hinge_x"]] == [7.0]
    np.testing.assert_array_equal(rmodel.armature[v["base_free"]], [0.01] * 6)
    np.testing.assert_array_equal(rmodel.armature[v["ball"]], [0.03] * 3)
    np.testing.assert_array_equal(rmodel.armature[v["Composite_m_hinge"]],
                                  [0.1, 0.0, 0.0, 0.0, 0.0, 0.4])
    np.testing.assert_array_equal(rmodel.damping[v["Composite_m_hinge"]], [0.7] + [0.0] * 5)


def test_free_and_ball_limits_warn():
    assert_matches_pin(MJCF_DIR / "joints.xml", roots=(False,), caches=False,
                       warns="translation included, is bounded by +-1.01")


def test_frictionloss_is_dropped_with_a_warning(tmp_path):
    path = variant(tmp_path, "joints", 'damping="0.3"', 'damping="0.3" frictionloss="0.2"')
    assert_matches_pin(path, caches=False, warns="frictionloss=0.2 is dropped")
    rmodel, _ = load(path)
    assert not rmodel.friction.any()


@pytest.mark.parametrize("joint", ['type="ball" damping="0.5"', 'type="ball" range="0 30"'])
def test_ball_damping_and_range_are_dropped(tmp_path, joint):
    path = tmp_path / "ball.xml"
    path.write_text(f"""<mujoco model="m"><worldbody><body name="b">
      <joint name="j" {joint}/><geom size="0.1"/></body></worldbody></mujoco>""")
    assert_matches_pin(path, warns="of the ball joint is dropped")
