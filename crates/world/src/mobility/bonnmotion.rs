//! Importer for BonnMotion's native movement format (`.movements`, after decompression).
//!
//! One line per node, in node order: the node's waypoints as `t x y` triples (2-D scenarios)
//! or `t x y z` quadruples (3-D), all on one line separated by whitespace
//! (BonnMotion documentation, "Movement file format"). Between waypoints the node moves in a
//! straight line at constant speed; before the first it stands at the first, after the last it
//! stays at the last; equal consecutive times are a jump. Whether a file is 2-D or 3-D cannot
//! be told from the numbers alone (12 numbers are four triples or three quadruples), so the
//! caller says ([`Dims`]); BonnMotion's `.params` file records it.
//!
//! Lines starting with `#` are skipped and do not count as nodes; trailing blank lines are
//! ignored; a blank line between nodes is an error (it would silently renumber the nodes).

use super::timeparse::{parse_number, parse_seconds};
use super::waypoint::Waypoint;
use super::Trajectory;
use crate::error::ImportError;
use crate::geometry::Position;

/// Coordinates per waypoint.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dims {
    /// `t x y` (z = 0).
    Two,
    /// `t x y z`.
    Three,
}

/// Parses a BonnMotion movement file into one trajectory per node (index = node number).
pub fn parse_bonnmotion(text: &str, dims: Dims) -> Result<Vec<Trajectory>, ImportError> {
    let per = match dims {
        Dims::Two => 3,
        Dims::Three => 4,
    };
    let lines: Vec<&str> = text.lines().collect();
    let last_content = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |i| i + 1);
    let mut out = Vec::new();
    for (i, raw) in lines[..last_content].iter().enumerate() {
        let line_no = i + 1;
        let err = |m: String| ImportError::new(line_no, m);
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            return Err(err(
                "empty line: every node needs at least one waypoint".into()
            ));
        }
        let toks: Vec<&str> = line.split_whitespace().collect();
        if !toks.len().is_multiple_of(per) {
            return Err(err(format!(
                "{} numbers is not a whole number of {}-value waypoints",
                toks.len(),
                per
            )));
        }
        let mut wps = Vec::with_capacity(toks.len() / per);
        for (k, w) in toks.chunks(per).enumerate() {
            let time = parse_seconds(w[0]).map_err(|m| err(format!("waypoint {}: {m}", k + 1)))?;
            let num =
                |s: &str| parse_number(s).map_err(|m| err(format!("waypoint {}: {m}", k + 1)));
            let x = num(w[1])?;
            let y = num(w[2])?;
            let z = if per == 4 { num(w[3])? } else { 0.0 };
            if let Some(prev) = wps.last() {
                let prev: &Waypoint = prev;
                if time < prev.time {
                    return Err(err(format!("waypoint {}: time goes backwards", k + 1)));
                }
            }
            wps.push(Waypoint::new(time, Position::new(x, y, z)));
        }
        let t = Trajectory::from_waypoints(&wps).map_err(|e| err(e.message))?;
        out.push(t);
    }
    Ok(out)
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("0 1 2\n0 1\n", Dims::Two, 2),
            ("0 1 2\n\n0 1 2\n", Dims::Two, 2),
            ("0 1 2 5 1 x\n", Dims::Two, 1),
            ("2 1 2 1 1 2\n", Dims::Two, 1),
            ("0 1 2 3\n0 1 2\n", Dims::Three, 2),
            ("-1 0 0\n", Dims::Two, 1),
            ("0 inf 0\n", Dims::Two, 1),
        ];
        for (text, dims, line) in cases {
            let e = parse_bonnmotion(text, dims).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
        }
    }

    #[test]
    fn comments_and_trailing_blank_lines() {
        let t = parse_bonnmotion("# header\n0 1 2\n0 3 4\n\n\n", Dims::Two).unwrap();
        assert_eq!(t.len(), 2);
        assert!(parse_bonnmotion("", Dims::Two).unwrap().is_empty());
    }
}
