//! Property tests: `parse(emit(x)) == x` for every SCTP chunk type, parameter and error cause,
//! and for whole packets; emitting into a short buffer is an error, never a panic.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::collection::vec;
use proptest::prelude::*;
use sctpsim_wire::sctp::{
    sctp_packet, AsconfAckChunk, AsconfChunk, AuthChunk, ChunkRepr, Chunks, DataChunk, ErrorCause,
    ForwardTsnChunk, ForwardTsnStream, GapAckBlock, IDataChunk, IForwardTsnChunk,
    IForwardTsnStream, InitChunk, Mid, NrSackChunk, Parameter, RawChunk, ReconfigChunk,
    ReconfigParam, ReconfigResult, SackChunk, SctpPacket, SctpRepr, Ssn, Tsn, UnknownChunk,
};
use sctpsim_wire::{IpProtocol, Ipv4Packet, Ipv4Repr, WireError};

fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..max)
}

fn ip_addr() -> impl Strategy<Value = IpAddr> {
    prop_oneof![
        any::<u32>().prop_map(|a| IpAddr::V4(Ipv4Addr::from(a))),
        any::<u128>().prop_map(|a| IpAddr::V6(Ipv6Addr::from(a))),
    ]
}

fn tsn() -> impl Strategy<Value = Tsn> {
    any::<u32>().prop_map(Tsn)
}

/// Cause codes with a variant of their own.
fn is_known_cause(code: u16) -> bool {
    (1..=13).contains(&code) || (0xa0..=0xa4).contains(&code) || code == 0x0105
}

fn error_cause() -> impl Strategy<Value = ErrorCause> {
    prop_oneof![
        any::<u16>().prop_map(|stream_id| ErrorCause::InvalidStreamIdentifier { stream_id }),
        vec(any::<u16>(), 0..6)
            .prop_map(|missing| ErrorCause::MissingMandatoryParameter { missing }),
        any::<u32>().prop_map(|staleness_us| ErrorCause::StaleCookie { staleness_us }),
        Just(ErrorCause::OutOfResource),
        bytes(24).prop_map(|address| ErrorCause::UnresolvableAddress { address }),
        bytes(24).prop_map(|chunk| ErrorCause::UnrecognizedChunkType { chunk }),
        Just(ErrorCause::InvalidMandatoryParameter),
        bytes(24).prop_map(|parameters| ErrorCause::UnrecognizedParameters { parameters }),
        tsn().prop_map(|tsn| ErrorCause::NoUserData { tsn }),
        Just(ErrorCause::CookieReceivedWhileShuttingDown),
        bytes(24).prop_map(|addresses| ErrorCause::RestartWithNewAddresses { addresses }),
        bytes(24).prop_map(|reason| ErrorCause::UserInitiatedAbort { reason }),
        bytes(24).prop_map(|info| ErrorCause::ProtocolViolation { info }),
        bytes(24).prop_map(|request| ErrorCause::DeleteLastRemainingAddress { request }),
        bytes(24).prop_map(|request| ErrorCause::OperationRefusedResourceShortage { request }),
        bytes(24).prop_map(|request| ErrorCause::DeleteSourceAddress { request }),
        Just(ErrorCause::IllegalAsconfAck),
        bytes(24).prop_map(|request| ErrorCause::RequestRefusedNoAuthorization { request }),
        any::<u16>().prop_map(|hmac_id| ErrorCause::UnsupportedHmacIdentifier { hmac_id }),
        (
            any::<u16>().prop_filter("known code", |c| !is_known_cause(*c)),
            bytes(24)
        )
            .prop_map(|(code, info)| ErrorCause::Unknown { code, info }),
    ]
}

/// Parameter types with a variant of their own.
fn is_known_param(kind: u16) -> bool {
    matches!(kind, 5..=9 | 11 | 12 | 0x8000 | 0x8002..=0x8004 | 0x8008)
        || (0xc000..=0xc006).contains(&kind)
}

