//! Mobile IPv4 registration (RFC 5944 §3): the Registration Request a mobile node sends (directly
//! or through a foreign agent) to its home agent, the Registration Reply, and the extensions that
//! follow both, in particular the Mobile-Home Authentication Extension (§3.5.2).
//!
//! Both messages are the payload of a UDP datagram to port
//! [`REGISTRATION_PORT`](super::REGISTRATION_PORT); UDP carries the checksum, so these formats
//! have none.
//!
//! ```text
//! Registration Request (§3.3)              Registration Reply (§3.4)
//! +--------+--------+--------+--------+    +--------+--------+--------+--------+
//! |Type = 1|SBDMGrTx|    Lifetime     |    |Type = 3|  Code  |    Lifetime     |
//! +--------+--------+--------+--------+    +--------+--------+--------+--------+
//! |          Home Address             |    |          Home Address             |
//! +--------+--------+--------+--------+    +--------+--------+--------+--------+
//! |           Home Agent              |    |           Home Agent              |
//! +--------+--------+--------+--------+    +--------+--------+--------+--------+
//! |         Care-of Address           |    |    Identification (64 bits)       |
//! +--------+--------+--------+--------+    |                                   |
//! |    Identification (64 bits)       |    +--------+--------+--------+--------+
//! |                                   |    | Extensions ...
//! +--------+--------+--------+--------+
//! | Extensions ...
//! ```

use core::fmt;
use std::net::Ipv4Addr;

use super::{emit_tlv, read_addr, tlv_len, write_addr, TlvIter};
use crate::be::{read_u16, write_u16};
use crate::{Result, WireError};

/// RFC 5944 §3.3: the Type value that identifies a Registration Request.
pub const REQUEST_TYPE: u8 = 1;

/// RFC 5944 §3.4: the Type value that identifies a Registration Reply.
pub const REPLY_TYPE: u8 = 3;

/// RFC 5944 §3.3: fixed part of a request (type, flags, lifetime, three addresses, 64-bit
/// identification); extensions start after it.
pub const REQUEST_LEN: usize = 24;

/// RFC 5944 §3.4: fixed part of a reply (no care-of address, so 4 bytes shorter than a request).
pub const REPLY_LEN: usize = 20;

/// RFC 5944 §3.3/§3.4: a lifetime of all ones asks for (or grants) a binding that never expires.
pub const INFINITE_LIFETIME_S: u16 = 0xffff;

/// RFC 5944 §3.5.2: Type of the Mobile-Home Authentication Extension, which every request and
/// reply exchanged with the home agent must carry.
pub const MOBILE_HOME_AUTH_TYPE: u8 = 32;

/// RFC 5944 §3.5.1: the SPI that precedes the authenticator names the security association, so
/// the extension data is at least these 4 bytes.
pub const SPI_LEN: usize = 4;

/// RFC 5944 §1.9: extension types 128..=255 may be skipped by a receiver that does not know
/// them; an unknown type below 128 makes the whole message be discarded.
pub const FIRST_SKIPPABLE_TYPE: u8 = 128;

/// Byte ranges of the fixed fields (RFC 5944 §3.3, §3.4).
mod field {
    pub(crate) type Field = core::ops::Range<usize>;

    pub(crate) const TYPE: usize = 0;
    /// Request: flags; reply: code.
    pub(crate) const FLAGS_OR_CODE: usize = 1;
    pub(crate) const LIFETIME: Field = 2..4;
    pub(crate) const HOME_ADDRESS: usize = 4;
    pub(crate) const HOME_AGENT: usize = 8;
    pub(crate) const CARE_OF_ADDRESS: usize = 12;
    pub(crate) const REQUEST_IDENT: Field = 16..24;
    pub(crate) const REPLY_IDENT: Field = 12..20;
}

