"""``pinref diff --model file.xml``: an MJCF file is loaded as buildModelFromMJCF loads it and
diffed against pin, as a URDF is; a missing or bad file exits with 2 and no traceback."""

from importlib.resources import files

import pinocchio as pin

from pinref.cli import main

HOPPER = str(files("gymnasium") / "envs" / "mujoco" / "assets" / "hopper.xml")


def test_diff_on_an_mjcf_file(capsys):
    assert main(["diff", "--model", HOPPER, "--states", "5"]) == 0
    assert f"all agree with pin {pin.__version__}" in capsys.readouterr().out


def test_diff_on_an_mjcf_file_with_free_flyer(capsys):
    assert main(["diff", "--model", HOPPER, "--free-flyer", "--states", "3",
                 "--algorithm", "aba"]) == 0


def test_bad_mjcf_file_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.xml"
    bad.write_text("<mujoco model='m'><worldbody><body><joint type='screw'/></body>"
                   "</worldbody></mujoco>")
    assert main(["diff", "--model", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 1, <joint>: unknown joint type 'screw'" in err and "Traceback" not in err
    assert main(["diff", "--model", str(tmp_path / "missing.xml")]) == 2


def test_load_model_reads_an_mjcf_path_object_as_mjcf():
    """A pathlib.Path to an MJCF file is read as MJCF, as its str is (before, every PathLike
    went to the URDF reader, which refused the <mujoco> root)."""
    from pathlib import Path

    from pinref.model.loading import load_model
    from pinref.model.model import same_fields

    for free_flyer in (False, True):
        assert same_fields(load_model(Path(HOPPER), free_flyer), load_model(HOPPER, free_flyer))
