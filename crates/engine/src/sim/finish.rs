//! Turning the counters of a finished run into its results.

use super::transport::TransportTables;
use super::{SimError, Simulation};
use crate::drop::DropReason;
use crate::results::{DropResult, FlowResult, LinkResult, NetworkResult, RunResult, Summary};
use sctpsim_kernel::RunManifest;

impl Simulation {
    /// One row per flow (or no flow) and reason with at least one dropped packet.
    fn drop_results(&self) -> Vec<DropResult> {
        let mut rows = Vec::new();
        for (slot, d) in self.drops.iter().enumerate() {
            let flow = match slot {
                0 => None,
                k => match self.flows.get(k - 1) {
                    Some(f) => Some(f.ep().spec_index as u32),
                    None => continue,
                },
            };
            for r in DropReason::ALL {
                let packets = d.packets[r as usize];
                if packets > 0 {
                    rows.push(DropResult {
                        flow,
                        reason: r.name().to_string(),
                        packets,
                        records: d.records[r as usize],
                    });
                }
            }
        }
        rows
    }

    fn flow_results(&self) -> Vec<FlowResult> {
        let spec = &self.scenario.spec;
        let end = self.now;
        self.flows
            .iter()
            .zip(&self.route_hops)
            .map(|(flow, hops)| {
                let ep = flow.ep();
                let fs = &spec.flows[ep.spec_index];
                let start = sctpsim_kernel::SimTime::ZERO + fs.start.0;
                let base = FlowResult {
                    id: ep.spec_index as u32,
                    transport: fs.transport.name().into(),
                    app: fs.app.name().into(),
                    src: self.nodes[ep.src.index()].name.clone(),
                    dst: self.nodes[ep.dst.index()].name.clone(),
                    bytes_sent: 0,
                    bytes_delivered: 0,
                    goodput_bps: 0.0,
                    packets_sent: 0,
                    packets_delivered: 0,
                    delivered_fraction: 0.0,
                    retransmissions: 0,
                    fast_retransmits: 0,
                    timeouts: 0,
                    mean_rtt_s: None,
                    mean_delay_s: None,
                    reordered: 0,
                    delivery_errors: 0,
                    acks_sent: 0,
                    data_packets_sent: 0,
                    data_packets_received: 0,
                    mean_route_hops: None,
                    relayed_fraction: None,
                    first_data_received_s: None,
                    completion_time_s: None,
                };
                let (mut r, stop) = flow.result(base, end);
                r.mean_route_hops = hops.mean();
                r.relayed_fraction = hops.relayed_fraction();
                r.first_data_received_s = hops.first.map(|t| t.as_secs_f64());
                r.completion_time_s = hops
                    .completed
                    .map(|t| t.saturating_since(start).as_secs_f64());
                // A completed file's goodput is over its transfer, not over the rest of the run
                // (issue 35 item 7; ns-3 FlowMonitor's throughput also ends at the last packet).
                let stop = hops.completed.unwrap_or(stop);
                let active = stop.min(end).saturating_since(start).as_secs_f64();
                r.goodput_bps = if active > 0.0 {
                    r.bytes_delivered as f64 * 8.0 / active
                } else {
                    0.0
                };
                r.delivered_fraction = if r.packets_sent > 0 {
                    r.packets_delivered as f64 / r.packets_sent as f64
                } else {
                    0.0
                };
                r
            })
            .collect()
    }

