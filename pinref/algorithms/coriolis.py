"""The Coriolis passes of rnea.hxx (3.8.0): computeCoriolisMatrix and getCoriolisMatrix.

C(q, v) is the Coriolis matrix of the Lagrangian dynamics, ``M(q) dv + C(q, v) v + g(q) = tau``,
chosen so that ``dM/dt = C + C^T``. Everything is in the WORLD frame (prefix o), ``J`` holds
the columns ``oMi S_i`` and a motion or an inertia acts on a (6, nv) block column by column.
``Y.variation(v) = v x* Y - Y (v x)`` (Inertia::variation) and ``B(f) m = m x* f`` (the force
cross matrix that Pinocchio adds with ``addForceCrossMatrix``).

computeCoriolisMatrix(q, v):
    for i = 1 .. n-1:                                   CoriolisMatrixForwardStep
        jcalc(q, v) -> M_J, S_i, v_J
        liMi[i] = jointPlacements[i] M_J ;  oMi[i] = oMi[parent] liMi[i]
        oYcrb_i = oMi Y_i ;  v[i] = v_J + liMi^-1 v[parent] ;  ov_i = oMi v[i]
        oh_i = oYcrb_i ov_i ;  J_i = oMi S_i ;  dJ_i = ov_i x J_i
        B_i = oYcrb_i.variation(ov_i / 2) + B(oh_i / 2)
    for i = n-1 .. 1:                                   CoriolisMatrixBackwardStep
        dFdv_i = oYcrb_i dJ_i + B_i J_i            (oYcrb, B: subtree sums from here on)
        C[i, sub_i] = J_i^T dFdv[sub_i]
        Ag_i = oYcrb_i J_i ;  C[i, anc_i] = Ag_i^T dJ[anc_i] + (J_i^T B_i) J[anc_i]
        oYcrb_parent += oYcrb_i ;  B_parent += B_i                      (parent > 0)

getCoriolisMatrix() reads what a derivative pass left (computeRNEADerivatives or
computeABADerivatives: oMi, ov, oh, J, dJ and oYcrb already summed over each subtree):
    for i = 1 .. n-1:   B_i = (oMi Y_i).variation(ov_i / 2) + B(oh_i / 2)
    for i = n-1 .. 1:                                   GetCoriolisMatrixBackwardStep
        the backward step above with Fcrb[0] in place of dFdv and without the oYcrb sum:
        B_parent += B_i                                                  (parent > 0)

i stands for joint i's columns ``idx_v .. idx_v + nv_i``, sub_i for those of its subtree
(``idx_v .. idx_v + nvSubtree[i]``), anc_i for those of its ancestors (Pinocchio walks them
with ``parents_fromRow``). Entries of C that couple two branches are zero and written by
neither: C is written in place, so they keep what they held (initially zero).

How the code maps to the loops above (the level passes of rnea_derivatives.py, whose module
docstring says more): the forward step reads its parent in oMi and v only, which run one tree
level at a time after jcalc and liMi (``joint_calc``, every joint at once); its other
statements run for every joint after that loop. In the backward step only the subtree sums read
the children; they run level by level, children in Pinocchio's order (rounds), and the rest
after them for every column at once, since each joint reads its own complete sums and its
descendants' final dFdv. oYcrb and B are 6x6 matrices during the passes, ``data.oYcrb[i]`` an
Inertia read off its matrix when first accessed.
"""

import numpy as np

from ..spatial._kernels import se3_action
from ._args import check_data, state, writable
from ._levels import Walk, crm, full, joint_calc, matvec, vecmat, widen
from .rnea_derivatives import (
    _force_cross_matrix,
    _InertiasFromMatrices,
    columns,
    columns_first,
    matrix_face,
    moved,
    mv,
    packed,
    subspace_columns,
    subtree_sums_step,
    world_inertia_matrices,
    world_placements_step,
    write_blocks,
)

_FIX = ("computeRNEADerivatives(model, data, q, v, a) (or computeABADerivatives) first, or "
        "computeCoriolisMatrix(model, data, q, v) instead")


def half_variation(Y, ov, oh):
    """``B_i = Y_i.variation(ov_i / 2) + B(oh_i / 2)`` for rows of ``Y (6x6)``, ``ov``, ``oh``:
    the closing lines of CoriolisMatrixForwardStep::algo, which getCoriolisMatrix repeats."""
    # B_i = (ov_i / 2) x* Y_i - Y_i (ov_i / 2) x + B(oh_i / 2) ;  v x* = -(v x)^T and Y_i is
    # symmetric, so the first two terms are -(Z^T + Z) with Z = Y_i (ov_i / 2) x
    Z = Y @ crm(0.5 * ov)
    return _force_cross_matrix(0.5 * oh) - (Z.mT + Z)


