//! The error type shared by every codec of this crate.

use core::fmt;

/// Why a buffer could not be read as a packet.
///
/// Parsers return this instead of panicking; callers count and drop the packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireError {
    /// The buffer is shorter than a header or a length field says.
    Truncated,
    /// A field holds a value the format forbids (version, header length, length field, ...).
    Malformed,
    /// The checksum does not verify.
    BadChecksum,
    /// A well-formed packet that this crate does not model (IP fragments, unknown ICMP codes, ...).
    Unsupported,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            WireError::Truncated => "truncated packet",
            WireError::Malformed => "malformed packet",
            WireError::BadChecksum => "bad checksum",
            WireError::Unsupported => "unsupported packet",
        };
        f.write_str(text)
    }
}

impl std::error::Error for WireError {}
