//! Time-history plots of recorded results as SVG: one panel per variable, stacked, sharing the
//! time axis, so a run can be looked at rather than read.

use std::path::Path;

use plotters::prelude::*;

use crate::master::Results;

/// Most panels drawn in one figure; further columns are left out (and said in the title).
pub const MAX_PANELS: usize = 12;

/// Writes an SVG with one panel per recorded variable (the first [`MAX_PANELS`]).
pub fn plot_svg(results: &Results, path: &Path, title: &str) -> Result<(), String> {
    let shown = results.names.len().min(MAX_PANELS);
    if shown == 0 || results.time.is_empty() {
        return Err("nothing to plot: no recorded variables or no time points".into());
    }
    let panel_height = 150;
    let root = SVGBackend::new(path, (900, 60 + panel_height * shown as u32)).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let heading = if shown < results.names.len() {
        format!("{title} (first {shown} of {} variables)", results.names.len())
    } else {
        title.to_string()
    };
    let root = root.titled(&heading, ("sans-serif", 20)).map_err(|e| err(&e))?;
    let panels = root.split_evenly((shown, 1));
    let (t0, t1) = (results.time[0], *results.time.last().expect("not empty"));
    let t1 = if t1 > t0 { t1 } else { t0 + 1.0 };
    for (c, panel) in panels.iter().enumerate() {
        let column = results.column(&results.names[c]).expect("recorded");
        let (lo, hi) = column
            .iter()
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        let (lo, hi) = if lo.is_finite() { (lo, hi) } else { (0.0, 1.0) };
        // A flat series gets a visible band around its value.
        let pad = ((hi - lo) * 0.05).max(1e-3 * hi.abs().max(lo.abs()).max(1.0));
        let mut chart = ChartBuilder::on(panel)
            .margin(6)
            .margin_right(24)
            .x_label_area_size(if c + 1 == shown { 30 } else { 16 })
            .y_label_area_size(80)
            .caption(&results.names[c], ("sans-serif", 14))
            .build_cartesian_2d(t0..t1, (lo - pad)..(hi + pad))
            .map_err(|e| err(&e))?;
        let mut mesh = chart.configure_mesh();
        mesh.y_labels(4).x_labels(10);
        if c + 1 == shown {
            mesh.x_desc("time, s");
        }
        mesh.draw().map_err(|e| err(&e))?;
        chart
            .draw_series(LineSeries::new(results.time.iter().copied().zip(column), &Palette99::pick(c)))
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}
