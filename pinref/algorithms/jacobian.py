"""Joint Jacobians and their time variation (algorithm/jacobian.hxx, 3.8.0).

A Jacobian is a (..., 6, nv) matrix whose column k is the spatial motion produced by a unit
velocity of dof k. ``data.J`` holds every column in the WORLD frame (world axes, world origin);
a joint's Jacobian in another frame is read off it by ``getJointJacobian``.

    computeJointJacobians(q):                                   JointJacobiansForwardStep
        for i = 1 .. n-1:
            jcalc(q)                            -> M_J, S_i
            liMi[i]      = jointPlacements[i] * M_J
            oMi[i]       = oMi[parent] * liMi[i]          (liMi[i] if parent == 0)
            J[:, cols_i] = oMi[i] S_i                     (column by column, motion action)
    computeJointJacobians():  J[:, cols_i] = oMi[i] S_i with the stored oMi   (...ForwardStep2)

    getJointJacobian(i, rf):                                    details::translateJointJacobian
        on the columns k of the joints supporting i (all other columns are 0), p = oMi[i]:
            WORLD                 J_k
            LOCAL_WORLD_ALIGNED   J_k, then linear -= p.translation x angular
            LOCAL                 p^-1 J_k

    computeJointJacobian(q, i), LOCAL without data.J:           JointJacobianLocalBackwardStep
        iMf[i] = I
        for j = i, parent(i), ..., while j > 0:
            jcalc(q) ; liMi[j] = jointPlacements[j] * M_J
            iMf[parent(j)] = liMi[j] * iMf[j]             (frame i seen from joint parent(j))
            J[:, cols_j]   = iMf[j]^-1 S_j

    computeJointJacobiansTimeVariation(q, v):          JointJacobiansTimeVariationForwardStep
        for i = 1 .. n-1:
            jcalc(q, v) ; liMi, oMi as above ; v[i] = v_J + liMi[i]^-1 v[parent]
            J[:, cols_i]  = oMi[i] S_i
            ov[i]         = oMi[i] v[i]
            dJ[:, cols_i] = ov[i] x J[:, cols_i]
    getJointJacobianTimeVariation(i, rf): dJ translated as J above, then on the support columns
            LOCAL                 dJ_k -= v[i] x (oMi[i]^-1 J_k)
            LOCAL_WORLD_ALIGNED   dJ_k.linear -= (ov[i].linear + ov[i].angular x p) x J_k.angular

How computeJointJacobians and computeJointJacobiansTimeVariation map to the loops above: jcalc
and liMi read no parent and run for every joint before the level loop (``joint_calc``); oMi
(and v) run for all the joints of one tree level at once (``kinematics.world_placements``; see
kinematics.py); the column statements (J, ov, dJ) read only joint i's own rows, so they run for
every joint after the level loop, in one action over all of J's columns (``world_columns``:
column k gathers the oMi of its joint), written through a view with the column axis first. The
single-joint and single-frame Jacobians (computeJointJacobian, and computeFrameJacobian in
frames.py) visit only the joints that support the target, as Pinocchio: jcalc and liMi for all
of them at once, the chain of placements (oMi root to tip, iMf tip to root) one joint at a
time, then every supporting joint's columns in one action.

Every public function returns an owned array; ``get*`` functions read the caches written by a
``compute*`` call on the same Data and raise NotComputedError when there is none.
"""

import math
import operator
import weakref

import numpy as np

from ..errors import ModelError
from ..model.tree import tree
from ..spatial import SE3, Motion
from ..spatial._kernels import (LINEAR, act_inv_motion, act_motion, cross, halves, matvec,
                                motion_cross_motion, mT, stack6)
from ._args import ReferenceFrame, check_data, state
from ._levels import Walk, expand, full, joint_calc, widen
from .kinematics import world_placements

_FIX_J = "computeJointJacobians(model, data, q)"
_FIX_DJ = "computeJointJacobiansTimeVariation(model, data, q, v)"


# --- argument checks shared by the kinematic queries (frames.py, center_of_mass.py, ...) ------

def check_joint_id(model, joint_id, where):
    """``joint_id`` (an int, or a joint name) as an index in ``0 .. model.njoints - 1``."""
    if isinstance(joint_id, str):
        if joint_id not in model.names:
            raise ModelError(f"{where}: no joint named {joint_id!r}; the joints are "
                             f"{model.names}")
        return model.names.index(joint_id)
    try:
        i = operator.index(joint_id)
    except TypeError:
        raise ModelError(f"{where}: joint_id must be an int or a joint name, got "
                         f"{joint_id!r}") from None
    if not 0 <= i < model.njoints:
        raise ModelError(f"{where}: joint id {i} is out of range: this model has joints 0 .. "
                         f"{model.njoints - 1}; look ids up with model.getJointId(name)")
    return i


