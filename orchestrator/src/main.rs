//! `orchestrator`: the command-line front end of the rotorcraft co-simulation toolkit.
#![deny(unsafe_code)]

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use cli::options::RunLimits;
use cosim::import::{host, inspect, process, read_model_description};
use orchestrator::trim::FlightCondition;

/// `println!` that does not panic when stdout is closed (`orchestrator run | head -1`): the
/// message is dropped and the work goes on, so results and summaries are still written.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

mod cli;

/// Rotorcraft flight as coupled FMI 2.0 co-simulation units.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Extract every FMU into a temporary directory of its own instead of using the extraction
    /// cache ($ROTORCRAFT_FMU_CACHE, else $XDG_CACHE_HOME/rotorcraft/fmus or
    /// ~/.cache/rotorcraft/fmus; ROTORCRAFT_FMU_CACHE=off does the same as this option).
    #[arg(long, global = true)]
    no_fmu_cache: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Run a coupled system described in JSON and write the results. Without a system: the
    /// built-in helicopter (examples/helicopter.json) is packaged, trimmed in hover and flown
    /// for 4 s with a lateral-cyclic step, writing results, plot, trim and summary into --out-dir.
    Run {
        /// System description (JSON): FMUs, connections, experiment, master options, signals.
        /// Omit it for the built-in helicopter scenario.
        system: Option<PathBuf>,
        #[command(flatten)]
        changes: SystemChanges,
        #[command(flatten)]
        experiment: ExperimentChanges,
        #[command(flatten)]
        files: ResultOptions,
        /// Output folder of the built-in scenario (FMUs, trim, results, plot, summary); relative
        /// to the current directory.
        #[arg(long, default_value = "out")]
        out_dir: PathBuf,
        /// Print every FMU message, not only warnings and errors.
        #[arg(long)]
        verbose: bool,
        /// End the process (exit code 124) when one FMI call takes longer than this, s: the
        /// message names the instance, the function and the time; the CSV rows computed so far
        /// are kept (a .mat file is not written). For isolated instances the call's process is
        /// killed instead and the run ends with an ordinary error (results and summary written).
        #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
        fmu_timeout: Option<f64>,
        /// Run every FMU instance in a child process of its own (as `"isolate": true` on each
        /// entry of `fmus` does): a crash, `exit()` or hang of an FMU ends the run with an error
        /// naming the instance, the function and the time, with results and summary written.
        #[arg(long)]
        isolate: bool,
    },
    /// Trim a system for a steady flight condition (hover, level flight, level turn): find the
    /// controls and airframe attitude at which the revolution-averaged airframe accelerations
    /// vanish with the rotor in periodic steady state. Needs a `trim` section in the system.
    Trim {
        /// System description (JSON) with a `trim` section.
        system: PathBuf,
        /// Airspeed of level flight, m/s (0: hover).
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        speed: f64,
        /// Turn rate of a level coordinated turn, deg/s (positive: to the right).
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        turn_rate: f64,
        #[command(flatten)]
        changes: SystemChanges,
        /// Write the trimmed system description here: `orchestrator run` on it starts from the
        /// trim. Refused when the trim does not converge.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Also write the trim figures (controls, attitude, residual, iterations, trials,
        /// revolutions, wall time) as JSON.
        #[arg(long)]
        summary_json: Option<PathBuf>,
        /// Jacobian updates: `broyden` (differenced once, then rank-one updates), `linearized`
        /// (from the linearised system, exact directional derivatives of the FMUs as Model
        /// Exchange, then rank-one updates: no trials spent on it) or `fd` (re-differenced every
        /// iteration; for comparison).
        #[arg(long, default_value = "broyden", value_parser = ["broyden", "fd", "linearized"])]
        jacobian: String,
        /// Print every FMU message, not only warnings and errors.
        #[arg(long)]
        verbose: bool,
    },
    /// Linearise a system about its start (or a trim): the state-space model `x' = A x + B u`,
    /// `y = C x + D u` of the coupled system with the algebraic loop eliminated exactly, from
    /// the FMUs' exact directional derivatives (they must offer Model Exchange), and its
    /// eigenvalues with frequency, damping and the name of the dominant states. Writes OUT (JSON)
    /// and OUT with extension .mat (MAT v4: A, B, C, D, names).
    Linearize {
        /// System description (JSON).
        system: PathBuf,
        /// The JSON file to write; the MAT file goes beside it.
        #[arg(long, default_value = "lin.json")]
        out: PathBuf,
        /// An external input of the system (`instance.variable`, as in its `inputs`) to keep as
        /// a model input; repeatable; default: all of them (for the helicopter, the pilot
        /// controls).
        #[arg(long = "input", value_name = "INSTANCE.VAR")]
        inputs: Vec<String>,
        #[command(flatten)]
        trim: TrimFirst,
        /// Keep the states that take no part (unused blades, locked hinges, inflow states the
        /// chosen inflow model does not use); by default they are removed and listed.
        #[arg(long, conflicts_with = "multiblade")]
        keep_inert: bool,
        /// Also write the frequency response from INPUT (one of the model's inputs) to OUTPUT (a
        /// recorded output): OUT.bode.csv and the Bode diagram OUT.bode.svg, 0.01 to 30 Hz;
        /// repeatable.
        #[arg(long = "bode", value_name = "INPUT:OUTPUT")]
        bode: Vec<String>,
        /// Also compute the Floquet exponents of the periodic system over one rotor revolution
        /// from this many linearisations along the co-simulated trajectory (forward flight,
        /// where the multiblade system stays periodic): printed and written as `floquet`.
        #[arg(long, value_name = "SAMPLES")]
        floquet: Option<usize>,
        /// Express the blade states of every rotor with 3 or more blades in multiblade
        /// coordinates (collective, cyclic, differential): time-invariant in hover and axial
        /// flight, and the cyclic modes named regressive or progressive.
        #[arg(long)]
        multiblade: bool,
        #[command(flatten)]
        changes: SystemChanges,
        /// Print every FMU message, not only warnings and errors.
        #[arg(long)]
        verbose: bool,
    },
    /// The modes of a system (as `linearize` computes them) at one point or over a parameter
    /// sweep: DIR/modes.csv (eigenvalue, frequency, damping, mode name per point), the eigenvalue
    /// map or root locus DIR/eigenvalues.svg, and for a sweep DIR/frequency-damping.svg
    /// (frequency and damping of each mode against the swept parameter: the ground-resonance
    /// chart when the rotor speed is swept).
    Modes {
        /// System description (JSON).
        system: PathBuf,
        /// Output folder; created if missing.
        #[arg(long, default_value = "modes")]
        out: PathBuf,
        /// A parameter and its values, `INSTANCE.PARAM=V1,V2,...`; repeatable: several are varied
        /// together (the same number of values each), the first is the chart's axis.
        #[arg(long = "sweep", value_name = "INSTANCE.PARAM=V1,V2,...")]
        sweeps: Vec<String>,
        #[command(flatten)]
        trim: TrimFirst,
        /// Blade states in multiblade coordinates (see `linearize`).
        #[arg(long)]
        multiblade: bool,
        /// At every point, the Floquet exponents of the periodic system over one rotor revolution
        /// from this many linearisations along the trajectory (see `linearize`) instead of the
        /// eigenvalues at the start azimuth: needed where the multiblade system depends on the
        /// azimuth (dissimilar blades, forward flight), which `modes --multiblade` warns about.
        #[arg(long, value_name = "SAMPLES")]
        floquet: Option<usize>,
        #[command(flatten)]
        changes: SystemChanges,
        /// Print every FMU message, not only warnings and errors.
        #[arg(long)]
        verbose: bool,
    },
    /// Run or trim a system at many points (a grid, a list or random samples of parameters,
    /// trim conditions or experiment settings), each in its own process, `--jobs` at a time;
    /// resumable; writes DIR/sweep.csv (a row per point), DIR/sweep.svg and DIR/points/<id>/.
    Sweep {
        /// Sweep file (JSON): system, work (`run` or `trim`), grid / list / random points.
        sweep: PathBuf,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
        /// Points run at the same time (default: the number of cores; with --slurm, per array
        /// task, which reserves as many cores: default 1).
        #[arg(long)]
        jobs: Option<usize>,
        /// End a point (its process group) that has not finished after this many seconds, and
        /// record it as failed (default: no limit).
        #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
        point_timeout: Option<std::time::Duration>,
        /// Only collect the finished points into sweep.csv and the plot (after a Slurm run).
        #[arg(long)]
        gather: bool,
        /// Submit the points as a Slurm job array (`sbatch`) of this many tasks instead of running them here.
        #[arg(long, value_name = "TASKS")]
        slurm: Option<usize>,
        /// Options passed to `sbatch` (e.g. `--sbatch-option=--partition=short`); repeatable.
        #[arg(long = "sbatch-option", value_name = "OPTION", allow_hyphen_values = true)]
        sbatch_options: Vec<String>,
        /// Run only every CHUNKS-th point from CHUNK (what one Slurm array task does).
        #[arg(long, requires = "chunks")]
        chunk: Option<usize>,
        /// Number of chunks (Slurm array tasks).
        #[arg(long, requires = "chunk")]
        chunks: Option<usize>,
        /// Internal (`"process": "chunk"`): run the points listed on stdin in this process, as
        /// worker TASK of the sweep.
        #[arg(long, hide = true, value_name = "TASK")]
        worker: Option<String>,
    },
    /// Write a system for other tools: as an SSP 1.0 archive (`--ssp`: SystemStructure.ssd and the
    /// FMUs; `orchestrator run X.ssp` reads it back) or as one FMI 2.0 Co-Simulation FMU (`--fmu`:
    /// our Newton master inside, the FMUs as resources).
    #[command(group(clap::ArgGroup::new("format").required(true).args(["ssp", "fmu"])))]
    Export {
        /// System description (JSON).
        system: PathBuf,
        /// The `.ssp` archive to write.
        #[arg(long)]
        ssp: Option<PathBuf>,
        /// The system FMU to write.
        #[arg(long)]
        fmu: Option<PathBuf>,
        /// System FMU: inner inputs to expose, `instance.variable` with `*` (repeatable; default:
        /// the inputs the system's `inputs` drive).
        #[arg(long = "input", value_name = "PATTERN", requires = "fmu")]
        inputs: Vec<String>,
        /// System FMU: values to expose as outputs (repeatable; default: the recorded `outputs`).
        #[arg(long = "output", value_name = "PATTERN", requires = "fmu")]
        outputs: Vec<String>,
        /// System FMU: inner parameters to expose (repeatable; default: none).
        #[arg(long = "parameter", value_name = "PATTERN", requires = "fmu")]
        parameters: Vec<String>,
        /// System FMU: its modelIdentifier (default: the JSON file's name).
        #[arg(long, requires = "fmu")]
        model_identifier: Option<String>,
        /// System FMU: folder of libRotorcraftSystem.so (default: beside this executable).
        #[arg(long, requires = "fmu")]
        lib_dir: Option<PathBuf>,
    },
    /// List an FMU's model description: capabilities, variables, output dependencies.
    Inspect {
        /// The `.fmu` file.
        fmu: PathBuf,
    },
    /// Serve one isolated FMU instance on standard input (a socket made by the parent
    /// orchestrator); started by `run --isolate`, not by hand.
    #[command(hide = true)]
    FmuHost,
    /// The FMU extraction cache: each FMU is extracted once per content and reused by later
    /// runs and sweep points. Without an action, lists its entries and their sizes.
    Cache {
        #[command(subcommand)]
        action: Option<CacheAction>,
    },
    /// Write our FMUs (Fuselage.fmu, ...) as standard FMI 2.0 Co-Simulation archives.
    Package {
        /// Output directory; created if missing.
        #[arg(long, default_value = "fmus")]
        out: PathBuf,
        /// Directory holding the built shared libraries (default: next to this executable).
        #[arg(long)]
        lib_dir: Option<PathBuf>,
    },
}