def placement_velocity_step(level, kin, data):
    """Mirrors the statements of CoriolisMatrixForwardStep::algo (and CATForwardStep::algo)
    that read the parent, for the joints of one level: oMi and v (jcalc and liMi ran before;
    the rest runs after the level loop: ``_coriolis_forward_columns`` here,
    ``_cat_forward_columns`` in compute_all_terms.py)."""
    i, p = level.rows, level.parent_rows
    V = data.v.vector
    # oMi = oMi[parent] liMi
    world_placements_step(level, data)
    if level.has_parent:
        # v_i = v_J + liMi^-1 v_parent
        V[i] = kin.vJ[i] + matvec(kin.X[i], V[p])
    else:
        # v_i = v_J
        V[i] = kin.vJ[i]


def _coriolis_forward_columns(T, C, data, Sc, shape, Y, B):
    """The statements of CoriolisMatrixForwardStep::algo after oMi and v, for every joint at
    once: oYcrb (into ``Y``), ov, oh, J, dJ, B (into rows 1.. of ``B``). Returns J, dJ column
    first ``(nv, *shape, 6)``."""
    OV, OH = data.ov.vector, data.oh.vector
    X = se3_action(data.oMi.rotation, data.oMi.translation)
    # oYcrb_i = oMi Y_i
    Y[...] = world_inertia_matrices(T.tree, data.oMi.rotation, data.oMi.translation, len(shape))
    # ov_i = oMi v_i ;  oh_i = oYcrb_i ov_i
    OV[1:] = mv(X[1:], data.v.vector[1:])
    OH[1:] = mv(Y[1:], OV[1:])
    # J_i = oMi S_i ;  dJ_i = ov_i x J_i
    J = mv(X[C.row], Sc)
    dJ = mv(crm(OV[C.row]), J)
    B[1:] = half_variation(Y[1:], OV[1:], OH[1:])
    return J, dJ


def _coriolis_backward_columns(C, Y, B, J, dJ, out):
    """The statements of CoriolisMatrixBackwardStep::algo (and GetCoriolisMatrixBackwardStep)
    other than the subtree sums, for every column at once (each joint reads its complete
    subtree sums ``Y``, ``B`` and its descendants' dFdv): dFdv, the blocks of C (``out``), Ag.
    Returns dFdv, Ag column first."""
    Ycol, Bcol = Y[C.row], B[C.row]
    # dFdv_i = oYcrb_i dJ_i + B_i J_i ;  C[i, sub_i] = J_i^T dFdv[sub_i]
    dFdv = mv(Ycol, dJ) + mv(Bcol, J)
    write_blocks(out, C.sub, columns_first(J) @ matrix_face(dFdv))
    # Ag_i = oYcrb_i J_i ;  C[i, anc_i] = Ag_i^T dJ[anc_i] + (J_i^T B_i) J[anc_i]
    Ag = mv(Ycol, J)
    JtB = vecmat(J, Bcol)
    write_blocks(out, C.anc, columns_first(Ag) @ matrix_face(dJ)
                 + columns_first(JtB) @ matrix_face(J))
    return dFdv, Ag


def _coriolis_out(model, data, shape):
    """``data.C`` for the call, written in place (entries the passes skip keep their values)."""
    data.C = np.ascontiguousarray(writable(np.asarray(data.C, dtype=float),
                                           shape + (model.nv, model.nv)))
    return data.C


