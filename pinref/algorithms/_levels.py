"""What the level steps share: joint calc by group, placements, 6x6 action kernels, S products.

A level step works on the rows ``level.rows`` of the stacked caches (``pinref/model/stacks.py``:
``(njoints, *batch, ...)``, joints level by level, see ``pinref/model/tree.py``). Arrays here
have the joint axis first: ``(K, *batch, 6)`` for K joints. Model constants ``(K, 6, 6)`` are
aligned with ``expand`` (1-axes for the batch).

6x6 kernels: with ``X = liMi.actionInverse`` built once per joint and pass, ``liMi.actInv(m) =
X m``, ``liMi.act(f) = X^T f`` and ``liMi.act(Y) = X^T Y X`` (Pinocchio's ``SE3actOn``);
``a ^ b = crm(a) b`` and ``v x* f = crf(v) f``. They round differently from Pinocchio's
structured formulas, well inside the project's 1e-12.
"""

import numpy as np

from ..joints.base import joint_axis_first as _rows
from ..joints.base import segments, tangent_rows
from ..model.tree import tree
from ..spatial._kernels import motion_action, motion_dual_action, se3_action_inverse
from ._args import external_forces, state


def begin(model, data, caches, q, **vectors):
    """The set-up a pass driver does before its first step, none of it Pinocchio's (whose
    binding checks sizes only): q and the tangent ``vectors`` (v, a, tau) checked (``state``:
    sizes, finite, unit quaternions) and broadcast to the call's batch shape, ``fext`` (when
    passed) read as LOCAL wrenches (``external_forces``), the stacked ``caches`` widened to that
    shape. Returns ``(T, shape, q, *vectors)``: the :class:`Walk`, the batch shape, then q and
    the vectors in the order given (v first and fext last, when given)."""
    with_fext = "fext" in vectors
    fext = vectors.pop("fext", None)
    q, arrays, shape = state(model, q, data=data, **vectors)
    q, *tangent = full(shape, q, *arrays.values())
    widen(data, shape, *caches)
    T = Walk(model, q, tangent[0] if "v" in arrays else None)
    if with_fext:
        return (T, shape, q, *tangent, external_forces(model, fext, shape))
    return (T, shape, q, *tangent)


def inputs(**arguments):
    """The call's arguments for the hooks, as they were given (None left out)."""
    return lambda: {k: x for k, x in arguments.items() if x is not None}


class Walk:
    """The model's Tree for one call: its ``levels`` and ``blocks``, the inertias ``Y`` and q
    and v as ``tangent_rows`` (``rows``)."""

    def __init__(self, model, q, v):
        self.tree = tree(model)
        self.levels, self.blocks = self.tree.levels, self.tree.blocks
        # Y_i, the model's inertias as 6x6 in row order, with 1-axes for the batch of q
        self.Y = expand(self.tree.inertia_matrix, q.ndim - 1)
        self.placement_rotation = self.tree.placement_rotation
        self.placement_translation = self.tree.placement_translation
        self.rows = (tangent_rows(q), None if v is None else tangent_rows(v))


def full(shape, *arrays):
    """Each array broadcast to the batch ``shape`` (read-only views)."""
    return [None if x is None else _read_only(x) if x.shape[:-1] == shape else
            np.broadcast_to(x, shape + x.shape[-1:]) for x in arrays]


def _read_only(x):
    """A read-only view of ``x`` (what ``np.broadcast_to`` gives for x's own shape, cheaper)."""
    y = x.view()
    y.flags.writeable = False
    return y


def widen(data, shape, *caches):
    """The stacked caches a call writes, given the call's batch shape."""
    for name in caches:
        getattr(data, name).widen(shape)


def joint_forces(fext, ids, ndim):
    """``fext_i`` of the joints ``ids`` (row order), joint axis first, with 1-axes to
    broadcast with stacked rows of ``ndim`` axes: ``(K, 1.., *fext batch, 6)``."""
    ext = np.moveaxis(fext[..., ids, :], -2, 0)                      # (K, *fext batch, 6)
    return ext.reshape(ext.shape[:1] + (1,) * (ndim - ext.ndim) + ext.shape[1:])


def expand(x, nb):
    """Constants ``(K, *tail)`` as ``(K, 1 * nb, *tail)`` to broadcast with a batch of nb axes."""
    return x.reshape(x.shape[:1] + (1,) * nb + x.shape[1:]) if nb else x


def matvec(A, x):
    """``A x`` over leading axes."""
    return np.matvec(A, x)


