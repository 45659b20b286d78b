"""Build a Model from a MuJoCo (MJCF) description, as ``pinocchio.buildModelFromMJCF`` does (3.8.0).

Mirrors ``pinocchio::mjcf::details::MjcfGraph`` (src/parsers/mjcf/mjcf-graph.cpp,
mjcf-graph-geom.cpp) on top of Pinocchio's ``UrdfVisitor``. docs/mjcf.md is the long version
of this docstring, with every place where Pinocchio's model is not MuJoCo's.

Reading, in document order of ``<mujoco model>``'s children (each tag's first element)::

    <compiler>   angle (degree | radian), eulerseq, inertiafromgeom (true | false | auto),
                 boundmass, boundinertia, meshdir/assetdir, strippath; autolimits is read
                 but can only be true
    <default>    the unnamed top class ("mujoco_default") and nested named classes; a class
                 inherits the joint, geom and site attributes of its parent
    <asset>      meshes (files or vertices), materials, textures
    <keyframe>   <key name qpos> -> referenceConfigurations
    <worldbody>  its FIRST <body> only, parsed depth first
    <equality>   <connect body1 [body2] [anchor] [name]> -> the constraint list

A body: placement from pos and quat | axisangle | euler | xyaxes | zaxis; inertia from
<inertial> (mass, pos, orientation, diaginertia | fullinertia) or the sum of its non-visual
geoms' (inertiafromgeom); its joints (hinge, slide, ball, free, <freejoint>) with defaults
applied main class < childclass < class < element; its sites. Building, depth first:

    first body, no joint   its BODY frame on the universe carrying its inertia (or, with a
                           root joint, root joint + body); its placement and sites are dropped
    body, no joint         FIXED_JOINT "<body>_fixed" + BODY frame at parent * placement
    body, one joint        the joint at body * joint placement, armature, BODY frame at the
                           joint placement's inverse
    body, several joints   one JointModelComposite "Composite_<first joint>"
    site                   an OP_FRAME on its body

Security: the XML is read as the URDF loader reads it (expat, entity declarations refused);
mesh files are located, never opened.
"""

import math
import os
import warnings

import numpy as np

from ..errors import MJCFError, MJCFWarning, URDFError
from ..joints import JointModel, JointModelComposite, JointModelFreeFlyer, JointModelSpherical
from ..spatial import SE3, Inertia, Quaternion
from ..spatial._kernels import type_name
from ..spatial.quaternion import angle_axis_matrix
from .frame import FrameType, ReferenceFrame
from .geometry import (Box, Capsule, Convex, Cylinder, Ellipsoid, GeometryModel, GeometryObject,
                       GeometryType, Mesh, Sphere)
from .model import Model, bind_positional
from .urdf import _Builder as _UrdfBuilder
from .urdf import (_AXIS_JOINTS, _IDENTITY_POSE, _UNIT_AXES, _axis_joint, _compose,
                   _is_decimal, _matmul3, _normalized, _parse_xml, _path, _pose,
                   _quaternion_matrix, _read_file, _rotated_inertia, _se3)

UNIT_BOUND = 1.01
"""Pinocchio's bound on every configuration entry of a free or ball joint read from MJCF
(the translation of a free joint too)."""

_INF = math.inf
_CLASSED = ("joint", "geom", "site")
_IGNORED_COMPILER = ("settotalmass", "balanceinertia", "inertiagrouprange")
_GROUPING = ("frame", "replicate", "attach", "composite", "flexcomp")
_SIZES = {"sphere": 1, "plane": 3, "box": 3, "ellipsoid": 3, "cylinder": 2, "capsule": 2}


# --- public entry points -----------------------------------------------------------------


def buildModelFromMJCF(filename, *args, root_joint=None, root_joint_name=None, strict=False):
    """The Model of the MJCF file ``filename``, equal to ``pinocchio.buildModelFromMJCF``'s.

    ``buildModelFromMJCF(filename)``, ``buildModelFromMJCF(filename, root_joint)`` -> Model;
    ``buildModelFromMJCF(filename, root_joint, root_joint_name)`` -> ``(model,
    constraint_models)``, the ``<connect>`` equalities as :class:`RigidConstraintModel`
    (Pinocchio's three overloads).

    Parameters
    ----------
    filename : str or os.PathLike
        The MJCF file (``<include>`` is not followed, as in Pinocchio).
    root_joint : pinref JointModel, optional
        Added between the universe and the first body only when that body has no joint of
        its own (Pinocchio's rule); otherwise ignored, with an MJCFWarning.
    root_joint_name : str, optional
        The root joint's name ("root_joint" by default); given, the constraint list is
        returned too.
    strict : bool
        False (default): where Pinocchio's model is not MuJoCo's, the model Pinocchio builds
        is returned and one MJCFWarning lists every difference. True: MJCFError instead.

    Raises
    ------
    MJCFError
        The file cannot be read, is not well-formed or hostile XML, or is an MJCF Pinocchio
        refuses; the message names the file, the line and the element.

    Mirrors ``pinocchio::mjcf::buildModel`` (parsers/mjcf/model.hxx), Pinocchio 3.8.0.
    """
    if len(args) > 2:
        raise MJCFError(f"buildModelFromMJCF: at most (filename, root_joint, root_joint_name), "
                        f"got {1 + len(args)} arguments")
    if args:
        root_joint = args[0]
    if len(args) > 1:
        root_joint_name = args[1]
    with_constraints = root_joint_name is not None
    if root_joint is None and with_constraints:
        raise MJCFError("buildModelFromMJCF: root_joint_name was given without a root_joint")
    if root_joint is not None and not isinstance(root_joint, JointModel):
        raise MJCFError(f"root_joint must be a pinref joint model such as "
                        f"pinref.JointModelFreeFlyer(), not {type_name(root_joint)}")
    if with_constraints and not root_joint_name:
        raise MJCFError("rootJoint was given without a name: pass a non-empty root_joint_name")
    graph = _Graph(filename)
    model = _Builder(graph, root_joint, root_joint_name or "root_joint").build()
    constraints = graph.constraints(model)
    graph.report(strict)
    return (model, constraints) if with_constraints else model


