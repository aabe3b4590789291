//! `export_fmu!` expands in a foreign crate and its `fmi2*` symbols, with their exact C
//! signatures, drive a full co-simulation run.

use crate::common;

use std::ffi::{CStr, CString, c_void};
use std::ptr::null;

use common::{MassSpringDamper, vr};
use fmu_core::abi::CallbackFunctions;

fmu_core::export_fmu!(MassSpringDamper);

use fmi2_exports as fmi;

#[test]
fn version_and_types_platform_symbols() {
    // SAFETY: both return pointers to static NUL-terminated strings.
    let (version, platform) =
        unsafe { (CStr::from_ptr(fmi::fmi2GetVersion()), CStr::from_ptr(fmi::fmi2GetTypesPlatform())) };
    assert_eq!(version.to_str().unwrap(), "2.0");
    assert_eq!(platform.to_str().unwrap(), "default");
}

#[test]
fn full_run_through_exported_symbols() {
    let callbacks = CallbackFunctions {
        logger: None,
        allocate_memory: None,
        free_memory: None,
        step_finished: None,
        component_environment: std::ptr::null_mut::<c_void>(),
    };
    let guid = CString::new(&*fmu_core::guid::<MassSpringDamper>()).unwrap();
    // SAFETY: valid strings and callbacks (no logger: messages are dropped); the component is
    // used only while live and freed once at the end.
    unsafe {
        let c = fmi::fmi2Instantiate(c"sym".as_ptr(), 1, guid.as_ptr(), null(), &callbacks, 0, 0);
        assert!(!c.is_null());
        assert_eq!(fmi::fmi2SetupExperiment(c, 0, 0.0, 0.0, 1, 1.0), 0);
        assert_eq!(fmi::fmi2EnterInitializationMode(c), 0);
        assert_eq!(fmi::fmi2ExitInitializationMode(c), 0);
        assert_eq!(fmi::fmi2SetReal(c, [vr::F].as_ptr(), 1, [1.0].as_ptr()), 0);
        for i in 0..10 {
            assert_eq!(fmi::fmi2DoStep(c, f64::from(i) * 0.1, 0.1, 1), 0);
        }
        let mut y = [0.0; 3];
        assert_eq!(fmi::fmi2GetReal(c, [vr::X, vr::V, vr::A].as_ptr(), 3, y.as_mut_ptr()), 0);
        assert!(y.iter().all(|v| v.is_finite()) && y[0] != 0.5, "{y:?}");
        let mut t = 0.0;
        assert_eq!(fmi::fmi2GetRealStatus(c, 2, &mut t), 0);
        assert!((t - 1.0).abs() < 1e-12);
        assert_eq!(fmi::fmi2CancelStep(c), 3);
        assert_eq!(fmi::fmi2Reset(c), 0);
        fmi::fmi2FreeInstance(c);
    }
}
