"""Sample models: Pinocchio's two deterministic ones and the tutorials' free-flyer + 2 RY chain.

``buildSampleModelManipulator`` and ``buildSampleModelHumanoid`` reproduce
multibody/sample-models.hxx (``buildModels::manipulator`` and ``buildModels::humanoid``) of
Pinocchio 3.8.0 name for name, placement for placement, inertia for inertia, frame for frame.
``buildSampleModelHumanoidRandom`` has the tree, names, frames and limit pattern of
``buildModels::humanoidRandom``, with random numbers from NumPy.
"""

import math

import numpy as np

from ..joints import (JointModelComposite, JointModelFreeFlyer, JointModelRX, JointModelRY,
                      JointModelRZ, JointModelSphericalZYX, JointModelTranslation)
from ..spatial import SE3, Inertia
from .mimic import mimic_of
from .model import Model

_QMIN, _QMAX, _VMAX, _TAUMAX = -3.14, 3.14, 10.0, 10.0


def _ijoint():
    return Inertia(0.1, np.zeros(3), np.eye(3) * 0.01)


def _iarm():
    return Inertia(1.0, np.array([0.0, 0.0, 0.5]), np.eye(3))


def _rotate(angle, axis):
    """Eigen's ``AngleAxis(angle, axis).toRotationMatrix()`` (the formula Pinocchio copies)."""
    u = np.asarray(axis, dtype=float)
    s, c = math.sin(angle), math.cos(angle)
    su, c1u = s * u, (1.0 - c) * u
    R = np.diag(c1u * u + c)
    for a, b, k, sign in ((0, 1, 2, 1.0), (0, 2, 1, -1.0), (1, 2, 0, 1.0)):
        t = c1u[a] * u[b]
        R[a, b] = t - sign * su[k]
        R[b, a] = t + sign * su[k]
    return R


def _add_joint_and_body(model, joint, parent_name, name, placement):
    """``details::addJointAndBody``: joint ``name_joint``, its JOINT frame, a body, a BODY frame.

    Pinocchio appends a random inertia and random limits here; every caller overwrites both.
    """
    idx = model.addJoint(model.getJointId(parent_name), joint, placement, name + "_joint")
    model.addJointFrame(idx, -1)
    model.appendBodyToJoint(idx, Inertia.Random(), SE3.Identity())
    model.addBodyFrame(name + "_body", idx)
    return idx


def _add_manipulator(model, root_joint_idx=0, Mroot=None, pre="", mimic=False):
    """``details::addManipulator``: shoulder RX-RY-RZ, elbow RY, wrist RX-RY; with ``mimic``,
    the last joint is ``wrist1_mimic_joint``, an RY that follows wrist1 (RX) with scaling 2.5
    and offset 0.75."""
    Marm, Id4 = SE3(np.eye(3), np.array([0.0, 0.0, 1.0])), SE3.Identity()
    Mroot = SE3.Identity() if Mroot is None else Mroot
    chain = [(JointModelRX(), "shoulder1", Mroot, _ijoint, ()),
             (JointModelRY(), "shoulder2", Id4, _ijoint, ()),
             (JointModelRZ(), "shoulder3", Id4, _iarm, ("upperarm_body",)),
             (JointModelRY(), "elbow", Marm, _iarm, ("lowerarm_body", "elbow_body")),
             (JointModelRX(), "wrist1", Marm, _ijoint, ()),
             (JointModelRY(), "wrist2", Id4, _iarm, ("effector_body",))]
    if mimic:
        chain[-1] = (None, "wrist1_mimic") + chain[-1][2:]
    parent_name = model.names[root_joint_idx]
    first = None
    for joint, name, placement, inertia, extra_bodies in chain:
        if joint is None:
            joint = mimic_of(JointModelRY(), model.joints[model.njoints - 1], 2.5, 0.75)
        joint_id = _add_joint_and_body(model, joint, parent_name, pre + name, placement)
        first = joint_id if first is None else first
        model.inertias[joint_id] = inertia()
        for body in extra_bodies:
            model.addBodyFrame(pre + body, joint_id)
        parent_name = model.names[joint_id]
    q, v, n = model.idx_qs[first], model.idx_vs[first], 5 if mimic else 6
    model.lowerPositionLimit[q:q + n] = _QMIN
    model.upperPositionLimit[q:q + n] = _QMAX
    model.velocityLimit[v:v + n] = _VMAX
    model.effortLimit[v:v + n] = _TAUMAX


