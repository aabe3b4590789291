//! What a sweep point's results depend on, so that results of other inputs are never reused: the
//! point's command line and the SHA-256 of every file it reads (the system file, each FMU it
//! loads, `"model"` FMUs as the catalog resolves them, and the CSV tables of its signals). Stored
//! as `inputs` in the point's `status.json`; a point is done only when the stored inputs equal
//! those of the sweep as it is now.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use cosim::system::{SignalSpec, SystemDescription};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// Stands for the point's own folder in the stored command, so that a moved sweep folder keeps
/// its results.
const POINT_FOLDER: &str = "<point>";

/// Command-line arguments of a point that do not change its results, left out of its inputs.
const NOT_INPUTS: [&str; 1] = ["--no-fmu-cache"];

/// The files every point of a sweep reads, each with the SHA-256 of its content (hex).
pub struct SweepInputs {
    files: BTreeMap<String, String>,
}

impl SweepInputs {
    /// Hashes the system file `system` and what it references. A JSON or `.ssd` description is
    /// parsed and its FMUs located as `run` and `trim` locate them; an `.ssp` archive holds them.
    pub fn of_system(system: &Path) -> Result<Self> {
        let mut paths = vec![system.to_path_buf()];
        let is_ssp = system.extension().is_some_and(|e| e.eq_ignore_ascii_case("ssp"));
        if !is_ssp {
            let description = rotorcraft::read_system(system, &fmu_catalog::context())?;
            paths.extend(referenced_files(&description)?);
        }
        let mut files = BTreeMap::new();
        for path in paths {
            files.insert(path.display().to_string(), sha256_of_file(&path)?);
        }
        Ok(Self { files })
    }

    /// The fingerprint of a point run with `command`, whose outputs go to `point_folder`.
    pub fn fingerprint(&self, command: &[String], point_folder: &Path) -> Value {
        let folder = point_folder.display().to_string();
        let command: Vec<String> = command
            .iter()
            .filter(|a| !NOT_INPUTS.contains(&a.as_str()))
            .map(|a| a.replace(&folder, POINT_FOLDER))
            .collect();
        json!({ "command": command, "files": self.files })
    }
}

/// The FMUs of `description` (as located for a run) and the CSV tables of its signals.
fn referenced_files(description: &SystemDescription) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for (name, _) in &description.fmus {
        files.push(description.fmu_file(name)?);
    }
    for input in &description.inputs {
        if let SignalSpec::Table { csv, .. } = &input.signal {
            files.push(description.base_dir.join(csv));
        }
    }
    Ok(files)
}

/// The SHA-256 of the file at `path`, hex.
fn sha256_of_file(path: &Path) -> Result<String> {
    let mut file = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buffer).with_context(|| format!("cannot read {}", path.display()))?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// What differs between the inputs `recorded` with a point's results and the `expected` ones,
/// in words (`/x/system.json changed`), or `None` when they are the same.
pub fn changed_input(recorded: &Value, expected: &Value) -> Option<String> {
    if recorded.is_null() {
        return Some("its inputs were not recorded (an older orchestrator ran it)".into());
    }
    if recorded["command"] != expected["command"] {
        return Some("its command line changed".into());
    }
    let (Some(old), Some(new)) = (recorded["files"].as_object(), expected["files"].as_object()) else {
        return Some("its inputs were not recorded (an older orchestrator ran it)".into());
    };
    if let Some((path, _)) = new.iter().find(|(path, hash)| old.get(*path).is_some_and(|h| h != *hash)) {
        return Some(format!("{path} changed"));
    }
    if let Some(path) = new.keys().find(|path| !old.contains_key(*path)) {
        return Some(format!("it did not read {path}"));
    }
    old.keys().find(|path| !new.contains_key(*path)).map(|path| format!("{path} is no longer an input"))
}

impl super::Sweep {
    /// The points of `chunk` (all without one) still to run in `dir`, and how many of them are
    /// done with `inputs`; says why points done with other inputs run again.
    pub(super) fn pending(
        &self,
        dir: &Path,
        chunk: Option<(usize, usize)>,
        inputs: &SweepInputs,
    ) -> (Vec<usize>, usize) {
        let mut todo = Vec::new();
        let mut done = 0;
        let mut stale = Vec::new();
        let packed = super::packed::finished(dir);
        for k in (0..self.points.len()).filter(|k| chunk.is_none_or(|(c, n)| k % n == c)) {
            let status = self.recorded_status(dir, k, packed.get(&k), inputs);
            match status["status"].as_str() {
                Some("ok") => done += 1,
                Some("stale") => {
                    stale.push((k, status["error"].as_str().unwrap_or("").to_string()));
                    todo.push(k);
                }
                _ => todo.push(k),
            }
        }
        if let Some((k, why)) = stale.first() {
            eprintln!("sweep: {} points done before run again (point {}: {why})", stale.len(), k + 1);
        }
        (todo, done)
    }

