//! The seed tree: random streams handed out by stable keys (DESIGN.md §1.3).
//!
//! A stream is identified by *what it is for* — `(node 3, "dcf-backoff", interface 0)` — and its
//! seed is a hash of the run's root seed and that key. Adding a flow or a node therefore does
//! not shift any other component's draws, and a run is reproducible in any sweep order on any
//! worker. There is no global generator and no counting of streams.

use crate::rng::{splitmix64, Rng};

/// What a random stream is for. Build it with [`StreamKey::new`] and the `with_*` methods.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StreamKey {
    hash: u64,
}

impl StreamKey {
    /// A key for the component `purpose` (a short stable name such as `"loss"` or
    /// `"dcf-backoff"`).
    pub fn new(purpose: &str) -> Self {
        StreamKey {
            hash: 0x5EED_F00D_5C7B_5117,
        }
        .with_str(purpose)
    }

    /// Extend the key by an integer (node index, interface index, direction...).
    pub fn with(mut self, part: u64) -> Self {
        let mut s = self.hash ^ part.rotate_left(17);
        self.hash = splitmix64(&mut s) ^ part;
        let mut s2 = self.hash;
        self.hash = splitmix64(&mut s2);
        self
    }

    /// Extend the key by a name. The length is absorbed too, so ("ab","c") ≠ ("a","bc").
    pub fn with_str(mut self, part: &str) -> Self {
        self = self.with(part.len() as u64 | 0x8000_0000_0000_0000);
        for chunk in part.as_bytes().chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self = self.with(u64::from_le_bytes(w));
        }
        self
    }
}

/// Hands out independent random streams for one run.
#[derive(Clone, Debug)]
pub struct SeedTree {
    root: u64,
}

impl SeedTree {
    /// The tree of a run with this root seed.
    pub fn new(root: u64) -> Self {
        SeedTree { root }
    }

    /// The run's root seed.
    pub fn root(&self) -> u64 {
        self.root
    }

    /// The stream for `key`. Asking twice for the same key gives two generators with the same
    /// sequence — each component should ask once and keep its stream.
    pub fn stream(&self, key: &StreamKey) -> Rng {
        let mut s = self.root ^ key.hash.rotate_left(29);
        let a = splitmix64(&mut s);
        Rng::from_seed(a ^ key.hash)
    }

    /// A seed for a child run (replication `index` of a sweep), derived from this root.
    pub fn child_seed(&self, index: u64) -> u64 {
        let mut s = self.root ^ StreamKey::new("replication").with(index).hash;
        splitmix64(&mut s)
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn same_key_same_stream_different_key_different_stream() {
        let t = SeedTree::new(7);
        let k = StreamKey::new("loss").with(3).with(0);
        assert_eq!(t.stream(&k).next_u64(), t.stream(&k).next_u64());
        let k2 = StreamKey::new("loss").with(3).with(1);
        assert_ne!(t.stream(&k).next_u64(), t.stream(&k2).next_u64());
        assert_ne!(
            SeedTree::new(8).stream(&k).next_u64(),
            t.stream(&k).next_u64()
        );
    }

    #[test]
    fn string_boundaries_matter() {
        let a = StreamKey::new("ab").with_str("c");
        let b = StreamKey::new("a").with_str("bc");
        assert_ne!(a, b);
    }
}
