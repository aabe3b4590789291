//! Variable references, `*` patterns and "did you mean" suggestions.

/// The candidate closest to `name` by edit distance, if it is close enough to be a plausible
/// typo (at most 2 edits, or a third of the name). Among equally close candidates the first
/// `preferred` one wins, then the first one.
pub(crate) fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = (&'a str, bool)>) -> Option<&'a str> {
    let limit = 2.max(name.chars().count() / 3);
    candidates
        .into_iter()
        .map(|(c, preferred)| (strsim::levenshtein(name, c), !preferred, c))
        .filter(|&(d, _, _)| d <= limit)
        .min_by_key(|&(d, not_preferred, _)| (d, not_preferred))
        .map(|(_, _, c)| c)
}

/// `" (did you mean 'x'?)"` or nothing.
pub(crate) fn did_you_mean(suggestion: Option<&str>) -> String {
    suggestion.map(|s| format!(" (did you mean '{s}'?)")).unwrap_or_default()
}

/// True for an instance name: an ASCII letter or `_`, then letters, digits or `_`.
pub(crate) fn is_instance_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A variable reference or pattern `instance.variable`, split at the first dot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reference<'a> {
    /// Instance name.
    pub instance: &'a str,
    /// Variable name or pattern.
    pub variable: &'a str,
}

impl<'a> Reference<'a> {
    /// Splits `text` at its first dot and checks both parts; the error says what is wrong.
    pub(crate) fn parse(text: &'a str) -> Result<Self, String> {
        let Some((instance, variable)) = text.split_once('.') else {
            return Err(format!("'{text}' is not a variable reference 'instance.variable'"));
        };
        if !is_instance_name(instance) {
            return Err(format!(
                "'{text}': '{instance}' is not an instance name (letters, digits and '_', not starting with a digit)"
            ));
        }
        if variable.is_empty() {
            return Err(format!("'{text}' names no variable after the instance name"));
        }
        Ok(Self { instance, variable })
    }

    /// Number of `*` in the variable part.
    pub(crate) fn stars(&self) -> usize {
        self.variable.matches('*').count()
    }
}

/// A variable name pattern with at most one `*`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pattern<'a> {
    /// No `*`: the name itself.
    Exact(&'a str),
    /// `prefix*suffix`.
    Wildcard {
        /// Text before the `*`.
        prefix: &'a str,
        /// Text after the `*`.
        suffix: &'a str,
    },
}

impl<'a> Pattern<'a> {
    /// The pattern of a variable part with at most one `*` (more are an error by the caller).
    pub(crate) fn new(variable: &'a str) -> Self {
        match variable.split_once('*') {
            None => Pattern::Exact(variable),
            Some((prefix, suffix)) => Pattern::Wildcard { prefix, suffix },
        }
    }

    /// What the `*` stands for in `name`, or `None` when `name` does not match (for an exact
    /// pattern: `Some("")` on equality).
    pub(crate) fn capture<'n>(&self, name: &'n str) -> Option<&'n str> {
        match *self {
            Pattern::Exact(exact) => (name == exact).then_some(""),
            Pattern::Wildcard { prefix, suffix } => {
                name.strip_prefix(prefix).and_then(|rest| rest.strip_suffix(suffix))
            }
        }
    }

    /// The name this pattern gives for a captured text (`prefix + captured + suffix`).
    pub(crate) fn fill(&self, captured: &str) -> String {
        match *self {
            Pattern::Exact(exact) => exact.to_string(),
            Pattern::Wildcard { prefix, suffix } => format!("{prefix}{captured}{suffix}"),
        }
    }
}

/// Whether `name` (`instance.variable`) matches `pattern`, written as in `outputs`: an exact
/// name, or one `*` standing for any run of characters (`fuselage.*`, `plant.wheel[*].angle`).
pub fn name_matches(pattern: &str, name: &str) -> bool {
    Pattern::new(pattern).capture(name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_prefers_distance_then_preferred_then_order() {
        let names = [("hub.F.x", false), ("hub.F.y", true), ("hub.x", false)];
        assert_eq!(closest("hub.F.q", names), Some("hub.F.y"));
        assert_eq!(closest("hub.F.q", [("hub.F.x", false), ("hub.F.y", false)]), Some("hub.F.x"));
        assert_eq!(closest("completely", names), None);
    }

    #[test]
    fn instance_names() {
        assert!(is_instance_name("plant"));
        assert!(is_instance_name("_main_plant2"));
        assert!(!is_instance_name(""));
        assert!(!is_instance_name("2plant"));
        assert!(!is_instance_name("main.plant"));
        assert!(!is_instance_name("rot*"));
    }

    #[test]
    fn references_split_at_the_first_dot() {
        let r = Reference::parse("fuselage.hub.F.x").unwrap();
        assert_eq!((r.instance, r.variable), ("fuselage", "hub.F.x"));
        assert_eq!(Reference::parse("plant.*").unwrap().stars(), 1);
        assert!(Reference::parse("plant").unwrap_err().contains("not a variable reference"));
        assert!(Reference::parse("plant.").unwrap_err().contains("names no variable"));
        assert!(Reference::parse("ro-tor.x").unwrap_err().contains("not an instance name"));
    }

    #[test]
    fn patterns_capture_and_fill() {
        let p = Pattern::new("hub.F.*");
        assert_eq!(p.capture("hub.F.x"), Some("x"));
        assert_eq!(p.capture("hub.F."), Some(""));
        assert_eq!(p.capture("hub.M.x"), None);
        assert_eq!(p.fill("y"), "hub.F.y");
        let p = Pattern::new("wheel[*].angle");
        assert_eq!(p.capture("wheel[3].angle"), Some("3"));
        assert_eq!(p.capture("wheel[3].angle_rate"), None);
        let p = Pattern::new("a*a");
        assert_eq!(p.capture("a"), None);
        assert_eq!(p.capture("aa"), Some(""));
        assert_eq!(Pattern::new("*").capture("anything.at[1]"), Some("anything.at[1]"));
        assert_eq!(Pattern::new("x").capture("x"), Some(""));
        assert_eq!(Pattern::new("x").capture("xx"), None);
    }
}
