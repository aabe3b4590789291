//! Reading and checking parameter values in [`Model::configure`]: the checks every model makes,
//! in one place, with a typed error.
//!
//! A model reads its parameters through a [`Reader`] over its declared parameter table
//! ([`declare!`](crate::declare!)): each value is checked against its declaration (finite, the
//! declared range, the `min` and `max` of the model description, with the bounds
//! [`Row::above`](crate::declare::Row::above) and [`Row::below`](crate::declare::Row::below)
//! exclude; an integer's `min..=max` and enumeration) and an error names the parameter and its
//! unit as declared. Checks across several parameters stay in the model as
//! [`ParameterError::Invalid`].
//!
//! [`Model::configure`]: crate::model::Model::configure

use std::path::{Path, PathBuf};

use crate::declare::{Found, Group, find};
use crate::model::Parameters;
use crate::variable::Kind;

/// Why a model refuses its parameter values; reported to the importer as
/// `invalid parameters: <message>`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParameterError {
    /// Not a finite number.
    #[error("parameter '{name}' must be finite (got {value})")]
    NotFinite {
        /// The parameter's name.
        name: String,
        /// Its value.
        value: f64,
    },
    /// Outside its range.
    #[error("parameter '{name}' must be {range} (got {value})")]
    OutOfRange {
        /// The parameter's name.
        name: String,
        /// The allowed range with its unit, e.g. `> 0 m` or `in 1..=8`.
        range: String,
        /// Its value.
        value: f64,
    },
    /// Refused for another reason (a combination of parameters, a geometry), said in words.
    #[error("{0}")]
    Invalid(String),
}

impl From<String> for ParameterError {
    fn from(message: String) -> Self {
        ParameterError::Invalid(message)
    }
}

impl From<&str> for ParameterError {
    fn from(message: &str) -> Self {
        ParameterError::Invalid(message.to_string())
    }
}

/// The declared bounds of a Real parameter ([`Row::range`](crate::declare::Row::range)), each end
/// `(value, exclusive)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Lower bound and whether it is excluded.
    pub min: Option<(f64, bool)>,
    /// Upper bound and whether it is excluded.
    pub max: Option<(f64, bool)>,
}

impl Bounds {
    /// No bound: any finite value.
    pub const NONE: Bounds = Bounds { min: None, max: None };

    /// The bound values, whether excluded or not: the `min` and `max` of a model description.
    pub fn values(&self) -> (Option<f64>, Option<f64>) {
        (self.min.map(|(min, _)| min), self.max.map(|(max, _)| max))
    }

    /// Whether `value` lies within the bounds.
    pub fn contains(&self, value: f64) -> bool {
        let above_min = self.min.is_none_or(|(min, exclusive)| if exclusive { value > min } else { value >= min });
        let below_max = self.max.is_none_or(|(max, exclusive)| if exclusive { value < max } else { value <= max });
        above_min && below_max
    }

    /// The bounds in words for a message, with the unit: `> 0 kg`, `>= 0`, `in (0, 1)`.
    fn describe(&self, unit: &str) -> String {
        let range = match (self.min, self.max) {
            (Some((min, exclusive)), None) => format!("{} {min}", if exclusive { ">" } else { ">=" }),
            (None, Some((max, exclusive))) => format!("{} {max}", if exclusive { "<" } else { "<=" }),
            (Some((min, min_excl)), Some((max, max_excl))) => {
                format!("in {}{min}, {max}{}", if min_excl { '(' } else { '[' }, if max_excl { ')' } else { ']' })
            }
            (None, None) => "finite".into(),
        };
        if unit.is_empty() { range } else { format!("{range} {unit}") }
    }
}

/// `value` of the parameter declared as `found` if it is finite and within `bounds`.
fn check(value: f64, bounds: Bounds, found: &Found) -> Result<f64, ParameterError> {
    if !value.is_finite() {
        Err(ParameterError::NotFinite { name: found.name(), value })
    } else if !bounds.contains(value) {
        Err(ParameterError::OutOfRange { name: found.name(), range: bounds.describe(found.row.unit()), value })
    } else {
        Ok(value)
    }
}

/// Reads a model's parameters as its parameter table declares them: each value checked
/// (finite, within the declared range) and an error naming the parameter by its declared name
/// and unit.
///
/// ```
/// mod vr {
///     fmu_core::declare! { u32;
///         MASS = real("mass", "kg", "Mass, kg (> 0)").start(2.0).positive();
///         NB = integer("nb", 2, 1, 8, "Number of blades");
///     }
/// }
/// struct Values;
/// impl fmu_core::Parameters for Values {
///     fn real(&self, _: u32) -> f64 { 0.0 }
///     fn integer(&self, _: u32) -> i32 { 9 }
///     fn boolean(&self, _: u32) -> bool { false }
/// }
/// let p = fmu_core::params::Reader::new(&Values, vr::TABLE);
/// assert_eq!(p.real(vr::MASS).unwrap_err().to_string(), "parameter 'mass' must be > 0 kg (got 0)");
/// assert_eq!(p.integer(vr::NB).unwrap_err().to_string(), "parameter 'nb' must be in 1..=8 (got 9)");
/// ```
#[derive(Clone, Copy)]
pub struct Reader<'a> {
    params: &'a dyn Parameters,
    table: &'static [Group],
}

