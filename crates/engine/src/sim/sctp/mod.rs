//! SCTP flows in the engine (sans-IO associations of `sctpsim_proto::transport::sctp`): one
//! [`SctpEndpoint`] per side of a flow, the application at each end, and the rows the run
//! reports. By responsibility:
//!
//! * `build.rs` — a flow from the scenario: the association configuration (profile and
//!   overrides), the addresses of each side, the endpoints and the application.
//! * `driver.rs` — the flow behind the transport driver interface: connect at `start`,
//!   ASCONF actions, packets in ([`SctpEndpoint::handle_datagram`]) and out, timer slots,
//!   source addresses per path.
//! * `rows.rs` — time-series rows: notifications and the metric stream, drops, per-stream
//!   delays.
//! * `results.rs` — the flow, association, path and stream rows at the end of the run.
//! * `app.rs` — the scenario's application as a `sctpsim_proto::app::MessageSource`.
//! * `asctp.rs` — A-SCTP's path manager (`sctp.multipath = "asctp"`): DSR's node-disjoint
//!   routes as paths of the client association, each packet pinned to its path's route.
//!
//! Each side of a flow is an [`SctpEndpoint`], which holds the side's association (the
//! client's from `connect`, the server's from the COOKIE ECHO) and decides whether a packet is
//! the association's or its own to answer. Packets reach the side by (local port, remote
//! address, remote port) — one entry per address of the multi-homed peer — and go to the
//! endpoint as bytes.
//!
//! Multi-homing: an association lists every address of its node (or `sctp.local_addresses`)
//! and sends to every address of the peer (or `sctp.peer_addresses`, the first being the
//! primary). The source address of each destination is pinned to the address of the interface
//! the static route to that destination leaves by, so a packet's source always belongs to the
//! link it leaves on and the peer's replies come back over the same path.
//!
//! Timers: the driver's three slots (`sim/transport.rs`): the client's and the server's
//! association deadlines and the application's (start, paced messages, ASCONF actions).

mod app;
mod asctp;
mod build;
mod csctp;
mod driver;
mod results;
mod rows;

pub(crate) use csctp::CsctpLog;

pub(super) use build::build_sctp_flow;
pub(crate) use build::{sctp_config, ASCTP_DEFAULT_ROUTES};

use super::flows::Endpoints;
use super::transport::{End, Ends};
use crate::scenario::{AsconfActionKind, AsconfActionSpec, FlowSide, SctpProfileKind};
use sctpsim_kernel::{NodeId, SimTime};
use sctpsim_proto::app::{MessageSink, MessageSource};
use sctpsim_proto::transport::sctp::{AssocHandle, SctpAssociation, SctpEndpoint};
use std::net::Ipv4Addr;

/// Default SCTP destination port: 5001, iperf's (which also uses it for SCTP), so captures
/// dissect the payload as plain data.
pub(crate) const DEFAULT_SCTP_PORT: u16 = 5001;
/// The sending client: SCTP's name for the flow's source end.
const CLIENT: End = End::Src;
/// The receiving server: the flow's destination end.
const SERVER: End = End::Dst;

/// One end of an SCTP flow.
pub(super) struct SctpSide {
    /// The node it runs on.
    pub node: NodeId,
    /// The endpoint: it holds the association and answers INITs and out-of-the-blue packets.
    pub endpoint: SctpEndpoint,
    /// The side's association in `endpoint`, once connected (client) or accepted (server).
    /// A newer one (a second COOKIE ECHO after the first association closed) replaces it and
    /// the old one is removed from the endpoint, so the endpoint holds at most this one.
    pub handle: Option<AssocHandle>,
    /// Packets for it that failed the SCTP checks (CRC32c, structure).
    pub malformed: u64,
    /// At a cellular mobile: the DATA it received on the mobile's addresses.
    pub cell: Option<csctp::CellArrivals>,
}

impl SctpSide {
    /// The side's association, once it exists.
    pub fn assoc(&self) -> Option<&SctpAssociation> {
        self.handle.and_then(|h| self.endpoint.assoc(h))
    }

