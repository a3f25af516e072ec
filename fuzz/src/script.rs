//! Target `script`: the conformance runner's script lexer, parser, byte encoder and receive
//! paths (`sctpsim-conformance`), which must never panic, whatever the script says.
//!
//! Per case:
//! * random text (printable bytes and the grammar's punctuation) and mutations of seed
//!   scripts, given to `parse_script`;
//! * scripts generated from the grammar: a passive or active handshake prologue, then random
//!   inbound packets — every chunk, parameter and error cause form with random, missing (`...`)
//!   or out-of-range fields and explicit lengths, raw byte bodies, explicit addresses and
//!   ports, `sctp(tag=, bad_crc32c)` — random system calls and socket options (known and
//!   unknown names, random structures), random outbound expectations and times — parsed and
//!   *run*: the bytes the encoder writes go through the endpoint's real receive path.
//!
//! `Executor::run` is called directly, not through `run_script`, whose `catch_unwind` would
//! turn a panic into a failed script and hide it from the driver.

use sctpsim_conformance::{parse_script, Executor, RunOptions};
use sctpsim_kernel::Rng;

/// What one case did, summed into the report.
#[derive(Debug, Default, Clone)]
pub(crate) struct Counts {
    cases: u64,
    texts: u64,
    parsed: u64,
    run: u64,
    passed: u64,
    unsupported: u64,
}

impl crate::driver::Tally for Counts {
    fn add(&mut self, o: &Counts) {
        self.cases += o.cases;
        self.texts += o.texts;
        self.parsed += o.parsed;
        self.run += o.run;
        self.passed += o.passed;
        self.unsupported += o.unsupported;
    }

    fn progress(&self) -> String {
        format!(
            "{} cases, {} texts, {} parsed, {} run",
            self.cases, self.texts, self.parsed, self.run
        )
    }

    fn summary(&self) -> String {
        format!(
            "{} script texts ({} parsed), {} scripts run ({} passed, {} stopped as unsupported)",
            self.texts, self.parsed, self.run, self.passed, self.unsupported
        )
    }
}

/// How this target damages seed scripts (`driver::mutate`).
const MUTATION: crate::driver::Mutation = crate::driver::Mutation {
    max_extend: 40,
    overwrite_from: Some(0),
    max_overwrite: 8,
};

const PASSIVE: &str = " 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3
+0.0 bind(3, ..., ...) = 0
+0.0 listen(3, 1) = 0
+0.0 < sctp: INIT[flgs=0, tag=1, a_rwnd=4000, os=2, is=2, tsn=1]
+0.0 > sctp: INIT_ACK[flgs=0, tag=2, a_rwnd=..., os=..., is=..., tsn=1, ...]
+0.0 < sctp: COOKIE_ECHO[flgs=0, len=..., val=...]
+0.0 > sctp: COOKIE_ACK[flgs=0]
+0.0 accept(3, ..., ...) = 4
";

const ACTIVE: &str = " 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3
+0.0 bind(3, ..., ...) = 0
+0.0 fcntl(3, F_SETFL, O_RDWR|O_NONBLOCK) = 0
+0.0 connect(3, ..., ...) = -1 EINPROGRESS (Operation now in progress)
+0.0 > sctp: INIT[flgs=0, tag=1, a_rwnd=..., os=..., is=..., tsn=1, ...]
";

const LISTEN: &str = " 0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3
+0.0 bind(3, ..., ...) = 0
+0.0 fcntl(3, F_SETFL, O_RDWR|O_NONBLOCK) = 0
+0.0 listen(3, 1) = 0
";

const CHUNKS: &[&str] = &[
    "DATA",
    "INIT",
    "INIT_ACK",
    "SACK",
    "HEARTBEAT",
    "HEARTBEAT_ACK",
    "ABORT",
    "SHUTDOWN",
    "SHUTDOWN_ACK",
    "ERROR",
    "COOKIE_ECHO",
    "COOKIE_ACK",
    "ECNE",
    "CWR",
    "SHUTDOWN_COMPLETE",
    "CHUNK",
    "PAD",
    "I_DATA",
];

