//! The State Cookie (RFC 9260 §5.1.3): everything needed to create the association (the TCB),
//! a creation time and lifespan, and a MAC under a secret key so that only the endpoint that
//! made it accepts it (§5.1.5). The MAC is SipHash-2-4 (Aumasson & Bernstein, "SipHash: a fast
//! short-input PRF", INDOCRYPT 2012), implemented here; the 128-bit key comes from the
//! endpoint's `Rng`.
//!
//! Layout (big-endian): version (1), created ns (8), lifespan ns (8), local tag, peer tag,
//! local tie-tag, peer tie-tag (4 each), local and peer initial TSN (4 each), peer a_rwnd (4),
//! outbound and inbound streams (2 each), local and peer port (2 each), flags (1), peer address
//! count (1) and addresses (4 each), local address count (1) and addresses, then, only when
//! AUTH (RFC 4895) was offered by both sides (flag 4), our and the peer's AUTH offers (the
//! COOKIE ECHO side needs both to derive the association key, RFC 4895 §6.1), MAC (8). Without
//! AUTH the layout, and so the cookie's size, is what it was before AUTH existed.

use std::net::Ipv4Addr;

use sctpsim_kernel::{Rng, SimDuration, SimTime};
use sctpsim_wire::sctp::Tsn;

use super::auth::AuthParams;

const VERSION: u8 = 1;
const MAC_LEN: usize = 8;
const FLAG_PR_SCTP: u8 = 1;
const FLAG_ASCONF: u8 = 2;
const FLAG_AUTH: u8 = 4;
const FLAG_I_DATA: u8 = 8;
const FLAG_I_FORWARD_TSN: u8 = 16;
const FLAG_RECONFIG: u8 = 32;
const FLAG_NR_SACK: u8 = 64;
/// Addresses kept per side in a cookie.
const MAX_ADDRS: usize = 64;

/// The secret key of the cookie MAC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CookieKey(pub [u64; 2]);

impl CookieKey {
    /// A fresh key drawn from `rng` (RFC 9260 §5.1.3: "a secret key").
    pub fn random(rng: &mut Rng) -> Self {
        CookieKey([rng.next_u64(), rng.next_u64()])
    }

    /// SipHash-2-4 of `data` under this key.
    pub fn mac(&self, data: &[u8]) -> u64 {
        siphash24(self.0[0], self.0[1], data)
    }
}

/// Why a cookie was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CookieError {
    /// Too short, wrong version or inconsistent lengths.
    Malformed,
    /// The MAC does not match (RFC 9260 §5.1.5 step 2: silently discard).
    BadMac,
}

/// The contents of a State Cookie: the TCB of the association to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateCookie {
    /// When the INIT ACK carrying it was made.
    pub created: SimTime,
    /// Its lifespan (Valid.Cookie.Life plus any Cookie Preservative increment).
    pub lifetime: SimDuration,
    /// Our verification tag (the Initiate Tag of our INIT ACK).
    pub my_vtag: u32,
    /// The peer's verification tag (the Initiate Tag of its INIT).
    pub peer_vtag: u32,
    /// RFC 9260 §5.2.2 Local-Tie-Tag (0 when no association existed).
    pub local_tie_tag: u32,
    /// RFC 9260 §5.2.2 Peer's-Tie-Tag (0 when no association existed).
    pub peer_tie_tag: u32,
    /// Our Initial TSN.
    pub my_initial_tsn: Tsn,
    /// The peer's Initial TSN.
    pub peer_initial_tsn: Tsn,
    /// The peer's a_rwnd.
    pub peer_rwnd: u32,
    /// Negotiated outbound streams (ours).
    pub outbound_streams: u16,
    /// Negotiated inbound streams (ours).
    pub inbound_streams: u16,
    /// Our port.
    pub local_port: u16,
    /// The peer's port.
    pub peer_port: u16,
    /// The peer offered PR-SCTP (Forward-TSN-Supported).
    pub peer_pr_sctp: bool,
    /// The peer offered ASCONF (Supported Extensions).
    pub peer_asconf: bool,
    /// The peer listed I-DATA in its Supported Extensions (RFC 8260 §2.2).
    pub peer_i_data: bool,
    /// The peer listed I-FORWARD-TSN in its Supported Extensions (RFC 8260 §2.3.1).
    pub peer_i_forward_tsn: bool,
    /// The peer listed RE-CONFIG in its Supported Extensions (RFC 6525 §3.1).
    pub peer_reconfig: bool,
    /// The peer listed NR-SACK in its Supported Extensions.
    pub peer_nr_sack: bool,
    /// The peer's addresses; the first is the source of its INIT.
    pub peer_addrs: Vec<Ipv4Addr>,
    /// Our addresses; the first is the one the INIT was sent to.
    pub local_addrs: Vec<Ipv4Addr>,
    /// AUTH (RFC 4895), when both sides offered it: our offer (from the INIT ACK) and the
    /// peer's (from the INIT).
    pub auth: Option<(AuthParams, AuthParams)>,
}

