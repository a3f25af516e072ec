//! The 802.11 transmission modes the error models know.

/// How bits are put on the air in a [`WifiMode`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Modulation {
    /// Differential BPSK, Barker-11 spread (802.11 DSSS 1 Mbit/s).
    Dbpsk,
    /// Differential QPSK, Barker-11 spread (802.11 DSSS 2 Mbit/s).
    Dqpsk,
    /// Complementary code keying, 4 bits per 8-chip symbol (802.11b 5.5 Mbit/s).
    Cck4,
    /// Complementary code keying, 8 bits per 8-chip symbol (802.11b 11 Mbit/s).
    Cck8,
    /// OFDM subcarriers with BPSK.
    Bpsk,
    /// OFDM subcarriers with QPSK.
    Qpsk,
    /// OFDM subcarriers with 16-QAM.
    Qam16,
    /// OFDM subcarriers with 64-QAM.
    Qam64,
}

/// Rate of the 802.11a/g convolutional code (K = 7, generators 133/171 octal, punctured).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CodeRate {
    /// Rate 1/2, the mother code.
    Half,
    /// Rate 2/3, punctured.
    TwoThirds,
    /// Rate 3/4, punctured.
    ThreeQuarters,
}

impl CodeRate {
    /// Information bits per puncturing period (`b` of a rate `b/(b+1)` code; 1 for rate 1/2).
    pub fn info_bits_per_period(self) -> u32 {
        match self {
            CodeRate::Half => 1,
            CodeRate::TwoThirds => 2,
            CodeRate::ThreeQuarters => 3,
        }
    }
}

/// An 802.11 PHY mode: 802.11 DSSS (IEEE 802.11-2020 clause 15), 802.11b HR/DSSS (clause 16)
/// and 802.11a/g OFDM (clause 17) at 20 MHz.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WifiMode {
    /// DSSS 1 Mbit/s, DBPSK.
    Dsss1,
    /// DSSS 2 Mbit/s, DQPSK.
    Dsss2,
    /// HR/DSSS 5.5 Mbit/s, CCK.
    Cck5_5,
    /// HR/DSSS 11 Mbit/s, CCK.
    Cck11,
    /// OFDM 6 Mbit/s, BPSK rate 1/2.
    Ofdm6,
    /// OFDM 9 Mbit/s, BPSK rate 3/4.
    Ofdm9,
    /// OFDM 12 Mbit/s, QPSK rate 1/2.
    Ofdm12,
    /// OFDM 18 Mbit/s, QPSK rate 3/4.
    Ofdm18,
    /// OFDM 24 Mbit/s, 16-QAM rate 1/2.
    Ofdm24,
    /// OFDM 36 Mbit/s, 16-QAM rate 3/4.
    Ofdm36,
    /// OFDM 48 Mbit/s, 64-QAM rate 2/3.
    Ofdm48,
    /// OFDM 54 Mbit/s, 64-QAM rate 3/4.
    Ofdm54,
}

impl WifiMode {
    /// Every mode, slowest DSSS first, then OFDM.
    pub const ALL: [WifiMode; 12] = [
        WifiMode::Dsss1,
        WifiMode::Dsss2,
        WifiMode::Cck5_5,
        WifiMode::Cck11,
        WifiMode::Ofdm6,
        WifiMode::Ofdm9,
        WifiMode::Ofdm12,
        WifiMode::Ofdm18,
        WifiMode::Ofdm24,
        WifiMode::Ofdm36,
        WifiMode::Ofdm48,
        WifiMode::Ofdm54,
    ];

    /// Data rate, bit/s.
    pub fn data_rate_bps(self) -> u64 {
        match self {
            WifiMode::Dsss1 => 1_000_000,
            WifiMode::Dsss2 => 2_000_000,
            WifiMode::Cck5_5 => 5_500_000,
            WifiMode::Cck11 => 11_000_000,
            WifiMode::Ofdm6 => 6_000_000,
            WifiMode::Ofdm9 => 9_000_000,
            WifiMode::Ofdm12 => 12_000_000,
            WifiMode::Ofdm18 => 18_000_000,
            WifiMode::Ofdm24 => 24_000_000,
            WifiMode::Ofdm36 => 36_000_000,
            WifiMode::Ofdm48 => 48_000_000,
            WifiMode::Ofdm54 => 54_000_000,
        }
    }

