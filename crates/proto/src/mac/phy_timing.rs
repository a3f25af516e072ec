//! PHY modes and the timing the MAC needs from them, exact to IEEE Std 802.11-2020.
//!
//! | PHY (clause) | slot | SIFS | CWmin | CWmax | aRxPHYStartDelay | PPDU duration |
//! |---|---|---|---|---|---|---|
//! | DSSS (15) | 20 µs | 10 µs | 31 | 1023 | 192 µs | 192 µs + 8·L/R |
//! | DSSS at any rate R ([`PhyMode::DsssAnyRate`]) | 20 µs | 10 µs | 31 | 1023 | 192 µs | 192 µs + ⌈8·L/R⌉ ns |
//! | HR/DSSS (16) | 20 µs | 10 µs | 31 | 1023 | 192 µs (long), 96 µs (short) | preamble + ⌈8·L/R⌉ µs |
//! | OFDM, 20 MHz (17) | 9 µs | 16 µs | 15 | 1023 | 20 µs | 20 µs + 4 µs·⌈(16 + 8·L + 6)/N_DBPS⌉ |
//! | ERP (18), short slot | 9 µs | 10 µs | 15 | 1023 | 20 µs | OFDM + 6 µs signal extension |
//! | ERP (18), long slot | 20 µs | 10 µs | 15 | 1023 | 20 µs | OFDM + 6 µs signal extension |
//!
//! Sources: DSSS PHY characteristics (Clause 15, "DSSS PHY characteristics" table: aSlotTime
//! 20 µs, aSIFSTime 10 µs, aCWmin 31, aCWmax 1023, long PLCP preamble 144 bits + PLCP header
//! 48 bits at 1 Mbit/s); HR/DSSS (Clause 16: the same MAC constants, long preamble as DSSS,
//! short preamble 72 bits at 1 Mbit/s + header 48 bits at 2 Mbit/s = 96 µs, TXTIME =
//! PreambleLength + PLCPHeaderTime + ⌈8·LENGTH/DATARATE⌉); OFDM (§17.4.3 TXTIME,
//! Table 17-21 "OFDM PHY characteristics": aSlotTime 9 µs, aSIFSTime 16 µs,
//! aRxPHYStartDelay 20 µs for 20 MHz, aCWmin 15, aCWmax 1023; T_PREAMBLE 16 µs, T_SIGNAL 4 µs,
//! T_SYM 4 µs, 16 SERVICE bits, 6 tail bits); ERP (§18.5.3 TXTIME with the 6 µs
//! aSignalExtension, Table 18-5 "ERP characteristics": aSlotTime 20 µs, or 9 µs when the BSS
//! uses short slots, aSIFSTime 10 µs, aCWmin 15 for an ERP-only BSS).
//!
//! [`PhyMode::DsssAnyRate`] is not a mode of the standard: it is the Clause 15 DSSS PHY with
//! the PSDU sent at an arbitrary rate R, for studies made with ns-2's 802.11 MAC, which took any
//! `bandwidth_` (the Mobile IP study of Atiquzzaman & Fu: 150 kbit/s to 2 Mbit/s). The MAC
//! constants and the long PLCP preamble and header (192 µs at 1 Mbit/s) are those of Clause 15;
//! the PSDU lasts 8·L/R rounded up to the nanosecond (the simulator's resolution), not to the
//! microsecond, so that rates which do not divide 8·L stay exact to 1 ns. Only the `Dsss` PHY
//! ([`PhyStandard::Dsss`], the `ns2-wavelan` profile) sends it; its rate must lie in
//! [`ANY_RATE_MIN_BPS`, `ANY_RATE_MAX_BPS`]. How ns-2 times the same frames:
//! `docs/models/mac80211.md`, "DSSS at any rate".

use sctpsim_kernel::{BitRate, SimDuration};

