//! Scenario errors: one line that names the field path (`link[1].bandwidth: ...`) or, for TOML
//! syntax, the line and column.

use core::fmt;

/// A problem with a scenario or an override. Displayed as a single line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Dotted field path (`flows[0].dst`), empty for file-level problems.
    pub path: String,
    /// 1-based line of a TOML syntax error.
    pub line: Option<usize>,
    /// 1-based column of a TOML syntax error.
    pub column: Option<usize>,
    /// What is wrong, for a person.
    pub message: String,
}

impl ScenarioError {
    /// An error at a field path.
    pub fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            path: path.into(),
            line: None,
            column: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "line {l}, column {c}: ")?,
            (Some(l), None) => write!(f, "line {l}: ")?,
            _ => {}
        }
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        // Keep it to one line whatever the underlying parser said.
        let one_line = self
            .message
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        f.write_str(&one_line)
    }
}

impl std::error::Error for ScenarioError {}
