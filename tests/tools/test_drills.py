"""Mutation drills: every classic mistake of the tutorials must be caught by at least one check,
the unmutated backend must pass, and a drill must leave pinref as it found it.

Oracle: the mistakes are planted on purpose, so a check that stays green under one is a hole
in the suite; the expected catcher of each drill is the check the tutorial designed for it.
"""

import json

import numpy as np
import pytest

import pinref
from pinref.checking import DRILL_IDS, DRILLS, make_backend, make_states, run_drills
from pinref.checking.checks import run_checks
from pinref.checking.drills import (
    FiniteDifferencesOnStoredNumbers,
    WrappedBackend,
    aba_without_Ia_c,
)
from pinref.cli import main


# The check the tutorial designed for each mistake: it must be among the catchers.
DESIGNED = {
    "symmetrised_M": "rnea_crba_nle",
    "swapped_v_tau": "aba_inverts_rnea",
    "world_fext": "fext_jacobian",
    "unmoved_moment": "fext_jacobian",
    "dropped_Ia_c": "aba_inverts_rnea",
    "forgotten_armature": "armature",
    "fd_on_q_numbers": "derivative_dq",
    "local_J_world_V": "jacobian_velocity",
}


def setup(name="tutorial", n=6, seed=0, backend="pinref"):
    model = {"tutorial": pinref.buildTutorialModel, "humanoid": pinref.buildSampleModelHumanoid,
             "manipulator": pinref.buildSampleModelManipulator}[name]()
    states = make_states(model, n, seed)
    return make_backend(backend, model).with_model(armature=states.armature,
                                                   gravity=states.gravity), states


@pytest.mark.parametrize("name", ["tutorial", "humanoid"])
def test_every_drill_is_caught_and_the_unmutated_backend_passes(name):
    backend, states = setup(name)
    report = run_drills(backend, states)
    assert report.baseline_failures == []
    assert [d.id for d in report.drills] == list(DRILL_IDS) == list(DESIGNED)
    for d in report.drills:
        assert d.verdict == "caught" and d.caught_by, d.id
        assert DESIGNED[d.id] in d.caught_by, (d.id, d.caught_by)
        for check_id in d.caught_by:
            assert d.details[check_id]["verdict"] in ("fail", "error")
    assert report.passed


def test_which_checks_catch_which_drill():
    """The catchers on the tutorial model, as docs/check.md lists them. Two are the tutorial's
    warnings made visible: a world-frame wrench passes ABA's consistency with RNEA (both get
    the same wrong wrench), and forgetting the armature everywhere keeps every other identity."""
    backend, states = setup("tutorial", n=10)
    caught = {d.id: d.caught_by for d in run_drills(backend, states).drills}
    assert caught["world_fext"] == ["fext_jacobian"]
    assert caught["unmoved_moment"] == ["fext_jacobian"]
    assert caught["forgotten_armature"] == ["armature"]
    assert caught["fd_on_q_numbers"] == ["derivative_dq"]
    assert caught["local_J_world_V"] == ["jacobian_velocity"]
    assert caught["symmetrised_M"] == ["rnea_crba_nle", "mass_matrix_columns", "kinetic_energy",
                                       "armature"]
    assert caught["swapped_v_tau"] == ["aba_inverts_rnea", "fext_aba", "floating_base"]
    assert caught["dropped_Ia_c"] == ["aba_inverts_rnea", "fext_aba", "floating_base"]


def test_drills_against_pinocchio():
    """The wrapped drills plant the same mistakes in front of Pinocchio; the one inside pinref's
    ABA cannot, and says so."""
    backend, states = setup("tutorial", n=3, backend="pin")
    report = run_drills(backend, states)
    assert report.baseline_failures == [] and report.passed
    verdicts = {d.id: d.verdict for d in report.drills}
    assert verdicts.pop("dropped_Ia_c") == "skip"
    assert set(verdicts.values()) == {"caught"}


