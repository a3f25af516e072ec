//! Cross-check with Wireshark's SCTP dissector: the sample capture of `examples/sctp_pcap.rs`
//! (every chunk type, every error cause, ASCONF, FORWARD TSN) must dissect without a malformed
//! packet or an expert error with CRC32c and IPv4 checksum validation on, and the field values
//! tshark shows must equal those our own parser reads from the same bytes.
//!
//! Skipped (with a note on stderr) when `tshark` is not installed.

#[allow(dead_code)]
#[path = "../examples/sctp_pcap.rs"]
mod sample;
mod tshark_common;

use std::collections::BTreeMap;
use std::net::IpAddr;

use sctpsim_wire::sctp::{
    sctp_packet, ChunkRepr, ErrorCause, InitChunk, Parameter, ReconfigParam, SctpPacket, SctpRepr,
    Tsn,
};
use sctpsim_wire::{Ipv4Addr, Ipv4Packet};

/// The INIT of `tests/sctp_fixtures.rs` (whose CRC32c 0x78200EB2 was computed independently).
fn fixture_init_packet() -> Vec<u8> {
    let init = ChunkRepr::Init(InitChunk {
        initiate_tag: 0x1122_3344,
        a_rwnd: 65_536,
        outbound_streams: 10,
        inbound_streams: 65_535,
        initial_tsn: Tsn(1000),
        params: vec![
            Parameter::Address(IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1))),
            Parameter::ForwardTsnSupported,
            Parameter::SupportedAddressTypes(vec![5]),
        ],
    });
    sctp_packet(
        Ipv4Addr::new(10, 0, 0, 1),
        Ipv4Addr::new(10, 0, 1, 2),
        64,
        99,
        5001,
        9,
        0,
        &[init],
    )
}

fn packets() -> Vec<Vec<u8>> {
    let mut packets: Vec<Vec<u8>> = sample::sample_packets()
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    packets.push(fixture_init_packet());
    packets
}

/// The preferences every run uses: checksum validation on.
const PREFS: &[&str] = &[
    "sctp.checksum:CRC-32C",
    "ip.check_checksum:TRUE",
    "sctp.relative_tsns:FALSE",
];

fn tshark(path: &std::path::Path, args: &[&str]) -> String {
    tshark_common::run(path, PREFS, args)
}

#[test]
fn tshark_reports_no_error() {
    if !tshark_common::available() {
        eprintln!("tshark not installed: skipping the Wireshark cross-check");
        return;
    }
    let path = tshark_common::write_pcap("clean", &packets());
    let flagged = tshark(
        &path,
        &["-V", "-Y", "_ws.malformed || _ws.expert.severity >= error"],
    );
    assert_eq!(flagged, "", "tshark flagged packets");
    // Every frame is SCTP with a good checksum.
    let status = tshark(&path, &["-T", "fields", "-e", "sctp.checksum.status"]);
    assert_eq!(status.lines().count(), packets().len());
    assert!(status.lines().all(|l| l == "1"), "{status}");

    // The cSCTP frames are there, with their flags as tshark reads them: the handoff-start
    // ASCONF (H) with its ASCONF-ACK, the handoff-end ASCONF (E), the per-path SACK (P).
    for (filter, n) in [
        ("sctp.chunk_type == 0xc1 && sctp.chunk_flags == 0x01", 1),
        ("sctp.chunk_type == 0xc1 && sctp.chunk_flags == 0x02", 1),
        (
            "sctp.chunk_type == 0x80 && sctp.asconf_ack_seq_nr_number == 0x00010001",
            1,
        ),
        ("sctp.chunk_type == 3 && sctp.chunk_flags == 0x02", 1),
    ] {
        let out = tshark(&path, &["-Y", filter]);
        assert_eq!(out.lines().count(), n, "{filter}: {out}");
    }

    // The same filter does catch a damaged packet.
    let mut bad = packets();
    let last = bad[0].len() - 1;
    bad[0][last] ^= 0x01;
    let path_bad = tshark_common::write_pcap("damaged", &bad);
    let flagged = tshark(
        &path_bad,
        &["-Y", "_ws.malformed || _ws.expert.severity >= error"],
    );
    assert_eq!(flagged.lines().count(), 1, "{flagged}");
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(path_bad);
}

