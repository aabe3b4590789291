//! Dormand-Prince 5(4) with embedded error control: the integrator inside `fmi2DoStep`.
//!
//! All work buffers are allocated once in [`Dopri5::new`]; [`Dopri5::integrate`] does not
//! allocate.

/// Why an integration could not reach its end time.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OdeError {
    /// The state or its derivative became NaN or infinite.
    #[error("state became non-finite at t = {t} s")]
    NonFinite {
        /// Time of the failing stage, s.
        t: f64,
    },
    /// The step size fell below the resolution of the time axis.
    #[error("step size underflow at t = {t} s (h = {h:e} s): the problem is too stiff or singular")]
    StepUnderflow {
        /// Time at which the step collapsed, s.
        t: f64,
        /// Last attempted step, s.
        h: f64,
    },
    /// More than the allowed number of steps for one call.
    #[error("more than {0} integrator steps in one communication step")]
    TooManySteps(usize),
}

// Dormand-Prince coefficients (Hairer, Norsett, Wanner, "Solving ODEs I", table 5.2), a row of
// the tableau each: the nodes `c2..c5` (`c6 = c7 = 1`), the stage weights `a_i1..a_i(i-1)` of
// stages 2 to 6, the 5th-order weights (stage 7, `a_72 = 0`) and the error weights: 5th-order
// minus embedded 4th-order weights (`e2 = 0`).
const C: [f64; 4] = [1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0];
const A2: [f64; 1] = [1.0 / 5.0];
const A3: [f64; 2] = [3.0 / 40.0, 9.0 / 40.0];
const A4: [f64; 3] = [44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0];
const A5: [f64; 4] = [19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0];
const A6: [f64; 5] = [9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0, -5103.0 / 18656.0];
const A7: [f64; 6] = [35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0];
const E: [f64; 7] =
    [71.0 / 57600.0, 0.0, -71.0 / 16695.0, 71.0 / 1920.0, -17253.0 / 339200.0, 22.0 / 525.0, -1.0 / 40.0];

/// Maximum number of accepted plus rejected steps in one [`Dopri5::integrate`] call.
pub const MAX_STEPS: usize = 100_000;

/// Dormand-Prince 5(4) integrator with preallocated stages.
#[derive(Debug, Clone)]
pub struct Dopri5 {
    k: [Vec<f64>; 7],
    x_stage: Vec<f64>,
    x_new: Vec<f64>,
}

impl Dopri5 {
    /// Buffers for a state of dimension `n`.
    pub fn new(n: usize) -> Self {
        Dopri5 { k: std::array::from_fn(|_| vec![0.0; n]), x_stage: vec![0.0; n], x_new: vec![0.0; n] }
    }

    /// State dimension the buffers were made for.
    pub fn dim(&self) -> usize {
        self.x_new.len()
    }

    /// Integrates `x' = f(t, x)` from `t0` to `t1`, updating `x` in place.
    ///
    /// `h_try` is the step size to try first and is updated with the proposal for the next call
    /// (it is part of the FMU state so that a restored state continues bit-identically).
    /// `project` is applied to every accepted state.
    #[allow(clippy::too_many_arguments)]
    pub fn integrate(
        &mut self,
        mut f: impl FnMut(f64, &[f64], &mut [f64]),
        mut project: impl FnMut(&mut [f64]),
        t0: f64,
        t1: f64,
        x: &mut [f64],
        h_try: &mut f64,
        rtol: f64,
        atol: f64,
    ) -> Result<(), OdeError> {
        let n = x.len();
        if n == 0 || t1 <= t0 {
            return Ok(());
        }
        let span = t1 - t0;
        let mut t = t0;
        let mut h = if *h_try > 0.0 && h_try.is_finite() { h_try.min(span) } else { span.min(1e-3) };
        first_stage(&mut f, t, x, &mut self.k[0])?;
        for _ in 0..MAX_STEPS {
            let remaining = t1 - t;
            // Finish exactly at t1; avoid a sliver of a last step.
            let last = h >= remaining * (1.0 - 1e-12);
            let h_natural = h;
            if last {
                h = remaining;
            }
            if h <= 1e-14 * t.abs().max(span) {
                return Err(OdeError::StepUnderflow { t, h });
            }
            self.attempt_step(&mut f, t, h, x);
            let err = self.error_norm(h, x, rtol, atol);
            if !err.is_finite() {
                // Non-finite stages: retry smaller before giving up.
                h *= 0.25;
                continue;
            }
            let factor = step_factor(err);
            if err <= 1.0 {
                t = if last { t1 } else { t + h };
                x.copy_from_slice(&self.x_new);
                project(x);
                if last {
                    // Do not let a short final step shrink the next communication step's start.
                    *h_try = if h_natural > h { h_natural } else { h * factor };
                    return Ok(());
                }
                // Derivative at the accepted state (after projection, so no FSAL reuse).
                first_stage(&mut f, t, x, &mut self.k[0])?;
                h *= factor;
                *h_try = h;
            } else {
                h *= factor.min(1.0);
            }
        }
        Err(OdeError::TooManySteps(MAX_STEPS))
    }

