//! Tokens of the packetdrill script language, as far as the SCTP scripts use it.
//!
//! Whitespace and newlines separate tokens (statements are delimited by the grammar, not by
//! lines). `//` and `/* */` comments are skipped. `#ifdef NAME` ... `#endif` keeps its body when
//! `NAME` is defined and skips it otherwise (not nested, as in packetdrill). Every token carries
//! the line it starts on; errors carry the line of the offending character.

use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

use crate::ParseError;

/// A token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// An identifier or keyword: letters, digits and `_`, starting with a letter or `_`.
    Word(String),
    /// A decimal integer.
    Int(u64),
    /// A hexadecimal integer (`0x...`).
    Hex(u64),
    /// A decimal number with a fraction (`0.1`), kept as text so that times convert to
    /// nanoseconds exactly.
    Float(String),
    /// A double-quoted string (escapes `\"` and `\\` resolved).
    Str(String),
    /// A back-quoted shell command.
    BackQuoted(String),
    /// An IPv4 address literal.
    Ipv4(Ipv4Addr),
    /// An IPv6 address literal.
    Ipv6(Ipv6Addr),
    /// `...`
    Ellipsis,
    /// A `%{ ... }%` code block (its text).
    Code(String),
    /// A command-line option in the script header: `--name` or `--name=value`.
    Opt(String, Option<String>),
    /// Any other single character: `( ) [ ] { } , ; : = + - * ~ < > | &` ...
    Punct(char),
}

impl std::fmt::Display for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tok::Word(w) => write!(f, "`{w}`"),
            Tok::Int(v) => write!(f, "`{v}`"),
            Tok::Hex(v) => write!(f, "`{v:#x}`"),
            Tok::Float(s) => write!(f, "`{s}`"),
            Tok::Str(s) => write!(f, "string {s:?}"),
            Tok::BackQuoted(s) => write!(f, "command `{s}`"),
            Tok::Ipv4(a) => write!(f, "address {a}"),
            Tok::Ipv6(a) => write!(f, "address {a}"),
            Tok::Ellipsis => f.write_str("`...`"),
            Tok::Code(_) => f.write_str("code block"),
            Tok::Opt(n, _) => write!(f, "option --{n}"),
            Tok::Punct(c) => write!(f, "`{c}`"),
        }
    }
}

/// A token and the line it starts on (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Line number, 1-based.
    pub line: u32,
}

struct Lexer<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    line: u32,
    defines: &'a [String],
    ifdef_line: Option<u32>,
    out: Vec<Token>,
}

/// Splits `text` into tokens; `defines` are the symbols `#ifdef` tests (packetdrill defines
/// the name of the operating system it runs on).
///
/// Errors: an unterminated string, comment, command or `#ifdef`, a stray `#endif`, a nested
/// `#ifdef`, an unknown `#` directive, a number out of range or a character outside the
/// language, each with its line.
pub fn lex(text: &str, defines: &[String]) -> Result<Vec<Token>, ParseError> {
    let mut lx = Lexer {
        s: text.as_bytes(),
        text,
        pos: 0,
        line: 1,
        defines,
        ifdef_line: None,
        out: Vec::new(),
    };
    lx.run()?;
    if let Some(l) = lx.ifdef_line {
        return Err(ParseError::new(l, "unterminated #ifdef"));
    }
    Ok(lx.out)
}