/// The data rates of the OFDM PHY (Clause 17, Table 17-4) and ERP-OFDM (Clause 18).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OfdmRate {
    /// 6 Mbit/s: BPSK 1/2, N_DBPS 24 (mandatory).
    R6,
    /// 9 Mbit/s: BPSK 3/4, N_DBPS 36.
    R9,
    /// 12 Mbit/s: QPSK 1/2, N_DBPS 48 (mandatory).
    R12,
    /// 18 Mbit/s: QPSK 3/4, N_DBPS 72.
    R18,
    /// 24 Mbit/s: 16-QAM 1/2, N_DBPS 96 (mandatory).
    R24,
    /// 36 Mbit/s: 16-QAM 3/4, N_DBPS 144.
    R36,
    /// 48 Mbit/s: 64-QAM 2/3, N_DBPS 192.
    R48,
    /// 54 Mbit/s: 64-QAM 3/4, N_DBPS 216.
    R54,
}

impl OfdmRate {
    /// All rates, slowest first.
    pub const ALL: [OfdmRate; 8] = [
        OfdmRate::R6,
        OfdmRate::R9,
        OfdmRate::R12,
        OfdmRate::R18,
        OfdmRate::R24,
        OfdmRate::R36,
        OfdmRate::R48,
        OfdmRate::R54,
    ];

    /// Data bits per OFDM symbol at 20 MHz (Table 17-4).
    pub const fn ndbps(self) -> u64 {
        match self {
            OfdmRate::R6 => 24,
            OfdmRate::R9 => 36,
            OfdmRate::R12 => 48,
            OfdmRate::R18 => 72,
            OfdmRate::R24 => 96,
            OfdmRate::R36 => 144,
            OfdmRate::R48 => 192,
            OfdmRate::R54 => 216,
        }
    }

    /// Whether the rate is mandatory (6, 12 and 24 Mbit/s; §17.3.1).
    pub const fn is_mandatory(self) -> bool {
        matches!(self, OfdmRate::R6 | OfdmRate::R12 | OfdmRate::R24)
    }
}

/// A modulation and rate: what a frame is sent with.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PhyMode {
    /// DSSS 1 Mbit/s, DBPSK (Clause 15; also usable by HR/DSSS and ERP stations).
    Dsss1,
    /// DSSS 2 Mbit/s, DQPSK (Clause 15).
    Dsss2,
    /// HR/DSSS 5.5 Mbit/s, CCK (Clause 16).
    Cck5_5,
    /// HR/DSSS 11 Mbit/s, CCK (Clause 16).
    Cck11,
    /// OFDM in the 5 GHz band, 20 MHz channels (Clause 17, 802.11a).
    Ofdm(OfdmRate),
    /// ERP-OFDM in the 2.4 GHz band (Clause 18, 802.11g): OFDM plus a 6 µs signal extension.
    ErpOfdm(OfdmRate),
    /// Not a standard mode: Clause 15 DSSS timing (long PLCP preamble and header at 1 Mbit/s)
    /// with the PSDU at `bps` bit/s, for ns-2-style links of any rate (module doc). Family
    /// [`PhyFamily::Dsss`]; only [`PhyStandard::Dsss`] supports it.
    DsssAnyRate {
        /// The PSDU rate in bit/s, in [`ANY_RATE_MIN_BPS`, `ANY_RATE_MAX_BPS`] for a valid
        /// configuration.
        bps: u64,
    },
}

/// The lowest rate of [`PhyMode::DsssAnyRate`]: 1 kbit/s (a 1500-byte packet then lasts 12 s,
/// longer than any MAC or transport timer; below that the rate is a unit mistake).
pub const ANY_RATE_MIN_BPS: u64 = 1_000;
/// The highest rate of [`PhyMode::DsssAnyRate`]: 1 Gbit/s, where one bit still lasts a whole
/// nanosecond (the simulator's time resolution).
pub const ANY_RATE_MAX_BPS: u64 = 1_000_000_000;

/// Modulation families: control responses stay within the family of the frame that elicits
/// them (§10.6.6.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PhyFamily {
    /// DSSS and HR/DSSS (1, 2, 5.5, 11 Mbit/s).
    Dsss,
    /// OFDM (Clause 17).
    Ofdm,
    /// ERP-OFDM (Clause 18).
    ErpOfdm,
}

/// PLCP preamble type of DSSS/HR-DSSS frames (§16.2.2). OFDM frames ignore it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Preamble {
    /// Long PLCP preamble and header: 144 + 48 bits at 1 Mbit/s = 192 µs.
    #[default]
    Long,
    /// Short PLCP preamble and header (HR/DSSS option): 72 bits at 1 Mbit/s + 48 bits at
    /// 2 Mbit/s = 96 µs. Not defined for 1 Mbit/s PSDUs, which always use the long preamble.
    Short,
}

