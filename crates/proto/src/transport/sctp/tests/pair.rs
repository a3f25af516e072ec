//! `Pair`: two real endpoints joined by simulated networks (DESIGN.md §8 tier 3, after
//! quinn-proto's `tests/util.rs`). Every packet goes through the real codec (SCTP with CRC32c;
//! the bottleneck counts a 20-byte IPv4 header too) and back. Each network (one per address pair: 10.0.0.x and 10.0.1.x) has, per
//! direction, a one-way latency, a bottleneck rate (FIFO, unlimited queue), loss, duplication
//! and reordering drawn from a kernel `Rng`, and can fail (for multi-homing). Scripted drops
//! remove the first transmission of chosen client TSNs.
//!
//! Tests: the seeded property test (every message delivered exactly once, in order per ordered
//! stream, clean shutdown) over 240 seeds, failover and return to the primary, and the profile
//! differences (fast retransmit on the 3rd vs 4th miss indication, initial cwnd).

use std::collections::{BTreeMap, BTreeSet};

use super::*;
use crate::transport::sctp::{AssocHandle, Message, PathState, SendError};

/// Impairments and timing of one direction of one network.
#[derive(Debug, Clone)]
pub(super) struct LinkCfg {
    pub latency: SimDuration,
    /// Bits per second; 0: no serialisation delay.
    pub rate_bps: u64,
    pub loss: f64,
    pub duplicate: f64,
    pub reorder: f64,
    pub reorder_delay: SimDuration,
}

impl LinkCfg {
    pub fn clean(latency_ms: u64) -> Self {
        LinkCfg {
            latency: SimDuration::from_millis(latency_ms),
            rate_bps: 0,
            loss: 0.0,
            duplicate: 0.0,
            reorder: 0.0,
            reorder_delay: SimDuration::ZERO,
        }
    }
}

#[derive(Debug)]
struct Link {
    cfg: LinkCfg,
    busy_until: SimTime,
    up: bool,
}

/// Which side a packet is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Side {
    Client,
    Server,
}

/// The network of an address: its third octet (10.0.N.x).
fn net(a: Ipv4Addr) -> u8 {
    a.octets()[2]
}

pub(super) const C1: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
pub(super) const C2: Ipv4Addr = Ipv4Addr::new(10, 0, 1, 1);
pub(super) const S1: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);
pub(super) const S2: Ipv4Addr = Ipv4Addr::new(10, 0, 1, 2);

/// Two endpoints and the networks between them.
pub(super) struct Pair {
    pub now: SimTime,
    /// The server's endpoint and its association (the one the latest valid COOKIE ECHO
    /// created).
    pub server_ep: SctpEndpoint,
    server: Option<AssocHandle>,
    /// The client's endpoint and its association (it answers out-of-the-blue packets once the
    /// association is closed).
    pub client_ep: SctpEndpoint,
    client: AssocHandle,
    /// Links by (network, direction towards).
    links: BTreeMap<(u8, Side), Link>,
    in_flight: BTreeMap<(SimTime, u64), (Side, Transmit)>,
    seq: u64,
    rng: Rng,
    /// Client TSNs whose first transmission is dropped.
    pub drop_tsns: BTreeSet<u32>,
    pub client_events: Vec<(SimTime, SctpEvent)>,
    pub server_events: Vec<(SimTime, SctpEvent)>,
    pub client_rx: Vec<Message>,
    pub server_rx: Vec<Message>,
    /// Packets handed to the networks (both ways).
    pub packets: u64,
    /// Every client packet handed to a network, with the time.
    pub client_log: Vec<(SimTime, Sent)>,
    /// A-SCTP route paths: the network the client's packets of a path key take (instead of
    /// the destination's), as DSR pins a packet to its path's route.
    pub route_nets: BTreeMap<Ipv4Addr, u8>,
}

