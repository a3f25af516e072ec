//! What a run produces: the summary (`summary.json`), per-flow rows (`flows.parquet`), per-link
//! rows, the time series (`timeseries.parquet`) and the manifest (`run.json`). Column names and
//! units are documented in `docs/metrics.md`.

pub use crate::results_sctp::{PathResult, SctpResult, StreamResult};
use sctpsim_kernel::RunManifest;
use serde::Serialize;
use std::borrow::Cow;

/// One flow's results. Units: bytes, packets, bit/s, seconds; fractions in [0, 1].
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FlowResult {
    /// Flow index in the scenario.
    pub id: u32,
    /// Transport (`udp`, ...).
    pub transport: String,
    /// Application (`cbr`, `file`).
    pub app: String,
    /// Source node name.
    pub src: String,
    /// Destination node name.
    pub dst: String,
    /// Application payload bytes handed to the transport.
    pub bytes_sent: u64,
    /// Application payload bytes delivered to the sink.
    pub bytes_delivered: u64,
    /// `bytes_delivered · 8 / active time`, where the active time runs from the flow's start to
    /// its stop (or the end of the run).
    pub goodput_bps: f64,
    /// Packets handed to the transport.
    pub packets_sent: u64,
    /// Packets delivered to the sink.
    pub packets_delivered: u64,
    /// `packets_delivered / packets_sent` (0 if nothing was sent).
    pub delivered_fraction: f64,
    /// Transport retransmissions (0 for UDP).
    pub retransmissions: u64,
    /// Fast retransmissions (0 for UDP).
    pub fast_retransmits: u64,
    /// Retransmission timeouts (0 for UDP).
    pub timeouts: u64,
    /// Mean transport RTT sample, s (`null` for UDP: no RTT is measured).
    pub mean_rtt_s: Option<f64>,
    /// Mean one-way delay of delivered packets, s (`null` if none arrived).
    pub mean_delay_s: Option<f64>,
    /// Packets that arrived after a higher sequence number.
    pub reordered: u64,
    /// TCP: delivered bytes that differ from what the source sent at that stream offset (the
    /// checking sink: 0 unless data was corrupted, duplicated or misplaced). 0 for UDP; SCTP's
    /// checking sink is in the association rows (`delivery_errors`, `messages_missing`).
    pub delivery_errors: u64,
    /// Acknowledgements the receiving end sent: TCP pure ACKs (segments without data, SYN or
    /// FIN), SCTP SACK chunks; 0 for UDP.
    pub acks_sent: u64,
    /// Transport packets carrying user data the sending end put on the wire, retransmissions
    /// included: TCP segments with payload, SCTP packets with at least one DATA chunk, UDP
    /// datagrams.
    pub data_packets_sent: u64,
    /// Such packets that reached the receiving transport (duplicates included; packets that
    /// failed its checks not).
    pub data_packets_received: u64,
    /// Mean number of hops (links crossed; 1 for a direct neighbour) of the data packets that
    /// reached the receiving transport, from the IP TTL (`null` if none arrived).
    pub mean_route_hops: Option<f64>,
    /// Fraction of those packets that crossed at least one relay (2 hops or more; `null` if
    /// none arrived).
    pub relayed_fraction: Option<f64>,
    /// When the first data packet reached the receiving transport, s (null if none did): how
    /// long the route and the connection set-up kept the data back.
    pub first_data_received_s: Option<f64>,
    /// `app = "file"`: seconds from the flow's `start` until the receiving application held
    /// all `size_bytes` (null if it never did, and for the other applications). `goodput_bps`
    /// of a completed file is its size over this time.
    pub completion_time_s: Option<f64>,
}

/// One direction of a link.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LinkResult {
    /// Link index in the scenario.
    pub id: u32,
    /// `fwd` (`between[0]` → `between[1]`) or `rev`.
    pub dir: String,
    /// Sending node.
    pub from: String,
    /// Receiving node.
    pub to: String,
    /// Packets transmitted.
    pub tx_packets: u64,
    /// Bytes transmitted (IP packets).
    pub tx_bytes: u64,
    /// Packets refused by the full drop-tail queue.
    pub queue_drops: u64,
    /// Packets lost by the loss model.
    pub loss_drops: u64,
    /// Packets removed by scripted drops.
    pub scripted_drops: u64,
    /// Packets lost to a scheduled outage (`[[link.outages]]`).
    pub outage_drops: u64,
    /// Fraction of the run the transmitter was busy.
    pub utilization: f64,
}

