//! System calls of a one-to-one style (`SOCK_STREAM`) SCTP socket, mapped to the endpoint and
//! association API, with the return values and errno packetdrill expects (Linux numbering).
//!
//! | call | effect |
//! |---|---|
//! | `socket(..., SOCK_STREAM, IPPROTO_SCTP)` | a socket on the one endpoint |
//! | `bind(fd, ..., ...)` | the endpoint's address and `--bind_port` |
//! | `listen(fd, n)` | `SctpEndpoint::listen(true)` |
//! | `accept(fd, ..., ...)` | the oldest association the endpoint created and nobody took |
//! | `connect` / `sctp_connectx(fd, ..., ...)` | `SctpEndpoint::connect` to the test peer; `-1 EINPROGRESS` on a non-blocking socket |
//! | `close(fd)` | listener: stop listening; association: `shutdown`, or `abort` if unread data remains |
//! | `shutdown(fd, SHUT_WR or SHUT_RDWR)` | `SctpAssociation::shutdown` |
//! | `fcntl(fd, F_GETFL)` / `fcntl(fd, F_SETFL, flags)` | `O_RDWR`, `O_NONBLOCK` |
//! | `read(fd, ..., n)` | one message (or the rest of one), 0 at end of stream |
//! | `write(fd, ..., n)` | one message of `n` bytes on the default stream and PPID (SCTP_DEFAULT_SNDINFO; 0 and 0) |
//! | `getsockopt`: `SO_ERROR`, `SCTP_STATUS` | pending error; association status |
//! | `setsockopt`: `SCTP_RTOINFO`, `SCTP_INITMSG`, `SCTP_PEER_ADDR_PARAMS` | `set_rto`, the endpoint's configuration, `set_path_params` / `set_path_mtu` |
//! | other options (`SCTP_ASSOCINFO`, `SCTP_DELAYED_SACK`, `SO_LINGER`, ...) | [`crate::sockopts`] |
//!
//! A call that would block (a blocking `read`, `accept` or `connect` with nothing to return) is
//! reported as a failure: packetdrill scripts give such calls an end time, which this runner
//! does not support.

use sctpsim_kernel::SimDuration;
use sctpsim_proto::transport::sctp::{SendError, State};

use crate::ast::{Expr, Syscall};
use crate::executor::{slot_assoc, Executor, PdState, Slot, SockKind, Socket};

/// errno values (Linux numbering; packetdrill compares them by name).
pub mod errno {
    /// Resource temporarily unavailable (also EWOULDBLOCK).
    pub const EAGAIN: i32 = 11;
    /// Bad file descriptor.
    pub const EBADF: i32 = 9;
    /// Invalid argument.
    pub const EINVAL: i32 = 22;
    /// Broken pipe.
    pub const EPIPE: i32 = 32;
    /// Message too long.
    pub const EMSGSIZE: i32 = 90;
    /// Protocol not available.
    pub const ENOPROTOOPT: i32 = 92;
    /// Operation not supported.
    pub const EOPNOTSUPP: i32 = 95;
    /// Software caused connection abort.
    pub const ECONNABORTED: i32 = 103;
    /// Connection reset by peer.
    pub const ECONNRESET: i32 = 104;
    /// Transport endpoint is already connected.
    pub const EISCONN: i32 = 106;
    /// Transport endpoint is not connected.
    pub const ENOTCONN: i32 = 107;
    /// Cannot send after transport endpoint shutdown.
    pub const ESHUTDOWN: i32 = 108;
    /// Connection timed out.
    pub const ETIMEDOUT: i32 = 110;
    /// Connection refused.
    pub const ECONNREFUSED: i32 = 111;
    /// Operation now in progress.
    pub const EINPROGRESS: i32 = 115;

