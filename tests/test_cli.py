"""The pinref command: info, the subcommand registry, python -m pinref, the console script.

``pinref diff`` and ``pinref trace`` are tested in tests/tools/test_diff_cli.py.
"""

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from pinref import cli
from pinref.cli import main

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
    script = Path(sys.executable).parent / "pinref"
    if not script.exists():
        pytest.skip("the pinref console script is not installed in this environment")
    done = subprocess.run([str(script), "diff", "--states", "2"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0 and "all agree" in done.stdout
    assert done.stderr == ""          # no progress when stderr is not a terminal
    done = subprocess.run([str(script), "diff", "--model", "nope"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 2 and "unknown model" in done.stderr
