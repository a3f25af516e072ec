use super::*;
use crate::describe::Describe;
use crate::scenario::{AodvSpec, DsdvSpec, DsrSpec, OlsrSpec};
use serde::Serialize;

/// The fields of a spec struct as the scenario spells them.
fn fields<T: Serialize + Default>() -> Vec<String> {
    let v = serde_json::to_value(T::default()).unwrap();
    let mut f: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    f.retain(|k| k != "profile");
    f.sort();
    f
}

fn described<C: Describe>() -> Vec<String> {
    let mut f: Vec<String> = C::PARAMS.iter().map(|p| p.field.to_string()).collect();
    f.sort();
    f
}

#[test]
fn every_field_of_a_section_is_described_once() {
    use sctpsim_proto::routing::{aodv, dsdv, dsr, olsr};
    assert_eq!(fields::<DsrSpec>(), described::<dsr::DsrConfig>());
    assert_eq!(fields::<AodvSpec>(), described::<aodv::AodvConfig>());
    assert_eq!(fields::<OlsrSpec>(), described::<olsr::OlsrConfig>());
    assert_eq!(fields::<DsdvSpec>(), described::<dsdv::DsdvConfig>());
}

#[test]
fn names_are_the_scenario_names_and_sections() {
    let spec = serde_json::to_value(RoutingSpec::default()).unwrap();
    for p in &AD_HOC {
        assert_eq!(serde_json::to_value(p.kind).unwrap(), p.name);
        assert_eq!(p.kind.name(), p.name);
        assert!(spec.get(p.name).is_some(), "no [routing.{}]", p.name);
        assert_eq!(protocol(p.kind).map(|q| q.name), Some(p.name));
    }
    assert!(protocol(RoutingKind::Static).is_none());
}

#[test]
fn every_descriptor_reads_its_own_section() {
    let text = |name: &str| {
        format!(
            "[simulation]\nduration = \"1s\"\n[routing]\nprotocol = \"static\"\n[routing.{name}]\n"
        )
    };
    for p in &AD_HOC {
        let loaded: toml::Table = toml::from_str(&text(p.name)).unwrap();
        let spec: RoutingSpec = loaded["routing"].clone().try_into().unwrap();
        let given: Vec<&str> = AD_HOC
            .iter()
            .filter(|q| (q.given)(&spec))
            .map(|q| q.name)
            .collect();
        assert_eq!(given, [p.name]);
    }
}

#[test]
fn every_descriptor_builds_a_router() {
    for p in &AD_HOC {
        let spec = RoutingSpec {
            protocol: p.kind,
            ..Default::default()
        };
        let r = make_router(&spec, Ipv4Addr::new(10, 0, 0, 1), Rng::from_seed(1));
        assert!(r.is_some(), "{}", p.name);
    }
}

#[test]
fn trace_codes_of_stored_traces_keep_their_meaning() {
    // A stored trace.parquet's `protocol` codes index this list: a new protocol goes at the
    // end of `AD_HOC`, never between.
    assert_eq!(
        crate::trace::PROTOCOL_NAMES,
        ["ip", "udp", "tcp", "sctp", "icmp", "dsr", "aodv", "olsr", "dsdv"]
    );
}
