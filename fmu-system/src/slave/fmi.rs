//! [`SystemSlave`]'s `fmi2*` functions: the [`CoSimulation`] trait that `fmu-core`'s export
//! calls, over the inner [`Master`](cosim::master::Master).

use fmu_core::instance::Logger;
use fmu_core::{CoSimulation, FmiError, FmiResult, InstantiateArgs, Status};

use super::*;

impl CoSimulation for SystemSlave {
    type State = SystemState;

    fn instantiate(args: InstantiateArgs<'_>, logger: Logger) -> Result<Self, String> {
        if args.model_exchange {
            return Err(
                "fmuType fmi2ModelExchange (0) requested, but a system FMU supports only fmi2CoSimulation (1)".into()
            );
        }
        let location = args
            .resource_location
            .ok_or("fmuResourceLocation is null: a system FMU needs its resources folder (system.json and FMUs)")?;
        SystemSlave::open(&fmu_core::resources::path_from_uri(location)?, args.guid, logger).map_err(|e| e.to_string())
    }

    fn fail(&mut self, e: &FmiError) {
        self.log(e.status, &e.to_string());
        if e.status >= Status::Error {
            self.phase = Phase::Failed;
        }
    }

    fn set_debug_logging(&mut self, on: bool, _categories: &[&str]) -> FmiResult<()> {
        self.debug_logging = on;
        if let Some(messages) = Arc::get_mut(&mut self.inner_messages) {
            messages.debug = on;
        }
        Ok(())
    }

    fn setup_experiment(&mut self, start_time: f64, stop_time: Option<f64>) -> FmiResult<()> {
        const F: &str = "fmi2SetupExperiment";
        self.guarded(F, &[Phase::Instantiated], |me| {
            if !start_time.is_finite() || stop_time.is_some_and(|s| s.is_nan() || s <= start_time) {
                return Err(error(F, format!("start time {start_time}, stop time {stop_time:?}: need start < stop")));
            }
            me.start_time = start_time;
            me.stop_time = stop_time;
            Ok(())
        })
    }

    fn enter_initialization_mode(&mut self) -> FmiResult<()> {
        self.guarded("fmi2EnterInitializationMode", &[Phase::Instantiated], |me| {
            me.phase = Phase::Initialization;
            Ok(())
        })
    }

    fn exit_initialization_mode(&mut self) -> FmiResult<()> {
        const F: &str = "fmi2ExitInitializationMode";
        self.guarded(F, &[Phase::Initialization], |me| {
            me.refresh(F)?;
            me.phase = Phase::Stepping;
            me.log(Status::Ok, "initialized: algebraic loops solved by the Newton master");
            Ok(())
        })
    }

    fn terminate(&mut self) -> FmiResult<()> {
        const F: &str = "fmi2Terminate";
        self.guarded(F, &[Phase::Stepping, Phase::Ended], |me| {
            if let Some(run) = me.run.as_mut() {
                let result = run.master.terminate();
                result.map_err(|e| me.master_error(F, e))?;
            }
            me.phase = Phase::Terminated;
            Ok(())
        })
    }

    fn reset(&mut self) -> FmiResult<()> {
        self.run = None;
        self.values = self.interface.variables.iter().map(|v| v.start.unwrap_or(0.0)).collect();
        self.start_time = self.description.experiment.start;
        self.stop_time = None;
        self.rebuild = true;
        self.inputs_changed = false;
        self.input_derivatives.iter_mut().for_each(|d| *d = [0.0; 2]);
        self.input_derivatives_set = false;
        self.phase = Phase::Instantiated;
        Ok(())
    }

    fn set_real(&mut self, vrs: &[u32], values: &[f64]) -> FmiResult<()> {
        self.set("fmi2SetReal", OuterType::Real, vrs, values)
    }

    fn set_integer(&mut self, vrs: &[u32], values: &[i32]) -> FmiResult<()> {
        let values: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
        self.set("fmi2SetInteger", OuterType::Integer, vrs, &values)
    }

    fn set_boolean(&mut self, vrs: &[u32], values: &[bool]) -> FmiResult<()> {
        let values: Vec<f64> = values.iter().map(|&v| f64::from(u8::from(v))).collect();
        self.set("fmi2SetBoolean", OuterType::Boolean, vrs, &values)
    }

    fn set_string(&mut self, vrs: &[u32], _values: &[&str]) -> FmiResult<()> {
        match vrs.first() {
            None => Ok(()),
            Some(vr) => Err(error("fmi2SetString", format!("unknown value reference {vr}: no String variables"))),
        }
    }

