"""Fuselage.fmu in FMPy, a third-party FMI importer: validation, simulation, and C-ABI misuse.

The misuse tests call the FMU's exported functions through ctypes with null pointers, unknown
value references and illegal call orders; each must return fmi2Error (3) with a log message,
and the Python process must survive.
"""

import ctypes
import shutil
import tempfile

import numpy as np
import pytest
from fmpy import extract, read_model_description, simulate_fmu
from fmpy.fmi2 import FMU2Slave, fmi2CallbackFunctions, fmi2CallbackLoggerTYPE
from fmpy.validation import validate_fmu

from conftest import read_our_description

G = 9.80665
FMI2_ERROR = 3


def test_fmpy_validates_without_problems(fuselage_fmu):
    assert validate_fmu(fuselage_fmu) == []


def test_model_description_declares_capabilities(fuselage_fmu):
    md, names = read_our_description(fuselage_fmu, "Fuselage")
    assert md.coSimulation.canHandleVariableCommunicationStepSize
    for name in ["mass", "I.xy", "hub.F.x", "ext.M.z", "x", "phi", "euler.1", "q.w", "hub.acc.z", "tail.alpha.y"]:
        assert name in names, name
    assert names["hub.acc.z"].causality == "output"
    # The hub acceleration feeds through from the hub load (the rotor-airframe algebraic loop).
    acc = next(u for u in md.outputs if u.variable.name == "hub.acc.z")
    assert names["hub.F.z"] in acc.dependencies
    # The position depends on no input: only on the continuous states (Model Exchange).
    pos = next(u for u in md.outputs if u.variable.name == "x")
    assert pos.dependencies == [d.variable.derivative for d in md.derivatives]


def test_free_fall_matches_closed_form(fuselage_fmu):
    """Co-simulation in FMPy: free fall from rest, z = g t^2 / 2, specific force zero."""
    result = simulate_fmu(fuselage_fmu, fmi_type="CoSimulation", stop_time=2.0, output_interval=0.05,
                          output=["z", "w", "hub.acc.z", "theta"])
    t = result["time"]
    np.testing.assert_allclose(result["z"], 0.5 * G * t**2, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(result["w"], G * t, rtol=1e-9, atol=1e-12)
    # Specific force of a body in free fall is zero.
    np.testing.assert_allclose(result["hub.acc.z"], 0.0, atol=1e-9)
    np.testing.assert_allclose(result["theta"], 0.0, atol=1e-12)


class Ffi:
    """An FMU instance loaded by FMPy, with a logger that records every message."""

    def __init__(self, fmu_path, guid=None):
        self.dir = tempfile.mkdtemp()
        extract(fmu_path, self.dir)
        self.md = read_model_description(self.dir)
        self.messages = []

        def log(env, name, status, category, message):
            self.messages.append((status, message.decode()))

        self.callbacks = fmi2CallbackFunctions()
        self.callbacks.logger = fmi2CallbackLoggerTYPE(log)
        self.slave = FMU2Slave(guid=guid or self.md.guid, unzipDirectory=self.dir,
                               modelIdentifier="Fuselage", instanceName="misuse")
        self.vr = {v.name: v.valueReference for v in self.md.modelVariables}

    def instantiate(self):
        self.slave.instantiate(callbacks=self.callbacks)
        return self

    def raw(self, name, restype=ctypes.c_int):
        f = getattr(self.slave.dll, name)
        f.restype = restype
        return f

    def last_error(self):
        errors = [m for s, m in self.messages if s == FMI2_ERROR]
        assert errors, f"no error message logged; got {self.messages}"
        return errors[-1]

    def close(self):
        self.slave.freeInstance()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def ffi(fuselage_fmu):
    f = Ffi(fuselage_fmu).instantiate()
    yield f
    f.close()


def test_wrong_guid_is_refused_with_a_message(fuselage_fmu):
    f = Ffi(fuselage_fmu, guid="{00000000-0000-0000-0000-000000000000}")
    with pytest.raises(Exception, match="Failed to instantiate"):
        f.instantiate()
    assert "GUID" in f.last_error()
    shutil.rmtree(f.dir, ignore_errors=True)


def test_do_step_before_initialization_is_an_illegal_call(ffi):
    do_step = ffi.raw("fmi2DoStep")
    do_step.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double, ctypes.c_int]
    assert do_step(ffi.slave.component, 0.0, 0.1, 1) == FMI2_ERROR
    assert "illegal call sequence" in ffi.last_error()


