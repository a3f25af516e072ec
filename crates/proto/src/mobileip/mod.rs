//! Mobile IPv4 (RFC 5944) as sans-IO state machines: a [`MobilityAgent`] (home agent, foreign
//! agent, or both) and a [`MobileNode`].
//!
//! Agents broadcast Agent Advertisements on their access network ("cell") every
//! [`MipConfig::advertisement_interval`] and answer Agent Solicitations (§2). A mobile node
//! listens to advertisements, detects movement by their lifetime (§2.4.2.1) or by a layer-2
//! trigger, and registers a foreign agent's care-of address with its home agent through that
//! foreign agent (§3.6, §3.7, §3.8); back home it deregisters directly with the home agent
//! (§3.6.1.2). The engine moves the bytes: every output is a [`MipTransmit`] (a complete ICMP
//! message or UDP datagram plus the IP fields and whether it goes on the cell or is routed),
//! and asks [`MobilityAgent::care_of`] / [`MobilityAgent::is_visitor`] /
//! [`MobileNode::attachment`] to tunnel and route data packets (IP in IP, RFC 2003, is the
//! engine's job with `sctpsim_wire::mip::ipip`).
//!
//! Call order, as everywhere in this crate (DESIGN.md §1.1): `handle_*(now, …)`, then drain
//! `poll_transmit()` and `poll_event()`, then re-arm the wake-up from `poll_timeout()`. A
//! wake-up when nothing is due is a no-op. Nothing here panics on packet content: a message that
//! does not parse, has a bad checksum or is not addressed to this machine is counted in
//! [`MipCounters`] and dropped. There is no randomness; the engine may stagger the agents' first
//! advertisements with [`MobilityAgent::set_first_advertisement`] from a keyed stream.
//!
//! Scope (see `docs/models/mobileip.md`): foreign-agent care-of addresses only (no co-located
//! care-of address), one binding per mobile node (the S bit is never set), no reverse tunnelling
//! (triangle routing), and no authentication computation: requests and replies carry a
//! Mobile-Home Authentication Extension (§3.5.2, required by §3.6.1.3 and §3.8.2.1) whose
//! authenticator is a fixed placeholder of 16 zero bytes (the size of the default HMAC-MD5,
//! §3.5.1); the home agent only checks that the extension is present.
//!
//! # How ns-2.35 decides (mobile/mip-reg.cc, `MIPMHAgent::recv`/`timeout`)
//!
//! ns-2's mobile node keeps a list of agents heard; an entry expires `beacon_` (1 s) after the
//! agent's last advertisement (lines 306, 319 — the advertised lifetime is stored but not used
//! for expiry) and the list is swept every `beacon_` (line 367), so a lost agent is noticed
//! 1–2 s after its last advertisement. An advertisement from an agent *not in the list* makes
//! it the current agent at once and triggers a registration (lines 317–327) — ns-2 switches
//! eagerly to any newly heard agent, it does not wait for the old one to be lost. An
//! advertisement from the current agent triggers a re-registration every time (lines 311–314).
//! When the current agent expires, the node registers with the head of the list (the most
//! recently heard agent, lines 411–415), or solicits if the list is empty (line 409). Every
//! request re-arms a fixed `reg_rtx_` (0.5 s) retransmission timer (line 408), cancelled only
//! by a reply for the current care-of address (lines 291–294); with no agent the same timer
//! sends a solicitation every 0.5 s. [`MipConfig::ns2`] reproduces this with
//! [`MipConfig::switch_on_new_agent`], [`MipConfig::reregister_on_advertisement`], a fixed
//! retransmission interval and 0.5 s solicitations; the one difference is the loss detection
//! delay (the advertised lifetime, 2 s, instead of ns-2's swept 1 s expiry, 1–2 s).

mod agent;
mod node;
#[cfg(test)]
mod tests;

pub use agent::MobilityAgent;
pub use node::MobileNode;

use sctpsim_kernel::{SimDuration, SimTime};
use sctpsim_wire::ipv4::IpProtocol;
use sctpsim_wire::mip::{Extension, REGISTRATION_PORT};
use sctpsim_wire::{UdpPacket, UdpRepr};
use std::net::Ipv4Addr;

