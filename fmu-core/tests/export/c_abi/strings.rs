//! String parameters through the C boundary: start values, `fmi2SetString` and
//! `fmi2GetString`, the values the model reads in `configure` (a label, a resource file named by
//! a relative path), refused arguments (null, not UTF-8, not a String), and String values in the
//! FMU state and its serialisation.

use super::*;

use fmu_core::params::Reader;
use fmu_core::{Parameters, Scalar};

/// `Named`: output `length` is the number of characters of `label`, output `content` the number
/// in the file `file` names (relative: in the FMU's resources; empty: 0).
struct Named {
    length: f64,
    content: f64,
}

mod named {
    pub mod vr {
        fmu_core::declare! { u32;
            LABEL = string("label", "abc", "Any text");
            FILE = string("file", "", "A file holding one number");
            SCALE = real("scale", "", "A Real beside the Strings").start(1.0);
        }
        fmu_core::value_references!(100, 200);
    }
    pub mod y {
        fmu_core::declare! { usize;
            LENGTH = real("length", "", "Characters of label");
            CONTENT = real("content", "", "The number in file");
            N;
        }
    }
}

impl fmu_core::StatelessModel for Named {
    const INFO: ModelInfo = ModelInfo {
        model_name: "Named",
        model_identifier: "Named",
        description: "String parameters",
        default_stop_time: 1.0,
        default_step_size: 0.1,
    };
    const TABLES: fmu_core::declare::Tables = fmu_core::declare::Tables {
        parameters: named::vr::TABLE,
        inputs: (named::vr::INPUT_BASE, &[]),
        outputs: (named::vr::OUTPUT_BASE, named::y::TABLE),
        states: &[],
    };

    fn configure(params: &dyn Parameters) -> Result<Self, fmu_core::params::ParameterError> {
        let p = Reader::new(params, named::vr::TABLE);
        let content = if p.string(named::vr::FILE).is_empty() {
            0.0
        } else {
            let path = p.resource_path(named::vr::FILE)?;
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            text.trim().parse().map_err(|_| format!("{}: not a number", path.display()))?
        };
        Ok(Named { length: p.string(named::vr::LABEL).chars().count() as f64, content })
    }

    fn outputs<D: Scalar>(&self, _t: D, _u: &[D], y: &mut [D]) {
        y[named::y::LENGTH] = D::from(self.length);
        y[named::y::CONTENT] = D::from(self.content);
    }
}

use fmu_core::ModelInfo;

const LENGTH: u32 = named::vr::OUTPUT_BASE + named::y::LENGTH as u32;
const CONTENT: u32 = named::vr::OUTPUT_BASE + named::y::CONTENT as u32;

impl<M: Model> Fmu<M> {
    /// `fmi2SetString` of raw C strings (null allowed).
    fn set_c_strings(&self, vrs: &[u32], values: &[*const c_char]) -> c_int {
        // SAFETY: live component; arrays of `vrs.len()` elements, each string NUL-terminated or null.
        unsafe { abi::set_string::<Instance<M>>(self.c, vrs.as_ptr(), vrs.len(), values.as_ptr()) }
    }

    fn set_strings(&self, vrs: &[u32], values: &[&str]) -> c_int {
        let owned: Vec<CString> = values.iter().map(|v| CString::new(*v).unwrap()).collect();
        self.set_c_strings(vrs, &owned.iter().map(|c| c.as_ptr()).collect::<Vec<_>>())
    }

    fn get_strings(&self, vrs: &[u32]) -> Vec<String> {
        let mut pointers = vec![null(); vrs.len()];
        // SAFETY: live component; arrays of `vrs.len()` elements.
        let status = unsafe { abi::get_string::<Instance<M>>(self.c, vrs.as_ptr(), vrs.len(), pointers.as_mut_ptr()) };
        assert_eq!(status, OK, "{:?}", self.messages());
        // SAFETY: the FMU returned NUL-terminated strings, valid until its next call.
        pointers.iter().map(|&p| unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string()).collect()
    }

