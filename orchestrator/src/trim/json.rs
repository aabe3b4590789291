//! A trim applied to the JSON text of a system description, paths rebased to the output's folder.

use std::path::Path;

use serde_json::{Value, json};

use super::{Trim, TrimError};

impl Trim {
    /// The same as [`Trim::apply`] on the JSON text of a system description, keeping everything
    /// else as written: key order, and paths relative where they were (rewritten from
    /// `from_dir`, the input's folder, to `to_dir`, the output's, when the two differ).
    /// Assignments that the JSON already holds with the same value are left alone.
    pub fn apply_json(&self, json: &mut Value, from_dir: &Path, to_dir: &Path) -> Result<(), TrimError> {
        let missing = |what: String| TrimError::Missing(what);
        let fmus = json
            .get_mut("fmus")
            .and_then(Value::as_object_mut)
            .ok_or_else(|| missing("the JSON has no 'fmus' object".into()))?;
        for (_, fmu) in fmus.iter_mut() {
            rebase(fmu.get_mut("path"), from_dir, to_dir);
        }
        for (instance, name, value) in self.parameter_assignments() {
            let fmu = fmus.get_mut(&instance).ok_or_else(|| missing(format!("no instance '{instance}'")))?;
            let object = fmu.as_object_mut().ok_or_else(|| missing(format!("fmus.{instance} is not an object")))?;
            let parameters = object.entry("parameters").or_insert_with(|| json!({}));
            let parameters = parameters
                .as_object_mut()
                .ok_or_else(|| missing(format!("fmus.{instance}.parameters is not an object")))?;
            if parameters.get(&name).and_then(Value::as_f64) != Some(value) {
                parameters.insert(name, json!(value));
            }
        }
        if let Some(inputs) = json.get_mut("inputs").and_then(Value::as_array_mut) {
            for input in inputs {
                if let Some(table) = input.pointer_mut("/signal/table") {
                    rebase(table.get_mut("csv"), from_dir, to_dir);
                }
                let to = input.get("to").and_then(Value::as_str).unwrap_or_default().to_string();
                if let Some((_, value)) = self.controls.iter().find(|(c, _)| *c == to)
                    && input.pointer("/signal/constant").and_then(Value::as_f64) != Some(*value)
                {
                    input["signal"] = json!({ "constant": value });
                }
            }
        }
        Ok(())
    }
}

/// Rewrites a relative path string written for `from_dir` so that it names the same file from
/// `to_dir` (relative again where the two folders share a root); absolute paths are kept.
fn rebase(path: Option<&mut Value>, from_dir: &Path, to_dir: &Path) {
    if let Some(Value::String(p)) = path
        && Path::new(p.as_str()).is_relative()
        && from_dir != to_dir
    {
        let target = normalize(&from_dir.join(p.as_str()));
        *p = relative_path(&target, &normalize(to_dir)).display().to_string();
    }
}

/// `path` with `.` and `..` removed lexically.
fn normalize(path: &Path) -> std::path::PathBuf {
    let mut out = std::path::PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// `target` relative to the folder `base` (both absolute and normalized).
fn relative_path(target: &Path, base: &Path) -> std::path::PathBuf {
    let (t, b): (Vec<_>, Vec<_>) = (target.components().collect(), base.components().collect());
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = std::path::PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    out
}
