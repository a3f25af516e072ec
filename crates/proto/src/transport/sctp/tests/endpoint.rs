//! The endpoint's association table and the one routing rule (RFC 9260 §8.4, §8.5): a packet
//! goes to the first live association that owns it, else the endpoint answers it; what
//! happened comes back as a `DatagramEvent`.

use super::*;
use crate::transport::sctp::{AssocHandle, EndpointStats};

/// A client endpoint at L1 with a connected association, and a listening server endpoint at R1.
fn endpoints() -> (SctpEndpoint, AssocHandle, SctpEndpoint) {
    let mut client = SctpEndpoint::new(cfg(), LOCAL_PORT, vec![L1], Rng::from_seed(1));
    let mut server = SctpEndpoint::new(cfg(), REMOTE_PORT, vec![R1], Rng::from_seed(2));
    server.listen(true);
    let h = client.connect(SimTime::ZERO, &[R1], REMOTE_PORT);
    (client, h, server)
}

/// Everything the association `h` of `ep` sends now, through the codec.
fn out(ep: &mut SctpEndpoint, h: AssocHandle, now: SimTime) -> Vec<Vec<u8>> {
    let a = ep.assoc_mut(h).expect("in the table");
    std::iter::from_fn(|| a.poll_transmit(now))
        .map(|t| t.payload)
        .collect()
}

#[test]
fn handshake_through_handle_datagram_reports_each_step() {
    let (mut client, c, mut server) = endpoints();
    let now = SimTime::ZERO;
    let [init] = &out(&mut client, c, now)[..] else {
        panic!("one INIT")
    };
    // No association owns an INIT: the endpoint answers with an INIT ACK and keeps no state.
    assert_eq!(
        server.handle_datagram(now, L1, R1, init),
        Ok(Some(DatagramEvent::Response))
    );
    assert_eq!(server.associations().count(), 0);
    let ack = server.poll_transmit().expect("INIT ACK").payload;
    assert_eq!(
        client.handle_datagram(now, R1, L1, &ack),
        Ok(Some(DatagramEvent::Association(c)))
    );
    let [echo] = &out(&mut client, c, now)[..] else {
        panic!("one COOKIE ECHO")
    };
    let Ok(Some(DatagramEvent::NewAssociation(s))) = server.handle_datagram(now, L1, R1, echo)
    else {
        panic!("the COOKIE ECHO creates the association")
    };
    assert_eq!(server.assoc(s).map(|a| a.state()), Some(State::Established));
    let [cookie_ack] = &out(&mut server, s, now)[..] else {
        panic!("one COOKIE ACK")
    };
    assert_eq!(
        client.handle_datagram(now, R1, L1, cookie_ack),
        Ok(Some(DatagramEvent::Association(c)))
    );
    assert_eq!(client.assoc(c).map(|a| a.state()), Some(State::Established));
    // A second COOKIE ECHO now belongs to the live association (§5.2.4 handles it there).
    assert_eq!(
        server.handle_datagram(now, L1, R1, echo),
        Ok(Some(DatagramEvent::Association(s)))
    );
    assert_eq!(server.associations().count(), 1);
}

#[test]
fn malformed_datagrams_are_counted_and_dropped() {
    let (mut client, c, mut server) = endpoints();
    let mut init = out(&mut client, c, SimTime::ZERO).remove(0);
    init[8] ^= 0xff; // the CRC32c
    assert!(server
        .handle_datagram(SimTime::ZERO, L1, R1, &init)
        .is_err());
    assert!(server
        .handle_datagram(SimTime::ZERO, L1, R1, &[1, 2, 3])
        .is_err());
    assert!(server.poll_transmit().is_none());
    assert_eq!(
        *server.stats(),
        EndpointStats {
            malformed_packets: 2,
            ..EndpointStats::default()
        }
    );
}

#[test]
fn closed_and_removed_associations_take_no_packets() {
    let (mut client, c, _) = endpoints();
    let now = SimTime::ZERO;
    let abort = SctpRepr {
        src_port: REMOTE_PORT,
        dst_port: LOCAL_PORT,
        verification_tag: 0,
        chunks: vec![ChunkRepr::Abort {
            t_bit: true,
            causes: vec![],
        }],
    };
    let shutdown_ack = SctpRepr {
        chunks: vec![ChunkRepr::ShutdownAck],
        verification_tag: 0x1234,
        ..abort.clone()
    };
    // While the association is in COOKIE-WAIT it owns packets from R1, even with a wrong tag
    // (its own §8.5 check discards them).
    assert_eq!(
        client.handle_packet(now, R1, L1, &shutdown_ack),
        Some(DatagramEvent::Association(c))
    );
    client.assoc_mut(c).expect("in the table").abort(now, b"");
    assert!(client.assoc(c).is_some_and(|a| a.is_closed()));
    // Closed: the endpoint treats the packet as out of the blue (§8.4 rule 5).
    assert_eq!(
        client.handle_packet(now, R1, L1, &shutdown_ack),
        Some(DatagramEvent::Response)
    );
    let t = sent_ep(&mut client).expect("SHUTDOWN COMPLETE");
    assert_eq!(
        t.packet.chunks,
        vec![ChunkRepr::ShutdownComplete { t_bit: true }]
    );
    // An out-of-the-blue ABORT is silently discarded (§8.4 rule 2).
    assert_eq!(client.handle_packet(now, R1, L1, &abort), None);
    // Removed: gone from the table, and its handle is never given out again.
    assert!(client.remove(c).is_some());
    assert!(client.assoc(c).is_none() && client.remove(c).is_none());
    let again = client.connect(now, &[R1], REMOTE_PORT);
    assert_ne!(again, c);
    assert_eq!(
        client.associations().map(|(h, _)| h).collect::<Vec<_>>(),
        vec![again]
    );
}

