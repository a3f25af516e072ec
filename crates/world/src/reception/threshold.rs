//! ns-2's threshold reception: RXThresh, CSThresh and CPThresh.
//!
//! ns-2 decides a frame's fate from its received power alone (`mac/wireless-phy.cc`
//! `WirelessPhy::sendUp`, `mac/mac-802_11.cc` `Mac802_11::recv`):
//!
//! * `Pr < CSThresh`: the frame is dropped by the PHY; the MAC never sees it and the medium
//!   stays idle ([`Detection::Undetected`]).
//! * `CSThresh ≤ Pr < RXThresh`: the frame is marked erroneous but handed to the MAC, which
//!   treats the medium as busy for its duration and then discards it, deferring EIFS
//!   ([`Detection::CarrierSenseOnly`]).
//! * `Pr ≥ RXThresh`: the frame can be decoded ([`Detection::Decodable`]).
//!
//! While a frame is being received, another arriving frame is *captured* — ignored, the
//! current one survives — if the current frame is at least CPThresh (10, i.e. 10 dB) times
//! stronger: `Pr_current / Pr_new ≥ CPThresh`. Otherwise both are lost (a collision; ns-2
//! keeps the medium busy until the later of the two ends). ns-2 never switches to a stronger
//! newcomer; [`ThresholdReception::new_frame_capture`] enables that (message-in-message
//! capture of later radios) and is off by default.

use crate::error::{positive, ParamError};

/// ns-2 `tcl/lib/ns-default.tcl`: `Phy/WirelessPhy set RXThresh_ 3.652e-10` W — the two-ray
/// ground power at 250 m with the WaveLAN radio (`indep-utils/propagation/threshold.cc`).
pub const NS2_RX_THRESH_W: f64 = 3.652e-10;
/// ns-2 `tcl/lib/ns-default.tcl`: `Phy/WirelessPhy set CSThresh_ 1.559e-11` W — the two-ray
/// ground power at 550 m.
pub const NS2_CS_THRESH_W: f64 = 1.559e-11;
/// ns-2 `tcl/lib/ns-default.tcl`: `Phy/WirelessPhy set CPThresh_ 10.0` — a linear power ratio
/// (10 dB), compared as `Pr_current / Pr_new ≥ CPThresh` in `Mac802_11::recv`.
pub const NS2_CP_THRESH: f64 = 10.0;

/// What a radio makes of a frame arriving with a given power (ns-2 `WirelessPhy::sendUp`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Detection {
    /// Below CSThresh: invisible — not passed up, does not make the medium busy.
    Undetected,
    /// Between CSThresh and RXThresh: the medium is busy for the frame's duration, but the
    /// frame cannot be decoded (ns-2 marks it erroneous; the MAC then defers EIFS).
    CarrierSenseOnly,
    /// At or above RXThresh: decodable unless it collides.
    Decodable,
}

/// What happens when a frame arrives while another is being received.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Overlap {
    /// The frame being received is at least CPThresh stronger: it survives and the newcomer
    /// is ignored (ns-2 `Mac802_11::capture`; the newcomer still keeps the medium busy).
    KeepCurrent,
    /// Only with [`ThresholdReception::new_frame_capture`]: the newcomer is at least CPThresh
    /// stronger; the current frame is lost and the radio locks on to the newcomer.
    SwitchToNew,
    /// Neither dominates: both frames are lost (ns-2 `Mac802_11::collision`).
    Collision,
}

/// ns-2 threshold reception parameters. `Default` is ns-2's WaveLAN.
#[derive(Clone, Debug, PartialEq)]
pub struct ThresholdReception {
    /// Minimum power to decode a frame, W (ns-2 `RXThresh_`).
    pub rx_thresh_w: f64,
    /// Minimum power to sense the carrier, W (ns-2 `CSThresh_`).
    pub cs_thresh_w: f64,
    /// Capture ratio, linear (ns-2 `CPThresh_`; 10 = 10 dB).
    pub cp_thresh: f64,
    /// Let a newcomer CPThresh stronger than the frame being received take over the radio.
    /// ns-2 does not (false).
    pub new_frame_capture: bool,
}

