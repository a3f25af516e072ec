//! The packet queue of ns-3's DSDV (`dsdv-packet-queue.{h,cc}`): packets this node originates
//! while it has no route to their destination. The paper has no such buffer (a node without a
//! route drops); ns-3 adds it, on by default (`EnableBuffering`), "for Broch paper
//! comparison".
//!
//! Rules, as ns-3's `PacketQueue`: one FIFO for all destinations; a packet is refused when its
//! destination already has `per_dst` packets waiting or the queue holds `capacity` (the new
//! packet is the one lost, unlike AODV's buffer which drops its oldest); a packet leaves by
//! destination, oldest first; a packet older than the timeout is dropped (strictly older, as
//! `ExpireTime < 0`). Expiry is checked lazily whenever the queue is touched, as ns-3 does.

use sctpsim_kernel::{Packet, PacketTag, SimDuration, SimTime};
use std::collections::VecDeque;
use std::net::Ipv4Addr;

/// One queued packet.
#[derive(Clone, Debug)]
struct Queued {
    since: SimTime,
    dst: Ipv4Addr,
    packet: Packet,
}

/// The queue.
#[derive(Clone, Debug, Default)]
pub struct PacketQueue {
    queue: VecDeque<Queued>,
}

impl PacketQueue {
    /// Queues `packet` for `dst`, or gives it back if the destination's share or the whole
    /// queue is full.
    pub fn push(
        &mut self,
        now: SimTime,
        dst: Ipv4Addr,
        packet: Packet,
        capacity: usize,
        per_dst: usize,
    ) -> Result<(), Packet> {
        if self.count(dst) >= per_dst || self.queue.len() >= capacity {
            return Err(packet);
        }
        self.queue.push_back(Queued {
            since: now,
            dst,
            packet,
        });
        Ok(())
    }

    /// Packets waiting for `dst`.
    pub fn count(&self, dst: Ipv4Addr) -> usize {
        self.queue.iter().filter(|q| q.dst == dst).count()
    }

    /// Whether any packet waits for `dst`.
    pub fn has(&self, dst: Ipv4Addr) -> bool {
        self.queue.iter().any(|q| q.dst == dst)
    }

    /// The oldest packet for `dst`.
    pub fn pop(&mut self, dst: Ipv4Addr) -> Option<Packet> {
        let i = self.queue.iter().position(|q| q.dst == dst)?;
        self.queue.remove(i).map(|q| q.packet)
    }

    /// Removes and returns the packets that waited longer than `timeout` at `now`.
    pub fn expire(&mut self, now: SimTime, timeout: SimDuration) -> Vec<Packet> {
        if !self
            .queue
            .iter()
            .any(|q| now.saturating_since(q.since) > timeout)
        {
            return Vec::new();
        }
        let (old, keep): (Vec<Queued>, Vec<Queued>) = self
            .queue
            .drain(..)
            .partition(|q| now.saturating_since(q.since) > timeout);
        self.queue = keep.into();
        old.into_iter().map(|q| q.packet).collect()
    }

    /// The destinations with packets waiting, in address order, without repeats.
    pub fn destinations(&self) -> Vec<Ipv4Addr> {
        let mut d: Vec<Ipv4Addr> = self.queue.iter().map(|q| q.dst).collect();
        d.sort_unstable();
        d.dedup();
        d
    }

    /// The tags of the waiting packets, oldest first.
    pub fn tags(&self) -> Vec<PacketTag> {
        self.queue.iter().map(|q| q.packet.tag).collect()
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
