//! The multibody topology as data: links in a `Vec` in topological (depth-first) order, each with
//! its parent, the fixed transform from the parent frame to its joint frame, a revolute joint
//! about a coordinate axis of the joint frame, the joint's kind (free, driven, locked), passive
//! joint elements, and an optional rigid body.
//!
//! The tree knows nothing about rotors: [`crate::rotor`] builds one from the parameters, and
//! [`crate::dynamics`] runs the passes over it. Kept apart from all working data (Pinocchio's
//! `Model` / `Data` split): a [`Tree`] is immutable after [`Tree::new`].
//!
//! Frames: every link frame is given relative to the attachment point P in the airframe body
//! axes (the *root frame*: origin P, axes the airframe's). A link's frame is
//! `R_j = R_parent F_j Rot(axis_j, angle_j)`, its origin `p_j = p_parent + R_parent o_j`, where
//! `F_j` (fixed rotation) and `o_j` (offset, parent axes) are constants.

use crate::la::{IDENTITY, M3, M3f, V3, add, lift3, lift33, mat_mul_f, mat_vec_f, rotate_columns};
use fmu_core::model::Scalar;

/// Most links a tree may have (shaft plus lag, flap and pitch of 8 blades).
pub const MAX_LINKS: usize = 1 + 3 * 8;
/// Most rigid bodies (hub plus 8 blades).
pub const MAX_BODIES: usize = 1 + 8;
/// Most free joint coordinates (shaft plus lag and flap of 8 blades).
pub const MAX_DOF: usize = 1 + 2 * 8;
/// Most Jacobian columns (free coordinates plus driven joints whose torque is reported).
pub const MAX_COLUMNS: usize = MAX_DOF;

/// A revolute joint's axis: a signed coordinate axis of the joint frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointAxis {
    /// 0 = x, 1 = y, 2 = z.
    pub index: usize,
    /// +1 or -1: a positive joint angle turns right-handed about `sign * e_index`.
    pub sign: f64,
}

impl JointAxis {
    /// `+x`.
    pub const X: JointAxis = JointAxis { index: 0, sign: 1.0 };
    /// `-y`.
    pub const NEG_Y: JointAxis = JointAxis { index: 1, sign: -1.0 };
    /// `+z`.
    pub const Z: JointAxis = JointAxis { index: 2, sign: 1.0 };
    /// `-z`.
    pub const NEG_Z: JointAxis = JointAxis { index: 2, sign: -1.0 };
}

/// Where a driven joint's prescribed motion comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Drive {
    /// `angle = angle0 + rate * t` (t the simulation time), constant rate.
    Clock {
        /// Angle at t = 0, rad.
        angle0: f64,
        /// Constant rate, rad/s.
        rate: f64,
    },
    /// Angle, rate and acceleration are real inputs (indices into `u`).
    Inputs {
        /// Index of the angle input, rad.
        angle: usize,
        /// Index of the rate input, rad/s.
        rate: usize,
        /// Index of the acceleration input, rad/s^2.
        acc: usize,
    },
}

/// The kind of a revolute joint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Joint {
    /// A degree of freedom: a generalized coordinate (numbered in link order by [`Tree::new`]).
    Free {
        /// Initial angle, rad.
        angle0: f64,
        /// Initial rate, rad/s.
        rate0: f64,
    },
    /// Prescribed motion.
    Driven(Drive),
    /// Held at a constant angle, rad.
    Locked(f64),
}

/// A rigid body fixed in a link frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RigidBody {
    /// Mass, kg.
    pub mass: f64,
    /// Centre of mass in the link frame, m.
    pub com: [f64; 3],
    /// Inertia tensor about the centre of mass, link axes, kg m^2.
    pub inertia: M3f,
    /// Index into `u` of six applied-load inputs `[F.x F.y F.z M.x M.y M.z]` (force in N and
    /// couple in N m, link axes, the force acting at the link origin), or `None`.
    pub load_input: Option<usize>,
}

/// One link: a joint and what it carries.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// Name, for messages.
    pub name: String,
    /// Parent link (an earlier index), or `None` for the root frame.
    pub parent: Option<usize>,
    /// Fixed rotation from the parent frame to the joint frame (`None` = identity).
    pub fixed_rotation: Option<M3f>,
    /// Joint origin in the parent frame, m.
    pub offset: [f64; 3],
    /// Joint axis in the joint frame.
    pub axis: JointAxis,
    /// Free, driven or locked.
    pub joint: Joint,
    /// Torsional spring about the joint, N m/rad (restoring moment `-k angle`).
    pub stiffness: f64,
    /// Torsional damper about the joint, N m s/rad (moment `-c rate`).
    pub damping: f64,
    /// Index into `u` of an applied joint torque (about the joint axis, N m), or `None`.
    pub torque_input: Option<usize>,
    /// Report the torque a driven joint needs (gets a Jacobian column in the outputs).
    pub report_torque: bool,
    /// The rigid body fixed in this link's frame, if any.
    pub body: Option<RigidBody>,
}

