"""Every ```python block of docs/*.md and README.md runs, and what it prints is what the doc shows.

Conventions (docs/walkthrough.md, "How the blocks are checked"):

- The python blocks of one file run in order in one namespace (a notebook), from the repository
  root, with ``np.set_printoptions(precision=6, suppress=True, linewidth=100)`` set before the
  first one.
- A block that prints must be followed by its output: a ```text block whose first line is
  ``# output``. The printed text is compared with the rest of that block line by line, after
  trailing spaces are cut and ``-0.`` is read as `` 0.`` (the sign of a rounded zero); a line
  ``...`` stands for any number of lines. A block that prints nothing may have no output block.
- A block that must not run starts with ``# not run: <why>`` (used sparingly).

The walkthrough's source references ("> **pinref** ..." / "> **Pinocchio** ..." lines) must be
pairs of the line map pinref/sourcemap/linemap.json, which tests/tools/test_source.py checks
against the code and pin 3.8.0's headers.
"""

import contextlib
import io
import json
import os
import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
OUTPUT_MARK = "# output"
NOT_RUN = "# not run:"
PRINT_OPTIONS = dict(precision=6, suppress=True, linewidth=100)
FENCE = re.compile(r"^```(\w*)\s*$")


def blocks(text):
    """``[(language, first line number, lines)]`` of the fenced blocks of a Markdown text."""
    out, lines, k = [], text.splitlines(), 0
    while k < len(lines):
        m = FENCE.match(lines[k])
        if m is None:
            k += 1
            continue
        end = next((j for j in range(k + 1, len(lines)) if lines[j].rstrip() == "```"), None)
        if end is None:
            raise AssertionError(f"line {k + 1}: a fenced block that is never closed")
        out.append((m.group(1), k + 1, lines[k + 1:end]))
        k = end + 1
    return out


def examples(text):
    """``[(line, code, expected output lines or None, not-run reason or None)]``."""
    found = blocks(text)
    out = []
    for n, (lang, line, body) in enumerate(found):
        if lang != "python":
            continue
        reason = None
        if body and body[0].startswith(NOT_RUN):
            reason = body[0][len(NOT_RUN):].strip()
        expected = None
        if n + 1 < len(found):
            nlang, _, nbody = found[n + 1]
            if nlang == "text" and nbody and nbody[0].strip() == OUTPUT_MARK:
                expected = nbody[1:]
        out.append((line, "\n".join(body), expected, reason))
    return out


def _normal(line):
    return re.sub(r"-0\.(0*)(?!\d*[1-9])", r" 0.\1", line.rstrip()).rstrip()


def matches(expected, actual):
    """``expected`` (lines, ``...`` = any lines) against ``actual`` (lines), both normalised."""
    exp = [_normal(x) for x in expected]
    act = [_normal(x) for x in actual]
    while exp and not exp[-1]:
        exp.pop()
    while act and not act[-1]:
        act.pop()
    parts, part = [], []
    for x in exp:
        if x.strip() == "...":
            parts.append(part)
            part = []
        else:
            part.append(x)
    parts.append(part)
    if len(parts) == 1:
        return exp == act
    first, *middle, last = parts
    if act[:len(first)] != first or (last and act[len(act) - len(last):] != last):
        return False
    k, stop = len(first), len(act) - len(last)
    for part in middle:
        while k + len(part) <= stop and act[k:k + len(part)] != part:
            k += 1
        if k + len(part) > stop:
            return False
        k += len(part)
    return k <= stop


