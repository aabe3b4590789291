//! The states of the active parts: a model that declares every state it may have (one
//! [`crate::declare!`] table) but integrates only those of the parts a configuration switches on
//! keeps their positions in the declared table here. [`crate::Model::n_states`] and
//! [`crate::Model::state_indices`] read it; the equations work on the whole declared vector
//! ([`ActiveStates::spread`]) and hand back the derivatives of the active ones
//! ([`ActiveStates::gather`]).

/// For each state of this configuration, in order, its position in the declared states.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActiveStates {
    slots: Vec<usize>,
}

impl ActiveStates {
    /// The active states at these positions of the declared table, in this order.
    pub fn new(slots: Vec<usize>) -> Self {
        ActiveStates { slots }
    }

    /// Number of active states ([`crate::Model::n_states`]).
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True when no part with states is active.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Positions in the declared table ([`crate::Model::state_indices`]).
    pub fn slots(&self) -> &[usize] {
        &self.slots
    }

    /// The active states `xs` placed at their positions in a declared-size vector, `zero`
    /// elsewhere.
    pub fn spread<D: Copy, const N: usize>(&self, xs: &[D], zero: D) -> [D; N] {
        let mut full = [zero; N];
        for (&slot, &value) in self.slots.iter().zip(xs) {
            full[slot] = value;
        }
        full
    }

    /// The active entries of a declared-size vector `all` (e.g. every state's derivative) into
    /// `out`, in the active states' order.
    pub fn gather<D: Copy>(&self, all: &[D], out: &mut [D]) {
        for (value, &slot) in out.iter_mut().zip(&self.slots) {
            *value = all[slot];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ActiveStates;

    #[test]
    fn spread_and_gather_place_and_pick_the_active_states() {
        let active = ActiveStates::new(vec![3, 0, 4]);
        assert_eq!((active.len(), active.is_empty(), active.slots()), (3, false, &[3, 0, 4][..]));
        let full: [f64; 6] = active.spread(&[1.0, 2.0, 3.0], 0.0);
        assert_eq!(full, [2.0, 0.0, 0.0, 1.0, 3.0, 0.0]);
        let mut out = [0.0; 3];
        active.gather(&[10.0, 11.0, 12.0, 13.0, 14.0, 15.0], &mut out);
        assert_eq!(out, [13.0, 10.0, 14.0]);
        assert!(ActiveStates::default().is_empty());
    }
}
