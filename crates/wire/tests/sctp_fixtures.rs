//! Byte fixtures for every SCTP chunk type, assembled by hand from the figures of RFC 9260 §3,
//! RFC 5061 §4–5 and RFC 3758 §3.2: each must parse to the expected representation and the
//! representation must emit exactly these bytes. Plus a whole packet whose CRC32c was computed
//! independently (a bit-at-a-time Python implementation) and that tshark reports as correct.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use sctpsim_wire::sctp::{
    chunk_type, param_type, AsconfAckChunk, AsconfChunk, ChunkRepr, Chunks, DataChunk, ErrorCause,
    ForwardTsnChunk, ForwardTsnStream, GapAckBlock, InitChunk, NrSackChunk, Parameter, RawChunk,
    SackChunk, SctpPacket, SctpRepr, Ssn, Tsn, UnknownChunk, UnrecognizedAction,
};
use sctpsim_wire::WireError;

const A: IpAddr = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));

/// Parses `bytes` as one chunk, compares with `repr`, and emits `repr` back to `bytes`.
fn check(bytes: &[u8], repr: ChunkRepr) {
    let raw = RawChunk::new_checked(bytes).unwrap();
    assert_eq!(raw.kind(), repr.kind());
    assert_eq!(ChunkRepr::parse(&raw), Ok(repr.clone()), "parse");
    assert_eq!(repr.buffer_len(), bytes.len(), "buffer_len");
    assert_eq!(repr.chunk_len(), raw.length(), "chunk_len");
    let mut out = vec![0xeeu8; bytes.len()];
    assert_eq!(repr.emit(&mut out), Ok(bytes.len()));
    assert_eq!(out, bytes, "emit");
    assert_eq!(repr.to_bytes().unwrap(), bytes);
    // One byte short is an error, not a panic.
    let mut short = vec![0u8; bytes.len() - 1];
    assert_eq!(repr.emit(&mut short), Err(WireError::Truncated));
}

#[rustfmt::skip]
#[test]
fn data() {
    check(
        &[
            0x00, 0x03, 0x00, 0x15, // type 0, flags B|E, length 21
            0x00, 0x00, 0x03, 0xe8, // TSN 1000
            0x00, 0x01, 0x00, 0x02, // stream 1, SSN 2
            0x00, 0x00, 0x00, 0x33, // PPID 51
            b'h', b'e', b'l', b'l', b'o', 0, 0, 0, // user data, 3 bytes of padding
        ],
        ChunkRepr::Data(DataChunk {
            tsn: Tsn(1000),
            stream_id: 1,
            ssn: Ssn(2),
            ppid: 51,
            unordered: false,
            beginning: true,
            ending: true,
            immediate: false,
            user_data: b"hello".to_vec(),
        }),
    );
    // I and U set, B and E clear; no user data (parsed: the association answers it).
    check(
        &[
            0x00, 0x0c, 0x00, 0x10,
            0xff, 0xff, 0xff, 0xff,
            0xff, 0xff, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,
        ],
        ChunkRepr::Data(DataChunk {
            tsn: Tsn(u32::MAX),
            stream_id: 0xffff,
            ssn: Ssn(0),
            ppid: 0,
            unordered: true,
            beginning: false,
            ending: false,
            immediate: true,
            user_data: vec![],
        }),
    );
    // Reserved flag bits are ignored.
    let raw = [0xf0u8, 0xf3, 0x00, 0x11, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0];
    let raw = RawChunk::new_checked(&raw).unwrap();
    assert_eq!(raw.kind(), 0xf0);
    let raw_data = [0x00u8, 0xf3, 0x00, 0x11, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0];
    let ChunkRepr::Data(d) = RawChunk::new_checked(&raw_data).unwrap().parse().unwrap() else {
        panic!("not DATA");
    };
    assert_eq!(d.flags(), 0x03);
    // Shorter than the fixed fields.
    let short = [0x00u8, 0x03, 0x00, 0x0f, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0];
    assert_eq!(RawChunk::new_checked(&short).unwrap().parse(), Err(WireError::Truncated));
}

