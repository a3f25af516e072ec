//! MAC configuration ([`MacConfig`]) and the radio presets ([`RadioProfile`]): `ns2-wavelan`,
//! `80211b`, `80211a`, `80211g`.
//!
//! Every field of [`MacConfig`] can be overridden after choosing a preset (the scenario's
//! `[radio]` section: `profile = "ns2-wavelan"` then any field). The presets:
//!
//! | field | `ns2-wavelan` | `80211b` | `80211a` | `80211g` |
//! |---|---|---|---|---|
//! | PHY | DSSS (Cl. 15) | HR/DSSS (Cl. 16) | OFDM 20 MHz (Cl. 17) | ERP, short slot (Cl. 18) |
//! | slot / SIFS | 20 / 10 µs | 20 / 10 µs | 9 / 16 µs | 9 / 10 µs |
//! | CWmin / CWmax | 31 / 1023 | 31 / 1023 | 15 / 1023 | 15 / 1023 |
//! | data rate | 2 Mbit/s | 11 Mbit/s | 54 Mbit/s | 54 Mbit/s |
//! | basic rates | 1 | 1, 2 | 6, 12, 24 | 6, 12, 24 (ERP-OFDM) |
//! | broadcast data rate | 2 Mbit/s (as ns-2) | lowest basic | lowest basic | lowest basic |
//! | preamble | long | long | — | — |
//! | RTS threshold | 0 B (RTS before every unicast) | 65535 B (off) | off | off |
//! | retry limits short / long | 7 / 4 | 7 / 4 | 7 / 4 | 7 / 4 |
//! | interface queue | 50 | 50 | 50 | 50 |
//!
//! Sources: ns-2.35 `tcl/lib/ns-default.tcl` (Mac/802_11: CWMin_ 31, CWMax_ 1023, SlotTime_
//! 20 µs, SIFS_ 10 µs, PreambleLength_ 144 bits, PLCPHeaderLength_ 48 bits, PLCPDataRate_
//! 1 Mbit/s, RTSThreshold_ 0, ShortRetryLimit_ 7, LongRetryLimit_ 4; `Queue set limit_ 50`);
//! the 2 Mbit/s data / 1 Mbit/s basic rates are the CMU wireless extension's WaveLAN set-up
//! (`Phy/WirelessPhy set bandwidth_ 2e6`) that DESIGN.md §4 fixes for ns-2 comparisons
//! (ns-2.35's own `tcl/lan/ns-mac.tcl` sets both `dataRate_` and `basicRate_` to 1 Mb); ns-2's
//! `Mac802_11::sendDATA` sends broadcast DATA at `dataRate_`. IEEE Std 802.11-2020: PHY
//! constants per [`super::phy_timing`]; dot11ShortRetryLimit 7 and dot11LongRetryLimit 4 and
//! dot11RTSThreshold 65535 (Annex C MIB defaults); mandatory rates (§15.1, §16.1, §17.3.1,
//! §18.1.1) used as the basic rate sets of the standard presets, except that `80211b` uses the
//! {1, 2} Mbit/s basic set that 802.11b access points commonly advertise.

use sctpsim_kernel::SimDuration;

use super::rate::RateControlConfig;

use super::phy_timing::{
    self, ns2_21b8_duration, tx_duration, OfdmRate, PhyMode, PhyStandard, PhyTiming, Preamble,
    ACK_BYTES, ANY_RATE_MAX_BPS, ANY_RATE_MIN_BPS, NS2_21B8_PLCP_BYTES,
};

/// The LLC/SNAP header (RFC 1042) our data frames carry and ns-2.1b8's did not count.
const LLC_SNAP_BYTES: usize = sctpsim_wire::ieee80211::llc::HEADER_LEN;

/// The configuration of one 802.11 MAC.
#[derive(Clone, Debug, PartialEq)]
pub struct MacConfig {
    /// The PHY the MAC runs over.
    pub standard: PhyStandard,
    /// aSlotTime (default from [`PhyStandard::timing`]).
    pub slot: SimDuration,
    /// aSIFSTime.
    pub sifs: SimDuration,
    /// aCWmin: the contention window after a success, as `2^k − 1`.
    pub cw_min: u32,
    /// aCWmax.
    pub cw_max: u32,
    /// aRxPHYStartDelay (enters AckTimeout and CTSTimeout).
    pub rx_phy_start_delay: SimDuration,
    /// Rate of unicast data frames with [`RateControlConfig::Constant`] (the default); with
    /// an adaptive `rate_control`, not used for data.
    pub data_mode: PhyMode,
    /// Rate adaptation of unicast data frames, per destination ([`super::rate`]).
    pub rate_control: RateControlConfig,
    /// The BSS basic rate set (BSSBasicRateSet): control responses and RTS use the highest of
    /// these not faster than the frame they answer (§10.6.6.5); management frames the lowest.
    pub basic_modes: Vec<PhyMode>,
    /// Rate of group-addressed data frames; `None`: the lowest basic rate (§10.6.6.2).
    pub broadcast_mode: Option<PhyMode>,
    /// PLCP preamble of DSSS/HR-DSSS frames.
    pub preamble: Preamble,
    /// dot11RTSThreshold in octets: unicast frames whose MPDU (MAC header, body and FCS) is
    /// longer than this are preceded by RTS/CTS (§10.3.2, §10.3.4.4), and use the long
    /// retry limit.
    pub rts_threshold: u32,
    /// dot11ShortRetryLimit: transmission attempts of an RTS or of a frame not longer than the
    /// RTS threshold before it is discarded (which failures count: `retry_accounting`).
    pub short_retry_limit: u32,
    /// dot11LongRetryLimit: transmission attempts of a frame longer than the RTS threshold.
    pub long_retry_limit: u32,
    /// Which failures count against which retry limit. [`RetryAccounting::Standard`] (the
    /// default) is the standard's and ns-2's rule; [`RetryAccounting::PerFrame`] is the
    /// reading of OPNET's MAC that Ye, Saadawi & Lee (2003) use to explain their results.
    pub retry_accounting: RetryAccounting,
    /// How frame airtimes, the EIFS and the response timeouts are computed:
    /// [`MacTiming::Standard`] (the default) or ns-2.1b8's ([`MacTiming::Ns2_21b8`]).
    pub timing: MacTiming,
    /// Interface queue limit in packets waiting (the packet being sent is not counted).
    pub queue_limit: usize,
    /// Report unicast data frames addressed to other stations
    /// ([`super::MacEvent::Overheard`]; DSR's promiscuous listening).
    pub promiscuous: bool,
    /// Reset the NAV when an RTS that set it is not followed by a frame within
    /// 2·SIFS + CTS time + aRxPHYStartDelay + 2·slot (§10.3.2.4, permitted by the standard).
    pub nav_reset_after_rts: bool,
}