const PARAMS: &[&str] = &[
    "PARAMETER",
    "HEARTBEAT_INFORMATION",
    "IPV4_ADDRESS",
    "IPV6_ADDRESS",
    "STATE_COOKIE",
    "UNRECOGNIZED_PARAMETER",
    "COOKIE_PRESERVATIVE",
    "HOSTNAME_ADDRESS",
    "SUPPORTED_ADDRESS_TYPES",
    "ECN_CAPABLE",
    "FORWARD_TSN_SUPPORTED",
    "SUPPORTED_EXTENSIONS",
    "ADAPTATION_INDICATION",
    "ZERO_CHECKSUM_ACCEPTABLE",
    "PAD",
];

const CAUSES: &[&str] = &[
    "CAUSE",
    "INVALID_STREAM_IDENTIFIER",
    "MISSING_MANDATORY_PARAMETER",
    "STALE_COOKIE_ERROR",
    "OUT_OF_RESOURCE",
    "UNRESOLVABLE_ADDRESS",
    "UNRECOGNIZED_CHUNK_TYPE",
    "INVALID_MANDATORY_PARAMETER",
    "UNRECOGNIZED_PARAMETERS",
    "NO_USER_DATA",
    "COOKIE_RECEIVED_WHILE_SHUTDOWN",
    "RESTART_WITH_NEW_ADDRESSES",
    "USER_INITIATED_ABORT",
    "PROTOCOL_VIOLATION",
];

const FIELDS: &[&str] = &[
    "flgs",
    "len",
    "tag",
    "a_rwnd",
    "os",
    "is",
    "tsn",
    "sid",
    "ssn",
    "ppid",
    "cum_tsn",
    "gaps",
    "dups",
    "type",
    "val",
    "addr",
    "params",
    "types",
    "incr",
    "edmid",
    "sid",
    "staleness",
    "param",
    "chk",
    "info",
    "cause_code",
    "adaptation_code_point",
    "bogus",
];

const OPTIONS: &[&str] = &[
    "SCTP_RTOINFO",
    "SCTP_ASSOCINFO",
    "SCTP_INITMSG",
    "SCTP_NODELAY",
    "SCTP_MAXSEG",
    "SCTP_DELAYED_SACK",
    "SCTP_DEFAULT_SNDINFO",
    "SCTP_DEFAULT_SEND_PARAM",
    "SCTP_EVENT",
    "SCTP_EVENTS",
    "SCTP_PEER_ADDR_PARAMS",
    "SCTP_STATUS",
    "SO_LINGER",
    "SO_ERROR",
    "SCTP_AUTOCLOSE",
];

const STRUCT_FIELDS: &[&str] = &[
    "srto_initial",
    "srto_max",
    "srto_min",
    "sasoc_asocmaxrxt",
    "sasoc_cookie_life",
    "sasoc_peer_rwnd",
    "sinit_num_ostreams",
    "sinit_max_instreams",
    "sinit_max_attempts",
    "sinit_max_init_timeo",
    "assoc_value",
    "sack_delay",
    "sack_freq",
    "snd_sid",
    "snd_flags",
    "snd_ppid",
    "sinfo_stream",
    "se_type",
    "se_on",
    "onoff",
    "linger",
    "spp_flags",
    "spp_hbinterval",
    "sstat_state",
    "sctp_data_io_event",
    "sctp_association_event",
];

fn pick<'a>(rng: &mut Rng, from: &[&'a str]) -> &'a str {
    from[rng.below(from.len() as u64) as usize]
}

/// A number: small, at a type boundary, or anything (also too large for its field).
fn number(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 => "...".into(),
        1 => format!("{:#x}", rng.next_u64() & 0xffff_ffff),
        2 => [
            0u64, 1, 3, 4, 15, 16, 17, 255, 256, 65535, 65536, 4294967295, 4294967296,
        ][rng.below(13) as usize]
            .to_string(),
        3 => (rng.next_u64() >> rng.below(64)).to_string(),
        4 => "-1".into(),
        _ => rng.below(64).to_string(),
    }
}

fn bytes(rng: &mut Rng, max: u64) -> String {
    let n = rng.below(max + 1);
    let items: Vec<String> = (0..n)
        .map(|_| format!("{:#04x}", rng.next_u64() as u8))
        .collect();
    format!("[{}]", items.join(", "))
}

