"""What every joint model and joint data share (multibody/joint/joint-model-base.hpp).

A joint model knows its sizes (``nq`` storage, ``nv`` tangent directions), where it reads in the
model's vectors (``idx_q``, ``idx_v``), its configuration space (``lie_group``), and how to
compute its kinematics (``calc``) and its step of the articulated-body elimination
(``calc_aba``). A joint data holds what those two wrote, with leading batch axes:

=========  ==========================================  ==================
field      meaning                                      shape
=========  ==========================================  ==================
joint_q    the joint's configuration segment            (..., nq)
joint_v    the joint's velocity segment                 (..., nv)
M          joint transform, child frame in parent       SE3
S          motion subspace, child frame                 (..., 6, nv)
v          joint velocity S q_dot, child frame          Motion
c          bias acceleration (S_dot q_dot), child frame Motion
U          Ia S                                         (..., 6, nv)
StU        S^T Ia S + diag(armature)                    (..., nv, nv)
Dinv       StU^-1                                       (..., nv, nv)
UDinv      U Dinv                                       (..., 6, nv)
=========  ==========================================  ==================

Fields that do not depend on the state (a constant S, a zero c, a zero translation) are stored
without batch axes, read-only, and broadcast. Every field a call writes is a fresh array owned by
the JointData (never a view of the caller's q, v or I).

One departure from Pinocchio 3.8.0, documented in docs/joints.md: pinref writes StU for every
joint type (Pinocchio's LOCAL calc_aba of the revolute and prismatic families leaves it at zero).
"""

import numpy as np

from ..errors import NotPositiveDefiniteError, ShapeError
from ..spatial import SE3, Motion
from ..spatial._kernels import se3_action_inverse

_ZERO_MOTION = np.zeros(6)
_ZERO_MOTION.flags.writeable = False


class JointData:
    """The caches of one joint (``JointDataTpl``); see the module docstring for the fields."""

    def __init__(self, model_classname, nq, nv, S, UDinv=None, joint_q=None):
        self._shortname = model_classname.replace("JointModel", "JointData", 1)
        self.joint_q = np.zeros(nq) if joint_q is None else np.array(joint_q, dtype=float)
        self.joint_v = np.zeros(nv)
        self.M = SE3.Identity()
        self.S = S
        self.v = Motion.unchecked(np.zeros(6))
        self.c = Motion.unchecked(_ZERO_MOTION)
        self.U = np.zeros((6, nv))
        self.StU = np.zeros((nv, nv))
        self.Dinv = np.zeros((nv, nv))
        self.UDinv = np.zeros((6, nv)) if UDinv is None else UDinv

    def shortname(self):
        """``JointDataRX`` for a ``JointModelRX``, and so on."""
        return self._shortname


