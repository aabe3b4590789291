//! Units that do not depend on each other within a macro step, run on several threads: the
//! steps (`fmi2DoStep`), the output reads of one loop evaluation (all of the loop's inputs are
//! set before any output is read), the reads after a step and the state saves. Each unit makes
//! the same FMI calls in the same order as on one thread, and one instance is never called from
//! two threads at once, so the results are the same bit for bit.
//!
//! The worker threads live as long as the [`Master`] (started at the first task worth sharing)
//! and wait for work spinning for [`SPIN`], then parked; a unit is handed over as its box. A
//! batch that its worker has not started when the calling thread is done with its own share is
//! taken back and run there, so a worker that is parked or has no core (a busy machine) costs
//! little more than one thread. The
//! units are shared out by their measured cost (longest first, each to the least loaded
//! thread); a task whose share for the workers would cost less than [`MIN_SHARE`] runs on the
//! calling thread alone. Instances of PythonFMU binaries stay on the calling thread (they share
//! one interpreter). Errors and panics come back to the calling thread: the one of the unit
//! that comes first in the sequential order wins, as if the units had run one after another.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{JoinHandle, Thread};
use std::time::{Duration, Instant};

use super::ids::{LoopId, UnitId};
use super::{Master, MasterError, Phase, Unit};

/// How long a waiting thread spins (yielding) before it parks.
const SPIN: Duration = Duration::from_micros(50);

/// Least estimated cost of the workers' share for a task to be shared, s: a hand-over costs
/// about a microsecond between spinning threads.
const MIN_SHARE: f64 = 2e-6;

/// Weight of the newest sample in a unit's cost estimate.
const COST_WEIGHT: f64 = 0.2;

/// What is done to each unit.
#[derive(Clone, Copy)]
pub(super) enum Task {
    /// [`Unit::step`].
    Step { t: f64, h: f64, extrapolate: bool },
    /// Read the outputs where they are stale and may be read in this phase.
    Read(Phase),
    /// Standard FMUs right after their step: outputs and `dg/du`.
    Predict,
    /// [`Unit::save`].
    Save,
}

impl Task {
    fn kind(self) -> usize {
        match self {
            Task::Step { .. } => 0,
            Task::Read(_) => 1,
            Task::Predict => 2,
            Task::Save => 3,
        }
    }
}

/// Which units a task is for.
#[derive(Clone, Copy)]
pub(super) enum Units {
    All,
    /// The units of loop `l`, in the order its nodes name them.
    Loop(LoopId),
}

impl Unit {
    fn needs(&self, task: Task) -> bool {
        match task {
            Task::Step { .. } | Task::Save => true,
            Task::Read(phase) => self.exact(phase) && !self.out_fresh,
            Task::Predict => !self.plan.get_after_set,
        }
    }

    fn run(&mut self, task: Task) -> Result<(), MasterError> {
        match task {
            Task::Step { t, h, extrapolate } => self.step(t, h, extrapolate),
            Task::Read(_) => Ok(self.read_outputs()?),
            Task::Predict => {
                self.read_outputs()?;
                if self.plan.provides_dd {
                    self.linearise()?;
                }
                Ok(())
            }
            Task::Save => self.save(),
        }
    }
}

impl Master {
    /// Runs `task` on those of `which` that need it, shared among the threads when that pays.
    pub(super) fn for_units(&mut self, task: Task, which: Units) -> Result<(), MasterError> {
        let loop_units = match which {
            Units::All => None,
            Units::Loop(l) => Some(self.plan.loops[l].units.as_slice()),
        };
        self.pool.for_units(task, loop_units, &mut self.units)
    }
}

impl Pool {
    /// Runs `task` on those of `which` (all units for `None`) that need it, shared among the
    /// threads when that pays.
    #[allow(clippy::vec_box, reason = "units are handed to the workers as boxes")]
    pub(super) fn for_units(
        &mut self,
        task: Task,
        which: Option<&[UnitId]>,
        units: &mut Vec<Box<Unit>>,
    ) -> Result<(), MasterError> {
        if self.threads < 2 || units.len() < 2 {
            return for_units_here(task, which, units);
        }
        self.selected.clear();
        match which {
            None => self.selected.extend((0..units.len()).map(UnitId)),
            Some(list) => self.selected.extend_from_slice(list),
        }
        self.selected.retain(|&u| units[u].needs(task));
        if self.plan(task, units) {
            return self.run(task, units);
        }
        let measure = self.threads > 1 && self.selected.len() > 1;
        for k in 0..self.selected.len() {
            let u = self.selected[k];
            let start = measure.then(Instant::now);
            units[u].run(task)?;
            if let Some(start) = start {
                self.learn(u, task, start.elapsed());
            }
        }
        Ok(())
    }
}