/// Long PLCP preamble (144 µs) + PLCP header (48 µs) at 1 Mbit/s (Clause 15, §16.2.2).
pub const DSSS_LONG_PLCP: SimDuration = SimDuration::from_micros(192);
/// Short PLCP preamble (72 µs at 1 Mbit/s) + header (24 µs at 2 Mbit/s) (§16.2.2).
pub const DSSS_SHORT_PLCP: SimDuration = SimDuration::from_micros(96);
/// §17.4.3: T_PREAMBLE = 16 µs (20 MHz).
pub const OFDM_PREAMBLE: SimDuration = SimDuration::from_micros(16);
/// §17.4.3: T_SIGNAL = 4 µs (20 MHz).
pub const OFDM_SIGNAL: SimDuration = SimDuration::from_micros(4);
/// §17.4.3: T_SYM = 4 µs (20 MHz, 800 ns guard interval).
pub const OFDM_SYMBOL: SimDuration = SimDuration::from_micros(4);
/// §17.3.5.2: 16 SERVICE bits precede the PSDU.
pub const OFDM_SERVICE_BITS: u64 = 16;
/// §17.3.5.3: 6 tail bits follow it.
pub const OFDM_TAIL_BITS: u64 = 6;
/// §18.5.3 / Table 18-5: aSignalExtension = 6 µs after every ERP-OFDM PPDU.
pub const ERP_SIGNAL_EXTENSION: SimDuration = SimDuration::from_micros(6);

impl PhyMode {
    /// The rate in units of 500 kbit/s (the Supported Rates element encoding, §9.4.2.3, and the
    /// radiotap Rate field). A [`PhyMode::DsssAnyRate`] rate is rounded up to a whole unit, at
    /// least 1 (so 150 kbit/s is advertised as 500 kbit/s) and at most 127 (63.5 Mbit/s: bit 7
    /// of the element marks basic rates).
    pub const fn rate_500kbps(self) -> u8 {
        match self {
            PhyMode::DsssAnyRate { bps } => {
                let units = bps.div_ceil(500_000);
                if units < 1 {
                    1
                } else if units > 127 {
                    127
                } else {
                    units as u8
                }
            }
            PhyMode::Dsss1 => 2,
            PhyMode::Dsss2 => 4,
            PhyMode::Cck5_5 => 11,
            PhyMode::Cck11 => 22,
            PhyMode::Ofdm(r) | PhyMode::ErpOfdm(r) => match r {
                OfdmRate::R6 => 12,
                OfdmRate::R9 => 18,
                OfdmRate::R12 => 24,
                OfdmRate::R18 => 36,
                OfdmRate::R24 => 48,
                OfdmRate::R36 => 72,
                OfdmRate::R48 => 96,
                OfdmRate::R54 => 108,
            },
        }
    }

    /// The rate in bit/s (exact, also for [`PhyMode::DsssAnyRate`]).
    pub const fn rate_bps(self) -> u64 {
        match self {
            PhyMode::DsssAnyRate { bps } => bps,
            _ => self.rate_500kbps() as u64 * 500_000,
        }
    }

    /// The modulation family.
    pub const fn family(self) -> PhyFamily {
        match self {
            PhyMode::Dsss1
            | PhyMode::Dsss2
            | PhyMode::Cck5_5
            | PhyMode::Cck11
            | PhyMode::DsssAnyRate { .. } => PhyFamily::Dsss,
            PhyMode::Ofdm(_) => PhyFamily::Ofdm,
            PhyMode::ErpOfdm(_) => PhyFamily::ErpOfdm,
        }
    }

    /// The standard mode of a PHY family at a rate given in units of 500 kbit/s, if it exists
    /// (never a [`PhyMode::DsssAnyRate`]).
    pub fn from_rate_500kbps(family: PhyFamily, rate: u8) -> Option<PhyMode> {
        let ofdm = OfdmRate::ALL
            .into_iter()
            .find(|r| PhyMode::Ofdm(*r).rate_500kbps() == rate);
        match family {
            PhyFamily::Dsss => match rate {
                2 => Some(PhyMode::Dsss1),
                4 => Some(PhyMode::Dsss2),
                11 => Some(PhyMode::Cck5_5),
                22 => Some(PhyMode::Cck11),
                _ => None,
            },
            PhyFamily::Ofdm => ofdm.map(PhyMode::Ofdm),
            PhyFamily::ErpOfdm => ofdm.map(PhyMode::ErpOfdm),
        }
    }

