//! DSDV — Destination-Sequenced Distance-Vector routing (C. E. Perkins and P. Bhagwat,
//! "Highly Dynamic Destination-Sequenced Distance-Vector Routing (DSDV) for Mobile Computers",
//! SIGCOMM 1994), with the rules and defaults of ns-3 3.44's `src/dsdv` module, the peer it is
//! validated against (`docs/models/dsdv.md`).
//!
//! # The protocol
//!
//! Every node keeps one route per destination: next hop, hop count and the destination's
//! sequence number. A node numbers its own advertisements with even sequence numbers, adding 2
//! at every periodic update; a route known to be broken is advertised with the next odd number
//! (metric ∞), which any later even number from the destination supersedes (paper,
//! §"Responding to topology changes"). A received route replaces the current one if its
//! sequence number is newer, or equal with fewer hops (§"Route selection criteria").
//!
//! Updates are UDP broadcasts to port 269 with TTL 1 (`sctpsim_wire::dsdv`):
//! * **periodic** (the paper's *full dump*): every `periodic_update_interval` (15 s, plus up to
//!   25 ms of jitter) the whole forwarding table, this node's own entry with a fresh sequence
//!   number, and the routes just purged as broken;
//! * **triggered** (the paper's *incremental* update): within 1 ms of every received update
//!   (ns-3 schedules one per update received), the changes not yet advertised, with this
//!   node's own entry; nothing is sent if there are none.
//!
//! A changed metric is advertised only after the destination's **weighted settling time**
//! (ns-3's `EnableWST`: 0.875 × the last settling time + 0.125 × the route's age; the paper's
//! §"Damping fluctuations" uses a running average of settling times for the same purpose),
//! while the forwarding table uses the new route at once. A route not refreshed by its next hop
//! within `holdtimes × periodic_update_interval` (45 s) is removed, with the routes through it,
//! and advertised as broken.
//!
//! # Where this follows ns-3 rather than the paper
//!
//! ns-3 is the reference run beside this model, so its choices are kept (each cited at the
//! code): the comparison of a received entry with the advertising-table copy of the route, the
//! settling formula, the purge rule, the per-update triggered sends, the send buffer
//! (`EnableBuffering`, not in the paper) and no use of MAC link-failure feedback (ns-3 learns
//! of a broken link only by the holddown). `link_layer_feedback = true` adds the paper's
//! immediate reaction instead: the MAC's failure marks every route through that neighbour
//! broken (next odd sequence number) and triggers an update at once.
//!
//! # Deterministic
//!
//! Tables are `BTreeMap`s; the jitter comes from the router's own random stream; there is no
//! clock but the `now` of each call.

mod table;
#[cfg(test)]
mod tests;

pub use table::Route;

use super::send_buffer::{BufferPolicy, Expiry, Overflow, SendBuffer};
use super::timers::TimerTable;
use super::{
    Decision, Outputs, RouteDropReason, Router, RoutingCounters, RoutingEvent, RoutingOutput,
};
use sctpsim_kernel::{Packet, PacketTag, Rng, SimDuration, SimTime};
use sctpsim_wire::dsdv::{DsdvEntry, DsdvRepr, ENTRY_LEN, UDP_PORT};
use sctpsim_wire::{udp_datagram, Ipv4Packet, UdpRepr};
use std::collections::VecDeque;
use std::net::Ipv4Addr;
use table::{weighted_settling, Tables};

/// IPv4 (20) + UDP (8) headers in front of every update.
const IP_UDP_HEADERS: usize = 28;

/// Entries per update: a 1500-byte IP MTU minus the IPv4 and UDP headers, 12 bytes each, so
/// that no update is fragmented (ns-3 sends one datagram whatever its size; with up to 121
/// nodes the two agree).
const MAX_ENTRIES: usize = (1500 - IP_UDP_HEADERS) / ENTRY_LEN;

/// ns-3 `RoutingProtocol::Start`, `SendTriggeredUpdate` scheduling: the first periodic update
/// and every triggered update wait a uniform 0–1000 µs (whole microseconds).
const JITTER_MAX_US: u64 = 1000;

