//! The list of our FMUs, the only one ([`visit_our_models`]), and what is derived from it: their
//! model descriptions and documentation, the committed files generated from them
//! ([`generated_files`]), packaging as `.fmu` archives (`orchestrator package`), and [`Catalog`],
//! which resolves a system description's `"model"` names for the `cosim` library (packaging on
//! first use). The monolithic reference's registry visits the same list. `cdylib/` holds the one
//! source and build script of every FMU's shared library (`fmu-*/fmu/`). Adding an FMU:
//! `docs/extending.md`.
#![deny(unsafe_code)]

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use cosim::system::{CatalogError, FMU_DIR_VARIABLE, ModelCatalog, SystemContext, fmu_in_folder};

/// One of our FMUs: its identifier and how to generate its description and documentation.
pub struct OurFmu {
    /// `modelIdentifier`; the shared library is `lib<identifier>.so` in the build directory.
    pub identifier: &'static str,
    /// One-line description (the model description's `description`).
    pub description: &'static str,
    /// Generates `modelDescription.xml`.
    pub model_description: fn() -> std::sync::Arc<str>,
    /// Generates `documentation/index.html`.
    pub documentation: fn() -> String,
    /// Generates the variable reference `docs/variables/<identifier>.md`.
    pub variables_markdown: fn() -> String,
}

/// What to do with each of our models, given its type; [`visit_our_models`] calls it once per
/// FMU. Everything that needs "all our models" (packaging, descriptions, docs, the monolithic
/// reference's registry) is such a visitor, so the list itself is written once.
pub trait ModelVisitor {
    /// Called with one of our model types.
    fn visit<M: fmu_core::Model>(&mut self);
}

/// The list of our FMUs, the only one: calls `visitor` with each model type, in this order.
/// A new FMU is one line here (and its crate a dependency in this crate's `Cargo.toml`).
pub fn visit_our_models(visitor: &mut impl ModelVisitor) {
    visitor.visit::<fmu_fuselage::Fuselage>();
    visitor.visit::<fmu_rotor::Rotor>();
    visitor.visit::<fmu_aero::Aero>();
    visitor.visit::<fmu_controls::Controls>();
    visitor.visit::<fmu_atmosphere::Atmosphere>();
    visitor.visit::<fmu_aero::AeroDynamicStall>();

    visitor.visit::<fmu_pilot::Pilot>();
    visitor.visit::<fmu_fcs::Fcs>();
    visitor.visit::<fmu_rotor_elastic::RotorElastic>();
    visitor.visit::<fmu_aero_stations::AeroStations>();
}

impl ModelVisitor for Vec<OurFmu> {
    fn visit<M: fmu_core::Model>(&mut self) {
        use fmu_core::description::model_description;
        use fmu_tooling::{documentation_html, variables_markdown};
        self.push(OurFmu {
            identifier: M::INFO.model_identifier,
            description: M::INFO.description,
            model_description: model_description::<M>,
            documentation: documentation_html::<M>,
            variables_markdown: variables_markdown::<M>,
        });
    }
}

/// Every FMU this workspace builds, in the order of [`visit_our_models`].
pub fn our_fmus() -> Vec<OurFmu> {
    let mut fmus = Vec::new();
    visit_our_models(&mut fmus);
    fmus
}

/// The command that rewrites [`generated_files`] (the test that checks them, in update mode).
pub const REGENERATE_COMMAND: &str =
    "UPDATE_MODEL_DESCRIPTIONS=1 cargo test --release -p orchestrator --test model_descriptions";

/// The committed files generated from [`our_fmus`], as `(path relative to the workspace root,
/// contents)`: each FMU's `modelDescription/<id>.xml` and `docs/variables/<id>.md`, and the index
/// of our FMUs `docs/variables/README.md`. Rewritten by [`REGENERATE_COMMAND`], which fails
/// without it when a committed file differs.
pub fn generated_files() -> Vec<(String, String)> {
    let fmus = our_fmus();
    let mut files = Vec::new();
    for fmu in &fmus {
        files.push((format!("modelDescription/{}.xml", fmu.identifier), (fmu.model_description)().to_string()));
        files.push((format!("docs/variables/{}.md", fmu.identifier), (fmu.variables_markdown)()));
    }
    files.push(("docs/variables/README.md".to_string(), fmus_index(&fmus)));
    files
}

