"""Fuselage.fmu's `fuselage_table_file` String parameter in FMPy (`start_values` with a string).

The shipped UH-60A table, named relative to the FMU's resources folder, against an independent
evaluation written here with NumPy: GENHEL's one-dimensional tables (as transcribed in
`fmu-fuselage/resources/make_uh60a_genhel_fuselage.py` from marek-cel/mscsim, NASA CR-166309)
interpolated by `numpy.interp` (held at the ends), summed as GENHEL does (D = DQFMP(alpha) +
DDQFMP(psi), ..., psi = -beta), and turned from wind to body axes with axes built from vectors
(x_w = V/|V|, z_w = unit(V x e_y), y_w = z_w x x_w). The FMU interpolates the 2-D grid
bilinearly; on a grid holding every knot both are the same function, so they agree to rounding
at off-grid angles. A malformed table makes the initialisation fail with file, line and column.
"""

import math
import sys

import numpy as np
import pytest
from fmpy import simulate_fmu

from conftest import ROOT, messages_logged_in_child

sys.path.insert(0, str(ROOT / "fmu-fuselage" / "resources"))
import make_uh60a_genhel_fuselage as genhel  # noqa: E402  (the transcribed 1-D tables)

FT2 = 0.3048 ** 2
FT3 = 0.3048 ** 3
RHO = 1.225
OUTPUTS = ["fuselage.alpha", "fuselage.beta"] + [f"fuselage.{q}.{c}" for q in "FM" for c in "xyz"]


def first_outputs(fmu, velocity, extra, logger=None):
    """The table's outputs at t = 0 for the body velocity `velocity` (level, no wind, no gravity)."""
    start = {"g": 0.0, "u0": velocity[0], "v0": velocity[1], "w0": velocity[2]}
    start.update(extra)
    result = simulate_fmu(fmu, stop_time=0.01, step_size=0.01, start_values=start, output=OUTPUTS, logger=logger)
    return {name: result[name][0] for name in OUTPUTS}


def genhel_loads(alpha_deg, beta_deg):
    """[D, Y, L] over q (m^2) and [R, M, N] over q (m^3), GENHEL's sums of the 1-D tables."""
    psi = -beta_deg
    a = lambda table: np.interp(alpha_deg, genhel.ALPHA, table)  # noqa: E731
    p = lambda table: np.interp(psi, genhel.PSI, table)  # noqa: E731
    s = lambda table: np.interp(psi, genhel.PSI_SHORT, table)  # noqa: E731
    return (np.array([a(genhel.DQFMP) + p(genhel.DDQFMP), p(genhel.YQFMP), a(genhel.LQFMP) + s(genhel.DLQFMP)]) * FT2,
            np.array([p(genhel.RQFMP), a(genhel.MQFMP) + s(genhel.DMQFMP), p(genhel.NQFMP)]) * FT3)


def body_loads(velocity, forces_over_q, moments_over_q):
    """Force and moment (body axes) of wind-axis loads over q for the body velocity `velocity`."""
    v = np.asarray(velocity, dtype=float)
    q = 0.5 * RHO * v @ v
    x_w = v / np.linalg.norm(v)
    z_w = np.cross(v, [0.0, 1.0, 0.0])
    z_w /= np.linalg.norm(z_w)
    y_w = np.cross(z_w, x_w)
    d, y, lift = forces_over_q
    r, m, n = moments_over_q
    return q * (-d * x_w + y * y_w - lift * z_w), q * (r * x_w + m * y_w + n * z_w)


@pytest.mark.parametrize("alpha_deg, beta_deg", [(7.3, -12.6), (-22.0, 3.7), (64.0, 41.0), (-117.0, -8.0),
                                                  (152.5, 27.5)])
def test_the_shipped_uh60a_table_matches_genhel_off_the_grid(fuselage_fmu, alpha_deg, beta_deg):
    speed = 45.0
    a, b = math.radians(alpha_deg), math.radians(beta_deg)
    velocity = [speed * math.cos(a) * math.cos(b), speed * math.sin(b), speed * math.sin(a) * math.cos(b)]
    got = first_outputs(fuselage_fmu, velocity, {"fuselage_table_file": "uh60a_genhel_fuselage.csv"})
    force, moment = body_loads(velocity, *genhel_loads(alpha_deg, beta_deg))
    got_f = np.array([got[f"fuselage.F.{c}"] for c in "xyz"])
    got_m = np.array([got[f"fuselage.M.{c}"] for c in "xyz"])
    errors = (np.max(np.abs(got_f - force)) / np.max(np.abs(force)), np.max(np.abs(got_m - moment)) / np.max(np.abs(moment)))
    print(f"alpha {alpha_deg} beta {beta_deg}: F {got_f} N, M {got_m} N m; relative errors {errors[0]:.1e}, {errors[1]:.1e}")
    assert math.degrees(got["fuselage.alpha"]) == pytest.approx(alpha_deg, abs=1e-9)
    assert math.degrees(got["fuselage.beta"]) == pytest.approx(beta_deg, abs=1e-9)
    assert np.max(np.abs(got_f - force)) <= 1e-9 * np.max(np.abs(force))
    assert np.max(np.abs(got_m - moment)) <= 1e-9 * np.max(np.abs(moment))


def test_without_the_string_parameter_there_are_no_table_loads(fuselage_fmu):
    got = first_outputs(fuselage_fmu, [40.0, 2.0, 3.0], {})
    assert all(value == 0.0 for value in got.values()), got


def test_a_malformed_table_file_is_refused(fuselage_fmu, tmp_path):
    """In a child Python (`messages_logged_in_child`)."""
    text = (ROOT / "fmu-fuselage" / "resources" / "uh60a_genhel_fuselage.csv").read_text().splitlines()
    header_line = next(k for k, line in enumerate(text) if line.startswith("alpha"))
    bad_line = header_line + 3  # 0-based index of the third data row
    fields = text[bad_line].split(", ")
    fields[4] = "1.2.3"  # L/q, column 5
    text[bad_line] = ", ".join(fields)
    path = tmp_path / "malformed.csv"
    path.write_text("\n".join(text) + "\n")
    call = f"first_outputs({fuselage_fmu!r}, [40.0, 0.0, 0.0], {{'fuselage_table_file': {str(path)!r}}}, logger=logger)"
    lines, stderr = messages_logged_in_child("test_fuselage_table_fmpy", call)
    assert "NO ERROR" not in lines, lines
    want = f"{path}:{bad_line + 1}: column 5 (L/q [ft2]): `1.2.3` is not a number"
    assert any("fuselage_table_file" in m and want in m for m in lines), (lines, stderr)
