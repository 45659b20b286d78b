"""Forward kinematics (algorithm/kinematics.hxx): placements, velocities, accelerations.

    for i = 1 .. n-1:
        jcalc(q[, v])                       -> jdata.M, S, v, c
        liMi[i] = jointPlacements[i] * jdata.M
        oMi[i]  = oMi[parent] * liMi[i]     (liMi[i] if parent == 0)
        v[i]    = jdata.v + liMi[i].actInv(v[parent])                         (with v)
        a[i]    = S a_i + jdata.c + (v[i] ^ jdata.v) + liMi[i].actInv(a[parent])  (with a)
"""

from ..spatial import Motion
from ..spatial._kernels import matvec
from ._args import state


def _forward_kinematic_step(jmodel, jdata, model, data, q, v, a):
    """Mirrors ForwardKinematicZeroStep / FirstStep / SecondStep::algo (kinematics.hxx)."""
    i = jmodel.id
    parent = model.parents[i]
    jmodel.calc(jdata, q, v)
    # liMi = jointPlacements[i] * M_J
    data.liMi[i] = model.jointPlacements[i] * jdata.M
    # oMi = oMi[parent] * liMi
    data.oMi[i] = data.oMi[parent] * data.liMi[i] if parent > 0 else data.liMi[i]
    if v is None:
        return
    # v_i = v_J + liMi^-1 v_parent
    data.v[i] = jdata.v
    if parent > 0:
        data.v[i] = data.v[i] + data.liMi[i].actInv(data.v[parent])
    if a is None:
        return
    # a_i = S a_J + c_J + v_i x v_J + liMi^-1 a_parent
    Sa = Motion._wrap(matvec(jdata.S, a[..., jmodel.v_slice]))
    data.a[i] = Sa + jdata.c + (data.v[i] ^ jdata.v)
    data.a[i] = data.a[i] + data.liMi[i].actInv(data.a[parent])


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
    q, arrays, _ = state(model, q, data=data, **tangent)
    v, a = arrays.get("v"), arrays.get("a")
    if v is not None:
        data.v[0] = Motion.Zero()
    if a is not None:
        data.a[0] = Motion.Zero()
    for i in range(1, model.njoints):
        _forward_kinematic_step(model.joints[i], data.joints[i], model, data, q, v, a)
    data.mark("forwardKinematics", "liMi", "oMi", *arrays)
