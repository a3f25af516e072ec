//! CLOSED / LISTEN / SYN-SENT / SYN-RECEIVED: the three-way handshake and option
//! negotiation (RFC 9293 §3.5, §3.10.7.2–3; RFC 2018 §2; RFC 7323 §2–3; RFC 6298 §5.7).

use super::*;
use crate::transport::tcp::rtt::RTO_AFTER_SYN_TIMEOUT;

fn client(config: TcpConfig) -> TcpConnection {
    TcpConnection::new_client(config, local(), remote(), LOCAL_ISS)
}

/// The remote SYN-ACK answering the local SYN.
fn syn_ack() -> TcpRepr {
    TcpRepr {
        flags: TcpFlags::SYN,
        max_seg_size: Some(1200),
        ..seg(0, Some(1))
    }
}

#[test]
fn active_open_sends_syn_with_options() {
    let config = TcpConfig {
        window_scale: Some(3),
        ..TcpConfig::rfc().with_variant(TcpVariant::Sack)
    };
    let mut conn = client(config);
    assert_eq!(conn.state(), State::SynSent);
    let out = output(&mut conn, ms(5));
    assert_eq!(out.len(), 1);
    let (syn, payload) = &out[0];
    assert!(payload.is_empty());
    assert_eq!(syn.flags, TcpFlags::SYN);
    assert_eq!(syn.seq_number, LOCAL_ISS);
    assert_eq!(syn.ack_number, None);
    assert_eq!(syn.max_seg_size, Some(1460));
    assert_eq!(syn.window_scale, Some(3));
    assert!(syn.sack_permitted);
    assert_eq!(syn.timestamp.map(|t| (t.tsval, t.tsecr)), Some((5, 0)));
    // RFC 6298 §2.1: the SYN is timed with the initial RTO of 1 s.
    assert_eq!(conn.poll_timeout(), Some(ms(1005)));
}

#[test]
fn reno_client_does_not_offer_sack() {
    let mut conn = client(TcpConfig::rfc().with_variant(TcpVariant::Reno));
    let (syn, _) = conn.poll_segment(ms(0), 1460).unwrap();
    assert!(!syn.sack_permitted);
}

#[test]
fn syn_ack_establishes_and_negotiates() {
    let mut conn = client(cfg(TcpVariant::Sack));
    output(&mut conn, ms(0));
    let mut synack = syn_ack();
    synack.sack_permitted = true;
    synack.window_len = 30_000;
    input(&mut conn, ms(80), &synack, &[]);
    assert_eq!(conn.state(), State::Established);
    assert_eq!(conn_events(&mut conn), vec![TcpEvent::Connected]);
    // RFC 9293 §3.7.1: send MSS = min(ours, theirs).
    assert_eq!(conn.send_mss(), 1000);
    assert!(conn.sack_enabled());
    assert!(!conn.timestamps_enabled());
    assert_eq!(conn.peer_window(), 30_000);
    // RFC 6298 §2.2: first sample 80 ms, RTO = 80 + 4·40 = 240 ms, raised to 1 s.
    assert_eq!(conn.srtt(), Some(SimDuration::from_millis(80)));
    assert_eq!(conn.rto(), SimDuration::from_secs(1));
    // The ACK of the SYN-ACK.
    let ack = expect_ack(&mut conn, ms(80), 1);
    assert_eq!(ack.seq_number, lseq(1));
    assert_eq!(conn.poll_timeout(), None);
}

#[test]
fn default_peer_mss_is_536_and_nonsense_mss_is_floored() {
    let mut conn = client(cfg(TcpVariant::NewReno));
    output(&mut conn, ms(0));
    input(
        &mut conn,
        ms(10),
        &TcpRepr {
            max_seg_size: None,
            ..syn_ack()
        },
        &[],
    );
    assert_eq!(conn.send_mss(), 536);
    let mut conn = client(cfg(TcpVariant::NewReno));
    output(&mut conn, ms(0));
    input(
        &mut conn,
        ms(10),
        &TcpRepr {
            max_seg_size: Some(0),
            ..syn_ack()
        },
        &[],
    );
    assert_eq!(
        conn.send_mss(),
        u32::from(crate::transport::tcp::MIN_PEER_MSS)
    );
}