#[rustfmt::skip]
#[test]
fn init() {
    check(
        &[
            0x01, 0x00, 0x00, 0x26, // type 1, length 38: the last parameter's padding is not counted
            0x11, 0x22, 0x33, 0x44, // initiate tag
            0x00, 0x01, 0x00, 0x00, // a_rwnd 65536
            0x00, 0x0a, 0xff, 0xff, // OS 10, MIS 65535
            0x00, 0x00, 0x03, 0xe8, // initial TSN 1000
            0x00, 0x05, 0x00, 0x08, 10, 0, 0, 1, // IPv4 address 10.0.0.1
            0xc0, 0x00, 0x00, 0x04, // Forward-TSN-Supported
            0x00, 0x0c, 0x00, 0x06, 0x00, 0x05, 0x00, 0x00, // Supported Address Types: IPv4
        ],
        ChunkRepr::Init(InitChunk {
            initiate_tag: 0x1122_3344,
            a_rwnd: 65_536,
            outbound_streams: 10,
            inbound_streams: 65_535,
            initial_tsn: Tsn(1000),
            params: vec![
                Parameter::Address(A),
                Parameter::ForwardTsnSupported,
                Parameter::SupportedAddressTypes(vec![param_type::IPV4_ADDRESS]),
            ],
        }),
    );
    // Every other INIT parameter: IPv6, cookie preservative, host name, ECN, supported
    // extensions, adaptation layer indication, and an unknown one kept opaque.
    let v6 = Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1);
    let mut bytes = vec![
        0x01, 0x00, 0x00, 0x59, // length 89 = 20 + 20 + 8 + 12 + 4 + 8 + 8 + 9
        0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x10, 0x00,
        0x00, 0x01, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x00,
        0x00, 0x06, 0x00, 0x14,
    ];
    bytes.extend(v6.octets());
    bytes.extend([
        0x00, 0x09, 0x00, 0x08, 0x00, 0x00, 0x13, 0x88, // cookie preservative 5000 ms
        0x00, 0x0b, 0x00, 0x0a, b'h', b'o', b's', b't', b'1', 0, 0, 0, // host name "host1\0"
        0x80, 0x00, 0x00, 0x04, // ECN capable
        0x80, 0x08, 0x00, 0x07, 0xc0, 0xc1, 0x80, 0x00, // supported extensions
        0xc0, 0x06, 0x00, 0x08, 0xca, 0xfe, 0xba, 0xbe, // adaptation layer indication
        0x80, 0x02, 0x00, 0x09, 1, 2, 3, 4, 5, 0, 0, 0, // RFC 4895 Random: unknown, opaque
    ]);
    check(
        &bytes,
        ChunkRepr::Init(InitChunk {
            initiate_tag: 1,
            a_rwnd: 4096,
            outbound_streams: 1,
            inbound_streams: 1,
            initial_tsn: Tsn(0),
            params: vec![
                Parameter::Address(IpAddr::V6(v6)),
                Parameter::CookiePreservative { increment_ms: 5000 },
                Parameter::HostNameAddress(b"host1\0".to_vec()),
                Parameter::EcnCapable,
                Parameter::SupportedExtensions(vec![0xc0, 0xc1, 0x80]),
                Parameter::AdaptationLayerIndication { code_point: 0xcafe_babe },
                Parameter::Random(vec![1, 2, 3, 4, 5]),
            ],
        }),
    );
}

#[rustfmt::skip]
#[test]
fn init_ack() {
    let repr = InitChunk {
        initiate_tag: 0xa1b2_c3d4,
        a_rwnd: 0x0002_0000,
        outbound_streams: 5,
        inbound_streams: 5,
        initial_tsn: Tsn(7),
        params: vec![
            Parameter::StateCookie(vec![0xc0, 0x01, 0xc0, 0x01, 0xc0]),
            Parameter::UnrecognizedParameter(vec![0x80, 0x00, 0x00, 0x04]),
            Parameter::Address(A),
        ],
    };
    assert_eq!(repr.state_cookie(), Some(&[0xc0, 0x01, 0xc0, 0x01, 0xc0][..]));
    assert_eq!(repr.addresses().collect::<Vec<_>>(), vec![A]);
    assert!(!repr.forward_tsn_supported());
    assert!(repr.supported_extensions().is_empty());
    check(
        &[
            0x02, 0x00, 0x00, 0x30, // type 2, length 48
            0xa1, 0xb2, 0xc3, 0xd4,
            0x00, 0x02, 0x00, 0x00,
            0x00, 0x05, 0x00, 0x05,
            0x00, 0x00, 0x00, 0x07,
            0x00, 0x07, 0x00, 0x09, 0xc0, 0x01, 0xc0, 0x01, 0xc0, 0, 0, 0, // state cookie, padded
            0x00, 0x08, 0x00, 0x08, 0x80, 0x00, 0x00, 0x04, // unrecognized parameter: ECN
            0x00, 0x05, 0x00, 0x08, 10, 0, 0, 1,
        ],
        ChunkRepr::InitAck(repr),
    );
}

