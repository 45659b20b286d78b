"""Failure snapshots: what a failing check writes, and a replay that refuses what it cannot trust.

Oracle: a snapshot replayed on the unmutated backend reproduces the recorded state exactly
(same arrays, same model checksum) and the check then passes; replayed with the mistake
planted again it fails with the recorded residual. Every way a snapshot can be wrong (record
missing or of another format, file changed, a pickled object, missing / extra / mistyped /
misshapen / non-finite arrays, another model) is refused with a message naming it, before any
check runs, and a pickled object is never unpickled.
"""

import json
import pickle
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import pinref
from pinref.checking import (
    STATE_FIELDS,
    SnapshotError,
    check,
    load_snapshot,
    make_backend,
    make_states,
    model_checksum,
)
from pinref.checking.backends import pin_version
from pinref.checking.drills import SymmetrisedMassMatrix, aba_without_Ia_c
from pinref.checking.snapshots import FORMAT, model_numbers, read_record
from pinref.checking.suite import replay
from pinref.cli import main

SOURCE = {"model": "tutorial", "free_flyer": False}


def failing_run(tmp_path, checks=None):
    """A run of the tutorial model with M + M.T planted: four checks fail and write."""
    model = pinref.buildTutorialModel()
    backend = SymmetrisedMassMatrix(make_backend("pinref", model))
    return check(model, n_states=5, seed=3, backend=backend, checks=checks,
                 snapshot_dir=tmp_path / "snaps", source=SOURCE, command=["pinref", "check"])


@pytest.fixture
def snapshot(tmp_path):
    report = failing_run(tmp_path, checks=["rnea_crba_nle"])
    (path,) = report.snapshots
    return Path(path), report


