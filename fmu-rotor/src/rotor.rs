//! The articulated rotor: parameters, validation and the tree it builds; the FMI model in `model.rs`.

use fmu_core::model::{Parameters, Scalar};
use fmu_core::params::{ParameterError, Reader};

use crate::dynamics::{HubMotion, Mode, Work};
use crate::la::{M3f, V3, add, cross, lift3, mat_t_vec, zero};
use crate::layout::{MAX_BLADES, u, vr, x, y};
use crate::tree::{Drive, Joint, JointAxis, Link, RigidBody, Tree};

mod model;

/// One generalized coordinate of the rotor (an entry of `q`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coordinate {
    /// The shaft angle psi (with `shaft_free`).
    Shaft,
    /// Lag angle of blade `i` (0-based).
    Lag(usize),
    /// Flap angle of blade `i` (0-based).
    Flap(usize),
}

/// The links of one blade.
#[derive(Debug, Clone, Copy)]
struct BladeLinks {
    lag: usize,
    flap: usize,
    pitch: usize,
    body: usize,
    azimuth_offset: f64,
}

/// Parameter values after validation (SI).
#[derive(Debug, Clone, Copy)]
struct Params {
    nb: usize,
    omega: f64,
    e: f64,
    e_lag: f64,
    mass: f64,
    x_cg: f64,
    i_flap: f64,
    i_pitch: f64,
    k_lag: f64,
    c_lag: f64,
    /// Per blade: the factor on `c_lag` (`blade[n].c_lag_factor`).
    c_lag_factor: [f64; MAX_BLADES],
    /// Per blade: the factor on its mass properties and its pitch offset (rad).
    overrides: [[f64; 2]; MAX_BLADES],
    k_flap: f64,
    lock_lag: bool,
    lock_flap: bool,
    shaft_free: bool,
    psi0: f64,
    beta0: f64,
    zeta0: f64,
    /// Per blade: initial lag and flap offsets from `zeta0`/`beta0` (rad) and their rates (rad/s).
    blade_initial: [[f64; 4]; MAX_BLADES],
    hub_m: f64,
    hub_i: f64,
    hub_axes: M3f,
    tolerance: f64,
}

/// The articulated rotor (`modelIdentifier="Rotor"`): the multibody tree built from the
/// parameters. Its evaluations write into a [`Work`] that the caller owns (`Model::Work`: one
/// for `f64` evaluations and one for the `Dual64` evaluations of the directional derivatives,
/// in each FMU instance).
#[derive(Debug)]
pub struct Rotor {
    tree: Tree,
    nb: usize,
    blades: Vec<BladeLinks>,
    shaft_free: bool,
    /// Jacobian column of the driven shaft (its torque output), when driven.
    shaft_column: Option<usize>,
    coordinates: Vec<Coordinate>,
    x0: Vec<f64>,
    tolerance: f64,
    hub_axes: M3f,
}

/// Hub axes `[x_H y_H z_H]` (columns, airframe body axes) from the shaft axis and the
/// azimuth-zero direction, orthonormalised.
pub fn hub_axes(n: [f64; 3], a: [f64; 3]) -> Result<M3f, ParameterError> {
    let norm = |v: [f64; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    let nn = norm(n);
    if nn < 1e-9 {
        return Err(format!("parameters 'shaft.nx/ny/nz' must give a non-zero shaft axis (got {n:?})").into());
    }
    let z = n.map(|c| c / nn);
    let an = norm(a);
    let a_dot_z = a[0] * z[0] + a[1] * z[1] + a[2] * z[2];
    let x = [a[0] - a_dot_z * z[0], a[1] - a_dot_z * z[1], a[2] - a_dot_z * z[2]];
    let xn = norm(x);
    if an < 1e-9 || xn < 1e-6 * an {
        return Err(format!(
            "parameters 'shaft.ax/ay/az' (azimuth-zero direction {a:?}) must not be zero or parallel to the shaft \
             axis {z:?}"
        )
        .into());
    }
    let x = x.map(|c| c / xn);
    let yv = [z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]];
    Ok([[x[0], yv[0], z[0]], [x[1], yv[1], z[1]], [x[2], yv[2], z[2]]])
}

