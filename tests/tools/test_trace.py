"""pinref.trace: what each stop of rnea, crba and aba records, and the views of a trace.

Oracles: the Data itself (a snapshot equals the Data field at that moment: the last writer of a
field holds its end value; earlier values are recomputed from the end state with the pass
equations), the step order of Pinocchio's drivers (algorithm/aba.hxx, rnea.hxx, crba.hxx), and
the tutorial's table for the free-flyer + 2 RY model.
"""

import importlib
import threading

import numpy as np
import pytest
from conftest import assert_close

import pinref
from pinref.tracing.states import random_states
from pinref.tracing import steps as S

ABA = importlib.import_module("pinref.algorithms.aba")


def _state(model, n=None, seed=0, fext=False):
    st = random_states(model, 1 if n is None else n, seed, fext)
    return {k: (x[0] if n is None else x) for k, x in st.items()}


@pytest.fixture
def tutorial():
    model = pinref.buildTutorialModel()
    return model, _state(model)


def _run(model, algo, st, data=None, fext=False):
    data = model.createData() if data is None else data
    kw = {"fext": st["fext"]} if fext else {}
    with pinref.trace() as t:
        if algo == "aba":
            out = pinref.aba(model, data, st["q"], st["v"], st["tau"], **kw)
        elif algo == "rnea":
            out = pinref.rnea(model, data, st["q"], st["v"], st["a"], **kw)
        else:
            out = pinref.crba(model, data, st["q"])
    return t, data, out


def _order(t):
    return [(s.pass_number, s.step, s.joint) for s in t]


def test_pinref_trace_is_the_module_and_the_function():
    assert pinref.tracing.Trace is pinref.tracing.record.Trace
    with pinref.trace() as t:
        pass
    assert isinstance(t, pinref.tracing.Trace) and len(t) == 0 and t.calls == ()
    assert "empty" in str(t)


def test_aba_stops_in_pinocchios_order(tutorial):
    model, st = tutorial
    t, _, _ = _run(model, "aba", st)
    assert _order(t) == (
        [(0, S.ABA_INIT, 0)]
        + [(1, S.ABA_FORWARD1, i) for i in (1, 2, 3)]
        + [(2, S.ABA_BACKWARD, i) for i in (3, 2, 1)]
        + [(3, S.ABA_FORWARD2, i) for i in (1, 2, 3)]
        + [(4, S.ABA_FINAL_LOOP, i) for i in (3, 2, 1)])
    assert [s.joint_name for s in t][1:4] == ["root_joint", "ry1_joint", "ry2_joint"]
    assert {s.algorithm for s in t} == {"aba"}
    assert len(t.calls) == 1 and t.calls[0].snapshots == t.snapshots


def test_stops_of_a_branched_tree_in_pinocchios_order():
    """The core steps a whole tree level at once; the trace still lists the stops as
    Pinocchio's loops visit the joints (forward 1 .. n-1, backward n-1 .. 1, fext after its
    joint's forward step), on the humanoid whose levels hold joints of several branches."""
    model = pinref.buildSampleModelHumanoid()
    st = _state(model, fext=True)
    ids = list(range(1, model.njoints))
    t, _, _ = _run(model, "aba", st, fext=True)
    assert _order(t) == (
        [x for i in ids for x in ((1, S.ABA_FORWARD1, i), (1, S.ABA_FEXT, i))]
        + [(2, S.ABA_BACKWARD, i) for i in ids[::-1]]
        + [(3, S.ABA_FORWARD2, i) for i in ids]
        + [(4, S.ABA_FINAL_LOOP, i) for i in ids[::-1]])
    assert [s.position for s in t] == list(range(len(t)))
    t, _, _ = _run(model, "rnea", st)
    assert _order(t) == ([(1, S.RNEA_FORWARD, i) for i in ids]
                         + [(2, S.RNEA_BACKWARD, i) for i in ids[::-1]]
                         + [(2, S.RNEA_ARMATURE, None)])
    t, _, _ = _run(model, "crba", st)
    assert _order(t) == ([(1, S.CRBA_FORWARD, i) for i in ids]
                         + [(2, S.CRBA_BACKWARD, i) for i in ids[::-1]]
                         + [(2, S.CRBA_ARMATURE, None), (2, S.CRBA_SYMMETRIC, None)])


