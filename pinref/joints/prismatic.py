"""Prismatic joints: PX, PY, PZ (multibody/joint/joint-prismatic.hpp) and PrismaticUnaligned
(joint-prismatic-unaligned.hpp).

nq = nv = 1, q = (d). M = (I3, d u), S = [u; 0], v = q_dot S, c = 0, with u = e_axis or the
user's axis.
"""

from ._axis import EYE3, FrameAxisJointModel, UnalignedJointModel, motion_subspace
from .base import JointData
from .liegroup import VectorSpace
from ..spatial import SE3, Motion
from ..spatial._kernels import LINEAR


class JointModelPrismaticTpl(FrameAxisJointModel):
    """Prismatic joint along the frame axis ``axis`` (0, 1, 2 for x, y, z)."""

    nq = 1
    part = LINEAR
    lie_group = VectorSpace(1)

    @classmethod
    def classname(cls):
        return "JointModelP" + "XYZ"[cls.axis]

    def _transform(self, qs):
        """M = (I3, q e_axis)."""
        return SE3.unchecked(EYE3, qs * self._unit)


class JointModelPX(JointModelPrismaticTpl):
    """Prismatic along x."""
    axis = 0


class JointModelPY(JointModelPrismaticTpl):
    """Prismatic along y."""
    axis = 1


class JointModelPZ(JointModelPrismaticTpl):
    """Prismatic along z."""
    axis = 2


class JointModelPrismaticUnaligned(UnalignedJointModel):
    """Prismatic along ``axis``: ``()`` (x), ``(axis)`` (as given), ``(x, y, z)`` (normalised)."""

    nq = 1
    nv = 1
    part = LINEAR
    lie_group = VectorSpace(1)
    rotates_about_axis = False

    def _set_axis(self, u):
        self._S = motion_subspace(linear=self._axis_col)
        self._S_col = self._S[:, 0]

    def createData(self):
        return JointData(self.classname(), 1, 1, self._S)

    def calc(self, jdata, q, v=None):
        """M = (I3, u q) ; S = [u; 0] (constant) ; v = q_dot S ; c = 0."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        jdata.M = self._transform(qs)
        if vs is not None:
            jdata.joint_v = vs
            jdata.v = Motion.unchecked(vs * self._S_col)

    def _transform(self, qs):
        """M = (I3, q u)."""
        return SE3.unchecked(EYE3, qs * self._axis)

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, 0:3] u ; StU = u . U[0:3] + armature ; Dinv = 1 / StU ;
        UDinv = U Dinv ; if update_I: I -= UDinv U^T.  (Pinocchio 3.8.0 leaves StU unwritten.)"""
        U = I[..., :, LINEAR] @ self._axis_col
        self._aba_1dof(jdata, U, self._axis_row @ U[..., LINEAR, :] + armature, I, update_I)
