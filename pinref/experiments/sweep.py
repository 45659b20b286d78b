"""The finite-difference table of the third tutorial (section 5): eps = 1e-3 ... 1e-8 against the
analytic derivatives of RNEA and ABA, one state.

    d tau / d q, d v, d a     computeRNEADerivatives   against central differences of rnea
    d ddq / d q, d v, d tau   computeABADerivatives    against central differences of aba

Each sweep is ``pinref.checking.finite_differences.eps_sweep`` (q is perturbed along the
tangent space through ``integrate``); its table shows the valley of the error (truncation ~
eps^2 on the right, rounding ~ 1e-16 / eps on the left) for q, and the rounding branch alone where
the function is linear or quadratic in the variable (a, tau, v).
"""

import dataclasses

import numpy as np

import pinref
from pinref.checking.finite_differences import EPS_SWEEP, eps_sweep
from pinref.tracing.states import random_states

from ..figures import _pyplot, check_plot_path, save_figure
from .energy import check_moving


def eps_sweeps(model, q=None, v=None, a=None, tau=None, eps=EPS_SWEEP, seed=0):
    """The six sweeps ``{"rnea": {"q": sweep, "v": ..., "a": ...}, "aba": {"q", "v", "tau"}}``
    (FiniteDifferenceSweep each) at one state; what is not given comes from
    ``pinref.tracing.states.random_states(model, 1, seed)`` (q uniform in [-1, 1] per
    coordinate, v and a standard normal, tau normal x 10: the states ``pinref diff`` draws).
    Each sweep's ``wrt`` is the name of its variable (ABA's third is ``tau``). ExperimentError
    for a model without a degree of freedom."""
    check_moving(model, "eps_sweeps")
    state = {"q": q, "v": v, "a": a, "tau": tau}
    if any(x is None for x in state.values()):
        drawn = random_states(model, 1, seed)
        state = {k: drawn[k][0] if x is None else x for k, x in state.items()}
    q, v, a, tau = (np.asarray(state[k], dtype=float) for k in ("q", "v", "a", "tau"))

    def rnea(q_, v_, a_):
        return pinref.rnea(model, model.createData(), q_, v_, a_)

    def aba(q_, v_, tau_):
        return pinref.aba(model, model.createData(), q_, v_, tau_)

    d_rnea = [x.copy() for x in pinref.computeRNEADerivatives(model, model.createData(), q, v, a)]
    d_aba = [x.copy() for x in pinref.computeABADerivatives(model, model.createData(), q, v, tau)]
    out = {"rnea": {}, "aba": {}}
    for wrt, name, analytic in zip(("q", "v", "a"), ("q", "v", "a"), d_rnea):
        out["rnea"][name] = eps_sweep(model, rnea, q, v, a, analytic, wrt, eps, label="tau")
    for wrt, name, analytic in zip(("q", "v", "a"), ("q", "v", "tau"), d_aba):
        sweep = eps_sweep(model, aba, q, v, tau, analytic, wrt, eps, label="(ddq)")
        # aba's third argument, tau, is perturbed in eps_sweep's a slot: the sweep is named
        # after tau, so that its table reads d(ddq)/dtau
        out["aba"][name] = dataclasses.replace(sweep, wrt=name)
    return out


def sweeps_text(sweeps, model_name):
    """The tables, one per derivative."""
    parts = [f"eps sweeps on {model_name}: central differences against computeRNEADerivatives "
             "and computeABADerivatives"]
    for algorithm, by_var in sweeps.items():
        parts += [f"\n[{algorithm}] " + sweep.to_text() for sweep in by_var.values()]
    return "\n".join(parts)


def sweeps_dict(sweeps):
    return {alg: {var: {"shape": s.shape, "best_eps": s.best.eps,
                        "steps": [{"eps": st.eps, "max_abs_error": st.max_abs_error,
                                   "relative_error": st.relative_error,
                                   "worst": [st.worst_row, st.worst_column]} for st in s.steps]}
                  for var, s in by_var.items()} for alg, by_var in sweeps.items()}


def plot_sweeps(sweeps, path, model_name=""):
    """Write the figure to ``path`` (a .png) and return it (a matplotlib Figure): relative error
    against eps on log-log axes, one curve per derivative, one panel per algorithm. Needs
    matplotlib (``pinref[plot]``)."""
    check_plot_path(path)
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(10.4, 4.2), constrained_layout=True, sharey=True)
    for ax, (algorithm, by_var) in zip(axes, sweeps.items()):
        out = "tau" if algorithm == "rnea" else "(ddq)"
        for var, s in by_var.items():
            eps = [st.eps for st in s.steps]
            err = [max(st.relative_error, 1e-18) for st in s.steps]
            ax.loglog(eps, err, "o-", label=f"d{out}/d{var} ({s.shape})")
        ax.set_xlabel("eps")
        ax.set_title(f"{algorithm} derivatives, {model_name}")
        ax.invert_xaxis()
        ax.legend()
    axes[0].set_ylabel("relative error |FD - analytic|_F / max(1, |.|_F)")
    return save_figure(plt, fig, path)
