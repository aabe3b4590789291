//! The CSV results file written as the run goes, formatted by a thread of its own.
//!
//! The stepping thread only copies each recorded row into a shared buffer; the writer thread
//! takes the buffer every [`WRITE_INTERVAL`], formats the rows (the largest cost of recording a
//! small FMU's run) and appends them to the file, which it flushes every [`CSV_FLUSH_INTERVAL`].
//! So rows reach the file even while one step takes long, and a process killed outright loses
//! at most the last second of rows.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use cosim::master::{write_csv_header, write_csv_row};

/// Most wall time between a row being computed and its reaching the CSV file (the bound of what
/// a process killed outright, by a crashing FMU or SIGKILL, loses).
pub const CSV_FLUSH_INTERVAL: Duration = Duration::from_secs(1);

/// How often the writer thread takes the rows waiting for it.
const WRITE_INTERVAL: Duration = Duration::from_millis(20);

/// Values (time and kept columns) that may wait for the writer thread before the stepping thread
/// waits for it: 8 MB of rows, when formatting falls behind stepping.
const MAX_WAITING_VALUES: usize = 1 << 20;

/// Locks a mutex whose holder may have panicked (the data stays usable: plain rows and a file).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Rows recorded and not yet taken by the writer thread.
#[derive(Default)]
struct Waiting {
    /// `t, v_1, ..., v_k` per row.
    values: Vec<f64>,
    /// The run has ended: write what is left and stop.
    done: bool,
}

/// The file side: the buffered file and the first write error.
struct Output {
    out: BufWriter<File>,
    /// The first write error; later rows are dropped and [`CsvStream::finish`] reports it.
    error: Option<std::io::Error>,
}

impl Output {
    /// Formats and appends rows of `width` values (time first).
    fn write_rows(&mut self, values: &[f64], width: usize) {
        if self.error.is_some() {
            return;
        }
        for row in values.chunks_exact(width) {
            if let Err(e) = write_csv_row(&mut self.out, row[0], &row[1..]) {
                self.error = Some(e);
                return;
            }
        }
    }

    fn flush(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.out.flush()
        {
            self.error = Some(e);
        }
    }
}

/// What the stepping thread and the writer thread share.
struct Shared {
    waiting: Mutex<Waiting>,
    /// Signalled when rows are waiting beyond the limit, and when they have been taken.
    changed: Condvar,
    output: Mutex<Output>,
    /// Values per row: the time and the kept columns.
    width: usize,
}

impl Shared {
    /// Takes the waiting rows and writes them; whether the run has ended.
    fn write_waiting(&self, spare: &mut Vec<f64>) -> bool {
        let done = {
            let mut waiting = lock(&self.waiting);
            std::mem::swap(&mut waiting.values, spare);
            waiting.done
        };
        self.changed.notify_all();
        if !spare.is_empty() {
            lock(&self.output).write_rows(spare, self.width);
            spare.clear();
        }
        done
    }

    /// The writer thread: rows every [`WRITE_INTERVAL`] (or at once when many wait), a flush
    /// every [`CSV_FLUSH_INTERVAL`], and everything at the end.
    fn run_writer(&self) {
        let mut spare = Vec::new();
        let mut flushed = Instant::now();
        loop {
            {
                let waiting = lock(&self.waiting);
                if !waiting.done && waiting.values.len() < MAX_WAITING_VALUES {
                    drop(self.changed.wait_timeout(waiting, WRITE_INTERVAL).unwrap_or_else(|p| p.into_inner()));
                }
            }
            let done = self.write_waiting(&mut spare);
            if done || flushed.elapsed() >= CSV_FLUSH_INTERVAL {
                lock(&self.output).flush();
                flushed = Instant::now();
            }
            if done {
                return;
            }
        }
    }
}

/// The CSV results file, written as the run goes: the header at the start, each row copied by
/// [`CsvStream::push`] and written by the writer thread, everything flushed by
/// [`CsvStream::finish`] on every end of the run.
pub struct CsvStream {
    path: PathBuf,
    shared: Arc<Shared>,
    keep: Vec<usize>,
    writer: Mutex<Option<JoinHandle<()>>>,
    /// Rows pushed so far (by the stepping thread; read by the crash path).
    rows: AtomicUsize,
}

