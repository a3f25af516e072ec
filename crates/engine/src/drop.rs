//! Why a packet was lost: one reason per place a packet can end without being delivered, so
//! that every drop of a flow's packet is attributed to the flow (by its [`PacketTag`]) and to
//! its cause, wired and wireless alike (`docs/metrics.md`, "Drops").
//!
//! [`PacketTag`]: sctpsim_kernel::PacketTag

use sctpsim_proto::routing::RouteDropReason;

/// Why a packet was dropped.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DropReason {
    /// A full queue: a link's drop-tail queue or a wireless interface queue.
    Queue,
    /// The 802.11 MAC gave up at a retry limit (no routing protocol took the packet back).
    MacRetryLimit,
    /// No route: the node's FIB has none, or the routing protocol found none.
    NoRoute,
    /// A routing protocol's send buffer was full.
    SendBufferFull,
    /// The packet waited in a routing protocol's send buffer past its timeout.
    SendBufferTimeout,
    /// The next hop's link broke and the routing protocol could not salvage the packet.
    LinkBroken,
    /// The TTL reached zero while forwarding.
    TtlExpired,
    /// A link's random loss model.
    Loss,
    /// A scripted drop (`link.drops`).
    Scripted,
    /// A link outage (`link.outages`).
    Outage,
    /// A station not associated with any AP (infrastructure mode).
    Unassociated,
    /// Mobile IP: a mobile node with no agent to send through, or a tunnelled packet for a
    /// node that is not (or no longer) a visitor of the foreign agent (RFC 5944 §4.2.2).
    NoAgent,
}

impl DropReason {
    /// Every reason, in output order.
    pub const ALL: [DropReason; 12] = [
        DropReason::Queue,
        DropReason::MacRetryLimit,
        DropReason::NoRoute,
        DropReason::SendBufferFull,
        DropReason::SendBufferTimeout,
        DropReason::LinkBroken,
        DropReason::TtlExpired,
        DropReason::Loss,
        DropReason::Scripted,
        DropReason::Outage,
        DropReason::Unassociated,
        DropReason::NoAgent,
    ];

    /// Name in results (`drops.parquet`, the `dir` of `dropped_seq`/`dropped_tsn` rows).
    pub fn name(self) -> &'static str {
        match self {
            DropReason::Queue => "queue",
            DropReason::MacRetryLimit => "mac_retry_limit",
            DropReason::NoRoute => "no_route",
            DropReason::SendBufferFull => "send_buffer_full",
            DropReason::SendBufferTimeout => "send_buffer_timeout",
            DropReason::LinkBroken => "link_broken",
            DropReason::TtlExpired => "ttl_expired",
            DropReason::Loss => "loss",
            DropReason::Scripted => "scripted",
            DropReason::Outage => "outage",
            DropReason::Unassociated => "unassociated",
            DropReason::NoAgent => "no_agent",
        }
    }
}

impl From<RouteDropReason> for DropReason {
    fn from(r: RouteDropReason) -> Self {
        match r {
            RouteDropReason::NoRoute => DropReason::NoRoute,
            RouteDropReason::SendBufferFull => DropReason::SendBufferFull,
            RouteDropReason::SendBufferTimeout => DropReason::SendBufferTimeout,
            RouteDropReason::TtlExpired => DropReason::TtlExpired,
            RouteDropReason::LinkBroken => DropReason::LinkBroken,
        }
    }
}
