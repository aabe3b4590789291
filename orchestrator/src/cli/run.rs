//! `orchestrator run SYSTEM`: a run of a system description, its results, summary and plot, and
//! the check that a trimmable system starts trimmed.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use cosim::import::{FacadeLogger, process};
use cosim::master::{FmuCache, Interrupt, Master, MasterError, Results};
use cosim::result_files::{ColumnInfo, column_infos};
use cosim::system::{Experiment, SystemDescription};
use orchestrator::plot::{PlotOptions, plot_svg};
use orchestrator::trim::{RESIDUAL_NAMES, start_residual};
use rotorcraft::TrimSpec;

use super::csv_stream::CsvStream;
use super::options::{ExperimentChanges, ResultOptions, RunLimits, SystemChanges, fmu_cache};
use super::outputs::{OutputFiles, RunInputs};
use super::progress::Progress;
use super::realtime::{RealtimeArgs, RealtimeRun};

/// The options of `orchestrator run`.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// System description (JSON): FMUs, connections, experiment, master options, signals.
    /// Omit it for the built-in helicopter scenario.
    pub system: Option<PathBuf>,
    #[command(flatten)]
    pub changes: SystemChanges,
    #[command(flatten)]
    pub experiment: ExperimentChanges,
    #[command(flatten)]
    pub files: ResultOptions,
    /// Output folder of the built-in scenario (FMUs, trim, results, plot, summary); relative
    /// to the current directory.
    #[arg(long, default_value = "out")]
    pub out_dir: PathBuf,
    /// Print every FMU message, not only warnings and errors.
    #[arg(long)]
    pub verbose: bool,
    /// End the process (exit code 124) when one FMI call takes longer than this, s: the
    /// message names the instance, the function and the time; the CSV rows computed so far
    /// are kept (a .mat file is not written). For isolated instances the call's process is
    /// killed instead and the run ends with an ordinary error (results and summary written).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub fmu_timeout: Option<f64>,
    /// Run every FMU instance in a child process of its own (as `"isolate": true` on each
    /// entry of `fmus` does): a crash, `exit()` or hang of an FMU ends the run with an error
    /// naming the instance, the function and the time, with results and summary written.
    #[arg(long)]
    pub isolate: bool,
    /// Real-time runs: pacing, pilot inputs over UDP, FlightGear (boxed: the options are many).
    #[command(flatten)]
    pub realtime: Box<RealtimeArgs>,
}

/// `orchestrator run SYSTEM`: reads `system` (the `args.system` given), applies the command-line
/// changes and runs it.
pub fn run_file(system: &Path, args: RunArgs) -> Result<()> {
    let RunArgs { changes, experiment, mut files, verbose, fmu_timeout, isolate, realtime, .. } = args;
    let mut description = rotorcraft::read_system(system, &fmu_catalog::context())?;
    changes.apply(&mut description)?;
    experiment.apply(&mut description)?;
    let out = files.out.take().unwrap_or_else(|| PathBuf::from("results.csv"));
    let inputs = RunInputs::from_file(system)?;
    let title = changes.title(&system.display().to_string());
    let outputs = OutputFiles::new(out, &files)?;
    let limits = RunLimits::new(fmu_timeout, isolate)?;
    run(description, &title, &inputs, &outputs, &files, verbose, limits, &realtime)
}

