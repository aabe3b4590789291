//! A small reader for the numeric CSV tables that model parameters name (table files in an
//! FMU's `resources/` or anywhere on disk): one header line of `name [unit]` columns, then rows
//! of numbers separated by commas. Blank lines and lines whose first non-blank character is `#`
//! are comments. Every error names the file, the 1-based line and, where one field is at fault,
//! the 1-based column and its header text.
//!
//! The reader only splits and parses; what the columns mean, which units they accept
//! ([`unit_factor`]) and how the rows must be ordered is the caller's business
//! ([`CsvTable::error`] builds the caller's errors with the same position format).

use std::fmt;
use std::path::Path;

/// A bad table file: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvError {
    /// The file (as given).
    pub file: String,
    /// 1-based line number (0: the file could not be read).
    pub line: usize,
    /// 1-based column number and the column's header text, where one field is at fault.
    pub column: Option<(usize, String)>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: ", self.file, self.line)?;
        if let Some((number, name)) = &self.column {
            write!(f, "column {number} ({name}): ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for CsvError {}

/// One header column: its name and unit as written (`alpha [deg]` gives `alpha`, `deg`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvColumn {
    /// Name, trimmed.
    pub name: String,
    /// Unit between the brackets, trimmed.
    pub unit: String,
    /// The header field as written, for errors.
    pub text: String,
}

/// One data row: its line number and its values, one per header column.
#[derive(Clone, Debug, PartialEq)]
pub struct CsvRow {
    /// 1-based line number in the file.
    pub line: usize,
    /// The values, in header order (finite numbers).
    pub values: Vec<f64>,
}

/// A parsed table: the header and the data rows.
#[derive(Clone, Debug, PartialEq)]
pub struct CsvTable {
    /// The file name errors give.
    pub file: String,
    /// Line of the header.
    pub header_line: usize,
    /// Header columns, in order.
    pub columns: Vec<CsvColumn>,
    /// Data rows, in file order.
    pub rows: Vec<CsvRow>,
}

impl CsvTable {
    /// Reads and parses the file at `path`.
    pub fn read(path: &Path) -> Result<Self, CsvError> {
        let (text, file) = read_text(path)?;
        Self::parse(&text, &file)
    }

    /// Parses a table's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Self, CsvError> {
        let mut lines = content_lines(text);
        let mut table = Self::with_header(lines.next(), file)?;
        for (line, row) in lines {
            let fields: Vec<&str> = row.split(',').map(str::trim).collect();
            if fields.len() != table.columns.len() {
                let message = format!("{} fields, the header has {}", fields.len(), table.columns.len());
                return Err(table.error(line, None, message));
            }
            let mut values = Vec::with_capacity(fields.len());
            for (k, field) in fields.iter().enumerate() {
                let value = field.parse::<f64>().ok().filter(|v| v.is_finite());
                let value = value.ok_or_else(|| table.error(line, Some(k), format!("`{field}` is not a number")))?;
                values.push(value);
            }
            table.rows.push(CsvRow { line, values });
        }
        Ok(table)
    }

    /// Parses only the header line of a table's text (no rows), so that a caller can check its
    /// columns before any row is read.
    pub fn parse_header(text: &str, file: &str) -> Result<Self, CsvError> {
        Self::with_header(content_lines(text).next(), file)
    }

    /// A table with the columns of `header` (line number, text) and no rows.
    fn with_header(header: Option<(usize, &str)>, file: &str) -> Result<Self, CsvError> {
        let mut table = CsvTable { file: file.to_owned(), header_line: 1, columns: Vec::new(), rows: Vec::new() };
        let (header_line, header) = header.ok_or_else(|| table.error(1, None, "no header line".into()))?;
        table.header_line = header_line;
        for (k, text) in header.split(',').map(str::trim).enumerate() {
            let (name, unit) = match (text.find('['), text.ends_with(']')) {
                (Some(open), true) => (text[..open].trim(), text[open + 1..text.len() - 1].trim()),
                _ => {
                    let message = "expected a header field `name [unit]`".to_owned();
                    return Err(CsvError {
                        column: Some((k + 1, text.to_owned())),
                        ..table.error(header_line, None, message)
                    });
                }
            };
            table.columns.push(CsvColumn { name: name.to_owned(), unit: unit.to_owned(), text: text.to_owned() });
        }
        Ok(table)
    }

    /// An error at `line`, at the 0-based column `column` of the header when given.
    pub fn error(&self, line: usize, column: Option<usize>, message: String) -> CsvError {
        CsvError {
            file: self.file.clone(),
            line,
            column: column.and_then(|k| self.columns.get(k).map(|c| (k + 1, c.text.clone()))),
            message,
        }
    }

    /// The 0-based position of the column named `name` (ASCII case ignored), or an error at the
    /// header line.
    pub fn column(&self, name: &str) -> Result<usize, CsvError> {
        let found = self.columns.iter().position(|c| c.name.eq_ignore_ascii_case(name));
        found.ok_or_else(|| {
            let names: Vec<&str> = self.columns.iter().map(|c| c.name.as_str()).collect();
            self.error(self.header_line, None, format!("missing column `{name}` (the header has {})", names.join(", ")))
        })
    }

    /// The factor to SI of column `k`'s unit among `accepted` (see [`unit_factor`]), or an error
    /// at the header naming the accepted units.
    pub fn unit_factor(&self, k: usize, accepted: &[(&str, f64)]) -> Result<f64, CsvError> {
        unit_factor(&self.columns[k].unit, accepted).ok_or_else(|| {
            let names: Vec<&str> = accepted.iter().map(|u| u.0).collect();
            let message = format!("unknown unit `{}`; accepted: {}", self.columns[k].unit, names.join(", "));
            self.error(self.header_line, Some(k), message)
        })
    }
}

