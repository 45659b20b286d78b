"""Regressors: the dynamics as linear maps of the inertial parameters (algorithm/regressor.hxx,
3.8.0), and the kinematic regressors of the joint placements.

The dynamic parameters of body i (``Inertia.toDynamicParameters``) are
``pi_i = [m, m c_x, m c_y, m c_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz]`` with I the rotational
inertia about the joint frame's origin. Column block i-1 of a regressor belongs to body i.

    bodyRegressor(v, a):  the (6, 10) Y with Y pi == I a + v x* (I v)          (frame of v, a)
        w = v.angular ; acc = a.linear + w x v.linear
        Y[LIN, 0]   = acc           Y[LIN, 1:4] = [w]x^2 + [a.angular]x     Y[LIN, 4:]  = 0
        Y[ANG, 0]   = 0             Y[ANG, 1:4] = [-acc]x                   Y[ANG, 4:]  =
            L(a.angular) + [w]x L(w),  L(w) the (3, 6) matrix with L(w) pi[4:] == I w
    jointBodyRegressor(i):   bodyRegressor(v[i], a_gf[i])  -> data.bodyRegressor
    frameBodyRegressor(f):   bodyRegressor(X^-1 v[j], X^-1 a_gf[j]), X = frames[f].placement,
                             j = frames[f].parentJoint    -> data.bodyRegressor

    computeJointTorqueRegressor(q, v, a):   tau == Y [pi_1; ...; pi_{n-1}]
        v[0] = 0 ; a_gf[0] = -gravity ; Y = 0
        for i = 1 .. n-1:                                 JointTorqueRegressorForwardStep
            jcalc(q, v) ; liMi[i] = jointPlacements[i] * M_J
            v[i]    = v_J + liMi[i]^-1 v[parent]          (parent > 0)
            a_gf[i] = c_J + v[i] x v_J + S_i a_i + liMi[i]^-1 a_gf[parent]
        for i = n-1 .. 1:
            B = jointBodyRegressor(i)                     (body i's wrench, frame i)
            for j = i, parent(i), ..., while j > 0:       JointTorqueRegressorBackwardStep
                Y[rows_j, block i] = S_j^T B
                B = liMi[j] B  (column by column, as forces; parent(j) > 0)

    computeStaticRegressor(q):   com == Y [m_1, m_1 c_1; ...]   (world frame)
        forwardKinematics(q) ; M = sum_i m_i
        Y[:, block i] = [oMi[i].translation, oMi[i].rotation] / M

    computeJointKinematicRegressor(i, rf[, placement]):  (6, 6 (n-1)); target oMt = oMi[i]
    (* placement); for each joint k supporting i, with oMp = oMi[parent(k)] jointPlacements[k]:
        LOCAL                 block k = action(oMt^-1 oMp)
        LOCAL_WORLD_ALIGNED   block k = action(R = oMp.R, p = oMp.p - oMt.p)
        WORLD                 block k = action(oMp)
    computeFrameKinematicRegressor(f, rf): oMf[f] = oMi[j] placement_f, then the above.

    computeKineticEnergyRegressor(q, v):  T == Y pi ; forwardKinematics(q, v), then per body
        [|v_lin|^2 / 2, (v_lin x w), w_x^2/2, w_x w_y, w_y^2/2, w_x w_z, w_y w_z, w_z^2/2]
    computePotentialEnergyRegressor(q):   U == Y pi ; forwardKinematics(q), g = -gravity.linear,
        [g . oMi.translation, oMi.rotation^T g, 0 (6)]

None of them takes armature (the torque regressor gives rnea's tau without ``armature * a``).
"""

import numpy as np

from ..errors import ArgumentTypeError, ModelError, ShapeError
from ..model.tree import tree
from ..spatial import SE3, Motion
from ..spatial._kernels import ANGULAR, LINEAR, cross, matvec, mT, skew
from ._args import check_data, state, writable
from .frames import check_data_frames, check_frame_id
from .jacobian import check_joint_id, check_reference_frame
from .kinematics import forwardKinematics

_FIX_VA = "rnea(model, data, q, v, a) (or computeJointTorqueRegressor)"
_FIX_OMI = "forwardKinematics(model, data, q)"

