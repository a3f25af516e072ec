//! Cellular SCTP at a flow's mobile end (Aydin & Shen 2005 §II; `docs/models/cellular.md`):
//! the mobile's address events (`sim/cellular.rs`) become ASCONFs of its association — an
//! address acquired → add-ip (the modified ASCONF that opens a handoff), the strongest address
//! → set-primary, an address lost → delete-ip (the one that closes it) — and the mobile sends
//! its SACKs and ASCONFs from its strongest address (the paper's address policy, §III; the
//! correspondent sends to the primary, as any SCTP sender).
//!
//! Requests wait until the association can carry them: an address is added once the
//! association is established; set-primary is asked once the address is part of the
//! association (its add-ip acknowledged); the address of the preferred access router becomes
//! the source of SACKs as soon as it is part of the association, and the source of ASCONFs at
//! once (the peer finds the association by the ASCONF's Address Parameter, RFC 5061 §5.2), so
//! that an add-ip still goes through when the old access router is already out of reach.

use super::{SctpFlow, CLIENT, SERVER};
use crate::sim::net_events::NetEvent;
use crate::sim::transport::AddrArrival;
use crate::sim::transport::End;
use sctpsim_kernel::SimTime;
use sctpsim_proto::transport::sctp::{
    AsconfRequestKind, SctpAssociation, SctpConfig, SctpEvent, State,
};
use sctpsim_wire::sctp::{chunk_type, SctpPacket};
use std::collections::HashSet;
use std::net::Ipv4Addr;

/// `sctp.csctp`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Plain SCTP at a cellular mobile: the association keeps its first address.
    Off,
    /// ASCONFs follow the addresses; one primary at a time.
    SinglePrimary,
    /// The same, with duplicated transfer and per-path SACKs during a handoff.
    Duplicated,
}

impl Mode {
    fn from_name(v: Option<&str>) -> Mode {
        match v {
            Some("single-primary") => Mode::SinglePrimary,
            Some("duplicated") => Mode::Duplicated,
            _ => Mode::Off,
        }
    }
}

/// The association configuration of a cSCTP flow (both ends).
pub(super) fn configure(cfg: &mut SctpConfig, mode: Option<&str>) {
    let mode = Mode::from_name(mode);
    cfg.csctp.enabled = mode != Mode::Off;
    cfg.csctp.duplicate_during_handoff = mode == Mode::Duplicated;
}

/// The ASCONF history of a cSCTP flow at its mobile end, for the handoffs table
/// (`sim/cellular/rows.rs`, through `FlowDriver::handoff_log`): per request kind, (our
/// address, sent, acknowledged). Filled by [`Csctp::apply`] (sent) and [`Csctp::on_event`]
/// (acknowledged; a refused request is removed).
#[derive(Clone, Debug, Default)]
pub struct CsctpLog {
    /// Add-ip requests.
    pub add_ip: Vec<(Ipv4Addr, SimTime, Option<SimTime>)>,
    /// Set-primary requests.
    pub set_primary: Vec<(Ipv4Addr, SimTime, Option<SimTime>)>,
    /// Delete-ip requests.
    pub delete_ip: Vec<(Ipv4Addr, SimTime, Option<SimTime>)>,
}

/// A flow end at a cellular mobile.
#[derive(Clone, Debug)]
pub(crate) struct Csctp {
    /// The mobile's side (`CLIENT` or `SERVER`).
    pub side: End,
    pub mode: Mode,
    /// Every address the mobile may hold (socket-table entries of the other side).
    pub addresses: Vec<Ipv4Addr>,
    /// Addresses acquired, not yet offered to the peer.
    to_add: Vec<Ipv4Addr>,
    /// Addresses released, not yet withdrawn.
    to_delete: Vec<Ipv4Addr>,
    /// The preferred address (the strongest access router's).
    preferred: Option<Ipv4Addr>,
    /// The address last asked to be the peer's primary (or the first address).
    primary: Option<Ipv4Addr>,
    /// The source address in use towards the peer.
    source: Option<Ipv4Addr>,
    /// What was asked and when (the handoffs table).
    pub log: CsctpLog,
    /// An address event waits for the end to be pumped.
    pub pump_due: Option<SimTime>,
}

