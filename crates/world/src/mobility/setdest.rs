//! Importer for ns-2 movement files as written by CMU's `setdest`, BonnMotion's `NSFile`
//! exporter or by hand.
//!
//! Recognised lines (anything else is an error naming the line):
//!
//! ```text
//! # comment
//! $node_(3) set X_ 83.36            initial position (also Y_ and Z_; default 0)
//! $ns_ at 12.5 "$node_(3) setdest 370.1 170.5 3.37"
//! $god_ set-dist 0 1 2              ignored, as is any $ns_ at T "$god_ ..." line
//! ```
//!
//! Semantics follow ns-2's `MobileNode` (`common/mobilenode.cc`, `set_destination`): at time
//! T the node starts from where it is at T — its position interpolated along the movement in
//! progress, which a new `setdest` interrupts — towards (X, Y) in a straight line at SPEED m/s,
//! and stops there. Z does not change. Commands for one node at the same time run in file
//! order (ns-2's scheduler is FIFO for equal times). `set X_` lines take effect at time 0
//! wherever they appear, as Tcl runs them while loading the file. ns-2 also clamps positions to
//! the topography; the importer does not (the trace is taken as given).
//!
//! Times are parsed exactly to integer nanoseconds.

use super::leg::Leg;
use super::timeparse::{parse_number, parse_seconds};
use super::Trajectory;
use crate::error::ImportError;
use crate::geometry::Position;
use sctpsim_kernel::{SimDuration, SimTime};
use std::collections::BTreeMap;

/// One `setdest` command.
#[derive(Copy, Clone, Debug)]
struct Command {
    time: SimTime,
    x: f64,
    y: f64,
    speed: f64,
}

#[derive(Clone, Debug, Default)]
struct NodeScript {
    x: f64,
    y: f64,
    z: f64,
    commands: Vec<Command>,
}

/// Parses `$node_(N)` into N.
fn node_index(tok: &str) -> Result<u32, String> {
    tok.strip_prefix("$node_(")
        .and_then(|r| r.strip_suffix(')'))
        .and_then(|n| n.parse::<u32>().ok())
        .ok_or_else(|| format!("expected `$node_(N)`, found `{tok}`"))
}

const EXPECTED: &str = "expected `$node_(i) set X_|Y_|Z_ value`, `$ns_ at T \"$node_(i) setdest X Y SPEED\"`, a `$god_` line or a `#` comment";

/// Parses an ns-2 movement file into one trajectory per node, keyed by node index.
pub fn parse_setdest(text: &str) -> Result<BTreeMap<u32, Trajectory>, ImportError> {
    parse(text, None)
}

/// [`parse_setdest`] for a run of `count` nodes: a line naming `$node_(i)` with `i >= count`
/// is an error at that line. ns-2 would fail on it too (the Tcl variable does not exist), and
/// accepting it silently leaves the run's nodes where the file never put them. Nodes below
/// `count` that the file never names are absent from the map (the caller decides).
pub fn parse_setdest_for(text: &str, count: u32) -> Result<BTreeMap<u32, Trajectory>, ImportError> {
    parse(text, Some(count))
}

