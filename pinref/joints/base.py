"""What every joint model and joint data share (multibody/joint/joint-model-base.hpp).

A joint model knows its sizes (``nq`` storage, ``nv`` tangent directions), where it reads in the
model's vectors (``idx_q``, ``idx_v``), its configuration space (``lie_group``), and how to
compute its kinematics (``calc``) and its step of the articulated-body elimination
(``calc_aba``). A joint data holds what those two wrote, with leading batch axes:

=========  ==========================================  ==================
field      meaning                                      shape
=========  ==========================================  ==================
joint_q    the joint's configuration segment            (..., nq)
joint_v    the joint's velocity segment                 (..., nv)
M          joint transform, child frame in parent       SE3
S          motion subspace, child frame                 (..., 6, nv)
v          joint velocity S q_dot, child frame          Motion
c          bias acceleration (S_dot q_dot), child frame Motion
U          Ia S                                         (..., 6, nv)
StU        S^T Ia S + diag(armature)                    (..., nv, nv)
Dinv       StU^-1                                       (..., nv, nv)
UDinv      U Dinv                                       (..., 6, nv)
=========  ==========================================  ==================

Fields that do not depend on the state (a constant S, a zero c) are stored without batch axes and
broadcast.
"""

import numpy as np

from ..errors import NotPositiveDefiniteError, ShapeError
from ..spatial import SE3, Motion
from ..spatial._kernels import mT

_ZERO_MOTION = np.zeros(6)
_ZERO_MOTION.flags.writeable = False


class JointData:
    """The caches of one joint (``JointDataTpl``); see the module docstring for the fields."""

    def __init__(self, model_classname, nq, nv, S, UDinv=None):
        self._shortname = model_classname.replace("JointModel", "JointData", 1)
        self.joint_q = np.zeros(nq)
        self.joint_v = np.zeros(nv)
        self.M = SE3.Identity()
        self.S = S
        self.v = Motion._wrap(np.zeros(6))
        self.c = Motion._wrap(_ZERO_MOTION)
        self.U = np.zeros((6, nv))
        self.StU = np.zeros((nv, nv))
        self.Dinv = np.zeros((nv, nv))
        self.UDinv = np.zeros((6, nv)) if UDinv is None else UDinv

    def shortname(self):
        """``JointDataRX`` for a ``JointModelRX``, and so on."""
        return self._shortname


