//! The mode-naming rules of rotorcraft: blade states grouped, multiblade coordinates named, cyclic
//! modes regressive or progressive.

use cosim::linear::{Mode, ModeNaming};

use crate::RotorFrame;

/// The [`ModeNaming`] of rotorcraft: states grouped by [`state_group`], and the cyclic modes of
/// the rotors in `rotors` (states in multiblade coordinates) named *regressive* below the
/// rotor's speed and *progressive* above it (fixed-frame frequency; true for blade frequencies
/// below 2 Omega). With no rotors, modes keep their group's name.
#[derive(Debug, Clone, Copy, Default)]
pub struct RotorNaming<'a> {
    /// The rotors whose cyclic modes are labelled.
    pub rotors: &'a [RotorFrame],
}

impl ModeNaming for RotorNaming<'_> {
    fn group(&self, state: &str) -> String {
        state_group(state)
    }

    fn label(&self, mode: &mut Mode) {
        if mode.name.ends_with(".cyclic")
            && let Some(rotor) = self.rotors.iter().find(|r| mode.name.starts_with(&format!("{}.", r.instance)))
        {
            mode.name += if mode.eigenvalue.im.abs() < rotor.omega.abs() { " regressive" } else { " progressive" };
        }
    }
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
