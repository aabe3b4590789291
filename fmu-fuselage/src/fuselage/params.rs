//! The Fuselage's parameters: read, checked and turned into a [`Fuselage`].

use fmu_core::model::Parameters;
use fmu_core::params::{ParameterError, Reader};
use nalgebra::{Matrix3, Matrix6};

use super::{Fuselage, Gear};
use crate::airframe::Airframe;
use crate::euler::EulerSequence;
use crate::fuselage_tables::FuselageAero;
use crate::layout::{GEAR_LEGS, Point, vr, x};
use crate::vec3::{self, add, mat_vec};

/// Checks the inertia tensor about the CoM: symmetric positive definite and, when `strict`,
/// principal moments satisfying the triangle inequality.
fn check_inertia(i_cm: &Matrix3<f64>, strict: bool) -> Result<(), String> {
    let names = "I.xx, I.yy, I.zz, I.xy, I.xz, I.yz";
    let eig = i_cm.symmetric_eigen().eigenvalues;
    let (lo, hi) = (eig.min(), eig.max());
    if lo <= 1e-12 * hi.abs().max(f64::MIN_POSITIVE) {
        return Err(format!(
            "inertia tensor ({names}) must be positive definite; principal moments are {:.6e}, {:.6e}, {:.6e} kg m^2",
            eig[0], eig[1], eig[2]
        ));
    }
    if strict {
        let sum = eig.sum();
        for k in 0..3 {
            // Each principal moment at most the sum of the other two (equality: a plane body).
            if eig[k] > sum - eig[k] + 1e-9 * sum {
                return Err(format!(
                    "inertia tensor ({names}) violates the triangle inequality: principal moment {:.6e} exceeds \
                     the sum of the other two ({:.6e}) kg m^2, which no real body has; set strict_inertia = false \
                     to accept it anyway",
                    eig[k],
                    sum - eig[k]
                ));
            }
        }
    }
    Ok(())
}

impl Fuselage {
    /// Builds the airframe from parameter values, validating them (errors name the parameter).
    pub fn from_parameters(params: &dyn Parameters) -> Result<Self, ParameterError> {
        let p = Reader::new(params, vr::TABLE);
        let mass = p.real(vr::MASS)?;
        let cg = p.vector::<3>(vr::CG)?;
        let [ixx, iyy, izz, ixy, ixz, iyz] = p.vector::<6>(vr::INERTIA)?;
        let i_cm = Matrix3::new(ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz);
        check_inertia(&i_cm, p.boolean(vr::STRICT_INERTIA))?;
        let g = p.real(vr::G)?;
        let mut points = [[0.0; 3]; 3];
        for point in Point::ALL {
            points[point.index()] = p.vector(vr::POINTS + vr::PER_POINT * point.index() as u32)?;
        }
        let code = p.integer(vr::EULER_SEQUENCE)?;
        let sequence = EulerSequence::from_code(code).ok_or_else(|| {
            format!("parameter 'euler_sequence' must be one of 123, 132, 213, 231, 312, 321 (got {code})")
        })?;
        let mask = p.integer(vr::DOF_MASK)?;
        let drag_area = p.real(vr::DRAG_AREA)?;
        let rho = p.real(vr::RHO)?;
        let gear = gear_from_parameters(&p)?;
        let airframe = Airframe::from_parameters(&p, points[Point::Hub.index()])?;
        let fuselage_table = FuselageAero::from_parameters(&p)?;
        let tolerance = p.real(vr::TOLERANCE)?;
        let MassMatrices { inertia_o, m6_inv, m6_inv_free } = MassMatrices::new(mass, cg, &i_cm, mask)?;
        let (x0, q0) = initial_state(&p)?;
        let gear = gear.map(|mut gear| {
            let r0 = vec3::dcm(q0);
            for (anchor, leg) in gear.anchors.iter_mut().zip(&gear.legs) {
                let p = add(x::View(&x0).pos(), mat_vec(&r0, *leg));
                *anchor = [p[0], p[1]];
            }
            gear
        });

        Ok(Fuselage {
            mass,
            cg,
            inertia_o,
            m6_inv,
            m6_inv_free,
            g,
            points,
            sequence,
            drag_coefficient: 0.5 * rho * drag_area,
            drag_area,
            rho,
            airframe,
            fuselage_table,
            gear,
            x0,
            tolerance,
        })
    }
}

