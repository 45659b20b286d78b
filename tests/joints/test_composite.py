"""JointModelComposite against Pinocchio 3.8.0: the joint's calc (M, S, v, c and the
JointDataComposite fields, nested composites included), its configuration space, and every
algorithm cache on models with composite joints (tests/models.py, COMPOSITE_MODEL_NAMES), at
batch shapes (), (5,), (2, 3) and ``1e-12 * max(1, max|ref|)``.
"""

import numpy as np
import pinocchio as pin
import pytest
from conftest import assert_close
from models import (COMPOSITE_MODEL_NAMES, assert_caches_match_pin, assert_matrices_match_pin,
                    build, cache_getter, check_hidden_caches, compare_data, random_fext,
                    random_states, sequence_setup)

import pinref
from pinref import errors
from pinref.compare import from_pinocchio, to_pinocchio

SHAPES = [(), (5,), (2, 3)]
CASES = [(m, b) for m in COMPOSITE_MODEL_NAMES for b in SHAPES]


def composites(model):
    """Ids of the model's composite joints."""
    return [i for i in range(1, model.njoints)
            if model.joints[i].shortname() == "JointModelComposite"]


def _states(pmodel, batch, seed):
    return random_states(pmodel, batch, np.random.default_rng(seed))


# --- the joint model -----------------------------------------------------------------------


def test_constructors_sizes_and_indexes_match_pin():
    J = pinref.joints
    P = pinref.SE3.Random(rng=np.random.default_rng(1))
    empty = J.JointModelComposite()
    assert (empty.nq, empty.nv, empty.njoints, empty.joints) == (0, 0, 0, [])
    assert J.JointModelComposite(3).njoints == pin.JointModelComposite(3).njoints == 0
    one = J.JointModelComposite(J.JointModelSpherical(), P)
    assert one.jointPlacements[0] == P and one.jointPlacements[0] is not P
    assert one.addJoint(J.JointModelPX()) is one
    assert one.jointPlacements[1] == pinref.SE3.Identity()
    assert (one.nq, one.nv, one.njoints) == (5, 4, 2)
    assert one.shortname() == one.classname() == "JointModelComposite"
    assert one.createData().shortname() == "JointDataComposite"
    assert str(one) == ("JointModelComposite containing following models:\n"
                        "  JointModelSpherical\n  JointModelPX\n")
    assert one.lie_group.name == "SO(3)*R^1"
    # in a model: the parts' ids and offsets follow the composite's, as in pin
    rmodel, pmodel = build("composite_nested")
    for i in composites(rmodel):
        mine, ref = rmodel.joints[i], pmodel.joints[i].extract()
        assert (mine.nq, mine.nv, mine.idx_q, mine.idx_v, mine.njoints) == \
            (ref.nq, ref.nv, ref.idx_q, ref.idx_v, ref.njoints)
        assert [(j.shortname(), j.id, j.idx_q, j.idx_v) for j in mine.joints] == \
            [(j.shortname(), j.id, j.idx_q, j.idx_v) for j in ref.joints]
        for k, j in enumerate(mine.joints):
            if j.shortname() == "JointModelComposite":
                inner = ref.joints[k].extract()
                assert [(x.id, x.idx_q, x.idx_v) for x in j.joints] == \
                    [(x.id, x.idx_q, x.idx_v) for x in inner.joints]


def test_copies_never_share_their_joints():
    J = pinref.joints
    comp = J.JointModelComposite(J.JointModelRX()).addJoint(J.JointModelPY())
    model = pinref.Model()
    model.addJoint(0, J.JointModelRZ(), pinref.SE3.Identity(), "a")
    model.addJoint(1, comp, pinref.SE3.Identity(), "b")
    model.addJoint(2, comp, pinref.SE3.Identity(), "c")
    assert [j.idx_q for j in comp.joints] == [0, 1]
    assert [j.idx_q for j in model.joints[2].joints] == [1, 2]
    assert [j.idx_q for j in model.joints[3].joints] == [3, 4]
    comp.addJoint(J.JointModelRY())
    assert model.joints[2].njoints == 2 and model.nq == 5


