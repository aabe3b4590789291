//! Declarative variable tables: each variable of a model is written once, in one row, and the
//! index constants, the value references and the [`Variable`] list are generated from it.
//!
//! A model declares three tables with [`declare!`](crate::declare!): its parameters (the
//! positions are the value references), its real inputs `u` and its real outputs `y` (the
//! positions are indices into those vectors, the value reference adds a base). [`variables`]
//! turns the three tables into the model's [`Variable`] list, in declaration order.
//!
//! A [`Row`] is one scalar or a vector of components. Its name and description are patterns:
//! `{n}` is the label of the block instance (the blade number, or a point's name), `{c}` the
//! component suffix, `{w}` the component's words (an axis in words, say), `{unit}` the unit.
//!
//! A model's continuous states are a fourth table of [`Row::state`] rows (the positions are
//! indices into `x`); [`states`] turns it into the [`StateVariable`] list.

use crate::model::StateVariable;
use crate::params::Bounds;
use crate::variable::{Causality, Enumeration, Kind, Variable};
use std::ops::ControlFlow;

/// Airframe body axes (FRD): component suffixes and their words, for [`Row::vector`].
pub const BODY: [(&str, &str); 3] = [("x", "body x (forward)"), ("y", "body y (right)"), ("z", "body z (down)")];
/// NED axes: component suffixes and their words.
pub const NED: [(&str, &str); 3] = [("x", "NED x (north)"), ("y", "NED y (east)"), ("z", "NED z (down)")];
/// Body-axis velocity components `u v w` (the Fuselage's output names) and their words.
pub const UVW: [(&str, &str); 3] = [("u", BODY[0].1), ("v", BODY[1].1), ("w", BODY[2].1)];
/// Body-axis angular-velocity components `p q r` (the Fuselage's output names) and their words.
pub const PQR: [(&str, &str); 3] = [("p", BODY[0].1), ("q", BODY[1].1), ("r", BODY[2].1)];

/// The inputs (as indices into `u`) an output of block instance `i` depends on directly.
pub type Dependencies = fn(usize) -> Vec<usize>;

/// One declaration: a scalar variable, or a vector with one variable per component.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// Name pattern (`hub.vel.{c}`, `blade[{n}].pitch`).
    pub name: &'static str,
    /// Type, unit and (scalar) start value.
    pub kind: Kind,
    /// Components `(suffix, words)`; empty for a scalar.
    pub components: &'static [(&'static str, &'static str)],
    /// Description pattern.
    pub description: &'static str,
    /// Real start value per component (empty: the start of `kind`).
    pub starts: &'static [f64],
    /// Real start value by block instance and component (overrides `starts`).
    pub start_by: Option<fn(usize, usize) -> f64>,
    /// Display unit of a real.
    pub display_unit: Option<&'static str>,
    /// Physical bounds of a real: the `min` and `max` of `modelDescription.xml` (an excluded
    /// bound is written as the same value there, and excluded when the parameter is read by
    /// [`crate::params::Reader`]).
    pub range: Bounds,
    /// The enumeration that names an integer's values.
    pub enumeration: Option<&'static Enumeration>,
    /// Outputs: the inputs with direct feedthrough.
    pub dependencies: Option<Dependencies>,
    /// States: the unit of the time derivative and the nominal value.
    pub state: Option<(&'static str, f64)>,
}

impl Row {
    const fn new(name: &'static str, kind: Kind, description: &'static str) -> Self {
        Row {
            name,
            kind,
            components: &[],
            description,
            starts: &[],
            start_by: None,
            display_unit: None,
            range: Bounds::NONE,
            enumeration: None,
            dependencies: None,
            state: None,
        }
    }

    /// A real scalar with start value 0.
    pub const fn real(name: &'static str, unit: &'static str, description: &'static str) -> Self {
        Self::new(name, Kind::Real { unit, start: 0.0 }, description)
    }

