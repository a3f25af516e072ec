//! Data transfer: RFC 9260 §6.1 (rules A–D, Max.Burst), §6.5 (streams), §6.6 (ordered and
//! unordered), §6.9 (fragmentation), §6.10 (bundling), §6.2 (receive window, no user data).

use super::*;
use crate::transport::sctp::{MessageId, SendError};
use sctpsim_wire::sctp::ErrorCause;

#[test]
fn a_message_becomes_one_data_chunk() {
    let mut h = established();
    let id =
        h.a.send(h.now, b"hello".to_vec(), 3, false, None, 42)
            .unwrap();
    assert_eq!(id, MessageId(0));
    recv!(h, [ChunkRepr::Data(d)] => {
        assert_eq!(d.tsn, h.ltsn(0));
        assert_eq!((d.stream_id, d.ssn, d.ppid), (3, Ssn(0), 42));
        assert!(d.beginning && d.ending && !d.unordered);
        assert_eq!(d.user_data, b"hello");
    });
    // The T3-rtx timer runs with RTO.Initial.
    assert_eq!(h.a.poll_timeout(), Some(ms(1000)));
}

#[test]
fn small_messages_are_bundled() {
    let mut h = established();
    for i in 0..5u8 {
        h.a.send(h.now, vec![i; 100], 0, false, None, 0).unwrap();
    }
    h.a.send(h.now, vec![9; 100], 1, true, None, 0).unwrap();
    let t = h.next().unwrap();
    let d = data_chunks(&t.packet.chunks);
    assert_eq!(d.len(), 6);
    let ssns: Vec<u16> = d.iter().map(|c| c.ssn.0).collect();
    // Round-robin over streams 0 and 1; the unordered message takes no SSN.
    assert_eq!(ssns, vec![0, 0, 1, 2, 3, 4]);
    assert!(d[1].unordered && d[1].stream_id == 1);
    let tsns: Vec<Tsn> = d.iter().map(|c| c.tsn).collect();
    assert_eq!(tsns, (0..6).map(|k| h.ltsn(k)).collect::<Vec<_>>());
    recv!(h, nothing);
}

#[test]
fn large_messages_are_fragmented_to_the_pmtu() {
    let mut h = established();
    h.send_msg(4000);
    let all = h.all();
    let chunks: Vec<ChunkRepr> = all.iter().flat_map(|t| t.packet.chunks.clone()).collect();
    let d = data_chunks(&chunks);
    // 1500 - 20 - 12 - 16 = 1452 bytes per fragment.
    assert_eq!(
        d.iter().map(|c| c.user_data.len()).collect::<Vec<_>>(),
        vec![1452, 1452, 1096]
    );
    assert!(d[0].beginning && !d[0].ending);
    assert!(!d[1].beginning && !d[1].ending);
    assert!(!d[2].beginning && d[2].ending);
    assert!(d.iter().all(|c| c.ssn == Ssn(0)));
    for t in &all {
        assert!(t.ip_len() <= usize::from(MTU));
    }
}

#[test]
fn ordered_delivery_per_stream_and_unordered_at_once() {
    let mut h = established();
    send!(h, [rdata(1, 0, 1, b"s0-1")]);
    assert_eq!(h.a.readable(), 0);
    send!(h, [rfrag(2, 1, 0, true, true, true, b"u")]);
    assert_eq!(h.a.recv().unwrap().data, b"u");
    send!(h, [rdata(3, 2, 0, b"s2-0")]);
    assert_eq!(h.a.recv().unwrap().data, b"s2-0");
    send!(h, [rdata(0, 0, 0, b"s0-0")]);
    assert_eq!(h.a.recv().unwrap().data, b"s0-0");
    let m = h.a.recv().unwrap();
    assert_eq!(
        (m.stream, m.ssn, m.ppid, m.data.as_slice()),
        (0, Ssn(1), 99, &b"s0-1"[..])
    );
    assert!(h.take_events().contains(&SctpEvent::Readable));
}

#[test]
fn fragments_are_reassembled_in_any_order() {
    let mut h = established();
    send!(h, [rfrag(2, 0, 0, false, true, false, b"c")]);
    send!(h, [rfrag(0, 0, 0, true, false, false, b"a")]);
    assert!(h.a.recv().is_none());
    send!(h, [rfrag(1, 0, 0, false, false, false, b"b")]);
    assert_eq!(h.a.recv().unwrap().data, b"abc");
}

