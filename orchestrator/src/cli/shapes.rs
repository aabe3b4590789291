//! The mode shapes `orchestrator modes` writes for elastic blades: DIR/mode_shapes.csv (a row
//! per mode, blade and station), its units DIR/mode_shapes.units.csv and DIR/mode_shapes.json.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use cosim::linear::Mode;
use rotorcraft::{ModeShape, STATION_COMPONENTS};
use serde_json::{Value, json};

/// How the shapes are scaled, as written beside them.
const NORMALISATION: &str = "each mode's shape scaled by one complex factor so that the largest value of \
    its kind's component (flap u.z, lag u.y, torsion psi.x, axial u.x) over the stations is real and 1; \
    components in the blade's pitch frame (x outboard, y towards the leading edge, z up); blade: the blade \
    number, or the multiblade coordinate (0 collective, nc/ns cyclic, d differential)";

/// The modes and shapes of one point of `orchestrator modes`.
#[derive(Debug, Clone)]
pub struct ShapePoint {
    /// The swept parameters and their values at the point.
    pub values: Vec<(String, f64)>,
    /// The point's modes, in the order of modes.csv.
    pub modes: Vec<Mode>,
    /// The shapes of the lowest oscillatory modes ([`ModeShape::mode`] indexes `modes`).
    pub shapes: Vec<ModeShape>,
}

/// The fixed columns of mode_shapes.csv before the swept parameters' and after them, with units.
const LEADING: [(&str, &str, &str); 1] = [("point", "", "sweep point, from 0 (as in modes.csv)")];
const TRAILING: [(&str, &str, &str); 10] = [
    ("mode", "", "index of the mode among the point's rows of modes.csv, from 0"),
    ("frequency", "Hz", "damped frequency |Im lambda| / 2 pi"),
    ("damping", "", "damping ratio -Re lambda / |lambda|"),
    ("states", "", "the state group that names the mode in modes.csv"),
    ("name", "", "blade mode: rank among the shapes of its kind and multiblade coordinate, kind"),
    ("kind", "", "flap, lag, torsion or axial: the largest share of the shape"),
    ("instance", "", "the rotor instance"),
    ("blade", "", "blade number or multiblade coordinate"),
    ("node", "", "node number from the clamp"),
    ("r", "m", "undeformed radius of the node (its number where the model declares no radius)"),
];

/// Writes the shapes of `points` into `dir`: mode_shapes.csv (+ .units.csv) and
/// mode_shapes.json.
pub fn write_mode_shapes(points: &[ShapePoint], dir: &Path) -> Result<()> {
    let swept: Vec<&str> =
        points.first().map(|p| p.values.iter().map(|(n, _)| n.as_str()).collect()).unwrap_or_default();
    let mut columns: Vec<(String, &str, String)> =
        LEADING.iter().map(|(n, u, d)| (n.to_string(), *u, d.to_string())).collect();
    columns.extend(swept.iter().map(|n| (n.to_string(), "", "swept parameter".to_string())));
    columns.extend(TRAILING.iter().map(|(n, u, d)| (n.to_string(), *u, d.to_string())));
    for (c, component) in STATION_COMPONENTS.iter().enumerate() {
        let unit = if c < 3 { "m" } else { "rad" };
        for part in ["re", "im"] {
            columns.push((format!("{component}.{part}"), unit, format!("{part} part of {component} in the shape")));
        }
    }
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut csv = columns.iter().map(|c| quote(&c.0)).collect::<Vec<_>>().join(",") + "\n";
    let mut units = String::from("\"name\",\"unit\",\"description\"\n");
    for (name, unit, description) in &columns {
        writeln!(units, "{},{},{}", quote(name), quote(unit), quote(description))?;
    }
    for (p, point) in points.iter().enumerate() {
        for shape in &point.shapes {
            let mode = &point.modes[shape.mode];
            let damping = mode.damping.map_or_else(String::new, |z| z.to_string());
            for blade in &shape.blades {
                for (node, radius, q) in &blade.stations {
                    csv += &p.to_string();
                    for (_, value) in &point.values {
                        write!(csv, ",{value}")?;
                    }
                    write!(
                        csv,
                        ",{},{},{damping},{},{},{},{},{},{node},{radius}",
                        shape.mode,
                        mode.frequency_hz,
                        quote(&mode.name),
                        quote(&shape.name),
                        shape.kind.word(),
                        quote(&blade.instance),
                        quote(&blade.blade)
                    )?;
                    for c in q {
                        write!(csv, ",{},{}", c.re, c.im)?;
                    }
                    csv.push('\n');
                }
            }
        }
    }
    let csv_path = dir.join("mode_shapes.csv");
    std::fs::write(&csv_path, csv).with_context(|| format!("cannot write {}", csv_path.display()))?;
    let units_path = cosim::result_files::units_path(&csv_path);
    std::fs::write(&units_path, units).with_context(|| format!("cannot write {}", units_path.display()))?;
    let json_path = dir.join("mode_shapes.json");
    std::fs::write(&json_path, serde_json::to_string_pretty(&shapes_json(points))? + "\n")
        .with_context(|| format!("cannot write {}", json_path.display()))?;
    say!("wrote {}, {} and {}", csv_path.display(), units_path.display(), json_path.display());
    Ok(())
}

/// The shapes of `points` as JSON (mode_shapes.json, `mode_shapes` of `linearize`): how they
/// are scaled, the components, and per point [`point_json`].
pub fn shapes_json(points: &[ShapePoint]) -> Value {
    let points: Vec<Value> = points.iter().enumerate().map(|(p, point)| point_json(p, point)).collect();
    json!({ "normalisation": NORMALISATION, "components": STATION_COMPONENTS, "points": points })
}

/// One point's shapes as JSON: per mode its eigenvalue and names, per blade the stations'
/// node, radius and the real and imaginary parts of the six components.
fn point_json(p: usize, point: &ShapePoint) -> Value {
    let modes: Vec<Value> = point
        .shapes
        .iter()
        .map(|shape| {
            let mode = &point.modes[shape.mode];
            let blades: Vec<Value> = shape
                .blades
                .iter()
                .map(|b| {
                    json!({
                        "instance": b.instance,
                        "blade": b.blade,
                        "node": b.stations.iter().map(|s| s.0).collect::<Vec<_>>(),
                        "r": b.stations.iter().map(|s| s.1).collect::<Vec<_>>(),
                        "re": b.stations.iter().map(|s| s.2.map(|c| c.re)).collect::<Vec<_>>(),
                        "im": b.stations.iter().map(|s| s.2.map(|c| c.im)).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({
                "mode": shape.mode,
                "re": mode.eigenvalue.re,
                "im": mode.eigenvalue.im,
                "frequency_hz": mode.frequency_hz,
                "damping": mode.damping,
                "states": mode.name,
                "name": shape.name,
                "kind": shape.kind.word(),
                "coordinate": shape.coordinate,
                "blades": blades,
            })
        })
        .collect();
    let values: serde_json::Map<String, Value> = point.values.iter().map(|(n, v)| (n.clone(), json!(v))).collect();
    json!({ "point": p, "values": values, "modes": modes })
}
