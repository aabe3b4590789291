//! The coupled system linearised about the master's current operating point, with the algebraic
//! loop eliminated exactly.
//!
//! Each instance is a Model Exchange instance ([`super::Master::new_model_exchange`]), so its
//! states are visible: `x_i' = A_i x_i + B_i u_i`, `y_i = C_i x_i + D_i u_i` (deviations), every
//! column an exact directional derivative at the operating point. The connections say
//! `u = M y + E w` (`w` the external inputs), so `y = C x + D (M y + E w)` and, where `I - D M` is
//! regular (an index-1 coupling),
//!
//! ```text
//! y = (I - D M)^-1 (C x + D E w)
//! x' = (A + B M Yx) x + B (M Yw + E) w,   Yx = (I - D M)^-1 C,  Yw = (I - D M)^-1 D E
//! ```
//!
//! with `A, B, C, D` block-diagonal over the instances. The same LU that solves the master's
//! loops ([`super::linalg`]) solves `I - D M`. Integer and Boolean connections are held at
//! their operating-point values.

use super::ids::{InputRef, UnitId};
use super::{Master, MasterError, Recorded, linalg};
use crate::import::Instance;
use crate::import::ModelDescription;
use crate::linear::LinearModel;

/// One instance's Jacobian blocks: rows `[der(x); y]`, columns `[x, u]`, row-major.
struct Blocks {
    n_x: usize,
    n_u: usize,
    n_y: usize,
    jacobian: Vec<f64>,
}

impl Blocks {
    /// Entry (row, column) of `[[A, B], [C, D]]`.
    fn at(&self, row: usize, column: usize) -> f64 {
        self.jacobian[row * (self.n_x + self.n_u) + column]
    }
}

/// Global numbering of the states, driven inputs and read outputs: where each instance's
/// start (instance after instance), and how many there are in all.
struct Layout {
    x_off: Vec<usize>,
    u_off: Vec<usize>,
    y_off: Vec<usize>,
    n_x: usize,
    n_u: usize,
    n_y: usize,
}

impl Layout {
    /// The numbering of the instances' `blocks`, in instance order.
    fn new(blocks: &[Blocks]) -> Layout {
        let offsets = |count: fn(&Blocks) -> usize| -> Vec<usize> {
            blocks
                .iter()
                .scan(0, |sum, b| {
                    let at = *sum;
                    *sum += count(b);
                    Some(at)
                })
                .collect()
        };
        let total = |count: fn(&Blocks) -> usize| blocks.iter().map(count).sum::<usize>();
        Layout {
            x_off: offsets(|b| b.n_x),
            u_off: offsets(|b| b.n_u),
            y_off: offsets(|b| b.n_y),
            n_x: total(|b| b.n_x),
            n_u: total(|b| b.n_u),
            n_y: total(|b| b.n_y),
        }
    }

    /// The global number of a driven input.
    fn input(&self, input: InputRef) -> usize {
        self.u_off[input.unit] + input.input.0
    }
}

/// The connections `u = M y + E w`, per global input: the global output connected to it (its
/// one in `M`) and the selected external input driving it (its one in `E`).
struct Connections {
    source_of_input: Vec<Option<usize>>,
    external_of_input: Vec<Option<usize>>,
}

/// The coupling with the algebraic loop eliminated: outputs and inputs as derivatives with
/// respect to the columns `[x, w]` (states, then selected external inputs).
struct Eliminated {
    /// `Y = (I - D M)^-1 [C, D E]`, `n_y x width`, row-major.
    y_of: Vec<f64>,
    connections: Connections,
    /// Number of states: the first `n_x` columns are states, the others external inputs.
    n_x: usize,
    /// `n_x + n_w`.
    width: usize,
}

impl Eliminated {
    /// Entry (global output `row`, column `c`) of `Y = dy/d[x, w]`.
    fn output(&self, row: usize, c: usize) -> f64 {
        self.y_of[row * self.width + c]
    }

