//! Compiles the C shim behind the importer's `fmi2CallbackLogger` (a C-variadic function, which
//! Rust cannot define). Needs only a C compiler (`cc`, gcc on Linux).

fn main() {
    println!("cargo::rerun-if-changed=src/import/logger.c");
    cc::Build::new().file("src/import/logger.c").warnings(true).extra_warnings(true).compile("rotorcraft_fmi2_logger");
}
