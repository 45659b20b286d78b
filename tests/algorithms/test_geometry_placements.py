"""``updateGeometryPlacements``, ``GeometryData`` and ``createDatas`` against pin 3.8.0.

Oracle: pin's ``updateGeometryPlacements`` on the same URDF (pin's own GeometryModels, meshes
loaded by coal) at the same q; every ``oMg`` agrees at 1e-12 * max(1, |ref|), with and
without q, at batch shapes (), (5,), (2, 3)."""
from importlib.metadata import distribution

import numpy as np
import pinocchio as pin
import pytest

import pinref
from pinref.errors import ModelError, NotComputedError

ROBOTS = {str(f.locate()).split("/robots/")[-1]: str(f.locate())
          for f in distribution("example-robot-data").files if f.suffix == ".urdf"}
SHARE = next(iter(ROBOTS.values())).split("/example-robot-data/robots/")[0]
FILES = ["ur_description/urdf/ur5_robot.urdf",
         "solo12.urdf"]


def pin_random_q(model, shape):
    """pin's random configurations in [-1, 1] (free-flyer translation), shape + (nq,)."""
    return np.stack([pin.randomConfiguration(model, -np.ones(model.nq), np.ones(model.nq))
                     for _ in range(int(np.prod(shape)))]).reshape(*shape, model.nq)


@pytest.mark.parametrize("path", FILES)
@pytest.mark.parametrize("shape", [(), (5,), (2, 3)])
@pytest.mark.parametrize("with_q", [True, False])
def test_update_geometry_placements_matches_pin(path, shape, with_q):
    urdf = ROBOTS[path]
    ref_models = pin.buildModelsFromUrdf(urdf, SHARE, pin.JointModelFreeFlyer())
    got_models = pinref.buildModelsFromUrdf(urdf, SHARE, pinref.JointModelFreeFlyer())
    q = pin_random_q(ref_models[0], shape)
    got_datas = pinref.createDatas(*got_models)
    assert isinstance(got_datas, tuple) and len(got_datas) == 3
    if not with_q:
        pinref.forwardKinematics(got_models[0], got_datas[0], q)
    for geometry_model, geometry_data in zip(got_models[1:], got_datas[1:]):
        assert isinstance(geometry_data, pinref.GeometryData)
        args = (got_models[0], got_datas[0], geometry_model, geometry_data)
        if with_q:
            pinref.updateGeometryPlacements(*args, q)
        else:
            pinref.updateGeometryPlacements(*args)
    for index in np.ndindex(shape):
        ref_datas = pin.createDatas(*ref_models)
        for k in (1, 2):
            pin.updateGeometryPlacements(ref_models[0], ref_datas[0], ref_models[k],
                                         ref_datas[k], q[index])
            assert len(got_datas[k].oMg) == len(ref_datas[k].oMg) > 0
            for got, ref in zip(got_datas[k].oMg, ref_datas[k].oMg):
                ref_h = ref.homogeneous
                got_h = got.homogeneous[index]
                assert np.all(np.abs(got_h - ref_h) <= 1e-12 * np.maximum(1, np.abs(ref_h)))


def test_geometry_data_starts_at_identity_and_none_passes_through():
    model, collision, _ = pinref.buildModelsFromUrdf(ROBOTS[FILES[0]], SHARE)
    data, collision_data, visual_data = pinref.createDatas(model, collision, None)
    assert visual_data is None and isinstance(data, pinref.Data)
    assert len(collision_data.oMg) == collision.ngeoms
    assert all(M.isIdentity() for M in collision_data.oMg)


def test_update_geometry_placements_refuses_what_pin_cannot_use():
    model, collision, visual = pinref.buildModelsFromUrdf(ROBOTS[FILES[0]], SHARE)
    data = model.createData()
    with pytest.raises(NotComputedError, match="forwardKinematics"):
        pinref.updateGeometryPlacements(model, data, collision, collision.createData())
    pinref.forwardKinematics(model, data, pinref.neutral(model))
    with pytest.raises(ModelError, match="createData"):
        pinref.updateGeometryPlacements(model, data, collision, visual.createData())
    with pytest.raises(ModelError, match="GeometryData"):
        pinref.updateGeometryPlacements(model, data, collision, data)


@pytest.mark.parametrize("reduced", [False, True])
def test_geometry_object_constructors_as_pin(reduced):
    """Full and reduced (no parent frame) constructors: the same fields and defaults as pin's,
    and the pendulum of Pinocchio's simulation examples placed as pin places it."""
    import coal

    placement = pin.SE3(pin.utils.rotate("x", 0.3), np.array([0.0, 0.1, 1.0]))
    got_placement = pinref.SE3(placement.rotation, placement.translation)
    frame = () if reduced else (0,)
    ref = pin.GeometryObject("ball", 1, *frame, placement, coal.Sphere(0.1))
    got = pinref.GeometryObject("ball", 1, *frame, got_placement, pinref.Sphere(0.1))
    assert got.parentFrame == ref.parentFrame and got.parentJoint == ref.parentJoint
    for field in ("meshColor", "meshScale"):
        np.testing.assert_array_equal(getattr(got, field), getattr(ref, field))
    assert (got.meshPath, got.overrideMaterial, got.meshTexturePath, got.disableCollision) == (
        ref.meshPath, ref.overrideMaterial, ref.meshTexturePath, ref.disableCollision)
    ref_model, got_model = pin.Model(), pinref.Model()
    ref_model.addJoint(0, pin.JointModelRX(), pin.SE3.Identity(), "joint_1")
    got_model.addJoint(0, pinref.JointModelRX(), pinref.SE3.Identity(), "joint_1")
    ref_geom, got_geom = pin.GeometryModel(), pinref.GeometryModel()
    ref_geom.addGeometryObject(ref)
    got_geom.addGeometryObject(got)
    ref_datas, got_datas = pin.createDatas(ref_model, ref_geom), pinref.createDatas(got_model,
                                                                                     got_geom)
    q = np.array([0.7])
    pin.updateGeometryPlacements(ref_model, ref_datas[0], ref_geom, ref_datas[1], q)
    pinref.updateGeometryPlacements(got_model, got_datas[0], got_geom, got_datas[1], q)
    ref_h = ref_datas[1].oMg[0].homogeneous
    assert np.all(np.abs(got_datas[1].oMg[0].homogeneous - ref_h)
                  <= 1e-12 * np.maximum(1, np.abs(ref_h)))