    /// Entry (global input `g`, column `c`) of `du/d[x, w] = M Y + [0, E]`.
    fn input(&self, g: usize, c: usize) -> f64 {
        let from_output = self.connections.source_of_input[g].map_or(0.0, |source| self.output(source, c));
        let from_external = match self.connections.external_of_input[g] {
            Some(w) if c == self.n_x + w => 1.0,
            _ => 0.0,
        };
        from_output + from_external
    }
}

impl Master {
    /// The linear model about the current point (after [`Master::initialize`], which solves the
    /// coupling): states of every instance, the external inputs named in `inputs` (all the
    /// system's `inputs` when empty), and the recorded Real outputs.
    pub fn linearize(&mut self, inputs: &[String]) -> Result<LinearModel, MasterError> {
        self.linearize_skipping(inputs, &[])
    }

    /// [`Master::linearize`] without the columns of the states `inert` (indices in its state
    /// order, ascending, as [`LinearModel::inert_states`] of an earlier linearisation names
    /// them): their columns of `A` and `C` are left zero, one directional derivative fewer each.
    /// The other columns are unchanged, so [`LinearModel::without_states`] of `inert` gives the
    /// same model as after a full linearisation wherever those states are inert. For the many
    /// linearisations of a Floquet analysis, whose instances may declare far more states than
    /// they use (RotorElastic: 8 blades of 16 elements).
    pub fn linearize_skipping(&mut self, inputs: &[String], inert: &[usize]) -> Result<LinearModel, MasterError> {
        let (external_names, selected) = self.selected_inputs(inputs)?;
        // Per instance: the operating point and the exact Jacobian blocks.
        let (mut x0, mut dx0) = (Vec::new(), Vec::new());
        let mut blocks = Vec::with_capacity(self.units.len());
        for u in (0..self.units.len()).map(UnitId) {
            blocks.push(self.instance_blocks(u, &mut x0, &mut dx0, inert)?);
        }
        let layout = Layout::new(&blocks);
        let connections = self.connections(&layout, &selected);
        let eliminated = self.eliminate_loop(&blocks, &layout, connections, selected.len())?;
        let mut model = LinearModel::new(
            self.state_names(),
            selected.iter().map(|&e| external_names[e].clone()).collect(),
            self.recorded_real_names(),
            self.time,
        );
        state_rows(&mut model, &blocks, &layout, &eliminated);
        self.output_rows(&mut model, &layout, &eliminated);
        model.x0 = x0;
        model.dx0 = dx0;
        model.u0 = selected
            .iter()
            .map(|&e| {
                let to = self.plan.externals[e];
                self.units[to.unit].in_values[to.input]
            })
            .collect();
        let mut y0 = vec![0.0; model.output_names.len()];
        self.record_real(&mut y0)?;
        model.y0 = y0;
        Ok(model)
    }

    /// The names of the system's external inputs (`instance.variable`) and the positions among
    /// them of those named in `inputs` (all when empty).
    fn selected_inputs(&self, inputs: &[String]) -> Result<(Vec<String>, Vec<usize>), MasterError> {
        let external_names: Vec<String> = self.plan.externals.iter().map(|&to| self.input_name(to)).collect();
        let selected: Vec<usize> = if inputs.is_empty() {
            (0..external_names.len()).collect()
        } else {
            inputs
                .iter()
                .map(|name| {
                    external_names.iter().position(|e| e == name).ok_or_else(|| {
                        MasterError::Unsupported(format!(
                            "linearize: '{name}' is not an input the system drives from its 'inputs' (those are: {})",
                            external_names.join(", ")
                        ))
                    })
                })
                .collect::<Result<_, _>>()?
        };
        Ok((external_names, selected))
    }

