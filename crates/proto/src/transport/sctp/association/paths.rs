//! Multi-homing (RFC 9260 §6.4, §8): the destination of new data (primary, failover and
//! optional return), alternate destinations for retransmissions, the error counters of §8.1
//! and §8.2 with PathDown/PathUp, and heartbeats (§8.3) with path confirmation (§5.4).

use std::net::Ipv4Addr;

use sctpsim_kernel::{SimDuration, SimTime};
use sctpsim_wire::sctp::{ChunkRepr, ErrorCause};

use super::super::api::{LossReason, SctpEvent};
use super::super::asctp::PathRoute;
use super::super::stats::{MetricKind, SwitchCause};
use super::super::timers::Timer;
use super::{Flow, PacketCtx, SctpAssociation};

/// Heartbeat Info we send (RFC 9260 §8.3: "the sender SHOULD include ... the current time
/// when the packet is sent" and "a random nonce"): destination address (4), send time in ns
/// (8), the destination's nonce (8).
const HB_INFO_LEN: usize = 20;

impl SctpAssociation {
    fn usable(&self, addr: Ipv4Addr) -> bool {
        self.path(addr).is_some_and(|p| p.usable())
    }

    /// RFC 9260 §6.4 / §8.2: the destination new data should go to now (A-SCTP:
    /// `asctp.rs`, rule 1).
    pub(super) fn choose_data_dest(&self) -> Ipv4Addr {
        if let Some(d) = self.mode_data_path() {
            return d;
        }
        let (primary, current) = (self.primary, self.current);
        if self.usable(primary)
            && (self.cfg.return_to_primary || current == primary || !self.usable(current))
        {
            return primary;
        }
        if self.usable(current) {
            return current;
        }
        // "the SCTP endpoint SHOULD try to send the data to an alternate active destination
        // transport address if one exists": the next usable one after the current path.
        let n = self.paths.len();
        let start = self.path_index(current).unwrap_or(0);
        for k in 1..=n {
            let p = &self.paths[(start + k) % n.max(1)];
            if p.usable() {
                return p.addr;
            }
        }
        // Nothing reachable: keep probing the confirmed destination with the fewest errors,
        // preferring the primary.
        self.paths
            .iter()
            .filter(|p| p.confirmed)
            .min_by_key(|p| (p.error_count, p.addr != primary))
            .map_or(current, |p| p.addr)
    }

    /// The destination for new data, recording a switch (metric with its cause, counter).
    pub(crate) fn data_dest(&mut self, now: SimTime) -> Ipv4Addr {
        let chosen = self.choose_data_dest();
        let known = self.switch_cause.take();
        if chosen != self.current && !self.current.is_unspecified() {
            self.stats.path_switches += 1;
            let from = self.current;
            let cause = known.unwrap_or_else(|| self.default_switch_cause(chosen));
            self.metric(
                now,
                MetricKind::PathSwitch {
                    from,
                    to: chosen,
                    cause,
                },
            );
            self.on_data_path_switch(from, chosen);
        }
        self.current = chosen;
        chosen
    }

    /// RFC 9260 §6.4: "an active destination transport address that is different from the
    /// last destination address to which the DATA chunk was sent", if there is one.
    pub(crate) fn alternate(&self, from: Ipv4Addr) -> Ipv4Addr {
        if let Some(d) = self.mode_retransmission_path() {
            // A-SCTP rule 1: every DATA chunk, retransmissions included, on the data path.
            return d;
        }
        let n = self.paths.len();
        if let Some(i) = self.path_index(from) {
            for k in 1..n {
                let p = &self.paths[(i + k) % n];
                if p.usable() {
                    return p.addr;
                }
            }
        }
        if self.usable(from) {
            from
        } else {
            self.choose_data_dest()
        }
    }

    /// RFC 9260 §8.1 and §8.2: a failure of a retransmission timer (T3-rtx, T2, T4) on
    /// `addr`. Returns true if the association failed (it is then CLOSED).
    pub(crate) fn strike(&mut self, now: SimTime, addr: Ipv4Addr) -> bool {
        self.strike_for(now, addr, SwitchCause::Timeout, true)
    }