/// One wireless interface: its MAC and radio counters (`macs.parquet`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MacResult {
    /// Node name.
    pub node: String,
    /// Interface name (`wlan0`).
    pub iface: String,
    /// MAC address.
    pub mac: String,
    /// Packets accepted into the interface queue.
    pub enqueued: u64,
    /// Packets dropped by the full interface queue.
    pub queue_drops: u64,
    /// Frames sent after winning contention (DATA, RTS, management).
    pub access_attempts: u64,
    /// Of those, to an individual address (they expect a CTS or an Ack).
    pub unicast_attempts: u64,
    /// Data frames sent (retransmissions included).
    pub tx_data: u64,
    /// Data frame retransmissions.
    pub tx_data_retries: u64,
    /// RTS frames sent.
    pub tx_rts: u64,
    /// CTS frames sent.
    pub tx_cts: u64,
    /// Ack frames sent.
    pub tx_ack: u64,
    /// Unicast frames acknowledged.
    pub tx_success: u64,
    /// AckTimeouts plus CTSTimeouts: failed unicast attempts.
    pub collisions: u64,
    /// Of those, CTSTimeouts: RTS frames that got no CTS.
    pub cts_timeouts: u64,
    /// Of those, AckTimeouts: DATA (or management) frames that got no Ack.
    pub ack_timeouts: u64,
    /// Unicast frames acknowledged at their first attempt.
    pub acked_first_try: u64,
    /// ... after one failed attempt.
    pub acked_after_1_retry: u64,
    /// ... after two failed attempts.
    pub acked_after_2_retries: u64,
    /// ... after three or more failed attempts.
    pub acked_after_3plus_retries: u64,
    /// `collisions / unicast_attempts` (0 without attempts): Bianchi's p.
    pub collision_probability: f64,
    /// Packets discarded at a retry limit (link failures).
    pub retry_drops: u64,
    /// Frames received with a valid FCS.
    pub rx_frames: u64,
    /// Frames received in error (each starts an EIFS).
    pub rx_errors: u64,
    /// Duplicates filtered.
    pub rx_duplicates: u64,
    /// Packets delivered up to IP.
    pub delivered: u64,
    /// Frames the channel delivered to the radio (at or above the cut-off power).
    pub phy_arrivals: u64,
    /// Frames the radio locked on to.
    pub phy_locked: u64,
    /// Threshold model: receptions lost to an overlapping frame.
    pub phy_collisions: u64,
    /// Threshold model: overlapping frames captured away.
    pub phy_captures: u64,
    /// Frames missed because the radio was transmitting.
    pub phy_half_duplex: u64,
    /// Frames below the reception threshold or sensitivity.
    pub phy_below_rx_thresh: u64,
    /// Frames lost to the distance-dependent frame error model (`radio.frame_error`).
    pub phy_frame_errors: u64,
    /// Infrastructure mode (0 otherwise). Station: associations it completed (first, or
    /// after losing one); AP: stations that associated with it.
    pub associations: u64,
    /// Station: reassociations (handoffs) completed; AP: stations that reassociated with it.
    pub reassociations: u64,
    /// Station: times it lost its association; AP: stations that deauthenticated or
    /// disassociated.
    pub disassociations: u64,
    /// Station: APs lost for `max_missed_beacons` missed beacons.
    pub beacons_lost: u64,
    /// Station: packets from or to it dropped because it was not associated; AP: packets
    /// queued for a station that reassociated with another AP, dropped.
    pub unassociated_drops: u64,
    /// Rate adaptation (`radio.rate_control`): changes of a destination's current rate (ARF,
    /// AARF: the rate in use; Minstrel: the best-throughput rate), summed over destinations;
    /// 0 with `constant`.
    pub rate_changes: u64,
    /// Mean PHY rate of the unicast data frames this MAC sent, per attempt (retransmissions
    /// included), bit/s; 0 if it sent none.
    pub mean_data_rate_bps: f64,
}

