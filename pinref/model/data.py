"""Every cache the algorithms write (multibody/data.hpp), declared once with its meaning.

Data is built from a Model with Pinocchio's initial values (facts §0.4). Each algorithm replaces
the caches it writes; when it is called with a batch of states, those caches carry the same
leading batch axes. Caches an algorithm does not write keep what they held (see
docs/quirks.md: ABA reads ``oMi`` without writing it, RNEA never writes ``f[0]``, ...).
"""

import copy
import math
import threading
import warnings

import numpy as np

from ..errors import DataInUseError, NonFiniteResultWarning, NotComputedError, UnsupportedError
from ..spatial import SE3, Force, Inertia, Motion
from ._values import same_fields
from .containers import StdVec_Vector3
from .mimic import data_rows, init_mimic_data
from .model import Model
from .stacks import (ForceStack, InertiaMatrixStack, JointRows, MatrixStack, MotionStack,
                     RowJointData, SE3Stack, Stack)
from .tree import tree


class Data:
    """The work space of the algorithms for one Model (``pinocchio::Data``)."""

    def __init__(self, model):
        if not isinstance(model, Model):
            raise UnsupportedError(
                f"Data(model): expected a pinref.Model, got {type(model).__module__}."
                f"{type(model).__name__}; convert a Pinocchio model with "
                "pinref.from_pinocchio(model)")
        if model.mimicking_joints:   # E's Data, with Pinocchio's fields (model/mimic.py)
            init_mimic_data(self, model)
            return
        n, nv = model.njoints, model.nv
        pos = tree(model).pos                             # row of joint i in the stacked caches
        # --- kinematics (forwardKinematics, rnea, crba, aba) -------------------------------
        self.oMi = SE3Stack(pos)                          # placement of joint i in the world
        self.liMi = SE3Stack(pos)                         # placement of joint i in its parent
        self.v = MotionStack(pos, np.zeros(6))            # spatial velocity of body i, frame i
        self.a = MotionStack(pos, np.zeros(6))            # spatial acceleration of i, frame i
        # spatial acceleration minus gravity, frame i; a_gf[0] = -gravity (set here too)
        self.a_gf = MotionStack(pos, np.zeros(6))
        self.a_gf[0] = -model.gravity
        # --- rnea, aba ---------------------------------------------------------------------
        self.h = ForceStack(pos, np.zeros(6))             # momentum Y_i v_i of body i, frame i
        self.f = ForceStack(pos, np.zeros(6))             # joint wrench (rnea) / bias force (aba)
        self.tau = np.zeros(nv)                           # rnea: joint torques         (..., nv)
        self.nle = np.zeros(nv)                           # nonLinearEffects: C v + g   (..., nv)
        self.g = np.zeros(nv)                             # computeGeneralizedGravity   (..., nv)
        # --- crba --------------------------------------------------------------------------
        self.M = np.zeros((nv, nv))                       # joint-space inertia       (..., nv, nv)
        self.Ycrb = InertiaMatrixStack(pos)               # composite inertia of subtree i, frame i
        self.Fcrb = MatrixStack(pos, 6, nv)               # Ycrb_k S_k moved to frame i (..., 6, nv)
        # --- aba ---------------------------------------------------------------------------
        self.Yaba = MatrixStack(pos, 6, 6)                # articulated inertia, frame i (..., 6, 6)
        self.u = np.zeros(nv)                             # tau - S^T pA, per joint       (..., nv)
        self.ddq = np.zeros(nv)                           # joint accelerations           (..., nv)
        # --- frames and Jacobians (frames.hxx, jacobian.hxx); WORLD: world axes and origin --
        self.oMf = SE3Stack(list(range(model.nframes)))   # frame f in the world (row f)
        self.iMf = [SE3.Identity() for _ in range(n)]     # target frame in joint i (LOCAL J)
        self.ov = MotionStack(pos, np.zeros(6))           # velocity of body i, WORLD: oMi v[i]
        self.J = np.zeros((6, nv))                        # columns oMi S_i, WORLD  (..., 6, nv)
        self.dJ = np.zeros((6, nv))                       # ov_i x J cols, WORLD    (..., 6, nv)
        # --- centre of mass (center-of-mass.hxx); com[0]: the whole robot's, world frame ---
        # com[i], i >= 1: subtree CoM, frame i after centerOfMass, world after jacobianCenterOfMass
        # (mass-weighted sums m c when compute_subtree_coms=False)                    (..., 3)
        self.com = StdVec_Vector3(np.zeros(3) for _ in range(n))
        self.vcom = StdVec_Vector3(np.zeros(3) for _ in range(n))  # subtree CoM velocity, frame i
        self.acom = StdVec_Vector3(np.zeros(3) for _ in range(n))  # its acceleration, frame i
        self.mass = [-1.0] * n                            # subtree masses, mass[0] total; -1 unset
        self.Jcom = np.zeros((3, nv))                     # CoM Jacobian, world      (..., 3, nv)
        # --- energy (energy.hxx) -------------------------------------------------------------
        self.kinetic_energy = 0.0                         # 1/2 v^T M v (armature incl.) (...)
        self.potential_energy = 0.0                       # -sum_i m_i g . com_i, world  (...)
        self.mechanical_energy = 0.0                      # kinetic + potential          (...)
        # --- regressors (regressor.hxx); columns: 10 dynamic parameters (4 static) per body ---
        self.jointTorqueRegressor = np.zeros((nv, 10 * (n - 1)))  # tau = Y pi  (..., nv, 10(n-1))
        self.staticRegressor = np.zeros((3, 4 * (n - 1)))  # com = Y (m, m c)_i  (..., 3, 4(n-1))
        self.bodyRegressor = np.zeros((6, 10))            # f_i = Y pi_i (hidden in pin) (..., 6, 10)
        self.kineticEnergyRegressor = np.zeros(10 * (n - 1))    # T = Y pi          (..., 10(n-1))
        self.potentialEnergyRegressor = np.zeros(10 * (n - 1))  # U = Y pi          (..., 10(n-1))
        # --- derivatives (rnea-derivatives.hxx, aba-derivatives.hxx); o = WORLD frame --------
        # Also written there: liMi, oMi, v, a (rnea), ov, J, dJ, tau, g, M, u, ddq, Fcrb (Fcrb[0]
        # is their scratch), and the joints' U, StU, Dinv, UDinv (WORLD frame, aba). "cols" of a
        # (6, nv) cache: column k belongs to the joint whose tangent directions hold k.
        # aba(..., Convention.WORLD) (aba_world.py) writes ov, oa, oa_gf, oh, of (subtree sums
        # without fext, each body's own with it), oinertias = oYcrb (each body alone), oYaba, J;
        # crba(..., WORLD) (crba_world.py) oYcrb (subtree composites, [0] the robot's), J, Ag
        # (about com[0] on return), mass[0], com[0].
        self.oa = MotionStack(pos, np.zeros(6))           # acceleration of body i, WORLD: oMi a[i]
        self.oa_gf = MotionStack(pos, np.zeros(6))        # oa_i - gravity, WORLD; [0]: -gravity
        self.oh = ForceStack(pos, np.zeros(6))            # momentum oYcrb_i ov_i of body i, WORLD
        self.of = ForceStack(pos, np.zeros(6))            # body i's wrench; subtree sum on return
        self.oinertias = [Inertia.Zero() for _ in range(n)]  # body i's inertia, WORLD: oMi Y_i
        self.oYcrb = [Inertia.Zero() for _ in range(n)]   # subtree i's composite inertia, WORLD
        self.doYcrb = MatrixStack(pos, 6, 6)              # d/dt oYcrb_i + B(oh_i)    (..., 6, 6)
        self.oYaba = MatrixStack(pos, 6, 6)               # articulated inertia, WORLD (..., 6, 6)
        self.dVdq = np.zeros((6, nv))                     # cols ov_parent x J: dv/dq    (..., 6, nv)
        self.dAdq = np.zeros((6, nv))                     # cols d oa_i / dq_i          (..., 6, nv)
        self.dAdv = np.zeros((6, nv))                     # cols d oa_i / dv_i          (..., 6, nv)
        self.dFda = np.zeros((6, nv))                     # cols oYcrb_i J: d f / da     (..., 6, nv)
        self.dFdq = np.zeros((6, nv))                     # cols d of_i / dq_i          (..., 6, nv)
        self.dFdv = np.zeros((6, nv))                     # cols d of_i / dv_i          (..., 6, nv)
        self.SDinv = np.zeros((6, nv))                    # cols J_i Dinv_i (aba derivs) (..., 6, nv)
        self.Ag = np.zeros((6, nv))                       # cols oYcrb_i J_i (gravity)  (..., 6, nv)
        self.dtau_dq = np.zeros((nv, nv))                 # d tau / dq, tangent space (..., nv, nv)
        self.dtau_dv = np.zeros((nv, nv))                 # d tau / dv                (..., nv, nv)
        self.ddq_dq = np.zeros((nv, nv))                  # d ddq / dq, tangent space (..., nv, nv)
        self.ddq_dv = np.zeros((nv, nv))                  # d ddq / dv                (..., nv, nv)
        self.ddq_dtau = np.zeros((nv, nv))                # never written (it is Minv)  (nv, nv)
        self.Minv = np.zeros((nv, nv))                    # (M + diag(armature))^-1   (..., nv, nv)
        # --- Coriolis matrix (rnea.hxx), computeAllTerms (compute-all-terms.hxx); WORLD -----
        # Also written there: oYcrb and doYcrb (subtree sums), Ag (cols oYcrb_i J_i; shifted to
        # the CoM by computeAllTerms), dFdv (cols oYcrb_i dJ_i + B_i J_i), Fcrb[0] (getter).
        self.C = np.zeros((nv, nv))                       # Coriolis matrix C(q, v)   (..., nv, nv)
        self.B = MatrixStack(pos, 6, 6)                   # (oYcrb.variation(ov) + B(oh)) / 2, sums
        self.dAg = np.zeros((6, nv))                      # d/dt Ag, about the CoM      (..., 6, nv)
        self.hg = Force.Zero()                            # centroidal momentum, at the CoM (..., 6)
        self.dhg = Force.Zero()                           # d/dt hg: f[0] at the CoM    (..., 6)
        self.Ig = Inertia.Zero()                          # centroidal inertia (lever 0, world axes)
        # --- centroidal (centroidal.hxx, centroidal-derivatives.hxx): "at the CoM" = world axes,
        # moments about com[0]. Also written there: Ag (the centroidal map, hg = Ag v), dAg
        # (dhg = Ag a + dAg v), hg, dhg, Ig, oYcrb, doYcrb, ov, oa, oh, of (subtree sums), h, f
        # (LOCAL subtree sums), J, dJ, dVdq, dAdq (oa in place of oa_gf), dAdv, dFda, dFdq, dFdv.
        self.dHdq = np.zeros((6, nv))                     # cols d oh / dq, world origin (..., 6, nv)
        # --- joints and tree bookkeeping ---------------------------------------------------
        self.joints = [jmodel.createData() for jmodel in model.joints]
        self.joint_rows = {}                              # Tree group key -> JointRows
        sources = {}
        groups = tree(model).kinds + [g for level in tree(model).levels for g in level.groups]
        for group in groups:
            if group.batched:
                rows = self.joint_rows[group.key] = JointRows()
                fields = RowJointData.FIELDS[:6] if group.key[0] == "calc" else \
                    RowJointData.FIELDS[6:]
                for k, i in enumerate(group.ids):
                    sources.setdefault(i, {}).update((name, (rows, k)) for name in fields)
        for i, fields in sources.items():
            self.joints[i] = RowJointData(self.joints[i], fields)
        for level in tree(model).levels:
            # a level block's own rows of U, StU, Dinv, UDinv (AxisBlock.key), when it spans
            # several of the groups above
            for block in level.blocks:
                if getattr(block, "key", None) is not None:
                    self.joint_rows.setdefault(block.key, JointRows())
        self.nvSubtree = _nv_subtree(model)               # dofs of the subtree rooted at i
        # --- Cholesky M = U D U^T (cholesky.hxx), contact dynamics (contact-dynamics.hxx) ----
        # dof rows j = 0 .. nv-1: the row of j's parent dof (-1 at a root), and the dofs of j's
        # subtree counted from j (j's descendants are the rows j+1 .. j+nvSubtree_fromRow[j]-1)
        # (data_rows: the same over the extended rows, and the mimic joints' bookkeeping)
        vars(self).update(data_rows(model, self.nvSubtree))
        self.U = np.eye(nv)                               # unit upper factor U     (..., nv, nv)
        self.D = np.zeros(nv)                             # diagonal factor D          (..., nv)
        self.Dinv = np.zeros(nv)                          # 1 / D                      (..., nv)
        # contacts: J (nc, nv) the constraint Jacobian, gamma (nc,) its drift, mu the damping
        self.torque_residual = np.zeros(nv)               # M^-1 (tau - nle)           (..., nv)
        self.sDUiJt = np.zeros((nv, nv))                  # D^-1/2 U^-1 J^T        (..., nv, nc)
        self.JMinvJt = np.zeros((0, 0))                   # J M^-1 J^T + mu I      (..., nc, nc)
        self.llt_JMinvJt = np.zeros((0, 0))               # its Cholesky factor L  (..., nc, nc)
        self.lambda_c = np.zeros(0)                       # contact forces (forwardDyn.) (..., nc)
        self.impulse_c = np.zeros(0)                      # contact impulses             (..., nc)
        self.dq_after = np.zeros(nv)                      # velocity after the impact    (..., nv)
        # --- which call last wrote each cache (pinref only; read by the query functions) -----
        self.written = {}                  # cache name -> name of the call, last written last
        self.batch_shape = ()                             # batch shape of the last call
        self.reset_by = None            # (old, new) batch shapes of the call that last reset it
        self.model_structure = model.structure()          # what check_model compares

    def conform(self, model, shape):
        """Prepare for a call on a batch of shape ``shape``.

        Caches a call does not write keep their values (Pinocchio's call-history semantics),
        which needs them to broadcast to the new batch. When the last call's batch shape does
        not broadcast to ``shape`` (say ``(2,)`` then ``(3,)``, or ``(3,)`` then ``()``), every
        cache returns to its initial value first (docs/quirks.md).
        """
        if shape == self.batch_shape:
            return
        try:
            fits = np.broadcast_shapes(self.batch_shape, shape) == shape
        except ValueError:
            fits = False
        if not fits:
            old = self.batch_shape
            self.__init__(model)
            self.reset_by = (old, shape)
        self.batch_shape = shape

    def __eq__(self, other):
        """Every cache equal, numbers exactly (``DataTpl::operator==``)."""
        return isinstance(other, Data) and same_fields(self, other)

    __hash__ = None

    def copy(self):
        """An independent deep copy (``Data.copy()``; ``copy.copy`` is deep too, as in
        Pinocchio's binding)."""
        return copy.deepcopy(self)

    def __copy__(self):
        return copy.deepcopy(self)

    def mark(self, call, *caches):
        """Record that the public algorithm ``call`` wrote the Data fields named ``caches``
        (listed in the order the call computes them), and warn if they are not finite.

        The inputs were checked finite, so NaN or infinity here is an overflow (v = 1e200), or
        a division by a subtree mass of 0 (the centre of mass of massless bodies, 0/0):
        Pinocchio returns it silently; pinref warns (NonFiniteResultWarning) naming the first
        cache, in computation order, that is not finite, and the cause. Cheap: one
        ``np.isfinite`` per array or spatial-vector cache written (or, when there is none, over
        the last cache); the search runs only on failure. The sum of those arrays is finite
        when each entry is (NaN and infinity propagate), so one ``sum`` per array decides in
        the common case; an overflow of the sum itself falls back to the entry-wise check.
        NumPy's own warnings are silenced here, so that an overflow gives this one warning.
        """
        written = self.written
        for cache in caches:
            written.pop(cache, None)            # (the order of the last writes: computeMinverse)
            written[cache] = call
        values = [getattr(self, c) for c in caches]
        arrays = [getattr(x, "vector", x) for x in values if isinstance(x, _CHECKED)] or \
            values[-1:]
        with np.errstate(over="ignore", invalid="ignore"):
            if _sum_is_finite(arrays) or all(map(_all_finite, arrays)):
                return
        for cache in caches:
            where = _first_non_finite(getattr(self, cache))
            if where is not None:
                warnings.warn(f"{call}: data.{cache}{where} is not finite although every input "
                              f"was: {self._non_finite_cause(caches)}", NonFiniteResultWarning,
                              stacklevel=3)
                return

    def _non_finite_cause(self, caches):
        """Why a call that wrote ``caches`` gave NaN or inf from finite input: the subtree
        mass it divided by is 0 (when it wrote data.mass, or data.Ig, the total mass, and one
        is), else an overflow."""
        masses = self.mass if "mass" in caches else [self.Ig.mass] if "Ig" in caches else []
        for k, m in enumerate(masses):
            if np.any(np.asarray(m) == 0):
                what = "the model's total mass" if k == 0 else f"the mass of joint {k}'s subtree"
                return (f"data.mass[{k}], {what}, is 0, and the centre of mass divides by it "
                        "(0/0); Pinocchio returns the same NaN silently. Give those bodies a "
                        "mass (model.inertias).")
        return ("an overflow (inputs of size ~1e150 and more square past the largest float); "
                "Pinocchio returns such NaN/inf silently. Scale the inputs down.")

    def require(self, where, cache, first):
        """Raise NotComputedError unless some call wrote ``data.<cache>`` in this Data (since
        the last reset by a call with a batch shape that the one before does not broadcast to:
        the message says which).

        ``first`` names the call to make first; Pinocchio would read the initial zeros instead.
        """
        if cache in self.written:
            return
        if self.reset_by is None:
            raise NotComputedError(
                f"{where}: data.{cache} was never computed in this Data (it still holds its "
                f"initial value); call {first} first")
        old, new = self.reset_by
        raise NotComputedError(
            f"{where}: data.{cache} holds its initial value again: a call on a batch of shape "
            f"{new} reset this Data, since the batch shape {old} of the call before does not "
            f"broadcast to it (docs/quirks.md); call {first} again on this batch shape, or "
            "keep one Data per batch shape")


