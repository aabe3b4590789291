//! What the master reads first at a communication point: the outputs without direct
//! feedthrough (dependencies naming no input), alone, before it sets the inputs. Through the C
//! ABI of the packaged `Rotor.fmu` (whose `fmi2GetReal` evaluates just those): the same values,
//! bit for bit, as a full read, before and after new inputs are set.

use crate::import_support::{Collector, packaged_fmu};

use cosim::import::Fmu;

#[test]
fn outputs_without_feedthrough_read_alone_equal_a_full_read_of_the_packaged_rotor() {
    let fmu = Fmu::open(&packaged_fmu("Rotor")).expect("Rotor.fmu opens");
    let md = fmu.model_description().clone();
    let outputs: Vec<usize> = (0..md.variables.len()).filter(|&v| md.variables[v].is_output()).collect();
    let (alone, rest): (Vec<usize>, Vec<usize>) = outputs.iter().partition(|&&v| md.feedthrough_inputs(v).is_empty());
    let names: Vec<&str> = alone.iter().map(|&v| md.variables[v].name.as_str()).collect();
    assert!(
        names.contains(&"azimuth") && names.contains(&"shaft.rate") && names.contains(&"blade[3].flap"),
        "{names:?}"
    );
    let vrs = |list: &[usize]| list.iter().map(|&v| md.variables[v].value_reference).collect::<Vec<u32>>();
    let vr = |name: &str| md.variable(name).unwrap_or_else(|| panic!("no variable {name}")).value_reference;
    let (alone_vrs, mut all_vrs) = (vrs(&alone), vrs(&alone));
    all_vrs.extend(vrs(&rest));
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<u64>>();

    let mut slave = fmu.instantiate("rotor", std::sync::Arc::new(Collector::default())).unwrap();
    slave.set_real(&[vr("blade.beta0"), vr("psi0")], &[0.04, 0.2]).unwrap();
    slave.setup_experiment(None, 0.0, None).unwrap();
    slave.enter_initialization_mode().unwrap();
    slave.exit_initialization_mode().unwrap();
    let (mut first, mut again, mut all) =
        (vec![0.0; alone_vrs.len()], vec![0.0; alone_vrs.len()], vec![0.0; all_vrs.len()]);
    let mut t = 0.0;
    for n in 0..4 {
        slave.do_step(t, 0.002, false).unwrap();
        t += 0.002;
        slave.get_real(&alone_vrs, &mut first).unwrap();
        // The pitch the controls compute from the azimuth, and new hub motion.
        let pitch = 0.1 + 0.01 * f64::from(n);
        slave.set_real(&[vr("blade[1].pitch"), vr("blade[2].pitch"), vr("hub.acc.z")], &[pitch, -pitch, -9.0]).unwrap();
        slave.get_real(&alone_vrs, &mut again).unwrap();
        slave.get_real(&all_vrs, &mut all).unwrap();
        assert_eq!(bits(&first), bits(&again), "step {n}: read alone after new inputs");
        assert_eq!(bits(&first), bits(&all[..alone_vrs.len()]), "step {n}: read alone against a full read");
        assert!(first.iter().all(|x| x.is_finite()));
    }
    slave.terminate().unwrap();
}
