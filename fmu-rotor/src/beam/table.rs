//! The blade-properties table: a CSV file with one header line of `name [unit]` columns and one
//! row per spanwise station, radius increasing.
//!
//! Required columns: `radius` (length), `EA` (force), `EI_flap`, `EI_lag`, `GJ` (force length^2),
//! `mass` (mass per length), `I_flap`, `I_lag` (section mass inertia per length, kg m: `int rho
//! z^2 dA` and `int rho y^2 dA` about the centre of mass). Optional: `GA_flap`, `GA_lag` (force;
//! default `EA`, which makes shear deformation negligible for a slender blade), `twist` (angle,
//! default 0), and the offsets from the reference (pitch) axis in section axes (length, default
//! 0): `y_tension`, `z_tension` (tension centre), `y_shear`, `z_shear` (shear centre / elastic
//! axis), `y_cg`, `z_cg` (centre of mass); `y` towards the leading edge, `z` flap-up.
//! Units: length `m mm cm ft in`, force `N kN lbf`, stiffness `N m^2 kN m^2 lbf in^2 lbf ft^2`,
//! mass per length `kg/m lb/ft slug/ft`, inertia per length `kg m slug ft`, angle `rad deg`
//! (spaces, `*`, `.` and `^` in units are ignored). Lines starting with `#` are comments.
//! Properties between stations are interpolated linearly in radius.

use std::path::Path;

use fmu_core::csv_table::{CsvError, CsvRow, CsvTable, read_text};

use super::model::Beam;
use super::section::{EngineeringSection, SectionProperties};

/// What a column measures; it picks the accepted units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dimension {
    Length,
    Force,
    Stiffness,
    MassPerLength,
    InertiaPerLength,
    Angle,
}

const LBF: f64 = 4.448_221_615_260_5;
const FOOT: f64 = 0.3048;
const INCH: f64 = 0.0254;
const POUND: f64 = 0.453_592_37;
const SLUG: f64 = 14.593_902_937_206_4;

impl Dimension {
    /// Accepted units (normalised spelling) and their factors to SI.
    fn units(self) -> &'static [(&'static str, f64)] {
        match self {
            Self::Length => &[("m", 1.0), ("mm", 1e-3), ("cm", 1e-2), ("ft", FOOT), ("in", INCH)],
            Self::Force => &[("N", 1.0), ("kN", 1e3), ("lbf", LBF)],
            Self::Stiffness => {
                &[("Nm2", 1.0), ("kNm2", 1e3), ("lbfin2", LBF * INCH * INCH), ("lbfft2", LBF * FOOT * FOOT)]
            }
            Self::MassPerLength => &[("kg/m", 1.0), ("lb/ft", POUND / FOOT), ("slug/ft", SLUG / FOOT)],
            Self::InertiaPerLength => &[("kgm", 1.0), ("kgm2/m", 1.0), ("slugft", SLUG * FOOT)],
            Self::Angle => &[("rad", 1.0), ("deg", std::f64::consts::PI / 180.0)],
        }
    }
}

/// A column the table may have: name, dimension, whether required, whether it must be > 0.
struct ColumnSpec {
    name: &'static str,
    dimension: Dimension,
    required: bool,
    positive: bool,
}

const fn column(name: &'static str, dimension: Dimension, required: bool) -> ColumnSpec {
    let positive = !matches!(dimension, Dimension::Length | Dimension::Angle);
    ColumnSpec { name, dimension, required, positive }
}

/// Every known column, in the order of [`Row`]'s values.
const COLUMNS: [ColumnSpec; 17] = [
    column("radius", Dimension::Length, true),
    column("EA", Dimension::Force, true),
    column("EI_flap", Dimension::Stiffness, true),
    column("EI_lag", Dimension::Stiffness, true),
    column("GJ", Dimension::Stiffness, true),
    column("mass", Dimension::MassPerLength, true),
    column("I_flap", Dimension::InertiaPerLength, true),
    column("I_lag", Dimension::InertiaPerLength, true),
    column("GA_flap", Dimension::Force, false),
    column("GA_lag", Dimension::Force, false),
    column("twist", Dimension::Angle, false),
    column("y_tension", Dimension::Length, false),
    column("z_tension", Dimension::Length, false),
    column("y_shear", Dimension::Length, false),
    column("z_shear", Dimension::Length, false),
    column("y_cg", Dimension::Length, false),
    column("z_cg", Dimension::Length, false),
];

/// A bad blade-properties table: where and why (file, line, column; see [`CsvError`]).
pub type BladeTableError = CsvError;

/// One station of the table, in SI units.
#[derive(Clone, Debug, PartialEq)]
pub struct BladeStation {
    /// Radius of the station (m).
    pub radius: f64,
    /// Pretwist (rad, nose up about the pitch axis).
    pub twist: f64,
    /// Section properties.
    pub section: EngineeringSection,
}

/// A blade-properties table (stations in increasing radius).
#[derive(Clone, Debug, PartialEq)]
pub struct BladeTable {
    /// The stations, root to tip (at least two).
    pub stations: Vec<BladeStation>,
}

/// A header column: which known column and its factor to SI.
struct HeaderColumn {
    spec: usize,
    factor: f64,
}

impl BladeTable {
    /// Reads the table at `path`.
    pub fn read(path: &Path) -> Result<Self, BladeTableError> {
        let (text, file) = read_text(path)?;
        Self::parse(&text, &file)
    }

