//! A sweep with one process per chunk (`"process": "chunk"`): a point that crashes its worker
//! process is recorded with the signal and a new worker goes on; an FMU error fails only its point.

use super::*;

#[test]
fn a_crash_in_a_chunk_worker_fails_only_its_point() {
    // Every point: 5 steps of 0.1 s; mode 1 writes through NULL and mode 4 returns fmi2Error in
    // the step from t = 0.2.
    let case = Case::new(r#""sleep_ms": 0, "fail_at": 0.2"#, r#"{ "stop": 0.5, "step": 0.1 }"#);
    for packed in [false, true] {
        let sweep = case.path(&format!("sweep-{packed}.json"));
        std::fs::write(
            &sweep,
            format!(
                r#"{{ "system": {:?}, "work": "run", "process": "chunk", "packed": {packed},
                     "list": [ {{ "slow.mode": 0 }}, {{ "slow.mode": 1 }}, {{ "slow.mode": 0 }}, {{ "slow.mode": 4 }}, {{ "slow.mode": 0 }} ],
                     "statistics": ["slow.count"] }}"#,
                case.path("system.json")
            ),
        )
        .unwrap();
        let out = case.path(&format!("out-{packed}"));
        let run = Command::new(env!("CARGO_BIN_EXE_orchestrator"))
            .env("ROTORCRAFT_FMU_CACHE", "off")
            .args([
                "sweep".as_ref(),
                sweep.as_os_str(),
                "--out".as_ref(),
                out.as_os_str(),
                "--jobs".as_ref(),
                "1".as_ref(),
            ])
            .output()
            .unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
        assert_eq!(run.status.code(), Some(1), "{stdout}{stderr}");
        assert!(stdout.contains("5 points run") && stdout.contains("2 failed"), "{stdout}");
        assert!(stderr.contains("2 of 5 points failed"), "{stderr}");
        let table = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
        let rows: Vec<&str> = table.lines().skip(1).collect();
        for (k, expected) in ["ok", "failed", "ok", "failed", "ok"].iter().enumerate() {
            assert!(rows[k].contains(&format!("\"{expected}\"")), "point {k}: {}", rows[k]);
        }
        // The crash reporter's line, as with a process per point.
        assert!(rows[1].contains("fatal signal SIGSEGV in instance 'slow' during fmi2DoStep"), "{}", rows[1]);
        assert!(rows[3].contains("fmi2DoStep"), "{}", rows[3]);
        // The points after the crash ran in full: 5 steps counted.
        let header: Vec<&str> = table.lines().next().unwrap().split(',').collect();
        let count = header.iter().position(|h| *h == "\"slow.count.final\"").unwrap();
        for k in [0, 2, 4] {
            assert_eq!(rows[k].split(',').nth(count).unwrap(), "5.0", "point {k}");
        }
        let log = std::fs::read_to_string(out.join("logs/worker-0-0.log")).unwrap();
        assert!(log.contains("fatal signal SIGSEGV"), "{log}");
    }
}
