//! The described parameters of the TCP and SCTP configurations (`[flows.tcp]`,
//! `[flows.sctp]`); `docs/models/tcp.md` and `docs/models/sctp.md` give each default's source.

use super::{opt, secs, Describe, Param};
use crate::scenario::PartialAckTimerKind;
use sctpsim_proto::transport::sctp::{CoupledCc, SctpConfig};
use sctpsim_proto::transport::tcp::{PartialAckTimer, TcpConfig};
use serde_json::Value;

fn partial_ack_timer(t: PartialAckTimer) -> Value {
    let kind = match t {
        PartialAckTimer::Impatient => PartialAckTimerKind::Impatient,
        PartialAckTimer::SlowButSteady => PartialAckTimerKind::SlowButSteady,
    };
    serde_json::to_value(kind).unwrap_or(Value::Null)
}

impl Describe for TcpConfig {
    const PARAMS: &'static [Param<Self>] = &[
        Param {
            field: "mss_bytes",
            unit: "bytes",
            get: |c| c.mss.into(),
            doc: "largest segment payload (and advertised MSS)",
        },
        Param {
            field: "initial_window_segments",
            unit: "segments",
            get: |c| opt(c.initial_window),
            doc: "initial congestion window; null: RFC 5681 §3.1's formula",
        },
        Param {
            field: "initial_ssthresh_bytes",
            unit: "bytes",
            get: |c| c.initial_ssthresh.into(),
            doc: "initial slow-start threshold",
        },
        Param {
            field: "max_window_bytes",
            unit: "bytes",
            get: |c| opt(c.max_send_window),
            doc: "cap on the send window (ns-2 window_)",
        },
        Param {
            field: "recv_buffer_bytes",
            unit: "bytes",
            get: |c| c.recv_buffer.into(),
            doc: "receive buffer: the largest window the receiver advertises",
        },
        Param {
            field: "timestamps",
            unit: "",
            get: |c| c.timestamps.into(),
            doc: "RFC 7323 timestamps",
        },
        Param {
            field: "max_sack_blocks",
            unit: "",
            get: |c| opt(c.max_sack_blocks),
            doc: "most SACK blocks per ACK (1–4, RFC 2018)",
        },
        Param {
            field: "dupthresh",
            unit: "",
            get: |c| c.dupthresh.into(),
            doc: "duplicate ACKs that trigger fast retransmit (RFC 5681 §3.2: 3)",
        },
        Param {
            field: "limited_transmit",
            unit: "",
            get: |c| c.limited_transmit.into(),
            doc: "RFC 3042 limited transmit",
        },
        Param {
            field: "delayed_ack",
            unit: "",
            get: |c| c.delayed_ack.into(),
            doc: "delayed ACKs: every second segment or the timer (RFC 1122 §4.2.3.2)",
        },
        Param {
            field: "delayed_ack_timeout",
            unit: "s",
            get: |c| secs(c.delayed_ack_timeout),
            doc: "the delayed-ACK timer",
        },
        Param {
            field: "initial_rto",
            unit: "s",
            get: |c| secs(c.initial_rto),
            doc: "RTO before the first RTT sample (RFC 6298 §2.1)",
        },
        Param {
            field: "min_rto",
            unit: "s",
            get: |c| secs(c.min_rto),
            doc: "lower bound of the RTO (RFC 6298 §2.4)",
        },
        Param {
            field: "max_rto",
            unit: "s",
            get: |c| secs(c.max_rto),
            doc: "upper bound of the RTO (RFC 6298 §2.5)",
        },
        Param {
            field: "partial_ack_timer",
            unit: "",
            get: |c| partial_ack_timer(c.partial_ack_timer),
            doc: "NewReno partial-ACK timer behaviour (RFC 6582 §4)",
        },
        Param {
            field: "nagle",
            unit: "",
            get: |c| c.nagle.into(),
            doc: "Nagle's algorithm (RFC 896)",
        },
    ];
}

/// The `[flows.sctp]` fields whose default is not the profile's but the scenario's links
/// (the path MTU is the smallest link MTU, the chunk size what it allows).
pub const SCTP_PATH_FIELDS: [&str; 2] = ["mtu_bytes", "chunk_bytes"];