impl Params {
    fn read(params: &dyn Parameters) -> Result<Params, ParameterError> {
        let p = Reader::new(params, vr::TABLE);
        let nb = p.integer(vr::NB)?;
        let omega = p.real(vr::OMEGA)?;
        let radius = p.real(vr::RADIUS)?;
        let e = p.real(vr::E)?;
        if e >= radius {
            return Err(format!("parameter 'e' ({e} m) must be smaller than the radius R ({radius} m)").into());
        }
        let e_lag_raw = p.real(vr::E_LAG)?;
        let e_lag = if e_lag_raw < 0.0 { e } else { e_lag_raw };
        if e_lag > e {
            return Err(format!(
                "parameter 'e_lag' ({e_lag} m) must be <= e ({e} m): the lag hinge is inboard of the flap hinge"
            )
            .into());
        }
        let (mass, s, i_flap) = (p.real(vr::BLADE_M)?, p.real(vr::BLADE_S)?, p.real(vr::BLADE_I)?);
        let x_cg = blade_centre_of_mass(mass, s, i_flap, e, radius)?;
        let i_pitch = p.real(vr::BLADE_I_PITCH)?;
        let hub_axes = hub_axes(p.vector(vr::SHAFT_AXIS)?, p.vector(vr::SHAFT_AZIMUTH_ZERO)?)?;
        let tolerance = p.real(vr::TOLERANCE)?;
        Ok(Params {
            nb: nb as usize,
            omega,
            e,
            e_lag,
            mass,
            x_cg,
            i_flap,
            i_pitch,
            k_lag: p.real(vr::K_LAG)?,
            c_lag: p.real(vr::C_LAG)?,
            c_lag_factor: c_lag_factors(&p)?,
            overrides: blade_overrides(&p)?,
            k_flap: p.real(vr::K_FLAP)?,
            lock_lag: p.boolean(vr::LOCK_LAG),
            lock_flap: p.boolean(vr::LOCK_FLAP),
            shaft_free: p.boolean(vr::SHAFT_FREE),
            psi0: p.real(vr::PSI0)?,
            beta0: p.real(vr::BETA0)?,
            zeta0: p.real(vr::ZETA0)?,
            blade_initial: blade_initial(&p)?,
            hub_m: p.real(vr::HUB_M)?,
            hub_i: p.real(vr::HUB_I)?,
            hub_axes,
            tolerance,
        })
    }
}

/// The blade's CoM `x_cg = S / m` outboard of the flap hinge, after checking that the blade mass
/// `mass`, first moment `s` and flap inertia `i_flap` fit a blade between the hinge offset `e` and
/// the radius.
fn blade_centre_of_mass(mass: f64, s: f64, i_flap: f64, e: f64, radius: f64) -> Result<f64, ParameterError> {
    let x_cg = s / mass;
    if e + x_cg >= radius {
        return Err(format!(
            "parameters 'blade.S' / 'blade.m' put the blade CoM at {:.4} m from the shaft, outside the radius R \
             ({radius} m)",
            e + x_cg
        )
        .into());
    }
    if i_flap < s * x_cg * (1.0 - 1e-12) {
        return Err(format!(
            "parameter 'blade.I' ({i_flap} kg m^2) must be >= blade.S^2/blade.m ({:.6} kg m^2): the inertia about \
             the CoM would be negative",
            s * x_cg
        )
        .into());
    }
    let span = radius - e;
    if i_flap > mass * span * span * (1.0 + 1e-12) {
        return Err(format!(
            "parameter 'blade.I' ({i_flap} kg m^2) exceeds blade.m (R - e)^2 ({:.6} kg m^2): mass beyond the tip",
            mass * span * span
        )
        .into());
    }
    Ok(x_cg)
}

/// The per-blade initial-state parameters of all [`MAX_BLADES`] blades, in their declaration
/// order (`blade[i].dlag0`, `dflap0`, `lag_rate0`, `flap_rate0`).
fn blade_initial(p: &Reader) -> Result<[[f64; 4]; MAX_BLADES], ParameterError> {
    let mut all = [[0.0; 4]; MAX_BLADES];
    for (i, values) in all.iter_mut().enumerate() {
        *values = p.vector(vr::BLADE_INITIAL + vr::PER_BLADE_INITIAL * i as u32)?;
    }
    Ok(all)
}