/// The flag bits of a Registration Request (RFC 5944 §3.3). The `r` and `x` bits are sent as zero
/// and ignored on reception, so they are not represented.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RegistrationFlags {
    /// S: the mobile node asks to keep its earlier bindings (simultaneous bindings).
    pub simultaneous_bindings: bool,
    /// B: the mobile node wants broadcasts on its home network tunnelled to it.
    pub broadcast: bool,
    /// D: the mobile node decapsulates itself (co-located care-of address).
    pub decapsulation_by_mobile_node: bool,
    /// M: the mobile node asks for minimal encapsulation (RFC 2004).
    pub minimal_encapsulation: bool,
    /// G: the mobile node asks for GRE encapsulation.
    pub gre_encapsulation: bool,
    /// T: the mobile node asks for a reverse tunnel (RFC 3024).
    pub reverse_tunneling: bool,
}

/// Bit positions in the flags byte, RFC 5944 §3.3 (S B D M G r T x from the most significant).
impl RegistrationFlags {
    const S: u8 = 0x80;
    const B: u8 = 0x40;
    const D: u8 = 0x20;
    const M: u8 = 0x10;
    const G: u8 = 0x08;
    const T: u8 = 0x02;

    /// Reads the flags byte; the reserved `r` (0x04) and `x` (0x01) bits are ignored (§3.3).
    pub fn from_bits(bits: u8) -> Self {
        RegistrationFlags {
            simultaneous_bindings: bits & Self::S != 0,
            broadcast: bits & Self::B != 0,
            decapsulation_by_mobile_node: bits & Self::D != 0,
            minimal_encapsulation: bits & Self::M != 0,
            gre_encapsulation: bits & Self::G != 0,
            reverse_tunneling: bits & Self::T != 0,
        }
    }

    /// The flags byte, with `r` and `x` zero as §3.3 requires of a sender.
    pub fn bits(self) -> u8 {
        [
            (self.simultaneous_bindings, Self::S),
            (self.broadcast, Self::B),
            (self.decapsulation_by_mobile_node, Self::D),
            (self.minimal_encapsulation, Self::M),
            (self.gre_encapsulation, Self::G),
            (self.reverse_tunneling, Self::T),
        ]
        .iter()
        .filter(|(set, _)| *set)
        .fold(0, |acc, (_, bit)| acc | bit)
    }
}

/// The Code of a Registration Reply (RFC 5944 §3.4). Codes 0..=63 accept the registration,
/// 64..=127 are denials by the foreign agent and 128..=191 denials by the home agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReplyCode {
    /// 0: registration accepted.
    Accepted,
    /// 1: accepted, but simultaneous mobility bindings unsupported.
    AcceptedNoSimultaneousBindings,
    /// 64: denied by the foreign agent, reason unspecified.
    FaUnspecified,
    /// 65: denied by the foreign agent, administratively prohibited.
    FaProhibited,
    /// 66: denied by the foreign agent, insufficient resources.
    FaInsufficientResources,
    /// 67: denied by the foreign agent, mobile node failed authentication.
    FaMobileNodeAuthFailed,
    /// 68: denied by the foreign agent, home agent failed authentication.
    FaHomeAgentAuthFailed,
    /// 69: denied by the foreign agent, requested lifetime too long.
    FaLifetimeTooLong,
    /// 70: denied by the foreign agent, poorly formed request.
    FaPoorlyFormedRequest,
    /// 71: denied by the foreign agent, poorly formed reply.
    FaPoorlyFormedReply,
    /// 72: denied by the foreign agent, requested encapsulation unavailable.
    FaEncapsulationUnavailable,
    /// 77: denied by the foreign agent, invalid care-of address.
    FaInvalidCareOfAddress,
    /// 78: denied by the foreign agent, registration timeout.
    FaRegistrationTimeout,
    /// 80: denied by the foreign agent, home network unreachable (ICMP error received).
    FaHomeNetworkUnreachable,
    /// 81: denied by the foreign agent, home agent host unreachable (ICMP error received).
    FaHomeAgentHostUnreachable,
    /// 82: denied by the foreign agent, home agent port unreachable (ICMP error received).
    FaHomeAgentPortUnreachable,
    /// 88: denied by the foreign agent, home agent unreachable (other ICMP error received).
    FaHomeAgentUnreachable,
    /// 128: denied by the home agent, reason unspecified.
    HaUnspecified,
    /// 129: denied by the home agent, administratively prohibited.
    HaProhibited,
    /// 130: denied by the home agent, insufficient resources.
    HaInsufficientResources,
    /// 131: denied by the home agent, mobile node failed authentication.
    HaMobileNodeAuthFailed,
    /// 132: denied by the home agent, foreign agent failed authentication.
    HaForeignAgentAuthFailed,
    /// 133: denied by the home agent, registration Identification mismatch (replay protection).
    HaIdentificationMismatch,
    /// 134: denied by the home agent, poorly formed request.
    HaPoorlyFormedRequest,
    /// 135: denied by the home agent, too many simultaneous mobility bindings.
    HaTooManyBindings,
    /// 136: denied by the home agent, unknown home agent address.
    HaUnknownHomeAgentAddress,
    /// Any other code (later RFCs assign more).
    Other(u8),
}

