//! Infrastructure mode: the access point (beacons, open-system authentication, association
//! and reassociation) and the station (passive scanning, association, reassociation to a
//! stronger AP, beacon-loss detection, a signal-strength event per beacon).
//!
//! Both are small state machines driven by the [`super::Dcf`] that owns them: they consume
//! received management frames and timer expiries and return actions — management frames
//! to queue and events to report. They never touch the medium themselves, nor build or parse
//! a frame: that glue (frame bodies, queueing ahead of data, the role's address rules for
//! data frames) is the `Dcf`'s, in `dcf/mgmt.rs`.
//!
//! Sources: IEEE Std 802.11-2020 §11.1.3 (beacon generation at each TBTT, "transmitted
//! according to the medium access rules"), §11.1.4.2 (passive scanning), §11.3.4.2 (Open
//! System authentication: a two-frame exchange, transaction sequence 1 and 2), §11.3.5.2–5
//! ((re)association procedures), Annex C MIB defaults: dot11BeaconPeriod 100 TU,
//! dot11AuthenticationResponseTimeOut and dot11AssociationResponseTimeOut 512 TU.

use std::collections::{BTreeMap, BTreeSet};

use sctpsim_kernel::{SimDuration, SimTime};
use sctpsim_wire::ieee80211::{reason, status, MgmtBody, AUTH_OPEN_SYSTEM};

use super::{MacAddr, MacEvent};

/// IEEE 802.11 time unit (§3.1 "time unit (TU)"): 1024 µs.
pub const TU: SimDuration = SimDuration::from_micros(1024);

/// dot11BeaconPeriod default (Annex C): 100 TU = 102.4 ms.
pub const BEACON_PERIOD_TU_DEFAULT: u16 = 100;

/// dot11AuthenticationResponseTimeOut and dot11AssociationResponseTimeOut defaults
/// (Annex C): 512 TU = 524.288 ms.
pub const RESPONSE_TIMEOUT_TU_DEFAULT: u64 = 512;

/// Access point settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApConfig {
    /// The SSID the AP advertises (at most 32 octets are sent).
    pub ssid: Vec<u8>,
    /// Beacon interval in TU (default 100 TU = 102.4 ms; the Aydin study uses 1 s ≈ 977 TU).
    pub beacon_interval_tu: u16,
    /// Channel advertised in the DSSS Parameter Set element (default 1).
    pub channel: u8,
    /// Time of the first TBTT. `None` (default): drawn uniformly in [0, interval) from the
    /// MAC's random stream at construction, as access points switched on at random times;
    /// co-channel APs with identical TBTTs would otherwise collide on every beacon.
    pub first_tbtt: Option<SimDuration>,
}

impl ApConfig {
    /// An AP advertising `ssid` with the default interval and channel.
    pub fn new(ssid: &[u8]) -> Self {
        ApConfig {
            ssid: ssid.to_vec(),
            beacon_interval_tu: BEACON_PERIOD_TU_DEFAULT,
            channel: 1,
            first_tbtt: None,
        }
    }

    /// The beacon interval.
    pub fn interval(&self) -> SimDuration {
        TU.saturating_mul(u64::from(self.beacon_interval_tu.max(1)))
    }
}

/// Station (non-AP) settings.
#[derive(Clone, Debug, PartialEq)]
pub struct StaConfig {
    /// Join only APs advertising this SSID (`None`: any AP).
    pub ssid: Option<Vec<u8>>,
    /// Reassociate to another AP when its last beacon was received at least this much
    /// stronger than the current AP's last beacon (dB). No standard value; default 3 dB.
    pub handoff_hysteresis_db: f64,
    /// An AP not heard for this many of its beacon intervals is lost ([`MacEvent::BeaconLost`];
    /// if it was the AP of the association, the station disassociates). Default 10 (ns-3
    /// `StaWifiMac::MaxMissedBeacons`); the Aydin study's "3 s without a beacon" with 1 s
    /// beacons is 3.
    pub max_missed_beacons: u32,
    /// Wait for an authentication or (re)association response (default 512 TU).
    pub response_timeout: SimDuration,
    /// Listen interval sent in (re)association requests, in beacon intervals (default 1).
    pub listen_interval: u16,
}

