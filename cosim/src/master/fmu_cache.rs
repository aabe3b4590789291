//! FMUs opened once per file and shared by their instances.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::import::model_description::ModelDescription;
use crate::import::{
    ExtractedFmu, ExtractionCache, Fmu, FmuLogger, HostOptions, ImportError, Instance, IsolatedSlave, OpenOptions,
    extract_fmu_cached,
};
use crate::system::InstanceSpec;

/// FMUs extracted and opened (loaded) once per file, shared by all their instances, and how
/// isolated instances are started. Extractions go into temporary directories unless
/// [`FmuCache::with_extraction_cache`] names a cache kept between runs; two files of the same
/// content are two FMUs (two copies of the library, as without the cache: see
/// [`crate::import::cache`]).
#[derive(Default)]
pub struct FmuCache {
    open: HashMap<PathBuf, Arc<Fmu>>,
    /// Extracted and described, not necessarily loaded into this process (an FMU whose instances
    /// are all isolated is loaded only by their child processes).
    extracted: HashMap<PathBuf, (Arc<ExtractedFmu>, ModelDescription)>,
    host: Option<HostOptions>,
    disk: Option<ExtractionCache>,
}

/// What the caches of one thread extracted and opened, kept for the thread's later caches.
#[derive(Default)]
struct Kept {
    open: HashMap<PathBuf, Arc<Fmu>>,
    extracted: HashMap<PathBuf, (Arc<ExtractedFmu>, ModelDescription)>,
}

thread_local! {
    /// Set by [`FmuCache::keep_on_this_thread`].
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

impl FmuCache {
    /// From now on, every cache made on this thread starts with what the thread's earlier caches
    /// extracted and opened (their libraries stay loaded), so that many runs in one process (a
    /// sweep worker) extract, read and load each FMU once. The FMU files must not change meanwhile.
    pub fn keep_on_this_thread() {
        KEPT.with(|k| {
            k.borrow_mut().get_or_insert_with(Kept::default);
        })
    }

    /// A cache whose isolated instances are started as `host` says (without it, they need the
    /// environment variable [`HostOptions::ENV`]).
    pub fn with_host(host: HostOptions) -> FmuCache {
        let mut cache = FmuCache::default();
        cache.host = Some(host);
        cache
    }

    /// This cache, extracting through `cache` (`None`: into temporary directories, the default).
    pub fn with_extraction_cache(mut self, cache: Option<ExtractionCache>) -> FmuCache {
        self.disk = cache;
        self
    }

    /// The FMU at `path`, opened (and loaded into this process) on first use.
    pub fn open(&mut self, path: &Path) -> Result<Arc<Fmu>, ImportError> {
        if let Some(f) = self.open.get(path) {
            return Ok(f.clone());
        }
        if let Some(f) = KEPT.with(|k| k.borrow().as_ref().and_then(|k| k.open.get(path).cloned())) {
            self.open.insert(path.to_path_buf(), f.clone());
            return Ok(f);
        }
        let (extracted, description) = self.extract(path)?.clone();
        let f = Arc::new(Fmu::load(extracted, description)?);
        self.open.insert(path.to_path_buf(), f.clone());
        Ok(f)
    }

    /// The model description of the FMU at `path`, extracted on first use without loading its
    /// binary into this process.
    pub fn description(&mut self, path: &Path) -> Result<ModelDescription, ImportError> {
        if let Some(f) = self.open.get(path) {
            return Ok(f.model_description().clone());
        }
        Ok(self.extract(path)?.1.clone())
    }

    fn extract(&mut self, path: &Path) -> Result<&(Arc<ExtractedFmu>, ModelDescription), ImportError> {
        if !self.extracted.contains_key(path)
            && let Some(kept) = KEPT.with(|k| k.borrow().as_ref().and_then(|k| k.extracted.get(path).cloned()))
        {
            self.extracted.insert(path.to_path_buf(), kept);
        }
        if !self.extracted.contains_key(path) {
            let (extracted, description) = extract_fmu_cached(path, &OpenOptions::default(), self.disk.as_ref())?;
            self.extracted.insert(path.to_path_buf(), (Arc::new(extracted), description));
        }
        Ok(&self.extracted[path])
    }

    /// Creates instance `spec`: in this process, or, when `spec.isolate`, in a child process.
    pub fn instantiate(&mut self, spec: &InstanceSpec, logger: Arc<dyn FmuLogger>) -> Result<Instance, ImportError> {
        if !spec.isolate {
            return Ok(Instance::InProcess(self.open(&spec.path)?.instantiate(&spec.name, logger)?));
        }
        let host = self.host.clone().or_else(HostOptions::from_env).ok_or_else(|| ImportError::Host {
            instance: spec.name.clone(),
            message: format!(
                "no host executable is known: set {} to the orchestrator binary (the orchestrator itself uses its                  own executable)",
                HostOptions::ENV
            ),
        })?;
        let extracted = self.extract(&spec.path)?.0.clone();
        Ok(Instance::Isolated(IsolatedSlave::spawn(extracted, &spec.name, logger, &host)?))
    }
}

impl Drop for FmuCache {
    /// Hands what this cache extracted and opened to the thread's later caches, when kept.
    fn drop(&mut self) {
        // Not kept when the thread is ending (its storage may be gone already).
        let _ = KEPT.try_with(|k| {
            if let Some(kept) = k.borrow_mut().as_mut() {
                kept.open.extend(self.open.drain());
                kept.extracted.extend(self.extracted.drain());
            }
        });
    }
}
