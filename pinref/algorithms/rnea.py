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

How the code maps to the loop above. pinref/algorithms/scan.py owns the loops; its module
docstring says how a level step maps to Pinocchio's per-joint loop. Only two statements of the
forward step read the parent: ``v[i]`` and the last term of ``a_gf[i]``. They run level by level:
``level.rows`` are every joint ``i`` of one tree depth (a slice of the stacked caches),
``level.parent_rows`` their parents' rows, which an earlier level has finished. The other
statements read only joint i's own values and run for every joint at once (rows ``1 .. n-1``):
``jcalc`` and ``liMi`` before the first level loop, ``c_J + v_i x v_J`` and ``+= S_i a_i``
between the loop over v and the loop over a_gf, ``h`` and ``f`` after it. Every row is written
once, so each joint has completed the step when the pass ends, and the scan reports it then.
The S products go through the blocks (``T.blocks`` for the whole tree, ``level.blocks`` for a
level): the joints of one kind whose S products run in one call, behind one interface
(``block.add_St``, ``block.add_S``, ``block.tangent``; for S_i = sign e_k, ``S_i^T f_i`` is sign
times entry k of f_i).

The backward step reads ``f[i]`` after every child of i has added into it, so the scan runs it
level by level from the deepest: ``tau_i`` for the joints of the level, then the scan adds
``liMi f_i`` into the parents in Pinocchio's order. ``X = liMi.actionInverse`` is built once per
joint (``joint_calc``): ``liMi^-1 m = X m``, ``liMi f = X^T f``; cross products are 6x6 products
(``pinref/algorithms/_levels.py``).
"""

import numpy as np

from ..joints.base import tangent_rows
from . import scan
from . import steps as S
from ._levels import begin, crf, crm, inputs, joint_calc, joint_forces

matvec, vecmat = np.matvec, np.vecmat


def _rnea_forward_step(T, kin, aT, data):
    """Mirrors RneaForwardStep::algo for every joint (jcalc and liMi ran before: ``kin``;
    ``aT = tangent_rows(a)``); writes v, a_gf, h, f. v and the parent's term of a_gf run level
    by level, the other statements for every joint at once (module docstring)."""
    V, A, H, F = data.v.vector, data.a_gf.vector, data.h.vector, data.f.vector
    J, X, vJ = slice(1, None), kin.X, kin.vJ
    for level in T.levels:
        i, p = level.rows, level.parent_rows
        # v_i = v_J + liMi^-1 v_parent   (parent > 0)
        V[i] = vJ[i] + matvec(X[i], V[p]) if level.has_parent else vJ[i]
    # a_gf_i = c_J + v_i x v_J
    bias = matvec(crm(V[J]), vJ[J])
    A[J] = bias if kin.c is None else kin.c[J] + bias
    for block in T.blocks:
        # a_gf_i += S_i a_i
        block.add_S(data, A[J], block.tangent(aT))
    for level in T.levels:
        i, p = level.rows, level.parent_rows
        # a_gf_i += liMi^-1 a_gf_parent
        A[i] = A[i] + matvec(X[i], A[p])
    # h_i = Y_i v_i ; f_i = Y_i a_gf_i + v_i x* h_i
    Y = T.Y[J]
    H[J] = matvec(Y, V[J])
    F[J] = matvec(Y, A[J]) + matvec(crf(V[J]), H[J])


def _fext_step(level, data, fext):
    """The drivers' ``f[i] -= fext[i]`` right after the forward step of joint i."""
    F = data.f.vector
    # f_i -= fext_i
    F[level.rows] = F[level.rows] - joint_forces(fext, level.id_index, F.ndim)


def _rnea_backward_step(level, kin, data, tauT):
    """Mirrors RneaBackwardStep::algo for the joints i of one level (``tauT =
    tangent_rows(tau)``); returns ``f[parent] += liMi f_i`` for the scan to add."""
    i, F = level.rows, data.f.vector
    for block in level.blocks:
        # tau_i += S_i^T f_i
        block.add_St(data, tauT, F[i])
    if not level.has_parent:
        return None
    # f[parent] += liMi f_i = X^T f_i
    return ((F, vecmat(F[i], kin.X[i])),)


