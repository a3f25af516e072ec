//! Every knob of an SCTP association, with two profiles: [`SctpConfig::rfc9260`] (the current
//! specification; the default) and [`SctpConfig::rfc2960`] (the original specification, which
//! the simulators of the reproduced studies implemented). Each default names its source; every
//! difference between the profiles is a field, so a study can also mix them.

use sctpsim_kernel::SimDuration;

use super::path::{DATA_CHUNK_HEADER, IP_SCTP_OVERHEAD, MIN_PMTU};

/// RFC 9260 §16: RTO.Initial = 1 second.
pub const RTO_INITIAL: SimDuration = SimDuration::from_secs(1);
/// RFC 2960 §14: RTO.Initial = 3 seconds (changed to 1 s by RFC 9260 §16).
pub const RTO_INITIAL_RFC2960: SimDuration = SimDuration::from_secs(3);
/// RFC 9260 §16 (and RFC 2960 §14): RTO.Min = 1 second.
pub const RTO_MIN: SimDuration = SimDuration::from_secs(1);
/// RFC 9260 §16 (and RFC 2960 §14): RTO.Max = 60 seconds.
pub const RTO_MAX: SimDuration = SimDuration::from_secs(60);
/// RFC 9260 §16: Max.Burst = 4.
pub const MAX_BURST: u32 = 4;
/// RFC 9260 §16: RTO.Alpha = 1/8.
pub const RTO_ALPHA: Fraction = Fraction { num: 1, den: 8 };
/// RFC 9260 §16: RTO.Beta = 1/4.
pub const RTO_BETA: Fraction = Fraction { num: 1, den: 4 };
/// RFC 9260 §16: Valid.Cookie.Life = 60 seconds.
pub const VALID_COOKIE_LIFE: SimDuration = SimDuration::from_secs(60);
/// RFC 9260 §16: Association.Max.Retrans = 10 attempts.
pub const ASSOCIATION_MAX_RETRANS: u32 = 10;
/// RFC 9260 §16: Path.Max.Retrans = 5 attempts (per destination address).
pub const PATH_MAX_RETRANS: u32 = 5;
/// RFC 9260 §16: Max.Init.Retransmits = 8 attempts.
pub const MAX_INIT_RETRANSMITS: u32 = 8;
/// RFC 9260 §16: HB.interval = 30 seconds.
pub const HB_INTERVAL: SimDuration = SimDuration::from_secs(30);
/// RFC 9260 §16: HB.Max.Burst = 1.
pub const HB_MAX_BURST: u32 = 1;
/// RFC 9260 §6.2: "the acknowledgement SHOULD be generated within 200 ms of the arrival of any
/// unacknowledged DATA chunk".
pub const SACK_DELAY: SimDuration = SimDuration::from_millis(200);
/// RFC 9260 §6.2: the delayed-SACK timer "MUST NOT" exceed 500 ms.
pub const SACK_DELAY_MAX: SimDuration = SimDuration::from_millis(500);
/// RFC 9260 §6.2: "an acknowledgement SHOULD be generated for at least every second packet (not
/// every second DATA chunk) received".
pub const SACK_FREQ: u32 = 2;
/// RFC 9260 §7.2.1: the 4380-byte term of the initial cwnd `min(4·MTU, max(2·MTU, 4380))`.
pub const INITIAL_CWND_BYTES: u32 = 4380;
/// RFC 9260 §9.2: the T5-shutdown-guard timer "SHOULD be set to the recommended value of 5 times
/// 'RTO.Max'".
pub const T5_MULTIPLIER: u64 = 5;

/// A ratio `num / den`, for the RTO gains without floating point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fraction {
    /// Numerator.
    pub num: u32,
    /// Denominator (a zero denominator is treated as 1).
    pub den: u32,
}

impl Fraction {
    /// `value · num / den`, in 128-bit arithmetic (never overflows for `u64` inputs and ratios
    /// up to 1).
    pub fn of(self, value: u64) -> u64 {
        let den = u128::from(self.den.max(1));
        let r = u128::from(value) * u128::from(self.num) / den;
        u64::try_from(r).unwrap_or(u64::MAX)
    }
}

