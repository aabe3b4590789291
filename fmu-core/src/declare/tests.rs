use super::{states, variables};
use crate::variable::{Feedthrough, Kind};

mod vr {
    use crate::declare::{BODY, Labels};

    crate::declare! { u32;
        A = real("a", "m", "First").start(2.0);
        LATE @ 10 = block(Labels::Named(&["p", "q"])) per PER {
            POS = vector("{n}.{c}", "m", &BODY, "Point {n}, {w}")
                .start_by(|i, k| (10 * i + k) as f64);
        };
        B @ 1 = integer("b", 3, 0, 5, "Second");
    }
}

mod x {
    use crate::declare::Labels;

    crate::declare! { usize;
        SHAFT = state("shaft", "rad", "rad/s", 0.1, "Shaft angle");
        BLADES = block(Labels::Numbered(2)) per PER fn blade {
            TIP = state_vector("blade[{n}].{c}", "m", "m/s", 1.0, &[("a", "first"), ("b", "second")],
                "Tip of blade {n}, {w}");
        };
        N;
    }
}

mod u {
    crate::declare! { usize;
        V = real("v", "m/s", "Velocity");
        W = real("w", "m/s", "Other");
        N;
    }
}

mod y {
    crate::declare! { usize;
        F = real("f", "N", "Force").deps(|_| vec![super::u::W, super::u::V]);
    }
}

#[test]
fn explicit_positions_named_blocks_starts_and_dependencies() {
    assert_eq!((vr::A, vr::LATE, vr::PER, vr::POS, vr::B, u::N), (0, 10, 3, 0, 1, 2));
    let vars = variables(vr::TABLE, (100, u::TABLE), (200, y::TABLE));
    let names: Vec<(&str, u32)> = vars.iter().map(|v| (v.name.as_str(), v.vr)).collect();
    assert_eq!(
        names,
        [("a", 0), ("p.x", 10), ("p.y", 11), ("p.z", 12), ("q.x", 13), ("q.y", 14), ("q.z", 15), ("b", 1)]
            .into_iter()
            .chain([("v", 100), ("w", 101), ("f", 200)])
            .collect::<Vec<_>>()
    );
    assert_eq!(vars[5].kind, Kind::Real { unit: "m", start: 11.0 });
    assert_eq!(vars[5].description, "Point q, body y (right)");
    assert_eq!(vars[7].kind, Kind::Integer { start: 3, min: 0, max: 5 });
    assert_eq!(vars[10].feedthrough, Feedthrough::Inputs(vec![101, 100]));
}

#[test]
fn states_in_declaration_order_with_blocks_and_components() {
    assert_eq!((x::SHAFT, x::BLADES, x::PER, x::TIP, x::blade(1), x::N), (0, 1, 2, 0, 3, 5));
    let states = states(x::TABLE);
    let names: Vec<&str> = states.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["state.shaft", "state.blade[1].a", "state.blade[1].b", "state.blade[2].a", "state.blade[2].b"]);
    let last = &states[4];
    assert_eq!((last.unit, last.derivative_unit, last.nominal), ("m", "m/s", 1.0));
    assert_eq!(last.description, "Tip of blade 2, second");
}
