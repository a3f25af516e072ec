//! NR-SACK (Natarajan, Ekiz, Yilmaz, Amer, Iyengar & Stewart, ICNP 2008) in the association:
//! negotiation through Supported Extensions, the receiver's NR-SACK (every out-of-order TSN
//! non-renegable, the CMT DAC flag kept), the sender's renegable send-buffer accounting and its
//! release by NR gap blocks, and the paper's effect between two real CMT endpoints: with a
//! lossy path and a small send buffer, NR-SACK lets more data through.

use super::pair::{LinkCfg, Pair, C1, C2, S1, S2};
use super::*;
use crate::transport::sctp::{CmtConfig, Multipath};
use sctpsim_wire::sctp::NrSackChunk;

fn nr_cfg() -> SctpConfig {
    SctpConfig {
        nr_sack: true,
        ..cfg()
    }
}

/// Established as the initiator against a scripted remote whose INIT ACK lists NR-SACK or
/// not.
fn established_nr(cfg: SctpConfig, remote_nr: bool) -> Harness {
    let on = cfg.nr_sack;
    let remote: &[u8] = if remote_nr {
        &[chunk_type::NR_SACK]
    } else {
        &[]
    };
    established_ext(cfg, &[(chunk_type::NR_SACK, on)], remote)
}

fn nr_sack_chunk(cum: Tsn, gaps: &[(u16, u16)], nr: &[(u16, u16)]) -> ChunkRepr {
    let ChunkRepr::Sack(sack) = sack_chunk(cum, gaps, 65_536) else {
        unreachable!()
    };
    ChunkRepr::NrSack(NrSackChunk {
        sack,
        nr_gap_blocks: nr
            .iter()
            .map(|&(start, end)| GapAckBlock { start, end })
            .collect(),
    })
}

#[test]
fn negotiated_only_when_both_sides_list_it() {
    assert!(established_nr(nr_cfg(), true).a.nr_sack_negotiated());
    assert!(!established_nr(nr_cfg(), false).a.nr_sack_negotiated());
    assert!(!established_nr(cfg(), true).a.nr_sack_negotiated());
}

#[test]
fn receiver_reports_out_of_order_data_as_non_renegable() {
    let mut h = established_nr(nr_cfg(), true);
    send!(h, [rdata(0, 0, 0, b"a")]);
    recv!(h, [ChunkRepr::NrSack(n)] => {
        assert_eq!(n.sack.cum_tsn_ack, REMOTE_TSN);
        assert!(n.sack.gap_blocks.is_empty() && n.nr_gap_blocks.is_empty());
    });
    // A hole: TSN 1 missing, 2 and 3 arrive. Our receiver never reneges, so the blocks are all
    // NR Gap Ack Blocks (FreeBSD without draining) and the Gap Ack Blocks are empty.
    send!(h, [rdata(2, 0, 2, b"c")]);
    recv!(h, [ChunkRepr::NrSack(n)] => {
        assert_eq!(n.sack.cum_tsn_ack, REMOTE_TSN);
        assert!(n.sack.gap_blocks.is_empty());
        assert_eq!(n.nr_gap_blocks, vec![GapAckBlock { start: 2, end: 2 }]);
    });
    assert!(h.a.stats().nr_sacks_sent >= 2);
    // Without negotiation: plain SACKs.
    let mut h = established_nr(nr_cfg(), false);
    send!(h, [rdata(0, 0, 0, b"a")]);
    recv!(h, [ChunkRepr::Sack(_)]);
    assert_eq!(h.a.stats().nr_sacks_sent, 0);
}

#[test]
fn cmt_dac_flag_is_kept_in_nr_sacks() {
    let mut c = nr_cfg();
    c.multipath = Multipath::Cmt;
    c.cmt = CmtConfig::RECOMMENDED;
    assert!(c.cmt.dac);
    let mut h = established_nr(c, true);
    send!(h, [rdata(0, 0, 0, b"a")]);
    recv!(h, [ChunkRepr::NrSack(n)] => { assert!(!n.sack.dac_two_packets) });
    // Two packets, then the delayed SACK: it acknowledges two packets (CMT's DAC).
    send!(h, [rdata(1, 0, 1, b"b")]);
    send!(h, [rdata(2, 0, 2, b"c")]);
    recv!(h, [ChunkRepr::NrSack(n)] => {
        assert_eq!(n.sack.cum_tsn_ack, REMOTE_TSN + 2);
        assert!(n.sack.dac_two_packets);
    });
}

/// Sends three one-chunk messages of 100 bytes; returns the first TSN.
fn three_sent(h: &mut Harness) -> Tsn {
    for _ in 0..3 {
        let now = h.now;
        h.a.send(now, vec![1; 100], 0, false, None, 0).unwrap();
    }
    let sent = h.all();
    let tsns: Vec<Tsn> = sent
        .iter()
        .flat_map(|t| data_chunks(&t.packet.chunks).into_iter().map(|d| d.tsn))
        .collect();
    assert_eq!(tsns.len(), 3);
    tsns[0]
}