impl Pair {
    /// A client with `client_addrs` connecting to `connect_to`; the server listens on
    /// `server_addrs`. `links` gives the configuration of each network (both directions).
    pub fn new(
        client_cfg: SctpConfig,
        server_cfg: SctpConfig,
        client_addrs: &[Ipv4Addr],
        server_addrs: &[Ipv4Addr],
        connect_to: &[Ipv4Addr],
        links: &[LinkCfg],
        seed: u64,
    ) -> Self {
        let mut rng = Rng::from_seed(seed);
        let mut client_ep = SctpEndpoint::new(
            client_cfg,
            LOCAL_PORT,
            client_addrs.to_vec(),
            Rng::from_seed(rng.next_u64()),
        );
        let mut server_ep = SctpEndpoint::new(
            server_cfg,
            REMOTE_PORT,
            server_addrs.to_vec(),
            Rng::from_seed(rng.next_u64()),
        );
        server_ep.listen(true);
        let client = client_ep.connect(SimTime::ZERO, connect_to, REMOTE_PORT);
        let mut map = BTreeMap::new();
        for (i, l) in links.iter().enumerate() {
            for side in [Side::Client, Side::Server] {
                map.insert(
                    (i as u8, side),
                    Link {
                        cfg: l.clone(),
                        busy_until: SimTime::ZERO,
                        up: true,
                    },
                );
            }
        }
        Pair {
            now: SimTime::ZERO,
            server_ep,
            server: None,
            client_ep,
            client,
            links: map,
            in_flight: BTreeMap::new(),
            seq: 0,
            rng,
            drop_tsns: BTreeSet::new(),
            client_events: vec![],
            server_events: vec![],
            client_rx: vec![],
            server_rx: vec![],
            packets: 0,
            client_log: vec![],
            route_nets: BTreeMap::new(),
        }
    }

    /// The client's association.
    pub fn client(&self) -> &SctpAssociation {
        self.client_ep.assoc(self.client).expect("never removed")
    }

    /// The client's association, for commands.
    pub fn client_mut(&mut self) -> &mut SctpAssociation {
        self.client_ep
            .assoc_mut(self.client)
            .expect("never removed")
    }

    /// The server's association, once a COOKIE ECHO created it.
    pub fn server(&self) -> Option<&SctpAssociation> {
        self.server.and_then(|h| self.server_ep.assoc(h))
    }

    /// The server's association, for commands.
    pub fn server_mut(&mut self) -> Option<&mut SctpAssociation> {
        self.server.and_then(|h| self.server_ep.assoc_mut(h))
    }

    /// Single-homed over one network.
    pub fn simple(cfg: SctpConfig, link: LinkCfg, seed: u64) -> Self {
        Pair::new(cfg.clone(), cfg, &[C1], &[S1], &[S1], &[link], seed)
    }

    /// Takes a network down or up (both directions).
    pub fn set_network(&mut self, n: u8, up: bool) {
        for side in [Side::Client, Side::Server] {
            if let Some(l) = self.links.get_mut(&(n, side)) {
                l.up = up;
            }
        }
    }

    /// Takes one direction of a network down or up (`to_server`: the client's packets).
    pub fn set_link(&mut self, n: u8, to_server: bool, up: bool) {
        let side = if to_server {
            Side::Server
        } else {
            Side::Client
        };
        if let Some(l) = self.links.get_mut(&(n, side)) {
            l.up = up;
        }
    }

    /// Sets the loss probability of one direction of a network (`to_server`: the client's
    /// packets).
    pub fn set_loss(&mut self, n: u8, to_server: bool, loss: f64) {
        let side = if to_server {
            Side::Server
        } else {
            Side::Client
        };
        if let Some(l) = self.links.get_mut(&(n, side)) {
            l.cfg.loss = loss;
        }
    }

    fn enqueue(&mut self, to: Side, t: Transmit) {
        let n = net(t.dst);
        self.enqueue_on(to, t, n);
    }

    fn enqueue_on(&mut self, to: Side, t: Transmit, network: u8) {
        self.packets += 1;
        if to == Side::Server {
            let s = sent(t.clone());
            let mut drop = false;
            for c in &s.packet.chunks {
                if let ChunkRepr::Data(d) = c {
                    if self.drop_tsns.remove(&d.tsn.0) {
                        drop = true;
                    }
                }
            }
            self.client_log.push((self.now, s));
            if drop {
                return;
            }
        }
        let ip_len = IPV4_HEADER_LEN + t.payload.len();
        let Some(link) = self.links.get_mut(&(network, to)) else {
            return; // no route
        };
        // Serialisation at the bottleneck (FIFO), then propagation.
        let start = link.busy_until.max(self.now);
        let bits = (ip_len as u64 * 8).saturating_mul(1_000_000_000);
        let tx = SimDuration::from_nanos(bits.checked_div(link.cfg.rate_bps).unwrap_or(0));
        link.busy_until = start + tx;
        if !link.up || self.rng.bernoulli(link.cfg.loss) {
            return;
        }
        let mut arrival = start + tx + link.cfg.latency;
        let cfg = link.cfg.clone();
        if self.rng.bernoulli(cfg.reorder) {
            arrival += SimDuration::from_nanos(self.rng.below(cfg.reorder_delay.as_nanos().max(1)));
        }
        let copies = if self.rng.bernoulli(cfg.duplicate) {
            2
        } else {
            1
        };
        for _ in 0..copies {
            self.seq += 1;
            self.in_flight.insert((arrival, self.seq), (to, t.clone()));
        }
    }

