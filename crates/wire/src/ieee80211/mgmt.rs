//! Management frame bodies (IEEE Std 802.11-2020 §9.3.3): beacon, probe request/response,
//! (re)association request/response, authentication, deauthentication, disassociation.

use super::addr::MacAddr;
use super::elements::Elements;
use super::frame::SeqControl;
use super::frame_control::FrameKind;
use super::le::{read_u16, read_u64, write_u16};
use crate::{Result, WireError};

/// Capability Information bits (§9.4.1.4, Figure 9-68).
pub mod capability {
    /// B0: ESS — set by an AP.
    pub const ESS: u16 = 1 << 0;
    /// B1: IBSS — set by a station of an ad hoc network.
    pub const IBSS: u16 = 1 << 1;
    /// B4: Privacy.
    pub const PRIVACY: u16 = 1 << 4;
    /// B5: Short Preamble (HR/DSSS).
    pub const SHORT_PREAMBLE: u16 = 1 << 5;
    /// B10: Short Slot Time (ERP).
    pub const SHORT_SLOT_TIME: u16 = 1 << 10;
}

/// Status codes (§9.4.1.9, Table 9-50).
pub mod status {
    /// 0: Successful.
    pub const SUCCESS: u16 = 0;
    /// 1: Unspecified failure.
    pub const UNSPECIFIED_FAILURE: u16 = 1;
    /// 13: Responding STA does not support the specified authentication algorithm.
    pub const UNSUPPORTED_AUTH_ALGORITHM: u16 = 13;
}

/// Reason codes (§9.4.1.7, Table 9-49).
pub mod reason {
    /// 1: Unspecified reason.
    pub const UNSPECIFIED: u16 = 1;
    /// 3: Deauthenticated because sending STA is leaving (or has left) the BSS.
    pub const DEAUTH_LEAVING: u16 = 3;
    /// 4: Disassociated due to inactivity.
    pub const INACTIVITY: u16 = 4;
    /// 6: Class 2 frame received from nonauthenticated STA.
    pub const CLASS2_FROM_NONAUTH: u16 = 6;
    /// 7: Class 3 frame received from nonassociated STA.
    pub const CLASS3_FROM_NONASSOC: u16 = 7;
    /// 8: Disassociated because sending STA is leaving (or has left) the BSS.
    pub const DISASSOC_LEAVING: u16 = 8;
}

/// §9.4.1.1: Authentication Algorithm Number 0 is Open System.
pub const AUTH_OPEN_SYSTEM: u16 = 0;

/// Beacon and Probe Response body (§9.3.3.3 Table 9-27, §9.3.3.11 Table 9-34): Timestamp (8),
/// Beacon Interval (2, in TU of 1024 µs), Capability Information (2), elements.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BeaconBody<'a> {
    /// TSF timer value in microseconds (§9.4.1.10).
    pub timestamp: u64,
    /// Beacon interval in time units of 1024 µs (§9.4.1.3).
    pub interval_tu: u16,
    /// Capability Information.
    pub capability: u16,
    /// SSID, rates, DS parameter set.
    pub elements: Elements<'a>,
}

/// Association Request body (§9.3.3.6 Table 9-29): Capability (2), Listen Interval (2),
/// elements.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AssocReqBody<'a> {
    /// Capability Information.
    pub capability: u16,
    /// Listen interval in beacon intervals (§9.4.1.6).
    pub listen_interval: u16,
    /// SSID and rates.
    pub elements: Elements<'a>,
}

/// Reassociation Request body (§9.3.3.8 Table 9-31): Capability (2), Listen Interval (2),
/// Current AP Address (6), elements.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ReassocReqBody<'a> {
    /// Capability Information.
    pub capability: u16,
    /// Listen interval in beacon intervals.
    pub listen_interval: u16,
    /// The AP the station is currently associated with (§9.4.1.5).
    pub current_ap: MacAddr,
    /// SSID and rates.
    pub elements: Elements<'a>,
}

/// (Re)association Response body (§9.3.3.7 Table 9-30, §9.3.3.9): Capability (2), Status
/// Code (2), Association ID (2), elements.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AssocRespBody<'a> {
    /// Capability Information.
    pub capability: u16,
    /// Status code ([`status`]).
    pub status: u16,
    /// Association ID 1–2007; on the wire the two most significant bits are set (§9.4.1.8).
    pub aid: u16,
    /// Rates.
    pub elements: Elements<'a>,
}

