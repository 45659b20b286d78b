"""Analytic partial derivatives of inverse dynamics (algorithm/rnea-derivatives.hxx, 3.8.0).

Derivatives with respect to q are taken along the tangent space: column j of ``dtau_dq`` is
d tau(q (+) eps e_j) / d eps at eps = 0, with e_j a unit vector of size nv and (+)
``pinref.integrate`` (docs/derivatives.md). Everything below is expressed in the WORLD frame
(prefix o): ``J`` holds the columns oMi S_i, and a motion "x" a matrix acts column by column.

computeRNEADerivatives(q, v, a[, fext]):
    oa_gf[0] = -gravity
    for i = 1 .. n-1:                                   ComputeRNEADerivativesForwardStep
        jcalc(q, v) -> M_J, S_i, v_J, c_J
        liMi[i] = jointPlacements[i] M_J ;  oMi[i] = oMi[parent] liMi[i]
        v[i] = v_J + liMi^-1 v[parent] ;  a[i] = S_i a_i + c_J + v[i] x v_J + liMi^-1 a[parent]
        ov_i = oMi v[i] ;  oa_i = oMi a[i] ;  oa_gf_i = oa_i - gravity
        oYcrb_i = oinertias_i = oMi Y_i
        oh_i = oYcrb_i ov_i ;  of_i = oYcrb_i oa_gf_i + ov_i x* oh_i   (- oMi fext_i)
        J_i = oMi S_i ;  dJ_i = ov_i x J_i
        dVdq_i = ov_parent x J_i                                 (0 when parent == 0)
        dAdq_i = oa_gf_parent x J_i + ov_parent x dVdq_i ;  dAdv_i = dJ_i + dVdq_i
        doYcrb_i = ov_i x* oYcrb_i - oYcrb_i ov_i x + B(oh_i)     (B(f) m = m x* f)
    for i = n-1 .. 1:                                   ComputeRNEADerivativesBackwardStep
        tau_i = J_i^T of_i                      (oYcrb, doYcrb, of: subtree sums from here on)
        dFda_i = oYcrb_i J_i ;  dtau_da[i, sub_i] = J_i^T dFda[sub_i]
        dFdq_i = oYcrb_i dAdq_i + doYcrb_i dVdq_i ;  dYtJ_i = doYcrb_i^T J_i
        dtau_dq[sub+_i, i] = dFda[sub+_i]^T dAdq_i + dYtJ[sub+_i]^T dVdq_i
        dtau_dq[i, sub_i]  = J_i^T dFdq[sub_i] ;   dFdq_i += J_i x* of_i
        dFdv_i = doYcrb_i J_i + oYcrb_i dAdv_i
        dtau_dv[sub+_i, i] = dFda[sub+_i]^T dAdv_i + dYtJ[sub+_i]^T J_i
        dtau_dv[i, sub_i]  = J_i^T dFdv[sub_i]
        oYcrb_parent += oYcrb_i ; doYcrb_parent += doYcrb_i ; of_parent += of_i   (parent > 0)
    dAdq.linear += gravity_lin x J.angular              (gravity taken back out of dAdq)
    tau += armature * a ;  diag(dtau_da) += armature ;  dtau_da lower = upper^T (the bindings)

computeGeneralizedGravityDerivatives(q) / computeStaticTorqueDerivatives(q, fext), v = a = 0:
    for i = 1 .. n-1:                       ComputeGeneralizedGravityDerivativeForwardStep
        liMi, oMi ;  oYcrb_i = oinertias_i = oMi Y_i ;  of_i = oYcrb_i (-gravity) (- oMi fext_i)
        J_i = oMi S_i ;  dAdq_i = (-gravity) x J_i
    for i = n-1 .. 1:                       ComputeGeneralizedGravityDerivativeBackwardStep
        dFdq_i = oYcrb_i dAdq_i ;  dg[i, sub_i] = J_i^T dFdq[sub_i] ;  dFdq_i += J_i x* of_i
        Ag_i = oYcrb_i J_i ;  dg[i, anc_i] = Ag_i^T dAdq[anc_i]
        g_i = J_i^T of_i ;  oYcrb_parent += oYcrb_i ; of_parent += of_i       (parent > 0)

i stands for the joint's columns ``idx_v .. idx_v + nv_i``; sub_i = the columns of the subtree
of joint i (``idx_v .. idx_v + nvSubtree[i]``), sub+_i the same without joint i's own, anc_i
the columns of its ancestors (``supports``). Entries outside these blocks couple joints of
different branches: they are zero, and neither Pinocchio nor pinref writes them (the matrix
caches are written in place).

How the code maps to the loops above. Each C++ struct is one step function named after it
(``_forward_step``: ComputeRNEADerivativesForwardStep, ``_backward_step``,
``_gravity_forward_step``, ``_gravity_backward_step``), and each driver reads as Pinocchio's:
set-up, the forward pass, the fext statement, the backward pass, the closing statements, the
steps run through pinref/algorithms/scan.py (no hook watches these passes: they run
``steps.QUIET``). A step runs
for every joint at once what the per-joint loop runs one joint at a time (``i`` is then the set
of all joints, or of the joints of one tree level; rnea.py's module docstring says why ``x = x +
y`` where C++ writes ``+=``):

- the forward step reads its parent in three statements only, oMi, v and a: those run one tree
  level at a time (``level.rows``, ``local_motions``), ``S_i a_i + c_J`` before that loop, and
  every other statement after it for every joint at once (a statement reading ``ov_parent`` or
  ``oa_gf_parent`` reads a parent whose step is complete, as in the per-joint loop). jcalc and
  liMi run before the step, in the driver (``joint_calc``), and ``of_i -= oMi fext_i`` after
  it, for every joint (nothing in the forward pass reads of);
- the backward step's last statements, the subtree sums (oYcrb, doYcrb, of into the parent), run
  first, level by level, children added in Pinocchio's order (rounds); each joint's other
  statements read its own subtree sums, which are complete when its step runs and unchanged
  afterwards, and its descendants' final dFdq, dFda, dYtJ, dFdv: they run after the sums for
  every joint at once, with joint i's own dFdq taken before ``dFdq_i += J_i x* of_i``.

The per-joint motions (v, a, ov, oa, oa_gf, oh) go into Data as the steps compute them; the
caches that pinref holds in another form during the passes (the (6, nv) caches column first,
oYcrb, doYcrb, of as 6x6 and 6-vector rows summed in place) the steps hold in a ``Workspace``
whose fields are named after the Data fields, and the driver copies them into Data at the end.
Column first, ``(nv, *batch, 6)`` (``data.J`` is a view of it as ``(*batch, 6, nv)``), a
statement on the columns of every joint is one product; joint quantities (oYcrb, ov, of, ...)
are read per column through ``Columns.row`` (the joint's row). The blocks ``dtau[i, sub_i]`` of
every joint are the entries listed in ``Columns`` of one product ``J^T dF`` (``(nv, 6) x (6,
nv)`` per state), written in one scatter.

pinref keeps oYcrb and oinertias as 6x6 matrices during the passes; each body's starts as the
matrix of Pinocchio's ``oMi.act(Y_i)`` (``world_inertia_matrices``: Symmetric3 formulas, not
``X* Y X*^T``, which differs when oMi's rotation is off orthonormal), and the sums are matrix
sums. data.oYcrb[i] and data.oinertias[i] are then Inertia objects, each read off its matrix
when first accessed.
"""