def vecmat(x, A):
    """``A^T x`` over leading axes."""
    return np.vecmat(x, A)


def crm(m):
    """6x6 ``crm(m)`` with ``crm(a) b = a ^ b``."""
    return motion_action(m)


def crf(m):
    """6x6 ``crf(m) = -crm(m)^T`` with ``crf(v) f = v x* f``."""
    return motion_dual_action(m)


def action_inverse(R, p):
    """``X = liMi.actionInverse`` = ``[[R^T, -R^T [p]x], [0, R^T]]`` for rows ``(K, *batch)``."""
    return se3_action_inverse(R, p)


class Kinematics:
    """What ``jcalc`` and the placements gave for every joint of the tree, rows of the stacked
    caches: ``X = liMi.actionInverse (n, *batch, 6, 6)``, ``vJ (n, *batch, 6)`` (None without
    v), ``c`` (None where every c_J is zero)."""

    __slots__ = ("X", "vJ", "c")


def joint_calc(T, data, q, v, shape, actions=True):
    """``jcalc(q[, v])`` and ``liMi = jointPlacements[i] * M_J`` for every joint, one call per
    kind of joint (they read no parent, so they run before the level loop, once per pass);
    writes the joints' data and ``data.liMi`` and returns a :class:`Kinematics`.

    Each kind's calc lives beside its joint class (``group.calc``): the fixed-axis 1-dof joints
    of one family (``tree.BATCHED``) evaluate liMi and X as affine maps of their coordinates
    (``pinref.joints._axis.calc_axis_group``), any other joint runs its own ``calc`` and the
    SE3 product (``pinref.joints.base.calc_joint_group``). With ``actions=False`` (a pass that
    never moves a motion into a child frame: placements only) ``X`` is not built and ``kin.X``
    is None."""
    n = len(T.tree.order)
    kin = Kinematics()
    kin.X = X = np.empty((n,) + shape + (6, 6)) if actions else None
    kin.vJ = None if v is None else np.zeros((n,) + shape + (6,))
    kin.c = None
    R_all, p_all = data.liMi.rotation, data.liMi.translation
    for group in T.tree.kinds:
        rows = group.rows
        # jcalc(q, v) -> M_J, S_i, v_J, c_J ; liMi = jointPlacements[i] * M_J ;
        # X = liMi.actionInverse
        R, p, Xg, vJ, c = group.calc(data, q, v, T.rows, shape, actions)
        # liMi[i] = (R, p)
        R_all[rows], p_all[rows] = R, p
        if actions:
            X[rows] = Xg
        if v is not None:
            kin.vJ[rows] = vJ
            if c is not None:
                if kin.c is None:
                    kin.c = np.zeros((n,) + shape + (6,))
                kin.c[rows] = c
    return kin


def subspaces(level, data):
    """S of every group of the level: the kind's constant S, or the joint's data S with the
    joint axis first."""
    return [group.template._S if group.batched else _rows(data.joints[group.ids[0]].S, 2)
            for group in level.groups]


def kind_subspace_times(T, data, xT, shape):
    """``S_i x_i`` for every joint (``xT = tangent_rows(x)``), rows of the caches
    ``(n, *shape, 6)``; one product per calc group (they read no parent). A batched group's
    S_i is its constant column ``S_col[k]``, the others' their data's S."""
    out = np.zeros((len(T.tree.order),) + shape + (6,))
    for group in T.tree.kinds:
        x = segments(xT, group.v_index, group.nv, shape)
        if group.batched:
            out[group.rows] = expand(group.S_col, len(shape)) * x
        else:
            out[group.rows] = matvec(_rows(data.joints[group.ids[0]].S, 2), x)
    return out


def level_array(level, parts, shape, n):
    """One ``(K, *shape, n)`` array from the groups' parts (None: zeros)."""
    if len(parts) == 1 and parts[0] is not None and parts[0].shape[1:-1] == shape:
        return parts[0]
    out = np.zeros((len(level.ids),) + shape + (n,))
    lo = level.rows.start
    for group, x in zip(level.groups, parts):
        if x is not None:
            out[group.rows.start - lo:group.rows.stop - lo] = x
    return out


def subspace_times(level, S, xT, shape):
    """``S_i x_i`` for every joint of the level (``S``: ``subspaces(level, data)``), ``xT =
    tangent_rows(x)`` -> ``(K, *shape, 6)``."""
    parts = [matvec(S_g, segments(xT, group.v_index, group.nv, shape))
             for group, S_g in zip(level.groups, S)]
    return level_array(level, parts, shape, 6)
