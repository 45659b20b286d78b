"""What the axis-based joints share: constant arrays, rotations about an axis, axis checks.

Rotation about a unit axis u by an angle with cosine c and sine s (``math/rotation.hpp``,
``toRotationMatrix(axis, cos, sin)``)::

    R_ab = (1 - c) u_a u_b + c delta_ab - s eps_abk u_k
    i.e. R = u u^T + c (I3 - u u^T) + s [u]x

Pinocchio evaluates it entry by entry (``t = (1 - c) u_a * u_b``, then ``t -+ s u_k``, and
``(1 - c) u_a * u_a + c`` on the diagonal); here the three constant matrices are built once per
axis, and ``R = u u^T + c (I3 - u u^T) + s [u]x`` is evaluated elementwise for any batch of
(c, s). The two agree to rounding, for a non-unit axis and a non-unit (c, s) pair as well (both
are the same polynomial in u, c and s). For a frame axis e_k this is the identity with c and
+-s written into the 2x2 block, as Pinocchio's aligned joints write it (exactly).

Batch invariance: every state gives the same bits alone or inside a batch. Products that fold
the batch into one BLAS call (``(B, n) @ (n, m)``) sum in another order than the single-state
call, so they are used only where each output has one non-zero term (exact in any order);
elsewhere the evaluation is elementwise, or a stacked product of per-state matrices.
"""

import math
import warnings

import numpy as np

from ..errors import AxisWarning, ModelError, NonFiniteError, ShapeError
from ..spatial import Motion, _kernels
from ..spatial._kernels import ANGULAR, LINEAR, skew
from .base import JointData, JointModel, segments


def read_only(a):
    """``a`` as a float array that cannot be written (a constant shared by every call)."""
    a = np.array(a, dtype=float)
    a.flags.writeable = False
    return a


ZERO3 = read_only(np.zeros(3))
EYE3 = read_only(np.eye(3))
EYES = tuple(read_only(np.eye(n)) for n in range(7))  # diag(a) == EYES[n] * a, one cheap call


def unit_vector(k):
    """e_k, ``(3,)``."""
    return read_only(np.eye(3)[k])


_FRAME_AXIS_B0, _FRAME_AXIS_CS = [], []
for _k in range(3):
    _e = np.eye(3)[_k]
    _FRAME_AXIS_B0.append(read_only(np.outer(_e, _e).reshape(9)))
    _FRAME_AXIS_CS.append(read_only(np.stack(((np.eye(3) - np.outer(_e, _e)).reshape(9),
                                              skew(_e).reshape(9)))))


def motion_subspace(linear=None, angular=None):
    """The constant ``S = [linear; angular]``, ``(6, nv)`` read-only; parts given as ``(3, nv)``."""
    parts = [np.asarray(p, dtype=float) for p in (linear, angular) if p is not None]
    S = np.zeros((6, parts[0].shape[1]))
    if linear is not None:
        S[LINEAR] = linear
    if angular is not None:
        S[ANGULAR] = angular
    return read_only(S)


def unit_entry(s):
    """``(k, sign)`` when the 6-vector ``s`` (a 1-dof joint's S column) is ``sign e_k`` with
    sign = +-1, else None: the joints whose S products are an entry of a vector, and a sign."""
    nonzero = np.flatnonzero(s)
    if len(nonzero) == 1 and abs(s[nonzero[0]]) == 1.0:
        return int(nonzero[0]), float(s[nonzero[0]])
    return None


def rotation_basis(axis):
    """``(B0, Bc, Bs)`` ``(9,)`` each (3x3 row-major), with ``R = B0 + c Bc + s Bs``:
    B0 = u u^T, Bc = I3 - u u^T, Bs = [u]x."""
    u = np.asarray(axis, dtype=float)
    uu = np.outer(u, u)
    return tuple(read_only(B.reshape(9)) for B in (uu, np.eye(3) - uu, skew(u)))