    fn get_real(&mut self, vrs: &[u32], values: &mut [f64]) -> FmiResult<()> {
        const F: &str = "fmi2GetReal";
        const READABLE: &[Phase] =
            &[Phase::Instantiated, Phase::Initialization, Phase::Stepping, Phase::Ended, Phase::Terminated];
        self.guarded(F, READABLE, |me| {
            if vrs.len() != values.len() {
                return Err(error(F, "value reference and value arrays differ in length"));
            }
            let any_output = vrs.iter().any(|&vr| {
                me.interface
                    .variables
                    .get((vr as usize).wrapping_sub(1))
                    .is_some_and(|v| v.causality == OuterCausality::Output)
            });
            if any_output {
                if me.phase == Phase::Instantiated {
                    return Err(error(F, "outputs are computed from initialization mode on"));
                }
                me.refresh(F)?;
            }
            const ALL: &[OuterCausality] = &[OuterCausality::Parameter, OuterCausality::Input, OuterCausality::Output];
            for (&vr, value) in vrs.iter().zip(values.iter_mut()) {
                let k = me.variable(F, vr, OuterType::Real, ALL)?;
                *value = match (me.interface.variables[k].causality, &me.run) {
                    (OuterCausality::Output, Some(run)) => run.row[run.slot[k].expect("outputs are recorded")],
                    _ => me.values[k],
                };
            }
            Ok(())
        })
    }

    fn get_integer(&mut self, vrs: &[u32], values: &mut [i32]) -> FmiResult<()> {
        self.get_held("fmi2GetInteger", OuterType::Integer, vrs, |k, v| values[k] = v as i32)
    }

    fn get_boolean(&mut self, vrs: &[u32], values: &mut [bool]) -> FmiResult<()> {
        self.get_held("fmi2GetBoolean", OuterType::Boolean, vrs, |k, v| values[k] = v != 0.0)
    }

    fn get_string(&mut self, vrs: &[u32], _values: &mut [*const std::ffi::c_char]) -> FmiResult<()> {
        match vrs.first() {
            None => Ok(()),
            Some(vr) => Err(error("fmi2GetString", format!("unknown value reference {vr}: no String variables"))),
        }
    }

    fn do_step(&mut self, t: f64, h: f64) -> FmiResult<()> {
        const F: &str = "fmi2DoStep";
        self.guarded(F, &[Phase::Stepping], |me| {
            me.refresh(F)?;
            let mut run = me.run.take().expect("stepping has a run");
            // Inputs given with derivatives follow their polynomial over this step, then hold.
            let moving = me.input_derivatives_set;
            for k in (0..me.values.len()).filter(|&k| moving && me.input_derivatives[k] != [0.0; 2]) {
                let [slope, curvature] = me.input_derivatives[k];
                let signal = Signal::Polynomial { time: t, value: me.values[k], slope, curvature };
                run.master.set_external_signal(run.slot[k].expect("inputs have an external slot"), signal);
            }
            // Between grid points the master is already at the next one: the polynomial starts there.
            let mut result = Ok(());
            if moving && !run.on_grid() {
                result = run.master.resolve_coupling().map_err(Err);
            }
            let result = result.and_then(|()| run.advance(t, h, me.stop_time));
            for k in 0..me.values.len() {
                if !moving || me.input_derivatives[k] == [0.0; 2] {
                    continue;
                }
                me.input_derivatives[k] = [0.0; 2];
                let held = Signal::Constant(me.values[k]);
                run.master.set_external_signal(run.slot[k].expect("inputs have an external slot"), held);
                me.inputs_changed = true;
            }
            me.input_derivatives_set = false;
            me.last_successful_time = run.time;
            me.run = Some(run);
            match result {
                Ok(()) => Ok(()),
                Err(Ok(message)) => Err(error(F, message)),
                Err(Err(e)) => Err(me.master_error(F, e)),
            }
        })
    }

    fn get_fmu_state(&mut self) -> FmiResult<SystemState> {
        const F: &str = "fmi2GetFMUstate";
        self.guarded(F, &[Phase::Stepping, Phase::Ended], |me| {
            let run = me.run.as_mut().expect("stepping has a run");
            let master = run.master.get_state();
            let master = master.map_err(|e| me.master_error(F, e))?;
            let run = me.run.as_ref().expect("present");
            let outer = OuterState {
                values: me.values.clone(),
                row: run.row.clone(),
                time: run.time,
                segment: run.segment.clone(),
                grid_index: run.grid_index,
                ended: me.phase == Phase::Ended,
                last_successful_time: me.last_successful_time,
                inputs_changed: me.inputs_changed,
            };
            Ok(SystemState { master, outer })
        })
    }

