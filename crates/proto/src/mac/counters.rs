//! Per-MAC counters: what was sent, retried, dropped and why, what was received.

/// Counters of one MAC. All start at zero and only grow.
///
/// The receive counters come first (`repr(C)`: declaration order): every frame heard updates
/// one of them, and [`super::Dcf`] keeps them next to its other per-frame state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct MacCounters {
    /// Frames received with a valid FCS.
    pub rx_frames: u64,
    /// Frames received in error (reported corrupted, bad FCS or unparsable): each starts an EIFS.
    pub rx_errors: u64,
    /// Duplicate data/management frames filtered (Acked, not delivered).
    pub rx_duplicates: u64,
    /// Packets delivered up to IP.
    pub delivered: u64,
    /// Packets accepted into the interface queue.
    pub enqueued: u64,
    /// Packets dropped by the interface queue (full).
    pub queue_drops: u64,
    /// Frames sent after winning contention (DATA, RTS, management, beacons): the attempts
    /// whose fate the backoff decides. Frames sent SIFS after a CTS or as a response are not
    /// counted.
    pub access_attempts: u64,
    /// Of [`MacCounters::access_attempts`], those to an individual address (they expect a CTS
    /// or an ACK).
    pub unicast_attempts: u64,
    /// Data frames put on the air (first transmissions and retransmissions).
    pub tx_data: u64,
    /// Data frame retransmissions (Retry bit set).
    pub tx_data_retries: u64,
    /// RTS frames sent.
    pub tx_rts: u64,
    /// CTS frames sent.
    pub tx_cts: u64,
    /// Ack frames sent.
    pub tx_ack: u64,
    /// Management frames sent (beacons included).
    pub tx_mgmt: u64,
    /// Beacons sent.
    pub tx_beacons: u64,
    /// Unicast frames acknowledged (SDUs and management frames).
    pub tx_success: u64,
    /// Group-addressed data frames sent.
    pub tx_group: u64,
    /// AckTimeouts (no valid Ack after a DATA or management frame: collisions or losses).
    pub ack_timeouts: u64,
    /// CTSTimeouts (no valid CTS after an RTS).
    pub cts_timeouts: u64,
    /// Frames discarded at the short retry limit.
    pub drops_short_retry: u64,
    /// Frames discarded at the long retry limit.
    pub drops_long_retry: u64,
    /// CTS not sent because the NAV was set when the RTS arrived.
    pub cts_suppressed: u64,
    /// Unicast data frames put on the air (first transmissions and retransmissions).
    pub tx_unicast_data: u64,
    /// Sum of the PHY rates (bit/s) of those frames: over `tx_unicast_data`, the mean data
    /// rate per attempt.
    pub tx_unicast_data_bps: u64,
    /// Unicast frames acknowledged after 0, 1, 2 and 3 or more failed attempts (CTS or Ack
    /// timeouts): how close the frames that got through came to a retry limit.
    pub acked_after_retries: [u64; ACKED_RETRY_BUCKETS],
}

/// Buckets of [`MacCounters::acked_after_retries`]: 0, 1, 2 and "3 or more" failed attempts
/// (the paper's long retry limit of 4 drops a frame at its 4th failure: Ye et al. 2003, §4).
pub const ACKED_RETRY_BUCKETS: usize = 4;

impl MacCounters {
    /// Collisions observed by this transmitter: AckTimeouts plus CTSTimeouts.
    pub fn collisions(&self) -> u64 {
        self.ack_timeouts + self.cts_timeouts
    }

    /// Mean PHY rate of the unicast data frames sent (bit/s, per attempt; 0 without any).
    pub fn mean_data_rate_bps(&self) -> f64 {
        if self.tx_unicast_data == 0 {
            0.0
        } else {
            self.tx_unicast_data_bps as f64 / self.tx_unicast_data as f64
        }
    }

    /// Counts an acknowledged unicast frame that needed `retries` failed attempts first.
    pub fn count_acked(&mut self, retries: u32) {
        let k = (retries as usize).min(ACKED_RETRY_BUCKETS - 1);
        self.acked_after_retries[k] += 1;
    }

    /// Frames dropped at a retry limit.
    pub fn retry_drops(&self) -> u64 {
        self.drops_short_retry + self.drops_long_retry
    }
}
