//! From the parser's generic bracket tree (`NAME[field=value, NAME[...], ...]`) to the typed
//! chunk, parameter and cause specifications of [`crate::ast`], checking field names, value
//! kinds, ranges and packetdrill's length/value rules.

use std::net::{Ipv4Addr, Ipv6Addr};

use crate::ast::*;
use crate::ParseError;

// ------------------------------------------------------------------ generic bracket tree

#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub(crate) name: String,
    pub(crate) line: u32,
    pub(crate) items: Vec<Item>,
}

#[derive(Debug, Clone)]
pub(crate) enum Item {
    Ellipsis,
    Field(String, Value, u32),
    Node(Node),
}

#[derive(Debug, Clone)]
pub(crate) enum Value {
    Ellipsis,
    Int(u64),
    Word(String),
    Str(String),
    Ipv4(Ipv4Addr),
    Ipv6(Ipv6Addr),
    Range(u64, u64),
    List(Vec<Value>),
    Node(Node),
}

impl Value {
    pub(crate) fn describe(&self) -> String {
        match self {
            Value::Ellipsis => "`...`".into(),
            Value::Int(v) => format!("`{v}`"),
            Value::Word(w) => format!("`{w}`"),
            Value::Str(s) => format!("{s:?}"),
            Value::Ipv4(a) => a.to_string(),
            Value::Ipv6(a) => a.to_string(),
            Value::Range(a, b) => format!("`{a}:{b}`"),
            Value::List(_) => "a list".into(),
            Value::Node(n) => format!("`{}[...]`", n.name),
        }
    }
}

// ------------------------------------------------------------------ typed specs

/// The fields of a node, checked against the names a construct accepts.
struct Fields<'a> {
    node: &'a Node,
    fields: Vec<(&'a str, &'a Value, u32)>,
    positional: Vec<&'a Node>,
    ellipsis: bool,
}

impl<'a> Fields<'a> {
    fn new(node: &'a Node, allowed: &[&str], positional_ok: bool) -> Result<Self, ParseError> {
        let mut f = Fields {
            node,
            fields: Vec::new(),
            positional: Vec::new(),
            ellipsis: false,
        };
        for item in &node.items {
            match item {
                Item::Field(name, v, line) => {
                    if !allowed.contains(&name.as_str()) {
                        return Err(ParseError::new(
                            *line,
                            format!(
                                "unknown field `{name}` in {} (expected one of: {})",
                                node.name,
                                allowed.join(", ")
                            ),
                        ));
                    }
                    if f.fields.iter().any(|(n, _, _)| *n == name.as_str()) {
                        return Err(ParseError::new(
                            *line,
                            format!("field `{name}` given twice in {}", node.name),
                        ));
                    }
                    f.fields.push((name.as_str(), v, *line));
                }
                Item::Node(n) if positional_ok => f.positional.push(n),
                Item::Node(n) => {
                    return Err(ParseError::new(
                        n.line,
                        format!("{} does not take `{}[...]` here", node.name, n.name),
                    ))
                }
                Item::Ellipsis if positional_ok || node.items.len() == 1 => f.ellipsis = true,
                Item::Ellipsis => {
                    return Err(ParseError::new(
                        node.line,
                        format!("a bare `...` is not allowed in {}", node.name),
                    ))
                }
            }
        }
        Ok(f)
    }

