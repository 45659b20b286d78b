"""The pinref command."""

import subprocess
import sys

import pytest

from pinref.cli import main


def test_info_prints_the_index_table(capsys):
    assert main(["info"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["1", "root_joint", "JointModelFreeFlyer", "universe", "0", "7",
                              "0", "6"]
    assert out[3].split()[4:] == ["8", "1", "7", "1"]
    assert out[-1] == "nq = 9, nv = 8, njoints = 4"


def test_unknown_model_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["info", "--model", "nope"])
    assert exc.value.code == 2


def test_python_dash_m():
    out = subprocess.run([sys.executable, "-m", "pinref", "info", "--model", "humanoid"],
                         capture_output=True, text=True, check=True).stdout
    assert "nq = 35, nv = 34, njoints = 30" in out
