//! ASCONF (RFC 5061): serial numbers, one outstanding request, Add IP / Delete IP / Set
//! Primary, the receiver's checks with their error causes, T4-RTO, and the ASCONF-ACK rules.

use super::*;
use crate::transport::sctp::{ApiError, AsconfRequestKind};
use sctpsim_wire::sctp::{AsconfAckChunk, AsconfChunk, ErrorCause};

const L3: Ipv4Addr = Ipv4Addr::new(10, 0, 2, 1);
const R3: Ipv4Addr = Ipv4Addr::new(10, 0, 2, 2);

fn asconf(seq: u32, params: Vec<Parameter>) -> ChunkRepr {
    ChunkRepr::Asconf(AsconfChunk {
        handoff: sctpsim_wire::sctp::HandoffIndication::None,
        sequence_number: seq,
        address: IpAddr::V4(R1),
        params,
    })
}

fn add(c: u32, a: Ipv4Addr) -> Parameter {
    Parameter::AddIpAddress {
        correlation_id: c,
        address: IpAddr::V4(a),
    }
}

fn del(c: u32, a: Ipv4Addr) -> Parameter {
    Parameter::DeleteIpAddress {
        correlation_id: c,
        address: IpAddr::V4(a),
    }
}

fn prim(c: u32, a: Ipv4Addr) -> Parameter {
    Parameter::SetPrimaryAddress {
        correlation_id: c,
        address: IpAddr::V4(a),
    }
}