def test_aba_with_fext_records_the_drivers_subtraction(tutorial):
    model = tutorial[0]
    st = _state(model, fext=True)
    t, _, _ = _run(model, "aba", st, fext=True)
    order = _order(t)
    assert order[:6] == [(1, S.ABA_FORWARD1, 1), (1, S.ABA_FEXT, 1), (1, S.ABA_FORWARD1, 2),
                         (1, S.ABA_FEXT, 2), (1, S.ABA_FORWARD1, 3), (1, S.ABA_FEXT, 3)]
    # the fext overload does not reset f[0]: no set-up stop
    assert S.ABA_INIT not in [s.step for s in t]
    for i in (1, 2, 3):
        before = t.select(step=S.ABA_FORWARD1, joint=i)[0]["f", i]
        after = t.select(step=S.ABA_FEXT, joint=i)[0]["f", i]
        np.testing.assert_array_equal(after, before - st["fext"][i])


def test_rnea_and_crba_stops(tutorial):
    model, st = tutorial
    t, _, _ = _run(model, "rnea", st)
    assert _order(t) == ([(1, S.RNEA_FORWARD, i) for i in (1, 2, 3)]
                         + [(2, S.RNEA_BACKWARD, i) for i in (3, 2, 1)]
                         + [(2, S.RNEA_ARMATURE, None)])
    t, _, _ = _run(model, "crba", st)
    assert _order(t) == ([(1, S.CRBA_FORWARD, i) for i in (1, 2, 3)]
                         + [(2, S.CRBA_BACKWARD, i) for i in (3, 2, 1)]
                         + [(2, S.CRBA_ARMATURE, None), (2, S.CRBA_SYMMETRIC, None)])
    assert all(name in S.STEPS["crba"] for name in (s.step for s in t))


def test_writes_name_the_fields_of_each_step(tutorial):
    model, st = tutorial
    t, _, _ = _run(model, "aba", st)
    labels = lambda step, j: [w.label for w in t.select(step=step, joint=j)[0].writes]
    assert labels(S.ABA_FORWARD1, 2) == ["joints[2].M", "joints[2].S", "joints[2].v",
                                         "joints[2].c", "liMi[2]", "v[2]", "a_gf[2]", "Yaba[2]",
                                         "h[2]", "f[2]"]
    assert labels(S.ABA_BACKWARD, 3) == ["u[7:8]", "joints[3].U", "joints[3].StU",
                                         "joints[3].Dinv", "joints[3].UDinv", "Yaba[3]", "f[3]",
                                         "Yaba[2]", "f[2]"]
    # the root's backward step writes neither its f nor anything of the universe
    assert labels(S.ABA_BACKWARD, 1) == ["u[0:6]", "joints[1].U", "joints[1].StU",
                                         "joints[1].Dinv", "joints[1].UDinv", "Yaba[1]"]
    assert labels(S.ABA_FORWARD2, 1) == ["a_gf[1]", "ddq[0:6]", "a[1]", "f[1]"]
    assert labels(S.ABA_FINAL_LOOP, 1) == ["f[0]"]
    t, _, _ = _run(model, "crba", st)
    assert [w.label for w in t.select(step=S.CRBA_BACKWARD, joint=2)[0].writes] == [
        "Fcrb[2][:, 6:7]", "M[6:7, 6:8]", "Ycrb[1]", "Fcrb[1][:, 6:8]"]


def test_snapshots_hold_the_value_of_the_moment(tutorial):
    model, st = tutorial
    t, data, ddq = _run(model, "aba", st)
    # the last writer of a field holds its end value
    last = {}
    for s in t:
        for w in s.writes:
            last[w.label] = w.value
    for i in (1, 2, 3):
        np.testing.assert_array_equal(last[f"Yaba[{i}]"], data.Yaba[i])
        np.testing.assert_array_equal(last[f"a_gf[{i}]"], data.a_gf[i].vector)
        np.testing.assert_array_equal(last[f"joints[{i}].UDinv"], data.joints[i].UDinv)
    np.testing.assert_array_equal(last["f[0]"], data.f[0].vector)
    np.testing.assert_array_equal(last["u[0:6]"], data.u[0:6])
    # earlier values: the pass equations on the end state
    c3 = t.select(step=S.ABA_FORWARD1, joint=3)[0]["a_gf", 3]
    assert_close(c3, (data.joints[3].c + (data.v[3] ^ data.joints[3].v)).vector)
    Y2_plus = t.select(step=S.ABA_BACKWARD, joint=3)[0]["Yaba", 2]
    X = data.liMi[3]
    assert_close(Y2_plus, model.inertias[2].matrix()
                 + X.dualAction @ data.Yaba[3] @ X.actionInverse)
    # the root's Yaba is what its 6x6 D block factorises: U_1 = IA_1 for a free-flyer
    bs1 = t.select(step=S.ABA_BACKWARD, joint=1)[0]
    np.testing.assert_array_equal(bs1["joints.U", 1], bs1["Yaba", 1])
    # ddq: the forward step 2 entries are the result
    got = np.concatenate([t.select(step=S.ABA_FORWARD2, joint=i)[0]["ddq[" + r + "]"]
                          for i, r in ((1, "0:6"), (2, "6:7"), (3, "7:8"))])
    np.testing.assert_array_equal(got, ddq)


