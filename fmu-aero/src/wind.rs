//! The wind: a uniform air velocity over the rotor, given in airframe body axes (`wind.*`).
//!
//! The aerodynamics see velocities relative to the air: `v_air = v - W` for the hub velocity
//! (body axes) and for each blade's root velocity (blade axes). The blade-axes components of `W`
//! come from two triads that describe the same directions in both frames: the shaft axis, the
//! blade's in-plane arm and their cross product,
//!
//! ```text
//! body:  n (shaft),  a = -cos(psi) x_h + sin(psi) y_h (arm at the blade azimuth psi),  t = n x a
//! blade: s (shaft input, unit),  a_b = (e_x - s_x s) / |e_x - s_x s|,  t_b = s x a_b
//! W_blade = (W . n) s + (W . a) a_b + (W . t) t_b
//! ```
//!
//! Exact for flap and pitch (they keep blade x in the plane through the arm and the shaft). A
//! lag angle `zeta` turns blade x in the rotor plane away from the arm at the blade's azimuth: the
//! in-plane wind is then turned by `zeta` in blade axes (an error of at most `zeta |W_in-plane|`
//! in the root velocity), the same approximation as the azimuth of the inflow harmonics.

use fmu_core::model::Scalar;
use fmu_core::vec3::dot;

/// `v - wind`, the velocity relative to the air (both in the same axes), m/s.
pub fn air_velocity<D: Scalar>(v: [D; 3], wind: [D; 3]) -> [D; 3] {
    [v[0] - wind[0], v[1] - wind[1], v[2] - wind[2]]
}

/// The wind `wind_body` (body axes) in the axes of a blade at `azimuth` (rad) whose unit shaft
/// axis in blade axes is `shaft_blade`; `shaft` is the unit shaft axis and `hub_axes` the hub
/// reference axes `[x_h, y_h]`, both in body axes (see the module docs).
pub fn in_blade_axes<D: Scalar>(
    wind_body: [D; 3],
    shaft: [f64; 3],
    hub_axes: [[f64; 3]; 2],
    azimuth: D,
    shaft_blade: [D; 3],
) -> [D; 3] {
    if D::NDERIV == 0 && wind_body.iter().all(|c| c.re() == 0.0) {
        // Still air, values only: nothing to turn.
        return [D::from(0.0); 3];
    }
    let along = |v: [D; 3], e: [f64; 3]| v[0] * e[0] + v[1] * e[1] + v[2] * e[2];
    let [xh, yh] = hub_axes;
    // Arm a = -cos(psi) x_h + sin(psi) y_h; t = n x a = cos(psi) y_h + sin(psi) x_h
    // (n x x_h = -y_h, n x y_h = x_h).
    let (sin_psi, cos_psi) = azimuth.sin_cos();
    let (w_xh, w_yh) = (along(wind_body, xh), along(wind_body, yh));
    let w_n = along(wind_body, shaft);
    let w_a = -(cos_psi * w_xh) + sin_psi * w_yh;
    let w_t = cos_psi * w_yh + sin_psi * w_xh;
    let s = shaft_blade;
    let a_b = [-(s[0] * s[0]) + 1.0, -(s[0] * s[1]), -(s[0] * s[2])];
    let norm2 = dot(a_b, a_b);
    if norm2.re() <= 1e-12 {
        // Blade x along the shaft (never in a rotor): only the axial wind is defined.
        return [s[0] * w_n, s[1] * w_n, s[2] * w_n];
    }
    let inv = norm2.sqrt().recip();
    let a_b = [a_b[0] * inv, a_b[1] * inv, a_b[2] * inv];
    let t_b = [s[1] * a_b[2] - s[2] * a_b[1], s[2] * a_b[0] - s[0] * a_b[2], s[0] * a_b[1] - s[1] * a_b[0]];
    std::array::from_fn(|k| s[k] * w_n + a_b[k] * w_a + t_b[k] * w_t)
}
