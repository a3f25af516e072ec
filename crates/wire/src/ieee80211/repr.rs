//! Owned (header) representations of 802.11 frames: parse from an [`Ieee80211Frame`] (which
//! verifies the FCS) and emit complete frames with a real FCS.

use super::addr::MacAddr;
use super::frame::{Ieee80211Frame, SeqControl, FCS_LEN};
use super::frame_control::{FrameControl, FrameKind, FrameType};
use super::llc::{self, LlcSnapRepr};
use super::mgmt::{MgmtBody, MgmtRepr};
use super::HEADER_LEN_3ADDR;
use crate::{Result, WireError};

/// An RTS frame (§9.3.1.2): Duration, RA, TA.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RtsRepr {
    /// Duration in microseconds: the time the pending CTS + DATA + ACK exchange needs after
    /// the RTS (§9.3.1.2).
    pub duration: u16,
    /// Receiver address.
    pub ra: MacAddr,
    /// Transmitter address.
    pub ta: MacAddr,
}

/// A CTS frame (§9.3.1.3): Duration, RA.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CtsRepr {
    /// Duration in microseconds: the RTS's Duration minus SIFS and the CTS time.
    pub duration: u16,
    /// Receiver address (the TA of the RTS).
    pub ra: MacAddr,
}

/// An Ack frame (§9.3.1.4): Duration, RA.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AckRepr {
    /// Duration in microseconds: 0 for the Ack of a last (or only) fragment.
    pub duration: u16,
    /// Receiver address (Address 2 of the acknowledged frame).
    pub ra: MacAddr,
}

/// The MAC header of a Data or Null frame without Address 4 or QoS Control (§9.3.2.1).
///
/// Address meaning by ToDS/FromDS (Table 9-26): ad hoc (0/0): DA, SA, BSSID; to the AP (1/0):
/// BSSID, SA, DA; from the AP (0/1): DA, BSSID, SA.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DataRepr {
    /// Null (no data) instead of Data.
    pub null: bool,
    /// To DS.
    pub to_ds: bool,
    /// From DS.
    pub from_ds: bool,
    /// Retry.
    pub retry: bool,
    /// Power Management.
    pub power_mgmt: bool,
    /// More Data.
    pub more_data: bool,
    /// Duration in microseconds.
    pub duration: u16,
    /// Address 1 (receiver).
    pub addr1: MacAddr,
    /// Address 2 (transmitter).
    pub addr2: MacAddr,
    /// Address 3.
    pub addr3: MacAddr,
    /// Sequence Control.
    pub seq: SeqControl,
}

impl DataRepr {
    fn frame_control(&self) -> FrameControl {
        let kind = if self.null {
            FrameKind::NullData
        } else {
            FrameKind::Data
        };
        FrameControl::new(kind, 0)
            .with(FrameControl::TO_DS, self.to_ds)
            .with(FrameControl::FROM_DS, self.from_ds)
            .with(FrameControl::RETRY, self.retry)
            .with(FrameControl::POWER_MGMT, self.power_mgmt)
            .with(FrameControl::MORE_DATA, self.more_data)
    }

    /// The destination address (DA) by Table 9-26.
    pub fn da(&self) -> MacAddr {
        if self.to_ds {
            self.addr3
        } else {
            self.addr1
        }
    }

    /// The source address (SA) by Table 9-26.
    pub fn sa(&self) -> MacAddr {
        if self.from_ds {
            self.addr3
        } else {
            self.addr2
        }
    }
}