#[test]
fn timestamps_reduce_the_payload_and_window_scale_is_clamped() {
    let config = TcpConfig {
        window_scale: Some(2),
        recv_buffer: 1 << 20,
        ..TcpConfig::rfc()
    };
    let mut conn = client(config);
    output(&mut conn, ms(0));
    let synack = TcpRepr {
        timestamp: Some(TcpTimestamp {
            tsval: 777,
            tsecr: 0,
        }),
        window_scale: Some(20),
        max_seg_size: Some(1460),
        window_len: 1000,
        ..syn_ack()
    };
    input(&mut conn, ms(30), &synack, &[]);
    assert!(conn.timestamps_enabled());
    // RFC 6691 §2: 1460 - 12.
    assert_eq!(conn.send_mss(), 1448);
    // The SYN-ACK's window is not scaled (RFC 7323 §2.2).
    assert_eq!(conn.peer_window(), 1000);
    let ack = expect_ack(&mut conn, ms(30), 1);
    assert_eq!(ack.timestamp.map(|t| (t.tsval, t.tsecr)), Some((30, 777)));
    // Our window (1 MiB) is sent shifted by our scale of 2.
    assert_eq!(ack.window_len, u16::MAX);
    // RFC 7323 §2.3: a shift above 14 is used as 14.
    let data_ack = TcpRepr {
        window_len: 2,
        timestamp: Some(TcpTimestamp {
            tsval: 778,
            tsecr: 30,
        }),
        ..seg(1, Some(1))
    };
    input(&mut conn, ms(40), &data_ack, &[]);
    assert_eq!(conn.peer_window(), 2 << 14);
}

#[test]
fn syn_retransmission_backs_off_and_rto_restarts_at_3s() {
    let mut conn = client(cfg(TcpVariant::NewReno));
    output(&mut conn, ms(0));
    // No answer: the SYN is resent after 1 s, then 2 s later.
    conn.handle_timeout(ms(999));
    expect_nothing(&mut conn, ms(999));
    conn.handle_timeout(ms(1000));
    let out = output(&mut conn, ms(1000));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].0.flags, TcpFlags::SYN);
    assert_eq!(conn.poll_timeout(), Some(ms(3000)));
    assert_eq!(conn.stats().timeouts, 1);
    // Karn: the SYN-ACK after a retransmitted SYN gives no sample, and RFC 6298 §5.7 sets
    // the RTO to 3 s for the data phase.
    input(&mut conn, ms(1100), &syn_ack(), &[]);
    assert_eq!(conn.state(), State::Established);
    assert_eq!(conn.srtt(), None);
    assert_eq!(conn.rto(), RTO_AFTER_SYN_TIMEOUT);
}

#[test]
fn syn_sent_gives_up_after_max_retransmissions() {
    let config = TcpConfig {
        max_retransmissions: Some(2),
        ..cfg(TcpVariant::NewReno)
    };
    let mut conn = client(config);
    output(&mut conn, ms(0));
    let mut now = ms(0);
    for _ in 0..3 {
        now = conn.poll_timeout().unwrap();
        conn.handle_timeout(now);
        output(&mut conn, now);
    }
    assert_eq!(conn.state(), State::Closed);
    assert_eq!(conn_events(&mut conn), vec![TcpEvent::TimedOut]);
    assert_eq!(conn.poll_timeout(), None);
    let _ = now;
}

#[test]
fn syn_sent_unacceptable_ack_gets_rst_and_acceptable_rst_resets() {
    let mut conn = client(cfg(TcpVariant::NewReno));
    output(&mut conn, ms(0));
    // "If SEG.ACK =< ISS or SEG.ACK > SND.NXT, send a reset".
    input(&mut conn, ms(1), &seg(0, Some(5)), &[]);
    let out = output(&mut conn, ms(1));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].0.flags, TcpFlags::RST);
    assert_eq!(out[0].0.seq_number, lseq(5));
    assert_eq!(conn.state(), State::SynSent);
    // A RST without ACK is dropped.
    input(
        &mut conn,
        ms(2),
        &TcpRepr {
            flags: TcpFlags::RST,
            ..seg(0, None)
        },
        &[],
    );
    assert_eq!(conn.state(), State::SynSent);
    // A RST acknowledging the SYN: connection refused.
    input(
        &mut conn,
        ms(3),
        &TcpRepr {
            flags: TcpFlags::RST,
            ..seg(0, Some(1))
        },
        &[],
    );
    assert_eq!(conn.state(), State::Closed);
    assert_eq!(conn_events(&mut conn), vec![TcpEvent::Reset]);
}

