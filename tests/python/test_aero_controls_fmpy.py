"""Aero.fmu and Controls.fmu in FMPy, a third-party FMI importer: validation, the declared
interface, short co-simulations against references computed here (momentum theory for the
Pitt-Peters inflow in hover, the first-order actuator lag and the mixing formula for the blade
pitch), and directional derivatives against finite differences through the C ABI.
"""

import math
import shutil
import tempfile

import numpy as np
import pytest
from fmpy import extract, read_model_description, simulate_fmu
from fmpy.fmi2 import FMU2Slave
from fmpy.validation import validate_fmu

from conftest import read_our_description

OMEGA = 29.0
R = 7.5
RHO = 1.225


def test_fmpy_validates_aero_without_problems(aero_fmu):
    assert validate_fmu(aero_fmu) == []


def test_fmpy_validates_controls_without_problems(controls_fmu):
    assert validate_fmu(controls_fmu) == []


def test_aero_model_description_declares_the_aero_interface(aero_fmu):
    md, names = read_our_description(aero_fmu, "Aero")
    for i in range(1, 9):
        for v in ["vel", "omega", "shaft"]:
            for c in "xyz":
                assert names[f"blade[{i}].{v}.{c}"].causality == "input"
        for v in ["F", "M"]:
            for c in "xyz":
                assert names[f"blade[{i}].{v}.{c}"].causality == "output"
        assert names[f"blade[{i}].azimuth"].causality == "input"
    for n in ["thrust", "torque", "power", "CT", "inflow"]:
        assert names[n].causality == "output"
    for n in ["nb", "R", "e", "r_root", "chord", "twist", "a", "cd0", "cd2", "rho", "n_sections", "inflow_model"]:
        assert names[n].causality == "parameter"
    outputs = {u.variable.name: u for u in md.outputs}
    # Direct feedthrough from every blade's kinematics (uniform inflow couples the blades).
    deps = {d.name for d in outputs["blade[1].F.z"].dependencies}
    assert {"blade[1].vel.z", "blade[2].omega.y", "blade[8].shaft.x", "hub.vel.x"} <= deps
    assert "hub.omega.x" not in deps
    states = [d.variable.derivative for d in md.derivatives]
    assert outputs["inflow_s"].dependencies == states, "the Pitt-Peters states only, no input"


def _hover_start_values(theta, e=0.3, nb=4):
    """Hover kinematics of a rigid rotor (no coning) in blade axes, computed here."""
    start = {}
    st, ct = math.sin(theta), math.cos(theta)
    for i in range(1, nb + 1):
        # Root velocity Omega e along the direction of motion t = cos(theta) y_b - sin(theta) z_b;
        # shaft (and blade angular velocity / Omega) = sin(theta) y_b + cos(theta) z_b.
        vel = (0.0, OMEGA * e * ct, -OMEGA * e * st)
        shaft = (0.0, st, ct)
        for c, v, s in zip("xyz", vel, shaft):
            start[f"blade[{i}].vel.{c}"] = v
            start[f"blade[{i}].omega.{c}"] = OMEGA * s
            start[f"blade[{i}].shaft.{c}"] = s
        start[f"blade[{i}].azimuth"] = 2 * math.pi * (i - 1) / nb
    return start


def test_aero_pitt_peters_hover_settles_to_momentum_theory_in_fmpy(aero_fmu):
    start = _hover_start_values(math.radians(8.0))
    start.update({"inflow_model": 2, "Omega": OMEGA, "R": R, "rho": RHO})
    result = simulate_fmu(aero_fmu, fmi_type="CoSimulation", stop_time=3.0, step_size=0.01, output_interval=0.01,
                          start_values=start, output=["inflow", "CT", "thrust", "inflow_s", "inflow_c"])
    ct, lam = result["CT"][-1], result["inflow"][-1]
    # Steady hover: momentum theory lambda = sqrt(CT / 2), the harmonics vanish.
    assert lam == pytest.approx(math.sqrt(ct / 2.0), rel=1e-8)
    assert abs(result["inflow_s"][-1]) < 1e-12 and abs(result["inflow_c"][-1]) < 1e-12
    assert result["thrust"][-1] == pytest.approx(ct * RHO * math.pi * R**2 * (OMEGA * R) ** 2, rel=1e-12)
    # Starting from zero inflow, lambda_0 rises monotonically (first-order lag of the apparent mass).
    assert result["inflow"][0] == 0.0 and np.all(np.diff(result["inflow"]) >= -1e-15)


