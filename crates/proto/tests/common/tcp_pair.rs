//! `Pair`: two TCP endpoints joined by a simulated path (DESIGN.md §8 tier 3, after
//! quinn-proto's `tests/util.rs`). Every segment goes through the real codec: the sender's
//! `Transmit` (the encoded segment) is wrapped in an IPv4 packet with a real header checksum,
//! the path may lose, duplicate, delay (reorder) or corrupt it, and the receiver parses it
//! again.
//!
//! The path serialises packets at a bottleneck rate (unlimited queue), adds a one-way latency
//! and draws its impairments from a kernel `Rng`. Scripted drops remove the first
//! transmission of chosen client data segments (counted in order of first transmission).

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddrV4;

use sctpsim_kernel::{BitRate, Rng, SimDuration, SimTime};
use sctpsim_proto::transport::tcp::{TcpConfig, TcpConnection, TcpEvent};
use sctpsim_proto::transport::Transmit;
use sctpsim_wire::{
    ipv4_datagram, IpProtocol, Ipv4Addr, Ipv4Packet, Ipv4Repr, TcpPacket, TcpRepr, TcpSeqNumber,
};

/// Impairments and timing of one direction of the path.
#[derive(Debug, Clone)]
pub struct PathConfig {
    /// One-way propagation delay.
    pub latency: SimDuration,
    /// Bottleneck rate; 0 means no serialisation delay.
    pub rate: BitRate,
    /// Probability that a packet is lost.
    pub loss: f64,
    /// Probability that a packet is delivered twice.
    pub duplicate: f64,
    /// Probability that a packet is held back by up to `reorder_delay` (reordering it).
    pub reorder: f64,
    /// Largest extra delay of a reordered packet.
    pub reorder_delay: SimDuration,
    /// Probability that one byte of the packet is flipped (the receiver's checksum catches
    /// it).
    pub corrupt: f64,
}

impl PathConfig {
    /// A clean path.
    pub fn clean(latency: SimDuration, rate: BitRate) -> Self {
        PathConfig {
            latency,
            rate,
            loss: 0.0,
            duplicate: 0.0,
            reorder: 0.0,
            reorder_delay: SimDuration::ZERO,
            corrupt: 0.0,
        }
    }
}

/// One direction of the path.
#[derive(Debug)]
struct Link {
    cfg: PathConfig,
    busy_until: SimTime,
    /// Packets in flight by (arrival time, insertion sequence).
    in_flight: BTreeMap<(SimTime, u64), Vec<u8>>,
}

/// A packet the path saw, for traces and measurements.
#[derive(Debug, Clone)]
pub struct Sent {
    /// When it entered the path.
    pub time: SimTime,
    /// 0: client to server, 1: server to client.
    pub dir: usize,
    /// The header.
    pub repr: TcpRepr,
    /// Payload length.
    pub len: usize,
    /// Sequence offset from the sender's ISS.
    pub offset: u64,
    /// Whether the path dropped it (scripted or random).
    pub dropped: bool,
}

/// An endpoint and what its application saw.
#[derive(Debug)]
pub struct Endpoint {
    /// The connection.
    pub conn: TcpConnection,
    /// Its address.
    pub addr: Ipv4Addr,
    /// Bytes the application read.
    pub received: Vec<u8>,
    /// Events with their time.
    pub events: Vec<(SimTime, TcpEvent)>,
    /// Data still to write (written as the send buffer accepts it).
    pub to_send: Vec<u8>,
    /// Close once everything in `to_send` was accepted.
    pub close_after_send: bool,
    /// Close when the peer closes (a server that answers FIN with FIN).
    pub close_on_peer_close: bool,
    /// Packets that failed IPv4 parsing (corrupted IPv4 header).
    pub ip_dropped: u64,
}

impl Endpoint {
    fn new(conn: TcpConnection, addr: Ipv4Addr) -> Self {
        Endpoint {
            conn,
            addr,
            received: Vec::new(),
            events: Vec::new(),
            to_send: Vec::new(),
            close_after_send: false,
            close_on_peer_close: true,
            ip_dropped: 0,
        }
    }

    /// Whether the event happened.
    pub fn saw(&self, event: TcpEvent) -> bool {
        self.events.iter().any(|(_, e)| *e == event)
    }

    /// The application's part of a step: write, read, react to events.
    fn app(&mut self, now: SimTime) {
        if !self.to_send.is_empty() {
            let n = self.conn.send(&self.to_send);
            self.to_send.drain(..n);
        }
        if self.to_send.is_empty() && self.close_after_send {
            self.close_after_send = false;
            self.conn.close();
        }
        let mut buf = [0u8; 4096];
        loop {
            let n = self.conn.recv(&mut buf);
            if n == 0 {
                break;
            }
            self.received.extend_from_slice(&buf[..n]);
        }
        while let Some(event) = self.conn.poll_event() {
            if event == TcpEvent::PeerClosed && self.close_on_peer_close {
                self.conn.close();
            }
            self.events.push((now, event));
        }
    }
}