/// What `orchestrator cache` does.
#[derive(Subcommand, Debug, Clone, Copy)]
enum CacheAction {
    /// List the entries and their sizes (the default).
    List,
    /// Remove the cache directory and everything in it.
    Clear,
}

/// `--trim [--speed V] [--turn-rate R]` and `--settle T`: trim or settle first, for `linearize`
/// and `modes` (at every point).
#[derive(Args, Debug, Clone, Default)]
struct TrimFirst {
    /// Trim first (needs the system's `trim` section) and linearise about the trim.
    #[arg(long)]
    trim: bool,
    /// With --trim: airspeed of level flight, m/s (0: hover).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true, requires = "trim")]
    speed: f64,
    /// With --trim: turn rate of a level coordinated turn, deg/s.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true, requires = "trim")]
    turn_rate: f64,
    /// Co-simulate this many seconds from the start (or the trim) first and linearise about the
    /// state reached: the settled state of a helicopter on its gear with the rotor turning, or
    /// of any system that comes to rest or to a steady rotation (with --floquet, the
    /// revolution starts there).
    #[arg(long, value_name = "SECONDS")]
    settle: Option<f64>,
}

/// Changes to a system description given on the command line.
#[derive(Args, Debug, Clone, Default)]
struct SystemChanges {
    /// Set a parameter, or replace the signal of a driven input by a constant:
    /// `INSTANCE.VARIABLE=VALUE` (a number, true or false); repeatable.
    #[arg(long = "set", value_name = "INSTANCE.VAR=VALUE", allow_hyphen_values = true)]
    set: Vec<String>,
}

