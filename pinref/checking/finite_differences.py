"""Central finite differences along the tangent space, and the eps sweep that checks a derivative.

A derivative with respect to q is a derivative along the tangent space (nv columns, not nq):

    d f / d q [:, j]  ~  ( f(q (+) eps e_j, v, a) - f(q (+) -eps e_j, v, a) ) / (2 eps)

with e_j a unit vector of size nv and (+) ``pinref.integrate`` (a quaternion is moved by the
exponential map, never by adding eps to one of its four numbers). With respect to v or a the
perturbation is the plain v +- eps e_j.

No single eps is right. The truncation error of a central difference shrinks like eps^2, the
rounding error grows like (machine epsilon) / eps, so the error of a correct derivative, swept
over eps = 1e-3 .. 1e-8, first falls and then rises again: a *valley*, with its bottom near
eps ~ 1e-5. A wrong derivative shows a floor that does not move with eps. Where f is linear in
the variable (tau in a, ddq in tau) or quadratic in it (tau and ddq in v), the central difference
has no truncation error and only the rising rounding branch remains.

``eps_sweep`` returns a :class:`FiniteDifferenceSweep`: one :class:`SweepStep` per eps (max abs
error, relative error, and the worst entry mapped to the joints whose tangent directions its row
and column are), with a text rendering. The function under test is any ``f(q, v, a) -> (m,)``
(``rnea``, ``aba`` with a = tau, a frame velocity, ...); it must not depend on call history, so
give it a fresh Data (``lambda q, v, a: pinref.rnea(model, model.createData(), q, v, a)``).
With ``batched=True`` (the default) f is called once on all 2 nv perturbed states stacked along
a batch axis, which every pinref algorithm accepts; pass ``batched=False`` for a function that
takes one state at a time (Pinocchio's, for instance).
"""

from dataclasses import dataclass

import numpy as np

from ..algorithms.joint_configuration import integrate
from ..errors import ShapeError

EPS_SWEEP = (1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8)
"""The step sizes of the default sweep (the tutorial's decades, 1e-3 to 1e-8)."""

WRT = ("q", "v", "a")


def _perturbed_states(model, q, v, a, wrt, eps, columns):
    """The states x +- eps e_j for j in ``columns`` (k of them), as arrays with batch (2, k):
    side (+, -), then column."""
    steps = eps * np.eye(model.nv)[columns]
    steps = np.stack((steps, -steps))  # (2, k, nv): side, column j, tangent vector
    q, v, a = (np.broadcast_to(x, steps.shape[:2] + np.shape(x)) for x in (q, v, a))
    if wrt == "q":
        q = integrate(model, q, steps)
    elif wrt == "v":
        v = v + steps
    else:
        a = a + steps
    return q, v, a


def central_differences(model, f, q, v, a, wrt="q", eps=1e-6, batched=True, columns=None):
    """``d f / d wrt`` by central differences at one state, ``(m, nv)`` (or ``(m, k)``).

    Parameters
    ----------
    model : Model
    f : callable ``f(q, v, a) -> ndarray (m,)`` (or ``(..., m)`` with batch axes when batched)
    q : ndarray (model.nq,) ;  v, a : ndarray (model.nv,)
    wrt : 'q' (tangent-space perturbation through ``integrate``), 'v' or 'a'
    eps : float, the step
    batched : bool, call f once on the stacked (2, nv) batch of perturbed states
    columns : sequence of tangent indices, optional; only these directions (default: all nv)

    Returns
    -------
    ndarray (m, k): column j is (f(x + eps e_j) - f(x - eps e_j)) / (2 eps), j in ``columns``.
    """
    q, v, a = _single_state(model, q, v, a, wrt)
    columns = _columns(model, columns)
    Q, V, A = _perturbed_states(model, q, v, a, wrt, eps, columns)
    if batched:
        out = np.asarray(f(Q, V, A), dtype=float)
    else:
        out = np.array([[np.asarray(f(Q[s, j], V[s, j], A[s, j]), dtype=float)
                         for j in range(len(columns))] for s in range(2)])
    return ((out[0] - out[1]) / (2.0 * eps)).T


