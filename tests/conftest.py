"""Shared test helpers: the project tolerance, batch shapes, seeded generators; the ``slow``
marker and ``--runslow``.

The quick run (``python -m pytest -q``, README's command) leaves out the tests marked
``slow`` (NumPy's and SciPy's convention); ``--runslow`` runs everything, ``-m slow`` only the
slow ones (CI runs both parts). Besides the tests marked by hand (single long runs), a test
parametrized over several parameters (model x batch shape x call sequence x ...) is a matrix:
its quick run keeps the cases that together take every value of every parameter at least once
(case k takes value k mod n of each parameter with n values), and marks the other combinations
slow (``mark_matrix_cases_slow``).
"""

import numpy as np
import pytest

BATCH_SHAPES = [(), (1,), (5,), (2, 3)]


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true",
                     help="also run the tests marked slow (the whole matrices)")


def mark_matrix_cases_slow(items):
    """Mark ``slow`` every case of a test parametrized over two or more parameters except the
    ones that cover each value of each parameter once: kept case k takes value k mod n of each
    parameter with n values (values in the order they are collected, told apart by repr)."""
    by_test = {}
    for item in items:
        spec = getattr(item, "callspec", None)
        if spec is not None and len(spec.params) > 1:
            by_test.setdefault((item.path, item.originalname), []).append(item)
    for cases in by_test.values():
        values = {}
        for item in cases:
            for name, value in item.callspec.params.items():
                seen = values.setdefault(name, [])
                if repr(value) not in seen:
                    seen.append(repr(value))
        # a parameter given as a tuple ("model_name", "batch") counts once: its names vary together
        groups = {}
        for name, seen in values.items():
            key = tuple(repr(item.callspec.params[name]) for item in cases)
            groups.setdefault(key, name)
        names = list(groups.values())
        if len(names) < 2:
            continue
        longest = max(len(values[name]) for name in names)
        keep = {tuple(values[name][k % len(values[name])] for name in names)
                for k in range(longest)}
        for item in cases:
            if tuple(repr(item.callspec.params[name]) for name in names) not in keep:
                item.add_marker(pytest.mark.slow)


def slow_cases(values, slow):
    """``values`` for a parametrize list, those in ``slow`` marked slow."""
    return [pytest.param(v, marks=pytest.mark.slow) if v in slow else v for v in values]


def pytest_collection_modifyitems(config, items):
    mark_matrix_cases_slow(items)
    if config.getoption("--runslow") or config.option.markexpr:
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]


def pytest_report_header():
    """Which Pinocchio the comparison tests use as the reference (3.8.0 or 4.1.0)."""
    from pinref.checking.backends import pin_version

    return f"reference: pin {pin_version()} (pinref.compare.versions decides what differs)"


def rigid_body_inertia(A, floor=0.1):
    """A rotational inertia some rigid body has: ``tr(S) I3 - S`` for the second-moment matrix
    ``S = A A^T + floor I3`` (``A`` of shape ``(..., 3, 3)``), so the principal moments are
    positive and obey the triangle inequality, and pinref.Inertia takes it without a warning."""
    S = A @ np.swapaxes(A, -1, -2) + floor * np.eye(3)
    S = 0.5 * (S + np.swapaxes(S, -1, -2))
    return np.trace(S, axis1=-2, axis2=-1)[..., None, None] * np.eye(3) - S


def assert_close(actual, ref, tol=1e-12, what=""):
    """The project tolerance: ``max|actual - ref| <= tol * max(1, max|ref|)``, shapes equal.

    Applied to one cache of one state; for batched arrays call it per state (``assert_close_each``).
    NaN entries must sit at the same places in both (Pinocchio leaves some caches NaN until
    written); the bound is computed over the other entries.
    """
    actual, ref = np.asarray(actual, dtype=float), np.asarray(ref, dtype=float)
    assert actual.shape == ref.shape, f"{what}: shape {actual.shape} != {ref.shape}"
    nan = np.isnan(ref)
    assert np.array_equal(np.isnan(actual), nan), f"{what}: NaN entries differ"
    actual, ref = actual[~nan], ref[~nan]
    if actual.size == 0:
        return
    err = np.abs(actual - ref).max()
    bound = tol * max(1.0, np.abs(ref).max())
    assert err <= bound, f"{what}: max error {err:.3e} > {bound:.3e}"


def assert_close_each(actual, ref, batch, tol=1e-12, what=""):
    """``assert_close`` for every state of the leading ``batch`` axes."""
    actual, ref = np.asarray(actual, dtype=float), np.asarray(ref, dtype=float)
    assert actual.shape == ref.shape, f"{what}: shape {actual.shape} != {ref.shape}"
    for idx in np.ndindex(*batch):
        assert_close(actual[idx], ref[idx], tol, f"{what}[{idx}]")


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
