"""computeMinverse, the passes of aba.hxx (3.8.0): M^-1 by an extension of ABA, WORLD frame.

Minv = (M(q) + diag(armature))^-1 without forming M: ABA's backward pass in the WORLD frame
(o = WORLD; J holds the columns oMi S_i) eliminates the joints leaf to root and fills Minv's
block rows, a forward pass then completes them from the root. i stands for joint i's columns
``idx_v .. idx_v + nv_i``, sub_i for the columns of its subtree (``nvSubtree[i]`` of them, a
contiguous range), sub+_i the same without joint i's own, F = Fcrb[0] (a (6, nv) scratch).

computeMinverse(model, data, q):
    Minv upper = 0
    for i = 1 .. n-1:                                   ComputeMinverseForwardStep1
        jcalc(q) -> M_J, S_i ;  liMi[i] = jointPlacements[i] M_J ;  oMi[i] = oMi[parent] liMi[i]
        J_i = oMi S_i ;  oYcrb_i = oMi Y_i (body i alone) ;  oYaba_i = oYcrb_i (6x6)
    F = 0
    for i = n-1 .. 1:                                   ComputeMinverseBackwardStep
        U_i = oYaba_i J_i ;  StU_i = J_i^T U_i + diag(armature_i) ;  Dinv_i = StU_i^-1
        UDinv_i = U_i Dinv_i ;  Minv[i, i] = Dinv_i
        if joint i has children:
            SDinv_i = J_i Dinv_i ;  Minv[i, sub+_i] = -SDinv_i^T F[sub+_i]
            F[sub_i] += U_i Minv[i, sub_i]                                   (parent > 0)
        else:
            F[sub_i] = U_i Minv[i, sub_i]
        if parent > 0:  oYaba_i -= UDinv_i U_i^T ;  oYaba_parent += oYaba_i
    for i = 1 .. n-1:                                   ComputeMinverseForwardStep2
        Minv[i, idx_v:] -= UDinv_i^T Fcrb[parent][:, idx_v:]                 (parent > 0)
        Fcrb[i][:, idx_v:] = J_i Minv[i, idx_v:] (+ Fcrb[parent][:, idx_v:] when parent > 0)
    Minv lower = upper^T                                (the Python binding)

computeMinverse(model, data), after aba in the WORLD convention (or a computeMinverse(q) or
computeABADerivatives call): the last two loops only, the backward one without U, StU, Dinv,
UDinv and oYaba (``optimized::ComputeMinverseBackwardStep``, which reads the joints' U and
Dinv and data.J as that call left them).

Armature enters through StU only. Fcrb[i], i >= 1, is written from column idx_v on; its other
columns, and SDinv's columns of the leaf joints, keep what an earlier call left in them.

How the code maps to the loops above (rnea_derivatives.py and aba_derivatives.py, whose module
docstrings say how a level step maps to Pinocchio's per-joint loop): ForwardStep1 runs oMi
level by level and J, oYcrb, oYaba for every joint after that loop; the backward step and
ForwardStep2 run level by level, a level's joints of one kind at a time (``level.groups``) for
the joints' own matrices and the whole level for the rows of Minv and the columns of F (the
same statements as the Minv part of aba_derivatives.py's passes). Minv is worked on rows first,
``(nv, *batch, nv)``, and the (6, nv) caches column first, ``(nv, *batch, 6)``.
"""

import numpy as np

from ..errors import NotComputedError, NotPositiveDefiniteError
from ..spatial._kernels import se3_action
from ._args import check_model, named_joint_error, state
from ._levels import Walk, full, joint_calc, widen
from .aba_derivatives import (
    _entries_of_columns,
    _joint_matrices,
    _joint_rows,
    _rows_of_joints,
    _stys_inversion,
    armature_rows,
    diagonal_block_entries,
    minverse_rows_step,
    write_joint_data,
)
from .rnea_derivatives import (
    _InertiasFromMatrices,
    columns,
    matrix_face,
    moved,
    mv,
    subspace_columns,
    subtree_sums_step,
    world_inertia_matrices,
    world_placements_step,
)

__all__ = ["computeMinverse"]


