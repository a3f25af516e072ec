//! One interoperation run: an sctpsim endpoint and a usrsctp socket exchange packets through an
//! impaired [`crate::path`] in virtual time.
//!
//! Time: the harness's clock is a [`SimTime`] (integer ns). sctpsim is driven by its
//! `poll_timeout`; usrsctp has no "next timer" query, so its clock is stepped in whole
//! milliseconds with `usrsctp_handle_timers`, at every packet arrival and at least every
//! [`USRSCTP_TICK_MS`] (the interval of usrsctp's own timer thread, which this replaces).
//!
//! Addresses: AF_CONN packets carry no IP header. sctpsim is 10.0.0.1, usrsctp 10.0.0.2; a
//! usrsctp packet becomes an IPv4 packet 10.0.0.2 → 10.0.0.1 for sctpsim and for the capture.
//!
//! Checks, every run: every packet usrsctp emits parses with sctpsim's codec (CRC32c
//! included); every packet sctpsim emits parses too and usrsctp's malformed-packet counters
//! (`sctps_badsum`, `sctps_hdrops`, `sctps_checksumerrors`) do not move; every message arrives
//! at most once, intact, on its stream, in order on ordered streams; after a graceful ending
//! every reliable message arrived both ways and both stacks report the shutdown complete; after
//! an abort both report the association lost; PR-SCTP messages that did not arrive were
//! reported abandoned by their sender.

use std::collections::BTreeMap;
use std::io::Write;
use std::net::Ipv4Addr;
use std::sync::atomic::{AtomicU32, Ordering};

use sctpsim_kernel::{Rng, SimDuration, SimTime};
use sctpsim_proto::transport::sctp::{
    AssocHandle, AuthHmac, MessageId, ReconfigRequestKind, SctpConfig, SctpEndpoint, SctpEvent,
    SendError, State,
};
use sctpsim_wire::pcap::{PcapWriter, LINKTYPE_RAW};
use sctpsim_wire::sctp::{ChunkRepr, SctpPacket, SctpRepr};
use sctpsim_wire::{ipv4_datagram, IpProtocol, Ipv4Repr};

use crate::ffi;
use crate::known::{End, Known, Watch};
use crate::path::{Direction, Impairment, PathCounters};
use crate::plan::{plan, PlannedMessage, Receiver, Sender};
use crate::usrsctp::{Stack, UsrEvent, UsrSendError, UsrSocket};

/// sctpsim's address.
pub const SCTPSIM_ADDR: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
/// usrsctp's address (AF_CONN has none; this is what the harness calls it).
pub const USRSCTP_ADDR: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);
/// sctpsim's port.
pub const SCTPSIM_PORT: u16 = 5000;
/// usrsctp's timer thread wakes every 10 ms (`user_sctp_timer_iterate`); the harness steps its
/// clock at least that often.
pub const USRSCTP_TICK_MS: u64 = 10;
/// A run that has not ended after this much virtual time fails.
pub const MAX_VIRTUAL_TIME: SimDuration = SimDuration::from_secs(900);

/// Which side opens the association.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// sctpsim connects, usrsctp listens.
    SctpsimClient,
    /// usrsctp connects, sctpsim listens.
    SctpsimServer,
}

/// How the association ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    /// sctpsim starts the graceful shutdown once everything is exchanged.
    ShutdownBySctpsim,
    /// usrsctp starts it.
    ShutdownByUsrsctp,
    /// sctpsim aborts after receiving half of usrsctp's messages.
    AbortBySctpsim,
    /// usrsctp aborts after receiving half of sctpsim's messages.
    AbortByUsrsctp,
}

impl Role {
    /// Both roles.
    pub const ALL: [Role; 2] = [Role::SctpsimClient, Role::SctpsimServer];
}

impl Ending {
    /// Every ending.
    pub const ALL: [Ending; 4] = [
        Ending::ShutdownBySctpsim,
        Ending::ShutdownByUsrsctp,
        Ending::AbortBySctpsim,
        Ending::AbortByUsrsctp,
    ];

    /// Whether the ending is graceful.
    pub fn graceful(self) -> bool {
        matches!(self, Ending::ShutdownBySctpsim | Ending::ShutdownByUsrsctp)
    }
}

/// One run's parameters.
#[derive(Debug, Clone)]
pub struct Case {
    /// Who connects.
    pub role: Role,
    /// How it ends.
    pub ending: Ending,
    /// The seed of everything random (impairments, message plans, sctpsim's tags and TSNs).
    pub seed: u64,
    /// Upper bound of the per-direction loss probability drawn for the seed.
    pub max_loss: f64,
    /// Messages each side sends.
    pub messages: u32,
    /// Largest message, bytes (larger than a packet: fragmentation both ways).
    pub max_len: usize,
    /// Every fourth message on the PR-SCTP stream with a lifetime.
    pub pr: bool,
    /// Keep a chunk-level trace of the run (for studying differences).
    pub trace: bool,
    /// Capture every packet (both directions, as emitted, wrapped in IPv4) to this pcap.
    pub pcap: Option<std::path::PathBuf>,
    /// AUTH (RFC 4895) and ASCONF (RFC 5061) on both sides, and one authenticated ASCONF
    /// (Set Primary) from sctpsim once the association is up; off: both off on both sides.
    pub auth: bool,
    /// The HMAC sctpsim asks for (RFC 4895 §3.3). Debian's libusrsctp 0.9.5 implements only
    /// SHA-1 (it has no SHA-256 code and lists HMAC-ALGO `[1]`), so with `sha256` sctpsim's
    /// `[3, 1]` still has both sides sign with SHA-1.
    pub auth_hmac: AuthHmac,
    /// Stream reconfiguration (RFC 6525) on both sides; once half of its messages are handed
    /// over, each side resets all its outgoing streams (sctpsim with
    /// [`sctpsim_proto::transport::sctp::SctpAssociation::reset_streams`], usrsctp with
    /// `SCTP_RESET_STREAMS`), and the run checks that both resets were performed.
    pub reconfig: bool,
    /// I-DATA (RFC 8260) on both sides: user data in I-DATA chunks, and with PR-SCTP the
    /// abandoned messages skipped by I-FORWARD-TSN; the run checks that sctpsim negotiated it.
    pub i_data: bool,
    /// NR-SACK (draft-natarajan-tsvwg-sctp-nrsack-00) on both sides: each receiver acknowledges
    /// with NR-SACK chunks; the run checks that it was negotiated and that both sides sent
    /// NR-SACKs and no plain SACK once it was.
    pub nr_sack: bool,
    /// usrsctp's own plan has PR-SCTP messages too (with [`Case::pr`]); off, only sctpsim sends
    /// messages with a lifetime (PR-SCTP is still negotiated both ways).
    pub usrsctp_pr: bool,
}

