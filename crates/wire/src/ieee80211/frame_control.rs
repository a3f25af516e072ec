//! The Frame Control field (IEEE Std 802.11-2020 §9.2.4.1, Figure 9-2, Table 9-1).
//!
//! ```text
//!  B0-B1     B2-B3  B4-B7    B8    B9      B10      B11   B12     B13      B14        B15
//! +--------+------+-------+-----+-------+--------+-----+-------+-------+-----------+-------+
//! |Protocol| Type |Subtype|To DS|From DS|More    |Retry|Power  |More   |Protected  |+HTC/  |
//! |Version |      |       |     |       |Fragment|     |Mgmt   |Data   |Frame      |Order  |
//! +--------+------+-------+-----+-------+--------+-----+-------+-------+-----------+-------+
//! ```
//!
//! Stored as the little-endian 16-bit value: B0 is the least significant bit of the first
//! octet.

/// The Type subfield (Table 9-1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FrameType {
    /// Type 0: management.
    Management,
    /// Type 1: control.
    Control,
    /// Type 2: data.
    Data,
    /// Type 3: extension.
    Extension,
}

/// The type/subtype combinations this crate models (Table 9-1), and everything else.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// Management subtype 0: Association Request.
    AssocReq,
    /// Management subtype 1: Association Response.
    AssocResp,
    /// Management subtype 2: Reassociation Request.
    ReassocReq,
    /// Management subtype 3: Reassociation Response.
    ReassocResp,
    /// Management subtype 4: Probe Request.
    ProbeReq,
    /// Management subtype 5: Probe Response.
    ProbeResp,
    /// Management subtype 8: Beacon.
    Beacon,
    /// Management subtype 10: Disassociation.
    Disassoc,
    /// Management subtype 11: Authentication.
    Auth,
    /// Management subtype 12: Deauthentication.
    Deauth,
    /// Control subtype 11: RTS.
    Rts,
    /// Control subtype 12: CTS.
    Cts,
    /// Control subtype 13: Ack.
    Ack,
    /// Data subtype 0: Data.
    Data,
    /// Data subtype 4: Null (no data).
    NullData,
    /// Data subtype 8: QoS Data.
    QosData,
    /// Any other type/subtype (type 0–3, subtype 0–15).
    Other {
        /// The Type subfield.
        ftype: u8,
        /// The Subtype subfield.
        subtype: u8,
    },
}

impl FrameKind {
    /// (type, subtype) of this kind (Table 9-1).
    pub const fn type_subtype(self) -> (u8, u8) {
        match self {
            FrameKind::AssocReq => (0, 0),
            FrameKind::AssocResp => (0, 1),
            FrameKind::ReassocReq => (0, 2),
            FrameKind::ReassocResp => (0, 3),
            FrameKind::ProbeReq => (0, 4),
            FrameKind::ProbeResp => (0, 5),
            FrameKind::Beacon => (0, 8),
            FrameKind::Disassoc => (0, 10),
            FrameKind::Auth => (0, 11),
            FrameKind::Deauth => (0, 12),
            FrameKind::Rts => (1, 11),
            FrameKind::Cts => (1, 12),
            FrameKind::Ack => (1, 13),
            FrameKind::Data => (2, 0),
            FrameKind::NullData => (2, 4),
            FrameKind::QosData => (2, 8),
            FrameKind::Other { ftype, subtype } => (ftype & 0x3, subtype & 0xf),
        }
    }

    /// The kind of a (type, subtype) pair.
    pub const fn from_type_subtype(ftype: u8, subtype: u8) -> FrameKind {
        match (ftype & 0x3, subtype & 0xf) {
            (0, 0) => FrameKind::AssocReq,
            (0, 1) => FrameKind::AssocResp,
            (0, 2) => FrameKind::ReassocReq,
            (0, 3) => FrameKind::ReassocResp,
            (0, 4) => FrameKind::ProbeReq,
            (0, 5) => FrameKind::ProbeResp,
            (0, 8) => FrameKind::Beacon,
            (0, 10) => FrameKind::Disassoc,
            (0, 11) => FrameKind::Auth,
            (0, 12) => FrameKind::Deauth,
            (1, 11) => FrameKind::Rts,
            (1, 12) => FrameKind::Cts,
            (1, 13) => FrameKind::Ack,
            (2, 0) => FrameKind::Data,
            (2, 4) => FrameKind::NullData,
            (2, 8) => FrameKind::QosData,
            (ftype, subtype) => FrameKind::Other { ftype, subtype },
        }
    }
}

/// The Frame Control field as its little-endian 16-bit value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct FrameControl(pub u16);

