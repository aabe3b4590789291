//! Recorded trajectories, their CSV form (FMPy-style quoted header, time first) and the run
//! summary.

use std::io::{self, Write};
use std::path::Path;

/// Recorded values at every communication point.
#[derive(Debug, Clone, PartialEq)]
pub struct Results {
    /// Column names, `instance.variable`.
    pub names: Vec<String>,
    /// Communication points, s.
    pub time: Vec<f64>,
    /// Row-major values, `time.len() x names.len()`.
    pub values: Vec<f64>,
}

impl Results {
    /// Empty results with room for `rows` rows.
    pub fn new(names: Vec<String>, rows: usize) -> Self {
        let width = names.len();
        Results { names, time: Vec::with_capacity(rows), values: Vec::with_capacity(rows * width) }
    }

    /// Appends one row.
    pub fn push(&mut self, t: f64, row: &[f64]) {
        self.time.push(t);
        self.values.extend_from_slice(row);
    }

    /// The column of a variable, if recorded.
    pub fn column(&self, name: &str) -> Option<Vec<f64>> {
        let c = self.names.iter().position(|n| n == name)?;
        let w = self.names.len();
        Some((0..self.time.len()).map(|r| self.values[r * w + c]).collect())
    }

    /// The same results without the columns named in `drop`.
    pub fn without(&self, drop: &[String]) -> Results {
        let keep: Vec<usize> = (0..self.names.len()).filter(|&c| !drop.contains(&self.names[c])).collect();
        let mut out = Results::new(keep.iter().map(|&c| self.names[c].clone()).collect(), self.time.len());
        let w = self.names.len();
        let mut row = Vec::with_capacity(keep.len());
        for (r, &t) in self.time.iter().enumerate() {
            row.clear();
            row.extend(keep.iter().map(|&c| self.values[r * w + c]));
            out.push(t, &row);
        }
        out
    }

    /// Writes CSV: `"time","inst.var",...` then one row per communication point, each number
    /// printed so that it reads back exactly.
    pub fn write_csv(&self, out: &mut impl Write) -> io::Result<()> {
        write_csv_header(out, &self.names)?;
        let w = self.names.len();
        for (r, &t) in self.time.iter().enumerate() {
            write_csv_row(out, t, &self.values[r * w..(r + 1) * w])?;
        }
        Ok(())
    }

    /// Writes the CSV to a file.
    pub fn save_csv(&self, path: &Path) -> io::Result<()> {
        let mut f = io::BufWriter::new(std::fs::File::create(path)?);
        self.write_csv(&mut f)?;
        f.flush()
    }
}

/// Writes the CSV header line of [`Results::write_csv`]: `"time","inst.var",...`.
pub fn write_csv_header(out: &mut impl Write, names: &[String]) -> io::Result<()> {
    write!(out, "\"time\"")?;
    for n in names {
        write!(out, ",\"{}\"", n.replace('"', "\"\""))?;
    }
    writeln!(out)
}

/// Writes one CSV row of [`Results::write_csv`]: the time, then the values, each printed so that
/// it reads back exactly.
pub fn write_csv_row(out: &mut impl Write, t: f64, row: &[f64]) -> io::Result<()> {
    // zmij: the shortest text that reads back as the same f64 (as `{:?}`), without the
    // formatting machinery's cost, which dominated long runs of small FMUs.
    let mut text = zmij::Buffer::new();
    out.write_all(text.format(t).as_bytes())?;
    for &v in row {
        out.write_all(b",")?;
        out.write_all(text.format(v).as_bytes())?;
    }
    out.write_all(b"\n")
}

/// The figures of a run, printed at the end and written by `--summary-json`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    /// Macro steps taken (the experiment's grid intervals completed; fewer than planned when
    /// the run ended early).
    pub steps: usize,
    /// Communication points solved (more than `steps` when steps were retried smaller).
    pub communication_points: usize,
    /// Simulated interval, s.
    pub simulated_seconds: f64,
    /// Wall-clock time of initialization and stepping, s.
    pub wall_seconds: f64,
    /// Newton iterations per communication point: mean.
    pub newton_iterations_mean: f64,
    /// Newton iterations per communication point: maximum.
    pub newton_iterations_max: usize,
    /// Largest final residual of any loop (max-norm).
    pub max_residual: f64,
    /// Loop Newton matrices computed from directional derivatives and factorised.
    pub jacobian_updates: usize,
    /// Steps rolled back and retried.
    pub rollbacks: usize,
    /// Algebraic loops found, as their member variables.
    pub loops: Vec<Vec<String>>,
    /// Warnings.
    pub warnings: Vec<String>,
    /// Loops coupled with a one-step delay (an FMU in them with neither directional derivatives
    /// nor get-after-set), as their members.
    pub delayed_loops: Vec<String>,
    /// Why the run ended before the stop time (an FMU terminated the simulation), if it did.
    pub stop_reason: Option<String>,
    /// Instances that do not compute their outputs in initialization mode
    /// ([`crate::master::Master::uninitialized_outputs`]).
    pub uninitialized_outputs: Vec<String>,
}

impl RunSummary {
    /// Simulated seconds per wall-clock second.
    pub fn real_time_factor(&self) -> f64 {
        if self.wall_seconds > 0.0 { self.simulated_seconds / self.wall_seconds } else { f64::INFINITY }
    }

    /// As JSON.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "steps": self.steps,
            "communication_points": self.communication_points,
            "simulated_seconds": self.simulated_seconds,
            "wall_seconds": self.wall_seconds,
            "real_time_factor": self.real_time_factor(),
            "newton_iterations": { "mean": self.newton_iterations_mean, "max": self.newton_iterations_max },
            "max_residual": self.max_residual,
            "jacobian_updates": self.jacobian_updates,
            "rollbacks": self.rollbacks,
            "loops": self.loops,
            "warnings": self.warnings,
            "delayed_loops": self.delayed_loops,
            "stop_reason": self.stop_reason,
            "uninitialized_outputs": self.uninitialized_outputs,
        })
    }

    /// Human-readable lines.
    pub fn to_text(&self) -> String {
        let mut notes = self.stop_reason.as_ref().map(|r| format!("\nstopped early: {r}")).unwrap_or_default();
        for members in &self.delayed_loops {
            notes += &format!(
                "\nloop {{{members}}} coupled with a one-step delay (an FMU in it has neither directional derivatives \
                 nor get-after-set)"
            );
        }
        format!(
            "steps: {} ({} communication points, {} rollbacks)\n\
             simulated: {:.6} s in {:.3} s wall, real-time factor {:.1}\n\
             algebraic loops: {}; Newton iterations per point: mean {:.2}, max {}; max residual {:.3e}; \
             Jacobian updates {}{notes}",
            self.steps,
            self.communication_points,
            self.rollbacks,
            self.simulated_seconds,
            self.wall_seconds,
            self.real_time_factor(),
            self.loops.len(),
            self.newton_iterations_mean,
            self.newton_iterations_max,
            self.max_residual,
            self.jacobian_updates,
        )
    }
}
