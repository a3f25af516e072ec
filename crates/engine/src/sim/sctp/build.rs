//! An SCTP flow from the scenario: the association configuration (the profile, then the
//! flow's overrides), the addresses each side uses, both endpoints (the server listening) and
//! the application.

use super::app::source_config;
use super::{SctpFlow, SctpSide, DEFAULT_SCTP_PORT};
use crate::scenario::{AppKind, FlowSide, FlowSpec, SctpProfileKind};
use crate::sim::flows::Endpoints;
use crate::sim::transport::Ends;
use crate::topology::Topology;
use sctpsim_kernel::{NodeId, SeedTree, StreamKey};
use sctpsim_proto::app::{MessageSink, MessageSource};
use sctpsim_proto::transport::sctp::{
    CoupledCc, EarlyRetransmit, Multipath, RtxPolicy, SctpConfig, SctpEndpoint,
};
use std::net::Ipv4Addr;

/// `sctp.asctp_max_routes` default: 2, a primary and one alternate — the paper's "switches to
/// an existing alternative path" (§4) needs one; more cost a heartbeat per RTO each.
pub(crate) const ASCTP_DEFAULT_ROUTES: u32 = 2;

/// The SCTP configuration a flow asks for: its profile, then its overrides. `link_mtu` is the
/// smallest link MTU (the default path MTU).
pub(crate) fn sctp_config(f: &FlowSpec, link_mtu: usize) -> SctpConfig {
    let spec = f.sctp.clone().unwrap_or_default();
    let mut c = match spec.profile {
        SctpProfileKind::Rfc9260 => SctpConfig::rfc9260(),
        SctpProfileKind::Rfc2960 => SctpConfig::rfc2960(),
        SctpProfileKind::Ns2 => SctpConfig::ns2(),
        SctpProfileKind::Ns2_2003 => SctpConfig::ns2_2003(),
    };
    if let Some(v) = spec.initial_rto {
        c.rto_initial = v.0;
    }
    if let Some(v) = spec.min_rto {
        c.rto_min = v.0;
    }
    if let Some(v) = spec.max_rto {
        c.rto_max = v.0;
    }
    if let Some(v) = spec.hb_interval {
        c.hb_interval = v.0;
    }
    if let Some(v) = spec.heartbeats {
        c.heartbeats = v;
    }
    if let Some(v) = spec.path_max_retrans {
        c.path_max_retrans = v;
    }
    if let Some(v) = spec.association_max_retrans {
        c.association_max_retrans = v;
    }
    if let Some(v) = spec.delayed_sack {
        c.delayed_sack = v;
    }
    if let Some(v) = spec.delayed_sack_timeout {
        c.sack_delay = v.0;
    }
    if let Some(v) = spec.sack_frequency {
        c.sack_freq = v;
    }
    if let Some(v) = spec.max_burst {
        c.max_burst = v;
    }
    if let Some(v) = spec.max_gap_blocks {
        c.max_gap_blocks = Some(v);
    }
    if let Some(v) = spec.fast_rtx_threshold {
        c.fast_rtx_threshold = v;
    }
    // Checked by the scenario validation; an unknown name keeps the profile's `off`.
    if let Some(v) = spec
        .early_retransmit
        .as_deref()
        .and_then(EarlyRetransmit::from_name)
    {
        c.early_retransmit = v;
    }
    // Checked by the scenario validation, like `early_retransmit`.
    if let Some(v) = spec.multipath.as_deref().and_then(Multipath::from_name) {
        c.multipath = v;
    }
    // CMT's switches and retransmission policy (checked: only with `multipath = "cmt"`).
    for (field, v) in [
        (&mut c.cmt.sfr, spec.cmt_sfr),
        (&mut c.cmt.cuc, spec.cmt_cuc),
        (&mut c.cmt.dac, spec.cmt_dac),
        (&mut c.cmt.pf, spec.cmt_pf),
    ] {
        if let Some(v) = v {
            *field = v;
        }
    }
    // `cmt_cc`, or its older form `cmt_coupled` (checked: a known name, the two agreeing).
    if let Some(v) = spec.cmt_cc_name().and_then(CoupledCc::from_name) {
        c.cmt.coupled = v;
    }
    if let Some(v) = spec
        .cmt_rtx_policy
        .as_deref()
        .and_then(RtxPolicy::from_name)
    {
        c.cmt.rtx_policy = v;
    }
    // A-SCTP's ablation switches (checked: only with `multipath = "asctp"`).
    let r = &mut c.asctp_rules;
    for (field, v) in [
        (
            &mut r.retransmit_on_data_path,
            spec.asctp_retransmit_on_data_path,
        ),
        (&mut r.heartbeat_every_rto, spec.asctp_heartbeat_every_rto),
        (
            &mut r.two_heartbeat_failures,
            spec.asctp_two_heartbeat_failures,
        ),
        (&mut r.route_notice, spec.asctp_route_notice),
        (&mut r.failover_retransmit, spec.asctp_failover_retransmit),
        (&mut r.tsn_range, spec.asctp_tsn_range),
        (&mut r.fresh_path_state, spec.asctp_fresh_path_state),
        (&mut r.follow_shorter_route, spec.asctp_follow_shorter_route),
    ] {
        if let Some(v) = v {
            *field = v;
        }
    }
    if let Some(v) = spec.initial_cwnd_bytes {
        c.initial_cwnd_bytes = Some(v);
    }
    if let Some(v) = spec.initial_ssthresh_bytes {
        c.initial_ssthresh = Some(v);
    }
    let app_streams = match (f.app, &f.messages) {
        (AppKind::Messages, Some(m)) => m.streams,
        _ => 1,
    };
    c.outbound_streams = spec.streams.unwrap_or(c.outbound_streams.max(app_streams));
    if let Some(v) = spec.return_to_primary {
        c.return_to_primary = v;
    }
    c.pmtu = spec
        .mtu_bytes
        .unwrap_or(u16::try_from(link_mtu).unwrap_or(u16::MAX));
    if let Some(v) = spec.chunk_bytes {
        c.max_fragment = Some(v);
    }
    if let Some(v) = spec.recv_buffer_bytes {
        c.recv_buffer = v;
    }
    if let Some(v) = spec.send_buffer_bytes {
        c.send_buffer = v as usize;
    }
    if let Some(v) = spec.pr_sctp {
        c.pr_sctp = v;
    }
    if let Some(v) = spec.auth {
        c.auth = v;
    }
    if let Some(v) = spec.auth_hmac {
        c.auth_hmac = match v {
            crate::scenario::schema_sctp::AuthHmacSpec::Sha1 => {
                sctpsim_proto::transport::sctp::AuthHmac::Sha1
            }
            crate::scenario::schema_sctp::AuthHmacSpec::Sha256 => {
                sctpsim_proto::transport::sctp::AuthHmac::Sha256
            }
        };
    }
    if let Some(v) = spec.i_data {
        c.i_data = v;
    }
    if let Some(v) = spec.reconfig {
        c.reconfig = v;
    }
    if let Some(v) = spec.nr_sack {
        c.nr_sack = v;
    }
    if let Some(v) = spec.renegable_send_buffer {
        c.renegable_send_buffer = v;
    }
    if let Some(kind) = spec
        .scheduler
        .as_deref()
        .and_then(sctpsim_proto::transport::sctp::SchedulerKind::from_name)
    {
        c.scheduler.kind = kind;
    }
    if let Some(v) = &spec.stream_priorities {
        c.scheduler.priorities = v.clone();
    }
    if let Some(v) = &spec.stream_weights {
        c.scheduler.weights = v.clone();
    }
    c.metrics = true;
    c
}