def rotation_from_cos_sin(cs, basis):
    """R about the basis' axis from ``cs = (cos, sin)`` ``(..., 2)``: ``(..., 3, 3)``."""
    return axis_rotation(cs[..., 0:1], cs[..., 1:2], basis)


def axis_rotation(c, s, basis):
    """``R = B0 + c Bc + s Bs`` from the cosine and sine ``c``, ``s`` ``(..., 1)``: ``(..., 3, 3)``;
    the basis' arrays may carry leading axes too (one axis per joint coordinate).

    Elementwise, so that a state gives the same bits alone or in a batch (a matrix product
    would fold the batch into one BLAS call with another summation order).
    """
    B0, Bc, Bs = basis
    return (c * Bc + s * Bs + B0).reshape(c.shape[:-1] + (3, 3))


def frame_axis_rotation(cs, k):
    """R about the frame axis e_k from ``cs = (cos, sin)`` ``(..., 2)``: c and +-s written into
    the identity, as Pinocchio's aligned joints do. One product with 0/+-1 coefficients (one
    non-zero term per entry, so exact in any summation order and batch-invariant)."""
    return (cs @ _FRAME_AXIS_CS[k] + _FRAME_AXIS_B0[k]).reshape(cs.shape[:-1] + (3, 3))


def affine_eval(x, W, W0):
    """``x @ W + W0`` for ``x (..., n)``, evaluated elementwise row by row (batch-invariant, see
    ``rotation_from_cos_sin``): ``((W0 + x_0 W_0) + x_1 W_1) + ...``."""
    out = W0 + x[..., 0:1] * W[0]
    for k in range(1, W.shape[0]):
        out = out + x[..., k:k + 1] * W[k]
    return out


def components(x):
    """The entries of ``x``'s last axis, to unpack: ``x0, x1, ... = components(x)`` gives
    ``x[..., 0], x[..., 1], ...``, each of the batch shape (views). For a single state they are
    NumPy scalars, whose arithmetic costs a tenth of a 0-d array's."""
    return x.transpose((x.ndim - 1,) + tuple(range(x.ndim - 1)))


def cos_sin(theta):
    """``(cos theta_1 .. cos theta_n, sin theta_1 .. sin theta_n)``: ``(..., n) -> (..., 2n)``."""
    return np.concatenate((np.cos(theta), np.sin(theta)), axis=-1)


def _quaternion_blocks():
    """K ``(16, 9)`` with ``R.ravel() = (q q^T).ravel() @ K + I3.ravel()`` for q = (x, y, z, w):
    Eigen's ``toRotationMatrix`` (tx = 2x, ...: R00 = 1 - (ty y + tz z), R01 = tx y - tz w, ...)
    written as a quadratic form. Every coefficient is 0 or +-2, so each product is exact and the
    result is Eigen's to the bit."""
    K = np.zeros((4, 4, 3, 3))
    x, y, z, w = range(4)
    for (i, j), entries in {(y, y): {(0, 0): -2, (2, 2): -2}, (z, z): {(0, 0): -2, (1, 1): -2},
                            (x, x): {(1, 1): -2, (2, 2): -2}, (x, y): {(0, 1): 2, (1, 0): 2},
                            (z, w): {(0, 1): -2, (1, 0): 2}, (x, z): {(0, 2): 2, (2, 0): 2},
                            (y, w): {(0, 2): 2, (2, 0): -2}, (y, z): {(1, 2): 2, (2, 1): 2},
                            (x, w): {(1, 2): -2, (2, 1): 2}}.items():
        for (a, b), k in entries.items():
            K[i, j, a, b] = k
    return read_only(K.reshape(16, 9))


_QUATERNION_K = _quaternion_blocks()
_EYE3_FLAT = read_only(np.eye(3).reshape(9))


def quaternion_rotation(quat):
    """R of the (x, y, z, w) quaternion ``(..., 4) -> (..., 3, 3)``, **not normalised**: the
    same numbers as ``pinref.spatial.quaternion_to_matrix`` (Eigen's formula) in 5 NumPy calls."""
    qq = (quat[..., :, None] * quat[..., None, :]).reshape(quat.shape[:-1] + (16,))
    return (qq @ _QUATERNION_K + _EYE3_FLAT).reshape(quat.shape[:-1] + (3, 3))


