//! A-SCTP (Argyriou & Madisetti 2004, §3 "Protocol modifications"): one peer address reached
//! over several node-disjoint routes that DSR hands to the transport, each route an SCTP path
//! with its own cwnd, RTO, error counter and heartbeats. The option ([`Multipath::Asctp`]) and
//! its constants live here; the rules are in `association/asctp.rs`, the per-path TSN range
//! rule in `retransmit.rs` (`process_sack`). The association stays sans-IO: it sees route
//! paths as path keys and hop counts; the engine's path manager (`sim/sctp/asctp.rs`) asks
//! DSR for the routes and pins each packet to the route of its path.
//!
//! Path keys: a path is identified inside the association by an IPv4 address. The first route
//! to a peer address uses the address itself; every further route to it gets an alias key from
//! `0.0.0.0/8` ([`alias_key`]), a block that is never a destination (RFC 1122 §3.2.1.3: "this
//! host on this network", source-only). Packets to an alias path still go to the peer address
//! ([`super::path::Path::wire`]); the key never appears on the wire except inside our own
//! Heartbeat Information, which the peer echoes unread (RFC 9260 §8.3).

use std::net::Ipv4Addr;

/// Multipath operation of an association.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Multipath {
    /// Plain SCTP: one path per peer address (RFC 9260 §6.4).
    #[default]
    Off,
    /// A-SCTP (Argyriou & Madisetti 2004 §3): several route paths to one peer address, data
    /// on the best one, heartbeats every RTO, a path inactive after two failed heartbeats,
    /// an immediate switch when the routing protocol reports that the data path's route
    /// broke, and the per-path TSN range rule for miss indications.
    Asctp,
}

impl Multipath {
    /// The scenario name: `off`, `asctp`.
    pub fn name(self) -> &'static str {
        match self {
            Multipath::Off => "off",
            Multipath::Asctp => "asctp",
        }
    }

    /// The option of a scenario name, `None` for an unknown one.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "off" => Some(Multipath::Off),
            "asctp" => Some(Multipath::Asctp),
            _ => None,
        }
    }
}

/// Argyriou & Madisetti 2004 §3: "after two Heartbeat retransmissions fail, we mark a specific
/// path inactive" — and §3, §4: the sender switches "after the 2RTO Heartbeat timer expires on
/// the primary path". A path's error counter reaching this value makes it inactive (RFC 9260
/// §8.2 needs Path.Max.Retrans + 1 = 6 failures by default).
pub const ASCTP_FAILURES_TO_INACTIVE: u32 = 2;

/// What the path manager knows of the route of a path (A-SCTP).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PathRoute {
    /// Not a route path: a plain SCTP destination (every path without A-SCTP, and peer
    /// addresses the path manager does not route).
    #[default]
    Unmanaged,
    /// A route path whose route is gone (the routing protocol no longer has it). Not
    /// heartbeated and not usable, except as the data path when no other path is usable: its
    /// packets then follow the routing protocol's own choice (which may discover a route).
    Lost,
    /// A route path over a route of `hops` hops.
    Route {
        /// Hops from the sender to the peer.
        hops: u32,
    },
}

impl PathRoute {
    /// The order of "best route" (§3: "The modified SCTP assigns the best path to the main
    /// data flow"): fewest hops first; paths without a known route last.
    pub fn rank(self) -> u32 {
        match self {
            PathRoute::Route { hops } => hops,
            PathRoute::Unmanaged => u32::MAX - 1,
            PathRoute::Lost => u32::MAX,
        }
    }
}

/// The alias key of the `k`-th extra route path (k ≥ 1): `0.0.0.k` for k < 2^24 (see the
/// module documentation).
pub fn alias_key(k: u32) -> Ipv4Addr {
    Ipv4Addr::from(k.clamp(1, 0x00ff_ffff))
}

/// Whether `addr` is an alias key (in `0.0.0.0/8`, not the unspecified address).
pub fn is_alias_key(addr: Ipv4Addr) -> bool {
    addr.octets()[0] == 0 && !addr.is_unspecified()
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn names_keys_and_ranks() {
        for m in [Multipath::Off, Multipath::Asctp] {
            assert_eq!(Multipath::from_name(m.name()), Some(m));
        }
        assert_eq!(Multipath::from_name("cmt"), None);
        assert_eq!(alias_key(1), Ipv4Addr::new(0, 0, 0, 1));
        assert_eq!(alias_key(0), Ipv4Addr::new(0, 0, 0, 1));
        assert!(is_alias_key(alias_key(300)));
        assert!(!is_alias_key(Ipv4Addr::UNSPECIFIED));
        assert!(!is_alias_key(Ipv4Addr::new(10, 0, 0, 1)));
        assert!(PathRoute::Route { hops: 9 }.rank() < PathRoute::Unmanaged.rank());
        assert!(PathRoute::Unmanaged.rank() < PathRoute::Lost.rank());
    }
}
