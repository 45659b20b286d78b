"""Forward dynamics by the Articulated-Body Algorithm in the WORLD frame (algorithm/aba.hxx,
3.8.0, ``pinocchio::impl::abaWorldConvention``), what ``pin.aba(..., convention=WORLD)`` runs.

Every spatial quantity is expressed in the world frame (prefix o), J holds the columns oMi S_i.

    oa_gf[0] = -gravity ; u = tau ; of[0] = 0 (only without fext)
    for i = 1 .. n-1:                                   AbaWorldConventionForwardStep1
        jcalc(q, v) -> M_J, S_i, v_J, c_J
        liMi[i] = jointPlacements[i] * M_J ; oMi[i] = oMi[parent] * liMi[i]
        J_i     = oMi S_i
        ov_i    = oMi v_J + ov_parent                   (parent > 0)
        oa_gf_i = oMi c_J + ov_parent x ov_i            (the bias, for now; parent > 0)
        oinertias_i = oYcrb_i = oMi Y_i ; oYaba_i = oYcrb_i (6x6)
        oh_i    = oYcrb_i ov_i ; of_i = ov_i x* oh_i   (- oMi fext_i, fext LOCAL)
    for i = n-1 .. 1:                                   AbaWorldConventionBackwardStep
        u_i  -= J_i^T of_i
        U_i = oYaba_i J_i ; StU_i = J_i^T U_i + armature_i ; Dinv_i = StU_i^-1 ; UDinv_i = U_i Dinv_i
        if parent > 0:
            oYaba_i -= UDinv_i U_i^T ; of_i += oYaba_i oa_gf_i + UDinv_i u_i
            oYaba[parent] += oYaba_i ; of[parent] += of_i
    for i = 1 .. n-1:                                   AbaWorldConventionForwardStep2
        oa_gf_i += oa_gf_parent ; ddq_i = Dinv_i u_i - UDinv_i^T oa_gf_i ; oa_gf_i += J_i ddq_i
        oa_i = oa_gf_i + gravity ; of_i = oinertias_i oa_gf_i + ov_i x* oh_i
    for i = n-1 .. 1 (only without fext):
        of[parent] += of[i]                             (parent 0 included)

Nothing moves between frames in the passes: the world-frame quantities of a parent and a child
add as they are (``oYaba[parent] += oYaba_i``), where the LOCAL passes (aba.py) carry them
through liMi. The joints' U, StU, Dinv, UDinv are written in the WORLD frame; the LOCAL caches
v, a, a_gf, h, f, Yaba are not written (docs/quirks.md, "ABA and CRBA in the WORLD
convention"). With fext the driver resets neither of[0] nor runs the last loop, so of[i] is then
body i's own wrench ``oinertias_i oa_gf_i + ov_i x* oh_i`` and of[0] keeps its old value.

How the code maps to the loops above (rnea.py's module docstring says how a level step maps to
Pinocchio's per-joint loop). Only what reads the parent runs level by level; the rest runs for
every joint at once, before or after the level loop:

- pass 1: jcalc and liMi before the loop (``joint_calc``); oMi, then ov, level by level; J, the
  bias, the inertias, oh and of for every joint at once; ``of_i -= oMi fext_i`` level by level
  right after (Pinocchio's order);
- pass 2 (backward): level by level (pinref/algorithms/scan.py adds the children into their
  parents, in Pinocchio's order); U, StU, Dinv, UDinv a block of the level at a time
  (``level.blocks``: the joints with S = +-e_k together, each other joint alone);
- pass 3: oa_gf_i and ddq_i level by level (a child reads its parent's final oa_gf; Dinv and
  UDinv read from the joint data, u from ``data.u``), then oa_i and of_i for every joint at
  once;
- the last loop: level by level, as pass 2.

The (6, nv) J is held column first, ``(nv, *batch, 6)`` (``data.J`` is a view of it as
``(*batch, 6, nv)``), and oYcrb, oinertias as 6x6 matrices during the passes (rnea_derivatives.py:
data.oYcrb[i] and data.oinertias[i] are Inertia objects read off them).
"""

import numpy as np

