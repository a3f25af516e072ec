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
    let neighbors: Vec<(Ipv4Addr, u8)> = neighbors.iter().map(|(n, w)| (*n, *w)).collect();
    let mut out = BTreeSet::new();
    select_into(me, &neighbors, two_hop, &mut Scratch::default(), &mut out);
    out
}

/// Buffers of [`select_into`], reused from one selection to the next.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    /// N: the neighbours with willingness other than WILL_NEVER, by address.
    cand: Vec<(Ipv4Addr, u8)>,
    /// (index in `cand`, N2 node as an integer) for every 2-hop tuple through a candidate,
    /// sorted.
    pairs: Vec<(u32, u32)>,
    /// N2 (addresses as integers, the same order), sorted.
    n2: Vec<u32>,
    /// For each pair, the index of its N2 node in `n2`.
    cov: Vec<u32>,
    /// The pairs of candidate `i` are `pairs[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    /// Per N2 node: how many candidates reach it.
    providers: Vec<u32>,
    /// Per N2 node: not yet covered by the MPRs chosen so far.
    uncovered: Vec<bool>,
    /// Per candidate: already chosen.
    chosen: Vec<bool>,
}

/// [`select`] over sorted slices and reused buffers: `neighbors` is the symmetric
/// neighbourhood sorted by address; the result replaces the contents of `out`.
pub(super) fn select_into(
    me: Ipv4Addr,
    neighbors: &[(Ipv4Addr, u8)],
    two_hop: impl IntoIterator<Item = (Ipv4Addr, Ipv4Addr)>,
    s: &mut Scratch,
    out: &mut BTreeSet<Ipv4Addr>,
) {
    out.clear();
    // Addresses are compared as integers (the same order as `Ipv4Addr`'s).
    let is_neighbor = |a: Ipv4Addr| {
        let k = u32::from(a);
        neighbors
            .binary_search_by_key(&k, |(n, _)| u32::from(*n))
            .is_ok()
    };
    s.cand.clear();
    s.cand
        .extend(neighbors.iter().filter(|(_, w)| *w != WILL_NEVER).copied());
    let cand_index = |cand: &[(Ipv4Addr, u8)], a: Ipv4Addr| {
        let k = u32::from(a);
        cand.binary_search_by_key(&k, |(n, _)| u32::from(*n)).ok()
    };
    // coverage: the N2 nodes each candidate reaches. The 2-hop set comes ordered by
    // neighbour: the candidate is looked up once per run of its tuples.
    s.pairs.clear();
    let mut current: Option<(Ipv4Addr, Option<usize>)> = None;
    for (n, two) in two_hop {
        if two == me || is_neighbor(two) {
            continue;
        }
        let i = match current {
            Some((m, i)) if m == n => i,
            _ => {
                let i = cand_index(&s.cand, n);
                current = Some((n, i));
                i
            }
        };
        if let Some(i) = i {
            s.pairs.push((i as u32, u32::from(two)));
        }
    }
    // The 2-hop set comes sorted and without repeats; other callers may not.
    if !s.pairs.is_sorted() {
        s.pairs.sort_unstable();
    }
    s.pairs.dedup();
    s.n2.clear();
    s.n2.extend(s.pairs.iter().map(|(_, t)| *t));
    s.n2.sort_unstable();
    s.n2.dedup();
    s.cov.clear();
    s.providers.clear();
    s.providers.resize(s.n2.len(), 0);
    s.start.clear();
    s.start.resize(s.cand.len() + 1, 0);
    for (i, t) in &s.pairs {
        let j = s.n2.binary_search(t).unwrap_or(0);
        s.cov.push(j as u32);
        s.providers[j] += 1;
        s.start[*i as usize + 1] += 1;
    }
    for i in 0..s.cand.len() {
        s.start[i + 1] += s.start[i];
    }
    s.uncovered.clear();
    s.uncovered.resize(s.n2.len(), true);
    let mut remaining = s.n2.len();
    s.chosen.clear();
    s.chosen.resize(s.cand.len(), false);
    let Scratch {
        cand,
        pairs,
        cov,
        start,
        providers,
        uncovered,
        chosen,
        ..
    } = s;
    // Adds `y` to the MPR set and marks what it covers.
    macro_rules! add {
        ($y:expr) => {{
            let y: Ipv4Addr = $y;
            out.insert(y);
            if let Some(i) = cand_index(cand, y) {
                chosen[i] = true;
                for &j in &cov[start[i] as usize..start[i + 1] as usize] {
                    if std::mem::replace(&mut uncovered[j as usize], false) {
                        remaining -= 1;
                    }
                }
            }
        }};
    }
    // Step 1: WILL_ALWAYS neighbours.
    for (n, w) in neighbors {
        if *w == WILL_ALWAYS {
            add!(*n);
        }
    }
    // Step 3: sole providers of some 2-hop node (the resulting set does not depend on the
    // order in which they are added).
    for (k, (i, _)) in pairs.iter().enumerate() {
        if providers[cov[k] as usize] == 1 {
            add!(cand[*i as usize].0);
        }
    }
    // Step 4: greedy by (willingness, reachability, degree), lowest address last.
    loop {
        if remaining == 0 {
            break;
        }
        let mut best: Option<(usize, (u8, usize, usize))> = None;
        for (i, (_, will)) in cand.iter().enumerate() {
            if chosen[i] {
                continue;
            }
            let c = &cov[start[i] as usize..start[i + 1] as usize];
            let reach = c.iter().filter(|j| uncovered[**j as usize]).count();
            if reach == 0 {
                continue;
            }
            let key = (*will, reach, c.len());
            // Candidates come in address order: only a strictly better one replaces the
            // best, so ties go to the lowest address.
            if best.is_none_or(|(_, k)| key > k) {
                best = Some((i, key));
            }
        }
        match best {
            Some((i, _)) => add!(cand[i].0),
            None => break, // cannot happen: every N2 node has a provider in N
        }
    }
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