fn is_word_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl Lexer<'_> {
    fn peek(&self, k: usize) -> Option<u8> {
        self.s.get(self.pos + k).copied()
    }

    fn starts_with(&self, p: &str) -> bool {
        self.s
            .get(self.pos..)
            .is_some_and(|rest| rest.starts_with(p.as_bytes()))
    }

    fn err(&self, msg: impl Into<String>) -> ParseError {
        ParseError::new(self.line, msg)
    }

    fn push(&mut self, tok: Tok, line: u32) {
        self.out.push(Token { tok, line });
    }

    /// Advances over `n` bytes, counting newlines.
    fn bump(&mut self, n: usize) {
        for _ in 0..n {
            if self.peek(0) == Some(b'\n') {
                self.line += 1;
            }
            self.pos += 1;
        }
    }

    fn slice(&self, from: usize, to: usize) -> &str {
        self.text.get(from..to).unwrap_or("")
    }

    fn run(&mut self) -> Result<(), ParseError> {
        while let Some(c) = self.peek(0) {
            let line = self.line;
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' => self.bump(1),
                b'/' if self.peek(1) == Some(b'/') => {
                    while self.peek(0).is_some_and(|c| c != b'\n') {
                        self.bump(1);
                    }
                }
                b'/' if self.peek(1) == Some(b'*') => {
                    self.bump(2);
                    loop {
                        if self.starts_with("*/") {
                            self.bump(2);
                            break;
                        }
                        if self.peek(0).is_none() {
                            return Err(ParseError::new(line, "unterminated /* comment"));
                        }
                        self.bump(1);
                    }
                }
                b'#' => self.directive()?,
                b'"' => {
                    let s = self.quoted(b'"')?;
                    self.push(Tok::Str(s), line);
                }
                b'`' => {
                    let s = self.quoted(b'`')?;
                    self.push(Tok::BackQuoted(s), line);
                }
                b'%' if self.peek(1) == Some(b'{') => {
                    self.bump(2);
                    let start = self.pos;
                    loop {
                        if self.starts_with("}%") {
                            let code = self.slice(start, self.pos).to_string();
                            self.bump(2);
                            self.push(Tok::Code(code), line);
                            break;
                        }
                        if self.peek(0).is_none() {
                            return Err(ParseError::new(line, "unterminated %{ code block"));
                        }
                        self.bump(1);
                    }
                }
                b'.' if self.starts_with("...") => {
                    self.bump(3);
                    self.push(Tok::Ellipsis, line);
                }
                b'-' if self.peek(1) == Some(b'-') && self.peek(2).is_some_and(is_word_start) => {
                    self.option(line);
                }
                _ if self.address(line) => {}
                _ if c.is_ascii_digit() => self.number(line)?,
                _ if is_word_start(c) => {
                    let start = self.pos;
                    while self.peek(0).is_some_and(is_word_char) {
                        self.bump(1);
                    }
                    let w = self.slice(start, self.pos).to_string();
                    self.push(Tok::Word(w), line);
                }
                b'(' | b')' | b'[' | b']' | b'{' | b'}' | b',' | b';' | b':' | b'=' | b'+'
                | b'-' | b'*' | b'~' | b'<' | b'>' | b'|' | b'&' | b'.' | b'/' | b'!' => {
                    self.bump(1);
                    self.push(Tok::Punct(c as char), line);
                }
                _ => {
                    let ch = self.text.get(self.pos..).and_then(|r| r.chars().next());
                    return Err(self.err(format!(
                        "unexpected character {:?}",
                        ch.unwrap_or(char::REPLACEMENT_CHARACTER)
                    )));
                }
            }
        }
        Ok(())
    }

    /// `#ifdef NAME`, `#endif`; anything else starting with `#` is an error.
    fn directive(&mut self) -> Result<(), ParseError> {
        let line = self.line;
        if self.starts_with("#ifdef") && !self.peek(6).is_some_and(is_word_char) {
            if let Some(prev) = self.ifdef_line {
                return Err(self.err(format!("#ifdef already seen in line {prev}")));
            }
            self.bump(6);
            while self.peek(0).is_some_and(|c| c.is_ascii_whitespace()) {
                self.bump(1);
            }
            let start = self.pos;
            while self.peek(0).is_some_and(is_word_char) {
                self.bump(1);
            }
            let name = self.slice(start, self.pos).to_string();
            if name.is_empty() || !name.as_bytes()[0].is_ascii_alphabetic() {
                return Err(ParseError::new(line, "#ifdef must be followed by a name"));
            }
            self.ifdef_line = Some(line);
            if !self.defines.iter().any(|d| d == &name) {
                // Skip to the matching #endif.
                loop {
                    if self.starts_with("#endif") && !self.peek(6).is_some_and(is_word_char) {
                        self.bump(6);
                        self.ifdef_line = None;
                        break;
                    }
                    if self.peek(0).is_none() {
                        return Err(ParseError::new(line, "unterminated #ifdef"));
                    }
                    self.bump(1);
                }
            }
            return Ok(());
        }
        if self.starts_with("#endif") && !self.peek(6).is_some_and(is_word_char) {
            if self.ifdef_line.take().is_none() {
                return Err(self.err("#endif without #ifdef"));
            }
            self.bump(6);
            return Ok(());
        }
        let start = self.pos;
        self.bump(1);
        while self.peek(0).is_some_and(is_word_char) {
            self.bump(1);
        }
        Err(ParseError::new(
            line,
            format!(
                "unsupported: preprocessor directive `{}` (only #ifdef and #endif)",
                self.slice(start, self.pos)
            ),
        ))
    }

    fn quoted(&mut self, q: u8) -> Result<String, ParseError> {
        let line = self.line;
        self.bump(1);
        let mut out = Vec::new();
        loop {
            match self.peek(0) {
                None => {
                    let what = if q == b'"' { "string" } else { "command" };
                    return Err(ParseError::new(line, format!("unterminated {what}")));
                }
                Some(c) if c == q => {
                    self.bump(1);
                    break;
                }
                Some(b'\\') if self.peek(1).is_some() => {
                    let n = self.peek(1).unwrap_or(b'\\');
                    out.push(n);
                    self.bump(2);
                }
                Some(c) => {
                    out.push(c);
                    self.bump(1);
                }
            }
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    fn option(&mut self, line: u32) {
        self.bump(2);
        let start = self.pos;
        while self.peek(0).is_some_and(|c| is_word_char(c) || c == b'-') {
            self.bump(1);
        }
        let name = self.slice(start, self.pos).to_string();
        let value = if self.peek(0) == Some(b'=') {
            self.bump(1);
            let vs = self.pos;
            while self.peek(0).is_some_and(|c| !c.is_ascii_whitespace()) {
                self.bump(1);
            }
            Some(self.slice(vs, self.pos).to_string())
        } else {
            None
        };
        self.push(Tok::Opt(name, value), line);
    }

    /// An IPv6 literal (a run of hex digits, `:` and `.` with at least two colons) or an IPv4
    /// literal (digits with exactly three dots) at the cursor. Returns whether one was taken.
    fn address(&mut self, line: u32) -> bool {
        let rest = self.s.get(self.pos..).unwrap_or(&[]);
        let n6 = rest
            .iter()
            .take_while(|c| c.is_ascii_hexdigit() || **c == b':' || **c == b'.')
            .count();
        let cand6 = self.slice(self.pos, self.pos + n6);
        if cand6.matches(':').count() >= 2 && !rest.get(n6).copied().is_some_and(is_word_char) {
            if let Ok(a) = Ipv6Addr::from_str(cand6) {
                self.bump(n6);
                self.push(Tok::Ipv6(a), line);
                return true;
            }
        }
        let n4 = rest
            .iter()
            .take_while(|c| c.is_ascii_digit() || **c == b'.')
            .count();
        let cand4 = self.slice(self.pos, self.pos + n4);
        if cand4.matches('.').count() == 3 && !cand4.ends_with('.') {
            if let Ok(a) = Ipv4Addr::from_str(cand4) {
                self.bump(n4);
                self.push(Tok::Ipv4(a), line);
                return true;
            }
        }
        false
    }

    fn number(&mut self, line: u32) -> Result<(), ParseError> {
        let start = self.pos;
        if self.peek(0) == Some(b'0') && matches!(self.peek(1), Some(b'x') | Some(b'X')) {
            self.bump(2);
            let hs = self.pos;
            while self.peek(0).is_some_and(|c| c.is_ascii_hexdigit()) {
                self.bump(1);
            }
            let digits = self.slice(hs, self.pos);
            let v = u64::from_str_radix(digits, 16)
                .map_err(|_| ParseError::new(line, format!("bad hex number `0x{digits}`")))?;
            self.push(Tok::Hex(v), line);
            return Ok(());
        }
        while self.peek(0).is_some_and(|c| c.is_ascii_digit()) {
            self.bump(1);
        }
        if self.peek(0) == Some(b'.') && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
            self.bump(1);
            while self.peek(0).is_some_and(|c| c.is_ascii_digit()) {
                self.bump(1);
            }
            let text = self.slice(start, self.pos).to_string();
            self.push(Tok::Float(text), line);
            return Ok(());
        }
        let digits = self.slice(start, self.pos);
        let v = digits
            .parse::<u64>()
            .map_err(|_| ParseError::new(line, format!("number `{digits}` out of range")))?;
        self.push(Tok::Int(v), line);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s, &["FreeBSD".to_string()])
            .unwrap()
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn numbers_words_addresses() {
        assert_eq!(
            toks("+0.1 0x02 42 fe80::250:56ff:fe24:9e6 1.1.1.1 BE ..."),
            vec![
                Tok::Punct('+'),
                Tok::Float("0.1".into()),
                Tok::Hex(2),
                Tok::Int(42),
                Tok::Ipv6("fe80::250:56ff:fe24:9e6".parse().unwrap()),
                Tok::Ipv4(Ipv4Addr::new(1, 1, 1, 1)),
                Tok::Word("BE".into()),
                Tok::Ellipsis,
            ]
        );
        assert_eq!(
            toks("sctp: gaps=[2:2]"),
            vec![
                Tok::Word("sctp".into()),
                Tok::Punct(':'),
                Tok::Word("gaps".into()),
                Tok::Punct('='),
                Tok::Punct('['),
                Tok::Int(2),
                Tok::Punct(':'),
                Tok::Int(2),
                Tok::Punct(']'),
            ]
        );
    }

    #[test]
    fn comments_options_ifdef() {
        let t = lex(
            "--tolerance_usecs=10000\n// c\n/* a\nb */ x\n#ifdef Linux\ny\n#endif\n#ifdef FreeBSD\nz\n#endif\n",
            &["FreeBSD".to_string()],
        )
        .unwrap();
        assert_eq!(
            t[0].tok,
            Tok::Opt("tolerance_usecs".into(), Some("10000".into()))
        );
        assert_eq!(
            t[1],
            Token {
                tok: Tok::Word("x".into()),
                line: 4
            }
        );
        assert_eq!(
            t[2],
            Token {
                tok: Tok::Word("z".into()),
                line: 9
            }
        );
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn errors_have_lines() {
        assert_eq!(lex("a\n\"x", &[]).unwrap_err().line, 2);
        assert_eq!(lex("a\n#endif", &[]).unwrap_err().line, 2);
        assert_eq!(
            lex("#ifdef A\n#ifdef B\n", &["A".into()]).unwrap_err().line,
            2
        );
        assert_eq!(lex("\n\n#ifdef A\n", &[]).unwrap_err().line, 3);
        assert!(lex("@", &[]).unwrap_err().message.contains("unexpected"));
        assert!(lex("#else", &[])
            .unwrap_err()
            .message
            .contains("unsupported"));
        assert!(lex("%{ x", &[]).is_err());
        assert!(lex("99999999999999999999999", &[]).is_err());
        assert!(lex("é", &[]).is_err());
    }
}
