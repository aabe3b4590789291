//! The RotorElastic FMU: the [`Model`] impl of [`RotorElastic`].

use fmu_core::declare::Tables;
use fmu_core::model::{InputPath, Model, ModelInfo, Parameters, Scalar, StateVariable};
use fmu_core::params::ParameterError;
use fmu_core::vec3::{M3, V3, add, cross, dot, lift3, mat_t_vec, mat_vec, scale_f, zero, zero3};
use fmu_rotor::beam::blade_dynamics::{ClampLoad, FrameMotion, PER_NODE};

#[cfg(test)]
mod clamp_tests;
mod implicit;
mod structure;

pub use implicit::Stepping;

use crate::RotorElastic;
use crate::hinge::{self, HingedFrame, Hinges};
use crate::kinematics::{HubInputs, PitchFrame, chord, column, flap_lag, pitch_frame};
use crate::layout::{MAX_BLADES, MAX_ELEMENTS, u, y};

/// Declared states per blade: coordinates then rates of [`MAX_ELEMENTS`] nodes.
const DECLARED_PER_BLADE: usize = 2 * PER_NODE * MAX_ELEMENTS;

/// The evaluation memory of one scalar type.
#[derive(Debug)]
pub struct Work<D> {
    /// The beam's internal loads.
    nodes: Vec<V3<D>>,
    /// External nodal forces (pitch-frame axes).
    forces: Vec<V3<D>>,
    /// External nodal moments (pitch-frame axes).
    moments: Vec<V3<D>>,
    /// A scratch state derivative of one blade (outputs do not keep it).
    dx: Vec<D>,
    /// The implicit integrator's memory (`integrator = 1`).
    implicit: implicit::Memory,
}

/// How [`RotorElastic::outputs_by`] finds the hub load.
#[derive(Clone, Copy, Debug, PartialEq)]
enum HubLoad {
    /// By the clamp load alone on the hingeless hub ([`RotorElastic::clamp_pass`]); by the full
    /// blade pass with hinges, which the hinge accelerations need.
    ClampOnly,
    /// By the full blade pass ([`RotorElastic::blade_pass`]) on every hub (the test oracle).
    #[cfg_attr(not(test), allow(dead_code))]
    FullPass,
}

/// Where one blade is evaluated: time `t` (s), blade `b` (0-based), its state `x`, with hinges
/// its hinge state `hinge` ([`RotorElastic::hinge_state`]), the rotor's inputs `us`.
#[derive(Clone, Copy)]
struct BladeAt<'a, D> {
    t: D,
    b: usize,
    x: &'a [D],
    hinge: Option<[D; 4]>,
    us: &'a [D],
}

/// A blade's frame before its evaluation: [`RotorElastic::blade_frame`].
struct BladeFrame<D> {
    frame: PitchFrame<D>,
    /// The pitch frame's motion in its own axes.
    motion: FrameMotion<D>,
    /// As [`BladePass::chord`].
    chord: (M3<D>, V3<D>, V3<D>),
    /// With hinges: the hinged frame.
    hinged: Option<HingedFrame<D>>,
}

/// What one blade's evaluation gives beyond its state derivative.
struct BladePass<D> {
    clamp: ClampLoad<D>,
    frame: PitchFrame<D>,
    /// The equivalent rigid blade's axes in the pitch frame, and its chord and chord rate.
    chord: (M3<D>, V3<D>, V3<D>),
    /// With hinges (`hub_type = 1`): the hinge point and the hinge accelerations `[zeta'', beta'']`.
    hinged: Option<(HingedFrame<D>, [D; 2])>,
}

impl RotorElastic {
    /// Azimuth of blade `b` (0-based) at time `t`.
    fn blade_azimuth<D: Scalar>(&self, t: D, b: usize) -> D {
        t * self.omega + self.psi0 + std::f64::consts::TAU * b as f64 / self.nb as f64
    }

