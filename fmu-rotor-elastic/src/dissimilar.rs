//! Dissimilar blades of RotorElastic: per-blade overrides of the blade table (mass and stiffness
//! factors, applied to the beam before its mass is lumped) and pitch offsets. The lag damper
//! factor of the articulated hub is in [`crate::hinge`].

use fmu_core::params::{ParameterError, Reader};
use fmu_rotor::beam::Beam;

use crate::layout::{MAX_BLADES, vr};

/// Value reference of blade `i`'s (0-based) override `offset` in the per-blade block.
fn override_vr(i: usize, offset: u32) -> u32 {
    vr::BLADE_OVERRIDES + vr::PER_BLADE_OVERRIDES * i as u32 + offset
}

/// `[blade[n].mass_factor, blade[n].stiffness_factor]` of every blade.
pub fn factors(p: &Reader) -> Result<[[f64; 2]; MAX_BLADES], ParameterError> {
    let mut all = [[1.0; 2]; MAX_BLADES];
    for (i, values) in all.iter_mut().enumerate() {
        *values = [p.real(override_vr(i, vr::MASS_FACTOR))?, p.real(override_vr(i, vr::STIFFNESS_FACTOR))?];
    }
    Ok(all)
}

/// `blade[n].pitch_offset` of every blade (rad).
pub fn pitch_offsets(p: &Reader) -> Result<[f64; MAX_BLADES], ParameterError> {
    let mut all = [0.0; MAX_BLADES];
    for (i, offset) in all.iter_mut().enumerate() {
        *offset = p.real(override_vr(i, vr::PITCH_OFFSET))?;
    }
    Ok(all)
}

/// Scales every element's mass per length and section inertias by `mass` and its section
/// stiffness matrix by `stiffness`.
pub fn scale(beam: &mut Beam, [mass, stiffness]: [f64; 2]) {
    for element in &mut beam.elements {
        let section = &mut element.section;
        section.mass_per_length *= mass;
        section.inertia_per_length = section.inertia_per_length.map(|j| j * mass);
        section.stiffness = section.stiffness.map(|row| row.map(|k| k * stiffness));
    }
}
