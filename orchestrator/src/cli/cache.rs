//! `orchestrator cache`: the FMU extraction cache's entries, and `cache clear`.

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use cosim::import::ExtractionCache;
use cosim::import::cache::{self, Setting};

/// The options of `orchestrator cache`.
#[derive(Args, Debug, Clone)]
pub struct CacheArgs {
    #[command(subcommand)]
    pub action: Option<CacheAction>,
}

/// What `orchestrator cache` does.
#[derive(Subcommand, Debug, Clone, Copy)]
pub enum CacheAction {
    /// List the entries and their sizes (the default).
    List,
    /// Remove the cache directory and everything in it.
    Clear,
}

/// `orchestrator cache [list|clear]`.
pub fn cache(args: &CacheArgs) -> Result<()> {
    match args.action.unwrap_or(CacheAction::List) {
        CacheAction::List => list(),
        CacheAction::Clear => clear(),
    }
}

/// The cache the environment names, or why there is none.
fn located() -> Result<ExtractionCache> {
    match cache::setting_from_env() {
        Setting::At(root) => Ok(ExtractionCache::at(root)),
        Setting::Off => anyhow::bail!("the FMU extraction cache is off ({}=off)", cache::ENV),
        Setting::Unavailable => {
            anyhow::bail!("no FMU extraction cache: none of {}, XDG_CACHE_HOME and HOME is set", cache::ENV)
        }
    }
}

/// Lists the entries (directory, model, size) and the total.
pub fn list() -> Result<()> {
    let cache = located()?;
    let (entries, other) =
        cache.entries().with_context(|| format!("cannot list the FMU extraction cache {}", cache.root().display()))?;
    say!("FMU extraction cache: {}", cache.root().display());
    let mut total = other;
    for entry in &entries {
        total += entry.bytes;
        let name = entry.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let model = entry.model.as_deref().unwrap_or("?");
        let state = if entry.complete { "" } else { "  (incomplete: extracted again on use)" };
        say!("  {}  {model:<24} {:>10}{state}", &name[..16.min(name.len())], megabytes(entry.bytes));
    }
    if other > 0 {
        say!("  unfinished or stale extractions: {}", megabytes(other));
    }
    say!("{} entries, {} (`orchestrator cache clear` removes them)", entries.len(), megabytes(total));
    Ok(())
}

/// Removes the cache directory.
pub fn clear() -> Result<()> {
    let cache = located()?;
    let bytes =
        cache.clear().with_context(|| format!("cannot remove the FMU extraction cache {}", cache.root().display()))?;
    say!("removed {} ({})", cache.root().display(), megabytes(bytes));
    Ok(())
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}
