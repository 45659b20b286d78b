"""computeJointJacobians and framesForwardKinematics: pinref against Pinocchio 3.8.0.

Single state: one call each. B = 1000: one batched pinref call against pin called in a Python
loop over the same 1000 states; both reported per state, measured in the same run.
Run: python benchmarks/bench_kinematics.py [--batch 1000]
"""

import argparse

import numpy as np
import pinocchio as pin

import pinref
from _common import MODEL_NAMES, per_call, print_table, random_states, sample_models

ALGORITHMS = ("computeJointJacobians", "framesForwardKinematics")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=1000)
    args = parser.parse_args()
    rows = []
    for name in MODEL_NAMES:
        model, pmodel = sample_models(name)
        data, pdata = model.createData(), pmodel.createData()
        q = random_states(pmodel, args.batch, np.random.default_rng(0))[0]
        for algo in ALGORITHMS:
            pin_fn, ref_fn = getattr(pin, algo), getattr(pinref, algo)
            t_pin = per_call(lambda: pin_fn(pmodel, pdata, q[0]))
            t_ref = per_call(lambda: ref_fn(model, data, q[0]))
            t_pin_b = per_call(lambda: [pin_fn(pmodel, pdata, q[k])
                                   for k in range(args.batch)]) / args.batch
            t_ref_b = per_call(lambda: ref_fn(model, data, q)) / args.batch
            rows.append((f"{name} ({model.nq}/{model.nv}, {model.nframes} frames)", algo,
                         t_pin, t_ref, t_ref / t_pin, t_pin_b, t_ref_b, t_ref_b / t_pin_b))
    print(f"pin {pin.__version__}, numpy {np.__version__}")
    print_table(["model (nq/nv)", "algorithm", "pin us", "pinref us", "ratio",
                 "pin loop us/state", f"pinref B={args.batch} us/state", "ratio"], rows)


if __name__ == "__main__":
    main()