/// [`Pool::for_units`] on this thread, in order, without measuring.
fn for_units_here(task: Task, which: Option<&[UnitId]>, units: &mut [Box<Unit>]) -> Result<(), MasterError> {
    let count = which.map_or(units.len(), <[UnitId]>::len);
    for k in 0..count {
        let u = which.map_or(UnitId(k), |list| list[k]);
        if units[u].needs(task) {
            units[u].run(task)?;
        }
    }
    Ok(())
}

/// A unit on its way to a thread: its position in the task's order, its handle, the unit, the
/// time its task took.
struct Entry {
    rank: usize,
    index: UnitId,
    unit: Box<Unit>,
    elapsed: Duration,
}

/// Why a unit's task did not complete.
enum Failure {
    Error(MasterError),
    Panic(Box<dyn Any + Send>),
}

/// Runs `task` on `entries` in order, up to the first failure, which it returns with its rank.
fn run_entries(task: Task, entries: &mut [Entry]) -> Option<(usize, Failure)> {
    for entry in entries {
        let start = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| entry.unit.run(task)));
        entry.elapsed = start.elapsed();
        match result {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Some((entry.rank, Failure::Error(e))),
            Err(payload) => return Some((entry.rank, Failure::Panic(payload))),
        }
    }
    None
}

/// A batch for a worker, and back.
struct Batch {
    task: Task,
    entries: Vec<Entry>,
    failure: Option<(usize, Failure)>,
    /// The thread to wake when the batch is done.
    caller: Thread,
}