from . import scan
from . import steps as S
from ._levels import begin, crf, joint_calc, joint_forces, matvec, tangent_rows, vecmat
from .aba_derivatives import _joint_matrices, _stys_inversion, world_velocities_step
from .rnea_derivatives import (_action_matrices, _store_world_inertias, columns, matrix_face, mv,
                               subspace_columns, world_inertia_matrices, world_placements_step)


class _World:
    """What the passes of one call share: the Walk ``T``, the model's :class:`Columns` ``C``,
    ``X, Xf`` (oMi.action, oMi.dualAction, rows), ``J`` (column first), ``Y`` (oinertias, rows)
    and the batch ``shape``."""

    __slots__ = ("T", "C", "X", "Xf", "J", "Y", "shape")


def _aba_world_forward_step1(W, kin, data):
    """Mirrors AbaWorldConventionForwardStep1::algo: oMi and ov level by level (they read the
    parent), then J, oa_gf (the bias), oinertias = oYcrb, oYaba, oh and of for every joint at
    once (jcalc and liMi ran before: ``kin``)."""
    T, C, shape = W.T, W.C, W.shape
    OV = data.ov.vector
    for level in T.levels:
        # oMi = oMi[parent] liMi
        world_placements_step(level, data)
    W.X, W.Xf = _action_matrices(data.oMi.rotation, data.oMi.translation)
    # ov_i = oMi v_J + ov_parent ;  oa_gf_i = oMi c_J + ov_parent x ov_i
    world_velocities_step(T, C, data, kin, W.X)
    # J_i = oMi S_i
    W.J = mv(W.X[C.row], subspace_columns(C, data, shape))
    data.J = matrix_face(W.J)
    # oinertias_i = oYcrb_i = oMi Y_i ;  oYaba_i = oYcrb_i
    W.Y = world_inertia_matrices(T.tree, data.oMi.rotation, data.oMi.translation, len(shape))
    data.oYaba.matrix[1:] = W.Y[1:]
    _store_world_inertias(data, T.tree.pos, W.Y, W.Y)
    # oh_i = oYcrb_i ov_i ;  of_i = ov_i x* oh_i
    OH = data.oh.vector
    OH[1:] = mv(W.Y[1:], OV[1:])
    data.of.vector[1:] = mv(crf(OV[1:]), OH[1:])


def _fext_world_step(level, W, data, fext):
    """The fext overload's ``of[i] -= oMi[i].act(fext[i])`` right after joint i's forward step
    (fext in the LOCAL frame of each joint)."""
    OF, i = data.of.vector, level.rows
    # of_i -= oMi fext_i
    OF[i] = OF[i] - matvec(W.Xf[i], joint_forces(fext, level.id_index, OF.ndim))


def _aba_world_backward_step(level, W, model, data, uT):
    """Mirrors AbaWorldConventionBackwardStep::algo for the joints i of one level, a block of
    joints at a time (in the WORLD frame every J_i is a general 6 x nv_i, so the blocks differ
    only by nv_i); returns what they add into their parents."""
    C, nb = W.C, len(W.shape)
    Ya, OF, OA_GF = data.oYaba.matrix, data.of.vector, data.oa_gf.vector
    for block in level.blocks:
        rows, v, nvg, K = block.stack_rows, block.v, block.nv, len(block.ids)
        # u_i -= J_i^T of_i
        uT[v] -= np.vecdot(W.J[v], OF[C.row[v]])
        # U_i = oYaba_i J_i
        Jg, Ug = _joint_matrices(W.J[v], nvg, K), _joint_matrices(mv(Ya[C.row[v]], W.J[v]), nvg, K)
        arm = model.armature[v].reshape((K,) + (1,) * nb + (nvg,))
        # StU_i = J_i^T U_i + armature_i ;  Dinv_i = StU_i^-1 ;  UDinv_i = U_i Dinv_i
        StU = Jg.mT @ Ug + np.eye(nvg) * arm[..., None]
        Dinv = _stys_inversion(block, StU)
        UDinv = Ug @ Dinv
        block.write_joint_data(data, U=Ug, StU=StU, Dinv=Dinv, UDinv=UDinv)
        if level.has_parent:
            # oYaba_i -= UDinv_i U_i^T
            Ia = Ya[rows] - UDinv @ Ug.mT
            Ya[rows] = Ia
            # of_i += oYaba_i oa_gf_i + UDinv_i u_i
            OF[rows] = OF[rows] + (matvec(Ia, OA_GF[rows]) + matvec(UDinv, block.tangent(uT)))
    if not level.has_parent:
        return None
    # oYaba[parent] += oYaba_i ;  of[parent] += of_i
    return (Ya, Ya[level.rows]), (OF, OF[level.rows])


