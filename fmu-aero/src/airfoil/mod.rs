//! Section aerodynamics beyond the linear polar: airfoil tables (C81), several airfoils along the
//! span, Prandtl's tip and root loss, and compressibility.
//!
//! The section loop of [`crate::aero`] asks [`Sections::coefficients`] for `(cl, cd, cm)` of
//! station `j` from the angle of attack, the section speed and the inflow angle; everything
//! here is an option, and without one the section loop keeps its linear polar untouched.
//!
//! **Airfoils.** Each station uses one airfoil: stations at `r / R < airfoil_change` the inboard
//! one, the others the outboard one. An airfoil is either
//! - the *analytic* polar `cl = a alpha`, `cd = cd0 + cd2 alpha^2`, `cm = 0`, with `alpha`
//!   reduced modulo `pi` into `[-pi/2, pi/2)` (reverse flow is the mirror image: an airfoil
//!   flying trailing edge first with the same polar), and optionally Prandtl-Glauert's
//!   compressibility factor on the lift, `cl = a alpha / sqrt(1 - M^2)` with `M` capped at
//!   [`PRANDTL_GLAUERT_MACH_CAP`] (the factor stays below 2.29; the linear theory fails long
//!   before `M = 1` anyway); or
//! - a C81 table ([`c81`]): `alpha` reduced modulo `2 pi` into `[-180, 180)` deg and looked up
//!   bilinearly (linear in the angle and in the Mach number between the neighbouring table
//!   points); beyond the table's Mach range the coefficient at the nearest Mach number is used
//!   (clamped), beyond its angles likewise (a table must cover -180..180 deg to be accepted by the
//!   FMU, so that cannot happen there). The table carries compressibility through its Mach
//!   columns; reverse flow is the table at `|alpha|` near 180 deg.
//!
//! **Tip and root loss** (Prandtl, applied to the section *lift*): `cl` is multiplied by
//! `F = F_tip F_root`,
//!
//! ```text
//! F_tip  = 2/pi acos(exp(-f_tip)),   f_tip  = Nb/2 (R - r) / (r |sin phi|)
//! F_root = 2/pi acos(exp(-f_root)),  f_root = Nb/2 (r - r_root) / (r_root |sin phi|)
//! ```
//!
//! the form of CCBlade (github.com/WISDEM/CCBlade, `src/bem.f90`, subroutine
//! `inductionFactors`, `Ftip`, `Fhub`), with `phi` the section's inflow angle
//! (`|sin phi| = |U_P| / U`). Where `|sin phi|` vanishes (no flow through the disk) `F = 1`.
//! With the momentum inflow of the FMU (one uniform `lambda` for the disk) this is the
//! blade-element side of blade-element momentum theory with the loss on the lift, which lowers the
//! thrust near the tip and so the uniform inflow too.
//!
//! **Yawed flow.** The spanwise component of the air velocity is ignored (independence
//! principle): the section sees the components in its own plane only, so `alpha`, `U` and `M`
//! come from `U_T` and `U_P`.

pub mod c81;

use std::f64::consts::PI;
use std::sync::Arc;

use fmu_core::model::Scalar;

use crate::aero::wrap_half_pi;
use crate::layout::NS_MAX;
use c81::C81Airfoil;

/// The NACA 0012 table shipped with the FMU: Sheldahl and Klimas (1981), Reynolds number 2e6,
/// -180..180 deg, one Mach column (see `fmu-aero/airfoils/README.md`).
pub const NACA0012_SHELDAHL_RE2E6: &str = include_str!("../../airfoils/naca0012_sheldahl_re2e6.c81");

/// Mach number at which Prandtl-Glauert's factor `1 / sqrt(1 - M^2)` stops growing (2.29).
pub const PRANDTL_GLAUERT_MACH_CAP: f64 = 0.9;

