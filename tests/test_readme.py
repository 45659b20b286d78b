"""README.md tells the truth: its coverage table, its refusals, its links, its quoted output and
its test command (issue 24). Its python block runs in tests/test_docs.py.

The coverage table is read, not restated: every name quoted (in backticks) in the covered column
must exist in pinref, every name in the not-covered column must be missing from pinref or raise
UnsupportedError when called (``UNSUPPORTED_CALLS``, for the names pinref has on purpose).
Moving a name from one column to the other is all it takes when a feature lands.
"""

import re
from pathlib import Path

import numpy as np
import pinocchio
import pytest

import pinref
from pinref.cli import main
from pinref.errors import UnsupportedError

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()

# Where a plain name may live besides the pinref module: the classes whose methods the table
# quotes (SE3.actInv, Inertia.FromBox, RobotWrapper.BuildFromURDF, ...).
CLASSES = (pinref.SE3, pinref.Motion, pinref.Force, pinref.Inertia, pinref.Model, pinref.Data,
           pinref.RobotWrapper, pinref.GeometryModel)


def _tutorial():
    model = pinref.buildTutorialModel()
    return model, model.createData(), pinref.neutral(model), np.zeros(model.nv)


def _columns(model, data, q, v):
    col = q.reshape(-1, 1)
    return pinref.rnea(model, data, col, v.reshape(-1, 1), v.reshape(-1, 1))


# The covered column's idioms (quoted, but no attribute name): each is run.
IDIOMS = {
    "M * x": lambda: pinref.SE3.Random() * pinref.Motion.Random(),
    "~M": lambda: ~pinref.SE3.Random(),
    ".np": lambda: pinref.Motion.Random().np,
    "StdVec_*": lambda: pinref.StdVec_Force(),
    "(n, 1)": lambda: _columns(*_tutorial()),
}


def _robot():
    return pinref.RobotWrapper(pinref.buildTutorialModel())


# The not-covered names pinref has on purpose, each refused with UnsupportedError when called.
def _mimic_call(algorithm, *vectors):
    """``algorithm`` on the sample manipulator with mimic joints, at its neutral q and zeros."""
    model = pinref.buildSampleModelManipulator(mimic=True)
    zeros = [np.zeros(model.nv)] * len(vectors)
    return lambda: algorithm(model, model.createData(), pinref.neutral(model), *zeros)


UNSUPPORTED_CALLS = {
    "initViewer": lambda: _robot().initViewer(),
    "display": lambda: _robot().display(pinref.neutral(_robot().model)),
    "aba": _mimic_call(pinref.aba, "v", "tau"),
    "computeMinverse": _mimic_call(pinref.computeMinverse),
    "computeABADerivatives": _mimic_call(pinref.computeABADerivatives, "v", "tau"),
    "computeCoriolisMatrix": _mimic_call(pinref.computeCoriolisMatrix, "v"),
}


