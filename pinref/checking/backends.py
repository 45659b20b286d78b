"""The adapter layer the checks call: one small object per library, same methods, same shapes.

Every check talks to the dynamics library through a backend and never imports it directly, so
that the same check runs against pinref (:class:`PinrefBackend`), against the installed
Pinocchio, 3.8.0 or 4.x (:class:`PinBackend`, whose calls are the same in both), and against a
copy of pinref with one planted mistake (the drills, ``pinref.checking.drills``, wrap a
backend).

Shapes: every method takes arrays with one leading batch axis of states, ``q (B, nq)``,
``v, a, tau (B, nv)``, ``fext (B, njoints, 6)`` (the LOCAL wrench on each joint's body, about
the joint origin, entry 0 ignored), and returns ``(B, ...)``. Placements are homogeneous
matrices ``(4, 4)`` or ``(B, 4, 4)``. Each call uses a fresh Data and returns owned arrays, as
the tutorial asks (one Data per side of a comparison, outputs copied).

==========================  ==============================================================
method                      returns
==========================  ==============================================================
index_table()               [(name, type, idx_q, nq, idx_v, nv)] for joints 1 .. njoints-1
integrate(q, dv)            q (+) dv                                  (B, nq)
difference(q1, q2)          q2 (-) q1                                 (B, nv)
tangent_step(q, dv)         the configuration the finite differences step to (= integrate)
rnea(q, v, a, fext=None)    tau                                       (B, nv)
nle(q, v)                   nonLinearEffects h(q, v)                  (B, nv)
crba(q)                     M, symmetric, armature included           (B, nv, nv)
aba(q, v, tau, fext=None)   ddq                                       (B, nv)
rnea_derivatives(q, v, a)   (dtau_dq, dtau_dv, dtau_da)               3 x (B, nv, nv)
frame_velocities(q, v, targets, rf)   V of each (joint, placement)    (B, T, 6)
frame_jacobians(q, targets, rf)       J of each (joint, placement)    (B, T, 6, nv)
kinetic_energy(q, v)        T                                         (B,)
com_acceleration(q, v, a)   acceleration of the centre of mass        (B, 3)
wrench_to_joint(jMc, f_c)   jMc.act(f_c): a wrench at frame c moved to the joint (B, 6)
with_model(armature=None, gravity=None)   the same backend on a modified copy of the model
==========================  ==============================================================

``rf`` is one of ``"LOCAL"``, ``"WORLD"``, ``"LOCAL_WORLD_ALIGNED"``.
"""

import copy

import numpy as np

import pinref

from ..compare.bridge import import_pinocchio
from ..spatial import SE3, Force
from ..version import pin_version  # noqa: F401 (checking.backends.pin_version)

REFERENCE_FRAMES = ("LOCAL", "WORLD", "LOCAL_WORLD_ALIGNED")


class Backend:
    """What every backend shares: the pinref model that defines the layout, and ``with_model``.

    ``model`` is always a pinref Model (the one the checks read sizes, frames and joint types
    from); a backend built on another library holds its own copy next to it.
    """

    name = "abstract"

    def __init__(self, model):
        self.model = model

    def version(self):
        return pinref.__version__

    def with_model(self, armature=None, gravity=None):
        """The same kind of backend on a copy of the model with ``armature`` (nv,) and/or
        ``gravity`` (6,) replaced; the original model is left as it was."""
        model = copy.deepcopy(self.model)
        if armature is not None:
            model.armature = np.array(armature, dtype=float)
        if gravity is not None:
            model.gravity = pinref.Motion(np.array(gravity, dtype=float))
        return type(self)(model)

    def index_table(self):
        m = self.model
        return [(m.names[i], m.joints[i].shortname(), m.idx_qs[i], m.nqs[i], m.idx_vs[i],
                 m.nvs[i]) for i in range(1, m.njoints)]

    def tangent_step(self, q, dv):
        """``q (+) dv``, the step of the finite differences (a drill replaces it)."""
        return self.integrate(q, dv)


class PinrefBackend(Backend):
    """pinref itself: every call goes through pinref's batched algorithms, one Data per call."""

    name = "pinref"

    def _data(self):
        return self.model.createData()

    def integrate(self, q, dv):
        return pinref.integrate(self.model, q, dv)

    def difference(self, q1, q2):
        return pinref.difference(self.model, q1, q2)

    def rnea(self, q, v, a, fext=None):
        return pinref.rnea(self.model, self._data(), q, v, a, fext)

    def nle(self, q, v):
        return pinref.nonLinearEffects(self.model, self._data(), q, v)

    def crba(self, q):
        return pinref.crba(self.model, self._data(), q)

    def aba(self, q, v, tau, fext=None):
        return pinref.aba(self.model, self._data(), q, v, tau, fext)

    def rnea_derivatives(self, q, v, a):
        return pinref.computeRNEADerivatives(self.model, self._data(), q, v, a)

    def frame_velocities(self, q, v, targets, rf):
        data = self._data()
        pinref.forwardKinematics(self.model, data, q, v)
        rf = pinref.ReferenceFrame[rf]
        B = len(q)
        return np.stack([np.broadcast_to(
            pinref.getFrameVelocity(self.model, data, j, SE3(H), rf).vector, (B, 6))
            for j, H in targets], axis=1)

    def frame_jacobians(self, q, targets, rf):
        data = self._data()
        pinref.computeJointJacobians(self.model, data, q)
        rf = pinref.ReferenceFrame[rf]
        B, nv = len(q), self.model.nv
        return np.stack([np.broadcast_to(
            pinref.getFrameJacobian(self.model, data, j, SE3(H), rf), (B, 6, nv))
            for j, H in targets], axis=1)

    def kinetic_energy(self, q, v):
        return np.asarray(pinref.computeKineticEnergy(self.model, self._data(), q, v))

    def com_acceleration(self, q, v, a):
        data = self._data()
        pinref.centerOfMass(self.model, data, q, v, a)
        return np.array(data.acom[0])

    def wrench_to_joint(self, jMc, f_c):
        return SE3(jMc).act(Force(np.asarray(f_c, dtype=float))).vector.copy()


