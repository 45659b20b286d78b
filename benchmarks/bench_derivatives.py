"""computeRNEADerivatives and computeABADerivatives: pinref against Pinocchio 3.8.0, same run.

Single state: one call each. B = 1000: one batched pinref call against pin called in a Python
loop over the same 1000 states (its returned views copied, as a caller keeping them must); both
reported per state.
Goals (issue 8): single state on the humanoid <= 40x pin; B = 1000 per state <= 3x pin's loop.
Run: python benchmarks/bench_derivatives.py [--batch 1000] [--profile]
"""

import argparse
import cProfile
import pstats

import numpy as np
import pinocchio as pin
from _common import MODEL_NAMES, per_call, print_table, random_states, sample_models

import pinref

GOALS = {"single": 40.0, "batch": 3.0}


def _time(algo, model, pmodel, data, pdata, q, v, a, batch):
    """(pin us, pinref us, pin loop us/state, pinref batched us/state) for one algorithm.

    pin's single call is timed as is; in its loop the returned views are copied (a caller keeping
    1000 results must copy them, since the next call overwrites them)."""
    f_pin, f_ref = getattr(pin, algo), getattr(pinref, algo)
    t_pin = per_call(lambda: f_pin(pmodel, pdata, q[0], v[0], a[0]))
    t_ref = per_call(lambda: f_ref(model, data, q[0], v[0], a[0]))

    def pin_loop():
        return [[x.copy() for x in f_pin(pmodel, pdata, q[k], v[k], a[k])] for k in range(batch)]

    t_pin_b = per_call(pin_loop) / batch
    t_ref_b = per_call(lambda: f_ref(model, data, q, v, a)) / batch
    return t_pin, t_ref, t_pin_b, t_ref_b


def _profile(algo, model, data, q, v, a, label, calls):
    f = getattr(pinref, algo)
    profile = cProfile.Profile()
    profile.runcall(lambda: [f(model, data, q, v, a) for _ in range(calls)])
    print(f"\n{algo}, {label}, {calls} calls:")
    pstats.Stats(profile).sort_stats("tottime").print_stats(12)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--profile", action="store_true",
                        help="also print where pinref's time goes on the humanoid")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    for name in MODEL_NAMES:
        model, pmodel = sample_models(name)
        data, pdata = model.createData(), pmodel.createData()
        q, v, a = random_states(pmodel, args.batch, rng)
        for algo in ("computeRNEADerivatives", "computeABADerivatives"):
            t_pin, t_ref, t_pin_b, t_ref_b = _time(algo, model, pmodel, data, pdata, q, v, a,
                                                   args.batch)
            rows.append((name, algo, t_pin, t_ref, t_ref / t_pin, t_pin_b, t_ref_b,
                         t_ref_b / t_pin_b))
    print_table(["model", "algorithm", "pin us", "pinref us", "ratio", "pin loop us/state",
                 f"pinref B={args.batch} us/state", "ratio"], rows)
    print(f"goals: humanoid single state <= {GOALS['single']:g}x pin; "
          f"B = {args.batch} <= {GOALS['batch']:g}x pin's loop")
    if args.profile:
        model, pmodel = sample_models("humanoid")
        data = model.createData()
        q, v, a = random_states(pmodel, args.batch, rng)
        for algo in ("computeRNEADerivatives", "computeABADerivatives"):
            _profile(algo, model, data, q[0], v[0], a[0], "single state", 50)
            _profile(algo, model, data, q, v, a, f"B = {args.batch}", 2)


if __name__ == "__main__":
    main()
