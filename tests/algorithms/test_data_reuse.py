"""One Data reused across calls whose batch shapes differ: stale caches broadcast when they can
(Pinocchio's call-history semantics), and Data starts afresh when they cannot."""

import threading

import numpy as np
import pinocchio as pin
import pytest

import pinref
import pinref.tracing.states
from pinref.algorithms import steps as S
from pinref.errors import DataInUseError
from conftest import assert_close
from models import build, random_states

SEQUENCE = [(2,), (), (3,), (2, 3), (3,), (1,), (4,)]


@pytest.mark.parametrize("name", ["tutorial", "tree0"])
def test_every_algorithm_on_one_data_across_batch_shapes(name):
    rng = np.random.default_rng(21)
    model, pmodel = build(name)
    data = pinref.Data(model)
    for batch in SEQUENCE:
        q, v, a = random_states(pmodel, batch, rng)
        fext = rng.normal(size=batch + (model.njoints, 6))
        results = {
            "rnea": pinref.rnea(model, data, q, v, a, fext),
            "crba": pinref.crba(model, data, q),
            "aba": pinref.aba(model, data, q, v, a, fext),
            "nle": pinref.nonLinearEffects(model, data, q, v),
        }
        pinref.forwardKinematics(model, data, q, v, a)
        pdata = pmodel.createData()
        for idx in np.ndindex(*batch):
            forces = [pin.Force(f) for f in fext[idx]]
            refs = {"rnea": pin.rnea(pmodel, pdata, q[idx], v[idx], a[idx], forces),
                    "crba": pin.crba(pmodel, pdata, q[idx]),
                    "aba": pin.aba(pmodel, pdata, q[idx], v[idx], a[idx], forces),
                    "nle": pin.nonLinearEffects(pmodel, pdata, q[idx], v[idx])}
            for key, ref in refs.items():
                assert results[key].shape == batch + ref.shape
                assert_close(results[key][idx], ref, what=f"{key} {batch} {idx}")
        assert data.batch_shape == batch


def test_stale_caches_broadcast_into_a_larger_batch():
    """oMi from a single-state forwardKinematics is the stale oMi ABA reads for every state of
    a later batch (docs/quirks.md), so ABA's data.a uses it, as Pinocchio's would."""
    rng = np.random.default_rng(2)
    model, pmodel = build("tutorial")
    q, v, a = random_states(pmodel, (3,), rng)
    data = pinref.Data(model)
    pinref.forwardKinematics(model, data, q[0])
    pinref.aba(model, data, q, v, a)
    for k in range(3):
        pdata = pmodel.createData()
        pin.forwardKinematics(pmodel, pdata, q[0])
        pin.aba(pmodel, pdata, q[k], v[k], a[k])
        for i in range(1, model.njoints):
            assert_close(data.a[i].vector[k], pdata.a[i].vector, what=f"a[{i}] state {k}")


@pytest.mark.parametrize("sequence", [[(2,), (3,)], [(2, 3), (4, 3)], [(3,), (2, 3), (4, 3)]],
                         ids=["(2,)-(3,)", "(2,3)-(4,3)", "(3,)-(2,3)-(4,3)"])
def test_batches_that_do_not_broadcast_start_afresh(sequence):
    """issue 13 item 6: a batch shape the last one does not broadcast to resets the Data (it
    crashed with NumPy's broadcast error); every algorithm then equals a fresh Data's result."""
    rng = np.random.default_rng(6)
    model, pmodel = build("tutorial")
    data = pinref.Data(model)
    calls = {
        "rnea": lambda d, q, v, a: pinref.rnea(model, d, q, v, a),
        "aba": lambda d, q, v, a: pinref.aba(model, d, q, v, a),
        "crba": lambda d, q, v, a: pinref.crba(model, d, q),
        "computeRNEADerivatives": lambda d, q, v, a: pinref.computeRNEADerivatives(
            model, d, q, v, a)[0],
        "computeABADerivatives": lambda d, q, v, a: pinref.computeABADerivatives(
            model, d, q, v, a)[1],
        "computeJointJacobians": lambda d, q, v, a: pinref.computeJointJacobians(model, d, q),
        "jacobianCenterOfMass": lambda d, q, v, a: pinref.jacobianCenterOfMass(model, d, q),
        "centerOfMass": lambda d, q, v, a: pinref.centerOfMass(model, d, q, v, a),
        "computeKineticEnergy": lambda d, q, v, a: pinref.computeKineticEnergy(model, d, q, v),
    }
    for batch in sequence:
        q, v, a = random_states(pmodel, batch, rng)
        for name, call in calls.items():
            got = call(data, q, v, a)
            assert data.batch_shape == batch, name
            assert_close(got, call(pinref.Data(model), q, v, a), what=f"{name} {batch}")
        pinref.forwardKinematics(model, data, q, v, a)
        assert data.oMi[1].shape == batch