def check_axis(value, owner, name="axis"):
    """``value`` as a read-only float ``(3,)``: ShapeError, NonFiniteError, or ModelError (zero)."""
    try:
        u = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise ShapeError(f"{owner}: {name} must be 3 numbers, got {value!r}") from None
    if u.shape not in ((3,), (3, 1), (1, 3)):
        raise ShapeError(f"{owner}: {name} must have 3 entries, got shape {u.shape}")
    u = u.reshape(3)
    if not np.isfinite(u).all():
        raise NonFiniteError(f"{owner}: {name} = {u} contains NaN or infinity")
    if not u.any():
        raise ModelError(f"{owner}: {name} is the zero vector; a joint axis needs a direction")
    return read_only(u)


def normalized_axis(x, y, z, owner, name="axis"):
    """(x, y, z) / |(x, y, z)|, as the scalar constructors do (``axis.normalize()``)."""
    u = np.array(check_axis((x, y, z), owner, name))
    return read_only(u / math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]))


def check_scalar(value, owner, name):
    """``value`` as a finite Python float (NonFiniteError, ShapeError)."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ShapeError(f"{owner}: {name} must be a number, got {value!r}") from None
    if not math.isfinite(x):
        raise NonFiniteError(f"{owner}: {name} = {x} is not finite")
    return x


class FrameAxisJointModel(JointModel):
    """A 1-dof joint about or along the frame axis ``axis`` (0, 1, 2 for x, y, z): what RX,
    RUBX and PX (and their y, z siblings) share.

    S = e_axis placed in the ``part`` (ANGULAR or LINEAR) half of a motion, constant;
    v = q_dot S ; c = 0. Subclasses give ``_transform(qs)`` (the joint's M) and the initial
    ``_neutral_q`` of a fresh JointData.
    """

    nv = 1
    axis = 0
    part = ANGULAR
    _neutral_q = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._S = motion_subspace(**{"angular" if cls.part == ANGULAR else "linear":
                                    unit_vector(cls.axis)[:, None]})
        cls._S_col = cls._S[:, 0]
        cls._unit = unit_vector(cls.axis)

    def getMotionAxis(self):
        """The unit axis e_axis ``(3,)``."""
        return np.array(self._unit)

    def createData(self):
        return JointData(self.classname(), self.nq, 1, self._S, joint_q=self._neutral_q)

    def calc(self, jdata, q, v=None):
        """M = ``_transform(q)`` ; S = e_axis in its half (constant) ; v = q_dot S ; c = 0."""
        qs, vs = self._segments(q, v)
        jdata.joint_q = qs
        jdata.M = self._transform(qs)
        if vs is not None:
            jdata.joint_v = vs
            jdata.v = Motion.unchecked(vs * self._S_col)

    def calc_aba(self, jdata, armature, I, update_I):
        """U = I S = I[:, k] ; StU = U[k] + armature ; Dinv = 1 / StU ; UDinv = U Dinv ;
        if update_I: I -= UDinv U^T, with k = part.start + axis.
        (Pinocchio 3.8.0 leaves StU unwritten for these joints; pinref writes it.)"""
        k = self.part.start + self.axis
        self._aba_1dof(jdata, I[..., :, k:k + 1].copy(), I[..., k:k + 1, k:k + 1] + armature,
                       I, update_I)


def signed(sign, x):
    """``sign_j x_j`` for joints ``x (K, ...)`` and their signs ``(K,)`` (``AxisBlock.sign``),
    ``x`` itself when ``sign`` is None (every sign +1). Exact: a sign flips no bit but one."""
    return x if sign is None else sign.reshape(sign.shape + (1,) * (x.ndim - 1)) * x


def as_index(rows):
    """``rows`` (row numbers) as a slice when they are consecutive, else an index array."""
    rows = [int(r) for r in rows]
    if rows == list(range(rows[0], rows[0] + len(rows))):
        return slice(rows[0], rows[0] + len(rows))
    return np.array(rows, dtype=np.intp)


class AxisBlock:
    """The 1-dof joints with S_i = sign e_k (every ``FrameAxisJointModel``, and an unaligned
    joint whose axis is +-e_k) of one tree level (or of the whole tree), as one block of the
    level steps: the interface of :class:`pinref.joints.base.JointBlock`, for all of them in one
    call. S_i^T f_i is sign times entry k of f_i, S_i x_i adds sign x_i into entry k, and
    calc_aba is ``FrameAxisJointModel.calc_aba`` for them all at once.

    The one table of entry and sign: ``rows`` (the joints' places in the arrays a step hands
    the block; ``stack_rows``, set by the Tree, their rows of the stacked caches), ``v`` their
    tangent entries, ``k`` and ``sign`` ``(K,)`` (None when every sign
    is +1); ``entry``, ``column`` and ``diagonal`` pick entry k of their rows' 6-vectors,
    column k and entry (k, k) of their 6x6 (basic indexing when they share one k and their
    rows are consecutive). ``parts``: ``(key, rows)`` of the Tree groups that hold their joint
    data; ``key`` names the block's own (the one group's when there is one)."""

    def __init__(self, groups, jmodels, rows, units):
        self.jmodels, self.nv = jmodels, 1
        self.ids = tuple(j.id for j in jmodels)
        K = len(jmodels)
        self.rows = as_index(rows)
        self.v = as_index([j.idx_v for j in jmodels])
        k = np.array([unit[0] for unit in units], dtype=np.intp)
        sign = np.array([unit[1] for unit in units], dtype=float)
        self.sign = None if (sign == 1.0).all() else sign
        if self.sign is not None:
            self.sign.flags.writeable = False
        own = slice(None) if len(set(k.tolist())) == 1 else np.arange(K)
        kk = int(k[0]) if isinstance(own, slice) else k
        self.column, self.diagonal = (own, Ellipsis, kk), (own, Ellipsis, kk, kk)
        if isinstance(own, slice) and isinstance(self.rows, slice):
            self.entry = (self.rows, Ellipsis, kk)
        else:
            self.entry = (np.asarray(rows, dtype=np.intp), Ellipsis, k)
        self.parts, start = [], 0
        for g in groups:
            self.parts.append((g.key, slice(start, start + len(g.ids))))
            start += len(g.ids)
        self.key = groups[0].key if len(groups) == 1 else ("aba", self.ids)

    def tangent(self, xT):
        """``x_i = x[v_i]`` ``(K, *batch, 1)``."""
        return xT[self.v][..., None]

    def set_tangent(self, xT, y):
        """``x[v_i] = y_i``."""
        xT[self.v] = y[..., 0]

    def add_St(self, data, xT, f):
        """``x[v_i] += S_i^T f_i`` (``S_i^T f_i = sign_i f_i[k_i]``) for the rows
        ``f (K, *batch, 6)``."""
        xT[self.v] = xT[self.v] + signed(self.sign, f[self.entry])

    def subtract_St(self, data, xT, f):
        """``x[v_i] -= S_i^T f_i``; returns the new ``x_i``."""
        x = xT[self.v] - signed(self.sign, f[self.entry])
        xT[self.v] = x
        return x[..., None]

    def add_S(self, data, out, x):
        """``out_i += S_i x_i``: sign_i x_i added into entry k_i of the rows ``out``."""
        out[self.entry] = out[self.entry] + signed(self.sign, x[..., 0])

    def calc_aba(self, data, Ia, armature, update_I):
        """``FrameAxisJointModel.calc_aba`` for every joint of the block: U_i = Ia_i S_i = sign_i
        Ia_i[:, k_i] ; StU_i = Ia_i[k_i, k_i] + armature_i ; Dinv_i = 1 / StU_i ;
        UDinv_i = U_i Dinv_i ; if update_I: Ia_i -= UDinv_i U_i^T. Writes the joints' U, StU,
        Dinv, UDinv (``Ia (K, *batch, 6, 6)`` updated in place)."""
        I = Ia[self.rows]
        arm = armature[self.v]
        if I.ndim > 3:
            arm = arm.reshape(arm.shape + (1,) * (I.ndim - 3))
        # StU_i = Ia_i[k_i, k_i] + armature_i
        StU = I[self.diagonal] + arm
        if not np.minimum.reduce(StU, None, initial=np.inf) > 0:   # (NaN fails too)
            for j, jmodel in enumerate(self.jmodels):
                jmodel.calc_aba(jmodel.createData(), armature[jmodel.v_slice], I[j].copy(), False)
        # U_i = Ia_i S_i = sign_i Ia_i[:, k_i]
        U = I[self.column][..., None]
        U = U.copy() if self.sign is None else signed(self.sign, U)
        StU = StU[..., None, None]
        # Dinv_i = 1 / StU_i
        Dinv = 1.0 / StU
        # UDinv_i = U_i Dinv_i
        UDinv = U * Dinv
        if update_I:
            # Ia_i -= UDinv_i U_i^T
            I -= UDinv * U.mT
            if not isinstance(self.rows, slice):
                Ia[self.rows] = I
        self.write_joint_data(data, U=U, StU=StU, Dinv=Dinv, UDinv=UDinv)

    def write_joint_data(self, data, **fields):
        """Set the joints' data fields from values ``(K, *batch, ...)`` (joint axis first)."""
        data.joint_rows[self.key].write(**fields)
        if len(self.parts) > 1:
            for key, g in self.parts:
                data.joint_rows[key].write(**{name: x[g] for name, x in fields.items()})

    def joint_field(self, data, name):
        """The joints' ``name`` (Dinv, UDinv, ...) as calc_aba wrote it, joint axis first."""
        return data.joint_rows[self.key].fields[name]

    def Dinv_times(self, data, x):
        """``Dinv_i x_i`` with the joints' Dinv ``(K, *batch, 1, 1)``: a product of numbers."""
        return data.joint_rows[self.key].fields["Dinv"][..., 0] * x


