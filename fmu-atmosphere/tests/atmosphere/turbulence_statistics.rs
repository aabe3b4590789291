//! The synthesised turbulence against the specification (MIL-F-8785C 3.7.2): the sample
//! variance of each component over a long record against sigma^2, the low-altitude scales and
//! intensities against the specification's formulas, and the seed's reproducibility. (The power
//! spectral density is checked with SciPy's Welch estimate in
//! `tests/python/test_atmosphere_fmpy.py`.)

use std::f64::consts::PI;

use fmu_atmosphere::turbulence::{Scales, Spectrum, Turbulence};

const SIGMA: [f64; 3] = [1.5, 1.0, 0.7];
const LENGTH: [f64; 3] = [200.0, 150.0, 100.0];

/// A record of `n` samples `ds` m apart.
fn record(field: &Turbulence, n: usize, ds: f64) -> [Vec<f64>; 3] {
    let mut out: [Vec<f64>; 3] = Default::default();
    for k in 0..n {
        let v = field.velocity(k as f64 * ds, 50.0);
        for c in 0..3 {
            out[c].push(v[c]);
        }
    }
    out
}

fn variance(x: &[f64]) -> f64 {
    let mean = x.iter().sum::<f64>() / x.len() as f64;
    x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (x.len() - 1) as f64
}

/// Sample variance over 10^4 of the largest scale lengths against sigma^2.
///
/// Error bound: the sample variance of a Gaussian record of length `S` with autocorrelation
/// `R` has a relative standard deviation `sqrt((2/S) integral R^2 / sigma^4)`, which is
/// `sqrt(2 L / S)` for the Dryden longitudinal component (`R = sigma^2 exp(-|x|/L)`) and less
/// for the others; 4 of these (1.3 % at `S = 10^4 L`) plus the 1 % of the spectrum outside the
/// synthesised band (1 m to 1000 km: `(2/pi) atan(L Omega)` beyond it is 0.2 % for L = 100 m).
#[test]
fn sample_variance_matches_sigma_squared() {
    let scales = Scales::Given { sigma: SIGMA, length: LENGTH };
    let length = 1.0e4 * LENGTH[0];
    let ds = 25.0;
    for spectrum in [Spectrum::Dryden, Spectrum::VonKarman] {
        let field = Turbulence::new(spectrum, scales, 200, (1.0, 1.0e6), 7);
        let rec = record(&field, (length / ds) as usize, ds);
        for c in 0..3 {
            let ratio = variance(&rec[c]) / SIGMA[c].powi(2);
            let bound = 4.0 * (2.0 * LENGTH[c] / length).sqrt() + 0.01;
            assert!((ratio - 1.0).abs() < bound, "{spectrum:?} component {c}: variance / sigma^2 = {ratio}");
        }
    }
}

#[test]
fn same_seed_same_record_other_seed_other_record() {
    let scales = Scales::LowAltitude { w20: 15.0 };
    let make = |seed| record(&Turbulence::new(Spectrum::VonKarman, scales, 100, (1.0, 1.0e6), seed), 2000, 3.0);
    let (a, b, other) = (make(42), make(42), make(43));
    for c in 0..3 {
        assert!(a[c].iter().zip(&b[c]).all(|(x, y)| x.to_bits() == y.to_bits()));
        // Independent phases: the two records are uncorrelated (|rho| well below 1).
        let dot: f64 = a[c].iter().zip(&other[c]).map(|(x, y)| x * y).sum();
        let norm = (a[c].iter().map(|x| x * x).sum::<f64>() * other[c].iter().map(|y| y * y).sum::<f64>()).sqrt();
        assert!(a[c] != other[c] && (dot / norm).abs() < 0.9, "component {c}: correlation {}", dot / norm);
    }
}

#[test]
fn low_altitude_scales_follow_mil_f_8785c() {
    let scales = Scales::LowAltitude { w20: 15.0 };
    // MIL-F-8785C 3.7.2.3, h in ft: L_w = h, L_u = L_v = h / (0.177 + 0.000823 h)^1.2,
    // sigma_w = 0.1 W20, sigma_u / sigma_w = 1 / (0.177 + 0.000823 h)^0.4.
    for h_ft in [10.0_f64, 50.0, 300.0, 1000.0] {
        let (sigma, length): ([f64; 3], [f64; 3]) = scales.at(h_ft * 0.3048);
        let d = 0.177 + 0.000823 * h_ft;
        assert!((length[2] - h_ft * 0.3048).abs() < 1e-9);
        assert!((length[0] - h_ft / d.powf(1.2) * 0.3048).abs() < 1e-9 && length[1] == length[0]);
        assert!((sigma[2] - 1.5).abs() < 1e-12 && (sigma[0] - 1.5 / d.powf(0.4)).abs() < 1e-12);
    }
    // Clamped outside 10..1000 ft.
    assert_eq!(scales.at(1.0_f64), scales.at(10.0 * 0.3048));
    assert_eq!(scales.at(2000.0_f64), scales.at(1000.0 * 0.3048));
}

#[test]
fn turbulence_off_is_zero_and_spectra_integrate_to_one() {
    let off = Turbulence::new(Spectrum::None, Scales::LowAltitude { w20: 15.0 }, 10, (1.0, 1e6), 1);
    assert_eq!(off.velocity(123.0, 40.0), [0.0; 3]);
    // The unit spectra integrate to 1 over 0..inf (substitution Omega = tan(a) / L, midpoint rule).
    for spectrum in [Spectrum::Dryden, Spectrum::VonKarman] {
        for c in 0..3 {
            let n = 200_000;
            let l = 80.0;
            let total: f64 = (0..n)
                .map(|k| {
                    let a = (k as f64 + 0.5) / n as f64 * PI / 2.0;
                    let omega = a.tan() / l;
                    fmu_atmosphere::turbulence::unit_spectrum(spectrum, c, l, omega) / (l * a.cos().powi(2))
                })
                .sum::<f64>()
                * (PI / 2.0 / n as f64);
            assert!((total - 1.0).abs() < 1e-3, "{spectrum:?} {c}: {total}");
        }
    }
}

#[test]
fn given_scales_equal_the_low_altitude_ones_they_repeat() {
    // Above 1000 ft the low-altitude model keeps its 1000 ft values: L = 1000 ft and
    // sigma = 0.1 W20 for all three components. The same values given directly (amplitudes
    // computed once) must give the same field as the height-dependent path.
    let w20 = 12.0;
    let given = Scales::Given { sigma: [0.1 * w20; 3], length: [304.8; 3] };
    for spectrum in [Spectrum::Dryden, Spectrum::VonKarman] {
        let low = Turbulence::new(spectrum, Scales::LowAltitude { w20 }, 64, (1.0, 1.0e6), 9);
        let fixed = Turbulence::new(spectrum, given, 64, (1.0, 1.0e6), 9);
        for k in 0..50 {
            let s = 37.0 * k as f64;
            let (a, b) = (low.velocity(s, 900.0), fixed.velocity(s, 0.0));
            for c in 0..3 {
                assert!((a[c] - b[c]).abs() < 1e-12 * (1.0 + a[c].abs()), "{spectrum:?} s = {s}: {a:?} vs {b:?}");
            }
        }
    }
}
