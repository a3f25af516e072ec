//! Bad input: segments that fail to parse are counted and dropped; parsed segments that make
//! no sense for the state are answered as RFC 9293 §3.10.7.4 and RFC 5961 say.

use std::net::Ipv4Addr;

use super::*;
use sctpsim_wire::tcp::{TcpPacket, MIN_HEADER_LEN};
use sctpsim_wire::WireError;

const A: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
const B: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);

/// The bytes of `repr` + `payload` as a TCP segment from A to B.
fn bytes(repr: &TcpRepr, payload: &[u8]) -> Vec<u8> {
    let repr = TcpRepr {
        payload_len: payload.len(),
        ..*repr
    };
    let mut buf = vec![0u8; repr.buffer_len()];
    repr.emit(&mut TcpPacket::new_unchecked(&mut buf[..]), A, B, |d| {
        d.copy_from_slice(payload)
    });
    buf
}

#[test]
fn bad_checksum_truncated_header_and_nonsense_options_are_counted_and_dropped() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    let good = bytes(&seg(1, Some(1)), b"data");
    // Bad checksum.
    let mut bad = good.clone();
    bad[MIN_HEADER_LEN] ^= 0xff;
    assert_eq!(
        conn.handle_packet(ms(200), A, B, &bad),
        Err(WireError::BadChecksum)
    );
    // Truncated header.
    assert_eq!(
        conn.handle_packet(ms(200), A, B, &good[..12]),
        Err(WireError::Truncated)
    );
    // Nonsense options (an MSS option of length 3), with a correct checksum.
    let mut opts = good[..MIN_HEADER_LEN].to_vec();
    opts.extend_from_slice(&[2, 3, 1, 0]);
    let mut packet = TcpPacket::new_unchecked(&mut opts[..]);
    packet.set_header_len(24);
    packet.fill_checksum(A, B);
    assert_eq!(
        conn.handle_packet(ms(200), A, B, &opts),
        Err(WireError::Malformed)
    );
    assert_eq!(conn.stats().malformed_dropped, 3);
    expect_nothing(&mut conn, ms(200));
    assert_eq!(conn.recv_available(), 0);
    // The good one is accepted.
    assert_eq!(conn.handle_packet(ms(200), A, B, &good), Ok(()));
    assert_eq!(conn.recv_available(), 4);
}

#[test]
fn wrong_ports_are_dropped() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    input(
        &mut conn,
        ms(200),
        &TcpRepr {
            src_port: 1234,
            ..seg(1, Some(1))
        },
        b"x",
    );
    input(
        &mut conn,
        ms(200),
        &TcpRepr {
            dst_port: 81,
            ..seg(1, Some(1))
        },
        b"x",
    );
    expect_nothing(&mut conn, ms(200));
    assert_eq!(conn.stats().segments_dropped, 2);
}

#[test]
fn ack_of_unsent_data_is_answered_and_dropped() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    input(&mut conn, ms(200), &seg(1, Some(5000)), b"abc");
    expect_ack(&mut conn, ms(200), 1);
    assert_eq!(conn.recv_available(), 0);
    assert_eq!(conn.snd_una(), 1);
}

#[test]
fn syn_in_a_synchronized_state_gets_a_challenge_ack() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    input(
        &mut conn,
        ms(200),
        &TcpRepr {
            flags: TcpFlags::SYN,
            ..seg(1, None)
        },
        &[],
    );
    assert_eq!(conn.state(), State::Established);
    expect_ack(&mut conn, ms(200), 1);
}

#[test]
fn segments_outside_the_window_or_without_ack_are_dropped() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    input(&mut conn, ms(200), &seg(1 << 20, Some(1)), b"far away");
    expect_ack(&mut conn, ms(200), 1);
    input(&mut conn, ms(200), &seg(1, None), b"no ack");
    expect_nothing(&mut conn, ms(200));
    assert_eq!(conn.recv_available(), 0);
    assert_eq!(conn.stats().segments_dropped, 2);
}

#[test]
fn old_acks_and_partial_overlaps_are_harmless() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    conn.send(&[0u8; 3000]);
    output(&mut conn, ms(100));
    input(&mut conn, ms(150), &seg(1, Some(off(2))), &[]);
    // An older ACK (reordered) changes nothing.
    input(&mut conn, ms(160), &seg(1, Some(off(1))), &[]);
    assert_eq!(conn.snd_una(), off(2));
    // Data overlapping what was received is trimmed.
    input(&mut conn, ms(170), &seg(1, Some(off(2))), b"abcdef");
    expect_ack(&mut conn, ms(170), 7);
    input(&mut conn, ms(171), &seg(4, Some(off(2))), b"defghi");
    expect_ack(&mut conn, ms(171), 10);
    let mut buf = [0u8; 16];
    let n = conn.recv(&mut buf);
    assert_eq!(&buf[..n], b"abcdefghi");
}
