//! sctpsim against usrsctp over an impaired path (needs `--features usrsctp` and libusrsctp).
//! One binary: usrsctp's state is process-global, every run takes the harness's lock.

#![cfg(feature = "usrsctp")]

use sctpsim_interop::ffi;
use sctpsim_interop::harness::{run, Case, Ending, Role};
use sctpsim_interop::usrsctp::Stack;

/// On a clean path every role and ending passes every check.
#[test]
fn clean_path_all_roles_and_endings() {
    for role in Role::ALL {
        for ending in Ending::ALL {
            for seed in 1..=5 {
                let o = run(&Case::new(role, ending, seed, 0.0));
                assert!(
                    o.passed(),
                    "{role:?} {ending:?} seed {seed}: {:?}",
                    o.failures
                );
                if ending.graceful() {
                    assert_eq!(o.to_usrsctp, (24, 24));
                    assert_eq!(o.to_sctpsim, (24, 24));
                }
            }
        }
    }
}

/// AUTH (RFC 4895) with usrsctp: every run negotiates it, sctpsim's ASCONF (Set Primary,
/// authenticated) is answered by an authenticated ASCONF-ACK that sctpsim verifies, and no AUTH
/// chunk of usrsctp fails sctpsim's checks. usrsctp refuses the request itself: over AF_CONN it
/// has no IPv4 address for sctpsim to make primary.
#[test]
fn auth_and_authenticated_asconf() {
    for role in Role::ALL {
        for seed in 1..=5 {
            let o = run(&Case::new(role, Ending::ShutdownBySctpsim, seed, 0.0));
            assert!(o.passed(), "{role:?} seed {seed}: {:?}", o.failures);
            assert!(o.auth_negotiated, "{role:?} seed {seed}");
            assert!(o.auth_sent > 0, "{role:?} seed {seed}");
            assert_eq!(o.auth_failures, 0);
            assert_eq!(o.asconf_answered, Some(false), "{role:?} seed {seed}");
        }
    }
}

/// sctpsim asking for HMAC-SHA-256 (HMAC-ALGO `[3, 1]`) from a usrsctp that implements only
/// SHA-1 (Debian's 0.9.5 has no SHA-256 code): both fall back to SHA-1, the one every AUTH
/// endpoint must support (RFC 4895 §3.3), and everything still works. Under loss, both roles.
#[test]
fn auth_sha256_asked_falls_back_to_sha1() {
    for role in Role::ALL {
        for seed in 1..=10 {
            let o = run(&Case {
                auth_hmac: sctpsim_proto::transport::sctp::AuthHmac::Sha256,
                ..Case::new(role, Ending::ShutdownBySctpsim, seed, 0.05)
            });
            assert!(o.passed(), "{role:?} seed {seed}: {:?}", o.failures);
            assert!(o.auth_negotiated);
            assert_eq!(o.auth_failures, 0);
            if o.asconf_answered.is_some() {
                assert_eq!(
                    o.usrsctp_hmac_ids,
                    [1].into_iter().collect(),
                    "{role:?} seed {seed}"
                );
            }
        }
    }
}

/// The configuration before AUTH: AUTH and ASCONF off on both sides still interoperates.
#[test]
fn without_auth_and_asconf() {
    for role in Role::ALL {
        for ending in Ending::ALL {
            let o = run(&Case {
                auth: false,
                ..Case::new(role, ending, 3, 0.05)
            });
            assert!(o.passed(), "{role:?} {ending:?}: {:?}", o.failures);
            assert!(!o.auth_negotiated);
            assert_eq!(o.auth_sent, 0);
            assert_eq!(o.asconf_answered, None);
        }
    }
}

/// Up to 10 % loss with duplication and reordering, 50 seeds per role and ending: no packet is
/// rejected by either side, no message is duplicated, corrupted or misordered, and every run
/// ends as it should (no stall: docs/models/sctp.md, "Interoperation with usrsctp").
#[test]
fn lossy_path_no_interop_errors() {
    for role in Role::ALL {
        for ending in [Ending::ShutdownBySctpsim, Ending::AbortByUsrsctp] {
            for seed in 1..=50 {
                let o = run(&Case::new(role, ending, seed, 0.10));
                assert_eq!(o.rejected_by_sctpsim, 0);
                assert_eq!(o.rejected_by_usrsctp, 0);
                assert!(
                    o.passed(),
                    "{role:?} {ending:?} seed {seed}: {:?}",
                    o.failures
                );
            }
        }
    }
}