/// UDP source port of the mobile node's registration requests: 49152, the first port of the
/// IANA dynamic range (RFC 6335 §6). RFC 5944 §3.6.1.1 only says "variable"; the reply comes
/// back to it (§3.8.3.1: the reply's destination port is the request's source port).
pub const MOBILE_NODE_PORT: u16 = 49152;

/// The SPI of the placeholder Mobile-Home Authentication Extension: 256, the first value not
/// reserved (RFC 5944 §3.5.1 reserves 0..=255).
pub const PLACEHOLDER_SPI: u32 = 256;

/// The placeholder authenticator: 16 zero bytes, the length of the default keyed HMAC-MD5
/// (RFC 5944 §3.5.1). Computing a real authenticator is out of scope.
pub const PLACEHOLDER_AUTHENTICATOR: [u8; 16] = [0; 16];

/// IP TTL of routed registration messages (FA→HA, HA→FA): 64, the usual host default
/// (RFC 1700 "Assigned Numbers"). Messages on the cell use TTL 1.
pub const ROUTED_TTL: u8 = 64;

/// The limited broadcast address that advertisements and solicitations go to (RFC 5944 §2.3 and
/// §2.4 allow it or the all-systems / all-routers multicast addresses; sctpsim always uses
/// 255.255.255.255, as ns-2 does with `IP_BROADCAST`, mip-reg.cc `sendOutBCastPkt`).
pub const BROADCAST: Ipv4Addr = Ipv4Addr::BROADCAST;

/// How a mobile node notices that it has moved (RFC 5944 §2.4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MovementDetection {
    /// §2.4.2.1 (Algorithm 1): the current agent is lost when its advertisement's Lifetime
    /// elapses without a new advertisement from it.
    Lifetime,
    /// A layer-2 trigger: the engine calls [`MobileNode::handle_link_change`] when the MH
    /// attaches to a new cell (e.g. 802.11 reassociation); the MH forgets the agents of the old
    /// cell and solicits at once. The lifetime rule still applies as a fallback.
    LinkLayer,
}

/// Mobile IP parameters of agents and mobile nodes. Build with [`MipConfig::rfc`] or
/// [`MipConfig::ns2`] and override fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MipConfig {
    /// Period of the agents' unsolicited advertisements.
    pub advertisement_interval: SimDuration,
    /// The ICMP Lifetime of an advertisement: how long the MH may consider the agent present
    /// without hearing it again. Sent in whole seconds, rounded up (at most 65535 s).
    pub advertisement_lifetime: SimDuration,
    /// The registration lifetime the MH requests; also the agents' maximum (the FA advertises
    /// it in the Mobility Agent Advertisement Extension, the HA grants at most this). Whole
    /// seconds on the wire, rounded up, at most 65534 s (0xffff would mean "infinite").
    pub registration_lifetime: SimDuration,
    /// The MH retransmits an unanswered registration request after this long (the first
    /// timeout; see [`MipConfig::retransmit_backoff`]).
    pub registration_retransmit: SimDuration,
    /// Double the retransmission timeout after each retransmission, up to the requested
    /// lifetime (RFC 5944 §3.6.3), or keep it fixed (ns-2).
    pub retransmit_backoff: bool,
    /// How the MH detects movement.
    pub movement_detection: MovementDetection,
    /// While it knows no agent, the MH solicits at this interval.
    pub solicitation_interval: SimDuration,
    /// After [`INITIAL_SOLICITATIONS`] solicitations at `solicitation_interval`, double the
    /// interval up to [`MAX_SOLICITATION_INTERVAL`] (RFC 5944 §2.4), or keep it fixed (ns-2).
    pub solicitation_backoff: bool,
    /// ns-2 behaviour: an advertisement from an agent the MH has not heard recently makes it
    /// the current agent at once, even while the current one is still valid. Off (RFC 5944
    /// §2.4.2.1): switch only when the current agent is lost.
    pub switch_on_new_agent: bool,
    /// ns-2 behaviour: every advertisement from the current foreign agent triggers a
    /// re-registration. Off: re-register only when three quarters of the granted lifetime have
    /// passed (and on an agent reboot, §2.4.4).
    pub reregister_on_advertisement: bool,
}