    /// RFC 9260 §8.1 and §8.2: a failure on `addr`, of the kind `cause` names (a timer or an
    /// unanswered HEARTBEAT); `count_association`: also against the association's overall
    /// counter (A-SCTP does not count heartbeat failures of paths other than the data path,
    /// `asctp.rs` rule 3). Returns true if the association failed (it is then CLOSED).
    pub(crate) fn strike_for(
        &mut self,
        now: SimTime,
        addr: Ipv4Addr,
        cause: SwitchCause,
        count_association: bool,
    ) -> bool {
        let mut down = false;
        if let Some(p) = self.path_mut(addr) {
            // §8.3: once inactive, "the endpoint SHOULD continue heartbeating on this
            // destination address but SHOULD NOT increase the counter".
            if p.active {
                p.error_count = p.error_count.saturating_add(1);
            }
            // §8.2: "When the value of this counter exceeds the protocol parameter
            // 'Path.Max.Retrans' of that destination address, the endpoint SHOULD mark the
            // destination transport address as inactive".
            if p.error_count > p.path_max_retrans && p.active {
                p.active = false;
                p.stats.times_down += 1;
                down = true;
            }
        }
        if down {
            self.events.push_back(SctpEvent::PathDown { addr });
            if !self.mode_path_down(now, addr, cause) {
                self.switch_cause = Some(cause);
                let to = self.data_dest(now);
                // Marks aimed at the failed destination go elsewhere.
                if to != addr {
                    self.tx.redirect(addr, to);
                }
            }
        }
        if !count_association {
            return false;
        }
        // §8.1: "If the value of this counter exceeds the limit indicated in the protocol
        // parameter 'Association.Max.Retrans', the endpoint SHOULD consider the peer endpoint
        // unreachable and SHALL stop transmitting any more data to it (and thus the
        // association enters the CLOSED state)."
        self.error_count = self.error_count.saturating_add(1);
        if self.error_count > self.cfg.association_max_retrans {
            // Like Linux, tell the peer why (if it can still hear us).
            self.queue_abort(
                now,
                vec![ErrorCause::ProtocolViolation {
                    info: b"Association.Max.Retrans exceeded".to_vec(),
                }],
            );
            self.terminate(LossReason::MaxRetransmissions);
            return true;
        }
        false
    }

    /// Data or a heartbeat sent to `addr` was acknowledged: clear its error counter (§8.2)
    /// and mark it active again.
    pub(crate) fn path_ok(&mut self, addr: Ipv4Addr) {
        let mut up = false;
        if let Some(p) = self.path_mut(addr) {
            p.error_count = 0;
            // A-SCTP: an acknowledgement of data sent before the path's route broke (DSR
            // salvaged it) does not bring back a route the routing protocol no longer has.
            if !p.active && p.route != PathRoute::Lost {
                p.active = true;
                up = true;
            }
        }
        if up {
            self.events.push_back(SctpEvent::PathUp { addr });
        }
    }

    /// Arms the heartbeat timers of every destination once the association is up:
    /// unconfirmed ones first, HB.Max.Burst at a time per RTO (§5.4), the others after one
    /// heartbeat period (§8.3).
    pub(crate) fn start_heartbeats(&mut self, now: SimTime) {
        let burst = self.cfg.hb_max_burst.max(1) as u64;
        let mut k = 0u64;
        for i in 0..self.paths.len() {
            let (addr, confirmed, rto) = {
                let p = &self.paths[i];
                (p.addr, p.confirmed, p.rto.rto())
            };
            if confirmed {
                self.arm_heartbeat(now, addr);
            } else {
                let at = now + rto.saturating_mul(k / burst);
                self.timers.set(Timer::Heartbeat(addr), at);
                k += 1;
            }
        }
    }

    /// Arms the heartbeat timer of `addr` one period from now (if heartbeats apply), or as the
    /// mode's [`super::cmt::HeartbeatRules`] say (A-SCTP: every RTO on each path with a route
    /// and on the data path, `asctp.rs` rule 2).
    pub(crate) fn arm_heartbeat(&mut self, now: SimTime, addr: Ipv4Addr) {
        if !matches!(
            self.state,
            super::State::Established
                | super::State::ShutdownPending
                | super::State::ShutdownReceived
        ) {
            return;
        }
        let Some(i) = self.path_index(addr) else {
            return;
        };
        let rules = self.heartbeat_rules(addr);
        let p = &self.paths[i];
        if rules.no_route {
            self.timers.stop(Timer::Heartbeat(addr));
            return;
        }
        if rules.every_rto {
            let at = now + p.rto.rto();
            self.timers.set(Timer::Heartbeat(addr), at);
            return;
        }
        if p.confirmed && !p.hb_enabled {
            self.timers.stop(Timer::Heartbeat(addr));
            return;
        }
        let period = p.heartbeat_period(&mut self.rng);
        self.timers.set(Timer::Heartbeat(addr), now + period);
    }

