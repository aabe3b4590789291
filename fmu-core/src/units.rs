//! SI units used by our variables, with their base-unit exponents for `UnitDefinitions`.

/// Exponents of (kg, m, s, rad, K) for one unit symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BaseUnit {
    /// Exponent of kilogram.
    pub kg: i32,
    /// Exponent of metre.
    pub m: i32,
    /// Exponent of second.
    pub s: i32,
    /// Exponent of radian.
    pub rad: i32,
    /// Exponent of kelvin.
    pub k: i32,
}

const fn unit(kg: i32, m: i32, s: i32, rad: i32) -> BaseUnit {
    BaseUnit { kg, m, s, rad, k: 0 }
}

/// Every unit symbol a model may use, with its SI base-unit exponents.
pub const UNITS: &[(&str, BaseUnit)] = &[
    ("s", unit(0, 0, 1, 0)),
    ("m", unit(0, 1, 0, 0)),
    ("m2", unit(0, 2, 0, 0)),
    ("kg", unit(1, 0, 0, 0)),
    ("kg.m", unit(1, 1, 0, 0)),
    ("kg.m2", unit(1, 2, 0, 0)),
    ("kg/m3", unit(1, -3, 0, 0)),
    ("m/s", unit(0, 1, -1, 0)),
    ("m/s2", unit(0, 1, -2, 0)),
    ("N", unit(1, 1, -2, 0)),
    ("N.m", unit(1, 2, -2, 0)),
    ("N/m", unit(1, 0, -2, 0)),
    ("N.s/m", unit(1, 0, -1, 0)),
    ("N.m/rad", unit(1, 2, -2, -1)),
    ("N.m.s/rad", unit(1, 2, -1, -1)),
    ("J", unit(1, 2, -2, 0)),
    ("W", unit(1, 2, -3, 0)),
    ("rad", unit(0, 0, 0, 1)),
    ("rad/s", unit(0, 0, -1, 1)),
    ("rad/s2", unit(0, 0, -2, 1)),
    ("1/rad", unit(0, 0, 0, -1)),
    ("1/s", unit(0, 0, -1, 0)),
    ("rad.s/m", unit(0, -1, 1, 1)),
    ("Pa", unit(1, -1, -2, 0)),
    ("K", BaseUnit { k: 1, ..unit(0, 0, 0, 0) }),
];

/// Looks up a unit symbol.
pub fn base_unit(symbol: &str) -> Option<BaseUnit> {
    UNITS.iter().find(|(s, _)| *s == symbol).map(|(_, u)| *u)
}

/// Display units of a unit symbol, `(name, factor)` with `display = factor * value`, the default
/// (shown unless a variable chooses another) first.
pub fn display_units(symbol: &str) -> &'static [(&'static str, f64)] {
    const DEG: f64 = 180.0 / std::f64::consts::PI;
    match symbol {
        "rad" => &[("deg", DEG)],
        "rad/s" => &[("deg/s", DEG), ("rpm", 30.0 / std::f64::consts::PI)],
        "rad/s2" => &[("deg/s2", DEG)],
        _ => &[],
    }
}

/// The display unit a variable of unit `symbol` shows: `chosen`, or the unit's default.
pub fn display_unit(symbol: &str, chosen: Option<&'static str>) -> Option<&'static str> {
    chosen.or_else(|| display_units(symbol).first().map(|(name, _)| *name))
}
