//! Socket options beyond SO_ERROR, SCTP_STATUS, SCTP_RTOINFO, SCTP_INITMSG and
//! SCTP_PEER_ADDR_PARAMS (those are in [`crate::syscalls`]): the ones the ETSI suite and
//! packetdrill's own SCTP tests use, mapped to the model's [`SctpConfig`] and association API
//! where it has an equivalent. A value the model cannot honour fails the script with
//! `unsupported: ...`, never silently.
//!
//! Option numbers are Linux's (as the rest of the runner's constants): `SCTP_ASSOCINFO` 1,
//! `SCTP_NODELAY` 3, `SCTP_DEFAULT_SEND_PARAM` 10, `SCTP_EVENTS` 11, `SCTP_MAXSEG` 13,
//! `SCTP_DELAYED_SACK` 16, `SCTP_DEFAULT_SNDINFO` 34, `SCTP_EVENT` 127; `SO_LINGER` 13 at
//! `SOL_SOCKET`. Structures and their meaning: RFC 6458 §8.1.

use sctpsim_kernel::SimDuration;
use sctpsim_proto::transport::sctp::SctpConfig;

use crate::ast::Expr;
use crate::executor::{slot_assoc, Executor};
use crate::syscalls::{check_fields, errno, eval, fail, field_value, ok, struct_fields, Ret};

pub(crate) const SCTP_RTOINFO: i64 = 0;
pub(crate) const SCTP_ASSOCINFO: i64 = 1;
pub(crate) const SCTP_INITMSG: i64 = 2;
pub(crate) const SCTP_NODELAY: i64 = 3;
pub(crate) const SCTP_DEFAULT_SEND_PARAM: i64 = 10;
pub(crate) const SCTP_EVENTS: i64 = 11;
pub(crate) const SCTP_MAXSEG: i64 = 13;
pub(crate) const SCTP_DELAYED_SACK: i64 = 16;
pub(crate) const SCTP_DEFAULT_SNDINFO: i64 = 34;
pub(crate) const SCTP_EVENT: i64 = 127;
pub(crate) const SO_LINGER: i64 = 13;
/// `snd_flags` / `sinfo_flags`: send unordered (RFC 6458 §5.3.4).
pub(crate) const SCTP_UNORDERED: i64 = 1;

/// RFC 9260 §6.2: "the delay MUST NOT be more than 500 ms"; RFC 6458 §8.1.19 makes setting
/// more an error.
const SACK_DELAY_MAX_MS: i64 = 500;

/// Settings of the script's socket that change how later calls behave (one socket per
/// script, so they live with the executor; accepted sockets inherit them, as sockets do).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SockSettings {
    /// SCTP_DEFAULT_SNDINFO / SCTP_DEFAULT_SEND_PARAM: stream of `write`.
    pub sid: u16,
    /// ... its payload protocol identifier.
    pub ppid: u32,
    /// ... and whether it is sent unordered.
    pub unordered: bool,
    /// SO_LINGER with `l_onoff=1, l_linger=0`: `close` aborts (RFC 6458 §8.1.4).
    pub linger_abort: bool,
}

/// The number in `[v]`, `v` or `{assoc_value=v}` (packetdrill writes integer options as a
/// one-element array; RFC 6458 `struct sctp_assoc_value` options as a structure).
fn scalar(e: &Expr, what: &str) -> Result<Option<i64>, String> {
    match e {
        Expr::Array(items) if items.len() == 1 => eval(&items[0]),
        Expr::Struct(fields) => {
            check_fields(fields, &["assoc_id", "assoc_value"], what)?;
            field_value(fields, "assoc_value")
        }
        other => eval(other),
    }
}

fn ms(v: i64) -> SimDuration {
    SimDuration::from_millis(u64::try_from(v).unwrap_or(0))
}