# --- one Data, two threads (issue 25 item 13) --------------------------------------------------


class _Pause(S.Hook):
    """Holds the call it watches at its first step until the other thread has tried its call."""

    def __init__(self, inside, tried):
        super().__init__()
        self.inside, self.tried = inside, tried

    def done(self, step, joints):
        if not self.inside.is_set():
            self.inside.set()
            assert self.tried.wait(10)


@pytest.mark.parametrize("second", ["aba", "rnea", "crba"])
def test_a_data_used_by_two_threads_at_once_is_refused_naming_it(second):
    """A second thread's call on a Data that another thread's aba is still using raises
    DataInUseError naming both calls (before: it ran, and one of them returned garbage or
    NotPositiveDefiniteError 'check the masses'); the first call's result is the serial one."""
    model = pinref.buildSampleModelHumanoid()
    st = pinref.tracing.states.random_states(model, 4, 3)
    data = model.createData()
    inside, tried = threading.Event(), threading.Event()
    errors, results = [], {}

    def first():
        with S.hooked(_Pause(inside, tried)):
            results["first"] = pinref.aba(model, data, st["q"], st["v"], st["tau"]).copy()

    def other():
        assert inside.wait(10)
        args = {"aba": (st["q"], st["v"], st["tau"]), "rnea": (st["q"], st["v"], st["a"]),
                "crba": (st["q"],)}[second]
        try:
            getattr(pinref, second)(model, data, *args)
        except DataInUseError as err:
            errors.append(str(err))
        finally:
            tried.set()

    threads = [threading.Thread(target=first), threading.Thread(target=other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == [f"{second}: this Data is in use by aba in another thread; a Data belongs "
                      "to one call at a time, as in Pinocchio: give each thread its own Data "
                      "(model.createData())"]
    serial = pinref.aba(model, model.createData(), st["q"], st["v"], st["tau"])
    np.testing.assert_array_equal(results["first"], serial)
    pinref.aba(model, data, st["q"], st["v"], st["tau"])      # free again once the call ended


def test_a_call_nested_in_another_on_the_same_data_and_thread_is_not_refused():
    model = pinref.buildSampleModelHumanoid()
    st = pinref.tracing.states.random_states(model, 2, 1)
    data = model.createData()
    inner = []

    class Nested(S.Hook):
        def done(self, step, joints):
            if not inner:
                inner.append(step)
                pinref.rnea(model, data, st["q"], st["v"], st["a"])

    with S.hooked(Nested()):
        pinref.crba(model, data, st["q"])
    assert len(inner) == 1


def test_a_hook_that_fails_on_entry_leaves_the_data_free_for_another_thread():
    """A hook's ``enter`` that raises ends the call before its ``__exit__``: the Data's claim
    is released all the same, so another thread's call on it runs (before the fix it raised
    DataInUseError naming the failed call forever)."""
    model = pinref.buildSampleModelHumanoid()
    st = pinref.tracing.states.random_states(model, 2, 1)
    data = model.createData()

    class Failing(S.Hook):
        def enter(self, *args):
            raise RuntimeError("hook failed")

    with S.hooked(Failing()), pytest.raises(RuntimeError, match="hook failed"):
        pinref.rnea(model, data, st["q"], st["v"], st["a"])
    results = []
    thread = threading.Thread(target=lambda: results.append(
        pinref.rnea(model, data, st["q"], st["v"], st["a"])))
    thread.start()
    thread.join(30)
    np.testing.assert_array_equal(results[0], pinref.rnea(model, model.createData(), st["q"],
                                                          st["v"], st["a"]))