def test_controls_actuators_and_pitch_in_fmpy(controls_fmu):
    tau, t_end = 0.1, 0.5
    t = np.linspace(0.0, t_end, 501)
    const = {"collective": 0.12, "lon_cyclic": 0.02, "lat_cyclic": -0.01, "pedal": 0.0, "azimuth_rate": OMEGA}
    columns = [("time", t), ("azimuth", OMEGA * t)] + [(n, np.full_like(t, v)) for n, v in const.items()]
    signals = np.array(list(zip(*[c for _, c in columns])), dtype=[(n, np.float64) for n, _ in columns])
    start = {"tau": tau, "nb": 4, "tolerance": 1e-12}
    result = simulate_fmu(controls_fmu, fmi_type="CoSimulation", stop_time=t_end, step_size=0.001,
                          output_interval=0.001, start_values=start, input=signals,
                          output=["theta0", "theta1c", "theta1s", "blade[1].pitch", "blade[2].pitch"])
    time = result["time"]
    lag = 1.0 - np.exp(-time / tau)
    np.testing.assert_allclose(result["theta0"], 0.12 * lag, atol=1e-10)
    # Documented mixing with unit gains and zero phase: theta1s = -lon, theta1c = -lat.
    np.testing.assert_allclose(result["theta1s"], -0.02 * lag, atol=1e-10)
    np.testing.assert_allclose(result["theta1c"], 0.01 * lag, atol=1e-10)
    # FMPy sets the inputs at the start of each step and records after it: the outputs at t were
    # computed with the azimuth of t - step.
    azimuth = OMEGA * np.maximum(time - 0.001, 0.0)
    for i in (1, 2):
        psi = azimuth + 2 * math.pi * (i - 1) / 4
        expected = result["theta0"] + result["theta1c"] * np.cos(psi) + result["theta1s"] * np.sin(psi)
        np.testing.assert_allclose(result[f"blade[{i}].pitch"], expected, atol=1e-12)


class Slave:
    """An FMU instance through FMPy's FMU2Slave (the C ABI)."""

    def __init__(self, path, identifier, parameters):
        self.dir = tempfile.mkdtemp()
        extract(path, self.dir)
        self.md = read_model_description(self.dir)
        self.vr = {v.name: v.valueReference for v in self.md.modelVariables}
        self.slave = FMU2Slave(guid=self.md.guid, unzipDirectory=self.dir, modelIdentifier=identifier,
                               instanceName="dd")
        self.slave.instantiate()
        self.slave.setupExperiment(startTime=0.0)
        for name, value in parameters.items():
            if isinstance(value, int):
                self.slave.setInteger([self.vr[name]], [value])
            else:
                self.slave.setReal([self.vr[name]], [value])
        self.slave.enterInitializationMode()
        self.slave.exitInitializationMode()

    def close(self):
        self.slave.terminate()
        self.slave.freeInstance()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.mark.parametrize("model", [0, 1])
def test_aero_directional_derivatives_through_the_c_abi(aero_fmu, model):
    s = Slave(aero_fmu, "Aero", {"inflow_model": model})
    try:
        for name, value in _hover_start_values(math.radians(7.0)).items():
            s.slave.setReal([s.vr[name]], [value])
        s.slave.setReal([s.vr["hub.vel.x"]], [30.0])
        unknowns = [s.vr[n] for n in ["thrust", "torque", "blade[1].F.z", "blade[3].M.y", "inflow"]]
        for known in ["blade[1].vel.z", "blade[2].omega.z", "hub.vel.x"]:
            k = s.vr[known]
            u0 = s.slave.getReal([k])[0]
            h = 1e-4 * max(abs(u0), 1.0)
            s.slave.setReal([k], [u0 + h])
            plus = np.array(s.slave.getReal(unknowns))
            s.slave.setReal([k], [u0 - h])
            minus = np.array(s.slave.getReal(unknowns))
            s.slave.setReal([k], [u0])
            fd = (plus - minus) / (2 * h)
            ad = np.array(s.slave.getDirectionalDerivative(unknowns, [k], [1.0]))
            np.testing.assert_allclose(ad, fd, rtol=1e-6, atol=1e-6 * np.max(np.abs(fd)))
    finally:
        s.close()