    /// Moves everything the endpoints want to send onto the networks.
    fn flush(&mut self) {
        let now = self.now;
        while let Some((t, path)) = self.client_mut().poll_transmit_on_path(now) {
            let n = path
                .and_then(|k| self.route_nets.get(&k).copied())
                .unwrap_or(net(t.dst));
            self.enqueue_on(Side::Server, t, n);
        }
        if let Some(s) = self.server_mut() {
            let mut out = vec![];
            while let Some(t) = s.poll_transmit(now) {
                out.push(t);
            }
            for t in out {
                self.enqueue(Side::Client, t);
            }
        }
        while let Some(t) = self.server_ep.poll_transmit() {
            self.enqueue(Side::Client, t);
        }
        while let Some(t) = self.client_ep.poll_transmit() {
            self.enqueue(Side::Server, t);
        }
        while let Some(e) = self.client_mut().poll_event() {
            self.client_events.push((now, e));
        }
        while let Some(m) = self.client_mut().recv() {
            self.client_rx.push(m);
        }
        if let Some(h) = self.server {
            if let Some(s) = self.server_ep.assoc_mut(h) {
                while let Some(e) = s.poll_event() {
                    self.server_events.push((now, e));
                }
                while let Some(m) = s.recv() {
                    self.server_rx.push(m);
                }
            }
        }
    }

    fn deliver(&mut self, to: Side, t: &Transmit) {
        let now = self.now;
        match to {
            Side::Client => {
                let _ = self
                    .client_ep
                    .handle_datagram(now, t.src, t.dst, &t.payload);
            }
            Side::Server => {
                if let Ok(Some(DatagramEvent::NewAssociation(h))) = self
                    .server_ep
                    .handle_datagram(now, t.src, t.dst, &t.payload)
                {
                    // The pair follows one server association: a newer one replaces it.
                    if let Some(old) = self.server.replace(h) {
                        self.server_ep.remove(old);
                    }
                }
            }
        }
    }

    /// The next instant something happens.
    fn next_event(&self) -> Option<SimTime> {
        let mut t = self.in_flight.keys().next().map(|k| k.0);
        for d in [
            self.client().poll_timeout(),
            self.server().and_then(|s| s.poll_timeout()),
        ]
        .into_iter()
        .flatten()
        {
            t = Some(t.map_or(d, |x: SimTime| x.min(d)));
        }
        t
    }

    /// Runs until `deadline` or until `stop` says so (checked after every event).
    pub fn run_until(
        &mut self,
        deadline: SimTime,
        mut stop: impl FnMut(&mut Pair) -> bool,
    ) -> bool {
        self.flush();
        if stop(self) {
            return true;
        }
        self.flush();
        let mut steps = 0u64;
        while let Some(t) = self.next_event() {
            if t > deadline {
                break;
            }
            steps += 1;
            assert!(steps < 5_000_000, "runaway simulation");
            self.now = self.now.max(t);
            if let Some((&key, _)) = self
                .in_flight
                .iter()
                .next()
                .filter(|(k, _)| k.0 <= self.now)
            {
                let (to, t) = self.in_flight.remove(&key).expect("present");
                self.deliver(to, &t);
            } else {
                let now = self.now;
                self.client_mut().handle_timeout(now);
                if let Some(s) = self.server_mut() {
                    s.handle_timeout(now);
                }
            }
            self.flush();
            self.client().check_invariants();
            if let Some(s) = self.server() {
                s.check_invariants();
            }
            if stop(self) {
                return true;
            }
            // The application may have called send/shutdown: let the associations transmit.
            self.flush();
        }
        self.now = self.now.max(deadline);
        false
    }

