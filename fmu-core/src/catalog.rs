//! The validated table of a model's variables: value-reference lookup, storage slots, the
//! input (`u`) and output (`y`) orderings the model equations use.

use std::collections::HashMap;
use std::ops::Range;

use crate::model::StateVariable;
use crate::units;

/// Value reference of the first declared continuous state (Model Exchange); state `i` is
/// `STATE_VR_BASE + i`. Model variables use smaller value references.
pub const STATE_VR_BASE: u32 = 10_000;
/// Value reference of the derivative of the first declared state; `der(state i)` is
/// `DERIVATIVE_VR_BASE + i`.
pub const DERIVATIVE_VR_BASE: u32 = 20_000;
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
    /// Index into the string values.
    String(usize),
}

/// A model's variables, checked once, with lookups derived from them.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// The variables in declaration order (their 1-based position is the XML `index`).
    pub variables: Vec<Variable>,
    /// Storage slot of each variable, parallel to `variables`.
    pub slots: Vec<Slot>,
    /// Causality of each variable, parallel to `variables` (compact, for the setters and
    /// getters' per-element checks).
    pub causality: Vec<Causality>,
    by_vr: VrIndex,
    /// Real slots of the inputs, in `u` order: the first real slots, so `u` is the slice
    /// [`Catalog::inputs`] of the real values.
    pub input_slots: Vec<usize>,
    /// Real slots of the outputs, in `y` order: the real slots right after the inputs
    /// ([`Catalog::outputs`]).
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
    /// String start values.
    pub string_start: Vec<&'static str>,
    /// For each output (in `y` order), the `u` positions it depends on directly.
    pub feedthrough: Vec<Vec<usize>>,
    /// For each output (in `y` order): it has no direct feedthrough (a function of the time and
    /// the state only, see [`crate::model::Model::state_outputs`]).
    pub state_only: Vec<bool>,
    /// The declared continuous states (Model Exchange), in state-vector order; empty for a
    /// Co-Simulation-only model.
    pub states: Vec<StateVariable>,
}

/// Declaration index by value reference: direct tables when the value references are small
/// (every model of ours; a lookup on each `fmi2GetReal`/`fmi2SetReal` element is then one load),
/// a hash map otherwise.
#[derive(Debug, Clone)]
enum VrIndex {
    /// `index[vr]` is the declaration index, or `u32::MAX` for an unused value reference;
    /// `real[vr]` is the real slot shifted left by 2 with the causality code (see
    /// [`causality_code`]) in the low bits, or `u32::MAX` for anything but a real.
    Dense {
        index: Vec<u32>,
        real: Vec<u32>,
    },
    Hashed(HashMap<u32, usize>),
}

fn causality_code(c: Causality) -> u32 {
    match c {
        Causality::Parameter => 0,
        Causality::Input => 1,
        Causality::Output => 2,
    }
}

const CAUSALITIES: [Causality; 3] = [Causality::Parameter, Causality::Input, Causality::Output];

/// Largest value reference for which [`VrIndex::Dense`] is used (a table of at most 256 KiB).
const DENSE_VR_LIMIT: u32 = 1 << 16;

impl VrIndex {
    fn new(by_vr: HashMap<u32, usize>, slots: &[Slot], causality: &[Causality]) -> Self {
        match by_vr.keys().max() {
            Some(&max) if max < DENSE_VR_LIMIT => {
                let mut index = vec![u32::MAX; max as usize + 1];
                let mut real = vec![u32::MAX; max as usize + 1];
                for (&vr, &i) in &by_vr {
                    index[vr as usize] = i as u32;
                    if let Slot::Real(s) = slots[i] {
                        real[vr as usize] = ((s as u32) << 2) | causality_code(causality[i]);
                    }
                }
                VrIndex::Dense { index, real }
            }
            _ => VrIndex::Hashed(by_vr),
        }
    }

    #[inline]
    fn get(&self, vr: u32) -> Option<usize> {
        match self {
            VrIndex::Dense { index, .. } => match index.get(vr as usize) {
                Some(&i) if i != u32::MAX => Some(i as usize),
                _ => None,
            },
            VrIndex::Hashed(map) => map.get(&vr).copied(),
        }
    }
}

