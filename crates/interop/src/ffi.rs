//! Hand-written declarations of the few usrsctp 0.9.5 functions, structures and constants the
//! harness uses (from `/usr/include/usrsctp.h`, Debian `libusrsctp-dev` 0.9.5.0-2; no bindgen,
//! so no libclang at build time). Layouts are the Linux ones (`sockaddr_conn` without a length
//! byte); sizes were checked against the header with `sizeof`/`offsetof` (see the unit test
//! `layouts` for the values).

#![allow(unsafe_code)]

use core::ffi::{c_char, c_int, c_uint, c_void};

/// `AF_CONN`: usrsctp's address family for packets handed over in memory.
pub const AF_CONN: c_int = 123;
/// `SOCK_STREAM`: a one-to-one socket (RFC 6458 §4).
pub const SOCK_STREAM: c_int = 1;
/// `IPPROTO_SCTP`, also the level of SCTP socket options.
pub const IPPROTO_SCTP: c_int = 132;

/// Socket option: `struct sctp_initmsg`.
pub const SCTP_INITMSG: c_int = 0x03;
/// Socket option: disable Nagle.
pub const SCTP_NODELAY: c_int = 0x04;
/// Socket option: `struct sctp_event` (RFC 6458 §6.2.1).
pub const SCTP_EVENT: c_int = 0x1e;
/// Socket option: deliver `struct sctp_rcvinfo` with each message (RFC 6458 §8.1.29).
pub const SCTP_RECVRCVINFO: c_int = 0x1f;

/// Notification types (RFC 6458 §6.1).
pub const SCTP_ASSOC_CHANGE: u16 = 0x0001;
/// SCTP_SHUTDOWN_EVENT.
pub const SCTP_SHUTDOWN_EVENT: u16 = 0x0005;
/// SCTP_SEND_FAILED_EVENT.
pub const SCTP_SEND_FAILED_EVENT: u16 = 0x000e;
/// `sac_state` values.
pub const SCTP_COMM_UP: u16 = 1;
/// Association lost.
pub const SCTP_COMM_LOST: u16 = 2;
/// Peer restarted.
pub const SCTP_RESTART: u16 = 3;
/// Graceful shutdown finished.
pub const SCTP_SHUTDOWN_COMP: u16 = 4;
/// Association could not be set up.
pub const SCTP_CANT_STR_ASSOC: u16 = 5;

/// `snd_flags` / `rcv_flags`: unordered delivery.
pub const SCTP_UNORDERED: u16 = 0x0400;
/// `snd_flags`: send an ABORT.
pub const SCTP_ABORT: u16 = 0x0200;
/// `sendv` info types.
pub const SCTP_SENDV_SPA: c_uint = 4;
/// `sendv_flags` bits.
pub const SCTP_SEND_SNDINFO_VALID: u32 = 1;
/// PR-SCTP info valid.
pub const SCTP_SEND_PRINFO_VALID: u32 = 2;
/// RFC 6458 §5.3.7: timed reliability (RFC 3758 §4), `pr_value` in milliseconds.
pub const SCTP_PR_SCTP_TTL: u16 = 0x0001;
/// `recvv` info type: `struct sctp_rcvinfo`.
pub const SCTP_RECVV_RCVINFO: c_uint = 1;
/// `msg_flags`: the message is a notification.
pub const MSG_NOTIFICATION: c_int = 0x2000;
/// `msg_flags`: end of record (the message is complete).
pub const MSG_EOR: c_int = 0x80;
/// `usrsctp_shutdown` how: no more sending (starts the graceful shutdown).
pub const SHUT_WR: c_int = 1;
/// errno values (Linux).
pub const EINPROGRESS: c_int = 115;
/// EWOULDBLOCK == EAGAIN on Linux.
pub const EWOULDBLOCK: c_int = 11;

/// Opaque `struct socket`.
#[repr(C)]
pub struct Socket {
    _private: [u8; 0],
}