/// The text of the file at `path` and its name for errors (a [`CsvError`] at line 0 when it
/// cannot be read).
pub fn read_text(path: &Path) -> Result<(String, String), CsvError> {
    let file = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => Ok((text, file)),
        Err(e) => Err(CsvError { file, line: 0, column: None, message: format!("cannot read the file: {e}") }),
    }
}

/// The lines of `text` that are not blank or comments, trimmed, with their 1-based numbers.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// The factor to SI of `unit` among `accepted` (normalised spelling, factor), ignoring spaces,
/// `*`, `.`, `^` and the middle dot (`m^2`, `m2` and `m 2` are one unit); `None` when unknown.
pub fn unit_factor(unit: &str, accepted: &[(&str, f64)]) -> Option<f64> {
    let normalised: String = unit.chars().filter(|c| !matches!(c, ' ' | '*' | '.' | '^' | '\u{b7}')).collect();
    accepted.iter().find(|(u, _)| *u == normalised).map(|&(_, factor)| factor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_header_units_and_rows_with_their_lines() {
        let text = "# comment\n\nx [m], y [ft^2]\n1, 2.5\n# more\n-3e1, 4\n";
        let t = CsvTable::parse(text, "t.csv").unwrap();
        assert_eq!(t.header_line, 3);
        assert_eq!((t.columns[1].name.as_str(), t.columns[1].unit.as_str()), ("y", "ft^2"));
        assert_eq!(
            t.rows,
            vec![CsvRow { line: 4, values: vec![1.0, 2.5] }, CsvRow { line: 6, values: vec![-30.0, 4.0] }]
        );
        assert_eq!(t.unit_factor(1, &[("ft2", 0.3048 * 0.3048)]).unwrap(), 0.3048 * 0.3048);
        assert_eq!(t.column("Y").unwrap(), 1);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let err = CsvTable::parse("x [m], y [m]\n1, 2\n3, nan\n", "t.csv").unwrap_err();
        assert_eq!(err.to_string(), "t.csv:3: column 2 (y [m]): `nan` is not a number");
        let err = CsvTable::parse("x [m], y\n", "t.csv").unwrap_err();
        assert_eq!(err.to_string(), "t.csv:1: column 2 (y): expected a header field `name [unit]`");
        let err = CsvTable::parse("x [m], y [m]\n1\n", "t.csv").unwrap_err();
        assert_eq!(err.to_string(), "t.csv:2: 1 fields, the header has 2");
        let t = CsvTable::parse("x [m]\n", "t.csv").unwrap();
        assert_eq!(t.column("z").unwrap_err().to_string(), "t.csv:1: missing column `z` (the header has x)");
        assert_eq!(
            t.unit_factor(0, &[("ft", 0.3048)]).unwrap_err().to_string(),
            "t.csv:1: column 1 (x [m]): unknown unit `m`; accepted: ft"
        );
        assert!(CsvTable::parse("# only\n", "t.csv").unwrap_err().to_string().contains("t.csv:1: no header"));
    }
}