def test_bad_input_raises_typed_errors():
    J = pinref.joints
    with pytest.raises(errors.ArgumentTypeError, match="joint_model"):
        J.JointModelComposite().addJoint(pin.JointModelRX())
    with pytest.raises(errors.ArgumentTypeError, match="joint_placement"):
        J.JointModelComposite(J.JointModelRX(), np.eye(4))
    with pytest.raises(errors.ArgumentTypeError, match="takes"):
        J.JointModelComposite(J.JointModelRX(), pinref.SE3.Identity(), 3)
    empty = J.JointModelComposite()
    with pytest.raises(errors.ModelError, match="addJoint"):
        empty.calc(empty.createData(), np.zeros(0))
    comp = J.JointModelComposite(J.JointModelRX()).addJoint(J.JointModelRY())
    comp.setIndexes(1, 2, 2)
    with pytest.raises(errors.ShapeError, match="JointModelComposite"):
        comp.calc(comp.createData(), np.zeros(3))


# --- calc against pin ------------------------------------------------------------------------


def _fields(jdata, lib, nv):
    """M, S, v, c, joint_q, joint_v of one (pin: one state) joint data, and for a composite its
    iMlast, pjMi and parts, recursively, as a flat dict."""
    if lib == "pin" and hasattr(jdata, "extract") and jdata.shortname() == "JointDataComposite":
        jdata = jdata.extract()
    out = {"M": np.asarray(jdata.M.homogeneous), "S": np.reshape(jdata.S, (6, nv)) if lib == "pin" else np.asarray(jdata.S),
           "v": np.asarray(jdata.v.vector), "c": np.asarray(jdata.c.vector)}
    if jdata.shortname() == "JointDataComposite":
        out["joint_q"], out["joint_v"] = np.asarray(jdata.joint_q), np.asarray(jdata.joint_v)
        for k in range(len(jdata.joints)):
            out[f"iMlast[{k}]"] = np.asarray(jdata.iMlast[k].homogeneous)
            out[f"pjMi[{k}]"] = np.asarray(jdata.pjMi[k].homogeneous)
    return out


def _parts(jmodel):
    """(path, joint model) of the joint and of every part, recursively."""
    out = [((), jmodel)]
    for k, part in enumerate(getattr(jmodel, "joints", [])):
        out += [((k,) + path, j) for path, j in _parts(part)]
    return out


def _at(jdata, path, lib):
    for k in path:
        if lib == "pin" and hasattr(jdata, "extract"):
            jdata = jdata.extract()
        jdata = jdata.joints[k]
    return jdata


@pytest.mark.parametrize("with_v", [True, False], ids=["q_v", "q_only"])
@pytest.mark.parametrize(("model_name", "batch"), CASES, ids=str)
def test_calc_matches_pin(model_name, batch, with_v):
    rmodel, pmodel = build(model_name)
    q, v, _ = _states(pmodel, batch, 3)
    for i in composites(rmodel):
        jmodel, pj = rmodel.joints[i], pmodel.joints[i]
        jdata = jmodel.createData()
        jmodel.calc(jdata, q, v) if with_v else jmodel.calc(jdata, q)
        for idx in np.ndindex(*batch):
            pd = pj.createData()
            pj.calc(pd, q[idx], v[idx]) if with_v else pj.calc(pd, q[idx])
            for path, part in _parts(jmodel):
                ref = _fields(_at(pd, path, "pin"), "pin", part.nv)
                got = _fields(_at(jdata, path, "pinref"), "pinref", part.nv)
                for key in ref:
                    if key in ("v", "c", "joint_v") and not with_v:
                        continue
                    x = np.broadcast_to(got[key], batch + ref[key].shape)[idx]
                    assert_close(x, ref[key], what=f"joint {i} part {path} {key} at {idx}")


