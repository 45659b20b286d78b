"""Mutation drills: plant one classic mistake from the tutorials, run every check, see which fail.

A check suite is only worth trusting if it fails when the code is wrong. Each drill is a
backend that misbehaves in one way the tutorials warn about, planted by wrapping the backend
the checks call (:class:`WrappedBackend`) or, for a mistake inside pinref's ABA, through the
core's step hook (``pinref.algorithms.steps.hooked``) for the duration of each call. pinref's
files are never edited, no step is copied, and nothing outside the drilled backend sees the
mutation.

``run_drills`` runs the unmutated backend first (it must pass), then each drill, and reports
which checks caught it (verdict ``fail`` or ``error``). A drill that no check catches is a hole
in the suite.
"""

from dataclasses import asdict, dataclass, field

import numpy as np

import pinref

from ..algorithms import steps
from ..spatial import ANGULAR, LINEAR, Force
from ..spatial._kernels import matvec
from .backends import Backend
from .checks import run_checks


class WrappedBackend(Backend):
    """A backend that forwards every method to ``inner``, except those a drill overrides.

    ``with_model`` wraps the modified inner backend again, so that a check building a variant
    of the model (the armature check) still talks to the drilled backend.
    """

    def __init__(self, inner):
        self.inner = inner
        self.model = inner.model
        self.name = f"{inner.name} + drill"

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def version(self):
        return self.inner.version()

    def index_table(self):
        return self.inner.index_table()

    def with_model(self, armature=None, gravity=None):
        return type(self)(self.inner.with_model(armature=armature, gravity=gravity))

    # Backend's methods are forwarded explicitly (__getattr__ does not see inherited ones).
    def tangent_step(self, q, dv):
        return self.inner.tangent_step(q, dv)


class SymmetrisedMassMatrix(WrappedBackend):
    """``M + M.T`` to "complete" a matrix that is already symmetric: the diagonal doubles."""

    def crba(self, q):
        M = self.inner.crba(q)
        return M + np.swapaxes(M, -1, -2)


class SwappedVelocityAndTorque(WrappedBackend):
    """``aba(q, tau, v)``: the two nv-vectors swapped (the v/tau mix-up of the aba docstring)."""

    def aba(self, q, v, tau, fext=None):
        return self.inner.aba(q, tau, v, fext)


class WorldFrameWrench(WrappedBackend):
    """fext given in the world frame (``oMi.act(f)``), where each joint's LOCAL frame is due."""

    def _world(self, q, fext):
        if fext is None:
            return None
        data = self.model.createData()
        pinref.forwardKinematics(self.model, data, q)
        out = np.array(fext, dtype=float)
        for i in range(1, self.model.njoints):
            out[:, i] = data.oMi[i].act(Force(out[:, i])).vector
        return out

    def rnea(self, q, v, a, fext=None):
        return self.inner.rnea(q, v, a, self._world(q, fext))

    def aba(self, q, v, tau, fext=None):
        return self.inner.aba(q, v, tau, self._world(q, fext))


class UnmovedMoment(WrappedBackend):
    """A wrench moved from the point c to the joint by the rotation alone: (R f, R n), without
    the moment of the force about the new point, p x (R f)."""

    def wrench_to_joint(self, jMc, f_c):
        R = np.asarray(jMc, dtype=float)[..., :3, :3]
        f_c = np.asarray(f_c, dtype=float)
        return np.concatenate((matvec(R, f_c[..., LINEAR]), matvec(R, f_c[..., ANGULAR])),
                              axis=-1)


class ForgottenArmature(WrappedBackend):
    """Every algorithm run on the model without its armature."""

    def __init__(self, inner):
        super().__init__(inner.with_model(armature=np.zeros(inner.model.nv)))

    def with_model(self, armature=None, gravity=None):
        return type(self)(self.inner.with_model(gravity=gravity))


class FiniteDifferencesOnStoredNumbers(WrappedBackend):
    """The finite differences step the j-th stored number of q (q[j] += eps, j < nv) instead of
    moving along the tangent direction e_j; the quaternions are renormalised afterwards, as
    pinref demands (Pinocchio would take them as they are). On a model whose q is a plain
    vector (nq == nv, no rotation stored) the two coincide and the drill plants nothing."""

    def tangent_step(self, q, dv):
        out = np.array(q, dtype=float)
        out[..., :self.model.nv] += dv
        return pinref.normalize(self.model, out)


class LocalJacobianWorldVelocity(WrappedBackend):
    """The LOCAL Jacobian compared with the WORLD velocity: asked for a WORLD Jacobian, it gives
    the LOCAL one."""

    def frame_jacobians(self, q, targets, rf):
        return self.inner.frame_jacobians(q, targets, "LOCAL" if rf == "WORLD" else rf)


class _WithoutIaC(steps.Hook):
    """A step hook (``pinref.algorithms.steps``): ABA's backward step runs with every a_gf[i]
    (which holds the bias c_i during that pass) set to zero, so the step computes
    pa_i = pA_i + UDinv_i u_i: the Ia_i c_i term is missing and c_i never reaches the parent.
    a_gf is restored right after the step, so pass 3 is the real one."""

    def around(self, step, run):
        if step is not steps.ABA_BACKWARD:
            return run()
        a_gf = self.data[-1].a_gf.vector
        saved = a_gf[1:].copy()
        a_gf[1:] = 0.0
        try:
            return run()
        finally:
            a_gf[1:] = saved


