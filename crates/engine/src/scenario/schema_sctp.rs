//! The SCTP part of the scenario schema: `[flows.sctp]` (association knobs, multi-homing),
//! `[flows.messages]` (the multi-stream message source) and `[[link.outages]]` (scheduled link
//! failures, which the failover scenarios need).
//!
//! Every SCTP knob is optional: an absent field keeps the value of `profile`
//! (`sctpsim_proto::transport::sctp::SctpConfig::rfc9260` / `rfc2960`, each default with its
//! source in `docs/models/sctp.md`). `docs/scenario.md` documents each field; keep the two in
//! step. The semantic checks are in `check_sctp.rs`.

use super::quantity::{Duration, Rate};
use serde::{Deserialize, Serialize};
use std::net::Ipv4Addr;

/// Which SCTP specification a flow's defaults follow.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SctpProfileKind {
    /// RFC 9260 (2022): the current specification.
    #[default]
    Rfc9260,
    /// RFC 2960 (2000), as the studies' simulators (ns-2, OMNeT++ of the time) implemented it.
    Rfc2960,
    /// ns-2.35's SCTP module defaults (`Agent/SCTP`).
    Ns2,
    /// ns-2.27's SCTP module (release 3.4, 2003): `ns2` with fast retransmit on the 4th miss
    /// indication, no Fast Recovery, heartbeats every RTO + 15 s.
    #[serde(rename = "ns2-2003")]
    Ns2_2003,
}

impl SctpProfileKind {
    /// The name used in scenarios and results.
    pub fn name(self) -> &'static str {
        match self {
            SctpProfileKind::Rfc9260 => "rfc9260",
            SctpProfileKind::Rfc2960 => "rfc2960",
            SctpProfileKind::Ns2 => "ns2",
            SctpProfileKind::Ns2_2003 => "ns2-2003",
        }
    }
}

