"""Random states of a model for the tools (``pinref diff``, ``trace``, the experiments): q
uniform in [-1, 1] per coordinate, v, a and tau normal, optional external wrenches.
"""

import numpy as np

from ..algorithms.joint_configuration import randomConfiguration
from ..errors import ArgumentValueError, ShapeError


def is_int(x):
    """True for a Python or NumPy integer, False for a bool (an int to Python) and the rest:
    the tools' test of a count or a seed argument."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def random_states(model, n, seed=0, fext=False):
    """``n`` random states of ``model``: q uniform in [-1, 1] per coordinate (rotations and
    (cos, sin) pairs uniform, normalised), v and a standard normal, tau normal x 10, and with
    ``fext`` standard normal wrenches (n, njoints, 6). Returns a dict of arrays (n, ...)."""
    if not is_int(n) or n < 1:
        raise ShapeError(f"states: expected a positive number of random states, got {n!r}")
    if not is_int(seed) or seed < 0:
        raise ArgumentValueError(f"seed: expected an integer >= 0, got {seed!r}")
    nq, nv = model.nq, model.nv
    rng = np.random.default_rng(seed)
    out = {"q": randomConfiguration(model, -np.ones((n, nq)), np.ones((n, nq)), rng=rng),
           "v": rng.normal(size=(n, nv)), "a": rng.normal(size=(n, nv)),
           "tau": rng.normal(size=(n, nv)) * 10.0}
    if fext:
        out["fext"] = rng.normal(size=(n, model.njoints, 6))
    return out
