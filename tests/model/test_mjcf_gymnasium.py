"""The MuJoCo assets of the ``gymnasium`` wheel (gymnasium/envs/mujoco/assets/*.xml) against
pin: under pin 3.8.0, every asset pin loads gives pinref's model equal to pin's, field by
field, and the same RNEA, CRBA and ABA caches at random states, with and without a free-flyer
root (an asset pin refuses, pinref refuses with MJCFError). Under either reference version,
the caches of pinref's models equal those pin computes on the same models (the bridge), and
``versions.differs(pin, "mjcf_parser")`` tells whether pin's parse is 3.8.0's. The whole
matrix takes about two seconds, so it runs by default."""

from importlib.resources import files

import pinocchio as pin
import pytest

import pinref
from mjcf_check import (MJCF_DIR, PIN_PARSER_IS_3_8_0, assert_caches_equal,
                        assert_models_equal, load)
from pinref.compare import to_pinocchio
from pinref.compare.versions import differs

ASSETS = sorted(str(p) for p in (files("gymnasium") / "envs" / "mujoco" / "assets").iterdir()
                if p.name.endswith(".xml"))
NAMES = [p.rsplit("/", 1)[-1][:-4] for p in ASSETS]
FEATURES = sorted(str(p) for p in MJCF_DIR.glob("*.xml") if p.name != "include_part.xml")
ROOTS = {"fixed": False, "free_flyer": True}


def _pinref(path, root):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pinref.errors.MJCFWarning)
        return (pinref.buildModelFromMJCF(path, pinref.JointModelFreeFlyer()) if root
                else pinref.buildModelFromMJCF(path))


@PIN_PARSER_IS_3_8_0
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


@PIN_PARSER_IS_3_8_0
@pytest.mark.parametrize("root", list(ROOTS))
@pytest.mark.parametrize("path", ASSETS, ids=NAMES)
def test_every_asset_matches_pin(path, root):
    try:
        pin.buildModelFromMJCF(path, *([pin.JointModelFreeFlyer()] if ROOTS[root] else []))
    except Exception:  # noqa: BLE001 - pin's refusal, whatever its type
        with pytest.raises(pinref.errors.MJCFError):
            load(path, ROOTS[root])
        return
    rmodel, pmodel = load(path, ROOTS[root])
    assert_models_equal(rmodel, pmodel)
    assert_caches_equal(rmodel, pmodel, seed=len(path) + ROOTS[root], batch=(2,))


# keyframes.xml's keys have no entries for a root joint: with one, the file is refused
CASES = [(path, root) for path in ASSETS + FEATURES for root in ROOTS
         if not (path.endswith("/keyframes.xml") and ROOTS[root])]


@pytest.mark.parametrize("path, root", CASES,
                         ids=[f"{p.rsplit('/', 1)[-1][:-4]}-{r}" for p, r in CASES])
def test_caches_of_pinrefs_models_match_the_installed_pin(path, root):
    """pinref's MJCF model, copied to pin by the bridge: the caches agree in 3.8.0 and 4.x."""
    rmodel = _pinref(path, ROOTS[root])
    assert_caches_equal(rmodel, to_pinocchio(rmodel), seed=len(path) + 7 * ROOTS[root])


def test_the_parser_difference_is_the_installed_pins():
    """3.8.0 places ant's free joint at its body's pos (z = 0.75), as pinref; 4.x at the
    origin (docs/quirks.md, mjcf_parser)."""
    path = ASSETS[NAMES.index("ant")]
    z = pin.buildModelFromMJCF(path).jointPlacements[1].translation[2]
    assert _pinref(path, False).jointPlacements[1].translation[2] == 0.75
    assert z == (0.0 if differs(pin, "mjcf_parser") else 0.75)
