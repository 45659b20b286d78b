"""Typed errors raised at pinref's API boundary.

Every error is a :class:`PinrefError` and also the builtin a caller would catch:

- :class:`ShapeError`, :class:`NonFiniteError`, :class:`NotNormalizedError`,
  :class:`InertiaError`, :class:`URDFError`, :class:`MJCFError`, :class:`ModelError` ->
  ``ValueError``
- :class:`ArgumentValueError` -> ``ValueError``; :class:`ArgumentTypeError` -> ``TypeError``;
  :class:`BatchIndexError`, :class:`ContainerIndexError` -> ``IndexError``
- :class:`DataModelMismatchError` -> ``ValueError`` and ``RuntimeError`` (Pinocchio's type)
- :class:`NotComputedError` -> ``RuntimeError`` (a cache read before the call that writes it)
- :class:`DataInUseError` -> ``RuntimeError`` (a Data used by two threads' calls at once)
- :class:`UnsupportedError` -> ``NotImplementedError`` (a ``RuntimeError``), and its
  :class:`MimicUnsupportedError` (mimic joints in ABA, and what else Pinocchio refuses for them)
- :class:`NotPositiveDefiniteError` -> ``ArithmeticError`` (a joint-space inertia block
  ``S^T Ia S + armature`` that cannot be inverted)

and six warnings: :class:`InertiaWarning` (a ``UserWarning``), for a physically inconsistent
inertia that Pinocchio accepts and pinref therefore loads; :class:`MalformedInertialWarning` and
:class:`DuplicateJointNameWarning` (``UserWarning``), for a URDF Pinocchio loads although
urdfdom cannot read a link's ``<inertial>`` or a joint has the root joint's name;
:class:`AxisWarning` (a ``UserWarning``), for an unaligned joint axis that is not of unit
length; :class:`NonFiniteResultWarning` (a ``RuntimeWarning``), for NaN or infinity an
algorithm computed from finite input; and :class:`MJCFWarning` (a ``UserWarning``), where
Pinocchio's model of an MJCF file is not MuJoCo's.

A message names the argument or joint, says what was expected and, where one exists, the fix.
"""


class PinrefError(Exception):
    """Base class of every error pinref raises on purpose."""


class ShapeError(PinrefError, ValueError):
    """An argument has the wrong size, or batch shapes that do not broadcast."""


class NonFiniteError(PinrefError, ValueError):
    """An argument holds NaN or infinity."""


class ArgumentTypeError(PinrefError, TypeError):
    """An argument of the wrong kind: a Motion where an SE3 belongs, a pinocchio object where a
    pinref one belongs, complex numbers where real ones belong."""


class ArgumentValueError(PinrefError, ValueError):
    """An argument of the right kind whose value is outside its domain: an unknown algorithm
    or check name, a tolerance that is not a positive finite number, a negative seed."""


class BatchIndexError(PinrefError, IndexError):
    """An index into a spatial object's batch axes that it does not have (``Motion(v)[5]``)."""


class ContainerIndexError(PinrefError, IndexError):
    """An index past the end of a ``StdVec_*`` container ("Index out of range", as Pinocchio)."""


class DataModelMismatchError(PinrefError, ValueError, RuntimeError):
    """A Data used with a Model other than the one it was created for (other sizes, parents or
    joint types); Pinocchio raises RuntimeError, hence the second builtin."""


class NonFiniteResultWarning(RuntimeWarning):
    """An algorithm produced NaN or infinity from finite input (an overflow, e.g. v = 1e200, or
    a centre of mass of a subtree of mass 0); the message names the first cache that is not
    finite and the cause."""


class NotNormalizedError(PinrefError, ValueError):
    """A quaternion or (cos, sin) pair whose norm is off 1 by more than the tolerance."""


class InertiaError(PinrefError, ValueError):
    """A non-physical inertia: negative mass, non-symmetric or non-positive rotational inertia."""


class ModelError(PinrefError, ValueError):
    """An inconsistent model: unknown joint or frame, bad parent, bad axis, ..."""


class URDFError(PinrefError, ValueError):
    """A URDF file that cannot be read or does not describe a valid tree."""


class MJCFError(PinrefError, ValueError):
    """A MuJoCo (MJCF) file that cannot be read or that Pinocchio's MJCF parser refuses; the
    message names the file, the line and the element."""


class NotComputedError(PinrefError, RuntimeError):
    """A Data cache was read before the call that writes it."""


class DataInUseError(PinrefError, RuntimeError):
    """A Data entered by a call while another thread's call is still using it: a Data belongs to
    one call at a time, as in Pinocchio (give each thread its own ``model.createData()``)."""


class UnsupportedError(PinrefError, NotImplementedError):
    """A feature of Pinocchio that pinref does not cover (yet)."""


class MimicUnsupportedError(UnsupportedError):
    """An algorithm Pinocchio 3.8.0 refuses for a model with mimic joints (its binding raises
    RuntimeError; NotImplementedError, and so this error, is a RuntimeError too)."""


class NotPositiveDefiniteError(PinrefError, ArithmeticError):
    """A joint-space inertia block is not positive definite, so ABA cannot invert it.

    ``joint_id`` is the joint's id in its model (``-1`` for a joint outside a model).
    """

    def __init__(self, message, joint_id=-1):
        super().__init__(message)
        self.joint_id = joint_id

    def __reduce__(self):
        """Pickled with its joint id (the diff's worker processes send errors back pickled)."""
        return type(self), (*self.args, self.joint_id)


class InertiaWarning(UserWarning):
    """An inertia Pinocchio accepts but no rigid body has (triangle inequality, a negative
    principal moment, an indefinite matrix); raised as :class:`InertiaError` with ``strict=True``."""


class MalformedInertialWarning(UserWarning):
    """A URDF link whose ``<inertial>`` urdfdom cannot read (no ``<inertia>``, a ``<mass>``
    value such as ``MASS`` that is not a number, ...): urdfdom logs an error and keeps what it
    had read before it, the rest zero, and Pinocchio loads that; raised as :class:`URDFError`
    with ``strict=True``."""


class DuplicateJointNameWarning(UserWarning):
    """A URDF joint named like the root joint (``root_joint`` by default): Pinocchio loads two
    joints of that name; raised as :class:`URDFError` with ``strict=True``."""


class AxisWarning(UserWarning):
    """An unaligned joint's axis (``JointModelRevoluteUnaligned(axis)`` and its siblings keep it
    as given, as Pinocchio does) that is not of unit length: the joint's M is then no rigid
    motion, and Pinocchio's algorithms disagree with one another on such a model (its crba is
    not the M its rnea implies). pinref reproduces Pinocchio's crba, computeMinverse, Coriolis
    matrix, ccrba and WORLD passes, so they disagree with rnea in pinref too."""

class MJCFWarning(UserWarning):
    """An MJCF file where Pinocchio 3.8.0's model is not MuJoCo's (a dropped top-level body, an
    ignored root placement, a dropped frictionloss, ...): pinref builds Pinocchio's model, and
    the message lists each difference with its line (docs/mjcf.md); raised as
    :class:`MJCFError` with ``strict=True``."""