    /// Blade `b`'s pitch, rate and acceleration: its inputs plus its pitch offset.
    fn pitch_of<D: Scalar>(&self, us: &[D], b: usize) -> [D; 3] {
        let base = u::blade(b);
        let (pitch, offset) = (us[base + u::PITCH], self.pitch_offset[b]);
        [if offset == 0.0 { pitch } else { pitch + offset }, us[base + u::PITCH_RATE], us[base + u::PITCH_ACC]]
    }

    /// Blade `b`'s hinge state `[zeta, beta, zeta', beta']` in the rotor's state `x` (hinged hub).
    fn hinge_state<D: Scalar>(&self, x: &[D], b: usize) -> Option<[D; 4]> {
        let at = self.nb * self.blade.n_states() + hinge::PER_BLADE * b;
        self.hinges.as_ref().map(|_| [x[at], x[at + 1], x[at + 2], x[at + 3]])
    }

    /// Blade `b`'s pitch frame, the frame's motion and its chord, with its external nodal loads
    /// into `work.forces` and `work.moments` (pitch-frame axes); with hinges (state `hinge`) the
    /// frame is the hinged one.
    fn blade_frame<D: Scalar>(&self, work: &mut Work<D>, at: BladeAt<D>) -> BladeFrame<D> {
        let BladeAt { t, b, x, hinge, us } = at;
        let view = u::View(us);
        let base = u::blade(b);
        let pitch = self.pitch_of(us, b);
        let hub = HubInputs { omega: view.hub_omega(), alpha: view.hub_alpha() };
        let psi = self.blade_azimuth(t, b);
        let (frame, hinged) = match (&self.hinges, hinge) {
            (Some(h), Some(q)) => {
                let (frame, hinged) = h.frame(&self.hub_axes, self.omega, psi, pitch, &hub, view.hub_acc(), q);
                (frame, Some(hinged))
            }
            _ => (pitch_frame(&self.hub_axes, self.omega, psi, pitch, &hub), None),
        };
        let to_pitch = |v: V3<D>| mat_t_vec(&frame.rotation, v);
        let motion = FrameMotion {
            specific_force: to_pitch(hinged.as_ref().map_or(view.hub_acc(), |h| h.specific_force)),
            omega: to_pitch(frame.omega),
            alpha: to_pitch(frame.alpha),
        };
        let blade = self.blade_of(b);
        let tip = blade.beam.n_nodes() - 1;
        let (root, _) = blade.node_pose(x, 0);
        let (tip_position, _) = blade.node_pose(x, tip);
        let (tip_velocity, _) = blade.node_rates(x, tip);
        let chord = chord(root, tip_position, tip_velocity);
        let vector = |at: usize| [us[at], us[at + 1], us[at + 2]];
        let (force, moment) = (vector(base + u::FORCE), vector(base + u::MOMENT));
        if self.stations.active() {
            self.stations.nodal_loads(&frame.rotation, us, b, &mut work.forces, &mut work.moments);
        } else {
            self.spreading.spread(force, moment, &mut work.forces, &mut work.moments);
            for k in 0..=tip {
                work.forces[k] = mat_vec(&chord.0, work.forces[k]);
                work.moments[k] = mat_vec(&chord.0, work.moments[k]);
            }
        }
        BladeFrame { frame, motion, chord, hinged }
    }

    /// Blade `b`'s state derivative into `dx` and its clamp load, pitch frame and chord; with
    /// hinges (state `hinge`) also its hinge accelerations.
    #[allow(clippy::too_many_arguments)]
    fn blade_pass<D: Scalar>(
        &self,
        work: &mut Work<D>,
        t: D,
        b: usize,
        x: &[D],
        hinge: Option<[D; 4]>,
        us: &[D],
        dx: &mut [D],
    ) -> BladePass<D> {
        let BladeFrame { frame, motion, chord, hinged } = self.blade_frame(work, BladeAt { t, b, x, hinge, us });
        let blade = self.blade_of(b);
        let mut clamp = blade.derivatives(&motion, x, (&work.forces, &work.moments), &mut work.nodes, dx);
        let hinged = match (&self.hinges, hinged, hinge) {
            (Some(h), Some(hinged), Some(q)) => {
                let accelerations = h.close(blade, (&frame, &hinged), b, q, x, &mut clamp, dx);
                Some((hinged, accelerations))
            }
            _ => None,
        };
        BladePass { clamp, frame, chord, hinged }
    }

