"""Every ```python block of docs/ (docs/zh too) and README.md runs, and what it prints is what
the doc shows.

Conventions (docs/walkthrough.md, "How the blocks are checked"):

- The python blocks of one file run in order in one namespace (a notebook), from the repository
  root, with ``np.set_printoptions(precision=6, suppress=True, linewidth=100)`` set before the
  first one.
- A block that prints must be followed by its output: a ```text block whose first line is
  ``# output``. The printed text is compared with the rest of that block line by line, after
  trailing spaces are cut and ``-0.`` is read as `` 0.`` (the sign of a rounded zero); a line
  ``...`` stands for any number of lines. A block that prints nothing may have no output block.
- A block that must not run starts with ``# not run: <why>`` (used sparingly).

The walkthrough's source references, a "> **pinref** [`file.py:N`](link) `function`:
`statement`" line and a "> **Pinocchio** `header.hxx:N` `scope`: `statement`" line, must be a
pair of the line map pinref/sourcemap/linemap.json (which tests/tools/test_source.py checks
against the code and the installed pin's headers), and their line numbers N must be the ones
``pinref.sourcemap.resolve`` finds today: pinref's in today's code, Pinocchio's in pin 3.8.0's
headers (the baseline; under pin 4.x, the 3.8.0 lines the map records, which the pin 3.8.0 run
checks against 3.8.0's headers). When pinref's algorithms move (or the map changes),

    python tests/test_docs.py --update-line-numbers

rewrites the numbers of docs/walkthrough.md from ``resolve`` (and nothing else).
"""

import contextlib
import io
import os
import re
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
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


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
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


WALKTHROUGH = ROOT / "docs" / "walkthrough.md"
# a pinref reference is a link; the bare form is matched so that the test can refuse it
PINREF_REF = re.compile(r"^> \*\*pinref\*\* (?:\[`(?P<file>[^`:]+)(?::\d+)?`\]\([^)]*\)"
                        r"|`(?P<bare>[^`:]+)(?::\d+)?`) `(?P<function>[^`]+)`: "
                        r"`(?P<statement>.+)`\s*$")
PIN_REF = re.compile(r"^> \*\*Pinocchio\*\* `(?P<file>[^`:]+)(?::\d+)?` `(?P<scope>[^`]+)`: "
                     r"`(?P<statement>.+)`\s*$")


def _collapsed(text):
    return " ".join(text.split())


def _source_pairs(text):
    """The quoted (pinref, Pinocchio) pairs of a page: ``[(pinref line index, its match, pin line
    index, its match)]``."""
    pairs, pending = [], None
    for k, line in enumerate(text.splitlines()):
        m = PINREF_REF.match(line)
        if m:
            pending = (k, m)
            continue
        m = PIN_REF.match(line)
        if m:
            assert pending is not None, f"a Pinocchio reference without a pinref one: {line}"
            pairs.append((*pending, k, m))
            pending = None
    return pairs


def _pair_key(ours, theirs):
    return (ours["file"] or ours["bare"], ours["function"], _collapsed(ours["statement"]),
            theirs["file"], _collapsed(theirs["statement"]))


def resolved_steps():
    """``{(pinref file name, function, pinref anchor, header name, header anchor): (pinref path,
    pinref line, header line)}`` for every step of the line map: pinref's side located by
    ``pinref.sourcemap.resolve`` in today's pinref, the header's side Pinocchio 3.8.0's (the
    baseline the walkthrough quotes): resolved in its headers when 3.8.0 is installed (and equal
    to the line the map records), else the line the map records for 3.8.0."""
    from pinref.sourcemap import ALGORITHMS, find_headers, load_map, pick, resolve

    data = load_map()
    baseline = data["pinocchio"]
    installed = find_headers().version
    found = {}
    for algorithm in ALGORITHMS:
        entries = data["algorithms"][algorithm]
        for entry, block in zip(entries, resolve(algorithm, strict=True)):
            header = Path(pick(entry["header"], baseline, baseline)).name
            for (ours, theirs, line), step in zip(entry["steps"], block.steps):
                if installed == baseline:
                    assert step.pin.first == line, (entry["stop"], theirs, step.pin.first, line)
                key = (Path(entry["file"]).name, entry["function"], _collapsed(ours), header,
                       _collapsed(pick(theirs, baseline, baseline)))
                found[key] = (entry["file"], step.pinref.first, line)
    return found


def with_line_numbers(text):
    """The page with every source reference's line numbers set from ``resolved_steps``; a
    reference that is no pair of the line map raises AssertionError."""
    steps = resolved_steps()
    lines = text.splitlines()
    for k, ours, j, theirs in _source_pairs(text):
        key = _pair_key(ours, theirs)
        assert key in steps, f"line {k + 1}: not a pair of pinref/sourcemap/linemap.json: {key}"
        path, line, header_line = steps[key]
        lines[k] = (f"> **pinref** [`{key[0]}:{line}`](../{path}#L{line}) `{key[1]}`: "
                    f"`{ours['statement']}`")
        lines[j] = (f"> **Pinocchio** `{key[3]}:{header_line}` `{theirs['scope']}`: "
                    f"`{theirs['statement']}`")
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


def test_the_walkthrough_quotes_the_line_map_with_todays_line_numbers():
    text = WALKTHROUGH.read_text()
    pairs = _source_pairs(text)
    assert len(pairs) >= 12
    assert all(ours["file"] for _, ours, _, _ in pairs), "every pinref reference is a link"
    expected = with_line_numbers(text)
    stale = [f"line {k + 1}:\n  doc:      {a}\n  resolve:  {b}" for k, (a, b) in
             enumerate(zip(text.splitlines(), expected.splitlines())) if a != b]
    assert not stale, ("the line numbers of docs/walkthrough.md differ from "
                       "pinref.sourcemap.resolve(); run python tests/test_docs.py "
                       "--update-line-numbers\n" + "\n".join(stale))


def test_a_stale_line_number_is_caught():
    text = WALKTHROUGH.read_text()
    k, ours, j, theirs = _source_pairs(text)[0]
    lines = text.splitlines()
    lines[j] = lines[j].replace(f"`{theirs['file']}:", f"`{theirs['file']}:1", 1)
    assert with_line_numbers("\n".join(lines)) != "\n".join(lines)
    assert with_line_numbers("\n".join(lines)).splitlines()[j] == text.splitlines()[j]


if __name__ == "__main__":
    if sys.argv[1:] != ["--update-line-numbers"]:
        sys.exit("usage: python tests/test_docs.py --update-line-numbers")
    text = WALKTHROUGH.read_text()
    updated = with_line_numbers(text)
    WALKTHROUGH.write_text(updated)
    changed = sum(a != b for a, b in zip(text.splitlines(), updated.splitlines()))
    print(f"{WALKTHROUGH.relative_to(ROOT)}: {changed} reference lines rewritten")
