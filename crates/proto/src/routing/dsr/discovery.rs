//! Route discovery (RFC 4728 §3.1, §8.2): originating and retransmitting Route Requests,
//! processing received requests (duplicate suppression, route record, replies by the target
//! and from the cache, rebroadcast with jitter), and completing discoveries on replies.

use std::collections::VecDeque;
use std::net::Ipv4Addr;

use sctpsim_kernel::{SimDuration, SimTime};
use sctpsim_wire::dsr::{
    dsr_packet, DsrOption, DsrRepr, RouteErrorKind, MAX_REPLY_ADDRS, MAX_REQUEST_ADDRS,
    NO_NEXT_HEADER,
};
use sctpsim_wire::Ipv4Repr;

use super::{cache, Discovery, Dsr, DsrTimer, IP_PROTOCOL_DSR};
use crate::routing::{RouteDropReason, RoutingEvent};

impl Dsr {
    /// Starts a discovery for `target` unless one is running (§8.2.1).
    pub(super) fn discover(&mut self, now: SimTime, target: Ipv4Addr) {
        if self.discoveries.contains_key(&target) {
            return;
        }
        self.counters.discoveries += 1;
        let (ttl, wait, propagating) = if self.cfg.nonpropagating_first {
            // §3.3.3: first ask the neighbours only (TTL 1); they answer from their caches.
            (1, self.cfg.nonprop_request_timeout, 0)
        } else if self.cfg.ns2_request_backoff {
            (self.cfg.discovery_hop_limit, self.ns2_cycle_gap(1), 1)
        } else {
            (self.cfg.discovery_hop_limit, self.cfg.request_period, 1)
        };
        self.discoveries.insert(
            target,
            Discovery {
                started: now,
                propagating,
                cycles: 1,
                cycle_start: now,
                ring0: self.cfg.nonpropagating_first,
            },
        );
        self.timers.set(DsrTimer::Discovery(target), now + wait);
        self.send_request(now, target, ttl);
    }

    /// Broadcasts a new Route Request for `target` with IP TTL `ttl`, after a uniform random
    /// delay in [0, BroadcastJitter). RFC 4728 §8.2.1 jitters only rebroadcasts, but ns-2
    /// (`dsr/dsragent.cc` `sendOutPacketWithRoute`: "route requests need to be jittered a
    /// bit", `RREQ_JITTER` 10 ms) jitters every Route Request, originated or forwarded, as RFC
    /// 5148 §5 recommends for all MANET control broadcasts. Without it, two hidden initiators
    /// whose link failures coincide (both ends of a two-hop route, after colliding at the
    /// relay until both reach their retry limit) retransmit their requests on the same
    /// deterministic backoff schedule (§8.2.1) and collide at the relay every time: the route
    /// is never found again (the Ye et al. 2003 string, docs/studies/ye2003.md).
    fn send_request(&mut self, now: SimTime, target: Ipv4Addr, ttl: u8) {
        self.next_request_id = self.next_request_id.wrapping_add(1);
        let id = self.next_request_id;
        self.counters.requests_originated += 1;
        // Our own request must not come back to us as new: the initiator ignores its own
        // requests anyway (below), the table entry keeps the state uniform.
        let ip = Ipv4Repr {
            src_addr: self.addr,
            dst_addr: Ipv4Addr::BROADCAST,
            protocol: IP_PROTOCOL_DSR,
            payload_len: 0,
            ttl,
            ident: self.ident(),
            dscp: 0,
            dont_frag: false,
        };
        let mut options = vec![DsrOption::RouteRequest {
            id,
            target,
            addresses: Vec::new(),
        }];
        // ns-2 `sendOutRtReq` (`dsragent_propagate_last_error`, RFC 4728 §8.2.1): the last
        // Route Error this node received rides on its requests for `max_err_hold`, until a
        // propagating request has carried it, so that no node answers from a cache that
        // still holds the broken link.
        if let Some((from, to, at)) = self.held_error {
            if self.cfg.propagate_last_error && now.saturating_since(at) < self.cfg.max_err_hold {
                options.push(DsrOption::RouteError {
                    salvage: 0,
                    error_src: from,
                    error_dst: self.addr,
                    kind: RouteErrorKind::NodeUnreachable(to),
                });
                if ttl > 1 {
                    self.held_error = None;
                }
            } else {
                self.held_error = None;
            }
        }
        let dsr = DsrRepr {
            next_header: NO_NEXT_HEADER,
            options,
        };
        if let Ok(packet) = dsr_packet(&ip, &dsr, &[]) {
            self.jittered_broadcast(now, packet);
        }
    }