def buildGeomFromMJCF(model, filename, geom_type, mesh_loader=None):
    """The visual or collision geometry of the MJCF file ``filename`` for ``model`` (built
    from the same file), as ``pinocchio.buildGeomFromMJCF`` stores it.

    One GeometryObject per geom of the kind asked (VISUAL: every geom but those of group > 2
    with collisions on; COLLISION: every geom but those with contype = conaffinity = 0),
    bodies in depth-first order, named ``<body>_<k>``; a geom's placement is its body frame's
    times its own. Shapes: Box (full sides), Sphere, Capsule and Cylinder (full length),
    Ellipsoid (radii), Mesh (the resolved file and scale; never opened) or Convex (a mesh
    given by vertices). ``mesh_loader`` is ignored. Raises MJCFError where Pinocchio throws
    (a plane or height field, an unknown mesh or material, a body ``model`` lacks).
    """
    if geom_type not in (GeometryType.VISUAL, GeometryType.COLLISION):
        raise MJCFError(f"buildGeomFromMJCF: geom_type must be pinref.GeometryType.VISUAL or "
                        f"COLLISION, not {geom_type!r}")
    graph = _Graph(filename)
    geometry_model = GeometryModel()
    body_frames = {}
    for k, frame in enumerate(model.frames):
        if frame.type == FrameType.BODY:
            body_frames.setdefault(frame.name, k)
    for body in graph.bodies:
        if body.name not in body_frames:
            raise graph.error(body.element, f"the model has no BODY frame {body.name!r}: pass "
                              "the Model built from the same file")
        frame_id = body_frames[body.name]
        frame = model.frames[frame_id]
        count = 0
        for geom in body.geoms:
            if geom.kind == ("collision" if geom_type == GeometryType.VISUAL else "visual"):
                continue
            shape, path, scale = graph.shape(geom)
            color, override, texture = geom.rgba, False, ""
            if geom.material:
                material = graph.materials.get(geom.material)
                if material is None:
                    raise graph.error(geom.element, f"unknown material {geom.material!r}")
                color, override = material["rgba"], True
                if material["texture"]:
                    if material["texture"] not in graph.textures:
                        raise graph.error(geom.element, f"unknown texture "
                                          f"{material['texture']!r}")
                    texture = graph.textures[material["texture"]]
            geometry_model.addGeometryObject(GeometryObject(
                f"{body.name}_{count}", frame.parentJoint, frame_id,
                _place(frame.placement, geom.placement), shape, path, scale, override, color,
                texture))
            count += 1
    return geometry_model


def buildModelsFromMJCF(filename, *args, **kwargs):
    """``(model, [constraint_models,] geometry models...)`` of the MJCF file ``filename``, as
    ``pinocchio.buildModelsFromMJCF``: ``buildModelFromMJCF`` then ``buildGeomFromMJCF`` for
    each of ``geometry_types`` (default [COLLISION, VISUAL]).

    Arguments, positional in this order or by keyword: ``root_joint=None, verbose=False,
    meshLoader=None, geometry_types=None, contacts=False``; when the second positional
    argument is a str, it is ``root_joint_name`` (``root_joint, root_joint_name, verbose,
    ...``), pinocchio.shortcuts' rule. The constraint list (with ``contacts=True``) is empty
    unless ``root_joint_name`` is given, as in Pinocchio. ``strict`` (keyword) is passed on."""
    keys = ["root_joint", "verbose", "meshLoader", "geometry_types", "contacts"]
    if len(args) >= 2 and isinstance(args[1], str):
        keys.insert(1, "root_joint_name")
    return _build_models(filename, **bind_positional("buildModelsFromMJCF", keys, args, kwargs))


def _build_models(filename, root_joint=None, root_joint_name=None, verbose=False,
                  meshLoader=None, geometry_types=None, contacts=False, *, strict=False):
    constraints = []
    if root_joint is not None and root_joint_name is not None:
        model, constraints = buildModelFromMJCF(filename, root_joint, root_joint_name,
                                                strict=strict)
    else:
        model = buildModelFromMJCF(filename, root_joint=root_joint, strict=strict)
    if geometry_types is None:
        geometry_types = [GeometryType.COLLISION, GeometryType.VISUAL]
    elif not isinstance(geometry_types, (list, tuple)):
        geometry_types = [geometry_types]
    out = [model] + ([constraints] if contacts else [])
    return tuple(out + [buildGeomFromMJCF(model, filename, kind) for kind in geometry_types])


class RigidConstraintModel:
    """A ``<connect>`` equality as ``pinocchio.RigidConstraintModel`` holds it (data only):
    ``type`` (CONTACT_3D = 0), ``joint1_id``, ``joint2_id`` (0: the world),
    ``joint1_placement`` (the anchor, in body1's joint), ``joint2_placement`` (the inverse of
    that translation with a body2, identity without), ``reference_frame`` (LOCAL) and
    ``name`` (empty, as Pinocchio leaves it); ``size()`` is 3."""

    CONTACT_3D = 0

    def __init__(self, joint1_id, joint1_placement, joint2_id, joint2_placement):
        self.type = self.CONTACT_3D
        self.joint1_id, self.joint2_id = int(joint1_id), int(joint2_id)
        self.joint1_placement, self.joint2_placement = joint1_placement, joint2_placement
        self.reference_frame = ReferenceFrame.LOCAL
        self.name = ""

    def size(self):
        return 3

    def __repr__(self):
        return (f"RigidConstraintModel(CONTACT_3D, joint1_id={self.joint1_id}, "
                f"joint2_id={self.joint2_id})")


def _mjcf_error(error):
    """The URDF reader's error (its file-name, file and XML checks, shared) as an MJCFError."""
    message = str(error).replace("buildModelFromUrdf", "buildModelFromMJCF")
    return MJCFError(message.replace("; buildModelFromXML reads URDF text", "")
                     .replace("URDF", "MJCF"))


# --- reading (MjcfGraph) -------------------------------------------------------------------


class _Body:
    __slots__ = ("name", "parent", "element", "placement", "inertia", "childclass", "joints",
                 "geoms", "sites")


class _Joint:
    __slots__ = ("name", "element", "placement", "type", "axis", "lower", "upper", "effort",
                 "damping", "armature", "frictionloss", "ref", "limited")


class _Geom:
    __slots__ = ("element", "placement", "type", "size", "kind", "inertia", "mesh", "material",
                 "rgba", "contributes")