/// RFC 5944 §2.4: a mobile node may send three initial solicitations at up to one per second.
pub const INITIAL_SOLICITATIONS: u32 = 3;
/// RFC 5944 §2.4: with backoff, the solicitation interval grows to at most one minute.
pub const MAX_SOLICITATION_INTERVAL: SimDuration = SimDuration::from_secs(60);

impl MipConfig {
    /// Defaults from RFC 5944 where it gives one:
    /// * advertisement interval 1 s: §2.3 lets mobility agents advertise up to once per second
    ///   (relaxing RFC 1256), the fastest allowed and the one handover studies use;
    /// * advertisement lifetime 3 s: three times the interval, RFC 1256 §4.1's
    ///   AdvertisementLifetime = 3 × MaxAdvertisementInterval, which §2.3 keeps;
    /// * registration lifetime 300 s: sctpsim's choice, RFC 5944 sets no default;
    /// * retransmission 2 s, doubling (§3.6.3: the first timeout at least twice the round trip
    ///   to the home agent plus 100 ms — 1.7 s for the study's 0.8 s FA↔HA round trip — then
    ///   at least doubling, up to the requested lifetime);
    /// * Lifetime movement detection (§2.4.2.1);
    /// * solicitations every 1 s, three, then doubling to 60 s (§2.4);
    /// * lazy switching and re-registration at 3/4 of the granted lifetime.
    pub fn rfc() -> Self {
        MipConfig {
            advertisement_interval: SimDuration::from_secs(1),
            advertisement_lifetime: SimDuration::from_secs(3),
            registration_lifetime: SimDuration::from_secs(300),
            registration_retransmit: SimDuration::from_secs(2),
            retransmit_backoff: true,
            movement_detection: MovementDetection::Lifetime,
            solicitation_interval: SimDuration::from_secs(1),
            solicitation_backoff: true,
            switch_on_new_agent: false,
            reregister_on_advertisement: false,
        }
    }

    /// ns-2.35's defaults (git `hbatmit/ns2.35`):
    /// * advertisement interval 1 s: `beacon-period 1.0` in tcl/lib/ns-mip.tcl:160 (and
    ///   `beacon_(1.0)` in mobile/mip-reg.cc:110);
    /// * advertisement lifetime 2 s: `Agent/MIPBS set ad_lifetime_ 2`, tcl/lib/ns-default.tcl:1408;
    /// * registration lifetime 2 s: `Agent/MIPMH set reg_lifetime_ 2`, ns-default.tcl:1415 (the
    ///   request carries `MIN(reglftm_, adlftm_)`, mip-reg.cc:429);
    /// * retransmission 0.5 s, fixed: `Agent/MIPMH set reg_rtx_ 0.5`, ns-default.tcl:1412,
    ///   re-armed unchanged by every request (mip-reg.cc:408);
    /// * solicitations every 0.5 s while no agent is known (the same timer, mip-reg.cc:408–411);
    /// * eager switching to a newly heard agent and re-registration on every advertisement of
    ///   the current agent (mip-reg.cc:311–327; see the module documentation);
    /// * Lifetime detection (ns-2 expires agents 1–2 s after their last advertisement; here the
    ///   2 s advertised lifetime).
    pub fn ns2() -> Self {
        MipConfig {
            advertisement_interval: SimDuration::from_secs(1),
            advertisement_lifetime: SimDuration::from_secs(2),
            registration_lifetime: SimDuration::from_secs(2),
            registration_retransmit: SimDuration::from_millis(500),
            retransmit_backoff: false,
            movement_detection: MovementDetection::Lifetime,
            solicitation_interval: SimDuration::from_millis(500),
            solicitation_backoff: false,
            switch_on_new_agent: true,
            reregister_on_advertisement: true,
        }
    }

    /// The advertisement lifetime as sent: whole seconds, rounded up, saturating at 65535.
    pub fn advertisement_lifetime_s(&self) -> u16 {
        secs_ceil(self.advertisement_lifetime, u16::MAX)
    }

