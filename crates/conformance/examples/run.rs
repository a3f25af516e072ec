//! Runs packetdrill scripts without Python: `cargo run -p sctpsim-conformance --example run --
//! [-v] [-D SYMBOL]... FILE...`. One line per script; `-v` prints the traces.
//! (The user-facing command is `sctpsim conformance`, which also handles `.exfail` files.)

use sctpsim_conformance::{run_script, RunOptions};

fn main() {
    let mut opts = RunOptions::default();
    let mut verbose = false;
    let mut files = Vec::new();
    let mut defines = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "-v" => verbose = true,
            "-D" => defines.extend(args.next()),
            _ => files.push(a),
        }
    }
    if !defines.is_empty() {
        opts.defines = defines;
    }
    let (mut passed, mut failed) = (0, 0);
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                println!("FAIL {f}: cannot read: {e}");
                failed += 1;
                continue;
            }
        };
        let out = run_script(&text, f, &opts);
        if out.passed {
            passed += 1;
            println!("PASS {f}");
            if verbose {
                for t in &out.trace {
                    println!("    {t}");
                }
            }
        } else {
            failed += 1;
            let line = out.line.map(|l| format!(":{l}")).unwrap_or_default();
            println!("FAIL {f}{line}: {}", out.reason);
            if verbose {
                for t in &out.trace {
                    println!("    {t}");
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
}