fn ack_of(h: &mut Harness) -> AsconfAckChunk {
    let t = h.next().expect("ASCONF-ACK");
    match &t.packet.chunks[0] {
        ChunkRepr::AsconfAck(a) => a.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn our_requests_use_serial_numbers_one_at_a_time() {
    let mut h = established_with(cfg(), &[L1, L2], &[R1]);
    h.a.add_local_address(h.now, L3).unwrap();
    h.a.request_peer_primary(h.now, L3).unwrap();
    let t = h.next().unwrap();
    let ChunkRepr::Asconf(a) = &t.packet.chunks[0] else {
        panic!()
    };
    // RFC 5061 §5.1: the first serial number is our Initial TSN.
    assert_eq!(a.sequence_number, h.a.initial_tsn().0);
    assert_eq!(
        a.params.len(),
        1,
        "the second request waits for the ASCONF-ACK"
    );
    let Parameter::AddIpAddress { correlation_id, .. } = a.params[0] else {
        panic!()
    };
    recv!(h, nothing);
    send!(
        h,
        [ChunkRepr::AsconfAck(AsconfAckChunk {
            sequence_number: a.sequence_number,
            params: vec![]
        })]
    );
    assert!(h.take_events().contains(&SctpEvent::AsconfResult {
        kind: AsconfRequestKind::AddIp,
        addr: L3,
        success: true
    }));
    assert!(h.a.local_addrs().contains(&L3));
    let _ = correlation_id;
    let t = h.next().unwrap();
    let ChunkRepr::Asconf(b) = &t.packet.chunks[0] else {
        panic!()
    };
    assert_eq!(b.sequence_number, a.sequence_number.wrapping_add(1));
    assert!(matches!(b.params[0], Parameter::SetPrimaryAddress { .. }));
    // An error response for it.
    let Parameter::SetPrimaryAddress { correlation_id, .. } = b.params[0] else {
        panic!()
    };
    send!(
        h,
        [ChunkRepr::AsconfAck(AsconfAckChunk {
            sequence_number: b.sequence_number,
            params: vec![Parameter::ErrorCauseIndication {
                correlation_id,
                causes: vec![ErrorCause::InvalidMandatoryParameter]
            }],
        })]
    );
    assert!(h.take_events().contains(&SctpEvent::AsconfResult {
        kind: AsconfRequestKind::SetPrimary,
        addr: L3,
        success: false
    }));
}

#[test]
fn t4_retransmits_the_same_asconf() {
    let mut h = established_with(cfg(), &[L1, L2], &[R1]);
    h.a.delete_local_address(h.now, L2).unwrap();
    let first = h.next().unwrap().packet.chunks[0].clone();
    recv!(h, at ms(1000), [c] => { assert_eq!(c, &first); });
    assert_eq!(h.a.stats().asconfs_sent, 2);
}

#[test]
fn t4_stops_when_the_shutdown_starts() {
    // FreeBSD's `sctp_stop_timers_for_shutdown`: an outstanding ASCONF is not retransmitted in
    // SHUTDOWN-SENT (nor SHUTDOWN-ACK-SENT): the peer may close meanwhile and would answer a
    // late ASCONF out of the blue with an ABORT (seen against usrsctp).
    let mut h = established_with(cfg(), &[L1, L2], &[R1]);
    h.a.delete_local_address(h.now, L2).unwrap();
    recv!(h, [ChunkRepr::Asconf(_)]);
    h.a.shutdown(h.now);
    recv!(h, [ChunkRepr::Shutdown { .. }]);
    h.at(ms(5_000));
    let resent: Vec<_> = h
        .all_chunks()
        .into_iter()
        .filter(|(_, c)| matches!(c, ChunkRepr::Asconf(_)))
        .collect();
    assert!(resent.is_empty(), "{resent:?}");
    assert_eq!(h.a.stats().asconfs_sent, 1);
}

#[test]
fn an_address_being_deleted_is_not_the_asconfs_source() {
    // The path to R1 sends from L1; deleting L1 moves it to L2 before the ASCONF leaves, so
    // the peer does not refuse the request as "delete source address" (RFC 5061 §5.2).
    let mut h = established_with(cfg(), &[L1, L2], &[R1]);
    assert_eq!(h.a.status().paths[0].source, L1);
    h.a.delete_local_address(h.now, L1).unwrap();
    let t = h.next().unwrap();
    assert!(matches!(t.packet.chunks[0], ChunkRepr::Asconf(_)));
    assert_eq!(t.src, L2);
}

#[test]
fn local_checks() {
    let mut h = established();
    assert_eq!(
        h.a.delete_local_address(h.now, L1),
        Err(ApiError::LastAddress)
    );
    assert_eq!(
        h.a.delete_local_address(h.now, L3),
        Err(ApiError::UnknownAddress)
    );
    assert_eq!(
        h.a.add_local_address(h.now, L1),
        Err(ApiError::AddressExists)
    );
    let c = SctpConfig {
        asconf: false,
        ..cfg()
    };
    let mut h = established_with(c, &[L1], &[R1]);
    assert_eq!(
        h.a.add_local_address(h.now, L3),
        Err(ApiError::NotSupported)
    );
}

#[test]
fn peer_adds_an_address_and_makes_it_primary() {
    let mut h = established();
    let seq = REMOTE_TSN.0;
    send!(h, [asconf(seq, vec![add(1, R3), prim(2, R3)])]);
    let ack = ack_of(&mut h);
    assert_eq!(ack.sequence_number, seq);
    assert!(ack.params.is_empty(), "all succeeded: no responses needed");
    assert_eq!(h.a.peer_addrs(), vec![R1, R3]);
    assert_eq!(h.a.primary(), R3);
    let ev = h.take_events();
    assert!(ev.contains(&SctpEvent::PathAdded { addr: R3 }));
    assert!(ev.contains(&SctpEvent::PrimaryChanged { addr: R3 }));
    // The new address is probed with a heartbeat (RFC 9260 §5.4) before it carries data.
    h.at(h.now);
    assert!(h
        .all()
        .iter()
        .any(|t| t.dst == R3 && matches!(t.packet.chunks[0], ChunkRepr::Heartbeat { .. })));
}

#[test]
fn receiver_checks_and_error_causes() {
    let mut h = established();
    let seq = REMOTE_TSN.0;
    // Deleting the packet's source address and the last address are refused; an unknown
    // address is unresolvable; a success after an error is indicated explicitly.
    send!(h, [asconf(seq, vec![del(1, R1), del(2, R3), add(3, R2)])]);
    let ack = ack_of(&mut h);
    assert_eq!(ack.params.len(), 3);
    assert!(
        matches!(&ack.params[0], Parameter::ErrorCauseIndication { correlation_id: 1, causes } if matches!(causes[0], ErrorCause::DeleteSourceAddress { .. }))
    );
    assert!(
        matches!(&ack.params[1], Parameter::ErrorCauseIndication { correlation_id: 2, causes } if matches!(causes[0], ErrorCause::UnresolvableAddress { .. }))
    );
    assert_eq!(
        ack.params[2],
        Parameter::SuccessIndication { correlation_id: 3 }
    );
    // Now from R2: deleting R1 works, then deleting R2 (source) is refused...
    h.inject_from(R2, vec![asconf(seq.wrapping_add(1), vec![del(4, R1)])]);
    assert_eq!(ack_of(&mut h).params, vec![]);
    assert_eq!(h.a.peer_addrs(), vec![R2]);
    assert_eq!(h.a.primary(), R2);
    // ...and from an address that is not (any more) in the association, the last one too.
    h.inject_from(R1, vec![asconf(seq.wrapping_add(2), vec![del(5, R2)])]);
    let ack = ack_of(&mut h);
    assert!(
        matches!(&ack.params[0], Parameter::ErrorCauseIndication { correlation_id: 5, causes } if matches!(causes[0], ErrorCause::DeleteLastRemainingAddress { .. }))
    );
}

#[test]
fn retransmitted_asconf_gets_the_same_ack_and_others_are_ignored() {
    let mut h = established();
    let seq = REMOTE_TSN.0;
    send!(h, [asconf(seq, vec![add(1, R3)])]);
    let first = ack_of(&mut h);
    send!(h, [asconf(seq, vec![add(1, R3)])]);
    assert_eq!(ack_of(&mut h), first);
    // Out of sequence: silently discarded.
    send!(h, [asconf(seq.wrapping_add(5), vec![add(1, R2)])]);
    recv!(h, nothing);
    assert_eq!(h.a.peer_addrs(), vec![R1, R3]);
}

#[test]
fn unknown_asconf_parameters_follow_their_upper_bits() {
    let mut h = established();
    let seq = REMOTE_TSN.0;
    send!(
        h,
        [asconf(
            seq,
            vec![
                Parameter::Unknown {
                    kind: 0xC0F0,
                    value: vec![]
                },
                add(1, R3),
                Parameter::Unknown {
                    kind: 0x40F0,
                    value: vec![]
                },
                add(2, R2)
            ]
        )]
    );
    let ack = ack_of(&mut h);
    assert_eq!(ack.params.len(), 3, "{ack:?}");
    assert_eq!(
        h.a.peer_addrs(),
        vec![R1, R3],
        "processing stopped at the 01 parameter"
    );
}

#[test]
fn illegal_asconf_ack_aborts() {
    let mut h = established_with(cfg(), &[L1, L2], &[R1]);
    h.a.delete_local_address(h.now, L2).unwrap();
    h.all();
    send!(
        h,
        [ChunkRepr::AsconfAck(AsconfAckChunk {
            sequence_number: 12345,
            params: vec![]
        })]
    );
    recv!(h, [ChunkRepr::Abort { causes, .. }] => { assert_eq!(causes, &vec![ErrorCause::IllegalAsconfAck]); });
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn deleting_our_address_moves_the_paths_source() {
    let mut h = established_with(cfg(), &[L1, L2], &[R1]);
    h.a.set_source_address(R1, L2).unwrap();
    h.a.delete_local_address(h.now, L2).unwrap();
    let t = h.next().unwrap();
    let ChunkRepr::Asconf(a) = &t.packet.chunks[0] else {
        panic!()
    };
    assert_eq!(
        a.address,
        IpAddr::V4(L1),
        "the Address Parameter is not the one being deleted"
    );
    send!(
        h,
        [ChunkRepr::AsconfAck(AsconfAckChunk {
            sequence_number: a.sequence_number,
            params: vec![]
        })]
    );
    assert_eq!(h.a.local_addrs(), &[L1]);
    assert_eq!(h.a.path_status(R1).unwrap().source, L1);
}
