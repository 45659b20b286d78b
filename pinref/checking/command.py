"""``pinref check``: the tutorials' self-checks on a model, the mutation drills, a replay.

    pinref check                                  tutorial model, 10 states, every check
    pinref check --model humanoid --states 100 --seed 3 --json
    pinref check --model robot.urdf --free-flyer --backend pin
    pinref check --drills                         plant each classic mistake, show who catches it
    pinref check --replay pinref-snapshots/aba_inverts_rnea-seed0-state4.npz

Each check prints its residual, its tolerance and its verdict (pass, fail, known: a documented
Pinocchio 3.8.0 behaviour, skip: does not apply to the model, error: the backend raised). A
failing check writes its worst state to DIR/<check>-seed<S>-state<k>.npz with a .json record
(--snapshot-dir DIR, default ./pinref-snapshots; --no-snapshots to write none). --replay
verifies such a snapshot (its record, sha256, arrays, versions, the model's checksum) and runs
its check again. Exit code 0 when every check passes (--drills: every drill caught and the
unmutated run clean), 1 otherwise, 2 for bad usage or input.
"""

import argparse
import os
import sys
import time

from ..cli import UsageError, add_model_arguments, model_from_args
from ..compare.command import require_pinocchio
from ..model.loading import SAMPLE_MODELS
from ..textwidth import add_wide_argument, fit_lines, output_width

DEFAULT_STATES = 10


def add(subparsers):
    p = subparsers.add_parser(
        "check", help="run the tutorials' self-checks (and the mutation drills)",
        description=__doc__.replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_model_arguments(p)
    p.add_argument("--backend", choices=("pinref", "pin"),
                   help="the library checked: pinref (the default) or Pinocchio 3.8.0; a replay "
                        "uses the snapshot's unless given")
    p.add_argument("--states", type=int, default=DEFAULT_STATES, metavar="N",
                   help=f"random states (default {DEFAULT_STATES})")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="their seed (default 0)")
    p.add_argument("--checks", metavar="ID,ID", help="run only these checks (default all)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--drills", action="store_true",
                       help="run the checks with each classic mistake planted")
    group.add_argument("--replay", metavar="FILE.npz",
                       help="verify a snapshot and run its check again on its state")
    snap = p.add_mutually_exclusive_group()
    snap.add_argument("--snapshot-dir", metavar="DIR",
                      help="where failing states are written (default ./pinref-snapshots)")
    snap.add_argument("--no-snapshots", action="store_true", help="write no snapshot")
    add_wide_argument(p)
    p.set_defaults(run=run)


def _check_ids(text):
    from .checks import CHECK_IDS

    if text is None:
        return None
    ids = [c.strip() for c in text.split(",") if c.strip()]
    unknown = [c for c in ids if c not in CHECK_IDS]
    if not ids or unknown:
        raise UsageError(f"--checks: unknown check {', '.join(unknown) or '(none given)'}; the "
                         f"checks are {', '.join(CHECK_IDS)}")
    return ids


def _source(args):
    """How to rebuild the model (``load_model(source['model'], source['free_flyer'])``)."""
    model = args.model
    if model not in SAMPLE_MODELS:             # a file: its absolute path
        model = os.path.abspath(model)
    return {"model": model, "free_flyer": bool(args.free_flyer)}


def _command(args):
    """The command line that reproduces this run."""
    words = ["pinref", "check", "--model", _source(args)["model"]]
    if args.free_flyer:
        words.append("--free-flyer")
    words += ["--backend", args.backend, "--states", str(args.states), "--seed", str(args.seed)]
    if args.checks:
        words += ["--checks", args.checks]
    return words


def _print(report, args):
    print(report.to_json() if args.json else fit_lines(report.to_text(), output_width(args.wide)))


def run(args):
    from .drills import run_drills
    from .suite import check, replay

    started = time.perf_counter()
    if args.states < 1:
        raise UsageError(f"--states must be at least 1, got {args.states}")
    if args.seed < 0:
        raise UsageError(f"--seed must be an integer >= 0 (NumPy's seeds are), got {args.seed}")
    ids = _check_ids(args.checks)
    if args.replay is not None:
        return _run_replay(args, ids, replay)
    args.backend = args.backend or "pinref"
    if args.backend == "pin":
        require_pinocchio()
    model = model_from_args(args)
    if model.nv == 0:
        raise UsageError(f"model {args.model!r} has no joint to check")
    if args.drills:
        from .backends import make_backend
        from .states import make_states

        states = make_states(model, args.states, args.seed)
        backend = make_backend(args.backend, model).with_model(armature=states.armature,
                                                               gravity=states.gravity)
        report = run_drills(backend, states, checks=ids)
        if args.json:
            import json

            print(json.dumps(report.to_dict(), indent=2))
        else:
            print(f"pinref check --drills: model {args.model!r}, backend {args.backend}, "
                  f"{args.states} states, seed {args.seed}")
            print(fit_lines(report.to_text(), output_width(args.wide)))
        print(f"pinref check --drills: {time.perf_counter() - started:.2f} s", file=sys.stderr)
        return 0 if report.passed else 1
    snapshot_dir = None
    if not args.no_snapshots:
        from .snapshots import default_directory

        snapshot_dir = args.snapshot_dir or default_directory()
    report = check(model, n_states=args.states, seed=args.seed, backend=args.backend,
                   checks=ids, snapshot_dir=snapshot_dir, source=_source(args),
                   command=_command(args))
    _print(report, args)
    return report.exit_code


def _run_replay(args, ids, replay):
    from ..model.loading import load_model
    from .snapshots import SnapshotError, read_record
    from .suite import recorded_backend

    if ids is not None:
        raise UsageError("--replay runs the snapshot's own check; drop --checks")
    if args.model != "tutorial" or args.free_flyer:
        raise UsageError("--replay rebuilds the model from the snapshot's record; drop --model "
                         "and --free-flyer")
    record = read_record(args.replay)
    source = record["model"]["source"]
    if not isinstance(source, dict) or "model" not in source:
        raise SnapshotError(f"{args.replay}: the model was built in Python ({source}); replay "
                            "it with pinref.checking.replay(path, model)")
    backend = args.backend or recorded_backend(record, args.replay)
    if backend == "pin":
        require_pinocchio()
    model = load_model(source["model"], bool(source.get("free_flyer", False)))
    report = replay(args.replay, model, backend=backend,
                    command=["pinref", "check", "--replay", os.path.abspath(args.replay)])
    _print(report, args)
    return report.exit_code
