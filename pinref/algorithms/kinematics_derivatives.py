"""Partial derivatives of joint and point velocities and accelerations
(algorithm/kinematics-derivatives.hxx, 3.8.0).

One forward pass fills the WORLD-frame caches; each getter then reads them along the joints
supporting its target. Derivatives with respect to q are taken along the tangent space (column j
is d/d eps at eps = 0 of the quantity at ``integrate(q, eps e_j)``; docs/derivatives.md). Prefix
o: WORLD frame; "x": the motion cross product ``a ^ b``, acting on a matrix column by column.

computeForwardKinematicsDerivatives(q, v, a):          ForwardKinematicsDerivativesForwardStep
    v[0] = a[0] = 0
    for i = 1 .. n-1:
        jcalc(q, v) -> M_J, S_i, v_J, c_J ;  liMi[i] = jointPlacements[i] M_J
        oMi[i] = oMi[parent] liMi[i]                                     (liMi[i] at a root)
        v[i] = v_J + liMi^-1 v[parent] ;  a[i] = S_i a_i + c_J + v[i] x v_J + liMi^-1 a[parent]
        J_i = oMi S_i ;  ov[i] = oMi v[i] ;  dJ_i = ov[i] x J_i ;  oa[i] = oMi a[i]

The getters visit the joints k supporting joint ``i = joint_id`` (root to tip: the columns
``cols_k`` of ``model.supports[i]``; every other column of the results is zero). With
oMlast = oMi[i] = (R, p), ov_p = ov[parent(k)] and oa_p = oa[parent(k)] (zero when parent(k) is
the universe), and ``T(X)`` the columns X expressed in rf (details::translateJointJacobian:
WORLD X ; LOCAL_WORLD_ALIGNED X.linear -= p x X.angular ; LOCAL oMlast^-1 X):

getJointVelocityDerivatives(i, rf) -> (dv_dq, dv_dv):    JointVelocityDerivativesBackwardStep
    dv_dv_k = T(J_k)
    WORLD                 dv_dq_k = (ov_p - ov[i]) x J_k
    LOCAL_WORLD_ALIGNED   w = ov_p - ov[i] ;  w.linear += w.angular x p ;  dv_dq_k = w x dv_dv_k
    LOCAL                 dv_dq_k = (oMlast^-1 ov_p) x dv_dv_k

getJointAccelerationDerivatives(i, rf) -> (dv_dq, da_dq, da_dv, da_da):
                                                     JointAccelerationDerivativesBackwardStep
    da_da_k = T(J_k)
    WORLD                 w = ov_p - ov[i] ;  dv_dq_k = w x J_k ;  da_dv_k = dv_dq_k + dJ_k
                          da_dq_k = (oa_p - oa[i]) x J_k + w x dJ_k        (w x dJ_k: parent > 0)
    LOCAL_WORLD_ALIGNED   w = ov_p - ov[i] ;  w.linear += w.angular x p ;  dv_dq_k = w x da_da_k
                          b = oa_p - oa[i] ;  b.linear += b.angular x p
                          da_dq_k = b x da_da_k + w x T(dJ_k)              (w x T(dJ_k): parent > 0)
                          da_dv_k = T(dJ_k) + dv_dq_k
    LOCAL                 w = oMlast^-1 ov_p ;  dv_dq_k = w x da_da_k ;  w = w - v[i]
                          da_dv_k = w x da_da_k + T(dJ_k)
                          da_dq_k = (oMlast^-1 oa_p) x da_da_k + w x dv_dq_k

Pinocchio skips the LOCAL statements of a root joint's columns (dv_dq_k, da_dq_k stay zero);
with ov_p = oa_p = 0 the formulas above give those zeros, so one statement serves every column.
In WORLD and LOCAL_WORLD_ALIGNED the term marked "parent > 0" is left out of a root joint's
columns although w = -ov[i] is not zero there (docs/quirks.md).

Points (a point fixed at ``placement`` in joint i; rf LOCAL or LOCAL_WORLD_ALIGNED only), with
oMpoint = oMi[i] placement = (R, p), the point's LOCAL velocity s = oMpoint^-1 ov[i] and
Jl_k = oMpoint^-1 J_k:

getPointVelocityDerivatives(i, placement, rf) -> (dv_dq, dv_dv):
                                                      PointVelocityDerivativesBackwardStep
    dv_dv_k = Jl_k.linear ;  dv_dq_k = ((oMpoint^-1 ov_p) x Jl_k).linear
    LOCAL_WORLD_ALIGNED   dv_dq_k = R (dv_dq_k + Jl_k.angular x s.linear) ;  dv_dv_k = R dv_dv_k

getPointClassicAccelerationDerivatives(i, placement, rf) -> (dv_dq, da_dq, da_dv, da_da):
                                            PointClassicAccelerationDerivativesBackwardStep
    acc = (oMpoint^-1 oa[i]).linear + s.angular x s.linear        (the classic acceleration)
    da_da_k = Jl_k.linear ;  V_k = (oMpoint^-1 ov_p) x Jl_k ;  dv_dq_k = V_k.linear
    w = oMpoint^-1 ov_p - s ;  B(m) = s.angular x m.linear - s.linear x m.angular
    da_dv_k = (w x Jl_k).linear + (oMpoint^-1 dJ_k).linear + B(Jl_k)
    da_dq_k = ((oMpoint^-1 oa_p) x Jl_k).linear + (w x V_k).linear + B(V_k)
    LOCAL_WORLD_ALIGNED   dv_dq_k = R (dv_dq_k + Jl_k.angular x s.linear)
                          da_dq_k = R (da_dq_k + Jl_k.angular x acc) ;  da_dv, da_da: R (.)

How the code maps to the loops: computeForwardKinematicsDerivatives is forwardKinematics'
level loop (kinematics.py: oMi, v and a are the statements that read the parent) followed by
the column statements of computeJointJacobiansTimeVariation (jacobian.py: J, ov, dJ for every
joint at once) and ``oa = oMi a`` for every joint; the statements are the same. A getter's
per-joint loop becomes one statement over all the supporting columns: each column reads its
own J_k, dJ_k and its joint's parent's ov, oa, never another column's result. The columns are
held as motions ``(..., K, 6)`` (K supporting columns).

``computeJointKinematicHessians`` and ``getJointKinematicHessian`` (end of the same header) are
not in pin 3.8.0's Python bindings, nor is ``data.kinematic_hessians``; pinref has neither.

Every getter returns new arrays ``(..., 6, nv)`` (``(..., 3, nv)`` for points), as pin's
bindings do (fresh zero matrices filled on the support), and raises NotComputedError when the
caches it reads were never written.
"""

