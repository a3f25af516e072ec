//! A small synchronous network for testing routers without the engine: nodes joined by an
//! adjacency matrix the test can change at any time, a fixed delay per hop, no MAC contention.
//!
//! A unicast to a neighbour arrives after [`TestNet::hop_delay`] and the sender hears
//! [`Router::handle_tx_success`]; a unicast to a node that is not (or no longer) a neighbour
//! makes the sender hear [`Router::handle_link_failure`] after [`TestNet::failure_delay`] (the
//! time a MAC spends on its retries). A broadcast reaches every neighbour. Everything the
//! routers output is logged for assertions.
//!
//! Node `i` has address [`TestNet::addr`]`(i)` = 10.128.0.0 + (i + 1), as in the engine.

use super::{RouteDropReason, Router, RoutingEvent, RoutingOutput};
use sctpsim_kernel::{SimDuration, SimTime};
use sctpsim_wire::udp::{udp_datagram, UdpRepr};
use std::collections::BTreeMap;
use std::net::Ipv4Addr;

#[derive(Clone, Debug)]
enum Action {
    Send(Vec<u8>),
    Receive(Ipv4Addr, Vec<u8>),
    LinkFailure(Ipv4Addr, Vec<u8>),
    TxSuccess(Ipv4Addr),
    Wake,
}

/// One transmission a router asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transmission {
    /// When.
    pub time: SimTime,
    /// The transmitting node.
    pub node: usize,
    /// The next hop (or broadcast).
    pub next_hop: Ipv4Addr,
    /// Routing control traffic.
    pub control: bool,
    /// The IPv4 packet.
    pub packet: Vec<u8>,
}

/// The network.
#[derive(Debug)]
pub struct TestNet {
    /// The routers; index = node.
    pub routers: Vec<Box<dyn Router>>,
    /// Symmetric adjacency: `links[i][j]` — i and j hear each other.
    pub links: Vec<Vec<bool>>,
    /// Delay of one hop.
    pub hop_delay: SimDuration,
    /// Time from a unicast to a non-neighbour until the sender hears the link failure.
    pub failure_delay: SimDuration,
    /// The current time.
    pub now: SimTime,
    /// Packets delivered to a node's transport: (node, time, packet).
    pub delivered: Vec<(usize, SimTime, Vec<u8>)>,
    /// Data packets routers gave up on: (node, time, reason, packet).
    pub dropped: Vec<(usize, SimTime, RouteDropReason, Vec<u8>)>,
    /// Events: (node, time, event).
    pub events: Vec<(usize, SimTime, RoutingEvent)>,
    /// Every transmission, in order.
    pub transmissions: Vec<Transmission>,
    queue: BTreeMap<(SimTime, u64), (usize, Action)>,
    seq: u64,
    wake: Vec<Option<SimTime>>,
}

impl TestNet {
    /// The address of node `i`.
    pub fn addr(i: usize) -> Ipv4Addr {
        Ipv4Addr::from(0x0A80_0000u32.wrapping_add(i as u32 + 1))
    }

    /// The node with address `a`.
    pub fn node_of(a: Ipv4Addr) -> Option<usize> {
        u32::from(a).checked_sub(0x0A80_0001).map(|i| i as usize)
    }

    /// A network of `routers` (router `i` must have address [`TestNet::addr`]`(i)`) with no
    /// links; 1 ms per hop, 10 ms to detect a failure.
    pub fn new(routers: Vec<Box<dyn Router>>) -> Self {
        let n = routers.len();
        let mut net = TestNet {
            routers,
            links: vec![vec![false; n]; n],
            hop_delay: SimDuration::from_millis(1),
            failure_delay: SimDuration::from_millis(10),
            now: SimTime::ZERO,
            delivered: Vec::new(),
            dropped: Vec::new(),
            events: Vec::new(),
            transmissions: Vec::new(),
            queue: BTreeMap::new(),
            seq: 0,
            wake: vec![None; n],
        };
        for i in 0..n {
            net.schedule_wake(i);
        }
        net
    }

