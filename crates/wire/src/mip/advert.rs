//! Mobile IPv4 agent discovery (RFC 5944 §2): the Agent Advertisement, an ICMP Router
//! Advertisement (RFC 1256) extended with the Mobility Agent Advertisement Extension and,
//! optionally, the Prefix-Lengths Extension; and the Agent Solicitation, an unchanged ICMP
//! Router Solicitation.
//!
//! ```text
//! +--------+--------+--------+--------+
//! |Type = 9|Code    |    Checksum     |   ICMP Router Advertisement (RFC 1256)
//! +--------+--------+--------+--------+
//! |NumAddrs|EntrySz |    Lifetime     |
//! +--------+--------+--------+--------+
//! |   Router Address[i] / Preference[i] ... (EntrySz 32-bit words each)
//! +--------+--------+--------+--------+
//! |Type=16 | Length | Sequence Number |   Mobility Agent Advertisement Extension (§2.1.1)
//! +--------+--------+--------+--------+
//! |Registration Lifetime|RBHFMGrTUXI|rsv|
//! +--------+--------+--------+--------+
//! |      zero or more Care-of Addresses ...
//! +--------+--------+--------+--------+
//! |Type=19 | Length | Prefix Length(s) ...  Prefix-Lengths Extension (§2.1.2), optional
//! ```
//!
//! The ICMP checksum covers the whole message, extensions included.

use std::net::Ipv4Addr;

use super::{emit_tlv, read_addr, tlv_len, write_addr, TlvIter};
use crate::be::{read_u16, write_u16};
use crate::checksum;
use crate::icmp::{Icmpv4Message, Icmpv4Packet};
use crate::{Result, WireError};

/// RFC 1256 §3.1: Type of an ICMP Router Advertisement, which RFC 5944 §2.1 reuses.
pub const ADVERTISEMENT_TYPE: u8 = 9;

/// RFC 1256 §3.2: Type of an ICMP Router Solicitation, which RFC 5944 §2.2 reuses.
pub const SOLICITATION_TYPE: u8 = 10;

/// RFC 5944 §2.1: Code 0, the agent also routes ordinary traffic (a normal router).
pub const CODE_ROUTES_COMMON_TRAFFIC: u8 = 0;

/// RFC 5944 §2.1: Code 16, the agent does not route common traffic (it only serves mobile nodes,
/// though a foreign agent still forwards their datagrams to a default router).
pub const CODE_MOBILITY_ONLY: u8 = 16;

/// RFC 1256 §3.1: each router entry is an address and a preference, two 32-bit words.
pub const ADDR_ENTRY_SIZE: u8 = 2;

/// RFC 1256 §3.1: type, code, checksum, num addrs, entry size and lifetime precede the entries.
pub const HEADER_LEN: usize = 8;

/// RFC 5944 §2.1 and §2.2: advertisements and solicitations are sent with TTL 1, so that they
/// never leave the link the mobile node is attached to.
pub const DISCOVERY_TTL: u8 = 1;

/// RFC 5944 §2.1.1: Type of the Mobility Agent Advertisement Extension.
pub const MOBILITY_AGENT_EXTENSION_TYPE: u8 = 16;

/// RFC 5944 §2.1.2: Type of the Prefix-Lengths Extension.
pub const PREFIX_LENGTHS_EXTENSION_TYPE: u8 = 19;

/// RFC 5944 §2.1.3: Type of the one-byte Pad extension (no length byte), used to make the ICMP
/// message an even length for implementations that expect it.
pub const PAD_EXTENSION_TYPE: u8 = 0;

/// RFC 5944 §2.1.1: sequence number, registration lifetime, flags and reserved byte precede the
/// care-of addresses, so the extension Length is 6 + 4 × (number of care-of addresses).
pub const MOBILITY_AGENT_FIXED_LEN: usize = 6;

