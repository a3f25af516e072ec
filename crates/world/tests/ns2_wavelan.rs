//! ns-2's default wireless PHY end to end: two-ray ground propagation with the WaveLAN radio
//! feeding threshold reception gives the 250 m decode range and 550 m carrier-sense range that
//! ns-2 studies (Ye et al., Argyriou & Madisetti) assume.

use sctpsim_kernel::Rng;
use sctpsim_world::propagation::{PropagationModel, NS2_TX_POWER_W};
use sctpsim_world::reception::threshold::{NS2_CS_THRESH_W, NS2_RX_THRESH_W};
use sctpsim_world::reception::{Detection, Overlap, ThresholdReception};
use sctpsim_world::{range_for_threshold_m, Position};

fn detect_at(d: f64) -> Detection {
    let model = PropagationModel::ns2_default();
    let mut rng = Rng::from_seed(0);
    let pr = model.rx_power_w(
        NS2_TX_POWER_W,
        Position::xy(0.0, 0.0),
        Position::xy(d, 0.0),
        &mut rng,
    );
    ThresholdReception::default().detect(pr)
}

#[test]
fn ranges_are_250_and_550_m() {
    assert_eq!(detect_at(10.0), Detection::Decodable);
    assert_eq!(detect_at(249.0), Detection::Decodable);
    // 3.652e-10 is 0.017 % below the two-ray power at exactly 250 m, so the edge is 250.015 m.
    assert_eq!(detect_at(250.0), Detection::Decodable);
    assert_eq!(detect_at(251.0), Detection::CarrierSenseOnly);
    assert_eq!(detect_at(549.0), Detection::CarrierSenseOnly);
    assert_eq!(detect_at(551.0), Detection::Undetected);
    let m = PropagationModel::ns2_default();
    let rx = range_for_threshold_m(&m, NS2_TX_POWER_W, NS2_RX_THRESH_W);
    let cs = range_for_threshold_m(&m, NS2_TX_POWER_W, NS2_CS_THRESH_W);
    assert!((rx - 250.0).abs() < 0.1, "{rx}");
    assert!((cs - 550.0).abs() < 0.1, "{cs}");
}

#[test]
fn capture_needs_the_receiving_frame_to_be_about_1_78_times_closer() {
    // Beyond the cross-over, power falls as d⁻⁴: 10 dB is a distance ratio of 10^(1/4) = 1.778.
    let m = PropagationModel::ns2_default();
    let r = ThresholdReception::default();
    let p = |d: f64| m.mean_rx_power_at_w(NS2_TX_POWER_W, d);
    assert_eq!(r.overlap(p(100.0), p(178.0)), Overlap::KeepCurrent);
    assert_eq!(r.overlap(p(100.0), p(177.0)), Overlap::Collision);
}