    /// A short stable name (`"dsss-1"`, `"cck-11"`, `"ofdm-54"`, `"erp-ofdm-6"`, ...;
    /// `"dsss-any-150kbps"` for [`PhyMode::DsssAnyRate`]).
    pub fn name(self) -> String {
        let mbps = |m: PhyMode| {
            let r = m.rate_500kbps();
            if r.is_multiple_of(2) {
                format!("{}", r / 2)
            } else {
                format!("{}.5", r / 2)
            }
        };
        match self {
            PhyMode::Dsss1 | PhyMode::Dsss2 => format!("dsss-{}", mbps(self)),
            PhyMode::Cck5_5 | PhyMode::Cck11 => format!("cck-{}", mbps(self)),
            PhyMode::Ofdm(_) => format!("ofdm-{}", mbps(self)),
            PhyMode::ErpOfdm(_) => format!("erp-ofdm-{}", mbps(self)),
            PhyMode::DsssAnyRate { bps } => format!("dsss-any-{}", BitRate(bps)),
        }
    }

    /// Duration of the PLCP preamble and header (the part of the PPDU before the PSDU; for
    /// OFDM the preamble and SIGNAL field). [`PhyMode::DsssAnyRate`] always has the long one.
    pub const fn plcp_overhead(self, preamble: Preamble) -> SimDuration {
        match self {
            PhyMode::Dsss1 | PhyMode::DsssAnyRate { .. } => DSSS_LONG_PLCP,
            PhyMode::Dsss2 | PhyMode::Cck5_5 | PhyMode::Cck11 => match preamble {
                Preamble::Long => DSSS_LONG_PLCP,
                Preamble::Short => DSSS_SHORT_PLCP,
            },
            PhyMode::Ofdm(_) | PhyMode::ErpOfdm(_) => SimDuration(OFDM_PREAMBLE.0 + OFDM_SIGNAL.0),
        }
    }
}

/// Microseconds to transmit `bits` at `rate_500kbps` × 500 kbit/s, rounded up to a whole
/// microsecond (HR/DSSS LENGTH field, §16.2.3.5).
const fn ceil_micros(bits: u64, rate_500kbps: u64) -> u64 {
    // µs = bits / (rate × 0.5) = 2·bits / rate.
    (2 * bits).div_ceil(rate_500kbps)
}

/// The on-air duration (TXTIME) of a PPDU carrying a PSDU (MPDU including FCS) of `bytes`
/// octets, exact to the standard:
///
/// * DSSS 1/2 Mbit/s: 192 µs (long PLCP) + 8·L / R — integral µs;
/// * HR/DSSS 5.5/11 Mbit/s: 192 µs (long) or 96 µs (short) + ⌈8·L / R⌉ µs (Clause 16 TXTIME);
/// * OFDM: 16 + 4 + 4·⌈(16 + 8·L + 6) / N_DBPS⌉ µs (§17.4.3);
/// * ERP-OFDM: the OFDM value + 6 µs signal extension (§18.5.3);
/// * [`PhyMode::DsssAnyRate`] at R bit/s: 192 µs + ⌈8·L·10⁹ / R⌉ ns (not a standard mode;
///   rounded to the nanosecond, not the microsecond).
pub fn tx_duration(mode: PhyMode, bytes: usize, preamble: Preamble) -> SimDuration {
    let bits = bytes as u64 * 8;
    if let PhyMode::DsssAnyRate { bps } = mode {
        // u128: 8·L·10⁹ overflows u64 for L above ~2.3 GB, and a zero rate (an invalid
        // configuration) gives the longest duration instead of a division by zero.
        let ns = (u128::from(bits) * 1_000_000_000).div_ceil(u128::from(bps.max(1)));
        let psdu = SimDuration(u64::try_from(ns).unwrap_or(u64::MAX));
        return DSSS_LONG_PLCP + psdu;
    }
    let us = match mode {
        PhyMode::Dsss1 | PhyMode::Dsss2 | PhyMode::Cck5_5 | PhyMode::Cck11 => {
            mode.plcp_overhead(preamble).0 / 1_000 + ceil_micros(bits, mode.rate_500kbps() as u64)
        }
        PhyMode::Ofdm(r) | PhyMode::ErpOfdm(r) => {
            let symbols = (OFDM_SERVICE_BITS + bits + OFDM_TAIL_BITS).div_ceil(r.ndbps());
            let base = (OFDM_PREAMBLE.0 + OFDM_SIGNAL.0) / 1_000 + symbols * OFDM_SYMBOL.0 / 1_000;
            if matches!(mode, PhyMode::ErpOfdm(_)) {
                base + ERP_SIGNAL_EXTENSION.0 / 1_000
            } else {
                base
            }
        }
        PhyMode::DsssAnyRate { .. } => unreachable!("handled above"),
    };
    SimDuration::from_micros(us)
}

