"""Analytic partial derivatives of forward dynamics (algorithm/aba-derivatives.hxx, 3.8.0).

ddq = M(q)^-1 (tau - b(q, v)), so d ddq / dx = -M^-1 d tau / dx at (q, v, ddq) for x = q, v, and
d ddq / d tau = M^-1. Pinocchio gets M^-1 from an ABA run in the WORLD frame, then the RNEA
partials at (q, v, ddq) from the same caches, and multiplies. Derivatives with respect to q are
taken along the tangent space (column j: q (+) eps e_j, e_j of size nv), as in
rnea_derivatives.py; o = WORLD frame, J = the columns oMi S_i, "x" acts column by column.

    oa_gf[0] = -gravity ;  u = tau ;  Minv upper = 0 ;  Fcrb[0] = 0
    for i = 1 .. n-1:                                   ComputeABADerivativesForwardStep1
        jcalc(q, v) ;  liMi[i] = jointPlacements[i] M_J ;  oMi[i] = oMi[parent] liMi[i]
        ov_i = oMi v_J + ov_parent ;  oa_gf_i = oMi c_J + ov_parent x ov_i     (the bias, for now)
        oYcrb_i = oinertias_i = oMi Y_i ;  oYaba_i = oYcrb_i (6x6)
        oh_i = oYcrb_i ov_i ;  of_i = ov_i x* oh_i   (- oMi fext_i) ;  J_i = oMi S_i
    for i = n-1 .. 1:                                   ComputeABADerivativesBackwardStep1
        u_i -= J_i^T of_i
        U_i = oYaba_i J_i ;  StU_i = J_i^T U_i + armature_i ;  Dinv_i = StU_i^-1
        UDinv_i = U_i Dinv_i
        Minv[i, i] = Dinv_i
        if joint i has children:  SDinv_i = J_i Dinv_i ;  Minv[i, sub+_i] = -SDinv_i^T F[sub+_i]
                                  F[sub_i] += U_i Minv[i, sub_i]         (parent > 0; F = Fcrb[0])
        else:                     F[sub_i] = U_i Minv[i, sub_i]
        if parent > 0:
            oYaba_i -= UDinv_i U_i^T ;  of_i += oYaba_i oa_gf_i + UDinv_i u_i
            oYaba_parent += oYaba_i ;  of_parent += of_i
    for i = 1 .. n-1:                                   ComputeABADerivativesForwardStep2
        oa_gf_i += oa_gf_parent ;  ddq_i = Dinv_i u_i - UDinv_i^T oa_gf_i ;  oa_gf_i += J_i ddq_i
        oa_i = oa_gf_i + gravity ;  of_i = oYcrb_i oa_gf_i + ov_i x* oh_i   (- oMi fext_i)
        Minv[i, idx_v:] -= UDinv_i^T Fcrb[parent][idx_v:]                        (parent > 0)
        Fcrb[i][idx_v:] = J_i Minv[i, idx_v:] (+ Fcrb[parent][idx_v:] when parent > 0)
        dJ_i, dVdq_i, dAdq_i, dAdv_i, doYcrb_i as in ComputeRNEADerivativesForwardStep
    for i = n-1 .. 1:                                   ComputeABADerivativesBackwardStep2
        dFdv_i = oYcrb_i dAdv_i + doYcrb_i J_i ;  dtau_dv[i, sub_i] = J_i^T dFdv[sub_i]
        dFdq_i = oYcrb_i dAdq_i + doYcrb_i dVdq_i ;  dtau_dq[i, sub_i] = J_i^T dFdq[sub_i]
        dFdq_i += J_i x* of_i ;  dFda_i = oYcrb_i J_i
        if parent > 0:
            dtau_dq[i, anc_i] = dFda_i^T dAdq[anc_i] + (J_i^T doYcrb_i) dVdq[anc_i]
            dtau_dv[i, anc_i] = dFda_i^T dAdv[anc_i] + (J_i^T doYcrb_i) J[anc_i]
            oYcrb_parent += oYcrb_i ;  doYcrb_parent += doYcrb_i ;  of_parent += of_i
        dAdq_i.linear += gravity_lin x J_i.angular      (gravity taken back out of dAdq)
    Minv lower = upper^T ;  ddq_dq = -Minv dtau_dq ;  ddq_dv = -Minv dtau_dv

i stands for joint i's columns, sub_i / sub+_i for its subtree's with / without its own, anc_i
for its ancestors' (rnea_derivatives.py). Armature enters through StU only: M^-1 is the inverse
of M + diag(armature), and the partials of tau do not depend on it.

How the code maps to the loops above: as in rnea_derivatives.py (its module docstring), each
pass runs level by level the statements that read a parent or a child, and before or after its
level loop, for every joint at once, those that read neither. ForwardStep1: oMi and the LOCAL
``v_i = v_J + liMi^-1 v_parent`` by level (``ov_i = oMi v_i`` is ``oMi v_J + ov_parent``), the
rest after the loop. BackwardStep1, and ForwardStep2 up to Fcrb[i], run in the level loop
(they eliminate joint i into its parent and read the parent's Fcrb), a level's joints of one
kind at a time (``level.groups``) for the joints' own matrices, the whole level for the rows of
Minv and the columns of F; their writes ``Minv[i, sub+_i]`` and ``F[sub_i]`` touch entries of
disjoint subtrees; Minv is worked on rows first, ``(nv, *batch, nv)``, so a level's rows are
one gather. In ForwardStep2, ``Minv[i, c0:] -= ...`` and ``J_i Minv[i, c0:]`` run from the
smallest idx_v c0 of a group's joints: the entries left of a joint's own idx_v lie below the
diagonal, which the last line overwrites, and only the columns idx_v.. of Fcrb[i] are written.
oa, of and the motion derivative columns run after its loop; BackwardStep2 is
rnea_derivatives.py's backward pass (subtree sums by level, the rest after the loop).
"""

