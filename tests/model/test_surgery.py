"""``buildReducedModel`` and ``appendModel`` against Pinocchio 3.8.0's (algorithm/model.hxx).

Oracle: pin's reduced / appended model built from the same model (pinref's converted with
``to_pinocchio``, or pin's URDF parse of the same file). Every model field (``model_fields`` of
test_bridge.py: names, parents, children, subtrees, supports, joint types and indexes,
placements, inertias, frames with their types, parents, placements and inertias, limits,
friction, damping, armature, rotor parameters, gravity, nbodies, name) and every reference
configuration agree at 1e-12 * max(1, |ref|) (the placements and merged inertias are SE3
products and inertia merges, rounded as pin's to a few 1e-16); the geometry models agree
object by object (``geometry_fields`` of test_geometry.py). Models: the tutorial chain, the
sample manipulator, the humanoid (with its free-flyer locked too; tests/joints/test_composite.py
locks the composite root of the fixed-base humanoid), two random trees with every joint type (a JOINT frame added per
joint: pin needs one to lock a joint), talos locking its arms and panda locking its fingers
(with their collision and visual models), and locking the first, a middle, the last, every
other and every joint, and none.
"""

import warnings
from importlib.metadata import distribution

import numpy as np
import pinocchio as pin
import pytest

import pinref
from models import MODEL_NAMES, build
from pinref.compare import to_pinocchio
from pinref.compare.versions import differs
from pinref.errors import ArgumentTypeError, ModelError, NotNormalizedError, ShapeError
from test_bridge import _with_dynamics_parameters, assert_fields_equal, model_fields
from test_geometry import assert_geometry_equal, geometry_fields

TOL = 1e-12
ROBOTS = {str(f.locate()).split("/robots/")[-1]: str(f.locate())
          for f in distribution("example-robot-data").files if f.suffix == ".urdf"}
SHARE = next(iter(ROBOTS.values())).split("/example-robot-data/robots/")[0]


def _models(name, seed=0):
    """(pinref model, pin model) with equal numbers: non-default armature, friction, damping,
    rotor parameters and gravity, a JOINT frame for every joint, two reference configurations."""
    model = build(name)[0]
    for j in range(1, model.njoints):
        if not model.existFrame(model.names[j]):
            model.addJointFrame(j, -1)
    model = _with_dynamics_parameters(model, seed)
    pmodel = to_pinocchio(model)
    pin.seed(seed)
    for key in ("standing", "half_sitting"):
        q = pin.randomConfiguration(pmodel, -np.ones(model.nq), np.ones(model.nq))
        model.referenceConfigurations[key] = q
        pmodel.referenceConfigurations[key] = q
    return model, pmodel


