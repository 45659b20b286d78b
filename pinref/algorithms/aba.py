"""Forward dynamics by the Articulated-Body Algorithm (algorithm/aba.hxx, 3.8.0, LOCAL).

    v[0] = 0 ; a_gf[0] = -gravity ; u = tau ; f[0] = 0 (only without fext)
    for i = 1 .. n-1:                                   AbaLocalConventionForwardStep1
        jcalc(q, v) -> M_J, S_i, v_J, c_J
        liMi[i] = jointPlacements[i] * M_J
        v[i]    = v_J + liMi[i]^-1 v[parent]           (parent > 0)
        a_gf[i] = c_J + v[i] x v_J                      (the bias c_i, for now)
        Yaba[i] = Y_i (6x6) ; h[i] = Y_i v[i] ; f[i] = v[i] x* h[i]  (- fext[i])   (= pA_i)
    for i = n-1 .. 1:                                   AbaLocalConventionBackwardStep
        u_i  -= S_i^T f[i]
        U_i = IA_i S_i ; Dinv_i = (S_i^T U_i + armature_i)^-1 ; UDinv_i = U_i Dinv_i
        if parent > 0:
            Ia_i = IA_i - UDinv_i U_i^T                 (overwrites Yaba[i])
            pa_i = pA_i + Ia_i c_i + UDinv_i u_i        (overwrites f[i])
            Yaba[parent] += X* Ia_i X*^T ; f[parent] += liMi[i] pa_i
    for i = 1 .. n-1:                                   AbaLocalConventionForwardStep2
        a_gf[i] += liMi[i]^-1 a_gf[parent]
        ddq_i    = Dinv_i u_i - UDinv_i^T a_gf[i]
        a_gf[i] += S_i ddq_i
        a[i]     = a_gf[i] + (oMi[i].R^T g_lin ; 0)    (g_lin = model.gravity.linear; oMi as
                                                        last written: docs/quirks.md)
        f[i]     = Y_i a_gf[i] + v[i] x* h[i]
    for i = n-1 .. 1:
        f[parent] += liMi[i] f[i]                       (parent 0 included)

X* = liMi[i].dualAction = X^T with X = liMi[i].actionInverse, so ``X* Ia X*^T = X^T Ia X``
(Pinocchio's ``SE3actOn``, which unrolls it block by block). After the call f[i] is RNEA's f for
(q, v, ddq) without fext.

How the code maps to the loops above. pinref/algorithms/scan.py owns the loops: it runs a step
for every joint of one tree level at once (``i`` below is that set of joints), adds the
children into their parents in Pinocchio's order and reports to the tracing hooks; its module
docstring says how a level step maps to the per-joint loop and why ``x = x + y`` where C++ writes
``+=``. The joints of a level come as blocks (``level.blocks``): the joints of one kind whose S
products and calc_aba run in one call, behind one interface (``block.subtract_St``,
``block.add_S``, ``block.tangent``, ``block.calc_aba``, ...; pinref/joints/base.py
``JointBlock`` and pinref/joints/_axis.py ``AxisBlock``). A statement that reads no parent runs
for every joint at once:

- pass 1: jcalc and liMi before the loop (``joint_calc``), v_i level by level, then the bias
  c_i, Yaba_i, h_i and f_i for every joint at once;
- pass 2 (backward): level by level, as written above;
- pass 3: level by level (a child reads its parent's final a_gf); it reads u from ``data.u``
  and Dinv, UDinv from the joint data, as ForwardStep2 does; then a_i and f_i for every joint
  at once, with pass 1's ``v_i x* h_i`` (which Pinocchio computes again);
- the last loop: level by level, as pass 2.
"""

import numpy as np

from ..errors import NotPositiveDefiniteError
from ..joints.base import tangent_rows
from . import scan
from . import steps as S
from ._args import Convention, convention_of, named_joint_error
from ._levels import begin, crf, crm, inputs, joint_calc
from .rnea import _fext_step

matvec, vecmat = np.matvec, np.vecmat