def _minverse_forward1_columns(T, C, data, Sc, shape, Ya):
    """The statements of ComputeMinverseForwardStep1::algo that read no parent, for every joint
    after the level loop of oMi: oYcrb_i = oMi Y_i, oYaba_i = oYcrb_i (written into ``Ya``,
    rows) and J_i = oMi S_i, returned column first."""
    X = se3_action(data.oMi.rotation, data.oMi.translation)
    # oYcrb_i = oMi Y_i ;  oYaba_i = oYcrb_i
    Ya[...] = world_inertia_matrices(T.tree, data.oMi.rotation, data.oMi.translation, len(shape))
    # J_i = oMi S_i
    return mv(X[C.row], Sc)


def _minverse_backward_step(level, L, C, model, data, Ya, J, F, Mw, shape):
    """Mirrors ComputeMinverseBackwardStep::algo for the joints of one level: the joints'
    U, StU, Dinv, UDinv (WORLD), their block rows of Minv and the columns of F
    (``_minverse_blocks``), and oYaba_i reduced (parent > 0). The sums into the parents run
    after it (``subtree_sums_step``). Returns the level's UDinv by group."""
    Jl = J[L.cols]
    # U_i = oYaba_i J_i
    Ul = mv(Ya[C.row[L.cols]], Jl)
    Dinvs, UDinvs = [], []
    for group, span in zip(level.groups, L.spans):
        K, nvg = len(group.ids), group.nv
        Ug = _joint_matrices(Ul[span], nvg, K)
        Jg = _joint_matrices(Jl[span], nvg, K)
        # StU_i = J_i^T U_i + armature_i ;  Dinv_i = StU_i^-1 ;  UDinv_i = U_i Dinv_i
        StU = Jg.mT @ Ug + np.eye(nvg) * armature_rows(model, group, len(shape))[..., None]
        Dinv = _stys_inversion(group, StU)
        UDinv = Ug @ Dinv
        write_joint_data(data, group, U=Ug, StU=StU, Dinv=Dinv, UDinv=UDinv)
        Dinvs.append(Dinv)
        UDinvs.append(UDinv)
        if level.has_parent:
            # oYaba_i -= UDinv_i U_i^T
            rows = slice(group.rows.start, group.rows.stop)
            Ya[rows] = Ya[rows] - UDinv @ Ug.mT
    _minverse_blocks(level, L, data, Jl, Ul, Dinvs, F, Mw)
    return UDinvs


def _minverse_blocks(level, L, data, Jl, Ul, Dinvs, F, Mw):
    """The statements on Minv, SDinv and F of (optimized::)ComputeMinverseBackwardStep::algo
    for the joints of one level (``Jl``, ``Ul``: the level's columns of J and U; ``Dinvs``: its
    Dinv by group, ``(K, *batch, nvg, nvg)``)."""
    SDinv = np.empty_like(Jl)
    for group, span, own, Dinv in zip(level.groups, L.spans, L.own, Dinvs):
        K, nvg = len(group.ids), group.nv
        # Minv[i, i] = Dinv_i
        Mw[own[0], ..., own[1]] = diagonal_block_entries(Dinv)
        # SDinv_i = J_i Dinv_i   (kept for the joints with children)
        SDinv[span] = _entries_of_columns(_joint_matrices(Jl[span], nvg, K) @ Dinv)
    minverse_rows_step(L, SDinv, Ul, F, Mw, data)


def _minverse_forward_step2(level, L, UDinvs, data, J, Mw, shape):
    """Mirrors ComputeMinverseForwardStep2::algo for the joints of one level: the rows of Minv
    and Fcrb[i] from column idx_v on (``UDinvs``: the level's UDinv by group)."""
    p, lo = level.parent_rows, level.rows.start
    Fm = data.Fcrb.matrix
    for group, span, (c0, mask), UDinv in zip(level.groups, L.spans, L.right, UDinvs):
        K, nvg, g = len(group.ids), group.nv, slice(group.rows.start - lo, group.rows.stop - lo)
        # (columns c0.. only: c0 is the smallest idx_v of the group's joints; the entries left
        # of a joint's own idx_v lie below the diagonal, which the binding overwrites)
        Mg = _joint_rows(Mw[group.v_index, ..., c0:], K, nvg)            # (K, *batch, nvg, .)
        if level.has_parent:
            Fp = Fm[..., c0:][p][g] if isinstance(p, slice) else Fm[..., c0:][p[g]]
            # Minv[i, idx_v:] -= UDinv_i^T Fcrb[parent][:, idx_v:]
            Mg = Mg - UDinv.mT @ Fp
            Mw[group.v_index, ..., c0:] = _rows_of_joints(Mg)
        # Fcrb[i][:, idx_v:] = J_i Minv[i, idx_v:] (+ Fcrb[parent][:, idx_v:])
        Jg = _joint_matrices(J[L.cols[span]], nvg, K)
        Fi = Jg * Mg if nvg == 1 else Jg @ Mg
        if level.has_parent:
            Fi += Fp
        for k, start in enumerate(mask.argmax(axis=1)):
            Fm[group.rows.start + k, ..., c0 + start:] = Fi[k, ..., start:]


