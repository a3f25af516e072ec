//! Runs the usrsctp interoperation harness over many seeds and prints a table (one row per
//! role × ending) and a final `RESULT` line for `sctpsim verify usrsctp`.
//!
//! `sctpsim-usrsctp-interop [--seeds N] [--first-seed S] [--max-loss P] [--messages M]
//! [--max-len BYTES] [--no-pr] [--no-auth] [--pcap-dir DIR] [--trace SEED [--trace-case
//! standard|idata|reconfig|nrsack]]`; exit 0 when every
//! run passed, 1 when one failed, 2 for a bad argument. AUTH (RFC 4895) and ASCONF are on
//! unless `--no-auth`; the RESULT line then counts the runs that negotiated AUTH and those
//! whose authenticated ASCONF usrsctp answered. After the role × ending rows, a `StreamReset`
//! row per role runs the stream reconfiguration case (RFC 6525, [`Case::reconfig`]); the
//! RESULT line counts its passing runs as `reconfig_performed`; an `IData` row per role runs
//! the I-DATA case (RFC 8260 with PR-SCTP, [`Case::i_data`]), counted as `i_data_ok`; an
//! `NrSack` row per role runs the NR-SACK case ([`Case::nr_sack`]), counted as `nr_sack_ok`. Runs
//! that end in one of the two recognised ways that are not sctpsim's fault
//! (`sctpsim_interop::known`) pass and are counted as `known`, each printed as a `KNOWN` line.

use std::process::ExitCode;

use sctpsim_interop::harness::{run, Case, Ending, Outcome, Role};

struct Args {
    seeds: u64,
    first_seed: u64,
    max_loss: f64,
    messages: u32,
    max_len: usize,
    pcap_dir: Option<std::path::PathBuf>,
    trace: Option<u64>,
    /// The case `--trace` runs: `standard` (default), `idata`, `reconfig` or `nrsack`.
    trace_case: String,
    pr: bool,
    auth: bool,
}