def test_batched_calc_equals_per_state_calc():
    rmodel, pmodel = build("composite_tree")
    q, v, _ = _states(pmodel, (2, 3), 4)
    for i in composites(rmodel):
        jmodel = rmodel.joints[i]
        whole = jmodel.createData()
        jmodel.calc(whole, q, v)
        for idx in np.ndindex(2, 3):
            one = jmodel.createData()
            jmodel.calc(one, q[idx], v[idx])
            for name in ("S", "joint_q", "joint_v"):
                np.testing.assert_array_equal(getattr(whole, name)[idx], getattr(one, name))
            for name in ("v", "c"):
                np.testing.assert_array_equal(getattr(whole, name).vector[idx],
                                              getattr(one, name).vector)
            np.testing.assert_array_equal(whole.M.rotation[idx], one.M.rotation)


# --- configuration space against pin --------------------------------------------------------


def _one_joint_models(jmodel):
    """A pinref and a pin model holding only ``jmodel`` (bounds [-2, 2])."""
    rmodel = pinref.Model()
    rmodel.addJoint(0, jmodel, pinref.SE3.Identity(), "c", min_config=np.full(jmodel.nq, -2.0),
                    max_config=np.full(jmodel.nq, 2.0))
    return rmodel, to_pinocchio(rmodel)


@pytest.mark.parametrize("batch", SHAPES, ids=str)
@pytest.mark.parametrize("model_name", ["composite_tree", "composite_nested"])
def test_lie_group_matches_pin(model_name, batch):
    rmodel, _ = build(model_name)
    rng = np.random.default_rng(5)
    for i in composites(rmodel):
        jm = rmodel.joints[i]
        one, pm = _one_joint_models(jm)
        jm = one.joints[1]
        q0, v, _ = _states(pm, batch, 6)
        q1, _, _ = _states(pm, batch, 7)
        u = rng.uniform(size=batch)
        assert_close(jm.neutral(), pin.neutral(pm))
        raw = q0 * rng.uniform(0.5, 2.0, batch + (jm.nq,))
        ops = [("integrate", jm.integrate(q0, v), pin.integrate, (q0, v), ()),
               ("difference", jm.difference(q0, q1), pin.difference, (q0, q1), ()),
               ("interpolate", jm.interpolate(q0, q1, u), pin.interpolate, (q0, q1, u), ()),
               ("normalize", jm.normalize(raw), pin.normalize, (raw,), ())]
        for arg in (0, 1):
            position = (pin.ArgumentPosition(arg),)
            ops += [(f"dIntegrate{arg}", jm.dIntegrate(q0, v, arg), pin.dIntegrate, (q0, v),
                     position),
                    (f"dDifference{arg}", jm.dDifference(q0, q1, arg), pin.dDifference,
                     (q0, q1), position)]
        for idx in np.ndindex(*batch):
            for name, got, function, arrays, extra in ops:
                ref = function(pm, *[x[idx].copy() for x in arrays], *extra)
                assert_close(got[idx], ref, what=f"joint {i} {name} at {idx}")
            assert bool(np.broadcast_to(jm.is_normalized(raw), batch)[idx]) == \
                pin.isNormalized(pm, raw[idx])
        # model level, through the joint's configuration space
        assert_close(pinref.integrate(one, q0, v)[()], jm.integrate(q0, v))
        assert_close(pinref.squaredDistance(one, q0, q1)[..., 0],
                     (jm.difference(q0, q1) ** 2).sum(-1))
        # random configurations: each part's, normalized
        qr = jm.random_configuration(one.lowerPositionLimit, one.upperPositionLimit, rng)
        assert np.all(jm.is_normalized(qr)) and qr.shape == (jm.nq,)