def _columns(model, columns):
    """``columns`` as an index array into the nv tangent directions (all of them for None)."""
    if columns is None:
        return np.arange(model.nv)
    columns = np.asarray(columns, dtype=int).reshape(-1)
    if columns.size == 0 or columns.min() < 0 or columns.max() >= model.nv:
        raise ShapeError(f"columns: expected tangent indices in 0 .. {model.nv - 1}, got "
                         f"{columns.tolist()}")
    return columns


def _single_state(model, q, v, a, wrt):
    if wrt not in WRT:
        raise ValueError(f"wrt: expected one of {WRT}, got {wrt!r}")
    q = np.asarray(q, dtype=float)
    v = np.asarray(v, dtype=float)
    a = np.asarray(a, dtype=float)
    for name, x, n in (("q", q, model.nq), ("v", v, model.nv), ("a", a, model.nv)):
        if x.shape != (n,):
            raise ShapeError(f"{name}: the eps sweep works on one state, expected shape ({n},), "
                             f"got {x.shape}")
    return q, v, a


def tangent_label(model, k):
    """The joint whose tangent directions hold index k, as ``name[idx_v]`` (``name[idx_v+o]`` for
    the o-th direction of a multi-dof joint)."""
    for jmodel in model.joints[1:]:
        if jmodel.idx_v <= k < jmodel.idx_v + jmodel.nv:
            offset = k - jmodel.idx_v
            suffix = f"+{offset}" if jmodel.nv > 1 else ""
            return f"{model.names[jmodel.id]}[{jmodel.idx_v}{suffix}]"
    return f"[{k}]"


@dataclass(frozen=True)
class SweepStep:
    """One eps of a sweep: how far the central difference is from the analytic derivative.

    ``max_abs_error`` = max |FD - analytic|; ``relative_error`` = ||FD - analytic||_F /
    max(1, ||FD||_F, ||analytic||_F); ``worst`` = (row, column) of the largest |FD - analytic|,
    with ``worst_row`` and ``worst_column`` the joints they belong to (``tangent_label``; the
    row is labelled only when f has nv outputs, like tau or ddq).
    """

    eps: float
    max_abs_error: float
    relative_error: float
    worst: tuple
    worst_row: str
    worst_column: str


_VERDICTS = {
    "valley": "valley: the error falls, then rises (rounding takes over below the best eps)",
    "rounding": "rounding only: no truncation error (f is linear or quadratic in {wrt})",
    "flat": "flat: the error does not move with eps; the analytic derivative is not f's",
    "exact": "exact: the differences equal the derivative at every eps (no error to show)",
    "other": "no clear shape: look at the worst entries",
}