    /// `instance.state` of every continuous state, in instance and model-description order.
    fn state_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        for instance in &self.system.instances {
            let md = &instance.description;
            names.extend(
                md.continuous_states.iter().map(|s| format!("{}.{}", instance.name, md.variables[s.state].name)),
            );
        }
        names
    }

    /// Unit `u`'s Jacobian blocks at the operating point, exact where its Model Exchange
    /// interface provides directional derivatives, else by central differences
    /// ([`differenced_jacobian`]); appends its states to `x0` and their derivatives to `dx0`.
    /// The columns of the states `inert` (global state indices, ascending) are left zero where
    /// the derivatives are exact.
    fn instance_blocks(
        &mut self,
        u: UnitId,
        x0: &mut Vec<f64>,
        dx0: &mut Vec<f64>,
        inert: &[usize],
    ) -> Result<Blocks, MasterError> {
        let md = &self.system.instances[u].description;
        let state_vrs: Vec<u32> = md.continuous_states.iter().map(|s| md.variables[s.state].value_reference).collect();
        let derivative_vrs: Vec<u32> =
            md.continuous_states.iter().map(|s| md.variables[s.derivative].value_reference).collect();
        let exact = md.model_exchange.as_ref().is_some_and(|me| me.provides_directional_derivative == Some(true));
        let unit = &mut self.units[u];
        unit.flush()?;
        let n_x = state_vrs.len();
        let (mut x, mut dx) = (vec![0.0; n_x], vec![0.0; n_x]);
        if n_x > 0 {
            unit.slave.get_continuous_states(&mut x)?;
            unit.slave.get_derivatives(&mut dx)?;
        }
        let plan = &unit.plan;
        let unknowns: Vec<u32> = derivative_vrs.iter().chain(&plan.out_vrs).copied().collect();
        let knowns: Vec<u32> = state_vrs.iter().chain(&plan.in_vrs).copied().collect();
        let (n_u, n_y) = (plan.in_vrs.len(), plan.out_vrs.len());
        let jacobian = if exact {
            // This instance's states start at global index x0.len().
            let skipped: Vec<usize> =
                inert.iter().filter_map(|&i| i.checked_sub(x0.len())).filter(|&i| i < n_x).collect();
            directional_jacobian(&mut unit.slave, &unknowns, &knowns, &skipped)?
        } else {
            differenced_jacobian(&mut unit.slave, &x, &plan.in_vrs, &plan.out_vrs)?
        };
        x0.extend(x);
        dx0.extend(dx);
        Ok(Blocks { n_x, n_u, n_y, jacobian })
    }

    /// The connections `u = M y + E w` in the global numbering of `layout`; `w` are the external
    /// inputs at positions `selected`.
    fn connections(&self, layout: &Layout, selected: &[usize]) -> Connections {
        let mut source_of_input: Vec<Option<usize>> = vec![None; layout.n_u];
        for node in &self.plan.nodes {
            for target in &node.targets {
                source_of_input[layout.input(*target)] = Some(layout.y_off[node.source.unit] + node.source.output.0);
            }
        }
        let mut external_of_input: Vec<Option<usize>> = vec![None; layout.n_u];
        for (w, &e) in selected.iter().enumerate() {
            external_of_input[layout.input(self.plan.externals[e])] = Some(w);
        }
        Connections { source_of_input, external_of_input }
    }

    /// Eliminates the algebraic loop: `Y = (I - D M)^-1 [C, D E]` for `n_w` external inputs; an
    /// error where `I - D M` is singular (the coupling is not index 1).
    fn eliminate_loop(
        &self,
        blocks: &[Blocks],
        layout: &Layout,
        connections: Connections,
        n_w: usize,
    ) -> Result<Eliminated, MasterError> {
        let (n_x, n_y) = (layout.n_x, layout.n_y);
        let width = n_x + n_w;
        let (mut k, rhs) = loop_matrices(blocks, layout, &connections, width);
        let mut pivots = vec![0; n_y];
        linalg::factor(n_y, &mut k, &mut pivots).map_err(|_| {
            MasterError::Unsupported(format!(
                "linearize: the coupling I - D M is singular at t = {} s: the algebraic loop is not index 1 here",
                self.time
            ))
        })?;
        let y_of = solve_columns(n_y, &k, &pivots, &rhs, width);
        Ok(Eliminated { y_of, connections, n_x, width })
    }

    /// Fills `C` and `D`: recorded outputs are rows of `Y`, recorded driven inputs rows of
    /// `du/d[x, w]`; discrete recorded values have no row.
    fn output_rows(&self, model: &mut LinearModel, layout: &Layout, eliminated: &Eliminated) {
        let (n_x, width) = (eliminated.n_x, eliminated.width);
        let mut row = 0;
        for r in &self.plan.recorded {
            let value = |c: usize| match *r {
                Recorded::Output(y) => Some(eliminated.output(layout.y_off[y.unit] + y.output.0, c)),
                Recorded::Input(u) => Some(eliminated.input(layout.input(u), c)),
                Recorded::Discrete(_) => None,
            };
            if value(0).is_none() && width > 0 {
                continue;
            }
            for c in 0..width {
                let v = value(c).unwrap_or(0.0);
                if c < n_x {
                    model.c[(row, c)] = v;
                } else {
                    model.d[(row, c - n_x)] = v;
                }
            }
            row += 1;
        }
    }

    /// The continuous states of every instance, in [`Master::linearize`]'s order, read with
    /// `fmi2GetReal` of their state variables: works for Co-Simulation instances of FMUs that
    /// declare their states as variables (ours, and Model Exchange-capable FMUs that allow it).
    pub fn read_states(&mut self) -> Result<Vec<f64>, MasterError> {
        let mut x = Vec::new();
        for u in (0..self.units.len()).map(UnitId) {
            let md = &self.system.instances[u].description;
            let vrs: Vec<u32> = md.continuous_states.iter().map(|s| md.variables[s.state].value_reference).collect();
            let mut values = vec![0.0; vrs.len()];
            if !vrs.is_empty() {
                self.units[u].slave.get_real(&vrs, &mut values)?;
            }
            x.extend(values);
        }
        Ok(x)
    }

    /// Model Exchange: moves every instance to time `t` and the states `x` (ordered as
    /// [`Master::read_states`]) and solves the coupling there, for a linearisation along a
    /// trajectory.
    pub fn set_states(&mut self, t: f64, x: &[f64]) -> Result<(), MasterError> {
        let mut at = 0;
        for u in (0..self.units.len()).map(UnitId) {
            let n = self.system.instances[u].description.continuous_states.len();
            let values = x
                .get(at..at + n)
                .ok_or_else(|| MasterError::Unsupported(format!("set_states: {} values for more states", x.len())))?;
            let unit = &mut self.units[u];
            unit.slave.set_time(t)?;
            if n > 0 {
                unit.slave.set_continuous_states(values)?;
            }
            unit.outputs_changed();
            at += n;
        }
        self.time = t;
        self.resolve_coupling()
    }

    /// The instances' names and model descriptions, in instance order: what an application
    /// looks for in [`Master::real_values`] at the operating point.
    pub fn instance_descriptions(&self) -> impl Iterator<Item = (&str, &ModelDescription)> {
        self.plan
            .units
            .iter()
            .zip(&self.system.instances)
            .map(|(unit, instance)| (unit.name.as_str(), &instance.description))
    }

    /// The current values of the Real variables `names` of instance `instance`.
    pub fn real_values(&mut self, instance: &str, names: &[String]) -> Result<Vec<f64>, MasterError> {
        let unknown = |what: String| MasterError::Unsupported(format!("real_values: {what}"));
        let u = self
            .plan
            .units
            .iter()
            .position(|unit| unit.name == instance)
            .ok_or_else(|| unknown(format!("no instance '{instance}'")))?;
        let md = &self.system.instances[u].description;
        let vrs = names
            .iter()
            .map(|name| {
                md.variable(name)
                    .map(|v| v.value_reference)
                    .ok_or_else(|| unknown(format!("no variable '{instance}.{name}'")))
            })
            .collect::<Result<Vec<u32>, _>>()?;
        let mut values = vec![0.0; vrs.len()];
        self.units[u].slave.get_real(&vrs, &mut values)?;
        Ok(values)
    }

    /// `instance.variable` of a driven input.
    fn input_name(&self, input: InputRef) -> String {
        let u = input.unit;
        let md = &self.system.instances[u].description;
        let vr = self.plan.units[u].in_vrs[input.input];
        let name = md
            .variables
            .iter()
            .find(|v| v.value_reference == vr && v.is_input())
            .map_or_else(|| format!("vr {vr}"), |v| v.name.clone());
        format!("{}.{name}", self.plan.units[u].name)
    }

    /// Names of the recorded Real values (outputs and driven inputs), in recording order.
    fn recorded_real_names(&self) -> Vec<String> {
        self.plan
            .recorded
            .iter()
            .zip(&self.plan.recorded_names)
            .filter(|(r, _)| !matches!(r, Recorded::Discrete(_)))
            .map(|(_, n)| n.clone())
            .collect()
    }

    /// The recorded Real values at the current point, in [`Master::recorded_real_names`] order.
    fn record_real(&mut self, out: &mut [f64]) -> Result<(), MasterError> {
        let mut row = vec![0.0; self.plan.recorded.len()];
        self.record(&mut row)?;
        let reals = self.plan.recorded.iter().zip(row).filter(|(r, _)| !matches!(r, Recorded::Discrete(_)));
        for (o, (_, v)) in out.iter_mut().zip(reals) {
            *o = v;
        }
        Ok(())
    }
}