/// The linear polar with its optional compressibility factor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnalyticAirfoil {
    /// Lift-curve slope, 1/rad.
    pub lift_slope: f64,
    /// Drag polar constant term.
    pub cd0: f64,
    /// Drag polar quadratic term, 1/rad^2.
    pub cd2: f64,
    /// Divide the lift by `sqrt(1 - M^2)` (Prandtl-Glauert).
    pub prandtl_glauert: bool,
}

/// The airfoil of a span range.
#[derive(Debug, Clone)]
pub enum Airfoil {
    /// The linear polar.
    Analytic(AnalyticAirfoil),
    /// A C81 table.
    Table(Arc<C81Airfoil>),
}

/// Which of Prandtl's loss factors multiply the section lift.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TipLoss {
    /// No loss factor.
    None,
    /// `F_tip` only.
    Tip,
    /// `F_tip F_root`.
    TipAndRoot,
}

/// Section coefficients `(cl, cd, cm)`: lift normal to the section's relative wind, drag along
/// it, pitching moment about the pitch axis (nose up positive).
pub type Coefficients<D> = (D, D, D);

/// The section model of a blade: an airfoil per station, the loss factors and what they need.
#[derive(Debug, Clone)]
pub struct Sections {
    /// The airfoils (at most two: inboard, outboard).
    airfoils: Vec<Airfoil>,
    /// Index into `airfoils` of each station's airfoil.
    station_airfoil: [u8; NS_MAX],
    /// Per airfoil: a table whose lift and drag share their grid (one bracket for both).
    shared_grid: [bool; 2],
    /// Some airfoil has a pitching moment (a table whose moment is not zero everywhere).
    has_moment: bool,
    /// Per station: `Nb/2 (R - r) / r`, Prandtl's tip exponent times `|sin phi|`; infinite
    /// without loss factors.
    k_tip: [f64; NS_MAX],
    /// Per station: `Nb/2 (r - r_root) / r_root`, the root exponent times `|sin phi|`; infinite
    /// without the root factor.
    k_root: [f64; NS_MAX],
    /// `1 / speed of sound`, s/m.
    inv_speed_of_sound: f64,
    /// Chord, m (for the pitching moment).
    pub chord: f64,
}

/// What [`Sections::new`] needs besides the airfoils.
#[derive(Debug, Clone, Copy)]
pub struct SectionGeometry<'a> {
    /// Station radii from the shaft axis, m.
    pub r: &'a [f64],
    /// Number of blades.
    pub nb: usize,
    /// Rotor radius, m.
    pub radius: f64,
    /// Root cut-out radius, m.
    pub r_root: f64,
    /// Chord, m.
    pub chord: f64,
    /// Speed of sound, m/s.
    pub speed_of_sound: f64,
}

/// `x` reduced modulo `2 pi` into `[-pi, pi)`.
fn wrap_pi<D: Scalar>(x: D) -> D {
    let shifted = x.re() + PI;
    if (0.0..2.0 * PI).contains(&shifted) {
        return x;
    }
    x - (shifted / (2.0 * PI)).floor() * (2.0 * PI)
}

/// Beyond this `f`, `exp(-f) < 1e-16` and Prandtl's factor is 1 to within `1e-32` (its slope
/// `2/pi exp(-f) / sqrt(1 - exp(-2f))` below `1e-16`): taken as exactly 1, which spares the
/// inboard stations an `exp` and an `acos`.
const PRANDTL_F_NO_LOSS: f64 = 37.0;

/// Below this `x = exp(-f)`, `acos(x) = pi/2 - x - x^3/6` to within `3 x^5 / 40 < 1e-25`: the
/// series replaces `acos` (and the square root of its derivative).
const PRANDTL_SERIES_BELOW: f64 = 1e-5;

