//! The engine's side of the SCTP flows' applications: the message source and checking sink are
//! sans-IO pieces of `sctpsim_proto::app` ([`MessageSource`], [`MessageSink`]); here the
//! scenario's `app` and `[flows.messages]` become a [`MessageSourceConfig`], and delay
//! quantiles become result columns.
//!
//! [`MessageSource`]: sctpsim_proto::app::MessageSource
//! [`MessageSink`]: sctpsim_proto::app::MessageSink

use crate::scenario::{AppKind, FlowSpec};
use sctpsim_kernel::SimTime;
use sctpsim_proto::app::{MessageSourceConfig, SeqTsHeader};
use sctpsim_proto::transport::sctp::SctpConfig;

/// The source of flow `f` whose associations use `cfg`: `messages` as configured, or for
/// `ftp` and `file` one full DATA chunk per message (the association's own chunk size,
/// [`SctpConfig::max_chunk_user_data`]) on stream 0, ordered.
pub(super) fn source_config(f: &FlowSpec, cfg: &SctpConfig) -> MessageSourceConfig {
    let start = SimTime::ZERO + f.start.0;
    let messages = f.messages.clone().unwrap_or_default();
    match f.app {
        AppKind::Messages => MessageSourceConfig {
            message_bytes: messages.message_bytes as usize,
            streams: messages.streams.max(1),
            unordered: messages.unordered,
            lifetime: messages.lifetime.map(|d| d.0),
            rate: messages.rate.map(|r| r.0),
            start,
            stop: f.stop.map(|d| SimTime::ZERO + d.0),
            total_bytes: None,
            count: messages.count,
        },
        _ => MessageSourceConfig {
            message_bytes: cfg.max_chunk_user_data().max(SeqTsHeader::LEN),
            streams: 1,
            unordered: false,
            lifetime: None,
            rate: None,
            start,
            stop: None,
            total_bytes: (f.app == AppKind::File).then_some(f.size_bytes.unwrap_or(0)),
            count: None,
        },
    }
}

/// The `q`-quantile (0–1, nearest rank) of the delays `v` (ns), in seconds.
pub(super) fn quantile_s(v: &[u64], q: f64) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_unstable();
    let rank = ((q * s.len() as f64).ceil() as usize).clamp(1, s.len());
    Some(s[rank - 1] as f64 / 1e9)
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn quantiles_by_nearest_rank() {
        assert_eq!(quantile_s(&[3, 1, 2, 4], 0.5), Some(2e-9));
        assert_eq!(quantile_s(&[3, 1, 2, 4], 0.95), Some(4e-9));
        assert_eq!(quantile_s(&[5], 0.0), Some(5e-9));
        assert_eq!(quantile_s(&[], 0.5), None);
    }
}
