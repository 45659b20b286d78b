"""The model's Tree (pinref/model/tree.py) follows edits of the model made after a first call.

Each case edits the pinref model and the pin model the same way after a first aba, then
compares rnea, crba and aba with pin 3.8.0: in place (``translation[1] = ...``), by attribute
(``mass = ...``) and by replacing an entry. The edit must change the answer (else the case
could not catch a stale constant).
"""

import numpy as np
import pinocchio as pin
import pytest

import pinref
from models import build


def _mass(m):
    m.inertias[4].mass = 5.0


def _lever_in_place(m):
    m.inertias[4].lever[0] = 0.3


def _inertia_attribute(m):
    m.inertias[3].inertia = np.diag([0.3, 0.2, 0.25])


def _translation_in_place(m):
    m.jointPlacements[3].translation[1] = 0.2


def _rotation_in_place(m):
    m.jointPlacements[3].rotation[:] = pin.rpy.rpyToMatrix(0.1, 0.2, 0.3)


def _translation_attribute(m):
    m.jointPlacements[4].translation = np.array([0.1, 0.2, 0.3])


def _replace_inertia(m):
    m.inertias[2] = type(m.inertias[2])(2.0, np.array([0.1, 0.0, 0.0]), np.eye(3) * 0.2)


def _replace_placement(m):
    m.jointPlacements[4] = type(m.jointPlacements[4])(np.eye(3), np.array([0.1, 0.2, 0.3]))


def _armature(m):
    m.armature = np.full(m.nv, 0.1)


EDITS = [_mass, _lever_in_place, _inertia_attribute, _translation_in_place, _rotation_in_place,
         _translation_attribute, _replace_inertia, _replace_placement, _armature]


def _close(got, ref):
    assert np.abs(got - ref).max() <= 1e-12 * max(1.0, np.abs(ref).max())


def _edit_reaches(m, d, pm, pd, q, v, tau, before):
    """After the edit: aba's result changed, and aba, rnea and crba equal pin's."""
    ddq = pinref.aba(m, d, q, v, tau)
    assert np.abs(ddq - before).max() > 1e-6
    _close(ddq, pin.aba(pm, pd, q, v, tau))
    _close(pinref.rnea(m, d, q, v, tau), pin.rnea(pm, pd, q, v, tau))
    _close(pinref.crba(m, d, q), pin.crba(pm, pd, q))


@pytest.mark.parametrize("edit", EDITS, ids=lambda e: e.__name__[1:])
def test_edit_after_a_call_reaches_every_algorithm(edit):
    pm = pin.buildSampleModelManipulator()
    m = pinref.from_pinocchio(pm)
    d, pd = m.createData(), pm.createData()
    rng = np.random.default_rng(3)
    q = pin.randomConfiguration(pm, -np.ones(pm.nq), np.ones(pm.nq))
    v, tau = rng.standard_normal(m.nv), rng.standard_normal(m.nv)
    before = pinref.aba(m, d, q, v, tau)
    edit(m)
    edit(pm)
    _edit_reaches(m, d, pm, pd, q, v, tau, before)


def test_models_sharing_placements_follow_each_others_edits():
    """Two models holding the same SE3 objects: an edit through either reaches both."""
    pm = pin.buildSampleModelManipulator()
    a = pinref.from_pinocchio(pm)
    b = pinref.from_pinocchio(pm)
    b.jointPlacements = a.jointPlacements
    da, db = a.createData(), b.createData()
    q = pinref.neutral(a) + 0.2
    pinref.computeGeneralizedGravity(a, da, q)
    pinref.computeGeneralizedGravity(b, db, q)
    a.jointPlacements[3].translation[1] = 0.2
    pm.jointPlacements[3].translation[1] = 0.2
    ref = pin.computeGeneralizedGravity(pm, pm.createData(), q)
    _close(pinref.computeGeneralizedGravity(a, da, q), ref)
    _close(pinref.computeGeneralizedGravity(b, db, q), ref)


@pytest.mark.parametrize("axis", [[0.0, 0.0, -1.0], [0.36, 0.48, 0.8]], ids=["minus_z", "general"])
def test_reassigned_axis_reaches_every_algorithm(axis):
    """An unaligned joint's axis set after a first call (``jmodel.axis = ...``): the Tree holds
    the joint's placement constants and its group (S = +-e_k or not), so it must rebuild them.
    The Data is created after the edit: a joint data's S is the axis at createData, in
    Pinocchio as in pinref."""
    m = pinref.buildSampleModelManipulator()
    old = m.joints[3]
    m.joints[3] = pinref.JointModelRevoluteUnaligned(np.array([0.0, -1.0, 0.0]))
    m.joints[3].setIndexes(3, old.idx_q, old.idx_v)
    rng = np.random.default_rng(5)
    q, v, tau = (rng.uniform(-1, 1, m.nv) for _ in range(3))
    before = pinref.aba(m, m.createData(), q, v, tau)
    m.joints[3].axis = np.array(axis)
    d = m.createData()
    pm = pinref.to_pinocchio(m)
    _edit_reaches(m, d, pm, pm.createData(), q, v, tau, before)


def test_a_data_created_before_an_axis_change_is_refused():
    """A joint data's S is the axis at createData and the Tree regroups the joint: an older Data
    is one of another model (DataModelMismatchError naming the fix), whichever the algorithm."""
    rm, _ = build("signed")
    d = rm.createData()
    q = pinref.neutral(rm)
    pinref.rnea(rm, d, q, np.zeros(rm.nv), np.zeros(rm.nv))
    rm.joints[2].axis = np.array([1.0, 0.0, 0.0])
    for call in (lambda: pinref.rnea(rm, d, q, np.zeros(rm.nv), np.zeros(rm.nv)),
                 lambda: pinref.crba(rm, d, q),
                 lambda: pinref.aba(rm, d, q, np.zeros(rm.nv), np.zeros(rm.nv))):
        with pytest.raises(pinref.errors.DataModelMismatchError, match="joint axes.*createData"):
            call()
    pinref.rnea(rm, rm.createData(), q, np.zeros(rm.nv), np.zeros(rm.nv))
