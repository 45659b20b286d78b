"""Pinocchio's value of every field at every stop of a pass, from pin's end state.

Pinocchio exposes only the state a call leaves. A field that no later stop overwrites (liMi,
v, h, the joint data, Yaba[i] after joint i's backward step, ddq, ...) is compared with that
end state. A field that a later stop overwrites or accumulates into (ABA's a_gf during pass 1
and 2, f during passes 1 to 4, the partial Yaba[parent] sums, RNEA's f, CRBA's Ycrb sums) is
rebuilt from pin's end state with the pass's own equation, in dense 6x6 form and with the
children taken in the order the pass takes them; the hidden ``u`` and ``StU`` likewise.
docs/tools.md lists every field of every stop with its source.

Everything here is NumPy on arrays with one leading state axis B, independent of pinref's
spatial classes (so that a mistake in pinref's algebra is not copied into the reference); it
shares only the names of the slices of a spatial vector, LINEAR and ANGULAR.
"""

import numpy as np

from ..spatial import ANGULAR, LINEAR
from ..tracing import steps as S

END = "pin end state"


def skew(w):
    """[w]x for w (..., 3)."""
    z = np.zeros(w.shape[:-1])
    return np.stack([np.stack([z, -w[..., 2], w[..., 1]], -1),
                     np.stack([w[..., 2], z, -w[..., 0]], -1),
                     np.stack([-w[..., 1], w[..., 0], z], -1)], -2)


def _blocks(a, b, c, d):
    return np.concatenate([np.concatenate([a, b], -1), np.concatenate([c, d], -1)], -2)


def dual_action(H):
    """The 6x6 force action of the placement H (..., 4, 4): f' = R f ; n' = R n + p x R f."""
    R, p = H[..., :3, :3], H[..., :3, 3]
    return _blocks(R, np.zeros_like(R), skew(p) @ R, R)


def rotated_inertia(R, I):
    """Pinocchio's ``Symmetric3::rotate``: ``R I R^T`` for an orthonormal R, and for any other
    R (a quaternion a little off unit length) what its formula gives, here in matrix form.
    With L = the first two columns of ``I - I_zz Id``, its third row doubled, G = R L R[:, :2]^T
    and u = R (-I_yz, I_xz, 0): below the diagonal G + [u]x, on it
    (tr I - 2 I_zz - G_11 - G_22, G_11 + I_zz, G_22 + I_zz); symmetric."""
    zz = I[..., 2, 2]
    L = I[..., :, :2] - zz[..., None, None] * np.eye(3)[:, :2]
    L = L * np.array([1.0, 1.0, 2.0])[:, None]
    G = R @ L @ np.swapaxes(R[..., :, :2], -1, -2)
    u = mv(R, np.stack([-I[..., 2, 1], I[..., 2, 0], np.zeros_like(zz)], -1))
    lower = np.tril(G + skew(u), -1)
    diag = np.stack([np.trace(I, axis1=-2, axis2=-1) - 2 * zz - G[..., 1, 1] - G[..., 2, 2],
                     G[..., 1, 1] + zz, G[..., 2, 2] + zz], -1)
    return lower + np.swapaxes(lower, -1, -2) + diag[..., None] * np.eye(3)


def inertia_parts(Y):
    """(m, c, I) of the inertia whose 6x6 matrix is Y (..., 6, 6): m = Y_LL[0, 0],
    m [c]x = Y_AL, I = Y_AA + m [c]x [c]x (c = 0 where m = 0)."""
    m = Y[..., 0, 0]
    mc = np.stack([Y[..., 5, 1], Y[..., 3, 2], Y[..., 4, 0]], -1)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(m[..., None] > 0, mc / m[..., None], 0.0)
    return m, c, Y[..., ANGULAR, ANGULAR] + m[..., None, None] * (skew(c) @ skew(c))


