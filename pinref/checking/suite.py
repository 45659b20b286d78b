"""``check()``: the checks on a model and states, as a report; ``replay()``: one snapshot again."""

import json
import time
from dataclasses import dataclass, field

import numpy as np

from ..model.model import model_label
from .backends import Backend, make_backend
from .checks import CHECK_IDS, CheckResult, model_consistency, run_checks
from .snapshots import (
    environment,
    load_snapshot,
    model_checksum,
    version_differences,
    write_snapshot,
)
from .states import States, make_states


@dataclass
class CheckReport:
    """What ``check`` (and ``replay``) return; ``to_dict()`` is JSON-convertible.

    Attributes
    ----------
    checks : list of CheckResult
        One per check, in the order of ``pinref.checking.checks.CHECKS``.
    model : dict
        ``name``, ``source`` (how to rebuild it: ``{"model": NAME|PATH, "free_flyer": bool}``,
        or ``{"python": name}`` for a model built in Python), ``nq``, ``nv``, ``njoints``,
        ``checksum`` (sha256 of its numbers, ``snapshots.model_checksum``).
    backend : dict
        ``name`` ('pinref' or 'pin', '+ drill' for a drilled one) and ``version``.
    seed, n_states : the states' seed (None when given) and their number.
    index_table : list of dict
        Each joint's name, type, idx_q, nq, idx_v, nv (the ``sizes`` check's table).
    environment : dict
        pinref, NumPy, Python and pin versions, platform.
    seconds : float
    snapshots : list of str
        The .npz files written for the failures.
    command : list of str or None
        The command line, when run from one.
    replay : dict or None
        For a replay: the snapshot, its recorded residual and tolerance, version differences.
    consistency : list of dict
        The model-consistency group (``checks.model_consistency``): each body or link whose
        inertia no rigid body has, ``{"body", "links", "problem"}``. It is reported, not
        failed: Pinocchio loads such models.
    """

    checks: list
    model: dict
    backend: dict
    seed: object
    n_states: int
    index_table: list
    environment: dict
    seconds: float = 0.0
    snapshots: list = field(default_factory=list)
    command: list = None
    replay: dict = None
    consistency: list = field(default_factory=list)

    @property
    def passed(self):
        """True when no check failed or errored (``known`` and ``skip`` do not fail)."""
        return not any(r.failed for r in self.checks)

    @property
    def exit_code(self):
        return 0 if self.passed else 1

    @property
    def failures(self):
        return [r for r in self.checks if r.failed]

    def __getitem__(self, check_id):
        for r in self.checks:
            if r.id == check_id:
                return r
        raise KeyError(check_id)

    def to_dict(self):
        return {"passed": self.passed, "exit_code": self.exit_code, "model": self.model,
                "backend": self.backend, "seed": self.seed, "states": self.n_states,
                "checks": [r.to_dict() for r in self.checks], "index_table": self.index_table,
                "environment": self.environment, "seconds": self.seconds,
                "snapshots": self.snapshots, "command": self.command, "replay": self.replay,
                "model_consistency": self.consistency}

    def to_json(self, indent=2):
        """``to_dict()`` as strict JSON: a NaN or infinite residual becomes "nan" / "inf"."""
        return json.dumps(_finite(self.to_dict()), indent=indent, default=_plain,
                          allow_nan=False)

    def index_table_text(self):
        """The index table as text (what ``pinref info`` prints)."""
        keys = ("name", "type", "idx_q", "nq", "idx_v", "nv")
        rows = [keys] + [tuple(str(row[k]) for k in keys) for row in self.index_table]
        widths = [max(len(r[c]) for r in rows) for c in range(len(keys))]
        return ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]

    def to_text(self):
        m = self.model
        lines = [f"pinref check: {model_label(m['name'])} (nq {m['nq']}, nv {m['nv']}, "
                 f"{m['njoints'] - 1} joints), backend {self.backend['name']} "
                 f"{self.backend['version']}, {self.n_states} state"
                 f"{'s' if self.n_states != 1 else ''}"
                 + (f", seed {self.seed}" if self.seed is not None else "")]
        lines += ["  " + line for line in self.index_table_text()]
        if self.replay:
            lines.append(f"replay of {self.replay['snapshot']} (state {self.replay['state']}): "
                         f"recorded {self.replay['recorded_verdict']}, residual "
                         f"{_num(self.replay['recorded_residual'])}, tolerance "
                         f"{_num(self.replay['recorded_tolerance'])}")
            lines += [f"  warning: version differs: {d} (reported, not refused)"
                      for d in self.replay["version_differences"]]
        width = max(len(r.id) for r in self.checks)
        for r in self.checks:
            verdict = r.verdict.upper()
            if r.verdict in ("skip", "error"):
                lines.append(f"{verdict:5s}  {r.id.ljust(width)}  {r.detail}")
                continue
            where = f" at state {r.worst_state}" if r.failed else ""
            strict = r.extra.get("strict") if r.verdict == "known" else None
            if strict:
                # The relaxed residual alone reads as a pass: the strict one fails, say so.
                lines.append(
                    f"{verdict:5s}  {r.id.ljust(width)}  strict residual "
                    f"{_num(strict['residual'])} > tolerance {_num(strict['tolerance'])} at "
                    f"state {strict['worst_state']}, known cause: "
                    f"{strict.get('cause') or r.known_issue}; residual {_num(r.residual)} "
                    f"without it  {r.title}")
            else:
                lines.append(f"{verdict:5s}  {r.id.ljust(width)}  residual {_num(r.residual)}  "
                             f"tolerance {_num(r.tolerance)}{where}  {r.title}")
            if r.failed or r.verdict == "known":
                lines.append(f"{'':5s}  {'':{width}s}  {r.detail}")
            if r.verdict == "known":
                lines.append(f"{'':5s}  {'':{width}s}  known: {r.known_issue}")
        lines.append(f"model consistency: {len(self.consistency)} bod"
                     f"{'y' if len(self.consistency) == 1 else 'ies'} with an inertia no rigid "
                     "body has (Pinocchio loads them; reported, not failed)" if self.consistency
                     else "model consistency: every inertia is a rigid body's")
        lines += [f"  {', '.join(c['links'])} ({c['body']}): {c['problem']}"
                  for c in self.consistency]
        for r in self.checks:
            if r.table:
                lines += ["", f"{r.id}, state {r.worst_state}:", r.table]
        for path in self.snapshots:
            lines.append(f"snapshot: {path}")
        counts = {v: sum(r.verdict == v for r in self.checks) for v in
                  ("pass", "fail", "error", "known", "skip")}
        summary = ", ".join(f"{n} {v}" for v, n in counts.items() if n)
        lines.append(f"pinref check: {'all pass' if self.passed else 'FAILED'} ({summary}) in "
                     f"{self.seconds:.2f} s")
        return "\n".join(lines)

    __str__ = to_text


