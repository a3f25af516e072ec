//! A safe wrapper over the parts of usrsctp the harness drives.
//!
//! usrsctp keeps process-global state (its endpoint and association tables, timers, counters).
//! It is initialised once per process without threads (`usrsctp_init_nothreads`: no timer
//! thread, no receive threads), so nothing runs unless the harness calls in, and its clock only
//! moves when [`Stack::advance_ms`] calls `usrsctp_handle_timers`. Every use holds one process
//! lock ([`Stack::acquire`]): tests in one binary run on several threads, usrsctp must see them
//! one at a time.
//!
//! Packets leave usrsctp through the `conn_output` callback given at initialisation, which
//! usrsctp calls synchronously from inside whichever call produced them (connect, sendv,
//! conninput, handle_timers); the callback copies them into an outbox the harness drains
//! ([`Stack::take_output`]). They carry no IP header (AF_CONN): the harness wraps them.
//!
//! With AF_CONN, `usrsctp_conninput(addr, ...)` gives a packet the same opaque address as both
//! source and destination (user_socket.c), and INIT address parameters can only name IPv4/IPv6
//! addresses, which an AF_CONN socket does not use: an association over AF_CONN has exactly one
//! address on each side, so multi-homing cannot be exercised this way.

#![allow(unsafe_code)]

use core::ffi::{c_int, c_void};
use std::sync::{Mutex, MutexGuard, Once};

use crate::ffi::{self, Socket};

static INIT: Once = Once::new();
static LOCK: Mutex<()> = Mutex::new(());
static OUTBOX: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());
/// The one AF_CONN address (its value is only compared by usrsctp, never dereferenced).
static CONN_TOKEN: u8 = 0;
/// Sockets created now offer and accept I-DATA ([`Stack::set_i_data`]).
static I_DATA: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
/// Sockets created now accept stream reconfiguration requests ([`Stack::set_reconfig`]).
static RECONFIG: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn token() -> *mut c_void {
    &CONN_TOKEN as *const u8 as *mut c_void
}

/// usrsctp's output callback: copies the packet into the outbox. It must not unwind into C, so
/// it neither panics nor blocks on a poisoned lock.
extern "C" fn conn_output(
    _addr: *mut c_void,
    buffer: *mut c_void,
    length: usize,
    _tos: u8,
    _set_df: u8,
) -> c_int {
    if buffer.is_null() {
        return 0;
    }
    // SAFETY: usrsctp passes a buffer of `length` readable bytes that lives for the call.
    let bytes = unsafe { std::slice::from_raw_parts(buffer as *const u8, length) }.to_vec();
    OUTBOX.lock().unwrap_or_else(|e| e.into_inner()).push(bytes);
    0
}

/// The defaults usrsctp runs with (its sysctls), for the differences table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Defaults {
    /// RTO.Min, ms.
    pub rto_min_ms: u32,
    /// RTO.Max, ms.
    pub rto_max_ms: u32,
    /// RTO.Initial, ms.
    pub rto_initial_ms: u32,
    /// Delayed SACK time, ms.
    pub delayed_sack_ms: u32,
    /// SACK frequency (packets).
    pub sack_freq: u32,
    /// HB.interval, ms.
    pub hb_interval_ms: u32,
    /// Max.Init.Retransmits.
    pub init_rtx_max: u32,
    /// Max.Burst.
    pub max_burst: u32,
    /// Valid.Cookie.Life, ms.
    pub cookie_life_ms: u32,
    /// Initial cwnd in MTUs (sctp_initial_cwnd).
    pub initial_cwnd_mtus: u32,
    /// Potentially-failed threshold (RFC 7829), `0xffff` = off.
    pub pf_threshold: u32,
}

/// Exclusive use of the process's usrsctp stack.
pub struct Stack {
    _guard: MutexGuard<'static, ()>,
}