def _aba_forward_step1(T, kin, data):
    """Mirrors AbaLocalConventionForwardStep1::algo: v_i level by level (it reads the parent),
    then every statement that reads no parent for every joint at once (jcalc and liMi ran
    before: ``kin``); writes v, a_gf (= c_i), Yaba, h, f. Returns ``v_i x* h_i`` ``(n - 1,
    *batch, 6)``, which pass 3 adds again."""
    V, H, j = data.v.vector, data.h.vector, slice(1, None)
    X, vJ = kin.X, kin.vJ
    for level in T.levels:
        i, p = level.rows, level.parent_rows
        # v_i = v_J + liMi^-1 v_parent   (parent > 0)
        V[i] = vJ[i] + matvec(X[i], V[p]) if level.has_parent else vJ[i]
    # c_i = c_J + v_i x v_J   (held in a_gf until pass 3)
    bias = matvec(crm(V[j]), vJ[j])
    data.a_gf.vector[j] = bias if kin.c is None else kin.c[j] + bias
    # IA_i = Y_i ; h_i = Y_i v_i ; pA_i = v_i x* h_i
    Y = T.Y[j]
    data.Yaba.matrix[j] = Y
    H[j] = matvec(Y, V[j])
    data.f.vector[j] = vxh = matvec(crf(V[j]), H[j])
    return vxh


def _aba_backward_step(level, kin, model, data, uT):
    """Mirrors AbaLocalConventionBackwardStep::algo for the joints i of one level; returns what
    they add into their parents (the scan adds it, in Pinocchio's order)."""
    i, A, F = level.rows, data.a_gf.vector, data.f.vector
    Ia, pA = data.Yaba.matrix[i], F[i]
    UDu = np.empty(pA.shape)
    for block in level.blocks:
        # u_i -= S_i^T pA_i
        u = block.subtract_St(data, uT, pA)
        # U_i = IA_i S_i ; Dinv_i = (S_i^T U_i + armature_i)^-1 ; UDinv_i = U_i Dinv_i ;
        # Ia_i = IA_i - UDinv_i U_i^T   (parent > 0)
        block.calc_aba(data, Ia, model.armature, level.has_parent)
        # UDinv_i u_i   (for pa_i)
        UDu[block.rows] = matvec(block.joint_field(data, "UDinv"), u)
    if not level.has_parent:
        return None
    # pa_i = pA_i + Ia_i c_i + UDinv_i u_i
    pa = pA + (matvec(Ia, A[i]) + UDu)
    F[i] = pa
    X = kin.X[i]
    # Yaba[parent] += liMi Ia_i = X^T Ia_i X ; f[parent] += liMi pa_i = X^T pa_i
    return (data.Yaba.matrix, X.mT @ Ia @ X), (F, vecmat(pa, X))


def _aba_forward_step2(T, kin, vxh, model, data, uT, ddqT):
    """Mirrors AbaLocalConventionForwardStep2::algo: a_gf_i and ddq_i level by level (a child
    reads its parent's final a_gf), then a_i and f_i for every joint at once (``vxh``: pass 1's
    ``v_i x* h_i``, v and h unchanged since)."""
    A, j = data.a_gf.vector, slice(1, None)
    for level in T.levels:
        i, p = level.rows, level.parent_rows
        # a_gf_i += liMi^-1 a_gf_parent
        a = A[i] + matvec(kin.X[i], A[p])
        for block in level.blocks:
            # ddq_i = Dinv_i u_i - UDinv_i^T a_gf_i
            UDinv = block.joint_field(data, "UDinv")
            ddq = block.Dinv_times(data, block.tangent(uT)) - vecmat(a[block.rows], UDinv)
            block.set_tangent(ddqT, ddq)
            # a_gf_i += S_i ddq_i
            block.add_S(data, a, ddq)
        A[i] = a
    # a_i = a_gf_i + (oMi.R^T g_lin ; 0)
    a = data.a.vector
    a[j] = A[j]
    a[j, ..., :3] += vecmat(model.gravity.linear, data.oMi.rows("rotation", j, a.shape[1:-1]))
    # f_i = Y_i a_gf_i + v_i x* h_i
    data.f.vector[j] = matvec(T.Y[j], A[j]) + vxh


