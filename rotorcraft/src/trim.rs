//! The system description's `trim` section: what `orchestrator trim` adjusts, read from the
//! application section `cosim` keeps as written ([`SystemDescription::section`]).

use std::path::{Path, PathBuf};

use cosim::system::{SystemContext, SystemDescription, SystemError};
use serde::Deserialize;

/// The top-level sections of a system description that are ours, not `cosim`'s.
pub(crate) const SECTIONS: &[&str] = &["trim"];

/// `context` with our sections ([`SECTIONS`]) declared: a description read in it keeps them.
pub(crate) fn with_our_sections(context: &SystemContext) -> SystemContext {
    context.clone().with_sections(SECTIONS)
}

/// Reads the system description at `path` in `context` with our sections (`trim`), and checks
/// them.
pub fn read_system(path: impl AsRef<Path>, context: &SystemContext) -> Result<SystemDescription, SystemError> {
    let description = SystemDescription::from_file(path, &with_our_sections(context))?;
    TrimSpec::of(&description)?;
    Ok(description)
}

/// Parses the system description `json` (relative paths from `base_dir`) in `context` with our
/// sections (`trim`), and checks them.
pub fn system_from_str(
    json: &str,
    base_dir: impl Into<PathBuf>,
    context: &SystemContext,
) -> Result<SystemDescription, SystemError> {
    let description = SystemDescription::from_str(json, base_dir, &with_our_sections(context))?;
    TrimSpec::of(&description)?;
    Ok(description)
}

/// `trim`: the unknowns of a trim and how it is run (see `orchestrator::trim`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrimSpec {
    /// `airframe`: the Fuselage instance: its attitude and velocity parameters are set from the
    /// flight condition, and its `free.*` outputs are the residual.
    pub airframe: String,
    /// `controls`: the four pilot inputs (collective, longitudinal cyclic, lateral cyclic, pedal),
    /// each the `to` of a constant entry of `inputs`; rad.
    pub controls: Vec<String>,
    /// `rotors`: Rotor instances handed from trial to trial on their periodic state (azimuth and
    /// per-blade lag/flap); the first sets the revolution that residuals are averaged over.
    pub rotors: Vec<String>,
    /// `tolerance` on every revolution-averaged free acceleration, m/s^2 and rad/s^2 (default 1e-3).
    #[serde(default = "default_trim_tolerance")]
    pub tolerance: f64,
    /// `max_iterations` of the trim's Newton-Broyden iteration (default 30).
    #[serde(default = "default_trim_iterations")]
    pub max_iterations: u32,
    /// `settle_revolutions` run before the averaged revolution of every trial (default 1).
    #[serde(default = "default_settle_revolutions")]
    pub settle_revolutions: u32,
}

fn default_trim_tolerance() -> f64 {
    1e-3
}

fn default_trim_iterations() -> u32 {
    30
}

fn default_settle_revolutions() -> u32 {
    1
}

impl TrimSpec {
    /// The `trim` section of `description` (`None` without one); an error names the field.
    pub fn of(description: &SystemDescription) -> Result<Option<TrimSpec>, SystemError> {
        description.section("trim")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A system description with `extra` top-level fields.
    fn with(extra: &str) -> String {
        format!(r#"{{"fmus": {{"body": {{"path": "Body.fmu"}}}}, "experiment": {{"stop": 1, "step": 0.1}}{extra}}}"#)
    }

    #[test]
    fn the_trim_section_is_read_with_its_defaults() {
        let json = with(r#", "trim": {"airframe": "body", "controls": ["body.u"], "rotors": ["body"]}"#);
        let spec = TrimSpec::of(&system_from_str(&json, ".", &SystemContext::default()).unwrap()).unwrap().unwrap();
        let expected = TrimSpec {
            airframe: "body".into(),
            controls: vec!["body.u".into()],
            rotors: vec!["body".into()],
            tolerance: 1e-3,
            max_iterations: 30,
            settle_revolutions: 1,
        };
        assert_eq!(spec, expected);
        assert_eq!(TrimSpec::of(&system_from_str(&with(""), ".", &SystemContext::default()).unwrap()).unwrap(), None);
    }

    #[test]
    fn a_bad_trim_section_is_an_error_naming_its_field() {
        let e = system_from_str(
            &with(r#", "trim": {"airframe": "body", "controls": [], "rotors": "body"}"#),
            ".",
            &SystemContext::default(),
        )
        .unwrap_err();
        assert_eq!(e.path, "trim.rotors");
        assert!(e.message.starts_with("invalid type: string \"body\", expected a sequence"), "{e}");
        let e = system_from_str(
            &with(r#", "trim": {"airframe": "body", "controls": [], "rotor": []}"#),
            ".",
            &SystemContext::default(),
        )
        .unwrap_err();
        assert_eq!(e.path, "trim.rotor");
        assert!(e.message.starts_with("unknown field 'rotor', expected one of 'airframe', 'controls'"), "{e}");
        let e = system_from_str(&with(r#", "trim": {"controls": [], "rotors": []}"#), ".", &SystemContext::default())
            .unwrap_err();
        assert_eq!((e.path.as_str(), e.message.as_str()), ("trim", "missing field 'airframe'"));
    }

    /// `cosim` refuses a `trim` section it was not told of, as any unknown field.
    #[test]
    fn the_trim_section_is_ours_not_cosims() {
        let json = with(r#", "trim": {"airframe": "body", "controls": [], "rotors": []}"#);
        let e = SystemDescription::from_str(&json, ".", &SystemContext::default()).unwrap_err();
        assert_eq!(e.path, "trim");
        assert!(e.message.starts_with("unknown field 'trim', expected one of 'fmus', "), "{e}");
        assert!(SystemDescription::from_str(&json, ".", &with_our_sections(&SystemContext::default())).is_ok());
    }
}
