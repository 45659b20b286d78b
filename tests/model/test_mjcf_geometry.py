"""``buildGeomFromMJCF``, ``buildModelsFromMJCF`` and ``RobotWrapper.BuildFromMJCF`` against
pin 3.8.0: per object its name, parent joint and frame, placement, shape and size (Box,
Sphere, Capsule, Cylinder, Ellipsoid), mesh path and scale, colour, material and texture."""

import warnings
from importlib.resources import files

import numpy as np
import pinocchio as pin
import pytest

import pinref
from mjcf_check import MJCF_DIR, PIN_PARSER_IS_3_8_0
from test_geometry import assert_geometry_equal, geometry_fields

pytestmark = PIN_PARSER_IS_3_8_0

ASSETS = files("gymnasium") / "envs" / "mujoco" / "assets"
KINDS = {"visual": (pinref.GeometryType.VISUAL, pin.GeometryType.VISUAL),
         "collision": (pinref.GeometryType.COLLISION, pin.GeometryType.COLLISION)}
PATHS = [MJCF_DIR / "inertias.xml", MJCF_DIR / "orientations.xml", MJCF_DIR / "frames.xml",
         ASSETS / "humanoid.xml", ASSETS / "pusher.xml"]


def _fields(geometry_model):
    """test_geometry's fields plus an ellipsoid's radii."""
    out = geometry_fields(geometry_model)
    for g, fields in zip(geometry_model.geometryObjects, out):
        if hasattr(g.geometry, "radii"):
            fields["radii"] = np.array(g.geometry.radii, dtype=float)
    return out


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_geometry_matches_pin(path, kind):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pinref.errors.MJCFWarning)
        rmodel = pinref.buildModelFromMJCF(path)
        rgeom = pinref.buildGeomFromMJCF(rmodel, path, KINDS[kind][0])
    pmodel = pin.buildModelFromMJCF(str(path))
    pgeom = pin.buildGeomFromMJCF(pmodel, str(path), KINDS[kind][1])
    assert rgeom.ngeoms == pgeom.ngeoms > 0
    assert_geometry_equal(_fields(rgeom), _fields(pgeom))


def test_mesh_is_located_not_opened():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pinref.errors.MJCFWarning)
        model = pinref.buildModelFromMJCF(MJCF_DIR / "inertias.xml")
        geom = pinref.buildGeomFromMJCF(model, MJCF_DIR / "inertias.xml",
                                        pinref.GeometryType.VISUAL)
    mesh = geom.geometryObjects[geom.getGeometryId("meshed_0")]
    assert isinstance(mesh.geometry, pinref.Mesh)
    assert mesh.meshPath == str(MJCF_DIR / "meshes" / "part.stl")
    np.testing.assert_array_equal(mesh.meshScale, [0.5, 0.5, 0.5])


def test_visual_and_collision_kinds():
    """inertias.xml: the contype=conaffinity=0 sphere and mesh are visual only, the group 3 box
    collision only."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pinref.errors.MJCFWarning)
        model = pinref.buildModelFromMJCF(MJCF_DIR / "inertias.xml")
        visual, collision = (pinref.buildGeomFromMJCF(model, MJCF_DIR / "inertias.xml", kind)
                             for kind in (pinref.GeometryType.VISUAL,
                                          pinref.GeometryType.COLLISION))
    assert (visual.ngeoms, collision.ngeoms) == (12, 11)


def test_build_models_and_robot_wrapper():
    path = ASSETS / "humanoid.xml"
    model, collision, visual = pinref.buildModelsFromMJCF(path)
    pmodel, pcollision, pvisual = pin.buildModelsFromMJCF(str(path))
    assert (model.nq, collision.ngeoms, visual.ngeoms) == (pmodel.nq, pcollision.ngeoms,
                                                          pvisual.ngeoms)
    model, constraints, visual = pinref.buildModelsFromMJCF(
        MJCF_DIR / "constraints.xml", pinref.JointModelFreeFlyer(), "root",
        geometry_types=pinref.GeometryType.VISUAL, contacts=True)
    assert len(constraints) == 3 and visual.ngeoms == 4
    robot = pinref.RobotWrapper.BuildFromMJCF(path)
    assert (robot.nq, robot.nv, robot.visual_model.ngeoms) == (pmodel.nq, pmodel.nv,
                                                               pvisual.ngeoms)
    assert robot.data is not None
