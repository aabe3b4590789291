//! Pacing a run to the wall clock: after each communication step, sleep until the wall time at
//! which that step's end is due; a step that ends after its due time is an overrun.

use std::time::{Duration, Instant};

/// The longest sleep between two looks at whether the run is asked to stop (Ctrl-C).
const SLICE: Duration = Duration::from_millis(50);

/// Holds a run to the wall clock, `scale` simulated seconds per wall second.
#[derive(Debug)]
pub struct Pacer {
    scale: f64,
    /// The wall instant and simulated time (s) the clock started at: the first step's start.
    origin: Option<(Instant, f64)>,
    /// Overruns so far and their largest lateness.
    pub overruns: Overruns,
}

/// Steps that ended after their wall-clock deadline.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Overruns {
    /// Steps paced.
    pub steps: usize,
    /// Steps that ended after their deadline.
    pub count: usize,
    /// Largest lateness of a step's end behind its deadline, s.
    pub worst_lateness: f64,
}

impl Pacer {
    /// A pacer of `scale` simulated seconds per wall second (> 0, finite).
    pub fn new(scale: f64) -> Self {
        Self { scale, origin: None, overruns: Overruns::default() }
    }

    /// Before the step from `time`, s: the first call starts the clock at `time`.
    pub fn start(&mut self, time: f64) {
        if self.origin.is_none() {
            self.origin = Some((Instant::now(), time));
        }
    }

    /// The wall instant at which simulated time `time` (s) is due.
    fn deadline(&self, time: f64) -> Option<Instant> {
        let (wall, start) = self.origin?;
        let ahead = ((time - start) / self.scale).max(0.0);
        Some(wall + Duration::try_from_secs_f64(ahead).unwrap_or(Duration::MAX / 4))
    }

    /// After a step reached `time`, s: counts an overrun when it is late, else sleeps until
    /// its deadline (the thread sleeps, nothing spins), in slices of at most [`SLICE`], ending
    /// early once `stop` says the run is asked to end.
    pub fn pace(&mut self, time: f64, stop: impl Fn() -> bool) {
        let Some(deadline) = self.deadline(time) else { return };
        self.overruns.steps += 1;
        let now = Instant::now();
        match deadline.checked_duration_since(now) {
            Some(wait) if !wait.is_zero() => {
                let mut left = wait;
                while !left.is_zero() && !stop() {
                    std::thread::sleep(left.min(SLICE));
                    left = deadline.saturating_duration_since(Instant::now());
                }
            }
            _ => {
                let late = now.duration_since(deadline).as_secs_f64();
                self.overruns.count += 1;
                self.overruns.worst_lateness = self.overruns.worst_lateness.max(late);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paced_steps_take_their_scaled_time_and_late_steps_count() {
        // Ten steps of 20 ms at scale 2: 100 ms of wall time at least.
        let mut pacer = Pacer::new(2.0);
        let started = Instant::now();
        pacer.start(1.0);
        for n in 1..=10 {
            pacer.pace(1.0 + 0.02 * n as f64, || false);
        }
        assert!(started.elapsed() >= Duration::from_millis(100), "{:?}", started.elapsed());
        assert_eq!(pacer.overruns.steps, 10);
        // A step whose computation takes 30 ms of a 10 ms budget ends at least 20 ms late.
        let mut pacer = Pacer::new(1.0);
        pacer.start(0.0);
        std::thread::sleep(Duration::from_millis(30));
        pacer.pace(0.01, || false);
        assert_eq!(pacer.overruns.count, 1);
        assert!(pacer.overruns.worst_lateness >= 0.02, "{:?}", pacer.overruns);
        // A stop request ends a long wait at once.
        let mut pacer = Pacer::new(1.0);
        let started = Instant::now();
        pacer.start(0.0);
        pacer.pace(60.0, || true);
        assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    }
}