import numpy as np

from ..errors import ArgumentTypeError, ModelError
from ..model.tree import tree
from ..spatial import SE3, Motion
from ..spatial._kernels import (
    ANGULAR,
    LINEAR,
    act_inv_motion,
    act_motion,
    cross,
    matvec,
    motion_cross_motion,
    mT,
    stack6,
)
from ._args import ReferenceFrame, check_data, state
from ._levels import Walk, full, joint_calc, tangent_rows, widen
from .jacobian import (
    _time_variation_columns,
    check_joint_id,
    check_reference_frame,
    support_columns,
    translate_joint_jacobian,
)
from .kinematics import _forward_kinematic_step

_FIX = "computeForwardKinematicsDerivatives(model, data, q, v, a)"


# --- computeForwardKinematicsDerivatives --------------------------------------------------------


def computeForwardKinematicsDerivatives(model, data, q, v, a):
    """The WORLD-frame caches the kinematic-derivative getters read: placements, velocities,
    accelerations, ``J`` and ``dJ``.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    v, a : ndarray, shape (..., model.nv)

    Returns None, as Pinocchio. Writes ``liMi``, ``oMi``, ``v``, ``a`` (LOCAL, ``v[0] = a[0] =
    0``, a without gravity), ``ov``, ``oa`` (WORLD; entry 0 not written), ``J`` (columns oMi S_i),
    ``dJ`` (columns ov_i x J_i) and the joints' M, S, v, c. Mirrors
    ``pinocchio::computeForwardKinematicsDerivatives`` (kinematics-derivatives.hxx, 3.8.0); see
    the module docstring.
    """
    q, arrays, shape = state(model, q, data=data, v=v, a=a)
    q, v, a = full(shape, q, arrays["v"], arrays["a"])
    widen(data, shape, "liMi", "oMi", "v", "a", "ov", "oa")
    # v[0] = a[0] = 0
    data.v[0] = data.a[0] = Motion.Zero()
    data.J = np.zeros(shape + (6, model.nv))
    data.dJ = np.zeros(shape + (6, model.nv))
    T = Walk(model, q, v)
    # jcalc(q, v) -> M_J, S_i, v_J, c_J ; liMi = jointPlacements[i] M_J   (every joint)
    kin = joint_calc(T, data, q, v, shape)
    aT = tangent_rows(a)
    for level in T.levels:
        # oMi = oMi[parent] liMi ; v_i = v_J + liMi^-1 v_parent ;
        # a_i = S_i a_i + c_J + v_i x v_J + liMi^-1 a_parent
        _forward_kinematic_step(level, kin, data, aT, shape)
    # J_i = oMi S_i ; ov_i = oMi v_i ; dJ_i = ov_i x J_i   (every joint)
    _time_variation_columns(T.tree, data, shape)
    # oa_i = oMi a_i   (every joint)
    data.oa.vector[1:] = act_motion(data.oMi.rotation[1:], data.oMi.translation[1:],
                                    data.a.vector[1:])
    data.mark("computeForwardKinematicsDerivatives", "liMi", "oMi", "v", "a", "ov", "oa", "J",
              "dJ")


