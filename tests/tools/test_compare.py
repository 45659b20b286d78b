"""pinref.compare: the cache diff against Pinocchio 3.8.0.

Oracles: pin itself (pinref's algorithms agree with it to 1e-12, tests/algorithms), so the diff
must report agreement on every model, batch shape and input; a deliberately broken step must
be reported at its pass, joint and field; the reconstructed hidden caches must equal pinref's
and those of tests/models.check_hidden_caches; the report's numbers must be those recomputed
by hand from both Data objects.
"""

import json
import sys
from pathlib import Path

import numpy as np
import pinocchio as pin
import pytest
from models import random_tree

import pinref
from pinref.checking.drills import aba_without_Ia_c
from pinref.compare import DiffReport, compare
from pinref.compare.versions import REFERENCE_VERSIONS
from pinref.errors import ModelError, NotNormalizedError, ShapeError, URDFError
from pinref.tracing.states import random_states
from pinref.tracing import steps as S



@pytest.mark.parametrize("name", ["tutorial", "manipulator", "humanoid"])
@pytest.mark.parametrize("fext, armature", [(None, None), (True, 0.25)],
                         ids=["plain", "fext_armature"])
def test_sample_models_agree(name, fext, armature):
    report = compare(name, states=8, fext=fext, armature=armature, seed=3)
    assert report.agree, str(report)
    assert [a.algorithm for a in report.algorithms] == ["rnea", "crba", "aba"]
    for a in report.algorithms:
        assert a.first_divergence is None and a.fields_failed == 0
        assert a.worst().max_rel_error <= 1e-12
        assert a.stops_compared > 0


@pytest.mark.parametrize("seed", [0, 1])
def test_random_trees_with_every_joint_type_agree(seed):
    report = compare(random_tree(seed), states=6, fext=True, armature=0.5, seed=seed)
    assert report.agree, str(report)


def test_every_write_of_every_stop_is_compared():
    report = compare("tutorial", states=3, fext=True)
    model = pinref.buildTutorialModel()
    data = model.createData()
    st = random_states(model, 3, 0, True)
    expected = {}
    for algo, args in (("rnea", ("q", "v", "a")), ("crba", ("q",)), ("aba", ("q", "v", "tau"))):
        with pinref.trace() as t:
            kw = {} if algo == "crba" else {"fext": st["fext"]}
            getattr(pinref, algo)(model, data, *(st[k] for k in args), **kw)
        expected[algo] = (len(t), sum(len(s.writes) for s in t))
    for a in report.algorithms:
        assert (a.stops_compared, a.fields_compared) == expected[a.algorithm]


@pytest.mark.parametrize("batch", [(), (1,), (4,), (2, 3)], ids=str)
def test_given_states_of_any_batch_shape(batch):
    model = pinref.buildSampleModelManipulator()
    rng = np.random.default_rng(7)
    n = int(np.prod(batch))
    q = pinref.randomConfiguration(model, -np.ones((n, 6)), np.ones((n, 6)), rng=rng)
    q = q.reshape(batch + (6,))
    v, a = rng.normal(size=batch + (6,)), rng.normal(size=batch + (6,))
    fext = rng.normal(size=batch + (model.njoints, 6))
    report = compare(model, q, v, a, fext=fext, armature=np.linspace(0.1, 0.6, 6))
    assert report.agree and report.batch_shape == batch and report.states == max(n, 1)
    loc = report["aba"].worst().where_rel
    assert len(loc.state) == len(batch)
    assert report.inputs["states"] == "given" and report.inputs["fext"] == "yes"


def test_missing_a_or_tau_is_computed():
    model = pinref.buildTutorialModel()
    st = random_states(model, 2, 5)
    r1 = compare(model, st["q"], st["v"], a=st["a"])
    r2 = compare(model, st["q"], st["v"], tau=st["tau"])
    assert r1.agree and r2.agree
    assert compare(model, st["q"], algorithm="crba").agree


def test_pinocchio_model_and_free_flyer():
    pm = pin.buildSampleModelManipulator()
    report = compare(pm, states=3)
    assert report.agree and report.model["nv"] == 6
    report = compare(pm, states=3, free_flyer=True, algorithm="aba")
    assert report.agree and report.model["nv"] == 12
    assert report.model["joints"][1] == "root_joint"
    assert pm.nv == 6          # the caller's model is untouched
    report = compare("manipulator", states=3, free_flyer=True, fext=True)
    assert report.agree and report.model["nq"] == 13
    with pytest.raises(ModelError, match="already has a free-flyer"):
        compare("tutorial", free_flyer=True)