/// usrsctp checks the CRC32c of what it receives over AF_CONN: a packet with a flipped bit is
/// counted in `sctps_badsum` (so a zero count in the runs means something).
#[test]
fn usrsctp_counts_a_bad_checksum() {
    let mut stack = Stack::acquire();
    let before = stack.stats().words[ffi::STAT_BADSUM];
    // A valid INIT from sctpsim's codec, then one bit of the chunk flipped.
    let init = sctpsim_wire::sctp::SctpRepr {
        src_port: 5000,
        dst_port: 9,
        verification_tag: 0,
        chunks: vec![sctpsim_wire::sctp::ChunkRepr::Abort {
            t_bit: false,
            causes: vec![],
        }],
    };
    let mut buf = vec![0u8; init.buffer_len()];
    let n = init.emit(&mut buf).unwrap();
    buf.truncate(n);
    buf[12] ^= 0x01;
    stack.input(&buf);
    let _ = stack.take_output();
    assert_eq!(stack.stats().words[ffi::STAT_BADSUM], before + 1);
}

/// The run that found the FORWARD TSN stall (sctpsim as server, shutdown by sctpsim, seed 552:
/// the FORWARD TSN's SACK lost with nothing in flight; `forward_tsn.rs`,
/// `on_forward_tsn_timeout`), and two more of its kind (588, 782 as client). usrsctp's clock and
/// random numbers are virtual, so the runs repeat exactly.
#[test]
fn forward_tsn_stall_seeds_finish() {
    for (role, seed) in [
        (Role::SctpsimServer, 552),
        (Role::SctpsimServer, 588),
        (Role::SctpsimClient, 782),
    ] {
        let o = run(&Case::new(role, Ending::ShutdownBySctpsim, seed, 0.10));
        assert!(o.passed(), "{role:?} seed {seed}: {:?}", o.failures);
    }
}

/// Stream reconfiguration (RFC 6525) with usrsctp, AUTH on (RE-CONFIG authenticated both
/// ways): sctpsim resets all its outgoing streams and usrsctp answers Performed; usrsctp resets
/// all of its own and sctpsim performs it; every message still arrives once and in order on
/// its stream (SSNs restart at 0 on both sides). Clean path and under loss, both roles.
#[test]
fn stream_reset_both_ways() {
    for role in Role::ALL {
        for (seed, loss) in [(1, 0.0), (2, 0.0), (3, 0.05), (4, 0.10)] {
            let o = run(&Case::reconfig(role, seed, loss));
            assert!(o.passed(), "{role:?} seed {seed}: {:?}", o.failures);
            assert_eq!(
                o.reconfig_answer,
                Some(sctpsim_wire::sctp::ReconfigResult::Performed)
            );
            assert!(o.reconfig_performed_for_usrsctp, "{role:?} seed {seed}");
            assert!(o.reconfig_chunks.0 >= 2 && o.reconfig_chunks.1 >= 2);
            assert!(o.auth_negotiated);
            assert_eq!(o.auth_failures, 0);
        }
    }
}

/// RFC 8260 against usrsctp: I-DATA negotiated both ways (with I-FORWARD-TSN), every message
/// delivered once and in order per ordered stream, and sctpsim's abandoned PR-SCTP messages
/// skipped by its I-FORWARD-TSN (seed 15 with 10 % loss abandons one after sending it).
#[test]
fn i_data_both_ways() {
    for role in Role::ALL {
        for (seed, loss) in [(1, 0.0), (2, 0.05), (15, 0.10), (16, 0.10)] {
            let o = run(&Case::i_data(role, seed, loss));
            assert!(o.passed(), "{role:?} seed {seed}: {:?}", o.failures);
            assert!(o.i_data_negotiated, "{role:?} seed {seed}");
            assert!(o.auth_negotiated);
        }
    }
}

/// NR-SACK against usrsctp: negotiated, each side acknowledging only with NR-SACK chunks, every
/// message delivered once (seed 1 with 10 % loss has gaps each way, so NR gap blocks are
/// exercised).
#[test]
fn nr_sack_both_ways() {
    for role in Role::ALL {
        for (seed, loss) in [(1, 0.0), (1, 0.10), (7, 0.10)] {
            let o = run(&Case::nr_sack(role, seed, loss));
            assert!(o.passed(), "{role:?} seed {seed}: {:?}", o.failures);
            assert!(o.nr_sack_negotiated, "{role:?} seed {seed}");
            assert!(o.nr_sack_chunks.0 > 0 && o.nr_sack_chunks.1 > 0);
            assert_eq!(o.sack_chunks, (0, 0), "{role:?} seed {seed}");
        }
    }
}