/// A parsed 802.11 frame.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FrameRepr<'a> {
    /// A Data or Null frame: header and body (for Data, the LLC/SNAP header and the packet).
    Data(DataRepr, &'a [u8]),
    /// RTS.
    Rts(RtsRepr),
    /// CTS.
    Cts(CtsRepr),
    /// Ack.
    Ack(AckRepr),
    /// A management frame.
    Mgmt(MgmtRepr<'a>),
}

impl<'a> FrameRepr<'a> {
    /// Parses a frame. The FCS must verify ([`WireError::BadChecksum`]); QoS data, four-address,
    /// protected frames and subtypes outside this module's set are
    /// [`WireError::Unsupported`]; short fields are [`WireError::Truncated`].
    pub fn parse(frame: &Ieee80211Frame<&'a [u8]>) -> Result<Self> {
        Self::parse_bytes(frame.as_slice())
    }

    /// [`FrameRepr::parse`] on raw bytes (header, body, FCS).
    pub fn parse_bytes(data: &'a [u8]) -> Result<Self> {
        let frame = Ieee80211Frame::new_checked(data)?;
        if !frame.verify_fcs() {
            return Err(WireError::BadChecksum);
        }
        Self::parse_fields(frame, data)
    }

    /// [`FrameRepr::parse_bytes`] without computing the FCS, for a receiver that already knows
    /// the frame arrived intact (a simulated PHY that decides corruption itself and never
    /// alters the bytes). Everything else is checked as by `parse_bytes`.
    pub fn parse_bytes_trusted(data: &'a [u8]) -> Result<Self> {
        let frame = Ieee80211Frame::new_checked(data)?;
        Self::parse_fields(frame, data)
    }

    fn parse_fields(frame: Ieee80211Frame<&'a [u8]>, data: &'a [u8]) -> Result<Self> {
        let fc = frame.frame_control();
        if fc.protected() {
            return Err(WireError::Unsupported);
        }
        let duration = frame.duration_id();
        let body = frame_body(data, frame.header_len());
        match fc.frame_type() {
            FrameType::Control => match fc.kind() {
                FrameKind::Rts => Ok(FrameRepr::Rts(RtsRepr {
                    duration,
                    ra: frame.addr1(),
                    ta: frame.addr2().ok_or(WireError::Truncated)?,
                })),
                FrameKind::Cts => Ok(FrameRepr::Cts(CtsRepr {
                    duration,
                    ra: frame.addr1(),
                })),
                FrameKind::Ack => Ok(FrameRepr::Ack(AckRepr {
                    duration,
                    ra: frame.addr1(),
                })),
                _ => Err(WireError::Unsupported),
            },
            FrameType::Data => {
                let null = match fc.kind() {
                    FrameKind::Data => false,
                    FrameKind::NullData => true,
                    _ => return Err(WireError::Unsupported),
                };
                if fc.to_ds() && fc.from_ds() {
                    return Err(WireError::Unsupported);
                }
                if fc.more_fragments() || fc.order() {
                    return Err(WireError::Unsupported);
                }
                let header = DataRepr {
                    null,
                    to_ds: fc.to_ds(),
                    from_ds: fc.from_ds(),
                    retry: fc.retry(),
                    power_mgmt: fc.power_mgmt(),
                    more_data: fc.more_data(),
                    duration,
                    addr1: frame.addr1(),
                    addr2: frame.addr2().ok_or(WireError::Truncated)?,
                    addr3: frame.addr3().ok_or(WireError::Truncated)?,
                    seq: frame.seq_control().ok_or(WireError::Truncated)?,
                };
                if null && !body.is_empty() {
                    return Err(WireError::Malformed);
                }
                Ok(FrameRepr::Data(header, body))
            }
            FrameType::Management => {
                if fc.order() || fc.more_fragments() {
                    return Err(WireError::Unsupported);
                }
                let body = MgmtBody::parse(fc.kind(), body)?;
                Ok(FrameRepr::Mgmt(MgmtRepr {
                    retry: fc.retry(),
                    duration,
                    da: frame.addr1(),
                    sa: frame.addr2().ok_or(WireError::Truncated)?,
                    bssid: frame.addr3().ok_or(WireError::Truncated)?,
                    seq: frame.seq_control().ok_or(WireError::Truncated)?,
                    body,
                }))
            }
            FrameType::Extension => Err(WireError::Unsupported),
        }
    }

    /// The kind of frame.
    pub fn kind(&self) -> FrameKind {
        match self {
            FrameRepr::Data(h, _) => {
                if h.null {
                    FrameKind::NullData
                } else {
                    FrameKind::Data
                }
            }
            FrameRepr::Rts(_) => FrameKind::Rts,
            FrameRepr::Cts(_) => FrameKind::Cts,
            FrameRepr::Ack(_) => FrameKind::Ack,
            FrameRepr::Mgmt(m) => m.body.kind(),
        }
    }

    /// The Duration field in microseconds.
    pub fn duration(&self) -> u16 {
        match self {
            FrameRepr::Data(h, _) => h.duration,
            FrameRepr::Rts(r) => r.duration,
            FrameRepr::Cts(c) => c.duration,
            FrameRepr::Ack(a) => a.duration,
            FrameRepr::Mgmt(m) => m.duration,
        }
    }

    /// Address 1: the receiver address.
    pub fn receiver(&self) -> MacAddr {
        match self {
            FrameRepr::Data(h, _) => h.addr1,
            FrameRepr::Rts(r) => r.ra,
            FrameRepr::Cts(c) => c.ra,
            FrameRepr::Ack(a) => a.ra,
            FrameRepr::Mgmt(m) => m.da,
        }
    }

    /// Address 2 (the transmitter address), for frames that carry one.
    pub fn transmitter(&self) -> Option<MacAddr> {
        match self {
            FrameRepr::Data(h, _) => Some(h.addr2),
            FrameRepr::Rts(r) => Some(r.ta),
            FrameRepr::Cts(_) | FrameRepr::Ack(_) => None,
            FrameRepr::Mgmt(m) => Some(m.sa),
        }
    }

    /// Octets of the whole frame including the FCS.
    pub fn buffer_len(&self) -> usize {
        FCS_LEN
            + match self {
                FrameRepr::Data(_, body) => HEADER_LEN_3ADDR + body.len(),
                FrameRepr::Rts(_) => 16,
                FrameRepr::Cts(_) | FrameRepr::Ack(_) => 10,
                FrameRepr::Mgmt(m) => HEADER_LEN_3ADDR + m.body.buffer_len(),
            }
    }

    /// Writes the whole frame, FCS included, into the first [`FrameRepr::buffer_len`] octets of
    /// `buf` (which must hold them).
    pub fn emit(&self, buf: &mut [u8]) {
        let len = self.buffer_len();
        let buf = &mut buf[..len];
        let mut f = Ieee80211Frame::new_unchecked(&mut *buf);
        match self {
            FrameRepr::Data(h, body) => {
                f.set_frame_control(h.frame_control());
                f.set_duration_id(h.duration);
                f.set_addr1(h.addr1);
                f.set_addr2(h.addr2);
                f.set_addr3(h.addr3);
                f.set_seq_control(h.seq);
                f.body_mut().copy_from_slice(body);
            }
            FrameRepr::Rts(r) => {
                f.set_frame_control(FrameControl::new(FrameKind::Rts, 0));
                f.set_duration_id(r.duration);
                f.set_addr1(r.ra);
                f.set_addr2(r.ta);
            }
            FrameRepr::Cts(c) => {
                f.set_frame_control(FrameControl::new(FrameKind::Cts, 0));
                f.set_duration_id(c.duration);
                f.set_addr1(c.ra);
            }
            FrameRepr::Ack(a) => {
                f.set_frame_control(FrameControl::new(FrameKind::Ack, 0));
                f.set_duration_id(a.duration);
                f.set_addr1(a.ra);
            }
            FrameRepr::Mgmt(m) => {
                f.set_frame_control(
                    FrameControl::new(m.body.kind(), 0).with(FrameControl::RETRY, m.retry),
                );
                f.set_duration_id(m.duration);
                f.set_addr1(m.da);
                f.set_addr2(m.sa);
                f.set_addr3(m.bssid);
                f.set_seq_control(m.seq);
                m.body.emit(f.body_mut());
            }
        }
        f.fill_fcs();
    }

    /// The whole frame as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut buf = vec![0u8; self.buffer_len()];
        self.emit(&mut buf);
        buf
    }
}

