"""The pinocchio bridge: ``to_pinocchio`` and ``from_pinocchio`` copy every stored number.

Oracle: the model itself. A conversion, and a round trip, must give a model whose every field
(``model_fields``: topology, joint types and axes, placements, inertias, frames, limits,
friction, damping, armature, rotor parameters, gravity, nbodies, name) is ``np.array_equal``
to the original's, on the sample models, the tutorial model, random trees with every joint
type, and the URDF models of tests/model/urdf (which hold infinite limits).
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pinocchio as pin
import pytest

import pinref
from models import MODEL_NAMES, build
from pinref.compare import from_pinocchio, to_pinocchio
from pinref.compare.versions import (PIN4_DIFFERENCES, PIN4_ONLY_FIELDS, REFERENCE_VERSIONS,
                                     is_pin4, pin_only_fields)
from pinref.errors import UnsupportedError

URDF_DIR = Path(__file__).parent / "urdf"
URDF_FILES = sorted(URDF_DIR.glob("*.urdf"))

_VECTOR_FIELDS = ("lowerPositionLimit", "upperPositionLimit", "effortLimit", "velocityLimit",
                  "friction", "damping", "armature", "rotorInertia", "rotorGearRatio")


def _joint_parameters(jmodel):
    """A joint's constructor parameters (axis, axis1/axis2, pitch) as arrays, pin or pinref.

    Pinocchio's Python RevoluteUnboundedUnaligned hides its axis: it is read from S."""
    name = jmodel.shortname()
    if hasattr(jmodel, "extract"):  # Pinocchio's generic JointModel
        jmodel = jmodel.extract()
    if name == "JointModelRevoluteUnboundedUnaligned" and not hasattr(jmodel, "axis"):
        jdata = jmodel.createData()
        jmodel.calc(jdata, np.array([1.0, 0.0]))
        return {"axis": np.array(jdata.S, dtype=float).reshape(6, -1)[3:, 0]}
    out = {}
    if hasattr(jmodel, "axis") and name[-1] not in "XYZ":
        out["axis"] = np.array(jmodel.axis, dtype=float)
    for key in ("axis1", "axis2", "pitch", "scaling", "offset"):
        if hasattr(jmodel, key):
            out[key] = np.array(getattr(jmodel, key), dtype=float)
    return out


def model_fields(model):
    """Every stored field of a pinocchio or pinref Model, as {key: value}. Values are arrays
    (numbers) or plain Python objects (names, types, indices)."""
    f = {"name": model.name, "njoints": int(model.njoints), "nq": int(model.nq),
         "nv": int(model.nv), "nbodies": int(model.nbodies), "nframes": int(model.nframes),
         "names": list(model.names), "parents": [int(p) for p in model.parents]}
    for key in ("children", "subtrees", "supports"):
        f[key] = [[int(i) for i in row] for row in getattr(model, key)]
    for key in ("idx_qs", "idx_vs", "nqs", "nvs", "idx_vExtendeds", "nvExtendeds",
                "mimicking_joints", "mimicked_joints"):
        f[key] = [int(i) for i in getattr(model, key)]
    f["nvExtended"] = int(model.nvExtended)
    f["mimic_joint_supports"] = [[int(i) for i in row] for row in model.mimic_joint_supports]
    for i in range(1, model.njoints):
        jmodel = model.joints[i]
        f[f"joints[{i}].type"] = jmodel.shortname()
        f[f"joints[{i}].indexes"] = (int(jmodel.id), int(jmodel.idx_q), int(jmodel.idx_v),
                                     int(jmodel.nq), int(jmodel.nv), int(jmodel.idx_vExtended),
                                     int(jmodel.nvExtended))
        for key, value in _joint_parameters(jmodel).items():
            f[f"joints[{i}].{key}"] = value
    for i in range(model.njoints):
        _placement(f, f"jointPlacements[{i}]", model.jointPlacements[i])
        _inertia(f, f"inertias[{i}]", model.inertias[i])
    for k, frame in enumerate(model.frames):
        f[f"frames[{k}]"] = (frame.name, int(frame.type), int(frame.parentJoint),
                             int(frame.parentFrame))
        _placement(f, f"frames[{k}].placement", frame.placement)
        _inertia(f, f"frames[{k}].inertia", frame.inertia)
    for key in _VECTOR_FIELDS:
        f[key] = np.array(getattr(model, key), dtype=float)
    f["gravity"] = np.array(model.gravity.vector, dtype=float)
    return f


def _placement(f, key, M):
    f[key + ".rotation"] = np.array(M.rotation, dtype=float)
    f[key + ".translation"] = np.array(M.translation, dtype=float)


