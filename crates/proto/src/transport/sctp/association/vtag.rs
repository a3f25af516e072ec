//! Verification tag rules (RFC 9260 §8.5 and the exceptions of §8.5.1), and the bundling rule
//! of §6.10 for chunks that must travel alone.

use std::net::Ipv4Addr;

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::{chunk_type, ChunkFault, ChunkRepr, SctpRepr};

use super::{SctpAssociation, State};

/// The verdict on a packet before its chunks are looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Process the chunks.
    Accept,
    /// Silently discard (RFC 9260 §8.5: "MUST silently discard the packet and MUST NOT process
    /// it any further").
    Discard,
    /// Treat as out of the blue and answer with SHUTDOWN COMPLETE, T bit set, reflecting the
    /// tag (RFC 9260 §8.5.1 E, §8.4 rule 5).
    OotbShutdownAck,
}

/// RFC 9260 §8.5.1 B/C: a chunk with a T bit is accepted with our tag and T clear, or with the
/// peer's tag and T set.
fn t_bit_ok(vtag: u32, t_bit: bool, mine: u32, peer: u32) -> bool {
    if t_bit {
        peer != 0 && vtag == peer
    } else {
        vtag == mine
    }
}

/// Applies §6.10 and §8.5/§8.5.1 to a packet for an association with tags `mine` / `peer` in
/// `state`. `fault_kind`: the type of a chunk after the parsed ones that the codec could not
/// parse ([`sctpsim_wire::sctp::ChunkFault`]); it counts for the bundling rule, and a packet
/// whose only chunk is such a chunk is judged by its type.
pub(crate) fn classify(
    pkt: &SctpRepr,
    state: State,
    mine: u32,
    peer: u32,
    fault_kind: Option<Option<u8>>,
) -> Verdict {
    let vtag = pkt.verification_tag;
    let kinds = || {
        pkt.chunks
            .iter()
            .map(|c| Some(c.kind()))
            .chain(fault_kind.iter().copied())
    };
    // §6.10: "INIT, INIT ACK, and SHUTDOWN COMPLETE chunks MUST NOT be bundled with any other
    // chunk in a packet." FreeBSD stops processing such a packet without an answer ("RFC
    // 4960bis requires stopping the processing of the packet").
    if kinds().count() > 1
        && kinds().any(|k| {
            matches!(
                k,
                Some(chunk_type::INIT | chunk_type::INIT_ACK | chunk_type::SHUTDOWN_COMPLETE)
            )
        })
    {
        return Verdict::Discard;
    }
    let Some(first) = pkt.chunks.first() else {
        // Only a chunk the codec could not parse: an INIT needs tag 0 (§8.5.1 A), anything
        // else our tag (§8.5).
        return match fault_kind {
            Some(Some(chunk_type::INIT)) if vtag == 0 => Verdict::Accept,
            Some(Some(k)) if k != chunk_type::INIT && vtag != 0 && vtag == mine => Verdict::Accept,
            _ => Verdict::Discard,
        };
    };
    match first {
        // §8.5.1 A: "When an endpoint receives an SCTP packet with the Verification Tag set to
        // 0, it SHOULD verify that the packet contains only an INIT chunk."; the INIT's packet
        // "MUST" carry 0.
        ChunkRepr::Init(_) => {
            if vtag == 0 {
                Verdict::Accept
            } else {
                Verdict::Discard
            }
        }
        // §8.5.1 C: SHUTDOWN COMPLETE.
        ChunkRepr::ShutdownComplete { t_bit } => {
            if t_bit_ok(vtag, *t_bit, mine, peer) {
                Verdict::Accept
            } else {
                Verdict::Discard
            }
        }
        // §8.5.1 D: "The receiver of a COOKIE ECHO follows the procedures in Section 5": the
        // tag is checked against the cookie (§5.1.5 step 3, §5.2.4).
        ChunkRepr::CookieEcho { .. } if vtag != 0 => Verdict::Accept,
        // §8.5.1 E: a SHUTDOWN ACK in COOKIE-WAIT or COOKIE-ECHOED is out of the blue.
        ChunkRepr::ShutdownAck if matches!(state, State::CookieWait | State::CookieEchoed) => {
            Verdict::OotbShutdownAck
        }
        _ => {
            if vtag == 0 {
                return Verdict::Discard;
            }
            // §8.5.1 B: a packet carrying an ABORT is accepted by the ABORT's T-bit rule.
            if let Some(t_bit) = pkt.chunks.iter().find_map(|c| match c {
                ChunkRepr::Abort { t_bit, .. } => Some(*t_bit),
                _ => None,
            }) {
                return if t_bit_ok(vtag, t_bit, mine, peer) {
                    Verdict::Accept
                } else {
                    Verdict::Discard
                };
            }
            // §8.5: "the receiver MUST ensure that the value in the Verification Tag field of
            // the received SCTP packet matches its own tag".
            if vtag == mine {
                Verdict::Accept
            } else {
                Verdict::Discard
            }
        }
    }
}

