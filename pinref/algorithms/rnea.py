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
"""

import numpy as np

from ..spatial import Force, Motion
from ..spatial._kernels import matvec, mT
from ..tracing import traced_algorithm, traced_step
from ._args import external_forces, state


@traced_step("rnea", "RneaForwardStep", 1,
             writes="joints[i].M joints[i].S joints[i].v joints[i].c liMi[i] v[i] a_gf[i] h[i] "
                    "f[i]")
def _rnea_forward_step(jmodel, jdata, model, data, q, v, a):
    """Mirrors RneaForwardStep::algo; writes liMi, v, a_gf, h, f of joint i."""
    i = jmodel.id
    parent = model.parents[i]
    jmodel.calc(jdata, q, v)
    # liMi = jointPlacements[i] * M_J
    data.liMi[i] = model.jointPlacements[i] * jdata.M
    # v_i = v_J + liMi^-1 v_parent
    data.v[i] = jdata.v
    if parent > 0:
        data.v[i] = data.v[i] + data.liMi[i].actInv(data.v[parent])
    # a_gf_i = (c_J + v_i x v_J) + S_i a_i + liMi^-1 a_gf_parent
    data.a_gf[i] = jdata.c + (data.v[i] ^ jdata.v)
    data.a_gf[i] = data.a_gf[i] + Motion._wrap(matvec(jdata.S, a[..., jmodel.v_slice]))
    data.a_gf[i] = data.a_gf[i] + data.liMi[i].actInv(data.a_gf[parent])
    # h_i = Y_i v_i ; f_i = Y_i a_gf_i + v_i x* h_i
    data.h[i] = model.inertias[i] * data.v[i]
    data.f[i] = model.inertias[i] * data.a_gf[i] + data.v[i].cross(data.h[i])


@traced_step("rnea", "RneaBackwardStep", 2, writes="tau[v_i]", writes_if_parent="f[parent]")
def _rnea_backward_step(jmodel, jdata, model, data, tau):
    """Mirrors RneaBackwardStep::algo; accumulates tau_i and f[parent]."""
    i = jmodel.id
    parent = model.parents[i]
    # tau_i = S_i^T f_i
    tau[..., jmodel.v_slice] += matvec(mT(jdata.S), data.f[i].vector)
    # f_parent += liMi f_i
    if parent > 0:
        data.f[parent] = data.f[parent] + data.liMi[i].act(data.f[i])


@traced_algorithm("rnea", watch="f", exit_step="rnea: tau += armature * a", exit_writes="tau")
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
    q, arrays, shape = state(model, q, data=data, v=v, a=a)
    v, a = arrays["v"], arrays["a"]
    fext = external_forces(model, fext, shape)
    tau = np.zeros(shape + (model.nv,))
    data.v[0] = Motion.Zero()
    data.a_gf[0] = -model.gravity
    for i in range(1, model.njoints):
        _rnea_forward_step(model.joints[i], data.joints[i], model, data, q, v, a)
        if fext is not None:
            data.f[i] = data.f[i] - Force._wrap(fext[..., i, :])
    for i in reversed(range(1, model.njoints)):
        _rnea_backward_step(model.joints[i], data.joints[i], model, data, tau)
    # tau += armature * a
    tau += model.armature * a
    data.tau = tau
    data.mark("rnea", "liMi", "v", "a_gf", "h", "f", "tau")
    return tau.copy()


def _nle_forward_step(jmodel, jdata, model, data, q, v):
    """Mirrors NLEForwardStep::algo: RNEA's forward step with a = 0, f = Y a_gf + Y.vxiv(v).

    h is not written.
    """
    i = jmodel.id
    parent = model.parents[i]
    jmodel.calc(jdata, q, v)
    # liMi = jointPlacements[i] * M_J
    data.liMi[i] = model.jointPlacements[i] * jdata.M
    # v_i = v_J + liMi^-1 v_parent
    data.v[i] = jdata.v
    if parent > 0:
        data.v[i] = data.v[i] + data.liMi[i].actInv(data.v[parent])
    # a_gf_i = (c_J + v_i x v_J) + liMi^-1 a_gf_parent
    data.a_gf[i] = jdata.c + (data.v[i] ^ jdata.v)
    data.a_gf[i] = data.a_gf[i] + data.liMi[i].actInv(data.a_gf[parent])
    # f_i = Y_i a_gf_i + v_i x* (Y_i v_i)   (closed form vxiv)
    data.f[i] = model.inertias[i] * data.a_gf[i] + model.inertias[i].vxiv(data.v[i])


def nonLinearEffects(model, data, q, v):
    """Coriolis, centrifugal and gravity torques ``nle = C(q, v) v + g(q)`` (= rnea(q, v, 0)).

    q : (..., model.nq) ; v : (..., model.nv) ; returns a copy of ``data.nle`` (..., model.nv).
    Mirrors ``pinocchio::nonLinearEffects`` (rnea.hxx): forward step without S a, with
    ``Y.vxiv(v)``; no armature term; ``h`` not written. Writes liMi, v, a_gf, f, nle.
    """
    q, arrays, shape = state(model, q, data=data, v=v)
    v = arrays["v"]
    nle = np.zeros(shape + (model.nv,))
    data.v[0] = Motion.Zero()
    data.a_gf[0] = -model.gravity
    for i in range(1, model.njoints):
        _nle_forward_step(model.joints[i], data.joints[i], model, data, q, v)
    for i in reversed(range(1, model.njoints)):
        _rnea_backward_step(model.joints[i], data.joints[i], model, data, nle)
    data.nle = nle
    data.mark("nonLinearEffects", "liMi", "v", "a_gf", "f", "nle")
    return nle.copy()


def _gravity_forward_step(jmodel, jdata, model, data, q):
    """Mirrors ComputeGeneralizedGravityForwardStep::algo: a_gf_i = liMi^-1 a_gf_parent,
    f_i = Y_i a_gf_i."""
    i = jmodel.id
    parent = model.parents[i]
    jmodel.calc(jdata, q)
    # liMi = jointPlacements[i] * M_J
    data.liMi[i] = model.jointPlacements[i] * jdata.M
    # a_gf_i = liMi^-1 a_gf_parent
    data.a_gf[i] = data.liMi[i].actInv(data.a_gf[parent])
    # f_i = Y_i a_gf_i
    data.f[i] = model.inertias[i] * data.a_gf[i]


def _static_torque(model, data, q, fext):
    q, _, shape = state(model, q, data=data)
    fext = external_forces(model, fext, shape)
    out = np.zeros(shape + (model.nv,))
    data.a_gf[0] = -model.gravity
    for i in range(1, model.njoints):
        _gravity_forward_step(model.joints[i], data.joints[i], model, data, q)
        if fext is not None:
            data.f[i] = data.f[i] - Force._wrap(fext[..., i, :])
    for i in reversed(range(1, model.njoints)):
        _rnea_backward_step(model.joints[i], data.joints[i], model, data, out)
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
