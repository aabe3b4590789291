//! Mode shapes of elastic blades: which states of a linear model are the displacement and
//! rotation of a blade station, the shape of a mode along the span, and its name (1st flap, 2nd
//! lag, 1st torsion cyclic regressive, ...).
//!
//! A *station* state is `INSTANCE.state.blade[b].node[k].P.C` in the rotating frame, or
//! `INSTANCE.node[k].P.C.M` in multiblade coordinates ([`crate::Rotors::multiblade`]: `M` is
//! `0`, `1c`, `1s`, ..., `d`), with `P` the elastic displacement `u` (m) or rotation vector
//! `psi` (rad) and `C` the component `x` (outboard), `y` (lead), `z` (up) in the blade's pitch
//! frame (RotorElastic's states). Their rates (`v`, `w`) carry no shape of their own: for an
//! eigenvector they are `lambda` times the coordinates.

use std::collections::BTreeMap;

use cosim::linear::{LinearModel, Mode};
use cosim::master::{Master, MasterError};

use crate::RotorFrame;
use nalgebra::{Complex, DVector};

/// The six coordinates of a station in their order: `u.x`, `u.y`, `u.z` (m), `psi.x`,
/// `psi.y`, `psi.z` (rad).
pub const STATION_COMPONENTS: [&str; 6] = ["u.x", "u.y", "u.z", "psi.x", "psi.y", "psi.z"];

/// Where the states of one station of one blade (or multiblade coordinate) are.
#[derive(Debug, Clone, PartialEq)]
pub struct Station {
    /// Node number from the clamp, 1, 2, ...
    pub node: usize,
    /// Undeformed radius of the node, m (the node number where the model declares none).
    pub radius: f64,
    /// Index in the model's states of each of [`STATION_COMPONENTS`], if present.
    pub states: [Option<usize>; 6],
}

/// The stations of one blade of a rotor instance, or of one of its multiblade coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct BladeStations {
    /// The rotor instance.
    pub instance: String,
    /// The blade number (`1`, `2`, ...) or multiblade coordinate (`0`, `1c`, `1s`, ..., `d`).
    pub blade: String,
    /// The stations, from the clamp outwards.
    pub stations: Vec<Station>,
}

/// The undeformed node radii of each instance that declares them (outputs `node[k].r`,
/// k = 1, 2, ...: RotorElastic's), m, read at the master's current point; zero radii (unused
/// nodes) dropped.
pub fn station_radii(master: &mut Master) -> Result<BTreeMap<String, Vec<f64>>, MasterError> {
    let mut found = Vec::new();
    for (instance, md) in master.instance_descriptions() {
        let names: Vec<String> = (1..)
            .map(|k| format!("node[{k}].r"))
            .take_while(|name| md.variable(name).is_some_and(|v| v.is_output()))
            .collect();
        if !names.is_empty() {
            found.push((instance.to_string(), names));
        }
    }
    let mut radii = BTreeMap::new();
    for (instance, names) in found {
        let values = master.real_values(&instance, &names)?;
        radii.insert(instance, values.into_iter().take_while(|&r| r > 0.0).collect());
    }
    Ok(radii)
}

/// A station state's name split: instance, blade or multiblade coordinate, node, component
/// (index into [`STATION_COMPONENTS`]).
fn parse_station(name: &str) -> Option<(String, String, usize, usize)> {
    let at = name.find(".node[")?;
    let (head, tail) = (&name[..at], &name[at + ".node[".len()..]);
    let (node, rest) = tail.split_once("].")?;
    let node: usize = node.parse().ok().filter(|&k| k >= 1)?;
    let parts: Vec<&str> = rest.split('.').collect();
    let component = |p: &str, c: &str| STATION_COMPONENTS.iter().position(|s| *s == format!("{p}.{c}"));
    match (head.split_once(".state.blade["), parts.as_slice()) {
        (Some((instance, blade)), [p, c]) => {
            let blade = blade.strip_suffix(']').filter(|b| b.parse::<usize>().is_ok())?;
            Some((instance.to_string(), blade.to_string(), node, component(p, c)?))
        }
        (None, [p, c, coordinate]) if is_multiblade_coordinate(coordinate) => {
            Some((head.to_string(), coordinate.to_string(), node, component(p, c)?))
        }
        _ => None,
    }
}

