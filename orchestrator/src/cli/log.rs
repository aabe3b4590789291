//! Where the libraries' messages go: `cosim` reports through the `log` facade
//! (`log::warn!`, `log::info!`), and the command line prints them on standard error, a warning as
//! `warning: <message>`, an error as `error: <message>`, anything else as the message alone. FMU
//! messages (target [`FMU_LOG_TARGET`], from `cosim::import::FacadeLogger`) name their FMI status
//! themselves (`[fmi2Warning] rotor (log): ...`) and are printed as they are.

use cosim::import::FMU_LOG_TARGET;
use log::{Level, LevelFilter, Log, Metadata, Record};

/// Prints every record at `Info` or above on standard error, one line each.
struct StderrLog;

impl Log for StderrLog {
    fn enabled(&self, metadata: &Metadata) -> bool {
        metadata.level() <= Level::Info
    }

    fn log(&self, record: &Record) {
        if !self.enabled(record.metadata()) {
            return;
        }
        if record.target() == FMU_LOG_TARGET {
            eprintln!("{}", record.args());
            return;
        }
        match record.level() {
            Level::Error => eprintln!("error: {}", record.args()),
            Level::Warn => eprintln!("warning: {}", record.args()),
            _ => eprintln!("{}", record.args()),
        }
    }

    fn flush(&self) {}
}

/// Installs the standard-error log for this process (once; a second call changes nothing).
pub fn install() {
    static LOG: StderrLog = StderrLog;
    if log::set_logger(&LOG).is_ok() {
        log::set_max_level(LevelFilter::Info);
    }
}