impl SctpAssociation {
    /// Applies the tag rules; answers what needs an answer. Returns whether to process the
    /// chunks.
    pub(crate) fn accept_packet(
        &mut self,
        _now: SimTime,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        pkt: &SctpRepr,
        fault: Option<&ChunkFault>,
    ) -> bool {
        let fault_kind = fault.map(|f| f.kind);
        match classify(pkt, self.state, self.my_vtag, self.peer_vtag, fault_kind) {
            Verdict::Accept => true,
            Verdict::Discard => {
                self.stats.packets_dropped_vtag += 1;
                false
            }
            Verdict::OotbShutdownAck => {
                // §8.4 rule 5: "fill in the Verification Tag field of the outbound packet with
                // the Verification Tag received in the SHUTDOWN ACK chunk and set the T bit".
                let t = super::super::api::OutPacket {
                    path: None,
                    src: dst,
                    dst: src,
                    packet: SctpRepr {
                        src_port: self.local_port,
                        dst_port: self.peer_port,
                        verification_tag: pkt.verification_tag,
                        chunks: vec![ChunkRepr::ShutdownComplete { t_bit: true }],
                    },
                };
                self.pending.push_back(t);
                false
            }
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use sctpsim_wire::sctp::{ErrorCause, Tsn};

    fn pkt(vtag: u32, chunks: Vec<ChunkRepr>) -> SctpRepr {
        SctpRepr {
            src_port: 1,
            dst_port: 2,
            verification_tag: vtag,
            chunks,
        }
    }

    #[test]
    fn rules() {
        let (m, p) = (0x1111, 0x2222);
        let est = State::Established;
        let sack = ChunkRepr::Shutdown {
            cum_tsn_ack: Tsn(1),
        };
        assert_eq!(
            classify(&pkt(m, vec![sack.clone()]), est, m, p, None),
            Verdict::Accept
        );
        assert_eq!(
            classify(&pkt(p, vec![sack.clone()]), est, m, p, None),
            Verdict::Discard
        );
        assert_eq!(
            classify(&pkt(0, vec![sack]), est, m, p, None),
            Verdict::Discard
        );
        let abort = |t_bit| ChunkRepr::Abort {
            t_bit,
            causes: vec![ErrorCause::OutOfResource],
        };
        assert_eq!(
            classify(&pkt(m, vec![abort(false)]), est, m, p, None),
            Verdict::Accept
        );
        assert_eq!(
            classify(&pkt(p, vec![abort(true)]), est, m, p, None),
            Verdict::Accept
        );
        assert_eq!(
            classify(&pkt(p, vec![abort(false)]), est, m, p, None),
            Verdict::Discard
        );
        assert_eq!(
            classify(&pkt(m, vec![abort(true)]), est, m, p, None),
            Verdict::Discard
        );
        // T bit with an unknown peer tag (COOKIE-WAIT): never accepted.
        assert_eq!(
            classify(&pkt(0, vec![abort(true)]), State::CookieWait, m, 0, None),
            Verdict::Discard
        );
        let sc = |t_bit| ChunkRepr::ShutdownComplete { t_bit };
        assert_eq!(
            classify(&pkt(p, vec![sc(true)]), est, m, p, None),
            Verdict::Accept
        );
        assert_eq!(
            classify(&pkt(m, vec![sc(true)]), est, m, p, None),
            Verdict::Discard
        );
        assert_eq!(
            classify(
                &pkt(m, vec![sc(false), ChunkRepr::CookieAck]),
                est,
                m,
                p,
                None
            ),
            Verdict::Discard
        );
        assert_eq!(
            classify(
                &pkt(7, vec![ChunkRepr::ShutdownAck]),
                State::CookieEchoed,
                m,
                p,
                None
            ),
            Verdict::OotbShutdownAck
        );
    }
}
