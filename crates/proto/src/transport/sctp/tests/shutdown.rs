//! Graceful shutdown: RFC 9260 §9.2 (SHUTDOWN-PENDING, SHUTDOWN-SENT, SHUTDOWN-RECEIVED,
//! SHUTDOWN-ACK-SENT, T2-shutdown, T5-shutdown-guard, the simultaneous cases).

use super::*;
use crate::transport::sctp::{LossReason, SendError};

#[test]
fn graceful_shutdown_initiated_locally() {
    let mut h = established();
    // The association's first DATA is acknowledged at once; the second one's acknowledgement
    // is still owed when the application shuts down.
    send!(h, [rdata(0, 0, 0, b"x")]);
    recv!(h, [ChunkRepr::Sack(_)]);
    send!(h, [rdata(1, 0, 1, b"y")]);
    h.a.shutdown(h.now);
    assert_eq!(h.a.state(), State::ShutdownSent);
    assert_eq!(
        h.a.send(h.now, vec![1], 0, false, None, 0),
        Err(SendError::ShuttingDown)
    );
    recv!(h, [ChunkRepr::Shutdown { cum_tsn_ack }, ..] => { assert_eq!(*cum_tsn_ack, REMOTE_TSN + 1); });
    send!(h, [ChunkRepr::ShutdownAck]);
    recv!(h, [ChunkRepr::ShutdownComplete { t_bit: false }]);
    assert_eq!(h.a.state(), State::Closed);
    assert!(h.take_events().contains(&SctpEvent::ShutdownComplete));
    assert!(h.a.poll_timeout().is_none());
}

#[test]
fn shutdown_pending_waits_for_outstanding_data() {
    let mut h = established();
    h.send_msg(100);
    h.send_msg(100);
    h.a.shutdown(h.now);
    assert_eq!(h.a.state(), State::ShutdownPending);
    recv!(h, [ChunkRepr::Data(_), ChunkRepr::Data(_)]);
    send!(h, [h.sack(1, &[], 65_536)]);
    assert_eq!(h.a.state(), State::ShutdownPending);
    recv!(h, nothing);
    send!(h, [h.sack(2, &[], 65_536)]);
    assert_eq!(h.a.state(), State::ShutdownSent);
    recv!(h, [ChunkRepr::Shutdown { .. }]);
}

#[test]
fn peer_initiated_shutdown_sends_remaining_data_first() {
    let mut h = established();
    h.send_msg(100);
    h.all();
    h.send_msg(100);
    // The peer's SHUTDOWN acknowledges our first chunk.
    send!(
        h,
        [ChunkRepr::Shutdown {
            cum_tsn_ack: h.ltsn(0)
        }]
    );
    assert_eq!(h.a.state(), State::ShutdownReceived);
    assert!(h.take_events().contains(&SctpEvent::PeerShutdown));
    assert_eq!(
        h.a.send(h.now, vec![1], 0, false, None, 0),
        Err(SendError::ShuttingDown)
    );
    // Data queued before the SHUTDOWN still goes out.
    recv!(h, [ChunkRepr::Data(d)] => { assert_eq!(d.tsn, h.ltsn(1)); });
    send!(h, [h.sack(2, &[], 65_536)]);
    assert_eq!(h.a.state(), State::ShutdownAckSent);
    recv!(h, [ChunkRepr::ShutdownAck]);
    send!(h, [ChunkRepr::ShutdownComplete { t_bit: false }]);
    assert_eq!(h.a.state(), State::Closed);
    assert!(h.take_events().contains(&SctpEvent::ShutdownComplete));
}

#[test]
fn data_after_the_peers_shutdown_is_discarded() {
    // ETSI TS 102 369 AT/I/2/9: the peer sent SHUTDOWN (so all its data was acknowledged);
    // a DATA chunk arriving afterwards is neither acknowledged nor delivered.
    let mut h = established();
    h.send_msg(100);
    h.all();
    send!(
        h,
        [ChunkRepr::Shutdown {
            cum_tsn_ack: h.ltsn(0) - 1
        }]
    );
    assert_eq!(h.a.state(), State::ShutdownReceived);
    send!(h, at ms(100), [rdata(0, 0, 0, b"late")]);
    recv!(h, nothing);
    assert!(h.a.recv().is_none());
    send!(h, at ms(200), [h.sack(1, &[], 65_536)]);
    recv!(h, [ChunkRepr::ShutdownAck]);
    assert!(h.a.recv().is_none());
}