class PinBackend(Backend):
    """The installed Pinocchio (3.8.0 or 4.x) through ``pinref.to_pinocchio``: the same model,
    number for number; ``version()`` says which.

    Pinocchio takes one state at a time, so every method loops over the batch axis, with one
    Data per method call (the outputs read here do not depend on what the previous state left
    in Data; docs/quirks.md lists the caches that do, none of which is read).
    """

    name = "pin"

    def __init__(self, model):
        super().__init__(model)
        self.pin_model = pinref.to_pinocchio(model)  # ImportError saying how to install pin
        self.pin = import_pinocchio()

    def version(self):
        return self.pin.__version__

    def _data(self):
        return self.pin_model.createData()

    def _fext(self, fext, k):
        if fext is None:
            return None
        return [self.pin.Force(np.array(f)) for f in fext[k]]

    def _se3(self, H):
        H = np.asarray(H, dtype=float)
        return self.pin.SE3(H[:3, :3].copy(), H[:3, 3].copy())

    def integrate(self, q, dv):
        return np.array([self.pin.integrate(self.pin_model, q[k], dv[k]) for k in range(len(q))])

    def difference(self, q1, q2):
        return np.array([self.pin.difference(self.pin_model, q1[k], q2[k])
                         for k in range(len(q1))])

    def rnea(self, q, v, a, fext=None):
        pin, pm = self.pin, self.pin_model
        data = self._data()
        if fext is None:
            return np.array([pin.rnea(pm, data, q[k], v[k], a[k]).copy() for k in range(len(q))])
        return np.array([pin.rnea(pm, data, q[k], v[k], a[k], self._fext(fext, k)).copy()
                         for k in range(len(q))])

    def nle(self, q, v):
        data = self._data()
        return np.array([self.pin.nonLinearEffects(self.pin_model, data, q[k], v[k]).copy()
                         for k in range(len(q))])

    def crba(self, q):
        data = self._data()
        return np.array([self.pin.crba(self.pin_model, data, q[k]).copy() for k in range(len(q))])

    def aba(self, q, v, tau, fext=None):
        pin, pm = self.pin, self.pin_model
        data = self._data()
        if fext is None:
            return np.array([pin.aba(pm, data, q[k], v[k], tau[k]).copy() for k in range(len(q))])
        return np.array([pin.aba(pm, data, q[k], v[k], tau[k], self._fext(fext, k)).copy()
                         for k in range(len(q))])

    def rnea_derivatives(self, q, v, a):
        out, data = [], self._data()
        for k in range(len(q)):
            dq, dv, da = self.pin.computeRNEADerivatives(self.pin_model, data, q[k], v[k], a[k])
            # The Python binding returns views of data's caches: copy before the next state.
            out.append((np.array(dq), np.array(dv), np.array(da)))
        return tuple(np.array(x) for x in zip(*out))

    def frame_velocities(self, q, v, targets, rf):
        pin, pm, rf = self.pin, self.pin_model, pin_reference_frame(self.pin, rf)
        out, data = np.empty((len(q), len(targets), 6)), self._data()
        for k in range(len(q)):
            pin.forwardKinematics(pm, data, q[k], v[k])
            for t, (j, H) in enumerate(targets):
                H = np.asarray(H)
                out[k, t] = pin.getFrameVelocity(pm, data, j, self._se3(H[k] if H.ndim == 3
                                                                         else H), rf).vector
        return out

    def frame_jacobians(self, q, targets, rf):
        pin, pm, rf = self.pin, self.pin_model, pin_reference_frame(self.pin, rf)
        out, data = np.empty((len(q), len(targets), 6, pm.nv)), self._data()
        for k in range(len(q)):
            pin.computeJointJacobians(pm, data, q[k])
            for t, (j, H) in enumerate(targets):
                H = np.asarray(H)
                J = pin.getFrameJacobian(pm, data, j, self._se3(H[k] if H.ndim == 3 else H), rf)
                out[k, t] = np.reshape(J, (6, pm.nv))      # pin gives (6,) for nv = 1
        return out

    def kinetic_energy(self, q, v):
        data = self._data()
        return np.array([self.pin.computeKineticEnergy(self.pin_model, data, q[k], v[k])
                         for k in range(len(q))])

    def com_acceleration(self, q, v, a):
        out, data = np.empty((len(q), 3)), self._data()
        for k in range(len(q)):
            self.pin.centerOfMass(self.pin_model, data, q[k], v[k], a[k])
            out[k] = data.acom[0]
        return out

    def wrench_to_joint(self, jMc, f_c):
        jMc, f_c = np.asarray(jMc, dtype=float), np.asarray(f_c, dtype=float)
        return np.array([self._se3(jMc[k]).act(self.pin.Force(f_c[k])).vector
                         for k in range(len(f_c))])


def pin_reference_frame(pin, rf):
    return getattr(pin.ReferenceFrame, rf)


BACKENDS = {"pinref": PinrefBackend, "pin": PinBackend}


def make_backend(name, model):
    """The backend called ``name`` ('pinref' or 'pin') on ``model``. 'pin' needs Pinocchio."""
    if name not in BACKENDS:
        raise ValueError(f"backend: expected one of {sorted(BACKENDS)}, got {name!r}")
    return BACKENDS[name](model)