/// Changes to the experiment and the recording of a run.
#[derive(Args, Debug, Clone, Default)]
struct ExperimentChanges {
    /// Start time, s (replaces experiment.start).
    #[arg(long, allow_negative_numbers = true)]
    start: Option<f64>,
    /// Stop time, s (replaces experiment.stop).
    #[arg(long, allow_negative_numbers = true)]
    stop: Option<f64>,
    /// Communication step, s (replaces experiment.step).
    #[arg(long, allow_negative_numbers = true)]
    step: Option<f64>,
    /// Variables to record, as in the JSON `outputs` (`fuselage.*`, `rotor.blade[*].flap`);
    /// repeatable; replaces the system's list.
    #[arg(long = "output", value_name = "PATTERN")]
    output: Vec<String>,
    /// Threads that step and read independent FMUs at once (replaces master.threads, default
    /// 1); the results do not depend on it.
    #[arg(long)]
    threads: Option<u32>,
}

/// Where and how results are written.
#[derive(Args, Debug, Clone, Default)]
pub struct ResultOptions {
    /// Results file: `.csv` (FMPy-style quoted header, time first; the units go to
    /// `<name>.units.csv` beside it) or `.mat` (MAT v4 trajectory file as written by Dymola and
    /// OpenModelica). Default `results.csv`, or `OUT_DIR/results.csv` for the built-in scenario.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write the run figures (steps, wall time, real-time factor, Newton iterations,
    /// residuals) and what was run (system file and hash, options, version) as JSON.
    #[arg(long)]
    summary_json: Option<PathBuf>,
    /// Also plot the recorded variables over time (SVG, one panel per variable, units on the axes).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Variables to plot (exact names or one `*`); repeatable; default: every recorded variable.
    #[arg(long = "plot-vars", value_name = "PATTERN")]
    plot_vars: Vec<String>,
    /// Plot angles (rad, rad/s, rad/s2) in degrees.
    #[arg(long)]
    degrees: bool,
    /// Record only every N-th communication point (and the last), for long runs.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    record_every: u64,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    if let Command::FmuHost = cli.command {
        // The parent reports how this process ends; no crash reporter here.
        return std::process::ExitCode::from(u8::try_from(host::serve_stdin()).unwrap_or(1));
    }
    // A crash inside an FMU names the instance, the FMI function and the time before the process
    // dies of it.
    process::install_crash_reporter();
    // The libraries' warnings and notes, on standard error.
    cli::log::install();
    // Errors are printed as their cause chain, one line, without a backtrace.
    match dispatch(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", error_text(&e));
            // Interrupted: 128 + the signal number, as a shell reports a process the signal ended.
            match process::interrupt_requested() {
                Some(signal) => std::process::ExitCode::from((128 + signal) as u8),
                None => std::process::ExitCode::FAILURE,
            }
        }
    }
}