/// The storage of a catalog's variables: slots, start values, the `u` and `y` orderings.
struct Storage {
    slots: Vec<Slot>,
    real_start: Vec<f64>,
    integer_start: Vec<i32>,
    boolean_start: Vec<bool>,
    integer_range: Vec<(i32, i32)>,
    string_start: Vec<&'static str>,
    input_slots: Vec<usize>,
    output_slots: Vec<usize>,
}

impl Storage {
    /// Assigns the slots of checked variables (see [`check_variable`]). Real slots: the inputs
    /// first, then the outputs, then the rest, each in declaration order, so that `u` and `y`
    /// are contiguous in the instance's storage.
    fn assign(variables: &[Variable]) -> Self {
        let count =
            |c: Causality| variables.iter().filter(|v| v.causality == c && matches!(v.kind, Kind::Real { .. })).count();
        let (n_u, n_y) = (count(Causality::Input), count(Causality::Output));
        let mut storage = Storage {
            slots: Vec::with_capacity(variables.len()),
            real_start: vec![0.0; variables.iter().filter(|v| matches!(v.kind, Kind::Real { .. })).count()],
            integer_start: Vec::new(),
            boolean_start: Vec::new(),
            integer_range: Vec::new(),
            string_start: Vec::new(),
            input_slots: Vec::new(),
            output_slots: Vec::new(),
        };
        let mut next_slot = [n_u + n_y, 0, n_u];
        for v in variables {
            let slot = match v.kind {
                Kind::Real { start, .. } => {
                    let next = &mut next_slot[causality_code(v.causality) as usize];
                    storage.real_start[*next] = start;
                    *next += 1;
                    Slot::Real(*next - 1)
                }
                Kind::Integer { start, min, max } => {
                    storage.integer_start.push(start);
                    storage.integer_range.push((min, max));
                    Slot::Integer(storage.integer_start.len() - 1)
                }
                Kind::Boolean { start } => {
                    storage.boolean_start.push(start);
                    Slot::Boolean(storage.boolean_start.len() - 1)
                }
                Kind::String { start } => {
                    storage.string_start.push(start);
                    Slot::String(storage.string_start.len() - 1)
                }
            };
            match (v.causality, slot) {
                (Causality::Input, Slot::Real(s)) => storage.input_slots.push(s),
                (Causality::Output, Slot::Real(s)) => storage.output_slots.push(s),
                _ => {}
            }
            storage.slots.push(slot);
        }
        storage
    }
}

/// Checks one variable on its own: known unit, display unit of that unit, start within the
/// range, enumeration start, min and max among its items; display units and ranges on reals
/// only, enumerations on integers only, real inputs and outputs only.
fn check_variable(v: &Variable) -> Result<(), String> {
    match v.kind {
        Kind::Real { unit, start } => {
            if !unit.is_empty() && units::base_unit(unit).is_none() {
                return Err(format!("variable '{}' has unknown unit '{unit}'", v.name));
            }
            if let Some(d) = v.display_unit
                && !units::display_units(unit).iter().any(|(name, _)| *name == d)
            {
                return Err(format!("variable '{}': unit '{unit}' has no display unit '{d}'", v.name));
            }
            let (min, max) = v.range;
            if min.is_some_and(|m| start < m) || max.is_some_and(|m| start > m) {
                return Err(format!("variable '{}': start {start} outside [{min:?}, {max:?}]", v.name));
            }
        }
        Kind::Integer { start, min, max } => {
            if let Some(e) = v.enumeration
                && [start, min, max].iter().any(|x| !e.items.iter().any(|(_, value, _)| value == x))
            {
                return Err(format!("variable '{}': start, min and max must be items of {}", v.name, e.name));
            }
        }
        Kind::Boolean { .. } => {}
        Kind::String { start } => {
            if start.contains('\0') {
                return Err(format!("variable '{}': a String start value cannot hold a NUL", v.name));
            }
        }
    }
    let real = matches!(v.kind, Kind::Real { .. });
    if (v.display_unit.is_some() || v.range != (None, None)) && !real {
        return Err(format!("variable '{}': display units and ranges are for reals", v.name));
    }
    if v.enumeration.is_some() && !matches!(v.kind, Kind::Integer { .. }) {
        return Err(format!("variable '{}': only integers can be enumerations", v.name));
    }
    if matches!(v.causality, Causality::Input | Causality::Output) && !real {
        return Err(format!("variable '{}': only real inputs and outputs are supported", v.name));
    }
    Ok(())
}

