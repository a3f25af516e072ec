//! The early retransmit options (`SctpConfig::early_retransmit`) on the small-window case of
//! Ye, Saadawi & Lee (2003) §5 with the `rfc2960` profile (fast retransmit on the fourth miss
//! indication): four full chunks outstanding, one packet each, the first lost, the other three
//! each answered by a SACK with a growing Gap Ack Block, rwnd 4·MTU.

use super::*;
use crate::transport::sctp::EarlyRetransmit;

const CHUNK: usize = 1452;
/// The peer's receive buffer: 4·MTU.
const RWND: u32 = 4 * 1500;

/// rfc2960 without heartbeats, `n` full chunks in flight and cwnd exactly their size (so that
/// a queued message waits), Max.Burst off.
fn small_window(er: EarlyRetransmit, n: usize) -> Harness {
    let c = SctpConfig {
        heartbeats: false,
        early_retransmit: er,
        initial_cwnd_bytes: Some((n * CHUNK) as u32),
        max_burst: 0,
        ..SctpConfig::rfc2960()
    };
    let mut h = established_with(c, &[L1], &[R1]);
    for _ in 0..n {
        h.send_msg(CHUNK);
    }
    let per_packet: Vec<usize> = h
        .all()
        .iter()
        .map(|t| data_chunks(&t.packet.chunks).len())
        .collect();
    assert_eq!(per_packet, vec![1; n]);
    h
}

/// The peer's SACK after chunks 1..=k arrived (chunk 0 lost): a_rwnd is the buffer less
/// what it holds.
fn gap_sack(h: &Harness, k: u16) -> ChunkRepr {
    h.sack(0, &[(2, k + 1)], RWND - u32::from(k) * CHUNK as u32)
}

#[test]
fn off_waits_for_t3() {
    let mut h = small_window(EarlyRetransmit::Off, 4);
    let rto = h.a.status().paths[0].rto;
    for k in 1..=3 {
        send!(h, at ms(100 * u64::from(k)), [gap_sack(&h, k)]);
    }
    assert!(h.all_data_tsns().is_empty());
    // T3 was started at time 0 and never restarted (no SACK acknowledged the lowest TSN).
    assert_eq!(h.a.poll_timeout(), Some(ms(0) + rto));
    h.at(ms(0) + rto);
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(0)]);
    let s = h.a.stats();
    assert_eq!((s.t3_retransmissions, s.early_retransmissions), (1, 0));
}

#[test]
fn ye2003_retransmits_the_lowest_tsn_once_when_the_highest_is_gap_acked() {
    let mut h = small_window(EarlyRetransmit::Ye2003, 4);
    let (cwnd, ssthresh) = {
        let p = &h.a.status().paths[0];
        (p.cwnd, p.ssthresh)
    };
    let rto = h.a.status().paths[0].rto;
    send!(h, at ms(100), [gap_sack(&h, 1)]);
    send!(h, at ms(200), [gap_sack(&h, 2)]);
    assert!(h.all_data_tsns().is_empty(), "highest TSN not yet acked");
    // The third SACK's Gap Ack Block covers the highest outstanding TSN: TSN 0 goes out at
    // once, although the peer's rwnd (1644 − 1452 outstanding) cannot take a full chunk.
    send!(h, at ms(300), [gap_sack(&h, 3)]);
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(0)]);
    let p = &h.a.status().paths[0];
    assert_eq!(
        (p.cwnd, p.ssthresh),
        (cwnd, ssthresh),
        "no window reduction"
    );
    // T3-rtx restarted by the retransmission of the first outstanding chunk.
    assert_eq!(h.a.poll_timeout(), Some(ms(300) + rto));
    // A further SACK with the same blocks does not resend it.
    send!(h, at ms(400), [gap_sack(&h, 3)]);
    assert!(h.all_data_tsns().is_empty());
    let s = h.a.stats();
    assert_eq!((s.early_retransmissions, s.early_retransmit_events), (1, 1));
    assert_eq!((s.fast_retransmissions, s.fast_retransmit_events), (0, 0));
    // If the retransmission is lost too, T3 repairs it as before.
    h.at(ms(300) + rto);
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(0)]);
    assert_eq!(h.a.stats().t3_retransmissions, 1);
}

