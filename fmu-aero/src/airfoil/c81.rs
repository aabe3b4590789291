//! A reader for C81 airfoil tables: lift, drag and moment coefficients against angle of attack
//! (degrees) and Mach number.
//!
//! **Format**, as read by `load` in `c81utils.py` (github.com/cibinjoseph/c81utils) and declared
//! by the `C81_class` of `libC81.f90` in the same author's C81-Interface (counts `ML, NL, MD, ND,
//! MM, NM`), checked against the sample files they ship (c81utils `sample1.C81`):
//!
//! ```text
//! line 1:     columns 1-30 airfoil name, then six 2-digit integers in columns 31-42:
//!             ML NL MD ND MM NM  (Mach and angle counts of the lift, drag and moment tables)
//! per table (lift, then drag, then moment), with M Mach numbers and N angles:
//!   Mach line:  7 blank columns, then the M Mach numbers, 9 per line (continuation lines start
//!               with 7 blank columns too)
//!   N rows:     the angle of attack (deg) in columns 1-7, then the M coefficients, one per Mach
//!               number, 9 per line, continued on further lines like the Mach line
//! ```
//!
//! A table with more than 9 Mach numbers continues on further lines (c81utils switches to two
//! lines already at 9, which its own samples never exercise; 9 values fit the first line's
//! columns 8-70). Fields are read as blank-separated numbers (Fortran's `F7.x` output always leaves a blank
//! between values of this size; two values run together are reported as a bad number), `D`
//! exponents are accepted. Angles and Mach numbers must increase strictly. Every error names the
//! line and column (1-based) and what was expected.

use std::fmt;

/// Values per line of a C81 table (after the 7-column angle field).
const PER_LINE: usize = 9;

/// One coefficient against angle of attack and Mach number.
#[derive(Debug, Clone, PartialEq)]
pub struct CoefficientTable {
    /// Mach numbers, increasing.
    pub mach: Vec<f64>,
    /// Angles of attack, deg, increasing.
    pub alpha_deg: Vec<f64>,
    /// Coefficients, angle-major: `values[i * mach.len() + k]` at `alpha_deg[i]`, `mach[k]`.
    pub values: Vec<f64>,
    /// Per 1-deg bin from `alpha_deg[0]`: the last angle index at or below the bin's start, so
    /// that a lookup brackets its angle in a step or two instead of a binary search.
    bins: Vec<u32>,
    /// Every value is zero (a lookup is then free).
    all_zero: bool,
    /// `1 / (alpha_deg[i + 1] - alpha_deg[i])`.
    inv_step: Vec<f64>,
}

/// A coefficient interpolated from a [`CoefficientTable`], with its slopes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lookup {
    /// The coefficient.
    pub value: f64,
    /// Its derivative with respect to the angle of attack, 1/deg (zero where the angle is clamped).
    pub d_alpha: f64,
    /// Its derivative with respect to the Mach number (zero where the Mach number is clamped).
    pub d_mach: f64,
    /// The Mach number was outside the table's range and was clamped to its end.
    pub mach_clamped: bool,
}

/// The lift, drag and pitching-moment tables of one airfoil.
#[derive(Debug, Clone, PartialEq)]
pub struct C81Airfoil {
    /// The name in columns 1-30 of the header, trimmed.
    pub name: String,
    /// Lift coefficient.
    pub lift: CoefficientTable,
    /// Drag coefficient.
    pub drag: CoefficientTable,
    /// Pitching-moment coefficient (about the quarter chord, nose up positive).
    pub moment: CoefficientTable,
}

/// A malformed C81 file: where (1-based line and column) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct C81Error {
    /// The file (or other source) name, for the message.
    pub source: String,
    /// Line, 1-based.
    pub line: usize,
    /// Column, 1-based.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for C81Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.source, self.line, self.column, self.message)
    }
}

impl std::error::Error for C81Error {}

/// Position of the point below `x` in the increasing `grid` and the weight of the point above
/// (`x` clamped to the grid's ends), and whether `x` was clamped.
fn bracket(grid: &[f64], x: f64) -> (usize, f64, bool) {
    let last = grid.len() - 1;
    if last == 0 {
        return (0, 0.0, false);
    }
    if x <= grid[0] {
        return (0, 0.0, x < grid[0]);
    }
    if x >= grid[last] {
        return (last - 1, 1.0, x > grid[last]);
    }
    // grid[i] <= x < grid[i + 1].
    let i = grid.partition_point(|&g| g <= x) - 1;
    (i, (x - grid[i]) / (grid[i + 1] - grid[i]), false)
}