def _kept(array, shape):
    """``array`` as a writable array of ``shape``, its entries kept (broadcast when the call's
    batch is wider): a cache Pinocchio writes in place, only partly."""
    if array.shape == shape and array.flags.writeable:
        return array
    return np.broadcast_to(array, shape).copy()


def _symmetric(Mw):
    """Minv ``(*batch, nv, nv)`` from its rows ``Mw (nv, *batch, nv)``: lower = upper^T."""
    Minv = moved(Mw, 0, -2).copy()
    lower = np.tril_indices(Mw.shape[0], -1)
    Minv[..., lower[0], lower[1]] = Minv[..., lower[1], lower[0]]
    return Minv


def computeMinverse(model, data, q=None):
    """``Minv = (M(q) + diag(armature))^-1``, by ABA's passes. See the module docstring.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq), optional
        Without it, the quantities of a previous ``aba(..., convention=Convention.WORLD)``
        (or ``computeMinverse(model, data, q)``, ``computeABADerivatives``) call are reused:
        the joints' U, Dinv, UDinv and data.J, in the WORLD frame.

    Returns
    -------
    Minv : ndarray, shape (..., model.nv, model.nv), symmetric (both triangles filled, as pin's
        Python binding fills data.Minv), a copy of ``data.Minv``.

    Mirrors ``pinocchio::computeMinverse`` (algorithm/aba.hxx, 3.8.0). With q it writes liMi,
    oMi, J, oYcrb (each body alone, WORLD), oYaba (reduced for parent > 0), SDinv (joints with
    children), Fcrb (all of Fcrb[0]; columns idx_v.. of Fcrb[i]), Minv and the joints' M, S, U,
    StU, Dinv, UDinv (WORLD frame); without q, SDinv, Fcrb and Minv. Raises
    NotPositiveDefiniteError naming the joint whose StU cannot be inverted, and, without q,
    NotComputedError when those quantities were never computed in the WORLD frame (Pinocchio
    would read zeros, or the LOCAL U of ``aba``'s default convention).
    """
    if q is None:
        return _computeMinverse_reuse(model, data)
    q, _, shape = state(model, q, data=data)
    (q,) = full(shape, q)
    model.check_compact_subtrees("computeMinverse")
    nv, n = model.nv, model.njoints
    widen(data, shape, "liMi", "oMi", "oYaba", "Fcrb")
    T = Walk(model, q, None)
    C = columns(model, T)
    # Minv upper = 0   (rows first)
    Mw = np.zeros((nv,) + shape + (nv,))
    # jcalc(q) ; liMi = jointPlacements[i] M_J   (every joint: no parent read)
    joint_calc(T, data, q, None, shape, actions=False)
    for level in T.levels:
        # oMi = oMi[parent] liMi
        world_placements_step(level, data)
    buf = np.empty((n,) + shape + (36,))
    Ya = buf.reshape(buf.shape[:-1] + (6, 6))
    J = _minverse_forward1_columns(T, C, data, subspace_columns(C, data, shape), shape, Ya)
    oYcrb = Ya.copy()
    data.SDinv = _kept(data.SDinv, shape + (6, nv))
    # F = Fcrb[0] = 0   (column first)
    F = np.zeros((nv,) + shape + (6,))
    UDinvs = []
    try:
        for level, L in zip(reversed(T.levels), reversed(C.levels)):
            UDinvs.append(_minverse_backward_step(level, L, C, model, data, Ya, J, F, Mw,
                                                  shape))
            # oYaba_parent += oYaba_i
            subtree_sums_step(level, buf)
    except NotPositiveDefiniteError as err:
        raise named_joint_error(err, model, "computeMinverse") from None
    data.Fcrb.matrix[0] = matrix_face(F)
    for level, L, UDinv in zip(T.levels, C.levels, reversed(UDinvs)):
        _minverse_forward_step2(level, L, UDinv, data, J, Mw, shape)
    data.J = matrix_face(J)
    data.oYaba.matrix[1:] = Ya[1:]
    data.oYcrb = _InertiasFromMatrices(oYcrb, T.tree.pos, data.oYcrb[0])
    data.Minv = _symmetric(Mw)
    data.mark("computeMinverse", "liMi", "oMi", "J", "oYcrb", "oYaba", "SDinv", "Fcrb", "Minv")
    return data.Minv.copy()