/// (code, variant) pairs of RFC 5944 §3.4, the single table both conversions read.
const REPLY_CODES: [(u8, ReplyCode); 26] = [
    (0, ReplyCode::Accepted),
    (1, ReplyCode::AcceptedNoSimultaneousBindings),
    (64, ReplyCode::FaUnspecified),
    (65, ReplyCode::FaProhibited),
    (66, ReplyCode::FaInsufficientResources),
    (67, ReplyCode::FaMobileNodeAuthFailed),
    (68, ReplyCode::FaHomeAgentAuthFailed),
    (69, ReplyCode::FaLifetimeTooLong),
    (70, ReplyCode::FaPoorlyFormedRequest),
    (71, ReplyCode::FaPoorlyFormedReply),
    (72, ReplyCode::FaEncapsulationUnavailable),
    (77, ReplyCode::FaInvalidCareOfAddress),
    (78, ReplyCode::FaRegistrationTimeout),
    (80, ReplyCode::FaHomeNetworkUnreachable),
    (81, ReplyCode::FaHomeAgentHostUnreachable),
    (82, ReplyCode::FaHomeAgentPortUnreachable),
    (88, ReplyCode::FaHomeAgentUnreachable),
    (128, ReplyCode::HaUnspecified),
    (129, ReplyCode::HaProhibited),
    (130, ReplyCode::HaInsufficientResources),
    (131, ReplyCode::HaMobileNodeAuthFailed),
    (132, ReplyCode::HaForeignAgentAuthFailed),
    (133, ReplyCode::HaIdentificationMismatch),
    (134, ReplyCode::HaPoorlyFormedRequest),
    (135, ReplyCode::HaTooManyBindings),
    (136, ReplyCode::HaUnknownHomeAgentAddress),
];

impl From<u8> for ReplyCode {
    fn from(value: u8) -> Self {
        REPLY_CODES
            .iter()
            .find(|(code, _)| *code == value)
            .map_or(ReplyCode::Other(value), |(_, variant)| *variant)
    }
}

impl From<ReplyCode> for u8 {
    fn from(value: ReplyCode) -> Self {
        match value {
            ReplyCode::Other(code) => code,
            known => REPLY_CODES
                .iter()
                .find(|(_, variant)| *variant == known)
                .map_or(0, |(code, _)| *code),
        }
    }
}

impl ReplyCode {
    /// RFC 5944 §3.4: codes below 64 grant the registration.
    pub fn is_accepted(self) -> bool {
        u8::from(self) < 64
    }

    /// RFC 5944 §3.4: codes 64..=127 are denials by the foreign agent.
    pub fn is_foreign_agent_denial(self) -> bool {
        (64..128).contains(&u8::from(self))
    }

    /// RFC 5944 §3.4: codes 128..=191 are denials by the home agent.
    pub fn is_home_agent_denial(self) -> bool {
        (128..192).contains(&u8::from(self))
    }
}

impl fmt::Display for ReplyCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "reply code {}", u8::from(*self))
    }
}

