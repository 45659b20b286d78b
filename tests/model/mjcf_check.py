"""Shared by the MJCF tests: load a file with pinref and pin 3.8.0 and compare them.

Oracle: pin 3.8.0's ``buildModelFromMJCF`` on the same file (the test files that compare
parses carry ``PIN_PARSER_IS_3_8_0``: pin 4.x's parser is another one).
``assert_matches_pin`` compares every model field (``model_fields`` of test_bridge.py) bit for
bit but the joints' body inertias (1e-15 * max(1, |ref|)), the reference configurations
(keyframes) exactly, then the RNEA, CRBA and ABA caches at random states (1e-12,
tests/models.py).
"""

import warnings
from pathlib import Path

import numpy as np
import pinocchio as pin
import pytest

import pinref
from models import compare_data, random_states
from pinref.compare.versions import differs
from test_bridge import assert_fields_equal, model_fields

MJCF_DIR = Path(__file__).parent / "mjcf"
TOL = 1e-15
PIN_PARSER_IS_3_8_0 = pytest.mark.skipif(
    differs(pin, "mjcf_parser"),
    reason="pin 4.x's MJCF parser is not 3.8.0's, which pinref mirrors (docs/quirks.md, "
           "mjcf_parser); the pin 3.8.0 run compares the parses, this one the caches "
           "(test_mjcf_gymnasium.py)")


def load(path, root=False, record=None):
    """(pinref model, pin model) of ``path``, with a free-flyer root joint when ``root``.
    pinref's MJCFWarnings go to the list ``record`` (ignored when None)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rmodel = (pinref.buildModelFromMJCF(path, pinref.JointModelFreeFlyer()) if root
                  else pinref.buildModelFromMJCF(path))
    if record is not None:
        record.extend(w for w in caught if issubclass(w.category, pinref.errors.MJCFWarning))
    pmodel = (pin.buildModelFromMJCF(str(path), pin.JointModelFreeFlyer()) if root
              else pin.buildModelFromMJCF(str(path)))
    return rmodel, pmodel


def reference_configurations(pmodel):
    """pin's referenceConfigurations as a dict (its map iterates over entries)."""
    return {entry.key(): np.array(entry.data()) for entry in pmodel.referenceConfigurations}


def assert_models_equal(rmodel, pmodel, tol=TOL):
    """Every field and every reference configuration equal: bit for bit but the joints' body
    inertias (pinref's Model merges bodies with its own Inertia arithmetic), which are within
    ``tol``; returns their worst difference."""
    got, ref = model_fields(rmodel), model_fields(pmodel)
    bodies = [key for key in ref if key.startswith("inertias[")]
    worst = assert_fields_equal({k: got.pop(k) for k in bodies}, {k: ref.pop(k) for k in bodies},
                                tol=tol)
    assert_fields_equal(got, ref)
    ref = reference_configurations(pmodel)
    assert set(rmodel.referenceConfigurations) == set(ref)
    for key, q in ref.items():
        np.testing.assert_array_equal(rmodel.referenceConfigurations[key], q, err_msg=key)
    return worst


def assert_caches_equal(rmodel, pmodel, seed=0, batch=()):
    """RNEA, CRBA and ABA give pin's caches at random states (``batch`` of them)."""
    rng = np.random.default_rng(seed)
    q, v, a = random_states(pmodel, batch, rng)
    tau = rng.normal(size=batch + (rmodel.nv,))
    rdata = rmodel.createData()
    states = list(np.ndindex(*batch))
    pdatas = [pmodel.createData() for _ in states]
    for name, args in (("rnea", (q, v, a)), ("crba", (q,)), ("aba", (q, v, tau))):
        getattr(pinref, name)(rmodel, rdata, *args)
        for k, idx in enumerate(states):
            getattr(pin, name)(pmodel, pdatas[k], *(x[idx] for x in args))
        compare_data(rmodel, rdata, pdatas, pmodel, batch, f"after {name}")


def assert_matches_pin(path, roots=(False, True), caches=True, warns=None):
    """The model of ``path`` equals pin's, with and without a free-flyer root, and so do the
    caches; with ``warns``, pinref's MJCFWarning holds that phrase. Returns the warnings."""
    record = []
    for root in roots:
        rmodel, pmodel = load(path, root, record)
        assert_models_equal(rmodel, pmodel)
        if caches:
            assert_caches_equal(rmodel, pmodel, seed=len(Path(path).stem) + root)
    if warns is not None:
        assert warns in warning_text(record), (warns, warning_text(record))
    return record


def write(tmp_path, text, name="model.xml"):
    """``text`` written to ``tmp_path / name``; its path."""
    path = tmp_path / name
    path.write_text(text)
    return path


def variant(tmp_path, name, old, new):
    """The feature file ``mjcf/<name>.xml`` with ``old`` (which it holds) replaced by ``new``,
    written to ``tmp_path``; its path."""
    text = (MJCF_DIR / f"{name}.xml").read_text()
    assert old in text, (name, old)
    return write(tmp_path, text.replace(old, new), f"{name}.xml")


def warning_text(record):
    return "\n".join(str(w.message) for w in record)
