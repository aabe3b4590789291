//! What the columns of `sweep.csv` are: their units (written to `sweep.units.csv`) and which
//! are physical results (plotted in `sweep.svg`) or solver diagnostics (`sweep-diagnostics.svg`).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;

/// The group-name suffixes of the trim summary that give the unit of their members, with that
/// unit (`controls_rad` → rad, `body_velocity_m_per_s` → m/s).
const UNIT_SUFFIXES: [(&str, &str); 3] = [("_rad_per_s", "rad/s"), ("_m_per_s", "m/s"), ("_rad", "rad")];

/// `group` without its unit suffix, and the unit; `None` when it has none.
pub(super) fn unit_suffix(group: &str) -> Option<(&str, &'static str)> {
    UNIT_SUFFIXES.iter().find_map(|(suffix, unit)| group.strip_suffix(suffix).map(|bare| (bare, *unit)))
}

/// The unit of a figure of a run or trim summary, from the unit suffix of its group or its own
/// name (`condition.speed_m_per_s`), or a duration in seconds; empty when unknown.
fn summary_unit(name: &str) -> &'static str {
    let first = name.split('.').next().unwrap_or(name);
    let last = name.rsplit('.').next().unwrap_or(name);
    if last.ends_with("seconds") {
        return "s";
    }
    unit_suffix(first).or_else(|| unit_suffix(last)).map_or("", |(_, unit)| unit)
}

/// Whether a `sweep.csv` figure is a physical result (drawn in `sweep.svg`): a statistic of a
/// recorded output, or a trim result in a group with a unit (controls, attitude, body velocity
/// and rates; not the trim condition, which the sweep sets). Everything else (iterations,
/// residuals, steps, wall time) is a solver diagnostic.
pub(super) fn is_physics(name: &str, statistics: &[String]) -> bool {
    let statistic = name.rsplit_once('.').is_some_and(|(base, _)| statistics.iter().any(|s| s == base));
    let group = name.split_once('.').map(|(g, _)| g);
    statistic || group.is_some_and(|g| g != "condition" && unit_suffix(g).is_some())
}

/// Units of the sweep options that are not variables of the system.
const OPTION_UNITS: [(&str, &str); 5] =
    [("speed", "m/s"), ("turn_rate", "deg/s"), ("start", "s"), ("stop", "s"), ("step", "s")];

/// The unit of every column of `sweep.csv`: swept variables from the system's model
/// descriptions (or the option's unit), statistics from the recorded outputs' units in
/// `units_csv` (a point's `results.units.csv`), summary figures from their names.
pub(super) fn units(
    system: &Path,
    variables: &[String],
    figures: &[String],
    statistics: &[String],
    units_csv: Option<&Path>,
) -> BTreeMap<String, String> {
    let mut units = BTreeMap::new();
    let parameters = parameter_units(system, variables).unwrap_or_else(|e| {
        eprintln!("warning: the units of the swept variables are unknown: {e:#}");
        BTreeMap::new()
    });
    for name in variables {
        let option = OPTION_UNITS.iter().find(|(n, _)| n == name).map(|(_, u)| u.to_string());
        units.insert(name.clone(), option.or_else(|| parameters.get(name).cloned()).unwrap_or_default());
    }
    let recorded = units_csv.map(recorded_units).unwrap_or_default();
    for name in figures {
        let base = name.rsplit_once('.').map_or("", |(b, _)| b);
        let unit = match statistics.iter().any(|s| s == base) {
            true => recorded.get(base).cloned().unwrap_or_default(),
            false => summary_unit(name).to_string(),
        };
        units.insert(name.clone(), unit);
    }
    units
}

/// Units of the `INSTANCE.VARIABLE` names among `variables`, from the system's FMUs.
fn parameter_units(system: &Path, variables: &[String]) -> Result<BTreeMap<String, String>> {
    let description = rotorcraft::read_system(system, &fmu_catalog::context())?;
    let mut fmus = crate::cli::options::fmu_cache(None);
    let system = description.resolve(|path| fmus.description(path))?;
    Ok(variables
        .iter()
        .filter_map(|name| {
            let unit = system.var_ref(name).and_then(|r| system.variable(r).unit.clone());
            Some((name.clone(), unit?))
        })
        .collect())
}

/// `name` → `unit` from a units CSV (`"name","unit","description"`, as `run` writes it).
fn recorded_units(path: &Path) -> BTreeMap<String, String> {
    let Ok(text) = std::fs::read_to_string(path) else { return BTreeMap::new() };
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let cells: Vec<&str> = line.split("\",\"").map(|c| c.trim_matches('"')).collect();
            Some((cells.first()?.to_string(), cells.get(1)?.to_string()))
        })
        .collect()
}

/// Writes `sweep.units.csv`: `"name","unit"` for each column of `sweep.csv` in its order.
pub(super) fn write_units_csv(path: &Path, header: &[String], units: &BTreeMap<String, String>) -> Result<()> {
    let mut text = String::from("\"name\",\"unit\"\n");
    for name in header {
        text += &format!("\"{name}\",\"{}\"\n", units.get(name).map_or("", String::as_str));
    }
    std::fs::write(path, text)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_figures_have_units_and_kinds() {
        assert_eq!(summary_unit("controls_rad.controls.collective"), "rad");
        assert_eq!(summary_unit("body_velocity_m_per_s.u"), "m/s");
        assert_eq!(summary_unit("body_rates_rad_per_s.q"), "rad/s");
        assert_eq!(summary_unit("condition.speed_m_per_s"), "m/s");
        assert_eq!(summary_unit("condition.turn_rate_rad_per_s"), "rad/s");
        assert_eq!(summary_unit("wall_seconds"), "s");
        assert_eq!(summary_unit("iterations"), "");
        let stats = ["fuselage.phi".to_string()];
        assert!(is_physics("attitude_rad.theta", &stats));
        assert!(is_physics("fuselage.phi.max", &stats));
        assert!(!is_physics("condition.speed_m_per_s", &stats));
        assert!(!is_physics("residual.free.u_dot", &stats));
        assert!(!is_physics("newton_iterations.mean", &stats));
        assert!(!is_physics("iterations", &stats));
    }
}