import weakref
from collections.abc import MutableSequence

import numpy as np

from ..errors import ModelError
from ..spatial import Inertia
from ..spatial._kernels import (
    ANGULAR,
    LINEAR,
    act_inertia_matrix,
    inertia_parts,
    skew_product,
)
from . import scan
from . import steps as S
from ._levels import (
    Walk,
    begin,
    crf,
    crm,
    expand,
    joint_calc,
    joint_forces,
    kind_subspace_times,
    matvec,
    tangent_rows,
    vecmat,
)

# --- spatial operations this module needs (private: not in spatial/ yet) ------------------------


def _action_matrices(R, p):
    """``(M.action, M.dualAction)``, the 6x6 actions of ``M = (R, p)`` on motions and forces,
    built together (one buffer, no per-entry assignments):

        X  = [[R, [p]x R], [0, R]]      X @ m.vector == M.act(m).vector
        X* = [[R, 0], [[p]x R, R]]      X* @ f.vector == M.act(f).vector ;  X*^T = M.actionInverse
    """
    pxR = skew_product(p) @ R
    out = np.zeros(np.broadcast_shapes(R.shape[:-2], pxR.shape[:-2]) + (2, 6, 6))
    out[..., :, LINEAR, LINEAR] = out[..., :, ANGULAR, ANGULAR] = R[..., None, :, :]
    out[..., 0, LINEAR, ANGULAR] = out[..., 1, ANGULAR, LINEAR] = pxR
    return out[..., 0, :, :], out[..., 1, :, :]


def world_inertia_matrices(tree, R, p, nb, rows=slice(None)):
    """``oMi.act(Y_i).matrix()`` for the Tree's ``rows`` (``(n, *batch, 6, 6)``), oMi = (R, p)
    of those rows ``(n, *batch, 3, 3)``, ``(n, *batch, 3)``, nb batch axes: mass m_i, lever
    R c_i + p, ``Symmetric3::rotate(I_i, R)`` (``act_inertia_matrix``). This is Pinocchio's
    ``oinertias[i] = oMi[i].act(model.inertias[i])`` for any R, also one off orthonormal (a
    quaternion accepted as unit up to its tolerance), where ``X* Y X*^T`` is not."""
    m, c, I = (expand(x[rows], nb) for x in tree.inertia_parts)
    return act_inertia_matrix(R, p, m, c, I)


def _force_cross_basis():
    """Rows k: B(e_k) flattened, for ``_force_cross_matrix`` (B is linear in f)."""
    basis = np.zeros((6, 6, 6))
    for k in range(3):
        skew_e = np.cross(np.eye(3)[k], np.eye(3)).T  # [e_k]x
        basis[k, LINEAR, ANGULAR] = basis[k, ANGULAR, LINEAR] = -skew_e
        basis[3 + k, ANGULAR, ANGULAR] = -skew_e
    return basis.reshape(6, 36)


_FORCE_CROSS_BASIS = _force_cross_basis()


def _force_cross_matrix(f):
    """6x6 ``B(f) = [[0, -[f_lin]x], [-[f_lin]x, -[f_ang]x]]`` with ``B(f) @ m == m x* f``.

    ``B(f) @ J`` is ``motionSet::act(J, f)`` (every column m of J gives m x* f), and adding B(f)
    to a matrix is Pinocchio's ``addForceCrossMatrix``. ``(..., 6) -> (..., 6, 6)``, exact.
    """
    return (f @ _FORCE_CROSS_BASIS).reshape(f.shape[:-1] + (6, 6))


def _inertia_from_matrix(Y):
    """The Inertia ``(m, c, I)`` whose ``matrix()`` is the 6x6 ``Y`` ``(..., 6, 6)``:
    m = Y_LL[0, 0] ; m c = unskew(Y_AL) ; I = Y_AA + m [c]x [c]x  (c = 0 when m = 0)."""
    return Inertia.unchecked(*inertia_parts(Y))


