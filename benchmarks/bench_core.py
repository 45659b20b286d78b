"""The core's ratios to pin in one run (issue 14), and its scaling on serial chains.

Ratios (pinref / pin, same run): one state and B states (one batched pinref call against pin in
a Python loop, per state) for rnea, crba, aba, computeRNEADerivatives and computeABADerivatives
on the humanoid (and talos_reduced, panda from example-robot-data when it is installed); the
2,000-step semi-implicit Euler loop ``ddq = aba(q, v, tau); v += dt ddq; q = integrate(q, dt v)``
on the humanoid. ``--scaling``: time of rnea, crba, aba on serial chains of N = 10 .. 160
revolute joints, with and without a free-flyer root, and the exponent of time in N (log-log fit
for N >= 20).

Run: python benchmarks/bench_core.py [--batch 1000] [--scaling] [--robots]
"""

import argparse

import numpy as np
import pinocchio as pin

import pinref
from _common import per_call, print_table, random_states, sample_models

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


def ratios(models, batch, rng):
    rows = []
    for name, (model, pmodel) in models.items():
        data, pdata = model.createData(), pmodel.createData()
        q, v, a = random_states(pmodel, batch, rng)
        q = pinref.normalize(model, q)
        for algo in ALGORITHMS:
            p = _calls(algo, pin, pmodel, pdata, q, v, a)
            r = _calls(algo, pinref, model, data, q, v, a)
            t_pin, t_ref = per_call(lambda: p(0)), per_call(lambda: r(0))
            t_pin_b = per_call(lambda: [p(k) for k in range(batch)], repeat=3) / batch
            t_ref_b = per_call(lambda: r(slice(None)), repeat=3) / batch
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
    t_pin = per_call(lambda: euler_loop(pin, pmodel, pmodel.createData(), *args), repeat=3,
                     min_seconds=0)
    t_ref = per_call(lambda: euler_loop(pinref, model, model.createData(), *args), repeat=3,
                     min_seconds=0)
    print_table(["loop", "pin s", "pinref s", "ratio"],
                [("humanoid, 2000 x (aba + integrate)", t_pin / 1e6, t_ref / 1e6, t_ref / t_pin)])


def chain(n, free_flyer):
    model = pinref.Model()
    parent = 0
    if free_flyer:
        parent = model.addJoint(0, pinref.JointModelFreeFlyer(), pinref.SE3.Identity(), "root")
        model.appendBodyToJoint(parent, pinref.Inertia.Random(), pinref.SE3.Identity())
    kinds = (pinref.JointModelRX, pinref.JointModelRY, pinref.JointModelRZ)
    placement = pinref.SE3(np.eye(3), np.array([0.0, 0.0, 0.1]))
    for k in range(n):
        parent = model.addJoint(parent, kinds[k % 3](), placement, f"j{k}")
        model.appendBodyToJoint(parent, pinref.Inertia.Random(), pinref.SE3.Identity())
    return model


def scaling(rng):
    sizes = (10, 20, 40, 80, 160)
    rows = []
    for free_flyer in (False, True):
        times = {algo: [] for algo in ("rnea", "crba", "aba")}
        for n in sizes:
            model = chain(n, free_flyer)
            pmodel = pinref.to_pinocchio(model)
            data = model.createData()
            q, v, a = random_states(pmodel, 1, rng)
            q = pinref.normalize(model, q[0])
            for algo in times:
                call = _calls(algo, pinref, model, data, [q], [v[0]], [a[0]])
                times[algo].append(per_call(lambda: call(0), repeat=3))
        for algo, ts in times.items():
            slope = np.polyfit(np.log(sizes[1:]), np.log(ts[1:]), 1)[0]
            rows.append((algo, "free-flyer + chain" if free_flyer else "chain",
                         *[f"{t:.0f}" for t in ts], slope))
    print_table(["algorithm", "model", *[f"N={n} us" for n in sizes], "exponent (N>=20)"], rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--scaling", action="store_true", help="only the chain scaling run")
    parser.add_argument("--robots", action="store_true",
                        help="add talos_reduced and panda (example-robot-data)")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    if args.scaling:
        scaling(rng)
        return
    models = {"humanoid": sample_models("humanoid")}
    if args.robots:
        for name in ("talos_reduced", "panda"):
            loaded = robot(name)
            if loaded is not None:
                models[name] = loaded
    ratios(models, args.batch, rng)
    loop_ratio(rng)


if __name__ == "__main__":
    main()
