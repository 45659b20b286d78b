"""The energy-drift experiment of the second tutorial (section 8), on any pinref model.

One step of semi-implicit Euler with no torque and no damping:

    ddq = aba(q, v, 0) ;  v <- v + dt ddq ;  q <- integrate(q, dt v)

After every step (and at t = 0):

    T  = computeKineticEnergy(q, v)       checked against 1/2 v^T M(q) v  (M = crba(q))
    U  = computePotentialEnergy(q)        (0 without gravity)
    E  = T + U
    h  = sum_i oMi[i].act(Y_i v_i)        the spatial momentum of the whole tree, WORLD frame,
                                          about the world origin (linear; angular): conserved
                                          without gravity (pinref has no
                                          computeCentroidalMomentum yet)

The same run at dt, dt/2, dt/4 (the same final time ``steps * dt``) gives the max drift
``max_t |E(t) - E(0)| / E_scale`` of each, the ``difference`` between the final configurations of
successive runs, and the order fitted to drift ~ dt^p (least squares on log-log). E_scale is an
energy fixed before the run, not E(0) (whose zero depends on where U is measured from):
``E_scale = T(0) + m |g| L`` with m the total mass and L the largest distance of a body's centre
of mass from the model's centre of mass at q0 (``T(0)`` alone without gravity).

Semi-implicit Euler is first order: the drift should halve (p ~ 1) when dt halves, once dt is in
the asymptotic range; a drift that does not move with dt points at the model or the dynamics, not
the integrator.
"""

import copy
import time
from dataclasses import dataclass, field

import numpy as np

import pinref
from pinref.errors import PinrefError
from pinref.figures import _pyplot, check_plot_path, save_figure
from pinref.model.model import model_label
from pinref.tracing.states import is_int, random_states
from pinref.spatial import Force

KINETIC_TOLERANCE = 1e-12
# A run is refused before it starts when the histories of its runs (q, v, the energies and the
# momentum at every instant) would take more than HISTORY_BYTES_LIMIT, or when its estimated
# time (one step timed on this machine, times the steps of every run) passes TIME_LIMIT.
HISTORY_BYTES_LIMIT = 1 << 30
TIME_LIMIT = 3600.0


class ExperimentError(PinrefError, ValueError):
    """An experiment's parameter is out of range (dt <= 0 or not finite, no steps, ...), the run
    diverged, or there is nothing to measure (E_scale = 0)."""


@dataclass(frozen=True)
class EnergyRun:
    """One run at step ``dt``: arrays over the ``steps + 1`` instants t = 0, dt, ... .

    ``q`` (n+1, nq), ``v`` (n+1, nv), ``kinetic``, ``potential``, ``energy`` (n+1,);
    ``kinetic_check`` (n+1,): |computeKineticEnergy - 1/2 v^T M v| at each instant;
    ``momentum`` (n+1, 6): the WORLD-frame spatial momentum (linear; angular);
    ``drift``: max |E(t) - E(0)| / E_scale; ``momentum_drift``: max |h(t) - h(0)|.
    """

    dt: float
    steps: int
    t: np.ndarray = field(repr=False)
    q: np.ndarray = field(repr=False)
    v: np.ndarray = field(repr=False)
    kinetic: np.ndarray = field(repr=False)
    potential: np.ndarray = field(repr=False)
    energy: np.ndarray = field(repr=False)
    kinetic_check: np.ndarray = field(repr=False)
    momentum: np.ndarray = field(repr=False)
    drift: float
    momentum_drift: float