class _InertiasFromMatrices(MutableSequence):
    """What ``data.oYcrb`` and ``data.oinertias`` hold after a derivative algorithm: a list of
    Inertia, each read off the 6x6 matrix the passes computed (``matrices[pos[i]]``, rows of
    the stacked caches, ``_inertia_from_matrix``) when it is first accessed; entry 0, which
    Pinocchio does not write, keeps its previous value (``first``). ``live``: every entry, 0
    included, read at every access while a pass still changes the matrices (crbaWorldConvention,
    for the hooks); it cannot be assigned then."""

    def __init__(self, matrices, pos, first, live=False):
        self._matrices = matrices
        self._pos = pos
        self._items = [first] + [None] * (len(pos) - 1)
        self._live = live

    def __len__(self):
        return len(self._items)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        if self._live:
            return _inertia_from_matrix(self._matrices[self._pos[k]])
        if self._items[k] is None:
            self._items[k] = _inertia_from_matrix(self._matrices[self._pos[k]])
        return self._items[k]

    def __setitem__(self, k, value):
        if self._live:
            raise TypeError("data.oYcrb is read off the passes' matrices while they run; "
                            "assign it after the call")
        if isinstance(k, slice):
            for j, item in zip(range(*k.indices(len(self))), value, strict=True):
                self._items[j] = item
        else:
            self._items[k] = value

    def __delitem__(self, k):
        raise TypeError("data.oYcrb and data.oinertias have one entry per joint")

    def insert(self, k, value):
        raise TypeError("data.oYcrb and data.oinertias have one entry per joint")

    def __repr__(self):
        return repr(list(self))


def _store_world_inertias(data, pos, oinertias, oYcrb):
    """``data.oinertias`` and ``data.oYcrb`` as lists of Inertia, from their 6x6 forms (rows)."""
    data.oinertias = _InertiasFromMatrices(oinertias, pos, data.oinertias[0])
    data.oYcrb = _InertiasFromMatrices(oYcrb, pos, data.oYcrb[0])


def _in_place(array, shape):
    """``array`` itself when it is a writable float array of exactly ``shape``, else zeros.

    Pinocchio writes its matrix caches in place, so entries a call does not write keep their
    values; reusing the buffer reproduces that and spares NumPy fresh memory on every call.
    """
    if (isinstance(array, np.ndarray) and array.shape == shape and array.dtype == np.float64
            and array.flags.writeable and array.flags.c_contiguous):
        return array
    return np.zeros(shape)


def _check_linear_gravity(model, algorithm):
    """Pinocchio's check before the RNEA and ABA derivatives: gravity must have no angular part
    (the last step takes ``gravity_lin x J.angular`` back out of dAdq, which assumes it)."""
    if np.any(model.gravity.angular != 0.0):
        raise ModelError(
            f"{algorithm}: model.gravity must be a pure linear acceleration, got angular part "
            f"{model.gravity.angular}; set model.gravity = Motion(linear, zeros(3))")


def _gravity_cross(model):
    """``[gravity_lin]x`` (3x3): ``_gravity_cross(model) @ w == gravity_lin x w``."""
    return skew_product(model.gravity.linear)


# --- the columns of every joint, once per model -------------------------------------------------


class Entries:
    """Entries ``(r[k], c[k])`` of an ``(nv, nv)`` matrix, as the ``(nv, nv)`` mask that is True
    on them (``mask``) and on the transposed entries ``(c[k], r[k])`` (``mask_t``)."""

    def __init__(self, r, c, nv):
        self.mask = np.zeros((nv, nv), dtype=bool)
        self.mask[r, c] = True
        self.mask_t = self.mask.T.copy()


def _pairs(blocks, nv):
    """The entries of the blocks ``(rows, cols)`` (ranges)."""
    r = [k for rows, cols in blocks for k in rows for _ in cols]
    c = [k for rows, cols in blocks for _ in rows for k in cols]
    return Entries(r, c, nv)


class Columns:
    """The tangent columns of the model's joints, for the passes that work on columns.

    ``row[k]``: the row (``Tree.pos``) of the joint owning column k ; ``parent[k]``: the row of
    its parent (0 for a root joint) ; ``root``: the columns of the joints whose parent is the
    universe ; ``own``, ``plus``, ``sub``, ``anc``: the :class:`Entries` of the blocks
    ``[i, i]``, ``[i, sub+_i]``, ``[i, sub_i]``, ``[i, anc_i]`` of every joint i ;
    ``row_parent``, ``root_rows``: the same per row 1.. ; ``levels``: :class:`LevelColumns` per
    level (``level``: the same by Level) ; ``S``, ``groups``: see ``subspace_columns``. Built once
    per Tree."""

    def __init__(self, model, tree):
        nv, pos = model.nv, tree.pos
        self.row = np.zeros(nv, dtype=np.intp)
        self.parent = np.zeros(nv, dtype=np.intp)
        own, plus, anc = [], [], []
        for i in range(1, model.njoints):
            jmodel, parent = model.joints[i], model.parents[i]
            cols = range(jmodel.idx_v, jmodel.idx_v + jmodel.nv)
            end = jmodel.idx_v + sum(model.nvs[j] for j in model.subtrees[i])
            self.row[list(cols)] = pos[i]
            self.parent[list(cols)] = pos[parent]
            own.append((cols, cols))
            plus.append((cols, range(cols.stop, end)))
            anc.append((cols, [k for j in model.supports[i][1:-1]
                               for k in range(model.idx_vs[j], model.idx_vs[j] + model.nvs[j])]))
        self.root = np.flatnonzero(self.parent == 0)
        # per row 1..: the parent's row, and which rows are root joints
        self.row_parent = np.array([pos[model.parents[i]] for i in tree.order[1:]], dtype=np.intp)
        self.root_rows = np.flatnonzero(self.row_parent == 0)
        self.own, self.plus, self.anc = _pairs(own, nv), _pairs(plus, nv), _pairs(anc, nv)
        self.sub = _pairs(own + plus, nv)
        self.levels = [LevelColumns(model, level, self) for level in tree.levels]
        self.level = dict(zip(tree.levels, self.levels))
        self.S = np.zeros((nv, 6))                       # S columns of the fixed-axis joints
        self.groups = []                                 # the other joints: S from their data
        for group in tree.kinds:
            if group.batched:
                self.S[group.v_index] = group.S_col
            else:
                self.groups.append(group)