impl Case {
    /// The standard run of the tests and the table: 24 messages of up to 3000 bytes each way,
    /// PR-SCTP on, AUTH and ASCONF on, no trace, no capture.
    pub fn new(role: Role, ending: Ending, seed: u64, max_loss: f64) -> Case {
        Case {
            role,
            ending,
            seed,
            max_loss,
            messages: 24,
            max_len: 3000,
            pr: true,
            trace: false,
            pcap: None,
            auth: true,
            auth_hmac: AuthHmac::Sha1,
            reconfig: false,
            i_data: false,
            nr_sack: false,
            usrsctp_pr: true,
        }
    }

    /// The I-DATA run: [`Case::new`] with I-DATA on both sides and PR-SCTP negotiated,
    /// sctpsim shutting down. Only sctpsim sends messages with a lifetime, so the abandoned ones
    /// are skipped by sctpsim's I-FORWARD-TSN: usrsctp 0.9.5 as a PR-SCTP sender with I-DATA
    /// loses a reliable message in about 2 % of lossy runs (it stops retransmitting the chunk
    /// that follows the fragment of a message it abandons, of another stream, and sends no
    /// I-FORWARD-TSN for it; `docs/models/sctp.md`, "Interoperation with usrsctp").
    pub fn i_data(role: Role, seed: u64, max_loss: f64) -> Case {
        Case {
            i_data: true,
            usrsctp_pr: false,
            ..Case::new(role, Ending::ShutdownBySctpsim, seed, max_loss)
        }
    }

    /// The NR-SACK run: [`Case::new`] with NR-SACK on both sides, sctpsim shutting down. usrsctp
    /// answers with NR-SACK whenever it was negotiated, with or without CMT (FreeBSD's
    /// `sctp_send_sack`), so one path is enough to exercise both directions. Only sctpsim
    /// sends messages with a lifetime: usrsctp 0.9.5 as a PR-SCTP sender lists the chunks a
    /// NR-SACK acknowledged among the skipped ones of its FORWARD TSN (`send_forward_tsn`
    /// walks its sent queue over `SCTP_DATAGRAM_NR_ACKED` as over abandoned chunks), so an
    /// ordered reliable message whose first fragment was NR-acked is reported skipped and the
    /// receiver, as RFC 3758 §3.6 tells it to, never delivers it (seed 1 as server with usrsctp
    /// PR messages: message 10 of stream 0; `docs/models/sctp.md`).
    pub fn nr_sack(role: Role, seed: u64, max_loss: f64) -> Case {
        Case {
            nr_sack: true,
            usrsctp_pr: false,
            ..Case::new(role, Ending::ShutdownBySctpsim, seed, max_loss)
        }
    }

    /// The stream reconfiguration run: [`Case::new`] with RE-CONFIG on both sides and no
    /// PR-SCTP (every message must arrive, in order across the resets).
    pub fn reconfig(role: Role, seed: u64, max_loss: f64) -> Case {
        Case {
            reconfig: true,
            pr: false,
            ..Case::new(role, Ending::ShutdownBySctpsim, seed, max_loss)
        }
    }
}

