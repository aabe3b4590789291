"""FCS.fmu in FMPy, a third-party FMI importer: validation, the declared interface, and
co-simulation and Model Exchange runs against closed forms evaluated here (test gains):
the SAS washout's step response -K_p exp(-t / tau_w) through no actuator, and the gearing's
first-order actuator step response gear (1 - exp(-t / tau_a)).
"""

import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu

from conftest import packaged_fmu, read_our_description


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