class LevelColumns:
    """The columns of the joints of one level (``cols``: ``level.v_index``, grouped as
    ``level.groups``; ``spans[g]``: group g's part of ``cols``), for ABA's block steps:
    ``own[g]``: the entries ``[i, i]`` of group g's joints (joint, row, col in C order) ;
    ``plus``: ``(rows, cols, local rows)`` of the entries ``[i, sub+_i]`` of the level's joints
    with children ; ``update``: the columns sub_i whose F the level's joints write (all but
    those of root joints with children) ; ``inner``: ``(global, local)`` columns of the joints
    with children ; ``right[g]``: ``(c0, mask)``, c0 the first idx_v of group g's joints and
    ``mask (K, nv - c0)`` True at the columns idx_v.. of each."""

    def __init__(self, model, level, C):
        self.cols = level.v_index
        self.spans, self.own, self.right = [], [], []
        lo = 0
        plus, update, inner = ([], [], []), [], ([], [])
        for group in level.groups:
            nvg = group.nv
            self.spans.append(slice(lo, lo + len(group.ids) * nvg))
            own = ([], [])
            for k, i in enumerate(group.ids):
                jmodel = model.joints[i]
                cols = range(jmodel.idx_v, jmodel.idx_v + nvg)
                end = jmodel.idx_v + sum(model.nvs[j] for j in model.subtrees[i])
                for r in cols:
                    for c in cols:
                        own[0].append(r)
                        own[1].append(c)
                has_children = end > cols.stop
                if has_children:
                    for a, r in enumerate(cols):
                        inner[0].append(r)
                        inner[1].append(lo + k * nvg + a)
                        for c in range(cols.stop, end):
                            plus[0].append(r)
                            plus[1].append(c)
                            plus[2].append(lo + k * nvg + a)
                if level.has_parent or not has_children:
                    update.extend(range(jmodel.idx_v, end))
            self.own.append(tuple(np.array(x, dtype=np.intp) for x in own))
            c0 = min(model.joints[i].idx_v for i in group.ids)
            self.right.append((c0, np.array([[c >= model.joints[i].idx_v
                                              for c in range(c0, model.nv)]
                                             for i in group.ids])))
            lo += len(group.ids) * nvg
        self.plus = tuple(np.array(x, dtype=np.intp) for x in plus)
        self.update = np.array(update, dtype=np.intp)
        self.inner = tuple(np.array(x, dtype=np.intp) for x in inner)


_COLUMNS = weakref.WeakKeyDictionary()   # Tree -> Columns


def columns(model, T):
    """The model's :class:`Columns` (``T``: the call's Walk)."""
    found = _COLUMNS.get(T.tree)
    if found is None:
        found = _COLUMNS[T.tree] = Columns(model, T.tree)
    return found


def subspace_columns(C, data, shape):
    """``S`` column by column, ``(nv, *shape, 6)``: the constant columns of the fixed-axis
    1-dof joints (``tree.BATCHED``), the joint data's S (after jcalc) of the others."""
    S = np.empty((len(C.row),) + shape + (6,))
    S[...] = expand(C.S, len(shape))
    for group in C.groups:
        Sj = data.joints[group.ids[0]].S
        S[group.v_index] = expand(Sj.T, len(shape)) if Sj.ndim == 2 else moved(Sj, -1, 0)
    return S


def mv(A, x):
    """``A x`` over leading axes, ``(..., m, n), (..., n) -> (..., m)``, for full stacks (no
    broadcast operand): NumPy's einsum runs the contiguous entries in its inner loop, about
    2.5x faster than ``np.matvec`` on ``(K, 1000, 6, 6)`` stacks. The operands' layouts do not
    depend on the batch, so a state gives the same bits alone or in a batch (tested)."""
    return np.einsum("...ij,...j->...i", A, x)


def moved(x, source, destination):
    """``np.moveaxis`` for one axis, as one ``transpose`` (a view; less Python than moveaxis)."""
    axes = list(range(x.ndim))
    axes.insert(destination % x.ndim, axes.pop(source))
    return x.transpose(axes)


def matrix_face(x):
    """A ``(nv, *batch, 6)`` column-first array seen as Pinocchio's ``(*batch, 6, nv)``."""
    return moved(x, 0, -1)


def world_placements_step(level, data):
    """``oMi = oMi[parent] liMi`` (``oMi = liMi`` for a root joint) for the joints of one level:
    the forward steps' placement statement, the same in every derivative pass."""
    i, p = level.rows, level.parent_rows
    R, t = data.oMi.rotation, data.oMi.translation
    if level.has_parent:
        # oMi = oMi[parent] liMi
        Rp = R[p]
        R[i] = Rp @ data.liMi.rotation[i]
        t[i] = t[p] + matvec(Rp, data.liMi.translation[i])
    else:
        # oMi = liMi
        R[i] = data.liMi.rotation[i]
        t[i] = data.liMi.translation[i]


def external_world_forces(model, T, Xf, fext, nb):
    """``oMi fext_i`` for rows 1.. (``Xf``: oMi.dualAction of those rows), fext aligned with a
    batch of nb axes."""
    return matvec(Xf, joint_forces(fext, T.tree.order[1:], nb + 2))