class _JointTransforms:
    """``M_J`` of each joint of a group, built on access from the group's coordinates
    (``rows[k]`` is joint k's SE3, as its own ``calc`` writes it)."""

    __slots__ = ("transforms", "qg")

    def __init__(self, transforms, qg):
        self.transforms, self.qg = transforms, qg

    def __getitem__(self, k):
        return self.transforms[k](self.qg[k])


def calc_axis_group(group, data, q, v, rows, shape, actions):
    """``jcalc(q, v)`` and ``liMi = jointPlacements[i] * M_J`` for every joint of one family of
    fixed-axis 1-dof joints (a ``tree.Group`` of role "calc": revolute, unbounded revolute or
    prismatic, each joint its own axis e), all at once. M_J is linear in its coordinates x
    (``(cos q, sin q)``, the unbounded joint's own pair, or d), so liMi and X = liMi.actionInverse
    are affine maps of x, with constants per joint (``group.affine``, from the joints'
    placements):

        R = R0 + x RW ;  p = p0 (revolute) or p0 + d pW (prismatic) ;  X = X0 + x XW
        S_i = S_col (constant) ;  v_J = qdot_i S_i ;  c_J = 0

    evaluated elementwise (``affine_eval``), so that a state gives the same bits alone or in a
    batch. ``rows = (tangent_rows(q), tangent_rows(v))``. Writes the joints' data (joint_q, M,
    v, joint_v) and returns ``(R, p, X or None, v_J or None, None)`` with the joint axis
    first."""
    qT, vT = rows
    K, nb, B = len(group.ids), len(shape), math.prod(shape)
    R0, RW, X0, XW, p0, pW = group.affine
    qg = segments(qT, group.q_index, group.nq, shape)
    if group.nq == 2 or group.prismatic:
        x = qg                                          # (cos, sin) as given, or d
    else:
        x = np.concatenate((np.cos(qg), np.sin(qg)), -1)
    x = x.reshape(K, B, x.shape[-1])
    # R = R0 + x RW ; p = p0 + d pW
    R = affine_eval(x, RW, R0).reshape((K,) + shape + (3, 3))
    if group.prismatic:
        p = (p0 + x * pW).reshape((K,) + shape + (3,))
    else:
        p = p0[:, 0].reshape((K,) + (1,) * nb + (3,))
    # X = liMi.actionInverse = X0 + x XW
    X = affine_eval(x, XW, X0).reshape((K,) + shape + (6, 6)) if actions else None
    fields = {"joint_q": qg, "M": _JointTransforms(group.transforms, qg)}
    vJ = None
    if v is not None:
        vg = segments(vT, group.v_index, 1, shape)
        vJ = vg * group.S_col.reshape((K,) + (1,) * nb + (6,))
        fields["v"] = Motion.unchecked(vJ)
        if group.template.calc_writes_joint_v:
            fields["joint_v"] = vg
    data.joint_rows[group.key].write(**fields)
    return R, p, X, vJ, None