/// ns-3 `SendPeriodicUpdate`: the next periodic update comes after the interval plus
/// 25 × U{0..1000} µs.
const PERIODIC_JITTER_STEP_US: u64 = 25;

/// ns-3 `SendPacketFromQueue`: after a queued packet leaves, the next one for the same
/// destination follows after U{0..100} ms.
const RELEASE_JITTER_MAX_MS: u64 = 100;

/// DSDV parameters. Defaults are ns-3 3.44's attributes of `ns3::dsdv::RoutingProtocol`
/// (`dsdv-routing-protocol.cc`, `GetTypeId`).
#[derive(Clone, Debug, PartialEq)]
pub struct DsdvConfig {
    /// Between full dumps: 15 s (ns-3 `PeriodicUpdateInterval`; the paper leaves it open).
    pub periodic_update_interval: SimDuration,
    /// Settling time of a new route: 5 s (ns-3 `SettlingTime`).
    pub settling_time: SimDuration,
    /// Routes not refreshed for this many periodic intervals are purged: 3 (ns-3
    /// `Holdtimes`, holddown = 3 × 15 s = 45 s).
    pub holdtimes: u32,
    /// Weight of the last settling time in the weighted settling time: 0.875 (ns-3
    /// `WeightedFactor`).
    pub weighted_factor: f64,
    /// Weighted settling time (ns-3 `EnableWST`): true. False uses the last settling time as
    /// is.
    pub weighted_settling: bool,
    /// Buffer originated packets while there is no route (ns-3 `EnableBuffering`): true.
    pub buffering: bool,
    /// Packets the buffer holds in all: 500 (ns-3 `MaxQueueLen`).
    pub send_buffer_packets: usize,
    /// Packets the buffer holds per destination: 5 (ns-3 `MaxQueuedPacketsPerDst`).
    pub send_buffer_packets_per_dst: usize,
    /// Longest wait in the buffer: 30 s (ns-3 `MaxQueueTime`).
    pub send_buffer_timeout: SimDuration,
    /// Route aggregation (ns-3 `EnableRouteAggregation`): false. True delays the triggered
    /// update after a received update by `route_aggregation_time` instead of ≤ 1 ms.
    pub route_aggregation: bool,
    /// The delay of aggregated triggered updates: 1 s (ns-3 `RouteAggregationTime`).
    pub route_aggregation_time: SimDuration,
    /// React to MAC link failures as the paper does (routes through the neighbour broken,
    /// update at once): false, as ns-3, which has no link-layer feedback.
    pub link_layer_feedback: bool,
}

impl Default for DsdvConfig {
    fn default() -> Self {
        DsdvConfig {
            periodic_update_interval: SimDuration::from_secs(15),
            settling_time: SimDuration::from_secs(5),
            holdtimes: 3,
            weighted_factor: 0.875,
            weighted_settling: true,
            buffering: true,
            send_buffer_packets: 500,
            send_buffer_packets_per_dst: 5,
            send_buffer_timeout: SimDuration::from_secs(30),
            route_aggregation: false,
            route_aggregation_time: SimDuration::from_secs(1),
            link_layer_feedback: false,
        }
    }
}

impl DsdvConfig {
    /// Holddown: `holdtimes` × the periodic interval (ns-3 `Start`: `Setholddowntime`).
    pub fn holddown(&self) -> SimDuration {
        self.periodic_update_interval
            .saturating_mul(u64::from(self.holdtimes))
    }

    /// The weighting factor in millionths, clamped to 0–1.
    fn weight_ppm(&self) -> u64 {
        let w = self.weighted_factor;
        if w.is_nan() || w <= 0.0 {
            0
        } else if w >= 1.0 {
            1_000_000
        } else {
            (w * 1e6).round() as u64
        }
    }
}

/// Which update a control packet is (for the per-type counters).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum UpdateKind {
    Periodic,
    Triggered,
}

impl UpdateKind {
    fn name(self) -> &'static str {
        match self {
            UpdateKind::Periodic => "periodic",
            UpdateKind::Triggered => "triggered",
        }
    }
}

