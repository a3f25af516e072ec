//! The syntax tree of a packetdrill script (the SCTP subset).
//!
//! A field written as `...` or left out is `None`: a wildcard when matching an outbound packet,
//! zero (or the value packetdrill substitutes, such as the State Cookie to echo) when building
//! an inbound one.

use std::net::{Ipv4Addr, Ipv6Addr};

/// A parsed script.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Script {
    /// Command-line options given in the script header (`--tolerance_usecs=10000`).
    pub options: Vec<ScriptOption>,
    /// The events in script order.
    pub events: Vec<Event>,
}

/// A `--name[=value]` option of the script header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptOption {
    /// The option name without the dashes.
    pub name: String,
    /// The value after `=`, if any.
    pub value: Option<String>,
    /// Line of the option.
    pub line: u32,
}

/// When an event happens. Times are integer nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventTime {
    /// `0.1`: seconds since the start of the script.
    Absolute(u64),
    /// `+0.1`: after the previous event completed.
    Relative(u64),
    /// `*`: any time (outbound packets only).
    Any,
    /// `0.1~0.2`: an absolute range (outbound packets only).
    AbsoluteRange(u64, u64),
    /// `+0.1~+0.2`: a relative range (outbound packets only).
    RelativeRange(u64, u64),
}

/// One line of the script (statements may span lines; `line` is where the time stamp is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Line of the time stamp.
    pub line: u32,
    /// When.
    pub time: EventTime,
    /// What.
    pub action: Action,
}

/// What an event does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// An inbound (`<`) or outbound (`>`) packet.
    Packet(PacketSpec),
    /// A system call and its expected result.
    Syscall(Syscall),
    /// A back-quoted shell command.
    Command(String),
    /// A `%{ ... }%` Python block.
    Code(String),
}

/// Direction of a packet event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// `<`: injected into the system under test.
    Inbound,
    /// `>`: expected from the system under test.
    Outbound,
}

/// An SCTP packet line: `< sctp: CHUNK; CHUNK` or `> sctp(tag=1): ...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PacketSpec {
    /// Direction.
    pub direction: Direction,
    /// `sctp(tag=N)`: an explicit verification tag (script value, mapped like packetdrill).
    pub tag: Option<u32>,
    /// `sctp(bad_crc32c)`: send a wrong checksum.
    pub bad_crc32c: bool,
    /// `sctp(zero_checksum)`.
    pub zero_checksum: bool,
    /// `< 224.0.0.1 > 192.168.0.1 sctp: ...`: explicit IPv4 source and destination (inbound
    /// only; the test addresses otherwise).
    pub addrs: Option<(Ipv4Addr, Ipv4Addr)>,
    /// `< 1234>8080 sctp: ...`: explicit source and destination ports (inbound only; the
    /// test ports otherwise).
    pub ports: Option<(u16, u16)>,
    /// The chunks.
    pub chunks: PacketBody,
}

/// The body of a packet line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PacketBody {
    /// A list of chunks separated by `;`.
    Chunks(Vec<ChunkSpec>),
    /// `sctp: [0x01, ...]`: raw bytes after the common header.
    Bytes(Vec<u8>),
}