class UnalignedJointModel(JointModel):
    """A joint about (or along) one axis ``u`` given by the user; the axis can be reassigned.

    Constructors, as Pinocchio's: ``()`` (u = e_x), ``(axis)`` (kept as given, **not
    normalised**), ``(x, y, z)`` (normalised). Subclasses compute their constants in
    ``_set_axis`` and give ``part`` (the half of a motion u is in) and ``_transform(qs)`` (the
    joint's M), as ``FrameAxisJointModel`` does, for the model's Tree to run their calc by
    group (``tree.BATCHED``). ``rotates_about_axis``: M_J rotates about u, so a u that is not
    of unit length makes M_J no rotation (AxisWarning); a prismatic joint only scales its d.
    """

    rotates_about_axis = True

    def __init__(self, *args, axis=None):
        super().__init__()
        owner = self.classname()
        if axis is not None and args:
            raise ShapeError(f"{owner}: give the axis once, as a vector or as x, y, z")
        if axis is not None or len(args) == 1:
            self._assign_axis(args[0] if axis is None else axis)
        elif len(args) == 3:
            self._assign_axis(normalized_axis(*args, owner))
        elif not args:
            self._assign_axis(unit_vector(0))
        else:
            raise ShapeError(f"{owner}: takes (), (axis) or (x, y, z), got {len(args)} arguments")

    @property
    def axis(self):
        """The joint axis u ``(3,)`` in the joint frame."""
        return self._axis

    @property
    def long_axis(self):
        """Whether M_J turns about u and u is not of unit length (to 1e-10): M_J is then no
        rotation (AxisWarning)."""
        norm = math.sqrt(float(self._axis @ self._axis))
        return self.rotates_about_axis and abs(norm - 1.0) > 1e-10

    @axis.setter
    def axis(self, value):
        self._assign_axis(value)

    def _assign_axis(self, value):
        """Set u and the constants of the axis; AxisWarning, at the line of the constructor or
        of the assignment (two frames up), for a rotation axis not of unit length."""
        self._axis = check_axis(value, self.classname())
        if self.long_axis:
            norm = math.sqrt(float(self._axis @ self._axis))
            warnings.warn(
                f"{self.classname()}: axis {self._axis.tolist()} has length {norm:.6g}; it is kept "
                "as given, as Pinocchio keeps it, so the joint's M is no rotation and Pinocchio's "
                "crba (which pinref reproduces) disagrees with its own rnea on this model "
                "(errors.AxisWarning). Pass a unit axis, or (x, y, z) to normalise it.",
                AxisWarning, stacklevel=3)
        self._axis_col = read_only(self._axis[:, None])
        self._axis_row = read_only(self._axis[None, :])
        self._set_axis(self._axis)
        self.structure_key = (type(self), tuple(self._axis.tolist()))
        _kernels.SETATTR_COUNT[0] += 1        # a model's Tree holds constants of the axis

    def _set_axis(self, u):
        raise NotImplementedError