    /// The registration lifetime as sent: whole seconds, rounded up, at most 65534 (0xffff
    /// means infinite, RFC 5944 §3.3).
    pub fn registration_lifetime_s(&self) -> u16 {
        secs_ceil(self.registration_lifetime, u16::MAX - 1)
    }
}

impl Default for MipConfig {
    fn default() -> Self {
        MipConfig::rfc()
    }
}

fn secs_ceil(d: SimDuration, max: u16) -> u16 {
    let s = d.as_nanos().div_ceil(sctpsim_kernel::time::NANOS_PER_SEC);
    u16::try_from(s).unwrap_or(max).min(max)
}

/// A lifetime in seconds from the wire as a duration; 0xffff is infinite (RFC 5944 §3.3).
pub(crate) fn lifetime_from_wire(s: u16) -> Option<SimDuration> {
    (s != sctpsim_wire::mip::registration::INFINITE_LIFETIME_S)
        .then(|| SimDuration::from_secs(u64::from(s)))
}

/// A period used to re-arm a timer: zero would make the engine spin, so at least 1 ms.
pub(crate) fn at_least_1ms(d: SimDuration) -> SimDuration {
    d.max(SimDuration::from_millis(1))
}

/// Deadline `lifetime` after `from`; an infinite lifetime never expires.
pub(crate) fn deadline(from: SimTime, lifetime_s: u16) -> SimTime {
    lifetime_from_wire(lifetime_s).map_or(SimTime::NEVER, |d| from + d)
}

/// How an output leaves the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MipLink {
    /// Route by destination as usual.
    Routed,
    /// Send on the access (wireless) interface directly to `dst` — a broadcast, or a message
    /// to a node on the cell (FA→visitor reply to the MH's home address, MH→FA request).
    Cell,
}

/// One message for the engine to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MipTransmit {
    /// IP source.
    pub src: Ipv4Addr,
    /// IP destination.
    pub dst: Ipv4Addr,
    /// IP TTL.
    pub ttl: u8,
    /// [`IpProtocol::Icmp`] (advertisement, solicitation) or [`IpProtocol::Udp`] (registration).
    pub protocol: IpProtocol,
    /// The whole ICMP message, or the whole UDP datagram (header and data, checksum over the
    /// `src`/`dst` pseudo-header).
    pub payload: Vec<u8>,
    /// Cell or routed.
    pub link: MipLink,
}

/// Where the mobile node is, for routing its own packets (triangle routing: the MH sends to
/// correspondents directly, through `agent` as its default router).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attachment {
    /// On the home network; `agent` is the home agent (the default router).
    Home {
        /// The home agent's address.
        agent: Ipv4Addr,
    },
    /// On a foreign network, served by the foreign agent `agent`.
    Foreign {
        /// The foreign agent's address (the default router, RFC 5944 §4.2.2).
        agent: Ipv4Addr,
        /// The care-of address it advertised.
        care_of: Ipv4Addr,
        /// Whether an accepted registration of this care-of address is unexpired.
        registered: bool,
    },
    /// No agent known.
    Detached,
}

/// Something that happened, for a handoff timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MipEvent {
    /// MH: an advertisement was heard; `new` if the agent was not in the list.
    AgentHeard {
        /// The agent's address.
        agent: Ipv4Addr,
        /// Not heard (unexpired) before.
        new: bool,
    },
    /// MH: the current agent was lost (lifetime expiry, link change, or zero lifetime).
    AgentLost {
        /// The agent's address.
        agent: Ipv4Addr,
    },
    /// MH: the current agent changed (`None`: detached).
    AgentChanged {
        /// The new agent.
        agent: Option<Ipv4Addr>,
        /// It is the home agent.
        home: bool,
    },
    /// MH: a solicitation was sent.
    SolicitationSent,
    /// MH: a registration request was sent (`care_of` is the home address for a
    /// deregistration).
    RegistrationSent {
        /// The care-of address requested.
        care_of: Ipv4Addr,
        /// A retransmission of an unanswered request.
        retransmission: bool,
    },
    /// MH: a reply matching a pending request arrived.
    ReplyReceived {
        /// The reply code (RFC 5944 §3.4).
        code: u8,
        /// Codes below 64.
        accepted: bool,
    },
    /// MH: the accepted registration's lifetime ended before a renewal was accepted.
    RegistrationExpired {
        /// The care-of address that was registered.
        care_of: Ipv4Addr,
    },
    /// HA: the binding of `home` changed (`None`: removed or expired).
    BindingUpdated {
        /// The mobile node's home address.
        home: Ipv4Addr,
        /// The new care-of address.
        care_of: Option<Ipv4Addr>,
    },
    /// FA: a visitor was added.
    VisitorAdded {
        /// The visitor's home address.
        home: Ipv4Addr,
    },
    /// FA: a visitor was removed (deregistration or expiry).
    VisitorRemoved {
        /// The visitor's home address.
        home: Ipv4Addr,
    },
}

