//! The application interface, in the spirit of the SCTP sockets API (RFC 6458) and the abstract
//! primitives of RFC 9260 §11.1: messages in ([`super::SctpAssociation::send`]) and out
//! ([`Message`] from [`super::SctpAssociation::recv`]), notifications as [`SctpEvent`]s, and the
//! packets an association or endpoint emits ([`Transmit`], encoded from an `OutPacket`).

use std::net::Ipv4Addr;

use sctpsim_kernel::SimDuration;
use sctpsim_wire::sctp::{ErrorCause, SctpRepr, Ssn};
use sctpsim_wire::WireError;

use super::association::state::State;
use crate::transport::Transmit;

/// A packet an association or endpoint has built but not yet encoded: the association chose
/// the destination path and the source address of that path (RFC 9260 §6.4). `poll_transmit`
/// encodes it into a [`Transmit`] (the SCTP packet with its CRC32c).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OutPacket {
    /// The path it was built for (its key, `None` for replies and the endpoint's answers).
    pub path: Option<Ipv4Addr>,
    /// Source IPv4 address.
    pub src: Ipv4Addr,
    /// Destination IPv4 address.
    pub dst: Ipv4Addr,
    /// The SCTP packet (common header and chunks).
    pub packet: SctpRepr,
}

impl OutPacket {
    /// The packet as it goes on the wire, CRC32c included.
    ///
    /// Errors: [`WireError::Malformed`] if a chunk cannot be encoded (a chunk or parameter
    /// longer than its 16-bit length field); packets built by the association and the endpoint
    /// stay far below that.
    pub(crate) fn encode(self) -> Result<Transmit, WireError> {
        self.encode_on_path().map(|(t, _)| t)
    }

    /// [`OutPacket::encode`], with the key of the path it was built for.
    pub(crate) fn encode_on_path(self) -> Result<(Transmit, Option<Ipv4Addr>), WireError> {
        let mut payload = vec![0u8; self.packet.buffer_len()];
        let n = self.packet.emit(&mut payload)?;
        payload.truncate(n);
        Ok((
            Transmit {
                src: self.src,
                dst: self.dst,
                payload,
            },
            self.path,
        ))
    }
}

/// Identifies a message accepted by [`super::SctpAssociation::send`], for matching
/// [`SctpEvent::SendFailed`] notifications.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MessageId(pub u64);

/// Why [`super::SctpAssociation::send`] refused a message (RFC 9260 §11.1 E error returns).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SendError {
    /// The association is closed (aborted, shut down or never established).
    Closed,
    /// A shutdown is in progress: RFC 9260 §9.2, no new data from the upper layer.
    ShuttingDown,
    /// The stream does not exist (at or above the negotiated number of outbound streams).
    InvalidStream {
        /// The stream requested.
        stream: u16,
    },
    /// An empty message: RFC 9260 §6.2 forbids DATA chunks without user data.
    Empty,
    /// The message needs fragmentation and fragmentation is off.
    TooLarge,
    /// The send buffer cannot take the message now.
    BufferFull,
}

impl core::fmt::Display for SendError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SendError::Closed => write!(f, "the association is closed"),
            SendError::ShuttingDown => write!(f, "the association is shutting down"),
            SendError::InvalidStream { stream } => write!(f, "no outbound stream {stream}"),
            SendError::Empty => write!(f, "empty message"),
            SendError::TooLarge => write!(f, "message too large and fragmentation is off"),
            SendError::BufferFull => write!(f, "send buffer full"),
        }
    }
}

impl std::error::Error for SendError {}

/// A user message delivered by [`super::SctpAssociation::recv`] (RFC 9260 §11.1 I RECEIVE).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Stream identifier.
    pub stream: u16,
    /// Stream sequence number (meaningless for unordered messages; with I-DATA, RFC 8260, the
    /// low 16 bits of the Message Identifier).
    pub ssn: Ssn,
    /// Payload protocol identifier.
    pub ppid: u32,
    /// Delivered without regard to stream order (U bit).
    pub unordered: bool,
    /// The user data, reassembled.
    pub data: Vec<u8>,
}

/// Why an association ended without a graceful shutdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LossReason {
    /// The peer sent an ABORT, with these error causes.
    PeerAbort {
        /// The causes carried by the ABORT.
        causes: Vec<ErrorCause>,
    },
    /// The local user aborted ([`super::SctpAssociation::abort`]).
    LocalAbort,
    /// Association.Max.Retrans consecutive failures: the peer is unreachable (RFC 9260 §8.1).
    MaxRetransmissions,
    /// INIT or COOKIE ECHO retransmitted Max.Init.Retransmits times without answer
    /// (RFC 9260 §5.1 C).
    InitFailed,
    /// The T5-shutdown-guard timer expired (RFC 9260 §9.2).
    ShutdownGuardExpired,
    /// The association aborted because the peer violated the protocol (the ABORT it sent
    /// carries this cause).
    ProtocolViolation {
        /// The cause sent in the ABORT.
        cause: ErrorCause,
    },
}