#[test]
fn the_peer_window_limits_new_data_and_allows_a_zero_window_probe() {
    let mut h = established();
    // The peer advertises 1000 bytes.
    send!(h, [h.sack(0, &[], 1000)]);
    for _ in 0..3 {
        h.send_msg(400);
    }
    let t = h.next().unwrap();
    assert_eq!(data_chunks(&t.packet.chunks).len(), 2);
    recv!(h, nothing);
    // Window closed: nothing more until a SACK opens it.
    send!(h, [h.sack(2, &[], 0)]);
    // Nothing outstanding: one chunk may probe the zero window.
    let t = h.next().unwrap();
    assert_eq!(data_chunks(&t.packet.chunks).len(), 1);
    recv!(h, nothing);
    send!(h, [h.sack(3, &[], 5000)]);
    assert_eq!(h.a.status().peer_rwnd, 5000);
}

#[test]
fn invalid_stream_is_reported_and_acknowledged() {
    let mut h = established();
    send!(h, [rdata(0, 500, 0, b"x")]);
    let t = h.next().unwrap();
    let has_error = t.packet.chunks.iter().any(|c| {
        matches!(c, ChunkRepr::Error { causes } if causes == &vec![ErrorCause::InvalidStreamIdentifier { stream_id: 500 }])
    });
    let all: Vec<ChunkRepr> = std::iter::once(t)
        .chain(h.all())
        .flat_map(|t| t.packet.chunks)
        .collect();
    assert!(has_error || all.iter().any(|c| matches!(c, ChunkRepr::Error { .. })));
    h.wait(SimDuration::from_millis(200));
    let sacks: Vec<ChunkRepr> = all
        .into_iter()
        .chain(h.all().into_iter().flat_map(|t| t.packet.chunks))
        .collect();
    assert!(sacks
        .iter()
        .any(|c| matches!(c, ChunkRepr::Sack(s) if s.cum_tsn_ack == REMOTE_TSN)));
    assert_eq!(h.a.readable(), 0);
}

#[test]
fn data_without_user_data_aborts() {
    let mut h = established();
    send!(h, [rdata(0, 0, 0, b"")]);
    recv!(h, [ChunkRepr::Abort { t_bit: false, causes }] => {
        assert_eq!(causes, &vec![ErrorCause::NoUserData { tsn: REMOTE_TSN }]);
    });
    assert_eq!(h.a.state(), State::Closed);
}

#[test]
fn send_errors() {
    let mut h = established();
    assert_eq!(
        h.a.send(h.now, vec![], 0, false, None, 0),
        Err(SendError::Empty)
    );
    assert_eq!(
        h.a.send(h.now, vec![1], 10, false, None, 0),
        Err(SendError::InvalidStream { stream: 10 })
    );
    let mut c = cfg();
    c.fragmentation = false;
    let mut h2 = established_with(c, &[L1], &[R1]);
    assert_eq!(
        h2.a.send(h2.now, vec![1; 2000], 0, false, None, 0),
        Err(SendError::TooLarge)
    );
    h.a.abort(h.now, b"");
    assert_eq!(
        h.a.send(h.now, vec![1], 0, false, None, 0),
        Err(SendError::Closed)
    );
}

#[test]
fn receive_buffer_full_drops_new_data_with_an_immediate_sack() {
    let mut c = cfg();
    c.recv_buffer = 3000;
    let mut h = established_with(c, &[L1], &[R1]);
    send!(h, [rdata(0, 0, 0, &[1; 1400]), rdata(1, 0, 1, &[2; 1400])]);
    h.all();
    // The application does not read: the next chunk beyond the window is dropped.
    send!(h, [rdata(2, 0, 2, &[3; 1400])]);
    recv!(h, [ChunkRepr::Sack(s)] => {
        assert_eq!(s.cum_tsn_ack, REMOTE_TSN + 1);
        assert_eq!(s.a_rwnd, 200);
    });
    assert_eq!(h.a.stats().data_chunks_dropped_rwnd, 1);
    // Reading reopens the window; a window update SACK goes out.
    h.a.recv();
    h.a.recv();
    recv!(h, [ChunkRepr::Sack(s)] => { assert_eq!(s.a_rwnd, 3000); });
}

#[test]
fn max_burst_limits_packets_per_transmission_opportunity() {
    let mut c = cfg();
    c.initial_cwnd_bytes = Some(100_000);
    let mut h = established_with(c, &[L1], &[R1]);
    for _ in 0..20 {
        h.send_msg(1452);
    }
    // Max.Burst = 4 packets of new data at once, though cwnd would allow 20.
    assert_eq!(h.all().len(), 4);
    // The next SACK is a new opportunity.
    send!(h, [h.sack(1, &[], 65_536)]);
    let n = h
        .all()
        .iter()
        .filter(|t| !data_chunks(&t.packet.chunks).is_empty())
        .count();
    assert_eq!(n, 4);
    assert_eq!(h.a.status().paths[0].cwnd, 100_000, "cwnd itself unchanged");
}
