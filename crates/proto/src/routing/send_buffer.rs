//! The send buffer every on-demand or buffering router shares: data packets this node
//! originated wait here while it has no route to their destination (RFC 3561 §6.3 for AODV,
//! RFC 4728 §4.2 for DSR, ns-3's `dsdv-packet-queue` for DSDV). One FIFO for all destinations,
//! as ns-2's and ns-3's queues are; the protocols differ only in what a full buffer gives up
//! and whether a packet of exactly the timeout's age has expired ([`BufferPolicy`]).
//!
//! Packets wait with their [`sctpsim_kernel::PacketTag`] so that whatever ends them later (sent
//! on the discovered route, or dropped) still names their flow.

use super::{Decision, Outputs, RouteDropReason, RoutingCounters, RoutingOutput};
use sctpsim_kernel::{Packet, PacketTag, SimDuration, SimTime};
use std::collections::VecDeque;
use std::net::Ipv4Addr;

/// What a full buffer gives up when another packet comes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    /// The oldest packet, so that the freshest data survive (ns-2's AODV `aodv_rqueue::enque`
    /// and DSR `dsragent.cc`).
    DropOldest,
    /// The new packet, which is also refused when its destination already has
    /// `per_destination` packets waiting (ns-3's DSDV `PacketQueue::Enqueue`).
    RefuseNew {
        /// Most packets waiting for one destination.
        per_destination: usize,
    },
}

/// Whether a packet that has waited exactly the timeout has expired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expiry {
    /// Age ≥ timeout (ns-2's AODV and DSR).
    AtTimeout,
    /// Age > timeout (ns-3's DSDV: `ExpireTime < 0`).
    AfterTimeout,
}

/// A buffer's limits and rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferPolicy {
    /// Most packets waiting (0: every packet is given back at once).
    pub capacity: usize,
    /// Longest wait.
    pub timeout: SimDuration,
    /// What a full buffer gives up.
    pub overflow: Overflow,
    /// Whether a packet of exactly the timeout's age has expired.
    pub expiry: Expiry,
}

/// What became of a packet offered to the buffer ([`SendBuffer::offer`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Offer {
    /// It waits.
    Queued,
    /// It waits; the oldest packet, given back, made room for it.
    QueuedDropping(Packet),
    /// The buffer refused it; it is given back.
    Refused(Packet),
}

impl Offer {
    /// The router's decision for the offered packet (AODV and DSR alike): buffered — an older
    /// packet given up for it is dropped as an output — or refused, which is the decision's
    /// drop when the packet was the one handed in (`handed_in`), else an output's drop of a
    /// packet the router held. Every drop is counted as `send_buffer_full`.
    pub(crate) fn settle(
        self,
        handed_in: bool,
        counters: &mut RoutingCounters,
        out: &mut Outputs,
    ) -> Decision {
        let reason = RouteDropReason::SendBufferFull;
        match self {
            Offer::Queued => Decision::Buffered,
            Offer::QueuedDropping(packet) => {
                counters.count_drop(reason);
                out.push_back(RoutingOutput::Drop { packet, reason });
                Decision::Buffered
            }
            Offer::Refused(packet) if handed_in => {
                counters.count_drop(reason);
                out.decide(Decision::Drop { packet, reason })
            }
            Offer::Refused(packet) => {
                counters.count_drop(reason);
                out.push_back(RoutingOutput::Drop { packet, reason });
                Decision::Consumed
            }
        }
    }
}

/// One waiting packet.
#[derive(Clone, Debug)]
struct Entry {
    since: SimTime,
    dst: Ipv4Addr,
    packet: Packet,
}

/// The buffer.
#[derive(Clone, Debug)]
pub struct SendBuffer {
    queue: VecDeque<Entry>,
    policy: BufferPolicy,
}

impl SendBuffer {
    /// An empty buffer with `policy`.
    pub fn new(policy: BufferPolicy) -> Self {
        SendBuffer {
            queue: VecDeque::new(),
            policy,
        }
    }

