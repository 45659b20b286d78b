"""``pinref source`` and its line map (pinref/sourcemap/linemap.json).

The map may not drift: every pinref anchor is found exactly once in its function, every header
scope exactly once in the installed pin's header (3.8.0, the baseline, or 4.1.0: the suite runs
under both), every header anchor exactly once in its block; the baseline header line each step
records is the one 3.8.0's headers have; every stop the trace records for rnea, crba and aba has
a block; a changed anchor fails.
"""

import importlib.metadata
import json
import sys

import numpy as np
import pytest

import pinref as pin
from pinref import sourcemap
from pinref.cli import main
from pinref.sourcemap import (HeadersNotFoundError, SourceMapError, find_headers, load_map,
                              open_headers, pick, resolve)
from pinref.tracing import steps


def _tables(value):
    """Every ``{version: text}`` table in the map's data ``value``."""
    if isinstance(value, dict):
        if all(key[:1].isdigit() for key in value):
            yield value
        else:
            for item in value.values():
                yield from _tables(item)
    elif isinstance(value, list):
        for item in value:
            yield from _tables(item)


def test_the_installed_headers_are_the_installed_pins_and_a_tested_version():
    headers = find_headers()
    assert headers.version == importlib.metadata.version("pin")
    assert headers.version in load_map()["versions"] == ["3.8.0", "4.1.0"]
    assert load_map()["pinocchio"] == "3.8.0"
    source = headers.include / ("src" if headers.version.startswith("4.") else "")
    assert headers.source == source and (source / "algorithm" / "aba.hxx").is_file()


def test_both_layouts_are_found_and_their_version_read(tmp_path):
    for version, source in (("3.8.0", tmp_path / "a"), ("4.1.0", tmp_path / "b" / "src")):
        (source / "algorithm").mkdir(parents=True)
        (source / "algorithm" / "aba.hxx").write_text("// aba\n")
        include = source if version == "3.8.0" else source.parent
        (include / "config.hpp").write_text(f'# define PINOCCHIO_VERSION "{version}"\n')
        found = open_headers(include)
        assert (found.include, found.source, found.version) == (include, source, version)
    (tmp_path / "c").mkdir()
    with pytest.raises(HeadersNotFoundError) as err:
        open_headers(tmp_path / "c")
    for probe in ("c/algorithm/aba.hxx", "c/src/algorithm/aba.hxx"):
        assert probe in str(err.value)


def test_pick_takes_the_newest_entry_not_newer_than_the_version():
    table = {"3.8.0": "old", "4.1.0": "new"}
    assert pick("same", "4.1.0", "3.8.0") == "same"
    assert [pick(table, v, "3.8.0") for v in ("3.8.0", "3.9.1", "4.1.0", "4.2.0", "3.7.0")] == \
        ["old", "old", "new", "new", "old"]
    assert pick(table, None, "3.8.0") == "old"


def test_every_version_table_has_the_baseline_and_only_tested_versions():
    data = load_map()
    tables = list(_tables(data["algorithms"]))
    assert len(tables) >= 4
    for table in tables:
        assert data["pinocchio"] in table and set(table) <= set(data["versions"])
        assert len(set(table.values())) == len(table), f"a table repeats a text: {table}"


def test_the_tables_are_needed_by_the_installed_headers():
    """Where the map has a table, the baseline's text is not what the installed 4.x headers have
    (were it, the table would be a needless copy); under 3.8.0 the entries for 4.1.0 are not what
    3.8.0 has."""
    headers = find_headers()
    data = load_map()
    other = "4.1.0" if headers.version == data["pinocchio"] else data["pinocchio"]
    for algorithm in sourcemap.ALGORITHMS:
        for entry in data["algorithms"][algorithm]:
            header = headers.source / pick(entry["header"], headers.version, data["pinocchio"])
            text = " ".join(header.read_text().split())
            for value in (entry["scope"], *(theirs for _, theirs, _ in entry["steps"])):
                if isinstance(value, dict):
                    assert " ".join(value[other].split()) not in text, value[other]
            if isinstance(entry["header"], dict):
                assert not (headers.source / entry["header"][other]).is_file()


