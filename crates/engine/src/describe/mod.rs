//! Configurations that describe themselves: a table of the parameters of a configuration
//! struct — the scenario field each comes from, its unit, how to read its value and what it is
//! and where its default comes from — which `sctpsim show` (`crate::params`) iterates instead
//! of writing one row per field by hand.
//!
//! The value is read from the configuration the simulation is built with (proto's
//! `AodvConfig`, `DsrConfig`, ...), so what is shown is what runs; the default is the same
//! reading of the configuration built without the scenario's fields (the profile's values).
//! A new field of a configuration is one [`Param`] line in its table. `Param::doc` keeps
//! each parameter's meaning and citation next to its reader; `sctpsim show` does not print it
//! (its rows are unchanged), `describe/test.rs` requires it.

pub mod mobility;
pub mod radio;
pub mod transport;

#[cfg(test)]
mod test;

use sctpsim_kernel::SimDuration;
use serde_json::Value;

/// One parameter of a configuration `C`.
pub struct Param<C> {
    /// The scenario field, relative to its section (`hello_interval` in `[routing.aodv]`).
    pub field: &'static str,
    /// Unit of the value (`s`, `packets`, `hops`, ...; empty for none).
    pub unit: &'static str,
    /// The value as `sctpsim show` gives it (durations in s).
    pub get: fn(&C) -> Value,
    /// What it is and where its default comes from (RFC section, ns-2 / ns-3 name).
    pub doc: &'static str,
}

// Not derived: a derive would ask `C: Clone`, and a table entry is only a few references.
impl<C> Clone for Param<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C> Copy for Param<C> {}

/// A configuration whose parameters are listed in [`Describe::PARAMS`].
pub trait Describe: Sized + 'static {
    /// The parameters, in the order `sctpsim show` lists them.
    const PARAMS: &'static [Param<Self>];
}

/// One parameter read from a configuration and from its defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    /// The scenario field, relative to its section.
    pub field: &'static str,
    /// Unit of `value` and `default`.
    pub unit: &'static str,
    /// The value of the configuration.
    pub value: Value,
    /// The value of the configuration without the scenario's fields.
    pub default: Value,
    /// [`Param::doc`].
    pub doc: &'static str,
}

/// The parameters of `value`, with `default`'s values as their defaults.
pub fn resolve<C: Describe>(value: &C, default: &C) -> Vec<Resolved> {
    resolve_table(C::PARAMS, value, default)
}

/// The parameters of a further table of `C` (a group `sctpsim show` lists elsewhere than
/// [`Describe::PARAMS`], such as SCTP's CMT fields and extensions), read as [`resolve`] does.
pub fn resolve_table<C>(table: &[Param<C>], value: &C, default: &C) -> Vec<Resolved> {
    table
        .iter()
        .map(|p| Resolved {
            field: p.field,
            unit: p.unit,
            value: (p.get)(value),
            default: (p.get)(default),
            doc: p.doc,
        })
        .collect()
}

/// The parameters of `value`, with `default`'s values as their defaults (`null` without
/// one: a model the defaults do not have).
pub fn resolve_or_null<C: Describe>(value: &C, default: Option<&C>) -> Vec<Resolved> {
    C::PARAMS
        .iter()
        .map(|p| Resolved {
            field: p.field,
            unit: p.unit,
            value: (p.get)(value),
            default: default.map_or(Value::Null, |d| (p.get)(d)),
            doc: p.doc,
        })
        .collect()
}

/// A duration in seconds.
pub fn secs(d: SimDuration) -> Value {
    Value::from(d.as_secs_f64())
}

/// An optional value (`null` when absent).
pub fn opt<T: Into<Value>>(v: Option<T>) -> Value {
    v.map_or(Value::Null, Into::into)
}
