//! Saving and restoring a whole [`Master`] at a communication point: every FMU's state (FMI
//! `fmi2GetFMUstate`) and the master's own memory of the coupling (inputs of the last steps for
//! extrapolation, the loop's last solution and reused Newton matrix, linear models of standard
//! FMUs), so that a restored master continues bit for bit as the saved one did. Serialised (with
//! [`fmu_core::codec`]), it is the master's numbers, then the FMU states' own bytes
//! (`fmi2SerializeFMUstate`).

use super::{Master, MasterError, Signal};
use fmu_core::codec::{Reader, Writer};

use crate::import::FmuState;

/// A saved [`Master`] ([`Master::get_state`]). Free it with [`Master::free_state`] to free the
/// FMUs' states too.
pub struct MasterState {
    time: f64,
    step_starts: [Option<f64>; 2],
    units: Vec<UnitState>,
    fmu_states: Vec<FmuState>,
    node_values: Vec<f64>,
    loops: Vec<LoopState>,
    discrete: Vec<f64>,
    /// The value of each external signal that is a constant (set from outside), else NaN.
    constants: Vec<f64>,
}

#[derive(Clone, PartialEq)]
struct UnitState {
    in_values: Vec<f64>,
    in_old: Vec<f64>,
    in_older: Vec<f64>,
    out_pred: Vec<f64>,
    out_fresh: bool,
    d: Vec<f64>,
}

#[derive(Clone, PartialEq)]
struct LoopState {
    a: Vec<f64>,
    pivots: Vec<usize>,
    factored: bool,
    warm: bool,
}

const MAGIC: &[u8; 8] = b"RFMS\x01\0\0\0";

fn unsupported(what: &str) -> MasterError {
    MasterError::Unsupported(format!("{what}: not every FMU of the system can get and set its state"))
}

impl Master {
    /// Whether every FMU can get and set its state (`canGetAndSetFMUstate`), which
    /// [`Master::get_state`] needs.
    pub fn can_get_and_set_state(&self) -> bool {
        self.system.instances.iter().all(|i| i.description.co_simulation.can_get_and_set_fmu_state == Some(true))
    }

    /// Whether every FMU can also serialise its state (`canSerializeFMUstate`).
    pub fn can_serialize_state(&self) -> bool {
        self.can_get_and_set_state()
            && self.system.instances.iter().all(|i| i.description.co_simulation.can_serialize_fmu_state == Some(true))
    }

    /// Saves the master and every FMU at the current communication point.
    pub fn get_state(&mut self) -> Result<MasterState, MasterError> {
        if !self.can_get_and_set_state() {
            return Err(unsupported("saving the system's state"));
        }
        let mut fmu_states = Vec::with_capacity(self.units.len());
        for unit in &mut self.units {
            // The FMU's state must hold the inputs the master has set.
            unit.flush()?;
            fmu_states.push(unit.slave.get_fmu_state()?);
        }
        Ok(MasterState {
            time: self.time,
            step_starts: self.step_starts,
            units: self
                .units
                .iter()
                .map(|u| UnitState {
                    in_values: u.in_values.clone(),
                    in_old: u.in_old.clone(),
                    in_older: u.in_older.clone(),
                    out_pred: u.out_pred.clone(),
                    out_fresh: u.out_fresh,
                    d: u.d.clone(),
                })
                .collect(),
            fmu_states,
            node_values: self.node_values.clone(),
            loops: self
                .loops
                .iter()
                .map(|l| LoopState {
                    a: l.newton.a.clone(),
                    pivots: l.newton.pivots.clone(),
                    factored: l.newton.factored,
                    warm: l.warm,
                })
                .collect(),
            discrete: self.discrete.values().to_vec(),
            constants: self.signals.iter().map(|s| if let Signal::Constant(v) = s { *v } else { f64::NAN }).collect(),
        })
    }

    /// Continues from `state`, saved from this master (or deserialised by it).
    pub fn set_state(&mut self, state: &MasterState) -> Result<(), MasterError> {
        let shape_ok = state.units.len() == self.units.len()
            && state.units.iter().zip(&self.units).all(|(s, u)| s.in_values.len() == u.in_values.len())
            && state.node_values.len() == self.node_values.len()
            && state.loops.len() == self.loops.len()
            && state.constants.len() == self.signals.len()
            && state.discrete.len() == self.discrete.values().len();
        if !shape_ok {
            return Err(MasterError::Unsupported("the saved state belongs to a different system".into()));
        }
        for ((unit, saved), fmu) in self.units.iter_mut().zip(&state.units).zip(&state.fmu_states) {
            unit.slave.set_fmu_state(fmu)?;
            unit.discard_pending();
            unit.in_values.copy_from_slice(&saved.in_values);
            unit.in_old.copy_from_slice(&saved.in_old);
            unit.in_older.copy_from_slice(&saved.in_older);
            unit.out_pred.copy_from_slice(&saved.out_pred);
            unit.outputs_changed();
            unit.out_fresh = saved.out_fresh;
            unit.d.copy_from_slice(&saved.d);
        }
        self.node_values.copy_from_slice(&state.node_values);
        for (l, saved) in self.loops.iter_mut().zip(&state.loops) {
            l.newton.a.copy_from_slice(&saved.a);
            l.newton.pivots.copy_from_slice(&saved.pivots);
            l.newton.factored = saved.factored;
            l.warm = saved.warm;
        }
        self.discrete.set_values(&state.discrete);
        for (signal, &value) in self.signals.iter_mut().zip(&state.constants) {
            if !value.is_nan() {
                *signal = Signal::Constant(value);
            }
        }
        self.time = state.time;
        self.step_starts = state.step_starts;
        self.forward_slopes_over = None;
        self.stop_reason = None;
        Ok(())
    }

