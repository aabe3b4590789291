//! Result files beside the FMPy-style CSV of [`Results::save_csv`]: the units table of the
//! columns, and the MAT v4 trajectory file that Modelica tools' plotters read.

use std::io::{self, Write};
use std::path::Path;

use crate::master::Results;
use crate::system::System;

/// What a reader needs to know about one recorded column besides its values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnInfo {
    /// `instance.variable`, as in the CSV header.
    pub name: String,
    /// The variable's unit from the model description (empty: none declared).
    pub unit: String,
    /// The variable's description (empty: none).
    pub description: String,
}

/// The [`ColumnInfo`] of every recorded variable of `system`, in recording order.
pub fn column_infos(system: &System) -> Vec<ColumnInfo> {
    system
        .outputs
        .iter()
        .map(|&r| {
            let variable = system.variable(r);
            ColumnInfo {
                name: system.name(r),
                unit: variable.unit.clone().unwrap_or_default(),
                description: variable.description.clone().unwrap_or_default(),
            }
        })
        .collect()
}

/// `results.csv` → `results.units.csv`: where the units of a CSV's columns are written.
pub fn units_path(csv: &Path) -> std::path::PathBuf {
    let stem = csv.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    csv.with_file_name(format!("{stem}.units.csv"))
}

/// Writes `"name","unit","description"` and one row per column (time first, in s).
pub fn write_units_csv(columns: &[ColumnInfo], out: &mut impl Write) -> io::Result<()> {
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    writeln!(out, "\"name\",\"unit\",\"description\"")?;
    writeln!(out, "\"time\",\"s\",\"simulation time\"")?;
    for c in columns {
        writeln!(out, "{},{},{}", quote(&c.name), quote(&c.unit), quote(&c.description))?;
    }
    Ok(())
}

/// Writes `results` as a MAT v4 file in the Dymola/OpenModelica trajectory layout
/// (`Aclass` = `Atrajectory`, `1.1`, ``, `binTrans`): `name` and `description` as character
/// matrices with one column per variable (time first), `dataInfo` (int32, 4 per variable: data
/// block, 1-based column, interpolation 0, extrapolation -1), `data_1` holding only the time
/// interval, and `data_2` with one column per communication point (time, then every recorded
/// variable). Units are appended to the descriptions as ` [unit]`, as Dymola does.
pub fn write_mat(results: &Results, columns: &[ColumnInfo], out: &mut impl Write) -> io::Result<()> {
    if columns.len() != results.names.len() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "column information does not match the results"));
    }
    let names: Vec<String> =
        std::iter::once("time".to_string()).chain(columns.iter().map(|c| c.name.clone())).collect();
    let descriptions: Vec<String> = std::iter::once("Simulation time [s]".to_string())
        .chain(columns.iter().map(|c| match (c.description.is_empty(), c.unit.is_empty()) {
            (_, true) => c.description.clone(),
            (true, false) => format!("[{}]", c.unit),
            (false, false) => format!("{} [{}]", c.description, c.unit),
        }))
        .collect();
    write_text_matrix(out, "Aclass", &["Atrajectory", "1.1", "", "binTrans"], false)?;
    write_text_matrix(out, "name", &names, true)?;
    write_text_matrix(out, "description", &descriptions, true)?;

    let n = names.len();
    let mut info = Vec::with_capacity(4 * n);
    info.extend_from_slice(&[0, 1, 0, -1]);
    for k in 1..n {
        info.extend_from_slice(&[2, k as i32 + 1, 0, -1]);
    }
    write_header(out, "dataInfo", 20, 4, n)?;
    for v in info {
        out.write_all(&v.to_le_bytes())?;
    }

    let (t0, t1) = match (results.time.first(), results.time.last()) {
        (Some(&a), Some(&b)) => (a, b),
        _ => (0.0, 0.0),
    };
    write_header(out, "data_1", 0, 1, 2)?;
    for v in [t0, t1] {
        out.write_all(&v.to_le_bytes())?;
    }
    let width = results.names.len();
    write_header(out, "data_2", 0, n, results.time.len())?;
    for (row, t) in results.time.iter().enumerate() {
        out.write_all(&t.to_le_bytes())?;
        for v in &results.values[row * width..(row + 1) * width] {
            out.write_all(&v.to_le_bytes())?;
        }
    }
    Ok(())
}

/// A real MAT v4 matrix `name` of `rows x columns` from `column_major` values.
pub fn write_real_matrix(
    out: &mut impl Write,
    name: &str,
    rows: usize,
    columns: usize,
    column_major: &[f64],
) -> io::Result<()> {
    debug_assert_eq!(column_major.len(), rows * columns);
    write_header(out, name, 0, rows, columns)?;
    for v in column_major {
        out.write_all(&v.to_le_bytes())?;
    }
    Ok(())
}

/// A MAT v4 character matrix `name` with one of `names` per row, padded with spaces.
pub fn write_names(out: &mut impl Write, name: &str, names: &[String]) -> io::Result<()> {
    write_text_matrix(out, name, names, false)
}

/// A MAT v4 matrix header: type `MOPT` (little-endian, `P` precision, `T` text or numeric),
/// rows, columns, no imaginary part, the NUL-terminated name.
fn write_header(out: &mut impl Write, name: &str, kind: i32, rows: usize, columns: usize) -> io::Result<()> {
    let too_big = |_| io::Error::new(io::ErrorKind::InvalidInput, format!("matrix '{name}' is too large for MAT v4"));
    let rows = i32::try_from(rows).map_err(too_big)?;
    let columns = i32::try_from(columns).map_err(too_big)?;
    for v in [kind, rows, columns, 0, name.len() as i32 + 1] {
        out.write_all(&v.to_le_bytes())?;
    }
    out.write_all(name.as_bytes())?;
    out.write_all(&[0])
}

