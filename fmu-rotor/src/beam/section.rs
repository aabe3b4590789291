//! Cross-section properties: the 6x6 stiffness matrix and the mass properties per unit length.
//!
//! Material (section) axes: `e1` along the beam reference line (the pitch axis), `e2` in the
//! chord towards the leading edge (lag direction), `e3` normal to the chord (flap direction).
//! Strain measures `[Gamma1, Gamma2, Gamma3, K1, K2, K3]`: extension, shear along `e2` and
//! `e3`, twist rate and the bending curvatures about `e2` (flap) and `e3` (lag).

/// Engineering section properties about the offsets where each one acts.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineeringSection {
    /// Axial stiffness EA (N).
    pub ea: f64,
    /// Shear stiffness along `e2` (lag direction), GA2 (N).
    pub ga_lag: f64,
    /// Shear stiffness along `e3` (flap direction), GA3 (N).
    pub ga_flap: f64,
    /// Torsional stiffness GJ (N m^2).
    pub gj: f64,
    /// Flap bending stiffness EI2, about `e2` (N m^2).
    pub ei_flap: f64,
    /// Lag (chordwise) bending stiffness EI3, about `e3` (N m^2).
    pub ei_lag: f64,
    /// Mass per unit length (kg/m).
    pub mass_per_length: f64,
    /// Mass moment of inertia per length about the flap axis through the centre of mass,
    /// `int rho z^2 dA` (kg m).
    pub inertia_flap: f64,
    /// Mass moment of inertia per length about the lag axis through the centre of mass,
    /// `int rho y^2 dA` (kg m).
    pub inertia_lag: f64,
    /// Tension centre (where EA, EI act) in section axes `(e2, e3)` from the reference line (m).
    pub tension_centre: [f64; 2],
    /// Shear centre / elastic axis (where GA, GJ act) in section axes `(e2, e3)` (m).
    pub shear_centre: [f64; 2],
    /// Centre of mass in section axes `(e2, e3)` (m).
    pub centre_of_mass: [f64; 2],
}

/// Section properties about the reference line, as the beam uses them.
#[derive(Clone, Debug, PartialEq)]
pub struct SectionProperties {
    /// Stiffness matrix `C` (strain energy per length `1/2 e^T C e`), SI units, in the strain
    /// order of the module documentation; symmetric.
    pub stiffness: [[f64; 6]; 6],
    /// Mass per unit length (kg/m).
    pub mass_per_length: f64,
    /// Centre of mass in material axes from the reference line (m), first component 0.
    pub centre_of_mass: [f64; 3],
    /// Principal mass moments of inertia per length about the centre of mass in material axes
    /// `(polar, flap, lag)` (kg m).
    pub inertia_per_length: [f64; 3],
}

impl SectionProperties {
    /// The stiffness and mass about the reference line from engineering properties: each
    /// diagonal block is moved from its centre `r = (0, y, z)` with `e(r) = T e`, `T = [[I,
    /// -r~], [0, I]]` (the strain at `r` of a section with curvature `K`: `Gamma + K x r`), so
    /// `C = T_t^T diag(EA, 0, 0, 0, EI2, EI3) T_t + T_s^T diag(0, GA2, GA3, GJ, 0, 0) T_s`.
    pub fn from_engineering(section: &EngineeringSection) -> Self {
        let s = section;
        let axial_bending = [s.ea, 0.0, 0.0, 0.0, s.ei_flap, s.ei_lag];
        let shear_torsion = [0.0, s.ga_lag, s.ga_flap, s.gj, 0.0, 0.0];
        let mut stiffness = [[0.0; 6]; 6];
        for (diagonal, centre) in [(axial_bending, s.tension_centre), (shear_torsion, s.shear_centre)] {
            let t = offset_transform(centre);
            for (i, row) in stiffness.iter_mut().enumerate() {
                for (j, entry) in row.iter_mut().enumerate() {
                    *entry += (0..6).map(|k| t[k][i] * diagonal[k] * t[k][j]).sum::<f64>();
                }
            }
        }
        Self {
            stiffness,
            mass_per_length: s.mass_per_length,
            centre_of_mass: [0.0, s.centre_of_mass[0], s.centre_of_mass[1]],
            inertia_per_length: [s.inertia_flap + s.inertia_lag, s.inertia_flap, s.inertia_lag],
        }
    }
}

/// `T = [[I, -r~], [0, I]]` for the section point `r = (0, y, z)`.
fn offset_transform([y, z]: [f64; 2]) -> [[f64; 6]; 6] {
    let mut t = [[0.0; 6]; 6];
    for (i, row) in t.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    // -r~ with r = (0, y, z): rows (0, z, -y), (-z, 0, 0), (y, 0, 0).
    t[0][4] = z;
    t[0][5] = -y;
    t[1][3] = -z;
    t[2][3] = y;
    t
}