def test_snapshots_are_immutable_copies(tutorial):
    model, st = tutorial
    t, data, _ = _run(model, "aba", st)
    s = t.select(step=S.ABA_FORWARD1, joint=2)[0]
    y = s["Yaba", 2]
    assert not y.flags.writeable
    with pytest.raises(ValueError):
        y[0, 0] = 1.0
    with pytest.raises(AttributeError):
        s.joint = 3
    before = y.copy()
    pinref.aba(model, data, st["q"], st["v"], st["tau"] * 2)   # untraced, same Data
    np.testing.assert_array_equal(s["Yaba", 2], before)
    assert not np.shares_memory(y, data.Yaba[2])
    with pytest.raises(KeyError, match="wrote no"):
        s["Yaba", 3]


def test_tracing_changes_nothing(tutorial):
    model, st = tutorial
    plain = model.createData()
    ddq = pinref.aba(model, plain, st["q"], st["v"], st["tau"])
    _, traced, ddq_t = _run(model, "aba", st)
    np.testing.assert_array_equal(ddq, ddq_t)
    for i in range(model.njoints):
        np.testing.assert_array_equal(plain.f[i].vector, traced.f[i].vector)
        np.testing.assert_array_equal(plain.Yaba[i], traced.Yaba[i])
    assert type(traced.f) is type(plain.f)   # the watched cache is gone after the call
    assert pinref.aba is ABA.aba and "ddq = FD" in pinref.aba.__doc__
    assert pinref.algorithms.aba is ABA          # the package names the module


def test_batched_trace_keeps_the_batch_axes():
    model = pinref.buildSampleModelManipulator()
    st = _state(model, n=5)
    t, _, _ = _run(model, "aba", st)
    assert t.calls[0].batch_shape == (5,)
    s = t.select(step=S.ABA_BACKWARD, joint=4)[0]
    assert s["Yaba", 4].shape == (5, 6, 6) and s["u[3:4]"].shape == (5, 1)
    one = model.createData()
    with pinref.trace() as t1:
        pinref.aba(model, one, st["q"][2], st["v"][2], st["tau"][2])
    s1 = t1.select(step=S.ABA_BACKWARD, joint=4)[0]
    assert_close(s["Yaba", 4][2], s1["Yaba", 4])


def test_several_calls_nested_traces_and_other_algorithms(tutorial):
    model, st = tutorial
    data = model.createData()
    with pinref.trace() as outer:
        pinref.rnea(model, data, st["q"], st["v"], st["a"])
        pinref.nonLinearEffects(model, data, st["q"], st["v"])   # not traced
        with pinref.trace() as inner:
            pinref.crba(model, data, st["q"])
        pinref.forwardKinematics(model, data, st["q"])
    assert [c.algorithm for c in outer.calls] == ["rnea", "crba"]
    assert [c.algorithm for c in inner.calls] == ["crba"]
    assert len(outer) == 7 + 8 and len(inner) == 8
    assert outer.calls[0].inputs["a"].tolist() == st["a"].tolist()
    assert outer.select(algorithm="crba", joint="ry1_joint")[0].step == S.CRBA_FORWARD
    assert len(outer.select(call=0)) == 7


def test_crba_upper_alone_is_traced(tutorial):
    model, st = tutorial
    with pinref.trace() as t:
        importlib.import_module("pinref.algorithms.crba").crba_upper(model, model.createData(),
                                                                     st["q"])
    assert [s.step for s in t][-1] == S.CRBA_ARMATURE and len(t.calls) == 1