impl MacConfig {
    /// A configuration with the timing constants of `standard` and the given rates; RTS/CTS
    /// off (threshold 65535), retry limits 7/4, queue 50, broadcast at the lowest basic rate.
    pub fn from_standard(
        standard: PhyStandard,
        data_mode: PhyMode,
        basic_modes: Vec<PhyMode>,
        preamble: Preamble,
    ) -> Self {
        let t = standard.timing(preamble);
        MacConfig {
            standard,
            slot: t.slot,
            sifs: t.sifs,
            cw_min: t.cw_min,
            cw_max: t.cw_max,
            rx_phy_start_delay: t.rx_phy_start_delay,
            data_mode,
            rate_control: RateControlConfig::Constant,
            basic_modes,
            broadcast_mode: None,
            preamble,
            rts_threshold: DOT11_RTS_THRESHOLD_DEFAULT,
            short_retry_limit: DOT11_SHORT_RETRY_LIMIT,
            long_retry_limit: DOT11_LONG_RETRY_LIMIT,
            retry_accounting: RetryAccounting::Standard,
            timing: MacTiming::Standard,
            queue_limit: IFQ_LIMIT_DEFAULT,
            promiscuous: false,
            nav_reset_after_rts: true,
        }
    }

    /// The PHY timing this configuration uses (with any overridden constants).
    pub fn timing(&self) -> PhyTiming {
        let base = self.standard.timing(self.preamble);
        PhyTiming {
            slot: self.slot,
            sifs: self.sifs,
            cw_min: self.cw_min,
            cw_max: self.cw_max,
            rx_phy_start_delay: self.rx_phy_start_delay,
            lowest_mandatory: base.lowest_mandatory,
        }
    }

    /// DIFS = SIFS + 2·slot (§10.3.2.3.5).
    pub fn difs(&self) -> SimDuration {
        phy_timing::difs(self.sifs, self.slot)
    }

    /// EIFS = SIFS + DIFS + AckTxTime at the lowest mandatory rate (§10.3.2.3.7): how long
    /// after the end of a frame received in error slot counting starts. With
    /// [`MacTiming::Ns2_21b8`], ns-2.1b8's: its NAV of `usec(eifs_)` (SIFS + DIFS + 62 octets
    /// at the data rate, rounded up to the microsecond), then the DIFS its backoff waits when
    /// the NAV ends (see [`MacTiming::Ns2_21b8`]).
    pub fn eifs(&self) -> SimDuration {
        match self.timing {
            MacTiming::Standard => phy_timing::eifs(&self.timing()),
            MacTiming::Ns2_21b8 => {
                // eifs_ = sifs_ + difs_ + DATA_Time(ETHER_ACK_LEN + 18 + 6): the PLCP octets
                // counted twice, 14 + 24 + 24 = 62 octets at bandwidth_.
                let ack =
                    ns2_21b8_duration(self.data_mode.rate_bps(), ACK_BYTES + NS2_21B8_PLCP_BYTES);
                let eifs = self.sifs + self.difs() + ack;
                // set_nav(usec(eifs_)): rounded up to the microsecond.
                let nav = SimDuration::from_micros(eifs.0.div_ceil(1_000));
                nav + self.difs()
            }
        }
    }

    /// AckTimeout = CTSTimeout = SIFS + slot + aRxPHYStartDelay (§10.3.2.9), from the end of
    /// the frame; with [`MacTiming::Ns2_21b8`] use [`MacConfig::cts_timeout`] and
    /// [`MacConfig::ack_timeout`], which differ.
    pub fn response_timeout(&self) -> SimDuration {
        phy_timing::response_timeout(&self.timing())
    }

    /// How long after the end of an RTS sent with `rts_mode` the CTS may still come:
    /// [`MacConfig::response_timeout`]; with [`MacTiming::Ns2_21b8`], ns-2.1b8's `CTSTimeout`
    /// less the RTS itself: CTS time + 2·SIFS.
    pub fn cts_timeout(&self, rts_mode: PhyMode) -> SimDuration {
        match self.timing {
            MacTiming::Standard => self.response_timeout(),
            MacTiming::Ns2_21b8 => {
                self.tx_time(self.control_mode(rts_mode), ACK_BYTES) + self.sifs.saturating_mul(2)
            }
        }
    }

