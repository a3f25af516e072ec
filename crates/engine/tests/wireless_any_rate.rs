//! 802.11 links at the non-standard rates of the Mobile IP study (Atiquzzaman & Fu: 150, 200,
//! 384, 1000, 2000 kbit/s wireless links, ns-2.1b8): `radio.data_rate` of the `ns2-wavelan`
//! profile takes any rate (`PhyMode::DsssAnyRate`), and one saturated sender carries one
//! frame per DCF cycle, as the arithmetic says.

mod common;

use common::run_with;

/// UDP payload of each packet: 976 B + 8 (UDP) + 20 (IP) = 1004 B of IP packet, a 1040-octet
/// MPDU with the 36 octets of MAC overhead (24 header + 8 LLC/SNAP + 4 FCS).
const PAYLOAD: u64 = 976;
const MPDU_BYTES: f64 = 1040.0;
const ACK_BYTES: f64 = 14.0;
const RTS_BYTES: f64 = 20.0;

/// Two static ns-2 radios 10 m apart, everything (data, basic, broadcast) at `kbps`, basic
/// access (`rts = false`) or RTS/CTS before every frame (the profile's threshold 0), and a CBR
/// flow offering twice the link rate for `secs`.
fn link(kbps: u64, rts: bool, secs: u64) -> String {
    format!(
        r#"
[simulation]
duration = "{secs}s"
[radio]
profile = "ns2-wavelan"
data_rate = "{kbps}kbps"
basic_rate = "{kbps}kbps"
broadcast_rate = "{kbps}kbps"
rts_threshold_bytes = {threshold}
[[node]]
name = "a"
wireless = true
position_m = [0, 0]
[[node]]
name = "b"
wireless = true
position_m = [10, 0]
[[flows]]
src = "a"
dst = "b"
app = "cbr"
rate = "{offered}kbps"
packet_size_bytes = {PAYLOAD}
"#,
        offered = 2 * kbps,
        threshold = if rts {
            {
                0
            }
        } else {
            {
                65535
            }
        },
    )
}

/// The mean DCF cycle of one saturated sender without contention, in µs, recomputed here from
/// the Clause 15 constants: DIFS (SIFS + 2·slot = 50 µs) + CWmin/2 = 15.5 slots of backoff
/// (uniform on 0..=31) + DATA + SIFS + Ack, each frame 192 µs of PLCP preamble and header at
/// 1 Mbit/s plus its bits at the link rate; with RTS/CTS also RTS + SIFS + CTS + SIFS.
fn dcf_cycle_us(bps: f64, rts: bool) -> f64 {
    let (slot, sifs) = (20.0, 10.0);
    let difs = sifs + 2.0 * slot;
    let frame = |bytes: f64| 192.0 + 8.0 * bytes / bps * 1e6;
    let basic = difs + 15.5 * slot + frame(MPDU_BYTES) + sifs + frame(ACK_BYTES);
    if rts {
        basic + frame(RTS_BYTES) + sifs + frame(ACK_BYTES) + sifs
    } else {
        basic
    }
}

#[test]
fn saturated_links_of_any_rate_match_the_dcf_arithmetic() {
    let cases = [
        (150, false, 120),
        (200, false, 100),
        (384, false, 60),
        (1000, false, 30),
        (2000, false, 20),
        (150, true, 120),
        (2000, true, 20),
    ];
    for (kbps, rts, secs) in cases {
        let r = run_with(&link(kbps, rts, secs), &[]);
        let f = &r.summary.flows[0];
        let m = &r.summary.macs[0];
        assert_eq!(m.collisions, 0, "{kbps} kbit/s, RTS {rts}: {m:?}");
        assert_eq!(m.tx_data_retries, 0, "{kbps} kbit/s, RTS {rts}: {m:?}");
        let got = f.packets_delivered as f64 / secs as f64;
        let want = 1e6 / dcf_cycle_us(kbps as f64 * 1e3, rts);
        let case = format!("{kbps} kbit/s{}", if rts { " RTS/CTS" } else { "" });
        let err = got / want - 1.0;
        eprintln!(
            "{case:>19}: {got:.3} frames/s ({:.1} kbit/s of UDP payload), arithmetic {want:.3}, error {:+.2} %",
            got * PAYLOAD as f64 * 8.0 / 1e3,
            100.0 * err
        );
        assert!(err.abs() < 0.01, "{case}: {got} vs {want}");
    }
}

/// The mean cycle of the same sender with `radio.timing = "ns2-2.1b8"`, in µs: ns-2.1b8 sent
/// every frame, its 24 PLCP octets included, at the link rate (`8 * len / bandwidth_`,
/// `mac/mac-802_11.h`:139–142 of ns-2.1b8), and timed the DATA frame as the 1004-byte IP
/// packet + 52 octets (24 PLCP + 24 header + 4 FCS, no LLC/SNAP); RTS 44, CTS and Ack 38
/// octets. DIFS, slot, SIFS and the backoff as above.
fn ns2_21b8_cycle_us(bps: f64, rts: bool) -> f64 {
    let (slot, sifs) = (20.0, 10.0);
    let difs = sifs + 2.0 * slot;
    let frame = |bytes: f64| 8.0 * bytes / bps * 1e6;
    let data = frame(MPDU_BYTES - 36.0 + 52.0);
    let basic = difs + 15.5 * slot + data + sifs + frame(38.0);
    if rts {
        basic + frame(44.0) + sifs + frame(38.0) + sifs
    } else {
        basic
    }
}

#[test]
fn ns2_21b8_timing_changes_the_exchange() {
    let cases = [
        (150, false, 120),
        (2000, false, 20),
        (150, true, 120),
        (2000, true, 20),
    ];
    for (kbps, rts, secs) in cases {
        let scenario =
            link(kbps, rts, secs).replace("[radio]\n", "[radio]\ntiming = \"ns2-2.1b8\"\n");
        assert!(scenario.contains("timing = \"ns2-2.1b8\""));
        let r = run_with(&scenario, &[]);
        let f = &r.summary.flows[0];
        let m = &r.summary.macs[0];
        assert_eq!(m.collisions, 0, "{kbps} kbit/s, RTS {rts}: {m:?}");
        assert_eq!(m.tx_data_retries, 0, "{kbps} kbit/s, RTS {rts}: {m:?}");
        let got = f.packets_delivered as f64 / secs as f64;
        let bps = kbps as f64 * 1e3;
        let want = 1e6 / ns2_21b8_cycle_us(bps, rts);
        let standard = 1e6 / dcf_cycle_us(bps, rts);
        let case = format!("{kbps} kbit/s{}", if rts { " RTS/CTS" } else { "" });
        let err = got / want - 1.0;
        eprintln!(
            "{case:>19}: ns2-2.1b8 timing {got:.3} frames/s, arithmetic {want:.3} (error {:+.2} %), standard timing {standard:.3}",
            100.0 * err
        );
        assert!(err.abs() < 0.01, "{case}: {got} vs {want}");
        // The two timings are well apart (3-5 %), so the test tells them apart.
        assert!((want / standard - 1.0).abs() > 0.025, "{case}");
    }
}