@dataclass(frozen=True)
class EnergyDrift:
    """The runs at dt, dt/2, dt/4 (``runs``), ``differences[k]`` = |difference(q_final of run k,
    q_final of run k+1)|, ``order`` and ``intercept`` the least-squares line
    ``log(drift) = order * log(dt) + intercept``, ``e_scale``, ``gravity``.

    ``str()`` is the table; ``to_dict()`` plain data (the arrays left out); ``kinetic_ok``
    whether computeKineticEnergy == 1/2 v^T M v held at every instant of every run.
    """

    model_name: str
    gravity: bool
    e_scale: float
    runs: tuple
    differences: tuple
    order: float
    intercept: float

    @property
    def kinetic_ok(self):
        return all(_kinetic_worst(r) <= KINETIC_TOLERANCE for r in self.runs)

    @property
    def drifts(self):
        return np.array([r.drift for r in self.runs])

    @property
    def ratios(self):
        """drift(dt_k) / drift(dt_k+1): 2 or more means the drift halves with dt."""
        d = self.drifts
        return d[:-1] / d[1:]

    def to_text(self):
        r0 = self.runs[0]
        what = "E = T + U" if self.gravity else "E = T (no gravity)"
        lines = [f"energy drift on {self.model_name}: semi-implicit Euler (aba, integrate), "
                 f"tau = 0, {what}, t_end = {r0.dt * r0.steps:g} s, E_scale = "
                 f"{self.e_scale:.6g} J"]
        header = ["dt", "steps", "E(0)", "E(t_end)", "max|E-E0|/E_scale", "ratio",
                  "T == vMv/2", "|dq| to next dt"]
        if not self.gravity:
            header.insert(6, "max|h-h0|")
        rows = []
        for k, r in enumerate(self.runs):
            row = [f"{r.dt:.3e}", str(r.steps), f"{r.energy[0]:.9g}", f"{r.energy[-1]:.9g}",
                   f"{r.drift:.3e}", f"{self.ratios[k - 1]:.2f}" if k else "",
                   _kinetic_verdict(r),
                   f"{self.differences[k]:.3e}" if k < len(self.differences) else ""]
            if not self.gravity:
                row.insert(6, f"{r.momentum_drift:.3e}")
            rows.append(row)
        widths = [max(len(x) for x in col) for col in zip(header, *rows)]
        lines.append("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
        lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
        lines.append(f"fitted order: drift ~ dt^{self.order:.2f} (semi-implicit Euler: 1)")
        return "\n".join(lines)

    __str__ = to_text

    def to_dict(self):
        return {"model": self.model_name, "gravity": self.gravity, "e_scale": self.e_scale,
                "order": self.order, "intercept": self.intercept,
                "kinetic_ok": self.kinetic_ok, "differences": list(self.differences),
                "runs": [{"dt": r.dt, "steps": r.steps, "energy_start": float(r.energy[0]),
                          "energy_end": float(r.energy[-1]), "drift": r.drift,
                          "momentum_drift": r.momentum_drift,
                          "kinetic_check": float(r.kinetic_check.max())} for r in self.runs]}


def _kinetic_worst(run):
    """max over the instants of |computeKineticEnergy - 1/2 v^T M v| / max(1, T)."""
    return float(np.max(run.kinetic_check / np.maximum(1.0, run.kinetic)))


def _kinetic_verdict(run):
    """``yes`` when computeKineticEnergy == 1/2 v^T M v to 1e-12 * max(1, T) at every instant,
    else the worst difference."""
    worst = _kinetic_worst(run)
    return "yes" if worst <= KINETIC_TOLERANCE else f"NO {worst:.1e}"


def _world_momentum(model, data):
    """sum_i oMi[i].act(Y_i v_i), from the caches of forwardKinematics(q, v)."""
    h = Force.Zero()
    for i in range(1, model.njoints):
        h = h + data.oMi[i].act(model.inertias[i] * data.v[i])
    return h.vector


def _measure(model, data, q, v):
    """(T, U, |T - 1/2 v^T M v|, world momentum) at one state."""
    pinref.forwardKinematics(model, data, q, v)
    T = float(pinref.computeKineticEnergy(model, data))
    U = float(pinref.computePotentialEnergy(model, data))
    h = _world_momentum(model, data)
    M = pinref.crba(model, data, q)
    return T, U, abs(T - 0.5 * v @ M @ v), h


def energy_scale(model, q, v):
    """E_scale = T(q, v) + m |g| L (see the module docstring)."""
    data = model.createData()
    T = float(pinref.computeKineticEnergy(model, data, q, v))
    g = float(np.linalg.norm(model.gravity.linear))
    if g == 0.0:
        return T
    com = pinref.centerOfMass(model, data, q)
    masses = np.array([Y.mass for Y in model.inertias[1:]])
    bodies = np.array([data.oMi[i].translation + data.oMi[i].rotation @ model.inertias[i].lever
                       for i in range(1, model.njoints)])
    extent = np.max(np.linalg.norm(bodies - com, axis=-1)[masses > 0], initial=0.0)
    return T + masses.sum() * g * (extent if extent > 0 else 1.0)


def simulate(model, q0, v0, dt, steps, progress=None, stage="run"):
    """One semi-implicit Euler run of ``steps`` steps of ``dt`` from (q0, v0), tau = 0.

    Returns the arrays of EnergyRun (without the drift, which needs E_scale) as a dict.
    ``progress(stage, done, total)`` is called every step if given.
    """
    data = model.createData()
    tau = np.zeros(model.nv)
    q, v = np.array(q0, dtype=float), np.array(v0, dtype=float)
    out = {k: [] for k in ("q", "v", "kinetic", "potential", "kinetic_check", "momentum")}
    for n in range(steps + 1):
        with np.errstate(over="ignore", invalid="ignore"):
            T, U, check, h = _measure(model, data, q, v)
        if not np.isfinite([T, U, check]).all():
            _diverged(dt, n, "the energy")
        for key, x in zip(out, (q, v, T, U, check, h)):
            out[key].append(x)
        if progress is not None:
            progress(stage, n, steps)
        if n == steps:
            break
        ddq = pinref.aba(model, data, q, v, tau)
        with np.errstate(over="ignore", invalid="ignore"):
            v = v + dt * ddq
            dq = dt * v
            if not (np.isfinite(v).all() and np.isfinite(dq).all()):
                _diverged(dt, n + 1, "the velocity")
            q = pinref.integrate(model, q, dq)
        if not np.isfinite(q).all():
            _diverged(dt, n + 1, "the configuration")
    arrays = {k: np.array(x) for k, x in out.items()}
    arrays["t"] = dt * np.arange(steps + 1)
    arrays["energy"] = arrays["kinetic"] + arrays["potential"]
    return arrays


def _diverged(dt, n, what):
    raise ExperimentError(
        f"energy_drift: the run at dt = {dt:g} diverged: {what} is no longer finite after "
        f"step {n} (t = {n * dt:g} s); semi-implicit Euler needs a smaller step: lower dt "
        "(--dt)")


def check_moving(model, where):
    """ExperimentError for a model without a degree of freedom (a jointless URDF): nothing
    moves, so there is no experiment to run."""
    if model.nv == 0:
        raise ExperimentError(
            f"{where}: {model_label(getattr(model, 'name', ''))} has no joint with a degree of "
            "freedom (nv = 0): nothing moves; "
            "give a model with joints (a URDF with only fixed joints, or one link, has none)")


def instant_bytes(model):
    """The bytes one instant of a run keeps: q and v in the step's lists and in the final
    arrays, the energies, the check and the momentum, with NumPy's and Python's headers."""
    return 16 * (model.nq + model.nv + 9) + 512


def _check_size(model, steps, refinements, dt):
    """Refuse a run whose histories cannot fit HISTORY_BYTES_LIMIT."""
    total = steps * (2 ** refinements - 1)
    held = (total + refinements) * instant_bytes(model)
    if held > HISTORY_BYTES_LIMIT:
        most = (HISTORY_BYTES_LIMIT // instant_bytes(model) - refinements) // (2 ** refinements
                                                                              - 1)
        raise ExperimentError(
            f"energy_drift: steps = {steps} at dt = {dt:g} and its {refinements - 1} "
            f"refinements make {total} steps, whose histories take an estimated "
            f"{held / 2**30:.3g} GiB, more than the {HISTORY_BYTES_LIMIT / 2**30:g} GiB an "
            f"experiment may hold; give at most {max(1, most)} steps (--steps)")
    return total


def _first_step(model, q0, v0, dt, total):
    """One step of the smallest ``dt``, timed (the faster of two): refuse a dt whose step leaves
    q and v unchanged (below their rounding), or a run estimated to take more than TIME_LIMIT.
    A step that is no longer finite is left to the run, which says where it diverged."""
    data, tau = model.createData(), np.zeros(model.nv)
    seconds = []
    for _ in range(2):
        t0 = time.perf_counter()
        with np.errstate(over="ignore", invalid="ignore"):
            _measure(model, data, q0, v0)
            v = v0 + dt * pinref.aba(model, data, q0, v0, tau)
            dq = dt * v
        moving = not (np.isfinite(dq).all() and np.isfinite(v).all())
        if not moving:
            q = pinref.integrate(model, q0, dq)
            moving = not (np.array_equal(v, v0)     # q0 as integrate rounds it:
                          and np.array_equal(q, pinref.integrate(model, q0, 0 * dq)))
        seconds.append(time.perf_counter() - t0)
    if not moving:
        raise ExperimentError(
            f"energy_drift: a step of dt = {dt:g} leaves the state unchanged (dt ddq and dt v "
            "are below the rounding of v and q): there is no drift to measure; give a larger "
            "dt (--dt)")
    estimate = min(seconds) * total
    if estimate > TIME_LIMIT:
        raise ExperimentError(
            f"energy_drift: {total} steps take an estimated {estimate:.3g} s "
            f"({min(seconds) * 1e3:.3g} ms per step measured), more than the {TIME_LIMIT:g} s "
            "an experiment may run; give fewer steps (--steps)")


def energy_drift(model, q0=None, v0=None, dt=1e-3, steps=500, gravity=True, refinements=3,
                 seed=0, model_name=None, progress=None):
    """Run the energy-drift experiment: ``refinements`` runs at dt, dt/2, dt/4, ... .

    Parameters
    ----------
    model : Model (not modified; without gravity a copy with zero gravity is used)
    q0, v0 : ndarray (nq,), (nv,), optional; default the state of
        ``pinref.tracing.states.random_states(model, 1, seed)`` (q uniform in [-1, 1] per
        coordinate, v standard normal), the states ``pinref diff`` draws
    dt : float, the largest step; steps : int, its number of steps (run k takes steps * 2^k
        steps of dt / 2^k, so every run ends at t = dt * steps)
    gravity : bool, keep the model's gravity (E = T + U) or set it to zero (E = T)
    seed : int >= 0
    progress : callable ``progress(stage, done, total)``, optional (``pinref.cli.Progress``)

    Returns
    -------
    EnergyDrift, whose runs hold the arrays (EnergyRun).

    Raises ExperimentError for a dt that is not finite and > 0, steps < 1, refinements < 2, a
    model without a degree of freedom, histories beyond HISTORY_BYTES_LIMIT or an estimated
    time beyond TIME_LIMIT (both before the run, naming the estimate), a dt whose step leaves
    the state unchanged, a run that diverges (dt too large), or E_scale = 0 (no velocity and no
    gravity); ArgumentValueError for a seed < 0.
    """
    if not (np.isfinite(dt) and dt > 0) or not is_int(steps) or steps < 1 \
            or not is_int(refinements) or refinements < 2:
        raise ExperimentError(
            f"energy_drift: needs a finite dt > 0 (--dt), an integer steps >= 1 (--steps) and "
            f"refinements >= 2, got dt={dt}, steps={steps}, refinements={refinements}")
    check_moving(model, "energy_drift")
    total = _check_size(model, steps, refinements, dt)
    if not gravity:
        model = copy.deepcopy(model)
        model.gravity = pinref.Motion.Zero()
    if q0 is None or v0 is None:
        drawn = random_states(model, 1, seed)
        q0 = drawn["q"][0] if q0 is None else q0
        v0 = drawn["v"][0] if v0 is None else v0
    q0 = pinref.normalize(model, np.asarray(q0, dtype=float))
    e_scale = energy_scale(model, q0, np.asarray(v0, dtype=float))
    if not e_scale > 0:
        raise ExperimentError(
            f"energy_drift: E_scale = {e_scale:g} (T(0) = 0 and no gravity: nothing moves, so "
            "there is no drift to measure); give a nonzero v0 or keep gravity")
    _first_step(model, q0, np.asarray(v0, dtype=float), dt / 2 ** (refinements - 1), total)
    runs = []
    for k in range(refinements):
        h, n = dt / 2 ** k, steps * 2 ** k
        r = simulate(model, q0, v0, h, n, progress, f"dt = {h:.3g}")
        drift = float(np.max(np.abs(r["energy"] - r["energy"][0])) / e_scale)
        mdrift = float(np.max(np.abs(r["momentum"] - r["momentum"][0])))
        runs.append(EnergyRun(dt=h, steps=n, drift=drift, momentum_drift=mdrift, **r))
    differences = tuple(float(np.linalg.norm(pinref.difference(model, a.q[-1], b.q[-1])))
                        for a, b in zip(runs, runs[1:]))
    dts = np.array([r.dt for r in runs])
    drifts = np.array([r.drift for r in runs])
    order, intercept = (np.polyfit(np.log(dts), np.log(drifts), 1) if np.all(drifts > 0)
                        else (np.nan, np.nan))
    name = model_name or getattr(model, "name", "") or "the model"
    return EnergyDrift(name, bool(gravity), float(e_scale), tuple(runs), differences,
                       float(order), float(intercept))


def plot_energy(result, path):
    """Write the figure to ``path`` (a .png) and return it (a matplotlib Figure): E(t) for each
    dt; the drift against dt on log axes with the fitted line; without gravity,
    |h(t) - h(0)| on a log axis. Needs matplotlib (``pinref[plot]``)."""
    check_plot_path(path)
    plt = _pyplot()
    panels = 2 if result.gravity else 3
    fig, axes = plt.subplots(1, panels, figsize=(5.2 * panels, 4.2), constrained_layout=True)
    for r in result.runs:
        axes[0].plot(r.t, r.energy, label=f"dt = {r.dt:.3g} s", lw=1.2)
    axes[0].set_xlabel("t [s]")
    axes[0].set_ylabel("E = T + U [J]" if result.gravity else "E = T [J]")
    axes[0].set_title(f"energy, {result.model_name}")
    axes[0].legend()
    dts, drifts = np.array([r.dt for r in result.runs]), result.drifts
    axes[1].loglog(dts, drifts, "o", label="max|E(t) - E(0)| / E_scale")
    fit = np.exp(result.intercept) * dts ** result.order
    axes[1].loglog(dts, fit, "--", label=f"fit: drift ~ dt^{result.order:.2f}")
    axes[1].set_xlabel("dt [s]")
    axes[1].set_ylabel("max drift / E_scale")
    axes[1].set_title("drift against dt")
    axes[1].legend()
    if panels == 3:
        for r in result.runs:
            err = np.linalg.norm(r.momentum - r.momentum[0], axis=-1)
            axes[2].semilogy(r.t[1:], np.maximum(err[1:], 1e-300), label=f"dt = {r.dt:.3g} s",
                             lw=1.2)
        axes[2].set_xlabel("t [s]")
        axes[2].set_ylabel("|h(t) - h(0)| (world spatial momentum)")
        axes[2].set_title("momentum drift (no gravity)")
        axes[2].legend()
    return save_figure(plt, fig, path)