/// An SCTP chunk as written in a script; `None` fields are wildcards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkSpec {
    /// `DATA[flgs=BE, len=116, tsn=1, sid=0, ssn=0, ppid=0]`.
    Data {
        /// Chunk flags (`IUBE` letters or a number).
        flags: Option<u8>,
        /// Chunk length (header included, padding excluded).
        len: Option<u16>,
        /// TSN.
        tsn: Option<u32>,
        /// Stream identifier.
        sid: Option<u16>,
        /// Stream sequence number.
        ssn: Option<u16>,
        /// Payload protocol identifier.
        ppid: Option<u32>,
    },
    /// `I_DATA[flgs=BE, len=120, tsn=1, sid=0, mid=0, ppid=0]` (RFC 8260 §2.1); a fragment
    /// other than the first gives `fsn=` instead of `ppid=` (the same field).
    IData {
        /// Chunk flags (`IUBE` letters or a number).
        flags: Option<u8>,
        /// Chunk length (header included, padding excluded).
        len: Option<u16>,
        /// TSN.
        tsn: Option<u32>,
        /// Stream identifier.
        sid: Option<u16>,
        /// Message identifier.
        mid: Option<u32>,
        /// Payload protocol identifier (first fragment) or fragment sequence number (the
        /// others): the fourth word, as written with `ppid=` or `fsn=`.
        ppid_or_fsn: Option<u32>,
    },
    /// `INIT[flgs=0, tag=1, a_rwnd=1500, os=1, is=1, tsn=1, PARAMS...]`.
    Init(InitSpec),
    /// `INIT_ACK[...]`, same fields as INIT.
    InitAck(InitSpec),
    /// `SACK[flgs=0, cum_tsn=1, a_rwnd=1500, gaps=[2:2], dups=[]]`, or
    /// `NR_SACK[flgs=0, cum_tsn=1, a_rwnd=1500, gaps=[], nr_gaps=[2:2], dups=[]]` (chunk type
    /// 0x10, FreeBSD's layout; packetdrill's `sctp_nr_sack_chunk_new` takes the same lists).
    Sack {
        /// An NR-SACK (type 0x10) rather than a SACK.
        nr: bool,
        /// NR Gap Ack Blocks `start:end` (NR-SACK only; `None` for a SACK or when not checked).
        nr_gaps: Option<Vec<(u16, u16)>>,
        /// Chunk flags.
        flags: Option<u8>,
        /// Cumulative TSN ack.
        cum_tsn: Option<u32>,
        /// Advertised receiver window.
        a_rwnd: Option<u32>,
        /// Gap ack blocks `start:end` (offsets from the cumulative TSN ack).
        gaps: Option<Vec<(u16, u16)>>,
        /// Duplicate TSNs.
        dups: Option<Vec<u32>>,
    },
    /// `HEARTBEAT[flgs=0, HEARTBEAT_INFORMATION[len=9, val=...]]`.
    Heartbeat {
        /// Chunk flags.
        flags: Option<u8>,
        /// The Heartbeat Info parameter.
        info: Option<ParamSpec>,
    },
    /// `HEARTBEAT_ACK[...]`.
    HeartbeatAck {
        /// Chunk flags.
        flags: Option<u8>,
        /// The Heartbeat Info parameter.
        info: Option<ParamSpec>,
    },
    /// `ABORT[flgs=T, CAUSES...]`.
    Abort {
        /// Chunk flags (`T` or a number).
        flags: Option<u8>,
        /// Error causes.
        causes: CauseList,
    },
    /// `SHUTDOWN[flgs=0, cum_tsn=0]`.
    Shutdown {
        /// Chunk flags.
        flags: Option<u8>,
        /// Cumulative TSN ack.
        cum_tsn: Option<u32>,
    },
    /// `SHUTDOWN_ACK[flgs=0]`.
    ShutdownAck {
        /// Chunk flags.
        flags: Option<u8>,
    },
    /// `ERROR[flgs=0, CAUSES...]`.
    Error {
        /// Chunk flags.
        flags: Option<u8>,
        /// Error causes.
        causes: CauseList,
    },
    /// `COOKIE_ECHO[flgs=0, len=..., val=...]`.
    CookieEcho {
        /// Chunk flags.
        flags: Option<u8>,
        /// Chunk length.
        len: Option<u16>,
        /// Cookie bytes.
        val: Option<Vec<u8>>,
    },
    /// `COOKIE_ACK[flgs=0]`.
    CookieAck {
        /// Chunk flags.
        flags: Option<u8>,
    },
    /// `ECNE[flgs=0, tsn=1]`.
    Ecne {
        /// Chunk flags.
        flags: Option<u8>,
        /// Lowest TSN.
        tsn: Option<u32>,
    },
    /// `CWR[flgs=0, tsn=1]`.
    Cwr {
        /// Chunk flags.
        flags: Option<u8>,
        /// Lowest TSN.
        tsn: Option<u32>,
    },
    /// `SHUTDOWN_COMPLETE[flgs=T]`.
    ShutdownComplete {
        /// Chunk flags (`T` or a number).
        flags: Option<u8>,
    },
    /// `CHUNK[type=0xEF, flgs=0, len=5, val=[0x01]]`: any chunk, given byte by byte.
    Generic {
        /// Chunk type.
        kind: Option<u8>,
        /// Chunk flags.
        flags: Option<u8>,
        /// Chunk length.
        len: Option<u16>,
        /// Chunk value.
        val: Option<Vec<u8>>,
    },
    /// `PAD[flgs=0, len=8, val=...]` (RFC 4820, type 0x84): `len − 4` padding bytes.
    Pad {
        /// Chunk flags.
        flags: Option<u8>,
        /// Chunk length.
        len: Option<u16>,
    },
    /// `RECONFIG[flgs=0, OUTGOING_SSN_RESET[...], ...]` (RFC 6525 §3.1): one or two
    /// re-configuration parameters.
    Reconfig {
        /// Chunk flags.
        flags: Option<u8>,
        /// The parameters; `None`: any (a bare `...`).
        params: Option<Vec<ReconfigSpec>>,
    },
    /// A chunk packetdrill knows but this runner does not (FORWARD_TSN, ...): kept so that
    /// executing it reports "unsupported".
    Unsupported {
        /// The chunk name as written.
        name: String,
    },
}

