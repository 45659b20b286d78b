"""Build a Model from a URDF description, as ``pinocchio.buildModelFromUrdf`` does (3.8.0).

Mirrors ``pinocchio::urdf::details::parseRootTree`` / ``parseTree`` / ``convertFromUrdf``
(src/parsers/urdf/model.cpp) and the ``UrdfVisitor`` / ``UrdfVisitorWithRootJoint`` classes of
include/pinocchio/parsers/urdf/model.hxx, on top of what urdfdom 4 (the parser linked by
Pinocchio's wheels) reads from the XML. docs/urdf.md is the long version of this docstring.

Reading (urdfdom)::

    <robot name [version="1.0"]>    its direct <link> and <joint> children; the rest is ignored
    <link name>                     <inertial>?: <origin xyz rpy>?, <mass value>,
                                    <inertia ixx ixy ixz iyy iyz izz>
    <joint name type>               type: revolute continuous prismatic fixed floating planar;
                                    <parent link>, <child link>, <origin xyz rpy>?,
                                    <axis xyz>? (default 1 0 0), <limit lower upper effort
                                    velocity> (lower, upper default 0; required by revolute and
                                    prismatic), <dynamics damping friction>? (one at least)
    tree                            every link but the root is the child of one joint; the
                                    children of a link are visited in the order of their
                                    joints' names (urdfdom keeps the joints in a std::map)

Building (Pinocchio), depth first from the root link::

    root link      no root joint: a BODY frame on joint 0 carrying Y, so inertias[0] += Y
                   root joint:    addJoint(0, root_joint, Identity, "root_joint"), its JOINT
                                  frame, then the body as below
    movable joint  F = the BODY frame of the parent link (a placement on joint F.parentJoint)
                   addJoint(F.parentJoint, type(axis), F.placement * origin, name, limits);
                   JOINT frame; appendBodyToJoint(Y) unless Y is exactly zero; BODY frame
    fixed joint    FIXED_JOINT frame at F.placement * origin carrying Y (addFrame adds it to
                   inertias[F.parentJoint]: the link merges into the parent body); BODY frame
                   at the same placement

    Y    = Inertia(mass, inertial origin xyz, R I R^T), R from the inertial origin's rpy
    rpy -> quaternion (urdfdom, normalised) -> matrix (Eigen); products rounded as Eigen's
    axis = e_x, e_y or e_z when Eigen's isApprox(axis, e_k): RX / RUBX / PX ...; any other
           axis (-e_z too): the Unaligned joint about axis / |axis|

Security: expat reads the XML with every entity declaration refused, so neither an entity
expansion (billion laughs) nor an external entity can happen; no file but the one named is
opened (mesh and ``package://`` paths are never read).
"""

import math
import os
import stat
import sys
import warnings
from functools import partial
from xml.parsers import expat

import numpy as np

from ..errors import (ArgumentTypeError, DuplicateJointNameWarning, InertiaError,
                      InertiaWarning, MalformedInertialWarning, URDFError)
from ..joints import (JointModel, JointModelFreeFlyer, JointModelPlanar,
                      JointModelPrismaticUnaligned, JointModelPX, JointModelPY, JointModelPZ,
                      JointModelRevoluteUnaligned, JointModelRevoluteUnboundedUnaligned,
                      JointModelRUBX, JointModelRUBY, JointModelRUBZ, JointModelRX, JointModelRY,
                      JointModelRZ)
from ..spatial import SE3, Inertia
from ..spatial import _kernels as K
from ..spatial.physical import inconsistent, inertia_problems, principal_moments
from .frame import Frame, FrameType
from .geometry import (DEFAULT_COLOR, Box, Capsule, Convex, Cylinder, GeometryModel,
                       GeometryObject, GeometryType, Mesh, Sphere)
from .mimic import mimic_of
from .model import Model, bind_positional

UNIT_BOUND = 1.01
"""Pinocchio's configuration bound on each entry of a (cos, sin) pair or a quaternion of a
joint read from a URDF (continuous, planar and floating joints)."""

_ROBOT_CHILDREN = ("link", "joint", "material")  # what urdfdom reads of <robot>
JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")

# URDF joint type -> joint models about (or along) e_x, e_y, e_z and any other axis.
_AXIS_JOINTS = {
    "revolute": (JointModelRX, JointModelRY, JointModelRZ, JointModelRevoluteUnaligned),
    "continuous": (JointModelRUBX, JointModelRUBY, JointModelRUBZ,
                   JointModelRevoluteUnboundedUnaligned),
    "prismatic": (JointModelPX, JointModelPY, JointModelPZ, JointModelPrismaticUnaligned),
}
_UNIT_AXES = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
_IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
_ZERO3 = (0.0, 0.0, 0.0)
_IDENTITY_POSE = (_IDENTITY, _ZERO3)
_NORMAL_MIN = sys.float_info.min
_INERTIA_KEYS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
# --- public entry points -----------------------------------------------------------------


def buildModelFromUrdf(filename, *args, root_joint=None, root_joint_name="root_joint",
                       model=None, mimic=False, strict=False):
    """The Model of the URDF file ``filename``, equal to ``pinocchio.buildModelFromUrdf``'s.

    ``buildModelFromUrdf(filename[, root_joint[, root_joint_name]][, model][, mimic])``:
    the positional arguments of Pinocchio's overloads, or the keywords below.

    Parameters
    ----------
    filename : str or os.PathLike
        The URDF file; it is the only file read (meshes are ignored).
    root_joint : pinref JointModel, optional
        A joint between the universe and the root link, e.g. ``pinref.JointModelFreeFlyer()``.
        Without one the root link is welded to the universe and its inertia goes to
        ``model.inertias[0]``.
    root_joint_name : str
        The root joint's name (Pinocchio's default ``"root_joint"``).
    model : Model, optional
        Built into and returned (Pinocchio's "append to a given model"); a new one by default.
    mimic : bool
        Pinocchio's flag. False (the default): a ``<mimic>`` tag is ignored and the joint is an
        ordinary one, as in Pinocchio. True: a revolute, continuous or prismatic joint with a
        ``<mimic>`` is a JointModelMimic of its type following the named joint (scaling
        ``multiplier``, ``offset``), as in Pinocchio.
    strict : bool
        False (the default, as Pinocchio): links whose inertia no rigid body has (a negative
        principal moment, the triangle inequality broken; ``pinref.spatial.physical``) are
        loaded, and one InertiaWarning lists them all. True: they raise InertiaError instead.

    Returns
    -------
    Model

    Raises
    ------
    URDFError
        The file cannot be read, is not well-formed XML, declares an entity, or does not
        describe a valid URDF tree. The message names the element and its line.
    InertiaError
        With ``strict=True``: the links whose inertia no rigid body has, every one of them.

    Mirrors ``pinocchio::urdf::buildModel`` (parsers/urdf/model.hxx), Pinocchio 3.8.0.
    """
    path = _path(filename)
    options = _overload("buildModelFromUrdf", args, root_joint, root_joint_name, model, mimic)
    return _build(_read_file(path), path, *options, strict)


def buildModelFromXML(xml_string, *args, root_joint=None, root_joint_name="root_joint",
                      model=None, mimic=False, strict=False):
    """The Model of the URDF text ``xml_string`` (str or bytes), equal to
    ``pinocchio.buildModelFromXML``'s. Arguments and errors as ``buildModelFromUrdf``'s."""
    if not isinstance(xml_string, (str, bytes)):
        raise URDFError(f"buildModelFromXML: expected the URDF text (str or bytes), got "
                        f"{type(xml_string).__name__}; buildModelFromUrdf reads a file")
    options = _overload("buildModelFromXML", args, root_joint, root_joint_name, model, mimic)
    return _build(xml_string, "URDF string", *options, strict)