def inertia_action(H, m, c, I):
    """The 6x6 matrix of Pinocchio's ``M.act(Y)`` for the placement H (..., 4, 4) and the
    inertia (m, c, I): mass m, lever c' = R c + p, rotational inertia ``rotated_inertia(R, I)``,
    ``[[m Id, -m [c']x], [m [c']x, I' - m [c']x [c']x]]``. It is ``X* Y X*^T`` (X* the force
    action of H) only when R is orthonormal."""
    R, p = H[..., :3, :3], H[..., :3, 3]
    m = np.asarray(m, dtype=float)[..., None, None]
    cx = skew(mv(R, c) + p)
    I = rotated_inertia(R, I) - m * (cx @ cx)
    return _blocks(np.broadcast_to(m * np.eye(3), cx.shape), -m * cx, m * cx, I)


def motion_cross(v):
    """v x . on motions (crm): [[w x, vlin x], [0, w x]]."""
    w, lin = skew(v[..., ANGULAR]), skew(v[..., LINEAR])
    return _blocks(w, lin, np.zeros_like(w), w)


def force_cross(v):
    """v x* . on forces (crf): [[w x, 0], [vlin x, w x]]."""
    w, lin = skew(v[..., ANGULAR]), skew(v[..., LINEAR])
    return _blocks(w, np.zeros_like(w), lin, w)


def mv(A, x):
    return (A @ x[..., None])[..., 0]


def mag(A, x):
    """|A| |x|: the entry-wise magnitudes of the terms of A x (A (..., m, n), x (..., n))."""
    return mv(np.abs(A), np.abs(x))


class Reference:
    """``(step, joint, cache, index) -> (array (B, ...), source)``; ``joint`` is the stop's joint
    (None for the drivers' exit writes), ``index`` the element written (as in
    ``pinref.tracing.Write``). Arrays hold the whole field (``Write.take`` cuts the entries).

    A value rebuilt as a sum of terms (a difference of large ones among them) may carry
    ``terms``: an array of its shape bounding, entry-wise, the magnitudes of everything summed
    into it (its own terms and, through them, the terms of the rebuilt values it reads). Its
    rounding, and pin's and pinref's, is about eps times those magnitudes, not eps times the
    value: ``terms(...)`` gives them to the judge. ``end_terms(cache, index)`` gives those of
    the last value put for a field, the one the end state holds."""

    def __init__(self):
        self.values, self.magnitudes, self.last = {}, {}, {}

    def put(self, step, joint, cache, index, value, source=END, terms=None):
        self.values[step, joint, cache, index] = (value, source)
        self.magnitudes[step, joint, cache, index] = terms
        self.last[cache, index] = terms

    def get(self, step, joint, cache, index):
        return self.values.get((step, joint, cache, index))

    def terms(self, step, joint, cache, index):
        return self.magnitudes.get((step, joint, cache, index))

    def end_terms(self, cache, index):
        return self.last.get((cache, index))


def _joint_fields(ref, step, i, P, names):
    for name in names:
        ref.put(step, i, f"joints.{name}", i, P[f"joints.{name}", i])