impl Describe for SctpConfig {
    const PARAMS: &'static [Param<Self>] = &[
        Param {
            field: "initial_rto",
            unit: "s",
            get: |c| secs(c.rto_initial),
            doc: "RTO.Initial (RFC 9260 §16)",
        },
        Param {
            field: "min_rto",
            unit: "s",
            get: |c| secs(c.rto_min),
            doc: "RTO.Min (RFC 9260 §16)",
        },
        Param {
            field: "max_rto",
            unit: "s",
            get: |c| secs(c.rto_max),
            doc: "RTO.Max (RFC 9260 §16)",
        },
        Param {
            field: "hb_interval",
            unit: "s",
            get: |c| secs(c.hb_interval),
            doc: "HB.interval, added to the RTO between heartbeats on an idle destination \
                  (RFC 9260 §8.3)",
        },
        Param {
            field: "heartbeats",
            unit: "",
            get: |c| c.heartbeats.into(),
            doc: "heartbeats on idle destinations (RFC 9260 §8.3 SHOULD)",
        },
        Param {
            field: "path_max_retrans",
            unit: "",
            get: |c| c.path_max_retrans.into(),
            doc: "Path.Max.Retrans (RFC 9260 §8.2)",
        },
        Param {
            field: "association_max_retrans",
            unit: "",
            get: |c| c.association_max_retrans.into(),
            doc: "Association.Max.Retrans (RFC 9260 §8.1)",
        },
        Param {
            field: "delayed_sack",
            unit: "",
            get: |c| c.delayed_sack.into(),
            doc: "delay SACKs of in-order data (RFC 9260 §6.2)",
        },
        Param {
            field: "delayed_sack_timeout",
            unit: "s",
            get: |c| secs(c.effective_sack_delay()),
            doc: "the delayed-SACK timer (RFC 9260 §6.2; at most 500 ms)",
        },
        Param {
            field: "sack_frequency",
            unit: "",
            get: |c| c.sack_freq.into(),
            doc: "SACK at least every this many packets with DATA (RFC 9260 §6.2: 2)",
        },
        Param {
            field: "max_burst",
            unit: "",
            get: |c| c.max_burst.into(),
            doc: "Max.Burst (RFC 9260 §6.1 D); 0 disables the limit",
        },
        Param {
            field: "max_gap_blocks",
            unit: "",
            get: |c| opt(c.max_gap_blocks),
            doc: "most Gap Ack Blocks per SACK (the lowest ones); null: all that fit",
        },
        Param {
            field: "fast_rtx_threshold",
            unit: "",
            get: |c| c.fast_rtx_threshold.into(),
            doc: "miss indications that trigger fast retransmit (RFC 9260: 3, RFC 2960: 4)",
        },
        Param {
            field: "early_retransmit",
            unit: "",
            get: |c| c.early_retransmit.name().into(),
            doc: "early retransmission for small windows: off, ye2003 (Ye, Saadawi & Lee 2003 \
                  §5) or rfc5827 (RFC 5827 §3.2)",
        },
        Param {
            field: "multipath",
            unit: "",
            get: |c| c.multipath.name().into(),
            doc: "several paths at once: off, asctp (Argyriou & Madisetti 2004 §3) or cmt \
                  (Iyengar, Amer & Stewart 2006)",
        },
        Param {
            field: "initial_cwnd_bytes",
            unit: "bytes",
            get: |c| c.initial_cwnd(u32::from(c.pmtu)).into(),
            doc: "initial cwnd of every destination: the profile's formula on the path MTU \
                  (RFC 9260 §7.2.1)",
        },
        Param {
            field: "initial_ssthresh_bytes",
            unit: "bytes",
            get: |c| opt(c.initial_ssthresh),
            doc: "initial ssthresh; null: the peer's a_rwnd (RFC 9260 §7.2.1)",
        },
        Param {
            field: "streams",
            unit: "",
            get: |c| c.outbound_streams.into(),
            doc: "outbound streams requested (OS in INIT / INIT ACK)",
        },
        Param {
            field: "return_to_primary",
            unit: "",
            get: |c| c.return_to_primary.into(),
            doc: "return new data to the primary path as soon as it is active again \
                  (RFC 9260 §6.4)",
        },
        Param {
            field: "mtu_bytes",
            unit: "bytes",
            get: |c| c.pmtu.into(),
            doc: "path MTU of every destination, IP header included; default the smallest \
                  link MTU",
        },
        Param {
            field: "chunk_bytes",
            unit: "bytes",
            get: |c| c.max_chunk_user_data_at(usize::from(c.pmtu)).into(),
            doc: "largest user data per DATA chunk; default as much as the MTU allows",
        },
        Param {
            field: "recv_buffer_bytes",
            unit: "bytes",
            get: |c| c.recv_buffer.into(),
            doc: "receive buffer (initial a_rwnd)",
        },
        Param {
            field: "send_buffer_bytes",
            unit: "bytes",
            get: |c| c.send_buffer.into(),
            doc: "send buffer (queued plus unacknowledged user data)",
        },
    ];
}

