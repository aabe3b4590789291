//! Checks that model crates run in their tests: the exact directional derivatives against
//! finite differences of the outputs, and the declared `ModelStructure` against what the outputs
//! really depend on.

use std::fmt;

use crate::instance::Instance;
use crate::model::Model;
use crate::status::FmiResult;
use crate::variable::{Causality, Feedthrough, Variable};

/// Outcome of [`check_directional_derivatives`].
#[derive(Debug, Clone, Default)]
pub struct DerivativeReport {
    /// Output/input pairs with a declared dependency.
    pub declared_pairs: usize,
    /// Of those, pairs whose derivative is zero at this point (both AD and finite differences).
    pub declared_zero: usize,
    /// Pairs without a declared dependency (their derivative must be exactly zero).
    pub undeclared_pairs: usize,
    /// Largest `|AD - FD|` of a declared pair, relative to the largest FD entry of its column.
    pub worst: f64,
    /// Where `worst` occurred.
    pub worst_pair: String,
    /// Every pair that failed: a declared pair beyond the tolerance, an undeclared pair with a
    /// non-zero AD derivative or whose output moves with the input.
    pub violations: Vec<String>,
}

impl fmt::Display for DerivativeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} declared output/input pairs ({} zero at this point), worst AD vs FD error {:.2e} of the column ({}); \
             {} undeclared pairs exactly zero; {} violations",
            self.declared_pairs,
            self.declared_zero,
            self.worst,
            self.worst_pair,
            self.undeclared_pairs,
            self.violations.len()
        )
    }
}

/// Compares `fmi2GetDirectionalDerivative` of every output with respect to every input against
/// Richardson-extrapolated central differences (fourth order) of the outputs, taken with
/// get-after-set at the instance's current point, and checks the declared feedthrough: declared
/// pairs agree to `tolerance` relative to their column's largest entry, undeclared pairs have an
/// exactly zero AD derivative and outputs that do not move with the input.
///
/// `step(input, value)` is the finite-difference step for an input at its current value.
pub fn check_directional_derivatives<M: Model>(
    inst: &mut Instance<M>,
    step: impl Fn(&Variable, f64) -> f64,
    tolerance: f64,
) -> FmiResult<DerivativeReport> {
    let variables = M::variables();
    let inputs: Vec<&Variable> = variables.iter().filter(|v| v.causality == Causality::Input).collect();
    let outputs: Vec<&Variable> = variables.iter().filter(|v| v.causality == Causality::Output).collect();
    let out_vrs: Vec<u32> = outputs.iter().map(|v| v.vr).collect();
    let n = out_vrs.len();
    let (mut plus, mut minus, mut ad) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let mut report = DerivativeReport::default();
    for input in inputs {
        let mut u0 = [0.0];
        inst.get_real(&[input.vr], &mut u0)?;
        let delta = step(input, u0[0]);
        let mut central = |d: f64| -> FmiResult<Vec<f64>> {
            inst.set_real(&[input.vr], &[u0[0] + d])?;
            inst.get_real(&out_vrs, &mut plus)?;
            inst.set_real(&[input.vr], &[u0[0] - d])?;
            inst.get_real(&out_vrs, &mut minus)?;
            Ok(plus.iter().zip(&minus).map(|(p, m)| (p - m) / (2.0 * d)).collect())
        };
        let (d1, d2) = (central(delta)?, central(2.0 * delta)?);
        inst.set_real(&[input.vr], &u0)?;
        inst.get_directional_derivative(&out_vrs, &[input.vr], &[1.0], &mut ad)?;
        let fd: Vec<f64> = d1.iter().zip(&d2).map(|(a, b)| (4.0 * a - b) / 3.0).collect();
        let column = fd.iter().fold(0.0_f64, |a, b| a.max(b.abs())).max(1e-300);
        for (k, out) in outputs.iter().enumerate() {
            let declared = matches!(&out.feedthrough, Feedthrough::Inputs(deps) if deps.contains(&input.vr));
            let pair = format!("d {}/d {}: AD {:e}, FD {:e}", out.name, input.name, ad[k], fd[k]);
            if declared {
                report.declared_pairs += 1;
                if ad[k] == 0.0 && fd[k] == 0.0 {
                    report.declared_zero += 1;
                }
                let rel = (ad[k] - fd[k]).abs() / column;
                if rel > report.worst {
                    report.worst = rel;
                    report.worst_pair = pair.clone();
                }
                if rel > tolerance || rel.is_nan() {
                    report.violations.push(format!("{pair} (error {rel:e} of the column)"));
                }
            } else {
                report.undeclared_pairs += 1;
                if ad[k] != 0.0 {
                    report.violations.push(format!("{pair}: AD must be zero, no dependency is declared"));
                } else if fd[k].abs() > 1e-9 * column.max(1.0) {
                    report.violations.push(format!("{pair}: the output moves but no dependency is declared"));
                }
            }
        }
    }
    Ok(report)
}
