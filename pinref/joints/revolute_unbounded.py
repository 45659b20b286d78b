"""Unbounded (continuous) revolute joints, q = (cos theta, sin theta):
RUBX, RUBY, RUBZ (multibody/joint/joint-revolute-unbounded.hpp) and RevoluteUnboundedUnaligned
(joint-revolute-unbounded-unaligned.hpp).

nq = 2, nv = 1. The pair (c, s) = q is used **as given, not normalised**: M = (R(c, s), 0) with
the rotation formula evaluated at that c and s, S = [0; u], v = q_dot S, c = 0.
"""

from ._axis import (ZERO3, FrameAxisJointModel, UnalignedJointModel, frame_axis_rotation,
                    motion_subspace, rotation_basis, rotation_from_cos_sin)
from .base import JointData
from .liegroup import SpecialOrthogonal2
from ..spatial import SE3, Motion
from ..spatial._kernels import ANGULAR


class JointModelRevoluteUnboundedTpl(FrameAxisJointModel):
    """Unbounded revolute joint about the frame axis ``axis`` (0, 1, 2 for x, y, z)."""

    nq = 2
    part = ANGULAR
    lie_group = SpecialOrthogonal2()
    _neutral_q = (1.0, 0.0)  # (cos 0, sin 0), as in Pinocchio

    @classmethod
    def classname(cls):
        return "JointModelRUB" + "XYZ"[cls.axis]

    def _transform(self, qs):
        """M = (R_axis(c = q[0], s = q[1]), 0), the pair used as given."""
        return SE3.unchecked(frame_axis_rotation(qs, self.axis), ZERO3)


class JointModelRUBX(JointModelRevoluteUnboundedTpl):
    """Unbounded revolute about x."""
    axis = 0


class JointModelRUBY(JointModelRevoluteUnboundedTpl):
    """Unbounded revolute about y."""
    axis = 1


class JointModelRUBZ(JointModelRevoluteUnboundedTpl):
    """Unbounded revolute about z."""
    axis = 2


class JointModelRevoluteUnboundedUnaligned(UnalignedJointModel):
    """Unbounded revolute about ``axis``: ``()`` (x), ``(axis)`` (as given), ``(x, y, z)``
    (normalised). Pinocchio's Python binding offers ``()`` only; C++ and the URDF parser take
    an axis."""

    nq = 2
    nv = 1
    part = ANGULAR
    lie_group = SpecialOrthogonal2()

    def _set_axis(self, u):
        self._S = motion_subspace(angular=self._axis_col)
        self._S_col = self._S[:, 0]
        self._rotation = rotation_basis(u)

    def createData(self):
        """joint_q starts as (cos 0, sin 0) = (1, 0), as in Pinocchio."""
        return JointData(self.classname(), 2, 1, self._S, joint_q=[1, 0])

    def calc(self, jdata, q, v=None):
        """M = (R(u, c = q[0], s = q[1]), 0) ; S = [0; u] (constant) ; v = q_dot S ; c = 0."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        jdata.M = self._transform(qs)
        if vs is not None:
            jdata.joint_v = vs
            jdata.v = Motion.unchecked(vs * self._S_col)

    def _transform(self, qs):
        """M = (R(u, c = q[0], s = q[1]), 0), the pair used as given."""
        return SE3.unchecked(rotation_from_cos_sin(qs, self._rotation), ZERO3)

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, 3:6] u ; StU = u . U[3:6] + armature ; Dinv = 1 / StU ;
        UDinv = U Dinv ; if update_I: I -= UDinv U^T.  (Pinocchio 3.8.0 leaves StU unwritten.)"""
        U = I[..., :, ANGULAR] @ self._axis_col
        self._aba_1dof(jdata, U, self._axis_row @ U[..., ANGULAR, :] + armature, I, update_I)