    /// RFC 9260 §8.3: the heartbeat timer of `addr` fired.
    pub(crate) fn on_heartbeat_timer(&mut self, now: SimTime, addr: Ipv4Addr) {
        let Some(i) = self.path_index(addr) else {
            return;
        };
        let rules = self.heartbeat_rules(addr);
        if rules.no_route {
            return; // no route to probe (stale timer)
        }
        if self.paths[i].hb_outstanding {
            // The previous HEARTBEAT went unanswered: one error, and "exponential backoff of
            // the RTO if the previous HEARTBEAT is unanswered". A-SCTP: no back-off, so that
            // two failures take 2·RTO (§3, §4: "after time 2RTO"; rule 3).
            self.paths[i].hb_outstanding = false;
            if rules.note_given_up {
                self.paths[i].hb_given_up_at = now;
            }
            if rules.back_off {
                self.paths[i].rto.back_off(&self.cfg);
            }
            if self.strike_for(now, addr, SwitchCause::Heartbeat, rules.count_association) {
                return;
            }
        }
        let Some(p) = self.path(addr) else {
            return;
        };
        if p.confirmed && !rules.every_rto {
            if !p.hb_enabled {
                return;
            }
            // Only idle destinations are probed: "no new chunk that can be used for updating
            // path RTT ... has been sent to it within the current heartbeat period".
            let window = p.hb_interval + p.rto.rto();
            if let Some(last) = p.last_data_sent {
                if now.saturating_since(last) < window {
                    let at = last + window;
                    self.timers.set(
                        Timer::Heartbeat(addr),
                        at.max(now + SimDuration::from_millis(1)),
                    );
                    return;
                }
            }
        }
        self.send_heartbeat(now, addr);
        self.arm_heartbeat(now, addr);
    }

    /// Queues a HEARTBEAT to `addr`.
    pub(crate) fn send_heartbeat(&mut self, now: SimTime, addr: Ipv4Addr) {
        let Some(p) = self.path_mut(addr) else {
            return;
        };
        let mut info = Vec::with_capacity(HB_INFO_LEN);
        info.extend_from_slice(&addr.octets());
        info.extend_from_slice(&now.0.to_be_bytes());
        info.extend_from_slice(&p.hb_nonce.to_be_bytes());
        p.hb_outstanding = true;
        p.last_probe_sent = Some(now);
        p.stats.heartbeats_sent += 1;
        self.stats.heartbeats_sent += 1;
        self.ctrl.push((addr, ChunkRepr::Heartbeat { info }));
    }

    /// RFC 9260 §8.3: "The receiver of the HEARTBEAT chunk SHOULD immediately respond with a
    /// HEARTBEAT ACK chunk that contains the Heartbeat Information TLV, together with any
    /// other received TLVs, copied unchanged", to the source of the HEARTBEAT.
    pub(crate) fn on_heartbeat(&mut self, ctx: &mut PacketCtx, info: &[u8]) -> Flow {
        if !self.state.is_established_or_closing() && self.state != super::State::CookieEchoed {
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        }
        let t = self.reply(
            ctx,
            self.peer_vtag,
            vec![ChunkRepr::HeartbeatAck {
                info: info.to_vec(),
            }],
        );
        self.pending.push_back(t);
        Flow::Continue
    }

    /// RFC 9260 §8.3: a HEARTBEAT ACK: clear the error counters, mark the destination active
    /// (and confirmed), take an RTT sample from the time it carries.
    pub(crate) fn on_heartbeat_ack(&mut self, now: SimTime, info: &[u8]) -> Flow {
        if info.len() != HB_INFO_LEN {
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        }
        let addr = Ipv4Addr::new(info[0], info[1], info[2], info[3]);
        let mut t = [0u8; 8];
        t.copy_from_slice(&info[4..12]);
        let sent = SimTime(u64::from_be_bytes(t));
        let mut n = [0u8; 8];
        n.copy_from_slice(&info[12..20]);
        let nonce = u64::from_be_bytes(n);
        let cfg = self.cfg.clone();
        let Some(p) = self.path_mut(addr) else {
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        };
        if p.hb_nonce != nonce || sent > now {
            self.stats.chunks_dropped += 1;
            return Flow::Continue;
        }
        let rtt = now - sent;
        let late = sent < p.hb_given_up_at;
        p.hb_outstanding = false;
        // Sampled even when late, as ns-2's SCTP does (`ProcessHeartbeatAckChunk` calls
        // `RttUpdate` for every HEARTBEAT ACK) and RFC 9260 §8.3 allows: the timestamp in the
        // heartbeat makes the sample unambiguous.
        p.rto.sample(&cfg, rtt);
        p.note_rtt(rtt);
        let rto = p.rto.rto();
        let newly_confirmed = !p.confirmed;
        p.confirmed = true;
        p.pf = false;
        self.stats.heartbeat_acks_received += 1;
        self.stats.late_heartbeat_acks += u64::from(late);
        self.stats.rtt_samples += 1;
        self.stats.rtt_sum_ns += u128::from(rtt.as_nanos());
        self.metric(
            now,
            MetricKind::Rtt {
                path: addr,
                rtt,
                rto,
            },
        );
        // §8.1: "The receiver of the HEARTBEAT ACK MUST also clear the association overall
        // error count".
        self.error_count = 0;
        let was_active = self.path(addr).is_some_and(|p| p.active);
        self.path_ok(addr);
        if newly_confirmed && was_active {
            self.events.push_back(SctpEvent::PathUp { addr });
        }
        if newly_confirmed {
            self.arm_heartbeat(now, addr);
        }
        Flow::Continue
    }
}