def check_reference_frame(rf, where):
    """``rf`` as a ReferenceFrame (pinref's, Pinocchio's or its int value 0, 1, 2)."""
    if not isinstance(rf, (bool, np.bool_)):
        try:
            return ReferenceFrame(operator.index(rf))
        except (TypeError, ValueError):
            pass
    raise ModelError(f"{where}: reference_frame must be pinref.ReferenceFrame.LOCAL, WORLD or "
                     f"LOCAL_WORLD_ALIGNED (1, 0, 2), got {rf!r}")


# --- column sets: a (..., 6, k) matrix seen as k motions --------------------------------------

def columns(J):
    """The k columns of a (..., 6, k) matrix as one Motion of batch shape (..., k)."""
    return Motion.unchecked(mT(J))


def matrix(m):
    """The inverse of ``columns``: a Motion of batch shape (..., k) as a (..., 6, k) matrix."""
    return mT(m.vector)


def column_rows(J):
    """``J (..., 6, k)`` seen with its column axis first, ``(k, ..., 6)`` (a view: writing row
    c writes column c)."""
    return J.transpose((J.ndim - 1, *range(J.ndim - 1)))


def per_column(x):
    """An SE3 or Motion of batch shape (...) with one more axis, to meet (..., k) columns."""
    if isinstance(x, SE3):
        return SE3.unchecked(x.rotation[..., None, :, :], x.translation[..., None, :])
    return Motion.unchecked(x.vector[..., None, :])


def support_columns(model, joint_id):
    """The columns of the joints supporting ``joint_id`` (``model.supports``), in tree order."""
    return np.array([k for j in model.supports[joint_id][1:]
                     for k in range(model.idx_vs[j], model.idx_vs[j] + model.nvs[j])], dtype=int)


def translate_joint_jacobian(model, joint_id, rf, oMp, Jin):
    """``details::translateJointJacobian``: the support columns of the WORLD matrix Jin
    (..., 6, nv), expressed at the frame placed at ``oMp`` in the world; other columns 0."""
    cols = support_columns(model, joint_id)
    J_k = columns(Jin[..., cols])
    if rf == ReferenceFrame.WORLD:
        out = J_k
    elif rf == ReferenceFrame.LOCAL_WORLD_ALIGNED:
        # J_k.linear -= p x J_k.angular
        p = oMp.translation[..., None, :]
        out = Motion.unchecked(stack6(J_k.linear - cross(p, J_k.angular), J_k.angular))
    else:
        # J_k = oMp^-1 J_k
        out = per_column(oMp).actInv(J_k)
    shape = np.broadcast_shapes(Jin.shape[:-2], oMp.shape)
    Jout = np.zeros(shape + (6, model.nv))
    Jout[..., cols] = matrix(out)
    return Jout


# --- the steps ---------------------------------------------------------------------------------

def _joint_jacobians_forward_step(level, data):
    """Mirrors JointJacobiansForwardStep::algo for the joints of one level: oMi. Its first
    statements (jcalc, liMi) ran for every joint before the level loop, its last (J's columns)
    runs for every joint after it (``world_columns``): neither reads the parent."""
    # oMi = oMi[parent] * liMi
    world_placements(level, data)


_COLUMN_ROWS = weakref.WeakKeyDictionary()   # Tree -> (row of each column's joint, constant S)


def _column_constants(T):
    """For column k of a ``(6, nv)`` Jacobian: the row of its joint in the stacked caches
    ``(nv,)``, and the column of S when the joint's kind has a constant S (else 0) ``(nv, 6)``;
    built once per Tree."""
    if T not in _COLUMN_ROWS:
        nv = sum(len(g.v_index) for g in T.kinds)
        rows, S = np.zeros(nv, dtype=np.intp), np.zeros((nv, 6))
        for group in T.kinds:
            rows[group.v_index] = np.repeat(np.arange(len(T.order))[group.rows], group.nv)
            if group.batched:
                S[group.v_index] = group.S_col
        _COLUMN_ROWS[T] = (rows, S)
    return _COLUMN_ROWS[T]