# The 6 entries of a symmetric 3x3 matrix, as Pinocchio orders them: xx, xy, yy, xz, yz, zz.
_SYM_ROW = np.array([0, 0, 1, 0, 1, 2])
_SYM_COL = np.array([0, 1, 1, 2, 2, 2])


def _big_l(w):
    """The (..., 3, 6) matrix L(w) with L(w) [I_xx, I_xy, I_yy, I_xz, I_yz, I_zz] == I w."""
    L = np.zeros(w.shape[:-1] + (3, 6))
    for k, (r, c) in enumerate(zip(_SYM_ROW, _SYM_COL)):
        L[..., r, k] += w[..., c]
        if r != c:
            L[..., c, k] += w[..., r]
    return L


def _motion(x, name):
    if not isinstance(x, Motion):
        raise ArgumentTypeError(f"bodyRegressor: {name} must be a pinref.Motion, got "
                                f"{type(x).__module__}.{type(x).__name__}; wrap 6 numbers "
                                f"[linear; angular] as pinref.Motion({name})")
    return x.vector


def bodyRegressor(velocity, acceleration):
    """The (..., 6, 10) regressor Y of one rigid body: ``Y @ I.toDynamicParameters() ==
    I * a + I.vxiv(v)`` (the body's wrench, in the frame v and a are expressed in).

    See the module docstring for the blocks. Mirrors ``pinocchio::bodyRegressor``.
    """
    v, a = _motion(velocity, "velocity"), _motion(acceleration, "acceleration")
    try:
        shape = np.broadcast_shapes(v.shape[:-1], a.shape[:-1])
    except ValueError:
        raise ShapeError(f"bodyRegressor: the batch shapes of velocity {v.shape[:-1]} and "
                         f"acceleration {a.shape[:-1]} do not broadcast; pass Motions of one "
                         "batch shape (or one of them unbatched)") from None
    w, a_ang = v[..., ANGULAR], a[..., ANGULAR]
    Y = np.zeros(shape + (6, 10))
    # acc = a.linear + w x v.linear
    acc = a[..., LINEAR] + cross(w, v[..., LINEAR])
    Y[..., LINEAR, 0] = acc
    # [w]x^2 + [a.angular]x
    Sw = skew(w)
    Y[..., LINEAR, 1:4] = Sw @ Sw + skew(a_ang)
    # [-acc]x
    Y[..., ANGULAR, 1:4] = skew(-acc)
    # L(a.angular) + [w]x L(w)
    Y[..., ANGULAR, 4:10] = _big_l(a_ang) + Sw @ _big_l(w)
    return Y


def _store_body_regressor(data, Y):
    """data.bodyRegressor = Y with the batch axes of the last call (v[0] has none); a copy."""
    data.bodyRegressor = writable(Y, data.batch_shape + (6, 10))
    data.mark("bodyRegressor", "bodyRegressor")
    return data.bodyRegressor.copy()


def jointBodyRegressor(model, data, joint_id):
    """``bodyRegressor(data.v[joint_id], data.a_gf[joint_id])``, stored in ``data.bodyRegressor``
    (..., 6, 10): ``Y @ model.inertias[joint_id].toDynamicParameters() == data.f[joint_id]``
    after ``rnea`` (frame of joint ``joint_id``). Reads the ``v`` and ``a_gf`` of the last rnea
    (or torque regressor). Mirrors ``pinocchio::jointBodyRegressor``.
    """
    check_data(model, data)
    i = check_joint_id(model, joint_id, "jointBodyRegressor")
    data.require("jointBodyRegressor", "a_gf", _FIX_VA)
    return _store_body_regressor(data, bodyRegressor(data.v[i], data.a_gf[i]))


def frameBodyRegressor(model, data, frame_id):
    """The body regressor of frame ``frame_id``, (..., 6, 10), stored in ``data.bodyRegressor``:
    ``bodyRegressor(X^-1 v[j], X^-1 a_gf[j])`` with ``X = frames[frame_id].placement`` in
    joint ``j = frames[frame_id].parentJoint``; ``Y @ X.actInv(Y_j).toDynamicParameters() ==
    X.actInv(data.f[j])`` after ``rnea``. Mirrors ``pinocchio::frameBodyRegressor``.
    """
    check_data(model, data)
    f = check_frame_id(model, frame_id, "frameBodyRegressor")
    data.require("frameBodyRegressor", "a_gf", _FIX_VA)
    frame = model.frames[f]
    j, X = frame.parentJoint, frame.placement
    return _store_body_regressor(data, bodyRegressor(X.actInv(data.v[j]), X.actInv(data.a_gf[j])))