/// Which specification a configuration follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Profile {
    /// RFC 9260 (June 2022), with its incorporated errata (RFC 8540): HTNA miss indications,
    /// Fast Recovery, fast retransmit on the third miss indication, initial cwnd
    /// `min(4·MTU, max(2·MTU, 4380))`, RTO.Initial 1 s.
    Rfc9260,
    /// RFC 2960 (October 2000), as the studies' simulators (ns-2 SCTP, the OMNeT++ model of the
    /// time) implemented it: fast retransmit on the fourth miss indication, no HTNA, no Fast
    /// Recovery, initial cwnd 2·MTU, RTO.Initial 3 s, ssthresh floor 2·MTU.
    Rfc2960,
    /// The defaults of ns-2.35's SCTP module (`Agent/SCTP` in `tcl/lib/ns-default.tcl`,
    /// `sctp/sctp.cc`, University of Delaware): RFC 2960 timers and initial window with the
    /// later loss recovery (fast retransmit on the third miss indication, HTNA, Fast Recovery),
    /// one outbound stream, retransmissions to an alternate destination.
    Ns2,
    /// ns-2.27's SCTP module (University of Delaware release 3.4, in ns-2 from August 2003 to
    /// release 3.5 in 2005): as [`Profile::Ns2`] but fast retransmit on the fourth miss
    /// indication, no Fast Recovery, and heartbeats every RTO + 15 s without jitter.
    Ns2_2003,
}

impl Profile {
    /// A short stable name: `rfc9260`, `rfc2960`.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Rfc9260 => "rfc9260",
            Profile::Rfc2960 => "rfc2960",
            Profile::Ns2 => "ns2",
            Profile::Ns2_2003 => "ns2-2003",
        }
    }
}

/// Loss recovery for a window too small to produce the fast-retransmit threshold of miss
/// indications (the "small window syndrome" of Ye, Saadawi & Lee 2003, §5): with rwnd = 4·MTU
/// and one chunk lost, the other three cause three SACKs, never the fourth miss indication of
/// RFC 2960, and the full window leaves only the T3-rtx timeout. Both rules act in SACK
/// processing (`retransmit/early.rs`); `docs/models/sctp.md` ("Early retransmit options")
/// lists every choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum EarlyRetransmit {
    /// Neither rule: only fast retransmit at the full threshold and T3-rtx (both profiles'
    /// default, as neither specification has early retransmit).
    #[default]
    Off,
    /// Ye, Saadawi & Lee (2003) §5: when a SACK's Gap Ack Blocks acknowledge the highest
    /// outstanding TSN in the "idle period" (no new data can go out: the same test as RFC 5827
    /// (3.b)), retransmit the lowest outstanding TSN at once, once per TSN, without a cwnd
    /// reduction. Sound only under the paper's assumptions: (1) link-level reliability and
    /// in-order arrival over a single route, (2) losses from the MAC (hidden and exposed nodes),
    /// not congestion, with a small window.
    Ye2003,
    /// RFC 5827 §3.2 segment-based Early Retransmit in its SCTP form: with fewer than
    /// `threshold + 1` packets outstanding and no new data allowed out, the threshold becomes
    /// (outstanding packets − 1), used only once that many packets are SACKed; then the normal
    /// fast retransmit with its cwnd reduction (RFC 9260 §7.2.4, §7.2.3).
    Rfc5827,
}

impl EarlyRetransmit {
    /// The scenario name: `off`, `ye2003`, `rfc5827`.
    pub fn name(self) -> &'static str {
        match self {
            EarlyRetransmit::Off => "off",
            EarlyRetransmit::Ye2003 => "ye2003",
            EarlyRetransmit::Rfc5827 => "rfc5827",
        }
    }

    /// The option of a scenario name, `None` for an unknown one.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "off" => Some(EarlyRetransmit::Off),
            "ye2003" => Some(EarlyRetransmit::Ye2003),
            "rfc5827" => Some(EarlyRetransmit::Rfc5827),
            _ => None,
        }
    }
}

