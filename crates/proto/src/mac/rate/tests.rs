//! Controller-level tests: every algorithm on every PHY only ever picks the PHY's rates,
//! under arbitrary feedback.

use proptest::prelude::*;
use sctpsim_kernel::{Rng, SimDuration, SimTime};

use super::*;
use crate::mac::phy_timing::PhyStandard;
use crate::mac::profiles::RadioProfile;

fn configs() -> Vec<MacConfig> {
    let mut v: Vec<MacConfig> = RadioProfile::ALL.iter().map(|p| p.mac_config()).collect();
    let mut long_slot_g = RadioProfile::Ieee80211g.mac_config();
    long_slot_g.standard = PhyStandard::Erp { short_slot: false };
    v.push(long_slot_g);
    v
}

fn algos() -> Vec<RateControlConfig> {
    RateControlConfig::NAMES
        .iter()
        .filter_map(|n| RateControlConfig::from_name(n))
        .filter(|c| c.is_adaptive())
        .collect()
}

#[test]
fn names_round_trip() {
    for n in RateControlConfig::NAMES {
        assert_eq!(RateControlConfig::from_name(n).unwrap().name(), n);
    }
    assert!(RateControlConfig::from_name("foo").is_none());
    let mut c = RadioProfile::Ieee80211a.mac_config();
    assert!(RateController::new(&c, Rng::from_seed(1)).is_none());
    c.rate_control = RateControlConfig::from_name("arf").unwrap();
    assert!(RateController::new(&c, Rng::from_seed(1)).is_some());
}

#[test]
fn rate_sets_per_phy() {
    let bps = |s| {
        adaptive_rates(s)
            .iter()
            .map(|m| m.rate_bps())
            .collect::<Vec<_>>()
    };
    assert_eq!(bps(PhyStandard::Dsss), vec![1_000_000, 2_000_000]);
    assert_eq!(
        bps(PhyStandard::HrDsss),
        vec![1_000_000, 2_000_000, 5_500_000, 11_000_000]
    );
    assert_eq!(bps(PhyStandard::Ofdm).len(), 8);
    let g = bps(PhyStandard::Erp { short_slot: true });
    assert_eq!(g.len(), 12);
    assert!(g.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn arf_climbs_and_falls_per_destination() {
    let mut c = RadioProfile::Ieee80211a.mac_config();
    c.rate_control = RateControlConfig::from_name("arf").unwrap();
    let mut rc = RateController::new(&c, Rng::from_seed(1)).unwrap();
    let (a, b) = (MacAddr::local(1, 0), MacAddr::local(2, 0));
    let t = SimTime::ZERO;
    // To `a` every attempt succeeds: 10 successes per step up, 7 steps.
    for _ in 0..70 {
        let m = rc.select(t, a, 0);
        rc.report_acked(t, a, m);
    }
    assert_eq!(rc.current(a), Some(PhyMode::Ofdm(OfdmRate::R54)));
    assert_eq!(rc.rate_changes(), 7);
    // `b` is independent: it starts at the bottom.
    assert_eq!(rc.select(t, b, 0), PhyMode::Ofdm(OfdmRate::R6));
    // Two failures to `a`: one step down.
    for attempt in 0..2 {
        let m = rc.select(t, a, attempt);
        rc.report_failed(t, a, m);
    }
    assert_eq!(rc.current(a), Some(PhyMode::Ofdm(OfdmRate::R48)));
}

#[test]
fn rate_changes_are_recorded() {
    let mut c = RadioProfile::Ieee80211b.mac_config();
    c.rate_control = RateControlConfig::from_name("aarf").unwrap();
    let mut rc = RateController::new(&c, Rng::from_seed(1)).unwrap();
    rc.set_record_changes(true);
    let a = MacAddr::local(1, 0);
    for i in 0..10u64 {
        let t = SimTime::ZERO + SimDuration::from_millis(i);
        let m = rc.select(t, a, 0);
        rc.report_acked(t, a, m);
    }
    let (t, dst, m) = rc.poll_change().unwrap();
    assert_eq!(
        (t, dst, m),
        (
            SimTime::ZERO + SimDuration::from_millis(9),
            a,
            PhyMode::Dsss2
        )
    );
    assert!(rc.poll_change().is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random Ack/failure/drop feedback for a few destinations, every algorithm on every
    /// PHY: the rate of every attempt is one the PHY has.
    #[test]
    fn only_rates_the_phy_supports(seed in any::<u64>(), p_ok in 0.0f64..1.0) {
        for cfg in configs() {
            for algo in algos() {
                let mut c = cfg.clone();
                c.rate_control = algo.clone();
                let mut rc = RateController::new(&c, Rng::from_seed(seed ^ 0x5a)).unwrap();
                let mut fb = Rng::from_seed(seed);
                let mut now = SimTime::ZERO;
                let dsts: Vec<MacAddr> = (0..3).map(|k| MacAddr::local(k, 0)).collect();
                let mut attempt = [0u32; 3];
                for _ in 0..600 {
                    let k = fb.below(3) as usize;
                    now += SimDuration::from_micros(fb.below(3_000));
                    let m = rc.select(now, dsts[k], attempt[k]);
                    prop_assert!(c.standard.supports(m), "{} picked {:?} on {:?}", algo.name(), m, c.standard);
                    prop_assert!(rc.rates().contains(&m));
                    if fb.uniform() < p_ok {
                        rc.report_acked(now, dsts[k], m);
                        attempt[k] = 0;
                    } else {
                        rc.report_failed(now, dsts[k], m);
                        attempt[k] += 1;
                        if attempt[k] >= 7 {
                            rc.report_final_failure(now, dsts[k]);
                            attempt[k] = 0;
                        }
                    }
                }
            }
        }
    }
}
