"""Centre of mass: position, velocity, acceleration and Jacobian (algorithm/center-of-mass.hxx).

Body i has mass m_i and centre of mass c_i (``model.inertias[i]``, frame i). With v_i, a_i the
LOCAL velocity and acceleration of body i (``data.v``, ``data.a``) and liMi = (R, p):

    centerOfMass(level):                                    (the KinematicLevel overload)
        mass[0] = 0 ; com[0] = 0 ; vcom[0] = 0 (VELOCITY+) ; acom[0] = 0 (ACCELERATION)
        for i = 1 .. n-1:                                              forward step
            mass[i] = m_i
            com[i]  = m_i c_i
            vcom[i] = m_i (v_i.angular x c_i + v_i.linear)                         (VELOCITY+)
            acom[i] = m_i (a_i.angular x c_i + a_i.linear) + v_i.angular x vcom[i]   (ACCEL.)
        for i = n-1 .. 1:                                              backward step
            mass[parent] += mass[i]
            com[parent]  += R com[i] + mass[i] p
            vcom[parent] += R vcom[i] ;  acom[parent] += R acom[i]
            if compute_subtree_coms:  com[i], vcom[i], acom[i] /= mass[i]
        com[0], vcom[0], acom[0] /= mass[0]
    Each com[i] is in frame i (com[0]: world, as liMi[1] = oMi[1]). Without
    compute_subtree_coms, com[i] (i >= 1) keep the mass-weighted sums m c.

    jacobianCenterOfMass():                         JacobianCenterOfMassBackwardStep
        com[0] = 0 ; mass[0] = 0
        for i = 1 .. n-1:   mass[i] = m_i ;  com[i] = m_i oMi[i] c_i           (WORLD)
        Jcom = 0
        for i = n-1 .. 1:
            com[parent] += com[i] ;  mass[parent] += mass[i]
            J[:, cols_i] = oMi[i] S_i
            Jcom[:, k]  += mass[i] J_k.linear - com[i] x J_k.angular     (k in cols_i)
            if compute_subtree_coms:  com[i] /= mass[i]
        com[0] /= mass[0] ;  Jcom /= mass[0]
    Here com[i] are in the WORLD frame (the same field holds frame-i values after centerOfMass).

How the code maps to the loops: the sums are stacked arrays, rows in tree order
(``pinref/model/tree.py``). The forward statements read no parent and run for every joint at
once. The backward step runs for all the joints of one tree level at once, deepest level first,
and adds the children into their parents in rounds (round r: the r-th child, by decreasing
index, of every parent), Pinocchio's order of the additions; ``x += y`` is written
``x[parents] = x[parents] + y``. A subtree's sums are complete once its level is reached, and
nothing changes them after it has been added into its parent, so the statements that only read
joint i's sums (the divisions, J's and Jcom's columns) run for every joint after the loop.
The masses (``mass_i = m_i`` and ``mass_parent += mass_i``) read only model constants: they
are summed once per model, in the same order, and kept beside the Tree (``body_table``), so a
pass reads the subtree masses instead of summing them again. ``data.mass``, ``com``, ``vcom``,
``acom`` are then written joint by joint (pin's lists).
"""

import weakref

import numpy as np

from ..errors import ModelError
from ..model.tree import tree
from ..spatial._kernels import ANGULAR, LINEAR, cross, matvec
from . import scan
from ._args import NO_DATA, KinematicLevel, check_data
from ._levels import expand
from .frames import require_acceleration
from .jacobian import column_rows, world_columns
from .kinematics import forwardKinematics

_FIX_LIMI = "forwardKinematics(model, data, q) (or pass q: centerOfMass(model, data, q))"


def _check_level(level):
    if isinstance(level, (bool, np.bool_)) or level not in (0, 1, 2):
        raise ModelError("centerOfMass: kinematic_level must be pinref.KinematicLevel.POSITION, "
                         f"VELOCITY or ACCELERATION (0, 1, 2), got {level!r}")
    return KinematicLevel(int(level))


class _Bodies:
    """The model's body constants in row order (``pinref/model/tree.py``), built once per Tree:
    every body's mass ``m (n,)``, centre of mass ``c (n, 3)`` (frame i) and ``m c (n, 3)``; the
    subtree masses ``mass (n,)`` (``mass[0]`` the total) and the same as a list in joint order
    (``mass_list``, ``data.mass``'s face); ``pos``, ``Tree.pos`` as an index array. Read-only."""

    __slots__ = ("c", "m", "mass", "mass_list", "mc", "pos")

    def __init__(self, T):
        inertias = [T.inertias[i] for i in T.order]
        self.m = np.array([float(Y.mass) for Y in inertias])
        self.c = np.array([Y.lever for Y in inertias], dtype=float)
        self.mc = self.m[:, None] * self.c
        self.mass = _subtree_masses(T, self.m)
        self.pos = np.array(T.pos, dtype=np.intp)
        self.mass_list = self.mass[self.pos].tolist()
        for x in (self.m, self.c, self.mc, self.mass, self.pos):
            x.flags.writeable = False


