"""Shared fixtures: where the packaged FMUs are (written by `orchestrator package`)."""

import os
import pathlib

import pytest
from fmpy import read_model_description

ROOT = pathlib.Path(__file__).resolve().parents[2]
FMU_DIR = pathlib.Path(os.environ.get("ROTORCRAFT_FMU_DIR", ROOT / "target" / "fmus"))


def _our_fmu_names():
    """The model identifiers of our FMUs in the order of the one list of them
    (`fmu_catalog::visit_our_models`), read from its generated index `docs/variables/README.md`."""
    rows = (ROOT / "docs" / "variables" / "README.md").read_text().splitlines()
    return [row.split("|")[1].strip() for row in rows if row.startswith("| ") and not row.startswith("| FMU |")]


# Our FMUs, so that a test over all of them covers a new one without an edit.
OUR_FMUS = _our_fmu_names()


def packaged_fmu(name):
    """The path of our packaged `<name>.fmu`; the test fails, saying how to make it, if it is missing."""
    path = FMU_DIR / f"{name}.fmu"
    if not path.is_file():
        pytest.fail(f"{path} is missing: run `bash scripts/test.sh` (it builds and packages the FMUs)")
    return str(path)


def read_our_description(path, identifier):
    """FMPy's reading of the model description of our FMU at `path`, checked for what each of ours
    declares: FMI 2.0, Co-Simulation as `identifier`, FMU state get/set and serialisation, and
    directional derivatives; with its variables by name."""
    md = read_model_description(path)
    cs = md.coSimulation
    assert md.fmiVersion == "2.0"
    assert cs.modelIdentifier == identifier
    assert cs.canGetAndSetFMUstate and cs.canSerializeFMUstate and cs.providesDirectionalDerivative
    return md, {v.name: v for v in md.modelVariables}


def _packaged_fixture(name):
    """A session fixture `<name lower case>_fmu`: the path of `packaged_fmu(name)`."""
    return pytest.fixture(scope="session", name=f"{name.lower()}_fmu")(lambda: packaged_fmu(name))


fuselage_fmu = _packaged_fixture("Fuselage")
rotor_fmu = _packaged_fixture("Rotor")
aero_fmu = _packaged_fixture("Aero")
controls_fmu = _packaged_fixture("Controls")


def ecos():
    """ecospy's `EcosSimulation` and `EcosSimulationStructure`, with the TBB library its wheel
    needs (from the `tbb` wheel, in the venv's lib/) loaded first; the test is skipped, saying
    why, where ecospy cannot be imported."""
    import ctypes
    import sys

    tbb = os.path.join(sys.prefix, "lib", "libtbb.so.12")
    if os.path.exists(tbb):
        ctypes.CDLL(tbb, mode=ctypes.RTLD_GLOBAL)
    try:
        from ecospy import EcosSimulation, EcosSimulationStructure
    except (ImportError, OSError) as e:  # pragma: no cover - reported, not hidden
        pytest.skip(f"ecospy cannot be imported here: {e}")
    return EcosSimulation, EcosSimulationStructure


def messages_logged_in_child(module, call):
    """Runs `call` (Python source calling a function of test module `module` with the keyword
    argument `logger=logger`) in a child Python and returns (stdout lines: "NO ERROR" when the
    call did not raise, then every FMU log message; stderr). A child, because a test's logger
    must not outlive the test in the process running the others: FMPy's native logging proxy
    (`fmpy/logging`, `addLoggerProxy`) keeps one process-global logger pointer that every
    `simulate_fmu(logger=...)` overwrites and that FMPy's default callbacks also go through, so
    a later FMU logging through the defaults calls the collected test callback (a segfault in
    test_system_fmu.py, seen with FMPy 0.3.32)."""
    import subprocess
    import sys

    script = f"""
import sys
sys.path.insert(0, {str(pathlib.Path(__file__).parent)!r})
from {module} import *
messages = []
def logger(_environment, _instance, _status, _category, message):
    messages.append(message.decode() if isinstance(message, bytes) else str(message))
try:
    {call}
    print("NO ERROR")
except Exception:
    pass
print("\\n".join(messages), flush=True)
"""
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    return child.stdout.splitlines(), child.stderr
