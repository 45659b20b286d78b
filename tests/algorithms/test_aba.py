"""ABA (pinref/algorithms/aba.py) against Pinocchio 3.8.0, cache by cache, after every call of a
call sequence run on one Data (call_sequences.check_call_sequence).
"""

import pytest
from call_sequences import CASES, check_call_sequence

# Call sequences: each step is (function name, arguments it takes from the state).
SEQUENCES = {
    "aba": [("aba", "qvt")],
    "aba_fext_twice": [("aba", "qvtf"), ("aba", "qvtf")],
}


@pytest.mark.parametrize("armature", [False, True], ids=["no_armature", "armature"])
@pytest.mark.parametrize("sequence", list(SEQUENCES))
@pytest.mark.parametrize(("model_name", "batch"), CASES, ids=str)
def test_call_sequence_matches_pin(model_name, sequence, batch, armature):
    check_call_sequence(SEQUENCES[sequence], model_name, sequence, batch, armature)