fn frame_body(data: &[u8], header_len: usize) -> &[u8] {
    data.get(header_len..data.len().saturating_sub(FCS_LEN))
        .unwrap_or(&[])
}

/// A complete Data frame carrying `payload` behind an RFC 1042 LLC/SNAP header with
/// `ethertype`, with a real FCS: 36 octets of overhead ([`super::DATA_OVERHEAD`]) plus the
/// payload. The header's `null` flag is ignored (a Null frame has no body).
pub fn data_frame(header: &DataRepr, ethertype: u16, payload: &[u8]) -> Vec<u8> {
    let len = HEADER_LEN_3ADDR + llc::HEADER_LEN + payload.len() + FCS_LEN;
    let mut buf = vec![0u8; len];
    let mut f = Ieee80211Frame::new_unchecked(&mut buf[..]);
    let header = DataRepr {
        null: false,
        ..*header
    };
    f.set_frame_control(header.frame_control());
    f.set_duration_id(header.duration);
    f.set_addr1(header.addr1);
    f.set_addr2(header.addr2);
    f.set_addr3(header.addr3);
    f.set_seq_control(header.seq);
    let body = f.body_mut();
    LlcSnapRepr { ethertype }.emit(body);
    body[llc::HEADER_LEN..].copy_from_slice(payload);
    f.fill_fcs();
    buf
}

#[cfg(test)]
mod test {
    use super::super::elements::Elements;
    use super::super::mgmt::{capability, AssocRespBody, AuthBody, BeaconBody};
    use super::*;

    const A: MacAddr = MacAddr([0x02, 0, 0, 0, 0, 1]);
    const B: MacAddr = MacAddr([0x02, 0, 0, 0, 0, 2]);