impl CsvStream {
    /// Creates `path`, writes the header (flushed at once) and starts the writer thread.
    pub fn create(path: &Path, names: &[String], keep: Vec<usize>) -> Result<Self> {
        let file = File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
        let mut out = BufWriter::with_capacity(1 << 16, file);
        let kept: Vec<String> = keep.iter().map(|&c| names[c].clone()).collect();
        write_csv_header(&mut out, &kept)
            .and_then(|()| out.flush())
            .with_context(|| format!("cannot write {}", path.display()))?;
        let shared = Arc::new(Shared {
            waiting: Mutex::new(Waiting::default()),
            changed: Condvar::new(),
            output: Mutex::new(Output { out, error: None }),
            width: keep.len() + 1,
        });
        let writer = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("csv-writer".into())
                .spawn(move || shared.run_writer())
                .context("cannot start the CSV writer thread")?
        };
        Ok(Self { path: path.to_path_buf(), shared, keep, writer: Mutex::new(Some(writer)), rows: AtomicUsize::new(0) })
    }

    /// Appends one row (all recorded values; the kept columns are written): a copy, unless
    /// [`MAX_WAITING_VALUES`] already wait for the writer thread, which is then waited for.
    pub fn push(&self, t: f64, values: &[f64]) {
        let mut waiting = lock(&self.shared.waiting);
        while waiting.values.len() >= MAX_WAITING_VALUES && !waiting.done {
            self.shared.changed.notify_all();
            waiting = self.shared.changed.wait(waiting).unwrap_or_else(|p| p.into_inner());
        }
        waiting.values.push(t);
        waiting.values.extend(self.keep.iter().map(|&c| values[c]));
        // Only the stepping thread pushes: a plain store, no read-modify-write.
        self.rows.store(self.rows.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }

    /// Rows pushed so far (on disk after [`CsvStream::flush_within`] or [`CsvStream::finish`]).
    pub fn rows_written(&self) -> usize {
        self.rows.load(Ordering::Relaxed)
    }

    /// Writes the waiting rows and flushes the file, from another thread while the stepping
    /// thread is stuck (the `--fmu-timeout` watchdog) or from the process's crash path (a fatal
    /// signal's handler: nothing here allocates); gives up after `patience` if a lock stays held.
    pub fn flush_within(&self, patience: Duration) {
        let deadline = Instant::now() + patience;
        loop {
            if let (Ok(mut waiting), Ok(mut output)) = (self.shared.waiting.try_lock(), self.shared.output.try_lock()) {
                // Written in place and cleared: no memory is freed (see above).
                output.write_rows(&waiting.values, self.shared.width);
                waiting.values.clear();
                output.flush();
                return;
            }
            if Instant::now() >= deadline {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Stops the writer thread after it has written every row, flushes; reports the first write
    /// error of the run, if any.
    pub fn finish(&self) -> Result<()> {
        lock(&self.shared.waiting).done = true;
        self.shared.changed.notify_all();
        if let Some(writer) = lock(&self.writer).take() {
            let _ = writer.join();
        }
        let mut output = lock(&self.shared.output);
        // The writer thread has written everything (or died); write what it may have left.
        let values = std::mem::take(&mut lock(&self.shared.waiting).values);
        output.write_rows(&values, self.shared.width);
        output.flush();
        match output.error.take() {
            None => Ok(()),
            Some(e) => Err(e).with_context(|| format!("cannot write {}", self.path.display())),
        }
    }
}

impl Drop for CsvStream {
    fn drop(&mut self) {
        // An early return of the run still ends the writer thread.
        if lock(&self.writer).is_some() {
            let _ = self.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows pushed faster than the limit lets them wait all reach the file, in order, exactly.
    #[test]
    fn every_row_reaches_the_file_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rows.csv");
        let names = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let csv = CsvStream::create(&path, &names, vec![0, 2]).unwrap();
        let rows = MAX_WAITING_VALUES / 3 + 1000; // more values than may wait
        for k in 0..rows {
            let t = k as f64 * 0.1;
            csv.push(t, &[t.sin(), -1.0, 1.0 / (1.0 + t)]);
        }
        csv.finish().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("\"time\",\"a\",\"c\""));
        let mut n = 0;
        for (k, line) in lines.enumerate() {
            let t = k as f64 * 0.1;
            let v: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
            assert_eq!(v, [t, t.sin(), 1.0 / (1.0 + t)], "row {k}");
            n += 1;
        }
        assert_eq!(n, rows);
    }

    /// A stream dropped without `finish` (an early return of the run) still writes its rows.
    #[test]
    fn dropping_the_stream_writes_the_waiting_rows() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rows.csv");
        let csv = CsvStream::create(&path, &["x".to_string()], vec![0]).unwrap();
        csv.push(0.0, &[1.5]);
        drop(csv);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "\"time\",\"x\"\n0.0,1.5\n");
    }

    /// Rows reach the file while the run goes on, within the flush interval.
    #[test]
    fn rows_reach_the_file_during_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rows.csv");
        let csv = CsvStream::create(&path, &["x".to_string()], vec![0]).unwrap();
        csv.push(0.0, &[1.5]);
        std::thread::sleep(CSV_FLUSH_INTERVAL + 5 * WRITE_INTERVAL);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "\"time\",\"x\"\n0.0,1.5\n");
        csv.push(1.0, &[2.5]);
        csv.flush_within(Duration::from_secs(1));
        assert!(std::fs::read_to_string(&path).unwrap().ends_with("1.0,2.5\n"));
        csv.finish().unwrap();
    }
}