impl StateCookie {
    /// Serializes and appends the MAC.
    pub fn encode(&self, key: &CookieKey) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + 4 * (self.peer_addrs.len() + self.local_addrs.len()));
        b.push(VERSION);
        b.extend_from_slice(&self.created.0.to_be_bytes());
        b.extend_from_slice(&self.lifetime.0.to_be_bytes());
        for v in [
            self.my_vtag,
            self.peer_vtag,
            self.local_tie_tag,
            self.peer_tie_tag,
            self.my_initial_tsn.0,
            self.peer_initial_tsn.0,
            self.peer_rwnd,
        ] {
            b.extend_from_slice(&v.to_be_bytes());
        }
        for v in [
            self.outbound_streams,
            self.inbound_streams,
            self.local_port,
            self.peer_port,
        ] {
            b.extend_from_slice(&v.to_be_bytes());
        }
        let mut flags = 0;
        if self.peer_pr_sctp {
            flags |= FLAG_PR_SCTP;
        }
        if self.peer_asconf {
            flags |= FLAG_ASCONF;
        }
        if self.auth.is_some() {
            flags |= FLAG_AUTH;
        }
        if self.peer_i_data {
            flags |= FLAG_I_DATA;
        }
        if self.peer_i_forward_tsn {
            flags |= FLAG_I_FORWARD_TSN;
        }
        if self.peer_reconfig {
            flags |= FLAG_RECONFIG;
        }
        if self.peer_nr_sack {
            flags |= FLAG_NR_SACK;
        }
        b.push(flags);
        for list in [&self.peer_addrs, &self.local_addrs] {
            let n = list.len().min(MAX_ADDRS);
            b.push(n as u8);
            for a in &list[..n] {
                b.extend_from_slice(&a.octets());
            }
        }
        if let Some((local, peer)) = &self.auth {
            local.encode_into(&mut b);
            peer.encode_into(&mut b);
        }
        let mac = key.mac(&b);
        b.extend_from_slice(&mac.to_be_bytes());
        b
    }

    /// Verifies the MAC and parses (RFC 9260 §5.1.5 steps 1–2). Never panics.
    pub fn decode(bytes: &[u8], key: &CookieKey) -> Result<StateCookie, CookieError> {
        if bytes.len() < MAC_LEN + 1 {
            return Err(CookieError::Malformed);
        }
        let (body, mac) = bytes.split_at(bytes.len() - MAC_LEN);
        let mut m = [0u8; 8];
        m.copy_from_slice(mac);
        if key.mac(body) != u64::from_be_bytes(m) {
            return Err(CookieError::BadMac);
        }
        let mut r = Cursor { b: body, pos: 0 };
        if r.u8()? != VERSION {
            return Err(CookieError::Malformed);
        }
        let created = SimTime(r.u64()?);
        let lifetime = SimDuration(r.u64()?);
        let my_vtag = r.u32()?;
        let peer_vtag = r.u32()?;
        let local_tie_tag = r.u32()?;
        let peer_tie_tag = r.u32()?;
        let my_initial_tsn = Tsn(r.u32()?);
        let peer_initial_tsn = Tsn(r.u32()?);
        let peer_rwnd = r.u32()?;
        let outbound_streams = r.u16()?;
        let inbound_streams = r.u16()?;
        let local_port = r.u16()?;
        let peer_port = r.u16()?;
        let flags = r.u8()?;
        let mut lists = [Vec::new(), Vec::new()];
        for list in &mut lists {
            let n = r.u8()?;
            for _ in 0..n {
                list.push(Ipv4Addr::from(r.u32()?));
            }
        }
        let auth = if flags & FLAG_AUTH != 0 {
            let mut rest = body.get(r.pos..).unwrap_or(&[]);
            let local = AuthParams::decode_from(&mut rest).ok_or(CookieError::Malformed)?;
            let peer = AuthParams::decode_from(&mut rest).ok_or(CookieError::Malformed)?;
            r.pos = body.len() - rest.len();
            Some((local, peer))
        } else {
            None
        };
        if r.pos != body.len() {
            return Err(CookieError::Malformed);
        }
        let [peer_addrs, local_addrs] = lists;
        Ok(StateCookie {
            created,
            lifetime,
            my_vtag,
            peer_vtag,
            local_tie_tag,
            peer_tie_tag,
            my_initial_tsn,
            peer_initial_tsn,
            peer_rwnd,
            outbound_streams,
            inbound_streams,
            local_port,
            peer_port,
            peer_pr_sctp: flags & FLAG_PR_SCTP != 0,
            peer_asconf: flags & FLAG_ASCONF != 0,
            peer_i_data: flags & FLAG_I_DATA != 0,
            peer_i_forward_tsn: flags & FLAG_I_FORWARD_TSN != 0,
            peer_reconfig: flags & FLAG_RECONFIG != 0,
            peer_nr_sack: flags & FLAG_NR_SACK != 0,
            peer_addrs,
            local_addrs,
            auth,
        })
    }

    /// RFC 9260 §5.1.5 step 4: how long ago the lifespan ended, if it did.
    pub fn staleness(&self, now: SimTime) -> Option<SimDuration> {
        let expiry = self.created + self.lifetime;
        (now > expiry).then(|| now - expiry)
    }
}

