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
    assert len(md.derivatives) == 8 * 16 * 12


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