def run_doc(text, name="doc"):
    """Run the examples of one Markdown text; returns the list of failures (strings)."""
    failures = []
    namespace = {"__name__": "__doc__"}
    saved = np.get_printoptions()
    cwd = os.getcwd()
    np.set_printoptions(**PRINT_OPTIONS)
    os.chdir(ROOT)
    try:
        for line, code, expected, reason in examples(text):
            if reason is not None:
                if not reason:
                    failures.append(f"{name}:{line}: '{NOT_RUN}' needs a reason")
                continue
            buffer = io.StringIO()
            try:
                with contextlib.redirect_stdout(buffer):
                    exec(compile(code, f"{name}:{line}", "exec"), namespace)
            except Exception as err:  # noqa: BLE001 - reported as the doc's failure
                failures.append(f"{name}:{line}: the block raised {type(err).__name__}: {err}")
                continue
            printed = buffer.getvalue().splitlines()
            if expected is None:
                if any(x.strip() for x in printed):
                    failures.append(f"{name}:{line}: the block prints but no '```text' block "
                                    f"starting with '{OUTPUT_MARK}' follows it; it printed:\n"
                                    + "\n".join(printed))
            elif not matches(expected, printed):
                failures.append(f"{name}:{line}: the output differs from the doc; it printed:\n"
                                + "\n".join(printed))
    finally:
        os.chdir(cwd)
        np.set_printoptions(**saved)
    return failures


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_every_python_block_runs_and_prints_what_the_doc_shows(path):
    failures = run_doc(path.read_text(), path.relative_to(ROOT).as_posix())
    assert not failures, "\n\n".join(failures)


def test_the_walkthrough_has_checked_blocks():
    found = examples((ROOT / "docs" / "walkthrough.md").read_text())
    assert len(found) >= 15
    assert sum(expected is not None for _, _, expected, _ in found) >= 12
    assert all(reason is None for *_, reason in found)


def test_a_changed_number_fails():
    text = (ROOT / "docs" / "walkthrough.md").read_text()
    lines = text.splitlines()
    # change the first digit of the first output block that holds one
    for k, line in enumerate(lines):
        if line.strip() == OUTPUT_MARK:
            j = next(j for j in range(k + 1, len(lines)) if re.search(r"[1-9]", lines[j]))
            lines[j] = re.sub(r"[1-9]", lambda m: str(int(m.group()) % 9 + 1), lines[j], count=1)
            break
    failures = run_doc("\n".join(lines), "walkthrough (one digit changed)")
    assert len(failures) == 1 and "the output differs" in failures[0]


def test_the_harness_conventions():
    doc = ("```python\nimport numpy as np\nprint(np.array([1.5, -0.0]))\n```\n\n"
           "```text\n# output\n[ 1.5  0. ]\n```\n"
           "```python\nprint(1)\n```\n"
           "```python\n# not run: needs a robot\nraise SystemExit\n```\n"
           "```python\nprint('a'); print('b'); print('c')\n```\n```text\n# output\na\n...\n```\n"
           "```python\n# not run:\n```\n")
    failures = run_doc(doc)
    assert len(failures) == 2
    assert "prints but no" in failures[0] and "needs a reason" in failures[1]
    assert matches(["a", "...", "c"], ["a", "x", "y", "c"])
    assert not matches(["a", "...", "c"], ["a", "x"])
    assert not matches(["1.0"], ["1.1"])
    assert run_doc("```python\n1 / 0\n```\n")[0].endswith("ZeroDivisionError: division by zero")


def _source_pairs(text):
    """The (pinref function, pinref anchor, header, pin anchor) quoted in the walkthrough."""
    pairs, pending = [], None
    for line in text.splitlines():
        m = re.match(r"> \*\*pinref\*\* `([^`]+)` `([^`]+)`: `(.+)`\s*$", line)
        if m:
            pending = m.groups()
            continue
        m = re.match(r"> \*\*Pinocchio\*\* `([^`]+)` `([^`]+)`: `(.+)`\s*$", line)
        if m:
            assert pending is not None, f"a Pinocchio reference without a pinref one: {line}"
            pairs.append((*pending, *m.groups()))
            pending = None
    return pairs


def test_the_walkthrough_quotes_the_line_map():
    data = json.loads((ROOT / "pinref" / "sourcemap" / "linemap.json").read_text())
    known = set()
    for entries in data["algorithms"].values():
        for e in entries:
            for ours, theirs in e["steps"]:
                known.add((Path(e["file"]).name, e["function"], " ".join(ours.split()),
                           Path(e["header"]).name, " ".join(theirs.split())))
    pairs = _source_pairs((ROOT / "docs" / "walkthrough.md").read_text())
    assert len(pairs) >= 12
    for file, function, ours, header, _scope, theirs in pairs:
        key = (file, function, " ".join(ours.split()), header, " ".join(theirs.split()))
        assert key in known, f"not a pair of pinref/sourcemap/linemap.json: {key}"