class _Graph:
    """Everything Pinocchio's MjcfGraph reads from the file; ``notes`` collects
    (line, text) for each place where Pinocchio's model will not be MuJoCo's."""

    def __init__(self, filename):
        self.notes = []
        try:
            self.source = path = _path(filename)
            root = _parse_xml(_read_file(path), path, children=None)
        except URDFError as error:
            raise _mjcf_error(error) from None
        if root.tag != "mujoco":
            raise self.error(root, "this is not a MuJoCo model: the root element must be "
                             "<mujoco>")
        if root.attrib and "model" not in root.attrib:
            raise self.error(root, "<mujoco> has attributes but no model name: add "
                             'model="..."')
        self.name = root.attrib.get("model", "")
        self.angle = math.pi / 180.0
        self.euler_axes = (0, 1, 2)
        self.inertiafromgeom = None
        self.bound_mass = self.bound_inertia = 0.0
        self.meshdir = self.texturedir = ""
        self.strippath = False
        self.classes = {}
        self.meshes, self.materials, self.textures, self.keys = {}, {}, {}, {}
        self.equalities = {}
        self.bodies = []
        first = {}
        for child in root.children:
            if child.tag == "include":
                self.note_include(child)
                continue
            if child.tag in first:
                if child.tag == "worldbody":
                    self.note(child, "a second <worldbody> is not read: the first one's bodies "
                              "are built again (MuJoCo builds this one's)")
                    self.worldbody(first["worldbody"])
                continue
            first[child.tag] = child
            if child.tag in ("compiler", "default") and "worldbody" in first:
                self.note(child, f"<{child.tag}> comes after <worldbody>: it does not apply to "
                          "the bodies (MuJoCo applies it to the whole file)")
            read = {"compiler": self.compiler, "default": self.default, "asset": self.asset,
                    "keyframe": self.keyframe, "option": self.option,
                    "worldbody": self.worldbody, "equality": self.equality}.get(child.tag)
            if read is not None:
                read(child)
        if not self.bodies:
            raise self.error(root, "the file has no <worldbody>, so no body to build a model "
                             "of")

    # --- errors and notes

    def error(self, element, message):
        return MJCFError(f"{self.source}, line {element.line}, <{element.tag}>: {message}")

    def note(self, element, text):
        self.notes.append((element.line, f"<{element.tag}>: {text}"))

    def report(self, strict):
        if not self.notes:
            return
        lines = "\n".join(f"  line {line}, {text}" for line, text in sorted(self.notes))
        if strict:
            raise MJCFError(f"{self.source}: Pinocchio 3.8.0's model is not MuJoCo's "
                            f"(strict=True refuses it):\n{lines}")
        warnings.warn(f"{self.source}: the model is Pinocchio 3.8.0's, which is not MuJoCo's "
                      f"here (docs/mjcf.md; strict=True refuses):\n{lines}", MJCFWarning,
                      stacklevel=3)

    # --- numbers

    def numbers(self, element, key, text=None):
        text = element.attrib[key] if text is None else text
        values = []
        for word in text.split():
            if not _is_decimal(word):
                raise self.error(element, f"{key}={text!r}: {word!r} is not a number")
            values.append(float(word))
        return values

    def vector(self, element, key, n, text=None):
        """The first ``n`` numbers of attribute ``key`` (Pinocchio reads no more), from
        ``text`` when given (a default class's value)."""
        text = element.attrib[key] if text is None else text
        values = self.numbers(element, key, text)
        if len(values) < n:
            raise self.error(element, f"{key}={text!r} holds {len(values)} numbers, {n} "
                             "expected")
        return tuple(values[:n])

    # --- compiler, defaults, assets, keyframes, equalities

    def compiler(self, element):
        a = element.attrib
        if a.get("autolimits") == "false":
            self.note(element, 'autolimits="false" is ignored: every joint range is applied, '
                      'where MuJoCo applies only those of limited="true" joints')
        for key in _IGNORED_COMPILER:
            if key in a:
                self.note(element, f"{key}={a[key]!r} is ignored (MuJoCo applies it to the "
                          "inertias)")
        self.strippath = a.get("strippath") == "true"
        if "assetdir" in a:
            self.meshdir = self.texturedir = a["assetdir"]
        self.meshdir = a.get("meshdir", self.meshdir)
        self.texturedir = a.get("texturedir", self.texturedir)
        if "boundmass" in a:
            self.bound_mass = self.number(element, "boundmass")
        if "boundinertia" in a:
            self.bound_inertia = self.number(element, "boundinertia")
        self.inertiafromgeom = {"true": True, "false": False}.get(a.get("inertiafromgeom"),
                                                                 self.inertiafromgeom)
        if a.get("angle") == "radian":
            self.angle = 1.0
        if "eulerseq" in a:
            seq = a["eulerseq"]
            if len(seq) != 3 or any(c not in "xyzXYZ" for c in seq):
                raise self.error(element, f"eulerseq={seq!r}: three letters of xyzXYZ expected")
            self.euler_axes = tuple("xyz".index(c.lower()) for c in seq)
            if seq != seq.lower():
                self.note(element, f"eulerseq={seq!r}: the upper-case (extrinsic) axes are "
                          "composed as intrinsic ones, R = R1 R2 R3 (MuJoCo: R3 R2 R1 for "
                          "fixed axes)")

    def default(self, element, parent=None):
        """``parseDefault``: a class gets its joint, geom and site attributes with those of
        its parent class merged under them; the top <default> (named or not) is also
        "mujoco_default" when it holds anything but nested defaults."""
        if element.attrib and "class" not in element.attrib:
            raise self.error(element, "a <default> with attributes needs a class name")
        if parent is not None and "class" not in element.attrib:
            raise self.error(element, "a nested <default> needs a class name")
        own = {tag: dict(c.attrib) for tag in _CLASSED
               for c in [element.first(tag)] if c is not None}
        for tag, attrib in (parent or {}).items():
            own[tag] = {**attrib, **own.get(tag, {})}
        if "class" in element.attrib:
            self.classes.setdefault(element.attrib["class"], own)
        if parent is None and any(c.tag != "default" for c in element.children):
            self.classes.setdefault("mujoco_default", own)
        for child in element.children:
            if child.tag == "default":
                self.default(child, own)

    def classed(self, element, tag, childclass):
        """The attributes of ``element`` (a joint, geom or site) level by level, lowest
        first: the main class, the body's childclass, the element's class, the element."""
        levels = []
        for name in ("mujoco_default", childclass, element.attrib.get("class")):
            if not name:
                continue
            if name not in self.classes:
                if name == "mujoco_default":
                    continue
                raise self.error(element, f"unknown default class {name!r}")
            if tag in self.classes[name]:
                levels.append(self.classes[name][tag])
        return levels + [element.attrib]

    def option(self, element):
        if "gravity" in element.attrib:
            g = self.vector(element, "gravity", 3)
            if g != (0.0, 0.0, -9.81):
                self.note(element, f"<option gravity> {g} is ignored: the model's gravity "
                          "stays (0, 0, -9.81)")

    def asset(self, element):
        for child in element.children:
            if child.tag == "hfield":
                raise self.error(child, "height fields are not supported (as in Pinocchio)")
            read = {"mesh": self.mesh, "material": self.material,
                    "texture": self.texture}.get(child.tag)
            if read is not None:
                read(child)

    def file_name(self, element, path):
        if "name" in element.attrib:
            return element.attrib["name"]
        stem, ext = os.path.splitext(os.path.basename(path))
        if not ext or not stem:
            raise self.error(element, f"cannot name the asset of file {path!r}: give it a name")
        return stem

    def asset_path(self, directory, path):
        if os.path.isabs(path) and not self.strippath:
            return path
        if self.strippath:
            path = os.path.basename(path)
        if os.path.isabs(directory):
            return os.path.join(directory, path)
        return os.path.join(os.path.dirname(self.source), directory, path)

    def mesh(self, element):
        scale = self.vector(element, "scale", 3) if "scale" in element.attrib else (1.0,) * 3
        if "file" in element.attrib:
            name = self.file_name(element, element.attrib["file"])
            self.meshes.setdefault(name, (self.asset_path(self.meshdir,
                                                          element.attrib["file"]), scale, None))
            return
        if "vertex" not in element.attrib or "name" not in element.attrib:
            raise self.error(element, "a mesh needs a file, or vertices and a name")
        vertices = self.numbers(element, "vertex")
        if len(vertices) % 3:
            raise self.error(element, "the number of vertex coordinates is not a multiple of 3")
        self.meshes.setdefault(element.attrib["name"],
                               ("", scale, np.array(vertices).reshape(-1, 3)))

    def material(self, element):
        if "name" not in element.attrib:
            raise self.error(element, "a material needs a name")
        material = {"rgba": (1.0, 1.0, 1.0, 1.0), "texture": ""}
        for level in self.classed_plain(element, "material"):
            if "texture" in level:
                material["texture"] = level["texture"]
            if "rgba" in level:
                material["rgba"] = self.vector(element, "rgba", 4, level["rgba"])
        self.materials.setdefault(element.attrib["name"], material)

    def classed_plain(self, element, tag):
        """Material defaults: the main class's then the element's class's (no inheritance)."""
        levels = []
        for name in ("mujoco_default", element.attrib.get("class")):
            if name and name in self.classes and tag in self.classes[name]:
                levels.append(self.classes[name][tag])
        return levels + [element.attrib]

    def texture(self, element):
        a = element.attrib
        name = a.get("name") or ("skybox" if a.get("type") == "skybox" else "")
        if "file" not in a:
            if not name:
                raise self.error(element, "a texture without a file needs a name")
            self.textures.setdefault(name, "")
            return
        self.textures.setdefault(self.file_name(element, a["file"]),
                                 self.asset_path(self.texturedir, a["file"]))

    def keyframe(self, element):
        for key in element.all("key"):
            if "name" in key.attrib and "qpos" in key.attrib:
                self.keys.setdefault(key.attrib["name"], (key, self.numbers(key, "qpos")))

    def equality(self, element):
        for child in element.children:
            if child.tag != "connect":
                if child.tag in ("weld", "joint", "tendon", "distance", "flex"):
                    self.note(child, f"the <{child.tag}> equality is dropped: only <connect> "
                              "becomes a constraint")
                continue
            a = child.attrib
            if "body1" not in a:
                raise self.error(child, "a <connect> needs body1")
            name = a.get("name", f"{a['body1']}_{a.get('body2', '')}_constraint")
            anchor = self.vector(child, "anchor", 3) if "anchor" in a else (0.0, 0.0, 0.0)
            self.equalities.setdefault(name, (child, a["body1"], a.get("body2", ""), anchor))

    def constraints(self, model):
        """``parseContactInformation``: one CONTACT_3D per <connect>, in name order."""
        out = []
        for name in sorted(self.equalities):
            element, body1, body2, anchor = self.equalities[name]
            placement = SE3.unchecked(np.eye(3), np.array(anchor, dtype=float))
            joint1 = self.body_joint(model, element, body1)
            if body2:
                out.append(RigidConstraintModel(joint1, placement,
                                                self.body_joint(model, element, body2),
                                                placement.inverse()))
            else:
                out.append(RigidConstraintModel(joint1, placement, 0, SE3.Identity()))
        return out

    def body_joint(self, model, element, body):
        for frame in model.frames:
            if frame.type == FrameType.BODY and frame.name == body:
                return frame.parentJoint
        raise self.error(element, f"the model has no body named {body!r}")

    # --- bodies

    def note_include(self, element):
        self.note(element, f"<include file={element.attrib.get('file')!r}> is not followed: "
                  "nothing of that file is in the model (MuJoCo splices it in)")

    def note_grouping(self, element):
        self.note(element, f"<{element.tag}> and everything in it are dropped (MuJoCo "
                  "builds its bodies, joints and geoms)")

    def worldbody(self, element):
        for child in element.children:
            if child.tag in _GROUPING:
                self.note_grouping(child)
            elif child.tag == "include":
                self.note_include(child)
        bodies = element.all("body")
        if not bodies:
            raise self.error(element, "<worldbody> holds no <body> (an <include>d one is not "
                             "read): Pinocchio fails with \"No such node (body)\"")
        for dropped in bodies[1:]:
            self.note(dropped, f"the top-level body {dropped.attrib.get('name', '')!r} and "
                      "everything under it are dropped: only the first body of <worldbody> is "
                      "read (MuJoCo keeps every one)")
        self.body(bodies[0], None, "")

    def placement(self, element):
        """``convertPosition``: pos, then quat | axisangle | euler | xyaxes | zaxis."""
        a = element.attrib
        p = self.vector(element, "pos", 3) if "pos" in a else (0.0, 0.0, 0.0)
        R = np.eye(3)
        if "quat" in a:
            w, x, y, z = self.vector(element, "quat", 4)
            n = math.sqrt((x * x + z * z) + (y * y + w * w))  # Eigen's packet order
            R = np.array(_quaternion_matrix(x / n, y / n, z / n, w / n))
        elif "axisangle" in a:
            x, y, z, angle = self.vector(element, "axisangle", 4)
            if abs(x * x + y * y + z * z - 1.0) > 1e-12:
                self.note(element, f"axisangle axis ({x}, {y}, {z}) is not of unit length: "
                          "Pinocchio uses it as given, so the placement is no rotation "
                          "(MuJoCo normalises it)")
            R = angle_axis_matrix(angle * self.angle, np.array([x, y, z]))
        elif "euler" in a:
            R1, R2, R3 = (angle_axis_matrix(angle * self.angle, np.array(_UNIT_AXES[k])).tolist()
                          for angle, k in zip(self.vector(element, "euler", 3),
                                              self.euler_axes))
            R = np.array(_matmul3(_matmul3(R1, R2), R3))
        elif "xyaxes" in a:
            v = self.vector(element, "xyaxes", 6)
            x = _normalized(v[:3])
            d = x[0] * v[3] + x[1] * v[4] + x[2] * v[5]
            y = _normalized(tuple(v[3 + k] - x[k] * d for k in range(3)))
            z = _normalized((x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2],
                             x[0] * y[1] - x[1] * y[0]))
            R = np.array([x, y, z]).T
        elif "zaxis" in a:
            R = _from_two_vectors(self.vector(element, "zaxis", 3))
        return SE3.unchecked(np.asarray(R, dtype=float), np.array(p, dtype=float))

    def body(self, element, childclass, parent):
        """``parseJointAndBody``: this body, then (in document order) its children."""
        if self.inertiafromgeom is False and element.first("inertial") is None:
            raise self.error(element, 'inertiafromgeom="false" and the body has no '
                             "<inertial>")
        use_geoms = self.inertiafromgeom is True or (self.inertiafromgeom is None
                                                     and element.first("inertial") is None)
        body = _Body()
        body.name = element.attrib.get("name", parent + "Bis")
        body.parent = parent
        body.element = element
        body.placement = self.placement(element)
        body.childclass = element.attrib.get("childclass", childclass)
        body.inertia = Inertia.Identity()
        body.joints, body.geoms, body.sites = [], [], []
        self.bodies.append(body)
        for child in element.children:
            if child.tag == "inertial" and not use_geoms:
                body.inertia = self.inertial(child)
            elif child.tag == "geom":
                body.geoms.append(self.geom(child, body))
            elif child.tag == "joint":
                body.joints.append(self.joint(child, body))
            elif child.tag == "freejoint":
                joint = _Joint()
                joint.name = child.attrib.get("name", body.name + "_free")
                joint.element, joint.type = child, "free"
                joint.placement = SE3.Identity()
                joint.axis, joint.ref, joint.limited = (0.0, 0.0, 1.0), 0.0, None
                joint.lower, joint.upper, joint.effort = -_INF, _INF, _INF
                joint.damping = joint.armature = joint.frictionloss = 0.0
                self.joint_notes(joint, False)
                body.joints.append(joint)
            elif child.tag == "site":
                body.sites.append(self.site(child, body))
            elif child.tag == "body":
                self.body(child, body.childclass, body.name)
            elif child.tag in _GROUPING:
                self.note_grouping(child)
            elif child.tag == "include":
                self.note_include(child)
        if use_geoms:
            total = Inertia.Zero()
            for geom in body.geoms:
                if geom.kind != "visual":
                    total += geom.placement.act(geom.inertia)  # Inertia::__pequ__
                if geom.contributes:
                    self.note(geom.element, geom.contributes)
            body.inertia = total

    def inertial(self, element):
        """``convertInertiaFromMjcf``: Inertia(max(mass, boundmass), pos, R I R^T)."""
        if "mass" not in element.attrib:
            raise self.error(element, "<inertial> needs a mass")
        mass = max(self.number(element, "mass"), self.bound_mass)
        if mass < 0:
            raise self.error(element, "the mass is negative")
        com = self.vector(element, "pos", 3) if "pos" in element.attrib else (0.0, 0.0, 0.0)
        R = self.placement(element).rotation
        I = np.eye(3)
        if "diaginertia" in element.attrib:
            I = np.diag(self.vector(element, "diaginertia", 3))
        elif "fullinertia" in element.attrib:
            xx, yy, zz, xy, xz, yz = self.vector(element, "fullinertia", 6)
            I = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
        for k in range(3):
            I[k, k] = max(I[k, k], self.bound_inertia)
        return Inertia.unchecked(np.float64(mass), np.array(com, dtype=float),
                                 np.array(_rotated_inertia(R.tolist(), I.tolist())))

    def joint(self, element, body):
        """``MjcfJoint::fill``: defaults level by level, the element last."""
        joint = _Joint()
        joint.name = element.attrib.get("name", f"{body.name}Joint_{len(body.joints)}")
        joint.element = element
        joint.placement = self.placement(element)
        joint.type, joint.axis, joint.ref, joint.limited = "hinge", (0.0, 0.0, 1.0), 0.0, None
        joint.lower, joint.upper, joint.effort = -_INF, _INF, _INF
        joint.damping = joint.armature = joint.frictionloss = 0.0
        ranged = False
        levels = self.classed(element, "joint", body.childclass)
        self.note_lost_placement(element, levels)
        for level in levels:
            joint.type = level.get("type", joint.type)
            if "axis" in level:
                joint.axis = self.vector(element, "axis", 3, level["axis"])
            if "range" in level:
                lower, upper = self.vector(element, "range", 2, level["range"])
                joint.lower, joint.upper = lower * self.angle, upper * self.angle
                ranged = True
            if "actuatorfrcrange" in level:
                joint.effort = self.vector(element, "actuatorfrcrange", 2,
                                           level["actuatorfrcrange"])[1]
            for key in ("damping", "armature", "frictionloss"):
                if key in level:
                    setattr(joint, key, self.number(element, key, level[key]))
            joint.limited = level.get("limited", joint.limited)
            if "ref" in level:
                if joint.type not in ("hinge", "slide"):
                    raise self.error(element, "ref is only for hinge and slide joints")
                ref = self.number(element, "ref", level["ref"])
                joint.ref = ref * self.angle if joint.type == "hinge" else ref
        if joint.type not in ("hinge", "slide", "ball", "free"):
            raise self.error(element, f"unknown joint type {joint.type!r}: hinge, slide, ball "
                             "or free")
        self.joint_notes(joint, ranged)
        return joint

    def joint_notes(self, joint, ranged):
        element = joint.element
        if ranged and joint.limited == "false":
            self.note(element, 'the range of this limited="false" joint is applied (MuJoCo '
                      "ignores it)")
        if ranged and joint.type == "slide" and self.angle != 1.0:
            self.note(element, "the slide joint's range is converted from degrees to radians "
                      "as an angle (MuJoCo keeps it in length units)")
        if ranged and joint.ref != 0.0 and joint.type in ("hinge", "slide"):
            self.note(element, f"the range is not shifted by ref={joint.ref:g} (MuJoCo's range "
                      "is in its own coordinates, where the model pose is q = ref)")
        if joint.type in ("ball", "free"):
            if ranged:
                self.note(element, f"the range of the {joint.type} joint is dropped (its "
                          f"configuration is bounded by +-{UNIT_BOUND})")
            if joint.damping:
                self.note(element, f"the damping of the {joint.type} joint is dropped")
        if joint.type == "free":
            self.note(element, f"the free joint's configuration, translation included, is "
                      f"bounded by +-{UNIT_BOUND} (MuJoCo's is unbounded)")
        if joint.frictionloss:
            self.note(element, f"frictionloss={joint.frictionloss:g} is dropped: model.friction "
                      "stays 0")

    def note_lost_placement(self, element, levels):
        lost = _lost_class_placement(levels)
        if lost:
            self.note(element, f"the {' and '.join(lost)} of its default class is lost: "
                      "Pinocchio takes the element's own (identity without one), MuJoCo the "
                      "class's")

    def number(self, element, key, text=None):
        """The one number of attribute ``key`` (or of ``text``, a default class's value)."""
        text = element.attrib[key] if text is None else text
        value = self.numbers(element, key, text)
        if len(value) != 1:
            raise self.error(element, f"{key}={text!r} is not one number")
        return value[0]

    def site(self, element, body):
        name = element.attrib.get("name", f"{body.name}Site_{len(body.sites)}")
        placement = SE3.Identity()
        fromto = None
        levels = self.classed(element, "site", body.childclass)
        self.note_lost_placement(element, levels)
        for level in levels:
            if "pos" in level and "fromto" in level:
                raise self.error(element, "both pos and fromto are given")
            placement = self.placement(_Level(element, level))
            if "fromto" in level:
                fromto = self.vector(element, "fromto", 6, level["fromto"])
                placement = _fromto_placement(fromto)
        return name, placement

    def geom(self, element, body):
        """``MjcfGeom::fill``: defaults level by level, then kind, size and inertia."""
        geom = _Geom()
        geom.element = element
        geom.placement = SE3.Identity()
        geom.type, geom.mesh, geom.material = "sphere", "", ""
        geom.rgba = (1.0, 1.0, 1.0, 1.0)
        density, contype, conaffinity, group = 1000.0, 1, 1, 0
        size_text, fromto, mass = None, None, None
        levels = self.classed(element, "geom", body.childclass)
        self.note_lost_placement(element, levels)
        for level in levels:
            if "pos" in level and "fromto" in level:
                raise self.error(element, "both pos and fromto are given")
            geom.placement = self.placement(_Level(element, level))
            if "density" in level:
                density = self.number(element, "density", level["density"])
            contype = int(self.number(element, "contype", level["contype"])) \
                if "contype" in level else contype
            conaffinity = int(self.number(element, "conaffinity", level["conaffinity"])) \
                if "conaffinity" in level else conaffinity
            group = int(self.number(element, "group", level["group"])) \
                if "group" in level else group
            mass = self.number(element, "mass", level["mass"]) if "mass" in level else None
            if "shellinertia" in level:
                raise self.error(element, "shellinertia is not supported (as in Pinocchio)")
            geom.type = level.get("type", geom.type)
            geom.material = level.get("material", geom.material)
            if geom.type == "mesh" and "mesh" in level:
                geom.mesh = level["mesh"]
            if "rgba" in level:
                geom.rgba = self.vector(element, "rgba", 4, level["rgba"])
            size_text = level.get("size", size_text)
            if fromto is None and "fromto" in level:
                fromto = self.vector(element, "fromto", 6, level["fromto"])
            if fromto is not None:
                geom.placement = _fromto_placement(fromto)
        if mass is None and any("mass" in level for level in levels):
            self.note(element, "the mass of its default class is lost: Pinocchio takes the "
                      "element's own (its density's mass without one), MuJoCo the class's")
        if geom.type == "mesh" and not geom.mesh:
            raise self.error(element, "a mesh geom needs a mesh")
        geom.kind = ("visual" if contype == 0 and conaffinity == 0
                     else "collision" if group > 2 else "both")
        geom.size = self.geom_size(element, geom.type, size_text, fromto)
        geom.inertia = Inertia.Identity()
        geom.contributes = ""
        if geom.type in ("mesh", "plane", "hfield"):
            if geom.kind != "visual":
                geom.contributes = (f"the {geom.type} geom counts as mass 1 with inertia I3 at "
                                    "its placement (MuJoCo computes its inertia from its shape)")
        else:
            if mass is None:
                mass = _volume(geom.type, geom.size) * density
            geom.inertia = _shape_inertia(geom.type, mass, geom.size)
            if geom.kind == "visual" and mass != 0.0:
                geom.contributes = ("this contype=conaffinity=0 geom is left out of the body's "
                                    "inertia (MuJoCo counts its mass)")
        return geom

    def geom_size(self, element, kind, text, fromto):
        """``computeSize``: box sides doubled, capsule/cylinder (radius, half length)."""
        if fromto is not None and kind in ("plane", "hfield", "mesh", "sphere"):
            raise self.error(element, f"fromto is for capsules, boxes, cylinders and "
                             f"ellipsoids, not a {kind}")
        if kind == "mesh":
            return None
        if kind not in _SIZES:
            raise self.error(element, f"unknown geom type {kind!r}")
        if text is None:
            raise self.error(element, f"a {kind} geom needs a size")
        if fromto is None:
            size = self.vector(element, "size", _SIZES[kind], text)
            return tuple(2.0 * s for s in size) if kind == "box" else size
        radius = self.vector(element, "size", 1, text)[0]
        dx, dy, dz = (fromto[3 + k] - fromto[k] for k in range(3))
        length = math.sqrt(dx * dx + dy * dy + dz * dz)
        if kind == "box":
            return (radius * 2.0, radius * 2.0, length)
        if kind == "ellipsoid":
            return (radius, radius, length / 2)
        return (radius, length / 2)

    def shape(self, geom):
        """``(shape, mesh path, mesh scale)`` of a geom (``retrieveCollisionGeometry``)."""
        ones = (1.0, 1.0, 1.0)
        s = geom.size
        if geom.type == "mesh":
            if geom.mesh not in self.meshes:
                raise self.error(geom.element, f"unknown mesh {geom.mesh!r}")
            path, scale, vertices = self.meshes[geom.mesh]
            if vertices is not None:
                return Convex("", scale), "", ones
            return Mesh(path, scale), path, scale
        if geom.type == "cylinder":
            return Cylinder(s[0], s[1] * 2), "CYLINDER", ones
        if geom.type == "box":
            return Box(*s), "BOX", ones
        if geom.type == "sphere":
            return Sphere(s[0]), "SPHERE", ones
        if geom.type == "ellipsoid":
            return Ellipsoid(*s), "ELLIPSOID", ones
        if geom.type == "capsule":
            return Capsule(s[0], s[1] * 2), "CAPSULE", ones
        raise self.error(geom.element, f"a {geom.type} geom has no geometry in Pinocchio")