def coverage_table():
    """``[(covered names, not-covered names)]``, one pair per row of the table."""
    lines = README.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("| covered"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        assert len(cells) == 2, line
        rows.append(tuple(re.findall(r"`([^`]+)`", c) for c in cells))
    assert len(rows) >= 5
    return rows


def _exists(name):
    name = name.removeprefix("pin.")
    if "." in name:
        obj = pinref
        for part in name.split("."):
            if not hasattr(obj, part):
                return False
            obj = getattr(obj, part)
        return True
    return hasattr(pinref, name) or any(hasattr(c, name) for c in CLASSES)


COVERED = sorted({n for covered, _ in coverage_table() for n in covered})
NOT_COVERED = sorted({n for _, missing in coverage_table() for n in missing})


@pytest.mark.parametrize("name", COVERED)
def test_every_covered_name_exists(name):
    if name in IDIOMS:
        IDIOMS[name]()
    else:
        assert _exists(name), f"README covers {name!r}, which pinref does not have"


@pytest.mark.parametrize("name", NOT_COVERED)
def test_every_name_not_covered_is_missing_or_unsupported(name):
    if name.startswith("..."):                # "...InParallel": no name ends so
        suffix = name[3:]
        assert not [n for n in dir(pinref) if n.endswith(suffix)]
    elif name in UNSUPPORTED_CALLS:
        with pytest.raises(UnsupportedError):
            UNSUPPORTED_CALLS[name]()
    else:
        assert not _exists(name), (f"README says {name!r} is not covered, but pinref has it: "
                                   "move it to the covered column")


def test_the_check_can_fail():
    assert not _exists("computeCollisions") and _exists("computeMinverse")
    assert _exists("Convention.WORLD") and not _exists("Convention.NOPE")


def _pin_model():
    return pinref.to_pinocchio(pinref.buildTutorialModel())


def _unit_quaternion_case():
    model, data, q, v = _tutorial()
    bad = q.copy()
    bad[3:7] = [0.0, 0.0, 0.0, 2.0]
    pin_model = _pin_model()
    return (lambda: pinref.aba(model, data, bad, v, v),
            lambda: pinocchio.aba(pin_model, pin_model.createData(), bad, v, v),
            lambda: pinref.aba(model, data, pinref.normalize(model, bad), v, v))


def _bounds_case():
    model = pinref.buildTutorialModel()
    pin_model = _pin_model()
    lower, upper = -np.ones(model.nq), np.ones(model.nq)
    return (lambda: pinref.randomConfiguration(model),
            lambda: pinocchio.randomConfiguration(pin_model),
            lambda: pinref.randomConfiguration(model, lower, upper))


def _name_case():
    model, pin_model = pinref.buildTutorialModel(), _pin_model()
    return (lambda: model.getFrameId("nope"),
            lambda: pin_model.getFrameId("nope"),
            lambda: model.existFrame("nope") or model.existJointName("nope") or True)


def _compute_case():
    model, data, q, _ = _tutorial()
    pin_model = _pin_model()

    def fixed():
        pinref.computeJointJacobians(model, data, q)
        return pinref.getJointJacobian(model, data, 1, pinref.ReferenceFrame.LOCAL)

    return (lambda: pinref.getJointJacobian(model, data, 1, pinref.ReferenceFrame.LOCAL),
            lambda: pinocchio.getJointJacobian(pin_model, pin_model.createData(), 1,
                                               pinocchio.ReferenceFrame.LOCAL),
            fixed)


# "Where pinref refuses and pin computes": the error each row names -> (pinref's refused call,
# pin's call of the same, the fix the row gives).
REFUSALS = {
    "NotNormalizedError": _unit_quaternion_case,
    "NonFiniteError": _bounds_case,
    "ModelError": _name_case,
    "NotComputedError": _compute_case,
}


def refusal_rows():
    section = README.split("## Where pinref refuses and pin computes", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][2:]
    return [re.findall(r"`([^`]+)`", line.split(" | ")[1])[0] for line in rows]


def test_the_refusals_section_lists_each_case():
    assert sorted(refusal_rows()) == sorted(REFUSALS)
    section = README.split("## Where pinref refuses and pin computes", 1)[1]
    for fix in ["pinref.normalize(model, q)", "randomConfiguration(model, lower, upper)",
                "model.existFrame(name)", "computeJointJacobians(model, data, q)"]:
        assert fix in section


@pytest.mark.parametrize("error", sorted(REFUSALS))
def test_pin_computes_pinref_refuses_and_the_fix_works(error):
    refused, pin_call, fix = REFUSALS[error]()
    with pytest.raises(getattr(pinref.errors, error)):
        refused()
    pin_call()
    fix()


def test_every_page_of_docs_is_linked():
    pages = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))
    assert "docs/zh/walkthrough.md" in pages
    unlinked = [p for p in pages if f"]({p})" not in README]
    assert not unlinked, f"README links no {unlinked}"


def _normal(text):
    """The output with what varies from run to run cut: the worst error and where, the times,
    the pin version; continuation lines joined to their line."""
    lines = []
    for line in text.rstrip().splitlines():
        if line.startswith(" ") and lines:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    out = []
    for line in lines:
        line = re.sub(r"; worst .*$", "; worst ...", line)
        line = re.sub(r" in [0-9.]+ s \(.*\)$", " in ... s (...)", line)
        out.append(re.sub(r"pin \d+\.\d+\.\d+", "pin X", line))
    return out


def test_the_quoted_diff_output_is_the_commands(capsys):
    quoted = README.split("the rest is checked by `tests/test_readme.py`):\n\n```\n", 1)[1]
    quoted = quoted.split("\n```", 1)[0]
    assert main(["diff"]) == 0
    out = capsys.readouterr().out
    tail = out[out.index("\nrnea  agree") + 1:]
    assert _normal(tail) == _normal(quoted)
    assert max(len(line) for line in quoted.splitlines()) <= 120


def test_the_test_command_is_the_one_ci_runs():
    command = 'pip install -e ".[test]" && python -m pytest -q'
    assert command + "\n" in README
    assert command in (ROOT / ".ci" / "run").read_text()