def aba_reference(ref, model, P, tau, fext):
    """Fill ``ref`` for ABA; return the reconstructed u (B, nv).

    Pass 1: c_i = c_J + v_i x v_J ; pA_i = v_i x* h_i (- fext_i).
    Pass 2 (children in decreasing id): u_i = tau_i - S_i^T pA_i ; StU_i = S_i^T U_i + armature
    ; pa_i = pA_i + Yaba_i c_i + UDinv_i u_i ; Yaba[p] = Y_p + sum X* Yaba_c X*^T and
    pA_p += X* pa_c over the children processed so far.
    Pass 3: f_i = Y_i a_gf_i + v_i x* h_i.  Pass 4: f[p] = f3_p + sum X* f_c (f_c: end state).
    """
    n, B = model.njoints, tau.shape[0]
    Y = [np.broadcast_to(y, (B, 6, 6)) for y in model.Ymatrix]
    X = {i: dual_action(P["liMi", i]) for i in range(1, n)}
    c, pA = {}, {0: np.zeros((B, 6))}
    ref.put(S.ABA_INIT, 0, "f", 0, pA[0], "f[0] = 0 (the overload without fext)")
    for i in range(1, n):
        st = S.ABA_FORWARD1
        _joint_fields(ref, st, i, P, ("M", "S", "v", "c"))
        for name in ("liMi", "v", "h"):
            ref.put(st, i, name, i, P[name, i])
        c[i] = P["joints.c", i] + mv(motion_cross(P["v", i]), P["joints.v", i])
        ref.put(st, i, "a_gf", i, c[i], "rebuilt: c_i = c_J + v_i x v_J (pin's v, joints.v, c)")
        ref.put(st, i, "Yaba", i, Y[i], "pin: model.inertias[i].matrix()")
        pA[i] = mv(force_cross(P["v", i]), P["h", i])
        ref.put(st, i, "f", i, pA[i], "rebuilt: pA_i = v_i x* h_i (pin's v, h)")
        if fext is not None:
            pA[i] = pA[i] - fext[:, i]
            ref.put(S.ABA_FEXT, i, "f", i, pA[i], "rebuilt: pA_i = v_i x* h_i - fext_i")
    u = np.array(tau, dtype=float, copy=True)
    tA = {i: np.abs(pA[i]) for i in range(n)}
    tu = np.abs(u)
    Yacc = {i: Y[i] for i in range(n)}
    for i in reversed(range(1, n)):
        st, p, iv = S.ABA_BACKWARD, model.parents[i], model.v_slices[i]
        Sj, U = P["joints.S", i], P["joints.U", i]
        u[:, iv] = tau[:, iv] - mv(np.swapaxes(Sj, -1, -2), pA[i])
        tu[:, iv] = np.abs(tau[:, iv]) + mag(np.swapaxes(Sj, -1, -2), tA[i])
        ref.put(st, i, "u", None, u.copy(), "rebuilt: u_i = tau_i - S_i^T pA_i, pA_i from pin's "
                "caches (pass 1, children's pa)", tu.copy())
        _joint_fields(ref, st, i, P, ("U", "Dinv", "UDinv"))
        StU = np.swapaxes(Sj, -1, -2) @ U + np.diag(model.armature[iv])
        ref.put(st, i, "joints.StU", i, StU, "rebuilt: StU_i = S_i^T U_i + diag(armature_i)")
        ref.put(st, i, "Yaba", i, P["Yaba", i])
        if p > 0:
            pa = pA[i] + mv(P["Yaba", i], c[i]) + mv(P["joints.UDinv", i], u[:, iv])
            ta = tA[i] + mag(P["Yaba", i], c[i]) + mag(P["joints.UDinv", i], tu[:, iv])
            ref.put(st, i, "f", i, pa, "rebuilt: pa_i = pA_i + Yaba_i c_i + UDinv_i u_i", ta)
            Yacc[p] = Yacc[p] + X[i] @ P["Yaba", i] @ np.swapaxes(X[i], -1, -2)
            ref.put(st, i, "Yaba", p, Yacc[p], "rebuilt: Y_p + sum over the children done so "
                    "far of X* Yaba_c X*^T (pin's liMi, Yaba)")
            pA[p] = pA[p] + mv(X[i], pa)
            tA[p] = tA[p] + mag(X[i], ta)
            ref.put(st, i, "f", p, pA[p], "rebuilt: pA_p + sum over the children done so far "
                    "of liMi_c pa_c", tA[p])
    f, tf = {0: np.zeros((B, 6))}, {0: np.zeros((B, 6))}
    for i in range(1, n):
        st, iv = S.ABA_FORWARD2, model.v_slices[i]
        for name in ("a_gf", "a"):
            ref.put(st, i, name, i, P[name, i])
        ref.put(st, i, "ddq", None, P["ddq", None])
        f[i] = mv(Y[i], P["a_gf", i]) + mv(force_cross(P["v", i]), P["h", i])
        tf[i] = mag(Y[i], P["a_gf", i]) + mag(force_cross(P["v", i]), P["h", i])
        ref.put(st, i, "f", i, f[i], "rebuilt: f_i = Y_i a_gf_i + v_i x* h_i (pin's a_gf, v, h)",
                tf[i])
    _sums(ref, S.ABA_FINAL_LOOP, model, "f", f, tf, lambda i, x: mv(X[i], x),
          lambda i, t: mag(X[i], t), lambda i: P["f", i],
          "rebuilt: f_p (pass 3) + sum over the children done so far of liMi_c f_c (pin's "
          "end f)")
    return u


