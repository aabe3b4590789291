//! The files around a run: what it read (recorded in the summary) and what it writes (checked
//! and created before the run starts, never an input of the run).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use cosim::master::Results;
use cosim::result_files::{ColumnInfo, units_path, write_mat, write_units_csv};
use cosim::system::{ParameterSpec, SignalSpec, System, SystemDescription};

use super::csv_stream::CsvStream;
use super::options::ResultOptions;

/// What a run was given, for the summary: the system file and its hash, the command line, the
/// tool version.
pub struct RunInputs {
    /// The system file as given, or a name for the built-in scenario.
    system: String,
    /// Its absolute path (none for the built-in scenario).
    path: Option<PathBuf>,
    /// SHA-256 of the system description's text, hex.
    sha256: String,
}

impl RunInputs {
    /// A run of the system description in file `path`.
    pub fn from_file(path: &Path) -> Result<Self> {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        Ok(Self {
            system: path.display().to_string(),
            path: Some(std::path::absolute(path)?),
            sha256: hex_sha256(&bytes),
        })
    }

    /// A run of the built-in scenario, whose description is `text`.
    pub fn built_in(text: &str) -> Self {
        Self { system: "built-in (examples/helicopter.json)".into(), path: None, sha256: hex_sha256(text.as_bytes()) }
    }

    /// The system file (none for the built-in scenario).
    pub fn system_file(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The `inputs` object of the summary JSON: system file and hash, the command line, the
    /// experiment and master options as run, the tool version.
    pub fn to_json(&self, description: &SystemDescription) -> Value {
        let e = description.experiment;
        json!({
            "system": self.system,
            "system_path": self.path.as_ref().map(|p| p.display().to_string()),
            "system_sha256": self.sha256,
            "command_line": std::env::args().collect::<Vec<_>>(),
            "experiment": { "start": e.start, "stop": e.stop, "step": e.step },
            "master": format!("{:?}", description.master),
            "tool": { "name": env!("CARGO_PKG_NAME"), "version": env!("CARGO_PKG_VERSION") },
        })
    }
}

fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The files a run writes, their folders created and each checked writable before the run.
pub struct OutputFiles {
    /// The results: CSV, or MAT v4 when the name ends in `.mat`.
    pub results: PathBuf,
    /// The units table beside a CSV.
    pub units: Option<PathBuf>,
    /// The plot.
    pub plot: Option<PathBuf>,
    /// The summary JSON.
    pub summary_json: Option<PathBuf>,
}

impl OutputFiles {
    /// Decides the files from `results` and the options, creates their folders and checks that
    /// each can be written, without writing any (an existing file is left as it is until the run
    /// has finished).
    pub fn new(results: PathBuf, options: &ResultOptions) -> Result<Self> {
        let mat = results.extension().is_some_and(|e| e.eq_ignore_ascii_case("mat"));
        let units = (!mat).then(|| units_path(&results));
        let files = Self { results, units, plot: options.plot.clone(), summary_json: options.summary_json.clone() };
        let all = files.all();
        for (k, path) in all.iter().enumerate() {
            if all[..k].iter().any(|other| same_file(other, path)) {
                bail!("{} is named for two outputs of the run", path.display());
            }
            let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create the folder {}", dir.display()))?;
            if path.exists() {
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(path)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            } else {
                tempfile::NamedTempFile::new_in(dir)
                    .with_context(|| format!("cannot write {}: the folder is not writable", path.display()))?;
            }
        }
        Ok(files)
    }

    fn all(&self) -> Vec<&Path> {
        [Some(&self.results), self.units.as_ref(), self.plot.as_ref(), self.summary_json.as_ref()]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path)
            .collect()
    }

    /// Refuses any output that is an input of the run: the system file, an FMU, a signal table.
    pub fn check_against(
        &self,
        description: &SystemDescription,
        system: &System,
        system_file: Option<&Path>,
    ) -> Result<()> {
        let mut inputs: Vec<PathBuf> = system.instances.iter().map(|i| i.path.clone()).collect();
        inputs.extend(system_file.map(Path::to_path_buf));
        for input in &description.inputs {
            if let SignalSpec::Table { csv, .. } = &input.signal {
                inputs.push(description.base_dir.join(csv));
            }
        }
        for output in self.all() {
            if let Some(input) = inputs.iter().find(|i| same_file(i, output)) {
                bail!("refusing to overwrite {}, an input of this run", input.display());
            }
        }
        Ok(())
    }

