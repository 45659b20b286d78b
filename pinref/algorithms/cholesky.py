"""Sparse Cholesky factorisation M = U D U^T of the joint-space inertia (algorithm/cholesky.hxx,
3.8.0), the ``pinocchio::cholesky`` namespace and its Python submodule ``pinocchio.cholesky``.

U is unit upper triangular and D diagonal; both follow the tree's sparsity. In the dof rows of
the model (``data.parents_fromRow[j]``: the row of j's parent dof, -1 at a root;
``data.nvSubtree_fromRow[j]``: the dofs of j's subtree counted from j, so that
``sub_j = [j + 1, j + nvSubtree_fromRow[j])`` are j's descendants), U[i, j] != 0 only for
ancestors i of j. Each routine sweeps the rows once:

    decompose:  for j = nv-1 .. 0:                       (data.M's upper triangle only)
                    DUt      = U[j, sub_j] * D[sub_j]
                    D[j]     = M[j, j] - U[j, sub_j] . DUt ;   Dinv[j] = 1 / D[j]
                    U[i, j]  = (M[i, j] - U[i, sub_j] . DUt) Dinv[j]     for every ancestor i
    Uv:     for k = 0 .. nv-2:     x[k]     += U[k, sub_k] . x[sub_k]            x <- U x
    Utv:    for k = nv-2 .. 0:     x[sub_k] += U[k, sub_k]^T x[k]                x <- U^T x
    Uiv:    for k = nv-2 .. 0:     x[k]     -= U[k, sub_k] . x[sub_k]            x <- U^-1 x
    Utiv:   for k = 0 .. nv-2:     x[sub_k] -= U[k, sub_k]^T x[k]                x <- U^-T x
    UDUtv:  Utv ; x *= D ; Uv                                                    x <- M x
    solve:  Uiv ; x *= Dinv ; Utiv                                               x <- M^-1 x
    Mv:     for k = nv-1 .. 0:  y[k] = M[k, k:k+nvt] . x[k:k+nvt] ; y[sub_k] += M[k, sub_k]^T x[k]
    computeMinv: column c = M^-1 e_c for every c (Pinocchio's internal::Miunit), then the strict
                 lower triangle copied from the upper one

A matrix argument is swept column by column in Pinocchio (the ``ColsAtCompileTime`` overloads);
here every column, and every state of a batch, takes each row's step in one NumPy call. Arrays
are ``(..., nv)`` vectors or ``(..., nv, k)`` matrices, batch axes first, as ``data.M``.
computeMinv solves the identity with ``solve``'s sweeps where Miunit skips the entries it knows
are zero; the columns are the same up to rounding.

Writes: ``decompose`` data.U (the entries U[i, j], i an ancestor of j: other entries keep their
values, the identity's on a fresh Data), data.D, data.Dinv; ``computeMinv`` data.Minv. The
scratch vector ``data.tmp`` that Pinocchio's decompose uses for DUt is not exposed by its Python
and is not mirrored.
"""

import weakref

import numpy as np

from ..errors import NotPositiveDefiniteError
from ..model.tree import tree
from ._args import check_data, writable


class Rows:
    """The dof rows of a model as the sweeps read them: ``sub[j]`` (the slice of j's
    descendants, ``[j + 1, j + nvSubtree_fromRow[j])``) and ``ancestors[j]`` (the rows of j's
    ancestors, nearest first, as ``parents_fromRow`` visits them)."""

    def __init__(self, parents_from_row, nv_subtree_from_row):
        nv = len(parents_from_row)
        self.nv = nv
        self.sub = [slice(j + 1, j + nv_subtree_from_row[j]) for j in range(nv)]
        self.ancestors = []
        for j in range(nv):
            chain, i = [], parents_from_row[j]
            while i >= 0:
                chain.append(i)
                i = parents_from_row[i]
            self.ancestors.append(np.array(chain, dtype=np.intp))


_ROWS = weakref.WeakKeyDictionary()      # a model's Tree -> its Rows


def rows(model, data):
    """The :class:`Rows` of ``model`` (from ``data``'s ``parents_fromRow`` and
    ``nvSubtree_fromRow``), built once per Tree."""
    key = tree(model)
    built = _ROWS.get(key)
    if built is None:
        built = _ROWS[key] = Rows(data.parents_fromRow, data.nvSubtree_fromRow)
    return built


def _decompose(model, data, where):
    """The factorisation of ``data.M`` into data.U, data.D, data.Dinv (see the module
    docstring); NotPositiveDefiniteError if some D[j] is not positive."""
    R = rows(model, data)
    M = data.M
    shape = M.shape[:-2]
    U = data.U = writable(data.U, shape + (R.nv, R.nv))
    D = data.D = writable(data.D, shape + (R.nv,))
    Dinv = data.Dinv = writable(data.Dinv, shape + (R.nv,))
    for j in range(R.nv - 1, -1, -1):
        sub, anc = R.sub[j], R.ancestors[j]
        # DUt = U[j, sub_j] * D[sub_j]
        DUt = U[..., j, sub] * D[..., sub]
        # D[j] = M[j, j] - U[j, sub_j] . DUt ; Dinv[j] = 1 / D[j]
        D[..., j] = M[..., j, j] - np.vecdot(U[..., j, sub], DUt)
        Dinv[..., j] = 1.0 / D[..., j]
        # U[i, j] = (M[i, j] - U[i, sub_j] . DUt) Dinv[j]   for every ancestor i of j
        if len(anc):
            U[..., anc, j] = (M[..., anc, j] - np.matvec(U[..., anc, sub], DUt)) \
                * Dinv[..., j, None]
    if not (D > 0).all():
        j = int(np.argwhere(~(D > 0))[0, -1])
        joint = next(i for i in range(1, model.njoints)
                     if model.idx_vs[i] <= j < model.idx_vs[i] + model.nvs[i])
        raise NotPositiveDefiniteError(
            f"{where}: data.M is not positive definite (pivot D[{j}] = {D[..., j].min()!r}, a "
            f"dof of joint {model.names[joint]!r}); fill data.M with crba(model, data, q) or "
            "computeAllTerms first", joint)
    data.mark(where, "U", "D", "Dinv")
    return U