    /// How long after the end of a unicast frame sent with `mode` its Ack may still come:
    /// [`MacConfig::response_timeout`]; with [`MacTiming::Ns2_21b8`], ns-2.1b8's
    /// `ACKTimeout(len)` less the frame itself: Ack time + SIFS + DIFS.
    pub fn ack_timeout(&self, mode: PhyMode) -> SimDuration {
        match self.timing {
            MacTiming::Standard => self.response_timeout(),
            MacTiming::Ns2_21b8 => self.ack_time(mode) + self.sifs + self.difs(),
        }
    }

    /// Duration of a frame of `bytes` octets (MPDU with FCS) sent with `mode` and this
    /// configuration's preamble; with [`MacTiming::Ns2_21b8`], the whole frame and its PLCP
    /// preamble and header at the frame's rate ([`ns2_21b8_duration`]).
    pub fn tx_time(&self, mode: PhyMode, bytes: usize) -> SimDuration {
        match self.timing {
            MacTiming::Standard => tx_duration(mode, bytes, self.preamble),
            MacTiming::Ns2_21b8 => ns2_21b8_duration(mode.rate_bps(), bytes),
        }
    }

    /// Duration of a data frame (an MPDU of `bytes` octets carrying an LLC/SNAP header and an
    /// IP packet) sent with `mode`: [`MacConfig::tx_time`]; with [`MacTiming::Ns2_21b8`]
    /// without the 8 LLC/SNAP octets, which ns-2.1b8 did not count (its DATA frame is the IP
    /// packet + 24 octets of header + 4 of FCS + 24 of PLCP, `ETHER_HDR_LEN`).
    pub fn data_tx_time(&self, mode: PhyMode, bytes: usize) -> SimDuration {
        match self.timing {
            MacTiming::Standard => self.tx_time(mode, bytes),
            MacTiming::Ns2_21b8 => self.tx_time(mode, bytes.saturating_sub(LLC_SNAP_BYTES)),
        }
    }

    /// Duration of the PLCP preamble and header of a frame sent with `mode` (the part before
    /// the MPDU); with [`MacTiming::Ns2_21b8`], 24 octets at the frame's rate.
    pub fn plcp_time(&self, mode: PhyMode) -> SimDuration {
        match self.timing {
            MacTiming::Standard => mode.plcp_overhead(self.preamble),
            MacTiming::Ns2_21b8 => ns2_21b8_duration(mode.rate_bps(), 0),
        }
    }

    fn mandatory_modes(&self) -> Vec<PhyMode> {
        match self.standard {
            PhyStandard::Dsss => vec![PhyMode::Dsss1, PhyMode::Dsss2],
            PhyStandard::HrDsss => vec![
                PhyMode::Dsss1,
                PhyMode::Dsss2,
                PhyMode::Cck5_5,
                PhyMode::Cck11,
            ],
            PhyStandard::Ofdm => OfdmRate::ALL
                .into_iter()
                .filter(|r| r.is_mandatory())
                .map(PhyMode::Ofdm)
                .collect(),
            PhyStandard::Erp { .. } => {
                let mut m = vec![
                    PhyMode::Dsss1,
                    PhyMode::Dsss2,
                    PhyMode::Cck5_5,
                    PhyMode::Cck11,
                ];
                m.extend(
                    OfdmRate::ALL
                        .into_iter()
                        .filter(|r| r.is_mandatory())
                        .map(PhyMode::ErpOfdm),
                );
                m
            }
        }
    }

    /// The rate of a control response (CTS, Ack) to a frame sent with `eliciting`, and of an
    /// RTS protecting a data frame sent with `eliciting` (§10.6.6.5.2): the highest basic rate
    /// of the same modulation family not faster than `eliciting`; if there is none, the
    /// highest mandatory rate of that family not faster than it; if there is none either
    /// (only a [`PhyMode::DsssAnyRate`] below 1 Mbit/s), `eliciting` itself.
    pub fn control_mode(&self, eliciting: PhyMode) -> PhyMode {
        let pick = |set: &[PhyMode]| {
            set.iter()
                .copied()
                .filter(|m| m.family() == eliciting.family())
                .filter(|m| m.rate_bps() <= eliciting.rate_bps())
                .max_by_key(|m| m.rate_bps())
        };
        pick(&self.basic_modes)
            .or_else(|| pick(&self.mandatory_modes()))
            .unwrap_or(eliciting)
    }

    /// The rate of management frames (beacons, authentication, association): the lowest basic
    /// rate (§10.6.6.2–3), or the data rate if the basic set is empty.
    pub fn mgmt_mode(&self) -> PhyMode {
        self.basic_modes
            .iter()
            .copied()
            .min_by_key(|m| m.rate_bps())
            .unwrap_or(self.data_mode)
    }

    /// The rate of group-addressed data frames.
    pub fn group_mode(&self) -> PhyMode {
        self.broadcast_mode.unwrap_or_else(|| self.mgmt_mode())
    }

    /// Time to send the Ack that answers a frame sent with `eliciting`.
    pub fn ack_time(&self, eliciting: PhyMode) -> SimDuration {
        self.tx_time(self.control_mode(eliciting), ACK_BYTES)
    }

