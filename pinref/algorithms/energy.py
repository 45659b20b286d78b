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

How the code maps to the loops above: no statement reads the parent, so each one runs for every
joint at once on the stacked caches (``data.v.vector``, ``data.oMi``: rows in tree order,
``pinref/model/tree.py``), and the per-joint terms are summed over the rows instead of being
added one joint at a time (the same terms, summed in another order: equal up to rounding).
``v_i^T Y_i v_i`` is the 6x6 product with the inertia matrix (``pinref/algorithms/_levels.py``)
instead of Inertia::vtiv's structured formula. The armature terms of joints whose armature is
zero add exactly zero and are not formed.
"""

import numpy as np

from ..model.tree import tree
from ..spatial._kernels import matvec
from ._args import check_data
from ._levels import expand
from .center_of_mass import body_constants
from .kinematics import forwardKinematics

_FIX_V = "forwardKinematics(model, data, q, v), or pass q and v"
_FIX_OMI = "forwardKinematics(model, data, q), or pass q"


def _kinetic_energy_forward_step(model, T, data):
    """Mirrors KineticEnergyAlgoForwardStep::algo for every joint at once (it reads no parent):
    returns ``sum_i v_i^T Y_i v_i + arm_i . joint_v_i^2`` (the driver's sum before ``*= 1/2``)."""
    nb = len(data.v.batch)
    V = data.v.vector[1:]
    # T += v_i^T Y_i v_i   (i >= 1: rows 1 .. n-1)
    T_sum = np.sum(np.vecdot(V, matvec(expand(T.inertia_matrix[1:], nb), V)), axis=0)
    for group in T.kinds if model.armature.any() else ():
        armature = model.armature[group.v_index]
        if armature.any():
            joint_v = np.stack(np.broadcast_arrays(*(np.asarray(data.joints[i].joint_v,
                                                                dtype=float)
                                                     for i in group.ids)))
            # T += sum(armature_i * joint_v_i^2)
            arm = armature.reshape(len(group.ids), -1)
            arm = arm.reshape(arm.shape[:1] + (1,) * (joint_v.ndim - 2) + arm.shape[1:])
            T_sum = T_sum + np.sum(arm * joint_v ** 2, axis=(0, -1))
    return T_sum


def _potential_energy_step(model, T, data):
    """Returns ``-sum_i m_i (oMi c_i) . g``: every body's CoM in the world against gravity, for
    every joint at once (no parent read)."""
    mass, lever = body_constants(model, T)
    nb = len(data.oMi.batch)
    R, t = data.oMi.rotation[1:], data.oMi.translation[1:]
    # com_i = oMi.translation + oMi.rotation c_i   (i >= 1)
    com = t + matvec(R, expand(lever[1:], nb))
    # U -= m_i com_i . g
    return -np.sum(expand(mass[1:], nb) * np.vecdot(com, model.gravity.linear), axis=0)


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
    # T = sum_i (v_i^T Y_i v_i + arm_i . joint_v_i^2) ; T *= 1/2
    data.kinetic_energy = _scalar(0.5 * _kinetic_energy_forward_step(model, tree(model), data))
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
    # U = -sum_i m_i com_i . g
    data.potential_energy = _scalar(_potential_energy_step(model, tree(model), data))
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
    T = tree(model)
    # T = 1/2 sum_i (v_i^T Y_i v_i + arm_i . joint_v_i^2) ; U = -sum_i m_i com_i . g
    data.kinetic_energy = _scalar(0.5 * _kinetic_energy_forward_step(model, T, data))
    data.potential_energy = _scalar(_potential_energy_step(model, T, data))
    # E = T + U
    data.mechanical_energy = _scalar(data.kinetic_energy + data.potential_energy)
    data.mark("computeMechanicalEnergy", "kinetic_energy", "potential_energy",
              "mechanical_energy")
    return _scalar(data.mechanical_energy)


__all__ = ["computeKineticEnergy", "computePotentialEnergy", "computeMechanicalEnergy"]