class JointModel:
    """Base of every joint model; subclasses set ``nq``, ``nv``, ``lie_group`` and ``calc``.

    ``calc(jdata, q, v=None)`` reads the joint's segments of the model-sized ``q`` (and ``v``)
    through ``idx_q``/``idx_v``, as Pinocchio's ``JointModel.calc`` does.
    """

    nq = 0
    nv = 0
    lie_group = None

    def __init__(self):
        self.id = -1
        self.idx_q = 0
        self.idx_v = 0

    def setIndexes(self, id, q, v):
        """Place the joint in a model: its id and the start of its q and v segments."""
        self.id, self.idx_q, self.idx_v = int(id), int(q), int(v)

    @property
    def q_slice(self):
        """``slice(idx_q, idx_q + nq)`` (``jointConfigSelector``)."""
        return slice(self.idx_q, self.idx_q + self.nq)

    @property
    def v_slice(self):
        """``slice(idx_v, idx_v + nv)`` (``jointVelocitySelector``)."""
        return slice(self.idx_v, self.idx_v + self.nv)

    @classmethod
    def classname(cls):
        return cls.__name__

    def shortname(self):
        return self.classname()

    def createData(self):
        """A fresh JointData with Pinocchio's initial values (identity M, zero U, Dinv, ...)."""
        return JointData(self.classname(), self.nq, self.nv, np.zeros((6, self.nv)))

    def _segments(self, q, v):
        """The joint's q (and v) segments, checked for size."""
        qs = q[..., self.q_slice]
        if qs.shape[-1] != self.nq:
            raise ShapeError(f"{self.shortname()}: q has {q.shape[-1]} entries, the joint reads "
                             f"{self.nq} from index {self.idx_q}")
        if v is None:
            return qs, None
        vs = v[..., self.v_slice]
        if vs.shape[-1] != self.nv:
            raise ShapeError(f"{self.shortname()}: v has {v.shape[-1]} entries, the joint reads "
                             f"{self.nv} from index {self.idx_v}")
        return qs, vs

    def calc_aba(self, jdata, armature, I, update_I):
        """The joint's step of ABA's backward pass, dense form (the oracle of every override).

        U = I S ; StU = S^T U + diag(armature) ; Dinv = StU^-1 (Cholesky) ; UDinv = U Dinv ;
        if update_I: I -= UDinv U^T   (in place; I is ``(..., 6, 6)``)
        """
        jdata.U = I @ jdata.S
        jdata.StU = mT(jdata.S) @ jdata.U + np.diag(np.asarray(armature, dtype=float))
        jdata.Dinv = self._stys_inverse(jdata.StU)
        jdata.UDinv = jdata.U @ jdata.Dinv
        if update_I:
            I -= jdata.UDinv @ mT(jdata.U)

    def _stys_inverse(self, StU):
        """``internal::PerformStYSInversion``: Dinv = StU^-1 by Cholesky (reads the lower triangle).

        Raises NotPositiveDefiniteError naming the joint when StU is not positive definite.
        """
        try:
            L = np.linalg.cholesky(StU)
        except np.linalg.LinAlgError:
            raise self._not_pd(StU) from None
        Linv = np.linalg.inv(L)
        return mT(Linv) @ Linv

    def _scalar_inverse(self, d):
        """``Dinv = 1 / d`` for 1-dof joints, as ``(..., 1, 1)``; raises when d <= 0 or d is NaN."""
        if not np.all(d > 0):
            raise self._not_pd(d[..., None, None])
        return (1.0 / d)[..., None, None]

    def _not_pd(self, StU):
        return NotPositiveDefiniteError(
            f"joint {self.id} ({self.shortname()}): the joint-space inertia block "
            f"S^T Ia S + armature is not positive definite (got {StU.reshape(-1)[:9]} ...); "
            "check the masses and rotational inertias of the bodies it carries, or add armature",
            joint_id=self.id)

    # --- configuration space: every operation is the joint's Lie group's -----------------

    def neutral(self):
        """The neutral configuration ``(nq,)``."""
        return self.lie_group.neutral()

    def integrate(self, q, v):
        """q (+) v: move along the tangent vector v (nv) from q (nq)."""
        return self.lie_group.integrate(q, v)

    def difference(self, q0, q1):
        """q1 (-) q0: the tangent vector v (nv) with integrate(q0, v) == q1."""
        return self.lie_group.difference(q0, q1)

    def interpolate(self, q0, q1, u):
        """integrate(q0, u * difference(q0, q1))."""
        return self.lie_group.interpolate(q0, q1, u)

    def normalize(self, q):
        """q projected back onto the manifold (unit quaternion, unit (cos, sin) pair)."""
        return self.lie_group.normalize(q)

    def is_normalized(self, q, prec=1e-12):
        """True when q lies on the manifold to ``prec``."""
        return self.lie_group.is_normalized(q, prec)

    def random_configuration(self, lower, upper):
        """A random configuration within the bounds (where the space has bounds)."""
        return self.lie_group.random_configuration(lower, upper)

    def dIntegrate(self, q, v, arg):
        """Jacobian of integrate(q, v) w.r.t. q (ARG0) or v (ARG1), ``(..., nv, nv)``."""
        return self.lie_group.dIntegrate(q, v, arg)

    def dDifference(self, q0, q1, arg):
        """Jacobian of difference(q0, q1) w.r.t. q0 (ARG0) or q1 (ARG1), ``(..., nv, nv)``."""
        return self.lie_group.dDifference(q0, q1, arg)

    def __repr__(self):
        return f"{self.shortname()}(id={self.id}, idx_q={self.idx_q}, idx_v={self.idx_v})"
