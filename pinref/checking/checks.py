"""The checks: the self-checks of the tutorials, each an identity with an independent oracle.

Every check runs on all states at once through a backend (``pinref.checking.backends``) and
returns a :class:`CheckResult`. For each state s it computes a residual r_s (the largest
absolute entry of ``lhs - rhs``) and a tolerance t_s (``rtol * max(1, max|rhs|)``, the
project's tolerance shape, the maxima taken over the quantity compared); the state fails when
r_s > t_s or r_s is not finite. The result reports the worst state, the one of largest
r_s / t_s, with its residual, its tolerance and the entry where it is reached, named after the
joint that owns it.

The order is the tutorial's order for a replay: geometry first (sizes, the manifold, frames),
then single-state dynamics (RNEA, CRBA, ABA, energy, armature, external force, the floating
base), then derivatives. docs/check.md lists each check with its oracle and tolerance.
"""

import os
from dataclasses import asdict, dataclass, field

import numpy as np

from .finite_differences import (
    EPS_SWEEP,
    FiniteDifferenceSweep,
    SweepStep,
    tangent_label,
)
from ..model.frame import FrameType
from ..model.urdf import link_inertia_problems
from ..spatial import LINEAR, SE3, Force
from ..spatial.physical import inertia_problems
from .backends import REFERENCE_FRAMES
from .states import field_shapes, floating_base_dofs, has_floating_base

VERDICTS = ("pass", "fail", "known", "skip", "error")

# Documented Pinocchio 3.8.0 behaviours that break a textbook identity (pinref reproduces them).
# A check that fails only where one of these applies gets the verdict "known", not "fail".
KINETIC_ENERGY_WITHOUT_ARMATURE = ("JointModelRevoluteUnaligned", "JointModelHelicalUnaligned")
KNOWN_KINETIC_ENERGY = (
    "Pinocchio 3.8.0's computeKineticEnergy leaves out the armature of RevoluteUnaligned and "
    "HelicalUnaligned joints, whose calc does not write joint_v (docs/kinematics.md)")
# The same, in a few words, for the verdict line: what is left out for the relaxed residual.
KNOWN_KINETIC_ENERGY_CAUSE = ("Pinocchio 3.8.0's T omits the armature of "
                              "RevoluteUnaligned/HelicalUnaligned")


@dataclass(frozen=True)
class KnownDerivativeIssue:
    """Joint types whose columns of Pinocchio 3.8.0's dtau_dq and dtau_dv are not the
    derivatives of rnea: ``issue`` says why in full (``known_issue``), ``cause`` in a few
    words (the verdict line)."""

    joint_types: tuple
    issue: str
    cause: str


# Pinocchio's RNEA derivative passes (rnea-derivatives.hxx, ComputeRNEADerivativesForwardStep)
# take each joint's S as fixed in the joint's child frame: J = oMi S, dJ = ov_i x J,
# dVdq = ov_parent x J. The columns of a joint whose S moves with q are off.
KNOWN_DERIVATIVE_ISSUES = (
    KnownDerivativeIssue(
        ("JointModelSphericalZYX", "JointModelUniversal"),
        "Pinocchio 3.8.0's RNEA derivatives treat the motion subspace as constant, which it is "
        "not for SphericalZYX and Universal joints: their columns of dtau_dq and dtau_dv are "
        "not the derivatives of rnea (docs/derivatives.md, section 5)",
        "Pinocchio 3.8.0 assumes a constant S for SphericalZYX/Universal"),
    KnownDerivativeIssue(
        ("JointModelComposite",),
        "Pinocchio 3.8.0's RNEA derivatives take a joint's motion subspace S as fixed in the "
        "joint's frame, which a composite's is not: its S holds each part's axes moved into the "
        "last part's frame through the parts after it (joint-composite.hxx, "
        "iMlast[k+1].actInv(S_k)), so it turns with their q, and the composite's columns of "
        "dtau_dq and dtau_dv are not the derivatives of rnea (docs/derivatives.md, section 5)",
        "Pinocchio 3.8.0 assumes a constant S for a Composite"),
)

# (nq, nv) of every joint type, from Pinocchio's joint headers (docs/joints.md).
JOINT_SIZES = {
    "JointModelFreeFlyer": (7, 6), "JointModelSpherical": (4, 3),
    "JointModelSphericalZYX": (3, 3), "JointModelPlanar": (4, 3),
    "JointModelTranslation": (3, 3), "JointModelUniversal": (2, 2),
    **{f"JointModel{k}": (1, 1) for k in ("RX", "RY", "RZ", "RevoluteUnaligned", "PX", "PY",
                                          "PZ", "PrismaticUnaligned", "HX", "HY", "HZ",
                                          "HelicalUnaligned")},
    **{f"JointModel{k}": (2, 1) for k in ("RUBX", "RUBY", "RUBZ",
                                          "RevoluteUnboundedUnaligned")},
}

ROUNDTRIP_SCALE = 0.1   # manifold round trip along 0.1 v: rotations well inside (-pi, pi)
BASE_STEP = 0.5         # the base moves 0.5 along each of its local axes
PLANAR_RTOL = 1e-7      # see run_manifold_roundtrip
GOOD_SHAPES = ("valley", "rounding", "exact")   # eps-sweep shapes of a correct derivative
COLUMN_DELTA = 1.0      # a[k] += 1 (tau is affine in a: any delta is exact up to rounding)


