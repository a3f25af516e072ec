//! Time-series rows of SCTP flows: the association's notifications (path state, ASCONF
//! outcomes) and metric stream (TSNs sent, acknowledged and dropped, per-path cwnd, ssthresh,
//! RTT and RTO, path switches, gap reports), and the per-stream delivery delays of each
//! sampling interval.

use super::asctp::{AsctpPaths, RouteRow};
use super::{CLIENT, SERVER};
use crate::drop::DropReason;
use crate::results::TimeSeries;
use crate::scenario::{AsconfActionKind, AsconfActionSpec, FlowSide};
use crate::sim::transport::carrying;
use crate::sim::transport::End;
use sctpsim_kernel::SimTime;
use sctpsim_proto::app::MessageSource;
use sctpsim_proto::transport::sctp::{AsconfRequestKind, MetricKind, RtxCause, SctpEvent};
use sctpsim_wire::ipv4::IpProtocol;
use sctpsim_wire::sctp::{ChunkRepr, SctpPacket, SctpRepr};
use std::net::Ipv4Addr;

/// `tsn` as an ordinal: 1 is the first DATA chunk (Initial TSN).
fn rel_tsn(tsn: u32, initial: u32) -> f64 {
    f64::from(tsn.wrapping_sub(initial)) + 1.0
}

/// The time-series metric of an ASCONF request's outcome.
pub(super) fn asconf_metric(kind: AsconfRequestKind) -> &'static str {
    match kind {
        AsconfRequestKind::AddIp => "asconf_add_ip",
        AsconfRequestKind::DeleteIp => "asconf_delete_ip",
        AsconfRequestKind::SetPrimary => "asconf_set_primary",
    }
}

/// The metric of a stream reconfiguration request's outcome (RFC 6525): 1 performed, 0 not.
pub(super) fn reconfig_metric(
    kind: sctpsim_proto::transport::sctp::ReconfigRequestKind,
) -> &'static str {
    use sctpsim_proto::transport::sctp::ReconfigRequestKind as R;
    match kind {
        R::ResetOutgoing => "reconfig_reset_outgoing",
        R::ResetIncoming => "reconfig_reset_incoming",
        R::ResetSsnTsn => "reconfig_reset_ssn_tsn",
        R::AddOutgoing => "reconfig_add_outgoing",
        R::AddIncoming => "reconfig_add_incoming",
    }
}

/// What the rows of one pump need to know.
pub(super) struct PumpCtx<'a> {
    /// The flow's index in the scenario (the rows' id).
    pub id: u32,
    /// `CLIENT` or `SERVER`.
    pub side: End,
    pub now: SimTime,
    /// The client's Initial TSN (TSN rows count from it).
    pub initial: u32,
    /// The server's addresses, primary first (path switches are rows by index).
    pub peer_addrs: &'a [Ipv4Addr],
    pub asconf: &'a [AsconfActionSpec],
    /// A-SCTP's path manager (client side): route paths are named `<peer>#<slot>`.
    pub asctp: Option<&'a AsctpPaths>,
}

