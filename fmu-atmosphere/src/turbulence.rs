//! Dryden and von Karman turbulence (MIL-F-8785C 3.7.2; MIL-HDBK-1797 4.9.1) as a frozen field
//! synthesised from a sum of cosines.
//!
//! **Frozen turbulence** (Taylor's hypothesis): the gust velocities are fixed in the air mass,
//! which moves with the steady wind. They vary along one horizontal axis, the *track* `e` (the
//! `track` parameter), and the aircraft samples them at its position in the air mass along that
//! axis, `s = e . (p - W_ref t)` (m). A straight flight along the track, or a hover in a wind
//! blowing along it, sees the specification's spectra in the spatial frequency `Omega` (rad/m).
//!
//! **Synthesis**: per component `c` (u along the track, v to its right, w down)
//!
//! ```text
//! v_c(s) = sigma_c sum_j sqrt(2 Phi_c(Omega_j) dOmega_j) cos(Omega_j s + phi_cj)
//! ```
//!
//! over `N` log-spaced bins between `2 pi / wavelength_max` and `2 pi / wavelength_min`
//! (`Omega_j` the geometric centre of bin `j`, `dOmega_j` its width), `Phi_c` the specification's
//! one-sided spectrum for unit intensity (`sigma^2 = integral_0^inf Phi dOmega`) and the phases
//! `phi_cj` uniform on `[0, 2 pi)` from a SplitMix64 generator seeded with `turbulence.seed`.
//! The variance is that of the spectrum within the band. Intensities and scale lengths may vary
//! with the height; the frequencies and phases do not, so a climb changes the amplitudes
//! smoothly without shifting the field.
//!
//! **Spectra** (MIL-F-8785C 3.7.2.1 and 3.7.2.2, `L` the scale length):
//!
//! ```text
//! Dryden      Phi_u = sigma^2 2L/pi / (1 + (L Omega)^2)
//!             Phi_v = Phi_w = sigma^2 L/pi (1 + 3 (L Omega)^2) / (1 + (L Omega)^2)^2
//! von Karman  Phi_u = sigma^2 2L/pi / (1 + (1.339 L Omega)^2)^(5/6)
//!             Phi_v = Phi_w = sigma^2 L/pi (1 + 8/3 (1.339 L Omega)^2) / (1 + (1.339 L Omega)^2)^(11/6)
//! ```
//!
//! **Low-altitude scales** (MIL-F-8785C 3.7.2.3, `h` the height above ground in ft, taken in
//! 10..1000 ft, `W20` the wind speed at 20 ft): `L_w = h`, `L_u = L_v = h / (0.177 +
//! 0.000823 h)^1.2`, `sigma_w = 0.1 W20`, `sigma_u = sigma_v = sigma_w / (0.177 + 0.000823
//! h)^0.4`. At 1000 ft all three scales are 1000 ft and the intensities equal: the medium and
//! high altitude model (probability-of-exceedance intensities) is not implemented; the 1000 ft
//! values are kept above.

use std::f64::consts::PI;

use fmu_core::model::Scalar;

/// Metres per foot.
const FOOT: f64 = 0.3048;

/// The von Karman spectra's constant `a = 1.339` (MIL-F-8785C 3.7.2.1).
pub const VON_KARMAN_A: f64 = 1.339;

/// Which spectrum the turbulence follows (the `turbulence.model` parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spectrum {
    /// No turbulence.
    None,
    /// Dryden (rational) spectra.
    Dryden,
    /// Von Karman spectra.
    VonKarman,
}

/// Where the intensities and scale lengths come from (the `turbulence.scales` parameter).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scales {
    /// MIL-F-8785C low altitude: from the height above ground and the wind speed at 20 ft, m/s.
    LowAltitude {
        /// Wind speed at 20 ft (6.1 m) above ground, m/s.
        w20: f64,
    },
    /// Given intensities `sigma` (m/s) and scale lengths `length` (m) of u, v, w.
    Given {
        /// RMS gust velocities, m/s.
        sigma: [f64; 3],
        /// Scale lengths, m.
        length: [f64; 3],
    },
}

impl Scales {
    /// Intensities (m/s) and scale lengths (m) of u, v, w at the height `height` above ground (m).
    pub fn at<D: Scalar>(&self, height: D) -> ([D; 3], [D; 3]) {
        match *self {
            Scales::Given { sigma, length } => (sigma.map(D::from), length.map(D::from)),
            Scales::LowAltitude { w20 } => {
                let h_ft = height / FOOT;
                let h_ft = if h_ft.re() < 10.0 {
                    D::from(10.0)
                } else if h_ft.re() > 1000.0 {
                    D::from(1000.0)
                } else {
                    h_ft
                };
                let denominator = h_ft * 0.000823 + 0.177;
                let l_uv = h_ft / denominator.powf(1.2) * FOOT;
                let sigma_w = D::from(0.1 * w20);
                let sigma_uv = sigma_w / denominator.powf(0.4);
                ([sigma_uv, sigma_uv, sigma_w], [l_uv, l_uv, h_ft * FOOT])
            }
        }
    }
}

