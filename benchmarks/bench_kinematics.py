"""computeJointJacobians and framesForwardKinematics: pinref against Pinocchio 3.8.0.

Single state: one call each. B = 1000: one batched pinref call against pin called in a Python
loop over the same 1000 states; both reported per state, measured in the same run.
Run: python benchmarks/bench_kinematics.py [--batch 1000]
"""

import argparse

import numpy as np
import pinocchio as pin

import pinref
from pinref.compare import to_pinocchio
from _common import print_table, time_per_call

MODELS = {"tutorial": (pinref.buildTutorialModel, None),
          "manipulator": (pinref.buildSampleModelManipulator, pin.buildSampleModelManipulator),
          "humanoid": (pinref.buildSampleModelHumanoid, pin.buildSampleModelHumanoid)}
ALGORITHMS = ("computeJointJacobians", "framesForwardKinematics")


def _models(name):
    build_ref, build_pin = MODELS[name]
    model = build_ref()
    return model, (build_pin() if build_pin else to_pinocchio(model))


def _configurations(pmodel, n):
    lo, hi = -np.ones(pmodel.nq), np.ones(pmodel.nq)
    return np.stack([pin.randomConfiguration(pmodel, lo, hi) for _ in range(n)])


def _us(fn):
    """Median time of one ``fn()`` call, in microseconds."""
    return time_per_call(fn) * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=1000)
    args = parser.parse_args()
    rows = []
    for name in MODELS:
        model, pmodel = _models(name)
        data, pdata = model.createData(), pmodel.createData()
        q = _configurations(pmodel, args.batch)
        for algo in ALGORITHMS:
            pin_fn, ref_fn = getattr(pin, algo), getattr(pinref, algo)
            t_pin = _us(lambda: pin_fn(pmodel, pdata, q[0]))
            t_ref = _us(lambda: ref_fn(model, data, q[0]))
            t_pin_b = _us(lambda: [pin_fn(pmodel, pdata, q[k])
                                   for k in range(args.batch)]) / args.batch
            t_ref_b = _us(lambda: ref_fn(model, data, q)) / args.batch
            rows.append((f"{name} ({model.nq}/{model.nv}, {model.nframes} frames)", algo,
                         t_pin, t_ref, t_ref / t_pin, t_pin_b, t_ref_b, t_ref_b / t_pin_b))
    print(f"pin {pin.__version__}, numpy {np.__version__}")
    print_table(["model (nq/nv)", "algorithm", "pin us", "pinref us", "ratio",
                 "pin loop us/state", f"pinref B={args.batch} us/state", "ratio"], rows)


if __name__ == "__main__":
    main()