/// `[flows.sctp]`: SCTP association knobs (transport `sctp` only). Every field is optional.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SctpSpec {
    /// Defaults to start from. Default `rfc9260`.
    #[serde(default)]
    pub profile: SctpProfileKind,
    /// Source addresses of the association (addresses of `src`'s interfaces). Default: every
    /// address of `src`.
    #[serde(default)]
    pub local_addresses: Option<Vec<Ipv4Addr>>,
    /// Destination addresses (addresses of `dst`'s interfaces); the first is the primary path.
    /// Default: every address of `dst`, its first interface (the primary address) first.
    #[serde(default)]
    pub peer_addresses: Option<Vec<Ipv4Addr>>,
    /// RTO.Initial (RFC 9260 §16).
    #[serde(default)]
    pub initial_rto: Option<Duration>,
    /// RTO.Min.
    #[serde(default)]
    pub min_rto: Option<Duration>,
    /// RTO.Max.
    #[serde(default)]
    pub max_rto: Option<Duration>,
    /// HB.interval (added to the RTO between heartbeats on an idle destination, §8.3).
    #[serde(default)]
    pub hb_interval: Option<Duration>,
    /// Send heartbeats on idle destinations (§8.3 "SHOULD").
    #[serde(default)]
    pub heartbeats: Option<bool>,
    /// Path.Max.Retrans (§8.2).
    #[serde(default)]
    pub path_max_retrans: Option<u32>,
    /// Association.Max.Retrans (§8.1).
    #[serde(default)]
    pub association_max_retrans: Option<u32>,
    /// Delay SACKs of in-order data (§6.2).
    #[serde(default)]
    pub delayed_sack: Option<bool>,
    /// The delayed-SACK timer (§6.2; at most 500 ms).
    #[serde(default)]
    pub delayed_sack_timeout: Option<Duration>,
    /// SACK at least every this many packets with DATA (§6.2: 2).
    #[serde(default)]
    pub sack_frequency: Option<u32>,
    /// Max.Burst (§6.1 D); 0 disables the limit.
    #[serde(default)]
    pub max_burst: Option<u32>,
    /// Most Gap Ack Blocks per SACK (the lowest ones); absent: all that fit.
    #[serde(default)]
    pub max_gap_blocks: Option<u16>,
    /// Miss indications that trigger fast retransmit (RFC 9260: 3, RFC 2960: 4).
    #[serde(default)]
    pub fast_rtx_threshold: Option<u32>,
    /// Early retransmission for small windows: `off` (default), `ye2003` (Ye, Saadawi & Lee
    /// 2003 §5) or `rfc5827` (RFC 5827 §3.2). A name, checked in `check_sctp.rs` so that a bad
    /// value is reported with the field's path.
    #[serde(default)]
    pub early_retransmit: Option<String>,
    /// Several paths at once: `off` (default), `asctp` (Argyriou & Madisetti 2004 §3: DSR's
    /// node-disjoint routes as SCTP paths; needs `routing.protocol = "dsr"`) or `cmt`
    /// (Iyengar, Amer & Stewart 2006: new data on every peer address whose cwnd has room). A
    /// name, checked in `check_sctp.rs`.
    #[serde(default)]
    pub multipath: Option<String>,
    /// Cellular SCTP (Aydin & Shen 2005 §II; `docs/models/cellular.md`): `off` (default),
    /// `single-primary` (ASCONF add-ip, set-primary and delete-ip driven by the mobile's
    /// addresses and beacon strengths) or `duplicated` (the same, with every new DATA chunk
    /// sent to both of the mobile's addresses during a handoff and SACKs kept per path). Needs
    /// an end with `cellular.role = "mobile"`. A name, checked in `check_sctp.rs`.
    #[serde(default)]
    pub csctp: Option<String>,
    /// A-SCTP: most routes (paths) to the peer, the data path included. Default 2 (a primary
    /// and one alternate).
    #[serde(default)]
    pub asctp_max_routes: Option<u32>,
    /// A-SCTP ablation switch, default true: rule 1 for retransmissions ("The modified SCTP assigns the best path to the main
    /// data flow"): fast and T3 retransmissions on the data path. Off: RFC 9260 §6.4's
    /// alternate destination, as the profile's `fast_rtx_to_alternate` / `t3_rtx_to_alternate`
    /// say.
    #[serde(default)]
    pub asctp_retransmit_on_data_path: Option<bool>,
    /// A-SCTP ablation switch, default true: rule 2 ("sends Heartbeat messages (every RTO)"). Off: RFC 9260 §8.3
    /// heartbeats (RTO + HB.interval with jitter, idle paths only) on every path with a route.
    #[serde(default)]
    pub asctp_heartbeat_every_rto: Option<bool>,
    /// A-SCTP ablation switch, default true: rule 3 ("after two Heartbeat retransmissions fail, we mark a
    /// specific path inactive"). Off: `path_max_retrans` and the §8.3 RTO back-off.
    #[serde(default)]
    pub asctp_two_heartbeat_failures: Option<bool>,
    /// A-SCTP ablation switch, default true: rule 4 ("DSR notifies SCTP when the primary route fails, so that SCTP
    /// switches"). Off: data stays on the data path until failures make it inactive.
    #[serde(default)]
    pub asctp_route_notice: Option<bool>,
    /// A-SCTP ablation switch, default true: rule 5 (ours): the window in flight on a failed data path is resent on
    /// the new one at the switch. Off: it waits for its T3-rtx timer.
    #[serde(default)]
    pub asctp_failover_retransmit: Option<bool>,
    /// A-SCTP ablation switch, default true: rule 6 (the per-path "lowest and highest TSN sent during the last cwnd round").
    /// Off: every gap report counts a miss indication.
    #[serde(default)]
    pub asctp_tsn_range: Option<bool>,
    /// A-SCTP ablation switch, default true: rule 7 ("we maintain congestion control parameters for every path"):
    /// a path with a new route starts with fresh cwnd, ssthresh and RTO. Off: it keeps them.
    #[serde(default)]
    pub asctp_fresh_path_state: Option<bool>,
    /// A-SCTP ablation switch, default true: rule 8 (ours, the path manager): the data path moves to a shorter
    /// route DSR learns. Off: it keeps its route until it breaks.
    #[serde(default)]
    pub asctp_follow_shorter_route: Option<bool>,
    /// CMT switch, default true: Split Fast Retransmit (ToN §3.1), miss indications per
    /// destination. Off: reordering across paths causes spurious fast retransmissions.
    #[serde(default)]
    pub cmt_sfr: Option<bool>,
    /// CMT switch, default true: Cwnd Update for CMT (ToN §3.2), window growth on each
    /// destination's pseudo-cumulative ack and Fast Recovery per destination.
    #[serde(default)]
    pub cmt_cuc: Option<bool>,
    /// CMT switch, default true: Delayed ACK for CMT (ToN §3.3) on both the receiving and the
    /// sending side.
    #[serde(default)]
    pub cmt_dac: Option<bool>,
    /// CMT switch, default true: the potentially-failed state (CMT-PF, Natarajan et al. 2008).
    #[serde(default)]
    pub cmt_pf: Option<bool>,
    /// CMT, the older form of `cmt_cc` kept for the scenarios written with it: true is
    /// `cmt_cc = "lia"` (RFC 6356's Linked Increases Algorithm), false `cmt_cc = "off"`.
    #[serde(default)]
    pub cmt_coupled: Option<bool>,
    /// CMT's coupled congestion control: `off` (default, every destination on its own),
    /// `lia` (RFC 6356), `rpv1` or `rpv2` (CMT/RP, Dreibholz et al. 2010 / 2011). A name,
    /// checked in `check_sctp.rs` (also against `cmt_coupled` when both are given).
    #[serde(default)]
    pub cmt_cc: Option<String>,
    /// CMT retransmission policy (ToN §4): `same`, `asap`, `cwnd`, `ssthresh` (default) or
    /// `lossrate`. A name, checked in `check_sctp.rs`.
    #[serde(default)]
    pub cmt_rtx_policy: Option<String>,
    /// Initial cwnd of every destination in bytes (absent: the profile's formula).
    #[serde(default)]
    pub initial_cwnd_bytes: Option<u32>,
    /// Initial ssthresh in bytes (absent: the peer's a_rwnd, §7.2.1).
    #[serde(default)]
    pub initial_ssthresh_bytes: Option<u32>,
    /// Outbound streams requested (OS in INIT / INIT ACK). Default: the profile's 10, or the
    /// message source's `streams` if larger.
    #[serde(default)]
    pub streams: Option<u16>,
    /// Return new data to the primary path as soon as it is active again (§6.4).
    #[serde(default)]
    pub return_to_primary: Option<bool>,
    /// Path MTU of every destination, IP header included. Default: the smallest link MTU.
    #[serde(default)]
    pub mtu_bytes: Option<u16>,
    /// Largest user data per DATA chunk. Default: as much as the MTU allows.
    #[serde(default)]
    pub chunk_bytes: Option<u32>,
    /// Receive buffer (initial a_rwnd) in bytes.
    #[serde(default)]
    pub recv_buffer_bytes: Option<u32>,
    /// Send buffer in bytes (queued plus unacknowledged user data).
    #[serde(default)]
    pub send_buffer_bytes: Option<u32>,
    /// Keep gap-acknowledged data in the send buffer until the cumulative ack (or an NR gap
    /// block) covers it, as RFC 9260 §6.2.1 requires of a sender (the receiver may renege).
    /// `false`: the older idealisation, gap-acknowledged data leaves the send buffer at once
    /// (sctpsim before NR-SACK; for reproducing older results). Default: true.
    #[serde(default)]
    pub renegable_send_buffer: Option<bool>,
    /// Offer PR-SCTP (RFC 3758). Default: on for rfc9260, off for rfc2960.
    #[serde(default)]
    pub pr_sctp: Option<bool>,
    /// Offer and accept SCTP-AUTH (RFC 4895 §6.1): RANDOM, CHUNKS and HMAC-ALGO in INIT and
    /// INIT ACK, AUTH chunks before the chunks the peer lists; with ASCONF on, ASCONF and
    /// ASCONF-ACK are always authenticated (RFC 5061 §4.1.1) and used only if AUTH is
    /// negotiated. Default: off in every profile (results without it are unchanged).
    #[serde(default)]
    pub auth: Option<bool>,
    /// The HMAC asked of the peer when `auth` is on (RFC 4895 §3.3): `sha1` (default,
    /// mandatory to implement) or `sha256` (then SHA-1 is listed second).
    #[serde(default)]
    pub auth_hmac: Option<AuthHmacSpec>,
    /// Offer and accept I-DATA (RFC 8260 §2): used when both ends offer it; user messages
    /// then go in I-DATA chunks (MID and FSN) and fragments of different streams' messages
    /// interleave. Default: off in every profile.
    #[serde(default)]
    pub i_data: Option<bool>,
    /// The stream scheduler (RFC 8260 §3): `"fcfs"`, `"rr"` (default), `"rr-packet"`,
    /// `"priority"`, `"fc"` or `"wfq"`.
    #[serde(default)]
    pub scheduler: Option<String>,
    /// `scheduler = "priority"`: the priority of stream i at index i (lower first; unlisted
    /// streams 0).
    #[serde(default)]
    pub stream_priorities: Option<Vec<u16>>,
    /// `scheduler = "wfq"`: the weight of stream i at index i (at least 1; unlisted streams 1).
    #[serde(default)]
    pub stream_weights: Option<Vec<u16>>,
    /// Dynamic address reconfiguration (RFC 5061 ASCONF) during the run: each entry asks one
    /// side's association to add or delete one of its addresses, or to make one the peer's
    /// primary destination. Needs the rfc9260 profile (ASCONF is offered by both ends).
    /// Default: none.
    #[serde(default)]
    pub asconf: Vec<AsconfActionSpec>,
    /// Offer and accept stream reconfiguration (RFC 6525): RE-CONFIG in the Supported
    /// Extensions of INIT and INIT ACK, used when both ends offer it (both ends of a flow get
    /// the same setting). Default: off in every profile.
    #[serde(default)]
    pub reconfig: Option<bool>,
    /// Offer and accept NR-SACK (Natarajan et al., ICNP 2008; chunk type 0x10 as in FreeBSD):
    /// listed in the Supported Extensions of INIT and INIT ACK and used when both ends offer it
    /// (both ends of a flow get the same setting). The receiver then acknowledges with
    /// NR-SACKs reporting its out-of-order data as non-renegable, and the sender frees that
    /// data from its send buffer at once instead of at the cumulative ack. Default: off in
    /// every profile.
    #[serde(default)]
    pub nr_sack: Option<bool>,
    /// Stream reconfiguration requests during the run (RFC 6525 §5.1): each entry asks one
    /// side's association to reset streams or add streams at a time. Needs `reconfig = true`.
    /// Default: none.
    #[serde(default)]
    pub reconfig_actions: Vec<ReconfigActionSpec>,
}

