//! The sweep's plots: every physical result against the swept variable in display units (angles
//! in degrees), one line per condition (combination of the other swept values, in numeric
//! order) in `sweep.svg`; solver diagnostics apart in `sweep-diagnostics.svg`; for a sweep over
//! two variables a filled contour map of each result in `sweep-map.svg`.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Result, anyhow};
use orchestrator::plot::{COLOURS, Plane, display_unit, draw_legend, padded, titled_canvas};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One row of `sweep.csv`: its cells by column name.
pub(super) type Row = BTreeMap<String, String>;

/// What the plots are drawn from.
pub(super) struct Layout<'a> {
    /// Every point's row (only the rows with status `ok` are drawn).
    pub rows: &'a [Row],
    /// The swept variables, in the order of the points.
    pub variables: &'a [String],
    /// The grid's variables and how many values each takes.
    pub grid: &'a [(String, usize)],
    /// The variable the sweep file names for the horizontal axis.
    pub x: Option<&'a str>,
    /// The unit of each column of `sweep.csv` (as recorded: SI, angles in rad).
    pub units: &'a BTreeMap<String, String>,
}

impl Layout<'_> {
    fn value(row: &Row, name: &str) -> f64 {
        row.get(name).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
    }

    /// The number of distinct values `name` takes over all points.
    fn distinct(&self, name: &str) -> usize {
        let mut values: Vec<f64> = self.rows.iter().map(|r| Self::value(r, name)).collect();
        values.sort_by(f64::total_cmp);
        values.dedup();
        values.len()
    }

    /// The horizontal axis: the variable the sweep file names, else the varying grid variable
    /// with the most values, else the varying variable with the most distinct values (ties: the
    /// first in name order).
    fn x_variable(&self, varying: &[String]) -> Option<String> {
        if let Some(x) = self.x {
            return Some(x.to_string());
        }
        fn most<'n>(names: impl Iterator<Item = (&'n String, usize)>) -> Option<&'n String> {
            let mut best: Option<(&String, usize)> = None;
            for (name, count) in names {
                if best.is_none_or(|(_, b)| count > b) {
                    best = Some((name, count));
                }
            }
            best.map(|(name, _)| name)
        }
        let grid = self.grid.iter().filter(|(n, _)| varying.contains(n)).map(|(n, c)| (n, *c));
        most(grid).or_else(|| most(varying.iter().map(|n| (n, self.distinct(n))))).cloned()
    }

    /// `name` as drawn: its label with the display unit, and the factor from the recorded unit.
    fn axis(&self, name: &str) -> (String, f64) {
        let (unit, factor) = display_unit(self.units.get(name).map_or("", String::as_str), true);
        let label = short_name(name);
        (if unit.is_empty() { label } else { format!("{label} [{unit}]") }, factor)
    }
}

/// `controls_rad.controls.collective` → `controls.collective`, `attitude_rad.theta` →
/// `attitude.theta`: the unit suffix of a summary group dropped (the unit goes in brackets).
fn short_name(name: &str) -> String {
    let Some((group, rest)) = name.split_once('.') else { return name.to_string() };
    let Some(bare) = super::columns::unit_suffix(group).map(|(bare, _)| bare) else { return name.to_string() };
    if rest.starts_with(&format!("{bare}.")) { rest.to_string() } else { format!("{bare}.{rest}") }
}

/// A number as a short label (6 significant digits, no trailing zeros).
fn short_number(v: f64) -> String {
    let text = format!("{v:.*}", (5 - v.abs().log10().floor().clamp(-10.0, 5.0) as i32).max(0) as usize);
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text }
}