impl CoefficientTable {
    /// A table from its grids and values (angle-major), with its angle index.
    pub fn new(mach: Vec<f64>, alpha_deg: Vec<f64>, values: Vec<f64>) -> Self {
        let (first, last) = (alpha_deg[0], alpha_deg[alpha_deg.len() - 1]);
        let n_bins = (last - first).floor() as usize + 1;
        let bins = (0..n_bins).map(|b| (alpha_deg.partition_point(|&a| a <= first + b as f64) - 1) as u32).collect();
        let all_zero = values.iter().all(|&v| v == 0.0);
        let inv_step = alpha_deg.windows(2).map(|w| 1.0 / (w[1] - w[0])).collect();
        CoefficientTable { mach, alpha_deg, values, bins, all_zero, inv_step }
    }

    /// [`bracket`] over the angles, starting from the angle's 1-deg bin.
    #[inline(always)]
    fn bracket_alpha(&self, x: f64) -> (usize, f64, bool) {
        let grid = &self.alpha_deg;
        let last = grid.len() - 1;
        if last == 0 || x <= grid[0] || x >= grid[last] {
            return bracket(grid, x);
        }
        let bin = ((x - grid[0]) as usize).min(self.bins.len() - 1);
        let mut i = self.bins[bin] as usize;
        while grid[i + 1] <= x {
            i += 1;
        }
        (i, (x - grid[i]) * self.inv_step[i], false)
    }

    /// Bilinear interpolation: linear in the angle of attack between the two neighbouring
    /// angles, linear in the Mach number between the two neighbouring Mach numbers. Beyond the
    /// ends of either range the value at the end is used (clamped, zero slope along that axis);
    /// [`Lookup::mach_clamped`] says when the Mach number was.
    #[inline(always)]
    pub fn lookup(&self, alpha_deg: f64, mach: f64) -> Lookup {
        if self.all_zero {
            let mach_clamped = self.mach.len() > 1 && (mach < self.mach[0] || mach > self.mach[self.mach.len() - 1]);
            return Lookup { value: 0.0, d_alpha: 0.0, d_mach: 0.0, mach_clamped };
        }
        self.interpolate(self.bracket_alpha(alpha_deg), bracket(&self.mach, mach))
    }

    /// Zero everywhere and at most one Mach number: every lookup is exactly zero and never clamps.
    pub fn is_zero(&self) -> bool {
        self.all_zero && self.mach.len() <= 1
    }

    /// [`CoefficientTable::lookup`] at the brackets `(index, weight, clamped)` of the angle and
    /// the Mach number in this table's grids.
    #[inline(always)]
    fn interpolate(
        &self,
        (i, wa, alpha_clamped): (usize, f64, bool),
        (k, wm, mach_clamped): (usize, f64, bool),
    ) -> Lookup {
        let nm = self.mach.len();
        let at = |i: usize, k: usize| self.values[i * nm + k];
        let (i1, k1) = ((i + 1).min(self.alpha_deg.len() - 1), (k + 1).min(nm - 1));
        // Along Mach at the two angles, then along the angle.
        let lo = at(i, k) + wm * (at(i, k1) - at(i, k));
        let hi = at(i1, k) + wm * (at(i1, k1) - at(i1, k));
        let value = lo + wa * (hi - lo);
        let d_alpha = if alpha_clamped || i1 == i { 0.0 } else { (hi - lo) * self.inv_step[i] };
        let d_mach = if mach_clamped || k1 == k {
            0.0
        } else {
            let slope = |i: usize| (at(i, k1) - at(i, k)) / (self.mach[k1] - self.mach[k]);
            slope(i) + wa * (slope(i1) - slope(i))
        };
        Lookup { value, d_alpha, d_mach, mach_clamped }
    }
}

impl C81Airfoil {
    /// The lift and the drag table have the same angles and Mach numbers, so that
    /// [`C81Airfoil::lift_drag`] can bracket once for both.
    pub fn lift_drag_share_grid(&self) -> bool {
        self.lift.alpha_deg == self.drag.alpha_deg && self.lift.mach == self.drag.mach
    }

