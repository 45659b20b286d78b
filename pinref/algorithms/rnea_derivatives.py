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
        oYcrb_i = oinertias_i = oMi Y_i
        ov_i = oMi v[i] = ov_parent + oMi v_J ;                    v[i] = oMi^-1 ov_i
        oa_i = oMi a[i] = oa_parent + oMi (S_i a_i + c_J) + ov_i x oMi v_J ;  a[i] = oMi^-1 oa_i
        oa_gf_i = oa_i - gravity
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

Pinocchio forms the LOCAL v[i] = v_J + liMi^-1 v[parent] and a[i] = S_i a_i + c_J + v[i] x v_J
+ liMi^-1 a[parent] first and moves them to the world; pinref forms ov_i and oa_i first (the same
sums, mapped by oMi) and reads v[i], a[i] off them, which saves two transforms per joint.

i stands for the joint's columns ``idx_v .. idx_v + nv_i``; sub_i = the columns of the subtree
of joint i (``idx_v .. idx_v + nvSubtree[i]``), sub+_i the same without joint i's own, anc_i
the columns of its ancestors (``supports``). Entries outside these blocks couple joints of
different branches: they are zero, and neither Pinocchio nor pinref writes them (the matrix
caches are written in place).

pinref keeps oYcrb and oinertias as 6x6 matrices during the passes (one product each instead
of Pinocchio's Symmetric3 formulas); data.oYcrb[i] and data.oinertias[i] are then Inertia
objects, each read off its matrix when first accessed.
"""

import functools
from collections.abc import MutableSequence

import numpy as np

from ..errors import ModelError
from ..spatial import Force, Inertia, Motion
from ..spatial._kernels import ANGULAR, EPS, LINEAR, alpha_skew_square, matvec
from ._args import external_forces, state

# --- spatial operations this module needs (private: not in spatial/ yet) ------------------------

# Row k is [e_k]x flattened: ``p @ _SKEW_BASIS`` builds [p]x for a batch in one product (exact).
_SKEW_BASIS = np.stack([np.cross(e, np.eye(3)).T.reshape(9) for e in np.eye(3)])


def _action_matrices(M):
    """``(M.action, M.dualAction)``, the 6x6 actions of ``M = (R, p)`` on motions and forces,
    built together (one buffer, no per-entry assignments):

        X  = [[R, [p]x R], [0, R]]      X @ m.vector == M.act(m).vector
        X* = [[R, 0], [[p]x R, R]]      X* @ f.vector == M.act(f).vector ;  X*^T = M.actionInverse
    """
    R, p = M.rotation, M.translation
    pxR = (p @ _SKEW_BASIS).reshape(p.shape[:-1] + (3, 3)) @ R
    out = np.zeros(np.broadcast_shapes(R.shape[:-2], pxR.shape[:-2]) + (2, 6, 6))
    out[..., :, LINEAR, LINEAR] = out[..., :, ANGULAR, ANGULAR] = R[..., None, :, :]
    out[..., 0, LINEAR, ANGULAR] = out[..., 1, ANGULAR, LINEAR] = pxR
    return out[..., 0, :, :], out[..., 1, :, :]


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


def _body_inertia_matrices(model):
    """``model.inertias[i].matrix()`` for every joint, ``(njoints, 6, 6)`` (one kernel call)."""
    Y = Inertia._wrap(np.array([Y.mass for Y in model.inertias]),
                      np.array([Y.lever for Y in model.inertias]),
                      np.array([Y.inertia for Y in model.inertias]))
    return Y.matrix()


def _inertia_from_matrix(Y):
    """The Inertia ``(m, c, I)`` whose ``matrix()`` is the 6x6 ``Y`` ``(..., 6, 6)``:
    m = Y_LL[0, 0] ; m c = unskew(Y_AL) ; I = Y_AA + m [c]x [c]x  (c = 0 when m = 0)."""
    m = Y[..., 0, 0]
    mc = Y[..., (5, 3, 4), (1, 2, 0)]  # Y_AL = m [c]x: entries (2, 1), (0, 2), (1, 0)
    c = mc / np.maximum(m, EPS)[..., None]
    I = Y[..., ANGULAR, ANGULAR] + alpha_skew_square(m, c)
    return Inertia._wrap(m.copy(), c, 0.5 * (I + I.mT))


class _InertiasFromMatrices(MutableSequence):
    """What ``data.oYcrb`` and ``data.oinertias`` hold after a derivative algorithm: a list of
    Inertia, each read off the 6x6 matrix the passes computed (``_inertia_from_matrix``) when it
    is first accessed. Entry 0, which Pinocchio does not write, keeps its previous value."""

    def __init__(self, matrices, first):
        self._matrices = matrices
        self._items = [first] + [None] * (len(matrices) - 1)

    def __len__(self):
        return len(self._items)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        if self._items[k] is None:
            self._items[k] = _inertia_from_matrix(self._matrices[k])
        return self._items[k]

    def __setitem__(self, k, value):
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


def _store_world_inertias(data, oinertias, oYcrb):
    """``data.oinertias`` and ``data.oYcrb`` as lists of Inertia, from their 6x6 forms."""
    data.oinertias = _InertiasFromMatrices(oinertias, data.oinertias[0])
    data.oYcrb = _InertiasFromMatrices(oYcrb, data.oYcrb[0])


def _in_place(array, shape):
    """``array`` itself when it is a writable float array of exactly ``shape``, else zeros.

    Pinocchio writes its matrix caches in place, so entries a call does not write keep their
    values; reusing the buffer reproduces that and spares NumPy fresh memory on every call.
    """
    if (isinstance(array, np.ndarray) and array.shape == shape and array.dtype == np.float64
            and array.flags.writeable):
        return array
    return np.zeros(shape)


def _check_linear_gravity(model, algorithm):
    """Pinocchio's check before the RNEA and ABA derivatives: gravity must have no angular part
    (the last step takes ``gravity_lin x J.angular`` back out of dAdq, which assumes it)."""
    if np.any(model.gravity.angular != 0.0):
        raise ModelError(
            f"{algorithm}: model.gravity must be a pure linear acceleration, got angular part "
            f"{model.gravity.angular}; set model.gravity = Motion(linear, zeros(3))")


def _ancestor_columns(model, i):
    """The columns of the joints supporting joint i, without its own: the dofs Pinocchio walks
    with ``parents_fromRow`` from row idx_v. A function of the topology only (cached)."""
    return _ancestor_columns_table(tuple(model.parents), tuple(model.nvs))[i]


@functools.lru_cache(maxsize=32)
def _ancestor_columns_table(parents, nvs):
    idx_v = np.concatenate(([0], np.cumsum(nvs)))[:-1]
    table = [np.zeros(0, dtype=int)]
    for i in range(1, len(parents)):
        p = parents[i]
        own = np.arange(idx_v[p], idx_v[p] + nvs[p]) if p > 0 else np.zeros(0, dtype=int)
        table.append(np.concatenate((table[p], own)))
    return tuple(table)


def _gravity_cross(model):
    """``[gravity_lin]x`` (3x3): ``_gravity_cross(model) @ w == gravity_lin x w``."""
    return (model.gravity.linear @ _SKEW_BASIS).reshape(3, 3)


def _subtree(data, jmodel):
    """(sub_i, sub+_i): joint i's subtree columns, with and without its own."""
    end = jmodel.idx_v + data.nvSubtree[jmodel.id]
    return slice(jmodel.idx_v, end), slice(jmodel.idx_v + jmodel.nv, end)


# --- computeGeneralizedGravityDerivatives, computeStaticTorqueDerivatives -----------------------


def _gravity_derivative_forward_step(jmodel, jdata, model, data, Ybody, oYcrb, q):
    """Mirrors ComputeGeneralizedGravityDerivativeForwardStep::algo; writes liMi, oMi, of, J,
    dAdq of joint i and its world inertia ``oYcrb[i]`` (6x6)."""
    i = jmodel.id
    parent = model.parents[i]
    cols = jmodel.v_slice
    jmodel.calc(jdata, q)
    # liMi = jointPlacements[i] M_J ;  oMi = oMi[parent] liMi
    data.liMi[i] = model.jointPlacements[i] * jdata.M
    data.oMi[i] = data.oMi[parent] * data.liMi[i] if parent > 0 else data.liMi[i]
    X, Xf = _action_matrices(data.oMi[i])
    # oYcrb_i = oinertias_i = oMi Y_i   (X* Y X*^T)
    XfY = Xf @ Ybody[i]
    oYcrb[i] = XfY @ Xf.mT
    # of_i = oYcrb_i (-gravity)
    data.of[i] = Force._wrap(matvec(oYcrb[i], data.oa_gf[0].vector))
    # J_i = oMi S_i ;  dAdq_i = (-gravity) x J_i
    data.J[..., cols] = J = X @ jdata.S
    data.dAdq[..., cols] = data.oa_gf[0].action @ J


def _gravity_derivative_backward_step(jmodel, model, data, oYcrb, g, dg_dq):
    """Mirrors ComputeGeneralizedGravityDerivativeBackwardStep::algo; fills joint i's rows."""
    i = jmodel.id
    parent = model.parents[i]
    cols = jmodel.v_slice
    sub, _ = _subtree(data, jmodel)
    J, Y = data.J[..., cols], oYcrb[i]
    # dFdq_i = oYcrb_i dAdq_i ;  dg[i, sub_i] = J_i^T dFdq[sub_i]
    data.dFdq[..., cols] = Y @ data.dAdq[..., cols]
    dg_dq[..., cols, sub] = J.mT @ data.dFdq[..., sub]
    # dFdq_i += J_i x* of_i
    data.dFdq[..., cols] += _force_cross_matrix(data.of[i].vector) @ J
    # Ag_i = oYcrb_i J_i ;  dg[i, anc_i] = Ag_i^T dAdq[anc_i]
    data.Ag[..., cols] = Ag = Y @ J
    anc = _ancestor_columns(model, i)
    dg_dq[..., cols, anc] = Ag.mT @ data.dAdq[..., anc]
    # g_i = J_i^T of_i
    g[..., cols] = matvec(J.mT, data.of[i].vector)
    if parent > 0:
        # oYcrb_parent += oYcrb_i ;  of_parent += of_i
        oYcrb[parent] = oYcrb[parent] + Y
        data.of[parent] = data.of[parent] + data.of[i]


def _static_torque_derivatives(model, data, q, fext, call):
    """The two passes shared by the gravity and static-torque derivatives; returns (g, dg_dq)."""
    q, _, shape = state(model, q, data=data)
    fext = external_forces(model, fext, shape)
    model.check_compact_subtrees(call)
    nv = model.nv
    data.oa_gf[0] = -model.gravity
    for name in ("J", "dAdq", "dFdq", "Ag"):
        setattr(data, name, _in_place(getattr(data, name), shape + (6, nv)))
    g, dg_dq = np.zeros(shape + (nv,)), np.zeros(shape + (nv, nv))
    Ybody = _body_inertia_matrices(model)
    oYcrb = [None] * model.njoints
    for i in range(1, model.njoints):
        _gravity_derivative_forward_step(model.joints[i], data.joints[i], model, data, Ybody,
                                         oYcrb, q)
        if fext is not None:
            # of_i -= oMi fext_i
            data.of[i] = data.of[i] - data.oMi[i].act(Force._wrap(fext[..., i, :]))
    oinertias = list(oYcrb)
    for i in reversed(range(1, model.njoints)):
        _gravity_derivative_backward_step(model.joints[i], model, data, oYcrb, g, dg_dq)
    _store_world_inertias(data, oinertias, oYcrb)
    data.mark(call, "liMi", "oMi", "oinertias", "oYcrb", "of", "J", "dAdq", "dFdq", "Ag")
    return g, dg_dq


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
    g, dg_dq = _static_torque_derivatives(model, data, q, None,
                                          "computeGeneralizedGravityDerivatives")
    data.g = g
    data.mark("computeGeneralizedGravityDerivatives", "g")
    return dg_dq


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
    tau, dtau_dq = _static_torque_derivatives(model, data, q, fext,
                                              "computeStaticTorqueDerivatives")
    data.tau = tau
    data.mark("computeStaticTorqueDerivatives", "tau")
    return dtau_dq


# --- computeRNEADerivatives ----------------------------------------------------------------------


def _motion_derivative_columns(jmodel, model, data, Y):
    """Joint i's columns of dJ, dVdq, dAdq, dAdv and its doYcrb, from J_i, ov, oa_gf, oh.

    The closing lines of ComputeRNEADerivativesForwardStep::algo (rnea-derivatives.hxx) and of
    ComputeABADerivativesForwardStep2::algo (aba-derivatives.hxx), which are the same in both;
    ``Y`` is oYcrb_i (6x6, world frame, joint i's body only at this point).
    """
    i = jmodel.id
    parent = model.parents[i]
    cols = jmodel.v_slice
    J = data.J[..., cols]
    ov_x = data.ov[i].action  # ov x (crm); ov x* (crf) is -ov_x^T
    # dJ_i = ov_i x J_i ;  dAdq_i = oa_gf_parent x J_i ;  dAdv_i = dJ_i
    data.dJ[..., cols] = dJ = ov_x @ J
    dAdq = data.oa_gf[parent].action @ J
    if parent > 0:
        # dVdq_i = ov_parent x J_i ;  dAdq_i += ov_parent x dVdq_i ;  dAdv_i = dJ_i + dVdq_i
        ov_parent_x = data.ov[parent].action
        data.dVdq[..., cols] = dVdq = ov_parent_x @ J
        data.dAdq[..., cols] = dAdq + ov_parent_x @ dVdq
        data.dAdv[..., cols] = dJ + dVdq
    else:
        data.dVdq[..., cols] = 0.0
        data.dAdq[..., cols] = dAdq
        data.dAdv[..., cols] = dJ
    # doYcrb_i = ov_i x* oYcrb_i - oYcrb_i ov_i x + B(oh_i)
    vxY = ov_x.mT @ Y
    data.doYcrb[i] = _force_cross_matrix(data.oh[i].vector) - vxY - Y @ ov_x


def _rnea_derivatives_forward_step(jmodel, jdata, model, data, Ybody, oYcrb, q, v, a):
    """Mirrors ComputeRNEADerivativesForwardStep::algo; writes liMi, oMi, v, a, ov, oa, oa_gf,
    oh, of, J, dJ, dVdq, dAdq, dAdv, doYcrb of joint i and its world inertia ``oYcrb[i]``."""
    i = jmodel.id
    parent = model.parents[i]
    cols = jmodel.v_slice
    jmodel.calc(jdata, q, v)
    # liMi = jointPlacements[i] M_J ;  oMi = oMi[parent] liMi
    data.liMi[i] = model.jointPlacements[i] * jdata.M
    data.oMi[i] = data.oMi[parent] * data.liMi[i] if parent > 0 else data.liMi[i]
    X, Xf = _action_matrices(data.oMi[i])
    # oYcrb_i = oinertias_i = oMi Y_i   (X* Y X*^T)
    XfY = Xf @ Ybody[i]
    oYcrb[i] = Y = XfY @ Xf.mT
    # ov_i = oMi v_i = ov_parent + oMi v_J ;  v_i = oMi^-1 ov_i   (oMi^-1 = X*^T)
    XvJ = matvec(X, jdata.v.vector)
    ov = XvJ + data.ov[parent].vector if parent > 0 else XvJ
    data.ov[i], data.v[i] = Motion._wrap(ov), Motion._wrap(matvec(Xf.mT, ov))
    ov_x = data.ov[i].action  # ov x (crm); ov x* (crf) is -ov_x^T
    # oa_i = oMi a_i = oa_parent + oMi (S_i a_i + c_J) + ov_i x oMi v_J ;  a_i = oMi^-1 oa_i
    Sa_c = matvec(jdata.S, a[..., cols]) + jdata.c.vector
    oa = matvec(X, Sa_c) + matvec(ov_x, XvJ)
    if parent > 0:
        oa = oa + data.oa[parent].vector
    data.oa[i], data.a[i] = Motion._wrap(oa), Motion._wrap(matvec(Xf.mT, oa))
    # oa_gf_i = oa_i - gravity
    data.oa_gf[i] = data.oa[i] - model.gravity
    # oh_i = oYcrb_i ov_i ;  of_i = oYcrb_i oa_gf_i + ov_i x* oh_i
    data.oh[i] = oh = Force._wrap(matvec(Y, ov))
    data.of[i] = Force._wrap(matvec(Y, data.oa_gf[i].vector) - matvec(ov_x.mT, oh.vector))
    # J_i = oMi S_i
    data.J[..., cols] = X @ jdata.S
    # dJ_i, dVdq_i, dAdq_i, dAdv_i, doYcrb_i   (see _motion_derivative_columns)
    _motion_derivative_columns(jmodel, model, data, Y)


def _rnea_derivatives_backward_step(jmodel, model, data, oYcrb, dtau_dq, dtau_dv, dtau_da):
    """Mirrors ComputeRNEADerivativesBackwardStep::algo; fills joint i's rows and columns.

    dYtJ is ``data.Fcrb[0]`` (Pinocchio's scratch); oYcrb, doYcrb and of become subtree sums.
    """
    i = jmodel.id
    parent = model.parents[i]
    cols = jmodel.v_slice
    sub, sub_plus = _subtree(data, jmodel)
    J, dYtJ = data.J[..., cols], data.Fcrb[0]
    Y, dY = oYcrb[i], data.doYcrb[i]
    dAdq, dVdq, dAdv = data.dAdq[..., cols], data.dVdq[..., cols], data.dAdv[..., cols]
    dFda_plus, dYtJ_plus = data.dFda[..., sub_plus].mT, dYtJ[..., sub_plus].mT
    # tau_i = J_i^T of_i
    data.tau[..., cols] = matvec(J.mT, data.of[i].vector)
    # dFda_i = oYcrb_i J_i ;  dtau_da[i, sub_i] = J_i^T dFda[sub_i]
    data.dFda[..., cols] = Y @ J
    dtau_da[..., cols, sub] = J.mT @ data.dFda[..., sub]
    # dFdq_i = oYcrb_i dAdq_i + doYcrb_i dVdq_i
    dFdq = Y @ dAdq
    data.dFdq[..., cols] = dFdq + dY @ dVdq if parent > 0 else dFdq
    # dYtJ_i = doYcrb_i^T J_i
    dYtJ[..., cols] = dY.mT @ J
    # dtau_dq[sub+_i, i] = dFda[sub+_i]^T dAdq_i + dYtJ[sub+_i]^T dVdq_i
    dtau_q = dFda_plus @ dAdq
    dtau_dq[..., sub_plus, cols] = dtau_q + dYtJ_plus @ dVdq
    # dtau_dq[i, sub_i] = J_i^T dFdq[sub_i] ;  dFdq_i += J_i x* of_i
    dtau_dq[..., cols, sub] = J.mT @ data.dFdq[..., sub]
    data.dFdq[..., cols] += _force_cross_matrix(data.of[i].vector) @ J
    # dFdv_i = doYcrb_i J_i + oYcrb_i dAdv_i
    dFdv = dY @ J
    data.dFdv[..., cols] = dFdv + Y @ dAdv
    # dtau_dv[sub+_i, i] = dFda[sub+_i]^T dAdv_i + dYtJ[sub+_i]^T J_i
    dtau_v = dFda_plus @ dAdv
    dtau_dv[..., sub_plus, cols] = dtau_v + dYtJ_plus @ J
    # dtau_dv[i, sub_i] = J_i^T dFdv[sub_i]
    dtau_dv[..., cols, sub] = J.mT @ data.dFdv[..., sub]
    if parent > 0:
        # oYcrb_parent += oYcrb_i ;  doYcrb_parent += doYcrb_i ;  of_parent += of_i
        oYcrb[parent] = oYcrb[parent] + Y
        data.doYcrb[parent] = data.doYcrb[parent] + dY
        data.of[parent] = data.of[parent] + data.of[i]


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
    q, arrays, shape = state(model, q, data=data, v=v, a=a)
    v, a = arrays["v"], arrays["a"]
    fext = external_forces(model, fext, shape)
    model.check_compact_subtrees("computeRNEADerivatives")
    _check_linear_gravity(model, "computeRNEADerivatives")
    nv = model.nv
    data.oa_gf[0] = -model.gravity
    for name in ("J", "dJ", "dVdq", "dAdq", "dAdv", "dFda", "dFdq", "dFdv"):
        setattr(data, name, _in_place(getattr(data, name), shape + (6, nv)))
    data.tau = _in_place(data.tau, shape + (nv,))
    data.Fcrb[0] = _in_place(data.Fcrb[0], shape + (6, nv))
    data.dtau_dq, data.dtau_dv, data.M = (_in_place(getattr(data, name), shape + (nv, nv))
                                          for name in ("dtau_dq", "dtau_dv", "M"))
    dtau_dq, dtau_dv, dtau_da = data.dtau_dq, data.dtau_dv, data.M
    Ybody = _body_inertia_matrices(model)
    oYcrb = [None] * model.njoints
    for i in range(1, model.njoints):
        _rnea_derivatives_forward_step(model.joints[i], data.joints[i], model, data, Ybody,
                                       oYcrb, q, v, a)
        if fext is not None:
            # of_i -= oMi fext_i
            data.of[i] = data.of[i] - data.oMi[i].act(Force._wrap(fext[..., i, :]))
    oinertias = list(oYcrb)
    for i in reversed(range(1, model.njoints)):
        _rnea_derivatives_backward_step(model.joints[i], model, data, oYcrb, dtau_dq, dtau_dv,
                                        dtau_da)
    # dAdq.linear += gravity_lin x J.angular   (every column)
    data.dAdq[..., LINEAR, :] += _gravity_cross(model) @ data.J[..., ANGULAR, :]
    # tau += armature * a ;  diag(dtau_da) += armature ;  dtau_da lower = upper^T
    data.tau += model.armature * a
    diag = np.arange(nv)
    dtau_da[..., diag, diag] += model.armature
    lower = np.tril_indices(nv, -1)
    dtau_da[..., lower[0], lower[1]] = dtau_da[..., lower[1], lower[0]]
    _store_world_inertias(data, oinertias, oYcrb)
    data.mark("computeRNEADerivatives", "liMi", "oMi", "v", "a", "ov", "oa", "oa_gf", "oh",
              "oinertias", "oYcrb", "doYcrb", "of", "J", "dJ", "dVdq", "dAdq", "dAdv", "dFda",
              "dFdq", "dFdv", "tau", "dtau_dq", "dtau_dv", "M")
    return dtau_dq.copy(), dtau_dv.copy(), dtau_da.copy()
