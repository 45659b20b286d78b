"""Revolute joints about a frame axis: RX, RY, RZ (multibody/joint/joint-revolute.hpp).

nq = nv = 1, q = (theta). M = (R_axis(theta), 0), S = [0; e_axis], v = q_dot S, c = 0.
"""

from ._axis import ZERO3, FrameAxisJointModel, cos_sin, frame_axis_rotation
from .liegroup import VectorSpace
from ..spatial import SE3
from ..spatial._kernels import ANGULAR


class JointModelRevoluteTpl(FrameAxisJointModel):
    """Revolute joint about the frame axis ``axis`` (0, 1, 2 for x, y, z)."""

    nq = 1
    part = ANGULAR
    lie_group = VectorSpace(1)

    @classmethod
    def classname(cls):
        return "JointModelR" + "XYZ"[cls.axis]

    def _transform(self, qs):
        """M = (R_axis(q), 0): c = cos q and +-s = sin q written into I3."""
        return SE3.unchecked(frame_axis_rotation(cos_sin(qs), self.axis), ZERO3)


class JointModelRX(JointModelRevoluteTpl):
    """Revolute about x."""
    axis = 0


class JointModelRY(JointModelRevoluteTpl):
    """Revolute about y."""
    axis = 1


class JointModelRZ(JointModelRevoluteTpl):
    """Revolute about z."""
    axis = 2
