//! Leishman-Beddoes dynamic stall of one blade section, as ordinary differential equations.
//!
//! The model (Leishman and Beddoes 1989, J. AHS 34(3); the attached flow in the state-space
//! form of Leishman and Nguyen 1990, AIAA J. 28(5)) in continuous time, so that it runs inside
//! Model Exchange and is differentiated by the FMU's dual numbers like the rest of the Aero
//! model. Time is measured in semi-chords travelled, `s = 2 V t / c`; `d/dt = (2 V / c) d/ds`.
//! Seven states per section ([`N_STATES`]):
//!
//! ```text
//! z1, z2  circulatory lag states, rad:   dz_i/ds = b_i beta^2 (alpha_34 - z_i)
//! zq      pitch-rate lag (moment):       dzq/ds  = b5 beta^2 (q - zq)
//! cn'     lagged potential normal force: dcn'/ds = (cn_p - cn') / Tp
//! f''     unsteady separation point:     df''/ds = (f(alpha_f) - f'') / Tf,  alpha_f = cn'/CN_alpha + alpha0
//! cn_v    vortex normal force:           dcn_v/ds = dC_v/ds - cn_v / Tv     (building: |cn'| > CN1, tau_v < Tvl)
//!                                                 = -2 cn_v / Tv            (stalled, vortex past the trailing edge)
//!                                                 = -cn_v / Tv              (not stalled)
//! tau_v   vortex time, semi-chords:      dtau_v/ds = 1 while |cn'| > CN1, else -tau_v (back to zero)
//! ```
//!
//! with `q = alpha_dot c / V`, `alpha_34 = alpha + q / 2` (the angle at 3/4 chord, pitch about
//! the quarter chord), `beta^2 = 1 - M^2`, and
//!
//! ```text
//! alpha_E = (1 - A1 - A2) alpha_34 + A1 z1 + A2 z2        effective angle; a step gives 1 - A1 e^{-b1 beta^2 s} - A2 e^{-b2 beta^2 s}
//! cn_c    = CN_alpha (alpha_E - alpha0)                    circulatory normal force
//! cn_i    = 4 K_alpha q,  K_alpha = 0.75 / ((1 - M) + pi beta M^2 (A1 b1 + A2 b2))   impulsive (noncirculatory), quasi-steady
//! cn_p    = cn_c + cn_i
//! K_N     = (1 + sqrt f'')^2 / 4                           Kirchhoff
//! C_v     = cn_c (1 - K_N)                                 vortex lift source
//! cn      = cn_c K_N + cn_i + cn_v
//! cc      = eta CN_alpha (alpha_E - alpha0)^2 sqrt f''     chord force (leading-edge suction, towards the leading edge)
//! cm_i    = -K_alpha_M (A3 b3 + A4 b4) q,  K_alpha_M = 0.8 (A3 b4 + A4 b3) / (b3 b4 (1 - M))   impulsive, quasi-steady
//! cm      = cm0 + cn_c K_N (K0 + K1 (1 - f'') + K2 sin(pi f''^2)) - CN_alpha A5 zq / 16 + cm_i
//!           - x_v (1 - cos(pi min(tau_v / Tvl, 1))) cn_v  (about the quarter chord, nose up positive)
//! cl      = cn cos(alpha) + cc sin(alpha),  cd = cn sin(alpha) - cc cos(alpha) + cd0
//! ```
//!
//! The static separation point `f(alpha)` is Beddoes' exponential fit ([`StaticCurve`]), the one
//! place where a static airfoil curve enters: `f = 1 - 0.3 exp((|alpha| - alpha1) / S1)` up to
//! `alpha1`, `0.04 + 0.66 exp((alpha1 - |alpha|) / S2)` beyond.
//!
//! Simplifications against the 1989 discrete model, documented in `docs/models.md`: the
//! impulsive (noncirculatory) terms are used in their quasi-steady form (their time constants,
//! of order `c / a`, about a millisecond on a rotor, would make the equations stiff) and without
//! their `alpha_ddot` parts; `dC_v/ds` neglects `alpha_ddot`; `Tf` and `Tv` are not modulated
//! with the stall state; no dynamic offset of `alpha1`, no secondary vortex shedding, no
//! chord-force loss factor `D_f`. The switches (`|cn'| > CN1`, `tau_v < Tvl`) make the right-hand
//! side piecewise smooth.