/// The Jacobian `d unknowns / d knowns` of `slave` at its current point, row-major (a row per
/// unknown), one directional derivative per known except the `skipped` ones (positions among
/// `knowns`, ascending), whose columns are left zero.
fn directional_jacobian(
    slave: &mut Instance,
    unknowns: &[u32],
    knowns: &[u32],
    skipped: &[usize],
) -> Result<Vec<f64>, MasterError> {
    let width = knowns.len();
    let mut jacobian = vec![0.0; unknowns.len() * width];
    let mut column = vec![0.0; unknowns.len()];
    if !unknowns.is_empty() {
        for (c, &known) in knowns.iter().enumerate() {
            if skipped.binary_search(&c).is_ok() {
                continue;
            }
            slave.get_directional_derivative(unknowns, &[known], &[1.0], &mut column)?;
            for (r, &v) in column.iter().enumerate() {
                jacobian[r * width + c] = v;
            }
        }
    }
    Ok(jacobian)
}

/// Relative step of [`differenced_jacobian`]'s central differences: truncation error about
/// `h^2` times the third derivative, round-off about `eps / h`; measured against the exact
/// directional derivatives in docs/linearization.md.
const DIFFERENCE_STEP: f64 = 1e-5;

/// The Jacobian `d[der(x); y] / d[x; u]` of the Model Exchange `slave` at its current point
/// (states `x0`, its inputs `in_vrs` as set), row-major, by central differences of
/// `fmi2GetDerivatives` and `fmi2GetReal` of `out_vrs`: each state moved by
/// `fmi2SetContinuousStates`, each input by `fmi2SetReal`, by `DIFFERENCE_STEP max(|v|, 1)` either
/// way, then set back. For FMUs without `providesDirectionalDerivative`.
fn differenced_jacobian(
    slave: &mut Instance,
    x0: &[f64],
    in_vrs: &[u32],
    out_vrs: &[u32],
) -> Result<Vec<f64>, MasterError> {
    let (n_x, n_u) = (x0.len(), in_vrs.len());
    let (width, rows) = (n_x + n_u, n_x + out_vrs.len());
    let mut u0 = vec![0.0; n_u];
    if n_u > 0 {
        slave.get_real(in_vrs, &mut u0)?;
    }
    let mut x = x0.to_vec();
    let mut jacobian = vec![0.0; rows * width];
    let (mut plus, mut minus) = (vec![0.0; rows], vec![0.0; rows]);
    for c in 0..width {
        let v0 = if c < n_x { x0[c] } else { u0[c - n_x] };
        let h = DIFFERENCE_STEP * v0.abs().max(1.0);
        set_known(slave, &mut x, in_vrs, c, v0 + h)?;
        evaluate(slave, n_x, out_vrs, &mut plus)?;
        set_known(slave, &mut x, in_vrs, c, v0 - h)?;
        evaluate(slave, n_x, out_vrs, &mut minus)?;
        set_known(slave, &mut x, in_vrs, c, v0)?;
        for r in 0..rows {
            jacobian[r * width + c] = (plus[r] - minus[r]) / (2.0 * h);
        }
    }
    Ok(jacobian)
}

