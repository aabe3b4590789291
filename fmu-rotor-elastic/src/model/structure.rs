//! Which states the outputs depend on, for the description's `<Outputs>` dependencies: blade
//! `b`'s outputs on blade `b`'s states only (its beam), the hub and shaft outputs on all.

use std::ops::Range;

use super::DECLARED_PER_BLADE;
use crate::layout::{MAX_BLADES, y};

/// The declared states output `output` (position in `y`) depends on; `None` for all.
pub fn output_state_dependencies(output: usize) -> Option<Range<usize>> {
    let blades = y::BLADES..y::BLADES + MAX_BLADES * y::PER_BLADE;
    if !blades.contains(&output) {
        return None;
    }
    let b = (output - y::BLADES) / y::PER_BLADE;
    Some(b * DECLARED_PER_BLADE..(b + 1) * DECLARED_PER_BLADE)
}