    /// The side's association, for commands and polling.
    pub fn assoc_mut(&mut self) -> Option<&mut SctpAssociation> {
        self.handle.and_then(|h| self.endpoint.assoc_mut(h))
    }

    /// Makes `h` the side's association, forgetting the one it replaces.
    fn adopt(&mut self, h: AssocHandle) {
        if let Some(old) = self.handle.replace(h) {
            self.endpoint.remove(old);
        }
    }
}

/// An SCTP flow: the client association at `src` (`CLIENT`, `End::Src`) with the sending
/// application, the server at `dst` (`SERVER`, `End::Dst`) with the sink.
pub(super) struct SctpFlow {
    pub ep: Endpoints,
    pub profile: SctpProfileKind,
    pub sides: Ends<SctpSide>,
    /// The client's addresses (the route source towards the primary first).
    pub local_addrs: Vec<Ipv4Addr>,
    /// The server's addresses, primary first.
    pub peer_addrs: Vec<Ipv4Addr>,
    pub source: MessageSource,
    pub sink: MessageSink,
    /// `file`: shut the association down once the whole file is handed over.
    pub shutdown_when_done: bool,
    pub shutdown_sent: bool,
    pub started: bool,
    /// When the application next needs the client (the next paced message), if it does.
    pub app_next: Option<SimTime>,
    /// Per side, the source address to pin for each address the peer may use: the address of
    /// the interface the node's route to it leaves by (host routes, `sim/fib.rs`), computed
    /// once from the topology (routes do not change during a run).
    pub sources: Ends<std::collections::BTreeMap<Ipv4Addr, Ipv4Addr>>,
    /// Packets with DATA chunks the client sent (retransmissions included).
    pub data_packets_sent: u64,
    /// Packets with DATA chunks that reached the server (duplicates included).
    pub data_packets_received: u64,
    /// `sctp.asconf`: the ASCONF actions, in time order.
    pub asconf: Vec<AsconfActionSpec>,
    /// The first action not yet applied.
    pub asconf_next: usize,
    /// `sctp.reconfig_actions`: the stream reconfiguration requests (RFC 6525), in time order.
    pub reconfig: Vec<crate::scenario::ReconfigActionSpec>,
    /// The first of them not yet applied.
    pub reconfig_next: usize,
    /// What a side's association and endpoint emit during one poll, before it becomes IPv4
    /// packets, with the route an A-SCTP path pins it to (kept to reuse its allocation: polls
    /// are per packet).
    pub scratch: Vec<(sctpsim_proto::transport::Transmit, Option<Vec<Ipv4Addr>>)>,
    /// A-SCTP (`sctp.multipath = "asctp"`): the client's path manager.
    asctp: Option<asctp::AsctpPaths>,
    /// An end at a cellular mobile: its addresses, and cSCTP's ASCONFs if `sctp.csctp` is on.
    csctp: Option<csctp::Csctp>,
    /// `CommLost` notifications of either end (`SctpResult::associations_lost`).
    pub associations_lost: u64,
}

impl SctpFlow {
    /// End of the active period for goodput: `stop` (messages) or the end of the run.
    pub fn active_end(&self, end: SimTime) -> SimTime {
        self.source.config().stop.unwrap_or(end).min(end)
    }

    /// The addresses side `side` may add during the run (`add-ip` actions): packets from them
    /// must reach the flow too.
    pub fn asconf_added(&self, side: FlowSide) -> impl Iterator<Item = Ipv4Addr> + '_ {
        self.asconf
            .iter()
            .filter(move |a| a.side == side && a.action == AsconfActionKind::AddIp)
            .map(|a| a.address)
    }

    /// The client's Initial TSN (for TSN rows relative to the first DATA chunk).
    fn initial_tsn(&self) -> u32 {
        self.sides[CLIENT].assoc().map_or(0, |a| a.initial_tsn().0)
    }
}
