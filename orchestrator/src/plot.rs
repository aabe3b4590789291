//! Time-history plots of recorded results as SVG: one panel per variable sharing the time axis,
//! each titled with its name and unit, so a run can be looked at rather than read.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use nalgebra::Complex;

use cosim::linear::Mode;
use cosim::master::Results;
use cosim::result_files::ColumnInfo;
use cosim::system::name_matches;

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The selection holds nothing to draw.
    #[error("nothing to plot: {0}")]
    Nothing(String),
    /// Drawing or writing the SVG failed.
    #[error("cannot draw {path}: {message}")]
    Draw {
        /// The SVG file.
        path: PathBuf,
        /// What the drawing library reported.
        message: String,
    },
}

/// Line colours that read well on white (the "tab10" set of scientific plotting tools).
pub const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// What to draw.
#[derive(Debug, Clone, Default)]
pub struct PlotOptions {
    /// Figure title (the system's name).
    pub title: String,
    /// Patterns of the variables to draw (as in `outputs`: exact names or one `*`); empty: every
    /// recorded variable.
    pub variables: Vec<String>,
    /// Draw angles (unit `rad`, `rad/s`, `rad/s2`) in degrees.
    pub degrees: bool,
    /// Label of the horizontal axis (default: `time [s]`).
    pub x_label: Option<String>,
}

/// The unit a column is drawn in and the factor from its recorded unit (with `degrees`, angles
/// in `rad`, `rad/s`, `rad/s2` become `deg`, `deg/s`, `deg/s2`).
pub fn display_unit(unit: &str, degrees: bool) -> (String, f64) {
    match unit.strip_prefix("rad") {
        Some(rest) if degrees && (rest.is_empty() || rest.starts_with('/')) => {
            (format!("deg{rest}"), 180.0 / std::f64::consts::PI)
        }
        _ => (unit.to_string(), 1.0),
    }
}