/// Field name → occurrences, in dissection order.
#[derive(Default)]
struct Fields(BTreeMap<&'static str, Vec<String>>);

impl Fields {
    fn push(&mut self, field: &'static str, value: impl ToString) {
        self.0.entry(field).or_default().push(value.to_string());
    }

    fn param(&mut self, p: &Parameter) {
        match p {
            Parameter::Address(IpAddr::V4(a)) => self.push("sctp.parameter_ipv4_address", a),
            Parameter::StateCookie(c) => self.push("sctp.parameter_state_cookie", hex(c)),
            Parameter::CookiePreservative { increment_ms } => {
                self.push("sctp.parameter_cookie_preservative_incr", increment_ms)
            }
            Parameter::SupportedAddressTypes(t) => {
                for t in t {
                    self.push("sctp.parameter_supported_address_type", t);
                }
            }
            Parameter::SupportedExtensions(t) => {
                for t in t {
                    self.push("sctp.supported_chunk_type", t);
                }
            }
            Parameter::AdaptationLayerIndication { code_point } => self.push(
                "sctp.adaptation_layer_indication",
                format!("0x{code_point:08x}"),
            ),
            Parameter::AddIpAddress {
                correlation_id,
                address,
            }
            | Parameter::DeleteIpAddress {
                correlation_id,
                address,
            }
            | Parameter::SetPrimaryAddress {
                correlation_id,
                address,
            } => {
                self.push("sctp.correlation_id", format!("0x{correlation_id:08x}"));
                self.param(&Parameter::Address(*address));
            }
            Parameter::SuccessIndication { correlation_id } => {
                self.push("sctp.correlation_id", format!("0x{correlation_id:08x}"))
            }
            Parameter::ErrorCauseIndication {
                correlation_id,
                causes,
            } => {
                self.push("sctp.correlation_id", format!("0x{correlation_id:08x}"));
                causes.iter().for_each(|c| self.cause(c));
            }
            Parameter::UnrecognizedParameter(tlv) => self.nested(tlv),
            _ => {}
        }
    }

    /// Parameters copied inside another TLV, which tshark dissects too.
    fn nested(&mut self, tlvs: &[u8]) {
        for p in Parameter::parse_list(tlvs).unwrap() {
            self.param(&p);
        }
    }

    fn cause(&mut self, c: &ErrorCause) {
        self.push("sctp.cause_code", format!("0x{:04x}", c.code()));
        match c {
            ErrorCause::InvalidStreamIdentifier { stream_id } => {
                self.push("sctp.cause_stream_identifier", stream_id)
            }
            ErrorCause::MissingMandatoryParameter { missing } => {
                self.push("sctp.cause_nr_of_missing_parameters", missing.len());
                for m in missing {
                    self.push("sctp.cause_missing_parameter_type", format!("0x{m:04x}"));
                }
            }
            ErrorCause::StaleCookie { staleness_us } => {
                self.push("sctp.cause_measure_of_staleness", staleness_us)
            }
            ErrorCause::NoUserData { tsn } => self.push("sctp.cause_tsn", tsn),
            ErrorCause::UnrecognizedChunkType { chunk } => {
                self.push("sctp.chunk_type", chunk[0]);
                self.push("sctp.chunk_flags", format!("0x{:02x}", chunk[1]));
            }
            ErrorCause::UnresolvableAddress { address: b }
            | ErrorCause::RestartWithNewAddresses { addresses: b }
            | ErrorCause::UnrecognizedParameters { parameters: b }
            | ErrorCause::DeleteLastRemainingAddress { request: b }
            | ErrorCause::OperationRefusedResourceShortage { request: b }
            | ErrorCause::DeleteSourceAddress { request: b }
            | ErrorCause::RequestRefusedNoAuthorization { request: b } => self.nested(b),
            _ => {}
        }
    }

    fn init(&mut self, prefix: &'static str, i: &InitChunk) {
        let f = |name: &str| -> &'static str {
            Box::leak(format!("sctp.{prefix}_{name}").into_boxed_str())
        };
        self.push(f("initiate_tag"), format!("0x{:08x}", i.initiate_tag));
        self.push(f("credit"), i.a_rwnd);
        self.push(f("nr_out_streams"), i.outbound_streams);
        self.push(f("nr_in_streams"), i.inbound_streams);
        self.push(f("initial_tsn"), i.initial_tsn);
        i.params.iter().for_each(|p| self.param(p));
    }

    fn chunk(&mut self, c: &ChunkRepr) {
        self.push("sctp.chunk_type", c.kind());
        self.push("sctp.chunk_flags", format!("0x{:02x}", c.flags()));
        match c {
            ChunkRepr::Data(d) => {
                self.push("sctp.data_tsn_raw", d.tsn);
                self.push("sctp.data_sid", format!("0x{:04x}", d.stream_id));
                self.push("sctp.data_ssn", d.ssn);
                self.push("sctp.data_payload_proto_id", d.ppid);
                self.push("sctp.data_u_bit", u8::from(d.unordered));
                self.push("sctp.data_b_bit", u8::from(d.beginning));
                self.push("sctp.data_e_bit", u8::from(d.ending));
                self.push("sctp.data_i_bit", u8::from(d.immediate));
            }
            ChunkRepr::IData(d) => {
                self.push("sctp.data_tsn_raw", d.tsn);
                self.push("sctp.data_sid", format!("0x{:04x}", d.stream_id));
                self.push("sctp.data_mid", d.mid);
                match d.ppid() {
                    Some(ppid) => self.push("sctp.data_payload_proto_id", ppid),
                    None => self.push("sctp.data_fsn", d.fsn()),
                }
                self.push("sctp.data_u_bit", u8::from(d.unordered));
                self.push("sctp.data_b_bit", u8::from(d.beginning));
                self.push("sctp.data_e_bit", u8::from(d.ending));
                self.push("sctp.data_i_bit", u8::from(d.immediate));
            }
            ChunkRepr::IForwardTsn(f) => {
                self.push("sctp.i_forward_tsn_tsn", f.new_cum_tsn);
                for s in &f.streams {
                    self.push("sctp.i_forward_tsn_sid", s.stream_id);
                    self.push("sctp.i_forward_tsn_u_bit", u8::from(s.unordered));
                    self.push("sctp.forward_tsn_mid", s.mid);
                }
            }
            ChunkRepr::Init(i) => self.init("init", i),
            ChunkRepr::InitAck(i) => self.init("initack", i),
            ChunkRepr::Sack(s) => {
                self.push("sctp.sack_cumulative_tsn_ack_raw", s.cum_tsn_ack);
                self.push("sctp.sack_a_rwnd", s.a_rwnd);
                for g in &s.gap_blocks {
                    self.push("sctp.sack_gap_block_start", g.start);
                    self.push("sctp.sack_gap_block_end", g.end);
                }
                for d in &s.duplicate_tsns {
                    self.push("sctp.sack_duplicate_tsn", d);
                }
            }
            ChunkRepr::NrSack(n) => {
                let s = &n.sack;
                self.push("sctp.nr_sack_cumulative_tsn_ack", s.cum_tsn_ack);
                self.push("sctp.nr_sack_a_rwnd", s.a_rwnd);
                self.push("sctp.nr_sack_number_of_gap_blocks", s.gap_blocks.len());
                self.push(
                    "sctp.nr_sack_number_of_nr_gap_blocks",
                    n.nr_gap_blocks.len(),
                );
                for g in &s.gap_blocks {
                    self.push("sctp.nr_sack_gap_block_start", g.start);
                    self.push("sctp.nr_sack_gap_block_end", g.end);
                }
                for g in &n.nr_gap_blocks {
                    self.push("sctp.nr_sack_nr_gap_block_start", g.start);
                    self.push("sctp.nr_sack_nr_gap_block_end", g.end);
                }
                for d in &s.duplicate_tsns {
                    self.push("sctp.nr_sack_duplicate_tsn", d);
                }
            }
            ChunkRepr::Heartbeat { info } | ChunkRepr::HeartbeatAck { info } => {
                self.push("sctp.parameter_heartbeat_information", hex(info))
            }
            ChunkRepr::Abort { t_bit, causes } => {
                self.push("sctp.abort_t_bit", u8::from(*t_bit));
                causes.iter().for_each(|c| self.cause(c));
            }
            ChunkRepr::Error { causes } => causes.iter().for_each(|c| self.cause(c)),
            ChunkRepr::Shutdown { cum_tsn_ack } => {
                self.push("sctp.shutdown_cumulative_tsn_ack", cum_tsn_ack)
            }
            ChunkRepr::CookieEcho { cookie } => self.push("sctp.cookie", hex(cookie)),
            ChunkRepr::Ecne { lowest_tsn } => self.push("sctp.ecne_lowest_tsn", lowest_tsn),
            ChunkRepr::Cwr { lowest_tsn } => self.push("sctp.cwr_lowest_tsn", lowest_tsn),
            ChunkRepr::ShutdownComplete { t_bit } => {
                self.push("sctp.shutdown_complete_t_bit", u8::from(*t_bit))
            }
            ChunkRepr::Asconf(a) => {
                self.push(
                    "sctp.asconf_seq_nr_number",
                    format!("0x{:08x}", a.sequence_number),
                );
                self.param(&Parameter::Address(a.address));
                a.params.iter().for_each(|p| self.param(p));
            }
            ChunkRepr::AsconfAck(a) => {
                self.push(
                    "sctp.asconf_ack_seq_nr_number",
                    format!("0x{:08x}", a.sequence_number),
                );
                a.params.iter().for_each(|p| self.param(p));
            }
            ChunkRepr::ForwardTsn(f) => {
                self.push("sctp.forward_tsn_tsn", f.new_cum_tsn);
                for s in &f.streams {
                    self.push("sctp.forward_tsn_sid", s.stream_id);
                    self.push("sctp.forward_tsn_ssn", s.ssn);
                }
            }
            ChunkRepr::Reconfig(r) => r.params.iter().for_each(|p| self.reconfig_param(p)),
            _ => {}
        }
    }

    fn reconfig_param(&mut self, p: &ReconfigParam) {
        if let Some(seq) = p.request_seq() {
            self.push("sctp.parameter_reconfig_request_sequence_number", seq);
        }
        match p {
            ReconfigParam::OutgoingSsnReset {
                response_seq,
                last_tsn,
                streams,
                ..
            } => {
                self.push(
                    "sctp.parameter_reconfig_response_sequence_number",
                    response_seq,
                );
                self.push("sctp.parameter_senders_last_assigned_tsn", last_tsn);
                streams
                    .iter()
                    .for_each(|s| self.push("sctp.parameter_reconfig_sid", s));
            }
            ReconfigParam::IncomingSsnReset { streams, .. } => streams
                .iter()
                .for_each(|s| self.push("sctp.parameter_reconfig_sid", s)),
            ReconfigParam::Response {
                response_seq,
                result,
                next_tsns,
            } => {
                self.push(
                    "sctp.parameter_reconfig_response_sequence_number",
                    response_seq,
                );
                self.push("sctp.parameter_reconfig_response_result", result.code());
                if let Some((s, r)) = next_tsns {
                    self.push("sctp.parameter_senders_next_tsn", s);
                    self.push("sctp.parameter_receivers_next_tsn", r);
                }
            }
            ReconfigParam::AddOutgoingStreams { new_streams, .. } => {
                self.push("sctp.parameter_add_outgoing_streams_number", new_streams)
            }
            ReconfigParam::AddIncomingStreams { new_streams, .. } => {
                self.push("sctp.parameter_add_incoming_streams_number", new_streams)
            }
            _ => {}
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Every field the expectation below can mention.
const FIELDS: &[&str] = &[
    "sctp.srcport",
    "sctp.dstport",
    "sctp.verification_tag",
    "sctp.checksum",
    "sctp.chunk_type",
    "sctp.chunk_flags",
    "sctp.init_initiate_tag",
    "sctp.init_credit",
    "sctp.init_nr_out_streams",
    "sctp.init_nr_in_streams",
    "sctp.init_initial_tsn",
    "sctp.initack_initiate_tag",
    "sctp.initack_credit",
    "sctp.initack_nr_out_streams",
    "sctp.initack_nr_in_streams",
    "sctp.initack_initial_tsn",
    "sctp.parameter_ipv4_address",
    "sctp.parameter_state_cookie",
    "sctp.parameter_cookie_preservative_incr",
    "sctp.parameter_supported_address_type",
    "sctp.supported_chunk_type",
    "sctp.adaptation_layer_indication",
    "sctp.correlation_id",
    "sctp.cause_code",
    "sctp.cause_stream_identifier",
    "sctp.cause_nr_of_missing_parameters",
    "sctp.cause_missing_parameter_type",
    "sctp.cause_measure_of_staleness",
    "sctp.cause_tsn",
    "sctp.data_tsn_raw",
    "sctp.data_sid",
    "sctp.data_ssn",
    "sctp.data_payload_proto_id",
    "sctp.data_u_bit",
    "sctp.data_b_bit",
    "sctp.data_e_bit",
    "sctp.data_i_bit",
    "sctp.data_mid",
    "sctp.data_fsn",
    "sctp.sack_cumulative_tsn_ack_raw",
    "sctp.sack_a_rwnd",
    "sctp.sack_gap_block_start",
    "sctp.sack_gap_block_end",
    "sctp.sack_duplicate_tsn",
    "sctp.nr_sack_cumulative_tsn_ack",
    "sctp.nr_sack_a_rwnd",
    "sctp.nr_sack_number_of_gap_blocks",
    "sctp.nr_sack_number_of_nr_gap_blocks",
    "sctp.nr_sack_gap_block_start",
    "sctp.nr_sack_gap_block_end",
    "sctp.nr_sack_nr_gap_block_start",
    "sctp.nr_sack_nr_gap_block_end",
    "sctp.nr_sack_duplicate_tsn",
    "sctp.parameter_heartbeat_information",
    "sctp.abort_t_bit",
    "sctp.shutdown_cumulative_tsn_ack",
    "sctp.cookie",
    "sctp.ecne_lowest_tsn",
    "sctp.cwr_lowest_tsn",
    "sctp.shutdown_complete_t_bit",
    "sctp.asconf_seq_nr_number",
    "sctp.asconf_ack_seq_nr_number",
    "sctp.forward_tsn_tsn",
    "sctp.forward_tsn_sid",
    "sctp.forward_tsn_ssn",
    "sctp.i_forward_tsn_tsn",
    "sctp.i_forward_tsn_sid",
    "sctp.i_forward_tsn_u_bit",
    "sctp.forward_tsn_mid",
    "sctp.parameter_reconfig_request_sequence_number",
    "sctp.parameter_reconfig_response_sequence_number",
    "sctp.parameter_senders_last_assigned_tsn",
    "sctp.parameter_reconfig_sid",
    "sctp.parameter_reconfig_response_result",
    "sctp.parameter_senders_next_tsn",
    "sctp.parameter_receivers_next_tsn",
    "sctp.parameter_add_outgoing_streams_number",
    "sctp.parameter_add_incoming_streams_number",
];

#[test]
fn tshark_fields_match_our_parser() {
    if !tshark_common::available() {
        eprintln!("tshark not installed: skipping the Wireshark cross-check");
        return;
    }
    let packets = packets();
    let path = tshark_common::write_pcap("fields", &packets);
    let mut args = vec!["-T", "fields", "-E", "separator=|", "-E", "aggregator=,"];
    args.extend(["-E", "occurrence=a"]);
    for f in FIELDS {
        args.extend(["-e", f]);
    }
    let out = tshark(&path, &args);
    let _ = std::fs::remove_file(&path);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), packets.len());

    for (frame, (ip, line)) in packets.iter().zip(lines).enumerate() {
        let ip = Ipv4Packet::new_checked(&ip[..]).unwrap();
        let packet = SctpPacket::new_checked(ip.payload()).unwrap();
        let repr = SctpRepr::parse(&packet).unwrap();
        let mut expect = Fields::default();
        expect.push("sctp.srcport", repr.src_port);
        expect.push("sctp.dstport", repr.dst_port);
        expect.push(
            "sctp.verification_tag",
            format!("0x{:08x}", repr.verification_tag),
        );
        // tshark prints the field bytes read in network order; the CRC is stored LSB first.
        expect.push(
            "sctp.checksum",
            format!("0x{:08x}", packet.checksum().swap_bytes()),
        );
        repr.chunks.iter().for_each(|c| expect.chunk(c));

        let got: Vec<&str> = line.split('|').collect();
        assert_eq!(got.len(), FIELDS.len());
        for (field, value) in FIELDS.iter().zip(got) {
            let want = expect.0.get(field).map(|v| v.join(",")).unwrap_or_default();
            assert_eq!(value, want, "frame {} field {field}", frame + 1);
        }
        for field in expect.0.keys() {
            assert!(FIELDS.contains(field), "unlisted field {field}");
        }
    }
    // The independently computed CRC of the fixture INIT (tests/sctp_fixtures.rs).
    let last = lines_checksum(&out);
    assert_eq!(last, "0xb20e2078");
}

fn lines_checksum(out: &str) -> &str {
    let idx = FIELDS.iter().position(|f| *f == "sctp.checksum").unwrap();
    out.lines().last().unwrap().split('|').nth(idx).unwrap()
}