@dataclass
class CheckResult:
    """The outcome of one check over all states.

    Attributes
    ----------
    id, title, oracle : str
        The check's name, what it checks, and the independent side of the comparison.
    verdict : str
        ``"pass"``; ``"fail"`` (some state beyond tolerance); ``"known"`` (the identity fails
        only where a documented Pinocchio 3.8.0 behaviour says it must, ``known_issue`` names
        it, and holds everywhere else); ``"skip"`` (does not apply to this model; ``detail``
        says why); ``"error"`` (the backend raised; ``detail`` holds the message). ``fail``
        and ``error`` count as failures.
    residual, tolerance : float or None
        At the worst state (largest residual / tolerance); None when skipped or in error.
    worst_state : int or None
        Index of that state among the states checked.
    failing_states : list of int
        Every state beyond tolerance.
    detail : str
        Where the worst residual sits (entry, joint, sub-check), or why skipped / in error.
    table : str
        The eps sweep of the worst state, as text (derivative checks only).
    extra : dict
        Check-specific numbers, JSON-convertible (per-frame residuals, sweep rows, ...).
    known_issue : str
        With the verdict ``"known"``: the documented behaviour, and what was left out.
    """

    id: str
    title: str
    oracle: str
    verdict: str
    residual: float = None
    tolerance: float = None
    worst_state: int = None
    failing_states: list = field(default_factory=list)
    detail: str = ""
    table: str = ""
    extra: dict = field(default_factory=dict)
    known_issue: str = ""

    @property
    def failed(self):
        return self.verdict in ("fail", "error")

    def to_dict(self):
        return asdict(self)


@dataclass(frozen=True)
class Check:
    """One check: ``run(backend, states, check) -> CheckResult``; ``applies(model)`` returns
    None, or the reason it does not apply (the check is then skipped)."""

    id: str
    title: str
    oracle: str
    rtol: float
    run: object
    applies: object = None

    def skip_reason(self, model):
        return None if self.applies is None else self.applies(model)


# --- helpers -------------------------------------------------------------------------------------

def _per_state_max(x):
    """max |x| per state over every axis but the first, (B,)."""
    x = np.abs(np.asarray(x, dtype=float))
    return x.reshape(len(x), -1).max(axis=1) if x[0].size else np.zeros(len(x))


def _scale(*refs):
    """max(1, max|ref|) per state, over all the refs."""
    return np.maximum.reduce([np.ones(len(refs[0]))] + [_per_state_max(r) for r in refs])


def _worst_entry(diff, s):
    """The multi-index of the largest |diff[s]|."""
    d = np.abs(diff[s])
    return np.unravel_index(int(np.nanargmax(np.where(np.isnan(d), np.inf, d))), d.shape)


def _result(check, r, tol, detail=None, extra=None, table_of=None, failing=None):
    """A CheckResult from per-state residuals ``r`` and tolerances ``tol`` (B,).

    ``detail(s)`` and ``table_of(s)`` describe the worst state s; ``failing`` (B,) bool adds
    states failing for another reason than r > tol.
    """
    r, tol = np.asarray(r, dtype=float), np.asarray(tol, dtype=float)
    bad = ~(r <= tol)  # NaN fails
    ratio = np.where(np.isfinite(r), r / np.where(tol > 0, tol, 1.0), np.inf)
    if failing is not None:
        bad |= failing
        ratio = np.where(failing, np.inf, ratio)
    s = int(np.argmax(ratio))
    return CheckResult(
        id=check.id, title=check.title, oracle=check.oracle,
        verdict="fail" if bad.any() else "pass", residual=float(r[s]), tolerance=float(tol[s]),
        worst_state=s, failing_states=[int(k) for k in np.flatnonzero(bad)],
        detail="" if detail is None else detail(s),
        table="" if table_of is None else table_of(s), extra={} if extra is None else extra)


def _known(strict, relaxed, issue, cause):
    """``strict`` if it passes; else ``relaxed`` (the same check with what a documented
    behaviour explains left out) with the verdict "known" if that passes, or "fail".

    A "known" result keeps the strict residual and the short ``cause`` in ``extra["strict"]``
    (the report prints both on the verdict line: the relaxed residual alone reads as a pass)
    and the full ``issue`` in ``known_issue``."""
    if not strict.failed or relaxed.failed:
        return strict if not strict.failed else relaxed
    relaxed.verdict, relaxed.known_issue = "known", issue
    relaxed.extra["strict"] = {"residual": strict.residual, "tolerance": strict.tolerance,
                               "worst_state": strict.worst_state, "detail": strict.detail,
                               "cause": cause}
    return relaxed


def _dofs_of(model, joint_types, parts=False):
    """Tangent indices of the joints of the given types; with ``parts``, of the parts of that
    type inside composite joints too (nested ones included: a part's idx_v is the model's)."""
    joints, found = list(model.joints[1:]), []
    while joints:
        j = joints.pop()
        if j.shortname() in joint_types:
            found += range(j.idx_v, j.idx_v + j.nv)
        elif parts and j.shortname() == "JointModelComposite":
            joints += j.joints
    return sorted(found)


def _vector_entry(model, diff, s, what):
    """``what[label]`` of the worst entry of an nv-vector difference at state s."""
    (k,) = _worst_entry(diff, s)
    return f"{what}[{tangent_label(model, int(k))}]"


