//! Connection termination: FIN-WAIT-1/2, CLOSING, TIME-WAIT, CLOSE-WAIT, LAST-ACK
//! (RFC 9293 §3.6, §3.10.4, §3.10.7.4), resets (RFC 9293 §3.10.7.4 second, RFC 5961 §3).

use super::*;

/// The FIN offset of a connection that sent `len` data bytes: `len + 1`.
fn local_fin(len: u64) -> u64 {
    1 + len
}

#[test]
fn active_close_goes_through_fin_wait_and_time_wait() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    conn.send(b"bye");
    conn.close();
    assert_eq!(conn.state(), State::FinWait1);
    assert_eq!(conn.send(b"more"), 0);
    let out = output(&mut conn, ms(100));
    assert_eq!(out.len(), 1);
    let (fin, payload) = &out[0];
    assert_eq!(payload, b"bye");
    assert!(fin.flags.contains(TcpFlags::FIN));
    // ACK of the data and the FIN: FIN-WAIT-2.
    input(&mut conn, ms(150), &seg(1, Some(local_fin(3) + 1)), &[]);
    assert_eq!(conn.state(), State::FinWait2);
    assert!(conn.all_acked());
    assert_eq!(conn.poll_timeout(), None);
    // The peer's FIN: TIME-WAIT, acknowledged at once.
    input(
        &mut conn,
        ms(200),
        &TcpRepr {
            flags: TcpFlags::FIN,
            ..seg(1, Some(local_fin(3) + 1))
        },
        &[],
    );
    assert_eq!(conn.state(), State::TimeWait);
    expect_ack(&mut conn, ms(200), 2);
    assert_eq!(conn_events(&mut conn), vec![TcpEvent::PeerClosed]);
    // 2·MSL = 4 minutes; a retransmitted FIN is acknowledged and restarts the timer.
    assert_eq!(conn.poll_timeout(), Some(ms(200 + 240_000)));
    input(
        &mut conn,
        ms(1000),
        &TcpRepr {
            flags: TcpFlags::FIN,
            ..seg(1, Some(local_fin(3) + 1))
        },
        &[],
    );
    expect_ack(&mut conn, ms(1000), 2);
    assert_eq!(conn.poll_timeout(), Some(ms(1000 + 240_000)));
    conn.handle_timeout(ms(241_000));
    assert_eq!(conn.state(), State::Closed);
    assert_eq!(conn_events(&mut conn), vec![TcpEvent::Closed]);
    assert_eq!(conn.poll_timeout(), None);
}

#[test]
fn fin_is_retransmitted_by_the_timer() {
    let mut conn = established(cfg(TcpVariant::Reno));
    conn.close();
    let out = output(&mut conn, ms(100));
    assert_eq!(out.len(), 1);
    assert!(out[0].0.flags.contains(TcpFlags::FIN));
    assert_eq!(out[0].0.seq_number, lseq(1));
    conn.handle_timeout(conn.poll_timeout().unwrap());
    let out = output(&mut conn, ms(1100));
    assert_eq!(out.len(), 1);
    assert!(out[0].0.flags.contains(TcpFlags::FIN));
    assert_eq!(out[0].0.seq_number, lseq(1));
}

#[test]
fn passive_close_goes_through_close_wait_and_last_ack() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    input(
        &mut conn,
        ms(200),
        &TcpRepr {
            flags: TcpFlags::FIN,
            ..seg(1, Some(1))
        },
        b"end",
    );
    assert_eq!(conn.state(), State::CloseWait);
    expect_ack(&mut conn, ms(200), 5);
    assert_eq!(conn_events(&mut conn), vec![TcpEvent::PeerClosed]);
    assert_eq!(conn.recv_available(), 3);
    // The application may still send in CLOSE-WAIT.
    assert_eq!(conn.send(b"reply"), 5);
    conn.close();
    assert_eq!(conn.state(), State::LastAck);
    let out = output(&mut conn, ms(210));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].1, b"reply");
    assert!(out[0].0.flags.contains(TcpFlags::FIN));
    input(&mut conn, ms(300), &seg(5, Some(local_fin(5) + 1)), &[]);
    assert_eq!(conn.state(), State::Closed);
    assert_eq!(conn_events(&mut conn), vec![TcpEvent::Closed]);
}