def motion_derivative_columns(C, data, Y, dY, J, parent_acceleration=None):
    """The closing lines of ComputeRNEADerivativesForwardStep::algo (rnea-derivatives.hxx) and
    of ComputeABADerivativesForwardStep2::algo (aba-derivatives.hxx), which are the same in
    both, for every joint at once (they read ov and oa_gf of the joint and of its parent, whose
    steps are complete): dJ, dVdq, dAdq, dAdv column first ``(nv, *shape, 6)``, and doYcrb
    (written into rows 1.. of ``dY``). ``Y``: oYcrb (rows, joint i's body only).
    ``parent_acceleration``: the rows dAdq reads in place of oa_gf (CentroidalDynDerivatives-
    ForwardStep reads oa)."""
    OV = data.ov.vector
    OA_GF = data.oa_gf.vector if parent_acceleration is None else parent_acceleration
    # dJ_i = ov_i x J_i
    dJ = mv(crm(OV[C.row]), J)
    # dVdq_i = ov_parent x J_i   (0 when parent == 0)
    ov_parent = OV[C.parent]
    ov_parent[C.root] = 0.0
    ov_parent_x = crm(ov_parent)
    dVdq = mv(ov_parent_x, J)
    # dAdq_i = oa_gf_parent x J_i + ov_parent x dVdq_i ;  dAdv_i = dJ_i + dVdq_i
    dAdq = mv(crm(OA_GF[C.parent]), J) + mv(ov_parent_x, dVdq)
    dAdv = dJ + dVdq
    # doYcrb_i = ov_i x* oYcrb_i - oYcrb_i ov_i x + B(oh_i)
    ov_x, Yi = crm(OV[1:]), Y[1:]
    dY[1:] = _force_cross_matrix(data.oh.vector[1:]) - ov_x.mT @ Yi - Yi @ ov_x
    return dJ, dVdq, dAdq, dAdv


def subtree_sums_step(level, stack, universe=False):
    """``x_parent += x_i`` for the joints of one level (parent > 0; the universe, row 0, too
    when ``universe``), children in Pinocchio's order (rounds): the backward steps' subtree
    sums, on ``stack (n, *batch, m)`` holding the summed caches side by side."""
    if not (level.has_parent or universe):
        return
    # x_parent += x_i
    scan.add_to_parents(level, (stack, stack[level.rows]))


def packed(n, shape, *widths):
    """One buffer ``(n, *shape, sum(widths))`` and its views ``(n, *shape, width)``."""
    buf = np.empty((n,) + shape + (sum(widths),))
    out, lo = [buf], 0
    for w in widths:
        out.append(buf[..., lo:lo + w])
        lo += w
    return out


def write_blocks(out, entries, values, transpose=False):
    """``out[..., r, c] = values[..., r, c]`` for the :class:`Entries` ``(r, c)`` (``transpose``:
    the entries ``(c, r)``); ``out`` and ``values`` ``(..., nv, nv)``. One masked copy (a third
    faster than gathering the entries by index, at any batch)."""
    np.copyto(out, values, where=entries.mask_t if transpose else entries.mask)


def columns_first(x):
    """``(nv, *shape, 6)`` as ``(*shape, nv, 6)`` (a view), for products over the columns."""
    return moved(x, 0, -2)


class Workspace:
    """What a derivative call holds between its passes where Pinocchio holds it in Data, named
    after the Data fields, in the layouts the passes work on; the driver copies it into Data
    when the passes end (``publish``).

    ``T``: the call's Walk ; ``C``: the model's Columns ; ``shape``: the batch shape ; a
    ``sums`` buffer (``stack``): the caches a backward step adds into the parents side by side,
    each a view of it, rows ``(n, *shape, ...)``: ``oYcrb``, ``doYcrb``, ``oYaba`` as 6x6,
    ``of`` ; the (6, nv) caches ``J``, ``dJ``, ``dVdq``, ``dAdq``, ``dAdv``, ``dFda``,
    ``dFdq``, ``dFdv`` column first, ``(nv, *shape, 6)`` ; ``oinertias`` (rows, 6x6) ; ``Xf``:
    oMi.dualAction (rows), for the drivers' fext."""

    def __init__(self, model, T, shape):
        self.T, self.C, self.shape, self.n = T, columns(model, T), shape, model.njoints

    def stack(self, *widths):
        """A sums buffer and its views (width 36: a 6x6 per row, 6: a 6-vector)."""
        buf, *views = packed(self.n, self.shape, *widths)
        return [buf] + [x.reshape(x.shape[:-1] + (6, 6)) if x.shape[-1] == 36 else x
                        for x in views]

    def publish(self, data, *names):
        """``data.name`` for each (6, nv) cache ``name`` held column first."""
        for name in names:
            setattr(data, name, matrix_face(getattr(self, name)))


def _fext_step(model, w, fext):
    """``of_i -= oMi.act(fext_i)`` for every joint (``fext_step``)."""
    # of_i -= oMi fext_i
    w.of[1:] -= external_world_forces(model, w.T, w.Xf[1:], fext, len(w.shape))


def fext_step(model, w, fext, algorithm):
    """The driver ``algorithm``'s ``of_i -= oMi.act(fext_i)`` after the forward step of joint
    i, for every joint after the forward pass (nothing in that pass reads of), when fext is
    given."""
    if fext is not None:
        scan.step(S.QUIET, f"{algorithm}: of[i] -= oMi[i].act(fext[i])", (None,), _fext_step,
                  model, w, fext)


def _subtree_sums(w, sums):
    """``x_parent += x_i`` (parent > 0) for the caches side by side in ``sums``, level by level
    from the deepest, children in Pinocchio's order (scan.add_to_parents): the last statements
    of a backward step, which its other statements, for every joint at once, read complete."""
    for level in reversed(w.T.levels):
        subtree_sums_step(level, sums)


# --- computeGeneralizedGravityDerivatives, computeStaticTorqueDerivatives -----------------------


