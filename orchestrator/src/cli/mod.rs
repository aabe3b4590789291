//! Parts of the command-line front end: progress display and the files a run reads and writes.

pub mod outputs;
pub mod progress;