def _matrix_entry(model, diff, s, what):
    row, col = _worst_entry(diff, s)
    return f"{what}[{tangent_label(model, int(row))}, {tangent_label(model, int(col))}]"


def _free_flyer_only(model):
    return None if has_floating_base(model) else (
        "no floating base: a joint hanging from the universe is not a free-flyer")


def _has_free_flyer(model):
    if any(j.shortname() == "JointModelFreeFlyer" for j in model.joints[1:]):
        return None
    return "no free-flyer joint"


def _has_unit_norm(model):
    if any(j.lie_group.units for j in model.joints[1:]):
        return None
    return "no quaternion or (cos, sin) pair in q"


def quaternion_matrix(quat):
    """The rotation of a unit (x, y, z, w) quaternion, (..., 3, 3), written out here so that
    the base-velocity check does not use the library's own conversion."""
    x, y, z, w = np.moveaxis(quat, -1, 0)
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)],
        -2)


# --- geometry ------------------------------------------------------------------------------------

def joint_sizes(joint):
    """(nq, nv) of a joint from its type: ``JOINT_SIZES``, or for a composite the sums over its
    parts (Pinocchio's JointModelComposite: nq = sum nq_k, nv = sum nv_k, docs/joints.md).
    Raises KeyError with the type's name for a type not in the table."""
    if joint.shortname() == "JointModelComposite":
        parts = [joint_sizes(part) for part in joint.joints]
        return sum(nq for nq, _ in parts), sum(nv for _, nv in parts)
    return JOINT_SIZES[joint.shortname()]


def run_sizes(backend, states, check):
    """Each joint's nq, nv from its type (a composite's from its parts', ``joint_sizes``);
    idx_q, idx_v contiguous; the backend's index table equal to the model's; every state field
    and every output of the expected shape."""
    model, B = backend.model, len(states)
    problems = []
    table = backend.index_table()
    reference = [(model.names[i], model.joints[i].shortname(), model.idx_qs[i], model.nqs[i],
                  model.idx_vs[i], model.nvs[i]) for i in range(1, model.njoints)]
    if [tuple(row) for row in table] != reference:
        problems.append(f"the {backend.name} index table differs from the model's: {table}")
    nq = nv = 0
    for joint, (name, jtype, idx_q, nq_j, idx_v, nv_j) in zip(model.joints[1:], reference):
        try:
            sizes = joint_sizes(joint)
        except KeyError as err:
            problems.append(f"{name}: joint type {err.args[0]} is not in the size table")
        else:
            if sizes != (nq_j, nv_j):
                problems.append(f"{name}: {jtype} has (nq, nv) = {sizes}, the model says "
                                f"({nq_j}, {nv_j})")
        if (idx_q, idx_v) != (nq, nv):
            problems.append(f"{name}: (idx_q, idx_v) = ({idx_q}, {idx_v}), expected ({nq}, {nv}) "
                            "(the sums of the sizes before it)")
        nq, nv = nq + nq_j, nv + nv_j
    if (model.nq, model.nv) != (nq, nv):
        problems.append(f"model (nq, nv) = ({model.nq}, {model.nv}), the joints sum to "
                        f"({nq}, {nv})")
    for name, shape in field_shapes(model).items():
        got = np.shape(getattr(states, name))
        want = shape if name in ("armature", "gravity") else (B,) + shape
        if got != want:
            problems.append(f"state field {name}: shape {got}, expected {want}")
    q, v, a = states.q, states.v, states.a
    nq, nv = model.nq, model.nv
    outputs = {
        "rnea(q, v, a)": (lambda: backend.rnea(q, v, a), (B, nv)),
        "nonLinearEffects(q, v)": (lambda: backend.nle(q, v), (B, nv)),
        "crba(q)": (lambda: backend.crba(q), (B, nv, nv)),
        "aba(q, v, tau)": (lambda: backend.aba(q, v, states.tau), (B, nv)),
        "integrate(q, v)": (lambda: backend.integrate(q, v), (B, nq)),
        "difference(q, q)": (lambda: backend.difference(q, q), (B, nv)),
        "joint Jacobian": (lambda: backend.frame_jacobians(q, [(model.njoints - 1, np.eye(4))],
                                                           "LOCAL"), (B, 1, 6, nv)),
    }
    for what, (call, want) in outputs.items():
        got = np.shape(call())
        if got != want:
            problems.append(f"{what}: shape {got}, expected {want}")
    rows = [dict(zip(("name", "type", "idx_q", "nq", "idx_v", "nv"), row)) for row in reference]
    return _result(check, np.full(B, float(len(problems))), np.zeros(B),
                   detail=lambda s: "; ".join(problems) or
                   f"nq = {model.nq}, nv = {model.nv}, njoints = {model.njoints}",
                   extra={"index_table": rows, "problems": problems},
                   failing=np.full(B, bool(problems)))


