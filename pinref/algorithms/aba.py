"""Forward dynamics by the Articulated-Body Algorithm (algorithm/aba.hxx, 3.8.0, LOCAL).

    v[0] = 0 ; a_gf[0] = -gravity ; u = tau ; f[0] = 0 (only without fext)
    for i = 1 .. n-1:                                   AbaLocalConventionForwardStep1
        jcalc(q, v) -> M_J, S_i, v_J, c_J
        liMi[i] = jointPlacements[i] * M_J
        v[i]    = v_J + liMi[i]^-1 v[parent]           (parent > 0)
        a_gf[i] = c_J + v[i] x v_J                      (the bias c_i, for now)
        Yaba[i] = Y_i (6x6) ; h[i] = Y_i v[i] ; f[i] = v[i] x* h[i]  (- fext[i])   (= pA_i)
    for i = n-1 .. 1:                                   AbaLocalConventionBackwardStep
        u_i  -= S_i^T f[i]
        U_i = IA_i S_i ; Dinv_i = (S_i^T U_i + armature_i)^-1 ; UDinv_i = U_i Dinv_i
        if parent > 0:
            Ia_i = IA_i - UDinv_i U_i^T                 (overwrites Yaba[i])
            pa_i = pA_i + Ia_i c_i + UDinv_i u_i        (overwrites f[i])
            Yaba[parent] += X* Ia_i X*^T ; f[parent] += liMi[i] pa_i
    for i = 1 .. n-1:                                   AbaLocalConventionForwardStep2
        a_gf[i] += liMi[i]^-1 a_gf[parent]
        ddq_i    = Dinv_i u_i - UDinv_i^T a_gf[i]
        a_gf[i] += S_i ddq_i
        a[i]     = a_gf[i] + (oMi[i].R^T g_lin ; 0)     (oMi as last written: docs/quirks.md)
        f[i]     = Y_i a_gf[i] + v[i] x* h[i]
    for i = n-1 .. 1:
        f[parent] += liMi[i] f[i]                       (parent 0 included)

X* = liMi[i].dualAction = X^T with X = liMi[i].actionInverse, so ``X* Ia X*^T = X^T Ia X``
(Pinocchio's ``SE3actOn``, which unrolls it block by block). After the call f[i] is RNEA's f for
(q, v, ddq) without fext.

The steps work on a tree level at a time, as in rnea.py (its module docstring says how a level
step maps to Pinocchio's per-joint loop and why ``x = x + y`` where C++ writes ``+=``); the
backward step and the final loop add the children into their parents round by round, in
Pinocchio's order. jcalc and liMi, which read no parent, run for every joint before the first
level loop.
"""

import numpy as np

from ..errors import NotPositiveDefiniteError
from ..spatial import Force, Motion
from . import steps as S
from ._args import Convention, check_local, external_forces, state
from ._levels import (Walk, crf, crm, expand, full, inputs, joint_calc, joint_calc_aba,
                      level_array, matvec, scatter, segments, subspace_times, subspaces,
                      subspace_transpose_times, tangent_rows, vecmat, widen)
from .rnea import _fext_step


def _aba_forward_step1(call, level, kin, T, data, shape):
    """Mirrors AbaLocalConventionForwardStep1::algo for the joints of one level (jcalc and liMi
    ran before the level loop: ``kin``); writes their v, a_gf (= c_i), Yaba, h, f."""
    i, p = level.rows, level.parent_rows
    V, A, H, F = data.v.vector, data.a_gf.vector, data.h.vector, data.f.vector
    X, vJ = kin.X[i], kin.vJ[i]
    # v_i = v_J + liMi^-1 v_parent   (parent > 0)
    V[i] = vJ + matvec(X, V[p]) if level.has_parent else vJ
    # c_i = c_J + v_i x v_J   (held in a_gf until pass 3)
    bias = matvec(crm(V[i]), vJ)
    A[i] = bias if kin.c is None else kin.c[i] + bias
    # IA_i = Y_i ; h_i = Y_i v_i ; pA_i = v_i x* h_i
    Y = expand(T.inertia_matrix[i], len(shape))
    data.Yaba.matrix[i] = Y
    H[i] = matvec(Y, V[i])
    F[i] = matvec(crf(V[i]), H[i])
    call.done(S.ABA_FORWARD1, level.forward_ids)


