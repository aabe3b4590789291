//! Which states the outputs depend on, for the description's `<Outputs>` dependencies: blade
//! `b`'s outputs on blade `b`'s states (its beam and its hinges), station `k` of blade `b` on
//! node `k`'s states and blade `b`'s hinges, the node radii on none, the hub and shaft outputs
//! on all.

use super::DECLARED_PER_BLADE;
use crate::hinge;
use crate::layout::{MAX_BLADES, MAX_ELEMENTS, y};
use crate::stations::MAX_STATIONS;
use fmu_rotor::beam::blade_dynamics::PER_NODE;

/// Blade `b`'s hinge states (declared after all blades' node states).
fn hinge_states(b: usize) -> std::ops::Range<usize> {
    let at = MAX_BLADES * DECLARED_PER_BLADE + hinge::PER_BLADE * b;
    at..at + hinge::PER_BLADE
}

/// The declared states output `output` (position in `y`) depends on; `None` for all.
pub fn output_state_dependencies(output: usize) -> Option<Vec<usize>> {
    let blades = y::BLADES..y::BLADES + MAX_BLADES * y::PER_BLADE;
    let radii = y::NODES..y::NODES + MAX_ELEMENTS * y::PER_NODE_OUT;
    let stations = y::STATIONS..y::STATIONS + MAX_BLADES * MAX_STATIONS * y::PER_STATION;
    if blades.contains(&output) {
        let b = (output - y::BLADES) / y::PER_BLADE;
        return Some((b * DECLARED_PER_BLADE..(b + 1) * DECLARED_PER_BLADE).chain(hinge_states(b)).collect());
    }
    if radii.contains(&output) {
        return Some(Vec::new());
    }
    if stations.contains(&output) {
        let station = (output - y::STATIONS) / y::PER_STATION;
        let (b, k) = (station / MAX_STATIONS, station % MAX_STATIONS);
        // Station k is node k from the clamp (k = 0, no states of its own); node k's coordinates
        // and rates sit in the blade's two halves.
        let node = |half: usize| {
            let at = b * DECLARED_PER_BLADE + half * DECLARED_PER_BLADE / 2 + (k.max(1) - 1) * PER_NODE;
            at..at + if k == 0 { 0 } else { PER_NODE }
        };
        return Some(node(0).chain(node(1)).chain(hinge_states(b)).collect());
    }
    None
}
