//! The mobility agent: home agent (RFC 5944 §3.8), foreign agent (§3.7), or both, and the
//! advertisements both send (§2.3).

use super::{
    at_least_1ms, deadline, parse_udp, placeholder_auth, registration_transmit, MipConfig,
    MipCounters, MipEvent, MipLink, MipTransmit, BROADCAST, ROUTED_TTL,
};
use sctpsim_kernel::SimTime;
use sctpsim_wire::ipv4::IpProtocol;
use sctpsim_wire::mip::advert::{next_sequence_number, DISCOVERY_TTL};
use sctpsim_wire::mip::{
    AgentAdvertisementRepr, AgentFlags, MobilityAgentExtension, RegistrationMessage,
    RegistrationReplyRepr, RegistrationRequestRepr, ReplyCode, RouterEntry, REGISTRATION_PORT,
};
use std::collections::{BTreeMap, VecDeque};
use std::net::Ipv4Addr;

/// HA: one mobility binding (§3.8.2.2); one per home address (no simultaneous bindings).
#[derive(Debug, Clone, Copy)]
struct Binding {
    care_of: Ipv4Addr,
    expires: SimTime,
}

/// FA: a visitor list entry (§3.7.1).
#[derive(Debug, Clone, Copy)]
struct Visitor {
    expires: SimTime,
}

/// FA: a request relayed to a home agent and not yet answered (§3.7.1 "pending registration
/// requests"), keyed by (home address, identification).
#[derive(Debug, Clone, Copy)]
struct PendingRelay {
    home_agent: Ipv4Addr,
    mh_port: u16,
    expires: SimTime,
}

/// A home agent, a foreign agent, or both, on one access network ("cell").
///
/// It advertises every [`MipConfig::advertisement_interval`]; the first advertisement is due at
/// time 0 (i.e. at the first [`MobilityAgent::handle_timeout`] the engine makes, which
/// [`MobilityAgent::poll_timeout`] asks for at once) unless
/// [`MobilityAgent::set_first_advertisement`] moves it (ns-2 draws it uniformly in one period,
/// mip-reg.cc:208).
#[derive(Debug, Clone)]
pub struct MobilityAgent {
    cfg: MipConfig,
    home: bool,
    foreign: bool,
    cell_addr: Ipv4Addr,
    /// Sequence number of the next advertisement (§2.3.2: 0 after a reboot).
    sequence: u16,
    next_advert: Option<SimTime>,
    bindings: BTreeMap<Ipv4Addr, Binding>,
    /// HA: highest identification accepted per home address (replay protection, §5.7).
    last_ident: BTreeMap<Ipv4Addr, u64>,
    visitors: BTreeMap<Ipv4Addr, Visitor>,
    pending: BTreeMap<(Ipv4Addr, u64), PendingRelay>,
    out: VecDeque<MipTransmit>,
    events: VecDeque<MipEvent>,
    counters: MipCounters,
}

impl MobilityAgent {
    /// An agent that is a home agent if `home`, a foreign agent if `foreign`. `cell_addr` is its
    /// address on the access network: the source of its advertisements, its home-agent address
    /// (as configured in the mobile nodes) and, for a foreign agent, the advertised care-of
    /// address.
    pub fn new(cfg: MipConfig, home: bool, foreign: bool, cell_addr: Ipv4Addr) -> Self {
        MobilityAgent {
            cfg,
            home,
            foreign,
            cell_addr,
            sequence: 0,
            next_advert: (home || foreign).then_some(SimTime::ZERO),
            bindings: BTreeMap::new(),
            last_ident: BTreeMap::new(),
            visitors: BTreeMap::new(),
            pending: BTreeMap::new(),
            out: VecDeque::new(),
            events: VecDeque::new(),
            counters: MipCounters::default(),
        }
    }

