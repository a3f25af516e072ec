//! Management frames and the infrastructure role of a [`Dcf`]: what connects the MAC to the
//! AP and station state machines of [`crate::mac::infra`].
//!
//! Those state machines decide (beacon at each TBTT, authentication, (re)association,
//! handoff, beacon loss) and return [`Action`]s; this file is the glue around them: it builds
//! the management frames they ask for ([`Dcf::build_mgmt`], IEEE Std 802.11-2020 §9.3.3) and
//! queues them ahead of data ([`Dcf::apply`]; a beacon goes first, §11.1.3.2), hands them
//! the management frames received and their timer expiries, and applies the role's address
//! rules to data frames (Table 9-26: which frames a role sends and accepts, an AP's
//! deauthentication of a station sending class 3 frames unassociated, §11.3.3). The frames
//! themselves contend and are acknowledged like any other (§11.1.3.2: "transmitted
//! according to the medium access rules"); that is the rest of the [`Dcf`].

use sctpsim_kernel::{Rng, SimDuration, SimTime};
use sctpsim_wire::ieee80211::{
    capability, AssocReqBody, AssocRespBody, AuthBody, BeaconBody, DataRepr, Elements, FrameRepr,
    MgmtBody, MgmtRepr, ReassocReqBody, SeqControl, AUTH_OPEN_SYSTEM,
};

use super::{Dcf, Outgoing, Payload};
use crate::mac::infra::{Action, ApState, MacRole, MgmtOut, MgmtWhat, StaState, TU};
use crate::mac::phy_timing::{PhyStandard, Preamble};
use crate::mac::{MacAddr, RxInfo};

/// The infrastructure role; an AP's or a station's state (hundreds of bytes, touched only by
/// management frames and their deadlines) is boxed, out of the MAC's hot cache lines.
#[derive(Clone, Debug)]
pub(super) enum Role {
    AdHoc { bssid: MacAddr },
    Ap(Box<ApState>),
    Sta(Box<StaState>),
}

impl Role {
    /// The state for `role` of the MAC with address `addr`; an AP without a configured first
    /// TBTT draws it from `rng` (the MAC's stream, before any backoff).
    pub(super) fn new(role: MacRole, addr: MacAddr, rng: &mut Rng) -> Self {
        match role {
            MacRole::AdHoc { bssid } => Role::AdHoc { bssid },
            MacRole::Ap(ap) => {
                let interval = ap.interval();
                let first = ap
                    .first_tbtt
                    .unwrap_or_else(|| SimDuration(rng.below(interval.0.max(1))));
                Role::Ap(Box::new(ApState::new(ap, addr, first)))
            }
            MacRole::Sta(sta) => Role::Sta(Box::new(StaState::new(sta))),
        }
    }

    /// A value read from the role's first bytes, for [`Dcf::touch`].
    pub(super) fn touch(&self) -> u64 {
        match self {
            Role::AdHoc { bssid } => u64::from(bssid.0[5]),
            Role::Ap(_) => 1,
            Role::Sta(_) => 2,
        }
    }
}

impl Dcf {
    // ----------------------------------------------------------------------------------------
    // The role seen from outside.

    /// Station: the AP of the current association. AP: its own address. Ad hoc: the BSSID.
    pub fn bssid(&self) -> Option<MacAddr> {
        match &self.role {
            Role::AdHoc { bssid } => Some(*bssid),
            Role::Ap(_) => Some(self.addr),
            Role::Sta(s) => s.bssid(),
        }
    }

    /// AP: the associated stations and their association IDs, in address order.
    pub fn associated_stations(&self) -> Vec<(MacAddr, u16)> {
        match &self.role {
            Role::Ap(ap) => ap.stations().iter().map(|(a, id)| (*a, *id)).collect(),
            _ => Vec::new(),
        }
    }

    // ----------------------------------------------------------------------------------------
    // Deadlines.

    /// The role's next deadline: a TBTT; a station's response or beacon-loss deadline.
    pub(super) fn role_deadline(&self) -> Option<SimTime> {
        match &self.role {
            Role::Ap(ap) => Some(ap.next_deadline()),
            Role::Sta(sta) => Some(sta.next_deadline()),
            Role::AdHoc { .. } => None,
        }
    }

    /// Runs the role's deadlines due at `now`, then takes the next frame into service if the
    /// MAC is idle (in every role: [`Dcf::apply`]).
    pub(super) fn role_timeout(&mut self, now: SimTime) {
        let mut actions = Vec::new();
        match &mut self.role {
            Role::Ap(ap) => ap.on_timeout(now, &mut actions),
            Role::Sta(sta) => {
                if sta.next_deadline() <= now {
                    sta.on_timeout(now, &mut actions)
                }
            }
            Role::AdHoc { .. } => {}
        }
        self.apply(now, actions);
    }

