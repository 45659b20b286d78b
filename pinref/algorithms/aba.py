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
        a[i]     = a_gf[i] + (0; 0) + oMi[i].R^T g_lin  (oMi as last written: docs/quirks.md)
        f[i]     = Y_i a_gf[i] + v[i] x* h[i]
    for i = n-1 .. 1:
        f[parent] += liMi[i] f[i]                       (parent 0 included)

X* = liMi[i].dualAction. After the call f[i] is RNEA's f for (q, v, ddq) without fext.
"""

import numpy as np

from ..errors import NotPositiveDefiniteError
from ..spatial import Force, Motion
from ..spatial._kernels import LINEAR, matvec, mT
from ..tracing import traced_algorithm, traced_step
from ._args import Convention, check_local, external_forces, state, writable


def se3_act_on_matrix(M, Y):
    """``X* Y X*^T`` for a 6x6 force-from-motion matrix Y: moves an articulated inertia from the
    child frame to the parent frame (``internal::SE3actOn`` in aba.hxx).

    Pinocchio unrolls this block by block and never reads Y's lower-left block; pinref uses the
    full product ``M.dualAction @ Y @ M.actionInverse`` (``M.dualAction`` is
    ``M.actionInverse^T``, so one matrix serves both), equal up to rounding.
    """
    X = M.actionInverse
    return X.mT @ Y @ X


@traced_step("aba", "AbaLocalConventionForwardStep1", 1,
             writes="joints[i].M joints[i].S joints[i].v joints[i].c liMi[i] v[i] a_gf[i] Yaba[i] "
                    "h[i] f[i]")
def _aba_forward_step1(jmodel, jdata, model, data, q, v, shape):
    """Mirrors AbaLocalConventionForwardStep1::algo; writes liMi, v, a_gf (= c_i), Yaba, h, f."""
    i = jmodel.id
    parent = model.parents[i]
    jmodel.calc(jdata, q, v)
    # liMi = jointPlacements[i] * M_J
    data.liMi[i] = model.jointPlacements[i] * jdata.M
    # v_i = v_J + liMi^-1 v_parent
    data.v[i] = jdata.v
    if parent > 0:
        data.v[i] = data.v[i] + data.liMi[i].actInv(data.v[parent])
    # c_i = c_J + v_i x v_J   (held in a_gf until pass 3)
    data.a_gf[i] = jdata.c + (data.v[i] ^ jdata.v)
    # IA_i = Y_i ; h_i = Y_i v_i ; pA_i = v_i x* h_i
    data.Yaba[i] = writable(model.inertias[i].matrix(), shape + (6, 6))
    data.h[i] = model.inertias[i] * data.v[i]
    data.f[i] = data.v[i].cross(data.h[i])


@traced_step("aba", "AbaLocalConventionBackwardStep", 2,
             writes="u[v_i] joints[i].U joints[i].StU joints[i].Dinv joints[i].UDinv Yaba[i]",
             writes_if_parent="f[i] Yaba[parent] f[parent]")
def _aba_backward_step(jmodel, jdata, model, data):
    """Mirrors AbaLocalConventionBackwardStep::algo; eliminates joint i into its parent."""
    i = jmodel.id
    parent = model.parents[i]
    iv = jmodel.v_slice
    Ia = data.Yaba[i]
    # u_i = tau_i - S_i^T pA_i
    data.u[..., iv] -= matvec(mT(jdata.S), data.f[i].vector)
    # U_i = IA_i S_i ; Dinv_i = (S_i^T U_i + armature_i)^-1 ; UDinv_i ; Ia_i = IA_i - UDinv_i U_i^T
    jmodel.calc_aba(jdata, model.armature[iv], Ia, parent > 0)
    if parent > 0:
        # pa_i = pA_i + Ia_i c_i + UDinv_i u_i
        data.f[i] = data.f[i] + Force._wrap(
            matvec(Ia, data.a_gf[i].vector) + matvec(jdata.UDinv, data.u[..., iv]))
        # IA_parent += X* Ia_i X*^T ; pA_parent += liMi pa_i
        data.Yaba[parent] += se3_act_on_matrix(data.liMi[i], Ia)
        data.f[parent] = data.f[parent] + data.liMi[i].act(data.f[i])


@traced_step("aba", "AbaLocalConventionForwardStep2", 3, writes="a_gf[i] ddq[v_i] a[i] f[i]")
def _aba_forward_step2(jmodel, jdata, model, data):
    """Mirrors AbaLocalConventionForwardStep2::algo; writes a_gf, ddq, a, f of joint i."""
    i = jmodel.id
    parent = model.parents[i]
    iv = jmodel.v_slice
    # a_gf_i = c_i + liMi^-1 a_gf_parent
    data.a_gf[i] = data.a_gf[i] + data.liMi[i].actInv(data.a_gf[parent])
    # ddq_i = Dinv_i u_i - UDinv_i^T a_gf_i
    data.ddq[..., iv] = (matvec(jdata.Dinv, data.u[..., iv])
                         - matvec(mT(jdata.UDinv), data.a_gf[i].vector))
    # a_gf_i += S_i ddq_i
    data.a_gf[i] = data.a_gf[i] + Motion._wrap(matvec(jdata.S, data.ddq[..., iv]))
    # a_i = a_gf_i + (oMi.R^T g_lin ; 0)
    a = data.a_gf[i].vector.copy()
    a[..., LINEAR] += matvec(mT(data.oMi[i].rotation), model.gravity.linear)
    data.a[i] = Motion._wrap(a)
    # f_i = Y_i a_gf_i + v_i x* h_i
    data.f[i] = model.inertias[i] * data.a_gf[i] + data.v[i].cross(data.h[i])


@traced_algorithm("aba", watch="f")
def aba(model, data, q, v, tau, fext=None, convention=Convention.LOCAL):
    """Joint accelerations ``ddq = FD(q, v, tau[, fext])``. See the module docstring.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    v, tau : ndarray, shape (..., model.nv)
    fext : list of model.njoints Force, or ndarray (..., model.njoints, 6), optional
        Wrench on each body, LOCAL frame of its joint; entry 0 is ignored.
    convention : Convention, default LOCAL (WORLD is not implemented yet)

    Returns
    -------
    ddq : ndarray, shape (..., model.nv), an owned copy of ``data.ddq``.

    Mirrors ``pinocchio::abaLocalConvention`` (algorithm/aba.hxx, 3.8.0). Writes liMi, v, a_gf,
    a (with the stale-oMi quirk), h, f (f[0] reset only without fext), Yaba (projected for
    parent > 0), u, ddq and the joints' U, StU, Dinv, UDinv. Raises NotPositiveDefiniteError
    naming the joint whose S^T Ia S + armature cannot be inverted.
    """
    check_local(convention, "aba")
    q, arrays, shape = state(model, q, data=data, v=v, tau=tau)
    v, tau = arrays["v"], arrays["tau"]
    fext = external_forces(model, fext, shape)
    data.v[0] = Motion.Zero()
    data.a_gf[0] = -model.gravity
    data.u = np.broadcast_to(tau, shape + (model.nv,)).copy()
    data.ddq = np.zeros(shape + (model.nv,))
    if fext is None:
        data.f[0] = Force.Zero()
    for i in range(1, model.njoints):
        _aba_forward_step1(model.joints[i], data.joints[i], model, data, q, v, shape)
        if fext is not None:
            data.f[i] = data.f[i] - Force._wrap(fext[..., i, :])
    try:
        for i in reversed(range(1, model.njoints)):
            _aba_backward_step(model.joints[i], data.joints[i], model, data)
    except NotPositiveDefiniteError as err:
        # no half-written result that looks valid: ddq and u hold NaN
        data.ddq[...] = np.nan
        data.u[...] = np.nan
        raise NotPositiveDefiniteError(
            f"aba: joint {model.names[err.joint_id]!r}: {err}", joint_id=err.joint_id) from None
    for i in range(1, model.njoints):
        _aba_forward_step2(model.joints[i], data.joints[i], model, data)
    for i in reversed(range(1, model.njoints)):
        parent = model.parents[i]
        # f_parent += liMi f_i
        data.f[parent] = data.f[parent] + data.liMi[i].act(data.f[i])
    data.mark("aba", "liMi", "v", "a_gf", "a", "h", "f", "Yaba", "u", "ddq")
    return data.ddq.copy()