/// Runs `description`, writing what `outputs` names. The CSV rows are written as they are
/// computed; on every end of the run (success, an error, SIGINT/SIGTERM) the CSV is flushed, a
/// MAT file is written with the rows so far, and the summary JSON says how the run ended.
/// `realtime` paces the run, takes pilot inputs and sends the state to FlightGear.
#[allow(clippy::too_many_arguments, reason = "the parts of a run, each from its own option group")]
pub fn run(
    mut description: SystemDescription,
    title: &str,
    inputs: &RunInputs,
    outputs: &OutputFiles,
    files: &ResultOptions,
    verbose: bool,
    limits: RunLimits,
    realtime: &RealtimeArgs,
) -> Result<()> {
    let (checked, added) = prepare(&mut description, &limits, realtime)?;
    let mut fmus = fmu_cache(limits.fmu_timeout);
    let system = description.resolve(|path| fmus.description(path))?;
    outputs.check_against(&description, &system, inputs.system_file())?;
    let mut columns = column_infos(&system);
    let experiment = system.experiment;
    let pilot_slots = realtime.pilot_slots(&description, &system)?;
    let logger = Arc::new(FacadeLogger::new(verbose));
    let mut master = Master::new(system, &mut fmus, logger)?;
    master.set_record_every(usize::try_from(files.record_every).unwrap_or(usize::MAX));
    let (mut live, hook) = RealtimeRun::open(realtime, pilot_slots, &description, master.recorded_names())?;
    if let Some(hook) = hook {
        master.set_step_hook(hook);
    }

    // The columns added for the trim check and for FlightGear are not written.
    columns.retain(|c| !added.contains(&c.name));
    let names = master.recorded_names().to_vec();
    let keep = (0..names.len()).filter(|&c| !added.contains(&names[c])).collect();
    let csv = outputs.start_csv(&names, keep, &columns)?.map(Arc::new);
    start_watchdog(limits.fmu_timeout, &csv)?;
    let inputs_json = inputs.to_json(&description);
    set_crash_hook(&csv, outputs.summary_json.clone(), &inputs_json, title);
    process::install_interrupt_flag();
    // SIGINT or SIGTERM ends the run at the last communication point completed.
    master.set_interrupt(Interrupt::new(|| process::interrupt_requested().map(process::signal_name)));

    let started = std::time::Instant::now();
    let limit = rows_to_keep(outputs, checked.is_some(), names.len());
    let mut kept = KeptRows::new(names, limit);
    let outcome = run_with_progress(&mut master, &mut kept, experiment, csv.as_deref(), &mut live);
    let wall_seconds = started.elapsed().as_secs_f64();
    warn_uninitialized_outputs(&master);
    if outcome.is_ok() && checked.is_some() {
        warn_if_not_trimmed(&description, &mut fmus, &kept.results);
    }
    let results = if added.is_empty() { kept.results } else { kept.results.without(&added) };
    let written = outputs.finish_results(csv.as_deref(), &results, &columns);
    let summary = master.summary(wall_seconds);
    let mut json = summary.to_json();
    json["inputs"] = inputs_json;
    let live = live.report();
    live.add_to(&mut json);
    if let Err(e) = &outcome {
        json["stop_reason"] = e.to_string().into();
        json["error"] = format!("run of {title} failed: {e}").into();
        json["rows_written"] = kept.count.into();
    }
    let write_summary = || write_summary_json(outputs.summary_json.as_deref(), &json);
    if let Err(e) = outcome {
        // Results and summary first, so that a failed write does not hide the run's error.
        if let Err(w) = written.and_then(|()| write_summary()) {
            eprintln!("error: {w:#}");
        }
        report_rows_so_far(outputs, kept.count, kept.last_time);
        return Err(anyhow::Error::new(e).context(format!("run of {title} failed")));
    }
    written?;
    say!("{}", summary.to_text());
    for line in live.to_text() {
        say!("{line}");
    }
    say!("results: {} ({} variables)", outputs.results.display(), results.names.len());
    plot(outputs, files, title, &results, &columns)?;
    write_summary()
}

/// Prepares `description` for a run: every instance isolated with `limits.isolate`, and the
/// variables that the start-trim check and FlightGear need added to the recorded ones. Returns
/// the trim-residual names added when the system is trimmable (`None` otherwise) and every name
/// added, to be dropped from the results again.
fn prepare(
    description: &mut SystemDescription,
    limits: &RunLimits,
    realtime: &RealtimeArgs,
) -> Result<(Option<Vec<String>>, Vec<String>)> {
    let checked = record_trim_residual(description);
    let fdm_outputs = realtime.fdm_outputs(description)?.unwrap_or_default();
    let mut added = checked.clone().unwrap_or_default();
    added.extend(record_also(description, fdm_outputs));
    if limits.isolate {
        for (_, fmu) in &mut description.fmus {
            fmu.isolate = true;
        }
    }
    Ok((checked, added))
}

