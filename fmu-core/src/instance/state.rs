//! FMU state: `fmi2GetFMUstate`, `fmi2SetFMUstate` and their (de)serialisation to bytes.

use std::ffi::CString;

use super::{FMU_STATE, Instance, S, SlaveState, error};
use crate::catalog::{Catalog, Slot};
use crate::codec::{Reader, Writer};
use crate::description;
use crate::model::Model;
use crate::status::FmiResult;
use crate::variable::Causality;

/// Everything that defines where an instance is: saved by `fmi2GetFMUstate`, restored by
/// `fmi2SetFMUstate`, and (de)serialised byte for byte.
#[derive(Debug, Clone, PartialEq)]
pub struct FmuState {
    pub(super) state: SlaveState,
    pub(super) time: f64,
    pub(super) start_time: f64,
    pub(super) stop_time: Option<f64>,
    pub(super) h_internal: f64,
    pub(super) reals: Vec<f64>,
    pub(super) integers: Vec<i32>,
    pub(super) booleans: Vec<bool>,
    /// The String values, NUL-terminated so that `fmi2GetString` can hand out pointers to them.
    pub(super) strings: Vec<CString>,
    pub(super) x: Vec<f64>,
    /// First then second time derivatives of the inputs (`2 n_u`), for the next step only.
    pub(super) input_derivatives: Vec<f64>,
}

impl FmuState {
    /// The state after `fmi2Instantiate` or `fmi2Reset`: start values, time 0, no states yet.
    pub(super) fn initial(catalog: &Catalog) -> FmuState {
        FmuState {
            state: SlaveState::Instantiated,
            time: 0.0,
            start_time: 0.0,
            stop_time: None,
            h_internal: 0.0,
            reals: catalog.real_start.clone(),
            integers: catalog.integer_start.clone(),
            booleans: catalog.boolean_start.clone(),
            strings: catalog.string_start.iter().map(|s| CString::new(*s).expect("checked by the catalog")).collect(),
            x: Vec::new(),
            input_derivatives: vec![0.0; 2 * catalog.input_slots.len()],
        }
    }
}

/// Version 4: the real values in slot order (inputs, outputs, the rest;
/// [`Catalog`](crate::catalog::Catalog)), the String values after the booleans.
const SERIAL_MAGIC: &[u8; 8] = b"RFMUSTv4";

impl<M: Model> Instance<M> {
    /// `fmi2GetFMUstate`: a copy of everything that determines the continuation.
    pub fn get_fmu_state(&mut self) -> FmiResult<FmuState> {
        self.guarded("fmi2GetFMUstate", FMU_STATE, |me| Ok(me.s.clone()))
    }

    /// `fmi2GetFMUstate` into an existing state object (no allocation when sizes match).
    pub fn get_fmu_state_into(&mut self, target: &mut FmuState) -> FmiResult<()> {
        self.guarded("fmi2GetFMUstate", FMU_STATE, |me| {
            target.clone_from(&me.s);
            Ok(())
        })
    }

    /// `fmi2SetFMUstate`: continues bit-identically from a state of this model. The model is
    /// configured anew only when the state's parameter values differ from those it was
    /// configured with (or before initialization); either way its evaluation memory
    /// ([`Model::Work`]: kept matrices, previous steps) starts afresh, as after configuration.
    pub fn set_fmu_state(&mut self, state: &FmuState) -> FmiResult<()> {
        const F: &str = "fmi2SetFMUstate";
        self.guarded(F, FMU_STATE, |me| {
            me.check_shape(F, state)?;
            let keep_model = !me.params_dirty
                && !matches!(state.state, S::Instantiated | S::InitializationMode)
                && me.model.as_ref().is_some_and(|c| c.model.n_states() == state.x.len())
                && me.same_parameters(state);
            me.s.clone_from(state);
            me.outputs_dirty = true;
            if let Some(configured) = me.model.as_mut().filter(|_| keep_model) {
                configured.work = configured.model.work();
                configured.work_dual = configured.model.work();
            } else if me.s.state != S::Instantiated {
                me.params_dirty = true;
                me.ensure_configured(F)?;
            } else {
                me.params_dirty = true;
                me.model = None;
            }
            Ok(())
        })
    }

    /// Whether `other` holds bit for bit the parameter values of the current state.
    fn same_parameters(&self, other: &FmuState) -> bool {
        let c = &self.catalog;
        c.slots.iter().zip(&c.causality).filter(|(_, causality)| **causality == Causality::Parameter).all(
            |(slot, _)| match *slot {
                Slot::Real(i) => self.s.reals[i].to_bits() == other.reals[i].to_bits(),
                Slot::Integer(i) => self.s.integers[i] == other.integers[i],
                Slot::Boolean(i) => self.s.booleans[i] == other.booleans[i],
                Slot::String(i) => self.s.strings[i] == other.strings[i],
            },
        )
    }

