"""The kinematic tree and its constants (multibody/model.hpp, model.hxx).

Joint 0 is the universe. ``addJoint`` assigns ``idx_q``/``idx_v`` in insertion order, so a
parent always has a lower index than its children; the algorithms rely on that.
"""

import copy
import operator
import weakref

import numpy as np

from ..errors import ArgumentTypeError, ModelError, ShapeError, UnsupportedError
from ..joints.base import JointModel, shallow_copy
from ..joints.composite import JointModelComposite
from ..joints.liegroup import UNIT_NORM_TOLERANCE
from ..spatial import SE3, Inertia, Motion
from ..spatial._kernels import as_array, type_name, unit_norm_error
from ._values import real_array, same_fields
from .containers import StdMap_String_VectorXd
from .frame import ALL_FRAME_TYPES, Frame, FrameType
from .mimic import add_mimic_fields, check_mimicked

_STRUCTURE_KEY = operator.attrgetter("structure_key")   # the joint's class (and axis)
_DOUBLE_MAX = np.finfo(float).max
_FLOAT = np.dtype(float)                 # (real_array returns such an array as it is)


class _Universe(JointModel):
    """``model.joints[0]``: the universe, with no configuration (Pinocchio keeps a placeholder)."""

    def __init__(self):
        super().__init__()
        self.id = 0

    def shortname(self):
        return "universe"


def bind_positional(where, names, args, kwargs):
    """``kwargs`` with the positional ``args`` bound to ``names`` in order, as Pinocchio's
    overloads take them either way; ArgumentTypeError for too many or a name given twice."""
    if len(args) > len(names):
        raise ArgumentTypeError(f"{where}: takes at most {len(names)} arguments here "
                                f"({', '.join(names)}), got {len(args)}")
    for key, value in zip(names, args):
        if key in kwargs:
            raise ArgumentTypeError(f"{where}: got multiple values for the argument {key!r}")
        kwargs[key] = value
    return kwargs


def model_label(name):
    """``model 'name'`` in a message, or ``the unnamed model`` when ``name`` is empty."""
    return f"model {name!r}" if name else "the unnamed model"


class _VectorField:
    """A per-dof vector of Model (``armature``, ``lowerPositionLimit``, ...): ``size`` names
    the Model attribute holding its length (``"nq"`` or ``"nv"``).

    Assignment coerces as Pinocchio's Eigen binding does: a column ``(n, 1)`` is stored as
    ``(n,)``, always as a float64 copy. A wrong size raises ShapeError at the assignment, naming
    the field (Pinocchio 3.8.0 stores it and fails later, or reads out of bounds); complex
    numbers raise ArgumentTypeError. Reading gives the stored array, so ``model.armature[0] = 1``
    changes the model, as in Pinocchio.
    """

    def __init__(self, size):
        self.size = size

    def __set_name__(self, owner, name):
        self.name, self.slot = name, "_" + name

    def __get__(self, model, owner=None):
        return self if model is None else model.__dict__[self.slot]

    def __set__(self, model, value):
        n = getattr(model, self.size)
        a = real_array(value, f"model.{self.name}")
        if a.shape == (n, 1):
            a = a[:, 0]
        if a.shape != (n,):
            raise ShapeError(f"model.{self.name}: expected {n} numbers (model.{self.size}), as "
                             f"an array of shape ({n},) or ({n}, 1), got shape {a.shape}")
        model.__dict__[self.slot] = a.copy()


_NQ_FIELDS = ("lowerPositionLimit", "upperPositionLimit")
_NV_FIELDS = ("effortLimit", "velocityLimit", "friction", "damping", "armature",
              "rotorInertia", "rotorGearRatio")