def _gravity_forward_step(data, w):
    """Mirrors ComputeGeneralizedGravityDerivativeForwardStep::algo for every joint (jcalc and
    liMi ran before): oMi level by level (it reads the parent), the rest for every joint at
    once."""
    C, R, p = w.C, data.oMi.rotation, data.oMi.translation
    for level in w.T.levels:
        # oMi = oMi[parent] liMi
        world_placements_step(level, data)
    X, w.Xf = _action_matrices(R, p)
    # oYcrb_i = oinertias_i = oMi Y_i
    w.oYcrb[...] = world_inertia_matrices(w.T.tree, R, p, len(w.shape))
    w.oinertias = w.oYcrb.copy()
    # of_i = oYcrb_i (-gravity)
    minus_gravity = data.oa_gf.vector[0]
    w.of[1:] = matvec(w.oYcrb[1:], minus_gravity)
    # J_i = oMi S_i ;  dAdq_i = (-gravity) x J_i
    w.J = mv(X[C.row], subspace_columns(C, data, w.shape))
    w.dAdq = matvec(crm(minus_gravity), w.J)


def _gravity_backward_step(data, w, torque, dg_dq):
    """Mirrors ComputeGeneralizedGravityDerivativeBackwardStep::algo for every joint; writes
    ``data.<torque>`` (g or tau, as the driver chooses) and dg_dq. Its last statements, the
    subtree sums, run first (``_subtree_sums``)."""
    # oYcrb_parent += oYcrb_i ;  of_parent += of_i   (parent > 0)
    _subtree_sums(w, w.sums)
    C, J, dAdq = w.C, w.J, w.dAdq
    Ycol, of_col = w.oYcrb[C.row], w.of[C.row]
    Jt = columns_first(J)
    # dFdq_i = oYcrb_i dAdq_i ;  dg[i, sub_i] = J_i^T dFdq[sub_i]   (own block: before the +=)
    dFdq = mv(Ycol, dAdq)
    write_blocks(dg_dq, C.own, Jt @ matrix_face(dFdq))
    # dFdq_i += J_i x* of_i
    w.dFdq = dFdq + mv(_force_cross_matrix(of_col), J)
    write_blocks(dg_dq, C.plus, Jt @ matrix_face(w.dFdq))
    # Ag_i = oYcrb_i J_i ;  dg[i, anc_i] = Ag_i^T dAdq[anc_i]
    w.Ag = mv(Ycol, J)
    write_blocks(dg_dq, C.anc, columns_first(w.Ag) @ matrix_face(dAdq))
    # g_i = J_i^T of_i
    setattr(data, torque, moved(np.vecdot(J, of_col), 0, -1))


def _static_torque_derivatives(model, data, q, fext, call, torque):
    """computeGeneralizedGravityDerivatives and computeStaticTorqueDerivatives (``call``): the
    torques into ``data.<torque>``; returns dg_dq."""
    T, shape, q, fext = begin(model, data, ("liMi", "oMi", "oa_gf", "of"), q, fext=fext)
    model.check_compact_subtrees(call)
    w = Workspace(model, T, shape)
    w.sums, w.oYcrb, w.of = w.stack(36, 6)
    data.oa_gf[0] = -model.gravity
    dg_dq = np.zeros(shape + (model.nv, model.nv))
    # jcalc(q) ; liMi = jointPlacements[i] M_J   (every joint: no parent read)
    joint_calc(T, data, q, None, shape)
    scan.forward(S.QUIET, "ComputeGeneralizedGravityDerivativeForwardStep", T,
                 _gravity_forward_step, data, w)
    fext_step(model, w, fext, call)
    scan.step(S.QUIET, "ComputeGeneralizedGravityDerivativeBackwardStep", T.tree.order_ids[::-1],
              _gravity_backward_step, data, w, torque, dg_dq)
    data.of.vector[1:] = w.of[1:]
    w.publish(data, "J", "dAdq", "dFdq", "Ag")
    _store_world_inertias(data, T.tree.pos, w.oinertias, w.oYcrb)
    data.mark(call, "liMi", "oMi", "oinertias", "oYcrb", "of", "J", "dAdq", "dFdq", "Ag", torque)
    return dg_dq


def computeGeneralizedGravityDerivatives(model, data, q):
    """Partial derivative ``dg/dq`` of the gravity torques, ``(..., model.nv, model.nv)``.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)

    Returns
    -------
    dg_dq : ndarray, shape (..., model.nv, model.nv), a new array (as in pin, which returns a
        fresh matrix here). Column j is the derivative along the tangent direction e_j.

    Mirrors ``pinocchio::computeGeneralizedGravityDerivatives`` (rnea-derivatives.hxx, 3.8.0);
    see the module docstring. Writes liMi, oMi, oinertias, oYcrb (subtree sums), of (subtree
    sums of oYcrb (-gravity)), J, dAdq (gravity included: Pinocchio does not take it back out
    here), dFdq, Ag, g (the gravity torques), oa_gf[0] = -gravity and the joints' M, S.
    """
    return _static_torque_derivatives(model, data, q, None,
                                      "computeGeneralizedGravityDerivatives", "g")


def computeStaticTorqueDerivatives(model, data, q, fext):
    """Partial derivative ``d/dq (g(q) - sum_i J_i^T fext_i)``, ``(..., model.nv, model.nv)``.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    fext : list of model.njoints Force, or ndarray (..., model.njoints, 6)
        Wrench on each body, LOCAL frame of its joint (held fixed in that frame while q moves);
        entry 0 is ignored. None means no external force, as for pinref's computeStaticTorque
        (Pinocchio requires the list).

    Returns
    -------
    dtau_dq : ndarray, shape (..., model.nv, model.nv), a new array.

    Mirrors ``pinocchio::computeStaticTorqueDerivatives`` (rnea-derivatives.hxx, 3.8.0). Writes
    what computeGeneralizedGravityDerivatives writes, with ``of`` including ``-oMi fext``, and
    ``tau`` (the static torque) instead of ``g``.
    """
    return _static_torque_derivatives(model, data, q, fext, "computeStaticTorqueDerivatives",
                                      "tau")


# --- computeRNEADerivatives ----------------------------------------------------------------------