/// Prandtl's `2/pi acos(exp(-f))` (for `f <= PRANDTL_F_NO_LOSS`); for `exp(-f) <
/// PRANDTL_SERIES_BELOW`, `1 - 2/pi (x + x^3/6)` with `x = exp(-f)`, the same to round-off.
#[inline(always)]
fn prandtl<D: Scalar>(f: D) -> D {
    let x = (-f).exp();
    if x.re() < PRANDTL_SERIES_BELOW {
        return -(x * (x * x * (1.0 / 6.0) + 1.0)) * (2.0 / PI) + 1.0;
    }
    x.acos() * (2.0 / PI)
}

impl Airfoil {
    /// `(cl, cd, cm)` at the angle of attack `alpha` (rad, any value) and Mach number `mach`.
    pub fn coefficients<D: Scalar>(&self, alpha: D, mach: D) -> Coefficients<D> {
        let shared_grid = matches!(self, Airfoil::Table(t) if t.lift_drag_share_grid());
        self.coefficients_checked(alpha, mach, shared_grid).0
    }

    /// [`Airfoil::coefficients`], and whether a table clamped the Mach number to its range;
    /// `shared_grid`: the table's lift and drag share their grid
    /// ([`C81Airfoil::lift_drag_share_grid`]), so that one bracket serves both.
    #[inline]
    pub fn coefficients_checked<D: Scalar>(&self, alpha: D, mach: D, shared_grid: bool) -> (Coefficients<D>, bool) {
        match self {
            Airfoil::Analytic(p) => {
                let alpha = wrap_half_pi(alpha);
                let mut cl = alpha * p.lift_slope;
                if p.prandtl_glauert {
                    let m = if mach.re() > PRANDTL_GLAUERT_MACH_CAP { D::from(PRANDTL_GLAUERT_MACH_CAP) } else { mach };
                    cl *= (-(m * m) + 1.0).sqrt().recip();
                }
                ((cl, alpha * alpha * p.cd2 + p.cd0, D::from(0.0)), false)
            }
            Airfoil::Table(t) => {
                let alpha_deg = wrap_pi(alpha) * (180.0 / PI);
                let (a_re, m_re) = (alpha_deg.re(), mach.re());
                let (da, dm) = (alpha_deg - a_re, mach - m_re);
                let at = |l: c81::Lookup| da * l.d_alpha + dm * l.d_mach + l.value;
                let (lift, drag) = t.lift_drag(a_re, m_re, shared_grid);
                let clamped = lift.mach_clamped || drag.mach_clamped;
                if t.moment.is_zero() {
                    return ((at(lift), at(drag), D::from(0.0)), clamped);
                }
                let moment = t.moment.lookup(a_re, m_re);
                ((at(lift), at(drag), at(moment)), clamped || moment.mach_clamped)
            }
        }
    }
}

impl Sections {
    /// The section model: `inboard` at stations with `r / R < change`, `outboard` elsewhere.
    pub fn new(g: SectionGeometry<'_>, inboard: Airfoil, outboard: Airfoil, change: f64, tip_loss: TipLoss) -> Self {
        let mut station_airfoil = [0; NS_MAX];
        let (mut k_tip, mut k_root) = ([f64::INFINITY; NS_MAX], [f64::INFINITY; NS_MAX]);
        let half_nb = 0.5 * g.nb as f64;
        for (j, &rj) in g.r.iter().enumerate() {
            station_airfoil[j] = u8::from(rj / g.radius >= change);
            if tip_loss != TipLoss::None {
                k_tip[j] = half_nb * (g.radius - rj) / rj;
            }
            if tip_loss == TipLoss::TipAndRoot && g.r_root > 0.0 {
                k_root[j] = half_nb * (rj - g.r_root) / g.r_root;
            }
        }
        let airfoils = vec![inboard, outboard];
        let shared_grid = [0, 1].map(|i| matches!(&airfoils[i], Airfoil::Table(t) if t.lift_drag_share_grid()));
        let has_moment = airfoils.iter().any(|a| matches!(a, Airfoil::Table(t) if !t.moment.is_zero()));
        Sections {
            airfoils,
            station_airfoil,
            shared_grid,
            has_moment,
            k_tip,
            k_root,
            inv_speed_of_sound: 1.0 / g.speed_of_sound,
            chord: g.chord,
        }
    }

