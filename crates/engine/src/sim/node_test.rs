//! One IP input per node, TTL in IP forwarding only: a packet whose TTL runs out at a routed
//! node is dropped by IP (`ttl_expired`), answered with ICMP Time Exceeded (RFC 792, RFC 1812
//! §5.3.1), and never reaches the router; with TTL left it goes to the router unchanged
//! apart from the one decrement.

use super::Simulation;
use crate::packet::{Packet, PacketTag};
use crate::scenario::load;
use crate::RunOptions;
use sctpsim_kernel::{NodeId, SimDuration, SimTime};
use sctpsim_proto::routing::RouteDropReason;
use sctpsim_wire::udp::{udp_datagram, UdpRepr};

/// A static line of 3 nodes 200 m apart (250 m range: n1 relays) and a CBR flow n0 → n2 that
/// makes the routes.
fn line(protocol: &str) -> String {
    format!(
        "[simulation]\nduration = \"30s\"\nseed = 3\n[radio]\nprofile = \"ns2-wavelan\"\n\
         [routing]\nprotocol = \"{protocol}\"\n[nodes]\ncount = 3\n[mobility]\n\
         model = \"static\"\nplacement = \"line\"\nspacing_m = 200\n[[flows]]\nsrc = \"n0\"\n\
         dst = \"n2\"\napp = \"cbr\"\nrate = \"8192bps\"\npacket_size_bytes = 128\n\
         start = \"1s\"\n"
    )
}

fn run_until(sim: &mut Simulation, until: SimTime) {
    while let Some((t, ev)) = sim.queue.pop() {
        sim.now = t;
        sim.events += 1;
        sim.dispatch(ev);
        if t >= until {
            break;
        }
    }
}

#[test]
fn ttl_runs_out_in_ip_forwarding_with_time_exceeded() {
    for protocol in ["aodv", "olsr", "dsdv", "dsr"] {
        let sc = load(&line(protocol), &[]).expect("scenario loads");
        let mut sim = Simulation::new(sc, None, &RunOptions::default()).expect("builds");
        run_until(&mut sim, SimTime::ZERO + SimDuration::from_secs(20));
        let addr = |sim: &Simulation, k: usize| sim.nodes[k].primary_addr().expect("address");
        let (a0, a2) = (addr(&sim, 0), addr(&sim, 2));
        let w0 = sim.nodes[0].wlan.expect("n0 is wireless");
        let mac0 = sim.wifi.ifaces[w0 as usize].mac;
        let udp = UdpRepr {
            src_port: 7,
            dst_port: 7,
        };
        let relay = NodeId(1);
        let before = sim.nodes[1].ip.clone();
        for (uid, ttl) in [(1_000_001, 1u8), (1_000_002, 2)] {
            let pkt = Packet {
                bytes: udp_datagram(a0, a2, ttl, 9, &udp, b"probe"),
                tag: PacketTag { flow: None, uid },
            };
            sim.ip_input(relay, Some(mac0), pkt);
        }
        let ip = &sim.nodes[1].ip;
        assert_eq!(ip.ttl_drops, before.ttl_drops + 1, "{protocol}");
        assert_eq!(
            ip.icmp_time_exceeded_sent,
            before.icmp_time_exceeded_sent + 1,
            "{protocol}"
        );
        assert_eq!(ip.icmp_sent, before.icmp_sent + 1, "{protocol}");
        let r = sim.nodes[1].router.as_ref().expect("n1 routes");
        assert_eq!(
            r.counters().drops.get(&RouteDropReason::TtlExpired),
            None,
            "{protocol}: the router never decides on TTL"
        );
        let received = sim.nodes[0].ip.icmp_received;
        run_until(&mut sim, SimTime::ZERO + SimDuration::from_secs(30));
        assert!(
            sim.nodes[0].ip.icmp_received > received,
            "{protocol}: the Time Exceeded reached n0"
        );
        let net = sim.finish(0.0, false).expect("finishes").summary.network;
        assert_eq!(net.icmp_time_exceeded_sent, 1, "{protocol}: in the summary");
    }
}
