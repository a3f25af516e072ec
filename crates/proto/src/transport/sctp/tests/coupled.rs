//! CMT's coupled congestion control (`coupled.rs`): every algorithm's increases and decreases
//! on two destinations with given windows and RTTs, computed by hand from the formulas in the
//! module documentation; the wiring of the shares into RFC 9260 §7.2's slow start and
//! congestion avoidance; and, between two real endpoints, the coupled windows growing more
//! slowly than the uncoupled ones.

use super::pair::{LinkCfg, Pair, C1, C2, S1, S2};
use super::*;
use crate::transport::sctp::congestion::{AckSample, CongestionControl, Standard};
use crate::transport::sctp::coupled::{
    lia_ca_steps, rp_initial_cwnd, rp_share, rp_ssthresh_after_loss, CoupledPath, Share,
};
use crate::transport::sctp::path::Path;
use crate::transport::sctp::{CmtConfig, CoupledCc, Multipath};

const M: u32 = 1500;

fn path(cwnd: u32, ssthresh: u32, srtt_ms: Option<u64>) -> CoupledPath {
    CoupledPath {
        cwnd,
        ssthresh,
        srtt: srtt_ms.map(SimDuration::from_millis),
        mtu: M,
    }
}

/// Destination A: cwnd 30 000 B, ssthresh 20 000 B, srtt 100 ms (300 000 B/s).
/// Destination B: cwnd 10 000 B, ssthresh 60 000 B, srtt 50 ms (200 000 B/s).
fn two() -> [CoupledPath; 2] {
    [
        path(30_000, 20_000, Some(100)),
        path(10_000, 60_000, Some(50)),
    ]
}

fn share(cc: CoupledCc, paths: &[CoupledPath], i: usize) -> Share {
    rp_share(cc, paths, i).expect("a share")
}

#[test]
fn rpv1_increases_by_the_share_of_the_summed_ssthresh() {
    let p = two();
    // A: 20 000 / 80 000 = 1/4; B: 60 000 / 80 000 = 3/4.
    let (a, b) = (share(CoupledCc::Rpv1, &p, 0), share(CoupledCc::Rpv1, &p, 1));
    // Slow start, min(acked, MTU) = 1500: A ⌈375⌉, B ⌈1125⌉.
    assert_eq!((a.of(1500), b.of(1500)), (375, 1125));
    // 1001 bytes acked on A: 250.25, rounded up.
    assert_eq!(a.of(1000), 250);
    assert_eq!(a.of(1001), 251);
    // The two increases add up to what one flow's would be: one MTU.
    assert_eq!(a.of(M) + b.of(M), M);
}

#[test]
fn rpv2_increases_by_the_share_of_the_summed_bandwidth() {
    let p = two();
    // A: 300 000 / 500 000 = 3/5; B: 200 000 / 500 000 = 2/5 (not B's 1/4 of the windows).
    let (a, b) = (share(CoupledCc::Rpv2, &p, 0), share(CoupledCc::Rpv2, &p, 1));
    assert_eq!((a.of(1500), b.of(1500)), (900, 600));
    assert_eq!(b.of(1000), 400);
    assert_eq!(b.of(1001), 401, "400.4 rounded up");
    // Before every destination has an RTT, every srtt counts as the same: the windows' shares.
    let q = [path(30_000, 20_000, Some(100)), path(10_000, 60_000, None)];
    assert_eq!(share(CoupledCc::Rpv2, &q, 0).of(1500), 1125);
    assert_eq!(share(CoupledCc::Rpv2, &q, 1).of(1500), 375);
}

#[test]
fn rp_decreases_by_half_the_association() {
    let p = two();
    // RPv1: ⌈cwnd_total / 2⌉ = 20 000 from the destination that saw the loss, at least one MTU.
    assert_eq!(rp_ssthresh_after_loss(CoupledCc::Rpv1, &p, 0), Some(10_000));
    assert_eq!(rp_ssthresh_after_loss(CoupledCc::Rpv1, &p, 1), Some(M));
    // RPv2: srtt_i · Σ b / 2 = 0.1 s · 500 000 B/s / 2 = 25 000 from A; 12 500 from B.
    assert_eq!(rp_ssthresh_after_loss(CoupledCc::Rpv2, &p, 0), Some(5_000));
    assert_eq!(rp_ssthresh_after_loss(CoupledCc::Rpv2, &p, 1), Some(M));
    // One destination alone: both are a single flow's halving.
    let one = [path(30_000, 20_000, Some(100))];
    assert_eq!(
        rp_ssthresh_after_loss(CoupledCc::Rpv1, &one, 0),
        Some(15_000)
    );
    assert_eq!(
        rp_ssthresh_after_loss(CoupledCc::Rpv2, &one, 0),
        Some(15_000)
    );
    // Off and LIA keep RFC 9260 §7.2.3.
    assert_eq!(rp_ssthresh_after_loss(CoupledCc::Off, &p, 0), None);
    assert_eq!(rp_ssthresh_after_loss(CoupledCc::Lia, &p, 0), None);
    assert_eq!(rp_share(CoupledCc::Lia, &p, 0), None);
}

