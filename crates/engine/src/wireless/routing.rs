//! Static routes over point-to-point links and wireless neighbours.
//!
//! Two wireless nodes are neighbours if, at t = 0, the mean power of one's frames at the other
//! reaches the radio's neighbour level (`RadioParams::neighbour_power_w`: RXThresh with the
//! threshold model). The relation is symmetric (one transmit power, one propagation model).
//! Routes are shortest paths in hops over links and neighbour relations together, computed
//! per destination on first use (a breadth-first search from the destination, O(nodes +
//! edges)), so a 10,000-node network whose flows are one hop long never builds a table at all.
//! The next hop of a node towards a destination is its first neighbour one hop closer, in the
//! order of its interfaces, then of neighbour index: a pure function of the scenario.
//!
//! Dynamic routing (DSR, AODV, OLSR) replaces this for mobile networks; static routes do not
//! follow nodes that move.

use crate::topology::{Link, Node};
use std::collections::{BTreeMap, VecDeque};

/// Next hop: (interface index at the node, neighbour node index).
pub type NextHop = (u32, u32);

/// Static routes, computed lazily per destination.
#[derive(Clone, Debug, Default)]
pub struct Routes {
    /// Wireless neighbours of each node at t = 0 (sorted node indices).
    neighbours: Vec<Vec<u32>>,
    /// Per destination node: the next hop of every node (`None`: unreachable or the
    /// destination itself).
    trees: BTreeMap<u32, Vec<Option<NextHop>>>,
    /// The same over wireless hops only (host routes to a wireless address).
    air_trees: BTreeMap<u32, Vec<Option<NextHop>>>,
}

impl Routes {
    /// Routes over `neighbours` (per node, sorted) and the links of the topology.
    pub fn new(neighbours: Vec<Vec<u32>>) -> Self {
        Routes {
            neighbours,
            trees: BTreeMap::new(),
            air_trees: BTreeMap::new(),
        }
    }

    /// The wireless neighbours of `node` at t = 0.
    pub fn neighbours(&self, node: u32) -> &[u32] {
        self.neighbours
            .get(node as usize)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Calls `f(iface, neighbour)` for every adjacency of `u`, in interface order (wireless
    /// ones only with `air`); stops at the first `true`.
    fn adjacent(
        &self,
        nodes: &[Node],
        links: &[Link],
        air: bool,
        u: u32,
        mut f: impl FnMut(u32, u32) -> bool,
    ) {
        let Some(node) = nodes.get(u as usize) else {
            return;
        };
        for (i, iface) in node.ifaces.iter().enumerate() {
            if air && iface.wireless.is_none() {
                continue;
            }
            if iface.wireless.is_some() {
                for &v in self.neighbours(u) {
                    if f(i as u32, v) {
                        return;
                    }
                }
            } else if let Some(link) = links.get(iface.link.index()) {
                if f(i as u32, link.dirs[iface.tx_dir].to.0) {
                    return;
                }
            }
        }
    }

    /// The next hop from `node` towards `dst` (node indices).
    pub fn lookup(
        &mut self,
        nodes: &[Node],
        links: &[Link],
        node: u32,
        dst: u32,
    ) -> Option<NextHop> {
        self.lookup_in(nodes, links, false, node, dst)
    }

    /// The next hop from `node` towards `dst` over wireless hops only: the route of a host
    /// route to a wireless address (each address of a multi-homed host reached over its own
    /// access network).
    pub fn lookup_air(
        &mut self,
        nodes: &[Node],
        links: &[Link],
        node: u32,
        dst: u32,
    ) -> Option<NextHop> {
        self.lookup_in(nodes, links, true, node, dst)
    }

    fn lookup_in(
        &mut self,
        nodes: &[Node],
        links: &[Link],
        air: bool,
        node: u32,
        dst: u32,
    ) -> Option<NextHop> {
        if node == dst {
            return None;
        }
        // One hop: no search needed.
        let mut direct = None;
        self.adjacent(nodes, links, air, node, |i, v| {
            if v == dst {
                direct = Some((i, v));
                true
            } else {
                false
            }
        });
        if direct.is_some() {
            return direct;
        }
        let known = if air { &self.air_trees } else { &self.trees };
        if !known.contains_key(&dst) {
            let tree = self.tree(nodes, links, air, dst);
            let trees = if air {
                &mut self.air_trees
            } else {
                &mut self.trees
            };
            trees.insert(dst, tree);
        }
        let trees = if air { &self.air_trees } else { &self.trees };
        trees.get(&dst)?.get(node as usize).copied().flatten()
    }

    fn tree(&self, nodes: &[Node], links: &[Link], air: bool, dst: u32) -> Vec<Option<NextHop>> {
        let n = nodes.len();
        let mut dist = vec![u32::MAX; n];
        let mut queue = VecDeque::new();
        if (dst as usize) < n {
            dist[dst as usize] = 0;
            queue.push_back(dst);
        }
        while let Some(x) = queue.pop_front() {
            let dx = dist[x as usize];
            self.adjacent(nodes, links, air, x, |_, y| {
                if dist[y as usize] == u32::MAX {
                    dist[y as usize] = dx + 1;
                    queue.push_back(y);
                }
                false
            });
        }
        (0..n as u32)
            .map(|u| {
                let du = dist[u as usize];
                if du == 0 || du == u32::MAX {
                    return None;
                }
                let mut hop = None;
                self.adjacent(nodes, links, air, u, |i, v| {
                    if dist[v as usize] == du - 1 {
                        hop = Some((i, v));
                        true
                    } else {
                        false
                    }
                });
                hop
            })
            .collect()
    }
}