def computeCoriolisMatrix(model, data, q, v):
    """Coriolis matrix ``C(q, v)`` with ``C v`` the Coriolis and centrifugal torques and
    ``dM/dt = C + C^T``, ``(..., model.nv, model.nv)``.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    v : ndarray, shape (..., model.nv)

    Returns
    -------
    C : ndarray, shape (..., model.nv, model.nv), an owned copy of ``data.C`` (pin returns a
        copy too).

    Mirrors ``pinocchio::computeCoriolisMatrix`` (algorithm/rnea.hxx, 3.8.0); see the module
    docstring. Writes liMi, oMi, v, ov, oh, oYcrb (subtree sums), J, dJ, B (subtree sums),
    dFdv, Ag (oYcrb_i J_i, not moved to the CoM), C (the blocks of each joint; the entries
    coupling two branches keep their values) and the joints' M, S, v, c. Not written:
    oinertias, a, a_gf, h, f, M.
    """
    q, arrays, shape = state(model, q, data=data, v=v)
    q, v = full(shape, q, arrays["v"])
    model.check_compact_subtrees("computeCoriolisMatrix")
    widen(data, shape, "liMi", "oMi", "v", "ov", "oh", "B")
    out = _coriolis_out(model, data, shape)
    T = Walk(model, q, v)
    C = columns(model, T)
    # jcalc(q, v) -> M_J, S_i, v_J ; liMi = jointPlacements[i] M_J   (every joint)
    kin = joint_calc(T, data, q, v, shape)
    for level in T.levels:
        placement_velocity_step(level, kin, data)
    buf, Yv, Bv = packed(model.njoints, shape, 36, 36)
    Y, B = (x.reshape(x.shape[:-1] + (6, 6)) for x in (Yv, Bv))
    J, dJ = _coriolis_forward_columns(T, C, data, subspace_columns(C, data, shape), shape, Y, B)
    for level in reversed(T.levels):
        # oYcrb_parent += oYcrb_i ;  B_parent += B_i
        subtree_sums_step(level, buf)
    dFdv, Ag = _coriolis_backward_columns(C, Y, B, J, dJ, out)
    data.B.matrix[1:] = B[1:]
    data.oYcrb = _InertiasFromMatrices(Y, T.tree.pos, data.oYcrb[0])
    data.J, data.dJ, data.dFdv, data.Ag = map(matrix_face, (J, dJ, dFdv, Ag))
    data.mark("computeCoriolisMatrix", "liMi", "oMi", "v", "ov", "oh", "oYcrb", "J", "dJ", "B",
              "dFdv", "Ag", "C")
    return out.copy()


def _rows_of(stack_part, n, shape, tail):
    """A stacked cache's part ``(n, *batch, *tail)`` broadcast to the batch ``shape``."""
    extra = len(shape) + 1 + len(tail) - stack_part.ndim
    x = stack_part.reshape(stack_part.shape[:1] + (1,) * extra + stack_part.shape[1:])
    return np.broadcast_to(x, (n,) + shape + tail)


def getCoriolisMatrix(model, data):
    """The Coriolis matrix from the caches of a derivative pass, ``(..., nv, nv)``.

    Call computeRNEADerivatives or computeABADerivatives first (for the same q, v): this reads
    their oMi, ov, oh, J, dJ and oYcrb (summed over each subtree). Returns an owned copy of
    ``data.C``; writes B (subtree sums), Fcrb[0] (cols oYcrb_i dJ_i + B_i J_i), Ag (cols
    oYcrb_i J_i) and the blocks of C (the entries coupling two branches keep their values).

    Mirrors ``pinocchio::getCoriolisMatrix`` (algorithm/rnea.hxx, 3.8.0). Pinocchio reads
    whatever the caches hold; pinref raises NotComputedError for a cache no call has written
    in this Data (Pinocchio would use its initial zeros), naming the call to make first.
    """
    check_data(model, data)
    for cache in ("oMi", "ov", "oh", "oYcrb", "J", "dJ"):
        data.require("getCoriolisMatrix", cache, _FIX)
    model.check_compact_subtrees("getCoriolisMatrix")
    shape, n = data.batch_shape, model.njoints
    T = Walk(model, np.zeros(model.nq), None)            # the tree only: no state is read
    C = columns(model, T)
    widen(data, shape, "B", "Fcrb")
    out = _coriolis_out(model, data, shape)
    R = _rows_of(data.oMi.rotation, n, shape, (3, 3))
    p = _rows_of(data.oMi.translation, n, shape, (3,))
    OV = _rows_of(data.ov.vector, n, shape, (6,))
    OH = _rows_of(data.oh.vector, n, shape, (6,))
    J, dJ = (moved(np.broadcast_to(getattr(data, name), shape + (6, model.nv)), -1, 0)
             for name in ("J", "dJ"))
    # oYcrb_i as the derivative pass left it (already summed over each subtree)
    Y = np.stack([np.broadcast_to(data.oYcrb[i].matrix(), shape + (6, 6)) for i in T.tree.order])
    buf = np.zeros((n,) + shape + (36,))
    B = buf.reshape(buf.shape[:-1] + (6, 6))
    # oY_i = oMi Y_i ;  B_i = oY_i.variation(ov_i / 2) + B(oh_i / 2)
    oY = world_inertia_matrices(T.tree, R[1:], p[1:], len(shape), slice(1, None))
    B[1:] = half_variation(oY, OV[1:], OH[1:])
    for level in reversed(T.levels):
        # B_parent += B_i
        subtree_sums_step(level, buf)
    dFdv, Ag = _coriolis_backward_columns(C, Y, B, J, dJ, out)
    data.B.matrix[1:] = B[1:]
    data.Fcrb.matrix[0] = matrix_face(dFdv)
    data.Ag = matrix_face(Ag)
    data.mark("getCoriolisMatrix", "B", "Fcrb", "Ag", "C")
    return out.copy()


__all__ = ["computeCoriolisMatrix", "getCoriolisMatrix"]