fn value(rng: &mut Rng, depth: u32) -> String {
    match rng.below(10) {
        0 => bytes(rng, 12),
        1 if depth < 3 => param(rng, depth + 1),
        2 if depth < 3 => chunk(rng, depth + 1),
        3 => format!(
            "\"{}\"",
            ["a.b", "", "x\\\"y", "hostname"][rng.below(4) as usize]
        ),
        4 => [
            "1.2.3.4",
            "fe80::1",
            "IPv4",
            "IPv6",
            "HOSTNAME",
            "T",
            "IUBE",
            "FORWARD_TSN",
        ][rng.below(8) as usize]
            .into(),
        5 => format!("[{}:{}]", rng.below(70000), rng.below(70000)),
        6 if depth < 3 => format!("[{}, {}]", param(rng, depth + 1), param(rng, depth + 1)),
        _ => number(rng),
    }
}

/// The fields a construct accepts (most generated items use them, so that many scripts parse
/// and reach the encoder and the endpoint).
fn fields_of(name: &str) -> &'static [&'static str] {
    match name {
        "DATA" => &["flgs", "len", "tsn", "sid", "ssn", "ppid"],
        "INIT" | "INIT_ACK" => &["flgs", "tag", "a_rwnd", "os", "is", "tsn"],
        "SACK" => &["flgs", "cum_tsn", "a_rwnd", "gaps", "dups"],
        "SHUTDOWN" => &["flgs", "cum_tsn"],
        "ECNE" | "CWR" => &["flgs", "tsn"],
        "COOKIE_ECHO" | "CHUNK" | "PAD" => &["flgs", "len", "val", "type"],
        "PARAMETER" | "HEARTBEAT_INFORMATION" | "STATE_COOKIE" => &["type", "len", "val"],
        "IPV4_ADDRESS" | "IPV6_ADDRESS" | "HOSTNAME_ADDRESS" => &["addr"],
        "UNRECOGNIZED_PARAMETER" | "UNRECOGNIZED_PARAMETERS" | "RESTART_WITH_NEW_ADDRESSES" => {
            &["params"]
        }
        "SUPPORTED_ADDRESS_TYPES" | "SUPPORTED_EXTENSIONS" | "MISSING_MANDATORY_PARAMETER" => {
            &["types"]
        }
        "CAUSE" => &["cause_code", "len", "info"],
        "INVALID_STREAM_IDENTIFIER" => &["sid"],
        "NO_USER_DATA" => &["tsn"],
        "UNRESOLVABLE_ADDRESS" => &["param"],
        "UNRECOGNIZED_CHUNK_TYPE" => &["chk"],
        "USER_INITIATED_ABORT" | "PROTOCOL_VIOLATION" => &["info"],
        _ => &["flgs"],
    }
}

fn items(rng: &mut Rng, name: &str, depth: u32, nested: fn(&mut Rng, u32) -> String) -> String {
    let own = fields_of(name);
    let mut out = Vec::new();
    for _ in 0..rng.below(7) {
        out.push(match rng.below(10) {
            0 => "...".to_string(),
            1 if depth < 3 => nested(rng, depth + 1),
            2 => format!("{}={}", pick(rng, FIELDS), value(rng, depth)),
            _ => {
                let f = pick(rng, own);
                let v = if rng.bernoulli(0.5) {
                    match f {
                        "val" | "info" if rng.bernoulli(0.5) => bytes(rng, 12),
                        "len" => rng.below(40).to_string(),
                        _ => number(rng),
                    }
                } else {
                    value(rng, depth)
                };
                format!("{f}={v}")
            }
        });
    }
    out.join(", ")
}

fn param(rng: &mut Rng, depth: u32) -> String {
    let name = pick(rng, PARAMS);
    format!("{name}[{}]", items(rng, name, depth, param))
}

fn cause(rng: &mut Rng, depth: u32) -> String {
    let name = pick(rng, CAUSES);
    format!("{name}[{}]", items(rng, name, depth, param))
}

fn chunk(rng: &mut Rng, depth: u32) -> String {
    let name = pick(rng, CHUNKS);
    let nested: fn(&mut Rng, u32) -> String = match name {
        "ABORT" | "ERROR" => cause,
        _ => param,
    };
    format!("{name}[{}]", items(rng, name, depth, nested))
}