/// Position and orientation of a link frame relative to the root frame.
#[derive(Debug, Clone, Copy)]
pub struct Frame<T> {
    /// Link axes to root (airframe) axes.
    pub rot: M3<T>,
    /// Origin relative to P, root axes, m.
    pub pos: V3<T>,
}

impl<T: Scalar> Frame<T> {
    /// The root frame: P with the airframe axes.
    pub fn root() -> Self {
        Frame { rot: lift33(&IDENTITY), pos: lift3([0.0; 3]) }
    }
}

impl Link {
    /// This link's frame from its parent's, given the sine and cosine of the signed joint
    /// angle `axis.sign * angle`. Generic so the same code gives values and derivatives.
    #[inline]
    pub fn frame<T: Scalar>(&self, parent: &Frame<T>, s: T, c: T) -> Frame<T> {
        let pos =
            if self.offset == [0.0; 3] { parent.pos } else { add(parent.pos, mat_vec_f(&parent.rot, self.offset)) };
        let mut rot = match &self.fixed_rotation {
            Some(f) => mat_mul_f(&parent.rot, f),
            None => parent.rot,
        };
        rotate_columns(&mut rot, self.axis.index, s, c);
        Frame { rot, pos }
    }
}

/// A Jacobian column: the derivatives of all body kinematics with respect to one joint angle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// The joint's link.
    pub link: usize,
    /// Its generalized coordinate, or `None` for a driven joint whose torque is reported.
    pub dof: Option<usize>,
    /// The bodies that move with this joint (its subtree): `first..end` in body order.
    pub bodies: (usize, usize),
}

/// The checked, immutable topology with everything the passes need precomputed.
#[derive(Debug, Clone)]
pub struct Tree {
    /// The links in topological (depth-first) order.
    pub links: Vec<Link>,
    /// One past the last link of each link's subtree (subtrees are contiguous).
    pub subtree_end: Vec<usize>,
    /// Body index of each link's body.
    pub body_of_link: Vec<Option<usize>>,
    /// Link of each body (bodies are numbered in link order).
    pub body_link: Vec<usize>,
    /// The rigid bodies in body order (copies of the links' bodies, contiguous for the passes).
    bodies: Vec<RigidBody>,
    /// Generalized-coordinate index of each free link.
    pub dof_of_link: Vec<Option<usize>>,
    /// Link of each generalized coordinate.
    pub dof_link: Vec<usize>,
    /// Jacobian columns: first one per coordinate (column k = coordinate k), then one per
    /// driven joint with `report_torque`.
    pub columns: Vec<Column>,
    /// Diagonal blocks `(first, len)` of the mass matrix: coordinates in different blocks have
    /// no body in common, so their coupling is zero (for example, independent blades on a driven
    /// shaft).
    pub blocks: Vec<(usize, usize)>,
    /// Solve the mass matrix as one dense block, ignoring [`Tree::blocks`] (for comparison in
    /// benchmarks; off by default).
    pub dense_solve: bool,
}

impl Tree {
    /// Checks the links and precomputes subtrees, body and coordinate numbering, Jacobian
    /// columns and mass-matrix blocks.
    pub fn new(links: Vec<Link>) -> Result<Tree, String> {
        check_links(&links)?;
        let subtree_end = subtree_ends(&links)?;
        let (body_of_link, body_link) = number_links(&links, |l| l.body.is_some());
        let (dof_of_link, dof_link) = number_links(&links, |l| matches!(l.joint, Joint::Free { .. }));
        if body_link.len() > MAX_BODIES || dof_link.len() > MAX_DOF {
            return Err(format!(
                "{} bodies and {} coordinates exceed the maxima {MAX_BODIES} and {MAX_DOF}",
                body_link.len(),
                dof_link.len()
            ));
        }
        let columns = jacobian_columns(&links, &subtree_end, &body_link, &dof_link)?;
        let blocks = mass_matrix_blocks(&subtree_end, &dof_link);
        let bodies = body_link.iter().map(|&j| links[j].body.expect("body_link points at links with a body")).collect();
        Ok(Tree {
            links,
            subtree_end,
            body_of_link,
            body_link,
            bodies,
            dof_of_link,
            dof_link,
            columns,
            blocks,
            dense_solve: false,
        })
    }

