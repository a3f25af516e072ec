//! sctpsim-kernel: the pieces every other crate of the simulator builds on.
//!
//! * [`SimTime`] / [`SimDuration`]: integer nanoseconds (DESIGN.md §1.2). Floating-point
//!   seconds exist only at the edges (scenario parsing in [`units`], results).
//! * [`EventQueue`]: events ordered by `(time, insertion sequence)`, a 4-ary heap that stays
//!   cache-friendly at 10^5–10^6 pending events.
//! * [`SeedTree`] / [`Rng`]: random streams handed out by stable keys, never by creation order
//!   (DESIGN.md §1.3).
//! * [`Packet`] / [`PacketTag`]: bytes plus the metadata every layer carries opaquely.
//! * [`RunManifest`]: what identifies a run (scenario hash, seed, version, events, wall time).

pub mod ids;
pub mod manifest;
pub mod packet;
pub mod queue;
pub mod rng;
pub mod seed;
pub mod time;
pub mod units;

pub use ids::{FlowId, IfaceId, LinkId, NodeId};
pub use manifest::RunManifest;
pub use packet::{Packet, PacketTag};
pub use queue::{EventQueue, WakeSlot};
pub use rng::Rng;
pub use seed::{SeedTree, StreamKey};
pub use time::{SimDuration, SimTime};
pub use units::{BitRate, UnitError};