impl PumpCtx<'_> {
    /// The name of path `key` in rows: its address, or `<peer>#<slot>` for an A-SCTP route
    /// path (whose key is an internal alias).
    fn label(&self, key: Ipv4Addr) -> String {
        self.asctp
            .and_then(|m| m.label(key))
            .unwrap_or_else(|| key.to_string())
    }

    /// The index of path `key` in `path_switch` rows: the A-SCTP slot, or the position in
    /// `peer_addresses` (then in the addresses the receiver adds by ASCONF).
    fn index(&self, key: Ipv4Addr) -> usize {
        if let Some(k) = self.asctp.and_then(|m| m.slot_of(key)) {
            return k;
        }
        let added = self
            .asconf
            .iter()
            .filter(|a| a.side == FlowSide::Dst && a.action == AsconfActionKind::AddIp);
        self.peer_addrs
            .iter()
            .copied()
            .chain(added.map(|a| a.address))
            .position(|p| p == key)
            .unwrap_or(0)
    }

    /// A-SCTP route changes: `route_hops` rows (`dir` the path, value its route's hops, 0 when
    /// the route is gone).
    pub(super) fn route_rows(&self, series: &mut TimeSeries, rows: &[RouteRow]) {
        for &(time, key, hops) in rows {
            let v = f64::from(hops.unwrap_or(0));
            series.push_owned(
                time.as_secs_f64(),
                "flow",
                self.id,
                self.label(key),
                "route_hops",
                v,
            );
        }
    }

    /// A notification: path state rows, abandoned messages, ASCONF outcomes. Returns whether
    /// the association learned a new peer address or confirmed a new address of its own
    /// (sources must be pinned again).
    pub(super) fn event(
        &self,
        series: &mut TimeSeries,
        source: &mut MessageSource,
        ev: SctpEvent,
    ) -> bool {
        let (t, id) = (self.now.as_secs_f64(), self.id);
        match ev {
            SctpEvent::PathDown { addr } if self.side == CLIENT => {
                series.push_owned(t, "flow", id, self.label(addr), "path_active", 0.0);
            }
            SctpEvent::PathUp { addr } if self.side == CLIENT => {
                series.push_owned(t, "flow", id, self.label(addr), "path_active", 1.0);
            }
            SctpEvent::SendFailed { stream, .. } if self.side == CLIENT => {
                source.abandoned(stream);
            }
            SctpEvent::PathAdded { .. } => return true,
            SctpEvent::AsconfResult {
                kind,
                addr,
                success,
            } => {
                let v = if success { 1.0 } else { 0.0 };
                series.push_owned(t, "flow", id, addr.to_string(), asconf_metric(kind), v);
                // A confirmed new address of ours can now be a source: pin again.
                return success && kind == AsconfRequestKind::AddIp;
            }
            SctpEvent::ReconfigResult { kind, result, .. } => {
                use sctpsim_wire::sctp::ReconfigResult as R;
                let v = if matches!(result, R::Performed | R::NothingToDo) {
                    1.0
                } else {
                    0.0
                };
                let dir = super::driver::side_name(self.side);
                series.push_owned(t, "flow", id, dir.into(), reconfig_metric(kind), v);
            }
            _ => {}
        }
        false
    }

    /// A metric sample: TSN-vs-time, per-path cwnd/ssthresh/RTT, path switches (sender);
    /// SACKs with gap blocks (receiver).
    pub(super) fn metric(&self, series: &mut TimeSeries, time: SimTime, kind: MetricKind) {
        let (t, id) = (time.as_secs_f64(), self.id);
        match (self.side, kind) {
            (
                CLIENT,
                MetricKind::TsnSent {
                    tsn,
                    path,
                    retransmission,
                },
            ) => {
                let metric = match retransmission {
                    None => "tsn_sent",
                    Some(RtxCause::Fast) => "tsn_fast_rtx",
                    Some(RtxCause::T3) => "tsn_t3_rtx",
                    Some(RtxCause::Early) => "tsn_early_rtx",
                    Some(RtxCause::Failover) => "tsn_failover_rtx",
                };
                let v = rel_tsn(tsn.0, self.initial);
                series.push_owned(t, "flow", id, self.label(path), metric, v);
            }
            (CLIENT, MetricKind::TsnAcked { tsn }) => {
                series.push(t, "flow", id, "", "tsn_acked", rel_tsn(tsn.0, self.initial));
            }
            (
                CLIENT,
                MetricKind::Cwnd {
                    path,
                    cwnd,
                    ssthresh,
                },
            ) => {
                let p = self.label(path);
                series.push_owned(t, "flow", id, p.clone(), "cwnd_bytes", cwnd.into());
                series.push_owned(t, "flow", id, p, "ssthresh_bytes", ssthresh.into());
            }
            (CLIENT, MetricKind::Rtt { path, rtt, rto }) => {
                let p = self.label(path);
                series.push_owned(t, "flow", id, p.clone(), "rtt_s", rtt.as_secs_f64());
                series.push_owned(t, "flow", id, p, "rto_s", rto.as_secs_f64());
            }
            (CLIENT, MetricKind::PathSwitch { from, to, cause }) => {
                let k = self.index(to) as f64;
                series.push_owned(t, "flow", id, self.label(to), "path_switch", k);
                // The same switch: why, and where from (join on the time).
                let from = self.index(from) as f64;
                series.push(t, "flow", id, cause.name(), "path_switch_cause", from);
            }
            (SERVER, MetricKind::SackSent { gap_blocks, .. }) if gap_blocks > 0 => {
                series.push(t, "flow", id, "", "sack_gap_blocks", gap_blocks.into());
            }
            _ => {}
        }
    }
}

impl super::SctpFlow {
    /// A lost packet of the flow: a `dropped_tsn` row (dir: the drop reason) for every DATA
    /// chunk the client had put in it; how many rows.
    pub(super) fn drop_rows_of(
        &self,
        now: SimTime,
        bytes: &[u8],
        reason: DropReason,
        series: &mut TimeSeries,
    ) -> u64 {
        let Some(ip) = carrying(bytes, IpProtocol::Sctp) else {
            return 0;
        };
        let src = ip.src_addr();
        if !self.local_addrs.contains(&src) && !self.asconf_added(FlowSide::Src).any(|a| a == src) {
            return 0;
        }
        let Ok(pkt) = SctpPacket::new_checked(ip.payload()).and_then(|p| SctpRepr::parse(&p))
        else {
            return 0;
        };
        let (id, initial) = (self.ep.spec_index as u32, self.initial_tsn());
        let t = now.as_secs_f64();
        let mut rows = 0;
        for c in &pkt.chunks {
            if let ChunkRepr::Data(d) = c {
                let v = rel_tsn(d.tsn.0, initial);
                series.push(t, "flow", id, reason.name(), "dropped_tsn", v);
                rows += 1;
            }
        }
        rows
    }

    /// Per-stream delivery delay rows of the interval that ends at `t` (`message_delay_s`,
    /// dir `stream<k>`), for streams that delivered something in it.
    pub(super) fn sample_rows(&mut self, t: f64, series: &mut TimeSeries) {
        let id = self.ep.spec_index as u32;
        for (stream, sum, n) in self.sink.take_intervals() {
            if n > 0 {
                let mean = sum as f64 / n as f64 / 1e9;
                series.push_owned(
                    t,
                    "flow",
                    id,
                    format!("stream{stream}"),
                    "message_delay_s",
                    mean,
                );
            }
        }
    }
}