def test_the_mutation_is_removed():
    hooks = pinref.algorithms.steps._HOOKS
    original = hooks.get()
    backend, states = setup("tutorial", n=2)
    run_drills(backend, states, ids=["dropped_Ia_c"])
    assert hooks.get() == original
    with pytest.raises(RuntimeError), aba_without_Ia_c():
        assert hooks.get() != original
        raise RuntimeError("a failure inside the block")
    assert hooks.get() == original
    # and pinref outside a drill is pinref: the checks pass again
    assert not any(r.failed for r in run_checks(backend, states))


def test_the_mutant_pass_is_the_original_without_Ia_c():
    """With v = 0 and no gravity the bias c is zero, so the mutant must agree with pinref; with
    velocity it must not (the term it drops is what differs)."""
    model = pinref.buildTutorialModel()
    model.gravity = pinref.Motion(np.zeros(6))
    st = make_states(model, 3, 1)
    ref = pinref.aba(model, model.createData(), st.q, 0 * st.v, st.tau)
    with aba_without_Ia_c():
        still = pinref.aba(model, model.createData(), st.q, 0 * st.v, st.tau)
        moving = pinref.aba(model, model.createData(), st.q, st.v, st.tau)
    np.testing.assert_allclose(still, ref, rtol=0, atol=1e-12)
    assert np.abs(moving - pinref.aba(model, model.createData(), st.q, st.v, st.tau)).max() > 1e-3


def test_the_mutant_pass_shows_in_a_trace():
    model = pinref.buildTutorialModel()
    st = make_states(model, 1, 0)
    with aba_without_Ia_c(), pinref.trace() as t:
        pinref.aba(model, model.createData(), st.q[0], st.v[0], st.tau[0])
    steps = [s.step for s in t.snapshots if s.step == "AbaLocalConventionBackwardStep"]
    assert len(steps) == model.njoints - 1


def test_a_drill_does_not_leak_into_other_backends():
    backend, states = setup("tutorial", n=2)
    drilled = {d.id: d.backend for d in DRILLS}["symmetrised_M"](backend)
    assert isinstance(drilled, WrappedBackend) and drilled.inner is backend
    M = backend.crba(states.q)
    np.testing.assert_array_equal(drilled.crba(states.q), M + np.swapaxes(M, -1, -2))
    np.testing.assert_array_equal(backend.crba(states.q), M)
    # with_model keeps the drill (the armature check builds a variant of the model)
    variant = drilled.with_model(armature=np.zeros(8))
    assert type(variant) is type(drilled)


def test_finite_differences_on_stored_numbers_is_no_mistake_without_rotations():
    """On a model whose q is a plain vector (nq == nv, no quaternion) stepping q[j] is moving
    along e_j: the drill plants nothing there, and no check should (or does) fail."""
    backend, states = setup("manipulator", n=3)
    np.testing.assert_array_equal(FiniteDifferencesOnStoredNumbers(backend).tangent_step(
        states.q, states.v), backend.integrate(states.q, states.v))
    report = run_drills(backend, states, ids=["fd_on_q_numbers"])
    assert report.drills[0].verdict == "missed" and not report.passed


def test_command_drills(capsys):
    code = main(["check", "--drills", "--states", "4"])
    out, err = capsys.readouterr()
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "pinref check --drills: model 'tutorial', backend pinref, 4 states, seed 0"
    assert lines[1] == "unmutated: all checks pass"
    assert lines[-1] == "every drill caught"
    for drill in DRILLS:
        row = next(k for k, line in enumerate(lines) if line.split()[1:2] == [drill.id])
        assert lines[row].startswith("CAUGHT") and drill.mistake in lines[row]
        assert DESIGNED[drill.id] in lines[row + 1].split("caught by: ")[1]
    assert err.startswith("pinref check --drills: ")


def test_command_drills_json_and_a_missed_drill(capsys):
    """With only the sizes check, no drill is caught: exit 1, and the JSON says which."""
    code = main(["check", "--drills", "--states", "2", "--checks", "sizes", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["passed"] is False and data["baseline_failures"] == []
    assert {d["verdict"] for d in data["drills"]} == {"missed"}
