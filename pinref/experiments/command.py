"""``pinref experiment``: the tutorials' experiments, with tables on the terminal and figures.

    pinref experiment energy [--model M] [--dt DT] [--steps N] [--no-gravity] [--plot E.png]
        semi-implicit Euler (aba, integrate), tau = 0, at dt, dt/2, dt/4 to the same final time
        dt * N: T against 1/2 v^T M v each step, E = T + U (or T and the world-frame spatial
        momentum without gravity), max|E(t) - E(0)| / E_scale, the final difference between the
        configurations, the fitted order of the drift
    pinref experiment eps-sweep [--model M] [--plot S.png]
        central differences at eps = 1e-3 ... 1e-8 against computeRNEADerivatives and
        computeABADerivatives: the error's valley

One state from --seed (q uniform in [-1, 1] per coordinate, v normal: the states of pinref
diff). --plot FILE.png needs matplotlib (pip install 'pinref[plot]'); the path is checked before
the run, and with --json the file is named in the JSON ("figure"). Exit codes: 0 done, 1 the
energy run found computeKineticEnergy != 1/2 v^T M v at some instant (column T == vMv/2 says
NO), 2 bad usage or input (a dt that is not finite and > 0, makes the run diverge or is too
small to move the state, a run whose histories would pass 1 GiB or whose estimated time
passes an hour, a model without a degree of freedom, a seed < 0, a figure path that cannot be
written).
"""

import argparse
import json
import sys
import time

from ..cli import Progress, add_model_arguments, model_display_name, model_from_args


ENERGY_HELP = """\
Semi-implicit Euler (aba, then integrate), tau = 0, no damping, run at dt, dt/2 and dt/4 to the
same final time dt * N. At every instant: computeKineticEnergy against 1/2 v^T M v, and
E = T + U (without gravity: E = T and the world-frame spatial momentum). The table gives
max|E(t) - E(0)| / E_scale per dt, the ratio of successive drifts, the difference between the
final configurations, and the fitted order p of drift ~ dt^p (semi-implicit Euler: 1).

One state from --seed (q uniform in [-1, 1] per coordinate, v normal). --plot E.png draws E(t),
the drift against dt (and the momentum without gravity); needs matplotlib. Exit codes: 0 done,
1 T != 1/2 v^T M v at some instant, 2 bad input (dt not finite and > 0, diverging or too small
to move the state, histories that would pass 1 GiB or an estimated time over an hour, a model
without a degree of freedom, seed < 0, a figure path that cannot be written)."""

SWEEP_HELP = """\
Central differences at eps = 1e-3 ... 1e-8 against computeRNEADerivatives (q, v, a) and
computeABADerivatives (q, v, tau): per eps the largest absolute and relative error and where;
"< best eps" marks the least relative error. The q derivatives show the valley (truncation
~ eps^2 falls, rounding ~ 1e-16 / eps grows); v, a and tau the rounding alone.

One state from --seed. --plot S.png draws the error against eps on log axes; needs matplotlib.
Exit codes: 0 done, 2 bad input (a model without a degree of freedom, seed < 0, a figure path
that cannot be written)."""


def add(subparsers):
    p = subparsers.add_parser("experiment", help="run the tutorials' experiments (energy drift, "
                              "eps sweep)", description=__doc__.replace("``", ""),
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="experiment", required=True, metavar="EXPERIMENT")
    energy = sub.add_parser("energy", help="energy drift of semi-implicit Euler at dt, dt/2, dt/4",
                            description=ENERGY_HELP,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    add_model_arguments(energy)
    energy.add_argument("--dt", type=float, default=4e-3, help="the largest step (default 4e-3 s)")
    energy.add_argument("--steps", type=int, default=250,
                        help="steps at --dt (default 250; dt/2 takes twice as many, ...)")
    energy.add_argument("--no-gravity", action="store_true",
                        help="zero gravity: E = T, and the momentum is conserved")
    _common(energy)
    energy.set_defaults(run=run_energy)
    sweep = sub.add_parser("eps-sweep", help="finite-difference error against eps for the RNEA "
                           "and ABA derivatives", description=SWEEP_HELP,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    add_model_arguments(sweep)
    _common(sweep)
    sweep.set_defaults(run=run_sweep)


def _common(p):
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the initial state's seed")
    p.add_argument("--plot", metavar="FILE.png", help="write a figure (needs matplotlib)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def _check_plot(args):
    """MissingPlotError or PlotFileError before a long run, not after it."""
    if args.plot is not None:
        from ..figures import require_plot

        require_plot(args.plot)


def _print_result(args, doc, text):
    """The JSON (with the figure's file under "figure") or the text and a "wrote" line."""
    if args.json:
        if args.plot is not None:
            doc["figure"] = args.plot
        print(json.dumps(doc, indent=1))
    else:
        print(text)
        if args.plot is not None:
            print(f"wrote {args.plot}")


def run_energy(args):
    """0 done; 1 when computeKineticEnergy != 1/2 v^T M v at some instant (as ``pinref check``
    exits 1 on a failed check); the bad parameters raise (exit 2)."""
    from .energy import energy_drift, plot_energy

    _check_plot(args)
    started = time.perf_counter()
    model = model_from_args(args)
    progress = Progress()
    try:
        result = energy_drift(model, dt=args.dt, steps=args.steps, gravity=not args.no_gravity,
                              seed=args.seed, model_name=model_display_name(args),
                              progress=progress)
    finally:
        progress.done()
    if args.plot is not None:
        plot_energy(result, args.plot)
    _print_result(args, result.to_dict(), str(result))
    if not result.kinetic_ok:
        print("\npinref experiment energy: computeKineticEnergy differs from 1/2 v^T M v "
              "(column T == vMv/2): the kinetic energy or crba is wrong on this model",
              file=sys.stderr)
    total = sum(r.steps for r in result.runs)
    print(f"\npinref experiment energy: {total} steps in {time.perf_counter() - started:.1f} s",
          file=sys.stderr if args.json else sys.stdout)
    return 0 if result.kinetic_ok else 1


def run_sweep(args):
    from .sweep import eps_sweeps, plot_sweeps, sweeps_dict, sweeps_text

    _check_plot(args)
    model = model_from_args(args)
    sweeps = eps_sweeps(model, seed=args.seed)
    name = model_display_name(args)
    if args.plot is not None:
        plot_sweeps(sweeps, args.plot, name)
    _print_result(args, sweeps_dict(sweeps), sweeps_text(sweeps, name))
    return 0