/// What a DSDV router wakes up for (keys of its [`TimerTable`]; the order is that of a
/// wake-up's steps).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum DsdvTimer {
    /// The settling of `dst`'s changed metric ends, with a triggered update (ns-3's
    /// per-destination `EventId`s; cancelling one removes it).
    Settle(Ipv4Addr),
    /// A triggered update (several may be pending, as ns-3's events), by sequence number.
    Trigger(u64),
    /// The next periodic update.
    Periodic,
    /// A queued packet for the destination leaves (one per pending `SendPacketFromQueue`),
    /// by sequence number.
    Release(u64, Ipv4Addr),
}

/// A DSDV router.
#[derive(Debug)]
pub struct Dsdv {
    addr: Ipv4Addr,
    cfg: DsdvConfig,
    rng: Rng,
    /// This node's own sequence number (even; the first periodic update advertises 2).
    own_seq: u32,
    tables: Tables,
    /// The periodic update, the triggered updates and queued packets' releases scheduled,
    /// and the destinations whose changed metric is settling.
    timers: TimerTable<DsdvTimer>,
    /// The sequence number of the next scheduled triggered update or release.
    timer_seq: u64,
    queue: SendBuffer,
    ip_ident: u16,
    outputs: Outputs,
    events: VecDeque<RoutingEvent>,
    counters: RoutingCounters,
}

impl Dsdv {
    /// A router at `addr`; its first periodic update goes out within 1 ms of time 0 (ns-3
    /// `Start`).
    pub fn new(addr: Ipv4Addr, cfg: DsdvConfig, mut rng: Rng) -> Dsdv {
        let first = SimTime::ZERO + SimDuration::from_micros(rng.below(JITTER_MAX_US + 1));
        // ns-3 `PacketQueue`: the new packet is refused when the queue or its destination's
        // share is full; a packet expires when older than the timeout (`ExpireTime < 0`).
        let queue = SendBuffer::new(BufferPolicy {
            capacity: cfg.send_buffer_packets,
            timeout: cfg.send_buffer_timeout,
            overflow: Overflow::RefuseNew {
                per_destination: cfg.send_buffer_packets_per_dst,
            },
            expiry: Expiry::AfterTimeout,
        });
        let mut dsdv = Dsdv {
            addr,
            cfg,
            rng,
            own_seq: 0,
            tables: Tables::default(),
            timers: TimerTable::new(),
            timer_seq: 0,
            queue,
            ip_ident: 0,
            outputs: Outputs::default(),
            events: VecDeque::new(),
            counters: RoutingCounters::default(),
        };
        dsdv.timers.set(DsdvTimer::Periodic, first);
        dsdv
    }

    /// The configuration.
    pub fn config(&self) -> &DsdvConfig {
        &self.cfg
    }

    /// The forwarding table, in address order.
    pub fn routes(&self) -> impl Iterator<Item = (&Ipv4Addr, &Route)> {
        self.tables.main.iter()
    }

    /// The route to `dst` in the forwarding table.
    pub fn route(&self, dst: Ipv4Addr) -> Option<&Route> {
        self.tables.main.get(&dst)
    }

    /// This node's own sequence number.
    pub fn own_seq(&self) -> u32 {
        self.own_seq
    }

    /// Destinations with a change waiting to be advertised.
    pub fn pending_changes(&self) -> Vec<Ipv4Addr> {
        self.tables.adv.keys().copied().collect()
    }

    /// When the settling of `dst`'s changed metric ends, if it is settling at `now`.
    pub fn settling_until(&self, dst: Ipv4Addr, now: SimTime) -> Option<SimTime> {
        self.timers.get(DsdvTimer::Settle(dst)).filter(|t| *t > now)
    }

    /// Packets waiting in the send buffer.
    pub fn buffered(&self) -> usize {
        self.queue.len()
    }

    fn jitter_us(&mut self) -> SimDuration {
        SimDuration::from_micros(self.rng.below(JITTER_MAX_US + 1))
    }

    fn schedule_trigger(&mut self, at: SimTime) {
        let k = self.next_timer_seq();
        self.timers.set(DsdvTimer::Trigger(k), at);
    }

    fn next_timer_seq(&mut self) -> u64 {
        self.timer_seq += 1;
        self.timer_seq
    }

