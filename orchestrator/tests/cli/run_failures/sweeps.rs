//! `orchestrator sweep` when its points do not end well or its inputs change: results of other
//! inputs are not reused, a failed, crashed or hung point is recorded with its reason and fails
//! the sweep, Ctrl-C ends the points' processes, two sweeps never share a folder, and the Slurm
//! job script survives a folder name with a space. Each point runs the `Slow` FMU of this module.
//! The tests of items 1-4 run in every mode of the sweep file: a process per point or per chunk
//! (`"process": "chunk"`), a folder per point or packed results (`"packed": true`).

use super::*;

/// The sweep file's members for each way of running points (as they appear in messages): a
/// process and a folder per point, a process per point with packed results, chunk workers with a
/// folder per point, and the default (chunk workers, packed results).
const MODES: [&str; 4] =
    [r#""process": "point", "packed": false,"#, r#""process": "point","#, r#""packed": false,"#, ""];

impl Case {
    /// Writes `sweep.json`: `work: run` of `system.json` with the sweep members `points` (e.g.
    /// `"grid": { "slow.mode": [0, 1] }`); its path.
    fn write_sweep(&self, points: &str) -> PathBuf {
        let sweep = self.path("sweep.json");
        std::fs::write(&sweep, format!(r#"{{ "system": "system.json", "work": "run", {points} }}"#)).unwrap();
        sweep
    }

    /// `orchestrator sweep sweep.json --out <out> <extra>`, with TMPDIR set to `tmp/` (so that
    /// [`processes_of`] sees the sweep and every point's process).
    fn sweep(&self, out: &Path, extra: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_orchestrator"));
        command
            .env("ROTORCRAFT_FMU_CACHE", "off")
            .env("TMPDIR", self.path("tmp"))
            .arg("sweep")
            .arg(self.path("sweep.json"))
            .arg("--out")
            .arg(out)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    }

    /// Replaces `from` by `to` in the case's file `name`.
    fn edit(&self, name: &str, from: &str, to: &str) {
        let text = std::fs::read_to_string(self.path(name)).unwrap();
        assert!(text.contains(from), "{name}: no '{from}' in {text}");
        std::fs::write(self.path(name), text.replace(from, to)).unwrap();
    }
}

/// Runs `command` to its end (at most a minute): its exit status, stdout and stderr.
fn sweep_output(command: &mut Command) -> (ExitStatus, String, String) {
    let (status, stdout, stderr, _) = wait(command.spawn().unwrap(), Duration::from_secs(60));
    (status, stdout, stderr)
}

/// Column `name` of `DIR/sweep.csv`, unquoted.
fn sweep_column(out: &Path, name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').map(|h| h.trim_matches('"')).collect();
    let k = header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name} in {header:?}"));
    lines.map(|l| l.split(',').nth(k).unwrap().trim_matches('"').to_string()).collect()
}

/// The status of point `k`: `DIR/points/<k>/status.json`, or with packed results its last line
/// in `DIR/packed/points-*.jsonl`.
fn point_status(out: &Path, k: usize) -> serde_json::Value {
    let Ok(files) = std::fs::read_dir(out.join("packed")) else {
        let path = out.join("points").join(format!("{k:04}")).join("status.json");
        return serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    };
    let mut lines: Vec<serde_json::Value> = Vec::new();
    for file in files.flatten().filter(|f| f.file_name().to_string_lossy().ends_with(".jsonl")) {
        let text = std::fs::read_to_string(file.path()).unwrap();
        lines.extend(text.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()));
    }
    let line = lines.into_iter().rfind(|l| l["point"] == k).unwrap_or_else(|| panic!("point {k} not recorded"));
    line["status"].clone()
}

/// The process ids of [`processes_of`], ended with SIGKILL so that a failing test leaves no
/// spinning process behind; whether there were any.
fn kill_leftovers(case: &Case) -> bool {
    let needle = format!("TMPDIR={}", case.path("tmp").display());
    let mut found = false;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else { continue };
        if environ.split(|&b| b == 0).any(|v| v == needle.as_bytes()) {
            found = true;
            let _ = Command::new("kill").arg("-KILL").arg(entry.file_name()).status();
        }
    }
    found
}

