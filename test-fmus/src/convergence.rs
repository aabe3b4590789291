//! The check of an observed order of convergence that the orchestrator's and the monolithic
//! reference's tests share: errors of runs at steps that halve each time.

use std::ops::Range;

use fmu_core::verify::math::sci;

/// The observed orders `log2(e[k] / e[k + 1])` of `errors` of runs at steps that halve each time.
fn orders(errors: &[f64]) -> Vec<f64> {
    errors.windows(2).map(|w| (w[0] / w[1]).log2()).collect()
}

/// Prints `errors` (of runs at steps that halve each time) as `what` with their observed
/// orders `log2(e[k] / e[k + 1])`, and checks that every observed order lies in `expected`.
pub fn assert_order(what: &str, errors: &[f64], expected: Range<f64>) {
    let orders = orders(errors);
    eprintln!("{what}: errors {}, orders {}", sci(errors), sci(&orders));
    for &order in &orders {
        assert!(expected.contains(&order), "{what}: observed order {order} (errors {})", sci(errors));
    }
}
