//! A map kept as a vector sorted by key: the subset of `BTreeMap`'s interface the
//! repositories use. The repositories are small (tens to a few hundred tuples) and iterated
//! far more often (every packet, every table computation) than written, and iterating a
//! slice costs a fraction of walking a B-tree; a write moves at most the tail of the vector.
//! Iteration is in key order, as with a `BTreeMap`, so everything that iterates stays
//! deterministic (DESIGN.md §1.3).

use std::net::Ipv4Addr;
use std::ops::RangeInclusive;

/// A key with an integer image in the same order (searches compare machine integers rather
/// than `Ipv4Addr`'s byte arrays).
pub(super) trait IntKey: Ord + Copy {
    /// The integer image: `a < b` exactly when `a.int() < b.int()`.
    fn int(&self) -> u64;
}

impl IntKey for Ipv4Addr {
    fn int(&self) -> u64 {
        u64::from(u32::from(*self))
    }
}

impl IntKey for (Ipv4Addr, Ipv4Addr) {
    fn int(&self) -> u64 {
        (u64::from(u32::from(self.0)) << 32) | u64::from(u32::from(self.1))
    }
}

#[cfg(test)]
impl IntKey for u32 {
    fn int(&self) -> u64 {
        u64::from(*self)
    }
}

/// A map sorted by key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap {
            entries: Vec::new(),
        }
    }
}

impl<K: IntKey, V> VecMap<K, V> {
    fn find(&self, k: &K) -> Result<usize, usize> {
        let key = k.int();
        self.entries.binary_search_by_key(&key, |(e, _)| e.int())
    }

    /// The value of `k`.
    pub fn get(&self, k: &K) -> Option<&V> {
        self.find(k).ok().map(|i| &self.entries[i].1)
    }

    /// The value of `k`, mutably.
    pub fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        match self.find(k) {
            Ok(i) => Some(&mut self.entries[i].1),
            Err(_) => None,
        }
    }

    /// Whether `k` has a value.
    #[cfg(test)]
    pub fn contains_key(&self, k: &K) -> bool {
        self.find(k).is_ok()
    }

    /// Sets the value of `k`; returns the previous one.
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        match self.find(&k) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, v)),
            Err(i) => {
                self.entries.insert(i, (k, v));
                None
            }
        }
    }

    /// The value of `k`, inserting `f()` first if there is none.
    pub fn get_or_insert_with(&mut self, k: K, f: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&k) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (k, f()));
                i
            }
        };
        &mut self.entries[i].1
    }

    /// Removes `k`; returns its value.
    pub fn remove(&mut self, k: &K) -> Option<V> {
        match self.find(k) {
            Ok(i) => Some(self.entries.remove(i).1),
            Err(_) => None,
        }
    }

    /// Keeps the entries for which `f` holds.
    pub fn retain(&mut self, mut f: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| f(k, v));
    }

    /// Entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> + Clone {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &K> + Clone {
        self.entries.iter().map(|(k, _)| k)
    }

    /// Values in key order.
    pub fn values(&self) -> impl Iterator<Item = &V> + Clone {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The entries whose keys lie in `range`, in key order.
    pub fn range(&self, range: RangeInclusive<K>) -> impl Iterator<Item = (&K, &V)> + Clone {
        // The ranges read are short (one node's tuples): find the start, then walk.
        let (start, end) = range.into_inner();
        let (start, end) = (start.int(), end.int());
        let lo = self.entries.partition_point(|(k, _)| k.int() < start);
        self.entries[lo..]
            .iter()
            .take_while(move |(k, _)| k.int() <= end)
            .map(|(k, v)| (k, v))
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<'a, K: IntKey, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<K: IntKey, V> std::ops::Index<&K> for VecMap<K, V> {
    type Output = V;
    fn index(&self, k: &K) -> &V {
        self.get(k).expect("no entry for key")
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn behaves_like_a_sorted_map() {
        let mut m: VecMap<u32, u32> = VecMap::default();
        assert_eq!(m.insert(5, 50), None);
        assert_eq!(m.insert(1, 10), None);
        assert_eq!(m.insert(3, 30), None);
        assert_eq!(m.insert(3, 31), Some(30));
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), vec![1, 3, 5]);
        assert_eq!(
            m.range(2..=5).map(|(k, _)| *k).collect::<Vec<_>>(),
            vec![3, 5]
        );
        assert_eq!(m.range(6..=9).count(), 0);
        *m.get_or_insert_with(4, || 40) += 1;
        assert_eq!(m[&4], 41);
        assert_eq!(m.remove(&1), Some(10));
        m.retain(|k, _| *k != 5);
        assert_eq!(
            m.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
            vec![(3, 31), (4, 41)]
        );
        assert!(m.contains_key(&3) && !m.contains_key(&5) && m.len() == 2 && !m.is_empty());
    }
}