def run_manifold_roundtrip(backend, states, check):
    """dv = 0.1 v: difference(q, q (+) dv) == dv and (q (+) dv) (+) (-dv) == q (compared by
    difference, never entry by entry: q and -q are the same rotation).

    Planar joints, and planar parts of composite joints, get a looser tolerance,
    ``PLANAR_RTOL``: Pinocchio's SE2 log evaluates theta sin(theta) / (2 (1 - cos theta)) down
    to |theta| = 1e-4, where 1 - cos theta keeps only about 8 significant digits.
    """
    model = backend.model
    q, dv = states.q, ROUNDTRIP_SCALE * states.v
    q2 = backend.integrate(q, dv)
    parts = {"difference(q, q (+) dv) - dv": backend.difference(q, q2) - dv,
             "difference(q, q (+) dv (+) -dv)": backend.difference(q, backend.integrate(q2, -dv))}
    rtol = np.full(model.nv, check.rtol)
    rtol[_dofs_of(model, ("JointModelPlanar",), parts=True)] = PLANAR_RTOL
    scale = _scale(dv)
    ratio = {k: np.abs(d) / (rtol * scale[:, None]) for k, d in parts.items()}
    worst = {k: np.argmax(x, axis=1) for k, x in ratio.items()}           # entry per state
    name = [max(parts, key=lambda k: ratio[k][s, worst[k][s]]) for s in range(len(states))]
    rows = np.arange(len(states))
    entry = np.array([worst[name[s]][s] for s in rows])
    r = np.array([abs(parts[name[s]][s, entry[s]]) for s in rows])
    tol = rtol[entry] * scale
    return _result(check, r, tol,
                   lambda s: f"{name[s]}[{tangent_label(model, int(entry[s]))}]",
                   extra={"scale_of_dv": ROUNDTRIP_SCALE, "planar_rtol": PLANAR_RTOL})


def run_unit_norm(backend, states, check):
    """Every quaternion and (cos, sin) pair of q (+) v has norm 1."""
    model = backend.model
    q2 = backend.integrate(states.q, states.v)
    parts = [(j, u) for j in model.joints[1:] for u in j.lie_group.units]
    errors = np.stack([np.abs(np.linalg.norm(q2[:, j.idx_q + u.start:j.idx_q + u.stop],
                                             axis=-1) - 1)
                       for j, u in parts], axis=-1)

    def detail(s):
        j, _ = parts[int(np.argmax(errors[s]))]
        return f"| |q[{model.names[j.id]}]| - 1 | after integrate"
    return _result(check, errors.max(axis=1), np.full(len(states), check.rtol), detail)


def run_base_velocity(backend, states, check):
    """A free-flyer moving with LOCAL linear velocity e_k (no rotation) for a time t moves by
    t R e_k in its parent frame (the world for a root), R its orientation; R stays."""
    model, B = backend.model, len(states)
    flyers = [j for j in model.joints[1:] if j.shortname() == "JointModelFreeFlyer"]
    steps = np.zeros((len(flyers), 3, B, model.nv))
    for f, j in enumerate(flyers):
        for k in range(3):
            steps[f, k, :, j.idx_v + k] = BASE_STEP
    q = np.broadcast_to(states.q, steps.shape[:-1] + (model.nq,))
    q2 = backend.integrate(q.reshape(-1, model.nq), steps.reshape(-1, model.nv))
    q2 = q2.reshape(q.shape)
    r = np.zeros(B)
    turn = np.inf
    where = [""] * B
    for f, j in enumerate(flyers):
        pos, quat = slice(j.idx_q, j.idx_q + 3), slice(j.idx_q + 3, j.idx_q + 7)
        R = quaternion_matrix(states.q[:, quat])
        turn = min(turn, float(np.min(np.linalg.norm(R - np.eye(3), axis=(-2, -1)))))
        for k in range(3):
            moved = q2[f, k, :, pos] - states.q[:, pos]
            err = np.maximum(_per_state_max(moved - BASE_STEP * R[:, :, k]),
                             _per_state_max(quaternion_matrix(q2[f, k, :, quat]) - R))
            for s in np.flatnonzero(err > r):
                where[s] = f"{model.names[j.id]}, local axis {'xyz'[k]}"
            r = np.maximum(r, err)
    scale = np.maximum(1.0, np.max(np.abs(states.q), axis=1))
    note = ("" if turn > 1e-3 else
            "; the fixture has an unturned free-flyer, where LOCAL and world axes coincide")
    return _result(check, r, check.rtol * scale, lambda s: where[s] + note,
                   extra={"step": BASE_STEP, "smallest |R - I|": turn})


def frame_targets(model):
    """(joint, placement, label) for every joint origin and every frame not on the universe."""
    targets = [(i, np.eye(4), f"joint {model.names[i]}") for i in range(1, model.njoints)]
    targets += [(f.parentJoint, f.placement.homogeneous, f"frame {f.name}")
                for f in model.frames if f.parentJoint > 0]
    return targets


def run_jacobian_velocity(backend, states, check):
    """J(q) v == the frame velocity, in LOCAL, WORLD and LOCAL_WORLD_ALIGNED, for every joint
    and frame. Also measures how far apart the three velocities are in this fixture: a check
    that cannot tell them apart cannot catch a frame mix-up."""
    model, B = backend.model, len(states)
    targets = frame_targets(model)
    pairs = [(j, H) for j, H, _ in targets]
    errors, tols, diffs, velocities = [], [], [], {}
    for rf in REFERENCE_FRAMES:
        J = backend.frame_jacobians(states.q, pairs, rf)
        V = backend.frame_velocities(states.q, states.v, pairs, rf)
        velocities[rf] = V
        diffs.append(np.einsum("btij,bj->bti", J, states.v) - V)
        errors.append(_per_state_max(diffs[-1]))
        tols.append(check.rtol * _scale(V))
    errors, tols = np.array(errors), np.array(tols)                        # (rf, B)
    pick = np.argmax(np.where(np.isfinite(errors), errors / tols, np.inf), axis=0)
    r, tol = errors[pick, np.arange(B)], tols[pick, np.arange(B)]

    def where(s):
        rf = REFERENCE_FRAMES[pick[s]]
        return f"J v - V in {rf}, {targets[_worst_entry(diffs[pick[s]], s)[0]][2]}"
    separation = {f"{a} vs {b}": float(np.abs(velocities[a] - velocities[b]).max())
                  for k, a in enumerate(REFERENCE_FRAMES) for b in REFERENCE_FRAMES[k + 1:]}
    blind = [pair for pair, d in separation.items() if d <= 100 * tol.max()]
    note = f"; the fixture cannot tell {', '.join(blind)} apart" if blind else ""
    return _result(check, r, tol, lambda s: where(s) + note,
                   extra={"residual_per_reference_frame": dict(zip(REFERENCE_FRAMES,
                                                                   errors.max(axis=1).tolist())),
                          "separation": separation,
                          "targets": len(targets)})


