//! One FMU instance as the master drives it: the inputs it is sent (batched, extrapolated), the
//! outputs it is read (or predicted by its linear model), and its saved state.

use std::sync::Arc;

use super::MasterError;
use super::ids::{InputId, OutputId};
use super::plan::UnitPlan;
use crate::import::model_description::ModelDescription;
use crate::import::{CallError, FmuState, Instance, StepResult};

/// One FMU instance with the master's buffers for it: the run data of one unit of the plan.
pub(super) struct Unit {
    /// Its coupling (driven inputs, read outputs, feedthrough), shared with the
    /// [`super::CouplingPlan`]: a worker thread steps the unit with it.
    pub(super) plan: Arc<UnitPlan>,
    pub(super) slave: Instance,
    /// Values of the driven inputs, by [`InputId`].
    pub(super) in_values: Vec<f64>,
    /// Inputs in effect during the last step (the linearisation point of `d`).
    pub(super) in_old: Vec<f64>,
    /// Inputs in effect during the step before (for quadratic extrapolation).
    pub(super) in_older: Vec<f64>,
    /// Inputs at the end of the first step, for its redo with forward slopes.
    pub(super) in_next: Vec<f64>,
    /// `in_values`, `in_old` and `in_older` when the FMU states were saved.
    pub(super) in_saved: [Vec<f64>; 3],
    /// Input positions changed since they were last sent to the FMU (`pending[j]`), in the
    /// order they changed (`pending_list`); sent together by one `fmi2SetReal` before the FMU
    /// is next read, differentiated or stepped.
    pub(super) pending: Vec<bool>,
    pub(super) pending_list: Vec<InputId>,
    pub(super) set_vrs: Vec<u32>,
    pub(super) set_values: Vec<f64>,
    /// Standard FMUs: outputs read right after the step (at `in_old`). Get-after-set FMUs (and
    /// every FMU in initialization mode): the outputs at the current inputs when `out_fresh`.
    pub(super) out_pred: Vec<f64>,
    /// `out_pred` is current: no input changed and no step was made since it was read.
    pub(super) out_fresh: bool,
    /// The read outputs without direct feedthrough, read alone at a communication point.
    pub(super) state_only: StateOnly,
    /// `d[k * n_in + j] = d out_k / d in_j` for standard FMUs, from directional derivatives
    /// ([`Unit::d_index`]).
    pub(super) d: Vec<f64>,
    pub(super) dd_vrs: Vec<u32>,
    pub(super) dd_values: Vec<f64>,
    /// Input derivatives sent before a step: `in_vrs` once per order (orders 1, then 2).
    pub(super) derivative_vrs: Vec<u32>,
    pub(super) derivative_orders: Vec<i32>,
    pub(super) derivative_values: Vec<f64>,
    pub(super) state: Option<FmuState>,
}

/// The outputs a unit reads that have no direct feedthrough: their `ModelStructure/Outputs`
/// dependencies name no input (of any type), so they are functions of the FMU's state and time
/// only. While stepping, the first of them the coupling needs after a step is read with the
/// others alone, in one `fmi2GetReal`, before any full read ([`Unit::output`]); the inputs set
/// afterwards cannot change them, so that read serves until the next step. An FMU that
/// evaluates just those (`fmu-core`'s `Model::state_outputs`) then need not evaluate its other
/// outputs at inputs that are about to change: those of a plant at the last point's input,
/// before a controller has computed the new input from the plant's state outputs. Only where outputs may be read at all
/// ([`Unit::exact`]): a standard FMU's outputs are all read right after its step, before any
/// input is set (FMI 2.0 forbids a get after a set between steps), as before.
pub(super) struct StateOnly {
    /// Per read output (position in `out_vrs`): it has no direct feedthrough.
    pub(super) is: Vec<bool>,
    /// Their positions in `out_vrs` and their value references, in `out_vrs` order.
    pos: Vec<OutputId>,
    vrs: Vec<u32>,
    values: Vec<f64>,
    /// Their values in `out_pred` are those after the last step (or state change): read
    /// since, by this read or by a full one. Cleared with [`Unit::outputs_changed`].
    pub(super) fresh: bool,
}

impl StateOnly {
    /// Which of the variables `read` (indices into `md.variables`) have dependencies that name
    /// no input ([`ModelDescription::feedthrough_inputs`]: a missing `dependencies` attribute
    /// means every input).
    pub(super) fn outputs(md: &ModelDescription, read: &[usize]) -> Vec<bool> {
        read.iter().map(|&v| md.feedthrough_inputs(v).is_empty()).collect()
    }

