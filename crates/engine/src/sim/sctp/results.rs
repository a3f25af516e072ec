//! The rows of SCTP flows at the end of a run: the flow row, and the association, path and
//! stream rows (`results_sctp.rs`).

use super::app::quantile_s;
use super::{SctpFlow, CLIENT, SERVER};
use crate::results::{FlowResult, PathResult, SctpResult, StreamResult};
use crate::sim::transport::End;
use crate::sim::transport::TransportTables;
use sctpsim_proto::transport::sctp::{Multipath, PathState, SctpStats};

impl SctpFlow {
    /// The flow row (`base` carries the common fields).
    pub(super) fn flow_result(&self, base: FlowResult) -> FlowResult {
        let s = self;
        let empty = SctpStats::default();
        let cs = s.sides[CLIENT].assoc().map_or(&empty, |a| a.stats());
        let ss = s.sides[SERVER].assoc().map_or(&empty, |a| a.stats());
        FlowResult {
            bytes_sent: cs.data_bytes_sent,
            bytes_delivered: s.sink.stats().bytes,
            packets_sent: s.data_packets_sent,
            packets_delivered: s.data_packets_received,
            retransmissions: cs.fast_retransmissions
                + cs.t3_retransmissions
                + cs.early_retransmissions
                + cs.failover_retransmissions,
            fast_retransmits: cs.fast_retransmit_events,
            timeouts: cs.t3_timeouts,
            mean_rtt_s: (cs.rtt_samples > 0)
                .then(|| cs.rtt_sum_ns as f64 / cs.rtt_samples as f64 / 1e9),
            mean_delay_s: s.sink.mean_delay_s(),
            reordered: s.sink.stats().reordered,
            acks_sent: ss.sacks_sent,
            data_packets_sent: s.data_packets_sent,
            data_packets_received: s.data_packets_received,
            ..base
        }
    }

