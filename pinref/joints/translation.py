"""The translation joint (multibody/joint/joint-translation.hpp).

nq = nv = 3, q = (x, y, z). M = (I3, q), S = [I3; 0], v = (q_dot; 0), c = 0.
"""

from ._axis import EYE3, EYES, motion_subspace, read_only
from .base import JointData, JointModel
from .liegroup import VectorSpace
from ..spatial import SE3, Motion
from ..spatial._kernels import LINEAR

_S = motion_subspace(linear=EYE3)
_ST = read_only(_S.T)


class JointModelTranslation(JointModel):
    """Three translational dofs; its configuration space is R^3."""

    nq = 3
    nv = 3
    lie_group = VectorSpace(3)

    def createData(self):
        return JointData(self.classname(), 3, 3, _S)

    def calc(self, jdata, q, v=None):
        """M = (I3, q) ; S = [I3; 0] (constant) ; v = (q_dot; 0) ; c = 0."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        jdata.M = SE3.unchecked(EYE3, qs.copy())
        if vs is not None:
            jdata.joint_v = vs
            jdata.v = Motion.unchecked(vs @ _ST)

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, 0:3] ; StU = U[0:3, :] + diag(armature) ; Dinv = StU^-1 (Cholesky) ;
        UDinv = U Dinv ; if update_I: I -= UDinv U^T."""
        U = I[..., :, LINEAR].copy()
        self._aba_ndof(jdata, U, U[..., LINEAR, :] + EYES[3] * armature, I, update_I)