struct Cursor<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], CookieError> {
        let s = self
            .b
            .get(self.pos..self.pos + N)
            .ok_or(CookieError::Malformed)?;
        self.pos += N;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }
    fn u8(&mut self) -> Result<u8, CookieError> {
        Ok(self.take::<1>()?[0])
    }
    fn u16(&mut self) -> Result<u16, CookieError> {
        Ok(u16::from_be_bytes(self.take()?))
    }
    fn u32(&mut self) -> Result<u32, CookieError> {
        Ok(u32::from_be_bytes(self.take()?))
    }
    fn u64(&mut self) -> Result<u64, CookieError> {
        Ok(u64::from_be_bytes(self.take()?))
    }
}

/// SipHash-2-4 (two compression rounds per 8-byte word, four finalization rounds) with key
/// `(k0, k1)` read as two little-endian words.
pub fn siphash24(k0: u64, k1: u64, data: &[u8]) -> u64 {
    let mut v = [
        k0 ^ 0x736f_6d65_7073_6575,
        k1 ^ 0x646f_7261_6e64_6f6d,
        k0 ^ 0x6c79_6765_6e65_7261,
        k1 ^ 0x7465_6462_7974_6573,
    ];
    fn round(v: &mut [u64; 4]) {
        v[0] = v[0].wrapping_add(v[1]);
        v[1] = v[1].rotate_left(13) ^ v[0];
        v[0] = v[0].rotate_left(32);
        v[2] = v[2].wrapping_add(v[3]);
        v[3] = v[3].rotate_left(16) ^ v[2];
        v[0] = v[0].wrapping_add(v[3]);
        v[3] = v[3].rotate_left(21) ^ v[0];
        v[2] = v[2].wrapping_add(v[1]);
        v[1] = v[1].rotate_left(17) ^ v[2];
        v[2] = v[2].rotate_left(32);
    }
    let mut words = data.chunks_exact(8);
    for w in words.by_ref() {
        let mut m = [0u8; 8];
        m.copy_from_slice(w);
        let m = u64::from_le_bytes(m);
        v[3] ^= m;
        round(&mut v);
        round(&mut v);
        v[0] ^= m;
    }
    let rest = words.remainder();
    let mut last = [0u8; 8];
    last[..rest.len()].copy_from_slice(rest);
    last[7] = data.len() as u8;
    let m = u64::from_le_bytes(last);
    v[3] ^= m;
    round(&mut v);
    round(&mut v);
    v[0] ^= m;
    v[2] ^= 0xff;
    for _ in 0..4 {
        round(&mut v);
    }
    v[0] ^ v[1] ^ v[2] ^ v[3]
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn siphash_reference_vectors() {
        // The SipHash paper's Appendix A vector: key 00..0f, message 00..0e.
        let k0 = u64::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7]);
        let k1 = u64::from_le_bytes([8, 9, 10, 11, 12, 13, 14, 15]);
        let msg: Vec<u8> = (0..15).collect();
        assert_eq!(siphash24(k0, k1, &msg), 0xa129_ca61_49be_45e5);
        // First entry of the reference implementation's vectors.h (empty message).
        assert_eq!(siphash24(k0, k1, &[]), 0x726f_db47_dd0e_0e31);
    }

    fn sample() -> StateCookie {
        StateCookie {
            created: SimTime(123),
            lifetime: SimDuration::from_secs(60),
            my_vtag: 1,
            peer_vtag: 2,
            local_tie_tag: 3,
            peer_tie_tag: 4,
            my_initial_tsn: Tsn(5),
            peer_initial_tsn: Tsn(6),
            peer_rwnd: 7,
            outbound_streams: 8,
            inbound_streams: 9,
            local_port: 10,
            peer_port: 11,
            peer_pr_sctp: true,
            peer_asconf: false,
            peer_i_data: true,
            peer_i_forward_tsn: true,
            peer_reconfig: false,
            peer_nr_sack: true,
            peer_addrs: vec![Ipv4Addr::new(1, 2, 3, 4), Ipv4Addr::new(5, 6, 7, 8)],
            local_addrs: vec![Ipv4Addr::new(9, 9, 9, 9)],
            auth: None,
        }
    }

    #[test]
    fn auth_offers_ride_in_the_cookie() {
        let key = CookieKey::random(&mut Rng::from_seed(9));
        let mut rng = Rng::from_seed(3);
        let mut c = sample();
        let plain = c.encode(&key).len();
        let ours = AuthParams::ours(&mut rng, vec![0xc1, 0x80], super::super::AuthHmac::Sha1);
        let theirs = AuthParams::ours(&mut rng, vec![], super::super::AuthHmac::Sha256);
        c.auth = Some((ours, theirs));
        let bytes = c.encode(&key);
        assert!(bytes.len() > plain);
        assert_eq!(StateCookie::decode(&bytes, &key), Ok(c));
    }

    #[test]
    fn round_trip_and_tampering() {
        let key = CookieKey::random(&mut Rng::from_seed(9));
        let c = sample();
        let bytes = c.encode(&key);
        assert_eq!(StateCookie::decode(&bytes, &key), Ok(c.clone()));
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x40;
            assert!(StateCookie::decode(&bad, &key).is_err(), "byte {i}");
        }
        let other = CookieKey([1, 2]);
        assert_eq!(
            StateCookie::decode(&bytes, &other),
            Err(CookieError::BadMac)
        );
        for n in 0..bytes.len() {
            let _ = StateCookie::decode(&bytes[..n], &key);
        }
        assert_eq!(
            c.staleness(SimTime::ZERO + SimDuration::from_secs(60)),
            None
        );
        assert_eq!(
            c.staleness(SimTime(124) + SimDuration::from_secs(60)),
            Some(SimDuration(1))
        );
    }
}