def _armature_step(model, data, a):
    """``tau += armature * a``, the last statement of Pinocchio's rnea."""
    # tau += armature * a
    data.tau += model.armature * a


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
    T, shape, q, v, a, fext = begin(model, data, ("liMi", "v", "a_gf", "h", "f"), q, v=v, a=a,
                                    fext=fext)
    data.tau = np.zeros(shape + (model.nv,))
    with S.Call("rnea", model, data, arguments) as call:
        data.v.vector[0] = 0.0
        data.a_gf.vector[0] = -model.gravity.vector
        # jcalc(q, v) -> M_J, S_i, v_J, c_J ; liMi = jointPlacements[i] * M_J ;
        # X = liMi.actionInverse   (every joint: no parent read)
        kin = joint_calc(T, data, q, v, shape)
        # f_i -= fext_i right after each joint's forward step (Pinocchio's order)
        scan.forward(call, S.RNEA_FORWARD, T, _rnea_forward_step, T, kin, tangent_rows(a), data,
                     then=None if fext is None else (S.RNEA_FEXT, _fext_step, data, fext))
        scan.backward(call, S.RNEA_BACKWARD, T, _rnea_backward_step, kin, data,
                      tangent_rows(data.tau))
        scan.step(call, S.RNEA_ARMATURE, (None,), _armature_step, model, data, a)
        call.shape = shape
    data.mark("rnea", "liMi", "v", "a_gf", "h", "f", "tau")
    return data.tau.copy()


def _nle_forward_step(T, kin, data):
    """Mirrors NLEForwardStep::algo for every joint: RNEA's forward step with a = 0, split in
    the same places; h is not written.

    Pinocchio evaluates v x* (Y v) in the closed form ``Y.vxiv(v)``; here it is the same 6x6
    products as RNEA's (equal up to rounding)."""
    V, A, F = data.v.vector, data.a_gf.vector, data.f.vector
    J, X, vJ = slice(1, None), kin.X, kin.vJ
    for level in T.levels:
        i, p = level.rows, level.parent_rows
        # v_i = v_J + liMi^-1 v_parent   (parent > 0)
        V[i] = vJ[i] + matvec(X[i], V[p]) if level.has_parent else vJ[i]
    # a_gf_i = c_J + v_i x v_J
    bias = matvec(crm(V[J]), vJ[J])
    A[J] = bias if kin.c is None else kin.c[J] + bias
    for level in T.levels:
        i, p = level.rows, level.parent_rows
        # a_gf_i += liMi^-1 a_gf_parent
        A[i] = A[i] + matvec(X[i], A[p])
    # f_i = Y_i a_gf_i + v_i x* (Y_i v_i)
    Y = T.Y[J]
    F[J] = matvec(Y, A[J]) + matvec(crf(V[J]), matvec(Y, V[J]))


def nonLinearEffects(model, data, q, v):
    """Coriolis, centrifugal and gravity torques ``nle = C(q, v) v + g(q)`` (= rnea(q, v, 0)).

    q : (..., model.nq) ; v : (..., model.nv) ; returns a copy of ``data.nle`` (..., model.nv).
    Mirrors ``pinocchio::nonLinearEffects`` (rnea.hxx): forward step without S a; no armature
    term; ``h`` not written. Writes liMi, v, a_gf, f, nle.
    """
    T, shape, q, v = begin(model, data, ("liMi", "v", "a_gf", "f"), q, v=v)
    data.nle = np.zeros(shape + (model.nv,))
    data.v.vector[0] = 0.0
    data.a_gf.vector[0] = -model.gravity.vector
    # jcalc(q, v) ; liMi = jointPlacements[i] * M_J ; X = liMi.actionInverse   (every joint)
    kin = joint_calc(T, data, q, v, shape)
    _nle_forward_step(T, kin, data)
    scan.backward(S.QUIET, S.RNEA_BACKWARD, T, _rnea_backward_step, kin, data,
                  tangent_rows(data.nle))
    data.mark("nonLinearEffects", "liMi", "v", "a_gf", "f", "nle")
    return data.nle.copy()


def _gravity_forward_step(T, kin, data):
    """Mirrors ComputeGeneralizedGravityForwardStep::algo for every joint: a_gf_i = liMi^-1
    a_gf_parent level by level, then f_i = Y_i a_gf_i for every joint at once (jcalc and liMi
    ran before)."""
    J, A, F = slice(1, None), data.a_gf.vector, data.f.vector
    for level in T.levels:
        i, p = level.rows, level.parent_rows
        # a_gf_i = liMi^-1 a_gf_parent
        A[i] = matvec(kin.X[i], A[p])
    # f_i = Y_i a_gf_i
    F[J] = matvec(T.Y[J], A[J])


def _static_torque(model, data, q, fext):
    T, shape, q, fext = begin(model, data, ("liMi", "a_gf", "f"), q, fext=fext)
    out = np.zeros(shape + (model.nv,))
    data.a_gf.vector[0] = -model.gravity.vector
    # jcalc(q) ; liMi = jointPlacements[i] * M_J ; X = liMi.actionInverse   (every joint)
    kin = joint_calc(T, data, q, None, shape)
    scan.forward(S.QUIET, S.RNEA_FORWARD, T, _gravity_forward_step, T, kin, data,
                 then=None if fext is None else (S.RNEA_FEXT, _fext_step, data, fext))
    scan.backward(S.QUIET, S.RNEA_BACKWARD, T, _rnea_backward_step, kin, data, tangent_rows(out))
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