def subspace_columns(T, data, shape):
    """Column k of ``S`` for every column k of a ``(6, nv)`` Jacobian, ``(nv, 6)`` when every S
    is a constant, else ``(nv, *shape, 6)``; and the row of each column's joint."""
    rows, S_const = _column_constants(T)
    S_data = [(g, data.joints[g.ids[0]].S) for g in T.kinds if not g.batched]
    if all(S_j.ndim == 2 for _, S_j in S_data):
        S = S_const.copy()
        for group, S_j in S_data:
            S[group.v_index] = S_j.T
        return S, rows
    S = np.empty((len(rows),) + shape + (6,))
    S[:] = expand(S_const, len(shape))
    for group, S_j in S_data:
        for c, k in enumerate(group.v_index):
            S[k] = S_j[..., c]
    return S, rows


def world_columns(T, data, J, shape):
    """``J[:, cols_i] = oMi[i] S_i`` for every joint at once, one action over the columns: the
    last statement of JointJacobiansForwardStep, the whole of ...ForwardStep2, the column
    statement of JointJacobiansTimeVariationForwardStep (it reads no parent, so it runs after
    the level loop, or alone). Writes ``J (*shape, 6, nv)`` and returns its columns ``(nv,
    *shape, 6)`` with the row of each column's joint ``(nv,)``."""
    S, rows = subspace_columns(T, data, shape)
    R, p = data.oMi.rows("rotation", rows, shape), data.oMi.rows("translation", rows, shape)
    # [R v | R w] for each column S = (v ; w): with S constant, column k's product is one
    # (B*3, 3) x (3, 2) matrix product over the batch
    V = mT(halves(S))
    if S.ndim == 2:
        RV = (R.reshape(len(rows), math.prod(R.shape[1:-1]), 3) @ V).reshape(R.shape[:-1] + (2,))
    else:
        RV = R @ V
    Rw = RV[..., 1]
    # J[:, cols_i] = oMi S_i = (R v + p x R w ; R w)
    cols = stack6(RV[..., 0] + cross(p, Rw), Rw)
    column_rows(J)[...] = cols
    return cols, rows


# The single-target Jacobians visit the joints supporting the target (``Support``: ids, root
# first). Each support step's first statements (jcalc, liMi) and its last (the joint's columns)
# read no other joint: they run for every supporting joint at once, before and after the chain
# of placements that does (oMi root to tip, or iMf tip to root).

class Support:
    """The joints supporting joint i (``model.supports[i][1:]``, root first) as the support
    steps read them, built once per Tree (``support_of``): ``ids`` and ``parents`` (joint ids);
    ``rows``, their rows of the stacked caches; the joint placements
    ``PR (K, 3, 3)``, ``Pp (K, 3)``; ``cols``, their tangent columns (``support_columns``),
    ``owner[c]`` the index in ids of column c's joint, ``S (ncols, 6)`` the columns of S of the
    joints whose S is a constant of their kind (zeros elsewhere) and ``data_S``: ``(first
    column, joint id)`` of the others, whose S is read from their data."""

    def __init__(self, model, T, i):
        self.ids = list(model.supports[i][1:])
        self.rows = np.array([T.pos[j] for j in self.ids], dtype=np.intp)
        self.parents = [model.parents[j] for j in self.ids]
        self.PR = T.placement_rotation[self.rows]
        self.Pp = T.placement_translation[self.rows]
        self.cols = support_columns(model, i)
        self.owner = np.repeat(np.arange(len(self.ids)), [model.nvs[j] for j in self.ids])
        S_const = _column_constants(T)[1]
        self.S = S_const[self.cols]
        batched = {j for g in T.kinds if g.batched for j in g.ids}
        self.data_S, first = [], 0
        for j in self.ids:
            if j not in batched:
                self.data_S.append((first, j))
            first += model.nvs[j]


_SUPPORTS = weakref.WeakKeyDictionary()   # Tree -> {joint id: Support}


def support_of(model, i):
    """The :class:`Support` of joint ``i`` (built on first use for the model's Tree)."""
    T = tree(model)
    found = _SUPPORTS.setdefault(T, {})
    if i not in found:
        found[i] = Support(model, T, i)
    return found[i]


