"""``pinref diff``: pinref against the installed Pinocchio (3.8.0, the baseline, or 4.1.0) on
a model and a batch of states.

    pinref diff                                   tutorial model, rnea + crba + aba, 100 states
    pinref diff --model humanoid --states 1000 --fext --armature 0.1
    pinref diff --model robot.urdf --free-flyer --algorithm aba --json
    pinref diff --convention world                crba and aba in the WORLD convention

The states run in chunks of bounded size (a few hundred MB per process), on every core once
there are 2000 or more; pinref runs each chunk in one call, Pinocchio state by state. On a
terminal, stderr shows the progress. Prints the max relative error of every cache for every
algorithm and, where pinref leaves the tolerance, the first divergence in pass order; states of
ABA whose rounding is amplified by their conditioning are reported as agreeing within it, with
the factor. Exit code 0 when everything agrees, 1 when something differs, 2 for bad usage,
input or output (unknown model, unreadable or invalid URDF, pin not installed, states that do
not fit the model or more than 1 GiB of them, a run whose estimated memory passes 1.5 GB per
process, stdout closed or full), 141 when the reader of
stdout went away.
"""

import argparse
import sys
import time

import numpy as np

from ..cli import MissingDependencyError, Progress, UsageError, add_model_arguments
from ..textwidth import add_wide_argument, fit_lines, output_width
from .bridge import import_pinocchio


def require_pinocchio():
    """The ``pinocchio`` module, or a MissingDependencyError naming ``pip install 'pinref[pin]'``
    (the commands that need Pinocchio call it first)."""
    try:
        return import_pinocchio()
    except ImportError as err:
        raise MissingDependencyError(str(err)) from None


def add(subparsers):
    p = subparsers.add_parser(
        "diff", help="compare every cache with the installed Pinocchio (3.8.0 or 4.1.0)",
        description=__doc__.replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_model_arguments(p)
    p.add_argument("--algorithm", default="all", choices=("rnea", "crba", "aba", "all"))
    p.add_argument("--states", type=int, default=100, metavar="N",
                   help="random states (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="their seed (default 0)")
    p.add_argument("--states-file", metavar="FILE.npz",
                   help="states to use instead: arrays q, v, and a and/or tau, optionally fext "
                        "(..., njoints, 6)")
    p.add_argument("--armature", type=float, metavar="X",
                   help="set every dof's armature to X (default: the model's)")
    p.add_argument("--fext", action="store_true", help="add random external wrenches")
    p.add_argument("--tolerance", type=float, default=1e-12, metavar="T",
                   help="per cache, joint and state: max|pinref - pin| <= T max(1, max|pin|) "
                        "(default 1e-12)")
    p.add_argument("--convention", choices=("local", "world"), default="local",
                   help="the frame crba and aba work in on both sides (pinref.Convention; "
                        "default local); world compares their WORLD caches too")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="also print every cache's worst errors and where they are")
    add_wide_argument(p)
    p.set_defaults(run=run)


STATE_ARRAYS = ("q", "v", "a", "tau", "fext")


def _load_states(path):
    """The arrays of ``--states-file``: an .npz of q (required), v, a, tau, fext, read with
    ``pinref.npz.read_npz`` (sizes from the zip directory and the npy headers
    before reading, at most STATES_BYTES_LIMIT bytes, no pickle)."""
    from ..npz import read_npz
    from .diff import STATES_BYTES_LIMIT

    what = f"--states-file {path}"
    if not str(path).endswith(".npz"):
        raise UsageError(f"{what}: expected an .npz archive (numpy.savez(FILE.npz, q=..., "
                         "v=..., tau=...)), not a .npy array or another file")
    states = read_npz(path, STATE_ARRAYS, STATES_BYTES_LIMIT, error=UsageError, what=what)
    if "q" not in states:
        raise UsageError(f"{what}: expected arrays q, v, a, tau, fext (q required), found "
                         f"{', '.join(sorted(states)) or 'none'}")
    return states


def run(args):
    from . import compare

    started = time.perf_counter()
    if args.states < 1:
        raise UsageError(f"--states must be at least 1, got {args.states}")
    if args.seed < 0:
        raise UsageError(f"--seed must be an integer >= 0 (NumPy's seeds are), got {args.seed}")
    if not (np.isfinite(args.tolerance) and args.tolerance > 0):
        raise UsageError(f"--tolerance must be positive and finite, got {args.tolerance}")
    require_pinocchio()
    given = _load_states(args.states_file) if args.states_file else {}
    if given and args.fext:
        raise UsageError("--fext draws random wrenches for random states; put fext in the "
                         "--states-file instead")
    progress = Progress()
    try:
        report = compare(args.model, given.get("q"), given.get("v"), given.get("a"),
                         given.get("tau"), fext=given.get("fext", True if args.fext else None),
                         armature=args.armature, algorithm=args.algorithm,
                         free_flyer=args.free_flyer, states=args.states, seed=args.seed,
                         tolerance=args.tolerance, progress=progress,
                         convention=args.convention)
    finally:
        progress.done()
    elapsed = time.perf_counter() - started
    line = timing_line(report, elapsed)
    if args.json:
        print(report.to_json())
        print(line, file=sys.stderr)
    else:
        width = output_width(args.wide)
        print(fit_lines(report.details() if args.verbose else str(report), width))
        print()
        print(fit_lines(line, width))
    return 0 if report.agree else 1


def timing_line(report, elapsed):
    """``pinref diff: all agree with pin 3.8.0 (rnea, crba, aba x 100 states) in 0.41 s (pinref
    0.05 s, ...)``; the parts are summed over the chunks, which may run in parallel (then exceed
    the total)."""
    parts = {}
    for a in report.algorithms:
        for k, t in a.seconds.items():
            parts[k] = parts.get(k, 0.0) + t
    split = ", ".join(f"{k} {t:.2f} s" for k, t in parts.items())
    names = ", ".join(a.algorithm for a in report.algorithms)
    differ = [a.algorithm for a in report.algorithms if not a.agree]
    verdict = "all agree" if not differ else f"{', '.join(differ)} DIFFER"
    return (f"pinref diff: {verdict} with pin {report.versions['pin']} ({names} x "
            f"{report.states} states) in {elapsed:.2f} s "
            f"({split})")
