"""The ``pinref`` command (also ``python -m pinref``).

    pinref diff  [--model NAME|PATH.urdf] [--free-flyer] [--algorithm rnea|crba|aba|all]
                 [--states N] [--seed S] [--armature X] [--fext] [--tolerance T] [--json]
                 pinref against the installed Pinocchio, every cache and every stop of the passes
    pinref trace aba|rnea|crba [--model ...] [--joint NAME] [--cache NAME] [--plot M.png]
                 the pass-by-pass table of one call (crba --plot: the block structure of M)
    pinref check [--model ...] [--backend pinref|pin] [--states N] [--seed S] [--json]
                 [--drills] [--replay FILE.npz]
                 the tutorials' self-checks (identities between algorithms, frames, armature,
                 external forces, tangent-space derivatives), mutation drills, snapshots
    pinref info  [--model ...] [--plot TREE.png]
                 the model's index table (name, type, parent, idx_q, nq, ...), its tree drawn

Models: ``tutorial`` (the default: free-flyer + 2 RY), ``manipulator``, ``humanoid``, or a path
ending in ``.urdf`` or (MuJoCo) ``.xml``; ``--free-flyer`` puts a free-flyer root joint under
the model (for an MJCF file, as Pinocchio does: only when its first body has no joint).

Exit codes: 0 done (diff: everything agrees; check: every check passes), 1 diff found a
difference or a check failed, 2 bad usage, input or output (stdout closed or full), 141 the
reader of stdout went away (``pinref ... | head``), 130 interrupted.

Adding a command: write ``add(subparsers)`` in its own module, which adds one subparser and
sets its handler with ``parser.set_defaults(run=handler)`` (``handler(args)`` returns the exit
code), then add one line ``"package.module:add"`` to ``SUBCOMMANDS``. Raise ``UsageError`` (or
any ``pinref.errors.PinrefError``) for bad input: ``main`` prints it and exits with 2. Any
other exception is a bug and propagates with its traceback; a command that needs Pinocchio
calls ``pinref.compare.command.require_pinocchio()``, which turns the missing package into a
MissingDependencyError (a UsageError).
"""

import argparse
import errno
import importlib
import sys
import time

from . import __version__
from .errors import PinrefError
from .version import __raw_version__, pin_version

SUBCOMMANDS = (
    "pinref.compare.command:add",
    "pinref.tracing.command:add",
    "pinref.checking.command:add",
    "pinref.cli:add_info",
    "pinref.sourcemap.command:add",
    "pinref.experiments.command:add",
)

MODEL_HELP = ("tutorial (free-flyer + 2 RY, the default), manipulator, humanoid, or the path "
              "of a .urdf or MuJoCo .xml file")


class UsageError(Exception):
    """Bad usage or input that argparse cannot see: printed, exit code 2."""


class MissingDependencyError(UsageError, ImportError):
    """An optional dependency (Pinocchio) is not installed: printed with the install command,
    exit code 2."""


def model_display_name(args):
    """The model as the command line named it: ``humanoid``, ``robot.urdf + free-flyer``."""
    return args.model + (" + free-flyer" if args.free_flyer else "")


def add_model_arguments(parser):
    """``--model NAME|PATH.urdf`` and ``--free-flyer``, shared by the commands."""
    parser.add_argument("--model", default="tutorial", metavar="NAME|PATH.urdf", help=MODEL_HELP)
    parser.add_argument("--free-flyer", action="store_true",
                        help="put a free-flyer root joint (root_joint) under the model")


def model_from_args(args):
    """The pinref Model that ``--model`` and ``--free-flyer`` name."""
    from .model.loading import load_model

    return load_model(args.model, args.free_flyer)


class Progress:
    """Progress on stderr, only when stderr is a terminal: ``progress(stage, done, total)``.

    Redraws at most 10 times a second; ``done()`` clears the line. The end-of-run timing line
    is separate (``timing_line``).
    """

    def __init__(self, stream=None, interval=0.1):
        self.stream = sys.stderr if stream is None else stream
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.interval = interval
        self._last = 0.0
        self._shown = False

    def __call__(self, stage, done, total):
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self._last < self.interval:
            return
        self._last = now
        self.stream.write(f"\r\033[K{stage} {done}/{total}")
        self.stream.flush()
        self._shown = True

    def done(self):
        if self._shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._shown = False


