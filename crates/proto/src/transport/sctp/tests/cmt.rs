//! CMT-SCTP (Iyengar, Amer & Stewart, IEEE/ACM ToN 2006) between two real endpoints over two
//! simulated networks (`pair.rs`): data on both paths at once, and each of the paper's
//! algorithms shown by the problem it removes (ToN §3): without SFR, reordering across paths of
//! different delays causes spurious fast retransmissions; without CUC (and with RFC 2960's rule
//! that slow start needs a cumulative ack) windows grow slowly; a small receive buffer blocks
//! CMT; CMT-PF keeps new data off a failed path.

use super::pair::{LinkCfg, Pair, C1, C2, S1, S2};
use super::*;
use crate::transport::sctp::{CmtConfig, CoupledCc, Multipath, PathState, RtxPolicy};

/// Message size: one full DATA chunk on a 1500-byte path.
const MSG: usize = 1452;

fn cmt_cfg(base: SctpConfig, algos: CmtConfig) -> SctpConfig {
    let mut c = base;
    c.multipath = Multipath::Cmt;
    c.cmt = algos;
    c
}

fn link(latency_ms: u64, rate_bps: u64) -> LinkCfg {
    LinkCfg {
        rate_bps,
        ..LinkCfg::clean(latency_ms)
    }
}

/// A dual-homed pair with both of the client's destinations confirmed.
fn dual(client: SctpConfig, server: SctpConfig, links: [LinkCfg; 2], seed: u64) -> Pair {
    let mut p = Pair::new(client, server, &[C1, C2], &[S1, S2], &[S1], &links, seed);
    p.establish();
    p.run_until(p.now + SimDuration::from_secs(3), |_| false);
    assert_eq!(p.client().path_status(S2).unwrap().state, PathState::Active);
    p
}

/// Sends `n` messages as fast as the send buffer takes them; runs until all arrived or
/// `limit`. Returns the time the last one arrived (or `None`).
fn bulk(p: &mut Pair, n: usize, limit: SimDuration) -> Option<SimDuration> {
    let start = p.now;
    let mut sent = 0usize;
    let before = p.server_rx.len();
    let done = p.run_until(start + limit, |p| {
        while sent < n {
            let now = p.now;
            match p.client_mut().send(now, vec![9; MSG], 0, false, None, 0) {
                Ok(_) => sent += 1,
                Err(_) => break,
            }
        }
        p.server_rx.len() - before == n
    });
    done.then(|| p.now - start)
}

/// Client DATA chunks sent to each of the server's addresses.
fn data_per_dest(p: &Pair) -> (usize, usize) {
    let mut n = (0, 0);
    for (_, t) in &p.client_log {
        let k = data_chunks(&t.packet.chunks).len();
        if t.dst == S1 {
            n.0 += k;
        } else if t.dst == S2 {
            n.1 += k;
        }
    }
    n
}

#[test]
fn cmt_sends_new_data_on_both_paths_at_once() {
    let cfg = cmt_cfg(SctpConfig::rfc9260(), CmtConfig::RECOMMENDED);
    let links = [link(20, 2_000_000), link(20, 2_000_000)];
    let mut p = dual(cfg.clone(), cfg, links, 1);
    let t = bulk(&mut p, 600, SimDuration::from_secs(60)).expect("delivered");
    let (a, b) = data_per_dest(&p);
    assert!(a > 200 && b > 200, "DATA on S1 {a}, on S2 {b}");
    // Two 2 Mbit/s paths: 600 × 1452 bytes ≈ 7 Mbit take ≈ 3.5 s on one, well under 3 s on
    // two (slow start included).
    assert!(t < SimDuration::from_millis(3_000), "took {t:?}");
    assert_eq!(p.client().stats().fast_retransmissions, 0);
    let srv = p.server().unwrap().stats();
    assert_eq!(srv.messages_delivered, 600);
}

#[test]
fn plain_sctp_uses_one_path_and_takes_longer() {
    let cfg = SctpConfig::rfc9260();
    let links = [link(20, 2_000_000), link(20, 2_000_000)];
    let mut p = dual(cfg.clone(), cfg, links, 1);
    let t = bulk(&mut p, 600, SimDuration::from_secs(60)).expect("delivered");
    let (a, b) = data_per_dest(&p);
    assert_eq!(b, 0, "no new data on the alternate: {a} / {b}");
    assert!(t > SimDuration::from_millis(3_400), "took {t:?}");
}

/// ToN §3.1: paths of 10 ms and 60 ms reorder the data; without SFR a SACK reporting TSNs of
/// the fast path counts misses against chunks still in transit on the slow one.
fn spurious_fast_retransmits(sfr: bool) -> u64 {
    let algos = CmtConfig {
        sfr,
        dac: false,
        ..CmtConfig::RECOMMENDED
    };
    let cfg = cmt_cfg(SctpConfig::rfc9260(), algos);
    let links = [link(10, 2_000_000), link(60, 2_000_000)];
    let mut p = dual(cfg.clone(), cfg, links, 2);
    bulk(&mut p, 800, SimDuration::from_secs(120)).expect("delivered");
    // No network loses anything: every fast retransmission is spurious.
    p.client().stats().fast_retransmissions
}

