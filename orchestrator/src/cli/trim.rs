//! `orchestrator trim`: trim a system, print the result and write the trimmed system.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use cosim::import::FacadeLogger;
use cosim::system::SystemDescription;
use orchestrator::trim::{FlightCondition, JacobianMethod, Trim, Trimmer};

use super::options::SystemChanges;
use super::options::fmu_cache;

/// The options of `orchestrator trim`.
#[derive(Args, Debug, Clone)]
pub struct TrimArgs {
    /// System description (JSON) with a `trim` section.
    pub system: PathBuf,
    /// Airspeed of level flight, m/s (0: hover).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub speed: f64,
    /// Turn rate of a level coordinated turn, deg/s (positive: to the right).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub turn_rate: f64,
    #[command(flatten)]
    pub changes: SystemChanges,
    /// Write the trimmed system description here: `orchestrator run` on it starts from the
    /// trim. Refused when the trim does not converge.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write the trim figures (controls, attitude, residual, iterations, trials,
    /// revolutions, wall time) as JSON.
    #[arg(long)]
    pub summary_json: Option<PathBuf>,
    /// Jacobian updates: `broyden` (differenced once, then rank-one updates), `linearized`
    /// (from the linearised system, exact directional derivatives of the FMUs as Model
    /// Exchange, then rank-one updates: no trials spent on it) or `fd` (re-differenced every
    /// iteration; for comparison).
    #[arg(long, default_value = "broyden", value_parser = ["broyden", "fd", "linearized"])]
    pub jacobian: String,
    /// Print every FMU message, not only warnings and errors.
    #[arg(long)]
    pub verbose: bool,
}

/// The `--jacobian` of `orchestrator trim` (`broyden`, `fd`, `linearized`).
pub fn jacobian_method(name: &str) -> JacobianMethod {
    match name {
        "fd" => JacobianMethod::FiniteDifference,
        "linearized" => JacobianMethod::Linearized,
        _ => JacobianMethod::Broyden,
    }
}

/// `orchestrator trim`: trims the system `args.system` (with the `--set` changes) for the flight
/// condition asked, writes the summary and, when the trim converged, the trimmed system.
pub fn trim(args: &TrimArgs) -> Result<()> {
    let condition = FlightCondition { speed: args.speed, turn_rate: args.turn_rate.to_radians() };
    let method = jacobian_method(&args.jacobian);
    let (system_path, changes, verbose) = (args.system.as_path(), &args.changes, args.verbose);
    let (out, summary_json) = (args.out.as_deref(), args.summary_json.as_deref());
    let mut description = rotorcraft::read_system(system_path, &fmu_catalog::context())?;
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
    let logger = Arc::new(FacadeLogger::new(verbose));
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