/// Two endpoints and the path between them.
#[derive(Debug)]
pub struct Pair {
    /// Simulated time.
    pub now: SimTime,
    /// The active opener (sends data in the tests).
    pub client: Endpoint,
    /// The passive opener.
    pub server: Endpoint,
    links: [Link; 2],
    rng: Rng,
    seq: u64,
    ident: u16,
    /// Largest payload per segment offered to the connections.
    pub max_payload: usize,
    /// Client data segments (0-based, in order of first transmission) whose first
    /// transmission is dropped.
    pub scripted_drops: BTreeSet<u64>,
    first_sent: BTreeSet<u64>,
    /// Every packet that entered the path.
    pub log: Vec<Sent>,
    client_iss: TcpSeqNumber,
    server_iss: TcpSeqNumber,
}

/// Client and server addresses and ports.
pub const CLIENT: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
/// Server address.
pub const SERVER: Ipv4Addr = Ipv4Addr::new(10, 0, 1, 2);
const CLIENT_PORT: u16 = 40_000;
const SERVER_PORT: u16 = 5001;

impl Pair {
    /// A client and a listening server with these configurations, joined by `forward`
    /// (client to server) and `reverse` paths; impairments draw from `Rng::from_seed(seed)`.
    pub fn new(
        client_cfg: TcpConfig,
        server_cfg: TcpConfig,
        forward: PathConfig,
        reverse: PathConfig,
        seed: u64,
    ) -> Self {
        let mut rng = Rng::from_seed(seed);
        let client_iss = TcpConnection::random_iss(&mut rng);
        let server_iss = TcpConnection::random_iss(&mut rng);
        let max_payload = usize::from(client_cfg.mss.max(server_cfg.mss));
        let client = TcpConnection::new_client(
            client_cfg,
            SocketAddrV4::new(CLIENT, CLIENT_PORT),
            SocketAddrV4::new(SERVER, SERVER_PORT),
            client_iss,
        );
        let server = TcpConnection::new_listener(
            server_cfg,
            SocketAddrV4::new(SERVER, SERVER_PORT),
            server_iss,
        );
        Pair {
            now: SimTime::ZERO,
            client: Endpoint::new(client, CLIENT),
            server: Endpoint::new(server, SERVER),
            links: [
                Link {
                    cfg: forward,
                    busy_until: SimTime::ZERO,
                    in_flight: BTreeMap::new(),
                },
                Link {
                    cfg: reverse,
                    busy_until: SimTime::ZERO,
                    in_flight: BTreeMap::new(),
                },
            ],
            rng,
            seq: 0,
            ident: 0,
            max_payload,
            scripted_drops: BTreeSet::new(),
            first_sent: BTreeSet::new(),
            log: Vec::new(),
            client_iss,
            server_iss,
        }
    }

    /// The client writes `data` (as fast as its send buffer takes it) and then closes.
    pub fn client_sends(&mut self, data: Vec<u8>) {
        self.client.to_send = data;
        self.client.close_after_send = true;
    }

    /// The client sends a backlogged stream of `total` bytes and then closes.
    pub fn client_sends_backlog(&mut self, total: u64) {
        self.client.conn.send_backlogged(Some(total));
        self.client.conn.close();
    }

    /// The earliest time something happens.
    fn next_time(&self) -> Option<SimTime> {
        let arrivals = self
            .links
            .iter()
            .filter_map(|l| l.in_flight.keys().next().map(|(t, _)| *t));
        let timers = [
            self.client.conn.poll_timeout(),
            self.server.conn.poll_timeout(),
        ];
        arrivals.chain(timers.into_iter().flatten()).min()
    }

    /// Runs the applications and lets both endpoints transmit at the current time.
    fn flush(&mut self) {
        let now = self.now;
        self.client.app(now);
        self.server.app(now);
        for dir in 0..2 {
            loop {
                let endpoint = if dir == 0 {
                    &mut self.client
                } else {
                    &mut self.server
                };
                let Some(t) = endpoint.conn.poll_transmit(now, self.max_payload) else {
                    break;
                };
                self.transmit(dir, t);
            }
        }
        // Events produced by transmitting (metrics) are drained too.
        self.client.app(now);
        self.server.app(now);
    }