def _aba_backward_step(call, level, kin, model, data, uT, shape):
    """Mirrors AbaLocalConventionBackwardStep::algo for the joints of one level; eliminates
    each joint i into its parent. Returns the joints' (Dinv, UDinv) by group."""
    i, A, F = level.rows, data.a_gf.vector, data.f.vector
    Ia = data.Yaba.matrix[i]
    # u_i = tau_i - S_i^T pA_i
    subspace_transpose_times(level, subspaces(level, data), F[i], uT, shape, add=-1)
    # U_i = IA_i S_i ; Dinv_i = (S_i^T U_i + armature_i)^-1 ; UDinv_i ; Ia_i = IA_i - UDinv_i U_i^T
    D = joint_calc_aba(level, data, model.armature, Ia, shape)
    if not level.has_parent:
        call.done(S.ABA_BACKWARD, level.backward_ids)
        return D
    # pa_i = pA_i + (Ia_i c_i + UDinv_i u_i)
    UDu = [matvec(UDinv, segments(uT, group.v_index, group.nv, shape))
           for group, (_, UDinv) in zip(level.groups, D)]
    F[i] = F[i] + (matvec(Ia, A[i]) + level_array(level, UDu, shape, 6))
    # X* Ia_i X*^T = X^T Ia_i X ; liMi pa_i = X^T pa_i
    X = kin.X[i]
    XIX, Xf = X.mT @ Ia @ X, vecmat(F[i], X)
    for children, parents, ids in level.rounds:
        # IA_parent += X* Ia_i X*^T ; pA_parent += liMi pa_i
        data.Yaba.matrix[parents] = data.Yaba.matrix[parents] + XIX[children]
        F[parents] = F[parents] + Xf[children]
        call.done(S.ABA_BACKWARD, ids)
    return D


def _aba_forward_step2(call, level, kin, D, T, model, data, uT, ddqT, shape):
    """Mirrors AbaLocalConventionForwardStep2::algo for the joints of one level; writes their
    a_gf, ddq, a, f."""
    i, p = level.rows, level.parent_rows
    V, A, H, F = data.v.vector, data.a_gf.vector, data.h.vector, data.f.vector
    # a_gf_i = c_i + liMi^-1 a_gf_parent
    A[i] = A[i] + matvec(kin.X[i], A[p])
    lo = i.start
    for group, (Dinv, UDinv) in zip(level.groups, D):
        g = slice(group.rows.start - lo, group.rows.stop - lo)
        # ddq_i = Dinv_i u_i - UDinv_i^T a_gf_i
        u = segments(uT, group.v_index, group.nv, shape)
        scatter(ddqT, group.v_index, matvec(Dinv, u) - vecmat(A[i][g], UDinv), shape)
    # a_gf_i += S_i ddq_i
    A[i] = A[i] + subspace_times(level, subspaces(level, data), ddqT, shape)
    # a_i = a_gf_i + (oMi.R^T g_lin ; 0)
    a = A[i].copy()
    a[..., :3] += vecmat(model.gravity.linear, data.oMi.rows("rotation", i, shape))
    data.a.vector[i] = a
    # f_i = Y_i a_gf_i + v_i x* h_i
    Y = expand(T.inertia_matrix[i], len(shape))
    F[i] = matvec(Y, A[i]) + matvec(crf(V[i]), H[i])
    call.done(S.ABA_FORWARD2, level.forward_ids)


