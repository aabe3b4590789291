//! The hingeless rotor with elastic blades (`RotorElastic`), a variant of the Rotor FMU: each
//! blade is a geometrically exact beam ([`fmu_rotor::beam`]: Simo-Reissner two-node elements,
//! Crisfield-Jelenic interpolation, one-point integration) clamped behind a pitch bearing at the
//! hub, integrated in time by [`fmu_rotor::beam::dynamics`] (lumped mass, Newton-Euler per node
//! in the blade's pitch frame; centrifugal, Coriolis and gyroscopic terms from the frame's
//! motion). A variant FMU rather than an option of Rotor: its states (12 per node) and
//! parameters (a blade table, the element count) have nothing in common with the articulated
//! rotor's joint coordinates, and the Rotor's model description stays byte-identical.
//!
//! # Topology
//!
//! ```text
//! P (airframe attachment point, inputs hub.vel/omega/acc/alpha)
//! └─ shaft: driven, psi = psi0 + Omega t (massless rigid hub)
//!    └─ blade k at psi + 2 pi (k - 1)/nb: pitch bearing about x_S on the shaft axis, driven by
//!       blade[k].pitch/_rate/_acc
//!       └─ beam clamped at the blade table's first radius, free at its last (n_elements)
//! ```
//!
//! Frames, signs and the hub and blade variables are the Rotor's (`fmu_rotor` crate
//! documentation); what differs is in [`layout`] and `docs/models.md` ("Elastic rotor").
//! Limits: the shaft is driven (no free shaft); no hinges, no lag damper (structural damping
//! only, stiffness-proportional); the blade's centre of mass on the reference line (lumped mass).

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod dissimilar;
pub mod hinge;
pub mod kinematics;
pub mod layout;
mod model;
pub mod stations;

use fmu_core::Parameters;
use fmu_core::params::{ParameterError, Reader};
use fmu_core::vec3::M3f;
use fmu_rotor::beam::BladeTable;
use fmu_rotor::beam::blade_dynamics::{BladeDynamics, FrameMotion};

use hinge::{HingeParameters, Hinges};
use kinematics::LoadSpreading;
use layout::vr;
use stations::Stations;

pub use layout::{MAX_BLADES, MAX_ELEMENTS};

/// The files the FMU carries in its `resources/` folder: the shipped blade tables (the Bo105-class
/// default and the unit uniform beam of `examples/rotating-beam.json`).
pub const RESOURCES: &[(&str, &[u8])] = &[
    ("resources/bo105_uniform_blade.csv", include_bytes!("../blades/bo105_uniform_blade.csv")),
    ("resources/uniform_beam.csv", include_bytes!("../blades/uniform_beam.csv")),
];

/// The elastic rotor (`modelIdentifier="RotorElastic"`).
#[derive(Debug)]
pub struct RotorElastic {
    blade: BladeDynamics,
    nb: usize,
    omega: f64,
    psi0: f64,
    hub_axes: M3f,
    /// One blade's initial state: at rest in the frame turning at `Omega`, at zero pitch, in
    /// centrifugal equilibrium.
    x0_blade: Vec<f64>,
    spreading: LoadSpreading,
    tolerance: f64,
    /// The articulated hub's hinges (`hub_type = 1`), `None` for the hingeless hub.
    hinges: Option<Hinges>,
    /// Per blade: the pitch offset added to the pitch input (rad).
    pitch_offset: [f64; MAX_BLADES],
    /// Per active blade: its own blade and initial state where its overrides change the table's.
    dissimilar: Vec<Option<(BladeDynamics, Vec<f64>)>>,

    /// The integrator inside `fmi2DoStep`.
    stepping: model::Stepping,

    /// The station-level aero interface (`aero_interface`).
    stations: Stations,
}

impl RotorElastic {
    /// Builds the rotor from the parameters: reads the blade table, makes the beam, lumps its
    /// mass and solves the initial centrifugal equilibrium.
    pub fn from_parameters(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Reader::new(params, vr::TABLE);
        let path = p.resource_path(vr::BLADE_FILE)?;
        let table = BladeTable::read(&path).map_err(|e| format!("parameter 'blade_file': {e}"))?;
        let (root, _) = table.span();
        if root < 0.0 {
            return Err(format!(
                "parameter 'blade_file': {}: the first station's radius {root} m is negative",
                path.display()
            )
            .into());
        }
        let n_elements = p.integer(vr::N_ELEMENTS)? as usize;
        let build = |factors: [f64; 2]| -> Result<BladeDynamics, ParameterError> {
            let mut beam = table.beam(n_elements);
            if factors != [1.0; 2] {
                dissimilar::scale(&mut beam, factors);
            }
            let mut blade =
                BladeDynamics::new(beam).map_err(|e| format!("parameter 'blade_file': {}: {e}", path.display()))?;
            if p.boolean(vr::ROTARY_INERTIA_SCALING) {
                blade.scale_rotary_inertia();
            }
            blade.damping = p.real(vr::STRUCTURAL_DAMPING)?;
            Ok(blade)
        };
        let factors = dissimilar::factors(&p)?;
        let overridden = factors[..p.integer(vr::NB)? as usize]
            .iter()
            .map(|&f| if f == [1.0; 2] { Ok(None) } else { build(f).map(Some) })
            .collect::<Result<Vec<_>, ParameterError>>()?;
        Self::with_blades(build([1.0; 2])?, overridden, &p)
    }

