//! A packet in flight: the real IPv4 bytes plus simulator metadata that never goes on the wire
//! (the flow it belongs to, a unique id for traces) — the role of ns-3 packet tags. Defined in
//! the kernel so that MACs and routers carry the tag too (`sctpsim_kernel::packet`).

pub use sctpsim_kernel::{Packet, PacketTag};