def test_a_failing_call_keeps_its_stops_and_restores_data():
    model = pinref.buildTutorialModel()
    model.inertias[3] = pinref.Inertia.Zero()
    model.inertias[2] = pinref.Inertia.Zero()   # joint 3's D block is 0: ABA cannot invert it
    st = _state(model)
    data = model.createData()
    with pinref.trace() as t, pytest.raises(pinref.errors.NotPositiveDefiniteError):
        pinref.aba(model, data, st["q"], st["v"], st["tau"])
    # every completed stop is kept; the failing step (joint 3's elimination) is not
    last = t.calls[0].snapshots[-1]
    assert (last.step, last.joint) == (S.ABA_FORWARD1, 3)
    assert type(data.f) is type(model.createData().f)


def test_a_thread_outside_the_block_is_not_traced(tutorial):
    model, st = tutorial
    seen = []

    def work():
        with pinref.trace() as mine:
            pinref.rnea(model, model.createData(), st["q"], st["v"], st["a"])
        seen.append(len(mine))

    with pinref.trace() as t:
        th = threading.Thread(target=work)
        th.start()
        th.join()
    assert len(t) == 0 and seen == [7]


def test_a_step_hook_sees_every_step_and_the_trace_still_records(tutorial):
    """The core's step hook (pinref.algorithms.steps): a second hook wrapping each step (as the
    drills do) runs around every step, and the trace records the steps as before."""
    model, st = tutorial
    seen = []

    class Spy:
        def enter(self, algorithm, model, data, inputs):
            seen.append(("enter", algorithm))

        def leave(self, shape):
            seen.append(("leave", shape))

        def around(self, step, run):
            seen.append(step.name)
            return run()

        def done(self, step, joints):
            pass

    with pinref.algorithms.steps.hooked(Spy()):
        t, _, _ = _run(model, "aba", st)
    assert seen[0] == ("enter", "aba") and seen[-1] == ("leave", ())
    assert seen.count(S.ABA_BACKWARD) == 3          # one level step per joint of the chain
    assert [s.joint for s in t.select(step=S.ABA_BACKWARD)] == [3, 2, 1]


# --- the views ---------------------------------------------------------------------------


def test_tutorial_table(tutorial):
    model, st = tutorial
    t, data, _ = _run(model, "aba", st)
    text = str(t)
    lines = text.splitlines()
    assert lines[0].startswith("aba on tutorial (nq 9, nv 8, 3 joints), 13 stops")
    head = lines[2].split()
    assert head[:6] == ["pass", "step", "joint", "Yaba[1]", "Yaba[2]", "Yaba[3]"]
    rows = lines[4:]
    assert len(rows) == 13

    def row(step, joint):
        return next(r for r in rows if step in r and f" {joint} " in r)

    # after pass 1: each Yaba holds its body's inertia
    r = row(S.ABA_FORWARD1, "3 ry2_joint")
    assert "Y_1 |" in r and "Y_2 |" in r and "* Y_3 |" in r
    assert "pA_3 = v x* h" in r
    # after joint 3: Yaba[2] has received joint 3's projected inertia; Yaba[3] is projected
    r = row(S.ABA_BACKWARD, "3 ry2_joint")
    assert "* Y_2 + Ia_3 |" in r and "* Ia_3 (projected) |" in r
    assert "u_3 = tau_3 - S^T pA_3, U_3, Dinv_3, UDinv_3" in r
    # after joint 2: the whole arm is in Yaba[1]
    r = row(S.ABA_BACKWARD, "2 ry1_joint")
    assert "* Y_1 + Ia_2 |" in r and "* Ia_2 (projected) |" in r
    # after joint 1: the articulated inertia of the whole robot, not projected (root)
    r = row(S.ABA_BACKWARD, "1 root_joint")
    assert "* IA_1 (root, full) |" in r and "root's D_1 block is factorised" in r
    norm = f"|{np.linalg.norm(data.Yaba[1]):.4g}|"
    assert norm in r
    # pass 3 and 4 leave Yaba alone
    assert "*" not in row(S.ABA_FORWARD2, "2 ry1_joint").split("a_gf[2]")[0][60:]


def test_table_of_another_cache_and_one_joint(tutorial):
    model, st = tutorial
    t, _, _ = _run(model, "aba", st)
    text = t.table("f", joints=["ry1_joint"])
    assert text.splitlines()[2].split()[:4] == ["pass", "step", "joint", "f[2]"]
    assert "pa_2" in text and "+ f_3" in text
    text = _run(model, "rnea", st)[0].table()
    assert "f[1]" in text.splitlines()[2] and "+ f_2" in text
    with pytest.raises(IndexError):
        pinref.tracing.Trace().table()