    /// The value of an errno name, `None` if unknown.
    pub fn by_name(name: &str) -> Option<i32> {
        Some(match name {
            "EPERM" => 1,
            "ENOENT" => 2,
            "EINTR" => 4,
            "EIO" => 5,
            "EBADF" => EBADF,
            "EAGAIN" | "EWOULDBLOCK" => EAGAIN,
            "ENOMEM" => 12,
            "EACCES" => 13,
            "EFAULT" => 14,
            "EBUSY" => 16,
            "EINVAL" => EINVAL,
            "EPIPE" => EPIPE,
            "ENOTSOCK" => 88,
            "EDESTADDRREQ" => 89,
            "EMSGSIZE" => EMSGSIZE,
            "EPROTOTYPE" => 91,
            "ENOPROTOOPT" => ENOPROTOOPT,
            "EPROTONOSUPPORT" => 93,
            "EOPNOTSUPP" => EOPNOTSUPP,
            "EAFNOSUPPORT" => 97,
            "EADDRINUSE" => 98,
            "EADDRNOTAVAIL" => 99,
            "ENETDOWN" => 100,
            "ENETUNREACH" => 101,
            "ECONNABORTED" => ECONNABORTED,
            "ECONNRESET" => ECONNRESET,
            "ENOBUFS" => 105,
            "EISCONN" => EISCONN,
            "ENOTCONN" => ENOTCONN,
            "ESHUTDOWN" => ESHUTDOWN,
            "ETIMEDOUT" => ETIMEDOUT,
            "ECONNREFUSED" => ECONNREFUSED,
            "EHOSTUNREACH" => 113,
            "EALREADY" => 114,
            "EINPROGRESS" => EINPROGRESS,
            _ => return None,
        })
    }

    /// The name of an errno value.
    pub fn name(v: i32) -> &'static str {
        match v {
            0 => "0",
            1 => "EPERM",
            2 => "ENOENT",
            4 => "EINTR",
            5 => "EIO",
            EBADF => "EBADF",
            EAGAIN => "EAGAIN",
            12 => "ENOMEM",
            13 => "EACCES",
            14 => "EFAULT",
            16 => "EBUSY",
            EINVAL => "EINVAL",
            EPIPE => "EPIPE",
            88 => "ENOTSOCK",
            89 => "EDESTADDRREQ",
            EMSGSIZE => "EMSGSIZE",
            91 => "EPROTOTYPE",
            ENOPROTOOPT => "ENOPROTOOPT",
            93 => "EPROTONOSUPPORT",
            EOPNOTSUPP => "EOPNOTSUPP",
            97 => "EAFNOSUPPORT",
            98 => "EADDRINUSE",
            99 => "EADDRNOTAVAIL",
            100 => "ENETDOWN",
            101 => "ENETUNREACH",
            ECONNABORTED => "ECONNABORTED",
            ECONNRESET => "ECONNRESET",
            105 => "ENOBUFS",
            EISCONN => "EISCONN",
            ENOTCONN => "ENOTCONN",
            ESHUTDOWN => "ESHUTDOWN",
            ETIMEDOUT => "ETIMEDOUT",
            ECONNREFUSED => "ECONNREFUSED",
            113 => "EHOSTUNREACH",
            114 => "EALREADY",
            EINPROGRESS => "EINPROGRESS",
            _ => "E?",
        }
    }
}

/// The largest message `write` builds (16 MiB): far above any SCTP send buffer the model
/// uses, small enough that a script cannot make the runner allocate without bound.
const MAX_WRITE_BYTES: usize = 1 << 24;

