"""The spherical joint in ZYX Euler angles (multibody/joint/joint-spherical-ZYX.hpp).

nq = nv = 3, q = (z, y, x) angles. With c_k, s_k the cosine and sine of q_k:

    M = (Rz(q0) Ry(q1) Rx(q2), 0)
    S = [0; S_ang],  S_ang = [[-s1, 0, 1], [c1 s2, c2, 0], [c1 c2, -s2, 0]]
    v = S q_dot = (0; S_ang q_dot)
    c = (0; [-c1 qd0 qd1,
             -s1 s2 qd0 qd1 + c1 c2 qd0 qd2 - s2 qd1 qd2,
             -s1 c2 qd0 qd1 - c1 s2 qd0 qd2 - c2 qd1 qd2])

c is the time derivative of S_ang at constant q_dot, applied to q_dot (Sdot_ang q_dot). calc
writes every entry with Pinocchio's formula, elementwise over the batch axes (so that a state
gives the same bits alone or in a batch).
"""

import numpy as np

from ._axis import EYES, ZERO3, components
from .base import JointData, JointModel
from .liegroup import VectorSpace
from ..spatial import SE3, Motion
from ..spatial._kernels import ANGULAR, matvec


class JointModelSphericalZYX(JointModel):
    """Three rotations about z, then the new y, then the new x; configuration space R^3."""

    nq = 3
    nv = 3
    lie_group = VectorSpace(3)

    def createData(self):
        return JointData(self.classname(), 3, 3, np.zeros((6, 3)))

    def calc(self, jdata, q, v=None):
        """M = (Rz(q0) Ry(q1) Rx(q2), 0) ; S = [0; S_ang(q)] ; v = S q_dot ;
        c = (0; Sdot_ang q_dot); see the module docstring. calc(q) writes M and S."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        b = qs.shape[:-1]
        c0, c1, c2 = components(np.cos(qs))
        s0, s1, s2 = components(np.sin(qs))
        # R = Rz(q0) Ry(q1) Rx(q2)
        R = np.empty(b + (3, 3))
        R[..., 0, 0] = c0 * c1
        R[..., 0, 1] = c0 * s1 * s2 - s0 * c2
        R[..., 0, 2] = c0 * s1 * c2 + s0 * s2
        R[..., 1, 0] = s0 * c1
        R[..., 1, 1] = s0 * s1 * s2 + c0 * c2
        R[..., 1, 2] = s0 * s1 * c2 - c0 * s2
        R[..., 2, 0] = -s1
        R[..., 2, 1] = c1 * s2
        R[..., 2, 2] = c1 * c2
        jdata.M = SE3.unchecked(R, ZERO3)
        # S = [0; S_ang],  S_ang = [[-s1, 0, 1], [c1 s2, c2, 0], [c1 c2, -s2, 0]]
        S = np.zeros(b + (6, 3))
        S[..., 3, 0] = -s1
        S[..., 3, 2] = 1.0
        S[..., 4, 0] = c1 * s2
        S[..., 4, 1] = c2
        S[..., 5, 0] = c1 * c2
        S[..., 5, 1] = -s2
        jdata.S = S
        if vs is not None:
            jdata.joint_v = vs
            # v = S q_dot
            jdata.v = Motion.unchecked(matvec(S, vs))
            # c = (0; Sdot_ang q_dot)
            qd0, qd1, qd2 = components(vs)
            c = np.zeros(b + (6,))
            c[..., 3] = -c1 * qd0 * qd1
            c[..., 4] = -s1 * s2 * qd0 * qd1 + c1 * c2 * qd0 * qd2 - s2 * qd1 * qd2
            c[..., 5] = -s1 * c2 * qd0 * qd1 - c1 * s2 * qd0 * qd2 - c2 * qd1 * qd2
            jdata.c = Motion.unchecked(c)

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, 3:6] S_ang ; StU = S_ang^T U[3:6, :] + diag(armature) ;
        Dinv = StU^-1 (Cholesky) ; UDinv = U Dinv ; if update_I: I -= UDinv U^T."""
        S_ang = jdata.S[..., ANGULAR, :]
        U = I[..., :, ANGULAR] @ S_ang
        self._aba_ndof(jdata, U, S_ang.mT @ U[..., ANGULAR, :] + EYES[3] * armature, I, update_I)