/// Draws `sweep.svg` (the `physics` columns), `sweep-diagnostics.svg` (the `diagnostics`) and,
/// for two swept variables, `sweep-map.svg`; says what it drew and why it drew nothing.
pub(super) fn draw(dir: &Path, layout: &Layout, physics: &[String], diagnostics: &[String]) -> Result<()> {
    let varying: Vec<String> = layout.variables.iter().filter(|v| layout.distinct(v) > 1).cloned().collect();
    let Some(x) = layout.x_variable(&varying) else {
        println!("sweep: no plot: no swept variable changes between the points");
        return Ok(());
    };
    let others: Vec<String> = varying.iter().filter(|v| **v != x).cloned().collect();
    let ok: Vec<&Row> = layout.rows.iter().filter(|r| r.get("status").is_some_and(|s| s == "ok")).collect();
    let groups = conditions(layout, &ok, &others);
    let lines = groups.len() <= COLOURS.len() && groups.iter().any(|(_, members)| members.len() >= 2);
    if !lines && !others.is_empty() {
        println!("sweep: the points do not form lines of {x} at a few values of {}: drawn as dots", others.join(", "));
    }
    let groups = if lines { groups } else { vec![(String::new(), ok.clone())] };
    let title =
        if others.is_empty() { format!("sweep over {x}") } else { format!("sweep over {x}, {}", others.join(", ")) };
    let mut drawn = Vec::new();
    for (file, figures) in [("sweep.svg", physics), ("sweep-diagnostics.svg", diagnostics)] {
        if !figures.is_empty() && !ok.is_empty() {
            chart(&dir.join(file), &title, layout, &x, figures, &groups, lines)?;
            drawn.push(file);
        }
    }
    let on_grid = |name: &str| layout.grid.iter().any(|(n, _)| n == name);
    if let [y] = others.as_slice()
        && on_grid(&x)
        && on_grid(y)
        && !physics.is_empty()
        && map(&dir.join("sweep-map.svg"), &title, layout, (&x, y), physics, &ok)?
    {
        drawn.push("sweep-map.svg");
    }
    if drawn.is_empty() {
        println!("sweep: no plot: no point has finished with results to draw");
    } else {
        println!("sweep: {} against {x}", drawn.join(", "));
    }
    Ok(())
}

/// The finished rows grouped by the values of `others`, in numeric order, each group with its
/// legend label (`name = value unit`, display units).
fn conditions<'r>(layout: &Layout, ok: &[&'r Row], others: &[String]) -> Vec<(String, Vec<&'r Row>)> {
    let mut groups: Vec<(Vec<f64>, Vec<&Row>)> = Vec::new();
    for row in ok {
        let key: Vec<f64> = others.iter().map(|o| Layout::value(row, o)).collect();
        match groups.iter_mut().find(|(k, _)| k.iter().zip(&key).all(|(a, b)| a.total_cmp(b).is_eq())) {
            Some((_, members)) => members.push(row),
            None => groups.push((key, vec![row])),
        }
    }
    groups.sort_by(|(a, _), (b, _)| {
        a.iter().zip(b).map(|(x, y)| x.total_cmp(y)).find(|o| o.is_ne()).unwrap_or(std::cmp::Ordering::Equal)
    });
    groups
        .into_iter()
        .map(|(key, members)| {
            let label = others
                .iter()
                .zip(&key)
                .map(|(o, v)| {
                    let (unit, factor) = display_unit(layout.units.get(o).map_or("", String::as_str), true);
                    format!("{} = {} {unit}", short_name(o), short_number(v * factor)).trim_end().to_string()
                })
                .collect::<Vec<_>>()
                .join(", ");
            (label, members)
        })
        .collect()
}

/// The chart of one panel: `caption` on top, real axes over `x` and `y`.
fn panel_chart<'a, 'b>(
    panel: &'a DrawingArea<SVGBackend<'b>, Shift>,
    caption: &str,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
) -> Result<Plane<'a, 'b>, DrawingAreaErrorKind<std::io::Error>> {
    ChartBuilder::on(panel)
        .margin(8)
        .margin_right(24)
        .x_label_area_size(36)
        .y_label_area_size(80)
        .caption(caption, ("sans-serif", 14))
        .build_cartesian_2d(x, y)
}