def test_urdf_path(tmp_path):
    path = min((Path(__file__).parents[1] / "model" / "urdf").glob("*.urdf"))
    report = compare(path, states=3, free_flyer=True)
    assert report.agree and report.model["name"] == str(path)


def test_armature_is_applied_on_copies():
    model = pinref.buildTutorialModel()
    report = compare(model, states=2, armature=0.7)
    assert report.agree and np.all(model.armature == 0)
    assert report.inputs["armature"] == "[0.7]"


def test_numbers_are_those_of_both_data():
    """The report's worst ddq error, recomputed from pinref's and pin's Data."""
    model = pinref.buildSampleModelHumanoid()
    st = random_states(model, 4, 11)
    report = compare(model, st["q"], st["v"], tau=st["tau"], algorithm="aba")
    pm = pinref.to_pinocchio(model)
    ddq = pinref.aba(model, model.createData(), st["q"], st["v"], st["tau"])
    errs = []
    for k in range(4):
        ref = pin.aba(pm, pm.createData(), st["q"][k], st["v"][k], st["tau"][k])
        errs.append(np.abs(ddq[k] - ref).max() / max(1.0, np.abs(ref).max()))
    c = next(c for c in report["aba"].caches if c.cache == "ddq")
    assert c.max_rel_error == pytest.approx(max(errs), rel=1e-12, abs=0)
    if c.max_abs_error > 0:
        loc = c.where_rel
        assert loc.state == (int(np.argmax(errs)),)
        assert model.idx_vs[loc.joint_id] <= loc.row < model.idx_vs[loc.joint_id] + \
            model.nvs[loc.joint_id]
        assert loc.joint == model.names[loc.joint_id]
        assert loc.idx_v == (model.idx_vs[loc.joint_id],
                             model.idx_vs[loc.joint_id] + model.nvs[loc.joint_id])


def test_hidden_caches_are_reconstructed():
    report = compare("humanoid", states=3, fext=True, armature=0.1, algorithm="aba")
    caches = {c.cache: c for c in report["aba"].caches}
    assert caches["u"].agree and caches["u"].compared == 3
    assert "tau_i - S_i^T pA_i" in caches["u"].reference
    assert caches["joints.StU"].agree and caches["joints.StU"].compared == 29 * 3
    assert caches["Yaba"].reference == "pin end state"


@pytest.fixture
def broken_aba():
    """ABA's backward step without the Ia c term (pa_i = pA_i + UDinv_i u_i): the drill's
    mutant, pinref.checking.drills.aba_without_Ia_c, for the duration of the test."""
    with aba_without_Ia_c():
        yield


def test_broken_backward_step_is_found_at_its_pass_and_joint(broken_aba):
    report = compare("tutorial", states=5, seed=2)
    assert report["rnea"].agree and report["crba"].agree
    aba = report["aba"]
    assert not aba.agree and not report.agree
    d = aba.first_divergence
    # the leaf is eliminated first: joint 3's pa is the first value to go wrong
    assert (d.step, d.pass_number, d.joint_id, d.joint) == (S.ABA_BACKWARD, 2, 3, "ry2_joint")
    assert (d.field, d.cache) == ("f[3]", "f")
    assert d.where.joint == "ry2_joint" and d.where.entry.startswith("f[3][")
    assert d.rel_error > 1e-12 and d.states_failing == 5
    assert d.got != d.expected
    assert "pa_i = pA_i + Yaba_i c_i + UDinv_i u_i" in d.reference
    off = {c.cache for c in aba.caches if not c.agree}
    assert {"ddq", "f", "u"} <= off and "Yaba" not in off and "liMi" not in off
    text = str(report)
    assert "aba   DIFFER" in text and "first divergence" in text and "f[3]" in text


def test_broken_step_on_the_humanoid_points_at_the_last_leaf(broken_aba):
    report = compare("humanoid", states=3, algorithm="aba")
    d = report["aba"].first_divergence
    assert (d.pass_number, d.joint_id, d.field) == (2, 29, "f[29]")
    assert d.joint == "larm_wrist2_joint"


def test_at_rest_the_missing_term_is_invisible(broken_aba):
    """c_i = 0 when v = 0: the broken step then computes the right numbers."""
    model = pinref.buildTutorialModel()
    st = random_states(model, 2, 0)
    assert compare(model, st["q"], np.zeros((2, 8)), tau=st["tau"], algorithm="aba").agree


class _AfterStep(pinref.algorithms.steps.Hook):
    """A step hook (pinref.algorithms.steps) that runs ``change(data, joint)`` on each joint as
    it completes ``step``, before the trace (opened later, inside compare) records it."""

    def __init__(self, step, change):
        super().__init__()
        self.step, self.change = step, change

    def done(self, step, joints):
        if step is self.step:
            for i in joints:
                self.change(self.data[-1], i)