#[test]
fn lia_steps_follow_rfc_6356() {
    // RTTs exact in binary (125 ms, 62.5 ms): cwnd / rtt = 240 000 on both, Σ = 480 000;
    // max cwnd / rtt² = 15 000 / 0.00390625 = 3 840 000; alpha = 45 000 · 3 840 000 /
    // 480 000² = 0.75. Steps: ⌊0.75 · 1500 · cwnd_i / 45 000⌋ = 750 and 375.
    let mut p = [path(30_000, 0, None), path(15_000, 0, None)];
    p[0].srtt = Some(SimDuration::from_micros(125_000));
    p[1].srtt = Some(SimDuration::from_micros(62_500));
    assert_eq!(lia_ca_steps(&p), Some(vec![750, 375]));
    // No RTT yet: uncoupled.
    p[1].srtt = None;
    assert_eq!(lia_ca_steps(&p), None);
}

#[test]
fn rp_splits_the_initial_window() {
    assert_eq!(rp_initial_cwnd(4380, M, 2), 2190);
    assert_eq!(rp_initial_cwnd(4380, M, 3), M, "at least one MTU");
    assert_eq!(rp_initial_cwnd(4380, M, 1), 4380);
}

#[test]
fn shares_scale_slow_start_and_congestion_avoidance() {
    let cfg = SctpConfig::rfc9260();
    let cc = Standard::new(&cfg);
    let mut p = Path::new(&cfg, R1, L1, 100_000, &mut Rng::from_seed(1));
    p.cwnd = 6000;
    let quarter = Share { num: 1, den: 4 };
    let ack = AckSample {
        bytes_acked: 3000,
        flight_before: 6000,
        cum_advanced: true,
        in_fast_recovery: false,
        cwnd_limited: false,
        ca_increase: Some(quarter.of(M)),
        ss_share: Some(quarter),
    };
    // Slow start: ¼ of min(3000, 1500).
    cc.on_ack(SimTime::ZERO, &mut p, &ack);
    assert_eq!(p.cwnd, 6375);
    // Congestion avoidance: ¼ MTU once partial_bytes_acked reaches cwnd.
    p.ssthresh = 5000;
    let full = AckSample {
        flight_before: 7000,
        ..ack
    };
    for _ in 0..3 {
        cc.on_ack(SimTime::ZERO, &mut p, &full);
    }
    assert_eq!((p.cwnd, p.partial_bytes_acked), (6750, 9000 - 6375));
}

fn rp_cfg(coupled: CoupledCc) -> SctpConfig {
    let mut c = SctpConfig::rfc9260();
    c.multipath = Multipath::Cmt;
    c.cmt = CmtConfig {
        coupled,
        ..CmtConfig::RECOMMENDED
    };
    c.recv_buffer = 16 << 20;
    c.send_buffer = 16 << 20;
    c
}

/// Growth of the summed cwnd over two equal loss-free 50 ms paths in 3 s of slow start
/// followed by congestion avoidance (ssthresh 12 000 B), and the windows right after setup.
fn growth(coupled: CoupledCc) -> (u32, Vec<u32>) {
    let mut cfg = rp_cfg(coupled);
    cfg.initial_ssthresh = Some(8 * 1500);
    let links = [LinkCfg::clean(50), LinkCfg::clean(50)];
    let mut p = Pair::new(cfg.clone(), cfg, &[C1, C2], &[S1, S2], &[S1], &links, 8);
    p.establish();
    let initial: Vec<u32> = p.client().paths.iter().map(|x| x.cwnd).collect();
    p.run_until(p.now + SimDuration::from_secs(3), |_| false);
    let total = |p: &Pair| p.client().paths.iter().map(|x| x.cwnd).sum::<u32>();
    let before = total(&p);
    let mut sent = 0usize;
    let t0 = p.now;
    p.run_until(t0 + SimDuration::from_secs(4), |p| {
        while sent < 1_000_000 {
            let now = p.now;
            match p.client_mut().send(now, vec![9; 1452], 0, false, None, 0) {
                Ok(_) => sent += 1,
                Err(_) => break,
            }
        }
        false
    });
    (total(&p) - before, initial)
}

#[test]
fn resource_pooling_grows_like_one_flow() {
    let (uncoupled, init_off) = growth(CoupledCc::Off);
    let (rpv1, init_v1) = growth(CoupledCc::Rpv1);
    let (rpv2, init_v2) = growth(CoupledCc::Rpv2);
    // The initial window of 4380 bytes split over the two destinations.
    assert_eq!(init_off, vec![4380, 4380]);
    assert_eq!(init_v1, vec![2190, 2190]);
    assert_eq!(init_v2, vec![2190, 2190]);
    assert!(rpv1 > 0 && rpv2 > 0, "coupled windows still grow");
    // Equal paths: each destination gets half of one flow's growth, so the sum grows about
    // half as fast as two uncoupled destinations (slow start's doubling included).
    for (name, g) in [("rpv1", rpv1), ("rpv2", rpv2)] {
        assert!(
            g * 10 < uncoupled * 7,
            "cwnd growth {name} {g} B, uncoupled {uncoupled} B"
        );
    }
}
