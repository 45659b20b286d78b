"""``pinref diff`` and ``pinref trace`` on the command line: output, JSON, exit codes, bad input.

Exit codes: 0 everything agrees, 1 something differs, 2 bad usage or input.
"""

import json
import sys
from pathlib import Path

import numpy as np
import pinocchio as pin
import pytest
from test_compare import broken_aba  # noqa: F401  (the fixture, used by name)

import pinref
from pinref.cli import Progress, main
from pinref.tracing.states import random_states
from pinref.tracing import steps as S

URDF_DIR = Path(__file__).parents[1] / "model" / "urdf"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_diff_with_no_arguments(capsys):
    code, out, err = run(capsys, "diff", "--wide")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("pinref diff: model 'tutorial' (nq 9, nv 8, 3 joints); states: "
                               "100 random, seed 0")
    assert lines[3].split() == ["cache", "rnea", "crba", "aba"]
    assert any(line.startswith("rnea  agree") for line in lines)
    assert any(line.startswith("aba   agree") for line in lines)
    assert lines[-1].startswith(f"pinref diff: all agree with pin {pin.__version__} (rnea, crba, "
                                "aba x 100 states) in ")
    assert lines[-1].endswith(" s)")


def test_diff_options(capsys):
    code, out, _ = run(capsys, "diff", "--model", "manipulator", "--free-flyer", "--algorithm",
                       "aba", "--states", "7", "--seed", "3", "--armature", "0.2", "--fext",
                       "--tolerance", "1e-11", "--verbose")
    assert code == 0
    assert "(nq 13, nv 12, 7 joints); states: 7 random, seed 3; fext: yes; armature: [0.2]" in out
    assert "tolerance 1e-11" in out and "aba: agree" in out and "crba" not in out
    assert "joints.StU" in out


def test_diff_urdf(capsys):
    path = min(URDF_DIR.glob("*.urdf"))
    code, out, _ = run(capsys, "diff", "--model", str(path), "--states", "3")
    assert code == 0 and f"model '{path}'" in out


def test_diff_json(capsys):
    code, out, err = run(capsys, "diff", "--states", "4", "--algorithm", "crba", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["agree"] is True and data["states"] == 4
    assert [a["algorithm"] for a in data["algorithms"]] == ["crba"]
    # the timing line, on stderr
    assert err.startswith(f"pinref diff: all agree with pin {pin.__version__} (crba x 4 states)")


@pytest.mark.usefixtures("broken_aba")
def test_diff_exit_1_on_a_difference(capsys):
    """ABA's backward step without the Ia c term (test_compare.py): exit 1, and the first
    divergence is joint 3's pa in pass 2."""
    code, out, _ = run(capsys, "diff", "--states", "5", "--wide")
    assert code == 1
    assert "aba   DIFFER" in out
    assert ("first divergence:" in out and f"pass 2, {S.ABA_BACKWARD}, joint 3 ry2_joint: f[3]"
            in out)
    assert out.splitlines()[-1].startswith(
        f"pinref diff: aba DIFFER with pin {pin.__version__} (rnea, crba, aba x 5")
    code, out, _ = run(capsys, "diff", "--states", "5", "--json")
    assert code == 1 and json.loads(out)["algorithms"][2]["first_divergence"]["joint_id"] == 3


def test_states_file(capsys, tmp_path):
    model = pinref.buildTutorialModel()
    st = random_states(model, 3, 9, fext=True)
    path = tmp_path / "states.npz"
    np.savez(path, **st)
    code, out, _ = run(capsys, "diff", "--states-file", str(path))
    assert code == 0 and "states: given; fext: yes" in out
    assert "x 3 states" in out.splitlines()[-1]


@pytest.mark.parametrize("argv, message", [
    (["diff", "--model", "nope"], "unknown model 'nope'"),
    (["diff", "--model", "missing.urdf"], "missing.urdf"),
    (["diff", "--states", "0"], "--states must be at least 1"),
    (["diff", "--tolerance", "0"], "--tolerance must be positive"),
    (["diff", "--model", "tutorial", "--free-flyer"], "already has a free-flyer"),
    (["trace", "aba", "--model", "nope"], "unknown model 'nope'"),
    (["trace", "aba", "--joint", "elbow"], "no joint 'elbow'"),
    (["trace", "crba", "--cache", "Yaba"], "crba writes no cache 'Yaba'"),
    (["info", "--model", "nope"], "unknown model 'nope'"),
])
def test_bad_input_exits_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"pinref {argv[0]}: error: ") and message in err


@pytest.mark.parametrize("argv", [["diff", "--algorithm", "minv"], ["diff", "--states", "x"],
                                  ["trace"], ["trace", "minv"], ["nope"], []])
