//! SCTP-AUTH (RFC 4895): what each side offers in its INIT or INIT ACK ([`AuthParams`]: the
//! RANDOM, CHUNKS and HMAC-ALGO parameters), the association shared key built from both offers
//! (§6.1), and signing and verifying packets with the AUTH chunk (§6.2, §6.3).
//!
//! Only the default endpoint-pair shared key exists: key identifier 0, the empty key (§6.1:
//! "if no endpoint pair shared key has been configured"); there is no API to add keys or to
//! roll them over. HMAC-SHA-1 (identifier 1) and HMAC-SHA-256 (identifier 3) are supported,
//! computed with the RustCrypto `hmac`, `sha1` and `sha2` crates.
//!
//! The HMAC is checked over the received bytes ([`RxRaw`]) when the packet came in through
//! [`super::SctpEndpoint::handle_datagram`]; a packet given already parsed
//! ([`super::SctpAssociation::handle_packet`]) is checked over its chunks as the codec
//! re-encodes them, which is the same for a conforming sender.

use hmac::{Hmac, Mac};
use sctpsim_kernel::Rng;
use sctpsim_wire::sctp::{
    chunk_type, hmac_id, AuthChunk, ChunkRepr, ErrorCause, Parameter, SctpPacket,
};
use sha1::Sha1;
use sha2::Sha256;

use super::config::SctpConfig;

/// RFC 4895 §6.1: "The RANDOM parameter MUST contain a 32 byte random number"; a peer's of any
/// other length aborts the association (Protocol Violation).
pub const RANDOM_LEN: usize = 32;

/// RFC 4895 §3.2: the CHUNKS parameter is at most 260 bytes long (256 chunk types); longer
/// lists are cut there when sent.
const MAX_CHUNK_LIST: usize = 256;

/// RFC 4895 §6.1: the Shared Key Identifier of the default endpoint-pair shared key (the empty
/// key), the only one sctpsim has.
pub const DEFAULT_KEY_ID: u16 = 0;

/// Our CHUNKS list (RFC 4895 §3.2): [`SctpConfig::auth_chunks`], plus ASCONF and ASCONF-ACK
/// whenever ASCONF is on (RFC 5061 §4.1.1: they "MUST be sent in an authenticated way"), and
/// RE-CONFIG whenever stream reconfiguration is on (RFC 6525 §3.1), without duplicates, in
/// that order.
pub fn required_chunks(cfg: &SctpConfig) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::new();
    let asconf = [chunk_type::ASCONF, chunk_type::ASCONF_ACK];
    let extra = if cfg.asconf { &asconf[..] } else { &[] };
    // RFC 6525 §3.1: RE-CONFIG "MUST be sent in an authenticated way".
    let reconfig = [chunk_type::RE_CONFIG];
    let reconfig = if cfg.reconfig { &reconfig[..] } else { &[] };
    for &k in cfg.auth_chunks.iter().chain(extra).chain(reconfig) {
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

/// The HMAC algorithm an endpoint asks its peer to use (RFC 4895 §3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AuthHmac {
    /// HMAC-SHA-1 (identifier 1), mandatory to implement (§3.3); HMAC-ALGO lists only it.
    #[default]
    Sha1,
    /// HMAC-SHA-256 (identifier 3); HMAC-ALGO lists it first and SHA-1 second, because every
    /// peer must be able to fall back to SHA-1 (§6.1; Linux and usrsctp abort an INIT whose
    /// HMAC-ALGO lacks SHA-1).
    Sha256,
}

impl AuthHmac {
    /// The HMAC identifiers sent in HMAC-ALGO, in order of preference.
    pub fn offered(self) -> Vec<u16> {
        match self {
            AuthHmac::Sha1 => vec![hmac_id::SHA1],
            AuthHmac::Sha256 => vec![hmac_id::SHA256, hmac_id::SHA1],
        }
    }

    /// The name used in scenarios: `sha1` or `sha256`.
    pub fn name(self) -> &'static str {
        match self {
            AuthHmac::Sha1 => "sha1",
            AuthHmac::Sha256 => "sha256",
        }
    }
}