    /// The rates the station supports, in Supported Rates element encoding (500 kbit/s units,
    /// bit 7 for members of the basic rate set), slowest first: the PHY's rates plus any
    /// [`PhyMode::DsssAnyRate`] configured as data, basic or broadcast rate, rounded up to
    /// whole 500 kbit/s units ([`PhyMode::rate_500kbps`]; each encoded value once).
    pub fn rates_element(&self) -> Vec<u8> {
        let mut modes: Vec<PhyMode> = match self.standard {
            PhyStandard::Dsss => vec![PhyMode::Dsss1, PhyMode::Dsss2],
            PhyStandard::HrDsss => vec![
                PhyMode::Dsss1,
                PhyMode::Dsss2,
                PhyMode::Cck5_5,
                PhyMode::Cck11,
            ],
            PhyStandard::Ofdm => OfdmRate::ALL.into_iter().map(PhyMode::Ofdm).collect(),
            PhyStandard::Erp { .. } => {
                let mut m = vec![
                    PhyMode::Dsss1,
                    PhyMode::Dsss2,
                    PhyMode::Cck5_5,
                    PhyMode::Cck11,
                ];
                m.extend(OfdmRate::ALL.into_iter().map(PhyMode::ErpOfdm));
                m
            }
        };
        let configured = std::iter::once(self.data_mode)
            .chain(self.basic_modes.iter().copied())
            .chain(self.broadcast_mode);
        modes.extend(configured.filter(|m| matches!(m, PhyMode::DsssAnyRate { .. })));
        let mut units: Vec<u8> = modes.iter().map(|m| m.rate_500kbps()).collect();
        units.sort_unstable();
        units.dedup();
        units
            .into_iter()
            .map(|u| {
                let basic = self.basic_modes.iter().any(|b| b.rate_500kbps() == u);
                u | if basic { 0x80 } else { 0 }
            })
            .collect()
    }

    /// Checks the configuration: the PHY supports the data, basic and broadcast rates (a
    /// [`PhyMode::DsssAnyRate`] within [`ANY_RATE_MIN_BPS`, `ANY_RATE_MAX_BPS`]), the
    /// basic set is not empty, 0 < CWmin ≤ CWmax, both are `2^k − 1`, retry limits ≥ 1, a
    /// positive slot. The error names the offending field.
    pub fn validate(&self) -> Result<(), String> {
        let check_mode = |field: &str, m: PhyMode| {
            if let PhyMode::DsssAnyRate { bps } = m {
                if !(ANY_RATE_MIN_BPS..=ANY_RATE_MAX_BPS).contains(&bps) {
                    return Err(format!(
                        "{field}: {bps} bit/s is outside {ANY_RATE_MIN_BPS}..={ANY_RATE_MAX_BPS} bit/s"
                    ));
                }
            }
            if self.standard.supports(m) {
                Ok(())
            } else {
                Err(format!(
                    "{field}: {} is not a rate of {:?}",
                    m.name(),
                    self.standard
                ))
            }
        };
        check_mode("data_mode", self.data_mode)?;
        if self.basic_modes.is_empty() {
            return Err("basic_modes: the basic rate set is empty".into());
        }
        for m in &self.basic_modes {
            check_mode("basic_modes", *m)?;
        }
        if let Some(m) = self.broadcast_mode {
            check_mode("broadcast_mode", m)?;
        }
        let pow2m1 = |x: u32| x > 0 && (x + 1).is_power_of_two();
        if !pow2m1(self.cw_min) || !pow2m1(self.cw_max) || self.cw_min > self.cw_max {
            return Err(format!(
                "cw_min/cw_max: {}/{} must be 2^k-1 with cw_min <= cw_max",
                self.cw_min, self.cw_max
            ));
        }
        if self.short_retry_limit == 0 || self.long_retry_limit == 0 {
            return Err("retry limits must be at least 1".into());
        }
        if self.slot.is_zero() {
            return Err("slot: must be positive".into());
        }
        if self.timing == MacTiming::Ns2_21b8 {
            // ns-2.1b8's Mac802_11 had one rate, `bandwidth_`, for every frame, and no rate
            // adaptation; its timing is that of the DSSS WaveLAN MAC.
            if self.standard != PhyStandard::Dsss {
                return Err(format!(
                    "timing: ns2-2.1b8 is ns-2.1b8's DSSS MAC; {:?} is not the DSSS PHY of ns2-wavelan",
                    self.standard
                ));
            }
            if self.basic_modes.as_slice() != [self.data_mode] {
                return Err(format!(
                    "basic_modes: ns2-2.1b8 timing sends control frames at the data rate ({}), as ns-2.1b8 sent every frame at bandwidth_",
                    self.data_mode.name()
                ));
            }
            if self.broadcast_mode.is_some_and(|m| m != self.data_mode) {
                return Err(format!(
                    "broadcast_mode: ns2-2.1b8 timing sends broadcast frames at the data rate ({}), as ns-2.1b8 sent every frame at bandwidth_",
                    self.data_mode.name()
                ));
            }
            if self.rate_control != RateControlConfig::Constant {
                return Err(
                    "rate_control: ns2-2.1b8 timing has one constant rate (ns-2.1b8 had no rate adaptation)".into(),
                );
            }
        }
        Ok(())
    }
}

