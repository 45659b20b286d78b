"""Bad URDF input: every case raises ``pinref.errors.URDFError`` (a ValueError) naming the
element, and its line where there is one; hostile XML fails fast without reading any file.

Where Pinocchio accepts what pinref refuses (negative mass, a nameless link, a zero axis, an
unreachable cycle), the test says so. An inertia no rigid body has is loaded as pin loads it,
with one InertiaWarning (test_urdf.py); so are an <inertial> urdfdom cannot read
(MalformedInertialWarning) and a joint named like the root joint (DuplicateJointNameWarning),
here, each with a model equal to pin's and a URDFError with strict=True.
"""

import os
import time

import pinocchio as pin
import pytest

import pinref
from pinref.errors import DuplicateJointNameWarning, MalformedInertialWarning, URDFError
from test_bridge import assert_fields_equal, model_fields

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
    "negative_mass": (_robot(f'<link name="a"><inertial><mass value="-2"/>{INERTIA}'
                             '</inertial></link>'), ['<link name="a">', "line 3", "negative"]),
    "inf": (_robot(*LINK_AB, _joint('<origin xyz="0 inf 0"/>' + LIMIT)),
            ["<origin> xyz", "'inf'"]),
    "blank_after_a_limit": (_robot(*LINK_AB, _joint('<limit effort="1 " velocity="1"/>')),
                            ["<limit> effort", "blank after the number"]),
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
    with pytest.raises(URDFError) as info:
        pinref.buildModelFromXML(xml)
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


# --- issue 27 item 2: what pin 3.8.0 loads although urdfdom logs an error -----------------------

LINK_B = '<link name="b"/>'
MOVE = _joint(LIMIT)
# id -> (URDF text, substrings of the warning and of strict=True's URDFError)
LOADED_AS_PIN = {
    "mass_without_inertia": (  # mass and centre of mass kept, rotational inertia zero
        _robot('<link name="a"><inertial><origin xyz="0.1 0.2 0.3" rpy="0.1 0.2 0.3"/>'
               '<mass value="1.5"/></inertial></link>', LINK_B, MOVE),
        ["line 3", '<link name="a">', "missing the required <inertia>",
         "mass 1.5 at (0.1, 0.2, 0.3) and a zero rotational inertia"]),
    "mass_placeholder": (  # the centre of mass was read, then MASS: mass 0
        _robot('<link name="a"/>', f'<link name="b"><inertial><origin xyz="0.1 0 0"/><mass '
               f'value="MASS"/>{INERTIA}</inertial></link>', MOVE),
        ["line 4", '<link name="b">', "'MASS' is not a number", "mass 0 at (0.1, 0, 0)"]),
    "placeholder_on_a_fixed_link": (  # the FIXED_JOINT frame carries (0, (0.1, 0, 0), 0)
        _robot('<link name="a"/>', f'<link name="b"><inertial><origin xyz="0.1 0 0"/><mass '
               f'value="MASS"/>{INERTIA}</inertial></link>', _joint("", type="fixed")),
        ['<link name="b">', "'MASS'"]),
    "mass_without_value": (
        _robot(*LINK_AB, f'<link name="c"><inertial><mass/>{INERTIA}</inertial></link>', MOVE,
               _joint(LIMIT, name="k", parent="b", child="c")),
        ["line 5", '<link name="c">', "<mass> missing the required attribute 'value'"]),
    "inertial_without_mass": (_robot(f'<link name="a"><inertial>{INERTIA}</inertial></link>',
                                     LINK_B, MOVE), ['<link name="a">', "<mass>"]),
    "inertia_without_izz": (
        _robot('<link name="a"><inertial><mass value="2"/><inertia ixx="1" ixy="0" ixz="0" '
               'iyy="1" iyz="0"/></inertial></link>', LINK_B, MOVE),
        ["'izz'", "mass 2 at (0, 0, 0)"]),
    "a_blank_after_the_mass": (  # urdfdom's strToDouble must reach the end of the text
        _robot(f'<link name="a"><inertial><mass value="1.5 "/>{INERTIA}</inertial></link>',
               LINK_B, MOVE), ["blank after the number", "mass 0"]),
    "origin_inf": (_robot(f'<link name="a"><inertial><origin xyz="0 inf 0"/><mass value="1"/>'
                          f'{INERTIA}</inertial></link>', LINK_B, MOVE),
                   ["<origin> xyz", "'inf'", "mass 0 at (0, 0, 0)"]),
    "rpy_not_a_number": (  # xyz was read: the centre of mass stays
        _robot(f'<link name="a"><inertial><origin xyz="1 2 3" rpy="0 x 0"/><mass value="1"/>'
               f'{INERTIA}</inertial></link>', LINK_B, MOVE), ["'x'", "mass 0 at (1, 2, 3)"]),
}