#[rustfmt::skip]
#[test]
fn sack() {
    let sack = SackChunk {
        per_path: false,
        dac_two_packets: false,
        cum_tsn_ack: Tsn(0x10),
        a_rwnd: 0x1000,
        gap_blocks: vec![GapAckBlock { start: 2, end: 3 }, GapAckBlock { start: 5, end: 5 }],
        duplicate_tsns: vec![Tsn(0x0e)],
    };
    assert_eq!(sack.gap_blocks[0].first_tsn(sack.cum_tsn_ack), Tsn(0x12));
    assert_eq!(sack.gap_blocks[0].last_tsn(sack.cum_tsn_ack), Tsn(0x13));
    check(
        &[
            0x03, 0x00, 0x00, 0x1c, // type 3, length 28
            0x00, 0x00, 0x00, 0x10, // cumulative TSN ack
            0x00, 0x00, 0x10, 0x00, // a_rwnd
            0x00, 0x02, 0x00, 0x01, // 2 gap blocks, 1 duplicate
            0x00, 0x02, 0x00, 0x03,
            0x00, 0x05, 0x00, 0x05,
            0x00, 0x00, 0x00, 0x0e,
        ],
        ChunkRepr::Sack(sack),
    );
    // Counts that run past the chunk.
    let bad = [0x03u8, 0x00, 0x00, 0x14, 0, 0, 0, 1, 0, 0, 0, 1, 0x00, 0x02, 0x00, 0x00, 0, 1, 0, 2];
    assert_eq!(RawChunk::new_checked(&bad).unwrap().parse(), Err(WireError::Truncated));
}

/// NR-SACK (type 0x10), laid out as FreeBSD's `struct sctp_nr_sack`: the three counts and a
/// reserved word, then gap blocks, NR gap blocks, duplicates. The DAC flag 0x80 is a SACK's.
#[rustfmt::skip]
#[test]
fn nr_sack() {
    let nr = NrSackChunk {
        sack: SackChunk {
            per_path: false,
            dac_two_packets: true,
            cum_tsn_ack: Tsn(0x10),
            a_rwnd: 0x1000,
            gap_blocks: vec![GapAckBlock { start: 2, end: 3 }],
            duplicate_tsns: vec![Tsn(0x0e)],
        },
        nr_gap_blocks: vec![GapAckBlock { start: 5, end: 6 }, GapAckBlock { start: 8, end: 8 }],
    };
    check(
        &[
            0x10, 0x80, 0x00, 0x24, // type 0x10, flags DAC, length 36
            0x00, 0x00, 0x00, 0x10, // cumulative TSN ack
            0x00, 0x00, 0x10, 0x00, // a_rwnd
            0x00, 0x01, 0x00, 0x02, // 1 gap block, 2 NR gap blocks
            0x00, 0x01, 0x00, 0x00, // 1 duplicate, reserved
            0x00, 0x02, 0x00, 0x03, // gap block 2..3
            0x00, 0x05, 0x00, 0x06, // NR gap block 5..6
            0x00, 0x08, 0x00, 0x08, // NR gap block 8..8
            0x00, 0x00, 0x00, 0x0e, // duplicate TSN
        ],
        ChunkRepr::NrSack(nr),
    );
    // Shorter than the fixed part.
    let short = [0x10u8, 0x00, 0x00, 0x10, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0];
    assert_eq!(RawChunk::new_checked(&short).unwrap().parse(), Err(WireError::Truncated));
    // An NR block count that runs past the chunk.
    let bad = [
        0x10u8, 0x00, 0x00, 0x18, 0, 0, 0, 1, 0, 0, 0, 1, 0x00, 0x00, 0x00, 0x02, 0, 0, 0, 0,
        0, 1, 0, 2,
    ];
    assert_eq!(RawChunk::new_checked(&bad).unwrap().parse(), Err(WireError::Truncated));
    // Reserved bits are ignored on parse and sent as zero.
    let mut reserved = [0x10u8, 0x00, 0x00, 0x14, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xab, 0xcd];
    let parsed = RawChunk::new_checked(&reserved).unwrap().parse().unwrap();
    reserved[18] = 0;
    reserved[19] = 0;
    assert_eq!(parsed.to_bytes().unwrap(), reserved);
}

#[rustfmt::skip]
#[test]
fn heartbeat_and_ack() {
    for (kind, make) in [
        (0x04u8, (|info| ChunkRepr::Heartbeat { info }) as fn(Vec<u8>) -> ChunkRepr),
        (0x05, |info| ChunkRepr::HeartbeatAck { info }),
    ] {
        check(
            &[
                kind, 0x00, 0x00, 0x0b, // length 11
                0x00, 0x01, 0x00, 0x07, b'a', b'b', b'c', 0, // Heartbeat Info, length 7
            ],
            make(b"abc".to_vec()),
        );
    }
    // A HEARTBEAT whose parameter is not Heartbeat Info.
    let bad = [0x04u8, 0x00, 0x00, 0x08, 0x00, 0x02, 0x00, 0x04];
    assert_eq!(RawChunk::new_checked(&bad).unwrap().parse(), Err(WireError::Malformed));
}

