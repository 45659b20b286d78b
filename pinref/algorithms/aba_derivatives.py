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
C++ struct is one step function named after it (``_forward_step1``, ``_backward_step1``,
``_forward_step2``, ``_backward_step2``), the driver reads as Pinocchio's, the steps run through
pinref/algorithms/scan.py, and what Data holds between the passes the steps hold in the
``Workspace`` (here also ``Minv``, rows first ``(nv, *batch, nv)``, so a level's rows are one
gather; ``F``, Fcrb[0] column first; ``uT``, ``ddqT``: data.u and data.ddq by tangent row). A
step runs level by level the statements that read a parent or a child, and before or after its
level loop, for every joint at once, those that read neither (``i`` is then the set of joints
of one level, or of all joints; ``x = x + y`` where C++ writes ``+=``):

- ForwardStep1: oMi and ``ov_i = oMi v_J + ov_parent`` by level, the rest after the loop;
  ``of_i -= oMi fext_i`` after the step for every joint (``fext_step``), as after ForwardStep2;
- BackwardStep1 runs level by level in ``scan.backward`` (it eliminates joint i into its parent:
  the scan adds oYaba_i and of_i into the parents in Pinocchio's order), a level's joints of one
  kind at a time (``level.groups``) for the joints' own matrices, the whole level for the rows of
  Minv and the columns of F; their writes ``Minv[i, sub+_i]`` and ``F[sub_i]`` touch entries of
  disjoint subtrees;
- ForwardStep2 up to Fcrb[i] runs level by level (it reads the parent's oa_gf and Fcrb), Dinv
  and UDinv read from the joint data as BackwardStep1 wrote them; ``Minv[i, c0:] -= ...`` and
  ``J_i Minv[i, c0:]`` run from the smallest idx_v c0 of a group's joints: the entries left of a
  joint's own idx_v lie below the diagonal, which the driver's last lines overwrite, and only
  the columns idx_v.. of Fcrb[i] are written. oa, of and the motion derivative columns run after
  its loop;
- BackwardStep2 is rnea_derivatives.py's backward step: its subtree sums first, level by level,
  the rest after them for every joint at once.
"""

import numpy as np

from ..errors import NotPositiveDefiniteError
from ..spatial._kernels import ANGULAR, LINEAR
from . import scan
from . import steps as S
from ._args import named_joint_error
from ._levels import begin, crf, crm, joint_calc, matvec, tangent_rows, vecmat
from .rnea_derivatives import (
    Workspace,
    _action_matrices,
    _check_linear_gravity,
    _force_cross_matrix,
    _gravity_cross,
    _in_place,
    _store_world_inertias,
    _subtree_sums,
    columns_first,
    fext_step,
    matrix_face,
    motion_derivative_columns,
    moved,
    mv,
    subspace_columns,
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


def joint_data(data, group, name):
    """The joints' data field ``name`` of a level group, joint axis first, as
    ``write_joint_data`` wrote it."""
    if group.batched:
        return data.joint_rows[group.key].fields[name]
    return getattr(data.joints[group.ids[0]], name)[None]


def _forward_step1(data, w, kin):
    """Mirrors ComputeABADerivativesForwardStep1::algo for every joint (jcalc and liMi ran
    before: ``kin``): oMi and ov level by level (they read the parent), the rest for every joint
    at once."""
    C, R, p = w.C, data.oMi.rotation, data.oMi.translation
    OV, OH = data.ov.vector, data.oh.vector
    for level in w.T.levels:
        # oMi = oMi[parent] liMi
        world_placements_step(level, data)
    X, w.Xf = _action_matrices(R, p)
    # ov_i = oMi v_J + ov_parent ;  oa_gf_i = oMi c_J + ov_parent x ov_i
    world_velocities_step(w.T, C, data, kin, X)
    # oYcrb_i = oinertias_i = oMi Y_i ;  oYaba_i = oYcrb_i
    w.oYcrb[...] = world_inertia_matrices(w.T.tree, R, p, len(w.shape))
    w.oinertias = w.oYcrb.copy()
    w.oYaba[...] = w.oYcrb
    # oh_i = oYcrb_i ov_i ;  of_i = ov_i x* oh_i
    OH[1:] = mv(w.oYcrb[1:], OV[1:])
    w.of[1:] = mv(crf(OV[1:]), OH[1:])
    # J_i = oMi S_i
    w.J = mv(X[C.row], subspace_columns(C, data, w.shape))


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


def joint_inverse(model, data, group, Jg, Ug, nb):
    """``StU_i = J_i^T U_i + armature_i ; Dinv_i = StU_i^-1 ; UDinv_i = U_i Dinv_i`` for the K
    joints of a level group (``Jg``, ``Ug``: ``(K, *batch, 6, nvg)``, nb batch axes), written
    with U into their joint data; returns Dinv."""
    StU = Jg.mT @ Ug + np.eye(group.nv) * armature_rows(model, group, nb)[..., None]
    Dinv = _stys_inversion(group, StU)
    write_joint_data(data, group, U=Ug, StU=StU, Dinv=Dinv, UDinv=Ug @ Dinv)
    return Dinv


def _backward_step1(level, model, data, w):
    """Mirrors ComputeABADerivativesBackwardStep1::algo for the joints of one level (WORLD
    frame): eliminates each joint into its parent and fills its block row of Minv (``w.Minv``,
    rows first, ``(nv, *batch, nv)``; ``w.F``: Fcrb[0] column first). Returns the sums into the
    parents for the scan to add."""
    L, i = w.C.level[level], level.rows
    Jl, rows = w.J[L.cols], w.C.row[L.cols]
    # u_i -= J_i^T of_i
    w.uT[L.cols] -= np.vecdot(Jl, w.of[rows])
    # U_i = oYaba_i J_i
    Ul = mv(w.oYaba[rows], Jl)
    SDinv = np.empty_like(Jl)
    for group, span, own in zip(level.groups, L.spans, L.own):
        Jg = _joint_matrices(Jl[span], group.nv, len(group.ids))
        Ug = _joint_matrices(Ul[span], group.nv, len(group.ids))
        # StU_i = J_i^T U_i + armature_i ;  Dinv_i = StU_i^-1 ;  UDinv_i = U_i Dinv_i
        Dinv = joint_inverse(model, data, group, Jg, Ug, len(w.shape))
        # Minv[i, i] = Dinv_i
        w.Minv[own[0], ..., own[1]] = diagonal_block_entries(Dinv)
        # SDinv_i = J_i Dinv_i   (kept for the joints with children)
        SDinv[span] = _entries_of_columns(Jg @ Dinv)
    # Minv[i, sub+_i] = -SDinv_i^T F[sub+_i] ;  F[sub_i] (+)= U_i Minv[i, sub_i]
    minverse_rows_step(L, SDinv, Ul, w.F, w.Minv, data)
    if not level.has_parent:
        return None
    for group in level.groups:
        g, U, UDinv = group.rows, joint_data(data, group, "U"), joint_data(data, group, "UDinv")
        # oYaba_i -= UDinv_i U_i^T
        w.oYaba[g] = Ia = w.oYaba[g] - UDinv @ U.mT
        # of_i += oYaba_i oa_gf_i + UDinv_i u_i
        u = _joint_vectors(w.uT[group.v_index], group.nv, len(group.ids))
        w.of[g] = w.of[g] + (matvec(Ia, data.oa_gf.vector[g]) + matvec(UDinv, u))
    # oYaba_parent += oYaba_i ;  of_parent += of_i
    return ((w.aba_sums, w.aba_sums[i]),)


def _forward_step2_level(level, data, w):
    """The statements of ComputeABADerivativesForwardStep2::algo that read the parent, for the
    joints of one level: oa_gf, ddq, the rows of Minv and Fcrb[i] (Dinv, UDinv from the joint
    data, as BackwardStep1 left them)."""
    i, p, L = level.rows, level.parent_rows, w.C.level[level]
    OA_GF, Fm = data.oa_gf.vector, data.Fcrb.matrix
    # oa_gf_i += oa_gf_parent
    OA_GF[i] = OA_GF[i] + OA_GF[p]
    for group, span, (c0, mask) in zip(level.groups, L.spans, L.right):
        K, nvg, g = len(group.ids), group.nv, group.rows
        Dinv, UDinv = joint_data(data, group, "Dinv"), joint_data(data, group, "UDinv")
        # ddq_i = Dinv_i u_i - UDinv_i^T oa_gf_i
        ddq = matvec(Dinv, _joint_vectors(w.uT[group.v_index], nvg, K)) - vecmat(OA_GF[g], UDinv)
        w.ddqT[group.v_index] = _entries(ddq)
        Jg = _joint_matrices(w.J[L.cols[span]], nvg, K)
        # oa_gf_i += J_i ddq_i
        OA_GF[g] = OA_GF[g] + matvec(Jg, ddq)
        # (columns c0.. only: c0 is the smallest idx_v of the group's joints)
        Mg = _joint_rows(w.Minv[group.v_index, ..., c0:], K, nvg)         # (K, *batch, nvg, .)
        if level.has_parent:
            local = slice(g.start - i.start, g.stop - i.start)
            Fp = Fm[..., c0:][p][local] if isinstance(p, slice) else Fm[..., c0:][p[local]]
            # Minv[i, idx_v:] -= UDinv_i^T Fcrb[parent][idx_v:]
            Mg = Mg - UDinv.mT @ Fp
            w.Minv[group.v_index, ..., c0:] = _rows_of_joints(Mg)
        # Fcrb[i][idx_v:] = J_i Minv[i, idx_v:] (+ Fcrb[parent][idx_v:])
        Fi = Jg @ Mg + Fp if level.has_parent else Jg @ Mg
        mask = mask.reshape((K,) + (1,) * (len(w.shape) + 1) + mask.shape[1:])
        np.copyto(Fm[g, ..., c0:], Fi, where=mask)


def _joint_rows(x, K, nvg):
    """Rows ``(K * nvg, *batch, nv)`` of K joints as ``(K, *batch, nvg, nv)``."""
    return moved(x.reshape((K, nvg) + x.shape[1:]), 1, -2)


def _rows_of_joints(x):
    """``(K, *batch, nvg, nv)`` as rows ``(K * nvg, *batch, nv)``."""
    return moved(x, -2, 1).reshape((x.shape[0] * x.shape[-2],) + x.shape[1:-2] + x.shape[-1:])


def _forward_step2(model, data, w):
    """Mirrors ComputeABADerivativesForwardStep2::algo for every joint: oa_gf, ddq, the rows of
    Minv and Fcrb[i] level by level (they read the parent: ``_forward_step2_level``), then oa,
    of and the motion derivative columns for every joint at once."""
    OA_GF = data.oa_gf.vector
    for level in w.T.levels:
        # oa_gf_i += oa_gf_parent ;  ddq_i ;  oa_gf_i += J_i ddq_i ;  Minv[i, idx_v:] ; Fcrb[i]
        _forward_step2_level(level, data, w)
    # oa_i = oa_gf_i + gravity
    data.oa.vector[1:] = OA_GF[1:] + model.gravity.vector
    # of_i = oYcrb_i oa_gf_i + ov_i x* oh_i   (Pinocchio overwrites data.of here; w.of names
    # from now on the buffer that BackwardStep2 sums beside oYcrb and doYcrb, w.crb_of)
    w.of = w.crb_of
    w.of[1:] = mv(w.oYcrb[1:], OA_GF[1:]) + mv(crf(data.ov.vector[1:]), data.oh.vector[1:])
    # dJ_i ;  dVdq_i ;  dAdq_i ;  dAdv_i ;  doYcrb_i   (motion_derivative_columns)
    w.dJ, w.dVdq, w.dAdq, w.dAdv = motion_derivative_columns(w.C, data, w.oYcrb, w.doYcrb, w.J)


def _backward_step2(model, data, w):
    """Mirrors ComputeABADerivativesBackwardStep2::algo for every joint (``data.dtau_dq``,
    ``data.dtau_dv`` written in place). Its subtree sums run first (``_subtree_sums``); the
    other statements read joint i's complete sums and the final columns of its descendants and
    ancestors."""
    # oYcrb_parent += oYcrb_i ;  doYcrb_parent += doYcrb_i ;  of_parent += of_i   (parent > 0)
    _subtree_sums(w, w.sums)
    C, J, dVdq, dAdq, dAdv = w.C, w.J, w.dVdq, w.dAdq, w.dAdv
    Ycol, dYcol, of_col = w.oYcrb[C.row], w.doYcrb[C.row], w.of[C.row]
    Jt = columns_first(J)
    # dFdv_i = oYcrb_i dAdv_i + doYcrb_i J_i ;  dtau_dv[i, sub_i] = J_i^T dFdv[sub_i]
    w.dFdv = mv(Ycol, dAdv) + mv(dYcol, J)
    write_blocks(data.dtau_dv, C.sub, Jt @ matrix_face(w.dFdv))
    # dFdq_i = oYcrb_i dAdq_i + doYcrb_i dVdq_i ;  dtau_dq[i, sub_i] = J_i^T dFdq[sub_i]
    dFdq = mv(Ycol, dAdq) + mv(dYcol, dVdq)
    write_blocks(data.dtau_dq, C.own, Jt @ matrix_face(dFdq))
    # dFdq_i += J_i x* of_i ;  dFda_i = oYcrb_i J_i
    w.dFdq = dFdq + mv(_force_cross_matrix(of_col), J)
    write_blocks(data.dtau_dq, C.plus, Jt @ matrix_face(w.dFdq))
    w.dFda = mv(Ycol, J)
    # dtau_dq[i, anc_i] = dFda_i^T dAdq[anc_i] + (J_i^T doYcrb_i) dVdq[anc_i]
    dFda_t, StdY = columns_first(w.dFda), columns_first(vecmat(J, dYcol))
    write_blocks(data.dtau_dq, C.anc, dFda_t @ matrix_face(dAdq) + StdY @ matrix_face(dVdq))
    # dtau_dv[i, anc_i] = dFda_i^T dAdv[anc_i] + (J_i^T doYcrb_i) J[anc_i]
    write_blocks(data.dtau_dv, C.anc, dFda_t @ matrix_face(dAdv) + StdY @ matrix_face(J))
    # dAdq_i.linear += gravity_lin x J_i.angular   (gravity taken back out)
    dAdq[..., LINEAR] += matvec(_gravity_cross(model), J[..., ANGULAR])


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
    T, shape, q, v, tau, fext = begin(model, data, ("liMi", "oMi", "ov", "oa", "oa_gf", "oh",
                                                    "of", "doYcrb", "oYaba", "Fcrb"),
                                      q, v=v, tau=tau, fext=fext)
    model.check_compact_subtrees("computeABADerivatives")
    _check_linear_gravity(model, "computeABADerivatives")
    nv = model.nv
    w = Workspace(model, T, shape)
    w.sums, w.oYcrb, w.doYcrb, w.crb_of = w.stack(36, 36, 6)   # BackwardStep2 sums these
    w.aba_sums, w.oYaba, w.of = w.stack(36, 6)                 # BackwardStep1 sums these
    data.oa_gf[0] = -model.gravity
    # u = tau ;  Minv = 0 (rows first) ;  Fcrb[0] = 0 (column first)
    data.u, data.ddq = np.array(tau), np.zeros(shape + (nv,))
    w.uT, w.ddqT = tangent_rows(data.u), tangent_rows(data.ddq)
    w.Minv, w.F = np.zeros((nv,) + shape + (nv,)), np.zeros((nv,) + shape + (6,))
    data.SDinv = _in_place(data.SDinv, shape + (6, nv))
    # jcalc(q, v) ; liMi = jointPlacements[i] M_J   (every joint: no parent read)
    kin = joint_calc(T, data, q, v, shape)
    scan.forward(S.QUIET, "ComputeABADerivativesForwardStep1", T, _forward_step1, data, w, kin)
    fext_step(model, w, fext, "computeABADerivatives")
    try:
        scan.backward(S.QUIET, "ComputeABADerivativesBackwardStep1", T, _backward_step1, model,
                      data, w)
    except NotPositiveDefiniteError as err:
        # no half-written result that looks valid: ddq, u NaN (as aba leaves them)
        data.ddq[...] = np.nan
        data.u[...] = np.nan
        raise named_joint_error(err, model, "computeABADerivatives") from None
    data.Fcrb.matrix[0] = matrix_face(w.F)
    scan.forward(S.QUIET, "ComputeABADerivativesForwardStep2", T, _forward_step2, model, data, w)
    fext_step(model, w, fext, "computeABADerivatives")
    data.dtau_dq, data.dtau_dv = (_in_place(getattr(data, name), shape + (nv, nv))
                                  for name in ("dtau_dq", "dtau_dv"))
    scan.step(S.QUIET, "ComputeABADerivativesBackwardStep2", T.tree.order_ids[::-1],
              _backward_step2, model, data, w)
    # Minv lower = upper^T ;  ddq_dq = -Minv dtau_dq ;  ddq_dv = -Minv dtau_dv
    Minv = moved(w.Minv, 0, -2).copy()
    lower = np.tril_indices(nv, -1)
    Minv[..., lower[0], lower[1]] = Minv[..., lower[1], lower[0]]
    ddq_dq = -(Minv @ data.dtau_dq)
    ddq_dv = -(Minv @ data.dtau_dv)
    # the fresh arrays are returned; Data keeps copies in its own (reused) buffers
    for name, value in (("Minv", Minv), ("ddq_dq", ddq_dq), ("ddq_dv", ddq_dv)):
        setattr(data, name, _in_place(getattr(data, name), shape + (nv, nv)))
        getattr(data, name)[...] = value
    data.oYaba.matrix[1:] = w.oYaba[1:]
    data.doYcrb.matrix[1:] = w.doYcrb[1:]
    data.of.vector[1:] = w.of[1:]
    w.publish(data, "J", "dJ", "dVdq", "dAdq", "dAdv", "dFda", "dFdq", "dFdv")
    _store_world_inertias(data, T.tree.pos, w.oinertias, w.oYcrb)
    data.mark("computeABADerivatives", "liMi", "oMi", "ov", "oa", "oa_gf", "oh", "oinertias",
              "oYcrb", "doYcrb", "oYaba", "of", "u", "ddq", "J", "SDinv", "dJ", "dVdq", "dAdq",
              "dAdv", "dFda", "dFdq", "dFdv", "Fcrb", "dtau_dq", "dtau_dv", "Minv", "ddq_dq",
              "ddq_dv")
    return ddq_dq, ddq_dv, Minv

