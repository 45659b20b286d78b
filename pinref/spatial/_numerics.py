"""The rounding rules of pinref's spatial algebra, as helpers (explog.py's docstring says why):
Eigen 3.4's evaluation order for small reductions (``_dot3``, ``_trace3``), the C library's
elementary functions (``_sin``, ``_cos``, ``_acos``, ``_asin``, ``_atan2``), both branches of an
``if_then_else`` evaluated with their warnings silenced (``_quiet``). Shared by explog.py,
quaternion.py, inertia.py, dynamic_parameters.py and the joints' Lie groups; imports nothing of
pinref but NumPy.
"""

import math

import numpy as np

_DIAG = ([0, 1, 2], [0, 1, 2])


def _c_function(f, nin):
    """``f`` from Python's ``math`` (the C library) applied elementwise; NaN where f raises.

    Returns float arrays (0-d for scalars). A domain error (acos(1 + 1e-16), sin(inf)) gives NaN,
    as the C function does; such values only occur in branches that are then discarded.
    """
    def safe(*args):
        try:
            return f(*args)
        except ValueError:
            return math.nan

    ufunc = np.frompyfunc(safe, nin, 1)

    def call(*args):
        return np.asarray(ufunc(*args), dtype=float)

    call.__doc__ = f"C library ``{f.__name__}`` elementwise, NaN outside its domain."
    return call


_sin = _c_function(math.sin, 1)
_cos = _c_function(math.cos, 1)
_acos = _c_function(math.acos, 1)
_asin = _c_function(math.asin, 1)
_atan2 = _c_function(math.atan2, 2)


def _quiet(func):
    """Run ``func`` with divide/invalid warnings off: unused branches may divide by zero."""
    def wrapper(*args, **kwargs):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return func(*args, **kwargs)

    wrapper.__name__, wrapper.__qualname__ = func.__name__, func.__qualname__
    wrapper.__doc__, wrapper.__module__ = func.__doc__, func.__module__
    return wrapper


def _s(x):
    """A batch of scalars ``(...)`` as ``(..., 1)``, to scale 3-vectors."""
    return x[..., None]


def _identity_times(s):
    """``s * Matrix3::Identity()`` for a batch of scalars s."""
    out = np.zeros(s.shape + (3, 3))
    out[..., _DIAG[0], _DIAG[1]] = _s(s)
    return out


def _dot3(a, b):
    """``a.dot(b)`` for contiguous 3-vectors, vectorised by Eigen: (a0 b0 + a1 b1) + a2 b2."""
    return (a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1]) + a[..., 2] * b[..., 2]


def _trace3(R):
    """``R.trace()``: R00 + (R11 + R22) (the diagonal is strided: unrolled, unvectorised sum)."""
    return R[..., 0, 0] + (R[..., 1, 1] + R[..., 2, 2])
