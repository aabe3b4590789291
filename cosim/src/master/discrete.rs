//! Integer, Enumeration and Boolean variables: recorded, and passed along connections outside the
//! Newton coupling.
//!
//! Discrete values cannot be iterated on by Newton, so they are sampled: at every communication
//! point, right after the step (and once in initialization mode, before the Real coupling is
//! solved), every discrete output the master uses is read, passed to the inputs it is connected
//! to, and those are set; they hold over the next step (zero-order hold). A discrete output
//! therefore reaches a connected input at the same communication point, but a loop through
//! discrete variables sees the values of the point before.
//!
//! Connections: Integer and Enumeration to Integer or Enumeration, Boolean to Boolean, and
//! Integer to Real (the Real input is then an input the master drives, set to the integer's value
//! before the Real coupling is solved). String variables are neither connected nor recorded.
//! Recorded values are numbers: integers as they are, Booleans as 0 and 1.

use crate::import::CallError;
use crate::import::model_description::VarType;
use crate::system::{System, VarRef};

use super::Unit;
use super::ids::{InputRef, SlotId};

/// How a discrete value is exchanged with the FMU.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    /// `fmi2GetInteger` / `fmi2SetInteger` (Integer and Enumeration).
    Integer,
    /// `fmi2GetBoolean` / `fmi2SetBoolean`.
    Boolean,
}

impl Kind {
    /// The exchange kind of a discrete FMI type, `None` for Real and String.
    pub(super) fn of(var_type: VarType) -> Option<Kind> {
        match var_type {
            VarType::Integer | VarType::Enumeration => Some(Kind::Integer),
            VarType::Boolean => Some(Kind::Boolean),
            VarType::Real | VarType::String => None,
        }
    }
}

/// Where a connection's value goes.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// A discrete input.
    Slot(SlotId),
    /// A Real input the master drives.
    Real(InputRef),
}

/// A connection from a discrete output.
#[derive(Clone, Copy, Debug)]
struct Link {
    /// The discrete output.
    source: SlotId,
    target: Target,
}

/// Discrete variables of one unit exchanged by one FMI call: their value references and slots.
#[derive(Default)]
struct Exchange {
    vrs: Vec<u32>,
    slots: Vec<SlotId>,
}

/// The discrete variables of one unit, by kind and direction.
#[derive(Default)]
struct UnitVars {
    read_int: Exchange,
    read_bool: Exchange,
    write_int: Exchange,
    write_bool: Exchange,
}

/// Which discrete variables of a system the master reads and sets, and the connections between
/// them: part of the [`super::plan::CouplingPlan`], built from the model descriptions alone.
#[derive(Default)]
pub(super) struct DiscretePlan {
    /// The variable in each slot.
    slot_vars: Vec<VarRef>,
    units: Vec<UnitVars>,
    links: Vec<Link>,
}

impl DiscretePlan {
    /// Empty, for `n_units` units.
    pub(super) fn new(n_units: usize) -> DiscretePlan {
        DiscretePlan { units: (0..n_units).map(|_| UnitVars::default()).collect(), ..DiscretePlan::default() }
    }

    /// Whether `r` is a discrete variable the master reads or sets.
    pub(super) fn has(&self, r: VarRef) -> bool {
        self.slot_vars.contains(&r)
    }

    /// The slot of discrete variable `r` (added as an output to read, or an input to set, on
    /// first use).
    pub(super) fn slot(&mut self, r: VarRef, system: &System, input: bool) -> SlotId {
        if let Some(s) = self.slot_vars.iter().position(|&v| v == r) {
            return SlotId(s);
        }
        let variable = system.variable(r);
        let kind = Kind::of(variable.var_type).expect("a discrete variable");
        let s = SlotId(self.slot_vars.len());
        self.slot_vars.push(r);
        let unit = &mut self.units[r.instance];
        let list = match (kind, input) {
            (Kind::Integer, false) => &mut unit.read_int,
            (Kind::Boolean, false) => &mut unit.read_bool,
            (Kind::Integer, true) => &mut unit.write_int,
            (Kind::Boolean, true) => &mut unit.write_bool,
        };
        list.vrs.push(variable.value_reference);
        list.slots.push(s);
        s
    }

    /// Connects discrete output `from` to discrete input `to`.
    pub(super) fn connect(&mut self, from: VarRef, to: VarRef, system: &System) {
        let source = self.slot(from, system, false);
        let target = self.slot(to, system, true);
        self.links.push(Link { source, target: Target::Slot(target) });
    }

