//! IEEE 802.11 MAC as a sans-IO state machine: the distributed coordination function
//! ([`Dcf`]) with its interface queue, and infrastructure mode (AP beacons, association,
//! reassociation) on top of it.
//!
//! # What the engine does
//!
//! One [`Dcf`] per wireless interface, built with [`Dcf::new`] from the interface's MAC
//! address, a [`MacConfig`] (usually [`RadioProfile::mac_config`]), a [`MacRole`] and the
//! random stream `seeds.stream(("dcf-backoff", node, iface))` — the MAC's only source of
//! randomness. Time enters only as the `now` argument of each call; all times are integer
//! nanoseconds.
//!
//! Inputs:
//! * [`Dcf::enqueue`]: a packet from IP for a next-hop MAC address;
//! * [`Dcf::handle_medium_busy`] / [`Dcf::handle_medium_idle`]: clear channel assessment
//!   changed — the energy of *other* transmitters on the medium crossed the carrier-sense
//!   threshold. The engine may keep reporting them while this MAC transmits;
//! * [`Dcf::handle_rx_frame`]: a frame ended at this radio (PHY-RXEND) with its bytes and
//!   whether the PHY decoded it ([`RxInfo`]); a corrupted frame makes the MAC use EIFS;
//! * [`Dcf::handle_tx_end`]: the frame this MAC started is off the air;
//! * [`Dcf::handle_timeout`]: the deadline from [`Dcf::poll_timeout`] arrived. A stale or early
//!   call does nothing.
//!
//! After every input, the engine drains the outputs:
//! * [`Dcf::poll_transmit`]`(now)`: a frame to start *now* ([`TxRequest`] with its bytes, PHY
//!   mode and exact duration); the engine puts it on the air and calls
//!   [`Dcf::handle_tx_end`] at `now + duration`;
//! * [`Dcf::poll_event`]: [`MacEvent`]s for IP, routing, transport and statistics;
//! * [`Dcf::poll_timeout`]: the next time the MAC wants [`Dcf::handle_timeout`].
//!
//! Simultaneous inputs may arrive in any order: a frame's reception end and the medium
//! becoming idle at the same instant give the same result either way, and a station whose
//! backoff ends exactly when another transmission starts still transmits (it could not have
//! sensed it; the two frames collide, as in the standard's slotted model).

mod counters;
mod dcf;
pub mod infra;
pub mod phy_timing;
pub mod profiles;
mod queue;
pub mod rate;

#[cfg(test)]
mod tests;

pub use counters::MacCounters;
pub use dcf::Dcf;
pub use infra::{ApConfig, MacRole, StaConfig};
pub use phy_timing::{tx_duration, OfdmRate, PhyFamily, PhyMode, PhyStandard, Preamble};
pub use profiles::{MacConfig, MacTiming, RadioProfile, RetryAccounting};
pub use queue::IfQueue;
pub use rate::{RateControlConfig, RateController};
use sctpsim_kernel::{Packet, PacketTag};
pub use sctpsim_wire::ieee80211::{FrameKind, MacAddr};

/// A packet handed to the MAC by IP (an MSDU).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacSdu {
    /// The next hop's MAC address (or [`MacAddr::BROADCAST`]). A station of an infrastructure
    /// network sends every frame to its AP and puts this address in Address 3.
    pub dst: MacAddr,
    /// The IPv4 packet; it travels behind an LLC/SNAP header with EtherType 0x0800.
    pub bytes: Vec<u8>,
    /// Routing control traffic: queued ahead of data (ns-2 PriQueue).
    pub is_control: bool,
    /// The packet's simulator metadata, returned unchanged with every event about it.
    pub tag: PacketTag,
}

impl MacSdu {
    /// The packet the SDU carries, with its tag (for the events that give it back: a drop,
    /// a link failure handed to routing).
    pub fn into_packet(self) -> Packet {
        Packet {
            bytes: self.bytes,
            tag: self.tag,
        }
    }
}

/// A frame the engine must put on the air now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxRequest {
    /// The MPDU: MAC header, body and a valid FCS.
    pub frame: Vec<u8>,
    /// Modulation and rate.
    pub mode: PhyMode,
    /// PLCP preamble (DSSS/HR-DSSS only).
    pub preamble: Preamble,
    /// On-air duration (PLCP preamble and header included), exact to the PHY clause.
    pub duration: sctpsim_kernel::SimDuration,
    /// Frame type, for traces.
    pub kind: FrameKind,
    /// The tag of the packet a data frame carries (default for control and management
    /// frames); the channel hands it to the receivers in [`RxInfo::tag`].
    pub tag: PacketTag,
}

