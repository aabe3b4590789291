//! `TextParameters`: a test FMU whose String parameters change its outputs, for the String
//! parameters of `fmu-core` (model description, `fmi2SetString`/`fmi2GetString`, FMU state,
//! the resources folder) as importers see them: our `cosim`, FMPy and the FMU Compliance
//! Checker.
//!
//! One state `x`, `x' = rate`, from `x(t0) = 0`: `x(t) = rate (t - t0)`, with `rate` parsed from
//! its String parameter. The outputs `label_length` (the number of characters of `label`) and
//! `table_value` (the number in the file `table_file` names, resolved against the FMU's
//! `resources` folder when relative) are constant.

use fmu_core::declare::Tables;
use fmu_core::params::{ParameterError, Reader};
use fmu_core::{Model, ModelInfo, Parameters, Scalar};

/// The declarations of [`TextParameters`]: parameters from value reference 0, outputs from 200.
pub mod layout {
    /// Value references of the parameters, and the bases of the input and output references.
    pub mod vr {
        fmu_core::declare! { u32;
            LABEL = string("label", "rotor", "Any text; output label_length is its number of characters");
            RATE = string("rate", "2.5", "Growth rate of x as decimal text, m/s (a finite number)");
            TABLE_FILE = string("table_file", "",
                "File holding one number, output table_value; relative to the FMU's resources folder; empty: 0");
            TOLERANCE = tolerance("tolerance", 1e-9);
        }
        fmu_core::value_references!(100, 200);
    }

    /// Indices into the output vector `y`.
    pub mod y {
        fmu_core::declare! { usize;
            X = real("x", "m", "x = rate (t - t0), m");
            LABEL_LENGTH = real("label_length", "", "Number of characters (Unicode scalar values) of label");
            TABLE_VALUE = real("table_value", "", "The number in the file table_file names (0 when it is empty)");
            N;
        }
    }

    /// The state `x`.
    pub mod x {
        fmu_core::declare! { usize;
            X = state("x", "m", "m/s", 1.0, "x, growing at rate, m");
            N;
        }
    }

    /// The tables of [`crate::text::TextParameters`]: no inputs.
    pub const TABLES: fmu_core::declare::Tables = fmu_core::declare::Tables {
        parameters: vr::TABLE,
        inputs: (vr::INPUT_BASE, &[]),
        outputs: (vr::OUTPUT_BASE, y::TABLE),
        states: x::TABLE,
    };
}

use layout::{vr, x, y};

/// The test model: what its String parameters say, parsed.
pub struct TextParameters {
    rate: f64,
    label_length: f64,
    table_value: f64,
    tolerance: f64,
}

/// The number `text` holds, finite, or an error naming `what`.
fn parse_number(what: &str, text: &str) -> Result<f64, ParameterError> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("{what} is not a finite number: '{text}'").into()),
    }
}

impl Model for TextParameters {
    const INFO: ModelInfo = ModelInfo {
        model_name: "TextParameters",
        model_identifier: "TextParameters",
        description: "Test FMU: String parameters (a label, a number as text, a resource file) that set its outputs",
        default_stop_time: 1.0,
        default_step_size: 0.1,
    };

    const TABLES: Tables = layout::TABLES;

    fmu_core::no_work!();

    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Reader::new(params, vr::TABLE);
        let table_value = if p.string(vr::TABLE_FILE).is_empty() {
            0.0
        } else {
            let path = p.resource_path(vr::TABLE_FILE)?;
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("parameter 'table_file': cannot read {}: {e}", path.display()))?;
            parse_number(&format!("the content of {}", path.display()), &text)?
        };
        Ok(TextParameters {
            rate: parse_number("parameter 'rate'", p.string(vr::RATE))?,
            label_length: p.string(vr::LABEL).chars().count() as f64,
            table_value,
            tolerance: p.real(vr::TOLERANCE)?,
        })
    }

    fn n_states(&self) -> usize {
        x::N
    }

    fn initial_state(&self, x: &mut [f64]) {
        x[x::X] = 0.0;
    }

    fn derivatives<D: Scalar>(&self, _work: &mut (), _t: D, _x: &[D], _u: &[D], dx: &mut [D]) {
        dx[x::X] = D::from(self.rate);
    }

    fn outputs<D: Scalar>(&self, _work: &mut (), _t: D, x: &[D], _u: &[D], ys: &mut [D]) {
        ys[y::X] = x[x::X];
        ys[y::LABEL_LENGTH] = D::from(self.label_length);
        ys[y::TABLE_VALUE] = D::from(self.table_value);
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tolerance, self.tolerance)
    }
}

/// The file `TextParameters.fmu` carries in its `resources` folder, and the number it holds.
pub const RESOURCE_TABLE: (&str, f64) = ("table.txt", 7.5);

/// Packages `TextParameters.fmu` into `dir` from its built shared library, with
/// `resources/table.txt` holding `7.5` ([`RESOURCE_TABLE`]).
pub fn package_into(dir: &std::path::Path) -> std::path::PathBuf {
    let id = TextParameters::INFO.model_identifier;
    let library = crate::fixtures::library_dir().join(format!("lib{id}.so"));
    assert!(library.is_file(), "{} is missing: build the workspace first", library.display());
    let out = dir.join(format!("{id}.fmu"));
    let resource = format!("resources/{}", RESOURCE_TABLE.0);
    let content = format!("{}\n", RESOURCE_TABLE.1);
    let files: [(&str, &[u8]); 1] = [(resource.as_str(), content.as_bytes())];
    fmu_tooling::write_fmu(&out, &fmu_core::model_description::<TextParameters>(), id, &library, &files)
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
    out
}