/// Sets known `c` of `[x; u]` to `value`: a state through `x` (the current states), an input
/// by `fmi2SetReal`.
fn set_known(slave: &mut Instance, x: &mut [f64], in_vrs: &[u32], c: usize, value: f64) -> Result<(), MasterError> {
    if c < x.len() {
        x[c] = value;
        slave.set_continuous_states(x)?;
    } else {
        slave.set_real(&[in_vrs[c - x.len()]], &[value])?;
    }
    Ok(())
}

/// `[der(x); y]` of `slave` at its current states and inputs into `out`.
fn evaluate(slave: &mut Instance, n_x: usize, out_vrs: &[u32], out: &mut [f64]) -> Result<(), MasterError> {
    let (dx, y) = out.split_at_mut(n_x);
    if n_x > 0 {
        slave.get_derivatives(dx)?;
    }
    if !out_vrs.is_empty() {
        slave.get_real(out_vrs, y)?;
    }
    Ok(())
}

/// `K = I - D M` (`n_y x n_y`) and the right-hand sides `[C, D E]` (`n_y x width`), row-major,
/// from the instances' blocks and the connections.
fn loop_matrices(blocks: &[Blocks], layout: &Layout, connections: &Connections, width: usize) -> (Vec<f64>, Vec<f64>) {
    let (n_x, n_y) = (layout.n_x, layout.n_y);
    let (x_off, u_off, y_off) = (&layout.x_off, &layout.u_off, &layout.y_off);
    let mut k = vec![0.0; n_y * n_y];
    let mut rhs = vec![0.0; n_y * width];
    for (i, b) in blocks.iter().enumerate() {
        for r in 0..b.n_y {
            let row = y_off[i] + r;
            k[row * n_y + row] += 1.0;
            for s in 0..b.n_x {
                rhs[row * width + x_off[i] + s] = b.at(b.n_x + r, s);
            }
            for j in 0..b.n_u {
                let d = b.at(b.n_x + r, b.n_x + j);
                if let Some(source) = connections.source_of_input[u_off[i] + j] {
                    k[row * n_y + source] -= d;
                }
                if let Some(w) = connections.external_of_input[u_off[i] + j] {
                    rhs[row * width + n_x + w] += d;
                }
            }
        }
    }
    (k, rhs)
}