/// ns-2.1b8's PLCP preamble and header as it counted them: `DSSS_PreambleLength` 144 bits +
/// `DSSS_PLCPHeaderLength` 48 bits (`mac/mac-802_11.h`:186–187 of ns-2.1b8), added as
/// `(PreambleLength >> 3) + (PLCPHeaderLength >> 3)` = 18 + 6 octets to the size of every frame
/// (`ETHER_HDR_LEN`, `ETHER_RTS_LEN`, `ETHER_CTS_LEN`, `ETHER_ACK_LEN`, `mac-802_11.h`:118–137)
/// and sent with it at `bandwidth_`. Line numbers here and in
/// [`super::profiles::MacTiming::Ns2_21b8`] are of ns-2's CVS history at commit aa55c3b9
/// ("ns-2.1b8 release completed", 2001-06-06; only `VERSION` changed in it).
pub const NS2_21B8_PLCP_BYTES: usize = 24;

/// The on-air duration of a frame of `bytes` octets (MPDU with FCS, without PLCP) in ns-2.1b8
/// at `bps` bit/s: `8 * (24 + bytes) / bandwidth_` — the PLCP preamble and header
/// ([`NS2_21B8_PLCP_BYTES`]) at the same rate as the frame (`RTS_Time`, `CTS_Time`, `ACK_Time`,
/// `DATA_Time(len)`, `mac/mac-802_11.h`:139–142 of ns-2.1b8), rounded up to the nanosecond
/// (ns-2 keeps the double). A zero rate gives the longest duration.
pub fn ns2_21b8_duration(bps: u64, bytes: usize) -> SimDuration {
    let bits = (bytes as u64 + NS2_21B8_PLCP_BYTES as u64) * 8;
    let ns = (u128::from(bits) * 1_000_000_000).div_ceil(u128::from(bps.max(1)));
    SimDuration(u64::try_from(ns).unwrap_or(u64::MAX))
}

/// The PHY a MAC runs over, which fixes its timing constants.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PhyStandard {
    /// DSSS (Clause 15, the original 802.11 at 1 and 2 Mbit/s; ns-2's WaveLAN model).
    Dsss,
    /// HR/DSSS (Clause 16, 802.11b).
    HrDsss,
    /// OFDM at 5 GHz, 20 MHz channels (Clause 17, 802.11a).
    Ofdm,
    /// ERP (Clause 18, 802.11g). `short_slot`: every station of the BSS is an ERP station, so
    /// the 9 µs slot applies; otherwise 20 µs.
    Erp {
        /// Use the 9 µs short slot time.
        short_slot: bool,
    },
}

/// MAC timing constants of a PHY (the `a...` PHY characteristics).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PhyTiming {
    /// aSlotTime.
    pub slot: SimDuration,
    /// aSIFSTime.
    pub sifs: SimDuration,
    /// aCWmin.
    pub cw_min: u32,
    /// aCWmax.
    pub cw_max: u32,
    /// aRxPHYStartDelay: from the start of a PPDU on the medium to PHY-RXSTART.indication.
    pub rx_phy_start_delay: SimDuration,
    /// The lowest mandatory rate of the PHY, at which AckTxTime of the EIFS is computed
    /// (§10.3.2.3.7), with its preamble.
    pub lowest_mandatory: (PhyMode, Preamble),
}