import numpy as np

from ..errors import NotPositiveDefiniteError
from ..spatial._kernels import ANGULAR, LINEAR
from ._args import external_forces, named_joint_error, state
from ._levels import (
    Walk,
    crf,
    crm,
    full,
    joint_calc,
    matvec,
    tangent_rows,
    vecmat,
    widen,
)
from .rnea_derivatives import (
    _action_matrices,
    _check_linear_gravity,
    _force_cross_matrix,
    _gravity_cross,
    _in_place,
    _store_world_inertias,
    columns,
    columns_first,
    external_world_forces,
    matrix_face,
    motion_derivative_columns,
    moved,
    mv,
    packed,
    subspace_columns,
    subtree_sums_step,
    world_inertia_matrices,
    world_placements_step,
    write_blocks,
)


def _joint_matrices(x, nvg, K):
    """Columns ``(K * nvg, *batch, 6)`` of K joints as their matrices ``(K, *batch, 6, nvg)``."""
    if nvg == 1:
        return x[..., None]
    return moved(x.reshape((K, nvg) + x.shape[1:]), 1, -1)


def _joint_vectors(xT, nvg, K):
    """Entries ``(K * nvg, *batch)`` of K joints as ``(K, *batch, nvg)``."""
    if nvg == 1:
        return xT[..., None]
    return moved(xT.reshape((K, nvg) + xT.shape[1:]), 1, -1)


def _entries(x):
    """``(K, *batch, nvg)`` as ``(K * nvg, *batch)`` (the inverse of ``_joint_vectors``)."""
    return x.reshape(x.shape[:-1]) if x.shape[-1] == 1 else \
        moved(x, -1, 1).reshape((x.shape[0] * x.shape[-1],) + x.shape[1:-1])


def diagonal_block_entries(D):
    """The K joints' blocks ``D (K, *batch, nvg, nvg)`` as the entries ``(K * nvg * nvg,
    *batch)`` of the diagonal blocks of Minv, row by row (an empty batch too)."""
    K, nvg = D.shape[0], D.shape[-1]
    return moved(moved(D, -2, 1), -1, 2).reshape((K * nvg * nvg,) + D.shape[1:-2])


def _stys_inversion(group, StU):
    """``internal::PerformStYSInversion`` for the K joints of a group: Dinv = StU^-1,
    ``(K, ..., nv, nv)``: 1 / StU for one dof, Cholesky otherwise (the joint's
    ``_stys_inverse``, which raises NotPositiveDefiniteError naming the joint when StU is not
    positive definite; Pinocchio's LLT returns garbage)."""
    if group.nv == 1 and (StU > 0).all():
        return 1.0 / StU
    return np.stack([jmodel._stys_inverse(StU[k]) for k, jmodel in enumerate(group.jmodels)])