/// RFC 5944 §2.1.1: after 0xffff the sequence number continues at 256, so that 0..=255 always
/// mean "the agent has rebooted" to a mobile node.
pub const SEQUENCE_WRAP_TO: u16 = 256;

/// RFC 1256 §3.1: the preference that marks an address that must not be used as a default
/// router.
pub const NEVER_DEFAULT_PREFERENCE: i32 = i32::MIN;

/// The sequence number of the next advertisement (RFC 5944 §2.1.1, see [`SEQUENCE_WRAP_TO`]).
pub fn next_sequence_number(current: u16) -> u16 {
    current.checked_add(1).unwrap_or(SEQUENCE_WRAP_TO)
}

/// One router address of the RFC 1256 part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RouterEntry {
    /// The router (agent) address.
    pub address: Ipv4Addr,
    /// Preference as a default router, signed (RFC 1256 §3.1); higher is preferred.
    pub preference: i32,
}

/// The flags of the Mobility Agent Advertisement Extension (RFC 5944 §2.1.1). The `r` bit and
/// the reserved bits are sent as zero and ignored on reception, so they are not represented.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct AgentFlags {
    /// R: registration with this foreign agent is required even with a co-located care-of
    /// address.
    pub registration_required: bool,
    /// B: the foreign agent accepts no more registrations.
    pub busy: bool,
    /// H: the agent is a home agent on this link.
    pub home_agent: bool,
    /// F: the agent is a foreign agent on this link.
    pub foreign_agent: bool,
    /// M: minimal encapsulation (RFC 2004) is supported.
    pub minimal_encapsulation: bool,
    /// G: GRE encapsulation is supported.
    pub gre_encapsulation: bool,
    /// T: reverse tunnelling (RFC 3024) is supported.
    pub reverse_tunneling: bool,
    /// U: UDP tunnelling for NAT traversal (RFC 3519) is supported.
    pub udp_tunneling: bool,
    /// X: registration revocation (RFC 3543) is supported.
    pub revocation: bool,
    /// I: regional registration (RFC 4857) is supported.
    pub regional_registration: bool,
}

/// Bit positions in the flags-and-reserved word, RFC 5944 §2.1.1 (R B H F M G r T U X I, then
/// five reserved bits, from the most significant).
impl AgentFlags {
    const R: u16 = 0x8000;
    const B: u16 = 0x4000;
    const H: u16 = 0x2000;
    const F: u16 = 0x1000;
    const M: u16 = 0x0800;
    const G: u16 = 0x0400;
    const T: u16 = 0x0100;
    const U: u16 = 0x0080;
    const X: u16 = 0x0040;
    const I: u16 = 0x0020;

    fn table(self) -> [(bool, u16); 10] {
        [
            (self.registration_required, Self::R),
            (self.busy, Self::B),
            (self.home_agent, Self::H),
            (self.foreign_agent, Self::F),
            (self.minimal_encapsulation, Self::M),
            (self.gre_encapsulation, Self::G),
            (self.reverse_tunneling, Self::T),
            (self.udp_tunneling, Self::U),
            (self.revocation, Self::X),
            (self.regional_registration, Self::I),
        ]
    }

    /// Reads the 16-bit flags-and-reserved word; `r` (0x0200) and the reserved bits are ignored.
    pub fn from_bits(bits: u16) -> Self {
        AgentFlags {
            registration_required: bits & Self::R != 0,
            busy: bits & Self::B != 0,
            home_agent: bits & Self::H != 0,
            foreign_agent: bits & Self::F != 0,
            minimal_encapsulation: bits & Self::M != 0,
            gre_encapsulation: bits & Self::G != 0,
            reverse_tunneling: bits & Self::T != 0,
            udp_tunneling: bits & Self::U != 0,
            revocation: bits & Self::X != 0,
            regional_registration: bits & Self::I != 0,
        }
    }

