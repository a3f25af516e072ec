//! Small typed indices. They are plain `u32` newtypes so that a node index can never be passed
//! where a link index is expected.

use core::fmt;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(pub u32);

        impl $name {
            /// The index as a `usize`, for indexing the owning vector.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

id_type!(
    /// Index of a node in the simulation (the order of `[[node]]` in the scenario).
    NodeId,
    "node"
);
id_type!(
    /// Index of a point-to-point link (the order of `[[link]]` in the scenario).
    LinkId,
    "link"
);
id_type!(
    /// Index of an interface within its node.
    IfaceId,
    "if"
);
id_type!(
    /// Index of a flow (the order of `[[flows]]` in the scenario).
    FlowId,
    "flow"
);