impl Default for StaConfig {
    fn default() -> Self {
        StaConfig {
            ssid: None,
            handoff_hysteresis_db: 3.0,
            max_missed_beacons: 10,
            response_timeout: TU.saturating_mul(RESPONSE_TIMEOUT_TU_DEFAULT),
            listen_interval: 1,
        }
    }
}

/// What the MAC is: a station of an ad hoc network (IBSS), an access point or a station of an
/// infrastructure network.
#[derive(Clone, Debug, PartialEq)]
pub enum MacRole {
    /// IBSS member: data frames with ToDS = FromDS = 0, Address 3 = `bssid`; no beacons are
    /// modelled (IBSS beacon generation is out of scope).
    AdHoc {
        /// The BSSID every member of the ad hoc network shares.
        bssid: MacAddr,
    },
    /// Access point (its BSSID is its own address).
    Ap(ApConfig),
    /// Infrastructure station.
    Sta(StaConfig),
}

/// A management frame an infrastructure state machine wants sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MgmtOut {
    /// Address 1.
    pub da: MacAddr,
    /// Address 3.
    pub bssid: MacAddr,
    /// Which frame.
    pub what: MgmtWhat,
}

/// The management frames the state machines send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MgmtWhat {
    Beacon,
    ProbeResp,
    AuthReq,
    AuthResp {
        status: u16,
    },
    AssocReq {
        ssid: Vec<u8>,
    },
    ReassocReq {
        ssid: Vec<u8>,
        current_ap: MacAddr,
    },
    AssocResp {
        status: u16,
        aid: u16,
        reassoc: bool,
    },
    Deauth {
        reason: u16,
    },
}

/// Output of the infrastructure state machines.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Action {
    Send(MgmtOut),
    Event(MacEvent),
}

/// The access point's state.
#[derive(Clone, Debug)]
pub(crate) struct ApState {
    pub cfg: ApConfig,
    addr: MacAddr,
    next_tbtt: SimTime,
    authenticated: BTreeSet<MacAddr>,
    stations: BTreeMap<MacAddr, u16>,
}

impl ApState {
    pub fn new(cfg: ApConfig, addr: MacAddr, first_tbtt: SimDuration) -> Self {
        ApState {
            cfg,
            addr,
            next_tbtt: SimTime::ZERO + first_tbtt,
            authenticated: BTreeSet::new(),
            stations: BTreeMap::new(),
        }
    }

    pub fn next_deadline(&self) -> SimTime {
        self.next_tbtt
    }

    /// §11.1.3.2: at each TBTT the AP schedules a beacon.
    pub fn on_timeout(&mut self, now: SimTime, out: &mut Vec<Action>) {
        if now < self.next_tbtt {
            return;
        }
        let interval = self.cfg.interval();
        while self.next_tbtt <= now {
            self.next_tbtt += interval;
        }
        out.push(Action::Send(MgmtOut {
            da: MacAddr::BROADCAST,
            bssid: self.addr,
            what: MgmtWhat::Beacon,
        }));
    }

    /// Whether `sta` is associated (class 3 frames allowed, §11.3.3).
    pub fn is_associated(&self, sta: MacAddr) -> bool {
        self.stations.contains_key(&sta)
    }

    /// The associated stations and their AIDs.
    pub fn stations(&self) -> &BTreeMap<MacAddr, u16> {
        &self.stations
    }

    fn send(&self, da: MacAddr, what: MgmtWhat, out: &mut Vec<Action>) {
        out.push(Action::Send(MgmtOut {
            da,
            bssid: self.addr,
            what,
        }));
    }