    fn get(&self, name: &str) -> Option<(&'a Value, u32)> {
        self.fields
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, v, l)| (*v, *l))
    }

    fn num(&self, name: &str, max: u64) -> Result<Option<u64>, ParseError> {
        match self.get(name) {
            None | Some((Value::Ellipsis, _)) => Ok(None),
            Some((Value::Int(v), line)) => {
                if *v > max {
                    Err(ParseError::new(
                        line,
                        format!("{name} value {v} out of range in {}", self.node.name),
                    ))
                } else {
                    Ok(Some(*v))
                }
            }
            Some((v, line)) => Err(ParseError::new(
                line,
                format!("{name} expects a number, found {}", v.describe()),
            )),
        }
    }

    fn u8(&self, name: &str) -> Result<Option<u8>, ParseError> {
        Ok(self.num(name, u64::from(u8::MAX))?.map(|v| v as u8))
    }

    fn u16(&self, name: &str) -> Result<Option<u16>, ParseError> {
        Ok(self.num(name, u64::from(u16::MAX))?.map(|v| v as u16))
    }

    fn u32(&self, name: &str) -> Result<Option<u32>, ParseError> {
        Ok(self.num(name, u64::from(u32::MAX))?.map(|v| v as u32))
    }

    /// Chunk flags: a number or letters (`letters` maps each allowed letter to its bit).
    fn flags(&self, letters: &[(char, u8)]) -> Result<Option<u8>, ParseError> {
        match self.get("flgs") {
            Some((Value::Word(w), line)) => {
                let mut v = 0u8;
                for c in w.chars() {
                    let Some((_, bit)) = letters.iter().find(|(l, _)| *l == c) else {
                        let allowed: String = letters.iter().map(|(l, _)| *l).collect();
                        return Err(ParseError::new(
                            line,
                            if allowed.is_empty() {
                                format!("{} flags must be a number", self.node.name)
                            } else {
                                format!("only `{allowed}` expected as {} flags", self.node.name)
                            },
                        ));
                    };
                    if v & bit != 0 {
                        return Err(ParseError::new(line, format!("{c}-bit given twice")));
                    }
                    v |= bit;
                }
                Ok(Some(v))
            }
            _ => self.u8("flgs"),
        }
    }

    fn bytes(&self, name: &str) -> Result<Option<Vec<u8>>, ParseError> {
        match self.get(name) {
            None | Some((Value::Ellipsis, _)) => Ok(None),
            Some((Value::List(items), line)) => items
                .iter()
                .map(|v| match v {
                    Value::Int(b) if *b <= 0xff => Ok(*b as u8),
                    other => Err(ParseError::new(
                        line,
                        format!("{name} expects bytes, found {}", other.describe()),
                    )),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some((v, line)) => Err(ParseError::new(
                line,
                format!(
                    "{name} expects `[byte, ...]` or `...`, found {}",
                    v.describe()
                ),
            )),
        }
    }

    fn list(&self, name: &str) -> Result<Option<(&'a [Value], u32)>, ParseError> {
        match self.get(name) {
            None | Some((Value::Ellipsis, _)) => Ok(None),
            Some((Value::List(items), line)) => Ok(Some((items.as_slice(), line))),
            Some((v, line)) => Err(ParseError::new(
                line,
                format!("{name} expects a `[...]` list, found {}", v.describe()),
            )),
        }
    }

    fn str(&self, name: &str) -> Result<Option<String>, ParseError> {
        match self.get(name) {
            None | Some((Value::Ellipsis, _)) => Ok(None),
            Some((Value::Str(s), _)) => Ok(Some(s.clone())),
            Some((v, line)) => Err(ParseError::new(
                line,
                format!("{name} expects a string, found {}", v.describe()),
            )),
        }
    }

    fn node_value(&self, name: &str) -> Result<Option<&'a Node>, ParseError> {
        match self.get(name) {
            None | Some((Value::Ellipsis, _)) => Ok(None),
            Some((Value::Node(n), _)) => Ok(Some(n)),
            Some((v, line)) => Err(ParseError::new(
                line,
                format!("{name} expects `NAME[...]`, found {}", v.describe()),
            )),
        }
    }

    fn no_positional(&self) -> Result<(), ParseError> {
        match self.positional.first() {
            Some(n) => Err(ParseError::new(
                n.line,
                format!("{} does not take `{}[...]`", self.node.name, n.name),
            )),
            None => Ok(()),
        }
    }
}

const DATA_FLAGS: &[(char, u8)] = &[('I', 0x08), ('U', 0x04), ('B', 0x02), ('E', 0x01)];
const T_FLAG: &[(char, u8)] = &[('T', 0x01)];