/// The outcome of an ASCONF request (RFC 5061), reported by [`SctpEvent::AsconfResult`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AsconfRequestKind {
    /// RFC 5061 §4.2.1 Add IP Address.
    AddIp,
    /// RFC 5061 §4.2.2 Delete IP Address.
    DeleteIp,
    /// RFC 5061 §4.2.4 Set Primary Address.
    SetPrimary,
}

/// A stream reconfiguration request (RFC 6525 §4.1–4.6), as reported by
/// [`SctpEvent::ReconfigResult`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReconfigRequestKind {
    /// RFC 6525 §4.1 / §5.1.2: reset our outgoing streams.
    ResetOutgoing,
    /// RFC 6525 §4.2 / §5.1.3: ask the peer to reset its outgoing streams (our incoming).
    ResetIncoming,
    /// RFC 6525 §4.3 / §5.1.4: reset every SSN and the TSNs in both directions.
    ResetSsnTsn,
    /// RFC 6525 §4.5 / §5.1.5: add outgoing streams.
    AddOutgoing,
    /// RFC 6525 §4.6 / §5.1.6: ask the peer to add its outgoing streams (our incoming).
    AddIncoming,
}

impl ReconfigRequestKind {
    /// A short name for results and logs.
    pub fn name(self) -> &'static str {
        match self {
            ReconfigRequestKind::ResetOutgoing => "reset-outgoing",
            ReconfigRequestKind::ResetIncoming => "reset-incoming",
            ReconfigRequestKind::ResetSsnTsn => "reset-ssn-tsn",
            ReconfigRequestKind::AddOutgoing => "add-outgoing",
            ReconfigRequestKind::AddIncoming => "add-incoming",
        }
    }
}

/// A notification (RFC 6458 §6.1, RFC 9260 §11.2). Metric samples are not events: see
/// [`super::MetricEvent`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SctpEvent {
    /// SCTP_COMM_UP: the association reached ESTABLISHED.
    CommUp {
        /// Negotiated outbound streams.
        outbound_streams: u16,
        /// Negotiated inbound streams.
        inbound_streams: u16,
    },
    /// SCTP_RESTART: the peer restarted the association (RFC 9260 §5.2.4 action A).
    Restart,
    /// SCTP_COMM_LOST / SCTP_CANT_STR_ASSOC: the association is CLOSED without a graceful
    /// shutdown.
    CommLost {
        /// Why.
        reason: LossReason,
        /// Messages never sent or never acknowledged, now discarded.
        undelivered_messages: u64,
    },
    /// SCTP_SHUTDOWN_EVENT: the peer sent SHUTDOWN; no more data will arrive.
    PeerShutdown,
    /// SCTP_SHUTDOWN_COMP: the graceful shutdown finished; the association is CLOSED.
    ShutdownComplete,
    /// SCTP_PEER_ADDR_CHANGE (SCTP_ADDR_AVAILABLE): a destination became active (HEARTBEAT ACK
    /// or acknowledged data after being inactive or unconfirmed).
    PathUp {
        /// The destination address.
        addr: Ipv4Addr,
    },
    /// SCTP_PEER_ADDR_CHANGE (SCTP_ADDR_UNREACHABLE): the error counter of a destination
    /// exceeded Path.Max.Retrans (RFC 9260 §8.2).
    PathDown {
        /// The destination address.
        addr: Ipv4Addr,
    },
    /// SCTP_PEER_ADDR_CHANGE (SCTP_ADDR_ADDED): a peer address was added (ASCONF).
    PathAdded {
        /// The destination address.
        addr: Ipv4Addr,
    },
    /// SCTP_PEER_ADDR_CHANGE (SCTP_ADDR_REMOVED): a peer address was deleted (ASCONF).
    PathRemoved {
        /// The destination address.
        addr: Ipv4Addr,
    },
    /// SCTP_PEER_ADDR_CHANGE (SCTP_ADDR_MADE_PRIM): the primary path changed, by the local
    /// user or by the peer's Set Primary Address request.
    PrimaryChanged {
        /// The new primary destination.
        addr: Ipv4Addr,
    },
    /// SCTP_SEND_FAILED_EVENT: a message was abandoned (its lifetime expired, RFC 3758) or
    /// discarded.
    SendFailed {
        /// The message.
        id: MessageId,
        /// Its stream.
        stream: u16,
        /// Its length in bytes.
        len: usize,
        /// Whether no part of it had been transmitted (SCTP_DATA_UNSENT) or some had
        /// (SCTP_DATA_SENT).
        unsent: bool,
    },
    /// SCTP_REMOTE_ERROR: the peer sent an ERROR chunk.
    RemoteError {
        /// The causes it carried.
        causes: Vec<ErrorCause>,
    },
    /// An ASCONF request of ours was answered (RFC 5061 §5.3).
    AsconfResult {
        /// What was requested.
        kind: AsconfRequestKind,
        /// For which address.
        addr: Ipv4Addr,
        /// Whether the peer accepted it.
        success: bool,
    },
    /// A stream reconfiguration request of ours was answered (RFC 6525 §5.1; the
    /// SCTP_STREAM_RESET_EVENT / SCTP_STREAM_CHANGE_EVENT of RFC 6525 §6.1.1–6.1.3).
    ReconfigResult {
        /// What was requested.
        kind: ReconfigRequestKind,
        /// The streams it named (empty: all; add requests: none).
        streams: Vec<u16>,
        /// The peer's answer. "In progress" is not final and is not reported.
        result: sctpsim_wire::sctp::ReconfigResult,
    },
    /// The peer's request changed our streams (RFC 6525 §5.2): `inbound` streams were reset
    /// (their SSNs start at 0 again), or streams were added.
    StreamsChanged {
        /// Which request of the peer did it.
        kind: ReconfigRequestKind,
        /// The streams reset (empty: all, or an add).
        streams: Vec<u16>,
        /// Inbound and outbound stream counts after the change.
        inbound_streams: u16,
        /// Outbound stream count after the change.
        outbound_streams: u16,
    },
    /// cSCTP (Aydin & Shen §II, Fig. 3): this end's handoff state machine changed state.
    Handoff {
        /// `true`: Normal → Handoff; `false`: Handoff → Normal.
        started: bool,
        /// Which state machine: the mobile node's (it sent the handoff indication) or the
        /// correspondent node's (it received it).
        role: super::csctp::HandoffRole,
    },
    /// SCTP_DATA_IO_EVENT-like: at least one message is ready for
    /// [`super::SctpAssociation::recv`].
    Readable,
}

