"""``pinref experiment energy|eps-sweep`` and ``pinref.experiments``.

The energy experiment is checked against a semi-implicit Euler loop written with Pinocchio 3.8.0
(pin.aba, pin.integrate, pin's energies), its drift halves when dt halves on the tutorial model
and the humanoid, and its table prints the numbers of the run.
"""

import json
import re

import numpy as np
import pinocchio as pin
import pytest

import pinref
import pinref.figures
from pinref.cli import main
from pinref.experiments import ExperimentError, PlotFileError, energy_drift, eps_sweeps
from pinref.experiments import energy as energy_module
from pinref.experiments import plot_energy, plot_sweeps
from pinref.experiments.energy import simulate
from pinref.tracing.states import random_states

MODELS = {"tutorial": (pinref.buildTutorialModel, 30),
          "humanoid": (pinref.buildSampleModelHumanoid, 10)}


@pytest.fixture(scope="module", params=sorted(MODELS))
def drift(request):
    build, steps = MODELS[request.param]
    model = build()
    return model, energy_drift(model, dt=4e-3, steps=steps, model_name=request.param)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_the_run_is_pins_semi_implicit_euler(name):
    model = MODELS[name][0]()
    pmodel = pinref.to_pinocchio(model)
    pdata = pmodel.createData()
    state = random_states(model, 1, 0)
    q0, v0 = state["q"][0], state["v"][0]
    run = simulate(model, q0, v0, 4e-3, 15)
    q, v = q0.copy(), v0.copy()
    for n in range(16):
        T = pin.computeKineticEnergy(pmodel, pdata, q, v)
        U = pin.computePotentialEnergy(pmodel, pdata, q)
        for got, ref in ((run["q"][n], q), (run["v"][n], v), (run["kinetic"][n], T),
                         (run["potential"][n], U)):
            assert np.max(np.abs(got - ref)) <= 1e-12 * max(1.0, np.max(np.abs(ref)))
        a = pin.aba(pmodel, pdata, q, v, np.zeros(pmodel.nv))
        v = v + 4e-3 * a
        q = pin.integrate(pmodel, q, 4e-3 * v)


def test_the_world_momentum_is_pins(drift):
    model, result = drift
    pmodel = pinref.to_pinocchio(model)
    pdata = pmodel.createData()
    run = result.runs[0]
    for n in (0, run.steps):
        pin.forwardKinematics(pmodel, pdata, run.q[n], run.v[n])
        ref = sum(pdata.oMi[i].act(pmodel.inertias[i] * pdata.v[i]).vector
                  for i in range(1, pmodel.njoints))
        assert np.max(np.abs(run.momentum[n] - ref)) <= 1e-12 * max(1.0, np.max(np.abs(ref)))


def test_drift_halves_when_dt_halves(drift):
    model, result = drift
    assert [r.dt for r in result.runs] == [4e-3, 2e-3, 1e-3]
    assert result.runs[1].steps == 2 * result.runs[0].steps
    assert np.all(result.ratios >= 2.0), result.ratios
    assert 0.95 <= result.order <= 1.1
    # the final configurations converge at first order too
    assert result.differences[0] / result.differences[1] >= 1.9
    # T = 1/2 v^T M v at every instant
    for r in result.runs:
        assert np.all(r.kinetic_check <= 1e-12 * np.maximum(1.0, r.kinetic))


@pytest.mark.parametrize("name", sorted(MODELS))
def test_without_gravity_energy_and_momentum_converge(name):
    build, steps = MODELS[name]
    result = energy_drift(build(), dt=4e-3, steps=steps, gravity=False)
    assert np.all(result.runs[0].potential == 0)
    assert np.all(result.ratios >= 1.95), result.ratios        # first order: 2 in the limit
    mdrift = np.array([r.momentum_drift for r in result.runs])
    assert np.all(mdrift[:-1] / mdrift[1:] >= 1.95), mdrift


def test_the_table_prints_the_runs_numbers(drift):
    _, result = drift
    lines = str(result).splitlines()
    rows = [line.split() for line in lines[2:5]]
    for row, run in zip(rows, result.runs):
        assert float(row[0]) == pytest.approx(run.dt, rel=1e-3)
        assert int(row[1]) == run.steps
        assert float(row[2]) == pytest.approx(run.energy[0], rel=1e-8)
        assert float(row[3]) == pytest.approx(run.energy[-1], rel=1e-8)
        assert float(row[4]) == pytest.approx(run.drift, rel=1e-3)
    assert re.search(rf"dt\^{result.order:.2f}", lines[-1])
    assert float(rows[1][5]) == pytest.approx(result.ratios[0], abs=0.006)


