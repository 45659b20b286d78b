"""RNEA, CRBA, ABA, nonLinearEffects, gravity, static torque and forward kinematics against
Pinocchio 3.8.0, cache by cache, after every call of a call sequence run on one Data.

Each state of a batch gets its own pin Data running the same sequence; pinref runs the sequence
once on the whole batch. After every call, every cache of both Data objects is compared per
state at ``1e-12 * max(1, max|ref|)``: the ones the call writes, and the ones it must leave
alone (which is how the call-history quirks of docs/quirks.md are checked).
"""

import numpy as np
import pinocchio as pin
import pytest

import pinref
from conftest import assert_close
from models import (MODEL_NAMES, check_hidden_caches, compare_data, random_fext,
                    sequence_setup)

BATCHES = [(), (1,), (5,), (2, 3)]

# Call sequences: each step is (function name, arguments it takes from the state).
SEQUENCES = {
    "rnea": [("rnea", "qva")],
    "rnea_fext": [("rnea", "qvaf")],
    "crba": [("crba", "q")],
    "aba": [("aba", "qvt")],
    "aba_fext_twice": [("aba", "qvtf"), ("aba", "qvtf")],
    "fk_then_aba": [("forwardKinematics", "qva"), ("aba", "qvt")],
    "aba_then_rnea_crba": [("aba", "qvt"), ("rnea", "qva"), ("crba", "q"), ("aba", "qvtf")],
    "nle_gravity_static": [("nonLinearEffects", "qv"), ("computeGeneralizedGravity", "q"),
                           ("computeStaticTorque", "qf")],
}


def _pin_fext(fext):
    return [pin.Force(np.array(f)) for f in fext]


def _args(step, state, lib):
    """The positional arguments of one call for pinocchio (lib='pin') or pinref."""
    q, v, a, tau, fext = state
    out = []
    for key in step:
        if key == "f":
            out.append(_pin_fext(fext) if lib == "pin" else fext)
        else:
            out.append({"q": q, "v": v, "a": a, "t": tau}[key])
    return out


# A one-joint pendulum (nv == 1) at every batch shape but (1,): for nq == 1 the shape (1, 1) is
# one column, as Pinocchio reads it (docs/algorithms.md, "Column vectors and batches").
CASES = ([(m, b) for m in MODEL_NAMES for b in BATCHES]
         + [("pendulum", b) for b in BATCHES if b != (1,)])


@pytest.mark.parametrize("armature", [False, True], ids=["no_armature", "armature"])
@pytest.mark.parametrize("sequence", list(SEQUENCES))
@pytest.mark.parametrize(("model_name", "batch"), CASES, ids=str)
def test_call_sequence_matches_pin(model_name, sequence, batch, armature):
    rng, rmodel, pmodel, q, v, a = sequence_setup(model_name, sequence, batch, armature)
    tau = rng.normal(size=batch + (rmodel.nv,)) * 10
    fext = random_fext(rmodel.njoints, batch, rng)
    rdata = pinref.Data(rmodel)
    states = list(np.ndindex(*batch))
    pdatas = [pmodel.createData() for _ in states]
    compare_data(rmodel, rdata, pdatas, pmodel, batch, "fresh Data")
    for name, keys in SEQUENCES[sequence]:
        got = getattr(pinref, name)(rmodel, rdata, *_args(keys, (q, v, a, tau, fext), "pinref"))
        for k, idx in enumerate(states):
            state = (q[idx], v[idx], a[idx], tau[idx], fext[idx])
            ref = getattr(pin, name)(pmodel, pdatas[k], *_args(keys, state, "pin"))
            if ref is not None:
                assert got.shape == batch + np.shape(ref)
                assert_close(got[idx], ref, what=f"{name} result at state {idx}")
        compare_data(rmodel, rdata, pdatas, pmodel, batch, f"after {name}")
        if name == "aba":
            for k, idx in enumerate(states):
                check_hidden_caches(rmodel, rdata, pmodel, pdatas[k], idx, batch)
