"""Frames: placements, velocities, accelerations and Jacobians (algorithm/frames.hxx, 3.8.0),
and the joint getters of algorithm/kinematics.hxx (getVelocity, getAcceleration, ...).

A frame f is fixed to joint i = frame.parentJoint at ``placement`` = iMf. With p = placement,
oMi = data.oMi[i] = (R, t), v = data.v[i] and a = data.a[i] (LOCAL, frame i):

    updateFramePlacements:        oMf[f] = oMi[parentJoint] * placement     (f = 1 .. nframes-1)
    framesForwardKinematics(q):   forwardKinematics(q) ; updateFramePlacements

    getVelocity(i, rf):        LOCAL                 v
                               WORLD                 oMi v
                               LOCAL_WORLD_ALIGNED   (R v.linear, R v.angular)
    getFrameVelocity(f, rf):   LOCAL                 p^-1 v
                               WORLD                 oMi v
                               LOCAL_WORLD_ALIGNED   (R (v.linear + v.angular x p.t), R v.angular)
    get[Frame]Acceleration:    the same with a in place of v
    get[Frame]ClassicalAcceleration(rf):
                               acc = acceleration(rf) ; acc.linear += vel.angular x vel.linear

    getFrameJacobian(f, rf):       oMframe = oMi * placement ; data.J translated to oMframe
                                   (jacobian.py, translateJointJacobian) ; writes oMf[f]
    computeFrameJacobian(q, f, rf), without data.J:
        WORLD                 JointJacobianWorldForwardStep over the supports of i
        LOCAL_WORLD_ALIGNED   ForwardKinematicZeroStep over the supports ; oMf[f] = oMi * p ;
                              JointJacobianLocalWorldAlignedForwardStep over the supports
        LOCAL                 iMf[i] = p ; JointJacobianLocalBackwardStep from i to the root
    getFrameJacobianTimeVariation(f, rf):   oMf[f] = oMi * p ; dJ translated to oMf[f], and
        LOCAL                 dJ_k -= (p^-1 v) x (oMf^-1 J_k)
        LOCAL_WORLD_ALIGNED   dJ_k.linear -= (ov.linear + ov.angular x oMf.t) x J_k.angular
    frameJacobianTimeVariation(q, v, f, rf):   computeJointJacobiansTimeVariation(q, v) ;
                              updateFramePlacements ; getFrameJacobianTimeVariation(f, rf)

updateFramePlacements computes every oMf (rows of the stacked cache, row f = frame f) in one
product: no frame reads another. computeFrameJacobian visits the supporting joints as
jacobian.py's module docstring says (jcalc, liMi and the columns for all of them at once).

WORLD is the motion of the body point at the world origin, not "the local twist rotated"; that
one is LOCAL_WORLD_ALIGNED. The getters read caches written by earlier calls on the same Data
and raise NotComputedError when there is none (see docs/kinematics.md).
"""

import operator

import numpy as np

from ..errors import ArgumentTypeError, ModelError
from ..spatial import SE3, Motion
from ..spatial._kernels import cross, matvec, rot_pair, stack6, type_name
from ..model.tree import tree
from ._args import ReferenceFrame, check_data, state
from .jacobian import (check_joint_id, check_reference_frame,
                       computeJointJacobiansTimeVariation, jacobian_time_variation,
                       local_jacobian, support_columns_of, support_of,
                       support_placements, support_world_placements,
                       translate_joint_jacobian)
from .kinematics import forwardKinematics

_FIX_OMI = "forwardKinematics(model, data, q) (or framesForwardKinematics)"
_FIX_V = "forwardKinematics(model, data, q, v)"
_FIX_A = "forwardKinematics(model, data, q, v, a)"
_FIX_J = "computeJointJacobians(model, data, q)"
_FIX_DJ = "computeJointJacobiansTimeVariation(model, data, q, v)"


def check_frame_id(model, frame_id, where):
    """``frame_id`` (an int, or a frame name) as an index in ``0 .. model.nframes - 1``."""
    if isinstance(frame_id, str):
        ids = [k for k, frame in enumerate(model.frames) if frame.name == frame_id]
        if len(ids) != 1:
            raise ModelError(
                f"{where}: {'several frames are' if ids else 'no frame is'} named {frame_id!r}; "
                f"the frames are {[frame.name for frame in model.frames]}; pass the id, "
                "model.getFrameId(name, type)")
        return ids[0]
    try:
        f = operator.index(frame_id)
    except TypeError:
        raise ModelError(f"{where}: frame_id must be an int or a frame name, got "
                         f"{frame_id!r}") from None
    if not 0 <= f < model.nframes:
        raise ModelError(f"{where}: frame id {f} is out of range: this model has frames 0 .. "
                         f"{model.nframes - 1}; look ids up with model.getFrameId(name)")
    return f


