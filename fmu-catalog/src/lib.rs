//! The list of our FMUs, the only one: their model descriptions and documentation, packaging as
//! `.fmu` archives (`orchestrator package`), and [`Catalog`], which resolves a system
//! description's `"model"` names for the `cosim` library (packaging on first use).
#![deny(unsafe_code)]

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use cosim::system::{CatalogError, FMU_DIR_VARIABLE, ModelCatalog, fmu_in_folder};

/// One of our FMUs: its identifier and how to generate its description and documentation.
pub struct OurFmu {
    /// `modelIdentifier`; the shared library is `lib<identifier>.so` in the build directory.
    pub identifier: &'static str,
    /// Generates `modelDescription.xml`.
    pub model_description: fn() -> std::sync::Arc<str>,
    /// Generates `documentation/index.html`.
    pub documentation: fn() -> String,
    /// Generates the variable reference `docs/variables/<identifier>.md`.
    pub variables_markdown: fn() -> String,
}

impl OurFmu {
    /// The entry of model `M`, named by its `modelIdentifier`.
    fn of<M: fmu_core::Model>() -> Self {
        use fmu_core::description::model_description;
        use fmu_tooling::{documentation_html, variables_markdown};
        OurFmu {
            identifier: M::INFO.model_identifier,
            model_description: model_description::<M>,
            documentation: documentation_html::<M>,
            variables_markdown: variables_markdown::<M>,
        }
    }
}

/// Every FMU this workspace builds.
pub fn our_fmus() -> Vec<OurFmu> {
    vec![
        OurFmu::of::<fmu_fuselage::Fuselage>(),
        OurFmu::of::<fmu_rotor::Rotor>(),
        OurFmu::of::<fmu_aero::Aero>(),
        OurFmu::of::<fmu_controls::Controls>(),
    ]
}

/// The model identifiers of [`our_fmus`], the names a system description's `model` accepts.
pub fn our_models() -> Vec<&'static str> {
    our_fmus().iter().map(|f| f.identifier).collect()
}

/// The `.fmu` file of our FMU `model` (one of [`our_models`]): `$ROTORCRAFT_FMU_DIR/<model>.fmu`
/// when that variable is set; otherwise `fmus/<model>.fmu` beside the built libraries (the
/// orchestrator's own folder, `target/release/`), packaged there on first use and again
/// whenever the library is newer than the archive. Safe against concurrent runs: an archive is
/// written under a unique name and renamed into place.
pub fn our_fmu_file(model: &str) -> Result<PathBuf> {
    let fmu = our_fmus()
        .into_iter()
        .find(|f| f.identifier == model)
        .with_context(|| format!("'{model}' is not one of our FMUs ({})", our_models().join(", ")))?;
    if let Some(dir) = std::env::var_os(FMU_DIR_VARIABLE) {
        return Ok(fmu_in_folder(Path::new(&dir), model)?);
    }
    let library_dir = default_library_dir()?;
    let library = library_file(&library_dir, model)?;
    let cache = library_dir.join("fmus");
    let target = cache.join(format!("{model}.fmu"));
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let fresh = matches!((modified(&target), modified(&library)), (Some(a), Some(l)) if a >= l);
    if !fresh {
        std::fs::create_dir_all(&cache).with_context(|| format!("cannot create the FMU cache {}", cache.display()))?;
        let partial = cache.join(format!(".{model}.{}.fmu.partial", std::process::id()));
        write_one(&fmu, &library, &partial)?;
        std::fs::rename(&partial, &target).with_context(|| format!("cannot move {} into place", target.display()))?;
    }
    Ok(target)
}

/// `libRotorcraftSystem.so` beside the orchestrator, the binary of system FMUs
/// ([`fmu_system`]), or `library_dir/libRotorcraftSystem.so` if given.
pub fn system_library(library_dir: Option<&Path>) -> Result<PathBuf> {
    let dir = match library_dir {
        Some(d) => d.to_path_buf(),
        None => default_library_dir()?,
    };
    library_file(&dir, fmu_system::LIBRARY_NAME)
}

/// `library_dir/lib<model>.so`, or an error that says how to build it.
fn library_file(library_dir: &Path, model: &str) -> Result<PathBuf> {
    let library = library_dir.join(format!("lib{model}.so"));
    if !library.is_file() {
        bail!(
            "shared library {} not found: build the FMU libraries first with `cargo build --release --workspace` \
             (or pass --lib-dir, or set {FMU_DIR_VARIABLE} to a folder of packaged FMUs)",
            library.display()
        );
    }
    Ok(library)
}

/// Packages `fmu` with its built `library` into `target`.
fn write_one(fmu: &OurFmu, library: &Path, target: &Path) -> Result<()> {
    let documentation = (fmu.documentation)();
    fmu_tooling::write_fmu(
        target,
        &(fmu.model_description)(),
        fmu.identifier,
        library,
        &[("documentation/index.html", documentation.as_bytes())],
    )
    .with_context(|| format!("cannot write {}", target.display()))
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
        let library = library_file(&library_dir, fmu.identifier)?;
        let target = out.join(format!("{}.fmu", fmu.identifier));
        write_one(&fmu, &library, &target)?;
        written.push(target);
    }
    Ok(written)
}

/// Our FMUs as the `cosim` library's [`ModelCatalog`]: [`our_models`], found by [`our_fmu_file`].
pub struct Catalog;

impl ModelCatalog for Catalog {
    fn models(&self) -> Result<Vec<String>, CatalogError> {
        Ok(our_models().into_iter().map(str::to_string).collect())
    }

    fn fmu_file(&self, model: &str) -> Result<PathBuf, CatalogError> {
        our_fmu_file(model).map_err(|e| CatalogError::Other(format!("{e:#}")))
    }
}

/// Installs [`Catalog`] for this process ([`cosim::system::install_model_catalog`]).
pub fn install() {
    cosim::system::install_model_catalog(&Catalog);
}
