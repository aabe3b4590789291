//! Links the system FMU's library with `-z nodelete`: the master's code leaves thread-exit
//! destructors (Rust thread-locals) on the importer's worker threads, so the library must stay
//! mapped after `dlclose` until those threads end. libcosim, for one, frees the FMU and unloads
//! its library before its thread pool exits.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
}