    /// A data frame from `sta` that is not associated: §11.3.3 — answer with a
    /// Deauthentication, reason 7 ("Class 3 frame received from nonassociated STA").
    pub fn on_class3_from_unassociated(&self, sta: MacAddr, out: &mut Vec<Action>) {
        self.send(
            sta,
            MgmtWhat::Deauth {
                reason: reason::CLASS3_FROM_NONASSOC,
            },
            out,
        );
    }

    pub fn on_mgmt(&mut self, sa: MacAddr, bssid: MacAddr, body: &MgmtBody, out: &mut Vec<Action>) {
        let ssid_ok = |s: Option<&[u8]>| s.is_none_or(|s| s.is_empty() || s == self.cfg.ssid);
        match body {
            MgmtBody::ProbeReq(e) if ssid_ok(e.ssid) => self.send(sa, MgmtWhat::ProbeResp, out),
            _ if bssid != self.addr => {}
            MgmtBody::Auth(a) if a.transaction == 1 => {
                // §11.3.4.2: Open System — the response carries the result.
                let st = if a.algorithm == AUTH_OPEN_SYSTEM {
                    self.authenticated.insert(sa);
                    status::SUCCESS
                } else {
                    status::UNSUPPORTED_AUTH_ALGORITHM
                };
                self.send(sa, MgmtWhat::AuthResp { status: st }, out);
            }
            MgmtBody::AssocReq(r) => self.on_assoc_req(sa, r.elements.ssid, false, out),
            MgmtBody::ReassocReq(r) => self.on_assoc_req(sa, r.elements.ssid, true, out),
            MgmtBody::Deauth { .. } | MgmtBody::Disassoc { .. } => {
                if matches!(body, MgmtBody::Deauth { .. }) {
                    self.authenticated.remove(&sa);
                }
                if self.stations.remove(&sa).is_some() {
                    out.push(Action::Event(MacEvent::StaDisassociated { sta: sa }));
                }
            }
            _ => {}
        }
    }

    fn on_assoc_req(
        &mut self,
        sta: MacAddr,
        ssid: Option<&[u8]>,
        reassoc: bool,
        out: &mut Vec<Action>,
    ) {
        if !self.authenticated.contains(&sta) {
            // §11.3.3: a class 2 frame from an unauthenticated station.
            self.send(
                sta,
                MgmtWhat::Deauth {
                    reason: reason::CLASS2_FROM_NONAUTH,
                },
                out,
            );
            return;
        }
        if ssid != Some(&self.cfg.ssid[..self.cfg.ssid.len().min(32)]) {
            self.send(
                sta,
                MgmtWhat::AssocResp {
                    status: status::UNSPECIFIED_FAILURE,
                    aid: 0,
                    reassoc,
                },
                out,
            );
            return;
        }
        let aid = match self.stations.get(&sta) {
            Some(aid) => *aid,
            None => {
                // §9.4.1.8: AIDs 1–2007; the lowest free one.
                let mut aid = 1u16;
                while self.stations.values().any(|a| *a == aid) {
                    aid += 1;
                }
                self.stations.insert(sta, aid);
                aid
            }
        };
        self.send(
            sta,
            MgmtWhat::AssocResp {
                status: status::SUCCESS,
                aid,
                reassoc,
            },
            out,
        );
        out.push(Action::Event(MacEvent::StaAssociated {
            sta,
            aid,
            reassociation: reassoc,
        }));
    }
}

/// What the station knows about an AP it hears.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ApSeen {
    pub rssi_dbm: f64,
    pub last_seen: SimTime,
    pub interval: SimDuration,
    pub ssid: Vec<u8>,
}

/// The station's association state (§11.3.1: states 1–4, collapsed to what a simulation
/// needs).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum StaPhase {
    /// Not associated; waiting for a beacon of a suitable AP.
    Scanning,
    /// Authentication request sent to `ap`; `from`: the AP of the association being left.
    Authenticating {
        ap: MacAddr,
        deadline: SimTime,
        from: Option<MacAddr>,
    },
    /// (Re)association request sent to `ap`.
    Associating {
        ap: MacAddr,
        deadline: SimTime,
        from: Option<MacAddr>,
    },
    /// Associated with `ap`.
    Associated { ap: MacAddr, aid: u16 },
}

