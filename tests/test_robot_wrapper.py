"""``pinref.RobotWrapper`` against ``pinocchio.RobotWrapper`` (3.8.0's robot_wrapper.py).

Oracle: pin's RobotWrapper built from the same URDF. Every method's return value (arrays,
SE3 as 4x4, Motion as 6-vectors, tuples entry by entry) agrees at 1e-12 * max(1, |ref|), at
three random states, with and without ``update_kinematics``, in each reference frame; the
attributes (q0, v0, nq, nv, data, geometry models and datas) as pin's; ``buildReducedRobot``
gives pin's reduced model and geometry; the viewer methods raise UnsupportedError.
"""

import warnings
from importlib.metadata import distribution
from pathlib import Path

import numpy as np
import pinocchio as pin
import pytest

import pinref
from conftest import assert_close
from pinref.errors import UnsupportedError

ROBOTS = {str(f.locate()).split("/robots/")[-1]: str(f.locate())
          for f in distribution("example-robot-data").files if f.suffix == ".urdf"}
SHARE = next(iter(ROBOTS.values())).split("/example-robot-data/robots/")[0]
URDFS = {"ur5": ROBOTS["ur_description/urdf/ur5_robot.urdf"],
         "quadruped": str(Path(__file__).parent / "model" / "urdf" / "quadruped.urdf")}
TOL = 1e-12
FRAMES = (pin.LOCAL, pin.WORLD, pin.LOCAL_WORLD_ALIGNED)


def _plain(x):
    """A return value as arrays: SE3 -> 4x4, Motion -> 6, tuples -> lists."""
    if isinstance(x, tuple):
        return [_plain(y) for y in x]
    if hasattr(x, "homogeneous"):
        return np.array(x.homogeneous, dtype=float)
    if hasattr(x, "vector"):
        return np.array(x.vector, dtype=float)
    return np.array(x, dtype=float)


def assert_same(got, ref, what):
    got, ref = _plain(got), _plain(ref)
    if isinstance(ref, list):
        assert isinstance(got, list) and len(got) == len(ref), what
        for k, (g, r) in enumerate(zip(got, ref)):
            assert_same(g, r, f"{what}[{k}]")
        return
    assert_close(got, ref, TOL, str(what))


def _robots(name, root):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pinref.errors.InertiaWarning)
        ours = pinref.RobotWrapper.BuildFromURDF(
            URDFS[name], [SHARE], None if root is None else pinref.JointModelFreeFlyer())
    theirs = pin.RobotWrapper.BuildFromURDF(
        URDFS[name], [SHARE], None if root is None else pin.JointModelFreeFlyer())
    return ours, theirs


@pytest.fixture(params=[("ur5", "free_flyer"), ("ur5", None), ("quadruped", "free_flyer")],
                ids=lambda p: f"{p[0]}-{p[1] or 'fixed'}")
def robots(request):
    return _robots(*request.param)


def _states(robot, n=3):
    rng = np.random.default_rng(0)
    pin.seed(0)
    model = robot.model
    for _ in range(n):
        q = pin.randomConfiguration(model, -np.ones(model.nq), np.ones(model.nq))
        yield q, rng.normal(size=model.nv), rng.normal(size=model.nv)


def test_attributes_as_pin(robots):
    ours, theirs = robots
    assert (ours.nq, ours.nv) == (theirs.nq, theirs.nv)
    assert_same(ours.q0, theirs.q0, "q0")
    assert_same(ours.v0, theirs.v0, "v0")
    assert isinstance(ours.model, pinref.Model) and isinstance(ours.data, pinref.Data)
    for kind in ("collision", "visual"):
        model, data = getattr(ours, f"{kind}_model"), getattr(ours, f"{kind}_data")
        assert model.ngeoms == getattr(theirs, f"{kind}_model").ngeoms
        assert len(data.oMg) == model.ngeoms
    empty = pinref.RobotWrapper()
    assert (empty.nq, empty.nv, empty.collision_model, empty.visual_data) == (0, 0, None, None)
    assert ours.index(ours.model.names[2]) == theirs.index(theirs.model.names[2]) == 2
    name = ours.model.frames[5].name
    assert ours.getFrameId(name) == theirs.model.getFrameId(name)


def test_dynamics_and_com_as_pin(robots):
    ours, theirs = robots
    for q, v, a in _states(theirs):
        for method, args in (("com", (q,)), ("com", (q, v)), ("com", (q, v, a)),
                             ("vcom", (q, v)), ("acom", (q, v, a)), ("Jcom", (q,)),
                             ("mass", (q,)), ("nle", (q, v)), ("gravity", (q,))):
            assert_same(getattr(ours, method)(*args), getattr(theirs, method)(*args),
                        f"{method}{len(args)}")
        ours.forwardKinematics(q)
        theirs.forwardKinematics(q)
        assert_same(ours.com(), theirs.com(), "com()")  # of the kinematics in data


def test_centroidal_as_pin(robots):
    """centroidal returns (hg, Ag, Ig), data's own objects in both."""
    ours, theirs = robots
    for q, v, a in _states(theirs):
        for method, args in (("centroidalMomentum", (q, v)), ("centroidalMap", (q,)),
                             ("centroidalMomentumVariation", (q, v, a))):
            assert_same(getattr(ours, method)(*args), getattr(theirs, method)(*args), method)
        got, ref = ours.centroidal(q, v), theirs.centroidal(q, v)
        assert_same(got[:2], ref[:2], "centroidal (hg, Ag)")
        assert_close(got[2].matrix(), ref[2].matrix(), TOL, "centroidal Ig")
        assert got[0] is ours.data.hg and got[2] is ours.data.Ig


