//! Fuselage force and moment tables against angle of attack and sideslip (off unless the
//! String parameter `fuselage_table_file` names a table).
//!
//! **Quantities.** The table gives the loads divided by the dynamic pressure, as rotorcraft
//! simulation models tabulate them (e.g. GENHEL's D/Q, L/Q, M/Q): `D/q`, `Y/q`, `L/q` (m^2) and
//! `R/q`, `M/q`, `N/q` (m^3), so no reference area or length is needed. All six are in **wind
//! axes** about the table's reference point `P` (parameters `fuselage_table.x/y/z`, body axes,
//! relative to the body reference point O): drag `D` against the relative wind, side force `Y`
//! along `y_w`, lift `L` against `z_w`, and the moments `R`, `M`, `N` about `x_w`, `y_w`, `z_w`.
//!
//! **Angles.** With `V = (u, v, w)` the velocity of `P` relative to the air in body axes (the
//! body velocity plus `omega x p`, minus the wind),
//!
//! ```text
//! alpha = atan2(w, u)             in [-180, 180] deg   (alpha = 0 when u = w = 0)
//! beta  = atan2(v, sqrt(u^2+w^2)) in [-90, 90] deg     (= asin(v/|V|))
//! ```
//!
//! These two angles cover every direction of the relative wind once, so the table's alpha runs
//! over the full circle and beta only over `[-90, 90]`: no symmetry is assumed or needed.
//!
//! **Wind to body axes** (the columns are the wind axes in body components):
//!
//! ```text
//! x_w = ( cos a cos b,  sin b,  sin a cos b)      (= V/|V|)
//! y_w = (-cos a sin b,  cos b, -sin a sin b)
//! z_w = (-sin a,        0,      cos a)
//! F   = q (-D/q x_w + Y/q y_w - L/q z_w),        q = rho |V|^2 / 2
//! M_P = q ( R/q x_w + M/q y_w + N/q z_w),        M_O = M_P + p x F
//! ```
//!
//! At `alpha = beta = 0` the wind axes are the body axes: drag along -x, side force along +y,
//! lift along -z (up), and `R, M, N` the body roll, pitch and yaw moments.
//!
//! **Interpolation**: bilinear in `(alpha, beta)` on the table's grid (exact at the grid points
//! and on each cell's edges linear in one angle); the angles never leave the table's range.
//!
//! **File** (CSV, read by [`fmu_core::csv_table`]): a header of `name [unit]` columns `alpha`,
//! `beta` (`deg` or `rad`), `D/q`, `Y/q`, `L/q` (`m2` or `ft2`), `R/q`, `M/q`, `N/q` (`m3` or
//! `ft3`), in any order; `#` lines are comments. Rows sorted by alpha, then by beta, every
//! alpha with the same beta values (a full grid); alpha from -180 to 180 deg, beta from -90 to 90
//! deg; the rows at alpha = -180 and 180 deg are the same direction and must be equal.

use fmu_core::csv_table::{CsvError, CsvTable};
use fmu_core::model::Scalar;
use fmu_core::params::{ParameterError, Reader};

use crate::airframe::{Air, atan2};
use crate::layout::vr;
use crate::vec3::{V3, add, cross, dot, lift3, scale};

/// The load columns, in the order of [`FuselageTable`]'s values.
const LOAD_COLUMNS: [&str; 6] = ["D/q", "Y/q", "L/q", "R/q", "M/q", "N/q"];

/// Square and cubic feet in SI.
const FT2: f64 = 0.3048 * 0.3048;
const FT3: f64 = 0.3048 * 0.3048 * 0.3048;

/// A fuselage table on its `(alpha, beta)` grid, SI.
#[derive(Debug, Clone, PartialEq)]
pub struct FuselageTable {
    /// Angles of attack, rad, increasing from -pi to pi.
    pub alpha: Vec<f64>,
    /// Sideslip angles, rad, increasing from -pi/2 to pi/2.
    pub beta: Vec<f64>,
    /// `[D/q, Y/q, L/q]` (m^2) and `[R/q, M/q, N/q]` (m^3) at `(alpha[i], beta[j])`, index
    /// `i * beta.len() + j`.
    pub values: Vec<[f64; 6]>,
}

