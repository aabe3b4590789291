//! Parts of the command-line front end: progress display, the files a run reads and writes, sweeps.

pub mod csv_stream;
pub mod linear;
pub mod outputs;
pub mod progress;
pub mod sweep;