def test_bad_usage_exits_2(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and "usage: pinref" in err


def test_invalid_urdf_exits_2(capsys, tmp_path):
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot name='x'><link name='a'><joint></robot>")
    code, _, err = run(capsys, "diff", "--model", str(bad))
    assert code == 2 and "bad.urdf" in err
    unreadable = tmp_path / "dir.urdf"
    unreadable.mkdir()
    code, _, err = run(capsys, "diff", "--model", str(unreadable))
    assert code == 2 and "dir.urdf" in err


def test_pin_not_installed_exits_2(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pinocchio", None)
    code, out, err = run(capsys, "diff", "--states", "1")
    assert code == 2 and out == ""
    assert "pip install 'pinref[pin]'" in err
    # trace and info need numpy only
    assert run(capsys, "trace", "rnea")[0] == 0
    assert run(capsys, "info")[0] == 0


def test_inconsistent_states_file_exits_2(capsys, tmp_path):
    model = pinref.buildTutorialModel()
    st = random_states(model, 3, 0)
    path = tmp_path / "states.npz"
    np.savez(path, q=st["q"], v=st["v"][:2], tau=st["tau"])
    code, _, err = run(capsys, "diff", "--states-file", str(path))
    assert code == 2 and "inconsistent state sizes" in err
    np.savez(path, q=st["q"][:, :8], v=st["v"], tau=st["tau"])
    code, _, err = run(capsys, "diff", "--states-file", str(path))
    assert code == 2 and "q: expected shape (..., 9)" in err
    np.savez(path, v=st["v"])
    code, _, err = run(capsys, "diff", "--states-file", str(path))
    assert code == 2 and "q required" in err
    path.write_text("not an npz")
    code, _, err = run(capsys, "diff", "--states-file", str(path))
    assert code == 2 and "not a readable .npz" in err


def test_trace_prints_the_tutorial_table(capsys):
    code, out, _ = run(capsys, "trace", "aba", "--wide")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("aba on tutorial (nq 9, nv 8, 3 joints), 13 stops")
    assert lines[2].split()[:6] == ["pass", "step", "joint", "Yaba[1]", "Yaba[2]", "Yaba[3]"]
    body = "\n".join(lines[4:17])
    assert "* Y_2 + Ia_3" in body and "* IA_1 (root, full)" in body
    assert lines[-1].startswith("pinref trace: aba on tutorial, 13 stops, seed 0, in ")


def test_trace_joint_and_cache(capsys):
    code, out, _ = run(capsys, "trace", "aba", "--joint", "ry1_joint", "--cache", "f", "--wide")
    assert code == 0
    assert out.splitlines()[2].split()[:4] == ["pass", "step", "joint", "f[2]"]
    assert "f of joint 2 ry1_joint during aba" in out
    assert "f[2] = pa_2 = pA_2 + Ia_2 c_2 + UDinv_2 u_2" in out
    code, out, _ = run(capsys, "trace", "rnea", "--model", "humanoid", "--joint", "15")
    assert code == 0 and "f of joint 15 chest2_joint during rnea" in out
    code, out, _ = run(capsys, "trace", "crba", "--fext", "--armature", "0.1")
    assert code == 0 and "Ycrb[1]" in out


def test_trace_of_a_model_with_many_joints(capsys):
    """The humanoid (29 joints): the first six joints' Yaba columns, a note naming --joint, and
    the model named as on the command line."""
    code, out, _ = run(capsys, "trace", "aba", "--model", "humanoid", "--wide")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("aba on humanoid (nq 35, nv 34, 29 joints), 117 stops; |x| = "
                               "norm of Yaba")
    assert lines[1].startswith("note: Yaba columns for joints 1 to 6 of 29 only; pick another "
                               "joint with --joint NAME")
    assert lines[3].split()[3:9] == [f"Yaba[{j}]" for j in range(1, 7)]
    assert "* IA_1 (root, full) |" in out
    assert lines[-1].startswith("pinref trace: aba on humanoid, 117 stops")
    code, out, _ = run(capsys, "trace", "aba", "--model", "humanoid", "--joint", "chest2_joint",
                       "--wide")
    assert code == 0 and out.splitlines()[2].split()[3] == "Yaba[15]"


@pytest.mark.parametrize("argv, name", [
    (["--model", "manipulator"], "manipulator"),
    (["--model", "manipulator", "--free-flyer"], "manipulator + free-flyer"),
    (["--model", str(URDF_DIR / "quadruped.urdf")], str(URDF_DIR / "quadruped.urdf")),
])
def test_trace_names_the_model_as_given(capsys, argv, name):
    code, out, _ = run(capsys, "trace", "crba", *argv)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith(f"crba on {name} (nq ")
    assert lines[-1].startswith(f"pinref trace: crba on {name}, ")


def test_progress_only_on_a_terminal():
    class Stream:
        def __init__(self, tty):
            self.tty, self.text = tty, ""

        def isatty(self):
            return self.tty

        def write(self, s):
            self.text += s

        def flush(self):
            pass

    quiet, loud = Stream(False), Stream(True)
    for stream in (quiet, loud):
        p = Progress(stream, interval=0.0)
        p("aba: pin", 1, 2)
        p("aba: pin", 2, 2)
        p.done()
    assert quiet.text == ""
    assert "aba: pin 2/2" in loud.text and loud.text.endswith("\r\033[K")


# --- user mistakes and hostile environments (issue 13 items 9, 11) --------------------------


ONE_LINK = ('<robot name="one"><link name="base"><inertial><mass value="1"/><inertia ixx="1" '
            'iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>')


@pytest.mark.parametrize("argv, message", [
    (["diff", "--seed", "-1"], "--seed must be an integer >= 0"),
    (["check", "--seed", "-1"], "--seed must be an integer >= 0"),
    (["trace", "aba", "--seed", "-1"], "--seed must be an integer >= 0"),
    (["diff", "--tolerance", "inf"], "--tolerance must be positive and finite"),
    (["diff", "--model", "{tmp}/one.urdf"], "no joint with a degree of freedom"),
    (["trace", "aba", "--model", "{tmp}/one.urdf"], "no pass to trace"),
    (["diff", "--states-file", "{tmp}/empty.npz"], "holds no state"),
    (["diff", "--states-file", "{tmp}/states.npy"], "expected an .npz archive"),
    (["diff", "--states-file", "{tmp}/complex.npz"], "imaginary part"),
    (["diff", "--states-file", "{tmp}/extra.npz"], "unexpected w.npy"),
    (["diff", "--states-file", "{tmp}/broadcast.npz"], "9000000 states"),
    (["diff", "--states", "100000000"], "100000000 states"),
    (["check", "--states", "10000000"], "10000000 states"),
])
def test_user_mistakes_exit_2_without_a_traceback(capsys, tmp_path, argv, message):
    (tmp_path / "one.urdf").write_text(ONE_LINK)
    np.savez(tmp_path / "empty.npz", q=np.zeros((0, 9)), v=np.zeros((0, 8)),
             tau=np.zeros((0, 8)))
    np.save(tmp_path / "states.npy", np.zeros((2, 9)))
    st = random_states(pinref.buildTutorialModel(), 2, 0)
    np.savez(tmp_path / "complex.npz", q=st["q"] + 0j, v=st["v"], tau=st["tau"])
    np.savez(tmp_path / "extra.npz", q=st["q"], v=st["v"], tau=st["tau"], w=st["v"])
    np.savez(tmp_path / "broadcast.npz", q=st["q"][:1], v=np.zeros((3000, 1, 8)),
             tau=np.zeros((1, 3000, 8)))
    argv = [a.format(tmp=tmp_path) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"pinref {argv[0]}: error: ") and message in err, err


def shell(command):
    """Run ``command`` in bash with the venv's python as PY; (exit codes, stderr)."""
    import os
    import subprocess

    env = dict(os.environ, PY=sys.executable)
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env,
                          timeout=300)


@pytest.mark.parametrize("argv", ["diff --states 3", "diff --states 3 --json", "info",
                                  "trace aba", "check --states 2 --no-snapshots"])
def test_a_full_disk_is_an_error_message_not_a_traceback(argv):
    p = shell(f'"$PY" -m pinref {argv} > /dev/full')
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr and "cannot write the output" in p.stderr


def test_a_broken_pipe_exits_141_quietly():
    """141 = 128 + SIGPIPE, what a shell reports for a reader gone away; not 1 ("differs")."""
    p = shell('"$PY" -m pinref diff --states 30 --verbose | true; echo "${PIPESTATUS[0]}"')
    assert p.stdout.strip() == "141" and "Traceback" not in p.stderr, p.stderr


@pytest.mark.parametrize("argv", ["diff --states 2", "info"])
def test_a_closed_stdout_is_an_error_not_lost_output(argv):
    p = shell(f'"$PY" -m pinref {argv} >&-')
    assert p.returncode == 2 and "standard output is closed" in p.stderr, p.stderr


def test_progress_on_a_terminal_during_a_long_run(capsys, monkeypatch):
    """The command's progress reaches stderr per chunk when stderr is a terminal."""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    code, _, err = run(capsys, "diff", "--states", "3", "--algorithm", "aba")
    assert code == 0 and "aba: states 3/3" in err


def test_diff_and_trace_in_the_world_convention(capsys):
    code, out, _ = run(capsys, "diff", "--convention", "world", "--states", "4", "--fext",
                       "--wide")
    assert code == 0 and "convention: WORLD (crba, aba)" in out.splitlines()[0]
    assert "crba WORLD  agree" in out and "aba WORLD   agree" in out
    assert out.splitlines()[-1].startswith(
        f"pinref diff: all agree with pin {pin.__version__} (rnea, crba WORLD, aba WORLD x 4 "
        "states)")
    code, out, _ = run(capsys, "trace", "aba", "--convention", "world", "--joint", "3",
                       "--cache", "of")
    assert code == 0 and "of of joint 3 ry2_joint during abaWorldConvention" in out
    assert out.splitlines()[-1].startswith("pinref trace: abaWorldConvention on tutorial, 13 "
                                           "stops")
    code, out, _ = run(capsys, "trace", "crba", "--convention", "world", "--wide")
    assert code == 0 and "oYcrb[1]" in out.splitlines()[2]
    code, out, err = run(capsys, "trace", "rnea", "--convention", "world")
    assert code == 2 and out == "" and "rnea has no convention" in err
    code, out, err = run(capsys, "trace", "aba", "--convention", "world", "--cache", "Yaba")
    assert code == 2 and "abaWorldConvention writes no cache 'Yaba'" in err