/// Numeric constants a script may use (Linux values where they differ between systems).
fn symbol(name: &str) -> Option<i64> {
    Some(match name {
        "AF_INET" | "PF_INET" => 2,
        "AF_INET6" | "PF_INET6" => 10,
        "SOCK_STREAM" => 1,
        "SOCK_DGRAM" => 2,
        "SOCK_SEQPACKET" => 5,
        "IPPROTO_IP" => 0,
        "IPPROTO_TCP" => 6,
        "IPPROTO_UDP" => 17,
        "IPPROTO_SCTP" => 132,
        "SOL_SOCKET" => 1,
        "SOL_SCTP" => 132,
        "SO_ERROR" => 4,
        "F_GETFL" => 3,
        "F_SETFL" => 4,
        "O_RDONLY" => 0,
        "O_WRONLY" => 1,
        "O_RDWR" => 2,
        "O_NONBLOCK" => 0o4000,
        "SHUT_RD" => 0,
        "SHUT_WR" => 1,
        "SHUT_RDWR" => 2,
        "SCTP_RTOINFO" => 0,
        "SCTP_ASSOCINFO" => 1,
        "SCTP_INITMSG" => 2,
        "SCTP_NODELAY" => 3,
        "SCTP_PEER_ADDR_PARAMS" => 9,
        "SCTP_STATUS" => 14,
        "SCTP_DEFAULT_SEND_PARAM" => 10,
        "SCTP_EVENTS" => 11,
        "SCTP_MAXSEG" => 13,
        "SCTP_DELAYED_SACK" | "SCTP_DELAYED_ACK" | "SCTP_DELAYED_ACK_TIME" => 16,
        "SCTP_DEFAULT_SNDINFO" => 34,
        "SCTP_EVENT" => 127,
        "SO_LINGER" => 13,
        "SCTP_UNORDERED" => 1,
        // Notification types (Linux: SCTP_SN_TYPE_BASE = 1 << 15).
        "SCTP_DATA_IO_EVENT" => 0x8000,
        "SCTP_ASSOC_CHANGE" => 0x8001,
        "SCTP_PEER_ADDR_CHANGE" => 0x8002,
        "SCTP_SEND_FAILED" => 0x8003,
        "SCTP_REMOTE_ERROR" => 0x8004,
        "SCTP_SHUTDOWN_EVENT" => 0x8005,
        "SCTP_PARTIAL_DELIVERY_EVENT" => 0x8006,
        "SCTP_ADAPTATION_INDICATION" => 0x8007,
        "SCTP_AUTHENTICATION_EVENT" => 0x8008,
        "SCTP_SENDER_DRY_EVENT" => 0x8009,
        "SPP_HB_ENABLE" => 1,
        "SPP_HB_DISABLE" => 2,
        "SPP_HB_DEMAND" => 4,
        "SPP_PMTUD_ENABLE" => 8,
        "SPP_PMTUD_DISABLE" => 16,
        "SPP_SACKDELAY_ENABLE" => 32,
        "SPP_SACKDELAY_DISABLE" => 64,
        "SPP_HB_TIME_IS_ZERO" => 128,
        "SCTP_CLOSED" => 1,
        "SCTP_COOKIE_WAIT" => 2,
        "SCTP_COOKIE_ECHOED" => 3,
        "SCTP_ESTABLISHED" => 4,
        "SCTP_SHUTDOWN_PENDING" => 5,
        "SCTP_SHUTDOWN_SENT" => 6,
        "SCTP_SHUTDOWN_RECEIVED" => 7,
        "SCTP_SHUTDOWN_ACK_SENT" => 8,
        _ => return crate::reconfig::symbol(name).or_else(|| errno::by_name(name).map(i64::from)),
    })
}

/// The value of an integer expression; `Ok(None)` for `...`.
pub(crate) fn eval(e: &Expr) -> Result<Option<i64>, String> {
    match e {
        Expr::Ellipsis => Ok(None),
        Expr::Int(v) => Ok(Some(*v)),
        Expr::Symbol(s) => symbol(s)
            .map(Some)
            .ok_or_else(|| format!("unsupported: symbol `{s}`")),
        Expr::Or(parts) => {
            let mut v = 0i64;
            for p in parts {
                v |= eval(p)?.ok_or("`...` inside `|`")?;
            }
            Ok(Some(v))
        }
        Expr::Array(items) if items.len() == 1 => eval(&items[0]),
        other => Err(format!(
            "unsupported: expression {other:?} where a number is expected"
        )),
    }
}

fn state_code(s: State) -> i64 {
    match s {
        State::Closed => 1,
        State::CookieWait => 2,
        State::CookieEchoed => 3,
        State::Established => 4,
        State::ShutdownPending => 5,
        State::ShutdownSent => 6,
        State::ShutdownReceived => 7,
        State::ShutdownAckSent => 8,
    }
}

/// What a call returned.
pub(crate) struct Ret {
    pub(crate) value: i64,
    pub(crate) errno: i32,
}

pub(crate) fn ok(value: i64) -> Result<Ret, String> {
    Ok(Ret { value, errno: 0 })
}

pub(crate) fn fail(errno: i32) -> Result<Ret, String> {
    Ok(Ret { value: -1, errno })
}

pub(crate) fn arg(c: &Syscall, i: usize) -> Result<&Expr, String> {
    c.args
        .get(i)
        .ok_or_else(|| format!("{}: expected at least {} arguments", c.name, i + 1))
}

pub(crate) fn int_arg(c: &Syscall, i: usize) -> Result<i64, String> {
    eval(arg(c, i)?)?.ok_or_else(|| format!("{}: argument {} cannot be `...`", c.name, i + 1))
}

fn ellipsis_arg(c: &Syscall, i: usize, what: &str) -> Result<(), String> {
    match c.args.get(i) {
        None | Some(Expr::Ellipsis) => Ok(()),
        Some(_) => Err(format!(
            "unsupported: {} with an explicit {what} (only `...`: the test addresses)",
            c.name
        )),
    }
}

pub(crate) fn struct_fields<'a>(e: &'a Expr, what: &str) -> Result<&'a [(String, Expr)], String> {
    match e {
        Expr::Struct(f) => Ok(f),
        _ => Err(format!("{what}: expected a `{{...}}` structure")),
    }
}