/// Configuration of one SCTP endpoint and its associations. Build it from a profile and change
/// fields:
///
/// ```
/// use sctpsim_proto::transport::sctp::SctpConfig;
/// use sctpsim_kernel::SimDuration;
/// let cfg = SctpConfig { pmtu: 544, recv_buffer: 2 * 544, ..SctpConfig::rfc2960() };
/// assert_eq!(cfg.fast_rtx_threshold, 4);
/// assert_eq!(cfg.initial_cwnd(544), 2 * 544);
/// assert_eq!(SctpConfig::rfc9260().initial_cwnd(1500), 4380);
/// assert_eq!(SctpConfig::default().rto_initial, SimDuration::from_secs(1));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SctpConfig {
    /// The profile this configuration started from (informational; behaviour follows the
    /// fields).
    pub profile: Profile,

    // ----- RFC 9260 §16 protocol parameters -----
    /// RTO.Initial: the RTO of a destination before its first RTT measurement (and of T1).
    pub rto_initial: SimDuration,
    /// RTO.Min: the lower bound of the RTO (§6.3.1 C6).
    pub rto_min: SimDuration,
    /// RTO.Max: the upper bound of the RTO, also of a backed-off one (§6.3.1 C7, §6.3.3 E2).
    pub rto_max: SimDuration,
    /// Max.Burst: new-data packets per transmission opportunity and destination (§6.1 D);
    /// 0 disables the limit.
    pub max_burst: u32,
    /// RTO.Alpha, the SRTT gain (§6.3.1 C3).
    pub rto_alpha: Fraction,
    /// RTO.Beta, the RTTVAR gain (§6.3.1 C3).
    pub rto_beta: Fraction,
    /// Valid.Cookie.Life: the lifespan put in State Cookies (§5.1.3).
    pub valid_cookie_life: SimDuration,
    /// Largest lifespan extension a Cookie Preservative may obtain (§5.1.3 leaves the amount to
    /// the implementation; Linux caps the result similarly).
    pub max_cookie_preservative: SimDuration,
    /// Association.Max.Retrans: consecutive failures after which the peer is unreachable
    /// (§8.1).
    pub association_max_retrans: u32,
    /// Path.Max.Retrans: consecutive failures after which a destination is inactive (§8.2);
    /// the default of every new path (changeable per path).
    pub path_max_retrans: u32,
    /// Max.Init.Retransmits: INIT / COOKIE ECHO retransmissions before giving up (§5.1 C).
    pub max_init_retransmits: u32,
    /// The largest T1-init timeout, below RTO.Max: the socket API's `sinit_max_init_timeo`
    /// (RFC 6458 §8.1.3, "the largest timeout or retransmission timeout (RTO) value ... to
    /// use in attempting an INIT"). `None`: only RTO.Max bounds the backed-off T1-init.
    pub max_init_timeo: Option<SimDuration>,
    /// HB.interval: added to the RTO between heartbeats on an idle destination (§8.3); the
    /// default of every new path.
    pub hb_interval: SimDuration,
    /// RFC 9260 §8.3: the heartbeat period of an idle destination is jittered by ±50 % of its
    /// RTO. False: RTO + HB.interval exactly (ns-2.27's SCTP module, whose jitter term was
    /// always 0: [`SctpConfig::ns2_2003`]).
    pub hb_jitter: bool,
    /// HB.Max.Burst: heartbeats sent at once to unconfirmed addresses (§5.4, §16).
    pub hb_max_burst: u32,
    /// Send heartbeats on idle destinations (§8.3: "SHOULD"); the default of every new path.
    pub heartbeats: bool,
    /// Clock granularity G: RTTVAR is raised to G when it computes to 0 (§6.3.1 C3).
    pub clock_granularity: SimDuration,

    // ----- association setup -----
    /// Number of outbound streams requested in INIT / INIT ACK (OS).
    pub outbound_streams: u16,
    /// Maximum number of inbound streams accepted (MIS).
    pub max_inbound_streams: u16,
    /// Receive buffer in bytes: the initial a_rwnd and the bound on data held for reassembly,
    /// reordering and the application.
    pub recv_buffer: u32,
    /// Send buffer in bytes: queued plus unacknowledged user data accepted by `send`.
    pub send_buffer: usize,
    /// Keep gap-acknowledged data in the send buffer until the cumulative ack (or, with
    /// NR-SACK, an NR gap block) covers it: RFC 9260 §6.2.1 makes gap-acked data renegable, so
    /// a real sender cannot free it earlier. False: the older idealisation, gap-acked data
    /// frees its send-buffer space at once. True in every profile (a correction; it changes
    /// nothing unless the send buffer is what limits the sender).
    pub renegable_send_buffer: bool,
    /// Path MTU of every destination, IP header included (per-path value changeable).
    pub pmtu: u16,
    /// Largest user data per DATA chunk; `None`: as much as the smallest PMTU allows
    /// (PMTU − 20 IPv4 − 12 common header − 16 DATA header).
    pub max_fragment: Option<u32>,
    /// Fragment messages larger than a DATA chunk can hold (§6.9); when off, `send` refuses
    /// them.
    pub fragmentation: bool,

    // ----- SACK generation (§6.2) -----
    /// Delay SACKs of in-order data.
    pub delayed_sack: bool,
    /// The delayed-SACK timer (clamped to [`SACK_DELAY_MAX`]).
    pub sack_delay: SimDuration,
    /// SACK at least every this many packets carrying DATA.
    pub sack_freq: u32,
    /// Report at most this many Gap Ack Blocks per SACK (the lowest ones); `None`: all that fit
    /// the PMTU (RFC 9260 puts no limit). An experiment knob.
    pub max_gap_blocks: Option<u16>,

    // ----- loss recovery and congestion control (§6.3, §7.2) -----
    /// Miss indications that trigger fast retransmit: 3 (RFC 9260 §7.2.4), 4 (RFC 2960 §7.2.4:
    /// "wait for 3 further miss indications").
    pub fast_rtx_threshold: u32,
    /// RFC 9260 §7.2.4 HTNA: count a miss only for TSNs below the highest TSN newly
    /// acknowledged (all reported missing in Fast Recovery when the cumulative ack advances).
    /// RFC 2960 counts every SACK reporting the TSN missing.
    pub htna: bool,
    /// RFC 9260 §7.2.4 Fast Recovery: one cwnd reduction per window of loss, no cwnd growth
    /// until the exit point is acknowledged. RFC 2960 has no Fast Recovery.
    pub fast_recovery: bool,
    /// Initial cwnd in bytes; `None` uses the profile's formula ([`SctpConfig::initial_cwnd`]).
    pub initial_cwnd_bytes: Option<u32>,
    /// Initial cwnd `min(4·MTU, max(2·MTU, 4380))` (RFC 9260 §7.2.1) when true, `2·MTU`
    /// (RFC 2960 §7.2.1: "MUST be <= 2*MTU") when false.
    pub rfc9260_initial_cwnd: bool,
    /// Initial ssthresh in bytes; `None`: the peer's a_rwnd (§7.2.1: "MAY be arbitrarily high
    /// (e.g., the size of the receiver advertised window)").
    pub initial_ssthresh: Option<u32>,
    /// The floor of ssthresh after a loss in MTUs: `max(cwnd/2, 4·MTU)` (RFC 9260 §7.2.3) or
    /// `max(cwnd/2, 2·MTU)` (RFC 2960 §7.2.3). Also the floor of the idle decay (§7.2.1).
    pub ssthresh_floor_mtus: u32,
    /// Slow start grows cwnd only on SACKs that advance the cumulative TSN ack point (RFC 2960
    /// §7.2.1 requires it; RFC 9260 §7.2.1 no longer does, but its increase is "at most" the
    /// acknowledged bytes, so withholding it on gap-only SACKs stays within RFC 9260. On in
    /// both profiles, as FreeBSD does (`accum_moved`); ETSI TS 102 369 D/V/8/9 checks it).
    pub ss_requires_cum_advance: bool,
    /// Congestion avoidance counts partial_bytes_acked only on SACKs that advance the
    /// cumulative TSN ack point (RFC 2960 §7.2.2; dropped by RFC 8540 §3.22 / RFC 9260).
    pub ca_requires_cum_advance: bool,
    /// RFC 9260 §7.2.2 (RFC 8540 §3.26): cap partial_bytes_acked at cwnd when the window was
    /// not fully used.
    pub pba_cap: bool,
    /// Halve cwnd per idle RTO down to the ssthresh floor (§7.2.1: "SHOULD be adjusted to
    /// max(cwnd/2, 4*MTU) per RTO").
    pub cwnd_idle_decay: bool,
    /// Send fast retransmissions to an alternate destination too (RFC 2960 §6.4: "retransmit a
    /// chunk to an active destination transport address that is different"); RFC 9260 §6.4
    /// restricts this to chunks "that timed out".
    pub fast_rtx_to_alternate: bool,
    /// Send chunks retransmitted after a T3-rtx timeout to an alternate active destination
    /// (§6.4 "SHOULD").
    pub t3_rtx_to_alternate: bool,
    /// Send new data to the primary path again as soon as it is active (§6.4); when off, the
    /// association stays on the path it failed over to until that one fails.
    pub return_to_primary: bool,
    /// Early retransmission when the window is too small for the fast-retransmit threshold
    /// ([`EarlyRetransmit`]); off in both profiles (neither RFC 2960 nor RFC 9260 has it).
    pub early_retransmit: EarlyRetransmit,
    /// Several route paths to one peer address ([`super::asctp::Multipath`]): `Asctp` is
    /// Argyriou & Madisetti's A-SCTP (2004 §3); off in both profiles.
    pub multipath: super::asctp::Multipath,
    /// A-SCTP: which of its rules apply ([`super::asctp::AsctpRules`]; all by default, in every
    /// profile). An ablation knob: a rule switched off gives way to plain SCTP's behaviour.
    pub asctp_rules: super::asctp::AsctpRules,
    /// Cellular SCTP (Aydin & Shen, §II): handoff signalling and, optionally, duplicated
    /// transfer with per-path SACKs during a handoff ([`super::csctp`]); off in every profile.
    pub csctp: super::csctp::CsctpConfig,
    /// CMT-SCTP: which of its algorithms apply ([`super::cmt::CmtConfig`]; all, with
    /// RTX-SSTHRESH, by default). Meaningful only with [`super::asctp::Multipath::Cmt`].
    pub cmt: super::cmt::CmtConfig,

    // ----- extensions -----
    /// Offer and accept PR-SCTP (RFC 3758, Forward-TSN-Supported).
    pub pr_sctp: bool,
    /// Offer and accept ASCONF / ASCONF-ACK (RFC 5061). Without [`SctpConfig::auth`] they are
    /// offered without AUTH, which RFC 5061 §4.1.1 forbids (see the model document); with it,
    /// ASCONF is used only if AUTH is negotiated too, and ASCONF and ASCONF-ACK are always in
    /// our CHUNKS list.
    pub asconf: bool,
    /// Offer and accept SCTP-AUTH (RFC 4895): RANDOM, CHUNKS and HMAC-ALGO in INIT and INIT
    /// ACK, AUTH chunks before the chunks the peer lists. Off in every profile: neither the
    /// RFCs' base protocol nor the studies' simulators use it, and turning it on changes
    /// INIT, INIT ACK and cookie sizes.
    pub auth: bool,
    /// The HMAC we ask the peer to use (RFC 4895 §3.3): SHA-1 (the default, mandatory to
    /// implement) or SHA-256 (then SHA-1 is listed second).
    pub auth_hmac: super::auth::AuthHmac,
    /// Chunk types, besides ASCONF and ASCONF-ACK (always listed when [`SctpConfig::asconf`]
    /// is on, RFC 5061 §4.1.1), that the peer must authenticate (our CHUNKS list, RFC 4895
    /// §3.2). Empty by default.
    pub auth_chunks: Vec<u8>,
    /// Offer and accept I-DATA (RFC 8260 §2): list I-DATA in the Supported Extensions of INIT
    /// and INIT ACK; when both sides list it, user data goes in I-DATA chunks (with a MID and
    /// FSN, so fragments of messages on different streams may interleave) and never in DATA
    /// (§2.2). Off in every profile; off, an I-DATA chunk is an unrecognized chunk type, as
    /// for an RFC 9260 endpoint.
    pub i_data: bool,
    /// Offer and accept stream reconfiguration (RFC 6525): list RE-CONFIG in the Supported
    /// Extensions of INIT and INIT ACK; when both sides list it, streams can be reset and
    /// added ([`super::SctpAssociation::reset_streams`] and friends). With
    /// [`SctpConfig::auth`], RE-CONFIG joins our CHUNKS list and is used only if AUTH is
    /// negotiated (RFC 6525 §3.1: "MUST be sent in an authenticated way"). Off in every
    /// profile, so a run without it is unchanged.
    pub reconfig: bool,
    /// Offer and accept NR-SACK (Natarajan, Ekiz, Yilmaz, Amer, Iyengar & Stewart, ICNP 2008;
    /// draft-natarajan-tsvwg-sctp-nrsack): list NR-SACK (0x10) in the Supported Extensions of
    /// INIT and INIT ACK; when both sides list it, this endpoint acknowledges with NR-SACK
    /// chunks instead of SACKs, reporting out-of-order data as non-renegable (it never
    /// reneges), and frees NR-acknowledged data from its send buffer. Off in every profile.
    pub nr_sack: bool,
    /// Which outbound stream is served next (RFC 8260 §3; [`super::scheduler`]). Round robin
    /// in every profile, as before RFC 8260 was modelled.
    pub scheduler: super::scheduler::StreamScheduler,
    /// Most peer addresses an association keeps (INIT addresses beyond it are ignored, an
    /// ASCONF Add IP beyond it is refused with "Operation Refused Due to Resource Shortage").
    pub max_paths: usize,

    // ----- instrumentation -----
    /// Record the metric stream ([`super::MetricEvent`]: TSNs sent and acked, cwnd changes,
    /// path switches) for [`super::SctpAssociation::poll_metric`].
    pub metrics: bool,
}