class Model:
    """Pinocchio's ``Model``: topology, placements, inertias, limits and gravity.

    Fields (Pinocchio's names): ``name``, ``names``, ``parents``, ``children``, ``subtrees``,
    ``supports``, ``joints``, ``jointPlacements``, ``inertias``, ``idx_qs``, ``idx_vs``,
    ``nqs``, ``nvs``, ``idx_vExtendeds``, ``nvExtendeds``, ``nvExtended``,
    ``mimicking_joints``, ``mimicked_joints``, ``mimic_joint_supports`` (mimic joints:
    pinref/model/mimic.py), ``armature``, ``friction``, ``damping``, ``rotorInertia``,
    ``rotorGearRatio``, ``gravity``, ``frames``, ``lowerPositionLimit``,
    ``upperPositionLimit``, ``velocityLimit``, ``effortLimit``, ``nq``, ``nv``, ``njoints``,
    ``nbodies``, ``nframes``, ``referenceConfigurations``. The model is never batched.

    The per-dof vectors coerce and check on assignment (``_VectorField``); ``gravity`` takes
    one pinref Motion.
    """

    lowerPositionLimit = _VectorField("nq")
    upperPositionLimit = _VectorField("nq")
    effortLimit = _VectorField("nv")
    velocityLimit = _VectorField("nv")
    friction = _VectorField("nv")
    damping = _VectorField("nv")
    armature = _VectorField("nv")
    rotorInertia = _VectorField("nv")
    rotorGearRatio = _VectorField("nv")

    def __init__(self):
        self.name = ""
        self.names = ["universe"]
        self.parents = [0]
        self.children = [[]]
        self.subtrees = [[]]
        self.supports = [[0]]
        self.joints = [_Universe()]
        self.jointPlacements = [SE3.Identity()]
        self.inertias = [Inertia.Zero()]
        self.idx_qs, self.idx_vs, self.nqs, self.nvs = [0], [0], [0], [0]
        self.nq = self.nv = 0
        # the extended tangent space, where a mimic joint has columns of its own
        self.idx_vExtendeds, self.nvExtendeds, self.nvExtended = [0], [0], 0
        self.mimicking_joints, self.mimicked_joints = [], []   # mimic joints, whom they follow
        self.mimic_joint_supports = [[0]]   # 0 and the mimic joints on the path to joint i
        self.njoints = 1
        self.nbodies = 1
        for name in _NQ_FIELDS + _NV_FIELDS:
            self.__dict__["_" + name] = np.zeros(0)
        self.gravity = Motion(np.array([0.0, 0.0, -9.81]), np.zeros(3))
        self.frames = [Frame("universe", 0, 0, SE3.Identity(), FrameType.FIXED_JOINT)]
        self.referenceConfigurations = StdMap_String_VectorXd()

    @property
    def referenceConfigurations(self):
        """Named configurations, name -> q of shape (nq,) (``Model::referenceConfigurations``,
        a ``StdMap_String_VectorXd``; the URDF/SRDF loaders of Pinocchio fill it, pinref's
        loaders leave it empty)."""
        return self._reference_configurations

    @referenceConfigurations.setter
    def referenceConfigurations(self, value):
        self._reference_configurations = StdMap_String_VectorXd(value, self.nq)

    @property
    def gravity(self):
        """The gravity acceleration, one Motion (default linear (0, 0, -9.81), angular 0)."""
        return self._gravity

    @gravity.setter
    def gravity(self, value):
        if not isinstance(value, Motion) or value.shape != ():
            raise ArgumentTypeError(
                f"model.gravity: expected one pinref.Motion, got {type_name(value)}"
                f"{' of batch shape ' + str(value.shape) if isinstance(value, Motion) else ''}"
                " (Pinocchio raises too); write model.gravity = pinref.Motion(linear, angular), "
                "e.g. pinref.Motion(np.array([0, 0, -9.81]), np.zeros(3))")
        self._gravity = value.copy()

    @property
    def nframes(self):
        return len(self.frames)

    def __eq__(self, other):
        """Every field equal, numbers exactly (``ModelTpl::operator==``)."""
        return isinstance(other, Model) and same_fields(self, other)

    __hash__ = None

    def __str__(self):
        """As Pinocchio prints a Model (``operator<<``): sizes, then each joint's parent."""
        lines = [f"Nb joints = {self.njoints} (nq={self.nq},nv={self.nv})"]
        lines += [f"  Joint {i} {self.names[i]}: parent={self.parents[i]}"
                  for i in range(self.njoints)]
        return "\n".join(lines) + "\n"

    __repr__ = __str__

    def copy(self):
        """A deep copy (``Model.copy()`` of Pinocchio's binding; ``copy.copy`` is deep too)."""
        return copy.deepcopy(self)

    def __copy__(self):
        return copy.deepcopy(self)

    # --- building -----------------------------------------------------------------------

    def addJoint(self, parent_id, joint_model, joint_placement, joint_name, max_effort=None,
                 max_velocity=None, min_config=None, max_config=None, friction=None,
                 damping=None):
        """Add ``joint_model`` under ``parent_id`` at ``joint_placement``; returns its id.

        The limits default to +-DBL_MAX, friction and damping to 0, armature to 0, as in
        Pinocchio. The joint model is copied, so one instance can be added several times.
        """
        if not isinstance(joint_model, JointModel) or isinstance(joint_model, _Universe):
            raise UnsupportedError(
                f"addJoint({joint_name!r}): {type_name(joint_model)} is not a pinref joint "
                "model")
        if isinstance(joint_model, JointModelComposite):
            joint_model.refuse_if_empty(f"addJoint({joint_name!r})")
        if not 0 <= int(parent_id) < self.njoints:
            raise ModelError(f"addJoint({joint_name!r}): parent id {parent_id} is not a joint of "
                             f"this model (0 .. {self.njoints - 1})")
        if not isinstance(joint_placement, SE3) or joint_placement.shape != ():
            raise ModelError(f"addJoint({joint_name!r}): joint_placement must be one SE3")
        jmodel = shallow_copy(joint_model)
        nq, nv = jmodel.nq, jmodel.nv

        def vec(x, n, default, what):
            if x is None:
                return np.full(n, default)
            a = real_array(x, f"addJoint({joint_name!r}): {what}").reshape(-1)
            if a.shape != (n,) or np.isnan(a).any():
                raise ShapeError(f"addJoint({joint_name!r}): {what} must hold {n} numbers (+-inf "
                                 f"allowed, NaN not), got {x!r}")
            return a

        limits = (vec(max_effort, nv, _DOUBLE_MAX, "max_effort"),
                  vec(max_velocity, nv, _DOUBLE_MAX, "max_velocity"),
                  vec(min_config, nq, -_DOUBLE_MAX, "min_config"),
                  vec(max_config, nq, _DOUBLE_MAX, "max_config"),
                  vec(friction, nv, 0.0, "friction"), vec(damping, nv, 0.0, "damping"))
        joint_id = self.njoints
        check_mimicked(self, jmodel, joint_id, joint_name)
        jmodel.setIndexes(joint_id, self.nq, self.nv, self.nvExtended)
        self.njoints += 1
        self.joints.append(jmodel)
        self.inertias.append(Inertia.Zero())
        self.parents.append(int(parent_id))
        self.children.append([])
        self.children[parent_id].append(joint_id)
        self.jointPlacements.append(joint_placement.copy())
        self.names.append(str(joint_name))
        self.idx_qs.append(jmodel.idx_q)
        self.idx_vs.append(jmodel.idx_v)
        self.nqs.append(nq)
        self.nvs.append(nv)
        self.nq += nq
        self.nv += nv
        self.idx_vExtendeds.append(jmodel.idx_vExtended)
        self.nvExtendeds.append(jmodel.nvExtended)
        self.nvExtended += jmodel.nvExtended
        add_mimic_fields(self, jmodel, joint_id)
        for name, extra in zip(("effortLimit", "velocityLimit", "lowerPositionLimit",
                                "upperPositionLimit", "friction", "damping", "armature",
                                "rotorInertia", "rotorGearRatio"),
                               limits + (np.zeros(nv), np.zeros(nv), np.ones(nv))):
            self.__dict__["_" + name] = np.concatenate((self.__dict__["_" + name], extra))
        self.subtrees.append([joint_id])
        ancestor = self.parents[joint_id]
        while ancestor > 0:
            self.subtrees[ancestor].append(joint_id)
            ancestor = self.parents[ancestor]
        self.subtrees[0].append(joint_id)
        self.supports.append(self.supports[parent_id] + [joint_id])
        self._reference_configurations.size = self.nq
        return joint_id

    def appendBodyToJoint(self, joint_id, body_inertia, body_placement=None):
        """``inertias[joint_id] += body_placement.act(body_inertia)`` (Pinocchio's in-place merge)."""
        self._check_joint_id(joint_id, "appendBodyToJoint")
        placement = SE3.Identity() if body_placement is None else body_placement
        self._append_inertia(joint_id, placement.act(body_inertia))
        self.nbodies += 1

    def addFrame(self, frame, append_inertia=True):
        """Append ``frame`` (or return the id of a frame with its name and type); with
        ``append_inertia``, ``inertias[parentJoint] += placement.act(frame.inertia)``."""
        if not 0 <= frame.parentJoint < self.njoints:
            raise ModelError(f"addFrame({frame.name!r}): parent joint {frame.parentJoint} is not "
                             f"a joint of this model (0 .. {self.njoints - 1})")
        if self.existFrame(frame.name, frame.type):
            return self.getFrameId(frame.name, frame.type)
        self.frames.append(frame)
        if append_inertia:
            self._append_inertia(frame.parentJoint, frame.placement.act(frame.inertia))
        return self.nframes - 1

    def _append_inertia(self, joint_id, Y):
        """``inertias[joint_id] += Y`` with Pinocchio's in-place merge (``Inertia::__pequ__``),
        on a copy, so an Inertia the caller passed in or holds is never modified."""
        merged = self.inertias[joint_id].copy()
        merged += Y
        self.inertias[joint_id] = merged

    def addJointFrame(self, joint_id, frame_id=0):
        """Add a JOINT frame named after joint ``joint_id``, at identity placement, whose parent
        frame is ``frame_id``; a negative ``frame_id`` means the frame of the parent joint.

        The default 0 is that of Pinocchio's Python binding (its C++ default is -1)."""
        self._check_joint_id(joint_id, "addJointFrame")
        if frame_id < 0:
            frame_id = self.getFrameId(self.names[self.parents[joint_id]],
                                       FrameType.JOINT | FrameType.FIXED_JOINT)
        return self.addFrame(Frame(self.names[joint_id], joint_id, frame_id, SE3.Identity(),
                                   FrameType.JOINT))

    def addBodyFrame(self, body_name, parentJoint, body_placement=None, previous_frame=-1):
        """Add a BODY frame on joint ``parentJoint`` (after the frame of that joint by default)."""
        self._check_joint_id(parentJoint, "addBodyFrame")
        if previous_frame < 0:
            previous_frame = self.getFrameId(self.names[parentJoint],
                                             FrameType.JOINT | FrameType.FIXED_JOINT)
        placement = SE3.Identity() if body_placement is None else body_placement
        return self.addFrame(Frame(body_name, parentJoint, previous_frame, placement,
                                   FrameType.BODY))

    # --- queries ------------------------------------------------------------------------

    def getJointId(self, name):
        """The id of the joint called ``name``. Raises ModelError for an unknown name
        (Pinocchio silently returns ``njoints``)."""
        if name not in self.names:
            raise ModelError(f"no joint named {name!r}; the joints are {self.names}")
        return self.names.index(name)

    def existJointName(self, name):
        return name in self.names

    def getFrameId(self, name, type=ALL_FRAME_TYPES):
        """The id of the frame called ``name`` whose type is in the mask ``type``. Raises
        ModelError for an unknown name (Pinocchio returns ``nframes``) or an ambiguous one."""
        ids = [k for k, f in enumerate(self.frames) if f.name == name and f.type & type]
        if not ids:
            types = [t.name for t in FrameType if t & type]
            which = ("" if len(types) == len(FrameType) else
                     f" of type {' | '.join(f'pinref.FrameType.{t}' for t in types)}")
            others = sorted({f.type.name for f in self.frames if f.name == name})
            raise ModelError(f"no frame named {name!r}{which}" + (
                f" (the model has one of type {', '.join(others)})" if others else ""))
        if len(ids) > 1:
            raise ModelError(f"several frames match {name!r}; pass the FrameType")
        return ids[0]

    def existFrame(self, name, type=ALL_FRAME_TYPES):
        return any(f.name == name and f.type & type for f in self.frames)

    def getBodyId(self, name):
        return self.getFrameId(name, FrameType.BODY)

    def existBodyName(self, name):
        return self.existFrame(name, FrameType.BODY)

    def structure(self):
        """What a Data depends on: sizes, parents, joint types and the unaligned joints' axes
        (their joint data's S, and how the model's Tree groups them). A Data created for a
        model of another structure is refused (``DataModelMismatchError``), as Pinocchio
        refuses it. Placements, inertias, limits and frames may change after ``createData``."""
        return (self.nq, self.nv, self.njoints, tuple(self.parents),
                tuple(map(_STRUCTURE_KEY, self.joints)))

    def createData(self):
        """``Data(self)``."""
        from .data import Data

        return Data(self)

    def _check_joint_id(self, joint_id, where):
        if not 0 <= int(joint_id) < self.njoints:
            raise ModelError(f"{where}: joint id {joint_id} is not a joint of this model "
                             f"(0 .. {self.njoints - 1})")

    # --- argument checks shared by the algorithms ---------------------------------------

    def check_compact_subtrees(self, algorithm):
        """Raise ModelError unless every subtree owns a contiguous range of joint ids (and so of
        dofs), which CRBA needs to write ``M[cols_i, idx_v : idx_v + nvSubtree[i]]``
        (Pinocchio's ``CRBAChecker``; Pinocchio itself does not run it and returns a wrong M).
        A tree whose joints were added depth-first always passes."""
        for i in range(1, self.njoints):
            sub = self.subtrees[i]
            if sub[-1] - i + 1 != len(sub):
                raise ModelError(
                    f"{algorithm}: the subtree of joint {self.names[i]!r} has joints {sub}, which "
                    "are not numbered contiguously; add the joints depth-first (every joint "
                    "after its parent and before the next sibling subtree of an ancestor)")

    def check_vector(self, x, name, size, size_name="model.nv"):
        """``x`` as a float array of trailing size ``size``, finite (ShapeError naming
        ``size_name``, NonFiniteError, ArgumentTypeError for complex numbers).

        A 2-D ``(size, 1)`` array is one column vector, read as ``(size,)`` (Pinocchio's Eigen
        vectors take both); any other ``(..., size)`` is a batch (docs/algorithms.md, "Column
        vectors and batches": with ``size == 1``, ``(1, 1)`` is that column vector).
        """
        a = x if type(x) is np.ndarray and x.dtype is _FLOAT else real_array(x, name)
        if a.shape == (size, 1):
            a = a[:, 0]
        if a.ndim == 0:
            raise ShapeError(f"{name}: expected shape (..., {size}) ({size_name}), got a scalar")
        if a.shape[-1] != size:
            raise ShapeError(f"{name}: expected trailing shape ({size},) ({size_name}), got "
                             f"shape {a.shape}")
        return as_array(a, name, (size,))

    def check_configuration(self, q, name="q"):
        """``q`` checked for size, finiteness and unit quaternions / (cos, sin) pairs.

        A norm off 1 by more than ``UNIT_NORM_TOLERANCE`` raises NotNormalizedError: Pinocchio
        uses such q raw (non-orthonormal rotations flow into every cache); pinref refuses it
        and points to ``pinref.normalize``.
        """
        q = self.check_vector(q, name, self.nq, "model.nq")
        for jmodel, unit in _unit_parts(self):
            seg = q[..., jmodel.idx_q + unit.start:jmodel.idx_q + unit.stop]
            if seg.ndim == 1 and _SQUARED_NORM_INSIDE[0] < seg @ seg < _SQUARED_NORM_INSIDE[1]:
                continue            # (the squared norm decides, away from the bounds: one call)
            norm = np.sqrt((seg * seg).sum(-1))
            if (abs(norm - 1.0) > UNIT_NORM_TOLERANCE).any():
                kind = "quaternion" if unit.stop - unit.start == 4 else "(cos, sin) pair"
                raise unit_norm_error(
                    f"{name}: joint {self.names[jmodel.id]!r} ({jmodel.shortname()})", kind, norm,
                    UNIT_NORM_TOLERANCE, "call pinref.normalize(model, q) first")
        return q


