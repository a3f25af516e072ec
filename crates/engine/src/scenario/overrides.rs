//! Overrides by field path: `--set flows[0].rate=2Mbps`, `Scenario.with_(...)`, sweep `--vary`.
//!
//! Paths are the canonical ones of DESIGN.md §5: dotted names with `[i]` indices into arrays of
//! tables. Overrides are applied to the parsed TOML tree before it is checked against the
//! schema, so an override is validated exactly like a value written in the file.

use super::error::ScenarioError;
use toml::{Table, Value};

/// One step of a field path.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

fn parse_path(path: &str) -> Result<Vec<Step>, ScenarioError> {
    let bad = |why: &str| ScenarioError::at(path, format!("malformed field path ({why})"));
    if path.is_empty() {
        return Err(bad("empty"));
    }
    let mut steps = Vec::new();
    for part in path.split('.') {
        let (name, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(bad("expected names like flows[0].rate"));
        }
        steps.push(Step::Key(name.to_string()));
        while !rest.is_empty() {
            let close = rest.find(']').ok_or_else(|| bad("missing ]"))?;
            let idx: usize = rest[1..close]
                .parse()
                .map_err(|_| bad("index must be a number"))?;
            steps.push(Step::Index(idx));
            rest = &rest[close + 1..];
            if !rest.is_empty() && !rest.starts_with('[') {
                return Err(bad("unexpected text after ]"));
            }
        }
    }
    Ok(steps)
}

/// The value at `path` in `root`, if the tree has it (a malformed path has none). Used to tell
/// a field the scenario sets from one it leaves to its default (`crate::params`).
pub fn lookup<'a>(root: &'a Table, path: &str) -> Option<&'a Value> {
    let steps = parse_path(path).ok()?;
    let mut cur: Option<&Value> = None;
    for step in &steps {
        cur = match (cur, step) {
            (None, Step::Key(k)) => root.get(k),
            (Some(Value::Table(t)), Step::Key(k)) => t.get(k),
            (Some(Value::Array(a)), Step::Index(i)) => a.get(*i),
            _ => None,
        };
        cur?;
    }
    cur
}

/// Whether the field path `inner` is `outer` or lies inside it (`flows[0]` contains
/// `flows[0].tcp.mss_bytes`, not `flows[01]` nor `flows[0]x`); malformed paths contain nothing.
pub fn path_within(outer: &str, inner: &str) -> bool {
    match (parse_path(outer), parse_path(inner)) {
        (Ok(o), Ok(i)) => i.starts_with(&o),
        _ => false,
    }
}

/// Interpret a command-line value: TOML syntax if it parses (`3`, `0.01`, `true`, `[1, 2]`,
/// `"text"`), otherwise the text itself as a string (`2Mbps`, `tcp-reno`).
pub fn value_from_cli(text: &str) -> Value {
    let doc = format!("v = {text}");
    match doc.parse::<Table>() {
        Ok(mut t) => t
            .remove("v")
            .unwrap_or_else(|| Value::String(text.to_string())),
        Err(_) => Value::String(text.to_string()),
    }
}

