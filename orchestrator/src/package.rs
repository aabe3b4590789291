//! `orchestrator package`: writes our FMUs as `.fmu` archives.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// One of our FMUs: its identifier and how to generate its description and documentation.
pub struct OurFmu {
    /// `modelIdentifier`; the shared library is `lib<identifier>.so` in the build directory.
    pub identifier: &'static str,
    /// Generates `modelDescription.xml`.
    pub model_description: fn() -> std::sync::Arc<str>,
    /// Generates `documentation/index.html`.
    pub documentation: fn() -> String,
}

/// Every FMU this workspace builds.
pub fn our_fmus() -> Vec<OurFmu> {
    use fmu_aero::Aero;
    use fmu_controls::Controls;
    use fmu_core::description::{documentation_html, model_description};
    use fmu_fuselage::Fuselage;
    use fmu_rotor::Rotor;
    vec![
        OurFmu {
            identifier: "Fuselage",
            model_description: model_description::<Fuselage>,
            documentation: documentation_html::<Fuselage>,
        },
        OurFmu {
            identifier: "Rotor",
            model_description: model_description::<Rotor>,
            documentation: documentation_html::<Rotor>,
        },
        OurFmu {
            identifier: "Aero",
            model_description: model_description::<Aero>,
            documentation: documentation_html::<Aero>,
        },
        OurFmu {
            identifier: "Controls",
            model_description: model_description::<Controls>,
            documentation: documentation_html::<Controls>,
        },
    ]
}

/// The directory cargo put this executable in, where the FMU libraries are built too.
fn default_library_dir() -> Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot locate the orchestrator executable")?;
    let dir = exe.parent().context("executable has no parent directory")?;
    // `cargo test` runs binaries from target/<profile>/deps.
    Ok(if dir.ends_with("deps") { dir.parent().unwrap_or(dir).to_path_buf() } else { dir.to_path_buf() })
}

/// Writes `out/<identifier>.fmu` for each of our FMUs; returns the paths written.
pub fn package_all(out: &Path, library_dir: Option<&Path>) -> Result<Vec<PathBuf>> {
    let library_dir = match library_dir {
        Some(d) => d.to_path_buf(),
        None => default_library_dir()?,
    };
    std::fs::create_dir_all(out).with_context(|| format!("cannot create output directory {}", out.display()))?;
    let mut written = Vec::new();
    for fmu in our_fmus() {
        let library = library_dir.join(format!("lib{}.so", fmu.identifier));
        if !library.is_file() {
            bail!(
                "shared library {} not found: build the FMU libraries first with `cargo build --release --workspace` \
                 (or pass --lib-dir)",
                library.display()
            );
        }
        let target = out.join(format!("{}.fmu", fmu.identifier));
        let documentation = (fmu.documentation)();
        fmu_core::package::write_fmu(
            &target,
            &(fmu.model_description)(),
            fmu.identifier,
            &library,
            &[("index.html", &documentation)],
        )
        .with_context(|| format!("cannot write {}", target.display()))?;
        written.push(target);
    }
    Ok(written)
}