    /// One attempted step of size `h` from `(t, x)`, with `k1 = f(t, x)` already in place: the
    /// stages `k2..k7` and the 5th-order solution `x_new` (whose derivative is `k7`).
    #[inline]
    fn attempt_step(&mut self, f: &mut impl FnMut(f64, &[f64], &mut [f64]), t: f64, h: f64, x: &[f64]) {
        let n = x.len();
        let [k1, k2, k3, k4, k5, k6, k7] = &mut self.k;
        let ([c2, c3, c4, c5], [a21], [a31, a32], [a41, a42, a43]) = (C, A2, A3, A4);
        let ([a51, a52, a53, a54], [a61, a62, a63, a64, a65], [a71, _, a73, a74, a75, a76]) = (A5, A6, A7);
        let xs = &mut self.x_stage;
        for i in 0..n {
            xs[i] = x[i] + h * a21 * k1[i];
        }
        f(t + c2 * h, xs, k2);
        for i in 0..n {
            xs[i] = x[i] + h * (a31 * k1[i] + a32 * k2[i]);
        }
        f(t + c3 * h, xs, k3);
        for i in 0..n {
            xs[i] = x[i] + h * (a41 * k1[i] + a42 * k2[i] + a43 * k3[i]);
        }
        f(t + c4 * h, xs, k4);
        for i in 0..n {
            xs[i] = x[i] + h * (a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
        }
        f(t + c5 * h, xs, k5);
        for i in 0..n {
            xs[i] = x[i] + h * (a61 * k1[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] + a65 * k5[i]);
        }
        f(t + h, xs, k6);
        let xn = &mut self.x_new;
        for i in 0..n {
            xn[i] = x[i] + h * (a71 * k1[i] + a73 * k3[i] + a74 * k4[i] + a75 * k5[i] + a76 * k6[i]);
        }
        f(t + h, xn, k7);
    }

    /// The error of the step just attempted from `x`: the root mean square of the embedded
    /// estimate `h * sum(E_i k_i)`, each component scaled by `atol + rtol * max(|x|, |x_new|)`
    /// (at most 1 for an accepted step; NaN or infinite if a stage was).
    #[inline]
    fn error_norm(&self, h: f64, x: &[f64], rtol: f64, atol: f64) -> f64 {
        let n = x.len();
        let [k1, _, k3, k4, k5, k6, k7] = &self.k;
        let [e1, _, e3, e4, e5, e6, e7] = E;
        let xn = &self.x_new;
        let mut err2 = 0.0;
        for i in 0..n {
            let e = h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] + e7 * k7[i]);
            let scale = atol + rtol * x[i].abs().max(xn[i].abs());
            err2 += (e / scale) * (e / scale);
        }
        (err2 / n as f64).sqrt()
    }
}

/// `k1 = f(t, x)`, the first stage of a step, with every component checked to be finite.
#[inline]
fn first_stage(f: &mut impl FnMut(f64, &[f64], &mut [f64]), t: f64, x: &[f64], k1: &mut [f64]) -> Result<(), OdeError> {
    f(t, x, k1);
    if k1.iter().any(|v| !v.is_finite()) {
        return Err(OdeError::NonFinite { t });
    }
    Ok(())
}

/// The factor on the step size after a step with error norm `err`: `0.9 err^(-1/5)` within
/// [0.2, 5] (5 for an exact step). An accepted step grows (or shrinks) by it; a rejected one
/// shrinks by it.
#[inline]
fn step_factor(err: f64) -> f64 {
    if err == 0.0 { 5.0 } else { (0.9 * err.powf(-0.2)).clamp(0.2, 5.0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Harmonic oscillator against its closed form; the error scales with the tolerance.
    #[test]
    fn harmonic_oscillator_matches_closed_form_and_tolerance() {
        let mut errors = Vec::new();
        for rtol in [1e-6, 1e-9] {
            let mut ode = Dopri5::new(2);
            let mut x = [1.0, 0.0];
            let mut h = 0.0;
            let omega = 3.0_f64;
            let mut t = 0.0;
            for _ in 0..100 {
                ode.integrate(
                    |_, x, dx| {
                        dx[0] = x[1];
                        dx[1] = -omega * omega * x[0];
                    },
                    |_| {},
                    t,
                    t + 0.1,
                    &mut x,
                    &mut h,
                    rtol,
                    rtol,
                )
                .unwrap();
                t += 0.1;
            }
            errors.push((x[0] - (omega * t).cos()).abs());
        }
        assert!(errors[0] < 1e-4, "{errors:?}");
        assert!(errors[1] < errors[0] / 100.0, "{errors:?}");
    }

    #[test]
    fn non_finite_derivative_is_an_error() {
        let mut ode = Dopri5::new(1);
        let mut x = [1.0];
        let mut h = 0.0;
        let r = ode.integrate(|_, _, dx| dx[0] = f64::NAN, |_| {}, 0.0, 1.0, &mut x, &mut h, 1e-6, 1e-6);
        assert!(matches!(r, Err(OdeError::NonFinite { .. })));
    }
}
