//! `orchestrator`: the command-line front end of the rotorcraft co-simulation toolkit.
#![deny(unsafe_code)]

use anyhow::Result;
use clap::{Parser, Subcommand};
use cosim::import::{host, process};

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
    Run(cli::run::RunArgs),
    /// Trim a system for a steady flight condition (hover, level flight, level turn): find the
    /// controls and airframe attitude at which the revolution-averaged airframe accelerations
    /// vanish with the rotor in periodic steady state. Needs a `trim` section in the system.
    Trim(cli::trim::TrimArgs),
    /// Linearise a system about its start (or a trim): the state-space model `x' = A x + B u`,
    /// `y = C x + D u` of the coupled system with the algebraic loop eliminated exactly, from
    /// the FMUs' exact directional derivatives (they must offer Model Exchange), and its
    /// eigenvalues with frequency, damping and the name of the dominant states. Writes OUT (JSON)
    /// and OUT with extension .mat (MAT v4: A, B, C, D, names).
    Linearize(cli::linear::LinearizeArgs),
    /// The modes of a system (as `linearize` computes them) at one point or over a parameter
    /// sweep: DIR/modes.csv (eigenvalue, frequency, damping, mode name per point), the eigenvalue
    /// map or root locus DIR/eigenvalues.svg, and for a sweep DIR/frequency-damping.svg
    /// (frequency and damping of each mode against the swept parameter: the ground-resonance
    /// chart when the rotor speed is swept) and DIR/stability-boundaries.json (where the largest
    /// real part changes sign: a critical gain); with elastic blades (RotorElastic) the mode
    /// shapes along the span, DIR/mode_shapes.csv and DIR/mode_shapes.json (see --shapes).
    Modes(cli::linear::ModesArgs),
    /// Run or trim a system at many points (a grid, a list or random samples of parameters,
    /// trim conditions or experiment settings), each in its own process, `--jobs` at a time;
    /// resumable; writes DIR/sweep.csv (a row per point), DIR/sweep.svg and DIR/points/<id>/.
    Sweep(cli::sweep::SweepArgs),
    /// Write a system for other tools: as an SSP 1.0 archive (`--ssp`: SystemStructure.ssd and the
    /// FMUs; `orchestrator run X.ssp` reads it back) or as one FMI 2.0 Co-Simulation FMU (`--fmu`:
    /// our Newton master inside, the FMUs as resources).
    Export(cli::export::ExportArgs),
    /// List an FMU's model description: capabilities, variables, output dependencies.
    Inspect(cli::inspect::InspectArgs),
    /// Serve one isolated FMU instance on standard input (a socket made by the parent
    /// orchestrator); started by `run --isolate`, not by hand.
    #[command(hide = true)]
    FmuHost,
    /// The FMU extraction cache: each FMU is extracted once per content and reused by later
    /// runs and sweep points. Without an action, lists its entries and their sizes.
    Cache(cli::cache::CacheArgs),
    /// Write our FMUs (Fuselage.fmu, ...) as standard FMI 2.0 Co-Simulation archives.
    Package(cli::package::PackageArgs),
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

/// Runs the command: its body is in the `cli` module of its name.
fn dispatch(cli: Cli) -> Result<()> {
    if cli.no_fmu_cache {
        cli::options::disable_extraction_cache();
    }
    match cli.command {
        Command::FmuHost => anyhow::bail!("fmu-host is started by `run --isolate`"),
        Command::Run(args) => match args.system.clone() {
            Some(system) => cli::run::run_file(&system, args),
            None => cli::built_in::run_built_in(args),
        },
        Command::Trim(args) => cli::trim::trim(&args),
        Command::Linearize(args) => {
            let request =
                cli::linear::LinearRequest::new(&args.system, &args.trim, args.multiblade, &args.changes, args.verbose);
            let request = cli::linear::LinearRequest { inputs: &args.inputs, keep_inert: args.keep_inert, ..request };
            cli::linear::linearize(
                &request,
                &args.out,
                &args.bode,
                args.bode_range.as_deref(),
                args.floquet,
                args.shapes,
            )
        }
        Command::Modes(args) => {
            let request =
                cli::linear::LinearRequest::new(&args.system, &args.trim, args.multiblade, &args.changes, args.verbose);
            cli::linear::modes(&request, &args.sweeps, &args.out, args.floquet, args.shapes)
        }
        Command::Sweep(args) => cli::sweep::sweep(args),
        Command::Export(args) => cli::export::export(args),
        Command::Inspect(args) => cli::inspect::inspect(&args),
        Command::Cache(args) => cli::cache::cache(&args),
        Command::Package(args) => cli::package::package(&args),
    }
}