def test_kinematics_as_pin(robots):
    ours, theirs = robots
    joint, frame = ours.model.njoints - 1, ours.model.nframes - 1
    for q, v, a in _states(theirs):
        assert_same(ours.placement(q, joint), theirs.placement(q, joint), "placement")
        assert_same(ours.framePlacement(q, frame), theirs.framePlacement(q, frame),
                    "framePlacement")
        for rf in FRAMES:
            ref = pinref.ReferenceFrame(int(rf))
            for method, args in (("velocity", (q, v, joint)),
                                 ("acceleration", (q, v, a, joint)),
                                 ("classicalAcceleration", (q, v, a, joint)),
                                 ("frameVelocity", (q, v, frame)),
                                 ("frameAcceleration", (q, v, a, frame)),
                                 ("frameClassicalAcceleration", (q, v, a, frame))):
                assert_same(getattr(ours, method)(*args, reference_frame=ref),
                            getattr(theirs, method)(*args, reference_frame=rf), (method, rf))
        # update_kinematics=False reads what the last call left: FK at q, v, a of another state.
        ours.forwardKinematics(q, v, a)
        theirs.forwardKinematics(q, v, a)
        other = np.zeros(ours.nq)
        assert_same(ours.placement(other, joint, False), theirs.placement(other, joint, False),
                    "placement (no update)")
        assert_same(ours.frameAcceleration(other, v, v, frame, update_kinematics=False),
                    theirs.frameAcceleration(other, v, v, frame, update_kinematics=False),
                    "frameAcceleration (no update)")
        ours.framesForwardKinematics(q)
        theirs.framesForwardKinematics(q)
        assert_same(ours.data.oMf[frame], theirs.data.oMf[frame], "oMf")


def test_jacobians_as_pin(robots):
    ours, theirs = robots
    joint, frame = ours.model.njoints - 1, ours.model.nframes - 1
    for q, _, _ in _states(theirs):
        assert_same(ours.computeJointJacobian(q, joint), theirs.computeJointJacobian(q, joint),
                    "computeJointJacobian")
        assert_same(ours.jointJacobian(q, joint), theirs.computeJointJacobian(q, joint),
                    "jointJacobian")
        assert_same(ours.computeFrameJacobian(q, frame), theirs.computeFrameJacobian(q, frame),
                    "computeFrameJacobian")
        assert_same(ours.frameJacobian(q, frame), theirs.computeFrameJacobian(q, frame),
                    "frameJacobian")
        assert_same(ours.computeJointJacobians(q), theirs.computeJointJacobians(q),
                    "computeJointJacobians")
        ours.framesForwardKinematics(q)
        theirs.framesForwardKinematics(q)
        for rf in FRAMES:
            ref = pinref.ReferenceFrame(int(rf))
            assert_same(ours.getJointJacobian(joint, ref), theirs.getJointJacobian(joint, rf),
                        ("getJointJacobian", rf))
            assert_same(ours.getFrameJacobian(frame, ref), theirs.getFrameJacobian(frame, rf),
                        ("getFrameJacobian", rf))


def test_geometry_placements_as_pin(robots):
    ours, theirs = robots
    for q, _, _ in _states(theirs, 2):
        for visual in (False, True):
            ours.updateGeometryPlacements(q, visual=visual)
            theirs.updateGeometryPlacements(q, visual=visual)
            data, ref = ((ours.visual_data, theirs.visual_data) if visual
                         else (ours.collision_data, theirs.collision_data))
            for k, placement in enumerate(ref.oMg):
                assert_same(data.oMg[k], placement, ("oMg", visual, k))
        ours.forwardKinematics(np.asarray(theirs.q0))
        theirs.forwardKinematics(theirs.q0)
        ours.updateGeometryPlacements()
        theirs.updateGeometryPlacements()
        for k, placement in enumerate(theirs.collision_data.oMg):
            assert_same(ours.collision_data.oMg[k], placement, ("oMg without q", k))


def test_build_reduced_robot_as_pin():
    from model.test_bridge import assert_fields_equal, model_fields
    from model.test_geometry import assert_geometry_equal, geometry_fields

    ours, theirs = _robots("ur5", "free_flyer")
    names = ["shoulder_lift_joint", "wrist_2_joint"]
    pin.seed(1)
    q = pin.randomConfiguration(theirs.model, -np.ones(theirs.nq), np.ones(theirs.nq))
    for lock, config in ((names, None), ([ours.index(n) for n in names], q)):
        reduced, ref = ours.buildReducedRobot(lock, config), theirs.buildReducedRobot(lock,
                                                                                       config)
        assert isinstance(reduced, pinref.RobotWrapper) and reduced.nq == ref.nq
        assert_fields_equal(model_fields(reduced.model), model_fields(ref.model), tol=TOL)
        for kind in ("collision_model", "visual_model"):
            assert_geometry_equal(geometry_fields(getattr(reduced, kind)),
                                  geometry_fields(getattr(ref, kind)))
    bare = pinref.RobotWrapper(ours.model)
    assert bare.buildReducedRobot(names).collision_model is None


def test_rebuild_data_and_viewer():
    ours, _ = _robots("quadruped", None)
    old = ours.data
    ours.rebuildData()
    assert ours.data is not old and isinstance(ours.data, pinref.Data)
    assert len(ours.visual_data.oMg) == ours.visual_model.ngeoms
    for call in (ours.initViewer, lambda: ours.display(ours.q0), ours.loadViewerModel,
                 lambda: ours.viewer):
        with pytest.raises(UnsupportedError, match="pinref has no viewer"):
            call()