    /// Queues the management frames and reports the events the state machines asked for,
    /// then takes the next frame into service if the MAC is idle.
    fn apply(&mut self, now: SimTime, actions: Vec<Action>) {
        for a in actions {
            match a {
                Action::Send(out) => {
                    if out.what == MgmtWhat::Beacon {
                        // §11.1.3.2: the beacon is the next frame to be sent.
                        self.mgmt_queue.push_front(out);
                    } else {
                        self.mgmt_queue.push_back(out);
                    }
                }
                Action::Event(e) => self.events.push_back(e),
            }
        }
        self.start_next(now);
    }

    // ----------------------------------------------------------------------------------------
    // Data frames: the role's address rules (Table 9-26).

    /// Whether data may be sent: a station only while associated.
    pub(super) fn data_allowed(&self) -> bool {
        match &self.role {
            Role::AdHoc { .. } | Role::Ap(_) => true,
            Role::Sta(s) => s.bssid().is_some(),
        }
    }

    /// ToDS, FromDS, Address 1 and Address 3 of a data frame to `dst` (Table 9-26): ad hoc,
    /// directly with the BSSID; a station, through its AP (`None` if not associated); an AP,
    /// from the DS.
    pub(super) fn data_addresses(&self, dst: MacAddr) -> Option<(bool, bool, MacAddr, MacAddr)> {
        Some(match &self.role {
            Role::AdHoc { bssid } => (false, false, dst, *bssid),
            Role::Sta(s) => (true, false, s.bssid()?, dst),
            Role::Ap(_) => (false, true, dst, self.addr),
        })
    }

    /// Whether this role accepts the data frame `h` for this station or a group (Table 9-26
    /// address usage). An AP answers a class 3 frame from a station that is not associated
    /// with a deauthentication (§11.3.3).
    pub(super) fn accepts_data(&mut self, now: SimTime, h: &DataRepr) -> bool {
        let me = self.addr;
        match &self.role {
            Role::AdHoc { bssid } => !h.to_ds && !h.from_ds && h.addr3 == *bssid,
            Role::Sta(s) => h.from_ds && !h.to_ds && Some(h.addr2) == s.bssid(),
            Role::Ap(ap) => {
                let ok = h.to_ds && !h.from_ds && h.addr1 == me && ap.is_associated(h.addr2);
                if !ok && h.addr1 == me && h.to_ds {
                    let mut actions = Vec::new();
                    ap.on_class3_from_unassociated(h.addr2, &mut actions);
                    self.apply(now, actions);
                }
                ok
            }
        }
    }

    // ----------------------------------------------------------------------------------------
    // Transmit side.

    /// The frame in service for the management frame `out`.
    pub(super) fn prepare_mgmt(&mut self, now: SimTime, out: MgmtOut) -> Outgoing {
        let seq = self.seq();
        let frame = self.build_mgmt(now, seq, &out);
        Outgoing {
            ra: out.da,
            payload: Payload::Mgmt(out),
            frame,
            mode: self.cfg.mgmt_mode(),
            seq,
            short_retries: 0,
            long_retries: 0,
            retries: 0,
            sent_once: false,
            data_failures: 0,
        }
    }

    /// If the frame in service is a beacon, rebuilds it for a transmission starting at `now`:
    /// its Timestamp is the TSF at the time it is sent (§9.4.1.10, §11.1.3.2).
    pub(super) fn refresh_beacon(&mut self, now: SimTime) {
        let Some(cur) = &self.current else {
            return;
        };
        let Payload::Mgmt(out) = &cur.payload else {
            return;
        };
        if out.what != MgmtWhat::Beacon {
            return;
        }
        let frame = self.build_mgmt(now, cur.seq, out);
        if let Some(cur) = self.current.as_mut() {
            cur.frame = frame;
        }
        self.counters.tx_beacons += 1;
    }

    /// The management frame `out` could not be delivered (retry limit): a station's state
    /// machine learns it (an authentication or association attempt failed).
    pub(super) fn mgmt_undeliverable(&mut self, now: SimTime, out: &MgmtOut) {
        let mut actions = Vec::new();
        if let Role::Sta(sta) = &mut self.role {
            sta.on_mgmt_undeliverable(now, out.da, &mut actions);
        }
        self.apply(now, actions);
    }

    /// The Capability Information field (§9.4.1.4): ESS (AP) or IBSS (ad hoc), short slot time
    /// and short preamble as configured.
    fn capability(&self) -> u16 {
        let mut c = match self.role {
            Role::Ap(_) => capability::ESS,
            Role::AdHoc { .. } => capability::IBSS,
            Role::Sta(_) => 0,
        };
        if self.cfg.standard == (PhyStandard::Erp { short_slot: true }) {
            c |= capability::SHORT_SLOT_TIME;
        }
        if self.cfg.preamble == Preamble::Short {
            c |= capability::SHORT_PREAMBLE;
        }
        c
    }