# Squared norms strictly inside these pass the check above whatever the rounding of sqrt and
# the sum (a margin of 1e-12, ten thousand times that rounding)
_SQUARED_NORM_INSIDE = ((1.0 - UNIT_NORM_TOLERANCE) ** 2 * (1.0 + 1e-12),
                        (1.0 + UNIT_NORM_TOLERANCE) ** 2 * (1.0 - 1e-12))

_UNIT_PARTS = {}   # id(model) -> (weak reference to it, its joints, own lie groups, parts)


def _unit_parts(model):
    """``(jmodel, unit)`` for every part of q that must have unit norm (``LieGroup.units`` of
    each joint), kept beside the model (not in it) while ``model.joints`` holds the same joint
    objects and those with a lie group of their own (a composite's, replaced when a part is
    added) the same one."""
    joints, entry = model.joints, _UNIT_PARTS.get(id(model))
    if (entry is not None and entry[0]() is model and len(entry[1]) == len(joints)
            and all(map(operator.is_, joints, entry[1]))
            and all(vars(j).get("lie_group") is g for j, g in entry[2])):
        return entry[3]
    parts = [(j, u) for j in joints[1:] for u in j.lie_group.units]
    own = [(j, vars(j)["lie_group"]) for j in joints if "lie_group" in vars(j)]
    key = id(model)
    _UNIT_PARTS[key] = (weakref.ref(model, lambda _: _UNIT_PARTS.pop(key, None)), list(joints),
                        own, parts)
    return parts

