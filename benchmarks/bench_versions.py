"""Two versions of pinref in one process: the cost of a change, one state and B states.

The installed pinref (the tree under test) and an older one, loaded under another package name
from ``OLD``, a directory holding a ``pinref`` package (a git worktree of the older commit:
``git worktree add /tmp/old d443530``), time rnea, crba, aba and the derivatives on the same
models and states, interleaved (``_common.best_per_call``). One process sees one machine load,
so their ratio moves by about 1 %, where two runs of bench_core.py, each against pin, moved
by 10 % on a shared host. The loop is the 2,000-step ``aba`` + ``integrate`` of bench_core.

Run: python benchmarks/bench_versions.py OLD [--batch 1000] [--rounds 21]
"""

import argparse
import importlib
import os
import sys
import tempfile
import time

import numpy as np

import pinref
from _common import best_per_call, print_table

ALGORITHMS = ("rnea", "crba", "aba", "computeRNEADerivatives", "computeABADerivatives")


def load_old(tree):
    """The ``pinref`` package of ``tree``, imported as ``pinref_old`` (its imports are
    relative, so it runs beside the installed one)."""
    home = tempfile.mkdtemp()
    os.symlink(os.path.join(os.path.abspath(tree), "pinref"), os.path.join(home, "pinref_old"))
    sys.path.insert(0, home)
    return importlib.import_module("pinref_old")


def models(lib):
    """The humanoid, and talos and panda from example-robot-data's URDFs when installed."""
    out = {"humanoid": lib.buildSampleModelHumanoid()}
    try:
        from example_robot_data.robots_loader import ROBOTS
    except ImportError:
        return out
    for name in ("talos", "panda"):
        loader = ROBOTS[name]()
        root = (lib.JointModelFreeFlyer(),) if loader.free_flyer else ()
        out[name] = lib.buildModelFromUrdf(loader.df_path, *root)
    return out


def calls(lib, model, batch):
    """One call of each algorithm on one state (or a batch) of ``model``."""
    data = model.createData()
    shape = (batch,) if batch else ()
    rng = np.random.default_rng(0)
    q = lib.normalize(model, lib.randomConfiguration(model, -np.ones(shape + (model.nq,)),
                                                     np.ones(shape + (model.nq,))))
    v, a = rng.standard_normal((2,) + shape + (model.nv,))
    return [_call(getattr(lib, name), model, data, q, *(() if name == "crba" else (v, a)))
            for name in ALGORITHMS]


def _call(f, *args):
    return lambda: f(*args)


def loop_seconds(lib):
    model = lib.buildSampleModelHumanoid()
    data = model.createData()
    q, v, tau, dt = lib.neutral(model), np.zeros(model.nv), np.zeros(model.nv), 1e-3
    t = time.thread_time()
    for _ in range(2000):
        v = v + dt * lib.aba(model, data, q, v, tau)
        q = lib.integrate(model, q, dt * v)
    return time.thread_time() - t


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="a directory holding the older pinref package")
    parser.add_argument("--batch", type=int, default=0, help="B states per call (default: one)")
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args()
    old = load_old(args.old)
    rows, old_models = [], models(old)
    for name, m_new in models(pinref).items():
        m_old = old_models[name]
        pairs = [f for pair in zip(calls(old, m_old, args.batch), calls(pinref, m_new, args.batch))
                 for f in pair]
        times = best_per_call(pairs, rounds=args.rounds)
        for k, algorithm in enumerate(ALGORITHMS):
            before, after = times[2 * k], times[2 * k + 1]
            rows.append((name, algorithm, before, after, f"{100 * (after / before - 1):+.1f} %"))
    if not args.batch:
        loops = [float("inf")] * 2
        for _ in range(3):
            for k, lib in enumerate((old, pinref)):
                loops[k] = min(loops[k], loop_seconds(lib))
        rows.append(("humanoid", "2,000 x (aba + integrate), s", *loops,
                     f"{100 * (loops[1] / loops[0] - 1):+.1f} %"))
    print_table(("model", "algorithm", "before us", "after us", "change"), rows)


if __name__ == "__main__":
    main()