def support_placements(model, data, q, S, shape):
    """jcalc(q) and ``liMi = jointPlacements[j] * M_J`` for the supporting joints ``S`` (a
    :class:`Support`): writes their joint data and liMi rows; returns liMi as arrays ``R (K,
    *shape, 3, 3)``, ``p (K, *shape, 3)``."""
    if not S.ids:
        return np.empty((0,) + shape + (3, 3)), np.empty((0,) + shape + (3,))
    K, nb = len(S.ids), len(shape)
    MR, Mp = np.empty((K,) + shape + (3, 3)), np.empty((K,) + shape + (3,))
    for k, j in enumerate(S.ids):
        jdata = data.joints[j]
        # jcalc(q) -> M_J, S_j
        model.joints[j].calc(jdata, q)
        M = jdata.M
        MR[k], Mp[k] = M.rotation, M.translation
    PR = expand(S.PR, nb)
    # liMi = jointPlacements[j] * M_J
    R, p = PR @ MR, expand(S.Pp, nb) + matvec(PR, Mp)
    widen(data, shape, "liMi")
    data.liMi.rotation[S.rows], data.liMi.translation[S.rows] = R, p
    return R, p


def support_world_placements(data, S, R, p, shape):
    """``oMi[j] = oMi[parent] * liMi[j]`` along the support ``S``, root first (the parent of
    each supporting joint is the one before it; ``liMi`` for the first): writes their oMi rows
    and returns them as arrays."""
    oR, op = R.copy(), p.copy()
    for k in range(1, len(S.ids)):
        # oMi = oMi[parent] * liMi
        oR[k], op[k] = oR[k - 1] @ R[k], op[k - 1] + matvec(oR[k - 1], p[k])
    widen(data, shape, "oMi")
    data.oMi.rotation[S.rows], data.oMi.translation[S.rows] = oR, op
    return oR, op


def support_local_placements(data, S, R, p, iMf, shape):
    """``iMf[parent] = liMi[j] * iMf[j]`` from the tip to the root (JointJacobianLocalBackward
    Step's chain; ``iMf``: the target in the last supporting joint): writes ``data.iMf`` and
    returns iMf[j] of every supporting joint as arrays ``(K, *shape, ...)``."""
    K = len(S.ids)
    fR, fp = np.empty((K,) + shape + (3, 3)), np.empty((K,) + shape + (3,))
    cR, cp = iMf.rotation, iMf.translation
    for k in reversed(range(K)):
        fR[k], fp[k] = cR, cp
        # iMf[parent] = liMi * iMf[j]
        cR, cp = R[k] @ cR, p[k] + matvec(R[k], cp)
        data.iMf[S.parents[k]] = SE3.unchecked(cR, cp)
    return fR, fp


def support_subspaces(data, S, shape):
    """S column by column for the supporting joints ``S``, ``(ncols, *shape, 6)`` (or ``(ncols,
    6)`` when every one is a constant of its kind)."""
    if not S.data_S:
        return expand(S.S, len(shape))
    Sc = np.empty((len(S.cols),) + shape + (6,))
    Sc[...] = expand(S.S, len(shape))
    for first, j in S.data_S:
        S_j = data.joints[j].S
        Sc[first:first + S_j.shape[-1]] = (expand(S_j.T, len(shape)) if S_j.ndim == 2 else
                                           column_rows(S_j))
    return Sc


def support_columns_of(data, S, R, p, J, inverse, shape):
    """``J[:, cols_j] = M_j S_j`` (``inverse``: ``M_j^-1 S_j``) for every supporting joint j,
    with ``M_j = (R[k], p[k])``: the last statement of the support steps."""
    if not S.ids:
        return
    Sc = support_subspaces(data, S, shape)
    Rc, pc = R[S.owner], p[S.owner]
    # J[:, cols_j] = M_j S_j   (M_j^-1 S_j)
    cols = act_inv_motion(Rc, pc, Sc) if inverse else act_motion(Rc, pc, Sc)
    column_rows(J)[S.cols] = cols


def local_jacobian(model, data, q, S, iMf, J, shape):
    """JointJacobianLocalBackwardStep over the support ``S``, tip to root: J's columns in the
    target frame placed at ``iMf`` in the last supporting joint (``data.iMf[tip] = iMf`` is
    written by the caller)."""
    R, p = support_placements(model, data, q, S, shape)
    fR, fp = support_local_placements(data, S, R, p, iMf, shape)
    # J[:, cols_j] = iMf[j]^-1 S_j
    support_columns_of(data, S, fR, fp, J, True, shape)


