//! Driving the wireless part (`crate::wireless`): MAC inputs and outputs, frames on the
//! channel, radio events, IP over wireless interfaces, routes, samples and results.
//!
//! # A frame's life
//!
//! After every input to a MAC the engine *pumps* it ([`Simulation::wifi_pump`]): every frame
//! it wants to send now goes on the air (the radio stops receiving — half duplex — and the
//! channel computes who hears it: a `WifiRxStart` at each receiver after the propagation
//! delay, a `WifiRxEnd` when the last bit arrives, a `WifiTxEnd` at the transmitter), its
//! events go up (delivered packets to IP input, drops to the counters and the time series),
//! and its next deadline is queued as a `WifiTimer` unless an earlier one is already queued
//! (a wake-up that finds nothing due is a no-op, so nothing is ever cancelled). Radio events
//! reach the MAC only when they change something for it: a CCA edge
//! (`handle_medium_busy/idle`) or the end of a frame the radio was locked on to
//! (`handle_rx_frame`, before the CCA edge of the same instant).

use super::{Event, Simulation};
use crate::drop::DropReason;
use crate::packet::Packet;
use crate::results::{MacResult, NetworkResult};
use crate::trace::TraceEvent;
use crate::wireless::channel::AirFrame;
use sctpsim_proto::mac::phy_timing::DSSS_SHORT_PLCP;
use sctpsim_proto::mac::{FrameKind, MacAddr, MacEvent, PhyMode, Preamble, RxInfo, TxRequest};
use sctpsim_wire::ieee80211::{DATA_OVERHEAD, FCS_LEN};
use sctpsim_wire::pcap::{Radiotap, RADIOTAP_FLAG_FCS, RADIOTAP_FLAG_SHORT_PREAMBLE};
use sctpsim_world::power::w_to_dbm;

/// Octets of an ad hoc data frame before the IP packet: 24-octet header + 8-octet LLC/SNAP.
pub(super) const DATA_PREFIX: usize = 32;
/// The Retry bit of the Frame Control field's second octet (§9.2.4.1.6).
const RETRY_BIT: u8 = 0x08;

impl Simulation {
    /// Puts everything MAC `w` has to do now into effect: transmissions, events, its timer.
    pub(super) fn wifi_pump(&mut self, w: u32) {
        let now = self.now;
        if self.tracing() {
            self.trace_mac_dequeue(w);
        }
        loop {
            let wifi = &mut *self.wifi;
            let Some(req) = wifi.ifaces[w as usize].dcf.poll_transmit(now) else {
                break;
            };
            self.wifi_transmit(w, req);
        }
        loop {
            let wifi = &mut *self.wifi;
            let Some(ev) = wifi.ifaces[w as usize].dcf.poll_event() else {
                break;
            };
            match ev {
                MacEvent::Delivered {
                    src, bytes, tag, ..
                } => self.wifi_deliver(w, src, Packet { bytes, tag }),
                MacEvent::Overheard {
                    src, bytes, tag, ..
                } => self.routing_overheard(w, src, Packet { bytes, tag }),
                MacEvent::TxFailed { next_hop, sdu, .. } if self.routing.is_some() => {
                    self.routing_link_failure(w, next_hop, sdu);
                }
                MacEvent::TxSuccess { dst, .. } if self.routing.is_some() && !dst.is_group() => {
                    self.routing_tx_success(w, dst);
                }
                MacEvent::TxFailed { next_hop, sdu, .. } => {
                    if self.mip.is_some() {
                        let node = self.wifi.ifaces[w as usize].node;
                        self.mip_link_failure(node, next_hop);
                    }
                    let at = self.mac_at(w);
                    self.drop_packet(at, &sdu.into_packet(), DropReason::MacRetryLimit);
                }
                MacEvent::QueueDrop { sdu } => {
                    let at = self.mac_at(w);
                    self.drop_packet(at, &sdu.into_packet(), DropReason::Queue);
                }
                ev => self.infra_event(w, ev),
            }
        }
        let wifi = &mut *self.wifi;
        let f = &mut wifi.ifaces[w as usize];
        if let Some(t) = f.dcf.poll_timeout() {
            let t = t.max(now);
            if f.wake.arm(t) {
                self.queue.push(t, Event::WifiTimer(w));
            }
        }
    }

