"""Pilot.fmu in FMPy, a third-party FMI importer: validation, the declared interface, and
co-simulation and Model Exchange runs against the transfer function evaluated here
(K w^2 (1 + tau s) / (s^2 + 2 zeta w s + w^2) per g, test coefficients, not a published pilot).
"""

import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu

from conftest import packaged_fmu, read_our_description

G = 9.80665
PATH = {"vertical.K": 0.05, "vertical.omega": 20.0, "vertical.zeta": 0.3, "vertical.tau": 0.02}
# model = 1 needs both paths; the lateral one is not driven here (acc.y = 0).
LATERAL = {"lateral.omega": 15.0, "lateral.zeta": 0.6}


@pytest.fixture(scope="session", name="pilot_fmu")
def _pilot_fmu():
    return packaged_fmu("Pilot")


def transfer_function(f_hz, gain=1.0):
    s = 2j * np.pi * f_hz
    w = PATH["vertical.omega"]
    return gain * PATH["vertical.K"] * w**2 * (1 + PATH["vertical.tau"] * s) / (s**2 + 2 * PATH["vertical.zeta"] * w * s + w**2)


def test_fmpy_validates_pilot_without_problems(pilot_fmu):
    assert validate_fmu(pilot_fmu) == []


def test_pilot_model_description_declares_the_interface(pilot_fmu):
    md, names = read_our_description(pilot_fmu, "Pilot")
    assert md.modelExchange is not None and md.modelExchange.modelIdentifier == "Pilot"
    for n in ["collective_cmd", "lat_cyclic_cmd", "acc.y", "acc.z"]:
        assert names[n].causality == "input"
    for n in ["collective", "lat_cyclic", "bdft.collective", "bdft.lat_cyclic"]:
        assert names[n].causality == "output"
    # The biodynamic paths' four states and the voluntary pilot's three (Pade, lag).
    assert len(md.derivatives) == 7


@pytest.mark.parametrize("fmi_type", ["CoSimulation", "ModelExchange"])
def test_a_step_of_acceleration_settles_at_the_static_gain(pilot_fmu, fmi_type):
    start = {"model": 1, "gain": 1.5, **PATH, **LATERAL, "acc.z": -G + 0.4 * G, "collective_cmd": 0.1}
    result = simulate_fmu(pilot_fmu, fmi_type=fmi_type, start_values=start, stop_time=4.0, output_interval=0.01,
                          relative_tolerance=1e-9, output=["collective", "bdft.collective"])
    expected = 1.5 * PATH["vertical.K"] * 0.4
    assert result["bdft.collective"][-1] == pytest.approx(expected, rel=1e-6)
    assert result["collective"][-1] == pytest.approx(0.1 + expected, rel=1e-6)


def test_model_exchange_sine_response_has_the_transfer_functions_gain_and_phase(pilot_fmu):
    f_hz, amplitude = 3.0, 0.2 * G
    t = np.linspace(0.0, 6.0, 60001)
    signal = np.array(list(zip(t, -G + amplitude * np.sin(2 * np.pi * f_hz * t))), dtype=[("time", float), ("acc.z", float)])
    result = simulate_fmu(pilot_fmu, fmi_type="ModelExchange", start_values={"model": 1, **PATH, **LATERAL}, input=signal,
                          stop_time=6.0, output_interval=1e-4, relative_tolerance=1e-9, output=["bdft.collective"])
    # FMPy holds the input over each output interval h: a lag of h / 2, a phase of w h / 2 = 0.9e-3
    # rad here, within the tolerance. The last 9 periods (the transient has decayed as exp(-zeta w t) = exp(-18)): one DFT bin.
    keep = result["time"] >= 3.0 - 1e-9
    time, y = result["time"][keep][:-1], result["bdft.collective"][keep][:-1]
    # The same bin of the input a sin(w t) is -i a.
    measured = 2.0 * np.mean(y * np.exp(-2j * np.pi * f_hz * time)) / (-1j * amplitude / G)
    reference = transfer_function(f_hz)
    assert abs(measured) == pytest.approx(abs(reference), rel=1e-3)
    assert np.angle(measured) == pytest.approx(np.angle(reference), abs=2e-3)


@pytest.mark.parametrize("fmi_type", ["CoSimulation", "ModelExchange"])
def test_voluntary_pilot_step_response_is_the_lead_lag_step_response(pilot_fmu, fmi_type):
    # Roll task without delay: K (T_lead s + 1) / (T_lag s + 1) on cmd.phi - phi, a unit step of
    # cmd.phi gives K (1 + (T_lead / T_lag - 1) exp(-t / T_lag)).
    k, t_lead, t_lag = 0.4, 0.5, 0.1
    start = {"voluntary.task": 1, "voluntary.K": k, "voluntary.T_lead": t_lead, "voluntary.T_lag": t_lag, "cmd.phi": 1.0}
    result = simulate_fmu(pilot_fmu, fmi_type=fmi_type, start_values=start, stop_time=1.0, output_interval=0.01,
                          relative_tolerance=1e-9, output=["voluntary", "lat_cyclic"])
    expected = k * (1.0 + (t_lead / t_lag - 1.0) * np.exp(-result["time"] / t_lag))
    assert np.max(np.abs(result["voluntary"] - expected)) < 1e-6
    assert np.array_equal(result["voluntary"], result["lat_cyclic"])


# model = 3, the lateral arm alone (the parametric second-order arm; no published lateral
# coefficients were found, docs/models.md): test coefficients, the stick-right-negative sign of
# the arm's inertia.
ARM = {"lateral.K": -0.1, "lateral.omega": 20.0, "lateral.zeta": 0.3, "lateral.tau": 0.01}


def arm_transfer_function(f_hz, gain):
    s = 2j * np.pi * f_hz
    w = ARM["lateral.omega"]
    return gain * ARM["lateral.K"] * w**2 * (1 + ARM["lateral.tau"] * s) / (s**2 + 2 * ARM["lateral.zeta"] * w * s + w**2)


def test_lateral_arm_alone_sine_response_has_the_transfer_functions_gain_and_phase(pilot_fmu):
    # 3 Hz, near the arm's resonance (20 rad/s = 3.18 Hz); gain 0.7; the transient decays as
    # exp(-zeta w t) = exp(-18) by 3 s; the last 9 periods, one DFT bin.
    f_hz, amplitude, gain = 3.0, 0.1 * G, 0.7
    t = np.linspace(0.0, 6.0, 60001)
    signal = np.array(list(zip(t, amplitude * np.sin(2 * np.pi * f_hz * t))), dtype=[("time", float), ("acc.y", float)])
    result = simulate_fmu(pilot_fmu, fmi_type="ModelExchange", start_values={"model": 3, "gain": gain, **ARM},
                          input=signal, stop_time=6.0, output_interval=1e-4, relative_tolerance=1e-9,
                          output=["bdft.lat_cyclic", "lat_cyclic", "bdft.collective"])
    keep = result["time"] >= 3.0 - 1e-9
    time, y = result["time"][keep][:-1], result["bdft.lat_cyclic"][keep][:-1]
    measured = 2.0 * np.mean(y * np.exp(-2j * np.pi * f_hz * time)) / (-1j * amplitude / G)
    reference = arm_transfer_function(f_hz, gain)
    assert abs(measured) == pytest.approx(abs(reference), rel=1e-3)
    assert np.angle(measured) == pytest.approx(np.angle(reference), abs=2e-3)
    assert np.array_equal(result["bdft.lat_cyclic"], result["lat_cyclic"])
    assert np.all(result["bdft.collective"] == 0.0)
