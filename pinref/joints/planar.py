"""The planar joint: translation in the xy plane and rotation about z
(multibody/joint/joint-planar.hpp).

nq = 4, nv = 3, q = (x, y, cos theta, sin theta), the pair **used as given, not normalised**.
M = (Rz(c, s), (x, y, 0)), S = [e_vx, e_vy, e_wz] (constant in the child frame),
v = (q_dot_0, q_dot_1, 0; 0, 0, q_dot_2), c = 0 (zero in Pinocchio 3.8 too).
"""

import numpy as np

from ._axis import EYES, read_only
from .base import JointData, JointModel
from .liegroup import SpecialEuclidean2
from ..spatial import SE3, Motion

# Columns of S in the 6 motion coordinates [v; w]: vx, vy and wz.
_COLUMNS = read_only([0, 1, 5]).astype(np.intp)
_S = read_only(np.eye(6)[:, _COLUMNS])
_ST = read_only(_S.T)


class JointModelPlanar(JointModel):
    """Two translations in the xy plane and the rotation about z; configuration space SE(2)."""

    nq = 4
    nv = 3
    lie_group = SpecialEuclidean2()

    def createData(self):
        """joint_q starts as the neutral (0, 0, 1, 0), as in Pinocchio."""
        return JointData(self.classname(), 4, 3, _S, joint_q=[0, 0, 1, 0])

    def calc(self, jdata, q, v=None):
        """M = ([[c, -s, 0], [s, c, 0], [0, 0, 1]], (x, y, 0)) with (x, y, c, s) = q ;
        S constant ; v = S q_dot ; c = 0."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        b = qs.shape[:-1]
        c, s = qs[..., 2], qs[..., 3]
        # R = [[c, -s, 0], [s, c, 0], [0, 0, 1]]
        R = np.zeros(b + (3, 3))
        R[..., 0, 0] = c
        R[..., 0, 1] = -s
        R[..., 1, 0] = s
        R[..., 1, 1] = c
        R[..., 2, 2] = 1.0
        # p = (x, y, 0)
        p = np.zeros(b + (3,))
        p[..., :2] = qs[..., :2]
        jdata.M = SE3.unchecked(R, p)
        if vs is not None:
            jdata.joint_v = vs
            # v = S q_dot = (q_dot_0, q_dot_1, 0; 0, 0, q_dot_2): (vx, vy, wz), exact (0/1 entries)
            jdata.v = Motion.unchecked(vs @ _ST)

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, (vx, vy, wz)] ; StU = (U[(vx, vy, wz), :])^T + diag(armature) (Pinocchio
        fills StU by columns, i.e. the transpose of S^T U) ; Dinv = StU^-1 (Cholesky) ;
        UDinv = U Dinv ; if update_I: I -= UDinv U^T."""
        U = I.take(_COLUMNS, axis=-1)
        StU = U.take(_COLUMNS, axis=-2).mT + EYES[3] * armature
        self._aba_ndof(jdata, U, StU, I, update_I)