/// What a stream reconfiguration action asks for (RFC 6525 §5.1.2–5.1.6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReconfigActionKind {
    /// Outgoing SSN Reset Request (§5.1.2): the side's outgoing `streams` restart at SSN 0.
    ResetOutgoing,
    /// Incoming SSN Reset Request (§5.1.3): ask the peer to reset its outgoing `streams`.
    ResetIncoming,
    /// SSN/TSN Reset Request (§5.1.4): every SSN and both TSN spaces restart.
    ResetSsnTsn,
    /// Add Outgoing Streams Request (§5.1.5): `count` more outgoing streams.
    AddOutgoing,
    /// Add Incoming Streams Request (§5.1.6): ask the peer for `count` more streams to us.
    AddIncoming,
}

/// One entry of `[flows.sctp] reconfig_actions = [...]`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReconfigActionSpec {
    /// When the application asks for it (time since the start of the run).
    pub at: Duration,
    /// `reset-outgoing`, `reset-incoming`, `reset-ssn-tsn`, `add-outgoing` or `add-incoming`.
    pub action: ReconfigActionKind,
    /// The streams to reset (`reset-outgoing`, `reset-incoming`); empty or absent: all.
    #[serde(default)]
    pub streams: Vec<u16>,
    /// How many streams to add (`add-outgoing`, `add-incoming`; at least 1).
    #[serde(default)]
    pub count: Option<u16>,
    /// `src` or `dst`. Default `src`.
    #[serde(default)]
    pub side: FlowSide,
}

