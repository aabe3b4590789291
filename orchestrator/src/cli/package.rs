//! `orchestrator package`: our FMUs written as `.fmu` archives.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

/// The options of `orchestrator package`.
#[derive(Args, Debug, Clone)]
pub struct PackageArgs {
    /// Output directory; created if missing.
    #[arg(long, default_value = "fmus")]
    pub out: PathBuf,
    /// Directory holding the built shared libraries (default: next to this executable).
    #[arg(long)]
    pub lib_dir: Option<PathBuf>,
}

/// Writes `args.out/<identifier>.fmu` for each of our FMUs and names each file written.
pub fn package(args: &PackageArgs) -> Result<()> {
    for path in fmu_catalog::package_all(&args.out, args.lib_dir.as_deref())? {
        say!("wrote {}", path.display());
    }
    Ok(())
}