    /// A real vector, one variable per component of `components` (`{c}` in the name).
    pub const fn vector(
        name: &'static str,
        unit: &'static str,
        components: &'static [(&'static str, &'static str)],
        description: &'static str,
    ) -> Self {
        Row { components, ..Self::real(name, unit, description) }
    }

    /// A continuous state (named `state.` and the name), its derivative's unit and its nominal
    /// value.
    pub const fn state(
        name: &'static str,
        unit: &'static str,
        derivative_unit: &'static str,
        nominal: f64,
        description: &'static str,
    ) -> Self {
        Row { state: Some((derivative_unit, nominal)), ..Self::real(name, unit, description) }
    }

    /// A vector of continuous states, one per component of `components` (`{c}` in the name).
    pub const fn state_vector(
        name: &'static str,
        unit: &'static str,
        derivative_unit: &'static str,
        nominal: f64,
        components: &'static [(&'static str, &'static str)],
        description: &'static str,
    ) -> Self {
        Row { components, ..Self::state(name, unit, derivative_unit, nominal, description) }
    }

    /// An integer with its start value and legal range.
    pub const fn integer(name: &'static str, start: i32, min: i32, max: i32, description: &'static str) -> Self {
        Self::new(name, Kind::Integer { start, min, max }, description)
    }

    /// A boolean with its start value.
    pub const fn boolean(name: &'static str, start: bool, description: &'static str) -> Self {
        Self::new(name, Kind::Boolean { start }, description)
    }

    /// A string parameter with its start value (a table file name, resolved against the FMU's
    /// resources by [`crate::params::Reader::resource_path`]).
    pub const fn string(name: &'static str, start: &'static str, description: &'static str) -> Self {
        Self::new(name, Kind::String { start }, description)
    }

    /// The parameter every model with an integrator has: its relative and absolute tolerance inside
    /// `fmi2DoStep`, dimensionless.
    pub const fn tolerance(name: &'static str, start: f64) -> Self {
        Self::real(
            name,
            "",
            "Relative and absolute tolerance of the error-controlled integrator inside fmi2DoStep (0 < tol < 1)",
        )
        .start(start)
        .above(0.0)
        .below(1.0)
    }

    /// Sets the start value of a real scalar (or of every component).
    pub const fn start(mut self, start: f64) -> Self {
        if let Kind::Real { unit, .. } = self.kind {
            self.kind = Kind::Real { unit, start };
        }
        self
    }

    /// Sets the start values of a real vector, one per component.
    pub const fn starts(mut self, starts: &'static [f64]) -> Self {
        self.starts = starts;
        self
    }

    /// Sets the start values by block instance and component.
    pub const fn start_by(mut self, start: fn(usize, usize) -> f64) -> Self {
        self.start_by = Some(start);
        self
    }

    /// Shows a real in this display unit.
    pub const fn display_unit(mut self, display_unit: &'static str) -> Self {
        self.display_unit = Some(display_unit);
        self
    }

    /// Physical lower bound of a real, inclusive.
    pub const fn min(mut self, min: f64) -> Self {
        self.range.min = Some((min, false));
        self
    }

    /// Physical lower bound of a real, exclusive: the XML says `min`, reading the parameter
    /// checks `> min`.
    pub const fn above(mut self, min: f64) -> Self {
        self.range.min = Some((min, true));
        self
    }

    /// A real that must be `> 0` (`min="0"` in the XML).
    pub const fn positive(self) -> Self {
        self.above(0.0)
    }

    /// Physical upper bound of a real, exclusive: the XML says `max`, reading the parameter
    /// checks `< max`.
    pub const fn below(mut self, max: f64) -> Self {
        self.range.max = Some((max, true));
        self
    }

    /// Names an integer's values by the items of `enumeration`.
    pub const fn enumeration(mut self, enumeration: &'static Enumeration) -> Self {
        self.enumeration = Some(enumeration);
        self
    }