    /// The state-only reads of the outputs `out_vrs`, of which `is` marks those without
    /// feedthrough ([`StateOnly::outputs`]).
    pub(super) fn new(is: Vec<bool>, out_vrs: &[u32]) -> StateOnly {
        let pos: Vec<OutputId> = (0..is.len()).filter(|&k| is[k]).map(OutputId).collect();
        let vrs = pos.iter().map(|&k| out_vrs[k]).collect();
        StateOnly { values: vec![0.0; pos.len()], is, pos, vrs, fresh: false }
    }
}

/// How an output is evaluated at a communication point.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// Initialization mode: set/get allowed for every FMU.
    Initialization,
    /// After a step: get-after-set FMUs are read, standard FMUs use their linear model.
    Stepping,
}

impl Unit {
    /// Whether outputs may be read again after inputs were set.
    pub(super) fn exact(&self, phase: Phase) -> bool {
        phase == Phase::Initialization || self.plan.get_after_set
    }

    /// The position of `d out_k / d in_j` in `d`.
    pub(super) fn d_index(&self, k: OutputId, j: InputId) -> usize {
        k.0 * self.plan.in_vrs.len() + j.0
    }

    /// Sets input `j`. The value reaches the FMU with the next [`Unit::flush`]: before the next
    /// read of a get-after-set FMU, before the next step of any.
    pub(super) fn set_input(&mut self, j: InputId, value: f64) {
        if self.in_values[j] == value {
            return;
        }
        self.in_values[j] = value;
        self.out_fresh = false;
        if !self.pending[j] {
            self.pending[j] = true;
            self.pending_list.push(j);
        }
    }

    /// Sends the inputs set since the last flush, in one `fmi2SetReal`.
    pub(super) fn flush(&mut self) -> Result<(), CallError> {
        if self.pending_list.is_empty() {
            return Ok(());
        }
        self.set_vrs.clear();
        self.set_values.clear();
        for &j in &self.pending_list {
            self.pending[j] = false;
            self.set_vrs.push(self.plan.in_vrs[j]);
            self.set_values.push(self.in_values[j]);
        }
        self.pending_list.clear();
        self.slave.set_real(&self.set_vrs, &self.set_values)
    }

    /// Forgets unsent inputs (the FMU state they were meant for was replaced).
    pub(super) fn discard_pending(&mut self) {
        for &j in &self.pending_list {
            self.pending[j] = false;
        }
        self.pending_list.clear();
    }

    /// Reads every output the master uses, at the current inputs, into `out_pred`.
    pub(super) fn read_outputs(&mut self) -> Result<(), CallError> {
        self.flush()?;
        if !self.plan.out_vrs.is_empty() {
            self.slave.get_real(&self.plan.out_vrs, &mut self.out_pred)?;
        }
        self.out_fresh = true;
        self.state_only.fresh = true;
        Ok(())
    }

    /// Reads the outputs without direct feedthrough alone, in one `fmi2GetReal`, into
    /// `out_pred`. The inputs set since the last flush stay pending: these outputs do not
    /// depend on them.
    fn read_state_only_outputs(&mut self) -> Result<(), CallError> {
        let s = &mut self.state_only;
        self.slave.get_real(&s.vrs, &mut s.values)?;
        for (&k, &value) in s.pos.iter().zip(&s.values) {
            self.out_pred[k] = value;
        }
        s.fresh = true;
        Ok(())
    }

    /// The outputs may have changed other than by a change of inputs (a step, a restored FMU
    /// state, new states): every output is to be read again.
    pub(super) fn outputs_changed(&mut self) {
        self.out_fresh = false;
        self.state_only.fresh = false;
    }

    /// Current value of output `k` given the current inputs: read from the FMU (all outputs at
    /// once, once per input change) where the protocol allows it, else the linear model. While
    /// stepping, an output without direct feedthrough is read with the others like it alone,
    /// once per step ([`StateOnly`]).
    pub(super) fn output(&mut self, k: OutputId, phase: Phase) -> Result<f64, CallError> {
        if self.exact(phase) {
            if !self.out_fresh {
                if phase == Phase::Stepping && self.state_only.is[k] {
                    if !self.state_only.fresh {
                        self.read_state_only_outputs()?;
                    }
                } else {
                    self.read_outputs()?;
                }
            }
            Ok(self.out_pred[k])
        } else {
            let mut y = self.out_pred[k];
            for &j in &self.plan.feed_by_output[k] {
                y += self.d[self.d_index(k, j)] * (self.in_values[j] - self.in_old[j]);
            }
            Ok(y)
        }
    }

    /// Whether a step sends input derivatives (`derivative_values`), given the system's
    /// `extrapolate_inputs`.
    pub(super) fn extrapolates(&self, extrapolate: bool) -> bool {
        extrapolate && self.plan.can_interpolate && !self.plan.in_vrs.is_empty()
    }

