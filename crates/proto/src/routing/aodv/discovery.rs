//! Route discovery at the originator (RFC 3561 §6.3, §6.4) and local repair (§6.12).

use super::{Aodv, AodvTimer, Discovery};
use crate::routing::{Decision, RouteDropReason};
use sctpsim_kernel::{Packet, SimDuration, SimTime};
use sctpsim_wire::aodv::{AodvRepr, RreqRepr, Unreachable};
use std::collections::BTreeSet;
use std::net::Ipv4Addr;

impl Aodv {
    /// Buffers `packet` for `dst` (an older packet the full buffer gives up is dropped) and
    /// makes sure a discovery runs. `handed_in`: `packet` is the one the current
    /// `handle_send`/`handle_receive` decides for, so its refusal (a buffer of capacity 0) is
    /// that call's decision rather than an output.
    pub(super) fn buffer_and_discover(
        &mut self,
        now: SimTime,
        dst: Ipv4Addr,
        packet: Packet,
        handed_in: bool,
    ) -> Decision {
        let decision = self.buffer.offer(now, dst, packet).settle(
            handed_in,
            &mut self.counters,
            &mut self.out,
        );
        self.ensure_discovery(now, dst);
        decision
    }

    /// Starts a discovery for `dst` unless one runs.
    fn ensure_discovery(&mut self, now: SimTime, dst: Ipv4Addr) {
        if !self.discoveries.contains_key(&dst) {
            self.counters.discoveries += 1;
            self.discoveries.insert(
                dst,
                Discovery {
                    started: now,
                    ttl: 0,
                    wide_tries: 0,
                    rate_limited: false,
                    repair: None,
                },
            );
            self.timers.set(AodvTimer::Discovery(dst), now);
            self.next_request(now, dst);
        }
    }

    /// The TTL of the next request of a discovery and how long to wait for its reply, or
    /// `None` when the discovery has used up its tries. §6.4: rings of TTL_START (or the last
    /// known hop count + TTL_INCREMENT), + TTL_INCREMENT each, waiting RING_TRAVERSAL_TIME;
    /// past TTL_THRESHOLD the request is network-wide (NET_DIAMETER), sent 1 + RREQ_RETRIES
    /// times with binary exponential backoff of the wait: NET_TRAVERSAL_TIME × 2^k (§6.3).
    pub(super) fn next_ring(&self, dst: Ipv4Addr, d: &Discovery) -> Option<(u8, SimDuration)> {
        let cfg = &self.cfg;
        let diameter = cfg.net_diameter.max(1);
        let ttl = if !cfg.expanding_ring || d.ttl >= diameter {
            diameter
        } else {
            let next = if d.ttl == 0 {
                match self.table.get(dst) {
                    Some(r) if r.hops > 0 => r.hops.saturating_add(cfg.ttl_increment),
                    _ => cfg.ttl_start,
                }
            } else {
                d.ttl.saturating_add(cfg.ttl_increment.max(1))
            };
            if next > cfg.ttl_threshold || next >= diameter {
                diameter
            } else {
                next.max(1)
            }
        };
        if ttl == diameter {
            if d.wide_tries > cfg.rreq_retries {
                return None;
            }
            let backoff = 1u64 << d.wide_tries.min(32);
            Some((ttl, cfg.net_traversal_time().saturating_mul(backoff)))
        } else {
            Some((ttl, cfg.ring_traversal_time(ttl)))
        }
    }

    /// Sends the next request of the discovery for `dst` (or holds it back for the rate limit),
    /// or ends the discovery as failed.
    pub(super) fn next_request(&mut self, now: SimTime, dst: Ipv4Addr) {
        let Some(d) = self.discoveries.get(&dst) else {
            return;
        };
        // §6.12: a local repair sends one request (when it starts); its timeout ends it.
        let next = match d.repair {
            Some(_) => None,
            None => self.next_ring(dst, d),
        };
        let Some((ttl, wait)) = next else {
            self.fail_discovery(now, dst);
            return;
        };
        // RREQ_RATELIMIT (§6.3): at most that many originated requests in any second.
        let second = SimDuration::from_secs(1);
        while self.rreq_times.front().is_some_and(|t| *t + second <= now) {
            self.rreq_times.pop_front();
        }
        if self.rreq_times.len() >= self.cfg.rreq_ratelimit.max(1) as usize {
            let until = self.rreq_times.front().map_or(now, |t| *t + second);
            if let Some(d) = self.discoveries.get_mut(&dst) {
                d.rate_limited = true;
                let at = until.max(now + SimDuration(1));
                self.timers.set(AodvTimer::Discovery(dst), at);
            }
            return;
        }
        self.rreq_times.push_back(now);
        let diameter = self.cfg.net_diameter.max(1);
        if let Some(d) = self.discoveries.get_mut(&dst) {
            d.rate_limited = false;
            d.ttl = ttl;
            if ttl == diameter {
                d.wide_tries += 1;
            }
            self.timers.set(AodvTimer::Discovery(dst), now + wait);
        }
        self.send_rreq(now, dst, ttl);
    }