def test_configuration_checks_every_unit_part():
    rmodel, pmodel = build("composite_tree")
    q, _, _ = _states(pmodel, (), 8)
    jm = rmodel.joints[7]   # FreeFlyer + HX: its quaternion is q[3:7] of the composite
    bad = q.copy()
    bad[jm.idx_q + 3] += 0.5
    with pytest.raises(errors.NotNormalizedError, match="j6"):
        pinref.rnea(rmodel, rmodel.createData(), bad, np.zeros(rmodel.nv), np.zeros(rmodel.nv))
    two = rmodel.joints[2]   # Spherical + PrismaticUnaligned + RUBZ: two unit parts
    assert two.lie_group.units == (slice(0, 4), slice(5, 7)) and two.lie_group.unit is None
    for part in (slice(0, 4), slice(5, 7)):
        bad = q.copy()
        bad[two.idx_q + part.start] *= 1.5
        with pytest.raises(errors.NotNormalizedError, match="j1"):
            rmodel.check_configuration(bad)
    with pytest.raises(errors.NotNormalizedError):
        two.integrate(bad[two.q_slice], np.zeros(two.nv))


# --- algorithms against pin ------------------------------------------------------------------

SEQUENCES = {
    "rnea_crba_aba": [("rnea", "qvaf"), ("crba", "q"), ("aba", "qvtf"), ("nonLinearEffects", "qv")],
    "fk_jacobians_aba": [("forwardKinematics", "qva"), ("computeJointJacobians", "q"),
                         ("aba", "qvt")],
}


@pytest.mark.parametrize("sequence", list(SEQUENCES))
@pytest.mark.parametrize(("model_name", "batch"), CASES, ids=str)
def test_call_sequences_match_pin(model_name, batch, sequence):
    """Results and every cache after each call, on one Data, with armature. A fresh Data is
    not compared: pin 3.8.0 leaves a new JointDataComposite's S uninitialised."""
    rng, rmodel, pmodel, q, v, a = sequence_setup(model_name, sequence, batch, True)
    state = {"q": q, "v": v, "a": a, "t": 10 * rng.normal(size=batch + (rmodel.nv,)),
             "f": random_fext(rmodel.njoints, batch, rng)}
    rdata = pinref.Data(rmodel)
    pdatas = [pmodel.createData() for _ in np.ndindex(*batch)]
    for name, keys in SEQUENCES[sequence]:
        got = getattr(pinref, name)(rmodel, rdata, *[state[key] for key in keys])
        for k, idx in enumerate(np.ndindex(*batch)):
            args = [[pin.Force(f) for f in state[key][idx]] if key == "f" else state[key][idx]
                    for key in keys]
            ref = getattr(pin, name)(pmodel, pdatas[k], *args)
            if ref is not None:
                assert_close(np.asarray(got)[idx], ref, what=f"{name} at state {idx}")
        compare_data(rmodel, rdata, pdatas, pmodel, batch, f"after {name}")
        for k, idx in enumerate(np.ndindex(*batch) if name == "aba" else ()):
            check_hidden_caches(rmodel, rdata, pmodel, pdatas[k], idx, batch)


DERIVATIVES = {"computeRNEADerivatives": ("dtau_dq", "dtau_dv", "dtau_da"),
               "computeABADerivatives": ("ddq_dq", "ddq_dv", "ddq_dtau")}


def _derivative_caches(function):
    """The caches ``function`` writes and pin exposes, as a cache dict for state ``idx``."""
    def caches(model, data, lib, idx, batch):
        get = cache_getter(lib, idx, batch)
        nv = model.nv
        out = {name: get(getattr(data, name), (6, nv))
               for name in ("J", "dJ", "dAdq", "dAdv", "dFda", "dFdq", "dFdv")}
        square = ("dtau_dq", "dtau_dv") + (("M",) if function[7] == "R" else ("Minv",))
        out.update((name, get(getattr(data, name), (nv, nv))) for name in square)
        for i in range(1, model.njoints):
            out[f"oMi[{i}]"] = get(data.oMi[i].homogeneous, (4, 4))
            for name in ("ov", "oa", "oa_gf", "oh", "of"):
                out[f"{name}[{i}]"] = get(getattr(data, name)[i].vector, (6,))
            out[f"oYcrb[{i}]"] = get(data.oYcrb[i].matrix(), (6, 6))
            if function[7] == "A":
                out[f"oYaba[{i}]"] = get(data.oYaba[i], (6, 6))
        return out
    return caches


