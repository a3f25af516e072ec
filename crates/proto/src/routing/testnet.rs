//! A small synchronous network for testing routers without the engine: nodes joined by an
//! adjacency matrix the test can change at any time, a fixed delay per hop, no MAC contention.
//!
//! A unicast to a neighbour arrives after [`TestNet::hop_delay`] and the sender hears
//! [`Router::handle_tx_success`]; a unicast to a node that is not (or no longer) a neighbour
//! makes the sender hear [`Router::handle_link_failure`] after [`TestNet::failure_delay`] (the
//! time a MAC spends on its retries). A broadcast reaches every neighbour. The network acts on
//! each router's [`super::Decision`] for the packet it was handed as the engine's IP does (at
//! its place among the router's outputs, [`Router::outputs_before_decision`]), and logs
//! everything — decisions and outputs — for assertions.
//!
//! Packets travel with their [`PacketTag`], as the MAC carries it in the engine:
//! [`TestNet::send_at`] gives every data packet a tag of its own (flow = the sending node, a
//! unique uid), and the logs of transmissions, deliveries and drops keep the tag the router
//! returned. [`TestNet::check_conservation`] then checks the routers' side of the contract:
//! every tagged packet sent ends exactly once — delivered at its destination, dropped, waiting
//! in a router's buffer ([`Router::buffered_tags`]) or still in flight here — and always with
//! the tag it was sent with.
//!
//! Node `i` has address [`TestNet::addr`]`(i)` = 10.128.0.0 + (i + 1), as in the engine.

use super::{Decision, RouteDropReason, Router, RoutingEvent, RoutingOutput};
use sctpsim_kernel::{FlowId, Packet, PacketTag, SimDuration, SimTime};
use sctpsim_wire::udp::{udp_datagram, UdpRepr};
use sctpsim_wire::{decrement_ttl_in_place, Ipv4Packet};
use std::collections::BTreeMap;
use std::net::Ipv4Addr;

#[derive(Clone, Debug)]
enum Action {
    Send(Packet),
    Receive(Ipv4Addr, Packet),
    LinkFailure(Ipv4Addr, Packet),
    TxSuccess(Ipv4Addr),
    Wake,
}

impl Action {
    /// The packet this action carries, if any.
    fn packet(&self) -> Option<&Packet> {
        match self {
            Action::Send(p) | Action::Receive(_, p) | Action::LinkFailure(_, p) => Some(p),
            Action::TxSuccess(_) | Action::Wake => None,
        }
    }
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
    /// Its tag as the router returned it (untagged for control packets the router built).
    pub tag: PacketTag,
}

/// Where the tagged packets sent so far are, by [`TestNet::check_conservation`]: every one in
/// exactly one of these places.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conservation {
    /// Tagged packets handed to the routers with [`TestNet::send_at`] (or
    /// [`TestNet::send_packet_at`]).
    pub sent: usize,
    /// Delivered at their destination.
    pub delivered: usize,
    /// Dropped by a router, by reason.
    pub dropped: BTreeMap<RouteDropReason, usize>,
    /// Waiting in a router's buffer ([`Router::buffered_tags`]).
    pub buffered: usize,
    /// Scheduled here and not yet handled (a send not yet due, a packet on a hop, a link
    /// failure not yet reported).
    pub in_flight: usize,
}

impl Conservation {
    /// Drops of every reason.
    pub fn dropped_total(&self) -> usize {
        self.dropped.values().sum()
    }
}

/// The fields that identify an IPv4 packet whatever a router did to it (TTL, DSR header):
/// source, destination, identification.
type IpIdentity = (Ipv4Addr, Ipv4Addr, u16);

fn ip_identity(bytes: &[u8]) -> Option<IpIdentity> {
    let ip = Ipv4Packet::new_checked(bytes).ok()?;
    Some((ip.src_addr(), ip.dst_addr(), ip.ident()))
}