def _joint_jacobians_time_variation_forward_step(level, kin, data):
    """Mirrors JointJacobiansTimeVariationForwardStep::algo for the joints of one level: oMi
    and v. jcalc and liMi ran for every joint before the level loop; J, ov and dJ, which read
    no parent, run for every joint after it (``_time_variation_columns``)."""
    i, p = level.rows, level.parent_rows
    # oMi = oMi[parent] * liMi
    world_placements(level, data)
    # v_i = v_J + liMi^-1 v_parent   (parent > 0)
    V = data.v.vector
    V[i] = kin.vJ[i] + matvec(kin.X[i], V[p]) if level.has_parent else kin.vJ[i]


def _time_variation_columns(T, data, shape):
    """The statements of JointJacobiansTimeVariationForwardStep after v, for every joint at once
    (no parent read): J's columns, ov and dJ's columns."""
    # J[:, cols_i] = oMi S_i
    cols, rows = world_columns(T, data, data.J, shape)
    # ov_i = oMi v_i   (rows 1 .. n-1: ov[0] is not written)
    ov = act_motion(data.oMi.rotation, data.oMi.translation, data.v.vector)
    widen(data, shape, "ov")
    data.ov.vector[1:] = ov[1:]
    # dJ[:, cols_i] = ov_i x J[:, cols_i]
    column_rows(data.dJ)[...] = motion_cross_motion(ov[rows], cols)


# --- the public functions ----------------------------------------------------------------------

def computeJointJacobians(model, data, q=None):
    """Every joint's Jacobian in the WORLD frame, ``data.J`` (..., 6, nv); also FK placements.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq), optional
        Without q, Pinocchio's second overload: the columns are built from the ``oMi`` already
        in ``data`` (call ``forwardKinematics(model, data, q)`` first).

    Returns
    -------
    J : ndarray, shape (..., 6, model.nv), an owned copy of ``data.J``. Column k is the motion
        (about the world origin, in world axes) of the body of dof k for a unit velocity of k.

    Mirrors ``pinocchio::computeJointJacobians`` (algorithm/jacobian.hxx, 3.8.0). Writes
    ``liMi``, ``oMi``, ``J`` and the joints' M and S (with q); ``J`` only (without q).
    """
    check_data(model, data)
    if q is None:
        data.require("computeJointJacobians(model, data)", "oMi",
                     "forwardKinematics(model, data, q), or pass q")
        shape = data.oMi.batch
        data.J = np.zeros(shape + (6, model.nv))
        # J[:, cols_i] = oMi S_i   (JointJacobiansForwardStep2, every joint)
        world_columns(tree(model), data, data.J, shape)
        data.mark("computeJointJacobians", "J")
        return data.J.copy()
    q, _, shape = state(model, q, data=data)
    (q,) = full(shape, q)
    widen(data, shape, "liMi", "oMi")
    data.J = np.zeros(shape + (6, model.nv))
    T = Walk(model, q, None)
    # jcalc(q) -> M_J, S_i ; liMi = jointPlacements[i] * M_J   (every joint: no parent read)
    joint_calc(T, data, q, None, shape, actions=False)
    for level in T.levels:
        _joint_jacobians_forward_step(level, data)
    # J[:, cols_i] = oMi S_i   (every joint: no parent read)
    world_columns(T.tree, data, data.J, shape)
    data.mark("computeJointJacobians", "liMi", "oMi", "J")
    return data.J.copy()


def getJointJacobian(model, data, joint_id, reference_frame):
    """The Jacobian of joint ``joint_id`` in ``reference_frame``, from ``data.J``.

    Parameters
    ----------
    joint_id : int (or a joint name)
    reference_frame : ReferenceFrame (no default, as in Pinocchio's Python API)
        LOCAL: joint axes, about the joint origin; LOCAL_WORLD_ALIGNED: world axes, about the
        joint origin; WORLD: world axes, about the world origin.

    Returns
    -------
    J : ndarray, shape (..., 6, model.nv). Columns of joints that do not support ``joint_id``
        are zero. ``J @ v`` is ``getVelocity(model, data, joint_id, reference_frame)``.

    Mirrors ``pinocchio::getJointJacobian`` (jacobian.hxx). Reads ``J`` and ``oMi``; needs
    ``computeJointJacobians(model, data, q)`` first. Writes nothing.
    """
    check_data(model, data)
    where = "getJointJacobian"
    i = check_joint_id(model, joint_id, where)
    rf = check_reference_frame(reference_frame, where)
    data.require(where, "J", _FIX_J)
    return translate_joint_jacobian(model, i, rf, data.oMi[i], data.J)