def _lock_lists(model):
    n = model.njoints
    return {"none": [], "first": [1], "middle": [n // 2], "leaf": [n - 1],
            "every_other": list(range(2, n, 2)), "all": list(range(1, n))}


def assert_models_equal(got, ref):
    """Every field within TOL; the reference configurations equal (copied slices: exactly)."""
    worst = assert_fields_equal(model_fields(got), model_fields(ref), tol=TOL)
    ref_configs = {e.key(): np.asarray(e.data()) for e in ref.referenceConfigurations}
    assert got.referenceConfigurations.keys() == ref_configs.keys()
    for key, q in ref_configs.items():
        assert np.array_equal(got.referenceConfigurations[key], q), key
    return worst


@pytest.mark.parametrize("lock", ["none", "first", "middle", "leaf", "every_other", "all"])
@pytest.mark.parametrize("name", MODEL_NAMES)
def test_reduced_model_equals_pin(name, lock):
    model, pmodel = _models(name)
    locked = _lock_lists(model)[lock]
    before = model_fields(model)
    pin.seed(3)
    q = pin.randomConfiguration(pmodel, -np.ones(model.nq), np.ones(model.nq))
    reduced = pinref.buildReducedModel(model, locked, q)
    assert reduced.nq == model.nq - sum(model.nqs[j] for j in locked)
    assert_models_equal(reduced, pin.buildReducedModel(pmodel, locked, q))
    assert_fields_equal(model_fields(model), before)  # the input model is left alone
    # The keywords of pin's binding, and a column q.
    again = pinref.buildReducedModel(model=model, list_of_joints_to_lock=locked[::-1],
                                     reference_configuration=q[:, None])
    assert_fields_equal(model_fields(again), model_fields(reduced))


@pytest.mark.parametrize("name", ["tutorial", "tree0"])
def test_reduced_model_runs_the_algorithms_as_pin(name):
    """The reduced model is a working model: rnea and aba of pinref on it equal pin's on its."""
    model, pmodel = _models(name)
    locked = _lock_lists(model)["every_other"]
    q0 = pinref.neutral(model)
    reduced = pinref.buildReducedModel(model, locked, q0)
    preduced = pin.buildReducedModel(pmodel, locked, q0)
    rng = np.random.default_rng(1)
    pin.seed(2)
    q = pin.randomConfiguration(preduced, -np.ones(reduced.nq), np.ones(reduced.nq))
    v, a = rng.normal(size=reduced.nv), rng.normal(size=reduced.nv)
    tau = pinref.rnea(reduced, reduced.createData(), q, v, a)
    ref = pin.rnea(preduced, preduced.createData(), q, v, a)
    assert np.abs(tau - ref).max() <= TOL * max(1.0, np.abs(ref).max())
    ddq = pinref.aba(reduced, reduced.createData(), q, v, tau)
    ref = pin.aba(preduced, preduced.createData(), q, v, tau)
    assert np.abs(ddq - ref).max() <= 1e-11 * max(1.0, np.abs(ref).max())


def _robot(path, root=None):
    """(pinref (model, collision, visual), pin's) of an example-robot-data URDF; pin's SRDF-less
    models have no reference configuration, so one is added to both."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pinref.errors.InertiaWarning)
        ours = pinref.buildModelsFromUrdf(ROBOTS[path], [SHARE],
                                          None if root is None else pinref.JointModelFreeFlyer())
    theirs = pin.buildModelsFromUrdf(ROBOTS[path], [SHARE],
                                     None if root is None else pin.JointModelFreeFlyer())
    q = pin.neutral(theirs[0])
    ours[0].referenceConfigurations["zero"] = q
    theirs[0].referenceConfigurations["zero"] = q
    return ours, theirs


@pytest.mark.parametrize("robot, root, prefixes", [
    ("talos_reduced.urdf", "free_flyer", ("arm_left", "arm_right")),
    ("talos_reduced.urdf", None, ("arm_right_5", "arm_right_6", "arm_right_7", "torso")),
    ("panda_description/urdf/panda.urdf", None, ("panda_finger",)),
    ("panda_description/urdf/panda.urdf", "free_flyer", ("panda_joint2", "panda_joint7"))])
def test_reduced_robot_with_geometry_equals_pin(robot, root, prefixes):
    """A URDF robot (its frames carry inertias) with its collision and visual models: the
    overload with one GeometryModel and the one with a list."""
    (model, collision, visual), (pmodel, pcollision, pvisual) = _robot(robot, root)
    locked = [j for j in range(1, model.njoints) if model.names[j].startswith(prefixes)]
    assert locked
    pin.seed(5)
    q = pin.randomConfiguration(pmodel, -np.ones(model.nq), np.ones(model.nq))
    reduced, geometry = pinref.buildReducedModel(model, collision, locked, q)
    preduced, pgeometry = pin.buildReducedModel(pmodel, pcollision, locked, q)
    assert_models_equal(reduced, preduced)
    assert_geometry_equal(geometry_fields(geometry), geometry_fields(pgeometry))
    reduced, geometries = pinref.buildReducedModel(model, [visual, collision], locked, q)
    preduced, pgeometries = pin.buildReducedModel(pmodel, [pvisual, pcollision], locked, q)
    assert_models_equal(reduced, preduced)
    assert len(geometries) == 2
    for ours, theirs in zip(geometries, pgeometries):
        assert_geometry_equal(geometry_fields(ours), geometry_fields(theirs))


def test_reduced_model_errors():
    model, _ = _models("humanoid")
    q = pinref.neutral(model)
    for bad in ([0], [model.njoints], [-1]):
        with pytest.raises(ModelError, match=r"list_of_joints_to_lock.*\(1 \.\. "):
            pinref.buildReducedModel(model, bad, q)
    with pytest.raises(ModelError, match="twice; list each joint once"):
        pinref.buildReducedModel(model, [3, 2, 3], q)
    with pytest.raises(ArgumentTypeError, match="getJointId"):
        pinref.buildReducedModel(model, ["rleg_knee_joint"], q)
    with pytest.raises(ArgumentTypeError, match="list of joint ids"):
        pinref.buildReducedModel(model, 3, q)
    with pytest.raises(ShapeError, match=rf"reference_configuration.*\({model.nq},\) \(model.nq\)"):
        pinref.buildReducedModel(model, [2], q[:-1])
    with pytest.raises(ShapeError, match="reduce once per configuration"):
        pinref.buildReducedModel(model, [2], np.stack([q, q]))
    with pytest.raises(NotNormalizedError, match="pinref.normalize"):
        pinref.buildReducedModel(model, [2], np.full(model.nq, 2.0))
    with pytest.raises(ArgumentTypeError, match="from_pinocchio"):
        pinref.buildReducedModel(pin.buildSampleModelHumanoid(), [2], q)
    with pytest.raises(ArgumentTypeError, match="GeometryModel"):
        pinref.buildReducedModel(model, [pin.GeometryModel()], [2], q)
    bare = build("tree0")[0]  # no frames: pin would read past the end of model.frames
    with pytest.raises(ModelError, match=r"addJointFrame"):
        pinref.buildReducedModel(bare, [3], pinref.neutral(bare))


# --- appendModel ---------------------------------------------------------------------------


def _renamed(model, prefix):
    """``model`` with every joint and frame name but the universe's prefixed (in place)."""
    for j in range(1, model.njoints):
        model.names[j] = prefix + model.names[j]
    for k in range(1, model.nframes):
        frame = model.frames[k]  # pin's list hands out copies: set the frame back
        frame.name = prefix + frame.name
        model.frames[k] = frame
    return model


@pytest.mark.parametrize("where", ["universe", "first", "middle", "last"])
@pytest.mark.parametrize("pair", [("humanoid", "manipulator"), ("manipulator", "humanoid"),
                                  ("tree0", "tutorial"), ("tree1", "humanoid")])
def test_append_model_equals_pin(pair, where):
    (modelA, pmodelA), (modelB, pmodelB) = _models(pair[0], 1), _models(pair[1], 2)
    modelB, pmodelB = _renamed(modelB, "b_"), _renamed(pmodelB, "b_")
    pmodelB.referenceConfigurations["b_only"] = pmodelB.referenceConfigurations["standing"]
    modelB.referenceConfigurations["b_only"] = modelB.referenceConfigurations["standing"]
    frame = {"universe": 0, "first": 1, "middle": modelA.nframes // 2,
             "last": modelA.nframes - 1}[where]
    aMb = pinref.SE3.Random(rng=np.random.default_rng(4))
    appended = pinref.appendModel(modelA, modelB, frame, aMb)
    ref = pin.appendModel(pmodelA, pmodelB, frame, pin.SE3(aMb.homogeneous))
    assert_models_equal(appended, ref)
    assert appended.armature.tolist() == [0.0] * appended.nv  # pin does not copy armature


@pytest.mark.parametrize("frame_name", ["universe", "panda_link0", "panda_link5", "panda_hand"])
def test_append_model_with_geometry_equals_pin(frame_name):
    """ur5 (with its collision model) onto panda (with its own): URDF frames carry inertias."""
    (modelA, geometryA, _), (pmodelA, pgeometryA, _) = _robot(
        "panda_description/urdf/panda.urdf")
    (modelB, geometryB, _), (pmodelB, pgeometryB, _) = _robot(
        "ur_description/urdf/ur5_robot.urdf", "free_flyer")
    for m in (modelB, pmodelB):
        _renamed(m, "ur5_")
        m.referenceConfigurations["ur5_only"] = pin.neutral(pmodelB)
    frame = pmodelA.getFrameId(frame_name)
    aMb = pinref.SE3.Random(rng=np.random.default_rng(6))
    model, geometry = pinref.appendModel(modelA, modelB, geometryA, geometryB, frame, aMb)
    pmodel, pgeometry = pin.appendModel(pmodelA, pmodelB, pgeometryA, pgeometryB, frame,
                                        pin.SE3(aMb.homogeneous))
    if differs(pin, "append_model_frame_inertia"):
        # pin 4.x keeps the source's body where a frame's placed inertia sits (pinref follows
        # 3.8.0, compared field by field when the suite runs against it): the rest as pin's
        moved = {f.parentJoint for f in pmodelA.frames
                 if f.inertia.mass > 0 and not f.placement.isIdentity()}
        assert moved
        for j in moved:
            assert np.array_equal(pmodel.inertias[j].matrix(), pmodelA.inertias[j].matrix())
        got, ref = model_fields(model), model_fields(pmodel)
        for j in moved:
            for key in [k for k in ref if k.startswith(f"inertias[{j}].")]:
                got.pop(key), ref.pop(key)
        assert_fields_equal(got, ref, tol=TOL)
    else:
        assert_models_equal(model, pmodel)
    got, ref = geometry_fields(geometry), geometry_fields(pgeometry)
    for g, r in zip(got, ref):  # composed placements: SE3 products, rounded as pin's
        assert np.abs(g.pop("placement") - r.pop("placement")).max() <= TOL
        r["placement"] = g["placement"] = np.eye(4)
    assert_geometry_equal(got, ref)
    again = pinref.appendModel(modelA=modelA, modelB=modelB, frame_in_modelA=frame, aMb=aMb)
    assert_fields_equal(model_fields(again), model_fields(model))


def _pairs(geometry_model):
    return [(int(p.first), int(p.second)) for p in geometry_model.collisionPairs]


@pytest.mark.parametrize("frame_name", ["universe", "FL_UPPER_LEG", "HR_FOOT"])
@pytest.mark.parametrize("clash", [False, True])
def test_append_model_merges_collision_pairs_as_pin(frame_name, clash):
    """ur5 onto a frame of solo (a tree: the legs after the frame's come after ur5, so their
    objects' ids move): the result's collision pairs are pin's, in order and orientation. With
    ``clash``, ur5's ``base_link_0`` keeps the name of solo's, and both find solo's object by
    name, as pin's do."""
    (modelA, geometryA, _), (pmodelA, pgeometryA, _) = _robot("solo.urdf")
    (modelB, geometryB, _), (pmodelB, pgeometryB, _) = _robot(
        "ur_description/urdf/ur5_robot.urdf")
    for m, g in ((modelB, geometryB), (pmodelB, pgeometryB)):
        _renamed(m, "ur5_")
        for k, obj in enumerate(g.geometryObjects):
            if not (clash and obj.name == "base_link_0"):
                obj.name = "ur5_" + obj.name
                g.geometryObjects[k] = obj  # (pin's list hands out copies)
    for count, pairs in ((9, (geometryA, pgeometryA)), (6, (geometryB, pgeometryB))):
        n = pairs[0].ngeoms  # some pairs of distinct objects, in random order and orientation
        ids = np.random.default_rng(count).permutation(
            [(i, j) for i in range(n) for j in range(n) if i != j])[:count]
        for lib, g in zip((pinref, pin), pairs):
            for i, j in ids:
                g.addCollisionPair(lib.CollisionPair(int(i), int(j)))
    assert _pairs(geometryA) == _pairs(pgeometryA) and _pairs(geometryB) == _pairs(pgeometryB)
    assert [g.name for g in geometryB.geometryObjects] == [
        g.name for g in pgeometryB.geometryObjects]
    frame = pmodelA.getFrameId(frame_name)
    aMb = pinref.SE3.Random(rng=np.random.default_rng(7))
    _, geometry = pinref.appendModel(modelA, modelB, geometryA, geometryB, frame, aMb)
    _, pgeometry = pin.appendModel(pmodelA, pmodelB, pgeometryA, pgeometryB, frame,
                                   pin.SE3(aMb.homogeneous))
    assert [g.name for g in geometry.geometryObjects] == [
        g.name for g in pgeometry.geometryObjects]
    assert len(pgeometry.collisionPairs) > geometryA.ngeoms  # the cross pairs are there
    assert _pairs(geometry) == _pairs(pgeometry)
    assert np.array_equal(geometry.collisionPairMapping, pgeometry.collisionPairMapping)


def test_append_model_errors():
    modelA, modelB = pinref.buildSampleModelManipulator(), pinref.buildSampleModelHumanoid()
    M = pinref.SE3.Identity()
    with pytest.raises(ModelError, match="conflicting joint names"):
        pinref.appendModel(modelA, modelA, 0, M)
    with pytest.raises(ModelError, match=r"frame_in_modelA = 99 is not a frame of modelA"):
        pinref.appendModel(modelA, modelB, 99, M)
    with pytest.raises(ArgumentTypeError, match="getFrameId"):
        pinref.appendModel(modelA, modelB, "wrist", M)
    with pytest.raises(ArgumentTypeError, match="aMb must be one pinref SE3"):
        pinref.appendModel(modelA, modelB, 0, np.eye(4))
    with pytest.raises(ArgumentTypeError, match="from_pinocchio"):
        pinref.appendModel(modelA, pin.buildSampleModelHumanoid(), 0, M)
    with pytest.raises(ArgumentTypeError, match="multiple values for the argument 'aMb'"):
        pinref.appendModel(modelA, modelB, 0, M, aMb=M)
    with pytest.raises(ArgumentTypeError, match="got multiple values"):
        pinref.buildReducedModel(modelA, [1], pinref.neutral(modelA),
                                 list_of_joints_to_lock=[1])
    with pytest.raises(ArgumentTypeError, match="at most"):
        pinref.buildModelsFromUrdf("robot.urdf", None, None, False, None, None, False, 1)
    renamed = _renamed(pinref.buildSampleModelManipulator(), "b_")
    renamed.frames[3].name = modelA.frames[3].name
    renamed.frames[3].type = modelA.frames[3].type
    with pytest.raises(ModelError, match="conflicting frame names"):
        pinref.appendModel(modelA, renamed, 0, M)

