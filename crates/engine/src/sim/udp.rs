//! UDP flows behind the transport driver interface: a CBR or file source at `src` (timer slot
//! `Slot::App`), a sink at `dst` that counts, orders and times what arrives (`sctpsim_proto::app`).

use super::flows::Endpoints;
use super::transport::{carrying, End, FlowDriver, IpIdent, Received, Slot, Socket, Transmit};
use super::DEFAULT_TTL;
use crate::drop::DropReason;
use crate::results::{FlowResult, TimeSeries};
use sctpsim_kernel::SimTime;
use sctpsim_proto::app::{CbrSource, DatagramSink, SeqTsHeader};
use sctpsim_wire::ipv4::IpProtocol;
use sctpsim_wire::udp::{udp_datagram, UdpPacket, UdpRepr};
use std::net::Ipv4Addr;

/// A UDP flow: a CBR/file source at `src`, a sink at `dst`.
pub(super) struct UdpFlow {
    pub ep: Endpoints,
    pub udp: UdpRepr,
    pub source: CbrSource,
    pub sink: DatagramSink,
    /// Datagrams that passed the UDP checks at the sink's socket.
    pub datagrams_received: u64,
}

impl FlowDriver for UdpFlow {
    fn ep(&self) -> &Endpoints {
        &self.ep
    }

    fn sockets(&self) -> Vec<Socket> {
        // Only the sink listens; the source never receives.
        vec![Socket {
            side: End::Dst,
            proto: IpProtocol::Udp,
            local_port: self.ep.dst_port,
            remote: self.ep.src_addr,
            remote_port: self.ep.src_port,
        }]
    }

    fn handle_datagram(
        &mut self,
        now: SimTime,
        _side: End,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        payload: &[u8],
    ) -> Result<Received, ()> {
        let udp = UdpPacket::new_checked(payload).map_err(|_| ())?;
        UdpRepr::parse(&udp, src, dst).map_err(|_| ())?;
        self.sink.handle_datagram(now, udp.payload());
        self.datagrams_received += 1;
        Ok(Received::data(true))
    }

    fn handle_timeout(&mut self, _now: SimTime, _slot: Slot) {
        // The source is polled in `poll_transmit`: it sends what is due then.
    }

    fn poll(
        &mut self,
        now: SimTime,
        slot: Slot,
        ident: &mut dyn IpIdent,
        out: &mut Vec<Transmit>,
        _series: &mut TimeSeries,
    ) {
        if slot != Slot::App {
            return;
        }
        let ep = &self.ep;
        while let Some(payload) = self.source.poll_transmit(now) {
            let id = ident.next_ident(ep.src);
            let bytes = udp_datagram(
                ep.src_addr,
                ep.dst_addr,
                DEFAULT_TTL,
                id,
                &self.udp,
                &payload,
            );
            out.push(Transmit {
                node: ep.src,
                dst: ep.dst_addr,
                bytes,
                route: None,
            });
        }
    }

    fn poll_timeout(&self, slot: Slot) -> Option<SimTime> {
        (slot == Slot::App)
            .then(|| self.source.poll_timeout())
            .flatten()
    }

    fn drop_rows(
        &mut self,
        now: SimTime,
        bytes: &[u8],
        reason: DropReason,
        series: &mut TimeSeries,
    ) -> u64 {
        let Some(ip) = carrying(bytes, IpProtocol::Udp) else {
            return 0;
        };
        let Some(h) = UdpPacket::new_checked(ip.payload())
            .ok()
            .and_then(|u| SeqTsHeader::parse(u.payload()))
        else {
            return 0;
        };
        let id = self.ep.spec_index as u32;
        series.push(
            now.as_secs_f64(),
            "flow",
            id,
            reason.name(),
            "dropped_seq",
            h.seq as f64,
        );
        1
    }

    fn bytes_delivered(&self) -> u64 {
        self.sink.stats().bytes
    }

    fn result(&self, base: FlowResult, _end: SimTime) -> (FlowResult, SimTime) {
        let st = self.sink.stats();
        let r = FlowResult {
            bytes_sent: self.source.bytes_sent(),
            bytes_delivered: st.bytes,
            packets_sent: self.source.packets_sent(),
            packets_delivered: st.packets,
            mean_delay_s: self.sink.mean_delay_s(),
            reordered: st.reordered,
            data_packets_sent: self.source.packets_sent(),
            data_packets_received: self.datagrams_received,
            ..base
        };
        (r, self.source.config().stop)
    }
}
