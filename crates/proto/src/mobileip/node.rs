//! The mobile node (RFC 5944 §2.4 agent discovery and movement detection, §3.6 registration).

use super::{
    at_least_1ms, deadline, parse_udp, placeholder_auth, registration_transmit, Attachment,
    MipConfig, MipCounters, MipEvent, MipLink, MipTransmit, MovementDetection, BROADCAST,
    INITIAL_SOLICITATIONS, MAX_SOLICITATION_INTERVAL, MOBILE_NODE_PORT,
};
use sctpsim_kernel::time::NANOS_PER_SEC;
use sctpsim_kernel::{SimDuration, SimTime};
use sctpsim_wire::ipv4::IpProtocol;
use sctpsim_wire::mip::advert::{DISCOVERY_TTL, SEQUENCE_WRAP_TO};
use sctpsim_wire::mip::{
    AgentAdvertisementPacket, AgentAdvertisementRepr, AgentSolicitationRepr, RegistrationFlags,
    RegistrationMessage, RegistrationRequestRepr, REGISTRATION_PORT,
};
use std::collections::{BTreeMap, VecDeque};
use std::net::Ipv4Addr;

/// Identifications of one pending request that a reply may match: the first transmission and
/// the latest retransmissions (a reply to an earlier copy still counts, as in ns-2, which
/// matches replies by care-of address only, mip-reg.cc:291).
const MAX_IDENTS: usize = 16;

/// An agent heard on the cell.
#[derive(Debug, Clone, Copy)]
struct HeardAgent {
    /// Care-of address advertised (foreign agents); `None` for the home agent.
    care_of: Option<Ipv4Addr>,
    /// Maximum registration lifetime it advertised (§2.1.1).
    registration_lifetime_s: u16,
    last_sequence: u16,
    heard_at: SimTime,
    expires: SimTime,
}

/// A registration request awaiting its reply.
#[derive(Debug, Clone)]
struct Pending {
    agent: Ipv4Addr,
    /// Care-of address requested; the home address for a deregistration.
    care_of: Ipv4Addr,
    dereg: bool,
    lifetime_s: u16,
    /// (identification, time sent) of each transmission, newest last.
    idents: Vec<(u64, SimTime)>,
    interval: SimDuration,
    rtx_at: SimTime,
}

/// An accepted registration of a foreign agent's care-of address.
#[derive(Debug, Clone, Copy)]
struct Registration {
    agent: Ipv4Addr,
    care_of: Ipv4Addr,
    expires: SimTime,
    renew_at: SimTime,
}

/// A mobile node with one home address and one home agent.
///
/// Agent discovery (§2.4): every valid advertisement heard refreshes the agent's entry for its
/// advertised Lifetime. With no current agent, the MH attaches to the agent it hears, or
/// solicits. With [`MovementDetection::Lifetime`] (§2.4.2.1) the current agent is lost when its
/// entry expires; the MH then attaches to the most recently heard unexpired agent, or solicits.
/// With [`MovementDetection::LinkLayer`], [`MobileNode::handle_link_change`] loses it at once.
///
/// Registration (§3.6): attached to a foreign agent, the MH sends a request to it (TTL 1, from
/// its home address and port [`MOBILE_NODE_PORT`] to port 434, §3.6.1.1) for the agent's
/// care-of address with the lifetime `min(registration_lifetime, the agent's advertised
/// registration lifetime)` (§3.6.1.2). At home, if a registration elsewhere may be in force,
/// it deregisters directly with the home agent (lifetime 0, care-of = home address, §3.6.1.2,
/// §2.4.3). Identification (§5.7): a timestamp in NTP format (seconds in the high 32 bits,
/// fraction of a second in the low 32) from the simulation clock, kept strictly increasing,
/// new for every transmission. Unanswered requests are retransmitted (§3.6.3, see
/// [`MipConfig::retransmit_backoff`]); an accepted registration is renewed at three quarters of
/// its lifetime (counted from when the request was sent, §3.6.2), or on every advertisement
/// from the agent with [`MipConfig::reregister_on_advertisement`].
#[derive(Debug, Clone)]
pub struct MobileNode {
    cfg: MipConfig,
    home_addr: Ipv4Addr,
    home_agent: Ipv4Addr,
    agents: BTreeMap<Ipv4Addr, HeardAgent>,
    current: Option<Ipv4Addr>,
    pending: Option<Pending>,
    registration: Option<Registration>,
    /// The home agent may hold a binding for us (a request away from home was sent since the
    /// last accepted deregistration): returning home needs a deregistration.
    maybe_bound: bool,
    last_ident: u64,
    /// Next solicitation while detached.
    solicit_at: Option<SimTime>,
    solicitations_in_row: u32,
    solicit_interval: SimDuration,
    out: VecDeque<MipTransmit>,
    events: VecDeque<MipEvent>,
    counters: MipCounters,
}