#[rustfmt::skip]
#[test]
fn abort() {
    check(
        &[
            0x06, 0x01, 0x00, 0x10, // type 6, T bit, length 16
            0x00, 0x0c, 0x00, 0x05, b'x', 0, 0, 0, // User-Initiated Abort "x", padded
            0x00, 0x04, 0x00, 0x04, // Out of Resource
        ],
        ChunkRepr::Abort {
            t_bit: true,
            causes: vec![
                ErrorCause::UserInitiatedAbort { reason: b"x".to_vec() },
                ErrorCause::OutOfResource,
            ],
        },
    );
    check(&[0x06, 0x00, 0x00, 0x04], ChunkRepr::Abort { t_bit: false, causes: vec![] });
}

#[rustfmt::skip]
#[test]
fn shutdown_family() {
    check(&[0x07, 0x00, 0x00, 0x08, 0x12, 0x34, 0x56, 0x78],
          ChunkRepr::Shutdown { cum_tsn_ack: Tsn(0x1234_5678) });
    check(&[0x08, 0x00, 0x00, 0x04], ChunkRepr::ShutdownAck);
    check(&[0x0e, 0x00, 0x00, 0x04], ChunkRepr::ShutdownComplete { t_bit: false });
    check(&[0x0e, 0x01, 0x00, 0x04], ChunkRepr::ShutdownComplete { t_bit: true });
    // Extra bytes in a fixed-size chunk are ignored; missing ones are not.
    let long = [0x07u8, 0x00, 0x00, 0x0c, 0, 0, 0, 9, 1, 2, 3, 4];
    assert_eq!(RawChunk::new_checked(&long).unwrap().parse(),
               Ok(ChunkRepr::Shutdown { cum_tsn_ack: Tsn(9) }));
    let short = [0x07u8, 0x00, 0x00, 0x06, 0, 0];
    assert_eq!(RawChunk::new_checked(&short).unwrap().parse(), Err(WireError::Truncated));
}

#[rustfmt::skip]
#[test]
fn error_chunk_and_causes() {
    check(
        &[
            0x09, 0x00, 0x00, 0x0c, // type 9, length 12
            0x00, 0x01, 0x00, 0x08, 0x00, 0x07, 0x00, 0x00, // Invalid Stream Identifier 7
        ],
        ChunkRepr::Error { causes: vec![ErrorCause::InvalidStreamIdentifier { stream_id: 7 }] },
    );
    // Each RFC 9260 §3.3.10 cause, and an unknown one, with its bytes.
    let cases: Vec<(Vec<u8>, ErrorCause)> = vec![
        (vec![0, 2, 0, 12, 0, 0, 0, 2, 0, 7, 0, 9],
         ErrorCause::MissingMandatoryParameter { missing: vec![7, 9] }),
        (vec![0, 3, 0, 8, 0, 1, 0xe2, 0x40], ErrorCause::StaleCookie { staleness_us: 123_456 }),
        (vec![0, 4, 0, 4], ErrorCause::OutOfResource),
        (vec![0, 5, 0, 12, 0, 5, 0, 8, 192, 0, 2, 7],
         ErrorCause::UnresolvableAddress { address: vec![0, 5, 0, 8, 192, 0, 2, 7] }),
        (vec![0, 6, 0, 9, 0xc5, 0, 0, 5, 1, 0, 0, 0],
         ErrorCause::UnrecognizedChunkType { chunk: vec![0xc5, 0, 0, 5, 1] }),
        (vec![0, 7, 0, 4], ErrorCause::InvalidMandatoryParameter),
        (vec![0, 8, 0, 8, 0x80, 0, 0, 4],
         ErrorCause::UnrecognizedParameters { parameters: vec![0x80, 0, 0, 4] }),
        (vec![0, 9, 0, 8, 0, 0, 0, 42], ErrorCause::NoUserData { tsn: Tsn(42) }),
        (vec![0, 10, 0, 4], ErrorCause::CookieReceivedWhileShuttingDown),
        (vec![0, 11, 0, 12, 0, 5, 0, 8, 10, 0, 2, 1],
         ErrorCause::RestartWithNewAddresses { addresses: vec![0, 5, 0, 8, 10, 0, 2, 1] }),
        (vec![0, 12, 0, 7, b'b', b'y', b'e', 0],
         ErrorCause::UserInitiatedAbort { reason: b"bye".to_vec() }),
        (vec![0, 13, 0, 6, b'n', b'o', 0, 0],
         ErrorCause::ProtocolViolation { info: b"no".to_vec() }),
        (vec![0, 0xa0, 0, 8, 0xc0, 2, 0, 4],
         ErrorCause::DeleteLastRemainingAddress { request: vec![0xc0, 2, 0, 4] }),
        (vec![0, 0xa1, 0, 4], ErrorCause::OperationRefusedResourceShortage { request: vec![] }),
        (vec![0, 0xa2, 0, 4], ErrorCause::DeleteSourceAddress { request: vec![] }),
        (vec![0, 0xa3, 0, 4], ErrorCause::IllegalAsconfAck),
        (vec![0, 0xa4, 0, 5, 1, 0, 0, 0],
         ErrorCause::RequestRefusedNoAuthorization { request: vec![1] }),
        (vec![0, 105, 0, 6, 0, 3, 0, 0], ErrorCause::Unknown { code: 105, info: vec![0, 3] }),
    ];
    for (cause_bytes, cause) in cases {
        let mut bytes = vec![0x09, 0x00, 0x00, 0x00];
        bytes.extend(&cause_bytes);
        // The chunk length counts the cause without its trailing padding.
        let len = 4 + usize::from(u16::from_be_bytes([cause_bytes[2], cause_bytes[3]]));
        bytes[2..4].copy_from_slice(&(len as u16).to_be_bytes());
        assert_eq!(cause.cause_len() + 4, len);
        assert_eq!(cause.to_bytes().unwrap(), &cause_bytes[..cause.cause_len()]);
        check(&bytes, ChunkRepr::Error { causes: vec![cause] });
    }
}

