"""The algorithms of issue 15: pinref against Pinocchio 3.8.0, same run, with aba as the yardstick.

Single state: one call each. B = 1000: one batched pinref call against pin called in a Python
loop over the same 1000 states (its returned arrays are owned copies already); both per state.
Aim (issue 15): each algorithm's ratios within 2x of the ratios aba reaches in the same run.
Run: python benchmarks/bench_next.py [--batch 1000] [--only NAME ...]
"""

import argparse

import numpy as np
import pinocchio as pin
from _common import MODEL_NAMES, per_call, print_table, random_states, sample_models

import pinref


def _calls(lib, model, data, q, v, a):
    """``{name: call(s)}`` for the state(s) ``q[s], v[s], a[s]`` with library ``lib``; the
    kinematic regressor reads the oMi of the forwardKinematics run before timing. One block
    per item of the issue."""
    last = model.njoints - 1
    J = lib.computeJointJacobian(model, model.createData(), q[0], last)[:3]
    gamma = np.zeros(3)
    return {
        "aba": lambda s: lib.aba(model, data, q[s], v[s], a[s]),
        # --- Convention.WORLD ---
        "aba WORLD":
            lambda s: lib.aba(model, data, q[s], v[s], a[s], convention=lib.Convention.WORLD),
        "crba WORLD": lambda s: lib.crba(model, data, q[s], convention=lib.Convention.WORLD),
        # --- computeMinverse ---
        "computeMinverse": lambda s: lib.computeMinverse(model, data, q[s]),
        # --- Coriolis, computeAllTerms ---
        "computeCoriolisMatrix": lambda s: lib.computeCoriolisMatrix(model, data, q[s], v[s]),
        "computeAllTerms": lambda s: lib.computeAllTerms(model, data, q[s], v[s]),
        # --- kinematic derivatives --- (the getter after its compute call, both timed)
        "computeForwardKinematicsDerivatives":
            lambda s: lib.computeForwardKinematicsDerivatives(model, data, q[s], v[s], a[s]),
        "computeForwardKinematicsDerivatives+getJointAccelerationDerivatives":
            lambda s: (lib.computeForwardKinematicsDerivatives(model, data, q[s], v[s], a[s]),
                       lib.getJointAccelerationDerivatives(model, data, last, lib.LOCAL)),
        # --- regressors ---
        "computeJointTorqueRegressor":
            lambda s: lib.computeJointTorqueRegressor(model, data, q[s], v[s], a[s]),
        "computeStaticRegressor": lambda s: lib.computeStaticRegressor(model, data, q[s]),
        "computeJointKinematicRegressor":
            lambda s: lib.computeJointKinematicRegressor(model, data, last, lib.LOCAL),
        # --- centroidal ---
        "ccrba": lambda s: lib.ccrba(model, data, q[s], v[s]),
        "dccrba": lambda s: lib.dccrba(model, data, q[s], v[s]),
        "computeCentroidalMomentumTimeVariation":
            lambda s: lib.computeCentroidalMomentumTimeVariation(model, data, q[s], v[s], a[s]),
        "computeCentroidalDynamicsDerivatives":
            lambda s: lib.computeCentroidalDynamicsDerivatives(model, data, q[s], v[s], a[s]),
        # --- contact dynamics --- (a point contact: the linear rows of the last joint's Jacobian)
        "forwardDynamics": lambda s: lib.forwardDynamics(model, data, q[s], v[s], a[s], J, gamma),
        "impulseDynamics": lambda s: lib.impulseDynamics(model, data, q[s], v[s], J),
        "computeKKTContactDynamicMatrixInverse":
            lambda s: lib.computeKKTContactDynamicMatrixInverse(model, data, q[s], J),
    }


def _time(f_pin, f_ref, batch, states):
    """(pin us, pinref us, pin loop us/state, pinref batched us/state); the single states first,
    then ``forwardKinematics(*states)`` gives pinref's Data the batch's oMi."""
    t_pin, t_ref = per_call(lambda: f_pin(0)), per_call(lambda: f_ref(0))
    pinref.forwardKinematics(*states)
    t_pin_b = per_call(lambda: [f_pin(k) for k in range(batch)]) / batch
    t_ref_b = per_call(lambda: f_ref(slice(None))) / batch
    return t_pin, t_ref, t_pin_b, t_ref_b


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--only", nargs="*", default=None,
                        help="time only these algorithms (and aba, the yardstick)")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    for name in MODEL_NAMES:
        model, pmodel = sample_models(name)
        data, pdata = model.createData(), pmodel.createData()
        q, v, a = random_states(pmodel, args.batch, rng)
        pin_calls = _calls(pin, pmodel, pdata, q, v, a)
        ref_calls = _calls(pinref, model, data, q, v, a)
        for algo in pin_calls:
            if args.only is not None and algo not in ("aba", *args.only):
                continue
            pin.forwardKinematics(pmodel, pdata, q[0])
            pinref.forwardKinematics(model, data, q[0])
            t_pin, t_ref, t_pin_b, t_ref_b = _time(pin_calls[algo], ref_calls[algo], args.batch,
                                                   (model, data, q))
            rows.append((name, algo, t_pin, t_ref, t_ref / t_pin, t_pin_b, t_ref_b,
                         t_ref_b / t_pin_b))
    print_table(["model", "algorithm", "pin us", "pinref us", "ratio", "pin loop us/state",
                 f"pinref B={args.batch} us/state", "ratio"], rows)
    print("aim: each algorithm's ratios within 2x of aba's on the same model")


if __name__ == "__main__":
    main()