impl MobileNode {
    /// A mobile node with home address `home_addr` whose home agent is `home_agent` (the
    /// agent's cell address). It starts detached and waits for an advertisement; it first
    /// solicits after one [`MipConfig::solicitation_interval`] (or at once after a link change).
    pub fn new(cfg: MipConfig, home_addr: Ipv4Addr, home_agent: Ipv4Addr) -> Self {
        let solicit_interval = cfg.solicitation_interval;
        MobileNode {
            home_addr,
            home_agent,
            agents: BTreeMap::new(),
            current: None,
            pending: None,
            registration: None,
            maybe_bound: false,
            last_ident: 0,
            solicit_at: Some(SimTime::ZERO + solicit_interval),
            solicitations_in_row: 0,
            solicit_interval,
            out: VecDeque::new(),
            events: VecDeque::new(),
            counters: MipCounters::default(),
            cfg,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MipConfig {
        &self.cfg
    }

    /// The home address.
    pub fn home_addr(&self) -> Ipv4Addr {
        self.home_addr
    }

    /// The home agent's address.
    pub fn home_agent(&self) -> Ipv4Addr {
        self.home_agent
    }

    /// Counters.
    pub fn counters(&self) -> &MipCounters {
        &self.counters
    }

    /// An ICMP message heard on the cell from `src` that should be an Agent Advertisement
    /// (§2.1). Malformed messages, and advertisements without the Mobility Agent Advertisement
    /// Extension (plain router advertisements), are counted and ignored; so are advertisements
    /// of agents that cannot serve this MH (another node's home agent that is not a foreign
    /// agent, a busy foreign agent, a foreign agent without a care-of address).
    pub fn handle_advertisement(&mut self, now: SimTime, src: Ipv4Addr, icmp: &[u8]) {
        let repr = match AgentAdvertisementPacket::new_checked(icmp)
            .and_then(|p| AgentAdvertisementRepr::parse(&p))
        {
            Ok(repr) => repr,
            Err(_) => {
                self.counters.malformed += 1;
                return;
            }
        };
        let is_home = src == self.home_agent;
        let flags = repr.mobility.flags;
        let care_of = if is_home {
            None
        } else if flags.foreign_agent && !flags.busy {
            match repr.mobility.care_of_addresses.first() {
                Some(c) => Some(*c),
                None => {
                    self.counters.ignored += 1;
                    return;
                }
            }
        } else {
            self.counters.ignored += 1;
            return;
        };
        self.counters.advertisements_heard += 1;
        let seq = repr.mobility.sequence_number;
        // RFC 1256: a zero lifetime withdraws the router (the agent is going away).
        if repr.lifetime_s == 0 {
            if self.agents.remove(&src).is_some() && self.current == Some(src) {
                self.lose_current(now);
            }
            return;
        }
        let expires = now + SimDuration::from_secs(u64::from(repr.lifetime_s));
        let previous = self.agents.get(&src).copied().filter(|a| a.expires > now);
        let new = previous.is_none();
        self.agents.insert(
            src,
            HeardAgent {
                care_of,
                registration_lifetime_s: repr.mobility.registration_lifetime_s,
                last_sequence: seq,
                heard_at: now,
                expires,
            },
        );
        self.events
            .push_back(MipEvent::AgentHeard { agent: src, new });
        match self.current {
            None => self.attach(now, src),
            Some(cur) if cur == src => {
                // §2.4.4: a sequence number that drops below 256 means the agent rebooted and
                // lost its bindings: register again.
                let rebooted =
                    previous.is_some_and(|p| seq < p.last_sequence) && seq < SEQUENCE_WRAP_TO;
                let ns2_refresh = self.cfg.reregister_on_advertisement && !is_home;
                if (rebooted || ns2_refresh) && self.pending.is_none() {
                    self.register(now, src);
                }
            }
            Some(_) => {
                if new && self.cfg.switch_on_new_agent {
                    self.switch_to(now, src);
                }
            }
        }
    }

    /// A UDP datagram from `src` to the home address that should be a Registration Reply
    /// (§3.6.2). It must come from port 434 and match a pending request (home address, home
    /// agent and the identification of one of its transmissions); otherwise it is counted
    /// and ignored.
    pub fn handle_registration_reply(&mut self, now: SimTime, src: Ipv4Addr, udp: &[u8]) {
        let Some((ports, data)) = parse_udp(src, self.home_addr, udp) else {
            self.counters.malformed += 1;
            return;
        };
        let reply = match RegistrationMessage::parse(data) {
            Ok(RegistrationMessage::Reply(reply)) => reply,
            Ok(RegistrationMessage::Request(_)) => {
                self.counters.ignored += 1;
                return;
            }
            Err(_) => {
                self.counters.malformed += 1;
                return;
            }
        };
        if ports.src_port != REGISTRATION_PORT
            || reply.home_address != self.home_addr
            || reply.home_agent != self.home_agent
        {
            self.counters.ignored += 1;
            return;
        }
        let Some(sent_at) = self.pending.as_ref().and_then(|p| {
            p.idents
                .iter()
                .find(|(id, _)| *id == reply.identification)
                .map(|(_, t)| *t)
        }) else {
            self.counters.ignored += 1;
            return;
        };
        let Some(pending) = self.pending.take() else {
            return;
        };
        self.counters.replies_received += 1;
        let code = u8::from(reply.code);
        let accepted = reply.code.is_accepted();
        self.events
            .push_back(MipEvent::ReplyReceived { code, accepted });
        if !accepted {
            // A denial ends this attempt; the next handoff (or, with re-registration on
            // advertisements, the next advertisement) tries again.
            return;
        }
        if pending.dereg {
            self.maybe_bound = false;
            self.registration = None;
            return;
        }
        if reply.lifetime_s == 0 {
            return;
        }
        let expires = deadline(sent_at, reply.lifetime_s);
        let renew_at = if expires == SimTime::NEVER {
            SimTime::NEVER
        } else {
            let lifetime = expires - sent_at;
            sent_at + SimDuration::from_nanos(lifetime.as_nanos() / 4 * 3)
        };
        if expires > now {
            self.registration = Some(Registration {
                agent: pending.agent,
                care_of: pending.care_of,
                expires,
                renew_at,
            });
        }
    }

    /// A layer-2 trigger: the MH is on a new cell. With [`MovementDetection::LinkLayer`] it
    /// forgets every agent heard on the old cell, treats the current agent as lost and solicits
    /// at once. With [`MovementDetection::Lifetime`] it is ignored (counted).
    pub fn handle_link_change(&mut self, now: SimTime) {
        if self.cfg.movement_detection != MovementDetection::LinkLayer {
            self.counters.ignored += 1;
            return;
        }
        self.agents.clear();
        if self.current.is_some() {
            self.lose_current(now);
        } else {
            self.solicit_now(now);
        }
    }

    /// The earliest deadline: agent expiry, retransmission, renewal, registration expiry,
    /// solicitation.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        let agents = self.agents.values().map(|a| a.expires);
        let pending = self.pending.as_ref().map(|p| p.rtx_at);
        // A renewal waits while a request is pending (it would be a no-op).
        let renewing = self.pending.is_none();
        let reg = self
            .registration
            .iter()
            .flat_map(|r| [if renewing { r.renew_at } else { r.expires }, r.expires]);
        agents
            .chain(pending)
            .chain(reg)
            .chain(self.solicit_at)
            .filter(|t| *t != SimTime::NEVER)
            .min()
    }

    /// Expires agents (the Lifetime rule, §2.4.2.1), retransmits an unanswered request
    /// (§3.6.3), renews a registration, notes its expiry, and solicits while detached (§2.4).
    pub fn handle_timeout(&mut self, now: SimTime) {
        let expired: Vec<Ipv4Addr> = self
            .agents
            .iter()
            .filter(|(_, a)| a.expires <= now)
            .map(|(addr, _)| *addr)
            .collect();
        let mut lost = false;
        for addr in expired {
            self.agents.remove(&addr);
            lost |= self.current == Some(addr);
        }
        if lost {
            self.lose_current(now);
        }
        if let Some(reg) = self.registration {
            if reg.expires <= now {
                self.registration = None;
                self.events.push_back(MipEvent::RegistrationExpired {
                    care_of: reg.care_of,
                });
            } else if reg.renew_at <= now && self.pending.is_none() {
                self.register(now, reg.agent);
                if let Some(r) = self.registration.as_mut() {
                    r.renew_at = SimTime::NEVER;
                }
            }
        }
        if self.pending.as_ref().is_some_and(|p| p.rtx_at <= now) {
            self.retransmit(now);
        }
        if self.current.is_none() && self.solicit_at.is_some_and(|t| t <= now) {
            self.send_solicitation(now);
        }
    }

    /// Next message to send.
    pub fn poll_transmit(&mut self) -> Option<MipTransmit> {
        self.out.pop_front()
    }

    /// Where the MH is, for routing its own packets.
    pub fn attachment(&self) -> Attachment {
        match self.current {
            None => Attachment::Detached,
            Some(agent) if agent == self.home_agent => Attachment::Home { agent },
            Some(agent) => {
                let care_of = self
                    .agents
                    .get(&agent)
                    .and_then(|a| a.care_of)
                    .unwrap_or(agent);
                let registered = self
                    .registration
                    .is_some_and(|r| r.agent == agent && r.care_of == care_of);
                Attachment::Foreign {
                    agent,
                    care_of,
                    registered,
                }
            }
        }
    }

    /// Next event.
    pub fn poll_event(&mut self) -> Option<MipEvent> {
        self.events.pop_front()
    }

    /// The current agent is gone: forget its registration state, attach to the most recently
    /// heard unexpired agent (§2.4.2.1), or detach and solicit.
    fn lose_current(&mut self, now: SimTime) {
        if let Some(agent) = self.current.take() {
            self.events.push_back(MipEvent::AgentLost { agent });
        }
        self.pending = None;
        self.registration = None;
        let best = self
            .agents
            .iter()
            .filter(|(_, a)| a.expires > now)
            .max_by_key(|(addr, a)| (a.heard_at, std::cmp::Reverse(**addr)))
            .map(|(addr, _)| *addr);
        match best {
            Some(agent) => self.attach(now, agent),
            None => {
                self.events.push_back(MipEvent::AgentChanged {
                    agent: None,
                    home: false,
                });
                self.solicit_now(now);
            }
        }
    }

    /// Leaves the current agent for `agent` while the current one is still valid.
    fn switch_to(&mut self, now: SimTime, agent: Ipv4Addr) {
        self.pending = None;
        self.registration = None;
        self.attach(now, agent);
    }

    fn attach(&mut self, now: SimTime, agent: Ipv4Addr) {
        self.current = Some(agent);
        self.solicit_at = None;
        self.solicitations_in_row = 0;
        self.solicit_interval = self.cfg.solicitation_interval;
        let home = agent == self.home_agent;
        self.events.push_back(MipEvent::AgentChanged {
            agent: Some(agent),
            home,
        });
        if !home || self.maybe_bound {
            self.register(now, agent);
        }
    }

    /// Sends a new request (not a retransmission) through/to `agent`.
    fn register(&mut self, now: SimTime, agent: Ipv4Addr) {
        let Some(heard) = self.agents.get(&agent).copied() else {
            return;
        };
        let dereg = agent == self.home_agent;
        let (care_of, lifetime_s) = if dereg {
            (self.home_addr, 0)
        } else {
            let Some(care_of) = heard.care_of else {
                return;
            };
            self.maybe_bound = true;
            let lifetime = self
                .cfg
                .registration_lifetime_s()
                .min(heard.registration_lifetime_s);
            (care_of, lifetime)
        };
        let interval = at_least_1ms(self.cfg.registration_retransmit);
        self.pending = Some(Pending {
            agent,
            care_of,
            dereg,
            lifetime_s,
            idents: Vec::new(),
            interval,
            rtx_at: now + interval,
        });
        self.transmit_request(now, false);
    }

    /// §3.6.3: a retransmission with a new identification; the timeout doubles up to the
    /// requested lifetime with backoff, else stays fixed.
    fn retransmit(&mut self, now: SimTime) {
        let Some(p) = self.pending.as_mut() else {
            return;
        };
        if self.cfg.retransmit_backoff {
            let cap = SimDuration::from_secs(u64::from(p.lifetime_s)).max(p.interval);
            p.interval = p.interval.saturating_mul(2).min(cap);
        }
        p.rtx_at = now + p.interval;
        self.counters.requests_retransmitted += 1;
        self.transmit_request(now, true);
    }

    fn transmit_request(&mut self, now: SimTime, retransmission: bool) {
        let ident = self.next_identification(now);
        let Some(p) = self.pending.as_mut() else {
            return;
        };
        if p.idents.len() >= MAX_IDENTS {
            p.idents.remove(0);
        }
        p.idents.push((ident, now));
        let req = RegistrationRequestRepr {
            flags: RegistrationFlags::default(),
            lifetime_s: p.lifetime_s,
            home_address: self.home_addr,
            home_agent: self.home_agent,
            care_of_address: p.care_of,
            identification: ident,
            extensions: vec![placeholder_auth()],
        };
        // §3.6.1.1: to the foreign agent (the advertisement's source) or, at home, directly to
        // the home agent; both are on the cell, TTL 1.
        let dst = p.agent;
        let care_of = p.care_of;
        self.counters.requests_sent += 1;
        self.events.push_back(MipEvent::RegistrationSent {
            care_of,
            retransmission,
        });
        self.out.push_back(registration_transmit(
            self.home_addr,
            dst,
            MOBILE_NODE_PORT,
            REGISTRATION_PORT,
            &req.to_bytes(),
            DISCOVERY_TTL,
            MipLink::Cell,
        ));
    }

    /// §5.7 timestamp: NTP-style 32.32 fixed point seconds of simulation time, strictly
    /// increasing.
    fn next_identification(&mut self, now: SimTime) -> u64 {
        let ns = now.as_nanos();
        let secs = (ns / NANOS_PER_SEC) & 0xffff_ffff;
        let frac = ((ns % NANOS_PER_SEC) << 32) / NANOS_PER_SEC;
        let ts = (secs << 32) | frac;
        self.last_ident = ts.max(self.last_ident.wrapping_add(1));
        self.last_ident
    }

    fn solicit_now(&mut self, now: SimTime) {
        self.solicitations_in_row = 0;
        self.solicit_interval = self.cfg.solicitation_interval;
        self.send_solicitation(now);
    }

    /// §2.2 / §2.4: an Agent Solicitation to 255.255.255.255 with TTL 1 on the cell, from the
    /// home address. The next one follows after the solicitation interval; with backoff, after
    /// three the interval doubles up to one minute.
    fn send_solicitation(&mut self, now: SimTime) {
        self.counters.solicitations_sent += 1;
        self.events.push_back(MipEvent::SolicitationSent);
        self.out.push_back(MipTransmit {
            src: self.home_addr,
            dst: BROADCAST,
            ttl: DISCOVERY_TTL,
            protocol: IpProtocol::Icmp,
            payload: AgentSolicitationRepr.to_bytes(),
            link: MipLink::Cell,
        });
        self.solicitations_in_row = self.solicitations_in_row.saturating_add(1);
        if self.cfg.solicitation_backoff && self.solicitations_in_row >= INITIAL_SOLICITATIONS {
            self.solicit_interval = self
                .solicit_interval
                .saturating_mul(2)
                .min(MAX_SOLICITATION_INTERVAL.max(self.cfg.solicitation_interval));
        }
        self.solicit_at = Some(now + at_least_1ms(self.solicit_interval));
    }
}
