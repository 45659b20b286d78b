"""The mimic joint: a joint whose configuration follows another joint's
(multibody/joint/joint-mimic.hpp, Pinocchio 3.8.0).

A ``JointModelMimic`` wraps a joint type (the *mimicking* type, e.g. RY) and points at the
*mimicked* joint of the model it follows. It owns no configuration and no velocity (nq = nv =
0); its ``idx_q``/``idx_v`` are the mimicked joint's, and it reads that joint's segments:

    q_t = scaling * q[idx_q : idx_q + nq_t] + offset          (vector-space types)
    q_t = (cos th_t, sin th_t), th_t = scaling * atan2(s, c) + offset   (unbounded revolute)
    v_t = scaling * v[idx_v : idx_v + nv_t]

and the wrapped joint's calc at (q_t, v_t) gives M, v and c; its motion subspace is
``S = scaling * S_t`` (``ScaledJointMotionSubspace``). In the extended tangent space
(``model.nvExtended`` entries, every joint with its own columns, ``idx_vExtended``), the mimic
joint has ``nvExtended = nv_t`` columns of its own; ``data.J`` is laid out in that space.

Pinocchio's ABA has no step for it (``calc_aba`` is an assertion), so ``aba`` and the other
algorithms Pinocchio's binding refuses raise ``MimicUnsupportedError`` (docs/joints.md).
"""

import numpy as np

from ..errors import MimicUnsupportedError
from .base import JointData, JointModel, shallow_copy
from .liegroup import VectorSpace
from .prismatic import JointModelPrismaticUnaligned, JointModelPX, JointModelPY, JointModelPZ
from .revolute import JointModelRX, JointModelRY, JointModelRZ
from .revolute_unaligned import JointModelRevoluteUnaligned
from .revolute_unbounded import (JointModelRevoluteUnboundedUnaligned, JointModelRUBX,
                                 JointModelRUBY, JointModelRUBZ)

# The types Pinocchio 3.8.0 mimics (``is_mimicable`` and a ConfigVectorAffineTransform other
# than NoAffineTransform), by affine map: LinearAffineTransform (scaling * q + offset) or
# UnboundedRevoluteAffineTransform (through the angle atan2(s, c)). Not the helical joints:
# the unaligned one has no map, and a mimic HX/HY/HZ's S loses its pitch (S = scaling [0; e]),
# so Pinocchio's rnea and crba of it disagree with its own kinematics (tests/model/test_mimic.py).
_LINEAR = (JointModelRX, JointModelRY, JointModelRZ, JointModelRevoluteUnaligned,
           JointModelPX, JointModelPY, JointModelPZ, JointModelPrismaticUnaligned)
_UNBOUNDED = (JointModelRUBX, JointModelRUBY, JointModelRUBZ,
              JointModelRevoluteUnboundedUnaligned)
_NO_SPACE = VectorSpace(0)


def mimic_configuration(jmodel, q, scaling, offset):
    """``configVectorAffineTransform``: the wrapped joint's configuration ``(..., nq)`` for the
    mimicked joint's ``q`` segment ``(..., nq)``."""
    if isinstance(jmodel, _UNBOUNDED):
        theta = scaling * np.arctan2(q[..., 1], q[..., 0]) + offset
        return np.stack((np.cos(theta), np.sin(theta)), axis=-1)
    return scaling * q + offset


def check_mimicable(jmodel, where):
    """MimicUnsupportedError unless Pinocchio 3.8.0 has an affine map for ``jmodel``'s
    configuration space (its ``ConfigVectorAffineTransform`` is not ``NoAffineTransform``)."""
    if not isinstance(jmodel, _LINEAR + _UNBOUNDED):
        raise MimicUnsupportedError(
            f"{where}: a {jmodel.shortname()} cannot be mimicked (Pinocchio 3.8.0 mimics the "
            "revolute, unbounded revolute and prismatic joints; its mimic helical joint drops "
            "the pitch from S); mimic one of those")