pub(crate) fn check_fields(
    fields: &[(String, Expr)],
    allowed: &[&str],
    what: &str,
) -> Result<(), String> {
    for (n, _) in fields {
        if !allowed.contains(&n.as_str()) {
            return Err(format!("unsupported: field `{n}` of {what}"));
        }
    }
    Ok(())
}

pub(crate) fn field_value(fields: &[(String, Expr)], name: &str) -> Result<Option<i64>, String> {
    match fields.iter().find(|(n, _)| n == name) {
        None => Ok(None),
        Some((_, e)) => eval(e),
    }
}

impl Executor {
    pub(crate) fn syscall(&mut self, c: &Syscall) -> Result<(), String> {
        if c.end_time.is_some() {
            return Err(format!(
                "unsupported: blocking {} with an end time (`...` before the call)",
                c.name
            ));
        }
        let expected = eval(&c.result)?;
        let ret = match c.name.as_str() {
            "socket" => self.sys_socket(c, expected)?,
            "bind" => self.sys_bind(c)?,
            "listen" => self.sys_listen(c)?,
            "accept" => self.sys_accept(c, expected)?,
            "connect" | "sctp_connectx" => self.sys_connect(c)?,
            "close" => self.sys_close(c)?,
            "shutdown" => self.sys_shutdown(c)?,
            "fcntl" => self.sys_fcntl(c)?,
            "read" => self.sys_read(c)?,
            "write" => self.sys_write(c)?,
            "getsockopt" => self.sys_getsockopt(c)?,
            "setsockopt" => self.sys_setsockopt(c)?,
            other => return Err(format!("unsupported: system call `{other}`")),
        };
        self.trace.push(format!(
            "{}.{:06} {}(...) = {}{}",
            self.now.0 / 1_000_000_000,
            (self.now.0 % 1_000_000_000) / 1000,
            c.name,
            ret.value,
            if ret.value < 0 {
                format!(" {}", errno::name(ret.errno))
            } else {
                String::new()
            }
        ));
        if let Some(e) = expected {
            let matches = if matches!(c.name.as_str(), "socket" | "accept") && e >= 0 {
                ret.value >= 0
            } else {
                ret.value == e
            };
            if !matches {
                return Err(if ret.value < 0 {
                    format!(
                        "{}: expected result {e} but got {} with errno {} ({})",
                        c.name,
                        ret.value,
                        ret.errno,
                        errno::name(ret.errno)
                    )
                } else {
                    format!("{}: expected result {e} but got {}", c.name, ret.value)
                });
            }
        }
        if let (Some(name), true) = (&c.errno, ret.value < 0) {
            let want = errno::by_name(name).ok_or_else(|| format!("unknown errno `{name}`"))?;
            if want != ret.errno {
                return Err(format!(
                    "{}: expected errno {name} ({want}) but got {} ({})",
                    c.name,
                    errno::name(ret.errno),
                    ret.errno
                ));
            }
        }
        Ok(())
    }

    fn socket(&self, c: &Syscall) -> Result<(i64, Socket), String> {
        let fd = int_arg(c, 0)?;
        self.sockets
            .get(&fd)
            .cloned()
            .map(|s| (fd, s))
            .ok_or_else(|| format!("{}: fd {fd} is not an open socket", c.name))
    }

    fn assoc_index(&self, c: &Syscall) -> Result<Option<usize>, String> {
        let (_, s) = self.socket(c)?;
        Ok(match s.kind {
            SockKind::Assoc(i) => Some(i),
            _ => None,
        })
    }

    fn sys_socket(&mut self, c: &Syscall, expected: Option<i64>) -> Result<Ret, String> {
        match eval(arg(c, 0)?)? {
            None | Some(2) => {}
            Some(_) => return Err("unsupported: socket domain other than AF_INET".into()),
        }
        match eval(arg(c, 1)?)? {
            Some(1) => {}
            Some(5) => {
                return Err("unsupported: one-to-many style sockets (SOCK_SEQPACKET)".into());
            }
            _ => return Err("unsupported: socket type other than SOCK_STREAM".into()),
        }
        if eval(arg(c, 2)?)? != Some(132) {
            return Err("unsupported: socket protocol other than IPPROTO_SCTP".into());
        }
        if !self.sockets.is_empty() {
            return Err(
                "unsupported: more than one socket() (the runner models one endpoint)".into(),
            );
        }
        let fd = expected.filter(|v| *v >= 0).unwrap_or(3);
        self.sockets.insert(
            fd,
            Socket {
                nonblocking: false,
                kind: SockKind::Fresh,
            },
        );
        ok(fd)
    }

