//! Every knob of a TCP connection, with profiles: [`TcpConfig::rfc`] (the IETF specifications;
//! the default), [`TcpConfig::ns2`] (the defaults of ns-2.35's one-way `Agent/TCP` family,
//! `tcl/lib/ns-default.tcl`) and the older ns-2 releases [`TcpConfig::ns2_2003`] and
//! [`TcpConfig::ns2_2001`]. Each default names its source.

use sctpsim_kernel::SimDuration;

/// The sender's loss-recovery flavour. Window growth is RFC 5681 in all of them; they differ in
/// what happens after a loss is detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TcpVariant {
    /// Tahoe (Jacobson 1988; ns-2's base `Agent/TCP`): fast retransmit without fast
    /// recovery. At the duplicate-ACK threshold ssthresh halves, cwnd drops to one segment and
    /// the sender goes back to the first unacknowledged segment in slow start, as after a
    /// timeout but without backing the timer off (ns-2 `TcpAgent::dupack_action`, label
    /// `tahoe_action`: `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_ONE)`, `reset_rtx_timer(0,0)`).
    Tahoe,
    /// RFC 5681 §3.2 fast retransmit / fast recovery: the first ACK of new data ends recovery.
    Reno,
    /// RFC 6582: partial ACKs keep the sender in fast recovery and retransmit the next hole.
    NewReno,
    /// RFC 2018 SACK with the RFC 6675 scoreboard-based recovery (pipe, NextSeg), on top of
    /// NewReno's window arithmetic. Falls back to NewReno if the peer does not permit SACK.
    Sack,
    /// ns-2's `Agent/TCP/Sack1` (`tcp/tcp-sack1.cc`, Fall & Floyd 1996): SACK recovery driven
    /// by a per-ACK `pipe_` counter instead of RFC 6675's scoreboard-derived pipe. Entering
    /// recovery sets pipe = outstanding − dupthresh segments, every ACK in recovery takes one
    /// segment off (a partial ACK two), every transmission adds one; while pipe < cwnd the
    /// sender retransmits the next unSACKed hole below the highest SACK (no IsLost test),
    /// else new data. A timeout forgets the SACK information. `docs/models/tcp.md` lists
    /// the differences from [`TcpVariant::Sack`]. Falls back to NewReno without SACK.
    Sack1,
}

impl TcpVariant {
    /// A short stable name: `tahoe`, `reno`, `newreno`, `sack`, `sack1`.
    pub fn name(self) -> &'static str {
        match self {
            TcpVariant::Tahoe => "tahoe",
            TcpVariant::Reno => "reno",
            TcpVariant::NewReno => "newreno",
            TcpVariant::Sack => "sack",
            TcpVariant::Sack1 => "sack1",
        }
    }

    /// Whether the variant uses SACK information (and so offers SACK-Permitted).
    pub fn uses_sack(self) -> bool {
        matches!(self, TcpVariant::Sack | TcpVariant::Sack1)
    }
}

/// How the retransmission timeout is computed from RTT measurements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RtoModel {
    /// RFC 6298 in integer nanoseconds, with [`TcpConfig::clock_granularity`] as G.
    Rfc6298,
    /// ns-2's `TcpAgent` timer (`tcp/tcp.cc` `rtt_update`, `rtt_timeout`, `rtt_backoff`):
    /// an RTT sample is the number of `tick` boundaries crossed between sending and the ACK
    /// (at least one); SRTT and RTTVAR are kept in ticks in Jacobson's fixed point (3 and 2
    /// fraction bits); the RTO is `(SRTT + 4·RTTVAR)` truncated to whole ticks, times the
    /// back-off, at least two ticks. With `rfc2988` the minimum RTO is applied before the
    /// back-off (`rfc2988_ true`, RFC 2988 §2.4); without it, after (`rfc2988_ false`, the
    /// ns-2 default before 2002/03/07), so a backed-off small RTO stays at the minimum.
    Ns2 {
        /// `tcpTick_`.
        tick: SimDuration,
        /// `rfc2988_`.
        rfc2988: bool,
    },
}

