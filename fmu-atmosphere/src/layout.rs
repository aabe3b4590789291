//! The declarations of the Atmosphere FMU's variables, each written once: the index constants, the views,
//! the value references and the variable list ([`TABLES`]) are generated from them
//! ([`fmu_core::declare!`]).
//!
//! Value references are the position in the corresponding table plus a base: parameters
//! `0 + k` ([`vr`]), inputs `100 + u index` ([`vr::INPUT_BASE`]), outputs `200 + y index`
//! ([`vr::OUTPUT_BASE`]). The model has no states.

use fmu_core::declare::Tables;

/// The turbulence components in the track frame and their words.
const TRACK_AXES: [(&str, &str); 3] =
    [("u", "along the track"), ("v", "horizontal, to the right of the track"), ("w", "down")];

/// Value references of the parameters, and the bases of the input and output references.
pub mod vr {
    use super::TRACK_AXES;
    use fmu_core::declare::NED;
    use fmu_core::variable::Enumeration;

    /// The choices of `gust.shape`.
    static GUST_SHAPE_TYPE: Enumeration = Enumeration {
        name: "Atmosphere.GustShape",
        description: "Shape of the discrete gust",
        items: &[
            ("ramp", 1, "MIL-F-8785C 3.7.2.5: half cosine up over gust.length, full amplitude beyond"),
            ("pulse", 2, "1-cosine: up over gust.length, back to zero over the next gust.length"),
        ],
    };

    /// The choices of `turbulence.model`.
    static TURBULENCE_MODEL_TYPE: Enumeration = Enumeration {
        name: "Atmosphere.TurbulenceModel",
        description: "Spectrum of the continuous turbulence (MIL-F-8785C 3.7.2)",
        items: &[
            ("none", 0, "No turbulence"),
            ("dryden", 1, "Dryden spectra"),
            ("von_karman", 2, "Von Karman spectra"),
        ],
    };

    /// The choices of `turbulence.scales`.
    static TURBULENCE_SCALES_TYPE: Enumeration = Enumeration {
        name: "Atmosphere.TurbulenceScales",
        description: "Source of the turbulence intensities and scale lengths",
        items: &[
            ("low_altitude", 1, "MIL-F-8785C 3.7.2.3: from the height above ground and turbulence.w20"),
            ("given", 2, "turbulence.sigma.* and turbulence.L.*"),
        ],
    };

    fmu_core::declare! { u32;
        FIELD_ELEVATION = real("field_elevation", "m",
            "Geometric altitude above mean sea level of NED z = 0 (the ground), m: altitude = field_elevation - z");
        ISA_DT = real("isa.dT", "K",
            "Temperature offset from the standard atmosphere (ISA + dT), K; the pressure stays the standard's at \
             the altitude").above(-150.0).below(150.0);
        WIND_SPEED = real("wind.speed", "m/s", "Steady wind speed at wind.reference_height above the ground, m/s (>= 0)")
            .min(0.0);
        WIND_FROM = real("wind.from", "rad",
            "Direction the steady wind blows from, rad from north towards east (0: from the north, blowing south)")
            .display_unit("deg");
        WIND_SHEAR = real("wind.shear_exponent", "",
            "Exponent n of the power-law shear W(h) = wind.speed (h / wind.reference_height)^n, h the height above \
             the ground (0 <= n < 1; 0: uniform wind; 1/7: the neutral boundary layer; n > 0: no wind at or below \
             the ground)").min(0.0).below(1.0);
        WIND_REFERENCE_HEIGHT = real("wind.reference_height", "m",
            "Height above the ground at which the wind speed is wind.speed, m (> 0; 6.096 m = 20 ft)")
            .start(6.096).positive();
        TRACK = real("track", "rad",
            "Direction of the track, rad from north towards east: gusts and turbulence are frozen in the air mass \
             (which moves with the steady wind at the reference height) and vary along this horizontal axis; set \
             it to the flight direction relative to the air (the wind's from-direction for a hover)")
            .display_unit("deg");
        GUST_SHAPE = integer("gust.shape", 1, 1, 2,
            "Shape of the discrete gust: 1 = ramp (MIL-F-8785C: half cosine to full amplitude, held), 2 = pulse \
             (1-cosine up and down)").enumeration(&GUST_SHAPE_TYPE);
        GUST_AMPLITUDE = vector("gust.amplitude.{c}", "m/s", &NED,
            "Amplitude v_m of the discrete gust (wind velocity at full gust), {w}, m/s (0: no gust)");
        GUST_LENGTH = real("gust.length", "m",
            "Gust length d_m: distance along the track from the gust's start to its full amplitude, m (> 0)")
            .start(50.0).positive();
        GUST_START = real("gust.start", "m",
            "Position along the track in the air mass (track . (position - wind t)) where the gust starts, m")
            .start(100.0);
        TURBULENCE_MODEL = integer("turbulence.model", 0, 0, 2,
            "Turbulence spectrum: 0 = none, 1 = Dryden, 2 = von Karman (MIL-F-8785C 3.7.2)")
            .enumeration(&TURBULENCE_MODEL_TYPE);
        TURBULENCE_SCALES = integer("turbulence.scales", 1, 1, 2,
            "Turbulence intensities and scale lengths: 1 = MIL-F-8785C low altitude (from the height above ground, \
             10 to 1000 ft, and turbulence.w20), 2 = given by turbulence.sigma.* and turbulence.L.*")
            .enumeration(&TURBULENCE_SCALES_TYPE);
        W20 = real("turbulence.w20", "m/s",
            "Wind speed at 20 ft above ground for the low-altitude intensities, m/s (>= 0; MIL-F-8785C: 7.7 light, \
             15.4 moderate, 23.2 severe)").start(7.72).min(0.0);
        SIGMA = vector("turbulence.sigma.{c}", "m/s", &TRACK_AXES,
            "RMS turbulence velocity, {w} (turbulence.scales = given), m/s (>= 0)").start(1.0).min(0.0);
        LENGTH = vector("turbulence.L.{c}", "m", &TRACK_AXES,
            "Turbulence scale length, {w} (turbulence.scales = given), m (> 0)").start(533.4).positive();
        SEED = integer("turbulence.seed", 1, 0, i32::MAX,
            "Seed of the turbulence phases: the same seed gives the same field");
        N_COSINES = integer("turbulence.n", 200, 1, 100_000,
            "Number of cosines per turbulence component (log-spaced spatial frequencies)");
        WAVELENGTH_MIN = real("turbulence.wavelength_min", "m",
            "Shortest turbulence wavelength synthesised, m (> 0, < turbulence.wavelength_max)").start(1.0).positive();
        WAVELENGTH_MAX = real("turbulence.wavelength_max", "m",
            "Longest turbulence wavelength synthesised, m").start(1.0e6).positive();
    }
    fmu_core::value_references!(100, 200);
}