/// What one endpoint offered for AUTH in its INIT or INIT ACK (RFC 4895 §3.1–3.3).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuthParams {
    /// The Random Number of the RANDOM parameter.
    pub random: Vec<u8>,
    /// The chunk types of the CHUNKS parameter, if one was sent: those the sender of this
    /// offer wants to receive only authenticated.
    pub chunks: Option<Vec<u8>>,
    /// The HMAC identifiers of the HMAC-ALGO parameter, in order of preference.
    pub hmacs: Vec<u16>,
}

impl AuthParams {
    /// Our offer: a fresh 32-byte Random Number drawn from `rng` (the association's or the
    /// endpoint's keyed stream, so runs stay deterministic), the chunk types of `required`
    /// and the identifiers of `hmac`.
    pub fn ours(rng: &mut Rng, required: Vec<u8>, hmac: AuthHmac) -> Self {
        let mut random = Vec::with_capacity(RANDOM_LEN);
        while random.len() < RANDOM_LEN {
            random.extend_from_slice(&rng.next_u64().to_be_bytes());
        }
        AuthParams {
            random,
            chunks: Some(required),
            hmacs: hmac.offered(),
        }
    }

    /// The offer found in an INIT or INIT ACK, if it has a RANDOM parameter. The first of
    /// each kind counts.
    pub fn from_params(params: &[Parameter]) -> Option<Self> {
        let mut random = None;
        let mut chunks = None;
        let mut hmacs = None;
        for p in params {
            match p {
                Parameter::Random(r) if random.is_none() => random = Some(r.clone()),
                Parameter::ChunkList(c) if chunks.is_none() => chunks = Some(c.clone()),
                Parameter::HmacAlgo(h) if hmacs.is_none() => hmacs = Some(h.clone()),
                _ => {}
            }
        }
        Some(AuthParams {
            random: random?,
            chunks,
            hmacs: hmacs.unwrap_or_default(),
        })
    }

    /// RFC 4895 §6.1: a peer's offer that aborts the association (with a Protocol Violation
    /// cause): a Random Number that is not 32 bytes long, or an HMAC-ALGO list without SHA-1
    /// ("every endpoint supporting SCTP chunk authentication MUST support the HMAC based on
    /// the SHA-1 algorithm", §3.3, which Linux and usrsctp enforce this way).
    pub fn violation(&self) -> Option<ErrorCause> {
        let why: &[u8] = if self.random.len() != RANDOM_LEN {
            b"RANDOM parameter is not 32 bytes long (RFC 4895 6.1)"
        } else if !self.hmacs.contains(&hmac_id::SHA1) {
            b"HMAC-ALGO parameter does not list SHA-1 (RFC 4895 3.3)"
        } else {
            return None;
        };
        Some(ErrorCause::ProtocolViolation { info: why.to_vec() })
    }

    /// The parameters to put in an INIT or INIT ACK: RANDOM, CHUNKS, HMAC-ALGO.
    pub fn to_params(&self) -> Vec<Parameter> {
        let mut out = vec![Parameter::Random(self.random.clone())];
        if let Some(c) = &self.chunks {
            let mut c = c.clone();
            c.truncate(MAX_CHUNK_LIST);
            out.push(Parameter::ChunkList(c));
        }
        out.push(Parameter::HmacAlgo(self.hmacs.clone()));
        out
    }

    /// RFC 4895 §6.1 key vector: the RANDOM, CHUNKS (if sent) and HMAC-ALGO parameters as
    /// sent, type and length included, padding excluded, concatenated in that order.
    pub fn key_vector(&self) -> Vec<u8> {
        self.to_params()
            .iter()
            .flat_map(|p| p.to_bytes().unwrap_or_default())
            .collect()
    }

    /// Whether the sender of this offer wants chunk type `kind` authenticated. INIT, INIT
    /// ACK, SHUTDOWN COMPLETE and AUTH never are: "if a CHUNKS parameter is received then the
    /// types for INIT, INIT-ACK, SHUTDOWN-COMPLETE, and AUTH chunks MUST be ignored" (§3.2).
    pub fn requires(&self, kind: u8) -> bool {
        !matches!(
            kind,
            chunk_type::INIT
                | chunk_type::INIT_ACK
                | chunk_type::SHUTDOWN_COMPLETE
                | chunk_type::AUTH
        ) && self.chunks.as_ref().is_some_and(|c| c.contains(&kind))
    }