/// When the retransmission timer is restarted by partial ACKs during NewReno recovery
/// (RFC 6582 §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartialAckTimer {
    /// RFC 6582 §4 "Impatient": only the first partial ACK restarts the timer, so a window with
    /// many losses ends in a timeout and slow start (the variant RFC 6582 §3.2 specifies).
    Impatient,
    /// RFC 6582 §4 "Slow-but-Steady": every partial ACK restarts the timer.
    SlowButSteady,
}

/// Configuration of one TCP endpoint. Build it from a profile and change fields:
///
/// ```
/// use sctpsim_proto::transport::tcp::{TcpConfig, TcpVariant};
/// let cfg = TcpConfig { max_sack_blocks: Some(3), ..TcpConfig::ns2() }
///     .with_variant(TcpVariant::Sack);
/// assert_eq!(cfg.mss, 1000);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TcpConfig {
    /// Loss-recovery flavour of the sender.
    pub variant: TcpVariant,
    /// Largest payload per segment this endpoint sends, and the MSS it advertises. The sender
    /// uses the smaller of this and the peer's MSS option, minus 12 bytes when timestamps are
    /// in use (RFC 6691 §2).
    pub mss: u16,
    /// Initial congestion window in segments; `None` uses RFC 5681 §3.1 equation (1),
    /// `IW = min(4·SMSS, max(2·SMSS, 4380 bytes))`.
    pub initial_window: Option<u32>,
    /// Initial slow-start threshold in bytes.
    pub initial_ssthresh: u32,
    /// A cap on the send window in bytes on top of cwnd and the peer's window (ns-2 `window_`);
    /// `None` for no cap.
    pub max_send_window: Option<u32>,
    /// Receive buffer in bytes: the advertised window is what is free of it (RFC 9293
    /// §3.8.6.2.2), clamped to what the window field and scale can express.
    pub recv_buffer: u32,
    /// Send buffer in bytes: how much [`super::TcpConnection::send`] accepts beyond what is
    /// acknowledged.
    pub send_buffer: usize,
    /// RFC 7323 §2: the window scale shift to offer (`None`: no Window Scale option).
    pub window_scale: Option<u8>,
    /// RFC 7323 §3: offer/accept the Timestamps option.
    pub timestamps: bool,
    /// RFC 2018 §2: accept SACK-Permitted (and generate SACK blocks as a receiver). A client
    /// offers it only if its variant is [`TcpVariant::Sack`].
    pub sack_permitted: bool,
    /// Most SACK blocks per ACK; `None`: as many as fit (3 with timestamps, 4 without,
    /// RFC 2018 §3). The count is also capped by the option space.
    pub max_sack_blocks: Option<u8>,
    /// Duplicate ACKs that trigger fast retransmit.
    pub dupthresh: u32,
    /// RFC 3042 limited transmit: send new data on the first two duplicate ACKs.
    pub limited_transmit: bool,
    /// Apply the RFC 6582 §3.2 step 1 `recover` check to Reno and Sack1 as well (no second
    /// fast retransmit until the ACK covers the data outstanding at the first; ns-2
    /// `bugFix_`). NewReno and SACK always apply it.
    pub reno_recover_guard: bool,
    /// Timer restarts on NewReno partial ACKs.
    pub partial_ack_timer: PartialAckTimer,
    /// Delay ACKs of in-order data (RFC 5681 §4.2): ACK every second segment or when
    /// [`TcpConfig::delayed_ack_timeout`] expires.
    pub delayed_ack: bool,
    /// The delayed-ACK timer.
    pub delayed_ack_timeout: SimDuration,
    /// RTO before the first RTT sample.
    pub initial_rto: SimDuration,
    /// Lower bound of the RTO.
    pub min_rto: SimDuration,
    /// Upper bound of the (backed-off) RTO.
    pub max_rto: SimDuration,
    /// Clock granularity G of RFC 6298 §2: `RTO = SRTT + max(G, 4·RTTVAR)` (with
    /// [`RtoModel::Rfc6298`]).
    pub clock_granularity: SimDuration,
    /// The RTO estimator: RFC 6298, or ns-2's tick-based one.
    pub rto_model: RtoModel,
    /// Consecutive retransmission timeouts after which the connection gives up
    /// ([`super::TcpEvent::TimedOut`]); `None`: never.
    pub max_retransmissions: Option<u32>,
    /// Maximum segment lifetime; TIME-WAIT lasts 2·MSL.
    pub msl: SimDuration,
    /// RFC 9293 §3.7.4 Nagle algorithm: hold a small segment while data is unacknowledged.
    pub nagle: bool,
    /// Produce metric events (cwnd, RTT samples, sequence numbers) from
    /// [`super::TcpConnection::poll_event`]; connection events are always produced.
    pub metric_events: bool,
}

