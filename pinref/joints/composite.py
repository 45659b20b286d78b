"""The composite joint: a chain of joints with relative placements, seen as one joint
(multibody/joint/joint-composite.hpp and .hxx of Pinocchio 3.8.0).

A composite of the joints J_0 .. J_{n-1} with placements P_0 .. P_{n-1} (P_k: joint k's origin
in the frame of joint k-1, P_0 in the composite's parent-side frame) has nq = sum nq_k and
nv = sum nv_k; joint k reads q and v at offsets that follow those of the joints before it
(``setIndexes`` moves them all). With M_k = M_{J_k}(q_k) the parts' own transforms:

    pjMi[k]   = P_k M_k                                  joint k's frame in joint k-1's
    iMlast[k] = pjMi[k] iMlast[k+1]                      the last frame in joint k's
                (iMlast[n-1] = pjMi[n-1])
    M         = iMlast[0]
    S         = [iMlast[1].actInv(S_0), ..., iMlast[n-1].actInv(S_{n-2}), S_{n-1}]
    v         = sum_k iMlast[k+1].actInv(v_k)            (v_{n-1} as it is)
    c         = sum_k ( iMlast[k+1].actInv(c_k) - v_{>=k} ^ iMlast[k+1].actInv(v_k) )

where v_{>=k} is the sum of the terms of v from k to n-1 (the velocity of the last frame
relative to frame k-1) and the cross-term vanishes for k = n-1. Everything is in the frame of
the last joint, the composite's child frame. calc walks k = n-1 down to 0 and accumulates in
that order, as Pinocchio's ``JointCompositeCalcFirstOrderStep`` does. calc_aba is the dense
formula of ``JointModel.calc_aba`` (Pinocchio's composite inverts StU by Cholesky too).

The configuration space is the cartesian product of the parts' (``CartesianProduct``): every
operation applies each part's own to its segments, as Pinocchio's liegroup visitors dispatch a
composite to its joints one by one.
"""

import copy

import numpy as np

from .base import JointData, JointModel
from .liegroup import _LieGroup
from ..errors import ArgumentTypeError, ModelError
from ..spatial import SE3, Motion
from ..spatial._kernels import act_inv_motion, as_array, motion_cross_motion, type_name


class CartesianProduct(_LieGroup):
    """The product of the configuration spaces ``spaces`` (a composite joint's), each acting
    on its own segments of q ``(..., nq)`` and v ``(..., nv)``; the Jacobians are block
    diagonal. Pinocchio names it ``CartesianProductOperation`` (``"R^3*SO(3)"``)."""

    def __init__(self, spaces):
        self.spaces = tuple(spaces)
        self.q_slices, self.v_slices = [], []
        iq = iv = 0
        for space in self.spaces:
            self.q_slices.append(slice(iq, iq + space.nq))
            self.v_slices.append(slice(iv, iv + space.nv))
            iq, iv = iq + space.nq, iv + space.nv
        self.nq, self.nv = iq, iv
        self.name = "*".join(space.name for space in self.spaces)
        self.identity = sum((tuple(space.identity) for space in self.spaces), ())
        self._units = tuple(slice(qs.start + s.start, qs.start + s.stop)
                            for space, qs in zip(self.spaces, self.q_slices)
                            for s in space.units)
        self.unit = self._units[0] if len(self._units) == 1 else None

    @property
    def units(self):
        return self._units

    def _parts(self, method, *arrays):
        """``space.method(*args)`` for each part, a list; ``arrays`` are ``(kind, x)`` pairs:
        kind ``"q"`` (``"v"``) passes the part's segment of x's last axis, None x as it is."""
        out = []
        for space, qs, vs in zip(self.spaces, self.q_slices, self.v_slices):
            args = [x if kind is None else x[..., qs if kind == "q" else vs]
                    for kind, x in arrays]
            out.append(getattr(space, method)(*args))
        return out

    def _cat(self, parts):
        shape = np.broadcast_shapes(*(x.shape[:-1] for x in parts))
        return np.concatenate([np.broadcast_to(x, shape + x.shape[-1:]) for x in parts], -1)

    def _block_diag(self, blocks):
        shape = np.broadcast_shapes(*(b.shape[:-2] for b in blocks))
        out = np.zeros(shape + (self.nv, self.nv))
        for vs, b in zip(self.v_slices, blocks):
            out[..., vs, vs] = b
        return out

    def _config(self, q, op, what="q", unit=True):
        q = as_array(q, f"{self.name}.{op}: {what}", (self.nq,))
        if unit:
            for space, qs in zip(self.spaces, self.q_slices):
                if space.units:
                    space._config(q[..., qs], op, f"{what}[..., {qs.start}:{qs.stop}]")
        return q

    def _integrate(self, q, v):
        return self._cat(self._parts("_integrate", ("q", q), ("v", v)))

    def _difference(self, q0, q1):
        return self._cat(self._parts("_difference", ("q", q0), ("q", q1)))

    def _interpolate(self, q0, q1, u):
        return self._cat(self._parts("_interpolate", ("q", q0), ("q", q1), (None, u)))

    def _is_same(self, q0, q1, prec):
        return np.logical_and.reduce(self._parts("_is_same", ("q", q0), ("q", q1),
                                                 (None, prec)))

    def normalize(self, q):
        """Each part normalized (``normalize`` of the parts with a unit-norm segment)."""
        q = self._config(q, "normalize", unit=False)
        return self._cat(self._parts("normalize", ("q", q)))

    def is_normalized(self, q, prec=1e-12):
        """Every part normalized to ``prec``."""
        q = self._config(q, "is_normalized", unit=False)
        parts = [np.asarray(x) for x in self._parts("is_normalized", ("q", q), (None, prec))]
        return np.logical_and.reduce(np.broadcast_arrays(*parts))[()]

    def random_configuration(self, lower, upper, rng=None):
        """Each part's random configuration within its segments of the bounds, drawn in the
        parts' order from one generator."""
        name = f"{self.name}.random_configuration"
        lower = self._bounds(lower, f"{name}: lower")
        upper = self._bounds(upper, f"{name}: upper")
        rng = np.random.default_rng(rng)
        return self._cat(self._parts("random_configuration", ("q", lower), ("q", upper),
                                     (None, rng)))

    def _dIntegrate_dq(self, v):
        return self._block_diag(self._parts("_dIntegrate_dq", ("v", v)))

    def _dIntegrate_dv(self, v):
        return self._block_diag(self._parts("_dIntegrate_dv", ("v", v)))

    def _dDifference(self, q0, q1, arg):
        return self._block_diag(self._parts("_dDifference", ("q", q0), ("q", q1), (None, arg)))

    def __eq__(self, other):
        return type(other) is type(self) and other.spaces == self.spaces

    def __hash__(self):
        return hash(self.spaces)

    def __repr__(self):
        return f"CartesianProduct({', '.join(map(repr, self.spaces))})"