_IN_CALL = {}
"""``id(data) -> (thread, call)``: the outermost public call using each Data, while it runs."""


def claim(data, call):
    """Mark ``data`` as used by ``call`` (a ``steps.Call``: its ``algorithm`` names it) in this
    thread; a call nested in it (same thread) passes. Raise DataInUseError when another thread's
    call holds it. One atomic ``dict.setdefault``, so two threads cannot both claim a Data.
    What is no Data is left to the call's own checks."""
    if not isinstance(data, Data):
        return
    me = threading.get_ident()
    thread, owner = _IN_CALL.setdefault(id(data), (me, call))
    if thread != me:
        raise DataInUseError(
            f"{call.algorithm}: this Data is in use by {owner.algorithm} in another thread; a "
            "Data belongs to one call at a time, as in Pinocchio: give each thread its own "
            "Data (model.createData())")


def release(data, call):
    """End ``call``'s use of ``data`` (``claim``); a nested call leaves the claim to its
    outermost one."""
    if _IN_CALL.get(id(data), (None, None))[1] is call:
        del _IN_CALL[id(data)]


_CHECKED = (np.ndarray, Stack, Force, Motion)   # what mark sums (a Force or Motion: its vector)


def _sum_is_finite(values):
    """Whether the sum of every entry of ``values`` (arrays or stacked caches) is finite."""
    total = 0.0
    for value in values:                    # np.add.reduce: x.sum() without its Python wrapper
        if isinstance(value, Stack):
            for name, _ in value.PARTS:
                total += np.add.reduce(getattr(value, name), None)
        elif isinstance(value, np.ndarray):
            total += np.add.reduce(value, None)
        else:
            return False
    return math.isfinite(total)