def _labels(ax):
    return ax.get_xlabel(), ax.get_ylabel(), ax.get_xscale(), ax.get_yscale()


def test_the_energy_figure(tmp_path):
    result = energy_drift(pinref.buildTutorialModel(), dt=4e-3, steps=5, gravity=False)
    fig = plot_energy(result, tmp_path / "e.png")
    energy, drift, momentum = fig.axes
    assert _labels(energy) == ("t [s]", "E = T [J]", "linear", "linear")
    assert _labels(drift) == ("dt [s]", "max drift / E_scale", "log", "log")
    assert _labels(momentum)[::2] == ("t [s]", "linear") and momentum.get_yscale() == "log"
    assert [t.get_text() for t in energy.get_legend().get_texts()] == [
        "dt = 0.004 s", "dt = 0.002 s", "dt = 0.001 s"]
    texts = [t.get_text() for t in drift.get_legend().get_texts()]
    assert texts == ["max|E(t) - E(0)| / E_scale", f"fit: drift ~ dt^{result.order:.2f}"]
    points, fit = drift.get_lines()
    assert np.array_equal(points.get_ydata(), result.drifts)
    assert np.allclose(fit.get_ydata(), np.exp(result.intercept) * points.get_xdata()
                       ** result.order, rtol=1e-12)
    assert momentum.get_legend() is not None
    assert (tmp_path / "e.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with_gravity = plot_energy(energy_drift(pinref.buildTutorialModel(), dt=4e-3, steps=5),
                               tmp_path / "g.png")
    assert len(with_gravity.axes) == 2 and with_gravity.axes[0].get_ylabel() == "E = T + U [J]"