impl PhyStandard {
    /// The timing constants of this PHY (see the module table for sources). `preamble`
    /// matters only for HR/DSSS, whose aRxPHYStartDelay is 96 µs with the short preamble.
    pub const fn timing(self, preamble: Preamble) -> PhyTiming {
        let us = SimDuration::from_micros;
        match self {
            PhyStandard::Dsss => PhyTiming {
                slot: us(20),
                sifs: us(10),
                cw_min: 31,
                cw_max: 1023,
                rx_phy_start_delay: us(192),
                lowest_mandatory: (PhyMode::Dsss1, Preamble::Long),
            },
            PhyStandard::HrDsss => PhyTiming {
                slot: us(20),
                sifs: us(10),
                cw_min: 31,
                cw_max: 1023,
                rx_phy_start_delay: match preamble {
                    Preamble::Long => us(192),
                    Preamble::Short => us(96),
                },
                lowest_mandatory: (PhyMode::Dsss1, Preamble::Long),
            },
            PhyStandard::Ofdm => PhyTiming {
                slot: us(9),
                sifs: us(16),
                cw_min: 15,
                cw_max: 1023,
                rx_phy_start_delay: us(20),
                lowest_mandatory: (PhyMode::Ofdm(OfdmRate::R6), Preamble::Long),
            },
            PhyStandard::Erp { short_slot } => PhyTiming {
                slot: if short_slot { us(9) } else { us(20) },
                sifs: us(10),
                cw_min: 15,
                cw_max: 1023,
                rx_phy_start_delay: us(20),
                // ERP stations must support the Clause 15/16 rates; 1 Mbit/s DSSS is the
                // lowest mandatory rate of the ERP PHY (§18.1.1).
                lowest_mandatory: (PhyMode::Dsss1, Preamble::Long),
            },
        }
    }

    /// The modulation family of this PHY's OFDM or DSSS data modes.
    pub const fn family(self) -> PhyFamily {
        match self {
            PhyStandard::Dsss | PhyStandard::HrDsss => PhyFamily::Dsss,
            PhyStandard::Ofdm => PhyFamily::Ofdm,
            PhyStandard::Erp { .. } => PhyFamily::ErpOfdm,
        }
    }

    /// Whether `mode` can be sent by this PHY. [`PhyMode::DsssAnyRate`] only by
    /// [`PhyStandard::Dsss`] (ns-2's WaveLAN model; the rate range is checked by
    /// `MacConfig::validate`).
    pub const fn supports(self, mode: PhyMode) -> bool {
        match self {
            PhyStandard::Dsss => matches!(
                mode,
                PhyMode::Dsss1 | PhyMode::Dsss2 | PhyMode::DsssAnyRate { .. }
            ),
            PhyStandard::HrDsss => matches!(
                mode,
                PhyMode::Dsss1 | PhyMode::Dsss2 | PhyMode::Cck5_5 | PhyMode::Cck11
            ),
            PhyStandard::Ofdm => matches!(mode, PhyMode::Ofdm(_)),
            PhyStandard::Erp { .. } => matches!(
                mode,
                PhyMode::Dsss1
                    | PhyMode::Dsss2
                    | PhyMode::Cck5_5
                    | PhyMode::Cck11
                    | PhyMode::ErpOfdm(_)
            ),
        }
    }
}

/// The length of an ACK or CTS frame (including FCS) in octets (§9.3.1.3–4).
pub const ACK_BYTES: usize = 14;

/// §10.3.7 / §10.3.2.3.5: DIFS = aSIFSTime + 2 × aSlotTime.
pub const fn difs(sifs: SimDuration, slot: SimDuration) -> SimDuration {
    SimDuration(sifs.0.saturating_add(slot.0.saturating_mul(2)))
}

/// §10.3.2.3.7: EIFS = aSIFSTime + DIFS + AckTxTime, where AckTxTime is the time to send an
/// Ack at the lowest PHY mandatory rate, preamble and PHY header included.
pub fn eifs(t: &PhyTiming) -> SimDuration {
    let (mode, preamble) = t.lowest_mandatory;
    t.sifs + difs(t.sifs, t.slot) + tx_duration(mode, ACK_BYTES, preamble)
}

