//! sctpsim-conformance: runs packetdrill-format SCTP scripts (such as the ETSI TS 102 369 test
//! suite) in virtual time against sctpsim's SCTP endpoint and association.
//!
//! * [`lexer`] and [`parser`] read the subset of packetdrill's language that SCTP scripts use
//!   into an [`ast::Script`];
//! * [`executor`] runs it: system calls become endpoint and association calls, inbound packets
//!   are encoded with the real codec, outbound packets are checked field by field within the
//!   timing tolerance, with packetdrill's mapping of tags and TSNs;
//! * [`run_script`] does both and never panics: every construct the runner cannot express
//!   fails the script with a reason starting with `unsupported:`.
//!
//! ```
//! use sctpsim_conformance::{run_script, RunOptions};
//!
//! let script = "\
//!  0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3
//! +0.0 bind(3, ..., ...) = 0
//! +0.0 listen(3, 1) = 0
//! +0.0 < sctp: INIT[flgs=0, tag=1, a_rwnd=1500, os=1, is=1, tsn=1]
//! +0.0 > sctp: INIT_ACK[flgs=0, tag=2, a_rwnd=..., os=..., is=..., tsn=1, ...]
//! +0.0 < sctp: COOKIE_ECHO[flgs=0, len=..., val=...]
//! +0.0 > sctp: COOKIE_ACK[flgs=0]
//! +0.0 accept(3, ..., ...) = 4
//! ";
//! let out = run_script(script, "handshake.pkt", &RunOptions::default());
//! assert!(out.passed, "{}", out.reason);
//! ```
//!
//! Grammar, semantics and limitations: `docs/conformance.md`.

pub mod ast;
mod bytes;
mod encode;
pub mod executor;
pub mod lexer;
pub mod parser;
mod reconfig;
mod sockopts;
mod specs;
mod syscalls;
mod verify;

use std::panic::{catch_unwind, AssertUnwindSafe};

pub use encode::Mapping;
pub use executor::{Executor, Failure};
pub use parser::parse_script;

/// A syntax error in a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The line, 1-based.
    pub line: u32,
    /// What is wrong.
    pub message: String,
}

impl ParseError {
    /// An error at `line`.
    pub fn new(line: u32, message: impl Into<String>) -> Self {
        ParseError {
            line,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// The platform symbol `#ifdef` sees by default. packetdrill defines the name of the system
/// it runs on; the ETSI scripts branch on `Linux` and `FreeBSD` where the two stacks differ.
/// FreeBSD's stack is the reference implementation by the RFC's authors, so sctpsim takes its
/// branches unless told otherwise.
pub const DEFAULT_DEFINE: &str = "FreeBSD";

/// How to run a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOptions {
    /// `--tolerance_usecs` for every script, overriding the script's own header.
    pub tolerance_usecs: Option<u64>,
    /// `--tolerance_percent` in thousandths of a percent (5000 = 5 %): outbound packets may
    /// also deviate by this fraction of the time since the previous event. The script header
    /// overrides it. Default 5 % (packetdrill's value on FreeBSD).
    pub tolerance_percent_milli: u64,
    /// Symbols `#ifdef` tests.
    pub defines: Vec<String>,
    /// Seed of the endpoint's random numbers (tags, TSNs, cookie secret).
    pub seed: u64,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            tolerance_usecs: None,
            tolerance_percent_milli: 5000,
            defines: vec![DEFAULT_DEFINE.to_string()],
            seed: 1,
        }
    }
}

/// The reason a script without statements fails.
pub const EMPTY_SCRIPT: &str = "empty script: nothing to test";

/// The result of one script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Whether every event ran as the script expects.
    pub passed: bool,
    /// Why it failed (empty when it passed). Constructs the runner cannot express start with
    /// `unsupported:`.
    pub reason: String,
    /// The script line of the failure, if it belongs to one.
    pub line: Option<u32>,
    /// What happened, one line per packet and system call.
    pub trace: Vec<String>,
}

/// Parses and runs a script. `path` only labels messages. Never panics: a panic inside the
/// model is reported as a failure.
pub fn run_script(text: &str, path: &str, opts: &RunOptions) -> Outcome {
    let result = catch_unwind(AssertUnwindSafe(|| run_inner(text, opts)));
    match result {
        Ok(o) => o,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Outcome {
                passed: false,
                reason: format!("internal error while running {path}: panic: {msg}"),
                line: None,
                trace: Vec::new(),
            }
        }
    }
}

fn run_inner(text: &str, opts: &RunOptions) -> Outcome {
    let script = match parse_script(text, &opts.defines) {
        Ok(s) => s,
        Err(e) => {
            return Outcome {
                passed: false,
                reason: format!("parse error: {}", e.message),
                line: Some(e.line),
                trace: Vec::new(),
            }
        }
    };
    // A script without a statement (empty, only comments, or everything #ifdef'd out) would
    // otherwise pass without testing anything.
    if script.events.is_empty() {
        return Outcome {
            passed: false,
            reason: EMPTY_SCRIPT.to_string(),
            line: None,
            trace: Vec::new(),
        };
    }
    let mut ex = match Executor::new(&script, opts) {
        Ok(ex) => ex,
        Err(f) => {
            return Outcome {
                passed: false,
                reason: f.reason,
                line: f.line,
                trace: Vec::new(),
            }
        }
    };
    let r = ex.run(&script);
    let trace = std::mem::take(&mut ex.trace);
    match r {
        Ok(()) => Outcome {
            passed: true,
            reason: String::new(),
            line: None,
            trace,
        },
        Err(f) => Outcome {
            passed: false,
            reason: f.reason,
            line: f.line,
            trace,
        },
    }
}
