//! Driving TCP connections (sans-IO, `sctpsim_proto::transport::tcp`): start the application,
//! feed received segments, fire timers, send what the connection produces and turn its metric
//! events into time-series rows.
//!
//! Timers: each endpoint remembers the earliest wake-up queued for it. After every interaction
//! the engine asks `poll_timeout()` and queues a wake-up only if it is earlier than the one
//! already queued; a wake-up that finds nothing due is a no-op (DESIGN.md §1.1), so nothing is
//! ever cancelled.

use super::flows::FlowRt;
use super::{Event, Simulation, DEFAULT_TTL};
use sctpsim_kernel::FlowId;
use sctpsim_proto::transport::tcp::TcpMetric;
use sctpsim_wire::ipv4::{ipv4_datagram, IpProtocol, Ipv4Repr};
use sctpsim_wire::tcp::TcpPacket;
use std::net::Ipv4Addr;

/// Side index of the sending client (at the flow's `src`).
const CLIENT: usize = 0;
/// Side index of the receiving server (at the flow's `dst`).
const SERVER: usize = 1;

impl Simulation {
    /// The flow's start time: the application hands its data to the client, which opens the
    /// connection.
    pub(super) fn tcp_start(&mut self, f: FlowId) {
        let FlowRt::Tcp(t) = &mut self.flows[f.index()] else {
            return;
        };
        if t.started {
            return;
        }
        t.started = true;
        let app = t.app;
        app.start(&mut t.sides[CLIENT].conn);
        self.tcp_pump(f, CLIENT);
    }

    /// A segment for side `side` of flow `f` arrived.
    pub(super) fn tcp_input(
        &mut self,
        f: FlowId,
        side: usize,
        src: Ipv4Addr,
        dst: Ipv4Addr,
        tcp_bytes: &[u8],
    ) {
        let now = self.now;
        let FlowRt::Tcp(t) = &mut self.flows[f.index()] else {
            return;
        };
        if side == SERVER {
            let has_payload = TcpPacket::new_checked(tcp_bytes)
                .map(|s| tcp_bytes.len() > s.header_len() as usize)
                .unwrap_or(false);
            if has_payload {
                t.data_segments_received += 1;
            }
        }
        // Malformed segments are counted by the connection (`malformed_dropped`) and dropped.
        let _ = t.sides[side].conn.handle_packet(now, src, dst, tcp_bytes);
        self.tcp_pump(f, side);
    }

    /// A wake-up for side `side` of flow `f`.
    pub(super) fn tcp_timer(&mut self, f: FlowId, side: usize) {
        let now = self.now;
        let FlowRt::Tcp(t) = &mut self.flows[f.index()] else {
            return;
        };
        let s = &mut t.sides[side];
        if s.wake == Some(now) {
            s.wake = None;
        }
        s.conn.handle_timeout(now);
        self.tcp_pump(f, side);
    }

    /// Let the receiving application consume, send everything the connection has, record its
    /// metric events and queue its next wake-up.
    fn tcp_pump(&mut self, f: FlowId, side: usize) {
        let now = self.now;
        loop {
            let FlowRt::Tcp(t) = &mut self.flows[f.index()] else {
                return;
            };
            if side == SERVER {
                // The sink application reads everything as it arrives (ns-2 TCPSink).
                t.sides[SERVER].conn.discard_received();
            }
            let max_payload = t.max_payload;
            let Some(tx) = t.sides[side].conn.poll_transmit(now, max_payload) else {
                break;
            };
            let node = if side == CLIENT { t.ep.src } else { t.ep.dst };
            let ident = self.next_ip_id(node);
            let ip = Ipv4Repr {
                src_addr: tx.src,
                dst_addr: tx.dst,
                protocol: IpProtocol::Tcp,
                payload_len: tx.payload.len(),
                ttl: DEFAULT_TTL,
                ident,
                dscp: 0,
                // DF set, as `sctpsim_wire::tcp_segment` builds it (RFC 9293 §3.7.2: TCP relies
                // on path MTU discovery).
                dont_frag: true,
            };
            // Only a segment above 65515 bytes fails; the connection never builds one.
            let Ok(bytes) = ipv4_datagram(&ip, &tx.payload) else {
                continue;
            };
            let pkt = self.new_packet(bytes, Some(f));
            self.ip_output(node, tx.dst, pkt);
        }
        let FlowRt::Tcp(t) = &mut self.flows[f.index()] else {
            return;
        };
        let id = t.ep.spec_index as u32;
        let ts = now.as_secs_f64();
        // Outcomes (connected, closed, reset) leave no rows; the counters tell them.
        while t.sides[side].conn.poll_event().is_some() {}
        while let Some(m) = t.sides[side].conn.poll_metric() {
            // Only the sender's metrics describe the flow; the receiver sends no data.
            if side != CLIENT {
                continue;
            }
            let s = &mut self.series;
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
        let s = &mut t.sides[side];
        if let Some(deadline) = s.conn.poll_timeout() {
            let deadline = deadline.max(now);
            if s.wake.is_none_or(|w| deadline < w) {
                s.wake = Some(deadline);
                self.queue.push(deadline, Event::TcpTimer(f, side as u8));
            }
        }
    }
}
