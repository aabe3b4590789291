"""Mode shapes of `orchestrator modes` on RotorElastic (`DIR/mode_shapes.json`) against
independent references evaluated here:

- the non-rotating uniform cantilever (the shipped table: clamp 0.5 m, tip 4.91 m, L 4.41 m,
  EI_flap 6.2e3, EI_lag 6.5e4, GJ 4.8e3 N m^2, 6.12 kg/m, I_flap 5e-4, I_lag 0.027 kg m) at 16
  elements without rotary-inertia scaling: the 1st and 2nd flap and the 1st lag shapes against
  Euler-Bernoulli's `cosh b x - cos b x - s (sinh b x - sin b x)` (b L the roots of
  `1 + cos cosh = 0`, found here), the 1st torsion shape against `sin(pi x / 2 L)`;
- the orthogonality of the first twelve shapes with respect to the lumped mass matrix (node
  mass `m l`, rotary inertia `(I_flap + I_lag, I_flap, I_lag) l` per node, `l` the length the
  node carries: the element length, half at the tip);
- four blades at 44.401 rad/s in multiblade coordinates: collective and differential modes at
  the single blade's rotating frequencies `w`, the cyclic modes at `|w - Omega|` (regressive)
  and `w + Omega` (progressive), the cyclic pair whirling as its name says.
"""

import csv
import json
import subprocess

import numpy as np
import pytest
from scipy.optimize import brentq

from conftest import ROOT

ROOT_RADIUS, TIP_RADIUS = 0.5, 4.91
SPAN = TIP_RADIUS - ROOT_RADIUS
MASS, I_FLAP, I_LAG = 6.12, 5e-4, 0.027
OMEGA = 44.401


def run_modes(out, *settings, extra=()):
    """`orchestrator modes examples/rotor-elastic-vacuum.json` with `--set` settings; the
    first point of DIR/mode_shapes.json, its modes by shape name."""
    command = [str(ROOT / "target" / "release" / "orchestrator"), "modes", "examples/rotor-elastic-vacuum.json",
               "--out", str(out)]
    for setting in settings:
        command += ["--set", setting]
    command += list(extra)
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    point = json.loads((out / "mode_shapes.json").read_text())["points"][0]
    return {m["name"]: m for m in point["modes"]}


def cantilever_root(k):
    """The k-th root of 1 + cos(bL) cosh(bL) = 0."""
    guess = (2 * k - 1) * np.pi / 2
    return brentq(lambda b: 1.0 + np.cos(b) * np.cosh(b), guess - 0.6, guess + 0.6)


def bending_shape(k, x):
    """Euler-Bernoulli cantilever mode k at x (from the clamp), tip value 1."""
    b = cantilever_root(k) / SPAN
    s = (np.cosh(b * SPAN) + np.cos(b * SPAN)) / (np.sinh(b * SPAN) + np.sin(b * SPAN))
    shape = lambda y: np.cosh(b * y) - np.cos(b * y) - s * (np.sinh(b * y) - np.sin(b * y))
    return shape(x) / shape(SPAN)


def blade_values(mode, blade, component):
    """Radius and the real part of a component (index into u.x .. psi.z) along a blade."""
    b = next(b for b in mode["blades"] if b["blade"] == blade)
    return np.array(b["r"]), np.array([q[component] for q in b["re"]]), np.array([q[component] for q in b["im"]])


@pytest.fixture(scope="module", name="cantilever")
def _cantilever(tmp_path_factory):
    out = tmp_path_factory.mktemp("cantilever")
    modes = run_modes(out, "rotor.Omega=0", "rotor.n_elements=16", "rotor.rotary_inertia_scaling=false")
    subprocess.run(["python3", str(ROOT / "examples" / "mode_shapes.py"), str(out)], check=True, capture_output=True)
    return modes, out


@pytest.mark.parametrize("name, component, reference, tolerance", [
    ("1st flap", 2, lambda x: bending_shape(1, x), 1e-3),
    ("2nd flap", 2, lambda x: bending_shape(2, x), 1.2e-2),
    ("1st lag", 1, lambda x: bending_shape(1, x), 1e-3),
    ("1st torsion", 3, lambda x: np.sin(np.pi * x / (2 * SPAN)), 1e-6),
])
def test_cantilever_shapes_match_the_closed_form(cantilever, name, component, reference, tolerance):
    r, re, im = blade_values(cantilever[0][name], "1", component)
    assert np.allclose(r, ROOT_RADIUS + SPAN * np.arange(1, 17) / 16), r
    shape = re / re[-1]
    error = np.max(np.abs(shape - reference(r - ROOT_RADIUS)))
    print(f"{name}: largest difference from the closed form {error:.2e} of the tip value")
    assert error < tolerance
    assert np.max(np.abs(im)) < 1e-9