fn parameter() -> impl Strategy<Value = Parameter> {
    prop_oneof![
        ip_addr().prop_map(Parameter::Address),
        bytes(40).prop_map(Parameter::StateCookie),
        bytes(24).prop_map(Parameter::UnrecognizedParameter),
        any::<u32>().prop_map(|increment_ms| Parameter::CookiePreservative { increment_ms }),
        bytes(24).prop_map(Parameter::HostNameAddress),
        vec(any::<u16>(), 0..5).prop_map(Parameter::SupportedAddressTypes),
        Just(Parameter::EcnCapable),
        Just(Parameter::ForwardTsnSupported),
        bytes(8).prop_map(Parameter::SupportedExtensions),
        bytes(40).prop_map(Parameter::Random),
        bytes(8).prop_map(Parameter::ChunkList),
        vec(any::<u16>(), 0..5).prop_map(Parameter::HmacAlgo),
        (any::<u32>(), ip_addr()).prop_map(|(correlation_id, address)| Parameter::AddIpAddress {
            correlation_id,
            address
        }),
        (any::<u32>(), ip_addr()).prop_map(|(correlation_id, address)| {
            Parameter::DeleteIpAddress {
                correlation_id,
                address,
            }
        }),
        (any::<u32>(), ip_addr()).prop_map(|(correlation_id, address)| {
            Parameter::SetPrimaryAddress {
                correlation_id,
                address,
            }
        }),
        (any::<u32>(), vec(error_cause(), 0..4)).prop_map(|(correlation_id, causes)| {
            Parameter::ErrorCauseIndication {
                correlation_id,
                causes,
            }
        }),
        any::<u32>().prop_map(|correlation_id| Parameter::SuccessIndication { correlation_id }),
        any::<u32>().prop_map(|code_point| Parameter::AdaptationLayerIndication { code_point }),
        (
            any::<u16>().prop_filter("known type", |k| !is_known_param(*k)),
            bytes(24)
        )
            .prop_map(|(kind, value)| Parameter::Unknown { kind, value }),
    ]
}

/// Chunk types with a variant of their own.
fn is_known_chunk(kind: u8) -> bool {
    kind <= 16 || matches!(kind, 64 | 0x80 | 0x82 | 0xc0 | 0xc1 | 0xc2)
}

fn reconfig_param() -> impl Strategy<Value = ReconfigParam> {
    prop_oneof![
        (any::<u32>(), any::<u32>(), tsn(), vec(any::<u16>(), 0..9)).prop_map(
            |(request_seq, response_seq, last_tsn, streams)| ReconfigParam::OutgoingSsnReset {
                request_seq,
                response_seq,
                last_tsn,
                streams,
            }
        ),
        (any::<u32>(), vec(any::<u16>(), 0..9)).prop_map(|(request_seq, streams)| {
            ReconfigParam::IncomingSsnReset {
                request_seq,
                streams,
            }
        }),
        any::<u32>().prop_map(|request_seq| ReconfigParam::SsnTsnReset { request_seq }),
        (
            any::<u32>(),
            any::<u32>(),
            proptest::option::of((tsn(), tsn()))
        )
            .prop_map(|(response_seq, code, next_tsns)| ReconfigParam::Response {
                response_seq,
                result: ReconfigResult::from_code(code),
                next_tsns,
            }),
        (any::<u32>(), any::<u16>()).prop_map(|(request_seq, new_streams)| {
            ReconfigParam::AddOutgoingStreams {
                request_seq,
                new_streams,
            }
        }),
        (any::<u32>(), any::<u16>()).prop_map(|(request_seq, new_streams)| {
            ReconfigParam::AddIncomingStreams {
                request_seq,
                new_streams,
            }
        }),
        (
            any::<u16>().prop_filter("known type", |k| !(13..=18).contains(k)),
            bytes(24)
        )
            .prop_map(|(kind, value)| ReconfigParam::Unknown { kind, value }),
    ]
}

fn data_chunk() -> impl Strategy<Value = DataChunk> {
    (
        tsn(),
        any::<u16>(),
        any::<u16>(),
        any::<u32>(),
        any::<[bool; 4]>(),
        bytes(300),
    )
        .prop_map(
            |(tsn, stream_id, ssn, ppid, [u, b, e, i], user_data)| DataChunk {
                tsn,
                stream_id,
                ssn: Ssn(ssn),
                ppid,
                unordered: u,
                beginning: b,
                ending: e,
                immediate: i,
                user_data,
            },
        )
}