/// The error and its causes on one line, each cause once: most of our errors already include
/// their source's text (`cannot read X: No such file or directory`), which `{:#}` would print a
/// second time.
fn error_text(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

/// A positive number of seconds as a duration (`--point-timeout`).
fn positive_seconds(text: &str) -> Result<std::time::Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0)
        .and_then(|s| std::time::Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| "expected a positive number of seconds".to_string())
}

/// Runs the command: its body is in the `cli` module of its name.
fn dispatch(cli: Cli) -> Result<()> {
    if cli.no_fmu_cache {
        cli::options::disable_extraction_cache();
    }
    match cli.command {
        Command::FmuHost => anyhow::bail!("fmu-host is started by `run --isolate`"),
        Command::Run {
            system: Some(system),
            changes,
            experiment,
            files,
            out_dir: _,
            verbose,
            fmu_timeout,
            isolate,
        } => cli::run::run_file(&system, &changes, &experiment, files, verbose, fmu_timeout, isolate),
        Command::Run { system: None, changes, experiment, files, out_dir, verbose, fmu_timeout, isolate } => {
            let limits = RunLimits::new(fmu_timeout, isolate)?;
            cli::built_in::run_built_in(&out_dir, &changes, &experiment, files, verbose, limits)
        }
        Command::Trim { system, speed, turn_rate, changes, out, summary_json, jacobian, verbose } => {
            let condition = FlightCondition { speed, turn_rate: turn_rate.to_radians() };
            let method = cli::trim::jacobian_method(&jacobian);
            cli::trim::trim(&system, condition, method, &changes, out.as_deref(), summary_json.as_deref(), verbose)
        }
        Command::Linearize { system, out, inputs, trim, keep_inert, multiblade, bode, floquet, changes, verbose } => {
            let request = cli::linear::LinearRequest::new(&system, &trim, multiblade, &changes, verbose);
            let request = cli::linear::LinearRequest { inputs: &inputs, keep_inert, ..request };
            cli::linear::linearize(&request, &out, &bode, floquet)
        }
        Command::Modes { system, out, sweeps, trim, multiblade, floquet, changes, verbose } => {
            let request = cli::linear::LinearRequest::new(&system, &trim, multiblade, &changes, verbose);
            cli::linear::modes(&request, &sweeps, &out, floquet)
        }
        Command::Sweep { sweep, out, jobs, point_timeout, gather, slurm, sbatch_options, chunk, chunks, worker } => {
            let plan = cli::sweep::Sweep::from_file(&sweep)?;
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
        Command::Export { system, ssp, fmu, inputs, outputs, parameters, model_identifier, lib_dir } => {
            let options = cli::export::FmuExport { inputs, outputs, parameters, model_identifier, lib_dir };
            cli::export::export(&system, ssp, fmu, options)
        }
        Command::Inspect { fmu } => {
            // Reads the description only: works without loading the binary.
            let description = inspect::describe(&read_model_description(&fmu)?);
            say!("{}", description.trim_end());
            Ok(())
        }
        Command::Cache { action } => match action.unwrap_or(CacheAction::List) {
            CacheAction::List => cli::cache::list(),
            CacheAction::Clear => cli::cache::clear(),
        },
        Command::Package { out, lib_dir } => {
            for path in fmu_catalog::package_all(&out, lib_dir.as_deref())? {
                say!("wrote {}", path.display());
            }
            Ok(())
        }
    }
}
