//! Chunks the codec could not parse (RFC 9260 §3.2, §3.2.1, §6.2): what the receiver does with
//! the chunk where [`SctpRepr::parse_lenient`](sctpsim_wire::sctp::SctpRepr::parse_lenient)
//! stopped. The chunks before it have been processed as usual; nothing after it is.
//!
//! * A partial chunk (a length below 4 or past the end of the packet) is dropped: RFC 9260
//!   §3.2, "If the receiver detects a partial chunk, it MUST drop the chunk."
//! * A DATA chunk shorter than its 16-byte header aborts the association with a Protocol
//!   Violation cause. RFC 9260 §6.2 prescribes an ABORT only for a DATA chunk of exactly 16
//!   bytes (No User Data); for a shorter one FreeBSD (`sctp_indata.c`, the reference of ETSI
//!   TS 102 369) sends "DATA chunk of length N" as a Protocol Violation, and so do we.
//! * An INIT or INIT ACK whose fixed part is complete but whose parameters cannot be parsed (a
//!   parameter length below 4 or past the chunk end, a fixed-size parameter of the wrong size)
//!   is refused with an ABORT carrying a Protocol Violation cause whose information is the
//!   offending parameter's type and length fields, as FreeBSD's
//!   `sctp_arethere_unrecognized_parameters` does. The ABORT for an INIT carries the INIT's
//!   Initiate Tag with the T bit clear (§8.4 rule 3); an existing association is not changed
//!   (§5.2.2). An INIT ACK in COOKIE-WAIT ends the association like any other invalid INIT ACK
//!   (§3.3.3).
//! * A known control chunk after a DATA chunk (RFC 9260 §6.10: "an endpoint MUST place
//!   control chunks first in the outbound SCTP packet") aborts the association with a Protocol
//!   Violation "DATA chunk followed by chunk of type XX". The RFC states only the sender's
//!   duty; FreeBSD (`sctp_process_data`) aborts so, and we follow it. Unknown chunk types
//!   after DATA keep the §3.2 upper-bit rules.
//! * Anything else that is malformed (a SACK whose counts do not fit its length, a truncated
//!   HEARTBEAT, ...) is dropped with the rest of the packet and counted.

use sctpsim_kernel::SimTime;
use sctpsim_wire::sctp::chunk::init::INIT_FIXED_LEN;
use sctpsim_wire::sctp::{chunk_type, ChunkFault, ChunkRepr, ErrorCause, Parameter, UnknownChunk};

use super::{Flow, PacketCtx, SctpAssociation, State};

/// The Protocol Violation cause for an INIT or INIT ACK whose parameters (`params`, the bytes
/// after the 16-byte fixed part) do not parse: the type and length fields of the first bad
/// parameter (FreeBSD sends the same four bytes).
pub(crate) fn param_violation(params: &[u8]) -> ErrorCause {
    let (kind, len) = Parameter::first_invalid(params).unwrap_or((0, 0));
    let mut info = Vec::with_capacity(4);
    info.extend_from_slice(&kind.to_be_bytes());
    info.extend_from_slice(&len.to_be_bytes());
    ErrorCause::ProtocolViolation { info }
}

/// For a malformed INIT (`fault` of type INIT, delimited): the Initiate Tag and the cause of the
/// ABORT that refuses it, or `None` to discard it silently (a fixed part cut short, or an
/// Initiate Tag of 0: §3.3.2 "the receiver MUST silently discard the packet").
pub(crate) fn refuse_malformed_init(fault: &ChunkFault) -> Option<(u32, ErrorCause)> {
    if fault.kind != Some(chunk_type::INIT) || !fault.is_delimited() {
        return None;
    }
    let fixed = fault.value.get(..INIT_FIXED_LEN)?;
    let tag = u32::from_be_bytes([fixed[0], fixed[1], fixed[2], fixed[3]]);
    if tag == 0 {
        return None;
    }
    let params = fault.value.get(INIT_FIXED_LEN..).unwrap_or(&[]);
    Some((tag, param_violation(params)))
}

