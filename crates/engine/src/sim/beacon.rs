//! Driving `[beacons]` (`crate::wireless::beacon`): each wireless interface broadcasts a small
//! UDP datagram to 255.255.255.255 as an 802.11 broadcast frame (no RTS/CTS, no Ack, no
//! retry: IEEE 802.11-2020 §10.3.2.8, §10.3.6), at the broadcast rate; every neighbour whose
//! radio decodes it delivers it to IP, which hands it to the node's beacon listener. Also the
//! IP input of limited broadcasts in general: delivered locally, never forwarded, and no ICMP
//! error when nobody listens (RFC 1122 §3.2.2: no ICMP error about a datagram sent to a
//! broadcast address).

use super::{Event, Simulation};
use crate::packet::Packet;
use crate::results::NetworkResult;
use sctpsim_kernel::NodeId;
use sctpsim_proto::mac::MacAddr;
use sctpsim_wire::ipv4::{IpProtocol, Ipv4Packet};
use sctpsim_wire::udp::{udp_datagram, UdpPacket, UdpRepr};
use std::net::Ipv4Addr;

/// TTL of a beacon: 1, it is for the neighbours only (as an AODV Hello, RFC 3561 §6.9).
const BEACON_TTL: u8 = 1;

impl Simulation {
    /// Schedules every interface's first beacon.
    pub(super) fn beacons_start(&mut self) {
        let Some(b) = self.wifi.beacons.as_mut() else {
            return;
        };
        for w in 0..b.len() as u32 {
            if let Some(t) = b.first(w) {
                self.queue.push(t, Event::Beacon(w));
            }
        }
    }

    /// Interface `w` broadcasts a beacon now and schedules the next.
    pub(super) fn beacon_send(&mut self, w: u32) {
        let now = self.now;
        let wifi = &mut *self.wifi;
        let Some(b) = wifi.beacons.as_mut() else {
            return;
        };
        let (node, addr) = (wifi.ifaces[w as usize].node, wifi.ifaces[w as usize].addr);
        let (port, len) = (b.port, b.payload_bytes);
        b.sent += 1;
        let next = b.next(w, now);
        if let Some(t) = next {
            self.queue.push(t, Event::Beacon(w));
        }
        let ident = self.next_ip_id(node);
        let udp = UdpRepr {
            src_port: port,
            dst_port: port,
        };
        // The payload: the sender's node index and the beacon's IP identification (enough to
        // tell beacons apart in a capture), zero-padded.
        let mut payload = vec![0u8; len];
        for (d, s) in payload
            .iter_mut()
            .zip(node.0.to_be_bytes().into_iter().chain(ident.to_be_bytes()))
        {
            *d = s;
        }
        let bytes = udp_datagram(addr, Ipv4Addr::BROADCAST, BEACON_TTL, ident, &udp, &payload);
        let pkt = self.originate(node, bytes, None);
        self.wifi_output(w, MacAddr::BROADCAST, pkt, false);
    }

    /// IP input of a datagram to 255.255.255.255 at `node`: a beacon goes to the beacon
    /// listener, Mobile IP's ICMP messages to the node's agent or mobile node; anything else
    /// is discarded silently.
    pub(super) fn broadcast_receive(&mut self, node: NodeId, pkt: Packet) {
        let Ok(ip) = Ipv4Packet::new_checked(&pkt.bytes[..]) else {
            return;
        };
        if ip.protocol() == IpProtocol::Icmp && self.cell.is_some() {
            // Access-router beacons (`cellular.rs`).
            self.cell_heard(node, &pkt.bytes);
            return;
        }
        if ip.protocol() == IpProtocol::Icmp && self.mip.is_some() {
            // Mobile IP agent advertisements and solicitations (`mobileip.rs`).
            self.mip_icmp(node, &pkt.bytes);
            return;
        }
        if ip.protocol() != IpProtocol::Udp {
            return;
        }
        let Ok(udp) = UdpPacket::new_checked(ip.payload()) else {
            return;
        };
        let ok = udp.verify_checksum(ip.src_addr(), ip.dst_addr());
        if let Some(b) = self.wifi.beacons.as_mut() {
            if ok && udp.dst_port() == b.port {
                b.received += 1;
            }
        }
    }

    /// Cumulative beacon counts in the time series (scope `network`).
    pub(super) fn beacon_sample(&mut self, t: f64) {
        if let Some(b) = self.wifi.beacons.as_ref() {
            let (sent, received) = (b.sent as f64, b.received as f64);
            self.series.push(t, "network", 0, "", "beacons_sent", sent);
            self.series
                .push(t, "network", 0, "", "beacons_received", received);
        }
    }

    /// Beacon totals into the network results.
    pub(super) fn beacon_results(&self, net: &mut NetworkResult) {
        if let Some(b) = self.wifi.beacons.as_ref() {
            net.beacons_sent = b.sent;
            net.beacons_received = b.received;
        }
    }
}
