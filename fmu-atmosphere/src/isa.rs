//! The International Standard Atmosphere (ICAO Doc 7488/3, 1993; identical to the U.S. Standard
//! Atmosphere 1976 below 32 km) in its troposphere (0 to 11 km geopotential, lapse rate
//! -6.5 K/km) and lower stratosphere (11 to 20 km, isothermal), with a temperature offset
//! (ISA + dT).
//!
//! The altitude is geometric, `Z`; the layers are defined in geopotential altitude
//! `H = r0 Z / (r0 + Z)` (USSA 1976 eq. 18, `r0` = 6 356 766 m). In the troposphere
//!
//! ```text
//! T_isa = T0 - L H,   p = p0 (T_isa / T0)^(g0 / (R L))
//! ```
//!
//! and above the tropopause `H11` = 11 000 m, `T_isa = T11 = T0 - L H11` = 216.65 K and
//! `p = p11 exp(-g0 (H - H11) / (R T11))`. With an offset, `T = T_isa + dT` and the pressure is
//! kept that of the standard at the same altitude (the convention of flight manuals: the altitude
//! is the pressure altitude), so `rho = p / (R T)` and `a = sqrt(gamma R T)`. Above 20 km the
//! lower stratosphere is continued (the standard's next layer warms at +1 K/km).

use fmu_core::model::Scalar;

/// Sea-level standard temperature `T0`, K (USSA 1976 Table 4; ICAO Doc 7488).
pub const T0: f64 = 288.15;
/// Sea-level standard pressure `p0`, Pa.
pub const P0: f64 = 101_325.0;
/// Temperature lapse rate of the troposphere `L = -dT/dH`, K/m.
pub const LAPSE: f64 = 0.0065;
/// Specific gas constant of dry air `R = R* / M0` = 8314.32 / 28.9644, J/(kg K).
pub const R_AIR: f64 = 287.052_87;
/// Standard acceleration of gravity `g0`, m/s^2.
pub const G0: f64 = 9.806_65;
/// Ratio of specific heats of air `gamma`.
pub const GAMMA: f64 = 1.4;
/// Effective Earth radius of the geopotential altitude `r0`, m (USSA 1976 eq. 18).
pub const EARTH_RADIUS: f64 = 6_356_766.0;
/// Geopotential altitude of the tropopause `H11`, m.
pub const TROPOPAUSE: f64 = 11_000.0;

/// Air state at one altitude, SI units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Air<D> {
    /// Temperature, K.
    pub temperature: D,
    /// Static pressure, Pa.
    pub pressure: D,
    /// Density, kg/m^3.
    pub density: D,
    /// Speed of sound, m/s.
    pub speed_of_sound: D,
}

/// Geopotential altitude `H` of the geometric altitude `z_geometric`, both m.
pub fn geopotential<D: Scalar>(z_geometric: D) -> D {
    z_geometric * EARTH_RADIUS / (z_geometric + EARTH_RADIUS)
}

/// The standard atmosphere with the temperature offset `dt` (K) at geometric altitude `altitude` (m).
pub fn air<D: Scalar>(altitude: D, dt: f64) -> Air<D> {
    let h = geopotential(altitude);
    let exponent = G0 / (R_AIR * LAPSE);
    let (t_isa, pressure) = if h.re() <= TROPOPAUSE {
        let t = -h * LAPSE + T0;
        (t, (t / T0).powf(exponent) * P0)
    } else {
        let t11 = T0 - LAPSE * TROPOPAUSE;
        let p11 = P0 * (t11 / T0).powf(exponent);
        (D::from(t11), ((h - TROPOPAUSE) * (-G0 / (R_AIR * t11))).exp() * p11)
    };
    let temperature = t_isa + dt;
    Air {
        temperature,
        pressure,
        density: pressure / (temperature * R_AIR),
        speed_of_sound: (temperature * (GAMMA * R_AIR)).sqrt(),
    }
}