    /// Connects discrete output `from` to the driven Real input `to`.
    pub(super) fn connect_to_real(&mut self, from: VarRef, to: InputRef, system: &System) {
        let source = self.slot(from, system, false);
        self.links.push(Link { source, target: Target::Real(to) });
    }
}

/// The current values of the discrete variables of a [`DiscretePlan`] (kept in the
/// [`super::CouplingPlan`]).
pub(super) struct Discrete {
    /// Current value of every discrete variable the master reads or sets, by slot.
    values: Vec<f64>,
    /// Scratch buffers, as large as the longest list of one unit.
    ints: Vec<i32>,
    bools: Vec<bool>,
}

impl Discrete {
    /// The values of `plan`'s variables, all 0 until the first [`Discrete::exchange`].
    pub(super) fn new(plan: &DiscretePlan) -> Discrete {
        let longest = plan
            .units
            .iter()
            .flat_map(|u| [&u.read_int, &u.read_bool, &u.write_int, &u.write_bool])
            .map(|list| list.vrs.len())
            .max()
            .unwrap_or(0);
        Discrete {
            values: vec![0.0; plan.slot_vars.len()],
            ints: Vec::with_capacity(longest),
            bools: Vec::with_capacity(longest),
        }
    }

    /// The current values, by slot.
    pub(super) fn values(&self) -> &[f64] {
        &self.values
    }

    /// Restores values saved with [`Discrete::values`].
    pub(super) fn set_values(&mut self, values: &[f64]) {
        self.values.copy_from_slice(values);
    }

    /// The current value in `slot`.
    pub(super) fn value(&self, slot: SlotId) -> f64 {
        self.values[slot]
    }

    /// Reads every discrete output of `plan` (only reads: also allowed after an FMU ended the
    /// simulation).
    pub(super) fn read(&mut self, plan: &DiscretePlan, units: &mut [Box<Unit>]) -> Result<(), CallError> {
        let Discrete { values, ints, bools } = self;
        for (unit, owner) in plan.units.iter().zip(units.iter_mut()) {
            let slave = &mut owner.slave;
            let Exchange { vrs, slots } = &unit.read_int;
            if !vrs.is_empty() {
                ints.resize(vrs.len(), 0);
                slave.get_integer(vrs, ints)?;
                for (&s, &v) in slots.iter().zip(ints.iter()) {
                    values[s] = f64::from(v);
                }
            }
            let Exchange { vrs, slots } = &unit.read_bool;
            if !vrs.is_empty() {
                bools.resize(vrs.len(), false);
                slave.get_boolean(vrs, bools)?;
                for (&s, &v) in slots.iter().zip(bools.iter()) {
                    values[s] = if v { 1.0 } else { 0.0 };
                }
            }
        }
        Ok(())
    }

    /// Reads every discrete output of `plan`, passes the values along the connections, and sets
    /// the discrete inputs (Real inputs driven by an Integer through [`Unit::set_input`], so
    /// they reach the FMU with the Real inputs).
    pub(super) fn exchange(&mut self, plan: &DiscretePlan, units: &mut [Box<Unit>]) -> Result<(), CallError> {
        if self.values.is_empty() {
            return Ok(());
        }
        self.read(plan, units)?;
        let Discrete { values, ints, bools } = self;
        for &Link { source, target } in &plan.links {
            let value = values[source];
            match target {
                Target::Slot(s) => values[s] = value,
                Target::Real(to) => units[to.unit].set_input(to.input, value),
            }
        }
        for (unit, owner) in plan.units.iter().zip(units.iter_mut()) {
            let slave = &mut owner.slave;
            if !unit.write_int.vrs.is_empty() || !unit.write_bool.vrs.is_empty() {
                // Outputs read before may depend on these inputs.
                owner.out_fresh = false;
            }
            let Exchange { vrs, slots } = &unit.write_int;
            if !vrs.is_empty() {
                ints.clear();
                // Integer-valued by construction (read from an Integer or Enumeration).
                ints.extend(slots.iter().map(|&s| values[s] as i32));
                slave.set_integer(vrs, ints)?;
            }
            let Exchange { vrs, slots } = &unit.write_bool;
            if !vrs.is_empty() {
                bools.clear();
                bools.extend(slots.iter().map(|&s| values[s] != 0.0));
                slave.set_boolean(vrs, bools)?;
            }
        }
        Ok(())
    }
}