# --- single-state dynamics -----------------------------------------------------------------------

def run_rnea_crba_nle(backend, states, check):
    """rnea(q, v, a) == M(q) a + h(q, v), M from crba, h from nonLinearEffects."""
    q, v, a = states.q, states.v, states.a
    tau = backend.rnea(q, v, a)
    M, h = backend.crba(q), backend.nle(q, v)
    diff = tau - (np.einsum("bij,bj->bi", M, a) + h)
    return _result(check, _per_state_max(diff), check.rtol * _scale(tau),
                   lambda s: _vector_entry(backend.model, diff, s, "rnea - (M a + h)"))


def run_mass_matrix_columns(backend, states, check):
    """rnea(q, v, a + delta e_k) - rnea(q, v, a) == M[:, k] delta for every k (delta = 1)."""
    model, B, nv = backend.model, len(states), backend.model.nv
    tau = backend.rnea(states.q, states.v, states.a)
    M = backend.crba(states.q)
    A = states.a[None] + COLUMN_DELTA * np.eye(nv)[:, None, :]          # (k, B, nv)
    Q = np.broadcast_to(states.q, (nv, B, model.nq)).reshape(-1, model.nq)
    V = np.broadcast_to(states.v, (nv, B, nv)).reshape(-1, nv)
    tau_k = backend.rnea(Q, V, A.reshape(-1, nv)).reshape(nv, B, nv)
    diff = (tau_k - tau[None] - COLUMN_DELTA * M.transpose(2, 0, 1)).transpose(1, 2, 0)
    return _result(check, _per_state_max(diff), check.rtol * _scale(tau, COLUMN_DELTA * M),
                   lambda s: _matrix_entry(model, diff, s, "(tau(a + e_k) - tau(a)) - M"),
                   extra={"delta": COLUMN_DELTA})


def run_aba_inverts_rnea(backend, states, check):
    """aba(q, v, rnea(q, v, a)) == a."""
    q, v, a = states.q, states.v, states.a
    diff = backend.aba(q, v, backend.rnea(q, v, a)) - a
    return _result(check, _per_state_max(diff), check.rtol * _scale(a),
                   lambda s: _vector_entry(backend.model, diff, s, "aba(rnea(a)) - a"))


def run_kinetic_energy(backend, states, check):
    """computeKineticEnergy(q, v) == 1/2 v^T M(q) v (armature included in both)."""
    model, q, v = backend.model, states.q, states.v
    T = backend.kinetic_energy(q, v)
    ref = 0.5 * np.einsum("bi,bij,bj->b", v, backend.crba(q), v)
    tol = check.rtol * np.maximum(1.0, np.abs(ref))
    strict = _result(check, np.abs(T - ref), tol,
                     lambda s: f"T = {T[s]:.17g}, 1/2 v^T M v = {ref[s]:.17g}")
    dofs = _dofs_of(model, KINETIC_ENERGY_WITHOUT_ARMATURE)
    if not strict.failed or not np.any(states.armature[dofs] != 0.0):
        return strict
    missing = 0.5 * np.sum(states.armature[dofs] * v[:, dofs] ** 2, axis=1)
    names = ", ".join(model.names[j.id] for j in model.joints[1:]
                      if j.shortname() in KINETIC_ENERGY_WITHOUT_ARMATURE)
    relaxed = _result(check, np.abs(T - (ref - missing)), tol,
                      lambda s: f"T = {T[s]:.17g}, 1/2 v^T M v without the armature of {names}"
                      f" = {ref[s] - missing[s]:.17g}")
    return _known(strict, relaxed, KNOWN_KINETIC_ENERGY, KNOWN_KINETIC_ENERGY_CAUSE)


def run_armature(backend, states, check):
    """With armature b against b = 0 on a copy of the model: M_b - M_0 == diag(b),
    tau_b - tau_0 == b * a, and h = rnea(q, v, 0) unchanged (armature is an inertia, not a
    damping: no b * v)."""
    model, b = backend.model, states.armature
    if not np.any(b != 0.0):
        return CheckResult(check.id, check.title, check.oracle, "skip",
                           detail="the states' armature is zero: nothing to compare")
    zero = backend.with_model(armature=np.zeros(model.nv))
    q, v, a = states.q, states.v, states.a
    M_b, M_0 = backend.crba(q), zero.crba(q)
    tau_b, tau_0 = backend.rnea(q, v, a), zero.rnea(q, v, a)
    h_b, h_0 = backend.rnea(q, v, np.zeros_like(a)), zero.rnea(q, v, np.zeros_like(a))
    parts = {"M_b - M_0 - diag(b)": M_b - M_0 - np.diag(b),
             "tau_b - tau_0 - b a": tau_b - tau_0 - b * a,
             "h_b - h_0": h_b - h_0}
    errors = {k: _per_state_max(d) for k, d in parts.items()}
    r = np.maximum.reduce(list(errors.values()))

    def detail(s):
        name = max(errors, key=lambda k: errors[k][s])
        d = parts[name]
        if d.ndim == 3:
            return _matrix_entry(model, d, s, name)
        return _vector_entry(model, d, s, name)
    return _result(check, r, check.rtol * _scale(M_b, tau_b), detail,
                   extra={"armature": b.tolist()})


