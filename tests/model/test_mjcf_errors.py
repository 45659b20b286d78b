"""Bad MJCF gets an MJCFError (a ValueError) naming the file, the line and the element, where
pin 3.8.0 refuses the file too; hostile XML is refused as the URDF loader refuses it."""

import pinocchio as pin
import pytest

import pinref
from pinref.compare.versions import differs
from pinref.errors import MJCFError


def _body(inner, head=""):
    return (f'<mujoco model="m">{head}\n<worldbody>\n<body name="b">\n{inner}\n</body>\n'
            '</worldbody>\n</mujoco>\n')


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE mujoco [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
]>
<mujoco model="&lol2;"><worldbody><body><joint/><geom size="1"/></body></worldbody></mujoco>
"""

# name -> (file text, words the message holds); pin refuses each of these files too, but those
# of PIN_READS_GARBAGE, where its stream reads leave the missing numbers undefined
PIN_READS_GARBAGE = {"bad_number", "short_vector"}
BAD = {
    "not_xml": ('<mujoco model="m"><worldbody>\n<body></worldbody></mujoco>',
                ["line 2", "not well-formed"]),
    "not_mujoco": ('<robot name="r"/>', ["line 1, <robot>", "not a MuJoCo model"]),
    "no_model_name": ('<mujoco version="1"><worldbody><body><joint/></body></worldbody>'
                      '</mujoco>', ["<mujoco>", "model name"]),
    "no_body": ('<mujoco model="m">\n<worldbody>\n<geom size="1"/></worldbody></mujoco>',
                ["line 2, <worldbody>", "No such node"]),
    "joint_type": (_body('<joint type="screw"/>'), ["line 4, <joint>", "'screw'"]),
    "geom_type": (_body('<joint/><geom type="sdf" size="1"/>'), ["line 4, <geom>", "'sdf'"]),
    "sphere_fromto": (_body('<joint/><geom type="sphere" fromto="0 0 0 1 0 0" size="1"/>'),
                      ["line 4, <geom>", "fromto"]),
    "mesh_without_mesh": (_body('<joint/><geom type="mesh"/>'), ["line 4, <geom>", "mesh"]),
    "bad_number": (_body('<joint axis="0 1 x"/>'), ["line 4, <joint>", "'x' is not a number"]),
    "short_vector": (_body('<joint/><geom size="1" pos="0 1"/>'),
                     ["line 4, <geom>", "2 numbers, 3 expected"]),
    "inertial_without_mass": (_body('<joint/><inertial diaginertia="1 1 1"/>'),
                              ["line 4, <inertial>", "mass"]),
    "free_in_composite": (_body('<joint/><freejoint/><geom size="1"/>'),
                          ["line 4, <freejoint>", "free joint cannot be composed"]),
    "ref_on_ball": (_body('<joint type="ball" ref="1"/><geom size="1"/>'),
                    ["line 4, <joint>", "ref"]),
    "shellinertia": (_body('<joint/><geom size="1" shellinertia="true"/>'),
                     ["line 4, <geom>", "shellinertia"]),
    "hfield": (_body('<joint/><geom size="1"/>', '<asset><hfield name="h"/></asset>'),
               ["line 1, <hfield>", "height fields"]),
    "connect_without_body1": (_body('<joint/><geom size="1"/>').replace(
        "</mujoco>", '<equality><connect body2="b"/></equality></mujoco>'),
        ["<connect>", "body1"]),
    "key_size": (_body('<joint/><geom size="1"/>').replace(
        "</mujoco>", '<keyframe><key name="k" qpos="1 2"/></keyframe></mujoco>'),
        ["<key>", "2 positions", "nq = 1"]),
    "billion_laughs": (BILLION_LAUGHS, ["line 3", "entity 'lol'", "refused"]),
    "external_entity": ('<?xml version="1.0"?>\n<!DOCTYPE mujoco [<!ENTITY x SYSTEM '
                        '"file:///etc/passwd">]><mujoco model="&x;"/>',
                        ["line 2", "entity 'x'", "refused"]),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_mjcf_is_refused(tmp_path, name):
    text, words = BAD[name]
    path = tmp_path / f"{name}.xml"
    path.write_text(text)
    with pytest.raises(MJCFError) as error:
        pinref.buildModelFromMJCF(path)
    message = str(error.value)
    assert str(path) in message
    for word in words:
        assert word in message, (word, message)
    assert isinstance(error.value, ValueError)
    if (name not in PIN_READS_GARBAGE | {"billion_laughs", "external_entity"}
            and not differs(pin, "mjcf_parser")):
        with pytest.raises(Exception):  # noqa: B017 - pin throws several types
            pin.buildModelFromMJCF(str(path))


@pytest.mark.parametrize("name, words", [("missing.xml", "No such file"),
                                         ("", "not a regular file"),
                                         ("nul\0.xml", "holds a NUL byte")])
def test_file_that_cannot_be_read(tmp_path, name, words):
    with pytest.raises(MJCFError, match=words) as error:
        pinref.buildModelFromMJCF(str(tmp_path / name) if name else tmp_path)
    assert "URDF" not in str(error.value)


def test_file_name_of_the_wrong_type():
    with pytest.raises(MJCFError, match="buildModelFromMJCF: the file name must be a str"):
        pinref.buildModelFromMJCF(3)


def test_root_joint_must_be_a_joint_model(tmp_path):
    path = tmp_path / "m.xml"
    path.write_text(_body('<joint/><geom size="1"/>'))
    with pytest.raises(MJCFError, match="root_joint must be a pinref joint model"):
        pinref.buildModelFromMJCF(path, "free")