class JointModel:
    """Base of every joint model; subclasses set ``nq``, ``nv``, ``lie_group`` and ``calc``.

    ``calc(jdata, q, v=None)`` reads the joint's segments of the model-sized ``q`` (and ``v``)
    through ``idx_q``/``idx_v``, as Pinocchio's ``JointModel.calc`` does: it reads
    ``q[..., idx_q:idx_q + nq]`` and ``v[..., idx_v:idx_v + nv]`` and ignores every other
    entry, so any ``q`` whose last axis has at least ``idx_q + nq`` entries is accepted (the
    model's q, or a longer one), and a ``q`` of exactly ``nq`` entries is the joint's own
    segment only when ``idx_q == 0``. A last axis shorter than ``idx_q + nq`` (or
    ``idx_v + nv`` for v) raises ShapeError naming the joint, before anything is written.
    ``q_slice`` and ``v_slice`` (``slice(idx_q, idx_q + nq)``, ``slice(idx_v, idx_v + nv)``)
    follow every change of ``idx_q``/``idx_v``. The configuration-space methods (``integrate``,
    ``difference``, ...) take the joint's own segments instead (``(..., nq)``, ``(..., nv)``).
    """

    nq = 0
    nv = 0
    lie_group = None
    calc_writes_joint_v = True   # calc(q, v) writes joint_v (the Tree's grouped calc reads it)
    long_axis = False            # M_J turns about an axis not of unit length (AxisWarning)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # what a Data depends on (Model.structure): the class, and an unaligned joint's axis
        cls.structure_key = cls

    def __init__(self):
        self.id = -1
        self.idx_vExtended = 0
        self._set_indexes(0, 0)

    def setIndexes(self, id, q, v, vExtended=None):
        """Place the joint in a model: its id and the start of its q and v segments, and of its
        columns of the extended tangent space (``idx_vExtended``, ``v`` by default: they differ
        after a mimic joint, pinref/joints/mimic.py)."""
        self.id = int(id)
        self.idx_vExtended = int(v if vExtended is None else vExtended)
        self._set_indexes(q, v)

    @property
    def nvExtended(self):
        """Columns of the joint in the extended tangent space (``nv``; a mimic joint's differ)."""
        return self.nv

    def _set_indexes(self, q, v):
        self._idx_q, self._idx_v = int(q), int(v)
        self.q_slice = slice(self._idx_q, self._idx_q + self.nq)  # jointConfigSelector
        self.v_slice = slice(self._idx_v, self._idx_v + self.nv)  # jointVelocitySelector

    @property
    def idx_q(self):
        """Start of the joint's segment in the model's q."""
        return self._idx_q

    @idx_q.setter
    def idx_q(self, value):
        self._set_indexes(value, self._idx_v)

    @property
    def idx_v(self):
        """Start of the joint's segment in the model's v (and a, tau, rows of M)."""
        return self._idx_v

    @idx_v.setter
    def idx_v(self, value):
        self._set_indexes(self._idx_q, value)

    @classmethod
    def classname(cls):
        return cls.__name__

    def shortname(self):
        return self.classname()

    def createData(self):
        """A fresh JointData with Pinocchio's initial values (identity M, zero U, Dinv, ...)."""
        return JointData(self.classname(), self.nq, self.nv, np.zeros((6, self.nv)))

    def _segments(self, q, v):
        """Copies of the joint's q (and v) segments ``(..., nq)``, ``(..., nv)``, size-checked.

        ``q`` and ``v`` are model-sized (as in Pinocchio's ``JointModel.calc``): the segments are
        ``q[..., idx_q:idx_q + nq]`` and ``v[..., idx_v:idx_v + nv]``; a longer last axis is
        accepted and the other entries are not read. A last axis shorter than ``idx_q + nq``
        (``idx_v + nv``), a 0-d value or a value that is not numeric raises ShapeError naming
        the joint (id and type). ``v=None`` gives ``(q_segment, None)``.
        """
        qs = self._segment(q, "q", self.q_slice)
        return qs, (None if v is None else self._segment(v, "v", self.v_slice))

    def _segment(self, x, name, sl):
        """A copy of ``x[..., sl]`` (``sl`` is ``q_slice`` or ``v_slice``); ShapeError naming the
        joint when ``x`` is not numeric, is 0-d, or its last axis is shorter than ``sl.stop``."""
        try:
            x = np.asarray(x, dtype=float)
        except (TypeError, ValueError):
            raise ShapeError(f"joint {self.id} ({self.shortname()}): {name} must be an array "
                             f"of shape (..., n) with n >= {sl.stop}, got {x!r}") from None
        if x.ndim == 0 or x.shape[-1] < sl.stop:
            raise ShapeError(
                f"joint {self.id} ({self.shortname()}): {name} has shape {x.shape}, but the joint "
                f"reads {name}[..., {sl.start}:{sl.stop}] ({sl.stop - sl.start} entries): pass "
                f"the model-sized {name} (last axis of size >= {sl.stop})")
        return x[..., sl].copy()

    def calc_aba(self, jdata, armature, I, update_I):
        """The joint's step of ABA's backward pass, dense form (the oracle of every override).

        U = I S ; StU = S^T U + diag(armature) ; Dinv = StU^-1 (Cholesky) ; UDinv = U Dinv ;
        if update_I: I -= UDinv U^T   (in place; I is ``(..., 6, 6)``)
        """
        U = I @ jdata.S
        self._aba_ndof(jdata, U, jdata.S.mT @ U + np.diag(np.asarray(armature, dtype=float)),
                       I, update_I)

    def _aba_1dof(self, jdata, U, StU, I, update_I):
        """End of a 1-dof ``calc_aba`` once the joint has U ``(..., 6, 1)`` and
        StU = S^T U + armature ``(..., 1, 1)``:

        Dinv = 1 / StU ; UDinv = U Dinv ; if update_I: I -= UDinv U^T.
        Nothing is written when StU <= 0 (NotPositiveDefiniteError).
        """
        Dinv = self._scalar_inverse(StU)
        jdata.U, jdata.StU, jdata.Dinv = U, StU, Dinv
        jdata.UDinv = U * Dinv
        if update_I:
            I -= jdata.UDinv * U.mT

    def _aba_ndof(self, jdata, U, StU, I, update_I):
        """End of a multi-dof ``calc_aba`` once the joint has U and StU = S^T U + diag(arm):

        Dinv = StU^-1 (Cholesky) ; UDinv = U Dinv ; if update_I: I -= UDinv U^T.
        Nothing is written when StU is not positive definite (NotPositiveDefiniteError).
        """
        Dinv = self._stys_inverse(StU)
        jdata.U, jdata.StU, jdata.Dinv = U, StU, Dinv
        jdata.UDinv = U @ Dinv
        if update_I:
            I -= jdata.UDinv @ U.mT

    def _stys_inverse(self, StU):
        """``internal::PerformStYSInversion``: Dinv = StU^-1 by Cholesky (reads the lower triangle).

        Raises NotPositiveDefiniteError naming the joint when StU is not positive definite
        (NaN included: LAPACK's Cholesky lets NaN through, so L is checked too).
        """
        try:
            L = np.linalg.cholesky(StU)
        except np.linalg.LinAlgError:
            raise self._not_pd(StU) from None
        # A NaN anywhere in the lower triangle reaches L's last diagonal entry (and a NaN
        # minimum compares False).
        if not np.minimum.reduce(L[..., -1, -1], None, initial=np.inf) > 0:
            raise self._not_pd(StU)
        Linv = np.linalg.inv(L)
        return Linv.mT @ Linv

    def _scalar_inverse(self, StU):
        """``Dinv = 1 / StU`` for 1-dof joints (StU ``(..., 1, 1)``), as Pinocchio does instead of
        a Cholesky; raises NotPositiveDefiniteError when StU <= 0 or StU is NaN (a NaN
        minimum compares False)."""
        if not np.minimum.reduce(StU, None, initial=np.inf) > 0:
            raise self._not_pd(StU)
        return 1.0 / StU

    def _not_pd(self, StU):
        """The NotPositiveDefiniteError for the block StU ``(..., nv, nv)``, naming the joint and
        the first failing batch element."""
        where, block = "", StU
        if StU.ndim > 2:
            bad = ~np.isfinite(StU).all(axis=(-2, -1))
            try:
                bad |= ~(np.linalg.eigvalsh(np.where(bad[..., None, None], 1.0, StU)).min(-1) > 0)
            except np.linalg.LinAlgError:
                pass
            index = np.unravel_index(int(np.argmax(bad)), StU.shape[:-2])
            where, block = f" at batch index {tuple(int(k) for k in index)}", StU[index]
        return NotPositiveDefiniteError(
            f"joint {self.id} ({self.shortname()}): the joint-space inertia block "
            f"S^T Ia S + armature{where} is not positive definite (got "
            f"{np.array2string(block, precision=6)}); check the masses and rotational inertias "
            "of the bodies the joint carries, or add armature",
            joint_id=self.id)

    # --- configuration space: every operation is the joint's Lie group's -----------------

    def neutral(self):
        """The neutral configuration ``(nq,)``."""
        return self.lie_group.neutral()

    def integrate(self, q, v):
        """q (+) v: move along the tangent vector v (nv) from q (nq)."""
        return self.lie_group.integrate(q, v)

    def difference(self, q0, q1):
        """q1 (-) q0: the tangent vector v (nv) with integrate(q0, v) == q1."""
        return self.lie_group.difference(q0, q1)

    def interpolate(self, q0, q1, u):
        """integrate(q0, u * difference(q0, q1))."""
        return self.lie_group.interpolate(q0, q1, u)

    def normalize(self, q):
        """q projected back onto the manifold (unit quaternion, unit (cos, sin) pair)."""
        return self.lie_group.normalize(q)

    def is_normalized(self, q, prec=1e-12):
        """True when q lies on the manifold to ``prec``."""
        return self.lie_group.is_normalized(q, prec)

    def random_configuration(self, lower, upper, rng=None):
        """A random configuration within the bounds (where the space has bounds); ``rng`` is a
        ``numpy.random.Generator`` (a fresh one by default)."""
        return self.lie_group.random_configuration(lower, upper, rng)

    def dIntegrate(self, q, v, arg):
        """Jacobian of integrate(q, v) w.r.t. q (ARG0) or v (ARG1), ``(..., nv, nv)``."""
        return self.lie_group.dIntegrate(q, v, arg)

    def dDifference(self, q0, q1, arg):
        """Jacobian of difference(q0, q1) w.r.t. q0 (ARG0) or q1 (ARG1), ``(..., nv, nv)``."""
        return self.lie_group.dDifference(q0, q1, arg)

    def __repr__(self):
        return f"{self.shortname()}(id={self.id}, idx_q={self.idx_q}, idx_v={self.idx_v})"


