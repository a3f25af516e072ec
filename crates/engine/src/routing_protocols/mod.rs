//! The ad hoc routing protocols, one descriptor each: how its router is built from
//! `[routing]`, how its `[routing.<name>]` section is checked and shown (`sctpsim show`), and
//! how the packet trace names its control packets. The scenario checks
//! (`scenario::check`), the routers of a run (`sim::routing`), `sctpsim show`
//! (`params::wireless`) and the trace's `protocol` column (`trace::PROTOCOL_NAMES`, exported
//! to Python with every trace) read [`AD_HOC`] instead of naming the protocols one by one.
//!
//! A new protocol is its `sctpsim_proto::routing` module, a file here with its descriptor,
//! its configuration function and its `Describe` table, one entry at the end of [`AD_HOC`],
//! and in `scenario/schema_routing.rs` its `RoutingKind` variant, its spec struct and its
//! `RoutingSpec` field (serde needs those to be types).

mod aodv;
mod dsdv;
mod dsr;
mod olsr;

#[cfg(test)]
mod test;

pub use aodv::aodv_config;
pub use dsdv::dsdv_config;
pub use dsr::dsr_config;
pub use olsr::olsr_config;

use crate::describe::Resolved;
use crate::scenario::{Duration, RoutingKind, RoutingSpec, Scenario, ScenarioError};
use sctpsim_kernel::Rng;
use sctpsim_proto::routing::Router;
use std::net::Ipv4Addr;

/// How the packet trace recognises a protocol's own packets.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TraceMatch {
    /// Its own IP protocol number (DSR: 48, RFC 4728 §6); a packet whose header carries
    /// another protocol after it is named by that protocol.
    IpProtocol(u8),
    /// UDP to or from this port (AODV 654, RFC 3561 §5; OLSR 698, RFC 3626 §3.1; DSDV 269,
    /// ns-3).
    UdpPort(u16),
}

/// The `profile` field of a protocol's section.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ProfileChoice {
    /// The profile the scenario chose (or the default one).
    pub name: &'static str,
    /// The default profile.
    pub default: &'static str,
}

/// What `sctpsim show` lists for a protocol's section.
#[derive(Clone, Debug, PartialEq)]
pub struct SectionParams {
    /// The section's `profile`, for protocols that have profiles.
    pub profile: Option<ProfileChoice>,
    /// The parameters of the configuration the router is built with; each default is the
    /// value with the profile alone.
    pub params: Vec<Resolved>,
}

/// One ad hoc routing protocol.
pub struct RoutingProtocol {
    /// Its `routing.protocol` value.
    pub kind: RoutingKind,
    /// Its name: `routing.protocol`, the section `[routing.<name>]`, the trace's `protocol`
    /// column and the results.
    pub name: &'static str,
    /// How the trace recognises its control packets.
    pub trace: TraceMatch,
    /// A router at `addr` with the settings of `[routing]` (`spec`) and its random stream.
    pub build: fn(spec: &RoutingSpec, addr: Ipv4Addr, rng: Rng) -> Box<dyn Router>,
    /// Whether its routers listen promiscuously with these settings (DSR's tap): the MAC then
    /// reports overheard unicast frames, which go to `Router::handle_overheard`.
    pub promiscuous: fn(&RoutingSpec) -> bool,
    /// Whether the scenario has its section.
    pub given: fn(&RoutingSpec) -> bool,
    /// The checks of its section (run whether or not it is the chosen protocol, so that one
    /// scenario can sweep `routing.protocol` with each protocol's own settings).
    pub check: fn(&RoutingSpec) -> Result<(), ScenarioError>,
    /// Its section's rows of `sctpsim show`.
    pub params: fn(&RoutingSpec) -> SectionParams,
}

impl std::fmt::Debug for RoutingProtocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RoutingProtocol")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// The ad hoc protocols. The order is the order of their codes in the trace's `protocol`
/// column (`trace::PROTOCOL_NAMES`): new protocols go at the end, so that stored traces keep
/// their meaning.
pub const AD_HOC: [RoutingProtocol; 4] = [
    dsr::PROTOCOL,
    aodv::PROTOCOL,
    olsr::PROTOCOL,
    dsdv::PROTOCOL,
];

/// The descriptor of `kind` (`None` for static routing).
pub fn protocol(kind: RoutingKind) -> Option<&'static RoutingProtocol> {
    AD_HOC.iter().find(|p| p.kind == kind)
}

/// A router for `spec.protocol` at `addr`, or `None` with static routing.
pub fn make_router(spec: &RoutingSpec, addr: Ipv4Addr, rng: Rng) -> Option<Box<dyn Router>> {
    protocol(spec.protocol).map(|p| (p.build)(spec, addr, rng))
}

/// Whether the routers of scenario `s` listen promiscuously (its protocol's
/// [`RoutingProtocol::promiscuous`]).
pub fn wants_promiscuous(s: &Scenario) -> bool {
    s.routing
        .as_ref()
        .is_some_and(|r| protocol(r.protocol).is_some_and(|p| (p.promiscuous)(r)))
}

/// `path` must be positive when given.
pub(crate) fn positive(path: &str, d: Option<Duration>) -> Result<(), ScenarioError> {
    match d {
        Some(d) if d.0 .0 == 0 => Err(ScenarioError::at(path, "must be positive")),
        _ => Ok(()),
    }
}

/// `path` must be at least 1 when given.
pub(crate) fn at_least_one(path: &str, n: Option<u32>) -> Result<(), ScenarioError> {
    match n {
        Some(0) => Err(ScenarioError::at(path, "must be at least 1")),
        _ => Ok(()),
    }
}
