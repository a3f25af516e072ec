//! Each node with a `mobile_ip` or `cellular` role holds it in `Node::mobility`, and no other
//! node has one; the access routers' and mobiles' indexes k and m (the cellular addressing)
//! lead back to their nodes; every role's wake-up is queued once the simulation is built.

use super::mobility::Role;
use super::Simulation;
use crate::scenario::load;
use crate::RunOptions;

const MIP: &str =
    include_str!("../../../../python/sctpsim/scenarios/atiquzzaman2003/mobileip.toml");
const ROAD: &str = include_str!("../../../../python/sctpsim/scenarios/aydin2004/road.toml");

/// Each node's role, by name: "agent", "mobile", "ar", "cell-mobile", or "" for none; and
/// whether its wake slot is armed.
fn roles(sim: &Simulation) -> Vec<(String, &'static str, bool)> {
    sim.nodes
        .iter()
        .map(|n| {
            let (kind, armed) = match n.mobility.as_deref() {
                None => ("", false),
                Some(m) => {
                    let kind = match m.role {
                        Role::MipAgent(_) => "agent",
                        Role::MipMobile(_) => "mobile",
                        Role::AccessRouter(_) => "ar",
                        Role::CellMobile(_) => "cell-mobile",
                    };
                    (kind, m.wake != sctpsim_kernel::WakeSlot::default())
                }
            };
            (n.name.clone(), kind, armed)
        })
        .collect()
}

#[test]
fn mobile_ip_roles_are_in_their_nodes() {
    let sim = Simulation::new(load(MIP, &[]).expect("loads"), None, &RunOptions::default())
        .expect("builds");
    let r = roles(&sim);
    let of = |name: &str| r.iter().find(|x| x.0 == name).expect("a node").clone();
    assert_eq!(of("HA").1, "agent");
    assert_eq!(of("FA").1, "agent");
    assert_eq!(of("MH").1, "mobile");
    assert_eq!((of("CN").1, of("R").1), ("", ""));
    // Every agent's first advertisement and the mobile node's first timer are queued.
    let has_role = |x: &(String, &str, bool)| !x.1.is_empty();
    assert!(r.iter().all(|x| x.2 == has_role(x)), "{r:?}");
}

#[test]
fn access_routers_and_mobiles_are_in_their_nodes_and_found_by_index() {
    let sim = Simulation::new(
        load(ROAD, &[]).expect("loads"),
        None,
        &RunOptions::default(),
    )
    .expect("builds");
    let r = roles(&sim);
    for (name, kind, armed) in &r {
        let want = if name.starts_with("AR") {
            "ar"
        } else if name == "MN" {
            "cell-mobile"
        } else {
            ""
        };
        assert_eq!((name.as_str(), *kind), (name.as_str(), want));
        assert_eq!(*armed, !want.is_empty(), "{name}");
    }
    let cell = sim.cell.as_deref().expect("access-router mobility");
    let (ars, mobiles) = cell.nodes_by_index();
    assert_eq!(ars.len(), r.iter().filter(|x| x.1 == "ar").count());
    for (k, n) in ars.iter().enumerate() {
        let name = &sim.nodes[n.index()].name;
        assert_eq!(
            name,
            &format!("AR{}", k + 1),
            "AR k is the k-th access router"
        );
        match sim.nodes[n.index()].mobility.as_deref().map(|m| &m.role) {
            Some(Role::AccessRouter(a)) => assert_eq!(a.index(), k as u32),
            other => panic!("{name}: {other:?}"),
        }
    }
    assert_eq!(mobiles.len(), 1);
    match sim.nodes[mobiles[0].index()]
        .mobility
        .as_deref()
        .map(|m| &m.role)
    {
        Some(Role::CellMobile(m)) => assert_eq!(m.index(), 0),
        other => panic!("{other:?}"),
    }
}
