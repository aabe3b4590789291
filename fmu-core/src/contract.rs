//! Facts of the public variable contract that our FMUs share (see the design's variable
//! contract): what one FMU declares, the others connect to.

/// Number of blades for which the blade-indexed variables (`blade[1]` .. `blade[8]`) of the
/// Rotor, Aero and Controls FMUs are declared; their `nb` parameter selects how many are active.
pub const MAX_BLADES: usize = 8;