/// `flows.sctp.auth_hmac`: the HMAC algorithm of RFC 4895 §3.3.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthHmacSpec {
    /// HMAC-SHA-1 (identifier 1).
    Sha1,
    /// HMAC-SHA-256 (identifier 3).
    Sha256,
}

/// What an ASCONF action asks for (RFC 5061 §4.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AsconfActionKind {
    /// Add IP Address (§4.2.1): offer an address of the side's node to the peer.
    AddIp,
    /// Delete IP Address (§4.2.2): withdraw one of the side's association addresses.
    DeleteIp,
    /// Set Primary Address (§4.2.4): ask the peer to make this address of ours its primary.
    SetPrimary,
}

/// Which end of a flow an action applies to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FlowSide {
    /// The flow's `src` node (the sending client).
    #[default]
    Src,
    /// The flow's `dst` node (the receiving server).
    Dst,
}

/// One entry of `[flows.sctp] asconf = [...]`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AsconfActionSpec {
    /// When the application asks for it (time since the start of the run).
    pub at: Duration,
    /// `add-ip`, `delete-ip` or `set-primary`.
    pub action: AsconfActionKind,
    /// The address (an interface address of the side's node).
    pub address: Ipv4Addr,
    /// `src` or `dst`. Default `src`.
    #[serde(default)]
    pub side: FlowSide,
}