use fmu_core::model::Scalar;

/// States per section: `z1, z2, zq, cn', f'', cn_v, tau_v`.
pub const N_STATES: usize = 7;

const PI: f64 = std::f64::consts::PI;
/// `A3, A4, b3, b4` of the impulsive pitching moment (Leishman and Nguyen 1990, as in
/// laurapla/BLcode2.0 `attached_matrices.m`), with the factor 0.8 of its `K_alpha_M`.
const IMPULSIVE_MOMENT: (f64, f64, f64, f64) = (1.5, -0.5, 0.25, 0.1);
/// Smallest `f''` used under the square root (the fit's own floor is 0.04).
const F_MIN: f64 = 1e-6;
/// Largest Mach number used for `beta` (the model is subsonic).
const MACH_MAX: f64 = 0.95;
/// Smallest speed used for `q = alpha_dot c / V` and the time scale, m/s.
const SPEED_MIN: f64 = 1e-3;

/// Constants of the exponential approximation of the indicial (step) response of the attached
/// flow: `phi(s) = 1 - A1 exp(-b1 beta^2 s) - A2 exp(-b2 beta^2 s)`, and of the circulatory
/// pitch-rate moment (`A5`, `b5`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Indicial {
    /// `A1`.
    pub a1: f64,
    /// `b1`, per semi-chord.
    pub b1: f64,
    /// `A2`.
    pub a2: f64,
    /// `b2`, per semi-chord.
    pub b2: f64,
    /// `A5` (pitch-rate moment).
    pub a5: f64,
    /// `b5`, per semi-chord.
    pub b5: f64,
}

impl Indicial {
    /// Leishman's compressible-flow constants, `A1 = 0.3, b1 = 0.14, A2 = 0.7, b2 = 0.53,
    /// A5 = 1, b5 = 5` (the defaults of OpenFAST AeroDyn's airfoil input, `AirfoilInfo` UA
    /// data: "from experimental results"). `A1 + A2 = 1`: the circulatory lift starts at zero.
    pub const LEISHMAN: Indicial = Indicial { a1: 0.3, b1: 0.14, a2: 0.7, b2: 0.53, a5: 1.0, b5: 5.0 };

    /// R. T. Jones' approximation of Wagner's incompressible function, `A1 = 0.165,
    /// b1 = 0.0455, A2 = 0.335, b2 = 0.3` (`phi(0) = 1/2`); the moment constants as
    /// [`Indicial::LEISHMAN`].
    pub const JONES: Indicial = Indicial { a1: 0.165, b1: 0.0455, a2: 0.335, b2: 0.3, a5: 1.0, b5: 5.0 };
}

/// The static trailing-edge separation point against angle of attack: the one function through
/// which a static airfoil curve enters the model. With a lift table it would be the Kirchhoff
/// inversion `f = (2 sqrt(cn / (CN_alpha (alpha - alpha0))) - 1)^2` of the table's `cn`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StaticCurve {
    /// Beddoes' exponential fit: `f = 1 - 0.3 exp((|alpha| - alpha1) / S1)` for
    /// `|alpha| <= alpha1`, `f = 0.04 + 0.66 exp((alpha1 - |alpha|) / S2)` beyond (angles in rad).
    Exponential {
        /// `alpha1`, the angle where `f = 0.7` (about the static stall angle), rad.
        alpha1: f64,
        /// `S1`, rad.
        s1: f64,
        /// `S2`, rad.
        s2: f64,
    },
}

impl StaticCurve {
    /// The static separation point `f` (0 fully separated .. 1 attached) at `alpha` (rad,
    /// measured from zero lift).
    pub fn separation_point<D: Scalar>(&self, alpha: D) -> D {
        match *self {
            StaticCurve::Exponential { alpha1, s1, s2 } => {
                let a = if alpha.re() < 0.0 { -alpha } else { alpha };
                if a.re() <= alpha1 {
                    -((a - alpha1) * (1.0 / s1)).exp() * 0.3 + 1.0
                } else {
                    (-(a - alpha1) * (1.0 / s2)).exp() * 0.66 + 0.04
                }
            }
        }
    }
}