# --- the supporting columns ---------------------------------------------------------------------


class _Support:
    """The columns ``cols`` of the joints supporting joint i, and for each the motion of its
    joint's parent read from a stacked cache (``parent_motions``; zero at a root joint)."""

    def __init__(self, model, i):
        pos = tree(model).pos
        chain = model.supports[i][1:]
        self.cols = support_columns(model, i)
        parents = np.array([model.parents[j] for j in chain for _ in range(model.nvs[j])],
                           dtype=np.intp)
        self.parent_rows = np.array([pos[j] for j in parents], dtype=np.intp)
        self.root = parents == 0

    def parent_motions(self, stack):
        """``stack[parent(k)]`` for every supporting column k, ``(..., K, 6)``; 0 at a root."""
        x = np.moveaxis(stack.vector[self.parent_rows], 0, -2)
        return np.where(self.root[:, None], 0.0, x)

    def columns(self, M):
        """Columns ``cols`` of ``M (..., 6, nv)`` as motions ``(..., K, 6)``."""
        return mT(M[..., self.cols])


def _require(data, where, *caches):
    """NotComputedError unless every cache the getter reads was written by some call."""
    for cache in caches:
        data.require(where, cache, _FIX)


def _shifted(w, p):
    """``w.linear += w.angular x p`` (a motion moved to the origin p, world axes)."""
    return stack6(w[..., LINEAR] + cross(w[..., ANGULAR], p), w[..., ANGULAR])


def _out(model, support, cols, shape, rows=6):
    """A new ``(*shape, rows, nv)`` matrix, zero but at the supporting columns (``cols``)."""
    out = np.zeros(shape + (rows, model.nv))
    out[..., support.cols] = mT(cols)
    return out


def _joint_target(model, data, joint_id, reference_frame, where, caches):
    """The checked (joint index, ReferenceFrame) of a joint getter's arguments."""
    check_data(model, data)
    i = check_joint_id(model, joint_id, where)
    rf = check_reference_frame(reference_frame, where)
    _require(data, where, *caches)
    return i, rf


# --- joints --------------------------------------------------------------------------------------


def getJointVelocityDerivatives(model, data, joint_id, reference_frame):
    """Partial derivatives of joint ``joint_id``'s spatial velocity in ``reference_frame``.

    Parameters
    ----------
    joint_id : int (or a joint name)
    reference_frame : ReferenceFrame (required, as in pin's Python API)
        LOCAL: ``data.v[i]``; WORLD: ``oMi v[i]``; LOCAL_WORLD_ALIGNED: the joint origin's
        velocity in world axes (``getVelocity`` in the same frame).

    Returns
    -------
    (dv_dq, dv_dv) : two new ndarrays, shape (..., 6, model.nv); zero outside the columns of
        the joints supporting joint_id. dv_dq along the tangent space; dv_dv is the joint's
        Jacobian in reference_frame.

    Reads ``J``, ``oMi``, ``ov``: call ``computeForwardKinematicsDerivatives`` first. Mirrors
    ``pinocchio::getJointVelocityDerivatives`` (kinematics-derivatives.hxx, 3.8.0; the
    binding returns the tuple); see the module docstring.
    """
    return joint_velocity_derivatives(model, data, joint_id, reference_frame,
                                      "getJointVelocityDerivatives")


