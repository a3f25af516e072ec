//! The loop every fuzz mode shares: flags, replay of one seed, a time budget of cases with
//! panics caught and reported with their seed and location, progress once a minute.

use std::cell::RefCell;
use std::fmt::Debug;
use std::panic;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use sctpsim_kernel::{FlowId, PacketTag, Rng};

/// The counters of one mode, summed over cases.
pub trait Tally: Default + Debug {
    /// Add the counters of one case.
    fn add(&mut self, other: &Self);
    /// A short line for the once-a-minute progress report.
    fn progress(&self) -> String;
    /// The final line (after "<mode>: N cases in T s, no panic; ").
    fn summary(&self) -> String;
}

thread_local! {
    /// Location of the last panic, recorded by our hook (the default hook is replaced so that
    /// caught panics do not flood the output).
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// `sctpsim-fuzz MODE [--minutes M] [--seconds S] [--seed N] [--replay SEED]`.
pub fn usage() -> ExitCode {
    eprintln!(
        "usage: sctpsim-fuzz tcp|sctp|aodv|dsr|olsr|script [--minutes M] [--seconds S] [--seed N] [--replay SEED]"
    );
    ExitCode::from(2)
}

/// Run `case` for seeds derived from the base seed until the budget is spent.
pub fn run<C: Tally>(
    mode: &str,
    args: &[String],
    default_seed: u64,
    case: fn(u64) -> C,
) -> ExitCode {
    let mut budget = Duration::from_secs(60);
    let mut base_seed = default_seed;
    let mut replay = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().and_then(|v| v.parse::<u64>().ok());
        match (flag.as_str(), value) {
            ("--minutes", Some(m)) => budget = Duration::from_secs(m * 60),
            ("--seconds", Some(s)) => budget = Duration::from_secs(s),
            ("--seed", Some(s)) => base_seed = s,
            ("--replay", Some(s)) => replay = Some(s),
            _ => return usage(),
        }
    }
    if let Some(seed) = replay {
        // The default hook prints the panic location and, with RUST_BACKTRACE=1, the stack.
        let counts = case(seed);
        println!("replayed seed {seed}: {counts:?}");
        return ExitCode::SUCCESS;
    }
    panic::set_hook(Box::new(|info| {
        let loc = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
            .unwrap_or_default();
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(loc));
    }));
    let start = Instant::now();
    let mut total = C::default();
    let mut n = 0u64;
    let mut last_report = Instant::now();
    while start.elapsed() < budget {
        let seed = base_seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(n);
        match panic::catch_unwind(|| case(seed)) {
            Ok(counts) => total.add(&counts),
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                let loc = LAST_PANIC
                    .with(|p| p.borrow_mut().take())
                    .unwrap_or_default();
                eprintln!(
                    "PANIC in case {n} at {loc} (replay with `{mode} --replay {seed}`): {msg}"
                );
                eprintln!("after {:.0} s: {total:?}", start.elapsed().as_secs_f64());
                return ExitCode::FAILURE;
            }
        }
        n += 1;
        if last_report.elapsed() > Duration::from_secs(60) {
            last_report = Instant::now();
            eprintln!(
                "{:.0} s: {}",
                start.elapsed().as_secs_f64(),
                total.progress()
            );
        }
    }
    println!(
        "{mode}: {n} cases in {:.0} s, no panic; {}",
        start.elapsed().as_secs_f64(),
        total.summary()
    );
    ExitCode::SUCCESS
}

/// How [`mutate`] damages a packet.
#[derive(Copy, Clone, Debug)]
pub struct Mutation {
    /// Extension appends up to this many random bytes.
    pub max_extend: u64,
    /// Overwrites start at or after this offset (e.g. 20: past the IPv4 header, so the damage
    /// reaches the protocol behind it); `None`: no overwrite mode.
    pub overwrite_from: Option<usize>,
    /// Longest overwritten run.
    pub max_overwrite: usize,
}

/// Mutates packet bytes in one of the modes every target uses: 1-4 bit flips, truncation at a
/// random length, extension by random bytes, or (with `overwrite_from`) a random overwrite of
/// a short run.
pub fn mutate(rng: &mut Rng, b: &mut Vec<u8>, m: Mutation) {
    let modes = if m.overwrite_from.is_some() { 4 } else { 3 };
    match rng.below(modes) {
        0 => {
            for _ in 0..1 + rng.below(4) {
                flip_bit(rng, b);
            }
        }
        1 => truncate(rng, b),
        2 => extend(rng, b, m.max_extend),
        _ => overwrite(rng, b, m.overwrite_from.unwrap_or(0), m.max_overwrite),
    }
}

/// Flips one random bit (nothing if `b` is empty).
pub fn flip_bit(rng: &mut Rng, b: &mut [u8]) {
    if !b.is_empty() {
        let i = rng.below(b.len() as u64) as usize;
        b[i] ^= 1 << rng.below(8);
    }
}

/// Truncates at a random length (0 to all of it).
pub fn truncate(rng: &mut Rng, b: &mut Vec<u8>) {
    let keep = rng.below(b.len() as u64 + 1) as usize;
    b.truncate(keep);
}

/// Appends 0 to `max` random bytes.
pub fn extend(rng: &mut Rng, b: &mut Vec<u8>, max: u64) {
    for _ in 0..rng.below(max + 1) {
        b.push(rng.next_u64() as u8);
    }
}

/// Overwrites a run of 1 to `max` bytes starting at a random offset at or after `from`.
pub fn overwrite(rng: &mut Rng, b: &mut [u8], from: usize, max: usize) {
    if b.len() > from {
        let start = from + rng.below((b.len() - from) as u64) as usize;
        let end = (start + 1 + rng.below(max as u64) as usize).min(b.len());
        for x in &mut b[start..end] {
            *x = rng.next_u64() as u8;
        }
    }
}

/// The tag of the `uid`-th data packet a harness originates at node `node` (uids from 1, no
/// random draw, so that adding tags changed no case's replay).
pub fn data_tag(node: usize, uid: u64) -> PacketTag {
    PacketTag {
        flow: Some(FlowId(node as u32)),
        uid,
    }
}

/// A router output carries either no tag (control traffic, forged input) or one of the
/// `issued` tags the harness gave the data it originated ([`data_tag`]): whatever the input, a
/// router returns tags, it never makes them up.
pub fn assert_known_tag(tag: PacketTag, issued: u64) {
    assert!(
        tag == PacketTag::default() || (tag.flow.is_some() && (1..=issued).contains(&tag.uid)),
        "a router output carries tag {tag:?}, which the harness never issued ({issued} issued)"
    );
}
