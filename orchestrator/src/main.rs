//! `orchestrator`: the command-line front end of the rotorcraft co-simulation toolkit.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use orchestrator::package;

/// Rotorcraft flight as coupled FMI 2.0 co-simulation units.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Package { out, lib_dir } => {
            for path in package::package_all(&out, lib_dir.as_deref())? {
                println!("wrote {}", path.display());
            }
        }
    }
    Ok(())
}