pub(crate) fn chunk_from_node(n: &Node) -> Result<ChunkSpec, ParseError> {
    let name = n.name.as_str();
    Ok(match name {
        "DATA" => {
            let f = Fields::new(n, &["flgs", "len", "tsn", "sid", "ssn", "ppid"], false)?;
            let len = f.u16("len")?;
            if len.is_some_and(|l| l < 16) {
                return Err(ParseError::new(
                    n.line,
                    "DATA length value out of range (< 16)",
                ));
            }
            ChunkSpec::Data {
                flags: f.flags(DATA_FLAGS)?,
                len,
                tsn: f.u32("tsn")?,
                sid: f.u16("sid")?,
                ssn: f.u16("ssn")?,
                ppid: f.u32("ppid")?,
            }
        }
        "I_DATA" => {
            let f = Fields::new(
                n,
                &["flgs", "len", "tsn", "sid", "res", "mid", "ppid", "fsn"],
                false,
            )?;
            let len = f.u16("len")?;
            if len.is_some_and(|l| l < 20) {
                return Err(ParseError::new(
                    n.line,
                    "I_DATA length value out of range (< 20)",
                ));
            }
            if f.u16("res")?.is_some_and(|r| r != 0) {
                return Err(ParseError::new(n.line, "I_DATA res must be 0 or `...`"));
            }
            let (ppid, fsn) = (f.u32("ppid")?, f.u32("fsn")?);
            if ppid.is_some() && fsn.is_some() {
                return Err(ParseError::new(
                    n.line,
                    "I_DATA: ppid and fsn share one field (RFC 8260 §2.1); give one",
                ));
            }
            ChunkSpec::IData {
                flags: f.flags(DATA_FLAGS)?,
                len,
                tsn: f.u32("tsn")?,
                sid: f.u16("sid")?,
                mid: f.u32("mid")?,
                ppid_or_fsn: ppid.or(fsn),
            }
        }
        "INIT" | "INIT_ACK" => {
            let f = Fields::new(n, &["flgs", "tag", "a_rwnd", "os", "is", "tsn"], true)?;
            let params = if f.ellipsis {
                if !f.positional.is_empty() {
                    return Err(ParseError::new(
                        n.line,
                        format!("{name}: `...` cannot be mixed with listed parameters"),
                    ));
                }
                ParamList::Any
            } else {
                ParamList::List(
                    f.positional
                        .iter()
                        .map(|p| param_from_node(p))
                        .collect::<Result<_, _>>()?,
                )
            };
            let spec = InitSpec {
                flags: f.flags(&[])?,
                tag: f.u32("tag")?,
                a_rwnd: f.u32("a_rwnd")?,
                os: f.u16("os")?,
                is: f.u16("is")?,
                tsn: f.u32("tsn")?,
                params,
            };
            if name == "INIT" {
                ChunkSpec::Init(spec)
            } else {
                ChunkSpec::InitAck(spec)
            }
        }
        "SACK" | "NR_SACK" => {
            let nr = name == "NR_SACK";
            let names: &[&str] = if nr {
                &["flgs", "cum_tsn", "a_rwnd", "gaps", "nr_gaps", "dups"]
            } else {
                &["flgs", "cum_tsn", "a_rwnd", "gaps", "dups"]
            };
            let f = Fields::new(n, names, false)?;
            let blocks = |key: &str| -> Result<Option<Vec<(u16, u16)>>, ParseError> {
                Ok(match f.list(key)? {
                    None => None,
                    Some((items, line)) => Some(
                        items
                            .iter()
                            .map(|v| match v {
                                Value::Range(a, b) if *a <= 0xffff && *b <= 0xffff => {
                                    Ok((*a as u16, *b as u16))
                                }
                                other => Err(ParseError::new(
                                    line,
                                    format!(
                                        "{key} expects `start:end`, found {}",
                                        other.describe()
                                    ),
                                )),
                            })
                            .collect::<Result<Vec<_>, _>>()?,
                    ),
                })
            };
            let gaps = blocks("gaps")?;
            let nr_gaps = if nr { blocks("nr_gaps")? } else { None };
            let dups = match f.list("dups")? {
                None => None,
                Some((items, line)) => Some(
                    items
                        .iter()
                        .map(|v| match v {
                            Value::Int(t) if *t <= u64::from(u32::MAX) => Ok(*t as u32),
                            other => Err(ParseError::new(
                                line,
                                format!("dups expects TSNs, found {}", other.describe()),
                            )),
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                ),
            };
            ChunkSpec::Sack {
                nr,
                nr_gaps,
                flags: f.flags(&[])?,
                cum_tsn: f.u32("cum_tsn")?,
                a_rwnd: f.u32("a_rwnd")?,
                gaps,
                dups,
            }
        }
        "HEARTBEAT" | "HEARTBEAT_ACK" => {
            let f = Fields::new(n, &["flgs"], true)?;
            if f.positional.len() > 1 {
                return Err(ParseError::new(
                    n.line,
                    format!("{name} takes one HEARTBEAT_INFORMATION parameter"),
                ));
            }
            let info = match f.positional.first() {
                Some(p) => Some(param_from_node(p)?),
                None => None,
            };
            let flags = f.flags(&[])?;
            if name == "HEARTBEAT" {
                ChunkSpec::Heartbeat { flags, info }
            } else {
                ChunkSpec::HeartbeatAck { flags, info }
            }
        }
        "ABORT" | "ERROR" => {
            let f = Fields::new(n, &["flgs"], true)?;
            let causes = if f.ellipsis {
                if !f.positional.is_empty() {
                    return Err(ParseError::new(
                        n.line,
                        format!("{name}: `...` cannot be mixed with listed causes"),
                    ));
                }
                CauseList::Any
            } else {
                CauseList::List(
                    f.positional
                        .iter()
                        .map(|c| cause_from_node(c))
                        .collect::<Result<_, _>>()?,
                )
            };
            if name == "ABORT" {
                ChunkSpec::Abort {
                    flags: f.flags(T_FLAG)?,
                    causes,
                }
            } else {
                ChunkSpec::Error {
                    flags: f.flags(&[])?,
                    causes,
                }
            }
        }
        "SHUTDOWN" => {
            let f = Fields::new(n, &["flgs", "cum_tsn"], false)?;
            ChunkSpec::Shutdown {
                flags: f.flags(&[])?,
                cum_tsn: f.u32("cum_tsn")?,
            }
        }
        "SHUTDOWN_ACK" | "COOKIE_ACK" => {
            let f = Fields::new(n, &["flgs"], false)?;
            let flags = f.flags(&[])?;
            if name == "SHUTDOWN_ACK" {
                ChunkSpec::ShutdownAck { flags }
            } else {
                ChunkSpec::CookieAck { flags }
            }
        }
        "SHUTDOWN_COMPLETE" => {
            let f = Fields::new(n, &["flgs"], false)?;
            ChunkSpec::ShutdownComplete {
                flags: f.flags(T_FLAG)?,
            }
        }
        "COOKIE_ECHO" => {
            let f = Fields::new(n, &["flgs", "len", "val"], false)?;
            let len = f.u16("len")?;
            let val = f.bytes("val")?;
            check_len_val(n, len, val.as_deref(), 4, true)?;
            ChunkSpec::CookieEcho {
                flags: f.flags(&[])?,
                len,
                val,
            }
        }
        "ECNE" | "CWR" => {
            let f = Fields::new(n, &["flgs", "tsn"], false)?;
            let (flags, tsn) = (f.flags(&[])?, f.u32("tsn")?);
            if name == "ECNE" {
                ChunkSpec::Ecne { flags, tsn }
            } else {
                ChunkSpec::Cwr { flags, tsn }
            }
        }
        "CHUNK" => {
            let f = Fields::new(n, &["type", "flgs", "len", "val"], false)?;
            let kind = match f.get("type") {
                Some((Value::Word(w), line)) => {
                    Some(chunk_type_by_name(w).ok_or_else(|| {
                        ParseError::new(line, format!("unknown chunk type `{w}`"))
                    })?)
                }
                _ => f.u8("type")?,
            };
            let len = f.u16("len")?;
            let val = f.bytes("val")?;
            check_len_val(n, len, val.as_deref(), 4, false)?;
            ChunkSpec::Generic {
                kind,
                flags: f.flags(&[])?,
                len,
                val,
            }
        }
        "PAD" => {
            let f = Fields::new(n, &["flgs", "len", "val"], false)?;
            if f.bytes("val")?.is_some() {
                return Err(ParseError::new(n.line, "PAD val must be `...`"));
            }
            let len = f.u16("len")?;
            check_len_val(n, len, None, 4, false)?;
            ChunkSpec::Pad {
                flags: f.flags(&[])?,
                len,
            }
        }
        "RECONFIG" => {
            let f = Fields::new(n, &["flgs"], true)?;
            let params = if f.ellipsis && f.positional.is_empty() {
                None
            } else {
                Some(
                    f.positional
                        .iter()
                        .map(|p| reconfig_param_from_node(p))
                        .collect::<Result<Vec<_>, _>>()?,
                )
            };
            ChunkSpec::Reconfig {
                flags: f.flags(&[])?,
                params,
            }
        }
        "FORWARD_TSN" | "I_FORWARD_TSN" | "AUTH" | "ASCONF" | "ASCONF_ACK" => {
            ChunkSpec::Unsupported {
                name: name.to_string(),
            }
        }
        other => {
            return Err(ParseError::new(
                n.line,
                format!("unknown chunk type `{other}`"),
            ))
        }
    })
}

/// packetdrill's length/value consistency rules: a value needs a length, and must fit it
/// (exactly, for COOKIE_ECHO and HEARTBEAT_INFORMATION).
fn check_len_val(
    n: &Node,
    len: Option<u16>,
    val: Option<&[u8]>,
    header: usize,
    exact: bool,
) -> Result<(), ParseError> {
    if let Some(l) = len {
        if usize::from(l) < header {
            return Err(ParseError::new(
                n.line,
                format!("{} length value out of range (< {header})", n.name),
            ));
        }
    }
    match (len, val) {
        (None, Some(_)) => Err(ParseError::new(
            n.line,
            format!("{}: the length needs to be specified with a value", n.name),
        )),
        (Some(l), Some(v))
            if (exact && usize::from(l) != header + v.len())
                || (!exact && usize::from(l) < header + v.len()) =>
        {
            Err(ParseError::new(
                n.line,
                format!("{}: length value incompatible with val", n.name),
            ))
        }
        _ => Ok(()),
    }
}

fn chunk_type_by_name(name: &str) -> Option<u8> {
    Some(match name {
        "DATA" => 0,
        "INIT" => 1,
        "INIT_ACK" => 2,
        "SACK" => 3,
        "HEARTBEAT" => 4,
        "HEARTBEAT_ACK" => 5,
        "ABORT" => 6,
        "SHUTDOWN" => 7,
        "SHUTDOWN_ACK" => 8,
        "ERROR" => 9,
        "COOKIE_ECHO" => 10,
        "COOKIE_ACK" => 11,
        "ECNE" => 12,
        "CWR" => 13,
        "SHUTDOWN_COMPLETE" => 14,
        "AUTH" => 15,
        "NR_SACK" => 16,
        "I_DATA" => 64,
        "ASCONF_ACK" => 0x80,
        "RECONFIG" => 0x82,
        "PAD" => 0x84,
        "FORWARD_TSN" => 0xC0,
        "ASCONF" => 0xC1,
        "I_FORWARD_TSN" => 0xC2,
        _ => return None,
    })
}

fn params_list(f: &Fields<'_>, name: &str) -> Result<Option<Vec<ParamSpec>>, ParseError> {
    match f.list(name)? {
        None => Ok(None),
        Some((items, line)) => items
            .iter()
            .map(|v| match v {
                Value::Node(p) => param_from_node(p),
                other => Err(ParseError::new(
                    line,
                    format!("{name} expects parameters, found {}", other.describe()),
                )),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
    }
}

fn param_from_node(n: &Node) -> Result<ParamSpec, ParseError> {
    let name = n.name.as_str();
    Ok(match name {
        "PARAMETER" => {
            let f = Fields::new(n, &["type", "len", "val"], false)?;
            let len = f.u16("len")?;
            let val = f.bytes("val")?;
            check_len_val(n, len, val.as_deref(), 4, false)?;
            ParamSpec::Generic {
                kind: f.u16("type")?,
                len,
                val,
            }
        }
        "HEARTBEAT_INFORMATION" => {
            let f = Fields::new(n, &["len", "val"], false)?;
            let len = f.u16("len")?;
            let val = f.bytes("val")?;
            check_len_val(n, len, val.as_deref(), 4, true)?;
            ParamSpec::HeartbeatInfo { len, val }
        }
        "IPV4_ADDRESS" => {
            let f = Fields::new(n, &["addr"], false)?;
            match f.get("addr") {
                None | Some((Value::Ellipsis, _)) => ParamSpec::Ipv4Address(None),
                Some((Value::Ipv4(a), _)) => ParamSpec::Ipv4Address(Some(*a)),
                Some((v, line)) => {
                    return Err(ParseError::new(
                        line,
                        format!("addr expects an IPv4 address, found {}", v.describe()),
                    ))
                }
            }
        }
        "IPV6_ADDRESS" => {
            let f = Fields::new(n, &["addr"], false)?;
            match f.get("addr") {
                None | Some((Value::Ellipsis, _)) => ParamSpec::Ipv6Address(None),
                Some((Value::Ipv6(a), _)) => ParamSpec::Ipv6Address(Some(*a)),
                Some((v, line)) => {
                    return Err(ParseError::new(
                        line,
                        format!("addr expects an IPv6 address, found {}", v.describe()),
                    ))
                }
            }
        }
        "STATE_COOKIE" => {
            let f = Fields::new(n, &["len", "val"], false)?;
            if f.bytes("val")?.is_some() {
                return Err(ParseError::new(n.line, "STATE_COOKIE val must be `...`"));
            }
            let len = f.u16("len")?;
            check_len_val(n, len, None, 4, false)?;
            ParamSpec::StateCookie { len }
        }
        "UNRECOGNIZED_PARAMETER" => {
            let f = Fields::new(n, &["params"], false)?;
            ParamSpec::UnrecognizedParameter(params_list(&f, "params")?)
        }
        "COOKIE_PRESERVATIVE" => {
            let f = Fields::new(n, &["incr"], false)?;
            ParamSpec::CookiePreservative(f.u32("incr")?)
        }
        "HOSTNAME_ADDRESS" => {
            let f = Fields::new(n, &["addr"], false)?;
            ParamSpec::HostnameAddress(f.str("addr")?)
        }
        "SUPPORTED_ADDRESS_TYPES" => {
            let f = Fields::new(n, &["types"], false)?;
            let types = match f.list("types")? {
                None => None,
                Some((items, line)) => Some(
                    items
                        .iter()
                        .map(|v| match v {
                            Value::Word(w) if w == "IPv4" => Ok(5u16),
                            Value::Word(w) if w == "IPv6" => Ok(6),
                            Value::Word(w) if w == "HOSTNAME" => Ok(11),
                            Value::Int(t) if *t <= 0xffff => Ok(*t as u16),
                            other => Err(ParseError::new(
                                line,
                                format!(
                                    "types expects IPv4, IPv6, HOSTNAME or a number, found {}",
                                    other.describe()
                                ),
                            )),
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                ),
            };
            ParamSpec::SupportedAddressTypes(types)
        }
        "ECN_CAPABLE" => {
            Fields::new(n, &[], false)?.no_positional()?;
            ParamSpec::EcnCapable
        }
        "FORWARD_TSN_SUPPORTED" => {
            Fields::new(n, &[], false)?.no_positional()?;
            ParamSpec::ForwardTsnSupported
        }
        "SUPPORTED_EXTENSIONS" => {
            let f = Fields::new(n, &["types"], false)?;
            let types = match f.list("types")? {
                None => None,
                Some((items, line)) => Some(
                    items
                        .iter()
                        .map(|v| match v {
                            Value::Word(w) => chunk_type_by_name(w).ok_or_else(|| {
                                ParseError::new(line, format!("unknown chunk type `{w}`"))
                            }),
                            Value::Int(t) if *t <= 0xff => Ok(*t as u8),
                            other => Err(ParseError::new(
                                line,
                                format!("types expects chunk types, found {}", other.describe()),
                            )),
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                ),
            };
            ParamSpec::SupportedExtensions(types)
        }
        "ADAPTATION_INDICATION" => {
            let f = Fields::new(n, &["adaptation_code_point"], false)?;
            ParamSpec::AdaptationIndication(f.u32("adaptation_code_point")?)
        }
        "PAD" => {
            let f = Fields::new(n, &["len", "val"], false)?;
            if f.bytes("val")?.is_some() {
                return Err(ParseError::new(n.line, "PAD val must be `...`"));
            }
            let len = f.u16("len")?;
            check_len_val(n, len, None, 4, false)?;
            ParamSpec::Pad { len }
        }
        "ZERO_CHECKSUM_ACCEPTABLE" => {
            let f = Fields::new(n, &["edmid"], false)?;
            let edmid = match f.get("edmid") {
                Some((Value::Word(w), _)) if w == "SCTP_OVER_DTLS" => Some(1),
                _ => f.u32("edmid")?,
            };
            ParamSpec::ZeroChecksumAcceptable(edmid)
        }
        "OUTGOING_SSN_RESET_REQUEST"
        | "INCOMING_SSN_RESET_REQUEST"
        | "SSN_TSN_RESET_REQUEST"
        | "RECONFIG_RESPONSE"
        | "ADD_OUTGOING_STREAMS_REQUEST"
        | "ADD_INCOMING_STREAMS_REQUEST"
        | "GENERIC_RECONFIG_REQUEST" => ParamSpec::Unsupported {
            name: name.to_string(),
        },
        other => {
            return Err(ParseError::new(
                n.line,
                format!("unknown parameter `{other}`"),
            ))
        }
    })
}

fn cause_from_node(n: &Node) -> Result<CauseSpec, ParseError> {
    let name = n.name.as_str();
    let f = |allowed: &[&str]| Fields::new(n, allowed, false);
    Ok(match name {
        "CAUSE" => {
            let f = f(&["cause_code", "len", "info"])?;
            let len = f.u16("len")?;
            let info = f.bytes("info")?;
            check_len_val(n, len, info.as_deref(), 4, false)?;
            CauseSpec::Generic {
                code: f.u16("cause_code")?,
                len,
                info,
            }
        }
        "INVALID_STREAM_IDENTIFIER" => CauseSpec::InvalidStreamIdentifier(f(&["sid"])?.u16("sid")?),
        "MISSING_MANDATORY_PARAMETER" => {
            let f = f(&["types"])?;
            let types = match f.list("types")? {
                None => None,
                Some((items, line)) => Some(
                    items
                        .iter()
                        .map(|v| match v {
                            Value::Int(t) if *t <= 0xffff => Ok(*t as u16),
                            other => Err(ParseError::new(
                                line,
                                format!("types expects numbers, found {}", other.describe()),
                            )),
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                ),
            };
            CauseSpec::MissingMandatoryParameter(types)
        }
        "STALE_COOKIE_ERROR" => CauseSpec::StaleCookie(f(&["staleness"])?.u32("staleness")?),
        "OUT_OF_RESOURCE" => {
            f(&[])?;
            CauseSpec::OutOfResource
        }
        "UNRESOLVABLE_ADDRESS" => {
            let f = f(&["param"])?;
            CauseSpec::UnresolvableAddress(match f.node_value("param")? {
                Some(p) => Some(Box::new(param_from_node(p)?)),
                None => None,
            })
        }
        "UNRECOGNIZED_CHUNK_TYPE" => {
            let f = f(&["chk"])?;
            CauseSpec::UnrecognizedChunkType(match f.node_value("chk")? {
                Some(c) => Some(Box::new(chunk_from_node(c)?)),
                None => None,
            })
        }
        "INVALID_MANDATORY_PARAMETER" => {
            f(&[])?;
            CauseSpec::InvalidMandatoryParameter
        }
        "UNRECOGNIZED_PARAMETERS" => {
            CauseSpec::UnrecognizedParameters(params_list(&f(&["params"])?, "params")?)
        }
        "NO_USER_DATA" => CauseSpec::NoUserData(f(&["tsn"])?.u32("tsn")?),
        "COOKIE_RECEIVED_WHILE_SHUTDOWN" => {
            f(&[])?;
            CauseSpec::CookieReceivedWhileShutdown
        }
        "RESTART_WITH_NEW_ADDRESSES" => {
            CauseSpec::RestartWithNewAddresses(params_list(&f(&["params"])?, "params")?)
        }
        "USER_INITIATED_ABORT" => CauseSpec::UserInitiatedAbort(f(&["info"])?.str("info")?),
        "PROTOCOL_VIOLATION" => CauseSpec::ProtocolViolation(f(&["info"])?.str("info")?),
        other => {
            return Err(ParseError::new(
                n.line,
                format!("unknown error cause `{other}`"),
            ))
        }
    })
}

/// A re-configuration parameter inside `RECONFIG[...]` (RFC 6525 §4; packetdrill's names).
fn reconfig_param_from_node(n: &Node) -> Result<ReconfigSpec, ParseError> {
    let sids = |f: &Fields<'_>| -> Result<Option<Vec<u16>>, ParseError> {
        match f.list("sids")? {
            None => Ok(None),
            Some((items, line)) => items
                .iter()
                .map(|v| match v {
                    Value::Int(s) if *s <= 0xffff => Ok(*s as u16),
                    other => Err(ParseError::new(
                        line,
                        format!("sids expects stream numbers, found {}", other.describe()),
                    )),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
        }
    };
    Ok(match n.name.as_str() {
        "OUTGOING_SSN_RESET" => {
            let f = Fields::new(n, &["req_sn", "resp_sn", "last_tsn", "sids"], false)?;
            ReconfigSpec::OutgoingSsnReset {
                req_sn: f.u32("req_sn")?,
                resp_sn: f.u32("resp_sn")?,
                last_tsn: f.u32("last_tsn")?,
                sids: sids(&f)?,
            }
        }
        "INCOMING_SSN_RESET" => {
            let f = Fields::new(n, &["req_sn", "sids"], false)?;
            ReconfigSpec::IncomingSsnReset {
                req_sn: f.u32("req_sn")?,
                sids: sids(&f)?,
            }
        }
        "SSN_TSN_RESET" => {
            let f = Fields::new(n, &["req_sn"], false)?;
            ReconfigSpec::SsnTsnReset {
                req_sn: f.u32("req_sn")?,
            }
        }
        "RECONFIG_RESPONSE" => {
            let f = Fields::new(
                n,
                &["resp_sn", "result", "sender_next_tsn", "receiver_next_tsn"],
                false,
            )?;
            ReconfigSpec::Response {
                resp_sn: f.u32("resp_sn")?,
                result: f.u32("result")?,
                sender_next_tsn: f.u32("sender_next_tsn")?,
                receiver_next_tsn: f.u32("receiver_next_tsn")?,
            }
        }
        "ADD_OUTGOING_STREAMS" | "ADD_INCOMING_STREAMS" => {
            let f = Fields::new(n, &["req_sn", "number_of_new_streams"], false)?;
            let (req_sn, number_of_new_streams) =
                (f.u32("req_sn")?, f.u16("number_of_new_streams")?);
            if n.name == "ADD_OUTGOING_STREAMS" {
                ReconfigSpec::AddOutgoingStreams {
                    req_sn,
                    number_of_new_streams,
                }
            } else {
                ReconfigSpec::AddIncomingStreams {
                    req_sn,
                    number_of_new_streams,
                }
            }
        }
        other => {
            return Err(ParseError::new(
                n.line,
                format!("unknown re-configuration parameter `{other}`"),
            ))
        }
    })
}