/// The mass properties about the reference point O that the equations of motion use.
struct MassMatrices {
    /// Inertia tensor about O, body axes, kg m^2.
    inertia_o: [[f64; 3]; 3],
    /// Inverse of the 6x6 mass matrix reduced to the free DOFs of `dof_mask` (blocked rows and
    /// columns zero).
    m6_inv: [[f64; 6]; 6],
    /// Inverse of the full 6x6 mass matrix (every DOF free).
    m6_inv_free: [[f64; 6]; 6],
}

impl MassMatrices {
    /// From the mass, the CoM `cg` and the inertia `i_cm` about it, and the `dof_mask`.
    fn new(mass: f64, cg: [f64; 3], i_cm: &Matrix3<f64>, mask: i32) -> Result<Self, ParameterError> {
        // Inertia about O (parallel-axis theorem) and the coupled 6x6 mass matrix.
        let c = nalgebra::Vector3::from(cg);
        let i_o = i_cm + (Matrix3::identity() * c.norm_squared() - c * c.transpose()) * mass;
        let c_cross = c.cross_matrix();
        let mut m6 = Matrix6::zeros();
        m6.fixed_view_mut::<3, 3>(0, 0).copy_from(&(Matrix3::identity() * mass));
        m6.fixed_view_mut::<3, 3>(0, 3).copy_from(&(-c_cross * mass));
        m6.fixed_view_mut::<3, 3>(3, 0).copy_from(&(c_cross * mass));
        m6.fixed_view_mut::<3, 3>(3, 3).copy_from(&i_o);
        let not_positive =
            || ParameterError::Invalid("the 6x6 mass matrix is not positive definite (check mass, cg.*, I.*)".into());
        let m6_inv_free = to_array6(&m6.cholesky().ok_or_else(not_positive)?.inverse());
        // Reduced system: replace blocked rows/columns by unit rows/columns, invert, zero them.
        let free = |k: usize| mask & (1 << k) != 0;
        for k in (0..6).filter(|&k| !free(k)) {
            m6.row_mut(k).fill(0.0);
            m6.column_mut(k).fill(0.0);
            m6[(k, k)] = 1.0;
        }
        let mut m6_inv_na = m6.cholesky().ok_or_else(not_positive)?.inverse();
        for k in (0..6).filter(|&k| !free(k)) {
            m6_inv_na.row_mut(k).fill(0.0);
            m6_inv_na.column_mut(k).fill(0.0);
        }
        let mut inertia_o = [[0.0; 3]; 3];
        for (r, row) in inertia_o.iter_mut().enumerate() {
            for (col, e) in row.iter_mut().enumerate() {
                *e = i_o[(r, col)];
            }
        }
        Ok(MassMatrices { inertia_o, m6_inv: to_array6(&m6_inv_na), m6_inv_free })
    }
}

/// The initial state from the `x0 .. r0` parameters, and its attitude quaternion.
fn initial_state(p: &Reader) -> Result<([f64; x::N], [f64; 4]), ParameterError> {
    let mut x0 = [0.0; x::N];
    let mut x = x::ViewMut(&mut x0);
    *x.pos() = p.vector::<3>(vr::POS0)?;
    let euler0 = p.vector::<3>(vr::EULER0)?;
    let q0 = EulerSequence::S321.quaternion([euler0[2], euler0[1], euler0[0]]);
    *x.quat() = q0;
    *x.vel() = p.vector::<3>(vr::VEL0)?;
    *x.rate() = p.vector::<3>(vr::RATE0)?;
    Ok((x0, q0))
}

/// The landing gear of the parameters, `None` when `gear.k` is 0.
fn gear_from_parameters(p: &Reader) -> Result<Option<Gear>, ParameterError> {
    let k = p.real(vr::GEAR_K)?;
    let c = p.real(vr::GEAR_C)?;
    let k_h = p.real(vr::GEAR_K_H)?;
    let c_h = p.real(vr::GEAR_C_H)?;
    let ground_z = p.real(vr::GROUND_Z)?;
    let ratio = p.real(vr::GEAR_K_H_RATIO)?;
    if k == 0.0 {
        return Ok(None);
    }
    let mut legs = [[0.0; 3]; GEAR_LEGS];
    for (i, leg) in legs.iter_mut().enumerate() {
        *leg = p.vector(vr::GEAR + vr::PER_GEAR * i as u32)?;
    }
    Ok(Some(Gear { legs, k, c, k_h, k_hy: k_h * ratio, c_h, ground_z, anchors: [[0.0; 2]; GEAR_LEGS] }))
}

/// A 6x6 matrix as nested arrays.
fn to_array6(m: &Matrix6<f64>) -> [[f64; 6]; 6] {
    std::array::from_fn(|r| std::array::from_fn(|c| m[(r, c)]))
}
