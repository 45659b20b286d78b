"""Mimic joints against Pinocchio 3.8.0 (pinref/joints/mimic.py, pinref/model/mimic.py,
pinref/algorithms/mimic.py).

Models built identically in both libraries: ``buildSampleModelManipulator(True)``, a URDF with
every kind of mimic joint (tests/model/urdf/gripper_mimic.urdf, fixed and free-flyer root),
``transformJointIntoMimic`` on the humanoid (mimic joints that are leaves, that have children,
and that follow a joint of another branch), and the example-robot-data URDFs with <mimic>.
Each model equals pin's field by field; each algorithm Pinocchio runs with mimic joints is
called in sequence on one Data, at several batch shapes, and after every call every cache
(per-joint placements, velocities, forces, inertias, Fcrb, joint data, tau, M, J, Ag, ...) and
the result agree with pin's at 1e-12 * max(1, |ref|). What pin refuses, pinref refuses.
"""

from importlib.metadata import distribution
from pathlib import Path

import numpy as np
import pinocchio as pin
import pytest

import pinref
from conftest import assert_close
from models import random_states
from pinref.algorithms.mimic import REFUSED
from pinref.errors import MimicUnsupportedError, ModelError, URDFError
from test_bridge import assert_fields_equal, model_fields

GRIPPER = Path(__file__).parent / "urdf" / "gripper_mimic.urdf"
# (mimicked, mimicking, scaling, offset) on the humanoid: a leaf following its parent, a mid-arm
# joint with children, a leaf following a joint of the other leg.
HUMANOID_MIMICS = [(22, 23, 2.5, 0.75), (19, 20, -1.5, 0.2), (8, 13, 0.7, -0.4)]
ERD_MIMIC = [str(f.locate()) for f in distribution("example-robot-data").files
             if f.suffix == ".urdf" and f.name in ("panda.urdf", "pr2.urdf", "tiago_pro.urdf",
                                                   "baxter.urdf")]
# Their <mimic> names a joint added after it (depth first): pin refuses them with mimic=True.
ERD_MIMIC_REFUSED = [str(f.locate()) for f in distribution("example-robot-data").files
                     if f.name in ("romeo.urdf", "talos_full_v2.urdf", "alex_psyonic_hands.urdf")]


def _humanoid(lib):
    model = lib.buildSampleModelHumanoid()
    for mimicked, mimicking, scaling, offset in HUMANOID_MIMICS:
        model = lib.transformJointIntoMimic(model, mimicked, mimicking, scaling, offset)
    return model


def build(name):
    """(pinref model, pin model) built by the same calls."""
    if name == "manipulator":
        return pinref.buildSampleModelManipulator(True), pin.buildSampleModelManipulator(True)
    if name == "humanoid":
        return _humanoid(pinref), _humanoid(pin)
    base = name.removesuffix("_ff")
    path = GRIPPER if base == "gripper" else next(p for p in ERD_MIMIC
                                                  if p.endswith(f"/{base}.urdf"))
    if name.endswith("_ff"):
        return (pinref.buildModelFromUrdf(path, root_joint=pinref.JointModelFreeFlyer(),
                                          mimic=True),
                pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer(), True))
    return pinref.buildModelFromUrdf(path, mimic=True), pin.buildModelFromUrdf(str(path), True)


MODELS = ["manipulator", "gripper", "gripper_ff", "humanoid"]


@pytest.mark.parametrize("name", MODELS + ["panda_ff", "pr2_ff", "tiago_pro", "baxter"])
def test_model_equals_pins_field_by_field(name):
    got, ref = build(name)
    assert got.mimicking_joints, "the model has mimic joints"
    assert_fields_equal(model_fields(got), model_fields(ref), tol=1e-15)
    for m in got.mimicking_joints:   # the wrapped joint Pinocchio's Python hides: its S
        jd, pd = got.createData(), ref.createData()
        q = pin.neutral(ref)
        got.joints[m].calc(jd.joints[m], q)
        ref.joints[m].calc(pd.joints[m], q)
        assert_close(jd.joints[m].M.homogeneous, pd.joints[m].M.homogeneous)


