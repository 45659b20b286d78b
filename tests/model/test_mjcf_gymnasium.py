"""The MuJoCo assets of the ``gymnasium`` wheel (gymnasium/envs/mujoco/assets/*.xml) against
pin 3.8.0: every asset pin loads gives pinref's model equal to pin's, field by field, and the
same RNEA, CRBA and ABA caches at random states, with and without a free-flyer root; an asset
pin refuses, pinref refuses with MJCFError. The whole matrix takes about two seconds, so it
runs by default."""

from importlib.resources import files

import pinocchio as pin
import pytest

import pinref
from mjcf_check import assert_caches_equal, assert_models_equal, load

ASSETS = sorted(str(p) for p in (files("gymnasium") / "envs" / "mujoco" / "assets").iterdir()
                if p.name.endswith(".xml"))
NAMES = [p.rsplit("/", 1)[-1][:-4] for p in ASSETS]


def _check(path, root):
    try:
        pin.buildModelFromMJCF(path, *([pin.JointModelFreeFlyer()] if root else []))
    except Exception:  # noqa: BLE001 - pin's refusal, whatever its type
        with pytest.raises(pinref.errors.MJCFError):
            load(path, root)
        return
    rmodel, pmodel = load(path, root)
    assert_models_equal(rmodel, pmodel)
    assert_caches_equal(rmodel, pmodel, seed=len(path) + root, batch=(2,))


def test_the_counts_of_docs_mjcf():
    """gymnasium 1.4.0 (the test extra's) ships 14 assets; pin loads every one, and pinref
    warns on all but four (docs/mjcf.md, "Checked against pin")."""
    assert len(ASSETS) == 14
    silent = []
    for path, name in zip(ASSETS, NAMES):
        pin.buildModelFromMJCF(path)
        record = []
        load(path, False, record)
        if not record:
            silent.append(name)
    assert silent == ["hopper", "point", "walker2d", "walker2d_v5"]


@pytest.mark.parametrize("root", [False, True], ids=["fixed", "free_flyer"])
@pytest.mark.parametrize("path", ASSETS, ids=NAMES)
def test_every_asset_matches_pin(path, root):
    _check(path, root)