    fn enter_initialization(&self) {
        // SAFETY: live component.
        unsafe {
            assert_eq!(abi::setup_experiment::<Instance<M>>(self.c, 0, 0.0, 0.0, 0, 0.0), OK);
            assert_eq!(abi::enter_initialization_mode::<Instance<M>>(self.c), OK, "{:?}", self.messages());
        }
    }
}

/// A fresh folder `<tmp>/fmu-core strings <pid> <test>/res ources` (spaces, percent-encoded in its
/// URI) holding `table.txt`; returns its URI.
fn resources_with_table(test: &str, content: &str) -> CString {
    let dir = std::env::temp_dir().join(format!("fmu-core strings {} {test}", std::process::id())).join("res ources");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("table.txt"), content).unwrap();
    let uri = format!("file://{}", dir.display()).replace(' ', "%20");
    CString::new(uri).unwrap()
}

fn named_at(resources: &CStr) -> Fmu<Named> {
    let (c, log) = instantiate_at::<Named>(Some("strings"), CO_SIMULATION, &fmu_core::guid::<Named>(), resources);
    assert!(!c.is_null(), "instantiate failed: {:?}", log.lock().unwrap());
    Fmu { c, log, _model: PhantomData }
}

#[test]
fn string_parameters_reach_the_model_and_name_resource_files() {
    let fmu = named_at(&resources_with_table("reach", " 4.25\n"));
    use named::vr::{FILE, LABEL};
    // "héllo": 5 characters, 6 bytes.
    assert_eq!(fmu.set_strings(&[LABEL, FILE], &["h\u{e9}llo", "table.txt"]), OK, "{:?}", fmu.messages());
    fmu.enter_initialization();
    assert_eq!(fmu.get_strings(&[FILE, LABEL]), ["table.txt", "h\u{e9}llo"]);
    assert_eq!(fmu.get_real(&[LENGTH, CONTENT]), [5.0, 4.25]);
    // The start values, as the model description declares them.
    let fresh = named_at(c"file:///tmp");
    fresh.enter_initialization();
    assert_eq!(fresh.get_strings(&[LABEL, FILE]), ["abc", ""]);
    assert_eq!(fresh.get_real(&[LENGTH, CONTENT]), [3.0, 0.0]);
}

