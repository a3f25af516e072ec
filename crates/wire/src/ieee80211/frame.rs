//! A read/write view of one 802.11 MPDU including its FCS (IEEE Std 802.11-2020 §9.2).

use super::addr::MacAddr;
use super::frame_control::{FrameControl, FrameKind, FrameType};
use super::le::{read_u16, write_u16};
use crate::crc32::crc32;
use crate::{Result, WireError};

/// Length of the FCS field (§9.2.4.8): 4 octets.
pub const FCS_LEN: usize = 4;

/// The shortest frame: Frame Control, Duration, Address 1 (ACK and CTS, §9.3.1.3–4).
const MIN_HEADER_LEN: usize = 10;

/// Byte ranges of the MAC header fields (§9.2.3).
mod field {
    pub(crate) type Field = core::ops::Range<usize>;

    pub(crate) const FRAME_CONTROL: Field = 0..2;
    pub(crate) const DURATION: Field = 2..4;
    pub(crate) const ADDR1: Field = 4..10;
    pub(crate) const ADDR2: Field = 10..16;
    pub(crate) const ADDR3: Field = 16..22;
    pub(crate) const SEQ_CONTROL: Field = 22..24;
    pub(crate) const ADDR4: Field = 24..30;
}

/// The Sequence Control field (§9.2.4.4): a 12-bit sequence number and a 4-bit fragment
/// number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SeqControl {
    /// Sequence number, 0–4095 (§9.2.4.4.2); higher bits are dropped on emission.
    pub seq: u16,
    /// Fragment number, 0–15 (§9.2.4.4.3).
    pub frag: u8,
}

impl SeqControl {
    /// From the little-endian field value.
    pub const fn from_raw(raw: u16) -> SeqControl {
        SeqControl {
            seq: raw >> 4,
            frag: (raw & 0xf) as u8,
        }
    }

    /// The field value.
    pub const fn to_raw(self) -> u16 {
        ((self.seq & 0x0fff) << 4) | (self.frag as u16 & 0xf)
    }
}