/// A multiblade coordinate's name: `0`, `d`, or `nc`/`ns` with n = 1, 2, ...
fn is_multiblade_coordinate(name: &str) -> bool {
    match name {
        "0" | "d" => true,
        _ => {
            name.len() >= 2
                && (name.ends_with('c') || name.ends_with('s'))
                && name[..name.len() - 1].parse::<usize>().is_ok_and(|n| n >= 1)
        }
    }
}

/// The blade stations among `states` (a linear model's state names), with the radii of
/// [`station_radii`] (the node number for an instance without them), in the order of first
/// appearance.
pub fn blade_stations(states: &[String], radii: &BTreeMap<String, Vec<f64>>) -> Vec<BladeStations> {
    let mut blades: Vec<BladeStations> = Vec::new();
    for (i, name) in states.iter().enumerate() {
        let Some((instance, blade, node, component)) = parse_station(name) else { continue };
        let index = match blades.iter().position(|b| b.instance == instance && b.blade == blade) {
            Some(index) => index,
            None => {
                blades.push(BladeStations { instance, blade, stations: Vec::new() });
                blades.len() - 1
            }
        };
        let entry = &mut blades[index];
        let radius = radii.get(&entry.instance).and_then(|r| r.get(node - 1)).copied().unwrap_or(node as f64);
        let station = match entry.stations.iter().position(|s| s.node == node) {
            Some(s) => &mut entry.stations[s],
            None => {
                entry.stations.push(Station { node, radius, states: [None; 6] });
                entry.stations.last_mut().expect("just pushed")
            }
        };
        station.states[component] = Some(i);
    }
    for blade in &mut blades {
        blade.stations.sort_by_key(|s| s.node);
    }
    blades
}

/// What a blade mode mostly is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum BladeModeKind {
    /// Out of the plane: `u.z`, `psi.y`.
    Flap,
    /// In the plane: `u.y`, `psi.z`.
    Lag,
    /// Twist: `psi.x`.
    Torsion,
    /// Extension: `u.x`.
    Axial,
}

impl BladeModeKind {
    /// The component ([`STATION_COMPONENTS`]) a shape of the kind is scaled by: `u.z` for
    /// flap, `u.y` for lag, `psi.x` for torsion, `u.x` for axial.
    pub fn component(self) -> usize {
        match self {
            BladeModeKind::Flap => 2,
            BladeModeKind::Lag => 1,
            BladeModeKind::Torsion => 3,
            BladeModeKind::Axial => 0,
        }
    }

    /// The word of the kind.
    pub fn word(self) -> &'static str {
        match self {
            BladeModeKind::Flap => "flap",
            BladeModeKind::Lag => "lag",
            BladeModeKind::Torsion => "torsion",
            BladeModeKind::Axial => "axial",
        }
    }
}

/// One blade's (or multiblade coordinate's) shape: per station, the six coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct BladeShape {
    /// The rotor instance.
    pub instance: String,
    /// Blade number or multiblade coordinate.
    pub blade: String,
    /// `(node, radius m, [u.x, u.y, u.z (m), psi.x, psi.y, psi.z (rad)])` per station.
    pub stations: Vec<(usize, f64, [Complex<f64>; 6])>,
}

/// The shape of one mode over the blade stations, and its name.
#[derive(Debug, Clone, PartialEq)]
pub struct ModeShape {
    /// Index of the mode in the list it came from.
    pub mode: usize,
    /// What the mode mostly is (see [`ModeShape::kind_shares`]); the shape is scaled so that
    /// the largest value of the kind's component ([`BladeModeKind::component`]) is real and 1.
    pub kind: BladeModeKind,
    /// Multiblade coordinate class: `collective`, `cyclic`, `cyclic2`, ..., `differential`,
    /// with `regressive`/`progressive` for the cyclic ones; empty in the rotating frame.
    pub coordinate: String,
    /// The blade mode's name: rank and kind, e.g. `1st flap`, `2nd lag cyclic regressive`
    /// (set by [`name_shapes`]).
    pub name: String,
    /// The shapes, blade by blade.
    pub blades: Vec<BladeShape>,
}

