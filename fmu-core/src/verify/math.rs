//! Small 3-vector and 3x3 algebra, the Simpson rule, a seeded generator and a number format for
//! the model crates' independent test references: deliberately none of the vector code a model
//! computes with ([`crate::vec3`] or a model's own), so that a reference does not share the
//! model's bugs.

/// The composite Simpson rule: the integral of `f` over `[a, b]` with `n` (even) intervals.
pub fn simpson(f: impl Fn(f64) -> f64, a: f64, b: f64, n: usize) -> f64 {
    let h = (b - a) / n as f64;
    let sum: f64 = (0..=n)
        .map(|k| {
            let w = if k == 0 || k == n {
                1.0
            } else if k % 2 == 1 {
                4.0
            } else {
                2.0
            };
            w * f(a + k as f64 * h)
        })
        .sum();
    sum * h / 3.0
}

/// 3x3 matrix, row-major.
pub type Mat = [[f64; 3]; 3];

/// `a x b`.
pub fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// `a . b`.
pub fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a.iter().zip(&b).map(|(x, y)| x * y).sum()
}

/// `a + s b`.
pub fn axpy(a: [f64; 3], s: f64, b: [f64; 3]) -> [f64; 3] {
    [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]]
}

/// `|a|`.
pub fn norm(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

/// `m v`.
pub fn mv(m: &Mat, v: [f64; 3]) -> [f64; 3] {
    [dot(m[0], v), dot(m[1], v), dot(m[2], v)]
}

/// `a b`.
pub fn mm(a: &Mat, b: &Mat) -> Mat {
    let mut c = [[0.0; 3]; 3];
    for (i, row) in c.iter_mut().enumerate() {
        for (j, e) in row.iter_mut().enumerate() {
            *e = (0..3).map(|k| a[i][k] * b[k][j]).sum();
        }
    }
    c
}

/// Elementary active rotation by `angle` (rad) about axis `axis` (0 = x, 1 = y, 2 = z).
pub fn rot(axis: usize, angle: f64) -> Mat {
    let (s, c) = angle.sin_cos();
    match axis {
        0 => [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]],
        1 => [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]],
        _ => [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]],
    }
}

/// Simple deterministic generator (64-bit LCG) for reproducible "random" test data.
pub struct Lcg(pub u64);

impl Lcg {
    /// Uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        lo + (hi - lo) * ((self.0 >> 11) as f64 / (1u64 << 53) as f64)
    }
}

/// Formats numbers as `[1.234e-5, ...]` for the report lines.
pub fn sci(v: &[f64]) -> String {
    let parts: Vec<String> = v.iter().map(|x| format!("{x:.3e}")).collect();
    format!("[{}]", parts.join(", "))
}