    /// Frees the FMUs' states held by `state`.
    pub fn free_state(&mut self, state: MasterState) -> Result<(), MasterError> {
        for (unit, fmu) in self.units.iter_mut().zip(state.fmu_states) {
            unit.slave.free_fmu_state(fmu)?;
        }
        Ok(())
    }

    /// `state` as bytes: our numbers, then each FMU's serialised state.
    pub fn serialize_state(&mut self, state: &MasterState) -> Result<Vec<u8>, MasterError> {
        if !self.can_serialize_state() {
            return Err(MasterError::Unsupported(
                "serialising the system's state: not every FMU can serialise its state".into(),
            ));
        }
        let mut w = Writer(MAGIC.to_vec());
        w.f64s(&[state.time, state.step_starts[0].unwrap_or(f64::NAN), state.step_starts[1].unwrap_or(f64::NAN)]);
        for u in &state.units {
            for v in [&u.in_values, &u.in_old, &u.in_older, &u.out_pred, &u.d] {
                w.f64s(v);
            }
            w.u32(u32::from(u.out_fresh));
        }
        w.f64s(&state.node_values);
        for l in &state.loops {
            w.f64s(&l.a);
            w.u32(l.pivots.len() as u32);
            for &p in &l.pivots {
                w.u32(p as u32);
            }
            w.u32(u32::from(l.factored) | u32::from(l.warm) << 1);
        }
        w.f64s(&state.discrete);
        w.f64s(&state.constants);
        for (unit, fmu) in self.units.iter_mut().zip(&state.fmu_states) {
            w.bytes(&unit.slave.serialize_fmu_state(fmu)?);
        }
        Ok(w.0)
    }

    /// A state from the bytes of [`Master::serialize_state`] of a master of the same system.
    pub fn deserialize_state(&mut self, bytes: &[u8]) -> Result<MasterState, MasterError> {
        let bad = |what: &str| MasterError::Unsupported(format!("serialised system state: {what}"));
        let mut r = Reader(bytes);
        if r.take(MAGIC.len()).map_err(|m| bad(&m))? != MAGIC {
            return Err(bad("not written by this master (wrong magic)"));
        }
        let head = r.f64s().map_err(|m| bad(&m))?;
        let [time, s0, s1] = head[..] else { return Err(bad("bad header")) };
        let option = |v: f64| (!v.is_nan()).then_some(v);
        let mut units = Vec::with_capacity(self.units.len());
        for _ in 0..self.units.len() {
            let mut list = || r.f64s().map_err(|m| bad(&m));
            let (in_values, in_old, in_older, out_pred, d) = (list()?, list()?, list()?, list()?, list()?);
            let out_fresh = r.u32().map_err(|m| bad(&m))? != 0;
            units.push(UnitState { in_values, in_old, in_older, out_pred, out_fresh, d });
        }
        let node_values = r.f64s().map_err(|m| bad(&m))?;
        let mut loops = Vec::with_capacity(self.loops.len());
        for _ in 0..self.loops.len() {
            let a = r.f64s().map_err(|m| bad(&m))?;
            let n = r.len(4).map_err(|m| bad(&m))?;
            let pivots =
                (0..n).map(|_| r.u32().map(|p| p as usize)).collect::<Result<Vec<_>, _>>().map_err(|m| bad(&m))?;
            let flags = r.u32().map_err(|m| bad(&m))?;
            loops.push(LoopState { a, pivots, factored: flags & 1 != 0, warm: flags & 2 != 0 });
        }
        let discrete = r.f64s().map_err(|m| bad(&m))?;
        let constants = r.f64s().map_err(|m| bad(&m))?;
        let mut fmu_states = Vec::with_capacity(self.units.len());
        for unit in &mut self.units {
            let bytes = r.bytes().map_err(|m| bad(&m))?;
            fmu_states.push(unit.slave.deserialize_fmu_state(bytes)?);
        }
        if !r.is_empty() {
            return Err(bad("trailing bytes"));
        }
        let state = MasterState {
            time,
            step_starts: [option(s0), option(s1)],
            units,
            fmu_states,
            node_values,
            loops,
            discrete,
            constants,
        };
        let matching = state.units.iter().zip(&self.units).all(|(s, u)| {
            s.in_values.len() == u.in_values.len()
                && s.in_old.len() == u.in_old.len()
                && s.in_older.len() == u.in_older.len()
                && s.out_pred.len() == u.out_pred.len()
                && s.d.len() == u.d.len()
        }) && state
            .loops
            .iter()
            .zip(&self.loops)
            .all(|(s, l)| s.a.len() == l.newton.a.len() && s.pivots.len() == l.newton.pivots.len());
        if !matching {
            self.free_state(state)?;
            return Err(bad("it belongs to a different system"));
        }
        Ok(state)
    }
}
