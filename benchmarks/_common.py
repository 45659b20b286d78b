"""Timing helpers shared by the benchmarks: the median of repeats, the least CPU time of
interleaved rounds, and a plain-text table.

Absolute times drift from run to run on a shared machine; compare ratios measured in one run
(performance-notes.md).
"""

import statistics
import time
import timeit

import numpy as np

MODEL_NAMES = ("tutorial", "manipulator", "humanoid")


def time_per_call(stmt, globals=None, repeat=7, min_seconds=0.02):
    """Median wall time of one execution of ``stmt``, in seconds, over ``repeat`` timed loops.

    ``stmt`` is a statement string run in the namespace ``globals`` (no call overhead is added
    to what it measures) or a callable. Each loop runs it ``number`` times, the ``number`` that
    ``timeit``'s autorange finds for ``min_seconds`` or more, so short statements are not lost
    in the resolution of ``time.perf_counter``.
    """
    timer = timeit.Timer(stmt, timer=time.perf_counter, globals=globals)
    number = 1
    while timer.timeit(number) < min_seconds:
        number *= 2
    return statistics.median(timer.repeat(repeat, number)) / number


def per_call(stmt, globals=None, repeat=7, min_seconds=0.02):
    """``time_per_call`` in microseconds."""
    return time_per_call(stmt, globals, repeat, min_seconds) * 1e6


def best_per_call(calls, rounds=15, min_seconds=0.005):
    """The least thread CPU time of one call of each callable in ``calls``, in microseconds,
    over ``rounds`` rounds that time every callable in turn (interleaved).

    The ratio of two of these compares what each costs when the machine lets it run: a burst
    of load on a shared machine lengthens some rounds of both, not the least of either, and
    ``time.thread_time`` leaves out the time other processes hold the core. Each round runs a
    callable ``number`` times (found once, as ``time_per_call`` does, for ``min_seconds``).
    """
    numbers = []
    for f in calls:
        number = 1
        while True:
            t = time.thread_time()
            for _ in range(number):
                f()
            if time.thread_time() - t >= min_seconds:
                break
            number *= 2
        numbers.append(number)
    best = [float("inf")] * len(calls)
    for _ in range(rounds):
        for k, (f, number) in enumerate(zip(calls, numbers)):
            t = time.thread_time()
            for _ in range(number):
                f()
            best[k] = min(best[k], (time.thread_time() - t) / number)
    return [b * 1e6 for b in best]


def print_table(headers, rows):
    """Print ``rows`` (sequences of cells) under ``headers`` as a Markdown table.

    Floats are shown with 3 significant digits, other cells with ``str``.
    """
    def cell(x):
        return f"{x:.3g}" if isinstance(x, float) else str(x)

    table = [[cell(x) for x in row] for row in [headers, *rows]]
    widths = [max(len(r[k]) for r in table) for k in range(len(headers))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in table]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    print("\n".join(lines))


def sample_models(name):
    """(pinref model, pinocchio model) for 'tutorial', 'manipulator' or 'humanoid'."""
    import pinocchio as pin

    import pinref

    if name == "tutorial":
        model = pinref.buildTutorialModel()
        return model, pinref.to_pinocchio(model)
    build = {"manipulator": "buildSampleModelManipulator", "humanoid": "buildSampleModelHumanoid"}
    return getattr(pinref, build[name])(), getattr(pin, build[name])()


def random_states(pin_model, n, rng):
    """n random states (q from pin.randomConfiguration in [-1, 1] bounds; v, a normal)."""
    import pinocchio as pin

    lo, hi = -np.ones(pin_model.nq), np.ones(pin_model.nq)
    q = np.stack([pin.randomConfiguration(pin_model, lo, hi) for _ in range(n)])
    return q, rng.normal(size=(n, pin_model.nv)), rng.normal(size=(n, pin_model.nv))


def algorithm_calls(model, data, pmodel, pdata, q, v, a):
    """``{"rnea" | "crba" | "aba": (pin_call, pinref_call)}`` on the states ``q, v, a`` (n, ...):
    ``pin_call(k)`` runs pin on state k, ``pinref_call(s)`` pinref on the states ``q[s]`` (an
    index or a slice: one batched call). ABA takes ``a`` as its torques."""
    import pinocchio as pin

    import pinref

    return {
        "rnea": (lambda k: pin.rnea(pmodel, pdata, q[k], v[k], a[k]),
                 lambda s: pinref.rnea(model, data, q[s], v[s], a[s])),
        "crba": (lambda k: pin.crba(pmodel, pdata, q[k]),
                 lambda s: pinref.crba(model, data, q[s])),
        "aba": (lambda k: pin.aba(pmodel, pdata, q[k], v[k], a[k]),
                lambda s: pinref.aba(model, data, q[s], v[s], a[s])),
    }