def _num(x):
    return "-" if x is None else f"{x:.3e}"


def _finite(x):
    if isinstance(x, float) and not np.isfinite(x):
        return str(x)
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def _plain(x):
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, (np.floating, np.integer, np.bool_)):
        return x.item()
    return str(x)


def _model_info(model, source):
    return {"name": model.name, "source": source if source is not None else
            {"python": model.name}, "nq": model.nq, "nv": model.nv, "njoints": model.njoints,
            "checksum": model_checksum(model)}


def _index_table(model):
    return [{"name": model.names[i], "type": model.joints[i].shortname(),
             "idx_q": model.idx_qs[i], "nq": model.nqs[i], "idx_v": model.idx_vs[i],
             "nv": model.nvs[i]} for i in range(1, model.njoints)]


def check(model, states=None, *, n_states=10, seed=0, backend="pinref", checks=None,
          snapshot_dir=None, source=None, command=None):
    """Run the self-checks on ``model``; returns a :class:`CheckReport`.

    Parameters
    ----------
    model : pinref.Model
    states : States, optional
        Default ``make_states(model, n_states, seed)``: random, non-degenerate states, the
        model's armature (or a drawn one if it is zero), its gravity, one wrench per state.
        The checks run on a copy of the model with the states' armature and gravity.
    n_states, seed : int
    backend : 'pinref', 'pin' or a ``pinref.checking.backends.Backend``
    checks : list of check ids, optional (default all, ``pinref.checking.CHECK_IDS``)
    snapshot_dir : path, optional
        Where to write a snapshot of each failing check's worst state (none by default);
        SnapshotError when it cannot be written there.
    source : dict, optional
        How to rebuild the model for a replay (``{"model": NAME|PATH, "free_flyer": bool}``).
    command : list of str, optional
        The command line, for the record.

    Every check runs on all states at once, through the backend's batched calls (pinref) or a
    loop (pin). See ``pinref.checking.checks`` and docs/check.md for each check. A wrong
    argument raises ArgumentTypeError or ArgumentValueError naming it; too few or too many
    states (``states.CHECK_BYTES_LIMIT``) ShapeError.
    """
    started = time.perf_counter()
    _check_arguments(model, states, checks, backend)
    if states is None:
        states = make_states(model, n_states, seed)
    else:
        seed = None
    if not isinstance(backend, Backend):
        backend = make_backend(backend, model)
    checked = backend.with_model(armature=states.armature, gravity=states.gravity)
    results = run_checks(checked, states, checks)
    report = CheckReport(
        checks=results, model=_model_info(model, source),
        backend={"name": checked.name, "version": checked.version()}, seed=seed,
        n_states=len(states), index_table=_index_table(model),
        environment=environment(), command=command,
        consistency=model_consistency(model, source))
    report.seconds = time.perf_counter() - started
    if snapshot_dir is not None:
        try:
            report.snapshots = [str(write_snapshot(snapshot_dir, report, r, states))
                                for r in report.failures]
        except OSError as err:
            from .snapshots import SnapshotError

            raise SnapshotError(
                f"{snapshot_dir}: cannot write the snapshot of a failing check there "
                f"({err.strerror or err}); choose another directory (--snapshot-dir) or none "
                "(--no-snapshots)") from err
    return report


