"""The kinematics-side algorithms: pinref against Pinocchio 3.8.0.

forwardKinematics, framesForwardKinematics, computeJointJacobians, computeFrameJacobian (the
model's last frame, LOCAL), centerOfMass, jacobianCenterOfMass and computeKineticEnergy, each
from q (and v). Single state: one call each. B = 1000: one batched pinref call against pin
called in a Python loop over the same 1000 states; both reported per state, measured in the
same run.
Run: python benchmarks/bench_kinematics.py [--batch 1000] [--models humanoid ...]
"""

import argparse

import numpy as np
import pinocchio as pin

import pinref
from _common import MODEL_NAMES, per_call, print_table, random_states, sample_models

ALGORITHMS = ("forwardKinematics", "framesForwardKinematics", "computeJointJacobians",
              "computeFrameJacobian", "centerOfMass", "jacobianCenterOfMass",
              "computeKineticEnergy")


def _call(algo, lib, model, data, q, v):
    """``call(s)``: ``algo`` on the states ``q[s]`` (and ``v[s]``)."""
    f = getattr(lib, algo)
    if algo == "computeFrameJacobian":
        frame = model.nframes - 1
        return lambda s: f(model, data, q[s], frame, lib.ReferenceFrame.LOCAL)
    if algo == "computeKineticEnergy":
        return lambda s: f(model, data, q[s], v[s])
    return lambda s: f(model, data, q[s])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--models", nargs="+", default=MODEL_NAMES, choices=MODEL_NAMES)
    args = parser.parse_args()
    rows = []
    for name in args.models:
        model, pmodel = sample_models(name)
        data, pdata = model.createData(), pmodel.createData()
        q, v, _ = random_states(pmodel, args.batch, np.random.default_rng(0))
        for algo in ALGORITHMS:
            p, r = _call(algo, pin, pmodel, pdata, q, v), _call(algo, pinref, model, data, q, v)
            t_pin, t_ref = per_call(lambda: p(0)), per_call(lambda: r(0))
            t_pin_b = per_call(lambda: [p(k) for k in range(args.batch)], repeat=3) / args.batch
            t_ref_b = per_call(lambda: r(slice(None)), repeat=3) / args.batch
            rows.append((f"{name} ({model.nq}/{model.nv}, {model.nframes} frames)", algo,
                         t_pin, t_ref, t_ref / t_pin, t_pin_b, t_ref_b, t_ref_b / t_pin_b))
    print(f"pin {pin.__version__}, numpy {np.__version__}")
    print_table(["model (nq/nv)", "algorithm", "pin us", "pinref us", "ratio",
                 "pin loop us/state", f"pinref B={args.batch} us/state", "ratio"], rows)


if __name__ == "__main__":
    main()
