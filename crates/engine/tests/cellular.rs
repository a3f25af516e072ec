//! Access-router mobility and cellular SCTP in the engine, on the Aydin & Shen road: the mobile
//! acquires one address per access router it hears, cSCTP adds, promotes and withdraws them by
//! ASCONF, every message arrives once and in order across the handovers, each handover's
//! outage breakdown adds up to its outage, and bad `cellular` fields name themselves.

mod common;

use common::{load_err, run_with};

const ROAD: &str = include_str!("../../../python/sctpsim/scenarios/aydin2004/road.toml");

/// The road at `speed_kmh` for `secs` seconds.
fn drive(speed_kmh: f64, secs: u32, extra: &[(&str, &str)]) -> sctpsim_engine::RunResult {
    let end = format!("[[0, 0], [{:.1}, 0]]", speed_kmh / 3.6 * f64::from(secs));
    let times = format!("[\"0s\", \"{secs}s\"]");
    let dur = format!("{secs}s");
    let mut sets = vec![
        ("simulation.duration", dur.as_str()),
        ("mobility.waypoints[0].times", times.as_str()),
        ("mobility.waypoints[0].positions_m", end.as_str()),
    ];
    sets.extend_from_slice(extra);
    run_with(ROAD, &sets)
}

#[test]
fn csctp_moves_the_association_from_router_to_router_and_delivers_every_message_once() {
    // 60 km/h for 60 s: 1000 m, past the AR1/AR2 and AR2/AR3 overlaps.
    let r = drive(60.0, 60, &[]);
    let s = &r.summary;
    let a = &s.sctp[0];
    assert_eq!(a.state, "ESTABLISHED", "{a:?}");
    assert_eq!((a.delivery_errors, a.messages_missing), (0, 0), "{a:?}");
    assert!(a.messages_delivered > 5000, "{a:?}");
    let h: Vec<_> = s
        .handoffs
        .iter()
        .filter(|h| h.mechanism == "csctp")
        .collect();
    assert_eq!(h.len(), 2, "{h:?}");
    assert_eq!(
        (h[0].from_agent.as_str(), h[0].to_agent.as_str()),
        ("AR1", "AR2")
    );
    assert_eq!(
        (h[1].from_agent.as_str(), h[1].to_agent.as_str()),
        ("AR2", "AR3")
    );
    for x in &h {
        // Detected, acquired after the configured 1 s, added, promoted, the old one withdrawn.
        assert!((x.acquired_s - x.detected_s - 1.0).abs() < 1e-9, "{x:?}");
        assert!(x.add_ip_acked_s > x.add_ip_sent_s, "{x:?}");
        assert!(x.set_primary_sent_s >= x.add_ip_acked_s, "{x:?}");
        assert!(x.delete_ip_acked_s > x.delete_ip_sent_s, "{x:?}");
        assert!(x.released_s > x.set_primary_sent_s, "{x:?}");
        let parts = x.outage_detection_s
            + x.outage_acquisition_s
            + x.outage_add_ip_s
            + x.outage_wait_primary_s
            + x.outage_switch_s;
        assert!((parts - x.outage_s).abs() < 1e-3, "{x:?}");
    }
    assert_eq!(a.path_switches, 2, "{a:?}");
    assert!(s.network.ar_beacons_heard > 50, "{:?}", s.network);
    assert_eq!(s.network.ar_addresses_released, 2, "{:?}", s.network);
}

#[test]
fn the_mobile_end_reports_data_on_each_address_and_duplicated_transfer_duplicates_more() {
    // The handoffs table's data columns come from the flow end at the mobile (its driver's
    // `Received::addr_arrival`): data reaches the new address before the old one goes quiet,
    // inside the handover, and the duplicated transfer of a handoff delivers more DATA twice
    // than a single primary does.
    let single = drive(60.0, 60, &[]);
    let dup = drive(60.0, 60, &[("flows[0].sctp.csctp", "duplicated")]);
    let rows = |r: &sctpsim_engine::RunResult| {
        r.summary
            .handoffs
            .iter()
            .filter(|h| h.mechanism == "csctp")
            .cloned()
            .collect::<Vec<_>>()
    };
    let (single, dup) = (rows(&single), rows(&dup));
    assert_eq!((single.len(), dup.len()), (2, 2), "{single:?} {dup:?}");
    for (s, d) in single.iter().zip(&dup) {
        for x in [s, d] {
            assert!(x.detected_s <= x.first_packet_s, "{x:?}");
            assert!(x.first_packet_s < x.last_old_data_s, "{x:?}");
            assert!(x.last_old_data_s <= x.released_s, "{x:?}");
        }
        assert!(d.data_duplicated > s.data_duplicated, "{s:?} {d:?}");
    }
}

