"""Rotor.fmu in FMPy, a third-party FMI importer: validation, the declared interface, a short
co-simulation against the closed-form flap oscillation in vacuum, two instances (main and tail
rotor) in one process, and FMU state save/restore.
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
E, S, I_FLAP = 0.3, 390.0, 1953.0


def test_fmpy_validates_without_problems(rotor_fmu):
    assert validate_fmu(rotor_fmu) == []


def test_model_description_declares_the_contract(rotor_fmu):
    md, names = read_our_description(rotor_fmu, "Rotor")
    for name in ["nb", "Omega", "R", "e", "blade.m", "blade.S", "blade.I", "k_lag", "c_lag", "k_flap",
                 "shaft_free", "shaft.nx", "hub.acc.z", "hub.omega.x", "blade[8].pitch_acc", "blade[1].F.z",
                 "shaft_torque", "hub.F.z", "hub.M.x", "azimuth", "blade[3].flap", "blade[2].vel.y",
                 "blade[1].omega.z", "energy.kinetic", "energy.potential", "shaft.torque"]:
        assert name in names, name
    # Hub loads feed through from the hub acceleration and the blade loads (the rotor-airframe
    # algebraic loop); the azimuth depends on the state only.
    hub_fz = next(u for u in md.outputs if u.variable.name == "hub.F.z")
    for dep in ["hub.acc.z", "hub.alpha.y", "blade[1].F.z", "blade[4].pitch_acc"]:
        assert names[dep] in hub_fz.dependencies, dep
    assert names["hub.vel.x"] not in hub_fz.dependencies
    azimuth = next(u for u in md.outputs if u.variable.name == "azimuth")
    assert azimuth.dependencies == [d.variable.derivative for d in md.derivatives], "states only, no input"


def test_flap_oscillation_in_vacuum_matches_closed_form(rotor_fmu):
    """Co-simulation in FMPy: lag locked, fixed hub without gravity, beta(t) = beta0 cos(nu Omega t)."""
    beta0 = 0.01
    result = simulate_fmu(rotor_fmu, fmi_type="CoSimulation", stop_time=0.5, output_interval=0.002,
                          start_values={"lock_lag": True, "blade.beta0": beta0, "tolerance": 1e-10},
                          output=["azimuth", "blade[1].flap", "blade[3].flap", "blade[2].azimuth", "hub.F.z"])
    t = result["time"]
    nu = math.sqrt(1.0 + E * S / I_FLAP)
    np.testing.assert_allclose(result["blade[1].flap"], beta0 * np.cos(nu * OMEGA * t), atol=1e-5)
    np.testing.assert_allclose(result["blade[3].flap"], result["blade[1].flap"], atol=1e-12)
    np.testing.assert_allclose(result["azimuth"], OMEGA * t, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(result["blade[2].azimuth"] - result["azimuth"], math.pi / 2, atol=1e-12)
    # Collective flapping of four identical blades pushes the hub along the shaft (-z) and back.
    assert np.max(np.abs(result["hub.F.z"])) > 1.0


class Instance:
    """One FMU instance stepped by hand."""

    def __init__(self, unzip_dir, md, name, reals):
        self.vr = {v.name: v.valueReference for v in md.modelVariables}
        self.types = {v.name: v.type for v in md.modelVariables}
        self.slave = FMU2Slave(guid=md.guid, unzipDirectory=unzip_dir, modelIdentifier="Rotor", instanceName=name)
        self.slave.instantiate()
        for n, v in reals.items():
            if self.types[n] == "Integer":
                self.slave.setInteger([self.vr[n]], [v])
            elif self.types[n] == "Boolean":
                self.slave.setBoolean([self.vr[n]], [v])
            else:
                self.slave.setReal([self.vr[n]], [v])
        self.slave.setupExperiment(startTime=0.0)
        self.slave.enterInitializationMode()
        self.slave.exitInitializationMode()
        self.t = 0.0

    def step(self, h):
        self.slave.doStep(self.t, h)
        self.t += h

    def get(self, names):
        return self.slave.getReal([self.vr[n] for n in names])

    def close(self):
        self.slave.terminate()
        self.slave.freeInstance()


MAIN = {"blade.beta0": 0.05, "hub.acc.z": -9.80665, "blade[1].pitch": 0.1, "blade[2].F.z": 2000.0}
TAIL = {"nb": 2, "Omega": 233.0, "R": 0.95, "e": 0.05, "blade.m": 1.8, "blade.S": 0.72, "blade.I": 0.36,
        "lock_lag": True, "shaft.nx": 0.0, "shaft.ny": 1.0, "shaft.nz": 0.0, "shaft.ax": 0.0, "shaft.ay": 0.0,
        "shaft.az": -1.0, "blade.beta0": 0.02, "blade[1].F.z": 150.0}
OUT = ["hub.F.x", "hub.F.y", "hub.F.z", "hub.M.y", "blade[1].flap", "shaft.torque"]


@pytest.fixture
def unzipped(rotor_fmu):
    d = tempfile.mkdtemp()
    extract(rotor_fmu, d)
    yield d, read_model_description(d)
    shutil.rmtree(d, ignore_errors=True)


def test_main_and_tail_rotor_instances_coexist(unzipped):
    d, md = unzipped

    def alone(params):
        inst = Instance(d, md, "alone", params)
        for _ in range(50):
            inst.step(0.002)
        out = inst.get(OUT)
        inst.close()
        return out

    main_alone, tail_alone = alone(MAIN), alone(TAIL)
    main, tail = Instance(d, md, "main", MAIN), Instance(d, md, "tail", TAIL)
    for _ in range(50):
        main.step(0.002)
        tail.step(0.002)
    assert main.get(OUT) == main_alone
    assert tail.get(OUT) == tail_alone
    assert main_alone != tail_alone
    main.close()
    tail.close()


def test_state_roundtrip_and_serialization(unzipped):
    d, md = unzipped
    inst = Instance(d, md, "state", MAIN)
    inst.step(0.003)
    state = inst.slave.getFMUstate()
    inst.step(0.003)
    first = inst.get(OUT)
    inst.slave.setFMUstate(state)
    inst.t = 0.003
    inst.step(0.003)
    assert inst.get(OUT) == first
    blob = inst.slave.serializeFMUstate(state)
    inst.slave.freeFMUstate(state)
    fresh = Instance(d, md, "fresh", {})
    restored = fresh.slave.deSerializeFMUstate(blob)
    fresh.slave.setFMUstate(restored)
    fresh.slave.freeFMUstate(restored)
    fresh.t = 0.003
    fresh.step(0.003)
    assert fresh.get(OUT) == first
    inst.close()
    fresh.close()