impl Default for TcpConfig {
    fn default() -> Self {
        TcpConfig::rfc()
    }
}

impl TcpConfig {
    /// The IETF specifications' values.
    pub fn rfc() -> Self {
        TcpConfig {
            // RFC 6582 is the standards-track fast recovery without SACK.
            variant: TcpVariant::NewReno,
            // RFC 9293 §3.7.1: MSS = MTU - 40 for IPv4 without options; 1460 for Ethernet's
            // 1500-byte MTU.
            mss: 1460,
            // RFC 5681 §3.1 equation (1).
            initial_window: None,
            // RFC 5681 §3.1: "The initial value of ssthresh SHOULD be set arbitrarily high".
            initial_ssthresh: u32::MAX,
            // No cap beyond cwnd and the peer's window (RFC 5681 §3: min(cwnd, rwnd)).
            max_send_window: None,
            // RFC 7323 §2.1: 65535 bytes is the largest window without window scaling.
            recv_buffer: 65_535,
            // Not specified by any RFC; 1 MiB keeps bulk sources from being app-limited.
            send_buffer: 1 << 20,
            // RFC 7323 §2: scaling is optional and not needed with a 64 KiB buffer.
            window_scale: None,
            // RFC 7323 §3: timestamps on (as in Linux, FreeBSD and Windows).
            timestamps: true,
            // RFC 2018.
            sack_permitted: true,
            // RFC 2018 §3: 3 blocks fit with timestamps, 4 without.
            max_sack_blocks: None,
            // RFC 5681 §3.2: "the arrival of 3 duplicate ACKs".
            dupthresh: 3,
            // RFC 5681 §3.2: "The TCP sender SHOULD use the 'Limited Transmit' algorithm".
            limited_transmit: true,
            // RFC 5681 §3.2 Reno has no `recover` variable.
            reno_recover_guard: false,
            // RFC 6582 §4: the specification is the Impatient variant.
            partial_ack_timer: PartialAckTimer::Impatient,
            // RFC 5681 §4.2: "an ACK SHOULD be generated for at least every second full-sized
            // segment, and MUST be generated within 500 ms".
            delayed_ack: true,
            // 200 ms: the BSD/Linux delayed-ACK timer (RFC 5681 §4.2 only bounds it by 500 ms).
            delayed_ack_timeout: SimDuration::from_millis(200),
            // RFC 6298 §2.1: "the sender SHOULD set RTO <- 1 second".
            initial_rto: SimDuration::from_secs(1),
            // RFC 6298 §2.4: "RTO SHOULD be rounded up to 1 second".
            min_rto: SimDuration::from_secs(1),
            // RFC 6298 §2.5: "A maximum value MAY be placed on RTO provided it is at least 60
            // seconds".
            max_rto: SimDuration::from_secs(60),
            // RFC 6298 §4 leaves G to the implementation ("finer clock granularities (<= 100
            // msec) perform somewhat better"); 1 ms, the timestamp clock tick.
            clock_granularity: SimDuration::from_millis(1),
            rto_model: RtoModel::Rfc6298,
            // RFC 9293 §3.8.3: R2 "SHOULD correspond to at least 100 seconds"; 15 is Linux's
            // tcp_retries2 (about 15 minutes with a 60 s maximum RTO).
            max_retransmissions: Some(15),
            // RFC 9293 §3.4.2: "MSL ... arbitrarily defined to be 2 minutes".
            msl: SimDuration::from_secs(120),
            // RFC 9293 §3.7.4: "A TCP implementation SHOULD implement the Nagle algorithm".
            nagle: true,
            metric_events: true,
        }
    }

