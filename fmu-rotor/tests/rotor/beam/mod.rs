//! The geometrically exact beam (`fmu_rotor::beam`) against independent references: the
//! elastica closed forms, Euler-Bernoulli and torsion frequencies, a rotating cantilever's
//! frequencies, objectivity, and the blade-properties table reader. The reference values in
//! `data/` come from `tests/python/beam_reference.py` (SciPy; the command is in each file), or
//! are published numbers (the source in each file's header: `princeton_ansys_beam.csv`,
//! `wright_1982_*.csv`).

mod centrifugal;
mod elastica;
mod energy;
mod frequencies;
mod linearise;
mod objectivity;
mod offsets;
mod princeton;
mod table;
mod tangent;

use fmu_rotor::beam::{Beam, EngineeringSection, SectionProperties};

/// Rows of a reference CSV in `data/` (comment lines `#` and the header skipped), split at
/// commas.
pub fn reference_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .skip(1)
        .map(|line| line.split(',').map(str::to_owned).collect())
        .collect()
}

/// A uniform section: bending stiffnesses, torsion, and near-rigid extension and shear
/// (`EA = GA = stiff`), mass `m` per length and section inertias.
pub fn uniform_section(
    ei_flap: f64,
    ei_lag: f64,
    gj: f64,
    stiff: f64,
    mass_per_length: f64,
    inertia: [f64; 2],
) -> SectionProperties {
    SectionProperties::from_engineering(&EngineeringSection {
        ea: stiff,
        ga_lag: stiff,
        ga_flap: stiff,
        gj,
        ei_flap,
        ei_lag,
        mass_per_length,
        inertia_flap: inertia[0],
        inertia_lag: inertia[1],
        tension_centre: [0.0; 2],
        shear_centre: [0.0; 2],
        centre_of_mass: [0.0; 2],
    })
}

/// A straight uniform cantilever of unit length along `x` from the origin, `n` elements.
pub fn uniform_cantilever(n: usize, section: SectionProperties) -> Beam {
    Beam::straight([0.0; 3], 1.0, n, |_| section.clone(), |_| 0.0)
}