/// One panel per figure against `x`: a line with dots per group (`lines`), or dots only.
fn chart(
    path: &Path,
    title: &str,
    layout: &Layout,
    x: &str,
    figures: &[String],
    groups: &[(String, Vec<&Row>)],
    lines: bool,
) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| anyhow!("cannot draw {}: {e}", path.display());
    let columns = if figures.len() <= 6 { 1 } else { 2 };
    let rows = figures.len().div_ceil(columns);
    let root = titled_canvas(path, (900 * columns as u32, 60 + 220 * rows as u32), title)?;
    let (x_label, x_factor) = layout.axis(x);
    let all = || groups.iter().flat_map(|(_, m)| m.iter());
    let x_range = padded(all().map(|r| Layout::value(r, x) * x_factor));
    for (k, (figure, panel)) in figures.iter().zip(root.split_evenly((rows, columns))).enumerate() {
        let (caption, factor) = layout.axis(figure);
        let y_range = padded(all().map(|r| Layout::value(r, figure) * factor));
        let mut chart = panel_chart(&panel, &caption, x_range.clone(), y_range).map_err(|e| err(&e))?;
        chart.configure_mesh().y_labels(5).x_labels(8).x_desc(&x_label).draw().map_err(|e| err(&e))?;
        for (g, (label, members)) in groups.iter().enumerate() {
            let colour = COLOURS[g % COLOURS.len()];
            let mut points: Vec<(f64, f64)> =
                members.iter().map(|r| (Layout::value(r, x) * x_factor, Layout::value(r, figure) * factor)).collect();
            points.retain(|(a, b)| a.is_finite() && b.is_finite());
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            if lines {
                chart
                    .draw_series(LineSeries::new(points.iter().copied(), colour.stroke_width(2)))
                    .map_err(|e| err(&e))?;
            }
            let series =
                chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled()))).map_err(|e| err(&e))?;
            if k == 0 && !label.is_empty() {
                series.label(label.as_str()).legend(move |(a, b)| Circle::new((a + 8, b), 4, colour.filled()));
            }
        }
        if k == 0 && groups.iter().any(|(l, _)| !l.is_empty()) {
            draw_legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(|e| err(&e))?;
        }
    }
    root.present().map_err(|e| err(&e))
}

/// Number of colour bands of the contour map.
const BANDS: usize = 10;

