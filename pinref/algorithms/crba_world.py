"""Joint-space inertia matrix by the Composite Rigid-Body Algorithm in the WORLD frame
(algorithm/crba.hxx, 3.8.0, ``pinocchio::impl::crbaWorldConvention``), what
``pin.crba(..., convention=WORLD)`` runs.

    oYcrb[0] = 0
    for i = 1 .. n-1:                                      CrbaWorldConventionForwardStep
        jcalc(q) -> M_J, S_i
        liMi[i] = jointPlacements[i] * M_J ; oMi[i] = oMi[parent] * liMi[i]
        J[:, cols_i] = oMi S_i
        oYcrb[i] = oMi Y_i
    for i = n-1 .. 1:                                      CrbaWorldConventionBackwardStep
        Ag[:, cols_i]        = oYcrb[i] J[:, cols_i]      (oYcrb[i] is the subtree composite here)
        M[cols_i, subtree_i] = J[:, cols_i]^T Ag[:, subtree_i]
        oYcrb[parent]       += oYcrb[i]                   (parent 0 included)
    diag(M) += armature
    mass[0] = oYcrb[0].mass ; com[0] = oYcrb[0].lever
    Ag_ang[:, k] += Ag_lin[:, k] x com[0]  for every column k   (Ag about the centre of mass)

cols_i = [idx_v, idx_v + nv_i) and subtree_i = [idx_v, idx_v + nvSubtree[i]), as in crba.py.
The composite inertias of parent and child are in the same frame, so they add as they are
(``oYcrb[parent] += oYcrb[i]``), where the LOCAL passes carry them through liMi; Ag's column
block of joint i is the momentum of subtree i moving with joint i's unit velocities, about the
world origin until the last line moves it to the centre of mass (``Ag`` is then the centroidal
momentum matrix: ``Ag v = hg``). The core routine writes the block rows from each joint's
diagonal block to the end of its subtree; the public ``crba`` zeroes M first and then copies
the strict upper triangle into the lower one, as ``pin.crba`` does. Neither Ycrb nor Fcrb is
written (docs/quirks.md).

How the code maps to the loops above (crba.py's module docstring): the forward step reads the
parent in oMi only, run level by level; J and oYcrb run for every joint at once after that loop.
The backward step runs level by level: a level's Ag columns in one product, its block rows of M
as one product ``J_level^T Ag`` read at the entries ``[i, sub_i]`` of its joints (index arrays
built once per model's Tree, ``_level_blocks``); the scan (pinref/algorithms/scan.py) adds the
subtree sums into the parents in Pinocchio's order. J and Ag are held column first, ``(nv,
*batch, 6)`` (``data.J``, ``data.Ag`` are views of them as ``(*batch, 6, nv)``); oYcrb as 6x6
matrices during the passes (rnea_derivatives.py).
"""

import weakref

import numpy as np

from ..spatial._kernels import ANGULAR, LINEAR, se3_action
from . import scan
from . import steps as S
from ._args import writable
from ._levels import begin, joint_calc
from .rnea_derivatives import (_inertia_from_matrix, _InertiasFromMatrices,
                               columns, columns_first, matrix_face, mv, subspace_columns,
                               world_inertia_matrices, world_placements_step)

_BLOCKS = weakref.WeakKeyDictionary()   # a model's Tree -> per level (local rows, M rows, M cols)


def _level_blocks(model, tree):
    """For each level, the entries ``[i, sub_i]`` of its joints' block rows of M: ``(local,
    rows, cols)``, ``local`` the row's place in ``level.v_index``; built once per Tree, after
    ``model.check_compact_subtrees`` (the Tree is rebuilt when the joints change)."""
    built = _BLOCKS.get(tree)
    if built is None:
        model.check_compact_subtrees("crba")
        built = []
        for level in tree.levels:
            local = {int(r): k for k, r in enumerate(level.v_index)}
            entries = [(local[r], r, c) for i in level.ids
                       for r in range(model.idx_vs[i], model.idx_vs[i] + model.nvs[i])
                       for c in range(model.idx_vs[i], model.idx_vs[i] +
                                      sum(model.nvs[j] for j in model.subtrees[i]))]
            built.append(tuple(np.array(x, dtype=np.intp) for x in zip(*entries)))
        _BLOCKS[tree] = built
    return built


def _init_step(T, Y, data):
    """``oYcrb[0].setZero()``, before the forward loop of crbaWorldConvention."""
    # oYcrb_0 = 0
    Y[0] = 0.0
    _publish(data, T, Y)