/// Chunk types a sender must place before any DATA chunk (RFC 9260 §6.10), the known control
/// chunks: the RFC 9260 ones, AUTH (RFC 4895), NR-SACK (0x10), ASCONF / ASCONF-ACK (RFC 5061),
/// PKTDROP (0x81), RE-CONFIG (RFC 6525) and FORWARD TSN (RFC 3758), the list FreeBSD checks.
fn is_known_control(kind: u8) -> bool {
    use chunk_type as t;
    matches!(
        kind,
        t::INIT
            ..=t::SHUTDOWN_COMPLETE
                | t::AUTH
                | 0x10
                | t::ASCONF_ACK
                | 0x81
                | t::RE_CONFIG
                | t::FORWARD_TSN
                | t::ASCONF
    )
}

impl SctpAssociation {
    /// §6.10: `chunk` follows a DATA chunk of the same packet. A known control chunk there
    /// aborts the association (see the module documentation); returns whether it did.
    pub(crate) fn control_after_data(&mut self, now: SimTime, chunk: &ChunkRepr) -> bool {
        let kind = chunk.kind();
        if !self.state.receives_data() || !is_known_control(kind) {
            return false;
        }
        let info = format!("DATA chunk followed by chunk of type {kind:02x}").into_bytes();
        self.abort_with(now, ErrorCause::ProtocolViolation { info }, None);
        true
    }

    /// RFC 8260 §2.2: a DATA chunk on an association that negotiated I-DATA, or an I-DATA
    /// chunk on one that did not (`kind` names it): ABORT with a Protocol Violation cause.
    pub(crate) fn user_data_violation(&mut self, now: SimTime, kind: &str) -> Flow {
        let info = if self.i_data {
            format!("{kind} chunk received while I-DATA is in use")
        } else {
            format!("{kind} chunk received while I-DATA was not negotiated")
        };
        self.abort_with(
            now,
            ErrorCause::ProtocolViolation {
                info: info.into_bytes(),
            },
            None,
        );
        Flow::Stop
    }

    /// The chunk of an accepted packet that the codec could not parse (see the module
    /// documentation).
    pub(crate) fn on_malformed_chunk(&mut self, now: SimTime, ctx: &mut PacketCtx, f: &ChunkFault) {
        self.stats.malformed_chunks += 1;
        if !f.is_delimited() {
            return;
        }
        match f.kind {
            // An endpoint without I-DATA support sees types 64 and 0xC2 as unrecognized
            // (RFC 9260 §3.2), short or not.
            Some(kind @ (chunk_type::I_DATA | chunk_type::I_FORWARD_TSN)) if !self.cfg.i_data => {
                let chunk = ChunkRepr::Unknown(UnknownChunk {
                    kind,
                    flags: f.flags,
                    value: f.value.clone(),
                });
                self.on_unrecognized(ctx, &chunk);
            }
            Some(chunk_type::DATA) if self.state.receives_data() => {
                let info = format!("DATA chunk of length {}", f.length).into_bytes();
                self.abort_with(now, ErrorCause::ProtocolViolation { info }, None);
            }
            Some(chunk_type::I_DATA) if self.i_data && self.state.receives_data() => {
                let info = format!("I-DATA chunk of length {}", f.length).into_bytes();
                self.abort_with(now, ErrorCause::ProtocolViolation { info }, None);
            }
            Some(chunk_type::INIT_ACK) if self.state == State::CookieWait => {
                if let Some(fixed) = f.value.get(..INIT_FIXED_LEN) {
                    let tag = u32::from_be_bytes([fixed[0], fixed[1], fixed[2], fixed[3]]);
                    let cause = param_violation(f.value.get(INIT_FIXED_LEN..).unwrap_or(&[]));
                    self.abort_with(now, cause, Some(tag));
                }
            }
            Some(chunk_type::INIT) => {
                if let Some((tag, cause)) = refuse_malformed_init(f) {
                    let abort = ChunkRepr::Abort {
                        t_bit: false,
                        causes: vec![cause],
                    };
                    let t = self.reply(ctx, tag, vec![abort]);
                    self.pending.push_back(t);
                }
            }
            _ => {}
        }
    }
}