    /// Blade `b`'s clamp load, pitch frame and chord on the hingeless hub, without its state
    /// derivative: [`BladeDynamics::clamp_load`](fmu_rotor::beam::blade_dynamics::BladeDynamics::clamp_load),
    /// the clamp load [`RotorElastic::blade_pass`] gives, to round-off, at a fraction of its cost.
    fn clamp_pass<D: Scalar>(&self, work: &mut Work<D>, at: BladeAt<D>) -> BladePass<D> {
        let BladeFrame { frame, motion, chord, .. } = self.blade_frame(work, at);
        let clamp = self.blade_of(at.b).clamp_load(&motion, at.x, (work.forces[0], work.moments[0]));
        BladePass { clamp, frame, chord, hinged: None }
    }

    /// The outputs of blade `b` from its pass.
    fn blade_outputs<D: Scalar>(&self, pass: &BladePass<D>, t: D, b: usize, x: &[D], us: &[D], ys: &mut [D]) {
        let (r_min, e, e_rate) = pass.chord;
        let [flap, lag, flap_rate, lag_rate] = match &pass.hinged {
            Some(_) => {
                let (chord, rate) = Hinges::chord_in_shaft(&pass.frame, e, e_rate);
                flap_lag(chord, rate, [zero(), zero()])
            }
            None => flap_lag(e, e_rate, [self.pitch_of(us, b)[0], us[u::blade(b) + u::PITCH_RATE]]),
        };
        let into_blade = |v_body: V3<D>| mat_t_vec(&r_min, mat_t_vec(&pass.frame.rotation, v_body));
        let root_radius = self.blade.beam.undeformed.positions[0][0];
        let root_arm = scale_f(column(&pass.frame.shaft_rotation, 0), root_radius);
        let root_velocity = match (&self.hinges, &pass.hinged) {
            (Some(h), Some((hinged, _))) => h.clamp_velocity(b, &pass.frame, hinged, u::View(us).hub_vel()),
            _ => add(u::View(us).hub_vel(), cross(pass.frame.shaft_omega, root_arm)),
        };
        let chord_spin = cross(e, e_rate);
        let omega = mat_t_vec(&r_min, add(mat_t_vec(&pass.frame.rotation, pass.frame.omega), chord_spin));
        let tip = PER_NODE * (self.blade.n_free() - 1);
        let twist = dot([x[tip + 3], x[tip + 4], x[tip + 5]], e);
        let mut y = y::ViewMut(ys);
        let mut blade = y.blade(b);
        *blade.azimuth() = self.blade_azimuth(t, b);
        (*blade.flap(), *blade.lag(), *blade.flap_rate(), *blade.lag_rate()) = (flap, lag, flap_rate, lag_rate);
        *blade.vel() = into_blade(root_velocity);
        *blade.omega() = omega;
        *blade.shaft() = into_blade(lift3(column(&self.hub_axes, 2)));
        *blade.tip() = [x[tip], x[tip + 1], x[tip + 2]];
        *blade.tip_twist() = twist;
    }

