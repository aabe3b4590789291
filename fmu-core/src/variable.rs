//! Variable declarations: each model variable is declared once, and everything the FMI layer
//! needs (get/set dispatch, `modelDescription.xml`, dependencies) is derived from the declaration.

/// FMI 2.0 causality of a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Causality {
    /// Set by the importer before initialization (or between steps, if tunable).
    Parameter,
    /// Set by the importer at every communication point.
    Input,
    /// Computed by the FMU.
    Output,
}

/// FMI 2.0 variability of a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variability {
    /// Fixed after initialization.
    Fixed,
    /// May change between communication steps.
    Tunable,
    /// Changes only at communication points (integers, booleans).
    Discrete,
    /// Continuous in time.
    Continuous,
}

/// Type and start value of a variable.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// `fmi2Real`, with a unit (`""` for dimensionless) and a start value (ignored for outputs).
    Real {
        /// SI unit symbol as listed in [`crate::units`], or `""`.
        unit: &'static str,
        /// Start value.
        start: f64,
    },
    /// `fmi2Integer` with its start value and the inclusive range of legal values.
    Integer {
        /// Start value.
        start: i32,
        /// Smallest legal value.
        min: i32,
        /// Largest legal value.
        max: i32,
    },
    /// `fmi2Boolean` with its start value.
    Boolean {
        /// Start value.
        start: bool,
    },
    /// `fmi2String` with its start value (parameters only: a file name, a model choice in words).
    String {
        /// Start value.
        start: &'static str,
    },
}

/// An FMI 2.0 enumeration type for an integer choice (`TypeDefinitions/SimpleType`): importers
/// show the item names instead of numbers. Get and set stay `fmi2GetInteger`/`fmi2SetInteger`.
#[derive(Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// Type name, `<modelIdentifier>.<Name>` by convention.
    pub name: &'static str,
    /// What the choice is.
    pub description: &'static str,
    /// `(item name, value, description)`, values unique.
    pub items: &'static [(&'static str, i32, &'static str)],
}

/// Which inputs an output depends on directly (its direct feedthrough).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Feedthrough {
    /// The output depends on the FMU's internal state only (`dependencies=""`).
    None,
    /// The output depends directly on these inputs (by value reference).
    Inputs(Vec<u32>),
}

/// One model variable, declared once.
#[derive(Debug, Clone, PartialEq)]
pub struct Variable {
    /// Name, with dots for structure and brackets for blades (`hub.F.x`, `blade[2].flap`).
    pub name: String,
    /// Value reference, unique across all types within one model.
    pub vr: u32,
    /// Type, unit and start value.
    pub kind: Kind,
    /// FMI causality.
    pub causality: Causality,
    /// FMI variability.
    pub variability: Variability,
    /// Human description, stating frame and sign convention where relevant.
    pub description: String,
    /// For outputs: the inputs with direct feedthrough. Ignored for other causalities.
    pub feedthrough: Feedthrough,
    /// Reals: the unit importers display (a `DisplayUnit` of the unit in [`crate::units`]);
    /// `None`: the unit's default display unit, if it has one (`rad` is shown in `deg`).
    pub display_unit: Option<&'static str>,
    /// Reals: the physical bounds, inclusive (`min`/`max` in the model description; the model's
    /// own checks may be stricter).
    pub range: (Option<f64>, Option<f64>),
    /// Integers that are a choice: the enumeration that names the values.
    pub enumeration: Option<&'static Enumeration>,
}

impl Variable {
    pub(crate) fn new(name: impl Into<String>, vr: u32, kind: Kind, causality: Causality) -> Self {
        let variability = match (causality, kind) {
            (Causality::Parameter, _) => Variability::Fixed,
            (_, Kind::Real { .. }) => Variability::Continuous,
            _ => Variability::Discrete,
        };
        Variable {
            name: name.into(),
            vr,
            kind,
            causality,
            variability,
            description: String::new(),
            feedthrough: Feedthrough::None,
            display_unit: None,
            range: (None, None),
            enumeration: None,
        }
    }

    /// A fixed real parameter.
    pub fn real_parameter(name: impl Into<String>, vr: u32, unit: &'static str, start: f64) -> Self {
        Self::new(name, vr, Kind::Real { unit, start }, Causality::Parameter)
    }

    /// A fixed integer parameter with its legal range.
    pub fn integer_parameter(name: impl Into<String>, vr: u32, start: i32, min: i32, max: i32) -> Self {
        Self::new(name, vr, Kind::Integer { start, min, max }, Causality::Parameter)
    }

    /// A fixed boolean parameter.
    pub fn boolean_parameter(name: impl Into<String>, vr: u32, start: bool) -> Self {
        Self::new(name, vr, Kind::Boolean { start }, Causality::Parameter)
    }

    /// A continuous real input.
    pub fn real_input(name: impl Into<String>, vr: u32, unit: &'static str, start: f64) -> Self {
        Self::new(name, vr, Kind::Real { unit, start }, Causality::Input)
    }

    /// A continuous real output (initially without feedthrough; see [`Variable::depends_on`]).
    pub fn real_output(name: impl Into<String>, vr: u32, unit: &'static str) -> Self {
        Self::new(name, vr, Kind::Real { unit, start: 0.0 }, Causality::Output)
    }

    /// Sets the description.
    pub fn describe(mut self, description: impl Into<String>) -> Self {
        self.description = description.into();
        self
    }

    /// Shows a real in this display unit (one the unit defines in [`crate::units`]).
    pub fn display_unit(mut self, display_unit: &'static str) -> Self {
        self.display_unit = Some(display_unit);
        self
    }

    /// Physical lower bound of a real, inclusive.
    pub fn min(mut self, min: f64) -> Self {
        self.range.0 = Some(min);
        self
    }

    /// Physical upper bound of a real, inclusive.
    pub fn max(mut self, max: f64) -> Self {
        self.range.1 = Some(max);
        self
    }

    /// Declares an integer parameter a choice among the items of `enumeration`.
    pub fn enumeration(mut self, enumeration: &'static Enumeration) -> Self {
        self.enumeration = Some(enumeration);
        self
    }

    /// Makes a parameter tunable (settable between communication steps).
    pub fn tunable(mut self) -> Self {
        self.variability = Variability::Tunable;
        self
    }

    /// Declares the inputs (value references) this output depends on directly.
    pub fn depends_on(mut self, inputs: impl IntoIterator<Item = u32>) -> Self {
        let inputs: Vec<u32> = inputs.into_iter().collect();
        self.feedthrough = if inputs.is_empty() { Feedthrough::None } else { Feedthrough::Inputs(inputs) };
        self
    }

    /// True for `fmi2Real` variables.
    pub fn is_real(&self) -> bool {
        matches!(self.kind, Kind::Real { .. })
    }
}
