"""Inverse dynamics by the Recursive Newton-Euler Algorithm (algorithm/rnea.hxx, 3.8.0).

    tau = 0 ; v[0] = 0 ; a_gf[0] = -gravity
    for i = 1 .. n-1:                                   RneaForwardStep
        jcalc(q, v)                 -> M_J, S_i, v_J, c_J
        liMi[i] = jointPlacements[i] * M_J
        v[i]    = v_J + liMi[i]^-1 v[parent]           (parent > 0)
        a_gf[i] = (c_J + v[i] x v_J) + S_i a_i + liMi[i]^-1 a_gf[parent]
        h[i]    = Y_i v[i]
        f[i]    = Y_i a_gf[i] + v[i] x* h[i]   (- fext[i])
    for i = n-1 .. 1:                                   RneaBackwardStep
        tau_i      += S_i^T f[i]
        f[parent]  += liMi[i] f[i]                     (parent > 0)
    tau += armature * a

Gravity enters only through a_gf[0] = -gravity (the "upward acceleration" of the universe).
fext[i] is the wrench on body i in the LOCAL frame of joint i.

How the code maps to the loop above. A step function takes one tree *level* (``level.rows``:
every joint ``i`` of one depth, a slice of the stacked caches; ``p``: their parents' rows) and
runs each statement of Pinocchio's per-joint step for all of them at once: a joint reads only
its parent, which an earlier level has finished, so the result is the per-joint loop's. The
backward pass adds the children into their parents in rounds (round r: the r-th child, by
decreasing index, of every parent), which is Pinocchio's order of the additions. Where C++
writes ``x += y``, the code writes ``x[i] = x[i] + y``: the rows are updated as a whole, and a
row of a stacked cache that several children share is read and written once per round.
``X = liMi.actionInverse`` is built once per joint: ``liMi^-1 m = X m``, ``liMi f = X^T f``;
cross products are 6x6 products (``pinref/algorithms/_levels.py``). The first statements of the
forward step, ``jcalc`` and ``liMi``, read no parent: they run for every joint before the level
loop, one call per kind of joint (``joint_calc``), and so does ``S_i a_i``.
"""

import numpy as np

from ..spatial import Motion
from . import steps as S
from ._args import external_forces, state
from ._levels import (Walk, crf, crm, expand, full, inputs, joint_calc, kind_subspace_times,
                      matvec, subspaces, subspace_transpose_times, tangent_rows, vecmat, widen)


def _rnea_forward_step(call, level, kin, Sa, T, data, shape):
    """Mirrors RneaForwardStep::algo for the joints of one level (jcalc, liMi and S_i a_i ran
    before the level loop: ``kin``, ``Sa``); writes their v, a_gf, h, f."""
    i, p = level.rows, level.parent_rows
    V, A, H, F = data.v.vector, data.a_gf.vector, data.h.vector, data.f.vector
    X, vJ = kin.X[i], kin.vJ[i]
    # v_i = v_J + liMi^-1 v_parent   (parent > 0)
    V[i] = vJ + matvec(X, V[p]) if level.has_parent else vJ
    # a_gf_i = (c_J + v_i x v_J) + S_i a_i + liMi^-1 a_gf_parent
    bias = matvec(crm(V[i]), vJ)
    if kin.c is not None:
        bias = kin.c[i] + bias
    A[i] = bias + Sa[i] + matvec(X, A[p])
    # h_i = Y_i v_i ; f_i = Y_i a_gf_i + v_i x* h_i
    Y = expand(T.inertia_matrix[i], len(shape))
    H[i] = matvec(Y, V[i])
    F[i] = matvec(Y, A[i]) + matvec(crf(V[i]), H[i])
    call.done(S.RNEA_FORWARD, level.forward_ids)


def _fext_step(call, step, level, data, fext):
    """The drivers' ``f[i] -= fext[i]`` right after the forward step of joint i."""
    F = data.f.vector
    ext = np.moveaxis(fext[..., level.id_index, :], -2, 0)            # (K, *fext batch, 6)
    ext = ext.reshape(ext.shape[:1] + (1,) * (F.ndim - ext.ndim) + ext.shape[1:])
    # f_i -= fext_i
    F[level.rows] = F[level.rows] - ext
    call.done(step, level.forward_ids)


