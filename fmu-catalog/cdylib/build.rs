//! Build script of every one of our FMU shared libraries (`fmu-*/fmu/`, `build` in their
//! `Cargo.toml`): links them without debug information, as `strip = "debuginfo"` in a release
//! profile would (a tenth of the size, so a tenth of the unpacking at every run), without a
//! profile entry per library in the workspace `Cargo.toml`.

fn main() {
    if std::env::var("PROFILE").as_deref() == Ok("release") {
        println!("cargo::rustc-link-arg-cdylib=-Wl,--strip-debug");
    }
}
