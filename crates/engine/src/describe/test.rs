use super::*;
use crate::scenario::MobilityKind;

fn check_table<C>(what: &str, params: &[Param<C>]) {
    let mut seen = std::collections::BTreeSet::new();
    for p in params {
        assert!(!p.doc.trim().is_empty(), "{what}.{} has no doc", p.field);
        assert!(seen.insert(p.field), "{what}.{} twice", p.field);
    }
}

#[test]
fn every_parameter_is_documented_once() {
    use sctpsim_proto::mac::MacConfig;
    use sctpsim_proto::routing::{aodv, dsdv, dsr, olsr};
    use sctpsim_proto::transport::{sctp::SctpConfig, tcp::TcpConfig};
    use sctpsim_world::propagation::{LogDistance, Shadowing};
    check_table("tcp", TcpConfig::PARAMS);
    check_table("sctp", SctpConfig::PARAMS);
    check_table("sctp-cmt", transport::SCTP_CMT_PARAMS);
    check_table("sctp-extensions", transport::SCTP_EXTENSION_PARAMS);
    check_table("radio", MacConfig::PARAMS);
    check_table("log-distance", LogDistance::PARAMS);
    check_table("shadowing", Shadowing::PARAMS);
    check_table("dsr", dsr::DsrConfig::PARAMS);
    check_table("aodv", aodv::AodvConfig::PARAMS);
    check_table("olsr", olsr::OlsrConfig::PARAMS);
    check_table("dsdv", dsdv::DsdvConfig::PARAMS);
    for m in [
        MobilityKind::ConstantVelocity,
        MobilityKind::RandomWaypoint,
        MobilityKind::RandomWalk,
        MobilityKind::Mass,
        MobilityKind::GaussMarkov,
    ] {
        check_table("mobility", mobility::model_params(m));
    }
}

#[test]
fn transport_tables_name_fields_of_the_schema() {
    use crate::scenario::{SctpSpec, TcpSpec};
    use sctpsim_proto::transport::{sctp::SctpConfig, tcp::TcpConfig};
    // Every described field is one `--set` takes (the spec has more SCTP fields than the
    // tables: addresses, A-SCTP's switches and actions have rows of their own), in one table.
    let tcp = serde_json::to_value(TcpSpec::default()).unwrap();
    for p in TcpConfig::PARAMS {
        assert!(tcp.get(p.field).is_some(), "flows.tcp.{}", p.field);
    }
    let sctp = serde_json::to_value(SctpSpec::default()).unwrap();
    let tables = [
        SctpConfig::PARAMS,
        transport::SCTP_CMT_PARAMS,
        transport::SCTP_EXTENSION_PARAMS,
    ];
    let mut seen = std::collections::BTreeSet::new();
    for p in tables.into_iter().flatten() {
        assert!(sctp.get(p.field).is_some(), "flows.sctp.{}", p.field);
        assert!(seen.insert(p.field), "flows.sctp.{} in two tables", p.field);
    }
}
