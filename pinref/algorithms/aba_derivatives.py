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
"""

import numpy as np

from ..errors import NotPositiveDefiniteError
from ..spatial import Force, Motion
from ..spatial._kernels import ANGULAR, LINEAR, matvec
from ._args import external_forces, state
from .rnea_derivatives import (
    _action_matrices,
    _ancestor_columns,
    _body_inertia_matrices,
    _check_linear_gravity,
    _force_cross_matrix,
    _gravity_cross,
    _in_place,
    _motion_derivative_columns,
    _store_world_inertias,
    _subtree,
)


def _stys_inversion(jmodel, StU):
    """``internal::PerformStYSInversion``: Dinv = StU^-1, (..., nv, nv): 1 / StU for one dof,
    Cholesky otherwise (the joint's ``_stys_inverse``, which raises NotPositiveDefiniteError
    naming the joint when StU is not positive definite; Pinocchio's LLT returns garbage)."""
    if jmodel.nv == 1 and (StU > 0).all():
        return 1.0 / StU
    return jmodel._stys_inverse(StU)


def _aba_derivatives_forward_step1(jmodel, jdata, model, data, Ybody, oYcrb, q, v):
    """Mirrors ComputeABADerivativesForwardStep1::algo; writes liMi, oMi, ov, oa_gf (= the bias),
    oh, of, oYaba, J of joint i and its world inertia ``oYcrb[i]`` (6x6)."""
    i = jmodel.id
    parent = model.parents[i]
    jmodel.calc(jdata, q, v)
    # liMi = jointPlacements[i] M_J ;  oMi = oMi[parent] liMi
    data.liMi[i] = model.jointPlacements[i] * jdata.M
    data.oMi[i] = data.oMi[parent] * data.liMi[i] if parent > 0 else data.liMi[i]
    X, Xf = _action_matrices(data.oMi[i])
    # ov_i = oMi v_J + ov_parent ;  oa_gf_i = oMi c_J + ov_parent x ov_i
    ov = matvec(X, jdata.v.vector)
    oc = matvec(X, jdata.c.vector)
    if parent > 0:
        ov = ov + data.ov[parent].vector
        oc = oc + matvec(data.ov[parent].action, ov)
    data.ov[i], data.oa_gf[i] = Motion._wrap(ov), Motion._wrap(oc)
    # oYcrb_i = oinertias_i = oMi Y_i   (X* Y X*^T) ;  oYaba_i = oYcrb_i
    XfY = Xf @ Ybody[i]
    oYcrb[i] = XfY @ Xf.mT
    data.oYaba[i] = oYcrb[i].copy()
    # oh_i = oYcrb_i ov_i ;  of_i = ov_i x* oh_i
    data.oh[i] = oh = Force._wrap(matvec(oYcrb[i], ov))
    data.of[i] = Force._wrap(-matvec(data.ov[i].action.mT, oh.vector))
    # J_i = oMi S_i
    data.J[..., jmodel.v_slice] = X @ jdata.S


def _aba_derivatives_backward_step1(jmodel, jdata, model, data, Minv):
    """Mirrors ComputeABADerivativesBackwardStep1::algo; eliminates joint i (WORLD frame) and
    fills its block row of Minv. F = ``data.Fcrb[0]`` accumulates U Minv over the subtree."""
    i = jmodel.id
    parent = model.parents[i]
    cols = jmodel.v_slice
    sub, sub_plus = _subtree(data, jmodel)
    Ia, F, J = data.oYaba[i], data.Fcrb[0], data.J[..., cols]
    # u_i -= J_i^T of_i
    data.u[..., cols] -= matvec(J.mT, data.of[i].vector)
    # U_i = oYaba_i J_i ;  StU_i = J_i^T U_i + armature_i ;  Dinv_i = StU_i^-1 ;  UDinv_i = U Dinv
    U = Ia @ J
    StU = J.mT @ U
    StU[..., range(jmodel.nv), range(jmodel.nv)] += model.armature[cols]
    jdata.U, jdata.StU, jdata.Dinv = U, StU, _stys_inversion(jmodel, StU)
    jdata.UDinv = U @ jdata.Dinv
    # Minv[i, i] = Dinv_i
    Minv[..., cols, cols] = jdata.Dinv
    if sub_plus.stop > sub_plus.start:
        # SDinv_i = J_i Dinv_i ;  Minv[i, sub+_i] = -SDinv_i^T F[sub+_i]
        data.SDinv[..., cols] = SDinv = J @ jdata.Dinv
        Minv[..., cols, sub_plus] = -(SDinv.mT @ F[..., sub_plus])
        if parent > 0:
            # F[sub_i] += U_i Minv[i, sub_i]
            F[..., sub] += U @ Minv[..., cols, sub]
    else:
        # F[sub_i] = U_i Minv[i, sub_i]
        F[..., sub] = U @ Minv[..., cols, sub]
    if parent > 0:
        # oYaba_i -= UDinv_i U_i^T ;  of_i += oYaba_i oa_gf_i + UDinv_i u_i
        data.oYaba[i] = Ia = Ia - jdata.UDinv @ U.mT
        data.of[i] = Force._wrap(data.of[i].vector + matvec(Ia, data.oa_gf[i].vector)
                                 + matvec(jdata.UDinv, data.u[..., cols]))
        # oYaba_parent += oYaba_i ;  of_parent += of_i
        data.oYaba[parent] = data.oYaba[parent] + Ia
        data.of[parent] = data.of[parent] + data.of[i]


def _aba_derivatives_forward_step2(jmodel, jdata, model, data, oYcrb, Minv):
    """Mirrors ComputeABADerivativesForwardStep2::algo; writes oa_gf, ddq, oa, of, the rest of
    joint i's block row of Minv, Fcrb[i], dJ, dVdq, dAdq, dAdv, doYcrb."""
    i = jmodel.id
    parent = model.parents[i]
    cols = jmodel.v_slice
    right = slice(jmodel.idx_v, model.nv)
    J, Y = data.J[..., cols], oYcrb[i]
    # oa_gf_i += oa_gf_parent ;  ddq_i = Dinv_i u_i - UDinv_i^T oa_gf_i ;  oa_gf_i += J_i ddq_i
    oa_gf = data.oa_gf[i].vector + data.oa_gf[parent].vector
    data.ddq[..., cols] = (matvec(jdata.Dinv, data.u[..., cols])
                           - matvec(jdata.UDinv.mT, oa_gf))
    data.oa_gf[i] = Motion._wrap(oa_gf + matvec(J, data.ddq[..., cols]))
    # oa_i = oa_gf_i + gravity ;  of_i = oYcrb_i oa_gf_i + ov_i x* oh_i
    data.oa[i] = data.oa_gf[i] + model.gravity
    ov_x = data.ov[i].action  # ov x (crm); ov x* (crf) is -ov_x^T
    data.of[i] = Force._wrap(matvec(Y, data.oa_gf[i].vector) - matvec(ov_x.mT, data.oh[i].vector))
    if parent > 0:
        # Minv[i, idx_v:] -= UDinv_i^T Fcrb[parent][idx_v:]
        Minv[..., cols, right] -= jdata.UDinv.mT @ data.Fcrb[parent][..., right]
    # Fcrb[i][idx_v:] = J_i Minv[i, idx_v:] + Fcrb[parent][idx_v:]   (last term when parent > 0)
    JMinv = J @ Minv[..., cols, right]
    if parent > 0:
        JMinv += data.Fcrb[parent][..., right]
    data.Fcrb[i][..., right] = JMinv
    # dJ_i, dVdq_i, dAdq_i, dAdv_i, doYcrb_i   (see _motion_derivative_columns)
    _motion_derivative_columns(jmodel, model, data, Y)


def _aba_derivatives_backward_step2(jmodel, model, data, oYcrb, dtau_dq, dtau_dv):
    """Mirrors ComputeABADerivativesBackwardStep2::algo; fills joint i's rows of dtau_dq and
    dtau_dv (the RNEA partials at (q, v, ddq)); oYcrb, doYcrb, of become subtree sums."""
    i = jmodel.id
    parent = model.parents[i]
    cols = jmodel.v_slice
    sub, _ = _subtree(data, jmodel)
    J, Y, dY = data.J[..., cols], oYcrb[i], data.doYcrb[i]
    # dFdv_i = oYcrb_i dAdv_i + doYcrb_i J_i ;  dtau_dv[i, sub_i] = J_i^T dFdv[sub_i]
    dFdv = Y @ data.dAdv[..., cols]
    data.dFdv[..., cols] = dFdv + dY @ J
    dtau_dv[..., cols, sub] = J.mT @ data.dFdv[..., sub]
    # dFdq_i = oYcrb_i dAdq_i + doYcrb_i dVdq_i ;  dtau_dq[i, sub_i] = J_i^T dFdq[sub_i]
    dFdq = Y @ data.dAdq[..., cols]
    data.dFdq[..., cols] = dFdq + dY @ data.dVdq[..., cols] if parent > 0 else dFdq
    dtau_dq[..., cols, sub] = J.mT @ data.dFdq[..., sub]
    # dFdq_i += J_i x* of_i ;  dFda_i = oYcrb_i J_i
    data.dFdq[..., cols] += _force_cross_matrix(data.of[i].vector) @ J
    data.dFda[..., cols] = dFda = Y @ J
    if parent > 0:
        anc = _ancestor_columns(model, i)
        StdY = J.mT @ dY
        # dtau_dq[i, anc_i] = dFda_i^T dAdq[anc_i] + (J_i^T doYcrb_i) dVdq[anc_i]
        dtau_q = dFda.mT @ data.dAdq[..., anc]
        dtau_dq[..., cols, anc] = dtau_q + StdY @ data.dVdq[..., anc]
        # dtau_dv[i, anc_i] = dFda_i^T dAdv[anc_i] + (J_i^T doYcrb_i) J[anc_i]
        dtau_v = dFda.mT @ data.dAdv[..., anc]
        dtau_dv[..., cols, anc] = dtau_v + StdY @ data.J[..., anc]
        # oYcrb_parent += oYcrb_i ;  doYcrb_parent += doYcrb_i ;  of_parent += of_i
        oYcrb[parent] = oYcrb[parent] + Y
        data.doYcrb[parent] = data.doYcrb[parent] + dY
        data.of[parent] = data.of[parent] + data.of[i]
    # dAdq_i.linear += gravity_lin x J_i.angular
    data.dAdq[..., LINEAR, cols] += _gravity_cross(model) @ J[..., ANGULAR, :]


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
    v, tau = arrays["v"], arrays["tau"]
    fext = external_forces(model, fext, shape)
    model.check_compact_subtrees("computeABADerivatives")
    _check_linear_gravity(model, "computeABADerivatives")
    nv = model.nv
    data.oa_gf[0] = -model.gravity
    data.u = np.broadcast_to(tau, shape + (nv,)).copy()
    data.ddq = np.zeros(shape + (nv,))
    for name in ("J", "SDinv", "dJ", "dVdq", "dAdq", "dAdv", "dFda", "dFdq", "dFdv"):
        setattr(data, name, _in_place(getattr(data, name), shape + (6, nv)))
    for k in range(model.njoints):
        data.Fcrb[k] = _in_place(data.Fcrb[k], shape + (6, nv))
    data.Fcrb[0][...] = 0.0
    Minv = np.zeros(shape + (nv, nv))
    Ybody = _body_inertia_matrices(model)
    oYcrb = [None] * model.njoints
    for i in range(1, model.njoints):
        _aba_derivatives_forward_step1(model.joints[i], data.joints[i], model, data, Ybody,
                                       oYcrb, q, v)
        if fext is not None:
            # of_i -= oMi fext_i
            data.of[i] = data.of[i] - data.oMi[i].act(Force._wrap(fext[..., i, :]))
    try:
        for i in reversed(range(1, model.njoints)):
            _aba_derivatives_backward_step1(model.joints[i], data.joints[i], model, data, Minv)
    except NotPositiveDefiniteError as err:
        raise NotPositiveDefiniteError(
            f"computeABADerivatives: joint {model.names[err.joint_id]!r}: {err}",
            joint_id=err.joint_id) from None
    for i in range(1, model.njoints):
        _aba_derivatives_forward_step2(model.joints[i], data.joints[i], model, data, oYcrb, Minv)
        if fext is not None:
            # of_i -= oMi fext_i
            data.of[i] = data.of[i] - data.oMi[i].act(Force._wrap(fext[..., i, :]))
    oinertias = list(oYcrb)
    data.dtau_dq, data.dtau_dv = (_in_place(getattr(data, name), shape + (nv, nv))
                                  for name in ("dtau_dq", "dtau_dv"))
    for i in reversed(range(1, model.njoints)):
        _aba_derivatives_backward_step2(model.joints[i], model, data, oYcrb, data.dtau_dq,
                                        data.dtau_dv)
    # Minv lower = upper^T ;  ddq_dq = -Minv dtau_dq ;  ddq_dv = -Minv dtau_dv
    lower = np.tril_indices(nv, -1)
    Minv[..., lower[0], lower[1]] = Minv[..., lower[1], lower[0]]
    ddq_dq = -(Minv @ data.dtau_dq)
    ddq_dv = -(Minv @ data.dtau_dv)
    # the fresh arrays are returned; Data keeps copies in its own (reused) buffers
    for name, value in (("Minv", Minv), ("ddq_dq", ddq_dq), ("ddq_dv", ddq_dv)):
        setattr(data, name, _in_place(getattr(data, name), shape + (nv, nv)))
        getattr(data, name)[...] = value
    _store_world_inertias(data, oinertias, oYcrb)
    data.mark("computeABADerivatives", "liMi", "oMi", "ov", "oa", "oa_gf", "oh", "oinertias",
              "oYcrb", "doYcrb", "oYaba", "of", "u", "ddq", "J", "SDinv", "dJ", "dVdq", "dAdq",
              "dAdv", "dFda", "dFdq", "dFdv", "Fcrb", "dtau_dq", "dtau_dv", "Minv", "ddq_dq",
              "ddq_dv")
    return ddq_dq, ddq_dv, Minv
