//! Loop detection on a system with one algebraic loop, an acyclic head and an acyclic tail:
//! the components of the feedthrough graph come out right and in solution order.

use crate::common;

#[test]
fn one_loop_with_acyclic_head_and_tail_in_order() {
    let dir = test_fmus::two_mass::packaged();
    // body <-> load form the loop body.a -> load.a1 -> load.F -> body.F -> body.a.
    // Head: body.x and body.v (no feedthrough) feed load. Tail: load.F also drives body2.F,
    // and body2.a (feedthrough from F) drives body3.F.
    let json = r#"{
      "fmus": {
        "body": { "path": "TwoMassBody.fmu" },
        "load": { "path": "TwoMassLoad.fmu" },
        "body2": { "path": "TwoMassBody.fmu" },
        "body3": { "path": "TwoMassBody.fmu" }
      },
      "connections": [
        "body2.a -> body3.F",
        "load.F -> body2.F",
        "body.x -> load.x1", "body.v -> load.v1", "body.a -> load.a1", "load.F -> body.F"
      ],
      "experiment": { "stop": 0.1, "step": 0.01 }
    }"#;
    let master = common::master(common::system(json, dir.path())).unwrap();
    // Names within a component sorted, so the comparison does not depend on node numbering.
    let components: Vec<(Vec<String>, bool)> = master
        .components()
        .into_iter()
        .map(|(mut names, is_loop)| {
            names.sort();
            (names, is_loop)
        })
        .collect();
    let position = |name: &str| {
        components.iter().position(|(names, _)| names.iter().any(|n| n == name)).unwrap_or_else(|| panic!("{name}"))
    };
    let loop_pos = position("load.F");
    assert_eq!(components[loop_pos], (vec!["body.a".to_string(), "load.F".to_string()], true));
    assert_eq!(components.iter().filter(|(_, is_loop)| *is_loop).count(), 1, "{components:?}");
    assert_eq!(components.len(), 4, "{components:?}");
    for head in ["body.x", "body.v"] {
        assert!(position(head) < loop_pos, "{head} must come before the loop: {components:?}");
        assert!(!components[position(head)].1);
    }
    assert!(loop_pos < position("body2.a"), "{components:?}");
}