@pytest.mark.parametrize("path", ERD_MIMIC_REFUSED, ids=lambda p: Path(p).stem)
def test_a_mimic_of_a_joint_added_later_is_refused_as_in_pin(path):
    with pytest.raises(ValueError, match="mimic joint is not in the kinematic tree"):
        pin.buildModelFromUrdf(path, True)
    with pytest.raises(URDFError, match="is not a joint added before it"):
        pinref.buildModelFromUrdf(path, mimic=True)


def test_data_fields_equal_pins():
    """The Data fields Pinocchio sizes with nvExtended, and its mimic bookkeeping."""
    for name in MODELS:
        model, pmodel = build(name)
        data, pdata = model.createData(), pmodel.createData()
        for field in ("nvSubtree", "lastChild", "parents_fromRow", "nvSubtree_fromRow",
                      "mimic_subtree_joint", "idx_vExtended_to_idx_v_fromRow",
                      "start_idx_v_fromRow", "end_idx_v_fromRow", "mimic_parents_fromRow",
                      "non_mimic_parents_fromRow"):
            if field == "lastChild" and not hasattr(data, field):
                continue
            assert list(getattr(data, field)) == list(getattr(pdata, field)), (name, field)
        for field in ("tau", "M", "J", "dJ", "Ag", "Jcom", "U", "Minv", "C"):
            assert np.shape(getattr(data, field)) == np.shape(getattr(pdata, field)), field


# --- caches of every algorithm pin runs with mimic joints --------------------------------------

REFERENCE_FRAMES = ("LOCAL", "WORLD_FRAME", "LOCAL_WORLD_ALIGNED")


def _calls(model):
    """(name, arguments: "q", "v", "a", "f" (fext) or a value; result compared?)."""
    m, k = model.mimicking_joints[0], model.mimicked_joints[0]
    frame = model.nframes - 1
    calls = [("forwardKinematics", ("q", "v", "a")), ("rnea", ("q", "v", "a")),
             ("rnea", ("q", "v", "a", "f")), ("nonLinearEffects", ("q", "v")),
             ("computeGeneralizedGravity", ("q",)), ("computeStaticTorque", ("q", "f")),
             ("crba", ("q",)), ("crba", ("q", "WORLD")), ("computeJointJacobians", ("q",)),
             ("computeJointJacobiansTimeVariation", ("q", "v")),
             ("framesForwardKinematics", ("q",)), ("forwardKinematics", ("q", "v", "a")),
             ("updateFramePlacements", ()), ("computeJointJacobian", ("q", m)),
             ("centerOfMass", ("q", "v", "a")), ("jacobianCenterOfMass", ("q",)),
             ("computeSubtreeMasses", ()), ("ccrba", ("q", "v")),
             ("computeCentroidalMap", ("q",)), ("computeCentroidalMomentum", ("q", "v")),
             ("computeCentroidalMomentumTimeVariation", ("q", "v", "a"))]
    for rf in REFERENCE_FRAMES:
        calls += [("computeFrameJacobian", ("q", frame, rf)),
                  ("computeJointJacobiansTimeVariation", ("q", "v")),
                  ("getJointJacobian", (m, rf)), ("getJointJacobian", (k, rf)),
                  ("getJointJacobianTimeVariation", (m, rf)),
                  ("getFrameJacobian", (frame, rf)),
                  ("frameJacobianTimeVariation", ("q", "v", frame, "WORLD_FRAME")),
                  ("getFrameJacobianTimeVariation", (frame, "WORLD_FRAME")),
                  ("forwardKinematics", ("q", "v", "a")), ("getVelocity", (m, rf)),
                  ("getAcceleration", (m, rf)), ("getClassicalAcceleration", (m, rf)),
                  ("getFrameVelocity", (frame, rf)), ("getFrameAcceleration", (frame, rf)),
                  ("getFrameClassicalAcceleration", (frame, rf))]
    if not any(model.children[m] for m in model.mimicking_joints):   # (see below)
        calls += [("crba", ("q",))]   # a second call: Fcrb's mimic terms over calls
    return calls