    fn check_shape(&self, function: &'static str, st: &FmuState) -> FmiResult<()> {
        let c = &self.catalog;
        if st.reals.len() != c.real_start.len()
            || st.integers.len() != c.integer_start.len()
            || st.booleans.len() != c.boolean_start.len()
            || st.strings.len() != c.string_start.len()
            || st.input_derivatives.len() != 2 * c.input_slots.len()
        {
            return Err(error(function, "FMU state belongs to a different model"));
        }
        Ok(())
    }

    /// `fmi2SerializeFMUstate`: a self-describing byte string (magic, GUID, then the values,
    /// little-endian).
    pub fn serialize_fmu_state(&mut self, state: &FmuState) -> FmiResult<Vec<u8>> {
        self.guarded("fmi2SerializeFMUstate", FMU_STATE, |_| Ok(serialize::<M>(state)))
    }

    /// `fmi2DeSerializeFMUstate`: checks the magic, GUID and sizes.
    pub fn deserialize_fmu_state(&mut self, bytes: &[u8]) -> FmiResult<FmuState> {
        const F: &str = "fmi2DeSerializeFMUstate";
        self.guarded(F, FMU_STATE, |me| {
            let st = deserialize::<M>(bytes).map_err(|m| error(F, m))?;
            me.check_shape(F, &st)?;
            Ok(st)
        })
    }
}

/// A state as bytes: magic, GUID, then the values ([`crate::codec`]).
fn serialize<M: Model>(st: &FmuState) -> Vec<u8> {
    let guid = description::guid::<M>();
    let mut w =
        Writer(Vec::with_capacity(64 + guid.len() + 8 * (st.reals.len() + st.x.len() + st.input_derivatives.len())));
    w.0.extend_from_slice(SERIAL_MAGIC);
    w.bytes(guid.as_bytes());
    w.0.push(st.state as u8);
    for v in [st.time, st.start_time, st.stop_time.unwrap_or(f64::NAN), st.h_internal] {
        w.f64(v);
    }
    for list in [&st.reals, &st.x, &st.input_derivatives] {
        w.f64s(list);
    }
    w.u32(st.integers.len() as u32);
    for v in &st.integers {
        w.0.extend_from_slice(&v.to_le_bytes());
    }
    w.bytes(&st.booleans.iter().map(|&v| u8::from(v)).collect::<Vec<u8>>());
    w.u32(st.strings.len() as u32);
    for s in &st.strings {
        w.bytes(s.as_bytes());
    }
    w.0
}

fn deserialize<M: Model>(bytes: &[u8]) -> Result<FmuState, String> {
    let mut r = Reader(bytes);
    if r.take(8)? != SERIAL_MAGIC {
        return Err("not a serialized FMU state of ours (bad magic)".into());
    }
    let guid = r.bytes()?;
    if guid != description::guid::<M>().as_bytes() {
        return Err(format!("serialized FMU state belongs to another model (GUID {})", String::from_utf8_lossy(guid)));
    }
    let state = SlaveState::from_u8(r.take(1)?[0]).ok_or("serialized FMU state has an invalid slave state")?;
    let (time, start_time, stop, h_internal) = (r.f64()?, r.f64()?, r.f64()?, r.f64()?);
    let reals = r.f64s()?;
    let x = r.f64s()?;
    let input_derivatives = r.f64s()?;
    let n = r.len(4)?;
    let integers = (0..n)
        .map(|_| Ok(i32::from_le_bytes(r.take(4)?.try_into().expect("4 bytes"))))
        .collect::<Result<Vec<_>, String>>()?;
    let booleans = r.bytes()?.iter().map(|&b| b != 0).collect();
    let n = r.len(4)?;
    let strings = (0..n)
        .map(|_| CString::new(r.bytes()?).map_err(|_| "serialized FMU state has a String with a NUL".to_string()))
        .collect::<Result<Vec<_>, String>>()?;
    if !r.is_empty() {
        return Err("serialized FMU state has trailing bytes".into());
    }
    Ok(FmuState {
        state,
        time,
        start_time,
        stop_time: (!stop.is_nan()).then_some(stop),
        h_internal,
        reals,
        integers,
        booleans,
        strings,
        x,
        input_derivatives,
    })
}