/// One registration extension in the TLV format of RFC 5944 §1.9 (type, 8-bit length, data).
/// Unknown types are kept verbatim so that an agent can relay them or apply the skippable rule
/// (§1.9) itself.
///
/// Not modelled: the Long Extension format of §1.10 (type, sub-type, 16-bit length, used by
/// e.g. the Generalized Authentication Extension, type 36, of RFC 3012). Its sub-type byte is
/// read as an 8-bit length, so such a message is split wrongly or rejected as truncated.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Extension {
    /// The extension type.
    pub kind: u8,
    /// The data after the length byte; at most 255 bytes are emitted.
    pub data: Vec<u8>,
}

impl Extension {
    /// A Mobile-Home Authentication Extension (§3.5.2): the SPI then the authenticator (128
    /// bits for the default HMAC-MD5 of §3.5.1; computing it is the caller's job, over the
    /// message bytes up to and including the SPI).
    pub fn mobile_home_auth(spi: u32, authenticator: &[u8]) -> Self {
        let mut data = spi.to_be_bytes().to_vec();
        data.extend_from_slice(authenticator);
        Extension {
            kind: MOBILE_HOME_AUTH_TYPE,
            data,
        }
    }

    /// Whether this is a well-formed Mobile-Home Authentication Extension.
    pub fn is_mobile_home_auth(&self) -> bool {
        self.kind == MOBILE_HOME_AUTH_TYPE && self.data.len() >= SPI_LEN
    }

    /// The SPI of a Mobile-Home Authentication Extension, `None` for other extensions.
    pub fn spi(&self) -> Option<u32> {
        if !self.is_mobile_home_auth() {
            return None;
        }
        let spi: [u8; 4] = self.data[..SPI_LEN].try_into().ok()?;
        Some(u32::from_be_bytes(spi))
    }

    /// The authenticator of a Mobile-Home Authentication Extension, `None` for other extensions.
    pub fn authenticator(&self) -> Option<&[u8]> {
        self.is_mobile_home_auth().then(|| &self.data[SPI_LEN..])
    }

    /// §1.9: whether a receiver that does not know this type may skip it.
    pub fn is_skippable(&self) -> bool {
        self.kind >= FIRST_SKIPPABLE_TYPE
    }

    /// Emitted length: type, length and data.
    pub fn buffer_len(&self) -> usize {
        tlv_len(self.data.len())
    }

    /// Parses every extension in `bytes` (the rest of a registration message after its fixed
    /// part). Errors: [`WireError::Truncated`] if a length runs past the end; a Mobile-Home
    /// Authentication Extension too short for its SPI is [`WireError::Malformed`].
    pub fn parse_all(bytes: &[u8]) -> Result<Vec<Extension>> {
        TlvIter::new(bytes, false)
            .map(|item| {
                let (kind, data) = item?;
                if kind == MOBILE_HOME_AUTH_TYPE && data.len() < SPI_LEN {
                    return Err(WireError::Malformed);
                }
                Ok(Extension {
                    kind,
                    data: data.to_vec(),
                })
            })
            .collect()
    }

    /// Writes `extensions` back to back into `out`, which must hold their combined
    /// [`Extension::buffer_len`].
    fn emit_all(extensions: &[Extension], out: &mut [u8]) {
        let mut at = 0;
        for ext in extensions {
            at += emit_tlv(&mut out[at..], ext.kind, &ext.data);
        }
    }
}

fn extensions_len(extensions: &[Extension]) -> usize {
    extensions.iter().map(Extension::buffer_len).sum()
}

fn read_ident(data: &[u8], range: core::ops::Range<usize>) -> u64 {
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&data[range]);
    u64::from_be_bytes(bytes)
}