/// `struct sockaddr_conn` (Linux layout, 16 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct SockaddrConn {
    /// `AF_CONN`.
    pub sconn_family: u16,
    /// Port, network byte order.
    pub sconn_port: u16,
    /// The opaque address registered with `usrsctp_register_address`.
    pub sconn_addr: *mut c_void,
}

/// `struct sctp_sndinfo` (16 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct SndInfo {
    /// Stream.
    pub snd_sid: u16,
    /// `SCTP_UNORDERED`, `SCTP_ABORT`, ...
    pub snd_flags: u16,
    /// Payload protocol identifier, put on the wire as given (network order is the caller's).
    pub snd_ppid: u32,
    /// Opaque context.
    pub snd_context: u32,
    /// Association (ignored on one-to-one sockets).
    pub snd_assoc_id: u32,
}

/// `struct sctp_prinfo` (8 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct PrInfo {
    /// Policy (`SCTP_PR_SCTP_TTL`).
    pub pr_policy: u16,
    /// Lifetime in ms for TTL.
    pub pr_value: u32,
}

/// `struct sctp_sendv_spa` (32 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct SendvSpa {
    /// Which of the parts are valid.
    pub sendv_flags: u32,
    /// Send info.
    pub sendv_sndinfo: SndInfo,
    /// PR-SCTP info.
    pub sendv_prinfo: PrInfo,
    /// `struct sctp_authinfo` (unused).
    pub sendv_authinfo: u16,
}

/// `struct sctp_rcvinfo` (28 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct RcvInfo {
    /// Stream.
    pub rcv_sid: u16,
    /// Stream sequence number.
    pub rcv_ssn: u16,
    /// `SCTP_UNORDERED`.
    pub rcv_flags: u16,
    /// PPID as on the wire.
    pub rcv_ppid: u32,
    /// TSN.
    pub rcv_tsn: u32,
    /// Cumulative TSN.
    pub rcv_cumtsn: u32,
    /// Context.
    pub rcv_context: u32,
    /// Association.
    pub rcv_assoc_id: u32,
}

/// `struct sctp_initmsg` (8 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct InitMsg {
    /// Requested outbound streams.
    pub sinit_num_ostreams: u16,
    /// Maximum inbound streams.
    pub sinit_max_instreams: u16,
    /// Max.Init.Retransmits (0: default).
    pub sinit_max_attempts: u16,
    /// Max init timeout (0: default).
    pub sinit_max_init_timeo: u16,
}

/// `struct sctp_event` (8 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct Event {
    /// Association (0: the socket's, future ones).
    pub se_assoc_id: u32,
    /// Notification type.
    pub se_type: u16,
    /// 1: subscribe.
    pub se_on: u8,
}

/// Socket option: `struct sctp_assoc_value`, which stream reconfiguration requests of the
/// peer to accept (RFC 6525 §6.3.1).
pub const SCTP_ENABLE_STREAM_RESET: c_int = 0x900;
/// Socket option: `int` fragment interleave level; I-DATA needs level 2
/// (`SCTP_FRAG_LEVEL_2`, usrsctp `usrsctp.h`).
pub const SCTP_FRAGMENT_INTERLEAVE: c_int = 0x10;
/// Socket option: `struct sctp_assoc_value`, I-DATA (RFC 8260) offered and accepted (FreeBSD's
/// `sctp.h` value; Debian's 0.9.5 `usrsctp.h` does not define it).
pub const SCTP_INTERLEAVING_SUPPORTED: c_int = 0x1206;
/// Socket option: `struct sctp_reset_streams` (RFC 6525 §6.3.2).
pub const SCTP_RESET_STREAMS: c_int = 0x901;
/// `SCTP_ENABLE_STREAM_RESET` bits: SSN reset, SSN/TSN reset, add streams requests.
pub const SCTP_ENABLE_VALUE_MASK: u32 = 0x07;
/// `srs_flags`: reset our outgoing streams.
pub const SCTP_STREAM_RESET_OUTGOING: u16 = 0x0002;

/// `struct sctp_assoc_value` (8 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct AssocValue {
    /// Association (0: SCTP_FUTURE_ASSOC).
    pub assoc_id: u32,
    /// The value.
    pub assoc_value: u32,
}

