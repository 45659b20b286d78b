"""``pinocchio.utils``: the small NumPy helpers of Pinocchio's Python package (``eye``, ``zero``,
``rand``, ``isapprox``, ``npToTuple``, ``npToTTuple``, ``mprint``,
``fromListToVectorOfString``) and the names it re-exports (``rotate``, ``rpyToMatrix``,
``matrixToRpy``, ``np``, ``npl``)."""

import sys

import numpy as np
import numpy.linalg as npl

from .rpy import matrixToRpy, rotate, rpyToMatrix
from .spatial import SE3

__all__ = ["eye", "fromListToVectorOfString", "isapprox", "matrixToRpy", "mprint", "np",
           "npToTTuple", "npToTuple", "npl", "rand", "rotate", "rpyToMatrix", "zero"]


def npToTTuple(M):
    """A 2-D array as a tuple of row tuples."""
    return tuple(tuple(row) for row in M.tolist())


def npToTuple(M):
    """A vector (1-D, a row or a column) as a flat tuple; any other 2-D array as row tuples."""
    if M.ndim == 1:
        return tuple(M.tolist())
    if M.shape[0] == 1:
        return tuple(M.tolist()[0])
    if M.shape[1] == 1:
        return tuple(M.T.tolist()[0])
    return npToTTuple(M)


def eye(n):
    return np.eye(n)


def zero(n):
    """``np.zeros(n)``: n an int or a shape."""
    return np.zeros(n)


def rand(n):
    """Uniform [0, 1) numbers: ``rand(n)`` a vector, ``rand([rows, cols])`` a matrix."""
    return np.random.rand(n) if isinstance(n, int) else np.random.rand(n[0], n[1])


def isapprox(a, b, epsilon=1e-6):
    """``np.allclose(a, b, epsilon)`` on arrays and lists (objects with a ``.np`` are compared
    by it, squeezed), ``|a - b| < epsilon`` on numbers: Pinocchio's test helper."""
    if "np" in type(a).__dict__:
        a = a.np
    if "np" in type(b).__dict__:
        b = b.np
    if isinstance(a, (np.ndarray, list)) and isinstance(b, (np.ndarray, list)):
        return np.allclose(np.squeeze(np.array(a)), np.squeeze(np.array(b)), epsilon)
    return abs(a - b) < epsilon


def mprint(M, name="ans", eps=1e-15):
    """Print M (an array or an SE3) in Matlab's style, six columns at a time; entries of at most
    ``eps`` in absolute value print as 0."""
    if isinstance(M, SE3):
        M = M.homogeneous
    M = np.atleast_2d(M)
    print(name, " = ")
    print()
    nonzero = np.abs(M[np.nonzero(M)])
    small, large = (nonzero.min(), nonzero.max()) if nonzero.size else (1.0, 1.0)
    fmt = "% 10.3e" if small < 1e-5 or large > 1e6 or large / small > 1e3 else "% 1.5f"
    ncol = M.shape[1]
    for first in range(0, ncol, 6):
        last = min(first + 6, ncol)
        print(f"Columns {first} through {last - 1}")
        print()
        for row in M:
            sys.stdout.write("  ")
            for x in row[first:last]:
                sys.stdout.write(fmt % x + "   " if abs(x) > eps else " 0" + " " * 9)
            print()
        print()


def fromListToVectorOfString(items):
    """A ``StdVec_StdString`` holding ``items``."""
    from . import StdVec_StdString

    return StdVec_StdString(items)