def world_velocities_step(T, C, data, kin, X):
    """The ov and oa_gf statements of AbaWorldConventionForwardStep1::algo and of
    ComputeABADerivativesForwardStep1::algo, for every joint (``X``: oMi.action, rows): ov
    level by level (it reads the parent), then oa_gf. ov is summed as Pinocchio sums it, not
    as ``oMi v_i`` (the LOCAL v_i = v_J + liMi^-1 v_parent), which differs when a rotation is
    off orthonormal (a quaternion accepted as unit up to its tolerance)."""
    OV = data.ov.vector
    # oMi v_J
    ovJ = mv(X, kin.vJ)
    for level in T.levels:
        i, p = level.rows, level.parent_rows
        # ov_i = oMi v_J + ov_parent   (parent > 0)
        OV[i] = ovJ[i] + OV[p] if level.has_parent else ovJ[i]
    # oa_gf_i = oMi c_J + ov_parent x ov_i   (no cross term when parent == 0)
    ov_parent = OV[C.row_parent]
    ov_parent[C.root_rows] = 0.0
    bias = mv(crm(ov_parent), OV[1:])
    data.oa_gf.vector[1:] = bias if kin.c is None else mv(X[1:], kin.c[1:]) + bias


def _aba_derivatives_forward1_columns(model, T, C, data, kin, Sc, fext, shape, P):
    """The statements of ComputeABADerivativesForwardStep1::algo that run after the level loop
    of oMi, for every joint: ov, oa_gf (``world_velocities_step``), oYcrb = oinertias = oYaba,
    oh, of, J. ``P = (Y, oYaba, of)``: rows of the buffers the backward passes sum. Returns J
    column first and oMi.dualAction (rows)."""
    Y, Ya, OF = P
    OV, OH = data.ov.vector, data.oh.vector
    X, Xf = _action_matrices(data.oMi.rotation, data.oMi.translation)
    world_velocities_step(T, C, data, kin, X)
    # oYcrb_i = oinertias_i = oMi Y_i ;  oYaba_i = oYcrb_i
    Y[...] = world_inertia_matrices(T.tree, data.oMi.rotation, data.oMi.translation, len(shape))
    Ya[...] = Y
    # oh_i = oYcrb_i ov_i ;  of_i = ov_i x* oh_i   (- oMi fext_i)
    OH[1:] = mv(Y[1:], OV[1:])
    OF[1:] = mv(crf(OV[1:]), OH[1:])
    if fext is not None:
        OF[1:] -= external_world_forces(model, T, Xf[1:], fext, len(shape))
    # J_i = oMi S_i
    return mv(X[C.row], Sc), Xf


def minverse_rows_step(L, SDinv, Ul, F, Mw, data):
    """The statements of ComputeMinverseBackwardStep that fill Minv's rows past the joints' own
    blocks, for the joints of one level (computeMinverse and computeABADerivatives run them
    alike): SDinv kept for the joints with children, their rows of Minv over sub+_i, and F."""
    inner, inner_local = L.inner
    if len(inner):
        data.SDinv[..., inner] = matrix_face(SDinv[inner_local])
        # Minv[i, sub+_i] = -SDinv_i^T F[sub+_i]   (joints with children)
        rows, plus_cols, local = L.plus
        SDinvF = columns_first(SDinv) @ matrix_face(F)
        Mw[rows, ..., plus_cols] = -moved(SDinvF[..., local, plus_cols], -1, 0)
    # F[sub_i] += U_i Minv[i, sub_i]   (F[sub_i] = ... for a leaf, whose F[sub_i] is still 0)
    UM = moved(matrix_face(Ul) @ moved(Mw[L.cols], 0, -2), -1, 0)
    F[L.update] = F[L.update] + UM[L.update]


