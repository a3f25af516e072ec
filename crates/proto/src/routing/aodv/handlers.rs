//! Handlers of received control messages: RREQ (RFC 3561 §6.5, §6.6), RREP (§6.7), HELLO
//! (§6.9) and RERR (§6.11).

use super::{millis, seq_max, seq_newer, usable, Aodv, AodvTimer};
use crate::routing::RoutingEvent;
use sctpsim_kernel::{SimDuration, SimTime};
use sctpsim_wire::aodv::{AodvRepr, RerrRepr, RrepRepr, RreqRepr};
use std::collections::BTreeSet;
use std::net::Ipv4Addr;

impl Aodv {
    pub(super) fn on_rreq(
        &mut self,
        now: SimTime,
        prev_hop: Ipv4Addr,
        ip_ttl: u8,
        mut q: RreqRepr,
    ) {
        self.neighbour_route(now, prev_hop);
        if q.orig == self.addr || !usable(q.orig) || !usable(q.dst) {
            return; // an echo of our own request, or nonsense addresses
        }
        // §6.5: discard a request already seen within PATH_DISCOVERY_TIME.
        if self
            .seen
            .get(&(q.orig, q.rreq_id))
            .is_some_and(|t| *t > now)
        {
            return;
        }
        self.seen
            .insert((q.orig, q.rreq_id), now + self.cfg.path_discovery_time());
        q.hop_count = q.hop_count.saturating_add(1);
        // §6.5: reverse route, lifetime at least now + 2·NET_TRAVERSAL_TIME −
        // 2·HopCount·NODE_TRAVERSAL_TIME.
        let span = self
            .cfg
            .net_traversal_time()
            .saturating_mul(2)
            .as_nanos()
            .saturating_sub(
                self.cfg
                    .node_traversal_time
                    .saturating_mul(2 * u64::from(q.hop_count))
                    .as_nanos(),
            );
        self.update_route(
            q.orig,
            q.orig_seq,
            q.hop_count,
            prev_hop,
            now + SimDuration(span),
            true,
        );
        let Some(back) = self.table.valid(q.orig).map(|r| r.next_hop) else {
            return;
        };
        if q.dst == self.addr {
            // §6.6.1: the destination replies with its own sequence number, raised to the
            // one in the request if that is fresher (§6.1).
            if !q.unknown_seq {
                self.seq = seq_max(self.seq, q.dst_seq);
            }
            let rrep = RrepRepr {
                repair: false,
                ack_required: false,
                prefix_size: 0,
                hop_count: 0,
                dst: self.addr,
                dst_seq: self.seq,
                orig: q.orig,
                lifetime_ms: millis(self.cfg.my_route_timeout()),
            };
            self.unicast(back, "rrep", &AodvRepr::Rrep(rrep));
            self.flush_ready(now);
            return;
        }
        let fresh_route = self
            .table
            .valid(q.dst)
            .filter(|r| r.valid_seq && (q.unknown_seq || !seq_newer(q.dst_seq, r.seq)));
        if let (false, Some(r)) = (q.destination_only, fresh_route) {
            // §6.6.2: an intermediate node with a fresh enough route replies.
            let (fwd_next, hops, seq, life) = (r.next_hop, r.hops, r.seq, r.lifetime);
            if let Some(f) = self.table.get_mut(q.dst) {
                f.precursors.insert(back);
            }
            if let Some(b) = self.table.get_mut(q.orig) {
                b.precursors.insert(fwd_next);
            }
            let rrep = RrepRepr {
                repair: false,
                ack_required: false,
                prefix_size: 0,
                hop_count: hops,
                dst: q.dst,
                dst_seq: seq,
                orig: q.orig,
                lifetime_ms: millis(life.saturating_since(now)),
            };
            self.unicast(back, "rrep", &AodvRepr::Rrep(rrep));
            if q.gratuitous {
                // §6.6.3: tell the destination the route to the originator.
                if let Some(b) = self.table.valid(q.orig) {
                    let grat = RrepRepr {
                        repair: false,
                        ack_required: false,
                        prefix_size: 0,
                        hop_count: b.hops,
                        dst: q.orig,
                        dst_seq: q.orig_seq,
                        orig: q.dst,
                        lifetime_ms: millis(b.lifetime.saturating_since(now)),
                    };
                    self.unicast(fwd_next, "rrep", &AodvRepr::Rrep(grat));
                }
            }
            self.flush_ready(now);
            return;
        }
        if ip_ttl > 1 {
            // §6.5: relay with the TTL decremented and the fresher destination sequence number.
            if let Some(r) = self.table.get(q.dst).filter(|r| r.valid_seq) {
                if q.unknown_seq {
                    q.dst_seq = r.seq;
                    q.unknown_seq = false;
                } else {
                    q.dst_seq = seq_max(q.dst_seq, r.seq);
                }
            }
            self.broadcast(now, ip_ttl - 1, "rreq", &AodvRepr::Rreq(q), false);
        }
        self.flush_ready(now);
    }