    /// The outputs ([`Model::outputs`]), the hub load by `by`.
    fn outputs_by<D: Scalar>(&self, work: &mut Work<D>, t: D, x: &[D], us: &[D], ys: &mut [D], by: HubLoad) {
        ys.iter_mut().for_each(|e| *e = zero());
        let n = self.blade.n_states();
        let (mut force, mut moment) = (zero3::<D>(), zero3::<D>());
        let mut dx = std::mem::take(&mut work.dx);
        for b in 0..self.nb {
            let xb = &x[b * n..(b + 1) * n];
            let pass = match (&self.hinges, by) {
                (None, HubLoad::ClampOnly) => self.clamp_pass(work, BladeAt { t, b, x: xb, hinge: None, us }),
                _ => self.blade_pass(work, t, b, xb, self.hinge_state(x, b), us, &mut dx),
            };
            let clamp_force = mat_vec(&pass.frame.rotation, pass.clamp.force);
            force = add(force, clamp_force);
            moment = add(moment, mat_vec(&pass.frame.rotation, pass.clamp.moment));
            if let Some((hinged, _)) = &pass.hinged {
                moment = add(moment, cross(hinged.origin, clamp_force));
            }
            self.blade_outputs(&pass, t, b, xb, us, ys);
            let hub_vel = u::View(us).hub_vel();
            let origin = match &pass.hinged {
                Some((hinged, _)) => (hinged.origin, add(hub_vel, cross(pass.frame.shaft_omega, hinged.origin))),
                None => (zero3(), hub_vel),
            };
            self.stations.write_outputs(self.blade_of(b), &pass.frame, origin, b, xb, ys);
        }
        work.dx = dx;
        let mut y = y::ViewMut(ys);
        *y.hub_force() = force;
        *y.hub_moment() = moment;
        *y.azimuth() = t * self.omega + self.psi0;
        *y.shaft_rate() = D::from(self.omega);
        *y.shaft_torque() = -dot(moment, lift3(column(&self.hub_axes, 2)));
        for (k, position) in self.blade.beam.undeformed.positions.iter().enumerate().skip(1) {
            *y.node(k - 1).r() = D::from(position[0]);
        }
    }
}

impl Model for RotorElastic {
    const INFO: ModelInfo = ModelInfo {
        model_name: "RotorElastic",
        model_identifier: "RotorElastic",
        description: "Hingeless helicopter rotor with elastic blades: geometrically exact beams (Simo-Reissner, \
                      Crisfield-Jelenic, lumped mass) clamped behind driven pitch bearings, blade properties from a \
                      table file; Jacobians by automatic differentiation; the Rotor's hub and blade interface",
        default_stop_time: 0.5,
        default_step_size: 0.001,
    };

    const TABLES: Tables = crate::layout::TABLES;

    type Work<D: Scalar> = Box<Work<D>>;

    fn configure(params: &dyn Parameters) -> Result<Self, ParameterError> {
        Self::from_parameters(params)
    }

    fn work<D: Scalar>(&self) -> Box<Work<D>> {
        let nodes = self.blade.beam.n_nodes();
        Box::new(Work {
            nodes: Vec::with_capacity(2 * nodes),
            forces: vec![zero3(); nodes],
            moments: vec![zero3(); nodes],
            dx: vec![zero(); self.blade.n_states()],
            implicit: implicit::Memory::default(),
        })
    }

    fn n_states(&self) -> usize {
        self.nb * (self.blade.n_states() + self.hinges.as_ref().map_or(0, |_| hinge::PER_BLADE))
    }

    fn initial_state(&self, x: &mut [f64]) {
        let (blades, hinges) = x.split_at_mut(self.nb * self.blade.n_states());
        for (b, chunk) in blades.chunks_mut(self.blade.n_states()).enumerate() {
            chunk.copy_from_slice(self.x0_of(b));
        }
        hinges.fill(0.0);
    }

    fn derivatives<D: Scalar>(&self, work: &mut Box<Work<D>>, t: D, x: &[D], us: &[D], dx: &mut [D]) {
        let n = self.blade.n_states();
        for b in 0..self.nb {
            let range = b * n..(b + 1) * n;
            let hinge = self.hinge_state(x, b);
            let pass = self.blade_pass(work, t, b, &x[range.clone()], hinge, us, &mut dx[range]);
            if let (Some(q), Some((_, [lag_acc, flap_acc]))) = (hinge, pass.hinged) {
                let at = self.nb * n + hinge::PER_BLADE * b;
                dx[at..at + hinge::PER_BLADE].copy_from_slice(&[q[2], q[3], lag_acc, flap_acc]);
            }
        }
    }