/// A read/write view of an 802.11 frame (MAC header, body, FCS) in a buffer.
///
/// Build it with [`Ieee80211Frame::new_checked`] for bytes from the air: afterwards every
/// accessor is safe (addresses a frame of this kind does not have read as `None`). With
/// [`Ieee80211Frame::new_unchecked`] the header accessors panic on buffers shorter than the
/// field they touch; [`Ieee80211Frame::body`], [`Ieee80211Frame::fcs`] and
/// [`Ieee80211Frame::verify_fcs`] never panic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ieee80211Frame<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> Ieee80211Frame<T> {
    /// Wraps a buffer without checking it; see [`Ieee80211Frame::check_len`].
    pub const fn new_unchecked(buffer: T) -> Self {
        Ieee80211Frame { buffer }
    }

    /// Wraps a buffer after [`Ieee80211Frame::check_len`] accepted it.
    pub fn new_checked(buffer: T) -> Result<Self> {
        let frame = Self::new_unchecked(buffer);
        frame.check_len()?;
        Ok(frame)
    }

    /// Checks that the buffer holds the MAC header that the Frame Control field announces plus
    /// an FCS ([`WireError::Truncated`]) and that the protocol version is 0
    /// ([`WireError::Malformed`]; §9.2.4.1.2: other values are reserved).
    pub fn check_len(&self) -> Result<()> {
        let len = self.buffer.as_ref().len();
        if len < MIN_HEADER_LEN + FCS_LEN {
            return Err(WireError::Truncated);
        }
        if self.frame_control().protocol_version() != 0 {
            return Err(WireError::Malformed);
        }
        if self.header_len() + FCS_LEN > len {
            return Err(WireError::Truncated);
        }
        Ok(())
    }

    /// Returns the underlying buffer.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    /// The Frame Control field.
    pub fn frame_control(&self) -> FrameControl {
        FrameControl(read_u16(self.buffer.as_ref(), field::FRAME_CONTROL.start))
    }

    /// The Duration/ID field (§9.2.4.2): microseconds when bit 15 is clear.
    pub fn duration_id(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::DURATION.start)
    }

    /// Address 1 (the receiver address, RA).
    pub fn addr1(&self) -> MacAddr {
        MacAddr::from_slice(&self.buffer.as_ref()[field::ADDR1]).unwrap_or_default()
    }

    /// Length of the MAC header implied by the Frame Control field: 10 for ACK and CTS (and
    /// unknown control or extension frames), 16 for the other control frames that carry a
    /// transmitter address, 24 for management and data frames, plus 6 for Address 4 (ToDS and
    /// FromDS both set), 2 for QoS Control and 4 for HT Control (§9.2.3, §9.3).
    pub fn header_len(&self) -> usize {
        let fc = self.frame_control();
        match fc.frame_type() {
            FrameType::Management => 24 + if fc.order() { 4 } else { 0 },
            FrameType::Control => match fc.kind() {
                FrameKind::Cts | FrameKind::Ack => 10,
                // PS-Poll, RTS, CF-End, CF-End+CF-Ack, BlockAckReq, BlockAck (§9.3.1).
                FrameKind::Rts => 16,
                FrameKind::Other {
                    subtype: 8 | 9 | 10 | 14 | 15,
                    ..
                } => 16,
                _ => 10,
            },
            FrameType::Data => {
                let qos = fc.subtype() & 0x8 != 0;
                24 + if fc.to_ds() && fc.from_ds() { 6 } else { 0 }
                    + if qos { 2 } else { 0 }
                    + if qos && fc.order() { 4 } else { 0 }
            }
            FrameType::Extension => MIN_HEADER_LEN,
        }
    }

    fn addr_at(&self, range: core::ops::Range<usize>) -> Option<MacAddr> {
        if range.end > self.header_len() {
            return None;
        }
        MacAddr::from_slice(self.buffer.as_ref().get(range)?)
    }

    /// Address 2 (the transmitter address, TA), if this kind of frame has one.
    pub fn addr2(&self) -> Option<MacAddr> {
        self.addr_at(field::ADDR2)
    }

    /// Address 3, if this kind of frame has one.
    pub fn addr3(&self) -> Option<MacAddr> {
        self.addr_at(field::ADDR3)
    }

    /// Address 4, present in data frames with both ToDS and FromDS set.
    pub fn addr4(&self) -> Option<MacAddr> {
        self.addr_at(field::ADDR4)
    }

    /// The Sequence Control field, if this kind of frame has one.
    pub fn seq_control(&self) -> Option<SeqControl> {
        if field::SEQ_CONTROL.end > self.header_len() {
            return None;
        }
        let b = self.buffer.as_ref().get(field::SEQ_CONTROL)?;
        Some(SeqControl::from_raw(u16::from_le_bytes([b[0], b[1]])))
    }

    /// The frame body: everything between the MAC header and the FCS. Empty if the buffer is
    /// shorter than header and FCS (never panics).
    pub fn body(&self) -> &[u8] {
        let data = self.buffer.as_ref();
        if data.len() < MIN_HEADER_LEN + FCS_LEN {
            return &[];
        }
        data.get(self.header_len()..data.len() - FCS_LEN)
            .unwrap_or(&[])
    }

    /// The FCS field (the last four octets, little-endian); 0 if the buffer is too short.
    pub fn fcs(&self) -> u32 {
        let data = self.buffer.as_ref();
        match data.len().checked_sub(FCS_LEN) {
            Some(at) => u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]),
            None => 0,
        }
    }

    /// Whether the FCS is the CRC-32 of everything before it (§9.2.4.8). False for buffers
    /// shorter than the FCS (never panics).
    pub fn verify_fcs(&self) -> bool {
        let data = self.buffer.as_ref();
        match data.len().checked_sub(FCS_LEN) {
            Some(at) => crc32(&data[..at]) == self.fcs(),
            None => false,
        }
    }
}