_ORIENTATIONS = ("quat", "axisangle", "euler", "xyaxes", "zaxis")


def _lost_class_placement(levels):
    """What of a default class's placement the element loses: Pinocchio reads pos and the
    orientation level by level, each level from scratch, so the element's own (identity when
    it has none) wins."""
    element, classes = levels[-1], levels[:-1]
    lost = []
    if any("pos" in c for c in classes) and "pos" not in element and "fromto" not in element:
        lost.append("pos")
    if (any(k in c for c in classes for k in _ORIENTATIONS)
            and not any(k in element for k in _ORIENTATIONS + ("fromto",))):
        lost.append("orientation")
    return lost


class _Level:
    """An element seen through one level of its defaults (its line and tag, the level's
    attributes), so ``_Graph.placement`` reads a default class's pos and orientation."""

    __slots__ = ("tag", "line", "attrib")

    def __init__(self, element, attrib):
        self.tag, self.line, self.attrib = element.tag, element.line, attrib


# --- building (MjcfGraph::parseRootTree / fillModel on a UrdfVisitor) ---------------------------


class _Builder(_UrdfBuilder):
    """``MjcfGraph::parseRootTree`` on the URDF loader's visitor (its ``add_frame`` and
    ``add_joint_frame``); ``refs`` is Pinocchio's reference vector (``fillReferenceConfig``),
    whose first ``repeated`` entries are the first body's joints listed once more."""

    def __init__(self, graph, root_joint, root_joint_name):
        super().__init__(graph.name, Model())
        self.graph = graph
        self.root_joint, self.root_joint_name = root_joint, root_joint_name
        self.refs = []
        self.repeated = 0

    def body_frame(self, name):
        return self.frame_ids[(name, FrameType.BODY)]

    def build(self):
        graph, model = self.graph, self.model
        root = graph.bodies[0]
        if not root.joints:
            if not root.placement.isIdentity(0):
                graph.note(root.element, "the first body has no joint and its placement is "
                           "ignored: it and its children sit as if it were at the origin")
            if root.sites:
                graph.note(root.element, "the sites of the first body (no joint) are not "
                           "frames of the model")
            self.add_root(root, self.root_joint, self.root_joint_name)
        elif self.root_joint is not None:
            graph.note(root.element, f"the root joint is not added: the first body has its "
                       f"own joint {root.joints[0].name!r}")
        self.fill_refs(root)
        self.repeated = len(self.refs)
        for body in graph.bodies:
            self.fill(body)
        self.finish()
        for name, (element, qpos) in graph.keys.items():
            model.referenceConfigurations[name] = self.keyframe(element, qpos)
        return model

    def fill_refs(self, body):
        """``fillReferenceConfig``: 7 or 4 zeros for a free or ball joint, ref otherwise."""
        for joint in body.joints:
            self.refs += {"free": [0.0] * 7, "ball": [0.0] * 4}.get(joint.type, [joint.ref])

    def fill(self, body):
        """``fillModel``: a fixed body, one joint, or a composite of its joints; its sites."""
        model = self.model
        parent_frame = self.body_frame(body.parent) if body.parent else 0
        parent_joint, parent_pose = self.frame_joints[parent_frame], self.poses[parent_frame]
        if not body.joints:
            if not body.parent:
                return
            pose = _compose(parent_pose, _pose(body.placement))
            fixed = self.add_frame(body.name + "_fixed", parent_joint, parent_frame, pose,
                                   FrameType.FIXED_JOINT, body.inertia)
            body_id = self.add_frame(body.name, parent_joint, fixed, pose, FrameType.BODY)
            if body.sites and parent_pose != _IDENTITY_POSE:
                self.graph.note(body.element, "the sites of this body (no joint) are placed "
                                "as if its parent body sat at the origin of their joint: "
                                "Pinocchio composes the body's placement in its parent, not "
                                "in the joint, with theirs")
            for name, site in body.sites:
                self.add_frame(name, parent_joint, body_id,
                               _compose(_pose(body.placement), _pose(site)), FrameType.OP_FRAME)
            return
        self.fill_refs(body)
        joints = body.joints
        body_in_joint = joints[-1].placement.inverse()
        if len(joints) == 1:
            joint = joints[0]
            jmodel, limits, armature = _solo(joint)
            placement = _place(body.placement, joint.placement)
            name = joint.name
        else:
            jmodel = JointModelComposite()
            limits, armature = [[] for _ in range(6)], []
            previous = first = None
            for joint in joints:
                if joint.type == "free":
                    raise self.graph.error(joint.element, "a free joint cannot be composed with "
                                           "the other joints of its body")
                in_parent = _place(body.placement, joint.placement)
                if first is None:
                    first, inner = in_parent, SE3.Identity()
                else:
                    inner = _place(previous.inverse(), in_parent)
                part, part_limits, part_armature = _solo(joint)
                jmodel.addJoint(part, inner)
                for column, values in zip(limits, part_limits):
                    column.extend(values)
                armature.extend(part_armature)
                previous = in_parent
            placement, name = first, "Composite_" + joints[0].name
        joint_id = model.addJoint(parent_joint, jmodel,
                                  _se3(_compose(parent_pose, _pose(placement))), name, *limits)
        model.armature[model.joints[joint_id].v_slice] = armature
        body_id = self.append_body(self.add_joint_frame(joint_id, parent_frame), body.inertia,
                                   body.name, _pose(body_in_joint))
        for name, site in body.sites:
            self.add_frame(name, joint_id, body_id,
                           _compose(_pose(body_in_joint), _pose(site)), FrameType.OP_FRAME)

    def keyframe(self, element, qpos):
        """``addKeyFrame``: MuJoCo's qpos in Pinocchio's order (quaternions (x, y, z, w)),
        minus the ref of each 1-dof joint, read from Pinocchio's reference vector (which
        repeats the first body's joints when it has any)."""
        model = self.model
        if len(qpos) != model.nq:
            raise self.graph.error(element, f"the key holds {len(qpos)} positions and the "
                                   f"model has nq = {model.nq} (Pinocchio refuses it)")
        q = np.array(qpos, dtype=float)
        refs = np.zeros(max(model.nq, len(self.refs)))
        refs[:len(self.refs)] = self.refs
        own = np.zeros_like(refs)
        own[:len(self.refs) - self.repeated] = self.refs[self.repeated:]
        out = q.copy()
        shifted = False
        for jmodel in model.joints[1:]:
            for part, start in _parts(jmodel):
                seg = slice(start, start + part.nq)
                kind = part.shortname()
                if kind == "JointModelFreeFlyer":
                    out[seg] = np.concatenate((q[seg][:3], q[seg][4:7], q[seg][3:4]))
                elif kind == "JointModelSpherical":
                    out[seg] = np.concatenate((q[seg][1:4], q[seg][:1]))
                else:
                    out[seg] = q[seg] - refs[seg]
                    shifted = shifted or not np.array_equal(refs[seg], own[seg])
        if shifted:
            self.graph.note(element, "the refs subtracted from this key's hinge and slide "
                            "positions are other joints' (Pinocchio's reference vector lists "
                            "the first body's joints twice): q is not q_MuJoCo - ref")
        return out


