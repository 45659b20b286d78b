"""``pinref experiment``: the tutorials' experiments, with tables on the terminal and figures.

    pinref experiment energy [--model M] [--dt DT] [--steps N] [--no-gravity] [--plot E.png]
        semi-implicit Euler (aba, integrate), tau = 0, at dt, dt/2, dt/4 to the same final time
        dt * N: T against 1/2 v^T M v each step, E = T + U (or T and the world-frame spatial
        momentum without gravity), max|E(t) - E(0)| / E_scale, the final difference between the
        configurations, the fitted order of the drift
    pinref experiment eps-sweep [--model M] [--plot S.png]
        central differences at eps = 1e-3 ... 1e-8 against computeRNEADerivatives and
        computeABADerivatives: the error's valley

One state from --seed (q uniform in [-1, 1] per coordinate, v normal). --plot needs matplotlib
(pip install 'pinref[plot]'). Exit codes: 0 done, 2 bad usage or input.
"""

import argparse
import json
import sys
import time

from ..cli import Progress, UsageError, add_model_arguments, model_display_name, model_from_args


def add(subparsers):
    p = subparsers.add_parser("experiment", help="run the tutorials' experiments (energy drift, "
                              "eps sweep)", description=__doc__.replace("``", ""),
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="experiment", required=True, metavar="EXPERIMENT")
    energy = sub.add_parser("energy", help="energy drift of semi-implicit Euler at dt, dt/2, dt/4",
                            description=__doc__.replace("``", ""),
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
                           "and ABA derivatives", description=__doc__.replace("``", ""),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    add_model_arguments(sweep)
    _common(sweep)
    sweep.set_defaults(run=run_sweep)


def _common(p):
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the initial state's seed")
    p.add_argument("--plot", metavar="FILE.png", help="write a figure (needs matplotlib)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def _check_plot(args):
    if args.plot is not None:
        from .energy import _pyplot

        _pyplot()        # MissingPlotError before a long run, not after it


def run_energy(args):
    from .energy import energy_drift, plot_energy

    if not args.dt > 0 or args.steps < 1:
        raise UsageError(f"--dt must be > 0 and --steps >= 1, got --dt {args.dt} --steps "
                         f"{args.steps}")
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
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        print(result)
    if args.plot is not None:
        plot_energy(result, args.plot)
        print(f"wrote {args.plot}")
    total = sum(r.steps for r in result.runs)
    print(f"\npinref experiment energy: {total} steps in {time.perf_counter() - started:.1f} s",
          file=sys.stderr if args.json else sys.stdout)
    return 0


def run_sweep(args):
    from .sweep import eps_sweeps, plot_sweeps, sweeps_dict, sweeps_text

    _check_plot(args)
    model = model_from_args(args)
    sweeps = eps_sweeps(model, seed=args.seed)
    name = model_display_name(args)
    if args.json:
        print(json.dumps(sweeps_dict(sweeps), indent=1))
    else:
        print(sweeps_text(sweeps, name))
    if args.plot is not None:
        plot_sweeps(sweeps, args.plot, name)
        print(f"wrote {args.plot}")
    return 0