/// §10.3.2.9: AckTimeout (and CTSTimeout) = aSIFSTime + aSlotTime +
/// aRxPHYStartDelay, starting at PHY-TXEND.confirm.
pub const fn response_timeout(t: &PhyTiming) -> SimDuration {
    SimDuration(
        t.sifs
            .0
            .saturating_add(t.slot.0)
            .saturating_add(t.rx_phy_start_delay.0),
    )
}

#[cfg(test)]
mod test {
    use super::*;

    fn us(d: SimDuration) -> u64 {
        assert_eq!(d.0 % 1_000, 0, "not whole microseconds");
        d.0 / 1_000
    }

    #[test]
    fn dsss_and_hr_dsss_durations() {
        let l = Preamble::Long;
        let s = Preamble::Short;
        // ACK at 1 Mbit/s: 192 + 112 = 304 µs; at 2 Mbit/s: 192 + 56 = 248 µs.
        assert_eq!(us(tx_duration(PhyMode::Dsss1, 14, l)), 304);
        assert_eq!(us(tx_duration(PhyMode::Dsss1, 14, s)), 304);
        assert_eq!(us(tx_duration(PhyMode::Dsss2, 14, l)), 248);
        assert_eq!(us(tx_duration(PhyMode::Dsss2, 14, s)), 152);
        // 1536-octet MPDU (1500 B IP + 36 B overhead).
        assert_eq!(us(tx_duration(PhyMode::Dsss1, 1536, l)), 192 + 12_288);
        assert_eq!(us(tx_duration(PhyMode::Dsss2, 1536, l)), 192 + 6_144);
        // 5.5 Mbit/s: ⌈12288 / 5.5⌉ = ⌈2234.18⌉ = 2235; 11 Mbit/s: ⌈1117.09⌉ = 1118.
        assert_eq!(us(tx_duration(PhyMode::Cck5_5, 1536, l)), 192 + 2_235);
        assert_eq!(us(tx_duration(PhyMode::Cck11, 1536, l)), 192 + 1_118);
        assert_eq!(us(tx_duration(PhyMode::Cck11, 1536, s)), 96 + 1_118);
        // 11 Mbit/s ACK: ⌈112/11⌉ = 11 µs.
        assert_eq!(us(tx_duration(PhyMode::Cck11, 14, l)), 203);
    }

    #[test]
    fn ofdm_durations() {
        let p = Preamble::Long;
        // ACK at 6 Mbit/s: ⌈134/24⌉ = 6 symbols → 44 µs; at 24 Mbit/s: 2 symbols → 28 µs.
        assert_eq!(us(tx_duration(PhyMode::Ofdm(OfdmRate::R6), 14, p)), 44);
        assert_eq!(us(tx_duration(PhyMode::Ofdm(OfdmRate::R24), 14, p)), 28);
        // 1536 octets at 54 Mbit/s: ⌈12310/216⌉ = 57 symbols → 248 µs.
        assert_eq!(us(tx_duration(PhyMode::Ofdm(OfdmRate::R54), 1536, p)), 248);
        // at 6 Mbit/s: ⌈12310/24⌉ = 513 symbols → 2072 µs.
        assert_eq!(us(tx_duration(PhyMode::Ofdm(OfdmRate::R6), 1536, p)), 2_072);
        // ERP adds the 6 µs signal extension.
        assert_eq!(us(tx_duration(PhyMode::ErpOfdm(OfdmRate::R6), 14, p)), 50);
    }

    #[test]
    fn interframe_spaces() {
        let dsss = PhyStandard::Dsss.timing(Preamble::Long);
        assert_eq!(us(difs(dsss.sifs, dsss.slot)), 50);
        assert_eq!(us(eifs(&dsss)), 10 + 304 + 50);
        assert_eq!(us(response_timeout(&dsss)), 10 + 20 + 192);
        let ofdm = PhyStandard::Ofdm.timing(Preamble::Long);
        assert_eq!(us(difs(ofdm.sifs, ofdm.slot)), 34);
        assert_eq!(us(eifs(&ofdm)), 16 + 44 + 34);
        assert_eq!(us(response_timeout(&ofdm)), 45);
        let erp = PhyStandard::Erp { short_slot: true }.timing(Preamble::Long);
        assert_eq!(us(difs(erp.sifs, erp.slot)), 28);
        assert_eq!(us(eifs(&erp)), 10 + 304 + 28);
        let erp_long = PhyStandard::Erp { short_slot: false }.timing(Preamble::Long);
        assert_eq!(us(difs(erp_long.sifs, erp_long.slot)), 50);
        let hr_short = PhyStandard::HrDsss.timing(Preamble::Short);
        assert_eq!(us(response_timeout(&hr_short)), 10 + 20 + 96);
    }