impl Default for SctpConfig {
    fn default() -> Self {
        Self::rfc9260()
    }
}

impl SctpConfig {
    /// RFC 9260: the current specification's parameters and algorithms.
    pub fn rfc9260() -> Self {
        SctpConfig {
            profile: Profile::Rfc9260,
            rto_initial: RTO_INITIAL,
            rto_min: RTO_MIN,
            rto_max: RTO_MAX,
            max_burst: MAX_BURST,
            rto_alpha: RTO_ALPHA,
            rto_beta: RTO_BETA,
            valid_cookie_life: VALID_COOKIE_LIFE,
            max_cookie_preservative: SimDuration::from_secs(3600),
            association_max_retrans: ASSOCIATION_MAX_RETRANS,
            path_max_retrans: PATH_MAX_RETRANS,
            max_init_retransmits: MAX_INIT_RETRANSMITS,
            max_init_timeo: None,
            hb_interval: HB_INTERVAL,
            hb_jitter: true,
            hb_max_burst: HB_MAX_BURST,
            heartbeats: true,
            // RFC 9260 §6.3.1 leaves G to the implementation; 1 ms is a typical kernel tick.
            clock_granularity: SimDuration::from_millis(1),
            // RFC 6458 §8.1.3 (SCTP_INITMSG): Linux and FreeBSD default to 10 outbound streams;
            // 65535 inbound streams is the protocol maximum.
            outbound_streams: 10,
            max_inbound_streams: u16::MAX,
            // Linux's default SCTP receive buffer leaves ~106 KiB of a_rwnd; FreeBSD 64 KiB.
            recv_buffer: 65_536,
            send_buffer: 1 << 20,
            renegable_send_buffer: true,
            pmtu: 1500,
            max_fragment: None,
            fragmentation: true,
            delayed_sack: true,
            sack_delay: SACK_DELAY,
            sack_freq: SACK_FREQ,
            max_gap_blocks: None,
            fast_rtx_threshold: 3,
            htna: true,
            fast_recovery: true,
            initial_cwnd_bytes: None,
            rfc9260_initial_cwnd: true,
            initial_ssthresh: None,
            ssthresh_floor_mtus: 4,
            ss_requires_cum_advance: true,
            ca_requires_cum_advance: false,
            pba_cap: true,
            cwnd_idle_decay: true,
            fast_rtx_to_alternate: false,
            t3_rtx_to_alternate: true,
            return_to_primary: true,
            early_retransmit: EarlyRetransmit::Off,
            multipath: super::asctp::Multipath::Off,
            asctp_rules: super::asctp::AsctpRules::ALL,
            cmt: super::cmt::CmtConfig::RECOMMENDED,
            csctp: super::csctp::CsctpConfig {
                enabled: false,
                duplicate_during_handoff: false,
            },
            pr_sctp: true,
            asconf: true,
            auth: false,
            auth_hmac: super::auth::AuthHmac::Sha1,
            auth_chunks: Vec::new(),
            i_data: false,
            reconfig: false,
            nr_sack: false,
            scheduler: super::scheduler::StreamScheduler::default(),
            max_paths: 16,
            metrics: false,
        }
    }