def _all_finite(value):
    """Whether ``value`` is finite, a stacked cache checked part by part (one call each)."""
    if isinstance(value, Stack):
        return all(np.isfinite(getattr(value, name)).all() for name, _ in value.PARTS)
    if isinstance(value, list) and value and isinstance(value[0], (float, np.ndarray)):
        try:   # numbers or equal-shape arrays (mass, com): one array
            return bool(np.isfinite(np.asarray(value, dtype=float)).all())
        except (TypeError, ValueError):
            pass
    return _first_non_finite(value) is None


def _first_non_finite(value):
    """None when ``value`` (an array, a number, a spatial object or a list of them) is finite;
    otherwise where it is not: ``""`` for the whole value, ``"[k]"`` for entry k of a list."""
    if isinstance(value, (list, Stack)):
        for k, entry in enumerate(value):
            if _first_non_finite(entry) is not None:
                return f"[{k}]"
        return None
    if isinstance(value, SE3):
        parts = (value.rotation, value.translation)
    elif isinstance(value, Inertia):
        parts = (value.mass, value.lever, value.inertia)
    else:
        parts = (getattr(value, "vector", value),)
    try:
        return None if all(np.all(np.isfinite(p)) for p in parts) else ""
    except TypeError:  # not numbers (a joint's data): nothing to check
        return None


def _nv_subtree(model):
    """``Data::nvSubtree`` as Pinocchio 3.8.0 fills it, including its value at index 0.

    Going i = n-1 .. 0: nvSubtree[i] += nv_i ; nvSubtree[parent] += nvSubtree[i]. At i = 0 the
    universe's placeholder joint reports nv = 1 and is its own parent, so nvSubtree[0] ends as
    2 (nv + 1) (docs/quirks.md). Index 0 is never read by the algorithms.
    """
    out = [0] * model.njoints
    for i in reversed(range(model.njoints)):
        out[i] += model.nvs[i] if i > 0 else 1
        out[model.parents[i]] += out[i]
    return out
