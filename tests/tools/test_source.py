"""``pinref source`` and its line map (pinref/sourcemap/linemap.json).

The map may not drift: every pinref anchor is found exactly once in its function, every header
scope exactly once in the installed pin 3.8.0 header, every header anchor exactly once in its
block; every stop the trace records for rnea, crba and aba has a block; a changed anchor fails.
"""

import json

import pytest

from pinref import sourcemap
from pinref.cli import main
from pinref.sourcemap import HeadersNotFoundError, SourceMapError, find_headers, load_map, resolve
from pinref.tracing import steps


def test_the_installed_headers_are_pin_3_8_0():
    headers, version = find_headers()
    assert version == load_map()["pinocchio"] == "3.8.0"
    assert (headers / "algorithm" / "aba.hxx").is_file()


@pytest.mark.parametrize("algorithm", sourcemap.ALGORITHMS)
def test_every_anchor_is_found_exactly_once(algorithm):
    blocks = resolve(algorithm, strict=True)
    entries = load_map()["algorithms"][algorithm]
    assert len(blocks) == len(entries)
    for block, entry in zip(blocks, entries):
        assert block.ok
        assert len(block.steps) == len(entry["steps"]) > 0
        for step, (ours, theirs) in zip(block.steps, entry["steps"]):
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
    data["algorithms"]["aba"][1]["steps"][1][1] = "data.liMi[i] = model.jointPlacements[i];"
    monkeypatch.setattr(sourcemap, "load_map", lambda: data)
    blocks = resolve("aba")
    assert not blocks[1].ok and "found 0 times" in blocks[1].steps[1].pin.error
    with pytest.raises(SourceMapError, match="found 0 times"):
        resolve("aba", strict=True)
    data["algorithms"]["aba"][1]["steps"][1][0] = "R_all[rows]"   # not unique in the function
    with pytest.raises(SourceMapError, match="found [2-9] times"):
        resolve("aba", strict=True)


def test_the_listing_puts_both_lines_side_by_side(capsys):
    assert main(["source", "aba"]) == 0
    out = capsys.readouterr().out
    assert "== AbaLocalConventionBackwardStep" in out
    lines = out.splitlines()
    k = next(i for i, line in enumerate(lines)
             if "data.Yaba.matrix[parents] = data.Yaba.matrix[parents] + XIX[children]" in line)
    assert lines[k].split()[:2] == ["pinref", lines[k].split()[1]]
    assert lines[k].split()[1].startswith("aba.py:")
    assert lines[k + 1].split()[0] == "pin" and lines[k + 1].split()[1].startswith("aba.hxx:")
    assert "internal::SE3actOn<Scalar>::run(data.liMi[i], Ia);" in lines[k + 1]
    header = find_headers()[0] / "algorithm" / "aba.hxx"
    number = int(lines[k + 1].split()[1].split(":")[1])
    assert "SE3actOn<Scalar>::run(data.liMi[i], Ia)" in header.read_text().splitlines()[number - 1]


def test_json_and_exit_codes(capsys, tmp_path):
    assert main(["source", "rnea", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["ok"] and doc["pin"] == "3.8.0" and doc["algorithm"] == "rnea"
    step = doc["blocks"][1]["steps"][0]
    assert step["pin"]["file"] == "algorithm/rnea.hxx" and step["pin"]["line"] > 0
    assert main(["source", "aba", "--headers", str(tmp_path)]) == 2
    assert "--headers" in capsys.readouterr().err
    # headers whose text differs: anchors not found, exit 1, the listing says where
    (tmp_path / "algorithm").mkdir()
    for name in ("aba.hxx", "rnea.hxx", "crba.hxx"):
        (tmp_path / "algorithm" / name).write_text("// empty\n")
    assert main(["source", "crba", "--headers", str(tmp_path)]) == 1
    assert "NOT FOUND" in capsys.readouterr().out
    assert main(["source", "nope"]) == 2
    assert main(["source", "--help"]) == 0


def test_missing_headers_are_a_typed_error(monkeypatch, capsys):
    import importlib.metadata
    import importlib.util

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(HeadersNotFoundError, match=r"pip install 'pinref\[pin\]'"):
        find_headers()
    assert issubclass(HeadersNotFoundError, ImportError)
    assert main(["source", "aba"]) == 2
    assert "pinref[pin]" in capsys.readouterr().err
