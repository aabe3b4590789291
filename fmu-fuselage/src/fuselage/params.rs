//! The Fuselage's parameters: read, checked and turned into a [`Fuselage`].

use fmu_core::model::Parameters;
use fmu_core::params::{ParameterError, finite, finite3};
use nalgebra::{Matrix3, Matrix6};

use super::{Fuselage, Gear};
use crate::euler::EulerSequence;
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
        let mass = finite(params, vr::MASS, "mass")?;
        if mass <= 0.0 {
            return Err(format!("parameter 'mass' must be > 0 kg (got {mass})").into());
        }
        let cg = finite3(params, vr::CG, ["cg.x", "cg.y", "cg.z"])?;
        let mut ii = [0.0; 6];
        for (k, name) in ["I.xx", "I.yy", "I.zz", "I.xy", "I.xz", "I.yz"].iter().enumerate() {
            ii[k] = finite(params, vr::INERTIA + k as u32, name)?;
        }
        let [ixx, iyy, izz, ixy, ixz, iyz] = ii;
        let i_cm = Matrix3::new(ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz);
        check_inertia(&i_cm, params.boolean(vr::STRICT_INERTIA))?;
        let g = finite(params, vr::G, "g")?;
        let mut points = [[0.0; 3]; 3];
        for p in Point::ALL {
            let n = p.name();
            points[p.index()] = finite3(
                params,
                vr::POINTS + 3 * p.index() as u32,
                [&format!("{n}.x"), &format!("{n}.y"), &format!("{n}.z")],
            )?;
        }
        let code = params.integer(vr::EULER_SEQUENCE);
        let sequence = EulerSequence::from_code(code).ok_or_else(|| {
            format!("parameter 'euler_sequence' must be one of 123, 132, 213, 231, 312, 321 (got {code})")
        })?;
        let mask = params.integer(vr::DOF_MASK);
        if !(0..=63).contains(&mask) {
            return Err(format!("parameter 'dof_mask' must be in 0..=63 (got {mask})").into());
        }
        let drag_area = finite(params, vr::DRAG_AREA, "drag_area")?;
        if drag_area < 0.0 {
            return Err(format!("parameter 'drag_area' must be >= 0 m^2 (got {drag_area})").into());
        }
        let rho = finite(params, vr::RHO, "rho")?;
        if rho < 0.0 {
            return Err(format!("parameter 'rho' must be >= 0 kg/m^3 (got {rho})").into());
        }
        let gear = gear_from_parameters(params)?;
        let tolerance = finite(params, vr::TOLERANCE, "tolerance")?;
        if !(tolerance > 0.0 && tolerance < 1.0) {
            return Err(format!("parameter 'tolerance' must be in (0, 1) (got {tolerance})").into());
        }

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
        let m6_inv = to_array6(&m6_inv_na);
        let mut inertia_o = [[0.0; 3]; 3];
        for (r, row) in inertia_o.iter_mut().enumerate() {
            for (col, e) in row.iter_mut().enumerate() {
                *e = i_o[(r, col)];
            }
        }

        let mut x0 = [0.0; x::N];
        x0[x::POS..x::POS + 3].copy_from_slice(&finite3(params, vr::POS0, ["x0", "y0", "z0"])?);
        let euler0 = finite3(params, vr::EULER0, ["phi0", "theta0", "psi0"])?;
        let q0 = EulerSequence::S321.quaternion([euler0[2], euler0[1], euler0[0]]);
        x0[x::QUAT..x::QUAT + 4].copy_from_slice(&q0);
        x0[x::VEL..x::VEL + 3].copy_from_slice(&finite3(params, vr::VEL0, ["u0", "v0", "w0"])?);
        x0[x::RATE..x::RATE + 3].copy_from_slice(&finite3(params, vr::RATE0, ["p0", "q0", "r0"])?);
        let gear = gear.map(|mut gear| {
            let r0 = vec3::dcm(q0);
            for (anchor, leg) in gear.anchors.iter_mut().zip(&gear.legs) {
                let p = add([x0[x::POS], x0[x::POS + 1], x0[x::POS + 2]], mat_vec(&r0, *leg));
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
            gear,
            x0,
            tolerance,
        })
    }
}

/// The landing gear of the parameters, `None` when `gear.k` is 0.
fn gear_from_parameters(params: &dyn Parameters) -> Result<Option<Gear>, ParameterError> {
    let mut coefficients = [0.0; 4];
    for (c, (ref_, name)) in coefficients.iter_mut().zip([
        (vr::GEAR_K, "gear.k"),
        (vr::GEAR_C, "gear.c"),
        (vr::GEAR_K_H, "gear.k_h"),
        (vr::GEAR_C_H, "gear.c_h"),
    ]) {
        *c = finite(params, ref_, name)?;
        if *c < 0.0 {
            return Err(format!("parameter '{name}' must be >= 0 (got {c})").into());
        }
    }
    let [k, c, k_h, c_h] = coefficients;
    let ground_z = finite(params, vr::GROUND_Z, "ground_z")?;
    let ratio = finite(params, vr::GEAR_K_H_RATIO, "gear.k_h_ratio")?;
    if ratio < 0.0 {
        return Err(format!("parameter 'gear.k_h_ratio' must be >= 0 (got {ratio})").into());
    }
    if k == 0.0 {
        return Ok(None);
    }
    let mut legs = [[0.0; 3]; GEAR_LEGS];
    for (i, leg) in legs.iter_mut().enumerate() {
        let n = i + 1;
        *leg = finite3(
            params,
            vr::GEAR + 3 * i as u32,
            [&format!("gear[{n}].x"), &format!("gear[{n}].y"), &format!("gear[{n}].z")],
        )?;
    }
    Ok(Some(Gear { legs, k, c, k_h, k_hy: k_h * ratio, c_h, ground_z, anchors: [[0.0; 2]; GEAR_LEGS] }))
}

/// A 6x6 matrix as nested arrays.
fn to_array6(m: &Matrix6<f64>) -> [[f64; 6]; 6] {
    std::array::from_fn(|r| std::array::from_fn(|c| m[(r, c)]))
}