macro_rules! registration_packet {
    ($name:ident, $fixed_len:expr, $ident:expr, $doc:literal) => {
        #[doc = $doc]
        ///
        /// Build it with `new_checked` for bytes from the wire: afterwards every accessor is safe.
        /// With `new_unchecked` the field accessors panic if the buffer is shorter than the field
        /// they touch (`extensions` never panics).
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $name<T: AsRef<[u8]>> {
            buffer: T,
        }

        impl<T: AsRef<[u8]>> $name<T> {
            /// Wraps a buffer without checking it.
            pub const fn new_unchecked(buffer: T) -> Self {
                $name { buffer }
            }

            /// Wraps a buffer after `check_len` accepted it.
            pub fn new_checked(buffer: T) -> Result<Self> {
                let packet = Self::new_unchecked(buffer);
                packet.check_len()?;
                Ok(packet)
            }

            /// Checks that the fixed part fits ([`WireError::Truncated`] otherwise).
            pub fn check_len(&self) -> Result<()> {
                if self.buffer.as_ref().len() < $fixed_len {
                    Err(WireError::Truncated)
                } else {
                    Ok(())
                }
            }

            /// Returns the underlying buffer.
            pub fn into_inner(self) -> T {
                self.buffer
            }

            /// The Type byte (1 for a request, 3 for a reply).
            pub fn msg_type(&self) -> u8 {
                self.buffer.as_ref()[field::TYPE]
            }

            /// Seconds the binding should last (0 deregisters).
            pub fn lifetime_s(&self) -> u16 {
                read_u16(self.buffer.as_ref(), field::LIFETIME.start)
            }

            /// The mobile node's permanent address.
            pub fn home_address(&self) -> Ipv4Addr {
                read_addr(self.buffer.as_ref(), field::HOME_ADDRESS)
            }

            /// The mobile node's home agent.
            pub fn home_agent(&self) -> Ipv4Addr {
                read_addr(self.buffer.as_ref(), field::HOME_AGENT)
            }

            /// The 64-bit Identification that matches replies to requests and protects against
            /// replays (§5.7).
            pub fn identification(&self) -> u64 {
                read_ident(self.buffer.as_ref(), $ident)
            }

            /// The extension bytes after the fixed part (empty if the buffer is too short).
            pub fn extensions(&self) -> &[u8] {
                self.buffer.as_ref().get($fixed_len..).unwrap_or(&[])
            }
        }

        impl<T: AsRef<[u8]> + AsMut<[u8]>> $name<T> {
            /// Sets the Type byte.
            pub fn set_msg_type(&mut self, value: u8) {
                self.buffer.as_mut()[field::TYPE] = value;
            }

            /// Sets the lifetime.
            pub fn set_lifetime_s(&mut self, value: u16) {
                write_u16(self.buffer.as_mut(), field::LIFETIME.start, value);
            }

            /// Sets the home address.
            pub fn set_home_address(&mut self, value: Ipv4Addr) {
                write_addr(self.buffer.as_mut(), field::HOME_ADDRESS, value);
            }

            /// Sets the home agent.
            pub fn set_home_agent(&mut self, value: Ipv4Addr) {
                write_addr(self.buffer.as_mut(), field::HOME_AGENT, value);
            }

            /// Sets the Identification.
            pub fn set_identification(&mut self, value: u64) {
                self.buffer.as_mut()[$ident].copy_from_slice(&value.to_be_bytes());
            }

            /// The extension bytes after the fixed part, to fill in.
            pub fn extensions_mut(&mut self) -> &mut [u8] {
                self.buffer
                    .as_mut()
                    .get_mut($fixed_len..)
                    .unwrap_or(&mut [])
            }
        }
    };
}

registration_packet!(
    RegistrationRequestPacket,
    REQUEST_LEN,
    field::REQUEST_IDENT,
    "A read/write view of a Registration Request (RFC 5944 §3.3): the whole UDP payload."
);

registration_packet!(
    RegistrationReplyPacket,
    REPLY_LEN,
    field::REPLY_IDENT,
    "A read/write view of a Registration Reply (RFC 5944 §3.4): the whole UDP payload."
);

impl<T: AsRef<[u8]>> RegistrationRequestPacket<T> {
    /// The raw flags byte (S B D M G r T x).
    pub fn flags(&self) -> u8 {
        self.buffer.as_ref()[field::FLAGS_OR_CODE]
    }

