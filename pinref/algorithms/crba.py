"""Joint-space inertia matrix by the Composite Rigid-Body Algorithm (algorithm/crba.hxx, 3.8.0).

    for i = 1 .. n-1:                                      CrbaLocalConventionForwardStep
        jcalc(q) -> M_J, S_i
        liMi[i] = jointPlacements[i] * M_J
        Ycrb[i] = Y_i
    for i = n-1 .. 1:                                      CrbaLocalConventionBackwardStep
        F[:, cols_i]          = Ycrb[i] S_i              (Ycrb[i] is the subtree composite here)
        M[cols_i, subtree_i]  = S_i^T F[:, subtree_i]
        if parent > 0:
            Ycrb[parent]          += liMi[i] Ycrb[i]
            Fcrb[parent][:, sub_i] = liMi[i] Fcrb[i][:, sub_i]       (column-wise force action)
    diag(M) += armature

cols_i = [idx_v, idx_v + nv_i) and subtree_i = [idx_v, idx_v + nvSubtree[i]). The core routine
writes each joint's block row from its diagonal block to the end of its subtree: the upper
triangle plus the full diagonal blocks. The public ``crba`` zeroes M first and then copies the
strict upper triangle into the lower one, as ``pin.crba`` does.

The backward step works on a tree level at a time, as in rnea.py (its module docstring says how
a level step maps to the per-joint loop); the forward step reads no parent and runs for every
joint at once. Ycrb is held as 6x6 matrices: with X = liMi.actionInverse,
``liMi.act(Ycrb[i]) = X^T Ycrb[i] X`` and the composite is their sum, which Pinocchio's
``Ycrb[parent] += ...`` (Inertia ``+=``) computes in (m, c, I) form; the two agree to rounding.
The block row of M and the subtree columns of Fcrb have a width per joint, so those two
statements loop over the joints of the level.
"""

import numpy as np

from . import steps as S
from ._args import Convention, check_data, check_local, state, writable
from ._levels import Walk, expand, full, inputs, joint_calc, joint_row, subspaces, widen


def _crba_forward_step(call, T, data, shape):
    """Mirrors CrbaLocalConventionForwardStep::algo, which reads no parent: for every joint at
    once (jcalc and liMi ran just before, ``joint_calc``); writes Ycrb."""
    # Ycrb_i = Y_i
    data.Ycrb.matrix[1:] = expand(T.inertia_matrix[1:], len(shape))
    call.done(S.CRBA_FORWARD, T.tree.order_ids)


def _crba_backward_step(call, level, kin, T, data, shape):
    """Mirrors CrbaLocalConventionBackwardStep::algo for the joints of one level; fills their
    block rows of M and adds their composite inertias into their parents'."""
    i, Y, F, M = level.rows, data.Ycrb.matrix, data.Fcrb.matrix, data.M
    for group, S_g in zip(level.groups, subspaces(level, data)):
        # F[:, cols_i] = Ycrb_i S_i
        YS = Y[group.rows] @ S_g
        for k, jmodel in enumerate(group.jmodels):
            F[group.rows.start + k, ..., jmodel.v_slice] = YS[k]
        for k, jmodel in enumerate(group.jmodels):
            sub = T.subtree_columns[jmodel.id]
            # M[cols_i, subtree_i] = S_i^T F[:, subtree_i]
            M[..., jmodel.v_slice, sub] = joint_row(S_g, k).mT @ F[group.rows.start + k, ..., sub]
    if not level.has_parent:
        call.done(S.CRBA_BACKWARD, level.backward_ids)
        return
    X = kin.X[i]
    # liMi Fcrb_i = X^T Fcrb_i (all columns; the subtree's are kept below)
    XF = X.mT @ F[i]
    # liMi Ycrb_i = X^T Ycrb_i X
    XYX = X.mT @ Y[i] @ X
    lo = i.start
    for children, parents, ids in level.rounds:
        # Ycrb_parent += liMi Ycrb_i
        Y[parents] = Y[parents] + XYX[children]
        for j in ids:
            sub, row, prow = T.subtree_columns[j], T.tree.pos[j], T.tree.pos[T.parents[j]]
            # Fcrb_parent[:, subtree_i] = liMi Fcrb_i[:, subtree_i]
            F[prow, ..., sub] = XF[row - lo, ..., sub]
        call.done(S.CRBA_BACKWARD, ids)


def _armature_step(call, model, data):
    """``M.diagonal() += armature``, the end of Pinocchio's crbaLocalConvention."""
    # diag(M) += armature
    diag = np.arange(model.nv)
    data.M[..., diag, diag] += model.armature
    call.done(S.CRBA_ARMATURE, (None,))


def _symmetric_step(call, model, data):
    """The Python binding's ``make_symmetric(M)``: the strict upper triangle copied below."""
    lower = np.tril_indices(model.nv, -1)
    # M_lower = M_upper^T
    data.M[..., lower[0], lower[1]] = data.M[..., lower[1], lower[0]]
    call.done(S.CRBA_SYMMETRIC, (None,))


def crba_upper(model, data, q):
    """The core CRBA (``pinocchio::impl::crbaLocalConvention``): writes the upper triangle and
    the diagonal blocks of ``data.M`` in place (other entries keep their values), adds armature.

    q : (..., model.nq). Writes liMi, Ycrb (i >= 1), Fcrb (the subtree columns), M, joints.
    """
    with S.Call("crba", model, data, inputs(q=q)) as call:
        return _crba_upper(call, model, data, q)


def _crba_upper(call, model, data, q):
    q, _, shape = state(model, q, data=data)
    model.check_compact_subtrees("crba")
    (q,) = full(shape, q)
    data.M = writable(data.M, shape + (model.nv, model.nv))
    widen(data, shape, "liMi", "Ycrb", "Fcrb")
    T = Walk(model, q, None)
    T.subtree_columns = [slice(j.idx_v, j.idx_v + data.nvSubtree[j.id]) for j in model.joints]
    T.parents = model.parents
    # jcalc(q) -> M_J, S_i ; liMi = jointPlacements[i] * M_J ; X = liMi.actionInverse
    kin = joint_calc(T, data, q, None, shape)
    call.run(S.CRBA_FORWARD, _crba_forward_step, call, T, data, shape)
    for level in reversed(T.levels):
        call.run(S.CRBA_BACKWARD, _crba_backward_step, call, level, kin, T, data, shape)
    call.run(S.CRBA_ARMATURE, _armature_step, call, model, data)
    call.shape = shape
    data.mark("crba", "liMi", "Ycrb", "Fcrb", "M")
    return data.M


def crba(model, data, q, convention=Convention.LOCAL):
    """Joint-space inertia matrix ``M(q)``, symmetric, ``(..., model.nv, model.nv)``.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    convention : Convention, default Convention.LOCAL (WORLD is not implemented yet)

    Mirrors ``pin.crba`` (bindings' ``crba_proxy`` around algorithm/crba.hxx, 3.8.0): M is
    zeroed, the core routine fills the upper triangle (``crba_upper``), then the strict upper
    triangle is copied into the lower one. ``data.M`` is left symmetric; an owned copy is
    returned. Writes liMi, Ycrb (i >= 1), Fcrb (subtree columns), M, joints; not oMi.
    """
    check_local(convention, "crba")
    check_data(model, data)
    with S.Call("crba", model, data, inputs(q=q)) as call:
        data.M = np.zeros(np.shape(data.M))
        M = _crba_upper(call, model, data, q)
        call.run(S.CRBA_SYMMETRIC, _symmetric_step, call, model, data)
    return M.copy()