    /// The flags-and-reserved word, with `r` and the reserved bits zero.
    pub fn bits(self) -> u16 {
        self.table()
            .iter()
            .filter(|(set, _)| *set)
            .fold(0, |acc, (_, bit)| acc | bit)
    }
}

/// The Mobility Agent Advertisement Extension (RFC 5944 §2.1.1).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct MobilityAgentExtension {
    /// Advertisements sent since the agent started (see [`next_sequence_number`]); a drop to
    /// below 256 tells mobile nodes the agent rebooted and they must register again.
    pub sequence_number: u16,
    /// The longest registration lifetime this agent accepts, in seconds (0xffff: infinite).
    pub registration_lifetime_s: u16,
    /// What the agent offers.
    pub flags: AgentFlags,
    /// Care-of addresses a foreign agent offers (at least one when F is set).
    pub care_of_addresses: Vec<Ipv4Addr>,
}

impl MobilityAgentExtension {
    fn data_len(&self) -> usize {
        MOBILITY_AGENT_FIXED_LEN + 4 * self.care_of_addresses.len()
    }

    fn parse(data: &[u8]) -> Result<Self> {
        if data.len() < MOBILITY_AGENT_FIXED_LEN
            || !(data.len() - MOBILITY_AGENT_FIXED_LEN).is_multiple_of(4)
        {
            return Err(WireError::Malformed);
        }
        Ok(MobilityAgentExtension {
            sequence_number: read_u16(data, 0),
            registration_lifetime_s: read_u16(data, 2),
            flags: AgentFlags::from_bits(read_u16(data, 4)),
            care_of_addresses: data[MOBILITY_AGENT_FIXED_LEN..]
                .chunks_exact(4)
                .map(|a| read_addr(a, 0))
                .collect(),
        })
    }

    fn to_data(&self) -> Vec<u8> {
        let mut data = vec![0u8; self.data_len()];
        write_u16(&mut data, 0, self.sequence_number);
        write_u16(&mut data, 2, self.registration_lifetime_s);
        write_u16(&mut data, 4, self.flags.bits());
        for (i, addr) in self.care_of_addresses.iter().enumerate() {
            write_addr(&mut data, MOBILITY_AGENT_FIXED_LEN + 4 * i, *addr);
        }
        data
    }
}

/// An extension after the Mobility Agent Advertisement Extension.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AdvertExtension {
    /// RFC 5944 §2.1.2: one prefix length per router address, in the same order.
    PrefixLengths(Vec<u8>),
    /// RFC 5944 §2.1.3: one byte of padding.
    Pad,
    /// Any other extension, kept verbatim (type and data).
    Unknown {
        /// The extension type.
        kind: u8,
        /// The data after the length byte (at most 255 bytes are emitted).
        data: Vec<u8>,
    },
}

impl AdvertExtension {
    fn buffer_len(&self) -> usize {
        match self {
            AdvertExtension::PrefixLengths(p) => tlv_len(p.len()),
            AdvertExtension::Pad => 1,
            AdvertExtension::Unknown { data, .. } => tlv_len(data.len()),
        }
    }

    fn emit(&self, out: &mut [u8]) -> usize {
        match self {
            AdvertExtension::PrefixLengths(p) => emit_tlv(out, PREFIX_LENGTHS_EXTENSION_TYPE, p),
            AdvertExtension::Pad => {
                out[0] = PAD_EXTENSION_TYPE;
                1
            }
            AdvertExtension::Unknown { kind, data } => emit_tlv(out, *kind, data),
        }
    }
}

/// Byte offsets of the RFC 1256 header.
mod field {
    pub(crate) const TYPE: usize = 0;
    pub(crate) const CODE: usize = 1;
    pub(crate) const CHECKSUM: usize = 2;
    pub(crate) const NUM_ADDRS: usize = 4;
    pub(crate) const ENTRY_SIZE: usize = 5;
    pub(crate) const LIFETIME: usize = 6;
}

