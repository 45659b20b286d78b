"""Bad URDF input: every case raises ``pinref.errors.URDFError`` (a ValueError) naming the
element, and its line where there is one; hostile XML fails fast without reading any file.

Where Pinocchio accepts what pinref refuses (negative mass, a malformed <inertial>, a nameless
link, a zero axis, an unreachable cycle), the test says so. An inertia no rigid body has is
loaded as pin loads it, with one InertiaWarning (test_urdf.py).
"""

import os
import time

import pinocchio as pin
import pytest

import pinref
from pinref.errors import URDFError

HEAD = '<?xml version="1.0"?>\n<robot name="bad">\n'


def _robot(*lines):
    return HEAD + "\n".join(lines) + "\n</robot>\n"


LINK_AB = ('<link name="a"/>', '<link name="b"/>')
INERTIA = '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'


def _joint(body, type="revolute", name="j", parent="a", child="b"):
    return (f'<joint name="{name}" type="{type}"><parent link="{parent}"/>'
            f'<child link="{child}"/>{body}</joint>')


LIMIT = '<limit effort="1" velocity="1"/>'

# id -> (URDF text, substrings the message must hold). Line numbers count from HEAD's line 1.
CASES = {
    "malformed_xml": (HEAD + '<link name="a">\n</robot>', ["line 4", "not well-formed"]),
    "not_robot": ('<robt name="x"><link name="a"/></robt>', ["<robt", "<robot>"]),
    "robot_without_name": ('<robot><link name="a"/></robot>', ["<robot>", "'name'"]),
    "version": ('<robot name="x" version="2.0"><link name="a"/></robot>', ["'2.0'", "1.0"]),
    "no_link": (_robot(), ["no <link>"]),
    "link_without_name": (_robot("<link/>"), ["<link>", "line 3", "'name'"]),
    "duplicate_link": (_robot('<link name="a"/>', '<link name="a"/>'),
                       ['<link name="a">', "line 4", "line 3"]),
    "mass_without_value": (_robot(f'<link name="a"><inertial><mass/>{INERTIA}</inertial></link>'),
                           ['<link name="a">', "line 3", "<mass>", "'value'"]),
    "inertia_without_izz": (_robot('<link name="a"><inertial><mass value="1"/>'
                                   '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0"/>'
                                   '</inertial></link>'), ['<link name="a">', "'izz'"]),
    "inertial_without_mass": (_robot(f'<link name="a"><inertial>{INERTIA}</inertial></link>'),
                              ['<link name="a">', "<mass>"]),
    "negative_mass": (_robot(f'<link name="a"><inertial><mass value="-2"/>{INERTIA}'
                             '</inertial></link>'), ['<link name="a">', "line 3", "negative"]),
    "mass_not_a_number": (_robot(f'<link name="a"><inertial><mass value="1,5"/>{INERTIA}'
                                 '</inertial></link>'), ["<mass> value", "'1,5'"]),
    "inf": (_robot(f'<link name="a"><inertial><origin xyz="0 inf 0"/><mass value="1"/>{INERTIA}'
                   '</inertial></link>'), ["<origin> xyz", "'inf'"]),
    "nan": (_robot(*LINK_AB, _joint('<axis xyz="nan 0 1"/>' + LIMIT)), ["<axis> xyz", "'nan'"]),
    "hex": (_robot(*LINK_AB, _joint('<origin rpy="0 0x1 0"/>' + LIMIT)), ["'0x1'"]),
    "digit_separator": (_robot(*LINK_AB, _joint('<origin xyz="1_0 0 0"/>' + LIMIT)), ["'1_0'"]),
    "overflow": (_robot(*LINK_AB, _joint('<origin xyz="1e400 0 0"/>' + LIMIT)),
                 ["out of the range"]),
    "two_numbers": (_robot(*LINK_AB, _joint('<axis xyz="0 1"/>' + LIMIT)),
                    ['<joint name="j">', "line 5", "expected 3 numbers, found 2"]),
    "joint_without_type": (_robot(*LINK_AB, '<joint name="j"><parent link="a"/>'
                                  '<child link="b"/></joint>'), ['<joint name="j">', "'type'"]),
    "joint_without_name": (_robot(*LINK_AB, '<joint type="fixed"><parent link="a"/>'
                                  '<child link="b"/></joint>'), ["<joint>", "line 5", "'name'"]),
    "unknown_joint_type": (_robot(*LINK_AB, _joint("", type="ball")),
                           ['<joint name="j">', "line 5", "'ball'", "revolute"]),
    "spherical_is_not_urdf": (_robot(*LINK_AB, _joint("", type="spherical")), ["'spherical'"]),
    "joint_without_parent": (_robot(*LINK_AB, '<joint name="j" type="fixed"><child link="b"/>'
                                    '</joint>'), ['<joint name="j">', "<parent link"]),
    "unknown_child_link": (_robot(*LINK_AB, _joint("", type="fixed", child="c")),
                           ['<joint name="j">', "line 5", "'c'", "not a <link>"]),
    "unknown_parent_link": (_robot(*LINK_AB, _joint("", type="fixed", parent="base")),
                            ['<joint name="j">', "'base'"]),
    "duplicate_joint": (_robot(*LINK_AB, '<link name="c"/>', _joint("", type="fixed"),
                               _joint("", type="fixed", child="c")),
                        ['<joint name="j">', "line 7", "second joint"]),
    "two_roots": (_robot(*LINK_AB), ["two root links", "'a'", "'b'"]),
    "cycle": (_robot(*LINK_AB, _joint("", type="fixed"),
                     _joint("", type="fixed", name="k", parent="b", child="a")),
              ["no root link", "cycle"]),
    "detached_cycle": (_robot(*LINK_AB, '<link name="c"/>',
                              _joint("", type="fixed", name="k", parent="c", child="b"),
                              _joint("", type="fixed", name="l", parent="b", child="c")),
                       ['<link name="b">', "line 4", "cannot be reached", "cycle", "'a'"]),
    "two_parent_joints": (_robot(*LINK_AB, '<link name="c"/>',
                                 _joint("", type="fixed", child="c"),
                                 _joint("", type="fixed", name="k", parent="b", child="c")),
                          ['<joint name="k">', "line 7", "already the child", "'j'"]),
    "revolute_without_limit": (_robot(*LINK_AB, _joint("")), ['<joint name="j">', "<limit>"]),
    "prismatic_without_limit": (_robot(*LINK_AB, _joint("", type="prismatic")), ["<limit>"]),
    "limit_without_effort": (_robot(*LINK_AB, _joint('<limit velocity="1"/>')),
                             ['<joint name="j">', "<limit>", "'effort'"]),
    "empty_dynamics": (_robot(*LINK_AB, _joint(LIMIT + "<dynamics/>")),
                       ['<joint name="j">', "neither damping nor friction"]),
    "zero_axis": (_robot(*LINK_AB, _joint('<axis xyz="0 0 0"/>', type="continuous")),
                  ['<joint name="j">', "zero vector"]),
    "root_joint_name_taken": (_robot(*LINK_AB, _joint("", type="fixed", name="root_joint")),
                              ['<joint name="root_joint">', "root joint"]),
}

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE robot [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
  <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
  <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
  <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
  <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
  <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<robot name="&lol9;"><link name="a"/></robot>
"""

HOSTILE = {
    "billion_laughs": (BILLION_LAUGHS, ["line 3", "entity 'lol'", "refused"]),
    "billion_laughs_utf16": (BILLION_LAUGHS.replace('"1.0"?', '"1.0" encoding="utf-16"?')
                             .encode("utf-16"), ["entity 'lol'"]),
    "external_entity": ('<?xml version="1.0"?>\n<!DOCTYPE robot [<!ENTITY x SYSTEM '
                        '"file:///etc/passwd">]>\n<robot name="r"><link name="&x;"/></robot>',
                        ["line 2", "entity 'x'", "refused"]),
    "external_parameter_entity": ('<!DOCTYPE robot [<!ENTITY % p SYSTEM "file:///etc/passwd">'
                                  ' %p;]><robot name="r"><link name="a"/></robot>',
                                  ["entity 'p'"]),
    "external_dtd": ('<!DOCTYPE robot SYSTEM "file:///etc/passwd"><robot name="r">'
                     '<link name="a"/></robot>', ["external DTD", "/etc/passwd"]),
    "undeclared_entity": ('<robot name="r"><link name="&x;"/></robot>',
                          ["line 1", "undefined entity"]),
}


@pytest.mark.parametrize("xml, fragments", list(CASES.values()), ids=list(CASES))
def test_bad_urdf_raises_urdf_error_naming_the_element(xml, fragments):
    root_joint = pinref.JointModelFreeFlyer() if "root_joint" in xml else None
    with pytest.raises(URDFError) as info:
        pinref.buildModelFromXML(xml, root_joint)
    assert isinstance(info.value, ValueError)
    for fragment in fragments:
        assert fragment in str(info.value), f"{fragment!r} not in: {info.value}"


@pytest.mark.parametrize("xml, fragments", list(HOSTILE.values()), ids=list(HOSTILE))
def test_hostile_xml_fails_fast(xml, fragments, monkeypatch):
    """No entity is expanded and no file is opened: the parser stops at the declaration."""
    import builtins

    def no_open(*args, **kwargs):
        raise AssertionError(f"the parser opened {args[0]!r}")

    monkeypatch.setattr(builtins, "open", no_open)
    start = time.perf_counter()
    with pytest.raises(URDFError) as info:
        pinref.buildModelFromXML(xml)
    assert time.perf_counter() - start < 0.5
    for fragment in fragments:
        assert fragment in str(info.value), f"{fragment!r} not in: {info.value}"


def test_a_plain_doctype_is_read():
    model = pinref.buildModelFromXML('<?xml version="1.0"?><!DOCTYPE robot>'
                                     '<robot name="r &amp; s"><link name="a"/></robot>')
    assert model.name == "r & s"


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(URDFError, match="cannot read the URDF file.*nope.urdf"):
        pinref.buildModelFromUrdf(tmp_path / "nope.urdf")
    with pytest.raises(URDFError, match="cannot read the URDF file.*not a regular file"):
        pinref.buildModelFromUrdf(tmp_path)


def test_malformed_file_names_the_file(tmp_path):
    path = tmp_path / "broken.urdf"
    path.write_text('<robot name="x">\n  <link name="a">\n</robot>\n')
    with pytest.raises(URDFError, match=r"broken\.urdf, line 3, column 3: not well-formed"):
        pinref.buildModelFromUrdf(path)


def test_bad_arguments():
    with pytest.raises(URDFError, match="str or bytes"):
        pinref.buildModelFromXML(None)
    import pinocchio as pin

    with pytest.raises(URDFError, match="pinref joint model"):
        pinref.buildModelFromXML('<robot name="r"><link name="a"/></robot>',
                                 pin.JointModelFreeFlyer())
    with pytest.raises(URDFError, match="root_joint_name"):
        pinref.buildModelFromXML('<robot name="r"><link name="a"/></robot>',
                                 pinref.JointModelFreeFlyer(), "")


# --- issue 13, items 4 and 7: each case raised a raw error, hung, or changed the model ----------

ATTLIST = ('<?xml version="1.0"?>\n<!DOCTYPE robot [<!ATTLIST mass value CDATA "5.0">]>\n'
           '<robot name="r"><link name="a"><inertial><mass/>' + INERTIA + '</inertial></link>'
           '</robot>')


def test_attribute_list_declarations_are_refused():
    """An <!ATTLIST> default made <mass/> read 5 (pin reads no DTD): refused, naming it."""
    with pytest.raises(URDFError, match=r"line 2.*<mass>.*'value'.*<!ATTLIST>"):
        pinref.buildModelFromXML(ATTLIST)
    with pytest.raises(URDFError, match="ATTLIST"):
        pinref.buildModelFromXML(_robot(*LINK_AB, _joint(LIMIT)).replace(
            "<robot", '<!DOCTYPE robot [<!ATTLIST joint type CDATA "floating">]>\n<robot', 1)
            .replace(' type="revolute"', ""))


@pytest.mark.parametrize("encoding", ["klingon", "utf-32", "shift_jis"])
def test_an_encoding_expat_cannot_read_is_a_urdf_error(encoding):
    xml = f'<?xml version="1.0" encoding="{encoding}"?><robot name="r"><link name="a"/></robot>'
    with pytest.raises(URDFError, match='encoding.*UTF-8'):
        pinref.buildModelFromXML(xml.encode())


def test_a_link_with_an_empty_name_is_refused():
    with pytest.raises(URDFError, match=r'line 3: <link name="">: .*empty'):
        pinref.buildModelFromXML(_robot('<link name=""/>'))


@pytest.mark.parametrize("filename, fragment", [
    (None, "str or os.PathLike, not NoneType"), (3.5, "not float"),
    ("robot\0.urdf", "NUL byte"), ("/dev/zero", "not a regular file"),
    (b"/no/such/robot.urdf", "No such file")], ids=["None", "float", "nul", "dev_zero", "bytes"])
def test_bad_file_names_raise_urdf_errors(filename, fragment):
    with pytest.raises(URDFError, match=fragment):
        pinref.buildModelFromUrdf(filename)


def test_a_fifo_and_a_directory_are_refused_without_blocking(tmp_path):
    fifo = tmp_path / "robot.urdf"
    os.mkfifo(fifo)
    start = time.perf_counter()
    for path in (fifo, tmp_path):
        with pytest.raises(URDFError, match="not a regular file"):
            pinref.buildModelFromUrdf(path)
    assert time.perf_counter() - start < 0.5


def test_a_pinocchio_root_joint_is_named_by_its_package():
    with pytest.raises(URDFError, match=r"not pinocchio.JointModelFreeFlyer \(from the pinocchio"):
        pinref.buildModelFromXML('<robot name="r"><link name="a"/></robot>',
                                 pin.JointModelFreeFlyer())
