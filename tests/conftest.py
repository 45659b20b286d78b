"""Shared test helpers: the project tolerance, batch shapes, seeded generators."""

import numpy as np
import pytest

BATCH_SHAPES = [(), (1,), (5,), (2, 3)]


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