/// A read/write view of an Agent Advertisement: the whole ICMP message (the IPv4 payload).
///
/// [`AgentAdvertisementPacket::new_checked`] guarantees that the router entries fit, so every
/// accessor is safe afterwards; with `new_unchecked` the field accessors panic on a buffer that
/// is too short (`extensions` never panics).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentAdvertisementPacket<T: AsRef<[u8]>> {
    buffer: T,
}

impl<T: AsRef<[u8]>> AgentAdvertisementPacket<T> {
    /// Wraps a buffer without checking it.
    pub const fn new_unchecked(buffer: T) -> Self {
        AgentAdvertisementPacket { buffer }
    }

    /// Wraps a buffer after [`Self::check_len`] accepted it.
    pub fn new_checked(buffer: T) -> Result<Self> {
        let packet = Self::new_unchecked(buffer);
        packet.check_len()?;
        Ok(packet)
    }

    /// Checks that the header and the router entries fit: [`WireError::Truncated`] if not,
    /// [`WireError::Malformed`] for an entry size below 2 words (RFC 1256 §3.1).
    pub fn check_len(&self) -> Result<()> {
        let data = self.buffer.as_ref();
        if data.len() < HEADER_LEN {
            return Err(WireError::Truncated);
        }
        if data[field::ENTRY_SIZE] < ADDR_ENTRY_SIZE {
            return Err(WireError::Malformed);
        }
        if data.len() < self.entries_end() {
            return Err(WireError::Truncated);
        }
        Ok(())
    }

    fn entries_end(&self) -> usize {
        HEADER_LEN + usize::from(self.num_addrs()) * usize::from(self.addr_entry_size()) * 4
    }

    /// Returns the underlying buffer.
    pub fn into_inner(self) -> T {
        self.buffer
    }

    /// The ICMP type (9 for an advertisement).
    pub fn msg_type(&self) -> u8 {
        self.buffer.as_ref()[field::TYPE]
    }

    /// The ICMP code (0 or 16, see [`CODE_MOBILITY_ONLY`]).
    pub fn code(&self) -> u8 {
        self.buffer.as_ref()[field::CODE]
    }

    /// The ICMP checksum field.
    pub fn checksum(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::CHECKSUM)
    }

    /// Number of router entries.
    pub fn num_addrs(&self) -> u8 {
        self.buffer.as_ref()[field::NUM_ADDRS]
    }

    /// Size of one router entry in 32-bit words.
    pub fn addr_entry_size(&self) -> u8 {
        self.buffer.as_ref()[field::ENTRY_SIZE]
    }

    /// How long the router entries stay valid, in seconds.
    pub fn lifetime_s(&self) -> u16 {
        read_u16(self.buffer.as_ref(), field::LIFETIME)
    }

    /// The router entries (the first two words of each entry).
    pub fn routers(&self) -> impl Iterator<Item = RouterEntry> + '_ {
        let stride = usize::from(self.addr_entry_size()) * 4;
        let entries = self
            .buffer
            .as_ref()
            .get(HEADER_LEN..self.entries_end())
            .unwrap_or(&[]);
        entries.chunks_exact(stride.max(8)).map(|e| RouterEntry {
            address: read_addr(e, 0),
            preference: i32::from_be_bytes([e[4], e[5], e[6], e[7]]),
        })
    }

    /// The extension bytes after the router entries (empty if the buffer is too short).
    pub fn extensions(&self) -> &[u8] {
        let data = self.buffer.as_ref();
        if data.len() < HEADER_LEN {
            return &[];
        }
        data.get(self.entries_end()..).unwrap_or(&[])
    }

    /// Whether the ICMP checksum over the whole buffer verifies.
    pub fn verify_checksum(&self) -> bool {
        self.buffer.as_ref().len() >= HEADER_LEN
            && checksum::internet_checksum(self.buffer.as_ref()) == 0
    }
}