def test_the_baseline_lines_are_3_8_0s():
    """Each step's third item is its header anchor's first line in pin 3.8.0's headers (the line
    docs/walkthrough.md quotes); checked where 3.8.0 is installed (tests/test_docs.py checks the
    walkthrough against these numbers under 4.x)."""
    if find_headers().version != "3.8.0":
        pytest.skip("pin 3.8.0's headers are not installed (this run checks pin "
                    f"{find_headers().version}'s); the pin 3.8.0 run of the suite checks these")
    for algorithm in sourcemap.ALGORITHMS:
        for entry, block in zip(load_map()["algorithms"][algorithm], resolve(algorithm)):
            for (_, _, line), step in zip(entry["steps"], block.steps):
                assert step.pin.first == line, (algorithm, entry["stop"], step.pin.text)


@pytest.mark.parametrize("algorithm", sourcemap.ALGORITHMS)
def test_every_anchor_is_found_exactly_once(algorithm):
    blocks = resolve(algorithm, strict=True)
    entries = load_map()["algorithms"][algorithm]
    assert len(blocks) == len(entries)
    for block, entry in zip(blocks, entries):
        assert block.ok
        assert len(block.steps) == len(entry["steps"]) > 0
        for step, (ours, theirs, _) in zip(block.steps, entry["steps"]):
            theirs = pick(theirs, find_headers().version, load_map()["pinocchio"])
            assert " ".join(ours.split()) in " ".join(step.pinref.text.split())
            assert " ".join(theirs.split()) in " ".join(step.pin.text.split())
            assert block.function.first <= step.pinref.first <= step.pinref.last
            assert block.scope.first <= step.pin.first <= step.pin.last


@pytest.mark.parametrize("algorithm", sourcemap.ALGORITHMS)
def test_every_stop_of_the_trace_has_a_block(algorithm):
    """Each stop the trace records is a block, except pin.crba's make_symmetric (in the Python
    bindings, not in a header) and ABA's f[0].setZero(), one statement of the set-up block."""
    stops = {b["stop"] for b in load_map()["algorithms"][algorithm]}
    expected = set(steps.STEPS[algorithm]) - {steps.CRBA_SYMMETRIC, steps.ABA_INIT}
    assert expected <= stops


def test_a_changed_anchor_is_caught(monkeypatch):
    data = load_map()
    k = next(k for k, b in enumerate(data["algorithms"]["aba"]) if b["function"] == "joint_calc")
    data["algorithms"]["aba"][k]["steps"][1][1] = "data.liMi[i] = model.jointPlacements[i];"
    monkeypatch.setattr(sourcemap, "load_map", lambda: data)
    blocks = resolve("aba")
    assert not blocks[k].ok and "found 0 times" in blocks[k].steps[1].pin.error
    with pytest.raises(SourceMapError, match="found 0 times"):
        resolve("aba", strict=True)
    data["algorithms"]["aba"][k]["steps"][1][0] = "kin.c"   # not unique in the function
    with pytest.raises(SourceMapError, match="found [2-9] times"):
        resolve("aba", strict=True)


def test_the_listing_puts_both_lines_side_by_side(capsys):
    assert main(["source", "aba"]) == 0
    out = capsys.readouterr().out
    headers = find_headers()
    assert out.splitlines()[0] == ("aba: pinref beside Pinocchio "
                                   f"{headers.version}'s headers, statement by statement")
    assert out.splitlines()[1] == f"headers: {headers.include}"
    assert "note:" not in out
    assert "== AbaLocalConventionBackwardStep" in out
    lines = out.splitlines()
    k = next(i for i, line in enumerate(lines)
             if "return (data.Yaba.matrix, X.mT @ Ia @ X), (F, vecmat(pa, X))" in line)
    assert lines[k].split()[:2] == ["pinref", lines[k].split()[1]]
    assert lines[k].split()[1].startswith("aba.py:")
    assert lines[k + 1].split()[0] == "pin" and lines[k + 1].split()[1].startswith("aba.hxx:")
    assert "internal::SE3actOn<Scalar>::run(data.liMi[i], Ia);" in lines[k + 1]
    header = headers.source / "algorithm" / "aba.hxx"
    number = int(lines[k + 1].split()[1].split(":")[1])
    assert "SE3actOn<Scalar>::run(data.liMi[i], Ia)" in header.read_text().splitlines()[number - 1]
    # a statement over several header lines keeps their indentation, relative to its first
    k = next(i for i, line in enumerate(lines)
             if "jointVelocitySelector(data.ddq).noalias() =" in line)
    column = lines[k].index("jmodel.jointVelocitySelector(data.ddq)")
    assert lines[k + 1].index("jdata.Dinv()") == column + 2
    assert lines[k + 2].index("- jdata.UDinv()") == column + 2


