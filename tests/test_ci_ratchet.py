""".ci/conformance-ratchet: CI fails when a conformance file passes fewer tests than its floor,
when the suite (../shared) or the floor file is missing, and ``--update`` raises floors only.

Oracle: a fake suite script that prints the real runner's per-file lines."""

import os
import subprocess
import sys
from pathlib import Path

RATCHET = Path(__file__).parents[1] / ".ci" / "conformance-ratchet"


def _fake_suite(tmp_path, counts):
    lines = "".join(f"echo 'core      {name:<42} {p:3d} passed {f:3d} failed'\n"
                    for name, (p, f) in counts.items())
    run = tmp_path / "run"
    run.write_text("#!/usr/bin/env bash\n" + lines + "echo 'core: totals'\n")
    return run


def _ratchet(tmp_path, run, *args):
    env = dict(os.environ, CONFORMANCE_RUN=str(run),
               CONFORMANCE_FLOOR=str(tmp_path / "floor.txt"))
    out = subprocess.run([sys.executable, str(RATCHET), *args], env=env, capture_output=True,
                         text=True)
    return out.returncode, out.stdout + out.stderr


def test_update_writes_the_floors_and_a_drop_below_one_fails(tmp_path):
    run = _fake_suite(tmp_path, {"bindings_SE3": (16, 0), "explog": (3, 2)})
    assert _ratchet(tmp_path, run)[0] == 1                       # no floor file yet
    code, out = _ratchet(tmp_path, run, "--update")
    assert code == 0 and "2 floors raised" in out
    assert "core      explog" in (tmp_path / "floor.txt").read_text()
    assert _ratchet(tmp_path, run)[0] == 0
    worse = _fake_suite(tmp_path, {"bindings_SE3": (16, 0), "explog": (2, 3)})
    code, out = _ratchet(tmp_path, worse)
    assert code == 1 and "explog: 2 passed, floor 3" in out
    assert _ratchet(tmp_path, worse, "--update")[0] == 1          # and never lowers a floor
    assert [ln.split()[2] for ln in (tmp_path / "floor.txt").read_text().splitlines()
            if ln.startswith("core") and "explog" in ln] == ["3"]


def test_a_file_missing_from_the_output_fails(tmp_path):
    run = _fake_suite(tmp_path, {"bindings_SE3": (16, 0), "explog": (3, 2)})
    _ratchet(tmp_path, run, "--update")
    code, out = _ratchet(tmp_path, _fake_suite(tmp_path, {"bindings_SE3": (16, 0)}))
    assert code == 1 and "explog: not in the suite's output" in out


def test_a_missing_suite_is_a_clear_failure(tmp_path):
    (tmp_path / "floor.txt").write_text("core explog 3\n")
    code, out = _ratchet(tmp_path, tmp_path / "nowhere" / "run")
    assert code == 1 and "the conformance suite is missing" in out and "../shared" in out