    /// The care-of address: where the home agent should tunnel the mobile node's datagrams.
    pub fn care_of_address(&self) -> Ipv4Addr {
        read_addr(self.buffer.as_ref(), field::CARE_OF_ADDRESS)
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> RegistrationRequestPacket<T> {
    /// Sets the raw flags byte.
    pub fn set_flags(&mut self, value: u8) {
        self.buffer.as_mut()[field::FLAGS_OR_CODE] = value;
    }

    /// Sets the care-of address.
    pub fn set_care_of_address(&mut self, value: Ipv4Addr) {
        write_addr(self.buffer.as_mut(), field::CARE_OF_ADDRESS, value);
    }
}

impl<T: AsRef<[u8]>> RegistrationReplyPacket<T> {
    /// The reply code.
    pub fn code(&self) -> ReplyCode {
        ReplyCode::from(self.buffer.as_ref()[field::FLAGS_OR_CODE])
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> RegistrationReplyPacket<T> {
    /// Sets the reply code.
    pub fn set_code(&mut self, value: ReplyCode) {
        self.buffer.as_mut()[field::FLAGS_OR_CODE] = u8::from(value);
    }
}

/// A Registration Request (RFC 5944 §3.3).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RegistrationRequestRepr {
    /// The S B D M G T flags.
    pub flags: RegistrationFlags,
    /// Requested binding lifetime in seconds; 0 deregisters, [`INFINITE_LIFETIME_S`] never
    /// expires.
    pub lifetime_s: u16,
    /// The mobile node's permanent address.
    pub home_address: Ipv4Addr,
    /// The mobile node's home agent.
    pub home_agent: Ipv4Addr,
    /// Where the home agent should tunnel datagrams for the home address.
    pub care_of_address: Ipv4Addr,
    /// Matches the reply and protects against replays (§5.7: a timestamp or a nonce).
    pub identification: u64,
    /// The extensions, in wire order.
    pub extensions: Vec<Extension>,
}

impl RegistrationRequestRepr {
    /// Parses a request. Errors: [`WireError::Truncated`] if the fixed part or an extension is
    /// cut, [`WireError::Malformed`] if the Type is not 1 or an authentication extension has no
    /// room for its SPI.
    pub fn parse<T: AsRef<[u8]>>(packet: &RegistrationRequestPacket<T>) -> Result<Self> {
        packet.check_len()?;
        if packet.msg_type() != REQUEST_TYPE {
            return Err(WireError::Malformed);
        }
        Ok(RegistrationRequestRepr {
            flags: RegistrationFlags::from_bits(packet.flags()),
            lifetime_s: packet.lifetime_s(),
            home_address: packet.home_address(),
            home_agent: packet.home_agent(),
            care_of_address: packet.care_of_address(),
            identification: packet.identification(),
            extensions: Extension::parse_all(packet.extensions())?,
        })
    }

    /// Length of the whole message: fixed part and extensions.
    pub fn buffer_len(&self) -> usize {
        REQUEST_LEN + extensions_len(&self.extensions)
    }

    /// Writes the message into `packet`, which must be at least [`Self::buffer_len`] long.
    ///
    /// # Panics
    /// If the buffer is shorter than [`Self::buffer_len`] (a caller bug).
    pub fn emit<T: AsRef<[u8]> + AsMut<[u8]>>(&self, packet: &mut RegistrationRequestPacket<T>) {
        packet.set_msg_type(REQUEST_TYPE);
        packet.set_flags(self.flags.bits());
        packet.set_lifetime_s(self.lifetime_s);
        packet.set_home_address(self.home_address);
        packet.set_home_agent(self.home_agent);
        packet.set_care_of_address(self.care_of_address);
        packet.set_identification(self.identification);
        Extension::emit_all(&self.extensions, packet.extensions_mut());
    }

    /// The emitted message as a new buffer, ready to be a UDP payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut buf = vec![0u8; self.buffer_len()];
        self.emit(&mut RegistrationRequestPacket::new_unchecked(&mut buf[..]));
        buf
    }

    /// The first Mobile-Home Authentication Extension, if any.
    pub fn mobile_home_auth(&self) -> Option<&Extension> {
        self.extensions.iter().find(|e| e.is_mobile_home_auth())
    }
}

/// A Registration Reply (RFC 5944 §3.4).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RegistrationReplyRepr {
    /// Whether and by whom the registration was accepted or denied.
    pub code: ReplyCode,
    /// Granted lifetime in seconds (may be shorter than requested).
    pub lifetime_s: u16,
    /// The mobile node's permanent address.
    pub home_address: Ipv4Addr,
    /// The home agent that answered (or the one the mobile node should use, code 136).
    pub home_agent: Ipv4Addr,
    /// Copied from (or, on an identification mismatch, resynchronising) the request.
    pub identification: u64,
    /// The extensions, in wire order.
    pub extensions: Vec<Extension>,
}

impl RegistrationReplyRepr {
    /// Parses a reply. Errors as [`RegistrationRequestRepr::parse`] (the Type must be 3).
    pub fn parse<T: AsRef<[u8]>>(packet: &RegistrationReplyPacket<T>) -> Result<Self> {
        packet.check_len()?;
        if packet.msg_type() != REPLY_TYPE {
            return Err(WireError::Malformed);
        }
        Ok(RegistrationReplyRepr {
            code: packet.code(),
            lifetime_s: packet.lifetime_s(),
            home_address: packet.home_address(),
            home_agent: packet.home_agent(),
            identification: packet.identification(),
            extensions: Extension::parse_all(packet.extensions())?,
        })
    }

