"""The help texts: the installed Pinocchio named as installed, each experiment its own text."""

from importlib import metadata

import pytest

from pinref.cli import main


def help_text(capsys, *argv):
    assert main([*argv, "--help"]) == 0
    return " ".join(capsys.readouterr().out.split())


def test_the_top_help_names_the_installed_pin(capsys):
    text = help_text(capsys)
    assert f"the installed Pinocchio, pin {metadata.version('pin')}." in text


@pytest.mark.parametrize("experiment, own, other", [
    ("energy", "Semi-implicit Euler (aba, then integrate)", "Central differences at eps"),
    ("eps-sweep", "Central differences at eps", "Semi-implicit Euler"),
])
def test_an_experiment_has_its_own_help(capsys, experiment, own, other):
    text = help_text(capsys, "experiment", experiment)
    parent = help_text(capsys, "experiment")
    assert own in text and other not in text
    assert "the tutorials' experiments" in parent and "the tutorials' experiments" not in text