def _initialized(ffi):
    ffi.slave.setupExperiment(startTime=0.0)
    ffi.slave.enterInitializationMode()
    ffi.slave.exitInitializationMode()
    return ffi


def test_null_pointers_are_errors_not_crashes(ffi):
    _initialized(ffi)
    get_real = ffi.raw("fmi2GetReal")
    get_real.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    assert get_real(ffi.slave.component, None, 3, None) == FMI2_ERROR
    assert "null pointer" in ffi.last_error()
    # A null component cannot log (no logger is reachable) but must still return an error.
    assert get_real(None, None, 0, None) == FMI2_ERROR
    set_state = ffi.raw("fmi2SetFMUstate")
    set_state.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    assert set_state(ffi.slave.component, None) == FMI2_ERROR


def test_unknown_value_reference_is_named(ffi):
    _initialized(ffi)
    get_real = ffi.raw("fmi2GetReal")
    get_real.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint), ctypes.c_size_t,
                         ctypes.POINTER(ctypes.c_double)]
    vr = (ctypes.c_uint * 1)(987654)
    out = (ctypes.c_double * 1)()
    assert get_real(ffi.slave.component, vr, 1, out) == FMI2_ERROR
    assert "987654" in ffi.last_error()


@pytest.mark.parametrize("step", [-0.1, 0.0, float("nan")])
def test_non_positive_step_is_refused(ffi, step):
    _initialized(ffi)
    do_step = ffi.raw("fmi2DoStep")
    do_step.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double, ctypes.c_int]
    assert do_step(ffi.slave.component, 0.0, step, 1) == FMI2_ERROR
    assert "step size" in ffi.last_error()


def test_wrong_communication_point_is_refused(ffi):
    _initialized(ffi)
    do_step = ffi.raw("fmi2DoStep")
    do_step.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double, ctypes.c_int]
    assert do_step(ffi.slave.component, 5.0, 0.1, 1) == FMI2_ERROR
    assert "does not match the FMU time" in ffi.last_error()


def test_setting_an_output_is_refused(ffi):
    _initialized(ffi)
    with pytest.raises(Exception):
        ffi.slave.setReal([ffi.vr["x"]], [1.0])
    assert "cannot be set" in ffi.last_error()


def test_state_roundtrip_and_serialization_through_fmpy(ffi):
    """get state, step, set state, step again: bit-identical; serialize into a fresh instance."""
    s = _initialized(ffi).slave
    vrs = [ffi.vr[n] for n in ["hub.F.x", "hub.M.y", "ext.F.z"]]
    s.setReal(vrs, [1000.0, 500.0, -25000.0])
    out = [ffi.vr[n] for n in ["x", "z", "q.x", "q.y", "hub.acc.x", "p", "q"]]
    s.doStep(0.0, 0.1)
    state = s.getFMUstate()
    s.doStep(0.1, 0.1)
    first = s.getReal(out)
    s.setFMUstate(state)
    s.doStep(0.1, 0.1)
    assert s.getReal(out) == first
    blob = s.serializeFMUstate(state)
    s.freeFMUstate(state)

    fresh = FMU2Slave(guid=ffi.md.guid, unzipDirectory=ffi.dir, modelIdentifier="Fuselage", instanceName="fresh")
    fresh.instantiate(callbacks=ffi.callbacks)
    fresh.setupExperiment(startTime=0.0)
    fresh.enterInitializationMode()
    fresh.exitInitializationMode()
    restored = fresh.deSerializeFMUstate(blob)
    fresh.setFMUstate(restored)
    fresh.freeFMUstate(restored)
    fresh.doStep(0.1, 0.1)
    assert fresh.getReal(out) == first
    fresh.terminate()
    fresh.fmi2FreeInstance(fresh.component)


def test_garbage_serialized_state_is_refused(ffi):
    s = _initialized(ffi).slave
    with pytest.raises(Exception):
        s.deSerializeFMUstate(b"not a state at all")
    assert "bad magic" in ffi.last_error()