def _parts(jmodel):
    """``[(joint, idx_q)]``: a composite's parts (the free-flyer and spherical tests of
    addKeyFrame look inside a composite only), or the joint itself."""
    if isinstance(jmodel, JointModelComposite):
        return [(part, part.idx_q) for part in jmodel.joints]
    return [(jmodel, jmodel.idx_q)]


def _solo(joint):
    """``(joint model, (effort, velocity, lower, upper, friction, damping), armature)`` of one
    MJCF joint (``addSoloJoint``, ``RangeJoint::setDimension``)."""
    if joint.type in ("free", "ball"):
        nq, nv = (7, 6) if joint.type == "free" else (4, 3)
        jmodel = JointModelFreeFlyer() if joint.type == "free" else JointModelSpherical()
        return (jmodel, ([_INF] * nv, [_INF] * nv, [-UNIT_BOUND] * nq, [UNIT_BOUND] * nq,
                         [0.0] * nv, [0.0] * nv), [joint.armature] * nv)
    jmodel = _axis_joint(_AXIS_JOINTS["revolute" if joint.type == "hinge" else "prismatic"],
                         joint.axis)
    return (jmodel, ([joint.effort], [_INF], [joint.lower], [joint.upper], [0.0],
                     [joint.damping]), [joint.armature])