/// The constants of one airfoil at one Mach number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Airfoil {
    /// Normal-force curve slope `CN_alpha`, 1/rad.
    pub cn_alpha: f64,
    /// Zero-lift angle `alpha0`, rad.
    pub alpha0: f64,
    /// Drag coefficient at zero lift.
    pub cd0: f64,
    /// Moment coefficient at zero lift (about the quarter chord).
    pub cm0: f64,
    /// Static separation curve.
    pub curve: StaticCurve,
    /// `K0`: aerodynamic-centre offset ahead of the quarter chord, chords.
    pub k0: f64,
    /// `K1`: centre-of-pressure shift with separation.
    pub k1: f64,
    /// `K2`: shape of the moment break at stall.
    pub k2: f64,
    /// `Tp`: leading-edge pressure lag, semi-chords.
    pub tp: f64,
    /// `Tf`: boundary-layer (separation point) lag, semi-chords.
    pub tf: f64,
    /// `Tv`: vortex lift decay, semi-chords.
    pub tv: f64,
    /// `Tvl`: vortex travel from leading to trailing edge, semi-chords.
    pub tvl: f64,
    /// `delta_alpha1`: largest reduction of `alpha1` on the downstroke, rad.
    pub delta_alpha1: f64,
    /// `CN1`: critical normal force for leading-edge separation.
    pub cn1: f64,
    /// `eta`: chord-force recovery factor.
    pub eta: f64,
    /// Largest travel of the vortex centre of pressure aft of the quarter chord, chords.
    pub x_vortex: f64,
    /// Attached-flow indicial constants.
    pub indicial: Indicial,
}

/// NACA 0012 constants against Mach number, as tabulated in laurapla/BLcode2.0
/// `input_NACA0012.m` (an implementation of Leishman and Crouse 1989, AIAA-89-1319; the
/// table is that of Leishman and Beddoes 1989): Mach, `CN_alpha` (1/deg), `alpha0` (deg), `cd0`,
/// `cm0`, `alpha1` (deg), `S1` (deg), `S2` (deg), `K0`, `K1`, `K2`, `Tp`, `Tf`, `eta`, `CN1`,
/// `Tv`, `Tvl`, `delta_alpha1` (deg).
const NACA0012: [[f64; 18]; 14] = [
    [0.035, 0.108, -0.3, 0.012, -0.000, 15.0, 3.5, 0.7, 0.02, -0.120, 0.03, 3.0, 3.0, 0.965, 1.45, 6.0, 3.3, 1.5],
    [0.072, 0.108, 0.0, 0.012, -0.015, 18.5, 4.0, 1.5, 0.02, -0.100, 0.02, 3.5, 3.0, 0.965, 1.45, 6.0, 3.8, 3.0],
    [0.110, 0.108, 0.0, 0.008, -0.005, 18.7, 3.5, 1.2, 0.01, -0.120, 0.04, 4.0, 3.0, 0.965, 1.45, 6.0, 4.5, 1.5],
    [0.185, 0.110, 0.0, 0.005, -0.005, 20.0, 3.5, 1.2, 0.01, -0.120, 0.04, 3.5, 3.0, 0.965, 1.45, 6.0, 4.0, 1.5],
    [0.215, 0.112, 0.0, 0.005, -0.005, 18.5, 3.0, 1.1, 0.01, -0.120, 0.04, 2.5, 3.5, 0.965, 1.45, 6.0, 4.7, 0.8],
    [0.250, 0.114, 0.0, 0.005, -0.005, 17.2, 3.0, 1.0, 0.01, -0.120, 0.04, 1.5, 3.5, 0.965, 1.45, 6.0, 4.5, 0.8],
    [0.280, 0.116, 0.2, 0.005, -0.006, 16.0, 2.5, 1.0, 0.01, -0.120, 0.04, 1.2, 3.5, 0.965, 1.45, 6.0, 4.5, 1.0],
    [0.300, 0.113, 0.17, 0.005, -0.0037, 15.25, 3.0, 2.3, 0.0025, -0.135, 0.04, 1.7, 3.0, 0.965, 1.45, 6.0, 7.0, 2.1],
    [0.400, 0.113, 0.17, 0.005, -0.0037, 12.5, 3.25, 1.6, 0.006, -0.135, 0.05, 1.8, 2.5, 0.960, 1.2, 6.0, 9.0, 2.0],
    [0.500, 0.113, 0.17, 0.005, -0.0037, 10.5, 3.5, 1.2, 0.02, -0.125, 0.04, 2.0, 2.2, 0.960, 1.05, 6.0, 9.0, 1.45],
    [0.600, 0.113, 0.17, 0.005, -0.0037, 8.5, 4.0, 0.7, 0.038, -0.12, 0.04, 2.5, 2.0, 0.960, 0.92, 6.0, 9.0, 1.0],
    [0.700, 0.113, 0.17, 0.005, -0.0037, 5.6, 4.5, 0.5, 0.03, -0.09, 0.15, 3.0, 2.0, 0.960, 0.68, 6.0, 9.0, 0.8],
    [0.750, 0.113, 0.17, 0.005, -0.0037, 3.5, 3.5, 0.8, 0.001, -0.13, -0.02, 3.3, 2.0, 0.955, 0.5, 6.0, 9.0, 0.2],
    [0.800, 0.113, 0.17, 0.005, -0.0037, 0.7, 0.7, 0.18, -0.01, 0.02, -0.01, 4.3, 2.0, 0.955, 0.18, 4.0, 9.0, 0.1],
];