/// `struct sctp_reset_streams` with room for up to 2 stream numbers (the header is 8 bytes;
/// `srs_number_streams` 0 means all streams).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct ResetStreams {
    /// Association (ignored on a one-to-one socket).
    pub srs_assoc_id: u32,
    /// `SCTP_STREAM_RESET_OUTGOING` and/or `_INCOMING`.
    pub srs_flags: u16,
    /// Streams listed (0: all).
    pub srs_number_streams: u16,
    /// The streams.
    pub srs_stream_list: [u16; 2],
}

/// Words in `struct sctpstat` (all `uint32_t`, the first two a `struct sctp_timeval`).
pub const SCTPSTAT_WORDS: usize = 166;
/// Word index of `sctps_currestab` (gauge of associations in ESTABLISHED/SHUTDOWN-RECEIVED).
pub const STAT_CURRESTAB: usize = 2;
/// `sctps_outoftheblue`.
pub const STAT_OUTOFTHEBLUE: usize = 9;
/// `sctps_checksumerrors` (RFC 3873 sctpStats 7).
pub const STAT_CHECKSUMERRORS: usize = 10;
/// `sctps_recvpackets`.
pub const STAT_RECVPACKETS: usize = 21;
/// `sctps_recvdupdata`.
pub const STAT_RECVDUPDATA: usize = 26;
/// `sctps_sendpackets`.
pub const STAT_SENDPACKETS: usize = 40;
/// `sctps_sendretransdata`.
pub const STAT_SENDRETRANSDATA: usize = 43;
/// `sctps_sendfastretrans`.
pub const STAT_SENDFASTRETRANS: usize = 44;
/// `sctps_timodata` (T3-rtx expiries).
pub const STAT_TIMODATA: usize = 68;
/// `sctps_hdrops`: packet shorter than the header.
pub const STAT_HDROPS: usize = 97;
/// `sctps_badsum`: CRC32c error.
pub const STAT_BADSUM: usize = 98;
/// `sctps_badvtag`.
pub const STAT_BADVTAG: usize = 100;
/// `sctps_badsid`: DATA for a stream that does not exist.
pub const STAT_BADSID: usize = 101;

/// `struct sctpstat` as an array of words.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct SctpStat {
    /// The counters.
    pub words: [u32; SCTPSTAT_WORDS],
}

/// The conn_output callback: usrsctp hands over each packet it sends.
pub type ConnOutput = extern "C" fn(
    addr: *mut c_void,
    buffer: *mut c_void,
    length: usize,
    tos: u8,
    set_df: u8,
) -> c_int;

