//! What ends a run early: a check the caller hands to the master ([`super::Master::set_interrupt`]),
//! asked before every macro step. The master reads no process state itself; the orchestrator
//! passes one that reads its SIGINT/SIGTERM flag ([`crate::import::process::interrupt_requested`]).

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A request to stop a run at the last communication point completed: `None` while the run may
/// go on, else what asked for the stop (`SIGINT`, say), for [`super::MasterError::Interrupted`].
#[derive(Clone)]
pub struct Interrupt(Option<Arc<dyn Fn() -> Option<&'static str> + Send + Sync>>);

impl Interrupt {
    /// Never interrupts (the default of a new master).
    pub fn none() -> Interrupt {
        Interrupt(None)
    }

    /// Interrupts when `check` returns what asks for the stop.
    pub fn new(check: impl Fn() -> Option<&'static str> + Send + Sync + 'static) -> Interrupt {
        Interrupt(Some(Arc::new(check)))
    }

    /// Interrupts once `flag` is set (by another thread, say), naming `by` as the cause.
    pub fn flag(flag: Arc<AtomicBool>, by: &'static str) -> Interrupt {
        Interrupt::new(move || flag.load(Ordering::Relaxed).then_some(by))
    }

    /// What asks for the stop, if anything does now.
    pub fn requested(&self) -> Option<&'static str> {
        self.0.as_ref().and_then(|check| check())
    }
}

impl Default for Interrupt {
    fn default() -> Interrupt {
        Interrupt::none()
    }
}

impl fmt::Debug for Interrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() { "Interrupt(check)" } else { "Interrupt(none)" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_interrupts_once_set_and_none_never() {
        let flag = Arc::new(AtomicBool::new(false));
        let interrupt = Interrupt::flag(flag.clone(), "test stop");
        assert_eq!(interrupt.requested(), None);
        flag.store(true, Ordering::Relaxed);
        assert_eq!(interrupt.requested(), Some("test stop"));
        assert_eq!(interrupt.clone().requested(), Some("test stop"));
        assert_eq!(Interrupt::none().requested(), None);
        assert_eq!(Interrupt::default().requested(), None);
    }
}