    /// The mode with this data rate (every 802.11a/b/g rate is unique).
    pub fn from_rate_bps(bps: u64) -> Option<WifiMode> {
        WifiMode::ALL.into_iter().find(|m| m.data_rate_bps() == bps)
    }

    /// Whether this is an 802.11a/g OFDM mode.
    pub fn is_ofdm(self) -> bool {
        !matches!(
            self,
            WifiMode::Dsss1 | WifiMode::Dsss2 | WifiMode::Cck5_5 | WifiMode::Cck11
        )
    }

    /// Noise bandwidth of the channel, Hz: 22 MHz for DSSS/CCK (the width of the 802.11b
    /// transmit spectrum mask's main lobe), 20 MHz for OFDM (as ns-3 `WifiPhy` uses for the noise floor).
    pub fn bandwidth_hz(self) -> f64 {
        if self.is_ofdm() {
            20e6
        } else {
            22e6
        }
    }

    /// The modulation.
    pub fn modulation(self) -> Modulation {
        match self {
            WifiMode::Dsss1 => Modulation::Dbpsk,
            WifiMode::Dsss2 => Modulation::Dqpsk,
            WifiMode::Cck5_5 => Modulation::Cck4,
            WifiMode::Cck11 => Modulation::Cck8,
            WifiMode::Ofdm6 | WifiMode::Ofdm9 => Modulation::Bpsk,
            WifiMode::Ofdm12 | WifiMode::Ofdm18 => Modulation::Qpsk,
            WifiMode::Ofdm24 | WifiMode::Ofdm36 => Modulation::Qam16,
            WifiMode::Ofdm48 | WifiMode::Ofdm54 => Modulation::Qam64,
        }
    }

    /// The convolutional code rate (OFDM only).
    pub fn code_rate(self) -> Option<CodeRate> {
        match self {
            WifiMode::Ofdm6 | WifiMode::Ofdm12 | WifiMode::Ofdm24 => Some(CodeRate::Half),
            WifiMode::Ofdm48 => Some(CodeRate::TwoThirds),
            WifiMode::Ofdm9 | WifiMode::Ofdm18 | WifiMode::Ofdm36 | WifiMode::Ofdm54 => {
                Some(CodeRate::ThreeQuarters)
            }
            _ => None,
        }
    }

    /// A short name: `"dsss-1"`, `"cck-5.5"`, `"ofdm-54"`.
    pub fn name(self) -> &'static str {
        match self {
            WifiMode::Dsss1 => "dsss-1",
            WifiMode::Dsss2 => "dsss-2",
            WifiMode::Cck5_5 => "cck-5.5",
            WifiMode::Cck11 => "cck-11",
            WifiMode::Ofdm6 => "ofdm-6",
            WifiMode::Ofdm9 => "ofdm-9",
            WifiMode::Ofdm12 => "ofdm-12",
            WifiMode::Ofdm18 => "ofdm-18",
            WifiMode::Ofdm24 => "ofdm-24",
            WifiMode::Ofdm36 => "ofdm-36",
            WifiMode::Ofdm48 => "ofdm-48",
            WifiMode::Ofdm54 => "ofdm-54",
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn rates_are_unique_and_round_trip() {
        for m in WifiMode::ALL {
            assert_eq!(WifiMode::from_rate_bps(m.data_rate_bps()), Some(m));
            assert_eq!(m.is_ofdm(), m.code_rate().is_some());
        }
        assert_eq!(WifiMode::from_rate_bps(3_000_000), None);
        assert_eq!(WifiMode::Cck11.bandwidth_hz(), 22e6);
        assert_eq!(WifiMode::Ofdm54.bandwidth_hz(), 20e6);
        assert_eq!(WifiMode::Ofdm48.modulation(), Modulation::Qam64);
        assert_eq!(CodeRate::ThreeQuarters.info_bits_per_period(), 3);
        assert_eq!(WifiMode::Cck5_5.name(), "cck-5.5");
    }
}