    /// Puts one segment on the path in direction `dir`.
    fn transmit(&mut self, dir: usize, t: Transmit) {
        let (src, dst, iss) = if dir == 0 {
            (CLIENT, SERVER, self.client_iss)
        } else {
            (SERVER, CLIENT, self.server_iss)
        };
        assert_eq!((t.src, t.dst), (src, dst), "the connection's addresses");
        let segment = TcpPacket::new_checked(&t.payload[..]).expect("a whole segment");
        let repr = TcpRepr::parse(&segment, src, dst).expect("the checksum of an emitted segment");
        let payload_len = segment.payload().len();
        self.ident = self.ident.wrapping_add(1);
        let ip = Ipv4Repr {
            src_addr: src,
            dst_addr: dst,
            protocol: IpProtocol::Tcp,
            payload_len: t.payload.len(),
            ttl: 64,
            ident: self.ident,
            dscp: 0,
            dont_frag: true,
        };
        let mut bytes = ipv4_datagram(&ip, &t.payload).expect("a segment fits IPv4");
        let offset = u64::from(repr.seq_number.0.wrapping_sub(iss.0));
        let mut dropped = false;
        if dir == 0 && payload_len > 0 && self.first_sent.insert(offset) {
            let index = self.first_sent.len() as u64 - 1;
            dropped |= self.scripted_drops.contains(&index);
        }
        let link = &mut self.links[dir];
        let depart = self.now.max(link.busy_until) + link.cfg.rate_tx_time(bytes.len());
        link.busy_until = depart;
        dropped |= self.rng.bernoulli(link.cfg.loss);
        self.log.push(Sent {
            time: self.now,
            dir,
            repr,
            len: payload_len,
            offset,
            dropped,
        });
        if dropped {
            return;
        }
        let mut arrival = depart + link.cfg.latency;
        if self.rng.bernoulli(link.cfg.reorder) {
            arrival += SimDuration(self.rng.below(link.cfg.reorder_delay.as_nanos().max(1)));
        }
        if self.rng.bernoulli(link.cfg.corrupt) {
            let i = self.rng.below(bytes.len() as u64) as usize;
            bytes[i] ^= 1 << self.rng.below(8);
        }
        if self.rng.bernoulli(link.cfg.duplicate) {
            let later = arrival + SimDuration(self.rng.below(1_000_000));
            self.seq += 1;
            link.in_flight.insert((later, self.seq), bytes.clone());
        }
        self.seq += 1;
        link.in_flight.insert((arrival, self.seq), bytes);
    }

    /// Advances to the next event; false if nothing is left to happen.
    pub fn step(&mut self) -> bool {
        if self.log.is_empty() && self.now == SimTime::ZERO {
            self.flush();
        }
        let Some(next) = self.next_time() else {
            return false;
        };
        self.now = next;
        for dir in 0..2 {
            while let Some(entry) = self.links[dir].in_flight.first_entry() {
                if entry.key().0 > self.now {
                    break;
                }
                let bytes = entry.remove();
                let receiver = if dir == 0 {
                    &mut self.server
                } else {
                    &mut self.client
                };
                deliver(receiver, self.now, &bytes);
            }
        }
        let now = self.now;
        self.client.conn.handle_timeout(now);
        self.server.conn.handle_timeout(now);
        self.flush();
        true
    }

    /// Steps until `done` holds or `limit` of simulated time passed; returns whether `done`
    /// held.
    pub fn run_until(&mut self, limit: SimTime, mut done: impl FnMut(&Pair) -> bool) -> bool {
        loop {
            if done(self) {
                return true;
            }
            if self.now > limit || !self.step() {
                return done(self);
            }
        }
    }

    /// Steps until both connections are closed (or `limit`).
    pub fn run_to_close(&mut self, limit: SimTime) -> bool {
        self.run_until(limit, |p| {
            p.client.conn.is_closed() && p.server.conn.is_closed()
        })
    }

    /// Client data segments the path dropped: (time, offset, length).
    pub fn dropped_data(&self) -> Vec<(SimTime, u64, usize)> {
        self.log
            .iter()
            .filter(|s| s.dir == 0 && s.dropped && s.len > 0)
            .map(|s| (s.time, s.offset, s.len))
            .collect()
    }
}

impl PathConfig {
    fn rate_tx_time(&self, bytes: usize) -> SimDuration {
        self.rate.tx_time(bytes)
    }
}

/// The receiving host's IP layer: parse IPv4, hand the TCP payload to the connection.
fn deliver(endpoint: &mut Endpoint, now: SimTime, bytes: &[u8]) {
    let Ok(ip) = Ipv4Packet::new_checked(bytes) else {
        endpoint.ip_dropped += 1;
        return;
    };
    let Ok(ip_repr) = Ipv4Repr::parse(&ip) else {
        endpoint.ip_dropped += 1;
        return;
    };
    if ip_repr.dst_addr != endpoint.addr {
        endpoint.ip_dropped += 1;
        return;
    }
    let _ = endpoint
        .conn
        .handle_packet(now, ip_repr.src_addr, ip_repr.dst_addr, ip.payload());
}