#[test]
fn t2_retransmits_shutdown_with_the_current_cumulative_tsn() {
    let mut h = established();
    h.a.shutdown(h.now);
    recv!(h, [ChunkRepr::Shutdown { cum_tsn_ack }] => { assert_eq!(*cum_tsn_ack, REMOTE_TSN - 1); });
    // The peer still delivers data: answered with SHUTDOWN at once (§9.2), T2 restarted.
    send!(h, at ms(100), [rdata(0, 0, 0, b"late")]);
    recv!(h, [ChunkRepr::Shutdown { cum_tsn_ack }] => { assert_eq!(*cum_tsn_ack, REMOTE_TSN); });
    // Out of order: SHUTDOWN plus a SACK with the gap.
    send!(h, [rdata(2, 0, 2, b"gap")]);
    recv!(h, [ChunkRepr::Shutdown { .. }, ChunkRepr::Sack(s)] => { assert_eq!(s.gap_blocks.len(), 1); });
    recv!(h, at ms(1099), nothing);
    recv!(h, at ms(1100), [ChunkRepr::Shutdown { .. }, ..]);
    recv!(h, at ms(3100), [ChunkRepr::Shutdown { .. }, ..]);
}

#[test]
fn t5_shutdown_guard_aborts() {
    let mut h = established();
    h.a.set_association_max_retrans(100);
    h.a.shutdown(h.now);
    h.all();
    // T5 = 5 · RTO.Max = 300 s.
    h.at(ms(300_000));
    assert_eq!(h.a.state(), State::Closed);
    assert!(h.take_events().iter().any(|e| matches!(
        e,
        SctpEvent::CommLost {
            reason: LossReason::ShutdownGuardExpired,
            ..
        }
    )));
    assert!(matches!(
        h.all().last().unwrap().packet.chunks[0],
        ChunkRepr::Abort { .. }
    ));
}

#[test]
fn shutdown_retransmissions_are_bounded_by_association_max_retrans() {
    let mut h = established();
    h.a.set_association_max_retrans(2);
    h.a.shutdown(h.now);
    h.all();
    // T2 expires at 1 s, 3 s and 7 s; the third failure exceeds the limit of 2.
    h.at(ms(6999));
    assert_eq!(h.a.state(), State::ShutdownSent);
    h.at(ms(7000));
    assert_eq!(h.a.state(), State::Closed);
    assert!(h.take_events().iter().any(|e| matches!(
        e,
        SctpEvent::CommLost {
            reason: LossReason::MaxRetransmissions,
            ..
        }
    )));
}

#[test]
fn simultaneous_shutdown() {
    let mut h = established();
    h.a.shutdown(h.now);
    recv!(h, [ChunkRepr::Shutdown { .. }]);
    send!(
        h,
        [ChunkRepr::Shutdown {
            cum_tsn_ack: h.ltsn(0).prev()
        }]
    );
    assert_eq!(h.a.state(), State::ShutdownAckSent);
    recv!(h, [ChunkRepr::ShutdownAck]);
    // Both sent SHUTDOWN ACK: each answers the other's with SHUTDOWN COMPLETE.
    send!(h, [ChunkRepr::ShutdownAck]);
    recv!(h, [ChunkRepr::ShutdownComplete { t_bit: false }]);
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn shutdown_ack_is_retransmitted_by_t2() {
    let mut h = established();
    send!(
        h,
        [ChunkRepr::Shutdown {
            cum_tsn_ack: h.ltsn(0).prev()
        }]
    );
    recv!(h, [ChunkRepr::ShutdownAck]);
    recv!(h, at ms(1000), [ChunkRepr::ShutdownAck]);
    // A retransmitted SHUTDOWN is answered again.
    send!(
        h,
        [ChunkRepr::Shutdown {
            cum_tsn_ack: h.ltsn(0).prev()
        }]
    );
    recv!(h, [ChunkRepr::ShutdownAck]);
}

#[test]
fn shutdown_ack_outside_the_shutdown_states_is_ignored() {
    let mut h = established();
    send!(h, [ChunkRepr::ShutdownAck]);
    recv!(h, nothing);
    assert_eq!(h.a.state(), State::Established);
}