def joint_velocity_derivatives(model, data, joint_id, reference_frame, where):
    """``getJointVelocityDerivatives``; ``where`` names the public call in the messages (the
    frame version's name when it calls this)."""
    i, rf = _joint_target(model, data, joint_id, reference_frame, where, ("J", "ov"))
    S = _Support(model, i)
    oMlast = data.oMi[i]
    # dv_dv_k = T(J_k)
    dv_dv = translate_joint_jacobian(model, i, rf, oMlast, data.J)
    D = S.columns(dv_dv)
    ov_p, ov_i = S.parent_motions(data.ov), data.ov[i].vector[..., None, :]
    if rf == ReferenceFrame.WORLD:
        # dv_dq_k = (ov_p - ov[i]) x J_k
        w = ov_p - ov_i
    elif rf == ReferenceFrame.LOCAL_WORLD_ALIGNED:
        # w = ov_p - ov[i] ; w.linear += w.angular x p ; dv_dq_k = w x dv_dv_k
        w = _shifted(ov_p - ov_i, oMlast.translation[..., None, :])
    else:
        # dv_dq_k = (oMlast^-1 ov_p) x dv_dv_k
        w = act_inv_motion(oMlast.rotation[..., None, :, :], oMlast.translation[..., None, :],
                           ov_p)
    dv_dq = motion_cross_motion(w, D)
    return _out(model, S, dv_dq, dv_dq.shape[:-2]), dv_dv


def getJointAccelerationDerivatives(model, data, joint_id, reference_frame):
    """Partial derivatives of joint ``joint_id``'s spatial acceleration in ``reference_frame``.

    Parameters
    ----------
    joint_id : int (or a joint name)
    reference_frame : ReferenceFrame (required)
        The frame of ``getAcceleration`` (LOCAL ``data.a[i]``, WORLD ``oMi a[i]``,
        LOCAL_WORLD_ALIGNED: world axes at the joint origin).

    Returns
    -------
    (dv_dq, da_dq, da_dv, da_da) : four new ndarrays, shape (..., 6, model.nv), the order of
        pin's binding: the velocity's dq partial, then the acceleration's dq, dv, da partials
        (da_da is the Jacobian in reference_frame, which is also the velocity's dv partial).

    Reads ``J``, ``dJ``, ``oMi``, ``ov``, ``oa`` and (LOCAL) ``v``: call
    ``computeForwardKinematicsDerivatives`` first. Mirrors
    ``pinocchio::getJointAccelerationDerivatives`` (kinematics-derivatives.hxx, 3.8.0); see the
    module docstring, which also says where a root joint's columns leave a term out.
    """
    return joint_acceleration_derivatives(model, data, joint_id, reference_frame,
                                          "getJointAccelerationDerivatives")


def joint_acceleration_derivatives(model, data, joint_id, reference_frame, where):
    """``getJointAccelerationDerivatives``; ``where`` names the public call in the messages (the
    frame version's name when it calls this)."""
    i, rf = _joint_target(model, data, joint_id, reference_frame, where,
                          ("J", "dJ", "ov", "oa", "v"))
    S = _Support(model, i)
    oMlast = data.oMi[i]
    R, p = oMlast.rotation[..., None, :, :], oMlast.translation[..., None, :]
    ov_p, ov_i = S.parent_motions(data.ov), data.ov[i].vector[..., None, :]
    oa_p, oa_i = S.parent_motions(data.oa), data.oa[i].vector[..., None, :]
    # da_da_k = T(J_k) ;  T(dJ_k)
    da_da = translate_joint_jacobian(model, i, rf, oMlast, data.J)
    D, dJ = S.columns(da_da), S.columns(translate_joint_jacobian(model, i, rf, oMlast, data.dJ))
    if rf == ReferenceFrame.LOCAL:
        # w = oMlast^-1 ov_p ; dv_dq_k = w x da_da_k ; w = w - v[i]
        w = act_inv_motion(R, p, ov_p)
        dv_dq = motion_cross_motion(w, D)
        w = w - data.v[i].vector[..., None, :]
        # da_dv_k = w x da_da_k + T(dJ_k)
        da_dv = motion_cross_motion(w, D) + dJ
        # da_dq_k = (oMlast^-1 oa_p) x da_da_k + w x dv_dq_k
        da_dq = motion_cross_motion(act_inv_motion(R, p, oa_p), D) + motion_cross_motion(w, dv_dq)
    else:
        # w = ov_p - ov[i] ; b = oa_p - oa[i]   (LOCAL_WORLD_ALIGNED: both moved to p)
        w, b = ov_p - ov_i, oa_p - oa_i
        if rf == ReferenceFrame.LOCAL_WORLD_ALIGNED:
            w, b = _shifted(w, p), _shifted(b, p)
        # dv_dq_k = w x da_da_k
        dv_dq = motion_cross_motion(w, D)
        # da_dq_k = b x da_da_k + w x T(dJ_k)   (the second term for parent > 0 only)
        w_dJ = motion_cross_motion(w, dJ)
        w_dJ[..., S.root, :] = 0.0
        da_dq = motion_cross_motion(b, D) + w_dJ
        # da_dv_k = T(dJ_k) + dv_dq_k
        da_dv = dJ + dv_dq
    shape = np.broadcast_shapes(dv_dq.shape[:-2], da_dq.shape[:-2], da_dv.shape[:-2])
    return (_out(model, S, dv_dq, shape), _out(model, S, da_dq, shape),
            _out(model, S, da_dv, shape), np.broadcast_to(da_da, shape + da_da.shape[-2:]).copy())