def check_data_frames(model, data, where):
    """``data.oMf`` must have one entry per frame: a Data made before frames were added has not."""
    if len(data.oMf) != model.nframes:
        raise ModelError(f"{where}: data has {len(data.oMf)} frame placements but the model has "
                         f"{model.nframes} frames (frames were added after model.createData()); "
                         "create the Data again: data = model.createData()")


def _frame_target(model, where, args, kwargs, rf_default):
    """The two overloads of the frame getters, (frame_id[, reference_frame]) and
    (joint_id, placement[, reference_frame]), as (frame_id or None, joint_id, placement, rf).

    ``rf_default`` None means reference_frame is required (the Jacobian getters)."""
    joint_form = len(args) >= 3 or (len(args) >= 2 and isinstance(args[1], SE3)) \
        or "placement" in kwargs
    names = ("joint_id", "placement", "reference_frame") if joint_form else (
        "frame_id", "reference_frame")
    if len(args) > len(names):
        raise ArgumentTypeError(f"{where}() takes (model, data, {', '.join(names)}), got "
                        f"{len(args) + 2} positional arguments")
    values = dict(zip(names, args, strict=False))
    for key, value in kwargs.items():
        if key not in names or key in values:
            raise ArgumentTypeError(f"{where}() got an unexpected or repeated argument {key!r}")
        values[key] = value
    if rf_default is not None:
        values.setdefault("reference_frame", rf_default)
    missing = [name for name in names if name not in values]
    if missing:
        raise ArgumentTypeError(f"{where}() missing argument(s) {missing}: pass (model, data, "
                        f"{', '.join(names)})")
    rf = check_reference_frame(values["reference_frame"], where)
    if not joint_form:
        f = check_frame_id(model, values["frame_id"], where)
        return f, model.frames[f].parentJoint, model.frames[f].placement, rf
    if not isinstance(values["placement"], SE3):
        raise ArgumentTypeError(f"{where}(): placement must be a pinref.SE3 (the frame in the "
                                f"joint frame), got {type_name(values['placement'])}; for a 4x4 "
                                "matrix H pass pinref.SE3(H)")
    return None, check_joint_id(model, values["joint_id"], where), values["placement"], rf


# --- placements --------------------------------------------------------------------------------

def updateFramePlacements(model, data):
    """``data.oMf[f] = data.oMi[parentJoint] * placement`` for every frame f >= 1.

    Reads ``oMi`` (call ``forwardKinematics(model, data, q)`` first); writes ``oMf``. Mirrors
    ``pinocchio::updateFramePlacements`` (frames.hxx). ``oMf[0]`` (the universe) stays identity.
    """
    check_data(model, data)
    check_data_frames(model, data, "updateFramePlacements")
    data.require("updateFramePlacements", "oMi", _FIX_OMI)
    frames = list(model.frames)[1:]
    if frames:
        pos = tree(model).pos
        rows = np.array([pos[frame.parentJoint] for frame in frames], dtype=np.intp)
        shape = np.broadcast_shapes(data.oMi.batch, data.oMf.batch)
        data.oMf.widen(shape)
        R, t = data.oMi.rows("rotation", rows, shape), data.oMi.rows("translation", rows, shape)
        # [PR | Pt] of each frame: R [PR | Pt] is one (B*3, 3) x (3, 4) product per frame
        placements = [frame.placement for frame in frames]
        P = np.concatenate((np.array([x.rotation for x in placements]),
                            np.array([x.translation for x in placements])[..., None]), axis=-1)
        RP = (R.reshape(len(frames), -1, 3) @ P).reshape(R.shape[:-1] + (4,))
        # oMf = oMi[parentJoint] * placement   (every frame f >= 1 at once: no frame reads another)
        data.oMf.rotation[1:], data.oMf.translation[1:] = RP[..., :3], t + RP[..., 3]
    data.mark("updateFramePlacements", "oMf")