/// The fields of INIT and INIT ACK.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitSpec {
    /// Chunk flags.
    pub flags: Option<u8>,
    /// Initiate tag.
    pub tag: Option<u32>,
    /// Advertised receiver window credit.
    pub a_rwnd: Option<u32>,
    /// Number of outbound streams.
    pub os: Option<u16>,
    /// Number of inbound streams.
    pub is: Option<u16>,
    /// Initial TSN.
    pub tsn: Option<u32>,
    /// Optional parameters.
    pub params: ParamList,
}

/// A list of parameters: explicit, or `...` (any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamList {
    /// `...`: not checked (outbound); none (inbound).
    Any,
    /// These parameters, in this order.
    List(Vec<ParamSpec>),
}

/// A list of error causes: explicit, or `...` (any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CauseList {
    /// `...`: not checked (outbound); none (inbound).
    Any,
    /// These causes, in this order.
    List(Vec<CauseSpec>),
}

/// An INIT / INIT ACK parameter (or one nested in a parameter or a cause).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamSpec {
    /// `PARAMETER[type=0xc0cc, len=8, val=[...]]`.
    Generic {
        /// Parameter type.
        kind: Option<u16>,
        /// Parameter length (header included, padding excluded).
        len: Option<u16>,
        /// Parameter value.
        val: Option<Vec<u8>>,
    },
    /// `HEARTBEAT_INFORMATION[len=..., val=...]` (type 1).
    HeartbeatInfo {
        /// Parameter length.
        len: Option<u16>,
        /// Sender-specific information.
        val: Option<Vec<u8>>,
    },
    /// `IPV4_ADDRESS[addr=1.1.1.1]`.
    Ipv4Address(Option<Ipv4Addr>),
    /// `IPV6_ADDRESS[addr=fe80::1]`.
    Ipv6Address(Option<Ipv6Addr>),
    /// `STATE_COOKIE[len=4, val=...]`.
    StateCookie {
        /// Parameter length.
        len: Option<u16>,
    },
    /// `UNRECOGNIZED_PARAMETER[params=[...]]`.
    UnrecognizedParameter(Option<Vec<ParamSpec>>),
    /// `COOKIE_PRESERVATIVE[incr=12345]` (milliseconds).
    CookiePreservative(Option<u32>),
    /// `HOSTNAME_ADDRESS[addr="a.b"]` (sent NUL-terminated).
    HostnameAddress(Option<String>),
    /// `SUPPORTED_ADDRESS_TYPES[types=[IPv4, IPv6]]`.
    SupportedAddressTypes(Option<Vec<u16>>),
    /// `ECN_CAPABLE[]`.
    EcnCapable,
    /// `FORWARD_TSN_SUPPORTED[]`.
    ForwardTsnSupported,
    /// `SUPPORTED_EXTENSIONS[types=[...]]` (chunk types).
    SupportedExtensions(Option<Vec<u8>>),
    /// `ADAPTATION_INDICATION[adaptation_code_point=...]`.
    AdaptationIndication(Option<u32>),
    /// `ZERO_CHECKSUM_ACCEPTABLE[edmid=...]` (RFC 9653, type 0x8001).
    ZeroChecksumAcceptable(Option<u32>),
    /// `PAD[len=8, val=...]` (RFC 4820, type 0x8005): `len − 4` padding bytes.
    Pad {
        /// Parameter length.
        len: Option<u16>,
    },
    /// A parameter packetdrill knows but this runner does not.
    Unsupported {
        /// The name as written.
        name: String,
    },
}

/// An error cause in an ABORT or ERROR chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CauseSpec {
    /// `CAUSE[cause_code=..., len=..., info=[...]]`.
    Generic {
        /// Cause code.
        code: Option<u16>,
        /// Cause length.
        len: Option<u16>,
        /// Cause information.
        info: Option<Vec<u8>>,
    },
    /// `INVALID_STREAM_IDENTIFIER[sid=...]` (1).
    InvalidStreamIdentifier(Option<u16>),
    /// `MISSING_MANDATORY_PARAMETER[types=[...]]` (2).
    MissingMandatoryParameter(Option<Vec<u16>>),
    /// `STALE_COOKIE_ERROR[staleness=...]` (3).
    StaleCookie(Option<u32>),
    /// `OUT_OF_RESOURCE[]` (4).
    OutOfResource,
    /// `UNRESOLVABLE_ADDRESS[param=...]` (5).
    UnresolvableAddress(Option<Box<ParamSpec>>),
    /// `UNRECOGNIZED_CHUNK_TYPE[chk=...]` (6).
    UnrecognizedChunkType(Option<Box<ChunkSpec>>),
    /// `INVALID_MANDATORY_PARAMETER[]` (7).
    InvalidMandatoryParameter,
    /// `UNRECOGNIZED_PARAMETERS[params=[...]]` (8).
    UnrecognizedParameters(Option<Vec<ParamSpec>>),
    /// `NO_USER_DATA[tsn=...]` (9).
    NoUserData(Option<u32>),
    /// `COOKIE_RECEIVED_WHILE_SHUTDOWN[]` (10).
    CookieReceivedWhileShutdown,
    /// `RESTART_WITH_NEW_ADDRESSES[params=[...]]` (11).
    RestartWithNewAddresses(Option<Vec<ParamSpec>>),
    /// `USER_INITIATED_ABORT[info="..."]` (12).
    UserInitiatedAbort(Option<String>),
    /// `PROTOCOL_VIOLATION[info="..."]` (13).
    ProtocolViolation(Option<String>),
}