    /// The defaults of ns-2.35's one-way TCP agents (`tcl/lib/ns-default.tcl`, `Agent/TCP`,
    /// `Agent/TCPSink`), the simulator the studies used. Where ns-2 models something we model
    /// differently (ns-2 one-way TCP has no handshake or FIN), see `docs/models/tcp.md`.
    pub fn ns2() -> Self {
        TcpConfig {
            // `Agent/TCP/Reno`: the studies compare Reno, NewReno (`Agent/TCP/Newreno`) and SACK
            // (`Agent/TCP/Sack1`); choose with `with_variant`.
            variant: TcpVariant::Reno,
            // `Agent/TCP set packetSize_ 1000` (payload bytes; headers are added on top).
            mss: 1000,
            // `Agent/TCP set windowInit_ 1`: the value of the ns-2 releases the studies used
            // (2.1b6–2.1b8, 1999–2001; e.g. the Mobile IP study ran 2.1b8). ns-2.35 changed it
            // to 2 on 2001/5/26; set `initial_window = Some(2)` to reproduce ns-2.35.
            initial_window: Some(1),
            // `ssthresh_ = int(wnd_)` in `TcpAgent::reset()`: window_ (20) packets.
            initial_ssthresh: 20 * 1000,
            // `Agent/TCP set window_ 20` (packets of packetSize_).
            max_send_window: Some(20 * 1000),
            // `Agent/TCPSink` advertises no window; the sender's window_ is the limit, so any
            // buffer larger than window_ is equivalent.
            recv_buffer: 65_535,
            send_buffer: 1 << 20,
            window_scale: None,
            // `Agent/TCP set timestamps_ false`.
            timestamps: false,
            // `Agent/TCPSink/Sack1` generates SACK blocks for `Agent/TCP/Sack1`.
            sack_permitted: true,
            // `Agent/TCPSink set maxSackBlocks_ 3`.
            max_sack_blocks: Some(3),
            // `Agent/TCP set numdupacks_ 3`.
            dupthresh: 3,
            // `Agent/TCP set singledup_ 1` (limited transmit; default changed on 2001/11/28).
            limited_transmit: true,
            // `Agent/TCP set bugFix_ true`: no further fast retransmit until `highest_ack_ >
            // recover_`.
            reno_recover_guard: true,
            // `Agent/TCP/Newreno set newreno_changes1_ 1` ("allows the retransmit timer to
            // expire for a window with many packet drops", RFC 2582).
            partial_ack_timer: PartialAckTimer::Impatient,
            // `Agent/TCPSink` ACKs every segment; `Agent/TCPSink/DelAck` delays them.
            delayed_ack: false,
            // `Agent/TCPSink/DelAck set interval_ 100ms`.
            delayed_ack_timeout: SimDuration::from_millis(100),
            // `Agent/TCP set rtxcur_init_ 3.0` (changed from 6.0 on 2006/01/21).
            initial_rto: SimDuration::from_secs(3),
            // `Agent/TCP set minrto_ 0.2` (changed to 200 ms on 2004/10/14).
            min_rto: SimDuration::from_millis(200),
            // `Agent/TCP set maxrto_ 60` (changed on 2007/03/28 to reflect RFC 2988).
            max_rto: SimDuration::from_secs(60),
            // `Agent/TCP set tcpTick_ 0.01` (changed on 2002/03/07).
            clock_granularity: SimDuration::from_millis(10),
            // ns-2 quantises RTT samples to tcpTick_ (`rtt_update`); at 10 ms ticks the RFC
            // 6298 estimator with G = 10 ms is close, and the ns2 profile keeps it (see
            // `docs/models/tcp.md`; `ns2_2001` uses the tick model).
            rto_model: RtoModel::Rfc6298,
            // ns-2 agents never give up.
            max_retransmissions: None,
            // ns-2 one-way agents do not close; RFC 9293 §3.4.2 for our FIN exchange.
            msl: SimDuration::from_secs(120),
            // One-way agents always send packetSize_ segments.
            nagle: false,
            metric_events: true,
        }
    }