#[test]
fn split_fast_retransmit_removes_the_spurious_fast_retransmissions() {
    let without = spurious_fast_retransmits(false);
    let with = spurious_fast_retransmits(true);
    assert!(without >= 10, "without SFR: {without}");
    assert_eq!(with, 0, "with SFR");
}

/// ToN §3.2: slow start needs a SACK that advances the cumulative ack (RFC 9260 §7.2.1, as RFC
/// 2960 did), and reordering across paths holds the cumulative ack back, so the windows grow
/// slowly; CUC lets each destination's pseudo-cumulative ack stand in for it. Buffers of 4 MiB
/// keep the receive window out of the way. Returns the messages delivered in the first 800 ms.
fn delivered_in_slow_start(cuc: bool) -> usize {
    let algos = CmtConfig {
        cuc,
        ..CmtConfig::RECOMMENDED
    };
    let mut cfg = cmt_cfg(SctpConfig::rfc9260(), algos);
    cfg.recv_buffer = 4 << 20;
    cfg.send_buffer = 4 << 20;
    let links = [link(20, 20_000_000), link(100, 20_000_000)];
    let mut p = dual(cfg.clone(), cfg, links, 3);
    assert!(bulk(&mut p, 100_000, SimDuration::from_millis(800)).is_none());
    p.server_rx.len()
}

#[test]
fn cwnd_update_for_cmt_speeds_up_window_growth() {
    let without = delivered_in_slow_start(false);
    let with = delivered_in_slow_start(true);
    assert!(with > 2 * without, "with CUC {with}, without {without}");
}

/// ToN §5: a receive buffer smaller than the two paths' bandwidth-delay product blocks CMT: data
/// on the slow path holds back delivery of the fast path's data, whose buffer space is then
/// not advertised.
#[test]
fn a_small_receive_buffer_blocks_cmt() {
    let time_with = |rwnd: u32| {
        let mut cfg = cmt_cfg(SctpConfig::rfc9260(), CmtConfig::RECOMMENDED);
        cfg.recv_buffer = rwnd;
        let links = [link(10, 4_000_000), link(80, 4_000_000)];
        let mut p = dual(cfg.clone(), cfg, links, 4);
        bulk(&mut p, 1000, SimDuration::from_secs(300)).expect("delivered")
    };
    let large = time_with(1 << 20);
    let small = time_with(16 * 1024);
    assert!(
        small.as_nanos() > large.as_nanos() * 3 / 2,
        "16 KiB {small:?}, 1 MiB {large:?}"
    );
}

/// CMT-PF (Natarajan et al. 2008): after the path to S2 fails, its first T3-rtx expiry makes it
/// potentially failed and no new data goes there any more; without PF, a chunk of new data
/// goes to it with every backed-off T3-rtx (its cwnd is one MTU) until Path.Max.Retrans
/// failures mark it inactive. Returns the DATA chunks sent to S2 after its first T3-rtx
/// expiry.
fn data_to_failed_path(pf: bool) -> usize {
    let algos = CmtConfig {
        pf,
        ..CmtConfig::RECOMMENDED
    };
    let mut cfg = cmt_cfg(SctpConfig::rfc9260(), algos);
    cfg.hb_interval = SimDuration::from_secs(1);
    let links = [link(20, 2_000_000), link(20, 2_000_000)];
    let mut p = dual(cfg.clone(), cfg, links, 5);
    let from = p.client_log.len();
    let fail_at = p.now + SimDuration::from_millis(500);
    let mut failed = false;
    let mut first_t3 = None;
    let mut sent = 0usize;
    p.run_until(p.now + SimDuration::from_secs(20), |p| {
        if !failed && p.now >= fail_at {
            p.set_network(1, false);
            failed = true;
        }
        if first_t3.is_none() && p.client().path_stats(S2).unwrap().t3_timeouts > 0 {
            first_t3 = Some(p.now);
        }
        while sent < 3000 {
            let now = p.now;
            match p.client_mut().send(now, vec![9; MSG], 0, false, None, 0) {
                Ok(_) => sent += 1,
                Err(_) => break,
            }
        }
        false
    });
    if pf {
        assert!(p.client().stats().cmt_pf_entries >= 1);
    }
    let first_t3 = first_t3.expect("a T3-rtx expiry on S2");
    assert!(first_t3 > fail_at);
    p.client_log[from..]
        .iter()
        .filter(|(t, s)| *t > first_t3 && s.dst == S2)
        .map(|(_, s)| data_chunks(&s.packet.chunks).len())
        .sum()
}

#[test]
fn potentially_failed_state_keeps_new_data_off_a_failed_path() {
    let with_pf = data_to_failed_path(true);
    let without = data_to_failed_path(false);
    // Retransmissions may still pick S2 while it is the only path with room (none with PF,
    // whose policies skip potentially failed paths).
    assert_eq!(with_pf, 0, "DATA chunks to the failed path with PF");
    assert!(
        without >= 3,
        "DATA chunks to the failed path without PF: {without}"
    );
}

