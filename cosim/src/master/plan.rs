//! The coupling plan: everything the master derives from a resolved [`System`] and its model
//! descriptions, before any FMU is loaded. The driven inputs and read outputs of each unit, the
//! discrete exchange, the feedthrough graph, its loops in solution order, the recording, and the
//! parameters set before initialization. Building it is the one place where the master rejects
//! a connection, external input or recorded variable it does not support; `Master::build` then
//! only adds the instances and the per-run buffers.

use std::collections::HashMap;
use std::sync::Arc;

use super::discrete::{self, DiscretePlan};
use super::ids::{InputId, InputRef, LoopId, NodeId, OutputId, OutputRef, UnitId};
use super::unit::StateOnly;
use super::{MasterError, Recorded, graph};
use crate::import::model_description::{Causality, ModelDescription, VarType};
use crate::system::{Connection, ParameterValue, System, VarRef};

/// What the master does with a [`System`], derived from its model descriptions alone: built and
/// checked before any FMU is extracted, loaded or instantiated, and not changed afterwards. The
/// [`super::Master`] keeps it whole beside its per-run data.
pub struct CouplingPlan {
    /// Per unit (instance of the system, in order); shared with the unit's run data, which
    /// worker threads step ([`super::unit::Unit::plan`]).
    pub(super) units: Vec<Arc<UnitPlan>>,
    pub(super) nodes: Vec<Node>,
    /// The feedthrough graph's components in solution order: single outputs and loops.
    pub(super) order: Vec<Solve>,
    pub(super) loops: Vec<LoopPlan>,
    /// Units in Gauss-Seidel order.
    pub(super) gauss_seidel_order: Vec<UnitId>,
    /// The input each external input of the system (in order) drives.
    pub(super) externals: Vec<InputRef>,
    pub(super) recorded: Vec<Recorded>,
    pub(super) recorded_names: Vec<String>,
    pub(super) discrete: DiscretePlan,
    /// Per unit: (value reference, value) to set before initialization, in document order.
    pub(super) parameters: Vec<Vec<(u32, ParameterValue)>>,
    /// Warnings about the system, to be issued by the master.
    pub(super) notes: Vec<String>,
    /// Rollback is asked for and every FMU can get and set its state.
    pub(super) can_roll_back: bool,
}

/// The coupling of one unit: the Real inputs it is driven on and the Real outputs it is read.
pub(super) struct UnitPlan {
    pub(super) name: String,
    /// Our vendor annotation: outputs are valid after `fmi2SetReal` without a step.
    pub(super) get_after_set: bool,
    pub(super) provides_dd: bool,
    pub(super) can_interpolate: bool,
    /// Value references of the driven Real inputs (connections and external signals), by
    /// [`InputId`].
    pub(super) in_vrs: Vec<u32>,
    /// Value references of the read Real outputs (connected and recorded), by [`OutputId`].
    pub(super) out_vrs: Vec<u32>,
    /// `instance.variable` of each read output.
    pub(super) out_names: Vec<String>,
    /// Per input: the outputs that depend on it directly.
    pub(super) feed_by_input: Vec<Vec<OutputId>>,
    /// Per output: the inputs it depends on directly.
    pub(super) feed_by_output: Vec<Vec<InputId>>,
    /// Per read output: it depends on no input, so it is read alone first after a step
    /// ([`super::unit::StateOnly`]).
    pub(super) state_only: Vec<bool>,
}

/// A connected output: a node of the feedthrough graph.
pub(super) struct Node {
    pub(super) source: OutputRef,
    /// The inputs it drives.
    pub(super) targets: Vec<InputRef>,
}

/// One component of the feedthrough graph, in solution order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Solve {
    /// An output on no loop: read and passed on.
    Output(NodeId),
    /// An algebraic loop: solved by Newton.
    Loop(LoopId),
}