/// A value that fits field `f` (so that the script parses and reaches the encoder), with
/// lengths that are often wrong on purpose.
fn fitting(rng: &mut Rng, name: &str, f: &str, depth: u32) -> String {
    let small = |rng: &mut Rng| match rng.below(4) {
        0 => "...".to_string(),
        1 => rng.below(256).to_string(),
        _ => rng.below(8).to_string(),
    };
    match f {
        "flgs" => small(rng),
        "len" => match name {
            "DATA" => (16 + rng.below(200)).to_string(),
            _ => (4 + rng.below(40)).to_string(),
        },
        "val" | "info" if name == "CHUNK" || name == "CAUSE" || name == "PARAMETER" => "...".into(),
        "val" => "...".into(),
        "info" => "\"why\"".into(),
        "type" | "cause_code" => rng.below(256).to_string(),
        "gaps" => format!("[{}:{}]", rng.below(5), rng.below(9)),
        "dups" => format!("[{}]", rng.below(9)),
        "types" => "[1, 5]".into(),
        "addr" if name == "IPV4_ADDRESS" => "1.2.3.4".into(),
        "addr" if name == "IPV6_ADDRESS" => "fe80::1".into(),
        "addr" => "\"a.b\"".into(),
        "params" if depth < 2 => format!("[{}]", wf_param(rng, depth + 1)),
        "param" if depth < 2 => wf_param(rng, depth + 1),
        "chk" if depth < 2 => wf_chunk(rng, depth + 1),
        "params" | "param" | "chk" => "...".into(),
        _ => match rng.below(4) {
            0 => "...".into(),
            1 => (rng.next_u64() & 0xffff).to_string(),
            _ => rng.below(10).to_string(),
        },
    }
}

fn wf_items(rng: &mut Rng, name: &str, depth: u32) -> String {
    let mut fields: Vec<&str> = fields_of(name)
        .iter()
        .copied()
        .filter(|f| *f != "type" || matches!(name, "CHUNK" | "PARAMETER"))
        .collect();
    if name == "CAUSE" {
        fields = vec!["cause_code", "len"];
    }
    let mut out = Vec::new();
    for f in fields {
        if rng.bernoulli(0.8) {
            out.push(format!("{f}={}", fitting(rng, name, f, depth)));
        }
    }
    if matches!(name, "INIT" | "INIT_ACK") && depth < 2 {
        for _ in 0..rng.below(3) {
            out.push(wf_param(rng, depth + 1));
        }
    }
    if matches!(name, "ABORT" | "ERROR") && depth < 2 {
        for _ in 0..rng.below(3) {
            out.push(wf_cause(rng, depth + 1));
        }
    }
    out.join(", ")
}

fn wf_param(rng: &mut Rng, depth: u32) -> String {
    let name = pick(rng, PARAMS);
    format!("{name}[{}]", wf_items(rng, name, depth))
}

fn wf_cause(rng: &mut Rng, depth: u32) -> String {
    let name = pick(rng, CAUSES);
    format!("{name}[{}]", wf_items(rng, name, depth))
}

fn wf_chunk(rng: &mut Rng, depth: u32) -> String {
    let name = pick(rng, &CHUNKS[..CHUNKS.len() - 1]);
    format!("{name}[{}]", wf_items(rng, name, depth))
}

fn wf_packet(rng: &mut Rng) -> String {
    let header = match rng.below(5) {
        0 => format!("sctp(tag={})", rng.below(5)),
        1 => "sctp(bad_crc32c)".to_string(),
        _ => "sctp".to_string(),
    };
    let body = if rng.bernoulli(0.1) {
        bytes(rng, 40)
    } else {
        let n = 1 + rng.below(3);
        (0..n)
            .map(|_| wf_chunk(rng, 0))
            .collect::<Vec<_>>()
            .join("; ")
    };
    format!("+0.{} < {header}: {body}", rng.below(10))
}

fn time(rng: &mut Rng) -> String {
    match rng.below(10) {
        0 => "*".into(),
        1 => format!("+{}~+{}", rng.below(3), rng.below(5)),
        2 => format!("{}.{}", rng.below(100), rng.below(1000)),
        _ => format!("+{}.{}", rng.below(2), rng.below(10)),
    }
}

fn packet(rng: &mut Rng) -> String {
    let dir = if rng.bernoulli(0.75) { "<" } else { ">" };
    let mut prefix = String::new();
    if rng.bernoulli(0.1) {
        prefix.push_str(
            [
                "224.0.0.1 > 192.168.0.1 ",
                "192.0.2.1 > 255.255.255.255 ",
                "ipv4 1.1.1.1 > 2.2.2.2: ",
            ][rng.below(3) as usize],
        );
    }
    if rng.bernoulli(0.1) {
        prefix.push_str(&format!("{}>{} ", rng.below(70000), rng.below(70000)));
    }
    let header = match rng.below(6) {
        0 => format!("sctp(tag={})", number(rng)),
        1 => "sctp(bad_crc32c)".to_string(),
        2 => format!("sctp(bad_crc32c, tag={})", rng.below(5)),
        _ => "sctp".to_string(),
    };
    let body = if rng.bernoulli(0.15) {
        bytes(rng, 40)
    } else {
        let n = 1 + rng.below(3);
        (0..n).map(|_| chunk(rng, 0)).collect::<Vec<_>>().join("; ")
    };
    format!("{} {dir} {prefix}{header}: {body}", time(rng))
}