    /// Whether `dst` is settling at `now` (ns-3 `AnyRunningEvent`: an event due now is
    /// already running, so not pending).
    fn settling(&self, dst: Ipv4Addr, now: SimTime) -> bool {
        self.timers
            .get(DsdvTimer::Settle(dst))
            .is_some_and(|t| t > now)
    }

    // --- sending updates ---------------------------------------------------------------------

    /// Broadcasts `entries` (split at the MTU) as updates of `kind`.
    fn send_update(&mut self, kind: UpdateKind, entries: Vec<DsdvEntry>) {
        for chunk in entries.chunks(MAX_ENTRIES) {
            let repr = DsdvRepr {
                entries: chunk.to_vec(),
            };
            let payload = repr.to_bytes();
            self.ip_ident = self.ip_ident.wrapping_add(1);
            let udp = UdpRepr {
                src_port: UDP_PORT,
                dst_port: UDP_PORT,
            };
            // ns-3 NotifyInterfaceUp: the socket's IP TTL is 1 (updates never leave one hop).
            let bytes = udp_datagram(
                self.addr,
                Ipv4Addr::BROADCAST,
                1,
                self.ip_ident,
                &udp,
                &payload,
            );
            self.counters.count_tx(kind.name(), bytes.len());
            self.outputs.push_back(RoutingOutput::Transmit {
                next_hop: Ipv4Addr::BROADCAST,
                packet: Packet::untagged(bytes),
                control: true,
            });
        }
    }

    /// This node's own entry as advertised: hop count 1 (its metric 0 plus one).
    fn own_entry(&self) -> DsdvEntry {
        DsdvEntry {
            dst: self.addr,
            hop_count: 1,
            seq_no: self.own_seq,
        }
    }

    /// ns-3 `SendPeriodicUpdate`: purge, merge the advertised changes into the forwarding
    /// table, then send the full table with a fresh own sequence number and the purged routes
    /// as broken (their sequence number + 1).
    fn periodic_update(&mut self, now: SimTime) {
        let removed = self.tables.purge(now, self.cfg.holddown());
        for (dst, _) in &removed {
            self.events
                .push_back(RoutingEvent::RouteBroken { dst: *dst });
        }
        self.merge_changes(now);
        self.own_seq = self.own_seq.wrapping_add(2);
        let mut entries = vec![self.own_entry()];
        entries.extend(self.tables.main.iter().map(|(d, r)| DsdvEntry {
            dst: *d,
            hop_count: r.hops.saturating_add(1),
            seq_no: r.seq,
        }));
        entries.extend(removed.iter().map(|(d, r)| DsdvEntry {
            dst: *d,
            hop_count: r.hops.saturating_add(1),
            seq_no: r.seq.wrapping_add(1),
        }));
        self.send_update(UpdateKind::Periodic, entries);
        let j = self.rng.below(JITTER_MAX_US + 1) * PERIODIC_JITTER_STEP_US;
        let next = now + self.cfg.periodic_update_interval + SimDuration::from_micros(j);
        self.timers.set(DsdvTimer::Periodic, next);
        self.release_queued(now);
    }

    /// ns-3 `MergeTriggerPeriodicUpdates`: changes that are not settling go into the
    /// forwarding table (broken ones only leave the advertising table) and are dropped from
    /// the advertising table — the full dump advertises them.
    fn merge_changes(&mut self, now: SimTime) {
        let ready: Vec<Ipv4Addr> = self
            .tables
            .adv
            .iter()
            .filter(|(d, r)| r.changed && !self.settling(**d, now))
            .map(|(d, _)| *d)
            .collect();
        for d in ready {
            if let Some(mut r) = self.tables.adv.remove(&d) {
                if r.seq % 2 == 0 {
                    r.changed = false;
                    self.tables.update_main(d, &r);
                }
            }
        }
    }