/// `blade[n].c_lag_factor` of every blade.
fn c_lag_factors(p: &Reader) -> Result<[f64; MAX_BLADES], ParameterError> {
    let mut all = [1.0; MAX_BLADES];
    for (i, factor) in all.iter_mut().enumerate() {
        *factor = p.real(vr::BLADE_DAMPER + vr::PER_BLADE_DAMPER * i as u32)?;
    }
    Ok(all)
}

/// `blade[n].mass_factor` and `blade[n].pitch_offset` of every blade.
fn blade_overrides(p: &Reader) -> Result<[[f64; 2]; MAX_BLADES], ParameterError> {
    let mut all = [[1.0, 0.0]; MAX_BLADES];
    for (i, values) in all.iter_mut().enumerate() {
        *values = p.vector(vr::BLADE_OVERRIDES + vr::PER_BLADE_OVERRIDES * i as u32)?;
    }
    Ok(all)
}

/// Rotation by `a` about x, as constants.
fn rot_x(a: f64) -> M3f {
    let (s, c) = a.sin_cos();
    [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]
}

/// Rotation by `a` about z, as constants.
fn rot_z(a: f64) -> M3f {
    let (s, c) = a.sin_cos();
    [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
}

/// A link with no spring, damper, torque, or body.
pub(crate) fn bare_link(name: String, parent: Option<usize>, axis: JointAxis, joint: Joint) -> Link {
    Link {
        name,
        parent,
        fixed_rotation: None,
        offset: [0.0; 3],
        axis,
        joint,
        stiffness: 0.0,
        damping: 0.0,
        torque_input: None,
        report_torque: false,
        body: None,
    }
}

/// A blade's rigid body (pitch-link frame) with its mass properties times `factor`, loaded by
/// the inputs from `load_input`.
fn blade_body(p: &Params, i_cg: f64, factor: f64, load_input: usize) -> RigidBody {
    let (mass, i_cg, i_pitch) =
        if factor == 1.0 { (p.mass, i_cg, p.i_pitch) } else { (p.mass * factor, i_cg * factor, p.i_pitch * factor) };
    RigidBody {
        mass,
        com: [p.x_cg, 0.0, 0.0],
        inertia: [[i_pitch, 0.0, 0.0], [0.0, i_cg, 0.0], [0.0, 0.0, i_cg + i_pitch]],
        load_input: Some(load_input),
    }
}

/// The rotor tree: shaft (hub) -> per blade lag -> flap -> pitch (blade body).
fn build_tree(p: &Params) -> Result<(Tree, Vec<BladeLinks>), ParameterError> {
    let mut links = Vec::with_capacity(1 + 3 * p.nb);
    let shaft_joint = if p.shaft_free {
        Joint::Free { angle0: p.psi0, rate0: p.omega }
    } else {
        Joint::Driven(Drive::Clock { angle0: p.psi0, rate: p.omega })
    };
    let mut shaft = bare_link("shaft".into(), None, JointAxis::Z, shaft_joint);
    shaft.fixed_rotation = Some(p.hub_axes);
    shaft.torque_input = p.shaft_free.then_some(u::SHAFT_TORQUE);
    shaft.report_torque = !p.shaft_free;
    if p.hub_m > 0.0 || p.hub_i > 0.0 {
        shaft.body = Some(RigidBody {
            mass: p.hub_m,
            com: [0.0; 3],
            inertia: [[0.5 * p.hub_i, 0.0, 0.0], [0.0, 0.5 * p.hub_i, 0.0], [0.0, 0.0, p.hub_i]],
            load_input: None,
        });
    }
    links.push(shaft);
    let hub_bodies = usize::from(links[0].body.is_some());
    let i_cg = (p.i_flap - p.mass * p.x_cg * p.x_cg).max(0.0);
    let mut blades = Vec::with_capacity(p.nb);
    for i in 0..p.nb {
        let n = i + 1;
        let azimuth_offset = 2.0 * std::f64::consts::PI * i as f64 / p.nb as f64;
        let rz = rot_z(azimuth_offset);
        let [dlag0, dflap0, lag_rate0, flap_rate0] = p.blade_initial[i];
        let lag_joint =
            if p.lock_lag { Joint::Locked(p.zeta0) } else { Joint::Free { angle0: p.zeta0 + dlag0, rate0: lag_rate0 } };
        let mut lag = bare_link(format!("blade[{n}].lag"), Some(0), JointAxis::NEG_Z, lag_joint);
        lag.fixed_rotation = Some(rz);
        lag.offset = [rz[0][0] * p.e_lag, rz[1][0] * p.e_lag, 0.0];
        lag.stiffness = p.k_lag;
        lag.damping = p.c_lag * p.c_lag_factor[i];
        let lag_index = links.len();
        links.push(lag);
        let flap_joint = if p.lock_flap {
            Joint::Locked(p.beta0)
        } else {
            Joint::Free { angle0: p.beta0 + dflap0, rate0: flap_rate0 }
        };
        let mut flap = bare_link(format!("blade[{n}].flap"), Some(lag_index), JointAxis::NEG_Y, flap_joint);
        flap.offset = [p.e - p.e_lag, 0.0, 0.0];
        flap.stiffness = p.k_flap;
        links.push(flap);
        let b = u::blade(i);
        let drive = Drive::Inputs { angle: b + u::PITCH, rate: b + u::PITCH_RATE, acc: b + u::PITCH_ACC };
        let mut pitch = bare_link(format!("blade[{n}].pitch"), Some(lag_index + 1), JointAxis::X, Joint::Driven(drive));
        pitch.body = Some(blade_body(p, i_cg, p.overrides[i][0], b + u::FORCE));
        if p.overrides[i][1] != 0.0 {
            pitch.fixed_rotation = Some(rot_x(p.overrides[i][1]));
        }
        links.push(pitch);
        blades.push(BladeLinks {
            lag: lag_index,
            flap: lag_index + 1,
            pitch: lag_index + 2,
            body: hub_bodies + i,
            azimuth_offset,
        });
    }
    Ok((Tree::new(links)?, blades))
}

impl Rotor {
    /// Builds the rotor from parameter values, validating them (errors name the parameter).
    pub fn from_parameters(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Params::read(params)?;
        let (tree, blades) = build_tree(&p)?;
        let n = tree.n_dof();
        let mut x0 = vec![0.0; 2 * n];
        let mut coordinates = Vec::with_capacity(n);
        for (k, &j) in tree.dof_link.iter().enumerate() {
            if let Joint::Free { angle0, rate0 } = tree.links[j].joint {
                x0[k] = angle0;
                x0[n + k] = rate0;
            }
            let coordinate = if j == 0 {
                Coordinate::Shaft
            } else {
                let i = blades.iter().position(|b| b.lag == j || b.flap == j).expect("blade joint");
                if blades[i].lag == j { Coordinate::Lag(i) } else { Coordinate::Flap(i) }
            };
            coordinates.push(coordinate);
        }
        let shaft_column = tree.columns.iter().position(|c| c.link == 0 && c.dof.is_none());
        let rotor = Rotor {
            tree,
            nb: p.nb,
            blades,
            shaft_free: p.shaft_free,
            shaft_column,
            coordinates,
            x0,
            tolerance: p.tolerance,
            hub_axes: p.hub_axes,
        };
        // The mass matrix must be regular at the initial state (e.g. a free shaft needs some
        // polar inertia that the lag hinges do not take away).
        let mut dx = vec![0.0; 2 * n];
        let u0 = [0.0; u::N];
        if !rotor.try_derivatives(&mut Work::new(), 0.0, &rotor.x0, &u0, &mut dx) {
            return Err(
                "the mass matrix is singular at the initial state: with shaft_free and lag hinges on the shaft axis \
                 (e_lag = 0) give the hub a polar inertia 'hub.I' > 0; otherwise check blade.I, blade.S, blade.m"
                    .into(),
            );
        }
        Ok(rotor)
    }

    /// The same rotor solving its mass matrix as one dense block (for benchmarks).
    pub fn with_dense_solve(mut self) -> Self {
        self.tree.dense_solve = true;
        self
    }

    /// The generalized coordinates `q`, in state order (`x = [q, q']`).
    pub fn coordinates(&self) -> &[Coordinate] {
        &self.coordinates
    }

    /// Number of active blades.
    pub fn blade_count(&self) -> usize {
        self.nb
    }

    /// The multibody tree.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// Hub axes `[x_H y_H z_H]` as the columns of a matrix in airframe body axes.
    pub fn hub_axes(&self) -> M3f {
        self.hub_axes
    }

    /// The mass matrix `M(q)` (row-major, coordinates as [`Rotor::coordinates`]) at time `t`,
    /// state `x = [q, q']` and inputs `u` (pitch angles). Computed by the model's own
    /// Jacobians (the joints' screw axes): `M = sum_b J_v^T m_b J_v + J_w^T I_b J_w`.
    pub fn mass_matrix(&self, t: f64, x: &[f64], u: &[f64]) -> Vec<Vec<f64>> {
        self.tree.mass_matrix(t, x, u)
    }

    fn hub_motion<D: Scalar>(us: &[D]) -> HubMotion<D> {
        let u = u::View(us);
        HubMotion { vel: u.hub_vel(), omega: u.hub_omega(), acc: u.hub_acc(), alpha: u.hub_alpha() }
    }

    /// The outputs (see [`fmu_core::Model::outputs`]) evaluated with the work buffers `w`.
    fn outputs_with<D: Scalar>(&self, w: &mut Work<D>, t: D, x: &[D], us: &[D], ys: &mut [D]) {
        let hub = Self::hub_motion(us);
        ys.iter_mut().for_each(|e| *e = zero());
        if self.tree.evaluate(w, t, x, us, &hub, Mode::Loads).is_err() {
            ys.iter_mut().for_each(|e| *e = D::from(f64::NAN));
            return;
        }
        let (force, moment) = self.tree.hub_loads(w);
        let mut y = y::ViewMut(ys);
        *y.hub_force() = force;
        *y.hub_moment() = moment;
        *y.azimuth() = w.angle[0];
        *y.shaft_rate() = w.rate[0];
        *y.shaft_torque() = match self.shaft_column {
            Some(k) if !self.shaft_free => self.tree.driven_torque(w, k),
            _ => u::View(us).shaft_torque(),
        };
        *y.kinetic() = self.tree.kinetic_energy(w, &hub);
        *y.potential() = self.tree.potential_energy(w, &hub);
        for (i, b) in self.blades.iter().enumerate() {
            let mut blade = y.blade(i);
            *blade.azimuth() = w.angle[0] + b.azimuth_offset;
            *blade.flap() = w.angle[b.flap];
            *blade.lag() = w.angle[b.lag];
            *blade.flap_rate() = w.rate[b.flap];
            *blade.lag_rate() = w.rate[b.lag];
            let r = &w.rot[b.pitch];
            let v_root: V3<D> = add(add(hub.vel, cross(hub.omega, w.pos[b.pitch])), w.vel[b.pitch]);
            *blade.vel() = mat_t_vec(r, v_root);
            let omega = add(hub.omega, w.w_rel[b.body]);
            *blade.omega() = mat_t_vec(r, omega);
            let z_h: V3<D> = lift3([self.hub_axes[0][2], self.hub_axes[1][2], self.hub_axes[2][2]]);
            *blade.shaft() = mat_t_vec(r, z_h);
        }
    }

    /// `x' = [q', q'']`; false (and NaN accelerations) if the mass matrix is singular.
    fn try_derivatives<D: Scalar>(&self, w: &mut Work<D>, t: D, x: &[D], us: &[D], dx: &mut [D]) -> bool {
        let n = self.tree.n_dof();
        let hub = Self::hub_motion(us);
        let ok = self.tree.evaluate(w, t, x, us, &hub, Mode::Accelerations).is_ok();
        dx[..n].copy_from_slice(&x[n..2 * n]);
        for k in 0..n {
            dx[n + k] = if ok { w.qdd[k] } else { D::from(f64::NAN) };
        }
        ok
    }

    /// Position of a coordinate's angle in the declared state list ([`x`]).
    fn declared_position(c: Coordinate) -> usize {
        match c {
            Coordinate::Shaft => x::SHAFT,
            Coordinate::Lag(i) => x::blade(i) + x::LAG,
            Coordinate::Flap(i) => x::blade(i) + x::FLAP,
        }
    }
}