def updateFramePlacement(model, data, frame_id):
    """``data.oMf[frame_id] = data.oMi[parentJoint] * placement``; returns a copy of it (SE3).

    Mirrors ``pinocchio::updateFramePlacement`` (frames.hxx). Reads ``oMi``.
    """
    check_data(model, data)
    where = "updateFramePlacement"
    f = check_frame_id(model, frame_id, where)
    check_data_frames(model, data, where)
    data.require(where, "oMi", _FIX_OMI)
    frame = model.frames[f]
    # oMf = oMi[parentJoint] * placement
    data.oMf[f] = data.oMi[frame.parentJoint] * frame.placement
    return data.oMf[f].copy()


def framesForwardKinematics(model, data, q):
    """``forwardKinematics(model, data, q)`` then ``updateFramePlacements(model, data)``.

    q : (..., model.nq). Writes ``liMi``, ``oMi``, ``oMf``. Returns None, as Pinocchio.
    """
    forwardKinematics(model, data, q)
    updateFramePlacements(model, data)


# --- velocities and accelerations --------------------------------------------------------------

def _joint_motion(data, i, m, rf):
    """``getVelocity``/``getAcceleration`` body: the motion m of body i (LOCAL) in frame rf."""
    if rf == ReferenceFrame.LOCAL:
        return m.copy()
    oMi = data.oMi[i]
    if rf == ReferenceFrame.WORLD:
        # oMi m
        return oMi.act(m)
    # (R m.linear, R m.angular)
    return Motion.unchecked(rot_pair(oMi.rotation, m.vector))


def _frame_motion(data, i, placement, m, rf):
    """``getFrameVelocity``/``getFrameAcceleration`` body: m of body i seen at the frame
    placed at ``placement`` in joint i, in frame rf."""
    if rf == ReferenceFrame.LOCAL:
        # placement^-1 m
        return placement.actInv(m)
    oMi = data.oMi[i]
    if rf == ReferenceFrame.WORLD:
        # oMi m
        return oMi.act(m)
    # (R (m.linear + m.angular x p.translation), R m.angular)
    linear = m.linear + cross(m.angular, placement.translation)
    return Motion.unchecked(stack6(matvec(oMi.rotation, linear), matvec(oMi.rotation, m.angular)))


def _classical(vel, acc):
    """acc.linear += vel.angular x vel.linear (the classical acceleration of the origin)."""
    return Motion.unchecked(stack6(acc.linear + cross(vel.angular, vel.linear), acc.angular))


def require_acceleration(data, where):
    """``data.a`` must have been written; after ``aba`` it is built on ``oMi``, so that too."""
    data.require(where, "a", _FIX_A)
    if data.written["a"] == "aba":
        data.require(where, "oMi", "forwardKinematics(model, data, q) before aba (aba turns "
                     "a_gf into data.a with the rotations data.oMi holds)")


def _require_motion(data, where, cache, rf):
    if cache == "v":
        data.require(where, "v", _FIX_V)
    else:
        require_acceleration(data, where)
    if rf != ReferenceFrame.LOCAL:
        data.require(where, "oMi", _FIX_OMI)


def getVelocity(model, data, joint_id, reference_frame=ReferenceFrame.LOCAL):
    """Spatial velocity of joint ``joint_id``'s body in ``reference_frame`` (Motion (...)).

    LOCAL: ``data.v[i]``; WORLD: ``oMi v`` (velocity of the body point at the world origin);
    LOCAL_WORLD_ALIGNED: ``(R v.linear, R v.angular)`` (the joint origin's velocity in world
    axes). Reads ``v`` (and ``oMi``): call ``forwardKinematics(model, data, q, v)`` first.
    Mirrors ``pinocchio::getVelocity`` (kinematics.hxx).
    """
    return _joint_quantity(model, data, joint_id, reference_frame, "getVelocity", "v")


def _joint_quantity(model, data, joint_id, reference_frame, where, cache):
    """``data.v[i]`` or ``data.a[i]`` (``cache``) in ``reference_frame``, checked, with
    ``where`` naming the public call in the messages."""
    check_data(model, data)
    i = check_joint_id(model, joint_id, where)
    rf = check_reference_frame(reference_frame, where)
    _require_motion(data, where, cache, rf)
    return _joint_motion(data, i, getattr(data, cache)[i], rf)


def getAcceleration(model, data, joint_id, reference_frame=ReferenceFrame.LOCAL):
    """Spatial acceleration of joint ``joint_id``'s body in ``reference_frame``, as
    ``getVelocity`` with ``data.a``. Needs ``forwardKinematics(model, data, q, v, a)`` first.
    Mirrors ``pinocchio::getAcceleration`` (kinematics.hxx).
    """
    return _joint_quantity(model, data, joint_id, reference_frame, "getAcceleration", "a")