/// For each real slot: its position in `order` (the `u` or `y` slots), if any.
fn positions(order: &[usize], n_real: usize) -> Vec<Option<usize>> {
    let mut pos = vec![None; n_real];
    for (k, &s) in order.iter().enumerate() {
        pos[s] = Some(k);
    }
    pos
}

/// For each output (in `y` order), the sorted `u` positions of the inputs it declares it depends
/// on; an error if one of them is not an input.
fn feedthrough(
    variables: &[Variable],
    by_vr: &HashMap<u32, usize>,
    slots: &[Slot],
    input_pos: &[Option<usize>],
) -> Result<Vec<Vec<usize>>, String> {
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
    Ok(feedthrough)
}

impl Catalog {
    /// Checks the declarations: unique value references and names, known units, real inputs
    /// and outputs only, feedthrough that names inputs. An error here is a model bug.
    pub fn new(variables: Vec<Variable>) -> Result<Self, String> {
        let mut by_vr = HashMap::new();
        let mut names = HashMap::new();
        for (i, v) in variables.iter().enumerate() {
            if by_vr.insert(v.vr, i).is_some() {
                return Err(format!("value reference {} is declared twice (at '{}')", v.vr, v.name));
            }
            if names.insert(v.name.clone(), i).is_some() {
                return Err(format!("variable '{}' is declared twice", v.name));
            }
            check_variable(v)?;
        }
        let Storage {
            slots,
            real_start,
            integer_start,
            boolean_start,
            integer_range,
            string_start,
            input_slots,
            output_slots,
        } = Storage::assign(&variables);
        let input_pos = positions(&input_slots, real_start.len());
        let output_pos = positions(&output_slots, real_start.len());
        let feedthrough = feedthrough(&variables, &by_vr, &slots, &input_pos)?;
        let causality: Vec<Causality> = variables.iter().map(|v| v.causality).collect();
        let state_only = feedthrough.iter().map(Vec::is_empty).collect();
        Ok(Catalog {
            by_vr: VrIndex::new(by_vr, &slots, &causality),
            causality,
            variables,
            slots,
            input_slots,
            output_slots,
            input_pos,
            output_pos,
            real_start,
            integer_start,
            boolean_start,
            integer_range,
            string_start,
            feedthrough,
            state_only,
            states: Vec::new(),
        })
    }

    /// Positions of the inputs among the real slots (`u`).
    pub fn inputs(&self) -> Range<usize> {
        0..self.input_slots.len()
    }

    /// Positions of the outputs among the real slots (`y`).
    pub fn outputs(&self) -> Range<usize> {
        let n_u = self.input_slots.len();
        n_u..n_u + self.output_slots.len()
    }

    /// Whether real slot `s` is an output without direct feedthrough.
    #[inline]
    pub fn is_state_only_output(&self, s: usize) -> bool {
        matches!(self.output_pos.get(s), Some(&Some(k)) if self.state_only[k])
    }

    /// Declaration index of a value reference.
    #[inline]
    pub fn index_of(&self, vr: u32) -> Option<usize> {
        self.by_vr.get(vr)
    }

    /// The real slot and causality of a real variable by value reference (`None` for an unknown
    /// reference or a variable of another type): one table load for small value references.
    #[inline]
    pub fn real(&self, vr: u32) -> Option<(usize, Causality)> {
        match &self.by_vr {
            VrIndex::Dense { real, .. } => match real.get(vr as usize) {
                Some(&e) if e != u32::MAX => Some(((e >> 2) as usize, CAUSALITIES[(e & 3) as usize])),
                _ => None,
            },
            VrIndex::Hashed(map) => self.real_hashed(map, vr),
        }
    }

