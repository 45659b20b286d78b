"""The free-flyer joint (multibody/joint/joint-free-flyer.hpp).

nq = 7, nv = 6, q = (x, y, z, qx, qy, qz, qw): the child origin in the parent frame and the
(x, y, z, w) quaternion, **used as given** (not normalised; see the quirks ledger).
M = (R(quat), (x, y, z)), S = I6, v = q_dot (linear part in the child frame), c = 0.
"""

import numpy as np

from ._axis import EYES, quaternion_rotation, read_only
from .base import JointData, JointModel
from .liegroup import SpecialEuclidean3
from ..spatial import SE3, Motion

_S = read_only(np.eye(6))


class JointModelFreeFlyer(JointModel):
    """Six-dof joint; its configuration space is SE(3)."""

    nq = 7
    nv = 6
    lie_group = SpecialEuclidean3()

    def createData(self):
        """Pinocchio's initial values: joint_q is the neutral (0, 0, 0, 0, 0, 0, 1), UDinv = I6."""
        return JointData(self.classname(), 7, 6, _S, UDinv=np.eye(6), joint_q=[0, 0, 0, 0, 0, 0, 1])

    def calc(self, jdata, q, v=None):
        """M = (R(q[3:7]), q[0:3]) ; S = I6 (constant) ; v = q_dot ; c = 0."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        jdata.M = SE3.unchecked(quaternion_rotation(qs[..., 3:7]), qs[..., 0:3].copy())
        if vs is not None:
            jdata.joint_v = vs
            jdata.v = Motion.unchecked(vs.copy())

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I ; StU = I + diag(armature) ; Dinv = StU^-1 (Cholesky) ; UDinv = U Dinv ;
        if update_I: I -= UDinv U^T."""
        self._aba_ndof(jdata, I.copy(), I + EYES[6] * armature, I, update_I)
