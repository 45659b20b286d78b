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

How the code maps to the loop above. Only two statements of the forward step read the parent:
``v[i]`` and the last term of ``a_gf[i]``. They run level by level: ``level.rows`` are every
joint ``i`` of one tree depth (a slice of the stacked caches), ``level.parent_rows`` their
parents' rows, which an earlier level has finished, so the result is the per-joint loop's. The
other statements read only joint i's own values and run for every joint at once (rows
``1 .. n-1``, one NumPy call each): ``jcalc`` and ``liMi`` before the first level loop,
``c_J + v_i x v_J`` and ``+= S_i a_i`` between the loop over v and the loop over a_gf, ``h`` and
``f`` after it. The forward step is then one thing split in these places; every row is written
once, so each joint has completed it (and the hooks see it, level by level) when the pass ends.
A 1-dof joint with S_i = sign e_k (every frame-axis joint, sign +1, and an unaligned joint about
-e_k: ``tree.Group.unit``): ``S_i a_i`` adds sign a_i into entry k of a_gf_i and ``S_i^T f_i`` is
sign times entry k of f_i, one gather over the joints instead of a product.

The backward step reads ``f[i]`` after every child of i has added into it, so it runs level by
level from the deepest: ``tau_i`` for the joints of the level, then their additions into the
parents in rounds (round r: the r-th child, by decreasing index, of every parent), which is
Pinocchio's order of the additions. Where C++ writes ``x += y``, the code writes
``x[i] = x[i] + y``: the rows are updated as a whole, and a row of a stacked cache that several
children share is read and written once per round. ``X = liMi.actionInverse`` is built once per
joint (``joint_calc``): ``liMi^-1 m = X m``, ``liMi f = X^T f``; cross products are 6x6 products
(``pinref/algorithms/_levels.py``).
"""

import weakref

import numpy as np

from . import steps as S
from ._args import external_forces, state
from ._levels import (Walk, crf, crm, expand, full, inputs, joint_calc, matvec, scatter,
                      segments, signed, tangent_rows, vecmat, widen)
from ..model.tree import signs


class _Plan:
    """The rows and indices the RNEA family walks, built once per Tree (its structure only; the
    model's constants are read from the Tree at each call): ``joints`` (rows 1 .. n-1), the
    levels' ``(rows, parent rows)`` (``below_root``: the levels whose parent is no universe),
    and for the whole tree (``tree_axis``, ``tree_others``) and per level, deepest first
    (``backward``: ``(level, axis, others)``): the 1-dof joints with S_i = sign e_k (the batched
    level groups) as ``(rows, k, v index, sign)``, and the other groups."""

    def __init__(self, tree):
        n = len(tree.order)
        self.joints = slice(1, n)
        self.top = tree.levels[0].rows if tree.levels else slice(1, 1)
        self.levels = [(level.rows, level.parent_rows) for level in tree.levels]
        self.below_root = [(level.rows, level.parent_rows) for level in tree.levels
                           if level.has_parent]
        self.backward = [(level, _axis_joints([g for g in level.groups if g.batched]),
                          [g for g in level.groups if not g.batched])
                         for level in reversed(tree.levels)]
        # per level of ``backward``: its S = sign e_k joints as ``(x[entry] = entry k of each
        # joint's row, tangent entries, signs)``, basic indexing where they allow it
        # (``_axis_entries``)
        self.backward_axis = [None if axis is None else _axis_entries(*axis)
                              for _, axis, _ in self.backward]
        groups = [g for level in tree.levels for g in level.groups]
        self.tree_axis = _axis_joints([g for g in groups if g.batched])
        self.tree_others = [g for g in groups if not g.batched]


def _axis_joints(groups):
    """``(rows, k, v index, sign)`` of the joints of ``groups`` with S_i = sign e_k (the
    batched level groups; sign None when all are +1), or None."""
    if not groups:
        return None
    rows = np.concatenate([np.arange(g.rows.start, g.rows.stop) for g in groups])
    k = np.concatenate([np.full(len(g.ids), g.unit[0]) for g in groups])
    return rows, k, np.concatenate([g.v_index for g in groups]), signs(groups)


def _axis_entries(rows, k, v, sign):
    """``(entry, v rows, sign)`` for ``_axis_joints``' ``(rows, k, v index, sign)``:
    ``x[entry]`` is ``x[rows, ..., k]`` (a view when the rows are consecutive and share one k)
    and the v index a slice when consecutive."""
    consecutive = lambda x: len(x) and np.array_equal(x, np.arange(x[0], x[0] + len(x)))
    if consecutive(rows) and len(set(k.tolist())) == 1:
        entry = (slice(int(rows[0]), int(rows[0]) + len(rows)), Ellipsis, int(k[0]))
    else:
        entry = (rows, Ellipsis, k)
    return entry, (slice(int(v[0]), int(v[0]) + len(v)) if consecutive(v) else v), sign


_PLANS = weakref.WeakKeyDictionary()


def _plan(T):
    plan = _PLANS.get(T.tree)
    if plan is None:
        plan = _PLANS[T.tree] = _Plan(T.tree)
    return plan


def _rnea_forward_step(call, plan, T, kin, aT, data, shape, fext):
    """Mirrors RneaForwardStep::algo for every joint (jcalc and liMi ran before: ``kin``;
    ``aT = tangent_rows(a)``); writes v, a_gf, h, f. v and the parent's term of a_gf run level
    by level, the other statements for every joint at once (module docstring). S_i a_i of a
    joint with S_i = sign e_k adds sign a_i into entry k. Reports the joints level by level at the
    end, each level followed by the driver's ``f[i] -= fext[i]`` when given."""
    J, nb = plan.joints, len(shape)
    V, A, H, F = data.v.vector, data.a_gf.vector, data.h.vector, data.f.vector
    X, vJ = kin.X, kin.vJ
    # v_i = v_J   (parent = 0)
    V[plan.top] = vJ[plan.top]
    for i, p in plan.below_root:
        # v_i = v_J + liMi^-1 v_parent   (parent > 0)
        V[i] = vJ[i] + matvec(X[i], V[p])
    # a_gf_i = c_J + v_i x v_J   (every joint)
    bias = matvec(crm(V[J]), vJ[J])
    A[J] = bias if kin.c is None else kin.c[J] + bias
    if plan.tree_axis is not None:
        rows, k, v, sign = plan.tree_axis
        # a_gf_i += S_i a_i   (S_i = sign e_k: sign a_i adds into entry k)
        A[rows, ..., k] = A[rows, ..., k] + signed(sign, aT[v])
    for group in plan.tree_others:
        S_i = data.joints[group.ids[0]].S
        # a_gf_i += S_i a_i
        A[group.rows] = A[group.rows] + matvec(S_i, segments(aT, group.v_index, group.nv, shape))
    for i, p in plan.levels:
        # a_gf_i += liMi^-1 a_gf_parent
        A[i] = A[i] + matvec(X[i], A[p])
    # h_i = Y_i v_i ; f_i = Y_i a_gf_i + v_i x* h_i   (every joint)
    Y = expand(T.inertia_matrix[J], nb)
    H[J] = matvec(Y, V[J])
    F[J] = matvec(Y, A[J]) + matvec(crf(V[J]), H[J])
    for level in T.levels:
        call.done(S.RNEA_FORWARD, level.forward_ids)
        if fext is not None:
            call.run(S.RNEA_FEXT, _fext_step, call, S.RNEA_FEXT, level, data, fext)


def _fext_step(call, step, level, data, fext):
    """The drivers' ``f[i] -= fext[i]`` right after the forward step of joint i."""
    F = data.f.vector
    ext = np.moveaxis(fext[..., level.id_index, :], -2, 0)            # (K, *fext batch, 6)
    ext = ext.reshape(ext.shape[:1] + (1,) * (F.ndim - ext.ndim) + ext.shape[1:])
    # f_i -= fext_i
    F[level.rows] = F[level.rows] - ext
    call.done(step, level.forward_ids)


def _rnea_backward_step(call, plan, kin, data, tauT, shape):
    """Mirrors RneaBackwardStep::algo for every joint, level by level from the deepest (a
    joint's f is complete once the deeper levels have added into it); accumulates tau_i
    (``tauT = tangent_rows(tau)``) and f[parent]. For the joints with S_i = sign e_k,
    S_i^T f_i is sign times entry k of f_i; the other joints multiply by their S."""
    F = data.f.vector
    for (level, _, others), axis in zip(plan.backward, plan.backward_axis):
        if axis is not None:
            entry, v, sign = axis
            # tau_i += S_i^T f_i   (S_i = sign e_k: sign times entry k of f_i)
            tauT[v] = tauT[v] + signed(sign, F[entry])
        for group in others:
            S_i = data.joints[group.ids[0]].S
            # tau_i += S_i^T f_i
            scatter(tauT, group.v_index, vecmat(F[group.rows], S_i), shape, add=True)
        if not level.has_parent:
            call.done(S.RNEA_BACKWARD, level.backward_ids)
            continue
        # f_parent += liMi f_i   (= X^T f_i), children in decreasing index, one round at a time
        Xf = vecmat(F[level.rows], kin.X[level.rows])
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
    plan = _plan(T)
    with S.Call("rnea", model, data, arguments) as call:
        data.v.vector[0] = 0.0
        data.a_gf.vector[0] = -model.gravity.vector
        # jcalc(q, v) -> M_J, S_i, v_J, c_J ; liMi = jointPlacements[i] * M_J ;
        # X = liMi.actionInverse   (every joint: no parent read)
        kin = joint_calc(T, data, q, v, shape)
        call.run(S.RNEA_FORWARD, _rnea_forward_step, call, plan, T, kin, tangent_rows(a), data,
                 shape, fext)
        call.run(S.RNEA_BACKWARD, _rnea_backward_step, call, plan, kin, data,
                 tangent_rows(data.tau), shape)
        call.run(S.RNEA_ARMATURE, _armature_step, call, model, data, a)
        call.shape = shape
    data.mark("rnea", "liMi", "v", "a_gf", "h", "f", "tau")
    return data.tau.copy()


def _nle_forward_step(plan, T, kin, data, shape):
    """Mirrors NLEForwardStep::algo for every joint: RNEA's forward step with a = 0, split in
    the same places; h is not written.

    Pinocchio evaluates v x* (Y v) in the closed form ``Y.vxiv(v)``; here it is the same 6x6
    products as RNEA's (equal up to rounding)."""
    J, nb = plan.joints, len(shape)
    V, A, F = data.v.vector, data.a_gf.vector, data.f.vector
    X, vJ = kin.X, kin.vJ
    # v_i = v_J   (parent = 0)
    V[plan.top] = vJ[plan.top]
    for i, p in plan.below_root:
        # v_i = v_J + liMi^-1 v_parent   (parent > 0)
        V[i] = vJ[i] + matvec(X[i], V[p])
    # a_gf_i = c_J + v_i x v_J   (every joint)
    bias = matvec(crm(V[J]), vJ[J])
    A[J] = bias if kin.c is None else kin.c[J] + bias
    for i, p in plan.levels:
        # a_gf_i += liMi^-1 a_gf_parent
        A[i] = A[i] + matvec(X[i], A[p])
    # f_i = Y_i a_gf_i + v_i x* (Y_i v_i)   (every joint)
    Y = expand(T.inertia_matrix[J], nb)
    F[J] = matvec(Y, A[J]) + matvec(crf(V[J]), matvec(Y, V[J]))


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
    data.v.vector[0] = 0.0
    data.a_gf.vector[0] = -model.gravity.vector
    T = Walk(model, q, v)
    plan = _plan(T)
    # jcalc(q, v) ; liMi = jointPlacements[i] * M_J ; X = liMi.actionInverse   (every joint)
    kin = joint_calc(T, data, q, v, shape)
    _nle_forward_step(plan, T, kin, data, shape)
    _rnea_backward_step(S.QUIET, plan, kin, data, tangent_rows(data.nle), shape)
    data.mark("nonLinearEffects", "liMi", "v", "a_gf", "f", "nle")
    return data.nle.copy()


def _gravity_forward_step(plan, T, kin, data, shape):
    """Mirrors ComputeGeneralizedGravityForwardStep::algo for every joint: a_gf_i = liMi^-1
    a_gf_parent level by level, then f_i = Y_i a_gf_i for every joint at once (jcalc and liMi
    ran before)."""
    J, A, F = plan.joints, data.a_gf.vector, data.f.vector
    for i, p in plan.levels:
        # a_gf_i = liMi^-1 a_gf_parent
        A[i] = matvec(kin.X[i], A[p])
    # f_i = Y_i a_gf_i   (every joint)
    F[J] = matvec(expand(T.inertia_matrix[J], len(shape)), A[J])


def _static_torque(model, data, q, fext):
    q, _, shape = state(model, q, data=data)
    (q,) = full(shape, q)
    fext = external_forces(model, fext, shape)
    widen(data, shape, "liMi", "a_gf", "f")
    out = np.zeros(shape + (model.nv,))
    data.a_gf.vector[0] = -model.gravity.vector
    T = Walk(model, q, None)
    plan = _plan(T)
    # jcalc(q) ; liMi = jointPlacements[i] * M_J ; X = liMi.actionInverse   (every joint)
    kin = joint_calc(T, data, q, None, shape)
    _gravity_forward_step(plan, T, kin, data, shape)
    if fext is not None:
        for level in T.levels:
            _fext_step(S.QUIET, S.RNEA_FEXT, level, data, fext)
    _rnea_backward_step(S.QUIET, plan, kin, data, tangent_rows(out), shape)
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
