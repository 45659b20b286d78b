"""Model and Data against Pinocchio 3.8.0: the sample models field by field, the building API
called identically in both libraries, Data's initial values, and unknown names."""

import numpy as np
import pinocchio as pin
import pytest

import pinref
from models import MODEL_NAMES, build, caches
from pinref import errors
from pinref.compare.versions import differs
from test_bridge import assert_fields_equal, model_fields


@pytest.mark.parametrize("ref_build, pin_build", [
    (pinref.buildSampleModelManipulator, pin.buildSampleModelManipulator),
    (pinref.buildSampleModelHumanoid, pin.buildSampleModelHumanoid)], ids=["manipulator",
                                                                           "humanoid"])
def test_sample_models_equal_pins(ref_build, pin_build):
    assert_fields_equal(model_fields(ref_build()), model_fields(pin_build()), tol=1e-15)


def test_tutorial_model_shape():
    model = pinref.buildTutorialModel()
    assert (model.nq, model.nv, model.njoints) == (9, 8, 4)
    assert model.names == ["universe", "root_joint", "ry1_joint", "ry2_joint"]
    assert [j.shortname() for j in model.joints[1:]] == [
        "JointModelFreeFlyer", "JointModelRY", "JointModelRY"]
    assert all(Y.mass > 0 for Y in model.inertias[1:])


def _build_both():
    """The same calls on a pinref and a pinocchio Model; returns both and the ids returned."""
    out = []
    for lib in (pinref, pin):
        model = lib.Model()
        rng = np.random.default_rng(4)
        ids = []
        M = lib.SE3(np.eye(3), np.array([0.1, 0.2, 0.3]))
        a = model.addJoint(0, lib.JointModelFreeFlyer(), lib.SE3.Identity(), "base")
        b = model.addJoint(a, lib.JointModelRY(), M, "hip", np.ones(1) * 5, np.ones(1) * 2,
                           -np.ones(1), np.ones(1))
        c = model.addJoint(b, lib.JointModelPrismaticUnaligned(np.array([0.0, 0.6, 0.8])), M,
                           "slide")
        d = model.addJoint(a, lib.JointModelSpherical(), M, "neck")
        ids += [a, b, c, d]
        for j in (a, b, c, d):
            Y = rng.uniform(0.5, 2.0), rng.uniform(-1, 1, 3), np.diag(rng.uniform(0.5, 0.9, 3))
            model.appendBodyToJoint(j, lib.Inertia(*Y), lib.SE3(np.eye(3), rng.uniform(-1, 1, 3)))
            ids.append(model.addJointFrame(j))
            ids.append(model.addBodyFrame(f"body{j}", j, M, -1))
        ids.append(model.addBodyFrame("body2", 2, M, -1))  # existing: returns its id
        ids.append(model.addFrame(lib.Frame("tool", c, ids[-2], M, lib.FrameType.OP_FRAME,
                                            lib.Inertia(1.0, np.ones(3) * 0.1, np.eye(3)))))
        out.append((model, ids))
    return out


def test_building_api_matches_pinocchio():
    (model, ids), (pm, pids) = _build_both()
    assert ids == pids
    assert_fields_equal(model_fields(model), model_fields(pm), tol=1e-15)


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_fresh_data_equals_pins(name):
    model, pm = build(name)
    data, pdata = pinref.Data(model), pm.createData()
    assert data.nvSubtree == list(pdata.nvSubtree)
    got, ref = caches(model, data, "pinref", (), ()), caches(pm, pdata, "pin", (), ())
    for key in ref:
        if key.startswith("joints") and key.endswith((".v", ".c", ".S")):
            continue  # depend on the joint type's constructor; compared after the first calc
        np.testing.assert_array_equal(got[key], ref[key], err_msg=key)


def test_unknown_names_raise():
    model = pinref.buildTutorialModel()
    with pytest.raises(errors.ModelError, match="no joint named 'elbow'"):
        model.getJointId("elbow")
    with pytest.raises(errors.ModelError, match="no frame named 'tool'"):
        model.getFrameId("tool")
    assert model.getJointId("ry1_joint") == 2 and not model.existJointName("elbow")
    assert model.getFrameId("ry1_body") == model.getBodyId("ry1_body")
    assert model.existFrame("ry1_body", pinref.FrameType.BODY)
    assert not model.existFrame("ry1_body", pinref.FrameType.JOINT)