/// Network-wide figures.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct NetworkResult {
    /// Packet delivery fraction over all flows.
    pub pdf: f64,
    /// Routing control packets sent (0 with static routing).
    pub routing_packets: u64,
    /// Routing control bytes sent (0 with static routing).
    pub routing_bytes: u64,
    /// MAC-layer drops (0 on point-to-point links).
    pub mac_drops: u64,
    /// Drop-tail queue drops on all links.
    pub queue_drops: u64,
    /// Loss-model drops on all links.
    pub loss_drops: u64,
    /// Scripted drops on all links.
    pub scripted_drops: u64,
    /// Outage drops on all links.
    pub outage_drops: u64,
    /// Packets dropped because the TTL expired.
    pub ttl_drops: u64,
    /// Packets dropped for lack of a route.
    pub no_route_drops: u64,
    /// Packets dropped with a bad header or checksum.
    pub malformed_drops: u64,
    /// ICMP messages sent.
    pub icmp_sent: u64,
    /// ICMP Time Exceeded messages sent (RFC 792; among `icmp_sent`): transit packets whose
    /// TTL ran out, a routing loop's trace.
    pub icmp_time_exceeded_sent: u64,
    /// Mean one-way delay of every data packet delivered by a flow that measures it (UDP
    /// applications), s: packets weigh equally, as in the MANET literature (`null` if none).
    pub mean_delay_s: Option<f64>,
    /// Routing packets transmitted per data packet delivered (normalised routing load, Broch
    /// et al. 1998; 0 if nothing was delivered).
    pub normalized_routing_load: f64,
    /// Route discoveries started (ad hoc routing; the first request for a destination, not
    /// its retries).
    pub route_discoveries: u64,
    /// Route discoveries that found a route.
    pub route_discoveries_succeeded: u64,
    /// Route requests originated (first tries and retries).
    pub route_requests: u64,
    /// Mean time from a discovery's first request to its route, s (0 without discoveries).
    pub mean_discovery_latency_s: f64,
    /// Route errors originated (link breaks reported by the node that detected them).
    pub route_errors: u64,
    /// Link breaks detected (MAC feedback or lost HELLOs).
    pub link_breaks: u64,
    /// Routes that broke at the nodes using them (`RouteBroken` events).
    pub routes_broken: u64,
    /// Data packets salvaged or re-routed after a link break.
    pub salvaged: u64,
    /// Data packets dropped from a routing send buffer (full, or waited too long).
    pub send_buffer_drops: u64,
    /// Data packets dropped because their next hop's link broke and they could not be
    /// salvaged.
    pub link_broken_drops: u64,
    /// Malformed routing packets counted and dropped by routers.
    pub routing_malformed: u64,
    /// Beacons sent (`[beacons]`; 0 without).
    pub beacons_sent: u64,
    /// Beacons received: one per neighbour that decoded a beacon.
    pub beacons_received: u64,
    /// Mobile IP: packets home agents tunnelled to a care-of address (0 without Mobile IP).
    pub mip_tunnelled: u64,
    /// Mobile IP: tunnel packets foreign agents decapsulated and delivered to a visitor.
    pub mip_decapsulated: u64,
    /// Access-router mobility: beacons the access routers sent (0 without).
    pub ar_beacons_sent: u64,
    /// Beacons the cellular mobiles received.
    pub ar_beacons_heard: u64,
    /// Addresses the cellular mobiles acquired (those held at t = 0 included).
    pub ar_addresses_acquired: u64,
    /// Addresses they released (their access router lost).
    pub ar_addresses_released: u64,
}

/// Packets and bytes of one kind of routing message.
#[derive(Copy, Clone, Debug, Default, Serialize, PartialEq)]
pub struct TypeCountResult {
    /// Packets.
    pub packets: u64,
    /// Bytes (whole IPv4 packets).
    pub bytes: u64,
}

impl From<sctpsim_proto::routing::TypeCount> for TypeCountResult {
    fn from(c: sctpsim_proto::routing::TypeCount) -> Self {
        TypeCountResult {
            packets: c.packets,
            bytes: c.bytes,
        }
    }
}