/// The addresses of `node` a flow uses: `wanted` (those the node owns, in order) or all of
/// them in interface order.
fn addresses(topo: &Topology, node: NodeId, wanted: Option<&Vec<Ipv4Addr>>) -> Vec<Ipv4Addr> {
    let n = &topo.nodes[node.index()];
    let mut out: Vec<Ipv4Addr> = match wanted {
        Some(list) => list.iter().copied().filter(|a| n.owns(*a)).collect(),
        None => n.ifaces.iter().map(|i| i.addr).collect(),
    };
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|a| seen.insert(*a));
    out
}

/// The source address `node` uses towards `dst`: the address of the interface its route
/// leaves by.
pub(super) fn route_source(topo: &Topology, node: NodeId, dst: Ipv4Addr) -> Option<Ipv4Addr> {
    let k = topo.route(node, dst)?;
    topo.nodes[node.index()]
        .ifaces
        .get(k as usize)
        .map(|i| i.addr)
}

/// For `node`, the source address towards each address of `peer` (and each in `extra`): the
/// address of the interface its route leaves by.
fn sources(
    topo: &Topology,
    node: NodeId,
    peer: NodeId,
    extra: &[Ipv4Addr],
) -> std::collections::BTreeMap<Ipv4Addr, Ipv4Addr> {
    let own = topo.nodes[peer.index()].ifaces.iter().map(|i| i.addr);
    own.chain(extra.iter().copied())
        .filter_map(|p| route_source(topo, node, p).map(|s| (p, s)))
        .collect()
}