def _aba_derivatives_backward_step1(level, L, C, model, data, P, J, F, Mw, uT, shape):
    """Mirrors ComputeABADerivativesBackwardStep1::algo for the joints of one level; eliminates
    each joint into its parent (WORLD frame) and fills its block row of Minv (``Mw``: Minv
    rows first, ``(nv, *batch, nv)``). ``F``: Fcrb[0] column first. Returns the level's
    ``(Dinv, UDinv)`` by group."""
    Ya, OF, OA_GF = P
    i, lo = level.rows, level.rows.start
    cols = L.cols
    Jl = J[cols]
    # u_i -= J_i^T of_i
    uT[cols] -= np.vecdot(Jl, OF[C.row[cols]])
    # U_i = oYaba_i J_i
    Ul = mv(Ya[C.row[cols]], Jl)
    D, Ia, SDinv = [], [], np.empty_like(Jl)
    for group, span, own in zip(level.groups, L.spans, L.own):
        K, nvg, g = len(group.ids), group.nv, slice(group.rows.start - lo, group.rows.stop - lo)
        Jg, Ug = _joint_matrices(Jl[span], nvg, K), _joint_matrices(Ul[span], nvg, K)
        # StU_i = J_i^T U_i + armature_i ;  Dinv_i = StU_i^-1 ;  UDinv_i = U_i Dinv_i
        StU = Jg.mT @ Ug + np.eye(nvg) * armature_rows(model, group, len(shape))[..., None]
        Dinv = _stys_inversion(group, StU)
        UDinv = Ug @ Dinv
        write_joint_data(data, group, U=Ug, StU=StU, Dinv=Dinv, UDinv=UDinv)
        D.append((Dinv, UDinv))
        # Minv[i, i] = Dinv_i
        Mw[own[0], ..., own[1]] = diagonal_block_entries(Dinv)
        # SDinv_i = J_i Dinv_i   (kept for the joints with children)
        SDinv[span] = _entries_of_columns(Jg @ Dinv)
        if level.has_parent:
            # oYaba_i -= UDinv_i U_i^T
            Ia.append((g, Ya[i][g] - UDinv @ Ug.mT, UDinv, group))
    minverse_rows_step(L, SDinv, Ul, F, Mw, data)
    if not level.has_parent:
        return D
    for g, Ia_g, UDinv, group in Ia:
        rows_g = slice(lo + g.start, lo + g.stop)
        Ya[rows_g] = Ia_g
        # of_i += oYaba_i oa_gf_i + UDinv_i u_i
        u = _joint_vectors(uT[group.v_index], group.nv, len(group.ids))
        OF[rows_g] = OF[rows_g] + (matvec(Ia_g, OA_GF[rows_g]) + matvec(UDinv, u))
    return D


def _entries_of_columns(x):
    """Joint matrices ``(K, *batch, 6, nvg)`` as columns ``(K * nvg, *batch, 6)``."""
    return x[..., 0] if x.shape[-1] == 1 else \
        moved(x, -1, 1).reshape((x.shape[0] * x.shape[-1],) + x.shape[1:-1])


def armature_rows(model, group, nb):
    """The armature of a group's joints, ``(K, 1 * nb, nvg)``, to add to the diagonals of StU."""
    arm = model.armature[group.v_index].reshape(len(group.ids), group.nv)
    return arm.reshape((arm.shape[0],) + (1,) * nb + arm.shape[1:])


def write_joint_data(data, group, **fields):
    """The joints' data fields (``(K, *batch, ...)``, joint axis first) of a level group."""
    if group.batched:
        data.joint_rows[group.key].write(**fields)
    else:
        jdata = data.joints[group.ids[0]]
        for name, value in fields.items():
            setattr(jdata, name, value[0])