    /// `fmi2DoStep` from `t` by `h` with the inputs now set and, when it
    /// [`Unit::extrapolates`], their derivatives in `derivative_values`.
    pub(super) fn step(&mut self, t: f64, h: f64, extrapolate: bool) -> Result<(), MasterError> {
        self.flush()?;
        if self.extrapolates(extrapolate) {
            self.slave.set_real_input_derivatives(
                &self.derivative_vrs,
                &self.derivative_orders,
                &self.derivative_values,
            )?;
        }
        self.in_older.copy_from_slice(&self.in_old);
        self.in_old.copy_from_slice(&self.in_values);
        self.outputs_changed();
        match self.slave.do_step(t, h, false)? {
            StepResult::Complete => Ok(()),
            StepResult::Discarded => Err(MasterError::StepDiscarded {
                instance: self.plan.name.clone(),
                time: t,
                step: h,
                hint: String::new(),
            }),
            StepResult::Terminated => {
                let time = self.slave.last_successful_time().ok().filter(|x| x.is_finite()).unwrap_or(t);
                Err(MasterError::Terminated { instance: self.plan.name.clone(), time })
            }
        }
    }

    /// Saves the FMU state (when rollback is on) with the inputs it holds.
    pub(super) fn save(&mut self) -> Result<(), MasterError> {
        // The saved state must hold the inputs saved with it.
        self.flush()?;
        if let Some(state) = self.state.as_mut() {
            self.slave.get_fmu_state_into(state)?;
        }
        for (saved, now) in self.in_saved.iter_mut().zip([&self.in_values, &self.in_old, &self.in_older]) {
            saved.copy_from_slice(now);
        }
        Ok(())
    }

    /// `d = dg/du` for every output/input pair with feedthrough, by directional derivatives.
    pub(super) fn linearise(&mut self) -> Result<(), CallError> {
        let plan = Arc::clone(&self.plan);
        for (j, outs) in plan.feed_by_input.iter().enumerate().map(|(j, outs)| (InputId(j), outs)) {
            if outs.is_empty() {
                continue;
            }
            self.dd_vrs.clear();
            self.dd_vrs.extend(outs.iter().map(|&k| plan.out_vrs[k]));
            self.dd_values.resize(outs.len(), 0.0);
            self.slave.get_directional_derivative(&self.dd_vrs, &[plan.in_vrs[j]], &[1.0], &mut self.dd_values)?;
            for (n, &k) in outs.iter().enumerate() {
                let at = self.d_index(k, j);
                self.d[at] = self.dd_values[n];
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::StateOnly;
    use crate::import::model_description::{Causality, ModelDescription};

    /// A plant with one input `u` and three outputs: `x` declared without dependencies on inputs
    /// (`dependencies=""`), `y` depending on `u`, and `z` with `dependencies=""` written
    /// or, with `attribute = false`, without the attribute (then it depends on every input).
    fn plant(attribute: bool) -> String {
        let z = if attribute { r#" dependencies="""# } else { "" };
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="Plant" guid="{{0}}">
  <CoSimulation modelIdentifier="Plant"/>
  <ModelVariables>
    <ScalarVariable name="u" valueReference="0" causality="input" variability="continuous"><Real start="0"/></ScalarVariable>
    <ScalarVariable name="x" valueReference="1" causality="output" variability="continuous" initial="exact"><Real start="0"/></ScalarVariable>
    <ScalarVariable name="y" valueReference="2" causality="output" variability="continuous" initial="calculated"><Real/></ScalarVariable>
    <ScalarVariable name="z" valueReference="3" causality="output" variability="continuous" initial="exact"><Real start="0"/></ScalarVariable>
  </ModelVariables>
  <ModelStructure>
    <Outputs>
      <Unknown index="2" dependencies=""/>
      <Unknown index="3" dependencies="1"/>
      <Unknown index="4"{z}/>
    </Outputs>
  </ModelStructure>
</fmiModelDescription>"#
        )
    }

    /// The outputs [`StateOnly`] picks among all outputs of the description `xml`, by name.
    fn picked(xml: &str) -> Vec<String> {
        let md = ModelDescription::parse(xml).unwrap();
        let outputs: Vec<usize> =
            (0..md.variables.len()).filter(|&v| md.variables[v].causality == Causality::Output).collect();
        let vrs: Vec<u32> = outputs.iter().map(|&v| md.variables[v].value_reference).collect();
        let s = StateOnly::new(StateOnly::outputs(&md, &outputs), &vrs);
        assert_eq!(s.pos.len(), s.vrs.len());
        outputs.iter().zip(&s.is).filter(|(_, is)| **is).map(|(&v, _)| md.variables[v].name.clone()).collect()
    }

    #[test]
    fn outputs_whose_dependencies_name_no_input_are_read_alone() {
        assert_eq!(picked(&plant(true)), ["x", "z"]);
    }

    #[test]
    fn an_output_without_dependencies_attribute_depends_on_every_input() {
        assert_eq!(picked(&plant(false)), ["x"]);
    }
}
