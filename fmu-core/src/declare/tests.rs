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

mod views {
    use crate::declare::{BODY, Labels};

    crate::declare! { view usize;
        SHAFT as shaft = real("shaft", "rad", "Shaft angle");
        HUB as hub_vel = vector("hub.vel.{c}", "m/s", &BODY, "Hub velocity, {w}");
        PAIR as pair = real("a", "m", "First"), real("b", "m", "Second");
        UNNAMED = real("c", "m", "Without a view");
        BLADES as blade = block(Labels::Numbered(2)) per PER_BLADE fn blade {
            PITCH as pitch = real("blade[{n}].pitch", "rad", "Pitch of blade {n}");
            FORCE as force = vector("blade[{n}].F.{c}", "N", &BODY, "Force on blade {n}, {w}");
        };
        N;
    }
}

#[test]
fn views_read_and_write_each_group_at_its_declared_positions() {
    let mut y: Vec<f64> = (0..views::N).map(|k| k as f64).collect();
    let view = views::View(&y);
    assert_eq!(view.shaft(), 0.0);
    assert_eq!(view.hub_vel(), [1.0, 2.0, 3.0]);
    assert_eq!(view.pair(), [4.0, 5.0]);
    // UNNAMED is position 6; blade 1 starts at 7, blade 2 at 11.
    assert_eq!((view.blade(0).pitch(), view.blade(1).pitch()), (7.0, 11.0));
    assert_eq!(view.blade(1).force(), [12.0, 13.0, 14.0]);
    // The same positions carry the declared names.
    let vars = variables(&[], (100, views::TABLE), (200, &[]));
    assert_eq!((vars[11].name.as_str(), vars[12].name.as_str()), ("blade[2].pitch", "blade[2].F.x"));

    let mut out = views::ViewMut(&mut y);
    *out.shaft() = -1.0;
    *out.hub_vel() = [-2.0, -3.0, -4.0];
    out.pair()[1] = 9.0;
    *out.blade(1).pitch() = -5.0;
    out.blade(0).force()[2] = -6.0;
    assert_eq!(&y[..6], &[-1.0, -2.0, -3.0, -4.0, 4.0, 9.0]);
    assert_eq!((y[views::blade(1) + views::PITCH], y[views::blade(0) + views::FORCE + 2]), (-5.0, -6.0));
}