/// The values of the eigenvector `v` (of the states the `stations` index) at the stations,
/// unscaled; `None` where `v` has no station part.
pub fn station_shape(stations: &[BladeStations], v: &DVector<Complex<f64>>) -> Option<Vec<BladeShape>> {
    let blades: Vec<BladeShape> = stations
        .iter()
        .map(|blade| BladeShape {
            instance: blade.instance.clone(),
            blade: blade.blade.clone(),
            stations: blade
                .stations
                .iter()
                .map(|s| {
                    (s.node, s.radius, std::array::from_fn(|c| s.states[c].map_or(Complex::new(0.0, 0.0), |i| v[i])))
                })
                .collect(),
        })
        .collect();
    let any = blades.iter().flat_map(|b| &b.stations).any(|s| s.2.iter().any(|c| c.norm() > 0.0));
    any.then_some(blades)
}

/// `blades` scaled by one complex factor so that the largest value of component `c` (index
/// into [`STATION_COMPONENTS`]) over the stations is real and 1.
fn normalised(mut blades: Vec<BladeShape>, c: usize) -> Vec<BladeShape> {
    let largest = blades
        .iter()
        .flat_map(|b| &b.stations)
        .map(|s| s.2[c])
        .max_by(|p, q| p.norm().total_cmp(&q.norm()))
        .unwrap_or_default();
    if largest.norm() > 0.0 && largest.norm().is_finite() {
        let scale = largest.inv();
        for q in blades.iter_mut().flat_map(|b| b.stations.iter_mut()) {
            q.2 = q.2.map(|x| x * scale);
        }
    }
    blades
}

impl ModeShape {
    /// The shares of flap (`u.z`, `psi.y L`), lag (`u.y`, `psi.z L`), torsion (`psi.x L`) and
    /// axial (`u.x`) in the squared norm of the shape, rotations times the span `L` of the
    /// stations (1 m without one).
    pub fn kind_shares(blades: &[BladeShape]) -> [(BladeModeKind, f64); 4] {
        let radii = blades.iter().flat_map(|b| b.stations.iter().map(|s| s.1));
        let (lo, hi) = radii.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), r| (lo.min(r), hi.max(r)));
        let span = if hi > lo { hi - lo } else { 1.0 };
        let mut sums = [0.0; 4];
        for (_, _, q) in blades.iter().flat_map(|b| &b.stations) {
            let sq = |c: usize| q[c].norm_sqr() * if c < 3 { 1.0 } else { span * span };
            sums[0] += sq(2) + sq(4);
            sums[1] += sq(1) + sq(5);
            sums[2] += sq(3);
            sums[3] += sq(0);
        }
        let total: f64 = sums.iter().sum::<f64>().max(f64::MIN_POSITIVE);
        let kinds = [BladeModeKind::Flap, BladeModeKind::Lag, BladeModeKind::Torsion, BladeModeKind::Axial];
        std::array::from_fn(|k| (kinds[k], sums[k] / total))
    }

    /// The shape of `mode` (number `index` in its list) of `model` over `stations` from the
    /// eigenvector `v` of its eigenvalue in multiblade coordinate class `class` (if known, see
    /// [`mode_vector`]), with the rotors `rotors` (for regressive and progressive): its kind and
    /// multiblade coordinate class, not yet named (see [`name_shapes`]); `None` for a mode
    /// without station part.
    fn of(
        index: usize,
        (v, class): (&DVector<Complex<f64>>, Option<&str>),
        stations: &[BladeStations],
        rotors: &[RotorFrame],
        frequency: f64,
    ) -> Option<ModeShape> {
        let blades = station_shape(stations, v)?;
        let shares = Self::kind_shares(&blades);
        let kind = shares.iter().max_by(|a, b| a.1.total_cmp(&b.1)).map(|s| s.0).expect("four kinds");
        let blades = normalised(blades, kind.component());
        let coordinate = coordinate_name(&blades, class, rotors, frequency);
        Some(ModeShape { mode: index, kind, coordinate, name: String::new(), blades })
    }
}

