"""The core's ratios to pin in one run (issue 14).

Ratios (pinref / pin, same run): one state and B states (one batched pinref call against pin in
a Python loop, per state) for rnea, crba, aba, computeRNEADerivatives and computeABADerivatives
on the humanoid (and talos, panda and talos with every joint axis negated, from
example-robot-data when it is installed); the 2,000-step semi-implicit Euler loop
``ddq = aba(q, v, tau); v += dt ddq; q = integrate(q, dt v)`` on the humanoid. The scaling on serial chains of N = 10 .. 160 (and the exponent of time in N)
is benchmarks/bench_scaling.py.

Times are the least thread CPU time over interleaved rounds (``_common.best_per_call``): on a
shared machine the medians of wall time moved these ratios by 30 % from run to run.

Run: python benchmarks/bench_core.py [--batch 1000] [--robots]
"""

import argparse
import re

import numpy as np
import pinocchio as pin

import pinref
from _common import best_per_call, print_table, random_states, sample_models

ALGORITHMS = ("rnea", "crba", "aba", "computeRNEADerivatives", "computeABADerivatives")


def _calls(algo, lib, model, data, q, v, a):
    f = getattr(lib, algo)
    if algo == "crba":
        return lambda k: f(model, data, q[k])
    return lambda k: f(model, data, q[k], v[k], a[k])


def robot(name):
    """(pinref model, pin model) of an example-robot-data robot, or None if not installed."""
    try:
        import example_robot_data as erd
    except ImportError:
        return None
    pmodel = erd.load(name).model
    return pinref.from_pinocchio(pmodel), pmodel


def flipped(name):
    """(pinref model, pin model) of an example-robot-data robot with every URDF joint axis
    negated, loaded by pin (``axis xyz="0 0 1"`` -> ``"0 0 -1"``: RevoluteUnaligned joints about
    -e_k, in pin and in pinref), or None if not installed. The same tree and inertias as
    ``robot(name)``."""
    try:
        from example_robot_data.robots_loader import ROBOTS
    except ImportError:
        return None
    loader = ROBOTS[name]()
    with open(loader.df_path) as f:
        text = re.sub(r'(<axis\s+xyz=")([^"]*)"', lambda m: m.group(1) + " ".join(
            repr(-float(x) + 0.0) for x in m.group(2).split()) + '"', f.read())
    root = (pin.JointModelFreeFlyer(),) if loader.free_flyer else ()
    pmodel = pin.buildModelFromXML(text, *root)
    return pinref.from_pinocchio(pmodel), pmodel


def ratios(models, batch, rng):
    rows = []
    for name, (model, pmodel) in models.items():
        data, pdata = model.createData(), pmodel.createData()
        q, v, a = random_states(pmodel, batch, rng)
        q = pinref.normalize(model, q)
        for algo in ALGORITHMS:
            p = _calls(algo, pin, pmodel, pdata, q, v, a)
            r = _calls(algo, pinref, model, data, q, v, a)
            t_pin, t_ref = best_per_call([lambda: p(0), lambda: r(0)])
            t_pin_b, t_ref_b = (t / batch for t in best_per_call(
                [lambda: [p(k) for k in range(batch)], lambda: r(slice(None))], rounds=5))
            rows.append((name, algo, t_pin, t_ref, t_ref / t_pin, t_ref_b / t_pin_b))
    print_table(["model", "algorithm", "pin us", "pinref us", "ratio", f"B={batch} ratio"], rows)


def euler_loop(lib, model, data, q, v, tau, steps=2000, dt=1e-3):
    for _ in range(steps):
        ddq = lib.aba(model, data, q, v, tau)
        v = v + dt * ddq
        q = lib.integrate(model, q, dt * v)
    return q


def loop_ratio(rng):
    model, pmodel = sample_models("humanoid")
    q, v, a = random_states(pmodel, 1, rng)
    q = pinref.normalize(model, q[0])
    args = (q, 0.1 * v[0], a[0])
    t_pin, t_ref = best_per_call([lambda: euler_loop(pin, pmodel, pmodel.createData(), *args),
                                  lambda: euler_loop(pinref, model, model.createData(), *args)],
                                 rounds=3, min_seconds=0)
    print_table(["loop", "pin s", "pinref s", "ratio"],
                [("humanoid, 2000 x (aba + integrate)", t_pin / 1e6, t_ref / 1e6, t_ref / t_pin)])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--robots", action="store_true",
                        help="add talos, panda and talos with every axis negated "
                             "(example-robot-data)")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    models = {"humanoid": sample_models("humanoid")}
    if args.robots:
        for name in ("talos", "panda"):
            loaded = robot(name)
            if loaded is not None:
                models[name] = loaded
        loaded = flipped("talos")
        if loaded is not None:
            models["talos, axes negated"] = loaded
    ratios(models, args.batch, rng)
    loop_ratio(rng)


if __name__ == "__main__":
    main()