def test_history_of_yaba_across_the_passes(tutorial):
    model, st = tutorial
    t, data, _ = _run(model, "aba", st)
    h = t.history("Yaba", joint=2)
    assert [e.snapshot.step for e in h] == [S.ABA_FORWARD1, S.ABA_BACKWARD, S.ABA_BACKWARD]
    assert [e.snapshot.joint for e in h] == [2, 3, 2]
    np.testing.assert_array_equal(h.values[0], model.inertias[2].matrix())
    np.testing.assert_array_equal(h.values[-1], data.Yaba[2])
    assert "joint 3 eliminated" in h[1].role and "projected" in h[2].role
    text = str(h)
    assert text.startswith("Yaba of joint 2 ry1_joint during aba")
    assert t.history("Yaba", joint="ry1_joint").values[1] is h.values[1]
    # u and ddq follow the joint's entries; f of the root passes through all four passes
    assert [e.write.label for e in t.history("u", joint=2)] == ["u[6:7]"]
    f1 = t.history("f", joint=1)
    assert [e.snapshot.pass_number for e in f1] == [1, 2, 3, 4]
    with pytest.raises(KeyError, match="wrote no"):
        t.history("Ycrb", joint=2)
    with pytest.raises(KeyError, match="no joint named"):
        t.history("Yaba", joint="nope")


def test_table_of_a_model_with_many_joints():
    """More joints than MAX_COLUMNS: the first ones get columns, and a note says how to pick
    others; the header never promises norms that no column shows."""
    model = pinref.buildSampleModelHumanoid()
    t, data, _ = _run(model, "aba", _state(model))
    lines = t.table().splitlines()
    n = pinref.tracing.render.MAX_COLUMNS
    assert lines[0].startswith("aba on an unnamed model (nq 35, nv 34, 29 joints)")
    assert "|x| = norm of Yaba" in lines[0]
    assert lines[1] == (f"note: Yaba columns for joints 1 to {n} of 29 only; pass joints=[...] "
                        "(ids or names) to show others")
    head = lines[3].split()
    assert head[3:3 + n] == [f"Yaba[{j}]" for j in range(1, n + 1)]
    assert head[3 + n:] == ["known", "at", "this", "stop"]
    assert f"|{np.linalg.norm(data.Yaba[1]):.4g}|" in t.table()
    # joints chosen: their columns, no note; the name given for the title
    text = t.table(joints=["chest2_joint"], model_name="humanoid", pick_hint="use --joint")
    lines = text.splitlines()
    assert lines[0].startswith("aba on humanoid (nq 35") and lines[1] == ""
    assert lines[2].split()[3] == "Yaba[15]"
    # no joint at all: no norm in the header, and the note says why the column is missing
    lines = t.table(joints=[], pick_hint="use --joint").splitlines()
    assert "norm" not in lines[0]
    assert lines[1] == "note: no Yaba column (no joint selected); use --joint"


def test_table_title_names_the_model():
    model = pinref.buildSampleModelManipulator()
    assert model.name == ""
    t, _, _ = _run(model, "rnea", _state(model))
    assert t.table().startswith("rnea on an unnamed model (nq 6, nv 6, 6 joints)")
    assert t.table(model_name="manipulator").startswith("rnea on manipulator (nq 6")
    model.name = "arm"
    t, _, _ = _run(model, "rnea", _state(model))
    assert str(t).startswith("rnea on arm (nq 6")


# --- Convention.WORLD (abaWorldConvention, crbaWorldConvention) ----------------------------------


def _run_world(model, algo, st, fext=False):
    data = model.createData()
    kw = {"fext": st["fext"]} if fext else {}
    with pinref.trace() as t:
        if algo == "aba":
            pinref.aba(model, data, st["q"], st["v"], st["tau"], **kw,
                       convention=pinref.Convention.WORLD)
        else:
            pinref.crba(model, data, st["q"], convention=pinref.Convention.WORLD)
    return t, data