/// The rule acts only in the paper's "idle period" (§5, Fig. 5): a SACK whose Gap Ack Block
/// covers the highest TSN while the peer's window still admits new data sends the new data,
/// not a retransmission; once the window closes again, the next such SACK retransmits.
#[test]
fn ye2003_waits_for_the_idle_period() {
    let mut h = small_window(EarlyRetransmit::Ye2003, 4);
    h.send_msg(CHUNK);
    assert!(
        h.all_data_tsns().is_empty(),
        "the fifth message waits for the window"
    );
    // Chunks 1..=3 gap-acked with a wide-open a_rwnd: not idle, the fifth chunk (TSN 4) goes.
    send!(h, at ms(100), [h.sack(0, &[(2, 4)], 64_000)]);
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(4)]);
    assert_eq!(h.a.stats().early_retransmissions, 0);
    // TSN 4 arrives too, and the window is now shut (a_rwnd below a chunk): idle, so the lowest
    // outstanding TSN is retransmitted.
    send!(h, at ms(200), [h.sack(0, &[(2, 5)], 1000)]);
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(0)]);
    assert_eq!(h.a.stats().early_retransmissions, 1);
}

#[test]
fn rfc5827_lowers_the_threshold_to_oseg_minus_one_and_reduces_cwnd() {
    let mut h = small_window(EarlyRetransmit::Rfc5827, 4);
    // A fifth message waits: the peer's window (a_rwnd less outstanding: 192 bytes) keeps it
    // back, so (3.b) holds.
    h.send_msg(CHUNK);
    assert!(h.all_data_tsns().is_empty());
    send!(h, at ms(100), [gap_sack(&h, 1)]);
    send!(h, at ms(200), [gap_sack(&h, 2)]);
    assert!(h.all_data_tsns().is_empty(), "two misses < ER_thresh 3");
    send!(h, at ms(300), [gap_sack(&h, 3)]);
    // oseg = 4 < 4 + 1: ER_thresh = 3 misses, reached with 3 packets SACKed.
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(0)]);
    let p = &h.a.status().paths[0];
    // RFC 2960 §7.2.3: ssthresh = max(cwnd/2, 2·MTU) = max(2904, 3000); cwnd = ssthresh.
    assert_eq!((p.ssthresh, p.cwnd), (3000, 3000));
    let s = h.a.stats();
    assert_eq!((s.early_retransmissions, s.early_retransmit_events), (1, 1));
    assert_eq!((s.fast_retransmissions, s.fast_retransmit_events), (0, 0));
    // Once per TSN, as any fast retransmission (§7.2.4 5).
    send!(h, at ms(400), [gap_sack(&h, 3)]);
    assert!(h.all_data_tsns().is_empty());
}

#[test]
fn rfc5827_does_not_apply_with_too_much_outstanding() {
    // Five packets outstanding: 5 is not below threshold + 1, the fourth miss is needed.
    let mut h = small_window(EarlyRetransmit::Rfc5827, 5);
    for k in 1..=3 {
        send!(h, at ms(100 * u64::from(k)), [h.sack(0, &[(2, k + 1)], 65_536)]);
    }
    assert!(h.all_data_tsns().is_empty());
    send!(h, at ms(400), [h.sack(0, &[(2, 5)], 65_536)]);
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(0)]);
    let s = h.a.stats();
    assert_eq!((s.fast_retransmissions, s.early_retransmissions), (1, 0));
}

#[test]
fn rfc5827_does_not_apply_when_new_data_can_be_sent() {
    let mut h = small_window(EarlyRetransmit::Rfc5827, 4);
    h.send_msg(CHUNK);
    send!(h, at ms(100), [gap_sack(&h, 1)]);
    send!(h, at ms(200), [gap_sack(&h, 2)]);
    assert!(h.all_data_tsns().is_empty());
    // The peer's window opens with the third SACK: new data can go out, (3.b) fails, and the
    // new chunk is sent instead of an early retransmission.
    send!(h, at ms(300), [h.sack(0, &[(2, 4)], 65_536)]);
    assert_eq!(h.all_data_tsns(), vec![h.ltsn(4)]);
    assert_eq!(h.a.stats().early_retransmissions, 0);
}
