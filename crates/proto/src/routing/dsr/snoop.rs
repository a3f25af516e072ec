//! ns-2's promiscuous tap (`dsr/dsragent.cc` `DSRAgent::tap`, RFC 4728 §3.4.2 and §3.4.3):
//! what a node learns from unicast DSR packets it overhears between two other nodes
//! ([`DsrConfig::tap`](super::DsrConfig::tap)), and the gratuitous Route Replies it sends when
//! an overheard source route could skip nodes
//! ([`DsrConfig::gratuitous_replies`](super::DsrConfig::gratuitous_replies)).
//!
//! What the tap learns, as ns-2's `RouteCache::pre_noticeRouteUsed` (`dsr/routecache.cc`):
//! * a node listed on the packet's route learns the route from itself to the end;
//! * a node not listed assumes a link to the transmitter and learns
//!   `[self, transmitter, ..., destination]`;
//! * nothing from Route Requests (broadcast, never overheard here), nor from packets this
//!   node originated;
//! * the links named in an overheard Route Error leave the cache (`processBrokenRouteError`
//!   from the tap); a Route Reply's route is learned from this node on, if it is on it.
//!
//! Only the forward direction is learned (ns-2 keeps snooped routes in its secondary cache
//! without reversing them); ns-2's secondary/primary split itself is not modelled (one cache).

use std::net::Ipv4Addr;

use sctpsim_kernel::{Packet, SimTime};
use sctpsim_wire::dsr::{DsrOption, RouteErrorKind};

use super::{main_kind, source_route, Dsr, Parsed};

impl Dsr {
    /// An overheard packet (the tap is on).
    pub(super) fn tap(&mut self, now: SimTime, packet: &Packet) {
        let me = self.addr;
        let Ok(parsed) = Parsed::parse(&packet.bytes) else {
            return;
        };
        let ip = parsed.ip;
        if ip.src_addr == me || ip.dst_addr == me || ip.dst_addr.is_broadcast() {
            return;
        }
        let Some((dsr, _)) = parsed.dsr.as_ref() else {
            // A packet sent without a DSR header goes from its source straight to its
            // destination (a one-hop route): the transmitter is the source.
            let path = [me, ip.src_addr, ip.dst_addr];
            self.cache.add(now, &path);
            return;
        };
        let kind = main_kind(dsr);
        if kind == Some("rreq") {
            return;
        }
        for o in &dsr.options {
            match o {
                DsrOption::RouteError {
                    error_src,
                    kind: RouteErrorKind::NodeUnreachable(unreachable),
                    ..
                } => self.remove_link(*error_src, *unreachable),
                DsrOption::RouteReply { addresses, .. } => {
                    let mut path = vec![ip.dst_addr];
                    path.extend_from_slice(addresses);
                    if let Some(i) = path.iter().position(|a| *a == me) {
                        self.cache.add(now, &path[i..]);
                    }
                }
                _ => {}
            }
        }
        let Some((salvage, segs_left, addresses)) = source_route(dsr) else {
            return;
        };
        // The route as listed: a salvaged packet's route starts at the salvaging node, which
        // the option does not name.
        let mut path: Vec<Ipv4Addr> = Vec::with_capacity(addresses.len() + 2);
        if salvage == 0 {
            path.push(ip.src_addr);
        }
        path.extend_from_slice(addresses);
        path.push(ip.dst_addr);
        let (n, sl) = (addresses.len(), usize::from(segs_left));
        if sl > n {
            return;
        }
        // The node the frame was addressed to, and the transmitter just before it.
        let rx = path.len() - 1 - sl;
        if rx == 0 || path[rx] == me {
            return;
        }
        match path.iter().position(|a| *a == me) {
            Some(i) => {
                self.cache.add(now, &path[i..]);
                if i > rx && salvage == 0 && kind.is_none() && self.cfg.gratuitous_replies {
                    self.gratuitous_reply(now, &path, rx, i);
                }
            }
            None => {
                let mut stub = Vec::with_capacity(path.len() - rx + 2);
                stub.push(me);
                stub.extend_from_slice(&path[rx - 1..]);
                self.cache.add(now, &stub);
            }
        }
    }

    /// ns-2 `sendRouteShortening`: the data packet on `path` (`[source, ..., destination]`)
    /// was heard here on its way to `path[rx]`, but this node is `path[at]`, further on, so
    /// the nodes `path[rx..at]` can be skipped. Tells the source with a Route Reply carrying
    /// the shortened route, sent back over the part already travelled; at most once per
    /// shortened route per [`super::DsrConfig::grat_hold_down`].
    fn gratuitous_reply(&mut self, now: SimTime, path: &[Ipv4Addr], rx: usize, at: usize) {
        let mut short: Vec<Ipv4Addr> = path[..rx].to_vec();
        short.extend_from_slice(&path[at..]);
        if !super::cache::loop_free(&short) || short.len() < 2 {
            return;
        }
        let hold = self.cfg.grat_hold_down;
        self.grat_sent
            .retain(|_, t| now.saturating_since(*t) < hold);
        if self.grat_sent.contains_key(&short) {
            return;
        }
        self.grat_sent.insert(short.clone(), now);
        // The way back: this node, then the transmitter and the nodes before it, reversed.
        let mut back: Vec<Ipv4Addr> = Vec::with_capacity(rx + 1);
        back.push(self.addr);
        back.extend(path[..rx].iter().rev());
        if !super::cache::loop_free(&back) {
            return;
        }
        self.cache.add(now, &back);
        let source = short[0];
        self.send_control(
            source,
            &back,
            vec![DsrOption::RouteReply {
                last_hop_external: false,
                addresses: short[1..].to_vec(),
            }],
        );
    }
}
