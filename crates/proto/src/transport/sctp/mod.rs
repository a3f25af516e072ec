//! SCTP (RFC 9260) as a sans-IO state machine, with multi-homing, RFC 5061 ASCONF (without
//! AUTH), RFC 3758 PR-SCTP timed reliability, and an `rfc2960` profile reproducing what the
//! studies' simulators implemented.
//!
//! * [`SctpEndpoint`]: a local port and addresses and the associations on them (by
//!   [`AssocHandle`]); routes each packet to the association that owns it, answers INIT
//!   statelessly with a State Cookie (MAC + lifespan), turns a valid COOKIE ECHO into an
//!   association, starts associations, answers out-of-the-blue packets (RFC 9260 §5.1, §8.4);
//!   what a packet meant is a [`DatagramEvent`].
//! * [`SctpAssociation`]: one association; every procedure of RFC 9260 from COOKIE-WAIT to
//!   CLOSED.
//! * [`SctpConfig`]: every parameter with its source; [`SctpConfig::rfc9260`] (default) and
//!   [`SctpConfig::rfc2960`].
//! * [`SctpEvent`] notifications, [`Message`]s, [`Transmit`] packets, [`SctpStats`] /
//!   [`PathStats`] counters and the [`MetricEvent`] stream (TSN-vs-time, cwnd, path switches).
//!
//! # Call order (quinn-proto style)
//!
//! 1. Input: every SCTP packet for the endpoint's port goes to
//!    [`SctpEndpoint::handle_datagram`]`(now, src, dst, &bytes)` (or
//!    [`SctpEndpoint::handle_packet`] when already parsed). The endpoint gives it to the
//!    association that owns it or answers it itself, and says which in a [`DatagramEvent`]:
//!    `Association(handle)`, `NewAssociation(handle)` (a valid COOKIE ECHO) or `Response`.
//!    Call [`SctpAssociation::handle_timeout`]`(now)` when [`SctpAssociation::poll_timeout`] is
//!    due. Stale wake-ups are harmless no-ops.
//! 2. Commands, on [`SctpEndpoint::assoc_mut`]`(handle)`: [`SctpAssociation::send`],
//!    [`SctpAssociation::shutdown`], [`SctpAssociation::abort`], options
//!    ([`SctpAssociation::set_primary`], [`SctpAssociation::set_rto`],
//!    [`SctpAssociation::set_path_params`], ...), ASCONF requests
//!    ([`SctpAssociation::add_local_address`], ...). [`SctpEndpoint::connect`] starts one.
//! 3. Output: drain [`SctpAssociation::poll_transmit`]`(now)` until `None`; each [`Transmit`]
//!    is the encoded SCTP packet with the source and destination address the association chose
//!    (RFC 9260 §6.4), for the engine to wrap in IPv4. Then
//!    read [`SctpAssociation::poll_timeout`], drain [`SctpAssociation::poll_event`],
//!    [`SctpAssociation::recv`] and (with [`SctpConfig::metrics`])
//!    [`SctpAssociation::poll_metric`]. The endpoint's own answers come from
//!    [`SctpEndpoint::poll_transmit`].
//!
//! ```
//! use std::net::Ipv4Addr;
//! use sctpsim_kernel::{Rng, SimTime};
//! use sctpsim_proto::transport::sctp::{
//!     DatagramEvent, SctpConfig, SctpEndpoint, SctpEvent, State,
//! };
//!
//! let (a, b) = (Ipv4Addr::new(10, 0, 0, 1), Ipv4Addr::new(10, 0, 0, 2));
//! let mut client_ep = SctpEndpoint::new(SctpConfig::default(), 5000, vec![a], Rng::from_seed(1));
//! let mut server_ep = SctpEndpoint::new(SctpConfig::default(), 80, vec![b], Rng::from_seed(2));
//! server_ep.listen(true);
//! let now = SimTime::ZERO;
//! let client = client_ep.connect(now, &[b], 80);
//! // Every Transmit is an SCTP packet (CRC32c included) for an IPv4 packet from src to dst.
//! let init = client_ep.assoc_mut(client).unwrap().poll_transmit(now).unwrap();   // INIT
//! let ev = server_ep.handle_datagram(now, init.src, init.dst, &init.payload);
//! assert_eq!(ev, Ok(Some(DatagramEvent::Response)));
//! let init_ack = server_ep.poll_transmit().unwrap();                           // INIT ACK
//! client_ep.handle_datagram(now, init_ack.src, init_ack.dst, &init_ack.payload)?;
//! let echo = client_ep.assoc_mut(client).unwrap().poll_transmit(now).unwrap();   // COOKIE ECHO
//! let Some(DatagramEvent::NewAssociation(server)) =
//!     server_ep.handle_datagram(now, echo.src, echo.dst, &echo.payload)?
//! else {
//!     panic!("a valid COOKIE ECHO creates the association");
//! };
//! let ack = server_ep.assoc_mut(server).unwrap().poll_transmit(now).unwrap();    // COOKIE ACK
//! let ev = client_ep.handle_datagram(now, ack.src, ack.dst, &ack.payload)?;
//! assert_eq!(ev, Some(DatagramEvent::Association(client)));
//! let c = client_ep.assoc_mut(client).unwrap();
//! assert_eq!(c.state(), State::Established);
//! assert!(matches!(c.poll_event(), Some(SctpEvent::CommUp { .. })));
//!
//! c.send(now, b"hello".to_vec(), 0, false, None, 0).unwrap();
//! let data = c.poll_transmit(now).unwrap();
//! server_ep.handle_datagram(now, data.src, data.dst, &data.payload)?;
//! assert_eq!(server_ep.assoc_mut(server).unwrap().recv().unwrap().data, b"hello");
//! # Ok::<(), sctpsim_wire::WireError>(())
//! ```
//!
//! Scope, deviations and validation: `docs/models/sctp.md`.

pub mod api;
mod asconf;
pub mod asctp;
mod association;
pub mod auth;
pub mod cmt;
pub mod config;
pub mod congestion;
pub mod cookie;
pub mod coupled;
pub mod csctp;
mod csctp_rx;
mod endpoint;
mod forward_tsn;
pub mod path;
pub mod reconfig;
pub mod recv;
pub mod retransmit;
pub mod scheduler;
pub mod send_queue;
pub mod stats;
pub mod timers;

#[cfg(test)]
mod tests;

/// The packets associations and endpoints emit (shared with TCP).
pub use crate::transport::Transmit;
pub use api::{
    ApiError, AsconfRequestKind, AssociationStatus, LossReason, Message, MessageId, PathState,
    PathStatus, ReconfigRequestKind, SctpEvent, SendError,
};
pub use asconf::{AsconfRequest, AsconfState};
pub use asctp::{AsctpRules, Multipath, PathRoute};
pub use association::state::State;
pub use association::SctpAssociation;
pub use auth::{AuthHmac, AuthParams, AuthState};
pub use cmt::{CmtConfig, CoupledCc, RtxPolicy};
pub use config::{EarlyRetransmit, Fraction, Profile, SctpConfig};
pub use csctp::{CsctpConfig, HandoffRole, HandoffState};
pub use endpoint::{AssocHandle, DatagramEvent, EndpointStats, SctpEndpoint};
pub use reconfig::ReconfigState;
pub use scheduler::{SchedulerKind, StreamScheduler};
pub use stats::{MetricEvent, MetricKind, PathStats, RtxCause, SctpStats, SwitchCause};
pub use timers::Timer;