def test_cantilever_shapes_are_mass_orthogonal(cantilever):
    element = SPAN / 16
    share = np.full(16, element)
    share[-1] = element / 2
    weights = np.concatenate([np.outer(share, MASS * np.ones(3)),
                              np.outer(share, [I_FLAP + I_LAG, I_FLAP, I_LAG])], axis=1).ravel()
    shapes = []
    for mode in cantilever[0].values():
        q = np.array(mode["blades"][0]["re"])  # 16 stations x (u.x, u.y, u.z, psi.x, psi.y, psi.z)
        shapes.append(q.ravel())
    phi = np.array(shapes)
    assert len(phi) == 12
    gram = phi @ np.diag(weights) @ phi.T
    norm = np.sqrt(np.outer(np.diag(gram), np.diag(gram)))
    off = np.max(np.abs(gram / norm - np.eye(len(phi))))
    print(f"largest |phi_i M phi_j| / sqrt(M_ii M_jj), i != j: {off:.2e}")
    assert off < 1e-6


def test_multiblade_elastic_modes_are_the_single_blade_modes_shifted(tmp_path):
    single = run_modes(tmp_path / "one", "rotor.n_elements=6", "rotor.nb=1")
    rotor = run_modes(tmp_path / "four", "rotor.n_elements=6", "rotor.nb=4",
                      extra=["--multiblade", "--shapes", "40", "--sweep", f"rotor.Omega={OMEGA}"])
    # examples/fan_plot.py names the modes of modes.csv with their multiblade coordinates too.
    subprocess.run(["python3", str(ROOT / "examples" / "fan_plot.py"), str(tmp_path / "four")], check=True,
                   capture_output=True)
    fan = {r["mode"]: float(r["frequency [rad/s]"]) for r in csv.DictReader(open(tmp_path / "four" / "fan.csv"))}
    for name in ["1st flap", "1st lag", "1st torsion"]:
        assert abs(fan[f"{name} collective"] / single[name]["im"] - 1.0) < 1e-6, name
    worst = 0.0
    for name in ["1st flap", "1st lag", "2nd flap", "1st torsion"]:
        w = single[name]["im"]
        expected = {"collective": w, "differential": w, "cyclic regressive": abs(w - OMEGA),
                    "cyclic progressive": w + OMEGA}
        for coordinate, frequency in expected.items():
            mode = rotor[f"{name} {coordinate}"]
            worst = max(worst, abs(mode["im"] / frequency - 1.0))
            main = max(mode["blades"], key=lambda b: np.sum(np.square(b["re"]) + np.square(b["im"])))
            if coordinate in ("collective", "differential"):
                assert main["blade"] == {"collective": "0", "differential": "d"}[coordinate]
                continue
            # q_1c = cos(f t), q_1s = sin(f t) turns with the rotor: Im(conj(q_1c) q_1s) < 0 for
            # exp(i f t); the progressive branch w + Omega turns with it, the regressive branch
            # Omega - w with it where w < Omega, against it where w > Omega.
            component = {"flap": 2, "lag": 1, "torsion": 3}[single[name]["kind"]]
            _, c_re, c_im = blade_values(mode, "1c", component)
            _, s_re, s_im = blade_values(mode, "1s", component)
            whirl = np.sum((c_re - 1j * c_im) * (s_re + 1j * s_im)).imag
            with_rotor = coordinate == "cyclic progressive" or w < OMEGA
            assert (whirl < 0) == with_rotor, (name, coordinate, whirl)
    print(f"largest relative difference of the multiblade frequencies: {worst:.2e}")
    assert worst < 1e-6


def test_mode_shapes_plot_names_the_modes(cantilever):
    plot = (cantilever[1] / "mode_shapes.svg").read_text()
    assert plot.startswith("<svg") and plot.count("<polyline") == 3 * 6
    for name in ["1st flap", "1st lag", "2nd flap", "1st torsion"]:
        assert f"{name}: " in plot, name
    units = (cantilever[1] / "mode_shapes.units.csv").read_text().splitlines()
    assert '"r","m",' in "\n".join(units) and '"psi.x.re","rad",' in "\n".join(units)


def test_linearize_writes_the_shapes_into_its_json(tmp_path):
    out = tmp_path / "lin.json"
    subprocess.run([str(ROOT / "target" / "release" / "orchestrator"), "linearize", "examples/rotor-elastic-vacuum.json",
                    "--out", str(out), "--set", "rotor.Omega=0", "--set", "rotor.n_elements=16", "--set",
                    "rotor.rotary_inertia_scaling=false", "--shapes", "3"], cwd=ROOT, check=True, capture_output=True)
    modes = json.loads(out.read_text())["mode_shapes"]["points"][0]["modes"]
    assert [m["name"] for m in modes] == ["1st flap", "1st lag", "2nd flap"]
    r, re, _ = blade_values(modes[0], "1", 2)
    assert np.max(np.abs(re / re[-1] - bending_shape(1, r - ROOT_RADIUS))) < 1e-3