/// Writes the summary `json` to `path`, if given.
fn write_summary_json(path: Option<&Path>, json: &serde_json::Value) -> Result<()> {
    if let Some(path) = path {
        std::fs::write(path, serde_json::to_string_pretty(json)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// Warns about each FMU the run found not to compute its outputs in initialization mode
/// (also listed as `uninitialized_outputs` in the summary).
fn warn_uninitialized_outputs(master: &Master) {
    for instance in master.uninitialized_outputs() {
        let consequence = "the run's first step used 0 for them";
        eprintln!("warning: {}", orchestrator::trim::uninitialized_outputs_warning(instance, consequence));
    }
}

/// With `--fmu-timeout`: the watchdog that ends the process when one FMI call takes longer than
/// `limit`, flushing the CSV rows written so far first.
fn start_watchdog(limit: Option<std::time::Duration>, csv: &Option<Arc<CsvStream>>) -> Result<()> {
    if let Some(limit) = limit {
        let csv = csv.clone();
        process::start_watchdog(
            limit,
            Box::new(move || {
                // The writer thread holds the file only while it writes rows: wait up to a second.
                if let Some(csv) = &csv {
                    csv.flush_within(std::time::Duration::from_secs(1));
                }
            }),
        )
        .context("cannot start the --fmu-timeout watchdog")?;
    }
    Ok(())
}

/// Values (rows times columns) kept for the start-trim check of a CSV run without a plot: the
/// first rotor revolution is a few hundred rows; 8 MB at most.
const TRIM_CHECK_VALUES: usize = 1 << 20;

/// How many rows (of `width` values) a run keeps in memory besides streaming them to the CSV:
/// all of them for a MAT file or a plot, the first ones for the start-trim check, none otherwise
/// (the memory of a long CSV run stays flat).
fn rows_to_keep(outputs: &OutputFiles, trim_check: bool, width: usize) -> usize {
    if outputs.units.is_none() || outputs.plot.is_some() {
        usize::MAX
    } else if trim_check {
        TRIM_CHECK_VALUES / width.max(1)
    } else {
        0
    }
}

/// The rows of a run that are kept in memory (the first `limit`), and how many were recorded.
struct KeptRows {
    results: Results,
    limit: usize,
    /// Rows recorded, kept or not.
    count: usize,
    /// Time of the last row recorded, s.
    last_time: Option<f64>,
}

impl KeptRows {
    fn new(names: Vec<String>, limit: usize) -> Self {
        Self { results: Results::new(names, 0), limit, count: 0, last_time: None }
    }

    fn push(&mut self, t: f64, row: &[f64]) {
        if self.count < self.limit {
            self.results.push(t, row);
        }
        self.count += 1;
        self.last_time = Some(t);
    }
}

/// Runs `master`, showing progress, streaming every row to `csv`, keeping what `kept` keeps and
/// handing each row to `live` (FlightGear).
fn run_with_progress(
    master: &mut Master,
    kept: &mut KeptRows,
    experiment: Experiment,
    csv: Option<&CsvStream>,
    live: &mut RealtimeRun,
) -> Result<(), MasterError> {
    let mut progress = Progress::new(experiment.steps() as u64, experiment.start, experiment.stop);
    let mut first = true;
    let outcome = master.run_with(|t, row| {
        if !std::mem::take(&mut first) {
            progress.step(t);
        }
        if let Some(csv) = csv {
            csv.push(t, row);
        }
        kept.push(t, row);
        live.on_row(t, row);
    });
    progress.finish();
    outcome
}

/// When the process ends inside an FMU call: the CSV rows computed so far are written out (a
/// fatal signal or `exit()`), and after an `exit()` the summary says how the run ended.
fn set_crash_hook(
    csv: &Option<Arc<CsvStream>>,
    summary_json: Option<PathBuf>,
    inputs: &serde_json::Value,
    title: &str,
) {
    let csv = csv.clone();
    let (inputs, title) = (inputs.clone(), title.to_string());
    process::set_crash_hook(Box::new(move |kind| {
        // Both locks are taken by the stepping and writer threads only briefly: wait up to a second.
        if let Some(csv) = &csv {
            csv.flush_within(std::time::Duration::from_secs(1));
        }
        // After a fatal signal nothing may allocate (the crash may have been inside malloc).
        if kind != process::CrashKind::Exit {
            return;
        }
        let (Some(path), Some((instance, function, time))) = (&summary_json, process::current_call()) else {
            return;
        };
        let time = process::time_text(time);
        let error = format!("instance '{instance}' called exit() during {function} at t = {time} s");
        let json = serde_json::json!({
            "error": format!("run of {title} failed: {error}"),
            "stop_reason": error,
            "rows_written": csv.as_ref().map(|csv| csv.rows_written()),
            "inputs": inputs,
        });
        if let Ok(text) = serde_json::to_string_pretty(&json) {
            let _ = std::fs::write(path, text + "\n");
        }
    }));
}

/// After a failed run: where the `count` rows computed so far (the last at `last_time`) are.
fn report_rows_so_far(outputs: &OutputFiles, count: usize, last_time: Option<f64>) {
    match last_time {
        Some(t) => eprintln!("results so far: {} ({count} rows, to t = {t} s)", outputs.results.display()),
        None => {
            eprintln!("results so far: {} (header only: no communication point reached)", outputs.results.display())
        }
    }
}

/// With `--plot`: the recorded variables over time.
fn plot(
    outputs: &OutputFiles,
    files: &ResultOptions,
    title: &str,
    results: &Results,
    columns: &[ColumnInfo],
) -> Result<()> {
    if let Some(path) = &outputs.plot {
        let options = PlotOptions {
            title: title.to_string(),
            variables: files.plot_vars.clone(),
            degrees: files.degrees,
            x_label: None,
        };
        plot_svg(results, columns, path, &options)?;
        say!("plot: {}", path.display());
    }
    Ok(())
}

/// For a system with a `trim` section, adds its airframe's `free.*` accelerations to the
/// recorded variables (when a list is given and lacks them), for [`warn_if_not_trimmed`];
/// returns the names added, to be dropped from the results again.
fn record_trim_residual(description: &mut SystemDescription) -> Option<Vec<String>> {
    let airframe = TrimSpec::of(description).ok().flatten()?.airframe;
    let names: Vec<String> = RESIDUAL_NAMES.iter().map(|r| format!("{airframe}.{r}")).collect();
    Some(record_also(description, names))
}

/// Adds `names` to the recorded variables when a list is given and lacks them; returns the
/// names added, to be dropped from the results again.
fn record_also(description: &mut SystemDescription, names: Vec<String>) -> Vec<String> {
    let mut added = Vec::new();
    if let Some(outputs) = description.outputs.as_mut() {
        for name in names {
            if !outputs.contains(&name) {
                outputs.push(name.clone());
                added.push(name);
            }
        }
    }
    added
}

/// Warns when the run of a trimmable system did not start trimmed: its airframe accelerations
/// averaged over the first rotor revolution exceed ten times the trim tolerance (a swapped FMU
/// or changed parameter invalidates a stored trim).
fn warn_if_not_trimmed(description: &SystemDescription, fmus: &mut FmuCache, results: &cosim::master::Results) {
    let Ok(Some(spec)) = TrimSpec::of(description) else { return };
    match start_residual(description, fmus, results) {
        Ok(Some(residual)) => {
            let (k, largest) = residual
                .iter()
                .enumerate()
                .fold((0, 0.0f64), |(k, m), (i, r)| if r.abs() > m { (i, r.abs()) } else { (k, m) });
            if largest > 10.0 * spec.tolerance {
                eprintln!(
                    "warning: the start is not trimmed: over the first rotor revolution the airframe's {} averages \
                     {:.3e} (trim tolerance {:.0e}); `orchestrator trim SYSTEM.json --out trimmed.json` gives a trimmed start",
                    RESIDUAL_NAMES[k], residual[k], spec.tolerance
                );
            }
        }
        Ok(None) => {}
        Err(e) => eprintln!("warning: cannot check whether the start is trimmed: {e}"),
    }
}