def _contact(states):
    """(joint per state, jMc (B, 4, 4), the wrench at c in c's axes (B, 6)). The wrench at c is
    read back from fext with pinref's SE3, not through the backend under test."""
    joints = states.fext_joints()
    rows = states.fext[np.arange(len(states)), joints]
    f_c = SE3(states.fext_placement).actInv(Force(rows)).vector
    return joints, states.fext_placement, f_c


def run_fext_jacobian(backend, states, check):
    """One wrench f_c at a point c of joint j, moved to the joint by the backend (jMc.act):
    rnea(q, v, a) - rnea(q, v, a, fext) == J_c^T f_c, J_c the LOCAL Jacobian of frame c."""
    model, B = backend.model, len(states)
    joints, jMc, f_c = _contact(states)
    fext = np.zeros_like(states.fext)
    fext[np.arange(B), joints] = backend.wrench_to_joint(jMc, f_c)
    q, v, a = states.q, states.v, states.a
    tau_with, tau_without = backend.rnea(q, v, a, fext), backend.rnea(q, v, a)
    Jc = np.empty((B, 6, model.nv))
    for j in np.unique(joints):
        idx = np.flatnonzero(joints == j)
        Jc[idx] = backend.frame_jacobians(q[idx], [(int(j), jMc[idx])], "LOCAL")[:, 0]
    JTf = np.einsum("bij,bi->bj", Jc, f_c)
    diff = tau_without - tau_with - JTf
    return _result(check, _per_state_max(diff), check.rtol * _scale(tau_without, JTf),
                   lambda s: _vector_entry(model, diff, s, "tau - tau_fext - J_c^T f_c")
                   + f" (wrench on {model.names[joints[s]]})")


def run_fext_aba(backend, states, check):
    """aba(q, v, rnea(q, v, a, fext), fext) == a: ABA given the same fext returns the
    acceleration RNEA was given."""
    q, v, a, fext = states.q, states.v, states.a, states.fext
    diff = backend.aba(q, v, backend.rnea(q, v, a, fext), fext) - a
    return _result(check, _per_state_max(diff), check.rtol * _scale(a),
                   lambda s: _vector_entry(backend.model, diff, s, "aba(rnea(a, fext), fext) - a"))


def run_floating_base(backend, states, check):
    """Unactuated floating base: tau with a zero base part, ddq = aba(q, v, tau). Gravity is the
    only external force, so the centre of mass accelerates at g whatever the joint torques, and
    the base acceleration is not zero."""
    model = backend.model
    dofs = floating_base_dofs(model)
    tau = states.tau.copy()
    tau[:, dofs] = 0.0
    ddq = backend.aba(states.q, states.v, tau)
    g = states.gravity[LINEAR]
    diff = backend.com_acceleration(states.q, states.v, ddq) - g
    base = np.linalg.norm(ddq[:, dofs], axis=1)
    tol = check.rtol * max(1.0, float(np.abs(g).max()))
    still = (base <= tol) if np.any(g != 0.0) else np.zeros(len(states), dtype=bool)

    def detail(s):
        text = f"acom - g = {np.array2string(diff[s], precision=3)}"
        if still[s]:
            text += f"; |base acceleration| = {base[s]:.3e}: the base does not move"
        return text
    return _result(check, _per_state_max(diff), np.full(len(states), tol), detail,
                   extra={"smallest |base acceleration|": float(base.min())}, failing=still)


# --- derivatives ---------------------------------------------------------------------------------

def _finite_differences(backend, states, wrt):
    """Central differences of rnea along each tangent direction, one (B, nv, nv) array per eps
    of EPS_SWEEP (row: tau entry, column j: direction e_j). For each eps the 2 nv perturbed
    copies of all the states go through the backend in one batch."""
    model, B, nv = backend.model, len(states), backend.model.nv
    shape = (2, nv, B)
    steps = np.stack((np.eye(nv), -np.eye(nv)))[:, :, None, :]            # (side, j, 1, nv)
    fds = []
    for eps in EPS_SWEEP:
        q = np.broadcast_to(states.q, shape + (model.nq,)).reshape(-1, model.nq)
        v = np.broadcast_to(states.v, shape + (nv,))
        a = np.broadcast_to(states.a, shape + (nv,))
        d = np.broadcast_to(eps * steps, shape + (nv,))
        if wrt == "q":
            q = backend.tangent_step(q, d.reshape(-1, nv))
        elif wrt == "v":
            v = v + d
        else:
            a = a + d
        tau = backend.rnea(q, v.reshape(-1, nv), a.reshape(-1, nv)).reshape(shape + (nv,))
        fds.append(((tau[0] - tau[1]) / (2.0 * eps)).transpose(1, 2, 0))  # (B, row, j)
    return fds


