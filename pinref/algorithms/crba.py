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
"""

import numpy as np

from ..spatial._kernels import mT
from ..tracing import traced_algorithm, traced_step
from ._args import Convention, check_data, check_local, state, writable


@traced_step("crba", "CrbaLocalConventionForwardStep", 1,
             writes="joints[i].M joints[i].S liMi[i] Ycrb[i]")
def _crba_forward_step(jmodel, jdata, model, data, q):
    """Mirrors CrbaLocalConventionForwardStep::algo; writes liMi and Ycrb of joint i."""
    i = jmodel.id
    jmodel.calc(jdata, q)
    # liMi = jointPlacements[i] * M_J
    data.liMi[i] = model.jointPlacements[i] * jdata.M
    # Ycrb_i = Y_i
    data.Ycrb[i] = model.inertias[i].copy()


@traced_step("crba", "CrbaLocalConventionBackwardStep", 2,
             writes="Fcrb[i][:, cols_i] M[cols_i, sub_i]",
             writes_if_parent="Ycrb[parent] Fcrb[parent][:, sub_i]")
def _crba_backward_step(jmodel, jdata, model, data, shape):
    """Mirrors CrbaLocalConventionBackwardStep::algo; fills M's block row of joint i."""
    i = jmodel.id
    parent = model.parents[i]
    cols = jmodel.v_slice
    sub = slice(jmodel.idx_v, jmodel.idx_v + data.nvSubtree[i])
    # F[:, cols_i] = Ycrb_i S_i
    data.Fcrb[i] = writable(data.Fcrb[i], shape + (6, model.nv))
    data.Fcrb[i][..., cols] = data.Ycrb[i].matrix() @ jdata.S
    # M[cols_i, subtree_i] = S_i^T F[:, subtree_i]
    data.M[..., cols, sub] = mT(jdata.S) @ data.Fcrb[i][..., sub]
    if parent > 0:
        # Ycrb_parent += liMi Ycrb_i
        data.Ycrb[parent] = data.Ycrb[parent] + data.liMi[i].act(data.Ycrb[i])
        # Fcrb_parent[:, subtree_i] = liMi Fcrb_i[:, subtree_i]   (X* = liMi.dualAction)
        data.Fcrb[parent] = writable(data.Fcrb[parent], shape + (6, model.nv))
        data.Fcrb[parent][..., sub] = data.liMi[i].dualAction @ data.Fcrb[i][..., sub]


@traced_algorithm("crba", exit_step="crbaLocalConvention: M.diagonal() += armature",
                  exit_writes="M")
def crba_upper(model, data, q):
    """The core CRBA (``pinocchio::impl::crbaLocalConvention``): writes the upper triangle and
    the diagonal blocks of ``data.M`` in place (other entries keep their values), adds armature.

    q : (..., model.nq). Writes liMi, Ycrb (i >= 1), Fcrb (the subtree columns), M, joints.
    """
    q, _, shape = state(model, q, data=data)
    model.check_compact_subtrees("crba")
    data.M = writable(data.M, shape + (model.nv, model.nv))
    for i in range(1, model.njoints):
        _crba_forward_step(model.joints[i], data.joints[i], model, data, q)
    for i in reversed(range(1, model.njoints)):
        _crba_backward_step(model.joints[i], data.joints[i], model, data, shape)
    # diag(M) += armature
    diag = np.arange(model.nv)
    data.M[..., diag, diag] += model.armature
    data.mark("crba", "liMi", "Ycrb", "Fcrb", "M")
    return data.M


@traced_algorithm("crba", exit_step="crba (Python binding): make_symmetric(M)", exit_writes="M")
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
    data.M = np.zeros(np.shape(data.M))
    M = crba_upper(model, data, q)
    lower = np.tril_indices(model.nv, -1)
    M[..., lower[0], lower[1]] = M[..., lower[1], lower[0]]
    return M.copy()
