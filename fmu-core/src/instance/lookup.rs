//! Value references resolved to their slots and names, and the errors for one that is unknown
//! or of another type.

use super::{FmuState, Instance, error};
use crate::catalog::Slot;
use crate::model::Model;
use crate::status::{FmiError, FmiResult};

/// The Integer and Boolean variables, which are read and set alike.
pub(super) trait Discrete: Copy + PartialEq {
    /// The FMI type with its article, for messages: "an Integer".
    const A_TYPE: &'static str;
    /// The index among this type's values, if `slot` is one of them.
    fn index(slot: Slot) -> Option<usize>;
    /// This type's stored values.
    fn values(s: &mut FmuState) -> &mut [Self];
}

impl Discrete for i32 {
    const A_TYPE: &'static str = "an Integer";
    fn index(slot: Slot) -> Option<usize> {
        if let Slot::Integer(s) = slot { Some(s) } else { None }
    }
    fn values(s: &mut FmuState) -> &mut [i32] {
        &mut s.integers
    }
}

impl Discrete for bool {
    const A_TYPE: &'static str = "a Boolean";
    fn index(slot: Slot) -> Option<usize> {
        if let Slot::Boolean(s) = slot { Some(s) } else { None }
    }
    fn values(s: &mut FmuState) -> &mut [bool] {
        &mut s.booleans
    }
}

impl<M: Model> Instance<M> {
    pub(super) fn slot(&self, function: &'static str, vr: u32) -> FmiResult<(usize, Slot)> {
        let i = self.catalog.index_of(vr).ok_or_else(|| error(function, format!("unknown value reference {vr}")))?;
        Ok((i, self.catalog.slots[i]))
    }

    /// The variable of value reference `vr` and its index among `T`'s values; an error if it is
    /// unknown or of another type.
    pub(super) fn discrete_slot<T: Discrete>(&self, function: &'static str, vr: u32) -> FmiResult<(usize, usize)> {
        let (i, slot) = self.slot(function, vr)?;
        T::index(slot).map(|s| (i, s)).ok_or_else(|| {
            let name = &self.catalog.variables[i].name;
            error(function, format!("variable '{name}' (value reference {vr}) is not {}", T::A_TYPE))
        })
    }

    pub(super) fn check_lengths(function: &'static str, vrs: usize, values: usize) -> FmiResult<()> {
        if vrs == values { Ok(()) } else { Err(error(function, format!("{vrs} value references but {values} values"))) }
    }

    /// The variable of value reference `vr` and its index among the String values; an error if
    /// it is unknown or of another type.
    pub(super) fn string_slot(&self, function: &'static str, vr: u32) -> FmiResult<(usize, usize)> {
        match self.slot(function, vr)? {
            (i, Slot::String(s)) => Ok((i, s)),
            (i, _) => {
                let name = &self.catalog.variables[i].name;
                Err(error(function, format!("variable '{name}' (value reference {vr}) is not a String")))
            }
        }
    }

    /// Name of a model variable, state or derivative by value reference.
    pub(super) fn real_name(&self, vr: u32) -> Option<String> {
        if let Some(v) = self.catalog.variable(vr) {
            return Some(v.name.clone());
        }
        match (self.catalog.state_index(vr), self.catalog.derivative_index(vr)) {
            (Some(d), _) => Some(self.catalog.states[d].name.clone()),
            (_, Some(d)) => Some(format!("der({})", self.catalog.states[d].name)),
            _ => None,
        }
    }

    /// The error for a value reference that is unknown or not a real.
    pub(super) fn not_a_real(&self, function: &'static str, vr: u32) -> FmiError {
        if let Some(name) =
            self.catalog.state_index(vr).or(self.catalog.derivative_index(vr)).and_then(|_| self.real_name(vr))
        {
            return error(
                function,
                format!(
                    "'{name}' (value reference {vr}) is a continuous state or derivative: it is not set with {function}"
                ),
            );
        }
        match self.slot(function, vr) {
            Ok((i, _)) => {
                let name = &self.catalog.variables[i].name;
                error(function, format!("variable '{name}' (value reference {vr}) is not a Real"))
            }
            Err(e) => e,
        }
    }
}