    fn sys_bind(&mut self, c: &Syscall) -> Result<Ret, String> {
        self.socket(c)?;
        ellipsis_arg(c, 1, "address")?;
        ellipsis_arg(c, 2, "address length")?;
        ok(0)
    }

    fn sys_listen(&mut self, c: &Syscall) -> Result<Ret, String> {
        let (fd, s) = self.socket(c)?;
        if s.kind != SockKind::Fresh && s.kind != SockKind::Listener {
            return fail(errno::EINVAL);
        }
        self.endpoint.listen(true);
        self.pd = PdState::Listening;
        if let Some(sock) = self.sockets.get_mut(&fd) {
            sock.kind = SockKind::Listener;
        }
        ok(0)
    }

    fn sys_accept(&mut self, c: &Syscall, expected: Option<i64>) -> Result<Ret, String> {
        let (_, s) = self.socket(c)?;
        ellipsis_arg(c, 1, "address")?;
        ellipsis_arg(c, 2, "address length")?;
        if s.kind != SockKind::Listener {
            return fail(errno::EINVAL);
        }
        let Some(i) = self.slots.iter().position(|sl| !sl.accepted) else {
            if s.nonblocking {
                return fail(errno::EAGAIN);
            }
            return Err(
                "accept would block: no association is waiting (blocking calls that wait are not supported)"
                    .into(),
            );
        };
        let fd = expected
            .filter(|v| *v >= 0 && !self.sockets.contains_key(v))
            .or_else(|| (0..).find(|f| !self.sockets.contains_key(f)))
            .unwrap_or(4);
        self.slots[i].accepted = true;
        self.sockets.insert(
            fd,
            Socket {
                nonblocking: false,
                kind: SockKind::Assoc(i),
            },
        );
        ok(fd)
    }

    fn sys_connect(&mut self, c: &Syscall) -> Result<Ret, String> {
        let (fd, s) = self.socket(c)?;
        ellipsis_arg(c, 1, "address")?;
        ellipsis_arg(c, 2, "address length")?;
        match s.kind {
            SockKind::Fresh => {}
            SockKind::Assoc(_) => return fail(errno::EISCONN),
            SockKind::Listener => return fail(errno::EINVAL),
        }
        if !s.nonblocking {
            return Err(
                "unsupported: connect on a blocking socket (it would wait for the handshake)"
                    .into(),
            );
        }
        self.remote_port = self.connect_port;
        let h = self
            .endpoint
            .connect(self.now, &[self.remote_ip], self.connect_port);
        self.slots.push(Slot::new(h, true));
        let i = self.slots.len() - 1;
        if let Some(sock) = self.sockets.get_mut(&fd) {
            sock.kind = SockKind::Assoc(i);
        }
        self.pd = PdState::ActiveConnecting;
        self.drain();
        fail(errno::EINPROGRESS)
    }

    fn sys_close(&mut self, c: &Syscall) -> Result<Ret, String> {
        let (fd, s) = self.socket(c)?;
        self.sockets.remove(&fd);
        let now = self.now;
        match s.kind {
            SockKind::Fresh => {}
            SockKind::Listener => {
                self.endpoint.listen(false);
                // Associations nobody accepted go with the listening socket.
                for sl in self.slots.iter_mut().filter(|sl| !sl.accepted) {
                    sl.accepted = true;
                    slot_assoc(&mut self.endpoint, sl)?.abort(now, b"");
                }
            }
            SockKind::Assoc(i) => {
                let sl = &self.slots[i];
                let unread = !sl.partial.is_empty();
                let a = slot_assoc(&mut self.endpoint, sl)?;
                if !a.is_closed() {
                    if a.readable() > 0 || unread || self.sock.linger_abort {
                        // Closing with unread data aborts (Linux and FreeBSD), and so does
                        // SO_LINGER with a zero linger time (RFC 6458 §8.1.4).
                        a.abort(now, b"");
                    } else {
                        a.shutdown(now);
                    }
                }
            }
        }
        self.drain();
        ok(0)
    }

    fn sys_shutdown(&mut self, c: &Syscall) -> Result<Ret, String> {
        let how = int_arg(c, 1)?;
        let Some(i) = self.assoc_index(c)? else {
            return fail(errno::ENOTCONN);
        };
        match how {
            0 => {}
            1 | 2 => {
                let now = self.now;
                slot_assoc(&mut self.endpoint, &self.slots[i])?.shutdown(now);
                self.drain();
            }
            _ => return fail(errno::EINVAL),
        }
        ok(0)
    }