#[test]
fn retransmission_policies_choose_by_their_measure() {
    let mut cfg = cmt_cfg(SctpConfig::rfc9260(), CmtConfig::RECOMMENDED);
    let links = [link(20, 2_000_000), link(20, 2_000_000)];
    for policy in RtxPolicy::ALL {
        cfg.cmt.rtx_policy = policy;
        assert_eq!(RtxPolicy::from_name(policy.name()), Some(policy));
        let mut p = dual(cfg.clone(), cfg.clone(), links.clone(), 6);
        let a = p.client_mut();
        // S1: large cwnd, small ssthresh, half full; S2: small cwnd, large ssthresh, full.
        a.paths[0].cwnd = 40_000;
        a.paths[0].ssthresh = 10_000;
        a.paths[0].flight_size = 20_000;
        a.paths[1].cwnd = 10_000;
        a.paths[1].ssthresh = 60_000;
        a.paths[1].flight_size = 10_000;
        a.paths[0].stats.data_chunks_sent = 100;
        a.paths[0].stats.t3_timeouts = 10;
        a.paths[1].stats.data_chunks_sent = 100;
        let want = match policy {
            RtxPolicy::Same => S2,
            RtxPolicy::Asap | RtxPolicy::Cwnd => S1,
            RtxPolicy::Ssthresh | RtxPolicy::LossRate => S2,
        };
        assert_eq!(a.cmt_rtx_dest(S2), want, "{}", policy.name());
        a.paths[0].flight_size = 0;
        a.paths[1].flight_size = 0;
    }
}

/// ToN §3.3: with DAC the receiver does not acknowledge every out-of-order packet at once, so
/// CMT's reordering costs fewer SACKs; the SACKs say how many packets they acknowledge.
/// Returns the server's SACKs and whether its receiver used DAC.
fn sacks_for_bulk(dac: bool) -> (u64, bool) {
    let algos = CmtConfig {
        dac,
        ..CmtConfig::RECOMMENDED
    };
    let cfg = cmt_cfg(SctpConfig::rfc9260(), algos);
    let links = [link(10, 2_000_000), link(60, 2_000_000)];
    let mut p = dual(cfg.clone(), cfg, links, 7);
    let before = p.server().unwrap().stats().sacks_sent;
    bulk(&mut p, 800, SimDuration::from_secs(120)).expect("delivered");
    assert_eq!(p.client().stats().fast_retransmissions, 0);
    let sacks = p.server().unwrap().stats().sacks_sent - before;
    (sacks, p.server().unwrap().rx.dac)
}

#[test]
fn delayed_ack_for_cmt_halves_the_sacks_of_reordered_data() {
    let (with, dac_on) = sacks_for_bulk(true);
    let (without, dac_off) = sacks_for_bulk(false);
    assert!(dac_on && !dac_off);
    assert!(
        with * 10 < without * 7,
        "SACKs with DAC {with}, without {without}"
    );
}

/// RFC 6356 §3 (LIA) as CMT's coupled congestion avoidance: on two equal paths alpha = 1/2, and
/// the two windows together grow by half an MTU per round trip where uncoupled they grow by two
/// MTUs. Returns the growth of the summed cwnd in 4 s of congestion avoidance.
fn ca_growth(coupled: CoupledCc) -> u32 {
    let algos = CmtConfig {
        coupled,
        ..CmtConfig::RECOMMENDED
    };
    let mut cfg = cmt_cfg(SctpConfig::rfc9260(), algos);
    cfg.recv_buffer = 16 << 20;
    cfg.send_buffer = 16 << 20;
    cfg.initial_ssthresh = Some(8 * 1500);
    let links = [link(50, 0), link(50, 0)];
    let mut p = dual(cfg.clone(), cfg, links, 8);
    let total = |p: &Pair| p.client().paths.iter().map(|x| x.cwnd).sum::<u32>();
    let mut start = None;
    let mut sent = 0usize;
    let t0 = p.now;
    p.run_until(t0 + SimDuration::from_secs(5), |p| {
        while sent < 1_000_000 {
            let now = p.now;
            match p.client_mut().send(now, vec![9; MSG], 0, false, None, 0) {
                Ok(_) => sent += 1,
                Err(_) => break,
            }
        }
        if start.is_none() && p.now >= t0 + SimDuration::from_secs(1) {
            start = Some(total(p));
        }
        false
    });
    total(&p) - start.expect("sampled")
}

#[test]
fn coupled_congestion_avoidance_grows_like_one_flow() {
    let uncoupled = ca_growth(CoupledCc::Off);
    let coupled = ca_growth(CoupledCc::Lia);
    assert!(coupled > 0, "coupled windows still grow");
    assert!(
        coupled * 3 < uncoupled,
        "cwnd growth coupled {coupled} B, uncoupled {uncoupled} B"
    );
}
