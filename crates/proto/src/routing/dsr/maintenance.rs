//! Route maintenance (RFC 4728 §3.2, §8.3) driven by link-layer feedback: when the MAC gives
//! up on a next hop, the link leaves the route cache, each affected packet's source hears a
//! Route Error (§8.3.4), and the packets are salvaged over another cached route (§8.3.6) or
//! dropped, each with the tag it came with. No network-layer acknowledgements are used (§8.3.1 lets link-layer feedback
//! replace them; ns-2's DSR does the same with 802.11).

use std::collections::BTreeSet;
use std::net::Ipv4Addr;

use sctpsim_kernel::{Packet, SimTime};
use sctpsim_wire::dsr::{dsr_packet, DsrOption, DsrRepr, RouteErrorKind};
use sctpsim_wire::{IpProtocol, Ipv4Packet, Ipv4Repr};

use super::{main_kind, source_route, source_route_option, Dsr, Parsed};
use crate::routing::{RouteDropReason, RoutingEvent};

impl Dsr {
    /// The MAC gave up on `next_hop` for `packets`.
    pub(super) fn link_failure(&mut self, now: SimTime, next_hop: Ipv4Addr, packets: Vec<Packet>) {
        self.counters.link_breaks += 1;
        self.events.push_back(RoutingEvent::LinkBroken { next_hop });
        self.remove_link(self.addr, next_hop);
        let mut told = BTreeSet::new();
        for packet in packets {
            self.recover(now, next_hop, packet, &mut told);
        }
    }

    /// One packet that could not cross the link to `next_hop`.
    fn recover(
        &mut self,
        now: SimTime,
        next_hop: Ipv4Addr,
        packet: Packet,
        told: &mut BTreeSet<Ipv4Addr>,
    ) {
        let Ok(parsed) = Parsed::parse(&packet.bytes) else {
            self.counters.malformed += 1;
            return;
        };
        let ip = parsed.ip;
        let Some((dsr, _)) = parsed.dsr.clone() else {
            // A packet sent without a DSR header: one this node originated for a neighbour.
            if self.cfg.salvage && ip.src_addr == self.addr && !ip.dst_addr.is_broadcast() {
                self.reroute_own(now, packet, ip.dst_addr);
            } else {
                self.drop_packet(packet, RouteDropReason::LinkBroken);
            }
            return;
        };
        if main_kind(&dsr).is_some() {
            // Replies and errors in transit are not salvaged; the initiator will ask again.
            return;
        }
        let (salvage, addresses) = source_route(&dsr)
            .map(|(s, _, a)| (s, a.to_vec()))
            .unwrap_or((0, Vec::new()));
        if ip.src_addr == self.addr && salvage == 0 {
            if !self.cfg.salvage {
                // Lost where it failed; the next packet finds the link gone and discovers.
                self.drop_packet(packet, RouteDropReason::LinkBroken);
                return;
            }
            // Our own packet: no Route Error to ourselves; strip the header (keeping the tag)
            // and route again.
            let upper = parsed.upper(&packet.bytes);
            let repr = Ipv4Repr {
                protocol: IpProtocol::from(dsr.next_header),
                payload_len: upper.len(),
                ..ip
            };
            let mut plain = vec![0u8; repr.buffer_len()];
            repr.emit(&mut Ipv4Packet::new_unchecked(&mut plain[..]));
            plain[Ipv4Repr::HEADER_LEN..].copy_from_slice(upper);
            let plain = Packet {
                bytes: plain,
                tag: packet.tag,
            };
            self.reroute_own(now, plain, ip.dst_addr);
            return;
        }
        if told.insert(ip.src_addr) {
            self.send_route_error(now, ip.src_addr, next_hop, salvage, &addresses);
        }
        // §8.3.6 salvaging: another cached route, the salvage count allowing.
        if self.cfg.salvage && salvage < self.cfg.max_salvage_count.min(15) {
            if let Some(route) = self.cache.find(now, ip.dst_addr) {
                let mut new_dsr = DsrRepr {
                    next_header: dsr.next_header,
                    options: dsr
                        .options
                        .iter()
                        .filter(|o| !matches!(o, DsrOption::SourceRoute { .. }))
                        .cloned()
                        .collect(),
                };
                new_dsr
                    .options
                    .push(source_route_option(&route, salvage + 1));
                if let Ok(bytes) = dsr_packet(&ip, &new_dsr, parsed.upper(&packet.bytes)) {
                    self.cache.touch(now, &route);
                    self.counters.salvaged += 1;
                    let salvaged = Packet {
                        bytes,
                        tag: packet.tag,
                    };
                    self.transmit(route[1], salvaged, None);
                    return;
                }
            }
        }
        self.drop_packet(packet, RouteDropReason::LinkBroken);
    }

    /// A packet this node originated lost its route: another cached route (counted as
    /// salvaged), or the send buffer and a new discovery.
    fn reroute_own(&mut self, now: SimTime, packet: Packet, dst: Ipv4Addr) {
        if self.cache.find(now, dst).is_some() {
            self.counters.salvaged += 1;
        }
        self.route_or_buffer(now, packet, dst, false);
    }

    /// Sends a Route Error (NODE_UNREACHABLE `unreachable`) to `src`, the source of a packet
    /// that used the route `[src, addresses..., dst]` (§8.3.4). The way back is the part of
    /// that route already travelled, reversed; for a salvaged packet (whose route does not
    /// start at `src`) it is the cached route to `src`.
    fn send_route_error(
        &mut self,
        now: SimTime,
        src: Ipv4Addr,
        unreachable: Ipv4Addr,
        salvage: u8,
        addresses: &[Ipv4Addr],
    ) {
        let me = self.addr;
        let travelled = if salvage == 0 {
            addresses.iter().position(|a| *a == me).map(|i| {
                let mut back: Vec<Ipv4Addr> = addresses[..=i].iter().rev().copied().collect();
                back.push(src);
                back
            })
        } else {
            None
        };
        let back = match travelled {
            Some(b) if super::cache::loop_free(&b) => Some(b),
            _ => self.cache.find(now, src),
        };
        let Some(back) = back else {
            return;
        };
        self.counters.route_errors_sent += 1;
        self.send_control(
            src,
            &back,
            vec![DsrOption::RouteError {
                salvage,
                error_src: me,
                error_dst: src,
                kind: RouteErrorKind::NodeUnreachable(unreachable),
            }],
        );
    }
}