/// Whether `a` equals `b` to rounding of the file's decimal angles.
fn same_angle(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9
}

impl FuselageTable {
    /// Parses a table's text (see the module docs); `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Self, CsvError> {
        let csv = CsvTable::parse(text, file)?;
        let angle_units = [("deg", std::f64::consts::PI / 180.0), ("rad", 1.0)];
        let (ka, kb) = (csv.column("alpha")?, csv.column("beta")?);
        let (fa, fb) = (csv.unit_factor(ka, &angle_units)?, csv.unit_factor(kb, &angle_units)?);
        let mut loads = [(0, 0.0); 6];
        for (slot, name) in loads.iter_mut().zip(LOAD_COLUMNS) {
            let k = csv.column(name)?;
            let units: &[(&str, f64)] = if name.starts_with(['D', 'Y', 'L']) {
                &[("m2", 1.0), ("ft2", FT2)]
            } else {
                &[("m3", 1.0), ("ft3", FT3)]
            };
            *slot = (k, csv.unit_factor(k, units)?);
        }
        let mut table = FuselageTable { alpha: Vec::new(), beta: Vec::new(), values: Vec::new() };
        let mut rows_at_alpha = 0;
        for row in &csv.rows {
            let (alpha, beta) = (row.values[ka] * fa, row.values[kb] * fb);
            let new_alpha = table.alpha.last().is_none_or(|&last| !same_angle(alpha, last));
            if new_alpha {
                table.check_block_complete(&csv, row.line, rows_at_alpha)?;
                if table.alpha.last().is_some_and(|&last| alpha < last) {
                    return Err(csv.error(row.line, Some(ka), "alpha decreases: rows must be sorted by alpha".into()));
                }
                table.alpha.push(alpha);
                rows_at_alpha = 0;
            }
            if table.alpha.len() == 1 {
                if table.beta.last().is_some_and(|&last| beta <= last) {
                    return Err(csv.error(row.line, Some(kb), "beta does not increase within this alpha".into()));
                }
                table.beta.push(beta);
            } else if table.beta.get(rows_at_alpha).is_none_or(|&want| !same_angle(beta, want)) {
                let want = table
                    .beta
                    .get(rows_at_alpha)
                    .map_or("none (too many rows)".to_owned(), |b| format!("{} deg", b.to_degrees()));
                let message = format!(
                    "beta {} deg where the grid has {want}: every alpha needs the first alpha's betas",
                    beta.to_degrees()
                );
                return Err(csv.error(row.line, Some(kb), message));
            }
            rows_at_alpha += 1;
            table.values.push(loads.map(|(k, factor)| row.values[k] * factor));
        }
        let end_line = csv.rows.last().map_or(csv.header_line, |r| r.line);
        table.check_block_complete(&csv, end_line, rows_at_alpha)?;
        table.check_ranges(&csv)?;
        Ok(table)
    }

    /// An error when the alpha block just finished (`rows` rows) has fewer betas than the grid.
    fn check_block_complete(&self, csv: &CsvTable, line: usize, rows: usize) -> Result<(), CsvError> {
        if self.alpha.len() > 1 && rows < self.beta.len() {
            let message = format!(
                "alpha {} deg has {rows} rows, the grid has {} betas",
                self.alpha[self.alpha.len() - 1].to_degrees(),
                self.beta.len()
            );
            return Err(csv.error(line, None, message));
        }
        Ok(())
    }

    /// Alpha over [-180, 180] deg, beta over [-90, 90] deg, equal rows at alpha = +-180 deg.
    fn check_ranges(&self, csv: &CsvTable) -> Result<(), CsvError> {
        use std::f64::consts::{FRAC_PI_2, PI};
        let line = csv.rows.last().map_or(csv.header_line, |r| r.line);
        let span = |v: &[f64]| format!("{} .. {} deg", v[0].to_degrees(), v[v.len() - 1].to_degrees());
        let covers = |v: &[f64], half: f64| v.len() >= 2 && same_angle(v[0], -half) && same_angle(v[v.len() - 1], half);
        if !covers(&self.alpha, PI) {
            return Err(csv.error(
                line,
                None,
                format!("alpha spans {}: it must run from -180 to 180 deg", span(&self.alpha)),
            ));
        }
        if !covers(&self.beta, FRAC_PI_2) {
            return Err(csv.error(
                line,
                None,
                format!("beta spans {}: it must run from -90 to 90 deg", span(&self.beta)),
            ));
        }
        let nb = self.beta.len();
        let last = self.values.len() - nb;
        for j in 0..nb {
            let (a, b) = (self.values[j], self.values[last + j]);
            if a.iter().zip(&b).any(|(x, y)| (x - y).abs() > 1e-9 * x.abs().max(y.abs()).max(1.0)) {
                let at = csv.rows[last + j].line;
                let message = format!(
                    "the row at alpha 180 deg, beta {} deg differs from the one at -180 deg (the same direction)",
                    self.beta[j].to_degrees()
                );
                return Err(csv.error(at, None, message));
            }
        }
        Ok(())
    }

    /// The six values at `(alpha, beta)` (rad), bilinear in the cell holding them.
    pub fn interpolate<D: Scalar>(&self, alpha: D, beta: D) -> [D; 6] {
        let (i, ta) = cell(&self.alpha, alpha);
        let (j, tb) = cell(&self.beta, beta);
        let nb = self.beta.len();
        let at = |i: usize, j: usize| self.values[i * nb + j];
        let (v00, v01, v10, v11) = (at(i, j), at(i, j + 1), at(i + 1, j), at(i + 1, j + 1));
        std::array::from_fn(|k| {
            let low = tb * (v01[k] - v00[k]) + v00[k];
            let high = tb * (v11[k] - v10[k]) + v10[k];
            (high - low) * ta + low
        })
    }
}