    /// ns-3 `SendTriggeredUpdate`: every changed route that is not settling is advertised,
    /// committed to the forwarding table (unless broken) and leaves the advertising table;
    /// this node's own entry (current sequence number) goes with them. Nothing to advertise,
    /// nothing sent.
    fn triggered_update(&mut self, now: SimTime) {
        let ready: Vec<Ipv4Addr> = self
            .tables
            .adv
            .iter()
            .filter(|(d, r)| r.changed && !self.settling(**d, now))
            .map(|(d, _)| *d)
            .collect();
        if ready.is_empty() {
            return;
        }
        let mut entries = vec![self.own_entry()];
        for d in ready {
            let Some(mut r) = self.tables.adv.remove(&d) else {
                continue;
            };
            self.timers.cancel(DsdvTimer::Settle(d));
            entries.push(DsdvEntry {
                dst: d,
                hop_count: r.hops.saturating_add(1),
                seq_no: r.seq,
            });
            r.changed = false;
            if r.seq % 2 == 0 {
                self.tables.update_main(d, &r);
            }
        }
        self.send_update(UpdateKind::Triggered, entries);
        self.release_queued(now);
    }

    // --- receiving updates -------------------------------------------------------------------

    /// ns-3 `RecvDsdv`: each entry against the forwarding and advertising tables, then a
    /// triggered update within 1 ms (or after the aggregation time).
    fn receive_update(&mut self, now: SimTime, sender: Ipv4Addr, repr: DsdvRepr) {
        for e in repr.entries {
            if e.dst == self.addr {
                continue; // our own entry, returned by a neighbour
            }
            self.receive_entry(now, sender, e);
        }
        let at = if self.cfg.route_aggregation && !self.tables.adv.is_empty() {
            now + self.cfg.route_aggregation_time
        } else {
            now + self.jitter_us()
        };
        self.schedule_trigger(at);
    }

    fn receive_entry(&mut self, now: SimTime, sender: Ipv4Addr, e: DsdvEntry) {
        let fresh = |settling| Route {
            next_hop: sender,
            hops: e.hop_count,
            seq: e.seq_no,
            updated: now,
            settling,
            changed: true,
        };
        let Some(main) = self.tables.main.get(&e.dst).cloned() else {
            // A destination we have no route to: a valid route is new (into both tables,
            // advertised in the next triggered update); a broken one is ignored.
            if !e.is_broken() {
                let r = fresh(self.cfg.settling_time);
                self.tables.main.insert(e.dst, r.clone());
                self.tables.adv.entry(e.dst).or_insert(r);
            }
            return;
        };
        // ns-3 compares with the advertising-table copy of the route (a pending change counts
        // as the current state); a route without one gets a copy of the forwarding entry.
        let adv = self
            .tables
            .adv
            .entry(e.dst)
            .or_insert_with(|| main.clone())
            .clone();
        if e.is_broken() {
            if sender == adv.next_hop {
                // Our next hop says the destination is unreachable: drop the route and the
                // routes through the destination (if it was a neighbour), advertise them broken.
                let through = self.tables.routes_via(e.dst);
                self.tables.main.remove(&e.dst);
                self.events
                    .push_back(RoutingEvent::RouteBroken { dst: e.dst });
                if let Some(a) = self.tables.adv.get_mut(&e.dst) {
                    a.seq = e.seq_no;
                    a.changed = true;
                }
                for (d, mut r) in through {
                    r.seq = r.seq.wrapping_add(1);
                    r.changed = true;
                    self.tables.adv.entry(d).or_insert(r);
                    if self.tables.main.remove(&d).is_some() {
                        self.events.push_back(RoutingEvent::RouteBroken { dst: d });
                    }
                }
            } else if !self.settling(e.dst, now) {
                self.tables.adv.remove(&e.dst);
            }
            return;
        }
        let take = |settling| Route {
            next_hop: sender,
            hops: e.hop_count,
            seq: e.seq_no,
            updated: now,
            settling,
            changed: true,
        };
        if e.seq_no > adv.seq {
            // Newer sequence number: always taken. ns-3 cancels a settling change first.
            self.timers.cancel(DsdvTimer::Settle(e.dst));
            if e.hop_count != adv.hops {
                // A changed metric: used at once, advertised after the settling time.
                self.take_settling(now, e.dst, &main, take);
            } else {
                // Same metric: advertised in the next triggered update; the forwarding table
                // takes it when it is sent (or merged before a periodic update).
                self.tables.adv.insert(e.dst, take(adv.settling));
            }
        } else if e.seq_no == adv.seq {
            if e.hop_count < adv.hops {
                // Same sequence number, shorter: a better route; settles like a new metric.
                self.timers.cancel(DsdvTimer::Settle(e.dst));
                self.take_settling(now, e.dst, &main, take);
            } else if !self.settling(e.dst, now) {
                // Same or worse metric: only a refresh, from the current next hop.
                if adv.next_hop == sender {
                    let mut r = adv.clone();
                    r.updated = now;
                    self.tables.update_main(e.dst, &r);
                }
                self.tables.adv.remove(&e.dst);
            }
        } else if !self.settling(e.dst, now) {
            // An older sequence number: ignored.
            self.tables.adv.remove(&e.dst);
        }
    }

