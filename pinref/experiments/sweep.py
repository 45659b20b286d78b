"""The finite-difference table of the third tutorial (section 5): eps = 1e-3 ... 1e-8 against the
analytic derivatives of RNEA and ABA, one state.

    d tau / d q, d v, d a     computeRNEADerivatives   against central differences of rnea
    d ddq / d q, d v, d tau   computeABADerivatives    against central differences of aba

Each sweep is ``pinref.algorithms.finite_differences.eps_sweep`` (q is perturbed along the
tangent space through ``integrate``); its table shows the valley of the error (truncation ~
eps^2 on the right, rounding ~ 1e-16 / eps on the left) for q, and the rounding branch alone where
the function is linear or quadratic in the variable (a, tau, v).
"""

import numpy as np

import pinref
from pinref.algorithms.finite_differences import EPS_SWEEP, eps_sweep

from .energy import _pyplot, initial_state


def eps_sweeps(model, q=None, v=None, a=None, tau=None, eps=EPS_SWEEP, seed=0):
    """The six sweeps ``{"rnea": {"q": sweep, "v": ..., "a": ...}, "aba": {"q", "v", "tau"}}``
    (FiniteDifferenceSweep each) at one state (default: ``initial_state(model, seed)``, a and
    tau normal from the same seed)."""
    q0, v0 = initial_state(model, seed)
    rng = np.random.default_rng(seed + 1)
    q = q0 if q is None else np.asarray(q, dtype=float)
    v = v0 if v is None else np.asarray(v, dtype=float)
    a = rng.normal(size=model.nv) if a is None else np.asarray(a, dtype=float)
    tau = 10 * rng.normal(size=model.nv) if tau is None else np.asarray(tau, dtype=float)

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
        out["aba"][name] = sweep
    return out


def sweeps_text(sweeps, model_name):
    """The tables, one per derivative; ABA's third one is titled d ddq / d tau."""
    parts = [f"eps sweeps on {model_name}: central differences against computeRNEADerivatives "
             "and computeABADerivatives"]
    for algorithm, by_var in sweeps.items():
        for var, sweep in by_var.items():
            text = sweep.to_text()
            if var != sweep.wrt:     # aba's third argument is tau, passed in the a slot
                text = text.replace(f"/d{sweep.wrt} ", f"/d{var} ", 1).replace(
                    f"in {sweep.wrt})", f"in {var})")
            parts.append(f"\n[{algorithm}] " + text)
    return "\n".join(parts)


def sweeps_dict(sweeps):
    return {alg: {var: {"shape": s.shape, "best_eps": s.best.eps,
                        "steps": [{"eps": st.eps, "max_abs_error": st.max_abs_error,
                                   "relative_error": st.relative_error,
                                   "worst": [st.worst_row, st.worst_column]} for st in s.steps]}
                  for var, s in by_var.items()} for alg, by_var in sweeps.items()}


def plot_sweeps(sweeps, path, model_name=""):
    """Relative error against eps on log-log axes, one curve per derivative, one panel per
    algorithm. Needs matplotlib (``pinref[plot]``)."""
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
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
