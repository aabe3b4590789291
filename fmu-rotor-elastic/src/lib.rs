//! The hingeless rotor with elastic blades (`RotorElastic`), a variant of the Rotor FMU: its
//! blades are the geometrically exact beams of [`fmu_rotor::beam`], integrated in time by
//! [`fmu_rotor::beam::dynamics`].

#![forbid(unsafe_code)]
