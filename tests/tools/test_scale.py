"""``pinref.compare`` at scale (issue 13 items 5, 8, 11 and the "Also" on time).

Oracles: the report of a run cut into chunks, or run in worker processes, is the report of the
same states in one chunk (every field but the wall times); a planted mistake is still found at
20,000 humanoid states, within a bounded memory; ABA's amplification is recomputed here from
pin's own Data; what cannot fit is refused before anything is allocated.
"""

import resource
import subprocess
import sys
import time

import numpy as np
import pinocchio as pin
import pytest
from conftest import slow_cases

import pinref
from pinref.algorithms import steps as core
from pinref.checking.drills import aba_without_Ia_c
from pinref.compare import compare
from pinref.compare.diff import (
    CONDITIONING_FACTOR,
    PROPAGATED_FACTOR,
    MEMORY_LIMIT,
    STATES_BYTES_LIMIT,
    _pending,
    memory_estimate,
    pin_data_bytes,
)
from pinref.errors import ArgumentTypeError, ArgumentValueError, ModelError, ShapeError
from pinref.tracing.states import random_states
from pinref.tracing import steps as S

EPS = np.finfo(float).eps


def content(report):
    """The report as plain data without its wall times."""
    d = report.to_dict()
    d.pop("seconds")
    for a in d["algorithms"]:
        a.pop("seconds")
    return d


@pytest.mark.parametrize("chunk_size", [1, 7, 30])
def test_chunks_give_the_one_chunk_report(chunk_size):
    one = compare("humanoid", states=30, seed=4, fext=True, armature=0.1, chunk_size=30)
    assert content(compare("humanoid", states=30, seed=4, fext=True, armature=0.1,
                           chunk_size=chunk_size)) == content(one)


def test_chunks_of_given_states_of_a_batch_shape():
    model = pinref.buildSampleModelManipulator()
    st = random_states(model, 6, 2, fext=True)
    args = (model, st["q"].reshape(2, 3, -1), st["v"].reshape(2, 3, -1))
    kw = {"a": st["a"].reshape(2, 3, -1), "fext": st["fext"].reshape(2, 3, model.njoints, 6)}
    one = compare(*args, **kw)
    assert one.batch_shape == (2, 3)
    assert content(compare(*args, **kw, chunk_size=4)) == content(one)


def test_a_divergence_merges_across_chunks_and_workers():
    """The first divergence, its worst state and the count of failing states are those of the
    whole batch, whichever chunk or worker found them."""
    with aba_without_Ia_c():
        one = compare("tutorial", states=12, seed=2, algorithm="aba")
        cut = compare("tutorial", states=12, seed=2, algorithm="aba", chunk_size=5, workers=2)
    assert not one["aba"].agree
    assert one["aba"].first_divergence.states_failing == 12
    assert content(cut) == content(one)


def test_workers_give_the_same_report():
    one = compare("manipulator", states=40, seed=1, workers=1)
    assert content(compare("manipulator", states=40, seed=1, workers=2, chunk_size=9)) == \
        content(one)


def test_progress_is_called_per_chunk():
    calls = []
    compare("tutorial", states=10, algorithm=["rnea", "aba"], chunk_size=4,
            progress=lambda *a: calls.append(a))
    assert calls == [("rnea: states", 4, 10), ("rnea: states", 8, 10), ("rnea: states", 10, 10),
                     ("aba: states", 4, 10), ("aba: states", 8, 10), ("aba: states", 10, 10)]


@pytest.mark.slow
def test_a_mutation_is_caught_at_20000_humanoid_states_in_bounded_memory():
    """Issue 13: at scale the planted mistake is still found, where it is planted (the last
    leaf's pa in ABA's backward pass), in every state, and no process passes 2 GB."""
    with aba_without_Ia_c():
        report = compare("humanoid", states=20000, algorithm="aba", workers=2)
    d = report["aba"].first_divergence
    assert (d.pass_number, d.joint_id, d.field) == (2, 29, "f[29]")
    assert d.states_failing == 20000 and not report.agree
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    assert children < 2 * 2**30


# --- conditioning (item 5) -----------------------------------------------------------------


def _force_action(M):
    """The 6x6 matrix of M.act on a Force (linear; angular), from pin's own SE3."""
    R, p = M.rotation, M.translation
    px = np.array([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])
    return np.block([[R, np.zeros((3, 3))], [px @ R, R]])


def _joint_block(pmodel, data, i, world):
    """(S_i, or J_i's columns in WORLD; U_i; Dinv_i) of pin's Data, as 2-d arrays."""
    jdata = data.joints[i]
    S = (data.J[:, pmodel.idx_vs[i]:pmodel.idx_vs[i] + pmodel.nvs[i]] if world
         else np.reshape(jdata.S, (6, -1)))
    U = np.reshape(jdata.U, (6, -1))
    return S, U, np.reshape(jdata.Dinv, (U.shape[1], U.shape[1]))