    pub(super) fn finish(mut self, wall_s: f64, interrupted: bool) -> Result<RunResult, SimError> {
        self.mip_finish();
        self.cell_finish();
        let spec = &self.scenario.spec;
        let end_s = self.now.as_secs_f64();
        let flows = self.flow_results();
        let sent_total: u64 = flows.iter().map(|f| f.packets_sent).sum();
        let delivered_total: u64 = flows.iter().map(|f| f.packets_delivered).sum();
        let mut links = Vec::new();
        let mut net = NetworkResult {
            pdf: if sent_total > 0 {
                delivered_total as f64 / sent_total as f64
            } else {
                0.0
            },
            routing_packets: 0,
            routing_bytes: 0,
            mac_drops: 0,
            queue_drops: 0,
            loss_drops: 0,
            scripted_drops: 0,
            outage_drops: 0,
            ttl_drops: 0,
            no_route_drops: 0,
            malformed_drops: 0,
            icmp_sent: 0,
            icmp_time_exceeded_sent: 0,
            mean_delay_s: None,
            normalized_routing_load: 0.0,
            route_discoveries: 0,
            route_discoveries_succeeded: 0,
            route_requests: 0,
            mean_discovery_latency_s: 0.0,
            route_errors: 0,
            link_breaks: 0,
            routes_broken: 0,
            salvaged: 0,
            send_buffer_drops: 0,
            link_broken_drops: 0,
            routing_malformed: 0,
            beacons_sent: 0,
            beacons_received: 0,
            mip_tunnelled: self.mip.as_ref().map_or(0, |m| m.tunnelled),
            mip_decapsulated: self.mip.as_ref().map_or(0, |m| m.decapsulated),
            ar_beacons_sent: self.cell.as_ref().map_or(0, |c| c.beacons_sent),
            ar_beacons_heard: self.cell.as_ref().map_or(0, |c| c.beacons_heard),
            ar_addresses_acquired: self.cell.as_ref().map_or(0, |c| c.acquired),
            ar_addresses_released: self.cell.as_ref().map_or(0, |c| c.released),
        };
        for (k, link) in self.links.iter().enumerate() {
            for (d, dir) in link.dirs.iter().enumerate() {
                let c = &dir.counters;
                net.queue_drops += c.queue_drops;
                net.loss_drops += c.loss_drops;
                net.scripted_drops += c.scripted_drops;
                net.outage_drops += c.outage_drops;
                let busy = c.busy_ns as f64 / 1e9;
                links.push(LinkResult {
                    id: k as u32,
                    dir: if d == 0 { "fwd".into() } else { "rev".into() },
                    from: self.nodes[dir.from.index()].name.clone(),
                    to: self.nodes[dir.to.index()].name.clone(),
                    tx_packets: c.tx_packets,
                    tx_bytes: c.tx_bytes,
                    queue_drops: c.queue_drops,
                    loss_drops: c.loss_drops,
                    scripted_drops: c.scripted_drops,
                    outage_drops: c.outage_drops,
                    utilization: if end_s > 0.0 {
                        (busy / end_s).min(1.0)
                    } else {
                        0.0
                    },
                });
            }
        }
        let macs = self.wifi_results(&mut net);
        let routing = self.routing_results(&mut net);
        let (mut delay_sum, mut delay_n) = (0.0, 0u64);
        for f in &flows {
            if let Some(d) = f.mean_delay_s {
                delay_sum += d * f.packets_delivered as f64;
                delay_n += f.packets_delivered;
            }
        }
        if delay_n > 0 {
            net.mean_delay_s = Some(delay_sum / delay_n as f64);
        }
        if delivered_total > 0 {
            net.normalized_routing_load = net.routing_packets as f64 / delivered_total as f64;
        }
        self.beacon_results(&mut net);
        let mut tables = TransportTables::default();
        for f in &self.flows {
            f.result_rows(&mut tables);
        }
        for n in &self.nodes {
            net.ttl_drops += n.ip.ttl_drops;
            net.no_route_drops += n.ip.no_route_drops;
            net.malformed_drops += n.ip.malformed_drops;
            net.icmp_sent += n.ip.icmp_sent;
            net.icmp_time_exceeded_sent += n.ip.icmp_time_exceeded_sent;
        }
        for f in &self.flows {
            net.malformed_drops += f.malformed();
        }
        let summary = Summary {
            name: spec.simulation.name.clone(),
            seed: self.seed,
            sim_time_s: end_s,
            wall_time_s: wall_s,
            events: self.events,
            interrupted,
            flows,
            links,
            macs,
            sctp: tables.sctp,
            paths: tables.paths,
            streams: tables.streams,
            routing,
            drops: self.drop_results(),
            handoffs: self
                .mip
                .as_mut()
                .map(|m| std::mem::take(&mut m.handoffs))
                .unwrap_or_default()
                .into_iter()
                .chain(
                    self.cell
                        .as_mut()
                        .map(|c| std::mem::take(&mut c.handoffs))
                        .unwrap_or_default(),
                )
                .collect(),
            network: net,
            trace: self.trace.as_ref().map(|t| t.summary()),
            timeseries_truncated_at_s: self.series.truncated_at_s,
        };
        let manifest = RunManifest {
            version: env!("CARGO_PKG_VERSION").to_string(),
            scenario_hash: self.scenario.hash(),
            seed: self.seed,
            sim_time_s: end_s,
            events: self.events,
            wall_time_s: wall_s,
            interrupted,
        };
        let pcap_files = match self.capture {
            Some(c) => c.finish().map_err(SimError::Io)?,
            None => Vec::new(),
        };
        Ok(RunResult {
            summary,
            timeseries: self.series,
            manifest,
            pcap_files,
            trace: self.trace.map(|t| t.finish()),
        })
    }
}