def _inertia(f, key, Y):
    """Mass, lever and the six numbers Pinocchio's Symmetric3 stores (the lower triangle:
    xx, xy, yy, xz, yz, zz), which is all an inertia is in Pinocchio."""
    f[key + ".mass"] = np.array(float(Y.mass))
    f[key + ".lever"] = np.array(Y.lever, dtype=float)
    f[key + ".inertia"] = np.array(Y.inertia, dtype=float)[[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]


def assert_fields_equal(got, ref, tol=None):
    """Same keys; non-numbers equal; numbers ``np.array_equal`` (tol None) or within
    ``tol * max(1, max|ref|)`` with infinities equal. Returns the worst relative difference."""
    assert got.keys() == ref.keys(), set(got) ^ set(ref)
    worst = 0.0
    for key, r in ref.items():
        g = got[key]
        if not isinstance(r, np.ndarray):
            assert g == r, f"{key}: {g!r} != {r!r}"
            continue
        assert g.shape == r.shape, f"{key}: shape {g.shape} != {r.shape}"
        if tol is None:
            assert np.array_equal(g, r), f"{key}: {g} != {r}"
            continue
        finite = np.isfinite(r)
        assert np.array_equal(g[~finite], r[~finite]), f"{key}: {g} != {r}"
        if finite.any():
            err = np.abs(g[finite] - r[finite]).max() / max(1.0, np.abs(r[finite]).max())
            assert err <= tol, f"{key}: relative difference {err:.3g} > {tol:g}\n{g}\n{r}"
            worst = max(worst, err)
    return worst


def _with_dynamics_parameters(model, seed, lib=pinref):
    """``model`` (of ``lib``, pinref or pinocchio) with non-default armature, friction,
    damping, rotor parameters and gravity."""
    rng = np.random.default_rng(seed)
    for key in ("armature", "friction", "damping", "rotorInertia", "rotorGearRatio"):
        setattr(model, key, rng.uniform(0.1, 2.0, model.nv))
    model.gravity = lib.Motion(rng.normal(size=6))
    return model


def _every_joint_tree():
    """A tree with every joint type of JOINT_TYPES, the unbounded unaligned revolute about
    e_z exactly, a general axis and an axis 1e-9 away from e_x (which Pinocchio's Python
    constructor cannot make)."""
    rng = np.random.default_rng(7)
    model = pinref.Model()
    joints = [factory() for factory in pinref.joints.JOINT_TYPES]
    joints += [pinref.JointModelRevoluteUnboundedUnaligned(np.array(axis)) for axis in
               ([0.0, 0.0, 1.0], [0.36, -0.48, 0.8], [1.0, 1e-9, 0.0])]
    for k, jmodel in enumerate(joints):
        parent = int(rng.integers(0, model.njoints))
        jid = model.addJoint(parent, jmodel, pinref.SE3.Random(rng=rng), f"j{k}",
                             rng.uniform(1, 2, jmodel.nv), rng.uniform(1, 2, jmodel.nv),
                             -rng.uniform(1, 2, jmodel.nq), rng.uniform(1, 2, jmodel.nq))
        model.appendBodyToJoint(jid, pinref.Inertia.Random(rng=rng), pinref.SE3.Random(rng=rng))
        model.addJointFrame(jid)
        model.addBodyFrame(f"body{k}", jid, pinref.SE3.Random(rng=rng))
    model.addFrame(pinref.Frame("tool", 3, model.nframes - 1, pinref.SE3.Random(rng=rng),
                                pinref.FrameType.OP_FRAME, pinref.Inertia.Random(rng=rng)))
    return model


def _pinref_models():
    models = {name: build(name)[0] for name in MODEL_NAMES}
    models["every_joint"] = _every_joint_tree()
    models["tutorial_dynamics"] = _with_dynamics_parameters(pinref.buildTutorialModel(), 3)
    for path in URDF_FILES:
        models[path.stem] = pinref.buildModelFromUrdf(path)
        models[path.stem + "_ff"] = pinref.buildModelFromUrdf(path, pinref.JointModelFreeFlyer())
    return models


PINREF_MODELS = _pinref_models()


def _pin_models():
    models = {"manipulator": pin.buildSampleModelManipulator(),
              "humanoid": pin.buildSampleModelHumanoid(),
              "humanoid_dynamics": _with_dynamics_parameters(pin.buildSampleModelHumanoid(), 4,
                                                           pin)}
    for path in URDF_FILES:
        models[path.stem] = pin.buildModelFromUrdf(str(path))
        models[path.stem + "_ff"] = pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer())
    return models


PIN_MODELS = _pin_models()


@pytest.mark.parametrize("name", list(PINREF_MODELS))
def test_to_pinocchio_copies_every_number(name):
    model = PINREF_MODELS[name]
    pm = to_pinocchio(model)
    assert_fields_equal(model_fields(pm), model_fields(model))
    assert_fields_equal(model_fields(from_pinocchio(pm)), model_fields(model))


