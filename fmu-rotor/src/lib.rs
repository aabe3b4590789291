//! The articulated helicopter rotor as an FMI 2.0 Co-Simulation model (`Rotor`): an open-loop
//! multibody tree in joint coordinates (DLR VAST style, seed 000) with the lag -> flap -> pitch
//! hinge chain of seed 004, one FMU for main and tail rotor (two instances, different
//! parameters).
//!
//! # Topology (data, see [`tree`])
//!
//! ```text
//! P (airframe attachment point, inputs: hub.vel/omega/acc/alpha)
//! └─ shaft: revolute about z_H, driven psi = psi0 + Omega t, or free (shaft_torque); hub body
//!    └─ blade i (fixed azimuth offset 2 pi (i-1)/nb about z_H, hinge at radius e_lag)
//!       lag: revolute about -z (free, or locked at blade.zeta0; spring k_lag, damper c_lag)
//!       └─ flap: at e - e_lag further out, revolute about -y (free, or locked at blade.beta0; k_flap)
//!          └─ pitch bearing: revolute about +x, driven by blade[i].pitch/_rate/_acc; rigid blade
//! ```
//!
//! # Frames and sign conventions
//!
//! * **Airframe body axes** (FRD) at P: every hub input and the hub-load outputs.
//! * **Hub frame H**: `z_H` = the shaft axis (`shaft.nx/ny/nz`, normalised; the rotor thrust
//!   direction; the rotor turns right-handed about `z_H`), `x_H` = the azimuth-zero direction
//!   (`shaft.ax/ay/az` made orthogonal to `z_H`), `y_H = z_H x x_H`. The defaults `z_H = (0, 0,
//!   -1)` and `x_H = (-1, 0, 0)` give a main rotor turning counter-clockwise seen from above with
//!   blade 1 over the tail at `psi = 0` and advancing on the right at `psi = 90 deg`. A tail
//!   rotor uses e.g. `z_H = (0, 1, 0)`.
//! * **Azimuth** `psi`: rotation of the hub about `+z_H`; blade `i` sits at `psi + 2 pi (i - 1) /
//!   nb`. Outputs are continuous (not wrapped to `[0, 2 pi)`).
//! * **Blade frame** (the pitch-bearing link): `x_b` radially outboard along the pitch axis,
//!   `z_b` the blade normal (`+z_H` at zero angles), `y_b = z_b x x_b` towards the leading edge.
//!   Lag is positive lagging behind the rotation (about `-z`), flap positive up (towards `+z_H`,
//!   about `-y`), pitch positive leading edge up (about `+x_b`). Blade loads (`blade[i].F/M`) and
//!   blade kinematics (`blade[i].vel/omega`) are in blade axes, at the blade root reference = the
//!   flap hinge (coincident with the pitch bearing).
//!
//! # Blade mass properties
//!
//! `blade.m`, `blade.S` (first moment about the flap hinge) and `blade.I` (flap inertia about
//! the flap hinge) define a rigid thin blade with its CoM on the pitch axis at `x_cg = S/m`
//! outboard of the flap hinge and the inertia about the CoM in blade axes
//! `diag(I_pitch, I - m x_cg^2, I - m x_cg^2 + I_pitch)`. Defaults: seed-004 Table 1 (4 blades,
//! R 7.5 m, e 0.3 m, Omega 29 rad/s, S 390 kg m, I 1953 kg m^2), blade mass 100 kg (Table 3),
//! lag damper of Table 3 (16000 N m/rad, 3000 N m s/rad).
//!
//! # Equations
//!
//! `M(q) q'' = Q(q, q', t)` from the tree by one recursive kinematics pass and the joints' screw
//! axes, see [`dynamics`]. Outputs are generic over the scalar type, so `fmu-core`
//! obtains exact directional derivatives of the hub loads (which need `q''`, hence a generic LU
//! in [`la`]). The shaft torque output is the torque the drive applies to the rotor about
//! `+z_H`; the potential energy is `sum m_b acc . c_b` plus the hinge springs.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod beam;
pub mod dynamics;
pub mod la;
pub mod layout;
pub mod rotor;
pub mod tree;

pub use layout::{MAX_BLADES, vr};
pub use rotor::{Coordinate, Rotor};

/// The model this crate's FMU exports (`fmu/`, the shared library `libRotor.so`).
pub type Fmu = Rotor;