    /// Runs until both associations are established.
    pub fn establish(&mut self) {
        let ok = self.run_until(ms(60_000), |p| {
            p.client().state() == State::Established
                && p.server().is_some_and(|s| s.state() == State::Established)
        });
        assert!(ok, "association not established");
    }
}

/// A message payload: direction, stream, per-stream ordered sequence (or u32::MAX), id, then
/// bytes derived from the id.
fn payload(dir: u8, stream: u16, seq: u32, id: u32, len: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(len.max(11));
    v.push(dir);
    v.extend_from_slice(&stream.to_be_bytes());
    v.extend_from_slice(&seq.to_be_bytes());
    v.extend_from_slice(&id.to_be_bytes());
    while v.len() < len {
        v.push((id as usize + v.len()) as u8);
    }
    v
}

fn parse_payload(m: &Message) -> (u8, u16, u32, u32) {
    let d = &m.data;
    let stream = u16::from_be_bytes([d[1], d[2]]);
    let seq = u32::from_be_bytes([d[3], d[4], d[5], d[6]]);
    let id = u32::from_be_bytes([d[7], d[8], d[9], d[10]]);
    for (i, b) in d.iter().enumerate().skip(11) {
        assert_eq!(*b, (id as usize + i) as u8, "payload corrupted");
    }
    (d[0], stream, seq, id)
}

/// A workload: messages to send (stream, unordered, size).
pub(super) struct Workload {
    msgs: Vec<(u16, bool, usize)>,
    next: usize,
    seqs: BTreeMap<u16, u32>,
}

impl Workload {
    pub(super) fn random(rng: &mut Rng, n: usize, streams: u16) -> Self {
        let msgs = (0..n)
            .map(|_| {
                let size = match rng.below(4) {
                    0 => 11 + rng.below(50) as usize,
                    1 => 11 + rng.below(1500) as usize,
                    2 => 1000 + rng.below(5000) as usize,
                    _ => 11 + rng.below(400) as usize,
                };
                (
                    rng.below(u64::from(streams)) as u16,
                    rng.bernoulli(0.2),
                    size,
                )
            })
            .collect();
        Workload {
            msgs,
            next: 0,
            seqs: BTreeMap::new(),
        }
    }

    pub(super) fn done(&self) -> bool {
        self.next == self.msgs.len()
    }

    /// Sends as many messages as the association accepts.
    pub(super) fn pump(&mut self, dir: u8, a: &mut SctpAssociation, now: SimTime) {
        while let Some(&(stream, unordered, size)) = self.msgs.get(self.next) {
            let seq = if unordered {
                u32::MAX
            } else {
                *self.seqs.get(&stream).unwrap_or(&0)
            };
            let data = payload(dir, stream, seq, self.next as u32, size);
            match a.send(now, data, stream, unordered, None, 0) {
                Ok(_) => {
                    if !unordered {
                        *self.seqs.entry(stream).or_default() += 1;
                    }
                    self.next += 1;
                }
                Err(SendError::BufferFull) => break,
                Err(e) => panic!("send failed: {e}"),
            }
        }
    }
}

/// Checks exactly-once, in-order-per-ordered-stream delivery of `wl` in `rx`.
pub(super) fn check_delivery(dir: u8, wl: &Workload, rx: &[Message]) {
    let mut seen = BTreeSet::new();
    let mut next_seq: BTreeMap<u16, u32> = BTreeMap::new();
    for m in rx {
        let (d, stream, seq, id) = parse_payload(m);
        assert_eq!(d, dir);
        assert_eq!(stream, m.stream);
        let (wstream, unordered, size) = wl.msgs[id as usize];
        assert_eq!(
            (wstream, unordered, size),
            (stream, m.unordered, m.data.len()),
            "message {id}"
        );
        assert!(seen.insert(id), "message {id} delivered twice");
        if !unordered {
            let e = next_seq.entry(stream).or_default();
            assert_eq!(seq, *e, "stream {stream} out of order");
            *e += 1;
        }
    }
    assert_eq!(seen.len(), wl.msgs.len(), "messages lost");
}