/// What one run did.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// Every failed check (empty: the run passed).
    pub failures: Vec<String>,
    /// Virtual time the run took.
    pub virtual_time: SimDuration,
    /// Messages sctpsim → usrsctp delivered / planned.
    pub to_usrsctp: (usize, usize),
    /// Messages usrsctp → sctpsim delivered / planned.
    pub to_sctpsim: (usize, usize),
    /// PR-SCTP messages each way (sctpsim→usrsctp, usrsctp→sctpsim) not delivered (abandoned).
    pub pr_abandoned: (usize, usize),
    /// Packets sctpsim → usrsctp on the path.
    pub path_to_usrsctp: PathCounters,
    /// Packets usrsctp → sctpsim on the path.
    pub path_to_sctpsim: PathCounters,
    /// Packets of usrsctp sctpsim's parser rejected.
    pub rejected_by_sctpsim: u64,
    /// usrsctp's badsum + hdrops + checksumerrors increase during the run.
    pub rejected_by_usrsctp: u64,
    /// usrsctp's DATA retransmissions during the run.
    pub usrsctp_retransmissions: u64,
    /// usrsctp's T3-rtx expiries during the run.
    pub usrsctp_t3_expiries: u64,
    /// sctpsim's DATA retransmissions.
    pub sctpsim_retransmissions: u64,
    /// The loss drawn per direction (to usrsctp, to sctpsim).
    pub loss: (f64, f64),
    /// The chunk trace (with [`Case::trace`]).
    pub trace: Vec<String>,
    /// sctpsim's association negotiated AUTH with usrsctp.
    pub auth_negotiated: bool,
    /// sctpsim's association negotiated I-DATA (RFC 8260 §2.2).
    pub i_data_negotiated: bool,
    /// AUTH chunks sctpsim sent.
    pub auth_sent: u64,
    /// AUTH chunks from usrsctp that failed sctpsim's checks.
    pub auth_failures: u64,
    /// The ASCONF (Set Primary) sctpsim sent was answered: `Some(success)`.
    pub asconf_answered: Option<bool>,
    /// The HMAC identifiers of usrsctp's AUTH chunks.
    pub usrsctp_hmac_ids: std::collections::BTreeSet<u16>,
    /// With [`Case::reconfig`]: usrsctp's answer to sctpsim's outgoing stream reset.
    pub reconfig_answer: Option<sctpsim_wire::sctp::ReconfigResult>,
    /// With [`Case::reconfig`]: sctpsim performed usrsctp's outgoing stream reset.
    pub reconfig_performed_for_usrsctp: bool,
    /// RE-CONFIG chunks seen on the path (sctpsim's, usrsctp's).
    pub reconfig_chunks: (u64, u64),
    /// sctpsim's association negotiated NR-SACK.
    pub nr_sack_negotiated: bool,
    /// NR-SACK chunks seen on the path (sctpsim's, usrsctp's).
    pub nr_sack_chunks: (u64, u64),
    /// Plain SACK chunks seen on the path (sctpsim's, usrsctp's).
    pub sack_chunks: (u64, u64),
    /// A recognised ending that is not sctpsim's fault (`known.rs`); its failures are then in
    /// `known_failures` and `failures` is empty.
    pub known: Option<Known>,
    /// The failures of a run with a `known` ending.
    pub known_failures: Vec<String>,
}

impl Outcome {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// Whether the run failed only by not finishing (and what follows from that: messages
    /// missing, an association still counted), counted apart in the table: a stall points at
    /// a recovery that never happened (the FORWARD TSN stall of `docs/models/sctp.md`), a
    /// malformed packet, a duplicate, a corrupt or misordered message at something else.
    pub fn stalled_only(&self) -> bool {
        self.failures.iter().any(|f| f.starts_with("not finished"))
            && self.failures.iter().all(|f| {
                f.starts_with("not finished")
                    || f.starts_with("reliable messages missing")
                    || f.starts_with("an association was lost")
                    || f.contains("PR messages of usrsctp not delivered")
                    || f.contains("neither delivered nor reported abandoned")
                    || f.starts_with("usrsctp still counts")
            })
    }
}

static RUNS: AtomicU32 = AtomicU32::new(0);

fn summarize(pkt: &SctpRepr) -> String {
    let mut s = format!("vtag={:08x}", pkt.verification_tag);
    for c in &pkt.chunks {
        let part = match c {
            ChunkRepr::Data(d) => format!(
                " DATA(tsn={} sid={} {}{}{} len={})",
                d.tsn.0,
                d.stream_id,
                if d.unordered { "U" } else { "" },
                if d.beginning { "B" } else { "" },
                if d.ending { "E" } else { "" },
                d.user_data.len()
            ),
            ChunkRepr::IData(d) => format!(
                " I-DATA(tsn={} sid={} mid={} {}{}{} len={})",
                d.tsn.0,
                d.stream_id,
                d.mid.0,
                if d.unordered { "U" } else { "" },
                if d.beginning { "B" } else { "" },
                if d.ending { "E" } else { "" },
                d.user_data.len()
            ),
            ChunkRepr::Sack(k) => format!(
                " SACK(cum={} a_rwnd={} gaps={:?} dups={})",
                k.cum_tsn_ack.0,
                k.a_rwnd,
                k.gap_blocks
                    .iter()
                    .map(|b| (b.start, b.end))
                    .collect::<Vec<_>>(),
                k.duplicate_tsns.len()
            ),
            ChunkRepr::NrSack(n) => format!(
                " NR-SACK(cum={} a_rwnd={} gaps={:?} nr_gaps={:?} dups={})",
                n.sack.cum_tsn_ack.0,
                n.sack.a_rwnd,
                n.sack
                    .gap_blocks
                    .iter()
                    .map(|b| (b.start, b.end))
                    .collect::<Vec<_>>(),
                n.nr_gap_blocks
                    .iter()
                    .map(|b| (b.start, b.end))
                    .collect::<Vec<_>>(),
                n.sack.duplicate_tsns.len()
            ),
            ChunkRepr::Abort { .. }
            | ChunkRepr::Error { .. }
            | ChunkRepr::Shutdown { .. }
            | ChunkRepr::ForwardTsn(_)
            | ChunkRepr::IForwardTsn(_)
            | ChunkRepr::Asconf(_)
            | ChunkRepr::AsconfAck(_)
            | ChunkRepr::Reconfig(_) => format!(" {c:?}"),
            ChunkRepr::Init(i) | ChunkRepr::InitAck(i) => format!(" INIT/ACK({i:?})"),
            other => {
                let d = format!("{other:?}");
                let name: String = d.chars().take_while(|c| c.is_alphanumeric()).collect();
                format!(" {name}")
            }
        };
        s.push_str(&part);
    }
    s
}

struct Capture {
    w: PcapWriter<std::io::BufWriter<std::fs::File>>,
    ident: u16,
}