    /// Declares the inputs (indices into `u`) an output depends on directly, by block instance.
    pub const fn deps(mut self, dependencies: Dependencies) -> Self {
        self.dependencies = Some(dependencies);
        self
    }

    /// Number of variables (and positions) of the row.
    pub const fn width(&self) -> usize {
        if self.components.is_empty() { 1 } else { self.components.len() }
    }

    /// The row's components `(suffix, words)`, one `("", "")` for a scalar.
    fn parts(&self) -> &'static [(&'static str, &'static str)] {
        if self.components.is_empty() { &[("", "")] } else { self.components }
    }

    /// The unit of a real, `""` otherwise.
    pub const fn unit(&self) -> &'static str {
        match self.kind {
            Kind::Real { unit, .. } => unit,
            _ => "",
        }
    }

    /// Fills pattern `s` for block label `label` and component `(c, w)`.
    fn fill(&self, s: &str, label: &str, (c, w): (&str, &str)) -> String {
        s.replace("{n}", label).replace("{c}", c).replace("{w}", w).replace("{unit}", self.unit())
    }

    /// Appends the row's variables for block instance `instance` (labelled `label`) at `at`.
    fn expand(&self, to: &Target, at: usize, instance: usize, label: &str, out: &mut Vec<Variable>) {
        for (k, &part) in self.parts().iter().enumerate() {
            let kind = match self.kind {
                Kind::Real { unit, start } => {
                    let start = match (self.start_by, self.starts.get(k)) {
                        (Some(by), _) => by(instance, k),
                        (None, Some(&s)) => s,
                        (None, None) => start,
                    };
                    Kind::Real { unit, start }
                }
                other => other,
            };
            let name = self.fill(self.name, label, part);
            let mut v = Variable::new(name, to.base + (at + k) as u32, kind, to.causality).describe(self.fill(
                self.description,
                label,
                part,
            ));
            v.display_unit = self.display_unit;
            v.range = self.range.values();
            v.enumeration = self.enumeration;
            if let (Causality::Output, Some(deps)) = (to.causality, self.dependencies) {
                v = v.depends_on(deps(instance).into_iter().map(|i| to.input_base + i as u32));
            }
            out.push(v);
        }
    }
}

/// Labels of the instances of a repeated block.
#[derive(Debug, Clone, Copy)]
pub enum Labels {
    /// `1..=n` (blades, landing-gear legs).
    Numbered(usize),
    /// These names (attachment points).
    Named(&'static [&'static str]),
}

impl Labels {
    /// Number of instances.
    pub const fn count(&self) -> usize {
        match self {
            Labels::Numbered(n) => *n,
            Labels::Named(names) => names.len(),
        }
    }

    fn label(&self, i: usize) -> String {
        match self {
            Labels::Numbered(_) => (i + 1).to_string(),
            Labels::Named(names) => names[i].to_string(),
        }
    }
}

/// An entry of a table made by [`declare!`](crate::declare!).
#[derive(Debug, Clone, Copy)]
pub enum Group {
    /// Consecutive rows from position `at`.
    Rows {
        /// Position of the first row.
        at: usize,
        /// The rows.
        rows: &'static [Row],
    },
    /// A block of groups repeated for each label, instance `i` at `at + i * per`.
    Block {
        /// Position of the first instance.
        at: usize,
        /// The instances.
        labels: Labels,
        /// Positions per instance.
        per: usize,
        /// The groups of one instance, at offsets within it.
        groups: &'static [Group],
    },
}

/// Total width of rows.
pub const fn width(rows: &[Row]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < rows.len() {
        n += rows[i].width();
        i += 1;
    }
    n
}

/// Where a table's variables go: their causality and value-reference bases.
struct Target {
    causality: Causality,
    base: u32,
    input_base: u32,
}

/// A row where a walk over a table meets it: the row, its first position and the block
/// instance around it (the innermost block's labels and the instance), if any.
#[derive(Clone, Copy)]
struct Place {
    row: &'static Row,
    at: usize,
    block: Option<(Labels, usize)>,
}

