//! The stepping path allocates nothing: after initialization, Newton-coupled macro steps of the
//! two-mass system (with its algebraic loop and Jacobians) make no heap allocation. Counted with
//! a global allocator wrapper (this test binary only).
//! A test binary of its own: a `#[global_allocator]` can exist once per binary, and this one
//! counts the allocations of every thread, so no other test may run beside it.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn newton_steps_do_not_allocate() {
    let dir = test_fmus::two_mass::packaged();
    let json = r#"{
      "fmus": { "body": { "path": "TwoMassBody.fmu" }, "load": { "path": "TwoMassLoad.fmu" } },
      "connections": ["body.x -> load.x1", "body.v -> load.v1", "body.a -> load.a1", "load.F -> body.F"],
      "experiment": { "stop": 1.0, "step": 0.01 },
      "master": { "extrapolate_inputs": true }
    }"#;
    let mut master = common::master(common::system(json, dir.path())).unwrap();
    master.initialize().unwrap();
    // Warm up: the first steps may size scratch buffers.
    for _ in 0..3 {
        master.step(0.01).unwrap();
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    for _ in 0..50 {
        master.step(0.01).unwrap();
    }
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    eprintln!("allocations in 50 Newton-coupled steps: {allocations}");
    assert!(master.stats().newton_iterations_total > 0, "the loop was iterated");
    assert_eq!(allocations, 0);
}