    /// Joins or separates `i` and `j`.
    pub fn set_link(&mut self, i: usize, j: usize, up: bool) {
        self.links[i][j] = up;
        self.links[j][i] = up;
    }

    /// Links `0-1-2-…-(n-1)` in a line.
    pub fn line(&mut self) {
        for i in 1..self.routers.len() {
            self.set_link(i - 1, i, true);
        }
    }

    /// A UDP data packet from node `src` to node `dst` with `len` payload bytes (TTL 64).
    pub fn data_packet(src: usize, dst: usize, len: usize, ident: u16) -> Vec<u8> {
        let udp = UdpRepr {
            src_port: 9,
            dst_port: 9,
        };
        udp_datagram(
            Self::addr(src),
            Self::addr(dst),
            64,
            ident,
            &udp,
            &vec![0u8; len],
        )
    }

    /// Node `node` originates `packet` at time `at`.
    pub fn send_at(&mut self, at: SimTime, node: usize, packet: Vec<u8>) {
        self.push(at, node, Action::Send(packet));
    }

    /// Runs until the queue holds nothing before `until`; `now` ends at `until`.
    pub fn run_until(&mut self, until: SimTime) {
        while let Some(entry) = self.queue.first_entry() {
            let (t, _) = *entry.key();
            if t > until {
                break;
            }
            let (node, action) = entry.remove();
            self.now = t;
            let r = &mut self.routers[node];
            match action {
                Action::Send(p) => r.handle_send(t, p),
                Action::Receive(prev, p) => r.handle_receive(t, prev, p),
                Action::LinkFailure(next, p) => r.handle_link_failure(t, next, vec![p]),
                Action::TxSuccess(next) => r.handle_tx_success(t, next),
                Action::Wake => {
                    if self.wake[node] == Some(t) {
                        self.wake[node] = None;
                    }
                    r.handle_timeout(t)
                }
            }
            self.drain(node);
        }
        self.now = until;
    }

    /// Transmissions marked as routing control so far (every hop counts).
    pub fn control_transmissions(&self) -> usize {
        self.transmissions.iter().filter(|t| t.control).count()
    }

    fn push(&mut self, t: SimTime, node: usize, action: Action) {
        self.seq += 1;
        self.queue.insert((t, self.seq), (node, action));
    }

    fn schedule_wake(&mut self, node: usize) {
        if let Some(t) = self.routers[node].poll_timeout() {
            let t = t.max(self.now);
            if self.wake[node].is_none_or(|w| t < w) {
                self.wake[node] = Some(t);
                self.push(t, node, Action::Wake);
            }
        }
    }

    fn drain(&mut self, node: usize) {
        let now = self.now;
        while let Some(out) = self.routers[node].poll_output() {
            match out {
                RoutingOutput::Transmit {
                    next_hop,
                    packet,
                    control,
                } => {
                    self.transmissions.push(Transmission {
                        time: now,
                        node,
                        next_hop,
                        control,
                        packet: packet.clone(),
                    });
                    let me = Self::addr(node);
                    if next_hop == Ipv4Addr::BROADCAST {
                        for j in 0..self.routers.len() {
                            if self.links[node][j] {
                                self.push(
                                    now + self.hop_delay,
                                    j,
                                    Action::Receive(me, packet.clone()),
                                );
                            }
                        }
                    } else {
                        match Self::node_of(next_hop) {
                            Some(j) if j < self.routers.len() && self.links[node][j] => {
                                self.push(now + self.hop_delay, j, Action::Receive(me, packet));
                                self.push(now + self.hop_delay, node, Action::TxSuccess(next_hop));
                            }
                            _ => {
                                self.push(
                                    now + self.failure_delay,
                                    node,
                                    Action::LinkFailure(next_hop, packet),
                                );
                            }
                        }
                    }
                }
                RoutingOutput::Deliver { packet } => self.delivered.push((node, now, packet)),
                RoutingOutput::Drop { packet, reason } => {
                    self.dropped.push((node, now, reason, packet))
                }
            }
        }
        while let Some(ev) = self.routers[node].poll_event() {
            self.events.push((node, now, ev));
        }
        self.schedule_wake(node);
    }
}