/// The CMT fields of `[flows.sctp]` (`sctpsim show` lists them after the main table, and only
/// with `multipath = "cmt"`); `docs/models/sctp.md` "CMT-SCTP" gives each default's source.
pub const SCTP_CMT_PARAMS: &[Param<SctpConfig>] = &[
    Param {
        field: "cmt_sfr",
        unit: "",
        get: |c| c.cmt.sfr.into(),
        doc: "Split Fast Retransmit, miss indications per destination (Iyengar, Amer & \
              Stewart, ToN 2006, §3.1)",
    },
    Param {
        field: "cmt_cuc",
        unit: "",
        get: |c| c.cmt.cuc.into(),
        doc: "Cwnd Update for CMT, growth on each destination's pseudo-cumulative ack and \
              Fast Recovery per destination (ToN §3.2)",
    },
    Param {
        field: "cmt_dac",
        unit: "",
        get: |c| c.cmt.dac.into(),
        doc: "Delayed ACK for CMT on both sides (ToN §3.3)",
    },
    Param {
        field: "cmt_pf",
        unit: "",
        get: |c| c.cmt.pf.into(),
        doc: "the potentially-failed state, CMT-PF (Natarajan et al., IFIP Networking 2008)",
    },
    Param {
        field: "cmt_coupled",
        unit: "",
        get: |c| (c.cmt.coupled != CoupledCc::Off).into(),
        doc: "whether a coupled congestion control runs (the older form of cmt_cc: true is \
              lia)",
    },
    Param {
        field: "cmt_cc",
        unit: "",
        get: |c| c.cmt.coupled.name().into(),
        doc: "coupled congestion control: off (ToN), lia (RFC 6356 §3), rpv1 (Dreibholz et \
              al., AINA 2010) or rpv2 (Dreibholz et al., ConTEL 2011)",
    },
    Param {
        field: "cmt_rtx_policy",
        unit: "",
        get: |c| c.cmt.rtx_policy.name().into(),
        doc: "where retransmissions go (ToN §4; RTX-SSTHRESH recommended)",
    },
];

/// SCTP extensions of `[flows.sctp]` that `sctpsim show` lists after the ASCONF actions
/// (their sources in `docs/models/sctp.md`).
pub const SCTP_EXTENSION_PARAMS: &[Param<SctpConfig>] = &[
    Param {
        field: "reconfig",
        unit: "",
        get: |c| c.reconfig.into(),
        doc: "stream reconfiguration, RE-CONFIG chunks (RFC 6525), offered in INIT",
    },
    Param {
        field: "nr_sack",
        unit: "",
        get: |c| c.nr_sack.into(),
        doc: "non-renegable SACKs, NR-SACK chunks (Natarajan et al., ICNP 2008; \
              draft-tuexen-tsvwg-sctp-multipath), offered in INIT",
    },
    Param {
        field: "renegable_send_buffer",
        unit: "",
        get: |c| c.renegable_send_buffer.into(),
        doc: "gap-acked data stays in the send buffer until cumulatively acked (RFC 9260 \
              §6.2.1: the receiver may renege); off: freed at once",
    },
];
