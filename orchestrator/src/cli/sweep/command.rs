//! The options of `orchestrator sweep` and what each way of running it does.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::Sweep;

/// The options of `orchestrator sweep`.
#[derive(Args, Debug, Clone)]
pub struct SweepArgs {
    /// Sweep file (JSON): system, work (`run` or `trim`), grid / list / random points.
    pub sweep: PathBuf,
    /// Output folder.
    #[arg(long)]
    pub out: PathBuf,
    /// Points run at the same time (default: the number of cores; with --slurm, per array
    /// task, which reserves as many cores: default 1).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// End a point (its process group) that has not finished after this many seconds, and
    /// record it as failed (default: no limit).
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    pub point_timeout: Option<std::time::Duration>,
    /// Only collect the finished points into sweep.csv and the plot (after a Slurm run).
    #[arg(long)]
    pub gather: bool,
    /// Submit the points as a Slurm job array (`sbatch`) of this many tasks instead of running them here.
    #[arg(long, value_name = "TASKS")]
    pub slurm: Option<usize>,
    /// Options passed to `sbatch` (e.g. `--sbatch-option=--partition=short`); repeatable.
    #[arg(long = "sbatch-option", value_name = "OPTION", allow_hyphen_values = true)]
    pub sbatch_options: Vec<String>,
    /// Run only every CHUNKS-th point from CHUNK (what one Slurm array task does).
    #[arg(long, requires = "chunks")]
    pub chunk: Option<usize>,
    /// Number of chunks (Slurm array tasks).
    #[arg(long, requires = "chunk")]
    pub chunks: Option<usize>,
    /// Internal (`"process": "chunk"`): run the points listed on stdin in this process, as
    /// worker TASK of the sweep.
    #[arg(long, hide = true, value_name = "TASK")]
    pub worker: Option<String>,
}

/// `orchestrator sweep`: a worker's points (`--worker`), the collection of finished points
/// (`--gather`), a Slurm submission (`--slurm`) or a run here, `--jobs` points at a time.
pub fn sweep(args: SweepArgs) -> Result<()> {
    let SweepArgs { sweep, out, jobs, point_timeout, gather, slurm, sbatch_options, chunk, chunks, worker } = args;
    let plan = Sweep::from_file(&sweep)?;
    if let Some(task) = worker {
        plan.work(&out, &task)
    } else if gather {
        plan.gather(&out)
    } else if let Some(tasks) = slurm {
        anyhow::ensure!(jobs != Some(0), "--jobs must be at least 1");
        plan.submit_slurm(&sweep, &out, (tasks, jobs.unwrap_or(1)), point_timeout, &sbatch_options)
    } else {
        let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        anyhow::ensure!(jobs >= 1, "--jobs must be at least 1");
        let chunk = chunk.zip(chunks);
        if let Some((k, n)) = chunk {
            anyhow::ensure!(n >= 1 && k < n, "--chunk must be below --chunks");
        }
        plan.run(&out, jobs, chunk, point_timeout)
    }
}

/// A positive number of seconds as a duration (`--point-timeout`).
fn positive_seconds(text: &str) -> Result<std::time::Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0)
        .and_then(|s| std::time::Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| "expected a positive number of seconds".to_string())
}