    /// The rotor with the blade `blade`, per active blade its own blade where the overrides
    /// change it (`overridden`), and the other parameters from `p`.
    fn with_blades(
        mut blade: BladeDynamics,
        mut overridden: Vec<Option<BladeDynamics>>,
        p: &Reader,
    ) -> Result<Self, ParameterError> {
        let omega = p.real(vr::OMEGA)?;
        let hinge_parameters = HingeParameters::read(p, blade.beam.undeformed.positions[0][0])?;
        if let Some(h) = &hinge_parameters {
            h.shift(&mut blade);
            overridden.iter_mut().flatten().for_each(|b| h.shift(b));
        }
        // The frame's origin: the hub centre, or the hinge point turning at the offset.
        let origin_force = hinge_parameters.map_or([0.0; 3], |h| [-omega * omega * h.offset(), 0.0, 0.0]);
        let frame = FrameMotion { specific_force: origin_force, omega: [0.0, 0.0, omega], alpha: [0.0; 3] };
        let equilibrium = |blade: &BladeDynamics| {
            blade
                .equilibrium(&frame)
                .map_err(|e| ParameterError::from(format!("parameter 'Omega' = {omega} rad/s: {e}")))
        };
        let x0_blade = equilibrium(&blade)?;
        let dissimilar = overridden
            .into_iter()
            .map(|o| o.map(|b| equilibrium(&b).map(|x0| (b, x0))).transpose())
            .collect::<Result<Vec<_>, ParameterError>>()?;
        let hinges = hinge_parameters.map(|h| {
            let per_blade: Vec<&BladeDynamics> =
                dissimilar.iter().map(|d| d.as_ref().map_or(&blade, |(b, _)| b)).collect();
            Hinges::new(&per_blade, &h)
        });
        let stepping = model::Stepping::from_parameters(p)?;
        if hinges.is_some() && stepping.is_implicit() {
            return Err("parameter 'integrator': the implicit integrators (1, 2) step the hingeless hub only; \
                        with hub_type = 1 use integrator = 0"
                .into());
        }
        let root = blade.beam.undeformed.positions[0][0];
        let arms: Vec<f64> = blade.beam.undeformed.positions.iter().map(|x| x[0] - root).collect();
        Ok(Self {
            spreading: LoadSpreading::new(&arms),
            stations: Stations::new(p.integer(vr::AERO_INTERFACE)?, &arms),
            nb: p.integer(vr::NB)? as usize,
            omega,
            psi0: p.real(vr::PSI0)?,
            hub_axes: fmu_rotor::rotor::hub_axes(p.vector(vr::SHAFT_AXIS)?, p.vector(vr::SHAFT_AZIMUTH_ZERO)?)?,
            tolerance: p.real(vr::TOLERANCE)?,
            stepping,
            blade,
            x0_blade,
            hinges,
            pitch_offset: dissimilar::pitch_offsets(p)?,
            dissimilar,
        })
    }

    /// Blade `b`'s model (0-based): the table's blade, or its own where its overrides change it.
    pub fn blade_of(&self, b: usize) -> &BladeDynamics {
        self.dissimilar[b].as_ref().map_or(&self.blade, |(blade, _)| blade)
    }

    /// Blade `b`'s initial state (its centrifugal equilibrium).
    fn x0_of(&self, b: usize) -> &[f64] {
        self.dissimilar[b].as_ref().map_or(&self.x0_blade, |(_, x0)| x0)
    }

    /// The blade table's blade model (that of every blade without overrides).
    pub fn blade(&self) -> &BladeDynamics {
        &self.blade
    }

    /// Number of active blades.
    pub fn blade_count(&self) -> usize {
        self.nb
    }

    /// States per blade: 12 per free node.
    pub fn states_per_blade(&self) -> usize {
        self.blade.n_states()
    }

    /// The articulated hub's hinges (`hub_type = 1`), `None` for the hingeless hub.
    pub fn hinges(&self) -> Option<&Hinges> {
        self.hinges.as_ref()
    }
}

/// The model this crate's FMU exports (`fmu/`, the shared library `libRotorElastic.so`).
pub type Fmu = RotorElastic;