/// How the MAC times frames: the standard's PLCP at 1 Mbit/s or ns-2.1b8's.
///
/// A choice exists because the Mobile IP study of Atiquzzaman & Fu ran ns-2.1b8, whose
/// `Mac802_11` (the CMU Monarch port, before ns-2.1b9's separate PLCP rate and basic rate)
/// sent every frame, its PLCP preamble and header included, at the one `bandwidth_`: at
/// 150 kbit/s the 192 PLCP bits last 1.28 ms instead of 192 µs.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum MacTiming {
    /// The PHY's timing ([`phy_timing`]): PLCP preamble and header at 1 Mbit/s for DSSS, EIFS
    /// and response timeouts per §10.3.2.3.7 and §10.3.2.9.
    #[default]
    Standard,
    /// ns-2.1b8's `mac/mac-802_11.{h,cc}` (CVS history commit aa55c3b9 "ns-2.1b8 release
    /// completed", 2001-06-06; file:line below), for the DSSS PHY only, every frame at the
    /// data rate R (ns-2's `Mac::bandwidth_`, `mac/mac.cc`:92, default `Mac set bandwidth_
    /// 2Mb`, `tcl/lan/ns-mac.tcl`:42; `Phy/WirelessPhy`'s `bandwidth_` only times the energy
    /// model, `mac/wireless-phy.cc`:201, 347):
    ///
    /// * airtime of every frame = 8·(24 + MPDU octets)/R: `RTS_Time`, `CTS_Time`, `ACK_Time`,
    ///   `DATA_Time(len) = 8 * len / bandwidth_` (`mac-802_11.h`:139–142) of sizes that include
    ///   `(PreambleLength >> 3) + (PLCPHeaderLength >> 3)` = 18 + 6 octets (`mac-802_11.h`:
    ///   118–137, 186–187: 144 and 48 bits);
    /// * frame sizes: RTS 20, CTS and Ack 14 octets (`struct rts_frame`, `cts_frame`,
    ///   `ack_frame`, `mac-802_11.h`:80–100, FCS 4 = `ETHER_FCS_LEN`, `mac/mac.h`:75); DATA =
    ///   the IP packet + `ETHER_HDR_LEN` = 24 PLCP + 24 header (`struct hdr_mac802_11`,
    ///   `mac-802_11.h`:104–112) + 4 FCS (`sendDATA`, `mac-802_11.cc`:811): no LLC/SNAP, so
    ///   our 8 LLC/SNAP octets are not timed ([`MacConfig::data_tx_time`]);
    /// * control frames (RTS, CTS, Ack) and broadcast frames at R ([`MacConfig::validate`]
    ///   requires basic and broadcast rate = data rate);
    /// * slot 20 µs, SIFS 10 µs, DIFS = SIFS + 2·slot = 50 µs, CWmin 31, CWmax 1023
    ///   (`DSSS_*`, `mac-802_11.h`:180–185; `mac-802_11.cc`:166–168): the standard's values;
    /// * EIFS: `eifs_ = sifs_ + difs_ + DATA_Time(ETHER_ACK_LEN + 18 + 6)` (`mac-802_11.cc`:
    ///   169–170; the PLCP octets counted twice: 62 octets at R), applied as a NAV of
    ///   `usec(eifs_)` (rounded up to the µs, `mac-802_11.h`:343–346) after a frame received
    ///   in error or in a collision (`mac-802_11.cc`:1092, 1104), after which the backoff
    ///   resumes only after a further DIFS (`navHandler`, `mac-802_11.cc`:485–489;
    ///   `BackoffTimer::resume`, `mac/mac-timers.cc`:275–296): [`MacConfig::eifs`] =
    ///   ⌈60 µs + 496 bit/R⌉ + 50 µs;
    /// * CTS timeout: `CTSTimeout = RTS_Time + CTS_Time + 2 * sifs_` from the start of the RTS
    ///   (`mac-802_11.h`:159; `check_pktRTS`, `mac-802_11.cc`:619, the send timer started
    ///   when the frame goes out, `TRANSMIT`, `mac-802_11.cc`:97): CTS time + 20 µs after its
    ///   end ([`MacConfig::cts_timeout`]);
    /// * Ack timeout: `ACKTimeout(len) = DATA_Time(len) + ACK_Time + sifs_ + difs_` from the
    ///   start of the DATA (`mac-802_11.h`:160; `check_pktTx`, `mac-802_11.cc`:656): Ack time +
    ///   60 µs after its end ([`MacConfig::ack_timeout`]).
    ///
    /// Not modelled (docs/models/mac80211.md, "ns-2.1b8 timing"): ns-2.1b8 keeps the airtimes
    /// in double (we round up to the nanosecond; its EIFS in double is 557 µs instead of 556 at
    /// 1 Mbit/s), draws the backoff from 0..CW−1 (`mac/mac-timers.cc`:227) and starts it at
    /// once after a timeout (we wait DIFS), and its NAV holds up to 65 535 µs (ours 32 767).
    Ns2_21b8,
}

