//! Writes a capture with every SCTP chunk type this crate encodes (an association's life: INIT
//! to SHUTDOWN COMPLETE, with SACK gaps, heartbeats, every error cause, ECN, PR-SCTP and
//! ASCONF), to the path given as the first argument, for checking with Wireshark/tshark:
//!
//! ```text
//! cargo run -p sctpsim-wire --example sctp_pcap -- /tmp/sctp.pcap
//! tshark -r /tmp/sctp.pcap -o sctp.checksum:CRC-32C -o ip.check_checksum:TRUE -V \
//!        -Y '_ws.malformed || _ws.expert.severity >= error'
//! ```
//!
//! The last command must print nothing. `tests/sctp_tshark.rs` runs the same check and compares
//! field values.

use std::fs::File;
use std::io::BufWriter;
use std::net::{IpAddr, Ipv6Addr};

use sctpsim_wire::pcap::LINKTYPE_RAW;
use sctpsim_wire::sctp::{
    chunk_type, param_type, sctp_packet, AsconfAckChunk, AsconfChunk, ChunkRepr, DataChunk,
    ErrorCause, ForwardTsnChunk, ForwardTsnStream, GapAckBlock, IDataChunk, IForwardTsnChunk,
    IForwardTsnStream, InitChunk, Mid, NrSackChunk, Parameter, ReconfigChunk, ReconfigParam,
    ReconfigResult, SackChunk, Ssn, Tsn, UnknownChunk,
};
use sctpsim_wire::{Ipv4Addr, PcapWriter};

/// Client address.
pub const A: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
/// Server address.
pub const B: Ipv4Addr = Ipv4Addr::new(10, 0, 1, 2);
/// Client port.
pub const PORT_A: u16 = 5001;
/// Server port (discard, so that no upper-layer dissector runs on DATA).
pub const PORT_B: u16 = 9;
/// The client's verification tag (the server puts it in packets to the client).
pub const TAG_A: u32 = 0x1122_3344;
/// The server's verification tag.
pub const TAG_B: u32 = 0xa1b2_c3d4;

fn data(
    tsn: u32,
    stream_id: u16,
    ssn: u16,
    flags: (bool, bool, bool, bool),
    len: usize,
) -> ChunkRepr {
    let (unordered, beginning, ending, immediate) = flags;
    ChunkRepr::Data(DataChunk {
        tsn: Tsn(tsn),
        stream_id,
        ssn: Ssn(ssn),
        ppid: 0,
        unordered,
        beginning,
        ending,
        immediate,
        user_data: (0..len).map(|i| (i * 3 + tsn as usize) as u8).collect(),
    })
}

/// Every error cause with a field value.
pub fn all_causes() -> Vec<ErrorCause> {
    let unrecognized_param = Parameter::Unknown {
        kind: 0xC0FE,
        value: vec![1, 2, 3],
    }
    .to_bytes()
    .unwrap();
    vec![
        ErrorCause::InvalidStreamIdentifier { stream_id: 7 },
        ErrorCause::MissingMandatoryParameter {
            missing: vec![param_type::STATE_COOKIE],
        },
        ErrorCause::StaleCookie {
            staleness_us: 123_456,
        },
        ErrorCause::OutOfResource,
        ErrorCause::UnresolvableAddress {
            address: Parameter::Address(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7)))
                .to_bytes()
                .unwrap(),
        },
        ErrorCause::UnrecognizedChunkType {
            chunk: vec![0xc5, 0x00, 0x00, 0x08, 1, 2, 3, 4],
        },
        ErrorCause::InvalidMandatoryParameter,
        ErrorCause::UnrecognizedParameters {
            parameters: unrecognized_param,
        },
        ErrorCause::NoUserData { tsn: Tsn(1004) },
        ErrorCause::CookieReceivedWhileShuttingDown,
        ErrorCause::RestartWithNewAddresses {
            addresses: Parameter::Address(IpAddr::V4(Ipv4Addr::new(10, 0, 2, 1)))
                .to_bytes()
                .unwrap(),
        },
        ErrorCause::UserInitiatedAbort {
            reason: b"bye".to_vec(),
        },
        ErrorCause::ProtocolViolation {
            info: b"bad sack".to_vec(),
        },
    ]
}