def _require_world_quantities(data):
    """NotComputedError unless the joints' U, Dinv, UDinv and data.J were last written by a
    WORLD-frame call (``data.written`` lists the caches in the order of their last write): the
    calls that write them write oYaba too, ``aba`` in the LOCAL convention writes Yaba."""
    where = "computeMinverse(model, data)"
    fix = ("call aba(model, data, q, v, tau, convention=pin.Convention.WORLD) or "
           "computeMinverse(model, data, q) first")
    if "oYaba" not in data.written or "J" not in data.written:
        raise NotComputedError(
            f"{where} reuses the joints' U, Dinv, UDinv and data.J of a WORLD-frame ABA, never "
            f"computed in this Data (Pinocchio would read their initial zeros); {fix}")
    order = list(data.written)
    if "Yaba" in data.written and order.index("Yaba") > order.index("oYaba"):
        raise NotComputedError(
            f"{where} reuses the joints' U, Dinv, UDinv in the WORLD frame, but the last call "
            "that wrote them was aba in the LOCAL convention (its default), which leaves them "
            "in the joints' frames (Pinocchio 3.8.0 returns a wrong Minv then); " + fix)


def _joint_field(data, group, name, shape):
    """The field ``name`` of the group's joints, ``(K, *shape, r, c)``, as their data hold it."""
    return np.stack([np.broadcast_to(x, shape + x.shape[-2:]) for x in
                     (getattr(data.joints[i], name) for i in group.ids)])


def _computeMinverse_reuse(model, data):
    """``computeMinverse(model, data)``: the last two passes on the quantities of a previous
    WORLD-frame ABA (``pinocchio::computeMinverse(model, data)``, aba.hxx, 3.8.0)."""
    check_model(model, data)
    _require_world_quantities(data)
    model.check_compact_subtrees("computeMinverse")
    nv, shape = model.nv, data.batch_shape
    widen(data, shape, "Fcrb")
    # the Walk only gives the tree here (no q)
    T = Walk(model, np.zeros(model.nq), None)
    C = columns(model, T)
    J = moved(np.broadcast_to(data.J, shape + (6, nv)), -1, 0)
    data.SDinv = _kept(data.SDinv, shape + (6, nv))
    # Minv upper = 0 ;  F = Fcrb[0] = 0
    Mw = np.zeros((nv,) + shape + (nv,))
    F = np.zeros((nv,) + shape + (6,))
    UDinvs = []
    for level, L in zip(reversed(T.levels), reversed(C.levels)):
        U = [_joint_field(data, group, "U", shape) for group in level.groups]
        Dinvs = [_joint_field(data, group, "Dinv", shape) for group in level.groups]
        UDinvs.append([_joint_field(data, group, "UDinv", shape) for group in level.groups])
        Ul = np.concatenate([_entries_of_columns(x) for x in U])
        _minverse_blocks(level, L, data, J[L.cols], Ul, Dinvs, F, Mw)
    data.Fcrb.matrix[0] = matrix_face(F)
    for level, L, UDinv in zip(T.levels, C.levels, reversed(UDinvs)):
        _minverse_forward_step2(level, L, UDinv, data, J, Mw, shape)
    data.Minv = _symmetric(Mw)
    data.mark("computeMinverse", "SDinv", "Fcrb", "Minv")
    return data.Minv.copy()
