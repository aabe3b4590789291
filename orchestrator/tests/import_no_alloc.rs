//! The stepping path of the import layer (`set_real`, `do_step`, `get_real`,
//! `get_directional_derivative`, `get_fmu_state_into`, `set_fmu_state`) does not allocate: a
//! counting global allocator sees no allocation on the calling thread while `Fuselage.fmu` steps.
//! (The FMU's own allocations happen in its binary, which has its own allocator.)
//! A test binary of its own: a `#[global_allocator]` can exist once per binary, and the grouped
//! binaries (`tests/import/`, ...) must not run on a counting allocator.

mod import_support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

use cosim::import::{Fmu, StepResult};
use import_support::{Collector, packaged_fmu};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator unchanged; only counts (a const thread-local Cell,
// which itself never allocates).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn stepping_path_does_not_allocate() {
    let fmu = Fmu::open(&packaged_fmu("Fuselage")).unwrap();
    let md = fmu.model_description();
    let vr = |n: &str| md.variable(n).unwrap().value_reference;
    let inputs = [vr("hub.F.x"), vr("hub.F.z"), vr("hub.M.y")];
    let outputs = [vr("z"), vr("w"), vr("theta"), vr("hub.acc.z")];
    let (acc_z, f_z) = (vr("hub.acc.z"), vr("hub.F.z"));
    let mut slave = fmu.instantiate("quiet", Arc::new(Collector::default())).unwrap();
    slave.setup_experiment(None, 0.0, None).unwrap();
    slave.enter_initialization_mode().unwrap();
    slave.exit_initialization_mode().unwrap();
    let mut state = slave.get_fmu_state().unwrap();
    let mut values = [0.0; 4];
    let mut jacobian = [0.0];

    let before = allocations();
    let h = 0.01;
    for k in 0..200 {
        let t = k as f64 * h;
        slave.set_real(&inputs, &[100.0, -20_000.0, 50.0]).unwrap();
        slave.get_directional_derivative(&[acc_z], &[f_z], &[1.0], &mut jacobian).unwrap();
        if k % 50 == 0 {
            slave.get_fmu_state_into(&mut state).unwrap();
        }
        assert_eq!(slave.do_step(t, h, false).unwrap(), StepResult::Complete);
        slave.get_real(&outputs, &mut values).unwrap();
    }
    slave.set_fmu_state(&state).unwrap();
    let during = allocations() - before;
    assert_eq!(during, 0, "{during} allocations on the stepping path");
    assert!(values.iter().all(|v| v.is_finite()));
}