def computeJointJacobian(model, data, q, joint_id):
    """The Jacobian of joint ``joint_id`` in its LOCAL frame, computed from q alone.

    q : (..., model.nq) ; returns (..., 6, model.nv), zero outside the support of the joint.

    Mirrors ``pinocchio::computeJointJacobian`` (jacobian.hxx): one backward sweep from the
    joint to the root. Writes ``liMi`` and ``iMf`` of the supporting joints (not ``oMi``, not
    ``data.J``).
    """
    i = check_joint_id(model, joint_id, "computeJointJacobian")
    q, _, shape = state(model, q, data=data)
    J = np.zeros(shape + (6, model.nv))
    # iMf[i] = identity: the target frame is the joint frame itself
    data.iMf[i] = SE3.Identity()
    local_jacobian(model, data, q, support_of(model, i), data.iMf[i], J, shape)
    return J


def computeJointJacobiansTimeVariation(model, data, q, v):
    """``dJ/dt`` of every joint Jacobian in the WORLD frame, ``data.dJ`` (..., 6, nv).

    q : (..., model.nq) ; v : (..., model.nv). Returns an owned copy of ``data.dJ``.

    Mirrors ``pinocchio::computeJointJacobiansTimeVariation`` (jacobian.hxx). Writes ``liMi``,
    ``oMi``, ``v`` (LOCAL velocities; ``v[0]`` untouched), ``ov`` (WORLD velocities), ``J`` and
    ``dJ``.
    """
    q, arrays, shape = state(model, q, data=data, v=v)
    q, v = full(shape, q, arrays["v"])
    widen(data, shape, "liMi", "oMi", "v")
    data.J = np.zeros(shape + (6, model.nv))
    data.dJ = np.zeros(shape + (6, model.nv))
    T = Walk(model, q, v)
    # jcalc(q, v) -> M_J, S_i, v_J ; liMi = jointPlacements[i] * M_J   (every joint)
    kin = joint_calc(T, data, q, v, shape)
    for level in T.levels:
        _joint_jacobians_time_variation_forward_step(level, kin, data)
    # J[:, cols_i] = oMi S_i ; ov_i = oMi v_i ; dJ[:, cols_i] = ov_i x J[:, cols_i]
    _time_variation_columns(T.tree, data, shape)
    data.mark("computeJointJacobiansTimeVariation", "liMi", "oMi", "v", "ov", "J", "dJ")
    return data.dJ.copy()


def getJointJacobianTimeVariation(model, data, joint_id, reference_frame):
    """``dJ/dt`` of joint ``joint_id``'s Jacobian in ``reference_frame`` (..., 6, nv).

    The LOCAL and LOCAL_WORLD_ALIGNED matrices are not ``dJ`` translated like ``J``: their
    frames move, which adds the terms of the module docstring. Mirrors
    ``pinocchio::getJointJacobianTimeVariation`` (jacobian.hxx); reads ``dJ``, ``J``, ``oMi``,
    ``v``, ``ov``; needs ``computeJointJacobiansTimeVariation(model, data, q, v)`` first.
    """
    check_data(model, data)
    where = "getJointJacobianTimeVariation"
    i = check_joint_id(model, joint_id, where)
    rf = check_reference_frame(reference_frame, where)
    data.require(where, "dJ", _FIX_DJ)
    return jacobian_time_variation(model, data, i, rf, data.oMi[i], data.v[i])


def jacobian_time_variation(model, data, joint_id, rf, oMp, v_p):
    """dJ of the frame placed at ``oMp`` on joint ``joint_id``, whose LOCAL velocity is ``v_p``:
    the body of getJointJacobianTimeVariation and getFrameJacobianTimeVariation."""
    dJ = translate_joint_jacobian(model, joint_id, rf, oMp, data.dJ)
    cols = support_columns(model, joint_id)
    J_k = columns(data.J[..., cols])
    if rf == ReferenceFrame.LOCAL:
        # dJ_k -= v_p x (oMp^-1 J_k)
        correction = per_column(v_p).cross(per_column(oMp).actInv(J_k))
        dJ[..., cols] -= matrix(correction)
    elif rf == ReferenceFrame.LOCAL_WORLD_ALIGNED:
        # dJ_k.linear -= (ov.linear + ov.angular x p) x J_k.angular
        ov = data.ov[joint_id]
        w = ov.linear + cross(ov.angular, oMp.translation)
        dJ[..., LINEAR, cols] -= mT(cross(w[..., None, :], J_k.angular))
    return dJ


__all__ = ["computeJointJacobians", "getJointJacobian", "computeJointJacobian",
           "computeJointJacobiansTimeVariation", "getJointJacobianTimeVariation"]