def _rnea_backward_step(call, level, kin, data, tauT, shape):
    """Mirrors RneaBackwardStep::algo for the joints of one level; accumulates tau_i and
    f[parent]."""
    i, F = level.rows, data.f.vector
    # tau_i = S_i^T f_i
    subspace_transpose_times(level, subspaces(level, data), F[i], tauT, shape)
    if not level.has_parent:
        call.done(S.RNEA_BACKWARD, level.backward_ids)
        return
    # f_parent += liMi f_i   (= X^T f_i), children in decreasing index, one round at a time
    Xf = vecmat(F[i], kin.X[i])
    for children, parents, ids in level.rounds:
        F[parents] = F[parents] + Xf[children]
        call.done(S.RNEA_BACKWARD, ids)


def _armature_step(call, model, data, a):
    """``tau += armature * a``, the last statement of Pinocchio's rnea."""
    # tau += armature * a
    data.tau += model.armature * a
    call.done(S.RNEA_ARMATURE, (None,))


def rnea(model, data, q, v, a, fext=None):
    """Joint torques ``tau = ID(q, v, a[, fext])``, LOCAL frames. See the module docstring.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    v, a : ndarray, shape (..., model.nv)
    fext : list of model.njoints Force, or ndarray (..., model.njoints, 6), optional
        Wrench on each body, LOCAL frame of its joint; entry 0 is ignored.

    Returns
    -------
    tau : ndarray, shape (..., model.nv), an owned copy of ``data.tau``.

    Mirrors ``pinocchio::rnea`` (algorithm/rnea.hxx, 3.8.0). Writes ``liMi``, ``v``, ``a_gf``,
    ``h``, ``f`` (i >= 1; ``f[0]`` untouched), ``tau``, ``joints``. ``oMi`` and ``a`` are not
    written (docs/quirks.md).
    """
    arguments = inputs(q=q, v=v, a=a, fext=fext)
    q, arrays, shape = state(model, q, data=data, v=v, a=a)
    q, v, a = full(shape, q, arrays["v"], arrays["a"])
    fext = external_forces(model, fext, shape)
    widen(data, shape, "liMi", "v", "a_gf", "h", "f")
    data.tau = np.zeros(shape + (model.nv,))
    T = Walk(model, q, v)
    with S.Call("rnea", model, data, arguments) as call:
        data.v[0] = Motion.Zero()
        data.a_gf[0] = -model.gravity
        # jcalc(q, v) -> M_J, S_i, v_J, c_J ; liMi = jointPlacements[i] * M_J ;
        # X = liMi.actionInverse ; S_i a_i   (every joint: no parent read)
        kin = joint_calc(T, data, q, v, shape)
        Sa = kind_subspace_times(T, data, tangent_rows(a), shape)
        for level in T.levels:
            call.run(S.RNEA_FORWARD, _rnea_forward_step, call, level, kin, Sa, T, data, shape)
            if fext is not None:
                call.run(S.RNEA_FEXT, _fext_step, call, S.RNEA_FEXT, level, data, fext)
        tauT = tangent_rows(data.tau)
        for level in reversed(T.levels):
            call.run(S.RNEA_BACKWARD, _rnea_backward_step, call, level, kin, data, tauT, shape)
        call.run(S.RNEA_ARMATURE, _armature_step, call, model, data, a)
        call.shape = shape
    data.mark("rnea", "liMi", "v", "a_gf", "h", "f", "tau")
    return data.tau.copy()


def _nle_forward_step(level, kin, T, data, shape):
    """Mirrors NLEForwardStep::algo: RNEA's forward step with a = 0; h is not written.

    Pinocchio evaluates v x* (Y v) in the closed form ``Y.vxiv(v)``; here it is the same 6x6
    products as RNEA's (equal up to rounding)."""
    i, p = level.rows, level.parent_rows
    V, A, F = data.v.vector, data.a_gf.vector, data.f.vector
    X, vJ = kin.X[i], kin.vJ[i]
    # v_i = v_J + liMi^-1 v_parent   (parent > 0)
    V[i] = vJ + matvec(X, V[p]) if level.has_parent else vJ
    # a_gf_i = (c_J + v_i x v_J) + liMi^-1 a_gf_parent
    bias = matvec(crm(V[i]), vJ)
    if kin.c is not None:
        bias = kin.c[i] + bias
    A[i] = bias + matvec(X, A[p])
    # f_i = Y_i a_gf_i + v_i x* (Y_i v_i)
    Y = expand(T.inertia_matrix[i], len(shape))
    F[i] = matvec(Y, A[i]) + matvec(crf(V[i]), matvec(Y, V[i]))


