"""Experiments of the tutorials, from Python and as ``pinref experiment``: a tool package (it
imports the core; the core never imports it).

    from pinref.experiments import energy_drift, eps_sweeps

    result = energy_drift(pinref.buildTutorialModel(), dt=1e-3, steps=500)
    print(result)                       # the table: drift at dt, dt/2, dt/4, fitted order
    result.runs[0].energy               # E(t) of the first run, an array

- ``energy``: the energy-drift experiment (semi-implicit Euler with aba and integrate);
- ``sweep``: the eps sweeps of RNEA's and ABA's derivatives (``finite_differences.eps_sweep``).
"""

from .energy import (
    EnergyDrift,
    EnergyRun,
    ExperimentError,
    energy_drift,
    plot_energy,
)
from .sweep import eps_sweeps, plot_sweeps
from ..figures import MissingPlotError, PlotFileError

__all__ = ["EnergyDrift", "EnergyRun", "ExperimentError", "MissingPlotError", "PlotFileError",
           "energy_drift", "eps_sweeps", "plot_energy", "plot_sweeps"]
