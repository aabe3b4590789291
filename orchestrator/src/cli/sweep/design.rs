//! Sampled sweep points (`"random"` in a sweep file): each variable uniform in a range or normal
//! with a mean and standard deviation, drawn by a design (independent uniform samples, a Latin
//! hypercube or a Sobol sequence), all reproducible for a seed on any machine.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use serde::Deserialize;

use super::Point;

/// `count` points from `seed`: variables uniform in `ranges` (`[low, high]`) or normal
/// (`normal`: mean and standard deviation), sampled by `design`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RandomPoints {
    count: usize,
    seed: u64,
    #[serde(default)]
    design: Design,
    #[serde(default)]
    ranges: BTreeMap<String, [f64; 2]>,
    #[serde(default)]
    normal: BTreeMap<String, Normal>,
}

/// How the unit-cube samples behind the points are drawn.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Design {
    /// Independent uniform numbers (SplitMix64).
    #[default]
    Uniform,
    /// Latin hypercube: each variable's `count` equal strata hold one point each.
    LatinHypercube,
    /// Sobol sequence (Joe-Kuo direction numbers) with a seeded random digital shift.
    Sobol,
}

/// A normal distribution.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
struct Normal {
    mean: f64,
    std: f64,
}

/// The distribution of one sampled variable.
#[derive(Debug, Clone, Copy)]
enum Distribution {
    Uniform { low: f64, high: f64 },
    Normal(Normal),
}

impl Distribution {
    /// The value at cumulative probability `u` in (0, 1) (the inverse distribution function).
    fn at(self, u: f64) -> f64 {
        match self {
            Distribution::Uniform { low, high } => low + (high - low) * u,
            Distribution::Normal(Normal { mean, std }) => mean + std * standard_normal_quantile(u),
        }
    }
}

/// The points of `random`, each naming its variables in name order.
pub(super) fn sample(random: &RandomPoints) -> Result<Vec<Point>> {
    let mut variables: BTreeMap<&str, Distribution> = BTreeMap::new();
    for (name, &[low, high]) in &random.ranges {
        if !(low.is_finite() && high.is_finite()) {
            bail!("random.ranges.{name}: the range must be finite");
        }
        variables.insert(name, Distribution::Uniform { low, high });
    }
    for (name, normal) in &random.normal {
        if !(normal.mean.is_finite() && normal.std.is_finite() && normal.std >= 0.0) {
            bail!("random.normal.{name}: mean must be finite and std finite and not negative");
        }
        if variables.insert(name, Distribution::Normal(*normal)).is_some() {
            bail!("random: '{name}' is in both ranges and normal");
        }
    }
    if variables.is_empty() {
        bail!("random: no variables (give ranges or normal)");
    }
    let unit = match random.design {
        Design::Uniform => uniform_samples(random.count, variables.len(), random.seed),
        Design::LatinHypercube => latin_hypercube(random.count, variables.len(), random.seed),
        Design::Sobol => sobol(random.count, variables.len(), Some(random.seed))?,
    };
    Ok(unit
        .iter()
        .map(|u| variables.iter().zip(u).map(|((name, d), &u)| (name.to_string(), d.at(u))).collect())
        .collect())
}

