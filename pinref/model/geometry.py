"""Geometry attached to a model's joints, as data (multibody/geometry.hpp, geometry-object.hpp).

``GeometryModel`` and ``GeometryObject`` mirror Pinocchio's classes with the same attribute
names: what ``pinocchio.buildGeomFromUrdf`` stores about each <visual> or <collision> of a URDF
(name, parent joint and frame, placement, the shape and its size, the mesh path and scale, the
colour and texture), and the collision pairs (``CollisionPair``, ``addCollisionPair``, ...).
There is no collision engine: a shape is plain numbers (Pinocchio's are coal objects), a mesh
is its resolved path and scale (Pinocchio loads the mesh file; pinref never opens it), and a
collision pair is only which two objects are to be tested. docs/urdf.md, "Geometry", has the
rules.
"""

import copy
import enum
import operator

import numpy as np

from ..errors import ArgumentTypeError, ArgumentValueError, ModelError
from ..spatial import SE3
from .frame import pin_printed

DEFAULT_COLOR = (0.9, 0.9, 0.9, 1.0)
"""``meshColor`` of a URDF geometry that no material colours (Pinocchio's URDF parser)."""

NO_PARENT_FRAME = 2**64 - 1
"""``parentFrame`` of a GeometryObject built without one (Pinocchio's max FrameIndex)."""


@pin_printed
class GeometryType(enum.IntEnum):
    """``pinocchio::GeometryType``: which geometries of a URDF a GeometryModel holds."""

    VISUAL = 0
    COLLISION = 1


# --- shapes (coal's primitive classes, as data) --------------------------------------------


class Box:
    """``coal.Box(x, y, z)``: a box of sides x, y, z centred on its frame; ``halfSide`` (3,)."""

    def __init__(self, x, y, z):
        self.halfSide = 0.5 * np.array([x, y, z], dtype=float)

    def __repr__(self):
        return f"Box(halfSide={self.halfSide!r})"


class Cylinder:
    """``coal.Cylinder(radius, lz)``: a cylinder along the frame's z axis, of length lz
    centred on the frame; ``radius`` and ``halfLength`` = lz / 2."""

    def __init__(self, radius, lz):
        self.radius, self.halfLength = float(radius), 0.5 * float(lz)

    def __repr__(self):
        return f"Cylinder(radius={self.radius!r}, halfLength={self.halfLength!r})"


class Capsule:
    """``coal.Capsule(radius, lz)``: a cylinder of length lz along z with hemispherical ends of
    ``radius``; ``halfLength`` = lz / 2 (the cylindrical part's)."""

    def __init__(self, radius, lz):
        self.radius, self.halfLength = float(radius), 0.5 * float(lz)

    def __repr__(self):
        return f"Capsule(radius={self.radius!r}, halfLength={self.halfLength!r})"


class Sphere:
    """``coal.Sphere(radius)``, centred on the frame."""

    def __init__(self, radius):
        self.radius = float(radius)

    def __repr__(self):
        return f"Sphere(radius={self.radius!r})"


class Ellipsoid:
    """``coal.Ellipsoid(rx, ry, rz)``: an ellipsoid of semi-axes ``radii`` (3,) centred on its
    frame (an MJCF ellipsoid geom)."""

    def __init__(self, rx, ry, rz):
        self.radii = np.array([rx, ry, rz], dtype=float)

    def __repr__(self):
        return f"Ellipsoid(radii={self.radii!r})"


class Mesh:
    """A mesh file by its path and ``scale`` (3,). Pinocchio holds the loaded triangles (a
    ``coal.BVHModelOBBRSS``); pinref keeps where they are: ``filename`` as resolved (equal
    to the GeometryObject's ``meshPath``)."""

    def __init__(self, filename, scale=(1.0, 1.0, 1.0)):
        self.filename, self.scale = str(filename), np.array(scale, dtype=float)

    def __repr__(self):
        return f"Mesh(filename={self.filename!r}, scale={self.scale!r})"


class Convex(Mesh):
    """The convex hull of the mesh ``filename`` (Pinocchio's ``coal.Convex``, made for a mesh
    named in its link's ``<collision_checking><convex name="..."/>``)."""

    def __repr__(self):
        return f"Convex(filename={self.filename!r}, scale={self.scale!r})"


# --- objects and models ---------------------------------------------------------------------