#[test]
fn a_relative_file_without_a_file_resource_location_is_refused_by_name() {
    let fmu = named_at(c"http://example.com/resources");
    assert_eq!(fmu.set_strings(&[named::vr::FILE], &["table.txt"]), OK);
    // SAFETY: live component.
    unsafe {
        assert_eq!(abi::setup_experiment::<Instance<Named>>(fmu.c, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(abi::enter_initialization_mode::<Instance<Named>>(fmu.c), ERROR);
    }
    fmu.assert_logged(&["invalid parameters", "'file' = 'table.txt' is relative", "no file: resource location"]);
}

#[test]
fn null_and_non_utf8_strings_and_wrong_types_are_errors_with_a_message() {
    use named::vr::{LABEL, SCALE};
    let fmu = named_at(c"file:///tmp");
    assert_eq!(fmu.set_c_strings(&[LABEL], &[null()]), ERROR);
    fmu.assert_logged(&["fmi2SetString", "value 0 (value reference 0) is a null pointer"]);

    let fmu = named_at(c"file:///tmp");
    let latin1 = [b'c', 0xE9, 0];
    assert_eq!(fmu.set_c_strings(&[LABEL], &[latin1.as_ptr() as *const c_char]), ERROR);
    fmu.assert_logged(&["fmi2SetString", "value 0 (value reference 0) is not UTF-8"]);

    let fmu = named_at(c"file:///tmp");
    assert_eq!(fmu.set_strings(&[LABEL, SCALE], &["ok", "1"]), ERROR);
    fmu.assert_logged(&["fmi2SetString", "variable 'scale' (value reference 2) is not a String"]);
    // Every value is checked before any is written: the label is still its start value (read in
    // the state Error, where getters are allowed).
    assert_eq!(fmu.get_strings(&[LABEL]), ["abc"]);

    let fmu = named_at(c"file:///tmp");
    assert_eq!(fmu.set_strings(&[LABEL, 77], &["ok", "x"]), ERROR);
    fmu.assert_logged(&["fmi2SetString", "unknown value reference 77"]);
    // SAFETY: live component, null value array with n = 1.
    let status = unsafe { abi::set_string::<Instance<Named>>(fmu.c, [LABEL].as_ptr(), 1, null()) };
    assert_eq!(status, ERROR);
    // A fixed parameter after initialization.
    let fmu = named_at(c"file:///tmp");
    fmu.enter_initialization();
    // SAFETY: live component.
    assert_eq!(unsafe { abi::exit_initialization_mode::<Instance<Named>>(fmu.c) }, OK);
    assert_eq!(fmu.set_strings(&[LABEL], &["late"]), ERROR);
    fmu.assert_logged(&["variable 'label' (Parameter, Fixed) cannot be set in state StepComplete"]);
}

#[test]
fn string_values_are_part_of_the_fmu_state_and_its_serialisation() {
    use named::vr::LABEL;
    let fmu = named_at(c"file:///tmp");
    assert_eq!(fmu.set_strings(&[LABEL], &["before"]), OK);
    fmu.enter_initialization();
    let mut saved: FmuStatePtr = null_mut();
    let mut restored: FmuStatePtr = null_mut();
    let mut size = 0usize;
    // SAFETY: live component; `saved` and `restored` are states of this instance, freed below.
    unsafe {
        assert_eq!(abi::get_fmu_state::<Instance<Named>>(fmu.c, &mut saved), OK);
        assert_eq!(fmu.set_strings(&[LABEL], &["after, longer"]), OK);
        assert_eq!(fmu.get_strings(&[LABEL]), ["after, longer"]);
        assert_eq!(abi::set_fmu_state::<Instance<Named>>(fmu.c, saved), OK);
        assert_eq!(fmu.get_strings(&[LABEL]), ["before"]);
        assert_eq!(abi::serialized_fmu_state_size::<Instance<Named>>(fmu.c, saved, &mut size), OK);
        let mut bytes = vec![0 as c_char; size];
        assert_eq!(abi::serialize_fmu_state::<Instance<Named>>(fmu.c, saved, bytes.as_mut_ptr(), size), OK);
        assert_eq!(fmu.set_strings(&[LABEL], &["x"]), OK);
        assert_eq!(abi::deserialize_fmu_state::<Instance<Named>>(fmu.c, bytes.as_ptr(), size, &mut restored), OK);
        assert_eq!(abi::set_fmu_state::<Instance<Named>>(fmu.c, restored), OK);
        assert_eq!(fmu.get_strings(&[LABEL]), ["before"]);
        assert_eq!(abi::exit_initialization_mode::<Instance<Named>>(fmu.c), OK);
        assert_eq!(fmu.get_real(&[LENGTH]), [6.0]);
        assert_eq!(abi::free_fmu_state::<Instance<Named>>(fmu.c, &mut saved), OK);
        assert_eq!(abi::free_fmu_state::<Instance<Named>>(fmu.c, &mut restored), OK);
    }
}

#[test]
fn string_parameters_are_written_to_the_model_description() {
    let xml = fmu_core::model_description::<Named>();
    for expected in [
        r#"<ScalarVariable name="label" valueReference="0" causality="parameter" variability="fixed" initial="exact" description="Any text">
      <String start="abc"/>"#,
        r#"<ScalarVariable name="file" valueReference="1" causality="parameter" variability="fixed" initial="exact" description="A file holding one number">
      <String start=""/>"#,
    ] {
        assert!(xml.contains(expected), "{expected} not in {xml}");
    }
}