#[rustfmt::skip]
#[test]
fn cookie_echo_and_ack() {
    check(&[0x0a, 0x00, 0x00, 0x0a, 1, 2, 3, 4, 5, 6, 0, 0],
          ChunkRepr::CookieEcho { cookie: vec![1, 2, 3, 4, 5, 6] });
    check(&[0x0b, 0x00, 0x00, 0x04], ChunkRepr::CookieAck);
}

#[rustfmt::skip]
#[test]
fn ecne_and_cwr() {
    check(&[0x0c, 0x00, 0x00, 0x08, 0, 0, 0x03, 0xeb], ChunkRepr::Ecne { lowest_tsn: Tsn(1003) });
    check(&[0x0d, 0x00, 0x00, 0x08, 0, 0, 0x03, 0xeb], ChunkRepr::Cwr { lowest_tsn: Tsn(1003) });
}

#[rustfmt::skip]
#[test]
fn asconf() {
    check(
        &[
            0xc1, 0x00, 0x00, 0x20, // type 0xC1, length 32
            0x00, 0x00, 0x00, 0x05, // sequence number
            0x00, 0x05, 0x00, 0x08, 10, 0, 0, 1, // address parameter
            0xc0, 0x01, 0x00, 0x10, // Add IP Address, length 16
            0x00, 0x00, 0x00, 0x01, //   correlation id 1
            0x00, 0x05, 0x00, 0x08, 10, 0, 0, 9,
        ],
        ChunkRepr::Asconf(AsconfChunk {
            handoff: sctpsim_wire::sctp::HandoffIndication::None,
            sequence_number: 5,
            address: A,
            params: vec![Parameter::AddIpAddress {
                correlation_id: 1,
                address: IpAddr::V4(Ipv4Addr::new(10, 0, 0, 9)),
            }],
        }),
    );
    let v6 = Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 2);
    let mut bytes = vec![
        0xc1, 0x00, 0x00, 0x48, // length 72 = 4 + 4 + 8 + 28 + 28
        0xff, 0xff, 0xff, 0xff,
        0x00, 0x05, 0x00, 0x08, 10, 0, 0, 1,
        0xc0, 0x02, 0x00, 0x1c, 0x00, 0x00, 0x00, 0x02, 0x00, 0x06, 0x00, 0x14, // Delete IP
    ];
    bytes.extend(v6.octets());
    bytes.extend([0xc0, 0x04, 0x00, 0x1c, 0x00, 0x00, 0x00, 0x03, 0x00, 0x06, 0x00, 0x14]);
    bytes.extend(v6.octets()); // Set Primary Address
    check(
        &bytes,
        ChunkRepr::Asconf(AsconfChunk {
            handoff: sctpsim_wire::sctp::HandoffIndication::None,
            sequence_number: u32::MAX,
            address: A,
            params: vec![
                Parameter::DeleteIpAddress { correlation_id: 2, address: IpAddr::V6(v6) },
                Parameter::SetPrimaryAddress { correlation_id: 3, address: IpAddr::V6(v6) },
            ],
        }),
    );
    // The address parameter is mandatory.
    let bad = [0xc1u8, 0x00, 0x00, 0x0c, 0, 0, 0, 1, 0x00, 0x09, 0x00, 0x04];
    assert_eq!(RawChunk::new_checked(&bad).unwrap().parse(), Err(WireError::Malformed));
}

