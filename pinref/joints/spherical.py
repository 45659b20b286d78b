"""The spherical (ball) joint (multibody/joint/joint-spherical.hpp).

nq = 4, nv = 3, q = (qx, qy, qz, qw), a quaternion **used as given, not normalised**.
M = (R(quat), 0), S = [0; I3], v = (0; q_dot), c = 0.
"""

from ._axis import EYE3, EYES, ZERO3, motion_subspace, quaternion_rotation, read_only
from .base import JointData, JointModel
from .liegroup import SpecialOrthogonal3
from ..spatial import SE3, Motion
from ..spatial._kernels import ANGULAR

_S = motion_subspace(angular=EYE3)
_ST = read_only(_S.T)


class JointModelSpherical(JointModel):
    """Three rotational dofs; its configuration space is SO(3)."""

    nq = 4
    nv = 3
    lie_group = SpecialOrthogonal3()

    def createData(self):
        """joint_q starts as the identity quaternion (0, 0, 0, 1), as in Pinocchio."""
        return JointData(self.classname(), 4, 3, _S, joint_q=[0, 0, 0, 1])

    def calc(self, jdata, q, v=None):
        """M = (R(q), 0) (quaternion, not normalised) ; S = [0; I3] (constant) ;
        v = (0; q_dot) ; c = 0."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        jdata.M = SE3.unchecked(quaternion_rotation(qs), ZERO3)
        if vs is not None:
            jdata.joint_v = vs
            jdata.v = Motion.unchecked(vs @ _ST)

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, 3:6] ; StU = U[3:6, :] + diag(armature) ; Dinv = StU^-1 (Cholesky) ;
        UDinv = U Dinv ; if update_I: I -= UDinv U^T."""
        U = I[..., :, ANGULAR].copy()
        self._aba_ndof(jdata, U, U[..., ANGULAR, :] + EYES[3] * armature, I, update_I)