impl Capture {
    fn write(&mut self, now: SimTime, src: Ipv4Addr, dst: Ipv4Addr, sctp: &[u8]) {
        self.ident = self.ident.wrapping_add(1);
        let repr = Ipv4Repr {
            src_addr: src,
            dst_addr: dst,
            protocol: IpProtocol::Sctp,
            payload_len: sctp.len(),
            ttl: 64,
            ident: self.ident,
            dscp: 0,
            dont_frag: true,
        };
        if let Ok(ip) = ipv4_datagram(&repr, sctp) {
            let _ = self.w.write_packet(now.as_nanos(), &ip);
        }
    }
}

/// Our side of the run.
struct Ours {
    ep: SctpEndpoint,
    assoc: Option<AssocHandle>,
    plan: Vec<PlannedMessage>,
    next: usize,
    ids: BTreeMap<MessageId, u32>,
    abandoned: Vec<u32>,
    rx: Receiver,
    up: bool,
    shutdown_complete: bool,
    lost: bool,
    closing: bool,
    retransmissions: u64,
}

/// usrsctp's side.
struct Theirs {
    sock: Option<UsrSocket>,
    plan: Vec<PlannedMessage>,
    next: usize,
    abandoned_notes: usize,
    rx: Receiver,
    up: bool,
    shutdown_complete: bool,
    lost: bool,
    closing: bool,
}

fn usr_rejections(s: &ffi::SctpStat) -> u64 {
    u64::from(s.words[ffi::STAT_BADSUM])
        + u64::from(s.words[ffi::STAT_HDROPS])
        + u64::from(s.words[ffi::STAT_CHECKSUMERRORS])
}

/// Runs one case against the process's usrsctp (taking its lock for the whole run).
pub fn run(case: &Case) -> Outcome {
    let mut stack = Stack::acquire();
    run_locked(&mut stack, case)
}

