//! The send buffer (RFC 4728 §4.2): packets this node originated while it has no route to
//! their destination wait here during route discovery. Bounded like ns-2's DSR agent
//! (`dsr/dsragent.cc`: 64 packets, 30 s); when full, the oldest packet is dropped so that the
//! freshest data survive, and a packet older than the timeout is dropped.
//!
//! Packets wait with their [`sctpsim_kernel::PacketTag`] so that whatever ends them later (sent
//! on the discovered route, or dropped) still names their flow.

use sctpsim_kernel::{Packet, PacketTag, SimDuration, SimTime};
use std::collections::VecDeque;
use std::net::Ipv4Addr;

#[derive(Clone, Debug)]
struct Entry {
    since: SimTime,
    dst: Ipv4Addr,
    packet: Packet,
}

/// FIFO of packets waiting for a route.
#[derive(Clone, Debug)]
pub(crate) struct SendBuffer {
    entries: VecDeque<Entry>,
    capacity: usize,
    timeout: SimDuration,
}

impl SendBuffer {
    pub(crate) fn new(capacity: usize, timeout: SimDuration) -> Self {
        SendBuffer {
            entries: VecDeque::new(),
            capacity,
            timeout,
        }
    }

    /// Buffers `packet` for `dst`; returns the packet dropped to make room (the oldest), or
    /// the packet itself if the capacity is zero.
    pub(crate) fn push(&mut self, now: SimTime, dst: Ipv4Addr, packet: Packet) -> Option<Packet> {
        if self.capacity == 0 {
            return Some(packet);
        }
        let dropped = if self.entries.len() >= self.capacity {
            self.entries.pop_front().map(|e| e.packet)
        } else {
            None
        };
        self.entries.push_back(Entry {
            since: now,
            dst,
            packet,
        });
        dropped
    }

    /// Removes and returns the packets that waited `timeout` or longer.
    pub(crate) fn expire(&mut self, now: SimTime) -> Vec<Packet> {
        let mut out = Vec::new();
        let timeout = self.timeout;
        self.entries.retain_mut(|e| {
            if now.saturating_since(e.since) >= timeout {
                out.push(std::mem::take(&mut e.packet));
                false
            } else {
                true
            }
        });
        out
    }

    /// When the oldest packet times out.
    pub(crate) fn next_expiry(&self) -> Option<SimTime> {
        self.entries.iter().map(|e| e.since + self.timeout).min()
    }

    /// Removes and returns, in order, the packets whose destination `ready` accepts.
    pub(crate) fn take_where(
        &mut self,
        mut ready: impl FnMut(Ipv4Addr) -> bool,
    ) -> Vec<(Ipv4Addr, Packet)> {
        let mut out = Vec::new();
        self.entries.retain_mut(|e| {
            if ready(e.dst) {
                out.push((e.dst, std::mem::take(&mut e.packet)));
                false
            } else {
                true
            }
        });
        out
    }

    /// Whether a packet for `dst` waits.
    pub(crate) fn has(&self, dst: Ipv4Addr) -> bool {
        self.entries.iter().any(|e| e.dst == dst)
    }

    /// The tags of the packets waiting, oldest first.
    pub(crate) fn tags(&self) -> Vec<PacketTag> {
        self.entries.iter().map(|e| e.packet.tag).collect()
    }

    /// Number of packets waiting.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}
