//! The applications the studies run over TCP (DESIGN.md §4): a backlogged FTP source and a
//! file of N bytes. Both are synthetic streams (`transport::tcp::backlog_byte`) that cost no memory;
//! the receiving side is a sink that discards what arrives
//! ([`TcpConnection::discard_received`]) and counts it
//! ([`crate::transport::tcp::TcpStats::bytes_delivered`]). They live with the other applications
//! (`app/`), driving a connection through its public API only.

use crate::transport::tcp::TcpConnection;

/// What the sending application does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TcpApplication {
    /// ns-2 `Application/FTP` with `start` and no `stop`: always has data (DESIGN.md §4
    /// "backlogged FTP"); the connection never closes by itself.
    BulkFtp,
    /// A file of `bytes` bytes, followed by a FIN.
    File {
        /// Size of the file.
        bytes: u64,
    },
}

impl TcpApplication {
    /// Hands the application's data to `conn` (call it once, at the application's start
    /// time; before the handshake completes the data waits for ESTABLISHED).
    pub fn start(&self, conn: &mut TcpConnection) {
        match *self {
            TcpApplication::BulkFtp => conn.send_backlogged(None),
            TcpApplication::File { bytes } => {
                conn.send_backlogged(Some(bytes));
                conn.close();
            }
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::transport::tcp::{State, TcpConfig};
    use sctpsim_kernel::SimTime;
    use sctpsim_wire::TcpSeqNumber;
    use std::net::{Ipv4Addr, SocketAddrV4};

    const A: SocketAddrV4 = SocketAddrV4::new(Ipv4Addr::new(10, 0, 0, 1), 1);
    const B: SocketAddrV4 = SocketAddrV4::new(Ipv4Addr::new(10, 0, 0, 2), 2);

    #[test]
    fn file_ends_with_fin_and_ftp_never_does() {
        let mut file = TcpConnection::new_client(TcpConfig::rfc(), A, B, TcpSeqNumber(0));
        TcpApplication::File { bytes: 10 }.start(&mut file);
        assert_eq!(file.state(), State::SynSent);
        assert!(!file.all_acked());
        let mut ftp = TcpConnection::new_client(TcpConfig::rfc(), A, B, TcpSeqNumber(0));
        TcpApplication::BulkFtp.start(&mut ftp);
        assert!(ftp.poll_transmit(SimTime::ZERO, 1460).is_some());
    }
}