def test_bad_building_calls_raise():
    model = pinref.Model()
    with pytest.raises(errors.ModelError, match="parent id 3"):
        model.addJoint(3, pinref.JointModelRX(), pinref.SE3.Identity(), "a")
    with pytest.raises(errors.UnsupportedError,
                       match=r"pinocchio.JointModelRX \(from the pinocchio package, not pinref\)"):
        model.addJoint(0, pin.JointModelRX(), pinref.SE3.Identity(), "a")
    with pytest.raises(errors.ShapeError, match="max_effort must hold 1 numbers"):
        model.addJoint(0, pinref.JointModelRX(), pinref.SE3.Identity(), "a", np.ones(2))
    with pytest.raises(errors.ModelError, match="joint id 5"):
        model.appendBodyToJoint(5, pinref.Inertia.Random())
    with pytest.raises(errors.ModelError, match="parent joint 2"):
        model.addFrame(pinref.Frame("f", 2, 0, pinref.SE3.Identity(), pinref.FrameType.OP_FRAME))


def test_appending_a_body_does_not_modify_the_callers_inertia():
    model = pinref.Model()
    j = model.addJoint(0, pinref.JointModelRX(), pinref.SE3.Identity(), "a")
    Y = pinref.Inertia(1.0, np.array([0.0, 0.0, 0.5]), np.eye(3))
    model.inertias[j] = Y
    model.appendBodyToJoint(j, pinref.Inertia(2.0, np.zeros(3), np.eye(3)))
    assert Y.mass == 1.0 and model.inertias[j].mass == 3.0


def _structure(fields):
    """The fields of ``model_fields`` that buildSampleModelHumanoidRandom does not draw at
    random: everything but placements, inertias and limits (those are checked by pattern).
    pin 4.x draws the friction bounds too (docs/quirks.md, "pin 4.1.0 differences")."""
    random = ("jointPlacements[", "inertias[", "Limit")
    if differs(pin, "sample_model_limits"):
        random += ("friction",)
    return {k: v for k, v in fields.items()
            if not (k.startswith(random) or k.endswith("Limit") or ".inertia" in k)}


def test_humanoid_random_has_pins_structure():
    np.random.seed(3)
    model, pm = pinref.buildSampleModelHumanoidRandom(), pin.buildSampleModelHumanoidRandom()
    got, ref = model_fields(model), model_fields(pm)
    assert got.keys() == ref.keys()
    assert_fields_equal(_structure(got), _structure(ref))
    # Pinocchio's pattern: the root at identity, every other placement and body random;
    # effort/velocity limits in [0, 2], lower in [-2, 0], upper in [0, 2], quaternion [-1, 1].
    for fields in (got, ref):
        np.testing.assert_array_equal(fields["jointPlacements[1].rotation"], np.eye(3))
        assert all(fields[f"inertias[{i}].mass"] > 0 for i in range(1, 28))
        for key, lo, hi in (("effortLimit", 0, 2), ("velocityLimit", 0, 2),
                            ("lowerPositionLimit", -2, 0), ("upperPositionLimit", 0, 2)):
            assert fields[key].min() >= lo and fields[key].max() <= hi, key
        np.testing.assert_array_equal(fields["lowerPositionLimit"][3:7], -np.ones(4))
        np.testing.assert_array_equal(fields["upperPositionLimit"][3:7], np.ones(4))
    if differs(pin, "sample_model_limits"):  # 3.8.0's zero friction, 4.x's in [0, 2]
        np.testing.assert_array_equal(got["friction"], 0.0)
        assert ref["friction"].min() >= 0 and ref["friction"].max() <= 2
    assert not np.allclose(got["jointPlacements[2].translation"], 0.0)
    np.random.seed(3)
    again = model_fields(pinref.buildSampleModelHumanoidRandom(True, False))
    assert_fields_equal(again, got)  # NumPy's global generator: seeded, repeatable


def test_humanoid_random_mimic_has_pins_structure():
    """``larm6_joint`` follows ``larm5_joint``, as in Pinocchio (whose random numbers differ:
    the structure and every index field are compared). The composite root of
    ``using_free_flyer=False`` is tested in tests/joints/test_composite.py."""
    got, ref = pinref.buildSampleModelHumanoidRandom(True, True), \
        pin.buildSampleModelHumanoidRandom(True, True)
    structure = ("name", "njoints", "nq", "nv", "nvExtended", "nbodies", "nframes", "names",
                 "parents", "children", "subtrees", "supports", "idx_qs", "idx_vs", "nqs", "nvs",
                 "idx_vExtendeds", "nvExtendeds", "mimicking_joints", "mimicked_joints",
                 "mimic_joint_supports")
    g, r = model_fields(got), model_fields(ref)
    assert_fields_equal({k: g[k] for k in structure}, {k: r[k] for k in structure})
    for i in range(1, ref.njoints):
        assert g[f"joints[{i}].type"] == r[f"joints[{i}].type"]
        assert g[f"joints[{i}].indexes"] == r[f"joints[{i}].indexes"]
    assert got.joints[got.getJointId("larm6_joint")].jmodel.shortname() == "JointModelRX"