/// Writes an SVG with one panel per selected variable (in recording order), laid out in one
/// column, or two or three when there are many.
pub fn plot_svg(
    results: &Results,
    columns: &[ColumnInfo],
    path: &Path,
    options: &PlotOptions,
) -> Result<(), PlotError> {
    let selected: Vec<usize> = (0..results.names.len())
        .filter(|&c| {
            options.variables.is_empty() || options.variables.iter().any(|p| name_matches(p, &results.names[c]))
        })
        .collect();
    if selected.is_empty() {
        return Err(PlotError::Nothing(if options.variables.is_empty() {
            "no recorded variables".into()
        } else {
            format!("no recorded variable matches {}", options.variables.join(", "))
        }));
    }
    if results.time.is_empty() {
        return Err(PlotError::Nothing("no time points".into()));
    }
    let grid_columns = match selected.len() {
        0..=8 => 1,
        9..=40 => 2,
        _ => 3,
    };
    let grid_rows = selected.len().div_ceil(grid_columns);
    let (panel_width, panel_height) = (900 / grid_columns as u32 + 100 * (grid_columns as u32 - 1), 160);
    let size = (panel_width * grid_columns as u32, 60 + panel_height * grid_rows as u32);
    let err = |e: &dyn std::fmt::Display| PlotError::Draw { path: path.to_path_buf(), message: e.to_string() };
    let root = titled_canvas(path, size, &options.title)?;
    let panels = root.split_evenly((grid_rows, grid_columns));
    let (t0, t1) = (results.time[0], *results.time.last().expect("not empty"));
    let t1 = if t1 > t0 { t1 } else { t0 + 1.0 };
    for (k, (&c, panel)) in selected.iter().zip(&panels).enumerate() {
        let name = &results.names[c];
        let recorded_unit = columns.get(c).map(|i| i.unit.as_str()).unwrap_or("");
        let (unit, factor) = display_unit(recorded_unit, options.degrees);
        let column: Vec<f64> = results.column(name).expect("recorded").into_iter().map(|v| v * factor).collect();
        let (lo, hi) = column
            .iter()
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
        // A flat series gets a visible band around its value.
        let pad = ((hi - lo) * 0.05).max(1e-3 * hi.abs().max(lo.abs()).max(1.0));
        let bottom_row = k + grid_columns >= selected.len();
        let caption = if unit.is_empty() { name.clone() } else { format!("{name} [{unit}]") };
        let mut chart = ChartBuilder::on(panel)
            .margin(6)
            .margin_right(24)
            .x_label_area_size(if bottom_row { 30 } else { 16 })
            .y_label_area_size(80)
            .caption(&caption, ("sans-serif", 14))
            .build_cartesian_2d(t0..t1, (lo - pad)..(hi + pad))
            .map_err(|e| err(&e))?;
        let mut mesh = chart.configure_mesh();
        mesh.y_labels(4).x_labels(8);
        if bottom_row {
            mesh.x_desc(options.x_label.as_deref().unwrap_or("time [s]"));
        }
        mesh.draw().map_err(|e| err(&e))?;
        let colour = COLOURS[k % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(results.time.iter().copied().zip(column), colour.stroke_width(2)))
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}

/// One frequency response: label, frequencies (Hz) and the complex response at each.
pub type ResponseCurve = (String, Vec<f64>, Vec<Complex<f64>>);

/// A Bode diagram: magnitude in dB and phase in degrees against frequency in Hz (logarithmic),
/// one curve per [`ResponseCurve`].
pub fn plot_bode(curves: &[ResponseCurve], path: &Path, title: &str) -> Result<(), PlotError> {
    let err = |e: &dyn std::fmt::Display| PlotError::Draw { path: path.to_path_buf(), message: e.to_string() };
    let f_all = || curves.iter().flat_map(|(_, f, _)| f.iter().copied());
    let (f_lo, f_hi) = f_all().fold((f64::INFINITY, 0.0_f64), |(lo, hi), f| (lo.min(f), hi.max(f)));
    if !(f_lo > 0.0 && f_hi > f_lo) {
        return Err(PlotError::Nothing("no positive frequency range".into()));
    }
    let db = |g: &Complex<f64>| 20.0 * g.norm().log10();
    // Phase unwrapped along each curve, in degrees.
    let phases: Vec<Vec<f64>> = curves
        .iter()
        .map(|(_, _, gs)| {
            let mut out: Vec<f64> = Vec::with_capacity(gs.len());
            for g in gs {
                let mut p = g.arg().to_degrees();
                if let Some(&prev) = out.last() {
                    while p - prev > 180.0 {
                        p -= 360.0;
                    }
                    while p - prev < -180.0 {
                        p += 360.0;
                    }
                }
                out.push(p);
            }
            out
        })
        .collect();
    let root = titled_canvas(path, (1000, 800), title)?;
    let panels = root.split_evenly((2, 1));
    let magnitudes: Vec<Vec<f64>> = curves.iter().map(|(_, _, gs)| gs.iter().map(db).collect()).collect();
    for (k, (panel, (what, values))) in
        panels.iter().zip([("magnitude [dB]", &magnitudes), ("phase [deg]", &phases)]).enumerate()
    {
        let y = padded(values.iter().flatten().copied());
        let mut chart = ChartBuilder::on(panel)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d((f_lo..f_hi).log_scale(), y)
            .map_err(|e| err(&e))?;
        let mut mesh = chart.configure_mesh();
        mesh.y_desc(what);
        if k == 1 {
            mesh.x_desc("frequency [Hz]");
        }
        mesh.draw().map_err(|e| err(&e))?;
        for (c, ((label, f, _), v)) in curves.iter().zip(values.iter()).enumerate() {
            let colour = COLOURS[c % COLOURS.len()];
            chart
                .draw_series(LineSeries::new(f.iter().copied().zip(v.iter().copied()), colour.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label(label.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2)));
        }
        draw_legend(&mut chart, SeriesLabelPosition::LowerLeft).map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}

/// Modes at the points of a sweep: `(swept value, modes)`.
pub type ModesByPoint = [(f64, Vec<Mode>)];

/// Modes drawn: one of each conjugate pair, zero eigenvalues left out.
fn shown(m: &Mode) -> bool {
    m.eigenvalue.im >= 0.0 && m.damping.is_some()
}

/// Points grouped by mode name, the names in first-seen order.
fn group_by_name<'m>(items: impl Iterator<Item = (&'m str, (f64, f64))>) -> Vec<(&'m str, Vec<(f64, f64)>)> {
    let mut groups: Vec<(&str, Vec<(f64, f64)>)> = Vec::new();
    for (name, point) in items {
        match groups.iter_mut().find(|(n, _)| *n == name) {
            Some((_, points)) => points.push(point),
            None => groups.push((name, vec![point])),
        }
    }
    groups
}

/// A chart of two real axes on an SVG drawing.
pub type Plane<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A white SVG drawing of `size` pixels at `path` with `title` on top: the area below the title.
pub fn titled_canvas<'p>(
    path: &'p Path,
    size: (u32, u32),
    title: &str,
) -> Result<DrawingArea<SVGBackend<'p>, Shift>, PlotError> {
    let err = |e: &dyn std::fmt::Display| PlotError::Draw { path: path.to_path_buf(), message: e.to_string() };
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    root.titled(title, ("sans-serif", 20)).map_err(|e| err(&e))
}

/// The legend of the chart's labelled series at `position`, framed on translucent white.
pub fn draw_legend<'a, 'b: 'a, C: CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, C>,
    position: SeriesLabelPosition,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(position)
        .draw()
        .map_err(|e| e.to_string())
}

