"""Where pin 3.8.0's MJCF model is not MuJoCo's, pinref builds pin's model (equal field by
field) and gives one MJCFWarning listing each difference with its line; strict=True refuses.
docs/mjcf.md lists the same places."""

import warnings

import numpy as np
import pytest

import pinref
from mjcf_check import MJCF_DIR, PIN_PARSER_IS_3_8_0, assert_matches_pin, load, warning_text, write
from pinref.errors import MJCFError, MJCFWarning

pytestmark = PIN_PARSER_IS_3_8_0

ARM = ('<body name="arm" pos="0 0 0.3"><joint name="a" axis="0 1 0"/>'
       '<geom type="capsule" size="0.02 0.1"/></body>')

# name -> (file text, phrase of the warning)
CASES = {
    "second_top_level_body": (
        f'<mujoco model="m"><worldbody><body name="b"><joint/><geom size="0.1"/></body>\n'
        f'<body name="other"><joint/><geom size="0.1"/></body></worldbody></mujoco>',
        "line 2, <body>: the top-level body 'other' and everything under it are dropped"),
    "first_body_placement": (
        f'<mujoco model="m"><worldbody>\n<body name="b" pos="1 2 3" euler="0 0 90">'
        f'<geom size="0.1"/>{ARM}</body></worldbody></mujoco>',
        "line 2, <body>: the first body has no joint and its placement is ignored"),
    "first_body_sites": (
        f'<mujoco model="m"><worldbody>\n<body name="b"><site name="s"/><geom size="0.1"/>'
        f'{ARM}</body></worldbody></mujoco>',
        "line 2, <body>: the sites of the first body (no joint) are not frames"),
    "compiler_after_worldbody": (
        f'<mujoco model="m"><worldbody><body name="b"><joint range="0 90"/><geom size="0.1"/>'
        f'</body></worldbody>\n<compiler angle="radian"/></mujoco>',
        "line 2, <compiler>: <compiler> comes after <worldbody>"),
    "limited_false": (
        '<mujoco model="m"><worldbody><body name="b">\n<joint limited="false" range="0 1"/>'
        '<geom size="0.1"/></body></worldbody></mujoco>',
        'line 2, <joint>: the range of this limited="false" joint is applied'),
    "slide_range_in_degrees": (
        '<mujoco model="m"><worldbody><body name="b">\n<joint type="slide" range="0 1"/>'
        '<geom size="0.1"/></body></worldbody></mujoco>',
        "line 2, <joint>: the slide joint's range is converted from degrees"),
    "ref_and_range": (
        '<mujoco model="m"><worldbody><body name="b">\n<joint ref="10" range="0 90"/>'
        '<geom size="0.1"/></body></worldbody></mujoco>',
        "line 2, <joint>: the range is not shifted by ref"),
    "extrinsic_euler": (
        '<mujoco model="m">\n<compiler eulerseq="XYZ"/><worldbody><body name="b" '
        'euler="10 20 30"><joint/><geom size="0.1"/></body></worldbody></mujoco>',
        "line 2, <compiler>: eulerseq='XYZ': the upper-case (extrinsic) axes"),
    "axisangle_not_unit": (
        '<mujoco model="m"><worldbody>\n<body name="b" axisangle="0 0 2 30"><joint/>'
        '<geom size="0.1"/></body></worldbody></mujoco>',
        "line 2, <body>: axisangle axis (0.0, 0.0, 2.0) is not of unit length"),
    "gravity": (
        '<mujoco model="m">\n<option gravity="0 0 -1"/><worldbody><body name="b"><joint/>'
        '<geom size="0.1"/></body></worldbody></mujoco>',
        "line 2, <option>: <option gravity> (0.0, 0.0, -1.0) is ignored"),
    "visual_geom_mass": (
        '<mujoco model="m"><worldbody><body name="b"><joint/><geom size="0.1"/>\n'
        '<geom size="0.2" contype="0" conaffinity="0"/></body></worldbody></mujoco>',
        "line 2, <geom>: this contype=conaffinity=0 geom is left out of the body's inertia"),
    "class_mass": (
        '<mujoco model="m"><default><default class="c"><geom mass="5"/></default></default>'
        '<worldbody><body name="b"><joint/>\n<geom class="c" size="0.1"/></body></worldbody>'
        '</mujoco>',
        "line 2, <geom>: the mass of its default class is lost"),
    "frame_element": (
        f'<mujoco model="m"><worldbody><body name="b"><joint/><geom size="0.1"/>\n'
        f'<frame pos="1 0 0">{ARM}</frame></body></worldbody></mujoco>',
        "line 2, <frame>: <frame> and everything in it are dropped"),
    "second_worldbody": (
        f'<mujoco model="m"><worldbody><body name="b"><joint/><geom size="0.1"/></body>'
        f'</worldbody>\n<worldbody>{ARM}</worldbody></mujoco>',
        "line 2, <worldbody>: a second <worldbody> is not read"),
    "default_after_worldbody": (
        '<mujoco model="m"><worldbody><body name="b"><joint/><geom size="0.1"/></body>'
        '</worldbody>\n<default><joint damping="3"/></default></mujoco>',
        "line 2, <default>: <default> comes after <worldbody>"),
    "include_in_a_body": (
        '<mujoco model="m"><worldbody><body name="b"><joint/><geom size="0.1"/>\n'
        '<include file="more.xml"/></body></worldbody></mujoco>',
        "line 2, <include>: <include file='more.xml'> is not followed"),
    "settotalmass": (
        '<mujoco model="m">\n<compiler settotalmass="3"/><worldbody><body name="b"><joint/>'
        '<geom size="0.1"/></body></worldbody></mujoco>',
        "line 2, <compiler>: settotalmass='3' is ignored"),
}