    /// Starts frame `req` of interface `w` on the air.
    fn wifi_transmit(&mut self, w: u32, req: TxRequest) {
        let now = self.now;
        let wifi = &mut *self.wifi;
        let end = now + req.duration;
        let f = &mut wifi.ifaces[w as usize];
        let (node, index) = (f.node, f.iface);
        if let Some(busy) = f.radio.tx_start(now, end) {
            if busy {
                f.dcf.handle_medium_busy(now);
            } else {
                f.dcf.handle_medium_idle(now);
            }
        }
        if let Some(c) = &mut self.capture {
            c.record_mac(
                node,
                index,
                now,
                radiotap(req.mode, req.preamble, None),
                &req.frame,
            );
            // The IP-level capture sees a packet when its first transmission starts, as for
            // links.
            let first = req.frame.get(1).is_some_and(|b| b & RETRY_BIT == 0);
            if req.kind == FrameKind::Data && first && req.frame.len() >= DATA_OVERHEAD {
                let ip = &req.frame[DATA_PREFIX..req.frame.len() - FCS_LEN];
                c.record(node, index, now, ip);
            }
        }
        if req.kind == FrameKind::Data {
            if let Some(t) = self.trace.as_deref_mut() {
                super::trace::mac_tx(t, now, node, index, &req.frame, req.tag);
            }
        }
        let deliveries = wifi.channel.transmit(now, w);
        if !deliveries.is_empty() {
            let frame =
                AirFrame::new(req.frame, req.mode, req.preamble, w, req.duration).with_tag(req.tag);
            let id = wifi.frames.insert(frame, deliveries.len() as u32);
            // Load every receiver's radio and MAC state now, all at once: the loads overlap,
            // whereas the RxStart events that follow would each wait for their own cache
            // misses (with 10,000 interfaces their state is far larger than the caches).
            let mut warm = 0u64;
            for d in deliveries {
                let f = &wifi.ifaces[d.rx as usize];
                warm = warm
                    .wrapping_add(f.radio.touch())
                    .wrapping_add(f.dcf.touch())
                    .wrapping_add(f.wake.get().map_or(0, |t| t.0));
            }
            std::hint::black_box(warm);
            for d in deliveries {
                let start = now + d.delay;
                self.queue
                    .push(start, Event::WifiRxStart(d.rx, id, d.power_w));
                self.queue
                    .push(start + req.duration, Event::WifiRxEnd(d.rx, id, d.power_w));
            }
        }
        self.queue.push(end, Event::WifiTxEnd(w));
    }

    /// A frame starts arriving at interface `w`.
    pub(super) fn wifi_rx_start(&mut self, w: u32, id: u32, power_w: f64) {
        let now = self.now;
        let wifi = &mut *self.wifi;
        let Some(frame) = wifi.frames.get(id) else {
            return;
        };
        let end = now + frame.duration;
        // Positions are only computed for the frame error model (lazy mobility).
        let distance_m = if wifi.ifaces[w as usize].radio.needs_distance() {
            let a = wifi.channel.position(frame.tx, now);
            a.distance_to(wifi.channel.position(w, now))
        } else {
            f64::NAN
        };
        let f = &mut wifi.ifaces[w as usize];
        let Some(busy) = f
            .radio
            .rx_start_at(now, id, frame, power_w, end, distance_m)
        else {
            return;
        };
        if busy {
            f.dcf.handle_medium_busy(now);
        } else {
            f.dcf.handle_medium_idle(now);
        }
        self.wifi_pump(w);
    }