/// The index of our FMUs (`docs/variables/README.md`): one row per FMU, with its description,
/// variable reference and committed model description.
fn fmus_index(fmus: &[OurFmu]) -> String {
    let mut md = format!(
        "# Our FMUs\n\nThe FMUs this workspace builds, in the order of `fmu_catalog::visit_our_models`, the one \
         list of them. Generated from the code (`{REGENERATE_COMMAND}`); do not edit.\n\n\
         | FMU | what it is | variables | model description |\n|---|---|---|---|\n"
    );
    for fmu in fmus {
        let id = fmu.identifier;
        md.push_str(&format!(
            "| {id} | {} | [{id}.md]({id}.md) | [{id}.xml](../../modelDescription/{id}.xml) |\n",
            fmu.description.replace('|', "\\|")
        ));
    }
    md
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

/// The files model `identifier` ships in its archive's `resources/` (path in the archive,
/// contents), beside its model description and documentation.
fn shipped_resources(identifier: &str) -> &'static [(&'static str, &'static [u8])] {
    match identifier {
        "Aero" | "AeroDynamicStall" => fmu_aero::RESOURCES,
        "Fuselage" => fmu_fuselage::RESOURCES,
        "RotorElastic" => fmu_rotor_elastic::RESOURCES,
        _ => &[],
    }
}

/// Packages `fmu` with its built `library` into `target`.
fn write_one(fmu: &OurFmu, library: &Path, target: &Path) -> Result<()> {
    let documentation = (fmu.documentation)();
    let mut files: Vec<(&str, &[u8])> = vec![("documentation/index.html", documentation.as_bytes())];
    files.extend_from_slice(shipped_resources(fmu.identifier));
    fmu_tooling::write_fmu(target, &(fmu.model_description)(), fmu.identifier, library, &files)
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

/// The context in which system descriptions name our FMUs by `"model"` ([`Catalog`]): what a
/// program that links our models passes to `SystemDescription::from_file` and `from_str`.
pub fn context() -> SystemContext {
    SystemContext::new(Catalog)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `[lib] name` of a shared-library crate's `Cargo.toml` (the `lib<name>.so` it builds).
    fn library_name(manifest: &str) -> Option<&str> {
        let lib = manifest.split("\n[").find(|section| section.starts_with("lib]"))?;
        let line = lib.lines().find(|l| l.starts_with("name = "))?;
        Some(line.trim_start_matches("name = ").trim_matches('"'))
    }

    #[test]
    fn the_list_names_every_fmu_library_of_the_workspace_and_nothing_else() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut built = Vec::new();
        for entry in std::fs::read_dir(&root).unwrap() {
            let folder = entry.unwrap().path();
            let manifest = folder.join("fmu/Cargo.toml");
            let is_model = folder.file_name().is_some_and(|n| n.to_string_lossy().starts_with("fmu-"));
            // A model's library is built from the shared source; the system FMU's is not a model.
            let text = std::fs::read_to_string(&manifest).ok().filter(|t| t.contains("fmu-catalog/cdylib/lib.rs"));
            if let (true, Some(text)) = (is_model, text) {
                let name = library_name(&text).unwrap_or_else(|| panic!("{}: no [lib] name", manifest.display()));
                built.push(name.to_string());
            }
        }
        let mut listed: Vec<String> = our_models().into_iter().map(str::to_string).collect();
        listed.sort_unstable();
        built.sort_unstable();
        assert_eq!(listed, built, "visit_our_models and the fmu-*/fmu/ libraries differ");
    }

    #[test]
    fn generated_files_are_each_fmus_description_and_reference_and_their_index() {
        let files = generated_files();
        let index = &files.last().unwrap().1;
        for fmu in our_fmus() {
            let id = fmu.identifier;
            let xml = files.iter().find(|(path, _)| *path == format!("modelDescription/{id}.xml")).unwrap();
            assert!(xml.1.contains(&format!("modelIdentifier=\"{id}\"")), "{id}");
            let md = files.iter().find(|(path, _)| *path == format!("docs/variables/{id}.md")).unwrap();
            assert!(md.1.starts_with(&format!("# {id} ")), "{id}");
            assert!(index.contains(&format!("| {id} | ")) && index.contains(&format!("]({id}.md)")), "{id} in {index}");
        }
        assert_eq!(files.len(), 2 * our_fmus().len() + 1);
        assert_eq!(files.last().unwrap().0, "docs/variables/README.md");
    }
}