/// `[flows.messages]`: the multi-stream message source (`app = "messages"`, SCTP only).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MessagesSpec {
    /// Streams the messages are spread over, round-robin (message k on stream k mod streams).
    /// Default 1.
    #[serde(default = "default_streams")]
    pub streams: u16,
    /// Bytes per message (the first 12 carry a sequence number and the send time). Default
    /// 1452: the largest DATA payload in one 1500-byte packet (1500 − 20 IPv4 − 12 common
    /// header − 16 DATA header).
    #[serde(default = "default_message_bytes")]
    pub message_bytes: u32,
    /// Application payload rate: message k is handed over at `start + k · message_bytes · 8 /
    /// rate`. Absent: backlogged (a message whenever the send buffer has room).
    #[serde(default)]
    pub rate: Option<Rate>,
    /// Send the messages unordered (U bit, RFC 9260 §6.6). Default false.
    #[serde(default)]
    pub unordered: bool,
    /// PR-SCTP timed reliability (RFC 3758): a message not delivered within this lifetime is
    /// abandoned. Absent: fully reliable.
    #[serde(default)]
    pub lifetime: Option<Duration>,
    /// Stop after this many messages. Absent: until `stop` or the end of the run.
    #[serde(default)]
    pub count: Option<u64>,
}

impl SctpSpec {
    /// The coupled congestion control as given: `cmt_cc`'s name, or `cmt_coupled`'s alias
    /// (`lia` / `off`); `None` when neither is given. Unchecked (`check_sctp.rs` checks).
    pub fn cmt_cc_name(&self) -> Option<&str> {
        self.cmt_cc
            .as_deref()
            .or(self.cmt_coupled.map(|c| if c { "lia" } else { "off" }))
    }

    /// The CMT switches as given: (field name, value), in `CmtConfig` order.
    pub fn cmt_switches(&self) -> [(&'static str, Option<bool>); 5] {
        [
            ("cmt_sfr", self.cmt_sfr),
            ("cmt_cuc", self.cmt_cuc),
            ("cmt_dac", self.cmt_dac),
            ("cmt_pf", self.cmt_pf),
            ("cmt_coupled", self.cmt_coupled),
        ]
    }

    /// The A-SCTP ablation switches as given: (field name, value), in the order of
    /// `sctpsim_proto::transport::sctp::AsctpRules::switches` (its names with `asctp_` before).
    pub fn asctp_switches(&self) -> [(&'static str, Option<bool>); 8] {
        [
            (
                "asctp_retransmit_on_data_path",
                self.asctp_retransmit_on_data_path,
            ),
            ("asctp_heartbeat_every_rto", self.asctp_heartbeat_every_rto),
            (
                "asctp_two_heartbeat_failures",
                self.asctp_two_heartbeat_failures,
            ),
            ("asctp_route_notice", self.asctp_route_notice),
            ("asctp_failover_retransmit", self.asctp_failover_retransmit),
            ("asctp_tsn_range", self.asctp_tsn_range),
            ("asctp_fresh_path_state", self.asctp_fresh_path_state),
            (
                "asctp_follow_shorter_route",
                self.asctp_follow_shorter_route,
            ),
        ]
    }
}

impl Default for MessagesSpec {
    fn default() -> Self {
        MessagesSpec {
            streams: default_streams(),
            message_bytes: default_message_bytes(),
            rate: None,
            unordered: false,
            lifetime: None,
            count: None,
        }
    }
}

fn default_streams() -> u16 {
    1
}

/// 1500 (Ethernet MTU) − 20 (IPv4) − 12 (SCTP common header) − 16 (DATA chunk header).
pub const DEFAULT_MESSAGE_BYTES: u32 = 1452;

fn default_message_bytes() -> u32 {
    DEFAULT_MESSAGE_BYTES
}

/// `[[link.outages]]`: the link is down from `start` to `end`: every packet offered to it is
/// dropped, and a packet whose transmission or propagation overlaps the outage is lost.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OutageSpec {
    /// When the link fails.
    pub start: Duration,
    /// When it is repaired (after `start`; may lie beyond the end of the run).
    pub end: Duration,
    /// Fail only the direction leaving this node. Default: both directions.
    #[serde(default)]
    pub from: Option<String>,
}