def shallow_copy(jmodel):
    """A new joint model of ``jmodel``'s type sharing its attribute values (``__init__`` is not
    run): the copy a model stores, so that setting its indexes leaves ``jmodel`` as it was."""
    clone = object.__new__(type(jmodel))
    clone.__dict__.update(jmodel.__dict__)
    return clone


def tangent_rows(x):
    """``x (*shape, n)`` as a view ``(n, *shape)``: entries first, so that a group's entries are
    one gather (``segments``) and ``x[..., v_i]`` can be written through it (a single state's
    ``x`` is its own rows)."""
    return x if x.ndim == 1 else np.moveaxis(x, -1, 0)


def segments(xT, index, n, shape):
    """The entries ``index`` (n per joint) of ``xT = tangent_rows(x)`` as ``(K, *shape, n)``."""
    y = xT[index]
    if n == 1 or not shape:
        return y.reshape((len(index) // n,) + shape + (n,))
    return np.moveaxis(y.reshape((len(index) // n, n) + shape), 1, -1)


def scatter(outT, index, y, shape):
    """``out[v_i] = y_i`` for a group's joints, through ``outT = tangent_rows(out)``;
    ``y (K, *shape, n)``."""
    if y.shape[-1] == 1:
        y = y.reshape(y.shape[:-1])
    elif not shape:
        y = y.reshape(len(index))
    else:
        y = np.moveaxis(y, -1, 1).reshape((len(index),) + shape)
    outT[index] = y


def joint_axis_first(x, tail):
    """A joint data field with the joint axis added in front, unless it is a constant (``tail``
    axes only), which broadcasts as it is."""
    return x if x.ndim == tail else x[None]


class JointBlock:
    """One joint of a tree level, of any kind, as the level steps see it (the joints with
    S = sign e_k have :class:`pinref.joints._axis.AxisBlock`, the same interface): its S is
    its data's, its ``calc_aba`` its own. The arrays a step hands a block have the joints of
    the level (or of the tree) first; ``rows`` is this joint's place there, ``stack_rows`` its
    row of the stacked caches (set by the Tree, ``pinref.model.tree.blocks``). ``x_i`` below is
    ``(1, *batch, nv)``; ``xT = tangent_rows(x)`` for a ``(..., nv)`` vector x."""

    def __init__(self, jmodel, row):
        self.jmodel, self.ids, self.jmodels = jmodel, (jmodel.id,), [jmodel]
        self.rows = slice(row, row + 1)
        self.nv = jmodel.nv
        self.v = np.arange(jmodel.idx_v, jmodel.idx_v + jmodel.nv)

    def tangent(self, xT):
        """``x_i = x[v_i]``."""
        return segments(xT, self.v, self.jmodel.nv, xT.shape[1:])

    def set_tangent(self, xT, y):
        """``x[v_i] = y_i``."""
        scatter(xT, self.v, y, xT.shape[1:])

    def _St(self, data, f):
        """``S_i^T f_i`` for the rows ``f (K, *batch, 6)``."""
        return np.vecmat(f[self.rows], data.joints[self.ids[0]].S)

    def add_St(self, data, xT, f):
        """``x[v_i] += S_i^T f_i`` for the rows ``f (K, *batch, 6)``."""
        self.set_tangent(xT, self.tangent(xT) + self._St(data, f))

    def subtract_St(self, data, xT, f):
        """``x[v_i] -= S_i^T f_i`` for the rows ``f (K, *batch, 6)``; returns the new ``x_i``."""
        x = self.tangent(xT) - self._St(data, f)
        self.set_tangent(xT, x)
        return x

    def add_S(self, data, out, x):
        """``out_i += S_i x_i`` for the rows ``out (K, *batch, 6)``."""
        out[self.rows] = out[self.rows] + np.matvec(data.joints[self.ids[0]].S, x)

    def calc_aba(self, data, Ia, armature, update_I):
        """``jmodel.calc_aba(jdata, armature_i, Ia_i, update_I)``: writes the joint's U, StU,
        Dinv, UDinv; ``Ia (K, *batch, 6, 6)`` updated in place when ``update_I``."""
        jmodel = self.jmodel
        jmodel.calc_aba(data.joints[self.ids[0]], armature[jmodel.v_slice], Ia[self.rows.start],
                        update_I)

    def write_joint_data(self, data, **fields):
        """Set the joint data's fields from values ``(1, *batch, ...)`` (joint axis first)."""
        jdata = data.joints[self.ids[0]]
        for name, value in fields.items():
            setattr(jdata, name, value[0])

    def joint_field(self, data, name):
        """The joint data's ``name`` (Dinv, UDinv, ...) with the joint axis first."""
        return joint_axis_first(getattr(data.joints[self.ids[0]], name), 2)

    def Dinv_times(self, data, x):
        """``Dinv_i x_i`` with the joint data's Dinv."""
        return np.matvec(self.joint_field(data, "Dinv"), x)


def calc_joint_group(group, data, q, v, rows, shape, actions):
    """``jmodel.calc(jdata, q, v)`` and ``liMi = jointPlacements[i] * M_J = (R_P R_J, p_P +
    R_P p_J)`` for the one joint of ``group`` (a ``tree.Group`` of role "calc"), of any kind;
    returns ``(R, p, X = liMi.actionInverse or None, v_J or None, c_J or None)`` with the joint
    axis first (c_J None when it is zero)."""
    jdata = data.joints[group.ids[0]]
    group.jmodels[0].calc(jdata, q, v)
    M, nb = jdata.M, len(shape)
    P = group.placement
    RP = P.rotation.reshape((1,) + (1,) * nb + (3, 3))
    pP = P.translation.reshape((1,) + (1,) * nb + (3,))
    # liMi = jointPlacements[i] * M_J = (R_P R_J, p_P + R_P p_J)
    R, p = RP @ M.rotation, pP + np.matvec(RP, M.translation)
    if R.shape[1:-2] != shape or p.shape[1:-1] != shape:      # a joint whose M is constant
        R = np.broadcast_to(R, (1,) + shape + (3, 3))
        p = np.broadcast_to(p, (1,) + shape + (3,))
    X = se3_action_inverse(R, p) if actions else None
    if v is None:
        return R, p, X, None, None
    cj = jdata.c.vector
    return R, p, X, jdata.v.vector, cj if cj.ndim > 1 or np.count_nonzero(cj) else None

