"""Atmosphere.fmu in FMPy, a third-party FMI importer: validation, still ISA sea-level air by
default, and the turbulence's power spectral density, estimated by SciPy's Welch method from a
record of the FMU's outputs, against the MIL-F-8785C spectra written out here.

The record: a hovering aircraft in a 10 m/s wind along the track samples the frozen turbulence at
s = 10 t (Taylor's hypothesis), so a time record sampled at dt is a spatial record at ds = 10 dt.
"""

import math

import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu
from scipy.integrate import quad
from scipy.signal import welch

from conftest import packaged_fmu, read_our_description

SIGMA = {"u": 1.5, "v": 1.0, "w": 0.7}
LENGTH = {"u": 40.0, "v": 40.0, "w": 20.0}
WIND = 10.0
DT = 0.2
STOP = 16384.0


@pytest.fixture(scope="module", name="atmosphere_fmu")
def fixture_atmosphere_fmu():
    return packaged_fmu("Atmosphere")


def test_fmpy_validates_atmosphere_and_reads_its_interface(atmosphere_fmu):
    assert validate_fmu(atmosphere_fmu) == []
    md, names = read_our_description(atmosphere_fmu, "Atmosphere")
    for n in ["x", "y", "z", "u", "v", "w", "phi", "theta", "psi"]:
        assert names[n].causality == "input"
    for n in ["wind.x", "wind.turbulence.z", "air.u", "airspeed", "density", "temperature", "pressure"]:
        assert names[n].causality == "output"
    assert [item.name for item in names["turbulence.model"].declaredType.items] == ["none", "dryden", "von_karman"]
    assert names["temperature"].unit == "K" and names["pressure"].unit == "Pa"


def test_default_is_still_isa_sea_level_air(atmosphere_fmu):
    result = simulate_fmu(atmosphere_fmu, stop_time=1.0, step_size=0.1, output=["density", "temperature", "pressure",
                                                                               "speed_of_sound", "wind.x", "wind.z"])
    # ICAO Doc 7488 sea level: 1.2250 kg/m^3, 288.15 K, 101325 Pa, 340.294 m/s.
    assert np.allclose(result["density"], 1.2250, atol=5e-5)
    assert np.all(result["temperature"] == 288.15) and np.all(result["pressure"] == 101325.0)
    assert np.allclose(result["speed_of_sound"], 340.294, atol=5e-4)
    assert np.all(result["wind.x"] == 0.0) and np.all(result["wind.z"] == 0.0)


def spectrum(model, component, omega):
    """MIL-F-8785C 3.7.2.1 (von Karman) and 3.7.2.2 (Dryden), one-sided in Omega (rad/m)."""
    sigma, length = SIGMA[component], LENGTH[component]
    k = length * omega
    if model == "dryden":
        if component == "u":
            return sigma**2 * 2 * length / math.pi / (1 + k**2)
        return sigma**2 * length / math.pi * (1 + 3 * k**2) / (1 + k**2) ** 2
    a = 1.339 * k
    if component == "u":
        return sigma**2 * 2 * length / math.pi / (1 + a**2) ** (5 / 6)
    return sigma**2 * length / math.pi * (1 + 8 / 3 * a**2) / (1 + a**2) ** (11 / 6)


@pytest.mark.parametrize("model,code", [("dryden", 1), ("von_karman", 2)])
def test_turbulence_spectra_match_mil_f_8785c(atmosphere_fmu, model, code):
    parameters = {"wind.speed": WIND, "wind.from": 0.0, "track": 0.0, "turbulence.model": code,
                  "turbulence.scales": 2, "turbulence.seed": 11,
                  # No wavelength shorter than two samples: nothing aliases into the estimate.
                  "turbulence.wavelength_min": 2 * WIND * DT}
    for c in "uvw":
        parameters[f"turbulence.sigma.{c}"] = SIGMA[c]
        parameters[f"turbulence.L.{c}"] = LENGTH[c]
    outputs = {"u": "wind.turbulence.x", "v": "wind.turbulence.y", "w": "wind.turbulence.z"}
    result = simulate_fmu(atmosphere_fmu, stop_time=STOP, step_size=DT, output_interval=DT,
                          start_values=parameters, output=list(outputs.values()))
    ds = WIND * DT
    segment = 8192
    for c, name in outputs.items():
        record = result[name]
        # Welch: Hann window, half overlap; f in cycles/m, so Phi(Omega) = P(f) / (2 pi).
        f, p = welch(record, fs=1.0 / ds, window="hann", nperseg=segment, noverlap=segment // 2)
        segments = (len(record) - segment // 2) // (segment // 2)
        df = f[1] - f[0]
        for octave in range(7):
            lo, hi = 0.25 * 2**octave / LENGTH[c], 0.5 * 2**octave / LENGTH[c]
            band = (2 * np.pi * f >= lo) & (2 * np.pi * f < hi)
            bins = int(band.sum())
            estimate = float(p[band].sum() * df)
            omega_lo, omega_hi = 2 * np.pi * f[band][0] - np.pi * df, 2 * np.pi * f[band][-1] + np.pi * df
            expected = quad(lambda w: spectrum(model, c, w), omega_lo, omega_hi)[0]
            # The band power averages bins x segments periodogram values, each with a relative
            # spread of 1 (chi-square, 2 degrees of freedom): 4 standard errors, plus 3 % for
            # the window's leakage across the band edges on a spectrum falling as Omega^-2.
            bound = 4.0 / math.sqrt(bins * segments) + 0.03
            assert abs(estimate / expected - 1) < bound, (model, c, octave, estimate, expected, bound)
        # The whole record's variance: the spectrum's within the synthesised band (wavelengths 2 ds
        # to 1000 km), within the statistical error 4 sqrt(2 L / S) and 1 % for the band's ends.
        in_band = quad(lambda w: spectrum(model, c, w), 2 * np.pi / 1e6, np.pi / ds, limit=200)[0]
        assert abs(np.var(record) / in_band - 1) < 4 * math.sqrt(2 * LENGTH[c] / (WIND * STOP)) + 0.01