    /// Serializes the offer for the State Cookie: random, chunks (presence flag), HMACs, each
    /// with a 16-bit count.
    pub(crate) fn encode_into(&self, b: &mut Vec<u8>) {
        let put = |b: &mut Vec<u8>, v: &[u8]| {
            let n = v.len().min(usize::from(u16::MAX));
            b.extend_from_slice(&(n as u16).to_be_bytes());
            b.extend_from_slice(&v[..n]);
        };
        put(b, &self.random);
        match &self.chunks {
            Some(c) => {
                b.push(1);
                put(b, c);
            }
            None => b.push(0),
        }
        let n = self.hmacs.len().min(usize::from(u16::MAX));
        b.extend_from_slice(&(n as u16).to_be_bytes());
        for h in &self.hmacs[..n] {
            b.extend_from_slice(&h.to_be_bytes());
        }
    }

    /// Reads what [`AuthParams::encode_into`] wrote, advancing `b`; `None` if it is cut short.
    pub(crate) fn decode_from(b: &mut &[u8]) -> Option<Self> {
        fn take<'a>(b: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
            let (head, tail) = (b.get(..n)?, b.get(n..)?);
            *b = tail;
            Some(head)
        }
        fn u16_of(b: &mut &[u8]) -> Option<usize> {
            let v = take(b, 2)?;
            Some(usize::from(u16::from_be_bytes([v[0], v[1]])))
        }
        let n = u16_of(b)?;
        let random = take(b, n)?.to_vec();
        let chunks = match take(b, 1)?[0] {
            0 => None,
            _ => {
                let n = u16_of(b)?;
                Some(take(b, n)?.to_vec())
            }
        };
        let n = u16_of(b)?;
        let mut hmacs = Vec::with_capacity(n);
        for _ in 0..n {
            hmacs.push(u16_of(b)? as u16);
        }
        Some(AuthParams {
            random,
            chunks,
            hmacs,
        })
    }
}

/// RFC 4895 §6.1: the association shared key from the endpoint-pair shared key and the two
/// key vectors. "The two key vectors are treated as unsigned integers in network byte order"
/// (the shorter padded with leading zeros to compare them) and the smaller is concatenated
/// first; "if the key vectors are equal as numbers but differ in length", the shorter first.
pub fn association_key(shared: &[u8], a: &[u8], b: &[u8]) -> Vec<u8> {
    let (first, second) = if key_vector_le(a, b) { (a, b) } else { (b, a) };
    let mut key = Vec::with_capacity(shared.len() + a.len() + b.len());
    key.extend_from_slice(shared);
    key.extend_from_slice(first);
    key.extend_from_slice(second);
    key
}

/// Whether key vector `a` goes before `b` (RFC 4895 §6.1).
fn key_vector_le(a: &[u8], b: &[u8]) -> bool {
    let n = a.len().max(b.len());
    let at = |v: &[u8], i: usize| {
        let pad = n - v.len();
        if i < pad {
            0
        } else {
            v[i - pad]
        }
    };
    for i in 0..n {
        let (x, y) = (at(a, i), at(b, i));
        if x != y {
            return x < y;
        }
    }
    a.len() <= b.len()
}

/// HMAC of `data` under `key` with the algorithm `id`, or `None` for an identifier sctpsim
/// does not implement.
pub fn hmac(id: u16, key: &[u8], data: &[u8]) -> Option<Vec<u8>> {
    match id {
        hmac_id::SHA1 => {
            let mut m = Hmac::<Sha1>::new_from_slice(key).ok()?;
            m.update(data);
            Some(m.finalize().into_bytes().to_vec())
        }
        hmac_id::SHA256 => {
            let mut m = Hmac::<Sha256>::new_from_slice(key).ok()?;
            m.update(data);
            Some(m.finalize().into_bytes().to_vec())
        }
        _ => None,
    }
}

/// The chunks of a received packet as they arrived, with the offset of each (the HMAC of RFC
/// 4895 §6.2 covers the bytes on the wire, padding included). Kept only for packets that carry
/// an AUTH chunk.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RxRaw {
    area: Vec<u8>,
    offsets: Vec<usize>,
}

