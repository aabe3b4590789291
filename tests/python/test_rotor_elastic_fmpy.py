"""RotorElastic.fmu in FMPy, a third-party FMI importer: it validates, loads its shipped blade
table from the FMU's resources folder (the default `blade_file`), and steps as Co-Simulation and
Model Exchange (CVode). One blade of the shipped Bo105-class table (27 kg uniform from 0.5 to
4.91 m) turning at 44.401 rad/s on a hub at rest in vacuum stays in its centrifugal equilibrium:
the hub force is the blade's centrifugal pull along the blade, of magnitude m Omega^2 x_cg
(closed form of the rigid blade, 143 929 N; the elastic stretch, F/EA of order 1e-3, adds a little),
pointing along the blade's azimuth, constant in time (to 1e-5, the integrator tolerance).
"""

import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu

from conftest import packaged_fmu, read_our_description


@pytest.fixture(scope="session", name="elastic_fmu")
def _elastic_fmu():
    return packaged_fmu("RotorElastic")


def test_fmpy_validates_rotor_elastic(elastic_fmu):
    assert validate_fmu(elastic_fmu) == []
    md, names = read_our_description(elastic_fmu, "RotorElastic")
    assert md.modelExchange is not None
    assert names["blade_file"].type == "String" and names["blade_file"].start == "bo105_uniform_blade.csv"
    for n in ["hub.acc.z", "blade[1].pitch", "blade[1].F.z"]:
        assert names[n].causality == "input"
    for n in ["hub.F.x", "hub.M.y", "blade[1].vel.x", "blade[1].tip.z"]:
        assert names[n].causality == "output"
    # 16 nodes x 12 per blade, then 4 hinge states per blade (hub_type = 1).
    assert len(md.derivatives) == 8 * 16 * 12 + 8 * 4


@pytest.mark.parametrize("fmi_type", ["CoSimulation", "ModelExchange"])
def test_one_blade_pulls_the_hub_with_its_centrifugal_force(elastic_fmu, fmi_type):
    omega, mass, root, tip = 44.401, 6.12 * 4.41, 0.5, 4.91
    pull = mass * omega**2 * 0.5 * (root + tip)
    extra = {"solver": "CVode", "relative_tolerance": 1e-8} if fmi_type == "ModelExchange" else {}
    result = simulate_fmu(elastic_fmu, fmi_type=fmi_type, start_values={"nb": 1}, stop_time=0.05,
                          output_interval=0.005, output=["hub.F.x", "hub.F.y", "hub.F.z", "azimuth"], **extra)
    force = np.stack([result["hub.F.x"], result["hub.F.y"], result["hub.F.z"]], axis=1)
    magnitude = np.linalg.norm(force, axis=1)
    assert np.all(np.abs(magnitude / pull - 1.0) < 3e-3), magnitude / pull
    assert np.ptp(magnitude) < 1e-5 * pull
    # Blade 1 points along x_H = -x_body at psi = 0 and turns about z_H = -z_body.
    psi = result["azimuth"]
    direction = np.stack([-np.cos(psi), np.sin(psi), 0.0 * psi], axis=1)
    np.testing.assert_allclose(force, magnitude[:, None] * direction, atol=1e-5 * pull)


def test_fan_diagram_from_orchestrator_modes(tmp_path):
    """`orchestrator modes --sweep` on `examples/rotor-elastic-vacuum.json` (one blade of the
    shipped table, 8 elements) and `examples/fan_plot.py`: at rest the 1st flap frequency is the
    Euler-Bernoulli cantilever's (1.875104)^2 sqrt(EI / (m L^4)) = 5.7546 rad/s (EI 6.2e3 N m^2,
    m 6.12 kg/m, L 4.41 m) within 1 % (8 elements, rotary inertia scaled); at 44.401 rad/s the
    1st lag, 1st flap and 1st torsion are at the 0.69, 1.12 and 3.49 /rev the table was tuned to
    (within 1.5 %), the modes named from their dominant states."""
    import csv
    import subprocess
    from conftest import ROOT
    out = tmp_path / "fan"
    subprocess.run([str(ROOT / "target" / "release" / "orchestrator"), "modes", "examples/rotor-elastic-vacuum.json",
                    "--out", str(out), "--sweep", "rotor.Omega=0,44.401"], cwd=ROOT, check=True, capture_output=True)
    subprocess.run(["python3", str(ROOT / "examples" / "fan_plot.py"), str(out)], check=True, capture_output=True)
    rows = list(csv.DictReader(open(out / "fan.csv")))
    first = lambda omega, name: next(float(r["frequency [rad/s]"]) for r in rows
                                     if float(r["Omega [rad/s]"]) == omega and r["mode"] == name)
    closed_form = 1.875104068711961**2 * np.sqrt(6.2e3 / (6.12 * 4.41**4))
    assert abs(first(0.0, "1st flap") / closed_form - 1.0) < 1e-2
    for name, per_rev in [("1st lag", 0.69), ("1st flap", 1.12), ("1st torsion", 3.49)]:
        assert abs(first(44.401, name) / 44.401 / per_rev - 1.0) < 1.5e-2, name
    assert (out / "fan.svg").read_text().startswith("<svg")