def test_the_sweep_figure(tmp_path):
    fig = plot_sweeps(eps_sweeps(pinref.buildTutorialModel()), tmp_path / "s.png", "tutorial")
    rnea, aba = fig.axes
    for ax in (rnea, aba):
        assert ax.get_xlabel() == "eps" and (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
        assert ax.xaxis_inverted()
    assert rnea.get_ylabel().startswith("relative error")
    assert [t.get_text().split()[0] for t in aba.get_legend().get_texts()] == [
        "d(ddq)/dq", "d(ddq)/dv", "d(ddq)/dtau"]
    assert [t.get_text().split()[0] for t in rnea.get_legend().get_texts()] == [
        "dtau/dq", "dtau/dv", "dtau/da"]


@pytest.mark.parametrize("experiment", ["energy", "eps-sweep"])
def test_bad_input_is_refused_before_the_run(experiment, capsys, tmp_path, monkeypatch):
    def no_run(*args, **kwargs):
        raise AssertionError("the run started")

    monkeypatch.setattr(energy_module, "simulate", no_run)
    monkeypatch.setattr("pinref.experiments.sweep.eps_sweep", no_run)
    cases = [(["--seed", "-1"], "seed: expected an integer >= 0"),
             (["--plot", "/nonexistent/dir/x.png"], "no directory /nonexistent/dir"),
             (["--plot", str(tmp_path / "x.txt")], "ending in .png, e.g. x.png"),
             (["--plot", str(tmp_path)], "ending in .png"),
             (["--plot", ""], "ending in .png, e.g. figure.png"),
             (["--plot", str(tmp_path / "dir.png")], "is a directory")]
    (tmp_path / "dir.png").mkdir()
    for words, message in cases:
        assert main(["experiment", experiment, *words]) == 2, words
        captured = capsys.readouterr()
        assert message in captured.err and "Traceback" not in captured.err, words
        assert captured.out == "", words
    # matplotlib appends .png to a name without a suffix: nothing may be written beside it
    assert not (tmp_path.parent / (tmp_path.name + ".png")).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.png"]


def test_a_failed_figure_write_is_a_typed_error(capsys, tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    def full_disk(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", full_disk)
    png = tmp_path / "e.png"
    assert main(["experiment", "energy", "--steps", "2", "--plot", str(png)]) == 2
    assert f"--plot {png}: cannot write the figure (No space left on device)" in \
        capsys.readouterr().err
    with pytest.raises(PlotFileError):
        plot_sweeps(eps_sweeps(pinref.buildTutorialModel()), png)


@pytest.mark.parametrize("experiment", ["energy", "eps-sweep"])
def test_json_with_a_figure_parses(experiment, capsys, tmp_path):
    png = tmp_path / "f.png"
    assert main(["experiment", experiment, "--json", "--plot", str(png)]
                + (["--steps", "3"] if experiment == "energy" else [])) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["figure"] == str(png) and png.read_bytes()[:4] == b"\x89PNG"


def test_a_kinetic_energy_that_is_not_half_vMv_exits_1(capsys, monkeypatch):
    real = pinref.computeKineticEnergy
    monkeypatch.setattr(pinref, "computeKineticEnergy",
                        lambda *args: real(*args) * (1 + 1e-9))
    assert main(["experiment", "energy", "--steps", "2"]) == 1
    captured = capsys.readouterr()
    assert "NO " in captured.out and "differs from 1/2 v^T M v" in captured.err
    assert main(["experiment", "energy", "--steps", "2", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["kinetic_ok"] is False


def test_energy_command(capsys, tmp_path):
    png = tmp_path / "e.png"
    assert main(["experiment", "energy", "--steps", "5", "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "max|E-E0|/E_scale" in out and f"wrote {png}" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["experiment", "energy", "--steps", "5", "--no-gravity", "--json"]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert not doc["gravity"] and len(doc["runs"]) == 3 and doc["runs"][2]["steps"] == 20
    ref = energy_drift(pinref.buildTutorialModel(), dt=4e-3, steps=5, gravity=False)
    assert doc["runs"][0]["drift"] == ref.runs[0].drift
    for dt in ("-1", "inf", "1e300"):
        assert main(["experiment", "energy", "--dt", dt]) == 2
        assert "--dt" in capsys.readouterr().err
    assert main(["experiment", "energy", "--steps", "0"]) == 2
    assert "--steps" in capsys.readouterr().err
    assert main(["experiment", "energy", "--model", "nope"]) == 2
    assert main(["experiment", "--help"]) == 0
    assert main(["experiment", "energy", "--help"]) == 0
    assert main(["experiment"]) == 2


def test_plot_without_matplotlib_is_a_usage_error(monkeypatch, capsys):
    import builtins

    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    assert main(["experiment", "eps-sweep", "--plot", "x.png"]) == 2
    assert "pinref[plot]" in capsys.readouterr().err
    with pytest.raises(pinref.figures.MissingPlotError):
        pinref.figures._pyplot()


def test_bad_arguments_are_typed_errors():
    assert issubclass(ExperimentError, (pinref.errors.PinrefError, ValueError))
    assert issubclass(PlotFileError, (pinref.errors.PinrefError, OSError))
    model = pinref.buildTutorialModel()
    for dt in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ExperimentError, match="finite dt > 0"):
            energy_drift(model, dt=dt)
    with pytest.raises(ExperimentError, match="steps >= 1"):
        energy_drift(model, steps=2.5)
    with pytest.raises(pinref.errors.ArgumentValueError, match="seed"):
        energy_drift(model, seed=-1)
    with pytest.raises(pinref.errors.ArgumentValueError, match="seed"):
        eps_sweeps(model, seed=-1)


def test_a_diverging_run_names_dt():
    for dt in (1e300, 1e150, 1e5):
        with pytest.raises(ExperimentError, match=r"diverged.*lower dt \(--dt\)"):
            energy_drift(pinref.buildTutorialModel(), dt=dt, steps=5)


def test_nothing_moving_is_refused_not_nan():
    model = pinref.buildTutorialModel()
    with pytest.raises(ExperimentError, match="E_scale = 0.*nonzero v0 or keep gravity"):
        energy_drift(model, v0=np.zeros(model.nv), gravity=False)


def test_a_run_beyond_the_bounds_is_refused_naming_the_estimate(capsys, monkeypatch):
    """Issue 25 item 4: --steps 99999999999999999999 never ended, its histories growing; --dt
    1e-300 printed 'drift ~ dt^nan'. Now exit 2 before the run, naming the estimate."""
    def no_run(*args, **kwargs):
        raise AssertionError("the run started")

    monkeypatch.setattr(energy_module, "simulate", no_run)
    cases = [(["--steps", "99999999999999999999"], r"make 699999999999999999993 steps, whose "
              r"histories take an estimated 6\.\d+e\+14 GiB, more than the 1 GiB .*give at most "
              r"\d+ steps \(--steps\)"),
             (["--dt", "1e-300", "--steps", "3"], r"a step of dt = 2\.5e-301 leaves the state "
              r"unchanged.*give a larger dt \(--dt\)")]
    for words, message in cases:
        assert main(["experiment", "energy", *words]) == 2, words
        captured = capsys.readouterr()
        assert re.search(message, captured.err) and "Traceback" not in captured.err, words
        assert captured.out == "", words
    monkeypatch.setattr(energy_module, "TIME_LIMIT", 1e-3)
    with pytest.raises(ExperimentError, match=r"1750 steps take an estimated .* s \(.* ms per "
                       r"step measured\), more than the 0\.001 s .*fewer steps"):
        energy_drift(pinref.buildTutorialModel(), steps=250)


def test_the_history_estimate_bounds_what_a_run_holds():
    import tracemalloc

    model = pinref.buildSampleModelHumanoid()
    peaks = []
    for steps in (1, 100):
        tracemalloc.start()
        try:
            energy_drift(model, steps=steps)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    assert peaks[1] - peaks[0] <= (100 - 1) * 7 * energy_module.instant_bytes(model)
    fit = {name: (energy_module.HISTORY_BYTES_LIMIT // energy_module.instant_bytes(m) - 3) // 7
           for name, m in (("humanoid", model), ("tutorial", pinref.buildTutorialModel()))}
    assert 87_000 <= fit["humanoid"] < 88_000 and 165_000 <= fit["tutorial"] < 166_000  # docs


@pytest.mark.parametrize("experiment", ["energy", "eps-sweep"])
@pytest.mark.parametrize("body", [
    '<link name="base"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" '
    'ixy="0" ixz="0" iyz="0"/></inertial></link>',
    '<link name="a"/><link name="b"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" '
    'izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link><joint name="f" type="fixed"><parent '
    'link="a"/><child link="b"/></joint>'], ids=["one link", "fixed joints"])
def test_a_model_without_joints_is_refused_without_a_traceback(experiment, body, tmp_path,
                                                               capsys):
    """Issue 25 item 11: a URDF without a moving joint ended in a NumPy broadcast traceback."""
    path = tmp_path / "still.urdf"
    path.write_text(f'<robot name="still">{body}</robot>')
    assert main(["experiment", experiment, "--model", str(path)]) == 2
    captured = capsys.readouterr()
    assert "no joint with a degree of freedom (nv = 0)" in captured.err
    assert "Traceback" not in captured.err and captured.out == ""


def test_the_fitted_line_is_the_drifts_least_squares_line(drift):
    _, result = drift
    log_dt, log_drift = np.log([r.dt for r in result.runs]), np.log(result.drifts)
    residual = log_drift - (result.order * log_dt + result.intercept)
    assert abs(residual.sum()) <= 1e-9 and np.abs(residual).max() <= 0.05


def test_progress_is_reported_for_every_run():
    calls = []
    energy_drift(pinref.buildTutorialModel(), dt=4e-3, steps=2,
                 progress=lambda stage, done, total: calls.append((stage, done, total)))
    assert calls[0] == ("dt = 0.004", 0, 2) and calls[2] == ("dt = 0.004", 2, 2)
    assert calls[-1] == ("dt = 0.001", 8, 8) and len(calls) == 3 + 5 + 9


def test_eps_sweeps_show_the_valley_for_q():
    sweeps = eps_sweeps(pinref.buildTutorialModel())
    assert set(sweeps) == {"rnea", "aba"}
    assert set(sweeps["rnea"]) == {"q", "v", "a"} and set(sweeps["aba"]) == {"q", "v", "tau"}
    for algorithm in sweeps:
        assert sweeps[algorithm]["q"].shape == "valley"
        assert sweeps[algorithm]["q"].best.eps in (1e-5, 1e-6)
        assert sweeps[algorithm]["q"].best.relative_error < 1e-9
    assert sweeps["rnea"]["a"].shape == sweeps["aba"]["tau"].shape == "rounding"
    assert [s.wrt for s in sweeps["aba"].values()] == ["q", "v", "tau"]
    assert "d(ddq)/dtau (central" in str(sweeps["aba"]["tau"])
    assert "linear or quadratic in tau)" in str(sweeps["aba"]["tau"])


def test_eps_sweep_command(capsys, tmp_path):
    png = tmp_path / "s.png"
    assert main(["experiment", "eps-sweep", "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "[rnea] eps sweep of dtau/dq" in out and "[aba] eps sweep of d(ddq)/dtau" in out
    assert out.count("valley: the error falls, then rises") == 2
    assert png.stat().st_size > 10000
    assert main(["experiment", "eps-sweep", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["aba"]["q"]["shape"] == "valley" and len(doc["rnea"]["v"]["steps"]) == 6
