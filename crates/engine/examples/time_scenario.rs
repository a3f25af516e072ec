//! Times whole runs of a scenario for back-to-back speed comparisons between commits (the
//! numbers in BENCHMARKS.md): `cargo run --release -p sctpsim-engine --example time_scenario --
//! FILE [--set path=value]... [--repeat N] [--summary OUT.json]`. Prints one `key=value` line
//! per run (events, wall seconds of the run, building excluded) and the median; `--summary`
//! writes the last run's `summary.json`.

use sctpsim_engine::scenario::overrides::value_from_cli;
use sctpsim_engine::{load, RunOptions, Simulation};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut file, mut sets, mut repeat) = (None, Vec::new(), 3usize);
    let mut summary_out: Option<String> = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--set" => {
                let Some((p, v)) = args.next().and_then(|kv| {
                    kv.split_once('=')
                        .map(|(p, v)| (p.to_string(), value_from_cli(v)))
                }) else {
                    eprintln!("--set needs path=value");
                    return ExitCode::from(2);
                };
                sets.push((p, v));
            }
            "--repeat" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) if n > 0 => repeat = n,
                _ => {
                    eprintln!("--repeat needs a positive count");
                    return ExitCode::from(2);
                }
            },
            "--summary" => summary_out = args.next(),
            _ => file = Some(a),
        }
    }
    let Some(file) = file else {
        eprintln!("usage: time_scenario FILE [--set path=value]... [--repeat N]");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{file}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut walls = Vec::new();
    for k in 0..repeat {
        let sc = match load(&text, &sets) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        let opts = RunOptions::default();
        let Ok(sim) = Simulation::new(sc, None, &opts) else {
            eprintln!("building failed");
            return ExitCode::from(1);
        };
        let t = Instant::now();
        let Ok(r) = sim.run(&opts, &mut |_| true) else {
            eprintln!("run failed");
            return ExitCode::from(1);
        };
        let wall = t.elapsed().as_secs_f64();
        walls.push(wall);
        println!("run={k} events={} wall_s={wall:.3}", r.summary.events);
        if let Some(out) = &summary_out {
            let json = serde_json::to_string_pretty(&r.summary).unwrap_or_default();
            if let Err(e) = std::fs::write(out, json) {
                eprintln!("{out}: {e}");
                return ExitCode::from(1);
            }
        }
    }
    walls.sort_by(f64::total_cmp);
    println!("median_wall_s={:.3}", walls[walls.len() / 2]);
    ExitCode::SUCCESS
}