impl Default for ThresholdReception {
    fn default() -> Self {
        ThresholdReception {
            rx_thresh_w: NS2_RX_THRESH_W,
            cs_thresh_w: NS2_CS_THRESH_W,
            cp_thresh: NS2_CP_THRESH,
            new_frame_capture: false,
        }
    }
}

impl ThresholdReception {
    /// Classifies a frame by its received power.
    pub fn detect(&self, pr_w: f64) -> Detection {
        if pr_w >= self.rx_thresh_w {
            Detection::Decodable
        } else if pr_w >= self.cs_thresh_w {
            Detection::CarrierSenseOnly
        } else {
            Detection::Undetected
        }
    }

    /// A frame of power `new_pr_w` arrives while one of power `current_pr_w` is being received
    /// (decodable or carrier-sense-only alike, as in ns-2).
    pub fn overlap(&self, current_pr_w: f64, new_pr_w: f64) -> Overlap {
        if current_pr_w >= self.cp_thresh * new_pr_w {
            Overlap::KeepCurrent
        } else if self.new_frame_capture && new_pr_w >= self.cp_thresh * current_pr_w {
            Overlap::SwitchToNew
        } else {
            Overlap::Collision
        }
    }

    /// Checks the parameters: positive powers, CSThresh ≤ RXThresh, CPThresh ≥ 1.
    pub fn validate(&self) -> Result<(), ParamError> {
        positive("rx_thresh_w", self.rx_thresh_w)?;
        positive("cs_thresh_w", self.cs_thresh_w)?;
        positive("cp_thresh", self.cp_thresh)?;
        if self.cs_thresh_w > self.rx_thresh_w {
            return Err(ParamError::new(
                "cs_thresh_w",
                "must not exceed rx_thresh_w (a decodable frame is always sensed)",
            ));
        }
        if self.cp_thresh < 1.0 {
            return Err(ParamError::new(
                "cp_thresh",
                "must be >= 1 (a linear ratio; 10 = 10 dB)",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn ns2_classification() {
        let r = ThresholdReception::default();
        assert!(r.validate().is_ok());
        assert_eq!(r.detect(NS2_RX_THRESH_W), Detection::Decodable);
        assert_eq!(r.detect(1e-3), Detection::Decodable);
        assert_eq!(
            r.detect(NS2_RX_THRESH_W * 0.999),
            Detection::CarrierSenseOnly
        );
        assert_eq!(r.detect(NS2_CS_THRESH_W), Detection::CarrierSenseOnly);
        assert_eq!(r.detect(NS2_CS_THRESH_W * 0.999), Detection::Undetected);
        assert_eq!(r.detect(0.0), Detection::Undetected);
        assert_eq!(r.detect(f64::NAN), Detection::Undetected);
    }

    #[test]
    fn ns2_capture_keeps_only_the_current_frame() {
        let r = ThresholdReception::default();
        assert_eq!(r.overlap(1e-8, 1e-9), Overlap::KeepCurrent); // exactly 10 dB
        assert_eq!(r.overlap(1e-8, 1.01e-9), Overlap::Collision);
        assert_eq!(r.overlap(1e-9, 1e-8), Overlap::Collision); // ns-2: no switch
        assert_eq!(r.overlap(1e-9, 1e-9), Overlap::Collision);
    }

    #[test]
    fn optional_new_frame_capture() {
        let r = ThresholdReception {
            new_frame_capture: true,
            ..ThresholdReception::default()
        };
        assert_eq!(r.overlap(1e-9, 1e-8), Overlap::SwitchToNew);
        assert_eq!(r.overlap(1e-9, 0.99e-8), Overlap::Collision);
        assert_eq!(r.overlap(1e-8, 1e-9), Overlap::KeepCurrent);
    }

    #[test]
    fn validation() {
        let bad = ThresholdReception {
            cs_thresh_w: 1e-9,
            ..ThresholdReception::default()
        };
        assert_eq!(bad.validate().unwrap_err().field, "cs_thresh_w");
        let bad = ThresholdReception {
            cp_thresh: 0.5,
            ..ThresholdReception::default()
        };
        assert_eq!(bad.validate().unwrap_err().field, "cp_thresh");
    }
}
