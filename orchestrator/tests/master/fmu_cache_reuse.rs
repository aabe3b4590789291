//! `FmuCache::keep_on_this_thread` (what a sweep worker does): the caches made after it on the
//! thread share one loaded FMU; before it, and on other threads, each cache loads its own.

use std::sync::Arc;

use cosim::master::FmuCache;

#[test]
fn kept_fmus_are_loaded_once_per_thread() {
    let path = crate::common::our_fmu("Fuselage");
    let open = |path: &std::path::Path| FmuCache::default().open(path).unwrap();
    std::thread::spawn(move || {
        let (first, second) = (open(&path), open(&path));
        assert!(!Arc::ptr_eq(&first, &second), "not kept: each cache loads the FMU");
        FmuCache::keep_on_this_thread();
        let (third, fourth) = (open(&path), open(&path));
        assert!(Arc::ptr_eq(&third, &fourth), "kept: the second cache has the first one's FMU");
        let elsewhere = std::thread::spawn(move || open(&path)).join().unwrap();
        assert!(!Arc::ptr_eq(&third, &elsewhere), "another thread keeps nothing");
    })
    .join()
    .unwrap();
}