#[test]
fn gap_acked_data_stays_in_the_send_buffer_until_cum_or_nr_acked() {
    // Renegable accounting (RFC 9260 §6.2.1): a gap ack does not free send-buffer space.
    let mut h = established_nr(nr_cfg(), true);
    let first = three_sent(&mut h);
    assert_eq!(h.a.send_buffer_used(), 300);
    send!(h, [sack_chunk(first - 1, &[(2, 3)], 65_536)]);
    assert_eq!(h.a.send_buffer_used(), 300, "gap-acked data is still held");
    assert_eq!(h.a.send_buffer_renegable(), 200);
    // The same TSNs in an NR gap block: freed.
    send!(h, [nr_sack_chunk(first - 1, &[], &[(2, 3)])]);
    assert_eq!(h.a.send_buffer_used(), 100);
    assert_eq!(h.a.send_buffer_renegable(), 0);
    // No renege on NR-acked data: a later SACK without the block changes nothing.
    send!(h, [nr_sack_chunk(first - 1, &[], &[])]);
    assert_eq!(h.a.send_buffer_used(), 100);
    // The cumulative ack frees the rest.
    send!(h, [nr_sack_chunk(first + 2, &[], &[])]);
    assert_eq!(h.a.send_buffer_used(), 0);
    assert!(h.a.stats().nr_sacks_received >= 3);

    // The idealised accounting frees at the gap ack.
    let mut h = established_nr(
        SctpConfig {
            renegable_send_buffer: false,
            ..nr_cfg()
        },
        false,
    );
    let first = three_sent(&mut h);
    send!(h, [sack_chunk(first - 1, &[(2, 3)], 65_536)]);
    assert_eq!(h.a.send_buffer_used(), 100);
}

#[test]
fn nr_sack_is_an_unrecognized_chunk_when_not_negotiated() {
    let mut h = established_nr(nr_cfg(), false);
    let first = three_sent(&mut h);
    send!(h, [nr_sack_chunk(first + 2, &[], &[])]);
    // Type 0x10: upper bits 00, "stop processing this SCTP packet, discard the unrecognized
    // chunk and all further chunks" (RFC 9260 §3.2); nothing is acknowledged.
    assert_eq!(h.a.send_buffer_used(), 300);
    assert_eq!(h.a.stats().nr_sacks_received, 0);
}

/// One CMT run of `secs` seconds over two 20 ms, 2 Mbit/s paths, path 2 losing 5 % towards the
/// server, a 64 KiB send buffer and a large receive buffer (so that only the send buffer can
/// block). Returns (messages delivered, mean renegable bytes held in the send buffer sampled
/// at every event).
fn cmt_lossy_run(nr_sack: bool, secs: u64, seed: u64) -> (usize, u64) {
    let mut c = SctpConfig::rfc9260();
    c.multipath = Multipath::Cmt;
    c.cmt = CmtConfig::RECOMMENDED;
    c.send_buffer = 64 << 10;
    c.recv_buffer = 4 << 20;
    c.nr_sack = nr_sack;
    let link = LinkCfg {
        rate_bps: 2_000_000,
        ..LinkCfg::clean(20)
    };
    let mut p = Pair::new(
        c.clone(),
        c,
        &[C1, C2],
        &[S1, S2],
        &[S1],
        &[link.clone(), link],
        seed,
    );
    p.establish();
    p.run_until(p.now + SimDuration::from_secs(3), |_| false);
    assert_eq!(p.client().nr_sack_negotiated(), nr_sack);
    p.set_loss(1, true, 0.05);
    let before = p.server_rx.len();
    let (mut samples, mut renegable) = (0u64, 0u64);
    p.run_until(p.now + SimDuration::from_secs(secs), |p| {
        let now = p.now;
        while p
            .client_mut()
            .send(now, vec![7; 1452], 0, false, None, 0)
            .is_ok()
        {}
        samples += 1;
        renegable += p.client().send_buffer_renegable() as u64;
        false
    });
    (p.server_rx.len() - before, renegable / samples.max(1))
}

/// The paper's effect (ICNP 2008 §5, CMT with a lossy path): without NR-SACK the sender's
/// small buffer fills with gap-acknowledged data it may not free, and blocks; with NR-SACK
/// that data leaves at once, so more is delivered in the same time.
#[test]
fn nr_sack_relieves_send_buffer_blocking_under_cmt_with_a_lossy_path() {
    let (plain, plain_held) = cmt_lossy_run(false, 20, 3);
    let (nr, nr_held) = cmt_lossy_run(true, 20, 3);
    assert!(
        nr as f64 > plain as f64 * 1.1,
        "delivered with NR-SACK {nr}, without {plain}"
    );
    assert!(
        plain_held > 8 << 10 && nr_held < plain_held / 4,
        "mean renegable bytes held: with NR-SACK {nr_held}, without {plain_held}"
    );
}
