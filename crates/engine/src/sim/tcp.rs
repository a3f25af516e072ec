//! TCP flows behind the transport driver interface (sans-IO connections of
//! `sctpsim_proto::transport::tcp`): the sending client at `src` (`End::Src`) with its
//! application, the receiving server at `dst` (`End::Dst`) whose sink reads everything as it
//! arrives (ns-2 TCPSink). The application slot opens the connection at the flow's start.

use super::flows::Endpoints;
use super::transport::{
    carrying, End, Ends, FlowDriver, IpIdent, Received, Slot, Socket, Transmit,
};
use crate::drop::DropReason;
use crate::results::{FlowResult, TimeSeries};
use sctpsim_kernel::SimTime;
use sctpsim_proto::transport::tcp::{TcpApplication, TcpConnection, TcpMetric};
use sctpsim_wire::ipv4::IpProtocol;
use sctpsim_wire::tcp::TcpPacket;
use std::net::Ipv4Addr;

/// A TCP flow: the client (`sides[End::Src]`) and the server (`sides[End::Dst]`).
pub(super) struct TcpFlow {
    pub ep: Endpoints,
    pub sides: Ends<TcpConnection>,
    pub app: TcpApplication,
    pub start: SimTime,
    pub started: bool,
    /// Payload limit per segment handed to `poll_transmit`.
    pub max_payload: usize,
    /// Segments with payload that reached the receiver (duplicates included).
    pub data_segments_received: u64,
    /// Segments with payload the client put on the wire (retransmissions included; not a
    /// FIN without data).
    pub data_segments_sent: u64,
    /// Delivered bytes that differed from the source's pattern (the checking sink).
    pub delivery_errors: u64,
}

impl TcpFlow {
    /// The metric events of end `end` as time-series rows (only the sender's describe the
    /// flow; the receiver's are drained and dropped).
    fn metric_rows(&mut self, now: SimTime, end: End, s: &mut TimeSeries) {
        let id = self.ep.spec_index as u32;
        let ts = now.as_secs_f64();
        // Outcomes (connected, closed, reset) leave no rows; the counters tell them.
        while self.sides[end].poll_event().is_some() {}
        while let Some(m) = self.sides[end].poll_metric() {
            // Only the sender's metrics describe the flow; the receiver sends no data.
            if end != End::Src {
                continue;
            }
            match m {
                TcpMetric::CwndChanged { cwnd, ssthresh } => {
                    s.push(ts, "flow", id, "", "cwnd_bytes", cwnd as f64);
                    s.push(ts, "flow", id, "", "ssthresh_bytes", ssthresh as f64);
                }
                TcpMetric::RttSample { rtt, srtt, rto } => {
                    s.push(ts, "flow", id, "", "rtt_s", rtt.as_secs_f64());
                    s.push(ts, "flow", id, "", "srtt_s", srtt.as_secs_f64());
                    s.push(ts, "flow", id, "", "rto_s", rto.as_secs_f64());
                }
                TcpMetric::SeqChanged { snd_una, snd_nxt } => {
                    s.push(ts, "flow", id, "", "snd_una", snd_una as f64);
                    s.push(ts, "flow", id, "", "snd_nxt", snd_nxt as f64);
                }
                TcpMetric::FastRetransmit { snd_una } => {
                    s.push(ts, "flow", id, "", "fast_retransmit", snd_una as f64);
                }
                TcpMetric::Timeout { count } => {
                    s.push(ts, "flow", id, "", "timeout", count as f64);
                }
                _ => {}
            }
        }
    }
}

impl FlowDriver for TcpFlow {
    fn ep(&self) -> &Endpoints {
        &self.ep
    }

    fn sockets(&self) -> Vec<Socket> {
        let ep = &self.ep;
        vec![
            Socket {
                side: End::Dst,
                proto: IpProtocol::Tcp,
                local_port: ep.dst_port,
                remote: ep.src_addr,
                remote_port: ep.src_port,
            },
            Socket {
                side: End::Src,
                proto: IpProtocol::Tcp,
                local_port: ep.src_port,
                remote: ep.dst_addr,
                remote_port: ep.dst_port,
            },
        ]
    }

