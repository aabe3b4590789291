//! `--set INSTANCE.PARAM=TEXT` on String parameters (`fmi2SetString` before initialisation):
//! the test FMU `TextParameters` (`test_fmus::text`), whose outputs say what its strings hold,
//! and RotorElastic's `blade_file` (a blade table written here), whose first flap frequency at
//! rest follows Euler-Bernoulli's cantilever; a value of the wrong type or an unknown name is
//! an error naming it.

use super::*;

/// `dir/text.json`: one `TextParameters.fmu` instance `t` (packaged into `dir`) for 1 s in steps
/// of 0.25 s, recording its outputs.
fn text_system(dir: &std::path::Path) -> std::path::PathBuf {
    test_fmus::text::package_into(dir);
    let system = dir.join("text.json");
    std::fs::write(
        &system,
        r#"{ "fmus": { "t": { "path": "TextParameters.fmu" } },
             "experiment": { "stop": 1.0, "step": 0.25 },
             "outputs": ["t.x", "t.label_length", "t.table_value"] }"#,
    )
    .unwrap();
    system
}

#[test]
fn set_gives_string_parameters_their_text() {
    let dir = tempfile::tempdir().unwrap();
    let system = text_system(dir.path());
    let out = dir.path().join("out.csv");
    succeeds(orchestrator().arg("run").arg(&system).arg("--out").arg(&out).args([
        "--set",
        "t.label=helicopter",
        "--set",
        r#"t.rate="-0.5""#,
        "--set",
        &format!("t.table_file={}", test_fmus::text::RESOURCE_TABLE.0),
    ]));
    // x' = rate from x(0) = 0: x = -0.5 t; "helicopter" has 10 characters; the table holds 7.5.
    let time = csv_column(&out, "time");
    for (x, t) in csv_column(&out, "t.x").iter().zip(&time) {
        assert!((x + 0.5 * t).abs() < 1e-12, "x({t}) = {x}");
    }
    assert!(csv_column(&out, "t.label_length").iter().all(|&n| n == 10.0));
    assert!(csv_column(&out, "t.table_value").iter().all(|&v| v == test_fmus::text::RESOURCE_TABLE.1));
}

#[test]
fn set_of_the_wrong_type_or_an_unknown_name_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let system = text_system(dir.path());
    for (assignment, message) in [
        ("t.rate=2.5", r#"'rate' is String and needs a string, got 2.5 (text in double quotes: "2.5")"#),
        ("t.tolerance=tight", r#"'tolerance' is Real and needs a finite number, got "tight""#),
        ("t.tolerance=inf", "'inf' is not a finite number"),
        ("t.no_such=text", "no_such"),
        ("u.rate=1", "'u'"),
    ] {
        let out = orchestrator().arg("run").arg(&system).args(["--set", assignment]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains(message), "--set {assignment}: {stderr}");
        assert!(!stderr.contains("panicked"), "--set {assignment}: {stderr}");
    }
}

/// First root of the cantilever's `1 + cos(b L) cosh(b L) = 0`, by bisection.
fn cantilever_first_root() -> f64 {
    let f = |x: f64| 1.0 + x.cos() * x.cosh();
    let (mut lo, mut hi) = (1.0, 3.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if f(lo) * f(mid) <= 0.0 { hi = mid } else { lo = mid }
    }
    0.5 * (lo + hi)
}

/// The first flap (out-of-plane, `u.z`) frequency, rad/s, of one RotorElastic blade at rest
/// (8 elements) with `args`.
fn first_flap_at_rest(dir: &std::path::Path, args: &[&str]) -> f64 {
    let at_rest = ["--set", "rotor.Omega=0", "--set", "rotor.n_elements=8"];
    elastic_vacuum_modes(dir, &[&at_rest[..], args].concat())
        .iter()
        .filter(|(_, name)| name.ends_with("u.z"))
        .fold(f64::INFINITY, |lowest, m| lowest.min(m.0))
}

#[test]
fn set_of_the_elastic_blade_file_reads_that_table() {
    let dir = tempfile::tempdir().unwrap();
    // The shipped uniform blade with four times its flap stiffness EI_flap.
    let (clamp, tip, ei_flap, mass) = (0.5, 4.91, 4.0 * 6.2e3, 6.12);
    let table = dir.path().join("stiff_blade.csv");
    let header = "radius [m], EA [N], GA_flap [N], GA_lag [N], EI_flap [N m^2], EI_lag [N m^2], GJ [N m^2], \
                  mass [kg/m], I_flap [kg m], I_lag [kg m]";
    let row = |r: f64| format!("{r}, 5e7, 5e6, 5e6, {ei_flap}, 6.5e4, 4.8e3, {mass}, 5e-4, 0.027");
    std::fs::write(&table, format!("{header}\n{}\n{}\n", row(clamp), row(tip))).unwrap();
    let setting = format!("rotor.blade_file={}", table.display());
    let stiff = first_flap_at_rest(&dir.path().join("stiff"), &["--set", &setting]);
    let shipped = first_flap_at_rest(&dir.path().join("shipped"), &[]);
    // Euler-Bernoulli cantilever: w1 = (b1 L)^2 sqrt(EI / (m L^4)); four times EI doubles it.
    let span = tip - clamp;
    let closed_form = cantilever_first_root().powi(2) * (ei_flap / (mass * span.powi(4))).sqrt();
    eprintln!("1st flap at rest: {stiff} rad/s (closed form {closed_form}), shipped table {shipped} rad/s");
    assert!((stiff / closed_form - 1.0).abs() < 0.01, "{stiff} vs {closed_form}");
    assert!((stiff / shipped - 2.0).abs() < 2e-3, "{stiff} vs 2 x {shipped}");
}