    /// Moves the first periodic advertisement to `at` (before it was sent), e.g. a random
    /// phase drawn by the engine from a keyed stream.
    pub fn set_first_advertisement(&mut self, at: SimTime) {
        if self.sequence == 0 && self.next_advert.is_some() {
            self.next_advert = Some(at);
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MipConfig {
        &self.cfg
    }

    /// The address on the access network.
    pub fn cell_addr(&self) -> Ipv4Addr {
        self.cell_addr
    }

    /// Counters.
    pub fn counters(&self) -> &MipCounters {
        &self.counters
    }

    /// The earliest deadline: next advertisement, binding, visitor or pending-relay expiry.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        let bindings = self.bindings.values().map(|b| b.expires);
        let visitors = self.visitors.values().map(|v| v.expires);
        let pending = self.pending.values().map(|p| p.expires);
        self.next_advert
            .into_iter()
            .chain(bindings)
            .chain(visitors)
            .chain(pending)
            .filter(|t| *t != SimTime::NEVER)
            .min()
    }

    /// Sends the advertisement that is due and expires bindings (§3.8.2.2: a binding is removed
    /// when its lifetime ends), visitor entries and pending relays.
    pub fn handle_timeout(&mut self, now: SimTime) {
        if let Some(at) = self.next_advert {
            if at <= now {
                self.send_advertisement(BROADCAST);
                self.next_advert = Some(now + at_least_1ms(self.cfg.advertisement_interval));
            }
        }
        let expired: Vec<Ipv4Addr> = self
            .bindings
            .iter()
            .filter(|(_, b)| b.expires <= now)
            .map(|(h, _)| *h)
            .collect();
        for home in expired {
            self.bindings.remove(&home);
            self.counters.expired += 1;
            self.events.push_back(MipEvent::BindingUpdated {
                home,
                care_of: None,
            });
        }
        let expired: Vec<Ipv4Addr> = self
            .visitors
            .iter()
            .filter(|(_, v)| v.expires <= now)
            .map(|(h, _)| *h)
            .collect();
        for home in expired {
            self.visitors.remove(&home);
            self.counters.expired += 1;
            self.events.push_back(MipEvent::VisitorRemoved { home });
        }
        self.pending.retain(|_, p| p.expires > now);
    }

    /// Answers an Agent Solicitation from `from` with an advertisement (§2.3: "in response to
    /// an Agent Solicitation"), unicast over the cell to `from`, or broadcast when `from` is
    /// unspecified (0.0.0.0) or itself a broadcast. The periodic schedule is unchanged.
    pub fn handle_solicitation(&mut self, _now: SimTime, from: Ipv4Addr) {
        if !(self.home || self.foreign) {
            self.counters.ignored += 1;
            return;
        }
        self.counters.solicitations_answered += 1;
        let dst = if from.is_unspecified() || from.is_broadcast() {
            BROADCAST
        } else {
            from
        };
        self.send_advertisement(dst);
    }

    /// A UDP datagram for port 434: a request from a visitor on the cell (FA: relay it to the
    /// HA, §3.7.2), a request addressed to this home agent (HA: answer, §3.8), or a reply from a
    /// home agent (FA: relay it to the visitor over the cell, §3.7.3). `udp` is the whole
    /// datagram, checked against the `src`/`dst` pseudo-header.
    pub fn handle_registration(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        udp: &[u8],
        from_cell: bool,
    ) {
        let Some((ports, data)) = parse_udp(src, dst, udp) else {
            self.counters.malformed += 1;
            return;
        };
        if ports.dst_port != REGISTRATION_PORT {
            self.counters.ignored += 1;
            return;
        }
        match RegistrationMessage::parse(data) {
            Err(_) => self.counters.malformed += 1,
            Ok(RegistrationMessage::Request(req)) => {
                if self.home && (req.home_agent == self.cell_addr || req.home_agent == dst) {
                    self.home_agent_request(now, src, dst, ports.src_port, &req, from_cell);
                } else if self.foreign && from_cell {
                    self.foreign_agent_request(now, src, ports.src_port, &req);
                } else {
                    self.counters.ignored += 1;
                }
            }
            Ok(RegistrationMessage::Reply(reply)) => {
                if self.foreign && !from_cell {
                    self.foreign_agent_reply(now, &reply);
                } else {
                    self.counters.ignored += 1;
                }
            }
        }
    }

    /// Next message to send.
    pub fn poll_transmit(&mut self) -> Option<MipTransmit> {
        self.out.pop_front()
    }

    /// HA: the care-of address of `home`'s unexpired binding; `None` when the mobile node is at
    /// home or not registered.
    pub fn care_of(&self, now: SimTime, home: Ipv4Addr) -> Option<Ipv4Addr> {
        self.bindings
            .get(&home)
            .filter(|b| b.expires > now)
            .map(|b| b.care_of)
    }

    /// FA: whether `home` has an unexpired visitor list entry.
    pub fn is_visitor(&self, now: SimTime, home: Ipv4Addr) -> bool {
        self.visitors.get(&home).is_some_and(|v| v.expires > now)
    }

    /// Next event.
    pub fn poll_event(&mut self) -> Option<MipEvent> {
        self.events.pop_front()
    }

    /// §2.1 / §2.3: an ICMP Router Advertisement (type 9, code 0: the agent also routes) with
    /// the agent itself as the one router entry (§2.3.1), the Mobility Agent Advertisement
    /// Extension (§2.1.1: sequence number, the maximum registration lifetime, H/F bits and,
    /// for a foreign agent, its care-of address), TTL 1 (§2.1), on the cell.
    fn send_advertisement(&mut self, dst: std::net::Ipv4Addr) {
        let repr = AgentAdvertisementRepr {
            mobility_only: false,
            lifetime_s: self.cfg.advertisement_lifetime_s(),
            routers: vec![RouterEntry {
                address: self.cell_addr,
                preference: 0,
            }],
            mobility: MobilityAgentExtension {
                sequence_number: self.sequence,
                registration_lifetime_s: self.cfg.registration_lifetime_s(),
                flags: AgentFlags {
                    home_agent: self.home,
                    foreign_agent: self.foreign,
                    ..AgentFlags::default()
                },
                care_of_addresses: if self.foreign {
                    vec![self.cell_addr]
                } else {
                    Vec::new()
                },
            },
            extensions: Vec::new(),
        };
        self.sequence = next_sequence_number(self.sequence);
        self.counters.advertisements_sent += 1;
        self.out.push_back(MipTransmit {
            src: self.cell_addr,
            dst,
            ttl: DISCOVERY_TTL,
            protocol: IpProtocol::Icmp,
            payload: repr.to_bytes(),
            link: MipLink::Cell,
        });
    }

    /// §3.8.2: validate (§3.8.2.1: a Mobile-Home Authentication Extension must be present —
    /// its authenticator is not checked; the identification must be newer than the last one
    /// accepted, §5.7), then accept (§3.8.2.2): a lifetime of 0 or a care-of address equal to
    /// the home address deregisters (§3.6.1.2), otherwise the binding is created or renewed
    /// with the requested lifetime cut to this agent's maximum. The reply (§3.8.3) goes back to
    /// the request's source address and port, from port 434.
    fn home_agent_request(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        sport: u16,
        req: &RegistrationRequestRepr,
        from_cell: bool,
    ) {
        let home = req.home_address;
        let code = if req.mobile_home_auth().is_none() {
            ReplyCode::HaMobileNodeAuthFailed
        } else if self
            .last_ident
            .get(&home)
            .is_some_and(|last| req.identification <= *last)
        {
            ReplyCode::HaIdentificationMismatch
        } else {
            ReplyCode::Accepted
        };
        let mut granted = 0;
        if code.is_accepted() {
            self.counters.requests_accepted += 1;
            self.last_ident.insert(home, req.identification);
            if req.lifetime_s == 0 || req.care_of_address == home {
                if self.bindings.remove(&home).is_some() {
                    self.events.push_back(MipEvent::BindingUpdated {
                        home,
                        care_of: None,
                    });
                }
            } else {
                granted = req.lifetime_s.min(self.cfg.registration_lifetime_s());
                let previous = self.bindings.insert(
                    home,
                    Binding {
                        care_of: req.care_of_address,
                        expires: deadline(now, granted),
                    },
                );
                if previous.is_none_or(|p| p.care_of != req.care_of_address || p.expires <= now) {
                    self.events.push_back(MipEvent::BindingUpdated {
                        home,
                        care_of: Some(req.care_of_address),
                    });
                }
            }
        } else {
            self.counters.requests_denied += 1;
        }
        let reply = RegistrationReplyRepr {
            code,
            lifetime_s: granted,
            home_address: home,
            home_agent: req.home_agent,
            identification: req.identification,
            extensions: vec![placeholder_auth()],
        };
        // §3.8.3.1: source address = the request's destination (unless it was a broadcast).
        let reply_src = if dst.is_broadcast() {
            self.cell_addr
        } else {
            dst
        };
        let (ttl, link) = if from_cell {
            (DISCOVERY_TTL, MipLink::Cell)
        } else {
            (ROUTED_TTL, MipLink::Routed)
        };
        self.counters.replies_sent += 1;
        self.out.push_back(registration_transmit(
            reply_src,
            src,
            REGISTRATION_PORT,
            sport,
            &reply.to_bytes(),
            ttl,
            link,
        ));
    }

    /// §3.7.2: a request from a mobile node on the cell. Validity (§3.7.2.1): the care-of
    /// address must be this agent's (else code 77) and the lifetime at most the advertised
    /// registration lifetime (else 69); a denial goes straight back to the MH (§3.7.2.3).
    /// A valid request is remembered as pending and relayed unchanged to the home agent
    /// (§3.7.2.2) from this agent's address and port 434 (so the HA's reply comes back to port
    /// 434).
    fn foreign_agent_request(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        sport: u16,
        req: &RegistrationRequestRepr,
    ) {
        let code = if req.care_of_address != self.cell_addr {
            Some(ReplyCode::FaInvalidCareOfAddress)
        } else if req.lifetime_s > self.cfg.registration_lifetime_s() {
            Some(ReplyCode::FaLifetimeTooLong)
        } else {
            None
        };
        if let Some(code) = code {
            self.counters.requests_denied += 1;
            self.counters.replies_sent += 1;
            let reply = RegistrationReplyRepr {
                code,
                lifetime_s: 0,
                home_address: req.home_address,
                home_agent: req.home_agent,
                identification: req.identification,
                extensions: Vec::new(),
            };
            self.out.push_back(registration_transmit(
                self.cell_addr,
                src,
                REGISTRATION_PORT,
                sport,
                &reply.to_bytes(),
                DISCOVERY_TTL,
                MipLink::Cell,
            ));
            return;
        }
        // Pending entries live for the requested lifetime (at least one second): a reply later
        // than that could not grant anything.
        let lifetime = req.lifetime_s.max(1);
        self.pending.insert(
            (req.home_address, req.identification),
            PendingRelay {
                home_agent: req.home_agent,
                mh_port: sport,
                expires: deadline(now, lifetime),
            },
        );
        self.counters.requests_relayed += 1;
        self.out.push_back(registration_transmit(
            self.cell_addr,
            req.home_agent,
            REGISTRATION_PORT,
            REGISTRATION_PORT,
            &req.to_bytes(),
            ROUTED_TTL,
            MipLink::Routed,
        ));
    }

    /// §3.7.3: a reply from a home agent. It must match a pending request (home address,
    /// identification and home agent, §3.7.3.1); an accepted registration with a non-zero
    /// lifetime adds or renews the visitor entry for the granted lifetime, an accepted
    /// deregistration removes it; the reply is relayed to the MH's home address over the cell
    /// (§3.7.3.2).
    fn foreign_agent_reply(&mut self, now: SimTime, reply: &RegistrationReplyRepr) {
        let key = (reply.home_address, reply.identification);
        let Some(pending) = self.pending.get(&key).copied() else {
            self.counters.ignored += 1;
            return;
        };
        if pending.home_agent != reply.home_agent {
            self.counters.ignored += 1;
            return;
        }
        self.pending.remove(&key);
        let home = reply.home_address;
        if reply.code.is_accepted() {
            if reply.lifetime_s == 0 {
                if self.visitors.remove(&home).is_some() {
                    self.events.push_back(MipEvent::VisitorRemoved { home });
                }
            } else {
                let expires = deadline(now, reply.lifetime_s);
                let previous = self.visitors.insert(home, Visitor { expires });
                if previous.is_none_or(|v| v.expires <= now) {
                    self.events.push_back(MipEvent::VisitorAdded { home });
                }
            }
        }
        self.counters.replies_relayed += 1;
        self.out.push_back(registration_transmit(
            self.cell_addr,
            home,
            REGISTRATION_PORT,
            pending.mh_port,
            &reply.to_bytes(),
            DISCOVERY_TTL,
            MipLink::Cell,
        ));
    }
}