def _joint_torque_regressor_forward_step(jmodel, jdata, model, data, q, v, a):
    """Mirrors JointTorqueRegressorForwardStep::algo: writes liMi, v, a_gf of joint i."""
    i = jmodel.id
    parent = model.parents[i]
    jmodel.calc(jdata, q, v)
    # liMi = jointPlacements[i] * M_J
    data.liMi[i] = model.jointPlacements[i] * jdata.M
    # v_i = v_J + liMi^-1 v_parent
    data.v[i] = jdata.v
    if parent > 0:
        data.v[i] = data.v[i] + data.liMi[i].actInv(data.v[parent])
    # a_gf_i = c_J + v_i x v_J + S_i a_i + liMi^-1 a_gf_parent
    data.a_gf[i] = jdata.c + (data.v[i] ^ jdata.v)
    data.a_gf[i] = data.a_gf[i] + Motion.unchecked(matvec(jdata.S, a[..., jmodel.v_slice]))
    data.a_gf[i] = data.a_gf[i] + data.liMi[i].actInv(data.a_gf[parent])


def _joint_torque_regressor_backward_step(jmodel, jdata, model, data, Y, column):
    """Mirrors JointTorqueRegressorBackwardStep::algo: the rows of joint j in body block
    ``column`` are S_j^T B, then B (data.bodyRegressor) moves to the parent's frame."""
    j = jmodel.id
    B = data.bodyRegressor
    # Y[rows_j, block] = S_j^T B
    Y[..., jmodel.v_slice, 10 * (column - 1):10 * column] = mT(jdata.S) @ B
    # B = liMi[j] B, each column a force: (R f ; R n + p x R f)
    if model.parents[j] > 0:
        data.bodyRegressor = _act_force_set(data.liMi[j], B)


def _act_force_set(M, F):
    """``forceSet::se3Action``: M.act(f) for every column f = (f; n) of F (..., 6, k), with R
    multiplying [f_1 .. f_k  n_1 .. n_k] in one product."""
    k = F.shape[-1]
    RF = M.rotation @ np.concatenate((F[..., LINEAR, :], F[..., ANGULAR, :]), axis=-1)
    f, n = RF[..., :k], RF[..., k:]
    return np.concatenate((f, n + skew(M.translation) @ f), axis=-2)


def _joints_rows(model, data, stack, name):
    """Part ``name`` of a stacked cache (rows ``(n, *batch, *tail)``, tree row order) for
    joints 1 .. n-1 in id order, as ``(*batch, n - 1, *tail)``: one gather for every joint."""
    tail = len(getattr(stack, name).shape) - 1 - len(stack.batch)
    x = stack.rows(name, tree(model).pos[1:], data.batch_shape)
    x = np.broadcast_to(x, x.shape[:1] + data.batch_shape + x.shape[x.ndim - tail:])
    return np.moveaxis(x, 0, -1 - tail)


def computeJointTorqueRegressor(model, data, q, v, a):
    """The joint torque regressor Y, (..., nv, 10 (njoints - 1)), with ``Y @ pi == rnea(q, v,
    a)`` for ``pi`` the stacked ``model.inertias[i].toDynamicParameters()`` (no armature term).

    Writes ``liMi``, ``v``, ``a_gf``, ``joints``, ``bodyRegressor`` (left as joint 1's body
    regressor) and ``jointTorqueRegressor``; returns a copy of the last. Mirrors
    ``pinocchio::computeJointTorqueRegressor`` (see the module docstring).
    """
    q, arrays, shape = state(model, q, data=data, v=v, a=a)
    v, a = arrays["v"], arrays["a"]
    with np.errstate(over="ignore", invalid="ignore"):   # an overflow warns once: Data.mark
        data.v[0] = Motion.Zero()
        data.a_gf[0] = -model.gravity
        Y = np.zeros(shape + (model.nv, 10 * (model.njoints - 1)))
        for i in range(1, model.njoints):
            _joint_torque_regressor_forward_step(model.joints[i], data.joints[i], model, data,
                                                 q, v, a)
        for i in reversed(range(1, model.njoints)):
            data.bodyRegressor = bodyRegressor(data.v[i], data.a_gf[i])
            j = i
            while j > 0:
                _joint_torque_regressor_backward_step(model.joints[j], data.joints[j], model,
                                                      data, Y, i)
                j = model.parents[j]
        data.bodyRegressor = writable(data.bodyRegressor, shape + (6, 10))
        data.jointTorqueRegressor = Y
    data.mark("computeJointTorqueRegressor", "liMi", "v", "a_gf", "bodyRegressor",
              "jointTorqueRegressor")
    return Y.copy()