/// One algebraic loop of the feedthrough graph.
pub(super) struct LoopPlan {
    /// Its nodes, ascending; the Newton unknowns `z` in this order.
    pub(super) nodes: Vec<NodeId>,
    /// Its inputs that feed back into it.
    pub(super) inputs: Vec<LoopInput>,
    /// The loop's variables, `instance.variable`, comma-separated.
    pub(super) members: String,
    /// The units owning the loop's outputs, in the order the nodes first name them.
    pub(super) units: Vec<UnitId>,
}

/// An input of a loop that feeds back into it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) struct LoopInput {
    pub(super) input: InputRef,
    /// The position in the loop's `nodes` (its unknown) of the node driving it.
    pub(super) driver: usize,
}

/// Driven Real inputs and read Real outputs per unit, as variable indices.
struct Io {
    driven: Vec<Vec<usize>>,
    read: Vec<Vec<usize>>,
}

/// Position of `v` in `list`, appended if absent.
fn push(list: &mut Vec<usize>, v: usize) -> usize {
    if let Some(p) = list.iter().position(|&x| x == v) {
        p
    } else {
        list.push(v);
        list.len() - 1
    }
}

/// Position of `v` in `list`, which holds it by construction.
fn position(list: &[usize], v: usize) -> usize {
    list.iter().position(|&x| x == v).expect("pushed above")
}

fn is_real(system: &System, r: VarRef) -> bool {
    system.variable(r).var_type == VarType::Real
}

/// The descriptions of `system`'s instances, in order.
fn descriptions(system: &System) -> impl Iterator<Item = &ModelDescription> {
    system.instances.iter().map(|i| &i.description)
}

impl CouplingPlan {
    /// The plan for `system`, from the model descriptions it was resolved with
    /// ([`crate::system::InstanceSpec::description`]); no FMU file is read. Fails with
    /// [`MasterError::Unsupported`] on a connection, external input or recorded variable the
    /// master cannot handle.
    pub fn new(system: &System) -> Result<CouplingPlan, MasterError> {
        let (mut io, mut discrete) = connect(system)?;
        let mut notes = alias_notes(system);
        let (recorded, recorded_names) = recording(system, &mut io, &mut discrete, &mut notes)?;
        let externals = external_inputs(system, &io);
        let units = unit_plans(system, &io);
        let nodes = graph_nodes(system, &io);
        let components = graph::components_in_order(nodes.len(), &graph_edges(&nodes, &units));
        let (order, loops) = solution_order(&components, &nodes, &units);
        Ok(CouplingPlan {
            gauss_seidel_order: gauss_seidel_order(&components, &nodes, units.len()),
            units: units.into_iter().map(Arc::new).collect(),
            nodes,
            order,
            loops,
            externals,
            recorded,
            recorded_names,
            discrete,
            parameters: start_parameters(system),
            notes,
            can_roll_back: system.master.rollback
                && descriptions(system).all(|md| md.co_simulation.can_get_and_set_fmu_state == Some(true)),
        })
    }

    /// The algebraic loops, each as its `instance.variable` members, in solution order.
    pub fn loops(&self) -> Vec<Vec<String>> {
        self.loops.iter().map(|l| self.node_names(&l.nodes)).collect()
    }

    /// The components of the feedthrough graph in solution order, as `instance.variable` lists,
    /// with a flag for loops.
    pub fn components(&self) -> Vec<(Vec<String>, bool)> {
        self.order
            .iter()
            .map(|&solve| match solve {
                Solve::Output(p) => (self.node_names(&[p]), false),
                Solve::Loop(l) => (self.node_names(&self.loops[l].nodes), true),
            })
            .collect()
    }

    /// Names of the recorded variables, in column order.
    pub fn recorded_names(&self) -> &[String] {
        &self.recorded_names
    }

    /// Warnings about the system (aliases, unrecorded String variables).
    pub fn warnings(&self) -> &[String] {
        &self.notes
    }

    /// `instance.variable` of a read output.
    pub(super) fn output_name(&self, output: OutputRef) -> &str {
        &self.units[output.unit].out_names[output.output]
    }

    fn node_names(&self, nodes: &[NodeId]) -> Vec<String> {
        nodes.iter().map(|&p| self.output_name(self.nodes[p].source).to_string()).collect()
    }
}