    /// The lift and the drag lookups ([`CoefficientTable::lookup`]); with `shared_grid` (which
    /// must be [`C81Airfoil::lift_drag_share_grid`]) the angle and the Mach number are bracketed
    /// once for both, with the same results bit for bit.
    #[inline(always)]
    pub fn lift_drag(&self, alpha_deg: f64, mach: f64, shared_grid: bool) -> (Lookup, Lookup) {
        if !shared_grid {
            return (self.lift.lookup(alpha_deg, mach), self.drag.lookup(alpha_deg, mach));
        }
        let (a, m) = (self.lift.bracket_alpha(alpha_deg), bracket(&self.lift.mach, mach));
        (self.lift.interpolate(a, m), self.drag.interpolate(a, m))
    }
}

/// The lines of the file with their numbers, and the position reached.
struct Lines<'a> {
    source: &'a str,
    lines: Vec<&'a str>,
    next: usize,
}

impl<'a> Lines<'a> {
    fn error(&self, line: usize, column: usize, message: String) -> C81Error {
        C81Error { source: self.source.to_string(), line, column, message }
    }

    /// The next line and its 1-based number; `what` names the expected content for the error
    /// when the file ends.
    fn take(&mut self, what: &str) -> Result<(usize, &'a str), C81Error> {
        match self.lines.get(self.next) {
            Some(line) => {
                self.next += 1;
                Ok((self.next, line))
            }
            None => Err(self.error(self.lines.len() + 1, 1, format!("the file ends where {what} was expected"))),
        }
    }

    /// Reads `count` numbers from the next line; `what` names the line for the messages.
    fn numbers(&mut self, count: usize, what: &str) -> Result<Vec<f64>, C81Error> {
        let (number, line) = self.take(what)?;
        let mut out = Vec::with_capacity(count);
        for (column, field) in fields(line) {
            if out.len() == count {
                return Err(self.error(number, column, format!("{what}: more than the {count} numbers expected")));
            }
            let value = parse_number(field)
                .ok_or_else(|| self.error(number, column, format!("{what}: '{field}' is not a number")))?;
            out.push(value);
        }
        if out.len() < count {
            let column = line.trim_end().len() + 1;
            return Err(self.error(number, column, format!("{what}: {count} numbers expected, found {}", out.len())));
        }
        Ok(out)
    }

    /// `count` values spread over lines of [`PER_LINE`], after `lead` leading numbers on the
    /// first line.
    fn spread(&mut self, lead: usize, count: usize, what: &str) -> Result<Vec<f64>, C81Error> {
        let first = count.min(PER_LINE);
        let mut out = self.numbers(lead + first, what)?;
        while out.len() < lead + count {
            let more = (lead + count - out.len()).min(PER_LINE);
            out.extend(self.numbers(more, &format!("{what} (continued)"))?);
        }
        Ok(out)
    }

    /// One table of `n_mach` Mach numbers and `n_alpha` rows.
    fn table(&mut self, name: &str, n_mach: usize, n_alpha: usize) -> Result<CoefficientTable, C81Error> {
        let mach_line = self.next + 1;
        let mach = self.spread(0, n_mach, &format!("the {name} table's Mach numbers"))?;
        increasing(&mach).map_err(|k| {
            self.error(mach_line, 1, format!("the {name} table's Mach numbers must increase (number {})", k + 1))
        })?;
        let (mut alpha_deg, mut values) = (Vec::with_capacity(n_alpha), Vec::with_capacity(n_alpha * n_mach));
        for row in 0..n_alpha {
            let line = self.next + 1;
            let what = format!("{name} table row {} of {n_alpha} (angle and {n_mach} coefficients)", row + 1);
            let numbers = self.spread(1, n_mach, &what)?;
            if alpha_deg.last().is_some_and(|&last| numbers[0] <= last) {
                let message = format!(
                    "{name} table: the angles of attack must increase ({} after {})",
                    numbers[0],
                    alpha_deg[row - 1]
                );
                return Err(self.error(line, 1, message));
            }
            alpha_deg.push(numbers[0]);
            values.extend_from_slice(&numbers[1..]);
        }
        Ok(CoefficientTable::new(mach, alpha_deg, values))
    }
}

/// The blank-separated fields of a line with their 1-based columns.
fn fields(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = line;
    let mut offset = 0;
    std::iter::from_fn(move || {
        let start = rest.find(|c: char| !c.is_whitespace())?;
        let len = rest[start..].find(char::is_whitespace).unwrap_or(rest.len() - start);
        let field = &rest[start..start + len];
        let column = offset + start + 1;
        offset += start + len;
        rest = &rest[start + len..];
        Some((column, field))
    })
}

/// A Fortran real (`D` exponents accepted), finite.
fn parse_number(field: &str) -> Option<f64> {
    field.replace(['D', 'd'], "E").parse::<f64>().ok().filter(|v| v.is_finite())
}