impl Airfoil {
    /// NACA 0012 at Mach number `mach`: the table `NACA0012` (this module) interpolated linearly in Mach,
    /// held at its ends (0.035 and 0.8) outside; Leishman's indicial constants; the vortex centre
    /// of pressure travels up to 0.2 chord (OpenFAST's `x_cp_bar` default).
    pub fn naca0012(mach: f64) -> Airfoil {
        let rows = &NACA0012;
        let m = mach.clamp(rows[0][0], rows[rows.len() - 1][0]);
        let i = rows.iter().rposition(|r| r[0] <= m).unwrap_or(0).min(rows.len() - 2);
        let t = (m - rows[i][0]) / (rows[i + 1][0] - rows[i][0]);
        let v = |k: usize| rows[i][k] + t * (rows[i + 1][k] - rows[i][k]);
        let rad = |k: usize| v(k).to_radians();
        Airfoil {
            cn_alpha: v(1).to_degrees(),
            alpha0: rad(2),
            cd0: v(3),
            cm0: v(4),
            curve: StaticCurve::Exponential { alpha1: rad(5), s1: rad(6), s2: rad(7) },
            k0: v(8),
            k1: v(9),
            k2: v(10),
            tp: v(11),
            tf: v(12),
            eta: v(13),
            cn1: v(14),
            tv: v(15),
            tvl: v(16),
            delta_alpha1: rad(17),
            x_vortex: 0.2,
            indicial: Indicial::LEISHMAN,
        }
    }

    /// The states of steady attached flow at angle of attack `alpha` (rad): lag states at
    /// `alpha`, `cn'` at its static value, `f''` at the static separation point, no vortex.
    pub fn steady_state(&self, alpha: f64) -> [f64; N_STATES] {
        let cn = self.cn_alpha * (alpha - self.alpha0);
        let f = self.curve.separation_point(alpha - self.alpha0);
        [alpha, alpha, 0.0, cn, f, 0.0, 0.0]
    }
}

/// The flow at a section: the inputs of the model.
#[derive(Debug, Clone, Copy)]
pub struct SectionFlow<D> {
    /// Angle of attack, rad.
    pub alpha: D,
    /// Its time derivative (the pitch rate for a pitching airfoil), rad/s.
    pub alpha_rate: D,
    /// Free-stream speed relative to the section, m/s.
    pub speed: D,
    /// Mach number of that speed.
    pub mach: D,
    /// Chord, m.
    pub chord: f64,
}

