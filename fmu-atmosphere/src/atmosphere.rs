//! The Atmosphere model: the air state ([`crate::isa`]) and the wind at the aircraft
//! (steady wind and gust, [`crate::wind`]; turbulence, [`crate::turbulence`]), and the aircraft's
//! velocity relative to the air in body axes.
//!
//! The model is stateless: every output is a function of the inputs, the time and the
//! parameters. Gusts and turbulence are frozen in the air mass, which moves with the steady wind
//! at the reference height `W_ref`; they are sampled at the position along the track
//! `s = e . (p - W_ref t)`, `e = (cos track, sin track, 0)`. The turbulence components `u, v, w`
//! (along the track, to its right, down) are turned into NED with
//! `e_right = (-sin track, cos track, 0)`. The air-relative velocity is
//! `V_air = V_body - C(phi, theta, psi) W_ned`, `C` the 3-2-1 NED-to-body rotation.

use fmu_core::StatelessModel;
use fmu_core::declare::Tables;
use fmu_core::model::{ModelInfo, Parameters, Scalar};
use fmu_core::params::{ParameterError, Reader};

use crate::isa;
use crate::layout::{u, vr, y};
use crate::turbulence::{Scales, Spectrum, Turbulence};
use crate::wind::{GustShape, SteadyWind, gust_shape};

/// ISA atmosphere, wind, gust and turbulence (`modelIdentifier="Atmosphere"`).
#[derive(Debug, Clone)]
pub struct Atmosphere {
    /// Geometric altitude of NED z = 0, m.
    field_elevation: f64,
    /// Temperature offset from ISA, K.
    isa_dt: f64,
    /// Steady wind.
    wind: SteadyWind,
    /// `(cos track, sin track)`.
    track: (f64, f64),
    /// Gust shape.
    gust_shape: GustShape,
    /// Gust amplitude, NED, m/s.
    gust_amplitude: [f64; 3],
    /// Gust length `d_m`, m.
    gust_length: f64,
    /// Track position where the gust starts, m.
    gust_start: f64,
    /// The frozen turbulence field.
    turbulence: Turbulence,
}

/// Wind velocities in NED, m/s, by part.
struct Wind<D> {
    /// Steady wind with shear.
    steady: [D; 3],
    /// Discrete gust.
    gust: [D; 3],
    /// Turbulence.
    turbulence: [D; 3],
}

impl Atmosphere {
    /// Position along the track in the air mass, `e . (p - W_ref t)`, m.
    pub fn track_position<D: Scalar>(&self, t: D, position: [D; 3]) -> D {
        let w = self.wind.reference_velocity();
        let (c, s) = self.track;
        (position[0] - t * w[0]) * c + (position[1] - t * w[1]) * s
    }

    /// The wind's parts at time `t` and NED position `position`.
    fn wind<D: Scalar>(&self, t: D, position: [D; 3]) -> Wind<D> {
        let height = -position[2];
        let s = self.track_position(t, position);
        let shape = gust_shape(self.gust_shape, s - self.gust_start, self.gust_length);
        let [tu, tv, tw] = self.turbulence.velocity(s, height);
        let (c, sn) = self.track;
        Wind {
            steady: self.wind.velocity(height),
            gust: self.gust_amplitude.map(|a| shape * a),
            turbulence: [tu * c - tv * sn, tu * sn + tv * c, tw],
        }
    }
}

/// The turbulence field of the parameters.
fn turbulence(p: &Reader) -> Result<Turbulence, ParameterError> {
    let spectrum = match p.integer(vr::TURBULENCE_MODEL)? {
        0 => Spectrum::None,
        1 => Spectrum::Dryden,
        _ => Spectrum::VonKarman,
    };
    let scales = match p.integer(vr::TURBULENCE_SCALES)? {
        1 => Scales::LowAltitude { w20: p.real(vr::W20)? },
        _ => Scales::Given { sigma: p.vector(vr::SIGMA)?, length: p.vector(vr::LENGTH)? },
    };
    let wavelengths = (p.real(vr::WAVELENGTH_MIN)?, p.real(vr::WAVELENGTH_MAX)?);
    if wavelengths.0 >= wavelengths.1 {
        return Err(format!(
            "turbulence.wavelength_min ({} m) must be below turbulence.wavelength_max ({} m)",
            wavelengths.0, wavelengths.1
        )
        .into());
    }
    let n = p.integer(vr::N_COSINES)? as usize;
    Ok(Turbulence::new(spectrum, scales, n, wavelengths, p.integer(vr::SEED)? as u64))
}