/// Build SCTP flow `i`. `mtu` is the smallest link MTU.
pub(in crate::sim) fn build_sctp_flow(
    i: usize,
    f: &FlowSpec,
    ep_nodes: (NodeId, NodeId),
    topo: &Topology,
    mtu: usize,
    seeds: &SeedTree,
    cell: [Option<(Ipv4Addr, Vec<Ipv4Addr>)>; 2],
) -> SctpFlow {
    let (src, dst) = ep_nodes;
    let spec = f.sctp.clone().unwrap_or_default();
    // A cellular mobile takes part with the address it holds at t = 0 (`sim/cellular.rs`).
    let cell_addr = |k: usize, node| match &cell[k] {
        Some((a, _)) => vec![*a],
        None => addresses(
            topo,
            node,
            if k == 0 {
                spec.local_addresses.as_ref()
            } else {
                spec.peer_addresses.as_ref()
            },
        ),
    };
    let mut local = cell_addr(0, src);
    let peer = cell_addr(1, dst);
    // The INIT leaves from the first local address towards the primary: make that the address
    // of the interface the route to the primary uses.
    if let Some(s) = peer.first().and_then(|p| route_source(topo, src, *p)) {
        if let Some(k) = local.iter().position(|a| *a == s) {
            local[..=k].rotate_right(1);
        }
    }
    let ep = Endpoints {
        spec_index: i,
        src,
        dst,
        src_addr: local.first().copied().unwrap_or(Ipv4Addr::UNSPECIFIED),
        dst_addr: peer.first().copied().unwrap_or(Ipv4Addr::UNSPECIFIED),
        src_port: f
            .src_port
            .unwrap_or(crate::sim::flows::EPHEMERAL_BASE.wrapping_add(i as u16)),
        dst_port: f.dst_port.unwrap_or(DEFAULT_SCTP_PORT),
    };
    let mut cfg = sctp_config(f, mtu);
    super::csctp::configure(&mut cfg, spec.csctp.as_deref());
    let rng = |side: u64| seeds.stream(&StreamKey::new("sctp-endpoint").with(i as u64).with(side));
    let client = SctpEndpoint::new(cfg.clone(), ep.src_port, local.clone(), rng(0));
    // A-SCTP is the data sender's (Argyriou & Madisetti 2004 §3); the receiver is plain SCTP,
    // its SACKs and HEARTBEAT ACKs following DSR's own routes back. CMT's receiver keeps its
    // mode: DAC is a receiver algorithm (Iyengar, Amer & Stewart 2006 §3.3), and turning the
    // mode off here had left every CMT scenario without it (until 2026-11-29).
    let server_multipath = match cfg.multipath {
        Multipath::Asctp => Multipath::Off,
        m => m,
    };
    let server_cfg = SctpConfig {
        multipath: server_multipath,
        ..cfg.clone()
    };
    let mut server = SctpEndpoint::new(server_cfg, ep.dst_port, peer.clone(), rng(1));
    let asctp = (cfg.multipath == Multipath::Asctp)
        .then(|| peer.first().copied())
        .flatten()
        .map(|p| {
            let max = spec.asctp_max_routes.unwrap_or(ASCTP_DEFAULT_ROUTES);
            let follow = cfg.asctp_rules.follow_shorter_route;
            super::asctp::AsctpPaths::new(p, max as usize, follow)
        });
    server.listen(true);
    let source_cfg = source_config(f, &cfg);
    let sink_streams = source_cfg.streams;
    let side = |node: NodeId, endpoint: SctpEndpoint, k: usize| SctpSide {
        node,
        endpoint,
        handle: None,
        malformed: 0,
        cell: cell[k]
            .as_ref()
            .map(|(_, all)| super::csctp::CellArrivals::new(all.clone())),
    };
    let mut flow = SctpFlow {
        ep,
        profile: spec.profile,
        sides: Ends([side(src, client, 0), side(dst, server, 1)]),
        local_addrs: local,
        peer_addrs: peer,
        source: MessageSource::new(source_cfg),
        sink: MessageSink::new(sink_streams),
        shutdown_when_done: f.app == AppKind::File,
        shutdown_sent: false,
        started: false,
        app_next: None,
        sources: Default::default(),
        data_packets_sent: 0,
        data_packets_received: 0,
        asconf: spec.asconf.clone(),
        asconf_next: 0,
        reconfig: spec.reconfig_actions.clone(),
        reconfig_next: 0,
        scratch: Vec::new(),
        asctp,
        csctp: super::csctp::Csctp::new(spec.csctp.as_deref(), &cell),
        associations_lost: 0,
    };
    // Sources towards every address of the other side, those it adds by ASCONF included.
    let added = |side| flow.asconf_added(side).collect::<Vec<_>>();
    let (to_server, to_client) = (added(FlowSide::Dst), added(FlowSide::Src));
    flow.sources = Ends([
        sources(topo, src, dst, &to_server),
        sources(topo, dst, src, &to_client),
    ]);
    flow
}