def _off_axis(S):
    """|S| without each column's largest entry (the first of equal ones)."""
    out = np.abs(S).copy()
    for j in range(out.shape[1]):
        out[int(np.argmax(out[:, j])), j] = 0.0
    return out


def pin_amplification(pmodel, q, v, tau, world=False, joints=False):
    """ABA's amplification of each state recomputed from pin's own Data, joint by joint in
    pin's backward order (docs/tools.md): with IA_i = Yaba_i (+ U_i Dinv_i U_i^T under a
    parent), the own rounding dU_i = |IA_i| S'_i (S'_i = |S_i| without each column's largest
    entry in LOCAL, all of |J_i| in WORLD) and dD_i = |S_i|^T dU_i + S'_i^T |U_i| (plus, for a
    k > 1 inverse, w_i |S_i^T U_i| with w_i = max_j (Dinv_i)_jj (|S_i|^T |IA_i| |S_i|)_jj),
    e_i = max_j (Dinv_i)_jj (|S_i|^T E_i |S_i| + dD_i)_jj (+ w_i), at most max_j (Dinv_i)_jj
    (|S_i|^T T_i |S_i|)_jj (the WORLD children's share below added after), where E_i, the bound of
    the two sides' difference in IA_i, is the smaller, entry by entry, of T_i (|Y_i| plus
    the children's |X| (T_c + |U_c Dinv_c U_c^T|) |X|^T) and what the children pass on: LOCAL
    |X| (|Q| E_c |Q|^T + dU_c |UDinv_c|^T + |UDinv_c| dU_c^T + |UDinv_c| dD_c |UDinv_c|^T
    + |Yaba_c|) |X|^T with Q = I - UDinv_c S_c^T; WORLD |oYaba_c|, and e_p gains e_c max_j
    (Dinv_p)_jj (|J_p^T U_c| |Dinv_c| |U_c^T J_p|)_jj. The state's is the largest sum of e_i
    from the root to a joint (at least 1). With ``joints``: (B, njoints), per joint the
    largest sum of e from it down to a joint of its subtree (at least 1)."""
    out, per_joint = [], []
    for k in range(len(q)):
        data = pmodel.createData()
        if world:
            pin.aba(pmodel, data, q[k], v[k], tau[k], pin.Convention.WORLD)
            T = [np.abs(Y) for Y in data.oYcrb]
        else:
            pin.aba(pmodel, data, q[k], v[k], tau[k])
            T = [np.abs(Y.matrix()) for Y in pmodel.inertias]
        E = [None] * pmodel.njoints
        e = [0.0] * pmodel.njoints
        for i in reversed(range(1, pmodel.njoints)):
            parent = pmodel.parents[i]
            S, U, Dinv = _joint_block(pmodel, data, i, world)
            UDinv = np.reshape(data.joints[i].UDinv, U.shape)
            Ia = np.array(data.oYaba[i] if world else data.Yaba[i])
            IA = Ia + UDinv @ U.T if parent > 0 else Ia
            aS = np.abs(S)
            rounded = aS if world else _off_axis(S)
            dU = np.abs(IA) @ rounded
            dD = aS.T @ dU + rounded.T @ np.abs(U)
            w = (np.diag(Dinv) * np.diag(aS.T @ np.abs(IA) @ aS)).max() if S.shape[1] > 1 else 0
            Ei = np.zeros((6, 6)) if E[i] is None else np.minimum(E[i], T[i])
            e[i] += min((np.diag(Dinv) * np.diag(aS.T @ Ei @ aS + dD)).max() + w,
                        (np.diag(Dinv) * np.diag(aS.T @ T[i] @ aS)).max())
            if parent == 0:
                continue
            X = np.eye(6) if world else np.abs(_force_action(data.liMi[i]))
            T[parent] += X @ (T[i] + np.abs(UDinv @ U.T)) @ X.T
            if world:
                passed = np.abs(Ia)
                Sp, _, Dinv_p = _joint_block(pmodel, data, parent, world)
                C = np.abs(Sp.T @ U)
                e[parent] += e[i] * (np.diag(Dinv_p) * np.diag(C @ np.abs(Dinv) @ C.T)).max()
            else:
                Q, aD = np.abs(np.eye(6) - UDinv @ S.T), np.abs(UDinv)
                dD = dD + w * np.abs(S.T @ U)
                passed = X @ (Q @ Ei @ Q.T + dU @ aD.T + aD @ dU.T + aD @ dD @ aD.T
                              + np.abs(Ia)) @ X.T
            E[parent] = passed if E[parent] is None else E[parent] + passed
        branch, down = [0.0] * pmodel.njoints, [0.0] * pmodel.njoints
        for i in range(1, pmodel.njoints):
            branch[i] = branch[pmodel.parents[i]] + e[i]
            j = i
            while j > 0:                       # i's sum from each of its ancestors j down
                down[j] = max(down[j], branch[i] - branch[pmodel.parents[j]])
                j = pmodel.parents[j]
        out.append(max(1.0, max(branch)))
        per_joint.append(np.maximum(1.0, down))
    return np.array(per_joint) if joints else np.array(out)


