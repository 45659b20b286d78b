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
        a[i]     = a_gf[i] + (oMi[i].R^T g_lin ; 0)    (g_lin = model.gravity.linear; oMi as
                                                        last written: docs/quirks.md)
        f[i]     = Y_i a_gf[i] + v[i] x* h[i]
    for i = n-1 .. 1:
        f[parent] += liMi[i] f[i]                       (parent 0 included)

X* = liMi[i].dualAction = X^T with X = liMi[i].actionInverse, so ``X* Ia X*^T = X^T Ia X``
(Pinocchio's ``SE3actOn``, which unrolls it block by block). After the call f[i] is RNEA's f for
(q, v, ddq) without fext.

How the code maps to the loops above (rnea.py's module docstring says how a level step maps to
Pinocchio's per-joint loop and why ``x = x + y`` where C++ writes ``+=``). Only what reads the
parent runs level by level; a statement that reads no parent runs for every joint at once,
before or after the level loop, and a step reports its joints (``call.done``) once every field
it declares holds what Pinocchio's loop holds after the joint:

- pass 1: jcalc and liMi before the loop (``joint_calc``), v_i level by level, then the bias
  c_i, Yaba_i, h_i and f_i for every joint at once;
- pass 2 (backward): level by level; the children add into their parents round by round, in
  Pinocchio's order. calc_aba and the S products run once per group of joints, or once for the
  whole level when its joints all have S_i = sign e_k (``level.axes``), which makes
  ``S_i^T pA_i`` sign times entry k of pA_i and ``S_i ddq_i`` an addition of sign ddq_i into
  entry k (as in rnea.py);
- pass 3: a_gf_i += liMi^-1 a_gf_parent, ddq_i and a_gf_i += S_i ddq_i level by level (a child
  reads its parent's final a_gf), then a_i and f_i for every joint at once;
- the last loop: level by level, round by round, as pass 2.
"""

import numpy as np

from ..errors import NotPositiveDefiniteError
from . import steps as S
from ._args import Convention, convention_of, external_forces, named_joint_error, state
from ._levels import (Walk, crf, crm, expand, full, inputs, joint_calc,
                      joint_calc_aba, level_array, matvec, scatter, segments, signed,
                      subspaces, tangent_rows, vecmat, widen)
from .rnea import _fext_step


def _parts(level, data, shape):
    """``(rows of the level, tangent entries, nv, S)`` for each part of a level that takes its
    S products in one call: the whole level (``level.axes``, S_i stacked) or each group."""
    if level.axes is not None:
        return ((slice(None), level.axes.v_index, 1, expand(level.axes.S, len(shape))),)
    lo = level.rows.start
    return [(slice(g.rows.start - lo, g.rows.stop - lo), g.v_index, g.nv, S_g)
            for g, S_g in zip(level.groups, subspaces(level, data))]


def _axes_calc_aba(axes, data, armature, arm, Ia, update_I):
    """``jmodel.calc_aba(jdata, armature_i, Ia_i, update_I)`` for every joint of a level of
    joints with S_i = sign e_k at once, as their own calc_aba computes it
    (``FrameAxisJointModel.calc_aba``; an unaligned one's ``U = I[:, part] u``, here sign times
    column k) (``Ia (K, *batch, 6, 6)`` updated in place; ``arm``: ``armature`` as ``(nv, 1 * nb)``);
    writes the joints' U, StU, Dinv, UDinv and returns ``(Dinv (K, *batch, 1, 1), UDinv (K,
    *batch, 6, 1))``."""
    # U_i = Ia_i S_i = sign Ia_i[:, k] ; StU_i = S_i^T U_i + armature_i = Ia_i[k, k] + armature_i
    StU = Ia[axes.diagonal] + arm[axes.v_rows]
    if not np.minimum.reduce(StU, None, initial=np.inf) > 0:   # (NaN fails too)
        for j, jmodel in enumerate(axes.jmodels):
            jmodel.calc_aba(jmodel.createData(), armature[jmodel.v_slice], Ia[j].copy(), False)
    U = Ia[axes.entry][..., None]
    U = U.copy() if axes.sign is None else signed(axes.sign, U)
    # Dinv_i = 1 / StU_i ; UDinv_i = U_i Dinv_i
    StU = StU[..., None, None]
    Dinv = 1.0 / StU
    UDinv = U * Dinv
    if update_I:
        # Ia_i -= UDinv_i U_i^T
        Ia -= UDinv * U.mT
    if len(axes.groups) == 1:
        # one group: its rows are the level's
        data.joint_rows[axes.groups[0][0]].write(U=U, StU=StU, Dinv=Dinv, UDinv=UDinv)
    else:
        for key, g in axes.groups:
            data.joint_rows[key].write(U=U[g], StU=StU[g], Dinv=Dinv[g], UDinv=UDinv[g])
    return Dinv, UDinv


def _aba_forward_step1(call, T, kin, data, shape):
    """Mirrors AbaLocalConventionForwardStep1::algo, in two places: v_i level by level (it
    reads the parent), then every statement that reads no parent for every joint at once
    (jcalc and liMi ran before: ``kin``); writes v, a_gf (= c_i), Yaba, h, f. Returns
    ``v_i x* h_i`` ``(n, *shape, 6)`` for pass 3. The driver reports the joints afterwards,
    level by level."""
    V, j = data.v.vector, slice(1, None)
    X, vJ = kin.X, kin.vJ
    for level in T.levels:
        i, p = level.rows, level.parent_rows
        # v_i = v_J + liMi^-1 v_parent   (parent > 0)
        V[i] = vJ[i] + matvec(X[i], V[p]) if level.has_parent else vJ[i]
    # c_i = c_J + v_i x v_J   (held in a_gf until pass 3)
    bias = matvec(crm(V[j]), vJ[j])
    data.a_gf.vector[j] = bias if kin.c is None else kin.c[j] + bias
    # IA_i = Y_i ; h_i = Y_i v_i ; pA_i = v_i x* h_i
    Y = expand(T.inertia_matrix[j], len(shape))
    data.Yaba.matrix[j] = Y
    H = data.h.vector
    H[j] = matvec(Y, V[j])
    vxh = matvec(crf(V[j]), H[j])
    data.f.vector[j] = vxh
    return vxh


def _aba_backward_step(call, level, kin, model, arm, data, uT, shape):
    """Mirrors AbaLocalConventionBackwardStep::algo for the joints of one level; eliminates
    each joint i into its parent. Returns the parts (``_parts``; None on a level of joints with
    S_i = sign e_k, which takes its S products as entries k) and, per part, ``(Dinv, UDinv)`` and u_i
    ``(K, *batch, nv)``."""
    i, A, F, axes = level.rows, data.a_gf.vector, data.f.vector, level.axes
    Ia, pA = data.Yaba.matrix[i], F[i]
    if axes is not None:
        # u_i -= S_i^T pA_i   (S_i = sign e_k: sign times entry k of pA_i)
        u_l = uT[axes.v_rows] - signed(axes.sign, pA[axes.entry])
        uT[axes.v_rows] = u_l
        parts, u = None, [u_l[..., None]]
        # U_i = IA_i S_i ; Dinv_i = (S_i^T U_i + armature_i)^-1 ; UDinv_i ;
        # Ia_i = IA_i - UDinv_i U_i^T
        D = [_axes_calc_aba(axes, data, model.armature, arm, Ia, level.has_parent)]
    else:
        parts, u = _parts(level, data, shape), []
        for g, v_i, nv, S_i in parts:
            # u_i -= S_i^T pA_i
            u_g = segments(uT, v_i, nv, shape) - vecmat(pA[g], S_i)
            scatter(uT, v_i, u_g, shape)
            u.append(u_g)
        # U_i = IA_i S_i ; Dinv_i = (S_i^T U_i + armature_i)^-1 ; UDinv_i ;
        # Ia_i = IA_i - UDinv_i U_i^T
        D = joint_calc_aba(level, data, model.armature, Ia, shape)
    if not level.has_parent:
        call.done(S.ABA_BACKWARD, level.backward_ids)
        return parts, D, u
    # pa_i = pA_i + (Ia_i c_i + UDinv_i u_i)
    UDu = [matvec(UDinv, u_g) for (_, UDinv), u_g in zip(D, u)]
    pa = pA + (matvec(Ia, A[i]) + level_array(level, UDu, shape, 6))
    F[i] = pa
    # X* Ia_i X*^T = X^T Ia_i X ; liMi pa_i = X^T pa_i
    X = kin.X[i]
    XIX, Xf = X.mT @ Ia @ X, vecmat(pa, X)
    for children, parents, ids in level.rounds:
        # IA_parent += X* Ia_i X*^T ; pA_parent += liMi pa_i
        data.Yaba.matrix[parents] = data.Yaba.matrix[parents] + XIX[children]
        F[parents] = F[parents] + Xf[children]
        call.done(S.ABA_BACKWARD, ids)
    return parts, D, u


def _aba_forward_step2(call, T, kin, passed, vxh, model, data, ddqT, shape):
    """Mirrors AbaLocalConventionForwardStep2::algo, in two places: a_gf_i and ddq_i level by
    level (a child reads its parent's final a_gf), then a_i and f_i for every joint at once;
    writes a_gf, ddq, a, f (each row once) and reports every joint at its end. ``passed``: what
    pass 2 returned, level by level."""
    A, j = data.a_gf.vector, slice(1, None)
    for level, (parts, D, u) in zip(T.levels, passed):
        i, p = level.rows, level.parent_rows
        # a_gf_i = c_i + liMi^-1 a_gf_parent
        a_i = A[i] + matvec(kin.X[i], A[p])
        axes = level.axes
        if axes is not None:
            ((Dinv, UDinv),), (u_l,) = D, u
            # ddq_i = Dinv_i u_i - UDinv_i^T a_gf_i
            ddq = (Dinv[..., 0] * u_l - vecmat(a_i, UDinv))[..., 0]
            ddqT[axes.v_rows] = ddq
            # a_gf_i += S_i ddq_i   (S_i = sign e_k: sign ddq_i adds into entry k)
            a_i[axes.entry] += signed(axes.sign, ddq)
            A[i] = a_i
            continue
        Sddq = []
        for (g, v_i, _, S_i), (Dinv, UDinv), u_g in zip(parts, D, u):
            # ddq_i = Dinv_i u_i - UDinv_i^T a_gf_i
            ddq = matvec(Dinv, u_g) - vecmat(a_i[g], UDinv)
            scatter(ddqT, v_i, ddq, shape)
            Sddq.append(matvec(S_i, ddq))
        # a_gf_i += S_i ddq_i
        A[i] = a_i + level_array(level, Sddq, shape, 6)
    # a_i = a_gf_i + (oMi.R^T g_lin ; 0)
    a = data.a.vector
    a[j] = A[j]
    a[j, ..., :3] += vecmat(model.gravity.linear, data.oMi.rows("rotation", j, shape))
    # f_i = Y_i a_gf_i + v_i x* h_i   (v_i x* h_i as pass 1 computed it)
    data.f.vector[j] = matvec(expand(T.inertia_matrix[j], len(shape)), A[j]) + vxh
    call.done(S.ABA_FORWARD2, T.tree.order_ids)


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
    data.f.vector[0] = 0.0
    call.done(S.ABA_INIT, (0,))


def aba(model, data, q, v, tau, fext=None, convention=Convention.LOCAL):
    """Joint accelerations ``ddq = FD(q, v, tau[, fext])``. See the module docstring.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    v, tau : ndarray, shape (..., model.nv)
    fext : list of model.njoints Force, or ndarray (..., model.njoints, 6), optional
        Wrench on each body, LOCAL frame of its joint; entry 0 is ignored.
    convention : Convention, default LOCAL
        WORLD runs ``abaWorldConvention`` instead (aba_world.py): the same ddq, other caches.
        As in pin, it may come sixth, in fext's place (``aba(model, data, q, v, tau, WORLD)``).

    Returns
    -------
    ddq : ndarray, shape (..., model.nv), an owned copy of ``data.ddq``.

    Mirrors ``pinocchio::abaLocalConvention`` (algorithm/aba.hxx, 3.8.0). Writes liMi, v, a_gf,
    a (with the stale-oMi quirk), h, f (f[0] reset only without fext), Yaba (projected for
    parent > 0), u, ddq and the joints' U, StU, Dinv, UDinv. Raises NotPositiveDefiniteError
    naming the joint whose S^T Ia S + armature cannot be inverted.
    """
    if isinstance(fext, Convention):
        # pin.aba(model, data, q, v, tau, convention): the overload without fext
        fext, convention = None, fext
    world = convention_of(convention, "aba") == Convention.WORLD
    with S.Call("abaWorldConvention" if world else "aba", model, data,
                inputs(q=q, v=v, tau=tau, fext=fext)) as call:
        try:
            if world:
                from .aba_world import aba_world
                return aba_world(call, model, data, q, v, tau, fext)
            return _aba(call, model, data, q, v, tau, fext)
        except NotPositiveDefiniteError as err:
            # raised by the backward pass; no half-written result that looks valid: ddq, u NaN
            data.ddq[...] = np.nan
            data.u[...] = np.nan
            raise named_joint_error(err, model, "aba") from None


def _aba(call, model, data, q, v, tau, fext):
    q, arrays, shape = state(model, q, data=data, v=v, tau=tau)
    q, v, tau = full(shape, q, arrays["v"], arrays["tau"])
    fext = external_forces(model, fext, shape)
    widen(data, shape, "liMi", "v", "a_gf", "a", "h", "f", "Yaba")
    T = Walk(model, q, v)
    data.v.vector[0] = 0.0
    data.a_gf.vector[0] = -model.gravity.vector
    data.u = np.array(tau)
    data.ddq = np.zeros(shape + (model.nv,))
    uT, ddqT = tangent_rows(data.u), tangent_rows(data.ddq)
    if fext is None:
        call.run(S.ABA_INIT, _init_step, call, data)
    # jcalc(q, v) -> M_J, S_i, v_J, c_J ; liMi = jointPlacements[i] * M_J ;
    # X = liMi.actionInverse   (every joint: no parent read)
    kin = joint_calc(T, data, q, v, shape)
    vxh = call.run(S.ABA_FORWARD1, _aba_forward_step1, call, T, kin, data, shape)
    for level in T.levels:
        # pass 1 is complete for these joints; f_i -= fext_i right after (Pinocchio's order)
        call.done(S.ABA_FORWARD1, level.forward_ids)
        if fext is not None:
            call.run(S.ABA_FEXT, _fext_step, call, S.ABA_FEXT, level, data, fext)
    arm = model.armature.reshape((model.nv,) + (1,) * len(shape))
    passed = [call.run(S.ABA_BACKWARD, _aba_backward_step, call, level, kin, model, arm, data,
                       uT, shape) for level in reversed(T.levels)]
    call.run(S.ABA_FORWARD2, _aba_forward_step2, call, T, kin, passed[::-1], vxh, model, data,
             ddqT, shape)
    for level in reversed(T.levels):
        call.run(S.ABA_FINAL_LOOP, _aba_final_step, call, level, kin, data)
    call.shape = shape
    data.mark("aba", "liMi", "v", "a_gf", "a", "h", "f", "Yaba", "u", "ddq")
    return data.ddq.copy()