    /// Starts the CSV results, when the results file is a CSV: writes the units table (from
    /// `columns`) and the CSV header now, and returns the stream the rows go to as they are
    /// computed (the recorded columns at positions `keep` of each row, named `names`). `None` for
    /// a MAT file, written at the end by [`OutputFiles::finish_results`].
    pub fn start_csv(&self, names: &[String], keep: Vec<usize>, columns: &[ColumnInfo]) -> Result<Option<CsvStream>> {
        let Some(units) = &self.units else { return Ok(None) };
        let file = std::fs::File::create(units).with_context(|| format!("cannot write {}", units.display()))?;
        let mut out = std::io::BufWriter::new(file);
        write_units_csv(columns, &mut out)
            .and_then(|()| out.flush())
            .with_context(|| format!("cannot write {}", units.display()))?;
        CsvStream::create(&self.results, names, keep).map(Some)
    }

    /// Finishes the results, on every path (success or failure of the run): flushes the CSV
    /// stream, or writes the MAT file from `results` (the rows so far when the run failed).
    pub fn finish_results(&self, csv: Option<&CsvStream>, results: &Results, columns: &[ColumnInfo]) -> Result<()> {
        if let Some(csv) = csv {
            return csv.finish();
        }
        let path = &self.results;
        let file = std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
        let mut out = std::io::BufWriter::new(file);
        write_mat(results, columns, &mut out)
            .and_then(|()| out.flush())
            .with_context(|| format!("cannot write {}", path.display()))
    }
}

/// Whether `a` and `b` name the same existing file (the same device and inode: also through a
/// hard or symbolic link), or the same path when either is missing.
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => std::path::absolute(a).ok() == std::path::absolute(b).ok(),
    }
}

/// Refuses an SSP input (`.ssp`, `.ssd`) where `option` rewrites the system's JSON text.
pub fn require_json_system(system: &Path, option: &str) -> Result<()> {
    if system.extension().is_some_and(|e| e.eq_ignore_ascii_case("ssp") || e.eq_ignore_ascii_case("ssd")) {
        bail!(
            "{option} needs a JSON system description, and {} is SSP: use the JSON it was exported from \
             (SSP files written by `orchestrator export --ssp` carry it in their rotorcraft-fmi annotation)",
            system.display()
        );
    }
    Ok(())
}

/// Refuses an output file that is the input file.
pub fn refuse_overwrite(output: &Path, input: &Path) -> Result<()> {
    if same_file(output, input) {
        bail!("refusing to overwrite {}, the input of this command", input.display());
    }
    Ok(())
}

/// Applies a `--set INSTANCE.VARIABLE=VALUE` to the JSON text of a system description, as
/// [`SystemDescription::set_value`] does to the parsed one (which has checked it already).
pub fn apply_set_to_json(json: &mut Value, assignment: &str) -> Result<()> {
    let (reference, text) = assignment.split_once('=').context("expected INSTANCE.VARIABLE=VALUE")?;
    let (reference, text) = (reference.trim(), text.trim());
    let value: Value = match ParameterSpec::from_command_line(text).map_err(anyhow::Error::msg)? {
        ParameterSpec::Boolean(b) => json!(b),
        ParameterSpec::Number(x) => json!(x),
        ParameterSpec::Text(t) => json!(t),
    };
    if let Some(input) = json
        .get_mut("inputs")
        .and_then(Value::as_array_mut)
        .and_then(|inputs| inputs.iter_mut().find(|i| i.get("to").and_then(Value::as_str) == Some(reference)))
    {
        input["signal"] = json!({ "constant": value });
        return Ok(());
    }
    let (instance, variable) = reference.split_once('.').context("expected INSTANCE.VARIABLE")?;
    let fmu = json
        .pointer_mut(&format!("/fmus/{instance}"))
        .and_then(Value::as_object_mut)
        .with_context(|| format!("no instance '{instance}'"))?;
    let parameters = fmu.entry("parameters").or_insert_with(|| json!({}));
    parameters
        .as_object_mut()
        .with_context(|| format!("fmus.{instance}.parameters is not an object"))?
        .insert(variable.to_string(), value);
    Ok(())
}