/// An Agent Advertisement (RFC 5944 §2.1).
///
/// Emission puts the Mobility Agent Advertisement Extension first and the other extensions after
/// it in order; parsing accepts the mobility extension anywhere among the extensions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AgentAdvertisementRepr {
    /// Code 16 ([`CODE_MOBILITY_ONLY`]) rather than 0: the agent does not route common traffic.
    pub mobility_only: bool,
    /// Validity of the router entries in seconds (RFC 1256 §3.1).
    pub lifetime_s: u16,
    /// The RFC 1256 router entries (may be empty, RFC 5944 §2.1).
    pub routers: Vec<RouterEntry>,
    /// The Mobility Agent Advertisement Extension.
    pub mobility: MobilityAgentExtension,
    /// The extensions that follow it, in wire order.
    pub extensions: Vec<AdvertExtension>,
}

impl AgentAdvertisementRepr {
    /// Parses an advertisement. Errors: [`WireError::BadChecksum`]; [`WireError::Malformed`] if
    /// the type is not 9, the entry size is not 2 words, an extension has an impossible length,
    /// the Prefix-Lengths Extension does not have one byte per router, or there are two mobility
    /// extensions; [`WireError::Unsupported`] for a code other than 0 and 16 or a plain router
    /// advertisement without the mobility extension; [`WireError::Truncated`] if an entry or
    /// extension is cut.
    pub fn parse<T: AsRef<[u8]>>(packet: &AgentAdvertisementPacket<T>) -> Result<Self> {
        packet.check_len()?;
        if !packet.verify_checksum() {
            return Err(WireError::BadChecksum);
        }
        if packet.msg_type() != ADVERTISEMENT_TYPE || packet.addr_entry_size() != ADDR_ENTRY_SIZE {
            return Err(WireError::Malformed);
        }
        let mobility_only = match packet.code() {
            CODE_ROUTES_COMMON_TRAFFIC => false,
            CODE_MOBILITY_ONLY => true,
            _ => return Err(WireError::Unsupported),
        };
        let routers: Vec<RouterEntry> = packet.routers().collect();
        let mut mobility = None;
        let mut extensions = Vec::new();
        for item in TlvIter::new(packet.extensions(), true) {
            let (kind, data) = item?;
            match kind {
                PAD_EXTENSION_TYPE => extensions.push(AdvertExtension::Pad),
                MOBILITY_AGENT_EXTENSION_TYPE => {
                    if mobility.is_some() {
                        return Err(WireError::Malformed);
                    }
                    mobility = Some(MobilityAgentExtension::parse(data)?);
                }
                PREFIX_LENGTHS_EXTENSION_TYPE => {
                    if data.len() != routers.len() {
                        return Err(WireError::Malformed);
                    }
                    extensions.push(AdvertExtension::PrefixLengths(data.to_vec()));
                }
                kind => extensions.push(AdvertExtension::Unknown {
                    kind,
                    data: data.to_vec(),
                }),
            }
        }
        Ok(AgentAdvertisementRepr {
            mobility_only,
            lifetime_s: packet.lifetime_s(),
            routers,
            mobility: mobility.ok_or(WireError::Unsupported)?,
            extensions,
        })
    }

    /// The prefix lengths of the Prefix-Lengths Extension, if present.
    pub fn prefix_lengths(&self) -> Option<&[u8]> {
        self.extensions.iter().find_map(|e| match e {
            AdvertExtension::PrefixLengths(p) => Some(&p[..]),
            _ => None,
        })
    }

    /// Length of the whole ICMP message.
    pub fn buffer_len(&self) -> usize {
        HEADER_LEN
            + 8 * self.routers.len()
            + tlv_len(self.mobility.data_len())
            + self
                .extensions
                .iter()
                .map(AdvertExtension::buffer_len)
                .sum::<usize>()
    }