    /// The `Agent/TCP` defaults of ns-2 as released in early 2003 (ns-2.26: `tcl/lib/
    /// ns-default.tcl` whose newest change note is dated 2002/12/28), the simulator of the
    /// MANET studies of 2003–2004 (Argyriou & Madisetti ran ns-2 in 2004). It differs from
    /// [`TcpConfig::ns2`] in the timers, which ns-2 changed later: RTO bounds 1 s to 100,000 s
    /// and an initial RTO of 6 s. Tahoe is ns-2's base `Agent/TCP`.
    pub fn ns2_2003() -> Self {
        TcpConfig {
            // `Agent/TCP` (no suffix) is Tahoe.
            variant: TcpVariant::Tahoe,
            // `Agent/TCP set windowInit_ 2 ;# default changed on 2001/5/26.`
            initial_window: Some(2),
            // `Agent/TCP set minrto_ 1 ;# Default set to 1 on 2001/05/14.` (0.2 from
            // 2004/10/14).
            min_rto: SimDuration::from_secs(1),
            // `Agent/TCP set maxrto_ 100000` (60 from 2007).
            max_rto: SimDuration::from_secs(100_000),
            // `Agent/TCP set rtxcur_init_ 6.0` (3.0 from 2006/01/21).
            initial_rto: SimDuration::from_secs(6),
            // `Agent/TCP set tcpTick_ 0.01 ;# default changed on 2002/03/07`. ns-2 also
            // rounds RTT samples to ticks; we do not (`docs/models/tcp.md`).
            clock_granularity: SimDuration::from_millis(10),
            // Everything else as in `ns2()`: window_ 20, packetSize_ 1000, numdupacks_ 3,
            // singledup_ 1, bugFix_ true, timestamps_ false, `Agent/TCPSink` without delayed
            // ACKs, maxSackBlocks_ 3 — all unchanged between 2003 and 2.35.
            ..TcpConfig::ns2()
        }
    }

    /// The `Agent/TCP` defaults of ns-2.1b8 (released 2001/06/06, `CHANGES.html` of the ns-2
    /// source), the simulator of the Mobile IP study (Atiquzzaman & Fu). No ns-2.1b8 source is
    /// at hand; each value is derived from the "default changed on DATE" notes of ns-2.35's
    /// `tcl/lib/ns-default.tcl`, the old values ns-2.26's `ns-default.tcl` keeps as comments,
    /// and the `CHANGES.html` entries up to the 2.1b8 release (`docs/models/tcp.md`, "The
    /// `ns2-2001` profile"). Reno is what the study calls "TCP Reno"; choose `Sack1` for its
    /// "TCP SACK" (`Agent/TCP/Sack1`).
    pub fn ns2_2001() -> Self {
        let tick = SimDuration::from_millis(100);
        TcpConfig {
            variant: TcpVariant::Reno,
            // `Agent/TCP set windowInit_ 2 ;# default changed on 2001/5/26` (ns-2.35), before the
            // 2.1b8 release; `CHANGES.html` 2001/05/27: "changed the default for
            // Agent/TCP/windowInit_ to 2" together with `syn_` and `delay_growth_` true (the
            // first packet is a 40-byte SYN-like packet and the window of two starts after its
            // ACK, which our handshake reproduces).
            initial_window: Some(2),
            // `Agent/TCP set singledup_ 1 ;# default changed on 2001/11/28` (ns-2.35); 2.1b8 had
            // `singledup_ 0` (ns-2.26 keeps `# Agent/TCP set singledup_ 0`): no limited
            // transmit.
            limited_transmit: false,
            // `# Agent/TCP set tcpTick_ 0.1` kept in ns-2.26, "`tcpTick_ 0.01 ;# default changed
            // on 2002/03/07`" (ns-2.35).
            clock_granularity: tick,
            // `rtt_update` counts RTT samples in ticks and `rtt_timeout` truncates the RTO to
            // them; `rfc2988_` was "added on 2002/03/07" (ns-2.26), so 2.1b8 had the older
            // behaviour, `rfc2988_ false` (minimum RTO applied after the back-off).
            rto_model: RtoModel::Ns2 {
                tick,
                rfc2988: false,
            },
            // `Agent/TCP set rtxcur_init_ 6.0` (ns-2.26); "Default changed on 2006/01/21" to
            // 3.0 (ns-2.35).
            initial_rto: SimDuration::from_secs(6),
            // `Agent/TCP set minrto_ 1 ;# Default set to 1 on 2001/05/14` (ns-2.26; `CHANGES.html`
            // 2001/05/27 "Added minrto_ to TCP ... with a default of 1 second").
            min_rto: SimDuration::from_secs(1),
            // `Agent/TCP set maxrto_ 100000` (ns-2.26); 60 from 2007/03/28 (ns-2.35).
            max_rto: SimDuration::from_secs(100_000),
            // Unchanged since: `Agent/TCP set window_ 20`, `packetSize_ 1000`, `numdupacks_
            // 3`, `bugFix_ true`, `timestamps_ false`; `Agent/TCPSink set maxSackBlocks_ 3`
            // (present since 1997, `CHANGES.html`); `Agent/TCPSink` ACKs every packet.
            ..TcpConfig::ns2()
        }
    }