    /// Originates a RREQ for `dst` with IP TTL `ttl` (§6.3).
    pub(super) fn send_rreq(&mut self, now: SimTime, dst: Ipv4Addr, ttl: u8) {
        // §6.1: increment the own sequence number before originating a request.
        self.seq = self.seq.wrapping_add(1);
        self.rreq_id = self.rreq_id.wrapping_add(1);
        // Remember our own request so that its echoes are discarded (§6.3).
        self.seen.insert(
            (self.addr, self.rreq_id),
            now + self.cfg.path_discovery_time(),
        );
        let known = self.table.get(dst).filter(|r| r.valid_seq).map(|r| r.seq);
        let rreq = RreqRepr {
            join: false,
            repair: false,
            gratuitous: self.cfg.gratuitous_rrep,
            destination_only: self.cfg.destination_only,
            unknown_seq: known.is_none(),
            hop_count: 0,
            rreq_id: self.rreq_id,
            dst,
            dst_seq: known.unwrap_or(0),
            orig: self.addr,
            orig_seq: self.seq,
        };
        self.counters.requests_originated += 1;
        // ns-2 sends its own requests at once (AODV::sendRequest); only relays are jittered.
        self.broadcast(now, ttl, "rreq", &AodvRepr::Rreq(rreq), true);
    }

    pub(super) fn fail_discovery(&mut self, now: SimTime, dst: Ipv4Addr) {
        let Some(d) = self.discoveries.remove(&dst) else {
            return;
        };
        self.timers.cancel(AodvTimer::Discovery(dst));
        let reason = match d.repair {
            None => RouteDropReason::NoRoute,
            Some((_, precursors)) => {
                // §6.12: a failed repair is reported as a broken route.
                let seq = match self.table.get_mut(dst) {
                    Some(r) => {
                        r.precursors.clear();
                        r.seq
                    }
                    None => 0,
                };
                self.send_rerr(now, vec![Unreachable { dst, seq }], precursors, false, true);
                RouteDropReason::LinkBroken
            }
        };
        for packet in self.buffer.take(dst) {
            self.drop_packet(packet, reason);
        }
    }

    /// Starts a local repair (§6.12) of the route to `dst`, which broke with `old_hops` hops;
    /// `src_hops` is the distance to the source of the packet that was being forwarded.
    pub(super) fn start_repair(
        &mut self,
        now: SimTime,
        dst: Ipv4Addr,
        old_hops: u8,
        src_hops: u8,
        precursors: BTreeSet<Ipv4Addr>,
    ) {
        // §6.12: TTL = max(MIN_REPAIR_TTL, 0.5 × #hops) + LOCAL_ADD_TTL, MIN_REPAIR_TTL being
        // the last known hop count to the destination.
        let (ttl, wait) = if self.cfg.ns2_local_repair {
            // ns-2 `sendRequest` from the route's last hop count: the next ring, or the
            // whole network from TTL_THRESHOLD on; `rt_req_timeout` = 2 × TTL × per-hop time.
            let ttl = if old_hops < self.cfg.ttl_threshold {
                old_hops.saturating_add(self.cfg.ttl_increment)
            } else {
                self.cfg.net_diameter
            }
            .max(1);
            let wait = self
                .cfg
                .node_traversal_time
                .saturating_mul(2 * u64::from(ttl));
            (ttl, wait)
        } else {
            let ttl = old_hops
                .max(src_hops / 2)
                .saturating_add(self.cfg.local_add_ttl)
                .max(1);
            (ttl, self.cfg.ring_traversal_time(ttl))
        };
        self.counters.discoveries += 1;
        self.discoveries.insert(
            dst,
            Discovery {
                started: now,
                ttl,
                wide_tries: 0,
                rate_limited: false,
                repair: Some((old_hops, precursors)),
            },
        );
        self.timers.set(AodvTimer::Discovery(dst), now + wait);
        self.rreq_times.push_back(now);
        self.send_rreq(now, dst, ttl);
    }
}
