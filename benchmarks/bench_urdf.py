"""URDF loading: pinref against pin, measured in one run.

First tiago_dual.urdf of example-robot-data (211 kB, 102 joints; issue 27 asks for pinref
within 3x of pin), as the least thread CPU time over interleaved rounds (``best_per_call``).
Then a generated robot: a random tree of about 50 movable joints (revolute, continuous,
prismatic, aligned and unaligned axes) plus fixed links, every link with an inertial, a visual
and a collision, as a real robot description has. pinref's time is also split into its phases
(XML, reading the URDF, building the Model) to show where it goes. ``--scaling`` times both
loaders on generated robots of growing size instead (pinref's load is linear in the number of
joints: the time per joint stays flat; issue 13 item 13 measured 2.2 s at 2,000 joints and
39 s at 10,000 before the frame index of ``urdf._Builder``).
Run: python benchmarks/bench_urdf.py [--joints 50] [--scaling 500,2000,10000]
"""

import argparse
import time
import warnings
from importlib.metadata import distribution

import numpy as np
import pinocchio as pin

import pinref
from _common import best_per_call, per_call, print_table
from pinref.model import urdf

_TYPES = ("revolute", "continuous", "prismatic", "revolute", "fixed")
_AXES = ("1 0 0", "0 1 0", "0 0 1", "0 0 -1", "0.48 -0.6 0.64")


def generated_urdf(movable=50, seed=0):
    """A URDF text with ``movable`` movable joints and one fixed joint for every four."""
    rng = np.random.default_rng(seed)
    numbers = lambda n, lo, hi: " ".join(f"{x:.6f}" for x in rng.uniform(lo, hi, n))  # noqa
    links, joints = [], []
    count = movable + movable // 4
    for k in range(count + 1):
        mass, (x, y, z) = rng.uniform(0.2, 3), rng.uniform(0.05, 0.4, 3)  # a box
        Q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        I = Q @ np.diag(mass / 12 * np.array([y * y + z * z, x * x + z * z, x * x + y * y])) @ Q.T
        links.append(
            f'  <link name="link{k}">\n'
            f'    <inertial><origin xyz="{numbers(3, -0.1, 0.1)}" rpy="{numbers(3, -3, 3)}"/>'
            f'<mass value="{mass:.6f}"/><inertia ixx="{I[0, 0]:.6g}" '
            f'ixy="{I[0, 1]:.6g}" ixz="{I[0, 2]:.6g}" iyy="{I[1, 1]:.6g}" iyz="{I[1, 2]:.6g}" '
            f'izz="{I[2, 2]:.6g}"/></inertial>\n'
            f'    <visual><origin xyz="0 0 0.05"/><geometry><mesh filename="package://gen/'
            f'meshes/link{k}.dae"/></geometry><material name="grey"/></visual>\n'
            f'    <collision><geometry><cylinder radius="0.04" length="0.1"/></geometry>'
            f'</collision>\n  </link>')
        if k == 0:
            continue
        kind = _TYPES[k % len(_TYPES)]
        limit = ('<limit lower="-2.5" upper="2.5" effort="80" velocity="3"/>'
                 if kind != "fixed" else "")
        joints.append(
            f'  <joint name="joint{k}" type="{kind}"><parent link="link{rng.integers(0, k)}"/>'
            f'<child link="link{k}"/><origin xyz="{numbers(3, -0.3, 0.3)}" '
            f'rpy="{numbers(3, -3, 3)}"/><axis xyz="{_AXES[k % len(_AXES)]}"/>{limit}'
            '<dynamics damping="0.1" friction="0.05"/></joint>')
    return '<?xml version="1.0"?>\n<robot name="generated">\n' + "\n".join(links + joints) \
        + "\n</robot>\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--joints", type=int, default=50)
    parser.add_argument("--scaling", help="comma-separated joint counts, e.g. 500,2000,10000")
    args = parser.parse_args()
    if args.scaling:
        scaling([int(n) for n in args.scaling.split(",")])
        return
    path = next(str(f.locate()) for f in distribution("example-robot-data").files
                if f.name == "tiago_dual.urdf")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (tiago_dual's odd inertias: one InertiaWarning)
        t_pin, t_ref = best_per_call([lambda: pin.buildModelFromUrdf(path),
                                      lambda: pinref.buildModelFromUrdf(path)])
    print_table(["tiago_dual.urdf", "pin us", "pinref us", "ratio"],
                [("buildModelFromUrdf", t_pin, t_ref, t_ref / t_pin)])
    print()

    xml = generated_urdf(args.joints)
    pmodel, rmodel = pin.buildModelFromXML(xml), pinref.buildModelFromXML(xml)
    assert rmodel.names == list(pmodel.names) and rmodel.nframes == pmodel.nframes
    print(f"generated URDF: {len(xml)} characters, {rmodel.njoints - 1} joints, "
          f"{rmodel.nframes} frames, nq = {rmodel.nq}, nv = {rmodel.nv}")

    t_pin = per_call(lambda: pin.buildModelFromXML(xml))
    t_ref = per_call(lambda: pinref.buildModelFromXML(xml))
    t_ff_pin = per_call(lambda: pin.buildModelFromXML(xml, pin.JointModelFreeFlyer()))
    t_ff_ref = per_call(lambda: pinref.buildModelFromXML(xml, pinref.JointModelFreeFlyer()))
    print_table(["load", "pin us", "pinref us", "ratio"],
                [("buildModelFromXML", t_pin, t_ref, t_ref / t_pin),
                 ("with a free-flyer root", t_ff_pin, t_ff_ref, t_ff_ref / t_ff_pin)])

    root = urdf._parse_xml(xml, "bench", geometry=False)

    def read():  # a reader per load, as _build has
        reader = urdf._Reader("bench")
        urdf._tree(reader, *reader.robot(root)[1:])

    t_xml = per_call(lambda: urdf._parse_xml(xml, "bench", geometry=False))
    t_read = per_call(read)
    print()
    print_table(["pinref phase", "us", "share"],
                [("XML (expat, hardened)", t_xml, t_xml / t_ref),
                 ("reading the URDF (numbers, inertias, tree)", t_read, t_read / t_ref),
                 ("building the Model (addJoint, addFrame, ...)", t_ref - t_xml - t_read,
                  (t_ref - t_xml - t_read) / t_ref)])


def scaling(counts):
    """One load of each size by each library (a load of thousands of joints is long enough to
    time once); the time per joint is flat when the load is linear."""
    rows = []
    for n in counts:
        xml = generated_urdf(n)
        times = []
        for load in (pin.buildModelFromXML, pinref.buildModelFromXML):
            start = time.perf_counter()
            load(xml)
            times.append(time.perf_counter() - start)
        rows.append((n, times[0], times[1], 1e6 * times[1] / n, times[1] / times[0]))
    print_table(["movable joints", "pin s", "pinref s", "pinref us per joint", "ratio"], rows)


if __name__ == "__main__":
    main()