def getClassicalAcceleration(model, data, joint_id, reference_frame=ReferenceFrame.LOCAL):
    """Classical acceleration of the joint origin: the spatial acceleration with
    ``linear += omega x v`` (both from ``reference_frame``). Mirrors
    ``pinocchio::getClassicalAcceleration`` (kinematics.hxx).
    """
    where = "getClassicalAcceleration"
    vel = _joint_quantity(model, data, joint_id, reference_frame, where, "v")
    acc = _joint_quantity(model, data, joint_id, reference_frame, where, "a")
    return _classical(vel, acc)


def getFrameVelocity(model, data, *args, **kwargs):
    """Spatial velocity of a frame in ``reference_frame`` (default LOCAL), Motion (...).

    ``getFrameVelocity(model, data, frame_id, reference_frame=LOCAL)`` or
    ``getFrameVelocity(model, data, joint_id, placement, reference_frame=LOCAL)``.
    LOCAL: ``placement^-1 v``; WORLD: ``oMi v``; LOCAL_WORLD_ALIGNED:
    ``(R (v.linear + v.angular x placement.translation), R v.angular)``. Reads ``v``, ``oMi``:
    call ``forwardKinematics(model, data, q, v)`` first. Mirrors ``pinocchio::getFrameVelocity``.
    """
    check_data(model, data)
    where = "getFrameVelocity"
    _, i, placement, rf = _frame_target(model, where, args, kwargs, ReferenceFrame.LOCAL)
    _require_motion(data, where, "v", rf)
    return _frame_motion(data, i, placement, data.v[i], rf)


def getFrameAcceleration(model, data, *args, **kwargs):
    """Spatial acceleration of a frame, as ``getFrameVelocity`` with ``data.a``. Needs
    ``forwardKinematics(model, data, q, v, a)`` first. Mirrors ``pinocchio::getFrameAcceleration``.
    """
    check_data(model, data)
    where = "getFrameAcceleration"
    _, i, placement, rf = _frame_target(model, where, args, kwargs, ReferenceFrame.LOCAL)
    _require_motion(data, where, "a", rf)
    return _frame_motion(data, i, placement, data.a[i], rf)


def getFrameClassicalAcceleration(model, data, *args, **kwargs):
    """Classical acceleration of a frame's origin: ``getFrameAcceleration`` with
    ``linear += omega x v`` from ``getFrameVelocity`` in the same frame. Mirrors
    ``pinocchio::getFrameClassicalAcceleration`` (frames.hxx).
    """
    check_data(model, data)
    where = "getFrameClassicalAcceleration"
    _, i, placement, rf = _frame_target(model, where, args, kwargs, ReferenceFrame.LOCAL)
    _require_motion(data, where, "v", rf)
    _require_motion(data, where, "a", rf)
    vel = _frame_motion(data, i, placement, data.v[i], rf)
    acc = _frame_motion(data, i, placement, data.a[i], rf)
    return _classical(vel, acc)


# --- Jacobians ---------------------------------------------------------------------------------

def getFrameJacobian(model, data, *args, **kwargs):
    """The Jacobian of a frame in ``reference_frame`` (required), from ``data.J``: (..., 6, nv).

    ``getFrameJacobian(model, data, frame_id, reference_frame)`` or
    ``getFrameJacobian(model, data, joint_id, placement, reference_frame)``. ``J @ v`` is
    ``getFrameVelocity`` in the same frame. Reads ``J`` and ``oMi``: call
    ``computeJointJacobians(model, data, q)`` first. The frame_id form writes ``oMf[frame_id]``.
    Mirrors ``pinocchio::getFrameJacobian`` (frames.hpp/.hxx).
    """
    check_data(model, data)
    where = "getFrameJacobian"
    f, i, placement, rf = _frame_target(model, where, args, kwargs, None)
    check_data_frames(model, data, where)
    data.require(where, "J", _FIX_J)
    # oMframe = oMi * placement
    oMframe = data.oMi[i] * placement
    if f is not None:
        data.oMf[f] = oMframe
    return translate_joint_jacobian(model, i, rf, oMframe, data.J)