/// cSCTP (Aydin & Shen §II): the handoff indication rides in the reserved ASCONF flags (H =
/// 0x01 start, E = 0x02 end); both bits together are contradictory and read as none; other
/// reserved bits are ignored.
#[rustfmt::skip]
#[test]
fn asconf_handoff_flags() {
    use sctpsim_wire::sctp::HandoffIndication;
    let body = [
        0x00, 0x00, 0x00, 0x05, // sequence number
        0x00, 0x05, 0x00, 0x08, 10, 0, 0, 1, // address parameter
        0xc0, 0x01, 0x00, 0x10, // Add IP Address, length 16
        0x00, 0x00, 0x00, 0x01, //   correlation id 1
        0x00, 0x05, 0x00, 0x08, 10, 0, 0, 9,
    ];
    let with_flags = |flags: u8| {
        let mut b = vec![0xc1, flags, 0x00, 0x20];
        b.extend(body);
        b
    };
    let chunk = |handoff| {
        ChunkRepr::Asconf(AsconfChunk {
            handoff,
            sequence_number: 5,
            address: A,
            params: vec![Parameter::AddIpAddress {
                correlation_id: 1,
                address: IpAddr::V4(Ipv4Addr::new(10, 0, 0, 9)),
            }],
        })
    };
    check(&with_flags(0x01), chunk(HandoffIndication::Start));
    check(&with_flags(0x02), chunk(HandoffIndication::End));
    for (flags, want) in [
        (0x03, HandoffIndication::None),
        (0x81, HandoffIndication::Start),
        (0xfc, HandoffIndication::None),
    ] {
        let bytes = with_flags(flags);
        assert_eq!(RawChunk::new_checked(&bytes).unwrap().parse(), Ok(chunk(want)));
    }
}

/// cSCTP per-path SACK: flag P = 0x02; the other reserved bits (but CMT's DAC) are ignored.
#[rustfmt::skip]
#[test]
fn sack_per_path_flag() {
    let bytes = [
        0x03, 0x02, 0x00, 0x10, // type 3, flags P, length 16
        0x00, 0x00, 0x00, 0x10, // cumulative TSN ack
        0x00, 0x00, 0x10, 0x00, // a_rwnd
        0x00, 0x00, 0x00, 0x00, // no gaps, no duplicates
    ];
    let sack = |per_path| ChunkRepr::Sack(SackChunk {
        per_path,
        dac_two_packets: false,
        cum_tsn_ack: Tsn(0x10),
        a_rwnd: 0x1000,
        gap_blocks: vec![],
        duplicate_tsns: vec![],
    });
    check(&bytes, sack(true));
    let mut other = bytes;
    other[1] = 0x7d;
    assert_eq!(RawChunk::new_checked(&other).unwrap().parse(), Ok(sack(false)));
}

/// CMT's DAC flag = 0x80 (FreeBSD's `SCTP_SACK_CMT_DAC`): the SACK acknowledges two packets.
#[rustfmt::skip]
#[test]
fn sack_cmt_dac_flag() {
    let bytes = [
        0x03, 0x80, 0x00, 0x10, // type 3, flags DAC, length 16
        0x00, 0x00, 0x00, 0x10, // cumulative TSN ack
        0x00, 0x00, 0x10, 0x00, // a_rwnd
        0x00, 0x00, 0x00, 0x00, // no gaps, no duplicates
    ];
    check(
        &bytes,
        ChunkRepr::Sack(SackChunk {
            per_path: false,
            dac_two_packets: true,
            cum_tsn_ack: Tsn(0x10),
            a_rwnd: 0x1000,
            gap_blocks: vec![],
            duplicate_tsns: vec![],
        }),
    );
}

#[rustfmt::skip]
#[test]
fn asconf_ack() {
    check(
        &[
            0x80, 0x00, 0x00, 0x2c, // type 0x80, length 44
            0x00, 0x00, 0x00, 0x05,
            0xc0, 0x05, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, // Success Indication 1
            0xc0, 0x03, 0x00, 0x1c, 0x00, 0x00, 0x00, 0x02, // Error Cause Indication 2
            0x00, 0xa1, 0x00, 0x14, //   Operation Refused Due to Resource Shortage
            0xc0, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00, 0x02, 0x00, 0x05, 0x00, 0x08, 10, 0, 0, 9,
        ],
        ChunkRepr::AsconfAck(AsconfAckChunk {
            sequence_number: 5,
            params: vec![
                Parameter::SuccessIndication { correlation_id: 1 },
                Parameter::ErrorCauseIndication {
                    correlation_id: 2,
                    causes: vec![ErrorCause::OperationRefusedResourceShortage {
                        request: Parameter::AddIpAddress {
                            correlation_id: 2,
                            address: IpAddr::V4(Ipv4Addr::new(10, 0, 0, 9)),
                        }
                        .to_bytes()
                        .unwrap(),
                    }],
                },
            ],
        }),
    );
}