    /// Installs a route with a changed metric in both tables at once and schedules its
    /// advertisement after the weighted settling time of `dst`, computed from the forwarding
    /// entry `main` as it was (ns-3 `GetSettlingTime` before `Update`).
    fn take_settling(
        &mut self,
        now: SimTime,
        dst: Ipv4Addr,
        main: &Route,
        take: impl Fn(SimDuration) -> Route,
    ) {
        let st = weighted_settling(main, now, self.cfg.weighted_settling, self.cfg.weight_ppm());
        let r = take(st);
        self.tables.main.insert(dst, r.clone());
        self.tables.adv.insert(dst, r);
        let at = now + st;
        self.timers.set(DsdvTimer::Settle(dst), at);
    }

    // --- data ------------------------------------------------------------------------------

    /// ns-3 `RouteOutput`'s purge: silent routes go (and are advertised broken soon).
    fn purge_on_send(&mut self, now: SimTime) {
        let removed = self.tables.purge(now, self.cfg.holddown());
        if removed.is_empty() {
            return;
        }
        for (d, mut r) in removed {
            r.changed = true;
            r.seq = r.seq.wrapping_add(1);
            self.tables.adv.entry(d).or_insert(r);
            self.events.push_back(RoutingEvent::RouteBroken { dst: d });
        }
        let at = now + self.jitter_us();
        self.schedule_trigger(at);
    }

    /// Drops the buffered packets that waited too long.
    fn expire_queue(&mut self, now: SimTime) {
        for packet in self.queue.expire(now) {
            self.drop_packet(packet, RouteDropReason::SendBufferTimeout);
        }
    }

    fn drop_packet(&mut self, packet: Packet, reason: RouteDropReason) {
        self.counters.count_drop(reason);
        self.outputs
            .push_back(RoutingOutput::Drop { packet, reason });
    }

    /// Drops the packet handed in (the decision; counted like any drop).
    fn drop_decision(&mut self, packet: Packet, reason: RouteDropReason) -> Decision {
        self.counters.count_drop(reason);
        self.outputs.decide(Decision::Drop { packet, reason })
    }

    /// ns-3 `LookForQueuedPackets` (run whenever a route lookup for an outgoing packet
    /// succeeds, which includes every update this node sends): for every destination with a
    /// route and packets waiting, one packet leaves now and the rest follow one by one.
    fn release_queued(&mut self, now: SimTime) {
        if !self.cfg.buffering || self.queue.is_empty() {
            return;
        }
        self.expire_queue(now);
        for dst in self.queue.destinations() {
            if self.tables.lookup(dst).is_some() {
                self.release_one(now, dst);
            }
        }
    }

    /// ns-3 `SendPacketFromQueue`: the oldest packet for `dst` goes to the route's next hop;
    /// if more wait, the next one follows after U{0..100} ms.
    fn release_one(&mut self, now: SimTime, dst: Ipv4Addr) {
        let Some((gw, _)) = self.tables.lookup(dst) else {
            return;
        };
        let Some(packet) = self.queue.pop(dst) else {
            return;
        };
        self.outputs.push_back(RoutingOutput::Transmit {
            next_hop: gw,
            packet,
            control: false,
        });
        if self.queue.has(dst) {
            let ms = self.rng.below(RELEASE_JITTER_MAX_MS + 1);
            let k = self.next_timer_seq();
            self.timers.set(
                DsdvTimer::Release(k, dst),
                now + SimDuration::from_millis(ms),
            );
        }
    }

