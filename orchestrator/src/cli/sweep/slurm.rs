//! The Slurm job script of `sweep --slurm TASKS`: a job array whose task `k` runs every
//! `TASKS`-th point from `k` with `--jobs` points at a time on as many reserved cores.

use std::path::Path;
use std::time::Duration;

/// What the job script runs.
pub struct JobScript<'a> {
    /// The orchestrator executable (absolute).
    pub exe: &'a Path,
    /// The sweep file (absolute).
    pub sweep_file: &'a Path,
    /// The output folder (absolute).
    pub dir: &'a Path,
    /// Array tasks.
    pub tasks: usize,
    /// Points each task runs at a time, and the cores it asks for (`--cpus-per-task`).
    pub jobs: usize,
    /// `--point-timeout`, passed on.
    pub point_timeout: Option<Duration>,
}

impl JobScript<'_> {
    /// The text of `sweep.sbatch`.
    pub fn text(&self) -> String {
        let timeout = self.point_timeout.map(|t| format!(" --point-timeout {}", t.as_secs_f64())).unwrap_or_default();
        format!(
            "#!/bin/bash\n#SBATCH --job-name=orchestrator-sweep\n#SBATCH --array=0-{last}\n\
             #SBATCH --output={output}\n#SBATCH --cpus-per-task={jobs}\n\
             # One array task runs every {tasks}-th point of the sweep, {jobs} at a time; results go to the shared DIR.\n\
             exec {exe} sweep {sweep} --out {dir} --chunk \"$SLURM_ARRAY_TASK_ID\" --chunks {tasks} --jobs {jobs}{timeout}\n",
            last = self.tasks - 1,
            output = sbatch_quote(&format!("{}/slurm-%A_%a.out", filename_pattern_literal(self.dir))),
            jobs = self.jobs,
            tasks = self.tasks,
            exe = shell_quote(self.exe),
            sweep = shell_quote(self.sweep_file),
            dir = shell_quote(self.dir),
        )
    }
}

/// `path` quoted for bash: in single quotes, each `'` as `'\''`.
fn shell_quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}

/// An `#SBATCH` option value as sbatch reads it: in double quotes (an argument ends at blank
/// space otherwise), `\` and `"` escaped with `\`.
fn sbatch_quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `dir` in a Slurm filename pattern, where `%` starts a replacement: `%` as `%%`.
fn filename_pattern_literal(dir: &Path) -> String {
    dir.display().to_string().replace('%', "%%")
}