/// Where the calling thread and one worker hand batches to each other.
#[derive(Default)]
struct Mailbox {
    to_worker: Mutex<Option<Batch>>,
    to_caller: Mutex<Option<Batch>>,
    has_work: AtomicBool,
    has_result: AtomicBool,
    stop: AtomicBool,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Waits until `flag` is set (or `stop`, when given, is), spinning for [`SPIN`], then parked;
/// clears `flag`. Returns false when stopped.
fn wait(flag: &AtomicBool, stop: Option<&AtomicBool>) -> bool {
    let start = Instant::now();
    let mut spins = 0u32;
    loop {
        if flag.swap(false, Ordering::Acquire) {
            return true;
        }
        if stop.is_some_and(|s| s.load(Ordering::Acquire)) {
            return false;
        }
        spins = spins.wrapping_add(1);
        if start.elapsed() < SPIN {
            if spins.is_multiple_of(16) {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        } else {
            std::thread::park();
        }
    }
}

fn serve(mailbox: &Mailbox) {
    while wait(&mailbox.has_work, Some(&mailbox.stop)) {
        let Some(mut batch) = lock(&mailbox.to_worker).take() else { continue };
        batch.failure = run_entries(batch.task, &mut batch.entries);
        let caller = batch.caller.clone();
        *lock(&mailbox.to_caller) = Some(batch);
        mailbox.has_result.store(true, Ordering::Release);
        caller.unpark();
    }
}

struct Worker {
    mailbox: Arc<Mailbox>,
    thread: JoinHandle<()>,
    /// Its entries of the task in progress (kept for their allocation between tasks).
    entries: Vec<Entry>,
}

/// The master's worker threads and what it knows of its units' costs.
pub(super) struct Pool {
    /// Threads to use, the calling one included (`master.threads`).
    threads: usize,
    /// Started at the first task worth sharing; `threads - 1` of them.
    workers: Vec<Worker>,
    /// Per unit and [`Task::kind`]: estimated cost, s.
    costs: Vec<[f64; 4]>,
    /// The units of the task in progress, in sequential order.
    selected: Vec<UnitId>,
    /// Per unit: the thread (0: the calling one) for the task in progress.
    thread_of: Vec<usize>,
    /// Per thread: estimated load.
    loads: Vec<f64>,
    /// `selected` sorted by decreasing cost.
    by_cost: Vec<UnitId>,
    /// The calling thread's entries.
    mine: Vec<Entry>,
    /// The units while they are out.
    slots: Vec<Option<Box<Unit>>>,
}

impl Pool {
    pub(super) fn new(threads: usize) -> Pool {
        Pool {
            threads: threads.max(1),
            workers: Vec::new(),
            costs: Vec::new(),
            selected: Vec::new(),
            thread_of: Vec::new(),
            loads: Vec::new(),
            by_cost: Vec::new(),
            mine: Vec::new(),
            slots: Vec::new(),
        }
    }

    fn cost(&mut self, unit: UnitId, task: Task) -> &mut f64 {
        if self.costs.len() <= unit.0 {
            // Unknown costs start at the sharing threshold, so that a first sharing measures them.
            self.costs.resize(unit.0 + 1, [MIN_SHARE; 4]);
        }
        &mut self.costs[unit][task.kind()]
    }

    fn learn(&mut self, unit: UnitId, task: Task, elapsed: Duration) {
        let cost = self.cost(unit, task);
        *cost += COST_WEIGHT * (elapsed.as_secs_f64() - *cost);
    }

    /// Shares the `selected` units out among the threads (`thread_of`); false when the task is
    /// better run on the calling thread alone.
    fn plan(&mut self, task: Task, units: &[Box<Unit>]) -> bool {
        if self.threads < 2 || self.selected.len() < 2 {
            return false;
        }
        self.thread_of.clear();
        self.thread_of.resize(units.len(), 0);
        self.loads.clear();
        self.loads.resize(self.threads, 0.0);
        self.by_cost.clear();
        for k in 0..self.selected.len() {
            let u = self.selected[k];
            let cost = *self.cost(u, task);
            if units[u].slave.callable_from_any_thread() {
                self.by_cost.push(u);
            } else {
                self.loads[0] += cost;
            }
        }
        let costs = &self.costs;
        self.by_cost.sort_by(|&a, &b| costs[b][task.kind()].total_cmp(&costs[a][task.kind()]));
        for &u in &self.by_cost {
            let thread = (0..self.threads).min_by(|&a, &b| self.loads[a].total_cmp(&self.loads[b])).unwrap_or(0);
            self.thread_of[u] = thread;
            self.loads[thread] += costs[u][task.kind()];
        }
        let shared: f64 = self.loads[1..].iter().sum();
        shared >= MIN_SHARE && self.start_workers()
    }

    /// Starts the workers if not yet done; false when a thread could not be started.
    fn start_workers(&mut self) -> bool {
        while self.workers.len() + 1 < self.threads {
            let mailbox = Arc::new(Mailbox::default());
            let served = mailbox.clone();
            let name = format!("master-worker-{}", self.workers.len() + 1);
            match std::thread::Builder::new().name(name).spawn(move || serve(&served)) {
                Ok(thread) => self.workers.push(Worker { mailbox, thread, entries: Vec::new() }),
                Err(e) => {
                    log::warn!("no worker thread ({e}); the units run one after another");
                    self.threads = 1;
                    return false;
                }
            }
        }
        true
    }

    /// Runs `task` on the `selected` units as planned and waits for all of them.
    #[allow(clippy::vec_box, reason = "units are handed to the workers as boxes")]
    fn run(&mut self, task: Task, units: &mut Vec<Box<Unit>>) -> Result<(), MasterError> {
        self.slots.extend(units.drain(..).map(Some));
        for (rank, &index) in self.selected.iter().enumerate() {
            let unit = self.slots[index].take().expect("each unit is selected once");
            let entry = Entry { rank, index, unit, elapsed: Duration::ZERO };
            match self.thread_of[index] {
                0 => self.mine.push(entry),
                k => self.workers[k - 1].entries.push(entry),
            }
        }
        let caller = std::thread::current();
        for worker in &mut self.workers {
            if worker.entries.is_empty() {
                continue;
            }
            let entries = std::mem::take(&mut worker.entries);
            *lock(&worker.mailbox.to_worker) = Some(Batch { task, entries, failure: None, caller: caller.clone() });
            worker.mailbox.has_work.store(true, Ordering::Release);
            worker.thread.thread().unpark();
        }
        let mut first = run_entries(task, &mut self.mine);
        let mut mine = std::mem::take(&mut self.mine);
        self.put_back(&mut mine, task);
        self.mine = mine;
        for k in 0..self.workers.len() {
            if self.thread_of_any(k + 1) {
                let mailbox = &self.workers[k].mailbox;
                let taken_back = lock(&mailbox.to_worker).take();
                let batch = match taken_back {
                    // Not started yet (the worker is parked or has no core): done here instead.
                    Some(mut batch) => {
                        batch.failure = run_entries(task, &mut batch.entries);
                        batch
                    }
                    None => {
                        wait(&mailbox.has_result, None);
                        lock(&mailbox.to_caller).take().expect("a result after has_result")
                    }
                };
                let mut entries = batch.entries;
                self.put_back(&mut entries, task);
                self.workers[k].entries = entries;
                if let Some(failure) = batch.failure
                    && first.as_ref().is_none_or(|(rank, _)| failure.0 < *rank)
                {
                    first = Some(failure);
                }
            }
        }
        units.extend(self.slots.drain(..).map(|slot| slot.expect("every unit came back")));
        match first {
            None => Ok(()),
            Some((_, Failure::Error(e))) => Err(e),
            Some((_, Failure::Panic(payload))) => std::panic::resume_unwind(payload),
        }
    }

    /// Whether thread `k` had units of the task in progress.
    fn thread_of_any(&self, k: usize) -> bool {
        self.selected.iter().any(|&u| self.thread_of[u] == k)
    }

    /// Returns `entries`' units to their slots, learning their costs (the task ran on those
    /// whose time is not zero).
    fn put_back(&mut self, entries: &mut Vec<Entry>, task: Task) {
        for entry in entries.drain(..) {
            if !entry.elapsed.is_zero() {
                self.learn(entry.index, task, entry.elapsed);
            }
            self.slots[entry.index] = Some(entry.unit);
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for worker in &self.workers {
            worker.mailbox.stop.store(true, Ordering::Release);
            worker.thread.thread().unpark();
        }
        for worker in self.workers.drain(..) {
            let _ = worker.thread.join();
        }
    }
}
