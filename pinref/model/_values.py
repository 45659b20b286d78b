"""Two helpers the model's classes share, apart so that each imports them without importing
the others: ``real_array`` (an argument as a float array, or a typed error) and ``same_fields``
(exact equality of two objects' fields, Pinocchio's ``operator==``).
"""

import numpy as np

from ..errors import ArgumentTypeError, ShapeError
from ..spatial import SE3, Inertia


def real_array(x, name):
    """``x`` as a float64 array (no copy when it already is one).

    ShapeError for a ragged nested list; ArgumentTypeError for complex numbers (NumPy would drop
    the imaginary part), None, strings and other objects that are not numbers (Pinocchio's
    binding raises a TypeError for those)."""
    try:
        a = np.asarray(x)
    except ValueError:
        raise ShapeError(f"{name}: expected an array of real numbers, got "
                         f"{_describe(x)}") from None
    if np.iscomplexobj(a):
        raise ArgumentTypeError(f"{name}: expected real numbers, got complex ones; pass x.real "
                                "if the imaginary part is meant to be dropped")
    if a.dtype.kind not in "biuf":
        raise ArgumentTypeError(f"{name}: expected an array of real numbers, got "
                                f"{_describe(x)}")
    return a.astype(float, copy=False)


def _describe(x):
    """A short description of a bad argument (a ragged list is described by its row lengths)."""
    if isinstance(x, (list, tuple)) and all(isinstance(r, (list, tuple)) for r in x):
        return f"a ragged {type(x).__name__} of rows of lengths {[len(r) for r in x]}"
    text = repr(x)
    return f"{type(x).__name__} {text[:80]}{'...' if len(text) > 80 else ''}"



def same_fields(a, b):
    """``a`` and ``b`` (two Models or two Datas) hold equal fields, numbers exactly."""
    return _same(_plain(vars(a)), _plain(vars(b)))


def _plain(x):
    """``x`` as nested lists, tuples and dicts of arrays, numbers, strings and types."""
    if isinstance(x, (list, tuple)):
        return [_plain(y) for y in x]
    if isinstance(x, dict):
        return {k: _plain(y) for k, y in x.items()}
    if isinstance(x, SE3):
        return ("SE3", x.rotation, x.translation)
    if isinstance(x, Inertia):
        return ("Inertia", np.asarray(x.mass), x.lever, x.inertia)
    if hasattr(x, "vector"):
        return (type(x), x.vector)
    if hasattr(x, "plain_fields"):   # values computed on access (a grouped joint's data)
        return (type(x), _plain(x.plain_fields()))
    if hasattr(x, "__dict__") and not isinstance(x, type):
        return (type(x), _plain(vars(x)))
    return x


def _same(a, b):
    """Exact equality of nested tuples, lists and dicts of numbers, strings, types and arrays."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.shape(a) == np.shape(b) and np.array_equal(a, b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b
