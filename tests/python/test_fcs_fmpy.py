"""FCS.fmu in FMPy, a third-party FMI importer: validation, the declared interface, and
co-simulation and Model Exchange runs against closed forms evaluated here (test gains):
the SAS washout's step response -K_p exp(-t / tau_w) through no actuator, and the gearing's
first-order actuator step response gear (1 - exp(-t / tau_a)). Then the coupled helicopter with
the FCS: every loop off flies bit for bit as without it; the SAS damps and the attitude hold
recovers from a lateral stick doublet (a pilot-input doublet stands in for the issue's 1-cosine
gust until the Fuselage and Aero take wind).
"""

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