/// [`run`] with the lock already held.
pub fn run_locked(stack: &mut Stack, case: &Case) -> Outcome {
    let mut out = Outcome::default();
    let mut rng = Rng::from_seed(case.seed);
    let imp_to_usr = Impairment::draw(&mut rng, case.max_loss);
    let imp_to_us = Impairment::draw(&mut rng, case.max_loss);
    out.loss = (imp_to_usr.loss, imp_to_us.loss);
    let mut to_usr = Direction::new(imp_to_usr, Rng::from_seed(rng.next_u64()));
    let mut to_us = Direction::new(imp_to_us, Rng::from_seed(rng.next_u64()));
    let our_plan = plan(
        Sender::Sctpsim,
        &mut rng,
        case.messages,
        case.max_len,
        case.pr,
    );
    let their_plan = plan(
        Sender::Usrsctp,
        &mut rng,
        case.messages,
        case.max_len,
        case.pr && case.usrsctp_pr,
    );
    // A fresh usrsctp port per run: an association of an earlier run that usrsctp still keeps
    // (it never should) cannot capture this run's packets. From 40000-40999, where no SCTP
    // upper layer has a registered port: tshark dissects a payload by port, and the runs that
    // drew 14001 (SUA, RFC 3868) had their test messages reported as malformed SUA.
    let usr_port = 40_000 + (RUNS.fetch_add(1, Ordering::Relaxed) % 1_000) as u16;

    // RFC 5061 §4.1.1: ASCONF only with AUTH (usrsctp aborts an INIT or INIT ACK that lists
    // ASCONF without AUTH), so the two are on or off together on both sides.
    stack.set_auth(case.auth);
    stack.set_reconfig(case.reconfig);
    stack.set_i_data(case.i_data);
    stack.set_nr_sack(case.nr_sack);
    let cfg = SctpConfig {
        nr_sack: case.nr_sack,
        reconfig: case.reconfig,
        i_data: case.i_data,
        pr_sctp: true,
        asconf: case.auth,
        auth: case.auth,
        auth_hmac: case.auth_hmac,
        outbound_streams: 8,
        max_inbound_streams: 8,
        ..SctpConfig::default()
    };
    let mut ep = SctpEndpoint::new(
        cfg,
        SCTPSIM_PORT,
        vec![SCTPSIM_ADDR],
        Rng::from_seed(rng.next_u64()),
    );
    // usrsctp's clock and random numbers follow the run (`virtual_env`): a run is repeatable
    // from its seed on both sides.
    crate::virtual_env::begin_run(case.seed ^ 0x7573_7273_6374_7000);
    if !crate::virtual_env::interposed() {
        out.failures.push(
            "usrsctp reads the wall clock: the executable does not export the virtual \
             gettimeofday (link with -Wl,--export-dynamic, crates/interop/build.rs)"
                .into(),
        );
        return out;
    }
    let stat0 = stack.stats();
    let _ = stack.take_output();
    let mut watch = Watch::default();

    let mut capture = case.pcap.as_ref().and_then(|p| {
        let f = std::fs::File::create(p).ok()?;
        PcapWriter::new(std::io::BufWriter::new(f), LINKTYPE_RAW)
            .ok()
            .map(|w| Capture { w, ident: 0 })
    });

    let mut now = SimTime::ZERO;
    let mut usr_ms: u64 = 0;
    let sock = match case.role {
        Role::SctpsimClient => stack.listen(usr_port),
        Role::SctpsimServer => {
            ep.listen(true);
            stack.connect(usr_port, SCTPSIM_PORT)
        }
    };
    let sock = match sock {
        Ok(s) => s,
        Err(e) => {
            out.failures.push(e);
            return out;
        }
    };
    let assoc = match case.role {
        Role::SctpsimClient => Some(ep.connect(now, &[USRSCTP_ADDR], usr_port)),
        Role::SctpsimServer => None,
    };
    let mut ours = Ours {
        ep,
        assoc,
        rx: Receiver::new(Sender::Usrsctp, &their_plan),
        plan: our_plan,
        next: 0,
        ids: BTreeMap::new(),
        abandoned: Vec::new(),
        up: false,
        shutdown_complete: false,
        lost: false,
        closing: false,
        retransmissions: 0,
    };
    let mut theirs = Theirs {
        sock: Some(sock),
        rx: Receiver::new(Sender::Sctpsim, &ours.plan),
        plan: their_plan,
        next: 0,
        abandoned_notes: 0,
        up: false,
        shutdown_complete: false,
        lost: false,
        closing: false,
    };
    let half = (case.messages as usize).div_ceil(2);
    let mut asconf_sent = false;
    let (mut reset_by_us, mut reset_by_usr) = (false, false);
    // The streams of usrsctp whose reset sctpsim performed: usrsctp resets each stream once
    // its queue is empty, in several requests, and may send the last one after its SHUTDOWN
    // ACK (then sctpsim, closed, answers it as out of the blue with an ABORT); sctpsim shuts
    // down only after every stream was reset.
    let mut usr_streams_reset = std::collections::BTreeSet::new();

    let mut iterations: u64 = 0;
    loop {
        iterations += 1;
        // usrsctp's clock follows ours: its wall clock exactly, its timer ticks in whole
        // milliseconds.
        crate::virtual_env::set_now(now);
        let now_ms = now.as_nanos() / 1_000_000;
        if now_ms > usr_ms {
            stack.advance_ms(u32::try_from(now_ms - usr_ms).unwrap_or(u32::MAX));
            usr_ms = now_ms;
        }
        // Arrivals.
        while let Some(p) = to_usr.pop_due(now) {
            stack.input(&p);
        }
        while let Some(p) = to_us.pop_due(now) {
            if let Err(e) = ours.ep.handle_datagram(now, USRSCTP_ADDR, SCTPSIM_ADDR, &p) {
                out.failures.push(format!(
                    "sctpsim rejected a usrsctp packet on arrival: {e:?}"
                ));
            }
        }
        // sctpsim's timers.
        if let Some(h) = ours.assoc {
            if let Some(a) = ours.ep.assoc_mut(h) {
                if a.poll_timeout().is_some_and(|t| t <= now) {
                    a.handle_timeout(now);
                }
            }
        }
        if ours.assoc.is_none() {
            ours.assoc = ours.ep.associations().map(|(h, _)| h).next();
        }
        // usrsctp accepts.
        if let Some(s) = theirs.sock.as_mut() {
            if !s.is_connected() && s.poll_accept(stack) {
                theirs.up = true;
            }
        }

        // Events and deliveries, sctpsim.
        if let Some(a) = ours.assoc.and_then(|h| ours.ep.assoc_mut(h)) {
            while let Some(ev) = a.poll_event() {
                match ev {
                    SctpEvent::CommUp { .. } => ours.up = true,
                    SctpEvent::ShutdownComplete => ours.shutdown_complete = true,
                    SctpEvent::CommLost { .. } => ours.lost = true,
                    SctpEvent::SendFailed { id, .. } => {
                        if let Some(i) = ours.ids.get(&id) {
                            ours.abandoned.push(*i);
                        }
                    }
                    SctpEvent::Restart => out.failures.push("sctpsim saw a restart".into()),
                    SctpEvent::AsconfResult { success, .. } => out.asconf_answered = Some(success),
                    SctpEvent::ReconfigResult { result, .. } => out.reconfig_answer = Some(result),
                    SctpEvent::StreamsChanged {
                        kind: ReconfigRequestKind::ResetOutgoing,
                        streams,
                        inbound_streams,
                        ..
                    } => {
                        out.reconfig_performed_for_usrsctp = true;
                        if streams.is_empty() {
                            usr_streams_reset.extend(0..inbound_streams);
                        }
                        usr_streams_reset.extend(streams);
                    }
                    _ => {}
                }
            }
            while let Some(m) = a.recv() {
                if m.ppid != ppid_of(m.stream) {
                    out.failures.push(format!(
                        "sctpsim got ppid {:#x} on stream {}",
                        m.ppid, m.stream
                    ));
                }
                ours.rx.deliver(m.stream, Some(m.unordered), &m.data);
            }
            ours.retransmissions = a.path_stats(USRSCTP_ADDR).map_or(0, |p| p.retransmissions);
            out.auth_negotiated |= a.auth_negotiated().is_some();
            out.i_data_negotiated |= a.i_data_negotiated();
            out.nr_sack_negotiated |= a.nr_sack_negotiated();
            out.auth_sent = a.stats().auth_sent;
            out.auth_failures = a.stats().auth_failures;
            // One ASCONF over AUTH: ask usrsctp to make our (only) address its primary. Over
            // AF_CONN usrsctp knows no IPv4 address for us, so it may refuse the request; any
            // answer shows it verified our AUTH chunk (it drops an unauthenticated ASCONF).
            if case.auth && ours.up && !asconf_sent && a.state() == State::Established {
                asconf_sent = true;
                if let Err(e) = a.request_peer_primary(now, SCTPSIM_ADDR) {
                    out.failures.push(format!("sctpsim ASCONF request: {e:?}"));
                }
            }
            // RFC 6525: half-way through, reset every outgoing stream.
            if case.reconfig && !reset_by_us && ours.next >= half && a.state() == State::Established
            {
                reset_by_us = true;
                if let Err(e) = a.reset_streams(now, &[]) {
                    out.failures
                        .push(format!("sctpsim stream reset request: {e:?}"));
                }
            }
        }
        // Events and deliveries, usrsctp.
        if let Some(s) = theirs.sock.as_mut() {
            for ev in s.poll(stack) {
                match ev {
                    UsrEvent::Message {
                        stream,
                        unordered,
                        ppid,
                        data,
                    } => {
                        if u32::from_be(ppid) != ppid_of(stream) {
                            out.failures.push(format!(
                                "usrsctp got ppid {:#x} on stream {stream}",
                                u32::from_be(ppid)
                            ));
                        }
                        theirs.rx.deliver(stream, Some(unordered), &data);
                    }
                    UsrEvent::AssocChange(ffi::SCTP_COMM_UP) => theirs.up = true,
                    UsrEvent::AssocChange(ffi::SCTP_SHUTDOWN_COMP) => {
                        theirs.shutdown_complete = true
                    }
                    UsrEvent::AssocChange(ffi::SCTP_COMM_LOST)
                    | UsrEvent::AssocChange(ffi::SCTP_CANT_STR_ASSOC) => theirs.lost = true,
                    UsrEvent::AssocChange(ffi::SCTP_RESTART) => {
                        out.failures.push("usrsctp saw a restart".into())
                    }
                    UsrEvent::AssocChange(_) | UsrEvent::PeerShutdown => {}
                    UsrEvent::SendFailed { .. } => theirs.abandoned_notes += 1,
                    UsrEvent::Eof => {
                        if !theirs.shutdown_complete {
                            theirs.lost = true;
                        }
                    }
                }
            }
        }

        // Applications: sending.
        if let Some(a) = ours.assoc.and_then(|h| ours.ep.assoc_mut(h)) {
            if ours.up && !ours.closing && a.state() == State::Established {
                while let Some(m) = ours.plan.get(ours.next) {
                    match a.send(
                        now,
                        m.data.clone(),
                        m.stream,
                        m.unordered,
                        m.lifetime,
                        ppid_of(m.stream),
                    ) {
                        Ok(id) => {
                            ours.ids.insert(id, m.index);
                            ours.next += 1;
                        }
                        Err(SendError::BufferFull) => break,
                        Err(e) => {
                            out.failures.push(format!("sctpsim send: {e}"));
                            ours.next += 1;
                        }
                    }
                }
            }
        }
        if let Some(s) = theirs.sock.as_mut() {
            if case.reconfig
                && !reset_by_usr
                && theirs.next >= half
                && theirs.up
                && !theirs.closing
                && s.is_connected()
            {
                reset_by_usr = true;
                if let Err(e) = s.reset_outgoing(stack, &[]) {
                    out.failures
                        .push(format!("usrsctp SCTP_RESET_STREAMS: errno {e}"));
                }
            }
            if theirs.up && !theirs.closing && !theirs.lost && s.is_connected() {
                while let Some(m) = theirs.plan.get(theirs.next) {
                    let lifetime = m.lifetime.map(|l| (l.as_nanos() / 1_000_000) as u32);
                    match s.send(
                        stack,
                        &m.data,
                        m.stream,
                        m.unordered,
                        lifetime,
                        ppid_of(m.stream).to_be(),
                    ) {
                        Ok(()) => theirs.next += 1,
                        Err(UsrSendError::WouldBlock) => break,
                        Err(UsrSendError::Errno(e)) => {
                            out.failures.push(format!("usrsctp send: errno {e}"));
                            theirs.next += 1;
                        }
                    }
                }
            }
        }
        // Applications: ending.
        let our_all_sent = ours.next >= ours.plan.len();
        let their_all_sent = theirs.next >= theirs.plan.len();
        match case.ending {
            Ending::ShutdownBySctpsim => {
                let resets_done = !case.reconfig || usr_streams_reset.len() >= 8;
                if !ours.closing
                    && resets_done
                    && our_all_sent
                    && their_all_sent
                    && ours.rx.all_reliable_delivered()
                {
                    if let Some(a) = ours.assoc.and_then(|h| ours.ep.assoc_mut(h)) {
                        a.shutdown(now);
                        ours.closing = true;
                    }
                }
            }
            Ending::ShutdownByUsrsctp => {
                if !theirs.closing
                    && our_all_sent
                    && their_all_sent
                    && theirs.rx.all_reliable_delivered()
                {
                    if let Some(s) = theirs.sock.as_mut() {
                        if let Err(e) = s.shutdown(stack) {
                            out.failures.push(format!("usrsctp shutdown: errno {e}"));
                        }
                        theirs.closing = true;
                    }
                }
            }
            Ending::AbortBySctpsim => {
                if !ours.closing && ours.rx.delivered() >= half {
                    if let Some(a) = ours.assoc.and_then(|h| ours.ep.assoc_mut(h)) {
                        a.abort(now, b"interop");
                        ours.closing = true;
                    }
                }
            }
            Ending::AbortByUsrsctp => {
                if !theirs.closing && theirs.rx.delivered() >= half {
                    if let Some(s) = theirs.sock.as_mut() {
                        if let Err(e) = s.abort(stack) {
                            out.failures.push(format!("usrsctp abort: {e:?}"));
                        }
                        theirs.closing = true;
                        theirs.lost = true;
                    }
                }
            }
        }
        if let Some(a) = ours.assoc.and_then(|h| ours.ep.assoc_mut(h)) {
            while let Some(ev) = a.poll_event() {
                match ev {
                    SctpEvent::ShutdownComplete => ours.shutdown_complete = true,
                    SctpEvent::CommLost { .. } => ours.lost = true,
                    _ => {}
                }
            }
        }

        // Output: every packet checked, captured and put on the path.
        let mut ours_out = Vec::new();
        while let Some(t) = ours.ep.poll_transmit() {
            ours_out.push(t.payload);
        }
        if let Some(a) = ours.assoc.and_then(|h| ours.ep.assoc_mut(h)) {
            while let Some(t) = a.poll_transmit(now) {
                ours_out.push(t.payload);
            }
        }
        for p in ours_out {
            let parsed = SctpPacket::new_checked(&p[..]).and_then(|k| SctpRepr::parse(&k));
            if let Ok(r) = &parsed {
                watch.sctpsim_sent(r, ours.shutdown_complete);
                let (sacks, nr_sacks) = count_sacks(r);
                out.sack_chunks.0 += sacks;
                out.nr_sack_chunks.0 += nr_sacks;
            }
            match parsed {
                Ok(r) if case.trace || case.reconfig => {
                    out.reconfig_chunks.0 += count_reconfig(&r);
                    if case.trace {
                        out.trace.push(format!(
                            "{:>10.3} sctpsim> {}",
                            now.as_secs_f64(),
                            summarize(&r)
                        ));
                    }
                }
                Ok(r) if case.trace => out.trace.push(format!(
                    "{:>10.3} sctpsim> {}",
                    now.as_secs_f64(),
                    summarize(&r)
                )),
                Ok(_) => {}
                Err(e) => out
                    .failures
                    .push(format!("sctpsim emitted an unparsable packet: {e:?}")),
            }
            if let Some(c) = capture.as_mut() {
                c.write(now, SCTPSIM_ADDR, USRSCTP_ADDR, &p);
            }
            to_usr.send(now, p);
        }
        for p in stack.take_output() {
            let parsed = SctpPacket::new_checked(&p[..]).and_then(|k| SctpRepr::parse(&k));
            if let Ok(r) = &parsed {
                out.reconfig_chunks.1 += count_reconfig(r);
                let (sacks, nr_sacks) = count_sacks(r);
                out.sack_chunks.1 += sacks;
                out.nr_sack_chunks.1 += nr_sacks;
                for c in &r.chunks {
                    if let ChunkRepr::Auth(a) = c {
                        out.usrsctp_hmac_ids.insert(a.hmac_id);
                    }
                }
            }
            match &parsed {
                Ok(r) if case.trace => out.trace.push(format!(
                    "{:>10.3} usrsctp> {}",
                    now.as_secs_f64(),
                    summarize(r)
                )),
                Ok(_) => {}
                Err(e) => {
                    out.rejected_by_sctpsim += 1;
                    out.failures
                        .push(format!("sctpsim's parser rejected a usrsctp packet: {e:?}"));
                }
            }
            if let Some(c) = capture.as_mut() {
                c.write(now, USRSCTP_ADDR, SCTPSIM_ADDR, &p);
            }
            let delivered = to_us.send(now, p);
            if let Ok(r) = &parsed {
                watch.usrsctp_sent(r, delivered);
            }
        }

        // Done?
        let ours_closed = ours
            .assoc
            .and_then(|h| ours.ep.assoc(h))
            .is_some_and(|a| a.is_closed());
        let quiet = to_usr.in_flight() == 0 && to_us.in_flight() == 0;
        let done = if case.ending.graceful() {
            ours.shutdown_complete && theirs.shutdown_complete && ours_closed
        } else {
            ours_closed && theirs.lost
        };
        if done && quiet {
            break;
        }
        if now.saturating_since(SimTime::ZERO) > MAX_VIRTUAL_TIME || iterations > 50_000_000 {
            out.failures.push(format!(
                "not finished after {:.0} s: sctpsim up={} closed={} shutdown_complete={} lost={}; usrsctp up={} shutdown_complete={} lost={}; delivered {}/{} and {}/{}; handed over {} and {}; abandoned {:?} and {}; closing {} and {}",
                now.as_secs_f64(),
                ours.up,
                ours_closed,
                ours.shutdown_complete,
                ours.lost,
                theirs.up,
                theirs.shutdown_complete,
                theirs.lost,
                theirs.rx.delivered(),
                ours.plan.len(),
                ours.rx.delivered(),
                theirs.plan.len(),
                ours.next,
                theirs.next,
                ours.abandoned,
                theirs.abandoned_notes,
                ours.closing,
                theirs.closing
            ));
            break;
        }
        // Next instant: a packet arrival, sctpsim's timer, or usrsctp's next tick.
        let mut next = SimTime::ZERO + SimDuration::from_millis(usr_ms + USRSCTP_TICK_MS);
        for t in [to_usr.next_arrival(), to_us.next_arrival()]
            .into_iter()
            .flatten()
        {
            next = next.min(t);
        }
        if let Some(t) = ours
            .assoc
            .and_then(|h| ours.ep.assoc(h))
            .and_then(|a| a.poll_timeout())
        {
            next = next.min(t);
        }
        now = next.max(now + SimDuration::from_nanos(1));
    }
    out.virtual_time = now.saturating_since(SimTime::ZERO);

    // Final accounting.
    out.to_usrsctp = (theirs.rx.delivered(), ours.plan.len());
    out.to_sctpsim = (ours.rx.delivered(), theirs.plan.len());
    for e in &theirs.rx.errors {
        out.failures.push(format!("usrsctp received: {e:?}"));
    }
    for e in &ours.rx.errors {
        out.failures.push(format!("sctpsim received: {e:?}"));
    }
    if case.ending.graceful() {
        if !theirs.rx.all_reliable_delivered() || !ours.rx.all_reliable_delivered() {
            out.failures.push(format!(
                "reliable messages missing after a graceful shutdown: {} to usrsctp, {} to sctpsim",
                theirs.rx.missing_reliable(),
                ours.rx.missing_reliable()
            ));
        }
        if ours.lost || theirs.lost {
            out.failures
                .push("an association was lost in a graceful run".into());
        }
        // PR-SCTP: whatever did not arrive was abandoned by its sender.
        let missing_at_usr = theirs.rx.missing_pr();
        for i in &missing_at_usr {
            if !ours.abandoned.contains(i) {
                out.failures.push(format!(
                    "PR message {i} of sctpsim neither delivered nor reported abandoned"
                ));
            }
        }
        let missing_at_us = ours.rx.missing_pr();
        if missing_at_us.len() > theirs.abandoned_notes {
            out.failures.push(format!(
                "{} PR messages of usrsctp not delivered but only {} send-failed notifications",
                missing_at_us.len(),
                theirs.abandoned_notes
            ));
        }
        out.pr_abandoned = (missing_at_usr.len(), missing_at_us.len());
    }
    if case.auth && (ours.up || theirs.up) && !out.auth_negotiated {
        out.failures
            .push("AUTH asked for on both sides but not negotiated".into());
    }
    if case.i_data && (ours.up || theirs.up) && !out.i_data_negotiated {
        out.failures
            .push("I-DATA asked for on both sides but not negotiated".into());
    }
    if case.nr_sack && (ours.up || theirs.up) {
        if !out.nr_sack_negotiated {
            out.failures
                .push("NR-SACK asked for on both sides but not negotiated".into());
        } else {
            // Each side received data (both plans are non-empty), so each acknowledged some.
            for (who, nr, plain) in [
                ("sctpsim", out.nr_sack_chunks.0, out.sack_chunks.0),
                ("usrsctp", out.nr_sack_chunks.1, out.sack_chunks.1),
            ] {
                if nr == 0 || plain > 0 {
                    out.failures.push(format!(
                        "NR-SACK negotiated, but {who} sent {nr} NR-SACK and {plain} SACK chunks"
                    ));
                }
            }
        }
    }
    if case.reconfig && case.ending.graceful() {
        if out.reconfig_answer != Some(sctpsim_wire::sctp::ReconfigResult::Performed) {
            out.failures.push(format!(
                "usrsctp's answer to sctpsim's outgoing stream reset: {:?}, not Performed",
                out.reconfig_answer
            ));
        }
        if reset_by_usr && !out.reconfig_performed_for_usrsctp {
            out.failures
                .push("sctpsim did not perform usrsctp's outgoing stream reset".into());
        }
    }
    if out.auth_failures > 0 {
        out.failures.push(format!(
            "{} AUTH chunks from usrsctp failed sctpsim's checks",
            out.auth_failures
        ));
    }
    out.path_to_usrsctp = to_usr.counters;
    out.path_to_sctpsim = to_us.counters;
    out.sctpsim_retransmissions = ours.retransmissions;

    // Clean up: close usrsctp's socket and let its timers run so nothing of this run is left
    // (packets it still emits go nowhere).
    if let Some(s) = theirs.sock.take() {
        s.close();
    }
    for _ in 0..10 {
        stack.advance_ms(100);
    }
    let _ = stack.take_output();
    let stat1 = stack.stats();
    out.rejected_by_usrsctp = usr_rejections(&stat1).saturating_sub(usr_rejections(&stat0));
    if out.rejected_by_usrsctp > 0 {
        out.failures.push(format!(
            "usrsctp counted {} malformed packets (badsum/hdrops/checksumerrors)",
            out.rejected_by_usrsctp
        ));
    }
    out.usrsctp_retransmissions = u64::from(
        stat1.words[ffi::STAT_SENDRETRANSDATA].wrapping_sub(stat0.words[ffi::STAT_SENDRETRANSDATA]),
    );
    out.usrsctp_t3_expiries =
        u64::from(stat1.words[ffi::STAT_TIMODATA].wrapping_sub(stat0.words[ffi::STAT_TIMODATA]));
    if stat1.words[ffi::STAT_CURRESTAB] > stat0.words[ffi::STAT_CURRESTAB] {
        out.failures.push(format!(
            "usrsctp still counts {} established associations after the run",
            stat1.words[ffi::STAT_CURRESTAB]
        ));
    }
    // The two recognised endings (`known.rs`): counted apart, their failures kept beside.
    if case.ending.graceful() {
        let end = End {
            ours_complete: ours.shutdown_complete,
            ours_lost: ours.lost,
            theirs_lost: theirs.lost,
            all_reliable_delivered: theirs.rx.all_reliable_delivered()
                && ours.rx.all_reliable_delivered(),
        };
        if let Some(k) = watch.classify(&out.failures, &end) {
            out.known = Some(k);
            out.known_failures = std::mem::take(&mut out.failures);
        }
    }
    if let Some(mut c) = capture {
        let _ = c.w.flush();
        let _ = c.w.get_ref().get_ref().sync_all();
        let _ = std::io::stdout().flush();
    }
    out
}

/// The SACK and NR-SACK chunks of a packet.
fn count_sacks(r: &SctpRepr) -> (u64, u64) {
    r.chunks.iter().fold((0, 0), |(s, n), c| match c {
        ChunkRepr::Sack(_) => (s + 1, n),
        ChunkRepr::NrSack(_) => (s, n + 1),
        _ => (s, n),
    })
}

fn count_reconfig(r: &SctpRepr) -> u64 {
    r.chunks
        .iter()
        .filter(|c| matches!(c, ChunkRepr::Reconfig(_)))
        .count() as u64
}

/// The PPID both sides put on a stream's messages (checked on arrival: byte order across the
/// two APIs).
pub fn ppid_of(stream: u16) -> u32 {
    0x5C75_0000 | u32::from(stream)
}