/// What the PHY reports with a frame that ended at this radio.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RxInfo {
    /// The PHY decoded the frame without error (false: collision or noise; the MAC treats it
    /// as a frame received in error and defers EIFS).
    pub ok: bool,
    /// Received signal strength in dBm (reported with beacons as [`MacEvent::BeaconRssi`]).
    pub rssi_dbm: f64,
    /// Mode the frame was sent with (a response goes at the control rate for it).
    pub mode: PhyMode,
    /// The PHY vouches for the bytes of a frame with `ok`: they are exactly what the
    /// transmitter sent, so the MAC skips its own CRC-32 of the FCS. A simulated channel
    /// that decides a frame's fate itself and never alters its bytes sets it; computing the
    /// CRC of every overheard frame was about a tenth of the channel's time. False (the
    /// default of the constructors): the MAC verifies the FCS.
    pub fcs_verified: bool,
    /// The tag the transmitter's [`TxRequest::tag`] carried (what a simulated channel knows
    /// of the frame besides its bytes); returned with the delivered packet.
    pub tag: PacketTag,
}

impl RxInfo {
    /// A frame received without error.
    pub fn ok(mode: PhyMode, rssi_dbm: f64) -> Self {
        RxInfo {
            ok: true,
            rssi_dbm,
            mode,
            fcs_verified: false,
            tag: PacketTag::default(),
        }
    }

    /// A frame received in error.
    pub fn corrupted(mode: PhyMode, rssi_dbm: f64) -> Self {
        RxInfo {
            ok: false,
            rssi_dbm,
            mode,
            fcs_verified: false,
            tag: PacketTag::default(),
        }
    }
}

/// Why a packet left the MAC without being delivered.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// The interface queue was full.
    QueueFull,
    /// dot11ShortRetryLimit attempts failed.
    ShortRetryLimit,
    /// dot11LongRetryLimit attempts failed.
    LongRetryLimit,
}

/// What the MAC reports.
#[derive(Clone, Debug, PartialEq)]
pub enum MacEvent {
    /// A data frame for this station (or a group) arrived and was not a duplicate: the packet
    /// goes up to IP.
    Delivered {
        /// The source address (SA).
        src: MacAddr,
        /// The destination address (DA): this station or a group address.
        dst: MacAddr,
        /// The IPv4 packet (LLC/SNAP removed).
        bytes: Vec<u8>,
        /// The packet's tag ([`RxInfo::tag`]).
        tag: PacketTag,
    },
    /// With [`MacConfig::promiscuous`]: a data frame for another station was overheard.
    Overheard {
        /// The transmitter.
        src: MacAddr,
        /// The receiver (Address 1).
        dst: MacAddr,
        /// The IPv4 packet.
        bytes: Vec<u8>,
        /// The packet's tag ([`RxInfo::tag`]).
        tag: PacketTag,
    },
    /// A packet was sent: Acked (unicast) or put on the air (group address).
    TxSuccess {
        /// The next hop.
        dst: MacAddr,
        /// Retransmissions it needed (RTS and DATA attempts beyond the first).
        retries: u32,
    },
    /// Link failure: a packet was discarded at a retry limit. Routing treats the link to
    /// `next_hop` as broken (DSR route error, AODV RERR) and may salvage the packet.
    TxFailed {
        /// The next hop that did not answer.
        next_hop: MacAddr,
        /// The packet.
        sdu: MacSdu,
        /// Which limit was reached.
        reason: DropReason,
    },
    /// The interface queue dropped a packet (the arriving one or, for arriving control
    /// traffic, the last waiting one).
    QueueDrop {
        /// The packet.
        sdu: MacSdu,
    },
    /// Station: the association changed. `bssid: None` — not associated any more (beacon loss,
    /// deauthentication, failed handoff).
    AssocChanged {
        /// The AP now associated with.
        bssid: Option<MacAddr>,
        /// Reached by reassociation from another AP (a handoff).
        reassociation: bool,
    },
    /// Station: a beacon of a suitable AP was received, with its signal strength.
    BeaconRssi {
        /// The AP (BSSID).
        ap: MacAddr,
        /// Received power of the beacon in dBm.
        rssi_dbm: f64,
    },
    /// Station: an AP was not heard for `max_missed_beacons` beacon intervals.
    BeaconLost {
        /// The AP.
        ap: MacAddr,
    },
    /// AP: a station (re)associated.
    StaAssociated {
        /// The station.
        sta: MacAddr,
        /// Its association ID.
        aid: u16,
        /// By reassociation.
        reassociation: bool,
    },
    /// AP: a station deauthenticated or disassociated.
    StaDisassociated {
        /// The station.
        sta: MacAddr,
    },
}