def buildSampleModelManipulator(mimic=False):
    """Pinocchio's 6-dof sample arm (``pin.buildSampleModelManipulator()``), nq = nv = 6.

    ``mimic=True``: the last joint is ``wrist1_mimic_joint``, a JointModelMimic (RY) of
    ``wrist1_joint`` (RX), scaling 2.5, offset 0.75; nq = nv = 5, nvExtended = 6."""
    model = Model()
    _add_manipulator(model, mimic=mimic)
    return model


def _composite_root():
    """The root Pinocchio's sample models use instead of a free-flyer: a JointModelComposite of
    a JointModelTranslation and a JointModelSphericalZYX (nq = nv = 6), placements identity."""
    return JointModelComposite(JointModelTranslation()).addJoint(JointModelSphericalZYX())


def buildSampleModelHumanoid(using_free_flyer=True):
    """Pinocchio's sample humanoid (``pin.buildSampleModelHumanoid()``): a free-flyer
    ``root_joint``, two legs and two arms (the manipulator) and a chest and head; nq = 35,
    nv = 34, njoints = 30. ``using_free_flyer=False``: the root is a composite of a
    translation and a ZYX spherical joint with Pinocchio's default (infinite) limits, nq =
    nv = 34."""
    model = Model()
    I4 = SE3.Identity()
    if using_free_flyer:
        ff = model.addJoint(0, JointModelFreeFlyer(), I4, "root_joint")
        model.lowerPositionLimit[3:7] = -1.0
        model.upperPositionLimit[3:7] = 1.0
    else:
        ff = model.addJoint(0, _composite_root(), I4, "root_joint")
    model.appendBodyToJoint(ff, _ijoint())
    model.addJointFrame(ff, -1)
    flip = _rotate(math.pi, (1.0, 0.0, 0.0))
    _add_manipulator(model, ff, SE3(flip, np.array([0.0, -0.2, -0.1])), "rleg_")
    _add_manipulator(model, ff, SE3(flip, np.array([0.0, 0.2, -0.1])), "lleg_")
    for foot in (7, 13):
        model.jointPlacements[foot] = SE3(_rotate(math.pi / 2, (0.0, 1.0, 0.0)),
                                          model.jointPlacements[foot].translation)
    limits = dict(max_effort=[_TAUMAX], max_velocity=[_VMAX], min_config=[_QMIN],
                  max_config=[_QMAX])
    idx = ff
    for joint, name, placement, inertia in (
            (JointModelRX(), "chest1", I4, _ijoint), (JointModelRY(), "chest2", I4, _iarm),
            (JointModelRX(), "head1", SE3(np.eye(3), np.array([0.0, 0.0, 1.0])), _ijoint),
            (JointModelRY(), "head2", I4, _iarm)):
        idx = model.addJoint(idx, joint, placement, name + "_joint", **limits)
        model.appendBodyToJoint(idx, inertia())
        model.addJointFrame(idx, -1)
        model.addBodyFrame(name + "_body", idx)
        if name == "chest2":
            chest = idx
    _add_manipulator(model, chest, SE3(flip, np.array([0.0, -0.3, 1.0])), "rarm_")
    _add_manipulator(model, chest, SE3(flip, np.array([0.0, 0.3, 1.0])), "larm_")
    return model


_HUMANOID_RANDOM_LIMBS = (
    ("lleg", "root_joint", "XYZYYX"), ("rleg", "root_joint", "XYZYYX"),
    ("torso", "root_joint", "YZ"), ("rarm", "chest_joint", "XYZYYX"),
    ("larm", "chest_joint", "XYZYYX"))


def _add_random_joint_and_body(model, joint, parent_name, name, placement):
    """``details::addJointAndBody`` with random limits: effort and velocity limits uniform in
    [0, 2], lower position limits in [-2, 0], upper ones in [0, 2], a random body; numbers from
    NumPy's global generator (``np.random.seed`` makes them repeatable)."""
    nq, nv = joint.nq, joint.nv
    rng = np.random
    idx = model.addJoint(model.getJointId(parent_name), joint, placement, name + "_joint",
                         rng.uniform(-1.0, 1.0, nv) + 1.0, rng.uniform(-1.0, 1.0, nv) + 1.0,
                         rng.uniform(-1.0, 1.0, nq) - 1.0, rng.uniform(-1.0, 1.0, nq) + 1.0)
    model.addJointFrame(idx, -1)
    model.appendBodyToJoint(idx, Inertia.Random(rng=rng), SE3.Identity())
    model.addBodyFrame(name + "_body", idx)
    return idx


