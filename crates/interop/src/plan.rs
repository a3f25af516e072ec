//! What each side sends in a run, and the receiver's check of what arrived.
//!
//! Every message carries a self-describing header (sender, stream, index) and a body derived
//! from it, so the receiver checks content, stream, duplicates and per-stream order without
//! knowing the sender's queue. Streams: 0 and 1 ordered, 2 unordered, 3 ordered with an RFC 3758
//! timed-reliability lifetime (PR-SCTP) when the plan asks for it.

use sctpsim_kernel::{Rng, SimDuration};

/// Streams the plan uses (both stacks are configured for at least this many).
pub const STREAMS: u16 = 4;
/// The stream of unordered messages.
pub const UNORDERED_STREAM: u16 = 2;
/// The stream of PR-SCTP (timed reliability) messages.
pub const PR_STREAM: u16 = 3;
/// Bytes of the message header.
pub const HEADER_LEN: usize = 12;

/// One message to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedMessage {
    /// Index in the sender's plan (0..).
    pub index: u32,
    /// Stream.
    pub stream: u16,
    /// Unordered delivery.
    pub unordered: bool,
    /// PR-SCTP lifetime (RFC 3758 timed reliability), if any.
    pub lifetime: Option<SimDuration>,
    /// The bytes.
    pub data: Vec<u8>,
}

/// The sender a message is from (in its header, so a message reflected to its own sender is
/// caught).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sender {
    /// sctpsim.
    Sctpsim = 1,
    /// usrsctp.
    Usrsctp = 2,
}

fn body_byte(sender: Sender, index: u32, i: usize) -> u8 {
    (index as usize)
        .wrapping_mul(31)
        .wrapping_add(i.wrapping_mul(7))
        .wrapping_add(sender as usize) as u8
}

/// Builds message `index` of `sender`.
fn build(sender: Sender, index: u32, stream: u16, len: usize) -> Vec<u8> {
    let len = len.max(HEADER_LEN);
    let mut v = Vec::with_capacity(len);
    v.extend_from_slice(&(sender as u16).to_be_bytes());
    v.extend_from_slice(&stream.to_be_bytes());
    v.extend_from_slice(&index.to_be_bytes());
    v.extend_from_slice(&(len as u32).to_be_bytes());
    for i in HEADER_LEN..len {
        v.push(body_byte(sender, index, i));
    }
    v
}

/// The messages `sender` sends in a run: `count` messages of 12–`max_len` bytes on streams
/// 0–2, plus (with `pr`) every fourth on the PR stream with a 0.5–3 s lifetime.
pub fn plan(
    sender: Sender,
    rng: &mut Rng,
    count: u32,
    max_len: usize,
    pr: bool,
) -> Vec<PlannedMessage> {
    (0..count)
        .map(|index| {
            let stream = if pr && index % 4 == 3 {
                PR_STREAM
            } else {
                rng.below(u64::from(UNORDERED_STREAM) + 1) as u16
            };
            let len =
                HEADER_LEN + rng.below((max_len.saturating_sub(HEADER_LEN) + 1) as u64) as usize;
            PlannedMessage {
                index,
                stream,
                unordered: stream == UNORDERED_STREAM,
                lifetime: (stream == PR_STREAM)
                    .then(|| SimDuration::from_millis(500 + rng.below(2_501))),
                data: build(sender, index, stream, len),
            }
        })
        .collect()
}

/// What went wrong with a delivered message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeliveryError {
    /// Header or body does not match what the sender built.
    Corrupt {
        /// Stream it arrived on.
        stream: u16,
        /// Its length.
        len: usize,
    },
    /// Arrived on another stream than it was sent on.
    WrongStream {
        /// Message index.
        index: u32,
    },
    /// Delivered twice.
    Duplicate {
        /// Message index.
        index: u32,
    },
    /// An ordered stream delivered it after a later message.
    OutOfOrder {
        /// Message index.
        index: u32,
    },
    /// The unordered flag does not match.
    WrongOrderFlag {
        /// Message index.
        index: u32,
    },
}

/// The receiver's account of one sender's messages.
#[derive(Debug, Clone)]
pub struct Receiver {
    sender: Sender,
    plan: Vec<PlannedMessage>,
    delivered: Vec<bool>,
    last_on_stream: Vec<Option<u32>>,
    /// Errors seen.
    pub errors: Vec<DeliveryError>,
}