impl<'a> Ieee80211Frame<&'a [u8]> {
    /// The viewed bytes, with the lifetime of the underlying slice.
    pub fn as_slice(&self) -> &'a [u8] {
        self.buffer
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> Ieee80211Frame<T> {
    /// Sets the Frame Control field.
    pub fn set_frame_control(&mut self, fc: FrameControl) {
        write_u16(self.buffer.as_mut(), field::FRAME_CONTROL.start, fc.0);
    }

    /// Sets the Duration/ID field.
    pub fn set_duration_id(&mut self, value: u16) {
        write_u16(self.buffer.as_mut(), field::DURATION.start, value);
    }

    /// Sets Address 1.
    pub fn set_addr1(&mut self, addr: MacAddr) {
        self.buffer.as_mut()[field::ADDR1].copy_from_slice(&addr.0);
    }

    /// Sets Address 2 (the buffer must hold it).
    pub fn set_addr2(&mut self, addr: MacAddr) {
        self.buffer.as_mut()[field::ADDR2].copy_from_slice(&addr.0);
    }

    /// Sets Address 3 (the buffer must hold it).
    pub fn set_addr3(&mut self, addr: MacAddr) {
        self.buffer.as_mut()[field::ADDR3].copy_from_slice(&addr.0);
    }

    /// Sets the Sequence Control field (the buffer must hold it).
    pub fn set_seq_control(&mut self, seq: SeqControl) {
        write_u16(self.buffer.as_mut(), field::SEQ_CONTROL.start, seq.to_raw());
    }

    /// Sets or clears the Retry bit and recomputes the FCS: what a transmitter does before a
    /// retransmission (§9.2.4.1.4). Does nothing on a buffer too short to be a frame.
    pub fn set_retry_and_fcs(&mut self, retry: bool) {
        if self.buffer.as_ref().len() < MIN_HEADER_LEN + FCS_LEN {
            return;
        }
        let fc = self.frame_control().with(FrameControl::RETRY, retry);
        self.set_frame_control(fc);
        self.fill_fcs();
    }

    /// Computes the CRC-32 of everything before the last four octets and stores it there.
    /// Does nothing on a buffer shorter than the FCS.
    pub fn fill_fcs(&mut self) {
        let data = self.buffer.as_mut();
        if let Some(at) = data.len().checked_sub(FCS_LEN) {
            let fcs = crc32(&data[..at]);
            data[at..].copy_from_slice(&fcs.to_le_bytes());
        }
    }

    /// The frame body, mutably (empty if the buffer is too short; never panics).
    pub fn body_mut(&mut self) -> &mut [u8] {
        let header_len = if self.buffer.as_ref().len() >= 2 {
            self.header_len()
        } else {
            usize::MAX
        };
        let data = self.buffer.as_mut();
        let end = data.len().saturating_sub(FCS_LEN);
        match data.get_mut(header_len..end) {
            Some(body) => body,
            None => &mut [],
        }
    }
}

impl<T: AsRef<[u8]>> AsRef<[u8]> for Ieee80211Frame<T> {
    fn as_ref(&self) -> &[u8] {
        self.buffer.as_ref()
    }
}

#[cfg(test)]
mod test {
    use super::*;

    /// An ACK to 02:00:00:00:00:01 with Duration 0 and its FCS.
    fn ack() -> Vec<u8> {
        let mut f = vec![0xd4, 0x00, 0x00, 0x00, 0x02, 0, 0, 0, 0, 1, 0, 0, 0, 0];
        Ieee80211Frame::new_unchecked(&mut f[..]).fill_fcs();
        f
    }

    #[test]
    fn ack_fields() {
        let bytes = ack();
        let f = Ieee80211Frame::new_checked(&bytes[..]).unwrap();
        assert_eq!(f.frame_control().kind(), FrameKind::Ack);
        assert_eq!(f.header_len(), 10);
        assert_eq!(f.addr1(), MacAddr::local(1, 0));
        assert_eq!(f.addr2(), None);
        assert_eq!(f.seq_control(), None);
        assert!(f.body().is_empty());
        assert!(f.verify_fcs());
    }

    #[test]
    fn truncation_and_version() {
        let bytes = ack();
        for n in 0..bytes.len() {
            assert_eq!(
                Ieee80211Frame::new_checked(&bytes[..n]).unwrap_err(),
                WireError::Truncated
            );
        }
        let mut v1 = bytes.clone();
        v1[0] |= 1;
        assert_eq!(
            Ieee80211Frame::new_checked(&v1[..]).unwrap_err(),
            WireError::Malformed
        );
        // A data frame needs 24 + 4 octets.
        let mut data = vec![0x08u8, 0, 0, 0];
        data.resize(27, 0);
        assert_eq!(
            Ieee80211Frame::new_checked(&data[..]).unwrap_err(),
            WireError::Truncated
        );
        data.push(0);
        assert!(Ieee80211Frame::new_checked(&data[..]).is_ok());
    }

    #[test]
    fn seq_control_raw() {
        let s = SeqControl {
            seq: 0xabc,
            frag: 5,
        };
        assert_eq!(s.to_raw(), 0xabc5);
        assert_eq!(SeqControl::from_raw(0xabc5), s);
        assert_eq!(
            SeqControl {
                seq: 0x1000,
                frag: 0
            }
            .to_raw(),
            0
        );
    }

    #[test]
    fn corrupted_fcs_detected_and_retry_refills() {
        let mut bytes = ack();
        bytes[5] ^= 0x40;
        assert!(!Ieee80211Frame::new_unchecked(&bytes[..]).verify_fcs());
        let mut f = Ieee80211Frame::new_unchecked(&mut bytes[..]);
        f.set_retry_and_fcs(true);
        assert!(f.frame_control().retry());
        assert!(f.verify_fcs());
        assert!(!Ieee80211Frame::new_unchecked(&[0u8; 3][..]).verify_fcs());
    }
}