/// The multiblade coordinate class of a multiblade coordinate: `collective` (`0`), `cyclic`
/// (`1c`, `1s`), `cyclicN` (`Nc`, `Ns`), `differential` (`d`).
fn class_of(coordinate: &str) -> String {
    match coordinate {
        "0" => "collective".to_string(),
        "d" => "differential".to_string(),
        "1c" | "1s" => "cyclic".to_string(),
        c => format!("cyclic{}", &c[..c.len() - 1]),
    }
}

/// The states of each multiblade coordinate class ([`class_of`]) among `states`: the names
/// that end in a multiblade coordinate (rates `_rate` included), in first-use order.
pub(crate) fn coordinate_classes(states: &[String]) -> Vec<(String, Vec<usize>)> {
    let mut classes: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, name) in states.iter().enumerate() {
        let Some((_, last)) = name.rsplit_once('.') else { continue };
        let last = last.strip_suffix("_rate").unwrap_or(last);
        if !is_multiblade_coordinate(last) {
            continue;
        }
        let class = class_of(last);
        match classes.iter_mut().find(|(c, _)| *c == class) {
            Some((_, members)) => members.push(i),
            None => classes.push((class, vec![i])),
        }
    }
    classes
}

/// Largest relative residual `|A v - lambda v| / (|lambda| |v|)` of a vector accepted as an
/// eigenvector of one multiblade coordinate class alone.
const CLASS_RESIDUAL: f64 = 1e-6;

/// The eigenvector of `model` for `lambda` and its multiblade coordinate class: where the
/// class's states (`classes`, [`coordinate_classes`]) alone have an eigenvector of `lambda`
/// (residual in the whole model below [`CLASS_RESIDUAL`]: an axisymmetric rotor, whose
/// collective, cyclic and differential coordinates decouple), the smallest-residual one of the
/// classes not in `taken` (the classes of the earlier modes of the same, repeated eigenvalue, so
/// a collective and a differential mode of equal frequency each get their own); else the
/// eigenvector of the whole model and no class.
pub(crate) fn mode_vector(
    model: &LinearModel,
    lambda: Complex<f64>,
    classes: &[(String, Vec<usize>)],
    taken: &[String],
) -> (DVector<Complex<f64>>, Option<String>) {
    let n = model.state_names.len();
    let a = model.a.map(|x| Complex::new(x, 0.0));
    let mut best: Option<(f64, DVector<Complex<f64>>, &str)> = None;
    for (class, members) in classes.iter().filter(|(c, _)| !taken.contains(c)) {
        let others: Vec<usize> = (0..n).filter(|i| !members.contains(i)).collect();
        let part = model.without_states(&others).eigenvector(lambda);
        let mut v = DVector::zeros(n);
        for (k, &i) in members.iter().enumerate() {
            v[i] = part[k];
        }
        let residual = (&a * &v - &v * lambda).norm() / (lambda.norm() * v.norm()).max(f64::MIN_POSITIVE);
        if best.as_ref().is_none_or(|b| residual < b.0) {
            best = Some((residual, v, class));
        }
    }
    match best {
        Some((residual, v, class)) if residual < CLASS_RESIDUAL => (v, Some(class.to_string())),
        _ => (model.eigenvector(lambda), None),
    }
}

/// The whirl of the cyclic coordinates `Nc`, `Ns` (`prefix` `N`) of a shape:
/// `sum Im(conj(q_Nc) q_Ns)`, positive where the tilt turns against the rotor (`q_Nc = cos w t`,
/// `q_Ns = -sin w t` with `exp(i w t)`), negative where it turns with it.
fn whirl(blades: &[BladeShape], prefix: &str) -> f64 {
    let part = |suffix: &str| blades.iter().find(|x| x.blade == format!("{prefix}{suffix}"));
    match (part("c"), part("s")) {
        (Some(c), Some(s)) => c
            .stations
            .iter()
            .zip(&s.stations)
            .flat_map(|(p, q)| p.2.iter().zip(&q.2))
            .map(|(a, b)| (a.conj() * b).im)
            .sum(),
        _ => 0.0,
    }
}