def buildSampleModelHumanoidRandom(using_free_flyer=True, mimic=False):
    """Pinocchio's random humanoid (``pin.buildSampleModelHumanoidRandom``,
    ``buildModels::humanoidRandom``): a free-flyer ``root_joint`` carrying two 6-dof legs
    (``lleg1..6``, ``rleg1..6``: RX RY RZ RY RY RX) and a torso (``torso1`` RY, ``chest`` RZ)
    with two 6-dof arms; nq = 33, nv = 32, njoints = 28, nframes = 55. A JOINT and a BODY frame
    per joint. The structure is Pinocchio's; the placements (except the root's identity), the
    inertias and the limits are random, drawn from NumPy's global generator (Pinocchio draws
    them from Eigen's ``Random``, so the values differ). The quaternion's limits are [-1, 1].

    ``using_free_flyer=False``: the root is Pinocchio's ``JointModelComposite`` of a
    ``JointModelTranslation`` and a ``JointModelSphericalZYX`` (nq = nv = 32), its limits
    random like the others'. ``mimic=True``: ``larm6_joint`` is a JointModelMimic (RX) of
    ``larm5_joint`` (RY), scaling 2.5, offset 0.75 (nq = 32, nv = 31, nvExtended = 32).
    """
    axes = {"X": JointModelRX, "Y": JointModelRY, "Z": JointModelRZ}
    model = Model()
    root = JointModelFreeFlyer() if using_free_flyer else _composite_root()
    _add_random_joint_and_body(model, root, "universe", "root", SE3.Identity())
    if using_free_flyer:
        model.lowerPositionLimit[3:7] = -1.0
        model.upperPositionLimit[3:7] = 1.0
    for limb, parent_name, joint_axes in _HUMANOID_RANDOM_LIMBS:
        for k, axis in enumerate(joint_axes):
            name = "chest" if limb == "torso" and k == 1 else f"{limb}{k + 1}"
            joint = axes[axis]()
            if mimic and name == "larm6":
                joint = mimic_of(joint, model.joints[model.njoints - 1], 2.5, 0.75)
            _add_random_joint_and_body(model, joint, parent_name, name,
                                       SE3.Random(rng=np.random))
            parent_name = name + "_joint"
    return model


def buildTutorialModel():
    """The chain both tutorials trace: a free-flyer ``root_joint`` carrying a base, then two RY
    joints ``ry1_joint`` and ``ry2_joint``, each carrying a link (nq = 9, nv = 8, njoints = 4).

    Placements and inertias are fixed, non-symmetric values (centres of mass off the joint
    axes, off-diagonal rotational inertias, a tilted second joint) so that every block of M and
    every ABA cache is generic. Frames: a JOINT frame per joint and a BODY frame per body.
    """
    model = Model()
    model.name = "tutorial"
    base = Inertia(5.0, np.array([0.02, -0.01, 0.05]),
                   np.array([[0.10, 0.002, 0.001], [0.002, 0.12, -0.003], [0.001, -0.003, 0.08]]))
    link1 = Inertia(1.5, np.array([0.01, 0.02, 0.20]),
                    np.array([[0.020, 0.001, 0.0], [0.001, 0.021, 0.002], [0.0, 0.002, 0.004]]))
    link2 = Inertia(0.8, np.array([-0.01, 0.0, 0.15]),
                    np.array([[0.010, 0.0, 0.001], [0.0, 0.011, 0.0], [0.001, 0.0, 0.002]]))
    placements = (SE3.Identity(),
                  SE3(_rotate(0.1, (1.0, 0.0, 0.0)), np.array([0.1, 0.05, 0.15])),
                  SE3(_rotate(-0.2, (0.0, 0.0, 1.0)), np.array([0.0, 0.02, 0.4])))
    parent = 0
    for joint, name, placement, body in ((JointModelFreeFlyer(), "root", placements[0], base),
                                         (JointModelRY(), "ry1", placements[1], link1),
                                         (JointModelRY(), "ry2", placements[2], link2)):
        parent = model.addJoint(parent, joint, placement, name + "_joint")
        model.addJointFrame(parent, -1)
        model.appendBodyToJoint(parent, body)
        model.addBodyFrame(name + "_body", parent)
    return model