impl Stack {
    /// Takes the process lock, initialising usrsctp on first use: no threads, no UDP
    /// encapsulation, AF_CONN output to the outbox; PKTDROP and ECN off (sctpsim implements
    /// neither), stream reconfiguration and NR-SACK off unless a run turns them on
    /// ([`Stack::set_reconfig`], [`Stack::set_nr_sack`]), PR-SCTP on, AUTH (RFC 4895) and ASCONF
    /// (RFC 5061) on (usrsctp's defaults; [`Stack::set_auth`] turns both off for a run).
    pub fn acquire() -> Stack {
        let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        INIT.call_once(|| {
            // SAFETY: called once, before any other usrsctp function, with a valid callback.
            unsafe {
                ffi::usrsctp_init_nothreads(0, Some(conn_output), None);
                ffi::usrsctp_sysctl_set_sctp_auth_enable(1);
                ffi::usrsctp_sysctl_set_sctp_asconf_enable(1);
                ffi::usrsctp_sysctl_set_sctp_reconfig_enable(0);
                ffi::usrsctp_sysctl_set_sctp_nrsack_enable(0);
                ffi::usrsctp_sysctl_set_sctp_pktdrop_enable(0);
                ffi::usrsctp_sysctl_set_sctp_ecn_enable(0);
                ffi::usrsctp_sysctl_set_sctp_pr_enable(1);
                ffi::usrsctp_register_address(token());
            }
        });
        Stack { _guard: guard }
    }

    /// usrsctp's protocol defaults.
    pub fn defaults(&self) -> Defaults {
        // SAFETY: plain getters of global sysctl values.
        unsafe {
            Defaults {
                rto_min_ms: ffi::usrsctp_sysctl_get_sctp_rto_min_default(),
                rto_max_ms: ffi::usrsctp_sysctl_get_sctp_rto_max_default(),
                rto_initial_ms: ffi::usrsctp_sysctl_get_sctp_rto_initial_default(),
                delayed_sack_ms: ffi::usrsctp_sysctl_get_sctp_delayed_sack_time_default(),
                sack_freq: ffi::usrsctp_sysctl_get_sctp_sack_freq_default(),
                hb_interval_ms: ffi::usrsctp_sysctl_get_sctp_heartbeat_interval_default(),
                init_rtx_max: ffi::usrsctp_sysctl_get_sctp_init_rtx_max_default(),
                max_burst: ffi::usrsctp_sysctl_get_sctp_max_burst_default(),
                cookie_life_ms: ffi::usrsctp_sysctl_get_sctp_valid_cookie_life_default(),
                initial_cwnd_mtus: ffi::usrsctp_sysctl_get_sctp_initial_cwnd(),
                pf_threshold: ffi::usrsctp_sysctl_get_sctp_path_pf_threshold(),
            }
        }
    }

    /// Turns AUTH (RFC 4895) and ASCONF (RFC 5061) on or off for sockets created from now on
    /// (usrsctp copies the sysctls into each endpoint when it is created). They go together:
    /// usrsctp refuses ASCONF without AUTH (RFC 5061 §4.1.1).
    pub fn set_auth(&mut self, on: bool) {
        let v = u32::from(on);
        // SAFETY: initialised; the lock is held; plain setters of global sysctl values.
        unsafe {
            ffi::usrsctp_sysctl_set_sctp_auth_enable(v);
            ffi::usrsctp_sysctl_set_sctp_asconf_enable(v);
        }
    }

    /// Turns stream reconfiguration (RFC 6525) on or off for sockets created from now on: the
    /// `sctp_reconfig_enable` sysctl (RE-CONFIG in Supported Extensions) and, per socket,
    /// `SCTP_ENABLE_STREAM_RESET` for every request type (without it usrsctp lists RE-CONFIG
    /// but answers every request "Denied").
    pub fn set_reconfig(&mut self, on: bool) {
        RECONFIG.store(on, std::sync::atomic::Ordering::Relaxed);
        // SAFETY: initialised; the lock is held; plain setter of a global sysctl value.
        unsafe {
            ffi::usrsctp_sysctl_set_sctp_reconfig_enable(u32::from(on));
        }
    }

    /// Turns I-DATA (RFC 8260) on or off for sockets created from now on: per socket, fragment
    /// interleave level 2 and `SCTP_INTERLEAVING_SUPPORTED` (usrsctp lists I-DATA, and with
    /// PR-SCTP I-FORWARD-TSN, in its Supported Extensions only then).
    pub fn set_i_data(&mut self, on: bool) {
        I_DATA.store(on, std::sync::atomic::Ordering::Relaxed);
    }

