//! A synchronous three-node harness (MH, FA, HA) that passes [`MipTransmit`]s by address with
//! fixed delays: the cell (wireless) hop takes [`CELL`], the FA↔HA wired path [`WIRED`] (the
//! study's 400 ms one way). No engine involved.

use super::*;
use proptest::prelude::*;
use sctpsim_wire::mip::{
    AgentAdvertisementRepr, AgentFlags, MobilityAgentExtension, RegistrationReplyRepr,
    RegistrationRequestRepr, ReplyCode, RouterEntry,
};

const HA: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
const MH: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 10);
const FA: Ipv4Addr = Ipv4Addr::new(10, 1, 0, 1);
const CELL: SimDuration = SimDuration::from_millis(2);
const WIRED: SimDuration = SimDuration::from_millis(400);

fn secs(s: f64) -> SimTime {
    SimTime::ZERO + SimDuration::from_secs_f64(s)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    Home,
    Foreign,
    Nowhere,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Who {
    Mh,
    Ha,
    Fa,
}

struct Net {
    now: SimTime,
    mh: MobileNode,
    ha: MobilityAgent,
    fa: MobilityAgent,
    cell: Cell,
    /// Drop this many of the MH's next registration requests.
    drop_requests: usize,
    in_flight: Vec<(SimTime, u64, Who, MipTransmit)>,
    seq: u64,
    /// MH events with their time.
    log: Vec<(SimTime, MipEvent)>,
    agent_log: Vec<(SimTime, MipEvent)>,
    /// Time of the last advertisement the MH received from each agent.
    last_ad: BTreeMap<Ipv4Addr, SimTime>,
}

use std::collections::BTreeMap;

impl Net {
    fn new(cfg: MipConfig) -> Self {
        let mut fa = MobilityAgent::new(cfg.clone(), false, true, FA);
        // Foreign agent advertisements half a period after the home agent's.
        fa.set_first_advertisement(SimTime::ZERO + SimDuration::from_millis(500));
        Net {
            now: SimTime::ZERO,
            mh: MobileNode::new(cfg.clone(), MH, HA),
            ha: MobilityAgent::new(cfg, true, false, HA),
            fa,
            cell: Cell::Home,
            drop_requests: 0,
            in_flight: Vec::new(),
            seq: 0,
            log: Vec::new(),
            agent_log: Vec::new(),
            last_ad: BTreeMap::new(),
        }
    }

    fn next_time(&self) -> Option<SimTime> {
        [
            self.mh.poll_timeout(),
            self.ha.poll_timeout(),
            self.fa.poll_timeout(),
            self.in_flight.iter().map(|f| f.0).min(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    fn run_until(&mut self, end: SimTime) {
        let mut last = None;
        let mut same = 0;
        for _ in 0..1_000_000 {
            let Some(t) = self.next_time().filter(|t| *t <= end) else {
                break;
            };
            // A deadline that does not move is a spinning state machine.
            same = if last == Some(t) { same + 1 } else { 0 };
            assert!(same < 100, "stuck at {t}");
            last = Some(t);
            self.now = self.now.max(t);
            let now = self.now;
            self.in_flight.sort_by_key(|f| (f.0, f.1));
            let due: Vec<_> = self
                .in_flight
                .iter()
                .filter(|f| f.0 <= now)
                .cloned()
                .collect();
            self.in_flight.retain(|f| f.0 > now);
            for (_, _, from, tx) in due {
                self.deliver(from, tx);
            }
            if self.mh.poll_timeout().is_some_and(|t| t <= now) {
                self.mh.handle_timeout(now);
            }
            if self.ha.poll_timeout().is_some_and(|t| t <= now) {
                self.ha.handle_timeout(now);
            }
            if self.fa.poll_timeout().is_some_and(|t| t <= now) {
                self.fa.handle_timeout(now);
            }
            self.drain();
        }
        self.now = self.now.max(end);
    }

    fn drain(&mut self) {
        let now = self.now;
        for who in [Who::Mh, Who::Ha, Who::Fa] {
            loop {
                let tx = match who {
                    Who::Mh => self.mh.poll_transmit(),
                    Who::Ha => self.ha.poll_transmit(),
                    Who::Fa => self.fa.poll_transmit(),
                };
                let Some(tx) = tx else { break };
                if who == Who::Mh && tx.protocol == IpProtocol::Udp && self.drop_requests > 0 {
                    self.drop_requests -= 1;
                    continue;
                }
                let delay = match tx.link {
                    MipLink::Cell => CELL,
                    MipLink::Routed => WIRED,
                };
                self.seq += 1;
                self.in_flight.push((now + delay, self.seq, who, tx));
            }
        }
        while let Some(e) = self.mh.poll_event() {
            self.log.push((now, e));
        }
        while let Some(e) = self.ha.poll_event() {
            self.agent_log.push((now, e));
        }
        while let Some(e) = self.fa.poll_event() {
            self.agent_log.push((now, e));
        }
    }

    fn deliver(&mut self, from: Who, tx: MipTransmit) {
        let now = self.now;
        let mh_cell_agent = match self.cell {
            Cell::Home => Some(Who::Ha),
            Cell::Foreign => Some(Who::Fa),
            Cell::Nowhere => None,
        };
        match (from, tx.link) {
            (Who::Mh, _) => {
                // On the cell: to the agent of the cell the MH is in.
                let (agent, addr) = match mh_cell_agent {
                    Some(Who::Ha) => (&mut self.ha, HA),
                    Some(Who::Fa) => (&mut self.fa, FA),
                    _ => return,
                };
                if tx.dst != addr && !tx.dst.is_broadcast() {
                    return;
                }
                match tx.protocol {
                    IpProtocol::Icmp => agent.handle_solicitation(now, tx.src),
                    _ => agent.handle_registration(now, tx.src, tx.dst, &tx.payload, true),
                }
            }
            (agent, MipLink::Cell) => {
                if mh_cell_agent != Some(agent) || !(tx.dst == MH || tx.dst.is_broadcast()) {
                    return;
                }
                match tx.protocol {
                    IpProtocol::Icmp => {
                        self.last_ad.insert(tx.src, now);
                        self.mh.handle_advertisement(now, tx.src, &tx.payload)
                    }
                    _ => self.mh.handle_registration_reply(now, tx.src, &tx.payload),
                }
            }
            (_, MipLink::Routed) => {
                if tx.dst == HA {
                    self.ha
                        .handle_registration(now, tx.src, tx.dst, &tx.payload, false);
                } else if tx.dst == FA {
                    self.fa
                        .handle_registration(now, tx.src, tx.dst, &tx.payload, false);
                }
            }
        }
    }

    fn events_after(&self, t: SimTime) -> impl Iterator<Item = &(SimTime, MipEvent)> {
        self.log.iter().filter(move |(at, _)| *at >= t)
    }

    /// Time of the first accepted reply at or after `t`.
    fn first_accept_after(&self, t: SimTime) -> Option<SimTime> {
        self.events_after(t)
            .find(|(_, e)| matches!(e, MipEvent::ReplyReceived { accepted: true, .. }))
            .map(|(at, _)| *at)
    }
}

fn registered_at_fa(a: Attachment) -> bool {
    a == Attachment::Foreign {
        agent: FA,
        care_of: FA,
        registered: true,
    }
}

#[test]
fn home_attachment_from_home_agent_advertisements() {
    for cfg in [MipConfig::rfc(), MipConfig::ns2()] {
        let mut net = Net::new(cfg);
        net.run_until(secs(5.0));
        assert_eq!(net.mh.attachment(), Attachment::Home { agent: HA });
        assert_eq!(net.mh.counters().requests_sent, 0);
        assert!(net.mh.counters().advertisements_heard >= 5);
        assert_eq!(net.ha.care_of(net.now, MH), None);
        assert!(net.ha.counters().advertisements_sent >= 5);
    }
}

#[test]
fn advertisement_fields() {
    let mut ha = MobilityAgent::new(MipConfig::ns2(), true, false, HA);
    let mut fa = MobilityAgent::new(MipConfig::ns2(), false, true, FA);
    assert_eq!(ha.poll_timeout(), Some(SimTime::ZERO));
    ha.handle_timeout(SimTime::ZERO);
    fa.handle_timeout(SimTime::ZERO);
    fa.handle_timeout(secs(1.0));
    assert_eq!(fa.poll_timeout(), Some(secs(2.0)));
    let tx = ha.poll_transmit().expect("advertisement");
    assert_eq!((tx.src, tx.dst, tx.ttl), (HA, Ipv4Addr::BROADCAST, 1));
    assert_eq!((tx.protocol, tx.link), (IpProtocol::Icmp, MipLink::Cell));
    let ad = AgentAdvertisementRepr::parse(
        &sctpsim_wire::mip::AgentAdvertisementPacket::new_checked(&tx.payload[..]).unwrap(),
    )
    .unwrap();
    assert_eq!(ad.lifetime_s, 2);
    assert!(ad.mobility.flags.home_agent && !ad.mobility.flags.foreign_agent);
    assert!(ad.mobility.care_of_addresses.is_empty());
    fa.poll_transmit();
    let tx = fa.poll_transmit().expect("second advertisement");
    let ad = AgentAdvertisementRepr::parse(
        &sctpsim_wire::mip::AgentAdvertisementPacket::new_checked(&tx.payload[..]).unwrap(),
    )
    .unwrap();
    assert_eq!(ad.mobility.sequence_number, 1);
    assert_eq!(ad.mobility.registration_lifetime_s, 2);
    assert_eq!(ad.mobility.care_of_addresses, vec![FA]);
    assert!(ad.mobility.flags.foreign_agent);
    // A solicitation is answered unicast over the cell.
    fa.handle_solicitation(secs(1.5), MH);
    let tx = fa.poll_transmit().expect("solicited advertisement");
    assert_eq!((tx.dst, tx.link), (MH, MipLink::Cell));
}

/// RFC profile: the MH leaves home at 10.2 s (last HA advertisement received at 10.002 s); the
/// HA's entry expires at 13.002 s (3 s lifetime); the FA, heard since 10.5 s, takes over; the request goes
/// MH→FA→HA and the reply HA→FA→MH: 2·(2 + 400) ms.
#[test]
fn registration_through_foreign_agent() {
    let mut net = Net::new(MipConfig::rfc());
    net.run_until(secs(10.2));
    assert_eq!(net.mh.attachment(), Attachment::Home { agent: HA });
    net.cell = Cell::Foreign;
    net.run_until(secs(12.9));
    // Lazy switching: the FA is heard but the HA is still valid.
    assert_eq!(net.mh.attachment(), Attachment::Home { agent: HA });
    assert!(net.log.iter().any(|(_, e)| *e
        == MipEvent::AgentHeard {
            agent: FA,
            new: true
        }));
    let lost = secs(13.0) + CELL;
    net.run_until(lost);
    assert!(net
        .log
        .iter()
        .any(|(t, e)| *t == lost && *e == MipEvent::AgentLost { agent: HA }));
    assert_eq!(
        net.mh.attachment(),
        Attachment::Foreign {
            agent: FA,
            care_of: FA,
            registered: false
        }
    );
    net.run_until(secs(14.0));
    assert_eq!(net.ha.care_of(net.now, MH), Some(FA));
    assert!(net.fa.is_visitor(net.now, MH));
    assert!(registered_at_fa(net.mh.attachment()));
    let reply = net.first_accept_after(lost).unwrap();
    assert_eq!(reply - lost, (CELL + WIRED).saturating_mul(2));
    assert_eq!(net.mh.counters().requests_retransmitted, 0);
    assert_eq!(net.fa.counters().requests_relayed, 1);
    assert_eq!(net.fa.counters().replies_relayed, 1);
    assert!(net.agent_log.iter().any(|(_, e)| *e
        == MipEvent::BindingUpdated {
            home: MH,
            care_of: Some(FA)
        }));
    assert!(net
        .agent_log
        .iter()
        .any(|(_, e)| *e == MipEvent::VisitorAdded { home: MH }));
}

/// ns-2 profile: the first advertisement of the new FA switches the MH at once.
#[test]
fn ns2_switches_on_first_advertisement_and_reregisters() {
    let mut net = Net::new(MipConfig::ns2());
    net.run_until(secs(10.2));
    net.cell = Cell::Foreign;
    net.run_until(secs(10.5) + CELL);
    assert!(matches!(
        net.mh.attachment(),
        Attachment::Foreign { agent: FA, .. }
    ));
    net.run_until(secs(12.0));
    assert_eq!(net.ha.care_of(net.now, MH), Some(FA));
    assert!(registered_at_fa(net.mh.attachment()));
    // The 0.5 s retransmission fires before the 0.804 s round trip ends; the reply to the first
    // copy is accepted.
    let accept = net.first_accept_after(secs(10.5)).unwrap();
    assert_eq!(
        accept - (secs(10.5) + CELL),
        (CELL + WIRED).saturating_mul(2)
    );
    assert!(net.mh.counters().requests_retransmitted >= 1);
    // Re-registration on every advertisement keeps the 2 s binding alive.
    net.run_until(secs(30.0));
    assert_eq!(net.ha.care_of(net.now, MH), Some(FA));
    assert!(registered_at_fa(net.mh.attachment()));
    assert!(net.mh.counters().requests_sent >= 19);
}

#[test]
fn lost_request_is_retransmitted() {
    for (cfg, rtx) in [
        (MipConfig::rfc(), SimDuration::from_secs(2)),
        (MipConfig::ns2(), SimDuration::from_millis(500)),
    ] {
        let mut net = Net::new(cfg);
        net.run_until(secs(10.2));
        net.cell = Cell::Foreign;
        let start = net.now;
        net.drop_requests = 1;
        net.run_until(secs(20.0));
        let sent: Vec<(SimTime, bool)> = net
            .events_after(start)
            .filter_map(|(t, e)| match e {
                MipEvent::RegistrationSent {
                    retransmission,
                    care_of,
                } if *care_of == FA => Some((*t, *retransmission)),
                _ => None,
            })
            .collect();
        assert!(sent.len() >= 2, "{sent:?}");
        assert!(!sent[0].1 && sent[1].1);
        assert_eq!(sent[1].0 - sent[0].0, rtx);
        let accept = net.first_accept_after(start).unwrap();
        assert_eq!(accept - sent[1].0, (CELL + WIRED).saturating_mul(2));
        assert_eq!(net.ha.care_of(net.now, MH), Some(FA));
    }
}

#[test]
fn rfc_retransmission_backs_off() {
    let mut net = Net::new(MipConfig::rfc());
    net.run_until(secs(10.2));
    net.cell = Cell::Foreign;
    let start = net.now;
    net.drop_requests = 4;
    net.run_until(secs(60.0));
    let times: Vec<SimTime> = net
        .events_after(start)
        .filter_map(|(t, e)| matches!(e, MipEvent::RegistrationSent { .. }).then_some(*t))
        .collect();
    let gaps: Vec<u64> = times
        .windows(2)
        .take(4)
        .map(|w| (w[1] - w[0]).as_nanos() / 1_000_000_000)
        .collect();
    assert_eq!(gaps, vec![2, 4, 8, 16]);
    assert!(registered_at_fa(net.mh.attachment()));
}

#[test]
fn binding_expires_without_reregistration() {
    let mut cfg = MipConfig::rfc();
    cfg.registration_lifetime = SimDuration::from_secs(10);
    let mut net = Net::new(cfg);
    net.run_until(secs(10.2));
    net.cell = Cell::Foreign;
    net.run_until(secs(14.0));
    assert_eq!(net.ha.care_of(net.now, MH), Some(FA));
    // The request left the MH at 13.002 s (HA lost): the binding runs from its arrival at the
    // HA, 13.406 s, for 10 s. The MH now disappears: its renewals reach nobody.
    net.cell = Cell::Nowhere;
    let ha_expiry = secs(13.0) + CELL + CELL + WIRED + SimDuration::from_secs(10);
    net.run_until(SimTime(ha_expiry.as_nanos() - 1));
    assert_eq!(net.ha.care_of(net.now, MH), Some(FA));
    net.run_until(ha_expiry);
    assert_eq!(net.ha.care_of(net.now, MH), None);
    assert!(net.agent_log.iter().any(|(t, e)| *t == ha_expiry
        && *e
            == MipEvent::BindingUpdated {
                home: MH,
                care_of: None
            }));
    net.run_until(secs(30.0));
    assert!(!net.fa.is_visitor(net.now, MH));
    assert_eq!(net.ha.counters().expired, 1);
    assert_eq!(net.fa.counters().expired, 1);
    assert_eq!(net.mh.attachment(), Attachment::Detached);
    assert!(net.mh.counters().solicitations_sent >= 1);
}

#[test]
fn rfc_renews_before_expiry() {
    let mut cfg = MipConfig::rfc();
    cfg.registration_lifetime = SimDuration::from_secs(8);
    let mut net = Net::new(cfg);
    net.run_until(secs(10.2));
    net.cell = Cell::Foreign;
    net.run_until(secs(60.0));
    assert_eq!(net.ha.care_of(net.now, MH), Some(FA));
    assert!(registered_at_fa(net.mh.attachment()));
    assert!(!net
        .log
        .iter()
        .any(|(_, e)| matches!(e, MipEvent::RegistrationExpired { .. })));
    // Renewals every 6 s (3/4 of 8 s) from 13 s.
    assert!(net.mh.counters().requests_sent >= 8);
    assert!(!net.agent_log.iter().any(|(_, e)| *e
        == MipEvent::BindingUpdated {
            home: MH,
            care_of: None
        }));
}

#[test]
fn deregistration_at_home() {
    for cfg in [MipConfig::rfc(), MipConfig::ns2()] {
        let mut net = Net::new(cfg);
        net.run_until(secs(10.2));
        net.cell = Cell::Foreign;
        net.run_until(secs(20.2));
        assert_eq!(net.ha.care_of(net.now, MH), Some(FA));
        net.cell = Cell::Home;
        let back = net.now;
        net.run_until(secs(30.0));
        assert_eq!(net.mh.attachment(), Attachment::Home { agent: HA });
        assert_eq!(net.ha.care_of(net.now, MH), None);
        let dereg = net
            .events_after(back)
            .find(|(_, e)| matches!(e, MipEvent::RegistrationSent { care_of: MH, .. }))
            .map(|(t, _)| *t)
            .expect("deregistration sent");
        let accept = net.first_accept_after(back).unwrap();
        // Directly to the home agent over the home cell.
        assert_eq!(accept - dereg, CELL.saturating_mul(2));
        assert!(net.agent_log.iter().any(|(t, e)| *t > back
            && *e
                == MipEvent::BindingUpdated {
                    home: MH,
                    care_of: None
                }));
        // No further requests at home.
        let sent = net.mh.counters().requests_sent;
        net.run_until(secs(40.0));
        assert_eq!(net.mh.counters().requests_sent, sent);
    }
}

#[test]
fn link_layer_detection_switches_immediately() {
    let mut cfg = MipConfig::rfc();
    cfg.movement_detection = MovementDetection::LinkLayer;
    let mut net = Net::new(cfg);
    net.run_until(secs(10.2));
    net.cell = Cell::Foreign;
    net.mh.handle_link_change(net.now);
    net.drain();
    assert_eq!(net.mh.attachment(), Attachment::Detached);
    assert!(net
        .log
        .iter()
        .any(|(_, e)| *e == MipEvent::AgentLost { agent: HA }));
    // Solicitation (2 ms) → unicast advertisement (2 ms) → request and reply (804 ms).
    let expected = secs(10.2) + CELL.saturating_mul(2) + (CELL + WIRED).saturating_mul(2);
    net.run_until(expected);
    assert!(registered_at_fa(net.mh.attachment()));
    assert_eq!(net.first_accept_after(secs(10.2)), Some(expected));
    assert_eq!(net.fa.counters().solicitations_answered, 1);
    assert_eq!(net.ha.care_of(net.now, MH), Some(FA));
}

#[test]
fn link_change_is_ignored_with_lifetime_detection() {
    let mut net = Net::new(MipConfig::rfc());
    net.run_until(secs(5.0));
    net.mh.handle_link_change(net.now);
    assert_eq!(net.mh.attachment(), Attachment::Home { agent: HA });
    assert_eq!(net.mh.counters().ignored, 1);
}

#[test]
fn detached_node_solicits_with_backoff() {
    let mut mh = MobileNode::new(MipConfig::rfc(), MH, HA);
    let mut times = Vec::new();
    let mut now = SimTime::ZERO;
    while now < secs(40.0) {
        let Some(t) = mh.poll_timeout() else { break };
        now = t;
        mh.handle_timeout(now);
        while let Some(tx) = mh.poll_transmit() {
            assert_eq!(
                (tx.dst, tx.ttl, tx.protocol),
                (BROADCAST, 1, IpProtocol::Icmp)
            );
            times.push(now);
        }
    }
    let t: Vec<u64> = times.iter().map(|t| t.as_nanos() / 1_000_000_000).collect();
    assert_eq!(t[..6], [1, 2, 3, 5, 9, 17]);
    let mut ns2 = MobileNode::new(MipConfig::ns2(), MH, HA);
    ns2.handle_timeout(secs(0.5));
    assert_eq!(ns2.poll_timeout(), Some(secs(1.0)));
}

fn request_bytes(src: Ipv4Addr, dst: Ipv4Addr, care_of: Ipv4Addr, lifetime_s: u16) -> Vec<u8> {
    let req = RegistrationRequestRepr {
        flags: Default::default(),
        lifetime_s,
        home_address: MH,
        home_agent: HA,
        care_of_address: care_of,
        identification: 7,
        extensions: vec![placeholder_auth()],
    };
    udp_bytes(src, dst, MOBILE_NODE_PORT, 434, &req.to_bytes())
}

#[test]
fn foreign_agent_denials() {
    let mut fa = MobilityAgent::new(MipConfig::ns2(), false, true, FA);
    let now = secs(1.0);
    // Lifetime above the advertised 2 s: code 69, straight back to the MH.
    fa.handle_registration(now, MH, FA, &request_bytes(MH, FA, FA, 30), true);
    let tx = fa.poll_transmit().unwrap();
    assert_eq!((tx.dst, tx.link), (MH, MipLink::Cell));
    let (_, data) = parse_udp(tx.src, tx.dst, &tx.payload).unwrap();
    let reply = RegistrationReplyRepr::parse(
        &sctpsim_wire::mip::RegistrationReplyPacket::new_checked(data).unwrap(),
    )
    .unwrap();
    assert_eq!(reply.code, ReplyCode::FaLifetimeTooLong);
    // Another care-of address: code 77.
    let other = Ipv4Addr::new(10, 9, 9, 9);
    fa.handle_registration(now, MH, FA, &request_bytes(MH, FA, other, 2), true);
    let tx = fa.poll_transmit().unwrap();
    let (_, data) = parse_udp(tx.src, tx.dst, &tx.payload).unwrap();
    assert_eq!(data[1], 77);
    assert_eq!(fa.counters().requests_denied, 2);
    assert_eq!(fa.counters().requests_relayed, 0);
}

#[test]
fn home_agent_checks_authentication_extension_and_replays() {
    let mut ha = MobilityAgent::new(MipConfig::rfc(), true, false, HA);
    let now = secs(1.0);
    let mut req = RegistrationRequestRepr {
        flags: Default::default(),
        lifetime_s: 100,
        home_address: MH,
        home_agent: HA,
        care_of_address: FA,
        identification: 7,
        extensions: Vec::new(),
    };
    let send = |ha: &mut MobilityAgent, req: &RegistrationRequestRepr| {
        ha.handle_registration(
            now,
            FA,
            HA,
            &udp_bytes(FA, HA, 434, 434, &req.to_bytes()),
            false,
        );
        let tx = ha.poll_transmit().unwrap();
        assert_eq!((tx.dst, tx.link), (FA, MipLink::Routed));
        let (ports, data) = parse_udp(tx.src, tx.dst, &tx.payload).unwrap();
        assert_eq!((ports.src_port, ports.dst_port), (434, 434));
        data[1]
    };
    assert_eq!(send(&mut ha, &req), 131);
    assert_eq!(ha.care_of(now, MH), None);
    req.extensions = vec![placeholder_auth()];
    assert_eq!(send(&mut ha, &req), 0);
    assert_eq!(ha.care_of(now, MH), Some(FA));
    // The same identification again is a replay (§5.7).
    assert_eq!(send(&mut ha, &req), 133);
    // Granted lifetime is cut to the HA's maximum (300 s).
    req.identification = 8;
    req.lifetime_s = 1000;
    assert_eq!(send(&mut ha, &req), 0);
    assert_eq!(ha.care_of(secs(300.9), MH), Some(FA));
    assert_eq!(ha.care_of(secs(301.0), MH), None);
}

#[test]
fn malformed_input_is_ignored() {
    let mut net = Net::new(MipConfig::ns2());
    net.run_until(secs(3.0));
    let before = net.mh.attachment();
    let garbage: [&[u8]; 4] = [&[], &[9], &[0xff; 7], &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]];
    for g in garbage {
        net.mh.handle_advertisement(net.now, FA, g);
        net.mh.handle_registration_reply(net.now, FA, g);
        net.fa.handle_registration(net.now, MH, FA, g, true);
        net.ha.handle_registration(net.now, FA, HA, g, false);
    }
    assert_eq!(net.mh.counters().malformed, 8);
    assert_eq!(net.fa.counters().malformed, 4);
    assert_eq!(net.ha.counters().malformed, 4);
    // A valid advertisement with one flipped bit fails its checksum.
    let ad = AgentAdvertisementRepr {
        mobility_only: false,
        lifetime_s: 2,
        routers: vec![RouterEntry {
            address: FA,
            preference: 0,
        }],
        mobility: MobilityAgentExtension {
            sequence_number: 0,
            registration_lifetime_s: 2,
            flags: AgentFlags {
                foreign_agent: true,
                ..Default::default()
            },
            care_of_addresses: vec![FA],
        },
        extensions: Vec::new(),
    };
    let mut bytes = ad.to_bytes();
    bytes[9] ^= 1;
    net.mh.handle_advertisement(net.now, FA, &bytes);
    // A valid request with a bad UDP checksum (wrong pseudo-header).
    let req = request_bytes(MH, FA, FA, 2);
    net.fa
        .handle_registration(net.now, MH, Ipv4Addr::new(1, 1, 1, 1), &req, true);
    // A valid request to another port; a reply nobody asked for.
    let mut other_port = request_bytes(MH, FA, FA, 2);
    other_port[2..4].copy_from_slice(&435u16.to_be_bytes());
    let other_port = udp_bytes(MH, FA, MOBILE_NODE_PORT, 435, &other_port[8..]);
    net.fa
        .handle_registration(net.now, MH, FA, &other_port, true);
    let reply = RegistrationReplyRepr {
        code: ReplyCode::Accepted,
        lifetime_s: 2,
        home_address: MH,
        home_agent: HA,
        identification: 99,
        extensions: Vec::new(),
    };
    net.fa.handle_registration(
        net.now,
        HA,
        FA,
        &udp_bytes(HA, FA, 434, 434, &reply.to_bytes()),
        false,
    );
    net.mh.handle_registration_reply(
        net.now,
        FA,
        &udp_bytes(FA, MH, 434, MOBILE_NODE_PORT, &reply.to_bytes()),
    );
    assert_eq!(net.mh.counters().malformed, 9);
    assert_eq!(net.fa.counters().malformed, 5);
    assert_eq!(net.fa.counters().ignored, 2);
    assert_eq!(net.mh.counters().ignored, 1);
    assert_eq!(net.mh.attachment(), before);
    assert!(!net.fa.is_visitor(net.now, MH));
    // Nothing was answered or relayed.
    assert_eq!(net.fa.poll_transmit(), None);
    assert_eq!(net.mh.poll_transmit(), None);
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..80), t in 0u64..10_000) {
        let now = SimTime::ZERO + SimDuration::from_millis(t);
        let mut mh = MobileNode::new(MipConfig::ns2(), MH, HA);
        let mut agent = MobilityAgent::new(MipConfig::rfc(), true, true, HA);
        mh.handle_advertisement(now, FA, &bytes);
        mh.handle_registration_reply(now, FA, &bytes);
        agent.handle_registration(now, MH, HA, &bytes, true);
        agent.handle_registration(now, FA, HA, &bytes, false);
        // Also with a valid UDP header around arbitrary data.
        let udp = udp_bytes(FA, MH, 434, MOBILE_NODE_PORT, &bytes);
        mh.handle_registration_reply(now, FA, &udp);
        let udp = udp_bytes(MH, HA, MOBILE_NODE_PORT, 434, &bytes);
        agent.handle_registration(now, MH, HA, &udp, true);
        mh.handle_timeout(now);
        agent.handle_timeout(now);
        while agent.poll_transmit().is_some() {}
        while mh.poll_transmit().is_some() {}
    }
}

/// The handover latency bound of docs/models/mobileip.md, Lifetime detection, no losses:
/// from the last advertisement heard from the old agent to the accepted reply,
/// latency ≤ L_adv + T_adv + 2·(d_cell + d_wired). Swept over the moment of leaving.
#[test]
fn handover_latency_bound_lifetime_detection() {
    for cfg in [MipConfig::ns2(), MipConfig::rfc()] {
        let bound = cfg.advertisement_lifetime
            + cfg.advertisement_interval
            + (CELL + WIRED).saturating_mul(2);
        let mut worst = SimDuration::ZERO;
        for k in 0..20u64 {
            let mut net = Net::new(cfg.clone());
            let leave = secs(10.0) + SimDuration::from_millis(50 * k + 1);
            net.run_until(leave);
            let last_ha_ad = net.last_ad[&HA];
            net.cell = Cell::Foreign;
            net.run_until(leave + SimDuration::from_secs(10));
            let accept = net.first_accept_after(leave).expect("registered");
            let latency = accept - last_ha_ad;
            assert!(
                latency <= bound,
                "{cfg:?} leave {leave}: {latency} > {bound}"
            );
            worst = worst.max(latency);
            assert!(registered_at_fa(net.mh.attachment()));
        }
        if !cfg.switch_on_new_agent {
            // Lazy switching: the FA is always known by the time the HA expires, so the worst
            // case is the lifetime plus the round trip.
            assert_eq!(
                worst,
                cfg.advertisement_lifetime + (CELL + WIRED).saturating_mul(2)
            );
        }
    }
}
