"""Frames attached to joints (multibody/frame.hpp)."""

import copy
import enum
import warnings

from ..errors import ModelError
from ..spatial import SE3, Inertia
from ._values import same_fields


def pin_printed(cls):
    """Class decorator for an enum mirroring one of Pinocchio's: ``str`` gives the member's
    name (``str(pin.WORLD) == "WORLD"``; a combination of flags prints as its integer, as
    Pinocchio's ``OP_FRAME | BODY`` does) and ``repr`` the qualified name
    ``pinref.ReferenceFrame.WORLD`` (Pinocchio's: ``pinocchio.pinocchio_pywrap_default...``)."""

    def __str__(self):
        return self.name if self.name is not None and "|" not in self.name else str(int(self))

    def __repr__(self):
        return f"pinref.{cls.__name__}.{self}"

    cls.__str__, cls.__repr__ = __str__, __repr__
    return cls


@pin_printed
class ReferenceFrame(enum.IntEnum):
    """``pinocchio::ReferenceFrame``: where a velocity, acceleration or Jacobian is expressed.

    WORLD: world axes, about the world origin. LOCAL: the frame's own axes, about its origin.
    LOCAL_WORLD_ALIGNED: world axes, about the frame's origin.
    """

    WORLD = 0
    LOCAL = 1
    LOCAL_WORLD_ALIGNED = 2


@pin_printed
class FrameType(enum.IntFlag):
    """``pinocchio::FrameType``; the values are bit masks, as in Pinocchio."""

    OP_FRAME = 1
    JOINT = 2
    FIXED_JOINT = 4
    BODY = 8
    SENSOR = 16


OP_FRAME, JOINT, FIXED_JOINT, BODY, SENSOR = FrameType  # pin.OP_FRAME, ... at module level
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

    @property
    def parent(self):
        """Deprecated alias of ``parentJoint`` (Pinocchio 3.8 warns the same way)."""
        warnings.warn("Deprecated member. Use Frame.parentJoint instead.", UserWarning,
                      stacklevel=2)
        return self.parentJoint

    @parent.setter
    def parent(self, value):
        warnings.warn("Deprecated member. Use Frame.parentJoint instead.", UserWarning,
                      stacklevel=2)
        self.parentJoint = int(value)

    @property
    def previousFrame(self):
        """Deprecated alias of ``parentFrame`` (Pinocchio 3.8 warns the same way)."""
        warnings.warn("Deprecated member. Use Frame.parentFrame instead.", UserWarning,
                      stacklevel=2)
        return self.parentFrame

    @previousFrame.setter
    def previousFrame(self, value):
        warnings.warn("Deprecated member. Use Frame.parentFrame instead.", UserWarning,
                      stacklevel=2)
        self.parentFrame = int(value)

    def __eq__(self, other):
        """Name, type, parents, placement and inertia equal (``FrameTpl::operator==``)."""
        return isinstance(other, Frame) and same_fields(self, other)

    __hash__ = None

    def copy(self):
        return copy.deepcopy(self)

    def __str__(self):
        """As Pinocchio prints a Frame (``operator<<``)."""
        return (f"Frame name: {self.name} paired to (parent joint/ parent frame)"
                f"({self.parentJoint}/{self.parentFrame})\n"
                f"with relative placement wrt parent joint:\n{self.placement}"
                f"containing inertia:\n{self.inertia}\n")

    __repr__ = __str__