impl<'a> Reader<'a> {
    /// A reader of `params`, whose value references are positions of `table` (a model's
    /// `vr::TABLE`).
    pub fn new(params: &'a dyn Parameters, table: &'static [Group]) -> Self {
        Reader { params, table }
    }

    /// The declaration of parameter `vr`. Panics when the table has none: a model bug, caught at
    /// the C boundary.
    fn declared(&self, vr: u32) -> Found {
        find(self.table, vr as usize).unwrap_or_else(|| panic!("value reference {vr} is not a declared parameter"))
    }

    /// The Real parameter `vr`: finite and within its declared range.
    pub fn real(&self, vr: u32) -> Result<f64, ParameterError> {
        let found = self.declared(vr);
        check(self.params.real(vr), found.row.range, &found)
    }

    /// `N` consecutive Real parameters from `vr` (a vector's components), each as [`Reader::real`].
    pub fn vector<const N: usize>(&self, vr: u32) -> Result<[f64; N], ParameterError> {
        let mut out = [0.0; N];
        for (k, value) in out.iter_mut().enumerate() {
            *value = self.real(vr + k as u32)?;
        }
        Ok(out)
    }

    /// The Integer parameter `vr`: within its declared `min..=max` and, when the declaration
    /// names its values by an enumeration, one of its items.
    pub fn integer(&self, vr: u32) -> Result<i32, ParameterError> {
        let found = self.declared(vr);
        let value = self.params.integer(vr);
        let range = match (found.row.kind, found.row.enumeration) {
            (_, Some(e)) if !e.items.iter().any(|item| item.1 == value) => {
                let values: Vec<String> = e.items.iter().map(|item| item.1.to_string()).collect();
                format!("one of {}", values.join(", "))
            }
            (Kind::Integer { min, max, .. }, _) if !(min..=max).contains(&value) => format!("in {min}..={max}"),
            _ => return Ok(value),
        };
        Err(ParameterError::OutOfRange { name: found.name(), range, value: value.into() })
    }

    /// The Boolean parameter `vr`.
    pub fn boolean(&self, vr: u32) -> bool {
        self.params.boolean(vr)
    }