/// The section's coefficients (per unit span, on the chord and the dynamic pressure).
#[derive(Debug, Clone, Copy)]
pub struct SectionCoefficients<D> {
    /// Normal force (along the chord normal, positive up for positive `alpha`).
    pub cn: D,
    /// Chord force, positive towards the leading edge.
    pub cc: D,
    /// Pitching moment about the quarter chord, positive nose up.
    pub cm: D,
    /// Lift, normal to the free stream.
    pub cl: D,
    /// Drag, along the free stream.
    pub cd: D,
    /// Effective angle of attack of the circulatory flow `alpha_E`, rad.
    pub alpha_effective: D,
}

/// The state of the flow that selects the time constants (Leishman and Beddoes 1989; the
/// factors as in laurapla/BLcode2.0 `sigmaf.m` and `sigmav.m`, after Sheng et al.).
struct Regime {
    /// `|cn'| > CN1`: leading-edge separation.
    stalled: bool,
    /// The separation point moves forward again (`f > f''`).
    reattaching: bool,
    /// `|alpha|` decreasing.
    downstroke: bool,
    /// `tau_v / Tvl`: 0 at leading-edge separation, 1 with the vortex at the trailing edge.
    vortex_travel: f64,
    /// `f''`.
    f2: f64,
}

impl Regime {
    /// `sigma_f`: the separation point moves with the time constant `Tf / sigma_f`.
    fn separation_factor(&self) -> f64 {
        match (self.stalled, self.reattaching) {
            (false, false) => 1.0,
            (false, true) => 0.5,
            (true, true) if self.vortex_travel > 0.0 && self.vortex_travel <= 1.0 => {
                if self.downstroke {
                    0.25
                } else {
                    0.75
                }
            }
            (true, true) => 1.0,
            (true, false) => {
                if self.downstroke || self.f2 <= 0.7 {
                    2.0
                } else {
                    1.75
                }
            }
        }
    }

    /// `sigma_v`: the vortex lift decays with the time constant `Tv / sigma_v`.
    fn vortex_factor(&self) -> f64 {
        if self.vortex_travel > 1.0 && self.vortex_travel <= 2.0 {
            if self.downstroke { 2.0 } else { 3.0 }
        } else if self.downstroke || self.reattaching {
            4.0
        } else {
            1.0
        }
    }
}

/// The attached-flow quantities of one evaluation.
struct Attached<D> {
    /// `ds/dt = 2 V / c`, 1/s.
    rate: D,
    beta2: D,
    q: D,
    alpha_34: D,
    alpha_e: D,
    /// Circulatory normal force `cn_c`.
    cn_c: D,
    /// Impulsive normal force `cn_i`.
    cn_i: D,
    /// Impulsive pitching moment `cm_i`.
    cm_i: D,
}

