"""The kinetic, potential and mechanical energies (pinref/algorithms/energy.py) against
Pinocchio 3.8.0, call by call (call_sequences.check_com_energy_sequence: the result and the
caches of every call, per state).
"""

import numpy as np
import pytest
from call_sequences import COM_BATCHES, check_com_energy_sequence
from models import MODEL_NAMES, build, random_states

import pinref

# Call sequences: (function, arguments). "q", "v", "a" are the state; the rest is passed as is.
SEQUENCES = {
    "energy": [("computeKineticEnergy", ("q", "v")), ("computePotentialEnergy", ("q",)),
               ("computeMechanicalEnergy", ("q", "v"))],
    "energy_from_data": [("forwardKinematics", ("q", "v")), ("computeKineticEnergy", ()),
                         ("computePotentialEnergy", ()), ("computeMechanicalEnergy", ())],
}


@pytest.mark.parametrize("armature", [False, True], ids=["no_armature", "armature"])
@pytest.mark.parametrize("batch", COM_BATCHES, ids=str)
@pytest.mark.parametrize("sequence", list(SEQUENCES))
@pytest.mark.parametrize("model_name", MODEL_NAMES)
def test_call_sequence_matches_pin(model_name, sequence, batch, armature):
    check_com_energy_sequence(SEQUENCES[sequence], model_name, sequence, batch, armature)


def test_energy_returns_a_float_for_one_state_and_an_array_for_a_batch():
    rmodel, pmodel = build("tutorial")
    q, v, _ = random_states(pmodel, (3,), np.random.default_rng(0))
    data = rmodel.createData()
    T = pinref.computeKineticEnergy(rmodel, data, q[0], v[0])
    assert isinstance(T, float)
    Ts = pinref.computeKineticEnergy(rmodel, data, q, v)
    assert Ts.shape == (3,) and not np.shares_memory(Ts, data.kinetic_energy)
    com = pinref.centerOfMass(rmodel, data, q)
    assert com.shape == (3, 3) and not np.shares_memory(com, data.com[0])