def _sums(ref, step, model, cache, f, tf, act, act_terms, end, source):
    """Pass 4 of ABA: f_p += act(f_c) over the children c in decreasing id, f_c from pin's end
    state; the terms of f_c are those of its own sum (``tf``, filled as c's children are)."""
    for i in reversed(range(1, len(model.parents))):
        p = model.parents[i]
        f[p] = f[p] + act(i, end(i))
        tf[p] = tf[p] + act_terms(i, tf[i])
        ref.put(step, i, cache, p, f[p], source, tf[p])


def rnea_reference(ref, model, P, a, fext):
    """Fill ``ref`` for RNEA.

    Forward: f_i = Y_i a_gf_i + v_i x* h_i (- fext_i). Backward (children in decreasing id):
    tau_i = S_i^T f_i = tau_end - armature a ; f_p = f_p(forward) + sum X* f_c (f_c: end).
    """
    n, B = model.njoints, a.shape[0]
    Y = [np.broadcast_to(y, (B, 6, 6)) for y in model.Ymatrix]
    f = {}
    for i in range(1, n):
        st = S.RNEA_FORWARD
        _joint_fields(ref, st, i, P, ("M", "S", "v", "c"))
        for name in ("liMi", "v", "a_gf", "h"):
            ref.put(st, i, name, i, P[name, i])
        f[i] = mv(Y[i], P["a_gf", i]) + mv(force_cross(P["v", i]), P["h", i])
        ref.put(st, i, "f", i, f[i], "rebuilt: f_i = Y_i a_gf_i + v_i x* h_i (pin's a_gf, v, h)")
        if fext is not None:
            f[i] = f[i] - fext[:, i]
            ref.put(S.RNEA_FEXT, i, "f", i, f[i], "rebuilt: f_i = Y_i a_gf_i + v_i x* h_i - "
                    "fext_i")
    tau = P["tau", None] - model.armature * a
    for i in reversed(range(1, n)):
        p = model.parents[i]
        ref.put(S.RNEA_BACKWARD, i, "tau", None, tau, "rebuilt: S_i^T f_i = pin's tau - "
                "armature * a")
        if p > 0:
            f[p] = f[p] + mv(dual_action(P["liMi", i]), P["f", i])
            ref.put(S.RNEA_BACKWARD, i, "f", p, f[p], "rebuilt: f_p (forward pass) + sum over "
                    "the children done so far of liMi_c f_c (pin's end f)")
    ref.put(S.RNEA_ARMATURE, None, "tau", None, P["tau", None])


def crba_reference(ref, model, P):
    """Fill ``ref`` for CRBA.

    Forward: Ycrb_i = Y_i. Backward (children in decreasing id): Fcrb and the block rows of M
    from the end state (M minus its armature diagonal); Ycrb_p = Y_p + sum X* Ycrb_c X*^T.
    Exit: M with only the entries the core routine writes, then the symmetric M.
    """
    n, nv = model.njoints, model.nv
    B = P["M", None].shape[0]
    Y = [np.broadcast_to(y, (B, 6, 6)) for y in model.Ymatrix]
    for i in range(1, n):
        st = S.CRBA_FORWARD
        _joint_fields(ref, st, i, P, ("M", "S"))
        ref.put(st, i, "liMi", i, P["liMi", i])
        ref.put(st, i, "Ycrb", i, Y[i], "pin: model.inertias[i].matrix()")
    diag = np.arange(nv)
    M = P["M", None].copy()
    M[:, diag, diag] -= model.armature
    written = np.zeros((nv, nv), dtype=bool)
    Yacc = {i: Y[i] for i in range(n)}
    for i in reversed(range(1, n)):
        st, p = S.CRBA_BACKWARD, model.parents[i]
        start = model.idx_vs[i]
        written[start:start + model.nvs[i], start:start + model.nvSubtree[i]] = True
        ref.put(st, i, "Fcrb", i, P["Fcrb", i])
        ref.put(st, i, "M", None, M, "rebuilt: pin's M minus diag(armature)")
        if p > 0:
            Yacc[p] = Yacc[p] + inertia_action(P["liMi", i], *inertia_parts(P["Ycrb", i]))
            ref.put(st, i, "Ycrb", p, Yacc[p], "rebuilt: Y_p + sum over the children done so "
                    "far of liMi Ycrb_c (pin's liMi, Ycrb)")
            ref.put(st, i, "Fcrb", p, P["Fcrb", p])
    ref.put(S.CRBA_ARMATURE, None, "M", None, np.where(written, P["M", None], 0.0),
            "rebuilt: pin's M on the block rows the core routine writes, 0 elsewhere")
    ref.put(S.CRBA_SYMMETRIC, None, "M", None, P["M", None])