def _subtree_masses(T, m):
    """The backward steps' ``mass_parent += mass_i`` over the whole tree, from ``mass_i = m_i``
    and ``mass_0 = 0``: children in decreasing index, one round at a time, as Pinocchio adds
    them. It reads only model constants, so it runs once per Tree (``_Bodies``)."""
    # mass_i = m_i ; mass_0 = 0
    mass = m.copy()
    mass[0] = 0.0
    for lvl in reversed(T.levels):
        # mass_parent += mass_i
        scan.add_to_parents(lvl, (mass, mass[lvl.rows]))
    return mass


_BODIES = weakref.WeakKeyDictionary()   # Tree -> _Bodies


def body_table(T):
    """The :class:`_Bodies` of the Tree ``T`` (built on first use)."""
    found = _BODIES.get(T)
    if found is None:
        found = _BODIES[T] = _Bodies(T)
    return found


def body_constants(model, T):
    """Every body's mass ``(n,)`` and centre of mass c ``(n, 3)`` (frame i), rows of the caches
    (read-only arrays, built once per Tree)."""
    found = body_table(T)
    return found.m, found.c


class _Sums:
    """The CoM caches as stacked arrays, rows of the caches: ``mass (n,)`` (the subtree masses),
    ``com``, ``vcom``, ``acom`` ``(n, *shape, 3)`` (None above the kinematic level computed),
    ``mp (n, *shape, 3)``: ``mass_i p_i`` of every joint, and ``R``: liMi's rotations aligned
    with the batch (liMi = (R, p))."""

    __slots__ = ("mass", "com", "vcom", "acom", "mp", "R")


def _com_forward_step(T, data, bodies, level, shape):
    """The forward step of ``centerOfMass`` for every joint at once (it reads no parent): body
    i's own m c and m (velocity, acceleration of c); row 0 (the universe) set to zero as the
    driver does before its loop. The masses ``mass_i = m_i`` and their backward sums
    ``mass_parent += mass_i`` read only model constants: they are the Tree's subtree masses
    (``_Bodies.mass``). The backward step's term ``mass_i p`` reads no parent either: it is
    formed here for every joint."""
    m, c = bodies
    nb = len(shape)
    K = body_table(T)
    mi, ci = expand(m, nb)[..., None], expand(c, nb)
    out = _Sums()
    out.vcom = out.acom = None
    # mass_i = m_i ; mass_parent += mass_i   (the subtree masses, constants of the Tree)
    out.mass = K.mass.copy()
    # com_i = m_i c_i ; com_0 = 0
    out.com = np.empty((len(m),) + shape + (3,))
    out.com[...] = expand(K.mc, nb)
    out.com[0] = 0.0
    # mass_i p   (p = liMi.translation, every joint)
    out.mp = expand(K.mass, nb)[..., None] * data.liMi.rows("translation", slice(None), shape)
    out.R = data.liMi.rows("rotation", slice(None), shape)
    if level >= KinematicLevel.VELOCITY:
        v = data.v.rows("vector", slice(None), shape)
        # vcom_i = m_i (w_i x c_i + v_i) ; vcom_0 = 0
        out.vcom = mi * (cross(v[..., ANGULAR], ci) + v[..., LINEAR])
        out.vcom[0] = 0.0
    if level >= KinematicLevel.ACCELERATION:
        a = data.a.rows("vector", slice(None), shape)
        # acom_i = m_i (dw_i x c_i + dv_i) + w_i x vcom_i ; acom_0 = 0
        out.acom = mi * (cross(a[..., ANGULAR], ci) + a[..., LINEAR]) + cross(v[..., ANGULAR],
                                                                              out.vcom)
        out.acom[0] = 0.0
    return out


def _com_backward_step(lvl, data, sums, shape):
    """The backward step of ``centerOfMass`` for the joints of one level: fold each subtree into
    its parent through liMi, children in decreasing index (one round at a time). The subtree
    masses are the Tree's (``_com_forward_step``); the division ``com_i /= mass_i`` runs for
    every joint after the loop (``_divide``)."""
    i = lvl.rows
    R = sums.R[i]
    # R com_i + mass_i p ; R vcom_i ; R acom_i
    add_com = matvec(R, sums.com[i]) + sums.mp[i]
    add_vcom = None if sums.vcom is None else matvec(R, sums.vcom[i])
    add_acom = None if sums.acom is None else matvec(R, sums.acom[i])
    # com_parent += R com_i + mass_i p ; vcom_parent += R vcom_i ; acom_parent += R acom_i
    scan.add_to_parents(lvl, *((target, x) for target, x in ((sums.com, add_com),
                                                              (sums.vcom, add_vcom),
                                                              (sums.acom, add_acom))
                               if x is not None))


