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

The backward step runs a tree level at a time through pinref/algorithms/scan.py, which adds the
children into their parents in Pinocchio's order (its module docstring says how a level step
maps to the per-joint loop); the forward step reads no parent and runs for every joint at once.
Ycrb is held as 6x6 matrices: with X = liMi.actionInverse, ``liMi.act(Ycrb[i]) = X^T Ycrb[i] X``
(``Inertia::se3Action`` itself for a joint whose rotation may be off orthonormal) and the
composite is their sum, which Pinocchio's ``Ycrb[parent] += ...`` (Inertia ``+=``) computes in
(m, c, I) form; the two agree to rounding.

The block rows of M and the subtree columns of Fcrb have a width per joint; a level step
reads and writes them for the whole level through index arrays built once per model's Tree,
one set per block of the level (pinref/algorithms/_crba_columns.py, ``SubtreeColumns``).
Fcrb's other columns keep their values (docs/quirks.md).
"""

import functools

import numpy as np

from . import scan
from . import steps as S
from ._args import Convention, check_data, convention_of, writable
from ._crba_columns import subtree_columns
from ._levels import begin, inputs, joint_calc


def _crba_forward_step(T, data):
    """Mirrors CrbaLocalConventionForwardStep::algo, which reads no parent: for every joint at
    once (jcalc and liMi ran just before, ``joint_calc``); writes Ycrb."""
    Y = data.Ycrb.matrix
    # Ycrb_i = Y_i
    Y[1:] = T.Y[1:]


def _crba_backward_step(level, columns, kin, data):
    """Mirrors CrbaLocalConventionBackwardStep::algo for the joints i of one level; fills their
    block rows of M and returns ``Ycrb[parent] += liMi Ycrb_i`` for the scan to add.
    ``F_i[:, subtree_i]`` is carried to the parents for the level's span of columns at once
    (each joint's subtree is a part of it; ``columns[level.index]``, its
    :class:`SubtreeColumns`)."""
    i, Y, F, sub = level.rows, data.Ycrb.matrix, data.Fcrb.matrix, columns[level.index]
    for block in sub.blocks:
        # F[:, cols_i] = Ycrb_i S_i
        block.Y_S(data, F, Y)
        # M[cols_i, subtree_i] = S_i^T F[:, subtree_i]
        block.St_F(data, data.M, F)
    if not level.has_parent:
        return None
    X = kin.X[i]
    # Fcrb[parent][:, subtree_i] = liMi Fcrb_i[:, subtree_i] = X^T Fcrb_i[:, subtree_i]
    sub.to_parents.run(F, X.mT @ F[i, ..., sub.columns], Y.ndim - 3)
    # Ycrb[parent] += liMi Ycrb_i = X^T Ycrb_i X   (Inertia::se3Action where liMi may not be a
    # rotation: sub.act)
    return ((Y, sub.act(data, i, Y, X)),)


def _armature_step(model, data):
    """``M.diagonal() += armature``, the end of Pinocchio's crbaLocalConvention."""
    # diag(M) += armature
    diagonal = np.einsum("...ii->...i", data.M)                    # a writable view
    diagonal += model.armature


@functools.lru_cache(maxsize=None)
def _strict_lower(nv):
    """The ``(nv, nv)`` mask of the strict lower triangle (read-only, built once per size)."""
    mask = np.tri(nv, k=-1, dtype=bool)
    mask.flags.writeable = False
    return mask


def _symmetric_step(model, data):
    """The Python binding's ``make_symmetric(M)``: the strict upper triangle copied below."""
    # M_lower = M_upper^T
    np.copyto(data.M, data.M.mT, where=_strict_lower(model.nv))


def crba_upper(model, data, q):
    """The core CRBA (``pinocchio::impl::crbaLocalConvention``): writes the upper triangle and
    the diagonal blocks of ``data.M`` in place (other entries keep their values), adds armature.

    q : (..., model.nq). Writes liMi, Ycrb (i >= 1), Fcrb (the subtree columns), M, joints.
    """
    with S.Call("crba", model, data, inputs(q=q)) as call:
        return _crba_upper(call, model, data, q)


def _crba_upper(call, model, data, q):
    T, shape, q = begin(model, data, ("liMi", "Ycrb", "Fcrb"), q)
    columns = subtree_columns(model, T.tree)
    data.M = writable(data.M, shape + (model.nv, model.nv))
    # jcalc(q) -> M_J, S_i ; liMi = jointPlacements[i] * M_J ; X = liMi.actionInverse
    kin = joint_calc(T, data, q, None, shape)
    scan.step(call, S.CRBA_FORWARD, T.tree.order_ids, _crba_forward_step, T, data)
    scan.backward(call, S.CRBA_BACKWARD, T, _crba_backward_step, columns, kin, data)
    scan.step(call, S.CRBA_ARMATURE, (None,), _armature_step, model, data)
    call.shape = shape
    data.mark("crba", "liMi", "Ycrb", "Fcrb", "M")
    return data.M


def crba(model, data, q, convention=Convention.LOCAL):
    """Joint-space inertia matrix ``M(q)``, symmetric, ``(..., model.nv, model.nv)``.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    convention : Convention, default Convention.LOCAL
        WORLD runs ``crbaWorldConvention`` instead (crba_world.py): the same M, other caches.

    Mirrors ``pin.crba`` (bindings' ``crba_proxy`` around algorithm/crba.hxx, 3.8.0): M is
    zeroed, the core routine fills the upper triangle (``crba_upper``), then the strict upper
    triangle is copied into the lower one. ``data.M`` is left symmetric; an owned copy is
    returned. Writes liMi, Ycrb (i >= 1), Fcrb (subtree columns), M, joints; not oMi.
    """
    world = convention_of(convention, "crba") == Convention.WORLD
    check_data(model, data)
    with S.Call("crbaWorldConvention" if world else "crba", model, data, inputs(q=q)) as call:
        data.M = np.zeros(np.shape(data.M))
        if world:
            from .crba_world import crba_world_upper
            M = crba_world_upper(model, data, q, call)
        else:
            M = _crba_upper(call, model, data, q)
        scan.step(call, S.CRBA_SYMMETRIC, (None,), _symmetric_step, model, data)
    return M.copy()