def _check_arguments(model, states, checks, backend):
    """ArgumentTypeError / ArgumentValueError naming the argument of ``check`` that is wrong."""
    from ..errors import ArgumentTypeError, ArgumentValueError
    from ..model import Model
    from .backends import BACKENDS

    if not isinstance(model, Model):
        raise ArgumentTypeError(f"model: expected a pinref.Model, got {type(model).__name__} "
                                "(load a name or a URDF with pinref.model.loading.load_model)")
    if states is not None and not isinstance(states, States):
        raise ArgumentTypeError(f"states: expected pinref.checking.States, got "
                                f"{type(states).__name__}")
    if checks is not None:
        if isinstance(checks, str) or not isinstance(checks, (list, tuple)):
            raise ArgumentTypeError(f"checks: expected a list of check ids, got "
                                    f"{type(checks).__name__} {checks!r}"
                                    + (f" (write [{checks!r}])" if isinstance(checks, str)
                                       else ""))
        unknown = [c for c in checks if not isinstance(c, str) or c not in CHECK_IDS]
        if unknown or not checks:
            what = (f"unknown check {', '.join(map(repr, unknown))}" if unknown
                    else "the list is empty")
            raise ArgumentValueError(f"checks: {what}; the checks are {', '.join(CHECK_IDS)}")
    if not isinstance(backend, Backend) and (not isinstance(backend, str)
                                             or backend not in BACKENDS):
        raise ArgumentValueError(f"backend: expected one of {', '.join(sorted(BACKENDS))} or a "
                                 f"pinref.checking.backends.Backend, got {backend!r}")


def recorded_backend(record, path="snapshot"):
    """The backend a snapshot's record names ('pinref' or 'pin'; a drilled backend's base),
    'pinref' when the record names none; SnapshotError for anything else."""
    from .backends import BACKENDS
    from .snapshots import SnapshotError

    entry = record.get("backend")
    name = entry.get("name", "pinref") if isinstance(entry, dict) else entry
    name = "pinref" if name is None else str(name).split(" ")[0]
    if name not in BACKENDS:
        raise SnapshotError(f"{path}: the record names the backend {name!r}; expected one of "
                            f"{', '.join(sorted(BACKENDS))}")
    return name


def replay(path, model, backend=None, command=None):
    """Re-run the check recorded in the snapshot ``path`` (.npz, its .json beside it) on its
    state, after verifying the record, the file's sha256, the arrays (no pickle, dtype, shapes,
    finiteness) and ``model``'s checksum against the record (``snapshots.load_snapshot``,
    SnapshotError otherwise). ``backend`` defaults to the recorded one. Returns a CheckReport
    of that one check, with ``replay`` holding the recorded residual and tolerance and the
    version differences."""
    started = time.perf_counter()
    record, states = load_snapshot(path, model)
    check_id = record["check"]["id"]
    if check_id not in CHECK_IDS:
        from .snapshots import SnapshotError

        raise SnapshotError(f"{path}: the record names the check {check_id!r}, which this "
                            f"pinref does not have ({', '.join(CHECK_IDS)})")
    if backend is None:
        backend = recorded_backend(record, path)
    report = check(model, states, backend=backend, checks=[check_id],
                   source=record["model"]["source"], command=command)
    report.seed = record["state"].get("seed")
    report.replay = {"snapshot": str(path), "state": record["state"]["index"],
                     "recorded_residual": record["check"].get("residual"),
                     "recorded_tolerance": record["check"].get("tolerance"),
                     "recorded_verdict": record["check"].get("verdict"),
                     "version_differences": version_differences(record)}
    report.seconds = time.perf_counter() - started
    return report


__all__ = ["CheckReport", "CheckResult", "check", "recorded_backend", "replay"]
