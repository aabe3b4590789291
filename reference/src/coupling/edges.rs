//! The coupling's structure: the feedthrough graph of the unit outputs, the loops of its strongly
//! connected components, and the level of each component.

use cosim::master::graph::Component;
use cosim::master::newton::LoopBuffers;

use super::{Loop, LoopInput, Node, Unit};

/// The feedthrough graph of the nodes (unit outputs) over the units.
pub(super) struct FeedthroughEdges {
    /// `node_of[unit][output]`: the node of that output, if it is one.
    node_of: Vec<Vec<Option<usize>>>,
    /// `by_input[unit][input]`: the outputs of the unit that depend on that input directly.
    by_input: Vec<Vec<Vec<usize>>>,
    /// `edges[p]`: the nodes that depend directly on node `p`.
    pub(super) edges: Vec<Vec<usize>>,
}

impl FeedthroughEdges {
    /// The graph of `nodes` over `units` (whose `feedthrough` is filled).
    pub(super) fn new(units: &[Unit], nodes: &[Node]) -> Self {
        let mut node_of: Vec<Vec<Option<usize>>> = units.iter().map(|u| vec![None; u.y.len()]).collect();
        for (p, n) in nodes.iter().enumerate() {
            node_of[n.unit][n.output] = Some(p);
        }
        let by_input: Vec<Vec<Vec<usize>>> = units
            .iter()
            .map(|u| {
                let mut b = vec![Vec::new(); u.u.len()];
                for (k, deps) in u.feedthrough.iter().enumerate() {
                    for &j in deps {
                        b[j].push(k);
                    }
                }
                b
            })
            .collect();
        let mut edges = vec![Vec::new(); nodes.len()];
        for (p, node) in nodes.iter().enumerate() {
            for &(v, j) in &node.targets {
                for &k in &by_input[v][j] {
                    if let Some(q) = node_of[v][k] {
                        edges[p].push(q);
                    }
                }
            }
        }
        FeedthroughEdges { node_of, by_input, edges }
    }

    /// The loop of component `comp`: the inputs its members drive within it, its units, its
    /// Newton buffers and its members' names.
    pub(super) fn loop_of(&self, comp: &Component, units: &[Unit], nodes: &[Node]) -> Loop {
        let local = |q: usize| comp.nodes.iter().position(|&p| p == q);
        let mut inputs = Vec::new();
        for (source, &p) in comp.nodes.iter().enumerate() {
            for &(v, j) in &nodes[p].targets {
                let rows: Vec<(usize, usize)> = self.by_input[v][j]
                    .iter()
                    .filter_map(|&k| self.node_of[v][k].and_then(local).map(|i| (i, k)))
                    .collect();
                if !rows.is_empty() {
                    inputs.push(LoopInput { unit: v, input: j, source, rows });
                }
            }
        }
        let mut loop_units: Vec<usize> = comp.nodes.iter().map(|&p| nodes[p].unit).collect();
        loop_units.sort_unstable();
        loop_units.dedup();
        let members = comp
            .nodes
            .iter()
            .map(|&p| units[nodes[p].unit].y_names[nodes[p].output].clone())
            .collect::<Vec<_>>()
            .join(", ");
        Loop {
            nodes: comp.nodes.clone(),
            inputs,
            units: loop_units,
            newton: LoopBuffers::new(comp.nodes.len()),
            warm: false,
            members,
        }
    }
}

/// The level of each component in topological order: every edge goes to the same or a later
/// component, and a component is one level after the latest one it depends on.
pub(super) fn levels_of(components: &[Component], edges: &[Vec<usize>], n_nodes: usize) -> Vec<usize> {
    let mut component_of = vec![0; n_nodes];
    for (c, comp) in components.iter().enumerate() {
        for &p in &comp.nodes {
            component_of[p] = c;
        }
    }
    let mut level_of = vec![0usize; components.len()];
    for (c, comp) in components.iter().enumerate() {
        for &p in &comp.nodes {
            for &q in &edges[p] {
                let d = component_of[q];
                if d != c {
                    level_of[d] = level_of[d].max(level_of[c] + 1);
                }
            }
        }
    }
    level_of
}
