//! `orchestrator inspect`: an FMU's model description as text.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use cosim::import::{inspect, read_model_description};

/// The options of `orchestrator inspect`.
#[derive(Args, Debug, Clone)]
pub struct InspectArgs {
    /// The `.fmu` file.
    pub fmu: PathBuf,
}

/// Prints the model description of `args.fmu`; reads the description only: works without loading
/// the binary.
pub fn inspect(args: &InspectArgs) -> Result<()> {
    let description = inspect::describe(&read_model_description(&args.fmu)?);
    say!("{}", description.trim_end());
    Ok(())
}