    fn sys_fcntl(&mut self, c: &Syscall) -> Result<Ret, String> {
        let (fd, s) = self.socket(c)?;
        match int_arg(c, 1)? {
            3 => ok(2 | if s.nonblocking { 0o4000 } else { 0 }),
            4 => {
                let flags = int_arg(c, 2)?;
                if flags & !(0o4000 | 3) != 0 {
                    return Err(format!("unsupported: fcntl flags {flags:#x}"));
                }
                if let Some(sock) = self.sockets.get_mut(&fd) {
                    sock.nonblocking = flags & 0o4000 != 0;
                }
                ok(0)
            }
            other => Err(format!("unsupported: fcntl command {other}")),
        }
    }

    fn sys_read(&mut self, c: &Syscall) -> Result<Ret, String> {
        let (_, s) = self.socket(c)?;
        let n = usize::try_from(int_arg(c, 2)?).map_err(|_| "read: negative length")?;
        let SockKind::Assoc(i) = s.kind else {
            return fail(errno::ENOTCONN);
        };
        let sl = &mut self.slots[i];
        let a = slot_assoc(&mut self.endpoint, sl)?;
        if sl.partial.is_empty() {
            if let Some(msg) = a.recv() {
                sl.partial = msg.data;
                if sl.partial.is_empty() {
                    return ok(0);
                }
            }
        }
        if !sl.partial.is_empty() {
            let take = n.min(sl.partial.len());
            sl.partial.drain(..take);
            self.drain();
            return ok(take as i64);
        }
        if sl.so_error != 0 {
            let e = std::mem::take(&mut sl.so_error);
            return fail(e);
        }
        if sl.peer_shutdown || a.is_closed() {
            return ok(0);
        }
        if s.nonblocking {
            return fail(errno::EAGAIN);
        }
        Err("read would block: no data (blocking calls that wait are not supported)".into())
    }

    fn sys_write(&mut self, c: &Syscall) -> Result<Ret, String> {
        let (_, s) = self.socket(c)?;
        let n = usize::try_from(int_arg(c, 2)?).map_err(|_| "write: negative length")?;
        if n > MAX_WRITE_BYTES {
            // Found by the `script` fuzz target: the message is built in memory.
            return Err(format!(
                "unsupported: write of {n} bytes (the runner builds messages of at most {MAX_WRITE_BYTES} bytes)"
            ));
        }
        let SockKind::Assoc(i) = s.kind else {
            return fail(errno::ENOTCONN);
        };
        let now = self.now;
        let sl = &mut self.slots[i];
        let a = slot_assoc(&mut self.endpoint, sl)?;
        if a.is_closed() && sl.so_error != 0 {
            let e = std::mem::take(&mut sl.so_error);
            return fail(e);
        }
        let d = self.sock;
        let r = a.send(now, vec![0u8; n], d.sid, d.unordered, None, d.ppid);
        self.drain();
        match r {
            Ok(_) => ok(n as i64),
            Err(SendError::ShuttingDown) => fail(errno::ESHUTDOWN),
            Err(SendError::Closed) => fail(errno::EPIPE),
            Err(SendError::InvalidStream { .. }) | Err(SendError::Empty) => fail(errno::EINVAL),
            Err(SendError::TooLarge) => fail(errno::EMSGSIZE),
            Err(SendError::BufferFull) if s.nonblocking => fail(errno::EAGAIN),
            Err(SendError::BufferFull) => Err(
                "write would block: the send buffer is full (blocking calls that wait are not supported)"
                    .into(),
            ),
        }
    }