def _columns(model, P, i):
    """Joint i's columns of pin's J (B, 6, nv_i)."""
    return P["J", None][..., model.v_slices[i]]


def aba_world_reference(ref, model, P, tau, fext):
    """Fill ``ref`` for ABA in the WORLD convention; return the reconstructed u (B, nv).

    Pass 1: bias_i = oa_gf_i - oa_gf_p - J_i ddq_i (pass 3 undone) ; oinertias_i = oMi Y_i ;
    oYaba_i = oYcrb_i ; of_i = ov_i x* oh_i (- oMi fext_i). Pass 2 (children in decreasing id):
    u_i = tau_i - J_i^T of_i ; StU_i = J_i^T U_i + armature ; of_i += oYaba_i bias_i + UDinv_i
    u_i ; oYaba[p] = oYcrb_p + sum oYaba_c and of_p += of_c over the children done so far.
    Pass 3: oa_gf_i = oa_gf_p + J_i ddq_i, a sum over the branch whose terms carry the world
    lever arms (their magnitudes go with it, ``Reference``) ; of_i = oYcrb_i oa_gf_i + ov_i x*
    oh_i. Pass 4 (no fext): of[p] = of3_p + sum of_c
    (of_c: end state).
    """
    n, B = model.njoints, tau.shape[0]
    OA0 = np.broadcast_to(-model.gravity, (B, 6))
    oa_gf = {0: OA0}
    bias, pA, tbias = {}, {}, {}
    if fext is None:
        ref.put(S.ABA_WORLD_INIT, 0, "of", 0, np.zeros((B, 6)), "of[0] = 0 (without fext)")
    for i in range(1, n):
        st, p = S.ABA_WORLD_FORWARD1, model.parents[i]
        _joint_fields(ref, st, i, P, ("M", "S", "v", "c"))
        for name in ("liMi", "oMi", "ov", "oh", "oYcrb"):
            ref.put(st, i, name, i, P[name, i])
        ref.put(st, i, "J", None, P["J", None])
        oa_gf[i] = P["oa_gf", i]
        ddq_i = P["ddq", None][:, model.v_slices[i]]
        bias[i] = oa_gf[i] - oa_gf[p] - mv(_columns(model, P, i), ddq_i)
        tbias[i] = np.abs(oa_gf[i]) + np.abs(oa_gf[p]) + mag(_columns(model, P, i), ddq_i)
        ref.put(st, i, "oa_gf", i, bias[i], "rebuilt: oa_gf_i - oa_gf_parent - J_i ddq_i (pin's "
                "oa_gf, J, ddq: pass 3 undone)", tbias[i])
        Yw = inertia_action(P["oMi", i], *model.inertias[i])
        ref.put(st, i, "oinertias", i, Yw, "rebuilt: oMi Y_i (pin's oMi, model.inertias[i])")
        ref.put(st, i, "oYaba", i, P["oYcrb", i], "pin: oYcrb[i], the body's inertia")
        pA[i] = mv(force_cross(P["ov", i]), P["oh", i])
        ref.put(st, i, "of", i, pA[i], "rebuilt: ov_i x* oh_i (pin's ov, oh)")
        if fext is not None:
            pA[i] = pA[i] - mv(dual_action(P["oMi", i]), fext[:, i])
            ref.put(S.ABA_WORLD_FEXT, i, "of", i, pA[i], "rebuilt: ov_i x* oh_i - oMi fext_i")
    u = np.array(tau, dtype=float, copy=True)
    tA = {i: np.abs(pA[i]) for i in range(1, n)}
    tu = np.abs(u)
    Yacc = {i: P["oYcrb", i] for i in range(1, n)}
    for i in reversed(range(1, n)):
        st, p, iv = S.ABA_WORLD_BACKWARD, model.parents[i], model.v_slices[i]
        J, U = _columns(model, P, i), P["joints.U", i]
        u[:, iv] = tau[:, iv] - mv(np.swapaxes(J, -1, -2), pA[i])
        tu[:, iv] = np.abs(tau[:, iv]) + mag(np.swapaxes(J, -1, -2), tA[i])
        ref.put(st, i, "u", None, u.copy(), "rebuilt: u_i = tau_i - J_i^T of_i, of_i from pin's "
                "caches (pass 1, children's)", tu.copy())
        _joint_fields(ref, st, i, P, ("U", "Dinv", "UDinv"))
        StU = np.swapaxes(J, -1, -2) @ U + np.diag(model.armature[iv])
        ref.put(st, i, "joints.StU", i, StU, "rebuilt: StU_i = J_i^T U_i + diag(armature_i)")
        if p > 0:
            ref.put(st, i, "oYaba", i, P["oYaba", i])
            pa = pA[i] + mv(P["oYaba", i], bias[i]) + mv(P["joints.UDinv", i], u[:, iv])
            ta = (tA[i] + mag(P["oYaba", i], tbias[i])
                  + mag(P["joints.UDinv", i], tu[:, iv]))
            ref.put(st, i, "of", i, pa, "rebuilt: of_i + oYaba_i bias_i + UDinv_i u_i", ta)
            Yacc[p] = Yacc[p] + P["oYaba", i]
            ref.put(st, i, "oYaba", p, Yacc[p], "rebuilt: oYcrb_p + sum over the children done "
                    "so far of oYaba_c (pin's oYcrb, oYaba)")
            pA[p] = pA[p] + pa
            tA[p] = tA[p] + ta
            ref.put(st, i, "of", p, pA[p], "rebuilt: of_p + sum over the children done so far "
                    "of of_c", tA[p])
    f, tf = {0: np.zeros((B, 6))}, {0: np.zeros((B, 6))}
    ta = {0: np.abs(OA0)}
    for i in range(1, n):
        st, p = S.ABA_WORLD_FORWARD2, model.parents[i]
        ta[i] = ta[p] + mag(_columns(model, P, i), P["ddq", None][:, model.v_slices[i]])
        ref.put(st, i, "oa_gf", i, P["oa_gf", i], terms=ta[i])
        ref.put(st, i, "oa", i, P["oa", i], terms=ta[i] + np.abs(OA0))
        ref.put(st, i, "ddq", None, P["ddq", None])
        f[i] = mv(P["oYcrb", i], P["oa_gf", i]) + mv(force_cross(P["ov", i]), P["oh", i])
        tf[i] = mag(P["oYcrb", i], P["oa_gf", i]) + mag(force_cross(P["ov", i]), P["oh", i])
        ref.put(st, i, "of", i, f[i], "rebuilt: oYcrb_i oa_gf_i + ov_i x* oh_i (pin's oYcrb, "
                "oa_gf, ov, oh)", tf[i])
    if fext is not None:
        return u
    _sums(ref, S.ABA_WORLD_FINAL_LOOP, model, "of", f, tf, lambda i, x: x, lambda i, t: t,
          lambda i: P["of", i], "rebuilt: of_p (pass 3) + sum over the children done so far of "
          "of_c (pin's end of)")
    return u