fn as_ms(d: SimDuration) -> i64 {
    i64::try_from(d.as_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// Compares the fields a getsockopt structure gives (not `...`) with the actual values.
fn compare(opt: &str, fields: &[(String, Expr)], actual: &[(&str, i64)]) -> Result<(), String> {
    for (name, e) in fields {
        let Some(want) = eval(e)? else { continue };
        let Some((_, have)) = actual.iter().find(|(n, _)| n == name) else {
            return Err(format!(
                "unsupported: a value for {name} of getsockopt {opt} (only `...`)"
            ));
        };
        if want != *have {
            return Err(format!(
                "getsockopt {opt}: {name}: expected {want} but got {have}"
            ));
        }
    }
    Ok(())
}

fn check_scalar(opt: &str, e: &Expr, have: i64) -> Result<(), String> {
    if let Some(want) = scalar(e, opt)? {
        if want != have {
            return Err(format!("getsockopt {opt}: expected {want} but got {have}"));
        }
    }
    Ok(())
}

impl Executor {
    /// The configuration that applies to socket `idx`: its association's, or the endpoint's
    /// (for associations set up later).
    fn cfg_of(&mut self, idx: Option<usize>) -> Result<SctpConfig, String> {
        Ok(match idx {
            Some(i) => slot_assoc(&mut self.endpoint, &self.slots[i])?
                .config()
                .clone(),
            None => self.endpoint.config().clone(),
        })
    }

    /// `setsockopt` of the options this module handles; `None` if `opt` is not one of them.
    pub(crate) fn set_more(
        &mut self,
        level: i64,
        opt: i64,
        value: &Expr,
        idx: Option<usize>,
    ) -> Option<Result<Ret, String>> {
        Some(match (level, opt) {
            (1, SO_LINGER) => self.set_linger(value),
            (132, SCTP_ASSOCINFO) => self.set_associnfo(value, idx),
            (132, SCTP_NODELAY) => match scalar(value, "SCTP_NODELAY") {
                // The model has no Nagle algorithm: it always sends at once (NODELAY on).
                Ok(Some(v)) if v != 0 => ok(0),
                Ok(_) => Err(
                    "unsupported: SCTP_NODELAY 0 (the model has no Nagle algorithm; it always sends at once)"
                        .into(),
                ),
                Err(e) => Err(e),
            },
            (132, SCTP_MAXSEG) => self.set_maxseg(value, idx),
            (132, SCTP_DELAYED_SACK) => self.set_delayed_sack(value, idx),
            (132, SCTP_DEFAULT_SNDINFO) => self.set_default_send(
                value,
                &["snd_sid", "snd_flags", "snd_ppid", "snd_context", "snd_assoc_id"],
                ("snd_sid", "snd_flags", "snd_ppid"),
            ),
            (132, SCTP_DEFAULT_SEND_PARAM) => self.set_default_send(
                value,
                &[
                    "sinfo_stream",
                    "sinfo_ssn",
                    "sinfo_flags",
                    "sinfo_ppid",
                    "sinfo_context",
                    "sinfo_timetolive",
                    "sinfo_tsn",
                    "sinfo_cumtsn",
                    "sinfo_assoc_id",
                ],
                ("sinfo_stream", "sinfo_flags", "sinfo_ppid"),
            ),
            (132, SCTP_EVENT) => Self::set_event(value),
            (132, SCTP_EVENTS) => Self::set_events(value),
            (132, o) => return self.set_reconfig(o, value, idx),
            _ => return None,
        })
    }

    fn set_linger(&mut self, value: &Expr) -> Result<Ret, String> {
        let f = struct_fields(value, "SO_LINGER")?;
        check_fields(f, &["onoff", "linger", "l_onoff", "l_linger"], "SO_LINGER")?;
        let onoff = field_value(f, "onoff")?.or(field_value(f, "l_onoff")?);
        let linger = field_value(f, "linger")?.or(field_value(f, "l_linger")?);
        match (onoff.unwrap_or(0), linger.unwrap_or(0)) {
            (0, _) => self.sock.linger_abort = false,
            (_, 0) => self.sock.linger_abort = true,
            (_, l) => {
                return Err(format!(
                "unsupported: SO_LINGER with a linger time of {l} s (a blocking close that waits)"
            ))
            }
        }
        ok(0)
    }

    fn set_associnfo(&mut self, value: &Expr, idx: Option<usize>) -> Result<Ret, String> {
        let f = struct_fields(value, "SCTP_ASSOCINFO")?;
        check_fields(
            f,
            &[
                "sasoc_assoc_id",
                "sasoc_asocmaxrxt",
                "sasoc_number_peer_destinations",
                "sasoc_peer_rwnd",
                "sasoc_local_rwnd",
                "sasoc_cookie_life",
            ],
            "SCTP_ASSOCINFO",
        )?;
        // RFC 6458 §8.1.2: the peer and local windows and the number of destinations are
        // read-only; zero leaves a settable value unchanged.
        for n in [
            "sasoc_number_peer_destinations",
            "sasoc_peer_rwnd",
            "sasoc_local_rwnd",
        ] {
            if field_value(f, n)?.is_some_and(|v| v != 0) {
                return Err(format!(
                    "unsupported: setting {n} of SCTP_ASSOCINFO (read-only in the model)"
                ));
            }
        }
        let maxrxt = field_value(f, "sasoc_asocmaxrxt")?.filter(|v| *v > 0);
        let life = field_value(f, "sasoc_cookie_life")?.filter(|v| *v > 0);
        let cfg = self.endpoint.config_mut();
        if let Some(v) = maxrxt {
            cfg.association_max_retrans = u32::try_from(v).unwrap_or(u32::MAX);
        }
        if let Some(v) = life {
            cfg.valid_cookie_life = ms(v);
        }
        if let (Some(i), Some(v)) = (idx, maxrxt) {
            slot_assoc(&mut self.endpoint, &self.slots[i])?
                .set_association_max_retrans(u32::try_from(v).unwrap_or(u32::MAX));
        }
        ok(0)
    }

    fn set_maxseg(&mut self, value: &Expr, idx: Option<usize>) -> Result<Ret, String> {
        if idx.is_some() {
            return Err(
                "unsupported: SCTP_MAXSEG on an association (the model fixes the fragment size at setup)"
                    .into(),
            );
        }
        let Some(v) = scalar(value, "SCTP_MAXSEG")? else {
            return Err("SCTP_MAXSEG: the value cannot be `...`".into());
        };
        if v < 0 {
            return fail(errno::EINVAL);
        }
        // RFC 6458 §8.1.16: 0 means "as the PMTU allows"; otherwise the largest user data
        // per DATA chunk.
        self.endpoint.config_mut().max_fragment = match v {
            0 => None,
            v => Some(u32::try_from(v).unwrap_or(u32::MAX)),
        };
        ok(0)
    }

    fn set_delayed_sack(&mut self, value: &Expr, idx: Option<usize>) -> Result<Ret, String> {
        let f = struct_fields(value, "SCTP_DELAYED_SACK")?;
        check_fields(
            f,
            &["sack_assoc_id", "sack_delay", "sack_freq"],
            "SCTP_DELAYED_SACK",
        )?;
        let delay = field_value(f, "sack_delay")?;
        let freq = field_value(f, "sack_freq")?;
        if delay.is_some_and(|d| !(0..=SACK_DELAY_MAX_MS).contains(&d))
            || freq.is_some_and(|v| v < 0)
        {
            return fail(errno::EINVAL);
        }
        // RFC 6458 §8.1.19: a delay of 0 or a frequency of 0 leaves that value unchanged; a
        // frequency of 1 turns delayed SACK off.
        let cfg = self.endpoint.config_mut();
        if let Some(d) = delay.filter(|d| *d > 0) {
            cfg.sack_delay = ms(d);
        }
        match freq {
            Some(1) => cfg.delayed_sack = false,
            Some(n) if n > 1 => {
                cfg.delayed_sack = true;
                cfg.sack_freq = u32::try_from(n).unwrap_or(u32::MAX);
            }
            _ => {}
        }
        let (on, d, n) = (cfg.delayed_sack, cfg.sack_delay, cfg.sack_freq);
        if let Some(i) = idx {
            slot_assoc(&mut self.endpoint, &self.slots[i])?.set_delayed_sack(on.then_some(d), n);
        }
        ok(0)
    }

    fn set_default_send(
        &mut self,
        value: &Expr,
        allowed: &[&str],
        (sid, flags, ppid): (&str, &str, &str),
    ) -> Result<Ret, String> {
        let f = struct_fields(value, "default send parameters")?;
        check_fields(f, allowed, "default send parameters")?;
        for n in allowed {
            if [sid, flags, ppid].contains(n) || n.ends_with("assoc_id") {
                continue;
            }
            if field_value(f, n)?.is_some_and(|v| v != 0) {
                return Err(format!("unsupported: {n} in the default send parameters"));
            }
        }
        let fl = field_value(f, flags)?.unwrap_or(0);
        if fl & !SCTP_UNORDERED != 0 {
            return Err(format!(
                "unsupported: send flags {fl:#x} (SCTP_UNORDERED only)"
            ));
        }
        if let Some(s) = field_value(f, sid)? {
            self.sock.sid = u16::try_from(s).map_err(|_| format!("{sid} out of range"))?;
        }
        if let Some(p) = field_value(f, ppid)? {
            // packetdrill passes the PPID as written (htonl() is the script's business).
            self.sock.ppid = u32::try_from(p).map_err(|_| format!("{ppid} out of range"))?;
        }
        self.sock.unordered = fl & SCTP_UNORDERED != 0;
        ok(0)
    }

    /// SCTP_EVENT: the runner delivers no notifications (`read` returns data only), so only
    /// switching an event off is honoured.
    fn set_event(value: &Expr) -> Result<Ret, String> {
        let f = struct_fields(value, "SCTP_EVENT")?;
        check_fields(f, &["se_assoc_id", "se_type", "se_on"], "SCTP_EVENT")?;
        match field_value(f, "se_on")? {
            Some(0) => ok(0),
            _ => Err(
                "unsupported: SCTP_EVENT with se_on=1 (the runner delivers no notifications)"
                    .into(),
            ),
        }
    }

    /// SCTP_EVENTS (deprecated RFC 6458 §6.2.1 form): every subscription off, except
    /// `sctp_data_io_event`, which only adds `sctp_sndrcvinfo` to `recvmsg` (no effect on
    /// `read`).
    fn set_events(value: &Expr) -> Result<Ret, String> {
        let f = struct_fields(value, "SCTP_EVENTS")?;
        for (n, e) in f {
            if !n.starts_with("sctp_") || !n.ends_with("_event") {
                return Err(format!("unsupported: field `{n}` of SCTP_EVENTS"));
            }
            if n != "sctp_data_io_event" && eval(e)?.is_some_and(|v| v != 0) {
                return Err(format!(
                    "unsupported: SCTP_EVENTS {n}=1 (the runner delivers no notifications)"
                ));
            }
        }
        ok(0)
    }

    /// `getsockopt` of the options this module handles; `None` if `opt` is not one of them.
    pub(crate) fn get_more(
        &mut self,
        level: i64,
        opt: i64,
        value: &Expr,
        idx: Option<usize>,
    ) -> Option<Result<Ret, String>> {
        self.get_inner(level, opt, value, idx).transpose()
    }

    fn get_inner(
        &mut self,
        level: i64,
        opt: i64,
        value: &Expr,
        idx: Option<usize>,
    ) -> Result<Option<Ret>, String> {
        let cfg = match (level, opt) {
            (1, SO_LINGER)
            | (
                132,
                SCTP_RTOINFO | SCTP_ASSOCINFO | SCTP_INITMSG | SCTP_NODELAY | SCTP_MAXSEG
                | SCTP_DELAYED_SACK | SCTP_DEFAULT_SNDINFO,
            ) => self.cfg_of(idx)?,
            _ => return Ok(None),
        };
        match (level, opt) {
            (1, _) => {
                let f = struct_fields(value, "SO_LINGER")?;
                let on = i64::from(self.sock.linger_abort);
                compare(
                    "SO_LINGER",
                    f,
                    &[
                        ("onoff", on),
                        ("l_onoff", on),
                        ("linger", 0),
                        ("l_linger", 0),
                    ],
                )?;
            }
            (_, SCTP_RTOINFO) => compare(
                "SCTP_RTOINFO",
                struct_fields(value, "SCTP_RTOINFO")?,
                &[
                    ("srto_initial", as_ms(cfg.rto_initial)),
                    ("srto_max", as_ms(cfg.rto_max)),
                    ("srto_min", as_ms(cfg.rto_min)),
                ],
            )?,
            (_, SCTP_ASSOCINFO) => {
                let (dests, peer_rwnd) = match idx {
                    Some(i) => {
                        let st = slot_assoc(&mut self.endpoint, &self.slots[i])?.status();
                        (st.paths.len() as i64, i64::from(st.peer_rwnd))
                    }
                    None => (0, 0),
                };
                compare(
                    "SCTP_ASSOCINFO",
                    struct_fields(value, "SCTP_ASSOCINFO")?,
                    &[
                        ("sasoc_asocmaxrxt", i64::from(cfg.association_max_retrans)),
                        ("sasoc_number_peer_destinations", dests),
                        ("sasoc_peer_rwnd", peer_rwnd),
                        ("sasoc_cookie_life", as_ms(cfg.valid_cookie_life)),
                    ],
                )?
            }
            (_, SCTP_INITMSG) => compare(
                "SCTP_INITMSG",
                struct_fields(value, "SCTP_INITMSG")?,
                &[
                    ("sinit_num_ostreams", i64::from(cfg.outbound_streams)),
                    ("sinit_max_instreams", i64::from(cfg.max_inbound_streams)),
                    ("sinit_max_attempts", i64::from(cfg.max_init_retransmits)),
                    (
                        "sinit_max_init_timeo",
                        as_ms(cfg.max_init_timeo.unwrap_or(cfg.rto_max)),
                    ),
                ],
            )?,
            (_, SCTP_NODELAY) => check_scalar("SCTP_NODELAY", value, 1)?,
            (_, SCTP_MAXSEG) => {
                // PMTU − 20 IPv4 − 12 common header − 16 DATA header, as `max_fragment` says.
                let auto = i64::from(cfg.pmtu).saturating_sub(48);
                let v = cfg.max_fragment.map_or(auto, |m| i64::from(m).min(auto));
                check_scalar("SCTP_MAXSEG", value, v)?
            }
            (_, SCTP_DELAYED_SACK) => compare(
                "SCTP_DELAYED_SACK",
                struct_fields(value, "SCTP_DELAYED_SACK")?,
                &[
                    ("sack_delay", as_ms(cfg.sack_delay)),
                    (
                        "sack_freq",
                        if cfg.delayed_sack {
                            i64::from(cfg.sack_freq)
                        } else {
                            1
                        },
                    ),
                ],
            )?,
            _ => compare(
                "SCTP_DEFAULT_SNDINFO",
                struct_fields(value, "SCTP_DEFAULT_SNDINFO")?,
                &[
                    ("snd_sid", i64::from(self.sock.sid)),
                    ("snd_flags", i64::from(self.sock.unordered)),
                    ("snd_ppid", i64::from(self.sock.ppid)),
                    ("snd_context", 0),
                ],
            )?,
        }
        Ok(Some(Ret { value: 0, errno: 0 }))
    }
}
