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