fn parse(text: &str, count: Option<u32>) -> Result<BTreeMap<u32, Trajectory>, ImportError> {
    let in_run = |n: u32| -> Result<u32, String> {
        match count {
            Some(c) if n >= c => Err(format!(
                "`$node_({n})` is not a node of the run, which has {c} mobile node{} \
                 (`$node_(0)`{})",
                if c == 1 { "" } else { "s" },
                if c > 1 {
                    format!(" to `$node_({})`", c - 1)
                } else {
                    String::new()
                }
            )),
            _ => Ok(n),
        }
    };
    let mut nodes: BTreeMap<u32, NodeScript> = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let err = |m: String| ImportError::new(line_no, m);
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("$god_") {
            continue;
        }
        let toks: Vec<&str> = line.split_whitespace().collect();
        if toks[0].starts_with("$node_(") {
            // $node_(i) set X_ v
            if toks.len() != 4 || toks[1] != "set" {
                return Err(err(format!("malformed position line; {EXPECTED}")));
            }
            let n = node_index(toks[0]).and_then(in_run).map_err(err)?;
            let v = parse_number(toks[3]).map_err(err)?;
            let node = nodes.entry(n).or_default();
            match toks[2] {
                "X_" => node.x = v,
                "Y_" => node.y = v,
                "Z_" => node.z = v,
                other => return Err(err(format!("unknown coordinate `{other}` (X_, Y_ or Z_)"))),
            }
        } else if toks[0] == "$ns_" {
            // $ns_ at T "cmd ..."
            if toks.len() < 4 || toks[1] != "at" {
                return Err(err(format!("malformed `$ns_` line; {EXPECTED}")));
            }
            let time = parse_seconds(toks[2]).map_err(err)?;
            let (Some(open), Some(close)) = (line.find('"'), line.rfind('"')) else {
                return Err(err(
                    "the command after `$ns_ at T` must be in double quotes".into(),
                ));
            };
            if close <= open {
                return Err(err("unterminated double quote".into()));
            }
            if !line[close + 1..].trim().is_empty() {
                return Err(err("text after the closing quote".into()));
            }
            let cmd: Vec<&str> = line[open + 1..close].split_whitespace().collect();
            match cmd.first() {
                Some(first) if first.starts_with("$god_") => continue,
                Some(first) if first.starts_with("$node_(") => {}
                _ => return Err(err(format!("unsupported scheduled command; {EXPECTED}"))),
            }
            if cmd.get(1) != Some(&"setdest") {
                return Err(err(format!(
                    "only `setdest` can be scheduled for a node, found `{}`",
                    cmd.get(1).copied().unwrap_or("")
                )));
            }
            if cmd.len() != 5 {
                return Err(err("`setdest` takes exactly X Y SPEED".into()));
            }
            let n = node_index(cmd[0]).and_then(in_run).map_err(err)?;
            let x = parse_number(cmd[2]).map_err(err)?;
            let y = parse_number(cmd[3]).map_err(err)?;
            let speed = parse_number(cmd[4]).map_err(err)?;
            if speed < 0.0 {
                return Err(err(format!("negative speed {speed}")));
            }
            nodes
                .entry(n)
                .or_default()
                .commands
                .push(Command { time, x, y, speed });
        } else {
            return Err(err(format!("unrecognised line; {EXPECTED}")));
        }
    }
    Ok(nodes
        .into_iter()
        .map(|(n, script)| (n, build(script)))
        .collect())
}