/// One-sided spectrum of unit intensity, `Phi / sigma^2` (m per rad), of component `component`
/// (0 = u, longitudinal; 1 and 2 = v and w, transverse) for scale length `length` (m) at spatial
/// frequency `omega` (rad/m).
pub fn unit_spectrum<D: Scalar>(spectrum: Spectrum, component: usize, length: D, omega: f64) -> D {
    let longitudinal = component == 0;
    match spectrum {
        Spectrum::None => D::from(0.0),
        Spectrum::Dryden => {
            let k2 = (length * omega).powi(2);
            if longitudinal {
                length * (2.0 / PI) / (k2 + 1.0)
            } else {
                length * (1.0 / PI) * (k2 * 3.0 + 1.0) / (k2 + 1.0).powi(2)
            }
        }
        Spectrum::VonKarman => {
            let k2 = (length * (VON_KARMAN_A * omega)).powi(2);
            if longitudinal {
                length * (2.0 / PI) / (k2 + 1.0).powf(5.0 / 6.0)
            } else {
                length * (1.0 / PI) * (k2 * (8.0 / 3.0) + 1.0) / (k2 + 1.0).powf(11.0 / 6.0)
            }
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): the seeded source of the phases.
#[derive(Debug, Clone)]
struct SplitMix64(u64);

impl SplitMix64 {
    /// The next value, uniform on `[0, 1)` (53 bits).
    fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// The frozen turbulence field: spectrum, scales and the cosines' frequencies and phases.
#[derive(Debug, Clone)]
pub struct Turbulence {
    /// Spectrum form.
    spectrum: Spectrum,
    /// Intensities and scale lengths.
    scales: Scales,
    /// Bin centres `Omega_j`, rad/m.
    omega: Vec<f64>,
    /// Bin widths `dOmega_j`, rad/m.
    d_omega: Vec<f64>,
    /// Phases `phi_cj` of u, v, w, rad.
    phases: [Vec<f64>; 3],
    /// The amplitudes `sigma_c sqrt(2 Phi_c(Omega_j) dOmega_j)` of u, v, w, m/s, computed once
    /// when the scales do not depend on the height ([`Scales::Given`]).
    fixed_amplitudes: Option<[Vec<f64>; 3]>,
}

impl Turbulence {
    /// The field of `n` cosines per component over wavelengths `wavelength_min..wavelength_max`
    /// (m, `0 < min < max`), phases from `seed`.
    pub fn new(spectrum: Spectrum, scales: Scales, n: usize, wavelengths: (f64, f64), seed: u64) -> Self {
        let (omega_min, omega_max) = (2.0 * PI / wavelengths.1, 2.0 * PI / wavelengths.0);
        let edge = |k: usize| omega_min * (omega_max / omega_min).powf(k as f64 / n as f64);
        let omega = (0..n).map(|j| (edge(j) * edge(j + 1)).sqrt()).collect();
        let d_omega = (0..n).map(|j| edge(j + 1) - edge(j)).collect();
        let mut random = SplitMix64(seed);
        let phases = std::array::from_fn(|_| (0..n).map(|_| 2.0 * PI * random.uniform()).collect());
        let mut field = Turbulence { spectrum, scales, omega, d_omega, phases, fixed_amplitudes: None };
        if let Scales::Given { .. } = scales {
            field.fixed_amplitudes = Some(field.amplitudes(0.0));
        }
        field
    }

    /// The amplitudes `sigma_c sqrt(2 Phi_c(Omega_j) dOmega_j)` of u, v, w at the height
    /// `height` above ground (m), m/s.
    fn amplitudes(&self, height: f64) -> [Vec<f64>; 3] {
        let (sigma, length) = self.scales.at(height);
        std::array::from_fn(|c| {
            let unit = self.omega.iter().zip(&self.d_omega);
            unit.map(|(&omega, &d_omega)| {
                (unit_spectrum(self.spectrum, c, length[c], omega) * (2.0 * d_omega)).sqrt() * sigma[c]
            })
            .collect()
        })
    }

    /// Whether the field is zero everywhere (no spectrum).
    pub fn is_off(&self) -> bool {
        self.spectrum == Spectrum::None
    }

    /// Gust velocities `[u, v, w]` (m/s; u along the track, v to its right, w down) at the
    /// position `s` (m) along the track in the air mass and the height `height` above ground (m).
    pub fn velocity<D: Scalar>(&self, s: D, height: D) -> [D; 3] {
        if self.is_off() {
            return [D::from(0.0); 3];
        }
        let cosines =
            |c: usize| self.omega.iter().zip(&self.phases[c]).map(move |(&omega, &phase)| (s * omega + phase).cos());
        if let Some(fixed) = &self.fixed_amplitudes {
            return std::array::from_fn(|c| {
                cosines(c).zip(&fixed[c]).fold(D::from(0.0), |sum, (cosine, &amplitude)| sum + cosine * amplitude)
            });
        }
        let (sigma, length) = self.scales.at(height);
        std::array::from_fn(|c| {
            let mut sum = D::from(0.0);
            for (cosine, (&omega, &d_omega)) in cosines(c).zip(self.omega.iter().zip(&self.d_omega)) {
                sum += cosine * (unit_spectrum(self.spectrum, c, length[c], omega) * (2.0 * d_omega)).sqrt();
            }
            sum * sigma[c]
        })
    }
}