/// The connections: Real to Real into the I/O lists, the others into the discrete exchange
/// (see [`discrete`]), a Real input they drive into the driven inputs.
fn connect(system: &System) -> Result<(Io, DiscretePlan), MasterError> {
    let n_units = system.instances.len();
    let mut io = Io { driven: vec![Vec::new(); n_units], read: vec![Vec::new(); n_units] };
    let mut discrete = DiscretePlan::new(n_units);
    let mut discrete_to_real = Vec::new();
    for c in &system.connections {
        if is_real(system, c.from) && is_real(system, c.to) {
            push(&mut io.read[c.from.instance], c.from.variable);
            push(&mut io.driven[c.to.instance], c.to.variable);
        } else {
            discrete_connection(system, c, &mut discrete, &mut discrete_to_real)?;
            if is_real(system, c.to) {
                push(&mut io.driven[c.to.instance], c.to.variable);
            }
        }
    }
    for e in &system.inputs {
        require_real(system, e.to, "external input")?;
        push(&mut io.driven[e.to.instance], e.to.variable);
    }
    for c in &discrete_to_real {
        discrete.connect_to_real(c.from, driven_input(&io, c.to), system);
    }
    Ok((io, discrete))
}

/// Registers connection `c`, which is not Real to Real, with `discrete`: Integer or Enumeration
/// to Integer or Enumeration, Boolean to Boolean, Integer to Real (collected in `to_real` as the
/// connection, linked once the Real input's position is known).
fn discrete_connection(
    system: &System,
    c: &Connection,
    discrete: &mut DiscretePlan,
    to_real: &mut Vec<Connection>,
) -> Result<(), MasterError> {
    let type_of = |r: VarRef| system.variable(r).var_type;
    let (from, to) = (discrete::Kind::of(type_of(c.from)), discrete::Kind::of(type_of(c.to)));
    match (from, to) {
        (Some(a), Some(b)) if a == b => discrete.connect(c.from, c.to, system),
        (Some(discrete::Kind::Integer), None) if type_of(c.to) == VarType::Real => to_real.push(*c),
        _ => {
            return Err(MasterError::Unsupported(format!(
                "connection {} -> {}: {:?} to {:?} is not supported (Real, Integer/Enumeration and Boolean \
                 connect to their own kind, Integer also to Real; String not at all)",
                system.name(c.from),
                system.name(c.to),
                type_of(c.from),
                type_of(c.to)
            )));
        }
    }
    Ok(())
}

fn require_real(system: &System, r: VarRef, what: &str) -> Result<(), MasterError> {
    let var_type = system.variable(r).var_type;
    if var_type != VarType::Real {
        return Err(MasterError::Unsupported(format!(
            "{}: {what} of type {var_type:?}: only Real connections and signals are supported",
            system.name(r)
        )));
    }
    Ok(())
}

/// The driven input `r`, which [`connect`] entered into `io`.
fn driven_input(io: &Io, r: VarRef) -> InputRef {
    InputRef { unit: UnitId(r.instance), input: InputId(position(&io.driven[r.instance], r.variable)) }
}

/// The input each external input drives.
fn external_inputs(system: &System, io: &Io) -> Vec<InputRef> {
    system.inputs.iter().map(|e| driven_input(io, e.to)).collect()
}

/// The model descriptions' alias warnings, prefixed with their instance.
fn alias_notes(system: &System) -> Vec<String> {
    let mut notes = Vec::new();
    for inst in &system.instances {
        notes.extend(inst.description.alias_warnings().into_iter().map(|w| format!("{}: {w}", inst.name)));
    }
    notes
}