class CollisionPair:
    """``pinocchio::CollisionPair``: the ids ``first`` and ``second`` of two geometry objects of
    a GeometryModel, to be tested for collision. ``CollisionPair(first, second)`` (two different
    ids, as Pinocchio's constructor checks) or ``CollisionPair()`` (both ids 2^64 - 1, as pin's).
    Two pairs are equal when they hold the same two ids, in either order."""

    def __init__(self, first=NO_PARENT_FRAME, second=NO_PARENT_FRAME):  # (max ids, as pin's)
        self.first, self.second = _geometry_index(first, "first"), _geometry_index(second,
                                                                                   "second")
        if (first, second) != (NO_PARENT_FRAME, NO_PARENT_FRAME) and self.first == self.second:
            raise ArgumentValueError(f"CollisionPair({first}, {second}): the index of collision "
                                     "objects must not be equal (an object is not tested "
                                     "against itself)")

    def __eq__(self, other):
        return isinstance(other, CollisionPair) and {self.first, self.second} == {
            other.first, other.second}

    __hash__ = None  # (mutable, like Pinocchio's)

    def copy(self):
        return copy.copy(self)

    def __str__(self):
        """As Pinocchio prints one: ``collision pair (1,2)`` and a newline."""
        return f"collision pair ({self.first},{self.second})\n"

    __repr__ = __str__


def _geometry_index(index, what):
    """``index`` as a geometry id (an int >= 0), or a typed error naming ``what``."""
    try:
        value = operator.index(index)
    except TypeError:
        raise ArgumentTypeError(f"CollisionPair: {what} must be an int geometry id, not "
                                f"{type(index).__name__}") from None
    if value < 0:
        raise ArgumentValueError(f"CollisionPair: {what} = {value} is negative; a geometry id "
                                 "is >= 0 (Pinocchio raises OverflowError)")
    return value


class GeometryObject:
    """``pinocchio::GeometryObject``: ``geometry`` fixed to joint ``parentJoint`` at
    ``placement`` (in the joint's frame), created from frame ``parentFrame``.

    ``GeometryObject(name, parent_joint, parent_frame, placement, geometry, mesh_path="",
    mesh_scale=ones(3), override_material=False, mesh_color=(0, 0, 0, 1),
    mesh_texture_path="")``, Pinocchio's full constructor, or its reduced one without
    ``parent_frame`` (told by an SE3 in third place; ``parentFrame`` is then
    ``NO_PARENT_FRAME``, as pin's); ``disableCollision`` is False.
    """

    def __init__(self, name, parent_joint, *args, **options):
        if args and isinstance(args[0], SE3):
            args = (NO_PARENT_FRAME, *args)
        self._set(name, parent_joint, *args, **options)

    def _set(self, name, parent_joint, parent_frame, placement, geometry, mesh_path="",
             mesh_scale=(1.0, 1.0, 1.0), override_material=False, mesh_color=(0.0, 0.0, 0.0, 1.0),
             mesh_texture_path=""):
        if not isinstance(placement, SE3) or placement.shape != ():
            raise ModelError(f"GeometryObject({name!r}): placement must be one SE3")
        self.name = str(name)
        self.parentJoint = int(parent_joint)
        self.parentFrame = int(parent_frame)
        self.placement = placement
        self.geometry = geometry
        self.meshPath = str(mesh_path)
        self.meshScale = np.array(mesh_scale, dtype=float)
        self.overrideMaterial = bool(override_material)
        self.meshColor = np.array(mesh_color, dtype=float)
        self.meshTexturePath = str(mesh_texture_path)
        self.disableCollision = False

    def copy(self):
        return copy.deepcopy(self)

    def __repr__(self):
        return (f"GeometryObject(name={self.name!r}, parentJoint={self.parentJoint}, "
                f"parentFrame={self.parentFrame}, geometry={self.geometry!r})")


