"""Spatial algebra: pinref against Pinocchio 3.8.0, on one state and on a batch of B states.

For each operation the table gives
- pinref on one state and pin on one state (microseconds per call), and their ratio;
- pinref on a batch of B states (one call, its time divided by B) and the same pin call in a
  Python loop over B pin objects (the loop's time divided by B), and their ratio.
A ratio above 1 means pinref is slower. All the numbers come from the same run.

Run: ``python benchmarks/bench_spatial.py [--batch B] [--repeat N]``.
"""

import argparse

import numpy as np
import pinocchio as pin
from _common import print_table, time_per_call  # benchmarks/ is on sys.path when run as a script

import pinref

# (statement, the names it uses): M is an SE3, m and n Motions, f a Force, Y an Inertia. The
# statement is timed as written on pinref objects and on pin objects; the pin loop runs it
# over the B pin objects of each name.
OPERATIONS = [("M.act(m)", "M m"), ("M.actInv(m)", "M m"), ("M.act(f)", "M f"),
              ("M.actInv(f)", "M f"), ("m.cross(n)", "m n"), ("m.cross(f)", "m f"),
              ("Y * m", "Y m"), ("M.act(Y)", "M Y"), ("M * M", "M")]


def random_states(B, rng):
    """B random states as pinref batches ``{name: object}`` and as pin lists ``{name: [...]}``."""
    batch = {"M": pinref.SE3.Random((B,), rng=rng), "m": pinref.Motion.Random((B,), rng=rng),
             "n": pinref.Motion.Random((B,), rng=rng), "f": pinref.Force.Random((B,), rng=rng),
             "Y": pinref.Inertia.Random((B,), rng=rng)}
    M, Y = batch["M"], batch["Y"]
    ref = {"M": [pin.SE3(M.rotation[k], M.translation[k]) for k in range(B)],
           "m": [pin.Motion(batch["m"].vector[k]) for k in range(B)],
           "n": [pin.Motion(batch["n"].vector[k]) for k in range(B)],
           "f": [pin.Force(batch["f"].vector[k]) for k in range(B)],
           "Y": [pin.Inertia(float(Y.mass[k]), Y.lever[k], Y.inertia[k]) for k in range(B)]}
    return batch, ref


def loop_statement(stmt, names):
    """``stmt`` in a loop over the pin lists of ``names``: ``for M, m, in zip(Ms, ms): ...``."""
    names = names.split()
    lists = ", ".join(name + "s" for name in names)
    return f"for {', '.join(names)}, in zip({lists}): {stmt}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=1000, help="batch size B (default 1000)")
    parser.add_argument("--repeat", type=int, default=7, help="timed loops per median")
    args = parser.parse_args(argv)
    B, repeat = args.batch, args.repeat
    batch, ref = random_states(B, np.random.default_rng(0))
    one = {name: batch[name][0] for name in ("M", "m", "n", "f")}
    one["Y"] = pinref.Inertia(batch["Y"].mass[0], batch["Y"].lever[0], batch["Y"].inertia[0])
    ref_one = {name: objs[0] for name, objs in ref.items()}
    ref_lists = {name + "s": objs for name, objs in ref.items()}

    rows = []
    for stmt, names in OPERATIONS:
        t_one = time_per_call(stmt, one, repeat)
        t_pin = time_per_call(stmt, ref_one, repeat)
        t_batch = time_per_call(stmt, batch, repeat) / B
        t_loop = time_per_call(loop_statement(stmt, names), ref_lists, repeat) / B
        rows.append([stmt, t_one * 1e6, t_pin * 1e6, t_one / t_pin,
                     t_batch * 1e6, t_loop * 1e6, t_batch / t_loop])

    print(f"pinref {pinref.__version__}, pin {pin.__version__}, numpy {np.__version__}; "
          f"median of {repeat} loops; microseconds")
    print_table(["operation", "pinref 1", "pin 1", "ratio 1",
                 f"pinref B={B} per state", "pin loop per state", f"ratio B={B}"], rows)


if __name__ == "__main__":
    main()
