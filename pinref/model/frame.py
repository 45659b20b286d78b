"""Frames attached to joints (multibody/frame.hpp)."""

import enum

from ..errors import ModelError
from ..spatial import SE3, Inertia


class FrameType(enum.IntFlag):
    """``pinocchio::FrameType``; the values are bit masks, as in Pinocchio."""

    OP_FRAME = 1
    JOINT = 2
    FIXED_JOINT = 4
    BODY = 8
    SENSOR = 16


ALL_FRAME_TYPES = (FrameType.OP_FRAME | FrameType.JOINT | FrameType.FIXED_JOINT
                   | FrameType.BODY | FrameType.SENSOR)


class Frame:
    """A named frame fixed to joint ``parentJoint`` at ``placement`` (frame in joint frame).

    ``Frame(name, parentJoint, parentFrame, placement, type, inertia=Inertia.Zero())``, or the
    older ``Frame(name, parentJoint, placement, type, inertia=Inertia.Zero())`` (parentFrame 0).
    ``inertia`` is a body carried by the frame (expressed in the frame); ``Model.addFrame``
    appends it to the parent joint's inertia.
    """

    def __init__(self, name, parentJoint, *args):
        if args and isinstance(args[0], SE3):
            parentFrame, rest = 0, args
        elif len(args) >= 2:
            parentFrame, rest = args[0], args[1:]
        else:
            raise ModelError("Frame(name, parentJoint, [parentFrame,] placement, type[, inertia])")
        if len(rest) not in (2, 3) or not isinstance(rest[0], SE3):
            raise ModelError("Frame: expected placement (SE3) and type (FrameType) after the parents")
        self.name = str(name)
        self.parentJoint = int(parentJoint)
        self.parentFrame = int(parentFrame)
        self.placement = rest[0]
        self.type = FrameType(rest[1])
        self.inertia = rest[2] if len(rest) == 3 else Inertia.Zero()

    def __repr__(self):
        return (f"Frame(name={self.name!r}, parentJoint={self.parentJoint}, "
                f"parentFrame={self.parentFrame}, type={self.type!r})")