/// One run of the property: random impairments, bidirectional random messages on 4 streams,
/// the client shuts down after queueing its last message. Returns (sim seconds, packets).
fn exactly_once_run(seed: u64, profile: SctpConfig) -> (f64, u64) {
    let mut r = Rng::from_seed(seed ^ 0x5c79);
    let link = LinkCfg {
        latency: SimDuration::from_millis(1 + r.below(50)),
        rate_bps: [0, 1_000_000, 10_000_000][r.below(3) as usize],
        loss: r.uniform() * 0.1,
        duplicate: r.uniform() * 0.05,
        reorder: r.uniform() * 0.1,
        reorder_delay: SimDuration::from_millis(r.below(30)),
    };
    let mut cfg = profile;
    cfg.outbound_streams = 4;
    cfg.send_buffer = 64 * 1024;
    cfg.recv_buffer = [16 * 1024, 64 * 1024][r.below(2) as usize];
    cfg.max_gap_blocks = if r.bernoulli(0.2) { Some(2) } else { None };
    let mut p = Pair::simple(cfg, link.clone(), seed);
    p.establish();
    let (n_up, n_down) = (20 + r.below(60) as usize, r.below(30) as usize);
    let mut up = Workload::random(&mut r, n_up, 4);
    let mut down = Workload::random(&mut r, n_down, 4);
    let mut shut = false;
    let finished = p.run_until(ms(3_600_000), |p| {
        let now = p.now;
        up.pump(0, p.client_mut(), now);
        if let Some(s) = p.server_mut() {
            if !s.is_closed() && s.state() == State::Established {
                down.pump(1, s, now);
            }
        }
        if up.done() && down.done() && !shut {
            shut = true;
            p.client_mut().shutdown(now);
        }
        p.client().is_closed() && p.server().is_some_and(|s| s.is_closed())
    });
    assert!(
        finished,
        "seed {seed}: did not finish ({link:?}), client {:?}",
        p.client().state()
    );
    assert!(
        p.client_events
            .iter()
            .any(|(_, e)| *e == SctpEvent::ShutdownComplete),
        "seed {seed}: client {:?}",
        p.client_events
    );
    let server_events = &p.server_events;
    assert!(
        server_events
            .iter()
            .any(|(_, e)| *e == SctpEvent::ShutdownComplete),
        "seed {seed}: server {server_events:?}"
    );
    assert!(server_events
        .iter()
        .any(|(_, e)| *e == SctpEvent::PeerShutdown));
    check_delivery(0, &up, &p.server_rx);
    check_delivery(1, &down, &p.client_rx);
    (p.now.as_secs_f64(), p.packets)
}

#[test]
fn property_every_message_exactly_once_in_order_with_clean_shutdown() {
    let (mut total_time, mut max_time, mut packets) = (0.0f64, 0.0f64, 0u64);
    for seed in 0..240u64 {
        let profile = if seed % 4 == 3 {
            SctpConfig::rfc2960()
        } else {
            SctpConfig::rfc9260()
        };
        let (t, n) = exactly_once_run(seed, profile);
        total_time += t;
        max_time = max_time.max(t);
        packets += n;
    }
    eprintln!(
        "240 seeds: mean {:.1} s simulated (max {:.1} s), {packets} packets",
        total_time / 240.0,
        max_time
    );
    assert!(total_time > 0.0);
}

#[test]
fn clean_path_bulk_transfer_and_metrics() {
    let mut cfg = SctpConfig::rfc9260();
    cfg.metrics = true;
    let mut p = Pair::simple(
        cfg,
        LinkCfg {
            rate_bps: 2_000_000,
            ..LinkCfg::clean(20)
        },
        1,
    );
    p.establish();
    let mut sent = 0usize;
    let done = p.run_until(ms(60_000), |p| {
        while sent < 300 {
            let now = p.now;
            match p.client_mut().send(now, vec![7; 1452], 0, false, None, 0) {
                Ok(_) => sent += 1,
                Err(_) => break,
            }
        }
        p.server_rx.len() == 300
    });
    assert!(done);
    let s = p.client().stats();
    assert_eq!(s.fast_retransmissions + s.t3_retransmissions, 0);
    assert!(p.client().status().paths[0].cwnd > 20_000, "cwnd grew");
    let m: Vec<_> = std::iter::from_fn(|| p.client_mut().poll_metric()).collect();
    let sent_points = m
        .iter()
        .filter(|e| matches!(e.kind, crate::transport::sctp::MetricKind::TsnSent { .. }))
        .count();
    assert_eq!(sent_points, 300);
}