def computeFrameJacobian(model, data, q, frame_id, reference_frame=ReferenceFrame.LOCAL):
    """The Jacobian of frame ``frame_id`` in ``reference_frame`` (default LOCAL), from q alone.

    q : (..., model.nq) ; returns (..., 6, model.nv), zero outside the support of the frame.
    Only the supporting joints are visited; ``data.J`` is not written. Writes, on the support:
    ``liMi``, ``oMi`` (WORLD, LOCAL_WORLD_ALIGNED), ``oMf[frame_id]`` (LOCAL_WORLD_ALIGNED),
    ``iMf`` (LOCAL). Mirrors ``pinocchio::computeFrameJacobian`` (frames.hxx).
    """
    where = "computeFrameJacobian"
    f = check_frame_id(model, frame_id, where)
    rf = check_reference_frame(reference_frame, where)
    check_data(model, data)
    check_data_frames(model, data, where)
    q, _, shape = state(model, q, data=data)
    frame = model.frames[f]
    i = frame.parentJoint
    support = support_of(model, i)
    J = np.zeros(shape + (6, model.nv))
    if rf == ReferenceFrame.LOCAL:
        # iMf[i] = placement: the target frame seen from its joint
        data.iMf[i] = frame.placement
        # JointJacobianLocalBackwardStep, tip to root
        local_jacobian(model, data, q, support, frame.placement, J, shape)
        return J
    # jcalc ; liMi ; oMi = oMi[parent] * liMi   (JointJacobianWorldForwardStep or
    # ForwardKinematicZeroStep, root to tip)
    R, p = support_placements(model, data, q, support, shape)
    oR, op = support_world_placements(data, support, R, p, shape)
    if rf == ReferenceFrame.WORLD:
        # J[:, cols_j] = oMi S_j
        support_columns_of(data, support, oR, op, J, False, shape)
    else:
        # oMf = oMi * placement
        data.oMf[f] = data.oMi[i] * frame.placement
        # J[:, cols_j] = (oMi.rotation, oMi.translation - oMf.translation) S_j
        # (JointJacobianLocalWorldAlignedForwardStep)
        support_columns_of(data, support, oR, op - data.oMf[f].translation, J, False, shape)
    return J


def getFrameJacobianTimeVariation(model, data, frame_id, reference_frame):
    """``dJ/dt`` of frame ``frame_id``'s Jacobian in ``reference_frame`` (..., 6, nv).

    Reads ``dJ``, ``J``, ``oMi``, ``v``, ``ov``: call
    ``computeJointJacobiansTimeVariation(model, data, q, v)`` first. Writes ``oMf[frame_id]``.
    Mirrors ``pinocchio::getFrameJacobianTimeVariation`` (frames.hxx).
    """
    check_data(model, data)
    where = "getFrameJacobianTimeVariation"
    f = check_frame_id(model, frame_id, where)
    rf = check_reference_frame(reference_frame, where)
    check_data_frames(model, data, where)
    data.require(where, "dJ", _FIX_DJ)
    frame = model.frames[f]
    i = frame.parentJoint
    # oMf = oMi * placement ; v_frame = placement^-1 v_i
    data.oMf[f] = data.oMi[i] * frame.placement
    v_frame = frame.placement.actInv(data.v[i])
    return jacobian_time_variation(model, data, i, rf, data.oMf[f], v_frame)


def frameJacobianTimeVariation(model, data, q, v, frame_id, reference_frame):
    """``dJ/dt`` of frame ``frame_id``'s Jacobian in ``reference_frame`` (required), from q, v.

    q : (..., model.nq) ; v : (..., model.nv) ; returns (..., 6, model.nv). The calls
    ``computeJointJacobiansTimeVariation(model, data, q, v)``, ``updateFramePlacements(model,
    data)`` and ``getFrameJacobianTimeVariation(model, data, frame_id, reference_frame)``, as
    Pinocchio's Python binding ``frameJacobianTimeVariation`` makes them (3.8.0,
    bindings/python/algorithm/expose-frames.cpp); writes their caches (``liMi``, ``oMi``,
    ``v``, ``ov``, ``J``, ``dJ``, every ``oMf``).
    """
    where = "frameJacobianTimeVariation"
    check_data(model, data)
    check_frame_id(model, frame_id, where)
    check_reference_frame(reference_frame, where)
    check_data_frames(model, data, where)
    computeJointJacobiansTimeVariation(model, data, q, v)
    updateFramePlacements(model, data)
    return getFrameJacobianTimeVariation(model, data, frame_id, reference_frame)


__all__ = ["updateFramePlacements", "updateFramePlacement", "framesForwardKinematics",
           "getVelocity", "getAcceleration", "getClassicalAcceleration", "getFrameVelocity",
           "getFrameAcceleration", "getFrameClassicalAcceleration", "getFrameJacobian",
           "computeFrameJacobian", "getFrameJacobianTimeVariation", "frameJacobianTimeVariation"]
