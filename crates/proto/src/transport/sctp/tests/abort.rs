//! ABORT and ERROR: RFC 9260 §9.1, §3.3.7, §3.3.10 (causes), §8.5.1 B (tags checked in
//! `vtag.rs`).

use super::*;
use crate::transport::sctp::LossReason;
use sctpsim_wire::sctp::ErrorCause;

#[test]
fn peer_abort_closes_with_its_causes() {
    let mut h = established();
    h.send_msg(100);
    h.all();
    let causes = vec![ErrorCause::UserInitiatedAbort {
        reason: b"bye".to_vec(),
    }];
    send!(
        h,
        [ChunkRepr::Abort {
            t_bit: false,
            causes: causes.clone()
        }]
    );
    assert_eq!(h.a.state(), State::Closed);
    assert!(h.take_events().contains(&SctpEvent::CommLost {
        reason: LossReason::PeerAbort { causes },
        undelivered_messages: 1,
    }));
    assert!(h.a.poll_timeout().is_none());
    recv!(h, nothing);
}

#[test]
fn user_abort_sends_a_user_initiated_abort() {
    let mut h = established();
    h.a.abort(h.now, b"enough");
    let t = h.next().unwrap();
    assert_eq!(t.packet.verification_tag, REMOTE_TAG);
    assert_eq!(
        t.packet.chunks,
        vec![ChunkRepr::Abort {
            t_bit: false,
            causes: vec![ErrorCause::UserInitiatedAbort {
                reason: b"enough".to_vec()
            }]
        }]
    );
    assert_eq!(h.a.state(), State::Closed);
    assert!(h.take_events().iter().any(|e| matches!(
        e,
        SctpEvent::CommLost {
            reason: LossReason::LocalAbort,
            ..
        }
    )));
    // Further input is ignored.
    send!(h, [rdata(0, 0, 0, b"x")]);
    recv!(h, nothing);
}

#[test]
fn abort_in_cookie_wait_from_a_refusing_peer() {
    let (mut h, init) = cookie_wait(cfg(), &[L1], &[R1]);
    // §8.4 rule 3: the refusing peer uses our Initiate Tag, T bit clear.
    h.inject_raw(
        R1,
        init.initiate_tag,
        vec![ChunkRepr::Abort {
            t_bit: false,
            causes: vec![],
        }],
    );
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn error_chunks_are_reported() {
    let mut h = established();
    let causes = vec![
        ErrorCause::InvalidStreamIdentifier { stream_id: 3 },
        ErrorCause::Unknown {
            code: 0x7777,
            info: vec![1],
        },
    ];
    send!(
        h,
        [ChunkRepr::Error {
            causes: causes.clone()
        }]
    );
    assert_eq!(h.take_events(), vec![SctpEvent::RemoteError { causes }]);
    assert_eq!(h.a.state(), State::Established);
    assert_eq!(h.a.stats().errors_received, 1);
}

#[test]
fn chunks_after_an_abort_are_not_processed() {
    let mut h = established();
    send!(
        h,
        [
            ChunkRepr::Abort {
                t_bit: false,
                causes: vec![]
            },
            rdata(0, 0, 0, b"x")
        ]
    );
    assert_eq!(h.a.readable(), 0);
    assert_eq!(h.a.state(), State::Closed);
}