/// The cell `k` with `grid[k] <= x <= grid[k + 1]` and the fraction of `x` across it (`x`
/// clamped to the grid).
fn cell<D: Scalar>(grid: &[f64], x: D) -> (usize, D) {
    let xr = x.re().clamp(grid[0], grid[grid.len() - 1]);
    let k = grid.partition_point(|&g| g <= xr).clamp(1, grid.len() - 1) - 1;
    let width = grid[k + 1] - grid[k];
    if x.re() < grid[0] || x.re() > grid[grid.len() - 1] {
        return (k, D::from((xr - grid[k]) / width));
    }
    (k, (x - grid[k]) * (1.0 / width))
}

/// The fuselage table and its reference point.
#[derive(Debug, Clone)]
pub struct FuselageAero {
    /// The table.
    table: FuselageTable,
    /// The table's reference point relative to O, body axes, m.
    reference: [f64; 3],
}

/// The table's loads and the angles it was read at.
#[derive(Debug, Clone, Copy)]
pub struct FuselageLoads<D> {
    /// Force on the airframe, body axes, N.
    pub force: V3<D>,
    /// Moment about the body reference point O, body axes, N m.
    pub moment: V3<D>,
    /// Angle of attack and sideslip of the table's reference point, rad.
    pub alpha: D,
    /// Sideslip angle, rad.
    pub beta: D,
}

