//! A packet as the layers hand it on: the real IPv4 bytes plus simulator metadata that never
//! goes on the wire — the role of ns-3's packet tags. The tag is opaque to every protocol: MAC
//! queues, MAC events, the wireless channel and routers carry it unchanged from the transport
//! that made the packet to wherever the packet ends (delivered, or dropped), so that every drop
//! is attributed to its flow without guessing it back from the headers.

use crate::FlowId;

/// Simulator metadata of a packet. Protocols never read it; they return it with the packet.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PacketTag {
    /// The flow whose transport or application made the packet (`None`: routing control, ICMP,
    /// beacons, MAC management).
    pub flow: Option<FlowId>,
    /// Unique per run, in creation order (0: made by a protocol, e.g. a routing message).
    pub uid: u64,
}

/// An IPv4 packet (header included) with its tag.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Packet {
    /// The encoded IPv4 packet.
    pub bytes: Vec<u8>,
    /// Its metadata.
    pub tag: PacketTag,
}

impl Packet {
    /// A packet made by a protocol (no flow, uid 0): routing control traffic and the like.
    pub fn untagged(bytes: Vec<u8>) -> Packet {
        Packet {
            bytes,
            tag: PacketTag::default(),
        }
    }

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