def _overload(function, args, root_joint, root_joint_name, model, mimic):
    """``(root_joint, root_joint_name, model, mimic)`` from Pinocchio's positional overloads
    ``[root_joint [, root_joint_name]] [, model] [, mimic]`` and the keywords."""
    rest = list(args)
    if rest and not isinstance(rest[0], (str, bool, Model)):
        root_joint = rest.pop(0)
        if rest and isinstance(rest[0], str):
            root_joint_name = rest.pop(0)
    if rest and isinstance(rest[0], Model):
        model = rest.pop(0)
    if rest and isinstance(rest[0], bool):
        mimic = rest.pop(0)
    if rest:
        raise URDFError(f"{function}: unexpected argument {rest[0]!r}; the arguments after the "
                        "file are [root_joint [, root_joint_name]] [, model] [, mimic]")
    return root_joint, root_joint_name, model, mimic


def link_inertia_problems(filename):
    """``[(link name, line, problem)]``: the links of the URDF file ``filename`` whose inertia
    no rigid body has, the list buildModelFromUrdf's InertiaWarning gives (``pinref check``'s
    model-consistency group reads it for a model loaded from a URDF)."""
    path = _path(filename)
    reader = _Reader(path)
    reader.robot(_parse_xml(_read_file(path), path, geometry=False))
    return [(link.attrib["name"], link.line, problem)
            for link, problem in reader.inertia_problems]


def _path(filename):
    """``filename`` as a str path, or URDFError naming what is wrong with it."""
    try:
        path = os.fspath(filename)
    except TypeError:
        raise URDFError(f"buildModelFromUrdf: the file name must be a str or os.PathLike, not "
                        f"{type(filename).__name__}; buildModelFromXML reads URDF text") from None
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if "\0" in path:
        raise URDFError(f"buildModelFromUrdf: the file name {path!r} holds a NUL byte, which no "
                        "file name can; pass the path without it")
    return path


