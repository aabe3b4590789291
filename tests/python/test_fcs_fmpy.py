"""FCS.fmu in FMPy, a third-party FMI importer: validation, the declared interface, and
co-simulation and Model Exchange runs against closed forms evaluated here (test gains):
the SAS washout's step response -K_p exp(-t / tau_w) through no actuator, and the gearing's
first-order actuator step response gear (1 - exp(-t / tau_a)). Then the coupled helicopter with
the FCS: every loop off flies bit for bit as without it; the SAS damps and the attitude hold
recovers from a lateral stick doublet; the attitude hold recovers from a lateral 1-cosine gust
(examples/helicopter-gust-sas.json) within the settling time of its closed-loop roll axis.
"""

import json
import subprocess

import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.util import read_csv
from fmpy.validation import validate_fmu

from conftest import ROOT, packaged_fmu, read_our_description


@pytest.fixture(scope="session", name="fcs_fmu")
def _fcs_fmu():
    return packaged_fmu("FCS")


def test_fmpy_validates_fcs_without_problems(fcs_fmu):
    assert validate_fmu(fcs_fmu) == []


def test_fcs_model_description_declares_the_interface(fcs_fmu):
    md, names = read_our_description(fcs_fmu, "FCS")
    assert md.modelExchange is not None and md.modelExchange.modelIdentifier == "FCS"
    for n in ["stick.collective", "stick.lon", "stick.lat", "stick.pedal", "cmd.phi", "phi", "p", "u", "x"]:
        assert names[n].causality == "input"
    for n in ["collective", "lon_cyclic", "lat_cyclic", "pedal", "aug.pedal"]:
        assert names[n].causality == "output"
    assert len(md.derivatives) == 10


@pytest.mark.parametrize("fmi_type", ["CoSimulation", "ModelExchange"])
def test_sas_washout_step_response(fcs_fmu, fmi_type):
    k_p, tau_w = 0.08, 0.8
    start = {"sas": True, "sas.K_p": k_p, "sas.washout_tau": tau_w, "p": 1.0}
    result = simulate_fmu(fcs_fmu, fmi_type=fmi_type, start_values=start, stop_time=2.0, output_interval=0.01,
                          relative_tolerance=1e-9, output=["lat_cyclic"])
    expected = -k_p * np.exp(-result["time"] / tau_w)
    assert np.max(np.abs(result["lat_cyclic"] - expected)) < 1e-6


@pytest.mark.parametrize("fmi_type", ["CoSimulation", "ModelExchange"])
def test_gearing_through_the_actuator(fcs_fmu, fmi_type):
    gear, tau_a = 0.3, 0.1
    start = {"gear.lon_cyclic": gear, "actuator.tau": tau_a, "stick.lon": 1.0}
    result = simulate_fmu(fcs_fmu, fmi_type=fmi_type, start_values=start, stop_time=1.0, output_interval=0.01,
                          relative_tolerance=1e-9, output=["lon_cyclic"])
    expected = gear * (1.0 - np.exp(-result["time"] / tau_a))
    assert np.max(np.abs(result["lon_cyclic"] - expected)) < 1e-6


# The coupled helicopter with the FCS (examples/helicopter-sas*.json), run by the orchestrator.
ORCHESTRATOR = ROOT / "target" / "release" / "orchestrator"


def run_system(system, out, *options):
    done = subprocess.run([str(ORCHESTRATOR), "run", system, "--out", str(out), *options], cwd=ROOT, check=True,
                          capture_output=True, text=True)
    assert "warning" not in done.stderr, done.stderr
    return read_csv(str(out))


def test_with_every_loop_off_the_helicopter_flies_as_without_the_fcs(tmp_path):
    base = run_system("examples/helicopter.json", tmp_path / "base.csv")
    fcs = run_system("examples/helicopter-sas.json", tmp_path / "fcs.csv", "--set", "fcs.sas=false")
    for name in ["fuselage.phi", "fuselage.theta", "fuselage.psi", "fuselage.p", "fuselage.q", "fuselage.r", "controls.theta0"]:
        assert np.array_equal(base[name], fcs[name]), name


def test_sas_damps_and_attitude_hold_recovers_from_a_lateral_stick_doublet(tmp_path):
    system = "examples/helicopter-sas-doublet.json"
    phi0 = -0.049017
    open_loop = run_system(system, tmp_path / "off.csv", "--set", "fcs.sas=false")
    sas = run_system(system, tmp_path / "sas.csv")
    hold = run_system(system, tmp_path / "hold.csv", "--set", "fcs.attitude_hold=true")
    # The SAS takes a third off the peak roll rate of the doublet (0.16 rad/s without it).
    assert np.max(np.abs(sas["fuselage.p"])) < 0.7 * np.max(np.abs(open_loop["fuselage.p"]))
    # From 1.5 s after the doublet the attitude hold keeps the roll within 0.003 rad of the
    # reference; without it the helicopter has drifted 0.01 rad away.
    late = hold["time"] >= 3.0
    assert np.max(np.abs(hold["fuselage.phi"][late] - phi0)) < 3e-3
    assert np.max(np.abs(open_loop["fuselage.phi"][late] - phi0)) > 9e-3