def _forward_step_level(level, kin, Sa_c, data):
    """The statements of ComputeRNEADerivativesForwardStep::algo (and of CentroidalDynDerivatives-
    ForwardStep) that read the parent, for the joints of one level: oMi, v, a (LOCAL;
    ``Sa_c = S_i a_i + c_J``)."""
    i, p = level.rows, level.parent_rows
    V, A = data.v.vector, data.a.vector
    X, vJ = kin.X[i], kin.vJ[i]
    # oMi = oMi[parent] liMi
    world_placements_step(level, data)
    if level.has_parent:
        # v_i = v_J + liMi^-1 v_parent
        V[i] = vJ + matvec(X, V[p])
        # a_i = S_i a_i + c_J + v_i x v_J + liMi^-1 a_parent
        A[i] = (Sa_c[i] + matvec(crm(V[i]), vJ)) + matvec(X, A[p])
    else:
        # v_i = v_J ;  a_i = S_i a_i + c_J + v_i x v_J
        V[i] = vJ
        A[i] = Sa_c[i] + matvec(crm(vJ), vJ)


def local_motions(T, kin, data, a, shape):
    """The first statements of ComputeRNEADerivativesForwardStep::algo (and of CentroidalDyn-
    DerivativesForwardStep) after jcalc and liMi: ``S_i a_i + c_J`` for every joint (no parent
    read), then oMi, v, a level by level."""
    # S_i a_i + c_J
    Sa_c = kind_subspace_times(T, data, tangent_rows(a), shape)
    if kin.c is not None:
        Sa_c = Sa_c + kin.c
    for level in T.levels:
        # oMi = oMi[parent] liMi ;  v_i ;  a_i
        _forward_step_level(level, kin, Sa_c, data)


def forward_levels(model, data, q, v, a, shape):
    """jcalc, liMi and ``local_motions`` for every joint (CentroidalDynDerivativesForwardStep's
    first statements). Returns the call's Walk and the model's Columns."""
    T = Walk(model, q, v)
    # jcalc(q, v) -> M_J, S_i, v_J, c_J ; liMi = jointPlacements[i] M_J   (every joint)
    kin = joint_calc(T, data, q, v, shape)
    local_motions(T, kin, data, a, shape)
    return T, columns(model, T)


def _forward_step(model, data, w, kin, a):
    """Mirrors ComputeRNEADerivativesForwardStep::algo for every joint (jcalc and liMi ran
    before: ``kin``): oMi, v, a level by level (``local_motions``), the rest for every joint at
    once, each statement reading a parent whose step is complete."""
    C, R, p = w.C, data.oMi.rotation, data.oMi.translation
    OV, OA, OA_GF, OH = data.ov.vector, data.oa.vector, data.oa_gf.vector, data.oh.vector
    # oMi = oMi[parent] liMi ;  v_i = v_J + liMi^-1 v_parent ;
    # a_i = S_i a_i + c_J + v_i x v_J + liMi^-1 a_parent
    local_motions(w.T, kin, data, a, w.shape)
    X, w.Xf = _action_matrices(R, p)
    # oYcrb_i = oinertias_i = oMi Y_i
    w.oYcrb[...] = world_inertia_matrices(w.T.tree, R, p, len(w.shape))
    w.oinertias = w.oYcrb.copy()
    # ov_i = oMi v_i ;  oa_i = oMi a_i ;  oa_gf_i = oa_i - gravity
    OV[1:] = mv(X[1:], data.v.vector[1:])
    OA[1:] = mv(X[1:], data.a.vector[1:])
    OA_GF[1:] = OA[1:] - model.gravity.vector
    # oh_i = oYcrb_i ov_i ;  of_i = oYcrb_i oa_gf_i + ov_i x* oh_i
    OH[1:] = mv(w.oYcrb[1:], OV[1:])
    w.of[1:] = mv(w.oYcrb[1:], OA_GF[1:]) + mv(crf(OV[1:]), OH[1:])
    # J_i = oMi S_i
    w.J = mv(X[C.row], subspace_columns(C, data, w.shape))
    # dJ_i ;  dVdq_i ;  dAdq_i ;  dAdv_i ;  doYcrb_i   (motion_derivative_columns)
    w.dJ, w.dVdq, w.dAdq, w.dAdv = motion_derivative_columns(C, data, w.oYcrb, w.doYcrb, w.J)


def _backward_step(data, w):
    """Mirrors ComputeRNEADerivativesBackwardStep::algo for every joint (``data.dtau_dq``,
    ``data.dtau_dv``, ``data.M`` written in place). Its last statements, the subtree sums, run
    first (``_subtree_sums``); the others read joint i's complete sums and its descendants'
    final columns."""
    # oYcrb_parent += oYcrb_i ;  doYcrb_parent += doYcrb_i ;  of_parent += of_i   (parent > 0)
    _subtree_sums(w, w.sums)
    C, J, dVdq, dAdq, dAdv = w.C, w.J, w.dVdq, w.dAdq, w.dAdv
    Ycol, dYcol, of_col = w.oYcrb[C.row], w.doYcrb[C.row], w.of[C.row]
    Jt = columns_first(J)
    # tau_i = J_i^T of_i
    data.tau = moved(np.vecdot(J, of_col), 0, -1)
    # dFda_i = oYcrb_i J_i ;  dtau_da[i, sub_i] = J_i^T dFda[sub_i]
    w.dFda = mv(Ycol, J)
    write_blocks(data.M, C.sub, Jt @ matrix_face(w.dFda))
    # dFdq_i = oYcrb_i dAdq_i + doYcrb_i dVdq_i ;  dYtJ_i = doYcrb_i^T J_i
    dFdq = mv(Ycol, dAdq) + mv(dYcol, dVdq)
    w.dYtJ = vecmat(J, dYcol)
    # dtau_dq[sub+_i, i] = dFda[sub+_i]^T dAdq_i + dYtJ[sub+_i]^T dVdq_i
    dFda_t, dYtJ_t = columns_first(w.dFda), columns_first(w.dYtJ)
    write_blocks(data.dtau_dq, C.plus, dFda_t @ matrix_face(dAdq) + dYtJ_t @ matrix_face(dVdq),
                 transpose=True)
    # dtau_dq[i, sub_i] = J_i^T dFdq[sub_i] ;  dFdq_i += J_i x* of_i
    write_blocks(data.dtau_dq, C.own, Jt @ matrix_face(dFdq))
    w.dFdq = dFdq + mv(_force_cross_matrix(of_col), J)
    write_blocks(data.dtau_dq, C.plus, Jt @ matrix_face(w.dFdq))
    # dFdv_i = doYcrb_i J_i + oYcrb_i dAdv_i
    w.dFdv = mv(dYcol, J) + mv(Ycol, dAdv)
    # dtau_dv[sub+_i, i] = dFda[sub+_i]^T dAdv_i + dYtJ[sub+_i]^T J_i
    write_blocks(data.dtau_dv, C.plus, dFda_t @ matrix_face(dAdv) + dYtJ_t @ matrix_face(J),
                 transpose=True)
    # dtau_dv[i, sub_i] = J_i^T dFdv[sub_i]
    write_blocks(data.dtau_dv, C.sub, Jt @ matrix_face(w.dFdv))


