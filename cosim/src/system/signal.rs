//! Time signals that drive unconnected inputs: constants, steps, sines and CSV tables.

use std::f64::consts::TAU;
use std::path::{Path, PathBuf};

use super::names::{closest, did_you_mean};

/// A scalar signal of time, `value(t)`.
#[derive(Debug, Clone, PartialEq)]
pub enum Signal {
    /// The same value at all times.
    Constant(f64),
    /// `before` for `t < time`, `after` from `time` on.
    Step {
        /// Switching time, s.
        time: f64,
        /// Value before `time`.
        before: f64,
        /// Value at and after `time`.
        after: f64,
    },
    /// `offset + amplitude * sin(2 pi frequency t + phase)`.
    Sine {
        /// Amplitude.
        amplitude: f64,
        /// Frequency, Hz.
        frequency: f64,
        /// Phase at `t = 0`, rad.
        phase: f64,
        /// Constant added to the sine.
        offset: f64,
    },
    /// Linear interpolation in a table, holding the first and last values outside it.
    Table(Table),
    /// `value + slope (t - time) + curvature (t - time)^2 / 2`: an input given with its time
    /// derivatives at `time` (`fmi2SetRealInputDerivatives` of a system FMU).
    Polynomial {
        /// Expansion point, s.
        time: f64,
        /// Value at `time`.
        value: f64,
        /// First derivative at `time`, per s.
        slope: f64,
        /// Second derivative, per s².
        curvature: f64,
    },
}

impl Signal {
    /// The signal's value at time `t` (NaN for a NaN time).
    pub fn value(&self, t: f64) -> f64 {
        match self {
            Signal::Constant(c) => *c,
            Signal::Step { time, before, after } => {
                if t.is_nan() {
                    f64::NAN
                } else if t < *time {
                    *before
                } else {
                    *after
                }
            }
            Signal::Sine { amplitude, frequency, phase, offset } => {
                offset + amplitude * (TAU * frequency * t + phase).sin()
            }
            Signal::Table(table) => table.value(t),
            Signal::Polynomial { time, value, slope, curvature } => {
                let dt = t - time;
                value + dt * (slope + 0.5 * curvature * dt)
            }
        }
    }

    /// The time derivative at `t` (right derivative at table points and at a step, where it is
    /// zero), for masters that extrapolate inputs over a communication step.
    pub fn derivative(&self, t: f64) -> f64 {
        match self {
            Signal::Constant(_) | Signal::Step { .. } => 0.0,
            Signal::Sine { amplitude, frequency, phase, .. } => {
                amplitude * TAU * frequency * (TAU * frequency * t + phase).cos()
            }
            Signal::Table(table) => table.derivative(t),
            Signal::Polynomial { time, slope, curvature, .. } => slope + curvature * (t - time),
        }
    }

    /// The second time derivative at `t` (zero except for the sine and the polynomial: tables
    /// are piecewise linear), for masters that extrapolate inputs quadratically.
    pub fn second_derivative(&self, t: f64) -> f64 {
        match self {
            Signal::Sine { amplitude, frequency, phase, .. } => {
                -amplitude * (TAU * frequency).powi(2) * (TAU * frequency * t + phase).sin()
            }
            Signal::Polynomial { curvature, .. } => *curvature,
            Signal::Constant(_) | Signal::Step { .. } | Signal::Table(_) => 0.0,
        }
    }
}

/// A table `(times, values)` with strictly increasing times, interpolated linearly.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    times: Vec<f64>,
    values: Vec<f64>,
}

impl Table {
    /// A table from its columns: at least one point, equal lengths, finite numbers, strictly
    /// increasing times.
    pub fn new(times: Vec<f64>, values: Vec<f64>) -> Result<Self, TableError> {
        if times.is_empty() {
            return Err(TableError::Empty);
        }
        if times.len() != values.len() {
            return Err(TableError::Lengths { times: times.len(), values: values.len() });
        }
        if let Some(i) = times.iter().chain(&values).position(|v| !v.is_finite()) {
            return Err(TableError::NonFinite { point: i % times.len() });
        }
        if let Some(i) = times.windows(2).position(|w| w[1] <= w[0]) {
            return Err(TableError::NotIncreasing { point: i + 1, time: times[i + 1], previous: times[i] });
        }
        Ok(Self { times, values })
    }