class JointDataComposite(JointData):
    """A composite's caches (``JointDataCompositeTpl``): the base fields (M, S, v, c in the
    last joint's frame; U, StU, Dinv, UDinv) plus ``joints`` (the parts' JointData),
    ``pjMi[k]`` (joint k in joint k-1, its placement included) and ``iMlast[k]`` (the last
    joint's frame in joint k's), with the batch axes of the last calc."""

    def __init__(self, joints, nq, nv):
        super().__init__("JointModelComposite", nq, nv, np.zeros((6, nv)))
        self.joints = joints
        self.iMlast = [SE3.Identity() for _ in joints]
        self.pjMi = [SE3.Identity() for _ in joints]

    def __str__(self):
        return "JointDataComposite containing following models:\n" + "".join(
            f"  {jdata.shortname()}\n" for jdata in self.joints)


class JointModelComposite(JointModel):
    """A chain of joints as one joint: ``()``, ``(size)`` (Pinocchio's reserved size, ignored),
    ``(joint)`` or ``(joint, placement)``; ``addJoint(joint, placement=SE3.Identity())`` appends
    one (a copy), and composites nest. See the module docstring for the formulas."""

    def __init__(self, *args):
        self.joints, self.jointPlacements = [], []
        self.nq = self.nv = 0
        self.lie_group = CartesianProduct(())
        super().__init__()
        if len(args) == 1 and isinstance(args[0], (int, np.integer)) \
                and not isinstance(args[0], bool):
            return
        if len(args) > 2:
            raise ArgumentTypeError("JointModelComposite takes (), (size), (joint) or (joint, "
                                    f"placement), got {len(args)} arguments")
        if args:
            self.addJoint(*args)

    @property
    def njoints(self):
        """Number of joints in the composite."""
        return len(self.joints)

    def refuse_if_empty(self, where):
        """Raise ModelError naming ``where`` when the composite holds no joint: it has no
        configuration, no data to create (Pinocchio crashes on it), and an added copy can no
        longer be filled."""
        if not self.joints:
            raise ModelError(
                f"{where}: the JointModelComposite holds no joint; add its joints first, e.g. "
                "JointModelComposite(pinref.JointModelRX()).addJoint(pinref.JointModelRY(), M)")

    def addJoint(self, joint_model, joint_placement=None):
        """Append a copy of ``joint_model`` at ``joint_placement`` (its origin in the frame of
        the previous joint; identity by default); nq and nv grow by the joint's. Returns the
        composite."""
        if not isinstance(joint_model, JointModel) or joint_model.shortname() == "universe":
            raise ArgumentTypeError(
                f"JointModelComposite.addJoint: joint_model must be a pinref joint model such "
                f"as pinref.JointModelRX(), not {type_name(joint_model)}")
        if isinstance(joint_model, JointModelComposite):
            joint_model.refuse_if_empty("JointModelComposite.addJoint: joint_model")
        placement = SE3.Identity() if joint_placement is None else joint_placement
        if not isinstance(placement, SE3) or placement.shape != ():
            raise ArgumentTypeError(
                "JointModelComposite.addJoint: joint_placement must be one pinref SE3, not "
                f"{type_name(placement)}")
        self.joints = self.joints + [copy.copy(joint_model)]
        self.jointPlacements = self.jointPlacements + [placement.copy()]
        self.nq += joint_model.nq
        self.nv += joint_model.nv
        self.lie_group = CartesianProduct(j.lie_group for j in self.joints)
        self._set_indexes(self.idx_q, self.idx_v)
        return self

    def _set_indexes(self, q, v):
        """The composite's indexes, then its joints' (``updateJointIndexes``): joint k gets
        id k and the q, v offsets following the joints before it. The joints are copied first,
        so that copies of a composite never share them."""
        super()._set_indexes(q, v)
        joints = []
        for k, joint in enumerate(self.joints):
            joint = copy.copy(joint)
            joint.setIndexes(k, q, v)
            q, v = q + joint.nq, v + joint.nv
            joints.append(joint)
        self.joints = joints

    def createData(self):
        """A JointDataComposite holding a fresh JointData per joint."""
        return JointDataComposite([j.createData() for j in self.joints], self.nq, self.nv)

    def calc(self, jdata, q, v=None):
        """Each joint's calc, then the products of the module docstring, from the last joint
        to the first: pjMi, iMlast, M, S and (with v) v and c. calc(q) writes M and S."""
        if not self.joints:
            raise ModelError(f"joint {self.id} (JointModelComposite) has no joint: add its "
                             "joints with addJoint before using it")
        qs, vs = self._segments(q, v)
        q = np.asarray(q, dtype=float)
        v = None if v is None else np.asarray(v, dtype=float)
        jdata.joint_q = qs
        b = qs.shape[:-1] if v is None else np.broadcast_shapes(qs.shape[:-1], vs.shape[:-1])
        S = np.empty(b + (6, self.nv))
        vc = c = None
        R = p = None
        for k in reversed(range(len(self.joints))):
            joint, sub, P = self.joints[k], jdata.joints[k], self.jointPlacements[k]
            joint.calc(sub, q, v)
            # pjMi[k] = P_k M_k
            Rk = np.broadcast_to(P.rotation @ sub.M.rotation, b + (3, 3))
            pk = np.broadcast_to(P.translation + np.matvec(P.rotation, sub.M.translation),
                                 b + (3,))
            jdata.pjMi[k] = SE3.unchecked(Rk.copy(), pk.copy())
            cols = slice(joint.idx_v - self.idx_v, joint.idx_v - self.idx_v + joint.nv)
            if R is None:
                # the last joint: its S, v and c as they are
                S[..., cols] = sub.S
                if v is not None:
                    vc, c = sub.v.vector, sub.c.vector
                R, p = Rk, pk
            else:
                # iMlast[k+1] = (R, p): move S_k, v_k, c_k into the last frame
                S[..., cols] = act_inv_motion(R[..., None, :, :], p[..., None, :],
                                              np.swapaxes(sub.S, -1, -2)).swapaxes(-1, -2)
                if v is not None:
                    v_tmp = act_inv_motion(R, p, sub.v.vector)
                    vc = vc + v_tmp
                    c = c - motion_cross_motion(vc, v_tmp) + act_inv_motion(R, p, sub.c.vector)
                # iMlast[k] = pjMi[k] iMlast[k+1]
                R, p = Rk @ R, pk + np.matvec(Rk, p)
            jdata.iMlast[k] = SE3.unchecked(np.array(R), np.array(p))
        jdata.M = SE3.unchecked(np.array(R), np.array(p))
        jdata.S = S
        if v is not None:
            jdata.joint_v = vs
            jdata.v = Motion.unchecked(np.broadcast_to(vc, b + (6,)).copy())
            jdata.c = Motion.unchecked(np.broadcast_to(c, b + (6,)).copy())

    def __str__(self):
        return "JointModelComposite containing following models:\n" + "".join(
            f"  {joint.shortname()}\n" for joint in self.joints)