    #[test]
    fn rates_and_names() {
        assert_eq!(PhyMode::Cck5_5.rate_bps(), 5_500_000);
        assert_eq!(PhyMode::ErpOfdm(OfdmRate::R54).rate_bps(), 54_000_000);
        assert_eq!(PhyMode::Cck5_5.name(), "cck-5.5");
        assert_eq!(PhyMode::Ofdm(OfdmRate::R9).name(), "ofdm-9");
        for m in [PhyMode::Dsss1, PhyMode::Cck11, PhyMode::Ofdm(OfdmRate::R48)] {
            assert_eq!(
                PhyMode::from_rate_500kbps(m.family(), m.rate_500kbps()),
                Some(m)
            );
        }
        assert!(PhyStandard::Erp { short_slot: true }.supports(PhyMode::Cck11));
        assert!(!PhyStandard::Ofdm.supports(PhyMode::ErpOfdm(OfdmRate::R6)));
    }

    #[test]
    fn dsss_at_any_rate() {
        let l = Preamble::Long;
        let any = |bps| PhyMode::DsssAnyRate { bps };
        // 1040-octet MPDU at 150 kbit/s: 192 µs + 8320 bit / 150 000 bit/s
        // = 192 µs + 55 466 666.67 ns, rounded up to the nanosecond.
        assert_eq!(
            tx_duration(any(150_000), 1040, l),
            SimDuration(192_000 + 55_466_667)
        );
        // The short preamble does not apply; rates that divide stay exact.
        assert_eq!(
            tx_duration(any(150_000), 1040, Preamble::Short),
            tx_duration(any(150_000), 1040, l)
        );
        assert_eq!(
            tx_duration(any(2_000_000), 1040, l),
            SimDuration::from_micros(192 + 4_160)
        );
        // At the standard DSSS rates it coincides with the standard modes.
        for (m, bps) in [(PhyMode::Dsss1, 1_000_000), (PhyMode::Dsss2, 2_000_000)] {
            for bytes in [14, 20, 1040, 1536] {
                assert_eq!(tx_duration(any(bps), bytes, l), tx_duration(m, bytes, l));
            }
        }
        // Ack at 384 kbit/s: 112 bit → 291 666.67 ns → 291 667 ns.
        assert_eq!(
            tx_duration(any(384_000), ACK_BYTES, l),
            SimDuration(192_000 + 291_667)
        );
        // A zero rate (rejected by validation) does not divide by zero.
        assert!(tx_duration(any(0), 14, l) > SimDuration::from_secs(1));
        // Rates, family, supported-rates encoding (rounded up, at least 1, at most 127).
        assert_eq!(any(150_000).rate_bps(), 150_000);
        assert_eq!(any(150_000).rate_500kbps(), 1);
        assert_eq!(any(384_000).rate_500kbps(), 1);
        assert_eq!(any(1_000_000).rate_500kbps(), 2);
        assert_eq!(any(1_000_001).rate_500kbps(), 3);
        assert_eq!(any(100_000_000).rate_500kbps(), 127);
        assert_eq!(any(150_000).family(), PhyFamily::Dsss);
        assert_eq!(any(150_000).name(), "dsss-any-150kbps");
        assert_eq!(any(2_000_000).name(), "dsss-any-2Mbps");
        assert_eq!(any(150_000).plcp_overhead(Preamble::Short), DSSS_LONG_PLCP);
        assert!(PhyStandard::Dsss.supports(any(150_000)));
        assert!(!PhyStandard::HrDsss.supports(any(150_000)));
        assert!(!PhyStandard::Erp { short_slot: false }.supports(any(150_000)));
    }
}
