//! The Princeton beam (Dowell and Traybar 1975) as a runnable example: flap and lag tip
//! deflection and tip twist against the load angle for the 1, 2 and 3 lb tip loads, next to the
//! published ANSYS beam-element computation (2 and 3 lb; docs/validation.md, "Princeton beam").
//! The same code path as the test `princeton_beam_tip_deflections_match_the_published_beam_computation`
//! (`fmu_rotor::beam::princeton`).
//!
//! ```sh
//! cargo run --release -p fmu-rotor --example princeton_beam -- [--out DIR] [--elements N]
//! ```
//! prints the table and writes `DIR/princeton_beam.csv` (+ `princeton_beam.units.csv`) and
//! `DIR/princeton_beam.svg` (default `DIR` = `out/princeton`, `N` = 32).

use std::error::Error;
use std::fmt::Write as _;
use std::path::PathBuf;

use fmu_rotor::beam::NewtonSettings;
use fmu_rotor::beam::princeton::{self, ReferencePoint, TipDeflection};
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

/// Step of the load-angle sweep from 0 to 90 deg (deg); the table prints every third angle,
/// those of the published computation (0, 15, ..., 90).
const ANGLE_STEP_DEG: f64 = 5.0;

/// Line colours of the three loads.
const COLOURS: [RGBColor; 3] = [RGBColor(31, 119, 180), RGBColor(214, 39, 40), RGBColor(44, 160, 44)];

/// One row of the output: load, angle, ours and the reference where published.
struct Row {
    load_n: f64,
    beta_deg: f64,
    ours: TipDeflection,
    reference: Option<ReferencePoint>,
}

fn main() -> Result<(), Box<dyn Error>> {
    let (out, elements) = arguments()?;
    let reference = princeton::parse_reference(include_str!("../tests/rotor/beam/data/princeton_ansys_beam.csv"))?;
    let beam = princeton::beam(elements);
    let settings = NewtonSettings { load_steps: 4, ..NewtonSettings::default() };
    let mut rows = Vec::new();
    println!("Princeton beam, {elements} elements; reference: ANSYS beam elements (Obrezkov et al. 2022), 2 and 3 lb");
    println!(
        "{:>7} {:>5} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "P [N]", "beta", "flap [m]", "ref", "lag [m]", "ref", "twist [deg]"
    );
    for load_n in princeton::LOADS_N {
        for beta_deg in (0..=18).map(|k| f64::from(k) * ANGLE_STEP_DEG) {
            let ours = princeton::tip_deflection(&beam, load_n, beta_deg.to_radians(), &settings)?;
            let reference = reference.iter().find(|p| p.load_n == load_n && p.beta_deg == beta_deg).copied();
            let shown = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.6}"));
            if beta_deg % 15.0 == 0.0 {
                println!(
                    "{load_n:>7.3} {beta_deg:>5.0} {:>10.6} {:>10} {:>10.6} {:>10} {:>10.4}",
                    ours.flap_m,
                    shown(reference.map(|p| p.flap_m)),
                    ours.lag_m,
                    shown(reference.map(|p| p.lag_m)),
                    ours.twist_rad.to_degrees()
                );
            }
            rows.push(Row { load_n, beta_deg, ours, reference });
        }
    }
    std::fs::create_dir_all(&out)?;
    write_csv(&out, &rows)?;
    plot(&out.join("princeton_beam.svg"), &rows)?;
    println!("wrote {0}/princeton_beam.csv, .units.csv and {0}/princeton_beam.svg", out.display());
    Ok(())
}

/// `--out DIR` and `--elements N` (1..=400).
fn arguments() -> Result<(PathBuf, usize), Box<dyn Error>> {
    let (mut out, mut elements) = (PathBuf::from("out/princeton"), 32);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--out" => out = PathBuf::from(value()?),
            "--elements" => elements = value()?.parse().map_err(|e| format!("--elements: {e}"))?,
            _ => return Err(format!("unknown argument '{arg}' (--out DIR, --elements N)").into()),
        }
    }
    if !(1..=400).contains(&elements) {
        return Err(format!("--elements {elements}: expected 1..400").into());
    }
    Ok((out, elements))
}

