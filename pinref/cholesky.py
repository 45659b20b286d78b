"""``pinocchio.cholesky``: the sparse factorisation M = U D U^T of the joint-space inertia
(algorithm/cholesky.hxx, 3.8.0), as Pinocchio's Python submodule exposes it.

``decompose(model, data)`` factorises ``data.M`` (fill it first with ``crba``), ``solve(model,
data, v)`` returns ``M^-1 v``, ``computeMinv(model, data)`` ``M^-1`` (also in ``data.Minv``).
The sweeps and their formulas are in pinref/algorithms/cholesky.py.
"""

from .algorithms.cholesky import computeMinv, decompose, solve

__all__ = ["computeMinv", "decompose", "solve"]