    fn sys_getsockopt(&mut self, c: &Syscall) -> Result<Ret, String> {
        let (_, s) = self.socket(c)?;
        let level = int_arg(c, 1)?;
        let opt = int_arg(c, 2)?;
        let idx = match s.kind {
            SockKind::Assoc(i) => Some(i),
            _ => None,
        };
        match (level, opt) {
            (1, 4) => {
                let actual = match idx {
                    Some(i) => std::mem::take(&mut self.slots[i].so_error),
                    None => 0,
                };
                let want = eval(arg(c, 3)?)?;
                if let Some(w) = want {
                    if w != i64::from(actual) {
                        return Err(format!(
                            "getsockopt SO_ERROR: expected {} ({w}) but got {} ({actual})",
                            errno::name(i32::try_from(w).unwrap_or(-1)),
                            errno::name(actual)
                        ));
                    }
                }
                ok(0)
            }
            (132, 14) => {
                let Some(i) = idx else {
                    return fail(errno::EINVAL);
                };
                let st = slot_assoc(&mut self.endpoint, &self.slots[i])?.status();
                let fields = struct_fields(arg(c, 3)?, "SCTP_STATUS")?;
                check_fields(
                    fields,
                    &[
                        "sstat_assoc_id",
                        "sstat_state",
                        "sstat_rwnd",
                        "sstat_unackdata",
                        "sstat_penddata",
                        "sstat_instrms",
                        "sstat_outstrms",
                        "sstat_fragmentation_point",
                        "sstat_primary",
                    ],
                    "SCTP_STATUS",
                )?;
                let frag = i64::from(
                    st.paths
                        .iter()
                        .map(|p| p.pmtu)
                        .min()
                        .unwrap_or(1500)
                        .saturating_sub(48),
                );
                let actual = [
                    ("sstat_state", state_code(st.state)),
                    ("sstat_rwnd", i64::from(st.peer_rwnd)),
                    ("sstat_unackdata", st.unacked_chunks as i64),
                    ("sstat_penddata", st.pending_messages as i64),
                    ("sstat_instrms", i64::from(st.inbound_streams)),
                    ("sstat_outstrms", i64::from(st.outbound_streams)),
                    ("sstat_fragmentation_point", frag),
                ];
                for (name, e) in fields {
                    if name == "sstat_primary" || name == "sstat_assoc_id" {
                        if !matches!(e, Expr::Ellipsis) {
                            return Err(format!("unsupported: a value for {name} (only `...`)"));
                        }
                        continue;
                    }
                    let Some(want) = eval(e)? else { continue };
                    let have = actual
                        .iter()
                        .find(|(n, _)| n == name)
                        .map_or(0, |(_, v)| *v);
                    if want != have {
                        return Err(format!(
                            "getsockopt SCTP_STATUS: {name}: expected {want} but got {have}"
                        ));
                    }
                }
                ok(0)
            }
            _ => match self.get_more(level, opt, arg(c, 3)?, idx) {
                Some(r) => r,
                None => Err(format!(
                    "unsupported: getsockopt level {level} option {opt} (see docs/conformance.md for the options the runner has)"
                )),
            },
        }
    }

