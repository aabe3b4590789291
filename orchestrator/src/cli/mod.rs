//! The command-line front end's commands and parts: runs (a system's or the built-in scenario),
//! trims, linear models, sweeps, exports; the options they share, progress display, and the files
//! a run reads and writes.

pub mod built_in;
pub mod cache;
pub mod csv_stream;
pub mod export;
pub mod inspect;
pub mod linear;
pub mod log;
pub mod options;
pub mod outputs;
pub mod package;
pub mod progress;
pub mod realtime;
pub mod run;
pub mod shapes;
pub mod sweep;
pub mod trim;