def _aba_final_step(level, kin, data):
    """The last loop of Pinocchio's abaLocalConvention for the joints i of one level, parent 0
    included: returns ``f[parent] += liMi[i].act(f[i])`` for the scan to add."""
    F, i = data.f.vector, level.rows
    # f[parent] += liMi f_i = X^T f_i
    return ((F, vecmat(F[i], kin.X[i])),)


def _init_step(data):
    """``f[0].setZero()``, in the overload without fext."""
    data.f.vector[0] = 0.0


def aba(model, data, q, v, tau, fext=None, convention=Convention.LOCAL):
    """Joint accelerations ``ddq = FD(q, v, tau[, fext])``. See the module docstring.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    v, tau : ndarray, shape (..., model.nv)
    fext : list of model.njoints Force, or ndarray (..., model.njoints, 6), optional
        Wrench on each body, LOCAL frame of its joint; entry 0 is ignored.
    convention : Convention, default LOCAL
        WORLD runs ``abaWorldConvention`` instead (aba_world.py): the same ddq, other caches.
        As in pin, it may come sixth, in fext's place (``aba(model, data, q, v, tau, WORLD)``).

    Returns
    -------
    ddq : ndarray, shape (..., model.nv), an owned copy of ``data.ddq``.

    Mirrors ``pinocchio::abaLocalConvention`` (algorithm/aba.hxx, 3.8.0). Writes liMi, v, a_gf,
    a (with the stale-oMi quirk), h, f (f[0] reset only without fext), Yaba (projected for
    parent > 0), u, ddq and the joints' U, StU, Dinv, UDinv. Raises NotPositiveDefiniteError
    naming the joint whose S^T Ia S + armature cannot be inverted.
    """
    if isinstance(fext, Convention):
        # pin.aba(model, data, q, v, tau, convention): the overload without fext
        fext, convention = None, fext
    world = convention_of(convention, "aba") == Convention.WORLD
    with S.Call("abaWorldConvention" if world else "aba", model, data,
                inputs(q=q, v=v, tau=tau, fext=fext)) as call:
        try:
            if world:
                from .aba_world import aba_world
                return aba_world(call, model, data, q, v, tau, fext)
            return _aba(call, model, data, q, v, tau, fext)
        except NotPositiveDefiniteError as err:
            # raised by the backward pass; no half-written result that looks valid: ddq, u NaN
            data.ddq[...] = np.nan
            data.u[...] = np.nan
            raise named_joint_error(err, model, "aba") from None


def _aba(call, model, data, q, v, tau, fext):
    T, shape, q, v, tau, fext = begin(model, data, ("liMi", "v", "a_gf", "a", "h", "f", "Yaba"),
                                      q, v=v, tau=tau, fext=fext)
    data.v.vector[0] = 0.0
    data.a_gf.vector[0] = -model.gravity.vector
    data.u = np.array(tau)
    data.ddq = np.zeros(shape + (model.nv,))
    uT, ddqT = tangent_rows(data.u), tangent_rows(data.ddq)
    if fext is None:
        scan.step(call, S.ABA_INIT, (0,), _init_step, data)
    # jcalc(q, v) -> M_J, S_i, v_J, c_J ; liMi = jointPlacements[i] * M_J ;
    # X = liMi.actionInverse   (every joint: no parent read)
    kin = joint_calc(T, data, q, v, shape)
    # pass 1; f_i -= fext_i right after each joint's step (Pinocchio's order)
    vxh = scan.forward(call, S.ABA_FORWARD1, T, _aba_forward_step1, T, kin, data,
                       then=None if fext is None else (S.ABA_FEXT, _fext_step, data, fext))
    scan.backward(call, S.ABA_BACKWARD, T, _aba_backward_step, kin, model, data, uT)
    scan.step(call, S.ABA_FORWARD2, T.tree.order_ids, _aba_forward_step2, T, kin, vxh, model,
              data, uT, ddqT)
    scan.backward(call, S.ABA_FINAL_LOOP, T, _aba_final_step, kin, data)
    call.shape = shape
    data.mark("aba", "liMi", "v", "a_gf", "a", "h", "f", "Yaba", "u", "ddq")
    return data.ddq.copy()
