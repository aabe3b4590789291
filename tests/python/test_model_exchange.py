"""Our FMUs as FMI 2.0 Model Exchange units in FMPy, a third-party importer whose own solver
(CVode) integrates the states: each declares `<ModelExchange>` beside `<CoSimulation>`, validates,
and its Model Exchange run agrees with its Co-Simulation run (and, where there is one, with the
closed form). A stateless one (the Atmosphere) offers Model Exchange with zero states.
"""

import math

import numpy as np
import pytest
from fmpy import read_model_description, simulate_fmu
from fmpy.validation import validate_fmu

from conftest import OUR_FMUS, ROOT
from conftest import packaged_fmu as fmu

# Those of our FMUs that offer Model Exchange (all of them today), as their committed
# descriptions say.
MODELS = [name for name in OUR_FMUS if "<ModelExchange" in (ROOT / "modelDescription" / f"{name}.xml").read_text()]


def both(name, stop_time, output_interval, start_values, outputs):
    """The same experiment as Model Exchange (CVode, tight tolerance) and as Co-Simulation."""
    common = dict(stop_time=stop_time, output_interval=output_interval, start_values=start_values, output=outputs)
    me = simulate_fmu(fmu(name), fmi_type="ModelExchange", solver="CVode", relative_tolerance=1e-10, **common)
    cs = simulate_fmu(fmu(name), fmi_type="CoSimulation", **common)
    np.testing.assert_allclose(me["time"], cs["time"], atol=1e-12)
    return me, cs


@pytest.mark.parametrize("name", MODELS)
def test_model_exchange_is_declared_and_valid(name):
    assert validate_fmu(fmu(name)) == []
    md = read_model_description(fmu(name))
    assert md.modelExchange is not None and md.coSimulation is not None
    assert md.modelExchange.modelIdentifier == md.coSimulation.modelIdentifier == name
    assert md.modelExchange.providesDirectionalDerivative
    states = [v for v in md.modelVariables if v.name.startswith("state.")]
    assert len(md.derivatives) == len(states)
    for state, derivative in zip(states, md.derivatives):
        assert derivative.variable.name == f"der({state.name})"
        assert derivative.variable.derivative is state


def test_rotor_flap_oscillation_in_model_exchange_matches_closed_form():
    """Lag locked, fixed hub in vacuum: beta(t) = beta0 cos(nu Omega t), nu = sqrt(1 + e S / I)."""
    beta0, omega, e, s, i_flap = 0.01, 29.0, 0.3, 390.0, 1953.0
    me, cs = both("Rotor", 0.5, 0.002, {"lock_lag": True, "blade.beta0": beta0, "tolerance": 1e-10},
                  ["azimuth", "blade[1].flap", "blade[3].flap", "hub.F.z"])
    nu = math.sqrt(1.0 + e * s / i_flap)
    # The closed form is the small-angle solution: at beta0 = 0.01 rad it is good to about 1e-5.
    np.testing.assert_allclose(me["blade[1].flap"], beta0 * np.cos(nu * omega * me["time"]), atol=1e-5)
    np.testing.assert_allclose(me["blade[1].flap"], cs["blade[1].flap"], atol=1e-7)
    np.testing.assert_allclose(me["hub.F.z"], cs["hub.F.z"], rtol=1e-5, atol=1e-3)
    np.testing.assert_allclose(me["azimuth"], omega * me["time"], rtol=1e-12, atol=1e-12)


def test_rotor_with_lag_and_flap_agrees_between_interfaces():
    me, cs = both("Rotor", 0.3, 0.003, {"blade.beta0": 0.02, "blade.zeta0": 0.01, "tolerance": 1e-10},
                  ["blade[1].flap", "blade[1].lag", "blade[2].lag", "hub.F.x", "hub.M.y"])
    for name in ["blade[1].flap", "blade[1].lag", "blade[2].lag"]:
        np.testing.assert_allclose(me[name], cs[name], atol=2e-7, err_msg=name)
    assert np.ptp(me["blade[1].lag"]) > 1e-3