/// The recorded variables and their names: Real outputs become read outputs, Real inputs must be
/// driven, discrete variables get a slot in `discrete`, String variables are left out (a note).
fn recording(
    system: &System,
    io: &mut Io,
    discrete: &mut DiscretePlan,
    notes: &mut Vec<String>,
) -> Result<(Vec<Recorded>, Vec<String>), MasterError> {
    let not_recordable = |r: VarRef| {
        MasterError::Unsupported(format!(
            "{}: only outputs and connected or driven inputs can be recorded",
            system.name(r)
        ))
    };
    let mut recorded = Vec::new();
    let mut names = Vec::new();
    for &r in &system.outputs {
        let variable = system.variable(r);
        let output = variable.causality == Causality::Output;
        let entry = if variable.var_type == VarType::String {
            notes.push(format!("{}: String variables are not recorded", system.name(r)));
            continue;
        } else if discrete::Kind::of(variable.var_type).is_some() {
            if !output && !discrete.has(r) {
                return Err(not_recordable(r));
            }
            Recorded::Discrete(discrete.slot(r, system, !output))
        } else if output {
            let output = OutputId(push(&mut io.read[r.instance], r.variable));
            Recorded::Output(OutputRef { unit: UnitId(r.instance), output })
        } else {
            let j = io.driven[r.instance].iter().position(|&v| v == r.variable);
            Recorded::Input(InputRef { unit: UnitId(r.instance), input: InputId(j.ok_or_else(|| not_recordable(r))?) })
        };
        recorded.push(entry);
        names.push(system.name(r));
    }
    Ok((recorded, names))
}

/// Each unit's coupling: value references, output names and direct feedthrough.
fn unit_plans(system: &System, io: &Io) -> Vec<UnitPlan> {
    let mut units = Vec::with_capacity(system.instances.len());
    for (u, inst) in system.instances.iter().enumerate() {
        let md = &inst.description;
        let (driven, read) = (&io.driven[u], &io.read[u]);
        let (feed_by_output, feed_by_input) = feedthrough(md, driven, read);
        let vrs = |list: &[usize]| list.iter().map(|&v| md.variables[v].value_reference).collect();
        units.push(UnitPlan {
            name: inst.name.clone(),
            get_after_set: md.get_after_set,
            provides_dd: md.co_simulation.provides_directional_derivative == Some(true),
            can_interpolate: md.co_simulation.can_interpolate_inputs == Some(true),
            in_vrs: vrs(driven),
            out_vrs: vrs(read),
            out_names: read.iter().map(|&v| format!("{}.{}", inst.name, md.variables[v].name)).collect(),
            feed_by_input,
            feed_by_output,
            state_only: StateOnly::outputs(md, read),
        });
    }
    units
}

/// For the outputs `read` and inputs `driven` (variable indices) of one model: the inputs each
/// output depends on directly, and the outputs that depend on each input.
fn feedthrough(md: &ModelDescription, driven: &[usize], read: &[usize]) -> (Vec<Vec<InputId>>, Vec<Vec<OutputId>>) {
    let mut feed_by_output = vec![Vec::new(); read.len()];
    for (k, &ov) in read.iter().enumerate() {
        let deps = md.outputs.iter().find(|o| o.variable == ov).and_then(|o| o.dependencies.as_ref());
        for (j, &iv) in driven.iter().enumerate() {
            // Absent `dependencies` means "depends on all inputs" (FMI 2.0).
            if deps.is_none_or(|d| d.contains(&iv)) {
                feed_by_output[k].push(InputId(j));
            }
        }
    }
    let mut feed_by_input = vec![Vec::new(); driven.len()];
    for (k, js) in feed_by_output.iter().enumerate() {
        for &j in js {
            feed_by_input[j].push(OutputId(k));
        }
    }
    (feed_by_output, feed_by_input)
}

/// The nodes of the feedthrough graph: the outputs of Real-to-Real connections, in the order
/// the connections first name them, each with the inputs it drives.
fn graph_nodes(system: &System, io: &Io) -> Vec<Node> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut node_of: HashMap<OutputRef, usize> = HashMap::new();
    for c in system.connections.iter().filter(|c| is_real(system, c.from) && is_real(system, c.to)) {
        let output = OutputId(position(&io.read[c.from.instance], c.from.variable));
        let source = OutputRef { unit: UnitId(c.from.instance), output };
        let p = *node_of.entry(source).or_insert_with(|| {
            nodes.push(Node { source, targets: Vec::new() });
            nodes.len() - 1
        });
        nodes[p].targets.push(driven_input(io, c.to));
    }
    nodes
}