// The usrsctp functions used, with the signatures of usrsctp.h (documented there).
#[allow(missing_docs)]
#[link(name = "usrsctp")]
extern "C" {
    pub fn usrsctp_init_nothreads(
        port: u16,
        conn_output: Option<ConnOutput>,
        debug_printf: Option<unsafe extern "C" fn(format: *const c_char, ...)>,
    );
    pub fn usrsctp_socket(
        domain: c_int,
        ty: c_int,
        protocol: c_int,
        receive_cb: *const c_void,
        send_cb: *const c_void,
        sb_threshold: u32,
        ulp_info: *mut c_void,
    ) -> *mut Socket;
    pub fn usrsctp_setsockopt(
        so: *mut Socket,
        level: c_int,
        name: c_int,
        value: *const c_void,
        len: u32,
    ) -> c_int;
    pub fn usrsctp_bind(so: *mut Socket, name: *const SockaddrConn, len: u32) -> c_int;
    pub fn usrsctp_listen(so: *mut Socket, backlog: c_int) -> c_int;
    pub fn usrsctp_accept(so: *mut Socket, name: *mut c_void, len: *mut u32) -> *mut Socket;
    pub fn usrsctp_connect(so: *mut Socket, name: *const SockaddrConn, len: u32) -> c_int;
    pub fn usrsctp_set_non_blocking(so: *mut Socket, on: c_int) -> c_int;
    pub fn usrsctp_sendv(
        so: *mut Socket,
        data: *const c_void,
        len: usize,
        to: *const c_void,
        addrcnt: c_int,
        info: *const c_void,
        infolen: u32,
        infotype: c_uint,
        flags: c_int,
    ) -> isize;
    pub fn usrsctp_recvv(
        so: *mut Socket,
        dbuf: *mut c_void,
        len: usize,
        from: *mut c_void,
        fromlen: *mut u32,
        info: *mut c_void,
        infolen: *mut u32,
        infotype: *mut c_uint,
        msg_flags: *mut c_int,
    ) -> isize;
    pub fn usrsctp_shutdown(so: *mut Socket, how: c_int) -> c_int;
    pub fn usrsctp_close(so: *mut Socket);
    pub fn usrsctp_conninput(addr: *mut c_void, buffer: *const c_void, len: usize, ecn: u8);
    pub fn usrsctp_register_address(addr: *mut c_void);
    pub fn usrsctp_handle_timers(elapsed_ms: u32);
    pub fn usrsctp_get_stat(stat: *mut SctpStat);
    pub fn usrsctp_sysctl_set_sctp_auth_enable(v: u32) -> c_int;
    pub fn usrsctp_sysctl_set_sctp_asconf_enable(v: u32) -> c_int;
    pub fn usrsctp_sysctl_set_sctp_ecn_enable(v: u32) -> c_int;
    pub fn usrsctp_sysctl_set_sctp_reconfig_enable(v: u32) -> c_int;
    pub fn usrsctp_sysctl_set_sctp_nrsack_enable(v: u32) -> c_int;
    pub fn usrsctp_sysctl_set_sctp_pktdrop_enable(v: u32) -> c_int;
    pub fn usrsctp_sysctl_set_sctp_pr_enable(v: u32) -> c_int;
    pub fn usrsctp_sysctl_set_sctp_blackhole(v: u32) -> c_int;
    pub fn usrsctp_sysctl_get_sctp_rto_min_default() -> u32;
    pub fn usrsctp_sysctl_get_sctp_rto_max_default() -> u32;
    pub fn usrsctp_sysctl_get_sctp_rto_initial_default() -> u32;
    pub fn usrsctp_sysctl_get_sctp_delayed_sack_time_default() -> u32;
    pub fn usrsctp_sysctl_get_sctp_heartbeat_interval_default() -> u32;
    pub fn usrsctp_sysctl_get_sctp_init_rtx_max_default() -> u32;
    pub fn usrsctp_sysctl_get_sctp_max_burst_default() -> u32;
    pub fn usrsctp_sysctl_get_sctp_sack_freq_default() -> u32;
    pub fn usrsctp_sysctl_get_sctp_valid_cookie_life_default() -> u32;
    pub fn usrsctp_sysctl_get_sctp_initial_cwnd() -> u32;
    pub fn usrsctp_sysctl_get_sctp_path_pf_threshold() -> u32;
    pub fn usrsctp_sysctl_get_sctp_no_csum_on_loopback() -> u32;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sizes measured with `sizeof` against usrsctp.h 0.9.5 on x86-64 Linux.
    #[test]
    fn layouts() {
        assert_eq!(core::mem::size_of::<SockaddrConn>(), 16);
        assert_eq!(core::mem::size_of::<SndInfo>(), 16);
        assert_eq!(core::mem::size_of::<PrInfo>(), 8);
        assert_eq!(core::mem::size_of::<SendvSpa>(), 32);
        assert_eq!(core::mem::offset_of!(SendvSpa, sendv_prinfo), 20);
        assert_eq!(core::mem::size_of::<RcvInfo>(), 28);
        assert_eq!(core::mem::size_of::<InitMsg>(), 8);
        assert_eq!(core::mem::size_of::<Event>(), 8);
        assert_eq!(core::mem::size_of::<AssocValue>(), 8);
        assert_eq!(core::mem::offset_of!(ResetStreams, srs_stream_list), 8);
        assert_eq!(core::mem::size_of::<SctpStat>(), SCTPSTAT_WORDS * 4);
    }
}