/// Authentication body (§9.3.3.12 Table 9-35): Algorithm (2), Transaction Sequence (2),
/// Status Code (2). Trailing elements (challenge text of Shared Key) are ignored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AuthBody {
    /// Authentication algorithm ([`AUTH_OPEN_SYSTEM`]).
    pub algorithm: u16,
    /// Transaction sequence number: 1 for the request, 2 for the response of Open System.
    pub transaction: u16,
    /// Status code ([`status`]).
    pub status: u16,
}

/// The body of a management frame, by subtype.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MgmtBody<'a> {
    /// Beacon.
    Beacon(BeaconBody<'a>),
    /// Probe Response (same layout as a beacon).
    ProbeResp(BeaconBody<'a>),
    /// Probe Request: elements only (§9.3.3.10 Table 9-33).
    ProbeReq(Elements<'a>),
    /// Association Request.
    AssocReq(AssocReqBody<'a>),
    /// Association Response.
    AssocResp(AssocRespBody<'a>),
    /// Reassociation Request.
    ReassocReq(ReassocReqBody<'a>),
    /// Reassociation Response (same layout as an Association Response).
    ReassocResp(AssocRespBody<'a>),
    /// Authentication.
    Auth(AuthBody),
    /// Deauthentication: Reason Code (§9.3.3.13).
    Deauth {
        /// Reason code ([`reason`]).
        reason: u16,
    },
    /// Disassociation: Reason Code (§9.3.3.5).
    Disassoc {
        /// Reason code ([`reason`]).
        reason: u16,
    },
}

/// A management frame (§9.3.3.2): header fields and body. Address 1 is the DA, Address 2 the
/// SA, Address 3 the BSSID.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MgmtRepr<'a> {
    /// The Retry bit.
    pub retry: bool,
    /// Duration in microseconds.
    pub duration: u16,
    /// Destination (Address 1).
    pub da: MacAddr,
    /// Source (Address 2).
    pub sa: MacAddr,
    /// BSSID (Address 3).
    pub bssid: MacAddr,
    /// Sequence Control.
    pub seq: SeqControl,
    /// The body.
    pub body: MgmtBody<'a>,
}

/// The AID field carries the two most significant bits set (§9.4.1.8).
const AID_FLAG_BITS: u16 = 0xc000;

impl<'a> MgmtBody<'a> {
    /// The frame kind (subtype) of this body.
    pub const fn kind(&self) -> FrameKind {
        match self {
            MgmtBody::Beacon(_) => FrameKind::Beacon,
            MgmtBody::ProbeResp(_) => FrameKind::ProbeResp,
            MgmtBody::ProbeReq(_) => FrameKind::ProbeReq,
            MgmtBody::AssocReq(_) => FrameKind::AssocReq,
            MgmtBody::AssocResp(_) => FrameKind::AssocResp,
            MgmtBody::ReassocReq(_) => FrameKind::ReassocReq,
            MgmtBody::ReassocResp(_) => FrameKind::ReassocResp,
            MgmtBody::Auth(_) => FrameKind::Auth,
            MgmtBody::Deauth { .. } => FrameKind::Deauth,
            MgmtBody::Disassoc { .. } => FrameKind::Disassoc,
        }
    }

    /// Parses the body of a management frame of kind `kind`. Fixed fields that do not fit are
    /// [`WireError::Truncated`]; subtypes this crate does not model are
    /// [`WireError::Unsupported`].
    pub fn parse(kind: FrameKind, body: &'a [u8]) -> Result<Self> {
        let need = |n: usize| {
            if body.len() < n {
                Err(WireError::Truncated)
            } else {
                Ok(())
            }
        };
        Ok(match kind {
            FrameKind::Beacon | FrameKind::ProbeResp => {
                need(12)?;
                let b = BeaconBody {
                    timestamp: read_u64(body, 0),
                    interval_tu: read_u16(body, 8),
                    capability: read_u16(body, 10),
                    elements: Elements::parse(&body[12..])?,
                };
                if kind == FrameKind::Beacon {
                    MgmtBody::Beacon(b)
                } else {
                    MgmtBody::ProbeResp(b)
                }
            }
            FrameKind::ProbeReq => MgmtBody::ProbeReq(Elements::parse(body)?),
            FrameKind::AssocReq => {
                need(4)?;
                MgmtBody::AssocReq(AssocReqBody {
                    capability: read_u16(body, 0),
                    listen_interval: read_u16(body, 2),
                    elements: Elements::parse(&body[4..])?,
                })
            }
            FrameKind::ReassocReq => {
                need(10)?;
                MgmtBody::ReassocReq(ReassocReqBody {
                    capability: read_u16(body, 0),
                    listen_interval: read_u16(body, 2),
                    current_ap: MacAddr::from_slice(&body[4..10]).unwrap_or_default(),
                    elements: Elements::parse(&body[10..])?,
                })
            }
            FrameKind::AssocResp | FrameKind::ReassocResp => {
                need(6)?;
                let b = AssocRespBody {
                    capability: read_u16(body, 0),
                    status: read_u16(body, 2),
                    aid: read_u16(body, 4) & !AID_FLAG_BITS,
                    elements: Elements::parse(&body[6..])?,
                };
                if kind == FrameKind::AssocResp {
                    MgmtBody::AssocResp(b)
                } else {
                    MgmtBody::ReassocResp(b)
                }
            }
            FrameKind::Auth => {
                need(6)?;
                MgmtBody::Auth(AuthBody {
                    algorithm: read_u16(body, 0),
                    transaction: read_u16(body, 2),
                    status: read_u16(body, 4),
                })
            }
            FrameKind::Deauth => {
                need(2)?;
                MgmtBody::Deauth {
                    reason: read_u16(body, 0),
                }
            }
            FrameKind::Disassoc => {
                need(2)?;
                MgmtBody::Disassoc {
                    reason: read_u16(body, 0),
                }
            }
            _ => return Err(WireError::Unsupported),
        })
    }

    /// Octets of the body.
    pub fn buffer_len(&self) -> usize {
        match self {
            MgmtBody::Beacon(b) | MgmtBody::ProbeResp(b) => 12 + b.elements.buffer_len(),
            MgmtBody::ProbeReq(e) => e.buffer_len(),
            MgmtBody::AssocReq(b) => 4 + b.elements.buffer_len(),
            MgmtBody::ReassocReq(b) => 10 + b.elements.buffer_len(),
            MgmtBody::AssocResp(b) | MgmtBody::ReassocResp(b) => 6 + b.elements.buffer_len(),
            MgmtBody::Auth(_) => 6,
            MgmtBody::Deauth { .. } | MgmtBody::Disassoc { .. } => 2,
        }
    }

    /// Writes the body into the start of `buf` (which must hold [`MgmtBody::buffer_len`]
    /// octets).
    pub fn emit(&self, buf: &mut [u8]) {
        match self {
            MgmtBody::Beacon(b) | MgmtBody::ProbeResp(b) => {
                buf[0..8].copy_from_slice(&b.timestamp.to_le_bytes());
                write_u16(buf, 8, b.interval_tu);
                write_u16(buf, 10, b.capability);
                b.elements.emit(&mut buf[12..]);
            }
            MgmtBody::ProbeReq(e) => {
                e.emit(buf);
            }
            MgmtBody::AssocReq(b) => {
                write_u16(buf, 0, b.capability);
                write_u16(buf, 2, b.listen_interval);
                b.elements.emit(&mut buf[4..]);
            }
            MgmtBody::ReassocReq(b) => {
                write_u16(buf, 0, b.capability);
                write_u16(buf, 2, b.listen_interval);
                buf[4..10].copy_from_slice(&b.current_ap.0);
                b.elements.emit(&mut buf[10..]);
            }
            MgmtBody::AssocResp(b) | MgmtBody::ReassocResp(b) => {
                write_u16(buf, 0, b.capability);
                write_u16(buf, 2, b.status);
                write_u16(buf, 4, (b.aid & !AID_FLAG_BITS) | AID_FLAG_BITS);
                b.elements.emit(&mut buf[6..]);
            }
            MgmtBody::Auth(a) => {
                write_u16(buf, 0, a.algorithm);
                write_u16(buf, 2, a.transaction);
                write_u16(buf, 4, a.status);
            }
            MgmtBody::Deauth { reason } | MgmtBody::Disassoc { reason } => {
                write_u16(buf, 0, *reason);
            }
        }
    }
}
