//! Typed handles of the master: which unit, which of its driven inputs or read outputs, which
//! node of the feedthrough graph, which loop. Each indexes the vectors of its kind (`units[u]`,
//! `in_values[j]`, `node_values[p]`, `loops[l]`), so a handle of one kind cannot be taken for
//! another.

use std::ops::{Index, IndexMut};

/// Defines a `usize` newtype handle that indexes slices and vectors.
macro_rules! handle {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        pub(super) struct $name(pub(super) usize);

        impl<T> Index<$name> for [T] {
            type Output = T;
            fn index(&self, id: $name) -> &T {
                &self[id.0]
            }
        }

        impl<T> IndexMut<$name> for [T] {
            fn index_mut(&mut self, id: $name) -> &mut T {
                &mut self[id.0]
            }
        }

        impl<T> Index<$name> for Vec<T> {
            type Output = T;
            fn index(&self, id: $name) -> &T {
                &self[id.0]
            }
        }

        impl<T> IndexMut<$name> for Vec<T> {
            fn index_mut(&mut self, id: $name) -> &mut T {
                &mut self[id.0]
            }
        }
    };
}

handle!(
    /// A unit: an instance of the system, in the order of `System::instances`.
    UnitId
);
handle!(
    /// A driven Real input of a unit: its position among the unit's `in_vrs`.
    InputId
);
handle!(
    /// A read Real output of a unit: its position among the unit's `out_vrs`.
    OutputId
);
handle!(
    /// A node of the feedthrough graph (a connected output): its position in the plan's `nodes`.
    NodeId
);
handle!(
    /// An algebraic loop: its position in the plan's `loops`.
    LoopId
);

handle!(
    /// A discrete (Integer, Enumeration, Boolean) variable the master reads or sets: its slot in
    /// the discrete exchange's values.
    SlotId
);

/// A driven Real input of the system: which unit, which of its inputs.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(super) struct InputRef {
    pub(super) unit: UnitId,
    pub(super) input: InputId,
}

/// A read Real output of the system: which unit, which of its outputs.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(super) struct OutputRef {
    pub(super) unit: UnitId,
    pub(super) output: OutputId,
}