def nonLinearEffects(model, data, q, v):
    """Coriolis, centrifugal and gravity torques ``nle = C(q, v) v + g(q)`` (= rnea(q, v, 0)).

    q : (..., model.nq) ; v : (..., model.nv) ; returns a copy of ``data.nle`` (..., model.nv).
    Mirrors ``pinocchio::nonLinearEffects`` (rnea.hxx): forward step without S a; no armature
    term; ``h`` not written. Writes liMi, v, a_gf, f, nle.
    """
    q, arrays, shape = state(model, q, data=data, v=v)
    q, v = full(shape, q, arrays["v"])
    widen(data, shape, "liMi", "v", "a_gf", "f")
    data.nle = np.zeros(shape + (model.nv,))
    data.v[0] = Motion.Zero()
    data.a_gf[0] = -model.gravity
    T = Walk(model, q, v)
    # jcalc(q, v) ; liMi = jointPlacements[i] * M_J ; X = liMi.actionInverse   (every joint)
    kin = joint_calc(T, data, q, v, shape)
    for level in T.levels:
        _nle_forward_step(level, kin, T, data, shape)
    nleT = tangent_rows(data.nle)
    for level in reversed(T.levels):
        _rnea_backward_step(S.QUIET, level, kin, data, nleT, shape)
    data.mark("nonLinearEffects", "liMi", "v", "a_gf", "f", "nle")
    return data.nle.copy()


def _gravity_forward_step(level, kin, T, data, shape):
    """Mirrors ComputeGeneralizedGravityForwardStep::algo: a_gf_i = liMi^-1 a_gf_parent,
    f_i = Y_i a_gf_i (jcalc and liMi ran before the level loop)."""
    i, p = level.rows, level.parent_rows
    A, F = data.a_gf.vector, data.f.vector
    # a_gf_i = liMi^-1 a_gf_parent
    A[i] = matvec(kin.X[i], A[p])
    # f_i = Y_i a_gf_i
    F[i] = matvec(expand(T.inertia_matrix[i], len(shape)), A[i])


def _static_torque(model, data, q, fext):
    q, _, shape = state(model, q, data=data)
    (q,) = full(shape, q)
    fext = external_forces(model, fext, shape)
    widen(data, shape, "liMi", "a_gf", "f")
    out = np.zeros(shape + (model.nv,))
    data.a_gf[0] = -model.gravity
    T = Walk(model, q, None)
    # jcalc(q) ; liMi = jointPlacements[i] * M_J ; X = liMi.actionInverse   (every joint)
    kin = joint_calc(T, data, q, None, shape)
    for level in T.levels:
        _gravity_forward_step(level, kin, T, data, shape)
        if fext is not None:
            _fext_step(S.QUIET, S.RNEA_FEXT, level, data, fext)
    outT = tangent_rows(out)
    for level in reversed(T.levels):
        _rnea_backward_step(S.QUIET, level, kin, data, outT, shape)
    return out


def computeGeneralizedGravity(model, data, q):
    """Gravity torques ``g(q)`` = rnea(q, 0, 0). q : (..., model.nq) -> (..., model.nv).

    Mirrors ``pinocchio::computeGeneralizedGravity`` (rnea.hxx). Writes liMi, a_gf, f, g
    (v and h are not written). Returns a copy of ``data.g``.
    """
    data.g = _static_torque(model, data, q, None)
    data.mark("computeGeneralizedGravity", "liMi", "a_gf", "f", "g")
    return data.g.copy()


def computeStaticTorque(model, data, q, fext):
    """Torques holding q still under gravity and ``fext``: ``g(q) - sum_i J_i^T fext_i``.

    Mirrors ``pinocchio::computeStaticTorque`` (rnea.hxx). Writes liMi, a_gf, f, tau. Returns a
    copy of ``data.tau``.
    """
    data.tau = _static_torque(model, data, q, fext)
    data.mark("computeStaticTorque", "liMi", "a_gf", "f", "tau")
    return data.tau.copy()