/// Indices into the real input vector `u` (9 inputs): the aircraft's kinematics as the Fuselage
/// outputs them.
pub mod u {
    use fmu_core::declare::{NED, UVW};

    fmu_core::declare! { view usize;
        POS as pos = vector("{c}", "m", &NED, "Position of the aircraft (reference point), {w}, m");
        VEL as vel = vector("{c}", "m/s", &UVW, "Velocity of the aircraft relative to the ground, {w}, m/s");
        EULER as euler =
            real("phi", "rad", "Roll angle (3-2-1 sequence), rad"),
            real("theta", "rad", "Pitch angle (3-2-1 sequence), rad"),
            real("psi", "rad", "Yaw (heading) angle (3-2-1 sequence), rad, from north towards east");
        N;
    }
}

/// Indices into the real output vector `y`.
pub mod y {
    use super::u;
    use fmu_core::declare::{NED, UVW};

    /// The position: what the wind depends on.
    fn position(_: usize) -> Vec<usize> {
        vec![u::POS, u::POS + 1, u::POS + 2]
    }

    /// The height (NED z): what the air state and the steady wind depend on.
    fn height(_: usize) -> Vec<usize> {
        vec![u::POS + 2]
    }

    /// Every input: what the air-relative velocity depends on.
    fn all_inputs(_: usize) -> Vec<usize> {
        (0..u::N).collect()
    }

    fmu_core::declare! { view usize;
        WIND as wind = vector("wind.{c}", "m/s", &NED,
            "Wind velocity at the aircraft (steady + gust + turbulence; the air's velocity relative to the ground), \
             {w}, m/s").deps(position);
        STEADY as steady = vector("wind.steady.{c}", "m/s", &NED, "Steady wind (with shear), {w}, m/s").deps(height);
        GUST as gust = vector("wind.gust.{c}", "m/s", &NED, "Discrete gust, {w}, m/s").deps(position);
        TURBULENCE as turbulence = vector("wind.turbulence.{c}", "m/s", &NED, "Turbulence, {w}, m/s")
            .deps(position);
        AIR as air = vector("air.{c}", "m/s", &UVW,
            "Velocity of the aircraft relative to the air (ground velocity minus wind), {w}, m/s").deps(all_inputs);
        AIRSPEED as airspeed = real("airspeed", "m/s", "True airspeed, the magnitude of air.*, m/s").deps(all_inputs);
        MACH as mach = real("mach", "", "Mach number, airspeed / speed_of_sound").deps(all_inputs);
        ALTITUDE as altitude = real("altitude", "m", "Geometric altitude above mean sea level, field_elevation - z, m")
            .deps(height);
        TEMPERATURE as temperature = real("temperature", "K", "Static air temperature (ISA + dT), K").deps(height);
        PRESSURE as pressure = real("pressure", "Pa", "Static air pressure (ISA), Pa").deps(height);
        DENSITY as density = real("density", "kg/m3", "Air density, pressure / (R temperature), kg/m^3").deps(height);
        SPEED_OF_SOUND as speed_of_sound = real("speed_of_sound", "m/s", "Speed of sound, sqrt(1.4 R temperature), m/s")
            .deps(height);
        N;
    }
}

/// The model's tables: parameters (vr 0..), inputs (vr 100..), outputs (vr 200..), no states.
pub const TABLES: Tables = Tables {
    parameters: vr::TABLE,
    inputs: (vr::INPUT_BASE, u::TABLE),
    outputs: (vr::OUTPUT_BASE, y::TABLE),
    states: &[],
};
