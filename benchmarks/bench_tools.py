"""The tools: what tracing costs when it is off and on, and how long ``pinref diff`` takes.

1. Tracing off: rnea, crba and aba on one state as shipped (each step runs through the core's
   step hook, ``pinref.algorithms.steps``, a plain call when no hook is active) against the same
   calls with one no-op hook active (what an observer costs before it records anything),
   measured alternately.
2. Tracing on: the same calls inside ``with pinref.trace()`` (single state and B = 1000).
3. ``compare`` (what ``pinref diff`` runs) on the humanoid with 1000 states, in one process and
   on every core (``workers``): pinref's batched traced calls, pin's loop and the comparison,
   per algorithm (summed over the chunks), the wall time, and the peak resident memory of the
   processes (``resource.getrusage``: this process, and the largest worker).

Run: python benchmarks/bench_tools.py [--model humanoid] [--states 1000] [--diff-only]
"""

import argparse
import importlib
import resource
import statistics
import time

import numpy as np
from _common import print_table, time_per_call

import pinref

MODULES = {name: importlib.import_module(f"pinref.algorithms.{name}")
           for name in ("aba", "rnea", "crba")}


class _NoOp:
    """A step hook that does nothing."""

    def enter(self, algorithm, model, data, inputs):
        pass

    def leave(self, shape):
        pass

    def around(self, step, run):
        return run()

    def done(self, step, joints):
        pass


def calls(model, data, q, v, a, tau):
    return {"rnea": lambda: MODULES["rnea"].rnea(model, data, q, v, a),
            "crba": lambda: MODULES["crba"].crba(model, data, q),
            "aba": lambda: MODULES["aba"].aba(model, data, q, v, tau)}


def overhead(model, state, rounds=9):
    """(algorithm, no hook us, no-op hook us, ratio) with alternating measurements."""
    rows = []
    data = model.createData()
    for algo in ("rnea", "crba", "aba"):
        plain, decorated = [], []
        for _ in range(rounds):
            fn = calls(model, data, *state)[algo]
            plain.append(time_per_call(fn, repeat=3, min_seconds=0.05))
            with pinref.algorithms.steps.hooked(_NoOp()):
                decorated.append(time_per_call(fn, repeat=3, min_seconds=0.05))
        t0, t1 = statistics.median(plain), statistics.median(decorated)
        rows.append((algo, t0 * 1e6, t1 * 1e6, t1 / t0 - 1.0))
    return rows


def traced_cost(model, state, batch_state):
    rows = []
    data = model.createData()
    for label, st in (("1 state", state), (f"B = {batch_state[0].shape[0]}", batch_state)):
        for algo, fn in calls(model, data, *st).items():
            t_off = time_per_call(fn, repeat=5)

            def traced(fn=fn):
                with pinref.trace():
                    fn()

            t_on = time_per_call(traced, repeat=5)
            rows.append((label, algo, t_off * 1e3, t_on * 1e3, t_on / t_off))
    return rows


def diff_times(name, states, workers):
    """(rows per algorithm, wall seconds) of ``compare(name, states=states, workers=...)``."""
    from pinref.compare import compare

    t0 = time.perf_counter()
    report = compare(name, states=states, workers=workers)
    total = time.perf_counter() - t0
    rows = [(a.algorithm, a.seconds["pinref"], a.seconds["pin"], a.seconds["compare"],
             "agree" if a.agree else "DIFFER") for a in report.algorithms]
    return rows, total


def peak_mib(who):
    return resource.getrusage(who).ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="humanoid")
    parser.add_argument("--states", type=int, default=1000)
    parser.add_argument("--diff-only", action="store_true", help="only part 3")
    args = parser.parse_args()
    from pinref.model.loading import load_model
    from pinref.tracing.states import random_states

    model = load_model(args.model)
    one = random_states(model, 1, 0)
    many = random_states(model, args.states, 1)
    state = tuple(one[k][0] for k in ("q", "v", "a", "tau"))
    batch_state = tuple(many[k] for k in ("q", "v", "a", "tau"))

    if not args.diff_only:
        print(f"Tracing off, {args.model}, one state (decorators on vs removed; bound: +5 %)\n")
        print_table(["algorithm", "no hook us", "no-op hook us", "overhead"],
                    [(a, t0, t1, f"{100 * r:+.2f} %") for a, t0, t1, r in overhead(model, state)])
        print(f"\nTracing on, {args.model}\n")
        print_table(["states", "algorithm", "off ms", "on ms", "on / off"],
                    traced_cost(model, state, batch_state))
    totals = {}
    for workers in (1, None):
        rows, totals[workers] = diff_times(args.model, args.states, workers)
        label = "1 process" if workers == 1 else "every core"
        print(f"\ncompare({args.model!r}, states={args.states}, workers={workers}) = pinref diff "
              f"--model {args.model} --states {args.states} ({label}): {totals[workers]:.2f} s; "
              f"peak RSS this process {peak_mib(resource.RUSAGE_SELF):.0f} MiB, largest worker "
              f"{peak_mib(resource.RUSAGE_CHILDREN):.0f} MiB\n")
        print_table(["algorithm", "pinref s (batched, traced)", "pin s (loop)", "compare s",
                     "verdict"], rows)
    print(f"\nevery core / 1 process: {totals[None] / totals[1]:.2f} of the wall time")


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