    /// Reads column `column` of the CSV file at `path` (see [`Table::parse_csv`]); errors name
    /// the file, the line and the problem.
    pub fn from_csv(path: &Path, column: &str) -> Result<Self, CsvError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                CsvError::NotFound { path: path.to_path_buf() }
            } else {
                CsvError::Read { path: path.to_path_buf(), reason: e.to_string() }
            }
        })?;
        Self::parse_csv(&text, column, &path.display().to_string())
    }

    /// Parses CSV text: a header row of column names (optionally in double quotes), then rows of
    /// numbers separated by commas; the first column is the time, strictly increasing; `column`
    /// names the value column. Blank lines and lines starting with `#` are skipped. `source`
    /// names the text in errors (`source, line 7: ...`).
    pub fn parse_csv(text: &str, column: &str, source: &str) -> Result<Self, CsvError> {
        let at = |line: usize, problem: String| CsvError::Line { file: source.to_string(), line, problem };
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let Some((header_line, header)) = lines.next() else {
            return Err(CsvError::NoHeader { file: source.to_string() });
        };
        let names: Vec<&str> = header.split(',').map(unquote).collect();
        if names.len() < 2 {
            return Err(at(header_line, "the header needs a time column and at least one value column".into()));
        }
        let positions: Vec<usize> = (1..names.len()).filter(|&i| names[i] == column).collect();
        let col = match positions[..] {
            [i] => i,
            [] => {
                let problem = if names[0] == column {
                    format!("'{column}' is the time column; choose a value column")
                } else {
                    let suggestion = closest(column, names[1..].iter().map(|n| (*n, true)));
                    format!(
                        "no column '{column}' in the header{} (value columns: {})",
                        did_you_mean(suggestion),
                        names[1..].join(", ")
                    )
                };
                return Err(at(header_line, problem));
            }
            _ => return Err(at(header_line, format!("column '{column}' appears more than once in the header"))),
        };
        let mut times: Vec<f64> = Vec::new();
        let mut values = Vec::new();
        let mut previous_line = header_line;
        for (line, row) in lines {
            let fields: Vec<&str> = row.split(',').map(unquote).collect();
            if fields.len() != names.len() {
                return Err(at(line, format!("{} fields, but the header has {} columns", fields.len(), names.len())));
            }
            let number = |i: usize| -> Result<f64, CsvError> {
                let column = if i == 0 { "the time column".to_string() } else { format!("column '{}'", names[i]) };
                match fields[i].parse::<f64>() {
                    Ok(v) if v.is_finite() => Ok(v),
                    Ok(_) => Err(at(line, format!("'{}' in {column} is not a finite number", fields[i]))),
                    Err(_) if fields[i].is_empty() => Err(at(line, format!("empty field in {column}"))),
                    Err(_) => Err(at(line, format!("'{}' in {column} is not a number", fields[i]))),
                }
            };
            let t = number(0)?;
            if let Some(&last) = times.last()
                && t <= last
            {
                return Err(at(
                    line,
                    format!(
                        "time {t} is not greater than the previous time {last} (line {previous_line}); times must be strictly increasing"
                    ),
                ));
            }
            times.push(t);
            values.push(number(col)?);
            previous_line = line;
        }
        if times.is_empty() {
            return Err(CsvError::NoRows { file: source.to_string(), header_line });
        }
        Self::new(times, values).map_err(|error| CsvError::Table { file: source.to_string(), error })
    }

    /// The time column.
    pub fn times(&self) -> &[f64] {
        &self.times
    }

    /// The value column.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// Index `i` of the segment `[times[i], times[i + 1])` holding `t`, or `None` outside the
    /// table (and for a NaN time).
    fn segment(&self, t: f64) -> Option<usize> {
        let n = self.times.len();
        if n < 2 || !(t >= self.times[0] && t < self.times[n - 1]) {
            return None;
        }
        Some(self.times.partition_point(|&x| x <= t) - 1)
    }

    /// Linear interpolation at `t`; the first value before the table, the last after it.
    pub fn value(&self, t: f64) -> f64 {
        if t.is_nan() {
            return f64::NAN;
        }
        match self.segment(t) {
            Some(i) => {
                let (t0, t1) = (self.times[i], self.times[i + 1]);
                let (v0, v1) = (self.values[i], self.values[i + 1]);
                v0 + (v1 - v0) * (t - t0) / (t1 - t0)
            }
            None if t < self.times[0] => self.values[0],
            None => self.values[self.values.len() - 1],
        }
    }

    /// Slope of the segment holding `t` (zero outside the table).
    pub fn derivative(&self, t: f64) -> f64 {
        match self.segment(t) {
            Some(i) => (self.values[i + 1] - self.values[i]) / (self.times[i + 1] - self.times[i]),
            None => 0.0,
        }
    }
}