#[test]
fn passive_open_answers_with_syn_ack() {
    let mut syn = remote_syn();
    syn.sack_permitted = true;
    syn.window_scale = Some(5);
    let config = TcpConfig {
        window_scale: Some(4),
        ..cfg(TcpVariant::NewReno)
    };
    let mut conn = TcpConnection::new_listener(config, local(), LOCAL_ISS);
    assert_eq!(conn.state(), State::Listen);
    input(&mut conn, ms(0), &syn, &[]);
    assert_eq!(conn.state(), State::SynReceived);
    assert_eq!(conn.remote_port(), REMOTE_PORT);
    let out = output(&mut conn, ms(0));
    assert_eq!(out.len(), 1);
    let synack = out[0].0;
    assert_eq!(synack.flags, TcpFlags::SYN);
    assert_eq!(synack.seq_number, LOCAL_ISS);
    assert_eq!(synack.ack_number, Some(rseq(1)));
    assert!(synack.sack_permitted);
    assert_eq!(synack.window_scale, Some(4));
    assert_eq!(synack.timestamp, None);
    // The peer's ACK completes the handshake.
    input(&mut conn, ms(50), &seg(1, Some(1)), &[]);
    assert_eq!(conn.state(), State::Established);
    assert_eq!(conn.srtt(), Some(SimDuration::from_millis(50)));
    // The ACK's window is scaled by the peer's shift of 5.
    assert_eq!(conn.peer_window(), 65_535 << 5);
}

#[test]
fn listener_ignores_rst_and_resets_acks() {
    let mut conn = TcpConnection::new_listener(cfg(TcpVariant::Reno), local(), LOCAL_ISS);
    input(
        &mut conn,
        ms(0),
        &TcpRepr {
            flags: TcpFlags::RST,
            ..seg(0, None)
        },
        &[],
    );
    expect_nothing(&mut conn, ms(0));
    input(&mut conn, ms(0), &seg(7, Some(99)), &[]);
    let out = output(&mut conn, ms(0));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].0.flags, TcpFlags::RST);
    assert_eq!(out[0].0.seq_number, lseq(99));
    assert_eq!(out[0].0.dst_port, REMOTE_PORT);
    assert_eq!(conn.state(), State::Listen);
    // Plain data without SYN is dropped silently.
    input(&mut conn, ms(0), &seg(7, None), b"x");
    expect_nothing(&mut conn, ms(0));
}

#[test]
fn lost_syn_ack_is_resent_on_duplicate_syn_and_on_timeout() {
    let mut conn = syn_received(cfg(TcpVariant::NewReno), remote_syn());
    // The peer retransmits its SYN.
    input(&mut conn, ms(500), &remote_syn(), &[]);
    let out = output(&mut conn, ms(500));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].0.flags, TcpFlags::SYN);
    assert_eq!(out[0].0.ack_number, Some(rseq(1)));
    // Our own timer resends it too.
    conn.handle_timeout(ms(1000));
    let out = output(&mut conn, ms(1000));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].0.flags, TcpFlags::SYN);
    assert_eq!(conn.stats().retransmissions, 2);
}

#[test]
fn syn_received_bad_ack_gets_rst() {
    let mut conn = syn_received(cfg(TcpVariant::NewReno), remote_syn());
    input(&mut conn, ms(10), &seg(1, Some(50)), &[]);
    let out = output(&mut conn, ms(10));
    assert_eq!(out[0].0.flags, TcpFlags::RST);
    assert_eq!(conn.state(), State::SynReceived);
}

#[test]
fn simultaneous_open() {
    let mut conn = client(cfg(TcpVariant::NewReno));
    output(&mut conn, ms(0));
    input(&mut conn, ms(10), &remote_syn(), &[]);
    assert_eq!(conn.state(), State::SynReceived);
    let out = output(&mut conn, ms(10));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].0.flags, TcpFlags::SYN);
    assert_eq!(out[0].0.ack_number, Some(rseq(1)));
    input(&mut conn, ms(20), &seg(1, Some(1)), &[]);
    assert_eq!(conn.state(), State::Established);
}