    /// Parses a table's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Self, BladeTableError> {
        let columns = header_columns(&CsvTable::parse_header(text, file)?)?;
        let table = CsvTable::parse(text, file)?;
        let mut stations: Vec<BladeStation> = Vec::new();
        for row in &table.rows {
            let station = station(&table, row, &columns)?;
            if let Some(previous) = stations.last()
                && station.radius <= previous.radius
            {
                let radius_column = columns.iter().position(|c| c.spec == 0);
                let message = format!(
                    "stations out of order: radius {} m is not beyond the previous {} m",
                    station.radius, previous.radius
                );
                return Err(table.error(row.line, radius_column, message));
            }
            stations.push(station);
        }
        if stations.len() < 2 {
            let message = format!("{} station(s): at least two are needed", stations.len());
            return Err(table.error(table.header_line, None, message));
        }
        Ok(Self { stations })
    }

    /// Radius of the first and the last station (m).
    pub fn span(&self) -> (f64, f64) {
        (self.stations[0].radius, self.stations[self.stations.len() - 1].radius)
    }

    /// Twist (rad) and section at `radius` (m), interpolated linearly (clamped at the ends).
    pub fn at(&self, radius: f64) -> (f64, EngineeringSection) {
        let k = self.stations.partition_point(|s| s.radius <= radius).clamp(1, self.stations.len() - 1);
        let (a, b) = (&self.stations[k - 1], &self.stations[k]);
        let t = ((radius - a.radius) / (b.radius - a.radius)).clamp(0.0, 1.0);
        let mix = |x: f64, y: f64| x + t * (y - x);
        let mix2 = |x: [f64; 2], y: [f64; 2]| [mix(x[0], y[0]), mix(x[1], y[1])];
        let (sa, sb) = (&a.section, &b.section);
        let section = EngineeringSection {
            ea: mix(sa.ea, sb.ea),
            ga_lag: mix(sa.ga_lag, sb.ga_lag),
            ga_flap: mix(sa.ga_flap, sb.ga_flap),
            gj: mix(sa.gj, sb.gj),
            ei_flap: mix(sa.ei_flap, sb.ei_flap),
            ei_lag: mix(sa.ei_lag, sb.ei_lag),
            mass_per_length: mix(sa.mass_per_length, sb.mass_per_length),
            inertia_flap: mix(sa.inertia_flap, sb.inertia_flap),
            inertia_lag: mix(sa.inertia_lag, sb.inertia_lag),
            tension_centre: mix2(sa.tension_centre, sb.tension_centre),
            shear_centre: mix2(sa.shear_centre, sb.shear_centre),
            centre_of_mass: mix2(sa.centre_of_mass, sb.centre_of_mass),
        };
        (mix(a.twist, b.twist), section)
    }

    /// A beam along the frame's `x` axis from the first station's radius to the last one's
    /// with `n_elements` equal elements (sections at element middles, twist at the nodes).
    pub fn beam(&self, n_elements: usize) -> Beam {
        let (root, tip) = self.span();
        Beam::straight(
            [root, 0.0, 0.0],
            tip - root,
            n_elements,
            |s| SectionProperties::from_engineering(&self.at(root + s).1),
            |s| self.at(root + s).0,
        )
    }
}

/// The known column and unit factor of each header column, in header order.
fn header_columns(table: &CsvTable) -> Result<Vec<HeaderColumn>, BladeTableError> {
    let mut columns: Vec<HeaderColumn> = Vec::new();
    for (k, column) in table.columns.iter().enumerate() {
        let at = |message: String| table.error(table.header_line, Some(k), message);
        let name = column.name.as_str();
        let Some(spec) = COLUMNS.iter().position(|c| c.name.eq_ignore_ascii_case(name)) else {
            let known: Vec<&str> = COLUMNS.iter().map(|c| c.name).collect();
            return Err(at(format!("unknown column `{name}`; known: {}", known.join(", "))));
        };
        if columns.iter().any(|c| c.spec == spec) {
            return Err(at(format!("column `{name}` appears twice")));
        }
        let factor = table.unit_factor(k, COLUMNS[spec].dimension.units())?;
        columns.push(HeaderColumn { spec, factor });
    }
    if let Some(missing) = COLUMNS.iter().enumerate().find(|(k, c)| c.required && !columns.iter().any(|h| h.spec == *k))
    {
        return Err(table.error(table.header_line, None, format!("missing column `{}`", missing.1.name)));
    }
    Ok(columns)
}

/// One row's station in SI, its values checked for sign.
fn station(table: &CsvTable, row: &CsvRow, columns: &[HeaderColumn]) -> Result<BladeStation, BladeTableError> {
    let mut values: [Option<f64>; COLUMNS.len()] = [None; COLUMNS.len()];
    for (k, (&value, column)) in row.values.iter().zip(columns).enumerate() {
        if COLUMNS[column.spec].positive && value <= 0.0 {
            return Err(table.error(row.line, Some(k), format!("{value} is not positive")));
        }
        values[column.spec] = Some(value * column.factor);
    }
    let get = |k: usize| values[k].unwrap_or(0.0);
    let ea = get(1);
    Ok(BladeStation {
        radius: get(0),
        twist: get(10),
        section: EngineeringSection {
            ea,
            ei_flap: get(2),
            ei_lag: get(3),
            gj: get(4),
            mass_per_length: get(5),
            inertia_flap: get(6),
            inertia_lag: get(7),
            ga_flap: values[8].unwrap_or(ea),
            ga_lag: values[9].unwrap_or(ea),
            tension_centre: [get(11), get(12)],
            shear_centre: [get(13), get(14)],
            centre_of_mass: [get(15), get(16)],
        },
    })
}