fn i_data_chunk() -> impl Strategy<Value = IDataChunk> {
    (
        tsn(),
        any::<u16>(),
        any::<u32>(),
        any::<u32>(),
        any::<[bool; 4]>(),
        bytes(300),
    )
        .prop_map(
            |(tsn, stream_id, mid, ppid_or_fsn, [u, b, e, i], user_data)| IDataChunk {
                tsn,
                stream_id,
                mid: Mid(mid),
                ppid_or_fsn,
                unordered: u,
                beginning: b,
                ending: e,
                immediate: i,
                user_data,
            },
        )
}

fn init_chunk() -> impl Strategy<Value = InitChunk> {
    (
        any::<u32>(),
        any::<u32>(),
        any::<u16>(),
        any::<u16>(),
        tsn(),
        vec(parameter(), 0..8),
    )
        .prop_map(
            |(initiate_tag, a_rwnd, outbound_streams, inbound_streams, initial_tsn, params)| {
                InitChunk {
                    initiate_tag,
                    a_rwnd,
                    outbound_streams,
                    inbound_streams,
                    initial_tsn,
                    params,
                }
            },
        )
}

fn sack_chunk() -> impl Strategy<Value = SackChunk> {
    (
        tsn(),
        any::<u32>(),
        vec(any::<(u16, u16)>(), 0..40),
        vec(tsn(), 0..40),
        any::<(bool, bool)>(),
    )
        .prop_map(
            |(cum_tsn_ack, a_rwnd, gaps, duplicate_tsns, (per_path, dac_two_packets))| SackChunk {
                per_path,
                dac_two_packets,
                cum_tsn_ack,
                a_rwnd,
                gap_blocks: gaps
                    .into_iter()
                    .map(|(start, end)| GapAckBlock { start, end })
                    .collect(),
                duplicate_tsns,
            },
        )
}

fn nr_sack_chunk() -> impl Strategy<Value = NrSackChunk> {
    (sack_chunk(), vec(any::<(u16, u16)>(), 0..40)).prop_map(|(sack, nr)| NrSackChunk {
        sack,
        nr_gap_blocks: nr
            .into_iter()
            .map(|(start, end)| GapAckBlock { start, end })
            .collect(),
    })
}