def test_tumbling_fuselage_agrees_between_interfaces():
    """Torque-free asymmetric body spinning near its intermediate axis (unstable): a sensitive
    check that both interfaces integrate the same equations."""
    starts = {"p0": 0.02, "q0": 1.0, "r0": 0.02, "g": 0.0}
    me, cs = both("Fuselage", 2.0, 0.01, starts, ["p", "q", "r", "phi", "theta"])
    for name in ["p", "q", "r", "phi", "theta"]:
        np.testing.assert_allclose(me[name], cs[name], atol=1e-6, err_msg=name)


def test_controls_actuator_lag_matches_closed_form():
    """A collective held at 0.1 rad from collective0 = 0: theta0 = 0.1 (1 - exp(-t / tau))."""
    tau = 0.1
    me, cs = both("Controls", 0.5, 0.01, {"tau": tau, "collective": 0.1}, ["theta0", "blade[1].pitch"])
    t = me["time"]
    gain = 1.0  # gain.collective's default
    np.testing.assert_allclose(me["theta0"], gain * 0.1 * (1 - np.exp(-t / tau)), atol=1e-8)
    np.testing.assert_allclose(cs["theta0"], me["theta0"], atol=1e-8)


def test_pitt_peters_inflow_agrees_between_interfaces():
    """Pitt-Peters inflow decaying from lambda_0 = 0.05 over a rotor without blade motion."""
    me, cs = both("Aero", 0.3, 0.003, {"inflow_model": 2, "lambda0_start": 0.05}, ["inflow", "thrust"])
    np.testing.assert_allclose(me["inflow"], cs["inflow"], rtol=1e-6, atol=1e-9)
    assert me["inflow"][-1] < 0.9 * me["inflow"][0]


def test_peters_he_inflow_agrees_between_interfaces():
    """Peters-He inflow (2 harmonics, 2 radial functions: 10 of the 36 declared states) decaying
    from lambda_m = 0.05 over a rotor without blade motion."""
    starts = {"inflow_model": 3, "peters_he_harmonics": 2, "peters_he_radial": 2, "lambda0_start": 0.05}
    me, cs = both("Aero", 0.3, 0.003, starts, ["inflow", "thrust"])
    np.testing.assert_allclose(me["inflow"], cs["inflow"], rtol=1e-6, atol=1e-9)
    assert me["inflow"][-1] < 0.9 * me["inflow"][0]


def test_stateless_atmosphere_runs_as_model_exchange_with_zero_states():
    """No states, no event indicators: FMPy only sets time and inputs and reads the outputs, which
    are the Co-Simulation run's and ISA air (ICAO Doc 7488 sea level: 1.2250 kg/m^3, 288.15 K,
    101325 Pa; at 1000 m geometric, USSA 1976 eq. 18 geopotential H = r0 Z / (r0 + Z), r0 = 6356766
    m, and the troposphere's lapse rate 6.5 K/km, as fmu-atmosphere/src/isa.rs cites them)."""
    md = read_model_description(fmu("Atmosphere"))
    assert md.numberOfEventIndicators == 0 and md.derivatives == []
    outputs = ["density", "temperature", "pressure"]
    me, cs = both("Atmosphere", 1.0, 0.1, {}, outputs)
    for name in outputs:
        np.testing.assert_array_equal(me[name], cs[name])
    np.testing.assert_allclose(me["density"], 1.2250, atol=5e-5)
    assert np.all(me["temperature"] == 288.15) and np.all(me["pressure"] == 101325.0)
    high = simulate_fmu(fmu("Atmosphere"), fmi_type="ModelExchange", stop_time=0.5, output_interval=0.1,
                        start_values={"z": -1000.0}, output=["temperature"])
    geopotential = 6356766.0 * 1000.0 / (6356766.0 + 1000.0)
    np.testing.assert_allclose(high["temperature"], 288.15 - 0.0065 * geopotential, rtol=1e-12)