    /// The status of point `k` in `dir` (its `packed` record, else its `status.json`; `not run`
    /// when neither), its status `stale` and its error naming the changed input when it was done
    /// with other inputs than `inputs`.
    pub(super) fn recorded_status(
        &self,
        dir: &Path,
        k: usize,
        packed: Option<&super::packed::Record>,
        inputs: &SweepInputs,
    ) -> Value {
        // Any folder gives the same fingerprint: the stored command names it `<point>`.
        let out = super::point_dir(dir, k);
        let recorded = packed.map(|r| r.status.clone()).or_else(|| super::read_json(&out.join("status.json")));
        let Some(mut status) = recorded else {
            return json!({ "status": "not run" });
        };
        if status["status"] == "ok"
            && let Some(why) = changed_input(&status["inputs"], &inputs.fingerprint(&self.arguments(k, &out), &out))
        {
            status["status"] = json!("stale");
            status["error"] = json!(format!("done with other inputs: {why}"));
        }
        status
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sha256sum FILE`, the independent reference.
    fn sha256sum(path: &Path) -> String {
        let output = std::process::Command::new("sha256sum").arg(path).output().expect("sha256sum (coreutils)");
        String::from_utf8(output.stdout).unwrap().split_whitespace().next().unwrap().to_string()
    }

    /// A system of one FMU (`path`) with a table signal: the system file, the FMU and the CSV
    /// are its inputs, each with the hash `sha256sum` gives; a changed table is named.
    #[test]
    fn the_inputs_are_the_system_file_its_fmus_and_its_tables() {
        let dir = tempfile::tempdir().unwrap();
        let fmu = dir.path().join("One.fmu");
        let table = dir.path().join("gust.csv");
        let system = dir.path().join("system.json");
        std::fs::write(&fmu, "not really an FMU, not read as one here").unwrap();
        std::fs::write(&table, "time,Fz\n0,1\n1,2\n").unwrap();
        std::fs::write(
            &system,
            r#"{ "fmus": { "one": { "path": "One.fmu" } }, "experiment": { "stop": 1, "step": 0.1 },
                 "inputs": [ { "to": "one.u", "signal": { "table": { "csv": "gust.csv", "column": "Fz" } } } ] }"#,
        )
        .unwrap();
        let system = std::fs::canonicalize(system).unwrap();
        let before = SweepInputs::of_system(&system).unwrap();
        let files = &before.files;
        assert_eq!(files.len(), 3, "{files:?}");
        for path in [&system, &std::fs::canonicalize(&fmu).unwrap(), &table.canonicalize().unwrap()] {
            let hash = files.iter().find(|(p, _)| std::fs::canonicalize(p).unwrap() == *path).map(|(_, h)| h);
            assert_eq!(hash, Some(&sha256sum(path)), "{}", path.display());
        }
        let point = dir.path().join("out/points/0003");
        let command = vec!["run".to_string(), format!("--out={}/results.csv", point.display())];
        let old = before.fingerprint(&command, &point);
        assert_eq!(old["command"][1], "--out=<point>/results.csv");
        // The same point in a moved sweep folder.
        let moved = dir.path().join("moved/points/0003");
        let moved_command = vec!["run".to_string(), format!("--out={}/results.csv", moved.display())];
        assert_eq!(changed_input(&old, &before.fingerprint(&moved_command, &moved)), None);
        // Without the extraction cache: the same results.
        let uncached = [command.clone(), vec!["--no-fmu-cache".to_string()]].concat();
        assert_eq!(changed_input(&old, &before.fingerprint(&uncached, &point)), None);

        std::fs::write(&table, "time,Fz\n0,1\n1,3\n").unwrap();
        let after = SweepInputs::of_system(&system).unwrap().fingerprint(&command, &point);
        let change = changed_input(&old, &after).expect("the table changed");
        assert!(change.ends_with("gust.csv changed"), "{change}");
        let other_command = before.fingerprint(&["trim".to_string()], &point);
        assert_eq!(changed_input(&old, &other_command).as_deref(), Some("its command line changed"));
        assert!(changed_input(&Value::Null, &old).is_some());
    }
}