    /// Turns NR-SACK on or off for sockets created from now on: the `sctp_nrsack_enable`
    /// sysctl (NR-SACK in Supported Extensions; usrsctp then acknowledges only with NR-SACK).
    pub fn set_nr_sack(&mut self, on: bool) {
        // SAFETY: initialised; the lock is held; plain setter of a global sysctl value.
        unsafe {
            ffi::usrsctp_sysctl_set_sctp_nrsack_enable(u32::from(on));
        }
    }

    /// Moves usrsctp's clock forward and runs the timers that became due.
    pub fn advance_ms(&mut self, ms: u32) {
        if ms > 0 {
            // SAFETY: initialised; the lock is held.
            unsafe { ffi::usrsctp_handle_timers(ms) }
        }
    }

    /// Hands usrsctp a packet (an SCTP packet without IP header).
    pub fn input(&mut self, packet: &[u8]) {
        // SAFETY: the buffer is valid for its length for the call; usrsctp copies it.
        unsafe {
            ffi::usrsctp_conninput(token(), packet.as_ptr() as *const c_void, packet.len(), 0)
        }
    }

    /// The packets usrsctp emitted since the last call.
    pub fn take_output(&mut self) -> Vec<Vec<u8>> {
        std::mem::take(&mut *OUTBOX.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// usrsctp's global counters.
    pub fn stats(&self) -> ffi::SctpStat {
        let mut s = ffi::SctpStat {
            words: [0; ffi::SCTPSTAT_WORDS],
        };
        // SAFETY: writes one struct sctpstat (SCTPSTAT_WORDS words) into `s`.
        unsafe { ffi::usrsctp_get_stat(&mut s) };
        s
    }

    fn new_socket(&mut self, port: u16) -> Result<UsrSocket, String> {
        // SAFETY: initialised; no callbacks (the socket is polled).
        let so = unsafe {
            ffi::usrsctp_socket(
                ffi::AF_CONN,
                ffi::SOCK_STREAM,
                ffi::IPPROTO_SCTP,
                core::ptr::null(),
                core::ptr::null(),
                0,
                core::ptr::null_mut(),
            )
        };
        if so.is_null() {
            return Err(format!("usrsctp_socket failed: {}", errno()));
        }
        let s = UsrSocket {
            so,
            listener: None,
            partial: Vec::new(),
            partial_info: None,
            partial_note: Vec::new(),
        };
        s.configure()?;
        let addr = sockaddr(port);
        // SAFETY: `addr` is a valid sockaddr_conn of the given length.
        let rc = unsafe { ffi::usrsctp_bind(so, &addr, sockaddr_len()) };
        if rc != 0 {
            s.close();
            return Err(format!("usrsctp_bind to port {port} failed: {}", errno()));
        }
        Ok(s)
    }

    /// A socket on `local_port` connecting to the peer's `peer_port` (the INIT goes out at once).
    pub fn connect(&mut self, local_port: u16, peer_port: u16) -> Result<UsrSocket, String> {
        let s = self.new_socket(local_port)?;
        let addr = sockaddr(peer_port);
        // SAFETY: valid socket and address.
        let rc = unsafe { ffi::usrsctp_connect(s.so, &addr, sockaddr_len()) };
        if rc != 0 && errno() != ffi::EINPROGRESS {
            s.close();
            return Err(format!("usrsctp_connect failed: {}", errno()));
        }
        Ok(s)
    }

    /// A listening socket on `local_port`; [`UsrSocket::poll_accept`] turns it into the
    /// association's socket once the handshake completes.
    pub fn listen(&mut self, local_port: u16) -> Result<UsrSocket, String> {
        let s = self.new_socket(local_port)?;
        // SAFETY: valid socket.
        let rc = unsafe { ffi::usrsctp_listen(s.so, 1) };
        if rc != 0 {
            s.close();
            return Err(format!("usrsctp_listen failed: {}", errno()));
        }
        Ok(UsrSocket {
            so: core::ptr::null_mut(),
            listener: Some(s.so),
            partial: Vec::new(),
            partial_info: None,
            partial_note: Vec::new(),
        })
    }
}

fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

fn sockaddr(port: u16) -> ffi::SockaddrConn {
    ffi::SockaddrConn {
        sconn_family: ffi::AF_CONN as u16,
        sconn_port: port.to_be(),
        sconn_addr: token(),
    }
}

fn sockaddr_len() -> u32 {
    core::mem::size_of::<ffi::SockaddrConn>() as u32
}

/// What a usrsctp socket reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UsrEvent {
    /// A complete message.
    Message {
        /// Stream.
        stream: u16,
        /// Delivered unordered.
        unordered: bool,
        /// PPID as on the wire (network order).
        ppid: u32,
        /// The bytes.
        data: Vec<u8>,
    },
    /// SCTP_ASSOC_CHANGE with this `sac_state` (COMM_UP, COMM_LOST, RESTART, SHUTDOWN_COMP,
    /// CANT_STR_ASSOC).
    AssocChange(u16),
    /// SCTP_SHUTDOWN_EVENT: the peer sent SHUTDOWN.
    PeerShutdown,
    /// SCTP_SEND_FAILED_EVENT: data abandoned (PR-SCTP) or discarded; `unsent` when no part
    /// was transmitted; `data` the bytes it carried (the whole message or one fragment).
    SendFailed {
        /// SCTP_DATA_UNSENT.
        unsent: bool,
        /// The stream.
        stream: u16,
        /// The data the notification carried.
        data: Vec<u8>,
    },
    /// `recvv` returned 0: the association is gone (shut down or aborted).
    Eof,
}

/// Why a send was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsrSendError {
    /// The send buffer is full: try again later.
    WouldBlock,
    /// Any other errno.
    Errno(i32),
}

