//! MPR selection: the heuristic of RFC 3626 §8.3.1, as a pure function of the symmetric
//! neighbourhood so that it can be tested on hand-made topologies.
//!
//! Steps 1–4 of §8.3.1 are implemented; the optional step 5 (dropping MPRs that turn out to be
//! redundant, with MPR_COVERAGE) is not — as in ns-3's default, the set may then be slightly
//! larger than minimal. The RFC leaves the last tie open (same willingness, reachability and
//! degree); here the lowest address wins, which keeps runs deterministic.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

/// RFC 3626 §18.8: WILL_NEVER — never selected as MPR.
pub const WILL_NEVER: u8 = 0;
/// RFC 3626 §18.8: WILL_LOW.
pub const WILL_LOW: u8 = 1;
/// RFC 3626 §18.8: WILL_DEFAULT.
pub const WILL_DEFAULT: u8 = 3;
/// RFC 3626 §18.8: WILL_HIGH.
pub const WILL_HIGH: u8 = 6;
/// RFC 3626 §18.8: WILL_ALWAYS — always selected as MPR.
pub const WILL_ALWAYS: u8 = 7;

/// Selects the MPR set of `me`.
///
/// * `neighbors`: the symmetric 1-hop neighbours (main addresses) and their willingness;
/// * `two_hop`: the 2-hop neighbour set as (neighbour, 2-hop node) pairs.
///
/// Follows §8.3.1: N is the symmetric neighbours with willingness other than WILL_NEVER; N2
/// the nodes reachable through N that are neither `me` nor a symmetric neighbour. Step 1 takes
/// every WILL_ALWAYS neighbour; step 3 every neighbour that is the only one to reach some node
/// of N2; step 4 then repeatedly adds the neighbour with the highest willingness among those
/// that still cover something, breaking ties by reachability (uncovered N2 nodes it covers),
/// then by degree D(y) (all of N2 it reaches), then by the lowest address.
pub fn select(
    me: std::net::Ipv4Addr,
    neighbors: &BTreeMap<Ipv4Addr, u8>,
    two_hop: impl IntoIterator<Item = (Ipv4Addr, Ipv4Addr)>,
) -> BTreeSet<Ipv4Addr> {
    // coverage[y] = the N2 nodes y reaches (y in N).
    let mut coverage: BTreeMap<Ipv4Addr, BTreeSet<Ipv4Addr>> = neighbors
        .iter()
        .filter(|(_, w)| **w != WILL_NEVER)
        .map(|(n, _)| (*n, BTreeSet::new()))
        .collect();
    for (n, two) in two_hop {
        if two == me || neighbors.contains_key(&two) {
            continue;
        }
        if let Some(c) = coverage.get_mut(&n) {
            c.insert(two);
        }
    }
    let mut uncovered: BTreeSet<Ipv4Addr> = coverage.values().flatten().copied().collect();
    let mut mprs = BTreeSet::new();
    let add = |y: Ipv4Addr, mprs: &mut BTreeSet<Ipv4Addr>, uncovered: &mut BTreeSet<_>| {
        mprs.insert(y);
        if let Some(c) = coverage.get(&y) {
            for t in c {
                uncovered.remove(t);
            }
        }
    };
    // Step 1: WILL_ALWAYS neighbours.
    for (n, w) in neighbors {
        if *w == WILL_ALWAYS {
            add(*n, &mut mprs, &mut uncovered);
        }
    }
    // Step 3: sole providers of some 2-hop node.
    let mut providers: BTreeMap<Ipv4Addr, Vec<Ipv4Addr>> = BTreeMap::new();
    for (y, c) in &coverage {
        for t in c {
            providers.entry(*t).or_default().push(*y);
        }
    }
    for p in providers.values() {
        if let [only] = p[..] {
            add(only, &mut mprs, &mut uncovered);
        }
    }
    // Step 4: greedy by (willingness, reachability, degree), lowest address last.
    while !uncovered.is_empty() {
        let best = coverage
            .iter()
            .filter(|(y, _)| !mprs.contains(*y))
            .map(|(y, c)| {
                let reach = c.iter().filter(|t| uncovered.contains(*t)).count();
                let will = neighbors.get(y).copied().unwrap_or(WILL_NEVER);
                (*y, will, reach, c.len())
            })
            .filter(|(_, _, reach, _)| *reach > 0)
            .max_by(|a, b| {
                (a.1, a.2, a.3)
                    .cmp(&(b.1, b.2, b.3))
                    .then_with(|| b.0.cmp(&a.0))
            });
        match best {
            Some((y, ..)) => add(y, &mut mprs, &mut uncovered),
            None => break, // cannot happen: every N2 node has a provider in N
        }
    }
    mprs
}