    /// Buffers `packet` for `dst`; returns the packet the policy gives up, if any: the oldest
    /// ([`Overflow::DropOldest`]) or `packet` itself ([`Overflow::RefuseNew`], or a capacity of
    /// 0).
    pub fn push(&mut self, now: SimTime, dst: Ipv4Addr, packet: Packet) -> Option<Packet> {
        match self.offer(now, dst, packet) {
            Offer::Queued => None,
            Offer::QueuedDropping(p) | Offer::Refused(p) => Some(p),
        }
    }

    /// Buffers `packet` for `dst` as [`SendBuffer::push`] does, saying which packet the policy
    /// gave up: a router tells its decision for the packet it was handed (buffered, or dropped
    /// because the buffer refused it) from its drop of an older one.
    pub fn offer(&mut self, now: SimTime, dst: Ipv4Addr, packet: Packet) -> Offer {
        let full = self.queue.len() >= self.policy.capacity;
        let dropped = match self.policy.overflow {
            _ if self.policy.capacity == 0 => return Offer::Refused(packet),
            Overflow::DropOldest if full => self.queue.pop_front().map(|e| e.packet),
            Overflow::DropOldest => None,
            Overflow::RefuseNew { per_destination } => {
                if full || self.count(dst) >= per_destination {
                    return Offer::Refused(packet);
                }
                None
            }
        };
        self.queue.push_back(Entry {
            since: now,
            dst,
            packet,
        });
        match dropped {
            Some(p) => Offer::QueuedDropping(p),
            None => Offer::Queued,
        }
    }

    fn expired(&self, since: SimTime, now: SimTime) -> bool {
        let age = now.saturating_since(since);
        match self.policy.expiry {
            Expiry::AtTimeout => age >= self.policy.timeout,
            Expiry::AfterTimeout => age > self.policy.timeout,
        }
    }

    /// Removes and returns, oldest first, the packets that have expired at `now`.
    pub fn expire(&mut self, now: SimTime) -> Vec<Packet> {
        if !self.queue.iter().any(|e| self.expired(e.since, now)) {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut keep = VecDeque::with_capacity(self.queue.len());
        for e in std::mem::take(&mut self.queue) {
            if self.expired(e.since, now) {
                out.push(e.packet);
            } else {
                keep.push_back(e);
            }
        }
        self.queue = keep;
        out
    }

    /// When the oldest packet reaches the timeout.
    pub fn next_deadline(&self) -> Option<SimTime> {
        self.queue
            .iter()
            .map(|e| e.since + self.policy.timeout)
            .min()
    }

    /// Removes and returns, oldest first, the packets for `dst`.
    pub fn take(&mut self, dst: Ipv4Addr) -> Vec<Packet> {
        self.take_where(|d| d == dst)
            .into_iter()
            .map(|(_, p)| p)
            .collect()
    }

    /// Removes and returns, oldest first, the packets whose destination `ready` accepts.
    pub fn take_where(
        &mut self,
        mut ready: impl FnMut(Ipv4Addr) -> bool,
    ) -> Vec<(Ipv4Addr, Packet)> {
        let mut out = Vec::new();
        self.queue.retain_mut(|e| {
            if ready(e.dst) {
                out.push((e.dst, std::mem::take(&mut e.packet)));
                false
            } else {
                true
            }
        });
        out
    }

    /// Removes and returns the oldest packet for `dst`.
    pub fn pop(&mut self, dst: Ipv4Addr) -> Option<Packet> {
        let i = self.queue.iter().position(|e| e.dst == dst)?;
        self.queue.remove(i).map(|e| e.packet)
    }

    /// Packets waiting for `dst`.
    pub fn count(&self, dst: Ipv4Addr) -> usize {
        self.queue.iter().filter(|e| e.dst == dst).count()
    }

    /// Whether a packet for `dst` waits.
    pub fn has(&self, dst: Ipv4Addr) -> bool {
        self.queue.iter().any(|e| e.dst == dst)
    }

    /// The destinations with packets waiting, in address order, without repeats.
    pub fn destinations(&self) -> Vec<Ipv4Addr> {
        let mut d: Vec<Ipv4Addr> = self.queue.iter().map(|e| e.dst).collect();
        d.sort_unstable();
        d.dedup();
        d
    }

    /// The tags of the packets waiting, oldest first.
    pub fn tags(&self) -> Vec<PacketTag> {
        self.queue.iter().map(|e| e.packet.tag).collect()
    }

    /// Packets waiting.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
    const B: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);