    /// Forwards (or drops) a packet that is not this node's own.
    fn forward(&mut self, packet: Packet, dst: Ipv4Addr) -> Decision {
        match self.tables.lookup(dst) {
            Some((gw, _)) => {
                self.counters.data_forwarded += 1;
                self.outputs.decide(Decision::Forward {
                    next_hop: gw,
                    packet,
                })
            }
            // ns-3 `RouteInput`: no route, no forwarding (intermediate nodes do not buffer).
            None => self.drop_decision(packet, RouteDropReason::NoRoute),
        }
    }

    /// Routes a packet this node originated (ns-3 `RouteOutput`): on the route if there is
    /// one (queued packets first: they are queued as outputs ahead of the decision), else
    /// into the buffer, else dropped.
    fn originate(&mut self, now: SimTime, packet: Packet, dst: Ipv4Addr) -> Decision {
        self.purge_on_send(now);
        if let Some((gw, _)) = self.tables.lookup(dst) {
            self.release_queued(now);
            return self.outputs.decide(Decision::Forward {
                next_hop: gw,
                packet,
            });
        }
        if !self.cfg.buffering {
            return self.drop_decision(packet, RouteDropReason::NoRoute);
        }
        self.expire_queue(now);
        match self.queue.push(now, dst, packet) {
            // `RefuseNew`: the packet given back is the one just offered.
            Some(packet) => self.drop_decision(packet, RouteDropReason::SendBufferFull),
            None => Decision::Buffered,
        }
    }

    /// The paper's reaction to a broken link (§"Responding to topology changes"): every route
    /// through `next_hop` gets metric ∞ and the next odd sequence number, and goes out in a
    /// triggered update at once.
    fn link_broken(&mut self, now: SimTime, next_hop: Ipv4Addr) {
        let through = self.tables.routes_via(next_hop);
        if through.is_empty() {
            return;
        }
        self.counters.link_breaks += 1;
        self.events.push_back(RoutingEvent::LinkBroken { next_hop });
        for (d, mut r) in through {
            self.tables.main.remove(&d);
            self.timers.cancel(DsdvTimer::Settle(d));
            r.seq |= 1;
            r.changed = true;
            self.tables.adv.insert(d, r);
            self.events.push_back(RoutingEvent::RouteBroken { dst: d });
        }
        self.counters.route_errors_sent += 1;
        self.schedule_trigger(now);
    }
}

/// An IPv4 packet classified on receipt.
enum Incoming {
    /// A DSDV update (UDP port 269, to us or broadcast) and its sender.
    Update(Ipv4Addr, DsdvRepr),
    /// Any other packet, with its destination.
    Data(Ipv4Addr),
}

/// Parses an incoming packet; `Err` means malformed (bad lengths or checksums).
fn classify(me: Ipv4Addr, packet: &[u8]) -> Result<Incoming, sctpsim_wire::WireError> {
    Ok(match super::classify_udp(me, packet, UDP_PORT)? {
        super::UdpIncoming::Control(src, payload) => {
            Incoming::Update(src, DsdvRepr::parse(payload)?)
        }
        super::UdpIncoming::Data(dst) => Incoming::Data(dst),
    })
}

