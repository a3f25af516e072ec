//! Point-to-point links: per direction a drop-tail queue, a transmitter that serialises at the
//! link bandwidth, a propagation delay, a loss process, scripted drops and scheduled outages.
//!
//! The queue limit counts waiting packets, not the one being transmitted, as ns-2's
//! `Queue/DropTail` does (`limit_` = 50 by default).
//!
//! Outages (`[[link.outages]]`): while a direction is down, a packet offered to it is dropped
//! at once (not queued), a queued packet whose turn comes is dropped without using the
//! transmitter, and a packet whose transmission or propagation overlaps the start of an outage
//! never arrives. All three count as `outage_drops`. The link does not tell anyone it is down:
//! routes stay as they are, and the transports find out by themselves (SCTP failover).

use crate::drop::DropReason;
use crate::loss::LossProcess;
use crate::packet::Packet;
use sctpsim_kernel::{BitRate, FlowId, NodeId, SimDuration, SimTime};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Counters of one link direction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkCounters {
    /// Packets that started transmission.
    pub tx_packets: u64,
    /// Bytes that started transmission.
    pub tx_bytes: u64,
    /// Packets refused by a full queue.
    pub queue_drops: u64,
    /// Packets lost by the random loss process.
    pub loss_drops: u64,
    /// Packets dropped by a scripted drop.
    pub scripted_drops: u64,
    /// Packets lost to an outage (offered while down, or cut by the start of one).
    pub outage_drops: u64,
    /// Time spent serialising so far (for utilisation), ns.
    pub busy_ns: u64,
    /// `tx_bytes` at the last time-series sample (for the interval's throughput).
    pub sampled_tx_bytes: u64,
}

/// Scripted drops for one flow in one direction.
#[derive(Clone, Debug, Default)]
pub struct ScriptedDrops {
    /// Ordinals (1-based) to drop.
    pub ordinals: BTreeSet<u64>,
    /// Packets of the flow seen so far in this direction.
    pub seen: u64,
}

/// One direction of a link.
#[derive(Clone, Debug)]
pub struct LinkDir {
    /// Node the packets leave from.
    pub from: NodeId,
    /// Node the packets arrive at.
    pub to: NodeId,
    /// Interface index at `to` that receives.
    pub to_iface: u32,
    /// Serialisation rate.
    pub rate: BitRate,
    /// Propagation delay.
    pub delay: SimDuration,
    /// Drop-tail limit (waiting packets).
    pub limit: usize,
    /// Waiting packets.
    pub queue: VecDeque<Packet>,
    /// Whether a packet is being serialised.
    pub busy: bool,
    /// Random loss.
    pub loss: LossProcess,
    /// Scripted drops per flow.
    pub scripted: BTreeMap<FlowId, ScriptedDrops>,
    /// Intervals `[start, end)` during which the direction is down.
    pub outages: Vec<(SimTime, SimTime)>,
    /// Counters.
    pub counters: LinkCounters,
}

/// What happened to a packet offered to a link direction.
#[derive(Debug)]
pub enum Offer {
    /// The transmitter was idle: start sending this packet now.
    StartNow(Packet),
    /// Queued behind others.
    Queued,
    /// The queue was full or the direction is down; the packet is dropped (returned for the
    /// record, with the reason).
    Dropped(Packet, DropReason),
}

impl LinkDir {
    /// Whether the direction is down at `t`.
    pub fn is_down(&self, t: SimTime) -> bool {
        self.outages.iter().any(|&(s, e)| s <= t && t < e)
    }

    /// Whether an outage starts in `(from, to]` (a packet on the wire then is cut).
    fn goes_down_during(&self, from: SimTime, to: SimTime) -> bool {
        self.outages.iter().any(|&(s, _)| from < s && s <= to)
    }

    /// Offer a packet for transmission at `now`.
    pub fn offer(&mut self, now: SimTime, pkt: Packet) -> Offer {
        if self.is_down(now) {
            self.counters.outage_drops += 1;
            return Offer::Dropped(pkt, DropReason::Outage);
        }
        if !self.busy {
            self.busy = true;
            Offer::StartNow(pkt)
        } else if self.queue.len() < self.limit {
            self.queue.push_back(pkt);
            Offer::Queued
        } else {
            self.counters.queue_drops += 1;
            Offer::Dropped(pkt, DropReason::Queue)
        }
    }