    /// This configuration with another loss-recovery variant.
    pub fn with_variant(mut self, variant: TcpVariant) -> Self {
        self.variant = variant;
        self
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn profiles_differ_where_ns2_differs() {
        let (rfc, ns2) = (TcpConfig::rfc(), TcpConfig::ns2());
        assert_eq!(TcpConfig::default(), rfc);
        assert_eq!(rfc.min_rto, SimDuration::from_secs(1));
        assert_eq!(ns2.min_rto, SimDuration::from_millis(200));
        assert_eq!(ns2.mss, 1000);
        assert_eq!(ns2.max_sack_blocks, Some(3));
        assert!(!ns2.timestamps && rfc.timestamps);
        assert_eq!(
            ns2.clone().with_variant(TcpVariant::Sack).variant,
            TcpVariant::Sack
        );
        assert_eq!(TcpVariant::NewReno.name(), "newreno");
        let old = TcpConfig::ns2_2003();
        assert_eq!(old.variant, TcpVariant::Tahoe);
        assert_eq!((old.mss, old.max_send_window), (1000, Some(20_000)));
        assert_eq!(old.min_rto, SimDuration::from_secs(1));
        assert_eq!(old.initial_rto, SimDuration::from_secs(6));
    }

    #[test]
    fn ns2_2001_is_ns2_1b8() {
        let c = TcpConfig::ns2_2001();
        assert_eq!(c.variant, TcpVariant::Reno);
        assert_eq!((c.mss, c.max_send_window), (1000, Some(20_000)));
        assert_eq!(c.initial_window, Some(2));
        assert!(!c.limited_transmit && c.reno_recover_guard && !c.timestamps);
        assert_eq!(c.max_sack_blocks, Some(3));
        assert_eq!(c.initial_rto, SimDuration::from_secs(6));
        assert_eq!(c.min_rto, SimDuration::from_secs(1));
        assert_eq!(c.max_rto, SimDuration::from_secs(100_000));
        assert_eq!(
            c.rto_model,
            RtoModel::Ns2 {
                tick: SimDuration::from_millis(100),
                rfc2988: false
            }
        );
        assert_eq!(TcpConfig::ns2().rto_model, RtoModel::Rfc6298);
        assert!(TcpVariant::Sack1.uses_sack() && !TcpVariant::Reno.uses_sack());
        assert_eq!(TcpVariant::Sack1.name(), "sack1");
    }
}