impl RxRaw {
    /// The chunk area and chunk offsets of the SCTP packet `bytes`, up to the first chunk the
    /// walk rejects; `None` if the packet's common header is missing.
    pub(crate) fn of(bytes: &[u8]) -> Option<Self> {
        let packet = SctpPacket::new_checked(bytes).ok()?;
        let area = packet.chunk_bytes();
        let base = area.as_ptr() as usize;
        let offsets = packet
            .chunks()
            .map_while(Result::ok)
            .map(|c| c.bytes().as_ptr() as usize - base)
            .collect();
        Some(RxRaw {
            area: area.to_vec(),
            offsets,
        })
    }

    /// The received bytes from chunk `index` to the end of the packet.
    pub(crate) fn tail(&self, index: usize) -> Option<&[u8]> {
        self.area.get(*self.offsets.get(index)?..)
    }
}

/// The outcome of checking an AUTH chunk (RFC 4895 §6.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The HMAC matches: the chunks after the AUTH chunk are authenticated.
    Good,
    /// The HMAC Identifier is not one we listed: report it (Unsupported HMAC Identifier) and
    /// discard the AUTH chunk and everything after it.
    UnsupportedHmac(u16),
    /// An unknown Shared Key Identifier, an HMAC of the wrong length or a wrong HMAC: discard
    /// the AUTH chunk and everything after it, silently.
    Bad,
}

/// AUTH as negotiated for one association: both offers and the association shared key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthState {
    /// What we offered.
    pub local: AuthParams,
    /// What the peer offered.
    pub peer: AuthParams,
    /// The association shared key for key identifier 0 (§6.1).
    key: Vec<u8>,
    /// The HMAC we send with: the first of the peer's HMAC-ALGO that we implement (§6.1:
    /// "the sender MUST use an HMAC ... listed by the peer").
    pub send_hmac: u16,
}

impl AuthState {
    /// Both offers of an association. `None` if the peer lists no HMAC we implement (its
    /// offer passed [`AuthParams::violation`], so it lists SHA-1; kept as a guard).
    pub fn new(local: AuthParams, peer: AuthParams) -> Option<Self> {
        let send_hmac = peer
            .hmacs
            .iter()
            .copied()
            .find(|id| hmac_id::mac_len(*id).is_some())?;
        let key = association_key(&[], &local.key_vector(), &peer.key_vector());
        Some(AuthState {
            local,
            peer,
            key,
            send_hmac,
        })
    }

    /// Bytes an AUTH chunk adds to a packet we send (0 if the peer requires nothing).
    pub fn overhead(&self) -> usize {
        if self.peer.chunks.as_ref().is_none_or(|c| c.is_empty()) {
            return 0;
        }
        8 + hmac_id::mac_len(self.send_hmac).unwrap_or(0)
    }

    /// The HMAC over `chunks` (an AUTH chunk first, its HMAC zeroed, and the chunks after it,
    /// each padded: RFC 4895 §6.2).
    fn mac_over(&self, id: u16, chunks: &[ChunkRepr]) -> Option<Vec<u8>> {
        let mut data = Vec::new();
        for c in chunks {
            data.extend(c.to_bytes().ok()?);
        }
        hmac(id, &self.key, &data)
    }

    /// RFC 4895 §6.2: puts an AUTH chunk before the first chunk the peer wants authenticated
    /// and computes its HMAC; does nothing if there is no such chunk. Returns whether it
    /// added one.
    pub fn sign(&self, chunks: &mut Vec<ChunkRepr>) -> bool {
        let Some(at) = chunks.iter().position(|c| self.peer.requires(c.kind())) else {
            return false;
        };
        let len = hmac_id::mac_len(self.send_hmac).unwrap_or(0);
        chunks.insert(
            at,
            ChunkRepr::Auth(AuthChunk {
                shared_key_id: DEFAULT_KEY_ID,
                hmac_id: self.send_hmac,
                hmac: vec![0; len],
            }),
        );
        let Some(mac) = self.mac_over(self.send_hmac, &chunks[at..]) else {
            chunks.remove(at);
            return false;
        };
        if let Some(ChunkRepr::Auth(a)) = chunks.get_mut(at) {
            a.hmac = mac;
        }
        true
    }

