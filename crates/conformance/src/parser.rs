//! The parser: tokens ([`crate::lexer`]) to a [`Script`].
//!
//! Grammar (the part of packetdrill's `parser.y` that SCTP scripts use):
//!
//! ```text
//! script   := option* event*
//! option   := --name[=value]
//! event    := time action
//! time     := [+]SECONDS | * | SECONDS~SECONDS | +SECONDS~+SECONDS
//! action   := packet | syscall | `command` | %{ code }%
//! packet   := (< | >) sctp [( tag=N | bad_crc32c | zero_checksum , ... )] : body
//! body     := chunk (; chunk)* | [ byte, ... ] | (nothing)
//! chunk    := NAME [ item, ... ]          item := ... | name=value | NAME[...]
//! value    := ... | number | number:number | word | "string" | address | [ value, ... ] | NAME[...]
//! syscall  := [... SECONDS] name ( expr, ... ) = expr [ERRNO] [( words )]
//! expr     := term (| term)*               term := ... | [-]number | SYMBOL[(expr, ...)]
//!                                               | "string" | [ expr, ... ] | { name=expr, ... }
//! ```
//!
//! Chunk, parameter and cause fields are named and may come in any order; a missing field is a
//! wildcard, like `...`.

use crate::ast::*;
use crate::lexer::{lex, Tok, Token};
use crate::specs::{chunk_from_node, Item, Node, Value};
use crate::ParseError;