/// Item 1 of issue 27: a point is done only when it was run with the same inputs. A changed
/// system file, a changed FMU or a changed value of the point runs it again; `--gather` shows
/// results of other inputs as `stale`, never under the new labels.
#[test]
fn a_sweep_reruns_the_points_whose_inputs_changed() {
    for mode in MODES {
        reruns_the_points_whose_inputs_changed(mode);
    }
}

fn reruns_the_points_whose_inputs_changed(mode: &str) {
    let case = Case::new("", r#"{ "stop": 0.2, "step": 0.1 }"#);
    case.write_sweep(&format!(r#"{mode} "grid": {{ "slow.sleep_ms": [1, 2] }}"#));
    let out = case.path("out");
    let (status, stdout, stderr) = sweep_output(&mut case.sweep(&out, &["--jobs", "1"]));
    assert!(status.success() && stdout.contains("2 points run"), "{mode}: {stdout}{stderr}");
    assert_eq!(sweep_column(&out, "steps"), ["2", "2"], "{mode}: 0.2 s in steps of 0.1 s");
    if mode.is_empty() {
        // By default: packed results of chunk workers, no folder per point.
        let files = ["packed/points-0-0.jsonl", "packed/results-0-0.csv", "logs/worker-0-0.log"];
        assert!(files.iter().all(|f| out.join(f).is_file()) && !out.join("points").exists(), "the default");
    }
    let (_, stdout, _) = sweep_output(&mut case.sweep(&out, &[]));
    assert!(stdout.contains("0 points run") && stdout.contains("2 already done"), "{mode}: {stdout}");

    // The system file changes: the old rows are stale, and the next sweep runs both points again.
    case.edit("system.json", r#""stop": 0.2"#, r#""stop": 0.5"#);
    let (status, _, stderr) = sweep_output(&mut case.sweep(&out, &["--gather"]));
    assert!(status.success(), "{mode}: {stderr}");
    assert_eq!(sweep_column(&out, "status"), ["stale", "stale"], "{mode}");
    let table = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    assert!(!table.contains("\"steps\""), "{mode}: the old figures are shown: {table}");
    assert!(sweep_column(&out, "error")[0].contains("system.json"), "{mode}: {:?}", sweep_column(&out, "error"));
    let (status, stdout, stderr) = sweep_output(&mut case.sweep(&out, &[]));
    assert!(status.success() && stdout.contains("2 points run"), "{mode}: {stdout}{stderr}");
    assert!(stderr.contains("system.json changed"), "{mode}: {stderr}");
    assert_eq!(sweep_column(&out, "steps"), ["5", "5"], "{mode}: 0.5 s in steps of 0.1 s");
    assert_packed_rows_current(&out, &[5, 5], mode);

    // One value of the sweep changes: only that point runs again.
    case.edit("sweep.json", "[1, 2]", "[1, 3]");
    let (_, stdout, _) = sweep_output(&mut case.sweep(&out, &[]));
    assert!(stdout.contains("1 points run") && stdout.contains("1 already done"), "{mode}: {stdout}");
    assert_eq!(sweep_column(&out, "slow.sleep_ms"), ["1.0", "3.0"], "{mode}");

    // The FMU is rebuilt with another content: both points run again.
    let binary = import_support::compile_shared(case.dir.path(), "slow", SLOW_C);
    let xml = slow_xml().replace("gcc by hand", "gcc by hand, again");
    import_support::write_c_fmu(&case.path("Slow.fmu"), &xml, "Slow", &binary);
    let (_, stdout, stderr) = sweep_output(&mut case.sweep(&out, &[]));
    assert!(stdout.contains("2 points run") && stderr.contains("Slow.fmu changed"), "{mode}: {stdout}{stderr}");
    assert_packed_rows_current(&out, &[5, 5], mode);
}

/// With packed results: `DIR/packed/results-*.csv` hold, for each point, exactly the rows of its
/// current run (`rows[k]` of point k, plus the one at t = 0), none of a run with other inputs.
fn assert_packed_rows_current(out: &Path, steps: &[usize], mode: &str) {
    let Ok(files) = std::fs::read_dir(out.join("packed")) else { return };
    let mut rows = vec![0; steps.len()];
    for file in files.flatten().filter(|f| f.file_name().to_string_lossy().starts_with("results-")) {
        let text = std::fs::read_to_string(file.path()).unwrap();
        for line in text.lines().skip(1) {
            rows[line.split(',').next().unwrap().parse::<usize>().unwrap()] += 1;
        }
    }
    let expected: Vec<usize> = steps.iter().map(|s| s + 1).collect();
    assert_eq!(rows, expected, "{mode}: rows per point in packed/results-*.csv");
}

/// Items 2 and 3 of issue 27: a point that crashes is recorded with the signal and the
/// crash reporter's line, and the sweep exits non-zero naming the count of failed points.
#[test]
fn a_crashed_point_is_recorded_with_its_signal_and_fails_the_sweep() {
    for mode in MODES {
        let case = Case::new(r#""fail_at": 0.1"#, r#"{ "stop": 0.3, "step": 0.1 }"#);
        case.write_sweep(&format!(r#"{mode} "grid": {{ "slow.mode": [0, 1] }}"#));
        let out = case.path("out");
        let (status, stdout, stderr) = sweep_output(&mut case.sweep(&out, &["--jobs", "2"]));
        assert_eq!(status.code(), Some(1), "{mode}: {stdout}{stderr}");
        assert!(stderr.contains("1 of 2 points failed"), "{mode}: {stderr}");
        assert_eq!(sweep_column(&out, "status"), ["ok", "failed"], "{mode}");
        let error = &sweep_column(&out, "error")[1];
        let line = "fatal signal SIGSEGV in instance 'slow' during fmi2DoStep at t = 0.1 s";
        assert!(error.contains(line), "{mode}: {error}");
        let crashed = point_status(&out, 1);
        assert_eq!(crashed["signal"], "SIGSEGV", "{mode}: {crashed}");
        assert!(crashed["exit_code"].is_null(), "{mode}: {crashed}");
    }
}

/// Item 4 of issue 27: a hung point is ended (its whole process group) after `--point-timeout`,
/// and the next point of the same job slot runs.
#[test]
fn a_hung_point_is_ended_after_the_point_timeout() {
    for mode in MODES {
        let case = Case::new(r#""fail_at": 0.1"#, r#"{ "stop": 0.3, "step": 0.1 }"#);
        case.write_sweep(&format!(r#"{mode} "grid": {{ "slow.mode": [3, 0] }}"#));
        let out = case.path("out");
        let started = Instant::now();
        let (status, stdout, stderr) = sweep_output(&mut case.sweep(&out, &["--jobs", "1", "--point-timeout", "1"]));
        let left = kill_leftovers(&case);
        assert!(!left, "{mode}: a point's process outlived the sweep");
        assert_eq!(status.code(), Some(1), "{mode}: {stdout}{stderr}");
        assert!(started.elapsed() < Duration::from_secs(15), "{mode}: {:?}", started.elapsed());
        assert_eq!(sweep_column(&out, "status"), ["failed", "ok"], "{mode}: {stderr}");
        let error = &sweep_column(&out, "error")[0];
        assert!(error.contains("no result within --point-timeout 1 s"), "{mode}: {error}");
        assert_eq!(point_status(&out, 0)["signal"], "SIGKILL", "{mode}");
    }
}

/// Item 4 of issue 27: Ctrl-C (SIGINT to the sweep, as the terminal sends it) ends the points in
/// progress, even one stuck in an FMU call, and the sweep exits with 130.
#[test]
fn sigint_ends_the_sweep_and_its_points() {
    for mode in MODES {
        let case = Case::new(r#""fail_at": 0.1, "mode": 3"#, r#"{ "stop": 0.3, "step": 0.1 }"#);
        case.write_sweep(&format!(r#"{mode} "grid": {{ "slow.sleep_ms": [1, 2, 3, 4] }}"#));
        let out = case.path("out");
        let sweep = case.sweep(&out, &["--jobs", "2"]).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        send(&sweep, "INT");
        let (status, _, stderr, _) = wait(sweep, Duration::from_secs(30));
        std::thread::sleep(Duration::from_millis(200));
        let left = kill_leftovers(&case);
        assert!(!left, "{mode}: a point's process outlived the sweep: {stderr}");
        assert_eq!(status.code(), Some(130), "{mode}: {stderr}");
        assert_eq!(point_status(&out, 0)["status"], "interrupted", "{mode}");
        // No new point started after the interrupt.
        assert_eq!(sweep_column(&out, "status")[2..], ["not run", "not run"], "{mode}");
    }
}

/// Item 4 of issue 27: a sweep that dies without ending its points (SIGKILL) leaves no point
/// running: each point's process ends with it.
#[test]
fn a_killed_sweep_leaves_no_point_running() {
    for mode in MODES {
        let case = Case::new(r#""fail_at": 0.1, "mode": 3"#, r#"{ "stop": 0.3, "step": 0.1 }"#);
        case.write_sweep(&format!(r#"{mode} "grid": {{ "slow.sleep_ms": [1, 2] }}"#));
        let sweep = case.sweep(&case.path("out"), &["--jobs", "2"]).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        send(&sweep, "KILL");
        let (status, _, _, _) = wait(sweep, Duration::from_secs(10));
        assert!(!status.success());
        std::thread::sleep(Duration::from_millis(300));
        assert!(!kill_leftovers(&case), "{mode}: a point's process outlived the killed sweep");
    }
}

/// Item 5 of issue 27: a second sweep into a folder that a running sweep writes is refused,
/// naming the running sweep's process; the first goes on.
#[test]
fn a_second_sweep_into_the_same_folder_is_refused() {
    let case = Case::new(r#""sleep_ms": 200"#, r#"{ "stop": 1, "step": 0.1 }"#);
    case.write_sweep(r#""grid": { "slow.fail_at": [100, 200] }"#);
    let out = case.path("out");
    let first = case.sweep(&out, &["--jobs", "2"]).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let (status, _, stderr) = sweep_output(&mut case.sweep(&out, &["--jobs", "2"]));
    assert!(!status.success(), "the second sweep ran: {stderr}");
    assert!(stderr.contains(&format!("in use by another sweep (PID {}", first.id())), "{stderr}");
    let (status, stdout, stderr, _) = wait(first, Duration::from_secs(60));
    assert!(status.success() && stdout.contains("2 points run"), "{stdout}{stderr}");
}

/// Item 6 of issue 27: the job script quotes an output folder with a space, reserves as many
/// cores per task as the task runs points at once, and one array task counts only its own
/// points (none "already done" on a first run).
#[test]
fn the_slurm_script_quotes_the_folder_and_reserves_the_cores() {
    let case = Case::new("", r#"{ "stop": 0.2, "step": 0.1 }"#);
    case.write_sweep(r#""grid": { "slow.sleep_ms": [1, 2, 3] }"#);
    let out = case.path("with space");
    // Without a running Slurm sbatch fails; the script is written first either way.
    let _ = sweep_output(&mut case.sweep(&out, &["--slurm", "2", "--jobs", "3"]));
    let script = std::fs::read_to_string(out.join("sweep.sbatch")).unwrap();
    let lines: Vec<&str> = script.lines().collect();
    let expected_output = format!("#SBATCH --output=\"{}/slurm-%A_%a.out\"", out.display());
    assert!(lines.contains(&expected_output.as_str()), "{script}");
    assert!(lines.contains(&"#SBATCH --cpus-per-task=3"), "{script}");
    assert!(script.contains("--jobs 3"), "{script}");
    let (status, stdout, stderr) = sweep_output(&mut case.sweep(&out, &["--chunk", "1", "--chunks", "2"]));
    assert!(status.success(), "{stderr}");
    assert!(stdout.contains("1 points run") && stdout.contains("0 already done"), "{stdout}");
}