def crba_world_reference(ref, model, P):
    """Fill ``ref`` for CRBA in the WORLD convention.

    Forward: oYcrb_i = oMi Y_i. Backward (children in decreasing id): Ag[:, cols_i] = oYcrb_i
    J_i (pin's end composite) ; the block rows of M from the end state (M minus its armature
    diagonal) ; oYcrb_p = oMi Y_p + sum oYcrb_c over the children done so far (p = 0: from 0).
    Exit: M with only the entries the core routine writes, Ag, then the symmetric M.
    """
    n, nv = model.njoints, model.nv
    B = P["M", None].shape[0]
    ref.put(S.CRBA_WORLD_INIT, 0, "oYcrb", 0, np.zeros((B, 6, 6)), "oYcrb[0] = 0")
    Yacc = {0: np.zeros((B, 6, 6))}
    for i in range(1, n):
        st = S.CRBA_WORLD_FORWARD
        _joint_fields(ref, st, i, P, ("M", "S"))
        for name in ("liMi", "oMi"):
            ref.put(st, i, name, i, P[name, i])
        ref.put(st, i, "J", None, P["J", None])
        Yacc[i] = inertia_action(P["oMi", i], *model.inertias[i])
        ref.put(st, i, "oYcrb", i, Yacc[i], "rebuilt: oMi Y_i (pin's oMi, model.inertias[i])")
    diag = np.arange(nv)
    M = P["M", None].copy()
    M[:, diag, diag] -= model.armature
    written = np.zeros((nv, nv), dtype=bool)
    Ag = np.zeros_like(P["Ag", None])
    for i in reversed(range(1, n)):
        st, p, iv = S.CRBA_WORLD_BACKWARD, model.parents[i], model.v_slices[i]
        start = model.idx_vs[i]
        written[start:start + model.nvs[i], start:start + model.nvSubtree[i]] = True
        Ag[..., iv] = P["oYcrb", i] @ _columns(model, P, i)
        ref.put(st, i, "Ag", None, Ag.copy(), "rebuilt: oYcrb_i J_i (pin's end oYcrb, J)")
        ref.put(st, i, "M", None, M, "rebuilt: pin's M minus diag(armature)")
        Yacc[p] = Yacc[p] + P["oYcrb", i]
        ref.put(st, i, "oYcrb", p, Yacc[p], "rebuilt: oMi Y_p + sum over the children done so "
                "far of oYcrb_c (pin's oMi, oYcrb)")
    ref.put(S.CRBA_WORLD_ARMATURE, None, "M", None, np.where(written, P["M", None], 0.0),
            "rebuilt: pin's M on the block rows the core routine writes, 0 elsewhere")
    for name, index in (("mass", 0), ("com", 0), ("Ag", None)):
        ref.put(S.CRBA_WORLD_CENTROIDAL, None, name, index, P[name, index])
    ref.put(S.CRBA_SYMMETRIC, None, "M", None, P["M", None])


class ModelInfo:
    """What the reference needs of the model, read from the pin Model: parents, index ranges,
    nvSubtree, the inertias (m, c, I) and their 6x6 matrices (pin's ``Inertia.matrix()``) and
    the armature."""

    def __init__(self, pin_model, nv_subtree):
        self.njoints, self.nv = pin_model.njoints, pin_model.nv
        self.parents = [int(p) for p in pin_model.parents]
        self.idx_vs = [int(k) for k in pin_model.idx_vs]
        self.nvs = [int(k) for k in pin_model.nvs]
        self.v_slices = [slice(s, s + n) for s, n in zip(self.idx_vs, self.nvs)]
        self.nvSubtree = list(nv_subtree)
        self.Ymatrix = [np.array(Y.matrix()) for Y in pin_model.inertias]
        self.inertias = [(float(Y.mass), np.array(Y.lever, dtype=float),
                          np.array(Y.inertia, dtype=float)) for Y in pin_model.inertias]
        self.armature = np.array(pin_model.armature, dtype=float)
        self.gravity = np.array(pin_model.gravity.vector, dtype=float)