/// The bookkeeping of [`TestNet::check_conservation`].
#[derive(Default)]
struct Ledger {
    /// Each tag sent, as (flow, uid) (the tag has no order) → the identity of the packet sent
    /// with it and how many places it ended in.
    sent: BTreeMap<(Option<FlowId>, u64), (Option<IpIdentity>, usize)>,
    errors: Vec<String>,
}

impl Ledger {
    fn key(tag: PacketTag) -> (Option<FlowId>, u64) {
        (tag.flow, tag.uid)
    }

    fn sent(&mut self, node: usize, at: SimTime, p: &Packet) {
        let record = (ip_identity(&p.bytes), 0);
        if self.sent.insert(Self::key(p.tag), record).is_some() {
            let tag = p.tag;
            self.errors
                .push(format!("tag {tag:?} sent twice (node {node} at {at})"));
        }
    }

    /// `tag` ended (or is held) where `what` says: on `bytes` if the packet is there to compare
    /// (not for a router's buffer), delivered at `delivered_at` if it was delivered.
    fn end(
        &mut self,
        what: &str,
        tag: PacketTag,
        bytes: Option<&[u8]>,
        delivered_at: Option<usize>,
    ) {
        let Some((identity, ends)) = self.sent.get_mut(&Self::key(tag)) else {
            self.errors
                .push(format!("{what}: tag {tag:?} was never sent"));
            return;
        };
        *ends += 1;
        let identity = *identity;
        if let Some(got) = bytes.map(ip_identity).filter(|got| *got != identity) {
            self.errors.push(format!(
                "{what}: tag {tag:?} on packet {got:?}, sent on {identity:?}"
            ));
        }
        if let (Some(node), Some((_, dst, _))) = (delivered_at, identity) {
            if TestNet::node_of(dst) != Some(node) {
                self.errors
                    .push(format!("{what}: tag {tag:?} is for {dst}, not node {node}"));
            }
        }
    }

    /// Data transmissions carry a sent packet's tag on that packet; control ones are untagged.
    fn transmission(&mut self, t: &Transmission) {
        let what = format!("transmission by node {} at {}", t.node, t.time);
        if t.control {
            if t.tag != PacketTag::default() {
                self.errors
                    .push(format!("control {what} tagged {:?}", t.tag));
            }
            return;
        }
        match self.sent.get(&Self::key(t.tag)) {
            None => self
                .errors
                .push(format!("data {what} with unknown tag {:?}", t.tag)),
            Some((identity, _)) if ip_identity(&t.packet) != *identity => self
                .errors
                .push(format!("data {what}: tag {:?} on another packet", t.tag)),
            Some(_) => {}
        }
    }