/// Parses a script. `defines` are the symbols `#ifdef` tests.
///
/// Errors: the first lexical, syntax or range error, with its line.
pub fn parse_script(text: &str, defines: &[String]) -> Result<Script, ParseError> {
    let toks = lex(text, defines)?;
    let last_line = toks.last().map_or(1, |t| t.line);
    let mut p = Parser {
        toks,
        pos: 0,
        last_line,
    };
    p.script()
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    last_line: u32,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn peek2(&self) -> Option<&Tok> {
        self.toks.get(self.pos + 1).map(|t| &t.tok)
    }

    fn line(&self) -> u32 {
        self.toks.get(self.pos).map_or(self.last_line, |t| t.line)
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.toks.get(self.pos).cloned();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    fn err(&self, msg: impl Into<String>) -> ParseError {
        ParseError::new(self.line(), msg)
    }

    fn unexpected(&self, wanted: &str) -> ParseError {
        match self.peek() {
            Some(t) => self.err(format!("expected {wanted}, found {t}")),
            None => self.err(format!("expected {wanted}, found the end of the script")),
        }
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, c: char) -> Result<(), ParseError> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{c}`")))
        }
    }

    // ------------------------------------------------------------------ script and events

    fn script(&mut self) -> Result<Script, ParseError> {
        let mut script = Script::default();
        while let Some(Tok::Opt(name, value)) = self.peek().cloned() {
            script.options.push(ScriptOption {
                name,
                value,
                line: self.line(),
            });
            self.pos += 1;
        }
        while self.peek().is_some() {
            if let Some(Tok::Opt(name, _)) = self.peek() {
                return Err(self.err(format!(
                    "option --{name} after the first event (options belong in the header)"
                )));
            }
            script.events.push(self.event()?);
        }
        Ok(script)
    }

    fn seconds(&mut self) -> Result<u64, ParseError> {
        let line = self.line();
        match self.next().map(|t| t.tok) {
            Some(Tok::Int(s)) => s
                .checked_mul(1_000_000_000)
                .ok_or_else(|| ParseError::new(line, "time out of range")),
            Some(Tok::Float(text)) => {
                parse_seconds(&text).ok_or_else(|| ParseError::new(line, "time out of range"))
            }
            _ => {
                self.pos = self.pos.saturating_sub(1);
                Err(self.unexpected("a time in seconds"))
            }
        }
    }

    fn event(&mut self) -> Result<Event, ParseError> {
        let line = self.line();
        let time = if self.eat_punct('*') {
            EventTime::Any
        } else if self.eat_punct('+') {
            let t = self.seconds()?;
            if self.eat_punct('~') {
                self.expect_punct('+')?;
                let end = self.seconds()?;
                if end < t {
                    return Err(ParseError::new(line, "time range is backwards"));
                }
                EventTime::RelativeRange(t, end)
            } else {
                EventTime::Relative(t)
            }
        } else if matches!(self.peek(), Some(Tok::Int(_)) | Some(Tok::Float(_))) {
            let t = self.seconds()?;
            if self.eat_punct('~') {
                let end = self.seconds()?;
                if end < t {
                    return Err(ParseError::new(line, "time range is backwards"));
                }
                EventTime::AbsoluteRange(t, end)
            } else {
                EventTime::Absolute(t)
            }
        } else {
            return Err(self.unexpected("an event time (`0.1`, `+0.1` or `*`)"));
        };
        let action = self.action()?;
        let outbound = matches!(
            &action,
            Action::Packet(PacketSpec {
                direction: Direction::Outbound,
                ..
            })
        );
        match time {
            EventTime::Any if !outbound => Err(ParseError::new(
                line,
                "event time `*` can only be used with outbound packets",
            )),
            EventTime::AbsoluteRange(..) | EventTime::RelativeRange(..) if !outbound => {
                Err(ParseError::new(
                    line,
                    "event time range can only be used with outbound packets",
                ))
            }
            _ => Ok(Event { line, time, action }),
        }
    }

    fn action(&mut self) -> Result<Action, ParseError> {
        match self.peek().cloned() {
            Some(Tok::Punct('<')) => {
                self.pos += 1;
                Ok(Action::Packet(self.packet(Direction::Inbound)?))
            }
            Some(Tok::Punct('>')) => {
                self.pos += 1;
                Ok(Action::Packet(self.packet(Direction::Outbound)?))
            }
            Some(Tok::BackQuoted(cmd)) => {
                self.pos += 1;
                Ok(Action::Command(cmd))
            }
            Some(Tok::Code(code)) => {
                self.pos += 1;
                Ok(Action::Code(code))
            }
            Some(Tok::Ellipsis) => {
                self.pos += 1;
                let end = self.seconds()?;
                Ok(Action::Syscall(self.syscall(Some(end))?))
            }
            Some(Tok::Word(_)) if self.peek2() == Some(&Tok::Punct('(')) => {
                Ok(Action::Syscall(self.syscall(None)?))
            }
            _ => Err(self.unexpected("a packet (`<` or `>`), a system call or a command")),
        }
    }

    // ------------------------------------------------------------------ packets

    fn packet(&mut self, direction: Direction) -> Result<PacketSpec, ParseError> {
        // packetdrill's `packet_prefix opt_ip_info opt_port_info sctp_header_spec`: an
        // optional `ipv4` keyword and `SRC > DST[:]` addresses, then optional `SPORT>DPORT`.
        let line = self.line();
        let mut addrs = None;
        if matches!(self.peek(), Some(Tok::Word(w)) if w == "ipv4") {
            self.pos += 1;
        }
        if let (Some(Tok::Ipv4(src)), Some(Tok::Punct('>'))) = (self.peek().cloned(), self.peek2())
        {
            self.pos += 2;
            match self.next().map(|t| t.tok) {
                Some(Tok::Ipv4(dst)) => addrs = Some((src, dst)),
                _ => return Err(ParseError::new(line, "expected `SRC > DST` IPv4 addresses")),
            }
            self.eat_punct(':');
        }
        let mut ports = None;
        if let (Some(Tok::Int(sp)), Some(Tok::Punct('>'))) = (self.peek().cloned(), self.peek2()) {
            self.pos += 2;
            let dp = self.int_tok()?;
            match (u16::try_from(sp), u16::try_from(dp)) {
                (Ok(sp), Ok(dp)) => ports = Some((sp, dp)),
                _ => return Err(ParseError::new(line, "port out of range")),
            }
        }
        if direction == Direction::Outbound && (addrs.is_some() || ports.is_some()) {
            return Err(ParseError::new(
                line,
                "unsupported: explicit addresses or ports on an outbound packet",
            ));
        }
        match self.peek().cloned() {
            Some(Tok::Word(w)) if w == "sctp" => {
                self.pos += 1;
            }
            Some(Tok::Word(w)) if matches!(w.as_str(), "udp" | "udplite" | "icmp" | "gre") => {
                return Err(self.err(format!("unsupported: {w} packets (only SCTP)")))
            }
            Some(_) => {
                return Err(self.err(
                    "unsupported: packet syntax other than `sctp: ...` (TCP packets, IPv6 or IP options)",
                ))
            }
            None => return Err(self.unexpected("`sctp`")),
        }
        let mut spec = PacketSpec {
            direction,
            tag: None,
            bad_crc32c: false,
            zero_checksum: false,
            addrs,
            ports,
            chunks: PacketBody::Chunks(Vec::new()),
        };
        if self.eat_punct('(') {
            loop {
                let line = self.line();
                match self.next().map(|t| t.tok) {
                    Some(Tok::Word(w)) if w == "tag" => {
                        self.expect_punct('=')?;
                        let v = self.int_tok()?;
                        spec.tag = Some(
                            u32::try_from(v)
                                .map_err(|_| ParseError::new(line, "tag value out of range"))?,
                        );
                    }
                    Some(Tok::Word(w)) if w == "bad_crc32c" => spec.bad_crc32c = true,
                    Some(Tok::Word(w)) if w == "zero_checksum" => spec.zero_checksum = true,
                    _ => {
                        return Err(ParseError::new(
                            line,
                            "expected `tag=N`, `bad_crc32c` or `zero_checksum` in sctp(...)",
                        ))
                    }
                }
                if self.eat_punct(')') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        if self.is_punct('/') {
            return Err(self.err("unsupported: UDP encapsulation of SCTP"));
        }
        self.expect_punct(':')?;
        if self.eat_punct('[') {
            if direction == Direction::Outbound {
                // packetdrill: "generic packets can only be specified as inbound".
                return Err(ParseError::new(
                    line,
                    "raw packets (`sctp: [bytes]`) can only be inbound",
                ));
            }
            let mut bytes = Vec::new();
            if !self.eat_punct(']') {
                loop {
                    bytes.push(self.byte()?);
                    if self.eat_punct(']') {
                        break;
                    }
                    self.expect_punct(',')?;
                }
            }
            spec.chunks = PacketBody::Bytes(bytes);
            return Ok(spec);
        }
        let mut chunks = Vec::new();
        if matches!(self.peek(), Some(Tok::Word(_))) && self.peek2() == Some(&Tok::Punct('[')) {
            loop {
                let node = self.node()?;
                chunks.push(chunk_from_node(&node)?);
                if !self.eat_punct(';') {
                    break;
                }
            }
        }
        spec.chunks = PacketBody::Chunks(chunks);
        Ok(spec)
    }

    fn int_tok(&mut self) -> Result<u64, ParseError> {
        match self.next().map(|t| t.tok) {
            Some(Tok::Int(v)) | Some(Tok::Hex(v)) => Ok(v),
            _ => {
                self.pos = self.pos.saturating_sub(1);
                Err(self.unexpected("a number"))
            }
        }
    }

    fn byte(&mut self) -> Result<u8, ParseError> {
        let line = self.line();
        let v = self.int_tok()?;
        u8::try_from(v).map_err(|_| ParseError::new(line, "byte value out of range"))
    }

    /// `NAME [ item, ... ]`
    fn node(&mut self) -> Result<Node, ParseError> {
        let line = self.line();
        let name = match self.next().map(|t| t.tok) {
            Some(Tok::Word(w)) => w,
            _ => {
                self.pos = self.pos.saturating_sub(1);
                return Err(self.unexpected("a chunk, parameter or cause name"));
            }
        };
        self.expect_punct('[')?;
        let mut items = Vec::new();
        if self.eat_punct(']') {
            return Ok(Node { name, line, items });
        }
        loop {
            let item_line = self.line();
            match self.peek().cloned() {
                Some(Tok::Ellipsis) => {
                    self.pos += 1;
                    items.push(Item::Ellipsis);
                }
                Some(Tok::Word(w)) if self.peek2() == Some(&Tok::Punct('=')) => {
                    self.pos += 2;
                    let v = self.value()?;
                    items.push(Item::Field(w, v, item_line));
                }
                Some(Tok::Word(_)) if self.peek2() == Some(&Tok::Punct('[')) => {
                    items.push(Item::Node(self.node()?));
                }
                _ => return Err(self.unexpected("`name=value`, a nested `NAME[...]` or `...`")),
            }
            if self.eat_punct(']') {
                break;
            }
            self.expect_punct(',')?;
        }
        Ok(Node { name, line, items })
    }

    fn value(&mut self) -> Result<Value, ParseError> {
        match self.peek().cloned() {
            Some(Tok::Ellipsis) => {
                self.pos += 1;
                Ok(Value::Ellipsis)
            }
            Some(Tok::Int(v)) | Some(Tok::Hex(v)) => {
                self.pos += 1;
                if self.eat_punct(':') {
                    let end = self.int_tok()?;
                    return Ok(Value::Range(v, end));
                }
                Ok(Value::Int(v))
            }
            Some(Tok::Word(_)) if self.peek2() == Some(&Tok::Punct('[')) => {
                Ok(Value::Node(self.node()?))
            }
            Some(Tok::Word(w)) => {
                self.pos += 1;
                Ok(Value::Word(w))
            }
            Some(Tok::Str(s)) => {
                self.pos += 1;
                Ok(Value::Str(s))
            }
            Some(Tok::Ipv4(a)) => {
                self.pos += 1;
                Ok(Value::Ipv4(a))
            }
            Some(Tok::Ipv6(a)) => {
                self.pos += 1;
                Ok(Value::Ipv6(a))
            }
            Some(Tok::Punct('[')) => {
                self.pos += 1;
                let mut list = Vec::new();
                if self.eat_punct(']') {
                    return Ok(Value::List(list));
                }
                loop {
                    list.push(self.value()?);
                    if self.eat_punct(']') {
                        break;
                    }
                    self.expect_punct(',')?;
                }
                if let [Value::Ellipsis] = list.as_slice() {
                    return Ok(Value::Ellipsis);
                }
                Ok(Value::List(list))
            }
            _ => Err(self.unexpected("a value")),
        }
    }

    // ------------------------------------------------------------------ system calls

    fn syscall(&mut self, end_time: Option<u64>) -> Result<Syscall, ParseError> {
        let name = match self.next().map(|t| t.tok) {
            Some(Tok::Word(w)) => w,
            _ => {
                self.pos = self.pos.saturating_sub(1);
                return Err(self.unexpected("a system call name"));
            }
        };
        self.expect_punct('(')?;
        let mut args = Vec::new();
        if !self.eat_punct(')') {
            loop {
                args.push(self.expr()?);
                if self.eat_punct(')') {
                    break;
                }
                self.expect_punct(',')?;
            }
        }
        self.expect_punct('=')?;
        let result = self.expr()?;
        let mut errno = None;
        if let Some(Tok::Word(w)) = self.peek().cloned() {
            self.pos += 1;
            errno = Some(w);
        }
        if self.is_punct('(') {
            self.skip_note()?;
        }
        Ok(Syscall {
            end_time,
            name,
            args,
            result,
            errno,
        })
    }

    /// `( words )` after a result: a human-readable note, ignored.
    fn skip_note(&mut self) -> Result<(), ParseError> {
        let line = self.line();
        let mut depth = 0usize;
        loop {
            match self.next().map(|t| t.tok) {
                Some(Tok::Punct('(')) => depth += 1,
                Some(Tok::Punct(')')) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some(_) => {}
                None => return Err(ParseError::new(line, "unterminated `(` note")),
            }
        }
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        let first = self.term()?;
        if !self.is_punct('|') {
            return Ok(first);
        }
        let mut parts = vec![first];
        while self.eat_punct('|') {
            parts.push(self.term()?);
        }
        Ok(Expr::Or(parts))
    }

    fn term(&mut self) -> Result<Expr, ParseError> {
        let line = self.line();
        match self.peek().cloned() {
            Some(Tok::Ellipsis) => {
                self.pos += 1;
                Ok(Expr::Ellipsis)
            }
            Some(Tok::Punct('-')) => {
                self.pos += 1;
                let v = self.int_tok()?;
                let v =
                    i64::try_from(v).map_err(|_| ParseError::new(line, "number out of range"))?;
                Ok(Expr::Int(-v))
            }
            Some(Tok::Int(v)) | Some(Tok::Hex(v)) => {
                self.pos += 1;
                let v =
                    i64::try_from(v).map_err(|_| ParseError::new(line, "number out of range"))?;
                Ok(Expr::Int(v))
            }
            Some(Tok::Str(s)) => {
                self.pos += 1;
                Ok(Expr::Str(s))
            }
            Some(Tok::Word(w)) => {
                self.pos += 1;
                if self.eat_punct('(') {
                    let mut args = Vec::new();
                    if !self.eat_punct(')') {
                        loop {
                            args.push(self.expr()?);
                            if self.eat_punct(')') {
                                break;
                            }
                            self.expect_punct(',')?;
                        }
                    }
                    return Ok(Expr::Call(w, args));
                }
                Ok(Expr::Symbol(w))
            }
            Some(Tok::Punct('[')) => {
                self.pos += 1;
                let mut items = Vec::new();
                if !self.eat_punct(']') {
                    loop {
                        items.push(self.expr()?);
                        if self.eat_punct(']') {
                            break;
                        }
                        self.expect_punct(',')?;
                    }
                }
                Ok(Expr::Array(items))
            }
            Some(Tok::Punct('{')) => {
                self.pos += 1;
                let mut fields = Vec::new();
                if !self.eat_punct('}') {
                    loop {
                        let name = match self.peek().cloned() {
                            Some(Tok::Word(w)) if self.peek2() == Some(&Tok::Punct('=')) => {
                                self.pos += 2;
                                w
                            }
                            Some(Tok::Punct('.')) => {
                                // `.field = value` (C designated initializer style).
                                self.pos += 1;
                                match self.next().map(|t| t.tok) {
                                    Some(Tok::Word(w)) => {
                                        self.expect_punct('=')?;
                                        w
                                    }
                                    _ => return Err(self.unexpected("a field name")),
                                }
                            }
                            _ => return Err(self.unexpected("`field=value` in a structure")),
                        };
                        fields.push((name, self.expr()?));
                        if self.eat_punct('}') {
                            break;
                        }
                        self.expect_punct(',')?;
                    }
                }
                Ok(Expr::Struct(fields))
            }
            _ => Err(self.unexpected("an expression")),
        }
    }
}

/// Seconds written as `12.345678` to nanoseconds, exactly (digits past the ninth decimal are
/// dropped). `None` on overflow or bad syntax.
pub fn parse_seconds(text: &str) -> Option<u64> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let int: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut ns: u64 = 0;
    for i in 0..9 {
        let d = frac.as_bytes().get(i).map_or(0, |b| u64::from(b - b'0'));
        ns = ns * 10 + d;
    }
    int.checked_mul(1_000_000_000)?.checked_add(ns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn parse(s: &str) -> Result<Script, ParseError> {
        parse_script(s, &["FreeBSD".to_string()])
    }

    #[test]
    fn seconds_are_exact() {
        assert_eq!(parse_seconds("0.1"), Some(100_000_000));
        assert_eq!(parse_seconds("1.0"), Some(1_000_000_000));
        assert_eq!(parse_seconds("0.0000000019"), Some(1));
        assert_eq!(parse_seconds("12"), Some(12_000_000_000));
        assert_eq!(parse_seconds("99999999999999999999.0"), None);
        assert_eq!(parse_seconds("."), None);
    }

    #[test]
    fn times_and_errors() {
        let s = parse("0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n+0.5 close(3) = 0\n* > sctp: COOKIE_ACK[flgs=0]\n+0.1~+0.2 > sctp: SHUTDOWN_ACK[flgs=0]\n").unwrap();
        let times: Vec<_> = s.events.iter().map(|e| e.time).collect();
        assert_eq!(
            times,
            vec![
                EventTime::Absolute(0),
                EventTime::Relative(500_000_000),
                EventTime::Any,
                EventTime::RelativeRange(100_000_000, 200_000_000)
            ]
        );
        assert_eq!(s.events[1].line, 2);
        let e =
            parse("0.0 socket(..., SOCK_STREAM, IPPROTO_SCTP) = 3\n* close(3) = 0\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("outbound"));
        let e = parse("+0.0 < sctp: DATA[flgs=XY]").unwrap_err();
        assert!(e.message.contains("IUBE"), "{e}");
        let e = parse("+0.0 < sctp: DATA[flgs=0, bogus=1]").unwrap_err();
        assert!(e.message.contains("unknown field"), "{e}");
        let e = parse("\n\n+0.0 < sctp: FOO[]").unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (3, "unknown chunk type `FOO`")
        );
        let e = parse("+0.0 < tcp S 0:0(0) win 1000").unwrap_err();
        assert!(e.message.starts_with("unsupported"), "{e}");
        assert!(parse("+0.0 close(3) = 0\n--x=1").is_err());
        assert!(parse("+0.0 < sctp: COOKIE_ECHO[flgs=0, len=8, val=[1]]").is_err());
        assert!(parse("+0.0 < sctp: SACK[flgs=0, gaps=[1]]").is_err());
        assert!(parse("+0.0 < sctp: DATA[flgs=0, tsn=4294967296]").is_err());
        assert!(parse("+0.0 close(3 = 0").is_err());
        assert!(parse("+0.0").is_err());
        assert!(parse("+0.0 < sctp: DATA[flgs=BB]").is_err());
    }

    #[test]
    fn packets() {
        let s = parse(
            "+0.0 < sctp(tag=1): INIT[flgs=0, tag=1, a_rwnd=1500, os=1, is=1, tsn=0,\n IPV4_ADDRESS[addr=1.1.1.1], SUPPORTED_ADDRESS_TYPES[types=[IPv4, IPv6]]];\n DATA[flgs=BE, len=116, tsn=1, sid=0, ssn=0, ppid=0]\n+0.0 > sctp: ABORT[flgs=..., UNRESOLVABLE_ADDRESS[param=HOSTNAME_ADDRESS[addr=\"a.b\"]]]\n+0.0 > sctp: INIT_ACK[flgs=0, tag=2, a_rwnd=..., os=..., is=..., tsn=1, ...]",
        )
        .unwrap();
        let Action::Packet(p) = &s.events[0].action else {
            panic!()
        };
        assert_eq!(p.tag, Some(1));
        let PacketBody::Chunks(c) = &p.chunks else {
            panic!()
        };
        assert_eq!(c.len(), 2);
        let ChunkSpec::Init(init) = &c[0] else {
            panic!()
        };
        assert_eq!(
            init.params,
            ParamList::List(vec![
                ParamSpec::Ipv4Address(Some(Ipv4Addr::new(1, 1, 1, 1))),
                ParamSpec::SupportedAddressTypes(Some(vec![5, 6]))
            ])
        );
        assert_eq!(
            c[1],
            ChunkSpec::Data {
                flags: Some(3),
                len: Some(116),
                tsn: Some(1),
                sid: Some(0),
                ssn: Some(0),
                ppid: Some(0)
            }
        );
        let Action::Packet(p) = &s.events[2].action else {
            panic!()
        };
        let PacketBody::Chunks(c) = &p.chunks else {
            panic!()
        };
        let ChunkSpec::InitAck(ack) = &c[0] else {
            panic!()
        };
        assert_eq!((ack.a_rwnd, ack.params.clone()), (None, ParamList::Any));
    }

    #[test]
    fn syscalls() {
        let s = parse("+0.0 setsockopt(3, IPPROTO_SCTP, SCTP_RTOINFO, {srto_initial=100, srto_max=800, srto_min=100}, 16) = 0\n+0.0 fcntl(3, F_SETFL, O_RDWR|O_NONBLOCK) = 0\n+0.1 connect(3, ..., ...) = -1 EINPROGRESS (Operation now in progress)\n+0.0 fcntl(3, F_GETFL) = 0x02 (flags O_RDWR)\n+0.0 getsockopt(3, SOL_SOCKET, SO_ERROR, [ETIMEDOUT], [4]) = 0").unwrap();
        let Action::Syscall(c) = &s.events[2].action else {
            panic!()
        };
        assert_eq!(c.result, Expr::Int(-1));
        assert_eq!(c.errno.as_deref(), Some("EINPROGRESS"));
        let Action::Syscall(c) = &s.events[1].action else {
            panic!()
        };
        assert_eq!(
            c.args[2],
            Expr::Or(vec![
                Expr::Symbol("O_RDWR".into()),
                Expr::Symbol("O_NONBLOCK".into())
            ])
        );
        let Action::Syscall(c) = &s.events[3].action else {
            panic!()
        };
        assert_eq!((c.result.clone(), c.errno.clone()), (Expr::Int(2), None));
        assert_eq!(s.events.len(), 5);
    }
}
