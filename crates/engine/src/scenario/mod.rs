//! Scenario files: TOML text → overrides → schema (serde, unknown fields denied) → semantic
//! checks. Every error is a [`ScenarioError`] that names the field path.

pub mod addresses;
pub(crate) mod check;
mod check_sctp;
pub mod check_wireless;
mod error;
pub mod mobility;
pub mod overrides;
pub mod pairs;
mod quantity;
pub mod radio;
pub mod route_layers;
pub mod schema;
pub mod schema_cellular;
pub mod schema_infra;
pub mod schema_mobileip;
pub mod schema_routing;
pub mod schema_sctp;
pub mod schema_wireless;
pub mod trace_file;

pub use error::ScenarioError;
pub use quantity::{Duration, Rate};
pub use schema::*;

use sha2::{Digest, Sha256};
use toml::{Table, Value};

/// A scenario that parsed and passed every check, with the canonical text it came from.
#[derive(Clone, Debug)]
pub struct LoadedScenario {
    /// The typed scenario.
    pub spec: Scenario,
    /// The TOML tree after overrides (canonical: keys sorted).
    pub table: Table,
}

impl LoadedScenario {
    /// SHA-256 (hex) of the canonical TOML after overrides: equal for equal scenarios whatever
    /// their formatting or comments.
    pub fn hash(&self) -> String {
        let text = toml::to_string(&self.table).unwrap_or_default();
        let digest = Sha256::digest(text.as_bytes());
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Parse TOML text into a tree. Syntax errors carry the 1-based line and column.
pub fn parse_toml(text: &str) -> Result<Table, ScenarioError> {
    text.parse::<Table>().map_err(|e| {
        let (line, column) = match e.span() {
            Some(span) => {
                let before = &text[..span.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let col = before
                    .rsplit('\n')
                    .next()
                    .map(|l| l.chars().count())
                    .unwrap_or(0)
                    + 1;
                (Some(line), Some(col))
            }
            None => (None, None),
        };
        ScenarioError {
            path: String::new(),
            line,
            column,
            message: format!("TOML syntax error: {}", e.message()),
        }
    })
}

/// Check a TOML tree against the schema and the semantic rules.
pub fn from_table(table: Table) -> Result<LoadedScenario, ScenarioError> {
    let value = Value::Table(table.clone());
    let mut spec: Scenario = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        ScenarioError::at(path, strip_key_suffix(e.into_inner().to_string()))
    })?;
    check_wireless::expand(&mut spec)?;
    check::check(&spec)?;
    Ok(LoadedScenario { spec, table })
}

/// The TOML deserializer appends `` in `a.b` `` (its own, index-free key path) to messages; the
/// field path we report is more precise, so drop it.
fn strip_key_suffix(mut msg: String) -> String {
    let msg_trim = msg.trim_end().to_string();
    if msg_trim.ends_with('`') {
        if let Some(i) = msg_trim.rfind(" in `") {
            if !msg_trim[i + 5..msg_trim.len() - 1].contains('`') {
                msg.truncate(i);
                return msg;
            }
        }
    }
    msg_trim
}

/// Load scenario text, apply `(path, value)` overrides in order, and check the result.
pub fn load(text: &str, overrides: &[(String, Value)]) -> Result<LoadedScenario, ScenarioError> {
    let mut table = parse_toml(text)?;
    for (path, value) in overrides {
        overrides::apply(&mut table, path, value.clone())?;
    }
    from_table(table)
}

#[cfg(test)]
mod test;