/// A usrsctp one-to-one socket (or a listener until the association is accepted).
pub struct UsrSocket {
    so: *mut Socket,
    listener: Option<*mut Socket>,
    partial: Vec<u8>,
    partial_info: Option<ffi::RcvInfo>,
    partial_note: Vec<u8>,
}

impl core::fmt::Debug for UsrSocket {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("UsrSocket")
            .field("connected", &!self.so.is_null())
            .finish()
    }
}

fn setopt<T>(so: *mut Socket, name: c_int, v: &T) -> Result<(), String> {
    // SAFETY: `v` is a valid T of size_of::<T>() bytes for the call.
    let rc = unsafe {
        ffi::usrsctp_setsockopt(
            so,
            ffi::IPPROTO_SCTP,
            name,
            v as *const T as *const c_void,
            core::mem::size_of::<T>() as u32,
        )
    };
    if rc != 0 {
        return Err(format!("usrsctp_setsockopt({name:#x}) failed: {}", errno()));
    }
    Ok(())
}

impl UsrSocket {
    fn configure(&self) -> Result<(), String> {
        // SAFETY: valid socket.
        unsafe { ffi::usrsctp_set_non_blocking(self.so, 1) };
        let on: c_int = 1;
        setopt(self.so, ffi::SCTP_RECVRCVINFO, &on)?;
        setopt(self.so, ffi::SCTP_NODELAY, &on)?;
        let init = ffi::InitMsg {
            sinit_num_ostreams: 8,
            sinit_max_instreams: 8,
            sinit_max_attempts: 0,
            sinit_max_init_timeo: 0,
        };
        setopt(self.so, ffi::SCTP_INITMSG, &init)?;
        if I_DATA.load(std::sync::atomic::Ordering::Relaxed) {
            let level: c_int = 2;
            setopt(self.so, ffi::SCTP_FRAGMENT_INTERLEAVE, &level)?;
            let v = ffi::AssocValue {
                assoc_id: 0,
                assoc_value: 1,
            };
            setopt(self.so, ffi::SCTP_INTERLEAVING_SUPPORTED, &v)?;
        }
        if RECONFIG.load(std::sync::atomic::Ordering::Relaxed) {
            let v = ffi::AssocValue {
                assoc_id: 0,
                assoc_value: ffi::SCTP_ENABLE_VALUE_MASK,
            };
            setopt(self.so, ffi::SCTP_ENABLE_STREAM_RESET, &v)?;
        }
        for ty in [
            ffi::SCTP_ASSOC_CHANGE,
            ffi::SCTP_SHUTDOWN_EVENT,
            ffi::SCTP_SEND_FAILED_EVENT,
        ] {
            let ev = ffi::Event {
                se_assoc_id: 0,
                se_type: ty,
                se_on: 1,
            };
            setopt(self.so, ffi::SCTP_EVENT, &ev)?;
        }
        Ok(())
    }