def computeStaticRegressor(model, data, q):
    """The static regressor Y, (..., 3, 4 (njoints - 1)), with ``Y @ phi == com`` (the centre
    of mass, world frame) for ``phi`` the stacked ``[m_i, m_i c_i]``.

    Runs ``forwardKinematics(model, data, q)``, then fills ``staticRegressor``; returns a copy.
    Mirrors ``pinocchio::computeStaticRegressor``.
    """
    forwardKinematics(model, data, q)
    mass = 0.0
    for i in range(1, model.njoints):
        mass += model.inertias[i].mass
    if model.njoints > 1 and not mass > 0:
        raise ModelError(f"computeStaticRegressor: the total mass of the model is {mass}; it "
                         "divides the regressor, so give the bodies a mass (model.inertias)")
    mass_inv = 1.0 / mass if model.njoints > 1 else 0.0     # no joint: a (3, 0) regressor
    Y = np.zeros(data.batch_shape + (3, model.njoints - 1, 4))
    # block i = [translation, rotation] / total mass, every joint at once
    Y[..., 0] = np.moveaxis(_joints_rows(model, data, data.oMi, "translation"), -2, -1) \
        * mass_inv
    Y[..., 1:] = np.moveaxis(_joints_rows(model, data, data.oMi, "rotation"), -3, -2) * mass_inv
    Y = Y.reshape(data.batch_shape + (3, 4 * (model.njoints - 1)))
    data.staticRegressor = Y
    data.mark("computeStaticRegressor", "staticRegressor")
    return Y.copy()


def _kinematic_regressor(model, data, joint_id, rf, oMt):
    """Mirrors internal::computeJointKinematicRegressorGeneric: the (..., 6, 6 (n-1)) map from
    the joint placement variations to that of the target ``oMt`` (see the module docstring)."""
    blocks = {}
    i = joint_id
    while i > 0:
        # oMp = oMi[parent] * jointPlacements[i]
        oMp = data.oMi[model.parents[i]] * model.jointPlacements[i]
        if rf == rf.LOCAL:
            iMp = oMt.actInv(oMp)
        elif rf == rf.LOCAL_WORLD_ALIGNED:
            iMp = SE3(oMp.rotation, oMp.translation - oMt.translation)
        else:
            iMp = oMp
        blocks[i] = iMp.toActionMatrix()
        i = model.parents[i]
    shape = np.broadcast_shapes(data.batch_shape, oMt.shape,
                                *(X.shape[:-2] for X in blocks.values()))
    K = np.zeros(shape + (6, 6 * (model.njoints - 1)))
    for i, X in blocks.items():
        K[..., 6 * (i - 1):6 * i] = X
    return K


def computeJointKinematicRegressor(model, data, joint_id, reference_frame, placement=None):
    """The kinematic regressor of joint ``joint_id`` (or of the frame at ``placement`` in it),
    (..., 6, 6 (njoints - 1)), expressed in ``reference_frame``: block k maps a variation of
    ``jointPlacements[k]`` to the variation of the target's placement.

    Reads ``data.oMi`` (``forwardKinematics`` first); writes nothing, returns a new array.
    Mirrors both ``pinocchio::computeJointKinematicRegressor`` overloads.
    """
    check_data(model, data)
    i = check_joint_id(model, joint_id, "computeJointKinematicRegressor")
    if i == 0:
        raise ModelError("computeJointKinematicRegressor: joint_id must be a joint of the tree "
                         f"(1 .. {model.njoints - 1}), got 0 (the universe)")
    rf = check_reference_frame(reference_frame, "computeJointKinematicRegressor")
    data.require("computeJointKinematicRegressor", "oMi", _FIX_OMI)
    oMt = data.oMi[i]
    if placement is not None:
        if not isinstance(placement, SE3):
            raise ArgumentTypeError("computeJointKinematicRegressor: placement must be a "
                                    f"pinref.SE3, got {type(placement).__name__}")
        oMt = oMt * placement
    return _kinematic_regressor(model, data, i, rf, oMt)


