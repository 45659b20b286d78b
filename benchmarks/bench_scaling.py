"""How the time per call grows with the number of joints: chains of N revolute joints, pinref
against Pinocchio 3.8.0 in the same run, with and without a free-flyer root.

Chains: N bodies of 1 kg, each joint 0.1 m from its parent along z, axes cycling X, Y, Z (so no
two consecutive axes are parallel); with ``--free-flyer`` a free-flyer root joint carries the
first body and the N revolute joints follow. For rnea, crba and aba: one state (pin, pinref),
and B states (pin in a Python loop, pinref in one batched call), both per state. RNEA and ABA
are O(N) and CRBA O(N^2) in arithmetic, but pinref's one-state time is NumPy dispatch, linear in
the number of joint steps for all three (docs/algorithms.md).

Run: python benchmarks/bench_scaling.py [--sizes 10 20 40 80 160] [--batch 100] [--plot s.png]
(about a minute with the defaults). One unrecorded round on the smallest chain warms up the
caches first, so the first size is not a cold measurement. The figure has a legend in each panel,
the line O(N) through pinref's one-state time at the smallest N, and the machine's load average
over the run (wall times: on a loaded machine compare the ratios, not the times).
"""

import argparse
import os

import numpy as np
from _common import algorithm_calls, print_table, time_per_call

import pinref

AXES = (pinref.JointModelRX, pinref.JointModelRY, pinref.JointModelRZ)
ALGORITHMS = ("rnea", "crba", "aba")


def chain(n, free_flyer=False):
    """A pinref chain of n revolute joints (plus a free-flyer root if asked), and pin's copy."""
    model = pinref.Model()
    parent = 0
    body = pinref.Inertia(1.0, np.array([0.0, 0.0, 0.05]), np.diag([0.01, 0.012, 0.008]))
    step = pinref.SE3(np.eye(3), np.array([0.0, 0.0, 0.1]))
    if free_flyer:
        parent = model.addJoint(0, pinref.JointModelFreeFlyer(), pinref.SE3.Identity(),
                                "root_joint")
        model.appendBodyToJoint(parent, body)
    for k in range(n):
        placement = step if parent > 0 else pinref.SE3.Identity()
        parent = model.addJoint(parent, AXES[k % 3](), placement, f"joint{k + 1}")
        model.appendBodyToJoint(parent, body)
    return model, pinref.to_pinocchio(model)


def measure(n, free_flyer, batch, rng):
    """{(algorithm, label): seconds per state} for one chain."""
    model, pmodel = chain(n, free_flyer)
    data, pdata = model.createData(), pmodel.createData()
    bound = np.ones((batch, model.nq))
    q = pinref.randomConfiguration(model, -bound, bound, rng=rng)
    v, a = rng.normal(size=(2, batch, model.nv))
    calls = algorithm_calls(model, data, pmodel, pdata, q, v, a)
    out = {}
    for algo, (pin_call, ref_call) in calls.items():
        out[algo, "pin, one state"] = time_per_call(lambda: pin_call(0), repeat=3)
        out[algo, "pinref, one state"] = time_per_call(lambda: ref_call(0), repeat=3,
                                                       min_seconds=0.01)
        out[algo, f"pin, loop of {batch}"] = time_per_call(
            lambda: [pin_call(k) for k in range(batch)], repeat=3, min_seconds=0.01) / batch
        out[algo, f"pinref, batch of {batch}"] = time_per_call(
            lambda: ref_call(slice(None)), repeat=3, min_seconds=0.01) / batch
    return out


def exponent(results, sizes, free_flyer, algo):
    """The slope of log(time) against log(N) over the sizes N >= 20 (pinref, one state)."""
    ns = [n for n in sizes if n >= 20]
    t = [results[n, free_flyer][algo, "pinref, one state"] for n in ns]
    return float(np.polyfit(np.log(ns), np.log(t), 1)[0]) if len(ns) > 1 else float("nan")


def plot(results, sizes, batch, path, load):
    import matplotlib
    import matplotlib.ticker

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 6.2), constrained_layout=True, sharey=True)
    labels = ["pin, one state", "pinref, one state", f"pin, loop of {batch}",
              f"pinref, batch of {batch}"]
    colors = dict(zip(labels, ("tab:blue", "tab:red", "tab:cyan", "tab:orange")))
    for ax, algo in zip(axes, ALGORITHMS):
        for ff, style in ((False, "-"), (True, "--")):
            for label in labels:
                t = [results[n, ff][algo, label] * 1e6 for n in sizes]
                ax.loglog(sizes, t, style, marker="o", ms=3, color=colors[label],
                          label=f"{label}{', free-flyer root' if ff else ''}")
        t0 = results[sizes[0], False][algo, "pinref, one state"] * 1e6
        ax.loglog(sizes, [t0 * n / sizes[0] for n in sizes], ":", color="gray", lw=1.5,
                  label="O(N) through pinref, one state, at the smallest N")
        ax.set_title(f"{algo} on a chain of N revolute joints")
        ax.legend(fontsize=7, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.14))
        ax.set_xlabel("N (revolute joints)")
        ax.set_xticks(sizes, [str(n) for n in sizes])
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("time per state [us] (median wall time of 3)")
    fig.suptitle(f"load average {load[0]:.2f} -> {load[1]:.2f} over the run on {os.cpu_count()} "
                 "cores: wall times grow with the load, their ratios much less", fontsize=9)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 20, 40, 80, 160])
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--plot", metavar="FILE.png", help="write the scaling figure")
    args = parser.parse_args()
    measure(args.sizes[0], False, args.batch, np.random.default_rng(1))    # warm-up, dropped
    load_before = os.getloadavg()[0]
    rng = np.random.default_rng(0)
    results, rows = {}, []
    for free_flyer in (False, True):
        for n in args.sizes:
            results[n, free_flyer] = r = measure(n, free_flyer, args.batch, rng)
            for algo in ALGORITHMS:
                t = [r[algo, label] * 1e6 for label in (
                    "pin, one state", "pinref, one state", f"pin, loop of {args.batch}",
                    f"pinref, batch of {args.batch}")]
                rows.append((n, "yes" if free_flyer else "no", algo, *t, t[1] / t[0],
                             t[3] / t[2]))
    print_table(["N", "free-flyer", "algorithm", "pin us", "pinref us",
                 "pin loop us/state", f"pinref B={args.batch} us/state", "ratio one",
                 "ratio batched"], rows)
    print()
    print_table(["algorithm", "free-flyer", "exponent of pinref's one-state time in N (N >= 20)"],
                [(algo, "yes" if ff else "no", exponent(results, args.sizes, ff, algo))
                 for ff in (False, True) for algo in ALGORITHMS])
    load = (load_before, os.getloadavg()[0])
    print(f"\nload average (1 min) {load[0]:.2f} before, {load[1]:.2f} after, on "
          f"{os.cpu_count()} cores: absolute times are only comparable at a similar load")
    if args.plot:
        plot(results, args.sizes, args.batch, args.plot, load)
        print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
