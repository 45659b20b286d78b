"""Revolute joints about a frame axis: RX, RY, RZ (multibody/joint/joint-revolute.hpp).

nq = nv = 1, q = (theta). M = (R_axis(theta), 0), S = [0; e_axis], v = q_dot S, c = 0.
"""


import numpy as np

from .base import JointData, JointModel
from .liegroup import VectorSpace
from ..spatial import SE3, Motion
from ..spatial._kernels import ANGULAR

# R_axis(theta) = B0 + cos(theta) Bc + sin(theta) Bs, one (3, 3) triple per axis.
_ROTATION_BASIS = []
for _axis in range(3):
    _b, _c = (_axis + 1) % 3, (_axis + 2) % 3
    B0, Bc, Bs = np.zeros((3, 3)), np.zeros((3, 3)), np.zeros((3, 3))
    B0[_axis, _axis] = 1.0
    Bc[_b, _b] = Bc[_c, _c] = 1.0
    Bs[_c, _b], Bs[_b, _c] = 1.0, -1.0
    _ROTATION_BASIS.append(np.stack((B0, Bc, Bs)).reshape(3, 9))


def axis_rotation(axis, c, s):
    """``R_axis`` from cos and sin ``(...)``, written as Pinocchio writes c and +-s into I3."""
    coeffs = np.stack((np.ones_like(c), c, s), axis=-1)
    return (coeffs @ _ROTATION_BASIS[axis]).reshape(np.shape(c) + (3, 3))


class JointModelRevoluteTpl(JointModel):
    """Revolute joint about the frame axis ``axis`` (0, 1, 2 for x, y, z)."""

    nq = 1
    nv = 1
    axis = 0
    lie_group = VectorSpace(1)

    @classmethod
    def classname(cls):
        return "JointModelR" + "XYZ"[cls.axis]

    def createData(self):
        jdata = JointData(self.classname(), 1, 1, self._S)
        jdata.joint_q = np.zeros(1)
        return jdata

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._S = np.zeros((6, 1))
        cls._S[3 + cls.axis, 0] = 1.0
        cls._S.flags.writeable = False

    def calc(self, jdata, q, v=None):
        """M = (R_axis(q), 0) ; S = [0; e_axis] ; v = q_dot S ; c = 0."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        theta = qs[..., 0]
        jdata.M = SE3._wrap(axis_rotation(self.axis, np.cos(theta), np.sin(theta)), np.zeros(3))
        if vs is not None:
            jdata.joint_v = vs
            jdata.v = Motion._wrap(vs * self._S[:, 0])

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I[:, 3+axis] ; Dinv = 1 / (I[3+axis, 3+axis] + armature) ; UDinv = U Dinv ;
        if update_I: I -= UDinv U^T.  (StU is not written, as in Pinocchio 3.8.0 LOCAL.)"""
        k = ANGULAR.start + self.axis
        jdata.U = I[..., :, k:k + 1].copy()
        jdata.Dinv = self._scalar_inverse(I[..., k, k] + armature[0])
        jdata.UDinv = jdata.U * jdata.Dinv[..., 0, :]
        if update_I:
            I -= jdata.UDinv * jdata.U[..., :, 0][..., None, :]


class JointModelRX(JointModelRevoluteTpl):
    """Revolute about x."""
    axis = 0


class JointModelRY(JointModelRevoluteTpl):
    """Revolute about y."""
    axis = 1


class JointModelRZ(JointModelRevoluteTpl):
    """Revolute about z."""
    axis = 2
