//! Point-to-point links: per direction a drop-tail queue, a transmitter that serialises at the
//! link bandwidth, a propagation delay, a loss process and scripted drops.
//!
//! The queue limit counts waiting packets, not the one being transmitted, as ns-2's
//! `Queue/DropTail` does (`limit_` = 50 by default).

use crate::loss::LossProcess;
use crate::packet::Packet;
use sctpsim_kernel::{BitRate, FlowId, NodeId, SimDuration};
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
    /// The queue was full; the packet is dropped (returned for the record).
    Dropped(Packet),
}

impl LinkDir {
    /// Offer a packet for transmission.
    pub fn offer(&mut self, pkt: Packet) -> Offer {
        if !self.busy {
            self.busy = true;
            Offer::StartNow(pkt)
        } else if self.queue.len() < self.limit {
            self.queue.push_back(pkt);
            Offer::Queued
        } else {
            self.counters.queue_drops += 1;
            Offer::Dropped(pkt)
        }
    }

    /// Account for a packet starting transmission and decide whether it survives the link.
    /// Returns the serialisation time and whether the packet arrives.
    pub fn start_tx(&mut self, pkt: &Packet) -> (SimDuration, bool) {
        self.busy = true;
        self.counters.tx_packets += 1;
        self.counters.tx_bytes += pkt.len() as u64;
        let tx = self.rate.tx_time(pkt.len());
        let scripted = match pkt.flow.and_then(|f| self.scripted.get_mut(&f)) {
            Some(s) => {
                s.seen += 1;
                s.ordinals.contains(&s.seen)
            }
            None => false,
        };
        if scripted {
            self.counters.scripted_drops += 1;
            return (tx, false);
        }
        // Draw for every packet, so the loss pattern does not depend on scripted drops.
        if self.loss.lose_next() {
            self.counters.loss_drops += 1;
            return (tx, false);
        }
        (tx, true)
    }

    /// The transmitter finished a packet: the next one to send, if any.
    pub fn tx_done(&mut self) -> Option<Packet> {
        let next = self.queue.pop_front();
        self.busy = next.is_some();
        next
    }
}