/// The station's state.
#[derive(Clone, Debug)]
pub(crate) struct StaState {
    pub cfg: StaConfig,
    pub phase: StaPhase,
    aps: BTreeMap<MacAddr, ApSeen>,
}

impl StaState {
    pub fn new(cfg: StaConfig) -> Self {
        StaState {
            cfg,
            phase: StaPhase::Scanning,
            aps: BTreeMap::new(),
        }
    }

    /// The AP of the current association.
    pub fn bssid(&self) -> Option<MacAddr> {
        match self.phase {
            StaPhase::Associated { ap, .. } => Some(ap),
            _ => None,
        }
    }

    fn loss_deadline(&self, seen: &ApSeen) -> SimTime {
        seen.last_seen
            + seen
                .interval
                .saturating_mul(u64::from(self.cfg.max_missed_beacons.max(1)))
    }

    pub fn next_deadline(&self) -> SimTime {
        let phase = match self.phase {
            StaPhase::Authenticating { deadline, .. } | StaPhase::Associating { deadline, .. } => {
                deadline
            }
            _ => SimTime::NEVER,
        };
        self.aps
            .values()
            .map(|s| self.loss_deadline(s))
            .fold(phase, SimTime::min)
    }

    fn best_ap(&self) -> Option<MacAddr> {
        let mut best: Option<(MacAddr, f64)> = None;
        for (ap, seen) in &self.aps {
            if best.is_none_or(|(_, r)| seen.rssi_dbm > r) {
                best = Some((*ap, seen.rssi_dbm));
            }
        }
        best.map(|(ap, _)| ap)
    }

    fn start_join(
        &mut self,
        now: SimTime,
        ap: MacAddr,
        from: Option<MacAddr>,
        out: &mut Vec<Action>,
    ) {
        self.phase = StaPhase::Authenticating {
            ap,
            deadline: now + self.cfg.response_timeout,
            from,
        };
        out.push(Action::Send(MgmtOut {
            da: ap,
            bssid: ap,
            what: MgmtWhat::AuthReq,
        }));
    }

    /// The attempt in progress failed (timeout, refusal, or the request was never Acked).
    fn join_failed(&mut self, now: SimTime, out: &mut Vec<Action>) {
        let (ap, from) = match self.phase {
            StaPhase::Authenticating { ap, from, .. } | StaPhase::Associating { ap, from, .. } => {
                (ap, from)
            }
            _ => return,
        };
        self.phase = StaPhase::Scanning;
        if from.is_some() {
            out.push(Action::Event(MacEvent::AssocChanged {
                bssid: None,
                reassociation: false,
            }));
        }
        // Forget the AP until its next beacon, so a silent AP is tried once per beacon.
        self.aps.remove(&ap);
        if let Some(next) = self.best_ap() {
            self.start_join(now, next, None, out);
        }
    }

    pub fn on_beacon(
        &mut self,
        now: SimTime,
        ap: MacAddr,
        ssid: &[u8],
        interval: SimDuration,
        rssi_dbm: f64,
        out: &mut Vec<Action>,
    ) {
        if let Some(want) = &self.cfg.ssid {
            if want.as_slice() != ssid {
                return;
            }
        }
        self.aps.insert(
            ap,
            ApSeen {
                rssi_dbm,
                last_seen: now,
                interval,
                ssid: ssid.to_vec(),
            },
        );
        out.push(Action::Event(MacEvent::BeaconRssi { ap, rssi_dbm }));
        match self.phase.clone() {
            StaPhase::Scanning => {
                if let Some(best) = self.best_ap() {
                    self.start_join(now, best, None, out);
                }
            }
            StaPhase::Associated { ap: current, .. } if current != ap => {
                let current_rssi = self
                    .aps
                    .get(&current)
                    .map_or(f64::NEG_INFINITY, |s| s.rssi_dbm);
                if rssi_dbm >= current_rssi + self.cfg.handoff_hysteresis_db {
                    self.start_join(now, ap, Some(current), out);
                }
            }
            _ => {}
        }
    }

