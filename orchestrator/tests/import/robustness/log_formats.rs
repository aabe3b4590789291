//! Log messages are formats: hostile ones neither crash nor leak memory.

use super::*;

const UNFORMATTED: &str = " [importer: message not formatted, it contains a %n directive]";

/// What the importer's logger must deliver for each message of `hostile_messages` (C).
fn expected_hostile() -> Vec<String> {
    let truncated = |n: usize| format!(" [importer: truncated, the message has {n} bytes]");
    vec![
        format!("%s%s%s%n{UNFORMATTED}"),
        format!("%n{UNFORMATTED}"),
        // A lone trailing '%' is an invalid format (vsnprintf fails): the raw text.
        "100%".to_string(),
        "a real string".to_string(),
        format!("{}{}", "b".repeat(4096), truncated(100 * 1024)),
        format!("{}{}", "b".repeat(4096), truncated(100 * 1024)),
        "%n is a literal: 7%".to_string(),
        format!("%5$hhn and more{UNFORMATTED}"),
        // Cut before the two-byte character that straddles the limit, not inside it.
        format!("{}{}", "a".repeat(4095), truncated(4098)),
        String::new(),
        "3 apples and 0.50 pears, fine".to_string(),
    ]
}

#[test]
fn hostile_log_formats_are_neutralised() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = Fmu::open(&ball_fmu(dir.path(), true)).unwrap();
    let logger = Arc::new(Collector::default());
    let mut slave = fmu.instantiate("ball", logger.clone()).unwrap();
    let expected = expected_hostile();
    let from_instantiate: Vec<String> = logger.messages().into_iter().map(|m| m.text).collect();
    assert_eq!(from_instantiate.len(), expected.len());
    for (n, (got, want)) in from_instantiate.iter().zip(&expected).enumerate() {
        assert_eq!(got, want, "message {n} logged by fmi2Instantiate");
    }

    // The same series from fmi2DoStep, then a normal step.
    slave.setup_experiment(None, 0.0, None).unwrap();
    slave.enter_initialization_mode().unwrap();
    slave.exit_initialization_mode().unwrap();
    assert_eq!(slave.do_step(0.0, 0.1, true).unwrap(), StepResult::Complete);
    let messages = logger.messages();
    let from_step: Vec<&str> = messages[expected.len()..].iter().map(|m| m.text.as_str()).collect();
    assert_eq!(from_step, expected.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(messages.iter().all(|m| m.status == Status::Warning && m.instance == "ball"));
    let mut count = [0.0];
    slave.get_real(&[1], &mut count).unwrap();
    assert_eq!(count, [1.0], "the instance still works after the hostile messages");
}

#[test]
fn hostile_log_formats_do_not_crash_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let fmu = ball_fmu(dir.path(), true);
    let out = run_ball(dir.path(), &fmu, "", r#"{ "stop": 0.2, "step": 0.1 }"#);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // FacadeLogger passes warnings on, the orchestrator prints them: the sane ones formatted, the
    // %n one verbatim.
    assert!(stderr.contains("[fmi2Warning] ball (hostile): 3 apples and 0.50 pears, fine"), "{stderr}");
    assert!(stderr.contains(&format!("[fmi2Warning] ball (hostile): %s%s%s%n{UNFORMATTED}")), "{stderr}");
    assert!(stderr.contains("[fmi2Warning] ball (hostile): a real string\n"), "{stderr}");
}