/// What an agent or mobile node did and dropped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MipCounters {
    /// Agent: advertisements sent (periodic and solicited).
    pub advertisements_sent: u64,
    /// Agent: solicitations answered.
    pub solicitations_answered: u64,
    /// MH: valid advertisements heard.
    pub advertisements_heard: u64,
    /// MH: solicitations sent.
    pub solicitations_sent: u64,
    /// MH: registration requests sent, retransmissions included.
    pub requests_sent: u64,
    /// MH: of which retransmissions.
    pub requests_retransmitted: u64,
    /// FA: requests relayed to a home agent.
    pub requests_relayed: u64,
    /// HA: requests accepted.
    pub requests_accepted: u64,
    /// HA or FA: requests denied.
    pub requests_denied: u64,
    /// HA or FA (own denials): replies sent.
    pub replies_sent: u64,
    /// FA: replies relayed to a visitor.
    pub replies_relayed: u64,
    /// MH: replies matching a pending request.
    pub replies_received: u64,
    /// Input that did not parse or had a bad checksum.
    pub malformed: u64,
    /// Well-formed input that did not concern this machine (wrong port, unknown request, stale
    /// reply, request for another home agent, link change without LinkLayer detection).
    pub ignored: u64,
    /// HA: bindings that expired; FA: visitor entries that expired.
    pub expired: u64,
}

/// The Mobile-Home Authentication Extension with the placeholder authenticator.
pub(crate) fn placeholder_auth() -> Extension {
    Extension::mobile_home_auth(PLACEHOLDER_SPI, &PLACEHOLDER_AUTHENTICATOR)
}

/// A UDP datagram (header + data) from `src`:`sport` to `dst`:`dport` with its real checksum.
pub(crate) fn udp_bytes(
    src: Ipv4Addr,
    dst: Ipv4Addr,
    sport: u16,
    dport: u16,
    data: &[u8],
) -> Vec<u8> {
    let repr = UdpRepr {
        src_port: sport,
        dst_port: dport,
    };
    let mut buf = vec![0u8; repr.buffer_len(data.len())];
    repr.emit(
        &mut UdpPacket::new_unchecked(&mut buf[..]),
        src,
        dst,
        data.len(),
        |out| out.copy_from_slice(data),
    );
    buf
}

/// Checks a UDP datagram carried from `src` to `dst` (length, checksum); returns its ports and
/// data.
pub(crate) fn parse_udp(src: Ipv4Addr, dst: Ipv4Addr, udp: &[u8]) -> Option<(UdpRepr, &[u8])> {
    let packet = UdpPacket::new_checked(udp).ok()?;
    let repr = UdpRepr::parse(&packet, src, dst).ok()?;
    let len = usize::from(packet.len()).min(udp.len());
    Some((repr, udp.get(UdpRepr::HEADER_LEN..len)?))
}

/// A registration message on UDP: `sport` → `dport`.
pub(crate) fn registration_transmit(
    src: Ipv4Addr,
    dst: Ipv4Addr,
    sport: u16,
    dport: u16,
    message: &[u8],
    ttl: u8,
    link: MipLink,
) -> MipTransmit {
    MipTransmit {
        src,
        dst,
        ttl,
        protocol: IpProtocol::Udp,
        payload: udp_bytes(src, dst, sport, dport, message),
        link,
    }
}

/// The registration port, re-exported for the engine's demultiplexing.
pub const REGISTRATION_UDP_PORT: u16 = REGISTRATION_PORT;
