//! Progress of a run that costs (almost) nothing per communication step: the clock is read on
//! an adaptive stride (about every 20 ms of wall time), and the display is redrawn from that:
//! a progress bar on a terminal, one plain line every [`LOG_INTERVAL`] otherwise (CI logs,
//! batch jobs).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Wall time between two clock reads that the stride aims at.
const CHECK_INTERVAL: Duration = Duration::from_millis(20);

/// Wall time between two redraws of the terminal bar.
const BAR_INTERVAL: Duration = Duration::from_millis(100);

/// Wall time between two progress lines when stderr is not a terminal.
const LOG_INTERVAL: Duration = Duration::from_secs(5);

/// Progress over a run of `steps` communication steps from `start` to `stop` (s).
pub struct Progress {
    bar: Option<ProgressBar>,
    steps: u64,
    start: f64,
    stop: f64,
    done: u64,
    stride: u64,
    since_check: u64,
    last_check: Instant,
    last_draw: Instant,
    started: Instant,
}

impl Progress {
    /// A bar on a terminal stderr, plain lines otherwise.
    pub fn new(steps: u64, start: f64, stop: f64) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(steps), ProgressDrawTarget::stderr_with_hz(10));
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} steps  {msg}  ETA {eta}",
                )
                .expect("valid template"),
            );
            bar
        });
        let now = Instant::now();
        Self {
            bar,
            steps,
            start,
            stop,
            done: 0,
            stride: 1,
            since_check: 0,
            last_check: now,
            last_draw: now,
            started: now,
        }
    }

    /// One communication step done, the master at time `t`.
    #[inline]
    pub fn step(&mut self, t: f64) {
        self.done += 1;
        self.since_check += 1;
        if self.since_check >= self.stride {
            self.check(t);
        }
    }

    #[cold]
    fn check(&mut self, t: f64) {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last_check).as_secs_f64().max(1e-9);
        let per_check = self.since_check as f64 * CHECK_INTERVAL.as_secs_f64() / elapsed;
        self.stride = per_check.clamp(1.0, 1e7) as u64;
        self.since_check = 0;
        self.last_check = now;
        let interval = if self.bar.is_some() { BAR_INTERVAL } else { LOG_INTERVAL };
        if now.duration_since(self.last_draw) < interval {
            return;
        }
        self.last_draw = now;
        match &self.bar {
            Some(bar) => {
                bar.set_position(self.done);
                bar.set_message(format!("t = {t:.3} s"));
            }
            None => {
                let wall = now.duration_since(self.started).as_secs_f64();
                let fraction = ((t - self.start) / (self.stop - self.start)).clamp(0.0, 1.0);
                let eta = if fraction > 0.0 { wall * (1.0 - fraction) / fraction } else { f64::NAN };
                eprintln!(
                    "progress: t = {t:.3} s of {:.3} s ({:.0} %, step {} of {}), {wall:.0} s elapsed, about {eta:.0} s left",
                    self.stop,
                    100.0 * fraction,
                    self.done,
                    self.steps
                );
            }
        }
    }

    /// Removes the bar (nothing to do for plain lines).
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Progress of work reported as messages (the trim's iterations): a spinner on a terminal, a
/// plain line at most every [`LOG_INTERVAL`] otherwise.
pub struct Spinner {
    bar: Option<ProgressBar>,
    last_line: std::cell::Cell<Option<Instant>>,
}

impl Spinner {
    /// A spinner on a terminal stderr, plain lines otherwise.
    pub fn new() -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("valid template"));
            bar
        });
        Self { bar, last_line: std::cell::Cell::new(None) }
    }

    /// Shows `message`.
    pub fn say(&self, message: &str) {
        match &self.bar {
            Some(bar) => {
                bar.set_message(message.to_string());
                bar.tick();
            }
            None => {
                let now = Instant::now();
                if self.last_line.get().is_none_or(|last| now.duration_since(last) >= LOG_INTERVAL) {
                    self.last_line.set(Some(now));
                    eprintln!("progress: {message}");
                }
            }
        }
    }

    /// Removes the spinner.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}
