//! The connection states of RFC 9293 §3.3.2.

use core::fmt;

/// A TCP connection state (RFC 9293 §3.3.2, figure 5). `Display` prints the RFC name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum State {
    /// "represents no connection state at all".
    Closed,
    /// "waiting for a connection request from any remote TCP peer and port".
    Listen,
    /// "waiting for a matching connection request after having sent a connection request".
    SynSent,
    /// "waiting for a confirming connection request acknowledgment after having both received
    /// and sent a connection request".
    SynReceived,
    /// "an open connection, data received can be delivered to the user".
    Established,
    /// "waiting for a connection termination request from the remote TCP peer, or an
    /// acknowledgment of the connection termination request previously sent".
    FinWait1,
    /// "waiting for a connection termination request from the remote TCP peer".
    FinWait2,
    /// "waiting for a connection termination request from the local user".
    CloseWait,
    /// "waiting for a connection termination request acknowledgment from the remote TCP peer".
    Closing,
    /// "waiting for an acknowledgment of the connection termination request previously sent to
    /// the remote TCP peer".
    LastAck,
    /// "waiting for enough time to pass to be sure the remote TCP peer received the
    /// acknowledgment of its connection termination request".
    TimeWait,
}

impl State {
    /// RFC 9293 §3.3.2: the states after the SYN exchange in which sequence numbers are
    /// synchronized (SYN-RECEIVED onwards).
    pub fn is_synchronized(self) -> bool {
        !matches!(self, State::Closed | State::Listen | State::SynSent)
    }

    /// States in which this endpoint may still send new data (RFC 9293 §3.10.2: SEND is
    /// allowed in ESTABLISHED and CLOSE-WAIT).
    pub fn can_send(self) -> bool {
        matches!(self, State::Established | State::CloseWait)
    }

    /// States in which received data is delivered (RFC 9293 §3.10.7.4, seventh: ESTABLISHED,
    /// FIN-WAIT-1 and FIN-WAIT-2).
    pub fn can_receive(self) -> bool {
        matches!(
            self,
            State::SynReceived | State::Established | State::FinWait1 | State::FinWait2
        )
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            State::Closed => "CLOSED",
            State::Listen => "LISTEN",
            State::SynSent => "SYN-SENT",
            State::SynReceived => "SYN-RECEIVED",
            State::Established => "ESTABLISHED",
            State::FinWait1 => "FIN-WAIT-1",
            State::FinWait2 => "FIN-WAIT-2",
            State::CloseWait => "CLOSE-WAIT",
            State::Closing => "CLOSING",
            State::LastAck => "LAST-ACK",
            State::TimeWait => "TIME-WAIT",
        })
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn rfc_names() {
        assert_eq!(State::SynReceived.to_string(), "SYN-RECEIVED");
        assert_eq!(State::FinWait2.to_string(), "FIN-WAIT-2");
        assert!(State::TimeWait.is_synchronized());
        assert!(!State::SynSent.is_synchronized());
        assert!(State::CloseWait.can_send() && !State::CloseWait.can_receive());
    }
}