    /// Number of generalized coordinates.
    pub fn n_dof(&self) -> usize {
        self.dof_link.len()
    }

    /// Number of rigid bodies.
    pub fn n_bodies(&self) -> usize {
        self.body_link.len()
    }

    /// The rigid body with index `b`.
    pub fn body(&self, b: usize) -> &RigidBody {
        &self.bodies[b]
    }
}

/// Checks the number of links and each link on its own: its parent comes before it, its joint
/// axis is a signed coordinate axis, and only a driven joint reports its torque.
fn check_links(links: &[Link]) -> Result<(), String> {
    let n = links.len();
    if n > MAX_LINKS {
        return Err(format!("{n} links exceed the maximum of {MAX_LINKS}"));
    }
    for (j, l) in links.iter().enumerate() {
        if let Some(p) = l.parent
            && p >= j
        {
            return Err(format!("link '{}' comes before its parent (links must be in topological order)", l.name));
        }
        if l.axis.index > 2 || l.axis.sign.abs() != 1.0 {
            return Err(format!("link '{}': joint axis must be a signed coordinate axis", l.name));
        }
        if l.report_torque && !matches!(l.joint, Joint::Driven(_)) {
            return Err(format!("link '{}': only a driven joint can report its torque", l.name));
        }
    }
    Ok(())
}

/// One past the last link of each link's subtree; an error if a subtree is not contiguous (the
/// links are not in depth-first order). The parents must come before their children.
fn subtree_ends(links: &[Link]) -> Result<Vec<usize>, String> {
    let n = links.len();
    let is_descendant = |mut l: usize, j: usize| loop {
        if l == j {
            return true;
        }
        match links[l].parent {
            Some(p) => l = p,
            None => return false,
        }
    };
    let mut subtree_end = vec![0; n];
    for j in 0..n {
        let mut end = j + 1;
        while end < n && is_descendant(end, j) {
            end += 1;
        }
        if (end..n).any(|l| is_descendant(l, j)) {
            return Err(format!("the subtree of link '{}' is not contiguous (use depth-first order)", links[j].name));
        }
        subtree_end[j] = end;
    }
    Ok(subtree_end)
}

/// Numbers the links that have a property in link order: each link's number, if it has the
/// property, and the link of each number.
fn number_links(links: &[Link], has: impl Fn(&Link) -> bool) -> (Vec<Option<usize>>, Vec<usize>) {
    let (mut number_of_link, mut link_of_number) = (vec![None; links.len()], Vec::new());
    for (j, l) in links.iter().enumerate() {
        if has(l) {
            number_of_link[j] = Some(link_of_number.len());
            link_of_number.push(j);
        }
    }
    (number_of_link, link_of_number)
}

/// The Jacobian columns: first one per coordinate (column k = coordinate k), then one per driven
/// joint with `report_torque`, each with the bodies of its subtree; an error if there are more
/// than [`MAX_COLUMNS`].
fn jacobian_columns(
    links: &[Link],
    subtree_end: &[usize],
    body_link: &[usize],
    dof_link: &[usize],
) -> Result<Vec<Column>, String> {
    let bodies_of = |j: usize| {
        let first = body_link.iter().position(|&l| l >= j).unwrap_or(body_link.len());
        let end = body_link.iter().position(|&l| l >= subtree_end[j]).unwrap_or(body_link.len());
        (first, end)
    };
    let mut columns: Vec<Column> =
        dof_link.iter().enumerate().map(|(k, &j)| Column { link: j, dof: Some(k), bodies: bodies_of(j) }).collect();
    for (j, l) in links.iter().enumerate() {
        if l.report_torque {
            columns.push(Column { link: j, dof: None, bodies: bodies_of(j) });
        }
    }
    if columns.len() > MAX_COLUMNS {
        return Err(format!("{} Jacobian columns exceed the maximum {MAX_COLUMNS}", columns.len()));
    }
    Ok(columns)
}

/// The diagonal blocks `(first, len)` of the mass matrix: a coordinate with a free ancestor joins
/// that ancestor's block; otherwise it starts one. Depth-first order makes every block a
/// contiguous range.
fn mass_matrix_blocks(subtree_end: &[usize], dof_link: &[usize]) -> Vec<(usize, usize)> {
    let mut blocks: Vec<(usize, usize)> = Vec::new();
    for (k, &j) in dof_link.iter().enumerate() {
        let has_free_ancestor = dof_link[..k].iter().any(|&a| j < subtree_end[a] && a < j);
        match blocks.last_mut() {
            Some(b) if has_free_ancestor => b.1 += 1,
            _ => blocks.push((k, 1)),
        }
    }
    blocks
}