    /// Writes the whole ICMP message with its checksum into `packet`, whose buffer must be
    /// exactly [`Self::buffer_len`] long (the checksum covers the whole buffer). More than 255
    /// routers or care-of addresses are cut to what the 8-bit count fields can say.
    ///
    /// # Panics
    /// If the buffer is shorter than [`Self::buffer_len`] (a caller bug).
    pub fn emit<T: AsRef<[u8]> + AsMut<[u8]>>(&self, packet: &mut AgentAdvertisementPacket<T>) {
        let out = packet.buffer.as_mut();
        let routers = &self.routers[..self.routers.len().min(usize::from(u8::MAX))];
        out[field::TYPE] = ADVERTISEMENT_TYPE;
        out[field::CODE] = if self.mobility_only {
            CODE_MOBILITY_ONLY
        } else {
            CODE_ROUTES_COMMON_TRAFFIC
        };
        write_u16(out, field::CHECKSUM, 0);
        out[field::NUM_ADDRS] = routers.len() as u8;
        out[field::ENTRY_SIZE] = ADDR_ENTRY_SIZE;
        write_u16(out, field::LIFETIME, self.lifetime_s);
        let mut at = HEADER_LEN;
        for r in routers {
            write_addr(out, at, r.address);
            out[at + 4..at + 8].copy_from_slice(&r.preference.to_be_bytes());
            at += 8;
        }
        at += emit_tlv(
            &mut out[at..],
            MOBILITY_AGENT_EXTENSION_TYPE,
            &self.mobility.to_data(),
        );
        for ext in &self.extensions {
            at += ext.emit(&mut out[at..]);
        }
        let sum = checksum::internet_checksum(out);
        write_u16(out, field::CHECKSUM, sum);
    }

    /// The emitted ICMP message as a new buffer, ready to be an IPv4 payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut buf = vec![0u8; self.buffer_len()];
        self.emit(&mut AgentAdvertisementPacket::new_unchecked(&mut buf[..]));
        buf
    }
}

/// An Agent Solicitation (RFC 5944 §2.2): an ICMP Router Solicitation (RFC 1256 §3.2) with
/// nothing but a reserved word, sent with TTL [`DISCOVERY_TTL`] by a mobile node that does not
/// want to wait for the next advertisement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct AgentSolicitationRepr;

impl AgentSolicitationRepr {
    /// Parses a solicitation from an ICMP view. Errors: [`WireError::BadChecksum`];
    /// [`WireError::Malformed`] if the type is not 10 or the code not 0 (RFC 1256 §3.2);
    /// [`WireError::Truncated`] below 8 bytes. Bytes after the reserved word are ignored, as
    /// RFC 1256 §5.3 asks of a router.
    pub fn parse<T: AsRef<[u8]>>(packet: &Icmpv4Packet<T>) -> Result<Self> {
        packet.check_len()?;
        if !packet.verify_checksum() {
            return Err(WireError::BadChecksum);
        }
        if packet.msg_type() != Icmpv4Message::RouterSolicit || packet.code() != 0 {
            return Err(WireError::Malformed);
        }
        Ok(AgentSolicitationRepr)
    }

    /// Length of the ICMP message: the 8-byte header.
    pub const fn buffer_len(&self) -> usize {
        HEADER_LEN
    }

    /// Writes the solicitation with its checksum into `packet` (exactly 8 bytes long).
    ///
    /// # Panics
    /// If the buffer is shorter than 8 bytes (a caller bug).
    pub fn emit<T: AsRef<[u8]> + AsMut<[u8]>>(&self, packet: &mut Icmpv4Packet<T>) {
        packet.set_msg_type(Icmpv4Message::RouterSolicit);
        packet.set_code(0);
        packet.set_checksum(0);
        packet.clear_unused();
        packet.fill_checksum();
    }

    /// The emitted ICMP message as a new buffer.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut buf = vec![0u8; HEADER_LEN];
        self.emit(&mut Icmpv4Packet::new_unchecked(&mut buf[..]));
        buf
    }
}
