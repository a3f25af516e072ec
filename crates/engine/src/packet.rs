//! A packet in flight: the real IPv4 bytes plus simulator metadata that never goes on the wire
//! (the flow it belongs to, a unique id for traces) — the role of ns-3 packet tags.

use sctpsim_kernel::FlowId;

/// An IPv4 packet with simulator-only metadata.
#[derive(Clone, Debug)]
pub struct Packet {
    /// The encoded IPv4 packet, header included.
    pub bytes: Vec<u8>,
    /// The flow whose application created it (`None` for ICMP and control traffic).
    pub flow: Option<FlowId>,
    /// Unique per run, in creation order.
    pub uid: u64,
}

impl Packet {
    /// Length on the wire in bytes.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the packet is empty (never, for a valid packet).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}