    /// RFC 2960: the original specification, as the studies' simulators implemented it. The
    /// differences from [`SctpConfig::rfc9260`] are exactly the fields set here; see
    /// `docs/models/sctp.md` for the list with sections.
    pub fn rfc2960() -> Self {
        SctpConfig {
            profile: Profile::Rfc2960,
            rto_initial: RTO_INITIAL_RFC2960,
            fast_rtx_threshold: 4,
            htna: false,
            fast_recovery: false,
            rfc9260_initial_cwnd: false,
            ssthresh_floor_mtus: 2,
            ss_requires_cum_advance: true,
            ca_requires_cum_advance: true,
            pba_cap: false,
            fast_rtx_to_alternate: true,
            // Both extensions postdate RFC 2960 (RFC 3758: 2004, RFC 5061: 2007).
            pr_sctp: false,
            asconf: false,
            ..Self::rfc9260()
        }
    }

    /// ns-2.35's SCTP module: `Agent/SCTP` defaults (`tcl/lib/ns-default.tcl`) and the rules of
    /// `sctp/sctp.cc`. Fields ns-2 does not set differently keep [`SctpConfig::rfc2960`]'s values
    /// (`docs/models/sctp.md`, "The ns2 profile", lists which were checked against the source).
    pub fn ns2() -> Self {
        SctpConfig {
            profile: Profile::Ns2,
            // `Agent/SCTP set fastRtxTrigger_ 3`; `ProcessGapAckBlocks` counts a miss only for
            // TSNs below the highest TSN newly acked (HTNA) and keeps `uiRecover` (Fast
            // Recovery: one cwnd reduction per window).
            fast_rtx_threshold: 3,
            htna: true,
            fast_recovery: true,
            // `Agent/SCTP set initialSsthresh_ 65536`.
            initial_ssthresh: Some(65_536),
            // `Agent/SCTP set numOutStreams_ 1`.
            outbound_streams: 1,
            // `Agent/SCTP set rtxToAlt_ 1`: every retransmission to an alternate destination.
            fast_rtx_to_alternate: true,
            t3_rtx_to_alternate: true,
            // `initialRto_ 3.0`, `minRto_ 1.0`, `maxRto_ 60.0`, `initialCwnd_ 2` (MTUs),
            // `initialRwnd_ 65536`, `mtu_ 1500`, `useDelayedSacks_ 1`, `sackDelay_ 0.200`,
            // `useMaxBurst_ 1` (4 packets), `heartbeatInterval_ 30`, `pathMaxRetrans_ 5`,
            // `associationMaxRetrans_ 10`, `reliability_ 0` (no PR-SCTP), no ASCONF: as RFC 2960.
            ..Self::rfc2960()
        }
    }

