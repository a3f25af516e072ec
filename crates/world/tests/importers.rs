//! The ns-2 `setdest` and BonnMotion importers on fixture files, and their robustness on
//! arbitrary input (they must return errors, never panic).

use proptest::prelude::*;
use sctpsim_kernel::SimTime;
use sctpsim_world::mobility::{parse_bonnmotion, parse_setdest, Dims, Mobility};
use sctpsim_world::{Position, Velocity};

fn s(x: f64) -> SimTime {
    SimTime((x * 1e9).round() as u64)
}

fn close(a: Position, b: Position) -> bool {
    a.distance_to(b) < 1e-9
}

#[test]
fn setdest_fixture_with_a_mid_leg_redirect() {
    let text = include_str!("fixtures/two_nodes.setdest");
    let mut nodes = parse_setdest(text).unwrap();
    assert_eq!(nodes.keys().copied().collect::<Vec<_>>(), vec![0, 1]);

    // Node 0: (10,20) → (110,20) at 5 m/s from t = 0; redirected at t = 10 s, where it is at
    // (60,20), towards (60,70) at 2 m/s: 50 m, arriving at t = 35 s.
    let n0 = nodes.get_mut(&0).unwrap();
    assert!(close(n0.position(s(0.0)), Position::xy(10.0, 20.0)));
    assert!(close(n0.position(s(4.0)), Position::xy(30.0, 20.0)));
    assert!(close(n0.position(s(10.0)), Position::xy(60.0, 20.0)));
    assert!(close(n0.position(s(20.0)), Position::xy(60.0, 40.0)));
    assert!(close(n0.position(s(35.0)), Position::xy(60.0, 70.0)));
    assert!(close(n0.position(s(100.0)), Position::xy(60.0, 70.0)));
    assert_eq!(n0.velocity(s(3.0)), Velocity::new(5.0, 0.0, 0.0));
    assert_eq!(n0.velocity(s(12.0)), Velocity::new(0.0, 2.0, 0.0));
    assert_eq!(n0.next_change(s(3.0)), Some(s(10.0)));
    assert_eq!(n0.next_change(s(12.0)), Some(s(35.0)));
    assert_eq!(n0.next_change(s(40.0)), None);
    // Queried out of order: same answers.
    assert!(close(n0.position(s(4.0)), Position::xy(30.0, 20.0)));

    // Node 1: stands at (100,100,1.5) until 5 s, then north at 10 m/s; Z unchanged.
    let n1 = nodes.get_mut(&1).unwrap();
    assert!(close(n1.position(s(2.0)), Position::new(100.0, 100.0, 1.5)));
    assert!(close(
        n1.position(s(10.0)),
        Position::new(100.0, 150.0, 1.5)
    ));
    assert!(close(
        n1.position(s(60.0)),
        Position::new(100.0, 200.0, 1.5)
    ));
    assert_eq!(n1.next_change(s(1.0)), Some(s(5.0)));
    assert_eq!(n1.next_change(s(6.0)), Some(s(15.0)));
}

#[test]
fn bonnmotion_fixture() {
    let text = include_str!("fixtures/three_nodes.movements");
    let mut nodes = parse_bonnmotion(text, Dims::Two).unwrap();
    assert_eq!(nodes.len(), 3);
    let n0 = &mut nodes[0];
    assert!(close(n0.position(s(5.0)), Position::xy(50.0, 0.0)));
    assert!(close(n0.position(s(15.0)), Position::xy(100.0, 0.0)));
    assert!(close(n0.position(s(25.0)), Position::xy(100.0, 25.0)));
    assert!(close(n0.position(s(99.0)), Position::xy(100.0, 50.0)));
    assert_eq!(n0.velocity(s(5.0)), Velocity::new(10.0, 0.0, 0.0));
    assert_eq!(n0.velocity(s(15.0)), Velocity::ZERO);
    assert_eq!(n0.next_change(s(12.0)), Some(s(20.0)));
    let n1 = &mut nodes[1];
    assert!(close(n1.position(s(1e4)), Position::xy(50.0, 50.0)));
    assert_eq!(n1.next_change(s(0.0)), None);
    let n2 = &mut nodes[2];
    assert!(close(n2.position(s(0.0)), Position::xy(10.0, 10.0)));
    assert!(close(n2.position(s(14.999)), Position::xy(10.0, 10.0)));
    // The jump at 15 s, then 1 m/s east.
    assert!(close(n2.position(s(15.0)), Position::xy(20.0, 20.0)));
    assert!(close(n2.position(s(20.0)), Position::xy(25.0, 20.0)));

    // The same file read as 3-D is not a whole number of quadruples on line 1.
    let e = parse_bonnmotion(text, Dims::Three).unwrap_err();
    assert_eq!(e.line, 1);
    let mut three = parse_bonnmotion("0 0 0 0 10 10 0 20\n", Dims::Three).unwrap();
    assert!(close(
        three[0].position(s(5.0)),
        Position::new(5.0, 0.0, 10.0)
    ));
}

const TOKENS: &[&str] = &[
    "$node_(0)",
    "$node_(1)",
    "$node_(",
    "$node_(99999999999)",
    "$ns_",
    "at",
    "set",
    "X_",
    "Y_",
    "Z_",
    "W_",
    "setdest",
    "\"",
    "\"$node_(0)",
    "$god_",
    "\"$god_",
    "1.5\"",
    "0",
    "-3",
    "1e400",
    "nan",
    "inf",
    "12.000000000001",
    ".",
    "#",
    "",
    "\t",
    "$node_(0)\"",
    "\"\"",
    "ü",
    "0.5",
];

fn token_line() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..9).prop_map(|t| t.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn setdest_never_panics_on_token_soup(lines in prop::collection::vec(token_line(), 0..12)) {
        let text = lines.join("\n");
        if let Err(e) = parse_setdest(&text) {
            prop_assert!(e.line >= 1 && e.line <= lines.len());
        }
    }

    #[test]
    fn importers_never_panic_on_arbitrary_text(text in "\\PC{0,300}") {
        let _ = parse_setdest(&text);
        let _ = parse_bonnmotion(&text, Dims::Two);
        let _ = parse_bonnmotion(&text, Dims::Three);
    }

    #[test]
    fn bonnmotion_never_panics_on_number_soup(
        lines in prop::collection::vec(
            prop::collection::vec(prop::sample::select(&["0", "1.5", "-2", "1e9", "x", "7", "nan", "3.25"][..]), 0..13)
                .prop_map(|v| v.join(" ")),
            0..6)
    ) {
        let text = lines.join("\n");
        for dims in [Dims::Two, Dims::Three] {
            match parse_bonnmotion(&text, dims) {
                Ok(mut nodes) => {
                    for n in &mut nodes {
                        let p = n.position(SimTime(5_000_000_000));
                        prop_assert!(p.is_finite());
                    }
                }
                Err(e) => prop_assert!(e.line >= 1 && e.line <= lines.len()),
            }
        }
    }
}
