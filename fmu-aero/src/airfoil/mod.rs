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
    /// Station radii from the shaft axis, m.
    r: [f64; NS_MAX],
    /// Loss factors in use.
    tip_loss: TipLoss,
    /// Number of blades (Prandtl's `Nb`).
    nb: f64,
    /// Rotor radius, m.
    radius: f64,
    /// Root cut-out radius, m.
    r_root: f64,
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

/// Prandtl's `2/pi acos(exp(-f))` (for `f <= PRANDTL_F_NO_LOSS`).
fn prandtl<D: Scalar>(f: D) -> D {
    (-f).exp().acos() * (2.0 / PI)
}

impl Airfoil {
    /// `(cl, cd, cm)` at the angle of attack `alpha` (rad, any value) and Mach number `mach`.
    pub fn coefficients<D: Scalar>(&self, alpha: D, mach: D) -> Coefficients<D> {
        match self {
            Airfoil::Analytic(p) => {
                let alpha = wrap_half_pi(alpha);
                let mut cl = alpha * p.lift_slope;
                if p.prandtl_glauert {
                    let m = if mach.re() > PRANDTL_GLAUERT_MACH_CAP { D::from(PRANDTL_GLAUERT_MACH_CAP) } else { mach };
                    cl *= (-(m * m) + 1.0).sqrt().recip();
                }
                (cl, alpha * alpha * p.cd2 + p.cd0, D::from(0.0))
            }
            Airfoil::Table(t) => {
                let alpha_deg = wrap_pi(alpha) * (180.0 / PI);
                let (a_re, m_re) = (alpha_deg.re(), mach.re());
                let (da, dm) = (alpha_deg - a_re, mach - m_re);
                let at = |l: c81::Lookup| da * l.d_alpha + dm * l.d_mach + l.value;
                (at(t.lift.lookup(a_re, m_re)), at(t.drag.lookup(a_re, m_re)), at(t.moment.lookup(a_re, m_re)))
            }
        }
    }
}

impl Sections {
    /// The section model: `inboard` at stations with `r / R < change`, `outboard` elsewhere.
    pub fn new(g: SectionGeometry<'_>, inboard: Airfoil, outboard: Airfoil, change: f64, tip_loss: TipLoss) -> Self {
        let mut station_airfoil = [0; NS_MAX];
        let mut r = [0.0; NS_MAX];
        for (j, &rj) in g.r.iter().enumerate() {
            station_airfoil[j] = u8::from(rj / g.radius >= change);
            r[j] = rj;
        }
        Sections {
            airfoils: vec![inboard, outboard],
            station_airfoil,
            r,
            tip_loss,
            nb: g.nb as f64,
            radius: g.radius,
            r_root: g.r_root,
            inv_speed_of_sound: 1.0 / g.speed_of_sound,
            chord: g.chord,
        }
    }

    /// The airfoil of station `j`.
    pub fn airfoil(&self, j: usize) -> &Airfoil {
        &self.airfoils[usize::from(self.station_airfoil[j])]
    }

    /// Prandtl's loss factor at station `j` for `|sin phi|` (see the module docs).
    pub fn loss_factor<D: Scalar>(&self, j: usize, sin_phi_abs: D) -> D {
        let one = D::from(1.0);
        if self.tip_loss == TipLoss::None || sin_phi_abs.re() <= 1e-12 {
            return one;
        }
        let (r, half_nb) = (self.r[j], 0.5 * self.nb);
        // f = k / |sin phi| for the tip and the root; decided on the real part first.
        let factor = |k: f64| {
            if k > PRANDTL_F_NO_LOSS * sin_phi_abs.re() { one } else { prandtl(sin_phi_abs.recip() * k) }
        };
        let tip = factor(half_nb * (self.radius - r) / r);
        if self.tip_loss == TipLoss::TipAndRoot && self.r_root > 0.0 {
            tip * factor(half_nb * (r - self.r_root) / self.r_root)
        } else {
            tip
        }
    }

    /// `(cl, cd, cm)` of station `j` at the angle of attack `alpha` (rad, any value), section
    /// speed `speed` (m/s, in the section plane) and `|sin phi| = |U_P| / U`, with the loss
    /// factor on the lift.
    pub fn coefficients<D: Scalar>(&self, j: usize, alpha: D, speed: D, sin_phi_abs: D) -> Coefficients<D> {
        let (cl, cd, cm) = self.airfoil(j).coefficients(alpha, speed * self.inv_speed_of_sound);
        (cl * self.loss_factor(j, sin_phi_abs), cd, cm)
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
    use fmu_core::Dual64;

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
}