/// One dot series per group, coloured in order, and their legend at `position`.
fn draw_groups<'a, 'b: 'a>(
    chart: &mut Plane<'a, 'b>,
    groups: &[(&str, Vec<(f64, f64)>)],
    position: SeriesLabelPosition,
) -> Result<(), String> {
    for (k, (name, points)) in groups.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 4, colour.filled())))
            .map_err(|e| e.to_string())?
            .label(*name)
            .legend(move |(x, y)| Circle::new((x + 8, y), 4, colour.filled()));
    }
    draw_legend(chart, position)
}

/// Range of `values` with a margin (a band around a single value); -1..1 when none is finite.
pub fn padded(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) =
        values.filter(|v| v.is_finite()).fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(v), h.max(v)));
    if !lo.is_finite() {
        return -1.0..1.0;
    }
    let pad = ((hi - lo) * 0.05).max(1e-3 * hi.abs().max(lo.abs()).max(1.0));
    (lo - pad)..(hi + pad)
}

/// The eigenvalue map (root locus over a sweep): imaginary against real part of every
/// eigenvalue with `Im >= 0`, coloured by mode name, the stability boundary `Re = 0` drawn.
pub fn plot_eigenvalues(points: &ModesByPoint, path: &Path, title: &str) -> Result<(), PlotError> {
    let err = |e: &dyn std::fmt::Display| PlotError::Draw { path: path.to_path_buf(), message: e.to_string() };
    let all = || points.iter().flat_map(|(_, modes)| modes).filter(|m| shown(m));
    let x = padded(all().map(|m| m.eigenvalue.re).chain([0.0]));
    let y = padded(all().map(|m| m.eigenvalue.im).chain([0.0]));
    let root = SVGBackend::new(path, (1000, 700)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{title}: eigenvalues"), ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(x.clone(), y.clone())
        .map_err(|e| err(&e))?;
    chart.configure_mesh().x_desc("real part [1/s]").y_desc("imaginary part [rad/s]").draw().map_err(|e| err(&e))?;
    chart.draw_series(LineSeries::new([(0.0, y.start), (0.0, y.end)], BLACK.stroke_width(1))).map_err(|e| err(&e))?;
    let groups = group_by_name(all().map(|m| (m.name.as_str(), (m.eigenvalue.re, m.eigenvalue.im))));
    draw_groups(&mut chart, &groups, SeriesLabelPosition::UpperLeft).map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// Frequency (Hz) and damping ratio of every oscillatory mode against the swept parameter
/// `parameter`: the classic ground-resonance chart when the rotor speed is swept. (Real
/// eigenvalues, damping 1, are on the eigenvalue map only.)
pub fn plot_modes_sweep(points: &ModesByPoint, parameter: &str, path: &Path, title: &str) -> Result<(), PlotError> {
    let err = |e: &dyn std::fmt::Display| PlotError::Draw { path: path.to_path_buf(), message: e.to_string() };
    let x = padded(points.iter().map(|(p, _)| *p));
    let all = || {
        points
            .iter()
            .flat_map(|(p, modes)| modes.iter().filter(|m| shown(m) && m.eigenvalue.im > 0.0).map(move |m| (*p, m)))
    };
    let root = titled_canvas(path, (1000, 900), &format!("{title}: modes against {parameter}"))?;
    let panels = root.split_evenly((2, 1));
    for (panel, (what, value)) in panels.iter().zip([
        ("frequency [Hz]", (|m: &Mode| m.frequency_hz) as fn(&Mode) -> f64),
        ("damping ratio", |m: &Mode| m.damping.unwrap_or(0.0)),
    ]) {
        let y = padded(all().map(|(_, m)| value(m)).chain([0.0]));
        let mut chart = ChartBuilder::on(panel)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(x.clone(), y)
            .map_err(|e| err(&e))?;
        chart.configure_mesh().x_desc(parameter).y_desc(what).draw().map_err(|e| err(&e))?;
        chart
            .draw_series(LineSeries::new([(x.start, 0.0), (x.end, 0.0)], BLACK.stroke_width(1)))
            .map_err(|e| err(&e))?;
        let groups = group_by_name(all().map(|(p, m)| (m.name.as_str(), (p, value(m)))));
        draw_groups(&mut chart, &groups, SeriesLabelPosition::UpperRight).map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angles_in_degrees_only_when_asked() {
        assert_eq!(display_unit("rad", true), ("deg".to_string(), 180.0 / std::f64::consts::PI));
        assert_eq!(display_unit("rad/s", true).0, "deg/s");
        assert_eq!(display_unit("rad/s2", true).0, "deg/s2");
        assert_eq!(display_unit("rad", false), ("rad".to_string(), 1.0));
        assert_eq!(display_unit("radius_unit", true), ("radius_unit".to_string(), 1.0));
        assert_eq!(display_unit("m/s", true), ("m/s".to_string(), 1.0));
    }
}