    /// ns-2.27's SCTP module, release 3.4 of the University of Delaware's (ns-2's SCTP from
    /// August 2003 until ns-2.29 in 2005): what an ns-2 study of 2003–2004 ran. Its defaults
    /// equal [`SctpConfig::ns2`]'s (`tcl/lib/ns-default.tcl` of ns-2.27: `dataChunkSize_ 1468`,
    /// `initialRwnd_ 65536`, `useDelayedSacks_ 1`, `heartbeatInterval_ 30`, ...; `sctp/sctp.h`:
    /// `INITIAL_RTO 3`, `MIN_RTO 1`, `MAX_RTO 60`, `SACK_GEN_TIMEOUT 0.200`) except:
    pub fn ns2_2003() -> Self {
        SctpConfig {
            profile: Profile::Ns2_2003,
            // `sctp/sctp.h`: `#define FAST_RTX_TRIGGER 4` (3 only from release 3.8, ns-2.35).
            fast_rtx_threshold: 4,
            // `FastRtx()` (sctp.cc of 2.27) halves cwnd for every fast retransmission, with
            // no recovery point; HTNA is there (`uiHighestTsnNewlySacked`, "impl guide v.02").
            fast_recovery: false,
            // `iCwnd = iInitialCwnd * uiMaxDataSize` (sctp.cc:614 of 2.27): 2 · 1468 bytes.
            initial_cwnd_bytes: Some(2 * 1468),
            // `CalcHeartbeatTime()` of release 3.4 adds `int(Random::uniform()) %
            // uiHeartbeatInterval`, always 0, then subtracts half the interval: RTO + 15 s,
            // no jitter (release 3.5's change log: "generated at 16 sec intervals").
            hb_interval: SimDuration::from_secs(15),
            hb_jitter: false,
            ..Self::ns2()
        }
    }