fn multihomed(seed: u64, hb: SimDuration) -> Pair {
    let mut c = SctpConfig::rfc9260();
    c.hb_interval = hb;
    let links = [LinkCfg::clean(10), LinkCfg::clean(15)];
    let mut p = Pair::new(c.clone(), c, &[C1, C2], &[S1, S2], &[S1], &links, seed);
    p.establish();
    // Let the heartbeats confirm the alternate paths.
    p.run_until(p.now + SimDuration::from_secs(2), |_| false);
    assert_eq!(p.client().path_status(S2).unwrap().state, PathState::Active);
    p
}

#[test]
fn failover_to_the_alternate_and_back_to_the_primary() {
    let mut p = multihoming_pair();
    let mut failed_at = None;
    let mut repaired = false;
    let mut up_count = None;
    let mut t3_at_down = 0;
    let mut errors_at_down = 0;
    let done = p.run_until(ms(900_000), |p| {
        loop {
            let now = p.now;
            let n = p.client().stats().messages_sent as u16;
            let mut data = vec![3; 500];
            data[..2].copy_from_slice(&n.to_be_bytes());
            if p.client_mut().send(now, data, 0, false, None, 0).is_err() {
                break;
            }
        }
        if failed_at.is_none() && p.server_rx.len() > 200 {
            failed_at = Some(p.now);
            p.set_network(0, false);
        }
        let down = p
            .client_events
            .iter()
            .any(|(_, e)| *e == SctpEvent::PathDown { addr: S1 });
        if down && !repaired {
            t3_at_down = p.client().path_stats(S1).unwrap().t3_timeouts;
            errors_at_down = p.client().path_status(S1).unwrap().error_count;
            repaired = true;
            p.set_network(0, true);
        }
        let up = p
            .client_events
            .iter()
            .any(|(_, e)| *e == SctpEvent::PathUp { addr: S1 });
        if up && up_count.is_none() {
            up_count = Some(p.server_rx.len());
        }
        up_count.is_some_and(|c| p.server_rx.len() > c + 300)
    });
    assert!(
        done,
        "transfer stalled: {} delivered; client {:?} {:?}",
        p.server_rx.len(),
        p.client_events,
        p.client().stats(),
    );
    let down_at = p
        .client_events
        .iter()
        .find(|(_, e)| *e == SctpEvent::PathDown { addr: S1 })
        .unwrap()
        .0;
    let s = p.client().stats();
    assert!(
        s.retransmissions_to_alternate > 0,
        "retransmissions went to S2"
    );
    assert!(
        s.path_switches >= 2,
        "failover and return: {}",
        s.path_switches
    );
    // Path.Max.Retrans + 1 = 6 consecutive timeouts on S1 before it is declared inactive
    // (the counter restarts when a chunk that was sent to S1 before the failure is acknowledged
    // late, so the total number of timeouts may be larger).
    assert_eq!(errors_at_down, 6);
    assert!(t3_at_down >= 6);
    // Data moved to S2 after the failure and back to S1 after the heartbeat answered.
    let to_s2 = p
        .client_log
        .iter()
        .filter(|(t, tr)| {
            *t > down_at && tr.dst == S2 && !data_chunks(&tr.packet.chunks).is_empty()
        })
        .count();
    assert!(to_s2 > 0);
    let last_data = p
        .client_log
        .iter()
        .rev()
        .find(|(_, tr)| !data_chunks(&tr.packet.chunks).is_empty())
        .unwrap();
    assert_eq!(last_data.1.dst, S1, "back on the primary");
    // Exactly once, in order.
    for (i, m) in p.server_rx.iter().enumerate() {
        assert_eq!(m.ssn, Ssn(i as u16));
        assert_eq!(u16::from_be_bytes([m.data[0], m.data[1]]), i as u16);
    }
}

fn multihoming_pair() -> Pair {
    multihomed(5, SimDuration::from_secs(2))
}

