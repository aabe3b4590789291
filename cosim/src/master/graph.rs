//! The feedthrough graph of a coupled system and its algebraic loops.
//!
//! Nodes are the connected outputs. There is an edge `p -> q` when output `p` is connected to an
//! input of the FMU that owns output `q`, and `q` depends directly on that input
//! (`ModelStructure/Outputs` dependencies). The strongly connected components of this graph are
//! the algebraic loops; in topological order of the condensed graph, every component's inputs are
//! known once the components before it are solved.

/// A strongly connected component: node indices, and whether it is an algebraic loop (more than
/// one node, or a node that feeds back into itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// Node indices, ascending.
    pub nodes: Vec<usize>,
    /// True for an algebraic loop.
    pub is_loop: bool,
}

/// Strongly connected components of the directed graph with `n` nodes and adjacency lists
/// `edges[p]` (successors of `p`), in topological order: every edge between two different
/// components goes from an earlier to a later one. Tarjan's algorithm, iterative.
pub fn components_in_order(n: usize, edges: &[Vec<usize>]) -> Vec<Component> {
    const UNVISITED: usize = usize::MAX;
    let mut index = vec![UNVISITED; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut out = Vec::new();
    // Explicit call stack of (node, next edge position).
    let mut calls: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != UNVISITED {
            continue;
        }
        calls.push((root, 0));
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = calls.last_mut() {
            if let Some(&w) = edges[v].get(*pos) {
                *pos += 1;
                if index[w] == UNVISITED {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut nodes = Vec::new();
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    on_stack[w] = false;
                    nodes.push(w);
                    if w == v {
                        break;
                    }
                }
                nodes.sort_unstable();
                let is_loop = nodes.len() > 1 || edges[v].contains(&v);
                out.push(Component { nodes, is_loop });
            }
        }
    }
    // Tarjan emits components in reverse topological order.
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks the topological property directly on the edges.
    fn assert_topological(edges: &[Vec<usize>], comps: &[Component]) {
        let mut position = vec![0; edges.len()];
        for (c, comp) in comps.iter().enumerate() {
            for &v in &comp.nodes {
                position[v] = c;
            }
        }
        for (p, succ) in edges.iter().enumerate() {
            for &q in succ {
                assert!(position[p] <= position[q], "edge {p}->{q} goes backwards");
            }
        }
    }

    #[test]
    fn chain_is_acyclic_in_order() {
        let edges = vec![vec![1], vec![2], vec![]];
        let comps = components_in_order(3, &edges);
        let nodes: Vec<_> = comps.iter().map(|c| c.nodes.clone()).collect();
        assert_eq!(nodes, vec![vec![0], vec![1], vec![2]]);
        assert!(comps.iter().all(|c| !c.is_loop));
    }

    #[test]
    fn self_loop_and_two_loops() {
        // 0 <-> 1 loop feeding 2 (self loop), which feeds the loop 3 -> 4 -> 5 -> 3.
        let edges = vec![vec![1], vec![0, 2], vec![2, 3], vec![4], vec![5], vec![3]];
        let comps = components_in_order(6, &edges);
        assert_eq!(comps.len(), 3);
        assert_eq!(comps[0], Component { nodes: vec![0, 1], is_loop: true });
        assert_eq!(comps[1], Component { nodes: vec![2], is_loop: true });
        assert_eq!(comps[2], Component { nodes: vec![3, 4, 5], is_loop: true });
        assert_topological(&edges, &comps);
    }

    #[test]
    fn large_random_dag_is_ordered() {
        // A pseudo-random DAG on 500 nodes (edges only to higher indices), relabelled.
        let n = 500;
        let perm: Vec<usize> = (0..n).map(|i| (i * 7919) % n).collect();
        let mut edges = vec![Vec::new(); n];
        let mut seed = 12345u64;
        for i in 0..n {
            for _ in 0..3 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let j = i + 1 + (seed >> 33) as usize % (n - i).max(1);
                if j < n {
                    edges[perm[i]].push(perm[j]);
                }
            }
        }
        let comps = components_in_order(n, &edges);
        assert_eq!(comps.len(), n);
        assert!(comps.iter().all(|c| !c.is_loop));
        assert_topological(&edges, &comps);
    }
}