    /// [`Catalog::real`] for value references beyond the direct tables: out of line, so that the
    /// table load inlines into the getters' and setters' loops.
    #[cold]
    #[inline(never)]
    fn real_hashed(&self, map: &HashMap<u32, usize>, vr: u32) -> Option<(usize, Causality)> {
        let &i = map.get(&vr)?;
        match self.slots[i] {
            Slot::Real(s) => Some((s, self.causality[i])),
            _ => None,
        }
    }

    /// Adds the declared continuous states, checking that their names are new, their units
    /// known and their value references free.
    pub fn with_states(mut self, states: Vec<StateVariable>) -> Result<Self, String> {
        if states.len() as u32 >= DERIVATIVE_VR_BASE - STATE_VR_BASE {
            return Err(format!("{} states: too many", states.len()));
        }
        if let Some(v) = self.variables.iter().find(|v| v.vr >= STATE_VR_BASE) {
            return Err(format!("variable '{}': value reference {} is reserved for states", v.name, v.vr));
        }
        for (i, s) in states.iter().enumerate() {
            if self.vr_of(&s.name).is_some() || states[..i].iter().any(|t| t.name == s.name) {
                return Err(format!("state '{}' is declared twice", s.name));
            }
            for unit in [s.unit, s.derivative_unit] {
                if !unit.is_empty() && units::base_unit(unit).is_none() {
                    return Err(format!("state '{}' has unknown unit '{unit}'", s.name));
                }
            }
            if !(s.nominal > 0.0 && s.nominal.is_finite()) {
                return Err(format!("state '{}': nominal {} must be positive", s.name, s.nominal));
            }
        }
        self.states = states;
        Ok(self)
    }

    /// Position in [`Catalog::states`] of a state's value reference.
    #[inline]
    pub fn state_index(&self, vr: u32) -> Option<usize> {
        vr.checked_sub(STATE_VR_BASE).map(|i| i as usize).filter(|&i| i < self.states.len())
    }

    /// Position in [`Catalog::states`] of the state whose derivative has this value reference.
    #[inline]
    pub fn derivative_index(&self, vr: u32) -> Option<usize> {
        vr.checked_sub(DERIVATIVE_VR_BASE).map(|i| i as usize).filter(|&i| i < self.states.len())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog(vrs: [u32; 3]) -> Catalog {
        Catalog::new(vec![
            Variable::real_parameter("p", vrs[0], "", 1.0),
            Variable::real_input("u", vrs[1], "", 0.0),
            Variable::real_output("y", vrs[2], "").depends_on([vrs[1]]),
        ])
        .unwrap()
    }

    /// Small value references use the direct table, large ones the hash map; both find every
    /// declared reference and nothing else.
    #[test]
    fn value_references_are_found_by_table_and_by_hash() {
        for vrs in [[0, 7, 3], [5, DENSE_VR_LIMIT, 4_000_000_000]] {
            let c = catalog(vrs);
            assert_eq!(matches!(c.by_vr, VrIndex::Dense { .. }), vrs[1] < DENSE_VR_LIMIT);
            // Real slots: inputs, then outputs, then the rest.
            let slots = [2, 0, 1];
            for (i, &vr) in vrs.iter().enumerate() {
                assert_eq!(c.index_of(vr), Some(i));
                assert_eq!(
                    c.real(vr),
                    Some((slots[i], [Causality::Parameter, Causality::Input, Causality::Output][i]))
                );
            }
            assert_eq!((c.inputs(), c.outputs(), c.real_start.clone()), (0..1, 1..2, vec![0.0, 0.0, 1.0]));
            for vr in [1, 2, 6, 8, 100, DENSE_VR_LIMIT - 1, u32::MAX] {
                assert_eq!(c.index_of(vr), None, "{vr}");
                assert_eq!(c.real(vr), None, "{vr}");
            }
            assert_eq!(c.feedthrough, vec![vec![0]]);
        }
    }
}
