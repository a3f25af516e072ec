//! Flows at run time: each configured flow's ends behind the transport driver interface, and how
//! UDP and TCP flows are built from the scenario (SCTP: `sctp.rs`).

use super::tcp::TcpFlow;
use super::transport::{Ends, FlowDriver};
use super::udp::UdpFlow;
use crate::scenario::{AppKind, FlowSpec, PartialAckTimerKind, TcpProfileKind, TransportKind};
use sctpsim_kernel::{NodeId, SeedTree, SimTime, StreamKey};
use sctpsim_proto::app::{CbrConfig, CbrSource, DatagramSink};
use sctpsim_proto::transport::tcp::{
    PartialAckTimer, TcpApplication, TcpConfig, TcpConnection, TcpVariant,
};
use sctpsim_wire::udp::UdpRepr;
use std::net::{Ipv4Addr, SocketAddrV4};

/// Default TCP destination port: 5001 (iperf's), which captures dissect as plain TCP data.
pub(crate) const DEFAULT_TCP_PORT: u16 = 5001;
/// Default UDP destination port: 9 (discard, RFC 863).
pub(crate) const DEFAULT_UDP_PORT: u16 = 9;
/// First ephemeral source port: 49152 (IANA dynamic range, RFC 6335 §6).
pub(crate) const EPHEMERAL_BASE: u16 = 49152;

/// Where a flow runs.
#[derive(Clone, Debug)]
pub(super) struct Endpoints {
    pub spec_index: usize,
    pub src: NodeId,
    pub dst: NodeId,
    pub src_addr: Ipv4Addr,
    pub dst_addr: Ipv4Addr,
    pub src_port: u16,
    pub dst_port: u16,
}

/// The TCP configuration a flow asks for: its profile, its variant, then its overrides.
pub(crate) fn tcp_config(f: &FlowSpec) -> TcpConfig {
    let spec = f.tcp.clone().unwrap_or_default();
    let base = match spec.profile {
        TcpProfileKind::Rfc => TcpConfig::rfc(),
        TcpProfileKind::Ns2 => TcpConfig::ns2(),
        TcpProfileKind::Ns2_2003 => TcpConfig::ns2_2003(),
        TcpProfileKind::Ns2_2001 => TcpConfig::ns2_2001(),
    };
    let variant = match f.transport {
        TransportKind::TcpTahoe => TcpVariant::Tahoe,
        TransportKind::TcpReno => TcpVariant::Reno,
        TransportKind::TcpSack => TcpVariant::Sack,
        TransportKind::TcpSack1 => TcpVariant::Sack1,
        _ => TcpVariant::NewReno,
    };
    let mut c = base.with_variant(variant);
    if let Some(v) = spec.mss_bytes {
        c.mss = v;
    }
    if let Some(v) = spec.initial_window_segments {
        c.initial_window = Some(v);
    }
    if let Some(v) = spec.initial_ssthresh_bytes {
        c.initial_ssthresh = v;
    }
    if let Some(v) = spec.max_window_bytes {
        c.max_send_window = Some(v);
    }
    if let Some(v) = spec.recv_buffer_bytes {
        c.recv_buffer = v;
    }
    if let Some(v) = spec.timestamps {
        c.timestamps = v;
    }
    if let Some(v) = spec.max_sack_blocks {
        c.max_sack_blocks = Some(v);
    }
    if let Some(v) = spec.dupthresh {
        c.dupthresh = v;
    }
    if let Some(v) = spec.limited_transmit {
        c.limited_transmit = v;
    }
    if let Some(v) = spec.delayed_ack {
        c.delayed_ack = v;
    }
    if let Some(v) = spec.delayed_ack_timeout {
        c.delayed_ack_timeout = v.0;
    }
    if let Some(v) = spec.initial_rto {
        c.initial_rto = v.0;
    }
    if let Some(v) = spec.min_rto {
        c.min_rto = v.0;
    }
    if let Some(v) = spec.max_rto {
        c.max_rto = v.0;
    }
    if let Some(v) = spec.partial_ack_timer {
        c.partial_ack_timer = match v {
            PartialAckTimerKind::Impatient => PartialAckTimer::Impatient,
            PartialAckTimerKind::SlowButSteady => PartialAckTimer::SlowButSteady,
        };
    }
    if let Some(v) = spec.nagle {
        c.nagle = v;
    }
    c
}

/// Build flow `i`. `mtu` is the smallest link MTU (checked to fit the flow's packets).
pub(super) fn build_flow(
    i: usize,
    f: &FlowSpec,
    ep_nodes: (NodeId, NodeId),
    addrs: (Ipv4Addr, Ipv4Addr),
    end: SimTime,
    mtu: usize,
    seeds: &SeedTree,
) -> Box<dyn FlowDriver> {
    let (src, dst) = ep_nodes;
    let default_port = if f.transport.is_tcp() {
        DEFAULT_TCP_PORT
    } else {
        DEFAULT_UDP_PORT
    };
    let ep = Endpoints {
        spec_index: i,
        src,
        dst,
        src_addr: addrs.0,
        dst_addr: addrs.1,
        src_port: f.src_port.unwrap_or(EPHEMERAL_BASE.wrapping_add(i as u16)),
        dst_port: f.dst_port.unwrap_or(default_port),
    };
    let start = SimTime::ZERO + f.start.0;
    if f.transport.is_tcp() {
        let cfg = tcp_config(f);
        let iss = |side: u64| {
            let mut rng = seeds.stream(&StreamKey::new("tcp-iss").with(i as u64).with(side));
            TcpConnection::random_iss(&mut rng)
        };
        let (src, dst) = (
            SocketAddrV4::new(ep.src_addr, ep.src_port),
            SocketAddrV4::new(ep.dst_addr, ep.dst_port),
        );
        let client = TcpConnection::new_client(cfg.clone(), src, dst, iss(0));
        let server = TcpConnection::new_listener(cfg, dst, iss(1));
        let app = match f.app {
            AppKind::File => TcpApplication::File {
                bytes: f.size_bytes.unwrap_or(0),
            },
            _ => TcpApplication::BulkFtp,
        };
        Box::new(TcpFlow {
            ep,
            sides: Ends([client, server]),
            app,
            start,
            started: false,
            // IPv4 and TCP headers without options; the connection fits its options inside
            // the MSS (RFC 6691 §2).
            max_payload: mtu.saturating_sub(40),
            data_segments_received: 0,
            data_segments_sent: 0,
            delivery_errors: 0,
        })
    } else {
        let udp = UdpRepr {
            src_port: ep.src_port,
            dst_port: ep.dst_port,
        };
        let stop = f.stop.map(|d| SimTime::ZERO + d.0).unwrap_or(end).min(end);
        let cfg = CbrConfig {
            rate: f.rate.map(|r| r.0).unwrap_or_default(),
            packet_size: f.udp_packet_size() as usize,
            start,
            stop,
            total_bytes: match f.app {
                AppKind::File => f.size_bytes,
                _ => None,
            },
        };
        Box::new(UdpFlow {
            ep,
            udp,
            source: CbrSource::new(cfg),
            sink: DatagramSink::new(),
            datagrams_received: 0,
        })
    }
}