/// The colour of `t` in [0, 1] on the viridis scale (dark blue to yellow).
fn viridis(t: f64) -> RGBColor {
    const ANCHORS: [(f64, f64, f64); 5] =
        [(68.0, 1.0, 84.0), (59.0, 82.0, 139.0), (33.0, 145.0, 140.0), (94.0, 201.0, 98.0), (253.0, 231.0, 37.0)];
    let s = t.clamp(0.0, 1.0) * (ANCHORS.len() - 1) as f64;
    let k = (s.floor() as usize).min(ANCHORS.len() - 2);
    let f = s - k as f64;
    let (a, b) = (ANCHORS[k], ANCHORS[k + 1]);
    let mix = |p: f64, q: f64| (p + (q - p) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The distinct finite values of `name` over `rows`, sorted.
fn grid_values(rows: &[&Row], name: &str) -> Vec<f64> {
    let mut values: Vec<f64> = rows.iter().map(|r| Layout::value(r, name)).filter(|v| v.is_finite()).collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    values
}

/// `sweep-map.svg`: each figure as filled contours (10 colour bands of the bilinear interpolant)
/// over the (x, y) grid of the finished points, the points marked. False (nothing drawn) when
/// those points are not a complete grid of at least 2 x 2.
fn map(
    path: &Path,
    title: &str,
    layout: &Layout,
    (x, y): (&str, &str),
    figures: &[String],
    ok: &[&Row],
) -> Result<bool> {
    let (xs, ys) = (grid_values(ok, x), grid_values(ok, y));
    let at = |i: usize, j: usize| ok.iter().find(|r| Layout::value(r, x) == xs[i] && Layout::value(r, y) == ys[j]);
    if xs.len() < 2 || ys.len() < 2 || (0..xs.len()).any(|i| (0..ys.len()).any(|j| at(i, j).is_none())) {
        println!("sweep: no contour map: the finished points are not a complete grid of {x} and {y}");
        return Ok(false);
    }
    let err = |e: &dyn std::fmt::Display| anyhow!("cannot draw {}: {e}", path.display());
    let columns = if figures.len() <= 2 { 1 } else { 2 };
    let rows = figures.len().div_ceil(columns);
    let root = titled_canvas(path, (700 * columns as u32, 60 + 420 * rows as u32), title)?;
    let ((x_label, fx), (y_label, fy)) = (layout.axis(x), layout.axis(y));
    for (figure, panel) in figures.iter().zip(root.split_evenly((rows, columns))) {
        let (caption, fz) = layout.axis(figure);
        let z: Vec<Vec<f64>> = (0..xs.len())
            .map(|i| (0..ys.len()).map(|j| at(i, j).map_or(f64::NAN, |r| Layout::value(r, figure) * fz)).collect())
            .collect();
        let (lo, hi) = z
            .iter()
            .flatten()
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
        let caption = format!("{caption}: {} (dark) to {} (yellow)", short_number(lo), short_number(hi));
        let (x_range, y_range) = (xs[0] * fx..xs[xs.len() - 1] * fx, ys[0] * fy..ys[ys.len() - 1] * fy);
        let mut chart = panel_chart(&panel, &caption, x_range, y_range).map_err(|e| err(&e))?;
        chart.configure_mesh().disable_mesh().x_desc(&x_label).y_desc(&y_label).draw().map_err(|e| err(&e))?;
        let band =
            |v: f64| if hi > lo { ((v - lo) / (hi - lo) * BANDS as f64).floor().min(BANDS as f64 - 1.0) } else { 0.0 };
        let strips = band_strips(contour_cells(&xs, &ys, &z), band);
        chart
            .draw_series(strips.into_iter().map(|((x0, y0), (x1, y1), b)| {
                let colour = viridis(b / (BANDS - 1) as f64);
                Rectangle::new([(x0 * fx, y0 * fy), (x1 * fx, y1 * fy)], colour.filled())
            }))
            .map_err(|e| err(&e))?;
        let marks = ok.iter().map(|r| (Layout::value(r, x) * fx, Layout::value(r, y) * fy));
        chart.draw_series(marks.map(|p| Circle::new(p, 2, BLACK.filled()))).map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(true)
}

/// One rectangle of the contour raster: two opposite corners and its value.
type Cell = ((f64, f64), (f64, f64), f64);

/// The raster `cells` as colour bands: each cell's value replaced by `band(value)`, and cells
/// that follow one another up a column in the same band joined into one rectangle (a few times
/// fewer SVG elements); cells without a value are left out.
fn band_strips(cells: Vec<Cell>, band: impl Fn(f64) -> f64) -> Vec<Cell> {
    let mut strips: Vec<Cell> = Vec::new();
    for ((x0, y0), (x1, y1), v) in cells.into_iter().filter(|c| c.2.is_finite()) {
        let b = band(v);
        match strips.last_mut() {
            Some(((px0, _), (px1, py1), pb)) if *px0 == x0 && *px1 == x1 && *py1 == y0 && *pb == b => *py1 = y1,
            _ => strips.push(((x0, y0), (x1, y1), b)),
        }
    }
    strips
}

/// Sub-cells per grid cell and direction of the contour raster.
const RASTER: usize = 12;

/// The contour raster: each grid cell split into RASTER x RASTER rectangles (corners in recorded
/// units) with the bilinear interpolant of `z` (display units) at their centres.
fn contour_cells(xs: &[f64], ys: &[f64], z: &[Vec<f64>]) -> Vec<Cell> {
    let mut cells = Vec::new();
    for i in 0..xs.len() - 1 {
        for j in 0..ys.len() - 1 {
            for a in 0..RASTER {
                for b in 0..RASTER {
                    let (s0, s1) = (a as f64 / RASTER as f64, (a + 1) as f64 / RASTER as f64);
                    let (t0, t1) = (b as f64 / RASTER as f64, (b + 1) as f64 / RASTER as f64);
                    let (s, t) = ((s0 + s1) / 2.0, (t0 + t1) / 2.0);
                    let v = (1.0 - s) * (1.0 - t) * z[i][j]
                        + s * (1.0 - t) * z[i + 1][j]
                        + (1.0 - s) * t * z[i][j + 1]
                        + s * t * z[i + 1][j + 1];
                    let x = |f: f64| xs[i] + (xs[i + 1] - xs[i]) * f;
                    let y = |f: f64| ys[j] + (ys[j + 1] - ys[j]) * f;
                    cells.push(((x(s0), y(t0)), (x(s1), y(t1)), v));
                }
            }
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cells: &[(&str, &str)]) -> Row {
        cells.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    /// The lag-damper grid (5 damper values, 2 cyclic values) is drawn against the damper, the
    /// variable with the most values, not the alphabetically first; a named x wins.
    #[test]
    fn x_axis_is_the_grid_variable_with_most_values() {
        let rows: Vec<Row> = [500, 1000, 2000, 4000, 8000]
            .iter()
            .flat_map(|c| {
                ["-0.004635", "0.005365"].map(|l| row(&[("rotor.c_lag", &c.to_string()), ("controls.lat_cyclic", l)]))
            })
            .collect();
        let variables = ["controls.lat_cyclic".to_string(), "rotor.c_lag".to_string()];
        let grid = [("controls.lat_cyclic".to_string(), 2), ("rotor.c_lag".to_string(), 5)];
        let units = BTreeMap::new();
        let layout = Layout { rows: &rows, variables: &variables, grid: &grid, x: None, units: &units };
        assert_eq!(layout.x_variable(&variables).as_deref(), Some("rotor.c_lag"));
        let named = Layout { x: Some("controls.lat_cyclic"), ..layout };
        assert_eq!(named.x_variable(&variables).as_deref(), Some("controls.lat_cyclic"));
    }

    /// Conditions come in numeric order (-10 before -2 before 3 before 10; text order would put
    /// "-10" < "-2" < "10" < "3"), labelled in degrees.
    #[test]
    fn conditions_are_in_numeric_order_and_display_units() {
        let rows: Vec<Row> = ["10", "-2", "3", "-10"]
            .iter()
            .flat_map(|c| ["0", "1"].map(|s| row(&[("status", "ok"), ("speed", s), ("a.angle", c)])))
            .map(|mut r| {
                let rad = r["a.angle"].parse::<f64>().unwrap().to_radians();
                r.insert("a.angle".into(), rad.to_string());
                r
            })
            .collect();
        let units: BTreeMap<String, String> = [("a.angle".to_string(), "rad".to_string())].into();
        let layout = Layout { rows: &rows, variables: &[], grid: &[], x: None, units: &units };
        let ok: Vec<&Row> = rows.iter().collect();
        let labels: Vec<String> = conditions(&layout, &ok, &["a.angle".to_string()]).into_iter().map(|g| g.0).collect();
        assert_eq!(labels, ["a.angle = -10 deg", "a.angle = -2 deg", "a.angle = 3 deg", "a.angle = 10 deg"]);
    }

    /// The bilinear interpolant reproduces a bilinear function z = 1 + 2x + 3y + 4xy exactly.
    #[test]
    fn contour_raster_interpolates_bilinearly() {
        let (xs, ys) = (vec![0.0, 1.0, 3.0], vec![-1.0, 2.0]);
        let f = |x: f64, y: f64| 1.0 + 2.0 * x + 3.0 * y + 4.0 * x * y;
        let z: Vec<Vec<f64>> = xs.iter().map(|&x| ys.iter().map(|&y| f(x, y)).collect()).collect();
        let cells = contour_cells(&xs, &ys, &z);
        assert_eq!(cells.len(), 2 * RASTER * RASTER);
        for ((x0, y0), (x1, y1), v) in cells {
            assert!((v - f((x0 + x1) / 2.0, (y0 + y1) / 2.0)).abs() < 1e-12);
        }
    }

    /// A field that depends on x only gives one strip per raster column of a grid cell; the
    /// strips cover the grid cells exactly.
    #[test]
    fn bands_join_up_columns() {
        let (xs, ys) = (vec![0.0, 1.0], vec![0.0, 1.0, 2.0]);
        let z = vec![vec![0.0; 3], vec![1.0; 3]];
        let strips = band_strips(contour_cells(&xs, &ys, &z), |v| (v * 10.0).floor());
        assert_eq!(strips.len(), 2 * RASTER);
        let area: f64 = strips.iter().map(|((x0, y0), (x1, y1), _)| (x1 - x0) * (y1 - y0)).sum();
        assert!((area - 2.0).abs() < 1e-12);
    }

    #[test]
    fn short_names_drop_the_unit_suffix() {
        assert_eq!(short_name("controls_rad.controls.collective"), "controls.collective");
        assert_eq!(short_name("attitude_rad.theta"), "attitude.theta");
        assert_eq!(short_name("body_rates_rad_per_s.p"), "body_rates.p");
        assert_eq!(short_name("fuselage.phi.max"), "fuselage.phi.max");
        assert_eq!(short_number(-0.26556_f64), "-0.26556");
        assert_eq!(short_number(8000.0), "8000");
    }
}
