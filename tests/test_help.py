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


def test_python_run_from_the_clones_parent_imports_the_package(tmp_path):
    """Issue 24: run from the directory that holds the clone (named pinref), ``import pinref``
    found the clone's folder, an empty namespace package. The editable install puts the clone
    on sys.path (pyproject: package-dir "" = "."), where the package is found first."""
    import subprocess
    import sys
    from pathlib import Path

    try:
        metadata.distribution("pinref")
    except metadata.PackageNotFoundError:
        pytest.skip("pinref is not installed here (run from the clone); the check is of the "
                    "install")
    root = Path(__file__).resolve().parents[1]
    (tmp_path / "pinref").symlink_to(root)
    p = subprocess.run([sys.executable, "-c", "import pinref; print(pinref.buildTutorialModel()"
                        ".nv, pinref.__file__)"], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("8 ") and p.stdout.strip().endswith("pinref/__init__.py")