class JointModelMimic(JointModel):
    """``JointModelMimic(joint_model, scaling, offset)``: a joint of ``joint_model``'s type
    that follows the joint ``joint_model`` (its id and indexes are the mimicked joint's, as
    when passing ``model.joints[k]``), with ``q_t = scaling * q + offset``.

    Fields (Pinocchio's): ``scaling``, ``offset``, ``nq = nv = 0``, ``nvExtended`` (the wrapped
    type's nv), ``idx_q``/``idx_v`` (the mimicked joint's), ``idx_vExtended`` (its own columns
    of the extended tangent space); pinref's: ``jmodel`` (the wrapped joint, its indexes 0, its
    id the mimicked joint's, as Pinocchio's ``jmodel()``) and ``mimicked_id``.
    """

    nq = 0
    nv = 0
    lie_group = _NO_SPACE

    def __init__(self, joint_model, scaling, offset):
        if isinstance(joint_model, JointModelMimic):
            joint_model = joint_model.jmodel
        check_mimicable(joint_model, "JointModelMimic")
        super().__init__()
        wrapped = shallow_copy(joint_model)
        self.scaling, self.offset = float(scaling), float(offset)
        self.mimicked_id = joint_model.id
        self._set_indexes(joint_model.idx_q, joint_model.idx_v)
        self.idx_vExtended = joint_model.idx_vExtended
        wrapped.setIndexes(joint_model.id, 0, 0)
        self.jmodel = wrapped
        self.structure_key = (JointModelMimic, wrapped.structure_key)

    @property
    def nvExtended(self):
        return self.jmodel.nv

    def setIndexes(self, id, q, v, vExtended=None):
        """Place the mimic joint (``setIndexes_impl``): its id and its extended columns only;
        ``idx_q``/``idx_v`` stay the mimicked joint's (``q`` and ``v`` are ignored)."""
        self.id = int(id)
        self.idx_vExtended = int(v if vExtended is None else vExtended)

    def setMimicIndexes(self, id, q, v, vExtended):
        """Point the joint at the mimicked joint ``id`` whose segments start at ``q``, ``v``
        (``setMimicIndexes``; ``vExtended`` is the wrapped joint's, as in Pinocchio)."""
        self.mimicked_id = int(id)
        self.jmodel.setIndexes(id, 0, 0)
        self._set_indexes(q, v)

    def createData(self):
        return JointDataMimic(self.jmodel.createData(), self.scaling)

    def calc(self, jdata, q, v=None):
        """q_t = affine(q segment) ; v_t = scaling v segment ; the wrapped calc at (q_t, v_t)."""
        wrapped = self.jmodel
        qs = self._segment(q, "q", slice(self.idx_q, self.idx_q + wrapped.nq))
        jdata.joint_q = qs
        q_t = mimic_configuration(wrapped, qs, self.scaling, self.offset)
        if v is None:
            wrapped.calc(jdata.jdata, q_t)
            return
        vs = self._segment(v, "v", slice(self.idx_v, self.idx_v + wrapped.nv))
        jdata.joint_v = vs
        wrapped.calc(jdata.jdata, q_t, self.scaling * vs)

    def calc_aba(self, jdata, armature, I, update_I):
        raise MimicUnsupportedError(
            f"joint {self.id} (JointModelMimic): ABA has no step for a mimic joint (Pinocchio "
            "3.8.0's calc_aba is an assertion); use rnea and crba, or a model without mimic "
            "joints")

    def shortname(self):
        return "JointModelMimic"

    def __repr__(self):
        return (f"JointModelMimic(id={self.id}, idx_q={self.idx_q}, idx_v={self.idx_v}, "
                f"idx_vExtended={self.idx_vExtended}, nvExtended={self.nvExtended}, "
                f"mimicking {self.jmodel.shortname()}, mimicked joint {self.mimicked_id}, "
                f"scaling {self.scaling}, offset {self.offset})")


class JointDataMimic(JointData):
    """The caches of a mimic joint: the wrapped joint's data ``jdata`` (M, v, c), with
    ``S = scaling * jdata.S``; ``joint_q``, ``joint_v`` are the mimicked joint's segments
    (before the affine map). ``U``, ``Dinv``, ``UDinv`` keep their zeros (ABA refuses mimic
    joints)."""

    def __init__(self, jdata, scaling):  # (not JointData.__init__: M, S, v, c are read-only)
        nq, nv = jdata.joint_q.shape[-1], jdata.S.shape[-1]
        self._shortname = "JointDataMimic"
        self.jdata, self.scaling = jdata, scaling
        self.joint_q, self.joint_v = np.zeros(nq), np.zeros(nv)
        self.U, self.UDinv = np.zeros((6, nv)), np.zeros((6, nv))
        self.StU, self.Dinv = np.zeros((nv, nv)), np.zeros((nv, nv))

    M = property(lambda self: self.jdata.M, doc="The wrapped joint's M.")
    v = property(lambda self: self.jdata.v, doc="The wrapped joint's v (at scaling v).")
    c = property(lambda self: self.jdata.c, doc="The wrapped joint's c.")
    S = property(lambda self: self.scaling * self.jdata.S, doc="scaling * the wrapped S.")

    def plain_fields(self):
        """What Data equality and copies compare (``same_fields``): the wrapped data and the
        mimic's own fields."""
        return {**vars(self), "M": self.M, "S": self.S, "v": self.v, "c": self.c}
