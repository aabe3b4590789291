//! The attributes of `BaseUnit`: the one table of their names, for the writer and every reader.

use super::BaseUnit;

impl BaseUnit {
    /// The SI exponent attributes in the order of the FMI 2.0 schema, with their values.
    pub fn exponents(&self) -> [(&'static str, Option<i32>); 8] {
        [
            ("kg", self.kg),
            ("m", self.m),
            ("s", self.s),
            ("A", self.a),
            ("K", self.k),
            ("mol", self.mol),
            ("cd", self.cd),
            ("rad", self.rad),
        ]
    }

    /// Sets attribute `name` from its `text`. Attributes FMI 2.0 does not define for `BaseUnit`
    /// are ignored; a value that is not of its type (xs:int exponents, xs:double `factor` and
    /// `offset`) is an error saying so, and leaves the unit as it was.
    pub fn set_attribute(&mut self, name: &str, text: &str) -> Result<(), String> {
        let exponent =
            || text.trim().parse::<i32>().map_err(|_| format!("BaseUnit {name}=\"{text}\" is not an integer"));
        let real = || xs_double(text).ok_or_else(|| format!("BaseUnit {name}=\"{text}\" is not a number"));
        match name {
            "kg" => self.kg = Some(exponent()?),
            "m" => self.m = Some(exponent()?),
            "s" => self.s = Some(exponent()?),
            "A" => self.a = Some(exponent()?),
            "K" => self.k = Some(exponent()?),
            "mol" => self.mol = Some(exponent()?),
            "cd" => self.cd = Some(exponent()?),
            "rad" => self.rad = Some(exponent()?),
            "factor" => self.factor = Some(real()?),
            "offset" => self.offset = Some(real()?),
            _ => {}
        }
        Ok(())
    }
}

/// An xs:double: decimal or exponent notation, or `INF`, `-INF`, `NaN` (surrounding white space
/// allowed); `None` otherwise (Rust's own parser also takes `inf` and `nan` spelled in other ways,
/// which XML Schema does not).
pub fn xs_double(text: &str) -> Option<f64> {
    match text.trim() {
        "INF" => Some(f64::INFINITY),
        "-INF" => Some(f64::NEG_INFINITY),
        "NaN" => Some(f64::NAN),
        text => {
            let digits = text.trim_start_matches(['+', '-']);
            if !digits.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
                return None;
            }
            text.parse().ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_attribute_sets_its_own_field() {
        let mut unit = BaseUnit::default();
        for (k, (name, _)) in BaseUnit::default().exponents().iter().enumerate() {
            unit.set_attribute(name, &(k as i32 + 1).to_string()).unwrap();
        }
        unit.set_attribute("factor", "1e3").unwrap();
        unit.set_attribute("offset", " 273.15 ").unwrap();
        unit.set_attribute("unknown", "x").unwrap();
        let values: Vec<Option<i32>> = unit.exponents().iter().map(|(_, v)| *v).collect();
        assert_eq!(values, (1..=8).map(Some).collect::<Vec<_>>());
        assert_eq!((unit.factor, unit.offset), (Some(1000.0), Some(273.15)));
    }

    #[test]
    fn a_value_of_the_wrong_type_is_refused_and_changes_nothing() {
        let mut unit = BaseUnit::default();
        assert_eq!(unit.set_attribute("m", "1.5"), Err("BaseUnit m=\"1.5\" is not an integer".to_string()));
        assert_eq!(unit.set_attribute("factor", "inf"), Err("BaseUnit factor=\"inf\" is not a number".to_string()));
        assert_eq!(unit, BaseUnit::default());
    }

    #[test]
    fn xs_double_takes_the_xml_schema_spellings_only() {
        assert_eq!(xs_double("-INF"), Some(f64::NEG_INFINITY));
        assert!(xs_double("NaN").unwrap().is_nan());
        assert_eq!(xs_double("+.5e1"), Some(5.0));
        assert_eq!(xs_double("inf"), None);
        assert_eq!(xs_double("infinity"), None);
    }
}
