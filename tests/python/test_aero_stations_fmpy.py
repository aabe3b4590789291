"""AeroStations.fmu in FMPy, a third-party FMI importer: it validates, declares the station-level
aero interface (the names RotorElastic publishes), and as Co-Simulation and Model Exchange gives
one station's line load by the blade-element closed form: a section at radius r = 3 m on blade
1 (azimuth 0, over the tail), moving at Omega r towards its leading edge, pitched theta = 0.1
rad, no induced inflow: lift 0.5 rho c U^2 a theta up, drag 0.5 rho c U^2 (cd0 + cd2 theta^2)
against the motion, thrust = lift x width, torque = r drag x width.
"""

import math

import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu

from conftest import packaged_fmu, read_our_description


@pytest.fixture(scope="session", name="stations_fmu")
def _stations_fmu():
    return packaged_fmu("AeroStations")


def test_fmpy_validates_aero_stations(stations_fmu):
    assert validate_fmu(stations_fmu) == []
    _, names = read_our_description(stations_fmu, "AeroStations")
    for n in ["blade[1].station[1].pos.x", "blade[8].station[17].velocity.z", "blade[3].station[9].ey.y",
              "blade[3].station[9].ez.z", "blade[2].station[5].width", "hub.vel.x", "wind.z"]:
        assert names[n].causality == "input", n
    for n in ["blade[1].station[1].f.x", "blade[8].station[17].m.z", "thrust", "torque", "inflow"]:
        assert names[n].causality == "output", n


@pytest.mark.parametrize("fmi_type", ["CoSimulation", "ModelExchange"])
def test_one_station_gives_the_blade_element_closed_form(stations_fmu, fmi_type):
    omega, r, theta, width = 44.401, 3.0, 0.1, 0.5
    rho, chord, a, cd0, cd2 = 1.225, 0.27, 5.73, 0.011, 0.4
    s = "blade[1].station[1]"
    start = {"nb": 1, "inflow_model": 0, "Omega": omega, "rho": rho, "chord": chord, "a": a, "cd0": cd0,
             "cd2": cd2, "twist": 0.0, f"{s}.pos.x": -r, f"{s}.velocity.y": omega * r, f"{s}.width": width,
             f"{s}.ey.y": math.cos(theta), f"{s}.ey.z": -math.sin(theta),
             f"{s}.ez.y": -math.sin(theta), f"{s}.ez.z": -math.cos(theta)}
    out = [f"{s}.f.x", f"{s}.f.y", f"{s}.f.z", "thrust", "torque"]
    result = simulate_fmu(stations_fmu, fmi_type=fmi_type, start_values=start, stop_time=0.01,
                          output_interval=0.005, output=out)
    q = 0.5 * rho * chord * (omega * r) ** 2
    lift, drag = q * a * theta, q * (cd0 + cd2 * theta**2)
    expected = [0.0, -drag, -lift, lift * width, r * drag * width]
    for name, value in zip(out, expected):
        np.testing.assert_allclose(result[name], value, rtol=1e-12, atol=1e-9 * lift, err_msg=name)