def _runs_of(step):
    """Where each step function of aba, rnea and crba first runs: the order of the first line
    event of each (file, function) the map names, over one call of each algorithm."""
    first = {}

    def tracer(frame, event, arg):
        if event == "call":
            key = (frame.f_code.co_filename, frame.f_code.co_name)
            first.setdefault(key, len(first))
        return None

    sys.setprofile(None)
    sys.settrace(tracer)
    try:
        step()
    finally:
        sys.settrace(None)
    return first


@pytest.mark.parametrize("algorithm", sourcemap.ALGORITHMS)
def test_the_blocks_print_in_the_order_the_algorithm_runs_them(algorithm):
    """In a call with fext and in one without, the blocks' functions that run first run in the
    map's order (a function shown in two blocks, joint_calc, counts where it runs); every
    block's function runs in one of them."""
    model = pin.buildSampleModelHumanoid()
    q, v, a, fext = _state(model)
    entries = load_map()["algorithms"][algorithm]
    keys = [(str(sourcemap.ROOT / e["file"]), e["function"].split(".")[-1]) for e in entries]
    seen = set()
    for with_fext in (False, True):
        order = _runs_of(lambda: _CALLS[algorithm](model, model.createData(), q, v, a,
                                                   fext if with_fext else None))
        runs = [order[key] for key in keys if key in order]
        assert runs == sorted(runs), [e["stop"] for e in entries]
        seen |= set(order)
    assert set(keys) <= seen


def _state(model):
    rng = np.random.default_rng(5)
    q = pin.integrate(model, pin.neutral(model), rng.standard_normal(model.nv))
    return (q, rng.standard_normal(model.nv), rng.standard_normal(model.nv),
            rng.standard_normal((model.njoints, 6)))


# each algorithm of the map (fext: None or a wrench per joint; crba takes none)
_CALLS = {
    "rnea": lambda model, data, q, v, a, fext: pin.rnea(model, data, q, v, a, fext),
    "crba": lambda model, data, q, v, a, fext: pin.crba(model, data, q),
    "aba": lambda model, data, q, v, a, fext: pin.aba(model, data, q, v, a, fext),
}


def _executed(call):
    """The (file, line) of every line of pinref's code that runs in ``call()``."""
    root, ran = str(sourcemap.ROOT / "pinref"), set()

    def tracer(frame, event, arg):
        if not frame.f_code.co_filename.startswith(root):
            return None
        if event == "line":
            ran.add((frame.f_code.co_filename, frame.f_lineno))
        return tracer

    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(None)
    return ran


def _unrun(algorithm, model):
    """The steps of ``algorithm``'s map whose pinref lines never run on ``model`` (with and
    without fext; a block about one kind of joint, "joint", counts only for a model that has
    one), and how many steps were checked."""
    q, v, a, fext = _state(model)
    _CALLS[algorithm](model, model.createData(), q, v, a, fext)         # the model's Tree
    ran = _executed(lambda: [_CALLS[algorithm](model, model.createData(), q, v, a, f)
                             for f in (None, fext)])
    kinds = {c.__name__ for j in model.joints for c in type(j).__mro__}
    unrun, checked = [], 0
    for entry, block in zip(sourcemap.load_map()["algorithms"][algorithm], resolve(algorithm)):
        if entry.get("joint", next(iter(kinds))) not in kinds:
            continue
        path = str(sourcemap.ROOT / entry["file"])
        for s in block.steps:
            if not any((path, n) in ran for n in range(s.pinref.first, s.pinref.last + 1)):
                unrun.append(f"{entry['stop']}: {entry['file']}:{s.pinref.first} "
                             f"{s.pinref.text!r}")
            checked += 1
    return unrun, checked