/// Drops the first transmission of the third client TSN in a back-to-back flight over the
/// pair and checks that exactly one fast retransmission (no timeout) repairs it, one round
/// trip after the flight (every out-of-order chunk is SACKed at once, so the SACKs carrying
/// the 3rd / 4th miss indication arrive together).
fn one_fast_retransmit_repairs_a_single_loss(mut cfg: SctpConfig) {
    cfg.delayed_sack = false;
    cfg.initial_cwnd_bytes = Some(20 * 1500);
    cfg.max_burst = 0;
    let mut p = Pair::simple(cfg, LinkCfg::clean(10), 9);
    p.establish();
    let lost = p.client().initial_tsn() + 2;
    p.drop_tsns.insert(lost.0);
    let now = p.now;
    for _ in 0..12 {
        p.client_mut()
            .send(now, vec![1; 1452], 0, false, None, 0)
            .unwrap();
    }
    assert!(p.run_until(ms(10_000), |p| p.server_rx.len() == 12));
    let s = p.client().stats();
    assert_eq!(
        (
            s.fast_retransmit_events,
            s.fast_retransmissions,
            s.t3_retransmissions
        ),
        (1, 1, 0)
    );
    let sends: Vec<SimTime> = p
        .client_log
        .iter()
        .filter(|(_, t)| data_chunks(&t.packet.chunks).iter().any(|d| d.tsn == lost))
        .map(|(t, _)| *t)
        .collect();
    assert_eq!(sends, vec![now, now + SimDuration::from_millis(20)]);
}

#[test]
fn profiles_differ_in_fast_retransmit_threshold_and_initial_cwnd() {
    // Initial cwnd: RFC 9260 min(4·MTU, max(2·MTU, 4380)) = 4380; RFC 2960 2·MTU = 3000.
    for (cfg, cwnd, first_flight) in [
        (SctpConfig::rfc9260(), 4380, 4),
        (SctpConfig::rfc2960(), 3000, 3),
    ] {
        let mut p = Pair::simple(cfg, LinkCfg::clean(10), 3);
        p.establish();
        assert_eq!(p.client().path_status(S1).unwrap().cwnd, cwnd);
        let now = p.now;
        for _ in 0..10 {
            p.client_mut()
                .send(now, vec![1; 1452], 0, false, None, 0)
                .unwrap();
        }
        let mut n = 0;
        while p.client_mut().poll_transmit(now).is_some() {
            n += 1;
        }
        // Rule B lets a packet start while flightsize < cwnd: 4 resp. 3 full packets.
        assert_eq!(n, first_flight);
    }
    // Fast retransmit on the 3rd (RFC 9260) and 4th (RFC 2960) miss indication: with one
    // SACK per out-of-order chunk, the retransmission follows the SACK for the 3rd resp. 4th
    // chunk after the lost one.
    for (cfg, threshold) in [(SctpConfig::rfc9260(), 3u32), (SctpConfig::rfc2960(), 4)] {
        one_fast_retransmit_repairs_a_single_loss(cfg.clone());
        let mut c = cfg;
        c.delayed_sack = false;
        c.initial_cwnd_bytes = Some(20 * 1500);
        c.max_burst = 0;
        // Count precisely: feed the association SACKs one by one.
        let mut h = established_with(
            SctpConfig {
                heartbeats: false,
                ..c
            },
            &[L1],
            &[R1],
        );
        for _ in 0..10 {
            h.send_msg(1452);
        }
        h.all();
        let mut k = 0;
        loop {
            k += 1;
            send!(h, [h.sack(0, &[(2, 1 + k as u16)], 65_536)]);
            if h.all()
                .iter()
                .any(|t| !data_chunks(&t.packet.chunks).is_empty())
            {
                break;
            }
            assert!(k < 10);
        }
        assert_eq!(k, threshold);
    }
}

#[test]
fn association_survives_a_long_outage_only_within_its_retransmission_budget() {
    let mut p = Pair::simple(SctpConfig::rfc9260(), LinkCfg::clean(10), 4);
    p.establish();
    let now = p.now;
    p.client_mut()
        .send(now, vec![1; 100], 0, false, None, 0)
        .unwrap();
    p.set_network(0, false);
    p.run_until(ms(1_000_000), |p| p.client().is_closed());
    assert!(p.client().is_closed());
    assert!(p.client_events.iter().any(|(_, e)| matches!(
        e,
        SctpEvent::CommLost {
            reason: crate::transport::sctp::LossReason::MaxRetransmissions,
            ..
        }
    )));
}