/// The packets of one flow (or of no flow) dropped for one reason (`drops.parquet`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DropResult {
    /// The flow's id (its index in `flows`); `None` for packets of no flow (routing control,
    /// ICMP, beacons).
    pub flow: Option<u32>,
    /// Why (`crate::drop::DropReason::name`).
    pub reason: String,
    /// Packets dropped, data and control alike (TCP ACKs and SCTP SACKs of the flow count).
    pub packets: u64,
    /// `dropped_seq` / `dropped_tsn` rows written for them (one per TCP or UDP data packet,
    /// one per SCTP DATA chunk).
    pub records: u64,
}

/// One routing message type at one node (`routing.parquet`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RoutingResult {
    /// The node.
    pub node: String,
    /// `dsr`, `aodv` or `olsr`.
    pub protocol: String,
    /// The message type (`rreq`, `rrep`, `rerr`, `hello`, `tc`, ...).
    pub message: String,
    /// Packets of this type the node transmitted (originated or forwarded).
    pub tx_packets: u64,
    /// Their bytes (whole IPv4 packets).
    pub tx_bytes: u64,
    /// Messages among `tx_packets` the node relayed for their originator (OLSR's MPR
    /// flooding; 0 for DSR and AODV, which build a new packet at every hop).
    pub tx_relayed: u64,
    /// Packets of this type the node received.
    pub rx_packets: u64,
    /// Their bytes.
    pub rx_bytes: u64,
}

/// One handover of a mobile node (`handoffs.parquet`; `crate::sim` modules `mobileip` and
/// `cellular`, `docs/metrics.md`). Times are absolute simulation times, s; NaN where the step
/// did not happen.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct HandoffResult {
    /// What moved the mobile: `mobile-ip` (a Mobile IP registration) or `csctp` (cellular
    /// SCTP's ASCONFs over access-router mobility).
    pub mechanism: String,
    /// The mobile node.
    pub mobile: String,
    /// The agent (access router) it left (empty if none).
    pub from_agent: String,
    /// The agent (access router) it moved to (empty if it found none before the run ended).
    pub to_agent: String,
    /// Mobile IP: when its attachment left the old agent (movement detected). cSCTP: the
    /// first beacon of the new access router.
    pub detected_s: f64,
    /// The last frame (Mobile IP) or beacon (cSCTP) it received from the old agent.
    pub link_lost_s: f64,
    /// The last advertisement of the new agent it heard before taking it (Mobile IP; cSCTP:
    /// the first beacon, as `detected_s`).
    pub agent_heard_s: f64,
    /// Its first registration request of the handover (Mobile IP).
    pub registration_sent_s: f64,
    /// The accepted registration reply (Mobile IP).
    pub reply_received_s: f64,
    /// The first packet of a flow (Mobile IP) or the first DATA (cSCTP) it received through
    /// the new agent.
    pub first_packet_s: f64,
    /// Registration requests resent during the handover (Mobile IP).
    pub registration_retransmissions: u64,
    /// Mobile IP: packets of flows dropped anywhere from `link_lost_s` to `first_packet_s` (or
    /// to the end of the run). cSCTP: DATA chunks dropped anywhere from `detected_s` to
    /// `released_s` (messages in flight lost).
    pub packets_lost: u64,
    /// Packets the home agents tunnelled in the same interval (Mobile IP).
    pub packets_tunnelled: u64,
    /// cSCTP: the new address held (acquisition done).
    pub acquired_s: f64,
    /// cSCTP: ASCONF add-ip of the new address sent, and acknowledged.
    pub add_ip_sent_s: f64,
    /// See `add_ip_sent_s`.
    pub add_ip_acked_s: f64,
    /// cSCTP: ASCONF set-primary to the new address sent, and acknowledged.
    pub set_primary_sent_s: f64,
    /// See `set_primary_sent_s`.
    pub set_primary_acked_s: f64,
    /// cSCTP: ASCONF delete-ip of the old address sent, and acknowledged.
    pub delete_ip_sent_s: f64,
    /// See `delete_ip_sent_s`.
    pub delete_ip_acked_s: f64,
    /// cSCTP: the old address released (its access router lost); NaN if still held at the end.
    pub released_s: f64,
    /// cSCTP: the last DATA received on the old address.
    pub last_old_data_s: f64,
    /// cSCTP: the outage, `first_packet_s − last_old_data_s` (0 when data arrived on the new
    /// address before it stopped on the old one).
    pub outage_s: f64,
    /// cSCTP: the part of the outage before the new access router was detected.
    pub outage_detection_s: f64,
    /// The part spent acquiring the new address.
    pub outage_acquisition_s: f64,
    /// The part from the address held to its add-ip acknowledged (the ASCONF round trip).
    pub outage_add_ip_s: f64,
    /// The part from the add-ip acknowledged to the set-primary sent (waiting for the new
    /// access router to be the stronger).
    pub outage_wait_primary_s: f64,
    /// The part from the set-primary sent to the first DATA on the new address.
    pub outage_switch_s: f64,
    /// cSCTP: duplicate DATA chunks received from `detected_s` to `released_s`.
    pub data_duplicated: u64,
}