impl Csctp {
    /// The cSCTP state of a flow whose end `k` is a cellular mobile (`cell[k]`: its initial
    /// address and every address it may hold), if one is.
    pub fn new(mode: Option<&str>, cell: &[Option<(Ipv4Addr, Vec<Ipv4Addr>)>; 2]) -> Option<Self> {
        let (side, (first, all)) = cell
            .iter()
            .enumerate()
            .find_map(|(k, c)| c.as_ref().map(|c| (k, c)))?;
        Some(Csctp {
            side: if side == 0 { CLIENT } else { SERVER },
            mode: Mode::from_name(mode),
            addresses: all.clone(),
            to_add: Vec::new(),
            to_delete: Vec::new(),
            preferred: Some(*first),
            primary: Some(*first),
            source: Some(*first),
            log: CsctpLog::default(),
            pump_due: None,
        })
    }

    /// An address event at the mobile. Returns whether it may make a request due.
    pub fn hear(&mut self, ev: &NetEvent) -> bool {
        if self.mode == Mode::Off {
            return false;
        }
        match *ev {
            NetEvent::AddrAdded { addr } => {
                self.to_delete.retain(|a| *a != addr);
                if !self.to_add.contains(&addr) {
                    self.to_add.push(addr);
                }
            }
            NetEvent::AddrRemoved { addr } => {
                self.to_add.retain(|a| *a != addr);
                if !self.to_delete.contains(&addr) {
                    self.to_delete.push(addr);
                }
                if self.preferred == Some(addr) {
                    self.preferred = None;
                }
            }
            NetEvent::AddrPreferred { addr } => self.preferred = Some(addr),
            _ => return false,
        }
        true
    }

    /// An event of the mobile's association: ASCONF outcomes go into the log. Returns whether
    /// requests may now be due (an add-ip or delete-ip answered, or the association up).
    pub fn on_event(&mut self, now: SimTime, ev: &SctpEvent) -> bool {
        let SctpEvent::AsconfResult {
            kind,
            addr,
            success,
        } = *ev
        else {
            return matches!(ev, SctpEvent::CommUp { .. });
        };
        let list = match kind {
            AsconfRequestKind::AddIp => &mut self.log.add_ip,
            AsconfRequestKind::SetPrimary => &mut self.log.set_primary,
            AsconfRequestKind::DeleteIp => &mut self.log.delete_ip,
        };
        if let Some(i) = list.iter().position(|e| e.0 == addr && e.2.is_none()) {
            if success {
                list[i].2 = Some(now);
            } else {
                // A refused request did not happen, for the handoffs table.
                list.remove(i);
            }
        }
        // A confirmed or refused request may release one waiting behind it (an address
        // re-acquired while its delete-ip was in flight, or released while its add-ip was).
        kind != AsconfRequestKind::SetPrimary
    }

    /// Whether a request of ours for `addr` in `log` awaits its acknowledgement.
    fn pending(log: &[(Ipv4Addr, SimTime, Option<SimTime>)], addr: Ipv4Addr) -> bool {
        log.iter().any(|e| e.0 == addr && e.2.is_none())
    }