    /// A frame ends at interface `w`.
    pub(super) fn wifi_rx_end(&mut self, w: u32, id: u32, power_w: f64) {
        let now = self.now;
        let wifi = &mut *self.wifi;
        let f = &mut wifi.ifaces[w as usize];
        let (report, cca) = f.radio.rx_end(now, id, power_w);
        let mut changed = cca.is_some();
        if let (Some(r), Some(frame)) = (report, wifi.frames.get(id)) {
            changed = true;
            let info = RxInfo {
                ok: r.ok,
                rssi_dbm: w_to_dbm(r.power_w),
                mode: r.mode,
                // The channel never alters a frame's bytes; the radio decided its fate.
                fcs_verified: true,
                tag: frame.tag,
            };
            f.dcf.handle_rx_frame(now, &frame.bytes, info);
            if let (Some(loss), Some(t)) = (r.loss, self.trace.as_deref_mut()) {
                super::trace::phy_rx_loss(t, now, f.node, f.iface, loss, &frame.bytes, frame.tag);
            }
            if r.ok {
                if let Some(c) = &mut self.capture {
                    let radio = radiotap(frame.mode, frame.preamble, Some(w_to_dbm(r.power_w)));
                    c.record_mac(f.node, f.iface, now, radio, &frame.bytes);
                }
            }
        }
        match cca {
            Some(true) => f.dcf.handle_medium_busy(now),
            Some(false) => f.dcf.handle_medium_idle(now),
            None => {}
        }
        wifi.frames.release(id);
        if changed {
            self.wifi_pump(w);
        }
    }

    /// Interface `w`'s own transmission ended.
    pub(super) fn wifi_tx_end(&mut self, w: u32) {
        let now = self.now;
        self.wifi.ifaces[w as usize].dcf.handle_tx_end(now);
        self.wifi_pump(w);
    }

    /// A MAC wake-up.
    pub(super) fn wifi_timer(&mut self, w: u32) {
        let now = self.now;
        let f = &mut self.wifi.ifaces[w as usize];
        f.wake.fired(now);
        f.dcf.handle_timeout(now);
        self.wifi_pump(w);
    }

    /// A packet the MAC of `w` delivered goes to IP input, routed node or not.
    fn wifi_deliver(&mut self, w: u32, src: MacAddr, pkt: Packet) {
        let wifi = &*self.wifi;
        let f = &wifi.ifaces[w as usize];
        let (node, index) = (f.node, f.iface);
        if let Some(c) = &mut self.capture {
            c.record(node, index, self.now, &pkt.bytes);
        }
        let at = crate::trace::TraceAt::iface(node, crate::trace::Layer::Mac, index);
        self.trace(at, TraceEvent::Rx, &pkt);
        if self.mip.is_some() {
            self.mip_heard(node, src, &pkt);
        }
        self.ip_input(node, Some(src), pkt);
    }

    /// Network-wide MAC figures in the time series (cumulative counts and queue length).
    pub(super) fn wifi_sample(&mut self, t: f64) {
        if self.wifi.is_empty() {
            return;
        }
        let wifi = &*self.wifi;
        let (mut attempts, mut collisions, mut success, mut queued, mut drops) = (0, 0, 0, 0, 0);
        for f in &wifi.ifaces {
            let c = f.dcf.counters();
            attempts += c.unicast_attempts;
            collisions += c.collisions();
            success += c.tx_success;
            drops += c.retry_drops();
            queued += f.dcf.queue_len() as u64;
        }
        let s = &mut self.series;
        s.push(t, "network", 0, "", "mac_unicast_attempts", attempts as f64);
        s.push(t, "network", 0, "", "mac_collisions", collisions as f64);
        s.push(t, "network", 0, "", "mac_tx_success", success as f64);
        s.push(t, "network", 0, "", "mac_drops", drops as f64);
        s.push(t, "network", 0, "", "mac_queue_packets", queued as f64);
        if self.scenario.spec.simulation.trace_positions {
            self.wifi_trace_positions(t);
        }
    }