def _sweeps(model, wrt, fds, analytic, columns):
    """One FiniteDifferenceSweep per state, comparing only ``columns`` (the statistics of
    ``finite_differences.eps_sweep``: max abs error, Frobenius relative error
    ||FD - analytic|| / max(1, ||FD||, ||analytic||), worst entry named by joint)."""
    B = len(analytic)
    analytic = analytic[:, :, columns]
    rows = [[] for _ in range(B)]
    for eps, fd in zip(EPS_SWEEP, fds):
        fd = fd[:, :, columns]
        diff = fd - analytic
        scale = np.maximum.reduce([np.ones(B), np.linalg.norm(fd, axis=(1, 2)),
                                   np.linalg.norm(analytic, axis=(1, 2))])
        rel = np.linalg.norm(diff, axis=(1, 2)) / scale
        err = np.abs(diff).reshape(B, -1).max(axis=1)
        for s in range(B):
            row, col = _worst_entry(diff, s)
            rows[s].append(SweepStep(eps=float(eps), max_abs_error=float(err[s]),
                                     relative_error=float(rel[s]),
                                     worst=(int(row), int(columns[col])),
                                     worst_row=tangent_label(model, int(row)),
                                     worst_column=tangent_label(model, int(columns[col]))))
    return [FiniteDifferenceSweep(wrt=wrt, label="tau", steps=tuple(r)) for r in rows]


def _sweep_result(check, model, sweeps, columns):
    r = np.array([sw.best.relative_error for sw in sweeps])
    shapes = {}
    for sw in sweeps:
        shapes[sw.shape] = shapes.get(sw.shape, 0) + 1
    left_out = sorted(set(range(model.nv)) - {int(c) for c in columns})

    def detail(s):
        sw = sweeps[s]
        text = (f"best eps {sw.best.eps:.0e}: relative error {sw.best.relative_error:.3e}, "
                f"worst entry ({sw.best.worst_row}, {sw.best.worst_column}); {sw.shape}")
        if left_out:
            text += "; columns left out: " + ", ".join(tangent_label(model, k) for k in left_out)
        return text
    # The trend, not only the best number: a correct derivative's error falls then rises
    # (valley) or only rises (rounding, f polynomial of degree <= 2 in the variable).
    odd = np.array([sw.shape not in GOOD_SHAPES for sw in sweeps])
    worst = int(np.argmax(np.where(odd, np.inf, r)))
    return _result(check, r, np.full(len(sweeps), check.rtol), detail, failing=odd,
                   table_of=lambda s: str(sweeps[s]),
                   extra={"eps": list(EPS_SWEEP), "shapes": shapes, "columns_left_out": left_out,
                          "max_relative_error_per_eps": [
                              float(max(sw.steps[k].relative_error for sw in sweeps))
                              for k in range(len(EPS_SWEEP))],
                          "sweep_of_worst_state": [asdict(step) for step in sweeps[worst].steps]})


def _run_derivative(wrt, index):
    def run(backend, states, check):
        """d rnea / d wrt from the backend against the eps sweep of central differences.

        When that fails and the model has joints of a ``KNOWN_DERIVATIVE_ISSUES`` entry (for
        dtau_dq, dtau_dv), the sweep is redone without those joints' columns (every row kept:
        an entry off that way is in one of their columns, docs/derivatives.md section 5); the
        verdict is "known" when the rest passes, naming each issue that applies."""
        model = backend.model
        analytic = backend.rnea_derivatives(states.q, states.v, states.a)[index]
        fds = _finite_differences(backend, states, wrt)
        every = np.arange(model.nv)
        strict = _sweep_result(check, model, _sweeps(model, wrt, fds, analytic, every), every)
        issues = [(k, _dofs_of(model, k.joint_types)) for k in KNOWN_DERIVATIVE_ISSUES]
        issues = [(k, dofs) for k, dofs in issues if dofs] if wrt in ("q", "v") else []
        kept = np.setdiff1d(every, [d for _, dofs in issues for d in dofs])
        if not strict.failed or not issues or not kept.size:
            return strict
        relaxed = _sweep_result(check, model, _sweeps(model, wrt, fds, analytic, kept), kept)
        return _known(strict, relaxed, "; ".join(k.issue for k, _ in issues),
                      "; ".join(k.cause for k, _ in issues))
    return run


# --- model consistency: the inertias the model holds (not per state) ----------------------------

def model_consistency(model, source=None):
    """The model-consistency group of ``pinref check``: ``inertia_consistency`` of the model,
    or, for a model loaded from a URDF file (``source = {"model": PATH, ...}``), the links the
    loader's InertiaWarning names, each with its problem."""
    path = (source or {}).get("model")
    if isinstance(path, str) and path.endswith(".urdf") and os.path.isfile(path):
        return [{"body": f"the URDF link at line {line}", "links": [name], "problem": problem}
                for name, line, problem in link_inertia_problems(path)]
    return inertia_consistency(model)