    fn state_variables() -> Vec<StateVariable> {
        let mut states = Vec::with_capacity(MAX_BLADES * DECLARED_PER_BLADE);
        let parts = [
            ("u", "m", "m/s", 0.01, "elastic displacement from the undeformed position, pitch-frame"),
            (
                "psi",
                "rad",
                "rad/s",
                0.01,
                "rotation vector of the section from its undeformed orientation, pitch-frame",
            ),
            ("v", "m/s", "m/s2", 1.0, "velocity relative to the pitch frame, pitch-frame"),
            ("w", "rad/s", "rad/s2", 1.0, "angular velocity relative to the pitch frame, pitch-frame"),
        ];
        for b in 1..=MAX_BLADES {
            for half in [&parts[..2], &parts[2..]] {
                for k in 1..=MAX_ELEMENTS {
                    for &(name, unit, rate_unit, nominal, what) in half {
                        for c in ["x", "y", "z"] {
                            let description = format!(
                                "Blade {b}, node {k} (from the clamp; used when k <= n_elements and b <= nb): {what} {c}"
                            );
                            let state = format!("blade[{b}].node[{k}].{name}.{c}");
                            states.push(StateVariable::new(&state, unit, rate_unit, description, nominal));
                        }
                    }
                }
            }
        }
        states.extend(hinge_state_variables());
        states
    }

    fn output_state_dependencies(output: usize) -> Option<Vec<usize>> {
        structure::output_state_dependencies(output)
    }

    fn state_indices(&self) -> Vec<usize> {
        let half = PER_NODE * self.blade.n_free();
        let hinges = self.hinges.as_ref().map_or(0, |_| hinge::PER_BLADE * self.nb);
        (0..self.nb)
            .flat_map(|b| {
                (0..2 * half).map(move |i| {
                    let offset = if i < half { i } else { DECLARED_PER_BLADE / 2 + i - half };
                    b * DECLARED_PER_BLADE + offset
                })
            })
            .chain((0..hinges).map(|i| MAX_BLADES * DECLARED_PER_BLADE + i))
            .collect()
    }

    fn outputs<D: Scalar>(&self, work: &mut Box<Work<D>>, t: D, x: &[D], us: &[D], ys: &mut [D]) {
        self.outputs_by(work, t, x, us, ys, HubLoad::ClampOnly);
    }

    fn tolerances(&self) -> (f64, f64) {
        (self.tolerance, self.tolerance)
    }

    fn step(
        &self,
        work: &mut Box<Work<f64>>,
        t: f64,
        h: f64,
        x: &mut [f64],
        inputs: &InputPath,
    ) -> Option<Result<(), String>> {
        self.implicit_step(work, t, h, x, inputs)
    }
}

/// The hinge states of the articulated hub (`hub_type = 1`), declared after the nodes' states:
/// per blade lag, flap, lag rate, flap rate ([`hinge::PER_BLADE`]).
fn hinge_state_variables() -> Vec<StateVariable> {
    let mut states = Vec::with_capacity(MAX_BLADES * hinge::PER_BLADE);
    for b in 1..=MAX_BLADES {
        let used = format!("used when hub_type = 1 and {b} <= nb");
        for (name, unit, rate_unit, nominal, what) in [
            ("lag", "rad", "rad/s", 0.1, "lag hinge angle, positive lagging behind the rotation"),
            ("flap", "rad", "rad/s", 0.1, "flap hinge angle, positive up (towards +z_H)"),
            ("lag_rate", "rad/s", "rad/s2", 1.0, "lag hinge rate"),
            ("flap_rate", "rad/s", "rad/s2", 1.0, "flap hinge rate"),
        ] {
            let description = format!("Blade {b} ({used}): {what}");
            states.push(StateVariable::new(&format!("blade[{b}].hinge.{name}"), unit, rate_unit, description, nominal));
        }
    }
    states
}
