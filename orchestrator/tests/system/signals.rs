//! External input signals against closed forms worked out by hand, and CSV table errors.

use std::path::PathBuf;

use cosim::system::{Signal, Table};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + b.abs())
}

#[test]
fn constant_is_constant() {
    let s = Signal::Constant(-3.5);
    for t in [-1.0, 0.0, 1e6] {
        assert_eq!(s.value(t), -3.5);
        assert_eq!(s.derivative(t), 0.0);
    }
}

#[test]
fn step_switches_at_its_time() {
    let s = Signal::Step { time: 1.0, before: 2.0, after: 50.0 };
    assert_eq!(s.value(0.0), 2.0);
    assert_eq!(s.value(0.999_999), 2.0);
    assert_eq!(s.value(1.0), 50.0, "the new value holds from the step time on");
    assert_eq!(s.value(7.0), 50.0);
    assert!(s.value(f64::NAN).is_nan());
}

#[test]
fn sine_matches_hand_values() {
    // 1 + 2 sin(2 pi 0.25 t + pi/2) = 1 + 2 cos(pi t / 2): 3 at t = 0, 1 at t = 1, -1 at t = 2,
    // 1 + sqrt(2) at t = 0.5.
    let s = Signal::Sine { amplitude: 2.0, frequency: 0.25, phase: std::f64::consts::FRAC_PI_2, offset: 1.0 };
    assert!(close(s.value(0.0), 3.0));
    assert!(close(s.value(1.0), 1.0));
    assert!(close(s.value(2.0), -1.0));
    assert!(close(s.value(0.5), 1.0 + 2f64.sqrt()));
    // d/dt = -pi sin(pi t / 2): 0 at t = 0, -pi at t = 1.
    assert!(close(s.derivative(0.0), 0.0));
    assert!(close(s.derivative(1.0), -std::f64::consts::PI));
    let plain = Signal::Sine { amplitude: 1.0, frequency: 0.5, phase: 0.0, offset: 0.0 };
    assert!(close(plain.value(0.5), 1.0), "sin(pi/2)");
    assert!(close(plain.value(1.5), -1.0), "sin(3 pi/2)");
}

#[test]
fn table_interpolates_between_and_holds_outside() {
    let s = Signal::Table(Table::new(vec![0.0, 1.0, 3.0], vec![0.0, 10.0, -10.0]).unwrap());
    assert_eq!(s.value(-5.0), 0.0, "first value before the table");
    assert_eq!(s.value(0.0), 0.0);
    assert_eq!(s.value(0.5), 5.0);
    assert_eq!(s.value(1.0), 10.0);
    assert_eq!(s.value(2.0), 0.0);
    assert_eq!(s.value(2.5), -5.0);
    assert_eq!(s.value(3.0), -10.0);
    assert_eq!(s.value(100.0), -10.0, "last value after the table");
    assert_eq!(s.derivative(0.5), 10.0);
    assert_eq!(s.derivative(1.0), -10.0, "right derivative at a table point");
    assert_eq!(s.derivative(-1.0), 0.0);
    assert_eq!(s.derivative(3.0), 0.0);
}

/// A CSV file in a fresh temporary directory (removed on drop).
struct Csv(PathBuf, #[allow(dead_code, reason = "removes the directory on drop")] tempfile::TempDir);

impl Csv {
    fn new(text: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.csv");
        std::fs::write(&path, text).unwrap();
        Self(path, dir)
    }

    fn error(&self, column: &str) -> String {
        Table::from_csv(&self.0, column).expect_err("the table should be refused").to_string()
    }
}

#[test]
fn csv_table_reads_the_named_column() {
    let csv = Csv::new("\"time\",\"Fx\",\"Fz\"\n0.0, 1.0, 100\n0.5, 2.0, 200\n2.0, 3.0, -100\n");
    let table = Table::from_csv(&csv.0, "Fz").unwrap();
    assert_eq!(table.times(), &[0.0, 0.5, 2.0]);
    assert_eq!(table.values(), &[100.0, 200.0, -100.0]);
    assert_eq!(table.value(0.25), 150.0);
    assert_eq!(table.value(1.0), 100.0);
    assert_eq!(Table::from_csv(&csv.0, "Fx").unwrap().value(1.25), 2.5);
}

#[test]
fn csv_errors_name_file_line_and_problem() {
    let file = |csv: &Csv| csv.0.display().to_string();

    let missing = Csv::new("");
    let gone = missing.0.with_file_name("gone.csv");
    assert_eq!(Table::from_csv(&gone, "Fz").unwrap_err().to_string(), format!("file not found: {}", gone.display()));

    let csv = Csv::new("\n\n");
    assert_eq!(csv.error("Fz"), format!("{}: no header row (the file is empty)", file(&csv)));

    let csv = Csv::new("time\n0\n");
    assert_eq!(
        csv.error("Fz"),
        format!("{}, line 1: the header needs a time column and at least one value column", file(&csv))
    );

    let csv = Csv::new("# comment\ntime,Fx,Fz\n0,1,2\n");
    assert_eq!(
        csv.error("Fq"),
        format!("{}, line 2: no column 'Fq' in the header (did you mean 'Fx'?) (value columns: Fx, Fz)", file(&csv))
    );
    assert_eq!(csv.error("time"), format!("{}, line 2: 'time' is the time column; choose a value column", file(&csv)));

    let csv = Csv::new("t,Fz,Fz\n0,1,2\n");
    assert_eq!(csv.error("Fz"), format!("{}, line 1: column 'Fz' appears more than once in the header", file(&csv)));

    let csv = Csv::new("time,Fx,Fz\n0,1,2\n1,2\n");
    assert_eq!(csv.error("Fz"), format!("{}, line 3: 2 fields, but the header has 3 columns", file(&csv)));

    let csv = Csv::new("time,Fz\n0,1\nabc,2\n");
    assert_eq!(csv.error("Fz"), format!("{}, line 3: 'abc' in the time column is not a number", file(&csv)));

    let csv = Csv::new("time,Fz\n0,1\n1,x2\n");
    assert_eq!(csv.error("Fz"), format!("{}, line 3: 'x2' in column 'Fz' is not a number", file(&csv)));

    let csv = Csv::new("time,Fz\n0,\n");
    assert_eq!(csv.error("Fz"), format!("{}, line 2: empty field in column 'Fz'", file(&csv)));

    let csv = Csv::new("time,Fz\n0,inf\n");
    assert_eq!(csv.error("Fz"), format!("{}, line 2: 'inf' in column 'Fz' is not a finite number", file(&csv)));

    let csv = Csv::new("time,Fz\n0,1\n2,1\n\n1,1\n");
    assert_eq!(
        csv.error("Fz"),
        format!(
            "{}, line 5: time 1 is not greater than the previous time 2 (line 3); times must be strictly increasing",
            file(&csv)
        )
    );

    let csv = Csv::new("time,Fz\n");
    assert_eq!(csv.error("Fz"), format!("{}: no data rows after the header (line 1)", file(&csv)));
}