    fn pkt(k: u8) -> Packet {
        Packet::untagged(vec![k])
    }

    fn policy(capacity: usize, overflow: Overflow, expiry: Expiry) -> BufferPolicy {
        BufferPolicy {
            capacity,
            timeout: SimDuration::from_secs(30),
            overflow,
            expiry,
        }
    }

    fn at(s: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_secs(s)
    }

    #[test]
    fn drop_oldest_gives_up_the_front_and_keeps_order() {
        let mut b = SendBuffer::new(policy(2, Overflow::DropOldest, Expiry::AtTimeout));
        assert!(b.push(at(0), A, pkt(1)).is_none());
        assert!(b.push(at(1), B, pkt(2)).is_none());
        assert_eq!(b.push(at(2), A, pkt(3)).map(|p| p.bytes), Some(vec![1]));
        assert_eq!(
            b.take(A).iter().map(|p| p.bytes[0]).collect::<Vec<_>>(),
            vec![3]
        );
        assert_eq!(b.len(), 1);
        let mut zero = SendBuffer::new(policy(0, Overflow::DropOldest, Expiry::AtTimeout));
        assert_eq!(zero.push(at(0), A, pkt(9)).map(|p| p.bytes), Some(vec![9]));
        assert!(zero.is_empty());
        // `offer` tells the refused new packet from the oldest one given up for it.
        assert_eq!(zero.offer(at(0), A, pkt(8)), Offer::Refused(pkt(8)));
        assert_eq!(b.offer(at(3), B, pkt(4)), Offer::Queued);
        assert_eq!(b.offer(at(3), B, pkt(5)), Offer::QueuedDropping(pkt(2)));
    }

    #[test]
    fn refuse_new_limits_each_destination_and_the_whole() {
        let per = Overflow::RefuseNew { per_destination: 2 };
        let mut b = SendBuffer::new(policy(3, per, Expiry::AfterTimeout));
        assert!(b.push(at(0), A, pkt(1)).is_none());
        assert!(b.push(at(0), A, pkt(2)).is_none());
        assert_eq!(b.push(at(0), A, pkt(3)).map(|p| p.bytes), Some(vec![3]));
        assert!(b.push(at(0), B, pkt(4)).is_none());
        assert_eq!(b.push(at(0), B, pkt(5)).map(|p| p.bytes), Some(vec![5]));
        assert_eq!(b.destinations(), vec![A, B]);
        assert_eq!(b.pop(A).map(|p| p.bytes), Some(vec![1]));
        assert_eq!(b.count(A), 1);
    }

    #[test]
    fn expiry_at_or_after_the_timeout() {
        for (expiry, gone_at_30) in [(Expiry::AtTimeout, 1), (Expiry::AfterTimeout, 0)] {
            let mut b = SendBuffer::new(policy(8, Overflow::DropOldest, expiry));
            b.push(at(0), A, pkt(1));
            b.push(at(5), B, pkt(2));
            assert_eq!(b.next_deadline(), Some(at(30)));
            assert_eq!(b.expire(at(30)).len(), gone_at_30);
            assert_eq!(b.expire(at(31)).len(), 1 - gone_at_30);
            assert_eq!(b.len(), 1);
            assert_eq!(b.tags().len(), 1);
        }
    }
}
