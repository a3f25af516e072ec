//! DSDV routing updates (Perkins & Bhagwat, SIGCOMM 1994), in the wire format of ns-3's `dsdv`
//! module (`src/dsdv/model/dsdv-packet.{h,cc}`, `DsdvHeader`).
//!
//! The paper defines what an update carries — per destination its address, the metric (hop
//! count) and the destination's sequence number (§"Protocol overview") — but no byte layout. ns-3
//! sends the entries back to back as the whole payload of a UDP datagram to port 269, one
//! 12-byte record each, big-endian:
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                     Destination IPv4 address                  |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                           Hop count                           |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |                  Destination sequence number                  |
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! ```
//!
//! There is no message header: the receiver takes 12-byte records until the payload ends
//! (`RoutingProtocol::RecvDsdv`). A payload whose length is not a multiple of 12 is malformed
//! here ([`WireError::Truncated`] for the last, partial record); ns-3 never sends one.

use crate::WireError;
use std::net::Ipv4Addr;

/// ns-3 `dsdv-routing-protocol.cc`: `RoutingProtocol::DSDV_PORT = 269`.
pub const UDP_PORT: u16 = 269;

/// ns-3 `DsdvHeader::GetSerializedSize`: 12 bytes per entry.
pub const ENTRY_LEN: usize = 12;

/// One advertised route.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DsdvEntry {
    /// The destination.
    pub dst: Ipv4Addr,
    /// Hops from the sender of the update to `dst` (the sender's own metric plus one, as ns-3
    /// advertises it; the receiver stores it as is).
    pub hop_count: u32,
    /// The destination's sequence number: even when the destination originated it, odd when a
    /// node advertises the route as broken (paper §"Responding to topology changes").
    pub seq_no: u32,
}

impl DsdvEntry {
    /// Whether the sequence number marks a broken route (odd, metric ∞).
    pub fn is_broken(&self) -> bool {
        self.seq_no % 2 == 1
    }
}

/// A DSDV update: the list of entries that make up a UDP payload.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DsdvRepr {
    /// The entries, in wire order.
    pub entries: Vec<DsdvEntry>,
}

impl DsdvRepr {
    /// Parses a UDP payload. An empty payload is an empty update; a trailing partial record
    /// is [`WireError::Truncated`].
    pub fn parse(data: &[u8]) -> Result<DsdvRepr, WireError> {
        if !data.len().is_multiple_of(ENTRY_LEN) {
            return Err(WireError::Truncated);
        }
        let u32_at =
            |c: &[u8], at: usize| u32::from_be_bytes([c[at], c[at + 1], c[at + 2], c[at + 3]]);
        let entries = data
            .chunks_exact(ENTRY_LEN)
            .map(|c| DsdvEntry {
                dst: Ipv4Addr::new(c[0], c[1], c[2], c[3]),
                hop_count: u32_at(c, 4),
                seq_no: u32_at(c, 8),
            })
            .collect();
        Ok(DsdvRepr { entries })
    }

    /// Bytes [`DsdvRepr::emit`] writes.
    pub fn buffer_len(&self) -> usize {
        self.entries.len() * ENTRY_LEN
    }

    /// Writes the entries into `buf`; returns the length written, or
    /// [`WireError::Truncated`] if `buf` is shorter than [`DsdvRepr::buffer_len`].
    pub fn emit(&self, buf: &mut [u8]) -> Result<usize, WireError> {
        let len = self.buffer_len();
        let out = buf.get_mut(..len).ok_or(WireError::Truncated)?;
        for (e, c) in self.entries.iter().zip(out.chunks_exact_mut(ENTRY_LEN)) {
            c[0..4].copy_from_slice(&e.dst.octets());
            c[4..8].copy_from_slice(&e.hop_count.to_be_bytes());
            c[8..12].copy_from_slice(&e.seq_no.to_be_bytes());
        }
        Ok(len)
    }

    /// The encoded payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut buf = vec![0; self.buffer_len()];
        // Cannot fail: the buffer has exactly buffer_len() bytes.
        let _ = self.emit(&mut buf);
        buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two entries assembled by hand in ns-3's layout (`DsdvHeader::Serialize`).
    const TWO: [u8; 24] = [
        10, 1, 0, 7, 0, 0, 0, 1, 0, 0, 0, 4, // 10.1.0.7, 1 hop, seqno 4
        10, 1, 0, 9, 0, 0, 0, 3, 0, 0, 1, 1, // 10.1.0.9, 3 hops, seqno 257 (broken)
    ];

    #[test]
    fn parse_hand_assembled_bytes() {
        let r = DsdvRepr::parse(&TWO).unwrap();
        assert_eq!(
            r.entries,
            vec![
                DsdvEntry {
                    dst: Ipv4Addr::new(10, 1, 0, 7),
                    hop_count: 1,
                    seq_no: 4
                },
                DsdvEntry {
                    dst: Ipv4Addr::new(10, 1, 0, 9),
                    hop_count: 3,
                    seq_no: 257
                },
            ]
        );
        assert!(!r.entries[0].is_broken());
        assert!(r.entries[1].is_broken());
        assert_eq!(r.to_bytes(), TWO.to_vec());
        assert_eq!(r.buffer_len(), 24);
    }

    #[test]
    fn empty_payload_is_empty_update() {
        assert_eq!(DsdvRepr::parse(&[]).unwrap(), DsdvRepr::default());
    }

    #[test]
    fn every_partial_record_is_truncated() {
        for n in 1..TWO.len() {
            let r = DsdvRepr::parse(&TWO[..n]);
            if n % ENTRY_LEN == 0 {
                assert_eq!(r.unwrap().entries.len(), n / ENTRY_LEN);
            } else {
                assert_eq!(r, Err(WireError::Truncated), "prefix {n}");
            }
        }
    }

    #[test]
    fn emit_refuses_short_buffer() {
        let r = DsdvRepr::parse(&TWO).unwrap();
        let mut buf = [0u8; 23];
        assert_eq!(r.emit(&mut buf), Err(WireError::Truncated));
        let mut buf = [0u8; 30];
        assert_eq!(r.emit(&mut buf), Ok(24));
        assert_eq!(&buf[..24], &TWO);
    }

    proptest::proptest! {
        /// No panic on any bytes; whatever parses emits back to the same bytes.
        #[test]
        fn no_panic_and_round_trip(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..100)) {
            match DsdvRepr::parse(&bytes) {
                Ok(r) => proptest::prop_assert_eq!(r.to_bytes(), bytes),
                Err(e) => {
                    proptest::prop_assert_eq!(e, WireError::Truncated);
                    proptest::prop_assert_ne!(bytes.len() % ENTRY_LEN, 0);
                }
            }
        }

        /// Any list of entries round-trips.
        #[test]
        fn entries_round_trip(raw in proptest::collection::vec(proptest::prelude::any::<(u32, u32, u32)>(), 0..20)) {
            let r = DsdvRepr {
                entries: raw
                    .iter()
                    .map(|&(a, h, s)| DsdvEntry { dst: Ipv4Addr::from(a), hop_count: h, seq_no: s })
                    .collect(),
            };
            proptest::prop_assert_eq!(DsdvRepr::parse(&r.to_bytes()), Ok(r));
        }
    }
}