def _aba_derivatives_forward_step2(level, L, D, data, J, Mw, uT, ddqT, shape):
    """Mirrors ComputeABADerivativesForwardStep2::algo for the joints of one level, the
    statements that read the parent: oa_gf, ddq, the rows of Minv and Fcrb[i]. oa, of and the
    motion derivative columns run after the level loop."""
    i, p, lo = level.rows, level.parent_rows, level.rows.start
    OA_GF, Fm = data.oa_gf.vector, data.Fcrb.matrix
    # oa_gf_i += oa_gf_parent
    OA_GF[i] = OA_GF[i] + OA_GF[p]
    for group, span, right, (Dinv, UDinv) in zip(level.groups, L.spans, L.right, D):
        K, nvg, g = len(group.ids), group.nv, slice(group.rows.start - lo, group.rows.stop - lo)
        rows_g = slice(lo + g.start, lo + g.stop)
        # ddq_i = Dinv_i u_i - UDinv_i^T oa_gf_i
        u = _joint_vectors(uT[group.v_index], nvg, K)
        ddq = matvec(Dinv, u) - vecmat(OA_GF[rows_g], UDinv)
        ddqT[group.v_index] = _entries(ddq)
        Jg = _joint_matrices(J[L.cols[span]], nvg, K)
        # oa_gf_i += J_i ddq_i
        OA_GF[rows_g] = OA_GF[rows_g] + matvec(Jg, ddq)
        # (columns c0.. only: c0 is the smallest idx_v of the group's joints)
        c0, mask = right
        Mg = _joint_rows(Mw[group.v_index, ..., c0:], K, nvg)            # (K, *batch, nvg, .)
        if level.has_parent:
            Fp = Fm[..., c0:][p][g] if isinstance(p, slice) else Fm[..., c0:][p[g]]
            # Minv[i, idx_v:] -= UDinv_i^T Fcrb[parent][idx_v:]
            Mg = Mg - UDinv.mT @ Fp
            Mw[group.v_index, ..., c0:] = _rows_of_joints(Mg)
        # Fcrb[i][idx_v:] = J_i Minv[i, idx_v:] (+ Fcrb[parent][idx_v:])
        Fi = Jg @ Mg
        if level.has_parent:
            Fi = Fi + Fp
        mask = mask.reshape((K,) + (1,) * (len(shape) + 1) + mask.shape[1:])
        np.copyto(Fm[rows_g, ..., c0:], Fi, where=mask)


def _joint_rows(x, K, nvg):
    """Rows ``(K * nvg, *batch, nv)`` of K joints as ``(K, *batch, nvg, nv)``."""
    return moved(x.reshape((K, nvg) + x.shape[1:]), 1, -2)


def _rows_of_joints(x):
    """``(K, *batch, nvg, nv)`` as rows ``(K * nvg, *batch, nv)``."""
    return moved(x, -2, 1).reshape((x.shape[0] * x.shape[-2],) + x.shape[1:-2] + x.shape[-1:])


def _aba_derivatives_forward2_columns(model, T, C, data, Y, dY, OF, J, Xf, fext, shape):
    """The statements of ComputeABADerivativesForwardStep2::algo that run after the level
    loop, for every joint: oa, of, and dJ, dVdq, dAdq, dAdv, doYcrb
    (``motion_derivative_columns``). Returns J, dJ, dVdq, dAdq, dAdv column first."""
    OA_GF = data.oa_gf.vector
    # oa_i = oa_gf_i + gravity
    data.oa.vector[1:] = OA_GF[1:] + model.gravity.vector
    # of_i = oYcrb_i oa_gf_i + ov_i x* oh_i   (- oMi fext_i)
    OF[1:] = mv(Y[1:], OA_GF[1:]) + mv(crf(data.ov.vector[1:]), data.oh.vector[1:])
    if fext is not None:
        OF[1:] -= external_world_forces(model, T, Xf[1:], fext, len(shape))
    return (J,) + motion_derivative_columns(C, data, Y, dY, J)


def _aba_derivatives_backward2_columns(C, Y, dY, OF, cols, out):
    """The statements of ComputeABADerivativesBackwardStep2::algo other than the subtree sums,
    for every joint after the level loop (they read the joint's complete subtree sums and the
    final columns of its descendants and ancestors): dFdv, dFdq, dFda and the blocks of dtau_dq
    and dtau_dv. Returns (dFda, dFdq, dFdv) column first."""
    J, _, dVdq, dAdq, dAdv = cols
    dtau_dq, dtau_dv = out
    Ycol, dYcol, of_col = Y[C.row], dY[C.row], OF[C.row]
    Jt = columns_first(J)
    # dFdv_i = oYcrb_i dAdv_i + doYcrb_i J_i ;  dtau_dv[i, sub_i] = J_i^T dFdv[sub_i]
    dFdv = mv(Ycol, dAdv) + mv(dYcol, J)
    write_blocks(dtau_dv, C.sub, Jt @ matrix_face(dFdv))
    # dFdq_i = oYcrb_i dAdq_i + doYcrb_i dVdq_i ;  dtau_dq[i, sub_i] = J_i^T dFdq[sub_i]
    dFdq = mv(Ycol, dAdq) + mv(dYcol, dVdq)
    write_blocks(dtau_dq, C.own, Jt @ matrix_face(dFdq))
    # dFdq_i += J_i x* of_i ;  dFda_i = oYcrb_i J_i
    dFdq = dFdq + mv(_force_cross_matrix(of_col), J)
    write_blocks(dtau_dq, C.plus, Jt @ matrix_face(dFdq))
    dFda = mv(Ycol, J)
    # dtau_dq[i, anc_i] = dFda_i^T dAdq[anc_i] + (J_i^T doYcrb_i) dVdq[anc_i]
    dFda_t, StdY = columns_first(dFda), columns_first(vecmat(J, dYcol))
    write_blocks(dtau_dq, C.anc, dFda_t @ matrix_face(dAdq) + StdY @ matrix_face(dVdq))
    # dtau_dv[i, anc_i] = dFda_i^T dAdv[anc_i] + (J_i^T doYcrb_i) J[anc_i]
    write_blocks(dtau_dv, C.anc, dFda_t @ matrix_face(dAdv) + StdY @ matrix_face(J))
    return dFda, dFdq, dFdv