def _read_file(path):
    """The bytes of the regular file ``path``. It is opened without blocking and checked to be
    a regular file before anything is read, so a directory, a FIFO or a device (/dev/zero)
    is refused at once instead of hanging or filling the memory."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise URDFError(f"cannot read the URDF file {path!r}: {error.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise URDFError(f"cannot read the URDF file {path!r}: it is not a regular file (a "
                            "directory, FIFO or device); pass the path of a .urdf file")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as error:
        raise URDFError(f"cannot read the URDF file {path!r}: {error.strerror}") from None
    finally:
        os.close(fd)


def _build(data, source, root_joint, root_joint_name, model, mimic, strict):
    """parseRootTree: read the robot, then add the root and walk the tree depth first; the
    links of non-physical inertia are reported after the build (raised before it if strict)."""
    if root_joint is not None and not isinstance(root_joint, JointModel):
        raise URDFError(f"root_joint must be a pinref joint model such as "
                        f"pinref.JointModelFreeFlyer(), not {K.type_name(root_joint)}")
    if root_joint is not None and not root_joint_name:
        raise URDFError("root_joint was given without a name: pass root_joint_name")
    reader = _Reader(source)
    name, links, joints = reader.robot(_parse_xml(data, source, geometry=False))
    root, children = _tree(reader, links, joints)
    if strict and reader.malformed:
        raise reader.malformed[0][0]
    if strict and reader.inertia_problems:
        raise InertiaError(reader.inertia_report("refused (strict=True)"))
    twin = joints.get(root_joint_name) if root_joint is not None else None
    if twin is not None and twin.type == "fixed":
        twin = None  # a FIXED_JOINT frame beside the root's JOINT frame: nothing clashes
    if strict and twin is not None:
        raise reader.error(twin.element, f"the root joint is named {root_joint_name!r} too; "
                           "pass another root_joint_name (strict=True refuses two joints of "
                           "one name)")

    builder = _Builder(name, Model() if model is None else model)
    body_frame = {root.name: builder.add_root(root, root_joint, root_joint_name)}
    stack = children[root.name][::-1]
    while stack:  # depth first, each link's joints in name order (parseTree's recursion)
        joint = stack.pop()
        link = links[joint.child]
        add = builder.add_fixed_joint_and_body if joint.type == "fixed" else \
            builder.add_joint_and_body
        if mimic and joint.mimic and joint.type in _MIMIC_TYPES:
            add = partial(builder.add_joint_and_body,
                          jmodel=_mimic_joint_model(reader, builder.model, joint))
        body_frame[link.name] = add(body_frame[joint.parent], joint, link)
        stack.extend(children[link.name][::-1])
    builder.finish()
    if len(body_frame) < len(links):
        lost = [name for name in links if name not in body_frame]
        raise reader.error(links[lost[0]].element, f"the links {lost} cannot be reached from "
                           f"the root link {root.name!r}: their joints form a cycle")
    if reader.malformed:
        warnings.warn(reader.malformed_report(), MalformedInertialWarning, stacklevel=3)
    if reader.inertia_problems:
        warnings.warn(reader.inertia_report("loaded as Pinocchio loads them; strict=True "
                                            "refuses them"), InertiaWarning, stacklevel=3)
    if twin is not None:
        first, second = [k for k, name in enumerate(builder.model.names)
                         if name == root_joint_name][:2]
        warnings.warn(
            f"{reader.where(twin.element)}: the root joint is named {root_joint_name!r} too; "
            f"loaded as Pinocchio loads it: two joints of that name (the root joint, id "
            f"{first}, which getJointId finds, and this one, id {second}), and no JOINT frame "
            f"for this one (a frame of that name and type exists), so its link "
            f"{twin.child!r} joins the root joint's body; pass another root_joint_name "
            "(strict=True refuses it)", DuplicateJointNameWarning, stacklevel=3)
    return builder.model


def buildGeomFromUrdf(model, filename, geom_type, geometry_model=None, package_dirs=None,
                      mesh_loader=None):
    """The visual or collision geometry of the URDF file ``filename`` for ``model`` (its Model,
    e.g. from buildModelFromUrdf), as ``pinocchio.buildGeomFromUrdf`` stores it.

    Parameters
    ----------
    model : Model
        Holds a BODY frame for each link (the geometry's parent frame).
    filename : str or os.PathLike
        The URDF file (meshes are located, never opened).
    geom_type : GeometryType
        ``GeometryType.VISUAL`` (each <visual>) or ``GeometryType.COLLISION`` (each
        <collision>).
    geometry_model : GeometryModel, optional
        Appended to and returned; a new one by default. Pinocchio's overloads without it take
        the package directories in its place: a str, path or list there is ``package_dirs``.
    package_dirs : str or list of str, optional
        Where ``package://`` and relative mesh paths are searched, before the directories of
        ``ROS_PACKAGE_PATH`` and ``AMENT_PREFIX_PATH``/share, as Pinocchio does.
    mesh_loader : ignored (Pinocchio's coal mesh loader; pinref loads no mesh).

    Returns
    -------
    GeometryModel
        One GeometryObject per element, links in the model's depth-first order, named
        ``<link>_<k>`` (k counts the link's visuals or collisions from 0).

    Raises
    ------
    URDFError
        Bad XML or URDF, a malformed <visual>/<collision>, a mesh that cannot be found, or a
        link the model has no BODY frame for.

    Mirrors ``pinocchio::urdf::buildGeom`` (parsers/urdf/geometry.hxx), Pinocchio 3.8.0.
    """
    if geom_type not in (GeometryType.VISUAL, GeometryType.COLLISION):
        raise URDFError(f"buildGeomFromUrdf: geom_type must be pinref.GeometryType.VISUAL or "
                        f"COLLISION, not {geom_type!r}")
    if isinstance(geometry_model, (str, os.PathLike, list, tuple)):
        geometry_model, package_dirs = None, geometry_model  # (model, file, type, dirs)
    if geometry_model is not None and not isinstance(geometry_model, GeometryModel):
        raise ArgumentTypeError(f"buildGeomFromUrdf: geometry_model must be a pinref "
                                f"GeometryModel (or the package directories), not "
                                f"{K.type_name(geometry_model)}")
    path = _path(filename)
    reader = _Reader(path)
    root_element = _parse_xml(_read_file(path), path)
    _, links, joints = reader.robot(root_element)
    root, children = _tree(reader, links, joints)
    materials = reader.materials(root_element, links)
    dirs = _search_dirs(package_dirs)
    body_frames = {}
    for k, frame in enumerate(model.frames):
        if frame.type == FrameType.BODY:
            body_frames.setdefault(frame.name, k)
    tag = "visual" if geom_type == GeometryType.VISUAL else "collision"
    geometry_model = GeometryModel() if geometry_model is None else geometry_model
    stack = [root]
    while stack:  # parseTreeForGeom: depth first, each link's children in joint name order
        link = stack.pop()
        stack.extend(links[joint.child] for joint in children[link.name][::-1])
        elements = link.element.all(tag)
        if not elements:
            continue
        if link.name not in body_frames:
            raise reader.error(link.element, "the model has no BODY frame of this link; pass "
                               "the Model built from the same URDF")
        frame_id = body_frames[link.name]
        frame = model.frames[frame_id]
        for k, element in enumerate(elements):
            geometry_model.addGeometryObject(reader.geometry_object(
                element, link, f"{link.name}_{k}", frame, frame_id, materials, dirs))
    return geometry_model


def buildModelsFromUrdf(filename, *args, **kwargs):
    """``(model, collision_model, visual_model)`` of the URDF file ``filename``, as
    ``pinocchio.buildModelsFromUrdf``: ``buildModelFromUrdf`` then ``buildGeomFromUrdf`` for
    each of ``geometry_types`` (default [COLLISION, VISUAL]; a single type gives
    ``(model, geometry_model)``).

    Arguments, positional in this order or by keyword: ``package_dirs=None, root_joint=None,
    verbose=False, meshLoader=None, geometry_types=None, mimic=False``; when the third
    positional argument is a str, it is ``root_joint_name`` and the order is
    ``package_dirs, root_joint, root_joint_name, verbose, ...`` (pinocchio.shortcuts' rule).
    ``strict`` (keyword) is passed to buildModelFromUrdf. ``verbose`` and ``meshLoader`` are
    accepted and ignored."""
    keys = ["package_dirs", "root_joint", "verbose", "meshLoader", "geometry_types", "mimic"]
    if len(args) >= 3 and isinstance(args[2], str):
        keys.insert(2, "root_joint_name")
    return _build_models(filename, **bind_positional("buildModelsFromUrdf", keys, args, kwargs))


def _build_models(filename, package_dirs=None, root_joint=None, root_joint_name=None,
                  verbose=False, meshLoader=None, geometry_types=None, mimic=False, *,
                  strict=False):
    model = buildModelFromUrdf(filename, root_joint=root_joint,
                               root_joint_name=root_joint_name or "root_joint", mimic=mimic,
                               strict=strict)
    if geometry_types is None:
        geometry_types = [GeometryType.COLLISION, GeometryType.VISUAL]
    elif not isinstance(geometry_types, (list, tuple)):
        geometry_types = [geometry_types]
    return (model, *(buildGeomFromUrdf(model, filename, kind, package_dirs=package_dirs)
                     for kind in geometry_types))


def _collision_checking(link, tag):
    """The names listed as ``<collision_checking><tag name="..."/>`` in ``link``: Pinocchio
    makes the cylinders named in <capsule> capsules of the same radius and length, and the
    meshes named in <convex> their convex hulls."""
    checking = link.first("collision_checking")
    return set() if checking is None else {c.attrib.get("name") for c in checking.all(tag)}


def _search_dirs(package_dirs):
    """Pinocchio's hint directories: ``package_dirs`` (a str or a list), then
    ``ROS_PACKAGE_PATH``'s directories, then ``AMENT_PREFIX_PATH``'s with /share appended."""
    if package_dirs is None:
        dirs = []
    elif isinstance(package_dirs, (str, os.PathLike)):
        dirs = [os.fspath(package_dirs)]
    else:
        dirs = [os.fspath(d) for d in package_dirs]
    dirs += [d for d in os.environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep) if d]
    dirs += [d + "/share" for d in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep)
             if d]
    return dirs


def _resource_path(name, dirs):
    """Pinocchio's ``retrieveResourcePath``: ``package://p`` and ``model://p`` -> the first
    ``dir + "/" + p`` that exists; ``file://p`` -> p; a relative path -> the first
    ``dir + "/" + path`` that exists; an absolute path as it is; "" when nothing exists.
    A scheme other than these raises URDFError. Only ``os.path.exists`` is asked."""
    scheme, separator, rest = name.partition("://")
    if separator:
        if scheme == "file":
            return rest
        if scheme not in ("package", "model"):
            raise URDFError(f"the resource {name!r} has the scheme {scheme!r}: only package://, "
                            "model:// and file:// are handled (as in Pinocchio)")
    elif os.path.isabs(name):
        return name
    else:
        rest = name
    return next((d + "/" + rest for d in dirs if os.path.exists(d + "/" + rest)), "")


# --- the model (Pinocchio's UrdfVisitor) -----------------------------------------------------


class _Builder:
    """Pinocchio's ``UrdfVisitor`` on a Model, in two parts so a load stays linear and cheap.

    Frames are added through ``add_frame``: ``Model.addFrame`` (a frame of an existing name and
    type is not added again: its id is returned) with an index of the (name, type) pairs
    instead of a scan of ``model.frames`` (docs/urdf.md, Speed). Placements are composed on
    nested tuples (``_compose``, Eigen's rounding). ``finish`` appends the new frames to
    ``model.frames`` (their placements and zero inertias views of one array each) and runs each
    ``inertias[joint] += M.act(Y)`` that Pinocchio's addFrame and appendBodyToJoint do, one at
    a time, recorded in ``merges`` in Pinocchio's order: one batched ``SE3.act``, then one
    batched ``+=`` for each rank (the k-th merge into every joint at once), so each joint's
    merges keep their order."""

    def __init__(self, name, model):
        self.model = model
        self.model.name = name
        self.frame_ids = {(f.name, f.type): k for k, f in enumerate(self.model.frames)}
        self.poses = [_pose(f.placement) for f in self.model.frames]
        self.frame_joints = [f.parentJoint for f in self.model.frames]
        self.new_frames = []  # (name, joint id, parent frame, type, Y or None), for finish
        self.merges = []  # (joint id, pose, Y), Pinocchio's order
        self.masses = {}  # joint id -> (its mass after the merges so far, whether it is zero)
        self.limits = []  # (joint id, its addJoint limits), written by finish

    def add_frame(self, name, joint_id, parent_frame, pose, frame_type, Y=None):
        """``model.addFrame(Frame(name, joint_id, parent_frame, pose, frame_type, Y))``: the
        frame's id; its inertia Y (zero by default) is to join the joint's body."""
        key = (name, frame_type)
        if key not in self.frame_ids:
            self.frame_ids[key] = len(self.poses)
            self.new_frames.append((name, joint_id, parent_frame, frame_type, Y))
            self.poses.append(pose)
            self.frame_joints.append(joint_id)
            self.merge(joint_id, pose, Y)
        return self.frame_ids[key]

    def merge(self, joint_id, pose, Y):
        """Record ``inertias[joint_id] += pose.act(Y)`` (Y None: zero). A zero Y is dropped
        where the merge leaves the inertia exactly as it is: while the joint's inertia is zero,
        and where its mass m has m (1 / max(m, eps)) == 1 (``Inertia +=`` then multiplies the
        lever by 1 and adds zeros)."""
        if joint_id not in self.masses:
            Y0 = self.model.inertias[joint_id]
            self.masses[joint_id] = (float(Y0.mass), not (Y0.mass or Y0.lever.any()
                                                          or Y0.inertia.any()))
        mass, zero = self.masses[joint_id]
        if Y is None and (zero or mass * (1.0 / max(mass, K.EPS)) == 1.0):
            return
        if Y is not None:
            self.masses[joint_id] = (mass + float(Y.mass), False)
        self.merges.append((joint_id, pose, Y))

    def add_root(self, root, root_joint, root_joint_name):
        """``addRootJoint``; returns the root link's BODY frame id."""
        if root_joint is None:
            return self.add_frame(root.name, self.frame_joints[0], 0, self.poses[0],
                                  FrameType.BODY, root.inertia)
        joint_id = self.model.addJoint(0, root_joint, SE3.Identity(), root_joint_name)
        return self.append_body(self.add_joint_frame(joint_id, 0), root.inertia, root.name)

    def add_joint_and_body(self, parent_frame, joint, link, jmodel=None):
        """``addJointAndBody``: the joint (``jmodel``: a mimic joint, which has no limits of its
        own), its JOINT frame and the link's body; the BODY frame id."""
        joint_id = self.model.addJoint(
            self.frame_joints[parent_frame], jmodel or _joint_model(joint),
            _se3(_compose(self.poses[parent_frame], joint.origin)), joint.name)
        if jmodel is None:
            self.limits.append((joint_id, _joint_limits(joint)))
        return self.append_body(self.add_joint_frame(joint_id, parent_frame), link.inertia,
                                link.name)

    def add_fixed_joint_and_body(self, parent_frame, joint, link):
        """``addFixedJointAndBody``: a FIXED_JOINT frame carrying the link's inertia (addFrame
        adds it to the parent joint's body) and the link's BODY frame; the BODY frame id."""
        joint_id = self.frame_joints[parent_frame]
        pose = _compose(self.poses[parent_frame], joint.origin)
        fixed_frame = self.add_frame(joint.name, joint_id, parent_frame, pose,
                                     FrameType.FIXED_JOINT, link.inertia)
        return self.add_frame(link.name, joint_id, fixed_frame, pose, FrameType.BODY)

    def add_joint_frame(self, joint_id, parent_frame):
        """``model.addJointFrame(joint_id, parent_frame)``."""
        return self.add_frame(self.model.names[joint_id], joint_id, parent_frame, _IDENTITY_POSE,
                              FrameType.JOINT)

    def append_body(self, joint_frame, Y, body_name, placement=None):
        """``UrdfVisitor::appendBodyToJoint`` (the body at ``placement`` in the joint, a pose;
        identity by default): Y joins the joint's body unless it is exactly zero
        (``Y.isZero(0)``); then the BODY frame."""
        joint_id = self.frame_joints[joint_frame]
        pose = self.poses[joint_frame]  # = pose * Identity, which Eigen rounds to pose exactly
        if placement is not None:
            pose = _compose(pose, placement)
        if Y.mass != 0.0 or Y.lever.any() or Y.inertia.any():
            self.merge(joint_id, pose, Y)
            self.model.nbodies += 1
        return self.add_frame(body_name, joint_id, joint_frame, pose, FrameType.BODY)

    def finish(self):
        """Append the new frames, write the joints' limits (addJoint's, one assignment per
        field) and run the recorded merges ``inertias[joint] += M.act(Y)``: every action in one
        batched call, then the k-th merge into every joint in one batched ``+=``, k = 0, 1, ..."""
        model = self.model
        poses = self.poses[len(model.frames):]
        R, p = np.array([pose[0] for pose in poses]), np.array([pose[1] for pose in poses])
        n = len(poses)
        m0, c0, I0 = np.zeros(n), np.zeros((n, 3)), np.zeros((n, 3, 3))
        model.frames.extend(
            Frame(name, joint_id, parent, SE3.unchecked(R[k], p[k]), frame_type,
                  Inertia.unchecked(m0[k, ...], c0[k], I0[k]) if Y is None else Y)
            for k, (name, joint_id, parent, frame_type, Y) in enumerate(self.new_frames))
        for k, (field, sizes, starts) in enumerate(_LIMIT_FIELDS):
            rows = [getattr(model, starts)[joint_id] + i for joint_id, _ in self.limits
                    for i in range(getattr(model, sizes)[joint_id])]
            getattr(model, field)[rows] = [x for _, limits in self.limits for x in limits[k]]
        if not self.merges:
            return
        joints = [joint_id for joint_id, _, _ in self.merges]
        rank, count = [], {}
        for joint_id in joints:
            rank.append(count.get(joint_id, 0))
            count[joint_id] = rank[-1] + 1
        slot = {joint_id: k for k, joint_id in enumerate(count)}
        zero = Inertia.Zero()
        bodies = [zero if Y is None else Y for _, _, Y in self.merges]
        acted = SE3.unchecked(np.array([pose[0] for _, pose, _ in self.merges]),
                              np.array([pose[1] for _, pose, _ in self.merges])).act(
            Inertia.unchecked(np.array([Y.mass for Y in bodies]),
                              np.array([Y.lever for Y in bodies]),
                              np.array([Y.inertia for Y in bodies])))
        start = [model.inertias[joint_id] for joint_id in count]
        m, c, I = (np.array([Y.mass for Y in start]), np.array([Y.lever for Y in start]),
                   np.array([Y.inertia for Y in start]))
        order = np.argsort(rank, kind="stable")
        where = np.array([slot[joint_id] for joint_id in joints])[order]
        bounds = np.cumsum([0] + [rank.count(k) for k in range(max(count.values(), default=0))])
        for lo, hi in zip(bounds[:-1], bounds[1:]):  # Inertia.__iadd__'s kernel, batched
            rows, into = order[lo:hi], where[lo:hi]
            m[into], c[into], I[into] = K.inertia_iadd(m[into], c[into], I[into],
                                                       acted.mass[rows], acted.lever[rows],
                                                       acted.inertia[rows])
        for k, joint_id in enumerate(count):
            model.inertias[joint_id] = Inertia.unchecked(m[k].copy(), c[k].copy(), I[k].copy())


def _joint_model(joint):
    """The joint model of a movable URDF joint (``UrdfVisitor::addJoint``'s axis test)."""
    if joint.type == "floating":
        return JointModelFreeFlyer()
    if joint.type == "planar":
        return JointModelPlanar()
    return _axis_joint(_AXIS_JOINTS[joint.type], joint.axis)


def _axis_joint(classes, axis):
    """``classes[k]()`` when ``axis`` is the unit axis e_k as Eigen's ``isApprox`` tells,
    otherwise ``classes[3]`` (the unaligned type) about ``axis`` normalized: the axis test of
    ``UrdfVisitor::addJoint`` and of the MJCF graph's ``addSoloJoint``."""
    for k, unit in enumerate(_UNIT_AXES):
        if _is_approx(axis, unit):
            return classes[k]()
    return classes[3](np.array(_normalized(axis)))


_MIMIC_TYPES = ("revolute", "continuous", "prismatic")


def _mimic_joint_model(reader, model, joint):
    """``UrdfVisitor::addMimicJoint``: with ``mimic=True``, a revolute, continuous or prismatic
    joint with ``<mimic joint="k" multiplier="s" offset="o"/>`` (s = 1, o = 0 by default)
    becomes a JointModelMimic of its own type following joint k, which must already be in the
    model (added before it, depth first). Other joints ignore their ``<mimic>``, as
    Pinocchio's parseTree does."""
    element = joint.element.first("mimic")
    name = reader.attribute(element, "joint", joint.element)
    if name not in model.names:
        raise reader.error(joint.element, f"its <mimic joint={name!r}> is not a joint added "
                           "before it (depth first from the root link); a joint can mimic only "
                           "a joint on the way to it or in an earlier branch")
    scaling, offset = (reader.numbers(element.attrib.get(key, default), 1, joint.element,
                                      f"<mimic {key}>")[0]
                       for key, default in (("multiplier", "1"), ("offset", "0")))
    mimicked = model.joints[model.getJointId(name)]
    wrapped = _joint_model(joint)
    if (wrapped.nq, wrapped.nv) != (mimicked.nq, mimicked.nv):
        raise reader.error(joint.element, f"a {joint.type} joint cannot mimic {name!r} "
                           f"({mimicked.shortname()}): their configuration sizes differ")
    return mimic_of(wrapped, mimicked, scaling, offset)


def _normalized(axis):
    """``axis / |axis|`` as Eigen's ``normalized()`` rounds it (axis / sqrt(squaredNorm)) where
    the squared norm is a normal double; otherwise (an axis like 1e-200 or 1e200, whose square
    under- or overflows, where Eigen returns the axis unchanged or zero) it is scaled by its
    largest entry first, so the result is a unit vector."""
    x, y, z = axis
    norm2 = x * x + y * y + z * z
    if _NORMAL_MIN <= norm2 < math.inf:
        norm = math.sqrt(norm2)
        return x / norm, y / norm, z / norm
    scale = max(abs(x), abs(y), abs(z))
    x, y, z = x / scale, y / scale, z / scale
    norm = math.sqrt(x * x + y * y + z * z)
    return x / norm, y / norm, z / norm


_LIMIT_FIELDS = (("effortLimit", "nvs", "idx_vs"), ("velocityLimit", "nvs", "idx_vs"),
                 ("lowerPositionLimit", "nqs", "idx_qs"), ("upperPositionLimit", "nqs", "idx_qs"),
                 ("friction", "nvs", "idx_vs"), ("damping", "nvs", "idx_vs"))


def _joint_limits(joint):
    """``(effort, velocity, lower, upper, friction, damping)`` as parseTree fills them:
    floating and planar joints get infinite bounds except 1.01 on the unit-norm entries and
    ignore <limit> and <dynamics>; a continuous joint bounds (cos, sin) by 1.01 and has infinite
    effort and velocity without <limit>."""
    inf = math.inf
    if joint.type == "floating":
        return ([inf] * 6, [inf] * 6, [-inf] * 3 + [-UNIT_BOUND] * 4,
                [inf] * 3 + [UNIT_BOUND] * 4, [0.0] * 6, [0.0] * 6)
    if joint.type == "planar":
        return ([inf] * 3, [inf] * 3, [-inf] * 2 + [-UNIT_BOUND] * 2,
                [inf] * 2 + [UNIT_BOUND] * 2, [0.0] * 3, [0.0] * 3)
    friction, damping = joint.dynamics
    if joint.type == "continuous":
        effort, velocity = (inf, inf) if joint.limit is None else joint.limit[2:]
        return ([effort], [velocity], [-UNIT_BOUND] * 2, [UNIT_BOUND] * 2, [friction],
                [damping])
    lower, upper, effort, velocity = joint.limit
    return [effort], [velocity], [lower], [upper], [friction], [damping]


# --- reading the URDF (urdfdom's rules) ------------------------------------------------------


class _Link:
    __slots__ = ("name", "element", "inertia", "parent_joint")


class _Joint:
    __slots__ = ("name", "element", "type", "parent", "child", "origin", "axis", "limit",
                 "dynamics", "mimic")


class _Reader:
    """Reads the elements of one document; every error names ``source``, the element (the
    <link> or <joint> a value belongs to) and its line."""

    def __init__(self, source):
        self.source = source
        self.inertia_problems = []  # (link element, problem), document order
        self.tensors = []  # (link element, rotational inertia as written), document order
        self.malformed = []  # (URDFError, what Pinocchio builds): <inertial>s urdfdom cannot read
        self.read_numbers = {}  # (text, count) -> the numbers, for ``numbers``

    def inertia_report(self, outcome):
        """The message listing every link of ``inertia_problems``, one a line."""
        count = len(self.inertia_problems)
        lines = [f'  <link name="{link.attrib["name"]}"> (line {link.line}): {problem}'
                 for link, problem in self.inertia_problems]
        return (f"{self.source}: {count} link{'s' if count > 1 else ''} with an inertia no "
                f"rigid body has, {outcome}:\n" + "\n".join(lines))

    def malformed_report(self):
        """The message listing every link of ``malformed``, one a line, with what Pinocchio
        builds for it."""
        count = len(self.malformed)
        lines = [f"  {str(error)[len(self.source) + 2:]}: loaded with {built}"
                 for error, built in self.malformed]
        return (f"{self.source}: {count} link{'s' if count > 1 else ''} whose <inertial> "
                "urdfdom cannot read, loaded as Pinocchio loads them (urdfdom keeps what it "
                "read before the error, the rest zero); strict=True refuses them:\n"
                + "\n".join(lines))

    def where(self, element):
        """``source, line N: <tag name="...">``, the start of a message about ``element``."""
        name = element.attrib.get("name")
        what = f'<{element.tag} name="{name}">' if name is not None else f"<{element.tag}>"
        return f"{self.source}, line {element.line}: {what}"

    def error(self, element, message):
        return URDFError(f"{self.where(element)}: {message}")

    def attribute(self, element, key, owner):
        """The required attribute ``key`` of ``element`` (a child of ``owner`` or owner)."""
        value = element.attrib.get(key)
        if value is None:
            where = "" if element is owner else f"<{element.tag}> "
            raise self.error(owner, f"{where}missing the required attribute {key!r}")
        return value

    def child(self, element, tag, owner):
        """The required child ``tag`` of ``element`` (``owner`` or a child of it)."""
        found = element.first(tag)
        if found is None:
            where = "" if element is owner else f"<{element.tag}> "
            raise self.error(owner, f"{where}missing the required <{tag}> element")
        return found

    def numbers(self, text, count, owner, what):
        """``count`` floats separated by blanks, as C++ ``istream >> double`` reads them:
        decimal, finite; no inf, nan, hex or digit separators; a single number (urdfdom's
        ``strToDouble``) with no blank after it. A tuple; each text is read once ("0" and
        "0 0 0" come back often)."""
        values = self.read_numbers.get((text, count))
        if values is None:
            values = self.read_numbers[text, count] = tuple(self.parse_numbers(text, count,
                                                                               owner, what))
        return values

    def parse_numbers(self, text, count, owner, what):
        parts = text.split()
        if count == 1 and text[-1:].isspace() and len(parts) == 1:
            raise self.error(owner, f"{what} = {text!r}: a blank after the number (urdfdom "
                             "reads one number to the end of the text)")
        if len(parts) != count:
            raise self.error(owner, f"{what} = {text!r}: expected {count} number"
                             f"{'s' if count > 1 else ''}, found {len(parts)}")
        try:
            values = [float(part) for part in parts]
        except ValueError:
            values = None
        if values is None or not text.isascii() or "_" in text or "n" in text or "N" in text:
            bad = next(p for p in parts if not _is_decimal(p))
            raise self.error(owner, f"{what}: {bad!r} is not a number")
        if not all(map(math.isfinite, values)):
            raise self.error(owner, f"{what} = {text!r} is out of the range of a double")
        return values

    def pose(self, element, owner):
        """``(R, p)`` of an <origin xyz rpy> (identity when absent) as nested tuples."""
        if element is None:
            return _IDENTITY_POSE
        p = self.position(element, owner)
        return self.rotation(element, owner), p

    def position(self, origin, owner):
        """p of an <origin xyz> (zero without xyz)."""
        xyz = origin.attrib.get("xyz")
        return _ZERO3 if xyz is None else self.numbers(xyz, 3, owner, "<origin> xyz")

    def rotation(self, origin, owner):
        """R of an <origin rpy> (identity without rpy)."""
        rpy = origin.attrib.get("rpy")
        if rpy is None:
            return _IDENTITY
        roll, pitch, yaw = self.numbers(rpy, 3, owner, "<origin> rpy")
        return _quaternion_matrix(*_rpy_quaternion(roll, pitch, yaw))

    def robot(self, root):
        """``(name, links, joints)`` of the <robot> element (dicts by name, document order)."""
        if root.tag != "robot":
            raise self.error(root, "the document's root element must be <robot>")
        name = self.attribute(root, "name", root)
        version = root.attrib.get("version")
        if version is not None:
            parts = version.split(".")
            if len(parts) != 2 or not all(p.isdigit() for p in parts) or (
                    int(parts[0]), int(parts[1])) != (1, 0):
                raise self.error(root, f"version = {version!r}: only URDF version 1.0 is "
                                       "supported")
        links, joints = {}, {}
        for element in root.all("link"):
            link = self.link(element)
            if link.name in links:
                raise self.error(element, f"a second link named {link.name!r} (the first is "
                                          f"at line {links[link.name].element.line})")
            links[link.name] = link
        if not links:
            raise self.error(root, "the robot has no <link>")
        if self.tensors:  # one batched eigenvalue call, then the sentences for the odd ones
            odd = inconsistent(principal_moments(np.array([I for _, I in self.tensors])))
            self.inertia_problems = [(link, problem) for (link, I), bad in zip(self.tensors, odd)
                                     if bad for problem in inertia_problems(I)]
        for element in root.all("joint"):
            joint = self.joint(element)
            if joint.name in joints:
                raise self.error(element, f"a second joint named {joint.name!r} (the first is "
                                          f"at line {joints[joint.name].element.line})")
            joints[joint.name] = joint
        return name, links, joints

    def link(self, element):
        link = _Link()
        link.name = self.attribute(element, "name", element)
        if not link.name:
            raise self.error(element, 'the link\'s name is empty (name=""); give the link a '
                             "name (joints and frames refer to it by name)")
        link.element = element
        link.parent_joint = None
        inertial = element.first("inertial")
        link.inertia = Inertia.Zero() if inertial is None else self.inertial(element, inertial)
        return link

    def inertial(self, link, inertial):
        """urdfdom's ``parseInertial``, then ``convertFromUrdf(Inertial)``: Inertia(mass, origin
        xyz, R I R^T), R from the origin's rpy.

        urdfdom reads the origin's xyz and rpy, <mass value> and the six numbers of <inertia>,
        in that order, and stops at the first it cannot read (missing, or not a number): it
        logs an error and keeps the link with what it had read, the rest zero (the rotational
        inertia once all six numbers are read). Pinocchio loads that link, and so does pinref,
        recording it in ``malformed`` (MalformedInertialWarning; URDFError with strict=True).
        A negative mass is refused. The rotational inertia as written goes to ``tensors``,
        which ``robot`` checks for one no rigid body has (Pinocchio checks neither)."""
        R, com, mass, I = _IDENTITY, _ZERO3, 0.0, None
        origin = inertial.first("origin")
        try:
            if origin is not None:
                com = self.position(origin, link)
                R = self.rotation(origin, link)
            value = self.attribute(self.child(inertial, "mass", link), "value", link)
            (mass,) = self.numbers(value, 1, link, "<mass> value")
            tensor = self.child(inertial, "inertia", link)
            xx, xy, xz, yy, yz, zz = [self.numbers(self.attribute(tensor, key, link), 1, link,
                                                   f"<inertia> {key}")[0]
                                      for key in _INERTIA_KEYS]
            I = ((xx, xy, xz), (xy, yy, yz), (xz, yz, zz))
        except URDFError as error:
            self.malformed.append((error, f"mass {mass:g} at ({com[0]:g}, {com[1]:g}, "
                                          f"{com[2]:g}) and a zero rotational inertia"))
        if mass < 0.0:
            raise self.error(link, f"<mass> value = {mass:g} is negative; a mass is >= 0")
        if I is None:
            return Inertia.unchecked(np.array(mass), np.array(com), np.zeros((3, 3)))
        self.tensors.append((link, I))
        if R != _IDENTITY:  # (R I R^T is I exactly for the identity)
            I = _rotated_inertia(R, I)
        return Inertia.unchecked(np.array(mass), np.array(com), np.array(I))

    def materials(self, robot, links):
        """{id(<visual>): (rgba or None, texture or None)} of every visual with a material, as
        urdfdom resolves them: the <robot>'s <material> children first, then the links in
        document order, where a visual's <material name> is the material of that name already
        known, else its own color/texture (which becomes known by that name unless the name is
        empty), else none."""
        known, out = {}, {}
        for element in robot.all("material"):
            name = self.attribute(element, "name", element)
            if name in known:
                raise self.error(element, f"a second material named {name!r}")
            known[name] = self.material(element, element)
        for link in links.values():
            for visual in link.element.all("visual"):
                material = visual.first("material")
                if material is None:
                    continue
                name = self.attribute(material, "name", link.element)
                own = self.material(material, link.element) if name not in known else None
                if own == (None, None):
                    continue
                if name and own is not None:
                    known[name] = own
                out[id(visual)] = known[name] if name else own
        return out

    def material(self, element, owner):
        """``(rgba, texture)`` of a <material>: <color rgba> as urdfdom's float Color (4 float32
        numbers) and <texture filename>, each None when absent."""
        color, texture = element.first("color"), element.first("texture")
        rgba = None
        if color is not None:
            values = self.numbers(self.attribute(color, "rgba", owner), 4, owner,
                                  "<color> rgba")
            rgba = tuple(float(x) for x in np.array(values, dtype=np.float32))
        filename = None if texture is None else texture.attrib.get("filename")
        return rgba, filename

    def geometry_object(self, element, link, name, frame, frame_id, materials, dirs):
        """The GeometryObject of one <visual> or <collision> of ``link`` (Pinocchio's
        ``addLinkGeometryToGeomModel``): placement = the link's BODY frame placement times the
        <origin>; the shape of <geometry>; for a visual with a material, its colour (black
        by default, urdfdom's Color) and texture, and overrideMaterial True."""
        placement = _se3(_compose(_pose(frame.placement),
                                  self.pose(element.first("origin"), link.element)))
        geometry, mesh_path, scale = self.shape(self.child(element, "geometry", link.element),
                                                link.element, dirs, element.attrib.get("name"))
        override, color, texture = False, DEFAULT_COLOR, ""
        if id(element) in materials:
            rgba, filename = materials[id(element)]
            override, color = True, (0.0, 0.0, 0.0, 1.0) if rgba is None else rgba
            texture = "" if filename is None else _resource_path(filename, dirs)
        return GeometryObject(name, frame.parentJoint, frame_id, placement, geometry, mesh_path,
                              scale, override, color, texture)

    def shape(self, geometry, owner, dirs, name):
        """``(shape, meshPath, meshScale)`` of a <geometry>: its first element, one of <box
        size>, <cylinder radius length>, <sphere radius>, <mesh filename scale>. A cylinder or
        a mesh whose <visual>/<collision> is called ``name`` may be a capsule or a convex mesh
        (``_collision_checking`` of the link ``owner``)."""
        shapes = [child for child in geometry.children]
        if not shapes:
            raise self.error(owner, "<geometry> is empty: it holds a box, cylinder, sphere or "
                             "mesh")
        shape = shapes[0]
        one = lambda key: self.numbers(self.attribute(shape, key, owner), 1, owner,  # noqa
                                       f"<{shape.tag}> {key}")[0]
        if shape.tag == "box":
            return Box(*self.numbers(self.attribute(shape, "size", owner), 3, owner,
                                     "<box> size")), "BOX", (1.0, 1.0, 1.0)
        if shape.tag == "cylinder" and name in _collision_checking(owner, "capsule"):
            return Capsule(one("radius"), one("length")), "CAPSULE", (1.0, 1.0, 1.0)
        if shape.tag == "cylinder":
            return Cylinder(one("radius"), one("length")), "CYLINDER", (1.0, 1.0, 1.0)
        if shape.tag == "sphere":
            return Sphere(one("radius")), "SPHERE", (1.0, 1.0, 1.0)
        if shape.tag == "mesh":
            filename = self.attribute(shape, "filename", owner)
            scale = shape.attrib.get("scale")
            scale = (1.0, 1.0, 1.0) if scale is None else self.numbers(scale, 3, owner,
                                                                        "<mesh> scale")
            path = _resource_path(filename, dirs)
            if not path or not os.path.exists(path):
                raise self.error(owner, f"the mesh {filename!r} could not be found (searched "
                                 f"{dirs}); pass the directory holding its package as "
                                 "package_dirs")
            kind = Convex if name in _collision_checking(owner, "convex") else Mesh
            return kind(path, scale), path, scale
        raise self.error(owner, f"<geometry> holds <{shape.tag}>; a URDF geometry is a box, "
                         "cylinder, sphere or mesh")

    def joint(self, element):
        joint = _Joint()
        joint.name = self.attribute(element, "name", element)
        joint.element = element
        joint.type = self.attribute(element, "type", element)
        if joint.type not in JOINT_TYPES:
            raise self.error(element, f"unknown joint type {joint.type!r}; a URDF joint is "
                             f"{', '.join(JOINT_TYPES[:-1])} or {JOINT_TYPES[-1]}")
        joint.parent = self.link_name(element, "parent")
        joint.child = self.link_name(element, "child")
        joint.origin = self.pose(element.first("origin"), element)
        joint.axis = _UNIT_AXES[0]
        axis = element.first("axis")
        if axis is not None and joint.type not in ("fixed", "floating"):
            xyz = axis.attrib.get("xyz")
            joint.axis = _ZERO3 if xyz is None else self.numbers(xyz, 3, element,
                                                                 "<axis> xyz")
        if joint.type in _AXIS_JOINTS and joint.axis == _ZERO3:
            raise self.error(element, "the <axis> is the zero vector; a joint axis needs a "
                             "direction")
        joint.limit = self.limit(element, joint.type)
        joint.dynamics = self.dynamics(element)
        joint.mimic = element.first("mimic") is not None
        return joint

    def link_name(self, joint, tag):
        element = joint.first(tag)
        if element is None or "link" not in element.attrib:
            raise self.error(joint, f"missing <{tag} link=...>: a joint joins a parent link "
                             "and a child link")
        return element.attrib["link"]

    def limit(self, joint, joint_type):
        """``(lower, upper, effort, velocity)`` of <limit>, or None without one."""
        limit = joint.first("limit")
        if limit is None:
            if joint_type in ("revolute", "prismatic"):
                raise self.error(joint, f"a {joint_type} joint needs a <limit> element (with "
                                 "effort and velocity)")
            return None
        bounds = [self.numbers(limit.attrib.get(key, "0"), 1, joint, f"<limit> {key}")[0]
                  for key in ("lower", "upper")]
        return tuple(bounds + [self.numbers(self.attribute(limit, key, joint), 1, joint,
                                            f"<limit> {key}")[0]
                               for key in ("effort", "velocity")])

    def dynamics(self, joint):
        """``(friction, damping)`` of <dynamics> (each 0 by default), (0, 0) without one."""
        dynamics = joint.first("dynamics")
        if dynamics is None:
            return 0.0, 0.0
        if "friction" not in dynamics.attrib and "damping" not in dynamics.attrib:
            raise self.error(joint, "<dynamics> has neither damping nor friction")
        return tuple(self.numbers(dynamics.attrib.get(key, "0"), 1, joint,
                                  f"<dynamics> {key}")[0] for key in ("friction", "damping"))


def _is_decimal(text):
    """Whether C++ ``istream >> double`` reads all of ``text``: [+-](d+[.d*] | .d+)[(e|E)[+-]d+]."""
    mantissa, _, exponent = text.replace("E", "e").partition("e")
    if mantissa[:1] in "+-":
        mantissa = mantissa[1:]
    if exponent[:1] in "+-":
        exponent = exponent[1:]
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction) and (whole + fraction).isdigit() and (whole + fraction).isascii()
    return bool(digits) and ("e" not in text.lower() or (exponent.isdigit()
                                                        and exponent.isascii()))


def _tree(reader, links, joints):
    """``(root link, children)``, children[link name] = the joints leaving it in the order of
    their names (urdfdom's ``initTree`` walks a std::map of joints; ``initRoot``)."""
    children = {name: [] for name in links}
    for name in sorted(joints):
        joint = joints[name]
        for end in (joint.parent, joint.child):
            if end not in links:
                raise reader.error(joint.element, f"the link {end!r} it names is not a <link> "
                                   "of the robot")
        child = links[joint.child]
        if child.parent_joint is not None:
            raise reader.error(joint.element, f"the link {joint.child!r} is already the child "
                               f"of the joint {child.parent_joint.name!r}: a link has one "
                               "parent joint")
        child.parent_joint = joint
        children[joint.parent].append(joint)
    roots = [link for link in links.values() if link.parent_joint is None]
    if not roots:
        raise URDFError(f"{reader.source}: no root link, every link is the child of a joint: "
                        "the joints form a cycle")
    if len(roots) > 1:
        raise reader.error(roots[1].element, f"two root links, {roots[0].name!r} and "
                           f"{roots[1].name!r}"
                           f"{' (and more)' if len(roots) > 2 else ''}: every link but one "
                           "must be the child of a joint")
    return roots[0], children


# --- XML, hardened ---------------------------------------------------------------------------


class _Element:
    """One XML element: ``tag``, ``attrib`` (dict), ``children`` (elements), ``line``."""

    __slots__ = ("tag", "attrib", "children", "line")

    def __init__(self, tag, attrib, line):
        self.tag, self.attrib, self.children, self.line = tag, attrib, [], line

    def first(self, tag):
        """The first child called ``tag`` (urdfdom reads that one only), or None."""
        for child in self.children:
            if child.tag == tag:
                return child
        return None

    def all(self, tag):
        return [child for child in self.children if child.tag == tag]


def _parse_xml(data, source, geometry=True, children=_ROBOT_CHILDREN):
    """The root element of ``data``, read by expat with every entity declaration refused.

    Entity declarations can only come in the DTD, before the root element, and an entity
    reference needs a declaration (the five predefined ones aside), so refusing declarations
    rules out both entity expansion and external entities; parameter entities are not parsed,
    and a DOCTYPE naming an external DTD is refused too (expat would skip it silently). An
    attribute-list declaration is refused: its defaults and value normalisation would change
    what the elements hold, and urdfdom (tinyxml2) reads no DTD. A BOM and blanks before the
    XML declaration, which urdfdom skips, are dropped first (line numbers still count them).
    Only the root's children whose tag is in ``children`` (a URDF's <link>, <joint> and
    <material>; None: all) are kept, with all they hold: the rest (<gazebo>, <transmission>,
    ...) is checked for well-formedness and dropped, and so are the links' <visual> and
    <collision> elements without ``geometry`` (the model reads none).
    """
    data, skipped_lines = _skip_before_declaration(data)
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    document = _Element("", {}, 0)
    stack = [document]

    def line():
        return parser.CurrentLineNumber + skipped_lines

    skipped = 0  # depth inside an element not kept (<gazebo>, <transmission>, ...)
    dropped = () if geometry else ("visual", "collision")

    def start(tag, attrib):
        nonlocal skipped
        depth = len(stack)
        if skipped or (depth == 2 and children is not None and tag not in children) or (
                depth == 3 and tag in dropped and stack[2].tag == "link"):
            skipped += 1
            return
        element = _Element(tag, attrib, line())
        stack[-1].children.append(element)
        stack.append(element)

    def end(tag):
        nonlocal skipped
        if skipped:
            skipped -= 1
        else:
            stack.pop()

    def refuse(name, *_):
        raise URDFError(f"{source}, line {line()}: the document declares the entity {name!r}; "
                        "entity declarations are refused (no entity expansion, no external "
                        "entity), and a URDF needs none")

    def refuse_external(context, base, system_id, public_id):
        raise URDFError(f"{source}, line {line()}: the reference to the external entity "
                        f"{system_id!r} is refused")

    def refuse_external_dtd(name, system_id, public_id, has_internal_subset):
        if system_id is not None or public_id is not None:
            raise URDFError(f"{source}, line {line()}: the DOCTYPE names the external DTD "
                            f"{system_id or public_id!r}, which is refused (it would not be "
                            "read)")

    def refuse_attlist(element, attribute, *_):
        raise URDFError(f"{source}, line {line()}: the DTD declares the attributes of "
                        f"<{element}> ({attribute!r}); attribute-list declarations are refused "
                        "(their defaults would change the model, and urdfdom reads no DTD): "
                        "remove the <!ATTLIST> and write the attributes in the elements")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.EntityDeclHandler = refuse
    parser.UnparsedEntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse_external
    parser.StartDoctypeDeclHandler = refuse_external_dtd
    parser.AttlistDeclHandler = refuse_attlist
    try:
        parser.Parse(data, True)
    except expat.ExpatError as error:
        raise URDFError(f"{source}, line {error.lineno + skipped_lines}, column "
                        f"{error.offset + 1}: not well-formed XML: "
                        f"{expat.ErrorString(error.code)}") from None
    except URDFError:
        raise
    except (LookupError, ValueError) as error:  # expat's refusal of an encoding it lacks
        raise URDFError(f"{source}: the XML declaration names an encoding expat cannot read "
                        f"({error}); a URDF is UTF-8 (urdfdom reads every file as UTF-8): "
                        'declare encoding="UTF-8" or leave the encoding out') from None
    return document.children[0]


def _skip_before_declaration(data):
    """``(data, lines)``: ``data`` without the BOM and blanks before an XML declaration (which
    expat refuses and urdfdom skips), and the number of lines dropped."""
    bom, blanks, declaration = (("\ufeff", " \t\r\n", "<?xml") if isinstance(data, str)
                                else (b"\xef\xbb\xbf", b" \t\r\n", b"<?xml"))
    body = data[len(bom):] if data.startswith(bom) else data
    rest = body.lstrip(blanks)
    if len(rest) == len(body) or not rest.startswith(declaration):
        return data, 0
    dropped = body[:len(body) - len(rest)]
    newline, cr = ("\n", "\r") if isinstance(data, str) else (b"\n", b"\r")
    return rest, dropped.count(newline) + dropped.count(cr) - dropped.count(cr + newline)


# --- Pinocchio's arithmetic, operation for operation -----------------------------------------


def _rpy_quaternion(roll, pitch, yaw):
    """urdfdom's ``Rotation::setFromRPY``: the (x, y, z, w) quaternion of
    Rz(yaw) Ry(pitch) Rx(roll) from the half-angle products, divided by its norm."""
    sr, cr = math.sin(roll / 2.0), math.cos(roll / 2.0)
    sp, cp = math.sin(pitch / 2.0), math.cos(pitch / 2.0)
    sy, cy = math.sin(yaw / 2.0), math.cos(yaw / 2.0)
    x = sr * cp * cy - cr * sp * sy
    y = cr * sp * cy + sr * cp * sy
    z = cr * cp * sy - sr * sp * cy
    w = cr * cp * cy + sr * sp * sy
    norm2 = x * x + y * y + z * z + w * w
    if norm2 <= 0.0:
        return 0.0, 0.0, 0.0, 1.0
    norm = math.sqrt(norm2)
    return x / norm, y / norm, z / norm, w / norm


def _quaternion_matrix(x, y, z, w):
    """Eigen's ``Quaternion::toRotationMatrix``: with (X, Y, Z) = 2 (x, y, z),
    R00 = 1 - (Y y + Z z), R01 = Y x - Z w, R02 = Z x + Y w, and so on."""
    X, Y, Z = 2.0 * x, 2.0 * y, 2.0 * z
    wX, wY, wZ = X * w, Y * w, Z * w
    xX, xY, xZ = X * x, Y * x, Z * x
    yY, yZ, zZ = Y * y, Z * y, Z * z
    return ((1.0 - (yY + zZ), xY - wZ, xZ + wY),
            (xY + wZ, 1.0 - (xX + zZ), yZ - wX),
            (xZ - wY, yZ + wX, 1.0 - (xX + yY)))


def _matmul3(A, B):
    """A B (3x3 nested sequences) rounded as Eigen's fixed-size product in Pinocchio's
    wheels: column by column, each ``_matvec3`` (rows 0 and 1 are one SIMD packet, summed
    (p0 + p1) + p2; row 2 is a scalar reduction, unrolled as p0 + (p1 + p2)). (Checked entry
    for entry against pin.)"""
    return tuple(zip(*(_matvec3(A, column) for column in zip(*B))))


def _matvec3(A, x):
    """A x rounded as Eigen's fixed-size product: (p0 + p1) + p2 in rows 0 and 1,
    p0 + (p1 + p2) in row 2."""
    return (A[0][0] * x[0] + A[0][1] * x[1] + A[0][2] * x[2],
            A[1][0] * x[0] + A[1][1] * x[1] + A[1][2] * x[2],
            A[2][0] * x[0] + (A[2][1] * x[1] + A[2][2] * x[2]))


def _transpose3(A):
    return tuple(zip(*A))


def _rotated_inertia(R, I):
    """``R I R^T`` (3x3 nested sequences) rounded as Pinocchio's (``_matmul3`` twice), made
    symmetric from its lower triangle, the one ``Symmetric3`` keeps."""
    L = _matmul3(_matmul3(R, I), _transpose3(R))
    return ((L[0][0], L[1][0], L[2][0]), (L[1][0], L[1][1], L[2][1]),
            (L[2][0], L[2][1], L[2][2]))


def _compose(aMb, bMc):
    """``aMb * bMc = (R1 R2, p1 + R1 p2)`` of two poses ``(R, p)`` (nested tuples), rounded as
    Pinocchio's SE3 product (R1 R2 is R1 exactly when R2 is the identity)."""
    (R1, p1), (R2, p2) = aMb, bMc
    R1p2 = _matvec3(R1, p2)
    return (R1 if R2 == _IDENTITY else _matmul3(R1, R2),
            (p1[0] + R1p2[0], p1[1] + R1p2[1], p1[2] + R1p2[2]))


def _pose(M):
    """The pose ``(R, p)`` (nested tuples) of the SE3 ``M``."""
    return tuple(map(tuple, M.rotation.tolist())), tuple(M.translation.tolist())


def _se3(pose):
    """The SE3 of the pose ``(R, p)``."""
    return SE3.unchecked(np.array(pose[0]), np.array(pose[1]))


def _is_approx(a, b, prec=1e-12):
    """Eigen's ``a.isApprox(b)``: |a - b|^2 <= prec^2 min(|a|^2, |b|^2)."""
    (a0, a1, a2), (b0, b1, b2) = a, b
    d0, d1, d2 = a0 - b0, a1 - b1, a2 - b2
    return d0 * d0 + d1 * d1 + d2 * d2 <= prec * prec * min(a0 * a0 + a1 * a1 + a2 * a2,
                                                             b0 * b0 + b1 * b1 + b2 * b2)
