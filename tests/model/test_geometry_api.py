"""The geometry and version API of Pinocchio's other unit tests, against pin 3.8.0's.

Oracle: pin itself, on the same inputs: ``CollisionPair`` (equality in either order, copy,
printing, the refused equal ids), a GeometryModel's collision pairs (``addCollisionPair``,
``addAllCollisionPairs``, ``removeCollisionPair``, ``existCollisionPair``,
``findCollisionPair``, ``collisionPairMapping``) after every step of a random sequence on the
collision model of a URDF, the geometry ids by name, ``buildGeomFromUrdf``'s overloads that
take a GeometryModel to fill or the package directories in its place (bindings_geometry_model
and bindings_geometry_model_urdf of Pinocchio's unit tests), and the version functions.
"""

from pathlib import Path

import numpy as np
import pinocchio as pin
import pytest

import pinref
from pinref.errors import ArgumentTypeError, ArgumentValueError
from test_geometry import ROBOTS, SHARE, geometry_fields

GEOMETRY_URDF = str(Path(__file__).parent / "urdf" / "geometry.urdf")
ROMEO = ROBOTS["romeo_description/urdf/romeo_small.urdf"]


def _collision_models(path, package_dirs=(SHARE,)):
    """(pinref, pin) collision GeometryModels of ``path``."""
    rmodel, pmodel = pinref.buildModelFromUrdf(path), pin.buildModelFromUrdf(path)
    return (pinref.buildGeomFromUrdf(rmodel, path, pinref.GeometryType.COLLISION,
                                     package_dirs=list(package_dirs)),
            pin.buildGeomFromUrdf(pmodel, path, pin.GeometryType.COLLISION,
                                  package_dirs=list(package_dirs)))


def _pairs(geometry_model):
    return [(int(p.first), int(p.second)) for p in geometry_model.collisionPairs]


def test_collision_pairs_equal_in_either_order_copy_and_print_as_pins():
    for a, b in [((1, 2), (1, 2)), ((1, 2), (2, 1)), ((1, 2), (3, 4)), ((1, 2), (1, 3))]:
        mine, theirs = (pinref.CollisionPair(*a), pinref.CollisionPair(*b)), (
            pin.CollisionPair(*a), pin.CollisionPair(*b))
        assert (mine[0] == mine[1], mine[0] != mine[1]) == (theirs[0] == theirs[1],
                                                            theirs[0] != theirs[1])
        assert str(mine[0]) == str(theirs[0]) and repr(mine[0]) == repr(theirs[0])
    c1 = pinref.CollisionPair(1, 2)
    c2 = c1.copy()
    assert c1 == c2
    c2.second = 3
    assert c1 != c2 and c1.second == 2
    default, pin_default = pinref.CollisionPair(), pin.CollisionPair()
    assert (default.first, default.second) == (pin_default.first, pin_default.second)
    with pytest.raises(ValueError, match="must not be equal"):
        pin.CollisionPair(1, 1)
    with pytest.raises(ArgumentValueError, match="must not be equal"):
        pinref.CollisionPair(1, 1)
    with pytest.raises(ArgumentValueError, match="negative"):
        pinref.CollisionPair(-1, 1)
    with pytest.raises(ArgumentTypeError, match="int geometry id"):
        pinref.CollisionPair(0.5, 1)


@pytest.mark.parametrize("path", [GEOMETRY_URDF, ROMEO], ids=["geometry.urdf", "romeo_small"])
def test_collision_pairs_follow_pins_step_by_step(path):
    """addAllCollisionPairs (every i < j on different joints, replacing the pairs there were),
    then a random sequence of add, remove, find and exist: the pairs, their order and the
    mapping equal pin's after every step."""
    mine, theirs = _collision_models(path)
    n = mine.ngeoms
    assert n == theirs.ngeoms and n >= 4
    mine.addCollisionPair(pinref.CollisionPair(1, 0))
    theirs.addCollisionPair(pin.CollisionPair(1, 0))
    for geometry_model in (mine, theirs):
        geometry_model.addAllCollisionPairs()
    assert _pairs(mine) == _pairs(theirs) and len(_pairs(mine)) > 0
    assert np.array_equal(mine.collisionPairMapping, theirs.collisionPairMapping)
    rng = np.random.default_rng(7)
    for step in range(60):
        i, j = (int(x) for x in rng.choice(n, 2, replace=False))
        action = ["addCollisionPair", "removeCollisionPair", "findCollisionPair",
                  "existCollisionPair"][step % 4]
        got = getattr(mine, action)(pinref.CollisionPair(i, j))
        ref = getattr(theirs, action)(pin.CollisionPair(i, j))
        assert got == ref, (step, action, i, j)
        assert _pairs(mine) == _pairs(theirs), (step, action, i, j)
        assert np.array_equal(mine.collisionPairMapping, theirs.collisionPairMapping)
    for geometry_model in (mine, theirs):
        geometry_model.removeAllCollisionPairs()
    assert _pairs(mine) == _pairs(theirs) == []


