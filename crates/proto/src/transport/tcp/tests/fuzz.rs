//! Property "fuzz" tests: random and corrupted segments, timer wake-ups and application
//! calls fed into connections in every state. Nothing may panic, `poll_transmit` must
//! terminate, and the sequence variables stay ordered. The long-running counterpart is the
//! `sctpsim-fuzz` binary (`cargo run --release -p sctpsim-fuzz -- tcp --minutes 10`).

use proptest::prelude::*;

use super::*;
use crate::transport::tcp::connection::fuzz_check_invariants;

/// A connection in one of the states reachable from the helpers.
fn in_state(which: u8, variant: TcpVariant, timestamps: bool) -> TcpConnection {
    let config = TcpConfig {
        timestamps,
        delayed_ack: which.is_multiple_of(2),
        max_retransmissions: Some(4),
        ..cfg(variant)
    };
    match which % 10 {
        0 => TcpConnection::new_listener(config, local(), LOCAL_ISS),
        1 => {
            let mut c = TcpConnection::new_client(config, local(), remote(), LOCAL_ISS);
            output(&mut c, ms(0));
            c
        }
        2 => syn_received(config, remote_syn()),
        3 => established(config),
        4 | 5 => established_with_flight(config, 8),
        6 => {
            let mut c = established_with_flight(config, 4);
            c.close();
            output(&mut c, ms(100));
            c
        }
        7 => {
            let mut c = established(config);
            input(
                &mut c,
                ms(100),
                &TcpRepr {
                    flags: TcpFlags::FIN,
                    ..seg(1, Some(1))
                },
                &[],
            );
            c
        }
        8 => {
            let mut c = established(config);
            c.close();
            output(&mut c, ms(100));
            input(&mut c, ms(100), &seg(1, Some(2)), &[]);
            c
        }
        _ => {
            let mut c = TcpConnection::new_client(config, local(), remote(), LOCAL_ISS);
            c.abort();
            c
        }
    }
}

/// Options of a forged segment: MSS, window scale, SACK-permitted, timestamps.
type Options = (Option<u16>, Option<u8>, bool, Option<(u32, u32)>);

/// One step of a random run.
#[derive(Debug, Clone)]
enum Op {
    /// A segment: flags byte, sequence offset delta from RCV.NXT (or a raw number), ACK delta
    /// from SND.UNA (or raw), window, options, payload length.
    Segment {
        flags: u8,
        seq: Result<i32, u32>,
        ack: Option<Result<i32, u32>>,
        window: u16,
        options: Options,
        sack: Vec<(i32, i32)>,
        len: usize,
    },
    /// Time passes (ms) and timers run.
    Wait(u16),
    /// Application calls.
    Send(u16),
    Backlog,
    Close,
    Abort,
    Read,
}

fn op() -> impl Strategy<Value = Op> {
    let segment = (
        any::<u8>(),
        prop_oneof![4 => (-3000i32..70_000).prop_map(Ok), 1 => any::<u32>().prop_map(Err)],
        proptest::option::weighted(
            0.9,
            prop_oneof![4 => (-3000i32..12_000).prop_map(Ok), 1 => any::<u32>().prop_map(Err)],
        ),
        prop_oneof![any::<u16>(), Just(0u16), Just(65_535u16)],
        (
            any::<Option<u16>>(),
            any::<Option<u8>>(),
            any::<bool>(),
            any::<Option<(u32, u32)>>(),
        ),
        proptest::collection::vec((-2000i32..12_000, -2000i32..12_000), 0..4),
        prop_oneof![Just(0usize), 1usize..1500],
    )
        .prop_map(
            |(flags, seq, ack, window, options, sack, len)| Op::Segment {
                flags,
                seq,
                ack,
                window,
                options,
                sack,
                len,
            },
        );
    prop_oneof![
        8 => segment,
        3 => (0u16..3000).prop_map(Op::Wait),
        1 => (0u16..5000).prop_map(Op::Send),
        1 => Just(Op::Backlog),
        1 => Just(Op::Close),
        1 => Just(Op::Read),
        1 => Just(Op::Abort),
    ]
}

