//! One-time warnings from a model's evaluations, sent through the importer's logger.
//!
//! A model that meets a condition worth a warning inside an evaluation (an input beyond a
//! table's range, which it clamps) keeps a [`Warnings`] in its [`Model::Work`], gives access to it
//! through [`Model::warnings`] and [raises](Warnings::raise) a cause there. After each evaluation
//! the instance logs the causes it has not logged before: status `fmi2Warning`, category
//! `logStatusWarning` (a category every FMU of this crate declares, so that no model description
//! changes), each cause once per instance whatever the number of evaluations that raise it. The
//! call itself still returns `fmi2OK`: the values are valid, only clamped.
//!
//! Raising a cause again is a comparison with the causes pending (at most a few) and allocates
//! nothing once the cause is pending; logging allocates, once per instance and cause.

use num_dual::Dual64;

use super::Instance;
use crate::model::Model;
use crate::status::Status;

/// A cause of a warning: its message, which also identifies it (one message, one cause).
pub type Cause = &'static str;

/// The causes an evaluation raised, waiting for the instance to log them ([`Model::warnings`]).
#[derive(Debug, Clone, Default)]
pub struct Warnings {
    pending: Vec<Cause>,
}

impl Warnings {
    /// Raises `cause`; the instance logs it after the evaluation unless it has done so before.
    pub fn raise(&mut self, cause: Cause) {
        if !self.pending.contains(&cause) {
            self.pending.push(cause);
        }
    }

    /// The causes raised and not yet taken by the instance.
    pub fn pending(&self) -> &[Cause] {
        &self.pending
    }
}

/// The causes an instance has logged.
#[derive(Debug, Default)]
pub(super) struct Logged(Vec<Cause>);

impl<M: Model> Instance<M> {
    /// Logs the causes raised in the model's working memories (values and derivatives) that this
    /// instance has not logged yet, and empties them. Cheap when nothing was raised.
    pub(super) fn flush_warnings(&mut self) {
        let Some(c) = self.model.as_mut() else { return };
        let mut new: Vec<Cause> = Vec::new();
        let works = [M::warnings::<f64>(&mut c.work), M::warnings::<Dual64>(&mut c.work_dual)];
        for warnings in works.into_iter().flatten() {
            for cause in warnings.pending.drain(..) {
                if !self.logged.0.contains(&cause) && !new.contains(&cause) {
                    new.push(cause);
                }
            }
        }
        for cause in new {
            self.logged.0.push(cause);
            (self.logger)(Status::Warning, "logStatusWarning", cause);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::*;
    use crate::declare::Tables;
    use crate::model::{ModelInfo, Parameters, Scalar};
    use crate::params::ParameterError;
    use crate::variable::Variable;

    const BEYOND: Cause = "input 'u' beyond 1: clamped to 1";

    /// `y = min(u, 1)`, warning when it clamps.
    struct Clamp;

    impl Model for Clamp {
        const INFO: ModelInfo = ModelInfo {
            model_name: "Clamp",
            model_identifier: "Clamp",
            description: "y = min(u, 1)",
            default_stop_time: 1.0,
            default_step_size: 0.1,
        };
        const TABLES: Tables = Tables::NONE;
        type Work<D: Scalar> = Warnings;

        fn work<D: Scalar>(&self) -> Warnings {
            Warnings::default()
        }

        fn variables() -> Vec<Variable> {
            vec![Variable::real_input("u", 0, "", 0.0), Variable::real_output("y", 1, "")]
        }

        fn configure(_: &dyn Parameters) -> Result<Self, ParameterError> {
            Ok(Clamp)
        }

        fn n_states(&self) -> usize {
            0
        }

        fn initial_state(&self, _: &mut [f64]) {}

        fn derivatives<D: Scalar>(&self, _: &mut Warnings, _: D, _: &[D], _: &[D], _: &mut [D]) {}

        fn outputs<D: Scalar>(&self, work: &mut Warnings, _: D, _: &[D], u: &[D], y: &mut [D]) {
            y[0] = if u[0].re() > 1.0 {
                work.raise(BEYOND);
                D::from(1.0)
            } else {
                u[0]
            };
        }

        fn warnings<D: Scalar>(work: &mut Warnings) -> Option<&mut Warnings> {
            Some(work)
        }

        fn tolerances(&self) -> (f64, f64) {
            (1e-6, 1e-6)
        }
    }

    #[test]
    fn a_cause_is_logged_once_per_instance_as_a_warning() {
        let log: Rc<RefCell<Vec<(Status, String, String)>>> = Rc::default();
        let sink = Rc::clone(&log);
        let logger = Box::new(move |s: Status, c: &str, m: &str| sink.borrow_mut().push((s, c.into(), m.into())));
        let mut inst = Instance::<Clamp>::with_logger("clamp", logger);
        inst.setup_experiment(0.0, None).unwrap();
        inst.enter_initialization_mode().unwrap();
        inst.exit_initialization_mode().unwrap();
        let mut y = [0.0];
        for (u, expected) in [(0.5, 0.5), (2.0, 1.0), (3.0, 1.0), (0.2, 0.2), (5.0, 1.0)] {
            inst.set_real(&[0], &[u]).unwrap();
            inst.get_real(&[1], &mut y).unwrap();
            assert_eq!(y[0], expected);
            inst.do_step(inst.time(), 0.1).unwrap();
        }
        let warnings: Vec<_> = log.borrow().iter().filter(|(s, _, _)| *s != Status::Ok).cloned().collect();
        assert_eq!(warnings, vec![(Status::Warning, "logStatusWarning".to_string(), BEYOND.to_string())]);
        // A second instance warns again, once.
        let log2: Rc<RefCell<Vec<String>>> = Rc::default();
        let sink = Rc::clone(&log2);
        let logger = Box::new(move |_: Status, _: &str, m: &str| sink.borrow_mut().push(m.into()));
        let mut other = Instance::<Clamp>::with_logger("other", logger);
        other.setup_experiment(0.0, None).unwrap();
        other.enter_initialization_mode().unwrap();
        other.set_real(&[0], &[4.0]).unwrap();
        other.get_real(&[1], &mut y).unwrap();
        other.get_real(&[1], &mut y).unwrap();
        assert_eq!(*log2.borrow(), vec![BEYOND.to_string()]);
    }

    #[test]
    fn raising_a_pending_cause_again_keeps_one_entry() {
        let mut w = Warnings::default();
        for _ in 0..3 {
            w.raise(BEYOND);
        }
        w.raise("another");
        assert_eq!(w.pending(), &[BEYOND, "another"]);
    }
}
