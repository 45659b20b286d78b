"""The S products of CRBA's backward step and the subtree columns it carries to the parents,
built once per model's Tree: for each level, a :class:`SubtreeColumns` with one column
product per block of the level (``level.blocks``).

The block rows of M and the subtree columns of Fcrb have a width per joint. The joints of one
level have disjoint subtrees, so a level step reads and writes them for the whole level through
index arrays: for the 1-dof joints with S_i = sign e_k (an ``AxisBlock``) ``Ycrb_i S_i`` is
column k of Ycrb_i and ``S_i^T F_i`` row k of F_i, times the sign (one read and one write of
Fcrb and of M for all of them, :class:`_AxisColumns`); any other joint multiplies by its S
(:class:`_JointColumns`). ``liMi Fcrb_i = X^T Fcrb_i`` is one product on the level's span of
subtree columns (``SubtreeColumns.columns``) and one write of the subtree columns into the
parents (``SubtreeColumns.to_parents``).
"""

import weakref

import numpy as np

from ..joints._axis import AxisBlock, signed
from ..joints.base import JointBlock
from ..joints.composite import JointModelComposite
from ..spatial._kernels import act_inertia_matrix, inertia_parts


class _AxisColumns:
    """The S products of CRBA's backward step for the 1-dof joints of a level with S_i = sign e_k
    (the level's :class:`~pinref.joints._axis.AxisBlock`, whose table of k and sign it reads),
    as two :class:`_Copy`: ``Y_columns``, column k of their Ycrb into their columns of Fcrb;
    ``F_rows_k``, row k of F_i, for every entry of their block rows of M, into M; each times the
    joint's sign."""

    def __init__(self, model, block, level, nv_subtree):
        ids, nv = block.ids, model.nv
        rows = np.arange(level.rows.stop)[block.stack_rows]
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
        # M seen as (nv, nv, *batch) (a view; M itself for one state)
        self.F_rows_k.run(M.transpose((nb, nb + 1) + tuple(range(nb))) if nb else M, F, nb)


class _JointColumns:
    """The S products of CRBA's backward step for one joint of any kind (its data's S):
    ``row`` its row of the stacked caches, ``cols`` its columns, ``subtree`` its subtree's."""

    def __init__(self, model, block, level, nv_subtree):
        i = block.ids[0]
        self.row = block.stack_rows.start
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
    :class:`_JointColumns` (nvSubtree from ``nv_subtree``). ``raw``: the rows within the level
    of the joints whose rotation may be off orthonormal (``_raw_rotation``; see ``act``), and
    ``raw_rows`` their rows of the stacked caches."""

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
        self.raw_rows = level.rows.start + self.raw    # their rows of the stacked caches

    def act(self, data, i, Y, X):
        """``liMi.act(Ycrb_i)`` for the level's joints (rows ``i``): ``X^T Ycrb_i X``, which is
        Pinocchio's ``Inertia::se3Action`` when liMi's rotation is orthonormal, and for the
        ``raw`` joints, whose rotation may not be, se3Action itself on the (m, c, I) of Ycrb_i
        (``Symmetric3::rotate``), so that their numbers are Pinocchio's."""
        XYX = X.mT @ Y[i] @ X
        if self.raw.size:
            raw = self.raw_rows
            XYX[self.raw] = act_inertia_matrix(data.liMi.rotation[raw],
                                               data.liMi.translation[raw], *inertia_parts(Y[raw]))
        return XYX


def _raw_rotation(jmodel):
    """Whether the rotation of the joint's M_J may be off orthonormal: it is read from a unit
    part of q (a quaternion or a (cos, sin) pair, unit only up to UNIT_NORM_TOLERANCE), it turns
    about an axis that is not of unit length (AxisWarning), or the joint is a composite."""
    return bool(jmodel.lie_group.units or isinstance(jmodel, JointModelComposite)
                or jmodel.long_axis)


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