impl Router for Dsdv {
    fn protocol(&self) -> &'static str {
        "dsdv"
    }

    fn addr(&self) -> Ipv4Addr {
        self.addr
    }

    fn handle_send(&mut self, now: SimTime, packet: Packet) -> Decision {
        let Some(dst) = Ipv4Packet::new_checked(&packet.bytes[..])
            .ok()
            .map(|p| p.dst_addr())
        else {
            self.counters.malformed += 1;
            return Decision::Consumed;
        };
        if dst == self.addr {
            self.outputs.decide(Decision::Deliver(packet))
        } else if dst == Ipv4Addr::BROADCAST {
            self.outputs.decide(Decision::Forward {
                next_hop: Ipv4Addr::BROADCAST,
                packet,
            })
        } else {
            self.originate(now, packet, dst)
        }
    }

    fn handle_receive(&mut self, now: SimTime, _prev_hop: Ipv4Addr, packet: Packet) -> Decision {
        // Expired buffered packets are dropped first (outputs ahead of the decision).
        self.expire_queue(now);
        match classify(self.addr, &packet.bytes) {
            Err(_) => {
                self.counters.malformed += 1;
                Decision::Consumed
            }
            Ok(Incoming::Update(src, repr)) => {
                if src != self.addr {
                    self.counters.count_rx("update", packet.len());
                    self.receive_update(now, src, repr);
                }
                Decision::Consumed
            }
            Ok(Incoming::Data(dst)) => {
                if dst == self.addr || dst == Ipv4Addr::BROADCAST {
                    return self.outputs.decide(Decision::Deliver(packet));
                }
                // IP forwarding has already decremented the TTL (Router contract).
                self.forward(packet, dst)
            }
        }
    }

    fn outputs_before_decision(&self) -> usize {
        self.outputs.before_decision()
    }

    fn handle_link_failure(&mut self, now: SimTime, next_hop: Ipv4Addr, packets: Vec<Packet>) {
        if self.cfg.link_layer_feedback {
            self.link_broken(now, next_hop);
        }
        let mut packets = packets.into_iter();
        // The packet the MAC gave up on is lost (ns-3 DSDV hears nothing of it).
        if let Some(failed) = packets.next() {
            if self.cfg.link_layer_feedback {
                self.reroute(now, failed);
            } else {
                self.drop_packet(failed, RouteDropReason::LinkBroken);
            }
        }
        // The others were only waiting behind it in the interface queue. In ns-3 they stay
        // in the MAC queue and are each tried; here they go back to the interface on the
        // current route (the same next hop unless feedback changed the table).
        for packet in packets {
            self.reroute(now, packet);
        }
    }

    fn handle_timeout(&mut self, now: SimTime) {
        self.expire_queue(now);
        // A settling that ended and a triggered update that is due both send one triggered
        // update, after the periodic one if that is due too.
        let settled = self
            .timers
            .expired_if(now, |k| matches!(k, DsdvTimer::Settle(_)));
        let triggered = self
            .timers
            .expired_if(now, |k| matches!(k, DsdvTimer::Trigger(_)));
        if self.timers.is_due(DsdvTimer::Periodic, now) {
            self.periodic_update(now);
        }
        if !settled.is_empty() || !triggered.is_empty() {
            self.triggered_update(now);
        }
        // The releases due now (not those the periodic update just scheduled for later).
        let released = self
            .timers
            .expired_if(now, |k| matches!(k, DsdvTimer::Release(..)));
        for k in released {
            if let DsdvTimer::Release(_, d) = k {
                self.release_one(now, d);
            }
        }
    }

    fn poll_output(&mut self) -> Option<RoutingOutput> {
        self.outputs.pop_front()
    }

    fn poll_event(&mut self) -> Option<RoutingEvent> {
        self.events.pop_front()
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.timers.next()
    }

    fn counters(&self) -> &RoutingCounters {
        &self.counters
    }

    fn next_hop(&self, dst: Ipv4Addr) -> Option<Ipv4Addr> {
        self.tables.lookup(dst).map(|(gw, _)| gw)
    }

    fn buffered_tags(&self) -> Vec<PacketTag> {
        self.queue.tags()
    }
}

impl Dsdv {
    /// Sends a packet the MAC handed back on the current route; without one, this node's own
    /// packets wait in the buffer and others are lost.
    fn reroute(&mut self, now: SimTime, packet: Packet) {
        let ip = Ipv4Packet::new_checked(&packet.bytes[..])
            .ok()
            .map(|p| (p.src_addr(), p.dst_addr()));
        let Some((src, dst)) = ip else {
            self.counters.malformed += 1;
            return;
        };
        if let Some((gw, _)) = self.tables.lookup(dst) {
            self.outputs.push_back(RoutingOutput::Transmit {
                next_hop: gw,
                packet,
                control: false,
            });
        } else if src == self.addr && self.cfg.buffering {
            if let Some(packet) = self.queue.push(now, dst, packet) {
                self.drop_packet(packet, RouteDropReason::SendBufferFull);
            }
        } else {
            self.drop_packet(packet, RouteDropReason::LinkBroken);
        }
    }
}
