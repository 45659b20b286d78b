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
and the composite is their sum, which Pinocchio's ``Ycrb[parent] += ...`` (Inertia ``+=``)
computes in (m, c, I) form; the two agree to rounding.

The block rows of M and the subtree columns of Fcrb have a width per joint. The joints of one
level have disjoint subtrees, so a level step reads and writes them for the whole level through
index arrays built once per model's Tree (``SubtreeColumns``), one set per block of the level
(``level.blocks``): for the 1-dof joints with S_i = sign e_k (an ``AxisBlock``) ``Ycrb_i S_i``
is column k of Ycrb_i and ``S_i^T F_i`` row k of F_i, times the sign (one read and one write of
Fcrb and of M for all of them); any other joint multiplies by its S. ``liMi Fcrb_i =
X^T Fcrb_i`` is one product on the level's span of subtree columns
(``SubtreeColumns.columns``) and one write of the subtree columns into the parents. Fcrb's
other columns keep their values (docs/quirks.md).
"""

import functools
import weakref

import numpy as np

from ..joints.composite import JointModelComposite
from ..spatial._kernels import act_inertia_matrix, inertia_parts
from . import scan
from . import steps as S
from ._args import Convention, check_data, convention_of, state, writable
from ._levels import Walk, full, inputs, joint_calc, widen
from ..joints._axis import AxisBlock, signed
from ..joints.base import JointBlock


class _AxisColumns:
    """The S products of CRBA's backward step for the 1-dof joints of a level with S_i = sign e_k
    (the level's :class:`~pinref.joints._axis.AxisBlock`, whose table of k and sign it reads),
    as two :class:`_Copy`: ``Y_columns``, column k of their Ycrb into their columns of Fcrb;
    ``F_rows_k``, row k of F_i, for every entry of their block rows of M, into M; each times the
    joint's sign."""

    def __init__(self, model, block, level, nv_subtree):
        ids, nv = block.ids, model.nv
        rows = level.rows.start + np.arange(level.rows.stop - level.rows.start)[block.rows]
        k = np.broadcast_to(np.asarray(block.column[-1]), (len(ids),))
        sign, v_index = block.sign, np.array([model.idx_vs[i] for i in ids])
        # Y[column] = Y[rows, ..., k]: column k of each joint's 6x6
        column = (rows, Ellipsis, k)
        if isinstance(block.entry[0], slice):
            column = (slice(int(rows[0]), int(rows[0]) + len(ids)), Ellipsis, int(k[0]))
        r, kc, e = rows[:, None], k[:, None], np.arange(6)
        # F[rows, ..., v_index] = Y[column] (F (n, *batch, 6, nv), Y (n, *batch, 6, 6))
        self.Y_columns = _Copy((rows, Ellipsis, v_index), column,
                               (r * 6 + e) * nv + v_index[:, None], (r * 6 + e) * 6 + kc,
                               sign, None if sign is None else np.repeat(sign, 6))
        entries = [(r_i, k_i, c, model.idx_vs[i], c, j)
                   for j, (i, r_i, k_i) in enumerate(zip(ids, rows, k))
                   for c in range(model.idx_vs[i], model.idx_vs[i] + nv_subtree[i])]
        F_rows, F_k, F_cols, M_rows, M_cols, joint = (np.array(x, dtype=np.intp)
                                                      for x in zip(*entries))
        # M[M_rows, M_cols] = sign F[F_rows, ..., F_k, F_cols] (M seen as (nv, nv, *batch))
        entry_sign = None if sign is None else sign[joint]
        self.F_rows_k = _Copy((M_rows, M_cols), (F_rows, Ellipsis, F_k, F_cols),
                              M_rows * nv + M_cols, (F_rows * 6 + F_k) * nv + F_cols,
                              entry_sign, entry_sign)

    def Y_S(self, data, F, Y):
        """``F[:, cols_i] = Ycrb_i S_i``: sign times column k of Ycrb_i."""
        self.Y_columns.run(F, Y, Y.ndim - 3)

    def St_F(self, data, M, F):
        """``M[cols_i, subtree_i] = S_i^T F[:, subtree_i]``: sign times row k of F_i."""
        nb = M.ndim - 2
        self.F_rows_k.run(M.transpose((nb, nb + 1) + tuple(range(nb))), F, nb)


class _JointColumns:
    """The S products of CRBA's backward step for one joint of any kind (its data's S):
    ``row`` its row of the stacked caches, ``cols`` its columns, ``subtree`` its subtree's."""

    def __init__(self, model, block, level, nv_subtree):
        i = block.ids[0]
        self.row = level.rows.start + block.rows.start
        self.cols = block.jmodel.v_slice
        self.subtree = slice(model.idx_vs[i], model.idx_vs[i] + nv_subtree[i])
        self.id = i

    def Y_S(self, data, F, Y):
        """``F[:, cols_i] = Ycrb_i S_i``."""
        F[self.row, ..., self.cols] = Y[self.row] @ data.joints[self.id].S

    def St_F(self, data, M, F):
        """``M[cols_i, subtree_i] = S_i^T F[:, subtree_i]``."""
        S = data.joints[self.id].S
        M[..., self.cols, self.subtree] = S.mT @ F[self.row, ..., self.subtree]


# CRBA's S products for each kind of block
_COLUMNS_OF = {AxisBlock: _AxisColumns, JointBlock: _JointColumns}


class _Copy:
    """``dst[to] = sign src[frm]`` for index tuples of stacked arrays of any batch, and the same
    entries as flat indices ``to_flat``, ``from_flat`` into a single state's (C-contiguous)
    arrays: one index array on one axis is 3-4 times faster for NumPy than several index arrays
    around an Ellipsis, and a single state's copy is all indexing. Same entries, same bits.
    ``sign``: None (+1), or a sign per entry of ``src[frm]``'s first axis (``sign_flat``: per
    flat entry)."""

    def __init__(self, to, frm, to_flat, from_flat, sign=None, sign_flat=None):
        self.to, self.frm = to, frm
        self.to_flat, self.from_flat = np.ravel(to_flat), np.ravel(from_flat)
        self.sign, self.sign_flat = sign, sign_flat

    def run(self, dst, src, nb):
        """The copy into ``dst`` from ``src`` for a call of ``nb`` batch axes."""
        if nb or not dst.flags.c_contiguous:
            dst[self.to] = signed(self.sign, src[self.frm])
        else:
            dst.reshape(-1)[self.to_flat] = signed(self.sign_flat,
                                                   src.reshape(-1)[self.from_flat])


class SubtreeColumns:
    """The subtree columns of one level's joints (``subtree_i = [idx_v, idx_v + nvSubtree[i])``,
    disjoint within a level): ``columns``, the slice of the nv columns they span;
    ``to_parents``, the :class:`_Copy` of every (joint, subtree column) pair of ``liMi Fcrb_i``
    (the joint's row within the level, the column within the span) to where
    ``Fcrb[parent][:, subtree_i]`` is (its parent's row, the column). ``blocks``: the S products
    of each of the level's blocks (``level.blocks``), as :class:`_AxisColumns` or
    :class:`_JointColumns` (nvSubtree from ``nv_subtree``).
    ``raw``: the rows within the level of the joints whose rotation may be off orthonormal
    (``_raw_rotation``)."""

    def __init__(self, model, pos, level, nv_subtree):
        ids = level.ids
        subtree = {i: slice(model.idx_vs[i], model.idx_vs[i] + nv_subtree[i]) for i in ids}
        start = min(s.start for s in subtree.values())
        self.columns = slice(start, max(s.stop for s in subtree.values()))
        pairs = [(k, c - start, pos[model.parents[i]], c) for k, i in enumerate(ids)
                 for c in range(subtree[i].start, subtree[i].stop)]
        joint, column, parent_rows, F_cols = (np.array(x, dtype=np.intp) for x in zip(*pairs))
        # F[parent_rows, ..., F_cols] = XF[joint, ..., column] (XF (K, *batch, 6, span))
        e, span = np.arange(6), self.columns.stop - self.columns.start
        self.to_parents = _Copy((parent_rows, Ellipsis, F_cols), (joint, Ellipsis, column),
                                (parent_rows[:, None] * 6 + e) * model.nv + F_cols[:, None],
                                (joint[:, None] * 6 + e) * span + column[:, None])
        self.blocks = [_COLUMNS_OF[type(b)](model, b, level, nv_subtree) for b in level.blocks]
        self.raw = np.array([k for k, i in enumerate(ids) if _raw_rotation(model.joints[i])],
                            dtype=np.intp)


def _raw_rotation(jmodel):
    """Whether the rotation of the joint's M_J may be off orthonormal: it is read from a unit
    part of q (a quaternion or a (cos, sin) pair, unit only up to UNIT_NORM_TOLERANCE), it turns
    about an axis that is not of unit length (AxisWarning), or the joint is a composite."""
    if jmodel.lie_group.units or isinstance(jmodel, JointModelComposite):
        return True
    return bool(getattr(jmodel, "rotates_about_axis", False)
                and abs(np.linalg.norm(jmodel.axis) - 1.0) > 1e-10)


_COLUMNS = weakref.WeakKeyDictionary()   # a model's Tree -> its levels' SubtreeColumns


def subtree_columns(model, tree):
    """The :class:`SubtreeColumns` of every level of ``tree`` (``tree(model)``), built once per
    Tree, after ``model.check_compact_subtrees`` (the Tree is rebuilt when the joints change)."""
    built = _COLUMNS.get(tree)
    if built is None:
        model.check_compact_subtrees("crba")
        nvsub = [sum(model.nvs[j] for j in model.subtrees[i]) for i in range(model.njoints)]
        built = _COLUMNS[tree] = [SubtreeColumns(model, tree.pos, lv, nvsub) for lv in tree.levels]
    return built


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
    # liMi Ycrb_i = X^T Ycrb_i X: Inertia::se3Action when liMi's rotation is orthonormal ...
    XYX = X.mT @ Y[i] @ X
    if sub.raw.size:
        # ... and on the (m, c, I) of Ycrb_i (Symmetric3::rotate) where it may not be
        raw = np.arange(i.start, i.stop)[sub.raw]
        XYX[sub.raw] = act_inertia_matrix(data.liMi.rotation[raw], data.liMi.translation[raw],
                                          *inertia_parts(Y[raw]))
    # Ycrb[parent] += liMi Ycrb_i
    return ((Y, XYX),)


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
    q, _, shape = state(model, q, data=data)
    (q,) = full(shape, q)
    T = Walk(model, q, None)
    columns = subtree_columns(model, T.tree)
    data.M = writable(data.M, shape + (model.nv, model.nv))
    widen(data, shape, "liMi", "Ycrb", "Fcrb")
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