    /// Whether the socket is an association (connected or accepted).
    pub fn is_connected(&self) -> bool {
        !self.so.is_null()
    }

    /// A listener: accepts the association once established. Returns whether it now has one.
    pub fn poll_accept(&mut self, _stack: &mut Stack) -> bool {
        if !self.so.is_null() {
            return true;
        }
        let Some(l) = self.listener else {
            return false;
        };
        // SAFETY: valid listening socket; no address wanted.
        let so = unsafe { ffi::usrsctp_accept(l, core::ptr::null_mut(), core::ptr::null_mut()) };
        if so.is_null() {
            return false;
        }
        // SAFETY: the accepted socket is valid.
        unsafe { ffi::usrsctp_set_non_blocking(so, 1) };
        self.so = so;
        true
    }

    /// Sends a message (`lifetime_ms`: RFC 3758 timed reliability).
    pub fn send(
        &mut self,
        _stack: &mut Stack,
        data: &[u8],
        stream: u16,
        unordered: bool,
        lifetime_ms: Option<u32>,
        ppid_wire: u32,
    ) -> Result<(), UsrSendError> {
        if self.so.is_null() {
            return Err(UsrSendError::Errno(0));
        }
        let mut spa = ffi::SendvSpa {
            sendv_flags: ffi::SCTP_SEND_SNDINFO_VALID,
            sendv_sndinfo: ffi::SndInfo {
                snd_sid: stream,
                snd_flags: if unordered { ffi::SCTP_UNORDERED } else { 0 },
                snd_ppid: ppid_wire,
                ..Default::default()
            },
            ..Default::default()
        };
        if let Some(ms) = lifetime_ms {
            spa.sendv_flags |= ffi::SCTP_SEND_PRINFO_VALID;
            spa.sendv_prinfo = ffi::PrInfo {
                pr_policy: ffi::SCTP_PR_SCTP_TTL,
                pr_value: ms,
            };
        }
        self.sendv(data, &spa)
    }

    fn sendv(&mut self, data: &[u8], spa: &ffi::SendvSpa) -> Result<(), UsrSendError> {
        // SAFETY: valid socket, data and info buffers for the call.
        let n = unsafe {
            ffi::usrsctp_sendv(
                self.so,
                data.as_ptr() as *const c_void,
                data.len(),
                core::ptr::null(),
                0,
                spa as *const ffi::SendvSpa as *const c_void,
                core::mem::size_of::<ffi::SendvSpa>() as u32,
                ffi::SCTP_SENDV_SPA,
                0,
            )
        };
        if n >= 0 {
            return Ok(());
        }
        match errno() {
            ffi::EWOULDBLOCK => Err(UsrSendError::WouldBlock),
            e => Err(UsrSendError::Errno(e)),
        }
    }

    /// RFC 6458 §5.3.4 SCTP_ABORT: aborts the association (an ABORT with a User-Initiated Abort
    /// cause goes out).
    pub fn abort(&mut self, _stack: &mut Stack) -> Result<(), UsrSendError> {
        let spa = ffi::SendvSpa {
            sendv_flags: ffi::SCTP_SEND_SNDINFO_VALID,
            sendv_sndinfo: ffi::SndInfo {
                snd_flags: ffi::SCTP_ABORT,
                ..Default::default()
            },
            ..Default::default()
        };
        self.sendv(&[], &spa)
    }

    /// RFC 6525 §6.3.2 `SCTP_RESET_STREAMS`: resets our outgoing streams (empty: all; at most
    /// two listed). usrsctp sends the request once the streams' queued data has left.
    pub fn reset_outgoing(&mut self, _stack: &mut Stack, streams: &[u16]) -> Result<(), i32> {
        let mut r = ffi::ResetStreams {
            srs_flags: ffi::SCTP_STREAM_RESET_OUTGOING,
            srs_number_streams: streams.len().min(2) as u16,
            ..Default::default()
        };
        for (slot, s) in r.srs_stream_list.iter_mut().zip(streams) {
            *slot = *s;
        }
        setopt(self.so, ffi::SCTP_RESET_STREAMS, &r).map_err(|_| errno())
    }