def computeRNEADerivatives(model, data, q, v, a, fext=None):
    """Partial derivatives of ``tau = rnea(q, v, a[, fext])`` with respect to q, v and a.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    v, a : ndarray, shape (..., model.nv)
    fext : list of model.njoints Force, or ndarray (..., model.njoints, 6), optional
        Wrench on each body, LOCAL frame of its joint (held fixed in that frame while q
        moves); entry 0 is ignored.

    Returns
    -------
    (dtau_dq, dtau_dv, dtau_da) : three ndarrays, shape (..., model.nv, model.nv), owned copies
        of ``data.dtau_dq``, ``data.dtau_dv`` and ``data.M`` (pin returns views of these
        caches, which its next call overwrites; docs/derivatives.md). Column j of dtau_dq is the
        derivative along the tangent direction e_j (``integrate(q, eps e_j)``); dtau_da is the
        symmetric joint-space inertia M(q), armature included.

    Mirrors ``pinocchio::computeRNEADerivatives`` (algorithm/rnea-derivatives.hxx, 3.8.0) and
    its Python binding (which symmetrises M); see the module docstring for the passes.
    Writes liMi, oMi, v, a (LOCAL, a without gravity), ov, oa, oa_gf, oh, oinertias, oYcrb,
    doYcrb, of (oYcrb, doYcrb, of as subtree sums), J, dJ, dVdq, dAdq (gravity taken back out),
    dAdv, dFda, dFdq, dFdv, Fcrb[0] (the scratch dYtJ), tau (= rnea(q, v, a[, fext])), dtau_dq,
    dtau_dv, M and the joints' M, S, v, c. Not written: a_gf, f, h (the LOCAL RNEA caches).

    References: Carpentier & Mansard, "Analytical derivatives of rigid body dynamics
    algorithms", RSS 2018.
    """
    T, shape, q, v, a, fext = begin(model, data, ("liMi", "oMi", "v", "a", "ov", "oa", "oa_gf",
                                                  "oh", "of", "doYcrb", "Fcrb"),
                                    q, v=v, a=a, fext=fext)
    model.check_compact_subtrees("computeRNEADerivatives")
    _check_linear_gravity(model, "computeRNEADerivatives")
    nv = model.nv
    w = Workspace(model, T, shape)
    w.sums, w.oYcrb, w.doYcrb, w.of = w.stack(36, 36, 6)
    data.oa_gf[0] = -model.gravity
    data.dtau_dq, data.dtau_dv, data.M = (_in_place(getattr(data, name), shape + (nv, nv))
                                          for name in ("dtau_dq", "dtau_dv", "M"))
    # jcalc(q, v) -> M_J, S_i, v_J, c_J ; liMi = jointPlacements[i] M_J   (every joint)
    kin = joint_calc(T, data, q, v, shape)
    scan.forward(S.QUIET, "ComputeRNEADerivativesForwardStep", T, _forward_step, model, data, w,
                 kin, a)
    fext_step(model, w, fext, "computeRNEADerivatives")
    scan.step(S.QUIET, "ComputeRNEADerivativesBackwardStep", T.tree.order_ids[::-1],
              _backward_step, data, w)
    # dAdq.linear += gravity_lin x J.angular   (every column: gravity taken back out)
    w.dAdq[..., LINEAR] += matvec(_gravity_cross(model), w.J[..., ANGULAR])
    # tau += armature * a ;  diag(dtau_da) += armature ;  dtau_da lower = upper^T (the binding)
    data.tau = data.tau + model.armature * a
    diag, lower = np.arange(nv), np.tril_indices(nv, -1)
    data.M[..., diag, diag] += model.armature
    data.M[..., lower[0], lower[1]] = data.M[..., lower[1], lower[0]]
    data.doYcrb.matrix[1:] = w.doYcrb[1:]
    data.of.vector[1:] = w.of[1:]
    data.Fcrb.matrix[0] = matrix_face(w.dYtJ)
    w.publish(data, "J", "dJ", "dVdq", "dAdq", "dAdv", "dFda", "dFdq", "dFdv")
    _store_world_inertias(data, T.tree.pos, w.oinertias, w.oYcrb)
    data.mark("computeRNEADerivatives", "liMi", "oMi", "v", "a", "ov", "oa", "oa_gf", "oh",
              "oinertias", "oYcrb", "doYcrb", "of", "J", "dJ", "dVdq", "dAdq", "dAdv", "dFda",
              "dFdq", "dFdv", "tau", "dtau_dq", "dtau_dv", "M")
    return data.dtau_dq.copy(), data.dtau_dv.copy(), data.M.copy()