    /// RFC 4895 §6.3: checks the AUTH chunk at `chunks[at]` against the chunks after it: over
    /// `raw` (the received bytes from the AUTH chunk to the end of the packet) when given,
    /// else over the chunks re-encoded.
    pub(crate) fn verify(&self, chunks: &[ChunkRepr], at: usize, raw: Option<&[u8]>) -> Verdict {
        let Some(ChunkRepr::Auth(auth)) = chunks.get(at) else {
            return Verdict::Bad;
        };
        // "If the HMAC Identifier field does not match one of the HMAC Identifiers listed in
        // the HMAC-ALGO parameter sent by the receiver ... SHOULD send an ERROR chunk with
        // the error cause 'Unsupported HMAC Identifier'".
        if !self.local.hmacs.contains(&auth.hmac_id) {
            return Verdict::UnsupportedHmac(auth.hmac_id);
        }
        // "If an endpoint with no shared key receives a Shared Key Identifier that it does not
        // have a shared key for, it MUST silently discard all authenticated chunks."
        if auth.shared_key_id != DEFAULT_KEY_ID
            || Some(auth.hmac.len()) != hmac_id::mac_len(auth.hmac_id)
        {
            return Verdict::Bad;
        }
        let mac = match raw {
            Some(bytes) => {
                // The AUTH chunk's HMAC field starts after its header and the two identifiers.
                let field = 8..8 + auth.hmac.len();
                let mut data = bytes.to_vec();
                match data.get_mut(field) {
                    Some(f) => f.iter_mut().for_each(|b| *b = 0),
                    None => return Verdict::Bad,
                }
                hmac(auth.hmac_id, &self.key, &data)
            }
            None => {
                let mut zeroed: Vec<ChunkRepr> = chunks[at..].to_vec();
                if let Some(ChunkRepr::Auth(a)) = zeroed.first_mut() {
                    a.hmac.iter_mut().for_each(|b| *b = 0);
                }
                self.mac_over(auth.hmac_id, &zeroed)
            }
        };
        match mac {
            Some(mac) if constant_time_eq(&mac, &auth.hmac) => Verdict::Good,
            _ => Verdict::Bad,
        }
    }
}