    /// Every tag sent ended exactly once, and nothing else went wrong.
    fn finish(mut self) -> Result<(), String> {
        for (k, (_, ends)) in &self.sent {
            match ends {
                1 => {}
                0 => self
                    .errors
                    .push(format!("tag {k:?} lost: never delivered, dropped or held")),
                n => self.errors.push(format!("tag {k:?} ended {n} times")),
            }
        }
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(self.errors.join("\n"))
        }
    }
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
    /// Packets handed to routers by [`TestNet::send_at`] and [`TestNet::send_packet_at`], as
    /// sent: (node, time due, packet with its tag).
    pub sent: Vec<(usize, SimTime, Packet)>,
    /// Packets delivered to a node's transport: (node, time, packet with its tag).
    pub delivered: Vec<(usize, SimTime, Packet)>,
    /// Data packets routers gave up on: (node, time, reason, packet with its tag).
    pub dropped: Vec<(usize, SimTime, RouteDropReason, Packet)>,
    /// Events: (node, time, event).
    pub events: Vec<(usize, SimTime, RoutingEvent)>,
    /// Every transmission, in order.
    pub transmissions: Vec<Transmission>,
    queue: BTreeMap<(SimTime, u64), (usize, Action)>,
    seq: u64,
    wake: Vec<Option<SimTime>>,
    /// The uid of the next tag [`TestNet::send_at`] gives (0 is the untagged uid).
    next_uid: u64,
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
            sent: Vec::new(),
            delivered: Vec::new(),
            dropped: Vec::new(),
            events: Vec::new(),
            transmissions: Vec::new(),
            queue: BTreeMap::new(),
            seq: 0,
            wake: vec![None; n],
            next_uid: 1,
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

    /// Node `node` originates `packet` at time `at`, tagged with a tag of its own (flow = the
    /// node, a uid no other packet of this network has), which is returned.
    pub fn send_at(&mut self, at: SimTime, node: usize, packet: Vec<u8>) -> PacketTag {
        let tag = PacketTag {
            flow: Some(FlowId(node as u32)),
            uid: self.next_uid,
        };
        self.next_uid += 1;
        self.send_packet_at(at, node, Packet { bytes: packet, tag });
        tag
    }

    /// Node `node` originates `packet` at time `at` with the tag it carries (an untagged
    /// packet is left out of [`TestNet::check_conservation`]).
    pub fn send_packet_at(&mut self, at: SimTime, node: usize, packet: Packet) {
        self.sent.push((node, at, packet.clone()));
        self.push(at, node, Action::Send(packet));
    }

    /// The tags of the packets waiting in the routers' buffers: (node, tag).
    pub fn buffered_tags(&self) -> Vec<(usize, PacketTag)> {
        self.routers
            .iter()
            .enumerate()
            .flat_map(|(i, r)| r.buffered_tags().into_iter().map(move |t| (i, t)))
            .collect()
    }

    /// The traffic and link schedule of the routers' tag-conservation tests, on a line
    /// 0-1-…-5 (links set up by the caller): `to_far` = (count, interval) packets 0 → 5 from
    /// t = 0, `to_near` = (count, interval) packets 5 → 1 from 5 ms, every one with its own tag
    /// and IP identification; link 2-3 breaks at `at[0]` and is repaired at `at[1]`, link 4-5
    /// (next to a source) breaks at `at[2]`, and the run stops at `at[3]` with packets in
    /// flight. Returns [`TestNet::check_conservation`].
    pub fn run_break_plan(
        &mut self,
        to_far: (u16, SimDuration),
        to_near: (u16, SimDuration),
        at: [SimTime; 4],
    ) -> Result<Conservation, String> {
        for k in 0..to_far.0 {
            let t = SimTime::ZERO + to_far.1.saturating_mul(u64::from(k));
            self.send_at(t, 0, TestNet::data_packet(0, 5, 64, k));
        }
        for k in 0..to_near.0 {
            let t = SimTime::ZERO
                + SimDuration::from_millis(5)
                + to_near.1.saturating_mul(u64::from(k));
            self.send_at(t, 5, TestNet::data_packet(5, 1, 64, 1000 + k));
        }
        self.run_until(at[0]);
        self.set_link(2, 3, false);
        self.run_until(at[1]);
        self.set_link(2, 3, true);
        self.run_until(at[2]);
        self.set_link(4, 5, false);
        self.run_until(at[3]);
        self.check_conservation()
    }

    /// Checks that the routers neither lost, duplicated nor relabelled a tagged packet: every
    /// tagged packet sent is, exactly once, delivered (at the node its IP destination names),
    /// dropped, buffered in a router or in flight here; every delivered or dropped packet
    /// carries the tag of a packet sent, with that packet's IP source, destination and
    /// identification (so a tag moved to another packet is caught too); every data
    /// transmission carries a sent packet's tag, and every control transmission none. Meant
    /// for unicast traffic between nodes of the network (a broadcast is delivered once per
    /// neighbour). Returns the tally, or every violation found.
    pub fn check_conservation(&self) -> Result<Conservation, String> {
        let mut ledger = Ledger::default();
        let mut tally = Conservation::default();
        for (node, at, p) in &self.sent {
            if p.tag != PacketTag::default() {
                tally.sent += 1;
                ledger.sent(*node, *at, p);
            }
        }
        for (node, t, p) in &self.delivered {
            tally.delivered += 1;
            let what = format!("delivered at node {node} at {t}");
            ledger.end(&what, p.tag, Some(&p.bytes), Some(*node));
        }
        for (node, t, reason, p) in &self.dropped {
            *tally.dropped.entry(*reason).or_default() += 1;
            let what = format!("dropped ({}) at node {node} at {t}", reason.name());
            ledger.end(&what, p.tag, Some(&p.bytes), None);
        }
        for (node, tag) in self.buffered_tags() {
            tally.buffered += 1;
            ledger.end(&format!("buffered at node {node}"), tag, None, None);
        }
        for (node, a) in self.queue.values() {
            if let Some(p) = a.packet().filter(|p| p.tag != PacketTag::default()) {
                tally.in_flight += 1;
                let what = format!("in flight to node {node}");
                ledger.end(&what, p.tag, Some(&p.bytes), None);
            }
        }
        for t in &self.transmissions {
            ledger.transmission(t);
        }
        ledger.finish().map(|()| tally)
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
            let mut decision = None;
            match action {
                Action::Send(p) => decision = Some(r.handle_send(t, p)),
                Action::Receive(prev, mut p) => {
                    // The engine's IP forwarding (the Router contract): a packet for another
                    // node has its TTL decremented before the router sees it, and is dropped
                    // at zero.
                    let me = r.addr();
                    let transit = Ipv4Packet::new_checked(&p.bytes[..]).is_ok_and(|ip| {
                        let dst = ip.dst_addr();
                        dst != me && !dst.is_broadcast() && !dst.is_multicast()
                    });
                    if transit && decrement_ttl_in_place(&mut p.bytes) == Ok(0) {
                        self.dropped.push((node, t, RouteDropReason::TtlExpired, p));
                    } else {
                        decision = Some(r.handle_receive(t, prev, p));
                    }
                }
                Action::LinkFailure(next, p) => r.handle_link_failure(t, next, vec![p]),
                Action::TxSuccess(next) => r.handle_tx_success(t, next),
                Action::Wake => {
                    if self.wake[node] == Some(t) {
                        self.wake[node] = None;
                    }
                    r.handle_timeout(t)
                }
            }
            let before = self.routers[node].outputs_before_decision();
            self.drain(node, decision.map(|d| (before, d)));
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

    /// Puts into effect what router `node` did: its outputs in order, with its decision for
    /// the packet it was handed (if any) at the place the router gave it, as the engine does.
    fn drain(&mut self, node: usize, decision: Option<(usize, Decision)>) {
        let mut outputs = Vec::new();
        while let Some(out) = self.routers[node].poll_output() {
            outputs.push(out);
        }
        let mut decision = decision.map(|(before, d)| (before.min(outputs.len()), d));
        for (k, out) in outputs.into_iter().enumerate() {
            if decision.as_ref().is_some_and(|(before, _)| *before == k) {
                if let Some((_, d)) = decision.take() {
                    self.decide(node, d);
                }
            }
            self.output(node, out);
        }
        if let Some((_, d)) = decision {
            self.decide(node, d);
        }
        let now = self.now;
        while let Some(ev) = self.routers[node].poll_event() {
            self.events.push((node, now, ev));
        }
        self.schedule_wake(node);
    }

    /// A router's decision for the packet it was handed.
    fn decide(&mut self, node: usize, d: Decision) {
        let now = self.now;
        match d {
            Decision::Deliver(packet) => self.delivered.push((node, now, packet)),
            Decision::Forward { next_hop, packet } => self.transmit(node, next_hop, packet, false),
            Decision::Drop { packet, reason } => self.dropped.push((node, now, reason, packet)),
            Decision::Buffered | Decision::Consumed => {}
        }
    }

    /// One of a router's own outputs.
    fn output(&mut self, node: usize, out: RoutingOutput) {
        match out {
            RoutingOutput::Transmit {
                next_hop,
                packet,
                control,
            } => self.transmit(node, next_hop, packet, control),
            RoutingOutput::Drop { packet, reason } => {
                self.dropped.push((node, self.now, reason, packet))
            }
        }
    }

    /// Logs a transmission by `node` and puts the packet on its hop (or reports the failure).
    fn transmit(&mut self, node: usize, next_hop: Ipv4Addr, packet: Packet, control: bool) {
        let now = self.now;
        self.transmissions.push(Transmission {
            time: now,
            node,
            next_hop,
            control,
            packet: packet.bytes.clone(),
            tag: packet.tag,
        });
        let me = Self::addr(node);
        if next_hop == Ipv4Addr::BROADCAST {
            for j in 0..self.routers.len() {
                if self.links[node][j] {
                    self.push(now + self.hop_delay, j, Action::Receive(me, packet.clone()));
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
}

#[cfg(test)]
mod tests {
    //! [`TestNet::check_conservation`] itself: a toy router that sends every packet straight to
    //! its destination passes, and each way of mishandling a tag fails — so the protocols'
    //! conservation tests cannot pass by a checker that accepts anything.

    use super::*;
    use crate::routing::RoutingCounters;
    use std::collections::VecDeque;

    /// How the toy router mishandles the packet with uid 2.
    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    enum Fault {
        None,
        /// Never outputs it.
        Lose,
        /// Delivers it and drops a copy.
        Duplicate,
        /// Delivers it untagged.
        Untag,
        /// Delivers it with the tag of uid 3 and uid 3 with its tag.
        Swap,
        /// Delivers it at the sender instead of sending it.
        DeliverHere,
        /// Keeps it in a buffer it reports.
        Buffer,
        /// Keeps it in a buffer it does not report.
        HideInBuffer,
        /// Sends it as control traffic.
        AsControl,
    }

    #[derive(Debug)]
    struct Toy {
        addr: Ipv4Addr,
        fault: Fault,
        held: Vec<Packet>,
        out: VecDeque<RoutingOutput>,
        counters: RoutingCounters,
    }

    impl Router for Toy {
        fn protocol(&self) -> &'static str {
            "toy"
        }
        fn addr(&self) -> Ipv4Addr {
            self.addr
        }
        fn handle_send(&mut self, _now: SimTime, packet: Packet) -> Decision {
            let Some((_, dst, _)) = ip_identity(&packet.bytes) else {
                return Decision::Consumed;
            };
            if packet.tag.uid == 2 {
                match self.fault {
                    Fault::None => {}
                    Fault::Lose => return Decision::Consumed,
                    Fault::Buffer | Fault::HideInBuffer => {
                        self.held.push(packet);
                        return Decision::Buffered;
                    }
                    Fault::DeliverHere => return Decision::Deliver(packet),
                    Fault::AsControl => {
                        self.out.push_back(RoutingOutput::Transmit {
                            next_hop: dst,
                            packet,
                            control: true,
                        });
                        return Decision::Consumed;
                    }
                    Fault::Duplicate | Fault::Untag | Fault::Swap => {}
                }
            }
            Decision::Forward {
                next_hop: dst,
                packet,
            }
        }
        fn handle_receive(
            &mut self,
            _now: SimTime,
            _prev_hop: Ipv4Addr,
            mut packet: Packet,
        ) -> Decision {
            if packet.tag.uid == 2 {
                match self.fault {
                    Fault::Duplicate => self.out.push_back(RoutingOutput::Drop {
                        packet: packet.clone(),
                        reason: RouteDropReason::NoRoute,
                    }),
                    Fault::Untag => packet.tag = PacketTag::default(),
                    _ => {}
                }
            }
            if self.fault == Fault::Swap && matches!(packet.tag.uid, 2 | 3) {
                packet.tag.uid = 5 - packet.tag.uid;
            }
            Decision::Deliver(packet)
        }
        fn handle_link_failure(&mut self, _now: SimTime, _next_hop: Ipv4Addr, p: Vec<Packet>) {
            for packet in p {
                let reason = RouteDropReason::LinkBroken;
                self.out.push_back(RoutingOutput::Drop { packet, reason });
            }
        }
        fn handle_timeout(&mut self, _now: SimTime) {}
        fn poll_output(&mut self) -> Option<RoutingOutput> {
            self.out.pop_front()
        }
        fn poll_event(&mut self) -> Option<RoutingEvent> {
            None
        }
        fn poll_timeout(&self) -> Option<SimTime> {
            None
        }
        fn counters(&self) -> &RoutingCounters {
            &self.counters
        }
        fn next_hop(&self, _dst: Ipv4Addr) -> Option<Ipv4Addr> {
            None
        }
        fn buffered_tags(&self) -> Vec<PacketTag> {
            match self.fault {
                Fault::HideInBuffer => Vec::new(),
                _ => self.held.iter().map(|p| p.tag).collect(),
            }
        }
    }

    /// Nodes 0 and 1 linked, node 2 apart; five packets 0 → 1 (uids 1–5, the last one sent
    /// after the run ends) and one 0 → 2 (uid 6: a link failure, dropped).
    fn run(fault: Fault) -> (TestNet, Result<Conservation, String>) {
        let routers: Vec<Box<dyn Router>> = (0..3)
            .map(|i| {
                Box::new(Toy {
                    addr: TestNet::addr(i),
                    fault,
                    held: Vec::new(),
                    out: VecDeque::new(),
                    counters: RoutingCounters::default(),
                }) as Box<dyn Router>
            })
            .collect();
        let mut net = TestNet::new(routers);
        net.set_link(0, 1, true);
        let ms = |x: u64| SimTime::ZERO + SimDuration::from_millis(x);
        for k in 0..5u16 {
            let at = ms(if k == 4 { 100 } else { u64::from(k) });
            net.send_at(at, 0, TestNet::data_packet(0, 1, 10, k));
        }
        net.send_at(ms(5), 0, TestNet::data_packet(0, 2, 10, 9));
        net.run_until(ms(50));
        let c = net.check_conservation();
        (net, c)
    }

    #[test]
    fn honest_router_passes() {
        let (net, c) = run(Fault::None);
        let want = Conservation {
            sent: 6,
            delivered: 4,
            dropped: BTreeMap::from([(RouteDropReason::LinkBroken, 1)]),
            buffered: 0,
            in_flight: 1,
        };
        assert_eq!(c, Ok(want));
        assert!(net.delivered.iter().all(|(n, _, p)| *n == 1
            && p.tag.flow == Some(FlowId(0))
            && (1..=4).contains(&p.tag.uid)));
        let (_, c) = run(Fault::Buffer);
        assert_eq!(c.map(|c| (c.delivered, c.buffered)), Ok((3, 1)));
    }

    #[test]
    fn every_mishandled_tag_is_caught() {
        for (fault, why) in [
            (Fault::Lose, "lost"),
            (Fault::HideInBuffer, "lost"),
            (Fault::Duplicate, "ended 2 times"),
            (Fault::Untag, "was never sent"),
            (Fault::Swap, "on packet"),
            (Fault::DeliverHere, "not node 0"),
            (Fault::AsControl, "control transmission"),
        ] {
            let (_, c) = run(fault);
            match c {
                Err(e) => assert!(e.contains(why), "{fault:?}: {e}"),
                Ok(c) => panic!("{fault:?} not caught: {c:?}"),
            }
        }
    }
}