def aba_without_Ia_c():
    """A context manager: inside it, pinref's ABA drops the Ia_i c_i term of pa_i (through the
    core's step hook; ``pinref.trace()`` still shows every step). Nothing is changed outside
    the block."""
    return steps.hooked(_WithoutIaC())


class PatchedBackend(WrappedBackend):
    """Every method call of the inner backend runs inside ``patch()``, a context manager."""

    patch = None

    def __getattr__(self, name):
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr

        def patched(*args, **kwargs):
            with type(self).patch():
                return attr(*args, **kwargs)
        return patched

    def tangent_step(self, q, dv):
        with type(self).patch():
            return self.inner.tangent_step(q, dv)


class DroppedIaC(PatchedBackend):
    """ABA's backward pass without Ia c: pa_i = pA_i + UDinv_i u_i."""

    patch = staticmethod(aba_without_Ia_c)


@dataclass(frozen=True)
class Drill:
    """A planted mistake: ``id``, the tutorial's mistake in words, and the backend class."""

    id: str
    mistake: str
    backend: type
    pinref_only: bool = False


DRILLS = (
    Drill("symmetrised_M", "symmetrising M as M + M.T (the diagonal doubles)",
          SymmetrisedMassMatrix),
    Drill("swapped_v_tau", "swapping v and tau in aba(q, v, tau)", SwappedVelocityAndTorque),
    Drill("world_fext", "passing a world-frame wrench as fext (LOCAL expected)",
          WorldFrameWrench),
    Drill("unmoved_moment", "moving a wrench to another point by rotating it, without moving "
          "its moment (p x f left out)", UnmovedMoment),
    Drill("dropped_Ia_c", "dropping the Ia c term of ABA's backward pass", DroppedIaC,
          pinref_only=True),
    Drill("forgotten_armature", "forgetting armature", ForgottenArmature),
    Drill("fd_on_q_numbers", "finite differences on the nq-vector instead of the tangent space",
          FiniteDifferencesOnStoredNumbers),
    Drill("local_J_world_V", "comparing a LOCAL Jacobian with a WORLD velocity",
          LocalJacobianWorldVelocity),
)

DRILL_IDS = tuple(d.id for d in DRILLS)


@dataclass
class DrillResult:
    """Which checks failed (``caught_by``) with one drill planted; ``verdict`` is "caught",
    "missed" or "skip" (a pinref-only drill on another backend)."""

    id: str
    mistake: str
    verdict: str
    caught_by: list = field(default_factory=list)
    details: dict = field(default_factory=dict)

    def to_dict(self):
        return asdict(self)


@dataclass
class DrillReport:
    """The unmutated run (``baseline_failures`` must be empty) and one DrillResult per drill."""

    baseline_failures: list
    drills: list

    @property
    def passed(self):
        return not self.baseline_failures and all(d.verdict != "missed" for d in self.drills)

    def to_dict(self):
        return {"baseline_failures": self.baseline_failures,
                "drills": [d.to_dict() for d in self.drills], "passed": self.passed}

    def to_text(self):
        lines = ["unmutated: " + ("all checks pass" if not self.baseline_failures else
                                  "FAILING " + ", ".join(self.baseline_failures))]
        width = max(len(d.id) for d in self.drills)
        for d in self.drills:
            caught = ", ".join(d.caught_by) if d.caught_by else "-"
            lines.append(f"{d.verdict.upper():6s}  {d.id.ljust(width)}  {d.mistake}")
            lines.append(f"{'':6s}  {'':{width}s}  caught by: {caught}")
        lines.append("every drill caught" if self.passed else "SOME DRILL WAS MISSED")
        return "\n".join(lines)


def run_drills(backend, states, ids=None, checks=None):
    """Run the checks unmutated, then with each drill (``ids``, default all) planted in
    ``backend`` (already set up with the states' armature and gravity). Returns DrillReport."""
    baseline = run_checks(backend, states, checks)
    results = []
    for drill in DRILLS if ids is None else [d for d in DRILLS if d.id in ids]:
        if drill.pinref_only and backend.name != "pinref":
            results.append(DrillResult(drill.id, drill.mistake, "skip",
                                       details={"reason": "plants a mistake inside pinref"}))
            continue
        outcome = run_checks(drill.backend(backend), states, checks)
        caught = [r.id for r in outcome if r.failed]
        results.append(DrillResult(
            drill.id, drill.mistake, "caught" if caught else "missed", caught,
            {r.id: {"verdict": r.verdict, "residual": r.residual, "tolerance": r.tolerance,
                    "detail": r.detail} for r in outcome if r.failed}))
    return DrillReport([r.id for r in baseline if r.failed], results)


__all__ = ["DRILLS", "DRILL_IDS", "Drill", "DrillReport", "DrillResult", "WrappedBackend",
           "aba_without_Ia_c", "run_drills"]
