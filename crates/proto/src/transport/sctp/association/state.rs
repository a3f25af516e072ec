//! The association states of RFC 9260 §4 (figure 3).

use core::fmt;

/// An SCTP association state (RFC 9260 §4). `Display` prints the RFC name.
///
/// The listening endpoint has no per-association state (RFC 9260 §5.1: an INIT creates no TCB;
/// see [`crate::transport::sctp::SctpEndpoint`]), so there is no LISTEN state here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum State {
    /// "CLOSED": no association (never established, aborted, or shut down).
    Closed,
    /// "COOKIE-WAIT": INIT sent, waiting for the INIT ACK (T1-init running).
    CookieWait,
    /// "COOKIE-ECHOED": COOKIE ECHO sent, waiting for the COOKIE ACK (T1-cookie running).
    CookieEchoed,
    /// "ESTABLISHED": data flows both ways.
    Established,
    /// "SHUTDOWN-PENDING": the user asked for a shutdown; outstanding data is still being
    /// sent and acknowledged.
    ShutdownPending,
    /// "SHUTDOWN-SENT": SHUTDOWN sent (T2-shutdown running); no new data is sent.
    ShutdownSent,
    /// "SHUTDOWN-RECEIVED": the peer sent SHUTDOWN; our outstanding data is still being
    /// acknowledged.
    ShutdownReceived,
    /// "SHUTDOWN-ACK-SENT": SHUTDOWN ACK sent, waiting for SHUTDOWN COMPLETE.
    ShutdownAckSent,
}

impl State {
    /// The RFC's name of the state.
    pub fn name(self) -> &'static str {
        match self {
            State::Closed => "CLOSED",
            State::CookieWait => "COOKIE-WAIT",
            State::CookieEchoed => "COOKIE-ECHOED",
            State::Established => "ESTABLISHED",
            State::ShutdownPending => "SHUTDOWN-PENDING",
            State::ShutdownSent => "SHUTDOWN-SENT",
            State::ShutdownReceived => "SHUTDOWN-RECEIVED",
            State::ShutdownAckSent => "SHUTDOWN-ACK-SENT",
        }
    }

    /// The handshake completed and the association has not yet reached CLOSED.
    pub fn is_established_or_closing(self) -> bool {
        matches!(
            self,
            State::Established
                | State::ShutdownPending
                | State::ShutdownSent
                | State::ShutdownReceived
                | State::ShutdownAckSent
        )
    }

    /// RFC 9260 §6 / §9.2: new data from the user is accepted (queued before ESTABLISHED, as
    /// RFC 9260 §5.1 allows DATA to be bundled with the COOKIE ECHO).
    pub fn accepts_user_data(self) -> bool {
        matches!(
            self,
            State::CookieWait | State::CookieEchoed | State::Established
        )
    }

    /// RFC 9260 §6.1 / §9.2: DATA may be (re)transmitted: from COOKIE-ECHOED (bundled with the
    /// COOKIE ECHO) until all outstanding data is acknowledged in the shutdown states.
    pub fn may_send_data(self) -> bool {
        matches!(
            self,
            State::CookieEchoed
                | State::Established
                | State::ShutdownPending
                | State::ShutdownReceived
        )
    }

    /// Incoming DATA is processed (RFC 9260 §6.2; in SHUTDOWN-SENT the peer may still be
    /// sending its outstanding data, §9.2).
    pub fn receives_data(self) -> bool {
        matches!(
            self,
            State::Established | State::ShutdownPending | State::ShutdownSent
        )
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