def Uv(R, U, x):
    """``x <- U x`` in place, ``x (..., nv, k)`` (Pinocchio's cholesky::Uv)."""
    for k in range(R.nv - 1):
        sub = R.sub[k]
        # x[k] += U[k, sub_k] . x[sub_k]
        x[..., k, :] += np.vecmat(U[..., k, sub], x[..., sub, :])
    return x


def Utv(R, U, x):
    """``x <- U^T x`` in place, ``x (..., nv, k)`` (cholesky::Utv)."""
    for k in range(R.nv - 2, -1, -1):
        sub = R.sub[k]
        # x[sub_k] += U[k, sub_k]^T x[k]
        x[..., sub, :] += U[..., k, sub, None] * x[..., k, None, :]
    return x


def Uiv(R, U, x):
    """``x <- U^-1 x`` in place, ``x (..., nv, k)`` (cholesky::Uiv)."""
    for k in range(R.nv - 2, -1, -1):
        sub = R.sub[k]
        # x[k] -= U[k, sub_k] . x[sub_k]
        x[..., k, :] -= np.vecmat(U[..., k, sub], x[..., sub, :])
    return x


def Utiv(R, U, x):
    """``x <- U^-T x`` in place, ``x (..., nv, k)`` (cholesky::Utiv)."""
    for k in range(R.nv - 1):
        sub = R.sub[k]
        # x[sub_k] -= U[k, sub_k]^T x[k]
        x[..., sub, :] -= U[..., k, sub, None] * x[..., k, None, :]
    return x


def UDUtv(R, U, D, x):
    """``x <- U D U^T x = M x`` in place (cholesky::UDUtv)."""
    Utv(R, U, x)
    x *= D[..., None]
    return Uv(R, U, x)


def solve_in_place(R, U, Dinv, x):
    """``x <- M^-1 x = U^-T D^-1 U^-1 x`` in place, ``x (..., nv, k)`` (cholesky::solve)."""
    Uiv(R, U, x)
    x *= Dinv[..., None]
    return Utiv(R, U, x)


def Mv(R, M, x):
    """``M x`` from the upper triangle of ``M``, ``x (..., nv, k)`` (cholesky::Mv)."""
    y = np.zeros(np.broadcast_shapes(M.shape[:-2], x.shape[:-2]) + x.shape[-2:])
    for k in range(R.nv - 1, -1, -1):
        sub = R.sub[k]
        row = slice(k, sub.stop)
        # y[k] = M[k, k:k+nvt] . x[k:k+nvt]
        y[..., k, :] = np.vecmat(M[..., k, row], x[..., row, :])
        # y[sub_k] += M[k, sub_k]^T x[k]
        y[..., sub, :] += M[..., k, sub, None] * x[..., k, None, :]
    return y


_FIX_U = "pinref.cholesky.decompose(model, data)"


def decompose(model, data):
    """Factorise ``data.M = U D U^T`` (reads M's upper triangle); returns a copy of data.U
    ``(..., nv, nv)``.

    Writes data.U (the ancestor entries), data.D and data.Dinv. Mirrors
    ``pinocchio.cholesky.decompose`` (cholesky.hxx); data.M must have been filled first
    (``crba``, ``computeAllTerms``, ...), else NotComputedError (Pinocchio would factorise the
    initial zeros into NaN).
    """
    check_data(model, data)
    data.require("decompose", "M", "crba(model, data, q)")
    return _decompose(model, data, "decompose").copy()


def solved(model, data, x):
    """``M^-1 x`` as a new array for ``x (..., nv)``, with the factors in data (solve)."""
    shape = np.broadcast_shapes(data.U.shape[:-2], x.shape[:-1])
    y = np.array(np.broadcast_to(x, shape + x.shape[-1:]))[..., None]
    return solve_in_place(rows(model, data), data.U, data.Dinv, y)[..., 0]


def inverse(model, data):
    """``M^-1`` as a new array, every entry, from the factors in data (solve on the identity)."""
    Minv = np.array(np.broadcast_to(np.eye(model.nv), data.U.shape))
    return solve_in_place(rows(model, data), data.U, data.Dinv, Minv)


def solve(model, data, v):
    """``x = M^-1 v`` with the factors of the last ``decompose``; v ``(..., nv)``; returns
    x ``(..., nv)`` (v is not modified). Mirrors ``pinocchio.cholesky.solve``."""
    check_data(model, data)
    data.require("solve", "U", _FIX_U)
    return solved(model, data, model.check_vector(v, "solve: v", model.nv))


def computeMinv(model, data):
    """``M^-1`` from the factors of the last ``decompose``, symmetric ``(..., nv, nv)``;
    writes data.Minv and returns a copy. Mirrors ``pinocchio.cholesky.computeMinv``."""
    check_data(model, data)
    data.require("computeMinv", "U", _FIX_U)
    Minv = inverse(model, data)
    # Minv_lower = Minv_upper^T
    np.copyto(Minv, Minv.mT, where=np.tri(model.nv, k=-1, dtype=bool))
    data.Minv = Minv
    data.mark("computeMinv", "Minv")
    return Minv.copy()


__all__ = ["computeMinv", "decompose", "solve"]