/// Set `path` to `value` in `root`, creating missing tables on the way. Array indices must
/// exist (an override changes a scenario; it does not invent flows).
pub fn apply(root: &mut Table, path: &str, value: Value) -> Result<(), ScenarioError> {
    let steps = parse_path(path)?;
    let mut cur: &mut Value = {
        // Treat the root as a table value for uniform handling.
        let Some(Step::Key(first)) = steps.first() else {
            return Err(ScenarioError::at(path, "malformed field path"));
        };
        if steps.len() == 1 {
            root.insert(first.clone(), value);
            return Ok(());
        }
        root.entry(first.clone())
            .or_insert_with(|| Value::Table(Table::new()))
    };
    let mut walked = match &steps[0] {
        Step::Key(k) => k.clone(),
        Step::Index(_) => String::new(),
    };
    for (i, step) in steps.iter().enumerate().skip(1) {
        let last = i + 1 == steps.len();
        match step {
            Step::Key(k) => {
                let Value::Table(t) = cur else {
                    return Err(ScenarioError::at(
                        walked,
                        "is not a table, cannot set a field in it",
                    ));
                };
                walked = format!("{walked}.{k}");
                if last {
                    t.insert(k.clone(), value);
                    return Ok(());
                }
                cur = t
                    .entry(k.clone())
                    .or_insert_with(|| Value::Table(Table::new()));
            }
            Step::Index(idx) => {
                let Value::Array(a) = cur else {
                    return Err(ScenarioError::at(
                        walked,
                        "is not an array, cannot index it",
                    ));
                };
                let len = a.len();
                walked = format!("{walked}[{idx}]");
                let Some(slot) = a.get_mut(*idx) else {
                    return Err(ScenarioError::at(
                        walked,
                        format!("index out of range (the scenario has {len})"),
                    ));
                };
                if last {
                    *slot = value;
                    return Ok(());
                }
                cur = slot;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod test {
    use super::*;

    fn table(s: &str) -> Table {
        s.parse().unwrap()
    }

    #[test]
    fn sets_nested_and_indexed_fields() {
        let mut t = table("[simulation]\nduration = \"1s\"\n[[flows]]\nsrc = \"a\"\n");
        apply(&mut t, "simulation.seed", value_from_cli("7")).unwrap();
        apply(&mut t, "flows[0].rate", value_from_cli("2Mbps")).unwrap();
        apply(&mut t, "radio.data_rate", value_from_cli("\"1Mbps\"")).unwrap();
        assert_eq!(t["simulation"]["seed"].as_integer(), Some(7));
        assert_eq!(t["flows"][0]["rate"].as_str(), Some("2Mbps"));
        assert_eq!(t["radio"]["data_rate"].as_str(), Some("1Mbps"));
    }

    #[test]
    fn errors_name_the_path() {
        let mut t = table("[[flows]]\nsrc = \"a\"\n");
        let e = apply(&mut t, "flows[3].rate", Value::Integer(1)).unwrap_err();
        assert_eq!(e.path, "flows[3]");
        let e = apply(&mut t, "flows[0].src.x", Value::Integer(1)).unwrap_err();
        assert_eq!(e.path, "flows[0].src");
        assert!(apply(&mut t, "flows[x]", Value::Integer(1)).is_err());
        assert!(apply(&mut t, "", Value::Integer(1)).is_err());
        assert!(apply(&mut t, "a..b", Value::Integer(1)).is_err());
    }

    #[test]
    fn lookup_and_containment() {
        let t = table("[simulation]\nduration = \"1s\"\n[[flows]]\nsrc = \"a\"\n");
        assert_eq!(
            lookup(&t, "flows[0].src").and_then(|v| v.as_str()),
            Some("a")
        );
        assert!(lookup(&t, "flows[1].src").is_none());
        assert!(lookup(&t, "simulation.seed").is_none());
        assert!(lookup(&t, "simulation.duration.x").is_none());
        assert!(lookup(&t, "a..b").is_none());
        assert!(path_within("flows[0]", "flows[0].tcp.mss_bytes"));
        assert!(path_within("flows[0].tcp", "flows[0].tcp"));
        assert!(!path_within("flows[1]", "flows[10].rate"));
        assert!(!path_within("flows[0].tcp.mss_bytes", "flows[0].tcp"));
        assert!(!path_within("radio", "radiox.y"));
    }

    #[test]
    fn cli_values() {
        assert_eq!(value_from_cli("0.01"), Value::Float(0.01));
        assert_eq!(value_from_cli("tcp-reno"), Value::String("tcp-reno".into()));
        assert_eq!(
            value_from_cli("[1, 2]"),
            Value::Array(vec![Value::Integer(1), Value::Integer(2)])
        );
    }
}