@pytest.mark.parametrize("name", list(PIN_MODELS))
def test_from_pinocchio_copies_every_number(name):
    pm = PIN_MODELS[name]
    model = from_pinocchio(pm)
    assert_fields_equal(model_fields(model), model_fields(pm))
    assert_fields_equal(model_fields(to_pinocchio(model)), model_fields(pm))


def test_sample_models_equal_pins_conversion():
    """pinref's sample models equal Pinocchio's, every field (names, indices, placements,
    inertias, limits, frames), numbers bit for bit: read from pin's own Model and through the
    bridge (issue 25 item 19: the array fields were dropped before)."""
    for build_ref, build_pin in ((pinref.buildSampleModelManipulator,
                                  pin.buildSampleModelManipulator),
                                 (pinref.buildSampleModelHumanoid, pin.buildSampleModelHumanoid)):
        got, pm = model_fields(build_ref()), build_pin()
        assert any(isinstance(v, np.ndarray) for v in got.values())
        assert_fields_equal(got, model_fields(pm))
        assert_fields_equal(got, model_fields(from_pinocchio(pm)))


def test_unbounded_unaligned_axis_is_exact_in_pinocchio():
    """The axis Pinocchio's Python API cannot set arrives bit for bit, and the joint moves as
    pinref's: same M and S at a random configuration."""
    model = _every_joint_tree()
    pm = to_pinocchio(model)
    for i in range(1, model.njoints):
        if model.joints[i].shortname() != "JointModelRevoluteUnboundedUnaligned":
            continue
        theta = 0.7 + i
        q = pin.neutral(pm)
        q[model.joints[i].q_slice] = np.cos(theta), np.sin(theta)
        jdata, pdata = model.joints[i].createData(), pm.joints[i].createData()
        model.joints[i].calc(jdata, q)
        pm.joints[i].calc(pdata, q)
        assert np.array_equal(np.reshape(jdata.S, (6, 1)), np.reshape(pdata.S, (6, 1)))
        np.testing.assert_allclose(jdata.M.rotation, pdata.M.rotation, rtol=0, atol=1e-15)


def _ellipsoid_model():
    """A pin 4.x model with its JointModelEllipsoid (3.8.0 has no such joint)."""
    pm = pin.Model()
    pm.addJoint(0, pin.JointModelRX(), pin.SE3.Identity(), "shoulder")
    pm.addJoint(1, pin.JointModelEllipsoid(0.1, 0.2, 0.3), pin.SE3.Identity(), "ankle")
    return pm


UNSUPPORTED = [(pin.buildSampleModelManipulator(True), "Mimic")]
if is_pin4(pin):
    UNSUPPORTED.append((_ellipsoid_model(), "Ellipsoid"))


@pytest.mark.parametrize("pm, joint", UNSUPPORTED, ids=[j.lower() for _, j in UNSUPPORTED])
def test_unsupported_joints_are_named(pm, joint):
    index = next(i for i in range(1, pm.njoints) if joint in pm.joints[i].shortname())
    with pytest.raises(UnsupportedError, match=f"{pm.names[index]}.*JointModel{joint}"):
        from_pinocchio(pm)


@pytest.mark.parametrize("path", URDF_FILES, ids=[p.stem for p in URDF_FILES])
def test_bounds_pinref_does_not_hold_are_stored_as_pins_urdf_parser_does(path):
    """pin 4.x's lower effort, velocity and dry-friction bounds and its position-limit margin,
    for which pinref has no field, come out of ``to_pinocchio`` exactly as pin's own URDF
    parser stores them (4.x stores ``lowerVelocityLimit = +velocity``; docs/quirks.md). pin
    3.8.0 has none of these fields."""
    fields = pin_only_fields(pin)
    for root in ((), (pin.JointModelFreeFlyer(),)):
        ref = pin.buildModelFromUrdf(str(path), *root)
        assert [hasattr(ref, f) for f in PIN4_ONLY_FIELDS] == [f in fields
                                                              for f in PIN4_ONLY_FIELDS]
        ours = pinref.buildModelFromUrdf(path, *([pinref.JointModelFreeFlyer()] if root else []))
        pm = to_pinocchio(ours)
        for f in fields:
            assert np.array_equal(getattr(pm, f), getattr(ref, f)), f


def test_the_installed_pin_is_a_reference_and_its_differences_are_in_the_ledger():
    """The tests run against pin 3.8.0 or 4.1.0; each difference ``versions.differs`` knows has
    its entry, tagged with its key, in docs/quirks.md's "pin 4.1.0 differences"."""
    assert pin.__version__ in REFERENCE_VERSIONS
    ledger = (Path(__file__).parents[2] / "docs" / "quirks.md").read_text()
    section = ledger.split("## pin 4.1.0 differences", 1)[1]
    for key in PIN4_DIFFERENCES:
        assert f"[`{key}`]" in section, key


def test_import_pinref_does_not_import_pinocchio():
    code = "import sys, pinref; print('pinocchio' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