def _args(args, state, lib):
    """The arguments for ``lib``: "q", "v", "a", "f" the state, "WORLD" the convention, a
    ReferenceFrame name, other values as they are."""
    q, v, a, fext = state
    out = []
    for x in args:
        if x == "f":
            x = [pin.Force(np.array(f)) for f in fext] if lib is pin else fext
        elif x in ("q", "v", "a"):
            x = {"q": q, "v": v, "a": a}[x]
        elif x == "WORLD":
            x = lib.Convention.WORLD
        elif x == "WORLD_FRAME":
            x = lib.ReferenceFrame.WORLD
        elif isinstance(x, str):
            x = getattr(lib.ReferenceFrame, x)
        out.append(x)
    return out


def _caches(model, data, lib, idx, batch):
    """Every cache a supported algorithm writes or must leave alone, for state ``idx``."""
    def get(x, tail):
        x = np.asarray(x, dtype=float)
        return np.reshape(x, tail) if lib is pin else np.broadcast_to(x, batch + tail)[idx]

    nv, ne = model.nv, model.nvExtended
    out = {name: get(getattr(data, name), (nv,)) for name in ("tau", "nle", "g")}
    out["M"] = get(data.M, (nv, nv))
    for name in ("J", "dJ"):
        out[name] = get(getattr(data, name), (6, ne))
    for name in ("Ag", "dAg"):
        out[name] = get(getattr(data, name), (6, nv))
    out["Jcom"] = get(data.Jcom, (3, nv))
    for name in ("hg", "dhg"):
        out[name] = get(getattr(data, name).vector, (6,))
    out["Ig"] = get(data.Ig.matrix(), (6, 6))
    for i in range(model.njoints):
        for name in ("oMi", "liMi"):
            out[f"{name}[{i}]"] = get(getattr(data, name)[i].homogeneous, (4, 4))
        for name in ("v", "a", "a_gf", "h", "f", "ov", "oa", "oh", "of"):
            out[f"{name}[{i}]"] = get(getattr(data, name)[i].vector, (6,))
        for name in ("Ycrb", "oYcrb"):
            out[f"{name}[{i}]"] = get(getattr(data, name)[i].matrix(), (6, 6))
        out[f"Fcrb[{i}]"] = get(data.Fcrb[i], (6, nv))
        for name in ("com", "vcom", "acom"):
            out[f"{name}[{i}]"] = get(getattr(data, name)[i], (3,))
        out[f"mass[{i}]"] = get(data.mass[i], ())
    for i in range(1, model.njoints):
        jd, n = data.joints[i], model.nvExtendeds[i]
        out[f"joints[{i}].M"] = get(jd.M.homogeneous, (4, 4))
        out[f"joints[{i}].S"] = get(jd.S, (6, n))
        out[f"joints[{i}].v"] = get(jd.v.vector, (6,))
        out[f"joints[{i}].c"] = get(jd.c.vector, (6,))
    for m in model.mimicking_joints:   # the mimicked joint's segments, before the affine map
        jd = data.joints[m]
        nq = next(model.nqs[k] for k in range(1, m) if model.nqs[k] and
                  (model.idx_qs[k], model.idx_vs[k]) == (model.idx_qs[m], model.idx_vs[m]))
        out[f"joints[{m}].joint_q"] = get(jd.joint_q, (nq,))
        out[f"joints[{m}].joint_v"] = get(jd.joint_v, (model.nvExtendeds[m],))
    for k in range(model.nframes):
        out[f"oMf[{k}]"] = get(data.oMf[k].homogeneous, (4, 4))
    return out


def _as_array(x):
    return np.asarray(getattr(x, "vector", getattr(x, "homogeneous", x)), dtype=float)


def check_sequence(name, batch):
    model, pmodel = build(name)
    rng = np.random.default_rng(abs(hash((name, batch))) % 2**32)
    q, v, a = random_states(pmodel, batch, rng)
    fext = rng.normal(size=batch + (model.njoints, 6))
    data = model.createData()
    states = list(np.ndindex(*batch))
    pdatas = [pmodel.createData() for _ in states]
    worst = 0.0
    for call, args in _calls(model):
        got = getattr(pinref, call)(model, data, *_args(args, (q, v, a, fext), pinref))
        for k, idx in enumerate(states):
            state = (q[idx], v[idx], a[idx], fext[idx])
            ref = getattr(pin, call)(pmodel, pdatas[k], *_args(args, state, pin))
            what = f"{call}{args} at state {idx}"
            if ref is not None:
                g = _as_array(got)
                g = g if g.ndim == np.ndim(_as_array(ref)) else g[idx]
                assert_close(g, _as_array(ref), what=f"result of {what}")
            ref_caches = _caches(pmodel, pdatas[k], pin, idx, batch)
            got_caches = _caches(model, data, pinref, idx, batch)
            for key, r in ref_caches.items():
                assert_close(got_caches[key], r, what=f"data.{key} after {what}")
                worst = max(worst, np.abs(got_caches[key] - r).max() / max(1, np.abs(r).max()))
    return worst