    fn handle_datagram(
        &mut self,
        now: SimTime,
        side: End,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        payload: &[u8],
    ) -> Result<Received, ()> {
        let seg = TcpPacket::new_checked(payload).map_err(|_| ())?;
        let data = side == End::Dst && payload.len() > seg.header_len() as usize;
        if data {
            self.data_segments_received += 1;
        }
        // Malformed segments are counted by the connection (`malformed_dropped`) and dropped.
        let _ = self.sides[side].handle_packet(now, src, dst, payload);
        Ok(Received::data(data))
    }

    fn handle_timeout(&mut self, now: SimTime, slot: Slot) {
        if slot == Slot::App {
            // The flow's start: the application hands its data to the client, which opens
            // the connection.
            if !self.started && now >= self.start {
                self.started = true;
                let app = self.app;
                app.start(&mut self.sides[End::Src]);
            }
            return;
        }
        self.sides[slot.end()].handle_timeout(now);
    }

    fn poll(
        &mut self,
        now: SimTime,
        slot: Slot,
        ident: &mut dyn IpIdent,
        out: &mut Vec<Transmit>,
        series: &mut TimeSeries,
    ) {
        let end = slot.end();
        loop {
            if end == End::Dst {
                // The sink application reads everything as it arrives (ns-2 TCPSink) and checks
                // every byte against the source's pattern.
                self.delivery_errors += self.sides[End::Dst].discard_received_checked().1;
            }
            let Some(tx) = self.sides[end].poll_transmit(now, self.max_payload) else {
                break;
            };
            let node = if end == End::Src {
                self.ep.src
            } else {
                self.ep.dst
            };
            if end == End::Src
                && TcpPacket::new_checked(&tx.payload[..])
                    .is_ok_and(|seg| tx.payload.len() > seg.header_len() as usize)
            {
                self.data_segments_sent += 1;
            }
            // DF set, as `sctpsim_wire::tcp_segment` builds it (RFC 9293 §3.7.2: TCP relies
            // on path MTU discovery).
            out.extend(Transmit::ipv4(node, tx, IpProtocol::Tcp, true, ident));
        }
        self.metric_rows(now, end, series);
    }

    fn poll_timeout(&self, slot: Slot) -> Option<SimTime> {
        if slot == Slot::App {
            return (!self.started).then_some(self.start);
        }
        self.sides[slot.end()].poll_timeout()
    }

    fn drop_rows(
        &mut self,
        now: SimTime,
        bytes: &[u8],
        reason: DropReason,
        series: &mut TimeSeries,
    ) -> u64 {
        let Some(ip) = carrying(bytes, IpProtocol::Tcp) else {
            return 0;
        };
        let Ok(seg) = TcpPacket::new_checked(ip.payload()) else {
            return 0;
        };
        let len = ip.payload().len().saturating_sub(seg.header_len() as usize);
        if len == 0 || ip.src_addr() != self.ep.src_addr {
            return 0;
        }
        // The stream offset just past the segment's payload, comparable with `snd_una`.
        let offset = u64::from(
            seg.seq_number()
                .0
                .wrapping_sub(self.sides[End::Src].iss().0),
        );
        let id = self.ep.spec_index as u32;
        let t = now.as_secs_f64();
        series.push(
            t,
            "flow",
            id,
            reason.name(),
            "dropped_seq",
            (offset + len as u64) as f64,
        );
        1
    }

    fn bytes_delivered(&self) -> u64 {
        self.sides[End::Dst].stats().bytes_delivered
    }

    fn result(&self, base: FlowResult, end: SimTime) -> (FlowResult, SimTime) {
        let client = self.sides[End::Src].stats();
        let server = self.sides[End::Dst].stats();
        let r = FlowResult {
            bytes_sent: client.bytes_sent,
            bytes_delivered: server.bytes_delivered,
            packets_sent: client.data_segments_sent,
            packets_delivered: self.data_segments_received,
            retransmissions: client.retransmissions,
            fast_retransmits: client.fast_retransmits,
            timeouts: client.timeouts,
            mean_rtt_s: client.mean_rtt_s(),
            reordered: server.out_of_order_segments_received,
            delivery_errors: self.delivery_errors,
            acks_sent: server.acks_sent,
            data_packets_sent: self.data_segments_sent,
            data_packets_received: self.data_segments_received,
            ..base
        };
        (r, end)
    }

    fn malformed(&self) -> u64 {
        self.sides.iter().map(|s| s.stats().malformed_dropped).sum()
    }
}
