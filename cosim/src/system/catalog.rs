//! Where the `"model": NAME` entries of a system description are found. The library knows no
//! model of its own: a program that links our models passes their catalog in the
//! [`SystemContext`] it reads descriptions with (the `orchestrator` binary passes
//! `fmu_catalog::context()`, whose catalog packages the built FMUs on first use). Without one, our
//! FMUs are the `.fmu` files of the folder named by `$ROTORCRAFT_FMU_DIR` ([`FolderCatalog`], the
//! [`SystemContext::default`]).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Environment variable naming a folder of our packaged FMUs (`<model>.fmu`).
pub const FMU_DIR_VARIABLE: &str = "ROTORCRAFT_FMU_DIR";

/// The names a system description's `"model"` accepts and the `.fmu` file of each.
pub trait ModelCatalog: Send + Sync {
    /// The model identifiers that `"model"` accepts, or why none can be listed.
    fn models(&self) -> Result<Vec<String>, CatalogError>;
    /// The `.fmu` file of `model`, one of [`ModelCatalog::models`].
    fn fmu_file(&self, model: &str) -> Result<PathBuf, CatalogError>;
}

/// Why a [`ModelCatalog`] cannot list its models or give a model's `.fmu` file.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// [`FolderCatalog`] without `$ROTORCRAFT_FMU_DIR`.
    #[error(
        "our FMUs are not known to this program: set {FMU_DIR_VARIABLE} to a folder of packaged FMUs \
         (`orchestrator package --out DIR`), or name the FMU by its 'path'"
    )]
    NoFolder,
    /// The folder of `$ROTORCRAFT_FMU_DIR` cannot be read.
    #[error("cannot list {FMU_DIR_VARIABLE} = {}: {source}", folder.display())]
    CannotList {
        /// The folder.
        folder: PathBuf,
        /// The reason.
        source: std::io::Error,
    },
    /// `folder/<model>.fmu` is not there ([`fmu_in_folder`]).
    #[error(
        "{} not found ({FMU_DIR_VARIABLE} is set): write our FMUs there with `orchestrator package --out {}`, \
         or unset {FMU_DIR_VARIABLE}",
        path.display(),
        folder.display()
    )]
    NotInFolder {
        /// The file looked for.
        path: PathBuf,
        /// The folder of `$ROTORCRAFT_FMU_DIR`.
        folder: PathBuf,
    },
    /// Another catalog's own reason, as text (e.g. `fmu_catalog::Catalog` could not package the FMU).
    #[error("{0}")]
    Other(String),
}

/// What reading a system description needs from the program around it: the catalog its
/// `"model"` names are found in. Given to [`SystemDescription::from_file`] and
/// [`SystemDescription::from_str`] and kept by the description (as its `base_dir` is), so that
/// [`SystemDescription::fmu_file`] and [`SystemDescription::resolve`] of it and of its clones use
/// the same catalog.
///
/// [`SystemDescription::from_file`]: super::SystemDescription::from_file
/// [`SystemDescription::from_str`]: super::SystemDescription::from_str
/// [`SystemDescription::fmu_file`]: super::SystemDescription::fmu_file
/// [`SystemDescription::resolve`]: super::SystemDescription::resolve
#[derive(Clone)]
pub struct SystemContext {
    catalog: Arc<dyn ModelCatalog>,
    sections: Arc<[String]>,
}

impl SystemContext {
    /// A context whose `"model"` names are those of `catalog`, with no application sections.
    pub fn new(catalog: impl ModelCatalog + 'static) -> Self {
        Self { catalog: Arc::new(catalog), sections: Arc::new([]) }
    }

    /// The same context, also keeping the application's top-level sections `sections` of a
    /// description (such as a program's own settings) instead of refusing them as unknown.
    pub fn with_sections(mut self, sections: &[&str]) -> Self {
        self.sections = self.sections.iter().cloned().chain(sections.iter().map(|s| s.to_string())).collect();
        self
    }

    /// The catalog of `"model"` names.
    pub fn catalog(&self) -> &dyn ModelCatalog {
        self.catalog.as_ref()
    }

    /// The application's top-level sections a description may have ([`SystemContext::with_sections`]).
    pub fn sections(&self) -> &[String] {
        &self.sections
    }
}

/// Our FMUs from the folder `$ROTORCRAFT_FMU_DIR` ([`FolderCatalog`]): for programs that do not
/// link our models.
impl Default for SystemContext {
    fn default() -> Self {
        Self::new(FolderCatalog)
    }
}

impl fmt::Debug for SystemContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SystemContext").finish_non_exhaustive()
    }
}

/// Our FMUs as the `<model>.fmu` files of the folder `$ROTORCRAFT_FMU_DIR`.
pub struct FolderCatalog;

impl FolderCatalog {
    fn folder() -> Result<PathBuf, CatalogError> {
        std::env::var_os(FMU_DIR_VARIABLE).map(PathBuf::from).ok_or(CatalogError::NoFolder)
    }
}

impl ModelCatalog for FolderCatalog {
    fn models(&self) -> Result<Vec<String>, CatalogError> {
        let folder = Self::folder()?;
        let entries =
            std::fs::read_dir(&folder).map_err(|source| CatalogError::CannotList { folder: folder.clone(), source })?;
        let mut models: Vec<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "fmu"))
            .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_string))
            .collect();
        models.sort();
        Ok(models)
    }

    fn fmu_file(&self, model: &str) -> Result<PathBuf, CatalogError> {
        fmu_in_folder(&Self::folder()?, model)
    }
}

/// `folder/<model>.fmu`, or an error that says how to write it there.
pub fn fmu_in_folder(folder: &Path, model: &str) -> Result<PathBuf, CatalogError> {
    let path = folder.join(format!("{model}.fmu"));
    if path.is_file() { Ok(path) } else { Err(CatalogError::NotInFolder { path, folder: folder.to_path_buf() }) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::SystemDescription;

    /// A catalog of one model, `Body`, whose `.fmu` is the file it holds.
    struct OneModel(PathBuf);

    impl ModelCatalog for OneModel {
        fn models(&self) -> Result<Vec<String>, CatalogError> {
            Ok(vec!["Body".into()])
        }

        fn fmu_file(&self, model: &str) -> Result<PathBuf, CatalogError> {
            if model == "Body" { Ok(self.0.clone()) } else { Err(CatalogError::Other(format!("no {model}"))) }
        }
    }

    #[test]
    fn model_names_are_those_of_the_context_the_description_is_read_in() {
        let dir = tempfile::tempdir().unwrap();
        let fmu = dir.path().join("elsewhere.fmu");
        std::fs::write(&fmu, b"").unwrap();
        let context = SystemContext::new(OneModel(fmu.clone()));
        let json = r#"{"fmus": {"body": {"model": "Body"}}, "experiment": {"stop": 1, "step": 0.1}}"#;
        let description = SystemDescription::from_str(json, "/", &context).unwrap();
        let expected = std::fs::canonicalize(&fmu).unwrap();
        assert_eq!(description.fmu_file("body").unwrap(), expected);
        assert_eq!(description.clone().fmu_file("body").unwrap(), expected, "a clone keeps the context");

        let error = SystemDescription::from_str(&json.replace("Body", "Plant"), "/", &context).unwrap_err();
        assert_eq!(error.path, "fmus.body.model");
        assert!(error.message.starts_with("'Plant' is not one of our FMUs (Body)"), "{error}");
    }
}
