//! Steady wind with a power-law shear, and the discrete 1-cosine gust.
//!
//! **Steady wind** (NED, m/s): speed `W(h)` blowing *from* the direction `psi_w` (rad from north
//! towards east, as weather reports give it), so that the air moves towards `psi_w + pi`:
//! `W_ned = -W(h) (cos psi_w, sin psi_w, 0)`. With the shear exponent `n` (the 1/7 power law of
//! the neutral atmospheric boundary layer for `n = 1/7`; `n = 0`: uniform wind)
//!
//! ```text
//! W(h) = W_ref (h / h_ref)^n   for h > 0,   0 at or below the ground (n > 0)
//! ```
//!
//! with `h` the height above the field (`-z` in NED) and `W_ref` the speed at `h_ref`.
//!
//! **Discrete gust** (MIL-F-8785C, 3.7.2.5; MIL-HDBK-1797, 4.9.1 "discrete gust"): with `x` the
//! distance flown into the gust and `d_m` its length,
//!
//! ```text
//! ramp  (MIL-F-8785C):  v = v_m/2 (1 - cos(pi x / d_m))  for 0 <= x <= d_m,  v_m beyond
//! pulse (1-cosine):     v = v_m/2 (1 - cos(pi x / d_m))  for 0 <= x <= 2 d_m, 0 beyond
//! ```
//!
//! and 0 before the gust (`x < 0`).

use std::f64::consts::PI;

use fmu_core::model::Scalar;

/// Shape of the discrete gust (the `gust.shape` parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GustShape {
    /// MIL-F-8785C 3.7.2.5: rises as a half cosine over `d_m` and stays at full amplitude.
    Ramp,
    /// The full 1-cosine: rises over `d_m`, falls back over the next `d_m`.
    Pulse,
}

/// The discrete gust's fraction of its amplitude (0 to 1) at distance `x` (m) into it, for the
/// gust length `length` (m, > 0).
pub fn gust_shape<D: Scalar>(shape: GustShape, x: D, length: f64) -> D {
    let xr = x.re();
    let rising = |x: D| (D::from(1.0) - (x * (PI / length)).cos()) * 0.5;
    match shape {
        _ if xr < 0.0 => D::from(0.0),
        GustShape::Ramp if xr > length => D::from(1.0),
        GustShape::Pulse if xr > 2.0 * length => D::from(0.0),
        _ => rising(x),
    }
}

/// Steady wind: speed at the reference height, direction and shear.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SteadyWind {
    /// Speed at `reference_height`, m/s (>= 0).
    pub speed: f64,
    /// `(cos psi_w, sin psi_w)` of the direction `psi_w` the wind blows from (rad from north towards
    /// east).
    pub from: (f64, f64),
    /// Shear exponent `n` (>= 0; 0: uniform).
    pub shear_exponent: f64,
    /// Height above the field of `speed`, m (> 0).
    pub reference_height: f64,
}

impl SteadyWind {
    /// Wind velocity in NED, m/s, at the height `height` above the field (m).
    pub fn velocity<D: Scalar>(&self, height: D) -> [D; 3] {
        let speed = if self.shear_exponent == 0.0 {
            D::from(self.speed)
        } else if height.re() <= 0.0 {
            D::from(0.0)
        } else {
            (height / self.reference_height).powf(self.shear_exponent) * self.speed
        };
        [speed * (-self.from.0), speed * (-self.from.1), D::from(0.0)]
    }

    /// Wind velocity in NED at the reference height, m/s: the speed the frozen air mass moves with.
    pub fn reference_velocity(&self) -> [f64; 3] {
        [-self.speed * self.from.0, -self.speed * self.from.1, 0.0]
    }
}