/// The multiblade coordinate name of a shape: its class (`class`, else the coordinate with the
/// largest squared norm: `0` collective, `nc`/`ns` cyclic n, `d` differential), a cyclic one
/// `progressive` where its tilt turns with the rotor ([`whirl`]) faster than the rotor turns
/// (the `omega + n Omega` branch of a rotating-frame frequency `omega`), else `regressive` (the
/// `omega - n Omega` branch, also where it turns with the rotor more slowly: a lag mode below
/// `n Omega`). Empty for blade numbers (the rotating frame).
fn coordinate_name(blades: &[BladeShape], class: Option<&str>, rotors: &[RotorFrame], frequency: f64) -> String {
    let norm = |b: &BladeShape| b.stations.iter().map(|s| s.2.iter().map(|c| c.norm_sqr()).sum::<f64>()).sum::<f64>();
    let Some(top) = blades.iter().max_by(|a, b| norm(a).total_cmp(&norm(b))) else { return String::new() };
    let class = match class {
        Some(class) => class.to_string(),
        None if is_multiblade_coordinate(&top.blade) => class_of(&top.blade),
        None => return String::new(),
    };
    let Some(n) = class.strip_prefix("cyclic") else { return class };
    let harmonic = if n.is_empty() { "1" } else { n };
    let omega = rotors.iter().find(|r| r.instance == top.instance).map_or(0.0, |r| r.omega.abs());
    let order: f64 = harmonic.parse().unwrap_or(1.0);
    let with_rotor = whirl(blades, harmonic) < 0.0;
    let direction = if with_rotor && frequency > order * omega { "progressive" } else { "regressive" };
    format!("{class} {direction}")
}

/// Names the shapes of one point (in order of frequency): the rank of each among the shapes of
/// its kind and coordinate class, e.g. `1st flap`, `2nd lag`, `1st flap cyclic progressive`.
pub fn name_shapes(shapes: &mut [ModeShape]) {
    let mut counts: BTreeMap<(String, BladeModeKind, String), usize> = BTreeMap::new();
    for shape in shapes.iter_mut() {
        let instance = shape.blades.first().map(|b| b.instance.clone()).unwrap_or_default();
        let rank = counts.entry((instance, shape.kind, shape.coordinate.clone())).or_insert(0);
        *rank += 1;
        let ordinal = match *rank {
            1 => "1st".to_string(),
            2 => "2nd".to_string(),
            3 => "3rd".to_string(),
            n => format!("{n}th"),
        };
        shape.name = format!("{ordinal} {}", shape.kind.word());
        if !shape.coordinate.is_empty() {
            shape.name = format!("{} {}", shape.name, shape.coordinate);
        }
    }
}

/// The shapes of the lowest `count` oscillatory modes among `modes` (of `model`, sorted by
/// frequency) over the blade stations of `model`'s states (radii from [`station_radii`]), named
/// ([`name_shapes`]; cyclic modes regressive or progressive with the shaft speeds of `rotors`);
/// empty without stations. In multiblade coordinates each shape is that of one coordinate class
/// where the classes decouple (the residual test of `mode_vector`).
pub fn mode_shapes(
    model: &LinearModel,
    modes: &[Mode],
    radii: &BTreeMap<String, Vec<f64>>,
    rotors: &[RotorFrame],
    count: usize,
) -> Vec<ModeShape> {
    let stations = blade_stations(&model.state_names, radii);
    if stations.is_empty() {
        return Vec::new();
    }
    let classes = coordinate_classes(&model.state_names);
    let mut shapes: Vec<ModeShape> = Vec::new();
    let mut found: Vec<(Complex<f64>, String)> = Vec::new();
    for (index, mode) in modes.iter().enumerate().filter(|(_, m)| m.eigenvalue.im > 0.0) {
        if shapes.len() == count {
            break;
        }
        let lambda = mode.eigenvalue;
        let taken: Vec<String> = found
            .iter()
            .filter(|(l, _)| (l - lambda).norm() <= 1e-6 * (1.0 + lambda.norm()))
            .map(|(_, c)| c.clone())
            .collect();
        let (v, class) = mode_vector(model, lambda, &classes, &taken);
        if let Some(class) = &class {
            found.push((lambda, class.clone()));
        }
        let frequency = lambda.im.abs();
        shapes.extend(ModeShape::of(index, (&v, class.as_deref()), stations.as_slice(), rotors, frequency));
    }
    name_shapes(&mut shapes);
    shapes
}
