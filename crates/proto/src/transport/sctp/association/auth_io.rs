//! SCTP-AUTH on the association's packets (RFC 4895 §6.2–6.3): signing what we send, checking
//! what arrives. The keys and the HMAC live in `sctp/auth.rs`; this file decides which packets
//! and chunks they apply to.

use sctpsim_wire::sctp::{ChunkRepr, ErrorCause};

use super::super::api::OutPacket;
use super::super::auth::Verdict;
use super::{Flow, PacketCtx, SctpAssociation};

impl SctpAssociation {
    /// Whether a chunk of type `kind` must arrive authenticated: it is in our CHUNKS list
    /// (RFC 4895 §6.3: "the receiver MUST silently discard" it otherwise).
    pub(crate) fn auth_required(&self, kind: u8) -> bool {
        self.auth.as_ref().is_some_and(|a| a.local.requires(kind))
    }

    /// Bytes to keep free in every packet we build for an AUTH chunk: its size if the peer
    /// wants any chunk type authenticated, 0 otherwise (and always 0 without AUTH, so runs
    /// without it pack exactly as before). Reserved whatever the packet ends up carrying:
    /// simpler than sizing each packet, at the price of a DATA chunk up to 40 bytes smaller
    /// than it could be when the peer wants only ASCONF authenticated.
    pub(crate) fn auth_reserve(&self) -> usize {
        self.auth.as_ref().map_or(0, |a| a.overhead())
    }

    /// RFC 4895 §6.2: puts an AUTH chunk before the first chunk of `t` that the peer listed
    /// in its CHUNKS parameter.
    pub(crate) fn sign_packet(&mut self, t: &mut OutPacket) {
        if let Some(a) = &self.auth {
            if a.sign(&mut t.packet.chunks) {
                self.stats.auth_sent += 1;
            }
        }
    }

    /// RFC 4895 §6.3: the AUTH chunk at `chunks[index]`. A good HMAC authenticates the chunks
    /// after it; anything else discards them ("the receiver MUST silently discard the AUTH
    /// chunk and all chunks following it"), with an ERROR (Unsupported HMAC Identifier) when
    /// the identifier is one we did not list.
    pub(crate) fn on_auth(
        &mut self,
        ctx: &mut PacketCtx,
        chunks: &[ChunkRepr],
        index: usize,
        raw: Option<&[u8]>,
        authenticated: &mut bool,
    ) -> Flow {
        let Some(a) = &self.auth else {
            return Flow::Continue;
        };
        match a.verify(chunks, index, raw) {
            Verdict::Good => {
                *authenticated = true;
                Flow::Continue
            }
            Verdict::UnsupportedHmac(hmac_id) => {
                self.stats.auth_failures += 1;
                ctx.report
                    .push(ErrorCause::UnsupportedHmacIdentifier { hmac_id });
                Flow::Stop
            }
            Verdict::Bad => {
                self.stats.auth_failures += 1;
                Flow::Stop
            }
        }
    }
}
