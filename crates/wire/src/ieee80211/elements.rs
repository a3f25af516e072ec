//! Information elements (IEEE Std 802.11-2020 §9.4.2): the few that beacons, probes and
//! (re)association frames of a simple BSS carry.
//!
//! ```text
//! +------------+--------+-------------------+
//! | Element ID | Length | Information       |
//! |  1 octet   | 1 octet| Length octets     |
//! +------------+--------+-------------------+
//! ```

use crate::{Result, WireError};

/// Element IDs used here (Table 9-92).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ElementId {
    /// 0: SSID (§9.4.2.2), 0–32 octets.
    Ssid,
    /// 1: Supported Rates and BSS Membership Selectors (§9.4.2.3), 1–8 octets.
    SupportedRates,
    /// 3: DSSS Parameter Set (§9.4.2.4), 1 octet: the current channel.
    DsParameterSet,
    /// 50: Extended Supported Rates (§9.4.2.13), 1–255 octets.
    ExtendedSupportedRates,
}

impl ElementId {
    /// The numeric Element ID.
    pub const fn id(self) -> u8 {
        match self {
            ElementId::Ssid => 0,
            ElementId::SupportedRates => 1,
            ElementId::DsParameterSet => 3,
            ElementId::ExtendedSupportedRates => 50,
        }
    }
}

/// §9.4.2.2: "The length of the SSID field is between 0 and 32 octets."
pub const MAX_SSID_LEN: usize = 32;

/// §9.4.2.3: the Supported Rates element holds at most 8 rates; more go into an Extended
/// Supported Rates element.
pub const MAX_SUPPORTED_RATES: usize = 8;

/// The information elements of a management frame body that this crate models. Unknown
/// elements are skipped on parsing.
///
/// Rates are in the element encoding: units of 500 kbit/s in bits 0–6, bit 7 set for a rate
/// in the BSS basic rate set (§9.4.2.3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Elements<'a> {
    /// SSID element content (`None`: element absent).
    pub ssid: Option<&'a [u8]>,
    /// Supported Rates element content (empty: element absent).
    pub supported_rates: &'a [u8],
    /// Extended Supported Rates element content (empty: element absent).
    pub extended_rates: &'a [u8],
    /// DSSS Parameter Set: the current channel (`None`: element absent).
    pub ds_channel: Option<u8>,
}

impl<'a> Elements<'a> {
    /// Elements carrying an SSID and a rate list that is split into Supported Rates (first 8)
    /// and Extended Supported Rates (the rest).
    pub fn with_rates(ssid: Option<&'a [u8]>, rates: &'a [u8], ds_channel: Option<u8>) -> Self {
        let split = rates.len().min(MAX_SUPPORTED_RATES);
        Elements {
            ssid,
            supported_rates: &rates[..split],
            extended_rates: &rates[split..],
            ds_channel,
        }
    }

    /// Reads the elements of `data` (which must consist of whole elements). An element whose
    /// length runs past the end is [`WireError::Truncated`]; a DSSS Parameter Set of the wrong
    /// length or an SSID longer than 32 octets is [`WireError::Malformed`].
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        let mut out = Elements::default();
        let mut rest = data;
        while !rest.is_empty() {
            let [id, len, tail @ ..] = rest else {
                return Err(WireError::Truncated);
            };
            let len = usize::from(*len);
            let Some(info) = tail.get(..len) else {
                return Err(WireError::Truncated);
            };
            match *id {
                0 => {
                    if len > MAX_SSID_LEN {
                        return Err(WireError::Malformed);
                    }
                    out.ssid = Some(info);
                }
                1 => out.supported_rates = info,
                3 => {
                    if len != 1 {
                        return Err(WireError::Malformed);
                    }
                    out.ds_channel = Some(info[0]);
                }
                50 => out.extended_rates = info,
                _ => {}
            }
            rest = &tail[len..];
        }
        Ok(out)
    }

    fn parts(&self) -> [(u8, &'a [u8]); 4] {
        // Emitted in ascending Element ID order, which is the order of Tables 9-27 (Beacon),
        // 9-29 (Association Request), 9-30 (Association Response), 9-31 (Reassociation
        // Request), 9-33 (Probe Request) and 9-34 (Probe Response) for these elements.
        let ssid = self.ssid.map(|s| &s[..s.len().min(MAX_SSID_LEN)]);
        [
            (0, ssid.unwrap_or(&[])),
            (
                1,
                &self.supported_rates[..self.supported_rates.len().min(255)],
            ),
            (3, &[]),
            (
                50,
                &self.extended_rates[..self.extended_rates.len().min(255)],
            ),
        ]
    }

    /// Octets [`Elements::emit`] writes. Over-long contents are cut (SSID to 32 octets, rate
    /// lists to 255) rather than rejected, so emission never fails.
    pub fn buffer_len(&self) -> usize {
        let mut len = 0;
        for (id, info) in self.parts() {
            if self.present(id, info) {
                len += 2 + if id == 3 { 1 } else { info.len() };
            }
        }
        len
    }

    fn present(&self, id: u8, info: &[u8]) -> bool {
        match id {
            0 => self.ssid.is_some(),
            3 => self.ds_channel.is_some(),
            _ => !info.is_empty(),
        }
    }

    /// Writes the elements into the start of `buf` (which must hold
    /// [`Elements::buffer_len`] octets) and returns the number written.
    pub fn emit(&self, buf: &mut [u8]) -> usize {
        let mut at = 0;
        for (id, info) in self.parts() {
            if !self.present(id, info) {
                continue;
            }
            buf[at] = id;
            if id == 3 {
                buf[at + 1] = 1;
                buf[at + 2] = self.ds_channel.unwrap_or(0);
                at += 3;
            } else {
                buf[at + 1] = info.len() as u8;
                buf[at + 2..at + 2 + info.len()].copy_from_slice(info);
                at += 2 + info.len();
            }
        }
        at
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn round_trip_and_bytes() {
        let rates = [
            0x82, 0x84, 0x0b, 0x16, 0x0c, 0x12, 0x18, 0x24, 0x30, 0x48, 0x60, 0x6c,
        ];
        let e = Elements::with_rates(Some(b"sim"), &rates, Some(6));
        let mut buf = vec![0u8; e.buffer_len()];
        assert_eq!(e.emit(&mut buf), buf.len());
        assert_eq!(&buf[..5], &[0, 3, b's', b'i', b'm']);
        assert_eq!(&buf[5..7], &[1, 8]);
        assert_eq!(&buf[15..18], &[3, 1, 6]);
        assert_eq!(&buf[18..20], &[50, 4]);
        assert_eq!(Elements::parse(&buf).unwrap(), e);
    }

    #[test]
    fn bad_elements() {
        assert_eq!(Elements::parse(&[0]).unwrap_err(), WireError::Truncated);
        assert_eq!(
            Elements::parse(&[0, 3, 1]).unwrap_err(),
            WireError::Truncated
        );
        assert_eq!(
            Elements::parse(&[3, 2, 1, 1]).unwrap_err(),
            WireError::Malformed
        );
        let mut long_ssid = vec![0, 33];
        long_ssid.extend_from_slice(&[b'a'; 33]);
        assert_eq!(
            Elements::parse(&long_ssid).unwrap_err(),
            WireError::Malformed
        );
        // Unknown elements are skipped.
        let e = Elements::parse(&[221, 2, 0, 0, 0, 0]).unwrap();
        assert_eq!(e.ssid, Some(&[][..]));
    }
}