/// Why [`Table::new`] refuses its columns.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TableError {
    /// No point at all.
    #[error("a table needs at least one point")]
    Empty,
    /// The columns differ in length.
    #[error("{times} times but {values} values")]
    Lengths {
        /// Number of times.
        times: usize,
        /// Number of values.
        values: usize,
    },
    /// A time or value is NaN or infinite.
    #[error("non-finite number at point {point}")]
    NonFinite {
        /// The point (0-based).
        point: usize,
    },
    /// A time is not greater than the one before it.
    #[error(
        "time {time} at point {point} is not greater than the previous time {previous}; times must be strictly increasing"
    )]
    NotIncreasing {
        /// The point (0-based).
        point: usize,
        /// Its time.
        time: f64,
        /// The time of the point before.
        previous: f64,
    },
}

/// Why a CSV table could not be read ([`Table::from_csv`], [`Table::parse_csv`]); the message
/// names the file, the line and the problem.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CsvError {
    /// The file does not exist.
    #[error("file not found: {}", path.display())]
    NotFound {
        /// The file.
        path: PathBuf,
    },
    /// The file exists but could not be read.
    #[error("cannot read {}: {reason}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        reason: String,
    },
    /// Nothing but blank and comment lines.
    #[error("{file}: no header row (the file is empty)")]
    NoHeader {
        /// The file's name in messages.
        file: String,
    },
    /// A header without data rows.
    #[error("{file}: no data rows after the header (line {header_line})")]
    NoRows {
        /// The file's name in messages.
        file: String,
        /// The header's line (1-based).
        header_line: usize,
    },
    /// A problem on one line: the header (too few columns, the column missing or repeated) or a
    /// row (field count, a field that is not a finite number, time not increasing).
    #[error("{file}, line {line}: {problem}")]
    Line {
        /// The file's name in messages.
        file: String,
        /// The line (1-based).
        line: usize,
        /// What is wrong there.
        problem: String,
    },
    /// The columns read are not a valid table.
    #[error("{file}: {error}")]
    Table {
        /// The file's name in messages.
        file: String,
        /// Why the table is refused.
        error: TableError,
    },
}

/// A CSV field without surrounding whitespace and double quotes.
fn unquote(field: &str) -> &str {
    let field = field.trim();
    field.strip_prefix('"').and_then(|f| f.strip_suffix('"')).unwrap_or(field)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_with_quoted_header_comments_and_blank_lines() {
        let text = "# gust\n\"time\",\"Fx\",\"Fz\"\r\n0, 1, 10\n\n1, 2, 30\n";
        let table = Table::parse_csv(text, "Fz", "g.csv").unwrap();
        assert_eq!(table.times(), &[0.0, 1.0]);
        assert_eq!(table.values(), &[10.0, 30.0]);
        assert_eq!(table.value(0.25), 15.0);
        assert_eq!(table.derivative(0.25), 20.0);
        assert_eq!(table.derivative(2.0), 0.0);
    }

    #[test]
    fn single_point_table_is_constant() {
        let table = Table::new(vec![1.0], vec![5.0]).unwrap();
        assert_eq!(table.value(-3.0), 5.0);
        assert_eq!(table.value(1.0), 5.0);
        assert_eq!(table.value(9.0), 5.0);
        assert!(table.value(f64::NAN).is_nan());
    }

    #[test]
    fn table_new_rejects_bad_columns() {
        assert!(Table::new(vec![], vec![]).unwrap_err().to_string().contains("at least one point"));
        assert!(Table::new(vec![0.0, 1.0], vec![1.0]).unwrap_err().to_string().contains("2 times but 1 values"));
        assert!(Table::new(vec![0.0, f64::NAN], vec![1.0, 2.0]).unwrap_err().to_string().contains("non-finite"));
        assert!(Table::new(vec![0.0, 0.0], vec![1.0, 2.0]).unwrap_err().to_string().contains("strictly increasing"));
    }
}