/// `Err(k)` if `values[k + 1] <= values[k]`.
fn increasing(values: &[f64]) -> Result<(), usize> {
    match values.windows(2).position(|w| w[1] <= w[0]) {
        Some(k) => Err(k + 1),
        None => Ok(()),
    }
}

/// The six counts of the header, columns 31-42.
fn header_counts(lines: &mut Lines<'_>) -> Result<(String, [usize; 6]), C81Error> {
    let (number, header) = lines.take("the header line")?;
    let chars: Vec<char> = header.chars().collect();
    let name: String = chars.iter().take(30).collect();
    let mut counts = [0; 6];
    let labels = ["ML (lift Mach numbers)", "NL (lift angles)", "MD", "ND", "MM", "NM"];
    for (k, count) in counts.iter_mut().enumerate() {
        let start = 30 + 2 * k;
        let field: String = chars.iter().skip(start).take(2).collect();
        let value = field.trim().parse::<usize>().ok().filter(|&v| v >= 1);
        *count = value.ok_or_else(|| {
            let message = format!(
                "header: columns {}-{} must hold {}, a count of at least 1 (found '{field}')",
                start + 1,
                start + 2,
                labels[k]
            );
            lines.error(number, start + 1, message)
        })?;
    }
    Ok((name.trim().to_string(), counts))
}