impl Receiver {
    /// Expects `plan` from `sender`.
    pub fn new(sender: Sender, plan: &[PlannedMessage]) -> Self {
        Receiver {
            sender,
            plan: plan.to_vec(),
            delivered: vec![false; plan.len()],
            last_on_stream: vec![None; usize::from(STREAMS)],
            errors: Vec::new(),
        }
    }

    /// A message arrived on `stream` (`unordered` as the receiving stack reported, if it does).
    pub fn deliver(&mut self, stream: u16, unordered: Option<bool>, data: &[u8]) {
        let corrupt = DeliveryError::Corrupt {
            stream,
            len: data.len(),
        };
        if data.len() < HEADER_LEN {
            self.errors.push(corrupt);
            return;
        }
        let index = u32::from_be_bytes([data[4], data[5], data[6], data[7]]);
        let Some(m) = self.plan.get(index as usize) else {
            self.errors.push(corrupt);
            return;
        };
        if data != m.data.as_slice() || u16::from_be_bytes([data[0], data[1]]) != self.sender as u16
        {
            self.errors.push(corrupt);
            return;
        }
        if m.stream != stream {
            self.errors.push(DeliveryError::WrongStream { index });
            return;
        }
        if unordered.is_some_and(|u| u != m.unordered) {
            self.errors.push(DeliveryError::WrongOrderFlag { index });
        }
        if std::mem::replace(&mut self.delivered[index as usize], true) {
            self.errors.push(DeliveryError::Duplicate { index });
            return;
        }
        if !m.unordered {
            let last = &mut self.last_on_stream[usize::from(stream) % usize::from(STREAMS)];
            if last.is_some_and(|l| l > index) {
                self.errors.push(DeliveryError::OutOfOrder { index });
            }
            *last = Some(index);
        }
    }

    /// Messages delivered.
    pub fn delivered(&self) -> usize {
        self.delivered.iter().filter(|d| **d).count()
    }

    /// Reliable (non-PR) messages not delivered.
    pub fn missing_reliable(&self) -> usize {
        self.plan
            .iter()
            .zip(&self.delivered)
            .filter(|(m, d)| m.lifetime.is_none() && !**d)
            .count()
    }

    /// Indices of PR messages not delivered.
    pub fn missing_pr(&self) -> Vec<u32> {
        self.plan
            .iter()
            .zip(&self.delivered)
            .filter(|(m, d)| m.lifetime.is_some() && !**d)
            .map(|(m, _)| m.index)
            .collect()
    }

    /// Whether every reliable message arrived.
    pub fn all_reliable_delivered(&self) -> bool {
        self.missing_reliable() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<PlannedMessage> {
        plan(Sender::Sctpsim, &mut Rng::from_seed(3), 40, 2000, true)
    }

    #[test]
    fn in_order_delivery_is_clean() {
        let p = sample();
        let mut r = Receiver::new(Sender::Sctpsim, &p);
        for m in &p {
            r.deliver(m.stream, Some(m.unordered), &m.data);
        }
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert_eq!(r.delivered(), 40);
        assert!(r.all_reliable_delivered());
        assert!(p
            .iter()
            .any(|m| m.stream == PR_STREAM && m.lifetime.is_some()));
    }

    #[test]
    fn duplicates_reordering_and_corruption_are_caught() {
        let p = sample();
        let ordered: Vec<_> = p.iter().filter(|m| m.stream == 0).take(2).collect();
        let mut r = Receiver::new(Sender::Sctpsim, &p);
        r.deliver(0, Some(false), &ordered[1].data);
        r.deliver(0, Some(false), &ordered[0].data);
        r.deliver(0, Some(false), &ordered[0].data);
        let mut bad = ordered[0].data.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        r.deliver(0, Some(false), &bad);
        r.deliver(1, Some(false), &ordered[1].data);
        assert_eq!(
            r.errors,
            vec![
                DeliveryError::OutOfOrder {
                    index: ordered[0].index
                },
                DeliveryError::Duplicate {
                    index: ordered[0].index
                },
                DeliveryError::Corrupt {
                    stream: 0,
                    len: bad.len()
                },
                DeliveryError::WrongStream {
                    index: ordered[1].index
                },
            ]
        );
        assert!(!r.all_reliable_delivered());
    }

    #[test]
    fn a_message_from_the_other_sender_is_corrupt() {
        let p = sample();
        let mut r = Receiver::new(Sender::Usrsctp, &p);
        r.deliver(p[0].stream, None, &p[0].data);
        assert!(matches!(r.errors[0], DeliveryError::Corrupt { .. }));
    }
}