#[rustfmt::skip]
#[test]
fn forward_tsn() {
    check(
        &[
            0xc0, 0x00, 0x00, 0x10, // type 192, length 16
            0x00, 0x00, 0x03, 0xf2, // new cumulative TSN 1010
            0x00, 0x01, 0x00, 0x04, // stream 1, SSN 4
            0x00, 0x03, 0xff, 0xff, // stream 3, SSN 65535
        ],
        ChunkRepr::ForwardTsn(ForwardTsnChunk {
            new_cum_tsn: Tsn(1010),
            streams: vec![
                ForwardTsnStream { stream_id: 1, ssn: Ssn(4) },
                ForwardTsnStream { stream_id: 3, ssn: Ssn(0xffff) },
            ],
        }),
    );
    check(&[0xc0, 0x00, 0x00, 0x08, 0, 0, 0, 0],
          ChunkRepr::ForwardTsn(ForwardTsnChunk { new_cum_tsn: Tsn(0), streams: vec![] }));
}

#[rustfmt::skip]
#[test]
fn unknown_chunks_are_preserved_with_their_action() {
    let cases = [
        (0x3fu8, UnrecognizedAction::Stop),           // unassigned (IANA "Chunk Types")
        (0x41, UnrecognizedAction::StopAndReport),    // unassigned (64, I-DATA, is parsed)
        (0x84, UnrecognizedAction::Skip),             // PAD (RFC 4820)
        (0xc3, UnrecognizedAction::SkipAndReport),    // unassigned (0xc2, I-FORWARD-TSN, is parsed)
    ];
    for (kind, action) in cases {
        let bytes = [kind, 0xa5, 0x00, 0x09, 9, 8, 7, 6, 5, 0, 0, 0];
        let repr = UnknownChunk { kind, flags: 0xa5, value: vec![9, 8, 7, 6, 5] };
        assert_eq!(repr.action(), action);
        check(&bytes, ChunkRepr::Unknown(repr));
    }
    assert_eq!(chunk_type::AUTH, 0x0f);
    assert!(UnrecognizedAction::StopAndReport.stops() && UnrecognizedAction::StopAndReport.reports());
    assert!(!UnrecognizedAction::Skip.stops() && !UnrecognizedAction::Skip.reports());
    // Parameters: RFC 9260 §3.2.1.
    assert_eq!(UnrecognizedAction::for_parameter_type(0x0001), UnrecognizedAction::Stop);
    assert_eq!(UnrecognizedAction::for_parameter_type(0x4001), UnrecognizedAction::StopAndReport);
    assert_eq!(Parameter::EcnCapable.unrecognized_action(), UnrecognizedAction::Skip);
    assert_eq!(Parameter::ForwardTsnSupported.unrecognized_action(), UnrecognizedAction::SkipAndReport);
}

/// An INIT packet: 5001 → 9, verification tag 0 (RFC 9260 §8.5.1), the INIT of the `init` test.
/// CRC32c 0x78200EB2, computed with a bit-at-a-time Python implementation, stored least
/// significant byte first (RFC 9260 Appendix A): b2 0e 20 78. tshark 4.0 shows it as
/// "Checksum (CRC32C): 0xb20e2078 [correct]".
#[rustfmt::skip]
const INIT_PACKET: [u8; 52] = [
    0x13, 0x89, 0x00, 0x09, // ports 5001 → 9
    0x00, 0x00, 0x00, 0x00, // verification tag
    0xb2, 0x0e, 0x20, 0x78, // CRC32c
    0x01, 0x00, 0x00, 0x26,
    0x11, 0x22, 0x33, 0x44,
    0x00, 0x01, 0x00, 0x00,
    0x00, 0x0a, 0xff, 0xff,
    0x00, 0x00, 0x03, 0xe8,
    0x00, 0x05, 0x00, 0x08, 10, 0, 0, 1,
    0xc0, 0x00, 0x00, 0x04,
    0x00, 0x0c, 0x00, 0x06, 0x00, 0x05, 0x00, 0x00,
];

fn init_packet_repr() -> SctpRepr {
    SctpRepr {
        src_port: 5001,
        dst_port: 9,
        verification_tag: 0,
        chunks: vec![ChunkRepr::Init(InitChunk {
            initiate_tag: 0x1122_3344,
            a_rwnd: 65_536,
            outbound_streams: 10,
            inbound_streams: 65_535,
            initial_tsn: Tsn(1000),
            params: vec![
                Parameter::Address(A),
                Parameter::ForwardTsnSupported,
                Parameter::SupportedAddressTypes(vec![5]),
            ],
        })],
    }
}