#[test]
fn data_and_close_queued_before_the_handshake_go_after_it() {
    let mut conn = client(cfg(TcpVariant::NewReno));
    assert_eq!(conn.send(b"hello"), 5);
    conn.close();
    assert_eq!(conn.state(), State::SynSent);
    let out = output(&mut conn, ms(0));
    assert_eq!(out.len(), 1, "only the SYN before ESTABLISHED");
    input(&mut conn, ms(10), &syn_ack(), &[]);
    assert_eq!(conn.state(), State::FinWait1);
    let out = output(&mut conn, ms(10));
    assert_eq!(out.len(), 1);
    let (repr, payload) = &out[0];
    assert_eq!(payload, b"hello");
    assert!(repr.flags.contains(TcpFlags::FIN));
    assert!(repr.flags.contains(TcpFlags::PSH));
}

#[test]
fn closed_connection_answers_with_rst() {
    let mut conn = client(cfg(TcpVariant::NewReno));
    conn.abort();
    assert_eq!(conn.state(), State::Closed);
    input(&mut conn, ms(0), &seg(10, None), b"abc");
    let out = output(&mut conn, ms(0));
    assert_eq!(out.len(), 1);
    let rst = out[0].0;
    // "<SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK>".
    assert_eq!(rst.flags, TcpFlags::RST);
    assert_eq!(rst.seq_number, TcpSeqNumber(0));
    assert_eq!(rst.ack_number, Some(rseq(13)));
    // A RST is never answered.
    input(
        &mut conn,
        ms(0),
        &TcpRepr {
            flags: TcpFlags::RST,
            ..seg(10, None)
        },
        &[],
    );
    expect_nothing(&mut conn, ms(0));
}

/// The segment `repr` from `src` to `dst` on the wire.
fn wire(repr: &TcpRepr, src: Ipv4Addr, dst: Ipv4Addr) -> Vec<u8> {
    let mut buf = vec![0u8; repr.buffer_len()];
    repr.emit(
        &mut TcpPacket::new_unchecked(&mut buf[..]),
        src,
        dst,
        |_| {},
    );
    buf
}

#[test]
fn a_listener_answers_from_the_address_the_syn_came_to() {
    let mut conn = TcpConnection::new_listener(cfg(TcpVariant::Reno), local(), LOCAL_ISS);
    assert_eq!(conn.remote_addr(), Ipv4Addr::UNSPECIFIED);
    let syn = wire(&remote_syn(), REMOTE_ADDR, LOCAL_ADDR);
    assert!(conn
        .handle_packet(ms(0), REMOTE_ADDR, LOCAL_ADDR, &syn)
        .is_ok());
    assert_eq!(conn.state(), State::SynReceived);
    let t = conn.poll_transmit(ms(0), 1460).expect("SYN-ACK");
    assert_eq!((t.src, t.dst), (LOCAL_ADDR, REMOTE_ADDR));
    // The checksum covers those addresses.
    let segment = TcpPacket::new_checked(&t.payload[..]).unwrap();
    let repr = TcpRepr::parse(&segment, t.src, t.dst).expect("valid checksum");
    assert!(repr.flags.contains(TcpFlags::SYN) && repr.ack_number == Some(rseq(1)));
    // Once bound, another sender does not move it.
    let other = Ipv4Addr::new(10, 9, 9, 9);
    let stray = wire(&seg(1, Some(1)), other, LOCAL_ADDR);
    let _ = conn.handle_packet(ms(1), other, LOCAL_ADDR, &stray);
    assert_eq!(conn.remote_addr(), REMOTE_ADDR);
}

#[test]
fn a_closed_connection_resets_whoever_sent_the_segment() {
    let mut conn = client(cfg(TcpVariant::Reno));
    conn.abort();
    assert!(conn.is_closed());
    output(&mut conn, ms(0));
    let other = Ipv4Addr::new(10, 9, 9, 9);
    let stray = wire(&seg(5, Some(7)), other, LOCAL_ADDR);
    assert!(conn.handle_packet(ms(1), other, LOCAL_ADDR, &stray).is_ok());
    let t = conn.poll_transmit(ms(1), 1460).expect("RST");
    assert_eq!((t.src, t.dst), (LOCAL_ADDR, other));
    let segment = TcpPacket::new_checked(&t.payload[..]).unwrap();
    let repr = TcpRepr::parse(&segment, t.src, t.dst).expect("valid checksum");
    assert!(repr.flags.contains(TcpFlags::RST));
}