BATCHES = [(), (1,), (5,), (2, 3)]
QUICK = [("manipulator", b) for b in BATCHES] + [("gripper", ()), ("gripper", (1,)),
                                                  ("gripper_ff", ()), ("humanoid", ())]
CASES = [pytest.param(name, batch, marks=() if (name, batch) in QUICK else pytest.mark.slow)
         for name in MODELS for batch in BATCHES]


@pytest.mark.parametrize(("name", "batch"), CASES, ids=str)
def test_every_supported_algorithm_gives_pins_caches(name, batch):
    check_sequence(name, batch)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["panda_ff", "pr2_ff", "tiago_pro", "baxter"])
def test_example_robot_data_mimic_caches(name):
    check_sequence(name, (3,))


# --- what pin refuses ------------------------------------------------------------------------


def _refused_calls():
    for module, names in REFUSED.items():
        for name in names:
            owner = pinref.cholesky if module == "cholesky" else pinref
            yield pytest.param(owner, name, id=name)


@pytest.mark.parametrize(("owner", "name"), list(_refused_calls()))
def test_what_pin_refuses_is_refused_as_runtime_error(owner, name):
    model, _ = build("manipulator")
    data = model.createData()
    with pytest.raises(MimicUnsupportedError, match=f"{name}: the model has mimic joints "
                       "\\('wrist1_mimic_joint'\\)"):
        getattr(owner, name)(model, data, np.zeros(model.nq), np.zeros(model.nv))
    with pytest.raises(RuntimeError):   # what pin's own tests assert (bindings_aba)
        getattr(owner, name)(model, data)


def test_pin_refuses_the_same_and_returns_a_wrong_coriolis_matrix():
    """pin's binding refuses aba and computeMinverse; computeCoriolisMatrix, whose C++ asserts
    it has no mimic joint, goes through and returns a C with C v != nle - g, which pinref
    refuses to reproduce."""
    model, pmodel = build("manipulator")
    pdata = pmodel.createData()
    q, v = pin.neutral(pmodel) + 0.3, np.linspace(-1, 1, pmodel.nv)
    for call, args in (("aba", (q, v, v)), ("computeMinverse", (q,)),
                       ("computeRNEADerivatives", (q, v, v)), ("computeKineticEnergy", (q, v))):
        with pytest.raises(RuntimeError, match="does not support Joint Mimic"):
            getattr(pin, call)(pmodel, pdata, *args)
    C = pin.computeCoriolisMatrix(pmodel, pdata, q, v).copy()
    bias = pin.nonLinearEffects(pmodel, pdata, q, v) - pin.computeGeneralizedGravity(
        pmodel, pdata, q)
    assert np.abs(C @ v - bias).max() > 0.1
    with pytest.raises(MimicUnsupportedError, match="computeCoriolisMatrix"):
        pinref.computeCoriolisMatrix(model, model.createData(), q, v)