def test_hover_hold_flies_to_the_commanded_position_and_holds_it(tmp_path):
    # From the hover trim at (0, 0, -100) m to the command (2, -1, -100) m (examples/helicopter-hover-hold.json).
    run = run_system("examples/helicopter-hover-hold.json", tmp_path / "hover.csv")
    late = run["time"] >= 10.0
    assert np.max(np.abs(run["fuselage.x"][late] - 2.0)) < 0.2
    assert np.max(np.abs(run["fuselage.y"][late] + 1.0)) < 0.1
    assert np.max(np.abs(run["fuselage.z"] + 100.0)) < 0.05


def roll_axis_from_a_stick_step(tmp_path, system, stick_lat, step):
    """Roll damping L_p (1/s) and lateral control power L_lat (rad/s^2 per rad) of the trimmed
    helicopter, from its open-loop roll-rate response to a lateral stick step (no FCS loop, no
    gust): p' = L_p p + L_lat step, fitted as p_ss (1 - exp(-(t - t_0) / T)) over 0.3 s."""
    from scipy.optimize import curve_fit
    out = tmp_path / "step.csv"
    subprocess.run([str(ORCHESTRATOR), "run", system, "--out", str(out), "--stop", "0.3", "--set", "fcs.sas=false",
                    "--set", "atmosphere.gust.amplitude.y=0", "--set", f"fcs.stick.lat={stick_lat + step}"],
                   cwd=ROOT, check=True, capture_output=True, text=True)
    run = read_csv(str(out))
    first_order = lambda t, p_ss, tau, t_0: p_ss * (1.0 - np.exp(-np.clip(t - t_0, 0.0, None) / tau))
    (p_ss, tau, _), _ = curve_fit(first_order, run["time"], run["fuselage.p"], p0=[0.05, 0.1, 0.0])
    return -1.0 / tau, p_ss / (tau * step)


def attitude_hold_settling_time(l_p, l_lat, fcs):
    """4 / sigma of the slowest pole of the roll axis p' = L_p p + L_lat lat_cyclic with the SAS
    (washed-out rate feedback) and the PI attitude hold, the FCS laws of docs/models.md:
    lat_cyclic = -K_p s/(s + a) p - (K_phi + Ki_phi/s) phi, a = 1/tau_w. With p = s phi,
    s^4 + (a - L_p + L_lat K_p) s^3 + (L_lat K_phi - a L_p) s^2 + L_lat (a K_phi + Ki_phi) s
    + a L_lat Ki_phi = 0."""
    k_p, a = fcs["sas.K_p"], 1.0 / fcs["sas.washout_tau"]
    k_phi, ki_phi = fcs["attitude_hold.K_phi"], fcs["attitude_hold.Ki_phi"]
    poles = np.roots([1.0, a - l_p + l_lat * k_p, l_lat * k_phi - a * l_p, l_lat * (a * k_phi + ki_phi),
                      a * l_lat * ki_phi])
    assert np.all(poles.real < 0.0), poles
    return 4.0 / np.min(-poles.real), poles


def test_attitude_hold_recovers_from_a_lateral_gust_within_its_settling_time(tmp_path):
    system = "examples/helicopter-gust-sas.json"
    description = json.loads((ROOT / system).read_text())
    atmosphere, fcs = description["fmus"]["atmosphere"]["parameters"], description["fmus"]["fcs"]["parameters"]
    stick = {i["to"]: i["signal"]["constant"] for i in description["inputs"]}
    l_p, l_lat = roll_axis_from_a_stick_step(tmp_path, system, stick["fcs.stick.lat"], 0.005)
    settling, poles = attitude_hold_settling_time(l_p, l_lat, fcs)
    # The hover drifts through the frozen air mass at the wind speed: the 1-cosine pulse (two gust
    # lengths) has passed at (start + 2 length) / speed.
    gust_end = (atmosphere["gust.start"] + 2.0 * atmosphere["gust.length"]) / atmosphere["wind.speed"]
    settled = gust_end + settling
    print(f"L_p {l_p:.2f} 1/s, L_lat {l_lat:.1f} 1/s^2, poles {np.round(poles, 3)}, settling {settling:.1f} s")
    stop = ["--stop", f"{settled + 0.5}"]
    runs = {"hold": run_system(system, tmp_path / "hold.csv", *stop, "--set", "fcs.attitude_hold=true"),
            "sas": run_system(system, tmp_path / "sas.csv", *stop),
            "none": run_system(system, tmp_path / "none.csv", *stop, "--set", "fcs.sas=false")}
    phi0, theta0 = stick["fcs.cmd.phi"], stick["fcs.cmd.theta"]
    peak, late = {}, {}
    for name, run in runs.items():
        after = run["time"] >= settled
        peak[name] = np.max(np.abs(run["fuselage.phi"] - phi0))
        late[name] = max(np.max(np.abs(run["fuselage.phi"][after] - phi0)),
                         np.max(np.abs(run["fuselage.theta"][after] - theta0)))
        print(f"{name}: peak roll deviation {peak[name]:.4f} rad, after {settled:.1f} s {late[name]:.5f} rad")
    # The roll-only closed form puts the slowest mode at 2 % of its start by then; the lateral
    # drift through the gust (dihedral, not in the closed form) keeps some more: 10 % of the peak.
    assert late["hold"] < 0.1 * peak["hold"]
    assert peak["hold"] < 0.5 * min(peak["sas"], peak["none"])
    # Without the hold the helicopter is still rolling and pitching at least five times as much.
    assert min(late["sas"], late["none"]) > 5.0 * late["hold"]
