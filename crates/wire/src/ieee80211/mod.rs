//! IEEE 802.11 MAC frames (IEEE Std 802.11-2020 Clause 9): the frame view [`Ieee80211Frame`],
//! the frame control word [`FrameControl`], the parsed/emittable [`FrameRepr`] (data, RTS, CTS,
//! ACK and the management frames an infrastructure or ad hoc network needs), the LLC/SNAP
//! header that carries IPv4 inside data frames ([`llc`]) and the frame check sequence
//! (IEEE CRC-32, [`crate::crc32`]).
//!
//! ```text
//! MAC header (§9.2.3, Figure 9-1), little-endian fields:
//!  octets: 2        2          6      6      6      2         6      0-7951  4
//!        +--------+----------+------+------+------+---------+------+-------+-----+
//!        | Frame  | Duration | Addr | Addr | Addr | Sequence| Addr | Frame | FCS |
//!        | Control| /ID      |  1   |  2   |  3   | Control |  4   | Body  |     |
//!        +--------+----------+------+------+------+---------+------+-------+-----+
//! ACK and CTS stop after Address 1; RTS after Address 2; Address 4 only when both ToDS and
//! FromDS are set (not produced by this simulator).
//! ```
//!
//! Every frame this module emits carries a real FCS; [`FrameRepr::parse`] rejects a frame whose
//! FCS does not verify with [`crate::WireError::BadChecksum`]. Nothing here panics on frame
//! content.
//!
//! Checking a capture with tshark (Wireshark 4.0 preference names): LINKTYPE_IEEE802_11 (105)
//! does not say whether frames end in an FCS, so tell the dissector:
//!
//! ```text
//! tshark -r f.pcap -o wlan.check_fcs:TRUE -o wlan.check_checksum:TRUE \
//!        -Y '_ws.malformed || _ws.expert.severity >= error || wlan.fcs.status == "Bad"'
//! ```
//!
//! `wlan.check_fcs` is the preference titled "Assume packets have FCS"; `wlan.check_checksum`
//! is "Validate the FCS checksum if possible".

mod addr;
mod elements;
mod frame;
mod frame_control;
pub mod llc;
mod mgmt;
mod repr;

pub use addr::MacAddr;
pub use elements::{ElementId, Elements};
pub use frame::{Ieee80211Frame, SeqControl, FCS_LEN};
pub use frame_control::{FrameControl, FrameKind, FrameType};
pub use llc::{LlcSnapPacket, LlcSnapRepr, ETHERTYPE_IPV4};
pub use mgmt::{
    capability, reason, status, AssocReqBody, AssocRespBody, AuthBody, BeaconBody, MgmtBody,
    MgmtRepr, ReassocReqBody, AUTH_OPEN_SYSTEM,
};
pub use repr::{data_frame, AckRepr, CtsRepr, DataRepr, FrameRepr, RtsRepr};

/// Length of the MAC header of a data or management frame without Address 4 (§9.3.2.1,
/// §9.3.3.2): Frame Control 2, Duration 2, three addresses 18, Sequence Control 2.
pub const HEADER_LEN_3ADDR: usize = 24;

/// Length of an ACK or CTS frame including its FCS (§9.3.1.3, §9.3.1.4): 14 octets.
pub const ACK_LEN: usize = 14;

/// Length of a CTS frame including its FCS (§9.3.1.3): 14 octets.
pub const CTS_LEN: usize = 14;

/// Length of an RTS frame including its FCS (§9.3.1.2): 20 octets.
pub const RTS_LEN: usize = 20;

/// Overhead of a data frame carrying an LLC/SNAP-encapsulated packet: 24 octets of MAC header,
/// 8 of LLC/SNAP and 4 of FCS (36 octets).
pub const DATA_OVERHEAD: usize = HEADER_LEN_3ADDR + llc::HEADER_LEN + FCS_LEN;

/// Little-endian field access (802.11 fields are little-endian, §9.2.2). Callers check lengths.
mod le {
    pub(crate) fn read_u16(data: &[u8], at: usize) -> u16 {
        u16::from_le_bytes([data[at], data[at + 1]])
    }

    pub(crate) fn write_u16(data: &mut [u8], at: usize, value: u16) {
        data[at..at + 2].copy_from_slice(&value.to_le_bytes());
    }

    pub(crate) fn read_u64(data: &[u8], at: usize) -> u64 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&data[at..at + 8]);
        u64::from_le_bytes(b)
    }
}

/// Entry point for a fuzz target: views `data` as an 802.11 frame (with FCS), touches every
/// accessor, parses it and, for data frames, the LLC/SNAP header inside. Errors are ignored;
/// the only failure a fuzzer can find here is a panic.
pub fn fuzz_parse_ieee80211(data: &[u8]) {
    let unchecked = Ieee80211Frame::new_unchecked(data);
    let _ = (unchecked.body(), unchecked.fcs(), unchecked.verify_fcs());
    let _ = FrameRepr::parse(&unchecked);
    let Ok(frame) = Ieee80211Frame::new_checked(data) else {
        return;
    };
    let _ = (
        frame.frame_control(),
        frame.duration_id(),
        frame.addr1(),
        frame.addr2(),
        frame.addr3(),
        frame.seq_control(),
        frame.header_len(),
        frame.body(),
        frame.fcs(),
        frame.verify_fcs(),
    );
    if let Ok(repr) = FrameRepr::parse(&frame) {
        let len = repr.buffer_len();
        let mut buf = vec![0u8; len];
        repr.emit(&mut buf);
        if let FrameRepr::Data(_, body) = repr {
            if let Ok(llc) = LlcSnapPacket::new_checked(body) {
                let _ = (LlcSnapRepr::parse(&llc), llc.payload());
            }
        }
    }
}

#[cfg(test)]
mod tests;