impl Place {
    /// The block instance, 0 outside a block.
    fn instance(&self) -> usize {
        self.block.map_or(0, |(_, i)| i)
    }

    /// The block instance's label (`2`, `hub`), empty outside a block.
    fn label(&self) -> String {
        self.block.map_or(String::new(), |(labels, i)| labels.label(i))
    }
}

/// Calls `f` for each row of `groups`, in declaration order, until it breaks.
fn walk(
    groups: &'static [Group],
    offset: usize,
    block: Option<(Labels, usize)>,
    f: &mut dyn FnMut(Place) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for group in groups {
        match *group {
            Group::Rows { at, rows } => {
                let mut at = offset + at;
                for row in rows {
                    f(Place { row, at, block })?;
                    at += row.width();
                }
            }
            Group::Block { at, labels, per, groups } => {
                for i in 0..labels.count() {
                    walk(groups, offset + at + i * per, Some((labels, i)), f)?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Calls `f` for each row of `table`, in declaration order.
fn each(table: &'static [Group], f: &mut dyn FnMut(Place)) {
    let _ = walk(table, 0, None, &mut |place| {
        f(place);
        ControlFlow::Continue(())
    });
}

/// Where a position of a table lies: its row, the component within the row and the block
/// instance (the innermost block), found by [`find`].
#[derive(Debug, Clone, Copy)]
pub struct Found {
    /// The row.
    pub row: &'static Row,
    /// The component within the row (0 for a scalar).
    pub component: usize,
    /// The labels of the innermost block around the row and the instance, if any.
    pub block: Option<(Labels, usize)>,
}

impl Found {
    /// The variable's name: the row's name pattern filled in for the block instance and the
    /// component (`gear[2].x`).
    pub fn name(&self) -> String {
        let label = self.block.map_or(String::new(), |(labels, i)| labels.label(i));
        self.row.fill(self.row.name, &label, self.row.parts()[self.component])
    }
}

/// The row holding `position` of `table`, without allocating; `None` when no row holds it.
pub fn find(table: &'static [Group], position: usize) -> Option<Found> {
    let mut found = None;
    let _ = walk(table, 0, None, &mut |Place { row, at, block }| {
        if (at..at + row.width()).contains(&position) {
            found = Some(Found { row, component: position - at, block });
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    found
}

fn expand(table: &'static [Group], to: &Target, out: &mut Vec<Variable>) {
    each(table, &mut |place| place.row.expand(to, place.at, place.instance(), &place.label(), out));
}

/// A model's variables from its three tables: the parameters (value reference = position), then
/// the inputs and the outputs, each `(value-reference base, table)`.
pub fn variables(
    parameters: &'static [Group],
    inputs: (u32, &'static [Group]),
    outputs: (u32, &'static [Group]),
) -> Vec<Variable> {
    let mut out = Vec::new();
    let parameter = Target { causality: Causality::Parameter, base: 0, input_base: inputs.0 };
    expand(parameters, &parameter, &mut out);
    let input = Target { causality: Causality::Input, base: inputs.0, input_base: inputs.0 };
    expand(inputs.1, &input, &mut out);
    let output = Target { causality: Causality::Output, base: outputs.0, input_base: inputs.0 };
    expand(outputs.1, &output, &mut out);
    out
}

/// A model's four tables: what [`Model::variables`] and [`Model::state_variables`] are made from
/// by default (a model's `layout::TABLES`, its [`Model::TABLES`]).
///
/// [`Model::variables`]: crate::Model::variables
/// [`Model::state_variables`]: crate::Model::state_variables
/// [`Model::TABLES`]: crate::Model::TABLES
#[derive(Debug, Clone, Copy)]
pub struct Tables {
    /// The parameters (value reference = position).
    pub parameters: &'static [Group],
    /// The real inputs: value-reference base and table.
    pub inputs: (u32, &'static [Group]),
    /// The real outputs: value-reference base and table.
    pub outputs: (u32, &'static [Group]),
    /// The continuous states ([`Row::state`] rows); empty for a model without states.
    pub states: &'static [Group],
}

impl Tables {
    /// No variables and no states.
    pub const NONE: Tables = Tables { parameters: &[], inputs: (0, &[]), outputs: (0, &[]), states: &[] };

    /// The variables, in declaration order: parameters, inputs, outputs ([`variables`]).
    pub fn variables(&self) -> Vec<Variable> {
        variables(self.parameters, self.inputs, self.outputs)
    }

    /// The continuous states, in declaration order ([`states`]).
    pub fn states(&self) -> Vec<StateVariable> {
        states(self.states)
    }
}

/// A model's continuous states from its table of [`Row::state`] rows, in declaration order (the
/// Model Exchange state order).
pub fn states(table: &'static [Group]) -> Vec<StateVariable> {
    let mut out = Vec::new();
    each(table, &mut |place| {
        let (row, label) = (place.row, place.label());
        let (derivative_unit, nominal) = row.state.expect("a state table holds only `Row::state` rows");
        for &part in row.parts() {
            let description = row.fill(row.description, &label, part);
            out.push(StateVariable::new(
                &row.fill(row.name, &label, part),
                row.unit(),
                derivative_unit,
                description,
                nominal,
            ));
        }
    });
    out
}

/// Declares a table of variables in the current module: one `pub const` position per group of
/// rows (type `$t`), and `pub const TABLE: &[Group]` for [`variables`].
///
/// A group is `NAME = row, row, ...;` (at the position after the previous group, or at
/// `NAME @ position = ...`); a row is a [`Row`] constructor and its builder calls, without the
/// `Row::`. A block `NAME = block(labels) per PER fn f { groups }` repeats its groups for each
/// of the [`Labels`]: `NAME` is its position, the groups' constants are offsets within an
/// instance, `PER` the positions per instance and `f(i)` the position of instance `i`. `N;`
/// declares the position after the last group (the number of positions).
///
/// Views: `declare! { view usize; ... }` also defines `View` (read) and `ViewMut` (write) over a
/// slice laid out by the table, and a group written `NAME as name = ...` gets the method `name`:
/// the value of a single real row, else the array of the group's width (`&mut` for `ViewMut`). A
/// block written `NAME as name = block(...)` gets `name(i)`, the view of instance `i`, whose type
/// is in the module `name`; its groups' `as` methods are on that view. So the physics reads
/// `u.hub_acc()` and writes `*y.blade(b).pitch() = ...` instead of `u[u::HUB_ACC + k]`.
///
/// ```
/// pub mod u {
///     use fmu_core::declare::{BODY, Labels};
///     fmu_core::declare! { usize;
///         /// The hub.
///         HUB_VEL = vector("hub.vel.{c}", "m/s", &BODY, "Velocity of the hub, {w}, m/s");
///         TORQUE = real("torque", "N.m", "Shaft torque, N m").start(1.0);
///         BLADES = block(Labels::Numbered(2)) per PER_BLADE fn blade {
///             PITCH = real("blade[{n}].pitch", "rad", "Pitch of blade {n}, rad");
///             FORCE = vector("blade[{n}].F.{c}", "N", &BODY, "Force on blade {n}, {w}, N");
///         };
///         N;
///     }
/// }
/// assert_eq!((u::HUB_VEL, u::TORQUE, u::BLADES, u::PER_BLADE, u::N), (0, 3, 4, 4, 12));
/// assert_eq!(u::blade(1) + u::FORCE + 2, 11);
/// let vars = fmu_core::declare::variables(&[], (100, u::TABLE), (200, &[]));
/// assert_eq!((vars[11].name.as_str(), vars[11].vr), ("blade[2].F.z", 111));
/// assert_eq!(vars[11].description, "Force on blade 2, body z (down), N");
///
/// pub mod y {
///     use fmu_core::declare::{BODY, Labels};
///     fmu_core::declare! { view usize;
///         THRUST as thrust = real("thrust", "N", "Rotor thrust, N");
///         BLADES as blade = block(Labels::Numbered(2)) per PER_BLADE fn blade {
///             FORCE as force = vector("blade[{n}].F.{c}", "N", &BODY, "Force on blade {n}, {w}, N");
///         };
///         N;
///     }
/// }
/// let mut ys = [0.0; y::N];
/// *y::ViewMut(&mut ys).thrust() = 1.5;
/// y::ViewMut(&mut ys).blade(1).force()[2] = -2.0;
/// assert_eq!(ys, [1.5, 0.0, 0.0, 0.0, 0.0, 0.0, -2.0]);
/// assert_eq!(y::View(&ys).blade(1).force(), [0.0, 0.0, -2.0]);
/// ```
#[macro_export]
macro_rules! declare {
    (view $t:ty; $($body:tt)*) => {
        /// Named, typed read access to a vector laid out by this table (`u`, `y`, `x`): a method
        /// per group declared `NAME as name`, a scalar or an array of the group's width.
        #[derive(Debug, Clone, Copy)]
        pub struct View<'a, T>(pub &'a [T]);

        /// Named write access to a vector laid out by this table: a method per group declared
        /// `NAME as name`, a reference to the scalar or the array of the group's width.
        #[derive(Debug)]
        pub struct ViewMut<'a, T>(pub &'a mut [T]);

        $crate::declare!(@outer $t; (0); []; $($body)*);
    };
    ($t:ty; $($body:tt)*) => {
        $crate::declare!(@outer $t; (0); []; $($body)*);
    };

    (@at $pos:expr) => { $pos };
    (@at $pos:expr; $at:tt) => { $at };

    // A repeated block.
    (@outer $t:ty; $pos:expr; [$($acc:tt)*];
        $(#[$doc:meta])* $name:ident $(as $field:ident)? $(@ $at:tt)? = block ( $labels:expr ) per $per:ident
        $(fn $f:ident)? { $($inner:tt)* } ; $($rest:tt)*
    ) => {
        #[doc = concat!("Position of the first of the blocks of `", stringify!($per), "` positions.")]
        $(#[$doc])*
        pub const $name: $t = $crate::declare!(@at $pos $(; $at)?);
        $(
            #[doc = concat!("Position of the block of instance `i` (0-based), `", stringify!($name), " + ",
                stringify!($per), " * i`.")]
            pub const fn $f(i: usize) -> usize {
                $name as usize + $per as usize * i
            }
        )?
        $($crate::declare!(@block_view $field; $name; $per);)?
        $crate::declare!(@inner [$t; $name; [$($field)?]; $labels; $per; [$($acc)*]; {$($rest)*}]; (0); []; $($inner)*);
    };

    // A group of rows.
    (@outer $t:ty; $pos:expr; [$($acc:tt)*];
        $(#[$doc:meta])* $name:ident $(as $field:ident)? $(@ $at:tt)? =
        $($ctor:ident ( $first:literal $($arg:tt)* ) $(. $meth:ident ( $($marg:tt)* ))*),+ ; $($rest:tt)*
    ) => {
        #[doc = concat!("Position of" $(, " `", $first, "`")+, ".")]
        $(#[$doc])*
        pub const $name: $t = $crate::declare!(@at $pos $(; $at)?);
        $crate::declare!(@view [self] [$($field)?] $name; [$($ctor)+]; [$($first),+];
            [$($crate::declare::Row::$ctor($first $($arg)*) $(.$meth($($marg)*))*),+]);
        $crate::declare!(@outer $t;
            ($name + $crate::declare::width(&[$($crate::declare::Row::$ctor($first $($arg)*) $(.$meth($($marg)*))*),+]) as $t);
            [$($acc)* $crate::declare::Group::Rows {
                at: $name as usize,
                rows: &[$($crate::declare::Row::$ctor($first $($arg)*) $(.$meth($($marg)*))*),+],
            },];
            $($rest)*);
    };

    // The number of positions.
    (@outer $t:ty; $pos:expr; [$($acc:tt)*]; $(#[$doc:meta])* $name:ident ; $($rest:tt)*) => {
        /// Number of positions (one past the last).
        $(#[$doc])*
        pub const $name: $t = $pos;
        $crate::declare!(@outer $t; $pos; [$($acc)*]; $($rest)*);
    };

    (@outer $t:ty; $pos:expr; [$($acc:tt)*];) => {
        /// The declarations, for [`fmu_core::declare::variables`].
        pub const TABLE: &[$crate::declare::Group] = &[$($acc)*];
    };

    // The groups of a block, at offsets within one instance.
    (@inner [$t:ty; $bname:ident; $bview:tt; $labels:expr; $per:ident; [$($acc:tt)*]; {$($rest:tt)*}];
        $pos:expr; [$($iacc:tt)*];
        $(#[$doc:meta])* $name:ident $(as $field:ident)? =
        $($ctor:ident ( $first:literal $($arg:tt)* ) $(. $meth:ident ( $($marg:tt)* ))*),+ ; $($irest:tt)*
    ) => {
        #[doc = concat!("Offset within a block of" $(, " `", $first, "`")+, ".")]
        $(#[$doc])*
        pub const $name: $t = $pos;
        $crate::declare!(@view $bview [$($field)?] $name; [$($ctor)+]; [$($first),+];
            [$($crate::declare::Row::$ctor($first $($arg)*) $(.$meth($($marg)*))*),+]);
        $crate::declare!(@inner [$t; $bname; $bview; $labels; $per; [$($acc)*]; {$($rest)*}];
            ($name + $crate::declare::width(&[$($crate::declare::Row::$ctor($first $($arg)*) $(.$meth($($marg)*))*),+]) as $t);
            [$($iacc)* $crate::declare::Group::Rows {
                at: $name as usize,
                rows: &[$($crate::declare::Row::$ctor($first $($arg)*) $(.$meth($($marg)*))*),+],
            },];
            $($irest)*);
    };

    (@inner [$t:ty; $bname:ident; $bview:tt; $labels:expr; $per:ident; [$($acc:tt)*]; {$($rest:tt)*}];
        $pos:expr; [$($iacc:tt)*];
    ) => {
        /// Positions per block instance.
        pub const $per: $t = $pos;
        $crate::declare!(@outer $t; ($bname + ($labels).count() as $t * $per);
            [$($acc)* $crate::declare::Group::Block {
                at: $bname as usize,
                labels: $labels,
                per: $per as usize,
                groups: &[$($iacc)*],
            },];
            $($rest)*);
    };

    // The view of one block instance: a module `$field` with its `View`/`ViewMut`, and the
    // method `$field(i)` of the table's views.
    (@block_view $field:ident; $name:ident; $per:ident) => {
        #[doc = concat!("Views of one instance of the `", stringify!($name), "` block.")]
        pub mod $field {
            /// Named, typed read access to one block instance.
            #[derive(Debug, Clone, Copy)]
            pub struct View<'a, T>(pub &'a [T]);

            /// Named write access to one block instance.
            #[derive(Debug)]
            pub struct ViewMut<'a, T>(pub &'a mut [T]);
        }

        impl<'a, T> View<'a, T> {
            #[doc = concat!("The `", stringify!($name), "` block of instance `i` (0-based).")]
            #[inline]
            pub fn $field(&self, i: usize) -> $field::View<'a, T> {
                let at = $name as usize + $per as usize * i;
                $field::View(&self.0[at..at + $per as usize])
            }
        }

        impl<T> ViewMut<'_, T> {
            #[doc = concat!("The `", stringify!($name), "` block of instance `i` (0-based).")]
            #[inline]
            pub fn $field(&mut self, i: usize) -> $field::ViewMut<'_, T> {
                let at = $name as usize + $per as usize * i;
                $field::ViewMut(&mut self.0[at..at + $per as usize])
            }
        }
    };

    // A group's view methods: none without `as`; a scalar for one `real` or `state` row; else an
    // array of the group's width.
    (@view $m:tt [] $($x:tt)*) => {};
    (@view [] [$field:ident] $($x:tt)*) => {
        compile_error!(concat!("`as ", stringify!($field), "` inside a block needs `as` on the block"));
    };
    (@view [$m:ident] [$field:ident] $name:ident; [$ctor:ident]; [$($first:literal),+]; $rows:tt) => {
        $crate::declare!(@view_scalar $ctor; $m; $field; $name; [$($first),+]; $rows);
    };
    (@view [$m:ident] [$field:ident] $name:ident; [$($ctor:ident)+]; [$($first:literal),+]; $rows:tt) => {
        $crate::declare!(@view_array $m; $field; $name; [$($first),+]; $rows);
    };
    (@view_scalar real; $($x:tt)*) => { $crate::declare!(@view_one $($x)*); };
    (@view_scalar state; $($x:tt)*) => { $crate::declare!(@view_one $($x)*); };
    (@view_scalar $other:ident; $($x:tt)*) => { $crate::declare!(@view_array $($x)*); };
    (@view_one $m:ident; $field:ident; $name:ident; [$($first:literal),+]; $rows:tt) => {
        impl<T: Copy> $m::View<'_, T> {
            #[doc = concat!("The value of" $(, " `", $first, "`")+, ".")]
            #[inline]
            pub fn $field(&self) -> T {
                self.0[$name as usize]
            }
        }

        impl<T> $m::ViewMut<'_, T> {
            #[doc = concat!("The value of" $(, " `", $first, "`")+, ", to write.")]
            #[inline]
            pub fn $field(&mut self) -> &mut T {
                &mut self.0[$name as usize]
            }
        }
    };
    (@view_array $m:ident; $field:ident; $name:ident; [$($first:literal),+]; $rows:tt) => {
        impl<T: Copy> $m::View<'_, T> {
            #[doc = concat!("The values of" $(, " `", $first, "`")+, ", in declaration order.")]
            #[inline]
            pub fn $field(&self) -> [T; $crate::declare::width(&$rows)] {
                let at = $name as usize;
                ::std::array::from_fn(|k| self.0[at + k])
            }
        }

        impl<T> $m::ViewMut<'_, T> {
            #[doc = concat!("The values of" $(, " `", $first, "`")+, ", in declaration order, to write.")]
            #[inline]
            pub fn $field(&mut self) -> &mut [T; $crate::declare::width(&$rows)] {
                let at = $name as usize;
                let slice = &mut self.0[at..at + $crate::declare::width(&$rows)];
                slice.try_into().expect("a group's positions are its width")
            }
        }
    };
}

/// Declares the value-reference bases of the inputs and outputs in the current module (a model's
/// `vr`): `INPUT_BASE`, `OUTPUT_BASE`, and `input(k)`, `output(k)`, the references of `u[k]`
/// and `y[k]`.
///
/// ```
/// mod vr {
///     fmu_core::value_references!(100, 200);
/// }
/// assert_eq!((vr::input(3), vr::output(0)), (103, 200));
/// ```
#[macro_export]
macro_rules! value_references {
    ($inputs:expr, $outputs:expr) => {
        /// Value reference of input `u[k]` is `INPUT_BASE + k`.
        pub const INPUT_BASE: u32 = $inputs;
        /// Value reference of output `y[k]` is `OUTPUT_BASE + k`.
        pub const OUTPUT_BASE: u32 = $outputs;

        /// Value reference of input `u[k]`.
        pub const fn input(k: usize) -> u32 {
            INPUT_BASE + k as u32
        }

        /// Value reference of output `y[k]`.
        pub const fn output(k: usize) -> u32 {
            OUTPUT_BASE + k as u32
        }
    };
}

#[cfg(test)]
mod tests;
