"""``pinref trace``: the pass-by-pass table of one rnea, crba or aba call.

    pinref trace aba                              the tutorial's table: stop | Yaba[1..3] | known
    pinref trace aba --joint ry1_joint            Yaba[2] after every stop that wrote it
    pinref trace rnea --model humanoid --cache f --joint chest2_joint
    pinref trace aba --cache a_gf --fext
    pinref trace crba --convention world          crbaWorldConvention's passes: oYcrb[1..]
    pinref trace crba --plot M.png                and the heat map of |M|, joint blocks outlined

One random state (``--seed``) of the model: q uniform in [-1, 1] per coordinate, v and a
standard normal, tau normal x 10. ``--convention world`` traces the WORLD-frame passes of aba
and crba (abaWorldConvention, crbaWorldConvention). ``--cache`` chooses the cache shown for
every joint (default Yaba for aba, f for rnea, Ycrb for crba; oYaba and oYcrb in the WORLD
convention) for each of the first six joints; ``--joint`` narrows
the table to that joint (any joint, by name or id) and then prints the cache's full history
for it. Tables fit the terminal (120 columns when not one); --wide keeps one line per stop.
"""

import argparse
import time

from ..cli import UsageError, add_model_arguments, model_display_name, model_from_args
from ..textwidth import add_wide_argument, fit_lines, output_width


def add(subparsers):
    p = subparsers.add_parser("trace", help="print the pass-by-pass table of rnea, crba or aba",
                              description=__doc__.replace("``", ""),
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("algorithm", choices=("aba", "rnea", "crba"))
    add_model_arguments(p)
    p.add_argument("--joint", metavar="NAME", help="follow this joint (name or id)")
    p.add_argument("--cache", metavar="NAME",
                   help="the cache to follow (default: Yaba, f or Ycrb), e.g. f, a_gf, u, "
                        "joints.UDinv")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the state's seed")
    p.add_argument("--armature", type=float, metavar="X", help="set every dof's armature to X")
    p.add_argument("--fext", action="store_true", help="add random external wrenches")
    p.add_argument("--convention", choices=("local", "world"), default="local",
                   help="the frame aba and crba work in (pinref.Convention; default local)")
    p.add_argument("--plot", metavar="M.png",
                   help="crba only: draw |M| with the joints' blocks outlined (needs matplotlib)")
    add_wide_argument(p)
    p.set_defaults(run=run)


def run(args):
    import numpy as np

    import pinref

    from .states import random_states
    from . import trace

    started = time.perf_counter()
    if args.seed < 0:
        raise UsageError(f"--seed must be an integer >= 0 (NumPy's seeds are), got {args.seed}")
    if args.convention == "world" and args.algorithm == "rnea":
        raise UsageError("--convention world: rnea has no convention (only aba and crba do)")
    if args.plot is not None:
        if args.algorithm != "crba":
            raise UsageError(f"--plot draws the mass matrix M: use it with crba, not "
                             f"{args.algorithm} (pinref trace crba --plot {args.plot})")
        from ..figures import require_plot

        require_plot(args.plot)
    model = model_from_args(args)
    if model.nv == 0:
        raise UsageError(f"model {args.model!r} has no joint with a degree of freedom: there is "
                         "no pass to trace")
    if args.armature is not None:
        model.armature = np.full(model.nv, float(args.armature))
    state = {k: x[0] for k, x in random_states(model, 1, args.seed, args.fext).items()}
    data = model.createData()
    fext = {"fext": state["fext"]} if "fext" in state else {}
    convention = getattr(pinref.Convention, args.convention.upper())
    with trace() as t:
        if args.algorithm == "aba":
            pinref.aba(model, data, state["q"], state["v"], state["tau"], **fext,
                       convention=convention)
        elif args.algorithm == "rnea":
            pinref.rnea(model, data, state["q"], state["v"], state["a"], **fext)
        else:
            pinref.crba(model, data, state["q"], convention=convention)
    traced = t.call().algorithm
    joint = _joint(model, args.joint)
    cache = args.cache
    written = sorted({w.cache for s in t for w in s.writes})
    if cache is not None and cache not in written:
        raise UsageError(f"{traced} writes no cache {cache!r}; it writes "
                         f"{', '.join(written)}")
    name = model_display_name(args)
    width = output_width(args.wide)
    print(fit_lines(t.table(cache, joints=None if joint is None else [joint], model_name=name,
                            pick_hint="pick another joint with --joint NAME (pinref info lists "
                                      "them)", width=width), width))
    if joint is not None:
        print()
        print(fit_lines(t.history(cache or _default(traced), joint).text(), width))
    print()
    if args.plot is not None:
        from ..figures import plot_mass_matrix

        plot_mass_matrix(model, data.M, args.plot, name=name)
        print(f"wrote {args.plot}")
    print(f"pinref trace: {traced} on {name}, {len(t)} stops, seed "
          f"{args.seed}, in {time.perf_counter() - started:.2f} s")
    return 0


def _default(algorithm):
    from .render import DEFAULT_CACHE

    return DEFAULT_CACHE[algorithm]


def _joint(model, name):
    if name is None:
        return None
    if name in model.names[1:]:
        return model.names.index(name)
    if name.isdigit() and 1 <= int(name) < model.njoints:
        return int(name)
    raise UsageError(f"no joint {name!r} in the model; its joints are "
                     f"{', '.join(model.names[1:])}")
