//! The hub load of the outputs by the clamp load alone ([`HubLoad::ClampOnly`], what
//! [`Model::outputs`] uses on the hingeless hub) against the full blade pass
//! ([`HubLoad::FullPass`], which integrates every node: the oracle), as plain numbers and as
//! directional derivatives (dual numbers), on random states and inputs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fmu_core::catalog::{Catalog, Slot};
use fmu_core::model::{Model, Parameters};
use num_dual::Dual64;

use super::HubLoad;
use crate::RotorElastic;

/// The declared start values of RotorElastic with `reals` and `integers` overridden (by name),
/// the shipped blade tables as the resources.
struct StartValues {
    catalog: Arc<Catalog>,
    reals: HashMap<u32, f64>,
    integers: HashMap<u32, i32>,
    resources: PathBuf,
}

impl StartValues {
    fn new(reals: &[(&str, f64)], integers: &[(&str, i32)]) -> Self {
        let catalog = fmu_core::description::catalog::<RotorElastic>();
        let vr = |name: &str| catalog.vr_of(name).unwrap_or_else(|| panic!("no variable {name}"));
        let reals = reals.iter().map(|&(name, v)| (vr(name), v)).collect();
        let integers = integers.iter().map(|&(name, v)| (vr(name), v)).collect();
        let resources = Path::new(env!("CARGO_MANIFEST_DIR")).join("blades");
        Self { catalog, reals, integers, resources }
    }

    fn slot(&self, vr: u32) -> Slot {
        self.catalog.slots[self.catalog.index_of(vr).unwrap()]
    }
}

impl Parameters for StartValues {
    fn real(&self, vr: u32) -> f64 {
        match (self.reals.get(&vr), self.slot(vr)) {
            (Some(&v), _) => v,
            (None, Slot::Real(s)) => self.catalog.real_start[s],
            (None, slot) => panic!("{vr} is {slot:?}"),
        }
    }
    fn integer(&self, vr: u32) -> i32 {
        match (self.integers.get(&vr), self.slot(vr)) {
            (Some(&v), _) => v,
            (None, Slot::Integer(s)) => self.catalog.integer_start[s],
            (None, slot) => panic!("{vr} is {slot:?}"),
        }
    }
    fn boolean(&self, vr: u32) -> bool {
        match self.slot(vr) {
            Slot::Boolean(s) => self.catalog.boolean_start[s],
            slot => panic!("{vr} is {slot:?}"),
        }
    }
    fn string(&self, vr: u32) -> &str {
        match self.slot(vr) {
            Slot::String(s) => self.catalog.string_start[s],
            slot => panic!("{vr} is {slot:?}"),
        }
    }
    fn resources(&self) -> Option<&Path> {
        Some(&self.resources)
    }
}

/// A small deterministic generator (64-bit LCG, top 53 bits) of uniform numbers in `[-1, 1)`.
struct Uniform(u64);

impl Uniform {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// Largest `|a - b|` over the outputs relative to the largest `|b|`.
fn relative_difference(a: &[f64], b: &[f64]) -> f64 {
    let scale = b.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    a.iter().zip(b).fold(0.0_f64, |m, (x, y)| m.max((x - y).abs())) / scale
}

/// The outputs by `by` as plain numbers and the directional derivatives along `(dx, du)`.
fn outputs(
    rotor: &RotorElastic,
    (x, u): (&[f64], &[f64]),
    (dx, du): (&[f64], &[f64]),
    by: HubLoad,
) -> (Vec<f64>, Vec<f64>) {
    let n_y = fmu_core::description::catalog::<RotorElastic>().output_slots.len();
    let mut ys = vec![0.0; n_y];
    rotor.outputs_by(&mut rotor.work::<f64>(), 0.37, x, u, &mut ys, by);
    let lift = |v: &[f64], d: &[f64]| v.iter().zip(d).map(|(&v, &d)| Dual64::new(v, d)).collect::<Vec<_>>();
    let mut dual = vec![Dual64::from(0.0); n_y];
    rotor.outputs_by(&mut rotor.work::<Dual64>(), Dual64::from(0.37), &lift(x, dx), &lift(u, du), &mut dual, by);
    (ys, dual.iter().map(|d| d.eps).collect())
}

/// With and without structural damping, with the rigid-blade (`aero_interface = 0`) and the
/// station-level (`= 1`) aero interface: 3 blades of 4 elements of the shipped Bo105-class
/// table at random states (displacements 2 cm, rotation vectors 0.05 rad, rates 1 m/s and
/// 2 rad/s about the initial equilibrium) with random inputs (hub motion, pitch, loads): the
/// outputs by the clamp load alone equal the full pass's within 1e-12 of the largest output,
/// and so do their directional derivatives along random directions of states and inputs.
#[test]
fn clamp_only_outputs_equal_the_full_pass() {
    let mut random = Uniform(29);
    let mut worst = [0.0_f64; 2];
    for damping in [0.0, 0.005] {
        for aero_interface in [0, 1] {
            let params = StartValues::new(
                &[("structural_damping", damping)],
                &[("nb", 3), ("n_elements", 4), ("aero_interface", aero_interface)],
            );
            let rotor = RotorElastic::from_parameters(&params).unwrap();
            let mut x = vec![0.0; rotor.n_states()];
            rotor.initial_state(&mut x);
            let half = rotor.blade.n_states() / 2;
            for case in 0..5 {
                let x: Vec<f64> = x
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        let (coordinate, at) = ((i % (2 * half)) < half, i % 6);
                        v + random.next() * if coordinate { [0.02, 0.05][at / 3] } else { [1.0, 2.0][at / 3] }
                    })
                    .collect();
                let u: Vec<f64> = (0..params.catalog.input_slots.len()).map(|_| 100.0 * random.next()).collect();
                let dx: Vec<f64> = x.iter().map(|_| random.next()).collect();
                let du: Vec<f64> = u.iter().map(|_| random.next()).collect();
                let clamp = outputs(&rotor, (&x, &u), (&dx, &du), HubLoad::ClampOnly);
                let full = outputs(&rotor, (&x, &u), (&dx, &du), HubLoad::FullPass);
                let errors = [relative_difference(&clamp.0, &full.0), relative_difference(&clamp.1, &full.1)];
                let what = format!("damping {damping}, aero_interface {aero_interface}, case {case}");
                assert!(errors[0] <= 1e-12, "{what}: outputs differ by {:e}", errors[0]);
                assert!(errors[1] <= 1e-12, "{what}: directional derivatives differ by {:e}", errors[1]);
                worst = [worst[0].max(errors[0]), worst[1].max(errors[1])];
            }
        }
    }
    println!("clamp-only vs full pass: worst {:.1e} (values), {:.1e} (directional derivatives)", worst[0], worst[1]);
}