    /// The flow's `sctp`, `paths` and `streams` rows, appended to `tables`.
    pub(super) fn sctp_rows(&self, tables: &mut TransportTables) {
        let s = self;
        let (assocs, paths, streams) = (&mut tables.sctp, &mut tables.paths, &mut tables.streams);
        let id = s.ep.spec_index as u32;
        let empty = SctpStats::default();
        let stats = |k: End| s.sides[k].assoc().map_or(&empty, |a| a.stats());
        let (cs, ss) = (stats(CLIENT), stats(SERVER));
        let client = s.sides[CLIENT].assoc();
        let cmt = client.is_some_and(|a| a.config().multipath == Multipath::Cmt);
        let reconfig = s.sides[CLIENT].endpoint.config().reconfig;
        let nr_sack = s.sides[CLIENT].endpoint.config().nr_sack;
        assocs.push(SctpResult {
            id,
            profile: s.profile.name().into(),
            state: client.map_or("none".into(), |a| a.state().name().into()),
            local_addresses: s.local_addrs.iter().map(|a| a.to_string()).collect(),
            peer_addresses: s.peer_addrs.iter().map(|a| a.to_string()).collect(),
            current_path: client.map(|a| {
                let key = a.status().current_path;
                // A-SCTP route paths by name (`<addr>#<slot>`), not by internal key.
                s.asctp
                    .as_ref()
                    .and_then(|m| m.label(key))
                    .unwrap_or_else(|| key.to_string())
            }),
            data_chunks_sent: cs.data_chunks_sent,
            fast_retransmissions: cs.fast_retransmissions,
            t3_retransmissions: cs.t3_retransmissions,
            early_retransmissions: cs.early_retransmissions,
            retransmissions_to_alternate: cs.retransmissions_to_alternate,
            fast_retransmit_events: cs.fast_retransmit_events,
            t3_timeouts: cs.t3_timeouts,
            path_switches: cs.path_switches,
            sacks_sent: ss.sacks_sent,
            gap_blocks_sent: ss.gap_blocks_sent,
            gap_blocks_received: cs.gap_blocks_received,
            duplicate_tsns: ss.duplicate_tsns_sent,
            rwnd_drops: ss.data_chunks_dropped_rwnd,
            heartbeats_sent: cs.heartbeats_sent + ss.heartbeats_sent,
            messages_sent: cs.messages_sent,
            messages_delivered: s.sink.stats().messages,
            messages_abandoned: cs.messages_abandoned,
            forward_tsns_sent: cs.forward_tsns_sent,
            delivery_errors: s.sink.stats().errors,
            messages_missing: s.sink.stats().missing,
            associations_lost: s.associations_lost,
            malformed_packets: s.sides.iter().map(|sd| sd.malformed).sum(),
            multipath: if s.asctp.is_some() {
                Some("asctp".into())
            } else {
                cmt.then(|| "cmt".into())
            },
            failover_retransmissions: s.asctp.as_ref().map(|_| cs.failover_retransmissions),
            misses_out_of_range: s.asctp.as_ref().map(|_| cs.misses_out_of_range),
            late_heartbeat_acks: s.asctp.as_ref().map(|_| cs.late_heartbeat_acks),
            cmt_pf_entries: cmt.then_some(cs.cmt_pf_entries),
            reconfig_requests_sent: reconfig
                .then_some(cs.reconfig_requests_sent + ss.reconfig_requests_sent),
            reconfig_performed: reconfig.then_some(cs.reconfig_performed + ss.reconfig_performed),
            reconfig_denied: reconfig.then_some(cs.reconfig_denied + ss.reconfig_denied),
            nr_sacks_sent: nr_sack.then_some(ss.nr_sacks_sent),
            nr_sacks_received: nr_sack.then_some(cs.nr_sacks_received),
        });
        for (k, side_name) in [(CLIENT, "sender"), (SERVER, "receiver")] {
            let Some(a) = s.sides[k].assoc() else {
                continue;
            };
            let status = a.status();
            for p in &status.paths {
                let ps = a.path_stats(p.addr).cloned().unwrap_or_default();
                // A-SCTP route paths (the sender's): the slot and its route.
                let slot = s
                    .asctp
                    .as_ref()
                    .filter(|_| k == CLIENT)
                    .and_then(|m| m.slot_of(p.addr).map(|i| (m, i)));
                let route = slot.map(|(m, _)| {
                    m.route_of(p.addr).map_or(String::new(), |r| {
                        r.iter()
                            .map(|a| a.to_string())
                            .collect::<Vec<_>>()
                            .join(">")
                    })
                });
                paths.push(PathResult {
                    route_slot: slot.map(|(_, i)| i as u32),
                    route,
                    flow: id,
                    side: side_name.into(),
                    addr: p.wire.to_string(),
                    source: p.source.to_string(),
                    primary: p.addr == status.primary,
                    state: match p.state {
                        PathState::Active => "active",
                        PathState::Inactive => "inactive",
                        PathState::Unconfirmed => "unconfirmed",
                    }
                    .into(),
                    cwnd_bytes: p.cwnd,
                    ssthresh_bytes: p.ssthresh,
                    srtt_s: p.srtt.map(|d| d.as_secs_f64()),
                    rto_s: p.rto.as_secs_f64(),
                    error_count: p.error_count,
                    packets_sent: ps.packets_sent,
                    data_chunks_sent: ps.data_chunks_sent,
                    retransmissions: ps.retransmissions,
                    t3_timeouts: ps.t3_timeouts,
                    fast_retransmit_reductions: ps.fast_retransmit_reductions,
                    bytes_acked: ps.bytes_acked,
                    times_down: ps.times_down,
                    heartbeats_sent: ps.heartbeats_sent,
                    rtt_min_s: ps.rtt_min.map(|d| d.as_secs_f64()),
                    rtt_max_s: ps.rtt_max.map(|d| d.as_secs_f64()),
                });
            }
        }
        for (k, &sent) in s.source.sent_per_stream().iter().enumerate() {
            let stream = k as u16;
            let rx = s.sink.streams().get(&stream);
            let delays: &[u64] = rx.map_or(&[], |r| r.delays.as_slice());
            let mean = (!delays.is_empty())
                .then(|| delays.iter().map(|&d| d as f64).sum::<f64>() / delays.len() as f64 / 1e9);
            streams.push(StreamResult {
                flow: id,
                stream,
                messages_sent: sent,
                messages_delivered: rx.map_or(0, |r| r.messages),
                messages_abandoned: s.source.abandoned_per_stream().get(k).copied().unwrap_or(0),
                bytes_delivered: rx.map_or(0, |r| r.bytes),
                mean_delay_s: mean,
                p50_delay_s: quantile_s(delays, 0.5),
                p95_delay_s: quantile_s(delays, 0.95),
                max_delay_s: delays.iter().max().map(|&d| d as f64 / 1e9),
            });
        }
    }
}
