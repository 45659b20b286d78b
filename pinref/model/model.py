"""The kinematic tree and its constants (multibody/model.hpp, model.hxx).

Joint 0 is the universe. ``addJoint`` assigns ``idx_q``/``idx_v`` in insertion order, so a
parent always has a lower index than its children; the algorithms rely on that.
"""

import numpy as np

from ..errors import ModelError, NotNormalizedError, ShapeError, UnsupportedError
from ..joints.base import JointModel
from ..joints.liegroup import UNIT_NORM_TOLERANCE
from ..spatial import SE3, Inertia, Motion
from ..spatial._kernels import as_array
from .frame import ALL_FRAME_TYPES, Frame, FrameType

_DOUBLE_MAX = np.finfo(float).max


class _Universe(JointModel):
    """``model.joints[0]``: the universe, with no configuration (Pinocchio keeps a placeholder)."""

    def __init__(self):
        super().__init__()
        self.id = 0

    def shortname(self):
        return "universe"


class Model:
    """Pinocchio's ``Model``: topology, placements, inertias, limits and gravity.

    Fields (Pinocchio's names): ``name``, ``names``, ``parents``, ``children``, ``subtrees``,
    ``supports``, ``joints``, ``jointPlacements``, ``inertias``, ``idx_qs``, ``idx_vs``,
    ``nqs``, ``nvs``, ``armature``, ``friction``, ``damping``, ``rotorInertia``,
    ``rotorGearRatio``, ``gravity``, ``frames``, ``lowerPositionLimit``,
    ``upperPositionLimit``, ``velocityLimit``, ``effortLimit``, ``nq``, ``nv``, ``njoints``,
    ``nbodies``, ``nframes``. The model is never batched.
    """

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
        self.njoints = 1
        self.nbodies = 1
        self.armature = np.zeros(0)
        self.friction = np.zeros(0)
        self.damping = np.zeros(0)
        self.rotorInertia = np.zeros(0)
        self.rotorGearRatio = np.zeros(0)
        self.effortLimit = np.zeros(0)
        self.velocityLimit = np.zeros(0)
        self.lowerPositionLimit = np.zeros(0)
        self.upperPositionLimit = np.zeros(0)
        self.gravity = Motion(np.array([0.0, 0.0, -9.81]), np.zeros(3))
        self.frames = [Frame("universe", 0, 0, SE3.Identity(), FrameType.FIXED_JOINT)]

    @property
    def nframes(self):
        return len(self.frames)

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
                f"addJoint({joint_name!r}): {type(joint_model).__name__} is not a pinref joint "
                "model (mimic and composite joints are not supported)")
        if not 0 <= int(parent_id) < self.njoints:
            raise ModelError(f"addJoint({joint_name!r}): parent id {parent_id} is not a joint of "
                             f"this model (0 .. {self.njoints - 1})")
        if not isinstance(joint_placement, SE3) or joint_placement.shape != ():
            raise ModelError(f"addJoint({joint_name!r}): joint_placement must be one SE3")
        jmodel = _copy_joint(joint_model)
        nq, nv = jmodel.nq, jmodel.nv

        def vec(x, n, default, what):
            if x is None:
                return np.full(n, default)
            a = np.array(x, dtype=float).reshape(-1)
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
        jmodel.setIndexes(joint_id, self.nq, self.nv)
        self.njoints += 1
        self.joints.append(jmodel)
        self.inertias.append(Inertia.Zero())
        self.parents.append(int(parent_id))
        self.children.append([])
        self.children[parent_id].append(joint_id)
        self.jointPlacements.append(joint_placement.copy())
        self.names.append(str(joint_name))
        self.idx_qs.append(self.nq)
        self.idx_vs.append(self.nv)
        self.nqs.append(nq)
        self.nvs.append(nv)
        self.nq += nq
        self.nv += nv
        self.effortLimit = np.concatenate((self.effortLimit, limits[0]))
        self.velocityLimit = np.concatenate((self.velocityLimit, limits[1]))
        self.lowerPositionLimit = np.concatenate((self.lowerPositionLimit, limits[2]))
        self.upperPositionLimit = np.concatenate((self.upperPositionLimit, limits[3]))
        self.friction = np.concatenate((self.friction, limits[4]))
        self.damping = np.concatenate((self.damping, limits[5]))
        self.armature = np.concatenate((self.armature, np.zeros(nv)))
        self.rotorInertia = np.concatenate((self.rotorInertia, np.zeros(nv)))
        self.rotorGearRatio = np.concatenate((self.rotorGearRatio, np.ones(nv)))
        self.subtrees.append([joint_id])
        ancestor = self.parents[joint_id]
        while ancestor > 0:
            self.subtrees[ancestor].append(joint_id)
            ancestor = self.parents[ancestor]
        self.subtrees[0].append(joint_id)
        self.supports.append(self.supports[parent_id] + [joint_id])
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
            raise ModelError(f"no frame named {name!r} of type {FrameType(type)!r}")
        if len(ids) > 1:
            raise ModelError(f"several frames match {name!r}; pass the FrameType")
        return ids[0]

    def existFrame(self, name, type=ALL_FRAME_TYPES):
        return any(f.name == name and f.type & type for f in self.frames)

    def getBodyId(self, name):
        return self.getFrameId(name, FrameType.BODY)

    def existBodyName(self, name):
        return self.existFrame(name, FrameType.BODY)

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

    def check_vector(self, x, name, size):
        """``x`` as a float array of trailing size ``size``, finite (ShapeError, NonFiniteError)."""
        a = as_array(x, name, (size,)) if np.ndim(x) >= 1 else None
        if a is None:
            raise ShapeError(f"{name}: expected shape (..., {size}), got a scalar")
        return a

    def check_configuration(self, q, name="q"):
        """``q`` checked for size, finiteness and unit quaternions / (cos, sin) pairs.

        A norm off 1 by more than ``UNIT_NORM_TOLERANCE`` raises NotNormalizedError: Pinocchio
        uses such q raw (non-orthonormal rotations flow into every cache); pinref refuses it
        and points to ``pinref.normalize``.
        """
        q = self.check_vector(q, name, self.nq)
        for jmodel in self.joints[1:]:
            unit = jmodel.lie_group.unit
            if unit is None:
                continue
            seg = q[..., jmodel.idx_q + unit.start:jmodel.idx_q + unit.stop]
            norm = np.sqrt(np.sum(seg * seg, axis=-1))
            if np.any(np.abs(norm - 1.0) > UNIT_NORM_TOLERANCE):
                raise NotNormalizedError(
                    f"{name}: joint {self.names[jmodel.id]!r} ({jmodel.shortname()}) has a "
                    f"{'quaternion' if unit.stop - unit.start == 4 else '(cos, sin) pair'} of "
                    f"norm {np.max(np.abs(norm - 1.0)) + 1:.12g} (tolerance "
                    f"{UNIT_NORM_TOLERANCE:g}); call pinref.normalize(model, q) first")
        return q


def _copy_joint(jmodel):
    clone = object.__new__(type(jmodel))
    clone.__dict__.update(jmodel.__dict__)
    return clone