def test_a_pair_past_the_objects_is_refused_naming_the_fix():
    """pin raises for add and remove (and reads out of bounds, a crash, for find and exist);
    pinref raises for all four, a ValueError as pin's."""
    mine, theirs = _collision_models(GEOMETRY_URDF)
    n = mine.ngeoms
    for action in ("addCollisionPair", "removeCollisionPair"):
        with pytest.raises(ValueError, match="pair.second is larger than the number of geom"):
            getattr(theirs, action)(pin.CollisionPair(0, n))
    for action in ("addCollisionPair", "removeCollisionPair", "findCollisionPair",
                   "existCollisionPair"):
        with pytest.raises(ArgumentValueError, match=f"pair.second = {n} is larger.*add the"):
            getattr(mine, action)(pinref.CollisionPair(0, n))
        with pytest.raises(ArgumentTypeError, match="CollisionPair"):
            getattr(mine, action)((0, 1))


def test_geometry_ids_by_name_as_pins():
    mine, theirs = _collision_models(GEOMETRY_URDF)
    for k, geometry_object in enumerate(theirs.geometryObjects):
        assert mine.getGeometryId(geometry_object.name) == theirs.getGeometryId(
            geometry_object.name) == k
        assert mine.existGeometryName(geometry_object.name)
    assert mine.existGeometryName("no such object") is theirs.existGeometryName(
        "no such object") is False


@pytest.mark.parametrize("dirs", ["list", "str", "path"])
def test_build_geom_from_urdf_fills_a_given_geometry_model_or_takes_the_dirs_in_its_place(dirs):
    """bindings_geometry_model_urdf's calls: (model, file, type, dirs) and (model, file, type,
    geometry_model, dirs), the directories a list, a str or a Path; the objects equal pin's."""
    package_dirs = {"list": [SHARE, "wrong/hint"], "str": SHARE, "path": Path(SHARE)}[dirs]
    path = Path(ROMEO)
    rmodel = pinref.buildModelFromUrdf(path, pinref.JointModelFreeFlyer())
    pmodel = pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer())
    ref = geometry_fields(pin.buildGeomFromUrdf(pmodel, str(path), pin.GeometryType.COLLISION,
                                                package_dirs=package_dirs))
    kind = pinref.GeometryType.COLLISION
    given = pinref.GeometryModel()
    assert pinref.buildGeomFromUrdf(rmodel, path, kind, given, package_dirs) is given
    for built in (given, pinref.buildGeomFromUrdf(rmodel, path, kind, package_dirs)):
        got = geometry_fields(built)
        assert [g["name"] for g in got] == [g["name"] for g in ref]
        assert [g["meshPath"] for g in got] == [g["meshPath"] for g in ref]
        assert all(np.array_equal(a["placement"], b["placement"]) or np.allclose(
            a["placement"], b["placement"], rtol=0, atol=1e-15) for a, b in zip(got, ref))
    with pytest.raises(ArgumentTypeError, match="geometry_model must be a pinref GeometryMod"):
        pinref.buildGeomFromUrdf(rmodel, path, kind, 3)


def test_version_functions_answer_for_pinocchio_3_8_0():
    """pin 3.8.0's own answers (under pin 4.1.0, the reference of the second test run, pinref
    still mirrors 3.8.0: its answers are compared with 3.8.0's numbers)."""
    assert pinref.__raw_version__ == "3.8.0" and pinref.printVersion() == "3.8.0"
    assert pinref.printVersion("-") == "3-8-0"
    reference = pin.__raw_version__ == "3.8.0"
    grid = [(3, 8, 0), (3, 8, 1), (3, 7, 9), (3, 9, 0), (2, 99, 99), (4, 0, 0), (0, 0, 0)]
    answers = [(3, 8, 0) >= version for version in grid]
    assert answers == [True, False, True, False, True, False, True]
    if reference:
        assert answers == [pin.checkVersionAtLeast(*version) for version in grid]
        assert pinref.printVersion("-") == pin.printVersion("-")
    assert [pinref.checkVersionAtLeast(*version) for version in grid] == answers
    with pytest.raises(ArgumentTypeError, match="ints"):
        pinref.checkVersionAtLeast(3, "8", 0)