def computeABADerivatives(model, data, q, v, tau, fext=None):
    """Partial derivatives of ``ddq = aba(q, v, tau[, fext])`` with respect to q, v and tau.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    v, tau : ndarray, shape (..., model.nv)
    fext : list of model.njoints Force, or ndarray (..., model.njoints, 6), optional
        Wrench on each body, LOCAL frame of its joint (held fixed in that frame while q
        moves); entry 0 is ignored.

    Returns
    -------
    (ddq_dq, ddq_dv, ddq_dtau) : three ndarrays, shape (..., model.nv, model.nv), owned arrays
        equal to ``data.ddq_dq``, ``data.ddq_dv`` and ``data.Minv`` but not sharing memory with
        them (pin returns views of these caches, which its next call overwrites;
        docs/derivatives.md). Column j of ddq_dq is the derivative along the tangent direction
        e_j; ddq_dtau = (M + diag(armature))^-1.

    Mirrors ``pinocchio::computeABADerivatives`` (algorithm/aba-derivatives.hxx, 3.8.0); see
    the module docstring for the passes. Writes liMi, oMi, ov, oa, oa_gf (acceleration minus
    gravity), oh, oinertias, oYcrb, doYcrb, of (the last three as subtree sums), oYaba (reduced
    for parent > 0), u, ddq (= aba(q, v, tau[, fext])), J, SDinv (joints with children), dJ,
    dVdq, dAdq, dAdv, dFda, dFdq, dFdv, Fcrb (all of Fcrb[0]; columns idx_v.. of Fcrb[i]),
    dtau_dq, dtau_dv (the RNEA partials at (q, v, ddq)), Minv, ddq_dq, ddq_dv and the joints'
    M, S, v, c, U, StU, Dinv, UDinv (in the WORLD frame). Not written, as in Pinocchio:
    ``data.ddq_dtau`` (ddq_dtau lives in data.Minv), data.M, and the LOCAL v, a, a_gf, f.
    Raises NotPositiveDefiniteError naming the joint whose StU cannot be inverted.

    References: Carpentier & Mansard, "Analytical derivatives of rigid body dynamics
    algorithms", RSS 2018.
    """
    q, arrays, shape = state(model, q, data=data, v=v, tau=tau)
    q, v, tau = full(shape, q, arrays["v"], arrays["tau"])
    fext = external_forces(model, fext, shape)
    model.check_compact_subtrees("computeABADerivatives")
    _check_linear_gravity(model, "computeABADerivatives")
    nv, n = model.nv, model.njoints
    widen(data, shape, "liMi", "oMi", "ov", "oa", "oa_gf", "oh", "of", "doYcrb", "oYaba",
          "Fcrb")
    data.oa_gf[0] = -model.gravity
    u = np.array(tau)
    ddq = np.zeros(shape + (nv,))
    uT, ddqT = tangent_rows(u), tangent_rows(ddq)
    data.SDinv = _in_place(data.SDinv, shape + (6, nv))
    Mw = np.zeros((nv,) + shape + (nv,))               # Minv, rows first
    F = np.zeros((nv,) + shape + (6,))                  # Fcrb[0], column first
    T = Walk(model, q, v)
    C = columns(model, T)
    # jcalc(q, v) ; liMi = jointPlacements[i] M_J   (every joint: no parent read)
    kin = joint_calc(T, data, q, v, shape)
    for level in T.levels:
        # oMi = oMi[parent] liMi
        world_placements_step(level, data)
    buf1, Yav, OF1 = packed(n, shape, 36, 6)
    buf2, Yv, dYv, OF = packed(n, shape, 36, 36, 6)
    Ya, Y, dY = (x.reshape(x.shape[:-1] + (6, 6)) for x in (Yav, Yv, dYv))
    J, Xf = _aba_derivatives_forward1_columns(model, T, C, data, kin,
                                              subspace_columns(C, data, shape), fext, shape,
                                              (Y, Ya, OF1))
    Ds = []
    try:
        for level, L in zip(reversed(T.levels), reversed(C.levels)):
            Ds.append(_aba_derivatives_backward_step1(level, L, C, model, data,
                                                      (Ya, OF1, data.oa_gf.vector), J, F, Mw,
                                                      uT, shape))
            # oYaba_parent += oYaba_i ;  of_parent += of_i
            subtree_sums_step(level, buf1)
    except NotPositiveDefiniteError as err:
        raise named_joint_error(err, model, "computeABADerivatives") from None
    data.Fcrb.matrix[0] = matrix_face(F)
    for level, L, D in zip(T.levels, C.levels, reversed(Ds)):
        _aba_derivatives_forward_step2(level, L, D, data, J, Mw, uT, ddqT, shape)
    cols = _aba_derivatives_forward2_columns(model, T, C, data, Y, dY, OF, J, Xf, fext, shape)
    oinertias = Y.copy()
    data.dtau_dq, data.dtau_dv = (_in_place(getattr(data, name), shape + (nv, nv))
                                  for name in ("dtau_dq", "dtau_dv"))
    for level in reversed(T.levels):
        # oYcrb_parent += oYcrb_i ;  doYcrb_parent += doYcrb_i ;  of_parent += of_i
        subtree_sums_step(level, buf2)
    dFda, dFdq, dFdv = _aba_derivatives_backward2_columns(C, Y, dY, OF, cols,
                                                          (data.dtau_dq, data.dtau_dv))
    J, dJ, dVdq, dAdq, dAdv = cols
    # dAdq_i.linear += gravity_lin x J_i.angular
    dAdq[..., LINEAR] += matvec(_gravity_cross(model), J[..., ANGULAR])
    # Minv lower = upper^T ;  ddq_dq = -Minv dtau_dq ;  ddq_dv = -Minv dtau_dv
    Minv = moved(Mw, 0, -2).copy()
    lower = np.tril_indices(nv, -1)
    Minv[..., lower[0], lower[1]] = Minv[..., lower[1], lower[0]]
    ddq_dq = -(Minv @ data.dtau_dq)
    ddq_dv = -(Minv @ data.dtau_dv)
    # the fresh arrays are returned; Data keeps copies in its own (reused) buffers
    for name, value in (("Minv", Minv), ("ddq_dq", ddq_dq), ("ddq_dv", ddq_dv)):
        setattr(data, name, _in_place(getattr(data, name), shape + (nv, nv)))
        getattr(data, name)[...] = value
    data.u, data.ddq = u, ddq
    data.oYaba.matrix[1:] = Ya[1:]
    data.doYcrb.matrix[1:] = dY[1:]
    data.of.vector[1:] = OF[1:]
    (data.J, data.dJ, data.dVdq, data.dAdq, data.dAdv, data.dFda, data.dFdq,
     data.dFdv) = map(matrix_face, (J, dJ, dVdq, dAdq, dAdv, dFda, dFdq, dFdv))
    _store_world_inertias(data, T.tree.pos, oinertias, Y)
    data.mark("computeABADerivatives", "liMi", "oMi", "ov", "oa", "oa_gf", "oh", "oinertias",
              "oYcrb", "doYcrb", "oYaba", "of", "u", "ddq", "J", "SDinv", "dJ", "dVdq", "dAdq",
              "dAdv", "dFda", "dFdq", "dFdv", "Fcrb", "dtau_dq", "dtau_dv", "Minv", "ddq_dq",
              "ddq_dv")
    return ddq_dq, ddq_dv, Minv