/// Builds the segment of `Op::Segment` relative to the connection's current variables.
fn build(conn: &TcpConnection, op: &Op) -> Option<(TcpRepr, Vec<u8>)> {
    let Op::Segment {
        flags,
        seq,
        ack,
        window,
        options,
        sack,
        len,
    } = op
    else {
        return None;
    };
    let rcv_nxt = conn.rcv_nxt_off() as i64;
    let seq_number = match seq {
        Ok(delta) => rseq((rcv_nxt + i64::from(*delta)).max(0) as u64),
        Err(raw) => TcpSeqNumber(*raw),
    };
    let una = conn.snd_una() as i64;
    let ack_number = ack.map(|a| match a {
        Ok(delta) => lseq((una + i64::from(delta)).max(0) as u64),
        Err(raw) => TcpSeqNumber(raw),
    });
    let mut repr = TcpRepr {
        src_port: REMOTE_PORT,
        dst_port: LOCAL_PORT,
        seq_number,
        ack_number,
        flags: TcpFlags::from_bits(*flags).without(TcpFlags::ACK),
        window_len: *window,
        max_seg_size: options.0,
        window_scale: options.1,
        sack_permitted: options.2,
        timestamp: options
            .3
            .map(|(tsval, tsecr)| TcpTimestamp { tsval, tsecr }),
        payload_len: *len,
        ..TcpRepr::default()
    };
    for (slot, (l, r)) in repr.sack_ranges.iter_mut().zip(sack) {
        *slot = Some((
            lseq((una + i64::from(*l)).max(0) as u64).0,
            lseq((una + i64::from(*r)).max(0) as u64).0,
        ));
    }
    Some((repr, vec![0x42; *len]))
}

fn run(which: u8, variant: TcpVariant, timestamps: bool, ops: &[Op]) {
    let mut conn = in_state(which, variant, timestamps);
    let mut now = ms(200);
    for op in ops {
        match op {
            Op::Segment { .. } => {
                if let Some((repr, payload)) = build(&conn, op) {
                    conn.handle_segment(now, &repr, &payload);
                }
            }
            Op::Wait(d) => {
                now += SimDuration::from_millis(u64::from(*d));
                conn.handle_timeout(now);
                // Timers run at their deadlines, as the engine would call them.
                while let Some(t) = conn.poll_timeout().filter(|t| *t <= now) {
                    conn.handle_timeout(t);
                }
            }
            Op::Send(n) => {
                conn.send(&vec![1u8; usize::from(*n)]);
            }
            Op::Backlog => conn.send_backlogged(Some(20_000)),
            Op::Close => conn.close(),
            Op::Abort => conn.abort(),
            Op::Read => {
                conn.discard_received();
            }
        }
        let out = output(&mut conn, now);
        for (repr, payload) in &out {
            assert!(payload.len() <= 65_535);
            assert!(repr.header_len() <= 60);
            assert_eq!(repr.src_port, LOCAL_PORT);
        }
        let _ = events(&mut conn);
        fuzz_check_invariants(&conn);
        if let Some(t) = conn.poll_timeout() {
            assert!(
                t > now || conn.state() == State::Closed || t == now,
                "deadline in the past"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn random_segments_in_every_state_never_panic(
        which in 0u8..20,
        variant in prop_oneof![Just(TcpVariant::Tahoe), Just(TcpVariant::Reno), Just(TcpVariant::NewReno), Just(TcpVariant::Sack), Just(TcpVariant::Sack1)],
        timestamps in any::<bool>(),
        ops in proptest::collection::vec(op(), 1..40),
    ) {
        run(which, variant, timestamps, &ops);
    }

    #[test]
    fn raw_bytes_through_handle_packet_never_panic(
        which in 0u8..20,
        data in proptest::collection::vec(any::<u8>(), 0..200),
        fix_checksum in any::<bool>(),
    ) {
        use sctpsim_wire::tcp::TcpPacket;
        use std::net::Ipv4Addr;
        let (a, b) = (Ipv4Addr::new(10, 0, 0, 1), Ipv4Addr::new(10, 0, 0, 2));
        let mut conn = in_state(which, TcpVariant::Sack, which % 3 == 0);
        let mut data = data;
        if fix_checksum && data.len() >= 20 {
            // Let random headers pass the checksum so the connection sees them.
            data[2..4].copy_from_slice(&LOCAL_PORT.to_be_bytes());
            data[0..2].copy_from_slice(&REMOTE_PORT.to_be_bytes());
            TcpPacket::new_unchecked(&mut data[..]).fill_checksum(a, b);
        }
        let _ = conn.handle_packet(ms(300), a, b, &data);
        let _ = output(&mut conn, ms(300));
        fuzz_check_invariants(&conn);
    }
}
