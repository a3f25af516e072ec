//! Bounds-checked big-endian reading and writing shared by the SCTP codecs, and the
//! type-length-value (TLV) layout that SCTP parameters and error causes share
//! (RFC 9260 §3.2.1, §3.3.10).
//!
//! Nothing here indexes a slice directly: every read goes through [`Reader::take`], which returns
//! [`WireError::Truncated`] when bytes are missing, and every write through [`Writer::put`], which
//! returns [`WireError::Truncated`] when the output buffer is too small.

use crate::{Result, WireError};

/// RFC 9260 §3.2: chunks, and §3.2.1: parameters, are padded to a multiple of 4 bytes.
pub(crate) const fn pad4(len: usize) -> usize {
    // Lengths here are bounded by buffer sizes, far below usize::MAX.
    (len + 3) & !3
}

/// RFC 9260 §3.2.1: a parameter (and an error cause, §3.3.10) starts with a 16-bit type and a
/// 16-bit length that counts these 4 bytes.
pub(crate) const TLV_HEADER_LEN: usize = 4;

/// A cursor over untrusted bytes.
#[derive(Debug, Clone)]
pub(crate) struct Reader<'a> {
    data: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Reader { data }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub(crate) fn remaining(&self) -> usize {
        self.data.len()
    }

    /// The next `n` bytes, or [`WireError::Truncated`] (the cursor does not move then).
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.data.len() {
            return Err(WireError::Truncated);
        }
        let (head, tail) = self.data.split_at(n);
        self.data = tail;
        Ok(head)
    }

    /// Everything that is left.
    pub(crate) fn rest(&mut self) -> &'a [u8] {
        core::mem::take(&mut self.data)
    }

    pub(crate) fn u16(&mut self) -> Result<u16> {
        let b = self.take(2)?;
        let mut out = [0u8; 2];
        out.copy_from_slice(b);
        Ok(u16::from_be_bytes(out))
    }

    pub(crate) fn u32(&mut self) -> Result<u32> {
        let b = self.take(4)?;
        let mut out = [0u8; 4];
        out.copy_from_slice(b);
        Ok(u32::from_be_bytes(out))
    }

    /// Skips the padding that follows an item of `len` bytes, up to what is left: RFC 9260 §3.2
    /// "The receiver MUST ignore the padding", and the last item's padding may be absent.
    pub(crate) fn skip_padding(&mut self, len: usize) {
        let pad = (pad4(len) - len).min(self.data.len());
        self.data = self.data.get(pad..).unwrap_or(&[]);
    }

    /// Reads one TLV (RFC 9260 §3.2.1) and skips its padding. Returns the type, the value and
    /// the whole TLV (header and value, without padding).
    ///
    /// Errors: [`WireError::Truncated`] if fewer than 4 bytes are left or the length runs past
    /// the end, [`WireError::Malformed`] if the length is below 4.
    pub(crate) fn tlv(&mut self) -> Result<(u16, &'a [u8], &'a [u8])> {
        let start = self.data;
        let kind = self.u16()?;
        let len = usize::from(self.u16()?);
        if len < TLV_HEADER_LEN {
            return Err(WireError::Malformed);
        }
        let value = self.take(len - TLV_HEADER_LEN)?;
        self.skip_padding(len);
        let whole = start.get(..len).ok_or(WireError::Truncated)?;
        Ok((kind, value, whole))
    }
}

/// A cursor writing into a caller's buffer.
#[derive(Debug)]
pub(crate) struct Writer<'a> {
    buf: &'a mut [u8],
    pos: usize,
}

impl<'a> Writer<'a> {
    pub(crate) fn new(buf: &'a mut [u8]) -> Self {
        Writer { buf, pos: 0 }
    }

    /// Bytes written so far.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Appends `bytes`, or fails with [`WireError::Truncated`] if they do not fit.
    pub(crate) fn put(&mut self, bytes: &[u8]) -> Result<()> {
        let end = self
            .pos
            .checked_add(bytes.len())
            .ok_or(WireError::Truncated)?;
        let out = self
            .buf
            .get_mut(self.pos..end)
            .ok_or(WireError::Truncated)?;
        out.copy_from_slice(bytes);
        self.pos = end;
        Ok(())
    }

    pub(crate) fn u8(&mut self, value: u8) -> Result<()> {
        self.put(&[value])
    }