    /// Account for a packet starting transmission at `now` and decide whether it survives the
    /// link. Returns the serialisation time and, if the packet does not arrive, why. While the
    /// direction is down the packet is dropped without using the transmitter (zero time).
    pub fn start_tx(&mut self, now: SimTime, pkt: &Packet) -> (SimDuration, Option<DropReason>) {
        self.busy = true;
        if self.is_down(now) {
            self.counters.outage_drops += 1;
            return (SimDuration::ZERO, Some(DropReason::Outage));
        }
        self.counters.tx_packets += 1;
        self.counters.tx_bytes += pkt.len() as u64;
        let tx = self.rate.tx_time(pkt.len());
        let scripted = match pkt.tag.flow.and_then(|f| self.scripted.get_mut(&f)) {
            Some(s) => {
                s.seen += 1;
                s.ordinals.contains(&s.seen)
            }
            None => false,
        };
        if scripted {
            self.counters.scripted_drops += 1;
            return (tx, Some(DropReason::Scripted));
        }
        // Draw for every packet, so the loss pattern does not depend on scripted drops.
        if self.loss.lose_next() {
            self.counters.loss_drops += 1;
            return (tx, Some(DropReason::Loss));
        }
        if self.goes_down_during(now, now + tx + self.delay) {
            self.counters.outage_drops += 1;
            return (tx, Some(DropReason::Outage));
        }
        (tx, None)
    }

    /// The transmitter finished a packet: the next one to send, if any.
    pub fn tx_done(&mut self) -> Option<Packet> {
        let next = self.queue.pop_front();
        self.busy = next.is_some();
        next
    }
}

#[cfg(test)]
mod test {
    use super::*;

    fn dir(outages: Vec<(SimTime, SimTime)>) -> LinkDir {
        LinkDir {
            from: NodeId(0),
            to: NodeId(1),
            to_iface: 0,
            // 1000-byte packets take 8 ms; 10 ms propagation.
            rate: BitRate(1_000_000),
            delay: SimDuration::from_millis(10),
            limit: 10,
            queue: VecDeque::new(),
            busy: false,
            loss: LossProcess::None,
            scripted: BTreeMap::new(),
            outages,
            counters: LinkCounters::default(),
        }
    }

    fn pkt() -> Packet {
        Packet::untagged(vec![0; 1000])
    }

    const MS: u64 = 1_000_000;

    #[test]
    fn outages_drop_offered_queued_and_cut_packets() {
        let mut d = dir(vec![(SimTime(100 * MS), SimTime(200 * MS))]);
        assert!(!d.is_down(SimTime(99 * MS)));
        assert!(d.is_down(SimTime(100 * MS)) && d.is_down(SimTime(199 * MS)));
        assert!(!d.is_down(SimTime(200 * MS)));
        // Offered while down: dropped at once, not queued.
        assert!(matches!(
            d.offer(SimTime(150 * MS), pkt()),
            Offer::Dropped(_, DropReason::Outage)
        ));
        assert!(d.queue.is_empty() && !d.busy);
        // A queued packet whose turn comes during the outage: dropped without using the link.
        assert_eq!(
            d.start_tx(SimTime(150 * MS), &pkt()),
            (SimDuration::ZERO, Some(DropReason::Outage))
        );
        // Sent at 85 ms, it would arrive at 103 ms: cut by the outage starting at 100 ms.
        assert_eq!(
            d.start_tx(SimTime(85 * MS), &pkt()),
            (SimDuration::from_millis(8), Some(DropReason::Outage))
        );
        // Sent at 80 ms, it arrives at 98 ms: survives. After the repair, all is normal.
        assert!(d.start_tx(SimTime(80 * MS), &pkt()).1.is_none());
        assert!(d.start_tx(SimTime(200 * MS), &pkt()).1.is_none());
        assert_eq!(d.counters.outage_drops, 3);
        assert_eq!(d.counters.tx_packets, 3, "the queued drop never started");
    }
}