    /// Issue what is due on association `a`. Returns whether anything was asked.
    pub fn apply(&mut self, now: SimTime, a: &mut SctpAssociation) -> bool {
        if self.mode == Mode::Off || a.state() != State::Established {
            return false;
        }
        // ASCONFs leave from the strongest address, even before it is part of the
        // association (the peer finds the association by the ASCONF's Address Parameter): the
        // old address may no longer reach the peer when the new one arrives.
        a.set_asconf_source(self.preferred);
        let mut acted = false;
        let mut keep = Vec::new();
        for addr in std::mem::take(&mut self.to_add) {
            if a.local_addrs().contains(&addr) {
                // Still part of the association: fine, unless its delete-ip is in flight (the
                // router was lost and heard again meanwhile): add it again once that is done.
                if Self::pending(&self.log.delete_ip, addr) {
                    keep.push(addr);
                }
                continue;
            }
            if a.add_local_address_handoff(now, addr).is_ok() {
                self.log.add_ip.push((addr, now, None));
                acted = true;
            }
        }
        self.to_add = keep;
        // The strongest address, once part of the association, is the source towards the
        // peer and is asked to be its primary — not while its delete-ip is in flight (its
        // router was lost and heard again): the peer may already have removed it and would
        // answer a packet from it with an ABORT (RFC 9260 §8.4), which ends the association.
        let usable =
            |p: &Ipv4Addr| a.local_addrs().contains(p) && !Self::pending(&self.log.delete_ip, *p);
        if let Some(p) = self.preferred.filter(usable) {
            if self.source != Some(p) {
                for peer in a.peer_addrs() {
                    // Cannot fail: both addresses belong to the association.
                    let _ = a.set_source_address(peer, p);
                }
                self.source = Some(p);
            }
            if self.primary != Some(p) && a.request_peer_primary(now, p).is_ok() {
                self.log.set_primary.push((p, now, None));
                self.primary = Some(p);
                acted = true;
            }
        }
        let mut keep = Vec::new();
        for addr in std::mem::take(&mut self.to_delete) {
            if !a.local_addrs().contains(&addr) {
                // Not part of the association: fine, unless its add-ip is in flight (released
                // before the peer confirmed it): withdraw it once that is done.
                if Self::pending(&self.log.add_ip, addr) {
                    keep.push(addr);
                }
                continue;
            }
            if a.delete_local_address_handoff(now, addr).is_ok() {
                self.log.delete_ip.push((addr, now, None));
                acted = true;
            } else {
                // The last address (nothing else held yet): withdrawn when another arrives.
                keep.push(addr);
            }
        }
        self.to_delete = keep;
        acted
    }
}

/// The DATA an end at a cellular mobile received on the mobile's addresses (with or without
/// cSCTP), which the handoffs table counts (`sim/cellular.rs`: when data first and last
/// arrived on each address, and duplicated data).
#[derive(Clone, Debug)]
pub(crate) struct CellArrivals {
    /// Every address the mobile may hold.
    addresses: Vec<Ipv4Addr>,
    /// TSNs of the DATA chunks received on them.
    seen: HashSet<u32>,
}

impl CellArrivals {
    pub fn new(addresses: Vec<Ipv4Addr>) -> Self {
        CellArrivals {
            addresses,
            seen: HashSet::new(),
        }
    }

    /// An SCTP packet `sctp` arrived for `dst`: if that is one of the mobile's addresses and
    /// the packet carries DATA, its DATA chunks and how many of their TSNs had arrived before.
    /// Read from the packet as it arrived (before the CRC32c check and the association), so a
    /// chunk counts whatever the association makes of it.
    pub fn arrival(&mut self, dst: Ipv4Addr, sctp: &[u8]) -> Option<AddrArrival> {
        if !self.addresses.contains(&dst) {
            return None;
        }
        let p = SctpPacket::new_checked(sctp).ok()?;
        let mut data = AddrArrival::default();
        for c in p.chunks().filter_map(|c| c.ok()) {
            // The TSN is the first field of a DATA chunk's value (RFC 9260 §3.3.1).
            let Some(tsn) = c.value().get(..4).filter(|_| c.kind() == chunk_type::DATA) else {
                continue;
            };
            data.units += 1;
            if !self
                .seen
                .insert(u32::from_be_bytes([tsn[0], tsn[1], tsn[2], tsn[3]]))
            {
                data.duplicates += 1;
            }
        }
        (data.units > 0).then_some(data)
    }
}

impl SctpFlow {
    /// The mobile end's ASCONF history, for the handoffs table.
    pub(crate) fn csctp_log(&self) -> Option<&CsctpLog> {
        self.csctp
            .as_ref()
            .filter(|c| c.mode != Mode::Off)
            .map(|c| &c.log)
    }

    /// Every address the mobile end of this flow may hold (empty without one).
    pub(super) fn cell_addresses(&self, side: End) -> impl Iterator<Item = Ipv4Addr> + '_ {
        self.csctp
            .iter()
            .filter(move |c| c.side == side)
            .flat_map(|c| c.addresses.iter().copied())
    }

    /// Whether side `side` is a cSCTP mobile end (whose sources cSCTP sets).
    pub(super) fn csctp_sets_sources(&self, side: End) -> bool {
        self.csctp
            .as_ref()
            .is_some_and(|c| c.side == side && c.mode != Mode::Off)
    }
}