# pin's second copy of a joint carries no body (its inertia joins the first copy's): ABA is
# singular on it, in pin as in pinref
MASSLESS = {"second_worldbody"}


@pytest.mark.parametrize("name", list(CASES))
def test_pin_model_and_warning(tmp_path, name):
    text, phrase = CASES[name]
    record = assert_matches_pin(write(tmp_path, text), caches=name not in MASSLESS,
                                warns=phrase)
    assert all(w.category is MJCFWarning for w in record)


@pytest.mark.parametrize("name", ["second_top_level_body", "first_body_placement"])
def test_strict_refuses(tmp_path, name):
    path = write(tmp_path, CASES[name][0])
    with pytest.raises(MJCFError, match="strict=True refuses"):
        pinref.buildModelFromMJCF(path, strict=True)


def test_root_joint_ignored_when_the_first_body_has_a_joint(tmp_path):
    """pin adds the root joint only under a first body without a joint."""
    record = []
    rmodel, pmodel = load(MJCF_DIR / "joints.xml", True, record)
    assert "the root joint is not added" in warning_text(record)
    assert rmodel.names[1] == pmodel.names[1] == "base_free"


def test_first_body_placement_is_dropped(tmp_path):
    rmodel, _ = load(write(tmp_path, CASES["first_body_placement"][0]))
    np.testing.assert_array_equal(rmodel.jointPlacements[1].translation, [0.0, 0.0, 0.3])


def test_dropped_body_changes_the_dofs():
    """gymnasium's reacher: MuJoCo's target body (2 slide joints) is dropped, nv 2 not 4."""
    from importlib.resources import files

    path = files("gymnasium") / "envs" / "mujoco" / "assets" / "reacher.xml"
    record = []
    rmodel, pmodel = load(str(path), False, record)
    assert rmodel.nv == pmodel.nv == 2
    assert "'target' and everything under it are dropped" in warning_text(record)


def test_a_clean_file_is_silent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pinref.buildModelFromMJCF(MJCF_DIR / "compiler_radian_zyx.xml")