#[test]
fn packets_go_to_the_association_of_their_peer() {
    let mut ep = SctpEndpoint::new(cfg(), LOCAL_PORT, vec![L1, L2], Rng::from_seed(4));
    let a = ep.connect(SimTime::ZERO, &[R1], REMOTE_PORT);
    let b = ep.connect(SimTime::ZERO, &[R2], REMOTE_PORT);
    let from = |port: u16| SctpRepr {
        src_port: port,
        dst_port: LOCAL_PORT,
        verification_tag: 0,
        chunks: vec![ChunkRepr::CookieAck],
    };
    let now = SimTime::ZERO;
    assert_eq!(
        ep.handle_packet(now, R2, L2, &from(REMOTE_PORT)),
        Some(DatagramEvent::Association(b))
    );
    assert_eq!(
        ep.handle_packet(now, R1, L1, &from(REMOTE_PORT)),
        Some(DatagramEvent::Association(a))
    );
    // Another port of the same peer: nobody's; an out-of-the-blue COOKIE ACK is discarded
    // (§8.4 rule 7).
    assert_eq!(ep.handle_packet(now, R1, L1, &from(REMOTE_PORT + 1)), None);
}

/// The client and server endpoints of [`endpoints`], with the association established at both.
fn established_endpoints() -> (SctpEndpoint, AssocHandle, SctpEndpoint, AssocHandle) {
    let (mut client, c, mut server) = endpoints();
    let now = SimTime::ZERO;
    let init = out(&mut client, c, now).remove(0);
    server.handle_datagram(now, L1, R1, &init).unwrap();
    let ack = server.poll_transmit().expect("INIT ACK").payload;
    client.handle_datagram(now, R1, L1, &ack).unwrap();
    let echo = out(&mut client, c, now).remove(0);
    let Ok(Some(DatagramEvent::NewAssociation(s))) = server.handle_datagram(now, L1, R1, &echo)
    else {
        panic!("the COOKIE ECHO creates the association")
    };
    for p in out(&mut server, s, now) {
        client.handle_datagram(now, R1, L1, &p).unwrap();
    }
    (client, c, server, s)
}

#[test]
fn an_asconf_from_a_new_address_finds_its_association_by_the_address_parameter() {
    // RFC 5061 §5.2: the client adds L2 with an ASCONF sent from L2 itself (its old address
    // may no longer reach the server); the server knows only L1, finds the association by the
    // ASCONF's Address Parameter (L1) and answers to L2.
    let (mut client, c, mut server, s) = established_endpoints();
    let now = SimTime::ZERO + SimDuration::from_millis(10);
    let a = client.assoc_mut(c).unwrap();
    a.set_asconf_source(Some(L2));
    a.add_local_address(now, L2).unwrap();
    let t = a.poll_transmit(now).expect("the ASCONF");
    assert_eq!(t.src, L2);
    assert_eq!(
        server.handle_datagram(now, L2, R1, &t.payload),
        Ok(Some(DatagramEvent::Association(s)))
    );
    let sa = server.assoc_mut(s).unwrap();
    assert_eq!(sa.peer_addrs(), vec![L1, L2]);
    let acks: Vec<_> = std::iter::from_fn(|| sa.poll_transmit(now)).collect();
    assert!(acks.iter().any(|t| t.dst == L2), "{acks:?}");
    // A packet from an unknown address with the wrong tag is not taken for the association.
    let mut forged = t.payload.clone();
    let mut sctp = sctpsim_wire::sctp::SctpPacket::new_unchecked(&mut forged[..]);
    sctp.set_verification_tag(0x5eed_0bad);
    sctp.fill_checksum();
    let before = server.associations().count();
    let ev = server.handle_datagram(now, Ipv4Addr::new(10, 9, 9, 9), R1, &forged);
    assert_ne!(ev, Ok(Some(DatagramEvent::Association(s))));
    assert_eq!(server.associations().count(), before);
}