def _aba_world_forward_step2(W, model, data, uT, ddqT):
    """Mirrors AbaWorldConventionForwardStep2::algo: oa_gf_i and ddq_i level by level (a child
    reads its parent's final oa_gf), then oa_i and of_i for every joint at once."""
    OA_GF, OV = data.oa_gf.vector, data.ov.vector
    for level in W.T.levels:
        i, p = level.rows, level.parent_rows
        # oa_gf_i += oa_gf_parent
        OA_GF[i] = OA_GF[i] + OA_GF[p]
        for block in level.blocks:
            rows = block.stack_rows
            # ddq_i = Dinv_i u_i - UDinv_i^T oa_gf_i
            UDinv = block.joint_field(data, "UDinv")
            ddq = block.Dinv_times(data, block.tangent(uT)) - vecmat(OA_GF[rows], UDinv)
            block.set_tangent(ddqT, ddq)
            # oa_gf_i += J_i ddq_i
            J = _joint_matrices(W.J[block.v], block.nv, len(block.ids))
            OA_GF[rows] = OA_GF[rows] + matvec(J, ddq)
    # oa_i = oa_gf_i + gravity
    data.oa.vector[1:] = OA_GF[1:] + model.gravity.vector
    # of_i = oinertias_i oa_gf_i + ov_i x* oh_i
    data.of.vector[1:] = mv(W.Y[1:], OA_GF[1:]) + mv(crf(OV[1:]), data.oh.vector[1:])


def _aba_world_final_step(level, data):
    """The last loop of Pinocchio's abaWorldConvention (overload without fext) for the joints i
    of one level, parent 0 included: returns ``of[parent] += of[i]`` for the scan to add."""
    OF = data.of.vector
    # of[parent] += of_i
    return ((OF, OF[level.rows]),)


def _init_step(data):
    """``of[0].setZero()``, in the overload without fext."""
    data.of.vector[0] = 0.0


def aba_world(call, model, data, q, v, tau, fext):
    """``pinocchio::impl::abaWorldConvention`` (see the module docstring), run by ``aba`` for
    ``convention=Convention.WORLD`` inside its ``call``. Returns an owned copy of ``data.ddq``."""
    T, shape, q, v, tau, fext = begin(
        model, data, ("liMi", "oMi", "ov", "oa", "oa_gf", "oh", "of", "oYaba"), q, v=v, tau=tau,
        fext=fext)
    W = _World()
    W.T, W.shape = T, shape
    W.C = columns(model, W.T)
    data.oa_gf.vector[0] = -model.gravity.vector
    data.u = np.array(tau)
    data.ddq = np.zeros(shape + (model.nv,))
    uT, ddqT = tangent_rows(data.u), tangent_rows(data.ddq)
    if fext is None:
        scan.step(call, S.ABA_WORLD_INIT, (0,), _init_step, data)
    # jcalc(q, v) -> M_J, S_i, v_J, c_J ; liMi = jointPlacements[i] * M_J   (no parent read)
    kin = joint_calc(W.T, data, q, v, shape, actions=False)
    # pass 1; of_i -= oMi fext_i right after each joint's step (Pinocchio's order)
    scan.forward(call, S.ABA_WORLD_FORWARD1, W.T, _aba_world_forward_step1, W, kin, data,
                 then=None if fext is None else (S.ABA_WORLD_FEXT, _fext_world_step, W, data,
                                                 fext))
    scan.backward(call, S.ABA_WORLD_BACKWARD, W.T, _aba_world_backward_step, W, model, data, uT)
    scan.forward(call, S.ABA_WORLD_FORWARD2, W.T, _aba_world_forward_step2, W, model, data, uT,
                 ddqT)
    if fext is None:
        scan.backward(call, S.ABA_WORLD_FINAL_LOOP, W.T, _aba_world_final_step, data)
    call.shape = shape
    data.mark("aba", "liMi", "oMi", "J", "ov", "oa_gf", "oinertias", "oYcrb", "oYaba", "oh", "of",
              "u", "ddq", "oa")
    return data.ddq.copy()