    fn free_fmu_state(&mut self, state: SystemState) -> FmiResult<()> {
        match self.run.as_mut() {
            Some(run) => run.master.free_state(state.master).map_err(|e| error("fmi2FreeFMUstate", e.to_string())),
            None => Ok(()),
        }
    }

    fn set_fmu_state(&mut self, state: &SystemState) -> FmiResult<()> {
        const F: &str = "fmi2SetFMUstate";
        self.guarded(F, &[Phase::Stepping, Phase::Ended], |me| {
            let run = me.run.as_mut().expect("stepping has a run");
            let rows_fit =
                |segment: &Segment| segment.left.len() == run.row.len() && segment.right.len() == run.row.len();
            if state.outer.values.len() != me.values.len()
                || state.outer.row.len() != run.row.len()
                || !state.outer.segment.as_ref().is_none_or(rows_fit)
            {
                return Err(error(F, "the state belongs to a different system FMU"));
            }
            let result = run.master.set_state(&state.master);
            result.map_err(|e| me.master_error(F, e))?;
            let run = me.run.as_mut().expect("present");
            run.row.copy_from_slice(&state.outer.row);
            run.time = state.outer.time;
            run.segment = state.outer.segment.clone();
            run.grid_index = state.outer.grid_index;
            me.values.copy_from_slice(&state.outer.values);
            me.phase = if state.outer.ended { Phase::Ended } else { Phase::Stepping };
            me.last_successful_time = state.outer.last_successful_time;
            me.inputs_changed = state.outer.inputs_changed;
            Ok(())
        })
    }

    fn serialize_fmu_state(&mut self, state: &SystemState) -> FmiResult<Vec<u8>> {
        const F: &str = "fmi2SerializeFMUstate";
        self.guarded(F, &[Phase::Stepping, Phase::Ended], |me| {
            let outer = serde_json::to_vec(&state.outer).map_err(|e| error(F, e.to_string()))?;
            let run = me.run.as_mut().expect("stepping has a run");
            let master = run.master.serialize_state(&state.master);
            let master = master.map_err(|e| me.master_error(F, e))?;
            let mut bytes = (outer.len() as u64).to_le_bytes().to_vec();
            bytes.extend_from_slice(&outer);
            bytes.extend_from_slice(&master);
            Ok(bytes)
        })
    }

    fn deserialize_fmu_state(&mut self, bytes: &[u8]) -> FmiResult<SystemState> {
        const F: &str = "fmi2DeSerializeFMUstate";
        self.guarded(F, &[Phase::Stepping, Phase::Ended], |me| {
            let truncated = || error(F, "serialised state is truncated");
            let length = bytes.get(..8).ok_or_else(truncated)?;
            let length = usize::try_from(u64::from_le_bytes(length.try_into().expect("8 bytes"))).unwrap_or(usize::MAX);
            let outer = bytes.get(8..8usize.saturating_add(length)).ok_or_else(truncated)?;
            let outer: OuterState =
                serde_json::from_slice(outer).map_err(|e| error(F, format!("serialised state: {e}")))?;
            let run = me.run.as_mut().expect("stepping has a run");
            let master = run.master.deserialize_state(&bytes[8 + length..]);
            let master = master.map_err(|e| me.master_error(F, e))?;
            Ok(SystemState { master, outer })
        })
    }

    fn set_real_input_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &[f64]) -> FmiResult<()> {
        const F: &str = "fmi2SetRealInputDerivatives";
        self.guarded(F, &[Phase::Instantiated, Phase::Initialization, Phase::Stepping], |me| {
            if vrs.len() != orders.len() || vrs.len() != values.len() {
                return Err(error(F, "value reference, order and value arrays differ in length"));
            }
            for ((&vr, &order), &value) in vrs.iter().zip(orders).zip(values) {
                let k = me.variable(F, vr, OuterType::Real, &[OuterCausality::Input])?;
                if !(order == 1 || order == 2) || !value.is_finite() {
                    return Err(error(
                        F,
                        format!("derivative of order {order} = {value}: orders 1 and 2, finite values"),
                    ));
                }
                me.input_derivatives[k][order as usize - 1] = value;
                me.input_derivatives_set = true;
            }
            Ok(())
        })
    }

    fn last_successful_time(&mut self) -> FmiResult<f64> {
        Ok(self.last_successful_time)
    }

    fn terminated_status(&mut self) -> FmiResult<bool> {
        Ok(self.phase == Phase::Ended)
    }

    fn unsupported_status(&mut self, function: &'static str, kind: i32) -> FmiResult<()> {
        Err(error(function, format!("status kind {kind} is not available: steps are synchronous, never pending")))
    }
}