/// Parses a C81 file (see the module docs); `source` names it in the errors.
pub fn parse(source: &str, text: &str) -> Result<C81Airfoil, C81Error> {
    let mut lines = Lines { source, lines: text.lines().collect(), next: 0 };
    let (name, [ml, nl, md, nd, mm, nm]) = header_counts(&mut lines)?;
    let lift = lines.table("lift", ml, nl)?;
    let drag = lines.table("drag", md, nd)?;
    let moment = lines.table("moment", mm, nm)?;
    if let Some(k) = lines.lines[lines.next..].iter().position(|l| !l.trim().is_empty()) {
        let line = lines.next + k + 1;
        return Err(lines.error(line, 1, "text after the moment table (a count in the header too small?)".into()));
    }
    Ok(C81Airfoil { name, lift, drag, moment })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table written by hand: 2 Mach numbers, 3 angles for lift; 1 Mach number, 2 angles for
    /// drag and moment.
    const SMALL: &str = "\
HAND TABLE                    020301020102
       0.0    0.5
-10.   -1.0   -1.2
  0.    0.0    0.1
 10.    1.0    1.4
       0.3
-180.  0.02
 180.  0.04
       0.0
-180.  0.0
 180.  0.0
";

    #[test]
    fn table_points_are_read_exactly() {
        let t = parse("small.c81", SMALL).unwrap();
        assert_eq!(t.name, "HAND TABLE");
        assert_eq!(t.lift.mach, vec![0.0, 0.5]);
        assert_eq!(t.lift.alpha_deg, vec![-10.0, 0.0, 10.0]);
        assert_eq!(t.lift.values, vec![-1.0, -1.2, 0.0, 0.1, 1.0, 1.4]);
        assert_eq!(t.drag.mach, vec![0.3]);
        assert_eq!(t.drag.values, vec![0.02, 0.04]);
        // Each table point comes back from the interpolation unchanged.
        for (i, &a) in t.lift.alpha_deg.iter().enumerate() {
            for (k, &m) in t.lift.mach.iter().enumerate() {
                assert_eq!(t.lift.lookup(a, m).value, t.lift.values[i * 2 + k]);
            }
        }
    }

    #[test]
    fn interpolation_matches_hand_values() {
        let t = parse("small.c81", SMALL).unwrap();
        // alpha 5 deg, Mach 0.25: between (0, 0.0)=0.0, (0, 0.5)=0.1, (10, 0.0)=1.0, (10, 0.5)=1.4.
        // At Mach 0.25: 0.05 at 0 deg and 1.2 at 10 deg; at 5 deg: 0.625.
        let l = t.lift.lookup(5.0, 0.25);
        assert!((l.value - 0.625).abs() < 1e-15);
        assert!((l.d_alpha - (1.2 - 0.05) / 10.0).abs() < 1e-15);
        // d/dMach: 0.2 at 0 deg, 0.8 at 10 deg, halfway 0.5.
        assert!((l.d_mach - 0.5).abs() < 1e-15);
        // -2.5 deg, Mach 0.1: at -10 deg -1.04, at 0 deg 0.02; 3/4 of the way: -0.245.
        assert!((t.lift.lookup(-2.5, 0.1).value - (-0.245)).abs() < 1e-15);
        // Beyond the Mach range: clamped to Mach 0.5, flagged, no Mach slope.
        let c = t.lift.lookup(10.0, 0.8);
        assert_eq!((c.value, c.d_mach, c.mach_clamped), (1.4, 0.0, true));
        // A single-Mach table is Mach-independent and never flagged.
        let d = t.drag.lookup(0.0, 0.9);
        assert!((d.value - 0.03).abs() < 1e-15 && !d.mach_clamped);
    }

    #[test]
    fn the_angle_index_brackets_like_a_binary_search() {
        let alpha = vec![-180.0, -20.0, -19.5, -3.25, 0.0, 0.4, 0.6, 7.0, 179.0, 180.0];
        let t = CoefficientTable::new(vec![0.0], alpha.clone(), vec![0.0; alpha.len()]);
        let same = |x: f64| {
            let ((i, w, c), (j, v, d)) = (t.bracket_alpha(x), bracket(&alpha, x));
            assert!(i == j && c == d && (w - v).abs() < 1e-14, "{x}: {i} {w} {c} vs {j} {v} {d}");
        };
        let mut x = -181.0;
        while x < 181.0 {
            same(x);
            x += 0.0625;
        }
        alpha.iter().for_each(|&a| same(a));
    }

    #[test]
    fn continuation_lines_hold_more_than_nine_mach_numbers() {
        let machs: Vec<String> = (0..11).map(|k| format!("{:.1}", 0.1 * k as f64)).collect();
        let row = |a: f64| {
            let v: Vec<String> = (0..11).map(|k| format!("{:.2}", a + 0.01 * k as f64)).collect();
            format!("{a:<7}{}\n       {}\n", v[..9].join(" "), v[9..].join(" "))
        };
        let table =
            format!("       {}\n       {}\n{}{}", machs[..9].join(" "), machs[9..].join(" "), row(-1.0), row(1.0));
        let text = format!("{:<30}{:>2}{:>2}{:>2}{:>2}{:>2}{:>2}\n{table}{table}{table}", "WIDE", 11, 2, 11, 2, 11, 2);
        let t = parse("wide.c81", &text).unwrap();
        assert_eq!(t.moment.mach.len(), 11);
        assert!((t.lift.values[10] - (-1.0 + 0.1)).abs() < 1e-15);
        assert!((t.lift.values[21] - (1.0 + 0.1)).abs() < 1e-15);
    }

    /// The error of `text`, as "line:column: message".
    fn error_of(text: &str) -> String {
        let e = parse("bad.c81", text).unwrap_err();
        assert!(e.to_string().starts_with(&format!("bad.c81:{}:{}: ", e.line, e.column)));
        format!("{}:{}: {}", e.line, e.column, e.message)
    }

    #[test]
    fn malformed_files_give_their_line_and_column() {
        // A missing coefficient in the second lift row (line 4).
        let wrong_count = SMALL.replace("  0.    0.0    0.1", "  0.    0.0");
        let e = error_of(&wrong_count);
        assert!(e.starts_with("4:12: lift table row 2 of 3"), "{e}");
        assert!(e.contains("3 numbers expected, found 2"), "{e}");
        // A bad number on line 7 (drag row 1), column 8.
        let bad_number = SMALL.replace("-180.  0.02", "-180.  0.0x");
        let e = error_of(&bad_number);
        assert!(e.starts_with("7:8: drag table row 1 of 2") && e.contains("'0.0x' is not a number"), "{e}");
        // Truncated in the moment table: the file ends at line 11, line 12 was expected.
        let truncated: String = SMALL.lines().take(10).map(|l| format!("{l}\n")).collect();
        let e = error_of(&truncated);
        assert!(e.starts_with("11:1: the file ends where moment table row 2 of 2"), "{e}");
        // A header count that is not a number.
        let e = error_of(&SMALL.replacen("020301020102", "02x301020102", 1));
        assert!(e.starts_with("1:33: header: columns 33-34 must hold NL"), "{e}");
        // Angles out of order (line 5 repeats 0 deg).
        let e = error_of(&SMALL.replace(" 10.    1.0    1.4", "  0.    1.0    1.4"));
        assert!(e.starts_with("5:1: lift table: the angles of attack must increase"), "{e}");
        // A header count too small leaves text behind.
        let e = error_of(&SMALL.replacen("020301020102", "020301020101", 1));
        assert!(e.starts_with("11:1: text after the moment table"), "{e}");
    }
}