def test_frame_jacobian_time_variation_in_local_frames_is_refused():
    """pin's LOCAL and LOCAL_WORLD_ALIGNED frame dJ misses the mimic joint's terms: it is not
    E's (the extended model's, whose WORLD dJ pin does reproduce); pinref refuses those."""
    model, pmodel = build("manipulator")
    E, pE = pinref.buildSampleModelManipulator(), pin.buildSampleModelManipulator()
    q, v = np.linspace(-1, 1, 5), np.linspace(0.5, -0.3, 5)
    qE, vE = np.r_[q, 2.5 * q[4] + 0.75], np.r_[v, 2.5 * v[4]]
    G = np.vstack((np.eye(5), 2.5 * np.eye(5)[4]))
    frame = model.nframes - 1
    pdata, pdE = pmodel.createData(), pE.createData()
    for rf, close in ((pin.WORLD, True), (pin.LOCAL, False), (pin.LOCAL_WORLD_ALIGNED, False)):
        got = pin.frameJacobianTimeVariation(pmodel, pdata, q, v, frame, rf)
        ref = pin.frameJacobianTimeVariation(pE, pdE, qE, vE, frame, rf) @ G
        assert np.allclose(got, ref, atol=1e-12) == close, rf
        if not close:
            with pytest.raises(MimicUnsupportedError, match="ReferenceFrame.WORLD"):
                pinref.frameJacobianTimeVariation(model, model.createData(), q, v, frame,
                                                  pinref.ReferenceFrame(int(rf)))
    assert E.nframes == model.nframes


def test_crba_of_a_mimic_joint_with_children_depends_on_call_history_in_pin():
    """Pinocchio 3.8.0's crba (LOCAL) adds a mimic joint's Fcrb into its parent's without
    resetting it, so with a mimic joint that has children a second call on the same Data gives
    another M (docs/quirks.md); pinref gives the first call's M, which satisfies rnea = M a +
    nle, at every call, and Pinocchio's Fcrb."""
    model, pmodel = build("humanoid")
    assert model.children[20], "rarm joint 20 is a mimic joint with children"
    q = pin.neutral(pmodel)
    q[7:] += 0.3
    a = np.linspace(-1, 1, pmodel.nv)
    pdata = pmodel.createData()
    first = pin.crba(pmodel, pdata, q).copy()
    assert np.abs(pin.crba(pmodel, pdata, q) - first).max() > 1e-3
    data = model.createData()
    pinref.crba(model, data, q)
    M = pinref.crba(model, data, q)
    assert_close(M, first)
    for i in range(model.njoints):   # pin's Fcrb, history and all
        assert_close(data.Fcrb[i], pdata.Fcrb[i], what=f"Fcrb[{i}]")
    tau = pinref.rnea(model, data, q, np.zeros(model.nv), a)
    g = pinref.computeGeneralizedGravity(model, data, q)
    assert_close(tau, M @ a + g)


# --- the joint model, the model functions ------------------------------------------------------

JOINTS = ["JointModelRX", "JointModelPY", "JointModelRUBZ", "JointModelRUBY",
          "JointModelRevoluteUnaligned", "JointModelPrismaticUnaligned"]


@pytest.mark.parametrize("joint", JOINTS)
def test_joint_model_mimic_calc_equals_pins(joint):
    rng = np.random.default_rng(1)
    args = {"JointModelRevoluteUnaligned": (np.array([0.36, 0.48, 0.8]),),
            "JointModelPrismaticUnaligned": (np.array([0.0, 0.6, 0.8]),)}.get(joint, ())
    pjoint, rjoint = getattr(pin, joint)(*args), getattr(pinref, joint)(*args)
    pjoint.setIndexes(1, 0, 0, 0)   # the mimicked joint: the first of a model
    rjoint.setIndexes(1, 0, 0)
    pj = pin.JointModel(pin.JointModelMimic(pjoint, 1.7, 0.3))   # generic: S converts
    rj = pinref.JointModelMimic(rjoint, 1.7, 0.3)
    n = rj.jmodel.nq
    q = rng.normal(size=n)
    if joint == "JointModelRUBZ":
        q /= np.linalg.norm(q)
    v = rng.normal(size=rj.nvExtended)
    pd, rd = pj.createData(), rj.createData()
    pj.calc(pd, q, v)
    rj.calc(rd, q, v)
    assert (rj.nq, rj.nv, rj.nvExtended, rj.scaling, rj.offset) == (
        pj.nq, pj.nv, pj.nvExtended, pj.extract().scaling, pj.extract().offset)
    assert_close(rd.M.homogeneous, pd.M.homogeneous)
    assert_close(rd.S, np.reshape(pd.S, (6, -1)))
    assert_close(rd.v.vector, pd.v.vector)
    assert_close(rd.c.vector, pd.c.vector)
    assert rd.shortname() == pd.shortname() == "JointDataMimic"
    assert rj.shortname() == pj.shortname() == "JointModelMimic"