def test_broken_rnea_forward_step():
    def off_by_gravity(data, i):
        if i == 2:
            data.h[2] = data.h[2] * 1.5

    with pinref.algorithms.steps.hooked(_AfterStep(pinref.algorithms.steps.RNEA_FORWARD,
                                                   off_by_gravity)):
        d = compare("tutorial", states=2, algorithm="rnea")["rnea"].first_divergence
    assert (d.step, d.joint_id, d.field) == (S.RNEA_FORWARD, 2, "h[2]")


def test_an_end_state_only_difference():
    """A cache no stop writes is still compared at the end (here: oMi)."""
    def touch(data, i):
        data.oMi[i] = data.liMi[i]

    with pinref.algorithms.steps.hooked(_AfterStep(pinref.algorithms.steps.ABA_FORWARD2, touch)):
        d = compare("tutorial", states=2, algorithm="aba")["aba"].first_divergence
    assert d.step == "end state" and d.pass_number is None and d.cache == "oMi"


def test_tolerance_is_relative_to_max_1_ref():
    report = compare("humanoid", states=4, algorithm="rnea", tolerance=1e-16)
    assert not report.agree
    c = report["rnea"].worst()
    assert c.max_rel_error > 1e-16 and c.failed > 0
    assert report["rnea"].first_divergence.tolerance == 1e-16
    assert report["rnea"].conditioning is None     # RNEA inverts nothing: no amplification


def test_json_layout():
    report = compare("tutorial", states=2, algorithm=["aba"], fext=True)
    data = json.loads(report.to_json())
    assert set(data) == {"model", "states", "batch_shape", "tolerance", "inputs", "versions",
                         "algorithms", "seconds", "agree"}
    # The installed pin is the reference, and the report names it (text and JSON).
    assert data["versions"]["pin"] == pin.__version__ and pin.__version__ in REFERENCE_VERSIONS
    assert f"against pin {pin.__version__};" in str(report)
    assert data["model"] == {"name": "tutorial", "nq": 9, "nv": 8, "njoints": 4,
                             "joints": ["universe", "root_joint", "ry1_joint", "ry2_joint"]}
    assert data["batch_shape"] == [2] and data["agree"] is True
    (algo,) = data["algorithms"]
    assert set(algo) == {"algorithm", "caches", "first_divergence", "stops_compared",
                         "fields_compared", "fields_failed", "seconds", "conditioning", "agree"}
    cache = next(c for c in algo["caches"] if c["cache"] == "Yaba")
    assert set(cache) == {"cache", "max_abs_error", "max_rel_error", "where_abs", "where_rel",
                          "compared", "failed", "reference", "within_conditioning", "agree"}
    assert set(cache["where_rel"]) == {"state", "joint", "joint_id", "idx_v", "row", "col",
                                       "entry"}
    assert algo["first_divergence"] is None
    assert report.to_dict() == data


def test_json_of_a_divergence(broken_aba):
    data = json.loads(compare("tutorial", states=2, algorithm="aba").to_json())
    d = data["algorithms"][0]["first_divergence"]
    assert set(d) == {"algorithm", "step", "pass_number", "joint", "joint_id", "field", "cache",
                      "where", "abs_error", "rel_error", "tolerance", "got", "expected",
                      "reference", "states_failing"}
    assert d["where"]["idx_v"] == [7, 8] and d["joint"] == "ry2_joint"
    assert data["agree"] is False


def test_details_table():
    text = compare("tutorial", states=2, algorithm="crba").details()
    assert "crba: agree" in text
    assert "cache         max abs  max rel  compared  worst (rel) at" in text


# --- bad input -----------------------------------------------------------------------------


def test_unknown_model():
    with pytest.raises(ModelError, match="unknown model 'nope'.*tutorial, manipulator, humanoid"):
        compare("nope")


def test_unreadable_and_invalid_urdf(tmp_path):
    with pytest.raises(URDFError):
        compare(str(tmp_path / "missing.urdf"))
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot name='x'><link name='a'></robot>")
    with pytest.raises(URDFError):
        compare(str(bad))


def test_pin_not_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "pinocchio", None)
    with pytest.raises(ImportError, match=r"pip install 'pinref\[pin\]'"):
        compare("tutorial", states=1)