def test_world_stops_in_pinocchios_order():
    """abaWorldConvention and crbaWorldConvention's stops as their loops visit the joints, on
    the humanoid; the fext overload has no of[0] reset and no last loop."""
    model = pinref.buildSampleModelHumanoid()
    st = _state(model, fext=True)
    ids = list(range(1, model.njoints))
    t, _ = _run_world(model, "aba", st)
    assert _order(t) == (
        [(0, S.ABA_WORLD_INIT, 0)] + [(1, S.ABA_WORLD_FORWARD1, i) for i in ids]
        + [(2, S.ABA_WORLD_BACKWARD, i) for i in ids[::-1]]
        + [(3, S.ABA_WORLD_FORWARD2, i) for i in ids]
        + [(4, S.ABA_WORLD_FINAL_LOOP, i) for i in ids[::-1]])
    assert {s.algorithm for s in t} == {"abaWorldConvention"}
    t, _ = _run_world(model, "aba", st, fext=True)
    assert _order(t) == (
        [x for i in ids for x in ((1, S.ABA_WORLD_FORWARD1, i), (1, S.ABA_WORLD_FEXT, i))]
        + [(2, S.ABA_WORLD_BACKWARD, i) for i in ids[::-1]]
        + [(3, S.ABA_WORLD_FORWARD2, i) for i in ids])
    t, _ = _run_world(model, "crba", st)
    assert _order(t) == (
        [(0, S.CRBA_WORLD_INIT, 0)] + [(1, S.CRBA_WORLD_FORWARD, i) for i in ids]
        + [(2, S.CRBA_WORLD_BACKWARD, i) for i in ids[::-1]]
        + [(2, S.CRBA_WORLD_ARMATURE, None), (2, S.CRBA_WORLD_CENTROIDAL, None),
           (2, S.CRBA_SYMMETRIC, None)])
    assert {s.algorithm for s in t} == {"crbaWorldConvention"}


def test_world_snapshots_hold_the_value_of_the_moment(tutorial):
    """The last writer of a field holds its end value; oYcrb[parent] and oYaba[parent] hold the
    partial sums over the children done so far; of_i -= oMi fext_i; J[:, cols_i] is joint i's
    columns; mass[0], com[0] and Ag after the centroidal step are the end values."""
    model = tutorial[0]
    st = _state(model, fext=True)
    t, data = _run_world(model, "aba", st, fext=True)
    for i in (1, 2, 3):
        s = t.select(step=S.ABA_WORLD_FORWARD1, joint=i)[0]
        np.testing.assert_array_equal(s["oMi", i], data.oMi[i].homogeneous)
        cols = model.joints[i].v_slice
        np.testing.assert_array_equal(s[f"J[:, {cols.start}:{cols.stop}]"], data.J[:, cols])
        after = t.select(step=S.ABA_WORLD_FEXT, joint=i)[0]["of", i]
        assert_close(after, s["of", i] - data.oMi[i].act(pinref.Force(st["fext"][i])).vector)
    s = t.select(step=S.ABA_WORLD_BACKWARD, joint=3)[0]
    assert_close(s["oYaba", 2], data.oYcrb[2].matrix() + data.oYaba[3])
    t, data = _run_world(model, "crba", st)
    s = t.select(step=S.CRBA_WORLD_BACKWARD, joint=3)[0]
    assert_close(s["oYcrb", 2], (data.oMi[2].act(model.inertias[2])).matrix()
                 + data.oYcrb[3].matrix())
    s = t.select(step=S.CRBA_WORLD_BACKWARD, joint=1)[0]
    np.testing.assert_array_equal(s["oYcrb", 0], data.oYcrb[0].matrix())
    s = t.select(step=S.CRBA_WORLD_CENTROIDAL)[0]
    assert s["mass", 0] == data.mass[0]
    np.testing.assert_array_equal(s["com", 0], data.com[0])
    np.testing.assert_array_equal(s["Ag"], data.Ag)


def test_world_table_and_history(tutorial):
    model, st = tutorial
    t, _ = _run_world(model, "aba", st)
    text = t.table()
    assert text.startswith("abaWorldConvention on tutorial (nq 9, nv 8, 3 joints), 13 stops; "
                           "|x| = norm of oYaba")
    assert "* oMi Y_2 + oYaba_3" in text and "(written by" not in text
    h = t.history("J", joint=2)
    assert [e.write.label for e in h] == ["J[:, 6:7]"]
    t, _ = _run_world(model, "crba", st)
    assert "* oMi Y_1 + oYcrb_2" in t.table() and "(written by" not in t.table()