    /// [`super::DsrConfig::ns2_request_backoff`]: the time from the start of retry cycle
    /// `cycles` to the next, RequestPeriod · 4^cycles capped at MaxRequestPeriod (ns-2
    /// `dsr/dsragent.cc` `BackOffTest`: `(1 << (rt_reqs_outstanding * 2)) * rt_rq_period`).
    fn ns2_cycle_gap(&self, cycles: u32) -> SimDuration {
        let exp = cycles.saturating_mul(2).min(40);
        SimDuration(
            self.cfg
                .request_period
                .as_nanos()
                .saturating_mul(1u64 << exp)
                .min(self.cfg.max_request_period.as_nanos()),
        )
    }

    /// The next request of a discovery under ns-2's schedule: the propagating request of
    /// the current cycle (its non-propagating one went unanswered), or a new cycle.
    fn ns2_retry(&mut self, now: SimTime, target: Ipv4Addr) {
        let Some(d) = self.discoveries.get(&target) else {
            return;
        };
        let (ring0, cycles, cycle_start) = (d.ring0, d.cycles, d.cycle_start);
        let nonprop = self.cfg.nonpropagating_first;
        let ttl = if ring0 {
            // ns-2 `getRouteForPacket`: `LIMIT0` out longer than `arp_timeout`.
            let next = (cycle_start + self.ns2_cycle_gap(cycles)).max(now);
            if let Some(d) = self.discoveries.get_mut(&target) {
                d.ring0 = false;
                d.propagating += 1;
                self.timers.set(DsrTimer::Discovery(target), next);
            }
            self.cfg.discovery_hop_limit
        } else {
            let cycles = cycles.saturating_add(1);
            let wait = if nonprop {
                self.cfg.nonprop_request_timeout
            } else {
                self.ns2_cycle_gap(cycles)
            };
            if let Some(d) = self.discoveries.get_mut(&target) {
                d.cycles = cycles;
                d.cycle_start = now;
                d.ring0 = nonprop;
                if !nonprop {
                    d.propagating += 1;
                }
                self.timers.set(DsrTimer::Discovery(target), now + wait);
            }
            if nonprop {
                1
            } else {
                self.cfg.discovery_hop_limit
            }
        };
        self.send_request(now, target, ttl);
    }

    /// Discovery deadlines (§8.2.1): give up, or retransmit with exponential backoff
    /// (RequestPeriod · 2^k, capped at MaxRequestPeriod).
    pub(super) fn discovery_timeouts(&mut self, now: SimTime) {
        // In target order; each ends or is re-armed below.
        let due = self
            .timers
            .expired_if(now, |k| matches!(k, DsrTimer::Discovery(_)));
        for target in due.into_iter().filter_map(|k| match k {
            DsrTimer::Discovery(t) => Some(t),
            DsrTimer::Rebroadcast(..) => None,
        }) {
            if self.cache.find(now, target).is_some() {
                self.complete_discoveries(now);
                self.flush_buffer(now);
                continue;
            }
            if !self.buffer.has(target) {
                // Nothing waits for the route any more: stop asking (§8.2.1 rate-limits a
                // discovery for packets still waiting).
                self.end_discovery(target);
                continue;
            }
            let Some(d) = self.discoveries.get(&target) else {
                continue;
            };
            let sent = d.propagating;
            if sent > self.cfg.max_request_rexmt {
                self.end_discovery(target);
                for (_, packet) in self.buffer.take_where(|d| d == target) {
                    self.drop_packet(packet, RouteDropReason::NoRoute);
                }
                continue;
            }
            if self.cfg.ns2_request_backoff {
                self.ns2_retry(now, target);
                continue;
            }
            let exp = sent.min(20);
            let wait = SimDuration(
                self.cfg
                    .request_period
                    .as_nanos()
                    .saturating_mul(1u64 << exp)
                    .min(self.cfg.max_request_period.as_nanos()),
            );
            if let Some(d) = self.discoveries.get_mut(&target) {
                d.propagating += 1;
                self.timers.set(DsrTimer::Discovery(target), now + wait);
            }
            self.send_request(now, target, self.cfg.discovery_hop_limit);
        }
    }

    /// Ends every discovery whose target now has a route (RouteDiscovered with its latency).
    pub(super) fn complete_discoveries(&mut self, now: SimTime) {
        let done: Vec<Ipv4Addr> = self
            .discoveries
            .keys()
            .copied()
            .filter(|t| self.cache.find(now, *t).is_some())
            .collect();
        for dst in done {
            if let Some(d) = self.end_discovery(dst) {
                self.counters.discoveries_succeeded += 1;
                self.events.push_back(RoutingEvent::RouteDiscovered {
                    dst,
                    latency: now.saturating_since(d.started),
                });
            }
        }
    }