    /// Hand-assembled frames (field by field from §9.3) with FCS values computed by an
    /// independent implementation (Python's `zlib.crc32`).
    #[test]
    fn ack_fixture() {
        let repr = FrameRepr::Ack(AckRepr { duration: 0, ra: A });
        let bytes = repr.to_bytes();
        assert_eq!(
            bytes,
            [
                0xd4, 0x00, // FC: type 1 subtype 13
                0x00, 0x00, // Duration 0
                0x02, 0x00, 0x00, 0x00, 0x00, 0x01, // RA
                0xd8, 0xd6, 0xbf, 0x8f, // FCS
            ]
        );
        assert_eq!(FrameRepr::parse_bytes(&bytes).unwrap(), repr);
    }

    #[test]
    fn rts_fixture() {
        let repr = FrameRepr::Rts(RtsRepr {
            duration: 12_952,
            ra: B,
            ta: A,
        });
        let bytes = repr.to_bytes();
        assert_eq!(&bytes[..4], &[0xb4, 0x00, 0x98, 0x32]);
        assert_eq!(&bytes[4..16], &[2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1]);
        assert_eq!(&bytes[16..], &[0x32, 0x24, 0xb9, 0x65]);
        assert_eq!(FrameRepr::parse_bytes(&bytes).unwrap(), repr);
    }

    #[test]
    fn data_fixture() {
        let h = DataRepr {
            null: false,
            to_ds: true,
            from_ds: false,
            retry: true,
            power_mgmt: false,
            more_data: false,
            duration: 314,
            addr1: B,
            addr2: A,
            addr3: MacAddr::BROADCAST,
            seq: SeqControl { seq: 291, frag: 0 },
        };
        let bytes = data_frame(&h, llc::ETHERTYPE_IPV4, &[0x45, 0x00]);
        assert_eq!(bytes.len(), 24 + 8 + 2 + 4);
        assert_eq!(&bytes[..4], &[0x08, 0x09, 0x3a, 0x01]);
        assert_eq!(&bytes[22..24], &[0x30, 0x12]);
        assert_eq!(
            &bytes[24..34],
            &[0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00, 0x45, 0x00]
        );
        assert_eq!(&bytes[34..], &[0x2d, 0x25, 0x52, 0x81]);
        let FrameRepr::Data(parsed, body) = FrameRepr::parse_bytes(&bytes).unwrap() else {
            panic!("not data")
        };
        assert_eq!(parsed, h);
        assert_eq!(parsed.da(), MacAddr::BROADCAST);
        assert_eq!(parsed.sa(), A);
        assert_eq!(body.len(), 10);
        let emitted = FrameRepr::Data(h, body).to_bytes();
        assert_eq!(emitted, bytes);
    }

    #[test]
    fn mgmt_round_trips() {
        let rates = [0x82, 0x84, 0x8b, 0x96];
        let bodies = [
            MgmtBody::Beacon(BeaconBody {
                timestamp: 0x0102_0304_0506_0708,
                interval_tu: 100,
                capability: capability::ESS,
                elements: Elements::with_rates(Some(b"ap"), &rates, Some(1)),
            }),
            MgmtBody::AssocResp(AssocRespBody {
                capability: capability::ESS,
                status: 0,
                aid: 1,
                elements: Elements::with_rates(None, &rates, None),
            }),
            MgmtBody::Auth(AuthBody {
                algorithm: 0,
                transaction: 2,
                status: 0,
            }),
            MgmtBody::Deauth { reason: 7 },
        ];
        for body in bodies {
            let repr = FrameRepr::Mgmt(MgmtRepr {
                retry: false,
                duration: 0,
                da: A,
                sa: B,
                bssid: B,
                seq: SeqControl { seq: 7, frag: 0 },
                body,
            });
            let bytes = repr.to_bytes();
            assert_eq!(bytes.len(), repr.buffer_len());
            assert_eq!(FrameRepr::parse_bytes(&bytes).unwrap(), repr);
        }
    }

    #[test]
    fn bad_fcs_and_unsupported() {
        let mut bytes = FrameRepr::Ack(AckRepr { duration: 0, ra: A }).to_bytes();
        bytes[4] ^= 1;
        assert_eq!(
            FrameRepr::parse_bytes(&bytes).unwrap_err(),
            WireError::BadChecksum
        );
        // A PS-Poll (control subtype 10) is not modelled.
        let mut ps = vec![
            0xa4, 0, 0, 0xc0, 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0,
        ];
        Ieee80211Frame::new_unchecked(&mut ps[..]).fill_fcs();
        assert_eq!(
            FrameRepr::parse_bytes(&ps).unwrap_err(),
            WireError::Unsupported
        );
    }
}