#[cfg(test)]
mod test {
    use super::*;

    fn a(i: u8) -> Ipv4Addr {
        Ipv4Addr::new(10, 0, 0, i)
    }

    const ME: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 100);

    fn nbrs(list: &[(u8, u8)]) -> BTreeMap<Ipv4Addr, u8> {
        list.iter().map(|(n, w)| (a(*n), *w)).collect()
    }

    fn pairs(list: &[(u8, u8)]) -> Vec<(Ipv4Addr, Ipv4Addr)> {
        list.iter().map(|(n, t)| (a(*n), a(*t))).collect()
    }

    fn set(list: &[u8]) -> BTreeSet<Ipv4Addr> {
        list.iter().map(|i| a(*i)).collect()
    }

    /// Neighbours 1..=4; 1 reaches 2-hop nodes 11,12,13; 2 reaches 13,14; 3 reaches 14; 4 reaches
    /// 15 alone. Step 3 takes 1 (only provider of 11, 12) and 4 (only provider of 15); 13 is
    /// then covered, 14 remains: 2 and 3 both reach it with equal willingness and reachability
    /// 1, and 2 has the larger degree (2 vs 1), so 2 is chosen.
    #[test]
    fn star_of_two_hop_neighbours() {
        let n = nbrs(&[(1, 3), (2, 3), (3, 3), (4, 3)]);
        let t = pairs(&[
            (1, 11),
            (1, 12),
            (1, 13),
            (2, 13),
            (2, 14),
            (3, 14),
            (4, 15),
        ]);
        assert_eq!(select(ME, &n, t), set(&[1, 2, 4]));
    }

    /// Same two candidates for one 2-hop node: the higher willingness wins even against a
    /// larger degree; WILL_NEVER is never chosen; WILL_ALWAYS always is.
    #[test]
    fn willingness_decides() {
        // 1 and 2 both cover {11, 12}: willingness 6 beats 1.
        let n = nbrs(&[(1, WILL_LOW), (2, WILL_HIGH)]);
        let t = pairs(&[(1, 11), (1, 12), (2, 11), (2, 12)]);
        assert_eq!(select(ME, &n, t.clone()), set(&[2]));
        let n = nbrs(&[(1, WILL_DEFAULT), (2, WILL_DEFAULT)]);
        assert_eq!(select(ME, &n, t.clone()), set(&[1]), "tie → lowest address");
        let n = nbrs(&[(1, WILL_DEFAULT), (2, WILL_NEVER)]);
        assert_eq!(select(ME, &n, pairs(&[(2, 11)])), set(&[]));
        let n = nbrs(&[(1, WILL_DEFAULT), (2, WILL_ALWAYS)]);
        assert_eq!(select(ME, &n, pairs(&[])), set(&[2]));
        // Higher willingness beats reachability: 1 (LOW) covers three, 2 (HIGH) covers one of
        // them and 3 (DEFAULT) the other two; everything is reachable twice, so step 4 picks 2
        // first (willingness), then 3.
        let n = nbrs(&[(1, WILL_LOW), (2, WILL_HIGH), (3, WILL_DEFAULT)]);
        let t = pairs(&[(1, 11), (1, 12), (1, 13), (2, 11), (3, 12), (3, 13)]);
        assert_eq!(select(ME, &n, t), set(&[2, 3]));
    }

    /// 2-hop entries that are ourselves or symmetric neighbours are not in N2.
    #[test]
    fn n2_excludes_me_and_neighbours() {
        let n = nbrs(&[(1, 3), (2, 3)]);
        let t = vec![(a(1), ME), (a(1), a(2)), (a(2), a(1))];
        assert!(select(ME, &n, t).is_empty());
    }
}
