"""RNEA, CRBA and ABA: pinref against Pinocchio 3.8.0, measured in the same run.

Single state: one call each. B = 1000: one batched pinref call against pin called in a Python
loop over the same 1000 states; both reported per state. Run: python benchmarks/bench_algorithms.py
"""

import argparse

import numpy as np
from _common import (MODEL_NAMES, algorithm_calls, per_call, print_table, random_states,
                     sample_models)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=1000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    for name in MODEL_NAMES:
        model, pmodel = sample_models(name)
        data, pdata = model.createData(), pmodel.createData()
        q, v, a = random_states(pmodel, args.batch, rng)
        calls = algorithm_calls(model, data, pmodel, pdata, q, v, a)
        for algo, (pin_call, ref_call) in calls.items():
            t_pin = per_call(lambda: pin_call(0))
            t_ref = per_call(lambda: ref_call(0))
            t_pin_b = per_call(lambda: [pin_call(k) for k in range(args.batch)]) / args.batch
            t_ref_b = per_call(lambda: ref_call(slice(None))) / args.batch
            rows.append((name, algo, t_pin, t_ref, t_ref / t_pin, t_pin_b, t_ref_b,
                         t_ref_b / t_pin_b))
    print_table(["model", "algorithm", "pin us", "pinref us", "ratio",
                 f"pin loop us/state", f"pinref B={args.batch} us/state", "ratio"], rows)


if __name__ == "__main__":
    main()
