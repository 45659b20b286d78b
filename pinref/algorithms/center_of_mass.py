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
"""

import numpy as np

from ..errors import ModelError
from ..spatial._kernels import ANGULAR, LINEAR, cross, matvec, mT
from ._args import NO_DATA, KinematicLevel, check_data
from .frames import require_acceleration
from .jacobian import act_set
from .kinematics import forwardKinematics

_FIX_LIMI = "forwardKinematics(model, data, q) (or pass q: centerOfMass(model, data, q))"


def _check_level(level):
    if isinstance(level, (bool, np.bool_)) or level not in (0, 1, 2):
        raise ModelError("centerOfMass: kinematic_level must be pinref.KinematicLevel.POSITION, "
                         f"VELOCITY or ACCELERATION (0, 1, 2), got {level!r}")
    return KinematicLevel(int(level))


def _com_forward_step(model, data, i, level):
    """Forward step of ``centerOfMass``: body i's own mass, m c, m (velocity, acceleration of c)."""
    mass, lever = model.inertias[i].mass, model.inertias[i].lever
    v, a = data.v[i], data.a[i]
    data.mass[i] = float(mass)
    # com_i = m_i c_i
    data.com[i] = mass * lever
    if level >= KinematicLevel.VELOCITY:
        # vcom_i = m_i (w_i x c_i + v_i)
        data.vcom[i] = mass * (cross(v.angular, lever) + v.linear)
    if level >= KinematicLevel.ACCELERATION:
        # acom_i = m_i (dw_i x c_i + dv_i) + w_i x vcom_i
        data.acom[i] = mass * (cross(a.angular, lever) + a.linear) + cross(v.angular,
                                                                          data.vcom[i])


def _com_backward_step(model, data, i, level, compute_subtree_coms):
    """Backward step of ``centerOfMass``: fold subtree i into its parent, through liMi."""
    parent = model.parents[i]
    R, p = data.liMi[i].rotation, data.liMi[i].translation
    # mass_parent += mass_i
    data.mass[parent] += data.mass[i]
    # com_parent += R com_i + mass_i p
    data.com[parent] = data.com[parent] + (matvec(R, data.com[i]) + data.mass[i] * p)
    if level >= KinematicLevel.VELOCITY:
        # vcom_parent += R vcom_i
        data.vcom[parent] = data.vcom[parent] + matvec(R, data.vcom[i])
    if level >= KinematicLevel.ACCELERATION:
        # acom_parent += R acom_i
        data.acom[parent] = data.acom[parent] + matvec(R, data.acom[i])
    if compute_subtree_coms:
        # com_i, vcom_i, acom_i /= mass_i
        data.com[i] = data.com[i] / data.mass[i]
        if level >= KinematicLevel.VELOCITY:
            data.vcom[i] = data.vcom[i] / data.mass[i]
        if level >= KinematicLevel.ACCELERATION:
            data.acom[i] = data.acom[i] / data.mass[i]


def _center_of_mass(model, data, level, compute_subtree_coms):
    """``pinocchio::centerOfMass(model, data, kinematic_level, computeSubtreeComs)``."""
    where = "centerOfMass"
    data.require(where, "liMi", _FIX_LIMI)
    if level >= KinematicLevel.VELOCITY:
        data.require(where, "v", "forwardKinematics(model, data, q, v)")
    if level >= KinematicLevel.ACCELERATION:
        require_acceleration(data, where)
    data.mass[0] = 0.0
    data.com[0] = np.zeros(3)
    if level >= KinematicLevel.VELOCITY:
        data.vcom[0] = np.zeros(3)
    if level >= KinematicLevel.ACCELERATION:
        data.acom[0] = np.zeros(3)
    for i in range(1, model.njoints):
        _com_forward_step(model, data, i, level)
    for i in reversed(range(1, model.njoints)):
        _com_backward_step(model, data, i, level, compute_subtree_coms)
    # com_0, vcom_0, acom_0 /= mass_0
    data.com[0] = data.com[0] / data.mass[0]
    if level >= KinematicLevel.VELOCITY:
        data.vcom[0] = data.vcom[0] / data.mass[0]
    if level >= KinematicLevel.ACCELERATION:
        data.acom[0] = data.acom[0] / data.mass[0]
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


def _jacobian_com_backward_step(jmodel, jdata, model, data, compute_subtree_coms):
    """Mirrors JacobianCenterOfMassBackwardStep::algo: folds subtree i into its parent and
    fills Jcom's columns of joint i from J's (WORLD)."""
    i = jmodel.id
    parent = model.parents[i]
    # com_parent += com_i ; mass_parent += mass_i
    data.com[parent] = data.com[parent] + data.com[i]
    data.mass[parent] += data.mass[i]
    # J[:, cols_i] = oMi S_i
    J_cols = act_set(data.oMi[i], jdata.S)
    data.J[..., jmodel.v_slice] = J_cols
    # Jcom[:, k] += mass_i J_k.linear - com_i x J_k.angular
    com_x_w = mT(cross(data.com[i][..., None, :], mT(J_cols[..., ANGULAR, :])))
    data.Jcom[..., jmodel.v_slice] += data.mass[i] * J_cols[..., LINEAR, :] - com_x_w
    if compute_subtree_coms:
        # com_i /= mass_i
        data.com[i] = data.com[i] / data.mass[i]


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
    shape = np.broadcast_shapes(*(M.shape for M in data.oMi[1:]))
    data.com[0] = np.zeros(3)
    data.mass[0] = 0.0
    for i in range(1, model.njoints):
        # mass_i = m_i ; com_i = m_i oMi c_i
        data.mass[i] = float(model.inertias[i].mass)
        data.com[i] = model.inertias[i].mass * data.oMi[i].act(model.inertias[i].lever)
    data.J = np.zeros(shape + (6, model.nv))
    data.Jcom = np.zeros(shape + (3, model.nv))
    for i in reversed(range(1, model.njoints)):
        _jacobian_com_backward_step(model.joints[i], data.joints[i], model, data,
                                    compute_subtree_coms)
    # com_0 /= mass_0 ; Jcom /= mass_0
    data.com[0] = data.com[0] / data.mass[0]
    data.Jcom = data.Jcom / data.mass[0]
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
    """``data.mass[i]`` = mass of the subtree rooted at joint i; ``mass[0]`` the total."""
    check_data(model, data)
    data.mass[0] = 0.0
    for i in range(1, model.njoints):
        data.mass[i] = float(model.inertias[i].mass)
    for i in reversed(range(1, model.njoints)):
        # mass_parent += mass_i
        data.mass[model.parents[i]] += data.mass[i]
    data.mark("computeSubtreeMasses", "mass")


__all__ = ["centerOfMass", "jacobianCenterOfMass", "computeTotalMass", "computeSubtreeMasses"]