/// `K^-1 rhs`, column by column, with `K` (`n` x `n`) factorised by [`linalg::factor`] and
/// `rhs` `n x width`, row-major.
fn solve_columns(n: usize, k: &[f64], pivots: &[usize], rhs: &[f64], width: usize) -> Vec<f64> {
    let mut solution = vec![0.0; n * width];
    let mut column = vec![0.0; n];
    for c in 0..width {
        for r in 0..n {
            column[r] = rhs[r * width + c];
        }
        linalg::solve_factored(n, k, pivots, &mut column);
        for r in 0..n {
            solution[r * width + c] = column[r];
        }
    }
    solution
}

/// Fills `A` and `B`: `A = A_i + B_i du/dx`, `B = B_i du/dw`, `A_i` and `B_i` the instances'
/// blocks on the diagonal.
fn state_rows(model: &mut LinearModel, blocks: &[Blocks], layout: &Layout, eliminated: &Eliminated) {
    let (n_x, width) = (eliminated.n_x, eliminated.width);
    for (i, b) in blocks.iter().enumerate() {
        for r in 0..b.n_x {
            let row = layout.x_off[i] + r;
            for s in 0..b.n_x {
                model.a[(row, layout.x_off[i] + s)] += b.at(r, s);
            }
            for j in 0..b.n_u {
                let bij = b.at(r, b.n_x + j);
                if bij == 0.0 {
                    continue;
                }
                for c in 0..width {
                    let du = eliminated.input(layout.u_off[i] + j, c);
                    if c < n_x {
                        model.a[(row, c)] += bij * du;
                    } else {
                        model.b[(row, c - n_x)] += bij * du;
                    }
                }
            }
        }
    }
}
