//! The interface queue between IP and the MAC: drop-tail with routing control traffic first,
//! as ns-2's `Queue/DropTail/PriQueue` with `Prefer_Routing_Protocols 1`.
//!
//! ns-2's `PriQueue::recvHighPriority` inserts a routing packet (DSR, AODV, TORA, ...) at the
//! *head* of the queue and, if the queue is then over its limit, drops the packet at the tail;
//! other packets are appended and dropped on arrival when the queue is full. This queue does
//! the same, so several control packets leave newest first, as in ns-2. The limit counts
//! waiting packets; the packet the MAC is sending is not in the queue.
//!
//! (ns-2's `DropTail::enque` drops when `length + 1 >= limit_`, so an ns-2 queue of 50 holds
//! 49 waiting packets next to the one at the MAC; here a limit of 50 means 50 waiting,
//! consistent with the wired links of this simulator.)

use std::collections::VecDeque;

use super::MacSdu;

/// A drop-tail interface queue with priority for control packets.
#[derive(Clone, Debug)]
pub struct IfQueue {
    packets: VecDeque<MacSdu>,
    limit: usize,
}

impl IfQueue {
    /// An empty queue holding at most `limit` waiting packets.
    pub fn new(limit: usize) -> Self {
        IfQueue {
            packets: VecDeque::new(),
            limit,
        }
    }

    /// Adds a packet. A control packet goes to the head (evicting the tail packet if the queue
    /// overflows); a data packet goes to the tail, or is refused if the queue is full. Returns
    /// the packet dropped, if any.
    pub fn push(&mut self, sdu: MacSdu) -> Option<MacSdu> {
        if sdu.is_control {
            self.packets.push_front(sdu);
            if self.packets.len() > self.limit {
                return self.packets.pop_back();
            }
            None
        } else if self.packets.len() >= self.limit {
            Some(sdu)
        } else {
            self.packets.push_back(sdu);
            None
        }
    }

    /// The next packet to send.
    pub fn pop(&mut self) -> Option<MacSdu> {
        self.packets.pop_front()
    }

    /// Removes and returns, in queue order, every packet whose next hop is `next_hop` (what a
    /// routing protocol does after a link failure: ns-2's `PriQueue::filter`).
    pub fn remove_for(&mut self, next_hop: crate::mac::MacAddr) -> Vec<MacSdu> {
        let mut out = Vec::new();
        let mut keep = VecDeque::with_capacity(self.packets.len());
        for p in self.packets.drain(..) {
            if p.dst == next_hop {
                out.push(p);
            } else {
                keep.push_back(p);
            }
        }
        self.packets = keep;
        out
    }

    /// Number of waiting packets.
    pub fn len(&self) -> usize {
        self.packets.len()
    }

    /// Whether no packet is waiting.
    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }

    /// The limit.
    pub fn limit(&self) -> usize {
        self.limit
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::mac::MacAddr;

    fn sdu(tag: u8, control: bool) -> MacSdu {
        MacSdu {
            dst: MacAddr::local(u32::from(tag % 2), 0),
            bytes: vec![tag],
            is_control: control,
            tag: Default::default(),
        }
    }

    #[test]
    fn control_first_and_drop_tail() {
        let mut q = IfQueue::new(3);
        assert!(q.push(sdu(1, false)).is_none());
        assert!(q.push(sdu(2, false)).is_none());
        assert!(q.push(sdu(3, true)).is_none());
        // Full: data is refused.
        assert_eq!(q.push(sdu(4, false)).unwrap().bytes, vec![4]);
        // Control goes to the head and evicts the tail (data 2).
        assert_eq!(q.push(sdu(5, true)).unwrap().bytes, vec![2]);
        let order: Vec<u8> = std::iter::from_fn(|| q.pop()).map(|p| p.bytes[0]).collect();
        assert_eq!(order, vec![5, 3, 1]);
    }

    #[test]
    fn remove_for_next_hop() {
        let mut q = IfQueue::new(10);
        for t in 0..6 {
            q.push(sdu(t, false));
        }
        let gone = q.remove_for(MacAddr::local(1, 0));
        assert_eq!(
            gone.iter().map(|p| p.bytes[0]).collect::<Vec<_>>(),
            vec![1, 3, 5]
        );
        assert_eq!(q.len(), 3);
    }
}
