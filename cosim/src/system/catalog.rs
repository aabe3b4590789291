//! Where the `"model": NAME` entries of a system description are found. The library knows no
//! model of its own: a program that links our models installs their catalog once
//! ([`install_model_catalog`]; the `orchestrator` binary installs `fmu_catalog::Catalog`, which
//! packages the built FMUs on first use). Without one, our FMUs are the `.fmu` files of the folder
//! named by `$ROTORCRAFT_FMU_DIR` ([`FolderCatalog`]).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Environment variable naming a folder of our packaged FMUs (`<model>.fmu`).
pub const FMU_DIR_VARIABLE: &str = "ROTORCRAFT_FMU_DIR";

/// The names a system description's `"model"` accepts and the `.fmu` file of each.
pub trait ModelCatalog: Sync {
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

static INSTALLED: OnceLock<&'static dyn ModelCatalog> = OnceLock::new();

/// Installs the catalog that resolves `"model"` names in this process; the first installation
/// wins (a second call changes nothing).
pub fn install_model_catalog(catalog: &'static dyn ModelCatalog) {
    let _ = INSTALLED.set(catalog);
}

/// The installed catalog, or the folder named by `$ROTORCRAFT_FMU_DIR`.
pub fn model_catalog() -> &'static dyn ModelCatalog {
    INSTALLED.get().copied().unwrap_or(&FolderCatalog)
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