@pytest.mark.parametrize("root", ["fixed", "free_flyer"])
@pytest.mark.parametrize("xml, fragments", list(LOADED_AS_PIN.values()), ids=list(LOADED_AS_PIN))
def test_an_inertial_urdfdom_cannot_read_loads_as_pin_with_a_warning(xml, fragments, root,
                                                                    tmp_path):
    """pin 3.8.0 loads each (urdfdom logs "Could not parse inertial element" and keeps what it
    had read): pinref's model equals pin's, with one MalformedInertialWarning naming the file,
    the line, the link and what pin builds; strict=True raises the URDFError instead."""
    path = tmp_path / "robot.urdf"
    path.write_text(xml)
    args = () if root == "fixed" else (pinref.JointModelFreeFlyer(),)
    with pytest.warns(MalformedInertialWarning) as caught:
        model = pinref.buildModelFromUrdf(path, *args)
    assert len(caught) == 1
    message = str(caught[0].message)
    for fragment in [str(path), "strict=True"] + fragments:
        assert fragment in message, f"{fragment!r} not in: {message}"
    pmodel = pin.buildModelFromUrdf(str(path), *(() if root == "fixed" else
                                                 (pin.JointModelFreeFlyer(),)))
    assert_fields_equal(model_fields(model), model_fields(pmodel), tol=1e-15)
    with pytest.raises(URDFError) as info:
        pinref.buildModelFromUrdf(path, *args, strict=True)
    assert str(info.value).startswith(f"{path}, line ")
    assert all(fragment in str(info.value) for fragment in fragments
               if not fragment.startswith("mass"))  # (what pin builds is the warning's)


def test_every_unreadable_inertial_is_listed_in_one_warning():
    xml = _robot('<link name="a"><inertial><mass value="MASS"/></inertial></link>',
                 '<link name="b"><inertial><mass value="2"/></inertial></link>', MOVE)
    with pytest.warns(MalformedInertialWarning) as caught:
        pinref.buildModelFromXML(xml)
    lines = str(caught[0].message).splitlines()
    assert len(caught) == 1 and "2 links" in lines[0]
    assert ['<link name="a">' in lines[1], '<link name="b">' in lines[2]] == [True, True]


@pytest.mark.parametrize("name", [None, "base"])
def test_a_joint_named_like_the_root_joint_loads_as_pin_with_a_warning(name):
    """pin 3.8.0 loads a movable joint of the root joint's name with a free-flyer root: two
    joints of that name, and no JOINT frame for the second (addFrame finds the root's), so its
    link joins the root joint's body. A fixed joint of that name makes a FIXED_JOINT frame
    beside the root's JOINT frame: no clash, no warning."""
    joint_name = name or "root_joint"
    xml = _robot(*LINK_AB, '<link name="c"/>', MOVE,
                 _joint(LIMIT, name=joint_name, parent="b", child="c"))
    names = () if name is None else (name,)
    with pytest.warns(DuplicateJointNameWarning) as caught:
        model = pinref.buildModelFromXML(xml, pinref.JointModelFreeFlyer(), *names)
    pmodel = pin.buildModelFromXML(xml, pin.JointModelFreeFlyer(), *names)
    assert list(pmodel.names) == ["universe", joint_name, "j", joint_name]
    assert_fields_equal(model_fields(model), model_fields(pmodel), tol=1e-15)
    message = str(caught[0].message)
    for fragment in ["URDF string, line 7", f'<joint name="{joint_name}">', "id 3",
                     "id 1, which getJointId finds", "'c' joins the root joint's body",
                     "strict=True"]:
        assert fragment in message, f"{fragment!r} not in: {message}"
    with pytest.raises(URDFError, match=f'line 7: <joint name="{joint_name}">: the root joint'):
        pinref.buildModelFromXML(xml, pinref.JointModelFreeFlyer(), *names, strict=True)
    fixed = xml.replace('type="revolute"><parent link="b"', 'type="fixed"><parent link="b"')
    for strict in (False, True):
        model = pinref.buildModelFromXML(fixed, pinref.JointModelFreeFlyer(), *names,
                                         strict=strict)
        assert_fields_equal(model_fields(model), model_fields(
            pin.buildModelFromXML(fixed, pin.JointModelFreeFlyer(), *names)), tol=1e-15)