/// Turns a node's initial position and commands into legs.
fn build(mut script: NodeScript) -> Trajectory {
    // Stable: equal times keep file order.
    script.commands.sort_by_key(|c| c.time);
    let start = Position::new(script.x, script.y, script.z);
    let mut legs = vec![Leg::stationary(SimTime::ZERO, SimTime::NEVER, start)];
    for c in script.commands {
        // Where the node is at c.time: on the last leg starting at or before it.
        let idx = legs
            .partition_point(|l| l.start <= c.time)
            .saturating_sub(1);
        let here = legs[idx].position_at(c.time);
        legs.truncate(idx + 1);
        if legs[idx].start == c.time {
            legs.pop();
        } else {
            let cut = legs[idx].truncated(c.time);
            legs[idx] = cut;
        }
        let dest = Position::new(c.x, c.y, here.z_m);
        let dist = here.distance_to(dest);
        let dur = if c.speed > 0.0 {
            SimDuration::from_secs_f64(dist / c.speed)
        } else {
            SimDuration::ZERO
        };
        if c.speed > 0.0 && dist > 0.0 && !dur.is_zero() {
            let arrive = c.time + dur;
            legs.push(Leg::moving(c.time, arrive, here, dest));
            legs.push(Leg::stationary(arrive, SimTime::NEVER, dest));
        } else if c.speed > 0.0 {
            // Already there (or within a nanosecond's travel).
            legs.push(Leg::stationary(c.time, SimTime::NEVER, dest));
        } else {
            // Speed 0: ns-2 stops the node where it is.
            legs.push(Leg::stationary(c.time, SimTime::NEVER, here));
        }
    }
    Trajectory::from_legs(legs)
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::mobility::Mobility;

    fn s(x: f64) -> SimTime {
        SimTime((x * 1e9).round() as u64)
    }

    #[test]
    fn initial_positions_and_defaults() {
        let m = parse_setdest("$node_(2) set X_ 5.0\n$node_(2) set Y_ 6\n").unwrap();
        let mut t = m[&2].clone();
        assert_eq!(t.position(s(100.0)), Position::new(5.0, 6.0, 0.0));
        assert_eq!(m.len(), 1);
        assert!(parse_setdest("").unwrap().is_empty());
    }

    #[test]
    fn speed_zero_stops_and_same_time_runs_in_file_order() {
        let text = "\
$node_(0) set X_ 0
$node_(0) set Y_ 0
$ns_ at 0.0 \"$node_(0) setdest 100 0 10\"
$ns_ at 5.0 \"$node_(0) setdest 100 0 0\"
$ns_ at 8.0 \"$node_(0) setdest 0 0 1\"
$ns_ at 8.0 \"$node_(0) setdest 50 50 0\"
";
        let mut t = parse_setdest(text).unwrap().remove(&0).unwrap();
        assert_eq!(t.position(s(5.0)), Position::xy(50.0, 0.0));
        assert_eq!(t.position(s(7.0)), Position::xy(50.0, 0.0));
        // The second command at 8 s (speed 0) cancels the first: the node stays put.
        assert_eq!(t.position(s(20.0)), Position::xy(50.0, 0.0));
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("$node_(0) set X_ 1\n$node_(0) set W_ 2\n", 2),
            ("# ok\n\nhello\n", 3),
            ("$ns_ at 1.0 \"$node_(0) setdest 1 2\"\n", 1),
            ("$ns_ at -1 \"$node_(0) setdest 1 2 3\"\n", 1),
            ("$ns_ at 1 \"$node_(0) setdest 1 2 -3\"\n", 1),
            ("$ns_ at 1 \"$node_(x) setdest 1 2 3\"\n", 1),
            ("$ns_ at 1 $node_(0) setdest 1 2 3\n", 1),
            ("$ns_ at 1 \"$node_(0) set X_ 3\"\n", 1),
            ("$ns_ at 1 \"$node_(0) setdest 1 2 nan\"\n", 1),
            ("$ns_ at 1 \"$node_(0) setdest 1 2 3\" extra\n", 1),
            ("$ns_ at 1 \"$ns_ halt\"\n", 1),
            ("$node_(0) set X_\n", 1),
        ];
        for (text, line) in cases {
            let e = parse_setdest(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
        }
    }

    #[test]
    fn god_lines_and_comments_are_ignored() {
        let text = "\
# nodes: 2, pause: 0.00, max speed: 20.00
$god_ set-dist 0 1 16777215
$ns_ at 12.0 \"$god_ set-dist 0 1 1\"
$node_(1) set X_ 1.0
";
        let m = parse_setdest(text).unwrap();
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), vec![1]);
    }

    #[test]
    fn a_node_outside_the_run_is_an_error_at_its_line() {
        let text = "\
$node_(0) set X_ 1.0
$node_(2) set Y_ 2.0
$node_(99) set X_ 5.0
";
        let e = parse_setdest_for(text, 3).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("`$node_(99)`"), "{e}");
        assert!(e.message.contains("3 mobile nodes"), "{e}");
        let text = "$node_(0) set X_ 1.0\n$ns_ at 1 \"$node_(1) setdest 1 2 3\"\n";
        let e = parse_setdest_for(text, 1).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(e.message.contains("1 mobile node "), "{e}");
        // Within the run: accepted, and nodes the file never names are simply absent.
        let m = parse_setdest_for("$node_(2) set X_ 1.0\n", 3).unwrap();
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), vec![2]);
        // Without a node count any index is accepted.
        assert!(parse_setdest("$node_(99) set X_ 5.0\n").is_ok());
    }
}