def inertia_consistency(model):
    """The bodies of ``model`` whose inertia no rigid body has (pinref.spatial.physical, the
    rule of the URDF loader's InertiaWarning), as a list of dicts ``{"body", "links",
    "problem"}``; empty when every inertia is physical.

    Checked: every frame that carries an inertia (the URDF loader puts a fixed link's on its
    FIXED_JOINT frame and a welded root link's on its BODY frame), named after the link whose
    BODY frame follows it; and the body of every joint (``model.inertias[i]``, i >= 1, what
    the algorithms use), named after the joint and the links it holds, when it is not exactly
    one frame's. Pinocchio checks none of this: its loaders and ``Inertia`` accept such
    inertias, and so do pinref's (with a warning); this group reports them, it fails nothing.
    """
    body_links = {}
    for k, frame in enumerate(model.frames):
        if frame.type & FrameType.BODY:
            body_links.setdefault(frame.parentJoint, []).append(frame.name)
    found = []
    for k, frame in enumerate(model.frames):
        problems = inertia_problems(frame.inertia.inertia) if frame.inertia.mass.shape == () \
            else []
        if problems:
            link = next((f.name for f in model.frames if f.parentFrame == k
                         and f.type & FrameType.BODY and f is not frame), frame.name)
            found.append({"body": f"frame {frame.name!r}", "links": [link],
                          "problem": problems[0]})
    for i in range(1, model.njoints):
        problems = inertia_problems(model.inertias[i].inertia)
        if problems:
            found.append({"body": f"joint {model.names[i]!r}'s body",
                          "links": body_links.get(i, []), "problem": problems[0]})
    return found


# --- the registry --------------------------------------------------------------------------------

CHECKS = (
    Check("sizes", "sizes and the index table",
          "joint-type table of (nq, nv), a composite's the sums over its parts; idx_q, idx_v as "
          "running sums; expected output shapes",
          0.0, run_sizes),
    Check("manifold_roundtrip", "integrate / difference round trip",
          "difference(q, q (+) dv) == dv and q (+) dv (+) -dv == q, dv = 0.1 v", 1e-12,
          run_manifold_roundtrip),
    Check("unit_norm", "unit quaternions after integrate",
          "| |quaternion| - 1 | and | |(cos, sin)| - 1 | of q (+) v", 1e-12, run_unit_norm,
          _has_unit_norm),
    Check("base_velocity", "LOCAL linear velocity of a turned free-flyer",
          "q (+) (t e_k) moves the base by t R e_k in its parent frame, R from q's quaternion",
          1e-12, run_base_velocity, _has_free_flyer),
    Check("jacobian_velocity", "J v == frame velocity in LOCAL, WORLD, LOCAL_WORLD_ALIGNED",
          "getFrameVelocity after forwardKinematics(q, v), same reference frame", 1e-12,
          run_jacobian_velocity),
    Check("rnea_crba_nle", "rnea(q, v, a) == M a + h",
          "M from crba, h from nonLinearEffects", 1e-12, run_rnea_crba_nle),
    Check("mass_matrix_columns", "raising a[k] by 1 changes tau by M[:, k]",
          "crba's column k", 1e-12, run_mass_matrix_columns),
    Check("aba_inverts_rnea", "aba(q, v, rnea(q, v, a)) == a", "the a given to rnea", 1e-9,
          run_aba_inverts_rnea),
    Check("kinetic_energy", "T == 1/2 v^T M v", "crba's M", 1e-12, run_kinetic_energy),
    Check("armature", "armature b: M_b - M_0 == diag(b), tau_b - tau_0 == b a, h unchanged",
          "the same model with zero armature", 1e-12, run_armature),
    Check("fext_jacobian", "tau - tau_fext == J_c^T f_c for one wrench at a point c",
          "LOCAL Jacobian of the frame at c", 1e-12, run_fext_jacobian),
    Check("fext_aba", "aba(q, v, rnea(q, v, a, fext), fext) == a", "the a given to rnea", 1e-9,
          run_fext_aba),
    Check("floating_base", "unactuated floating base falls: acom == g, base acceleration != 0",
          "momentum: gravity is the only external force", 1e-10, run_floating_base,
          _free_flyer_only),
    Check("derivative_dq", "d tau / d q (tangent space) against central differences",
          "central differences along integrate(q, +-eps e_j), eps sweep 1e-3 .. 1e-8", 1e-6,
          _run_derivative("q", 0)),
    Check("derivative_dv", "d tau / d v against central differences",
          "central differences along v +- eps e_j, eps sweep", 1e-6, _run_derivative("v", 1)),
    Check("derivative_da", "d tau / d a (= M) against central differences",
          "central differences along a +- eps e_j, eps sweep", 1e-6, _run_derivative("a", 2)),
)

CHECK_IDS = tuple(c.id for c in CHECKS)


def get_check(check_id):
    for c in CHECKS:
        if c.id == check_id:
            return c
    raise KeyError(f"no check named {check_id!r}; the checks are {', '.join(CHECK_IDS)}")


def run_checks(backend, states, ids=None):
    """Run the checks ``ids`` (default all, in order) on ``states``; a list of CheckResult.

    A check that does not apply is skipped; a check whose backend raises gets the verdict
    ``error`` with the message (a drill that makes pinref refuse its input is caught so).
    """
    results = []
    for c in CHECKS if ids is None else [get_check(i) for i in ids]:
        reason = c.skip_reason(backend.model)
        if reason is not None:
            results.append(CheckResult(c.id, c.title, c.oracle, "skip", detail=reason))
            continue
        try:
            results.append(c.run(backend, states, c))
        except Exception as err:  # noqa: BLE001 - any failure of the code under test is a finding
            results.append(CheckResult(c.id, c.title, c.oracle, "error",
                                       detail=f"{type(err).__name__}: {err}"))
    return results