def test_inconsistent_state_sizes():
    model = pinref.buildTutorialModel()
    st = random_states(model, 3, 0)
    with pytest.raises(ShapeError, match=r"q: expected shape \(\.\.\., 9\)"):
        compare(model, st["q"][:, :7], st["v"], st["a"])
    with pytest.raises(ShapeError, match=r"v: expected shape \(\.\.\., 8\)"):
        compare(model, st["q"], st["v"][:, :6], st["a"])
    with pytest.raises(ShapeError, match="inconsistent state sizes.*q \\(3,\\).*v \\(2,\\)"):
        compare(model, st["q"], st["v"][:2], st["a"])
    with pytest.raises(ShapeError, match="fext"):
        compare(model, st["q"], st["v"], st["a"], fext=np.zeros((3, 3, 6)))
    with pytest.raises(ShapeError, match="v: rnea and aba need"):
        compare(model, st["q"])
    with pytest.raises(ShapeError, match="states"):
        compare(model, states=0)
    with pytest.raises(ShapeError, match="armature"):
        compare(model, states=1, armature=[1.0, 2.0])
    with pytest.raises(ValueError, match="unknown algorithm"):
        compare(model, states=1, algorithm="minv")
    q = st["q"].copy()
    q[0, 3:7] *= 2.0
    with pytest.raises(NotNormalizedError):
        compare(model, q, st["v"], st["a"])


def test_report_is_a_dataclass_tree():
    report = compare("tutorial", states=1, algorithm="rnea")
    assert isinstance(report, DiffReport)
    with pytest.raises(AttributeError):
        report.states = 3
    with pytest.raises(KeyError):
        report["aba"]


# --- Convention.WORLD --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tutorial", "humanoid", "tree1"])
@pytest.mark.parametrize("fext", [False, True], ids=["plain", "fext"])
def test_world_convention_agrees_and_compares_every_write(name, fext):
    model = {"tutorial": pinref.buildTutorialModel, "humanoid": pinref.buildSampleModelHumanoid,
             "tree1": lambda: random_tree(1)}[name]()
    report = compare(model, states=4, fext=fext or None, armature=0.3, convention="WORLD",
                     seed=1)
    assert report.agree, str(report)
    assert [a.algorithm for a in report.algorithms] == ["rnea", "crba WORLD", "aba WORLD"]
    caches = {c.cache for c in report["aba WORLD"].caches}
    assert {"ov", "oa", "oa_gf", "oh", "of", "oYcrb", "oYaba", "J", "u", "joints.StU"} <= caches
    model.armature = np.full(model.nv, 0.3)
    st = random_states(model, 4, 1, fext)
    for algo, args in (("crba", ("q",)), ("aba", ("q", "v", "tau"))):
        kw = {"fext": st["fext"]} if fext and algo == "aba" else {}
        with pinref.trace() as t:
            getattr(pinref, algo)(model, model.createData(), *(st[k] for k in args), **kw,
                                  convention=pinref.Convention.WORLD)
        a = report[f"{algo} WORLD"]
        assert (a.stops_compared, a.fields_compared) == (len(t), sum(len(s.writes) for s in t))


def test_broken_world_backward_step_is_found_at_its_pass_and_joint():
    """The WORLD backward step run with oa_gf (the bias during that pass) zeroed: the leaf's
    of[3] is the first value to go wrong."""
    class WithoutBias(pinref.algorithms.steps.Hook):
        def around(self, step, run):
            if step is not pinref.algorithms.steps.ABA_WORLD_BACKWARD:
                return run()
            oa_gf = self.data[-1].oa_gf.vector
            saved = oa_gf[1:].copy()
            oa_gf[1:] = 0.0
            try:
                return run()
            finally:
                oa_gf[1:] = saved

    with pinref.algorithms.steps.hooked(WithoutBias()):
        report = compare("tutorial", states=3, seed=2, algorithm="aba", convention="WORLD")
    d = report["aba WORLD"].first_divergence
    assert (d.step, d.pass_number, d.joint_id, d.field) == (S.ABA_WORLD_BACKWARD, 2, 3, "of[3]")
    assert "oYaba_i bias_i" in d.reference
    with pytest.raises(pinref.errors.ArgumentValueError, match="convention"):
        compare("tutorial", states=1, convention="GLOBAL")


@pytest.mark.parametrize("convention", ["LOCAL", "WORLD"])
def test_a_model_with_one_dof(convention):
    """nv == 1: pin hands the one-column caches (Fcrb[i], J, Ag) back as (6,) vectors."""
    model = pinref.Model()
    model.addJoint(0, pinref.JointModelRY(), pinref.SE3.Identity(), "ry")
    model.appendBodyToJoint(1, pinref.Inertia(2.0, np.array([0.0, 0.0, -0.5]), np.eye(3) * 0.1))
    assert compare(model, states=3, fext=True, convention=convention).agree