impl HandoffResult {
    /// A row with every time unknown (NaN) and every count 0.
    pub fn empty(mechanism: &str, mobile: String) -> Self {
        let n = f64::NAN;
        HandoffResult {
            mechanism: mechanism.to_string(),
            mobile,
            from_agent: String::new(),
            to_agent: String::new(),
            detected_s: n,
            link_lost_s: n,
            agent_heard_s: n,
            registration_sent_s: n,
            reply_received_s: n,
            first_packet_s: n,
            registration_retransmissions: 0,
            packets_lost: 0,
            packets_tunnelled: 0,
            acquired_s: n,
            add_ip_sent_s: n,
            add_ip_acked_s: n,
            set_primary_sent_s: n,
            set_primary_acked_s: n,
            delete_ip_sent_s: n,
            delete_ip_acked_s: n,
            released_s: n,
            last_old_data_s: n,
            outage_s: n,
            outage_detection_s: n,
            outage_acquisition_s: n,
            outage_add_ip_s: n,
            outage_wait_primary_s: n,
            outage_switch_s: n,
            data_duplicated: 0,
        }
    }
}

/// `summary.json`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    /// Scenario name, if it has one.
    pub name: Option<String>,
    /// Root seed.
    pub seed: u64,
    /// Simulated time reached, s.
    pub sim_time_s: f64,
    /// Wall-clock time, s (the only field that differs between identical runs).
    pub wall_time_s: f64,
    /// Events processed.
    pub events: u64,
    /// Whether the run was stopped early.
    pub interrupted: bool,
    /// Per-flow results.
    pub flows: Vec<FlowResult>,
    /// Per-link-direction results.
    pub links: Vec<LinkResult>,
    /// Per-wireless-interface MAC and radio counters (empty without wireless nodes).
    pub macs: Vec<MacResult>,
    /// Per-SCTP-association counters (empty without SCTP flows).
    pub sctp: Vec<SctpResult>,
    /// Per destination of each SCTP association side (`paths.parquet`).
    pub paths: Vec<PathResult>,
    /// Per stream of each SCTP association (`streams.parquet`).
    pub streams: Vec<StreamResult>,
    /// Per node and routing message type (`routing.parquet`; empty with static routing).
    pub routing: Vec<RoutingResult>,
    /// Dropped packets per flow and reason, rows with zero packets left out
    /// (`drops.parquet`).
    pub drops: Vec<DropResult>,
    /// Mobile IP handovers, one row each (`handoffs.parquet`; empty without Mobile IP).
    pub handoffs: Vec<HandoffResult>,
    /// Network-wide results.
    pub network: NetworkResult,
    /// The per-packet trace's size and whether it was cut at its bound (only when traced).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<crate::trace::TraceSummary>,
    /// When the time series reached its row bound ([`TimeSeries::cap`]) and stopped keeping
    /// rows, s; absent when it kept every row. Every other result covers the whole run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeseries_truncated_at_s: Option<f64>,
}