/// The sample packets, each with a label: (label, IPv4 packet).
pub fn sample_packets() -> Vec<(&'static str, Vec<u8>)> {
    let to_b = |ident: u16, vtag: u32, chunks: &[ChunkRepr]| {
        sctp_packet(A, B, 64, ident, PORT_A, PORT_B, vtag, chunks)
    };
    let to_a = |ident: u16, vtag: u32, chunks: &[ChunkRepr]| {
        sctp_packet(B, A, 64, ident, PORT_B, PORT_A, vtag, chunks)
    };
    let v6 = IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1));
    let init = ChunkRepr::Init(InitChunk {
        initiate_tag: TAG_A,
        a_rwnd: 65_536,
        outbound_streams: 10,
        inbound_streams: 65_535,
        initial_tsn: Tsn(1000),
        params: vec![
            Parameter::Address(IpAddr::V4(A)),
            Parameter::Address(IpAddr::V4(Ipv4Addr::new(10, 0, 2, 1))),
            Parameter::Address(v6),
            Parameter::CookiePreservative { increment_ms: 5000 },
            Parameter::SupportedAddressTypes(vec![param_type::IPV4_ADDRESS]),
            Parameter::EcnCapable,
            Parameter::ForwardTsnSupported,
            Parameter::SupportedExtensions(vec![
                chunk_type::FORWARD_TSN,
                chunk_type::ASCONF,
                chunk_type::ASCONF_ACK,
            ]),
            Parameter::AdaptationLayerIndication {
                code_point: 0x0102_0304,
            },
        ],
    });
    let unknown_param = Parameter::Unknown {
        kind: 0xC0FE,
        value: vec![1, 2, 3],
    };
    let init_ack = ChunkRepr::InitAck(InitChunk {
        initiate_tag: TAG_B,
        a_rwnd: 131_072,
        outbound_streams: 10,
        inbound_streams: 10,
        initial_tsn: Tsn(0xffff_fffe),
        params: vec![
            Parameter::StateCookie(b"a cookie of 27 bytes, opaque".to_vec()),
            Parameter::Address(IpAddr::V4(B)),
            Parameter::UnrecognizedParameter(unknown_param.to_bytes().unwrap()),
            Parameter::HostNameAddress(b"peer.example\0".to_vec()),
            Parameter::EcnCapable,
            Parameter::ForwardTsnSupported,
        ],
    });
    let sack = ChunkRepr::Sack(SackChunk {
        per_path: false,
        dac_two_packets: false,
        cum_tsn_ack: Tsn(1001),
        a_rwnd: 60_000,
        gap_blocks: vec![
            GapAckBlock { start: 2, end: 3 },
            GapAckBlock { start: 5, end: 5 },
        ],
        duplicate_tsns: vec![Tsn(1000), Tsn(1001), Tsn(999)],
    });
    vec![
        ("INIT", to_b(1, 0, &[init])),
        ("INIT ACK", to_a(1, TAG_A, &[init_ack])),
        (
            "COOKIE ECHO + DATA",
            to_b(
                2,
                TAG_B,
                &[
                    ChunkRepr::CookieEcho {
                        cookie: b"a cookie of 27 bytes, opaque".to_vec(),
                    },
                    data(1000, 0, 0, (false, true, true, false), 5),
                ],
            ),
        ),
        ("COOKIE ACK", to_a(2, TAG_A, &[ChunkRepr::CookieAck])),
        (
            "DATA x3",
            to_b(
                3,
                TAG_B,
                &[
                    data(1001, 1, 0, (false, true, false, false), 100),
                    data(1002, 1, 0, (false, false, false, false), 101),
                    data(1003, 1, 0, (false, false, true, true), 3),
                ],
            ),
        ),
        (
            "DATA unordered",
            to_b(
                4,
                TAG_B,
                &[data(1004, 2, 0, (true, true, true, false), 512)],
            ),
        ),
        ("SACK", to_a(3, TAG_A, &[sack])),
        (
            "HEARTBEAT",
            to_b(
                5,
                TAG_B,
                &[ChunkRepr::Heartbeat {
                    info: b"path 10.0.1.2 t=12345".to_vec(),
                }],
            ),
        ),
        (
            "HEARTBEAT ACK",
            to_a(
                4,
                TAG_A,
                &[ChunkRepr::HeartbeatAck {
                    info: b"path 10.0.1.2 t=12345".to_vec(),
                }],
            ),
        ),
        (
            "ERROR",
            to_a(
                5,
                TAG_A,
                &[ChunkRepr::Error {
                    causes: all_causes(),
                }],
            ),
        ),
        (
            "ECNE",
            to_a(
                6,
                TAG_A,
                &[ChunkRepr::Ecne {
                    lowest_tsn: Tsn(1003),
                }],
            ),
        ),
        (
            "CWR",
            to_b(
                6,
                TAG_B,
                &[ChunkRepr::Cwr {
                    lowest_tsn: Tsn(1003),
                }],
            ),
        ),
        (
            "FORWARD TSN",
            to_b(
                7,
                TAG_B,
                &[ChunkRepr::ForwardTsn(ForwardTsnChunk {
                    new_cum_tsn: Tsn(1010),
                    streams: vec![
                        ForwardTsnStream {
                            stream_id: 1,
                            ssn: Ssn(4),
                        },
                        ForwardTsnStream {
                            stream_id: 3,
                            ssn: Ssn(65_535),
                        },
                    ],
                })],
            ),
        ),
        (
            "I-DATA",
            to_b(
                14,
                TAG_B,
                &[
                    ChunkRepr::IData(IDataChunk {
                        tsn: Tsn(1011),
                        stream_id: 2,
                        mid: Mid(0),
                        ppid_or_fsn: 51,
                        unordered: false,
                        beginning: true,
                        ending: false,
                        immediate: false,
                        user_data: b"first".to_vec(),
                    }),
                    ChunkRepr::IData(IDataChunk {
                        tsn: Tsn(1012),
                        stream_id: 2,
                        mid: Mid(0),
                        ppid_or_fsn: 1,
                        unordered: false,
                        beginning: false,
                        ending: true,
                        immediate: false,
                        user_data: b"second".to_vec(),
                    }),
                ],
            ),
        ),
        (
            "I-FORWARD-TSN",
            to_b(
                15,
                TAG_B,
                &[ChunkRepr::IForwardTsn(IForwardTsnChunk {
                    new_cum_tsn: Tsn(1013),
                    streams: vec![IForwardTsnStream {
                        stream_id: 2,
                        unordered: true,
                        mid: Mid(7),
                    }],
                })],
            ),
        ),
        (
            "RE-CONFIG requests",
            to_b(
                16,
                TAG_B,
                &[ChunkRepr::Reconfig(ReconfigChunk {
                    params: vec![
                        ReconfigParam::OutgoingSsnReset {
                            request_seq: 1000,
                            response_seq: 4999,
                            last_tsn: Tsn(1012),
                            streams: vec![1, 2, 5],
                        },
                        ReconfigParam::IncomingSsnReset {
                            request_seq: 1001,
                            streams: vec![3],
                        },
                    ],
                })],
            ),
        ),
        (
            "RE-CONFIG add streams",
            to_b(
                17,
                TAG_B,
                &[ChunkRepr::Reconfig(ReconfigChunk {
                    params: vec![
                        ReconfigParam::AddOutgoingStreams {
                            request_seq: 1002,
                            new_streams: 4,
                        },
                        ReconfigParam::AddIncomingStreams {
                            request_seq: 1003,
                            new_streams: 2,
                        },
                    ],
                })],
            ),
        ),
        (
            "RE-CONFIG SSN/TSN reset",
            to_b(
                18,
                TAG_B,
                &[ChunkRepr::Reconfig(ReconfigChunk {
                    params: vec![ReconfigParam::SsnTsnReset { request_seq: 1004 }],
                })],
            ),
        ),
        (
            "RE-CONFIG responses",
            to_b(
                19,
                TAG_B,
                &[ChunkRepr::Reconfig(ReconfigChunk {
                    params: vec![
                        ReconfigParam::Response {
                            response_seq: 5000,
                            result: ReconfigResult::Performed,
                            next_tsns: Some((Tsn(0x8000_1000), Tsn(0x8000_2000))),
                        },
                        ReconfigParam::Response {
                            response_seq: 5001,
                            result: ReconfigResult::InProgress,
                            next_tsns: None,
                        },
                    ],
                })],
            ),
        ),
        (
            "ASCONF",
            to_b(
                8,
                TAG_B,
                &[ChunkRepr::Asconf(AsconfChunk {
                    handoff: sctpsim_wire::sctp::HandoffIndication::None,
                    sequence_number: 0x0001_0000,
                    address: IpAddr::V4(A),
                    params: vec![
                        Parameter::AddIpAddress {
                            correlation_id: 1,
                            address: IpAddr::V4(Ipv4Addr::new(10, 0, 3, 1)),
                        },
                        Parameter::SetPrimaryAddress {
                            correlation_id: 2,
                            address: IpAddr::V4(Ipv4Addr::new(10, 0, 3, 1)),
                        },
                        Parameter::DeleteIpAddress {
                            correlation_id: 3,
                            address: IpAddr::V4(A),
                        },
                    ],
                })],
            ),
        ),
        (
            "ASCONF-ACK",
            to_a(
                7,
                TAG_A,
                &[ChunkRepr::AsconfAck(AsconfAckChunk {
                    sequence_number: 0x0001_0000,
                    params: vec![
                        Parameter::SuccessIndication { correlation_id: 1 },
                        Parameter::SuccessIndication { correlation_id: 2 },
                        Parameter::ErrorCauseIndication {
                            correlation_id: 3,
                            causes: vec![ErrorCause::DeleteSourceAddress {
                                request: Parameter::DeleteIpAddress {
                                    correlation_id: 3,
                                    address: IpAddr::V4(A),
                                }
                                .to_bytes()
                                .unwrap(),
                            }],
                        },
                    ],
                })],
            ),
        ),
        (
            "ASCONF (cSCTP handoff start: H flag, Add IP)",
            to_b(
                10,
                TAG_B,
                &[ChunkRepr::Asconf(AsconfChunk {
                    handoff: sctpsim_wire::sctp::HandoffIndication::Start,
                    sequence_number: 0x0001_0001,
                    address: IpAddr::V4(A),
                    params: vec![Parameter::AddIpAddress {
                        correlation_id: 4,
                        address: IpAddr::V4(Ipv4Addr::new(10, 0, 4, 1)),
                    }],
                })],
            ),
        ),
        (
            "ASCONF-ACK (of the handoff start)",
            to_a(
                10,
                TAG_A,
                &[ChunkRepr::AsconfAck(AsconfAckChunk {
                    sequence_number: 0x0001_0001,
                    params: vec![Parameter::SuccessIndication { correlation_id: 4 }],
                })],
            ),
        ),
        (
            "ASCONF (cSCTP handoff end: E flag, Delete IP)",
            to_b(
                11,
                TAG_B,
                &[ChunkRepr::Asconf(AsconfChunk {
                    handoff: sctpsim_wire::sctp::HandoffIndication::End,
                    sequence_number: 0x0001_0002,
                    address: IpAddr::V4(Ipv4Addr::new(10, 0, 4, 1)),
                    params: vec![Parameter::DeleteIpAddress {
                        correlation_id: 5,
                        address: IpAddr::V4(A),
                    }],
                })],
            ),
        ),
        (
            "SACK (cSCTP per-path: P flag)",
            to_a(
                11,
                TAG_A,
                &[ChunkRepr::Sack(SackChunk {
                    per_path: true,
                    dac_two_packets: false,
                    cum_tsn_ack: Tsn(1000),
                    a_rwnd: 60_000,
                    gap_blocks: vec![GapAckBlock { start: 2, end: 2 }],
                    duplicate_tsns: vec![],
                })],
            ),
        ),
        (
            "NR-SACK (CMT DAC flag)",
            to_a(
                11,
                TAG_A,
                &[ChunkRepr::NrSack(NrSackChunk {
                    sack: SackChunk {
                        per_path: false,
                        dac_two_packets: true,
                        cum_tsn_ack: Tsn(1000),
                        a_rwnd: 60_000,
                        gap_blocks: vec![GapAckBlock { start: 2, end: 2 }],
                        duplicate_tsns: vec![Tsn(999)],
                    },
                    nr_gap_blocks: vec![
                        GapAckBlock { start: 4, end: 5 },
                        GapAckBlock { start: 7, end: 7 },
                    ],
                })],
            ),
        ),
        (
            "unknown chunk 0x45 (skip)",
            to_b(
                9,
                TAG_B,
                &[ChunkRepr::Unknown(UnknownChunk {
                    kind: 0x45,
                    flags: 0xa5,
                    value: vec![9, 8, 7, 6, 5],
                })],
            ),
        ),
        (
            "SHUTDOWN",
            to_b(
                10,
                TAG_B,
                &[ChunkRepr::Shutdown {
                    cum_tsn_ack: Tsn(0xffff_ffff),
                }],
            ),
        ),
        ("SHUTDOWN ACK", to_a(8, TAG_A, &[ChunkRepr::ShutdownAck])),
        (
            "SHUTDOWN COMPLETE",
            to_b(11, TAG_B, &[ChunkRepr::ShutdownComplete { t_bit: false }]),
        ),
        (
            "SHUTDOWN COMPLETE (T)",
            to_a(9, TAG_A, &[ChunkRepr::ShutdownComplete { t_bit: true }]),
        ),
        (
            "ABORT (T)",
            to_a(
                10,
                TAG_B,
                &[ChunkRepr::Abort {
                    t_bit: true,
                    causes: vec![
                        ErrorCause::UserInitiatedAbort {
                            reason: b"closing".to_vec(),
                        },
                        ErrorCause::OutOfResource,
                    ],
                }],
            ),
        ),
        (
            "ABORT",
            to_b(
                12,
                TAG_B,
                &[ChunkRepr::Abort {
                    t_bit: false,
                    causes: vec![],
                }],
            ),
        ),
    ]
}

#[allow(dead_code)] // unused when tests/sctp_tshark.rs includes this file as a module
fn main() -> std::io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "sctp.pcap".to_owned());
    let mut writer = PcapWriter::new(BufWriter::new(File::create(&path)?), LINKTYPE_RAW)?;
    let packets = sample_packets();
    for (i, (_, p)) in packets.iter().enumerate() {
        writer.write_packet(i as u64 * 10_000_000, p)?;
    }
    writer.flush()?;
    println!("wrote {} packets to {path}", writer.packets_written());
    Ok(())
}