@pytest.mark.parametrize("build", [pin.buildSampleModelManipulator, pin.buildSampleModelHumanoid])
@pytest.mark.parametrize("algorithm", sourcemap.ALGORITHMS)
def test_every_mapped_pinref_line_runs(algorithm, build):
    """``pinref source`` pairs the C++ with lines that run: every pinref statement the map
    shows executes (a line of it, under a line tracer) when the algorithm runs on the model,
    with and without fext; a block about one kind of joint ("joint") counts only for a model
    that has one."""
    unrun, checked = _unrun(algorithm, build())
    assert not unrun, "mapped lines that never run:\n" + "\n".join(unrun)
    assert checked >= 5


def test_a_mapped_line_that_never_runs_is_caught(monkeypatch):
    """A step anchored on a line that runs only when ABA fails (ddq set to NaN) is reported."""
    data = load_map()
    block = next(b for b in data["algorithms"]["aba"] if b["function"] == "_aba")
    block["steps"].append(["data.ddq[...] = np.nan", "data.u = tau;", 509])
    block["function"] = "aba"
    block["steps"] = [block["steps"][-1]]
    monkeypatch.setattr(sourcemap, "load_map", lambda: data)
    unrun, _ = _unrun("aba", pin.buildSampleModelManipulator())
    assert len(unrun) == 1 and "data.ddq[...] = np.nan" in unrun[0]


def test_json_and_exit_codes(capsys, tmp_path):
    assert main(["source", "rnea", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    headers = find_headers()
    assert doc["ok"] and doc["pin"] == headers.version and doc["algorithm"] == "rnea"
    assert doc["headers"] == str(headers.include)
    step = doc["blocks"][1]["steps"][0]
    rnea_hxx = (headers.source / "algorithm" / "rnea.hxx").relative_to(headers.include)
    assert step["pin"]["file"] == rnea_hxx.as_posix() and step["pin"]["line"] > 0
    assert main(["source", "aba", "--headers", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "--headers" in err and f"{tmp_path}/src/algorithm/aba.hxx" in err
    # headers whose text differs: anchors not found, exit 1, the listing says where
    (tmp_path / "algorithm").mkdir()
    for name in ("aba.hxx", "rnea.hxx", "crba.hxx"):
        (tmp_path / "algorithm" / name).write_text("// empty\n")
    assert main(["source", "crba", "--headers", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "NOT FOUND" in out and "Pinocchio (version unknown)'s headers" in out
    assert "note: the map is tested with Pinocchio 3.8.0, 4.1.0" in out
    assert main(["source", "nope"]) == 2
    assert main(["source", "--help"]) == 0


def test_missing_headers_are_a_typed_error(monkeypatch, capsys):
    import importlib.metadata
    import importlib.util

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(HeadersNotFoundError, match=r"pip install 'pinref\[pin\]'") as err:
        find_headers()
    for probe in ("include/pinocchio/algorithm/aba.hxx", "include/pinocchio/src/algorithm/aba.hxx"):
        assert probe in str(err.value)
    assert issubclass(HeadersNotFoundError, ImportError)
    assert main(["source", "aba"]) == 2
    assert "pinref[pin]" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["algorithm/aba.hxx", "config.hpp"])
def test_headers_that_are_not_utf8_exit_2_naming_the_file(bad, tmp_path, capsys):
    """Issue 25 item 11: an aba.hxx (or config.hpp) that is not UTF-8 ended in a
    UnicodeDecodeError traceback."""
    (tmp_path / "algorithm").mkdir()
    (tmp_path / "algorithm" / "aba.hxx").write_text("namespace pinocchio {}\n")
    (tmp_path / "config.hpp").write_text('#define PINOCCHIO_VERSION "3.8.0"\n')
    (tmp_path / bad).write_bytes(b"// \xff\xfe latin-1 \xe9\n")
    assert main(["source", "aba", "--headers", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / bad} is not UTF-8 text (byte ff at offset 3)" in err
    assert "Traceback" not in err
