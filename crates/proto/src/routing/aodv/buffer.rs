//! The send buffer: data packets waiting for a route (RFC 3561 §6.3 "data packets waiting for
//! a route ... SHOULD be buffered"). Capacity and timeout follow ns-2 (`aodv_rqueue.h`:
//! `AODV_RTQ_MAX_LEN` 64 packets, `AODV_RTQ_TIMEOUT` 30 s); like ns-2's `aodv_rqueue::enque`,
//! a full buffer makes room by dropping its oldest packet.
//!
//! Packets wait with their [`sctpsim_kernel::PacketTag`] so that whatever ends them later (sent
//! on the discovered route, or dropped) still names their flow.

use sctpsim_kernel::{Packet, PacketTag, SimDuration, SimTime};
use std::collections::VecDeque;
use std::net::Ipv4Addr;

/// One buffered packet.
#[derive(Clone, Debug)]
pub struct Buffered {
    /// When it entered the buffer.
    pub since: SimTime,
    /// Its IP destination.
    pub dst: Ipv4Addr,
    /// The IPv4 packet and its tag.
    pub packet: Packet,
}

/// A FIFO shared by all destinations (as ns-2's), so the oldest packet is always at the front.
#[derive(Clone, Debug, Default)]
pub struct SendBuffer {
    queue: VecDeque<Buffered>,
}

impl SendBuffer {
    /// Appends a packet; if that makes the buffer longer than `capacity`, the oldest packet
    /// comes back to be dropped. A capacity of 0 returns the packet itself.
    pub fn push(
        &mut self,
        now: SimTime,
        dst: Ipv4Addr,
        packet: Packet,
        capacity: usize,
    ) -> Option<Packet> {
        self.queue.push_back(Buffered {
            since: now,
            dst,
            packet,
        });
        if self.queue.len() > capacity {
            self.queue.pop_front().map(|b| b.packet)
        } else {
            None
        }
    }

    /// Takes every packet for `dst`, oldest first.
    pub fn take(&mut self, dst: Ipv4Addr) -> Vec<Packet> {
        let mut out = Vec::new();
        let mut keep = VecDeque::with_capacity(self.queue.len());
        for b in self.queue.drain(..) {
            if b.dst == dst {
                out.push(b.packet);
            } else {
                keep.push_back(b);
            }
        }
        self.queue = keep;
        out
    }

    /// Takes every packet that has waited `timeout` or longer at `now`.
    pub fn expire(&mut self, now: SimTime, timeout: SimDuration) -> Vec<Packet> {
        let mut out = Vec::new();
        while let Some(front) = self.queue.front() {
            if front.since + timeout > now {
                break;
            }
            if let Some(b) = self.queue.pop_front() {
                out.push(b.packet);
            }
        }
        out
    }

    /// When the oldest packet times out.
    pub fn next_deadline(&self, timeout: SimDuration) -> Option<SimTime> {
        self.queue.front().map(|b| b.since + timeout)
    }

    /// Whether a packet for `dst` is waiting.
    pub fn has(&self, dst: Ipv4Addr) -> bool {
        self.queue.iter().any(|b| b.dst == dst)
    }

    /// The tags of the packets waiting, oldest first.
    pub fn tags(&self) -> Vec<PacketTag> {
        self.queue.iter().map(|b| b.packet.tag).collect()
    }

    /// Packets waiting.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether the buffer is empty.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}