#[test]
fn whole_packet() {
    let packet = SctpPacket::new_checked(&INIT_PACKET[..]).unwrap();
    assert_eq!(packet.src_port(), 5001);
    assert_eq!(packet.dst_port(), 9);
    assert_eq!(packet.verification_tag(), 0);
    assert_eq!(packet.checksum(), 0x7820_0eb2);
    assert_eq!(packet.compute_checksum(), 0x7820_0eb2);
    assert!(packet.verify_checksum());
    assert_eq!(SctpRepr::parse(&packet), Ok(init_packet_repr()));

    let repr = init_packet_repr();
    assert_eq!(repr.buffer_len(), INIT_PACKET.len());
    let mut out = [0u8; 52];
    assert_eq!(repr.emit(&mut out), Ok(52));
    assert_eq!(out, INIT_PACKET);
    assert_eq!(repr.emit(&mut [0u8; 51]), Err(WireError::Truncated));

    // Any flipped bit fails the CRC.
    for byte in 0..INIT_PACKET.len() {
        let mut bad = INIT_PACKET;
        bad[byte] ^= 0x10;
        let packet = SctpPacket::new_checked(&bad[..]).unwrap();
        assert!(!packet.verify_checksum(), "byte {byte}");
        assert_eq!(SctpRepr::parse(&packet), Err(WireError::BadChecksum));
    }
}

#[test]
fn setters_and_fill_checksum() {
    let mut bytes = INIT_PACKET;
    let mut packet = SctpPacket::new_unchecked(&mut bytes[..]);
    packet.set_src_port(1);
    packet.set_dst_port(2);
    packet.set_verification_tag(3);
    assert!(!packet.verify_checksum());
    packet.fill_checksum();
    assert!(packet.verify_checksum());
    assert_eq!(
        (
            packet.src_port(),
            packet.dst_port(),
            packet.verification_tag()
        ),
        (1, 2, 3)
    );
    packet.chunk_bytes_mut()[0] = 0x0b; // now a COOKIE ACK with a long value
    packet.set_checksum(0);
    assert_eq!(packet.checksum(), 0);
    assert!(SctpPacket::new_checked(&[0u8; 11][..]).is_err());
    let mut tiny = [0u8; 3];
    assert!(SctpPacket::new_unchecked(&mut tiny[..])
        .chunk_bytes_mut()
        .is_empty());
}

#[rustfmt::skip]
#[test]
fn chunk_iteration() {
    // COOKIE ACK, DATA with 1 byte (3 bytes of padding), SHUTDOWN ACK without trailing padding
    // problems, then garbage: a chunk length of 2.
    let bytes = [
        0x0b, 0x00, 0x00, 0x04,
        0x00, 0x03, 0x00, 0x11, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0, 0, 0,
        0x08, 0x00, 0x00, 0x04,
        0x01, 0x00, 0x00, 0x02,
        0x0b, 0x00, 0x00, 0x04,
    ];
    let items: Vec<_> = Chunks::new(&bytes).collect();
    assert_eq!(items.len(), 4);
    assert_eq!(items[0].unwrap().kind(), 0x0b);
    assert_eq!(items[1].unwrap().length(), 17);
    assert_eq!(items[1].unwrap().value().len(), 13);
    assert_eq!(items[2].unwrap().bytes(), &[0x08, 0x00, 0x00, 0x04]);
    assert_eq!(items[3], Err(WireError::Malformed));

    // The last chunk's padding may be missing.
    let unpadded = [0x0a, 0x00, 0x00, 0x05, 0x42];
    let items: Vec<_> = Chunks::new(&unpadded).collect();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].unwrap().parse(), Ok(ChunkRepr::CookieEcho { cookie: vec![0x42] }));

    // A length past the end, a truncated header, 1–3 stray bytes after an aligned chunk.
    for (data, err) in [
        (&[0x0a, 0x00, 0x00, 0x09, 1, 2][..], WireError::Truncated),
        (&[0x0a, 0x00][..], WireError::Truncated),
        (&[0x0b, 0x00, 0x00, 0x04, 0x00][..], WireError::Truncated),
        (&[0x0b, 0x00, 0x00, 0x00][..], WireError::Malformed),
    ] {
        let last = Chunks::new(data).last().unwrap();
        assert_eq!(last.map(|_| ()), Err(err), "{data:?}");
        assert!(Chunks::new(data).count() <= 2);
    }
    assert_eq!(Chunks::new(&[]).count(), 0);
}