    /// Length of the whole message: fixed part and extensions.
    pub fn buffer_len(&self) -> usize {
        REPLY_LEN + extensions_len(&self.extensions)
    }

    /// Writes the message into `packet`, which must be at least [`Self::buffer_len`] long.
    ///
    /// # Panics
    /// If the buffer is shorter than [`Self::buffer_len`] (a caller bug).
    pub fn emit<T: AsRef<[u8]> + AsMut<[u8]>>(&self, packet: &mut RegistrationReplyPacket<T>) {
        packet.set_msg_type(REPLY_TYPE);
        packet.set_code(self.code);
        packet.set_lifetime_s(self.lifetime_s);
        packet.set_home_address(self.home_address);
        packet.set_home_agent(self.home_agent);
        packet.set_identification(self.identification);
        Extension::emit_all(&self.extensions, packet.extensions_mut());
    }

    /// The emitted message as a new buffer, ready to be a UDP payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut buf = vec![0u8; self.buffer_len()];
        self.emit(&mut RegistrationReplyPacket::new_unchecked(&mut buf[..]));
        buf
    }

    /// The first Mobile-Home Authentication Extension, if any.
    pub fn mobile_home_auth(&self) -> Option<&Extension> {
        self.extensions.iter().find(|e| e.is_mobile_home_auth())
    }
}

/// Whatever arrived on UDP port 434: an agent dispatches on the Type byte.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RegistrationMessage {
    /// Type 1.
    Request(RegistrationRequestRepr),
    /// Type 3.
    Reply(RegistrationReplyRepr),
}

impl RegistrationMessage {
    /// Parses a UDP payload. Errors: [`WireError::Truncated`] for an empty or cut message,
    /// [`WireError::Unsupported`] for other types (e.g. the revocation messages of RFC 3543),
    /// else those of the request and reply parsers.
    pub fn parse(payload: &[u8]) -> Result<Self> {
        match payload.first() {
            None => Err(WireError::Truncated),
            Some(&REQUEST_TYPE) => {
                RegistrationRequestRepr::parse(&RegistrationRequestPacket::new_checked(payload)?)
                    .map(RegistrationMessage::Request)
            }
            Some(&REPLY_TYPE) => {
                RegistrationReplyRepr::parse(&RegistrationReplyPacket::new_checked(payload)?)
                    .map(RegistrationMessage::Reply)
            }
            Some(_) => Err(WireError::Unsupported),
        }
    }
}