    /// The configuration of a named profile (`rfc9260`, `rfc2960`, `ns2`, `ns2-2003`).
    pub fn profile(name: &str) -> Option<Self> {
        match name {
            "rfc9260" => Some(Self::rfc9260()),
            "rfc2960" => Some(Self::rfc2960()),
            "ns2" => Some(Self::ns2()),
            "ns2-2003" => Some(Self::ns2_2003()),
            _ => None,
        }
    }

    /// The initial cwnd of a destination with path MTU `mtu` (bytes):
    /// [`SctpConfig::initial_cwnd_bytes`] if set, else `min(4·MTU, max(2·MTU, 4380))`
    /// (RFC 9260 §7.2.1) or `2·MTU` (RFC 2960 §7.2.1).
    pub fn initial_cwnd(&self, mtu: u32) -> u32 {
        if let Some(bytes) = self.initial_cwnd_bytes {
            return bytes.max(1);
        }
        if self.rfc9260_initial_cwnd {
            (4 * mtu).min((2 * mtu).max(INITIAL_CWND_BYTES))
        } else {
            2 * mtu
        }
    }

    /// The delayed-SACK timer actually used: [`SctpConfig::sack_delay`] clamped to 500 ms
    /// (RFC 9260 §6.2: "MUST NOT exceed 500 ms").
    pub fn effective_sack_delay(&self) -> SimDuration {
        self.sack_delay.min(SACK_DELAY_MAX)
    }

    /// The T5-shutdown-guard duration: 5 × RTO.Max (RFC 9260 §9.2).
    pub fn t5_shutdown_guard(&self) -> SimDuration {
        self.rto_max.saturating_mul(T5_MULTIPLIER)
    }

    /// The largest user data an association with this configuration puts in one DATA chunk
    /// while every destination still has the configured [`SctpConfig::pmtu`] (raised to
    /// [`MIN_PMTU`] like every new path). An application that wants one message per DATA chunk
    /// (the engine's `ftp` and `file` sources) sizes its messages with it, so that it follows
    /// the association's rule instead of repeating it.
    pub fn max_chunk_user_data(&self) -> usize {
        self.max_chunk_user_data_at(usize::from(self.pmtu.max(MIN_PMTU)))
    }