    pub(crate) fn u16(&mut self, value: u16) -> Result<()> {
        self.put(&value.to_be_bytes())
    }

    pub(crate) fn u32(&mut self, value: u32) -> Result<()> {
        self.put(&value.to_be_bytes())
    }

    /// Writes zero bytes until the distance from `start` is a multiple of 4 (RFC 9260 §3.2:
    /// "padded ... with all zero bytes").
    pub(crate) fn pad_from(&mut self, start: usize) -> Result<()> {
        let len = self.pos.saturating_sub(start);
        let pad = pad4(len) - len;
        self.put(&[0u8; 3][..pad])
    }

    /// Writes a TLV header (RFC 9260 §3.2.1) for a TLV of `len` bytes in total.
    /// [`WireError::Malformed`] if `len` does not fit the 16-bit length field.
    pub(crate) fn tlv_header(&mut self, kind: u16, len: usize) -> Result<()> {
        let len = u16::try_from(len).map_err(|_| WireError::Malformed)?;
        self.u16(kind)?;
        self.u16(len)
    }

    /// Writes a complete TLV: header, `value` and zero padding.
    pub(crate) fn tlv(&mut self, kind: u16, value: &[u8]) -> Result<()> {
        let start = self.pos;
        self.tlv_header(kind, TLV_HEADER_LEN + value.len())?;
        self.put(value)?;
        self.pad_from(start)
    }
}

/// The length that a list of TLVs of the given unpadded lengths contributes to an enclosing
/// length field: every TLV padded except the last (RFC 9260 §3.2: the chunk length "does include
/// padding of any variable-length parameter except the last parameter in the chunk").
pub(crate) fn tlv_list_len(lens: impl IntoIterator<Item = usize>) -> usize {
    let mut total = 0usize;
    let mut last_pad = 0usize;
    for len in lens {
        total = total.saturating_add(pad4(len));
        last_pad = pad4(len) - len;
    }
    total - last_pad
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn reader_never_reads_past_the_end() {
        let mut r = Reader::new(&[1, 2, 3]);
        assert_eq!(r.u32(), Err(WireError::Truncated));
        assert_eq!(r.u16(), Ok(0x0102));
        assert_eq!(r.u16(), Err(WireError::Truncated));
        assert_eq!(r.take(1), Ok(&[3u8][..]));
        assert_eq!(r.take(1), Err(WireError::Truncated));
        assert!(r.is_empty());
    }

    #[test]
    fn tlv_reading() {
        // Type 5, length 6, value [9, 9], padding [0, 0], then a truncated TLV.
        let bytes = [0, 5, 0, 6, 9, 9, 0, 0, 0, 7, 0, 9, 1];
        let mut r = Reader::new(&bytes);
        let (kind, value, whole) = r.tlv().unwrap();
        assert_eq!((kind, value, whole), (5, &[9u8, 9][..], &bytes[..6]));
        assert_eq!(r.tlv(), Err(WireError::Truncated));
        let mut r = Reader::new(&[0, 1, 0, 3, 0, 0]);
        assert_eq!(r.tlv(), Err(WireError::Malformed));
        // The padding of the last TLV may be missing.
        let mut r = Reader::new(&[0, 1, 0, 5, 7]);
        assert_eq!(r.tlv().unwrap().1, &[7]);
        assert!(r.is_empty());
    }

    #[test]
    fn writer_refuses_to_overflow() {
        let mut buf = [0u8; 5];
        let mut w = Writer::new(&mut buf);
        assert_eq!(w.u32(0xdead_beef), Ok(()));
        assert_eq!(w.u16(1), Err(WireError::Truncated));
        assert_eq!(w.pos(), 4);
        assert_eq!(w.tlv(1, &[1]), Err(WireError::Truncated));
        let mut big = vec![0u8; 70_000];
        let mut w = Writer::new(&mut big);
        assert_eq!(w.tlv(1, &[0u8; 65_532]), Err(WireError::Malformed));
    }

    #[test]
    fn list_length_excludes_the_last_padding() {
        assert_eq!(tlv_list_len([]), 0);
        assert_eq!(tlv_list_len([5]), 5);
        assert_eq!(tlv_list_len([5, 6]), 14);
        assert_eq!(tlv_list_len([8, 8]), 16);
    }
}