    /// `x_m`, `y_m` of every wireless node now (scope `node`, id = node index), from the
    /// mobility models (asking for a position does not change the run: positions are pure
    /// functions of time).
    fn wifi_trace_positions(&mut self, t: f64) {
        let now = self.now;
        let wifi = &mut *self.wifi;
        for r in 0..wifi.ifaces.len() {
            let node = wifi.ifaces[r].node.0;
            let p = wifi.channel.position(r as u32, now);
            self.series.push(t, "node", node, "", "x_m", p.x_m);
            self.series.push(t, "node", node, "", "y_m", p.y_m);
        }
    }

    /// Per-interface MAC rows; adds MAC and interface-queue drops to `net`.
    pub(super) fn wifi_results(&self, net: &mut NetworkResult) -> Vec<MacResult> {
        let wifi = &*self.wifi;
        wifi.ifaces
            .iter()
            .enumerate()
            .map(|(w, f)| {
                let infra = self.infra_counts(w);
                let c = f.dcf.counters();
                let r = f.radio.counters();
                net.mac_drops += c.retry_drops();
                net.queue_drops += c.queue_drops;
                let node = &self.nodes[f.node.index()];
                MacResult {
                    node: node.name.clone(),
                    iface: node.ifaces[f.iface as usize].name.clone(),
                    mac: f.mac.to_string(),
                    enqueued: c.enqueued,
                    queue_drops: c.queue_drops,
                    access_attempts: c.access_attempts,
                    unicast_attempts: c.unicast_attempts,
                    tx_data: c.tx_data,
                    tx_data_retries: c.tx_data_retries,
                    tx_rts: c.tx_rts,
                    tx_cts: c.tx_cts,
                    tx_ack: c.tx_ack,
                    tx_success: c.tx_success,
                    collisions: c.collisions(),
                    cts_timeouts: c.cts_timeouts,
                    ack_timeouts: c.ack_timeouts,
                    acked_first_try: c.acked_after_retries[0],
                    acked_after_1_retry: c.acked_after_retries[1],
                    acked_after_2_retries: c.acked_after_retries[2],
                    acked_after_3plus_retries: c.acked_after_retries[3],
                    collision_probability: if c.unicast_attempts > 0 {
                        c.collisions() as f64 / c.unicast_attempts as f64
                    } else {
                        0.0
                    },
                    retry_drops: c.retry_drops(),
                    rx_frames: c.rx_frames,
                    rx_errors: c.rx_errors,
                    rx_duplicates: c.rx_duplicates,
                    delivered: c.delivered,
                    phy_arrivals: r.arrivals,
                    phy_locked: r.locked,
                    phy_collisions: r.collisions,
                    phy_captures: r.captures,
                    phy_half_duplex: r.half_duplex,
                    phy_below_rx_thresh: r.below_rx_thresh,
                    phy_frame_errors: r.frame_errors,
                    associations: infra.associations,
                    reassociations: infra.reassociations,
                    disassociations: infra.disassociations,
                    beacons_lost: infra.beacons_lost,
                    unassociated_drops: infra.unassociated_drops,
                    rate_changes: f.dcf.rate_controller().map_or(0, |rc| rc.rate_changes()),
                    mean_data_rate_bps: c.mean_data_rate_bps(),
                }
            })
            .collect()
    }
}

/// The radiotap header of a frame in a MAC-level capture: the FCS is always there; the rate;
/// the short preamble for the DSSS/HR-DSSS frames that use it; the signal power of a received
/// frame, rounded to a whole dBm.
fn radiotap(mode: PhyMode, preamble: Preamble, signal_dbm: Option<f64>) -> Radiotap {
    let mut flags = RADIOTAP_FLAG_FCS;
    // Only DSSS/HR-DSSS modes above 1 Mbit/s have the short preamble (never DsssAnyRate).
    if mode.plcp_overhead(preamble) == DSSS_SHORT_PLCP {
        flags |= RADIOTAP_FLAG_SHORT_PREAMBLE;
    }
    Radiotap {
        flags,
        rate_500kbps: mode.rate_500kbps(),
        // `as` saturates; NaN (no signal) becomes 0, which never happens for a decoded frame.
        antenna_signal_dbm: signal_dbm.map(|d| d.round() as i8),
    }
}