    /// The largest user data per DATA chunk on a path MTU of `pmtu` bytes: PMTU less the IPv4,
    /// common and DATA chunk headers, rounded down to a multiple of 4 so that DATA chunks need
    /// no padding, or [`SctpConfig::max_fragment`] if smaller (at least 1 byte either way).
    pub fn max_chunk_user_data_at(&self, pmtu: usize) -> usize {
        let by_mtu = pmtu
            .saturating_sub(IP_SCTP_OVERHEAD + DATA_CHUNK_HEADER)
            .max(1);
        let by_mtu = if by_mtu >= 8 { by_mtu & !3 } else { by_mtu };
        match self.max_fragment {
            Some(f) => (f as usize).clamp(1, by_mtu),
            None => by_mtu,
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn initial_cwnd_formulas() {
        let c = SctpConfig::rfc9260();
        assert_eq!(c.initial_cwnd(1500), 4380);
        assert_eq!(c.initial_cwnd(544), 2176); // 4·544 < 4380
        assert_eq!(c.initial_cwnd(9000), 18_000); // 2·MTU > 4380
        assert_eq!(SctpConfig::rfc2960().initial_cwnd(1500), 3000);
        let fixed = SctpConfig {
            initial_cwnd_bytes: Some(1000),
            ..SctpConfig::rfc9260()
        };
        assert_eq!(fixed.initial_cwnd(1500), 1000);
    }

    #[test]
    fn chunk_user_data_follows_the_pmtu_and_max_fragment() {
        let c = SctpConfig::rfc9260();
        // 1500 − 20 − 12 − 16 = 1452, a multiple of 4.
        assert_eq!(c.max_chunk_user_data(), 1452);
        // 1001 − 48 = 953 → 952.
        assert_eq!(c.max_chunk_user_data_at(1001), 952);
        // Below MIN_PMTU the configured PMTU is raised like a path's: 128 − 48 = 80.
        let tiny = SctpConfig {
            pmtu: 60,
            ..SctpConfig::rfc9260()
        };
        assert_eq!(tiny.max_chunk_user_data(), 80);
        assert_eq!(tiny.max_chunk_user_data_at(50), 2);
        let capped = SctpConfig {
            max_fragment: Some(500),
            ..SctpConfig::rfc9260()
        };
        assert_eq!(capped.max_chunk_user_data(), 500);
        let zero = SctpConfig {
            max_fragment: Some(0),
            ..SctpConfig::rfc9260()
        };
        assert_eq!(zero.max_chunk_user_data(), 1);
    }

    #[test]
    fn fractions_and_profiles() {
        assert_eq!(RTO_ALPHA.of(800), 100);
        assert_eq!(Fraction { num: 1, den: 0 }.of(7), 7);
        assert_eq!(
            SctpConfig::profile("rfc2960").unwrap().profile.name(),
            "rfc2960"
        );
        assert!(SctpConfig::profile("rfc4960").is_none());
        // ns-2.35: RFC 2960 timers and initial window, third-miss fast retransmit with HTNA.
        let old = SctpConfig::profile("ns2-2003").unwrap();
        assert_eq!(old.profile.name(), "ns2-2003");
        assert_eq!(
            (old.fast_rtx_threshold, old.htna, old.fast_recovery),
            (4, true, false)
        );
        assert_eq!(old.initial_cwnd(1500), 2936);
        assert_eq!(
            (old.hb_interval, old.hb_jitter),
            (SimDuration::from_secs(15), false)
        );
        let ns2 = SctpConfig::profile("ns2").unwrap();
        assert_eq!(ns2.profile.name(), "ns2");
        assert_eq!((ns2.fast_rtx_threshold, ns2.htna), (3, true));
        assert_eq!(ns2.rto_initial, SctpConfig::rfc2960().rto_initial);
        assert_eq!(ns2.initial_cwnd(1500), 3000);
        assert_eq!(ns2.outbound_streams, 1);
        for e in [
            EarlyRetransmit::Off,
            EarlyRetransmit::Ye2003,
            EarlyRetransmit::Rfc5827,
        ] {
            assert_eq!(EarlyRetransmit::from_name(e.name()), Some(e));
        }
        assert_eq!(EarlyRetransmit::from_name("rfc5828"), None);
        assert_eq!(SctpConfig::rfc2960().early_retransmit, EarlyRetransmit::Off);
        assert_eq!(
            SctpConfig {
                sack_delay: SimDuration::from_secs(2),
                ..SctpConfig::default()
            }
            .effective_sack_delay(),
            SACK_DELAY_MAX
        );
    }
}
