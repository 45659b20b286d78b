"""The ``pinref`` command (also ``python -m pinref``).

``pinref info [--model NAME]`` prints a model's index table: each joint's name, type, parent,
idx_q, nq, idx_v and nv, the first thing the tutorials ask a user to write down.
"""

import argparse
import sys

from . import __version__
from .model import buildSampleModelHumanoid, buildSampleModelManipulator, buildTutorialModel

MODELS = {"tutorial": buildTutorialModel, "manipulator": buildSampleModelManipulator,
          "humanoid": buildSampleModelHumanoid}


def index_table(model):
    """The index table of ``model`` as text lines."""
    rows = [("id", "name", "type", "parent", "idx_q", "nq", "idx_v", "nv")]
    for i in range(1, model.njoints):
        rows.append((str(i), model.names[i], model.joints[i].shortname(),
                     model.names[model.parents[i]], str(model.idx_qs[i]), str(model.nqs[i]),
                     str(model.idx_vs[i]), str(model.nvs[i])))
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.append(f"nq = {model.nq}, nv = {model.nv}, njoints = {model.njoints}")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog="pinref", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"pinref {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    info = sub.add_parser("info", help="print a model's index table")
    info.add_argument("--model", default="tutorial", choices=sorted(MODELS))
    args = parser.parse_args(argv)
    if args.command == "info":
        print("\n".join(index_table(MODELS[args.model]())))
    return 0


