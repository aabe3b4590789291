//! Duplicate archive entries, and bounded work (absurd numbers of communication points).

use super::*;

#[test]
fn duplicate_entry_names_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let binary = compile_shared(dir.path(), "ball", BALL_C);
    // Two descriptions: the zip writer refuses duplicate names, so the second is written under a
    // name of the same length and renamed in the bytes (local header and central directory).
    let path = dir.path().join("Dup.fmu");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("modelDescription.xml", options).unwrap();
    zip.write_all(ball_xml().as_bytes()).unwrap();
    zip.start_file("binaries/linux64/Ball.so", options).unwrap();
    zip.write_all(&binary).unwrap();
    zip.start_file("modelDescription.xmX", options).unwrap();
    zip.write_all(ball_xml().replace("{ball}", "{evil}").as_bytes()).unwrap();
    zip.finish().unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let (from, to) = (b"modelDescription.xmX", b"modelDescription.xml");
    let mut renamed = 0;
    for i in 0..bytes.len() - from.len() {
        if &bytes[i..i + from.len()] == from {
            bytes[i..i + from.len()].copy_from_slice(to);
            renamed += 1;
        }
    }
    assert_eq!(renamed, 2, "local header and central directory");
    std::fs::write(&path, bytes).unwrap();

    let err = Fmu::open(&path).unwrap_err();
    assert!(matches!(&err, ImportError::DuplicateEntry { entry, .. } if entry == "modelDescription.xml"), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!("{}: refusing the archive: it has two entries named 'modelDescription.xml'", path.display())
    );
    // The description alone is refused the same way.
    let err = cosim::import::read_model_description(&path).unwrap_err();
    assert!(matches!(&err, ImportError::DuplicateEntry { .. }), "{err:?}");
}

// ---------------------------------------------------------------------------------------------
// Bounded work.

#[test]
fn absurd_numbers_of_communication_points_are_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = ball_fmu(dir.path(), false);
    for (experiment, numbers) in [
        (r#"{ "stop": 1e13, "step": 1.0 }"#, "(10000000000000.0 - 0.0) / 1.0 = 1e13 communication points"),
        (r#"{ "stop": 1e300, "step": 1e-300 }"#, "(1e300 - 0.0) / 1e-300 = inf communication points"),
        (r#"{ "start": 0, "stop": 2000000000, "step": 1 }"#, "= 2e9 communication points"),
    ] {
        let started = std::time::Instant::now();
        let out = run_ball(dir.path(), &fmu, "", experiment);
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{experiment}: {stderr}");
        assert!(stderr.contains(numbers), "{experiment}: {stderr}");
        assert!(stderr.contains("more than the limit of 1e9"), "{stderr}");
        assert!(!stderr.contains("memory allocation") && !stderr.contains("panicked"), "{stderr}");
        assert!(started.elapsed().as_secs() < 30, "refused up front, not after running");
        assert!(!dir.path().join("results.csv").exists());
    }
}
