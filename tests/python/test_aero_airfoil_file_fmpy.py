"""Aero.fmu's `airfoil_file` String parameter in FMPy (`start_values` with a string).

A C81 table written here (cl = 2 pi alpha, cd constant, -30..30 deg, two identical Mach columns)
and named by its absolute path gives the thrust of the analytic polar with a = 2 pi, cd0 that
constant and cd2 = 0 (bilinear interpolation of a linear table is exact), to 1e-9 relative; the
shipped NACA 0012 table named relative to the FMU's resources folder gives exactly the thrust of
`airfoil = 1`; a malformed file makes the instantiation fail.
"""

import math
import subprocess
import sys
from pathlib import Path

import pytest
from fmpy import simulate_fmu

from conftest import packaged_fmu

CD = 0.011
ALPHA = math.radians(5.0)
SPEED = 40.0


@pytest.fixture(scope="module", name="aero_fmu")
def fixture_aero_fmu():
    return packaged_fmu("Aero")


def linear_table():
    """The C81 text: header (name in columns 1-30, six 2-digit counts), then lift, drag, moment."""
    angles = [-30.0 + 5.0 * k for k in range(13)]
    lines = [f"{'LINEAR TEST TABLE':<30}021302130102", "       0.0 0.9"]
    lines += [f"{deg:7.1f} {2 * math.pi * math.radians(deg):.17e} {2 * math.pi * math.radians(deg):.17e}"
              for deg in angles]
    lines.append("       0.0 0.9")
    lines += [f"{deg:7.1f} {CD} {CD}" for deg in angles]
    lines += ["       0.0", "  -180. 0.0", "   180. 0.0"]
    return "\n".join(lines) + "\n"


def thrust(fmu, extra, logger=None):
    """The thrust (N) of one non-rotating blade at 40 m/s and 5 deg angle of attack, no inflow."""
    start = {"nb": 1, "R": 2.0, "e": 0.0, "r_root": 1.0, "chord": 0.2, "twist": 0.0, "a": 2 * math.pi,
             "cd0": CD, "cd2": 0.0, "n_sections": 4, "inflow_model": 0,
             "blade[1].vel.y": SPEED * math.cos(ALPHA), "blade[1].vel.z": -SPEED * math.sin(ALPHA),
             "blade[1].shaft.z": 1.0}
    start.update(extra)
    result = simulate_fmu(fmu, stop_time=0.1, step_size=0.05, start_values=start, output=["thrust"], logger=logger)
    return result["thrust"][-1]


def test_a_linear_table_file_gives_the_analytic_polars_thrust(aero_fmu, tmp_path):
    path = tmp_path / "linear.c81"
    path.write_text(linear_table())
    analytic = thrust(aero_fmu, {})
    table = thrust(aero_fmu, {"airfoil": 2, "airfoil_file": str(path)})
    assert abs(analytic) > 1.0
    assert abs(table - analytic) <= 1e-9 * abs(analytic), (table, analytic)


def test_the_shipped_table_relative_to_the_resources_folder_is_airfoil_1(aero_fmu):
    shipped = thrust(aero_fmu, {"airfoil": 1})
    from_resources = thrust(aero_fmu, {"airfoil": 2, "airfoil_file": "naca0012_sheldahl_re2e6.c81"})
    assert from_resources == shipped


def test_a_malformed_table_file_is_refused(aero_fmu, tmp_path):
    """Run in a child Python: FMPy leaves the failed instance alive after the exception, holding
    the test's logger callback, which must not outlive it in the process running other tests."""
    path = tmp_path / "malformed.c81"
    path.write_text(linear_table().replace("0.011", "0.0x1", 1))
    script = f"""
import sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from test_aero_airfoil_file_fmpy import thrust
messages = []
def logger(_environment, _instance, _status, _category, message):
    messages.append(message.decode() if isinstance(message, bytes) else str(message))
try:
    thrust({str(aero_fmu)!r}, {{"airfoil": 2, "airfoil_file": {str(path)!r}}}, logger)
    print("NO ERROR")
except Exception:
    pass
print("\\n".join(messages), flush=True)
"""
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert "NO ERROR" not in child.stdout, child.stdout
    # Line 17, column 9: the first drag row's first coefficient (header, Mach line, 13 lift rows,
    # the drag Mach line before it).
    assert any("airfoil_file" in m and f"{path}:17:9:" in m for m in child.stdout.splitlines()), (
        child.stdout, child.stderr)


def test_a_mach_number_beyond_the_table_is_clamped_with_one_warning_through_the_logger(aero_fmu, tmp_path):
    """The table's Mach columns (identical) at 0 and 0.3; a speed of sound of 100 m/s puts the
    section at Mach 0.4, beyond them: the thrust is the analytic polar's (the clamped column is
    the same), and FMPy's logger receives exactly one fmi2Warning (status 1) in category
    logStatusWarning naming the clamp, over every evaluation of the run. The checks run in a
    child Python (`check_mach_clamp`): a test logger callback that FMPy held must not outlive
    its test in the process that runs the system-FMU tests (see conftest.messages_logged_in_child)."""
    script = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
              f"from test_aero_airfoil_file_fmpy import check_mach_clamp; "
              f"check_mach_clamp({str(aero_fmu)!r}, {str(tmp_path)!r})")
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, (child.stdout, child.stderr)


def check_mach_clamp(aero_fmu, tmp_dir):
    """The body of the Mach-clamp test (asserts), run by it in a child Python."""
    path = Path(tmp_dir) / "mach-0-0.3.c81"
    path.write_text(linear_table().replace("       0.0 0.9", "       0.0 0.3"))
    messages = []

    def logger(_environment, _instance, status, category, message):
        messages.append((status, category.decode(), message.decode()))

    analytic = thrust(aero_fmu, {"speed_of_sound": 100.0})
    clamped = thrust(aero_fmu, {"airfoil": 2, "airfoil_file": str(path), "speed_of_sound": 100.0}, logger)
    assert abs(clamped - analytic) <= 1e-9 * abs(analytic), (clamped, analytic)
    warnings = [m for m in messages if m[0] != 0]
    assert len(warnings) == 1, messages
    assert warnings[0][0] == 1 and warnings[0][1] == "logStatusWarning", warnings
    assert "Mach" in warnings[0][2] and "clamped" in warnings[0][2], warnings
    # Within the range (the default speed of sound: Mach 0.12): no warning.
    messages.clear()
    thrust(aero_fmu, {"airfoil": 2, "airfoil_file": str(path)}, logger)
    assert [m for m in messages if m[0] != 0] == [], messages
