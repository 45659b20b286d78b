"""Revolute joints about a frame axis: RX, RY, RZ (multibody/joint/joint-revolute.hpp).

nq = nv = 1, q = (theta). M = (R_axis(theta), 0), S = [0; e_axis], v = q_dot S, c = 0.
"""

import numpy as np

from ._axis import ZERO3, cos_sin, frame_axis_rotation, motion_subspace, unit_vector
from .base import JointData, JointModel
from .liegroup import VectorSpace
from ..spatial import SE3, Motion
from ..spatial._kernels import ANGULAR


class JointModelRevoluteTpl(JointModel):
    """Revolute joint about the frame axis ``axis`` (0, 1, 2 for x, y, z)."""

    nq = 1
    nv = 1
    axis = 0
    lie_group = VectorSpace(1)

    @classmethod
    def classname(cls):
        return "JointModelR" + "XYZ"[cls.axis]

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._S = motion_subspace(angular=unit_vector(cls.axis)[:, None])
        cls._S_col = cls._S[:, 0]

    def getMotionAxis(self):
        """The unit axis e_axis ``(3,)``."""
        return np.array(unit_vector(self.axis))

    def createData(self):
        return JointData(self.classname(), 1, 1, self._S)

    def calc(self, jdata, q, v=None):
        """M = (R_axis(q), 0) ; S = [0; e_axis] (constant) ; v = q_dot S ; c = 0."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        jdata.M = SE3._wrap(frame_axis_rotation(cos_sin(qs), self.axis), ZERO3)
        if vs is not None:
            jdata.joint_v = vs
            jdata.v = Motion._wrap(vs * self._S_col)

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, 3+axis] ; StU = U[3+axis] + armature ; Dinv = 1 / StU ; UDinv = U Dinv ;
        if update_I: I -= UDinv U^T.  (Pinocchio 3.8.0 leaves StU unwritten here.)"""
        k = ANGULAR.start + self.axis
        self._aba_1dof(jdata, I[..., :, k:k + 1].copy(), I[..., k:k + 1, k:k + 1] + armature,
                       I, update_I)


class JointModelRX(JointModelRevoluteTpl):
    """Revolute about x."""
    axis = 0


class JointModelRY(JointModelRevoluteTpl):
    """Revolute about y."""
    axis = 1


class JointModelRZ(JointModelRevoluteTpl):
    """Revolute about z."""
    axis = 2