@pytest.mark.parametrize("function", list(DERIVATIVES))
@pytest.mark.parametrize(("model_name", "batch"), CASES, ids=str)
def test_rnea_and_aba_derivatives_match_pin(model_name, batch, function):
    rmodel, pmodel = build(model_name)
    rng = np.random.default_rng(len(model_name) + len(batch))
    rmodel.armature = rng.uniform(0.1, 1.0, rmodel.nv)
    pmodel.armature = rmodel.armature.copy()
    q, v, a = random_states(pmodel, batch, rng)
    rdata = pinref.Data(rmodel)
    got = getattr(pinref, function)(rmodel, rdata, q, v, a)
    for idx in np.ndindex(*batch):
        pdata = pmodel.createData()
        ref = [r.copy() for r in getattr(pin, function)(pmodel, pdata, q[idx], v[idx], a[idx])]
        assert_matrices_match_pin(DERIVATIVES[function], got, ref, rmodel.nv, idx, batch,
                                  1e-12)
        assert_caches_match_pin(_derivative_caches(function), rmodel, rdata, pmodel, pdata, idx,
                                batch, 1e-12)


@pytest.mark.parametrize("model_name", COMPOSITE_MODEL_NAMES)
def test_frames_com_energy_and_regressor_match_pin(model_name):
    rmodel, pmodel = build(model_name)
    q, v, a = _states(pmodel, (), 9)
    rdata, pdata = rmodel.createData(), pmodel.createData()
    pinref.forwardKinematics(rmodel, rdata, q, v, a)
    pin.forwardKinematics(pmodel, pdata, q, v, a)
    pinref.updateFramePlacements(rmodel, rdata)
    pin.updateFramePlacements(pmodel, pdata)
    for f in range(rmodel.nframes):
        assert_close(rdata.oMf[f].homogeneous, pdata.oMf[f].homogeneous, what=f"oMf[{f}]")
    for f in (rmodel.nframes - 1, rmodel.nframes // 2):
        for frame in (pin.LOCAL, pin.WORLD, pin.LOCAL_WORLD_ALIGNED):
            ours = pinref.ReferenceFrame(int(frame))
            assert_close(pinref.computeFrameJacobian(rmodel, rdata, q, f, ours),
                         pin.computeFrameJacobian(pmodel, pdata, q, f, frame), what="frame J")
            assert_close(pinref.getFrameClassicalAcceleration(rmodel, rdata, f, ours).vector,
                         pin.getFrameClassicalAcceleration(pmodel, pdata, f, frame).vector)
    assert_close(pinref.jacobianCenterOfMass(rmodel, rdata, q),
                 pin.jacobianCenterOfMass(pmodel, pdata, q), what="Jcom")
    assert_close(pinref.centerOfMass(rmodel, rdata, q, v, a),
                 pin.centerOfMass(pmodel, pdata, q, v, a), what="com")
    assert_close(rdata.acom[0], pdata.acom[0], what="acom")
    for name in ("computeKineticEnergy", "computePotentialEnergy"):
        assert_close(getattr(pinref, name)(rmodel, rdata, q, v) if name[7] == "K" else
                     getattr(pinref, name)(rmodel, rdata, q),
                     getattr(pin, name)(pmodel, pdata, q, v) if name[7] == "K" else
                     getattr(pin, name)(pmodel, pdata, q), what=name)
    assert_close(pinref.computeJointTorqueRegressor(rmodel, rdata, q, v, a),
                 pin.computeJointTorqueRegressor(pmodel, pdata, q, v, a), what="regressor")
    assert_close(pinref.computeCentroidalMomentum(rmodel, rdata, q, v).vector,
                 pin.computeCentroidalMomentum(pmodel, pdata, q, v).vector, what="hg")


# --- sample models, conversion and URDF ---------------------------------------------------------


@pytest.mark.parametrize("function", ["buildSampleModelHumanoid",
                                      "buildSampleModelHumanoidRandom"])
def test_sample_models_have_pins_composite_root(function):
    mine, ref = getattr(pinref, function)(False), getattr(pin, function)(False)
    assert (mine.nq, mine.nv, mine.njoints, mine.nframes) == \
        (ref.nq, ref.nv, ref.njoints, ref.nframes)
    assert mine.names == list(ref.names) and mine.parents == list(ref.parents)
    root, pin_root = mine.joints[1], ref.joints[1].extract()
    assert [j.shortname() for j in root.joints] == [j.shortname() for j in pin_root.joints]
    assert all(M == pinref.SE3.Identity() for M in root.jointPlacements)
    if function == "buildSampleModelHumanoid":
        converted = from_pinocchio(ref)
        for name in ("lowerPositionLimit", "upperPositionLimit", "effortLimit"):
            np.testing.assert_array_equal(getattr(mine, name), getattr(converted, name))
        for i in range(mine.njoints):
            np.testing.assert_array_equal(mine.jointPlacements[i].homogeneous,
                                          converted.jointPlacements[i].homogeneous)


@pytest.mark.parametrize("model_name", COMPOSITE_MODEL_NAMES)
def test_conversion_round_trips(model_name):
    rmodel, pmodel = build(model_name)
    back = from_pinocchio(pmodel)
    for i in composites(rmodel):
        for path, part in _parts(rmodel.joints[i]):
            other = back.joints[i]
            for k in path:
                other = other.joints[k]
            assert other.shortname() == part.shortname()
            assert (other.idx_q, other.idx_v) == (part.idx_q, part.idx_v)
            for M, N in zip(getattr(part, "jointPlacements", []),
                            getattr(other, "jointPlacements", [])):
                assert M == N


def test_urdf_root_joint_can_be_a_composite():
    urdf = "tests/model/urdf/quadruped.urdf"
    J = pinref.joints
    P = pinref.SE3.Random(rng=np.random.default_rng(2))
    mine = pinref.buildModelFromUrdf(urdf, J.JointModelComposite(J.JointModelTranslation())
                                     .addJoint(J.JointModelSpherical(), P), "base_comp")
    root = pin.JointModelComposite(pin.JointModelTranslation())
    root.addJoint(pin.JointModelSpherical(), pin.SE3(P.homogeneous))
    ref = pin.buildModelFromUrdf(urdf, root, "base_comp")
    assert mine.names == list(ref.names) and mine.nq == ref.nq and mine.nframes == ref.nframes
    q, v, a = _states(ref, (), 10)
    assert_close(pinref.rnea(mine, mine.createData(), q, v, a),
                 pin.rnea(ref, ref.createData(), q, v, a), what="rnea")


def test_locking_the_composite_root_matches_pin():
    rmodel, pmodel = build("humanoid_composite")
    q0 = np.random.default_rng(12).normal(size=rmodel.nq)
    for locked in ([1], [1, 5], [5]):
        mine, ref = pinref.buildReducedModel(rmodel, locked, q0), \
            pin.buildReducedModel(pmodel, locked, q0)
        q, v, a = _states(ref, (), 13)
        assert_close(pinref.rnea(mine, mine.createData(), q, v, a),
                     pin.rnea(ref, ref.createData(), q, v, a), what=f"rnea, {locked} locked")


def test_aba_refuses_a_composite_of_more_than_6_dofs_without_armature():
    """Its S has more columns than 6: S^T Ia S is singular (pin divides by it anyway)."""
    rmodel, pmodel = build("composite_nested")
    assert rmodel.joints[1].nv == 9
    q, v, a = _states(pmodel, (), 14)
    with pytest.raises(errors.NotPositiveDefiniteError, match="JointModelComposite"):
        pinref.aba(rmodel, rmodel.createData(), q, v, a)
    rmodel.armature = np.full(rmodel.nv, 0.1)
    pinref.aba(rmodel, rmodel.createData(), q, v, a)
