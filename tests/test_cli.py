"""The pinref command: info, the subcommand registry, exit codes, python -m pinref, the console
script.

Exit 2 means bad usage or input: argparse's own errors, ``UsageError`` and every
``pinref.errors.PinrefError``. Any other exception is a bug and must reach the user with its
traceback, not as a usage error. ``pinref diff`` and ``pinref trace`` are tested in
tests/tools/test_diff_cli.py, ``pinref check`` in tests/tools/test_check.py.
"""

import argparse
import inspect
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import pinref.errors
from pinref import cli
from pinref.cli import main
from pinref.compare.command import require_pinocchio

URDF = min((Path(__file__).parent / "model" / "urdf").glob("*.urdf"))


def test_info_prints_the_index_table(capsys):
    assert main(["info"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["1", "root_joint", "JointModelFreeFlyer", "universe", "0", "7",
                              "0", "6"]
    assert out[3].split()[4:] == ["8", "1", "7", "1"]
    assert out[-1] == "nq = 9, nv = 8, njoints = 4"


def test_info_of_other_models(capsys):
    assert main(["info", "--model", "humanoid"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "nq = 35, nv = 34, njoints = 30"
    assert main(["info", "--model", "manipulator", "--free-flyer"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[:3] == ["1", "root_joint", "JointModelFreeFlyer"]
    assert out[-1] == "nq = 13, nv = 12, njoints = 8"
    assert main(["info", "--model", str(URDF), "--free-flyer"]) == 0
    assert "root_joint" in capsys.readouterr().out


def test_unknown_model_is_a_usage_error(capsys):
    assert main(["info", "--model", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pinref info: error: unknown model 'nope'")


@pytest.mark.parametrize("argv, code", [(["--version"], 0), (["--help"], 0), (["diff", "-h"], 0),
                                        ([], 2), (["nope"], 2)])
def test_argparse_exits_become_return_codes(capsys, argv, code):
    assert main(argv) == code
    out, err = capsys.readouterr()
    assert "pinref" in out + err


def test_every_registered_command_is_in_the_help(capsys):
    main(["--help"])
    out = capsys.readouterr().out
    for command in ("diff", "trace", "info"):
        assert command in out
    assert all(":" in entry for entry in cli.SUBCOMMANDS)


def test_a_module_adds_its_command_with_one_line(capsys, monkeypatch, tmp_path):
    module = tmp_path / "pinref_extra_command.py"
    module.write_text(
        "def add(subparsers):\n"
        "    p = subparsers.add_parser('hello')\n"
        "    p.add_argument('--name', default='world')\n"
        "    p.set_defaults(run=lambda args: print('hello', args.name) or 0)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(cli, "SUBCOMMANDS", cli.SUBCOMMANDS + ("pinref_extra_command:add",))
    assert main(["hello", "--name", "pinref"]) == 0
    assert capsys.readouterr().out == "hello pinref\n"


def test_errors_of_a_command_exit_2(capsys, monkeypatch):
    def add(subparsers):
        subparsers.add_parser("fail").set_defaults(run=_raise)

    monkeypatch.setattr(cli, "add_info", add)
    assert main(["fail"]) == 2
    assert capsys.readouterr().err == "pinref fail: error: bad input\n"


def _raise(args):
    raise cli.UsageError("bad input")


def _command_raising(monkeypatch, error):
    def add(subparsers):
        subparsers.add_parser("fail").set_defaults(run=lambda args: _throw(error))

    monkeypatch.setattr(cli, "add_info", add)


def _throw(error):
    raise error


PINREF_ERRORS = sorted((c for _, c in inspect.getmembers(pinref.errors, inspect.isclass)
                        if issubclass(c, pinref.errors.PinrefError)), key=lambda c: c.__name__)


@pytest.mark.parametrize("error", PINREF_ERRORS + [cli.UsageError, cli.MissingDependencyError],
                         ids=lambda c: c.__name__)
def test_pinref_and_usage_errors_exit_2(capsys, monkeypatch, error):
    _command_raising(monkeypatch, error("bad input"))
    assert main(["fail"]) == 2
    assert capsys.readouterr().err == "pinref fail: error: bad input\n"


@pytest.mark.parametrize("error", [ValueError("bug"), KeyError("bug"), TypeError("bug"),
                                   IndexError("bug"), OSError("bug"), ImportError("bug"),
                                   ZeroDivisionError("bug"), RuntimeError("bug")],
                         ids=lambda e: type(e).__name__)
def test_other_exceptions_are_bugs_and_propagate(capsys, monkeypatch, error):
    """An internal bug must not look like bad usage: no exit 2, the exception itself."""
    _command_raising(monkeypatch, error)
    with pytest.raises(type(error), match="bug"):
        main(["fail"])
    assert "error:" not in capsys.readouterr().err


def test_missing_pinocchio_is_a_usage_error_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pinocchio", None)
    with pytest.raises(cli.MissingDependencyError, match=r"pip install 'pinref\[pin\]'") as info:
        require_pinocchio()
    assert isinstance(info.value, cli.UsageError) and isinstance(info.value, ImportError)


def _bad_npz(tmp_path):
    path = tmp_path / "states.npz"
    np.savez(path, q=np.zeros((2, 9)), v=np.zeros((3, 8)), tau=np.zeros((3, 8)))
    return path


@pytest.mark.parametrize("argv, message", [
    (["info", "--model", "nope"], "unknown model 'nope'"),
    (["trace", "aba", "--model", "nope"], "unknown model 'nope'"),
    (["check", "--model", "nope"], "unknown model 'nope'"),
    (["diff", "--model", "nope"], "unknown model 'nope'"),
    (["info", "--model", "{tmp}/missing.urdf"], "cannot read the URDF file"),
    (["trace", "rnea", "--model", "{tmp}/dir.urdf"], "dir.urdf"),
    (["check", "--model", "{tmp}/bad.urdf"], "not well-formed XML"),
    (["diff", "--states-file", "{tmp}/states.npz"], "inconsistent state sizes"),
    (["diff", "--armature", "-1", "--states", "1"], "non-negative"),
    (["trace", "aba", "--armature", "nan"], "finite"),
    (["check", "--replay", "{tmp}/nowhere.npz"], "is missing"),
    (["check", "--replay", "{tmp}/notes.txt"], "a snapshot is a .npz file"),
])
def test_bad_input_keeps_exit_2(capsys, tmp_path, argv, message):
    """Each intended bad-input path raises a PinrefError or a UsageError (else it would now
    propagate as a bug): exit 2 and the message, nothing on stdout."""
    (tmp_path / "dir.urdf").mkdir()
    (tmp_path / "bad.urdf").write_text("<robot")
    _bad_npz(tmp_path)
    argv = [a.format(tmp=tmp_path) for a in argv]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"pinref {argv[0]}: error: ") and message in err, err


@pytest.mark.parametrize("argv", [["diff", "--states", "1"],
                                  ["check", "--backend", "pin", "--states", "1"],
                                  ["check", "--backend", "pin", "--drills", "--states", "1"]])
def test_pin_missing_keeps_exit_2(capsys, monkeypatch, argv):
    monkeypatch.setitem(sys.modules, "pinocchio", None)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and "pip install 'pinref[pin]'" in err


def test_model_arguments_are_shared():
    parser = argparse.ArgumentParser()
    cli.add_model_arguments(parser)
    args = parser.parse_args(["--model", "manipulator", "--free-flyer"])
    assert cli.model_from_args(args).nv == 12


def test_python_dash_m():
    out = subprocess.run([sys.executable, "-m", "pinref", "info", "--model", "humanoid"],
                         capture_output=True, text=True, check=True).stdout
    assert "nq = 35, nv = 34, njoints = 30" in out


def test_console_script_exit_codes():
    """The README's install (pip install -e ".[test]", as .ci/run does) installs the console
    script next to the interpreter: a missing script is a packaging bug, not a reason to skip."""
    script = Path(sys.executable).parent / "pinref"
    assert script.exists(), (f"the pinref console script is not installed next to "
                             f"{sys.executable}: check [project.scripts] in pyproject.toml")
    done = subprocess.run([str(script), "diff", "--states", "2"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and "all agree" in done.stdout
    assert done.stderr == ""          # no progress when stderr is not a terminal
    done = subprocess.run([str(script), "diff", "--model", "nope"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 2 and "unknown model" in done.stderr