fn chunk() -> impl Strategy<Value = ChunkRepr> {
    prop_oneof![
        nr_sack_chunk().prop_map(ChunkRepr::NrSack),
        data_chunk().prop_map(ChunkRepr::Data),
        init_chunk().prop_map(ChunkRepr::Init),
        init_chunk().prop_map(ChunkRepr::InitAck),
        sack_chunk().prop_map(ChunkRepr::Sack),
        bytes(64).prop_map(|info| ChunkRepr::Heartbeat { info }),
        bytes(64).prop_map(|info| ChunkRepr::HeartbeatAck { info }),
        (any::<bool>(), vec(error_cause(), 0..5))
            .prop_map(|(t_bit, causes)| ChunkRepr::Abort { t_bit, causes }),
        tsn().prop_map(|cum_tsn_ack| ChunkRepr::Shutdown { cum_tsn_ack }),
        Just(ChunkRepr::ShutdownAck),
        vec(error_cause(), 0..5).prop_map(|causes| ChunkRepr::Error { causes }),
        bytes(100).prop_map(|cookie| ChunkRepr::CookieEcho { cookie }),
        Just(ChunkRepr::CookieAck),
        tsn().prop_map(|lowest_tsn| ChunkRepr::Ecne { lowest_tsn }),
        tsn().prop_map(|lowest_tsn| ChunkRepr::Cwr { lowest_tsn }),
        any::<bool>().prop_map(|t_bit| ChunkRepr::ShutdownComplete { t_bit }),
        (any::<u32>(), ip_addr(), vec(parameter(), 0..6), 0u8..3).prop_map(
            |(sequence_number, address, params, h)| ChunkRepr::Asconf(AsconfChunk {
                handoff: match h {
                    0 => sctpsim_wire::sctp::HandoffIndication::None,
                    1 => sctpsim_wire::sctp::HandoffIndication::Start,
                    _ => sctpsim_wire::sctp::HandoffIndication::End,
                },
                sequence_number,
                address,
                params
            })
        ),
        (any::<u32>(), vec(parameter(), 0..6)).prop_map(|(sequence_number, params)| {
            ChunkRepr::AsconfAck(AsconfAckChunk {
                sequence_number,
                params,
            })
        }),
        (tsn(), vec(any::<(u16, u16)>(), 0..20)).prop_map(|(new_cum_tsn, streams)| {
            ChunkRepr::ForwardTsn(ForwardTsnChunk {
                new_cum_tsn,
                streams: streams
                    .into_iter()
                    .map(|(stream_id, ssn)| ForwardTsnStream {
                        stream_id,
                        ssn: Ssn(ssn),
                    })
                    .collect(),
            })
        }),
        i_data_chunk().prop_map(ChunkRepr::IData),
        vec(reconfig_param(), 1..3)
            .prop_map(|params| ChunkRepr::Reconfig(ReconfigChunk { params })),
        (tsn(), vec(any::<(u16, bool, u32)>(), 0..20)).prop_map(|(new_cum_tsn, streams)| {
            ChunkRepr::IForwardTsn(IForwardTsnChunk {
                new_cum_tsn,
                streams: streams
                    .into_iter()
                    .map(|(stream_id, unordered, mid)| IForwardTsnStream {
                        stream_id,
                        unordered,
                        mid: Mid(mid),
                    })
                    .collect(),
            })
        }),
        (any::<u16>(), any::<u16>(), bytes(40)).prop_map(|(shared_key_id, hmac_id, hmac)| {
            ChunkRepr::Auth(AuthChunk {
                shared_key_id,
                hmac_id,
                hmac,
            })
        }),
        (
            any::<u8>().prop_filter("known type", |k| !is_known_chunk(*k)),
            any::<u8>(),
            bytes(64)
        )
            .prop_map(|(kind, flags, value)| ChunkRepr::Unknown(UnknownChunk {
                kind,
                flags,
                value
            })),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn chunk_round_trip(repr in chunk()) {
        let bytes = repr.to_bytes().unwrap();
        prop_assert_eq!(bytes.len(), repr.buffer_len());
        prop_assert_eq!(bytes.len() % 4, 0);
        let raw = RawChunk::new_checked(&bytes).unwrap();
        prop_assert_eq!(raw.kind(), repr.kind());
        prop_assert_eq!(raw.flags(), repr.flags());
        prop_assert_eq!(raw.length(), repr.chunk_len());
        prop_assert_eq!(ChunkRepr::parse(&raw).unwrap(), repr);
        // Padding bytes are zero (RFC 9260 §3.2).
        prop_assert!(bytes[raw.length()..].iter().all(|&b| b == 0));
    }

    #[test]
    fn short_buffers_are_errors(repr in chunk(), cut in 1usize..64) {
        let len = repr.buffer_len().saturating_sub(cut);
        let mut buf = vec![0u8; len];
        prop_assert_eq!(repr.emit(&mut buf), Err(WireError::Truncated));
    }

    #[test]
    fn parameter_round_trip(param in parameter()) {
        let bytes = param.to_bytes().unwrap();
        prop_assert_eq!(bytes.len(), param.param_len());
        prop_assert_eq!(Parameter::parse_list(&bytes).unwrap(), vec![param]);
    }

    #[test]
    fn parameter_list_round_trip(params in vec(parameter(), 0..8)) {
        // Through an INIT: list padding and the chunk length rule together.
        let repr = ChunkRepr::Init(InitChunk {
            initiate_tag: 1, a_rwnd: 2, outbound_streams: 3, inbound_streams: 4,
            initial_tsn: Tsn(5), params,
        });
        let bytes = repr.to_bytes().unwrap();
        prop_assert_eq!(RawChunk::new_checked(&bytes).unwrap().parse().unwrap(), repr);
    }

    #[test]
    fn cause_round_trip(cause in error_cause()) {
        let bytes = cause.to_bytes().unwrap();
        prop_assert_eq!(bytes.len(), cause.cause_len());
        prop_assert_eq!(ErrorCause::parse_list(&bytes).unwrap(), vec![cause]);
    }

    #[test]
    fn packet_round_trip(
        src_port in any::<u16>(),
        dst_port in any::<u16>(),
        verification_tag in any::<u32>(),
        chunks in vec(chunk(), 0..6),
    ) {
        let repr = SctpRepr { src_port, dst_port, verification_tag, chunks };
        let mut buf = vec![0u8; repr.buffer_len()];
        prop_assert_eq!(repr.emit(&mut buf), Ok(buf.len()));
        let packet = SctpPacket::new_checked(&buf[..]).unwrap();
        prop_assert!(packet.verify_checksum());
        prop_assert_eq!(packet.chunks().count(), repr.chunks.len());
        prop_assert_eq!(SctpRepr::parse(&packet).unwrap(), repr);
    }

    #[test]
    fn ipv4_packet_round_trip(
        src in any::<u32>(), dst in any::<u32>(), ttl in any::<u8>(), ident in any::<u16>(),
        vtag in any::<u32>(), chunks in vec(chunk(), 1..4),
    ) {
        let (src, dst) = (Ipv4Addr::from(src), Ipv4Addr::from(dst));
        let bytes = sctp_packet(src, dst, ttl, ident, 1, 2, vtag, &chunks);
        let ip = Ipv4Packet::new_checked(&bytes[..]).unwrap();
        let ip_repr = Ipv4Repr::parse(&ip).unwrap();
        prop_assert_eq!(ip_repr.protocol, IpProtocol::Sctp);
        prop_assert_eq!((ip_repr.src_addr, ip_repr.dst_addr, ip_repr.ttl), (src, dst, ttl));
        let sctp = SctpRepr::parse(&SctpPacket::new_checked(ip.payload()).unwrap()).unwrap();
        prop_assert_eq!(sctp.verification_tag, vtag);
        prop_assert_eq!(sctp.chunks, chunks);
    }

    #[test]
    fn bundles_walk_like_their_parts(chunks in vec(chunk(), 0..8)) {
        let mut bytes = Vec::new();
        for c in &chunks {
            bytes.extend(c.to_bytes().unwrap());
        }
        let parsed: Vec<ChunkRepr> = Chunks::new(&bytes)
            .map(|raw| raw.and_then(|r| r.parse()).unwrap())
            .collect();
        prop_assert_eq!(parsed, chunks);
    }
}

#[test]
fn oversized_values_are_errors_not_panics() {
    let huge = ChunkRepr::CookieEcho {
        cookie: vec![0; 65_532],
    };
    assert_eq!(huge.to_bytes(), Err(WireError::Malformed));
    let max = ChunkRepr::CookieEcho {
        cookie: vec![0; 65_531],
    };
    assert_eq!(max.to_bytes().map(|b| b.len()), Ok(65_536));
    let sack = ChunkRepr::Sack(SackChunk {
        per_path: false,
        dac_two_packets: false,
        cum_tsn_ack: Tsn(0),
        a_rwnd: 0,
        gap_blocks: vec![GapAckBlock { start: 1, end: 1 }; 70_000],
        duplicate_tsns: vec![],
    });
    assert_eq!(sack.to_bytes(), Err(WireError::Malformed));
    let nr_sack = ChunkRepr::NrSack(NrSackChunk {
        sack: SackChunk {
            per_path: false,
            dac_two_packets: false,
            cum_tsn_ack: Tsn(0),
            a_rwnd: 0,
            gap_blocks: vec![],
            duplicate_tsns: vec![],
        },
        nr_gap_blocks: vec![GapAckBlock { start: 1, end: 1 }; 70_000],
    });
    assert_eq!(nr_sack.to_bytes(), Err(WireError::Malformed));
    let big_param = Parameter::StateCookie(vec![0; 70_000]);
    assert_eq!(big_param.to_bytes(), Err(WireError::Malformed));
    let a = Ipv4Addr::new(10, 0, 0, 1);
    assert_eq!(
        sctpsim_wire::sctp::try_sctp_packet(a, a, 1, 1, 1, 1, 1, &[max.clone(), max]),
        Err(WireError::Malformed)
    );
}