def _divide(x, mass, subtrees, shape):
    """``x_i /= mass_i`` for every joint i >= 1 (when ``subtrees``), and ``x_0 /= mass_0``.
    A subtree of mass 0 gives 0/0 = NaN, as in Pinocchio, without NumPy's warning (the call's
    ``data.mark`` warns, naming the massless subtree)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if subtrees:
            # x_i /= mass_i   (i >= 1)
            x[1:] = x[1:] / expand(mass[1:], len(shape))[..., None]
        # x_0 /= mass_0
        x[0] = x[0] / mass[0]


def _write_back(data, T, name, x):
    """``data.<name>[i]`` = row ``pos[i]`` of ``x`` (the per-joint list keeps pin's face). The
    items are the rows of one array gathered here (float, shape (..., 3), owned by no one
    else), so they go into the StdVec_Vector3 as they are, without its per-item check and
    copy."""
    list.__setitem__(getattr(data, name), slice(None), list(x[body_table(T).pos]))


def _center_of_mass(model, data, level, compute_subtree_coms):
    """``pinocchio::centerOfMass(model, data, kinematic_level, computeSubtreeComs)``."""
    where = "centerOfMass"
    data.require(where, "liMi", _FIX_LIMI)
    stacks = [data.liMi]
    if level >= KinematicLevel.VELOCITY:
        data.require(where, "v", "forwardKinematics(model, data, q, v)")
        stacks.append(data.v)
    if level >= KinematicLevel.ACCELERATION:
        require_acceleration(data, where)
        stacks.append(data.a)
    shape = np.broadcast_shapes(*(s.batch for s in stacks))
    T = tree(model)
    sums = _com_forward_step(T, data, body_constants(model, T), level, shape)
    for lvl in reversed(T.levels):
        _com_backward_step(lvl, data, sums, shape)
    # com_i, vcom_i, acom_i /= mass_i (i >= 1, compute_subtree_coms) ; com_0, ... /= mass_0
    fields = [("com", sums.com), ("vcom", sums.vcom), ("acom", sums.acom)][:level + 1]
    for name, x in fields:
        _divide(x, sums.mass, compute_subtree_coms, shape)
        _write_back(data, T, name, x)
    data.mass[:] = body_table(T).mass_list
    data.mark("centerOfMass", "com", "mass", *("vcom", "acom")[:level])
    return data.com[0].copy()


def centerOfMass(model, data, *args, compute_subtree_coms=True):
    """Centre of mass of the whole robot in the world frame, ``data.com[0]`` (..., 3).

    The overloads of Pinocchio 3.8.0's Python API:

    - ``centerOfMass(model, data, q[, v[, a]], compute_subtree_coms=True)``: forward kinematics
      at that order first, then position (and velocity ``vcom``, acceleration ``acom``);
    - ``centerOfMass(model, data, kinematic_level, compute_subtree_coms=True)``: from the
      ``liMi``, ``v``, ``a`` already in data (KinematicLevel.POSITION, VELOCITY, ACCELERATION);
    - ``centerOfMass(model, data, compute_subtree_coms=True)``: the same at ACCELERATION.

    ``compute_subtree_coms`` may also be passed last, positionally. Writes ``mass`` (subtree
    masses), ``com`` (subtree CoMs, frame i; com[0] world), ``vcom``, ``acom`` (to the level
    computed). Returns a copy of ``data.com[0]``. Mirrors ``pinocchio::centerOfMass``.
    """
    check_data(model, data)
    args = list(args)
    if args and isinstance(args[-1], (bool, np.bool_)):
        compute_subtree_coms = bool(args.pop())
    if len(args) > 3:
        raise TypeError("centerOfMass(model, data, q[, v[, a]][, compute_subtree_coms]) takes "
                        f"at most 3 state arrays, got {len(args)}")
    if not args:
        level = KinematicLevel.ACCELERATION
    elif len(args) == 1 and np.isscalar(args[0]):
        level = _check_level(args[0])
    else:
        forwardKinematics(model, data, *args)
        level = KinematicLevel(len(args) - 1)
    return _center_of_mass(model, data, level, compute_subtree_coms)


def _jacobian_com_backward_step(lvl, sums):
    """Mirrors JacobianCenterOfMassBackwardStep::algo for the joints of one level: folds each
    subtree into its parent, children in decreasing index (one round at a time). Its mass sum
    reads only model constants (the Tree's subtree masses, ``_Bodies.mass``); its other
    statements read no parent and run for every joint after the loop
    (``_jacobian_com_columns``, ``_divide``)."""
    i = lvl.rows
    # com_parent += com_i   (mass_parent += mass_i: the Tree's subtree masses)
    scan.add_to_parents(lvl, (sums.com, sums.com[i]))


def _jacobian_com_columns(T, data, sums, shape):
    """J's and Jcom's columns of every joint (the statements of JacobianCenterOfMassBackwardStep
    that read no parent; ``com_i``, ``mass_i`` are the subtree sums, complete once the loop
    has folded the children in)."""
    # J[:, cols_i] = oMi S_i
    J_cols, rows = world_columns(T, data, data.J, shape)
    mass = sums.mass[rows].reshape((-1,) + (1,) * (len(shape) + 1))
    # Jcom[:, k] += mass_i J_k.linear - com_i x J_k.angular
    JcomT = column_rows(data.Jcom)
    JcomT += mass * J_cols[..., LINEAR] - cross(sums.com[rows], J_cols[..., ANGULAR])


def jacobianCenterOfMass(model, data, q=None, compute_subtree_coms=True):
    """Jacobian of the centre of mass in the world frame, ``data.Jcom`` (..., 3, nv).

    ``jacobianCenterOfMass(model, data, q, compute_subtree_coms=True)`` runs
    ``forwardKinematics(model, data, q)`` first; ``jacobianCenterOfMass(model, data[,
    compute_subtree_coms])`` uses the ``oMi`` already in data. ``Jcom @ v`` is the velocity of
    the centre of mass. Writes ``mass``, ``com`` (WORLD frame here), ``J`` (every column) and
    ``Jcom``; returns a copy of ``data.Jcom``. Mirrors ``pinocchio::jacobianCenterOfMass``.
    """
    check_data(model, data)
    if isinstance(q, (bool, np.bool_)):
        q, compute_subtree_coms = None, bool(q)
    if q is not None:
        forwardKinematics(model, data, q)
    data.require("jacobianCenterOfMass", "oMi",
                 "forwardKinematics(model, data, q), or pass q")
    shape = data.oMi.batch
    T = tree(model)
    K = body_table(T)
    nb = len(shape)
    sums = _Sums()
    # mass_i = m_i ; mass_parent += mass_i   (the subtree masses, constants of the Tree)
    sums.mass = K.mass
    # com_i = m_i oMi c_i   (every joint) ; com_0 = 0
    R, t = data.oMi.rotation, data.oMi.translation
    sums.com = expand(K.m, nb)[..., None] * (matvec(R, expand(K.c, nb)) + t)
    sums.com[0] = 0.0
    data.J = np.zeros(shape + (6, model.nv))
    data.Jcom = np.zeros(shape + (3, model.nv))
    for lvl in reversed(T.levels):
        _jacobian_com_backward_step(lvl, sums)
    # J[:, cols_i] = oMi S_i ; Jcom[:, cols_i] += mass_i J.linear - com_i x J.angular
    _jacobian_com_columns(T, data, sums, shape)
    # com_i /= mass_i (i >= 1, compute_subtree_coms) ; com_0 /= mass_0 ; Jcom /= mass_0
    _divide(sums.com, sums.mass, compute_subtree_coms, shape)
    _write_back(data, T, "com", sums.com)
    data.mass[:] = K.mass_list
    with np.errstate(divide="ignore", invalid="ignore"):     # mass 0: NaN (data.mark warns)
        data.Jcom = data.Jcom / sums.mass[0]
    data.mark("jacobianCenterOfMass", "com", "mass", "J", "Jcom")
    return data.Jcom.copy()


def computeTotalMass(model, data=None):
    """Sum of the bodies' masses (``model.inertias[1:]``); with data, stored in ``mass[0]``."""
    check_data(model, NO_DATA if data is None else data)
    m = 0.0
    for i in range(1, model.njoints):
        m += float(model.inertias[i].mass)
    if data is not None:
        data.mass[0] = m
    return m


def computeSubtreeMasses(model, data):
    """``data.mass[i]`` = mass of the subtree rooted at joint i; ``mass[0]`` the total.

    ``mass_i = m_i ; mass_0 = 0 ; mass_parent += mass_i`` (children in decreasing index): the
    Tree's subtree masses, computed once per model (``_subtree_masses``)."""
    check_data(model, data)
    data.mass[:] = body_table(tree(model)).mass_list
    data.mark("computeSubtreeMasses", "mass")


__all__ = ["centerOfMass", "jacobianCenterOfMass", "computeTotalMass", "computeSubtreeMasses"]