fn syscall(rng: &mut Rng) -> String {
    let fd = [3, 4, 5][rng.below(3) as usize];
    let call = match rng.below(9) {
        0 | 1 => {
            let fields: Vec<String> = (0..rng.below(6))
                .map(|_| format!("{}={}", pick(rng, STRUCT_FIELDS), number(rng)))
                .collect();
            let level = if rng.bernoulli(0.8) {
                "IPPROTO_SCTP"
            } else {
                "SOL_SOCKET"
            };
            let val = if rng.bernoulli(0.8) {
                format!("{{{}}}", fields.join(", "))
            } else {
                format!("[{}]", number(rng))
            };
            let get = if rng.bernoulli(0.5) { "set" } else { "get" };
            format!(
                "{get}sockopt({fd}, {level}, {}, {val}, {})",
                pick(rng, OPTIONS),
                rng.below(40)
            )
        }
        2 => format!("write({fd}, ..., {})", number(rng)),
        3 => format!("read({fd}, ..., {})", number(rng)),
        4 => format!("close({fd})"),
        5 => format!(
            "shutdown({fd}, {})",
            ["SHUT_WR", "SHUT_RD", "SHUT_RDWR", "7"][rng.below(4) as usize]
        ),
        6 => format!("accept({fd}, ..., ...)"),
        7 => format!("fcntl({fd}, F_SETFL, O_RDWR|O_NONBLOCK)"),
        _ => format!("connect({fd}, ..., ...)"),
    };
    format!(
        "+{}.{} {call} = {}",
        rng.below(2),
        rng.below(10),
        number(rng)
    )
}

fn generated(rng: &mut Rng) -> String {
    let mut s = String::from(match rng.below(3) {
        0 => PASSIVE,
        1 => ACTIVE,
        _ => LISTEN,
    });
    let well_formed = rng.bernoulli(0.5);
    for _ in 0..1 + rng.below(8) {
        s.push_str(&if well_formed {
            wf_packet(rng)
        } else if rng.bernoulli(0.7) {
            packet(rng)
        } else {
            syscall(rng)
        });
        s.push('\n');
    }
    s
}

fn noise(rng: &mut Rng) -> String {
    const ALPHABET: &[u8] = b"0123456789abcdefxABCDEFINTSACKDTU_ .,:;=+-*~<>[]{}()|\"'`%#/\n\\";
    let n = rng.below(300);
    (0..n)
        .map(|_| {
            if rng.bernoulli(0.05) {
                char::from(rng.next_u64() as u8)
            } else {
                char::from(ALPHABET[rng.below(ALPHABET.len() as u64) as usize])
            }
        })
        .collect()
}

/// Parses and (when it parses) runs a script; panics propagate to the driver.
fn exercise(text: &str, counts: &mut Counts) {
    counts.texts += 1;
    let opts = RunOptions::default();
    let Ok(script) = parse_script(text, &opts.defines) else {
        return;
    };
    counts.parsed += 1;
    if script.events.is_empty() {
        return;
    }
    let Ok(mut ex) = Executor::new(&script, &opts) else {
        return;
    };
    counts.run += 1;
    match ex.run(&script) {
        Ok(()) => counts.passed += 1,
        Err(f) if f.reason.starts_with("unsupported") => counts.unsupported += 1,
        Err(_) => {}
    }
}

pub(crate) fn script_case(seed: u64) -> Counts {
    let mut rng = Rng::from_seed(seed);
    let mut counts = Counts {
        cases: 1,
        ..Counts::default()
    };
    exercise(&noise(&mut rng), &mut counts);
    for _ in 0..3 {
        let text = generated(&mut rng);
        exercise(&text, &mut counts);
        // The same script damaged byte by byte (still mostly valid UTF-8 text).
        let mut b = text.into_bytes();
        crate::driver::mutate(&mut rng, &mut b, MUTATION);
        exercise(&String::from_utf8_lossy(&b), &mut counts);
    }
    counts
}