# --- points --------------------------------------------------------------------------------------


def _point_target(model, data, joint_id, placement, reference_frame, where, caches):
    """The checked (joint index, ReferenceFrame) of a point getter's arguments."""
    check_data(model, data)
    i = check_joint_id(model, joint_id, where)
    if not isinstance(placement, SE3):
        raise ArgumentTypeError(f"{where}: placement must be a pinref.SE3 (the point's placement "
                                f"in joint {i}'s frame), got {type(placement).__name__}")
    rf = check_reference_frame(reference_frame, where)
    if rf == ReferenceFrame.WORLD:
        raise ModelError(f"{where}: reference_frame must be LOCAL or LOCAL_WORLD_ALIGNED (a "
                         "point's linear velocity has no WORLD form here, as in Pinocchio), got "
                         "WORLD")
    _require(data, where, *caches)
    return i, rf


def _point_frame(data, i, placement, S):
    """oMpoint = oMi[i] placement as ``(R, p)`` broadcast to the columns, the point's LOCAL
    velocity s = oMpoint^-1 ov[i] ``(..., 1, 6)`` and Jl_k = oMpoint^-1 J_k ``(..., K, 6)``."""
    oMpoint = data.oMi[i] * placement
    R, p = oMpoint.rotation[..., None, :, :], oMpoint.translation[..., None, :]
    s = act_inv_motion(R, p, data.ov[i].vector[..., None, :])
    return R, p, s, act_inv_motion(R, p, S.columns(data.J))


def _rotated(R, x):
    """``R x`` for 3-vectors ``x (..., K, 3)`` with ``R (..., 1, 3, 3)``."""
    return matvec(R, x)


def getPointVelocityDerivatives(model, data, joint_id, placement, reference_frame):
    """Partial derivatives of the linear velocity of a point fixed to joint ``joint_id``.

    Parameters
    ----------
    joint_id : int (or a joint name)
    placement : SE3, the point (its frame) in the joint frame
    reference_frame : ReferenceFrame.LOCAL (the point frame's axes) or LOCAL_WORLD_ALIGNED
        (world axes); WORLD raises ModelError, as pin raises ValueError.

    Returns
    -------
    (dv_dq, dv_dv) : two new ndarrays, shape (..., 3, model.nv).

    Reads ``J``, ``oMi``, ``ov``: call ``computeForwardKinematicsDerivatives`` first. Mirrors
    ``pinocchio::getPointVelocityDerivatives`` (kinematics-derivatives.hxx, 3.8.0).
    """
    where = "getPointVelocityDerivatives"
    i, rf = _point_target(model, data, joint_id, placement, reference_frame, where, ("J", "ov"))
    S = _Support(model, i)
    R, p, s, Jl = _point_frame(data, i, placement, S)
    # dv_dv_k = Jl_k.linear ; dv_dq_k = ((oMpoint^-1 ov_p) x Jl_k).linear
    dv_dv = Jl[..., LINEAR]
    dv_dq = motion_cross_motion(act_inv_motion(R, p, S.parent_motions(data.ov)), Jl)[..., LINEAR]
    if rf == ReferenceFrame.LOCAL_WORLD_ALIGNED:
        # dv_dq_k = R (dv_dq_k + Jl_k.angular x s.linear) ; dv_dv_k = R dv_dv_k
        dv_dq = _rotated(R, dv_dq + cross(Jl[..., ANGULAR], s[..., LINEAR]))
        dv_dv = _rotated(R, dv_dv)
    shape = np.broadcast_shapes(dv_dq.shape[:-2], dv_dv.shape[:-2])
    return _out(model, S, dv_dq, shape, 3), _out(model, S, dv_dv, shape, 3)