# --- Pinocchio's arithmetic --------------------------------------------------------------------


def _from_two_vectors(target):
    """``Quaternion::FromTwoVectors(e_z, target).toRotationMatrix()``."""
    q = Quaternion.FromTwoVectors(np.array([0.0, 0.0, 1.0]), np.array(target, dtype=float))
    return np.asarray(q.matrix(), dtype=float)


def _fromto_placement(fromto):
    start, end = np.array(fromto[:3]), np.array(fromto[3:])
    return SE3.unchecked(_from_two_vectors(end - start), (start + end) / 2)


def _volume(kind, size):
    """``computeVolume``, operation for operation."""
    pi = math.pi
    if kind == "box":
        return size[0] * size[1] * size[2]
    if kind == "cylinder":
        return 2 * pi * math.pow(size[0], 2) * size[1]
    if kind == "sphere":
        return 4.0 / 3 * pi * math.pow(size[0], 3)
    if kind == "capsule":
        return 4.0 / 3 * pi * math.pow(size[0], 3) + 2 * pi * math.pow(size[0], 2) * size[1]
    return 4.0 / 3 * pi * (size[0] * size[1] * size[2])


def _shape_inertia(kind, mass, size):
    if kind == "box":
        return Inertia.FromBox(mass, *size)
    if kind == "cylinder":
        return Inertia.FromCylinder(mass, size[0], size[1] * 2)
    if kind == "ellipsoid":
        return Inertia.FromEllipsoid(mass, *size)
    if kind == "sphere":
        return Inertia.FromSphere(mass, size[0])
    if kind == "capsule":
        return Inertia.FromCapsule(mass, size[0], size[1] * 2)
    return Inertia.Identity()


def _place(aMb, bMc):
    """``aMb * bMc`` of two SE3s, rounded as Pinocchio's SE3 product (``_compose``)."""
    return _se3(_compose(_pose(aMb), _pose(bMc)))
