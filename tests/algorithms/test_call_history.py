"""ABA, RNEA and CRBA called one after the other on one Data against Pinocchio 3.8.0, cache by
cache, after every call: the call-history quirks of docs/quirks.md across algorithms
(call_sequences.check_call_sequence).
"""

import pytest
from call_sequences import CASES, check_call_sequence

# Call sequences: each step is (function name, arguments it takes from the state).
SEQUENCES = {
    "aba_then_rnea_crba": [("aba", "qvt"), ("rnea", "qva"), ("crba", "q"), ("aba", "qvtf")],
}


@pytest.mark.parametrize("armature", [False, True], ids=["no_armature", "armature"])
@pytest.mark.parametrize("sequence", list(SEQUENCES))
@pytest.mark.parametrize(("model_name", "batch"), CASES, ids=str)
def test_call_sequence_matches_pin(model_name, sequence, batch, armature):
    check_call_sequence(SEQUENCES[sequence], model_name, sequence, batch, armature)
