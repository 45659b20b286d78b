"""Joint models: kinematics (calc), ABA step (calc_aba) and configuration space of each type."""

from .base import JointData, JointModel
from .free_flyer import JointModelFreeFlyer
from .revolute import JointModelRX, JointModelRY, JointModelRZ

__all__ = ["JointData", "JointModel", "JointModelFreeFlyer", "JointModelRX", "JointModelRY",
           "JointModelRZ"]