    /// Some airfoil has a pitching moment (otherwise `cm` is zero at every station).
    pub fn has_moment(&self) -> bool {
        self.has_moment
    }

    /// Some station uses a C81 table.
    pub fn has_table(&self) -> bool {
        self.airfoils.iter().any(|a| matches!(a, Airfoil::Table(_)))
    }

    /// The airfoil of station `j`.
    pub fn airfoil(&self, j: usize) -> &Airfoil {
        &self.airfoils[usize::from(self.station_airfoil[j])]
    }

    /// Prandtl's loss factor at station `j` for `|sin phi|` (see the module docs).
    #[inline]
    pub fn loss_factor<D: Scalar>(&self, j: usize, sin_phi_abs: D) -> D {
        let one = D::from(1.0);
        let (k_tip, k_root) = (self.k_tip[j], self.k_root[j]);
        let no_loss = PRANDTL_F_NO_LOSS * sin_phi_abs.re();
        // f = k / |sin phi| for the tip and the root, decided on the real part first (also
        // without loss factors: k is infinite then).
        if sin_phi_abs.re() <= 1e-12 || (k_tip > no_loss && k_root > no_loss) {
            return one;
        }
        let inv = sin_phi_abs.recip();
        let tip = if k_tip > no_loss { one } else { prandtl(inv * k_tip) };
        if k_root > no_loss { tip } else { tip * prandtl(inv * k_root) }
    }

    /// `(cl, cd, cm)` of station `j` at the angle of attack `alpha` (rad, any value), section
    /// speed `speed` (m/s, in the section plane) and `|sin phi| = |U_P| / U`, with the loss
    /// factor on the lift.
    pub fn coefficients<D: Scalar>(&self, j: usize, alpha: D, speed: D, sin_phi_abs: D) -> Coefficients<D> {
        self.coefficients_checked(j, alpha, speed, sin_phi_abs).0
    }

    /// [`Sections::coefficients`], and whether a table clamped the Mach number to its range.
    #[inline]
    pub fn coefficients_checked<D: Scalar>(
        &self,
        j: usize,
        alpha: D,
        speed: D,
        sin_phi_abs: D,
    ) -> (Coefficients<D>, bool) {
        let i = usize::from(self.station_airfoil[j]);
        let ((cl, cd, cm), clamped) =
            self.airfoils[i].coefficients_checked(alpha, speed * self.inv_speed_of_sound, self.shared_grid[i]);
        ((cl * self.loss_factor(j, sin_phi_abs), cd, cm), clamped)
    }
}