    pub fn on_mgmt(&mut self, now: SimTime, sa: MacAddr, body: &MgmtBody, out: &mut Vec<Action>) {
        match (self.phase.clone(), body) {
            (StaPhase::Authenticating { ap, from, .. }, MgmtBody::Auth(a))
                if sa == ap && a.transaction == 2 =>
            {
                if a.status != status::SUCCESS {
                    self.join_failed(now, out);
                    return;
                }
                let ssid = self
                    .aps
                    .get(&ap)
                    .map(|s| s.ssid.clone())
                    .unwrap_or_default();
                let what = match from {
                    Some(current_ap) => MgmtWhat::ReassocReq { ssid, current_ap },
                    None => MgmtWhat::AssocReq { ssid },
                };
                self.phase = StaPhase::Associating {
                    ap,
                    deadline: now + self.cfg.response_timeout,
                    from,
                };
                out.push(Action::Send(MgmtOut {
                    da: ap,
                    bssid: ap,
                    what,
                }));
            }
            (
                StaPhase::Associating { ap, from, .. },
                MgmtBody::AssocResp(r) | MgmtBody::ReassocResp(r),
            ) if sa == ap => {
                if r.status != status::SUCCESS {
                    self.join_failed(now, out);
                    return;
                }
                self.phase = StaPhase::Associated { ap, aid: r.aid };
                out.push(Action::Event(MacEvent::AssocChanged {
                    bssid: Some(ap),
                    reassociation: from.is_some(),
                }));
            }
            (
                StaPhase::Associated { ap, .. },
                MgmtBody::Deauth { .. } | MgmtBody::Disassoc { .. },
            ) if sa == ap => {
                self.phase = StaPhase::Scanning;
                out.push(Action::Event(MacEvent::AssocChanged {
                    bssid: None,
                    reassociation: false,
                }));
                self.aps.remove(&ap);
                if let Some(next) = self.best_ap() {
                    self.start_join(now, next, None, out);
                }
            }
            (
                StaPhase::Authenticating { ap, .. } | StaPhase::Associating { ap, .. },
                MgmtBody::Deauth { .. },
            ) if sa == ap => self.join_failed(now, out),
            _ => {}
        }
    }

    /// A management frame the station sent to `ap` was discarded at its retry limit.
    pub fn on_mgmt_undeliverable(&mut self, now: SimTime, ap: MacAddr, out: &mut Vec<Action>) {
        match self.phase {
            StaPhase::Authenticating { ap: target, .. }
            | StaPhase::Associating { ap: target, .. }
                if target == ap =>
            {
                self.join_failed(now, out)
            }
            _ => {}
        }
    }

    pub fn on_timeout(&mut self, now: SimTime, out: &mut Vec<Action>) {
        if let StaPhase::Authenticating { deadline, .. } | StaPhase::Associating { deadline, .. } =
            self.phase
        {
            if deadline <= now {
                self.join_failed(now, out);
            }
        }
        let lost: Vec<MacAddr> = self
            .aps
            .iter()
            .filter(|(_, s)| self.loss_deadline(s) <= now)
            .map(|(ap, _)| *ap)
            .collect();
        for ap in lost {
            self.aps.remove(&ap);
            out.push(Action::Event(MacEvent::BeaconLost { ap }));
            if self.bssid() == Some(ap) {
                self.phase = StaPhase::Scanning;
                out.push(Action::Event(MacEvent::AssocChanged {
                    bssid: None,
                    reassociation: false,
                }));
                if let Some(next) = self.best_ap() {
                    self.start_join(now, next, None, out);
                }
            }
        }
    }
}