impl Airfoil {
    /// The coefficients and the state derivatives (per second) of one section with states `x`
    /// in the flow `flow`.
    pub fn evaluate<D: Scalar>(&self, x: &[D], flow: &SectionFlow<D>, dx: &mut [D]) -> SectionCoefficients<D> {
        let at = self.attached(x, flow);
        let ind = self.indicial;
        let (z1, z2, zq, cn_lag, f2, cn_v, tau_v) = (x[0], x[1], x[2], x[3], x[4], x[5], x[6]);
        dx[0] = (at.alpha_34 - z1) * at.rate * at.beta2 * ind.b1;
        dx[1] = (at.alpha_34 - z2) * at.rate * at.beta2 * ind.b2;
        dx[2] = (at.q - zq) * at.rate * at.beta2 * ind.b5;
        dx[3] = (at.cn_c + at.cn_i - cn_lag) * at.rate * (1.0 / self.tp);
        // On the downstroke alpha1 is lower by up to delta_alpha1: the curve is read further out.
        let mut alpha_f = cn_lag * (1.0 / self.cn_alpha);
        let downstroke = flow.alpha_rate.re() * alpha_f.re() < 0.0;
        if downstroke {
            let offset = (1.0 - f2.re().clamp(0.0, 1.0)).powf(0.25) * self.delta_alpha1;
            alpha_f += if alpha_f.re() < 0.0 { -offset } else { offset };
        }
        let f_static = self.curve.separation_point(alpha_f);
        let regime = Regime {
            stalled: cn_lag.re().abs() > self.cn1,
            reattaching: f_static.re() > f2.re(),
            downstroke,
            vortex_travel: tau_v.re() / self.tvl,
            f2: f2.re(),
        };
        dx[4] = (f_static - f2) * at.rate * (regime.separation_factor() / self.tf);
        let sqrt_f = if f2.re() > F_MIN { f2.sqrt() } else { D::from(F_MIN.sqrt()) };
        let k_n = (sqrt_f + 1.0) * (sqrt_f + 1.0) * 0.25;
        dx[6] = if regime.stalled { at.rate } else { -tau_v * at.rate };
        let decay = -cn_v * at.rate * (regime.vortex_factor() / self.tv);
        dx[5] = if regime.stalled && regime.vortex_travel < 1.0 {
            // dC_v/dt = dcn_c/dt (1 - K_N) - cn_c dK_N/dt; dcn_c/dt without the alpha_ddot part.
            let alpha_e_rate = flow.alpha_rate * (1.0 - ind.a1 - ind.a2) + dx[0] * ind.a1 + dx[1] * ind.a2;
            let k_n_rate = (sqrt_f + 1.0) / sqrt_f * dx[4] * 0.25;
            alpha_e_rate * self.cn_alpha * (-k_n + 1.0) - at.cn_c * k_n_rate + decay
        } else {
            decay
        };
        let cn = at.cn_c * k_n + at.cn_i + cn_v;
        let alpha_e0 = at.alpha_e - self.alpha0;
        let cc = alpha_e0 * alpha_e0 * sqrt_f * (self.eta * self.cn_alpha);
        let travel = tau_v * (1.0 / self.tvl);
        let travel = if travel.re() < 0.0 {
            D::from(0.0)
        } else if travel.re() > 1.0 {
            D::from(1.0)
        } else {
            travel
        };
        let cm = at.cn_c * k_n * ((-f2 + 1.0) * self.k1 + (f2 * f2 * PI).sin() * self.k2 + self.k0)
            - zq * (self.cn_alpha * ind.a5 / 16.0)
            + at.cm_i
            - cn_v * (-(travel * PI).cos() + 1.0) * self.x_vortex
            + self.cm0;
        let (sin_a, cos_a) = flow.alpha.sin_cos();
        SectionCoefficients {
            cn,
            cc,
            cm,
            cl: cn * cos_a + cc * sin_a,
            cd: cn * sin_a - cc * cos_a + self.cd0,
            alpha_effective: at.alpha_e,
        }
    }

    /// Time scale, compressibility and the attached-flow loads (see the module docs).
    fn attached<D: Scalar>(&self, x: &[D], flow: &SectionFlow<D>) -> Attached<D> {
        let ind = self.indicial;
        let speed = if flow.speed.re() > SPEED_MIN { flow.speed } else { D::from(SPEED_MIN) };
        let mach = if flow.mach.re() > MACH_MAX { D::from(MACH_MAX) } else { flow.mach };
        let beta2 = -(mach * mach) + 1.0;
        let rate = speed * (2.0 / flow.chord);
        let q = flow.alpha_rate * flow.chord / speed;
        let alpha_34 = flow.alpha + q * 0.5;
        let alpha_e = alpha_34 * (1.0 - ind.a1 - ind.a2) + x[0] * ind.a1 + x[1] * ind.a2;
        let k_alpha =
            (-mach + 1.0 + beta2.sqrt() * mach * mach * (PI * (ind.a1 * ind.b1 + ind.a2 * ind.b2))).recip() * 0.75;
        let (a3, a4, b3, b4) = IMPULSIVE_MOMENT;
        let k_alpha_m = (-mach + 1.0).recip() * (0.8 * (a3 * b4 + a4 * b3) / (b3 * b4));
        Attached {
            rate,
            beta2,
            q,
            alpha_34,
            alpha_e,
            cn_c: (alpha_e - self.alpha0) * self.cn_alpha,
            cn_i: q * k_alpha * 4.0,
            cm_i: -q * k_alpha_m * (a3 * b3 + a4 * b4),
        }
    }
}
