//! Building a [`Master`] from a resolved system and its instantiated FMUs: the driven inputs and
//! read outputs of each unit, the discrete exchange, the feedthrough graph, its loops in
//! solution order, the recording, and the parameters set before initialization.

use std::collections::HashMap;

use super::coupling::{ColumnScratch, LoopSolver, Node};
use super::newton::LoopBuffers;
use super::unit::Unit;
use super::{Master, MasterError, Recorded, Stats, discrete, graph, parallel};
use crate::import::Instance;
use crate::import::model_description::{Causality, ModelDescription, VarType};
use crate::system::{ParameterValue, System, VarRef};

impl Master {
    pub(super) fn build(
        system: System,
        mds: Vec<ModelDescription>,
        slaves: Vec<Instance>,
    ) -> Result<Master, MasterError> {
        let n_units = slaves.len();
        // Driven inputs and read outputs per unit, as variable indices.
        let mut driven: Vec<Vec<usize>> = vec![Vec::new(); n_units];
        let mut read: Vec<Vec<usize>> = vec![Vec::new(); n_units];
        let push = |list: &mut Vec<usize>, v: usize| {
            if let Some(p) = list.iter().position(|&x| x == v) {
                p
            } else {
                list.push(v);
                list.len() - 1
            }
        };
        let require_real = |r: &VarRef, what: &str| -> Result<(), MasterError> {
            let md = &mds[r.instance];
            if md.variables[r.variable].var_type != VarType::Real {
                return Err(MasterError::Unsupported(format!(
                    "{}: {what} of type {:?}: only Real connections and signals are supported",
                    var_name(md, &system.instances[r.instance].name, r.variable),
                    md.variables[r.variable].var_type
                )));
            }
            Ok(())
        };
        // Connections between discrete variables (and Integer to Real) are exchanged outside the
        // Newton coupling (see `discrete`); a Real input they drive is a driven input.
        let is_real = |r: &VarRef| mds[r.instance].variables[r.variable].var_type == VarType::Real;
        let mut discrete = discrete::Discrete::new(n_units);
        let mut discrete_to_real = Vec::new();
        for c in &system.connections {
            if is_real(&c.from) && is_real(&c.to) {
                push(&mut read[c.from.instance], c.from.variable);
                push(&mut driven[c.to.instance], c.to.variable);
            } else {
                discrete_connection(&system, &mds, c, &mut discrete, &mut discrete_to_real)?;
                if is_real(&c.to) {
                    push(&mut driven[c.to.instance], c.to.variable);
                }
            }
        }
        for e in &system.inputs {
            require_real(&e.to, "external input")?;
            push(&mut driven[e.to.instance], e.to.variable);
        }
        for c in &discrete_to_real {
            let j = driven[c.to.instance].iter().position(|&v| v == c.to.variable).expect("pushed above");
            discrete.connect_to_real(c.from, c.to.instance, j, &mds);
        }
        let mut notes = Vec::new();
        for (inst, md) in system.instances.iter().zip(&mds) {
            notes.extend(md.alias_warnings().into_iter().map(|w| format!("{}: {w}", inst.name)));
        }
        let mut recorded_discrete = HashMap::new();
        for r in &system.outputs {
            let md = &mds[r.instance];
            let variable = &md.variables[r.variable];
            let causality = variable.causality;
            if variable.var_type == VarType::String {
                notes.push(format!(
                    "{}: String variables are not recorded",
                    var_name(md, &system.instances[r.instance].name, r.variable)
                ));
            } else if discrete::Kind::of(variable.var_type).is_some() {
                let input = causality != Causality::Output;
                if input && !discrete.has(*r) {
                    return Err(MasterError::Unsupported(format!(
                        "{}: only outputs and connected or driven inputs can be recorded",
                        var_name(md, &system.instances[r.instance].name, r.variable)
                    )));
                }
                recorded_discrete.insert(*r, discrete.slot(*r, &mds, input));
            } else if causality == Causality::Output {
                push(&mut read[r.instance], r.variable);
            } else if !driven[r.instance].contains(&r.variable) {
                return Err(MasterError::Unsupported(format!(
                    "{}: only outputs and connected or driven inputs can be recorded",
                    var_name(md, &system.instances[r.instance].name, r.variable)
                )));
            }
        }

        let mut units = Vec::with_capacity(n_units);
        for (u, slave) in slaves.into_iter().enumerate() {
            let md = &mds[u];
            let name = system.instances[u].name.clone();
            let n_in = driven[u].len();
            let n_out = read[u].len();
            let mut feed_by_output = vec![Vec::new(); n_out];
            for (k, &ov) in read[u].iter().enumerate() {
                let deps = md.outputs.iter().find(|o| o.variable == ov).and_then(|o| o.dependencies.clone());
                for (j, &iv) in driven[u].iter().enumerate() {
                    // Absent `dependencies` means "depends on all inputs" (FMI 2.0).
                    if deps.as_ref().is_none_or(|d| d.contains(&iv)) {
                        feed_by_output[k].push(j);
                    }
                }
            }
            let mut feed_by_input = vec![Vec::new(); n_in];
            for (k, js) in feed_by_output.iter().enumerate() {
                for &j in js {
                    feed_by_input[j].push(k);
                }
            }
            let cs = &md.co_simulation;
            let in_vrs: Vec<u32> = driven[u].iter().map(|&v| md.variables[v].value_reference).collect();
            let orders = usize::from(system.master.extrapolation_order);
            units.push(Box::new(Unit {
                name: name.clone(),
                slave,
                get_after_set: md.get_after_set,
                provides_dd: cs.provides_directional_derivative,
                can_interpolate: cs.can_interpolate_inputs,
                derivative_vrs: in_vrs.repeat(orders),
                derivative_orders: (1..=orders as i32).flat_map(|order| std::iter::repeat_n(order, n_in)).collect(),
                derivative_values: vec![0.0; n_in * orders],
                in_vrs,
                in_values: vec![f64::NAN; n_in],
                in_old: vec![0.0; n_in],
                in_older: vec![0.0; n_in],
                in_next: vec![0.0; n_in],
                in_saved: std::array::from_fn(|_| vec![0.0; n_in]),
                pending: vec![false; n_in],
                pending_list: Vec::with_capacity(n_in),
                set_vrs: Vec::with_capacity(n_in),
                set_values: Vec::with_capacity(n_in),
                out_vrs: read[u].iter().map(|&v| md.variables[v].value_reference).collect(),
                out_names: read[u].iter().map(|&v| var_name(md, &name, v)).collect(),
                out_pred: vec![0.0; n_out],
                out_fresh: false,
                state_only: super::unit::StateOnly::new(md, &read[u]),
                feed_by_input,
                feed_by_output,
                d: vec![0.0; n_out * n_in],
                dd_vrs: Vec::with_capacity(n_out),
                dd_values: Vec::with_capacity(n_out),
                state: None,
            }));
        }

        // Graph nodes: connected outputs.
        let mut nodes: Vec<Node> = Vec::new();
        let mut node_of: HashMap<(usize, usize), usize> = HashMap::new();
        for c in system.connections.iter().filter(|c| is_real(&c.from) && is_real(&c.to)) {
            let k = read[c.from.instance].iter().position(|&v| v == c.from.variable).expect("pushed above");
            let j = driven[c.to.instance].iter().position(|&v| v == c.to.variable).expect("pushed above");
            let p = *node_of.entry((c.from.instance, k)).or_insert_with(|| {
                nodes.push(Node { unit: c.from.instance, output: k, targets: Vec::new(), value: 0.0 });
                nodes.len() - 1
            });
            nodes[p].targets.push((c.to.instance, j));
        }
        let mut edges = vec![Vec::new(); nodes.len()];
        for (p, node) in nodes.iter().enumerate() {
            for &(v, j) in &node.targets {
                for &k in &units[v].feed_by_input[j] {
                    if let Some(&q) = node_of.get(&(v, k)) {
                        edges[p].push(q);
                    }
                }
            }
        }
        let components = graph::components_in_order(nodes.len(), &edges);

        let mut loops = Vec::new();
        let mut loop_of_component = Vec::with_capacity(components.len());
        for comp in &components {
            if !comp.is_loop {
                loop_of_component.push(None);
                continue;
            }
            let m = comp.nodes.len();
            let mut inputs = Vec::new();
            for (local, &p) in comp.nodes.iter().enumerate() {
                for &(v, j) in &nodes[p].targets {
                    if units[v].feed_by_input[j]
                        .iter()
                        .any(|&k| node_of.get(&(v, k)).is_some_and(|q| comp.nodes.contains(q)))
                    {
                        inputs.push((v, j, local));
                    }
                }
            }
            let members = comp
                .nodes
                .iter()
                .map(|&p| units[nodes[p].unit].out_names[nodes[p].output].clone())
                .collect::<Vec<_>>()
                .join(", ");
            let mut loop_units = Vec::new();
            for &p in &comp.nodes {
                if !loop_units.contains(&nodes[p].unit) {
                    loop_units.push(nodes[p].unit);
                }
            }
            loop_of_component.push(Some(loops.len()));
            loops.push(LoopSolver {
                nodes: comp.nodes.clone(),
                inputs,
                newton: LoopBuffers::new(m),
                scratch: ColumnScratch {
                    rows: Vec::with_capacity(m),
                    slope: Vec::with_capacity(m),
                    base: Vec::with_capacity(m),
                    unknown_vrs: Vec::with_capacity(m),
                },
                members,
                units: loop_units,
                warned_delay: false,
                warm: false,
            });
        }

        // Gauss-Seidel: units in the order their outputs first appear topologically.
        let mut gauss_seidel_order = Vec::with_capacity(n_units);
        for comp in &components {
            for &p in &comp.nodes {
                if !gauss_seidel_order.contains(&nodes[p].unit) {
                    gauss_seidel_order.push(nodes[p].unit);
                }
            }
        }
        for u in 0..n_units {
            if !gauss_seidel_order.contains(&u) {
                gauss_seidel_order.push(u);
            }
        }

        let mut recorded = Vec::new();
        let mut recorded_names = Vec::new();
        for r in &system.outputs {
            let md = &mds[r.instance];
            if md.variables[r.variable].var_type == VarType::String {
                continue;
            }
            recorded_names.push(var_name(md, &system.instances[r.instance].name, r.variable));
            if let Some(&slot) = recorded_discrete.get(r) {
                recorded.push(Recorded::Discrete(slot));
                continue;
            }
            recorded.push(match read[r.instance].iter().position(|&v| v == r.variable) {
                Some(k) => Recorded::Output(r.instance, k),
                None => Recorded::Input(
                    r.instance,
                    driven[r.instance].iter().position(|&v| v == r.variable).expect("checked above"),
                ),
            });
        }
        let externals = system
            .inputs
            .iter()
            .map(|e| {
                let j = driven[e.to.instance].iter().position(|&v| v == e.to.variable).expect("pushed above");
                (e.to.instance, j, e.signal.clone())
            })
            .collect();
        let system_threads = system.master.threads;
        let can_roll_back = system.master.rollback && mds.iter().all(|md| md.co_simulation.can_get_and_set_fmu_state);
        let mut master = Master {
            units,
            nodes,
            components,
            loops,
            loop_of_component,
            externals,
            recorded,
            recorded_names,
            time: system.experiment.start,
            step_starts: [None; 2],
            forward_slopes_over: None,
            system,
            gauss_seidel_order,
            can_roll_back,
            stats: Stats::default(),
            warnings: Vec::new(),
            stop_reason: None,
            record_every: 1,
            discrete,
            pool: parallel::Pool::new(system_threads),
        };
        for note in notes {
            master.warn(note);
        }
        master.apply_parameters(&mds)?;
        Ok(master)
    }

