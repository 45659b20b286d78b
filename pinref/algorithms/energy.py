"""Kinetic, potential and mechanical energy (algorithm/energy.hxx, 3.8.0).

    computeKineticEnergy():                              KineticEnergyAlgoForwardStep
        T = 0
        for i = 1 .. n-1:
            T += v_i^T Y_i v_i                              (Inertia::vtiv, frame i)
            T += sum(armature_i * joint_v_i^2)              (jdata.joint_v: see below)
        T *= 1/2
    computePotentialEnergy():
        U = 0
        for i = 1 .. n-1:
            com_i = oMi.translation + oMi.rotation c_i      (body i's CoM, world)
            U    -= m_i com_i . g                            (g = model.gravity.linear)
    computeMechanicalEnergy():  both in one loop ; E = T + U

The armature term reads ``jdata.joint_v``, the joint's copy of its velocity. In Pinocchio 3.8.0
the revolute-unaligned and helical-unaligned joints do not write ``joint_v`` in ``calc``, so
their armature is left out of T (it stays at its initial zero); pinref reproduces that, and
``T == 1/2 v^T M v`` holds only without armature on those joints (docs/kinematics.md).
With q (and v), each function runs ``forwardKinematics`` first; without, it uses the caches.
"""

import numpy as np

from ..spatial._kernels import cross, matvec
from ._args import check_data
from .kinematics import forwardKinematics

_FIX_V = "forwardKinematics(model, data, q, v), or pass q and v"
_FIX_OMI = "forwardKinematics(model, data, q), or pass q"


def _vtiv(Y, v):
    """``Inertia::vtiv``: v^T Y v for Y = (m, c, I) and v = (v_lin, w), evaluated as Pinocchio.

    cxw = c x w ; T = m (|v_lin|^2 - 2 v_lin . cxw) + w . (-m c x cxw) + w^T I w
    """
    vl, w = v.linear, v.angular
    m = Y.mass
    # cxw = c x w
    cxw = cross(Y.lever, w)
    # m (|v|^2 - 2 v . cxw)
    res = m * (np.sum(vl * vl, axis=-1) - 2.0 * np.sum(vl * cxw, axis=-1))
    # + w . (-m c x cxw)
    res = res + np.sum(w * (-m[..., None] * cross(Y.lever, cxw)), axis=-1)
    # + w^T I w
    return res + np.sum(w * matvec(Y.inertia, w), axis=-1)


def _kinetic_energy_forward_step(jmodel, jdata, model, data, T):
    """Mirrors KineticEnergyAlgoForwardStep::algo: returns T + v_i^T Y_i v_i + arm . joint_v^2."""
    i = jmodel.id
    # T += v_i^T Y_i v_i
    T = T + _vtiv(model.inertias[i], data.v[i])
    # T += sum(armature_i * joint_v^2)
    return T + np.sum(model.armature[jmodel.v_slice] * jdata.joint_v ** 2, axis=-1)


def _potential_energy_step(model, data, i, U):
    """Returns U - m_i (oMi c_i) . g: body i's CoM in the world, against gravity."""
    oMi, Y = data.oMi[i], model.inertias[i]
    # com_i = oMi.translation + oMi.rotation c_i
    com = oMi.translation + matvec(oMi.rotation, Y.lever)
    # U -= m_i com_i . g
    return U - Y.mass * np.sum(com * model.gravity.linear, axis=-1)


def _scalar(x):
    """A float for one state, an owned array for a batch."""
    x = np.array(x, dtype=float)
    return x[()] if x.ndim == 0 else x


def computeKineticEnergy(model, data, q=None, v=None):
    """Kinetic energy ``T = 1/2 sum_i v_i^T Y_i v_i`` (+ armature), float or (...) array.

    ``computeKineticEnergy(model, data, q, v)`` runs ``forwardKinematics(model, data, q, v)``
    first; ``computeKineticEnergy(model, data)`` reads ``data.v`` and the joints' ``joint_v``.
    Writes ``kinetic_energy``. Mirrors ``pinocchio::computeKineticEnergy`` (energy.hxx).
    """
    check_data(model, data)
    if (q is None) != (v is None):
        raise TypeError("computeKineticEnergy takes (model, data, q, v) or (model, data)")
    if q is not None:
        forwardKinematics(model, data, q, v)
    data.require("computeKineticEnergy", "v", _FIX_V)
    T = 0.0
    for i in range(1, model.njoints):
        T = _kinetic_energy_forward_step(model.joints[i], data.joints[i], model, data, T)
    data.kinetic_energy = _scalar(0.5 * T)
    data.mark("computeKineticEnergy", "kinetic_energy")
    return _scalar(data.kinetic_energy)


def computePotentialEnergy(model, data, q=None):
    """Potential energy ``U = -sum_i m_i g . com_i`` (world frame), float or (...) array.

    With q, ``forwardKinematics(model, data, q)`` first; without, reads ``data.oMi``. Writes
    ``potential_energy``. Mirrors ``pinocchio::computePotentialEnergy`` (energy.hxx).
    """
    check_data(model, data)
    if q is not None:
        forwardKinematics(model, data, q)
    data.require("computePotentialEnergy", "oMi", _FIX_OMI)
    U = 0.0
    for i in range(1, model.njoints):
        U = _potential_energy_step(model, data, i, U)
    data.potential_energy = _scalar(U)
    data.mark("computePotentialEnergy", "potential_energy")
    return _scalar(data.potential_energy)


def computeMechanicalEnergy(model, data, q=None, v=None):
    """Mechanical energy ``E = T + U``; also writes ``kinetic_energy`` and ``potential_energy``.

    ``(model, data, q, v)`` runs ``forwardKinematics(model, data, q, v)`` first; ``(model,
    data)`` reads ``v``, ``oMi`` and ``joint_v``. Mirrors ``pinocchio::computeMechanicalEnergy``.
    """
    check_data(model, data)
    if (q is None) != (v is None):
        raise TypeError("computeMechanicalEnergy takes (model, data, q, v) or (model, data)")
    if q is not None:
        forwardKinematics(model, data, q, v)
    data.require("computeMechanicalEnergy", "v", _FIX_V)
    data.require("computeMechanicalEnergy", "oMi", _FIX_OMI)
    T, U = 0.0, 0.0
    for i in range(1, model.njoints):
        T = _kinetic_energy_forward_step(model.joints[i], data.joints[i], model, data, T)
        U = _potential_energy_step(model, data, i, U)
    data.kinetic_energy = _scalar(0.5 * T)
    data.potential_energy = _scalar(U)
    # E = T + U
    data.mechanical_energy = _scalar(data.kinetic_energy + data.potential_energy)
    data.mark("computeMechanicalEnergy", "kinetic_energy", "potential_energy",
              "mechanical_energy")
    return _scalar(data.mechanical_energy)


__all__ = ["computeKineticEnergy", "computePotentialEnergy", "computeMechanicalEnergy"]