def test_abas_rounding_is_judged_against_its_conditioning():
    """At a tolerance below ABA's rounding in the caches computed through D^-1 (but above the
    rounding of the others), the states agree within their conditioning: each error is below
    CONDITIONING_FACTOR eps x the amplification pin's own Data gives, and the report names the
    worst with its factor. Before, the run reported DIFFER."""
    model = pinref.buildSampleModelHumanoid()
    st = random_states(model, 8, 5)
    report = compare(model, st["q"], st["v"], tau=st["tau"], algorithm="aba", tolerance=2e-15)
    aba = report["aba"]
    assert aba.agree, str(report)
    c = aba.conditioning
    assert c.states >= 1 and c.factor == CONDITIONING_FACTOR == 8.0
    (k,) = c.state
    pmodel = pinref.to_pinocchio(model)
    amp = pin_amplification(pmodel, st["q"], st["v"], st["tau"])
    down = pin_amplification(pmodel, st["q"], st["v"], st["tau"], joints=True)[k]
    # one tree (the free flyer's): its forward values are judged against the state's, and an
    # acceleration against the larger of that and its propagated bound
    assert down[1] == pytest.approx(amp[k], rel=1e-12)
    if c.cache in ("a", "a_gf"):
        assert c.amplification >= down[1] * (1 - 1e-12)
    else:
        assert any(c.amplification == pytest.approx(x, rel=1e-12) for x in down[1:])
    assert c.rel_error > 2e-15 and c.rel_error <= c.bound
    assert c.bound == pytest.approx(max(2e-15, 8 * EPS * c.amplification), rel=1e-12)
    assert sum(x.within_conditioning for x in aba.caches) >= c.states
    assert all(x.within_conditioning == 0 for x in aba.caches if x.cache in ("v", "h", "liMi"))
    assert "agree within conditioning" in str(report) and f"{c.amplification:.3g}" in str(report)


def _robot_path(name):
    """The path of an example-robot-data URDF (``icub``, ``talos_full_v2``, ...)."""
    from importlib.metadata import distribution

    return next(str(f.locate()) for f in distribution("example-robot-data").files
                if str(f.locate()).endswith(f"/robots/{name}.urdf"))


def _robot(name, free_flyer=False):
    """A model of the tests: a sample model's builder name or an example-robot-data URDF
    (on a free flyer when ``free_flyer``)."""
    if name.startswith("build"):
        return getattr(pinref, name)()
    import warnings

    path = _robot_path(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pinref.errors.InertiaWarning)
        root = (pinref.JointModelFreeFlyer(),) if free_flyer else ()
        return pinref.buildModelFromUrdf(path, *root)


def _bound_and_disagreement(model, n, seed, monkeypatch, convention="LOCAL"):
    """(the largest bound CONDITIONING_FACTOR eps A over n random states, A recomputed from
    pin's own Data; the largest disagreement of the conditioned caches, at every stop and at
    the end, seen against pin over those states)."""
    st = random_states(model, n, seed)
    with monkeypatch.context() as m:
        m.setattr("pinref.compare.diff.CONDITIONING_FACTOR", 1e300)   # every error "within"
        report = compare(model, st["q"], st["v"], tau=st["tau"], algorithm="aba",
                         tolerance=1e-300, convention=convention)
    c = report.algorithms[0].conditioning
    amp = pin_amplification(pinref.to_pinocchio(model), st["q"], st["v"], st["tau"],
                            world=convention == "WORLD")
    return CONDITIONING_FACTOR * EPS * amp.max(), (c.rel_error if c else 0.0)


def _calibrated(name, monkeypatch, convention="LOCAL", free_flyer=False):
    """On a robot of the tests, over 20 states, the diff agrees with pin at the default
    tolerance, and its conditioning bound is at most 100 times the largest disagreement seen,
    or below the tolerance, which then decides (docs/tools.md; before, 1e22 to 1e26 on iCub,
    so that it accepted any error)."""
    model, n = _robot(name, free_flyer), 20
    st = random_states(model, n, 3)
    report = compare(model, st["q"], st["v"], tau=st["tau"], algorithm="aba",
                     convention=convention)
    assert report.agree, str(report)
    bound, seen = _bound_and_disagreement(model, n, 3, monkeypatch, convention)
    assert bound <= max(1e-12, 100 * seen), (name, bound, seen)
    return bound, seen


_ALLEGRO = "allegro_hand_description/urdf/allegro_right_hand"