#[test]
fn without_csctp_the_association_stays_on_its_first_address_and_stalls() {
    let r = drive(60.0, 60, &[("flows[0].sctp.csctp", "off")]);
    let a = &r.summary.sctp[0];
    assert_eq!(a.path_switches, 0, "{a:?}");
    let with = drive(60.0, 60, &[]);
    assert!(
        a.messages_delivered < with.summary.sctp[0].messages_delivered,
        "{a:?}"
    );
}

#[test]
fn a_long_acquisition_at_speed_does_not_abort_the_association() {
    // 80 km/h with a 3 s acquisition: the old cell is left about when the new address
    // arrives; the ASCONF leaves from the new address.
    for seed in ["1", "2"] {
        let r = drive(
            80.0,
            240,
            &[
                ("cellular.acquisition_delay", "3s"),
                ("simulation.seed", seed),
            ],
        );
        let a = &r.summary.sctp[0];
        assert_eq!(a.state, "ESTABLISHED", "seed {seed}: {a:?}");
        assert_eq!(a.associations_lost, 0, "seed {seed}: {a:?}");
        assert_eq!((a.delivery_errors, a.messages_missing), (0, 0), "{a:?}");
    }
}

#[test]
fn bad_cellular_fields_name_the_field() {
    let cases = [
        (
            r#"[simulation]
duration = "1s"
[[node]]
name = "A"
cellular = { role = "access-router" }
"#,
            "node[0].cellular",
        ),
        (
            "[simulation]\nduration = \"1s\"\n[[node]]\nname = \"A\"\nwireless = true\ncellular = { role = \"access-router\" }\n",
            "node",
        ),
    ];
    for (text, field) in cases {
        let e = load_err(text, &[]);
        assert!(e.contains(field), "{e}");
    }
    let e = load_err(ROAD, &[("cellular.hysteresis_db", "-1")]);
    assert!(e.contains("cellular.hysteresis_db"), "{e}");
    let e = load_err(ROAD, &[("flows[0].sctp.csctp", "both")]);
    assert!(e.contains("flows[0].sctp.csctp"), "{e}");
    // cSCTP's per-path SACKs have no NR-SACK form.
    let e = load_err(ROAD, &[("flows[0].sctp.nr_sack", "true")]);
    assert!(
        e.contains("flows[0].sctp.nr_sack") && e.contains("csctp"),
        "{e}"
    );
}

#[test]
fn a_router_lost_and_heard_again_is_added_again_and_never_a_source_while_being_deleted() {
    // Seeds of the study at which a beacon lost at the edge of a cell made the mobile release
    // the new router's address and acquire it again 250 ms later, while its delete-ip was in
    // flight: the address must be added again (else the association stalls on the old one),
    // and must not be the SACKs' source meanwhile (the peer, which already removed it,
    // answers with an ABORT).
    for (metres, seed) in [
        (500.0, 6_092_753_725_965_239_209),
        (2000.0, 1_058_337_066_464_649_739),
    ] {
        let end = format!("[[0, 0], [{metres}, 0]]");
        let r = common::run_seeded(
            ROAD,
            &[
                ("mobility.waypoints[0].positions_m", end.as_str()),
                ("cellular.acquisition_delay", "250ms"),
            ],
            Some(seed),
        );
        let a = &r.summary.sctp[0];
        assert_eq!(
            (a.state.as_str(), a.associations_lost),
            ("ESTABLISHED", 0),
            "{a:?}"
        );
        assert!(a.path_switches >= 1, "{a:?}");
        assert!(a.messages_delivered > 45_000, "{a:?}");
    }
}
