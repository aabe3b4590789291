//! The validated table of a model's variables: value-reference lookup, storage slots, the
//! input (`u`) and output (`y`) orderings the model equations use.

use std::collections::HashMap;

use crate::units;
use crate::variable::{Causality, Feedthrough, Kind, Variable};

/// Where a variable's value lives in the instance's storage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// Index into the real values.
    Real(usize),
    /// Index into the integer values.
    Integer(usize),
    /// Index into the boolean values.
    Boolean(usize),
}

/// A model's variables, checked once, with lookups derived from them.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// The variables in declaration order (their 1-based position is the XML `index`).
    pub variables: Vec<Variable>,
    /// Storage slot of each variable, parallel to `variables`.
    pub slots: Vec<Slot>,
    by_vr: HashMap<u32, usize>,
    /// Real slots of the inputs, in `u` order.
    pub input_slots: Vec<usize>,
    /// Real slots of the outputs, in `y` order.
    pub output_slots: Vec<usize>,
    /// For each real slot: its position in `u` if it is an input.
    pub input_pos: Vec<Option<usize>>,
    /// For each real slot: its position in `y` if it is an output.
    pub output_pos: Vec<Option<usize>>,
    /// Start values of all real, integer and boolean slots.
    pub real_start: Vec<f64>,
    /// Integer start values.
    pub integer_start: Vec<i32>,
    /// Boolean start values.
    pub boolean_start: Vec<bool>,
    /// Integer legal ranges, parallel to `integer_start`.
    pub integer_range: Vec<(i32, i32)>,
    /// For each output (in `y` order), the `u` positions it depends on directly.
    pub feedthrough: Vec<Vec<usize>>,
}

impl Catalog {
    /// Checks the declarations: unique value references and names, known units, real inputs
    /// and outputs only, feedthrough that names inputs. An error here is a model bug.
    pub fn new(variables: Vec<Variable>) -> Result<Self, String> {
        let mut by_vr = HashMap::new();
        let mut names = HashMap::new();
        let (mut slots, mut real_start, mut integer_start, mut boolean_start, mut integer_range) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut input_slots, mut output_slots) = (Vec::new(), Vec::new());
        for (i, v) in variables.iter().enumerate() {
            if by_vr.insert(v.vr, i).is_some() {
                return Err(format!("value reference {} is declared twice (at '{}')", v.vr, v.name));
            }
            if names.insert(v.name.clone(), i).is_some() {
                return Err(format!("variable '{}' is declared twice", v.name));
            }
            let slot = match v.kind {
                Kind::Real { unit, start } => {
                    if !unit.is_empty() && units::base_unit(unit).is_none() {
                        return Err(format!("variable '{}' has unknown unit '{unit}'", v.name));
                    }
                    real_start.push(start);
                    Slot::Real(real_start.len() - 1)
                }
                Kind::Integer { start, min, max } => {
                    integer_start.push(start);
                    integer_range.push((min, max));
                    Slot::Integer(integer_start.len() - 1)
                }
                Kind::Boolean { start } => {
                    boolean_start.push(start);
                    Slot::Boolean(boolean_start.len() - 1)
                }
            };
            match (v.causality, slot) {
                (Causality::Input, Slot::Real(s)) => input_slots.push(s),
                (Causality::Output, Slot::Real(s)) => output_slots.push(s),
                (Causality::Input | Causality::Output, _) => {
                    return Err(format!("variable '{}': only real inputs and outputs are supported", v.name));
                }
                (Causality::Parameter, _) => {}
            }
            slots.push(slot);
        }
        let mut input_pos = vec![None; real_start.len()];
        for (k, &s) in input_slots.iter().enumerate() {
            input_pos[s] = Some(k);
        }
        let mut output_pos = vec![None; real_start.len()];
        for (k, &s) in output_slots.iter().enumerate() {
            output_pos[s] = Some(k);
        }
        let mut feedthrough = Vec::new();
        for v in variables.iter().filter(|v| v.causality == Causality::Output) {
            let deps = match &v.feedthrough {
                Feedthrough::None => Vec::new(),
                Feedthrough::Inputs(vrs) => {
                    let mut pos = Vec::new();
                    for vr in vrs {
                        let p = by_vr
                            .get(vr)
                            .and_then(|&i| match slots[i] {
                                Slot::Real(s) => input_pos[s],
                                _ => None,
                            })
                            .ok_or_else(|| format!("output '{}' depends on {vr}, which is not an input", v.name))?;
                        pos.push(p);
                    }
                    pos.sort_unstable();
                    pos.dedup();
                    pos
                }
            };
            feedthrough.push(deps);
        }
        Ok(Catalog {
            variables,
            slots,
            by_vr,
            input_slots,
            output_slots,
            input_pos,
            output_pos,
            real_start,
            integer_start,
            boolean_start,
            integer_range,
            feedthrough,
        })
    }

    /// Declaration index of a value reference.
    pub fn index_of(&self, vr: u32) -> Option<usize> {
        self.by_vr.get(&vr).copied()
    }

    /// The variable with this value reference.
    pub fn variable(&self, vr: u32) -> Option<&Variable> {
        self.index_of(vr).map(|i| &self.variables[i])
    }

    /// Value reference of a variable by name.
    pub fn vr_of(&self, name: &str) -> Option<u32> {
        self.variables.iter().find(|v| v.name == name).map(|v| v.vr)
    }
}