def _aba_final_step(call, level, kin, data):
    """The last loop of Pinocchio's abaLocalConvention for the joints of one level:
    ``f[parent] += liMi[i].act(f[i])``, parent 0 included."""
    F = data.f.vector
    # liMi f_i = X^T f_i
    Xf = vecmat(F[level.rows], kin.X[level.rows])
    for children, parents, ids in level.rounds:
        # f_parent += liMi f_i
        F[parents] = F[parents] + Xf[children]
        call.done(S.ABA_FINAL_LOOP, ids)


def _init_step(call, data):
    """``f[0].setZero()``, in the overload without fext."""
    data.f[0] = Force.Zero()
    call.done(S.ABA_INIT, (0,))


def aba(model, data, q, v, tau, fext=None, convention=Convention.LOCAL):
    """Joint accelerations ``ddq = FD(q, v, tau[, fext])``. See the module docstring.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    v, tau : ndarray, shape (..., model.nv)
    fext : list of model.njoints Force, or ndarray (..., model.njoints, 6), optional
        Wrench on each body, LOCAL frame of its joint; entry 0 is ignored.
    convention : Convention, default LOCAL (WORLD is not implemented yet)

    Returns
    -------
    ddq : ndarray, shape (..., model.nv), an owned copy of ``data.ddq``.

    Mirrors ``pinocchio::abaLocalConvention`` (algorithm/aba.hxx, 3.8.0). Writes liMi, v, a_gf,
    a (with the stale-oMi quirk), h, f (f[0] reset only without fext), Yaba (projected for
    parent > 0), u, ddq and the joints' U, StU, Dinv, UDinv. Raises NotPositiveDefiniteError
    naming the joint whose S^T Ia S + armature cannot be inverted.
    """
    with S.Call("aba", model, data, inputs(q=q, v=v, tau=tau, fext=fext)) as call:
        return _aba(call, model, data, q, v, tau, fext, convention)


def _aba(call, model, data, q, v, tau, fext, convention):
    check_local(convention, "aba")
    q, arrays, shape = state(model, q, data=data, v=v, tau=tau)
    q, v, tau = full(shape, q, arrays["v"], arrays["tau"])
    fext = external_forces(model, fext, shape)
    widen(data, shape, "liMi", "v", "a_gf", "a", "h", "f", "Yaba")
    T = Walk(model, q, v)
    data.v[0] = Motion.Zero()
    data.a_gf[0] = -model.gravity
    data.u = np.array(tau)
    data.ddq = np.zeros(shape + (model.nv,))
    uT, ddqT = tangent_rows(data.u), tangent_rows(data.ddq)
    if fext is None:
        call.run(S.ABA_INIT, _init_step, call, data)
    # jcalc(q, v) -> M_J, S_i, v_J, c_J ; liMi = jointPlacements[i] * M_J ;
    # X = liMi.actionInverse   (every joint: no parent read)
    kin = joint_calc(T, data, q, v, shape)
    for level in T.levels:
        call.run(S.ABA_FORWARD1, _aba_forward_step1, call, level, kin, T, data, shape)
        if fext is not None:
            call.run(S.ABA_FEXT, _fext_step, call, S.ABA_FEXT, level, data, fext)
    Ds = []
    try:
        for level in reversed(T.levels):
            Ds.append(call.run(S.ABA_BACKWARD, _aba_backward_step, call, level, kin, model, data,
                               uT, shape))
    except NotPositiveDefiniteError as err:
        # no half-written result that looks valid: ddq and u hold NaN
        data.ddq[...] = np.nan
        data.u[...] = np.nan
        raise NotPositiveDefiniteError(
            f"aba: joint {model.names[err.joint_id]!r}: {err}", joint_id=err.joint_id) from None
    for level, D in zip(T.levels, reversed(Ds)):
        call.run(S.ABA_FORWARD2, _aba_forward_step2, call, level, kin, D, T, model, data, uT,
                 ddqT, shape)
    for level in reversed(T.levels):
        call.run(S.ABA_FINAL_LOOP, _aba_final_step, call, level, kin, data)
    call.shape = shape
    data.mark("aba", "liMi", "v", "a_gf", "a", "h", "f", "Yaba", "u", "ddq")
    return data.ddq.copy()