/// The reachability state of a destination (RFC 9260 §8.2, §5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PathState {
    /// Reachable (SCTP_ACTIVE).
    Active,
    /// Error counter above Path.Max.Retrans (SCTP_INACTIVE).
    Inactive,
    /// Not yet confirmed by a HEARTBEAT ACK (SCTP_UNCONFIRMED, RFC 9260 §5.4).
    Unconfirmed,
}

/// A snapshot of one destination (RFC 9260 §11.1 O STATUS, RFC 6458 SCTP_GET_PEER_ADDR_INFO).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathStatus {
    /// The destination address (the path's key: an A-SCTP alias key for a further route to
    /// `wire`).
    pub addr: Ipv4Addr,
    /// The peer address packets on this path go to.
    pub wire: Ipv4Addr,
    /// A-SCTP: the path's route as the path manager reported it.
    pub route: super::asctp::PathRoute,
    /// The local address used as source towards it.
    pub source: Ipv4Addr,
    /// Reachability.
    pub state: PathState,
    /// Congestion window, bytes.
    pub cwnd: u32,
    /// Slow-start threshold, bytes.
    pub ssthresh: u32,
    /// partial_bytes_acked, bytes.
    pub partial_bytes_acked: u32,
    /// Bytes in flight to it.
    pub flight_size: u32,
    /// Smoothed RTT, if measured.
    pub srtt: Option<SimDuration>,
    /// Current RTO (backed off).
    pub rto: SimDuration,
    /// Consecutive-error counter.
    pub error_count: u32,
    /// Path MTU, bytes.
    pub pmtu: u16,
}

/// A snapshot of the association (RFC 9260 §11.1 O STATUS, RFC 6458 SCTP_STATUS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssociationStatus {
    /// Current state.
    pub state: State,
    /// The peer's receive window as last computed by the sender (bytes).
    pub peer_rwnd: u32,
    /// Our advertised receive window (bytes).
    pub local_rwnd: u32,
    /// Sent but unacknowledged DATA chunks.
    pub unacked_chunks: usize,
    /// Messages queued but not yet given TSNs.
    pub pending_messages: usize,
    /// Negotiated outbound streams.
    pub outbound_streams: u16,
    /// Negotiated inbound streams.
    pub inbound_streams: u16,
    /// Primary destination.
    pub primary: Ipv4Addr,
    /// The destination new data currently goes to.
    pub current_path: Ipv4Addr,
    /// Every destination.
    pub paths: Vec<PathStatus>,
}

/// Why an association option or command other than `send` was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ApiError {
    /// The address is not one of the association's (peer or local, as the call requires).
    UnknownAddress,
    /// The address is already part of the association.
    AddressExists,
    /// Removing it would leave no address.
    LastAddress,
    /// The extension is not negotiated with the peer (ASCONF, PR-SCTP).
    NotSupported,
    /// Not possible in the current state.
    InvalidState,
    /// A value out of range (an MTU too small, RTO.Min above RTO.Max, ...).
    InvalidValue,
}

impl core::fmt::Display for ApiError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let s = match self {
            ApiError::UnknownAddress => "unknown address",
            ApiError::AddressExists => "address already in the association",
            ApiError::LastAddress => "cannot remove the last address",
            ApiError::NotSupported => "extension not negotiated",
            ApiError::InvalidState => "not possible in this state",
            ApiError::InvalidValue => "invalid value",
        };
        f.write_str(s)
    }
}

impl std::error::Error for ApiError {}
