//! `orchestrator trim`: trim a system, print the result and write the trimmed system.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use cosim::import::StderrLogger;
use cosim::system::SystemDescription;
use orchestrator::trim::{FlightCondition, JacobianMethod, Trim, Trimmer};

use super::options::fmu_cache;
use crate::SystemChanges;

/// The `--jacobian` of `orchestrator trim` (`broyden`, `fd`, `linearized`).
pub fn jacobian_method(name: &str) -> JacobianMethod {
    match name {
        "fd" => JacobianMethod::FiniteDifference,
        "linearized" => JacobianMethod::Linearized,
        _ => JacobianMethod::Broyden,
    }
}

/// `orchestrator trim`: trims the system at `system_path` (with `changes`) for `condition`,
/// writes the summary and, when the trim converged, the trimmed system.
pub fn trim(
    system_path: &Path,
    condition: FlightCondition,
    method: JacobianMethod,
    changes: &SystemChanges,
    out: Option<&Path>,
    summary_json: Option<&Path>,
    verbose: bool,
) -> Result<()> {
    let mut description = rotorcraft::read_system(system_path)?;
    changes.apply(&mut description)?;
    if let Some(path) = out {
        super::outputs::require_json_system(system_path, "trim --out")?;
        super::outputs::refuse_overwrite(path, system_path)?;
    }
    let trim = solve_trim(&description, system_path, condition, method, verbose)?;
    if let Some(path) = summary_json {
        let text = serde_json::to_string_pretty(&trim.to_json())?;
        std::fs::write(path, text + "\n").with_context(|| format!("cannot write {}", path.display()))?;
    }
    if !trim.converged {
        let refused = out.map(|p| format!("; {} not written", p.display())).unwrap_or_default();
        anyhow::bail!("the trim did not converge to {:.1e} in {} iterations{refused}", trim.tolerance, trim.iterations);
    }
    if let Some(path) = out {
        let text = std::fs::read_to_string(system_path)?;
        let mut json: serde_json::Value = serde_json::from_str(&text)?;
        let to_dir = std::path::absolute(path)?.parent().map(Path::to_path_buf).unwrap_or_default();
        let to_dir = std::fs::canonicalize(&to_dir).unwrap_or(to_dir);
        trim.apply_json(&mut json, &description.base_dir, &to_dir)?;
        for assignment in &changes.set {
            super::outputs::apply_set_to_json(&mut json, assignment)?;
        }
        std::fs::write(path, serde_json::to_string_pretty(&json)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
        say!("trimmed system: {} (orchestrator run starts from the trim)", path.display());
    }
    Ok(())
}

/// Trims `description` (read from `system_path`) for `condition`, showing progress, and prints
/// the result.
pub fn solve_trim(
    description: &SystemDescription,
    system_path: &Path,
    condition: FlightCondition,
    method: JacobianMethod,
    verbose: bool,
) -> Result<Trim> {
    let mut fmus = fmu_cache(None);
    let logger = Arc::new(StderrLogger::new(verbose));
    let mut trimmer = Trimmer::new(description, &mut fmus, logger)?;
    let start = trimmer.start_from_system();
    let spinner = super::progress::Spinner::new();
    let trim = trimmer
        .trim(condition, start, method, |p| {
            spinner.say(&format!(
                "iteration {}: residual {:.2e}, {} trials, {} revolutions",
                p.iteration, p.residual, p.trials, p.revolutions
            ))
        })
        .with_context(|| format!("trim of {} failed", system_path.display()))?;
    spinner.finish();
    say!("{}", trim.to_text());
    Ok(trim)
}
