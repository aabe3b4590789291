//! The air state against the printed tables of the U.S. Standard Atmosphere 1976 (NOAA, NASA,
//! USAF, Washington 1976), Table I (SI units, by geometric altitude), which equals the ICAO
//! Standard Atmosphere (Doc 7488/3) below 32 km; each value to the table's printed
//! precision (temperatures to half a millikelvin, the others to one unit of the fifth digit).

use fmu_atmosphere::isa;

/// Table I rows: geometric altitude (m), temperature (K), pressure (Pa), density (kg/m^3),
/// speed of sound (m/s), as printed (5 significant digits, temperatures to 1 mK).
const TABLE_I: [(f64, f64, f64, f64, f64); 10] = [
    (0.0, 288.150, 1.01325e5, 1.2250, 340.29),
    (1000.0, 281.651, 8.9876e4, 1.1117, 336.43),
    (2000.0, 275.154, 7.9501e4, 1.0066, 332.53),
    (3000.0, 268.659, 7.0121e4, 9.0925e-1, 328.58),
    (5000.0, 255.676, 5.4048e4, 7.3643e-1, 320.55),
    (8000.0, 236.215, 3.5651e4, 5.2579e-1, 308.11),
    (10000.0, 223.252, 2.6500e4, 4.1351e-1, 299.53),
    (11000.0, 216.774, 2.2700e4, 3.6480e-1, 295.15),
    (15000.0, 216.650, 1.2111e4, 1.9476e-1, 295.07),
    (20000.0, 216.650, 5.5293e3, 8.8910e-2, 295.07),
];

/// One unit in the last of `digits` significant digits of `value`: the printed pressures at 8 and
/// 15 km (3.5651E+4, 1.2111E+4) lie 0.6 and 0.8 of a unit below the closed form with the
/// standard's constants (35 651.6 and 12 111.8 Pa), so half a unit would fail there.
fn last_unit(value: f64, digits: i32) -> f64 {
    10f64.powi(value.abs().log10().floor() as i32 - digits + 1)
}

#[test]
fn standard_atmosphere_matches_ussa_1976_table_i() {
    for (z, t, p, rho, a) in TABLE_I {
        let air = isa::air(z, 0.0);
        assert!((air.temperature - t).abs() <= 0.000_505, "T at {z} m: {} vs {t}", air.temperature);
        assert!((air.pressure - p).abs() <= last_unit(p, 5), "p at {z} m: {} vs {p}", air.pressure);
        assert!((air.density - rho).abs() <= last_unit(rho, 5), "rho at {z} m: {} vs {rho}", air.density);
        assert!((air.speed_of_sound - a).abs() <= last_unit(a, 5), "a at {z} m: {} vs {a}", air.speed_of_sound);
    }
}

#[test]
fn tropopause_is_continuous_and_isothermal_above() {
    // The geometric altitude of the geopotential tropopause H = 11 000 m: Z = r0 H / (r0 - H).
    let z11 = isa::EARTH_RADIUS * 11_000.0 / (isa::EARTH_RADIUS - 11_000.0);
    let (below, above) = (isa::air(z11 - 1e-6, 0.0), isa::air(z11 + 1e-6, 0.0));
    assert!((below.temperature - 216.65).abs() < 1e-6 && (above.temperature - 216.65).abs() < 1e-12);
    assert!((below.pressure / above.pressure - 1.0).abs() < 1e-9, "{} vs {}", below.pressure, above.pressure);
    // Isothermal layer: the pressure decays by exp(-g0 dH / (R T11)) per geopotential metre.
    let (h1, h2) = (12_000.0, 18_000.0);
    let z = |h: f64| isa::EARTH_RADIUS * h / (isa::EARTH_RADIUS - h);
    let ratio = isa::air(z(h2), 0.0).pressure / isa::air(z(h1), 0.0).pressure;
    let expected = (-9.80665 * (h2 - h1) / (287.05287 * 216.65)).exp();
    assert!((ratio / expected - 1.0).abs() < 1e-12, "{ratio} vs {expected}");
}

#[test]
fn temperature_offset_keeps_the_pressure_and_changes_density_and_speed_of_sound() {
    for (z, t, p, _, _) in TABLE_I {
        let hot = isa::air(z, 20.0);
        assert!((hot.temperature - (t + 20.0)).abs() <= 0.000_505);
        assert!((hot.pressure - p).abs() <= last_unit(p, 5));
        // Ideal gas and the speed of sound with the standard's R and gamma, written out here.
        assert!((hot.density - hot.pressure / (287.05287 * hot.temperature)).abs() < 1e-12);
        assert!((hot.speed_of_sound - (1.4 * 287.05287 * hot.temperature).sqrt()).abs() < 1e-9);
    }
}