def getPointClassicAccelerationDerivatives(model, data, joint_id, placement, reference_frame):
    """Partial derivatives of the classic acceleration of a point fixed to joint ``joint_id``
    (the second time derivative of its position: linear acceleration + omega x v).

    Parameters as ``getPointVelocityDerivatives``.

    Returns
    -------
    (dv_dq, da_dq, da_dv, da_da) : four new ndarrays, shape (..., 3, model.nv): the point
        velocity's dq partial, then the classic acceleration's dq, dv, da partials.

    Reads ``J``, ``dJ``, ``oMi``, ``ov``, ``oa``: call ``computeForwardKinematicsDerivatives``
    first. Mirrors ``pinocchio::getPointClassicAccelerationDerivatives``
    (kinematics-derivatives.hxx, 3.8.0).
    """
    where = "getPointClassicAccelerationDerivatives"
    i, rf = _point_target(model, data, joint_id, placement, reference_frame, where,
                          ("J", "dJ", "ov", "oa"))
    S = _Support(model, i)
    R, p, s, Jl = _point_frame(data, i, placement, S)
    # acc = (oMpoint^-1 oa[i]).linear + s.angular x s.linear
    sa = act_inv_motion(R, p, data.oa[i].vector[..., None, :])
    acc = sa[..., LINEAR] + cross(s[..., ANGULAR], s[..., LINEAR])
    # da_da_k = Jl_k.linear ; V_k = (oMpoint^-1 ov_p) x Jl_k ; dv_dq_k = V_k.linear
    da_da = Jl[..., LINEAR]
    w = act_inv_motion(R, p, S.parent_motions(data.ov))
    V = motion_cross_motion(w, Jl)
    dv_dq = V[..., LINEAR]
    # w = oMpoint^-1 ov_p - s
    w = w - s

    def B(m):
        # s.angular x m.linear - s.linear x m.angular
        return cross(s[..., ANGULAR], m[..., LINEAR]) - cross(s[..., LINEAR], m[..., ANGULAR])

    # da_dv_k = (w x Jl_k).linear + (oMpoint^-1 dJ_k).linear + B(Jl_k)
    dJl = act_inv_motion(R, p, S.columns(data.dJ))
    da_dv = (motion_cross_motion(w, Jl)[..., LINEAR] + dJl[..., LINEAR]) + B(Jl)
    # da_dq_k = ((oMpoint^-1 oa_p) x Jl_k).linear + (w x V_k).linear + B(V_k)
    a_p = act_inv_motion(R, p, S.parent_motions(data.oa))
    da_dq = (motion_cross_motion(a_p, Jl)[..., LINEAR] + motion_cross_motion(w, V)[..., LINEAR]) \
        + B(V)
    if rf == ReferenceFrame.LOCAL_WORLD_ALIGNED:
        # dv_dq_k = R (dv_dq_k + Jl_k.angular x s.linear) ; da_dq_k = R (da_dq_k + Jl_k.angular
        # x acc) ; da_dv_k = R da_dv_k ; da_da_k = R da_da_k
        dv_dq = _rotated(R, dv_dq + cross(Jl[..., ANGULAR], s[..., LINEAR]))
        da_dq = _rotated(R, da_dq + cross(Jl[..., ANGULAR], acc))
        da_dv, da_da = _rotated(R, da_dv), _rotated(R, da_da)
    shape = np.broadcast_shapes(*(x.shape[:-2] for x in (dv_dq, da_dq, da_dv, da_da)))
    return tuple(_out(model, S, x, shape, 3) for x in (dv_dq, da_dq, da_dv, da_da))


__all__ = ["computeForwardKinematicsDerivatives", "getJointVelocityDerivatives",
           "getJointAccelerationDerivatives", "getPointVelocityDerivatives",
           "getPointClassicAccelerationDerivatives"]