impl FrameControl {
    /// B8: To DS.
    pub const TO_DS: u16 = 1 << 8;
    /// B9: From DS.
    pub const FROM_DS: u16 = 1 << 9;
    /// B10: More Fragments.
    pub const MORE_FRAGMENTS: u16 = 1 << 10;
    /// B11: Retry — "set to 1 in any Data or Management frame that is a retransmission of an
    /// earlier frame" (§9.2.4.1.4).
    pub const RETRY: u16 = 1 << 11;
    /// B12: Power Management.
    pub const POWER_MGMT: u16 = 1 << 12;
    /// B13: More Data.
    pub const MORE_DATA: u16 = 1 << 13;
    /// B14: Protected Frame.
    pub const PROTECTED: u16 = 1 << 14;
    /// B15: +HTC/Order.
    pub const ORDER: u16 = 1 << 15;

    /// Protocol version 0 with the given kind and flag bits (the `TO_DS`... constants).
    pub const fn new(kind: FrameKind, flags: u16) -> FrameControl {
        let (t, s) = kind.type_subtype();
        FrameControl(((t as u16) << 2) | ((s as u16) << 4) | (flags & 0xff00))
    }

    /// B0–B1: the protocol version (0 in every standard frame).
    pub const fn protocol_version(self) -> u8 {
        (self.0 & 0x3) as u8
    }

    /// The Type subfield as a number.
    pub const fn type_bits(self) -> u8 {
        ((self.0 >> 2) & 0x3) as u8
    }

    /// The Subtype subfield.
    pub const fn subtype(self) -> u8 {
        ((self.0 >> 4) & 0xf) as u8
    }

    /// The Type subfield.
    pub const fn frame_type(self) -> FrameType {
        match self.type_bits() {
            0 => FrameType::Management,
            1 => FrameType::Control,
            2 => FrameType::Data,
            _ => FrameType::Extension,
        }
    }

    /// Type and subtype together.
    pub const fn kind(self) -> FrameKind {
        FrameKind::from_type_subtype(self.type_bits(), self.subtype())
    }

    const fn flag(self, bit: u16) -> bool {
        self.0 & bit != 0
    }

    /// To DS.
    pub const fn to_ds(self) -> bool {
        self.flag(Self::TO_DS)
    }
    /// From DS.
    pub const fn from_ds(self) -> bool {
        self.flag(Self::FROM_DS)
    }
    /// More Fragments.
    pub const fn more_fragments(self) -> bool {
        self.flag(Self::MORE_FRAGMENTS)
    }
    /// Retry.
    pub const fn retry(self) -> bool {
        self.flag(Self::RETRY)
    }
    /// Power Management.
    pub const fn power_mgmt(self) -> bool {
        self.flag(Self::POWER_MGMT)
    }
    /// More Data.
    pub const fn more_data(self) -> bool {
        self.flag(Self::MORE_DATA)
    }
    /// Protected Frame.
    pub const fn protected(self) -> bool {
        self.flag(Self::PROTECTED)
    }
    /// +HTC/Order.
    pub const fn order(self) -> bool {
        self.flag(Self::ORDER)
    }

    /// This value with `bit` set or cleared.
    pub const fn with(self, bit: u16, on: bool) -> FrameControl {
        if on {
            FrameControl(self.0 | bit)
        } else {
            FrameControl(self.0 & !bit)
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn first_octets_of_common_frames() {
        // The first octet as it appears on the wire (Wireshark shows "Frame Control Field").
        let first = |k| FrameControl::new(k, 0).0.to_le_bytes()[0];
        assert_eq!(first(FrameKind::Data), 0x08);
        assert_eq!(first(FrameKind::Rts), 0xb4);
        assert_eq!(first(FrameKind::Cts), 0xc4);
        assert_eq!(first(FrameKind::Ack), 0xd4);
        assert_eq!(first(FrameKind::Beacon), 0x80);
        assert_eq!(first(FrameKind::Auth), 0xb0);
        assert_eq!(first(FrameKind::Deauth), 0xc0);
        let fc = FrameControl::new(FrameKind::Data, FrameControl::TO_DS | FrameControl::RETRY);
        assert_eq!(fc.0.to_le_bytes(), [0x08, 0x09]);
        assert!(fc.to_ds() && fc.retry() && !fc.from_ds());
        assert_eq!(fc.kind(), FrameKind::Data);
        assert_eq!(
            fc.with(FrameControl::RETRY, false).0.to_le_bytes(),
            [0x08, 0x01]
        );
    }

    #[test]
    fn kinds_round_trip() {
        for t in 0..4u8 {
            for s in 0..16u8 {
                let k = FrameKind::from_type_subtype(t, s);
                assert_eq!(k.type_subtype(), (t, s));
                let fc = FrameControl::new(k, 0);
                assert_eq!((fc.type_bits(), fc.subtype()), (t, s));
            }
        }
    }
}