class GeometryModel:
    """``pinocchio::GeometryModel``: ``geometryObjects`` in insertion order, ``ngeoms``, and
    ``collisionPairs`` (CollisionPair, in the order they were added; no collision engine tests
    them here)."""

    def __init__(self):
        self.geometryObjects = []
        self.collisionPairs = []

    @property
    def ngeoms(self):
        return len(self.geometryObjects)

    def addGeometryObject(self, geometry_object, model=None):
        """Append ``geometry_object``; with ``model``, its ``parentJoint`` is set from its
        parent frame's joint, as Pinocchio's overload does. Returns its id."""
        if model is not None:
            if not 0 <= geometry_object.parentFrame < model.nframes:
                raise ModelError(f"addGeometryObject({geometry_object.name!r}): parent frame "
                                 f"{geometry_object.parentFrame} is not a frame of the model")
            geometry_object.parentJoint = model.frames[geometry_object.parentFrame].parentJoint
        self.geometryObjects.append(geometry_object)
        return self.ngeoms - 1

    def existGeometryName(self, name):
        return any(g.name == name for g in self.geometryObjects)

    def getGeometryId(self, name):
        """The id of the object called ``name``. Raises ModelError for an unknown name
        (Pinocchio returns ``ngeoms``)."""
        for k, g in enumerate(self.geometryObjects):
            if g.name == name:
                return k
        raise ModelError(f"no geometry object named {name!r}; the objects are "
                         f"{[g.name for g in self.geometryObjects]}")

    # --- collision pairs (GeometryModel's, Pinocchio 3.8.0) ----------------------------

    def addCollisionPair(self, pair):
        """Append a copy of ``pair`` unless an equal pair is there already."""
        if not self.existCollisionPair(pair):
            self.collisionPairs.append(pair.copy())

    def addAllCollisionPairs(self):
        """Every pair (i, j), i < j, of objects on different joints, in that order, in place of
        the pairs there were (two objects of one joint move together and are not tested)."""
        objects = self.geometryObjects
        self.collisionPairs = [CollisionPair(i, j) for i in range(len(objects))
                               for j in range(i + 1, len(objects))
                               if objects[i].parentJoint != objects[j].parentJoint]

    def removeCollisionPair(self, pair):
        """Remove the pair equal to ``pair``, if there is one."""
        k = self.findCollisionPair(pair)
        if k < len(self.collisionPairs):
            del self.collisionPairs[k]

    def removeAllCollisionPairs(self):
        self.collisionPairs = []

    def existCollisionPair(self, pair):
        """Whether a pair equal to ``pair`` is in ``collisionPairs``."""
        return self.findCollisionPair(pair) < len(self.collisionPairs)

    def findCollisionPair(self, pair):
        """The index in ``collisionPairs`` of the pair equal to ``pair``, or
        ``len(collisionPairs)`` when there is none (Pinocchio's convention)."""
        self._check_pair(pair)
        return next((k for k, known in enumerate(self.collisionPairs) if known == pair),
                    len(self.collisionPairs))

    def _check_pair(self, pair):
        """ArgumentTypeError for what is not a CollisionPair, ArgumentValueError for an id that
        is not an object's (Pinocchio raises for add and remove, reads out of bounds for find
        and exist)."""
        if not isinstance(pair, CollisionPair):
            raise ArgumentTypeError(f"expected a pinref.CollisionPair, not "
                                    f"{type(pair).__name__}; write pinref.CollisionPair(i, j)")
        for what in ("first", "second"):
            if getattr(pair, what) >= self.ngeoms:
                raise ArgumentValueError(
                    f"the input pair.{what} = {getattr(pair, what)} is larger than the number "
                    f"of geometries contained in the GeometryModel ({self.ngeoms}); add the "
                    "geometry objects before the pairs")

    @property
    def collisionPairMapping(self):
        """(ngeoms, ngeoms) int array: entry (i, j) and (j, i) is the index of the pair (i, j)
        in ``collisionPairs``, -1 where there is none."""
        mapping = np.full((self.ngeoms, self.ngeoms), -1)
        for k, pair in enumerate(self.collisionPairs):
            mapping[pair.first, pair.second] = mapping[pair.second, pair.first] = k
        return mapping

    def createData(self):
        """A ``GeometryData`` for this model (``GeometryModel::createData``)."""
        return GeometryData(self)

    def copy(self):
        return copy.deepcopy(self)

    def __str__(self):
        return f"Nb geometry objects = {self.ngeoms}\n"


class GeometryData:
    """``pinocchio::GeometryData`` without its collision part: ``oMg[k]``, the placement in the
    world of geometry object k, identity until ``updateGeometryPlacements`` writes it."""

    def __init__(self, geometry_model):
        if not isinstance(geometry_model, GeometryModel):
            raise ModelError("GeometryData(geometry_model): expected a pinref GeometryModel, "
                             f"got {type(geometry_model).__name__}")
        self.oMg = [SE3.Identity() for _ in range(geometry_model.ngeoms)]

    def copy(self):
        return copy.deepcopy(self)