    /// `shutdown(SHUT_WR)`: the graceful shutdown (RFC 9260 §9.2) once queued data is acked.
    pub fn shutdown(&mut self, _stack: &mut Stack) -> Result<(), i32> {
        // SAFETY: valid socket.
        let rc = unsafe { ffi::usrsctp_shutdown(self.so, ffi::SHUT_WR) };
        if rc != 0 {
            return Err(errno());
        }
        Ok(())
    }

    /// Everything the socket has to report now (messages and notifications).
    pub fn poll(&mut self, _stack: &mut Stack) -> Vec<UsrEvent> {
        let mut out = Vec::new();
        if self.so.is_null() {
            return out;
        }
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let mut info = ffi::RcvInfo::default();
            let mut infolen = core::mem::size_of::<ffi::RcvInfo>() as u32;
            let mut infotype: core::ffi::c_uint = 0;
            let mut flags: c_int = 0;
            // SAFETY: valid socket; every out-pointer refers to a live local of the right size.
            let n = unsafe {
                ffi::usrsctp_recvv(
                    self.so,
                    buf.as_mut_ptr() as *mut c_void,
                    buf.len(),
                    core::ptr::null_mut(),
                    core::ptr::null_mut(),
                    &mut info as *mut ffi::RcvInfo as *mut c_void,
                    &mut infolen,
                    &mut infotype,
                    &mut flags,
                )
            };
            if n < 0 {
                break;
            }
            if n == 0 {
                out.push(UsrEvent::Eof);
                break;
            }
            let chunk = &buf[..n as usize];
            let eor = flags & ffi::MSG_EOR != 0;
            if flags & ffi::MSG_NOTIFICATION != 0 {
                self.partial_note.extend_from_slice(chunk);
                if eor {
                    let note = std::mem::take(&mut self.partial_note);
                    if let Some(e) = parse_notification(&note) {
                        out.push(e);
                    }
                }
                continue;
            }
            self.partial.extend_from_slice(chunk);
            if infotype == ffi::SCTP_RECVV_RCVINFO {
                self.partial_info.get_or_insert(info);
            }
            if eor {
                let info = self.partial_info.take().unwrap_or(info);
                out.push(UsrEvent::Message {
                    stream: info.rcv_sid,
                    unordered: info.rcv_flags & ffi::SCTP_UNORDERED != 0,
                    ppid: info.rcv_ppid,
                    data: std::mem::take(&mut self.partial),
                });
            }
        }
        out
    }

    /// Closes the socket(s).
    pub fn close(self) {
        // SAFETY: the sockets are valid and closed once (self is consumed).
        unsafe {
            if !self.so.is_null() {
                ffi::usrsctp_close(self.so);
            }
            if let Some(l) = self.listener {
                ffi::usrsctp_close(l);
            }
        }
    }
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_ne_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_ne_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// A notification (host byte order, the layouts of usrsctp.h).
fn parse_notification(b: &[u8]) -> Option<UsrEvent> {
    match u16_at(b, 0)? {
        ffi::SCTP_ASSOC_CHANGE => Some(UsrEvent::AssocChange(u16_at(b, 8)?)),
        ffi::SCTP_SHUTDOWN_EVENT => Some(UsrEvent::PeerShutdown),
        ffi::SCTP_SEND_FAILED_EVENT => {
            // struct sctp_send_failed_event: type, flags, length (u32), error (u32), sndinfo
            // at 12 (sid first), assoc id at 28, data from 32.
            let flags = u16_at(b, 2)?;
            let len = (u32_at(b, 4)? as usize).min(b.len());
            Some(UsrEvent::SendFailed {
                unsent: flags & 0x0001 != 0,
                stream: u16_at(b, 12)?,
                data: b.get(32..len).unwrap_or_default().to_vec(),
            })
        }
        _ => None,
    }
}