    /// Sets the system's parameter values (in the `Instantiated` state).
    fn apply_parameters(&mut self, mds: &[ModelDescription]) -> Result<(), MasterError> {
        for (u, inst) in self.system.instances.iter().enumerate() {
            let slave = &mut self.units[u].slave;
            for (v, value) in &inst.parameters {
                let vr = [mds[u].variables[*v].value_reference];
                match *value {
                    ParameterValue::Real(x) => slave.set_real(&vr, &[x])?,
                    ParameterValue::Integer(i) => slave.set_integer(&vr, &[i])?,
                    ParameterValue::Boolean(b) => slave.set_boolean(&vr, &[b])?,
                }
            }
        }
        Ok(())
    }
}

fn var_name(md: &ModelDescription, instance: &str, v: usize) -> String {
    format!("{instance}.{}", md.variables[v].name)
}

/// Registers connection `c`, which is not Real to Real, with `discrete`: Integer or Enumeration
/// to Integer or Enumeration, Boolean to Boolean, Integer to Real (collected in `to_real` as the
/// connection, linked once the Real input's position is known).
fn discrete_connection(
    system: &System,
    mds: &[ModelDescription],
    c: &crate::system::Connection,
    discrete: &mut discrete::Discrete,
    to_real: &mut Vec<crate::system::Connection>,
) -> Result<(), MasterError> {
    let type_of = |r: &VarRef| mds[r.instance].variables[r.variable].var_type;
    let name = |r: &VarRef| var_name(&mds[r.instance], &system.instances[r.instance].name, r.variable);
    let (from, to) = (discrete::Kind::of(type_of(&c.from)), discrete::Kind::of(type_of(&c.to)));
    match (from, to) {
        (Some(a), Some(b)) if a == b => discrete.connect(c.from, c.to, mds),
        (Some(discrete::Kind::Integer), None) if type_of(&c.to) == VarType::Real => to_real.push(*c),
        _ => {
            return Err(MasterError::Unsupported(format!(
                "connection {} -> {}: {:?} to {:?} is not supported (Real, Integer/Enumeration and Boolean \
                 connect to their own kind, Integer also to Real; String not at all)",
                name(&c.from),
                name(&c.to),
                type_of(&c.from),
                type_of(&c.to)
            )));
        }
    }
    Ok(())
}