    fn sys_setsockopt(&mut self, c: &Syscall) -> Result<Ret, String> {
        let (_, s) = self.socket(c)?;
        let level = int_arg(c, 1)?;
        let opt = int_arg(c, 2)?;
        let idx = match s.kind {
            SockKind::Assoc(i) => Some(i),
            _ => None,
        };
        if let Some(r) = self.set_more(level, opt, arg(c, 3)?, idx) {
            return r;
        }
        if level != 132 {
            return Err(format!("unsupported: setsockopt level {level}"));
        }
        let now = self.now;
        let fields = struct_fields(arg(c, 3)?, "setsockopt")?;
        let ms = |v: i64| SimDuration::from_millis(u64::try_from(v).unwrap_or(0));
        match opt {
            // SCTP_RTOINFO (RFC 6458 §8.1.1): zero leaves a value unchanged.
            0 => {
                check_fields(
                    fields,
                    &["srto_assoc_id", "srto_initial", "srto_max", "srto_min"],
                    "SCTP_RTOINFO",
                )?;
                let get = |n| field_value(fields, n).map(|v| v.filter(|x| *x > 0).map(ms));
                let (ini, max, min) = (get("srto_initial")?, get("srto_max")?, get("srto_min")?);
                let cfg = match idx {
                    Some(i) => slot_assoc(&mut self.endpoint, &self.slots[i])?
                        .config()
                        .clone(),
                    None => self.endpoint.config().clone(),
                };
                let ini = ini.unwrap_or(cfg.rto_initial);
                let max = max.unwrap_or(cfg.rto_max);
                let min = min.unwrap_or(cfg.rto_min);
                if min > max || ini.is_zero() {
                    return fail(errno::EINVAL);
                }
                let ec = self.endpoint.config_mut();
                ec.rto_initial = ini;
                ec.rto_max = max;
                ec.rto_min = min;
                if let Some(i) = idx {
                    let a = slot_assoc(&mut self.endpoint, &self.slots[i])?;
                    if a.set_rto(ini, min, max).is_err() {
                        return fail(errno::EINVAL);
                    }
                }
                ok(0)
            }
            // SCTP_INITMSG (RFC 6458 §8.1.3): zero leaves a value unchanged; applies to
            // associations set up from now on.
            2 => {
                check_fields(
                    fields,
                    &[
                        "sinit_num_ostreams",
                        "sinit_max_instreams",
                        "sinit_max_attempts",
                        "sinit_max_init_timeo",
                    ],
                    "SCTP_INITMSG",
                )?;
                let get = |n| field_value(fields, n).map(|v| v.filter(|x| *x > 0));
                let os = get("sinit_num_ostreams")?;
                let is = get("sinit_max_instreams")?;
                let attempts = get("sinit_max_attempts")?;
                let timeo = get("sinit_max_init_timeo")?;
                let cfg = self.endpoint.config_mut();
                if let Some(t) = timeo {
                    // Bounds T1-init below RTO.Max (the model's `max_init_timeo`).
                    cfg.max_init_timeo = Some(ms(t));
                }
                if let Some(v) = os {
                    cfg.outbound_streams = u16::try_from(v).unwrap_or(u16::MAX);
                }
                if let Some(v) = is {
                    cfg.max_inbound_streams = u16::try_from(v).unwrap_or(u16::MAX);
                }
                if let Some(v) = attempts {
                    cfg.max_init_retransmits = u32::try_from(v).unwrap_or(u32::MAX);
                }
                ok(0)
            }
            // SCTP_PEER_ADDR_PARAMS (RFC 6458 §8.1.12), for every peer address.
            9 => {
                check_fields(
                    fields,
                    &[
                        "spp_assoc_id",
                        "spp_address",
                        "spp_hbinterval",
                        "spp_pathmaxrxt",
                        "spp_pathmtu",
                        "spp_sackdelay",
                        "spp_flags",
                        "spp_ipv6_flowlabel",
                        "spp_dscp",
                    ],
                    "SCTP_PEER_ADDR_PARAMS",
                )?;
                if let Some((_, e)) = fields.iter().find(|(n, _)| n == "spp_address") {
                    if !matches!(e, Expr::Ellipsis) {
                        return Err(
                            "unsupported: SCTP_PEER_ADDR_PARAMS for one address (only spp_address=...)"
                                .into(),
                        );
                    }
                }
                for n in ["spp_ipv6_flowlabel", "spp_dscp", "spp_sackdelay"] {
                    if field_value(fields, n)?.is_some_and(|v| v != 0) {
                        return Err(format!("unsupported: SCTP_PEER_ADDR_PARAMS {n}"));
                    }
                }
                let flags = field_value(fields, "spp_flags")?.unwrap_or(0);
                if flags & !(1 | 2 | 16) != 0 {
                    return Err(format!(
                        "unsupported: SCTP_PEER_ADDR_PARAMS flags {flags:#x} (SPP_HB_ENABLE, SPP_HB_DISABLE and SPP_PMTUD_DISABLE only)"
                    ));
                }
                let heartbeats = match flags & 3 {
                    1 => Some(true),
                    2 => Some(false),
                    3 => return fail(errno::EINVAL),
                    _ => None,
                };
                let interval = field_value(fields, "spp_hbinterval")?
                    .filter(|v| *v > 0 && heartbeats == Some(true))
                    .map(ms);
                let pmr = field_value(fields, "spp_pathmaxrxt")?
                    .filter(|v| *v > 0)
                    .map(|v| u32::try_from(v).unwrap_or(u32::MAX));
                let pmtu = field_value(fields, "spp_pathmtu")?
                    .filter(|v| *v > 0 && flags & 16 != 0)
                    .map(|v| u16::try_from(v).unwrap_or(u16::MAX));
                let cfg = self.endpoint.config_mut();
                if let Some(h) = heartbeats {
                    cfg.heartbeats = h;
                }
                if let Some(v) = interval {
                    cfg.hb_interval = v;
                }
                if let Some(v) = pmr {
                    cfg.path_max_retrans = v;
                }
                if let Some(v) = pmtu {
                    cfg.pmtu = v;
                }
                if let Some(i) = idx {
                    let a = slot_assoc(&mut self.endpoint, &self.slots[i])?;
                    if a.set_path_params(now, None, interval, pmr, heartbeats).is_err() {
                        return fail(errno::EINVAL);
                    }
                    if let Some(v) = pmtu {
                        for addr in a.peer_addrs() {
                            if a.set_path_mtu(addr, v).is_err() {
                                return fail(errno::EINVAL);
                            }
                        }
                    }
                    self.drain();
                }
                ok(0)
            }
            other => Err(format!(
                "unsupported: setsockopt option {other} (see docs/conformance.md for the options the runner has)"
            )),
        }
    }
}