def add_info(subparsers):
    info = subparsers.add_parser("info", help="print a model's index table",
                                 description="The index table of a model: each joint's id, "
                                 "name, type, parent, idx_q, nq, idx_v and nv. --plot FILE.png "
                                 "draws the kinematic tree (joints by level, with their "
                                 "indices and subtree velocity spans; needs matplotlib).")
    add_model_arguments(info)
    info.add_argument("--plot", metavar="FILE.png",
                      help="draw the kinematic tree to FILE.png (needs matplotlib)")
    info.set_defaults(run=run_info)


def run_info(args):
    model = model_from_args(args)
    if args.plot is not None:
        from .figures import require_plot

        require_plot(args.plot)
    print("\n".join(index_table(model)))
    if args.plot is not None:
        from .figures import plot_tree

        plot_tree(model, args.plot, name=model_display_name(args))
        print(f"wrote {args.plot}")
    return 0


def index_table(model):
    """The index table of ``model`` as text lines."""
    rows = [("id", "name", "type", "parent", "idx_q", "nq", "idx_v", "nv")]
    for i in range(1, model.njoints):
        rows.append((str(i), model.names[i], model.joints[i].shortname(),
                     model.names[model.parents[i]], str(model.idx_qs[i]), str(model.nqs[i]),
                     str(model.idx_vs[i]), str(model.nvs[i])))
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.append(f"nq = {model.nq}, nv = {model.nv}, njoints = {model.njoints}")
    return lines


def build_parser():
    installed = pin_version()
    reference = (f"compared cache by cache with the installed Pinocchio, pin {installed}"
                 if installed else "no Pinocchio installed to compare with (pip install "
                 "'pinref[pin]')")
    parser = argparse.ArgumentParser(
        prog="pinref", description="pinref: Pinocchio's RNEA, CRBA and ABA in NumPy, as in "
        f"Pinocchio {__raw_version__}; {reference}.",
        epilog="Exit codes: 0 done (diff: all agree), 1 diff found a "
        "difference, 2 bad usage or input.")
    parser.add_argument("--version", action="version", version=f"pinref {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for entry in SUBCOMMANDS:
        module, _, function = entry.partition(":")
        getattr(importlib.import_module(module), function)(sub)
    return parser


# Exit code for a reader that went away (pinref ... | head): 128 + SIGPIPE, as a shell reports
# a process killed by the signal; 0 and 1 would claim a verdict nobody read.
EXIT_BROKEN_PIPE = 141
# An OSError without a file name, of these kinds, is a failed write to stdout (a full disk).
_OUTPUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF}


def _silence_stdout():
    """Point stdout's descriptor at /dev/null, so that the interpreter's last flush of what is
    still buffered cannot fail again (and print a traceback) on the way out."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv=None):
    """Run the command line ``argv`` (default sys.argv[1:]); returns the exit code.

    0 done, 1 a difference or failed check, 2 bad usage, input or output (the message names
    it), EXIT_BROKEN_PIPE (141) when the reader of stdout went away, 130 interrupted.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:          # argparse: --help, --version (0) or bad usage (2)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if sys.stdout is None:             # started with stdout closed (pinref ... >&-)
        print(f"pinref {args.command}: error: standard output is closed, the report would be "
              "lost; redirect it to a file instead (> FILE)", file=sys.stderr)
        return 2
    try:
        code = args.run(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:            # the reader went away (pinref ... | head)
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except (UsageError, PinrefError) as err:  # bad input; anything else is a bug: traceback
        print(f"pinref {args.command}: error: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        if err.filename is not None or err.errno not in _OUTPUT_ERRNOS:
            raise
        _silence_stdout()
        print(f"pinref {args.command}: error: cannot write the output ({err.strerror}); "
              "free some space or write it elsewhere", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"pinref {args.command}: interrupted", file=sys.stderr)
        return 130