    /// The bytes of a management frame (§9.3.3) sent at `now` with sequence control `seq`.
    fn build_mgmt(&self, now: SimTime, seq: SeqControl, out: &MgmtOut) -> Vec<u8> {
        let mode = self.cfg.mgmt_mode();
        let rates = self.cfg.rates_element();
        let cap = self.capability();
        let (ssid, interval_tu, channel): (&[u8], u16, u8) = match &self.role {
            Role::Ap(ap) => (&ap.cfg.ssid, ap.cfg.beacon_interval_tu, ap.cfg.channel),
            _ => (&[], 0, 1),
        };
        let ssid = &ssid[..ssid.len().min(32)];
        let beacon_body = || {
            // §9.4.1.10: the TSF value when the first bit of the Timestamp is transmitted:
            // transmission start + PLCP + 24 octets of MAC header.
            let at = now
                + self.cfg.plcp_time(mode)
                + SimDuration(24 * 8 * 1_000_000_000 / mode.rate_bps().max(1));
            BeaconBody {
                timestamp: at.0 / 1_000,
                interval_tu,
                capability: cap,
                elements: Elements::with_rates(Some(ssid), &rates, Some(channel)),
            }
        };
        let body = match &out.what {
            MgmtWhat::Beacon => MgmtBody::Beacon(beacon_body()),
            MgmtWhat::ProbeResp => MgmtBody::ProbeResp(beacon_body()),
            MgmtWhat::AuthReq => MgmtBody::Auth(AuthBody {
                algorithm: AUTH_OPEN_SYSTEM,
                transaction: 1,
                status: 0,
            }),
            MgmtWhat::AuthResp { status } => MgmtBody::Auth(AuthBody {
                algorithm: AUTH_OPEN_SYSTEM,
                transaction: 2,
                status: *status,
            }),
            MgmtWhat::AssocReq { ssid } => MgmtBody::AssocReq(AssocReqBody {
                capability: cap,
                listen_interval: self.listen_interval(),
                elements: Elements::with_rates(Some(ssid), &rates, None),
            }),
            MgmtWhat::ReassocReq { ssid, current_ap } => MgmtBody::ReassocReq(ReassocReqBody {
                capability: cap,
                listen_interval: self.listen_interval(),
                current_ap: *current_ap,
                elements: Elements::with_rates(Some(ssid), &rates, None),
            }),
            MgmtWhat::AssocResp {
                status,
                aid,
                reassoc,
            } => {
                let b = AssocRespBody {
                    capability: cap,
                    status: *status,
                    aid: *aid,
                    elements: Elements::with_rates(None, &rates, None),
                };
                if *reassoc {
                    MgmtBody::ReassocResp(b)
                } else {
                    MgmtBody::AssocResp(b)
                }
            }
            MgmtWhat::Deauth { reason } => MgmtBody::Deauth { reason: *reason },
        };
        FrameRepr::Mgmt(MgmtRepr {
            retry: false,
            duration: if out.da.is_group() {
                0
            } else {
                self.unicast_duration(mode)
            },
            da: out.da,
            sa: self.addr,
            bssid: out.bssid,
            seq,
            body,
        })
        .to_bytes()
    }

    /// The Listen Interval of a station's (re)association requests (§9.4.1.6).
    fn listen_interval(&self) -> u16 {
        match &self.role {
            Role::Sta(s) => s.cfg.listen_interval,
            _ => 1,
        }
    }

    // ----------------------------------------------------------------------------------------
    // Receive side.

    /// A good management frame: Acked and filtered for duplicates if it is for this station
    /// (like data, §10.3.2.9, §10.3.2.14.3), then handed to the role's state machine.
    pub(super) fn rx_mgmt(&mut self, now: SimTime, m: &MgmtRepr, rx: RxInfo) {
        let me = self.addr;
        if m.da == me {
            self.schedule_ack(now, m.sa, rx.mode);
            if self.is_duplicate(m.sa, m.seq, m.retry) {
                return;
            }
        } else if !m.da.is_group() {
            return;
        }
        let mut actions = Vec::new();
        match &mut self.role {
            Role::Sta(sta) => match &m.body {
                MgmtBody::Beacon(b) => {
                    let interval = TU.saturating_mul(u64::from(b.interval_tu.max(1)));
                    let ssid = b.elements.ssid.unwrap_or(&[]);
                    sta.on_beacon(now, m.bssid, ssid, interval, rx.rssi_dbm, &mut actions);
                }
                body => sta.on_mgmt(now, m.sa, body, &mut actions),
            },
            Role::Ap(ap) => ap.on_mgmt(m.sa, m.bssid, &m.body, &mut actions),
            Role::AdHoc { .. } => {}
        }
        self.apply(now, actions);
    }
}
