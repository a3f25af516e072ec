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
    /// CMT-SCTP (Iyengar, Amer & Stewart 2006): new data on every peer address whose cwnd has
    /// room, with the algorithms [`super::cmt::CmtConfig`] selects.
    Cmt,
}

impl Multipath {
    /// The scenario name: `off`, `asctp`, `cmt`.
    pub fn name(self) -> &'static str {
        match self {
            Multipath::Off => "off",
            Multipath::Asctp => "asctp",
            Multipath::Cmt => "cmt",
        }
    }

    /// The option of a scenario name, `None` for an unknown one.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "off" => Some(Multipath::Off),
            "asctp" => Some(Multipath::Asctp),
            "cmt" => Some(Multipath::Cmt),
            _ => None,
        }
    }
}

/// One switch per A-SCTP rule (`association/asctp.rs`, numbered as there), for ablation
/// studies: with a switch off, that rule gives way to plain SCTP's behaviour (RFC 9260, or the
/// profile's) while the other rules stay. The default turns every rule on: A-SCTP as the
/// paper describes it (with our two choices, rules 5 and 8). Meaningful only with
/// [`Multipath::Asctp`]; `docs/models/sctp.md`, "A-SCTP", lists what each switch turns off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AsctpRules {
    /// Rule 1, for retransmissions: "The modified SCTP assigns the best path to the main data
    /// flow, while, only Heartbeat messages are sent to the secondary paths" (§3). Fast and
    /// T3 retransmissions go to the data path. Off: they follow RFC 9260 §6.4 ("an active
    /// destination transport address that is different from the last destination address to
    /// which the DATA chunk was sent"), subject to the profile's `fast_rtx_to_alternate` and
    /// `t3_rtx_to_alternate`; new data still goes to the data path only.
    pub retransmit_on_data_path: bool,
    /// Rule 2: "Each endpoint ... sends Heartbeat messages (every RTO)" (§3), on every path
    /// with a route, the data path included. Off: RFC 9260 §8.3 heartbeats (RTO +
    /// HB.interval with jitter, only to idle destinations, none if `heartbeats` is off) on
    /// every path with a route.
    pub heartbeat_every_rto: bool,
    /// Rule 3: "after two Heartbeat retransmissions fail, we mark a specific path inactive"
    /// (§3), Path.Max.Retrans 1 and no RTO back-off after an unanswered heartbeat, so that the
    /// data path is given up "after the 2RTO Heartbeat timer expires" (§3). Off: the
    /// configured `path_max_retrans` and RFC 9260 §8.3's back-off. (A data path that became
    /// inactive is left in both cases, as plain SCTP leaves an inactive primary.)
    pub two_heartbeat_failures: bool,
    /// Rule 4: "DSR notifies SCTP when the primary route fails, so that SCTP switches to a new
    /// path" (§3). Off: the data path's route loss is noted (`PathRoute::Lost`) but data stays
    /// on it until failures make it inactive; a secondary path still becomes inactive at the
    /// notice.
    pub route_notice: bool,
    /// Rule 5 (ours; the paper's aim: "we are sure that the time of sender idleness is
    /// minimum", §3): at a switch away from a failed data path, the window in flight on it is
    /// sent again on the new data path at once (`RtxCause::Failover`). Off: those chunks wait
    /// for their T3-rtx timer, as in plain SCTP.
    pub failover_retransmit: bool,
    /// Rule 6: "the SCTP sender maintains two variables, for each local address, that keep the
    /// lowest and highest TSN sent during the last cwnd round ... the sender does not increase
    /// the Gap Ack reports" for TSNs outside it (§3). Off: every gap report counts a miss
    /// indication (RFC 9260 §7.2.4).
    pub tsn_range: bool,
    /// Rule 7: "with SCTP we maintain congestion control parameters for every path, allowing
    /// thus the maintenance of a distinct state" — "the saved state does not correspond to the
    /// new path" (§3): a path that gets a new route starts with fresh cwnd, ssthresh and RTO
    /// (`Path::renew_route`). Off: it keeps them (it is still probed before it carries data).
    pub fresh_path_state: bool,
    /// Rule 8 (ours, the engine's path manager): the data path is re-pinned to a shorter route
    /// when DSR learns one, as §3 "assigns the best path to the main data flow". Off: the data
    /// path keeps its route until it breaks.
    pub follow_shorter_route: bool,
}

impl AsctpRules {
    /// Every rule on: A-SCTP as implemented (the default).
    pub const ALL: AsctpRules = AsctpRules {
        retransmit_on_data_path: true,
        heartbeat_every_rto: true,
        two_heartbeat_failures: true,
        route_notice: true,
        failover_retransmit: true,
        tsn_range: true,
        fresh_path_state: true,
        follow_shorter_route: true,
    };

    /// The switches by name (the scenario's `asctp_<name>` fields), in rule order.
    pub fn switches(self) -> [(&'static str, bool); 8] {
        [
            ("retransmit_on_data_path", self.retransmit_on_data_path),
            ("heartbeat_every_rto", self.heartbeat_every_rto),
            ("two_heartbeat_failures", self.two_heartbeat_failures),
            ("route_notice", self.route_notice),
            ("failover_retransmit", self.failover_retransmit),
            ("tsn_range", self.tsn_range),
            ("fresh_path_state", self.fresh_path_state),
            ("follow_shorter_route", self.follow_shorter_route),
        ]
    }
}

impl Default for AsctpRules {
    fn default() -> Self {
        AsctpRules::ALL
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
        for m in [Multipath::Off, Multipath::Asctp, Multipath::Cmt] {
            assert_eq!(Multipath::from_name(m.name()), Some(m));
        }
        assert_eq!(Multipath::from_name("cmt-pf"), None);
        assert_eq!(alias_key(1), Ipv4Addr::new(0, 0, 0, 1));
        assert_eq!(alias_key(0), Ipv4Addr::new(0, 0, 0, 1));
        assert!(is_alias_key(alias_key(300)));
        assert!(!is_alias_key(Ipv4Addr::UNSPECIFIED));
        assert!(!is_alias_key(Ipv4Addr::new(10, 0, 0, 1)));
        assert!(PathRoute::Route { hops: 9 }.rank() < PathRoute::Unmanaged.rank());
        assert!(PathRoute::Unmanaged.rank() < PathRoute::Lost.rank());
        let on = AsctpRules::default();
        assert_eq!(on, AsctpRules::ALL);
        assert!(on.switches().iter().all(|(_, v)| *v));
        let off = AsctpRules {
            tsn_range: false,
            ..on
        };
        assert_eq!(
            off.switches()
                .iter()
                .filter(|(_, v)| !*v)
                .map(|(n, _)| *n)
                .collect::<Vec<_>>(),
            vec!["tsn_range"]
        );
    }
}
