"""Forward kinematics (algorithm/kinematics.hxx): placements, velocities, accelerations.

    for i = 1 .. n-1:
        jcalc(q[, v])                       -> jdata.M, S, v, c
        liMi[i] = jointPlacements[i] * jdata.M
        oMi[i]  = oMi[parent] * liMi[i]     (liMi[i] if parent == 0)
        v[i]    = jdata.v + liMi[i].actInv(v[parent])                         (with v)
        a[i]    = S a_i + jdata.c + (v[i] ^ jdata.v) + liMi[i].actInv(a[parent])  (with a)

How the code maps to the loop: jcalc and liMi read no parent, so they run for every joint
before the level loop (``joint_calc``, one call per kind of joint); the other statements run
for all the joints of one tree level at once (``level.rows``), a level reading only the rows
of the level before it, which is what the per-joint loop computes (rnea.py's module docstring
has the details). ``liMi^-1 m`` is the 6x6 product ``X m`` with ``X = liMi.actionInverse``.
"""

from ._args import state
from ._levels import (Walk, crm, full, joint_calc, matvec, subspace_times, subspaces,
                      tangent_rows, widen)


def world_placements(level, data):
    """``oMi = oMi[parent] * liMi`` (``liMi`` if parent == 0) for the joints of one level: the
    statement shared by the forward steps of kinematics.hxx, jacobian.hxx and frames.hxx."""
    i, p = level.rows, level.parent_rows
    oMi, liMi = data.oMi, data.liMi
    if level.has_parent:
        Rp = oMi.rotation[p]
        # oMi = oMi[parent] * liMi
        oMi.rotation[i] = Rp @ liMi.rotation[i]
        oMi.translation[i] = oMi.translation[p] + matvec(Rp, liMi.translation[i])
    else:
        # oMi = liMi   (parent == 0)
        oMi.rotation[i], oMi.translation[i] = liMi.rotation[i], liMi.translation[i]


def _forward_kinematic_step(level, kin, data, aT, shape):
    """Mirrors ForwardKinematicZeroStep / FirstStep / SecondStep::algo (kinematics.hxx) for the
    joints of one level (see rnea.py's module docstring for the level steps; jcalc and liMi ran
    before the level loop: ``kin``)."""
    i, p = level.rows, level.parent_rows
    # oMi = oMi[parent] * liMi   (liMi if parent == 0)
    world_placements(level, data)
    if kin.vJ is None:
        return
    V, X, vJ = data.v.vector, kin.X[i], kin.vJ[i]
    # v_i = v_J + liMi^-1 v_parent
    V[i] = vJ + matvec(X, V[p]) if level.has_parent else vJ
    if aT is None:
        return
    A = data.a.vector
    # a_i = S a_J + c_J + v_i x v_J + liMi^-1 a_parent
    Sa = subspace_times(level, subspaces(level, data), aT, shape)
    if kin.c is not None:
        Sa = Sa + kin.c[i]
    A[i] = Sa + matvec(crm(V[i]), vJ) + matvec(X, A[p])


def forwardKinematics(model, data, q, v=None, a=None):
    """Placements ``oMi``/``liMi`` of every joint for q; velocities ``v`` and accelerations
    ``a`` (frame i, LOCAL) when v and a are given.

    Parameters
    ----------
    q : ndarray, shape (..., model.nq)
    v, a : ndarray, shape (..., model.nv), optional (a requires v)

    Mirrors ``pinocchio::forwardKinematics`` (algorithm/kinematics.hxx, 3.8.0).
    Writes ``liMi``, ``oMi``, ``joints``; with v also ``v`` (``v[0] = 0``); with a also ``a``
    (``a[0] = 0``). Returns None, as Pinocchio.
    """
    tangent = {} if v is None else ({"v": v} if a is None else {"v": v, "a": a})
    if a is not None and v is None:
        raise TypeError("forwardKinematics: a needs v (forwardKinematics(model, data, q, v, a))")
    q, arrays, shape = state(model, q, data=data, **tangent)
    q, v, a = full(shape, q, arrays.get("v"), arrays.get("a"))
    widen(data, shape, "liMi", "oMi", *arrays)
    if v is not None:
        # v[0] = 0
        data.v.vector[0] = 0.0
    if a is not None:
        # a[0] = 0
        data.a.vector[0] = 0.0
    T = Walk(model, q, v)
    aT = None if a is None else tangent_rows(a)
    # jcalc(q[, v]) -> M_J, S_i, v_J, c_J ; liMi = jointPlacements[i] * M_J   (every joint;
    # X = liMi.actionInverse only with v)
    kin = joint_calc(T, data, q, v, shape, actions=v is not None)
    for level in T.levels:
        _forward_kinematic_step(level, kin, data, aT, shape)
    data.mark("forwardKinematics", "liMi", "oMi", *arrays)