/// A system call line: `connect(3, ..., ...) = -1 EINPROGRESS (Operation now in progress)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Syscall {
    /// `...2.0 read(...)`: the end time of a blocking call (not supported by the executor).
    pub end_time: Option<u64>,
    /// The function name.
    pub name: String,
    /// The arguments.
    pub args: Vec<Expr>,
    /// The expected return value.
    pub result: Expr,
    /// The expected errno name, if given.
    pub errno: Option<String>,
}

/// An expression in a system call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// `...`
    Ellipsis,
    /// A number (negative for `-1`).
    Int(i64),
    /// A symbolic constant (`SOCK_STREAM`, `O_NONBLOCK`, `ETIMEDOUT`, ...).
    Symbol(String),
    /// A string literal.
    Str(String),
    /// `a | b`.
    Or(Vec<Expr>),
    /// `[a, b]`: an array (or a pointer to one value, as in `[4]`).
    Array(Vec<Expr>),
    /// `{name=value, ...}`: a structure.
    Struct(Vec<(String, Expr)>),
    /// `f(args)`: a function-like macro (`htons(8080)`, `inet_addr("...")`).
    Call(String, Vec<Expr>),
}

/// A re-configuration parameter of a RECONFIG chunk (RFC 6525 §4), packetdrill's names; `None`
/// fields are wildcards. Request and response sequence numbers of the system under test, and
/// its TSNs, are written relative to the Initial TSN the script named for it (RFC 6525 §4.1:
/// request sequence numbers start at the Initial TSN), like its DATA TSNs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReconfigSpec {
    /// `OUTGOING_SSN_RESET[req_sn=, resp_sn=, last_tsn=, sids=[...]]` (§4.1).
    OutgoingSsnReset {
        /// Re-configuration Request Sequence Number.
        req_sn: Option<u32>,
        /// Re-configuration Response Sequence Number.
        resp_sn: Option<u32>,
        /// Sender's Last Assigned TSN.
        last_tsn: Option<u32>,
        /// Stream numbers (empty: all).
        sids: Option<Vec<u16>>,
    },
    /// `INCOMING_SSN_RESET[req_sn=, sids=[...]]` (§4.2).
    IncomingSsnReset {
        /// Re-configuration Request Sequence Number.
        req_sn: Option<u32>,
        /// Stream numbers (empty: all).
        sids: Option<Vec<u16>>,
    },
    /// `SSN_TSN_RESET[req_sn=]` (§4.3).
    SsnTsnReset {
        /// Re-configuration Request Sequence Number.
        req_sn: Option<u32>,
    },
    /// `RECONFIG_RESPONSE[resp_sn=, result=, sender_next_tsn=, receiver_next_tsn=]` (§4.4);
    /// without the two TSNs the parameter is 12 bytes long.
    Response {
        /// Re-configuration Response Sequence Number.
        resp_sn: Option<u32>,
        /// Result (0–6).
        result: Option<u32>,
        /// Sender's Next TSN.
        sender_next_tsn: Option<u32>,
        /// Receiver's Next TSN.
        receiver_next_tsn: Option<u32>,
    },
    /// `ADD_OUTGOING_STREAMS[req_sn=, number_of_new_streams=]` (§4.5).
    AddOutgoingStreams {
        /// Re-configuration Request Sequence Number.
        req_sn: Option<u32>,
        /// Number of new streams.
        number_of_new_streams: Option<u16>,
    },
    /// `ADD_INCOMING_STREAMS[req_sn=, number_of_new_streams=]` (§4.6).
    AddIncomingStreams {
        /// Re-configuration Request Sequence Number.
        req_sn: Option<u32>,
        /// Number of new streams.
        number_of_new_streams: Option<u16>,
    },
}