/// `C v`: the NED vector `v` in body axes, `C` the 3-2-1 rotation by `(phi, theta, psi)`.
fn ned_to_body<D: Scalar>([phi, theta, psi]: [D; 3], v: [D; 3]) -> [D; 3] {
    let (sf, cf) = (phi.sin(), phi.cos());
    let (st, ct) = (theta.sin(), theta.cos());
    let (sp, cp) = (psi.sin(), psi.cos());
    // Intermediate frames: yaw, then pitch, then roll.
    let (x1, y1) = (v[0] * cp + v[1] * sp, v[1] * cp - v[0] * sp);
    let (x2, z2) = (x1 * ct - v[2] * st, x1 * st + v[2] * ct);
    [x2, y1 * cf + z2 * sf, z2 * cf - y1 * sf]
}

impl StatelessModel for Atmosphere {
    const INFO: ModelInfo = ModelInfo {
        model_name: "Atmosphere",
        model_identifier: "Atmosphere",
        description: "ISA atmosphere (ISA + dT) to 20 km, steady wind with power-law shear, 1-cosine discrete gust and \
                      Dryden or von Karman turbulence (MIL-F-8785C) frozen in the air mass, seeded; the aircraft's \
                      velocity relative to the air",
        default_stop_time: 10.0,
        default_step_size: 0.01,
    };

    const TABLES: Tables = crate::layout::TABLES;

    /// Builds the model from parameter values, validating them (errors name the parameter).
    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Reader::new(params, vr::TABLE);
        let from = p.real(vr::WIND_FROM)?;
        let wind = SteadyWind {
            speed: p.real(vr::WIND_SPEED)?,
            from: (from.cos(), from.sin()),
            shear_exponent: p.real(vr::WIND_SHEAR)?,
            reference_height: p.real(vr::WIND_REFERENCE_HEIGHT)?,
        };
        let track = p.real(vr::TRACK)?;
        let gust_shape = if p.integer(vr::GUST_SHAPE)? == 1 { GustShape::Ramp } else { GustShape::Pulse };
        Ok(Atmosphere {
            field_elevation: p.real(vr::FIELD_ELEVATION)?,
            isa_dt: p.real(vr::ISA_DT)?,
            wind,
            track: (track.cos(), track.sin()),
            gust_shape,
            gust_amplitude: p.vector(vr::GUST_AMPLITUDE)?,
            gust_length: p.real(vr::GUST_LENGTH)?,
            gust_start: p.real(vr::GUST_START)?,
            turbulence: turbulence(&p)?,
        })
    }

    fn outputs<D: Scalar>(&self, t: D, us: &[D], ys: &mut [D]) {
        let (u, mut y) = (u::View(us), y::ViewMut(ys));
        let position = u.pos();
        let wind = self.wind(t, position);
        let total: [D; 3] = std::array::from_fn(|k| wind.steady[k] + wind.gust[k] + wind.turbulence[k]);
        let wind_body = ned_to_body(u.euler(), total);
        let vel = u.vel();
        let air: [D; 3] = std::array::from_fn(|k| vel[k] - wind_body[k]);
        let speed_squared = air[0] * air[0] + air[1] * air[1] + air[2] * air[2];
        // |V| has no derivative at 0: the still-air value and derivative are taken as 0.
        let airspeed = if speed_squared.re() > 0.0 { speed_squared.sqrt() } else { D::from(0.0) };
        let altitude = -position[2] + self.field_elevation;
        let state = isa::air(altitude, self.isa_dt);
        *y.wind() = total;
        *y.steady() = wind.steady;
        *y.gust() = wind.gust;
        *y.turbulence() = wind.turbulence;
        *y.air() = air;
        *y.airspeed() = airspeed;
        *y.mach() = airspeed / state.speed_of_sound;
        *y.altitude() = altitude;
        *y.temperature() = state.temperature;
        *y.pressure() = state.pressure;
        *y.density() = state.density;
        *y.speed_of_sound() = state.speed_of_sound;
    }
}
