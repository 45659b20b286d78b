"""The spherical joint in ZYX Euler angles (multibody/joint/joint-spherical-ZYX.hpp).

nq = nv = 3, q = (z, y, x) angles. With c_k, s_k the cosine and sine of q_k:

    M = (Rz(q0) Ry(q1) Rx(q2), 0)
    S = [0; S_ang],  S_ang = [[-s1, 0, 1], [c1 s2, c2, 0], [c1 c2, -s2, 0]]
    v = (0; S_ang q_dot)
    c = (0; Sdot_ang q_dot) = (0; [-c1 qd0 qd1,
                                   -s1 s2 qd0 qd1 + c1 c2 qd0 qd2 - s2 qd1 qd2,
                                   -s1 c2 qd0 qd1 - c1 s2 qd0 qd2 - c2 qd1 qd2])

S_ang = Rx^T [Ry^T e_z, e_y, e_x] and the matrix C of c = C (qd0 qd1, qd0 qd2, qd1 qd2) is
Rx^T [[-c1, 0, 0], [0, c1, 0], [-s1, 0, -1]]; both come from one product below.
"""

import numpy as np

from ._axis import EYES, ZERO3, affine_map, cos_sin
from .base import JointData, JointModel
from .liegroup import VectorSpace
from ..spatial import SE3, Motion
from ..spatial._kernels import ANGULAR, matvec

# The velocity products (qd0 qd1, qd0 qd2, qd1 qd2) of c.
_PAIR_I, _PAIR_J = np.array([0, 0, 1]), np.array([1, 2, 2])


def _blocks(c0, c1, c2, s0, s1, s2):
    """Rz, Ry, Rx ``(3, 3)`` each, [0; Rx^T] ``(6, 3)``, and [Ay | Cy] ``(3, 6)``, flattened;
    affine in (c0, c1, c2, s0, s1, s2)."""
    Rz = [[c0, -s0, 0], [s0, c0, 0], [0, 0, 1]]
    Ry = [[c1, 0, s1], [0, 1, 0], [-s1, 0, c1]]
    Rx = [[1, 0, 0], [0, c2, -s2], [0, s2, c2]]
    RxT6 = [[0, 0, 0]] * 3 + [[1, 0, 0], [0, c2, s2], [0, -s2, c2]]
    AyCy = [[-s1, 0, 1, -c1, 0, 0], [0, 1, 0, 0, c1, 0], [c1, 0, 0, -s1, 0, -1]]
    return np.concatenate([np.ravel(b) for b in (Rz, Ry, Rx, RxT6, AyCy)])


_W, _W0 = affine_map(_blocks, 6)


class JointModelSphericalZYX(JointModel):
    """Three rotations about z, then the new y, then the new x; configuration space R^3."""

    nq = 3
    nv = 3
    lie_group = VectorSpace(3)

    def createData(self):
        return JointData(self.classname(), 3, 3, np.zeros((6, 3)))

    def calc(self, jdata, q, v=None):
        """M = (Rz(q0) Ry(q1) Rx(q2), 0) ; S = [0; S_ang(q)] ; v = S q_dot ; c = (0; C(q) w)
        with w = (qd0 qd1, qd0 qd2, qd1 qd2); see the module docstring. calc(q) writes M, S."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        b = qs.shape[:-1]
        L = cos_sin(qs) @ _W + _W0  # 0/+-1 coefficients, one term per entry: exact
        R3 = L[..., :27].reshape(b + (3, 3, 3))
        jdata.M = SE3._wrap(R3[..., 0, :, :] @ R3[..., 1, :, :] @ R3[..., 2, :, :], ZERO3)
        SC = L[..., 27:45].reshape(b + (6, 3)) @ L[..., 45:].reshape(b + (3, 6))
        jdata.S = SC[..., :, :3]
        if vs is not None:
            jdata.joint_v = vs
            jdata.v = Motion._wrap(matvec(jdata.S, vs))
            jdata.c = Motion._wrap(matvec(SC[..., :, 3:], vs[..., _PAIR_I] * vs[..., _PAIR_J]))

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, 3:6] S_ang ; StU = S_ang^T U[3:6, :] + diag(armature) ;
        Dinv = StU^-1 (Cholesky) ; UDinv = U Dinv ; if update_I: I -= UDinv U^T."""
        S_ang = jdata.S[..., ANGULAR, :]
        U = I[..., :, ANGULAR] @ S_ang
        self._aba_ndof(jdata, U, S_ang.mT @ U[..., ANGULAR, :] + EYES[3] * armature, I, update_I)