#[test]
fn simultaneous_close_goes_through_closing() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    conn.close();
    output(&mut conn, ms(100));
    // The peer's FIN crosses ours: it does not acknowledge our FIN.
    input(
        &mut conn,
        ms(150),
        &TcpRepr {
            flags: TcpFlags::FIN,
            ..seg(1, Some(1))
        },
        &[],
    );
    assert_eq!(conn.state(), State::Closing);
    expect_ack(&mut conn, ms(150), 2);
    input(&mut conn, ms(200), &seg(2, Some(2)), &[]);
    assert_eq!(conn.state(), State::TimeWait);
}

#[test]
fn fin_and_ack_of_our_fin_in_one_segment() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    conn.close();
    output(&mut conn, ms(100));
    input(
        &mut conn,
        ms(150),
        &TcpRepr {
            flags: TcpFlags::FIN,
            ..seg(1, Some(2))
        },
        &[],
    );
    assert_eq!(conn.state(), State::TimeWait);
}

#[test]
fn out_of_order_fin_waits_for_the_data_before_it() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    input(
        &mut conn,
        ms(200),
        &TcpRepr {
            flags: TcpFlags::FIN,
            ..seg(4, Some(1))
        },
        b"def",
    );
    assert_eq!(conn.state(), State::Established);
    expect_ack(&mut conn, ms(200), 1);
    input(&mut conn, ms(210), &seg(1, Some(1)), b"abc");
    assert_eq!(conn.state(), State::CloseWait);
    expect_ack(&mut conn, ms(210), 8);
    let mut buf = [0u8; 10];
    let n = conn.recv(&mut buf);
    assert_eq!(&buf[..n], b"abcdef");
}

#[test]
fn rst_in_window_resets_only_on_an_exact_match() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    // RFC 5961 §3.2: in the window but not RCV.NXT: a challenge ACK.
    input(
        &mut conn,
        ms(200),
        &TcpRepr {
            flags: TcpFlags::RST,
            ..seg(500, None)
        },
        &[],
    );
    assert_eq!(conn.state(), State::Established);
    expect_ack(&mut conn, ms(200), 1);
    // Outside the window: dropped silently.
    input(
        &mut conn,
        ms(200),
        &TcpRepr {
            flags: TcpFlags::RST,
            ..seg(1 << 20, None)
        },
        &[],
    );
    expect_nothing(&mut conn, ms(200));
    // Exactly RCV.NXT: reset.
    input(
        &mut conn,
        ms(200),
        &TcpRepr {
            flags: TcpFlags::RST,
            ..seg(1, None)
        },
        &[],
    );
    assert_eq!(conn.state(), State::Closed);
    assert_eq!(conn_events(&mut conn), vec![TcpEvent::Reset]);
    assert_eq!(conn.poll_timeout(), None);
}

#[test]
fn abort_sends_rst() {
    let mut conn = established(cfg(TcpVariant::NewReno));
    conn.send(b"abc");
    output(&mut conn, ms(100));
    conn.abort();
    assert_eq!(conn.state(), State::Closed);
    let out = output(&mut conn, ms(100));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].0.flags, TcpFlags::RST);
    assert_eq!(out[0].0.seq_number, lseq(4));
    assert_eq!(conn_events(&mut conn), vec![TcpEvent::Closed]);
    expect_nothing(&mut conn, ms(100));
}

#[test]
fn listener_close_and_repeated_close_are_harmless() {
    let mut conn = TcpConnection::new_listener(cfg(TcpVariant::Reno), local(), LOCAL_ISS);
    conn.close();
    assert_eq!(conn.state(), State::Closed);
    conn.close();
    conn.abort();
    assert_eq!(conn_events(&mut conn), vec![TcpEvent::Closed]);
    let mut est = established(cfg(TcpVariant::Reno));
    est.close();
    est.close();
    assert_eq!(est.state(), State::FinWait1);
    assert_eq!(output(&mut est, ms(100)).len(), 1);
}