/// A character matrix of `strings` padded with spaces: one string per column (`transposed`,
/// the `binTrans` layout) or per row.
fn write_text_matrix(
    out: &mut impl Write,
    name: &str,
    strings: &[impl AsRef<str>],
    transposed: bool,
) -> io::Result<()> {
    let width = strings.iter().map(|s| s.as_ref().len()).max().unwrap_or(0).max(1);
    let padded: Vec<Vec<u8>> = strings
        .iter()
        .map(|s| {
            let mut bytes = s.as_ref().as_bytes().to_vec();
            bytes.resize(width, b' ');
            bytes
        })
        .collect();
    if transposed {
        // Column-major with one string per column: each string's bytes are contiguous.
        write_header(out, name, 51, width, strings.len())?;
        for s in &padded {
            out.write_all(s)?;
        }
    } else {
        // Column-major with one string per row: character k of every string, then k + 1.
        write_header(out, name, 51, strings.len(), width)?;
        for k in 0..width {
            for s in &padded {
                out.write_all(&[s[k]])?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads one MAT v4 matrix: (type, rows, columns, name, data bytes).
    fn read_matrix(bytes: &[u8], at: &mut usize) -> (i32, usize, usize, String, Vec<u8>) {
        let int = |k: usize| i32::from_le_bytes(bytes[*at + 4 * k..*at + 4 * k + 4].try_into().unwrap());
        let (kind, rows, columns, name_len) = (int(0), int(1) as usize, int(2) as usize, int(4) as usize);
        *at += 20;
        let name = String::from_utf8(bytes[*at..*at + name_len - 1].to_vec()).unwrap();
        *at += name_len;
        let size = match kind {
            0 => 8,
            20 => 4,
            51 => 1,
            other => panic!("unexpected type {other}"),
        };
        let data = bytes[*at..*at + rows * columns * size].to_vec();
        *at += rows * columns * size;
        (kind, rows, columns, name, data)
    }

    #[test]
    fn mat_file_has_the_trajectory_layout() {
        let mut results = Results::new(vec!["a.x".into(), "a.long_name".into()], 2);
        results.push(0.0, &[1.0, 2.0]);
        results.push(0.5, &[3.0, 4.0]);
        let columns = vec![
            ColumnInfo { name: "a.x".into(), unit: "m".into(), description: "position".into() },
            ColumnInfo { name: "a.long_name".into(), unit: String::new(), description: String::new() },
        ];
        let mut bytes = Vec::new();
        write_mat(&results, &columns, &mut bytes).unwrap();
        let mut at = 0;
        let (_, rows, columns_aclass, name, data) = read_matrix(&bytes, &mut at);
        assert_eq!((name.as_str(), rows, columns_aclass), ("Aclass", 4, 11));
        // Row 0 read across the column-major storage.
        let row0: String = (0..11).map(|c| data[c * 4] as char).collect();
        assert_eq!(row0, "Atrajectory");
        let row3: String = (0..11).map(|c| data[c * 4 + 3] as char).collect();
        assert_eq!(row3.trim_end(), "binTrans");
        let (_, width, count, name, data) = read_matrix(&bytes, &mut at);
        assert_eq!((name.as_str(), count), ("name", 3));
        let names: Vec<String> =
            data.chunks(width).map(|c| String::from_utf8(c.to_vec()).unwrap().trim_end().to_string()).collect();
        assert_eq!(names, ["time", "a.x", "a.long_name"]);
        let (_, width, _, name, data) = read_matrix(&bytes, &mut at);
        assert_eq!(name, "description");
        assert_eq!(String::from_utf8(data[width..2 * width].to_vec()).unwrap().trim_end(), "position [m]");
        let (kind, rows, count, name, data) = read_matrix(&bytes, &mut at);
        assert_eq!((kind, rows, count, name.as_str()), (20, 4, 3, "dataInfo"));
        let info: Vec<i32> = data.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(info, [0, 1, 0, -1, 2, 2, 0, -1, 2, 3, 0, -1]);
        let (_, _, _, name, data) = read_matrix(&bytes, &mut at);
        let f64s = |d: &[u8]| d.chunks(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect::<Vec<_>>();
        assert_eq!((name.as_str(), f64s(&data)), ("data_1", vec![0.0, 0.5]));
        let (_, rows, count, name, data) = read_matrix(&bytes, &mut at);
        assert_eq!((name.as_str(), rows, count), ("data_2", 3, 2));
        assert_eq!(f64s(&data), [0.0, 1.0, 2.0, 0.5, 3.0, 4.0]);
        assert_eq!(at, bytes.len());
    }

    #[test]
    fn units_table_lists_time_then_every_column() {
        let columns = vec![ColumnInfo { name: "a.\"q\"".into(), unit: "rad".into(), description: "angle, x".into() }];
        let mut text = Vec::new();
        write_units_csv(&columns, &mut text).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "\"name\",\"unit\",\"description\"\n\"time\",\"s\",\"simulation time\"\n\"a.\"\"q\"\"\",\"rad\",\"angle, x\"\n"
        );
        assert_eq!(units_path(Path::new("out/results.csv")), Path::new("out/results.units.csv"));
    }
}