/// A SplitMix64 stream: reproducible for a seed on any machine.
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        Self(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in [0, 1).
    fn uniform(&mut self) -> f64 {
        self.next_u64() as f64 / 2f64.powi(64)
    }

    /// A uniform integer in `0..n` (`n` > 0; the modulo bias is below n / 2^64).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// `count` points of `dims` independent uniform numbers in [0, 1) (the stream the sweep files
/// have always used: point after point, variable after variable).
fn uniform_samples(count: usize, dims: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut stream = SplitMix64::new(seed);
    (0..count).map(|_| (0..dims).map(|_| stream.uniform()).collect()).collect()
}

/// A Latin hypercube of `count` points in [0, 1)^dims: along each dimension the strata
/// `[k/count, (k+1)/count)` hold one point each (a seeded random permutation per dimension, a
/// uniform position within the stratum).
fn latin_hypercube(count: usize, dims: usize, seed: u64) -> Vec<Vec<f64>> {
    let mut stream = SplitMix64::new(seed);
    let mut points = vec![vec![0.0; dims]; count];
    for d in 0..dims {
        let mut strata: Vec<usize> = (0..count).collect();
        for i in (1..count).rev() {
            strata.swap(i, stream.below(i + 1));
        }
        for (point, stratum) in points.iter_mut().zip(strata) {
            point[d] = (stratum as f64 + stream.uniform()) / count as f64;
        }
    }
    points
}

/// Direction numbers of dimensions 2 to 10 of the Sobol sequence: (degree s, coefficients a,
/// initial m_1..m_s), from S. Joe and F. Y. Kuo, "Constructing Sobol sequences with better
/// two-dimensional projections", SIAM J. Sci. Comput. 30 (2008) 2635-2654, file
/// `new-joe-kuo-6.21201` (<https://web.maths.unsw.edu.au/~fkuo/sobol/>). Dimension 1 is the
/// van der Corput sequence.
const JOE_KUO: [(u32, u32, &[u32]); 9] = [
    (1, 0, &[1]),
    (2, 1, &[1, 3]),
    (3, 1, &[1, 3, 1]),
    (3, 2, &[1, 1, 1]),
    (4, 1, &[1, 1, 3, 3]),
    (4, 4, &[1, 3, 5, 13]),
    (5, 2, &[1, 1, 5, 5, 17]),
    (5, 4, &[1, 1, 5, 5, 5]),
    (5, 7, &[1, 1, 7, 11, 19]),
];

/// Most variables a Sobol design takes.
const SOBOL_DIMENSIONS: usize = JOE_KUO.len() + 1;

/// The 32 direction numbers V_1..V_32 (as 32-bit fractions) of Sobol dimension `d` (0-based).
fn direction_numbers(d: usize) -> [u32; 32] {
    let mut v = [0u32; 32];
    if d == 0 {
        for (i, vi) in v.iter_mut().enumerate() {
            *vi = 1 << (31 - i);
        }
        return v;
    }
    let (s, a, m) = JOE_KUO[d - 1];
    let s = s as usize;
    for i in 0..32 {
        v[i] = if i < s {
            m[i] << (31 - i)
        } else {
            let mut x = v[i - s] ^ (v[i - s] >> s);
            for k in 1..s {
                if (a >> (s - 1 - k)) & 1 == 1 {
                    x ^= v[i - k];
                }
            }
            x
        };
    }
    v
}

/// The first `count` points of the `dims`-dimensional Sobol sequence in (0, 1)^dims (Gray-code
/// order, as Joe and Kuo and scipy's `qmc.Sobol(scramble=False)` give it), each coordinate
/// `(integer + 1/2) / 2^32` so that it is never 0 or 1. With `seed`, every dimension's integers
/// are XORed with a seeded random 32-bit shift (a random digital shift: it keeps the
/// sequence's stratification and makes it reproducibly random).
fn sobol(count: usize, dims: usize, seed: Option<u64>) -> Result<Vec<Vec<f64>>> {
    if dims > SOBOL_DIMENSIONS {
        bail!("random: the Sobol design takes at most {SOBOL_DIMENSIONS} variables, not {dims}");
    }
    if count as u64 > 1 << 32 {
        bail!("random: the Sobol design gives at most 2^32 points");
    }
    let directions: Vec<[u32; 32]> = (0..dims).map(direction_numbers).collect();
    let mut stream = seed.map(SplitMix64::new);
    let shifts: Vec<u32> = (0..dims).map(|_| stream.as_mut().map_or(0, |s| (s.next_u64() >> 32) as u32)).collect();
    let mut x = vec![0u32; dims];
    let mut points = Vec::with_capacity(count);
    for n in 0..count {
        if n > 0 {
            // Gray code: point n differs from point n-1 by the direction number of the lowest
            // zero bit of n-1.
            let bit = (!(n - 1)).trailing_zeros() as usize;
            for (xd, v) in x.iter_mut().zip(&directions) {
                *xd ^= v[bit];
            }
        }
        points.push(x.iter().zip(&shifts).map(|(&xd, &s)| ((xd ^ s) as f64 + 0.5) / 2f64.powi(32)).collect());
    }
    Ok(points)
}

/// The standard normal quantile Φ⁻¹(p) for p in (0, 1): P. J. Acklam's rational approximations
/// (relative error below 1.15e-9), <https://web.archive.org/web/20151030215612/http://home.online.no/~pjacklam/notes/invnorm/>.
fn standard_normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.38357751867269e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] =
        [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
    const P_LOW: f64 = 0.02425;
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < P_LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - P_LOW {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> RandomPoints {
        serde_json::from_str(json).unwrap()
    }

    /// Each of the n strata of every dimension holds exactly one of the n points.
    #[test]
    fn latin_hypercube_is_stratified_and_reproducible() {
        for (count, dims) in [(1, 1), (7, 3), (100, 5)] {
            let points = latin_hypercube(count, dims, 42);
            for d in 0..dims {
                let mut strata: Vec<usize> = points.iter().map(|p| (p[d] * count as f64).floor() as usize).collect();
                strata.sort_unstable();
                assert_eq!(strata, (0..count).collect::<Vec<_>>(), "dimension {d} of {count}");
            }
            assert_eq!(points, latin_hypercube(count, dims, 42));
            assert_ne!(points, latin_hypercube(count, dims, 43));
        }
    }

    /// The unshifted sequence is the published one: the first 8 points of dimensions 1-6 and
    /// two later points of all 10, as scipy.stats.qmc.Sobol(10, scramble=False) (Joe-Kuo
    /// direction numbers) gives them.
    #[test]
    fn sobol_matches_the_published_sequence() {
        let published = [
            [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
            [0.75, 0.25, 0.25, 0.25, 0.75, 0.75],
            [0.25, 0.75, 0.75, 0.75, 0.25, 0.25],
            [0.375, 0.375, 0.625, 0.875, 0.375, 0.125],
            [0.875, 0.875, 0.125, 0.375, 0.875, 0.625],
            [0.625, 0.125, 0.875, 0.625, 0.625, 0.875],
            [0.125, 0.625, 0.375, 0.125, 0.125, 0.375],
        ];
        let points = sobol(14, SOBOL_DIMENSIONS, None).unwrap();
        for (p, q) in points.iter().zip(&published) {
            for (a, b) in p.iter().zip(q) {
                assert!((a - b).abs() < 1e-9, "{p:?} against {q:?}");
            }
        }
        // Points 11 and 13 in all 10 dimensions (scipy; its first 4096 points in 10 dimensions
        // equal ours).
        let later = [
            (11, [0.4375, 0.5625, 0.1875, 0.6875, 0.8125, 0.0625, 0.6875, 0.6875, 0.6875, 0.0625]),
            (13, [0.8125, 0.6875, 0.8125, 0.0625, 0.4375, 0.9375, 0.5625, 0.5625, 0.5625, 0.4375]),
        ];
        for (k, q) in later {
            assert!(points[k].iter().zip(q).all(|(a, b)| (a - b).abs() < 1e-9), "{:?} against {q:?}", points[k]);
        }
    }

    /// Every dimension of the first 2^m points, shifted or not, holds one point in each of the
    /// 2^m equal intervals (a (0, m, 1)-net), and every pair of the first two dimensions one
    /// point in each of the 2^m squares of side 2^-(m/2) (a (0, m, 2)-net in base 2).
    #[test]
    fn sobol_points_are_nets() {
        let count = 256;
        for seed in [None, Some(5)] {
            let points = sobol(count, SOBOL_DIMENSIONS, seed).unwrap();
            for d in 0..SOBOL_DIMENSIONS {
                let mut cells: Vec<usize> = points.iter().map(|p| (p[d] * count as f64) as usize).collect();
                cells.sort_unstable();
                assert_eq!(cells, (0..count).collect::<Vec<_>>(), "dimension {d}, seed {seed:?}");
            }
            let mut squares: Vec<usize> =
                points.iter().map(|p| (p[0] * 16.0) as usize * 16 + (p[1] * 16.0) as usize).collect();
            squares.sort_unstable();
            assert_eq!(squares, (0..count).collect::<Vec<_>>());
        }
        assert!(sobol(4, SOBOL_DIMENSIONS + 1, None).is_err());
    }

    /// Quantiles against the tabulated standard normal (scipy.stats.norm.ppf).
    #[test]
    fn normal_quantiles_match_the_tables() {
        for (p, z) in [
            (0.001, -3.090232306167813),
            (0.02425, -1.972961051311885),
            (0.3, -0.5244005127080409),
            (0.5, 0.0),
            (0.975, 1.959963984540054),
        ] {
            assert!((standard_normal_quantile(p) - z).abs() < 5e-9, "p = {p}");
        }
    }

    /// Sample mean and standard deviation of normal variables are within 4 standard errors of
    /// the distribution's (a Latin hypercube gets much closer); uniform variables stay in range.
    #[test]
    fn normal_samples_have_the_moments_of_the_distribution() {
        for design in ["uniform", "latin_hypercube", "sobol"] {
            let n = 4096;
            let random = parse(&format!(
                r#"{{ "count": {n}, "seed": 3, "design": "{design}",
                     "ranges": {{ "a.x": [2, 4] }}, "normal": {{ "b.y": {{ "mean": 10, "std": 2 }} }} }}"#
            ));
            let points = sample(&random).unwrap();
            assert_eq!(points.len(), n);
            assert!(points.iter().all(|p| p[0].0 == "a.x" && (2.0..4.0).contains(&p[0].1)));
            let y: Vec<f64> = points.iter().map(|p| p[1].1).collect();
            let mean = y.iter().sum::<f64>() / n as f64;
            let std = (y.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
            let n = n as f64;
            assert!((mean - 10.0).abs() < 4.0 * 2.0 / n.sqrt(), "{design}: mean {mean}");
            assert!((std - 2.0).abs() < 4.0 * 2.0 / (2.0 * n).sqrt(), "{design}: std {std}");
            assert_eq!(sample(&random).unwrap(), points, "{design}: reproducible");
        }
    }

    #[test]
    fn bad_designs_are_refused() {
        let refused = |json: &str| sample(&parse(json)).unwrap_err().to_string();
        assert!(refused(r#"{ "count": 2, "seed": 1 }"#).contains("no variables"));
        assert!(refused(r#"{ "count": 2, "seed": 1, "normal": { "a.x": { "mean": 0, "std": -1 } } }"#).contains("std"));
        assert!(
            refused(r#"{ "count": 2, "seed": 1, "ranges": { "a.x": [0, 1] }, "normal": { "a.x": { "mean": 0, "std": 1 } } }"#)
                .contains("both")
        );
        assert!(serde_json::from_str::<RandomPoints>(r#"{ "count": 2, "seed": 1, "design": "halton" }"#).is_err());
    }
}