/// `princeton_beam.csv` (empty reference cells where none is published) and its units file.
fn write_csv(out: &std::path::Path, rows: &[Row]) -> Result<(), Box<dyn Error>> {
    let columns = [
        ("load", "N", "tip load (dead)"),
        ("beta", "deg", "load angle from the strong (chordwise) section axis"),
        ("flap", "m", "tip displacement along the thin section axis (flapwise), ours"),
        ("lag", "m", "tip displacement along the wide section axis (chordwise), ours"),
        ("twist", "rad", "tip section rotation about the beam axis, atan2(e2_z, e3_z), ours"),
        ("flap_reference", "m", "flapwise tip displacement, ANSYS beam computation (Obrezkov et al. 2022)"),
        ("lag_reference", "m", "chordwise tip displacement, ANSYS beam computation (Obrezkov et al. 2022)"),
    ];
    let mut csv = columns.iter().map(|c| format!("\"{}\"", c.0)).collect::<Vec<_>>().join(",") + "\n";
    for row in rows {
        let reference =
            row.reference.map_or((String::new(), String::new()), |p| (p.flap_m.to_string(), p.lag_m.to_string()));
        writeln!(
            csv,
            "{},{},{},{},{},{},{}",
            row.load_n, row.beta_deg, row.ours.flap_m, row.ours.lag_m, row.ours.twist_rad, reference.0, reference.1
        )?;
    }
    std::fs::write(out.join("princeton_beam.csv"), csv)?;
    let mut units = String::from("\"name\",\"unit\",\"description\"\n");
    for (name, unit, description) in columns {
        writeln!(units, "\"{name}\",\"{unit}\",\"{description}\"")?;
    }
    std::fs::write(out.join("princeton_beam.units.csv"), units)?;
    Ok(())
}

/// Two panels: flap and lag tip deflection (lines ours, dots the reference) and tip twist,
/// against the load angle, one colour per load.
fn plot(path: &std::path::Path, rows: &[Row]) -> Result<(), Box<dyn Error>> {
    let root = SVGBackend::new(path, (1100, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let (left, right) = root.split_horizontally(620);
    let max_flap = rows.iter().map(|r| r.ours.flap_m).fold(0.0, f64::max);
    let max_twist = rows.iter().map(|r| r.ours.twist_rad.to_degrees().abs()).fold(0.0, f64::max);
    let caption = "Princeton beam: tip deflection (lines ours, dots ANSYS)";
    let mut deflection = panel(&left, caption, max_flap * 1.05, "tip displacement [m]")?;
    let mut twist = panel(&right, "tip twist", max_twist * 1.1, "tip twist [deg]")?;
    for (index, load_n) in princeton::LOADS_N.into_iter().enumerate() {
        let colour = COLOURS[index];
        let case: Vec<&Row> = rows.iter().filter(|r| r.load_n == load_n).collect();
        let line = |value: fn(&Row) -> f64| case.iter().map(move |r| (r.beta_deg, value(r))).collect::<Vec<_>>();
        deflection
            .draw_series(LineSeries::new(line(|r| r.ours.flap_m), colour.stroke_width(2)))?
            .label(format!("flap, {load_n} N"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2)));
        deflection
            .draw_series(LineSeries::new(line(|r| r.ours.lag_m), colour.stroke_width(1)))?
            .label(format!("lag, {load_n} N"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(1)));
        let dots =
            case.iter().filter_map(|r| r.reference).flat_map(|p| [(p.beta_deg, p.flap_m), (p.beta_deg, p.lag_m)]);
        deflection.draw_series(dots.map(|p| Circle::new(p, 4, colour.filled())))?;
        twist
            .draw_series(LineSeries::new(line(|r| r.ours.twist_rad.to_degrees()), colour.stroke_width(2)))?
            .label(format!("{load_n} N"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2)));
    }
    deflection
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE)
        .border_style(BLACK)
        .draw()?;
    twist
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE)
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

/// One chart on `area`: the load angle 0..90 deg against 0..`y_max`, with its caption and axis
/// descriptions drawn.
fn panel<'a>(
    area: &DrawingArea<SVGBackend<'a>, Shift>,
    caption: &str,
    y_max: f64,
    y_desc: &str,
) -> Result<ChartContext<'a, SVGBackend<'a>, Cartesian2d<RangedCoordf64, RangedCoordf64>>, Box<dyn Error>> {
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..90.0, 0.0..y_max)?;
    chart.configure_mesh().x_desc("load angle beta [deg]").y_desc(y_desc).draw()?;
    Ok(chart)
}