fn parse() -> Result<Args, String> {
    let mut a = Args {
        seeds: 50,
        first_seed: 1,
        max_loss: 0.10,
        messages: 24,
        max_len: 3000,
        pcap_dir: None,
        trace: None,
        trace_case: "standard".into(),
        pr: true,
        auth: true,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = |name: &str| it.next().ok_or(format!("{name}: missing value"));
        match k.as_str() {
            "--seeds" => a.seeds = v("--seeds")?.parse().map_err(|e| format!("--seeds: {e}"))?,
            "--first-seed" => {
                a.first_seed = v("--first-seed")?
                    .parse()
                    .map_err(|e| format!("--first-seed: {e}"))?
            }
            "--max-loss" => {
                a.max_loss = v("--max-loss")?
                    .parse()
                    .map_err(|e| format!("--max-loss: {e}"))?;
                if !(0.0..=0.5).contains(&a.max_loss) {
                    return Err("--max-loss: must be a probability in 0..=0.5".into());
                }
            }
            "--messages" => {
                a.messages = v("--messages")?
                    .parse()
                    .map_err(|e| format!("--messages: {e}"))?
            }
            "--max-len" => {
                a.max_len = v("--max-len")?
                    .parse()
                    .map_err(|e| format!("--max-len: {e}"))?;
                if !(12..=60_000).contains(&a.max_len) {
                    return Err("--max-len: must be 12..=60000 bytes".into());
                }
            }
            "--no-pr" => a.pr = false,
            "--no-auth" => a.auth = false,
            "--pcap-dir" => a.pcap_dir = Some(v("--pcap-dir")?.into()),
            "--trace-case" => {
                let c = v("--trace-case")?;
                if !["standard", "idata", "reconfig", "nrsack"].contains(&c.as_str()) {
                    return Err(format!(
                        "--trace-case: {c:?}, expected standard, idata, reconfig or nrsack"
                    ));
                }
                a.trace_case = c;
            }
            "--trace" => {
                a.trace = Some(v("--trace")?.parse().map_err(|e| format!("--trace: {e}"))?)
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(a)
}

fn main() -> ExitCode {
    let a = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("sctpsim-usrsctp-interop: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(seed) = a.trace {
        let d = sctpsim_interop::usrsctp::Stack::acquire().defaults();
        println!("# usrsctp defaults: {d:?}");
        for role in Role::ALL {
            let base = match a.trace_case.as_str() {
                "idata" => Case::i_data(role, seed, a.max_loss),
                "reconfig" => Case::reconfig(role, seed, a.max_loss),
                "nrsack" => Case::nr_sack(role, seed, a.max_loss),
                _ => Case::new(role, Ending::ShutdownBySctpsim, seed, a.max_loss),
            };
            let case = Case {
                messages: a.messages,
                max_len: a.max_len,
                trace: true,
                auth: a.auth,
                ..base
            };
            let o = run(&case);
            println!(
                "# {role:?} seed {seed}: loss {:?} usrsctp T3 {} rtx {} auth {} asconf answered {:?} failures {:?} known {:?} {:?}",
                o.loss,
                o.usrsctp_t3_expiries,
                o.usrsctp_retransmissions,
                o.auth_negotiated,
                o.asconf_answered,
                o.failures,
                o.known,
                o.known_failures
            );
            for l in &o.trace {
                println!("{l}");
            }
        }
        return ExitCode::SUCCESS;
    }
    let start = std::time::Instant::now();
    println!(
        "{:<15} {:<18} {:>6} {:>6} {:>9} {:>9} {:>8} {:>8} {:>8} {:>8} {:>9}",
        "role",
        "ending",
        "seeds",
        "failed",
        "msgs->usr",
        "msgs->us",
        "pr_aband",
        "rej_us",
        "rej_usr",
        "lost_pk",
        "virt_s"
    );
    let mut totals = Totals::default();
    for role in Role::ALL {
        for ending in Ending::ALL {
            let mut row = Row::default();
            for seed in a.first_seed..a.first_seed + a.seeds {
                let pcap = a.pcap_dir.as_ref().map(|d| {
                    d.join(format!("usrsctp-{role:?}-{ending:?}-{seed}.pcap").to_lowercase())
                });
                let case = Case {
                    messages: a.messages,
                    max_len: a.max_len,
                    pr: a.pr,
                    pcap,
                    auth: a.auth,
                    ..Case::new(role, ending, seed, a.max_loss)
                };
                let o = run(&case);
                let what = format!("{role:?} {ending:?}");
                totals.add(&o, &what, seed);
                row.add(&o, &what, seed);
            }
            totals.failed += row.failed;
            row.print(role, &format!("{ending:?}"), a.seeds);
        }
    }
    // RFC 6525: the stream reconfiguration case, one row per role (ending: sctpsim shuts
    // down), AUTH as asked, PR-SCTP off.
    let reconfig_ok = case_rows(&a, &mut totals, "StreamReset", "reconfig", |role, seed| {
        Case {
            auth: a.auth,
            ..Case::reconfig(role, seed, a.max_loss)
        }
    });
    // RFC 8260: the I-DATA case, one row per role (ending: sctpsim shuts down), AUTH as asked,
    // PR-SCTP as asked (sctpsim's abandoned messages are skipped by I-FORWARD-TSN).
    let i_data_ok = case_rows(&a, &mut totals, "IData", "idata", |role, seed| Case {
        auth: a.auth,
        pr: a.pr,
        ..Case::i_data(role, seed, a.max_loss)
    });
    // NR-SACK (draft-natarajan-tsvwg-sctp-nrsack): one row per role (ending: sctpsim shuts
    // down), AUTH and PR-SCTP as asked.
    let nr_sack_ok = case_rows(&a, &mut totals, "NrSack", "nrsack", |role, seed| Case {
        auth: a.auth,
        pr: a.pr,
        ..Case::nr_sack(role, seed, a.max_loss)
    });
    let Totals {
        runs: total_runs,
        failed: total_failed,
        stalled: total_stalled,
        auth: auth_runs,
        asconf: asconf_answered,
        known,
    } = totals;
    println!(
        "RESULT runs={total_runs} failed={total_failed} stalled={total_stalled} errors={} auth={auth_runs} asconf_answered={asconf_answered} reconfig_performed={reconfig_ok} i_data_ok={i_data_ok} nr_sack_ok={nr_sack_ok} known={known} max_loss={} wall_s={:.1}",
        total_failed - total_stalled,
        a.max_loss,
        start.elapsed().as_secs_f64()
    );
    if total_failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Counters of the RESULT line.
#[derive(Default)]
struct Totals {
    runs: u64,
    failed: u64,
    stalled: u64,
    auth: u64,
    asconf: u64,
    /// Runs with a recognised ending that is not sctpsim's fault (`known.rs`).
    known: u64,
}

impl Totals {
    /// Counts one run (`what`: its role and case) and prints a recognised ending.
    fn add(&mut self, o: &Outcome, what: &str, seed: u64) {
        self.runs += 1;
        self.auth += u64::from(o.auth_negotiated);
        self.asconf += u64::from(o.asconf_answered.is_some());
        if o.stalled_only() {
            self.stalled += 1;
        }
        if let Some(k) = o.known {
            self.known += 1;
            eprintln!("KNOWN {what} seed {seed}: {k:?}: {:?}", o.known_failures);
        }
    }
}

/// One table row per role for a special case (`make(role, seed)`, with the run's message count,
/// size and capture directory filled in here); returns the runs that passed.
fn case_rows(
    a: &Args,
    totals: &mut Totals,
    label: &str,
    file_tag: &str,
    make: impl Fn(Role, u64) -> Case,
) -> u64 {
    let mut passed = 0u64;
    for role in Role::ALL {
        let mut row = Row::default();
        for seed in a.first_seed..a.first_seed + a.seeds {
            let pcap = a
                .pcap_dir
                .as_ref()
                .map(|d| d.join(format!("usrsctp-{role:?}-{file_tag}-{seed}.pcap").to_lowercase()));
            let case = Case {
                messages: a.messages,
                max_len: a.max_len,
                pcap,
                ..make(role, seed)
            };
            let o = run(&case);
            let what = format!("{role:?} {label}");
            totals.add(&o, &what, seed);
            row.add(&o, &what, seed);
            passed += u64::from(o.passed());
        }
        totals.failed += row.failed;
        // The special cases' rows show no PR count.
        row.pr = 0;
        row.print(role, label, a.seeds);
    }
    passed
}

/// One table row's sums over its seeds.
#[derive(Default)]
struct Row {
    failed: u64,
    to_usr: usize,
    to_us: usize,
    pr: usize,
    rej_us: u64,
    rej_usr: u64,
    lost: u64,
    virt_s: f64,
}

impl Row {
    /// Adds one run (`what`: its role and case); prints the first three failures.
    fn add(&mut self, o: &Outcome, what: &str, seed: u64) {
        if !o.passed() {
            self.failed += 1;
            if self.failed <= 3 {
                eprintln!(
                    "FAIL {what} seed {seed}: usrsctp T3 {} rtx {}, sctpsim rtx {}: {:?}",
                    o.usrsctp_t3_expiries,
                    o.usrsctp_retransmissions,
                    o.sctpsim_retransmissions,
                    o.failures
                );
            }
        }
        self.to_usr += o.to_usrsctp.0;
        self.to_us += o.to_sctpsim.0;
        self.pr += o.pr_abandoned.0 + o.pr_abandoned.1;
        self.rej_us += o.rejected_by_sctpsim;
        self.rej_usr += o.rejected_by_usrsctp;
        self.lost += o.path_to_usrsctp.lost + o.path_to_sctpsim.lost;
        self.virt_s += o.virtual_time.as_secs_f64();
    }

    /// The row under the table's header.
    fn print(&self, role: Role, label: &str, seeds: u64) {
        println!(
            "{:<15} {:<18} {:>6} {:>6} {:>9} {:>9} {:>8} {:>8} {:>8} {:>8} {:>9.0}",
            format!("{role:?}"),
            label,
            seeds,
            self.failed,
            self.to_usr,
            self.to_us,
            self.pr,
            self.rej_us,
            self.rej_usr,
            self.lost,
            self.virt_s
        );
    }
}