/// Which failed attempts count against the short and which against the long retry limit.
///
/// A choice exists because the reference results we reproduce were not produced with the
/// standard's rule: Ye, Saadawi & Lee (2003, §4) explain their SCTP-over-802.11 chain
/// results by OPNET giving up on a DATA frame after 4 attempts "of any kind" and on a SACK
/// after 7. Keeping both lets a scenario match either the standard (and ns-2) or that paper.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum RetryAccounting {
    /// IEEE Std 802.11-2020 §10.3.4.4 (802.11-2007 §9.2.4), also ns-2.35's
    /// `Mac802_11::RetransmitRTS`/`RetransmitDATA`: an RTS without CTS, and a frame not longer
    /// than dot11RTSThreshold without Ack, count against the short retry count (limit
    /// dot11ShortRetryLimit); only a frame longer than the threshold without Ack counts against
    /// the long retry count (dot11LongRetryLimit). A CTS resets the short count.
    #[default]
    Standard,
    /// Ye, Saadawi & Lee (2003, §4), their reading of OPNET: a frame longer than
    /// dot11RTSThreshold has one count for every failed attempt — CTS timeout or Ack timeout
    /// — against dot11LongRetryLimit, not reset by a CTS; a frame at or below the threshold
    /// counts every failure against dot11ShortRetryLimit (as in `Standard`).
    PerFrame,
    /// ns-2.26's `mac-802_11.cc` (February 2003; fixed in ns-2.27 by commit 456c448c of
    /// 2003-10-23): the short and long retry counts are the station's (`ssrc_`, `slrc_`), not
    /// the frame's. `recvCTS` does not reset `ssrc_` (the line is commented out) and `recvACK`
    /// resets only the count of the frame's size class (`slrc_` above the RTS threshold), so
    /// with RTS before every frame the RTS failures add up across frames until the
    /// dot11ShortRetryLimit-th drops whatever frame is in service (`RetransmitRTS`: `ssrc_ >=
    /// ShortRetryLimit`, then `ssrc_ = 0`) with a link-failure report to the routing protocol.
    /// `RetransmitDATA` discards only when the count *exceeds* its limit (`*rcount > *thresh`):
    /// one attempt more than the standard.
    Ns2_226,
}

/// dot11RTSThreshold default (802.11-2020 Annex C): 65535 octets, i.e. RTS/CTS off for every
/// MPDU this simulator sends.
pub const DOT11_RTS_THRESHOLD_DEFAULT: u32 = 65_535;
/// dot11ShortRetryLimit default (Annex C): 7.
pub const DOT11_SHORT_RETRY_LIMIT: u32 = 7;
/// dot11LongRetryLimit default (Annex C): 4.
pub const DOT11_LONG_RETRY_LIMIT: u32 = 4;
/// Interface queue length: ns-2 `Queue set limit_ 50` (tcl/lib/ns-default.tcl), the `ifqlen`
/// of the CMU wireless scripts.
pub const IFQ_LIMIT_DEFAULT: usize = 50;

/// The named radio presets.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RadioProfile {
    /// `ns2-wavelan`: ns-2's 802.11 over the 914 MHz Lucent WaveLAN DSSS radio.
    Ns2Wavelan,
    /// `80211b`: HR/DSSS at 11 Mbit/s.
    Ieee80211b,
    /// `80211a`: OFDM at 54 Mbit/s.
    Ieee80211a,
    /// `80211g`: ERP-OFDM at 54 Mbit/s, ERP-only BSS (short slot).
    Ieee80211g,
}

impl RadioProfile {
    /// Every preset.
    pub const ALL: [RadioProfile; 4] = [
        RadioProfile::Ns2Wavelan,
        RadioProfile::Ieee80211b,
        RadioProfile::Ieee80211a,
        RadioProfile::Ieee80211g,
    ];