/// Compares two MACs without an early exit (habit from real stacks; time does not leak in a
/// simulator, but the comparison costs the same).
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn hmac_known_answers() {
        // RFC 2202 test case 2 (HMAC-SHA-1) and RFC 4231 test case 2 (HMAC-SHA-256):
        // key "Jefe", data "what do ya want for nothing?".
        let data = b"what do ya want for nothing?";
        let sha1 = hmac(hmac_id::SHA1, b"Jefe", data).unwrap();
        let hex = |v: &[u8]| v.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(hex(&sha1), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
        let sha256 = hmac(hmac_id::SHA256, b"Jefe", data).unwrap();
        assert_eq!(
            hex(&sha256),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(hmac(2, b"Jefe", data), None);
    }

    #[test]
    fn key_vectors_are_ordered_as_numbers() {
        // Different lengths: compared with leading zeros, so [1] = [0, 1] < [0, 9].
        assert_eq!(association_key(&[], &[0, 9], &[1]), [1, 0, 9]);
        assert_eq!(association_key(&[], &[2], &[0, 1]), [0, 1, 2]);
        // Equal as numbers, different lengths: the shorter first.
        assert_eq!(association_key(&[], &[0, 5], &[5]), [5, 0, 5]);
        assert_eq!(association_key(&[7], &[2, 0], &[1, 255]), [7, 1, 255, 2, 0]);
        // Symmetric: both ends derive the same key.
        let (a, b) = (vec![3, 1, 4], vec![3, 1, 5]);
        assert_eq!(association_key(&[], &a, &b), association_key(&[], &b, &a));
    }

    #[test]
    fn offers_round_trip_through_parameters_and_cookie() {
        let mut rng = Rng::from_seed(7);
        let ours = AuthParams::ours(&mut rng, vec![0xc1, 0x80], AuthHmac::Sha256);
        assert_eq!(ours.random.len(), RANDOM_LEN);
        assert_eq!(ours.hmacs, [3, 1]);
        assert_eq!(
            AuthParams::from_params(&ours.to_params()),
            Some(ours.clone())
        );
        let mut b = Vec::new();
        ours.encode_into(&mut b);
        let mut s = &b[..];
        assert_eq!(AuthParams::decode_from(&mut s), Some(ours.clone()));
        assert!(s.is_empty());
        let mut cut = &b[..b.len() - 1];
        assert_eq!(AuthParams::decode_from(&mut cut), None);
        // The key vector is the three TLVs without padding: 36 + 6 + 8.
        assert_eq!(ours.key_vector().len(), 36 + 6 + 8);
    }

    #[test]
    fn violations() {
        let mut p = AuthParams {
            random: vec![0; 32],
            chunks: None,
            hmacs: vec![3],
        };
        assert!(p.violation().is_some());
        p.hmacs.push(1);
        assert_eq!(p.violation(), None);
        p.random.pop();
        assert!(p.violation().is_some());
    }

    #[test]
    fn sign_then_verify_and_tamper() {
        let mut rng = Rng::from_seed(1);
        let a = AuthParams::ours(&mut rng, vec![chunk_type::SACK], AuthHmac::Sha1);
        let b = AuthParams::ours(&mut rng, vec![chunk_type::DATA], AuthHmac::Sha256);
        let at_a = AuthState::new(a.clone(), b.clone()).unwrap();
        let at_b = AuthState::new(b, a).unwrap();
        assert_eq!(at_a.key, at_b.key);
        // A sends to B: B asked for DATA; A uses B's first choice, SHA-256.
        let mut chunks = vec![
            ChunkRepr::CookieAck,
            ChunkRepr::Shutdown {
                cum_tsn_ack: sctpsim_wire::sctp::Tsn(1),
            },
        ];
        assert!(!at_a.sign(&mut chunks), "nothing B requires");
        chunks.push(ChunkRepr::Data(sctpsim_wire::sctp::DataChunk {
            tsn: sctpsim_wire::sctp::Tsn(9),
            stream_id: 0,
            ssn: sctpsim_wire::sctp::Ssn(0),
            ppid: 0,
            unordered: false,
            beginning: true,
            ending: true,
            immediate: false,
            user_data: b"abc".to_vec(),
        }));
        assert!(at_a.sign(&mut chunks));
        assert!(matches!(&chunks[2], ChunkRepr::Auth(x) if x.hmac_id == hmac_id::SHA256));
        assert_eq!(at_b.verify(&chunks, 2, None), Verdict::Good);
        // Tampered payload.
        let mut bad = chunks.clone();
        if let ChunkRepr::Data(d) = &mut bad[3] {
            d.user_data[0] ^= 1;
        }
        assert_eq!(at_b.verify(&bad, 2, None), Verdict::Bad);
        // Another key id.
        let mut bad = chunks.clone();
        if let ChunkRepr::Auth(x) = &mut bad[2] {
            x.shared_key_id = 1;
        }
        assert_eq!(at_b.verify(&bad, 2, None), Verdict::Bad);
        // B listed SHA-256 and SHA-1; A only SHA-1: an AUTH to A with SHA-256 is unsupported.
        let mut to_a = chunks.clone();
        to_a.truncate(4);
        assert_eq!(at_a.verify(&to_a, 2, None), Verdict::UnsupportedHmac(3));
        // Over the received bytes: the same packet encoded, then one reserved flag bit of the
        // DATA chunk set on the wire. The codec ignores it (the parsed chunks are the same), the
        // HMAC over the bytes does not.
        let pkt = sctpsim_wire::sctp::SctpRepr {
            src_port: 1,
            dst_port: 2,
            verification_tag: 3,
            chunks: chunks.clone(),
        };
        let mut bytes = vec![0u8; pkt.buffer_len()];
        let n = pkt.emit(&mut bytes).unwrap();
        bytes.truncate(n);
        let raw = RxRaw::of(&bytes).unwrap();
        assert_eq!(at_b.verify(&chunks, 2, raw.tail(2)), Verdict::Good);
        let data_at = 12 + raw.offsets[3];
        bytes[data_at + 1] |= 0x10;
        let raw = RxRaw::of(&bytes).unwrap();
        assert_eq!(at_b.verify(&chunks, 2, raw.tail(2)), Verdict::Bad);
        assert_eq!(raw.tail(9), None);
    }
}