/// The time series in long ("tidy") form: one row per (time, scope, id, dir, metric).
///
/// Held in memory until the run ends, so bounded *during* the run: rows past [`Self::cap`]
/// are not kept and [`Self::truncated_at_s`] says from when. The check before the run
/// (`scenario/check.rs`, `MAX_SERIES_ROWS`) refuses a sampling plan that would reach the bound;
/// this bound holds for what no plan can foresee, the one-row-per-drop `dropped_seq` and
/// `dropped_tsn` rows (issue 35 item 1: a 100 Gbit/s CBR source made 11.2 million of them per
/// simulated second).
#[derive(Clone, Debug, PartialEq)]
pub struct TimeSeries {
    /// Sample time, s.
    pub time_s: Vec<f64>,
    /// `flow`, `link` or `network` (wireless MAC totals).
    pub scope: Vec<&'static str>,
    /// Flow or link index.
    pub id: Vec<u32>,
    /// Link direction (`fwd`/`rev`), empty for flows; for SCTP per-path metrics the
    /// destination address, for per-stream metrics `stream<k>`.
    pub dir: Vec<Cow<'static, str>>,
    /// Metric name (`goodput_bps`, `bytes_delivered`, `queue_packets`, `throughput_bps`).
    pub metric: Vec<&'static str>,
    /// Value in the metric's unit.
    pub value: Vec<f64>,
    /// Most rows kept (`MAX_SERIES_ROWS` of `scenario/check.rs`, 10 million, by default).
    pub cap: usize,
    /// Time of the first row not kept, s (`None`: every row was kept).
    pub truncated_at_s: Option<f64>,
}

impl Default for TimeSeries {
    fn default() -> Self {
        TimeSeries {
            time_s: Vec::new(),
            scope: Vec::new(),
            id: Vec::new(),
            dir: Vec::new(),
            metric: Vec::new(),
            value: Vec::new(),
            cap: crate::scenario::check::MAX_SERIES_ROWS as usize,
            truncated_at_s: None,
        }
    }
}

impl TimeSeries {
    /// Whether a row at `t` is kept; past the cap, notes when the series stopped.
    fn room(&mut self, t: f64) -> bool {
        if self.time_s.len() < self.cap {
            return true;
        }
        self.truncated_at_s.get_or_insert(t);
        false
    }

    /// Append one row.
    pub fn push(
        &mut self,
        t: f64,
        scope: &'static str,
        id: u32,
        dir: &'static str,
        metric: &'static str,
        value: f64,
    ) {
        if !self.room(t) {
            return;
        }
        self.time_s.push(t);
        self.scope.push(scope);
        self.id.push(id);
        self.dir.push(Cow::Borrowed(dir));
        self.metric.push(metric);
        self.value.push(value);
    }

    /// Append one row whose `dir` is built at run time (an address, a stream name).
    pub fn push_owned(
        &mut self,
        t: f64,
        scope: &'static str,
        id: u32,
        dir: String,
        metric: &'static str,
        value: f64,
    ) {
        if !self.room(t) {
            return;
        }
        self.time_s.push(t);
        self.scope.push(scope);
        self.id.push(id);
        self.dir.push(Cow::Owned(dir));
        self.metric.push(metric);
        self.value.push(value);
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.time_s.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.time_s.is_empty()
    }
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// `summary.json`.
    pub summary: Summary,
    /// `timeseries.parquet`.
    pub timeseries: TimeSeries,
    /// `run.json`.
    pub manifest: RunManifest,
    /// Capture files written.
    pub pcap_files: Vec<std::path::PathBuf>,
    /// The per-packet trace (`trace.parquet`), when one was asked for.
    pub trace: Option<crate::trace::PacketTrace>,
}

#[cfg(test)]
mod tests {
    use super::TimeSeries;

    /// Rows past the cap are not kept, and the series says from when (issue 35 item 1).
    #[test]
    fn the_series_stops_at_its_cap_and_says_when() {
        let mut s = TimeSeries {
            cap: 3,
            ..TimeSeries::default()
        };
        for k in 0..5 {
            s.push(f64::from(k), "flow", 0, "", "goodput_bps", 1.0);
            s.push_owned(f64::from(k) + 0.5, "flow", 0, "x".into(), "cwnd_bytes", 2.0);
        }
        assert_eq!(s.len(), 3);
        assert_eq!(s.dir.len(), 3);
        assert_eq!(s.truncated_at_s, Some(1.5));
        assert_eq!(TimeSeries::default().cap, 10_000_000);
    }
}