def test_joints_pin_cannot_mimic_are_refused():
    for joint in (pinref.JointModelFreeFlyer(), pinref.JointModelPlanar(),
                  pinref.JointModelHelicalUnaligned(), pinref.JointModelHX(0.3)):
        with pytest.raises(MimicUnsupportedError, match=f"{joint.shortname()} cannot be mimicked"):
            pinref.JointModelMimic(joint, 1.0, 0.0)
    with pytest.raises(ValueError, match="Type not supported"):
        pin.JointModelMimic(pin.JointModelPlanar(), 1.0, 0.0)
    helical = pin.JointModelHX(0.3)   # pin's mimic helical: S without the pitch
    helical.setIndexes(1, 0, 0, 0)
    mimic = pin.JointModel(pin.JointModelMimic(helical, 1.7, 0.3))
    jdata = mimic.createData()
    mimic.calc(jdata, np.array([0.5]), np.array([0.2]))
    assert np.array_equal(np.reshape(jdata.S, 6), [0, 0, 0, 1.7, 0, 0])
    assert jdata.v.linear[0] != 0.0   # while its velocity has the pitch
    model = pinref.Model()
    model.addJoint(0, pinref.JointModelRX(), pinref.SE3.Identity(), "a")
    model.addJoint(1, pinref.JointModelFreeFlyer(), pinref.SE3.Identity(), "root_joint")
    with pytest.raises(MimicUnsupportedError, match="'root_joint'.*cannot be mimicked"):
        pinref.transformJointIntoMimic(model, 1, 2, 1.0, 0.0)
    with pytest.raises(ModelError, match="index_mimicked < index_mimicking"):
        pinref.transformJointIntoMimic(pinref.buildSampleModelHumanoid(), 5, 3, 1.0, 0.0)


def test_configuration_functions_as_pins():
    """The configuration functions skip a mimic joint (nq = nv = 0), as Pinocchio's."""
    model, pmodel = build("gripper")
    rng = np.random.default_rng(2)
    q0, _, _ = random_states(pmodel, (), rng)
    v = rng.normal(size=model.nv)
    assert_close(pinref.neutral(model), pin.neutral(pmodel))
    q1 = pin.integrate(pmodel, q0, v)
    assert_close(pinref.integrate(model, q0, v), q1)
    assert_close(pinref.difference(model, q0, q1), pin.difference(pmodel, q0, q1))
    assert_close(pinref.dIntegrate(model, q0, v, pinref.ARG0),
                 pin.dIntegrate(pmodel, q0, v, pin.ARG0))
    assert pinref.randomConfiguration(model).shape == (model.nq,)


@pytest.mark.parametrize("lock", [[2], [1, 3], [6]], ids=str)
def test_reduced_model_of_a_mimic_model_equals_pins(lock):
    """buildReducedModel keeps a mimic joint following its joint's new id (or locks it)."""
    q = np.full(5, 0.3)
    got = pinref.buildReducedModel(pinref.buildSampleModelManipulator(True), lock, q)
    ref = pin.buildReducedModel(pin.buildSampleModelManipulator(True), lock, q)
    assert_fields_equal(model_fields(got), model_fields(ref), tol=1e-15)


def test_locking_the_mimicked_joint_alone_is_refused_as_in_pin():
    q = np.full(5, 0.3)
    with pytest.raises(ValueError, match="lower than its directing joint"):
        pin.buildReducedModel(pin.buildSampleModelManipulator(True), [5], q)
    with pytest.raises(ModelError, match="'wrist1_joint', which is not in the new model"):
        pinref.buildReducedModel(pinref.buildSampleModelManipulator(True), [5], q)


def test_appended_mimic_model_equals_pins():
    got = pinref.appendModel(pinref.buildSampleModelHumanoid(),
                             pinref.buildModelFromUrdf(GRIPPER, mimic=True), 5,
                             pinref.SE3.Identity())
    ref = pin.appendModel(pin.buildSampleModelHumanoid(),
                          pin.buildModelFromUrdf(str(GRIPPER), True), 5, pin.SE3.Identity())
    assert_fields_equal(model_fields(got), model_fields(ref), tol=1e-15)