    /// Removes the discovery for `target` with its timer.
    fn end_discovery(&mut self, target: Ipv4Addr) -> Option<Discovery> {
        self.timers.cancel(DsrTimer::Discovery(target));
        self.discoveries.remove(&target)
    }

    /// Whether (initiator, id, target) was seen; records it if not (§4.3 request table,
    /// bounded by RequestTableSize initiators × RequestTableIds entries, LRU).
    fn seen_before(
        &mut self,
        now: SimTime,
        initiator: Ipv4Addr,
        id: u16,
        target: Ipv4Addr,
    ) -> bool {
        if let Some((last, ids)) = self.seen.get_mut(&initiator) {
            *last = now;
            if ids.contains(&(id, target)) {
                return true;
            }
            if ids.len() >= self.cfg.request_table_ids.max(1) {
                ids.pop_front();
            }
            ids.push_back((id, target));
            return false;
        }
        if self.seen.len() >= self.cfg.request_table_size.max(1) {
            let oldest = self
                .seen
                .iter()
                .min_by_key(|(_, (t, _))| *t)
                .map(|(a, _)| *a);
            if let Some(a) = oldest {
                self.seen.remove(&a);
            }
        }
        self.seen
            .insert(initiator, (now, VecDeque::from([(id, target)])));
        false
    }

    /// A Route Request arrived (§8.2.2).
    pub(super) fn handle_request(
        &mut self,
        now: SimTime,
        ip: &Ipv4Repr,
        id: u16,
        target: Ipv4Addr,
        record: Vec<Ipv4Addr>,
        errors: Vec<DsrOption>,
    ) {
        let me = self.addr;
        let initiator = ip.src_addr;
        if initiator == me || record.contains(&me) {
            return;
        }
        // The way back: [me, record reversed, initiator] (802.11 links are bidirectional).
        let mut back: Vec<Ipv4Addr> = Vec::with_capacity(record.len() + 2);
        back.push(me);
        back.extend(record.iter().rev());
        back.push(initiator);
        if !cache::loop_free(&back) {
            return;
        }
        self.cache.add(now, &back);
        if target == me {
            // §8.2.2: the target replies with the route record plus itself — to every copy,
            // so that the initiator learns several routes.
            let mut addresses = record;
            addresses.push(me);
            if addresses.len() <= MAX_REPLY_ADDRS {
                self.send_control(
                    initiator,
                    &back,
                    vec![DsrOption::RouteReply {
                        last_hop_external: false,
                        addresses,
                    }],
                );
            }
            self.flush_buffer(now);
            return;
        }
        if self.seen_before(now, initiator, id, target) {
            return;
        }
        if self.cfg.reply_from_cache {
            if let Some(cached) = self.cache.find(now, target) {
                // §8.2.3: reply with record + me + cached route, unless that has a loop.
                let mut full = vec![initiator];
                full.extend_from_slice(&record);
                full.extend_from_slice(&cached);
                if cache::loop_free(&full) && full.len() - 1 <= MAX_REPLY_ADDRS {
                    self.cache.touch(now, &cached);
                    self.send_control(
                        initiator,
                        &back,
                        vec![DsrOption::RouteReply {
                            last_hop_external: false,
                            addresses: full[1..].to_vec(),
                        }],
                    );
                    return;
                }
            }
        }
        if ip.ttl <= 1 || record.len() >= MAX_REQUEST_ADDRS {
            // Non-propagating request (TTL 1), or the record is full.
            return;
        }
        let mut addresses = record;
        addresses.push(me);
        let fwd_ip = Ipv4Repr {
            ttl: ip.ttl - 1,
            ..*ip
        };
        let mut options = vec![DsrOption::RouteRequest {
            id,
            target,
            addresses,
        }];
        options.extend(errors);
        let dsr = DsrRepr {
            next_header: NO_NEXT_HEADER,
            options,
        };
        let Ok(packet) = dsr_packet(&fwd_ip, &dsr, &[]) else {
            return;
        };
        self.jittered_broadcast(now, packet);
    }

    /// Queues a Route Request for broadcast after a uniform delay in [0, BroadcastJitter)
    /// (§9 BroadcastJitter), sent from `handle_timeout`.
    fn jittered_broadcast(&mut self, now: SimTime, packet: Vec<u8>) {
        let jitter = self.cfg.broadcast_jitter.as_nanos();
        let delay = SimDuration(self.rng.below(jitter));
        self.pending_seq += 1;
        let k = self.pending_seq;
        self.pending.insert(k, packet);
        let due = now + delay;
        self.timers.set(DsrTimer::Rebroadcast(due, k), due);
    }
}