    pub(super) fn on_rrep(&mut self, now: SimTime, prev_hop: Ipv4Addr, mut p: RrepRepr) {
        self.neighbour_route(now, prev_hop);
        if p.ack_required {
            // §6.7: the sender wants to know the link works in this direction.
            self.unicast(prev_hop, "rrep_ack", &AodvRepr::RrepAck);
        }
        if p.dst == self.addr || !usable(p.dst) {
            self.flush_ready(now);
            return;
        }
        p.hop_count = p.hop_count.saturating_add(1);
        let life = now + SimDuration::from_millis(u64::from(p.lifetime_ms));
        let updated = self.update_route(p.dst, p.dst_seq, p.hop_count, prev_hop, life, false);
        // §6.7 forwards a reply only if it created or updated the route. A reply that
        // confirms the route we already hold (same next hop, sequence number and hop count:
        // a destination answering a second request without a new sequence number, §6.6.1)
        // is forwarded too, or its originator would never hear it; ns-3 forwards it as well.
        let confirms = !updated
            && self.table.valid(p.dst).is_some_and(|r| {
                r.next_hop == prev_hop && r.seq == p.dst_seq && r.hops == p.hop_count
            });
        if confirms {
            self.table.refresh(p.dst, life);
        }
        if p.orig != self.addr && (updated || confirms) {
            // §6.7: forward toward the originator along the reverse route.
            if let Some(back) = self.table.valid(p.orig).map(|r| r.next_hop) {
                if let Some(f) = self.table.get_mut(p.dst) {
                    f.precursors.insert(back);
                }
                if let Some(n) = self.table.get_mut(prev_hop) {
                    n.precursors.insert(back);
                }
                self.table
                    .refresh(p.orig, now + self.cfg.active_route_timeout);
                self.unicast(back, "rrep", &AodvRepr::Rrep(p));
            }
        }
        self.flush_ready(now);
    }

    /// §6.9: a HELLO (a broadcast RREP about its sender, hop count 0) makes its sender a
    /// neighbour with a known sequence number for ALLOWED_HELLO_LOSS × HELLO_INTERVAL.
    pub(super) fn on_hello(&mut self, now: SimTime, prev_hop: Ipv4Addr, p: RrepRepr) {
        let until = now + self.cfg.hello_loss_window();
        self.neighbour_route(now, prev_hop);
        if let Some(r) = self.table.get_mut(prev_hop) {
            r.seq = if r.valid_seq {
                seq_max(r.seq, p.dst_seq)
            } else {
                p.dst_seq
            };
            r.valid_seq = true;
            r.lifetime = r.lifetime.max(until);
        }
        if self.cfg.hello_enabled {
            self.timers.set(AodvTimer::NeighbourLost(prev_hop), until);
        }
        self.flush_ready(now);
    }

    /// §6.11 case (iii): a RERR from `prev_hop` invalidates our routes through it to the
    /// listed destinations, and goes on to their precursors.
    pub(super) fn on_rerr(&mut self, now: SimTime, prev_hop: Ipv4Addr, e: RerrRepr) {
        let delete_until = now + self.cfg.delete_period();
        let mut unreachable = Vec::new();
        let mut precursors = BTreeSet::new();
        for u in e.unreachable {
            if u.dst == self.addr {
                continue;
            }
            let Some(r) = self.table.get_mut(u.dst) else {
                continue;
            };
            if !r.valid || r.next_hop != prev_hop {
                continue;
            }
            if e.no_delete {
                // §6.12: a repair is under way upstream; keep the route, pass the news on.
                precursors.extend(r.precursors.iter().copied());
                unreachable.push(u);
                continue;
            }
            r.valid = false;
            r.seq = u.seq;
            r.valid_seq = true;
            r.lifetime = delete_until;
            precursors.append(&mut r.precursors);
            unreachable.push(u);
            self.events
                .push_back(RoutingEvent::RouteBroken { dst: u.dst });
        }
        self.send_rerr(now, unreachable, precursors, e.no_delete, false);
    }
}