def computeFrameKinematicRegressor(model, data, frame_id, reference_frame):
    """The kinematic regressor of frame ``frame_id``, (..., 6, 6 (njoints - 1)), expressed in
    ``reference_frame``. Writes ``data.oMf[frame_id] = oMi[parent] * placement`` first (from
    the stored ``oMi``). Mirrors ``pinocchio::computeFrameKinematicRegressor``.
    """
    check_data(model, data)
    check_data_frames(model, data, "computeFrameKinematicRegressor")
    f = check_frame_id(model, frame_id, "computeFrameKinematicRegressor")
    if f == 0:
        raise ModelError("computeFrameKinematicRegressor: frame_id must be 1 .. "
                         f"{model.nframes - 1}, got 0 (the universe frame)")
    rf = check_reference_frame(reference_frame, "computeFrameKinematicRegressor")
    data.require("computeFrameKinematicRegressor", "oMi", _FIX_OMI)
    frame = model.frames[f]
    data.oMf[f] = data.oMi[frame.parentJoint] * frame.placement
    data.mark("computeFrameKinematicRegressor", "oMf")
    return _kinematic_regressor(model, data, frame.parentJoint, rf, data.oMf[f])


def computeKineticEnergyRegressor(model, data, q, v):
    """The kinetic energy regressor, (..., 10 (njoints - 1)), with ``Y @ pi ==
    computeKineticEnergy`` (no armature). Runs ``forwardKinematics(model, data, q, v)``;
    writes ``kineticEnergyRegressor``. Mirrors ``pinocchio::computeKineticEnergyRegressor``.
    """
    forwardKinematics(model, data, q, v)
    V = _joints_rows(model, data, data.v, "vector")                  # (*batch, n - 1, 6)
    vl, w = V[..., LINEAR], V[..., ANGULAR]
    block = np.empty(V.shape[:-1] + (10,))
    # |v_lin|^2 / 2 ; v_lin x w ; the products of w weighing I_xx .. I_zz   (every joint)
    block[..., 0] = 0.5 * np.sum(vl * vl, axis=-1)
    block[..., 1:4] = cross(vl, w)
    block[..., 4:10] = w[..., _SYM_ROW] * w[..., _SYM_COL] * np.where(_SYM_ROW == _SYM_COL,
                                                                     0.5, 1.0)
    Y = block.reshape(data.batch_shape + (10 * (model.njoints - 1),))
    data.kineticEnergyRegressor = Y
    data.mark("computeKineticEnergyRegressor", "kineticEnergyRegressor")
    return Y.copy()


def computePotentialEnergyRegressor(model, data, q):
    """The potential energy regressor, (..., 10 (njoints - 1)), with ``Y @ pi ==
    computePotentialEnergy``. Runs ``forwardKinematics(model, data, q)``; writes
    ``potentialEnergyRegressor``. Mirrors ``pinocchio::computePotentialEnergyRegressor``.
    """
    forwardKinematics(model, data, q)
    g = -model.gravity.linear
    Y = np.zeros(data.batch_shape + (model.njoints - 1, 10))
    # g . translation ; R^T g (gravity in frame i)   (every joint)
    Y[..., 0] = np.sum(_joints_rows(model, data, data.oMi, "translation") * g, axis=-1)
    Y[..., 1:4] = matvec(mT(_joints_rows(model, data, data.oMi, "rotation")), g)
    Y = Y.reshape(data.batch_shape + (10 * (model.njoints - 1),))
    data.potentialEnergyRegressor = Y
    data.mark("computePotentialEnergyRegressor", "potentialEnergyRegressor")
    return Y.copy()


__all__ = ["bodyRegressor", "computeFrameKinematicRegressor", "computeJointKinematicRegressor",
           "computeJointTorqueRegressor", "computeKineticEnergyRegressor",
           "computePotentialEnergyRegressor", "computeStaticRegressor",
           "frameBodyRegressor", "jointBodyRegressor"]
