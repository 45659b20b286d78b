"""Joint and frame Jacobians and the joint Jacobians' time variation (pinref/algorithms/jacobian.py)
against Pinocchio 3.8.0, on every model of tests/models.py with one extra OP_FRAME per joint
(frame_cases.Case): results and the caches the calls write (oMi, liMi, v, ov, J, dJ, oMf, iMf),
per state at ``1e-12 * max(1, max|ref|)``.
"""

import numpy as np
import pytest
from frame_cases import BATCHES, FRAMES, Case
from models import MODEL_NAMES

import pinref


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_joint_and_frame_jacobians(model_name, batch):
    c = Case(model_name, batch, seed=2)
    got, refs = c.run("computeJointJacobians", c.q)
    c.compare(got, refs, "computeJointJacobians")
    c.compare_caches("computeJointJacobians", ("liMi", "oMi", "J"))
    got[...] = 0.0  # an owned copy: data.J is not touched
    c.compare_caches("computeJointJacobians (result modified)", ("J",))
    for rf in FRAMES:
        for i in range(c.rmodel.njoints):
            got, refs = c.run("getJointJacobian", i, rf)
            c.compare(got, refs, f"getJointJacobian({i}, {rf.name})")
        for f in range(c.rmodel.nframes):
            got, refs = c.run("getFrameJacobian", f, rf)
            c.compare(got, refs, f"getFrameJacobian({f}, {rf.name})")
        c.compare_caches(f"getFrameJacobian(..., {rf.name})", ("oMf", "J"))
        M = pinref.SE3.Random(rng=c.rng)
        j = c.rmodel.njoints - 1
        got, refs = c.run("getFrameJacobian", j, M, rf)
        c.compare(got, refs, f"getFrameJacobian({j}, placement, {rf.name})")


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_jacobians_computed_from_q(model_name, batch):
    c = Case(model_name, batch, seed=3)
    for i in range(c.rmodel.njoints):
        got, refs = c.run("computeJointJacobian", c.q, i)
        c.compare(got, refs, f"computeJointJacobian({i})")
    c.compare_caches("computeJointJacobian", ("liMi", "iMf", "oMi", "J"))
    for rf in FRAMES:
        for f in range(c.rmodel.nframes):
            got, refs = c.run("computeFrameJacobian", c.q, f, rf)
            c.compare(got, refs, f"computeFrameJacobian({f}, {rf.name})")
        c.compare_caches(f"computeFrameJacobian(..., {rf.name})", ("liMi", "oMi", "iMf", "oMf"))
    f = c.rmodel.nframes - 1
    got, refs = c.run("computeFrameJacobian", c.q, f)
    c.compare(got, refs, "computeFrameJacobian with the default frame (LOCAL)")
    # the no-q overload of computeJointJacobians uses the oMi already in data
    c.run("forwardKinematics", c.q)
    got, refs = c.run("computeJointJacobians")
    c.compare(got, refs, "computeJointJacobians(model, data)")
    c.compare_caches("computeJointJacobians(model, data)", ("oMi", "J"))


@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_jacobian_time_variation(model_name, batch):
    c = Case(model_name, batch, seed=4)
    got, refs = c.run("computeJointJacobiansTimeVariation", c.q, c.v)
    c.compare(got, refs, "computeJointJacobiansTimeVariation")
    c.compare_caches("computeJointJacobiansTimeVariation", ("liMi", "oMi", "v", "ov", "J", "dJ"))
    for rf in FRAMES:
        for i in range(c.rmodel.njoints):
            got, refs = c.run("getJointJacobianTimeVariation", i, rf)
            c.compare(got, refs, f"getJointJacobianTimeVariation({i}, {rf.name})")
        for f in range(c.rmodel.nframes):
            got, refs = c.run("getFrameJacobianTimeVariation", f, rf)
            c.compare(got, refs, f"getFrameJacobianTimeVariation({f}, {rf.name})")
        c.compare_caches(f"getFrameJacobianTimeVariation(..., {rf.name})", ("oMf", "dJ"))


def test_results_are_owned_copies():
    c = Case("tutorial", (2,))
    pinref.computeJointJacobiansTimeVariation(c.rmodel, c.rdata, c.q, c.v)
    pinref.updateFramePlacements(c.rmodel, c.rdata)
    results = [pinref.getJointJacobian(c.rmodel, c.rdata, 3, pinref.WORLD),
               pinref.getFrameJacobian(c.rmodel, c.rdata, 2, pinref.WORLD),
               pinref.getJointJacobianTimeVariation(c.rmodel, c.rdata, 3, pinref.WORLD),
               pinref.getVelocity(c.rmodel, c.rdata, 3).vector,
               pinref.updateFramePlacement(c.rmodel, c.rdata, 2).translation]
    caches = [c.rdata.J, c.rdata.dJ, c.rdata.v[3].vector, c.rdata.oMf[2].translation]
    for r in results:
        assert not any(np.shares_memory(r, x) for x in caches)