/// The shipped NACA 0012 table, parsed once per process and shared by every instance.
pub fn naca0012() -> Arc<C81Airfoil> {
    static TABLE: std::sync::OnceLock<Arc<C81Airfoil>> = std::sync::OnceLock::new();
    Arc::clone(TABLE.get_or_init(|| {
        Arc::new(
            c81::parse("naca0012_sheldahl_re2e6.c81", NACA0012_SHELDAHL_RE2E6)
                .expect("the shipped table parses (tested)"),
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fmu_core::{Dual64, DualNum};

    #[test]
    fn shipped_table_covers_the_full_circle_and_reproduces_its_points() {
        let t = naca0012();
        for table in [&t.lift, &t.drag, &t.moment] {
            assert_eq!((table.alpha_deg[0], *table.alpha_deg.last().unwrap()), (-180.0, 180.0));
        }
        // Points of the file (Sheldahl and Klimas, Re 2e6), read back through the interpolation:
        // 10 deg: cl 1.0727, cd 0.0128; 13 deg: cl 1.2169; 90 deg: cd 1.8; 180 deg: cd 0.025.
        let air = Airfoil::Table(t);
        for (deg, cl, cd) in
            [(10.0, 1.0727, 0.0128), (13.0, 1.2169, 0.0172), (90.0, 0.07, 1.8), (-10.0, -1.0727, 0.0128)]
        {
            let (l, d, m) = air.coefficients(f64::to_radians(deg), 0.3);
            assert!((l - cl).abs() < 1e-12 && (d - cd).abs() < 1e-12 && m == 0.0, "{deg}: {l} {d}");
        }
        // 2.5 deg halfway between 2 (0.22, 0.0066) and 3 deg (0.33, 0.0069): 0.275, 0.00675.
        let (l, d, _) = air.coefficients(2.5_f64.to_radians(), 0.0);
        assert!((l - 0.275).abs() < 1e-12 && (d - 0.00675).abs() < 1e-12);
        // Reverse flow: -179 deg is 181 deg, i.e. 1/5 of the way from 175 (cl -0.63) to 180 deg (0):
        // alpha reduced modulo 360 deg to -179: between -180 (0) and -175 (0.63): 0.126.
        let (l, d, _) = air.coefficients(181.0_f64.to_radians(), 0.0);
        assert!((l - 0.126).abs() < 1e-12 && (d - (0.025 + 0.2 * (0.055 - 0.025))).abs() < 1e-12, "{l} {d}");
    }

    #[test]
    fn table_derivatives_are_the_segment_slopes() {
        let air = Airfoil::Table(naca0012());
        let (l, _, _) = air.coefficients(Dual64::new(4.5_f64.to_radians(), 1.0), Dual64::from(0.2));
        // Between 4 (0.44) and 5 deg (0.55): 0.11 per deg.
        assert!((l.eps - 0.11 * 180.0 / PI).abs() < 1e-9, "{}", l.eps);
    }

    #[test]
    fn prandtl_glauert_scales_the_analytic_lift_and_is_capped() {
        let p = AnalyticAirfoil { lift_slope: 5.7, cd0: 0.01, cd2: 0.5, prandtl_glauert: true };
        let air = Airfoil::Analytic(p);
        let alpha = 0.1;
        for (mach, factor) in
            [(0.0, 1.0), (0.6, 1.25), (0.8, 1.0 / 0.6), (0.95, 1.0 / 0.19_f64.sqrt()), (3.0, 1.0 / 0.19_f64.sqrt())]
        {
            let (cl, cd, _) = air.coefficients(alpha, mach);
            assert!((cl - 0.57 * factor).abs() < 1e-12, "M {mach}: {cl}");
            assert!((cd - (0.01 + 0.5 * 0.01)).abs() < 1e-15);
        }
        // Reverse flow: the mirror image (alpha - pi).
        let (cl, _, _) = air.coefficients(alpha + PI, 0.0);
        assert!((cl - 0.57).abs() < 1e-12);
    }

    #[test]
    fn loss_factor_matches_prandtls_formula_by_hand() {
        let r = [5.0, 7.0];
        let g = SectionGeometry { r: &r, nb: 4, radius: 7.5, r_root: 1.0, chord: 0.5, speed_of_sound: 340.0 };
        let analytic =
            || Airfoil::Analytic(AnalyticAirfoil { lift_slope: 5.7, cd0: 0.0, cd2: 0.0, prandtl_glauert: false });
        let s = Sections::new(g, analytic(), analytic(), 0.0, TipLoss::TipAndRoot);
        let sin_phi: f64 = 0.06;
        // Station 1 (r = 7): f_tip = 2 * 0.5 / (7 * 0.06) = 2.380952...; exp(-f) = 0.092463...
        let f_tip: f64 = 2.0 * 0.5 / (7.0 * 0.06);
        let f_root: f64 = 2.0 * 6.0 / (1.0 * 0.06);
        let expected = 2.0 / PI * (-f_tip).exp().acos() * (2.0 / PI * (-f_root).exp().acos());
        assert!((s.loss_factor(1, sin_phi) - expected).abs() < 1e-15);
        assert!((0.9..0.95).contains(&expected), "{expected}");
        // No flow through the disk: no loss; tip loss only: the root factor drops out.
        assert_eq!(s.loss_factor(1, 0.0), 1.0);
        let tip_only = Sections::new(g, analytic(), analytic(), 0.0, TipLoss::Tip);
        assert!((tip_only.loss_factor(1, sin_phi) - 2.0 / PI * (-f_tip).exp().acos()).abs() < 1e-15);
    }

    #[test]
    fn stations_take_the_inboard_or_outboard_airfoil() {
        let r = [1.0, 3.0, 5.0, 7.0];
        let g = SectionGeometry { r: &r, nb: 2, radius: 7.5, r_root: 0.5, chord: 0.5, speed_of_sound: 340.0 };
        let analytic =
            Airfoil::Analytic(AnalyticAirfoil { lift_slope: 5.7, cd0: 0.0, cd2: 0.0, prandtl_glauert: false });
        let s = Sections::new(g, analytic, Airfoil::Table(naca0012()), 0.5, TipLoss::None);
        let kinds: Vec<bool> = (0..4).map(|j| matches!(s.airfoil(j), Airfoil::Table(_))).collect();
        assert_eq!(kinds, vec![false, false, true, true]);
    }
    /// The optimised loss factor (exponents per station precomputed, the `acos` series for
    /// `exp(-f) < 1e-5`) against Prandtl's formula written out, value and derivative, over
    /// `|sin phi|` from 1e-4 to 1 at every station of a 20-station blade.
    #[test]
    fn loss_factor_equals_the_plain_formula_over_the_span() {
        let r: Vec<f64> = (0..20).map(|j| 0.7 + 4.2 * (j as f64 + 0.5) / 20.0).collect();
        let (radius, r_root, nb) = (4.91, 0.6874, 4.0);
        let g = SectionGeometry { r: &r, nb: 4, radius, r_root, chord: 0.27, speed_of_sound: 340.0 };
        let analytic =
            || Airfoil::Analytic(AnalyticAirfoil { lift_slope: 5.7, cd0: 0.0, cd2: 0.0, prandtl_glauert: false });
        let s = Sections::new(g, analytic(), analytic(), 0.0, TipLoss::TipAndRoot);
        let plain = |f: Dual64| (-f).exp().acos() * (2.0 / PI);
        let mut series_used = 0;
        for (j, &rj) in r.iter().enumerate() {
            for k in 0..=80 {
                let sin_phi = Dual64::new(10f64.powf(-4.0 + 4.0 * k as f64 / 80.0), 1.0);
                let f_tip = sin_phi.recip() * (0.5 * nb * (radius - rj) / rj);
                let f_root = sin_phi.recip() * (0.5 * nb * (rj - r_root) / r_root);
                let want = plain(f_tip) * plain(f_root);
                let got = s.loss_factor(j, sin_phi);
                series_used += usize::from((11.6..37.0).contains(&f_tip.re));
                assert!(
                    (got.re - want.re).abs() <= 5e-16,
                    "station {j}, sin phi {}: {} vs {}",
                    sin_phi.re,
                    got.re,
                    want.re
                );
                assert!((got.eps - want.eps).abs() <= 1e-12 * want.eps.abs().max(1.0), "{} vs {}", got.eps, want.eps);
            }
        }
        assert!(series_used > 100, "{series_used}");
    }

    /// Lift and drag bracketed once for both equal the separate lookups bit for bit.
    #[test]
    fn one_bracket_for_lift_and_drag_gives_the_separate_lookups() {
        let t = naca0012();
        assert!(t.lift_drag_share_grid());
        for k in 0..=7200 {
            let deg = -180.0 + 0.05 * k as f64 + 1e-3;
            for mach in [0.0, 0.4] {
                let (l, d) = t.lift_drag(deg, mach, true);
                assert_eq!((l, d), (t.lift.lookup(deg, mach), t.drag.lookup(deg, mach)), "{deg}");
            }
        }
    }
}