    /// The scenario name of the preset.
    pub const fn name(self) -> &'static str {
        match self {
            RadioProfile::Ns2Wavelan => "ns2-wavelan",
            RadioProfile::Ieee80211b => "80211b",
            RadioProfile::Ieee80211a => "80211a",
            RadioProfile::Ieee80211g => "80211g",
        }
    }

    /// The preset called `name`.
    pub fn from_name(name: &str) -> Option<RadioProfile> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The MAC configuration of the preset (see the module table and its sources).
    pub fn mac_config(self) -> MacConfig {
        match self {
            RadioProfile::Ns2Wavelan => {
                let mut c = MacConfig::from_standard(
                    PhyStandard::Dsss,
                    PhyMode::Dsss2,
                    vec![PhyMode::Dsss1],
                    Preamble::Long,
                );
                // ns-2 Mac/802_11 RTSThreshold_ 0: RTS/CTS before every unicast frame.
                c.rts_threshold = 0;
                // ns-2 Mac802_11::sendDATA sends broadcast DATA at dataRate_.
                c.broadcast_mode = Some(PhyMode::Dsss2);
                c
            }
            RadioProfile::Ieee80211b => MacConfig::from_standard(
                PhyStandard::HrDsss,
                PhyMode::Cck11,
                vec![PhyMode::Dsss1, PhyMode::Dsss2],
                Preamble::Long,
            ),
            RadioProfile::Ieee80211a => MacConfig::from_standard(
                PhyStandard::Ofdm,
                PhyMode::Ofdm(OfdmRate::R54),
                vec![
                    PhyMode::Ofdm(OfdmRate::R6),
                    PhyMode::Ofdm(OfdmRate::R12),
                    PhyMode::Ofdm(OfdmRate::R24),
                ],
                Preamble::Long,
            ),
            RadioProfile::Ieee80211g => MacConfig::from_standard(
                PhyStandard::Erp { short_slot: true },
                PhyMode::ErpOfdm(OfdmRate::R54),
                vec![
                    PhyMode::ErpOfdm(OfdmRate::R6),
                    PhyMode::ErpOfdm(OfdmRate::R12),
                    PhyMode::ErpOfdm(OfdmRate::R24),
                ],
                Preamble::Long,
            ),
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn presets_validate_and_round_trip_names() {
        for p in RadioProfile::ALL {
            p.mac_config().validate().unwrap();
            assert_eq!(RadioProfile::from_name(p.name()), Some(p));
        }
        assert_eq!(RadioProfile::from_name("80211n"), None);
    }

    #[test]
    fn control_response_rates() {
        let b = RadioProfile::Ieee80211b.mac_config();
        assert_eq!(b.control_mode(PhyMode::Cck11), PhyMode::Dsss2);
        assert_eq!(b.control_mode(PhyMode::Dsss1), PhyMode::Dsss1);
        assert_eq!(b.mgmt_mode(), PhyMode::Dsss1);
        let a = RadioProfile::Ieee80211a.mac_config();
        assert_eq!(
            a.control_mode(PhyMode::Ofdm(OfdmRate::R54)),
            PhyMode::Ofdm(OfdmRate::R24)
        );
        assert_eq!(
            a.control_mode(PhyMode::Ofdm(OfdmRate::R18)),
            PhyMode::Ofdm(OfdmRate::R12)
        );
        let w = RadioProfile::Ns2Wavelan.mac_config();
        assert_eq!(w.control_mode(PhyMode::Dsss2), PhyMode::Dsss1);
        assert_eq!(w.group_mode(), PhyMode::Dsss2);
        assert_eq!(w.ack_time(PhyMode::Dsss2), SimDuration::from_micros(304));
        // A basic set without a rate of the family falls back to the mandatory rates.
        let mut odd = a.clone();
        odd.basic_modes = vec![PhyMode::Ofdm(OfdmRate::R54)];
        assert_eq!(
            odd.control_mode(PhyMode::Ofdm(OfdmRate::R36)),
            PhyMode::Ofdm(OfdmRate::R24)
        );
    }

    #[test]
    fn validation_names_fields() {
        let mut c = RadioProfile::Ieee80211a.mac_config();
        c.data_mode = PhyMode::Cck11;
        assert!(c.validate().unwrap_err().starts_with("data_mode"));
        let mut c = RadioProfile::Ieee80211a.mac_config();
        c.cw_min = 20;
        assert!(c.validate().unwrap_err().starts_with("cw_min"));
    }

    #[test]
    fn dsss_at_any_rate() {
        let any = |bps| PhyMode::DsssAnyRate { bps };
        let mut c = RadioProfile::Ns2Wavelan.mac_config();
        c.data_mode = any(150_000);
        c.validate().unwrap();
        // The 1 Mbit/s basic rate is faster than the data: the Ack goes at the data rate.
        assert_eq!(c.control_mode(any(150_000)), any(150_000));
        assert_eq!(
            c.ack_time(any(150_000)),
            tx_duration(any(150_000), ACK_BYTES, Preamble::Long)
        );
        // Above 1 Mbit/s the basic rate answers, as for the standard modes.
        assert_eq!(c.control_mode(any(1_500_000)), PhyMode::Dsss1);
        // The ns-2.1b8 set-up: everything at the link rate.
        c.basic_modes = vec![any(150_000)];
        c.broadcast_mode = Some(any(150_000));
        c.validate().unwrap();
        assert_eq!(c.control_mode(any(150_000)), any(150_000));
        assert_eq!(c.mgmt_mode(), any(150_000));
        assert_eq!(c.group_mode(), any(150_000));
        // Supported Rates: 1 and 2 Mbit/s of the DSSS PHY plus 150 kbit/s as one (basic) unit.
        assert_eq!(c.rates_element(), vec![0x81, 0x02, 0x04]);
        // Different rates that encode alike are compared by their exact rate.
        c.basic_modes = vec![any(150_000), any(200_000)];
        assert_eq!(c.control_mode(any(200_000)), any(200_000));
        assert_eq!(c.control_mode(any(180_000)), any(150_000));
        assert_eq!(c.mgmt_mode(), any(150_000));
        // Bounds and PHYs.
        c.data_mode = any(0);
        assert!(c.validate().unwrap_err().starts_with("data_mode"));
        c.data_mode = any(ANY_RATE_MAX_BPS + 1);
        assert!(c.validate().unwrap_err().starts_with("data_mode"));
        let mut b = RadioProfile::Ieee80211b.mac_config();
        b.broadcast_mode = Some(any(150_000));
        assert!(b.validate().unwrap_err().starts_with("broadcast_mode"));
    }

    /// ns-2.1b8's set-up at `bps`: every frame at that rate, its timing.
    fn ns2_21b8(bps: u64) -> MacConfig {
        let mode = match bps {
            1_000_000 => PhyMode::Dsss1,
            2_000_000 => PhyMode::Dsss2,
            _ => PhyMode::DsssAnyRate { bps },
        };
        let mut c = RadioProfile::Ns2Wavelan.mac_config();
        c.data_mode = mode;
        c.basic_modes = vec![mode];
        c.broadcast_mode = Some(mode);
        c.timing = MacTiming::Ns2_21b8;
        c.validate().unwrap();
        c
    }

    #[test]
    fn ns2_21b8_airtimes_by_hand() {
        // ns-2.1b8 (mac-802_11.h:118-142): every frame of `len` octets, the 18 + 6 PLCP octets
        // included, lasts 8·len / bandwidth_. Frame sizes: RTS 24 + 20 = 44, CTS and Ack
        // 24 + 14 = 38, DATA = IP packet + 24 PLCP + 24 header + 4 FCS = IP + 52 octets.
        // Our data MPDU of a 1000-byte IP packet is 1036 octets (8 of them LLC/SNAP, not timed).
        let c = ns2_21b8(150_000);
        let m = c.data_mode;
        let ns = |d: SimDuration| d.0;
        // 8 · 1052 / 150 000 s = 56 106 666.67 ns -> 56 106 667 ns (standard: 192 µs +
        // 8 · 1036 / 150 000 = 55 445 333.33 ns).
        assert_eq!(ns(c.data_tx_time(m, 1036)), 56_106_667);
        // RTS: 8 · 44 / 150 000 = 2 346 666.67 ns; CTS = Ack: 8 · 38 / 150 000 = 2 026 666.67 ns.
        assert_eq!(ns(c.tx_time(c.control_mode(m), 20)), 2_346_667);
        assert_eq!(ns(c.tx_time(c.control_mode(m), ACK_BYTES)), 2_026_667);
        assert_eq!(ns(c.ack_time(m)), 2_026_667);
        // PLCP: 192 bits at 150 kbit/s = 1.28 ms.
        assert_eq!(ns(c.plcp_time(m)), 1_280_000);
        // EIFS: NAV usec(10 + 50 µs + 8 · 62 / 150 000 s) = ⌈3366.67 µs⌉ = 3367 µs, then DIFS.
        assert_eq!(c.eifs(), SimDuration::from_micros(3_367 + 50));
        // CTSTimeout − RTS = CTS + 2·SIFS; ACKTimeout − DATA = Ack + SIFS + DIFS.
        assert_eq!(ns(c.cts_timeout(m)), 2_026_667 + 20_000);
        assert_eq!(ns(c.ack_timeout(m)), 2_026_667 + 60_000);
        // The standard timing of the same rates.
        let mut std = c.clone();
        std.timing = MacTiming::Standard;
        assert_eq!(ns(std.data_tx_time(m, 1036)), 192_000 + 55_253_334);
        assert_eq!(ns(std.ack_time(m)), 192_000 + 746_667);
        assert_eq!(std.eifs(), SimDuration::from_micros(364));
        assert_eq!(std.cts_timeout(m), SimDuration::from_micros(222));
        assert_eq!(std.ack_timeout(m), SimDuration::from_micros(222));

        // 2 Mbit/s: DATA 8 · 1052 / 2e6 = 4208 µs (standard 192 + 4144), RTS 176 µs (272),
        // CTS = Ack 152 µs (248), EIFS ⌈60 + 248⌉ + 50 = 358 µs (364), CTS timeout 172 µs and
        // Ack timeout 212 µs (222).
        let c = ns2_21b8(2_000_000);
        let m = c.data_mode;
        let us = SimDuration::from_micros;
        assert_eq!(c.data_tx_time(m, 1036), us(4_208));
        assert_eq!(c.tx_time(m, 20), us(176));
        assert_eq!(c.ack_time(m), us(152));
        assert_eq!(c.eifs(), us(358));
        assert_eq!(c.cts_timeout(m), us(172));
        assert_eq!(c.ack_timeout(m), us(212));
        assert_eq!(c.plcp_time(m), us(96));
        // 1 Mbit/s: the PLCP lasts 192 µs, as in the standard; only the LLC/SNAP octets and
        // the timeouts differ.
        let c = ns2_21b8(1_000_000);
        let m = c.data_mode;
        assert_eq!(c.tx_time(m, 14), tx_duration(m, 14, Preamble::Long));
        assert_eq!(c.data_tx_time(m, 1036), us(192 + 8 * 1028));
        assert_eq!(c.eifs(), us(556 + 50));
    }

    #[test]
    fn ns2_21b8_validation_names_fields() {
        let mut c = ns2_21b8(150_000);
        c.basic_modes = vec![PhyMode::Dsss1];
        assert!(c.validate().unwrap_err().starts_with("basic_modes"));
        let mut c = ns2_21b8(150_000);
        c.broadcast_mode = Some(PhyMode::Dsss2);
        assert!(c.validate().unwrap_err().starts_with("broadcast_mode"));
        let mut c = ns2_21b8(2_000_000);
        c.rate_control = RateControlConfig::Minstrel(Default::default());
        assert!(c.validate().unwrap_err().starts_with("rate_control"));
        let mut b = RadioProfile::Ieee80211b.mac_config();
        b.basic_modes = vec![b.data_mode];
        b.timing = MacTiming::Ns2_21b8;
        assert!(b.validate().unwrap_err().starts_with("timing"));
        // Broadcast unset: the lowest basic rate, the data rate.
        let mut c = ns2_21b8(150_000);
        c.broadcast_mode = None;
        c.validate().unwrap();
        assert_eq!(c.group_mode(), c.data_mode);
    }

    #[test]
    fn rates_element() {
        let b = RadioProfile::Ieee80211b.mac_config();
        assert_eq!(b.rates_element(), vec![0x82, 0x84, 0x0b, 0x16]);
        let g = RadioProfile::Ieee80211g.mac_config();
        assert_eq!(g.rates_element().len(), 12);
    }
}
