"""Partial derivatives of frame velocities and accelerations (algorithm/frames-derivatives.hxx,
3.8.0), from the caches of ``computeForwardKinematicsDerivatives``.

A frame fixed at ``placement`` in joint i: the joint's derivatives in rf
(kinematics_derivatives.py) are moved to the frame, on the columns k of the joints supporting
i (the others are zero), each result matrix X the same way:

    getFrameVelocityDerivatives(i, placement, rf) -> (dv_dq, dv_dv)
    getFrameAccelerationDerivatives(i, placement, rf) -> (dv_dq, da_dq, da_dv, da_da)
        X = getJoint{Velocity,Acceleration}Derivatives(i, rf)
        WORLD                 X_k                           (the frame moves with the body)
        LOCAL_WORLD_ALIGNED   X_k.linear -= t x X_k.angular
                              (t = oMi[i].rotation placement.translation)
        LOCAL                 X_k = placement^-1 X_k

The ``frame_id`` overload takes ``(parentJoint, placement)`` of ``model.frames[frame_id]`` and
first writes ``data.oMf[frame_id] = oMi[parentJoint] placement``, as Pinocchio does "for
backward compatibility"; the ``(joint_id, placement)`` overload writes nothing. The statements
on the columns read no other column: each runs once for all of them.
"""

import numpy as np

from ..spatial._kernels import ANGULAR, LINEAR, act_inv_motion, cross, matvec, mT
from ._args import ReferenceFrame, check_data
from .frames import _frame_target, check_data_frames
from .jacobian import support_columns
from .kinematics_derivatives import joint_acceleration_derivatives, joint_velocity_derivatives


def _to_frame(model, data, f, i, placement, rf, matrices):
    """The joint's derivative ``matrices`` moved to the frame at ``placement`` in joint i, in
    place (the getters' switch on rf); writes ``oMf[f]`` for the frame_id overload."""
    if f is not None:
        # oMf[f] = oMi[parentJoint] placement
        data.oMf[f] = data.oMi[i] * placement
    if rf == ReferenceFrame.WORLD:
        return matrices
    shape = np.broadcast_shapes(matrices[0].shape[:-2], placement.shape)
    matrices = tuple(np.broadcast_to(X, shape + X.shape[-2:]).copy() if X.shape[:-2] != shape
                     else X for X in matrices)
    cols = support_columns(model, i)
    if rf == ReferenceFrame.LOCAL_WORLD_ALIGNED:
        # X_k.linear -= t x X_k.angular, t = oMi[i].rotation placement.translation
        t = matvec(data.oMi[i].rotation, placement.translation)[..., None, :]
        for X in matrices:
            X_k = mT(X[..., cols])
            X[..., LINEAR, cols] -= mT(cross(t, X_k[..., ANGULAR]))
    else:
        # X_k = placement^-1 X_k
        R, p = placement.rotation[..., None, :, :], placement.translation[..., None, :]
        for X in matrices:
            X[..., cols] = mT(act_inv_motion(R, p, mT(X[..., cols])))
    return matrices


def _frame_call(model, data, where, args, kwargs):
    """The checked (frame_id or None, joint, placement, rf) of either overload."""
    check_data(model, data)
    f, i, placement, rf = _frame_target(model, where, args, kwargs, None)
    if f is not None:
        check_data_frames(model, data, where)
    return f, i, placement, rf


def getFrameVelocityDerivatives(model, data, *args, **kwargs):
    """Partial derivatives of a frame's spatial velocity in ``reference_frame``.

    ``getFrameVelocityDerivatives(model, data, frame_id, reference_frame)`` or
    ``getFrameVelocityDerivatives(model, data, joint_id, placement, reference_frame)``
    (``reference_frame`` required, as in pin's Python API). The velocity is
    ``getFrameVelocity`` in the same frame.

    Returns
    -------
    (dv_dq, dv_dv) : two new ndarrays, shape (..., 6, model.nv); zero outside the columns of
        the joints supporting the frame's joint. dv_dv is the frame Jacobian in rf.

    Reads ``J``, ``oMi``, ``ov``: call ``computeForwardKinematicsDerivatives`` first; the
    frame_id form writes ``oMf[frame_id]``. Mirrors ``pinocchio::getFrameVelocityDerivatives``
    (frames-derivatives.hxx/.hpp, 3.8.0); see the module docstring.
    """
    where = "getFrameVelocityDerivatives"
    f, i, placement, rf = _frame_call(model, data, where, args, kwargs)
    matrices = joint_velocity_derivatives(model, data, i, rf, where)
    return _to_frame(model, data, f, i, placement, rf, matrices)


def getFrameAccelerationDerivatives(model, data, *args, **kwargs):
    """Partial derivatives of a frame's spatial acceleration in ``reference_frame``.

    ``getFrameAccelerationDerivatives(model, data, frame_id, reference_frame)`` or
    ``getFrameAccelerationDerivatives(model, data, joint_id, placement, reference_frame)``.
    The acceleration is ``getFrameAcceleration`` in the same frame.

    Returns
    -------
    (dv_dq, da_dq, da_dv, da_da) : four new ndarrays, shape (..., 6, model.nv), the order of
        pin's binding (the velocity's dq partial first).

    Reads ``J``, ``dJ``, ``oMi``, ``ov``, ``oa``, ``v``: call
    ``computeForwardKinematicsDerivatives`` first; the frame_id form writes ``oMf[frame_id]``.
    Mirrors ``pinocchio::getFrameAccelerationDerivatives`` (frames-derivatives.hxx/.hpp, 3.8.0).
    """
    where = "getFrameAccelerationDerivatives"
    f, i, placement, rf = _frame_call(model, data, where, args, kwargs)
    matrices = joint_acceleration_derivatives(model, data, i, rf, where)
    return _to_frame(model, data, f, i, placement, rf, matrices)


__all__ = ["getFrameVelocityDerivatives", "getFrameAccelerationDerivatives"]
