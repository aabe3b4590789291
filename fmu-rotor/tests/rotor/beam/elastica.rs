//! Large deflection of a cantilever under a tip force perpendicular to its axis (PL^2/EI = 1,
//! 2, 5, 10 dead; 1, 2, 5 follower) against the elastica closed forms in elliptic integrals
//! (`data/elastica.csv`), and the element-count convergence order.

use fmu_rotor::beam::{Beam, NewtonSettings, TipLoad};

use super::{reference_rows, uniform_cantilever, uniform_section};

/// Elements for the 0.1 % checks.
const ELEMENTS: usize = 64;

/// One reference row: load kind, alpha and the tip displacement (u_x/L, u_z/L) and rotation.
struct Case {
    follower: bool,
    alpha: f64,
    tip: [f64; 3],
}

fn cases() -> Vec<Case> {
    reference_rows(include_str!("data/elastica.csv"))
        .into_iter()
        .map(|row| {
            let [x, z, theta]: [f64; 3] = [2, 3, 4].map(|i| row[i].parse().unwrap());
            Case { follower: row[0] == "follower", alpha: row[1].parse().unwrap(), tip: [x - 1.0, z, theta] }
        })
        .collect()
}

/// The elastica: EI = 1, L = 1, extension and shear 1e7 times stiffer (an inextensible,
/// shear-rigid beam to 1e-7).
fn beam(n: usize) -> Beam {
    uniform_cantilever(n, uniform_section(1.0, 1.0, 1.0, 1e7, 1.0, [1e-4, 1e-4]))
}

/// Tip displacement (u_x = x - L, u_z = z) and rotation (about -y) of the beam under a tip force
/// `alpha` in `+z`.
fn tip(beam: &Beam, case: &Case) -> [f64; 3] {
    let load =
        if case.follower { TipLoad::Follower([0.0, 0.0, case.alpha]) } else { TipLoad::Dead([0.0, 0.0, case.alpha]) };
    let settings = NewtonSettings { load_steps: 5, ..NewtonSettings::default() };
    let state = beam.solve_static(load, &settings).expect("static solve");
    let tip = *state.positions.last().unwrap();
    let q = *state.rotations.last().unwrap();
    // Rotation about -y of the tip's axis e1: atan2 of its z and x components.
    let axis = fmu_rotor::beam::rotation::rotate(q, [1.0, 0.0, 0.0]);
    [tip[0] - 1.0, tip[2], axis[2].atan2(axis[0])]
}

#[test]
fn tip_position_and_rotation_within_0_1_percent_of_the_elastica() {
    let beam = beam(ELEMENTS);
    for case in cases() {
        let ours = tip(&beam, &case);
        let errors: Vec<f64> = (0..3).map(|k| (ours[k] - case.tip[k]).abs() / case.tip[k].abs()).collect();
        let kind = if case.follower { "follower" } else { "dead" };
        println!(
            "{kind} alpha {}: ours {ours:.6?} reference {:.6?} relative errors {}",
            case.alpha,
            case.tip,
            sci(&errors)
        );
        for (k, name) in ["u_x/L", "u_z/L", "theta"].iter().enumerate() {
            let error = errors[k];
            assert!(
                error < 1e-3,
                "follower {} alpha {}: {name} {} against {} (error {error:e})",
                case.follower,
                case.alpha,
                ours[k],
                case.tip[k]
            );
        }
    }
}

#[test]
fn tip_error_converges_at_second_order_in_the_element_length() {
    let case = cases().into_iter().find(|c| !c.follower && c.alpha == 5.0).unwrap();
    let errors: Vec<f64> = [4, 8, 16, 32]
        .iter()
        .map(|&n| {
            let ours = tip(&beam(n), &case);
            (0..3).map(|k| (ours[k] - case.tip[k]).abs()).fold(0.0, f64::max)
        })
        .collect();
    println!("largest tip error at 4, 8, 16, 32 elements: {}", sci(&errors));
    for pair in errors.windows(2) {
        let order = (pair[0] / pair[1]).log2();
        assert!((1.8..2.3).contains(&order), "observed order {order} from {errors:?}");
    }
}

/// `[a, b, ...]` in scientific notation with two decimals.
fn sci(values: &[f64]) -> String {
    let parts: Vec<String> = values.iter().map(|v| format!("{v:.2e}")).collect();
    format!("[{}]", parts.join(", "))
}

/// The AD tangent (and the follower load stiffness) is exact: Newton's corrections fall
/// quadratically, `c_{k+1} <= 100 c_k^2` once below 1e-2, for a dead and a follower load. (The
/// constant grows with the ratio of extensional to bending stiffness, so this beam has
/// `EA = GA = 100 EI / L^2`; with the elastica's 1e7 the convergence is quadratic only below
/// about 1e-8.)
#[test]
fn newton_converges_quadratically_with_the_exact_tangent() {
    let beam = uniform_cantilever(16, uniform_section(1.0, 1.0, 1.0, 100.0, 1.0, [1e-4, 1e-4]));
    for load in [TipLoad::Dead([0.0, 0.3, 1.0]), TipLoad::Follower([0.0, 0.3, 1.0])] {
        let mut state = beam.undeformed.clone();
        let corrections: Vec<f64> = (0..8).map(|_| beam.newton_step(&mut state, load).unwrap()).collect();
        println!("{load:?}: corrections {}", sci(&corrections));
        let checked = corrections
            .windows(2)
            .filter(|pair| pair[0] < 1e-2 && pair[0] > 1e-7)
            .inspect(|pair| assert!(pair[1] <= 100.0 * pair[0] * pair[0], "{load:?}: {corrections:?}"))
            .count();
        assert!(checked >= 1, "{load:?}: no iteration in the quadratic range: {corrections:?}");
        assert!(corrections[7] < 1e-13, "{load:?}: {corrections:?}");
    }
}