@dataclass(frozen=True)
class FiniteDifferenceSweep:
    """The eps sweep of one derivative: ``steps`` in the order of the eps given (largest first).

    ``best`` is the step of smallest relative error. ``shape`` reads the curve:

    - ``"valley"``: the error falls, then rises, with the minimum strictly inside the sweep
      (a correct derivative of a function that is not polynomial of degree <= 2 in the variable);
    - ``"rounding"``: smallest at the largest eps and rising as eps shrinks (a correct derivative
      of a function linear or quadratic in the variable: no truncation error to trade off);
    - ``"flat"``: the error stays within a factor 10 of its minimum over the whole sweep, and
      that minimum is not small (above 1e-6): the analytic derivative is not f's derivative;
    - ``"exact"``: the error is 0 at every eps (f constant or linear in the variable with
      differences that round exactly, such as a body centred on its joint's axis);
    - ``"other"``: none of these.

    ``str(sweep)`` renders the table.
    """

    wrt: str
    label: str
    steps: tuple

    @property
    def best_index(self):
        return min(range(len(self.steps)), key=lambda k: self.steps[k].relative_error)

    @property
    def best(self):
        return self.steps[self.best_index]

    @property
    def shape(self):
        k, errs = self.best_index, [s.relative_error for s in self.steps]
        if max(errs) == 0.0:
            return "exact"
        if errs[k] > 1e-6 and max(errs) <= 10 * errs[k]:
            return "flat"
        if 0 < k < len(errs) - 1 and errs[0] > errs[k] and errs[-1] > errs[k]:
            return "valley"
        if k == 0 and len(errs) > 1 and errs[-1] > errs[0]:
            return "rounding"
        return "other"

    @property
    def is_valley(self):
        return self.shape == "valley"

    def to_text(self):
        """The sweep as a plain-text table, one line per eps, the best one (the least relative
        error) marked ``< best eps``."""
        title = f"eps sweep of d{self.label}/d{self.wrt} (central differences"
        title += ", tangent space)" if self.wrt == "q" else ")"
        header = ("eps", "max abs error", "relative error", "worst entry (row, column)")
        rows = [(f"{s.eps:.0e}", f"{s.max_abs_error:.3e}", f"{s.relative_error:.3e}",
                 f"({s.worst_row or s.worst[0]}, {s.worst_column})") for s in self.steps]
        widths = [max(len(r[c]) for r in [header, *rows]) for c in range(4)]
        lines = [title, "  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip()]
        best = self.best_index
        for k, r in enumerate(rows):
            line = "  ".join(c.ljust(w) for c, w in zip(r, widths))
            lines.append((line + "  < best eps") if k == best else line.rstrip())
        lines.append(_VERDICTS[self.shape].format(wrt=self.wrt))
        return "\n".join(lines)

    __str__ = to_text


def eps_sweep(model, f, q, v, a, analytic, wrt="q", eps=EPS_SWEEP, batched=True, label="f",
              columns=None):
    """Compare ``analytic`` (m, nv) with central differences of f for every step in ``eps``.

    Parameters
    ----------
    model : Model
    f : callable ``f(q, v, a) -> (m,)`` evaluated with a fresh Data (see the module docstring)
    q : ndarray (model.nq,) ;  v, a : ndarray (model.nv,)  (one state)
    analytic : ndarray (m, model.nv), the derivative under test
    wrt : 'q', 'v' or 'a'
    eps : sequence of steps, default ``EPS_SWEEP`` = 1e-3 .. 1e-8
    batched : bool, call f once on the stacked perturbed states (pinref algorithms accept it)
    label : str, the name of f in the rendering (``tau``, ``ddq``, ...)
    columns : sequence of tangent indices, optional: compare only these columns (for instance
        to leave out joints outside an algorithm's assumptions; docs/derivatives.md)

    Returns
    -------
    FiniteDifferenceSweep
    """
    analytic = np.asarray(analytic, dtype=float)
    if analytic.ndim != 2 or analytic.shape[1] != model.nv:
        raise ShapeError(f"analytic: expected shape (m, {model.nv}), got {analytic.shape}")
    if wrt not in WRT:
        raise ValueError(f"wrt: expected one of {WRT}, got {wrt!r}")
    columns = _columns(model, columns)
    analytic = analytic[:, columns]
    steps = []
    for h in eps:
        fd = central_differences(model, f, q, v, a, wrt, h, batched, columns)
        if fd.shape != analytic.shape:
            raise ShapeError(f"f returned {fd.shape[0]} values, analytic has "
                             f"{analytic.shape[0]} rows")
        diff = fd - analytic
        row, col = np.unravel_index(int(np.argmax(np.abs(diff))), diff.shape)
        scale = max(1.0, np.linalg.norm(fd), np.linalg.norm(analytic))
        steps.append(SweepStep(
            eps=float(h), max_abs_error=float(np.abs(diff).max()),
            relative_error=float(np.linalg.norm(diff) / scale),
            worst=(int(row), int(columns[col])),
            worst_row=tangent_label(model, row) if analytic.shape[0] == model.nv else "",
            worst_column=tangent_label(model, columns[col])))
    return FiniteDifferenceSweep(wrt=wrt, label=label, steps=tuple(steps))