def _crba_world_forward_step(T, C, J, Y, data, shape):
    """Mirrors CrbaWorldConventionForwardStep::algo: oMi level by level (it reads the parent),
    then J and oYcrb for every joint at once (jcalc and liMi ran before); writes J and oYcrb
    (rows, 6x6) in place."""
    for level in T.levels:
        # oMi = oMi[parent] liMi
        world_placements_step(level, data)
    R, p = data.oMi.rotation, data.oMi.translation
    # J[:, cols_i] = oMi S_i
    J[...] = mv(se3_action(R, p)[C.row], subspace_columns(C, data, shape))
    # oYcrb_i = oMi Y_i
    Y[1:] = world_inertia_matrices(T.tree, R[1:], p[1:], len(shape), slice(1, None))


def _publish(data, T, Y, live=True):
    """``data.oYcrb`` as the Inertia of the rows of ``Y``: read off Y at every access while the
    passes change Y (``live``: a hook sees each stop's values), then each entry read once."""
    data.oYcrb = _InertiasFromMatrices(Y, T.tree.pos, None, live)


def _crba_world_backward_step(level, blocks, C, J, Y, Ag, data):
    """Mirrors CrbaWorldConventionBackwardStep::algo for the joints i of one level: their Ag
    columns and block rows of M; returns ``oYcrb[parent] += oYcrb_i`` for the scan to add."""
    cols = level.v_index
    Jl = J[cols]
    # Ag[:, cols_i] = oYcrb_i J[:, cols_i]
    Ag[cols] = mv(Y[C.row[cols]], Jl)
    # M[cols_i, sub_i] = J[:, cols_i]^T Ag[:, sub_i]
    local, rows, sub = blocks[level.index]
    JtAg = columns_first(Jl) @ matrix_face(Ag)                       # (*batch, K, nv)
    data.M[..., rows, sub] = JtAg[..., local, sub]
    # oYcrb[parent] += oYcrb_i   (parent 0 included)
    return ((Y, Y[level.rows]),)


def _armature_step(model, data):
    """``M.diagonal() += armature``, after the backward pass of crbaWorldConvention."""
    # diag(M) += armature
    diagonal = np.einsum("...ii->...i", data.M)                    # a writable view
    diagonal += model.armature


def _centroidal_step(T, Y, Ag, data, shape):
    """The end of crbaWorldConvention: the total mass and centre of mass from oYcrb[0], and
    Ag moved from the world origin to the centre of mass."""
    _publish(data, T, Y, live=False)
    total = _inertia_from_matrix(Y[0])
    # mass[0] = oYcrb[0].mass ;  com[0] = oYcrb[0].lever
    data.mass[0] = total.mass if shape else float(total.mass)
    data.com[0] = total.lever
    # Ag_ang[:, k] += Ag_lin[:, k] x com[0]
    Ag[..., ANGULAR] += np.cross(Ag[..., LINEAR], total.lever)


def crba_world_upper(model, data, q, call):
    """The core CRBA in the WORLD frame (``pinocchio::impl::crbaWorldConvention``, as
    Pinocchio's C++ calls it): writes the upper triangle and the diagonal blocks of ``data.M``
    in place (other entries keep their values), adds armature.

    q : (..., model.nq); call: the driver's ``steps.Call`` (crba's, or the contact solver's that
    runs it). Writes liMi, oMi, J, oYcrb (subtree composites, [0] the whole robot),
    Ag (about the centre of mass), M, mass[0], com[0] and the joints' M, S. Returns data.M.
    """
    T, shape, q = begin(model, data, ("liMi", "oMi"), q)
    C = columns(model, T)
    blocks = _level_blocks(model, T.tree)
    data.M = writable(data.M, shape + (model.nv, model.nv))
    # J and Ag column first, (nv, *batch, 6); oYcrb as 6x6 rows
    J, Ag = np.empty((2, model.nv) + shape + (6,))
    Y = np.empty((len(T.tree.order),) + shape + (6, 6))
    data.J, data.Ag = matrix_face(J), matrix_face(Ag)
    scan.step(call, S.CRBA_WORLD_INIT, (0,), _init_step, T, Y, data)
    # jcalc(q) -> M_J, S_i ; liMi = jointPlacements[i] * M_J   (every joint: no parent read)
    joint_calc(T, data, q, None, shape, actions=False)
    scan.step(call, S.CRBA_WORLD_FORWARD, T.tree.order_ids, _crba_world_forward_step, T, C, J,
              Y, data, shape)
    scan.backward(call, S.CRBA_WORLD_BACKWARD, T, _crba_world_backward_step, blocks, C, J, Y,
                  Ag, data)
    scan.step(call, S.CRBA_WORLD_ARMATURE, (None,), _armature_step, model, data)
    scan.step(call, S.CRBA_WORLD_CENTROIDAL, (None,), _centroidal_step, T, Y, Ag, data, shape)
    call.shape = shape
    data.mark("crba", "liMi", "oMi", "J", "oYcrb", "Ag", "M", "mass", "com")
    return data.M
