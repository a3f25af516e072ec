//! What a connection reports to its owner: outcomes through
//! [`super::TcpConnection::poll_event`], measurements through
//! [`super::TcpConnection::poll_metric`] (as an SCTP association separates `SctpEvent` from its
//! metric stream).

use sctpsim_kernel::SimDuration;

/// An outcome of a connection. Always produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TcpEvent {
    /// The three-way handshake completed (ESTABLISHED).
    Connected,
    /// The peer's FIN arrived: every byte it sent has been delivered to the receive buffer.
    PeerClosed,
    /// The connection reached CLOSED after an orderly close (or a local abort).
    Closed,
    /// The peer reset the connection (RST accepted), or refused it.
    Reset,
    /// The connection gave up after [`super::TcpConfig::max_retransmissions`] timeouts.
    TimedOut,
}

/// A measurement of a connection, only produced with [`super::TcpConfig::metric_events`]: the
/// points of the cwnd, RTT and sequence plots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TcpMetric {
    /// The congestion window or the slow-start threshold changed (bytes).
    CwndChanged {
        /// Congestion window.
        cwnd: u32,
        /// Slow-start threshold.
        ssthresh: u32,
    },
    /// An RTT sample was taken.
    RttSample {
        /// The measurement.
        rtt: SimDuration,
        /// Smoothed RTT after it.
        srtt: SimDuration,
        /// Retransmission timeout after it.
        rto: SimDuration,
    },
    /// The send sequence variables changed (stream offsets: bytes of sequence space since the
    /// ISS, so 1 is the first data byte) — the points of a sequence plot.
    SeqChanged {
        /// Oldest unacknowledged offset.
        snd_una: u64,
        /// Next offset to send (falls back after a timeout).
        snd_nxt: u64,
    },
    /// A fast retransmit started loss recovery.
    FastRetransmit {
        /// The offset retransmitted.
        snd_una: u64,
    },
    /// Loss recovery ended (full acknowledgment).
    RecoveryEnded,
    /// The retransmission timer expired with data outstanding.
    Timeout {
        /// Consecutive timeouts so far.
        count: u32,
    },
}