    /// The String parameter `vr`.
    pub fn string(&self, vr: u32) -> &'a str {
        self.params.string(vr)
    }

    /// The file the String parameter `vr` names: an absolute path as it is, a relative one
    /// resolved against the FMU's `resources` folder ([`Parameters::resources`]). An error when
    /// the value is empty, or relative and the importer gave no `file:` resource location.
    pub fn resource_path(&self, vr: u32) -> Result<PathBuf, ParameterError> {
        let name = self.string(vr);
        let path = Path::new(name);
        if name.is_empty() {
            return Err(format!("parameter '{}' names no file", self.declared(vr).name()).into());
        }
        if path.is_absolute() {
            return Ok(path.to_path_buf());
        }
        match self.params.resources() {
            Some(resources) => Ok(resources.join(path)),
            None => Err(format!(
                "parameter '{}' = '{name}' is relative, but the importer gave no file: resource location to resolve it against",
                self.declared(vr).name()
            )
            .into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Values {
        reals: Vec<f64>,
        integers: Vec<i32>,
    }

    impl Parameters for Values {
        fn real(&self, vr: u32) -> f64 {
            self.reals[vr as usize]
        }
        fn integer(&self, vr: u32) -> i32 {
            self.integers[vr as usize]
        }
        fn boolean(&self, _vr: u32) -> bool {
            false
        }
    }

    fn reals(reals: Vec<f64>) -> Values {
        Values { reals, integers: Vec::new() }
    }

    mod vr {
        use crate::declare::{BODY, Labels};
        use crate::variable::Enumeration;

        static CHOICE: Enumeration =
            Enumeration { name: "T.Choice", description: "", items: &[("one", 1, ""), ("three", 3, "")] };

        crate::declare! { u32;
            MASS = real("mass", "kg", "Mass").positive();
            CD0 = real("cd0", "", "Drag").min(0.0);
            CG = vector("cg.{c}", "m", &BODY, "Centre of mass");
            GEAR = block(Labels::Numbered(3)) per PER_GEAR {
                GEAR_POS = vector("gear[{n}].{c}", "m", &BODY, "Leg {n}");
                GEAR_K = real("gear[{n}].k", "N/m", "Stiffness of leg {n}").min(0.0);
            };
            POINTS = block(Labels::Named(&["nose", "hub"])) per PER_POINT {
                POINT = vector("{n}.{c}", "m", &BODY, "Point {n}");
            };
            TOLERANCE = tolerance("tolerance", 1e-9);
            NB = integer("nb", 4, 1, 8, "Blades");
            CHOICE_VR = integer("choice", 1, 1, 3, "Choice").enumeration(&CHOICE);
        }
    }

    #[test]
    fn the_reader_finds_each_parameter_in_the_table() {
        assert_eq!((vr::GEAR, vr::PER_GEAR, vr::POINTS, vr::TOLERANCE, vr::NB), (5, 4, 17, 23, 24));
        let names: Vec<String> = [0, 4, 5, 12, 16, 20, 22, 25]
            .iter()
            .map(|&position| find(vr::TABLE, position).expect("declared").name())
            .collect();
        assert_eq!(names, ["mass", "cg.z", "gear[1].x", "gear[2].k", "gear[3].k", "hub.x", "hub.z", "choice"]);
        assert!(find(vr::TABLE, 26).is_none());
    }

    #[test]
    fn the_reader_checks_the_declared_ranges() {
        let mut values = reals((0..vr::NB).map(f64::from).collect());
        values.integers = vec![0; 26];
        values.reals[vr::TOLERANCE as usize] = 1e-9;
        let read = |values: &Values, f: &dyn Fn(&Reader) -> Result<f64, ParameterError>| {
            f(&Reader::new(values, vr::TABLE)).map_err(|e| e.to_string())
        };
        // The exclusive bound: `min="0"` in the XML, `> 0` when read.
        values.reals[vr::MASS as usize] = 0.0;
        assert_eq!(read(&values, &|p| p.real(vr::MASS)), Err("parameter 'mass' must be > 0 kg (got 0)".into()));
        values.reals[vr::MASS as usize] = 1e-300;
        assert_eq!(read(&values, &|p| p.real(vr::MASS)), Ok(1e-300));
        // An inclusive bound, no unit.
        values.reals[vr::CD0 as usize] = 0.0;
        assert_eq!(read(&values, &|p| p.real(vr::CD0)), Ok(0.0));
        values.reals[vr::CD0 as usize] = -0.5;
        assert_eq!(read(&values, &|p| p.real(vr::CD0)), Err("parameter 'cd0' must be >= 0 (got -0.5)".into()));
        // A block instance's parameter, named by its label.
        let k2 = vr::GEAR + vr::PER_GEAR + vr::GEAR_K;
        values.reals[k2 as usize] = -3.0;
        assert_eq!(read(&values, &|p| p.real(k2)), Err("parameter 'gear[2].k' must be >= 0 N/m (got -3)".into()));
        // Non-finite, in a vector of a named block.
        let hub = vr::POINTS + vr::PER_POINT;
        let p = Reader::new(&values, vr::TABLE);
        assert_eq!(p.vector::<3>(hub), Ok([20.0, 21.0, 22.0]));
        values.reals[hub as usize + 1] = f64::INFINITY;
        let p = Reader::new(&values, vr::TABLE);
        assert_eq!(p.vector::<3>(hub).unwrap_err().to_string(), "parameter 'hub.y' must be finite (got inf)");
        assert_eq!(p.vector::<3>(vr::CG), Ok([2.0, 3.0, 4.0]));
        // A bound the model description does not state (every tolerance row checks (0, 1)).
        assert_eq!(p.real(vr::TOLERANCE), Ok(1e-9));
        values.reals[vr::TOLERANCE as usize] = 1.0;
        assert_eq!(
            read(&values, &|p| p.real(vr::TOLERANCE)),
            Err("parameter 'tolerance' must be in (0, 1) (got 1)".into())
        );
    }

    #[test]
    fn the_reader_checks_integer_ranges_and_enumerations() {
        let mut values = reals(Vec::new());
        values.integers = vec![0; 26];
        for (nb, expected) in [(1, Ok(1)), (8, Ok(8)), (9, Err("parameter 'nb' must be in 1..=8 (got 9)"))] {
            values.integers[vr::NB as usize] = nb;
            let got = Reader::new(&values, vr::TABLE).integer(vr::NB).map_err(|e| e.to_string());
            assert_eq!(got, expected.map_err(String::from));
        }
        for (choice, expected) in [(3, Ok(3)), (2, Err("parameter 'choice' must be one of 1, 3 (got 2)"))] {
            values.integers[vr::CHOICE_VR as usize] = choice;
            let got = Reader::new(&values, vr::TABLE).integer(vr::CHOICE_VR).map_err(|e| e.to_string());
            assert_eq!(got, expected.map_err(String::from));
        }
    }
}