@pytest.mark.parametrize("name", ["buildSampleModelHumanoid", "icub", "icub_reduced", _ALLEGRO])
@pytest.mark.parametrize("convention", ["LOCAL", "WORLD"])
def test_the_conditioning_bound_follows_the_disagreement(name, convention, monkeypatch):
    """Issue 25 item 5 on the robots whose bound was vacuous (iCub) or the loosest (the
    sample humanoid), in both conventions, over 20 states: within 100 times the largest
    disagreement seen (measured: humanoid 62 and 68, iCub 5.3 and 91, icub_reduced 6.9 and 22,
    allegro below the 1e-12 floor and 8.7). Before the bound counted only the rounding in
    which the two sides differ, iCub LOCAL was 573 (its head's degenerate inertia gives
    neck_roll's D a cancellation of up to 4e6, which both sides round alike: their Dinv agree
    to the bit) and the humanoid 244 and 130."""
    _calibrated(name, monkeypatch, convention=convention)


@pytest.mark.slow
def test_the_conditioning_bound_follows_the_disagreement_on_every_robot(monkeypatch):
    """The same on every example-robot-data robot pin loads and ABA can invert (59 of 69:
    romeo, romeo_laas_small and three bravo7 grippers have a massless moving body, ur3 and
    falcon no robot name or a missing link, 3 no joint), in both conventions (largest
    measured: 92, double_pendulum_continuous in WORLD)."""
    import warnings
    from importlib.metadata import distribution

    names = sorted(str(f.locate()).split("/robots/")[-1][:-5]
                   for f in distribution("example-robot-data").files if f.suffix == ".urdf")
    checked = 0
    for name in names:
        try:
            model = _robot(name)
            pinref.aba(model, model.createData(), *(random_states(model, 1, 3)[k] for k in
                                                    ("q", "v", "tau")))
        except (pinref.errors.URDFError, pinref.errors.NotPositiveDefiniteError):
            continue
        if model.nv == 0:
            continue
        for convention in ("LOCAL", "WORLD"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", pinref.errors.InertiaWarning)
                _calibrated(name, monkeypatch, convention)
        checked += 1
    assert checked == 59


@pytest.mark.slow
@pytest.mark.parametrize("convention", ["LOCAL", "WORLD"])
@pytest.mark.parametrize("name", ["icub", _ALLEGRO, "solo12", "talos_full_v2"])
def test_the_conditioning_bound_follows_the_disagreement_on_a_free_flyer(name, convention,
                                                                        monkeypatch):
    """The same on the robots the tests put on a free flyer (largest measured: 93, allegro
    in WORLD). Other robots on a free flyer go up to 725 in WORLD (docs/tools.md)."""
    _calibrated(name, monkeypatch, convention, free_flyer=True)


class _PlantedDinv(core.Hook):
    """Multiplies joint ``i``'s Dinv by 1 + rel right after ABA's backward step for it."""

    def __init__(self, i, rel):
        super().__init__()
        self.i, self.rel = i, rel

    def done(self, step, joints):
        if step in (core.ABA_BACKWARD, core.ABA_WORLD_BACKWARD) and self.i in joints:
            jdata = self.data[-1].joints[self.i]
            jdata.Dinv = jdata.Dinv * (1.0 + self.rel)


@pytest.mark.parametrize("convention", ["LOCAL", "WORLD"])
def test_a_planted_dinv_error_on_icub_is_caught(convention):
    """Issue 25 item 5: a relative error of 1e-9 in the Dinv of the lightest end of iCub's
    branches (the end joint with the largest Dinv: neck_yaw, the head) is a DIFFER at that
    joint's Dinv in all 4 states, in both conventions. Its Dinv is judged against its own
    subtree's bound (here its own e_i, below 1e-9), not the state's, which is 1e-8 to 1e-4 in
    the WORLD convention, where pinref and pin disagree by up to 1e10 eps under the
    near-singular neck (before: 1 state of 4; before that, 16 eps x 1e22). The same run without
    the plant agrees."""
    model = _robot("icub")
    st = random_states(model, 4, 5)
    data = model.createData()
    pinref.aba(model, data, st["q"], st["v"], st["tau"])
    ends = [j for j in range(1, model.njoints) if j not in model.parents]
    i = max(ends, key=lambda j: float(np.abs(data.joints[j].Dinv).max()))
    assert model.names[i] == "neck_yaw"
    assert np.abs(data.joints[i].Dinv).min() > 1.0            # the error is relative, 1e-9
    args = (model, st["q"], st["v"])
    kwargs = {"tau": st["tau"], "algorithm": "aba", "convention": convention}
    assert compare(*args, **kwargs).agree
    with core.hooked(_PlantedDinv(i, 1e-9)):
        report = compare(*args, **kwargs)
    d = report.algorithms[0].first_divergence
    pmodel, world = pinref.to_pinocchio(model), convention == "WORLD"
    own = CONDITIONING_FACTOR * EPS * pin_amplification(pmodel, st["q"], st["v"], st["tau"],
                                                        world, joints=True)[:, i]
    state = CONDITIONING_FACTOR * EPS * pin_amplification(pmodel, st["q"], st["v"], st["tau"],
                                                          world)
    assert own.max() < 1e-10
    assert (state > 1e-9).sum() == (0 if convention == "LOCAL" else 3)
    assert not report.agree and d is not None
    assert (d.field, d.joint_id, d.states_failing) == (f"joints[{i}].Dinv", i, 4), str(report)
    assert d.rel_error == pytest.approx(1e-9, rel=1e-3)


def test_the_propagated_bound_of_one_joint_is_its_u_rounding_through_dinv():
    """On one revolute joint about an axis that is not a unit one the local differences
    ``_propagated`` counts are the rounding of u = tau - S^T pA (pA = v x* h), one eps times
    |tau| + |S|^T |pA|, that of each entry of U = Ia S, eps (|Yaba| + |UDinv U^T|) |S|, which
    UDinv = U Dinv carries into ddq = Dinv u - UDinv^T a' (a' = a_gf - S ddq), and D^-1's own
    disagreement e (from U's rounding on the off-axis entries S' of S: e = Dinv (|S|^T |Yaba|
    S' + S'^T |U|), at most Dinv |S|^T |Yaba| |S|), which moves ddq by e Dinv |u - U^T a'|;
    S carries ddq into a_gf: the bound is Dinv (|tau| + |S|^T |pA| + sum_r ((|Yaba| + |UDinv
    U^T|) |S|)_r |a'_r| + e |u - U^T a'|) max|S|, from pin's own Data."""
    from pinref.compare.caches import PinCaches
    from pinref.compare.diff import aba_amplification
    from pinref.compare.reference import ModelInfo

    model = pinref.Model()
    joint = model.addJoint(0, pinref.JointModelRevoluteUnaligned(0.6, 0.8, 0.0),
                           pinref.SE3.Identity(), "j")
    model.appendBodyToJoint(joint, pinref.Inertia(2.0, np.array([0.1, 0.2, 0.3]),
                                                  np.diag([0.3, 0.4, 0.5])))
    st = random_states(model, 5, 1)
    pmodel = pinref.to_pinocchio(model)
    P, u, expected = PinCaches(pmodel, 5, world=False), [], []
    for k in range(5):
        data = pmodel.createData()
        pin.aba(pmodel, data, st["q"][k], st["v"][k], st["tau"][k])
        P.store(k, data)
        S = np.reshape(data.joints[1].S, (6, -1))[:, 0]
        pA = data.v[1].cross(data.h[1]).vector
        Dinv = float(np.reshape(data.joints[1].Dinv, -1)[0])
        u.append([st["tau"][k][0] - S @ pA])
        UDinv, U = np.reshape(data.joints[1].UDinv, -1), np.reshape(data.joints[1].U, -1)
        dU = (np.abs(data.Yaba[1]) + np.abs(np.outer(UDinv, U))) @ np.abs(S)
        before = data.a_gf[1].vector - S * data.ddq[0]
        off = np.abs(S) * (np.arange(6) != np.argmax(np.abs(S)))
        Y = np.abs(data.Yaba[1])
        e = Dinv * min(np.abs(S) @ Y @ off + off @ np.abs(U), np.abs(S) @ Y @ np.abs(S))
        assert e > 0.1
        expected.append(Dinv * (abs(st["tau"][k][0]) + np.abs(S) @ np.abs(pA)
                                + dU @ np.abs(before)
                                + e * abs(u[-1][0] - U @ before)) * np.abs(S).max())
    info = ModelInfo(pmodel, model.createData().nvSubtree)
    amplification = aba_amplification(info, P.arrays, np.array(u))
    assert amplification.propagated[:, 1] == pytest.approx(expected, rel=1e-12)
    assert PROPAGATED_FACTOR == 2.0


@pytest.mark.parametrize("case", ["icub LOCAL 0", "icub LOCAL 3", "icub WORLD 3",
                                  "allegro_hand_description/urdf/allegro_right_hand WORLD 0",
                                  "allegro_hand_description/urdf/allegro_right_hand WORLD 3",
                                  pytest.param("tiago_dual WORLD 1 --free-flyer",
                                               marks=pytest.mark.slow)])
def test_a_difference_of_large_terms_in_an_acceleration_agrees(case, capsys):
    """Issue 25 item 5: without a free flyer, iCub (state 20 of seed 0: a_gf[13], the torso,
    3.3 times its bound before; seed 3: 1.04 in LOCAL and 1.5 in WORLD) and allegro in WORLD
    (a finger's root, 1.35 and 2.5 times) DIFFERed: u_13 = tau - S^T pA is 3.7 out of terms of
    3e4, and the two sides round it differently (by 1e5 eps in ddq_13); so did tiago_dual on a
    free flyer in WORLD (a caster's swivel, 1.6 times: the light wheel's U, rounded, amplified
    by its D^-1). Judged against the local differences carried through the passes
    (``_propagated``), they agree."""
    from pinref.cli import main

    name, convention, seed, *flags = case.split()
    code = main(["diff", "--model", _robot_path(name), "--states", "200", "--seed", seed,
                 "--algorithm", "aba", "--convention", convention.lower(), *flags])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "DIFFER" not in out


class _PlantedSum(core.Hook):
    """Multiplies ``cache[index]`` by 1 + rel as joint ``joint`` completes ``step``."""

    def __init__(self, step, joint, cache, index, rel):
        super().__init__()
        self.step, self.joint, self.cache, self.index, self.rel = step, joint, cache, index, rel

    def done(self, step, joints):
        if step is self.step and self.joint in joints:
            stack = getattr(self.data[-1], self.cache)
            value = stack[self.index]
            stack[self.index] = type(value)(value.vector * (1.0 + self.rel))


@pytest.mark.parametrize("convention", ["LOCAL", "WORLD"])
def test_a_planted_error_in_a_sum_of_large_terms_is_caught(convention):
    """A rebuilt sum is judged relative to the magnitudes of its terms (docs/tools.md, *Sums
    of large terms*), yet a relative error of 1e-9 planted in one is a DIFFER at its stop: the
    pass-4 sum f[parent] (LOCAL) in all 20 humanoid states, the pass-1 WORLD bias oa_gf_i
    (pin's end oa_gf_i - oa_gf_p - J_i ddq_i) in 15 of 20 (14 before the bound counted only
    the rounding in which the two sides differ)."""
    model = pinref.buildSampleModelHumanoid()
    if convention == "LOCAL":
        child = 3
        plant = _PlantedSum(core.ABA_FINAL_LOOP, child, "f", model.parents[child], 1e-9)
        expected = (core.ABA_FINAL_LOOP.name, f"f[{model.parents[child]}]", 20)
    else:
        plant = _PlantedSum(core.ABA_WORLD_FORWARD1, 5, "oa_gf", 5, 1e-9)
        expected = (core.ABA_WORLD_FORWARD1.name, "oa_gf[5]", 15)
    assert compare(model, states=20, algorithm="aba", convention=convention).agree
    with core.hooked(plant):
        report = compare(model, states=20, algorithm="aba", convention=convention)
    d = report.algorithms[0].first_divergence
    assert not report.agree and d is not None
    assert (d.step, d.field, d.states_failing) == expected, str(report)


@pytest.mark.parametrize("name, joint, convention, caught", [
    ("icub", 13, "LOCAL", 20), ("buildSampleModelHumanoid", 5, "LOCAL", 20),
    ("buildSampleModelHumanoid", 5, "WORLD", 19)])
def test_a_planted_acceleration_error_is_caught(name, joint, convention, caught):
    """The accelerations' bound (their tree's, or the propagated local differences) still
    finds a relative error of 1e-9 planted in a_gf (oa_gf) at pass 3: at iCub's torso in all
    20 states (LOCAL; in WORLD the near-singular neck leaves the whole tree uncertain to
    1e-8 to 1e-4 and the plant is found in 2), at the humanoid's joint 5 in 20 and 19."""
    model = _robot(name)
    world = convention == "WORLD"
    step = core.ABA_WORLD_FORWARD2 if world else core.ABA_FORWARD2
    cache = "oa_gf" if world else "a_gf"
    assert compare(model, states=20, algorithm="aba", convention=convention).agree
    with core.hooked(_PlantedSum(step, joint, cache, joint, 1e-9)):
        report = compare(model, states=20, algorithm="aba", convention=convention)
    d = report.algorithms[0].first_divergence
    assert not report.agree and d is not None
    assert (d.step, d.field, d.states_failing) == (step.name, f"{cache}[{joint}]", caught)


_FREE_FLYER_CASES = [f"{name} {convention}" for name in (
    "icub", "allegro_hand_description/urdf/allegro_right_hand", "solo12", "talos_full_v2")
    for convention in ("LOCAL", "WORLD")]


@pytest.mark.parametrize("case", slow_cases(_FREE_FLYER_CASES, slow=_FREE_FLYER_CASES[2:]))
def test_real_robots_on_a_free_flyer_agree(case, capsys):
    """Issue 25 item 5: ``pinref diff --model R --free-flyer --states 200 --algorithm aba``
    exits 0 on these robots in both conventions. Before, iCub DIFFERed in both (LOCAL: the
    pass-4 sum f[1], the free flyer's wrench, a difference of forces 1e10 times larger;
    WORLD: a Dinv off by 1e10 eps under a near-singular neck), allegro and solo12 in WORLD
    (the rebuilt pass-1 bias oa_gf_i - oa_gf_p - J_i ddq_i)."""
    from pinref.cli import main

    name, convention = case.split()
    path = _robot_path(name)
    code = main(["diff", "--model", path, "--free-flyer", "--states", "200", "--algorithm",
                 "aba", "--convention", convention.lower()])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "DIFFER" not in out


def test_the_issues_false_difference_agrees():
    """State 9153 of 20,000 random humanoid states (seed 0): ABA's pass-3 write of ddq[6:7] was
    off by 1.05e-12 relative to the entry alone (DIFFERS); relative to max(1, max|ddq|), as the
    end state's ddq is judged, it is 4e-15."""
    model = pinref.buildSampleModelHumanoid()
    st = random_states(model, 20000, 0)
    k = [9153]
    report = compare(model, st["q"][k], st["v"][k], st["a"][k], st["tau"][k], algorithm="aba")
    assert report.agree, str(report)
    assert report["aba"].worst().max_rel_error < 1e-13


def test_a_partial_write_points_at_the_joint_of_its_rows():
    """A divergence in ddq[6:7] (joint 2's rows) is located at joint 2, not at row 0's joint."""
    class Off(pinref.algorithms.steps.Hook):
        """A step hook: ddq[6] += 1 as joint 2 completes ABA's second forward step."""

        def done(self, step, joints):
            if step is pinref.algorithms.steps.ABA_FORWARD2 and 2 in joints:
                self.data[-1].ddq[..., 6] += 1.0

    with pinref.algorithms.steps.hooked(Off()):
        d = compare("humanoid", states=2, algorithm="aba")["aba"].first_divergence
    assert (d.step, d.joint_id) == (S.ABA_FORWARD2, 2)
    assert d.where.joint_id == 2 and d.where.idx_v == (6, 7)


# --- what cannot fit, and bad arguments (items 8, 11) -----------------------------------------


def test_too_many_states_are_refused_before_anything_is_allocated():
    t0 = time.perf_counter()
    with pytest.raises(ShapeError, match="100000000 states .* GiB.*at most"):
        compare("tutorial", states=10**8)
    with pytest.raises(ShapeError, match="states: 9000000 states"):
        q = pinref.neutral(pinref.buildTutorialModel())
        compare("tutorial", q[None], np.zeros((3000, 1, 8)), tau=np.zeros((1, 3000, 8)))
    assert time.perf_counter() - t0 < 5
    assert 100000 * 8 * (35 + 3 * 34 + 6 * 30) < STATES_BYTES_LIMIT   # 100,000 humanoid fit


def chain_urdf(path, n):
    """A URDF of n revolute joints in a chain (axes x, y, z in turn), each body off its axis."""
    links = ['<link name="l0"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" '
             'ixy="0" ixz="0" iyz="0"/></inertial></link>']
    for i in range(1, n + 1):
        links.append(f'<link name="l{i}"><inertial><origin xyz="0 0 0.05"/><mass value="1"/>'
                     '<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/>'
                     f'</inertial></link><joint name="j{i}" type="revolute"><parent '
                     f'link="l{i - 1}"/><child link="l{i}"/><origin xyz="0 0 0.1"/><axis '
                     f'xyz="{" ".join("1" if k == i % 3 else "0" for k in range(3))}"/><limit '
                     'lower="-3" upper="3" effort="10" velocity="10"/></joint>')
    path.write_text(f'<robot name="chain{n}">' + "".join(links) + "</robot>")
    return str(path)


def test_a_model_whose_pin_data_cannot_fit_is_refused_naming_the_size(tmp_path):
    """Issue 25 item 3: a 400-joint chain peaked at 4.1 GB for one state, since every pin Data
    holds four nv x nv x nv tensors (2.05 GB at nv 400) and createData built it twice. Now it is
    refused before anything is allocated, with the estimate and its parts; exit 2."""
    from pinref.cli import main

    path = chain_urdf(tmp_path / "chain400.urdf", 400)
    assert pin_data_bytes(400, 401) > 32 * 400 ** 3
    t0 = time.perf_counter()
    with pytest.raises(ShapeError, match=r"1 state\(s\) of a model with nv 400 and 401 joints "
                       r"need an estimated 2\.\d\d GB per process .*pin Data 2\.\d+ GB.*"
                       r"more than the 1\.5 GB.*nv <= 3\d\d"):
        compare(path, states=1, algorithm="rnea")
    assert main(["diff", "--model", path, "--states", "1", "--algorithm", "rnea"]) == 2
    assert time.perf_counter() - t0 < 10


def test_too_many_states_for_the_memory_bound_name_how_many_fit():
    model = pinref.buildSampleModelHumanoid()
    n = 950_000
    assert n * 8 * (model.nq + 3 * model.nv) < STATES_BYTES_LIMIT
    assert memory_estimate(model, n)["total"] > MEMORY_LIMIT
    assert memory_estimate(model, 860_000)["total"] <= MEMORY_LIMIT    # docs/tools.md
    with pytest.raises(ShapeError, match=r"states: 950000 state\(s\).*compare at most \d+ "
                       "states per run"):
        compare(model, states=n)


@pytest.mark.slow
def test_the_largest_accepted_chain_stays_within_the_memory_bound(tmp_path):
    """A 320-joint chain, 5 states, in a process of its own: its peak RSS is below the
    estimate, which is below MEMORY_LIMIT (before: 3.2 GB, two pin Data at once)."""
    path = chain_urdf(tmp_path / "chain320.urdf", 320)
    estimate = memory_estimate(pinref.buildModelFromUrdf(path), 5)["total"]
    assert estimate <= MEMORY_LIMIT
    run = subprocess.run([sys.executable, "-c", "import resource, sys; from pinref.cli import "
                          "main; rc = main(sys.argv[1:]); print(resource.getrusage("
                          "resource.RUSAGE_SELF).ru_maxrss); sys.exit(rc)", "diff", "--model",
                          path, "--states", "5", "--algorithm", "rnea"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    peak = int(run.stdout.split()[-1]) * 1024
    assert peak <= estimate, (peak, estimate)


T = "tutorial"


@pytest.mark.parametrize("kwargs, error, phrase", [
    ({"states": 0}, ShapeError, "states: expected a positive number"),
    ({"states": 2.5}, ArgumentTypeError, "states: expected a positive integer"),
    ({"states": "5"}, ArgumentTypeError, "states: expected a positive integer"),
    ({"algorithm": "minv"}, ArgumentValueError, "algorithm: unknown algorithm 'minv'"),
    ({"algorithm": ["aba", "x"]}, ArgumentValueError, "algorithm: unknown algorithm 'x'"),
    ({"algorithm": 5}, ArgumentTypeError, "algorithm: expected"),
    ({"algorithm": []}, ArgumentValueError, "algorithm: the list is empty"),
    ({"tolerance": -1}, ArgumentValueError, "tolerance: expected a finite number > 0"),
    ({"tolerance": float("nan")}, ArgumentValueError, "tolerance: expected a finite number"),
    ({"tolerance": float("inf")}, ArgumentValueError, "tolerance: expected a finite number"),
    ({"tolerance": 0}, ArgumentValueError, "tolerance: expected a finite number > 0"),
    ({"tolerance": "1e-12"}, ArgumentTypeError, "tolerance: expected a positive number"),
    ({"seed": -1}, ArgumentValueError, "seed: expected an integer >= 0"),
    ({"seed": "x"}, ArgumentTypeError, "seed: expected an integer >= 0"),
    ({"free_flyer": "no"}, ArgumentTypeError, "free_flyer: expected True or False"),
    ({"armature": "abc"}, ArgumentTypeError, "armature: expected real numbers"),
    ({"armature": 1j}, ArgumentTypeError, "armature: .*imaginary part"),
    ({"progress": 5}, ArgumentTypeError, "progress: expected a callable"),
    ({"fext": "yes"}, ArgumentTypeError, "fext: expected real numbers"),
    ({"workers": 0}, ArgumentValueError, "workers: expected a positive integer"),
], ids=lambda x: x if isinstance(x, str) else None)
def test_bad_arguments_are_typed_errors_naming_them(kwargs, error, phrase):
    with pytest.raises(error, match=phrase):
        compare(T, **{"states": 2, **kwargs})


def test_bad_states_are_typed_errors():
    model = pinref.buildTutorialModel()
    st = random_states(model, 2, 0)
    with pytest.raises(ArgumentTypeError, match="q: expected real numbers.*imaginary"):
        compare(model, st["q"] + 0j, st["v"], st["a"])
    with pytest.raises(ShapeError, match=r"states: the batch shape \(0,\) holds no state"):
        compare(model, np.zeros((0, 9)), np.zeros((0, 8)), np.zeros((0, 8)))
    with pytest.raises(ShapeError, match="q: not an array of numbers"):
        compare(model, [[0.0] * 9, [0.0] * 8], st["v"], st["a"])
    with pytest.raises(ModelError, match="no joint with a degree of freedom"):
        compare(pinref.Model(), states=2)


def test_the_propagated_bound_counts_the_joints_it_holds_at_once():
    """The (6, K) arrays of ABA's propagated bound kept for joints at once (its memory, in
    memory_estimate): two on a chain; one per spine joint on a spine whose legs are numbered
    after it (each leg's bias force waits for its spine joint)."""
    assert _pending([0, 0, 1, 2, 3]) == 2
    spine = [0, 0] + list(range(1, 30))                    # joints 1 .. 30, a chain
    assert _pending(spine + list(range(1, 31))) == 31      # a leg on each spine joint
