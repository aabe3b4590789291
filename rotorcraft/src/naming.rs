//! The mode-naming rules of rotorcraft: blade states grouped, multiblade coordinates named, cyclic
//! modes regressive or progressive.

use cosim::linear::{LinearModel, Mode, ModeNaming};
use nalgebra::Complex;

use crate::RotorFrame;
use crate::shapes::{coordinate_classes, mode_vector};

/// The [`ModeNaming`] of rotorcraft: states grouped by [`state_group`], and the cyclic modes of
/// the rotors in `rotors` (states in multiblade coordinates) named *progressive* where they are
/// the `omega + Omega` branch of a rotating-frame blade frequency `omega`, else *regressive*
/// (the `|omega - Omega|` branch): progressive where the fixed-frame frequency is above the
/// rotor's speed and, with `model`, the eigenvector's cyclic coordinate pairs also turn with
/// the rotor (whirl `sum Im(conj(v_1c) v_1s)`; a regressive mode of `omega > 2 Omega` is above
/// the rotor's speed too, but turns against it). Without `model` (Floquet exponents) by the frequency
/// alone, true for blade frequencies below `2 Omega`. With no rotors, modes keep their group's
/// name.
#[derive(Debug, Clone, Copy, Default)]
pub struct RotorNaming<'a> {
    /// The rotors whose cyclic modes are labelled.
    pub rotors: &'a [RotorFrame],
    /// The linear model whose modes are named, for the whirl of the cyclic ones.
    pub model: Option<&'a LinearModel>,
}

impl ModeNaming for RotorNaming<'_> {
    fn group(&self, state: &str) -> String {
        state_group(state)
    }

    fn label(&self, mode: &mut Mode) {
        if mode.name.ends_with(".cyclic")
            && let Some(rotor) = self.rotors.iter().find(|r| mode.name.starts_with(&format!("{}.", r.instance)))
        {
            let above_rotor_speed = mode.eigenvalue.im.abs() >= rotor.omega.abs();
            let with_rotor =
                || self.model.and_then(|model| turns_with_rotor(model, rotor, mode.eigenvalue)).unwrap_or(true);
            mode.name += if above_rotor_speed && with_rotor() { " progressive" } else { " regressive" };
        }
    }
}

/// Whether the mode of eigenvalue `lambda` of `model` (states in multiblade coordinates) turns
/// with `rotor` in the fixed frame: the whirl `sum Im(conj(v_1c) v_1s)` of its eigenvector `v`
/// over the rotor's cyclic coordinate pairs (`X.1c` with `X.1s`, rates included) for the root
/// of positive frequency is negative where the tilt turns towards increasing blade azimuth
/// (`q_1c = cos w t`, `q_1s = sin w t`: `v_1s = -i v_1c`), the rotor's direction for a positive
/// shaft speed.
/// The eigenvector is that of the cyclic states alone where they decouple ([`mode_vector`]).
/// `None` for a standing mode (whirl below `1e-6` of the pairs' squared norm) or no pairs.
fn turns_with_rotor(model: &LinearModel, rotor: &RotorFrame, lambda: Complex<f64>) -> Option<bool> {
    let names = &model.state_names;
    let pairs: Vec<(usize, usize)> = names
        .iter()
        .enumerate()
        .filter(|(_, name)| name.starts_with(&format!("{}.", rotor.instance)))
        .filter_map(|(c, name)| {
            let sine = match name.strip_suffix(".1c") {
                Some(head) => format!("{head}.1s"),
                None => format!("{}.1s_rate", name.strip_suffix(".1c_rate")?),
            };
            Some((c, names.iter().position(|n| *n == sine)?))
        })
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let lambda = if lambda.im < 0.0 { lambda.conj() } else { lambda };
    let cyclic: Vec<(String, Vec<usize>)> =
        coordinate_classes(names).into_iter().filter(|(class, _)| class == "cyclic").collect();
    let (v, _) = mode_vector(model, lambda, &cyclic, &[]);
    let whirl: f64 = pairs.iter().map(|&(c, s)| (v[c].conj() * v[s]).im).sum();
    let size: f64 = pairs.iter().map(|&(c, s)| v[c].norm_sqr() + v[s].norm_sqr()).sum();
    (whirl.abs() > 1e-6 * size).then_some((whirl < 0.0) == (rotor.omega > 0.0))
}

/// The group a state belongs to: an angle and its rate together, every blade together (in the
/// rotating frame the modes of identical blades are degenerate, so which blade an eigenvector
/// favours is arbitrary): `rotor.state.blade[2].lag_rate` is in `rotor.blade[*].lag`.
pub fn state_group(name: &str) -> String {
    let name = name.replacen(".state.", ".", 1);
    let name = name.strip_suffix("_rate").unwrap_or(&name);
    let mut group = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(start) = rest.find("blade[") {
        let (head, tail) = rest.split_at(start + "blade[".len());
        group.push_str(head);
        match tail.find(']') {
            Some(end) if tail[..end].chars().all(|c| c.is_ascii_digit()) => {
                group.push('*');
                rest = &tail[end..];
            }
            _ => rest = tail,
        }
    }
    group.push_str(rest);
    // Multiblade coordinates: 0 collective, nc and ns cyclic, d differential.
    match group.rsplit_once('.') {
        Some((head, "0")) => format!("{head}.collective"),
        Some((head, "d")) => format!("{head}.differential"),
        Some((head, "1c" | "1s")) => format!("{head}.cyclic"),
        Some((head, tail))
            if tail.len() >= 2
                && (tail.ends_with('c') || tail.ends_with('s'))
                && tail[..tail.len() - 1].chars().all(|c| c.is_ascii_digit()) =>
        {
            format!("{head}.cyclic{}", &tail[..tail.len() - 1])
        }
        _ => group,
    }
}