impl FuselageAero {
    /// The fuselage table of the parameters, `None` when `fuselage_table_file` is empty. A
    /// missing, unreadable or malformed file is an error naming the parameter, the file and the
    /// line and column.
    pub fn from_parameters(p: &Reader) -> Result<Option<Self>, ParameterError> {
        let reference = p.vector::<3>(vr::FUSELAGE_TABLE_POS)?;
        if p.string(vr::FUSELAGE_TABLE_FILE).is_empty() {
            return Ok(None);
        }
        let path = p.resource_path(vr::FUSELAGE_TABLE_FILE)?;
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("parameter 'fuselage_table_file': cannot read {}: {e}", path.display()))?;
        let table = FuselageTable::parse(&text, &path.display().to_string())
            .map_err(|e| format!("parameter 'fuselage_table_file': {e}"))?;
        Ok(Some(FuselageAero { table, reference }))
    }

    /// The table's loads for the air `air` (see the module docs); zero in still air.
    pub fn loads<D: Scalar>(&self, air: &Air<D>) -> FuselageLoads<D> {
        let zero = D::from(0.0);
        let p = lift3::<D>(self.reference);
        let v = add(air.velocity, cross(air.rate, p));
        let speed2 = dot(v, v);
        let mut out = FuselageLoads { force: [zero; 3], moment: [zero; 3], alpha: zero, beta: zero };
        if speed2.re() <= 0.0 {
            return out;
        }
        let [u, vy, w] = v;
        let uw2 = u * u + w * w;
        let (s, cos_a, sin_a, alpha) = if uw2.re() > 0.0 {
            let s = uw2.sqrt();
            (s, u / s, w / s, atan2(w, u))
        } else {
            (zero, D::from(1.0), zero, zero)
        };
        let speed = speed2.sqrt();
        let (cos_b, sin_b) = (s / speed, vy / speed);
        let beta = if s.re() == 0.0 { D::from(vy.re().signum() * std::f64::consts::FRAC_PI_2) } else { atan2(vy, s) };
        let x_w = [cos_a * cos_b, sin_b, sin_a * cos_b];
        let y_w = [-(cos_a * sin_b), cos_b, -(sin_a * sin_b)];
        let z_w = [-sin_a, zero, cos_a];
        let [d, y, l, r, m, n] = self.table.interpolate(alpha, beta);
        let q = air.density * speed2 * 0.5;
        let force = scale(add(add(scale(x_w, -d), scale(y_w, y)), scale(z_w, -l)), q);
        let moment_p = scale(add(add(scale(x_w, r), scale(y_w, m)), scale(z_w, n)), q);
        out.force = force;
        out.moment = add(moment_p, cross(p, force));
        out.alpha = alpha;
        out.beta = beta;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3 x 3 grid (alpha -180, 0, 180 deg; beta -90, 0, 90 deg) with values `f(alpha, beta)`
    /// written in the file's units (ft2, ft3, deg).
    fn grid_text(f: impl Fn(f64, f64) -> [f64; 6]) -> String {
        let mut text = String::from(
            "# test\nbeta [deg], alpha [deg], D/q [ft2], Y/q [ft2], L/q [ft2], R/q [ft3], M/q [ft3], N/q [ft3]\n",
        );
        for a in [-180.0, 0.0, 180.0] {
            for b in [-90.0, 0.0, 90.0] {
                let v = f(a, b);
                text += &format!("{b}, {a}, {}, {}, {}, {}, {}, {}\n", v[0], v[1], v[2], v[3], v[4], v[5]);
            }
        }
        text
    }

    /// Values independent of the sign of alpha at +-180 (so the periodic rows agree).
    fn values(a: f64, b: f64) -> [f64; 6] {
        let a = a.abs();
        [1.0 + a, 2.0 * b, 3.0 + a * b, 4.0, -a, b]
    }

    #[test]
    fn grid_points_are_reproduced_exactly_in_si() {
        let table = FuselageTable::parse(&grid_text(values), "t.csv").unwrap();
        assert_eq!(table.alpha.len(), 3);
        assert_eq!(table.beta.len(), 3);
        for (i, &a) in [-180.0_f64, 0.0, 180.0].iter().enumerate() {
            for (j, &b) in [-90.0_f64, 0.0, 90.0].iter().enumerate() {
                let want = values(a, b);
                let got = table.interpolate(a.to_radians(), b.to_radians());
                for k in 0..6 {
                    let unit = if k < 3 { FT2 } else { FT3 };
                    assert_eq!(got[k], want[k] * unit, "({a}, {b}) column {k}");
                    assert_eq!(table.values[i * 3 + j][k], want[k] * unit);
                }
            }
        }
    }

    #[test]
    fn bilinear_interpolation_against_hand_values() {
        // Cell alpha 0..180, beta 0..90; at alpha 45, beta 30: ta = 1/4, tb = 1/3.
        // D/q = 1 + |a| is linear in alpha: 1 + 45 = 46 (ft2).
        // L/q = 3 + |a| b at the corners 3, 3, 3, 3 + 180*90: bilinear gives 3 + ta tb 16200 = 1353.
        let table = FuselageTable::parse(&grid_text(values), "t.csv").unwrap();
        let got = table.interpolate(45f64.to_radians(), 30f64.to_radians());
        assert!((got[0] / FT2 - 46.0).abs() < 1e-12, "{}", got[0] / FT2);
        assert!((got[1] / FT2 - 60.0).abs() < 1e-12, "{}", got[1] / FT2);
        assert!((got[2] / FT2 - 1353.0).abs() < 1e-9, "{}", got[2] / FT2);
        assert!((got[4] / FT3 + 45.0).abs() < 1e-12, "{}", got[4] / FT3);
        // Beyond the grid (never reached through atan2, but clamped): the edge values.
        let clamped = table.interpolate(4.0_f64, 2.0_f64);
        assert_eq!(clamped, table.interpolate(std::f64::consts::PI, std::f64::consts::FRAC_PI_2));
    }

    #[test]
    fn malformed_tables_are_refused_with_line_and_column() {
        let good = grid_text(values);
        let err = |text: &str| FuselageTable::parse(text, "t.csv").unwrap_err().to_string();
        // Line 3 is the first data row: the header is line 2.
        let bad = good.replacen("-90, -180, 181,", "-90, -180, x1,", 1);
        assert_eq!(err(&bad), "t.csv:3: column 3 (D/q [ft2]): `x1` is not a number");
        let bad = good.replace("D/q [ft2]", "D/q [in2]");
        assert!(err(&bad).starts_with("t.csv:2: column 3 (D/q [in2]): unknown unit `in2`"), "{}", err(&bad));
        let bad = good.replace(", N/q [ft3]", ", n [ft3]");
        assert!(err(&bad).starts_with("t.csv:2: missing column `N/q`"), "{}", err(&bad));
        // Second alpha block with a wrong beta (line 7: beta 10 instead of 0).
        let lines: Vec<&str> = good.lines().collect();
        let mut edited = lines.clone();
        let row = lines[6].replacen("0, 0,", "10, 0,", 1);
        edited[6] = &row;
        assert!(
            err(&edited.join("\n")).starts_with("t.csv:7: column 1 (beta [deg]): beta 10 deg where the grid has 0 deg")
        );
        // The -180 and 180 rows differ (line 10, beta 0).
        let bad = good.replace("0, 180, 181, 0, 3, 4, -180, 0", "0, 180, 181, 0, 3, 4, -181, 0");
        assert!(err(&bad).starts_with("t.csv:10: the row at alpha 180 deg, beta 0 deg differs"), "{}", err(&bad));
        // Alpha not reaching 180 deg.
        let bad: String = good.lines().take(8).map(|l| format!("{l}\n")).collect();
        assert!(err(&bad).contains("alpha spans -180 .. 0 deg"), "{}", err(&bad));
        // A missing row in the last alpha block.
        let bad: String = good.lines().take(10).map(|l| format!("{l}\n")).collect();
        assert!(err(&bad).starts_with("t.csv:10: alpha 180 deg has 2 rows, the grid has 3 betas"), "{}", err(&bad));
        // Decreasing beta in the first block (line 4 swapped with line 3).
        let mut swapped = lines.clone();
        swapped.swap(2, 3);
        assert!(err(&swapped.join("\n")).starts_with("t.csv:4: column 1 (beta [deg]): beta does not increase"));
    }
}