def rewrite(path, arrays, record_too=True, **savez):
    """Replace the .npz by ``arrays`` and, as a forger would, fix the record's sha256."""
    np.savez(path, **arrays, **savez)
    if record_too:
        record = json.loads(path.with_suffix(".json").read_text())
        import hashlib

        record["npz"]["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
        path.with_suffix(".json").write_text(json.dumps(record))


def arrays_of(path):
    with np.load(path, allow_pickle=False) as npz:
        return {k: npz[k] for k in npz.files}


def replay_cli(capsys, path, *argv):
    code = main(["check", "--replay", str(path), *argv])
    out, err = capsys.readouterr()
    return code, out, err


# --- writing -------------------------------------------------------------------------------------

def test_a_failing_check_writes_its_worst_state(snapshot):
    path, report = snapshot
    r = report["rnea_crba_nle"]
    assert r.verdict == "fail"
    assert path.name == f"rnea_crba_nle-seed3-state{r.worst_state}.npz"
    arrays = arrays_of(path)
    assert sorted(arrays) == sorted(STATE_FIELDS)
    assert all(a.dtype == np.float64 for a in arrays.values())
    states = make_states(pinref.buildTutorialModel(), 5, 3)
    for name in ("q", "v", "a", "tau", "fext", "fext_placement"):
        np.testing.assert_array_equal(arrays[name], getattr(states, name)[r.worst_state])
    np.testing.assert_array_equal(arrays["armature"], states.armature)
    np.testing.assert_array_equal(arrays["gravity"], [0, 0, -9.81, 0, 0, 0])


def test_the_record(snapshot):
    path, report = snapshot
    record = json.loads(path.with_suffix(".json").read_text())
    assert record["format"] == FORMAT
    assert record["check"]["id"] == "rnea_crba_nle" and record["check"]["verdict"] == "fail"
    assert record["check"]["residual"] == report["rnea_crba_nle"].residual
    assert record["check"]["tolerance"] == report["rnea_crba_nle"].tolerance
    assert record["check"]["oracle"] == "M from crba, h from nonLinearEffects"
    assert record["state"] == {"index": report["rnea_crba_nle"].worst_state, "seed": 3,
                               "states": 5, "fields": {
                                   "q": [9], "v": [8], "a": [8], "tau": [8], "fext": [4, 6],
                                   "fext_placement": [4, 4], "armature": [8], "gravity": [6]}}
    assert record["model"]["source"] == SOURCE
    assert record["model"]["checksum"] == model_checksum(pinref.buildTutorialModel())
    assert record["versions"]["numpy"] == np.__version__
    assert record["versions"]["pinref"] == pinref.__version__
    assert record["versions"]["pin"] == pin_version()
    assert set(record["platform"]) == {"platform", "machine", "implementation"}
    assert record["backend"]["name"] == "pinref + drill"
    assert record["command"] == ["pinref", "check"] and record["exit_code"] == 1
    assert record["run"]["rnea_crba_nle"]["verdict"] == "fail"
    assert "quaternions (x, y, z, w)" in record["conventions"]["q"]
    assert record["external_wrench"]["frame"] == "LOCAL of the joint, about its origin"
    assert record["npz"]["file"] == path.name


def test_every_failing_check_gets_a_snapshot_and_a_derivative_keeps_its_sweep(tmp_path):
    model = pinref.buildTutorialModel()
    from pinref.checking.drills import FiniteDifferencesOnStoredNumbers

    report = check(model, n_states=3, backend=FiniteDifferencesOnStoredNumbers(
        make_backend("pinref", model)), snapshot_dir=tmp_path, source=SOURCE)
    assert [Path(p).name.split("-")[0] for p in report.snapshots] == ["derivative_dq"]
    record = read_record(report.snapshots[0])
    assert record["check"]["table"].startswith("eps sweep of dtau/dq")
    assert "flat" in record["check"]["table"]


def test_no_snapshot_without_a_directory_or_a_failure(tmp_path):
    model = pinref.buildTutorialModel()
    assert check(model, n_states=2).snapshots == []
    assert check(model, n_states=2, snapshot_dir=tmp_path).snapshots == []
    assert list(tmp_path.iterdir()) == []


# --- the checksum --------------------------------------------------------------------------------

def test_model_checksum_is_the_numbers():
    a, b = pinref.buildSampleModelHumanoid(), pinref.buildSampleModelHumanoid()
    assert model_checksum(a) == model_checksum(b)
    assert model_checksum(a) != model_checksum(pinref.buildTutorialModel())
    b.inertias[5] = pinref.Inertia(np.nextafter(float(b.inertias[5].mass), 2.0),
                                   b.inertias[5].lever, b.inertias[5].inertia)
    assert model_checksum(a) != model_checksum(b)           # one ulp of one mass
    c = pinref.buildSampleModelHumanoid()
    c.gravity = pinref.Motion(np.array([0.0, 0.0, -9.80665, 0.0, 0.0, 0.0]))
    assert model_checksum(a) != model_checksum(c)
    d = pinref.buildSampleModelHumanoid()
    d.armature = d.armature + 0.1
    assert model_checksum(a) != model_checksum(d)
    numbers = model_numbers(a)
    assert len(numbers["joints"]) == a.njoints - 1 and len(numbers["frames"]) == a.nframes
    json.dumps(numbers)


# --- replaying -----------------------------------------------------------------------------------

def test_replay_reproduces_the_state_and_passes_on_pinref(snapshot, capsys):
    path, report = snapshot
    model = pinref.buildTutorialModel()
    record, states = load_snapshot(path, model)
    assert len(states) == 1 and record["check"]["id"] == "rnea_crba_nle"
    again = replay(path, model)
    assert again.passed and [r.id for r in again.checks] == ["rnea_crba_nle"]
    assert again.replay["recorded_residual"] == report["rnea_crba_nle"].residual
    assert again.replay["version_differences"] == []
    code, out, err = replay_cli(capsys, path)
    assert code == 0 and err == ""
    assert f"replay of {path}" in out and "PASS   rnea_crba_nle" in out


def test_replay_fails_again_with_the_mistake_planted(tmp_path, capsys):
    model = pinref.buildTutorialModel()
    backend = make_backend("pinref", model)
    from pinref.checking.drills import DroppedIaC

    report = check(model, n_states=4, seed=1, backend=DroppedIaC(backend),
                   checks=["aba_inverts_rnea"], snapshot_dir=tmp_path, source=SOURCE)
    (path,) = report.snapshots
    with aba_without_Ia_c():
        code, out, _ = replay_cli(capsys, path, "--json")
    data = json.loads(out)
    assert code == 1 and data["passed"] is False
    assert data["checks"][0]["residual"] == report["aba_inverts_rnea"].residual
    assert replay_cli(capsys, path)[0] == 0       # and passes once pinref is itself again


def test_replay_with_the_pin_backend(snapshot, capsys):
    path, _ = snapshot
    code, out, _ = replay_cli(capsys, path, "--backend", "pin")
    assert code == 0 and f"backend pin {pin_version()}," in out


def test_version_differences_are_reported_not_refused(snapshot, capsys):
    path, _ = snapshot
    record_path = path.with_suffix(".json")
    record = json.loads(record_path.read_text())
    record["versions"]["numpy"] = "1.26.4"
    record_path.write_text(json.dumps(record))
    code, out, _ = replay_cli(capsys, path)
    assert code == 0
    assert (f"  warning: version differs: numpy: snapshot 1.26.4, now {np.__version__} "
            "(reported, not refused)") in out.splitlines()


# --- refusing ------------------------------------------------------------------------------------

def refused(capsys, path, *phrases, api=True):
    """Refused by the command (exit 2, the message) and by the API (SnapshotError)."""
    code, out, err = replay_cli(capsys, path)
    assert code == 2 and out == "", out
    assert err.startswith("pinref check: error: ")
    for phrase in phrases:
        assert phrase in err, err
    if api:
        with pytest.raises(SnapshotError):
            replay(path, pinref.buildTutorialModel())
    return err


def test_refuses_a_changed_file(snapshot, capsys):
    path, _ = snapshot
    arrays = arrays_of(path)
    arrays["q"] = arrays["q"].copy()
    arrays["q"][0] += 1e-3
    rewrite(path, arrays, record_too=False)
    refused(capsys, path, "sha256", "changed after it was written")


def test_refuses_a_wrong_model_checksum(snapshot, capsys):
    path, _ = snapshot
    record = json.loads(path.with_suffix(".json").read_text())
    record["model"]["checksum"] = "0" * 64
    path.with_suffix(".json").write_text(json.dumps(record))
    refused(capsys, path, "checksum", "not the one the snapshot was taken on")


def test_refuses_another_model(snapshot, capsys):
    path, _ = snapshot
    record = json.loads(path.with_suffix(".json").read_text())
    record["model"]["source"] = {"model": "manipulator", "free_flyer": True}
    path.with_suffix(".json").write_text(json.dumps(record))
    refused(capsys, path, "checksum", api=False)       # the command rebuilds the manipulator
    with pytest.raises(SnapshotError, match="checksum"):
        replay(path, pinref.buildSampleModelManipulator())


def test_refuses_a_pickled_object_without_unpickling_it(snapshot, capsys, tmp_path):
    """An object array whose unpickling would create a file: the file must never appear."""
    path, _ = snapshot
    marker = tmp_path / "unpickled"

    class Trap:
        def __reduce__(self):
            return (Path.touch, (marker,))

    arrays = arrays_of(path)
    arrays["q"] = np.array([Trap()], dtype=object)
    rewrite(path, arrays, allow_pickle=True)
    assert pickle.loads(pickle.dumps(Trap())) is None and marker.exists()  # the trap works
    marker.unlink()
    refused(capsys, path, "pickled Python object", "never loaded")
    assert not marker.exists()


@pytest.mark.parametrize("change, phrase", [
    (lambda a: a.pop("tau"), "missing tau"),
    (lambda a: a.update(extra=np.zeros(3)), "unexpected extra"),
    (lambda a: a.update(q=a["q"][:7]), "q has shape (7,), expected (9,)"),
    (lambda a: a.update(fext=np.zeros((3, 6))), "fext has shape (3, 6)"),
    (lambda a: a.update(v=a["v"].astype(np.float32)), "v has dtype float32"),
    (lambda a: a.update(a=np.full(8, np.nan)), "a holds NaN or infinity"),
    (lambda a: a.update(gravity=np.array([0, 0, np.inf, 0, 0, 0.0])), "gravity holds NaN"),
    (lambda a: a.update(fext=np.zeros((4, 6))), "one wrench on one joint"),
    (lambda a: a.update(fext_placement=2 * a["fext_placement"]), "not a rigid transform"),
    (lambda a: a.update(q=np.r_[a["q"][:3], 0.0, 0.0, 0.0, 2.0, a["q"][7:]]), "quaternion"),
])
def test_refuses_bad_arrays(snapshot, capsys, change, phrase):
    path, _ = snapshot
    arrays = arrays_of(path)
    change(arrays)
    rewrite(path, arrays)
    refused(capsys, path, phrase)


def test_refuses_an_unreadable_npz(snapshot, capsys):
    path, _ = snapshot
    path.write_bytes(b"PK\x03\x04 not a zip at all")
    import hashlib

    record = json.loads(path.with_suffix(".json").read_text())
    record["npz"]["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    path.with_suffix(".json").write_text(json.dumps(record))
    refused(capsys, path, "not a readable .npz")


@pytest.mark.parametrize("record, phrase", [
    (None, "record rnea_crba_nle-seed3-"),
    ("{ not json", "unreadable record"),
    ('{"format": "something/9"}', "not a pinref check snapshot record"),
    ('[1, 2]', "not a pinref check snapshot record"),
    (json.dumps({"format": FORMAT, "check": {"id": "sizes"}}), "has no model.checksum"),
])
def test_refuses_a_bad_record(snapshot, capsys, record, phrase):
    path, _ = snapshot
    if record is None:
        path.with_suffix(".json").unlink()
    else:
        path.with_suffix(".json").write_text(record)
    refused(capsys, path, phrase)


def test_refuses_an_unknown_check_and_a_python_model(snapshot, capsys):
    path, _ = snapshot
    record_path = path.with_suffix(".json")
    record = json.loads(record_path.read_text())
    record["check"]["id"] = "mood"
    record_path.write_text(json.dumps(record))
    refused(capsys, path, "names the check 'mood'")
    record["check"]["id"] = "rnea_crba_nle"
    record["model"]["source"] = {"python": "tutorial"}
    record_path.write_text(json.dumps(record))
    code, _, err = replay_cli(capsys, path)
    assert code == 2 and "built in Python" in err
    assert replay(path, pinref.buildTutorialModel()).passed   # the API takes the model


@pytest.mark.parametrize("backend, phrase", [
    ({"name": "drake", "version": "1"}, "names the backend 'drake'"),
    (["pin"], "names the backend"),
    ("pinref++", "names the backend 'pinref++'"),
])
def test_refuses_an_unknown_backend(snapshot, capsys, backend, phrase):
    path, _ = snapshot
    record_path = path.with_suffix(".json")
    record = json.loads(record_path.read_text())
    record["backend"] = backend
    record_path.write_text(json.dumps(record))
    refused(capsys, path, phrase)


def test_replay_on_pin_without_pin_installed(snapshot, capsys, monkeypatch):
    """A snapshot recorded on pin replays on pin: without pin, exit 2 naming the install."""
    path, _ = snapshot
    record_path = path.with_suffix(".json")
    record = json.loads(record_path.read_text())
    record["backend"] = {"name": "pin", "version": "3.8.0"}
    record_path.write_text(json.dumps(record))
    monkeypatch.setitem(sys.modules, "pinocchio", None)
    code, out, err = replay_cli(capsys, path)
    assert code == 2 and out == "" and "pip install 'pinref[pin]'" in err
    assert replay_cli(capsys, path, "--backend", "pinref")[0] == 0


def test_a_snapshot_that_cannot_be_written_is_refused(tmp_path, capsys, monkeypatch):
    """--snapshot-dir naming a file: SnapshotError (exit 2) naming the directory and the fix,
    not an OSError traceback."""
    occupied = tmp_path / "occupied"
    occupied.write_text("a file, not a directory")
    with pytest.raises(SnapshotError, match="cannot write the snapshot"):
        model = pinref.buildTutorialModel()
        check(model, n_states=2, backend=SymmetrisedMassMatrix(make_backend("pinref", model)),
              checks=["rnea_crba_nle"], snapshot_dir=occupied)
    monkeypatch.chdir(tmp_path)
    with aba_without_Ia_c():
        code = main(["check", "--states", "3", "--checks", "aba_inverts_rnea",
                     "--snapshot-dir", str(occupied)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith(f"pinref check: error: {occupied}: cannot write the snapshot")
    assert "--no-snapshots" in err


@pytest.mark.parametrize("argv, phrase", [
    (("--replay", "nowhere.npz"), "is missing"),
    (("--replay", "notes.txt"), "a snapshot is a .npz file"),
    (("--replay", "x.npz", "--model", "humanoid"), "drop --model"),
    (("--replay", "x.npz", "--checks", "sizes"), "drop --checks"),
])
def test_replay_usage_errors(capsys, tmp_path, monkeypatch, argv, phrase):
    monkeypatch.chdir(tmp_path)
    code = main(["check", *argv])
    _, err = capsys.readouterr()
    assert code == 2 and phrase in err


def test_command_writes_snapshots(capsys, tmp_path, monkeypatch):
    """``pinref check`` writes into ./pinref-snapshots by default, --snapshot-dir elsewhere,
    --no-snapshots nowhere; here a failure is forced through the monkeypatched ABA."""
    monkeypatch.chdir(tmp_path)
    with aba_without_Ia_c():
        code = main(["check", "--states", "3", "--checks", "aba_inverts_rnea"])
        out = capsys.readouterr().out
        assert code == 1 and "FAIL   aba_inverts_rnea" in out
        written = sorted((tmp_path / "pinref-snapshots").glob("*.npz"))
        assert len(written) == 1 and f"snapshot: {written[0]}" in out
        record = read_record(written[0])
        assert record["command"] == ["pinref", "check", "--model", "tutorial", "--backend",
                                     "pinref", "--states", "3", "--seed", "0", "--checks",
                                     "aba_inverts_rnea"]
        assert main(["check", "--states", "3", "--checks", "aba_inverts_rnea",
                     "--snapshot-dir", str(tmp_path / "elsewhere")]) == 1
        assert len(list((tmp_path / "elsewhere").glob("*.npz"))) == 1
        capsys.readouterr()
        assert main(["check", "--states", "3", "--checks", "aba_inverts_rnea",
                     "--no-snapshots", "--json"]) == 1
        assert json.loads(capsys.readouterr().out)["snapshots"] == []
    assert len(list((tmp_path / "pinref-snapshots").glob("*.npz"))) == 1


# --- hostile records and archives (issue 13 item 12) ---------------------------------------------


def edit_record(path, change=None, text=None):
    record_path = path.with_suffix(".json")
    record = json.loads(record_path.read_text())
    if change is not None:
        change(record)
    record_path.write_text(text(json.dumps(record)) if text else json.dumps(record))


@pytest.mark.parametrize("change, phrase", [
    (lambda r: r["check"].update(residual="abc"), "check.residual is 'abc'; expected a number"),
    (lambda r: r["check"].update(tolerance=[1]), "check.tolerance is [1]"),
    (lambda r: r["model"]["source"].update(free_flyer="no"), "model.source is"),
    (lambda r: r["model"]["source"].update(model=5), "model.source is"),
    (lambda r: r["state"].update(index="3"), "state.index is '3'; expected an integer >= 0"),
    (lambda r: r["state"].update(index=-1), "state.index is -1"),
    (lambda r: r["state"].update(seed="x"), "state.seed is 'x'"),
    (lambda r: r["model"].update(checksum=7), "model.checksum is 7"),
    (lambda r: r.update(versions={"pinref": [1]}), "versions is"),
])
def test_refuses_a_record_field_of_the_wrong_type(snapshot, capsys, change, phrase):
    path, _ = snapshot
    edit_record(path, change)
    refused(capsys, path, phrase)


@pytest.mark.parametrize("text, phrase", [
    (lambda t: t[:-1] + ', "x": ' + "[" * 100000 + "]" * 100000 + "}", "nested too deeply"),
    (lambda t: t.replace('"index": ', '"index": ' + "9" * 100000 + ', "_": ', 1),
     "an integer of 100000 digits"),
    (lambda t: t + " " * (5 << 20), "more than a record's"),
])
def test_refuses_a_record_built_to_exhaust(snapshot, capsys, text, phrase):
    path, _ = snapshot
    edit_record(path, text=text)
    refused(capsys, path, phrase)


def test_refuses_a_negative_armature(snapshot, capsys):
    path, _ = snapshot
    arrays = arrays_of(path)
    arrays["armature"] = -np.abs(arrays["armature"]) - 1.0
    rewrite(path, arrays)
    refused(capsys, path, "armature holds a negative entry")


def _forge(path, write):
    """Rewrite the .npz with ``write(zipfile)`` and fix the record's sha256, as a forger would."""
    import hashlib
    import zipfile

    arrays = arrays_of(path)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        write(z, arrays)
    edit_record(path, lambda r: r["npz"].update(sha256=hashlib.sha256(path.read_bytes())
                                                .hexdigest()))


def _member(z, name, array=None, header_shape=None, zeros=0):
    with z.open(f"{name}.npy", "w", force_zip64=True) as f:
        if array is not None:
            np.lib.format.write_array(f, array)
            return
        np.lib.format.write_array_header_1_0(f, {"descr": "<f8", "fortran_order": False,
                                                 "shape": header_shape})
        for _ in range(zeros):
            f.write(bytes(1 << 20))


def test_refuses_a_header_claiming_a_huge_shape_before_reading(snapshot, capsys):
    path, _ = snapshot

    def write(z, arrays):
        for k, a in arrays.items():
            if k == "q":
                _member(z, "q", header_shape=(10**10,))
            else:
                _member(z, k, a)
    _forge(path, write)
    refused(capsys, path, "q's header claims shape (10000000000,)")


def test_refuses_a_large_deflated_member_from_the_directory(snapshot, capsys):
    """An extra 256 MiB of zeros deflates to 256 kB: refused from the zip directory (or the
    file's size) in well under a second, without unpacking it."""
    path, _ = snapshot

    def write(z, arrays):
        for k, a in arrays.items():
            _member(z, k, a)
        _member(z, "extra", header_shape=(2**25,), zeros=256)
    _forge(path, write)
    t0 = time.perf_counter()
    refused(capsys, path, "refusing to read it")
    assert time.perf_counter() - t0 < 2


def test_refuses_a_fifo_without_hanging(snapshot, capsys, tmp_path):
    import os

    path, _ = snapshot
    fifo = tmp_path / "fifo.npz"
    os.mkfifo(fifo)
    fifo.with_suffix(".json").write_text(path.with_suffix(".json").read_text())
    refused(capsys, fifo, "not a regular file")