/// The node of each output that is a node.
fn node_index(nodes: &[Node]) -> HashMap<OutputRef, NodeId> {
    nodes.iter().enumerate().map(|(p, n)| (n.source, NodeId(p))).collect()
}

/// The nodes whose output depends directly on `input`.
fn fed_nodes<'a>(
    input: InputRef,
    units: &'a [UnitPlan],
    node_of: &'a HashMap<OutputRef, NodeId>,
) -> impl Iterator<Item = NodeId> + 'a {
    let outputs = &units[input.unit].feed_by_input[input.input];
    outputs.iter().filter_map(move |&output| node_of.get(&OutputRef { unit: input.unit, output }).copied())
}

/// Edges `p -> q` (as node positions, for [`graph`]): node `p` drives an input on which output
/// `q` depends directly.
fn graph_edges(nodes: &[Node], units: &[UnitPlan]) -> Vec<Vec<usize>> {
    let node_of = node_index(nodes);
    let mut edges = vec![Vec::new(); nodes.len()];
    for (p, node) in nodes.iter().enumerate() {
        for &target in &node.targets {
            edges[p].extend(fed_nodes(target, units, &node_of).map(|q| q.0));
        }
    }
    edges
}

/// The solution order of `components` (outputs alone and loops) and the loops.
fn solution_order(components: &[graph::Component], nodes: &[Node], units: &[UnitPlan]) -> (Vec<Solve>, Vec<LoopPlan>) {
    let node_of = node_index(nodes);
    let mut loops = Vec::new();
    let mut order = Vec::with_capacity(components.len());
    for comp in components {
        if comp.is_loop {
            order.push(Solve::Loop(LoopId(loops.len())));
            loops.push(loop_plan(comp, nodes, units, &node_of));
        } else {
            order.push(Solve::Output(NodeId(comp.nodes[0])));
        }
    }
    (order, loops)
}

/// The loop of component `comp`: its inputs that feed back into it, members and units.
fn loop_plan(
    comp: &graph::Component,
    nodes: &[Node],
    units: &[UnitPlan],
    node_of: &HashMap<OutputRef, NodeId>,
) -> LoopPlan {
    let loop_nodes: Vec<NodeId> = comp.nodes.iter().map(|&p| NodeId(p)).collect();
    let mut inputs = Vec::new();
    for (driver, &p) in loop_nodes.iter().enumerate() {
        for &input in &nodes[p].targets {
            if fed_nodes(input, units, node_of).any(|q| loop_nodes.contains(&q)) {
                inputs.push(LoopInput { input, driver });
            }
        }
    }
    let source = |p: NodeId| nodes[p].source;
    let members = loop_nodes
        .iter()
        .map(|&p| units[source(p).unit].out_names[source(p).output].clone())
        .collect::<Vec<_>>()
        .join(", ");
    let mut loop_units = Vec::new();
    for &p in &loop_nodes {
        if !loop_units.contains(&source(p).unit) {
            loop_units.push(source(p).unit);
        }
    }
    LoopPlan { nodes: loop_nodes, inputs, members, units: loop_units }
}

/// Gauss-Seidel: units in the order their outputs first appear topologically, then the rest.
fn gauss_seidel_order(components: &[graph::Component], nodes: &[Node], n_units: usize) -> Vec<UnitId> {
    let mut order = Vec::with_capacity(n_units);
    for comp in components {
        for &p in &comp.nodes {
            if !order.contains(&nodes[p].source.unit) {
                order.push(nodes[p].source.unit);
            }
        }
    }
    for u in (0..n_units).map(UnitId) {
        if !order.contains(&u) {
            order.push(u);
        }
    }
    order
}

/// Per unit: the system's parameter values with their value references.
fn start_parameters(system: &System) -> Vec<Vec<(u32, ParameterValue)>> {
    system
        .instances
        .iter()
        .map(|inst| {
            inst.parameters
                .iter()
                .map(|(v, value)| (inst.description.variables[*v].value_reference, value.clone()))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests;
