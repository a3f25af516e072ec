//! `cargo bench -p sctpsim-kernel --bench hold`: the classic hold model. Each popped event
//! schedules one more at now + Exp(mean 100 ns), keeping the number pending constant.
use sctpsim_kernel::{EventQueue, Rng, SimDuration, SimTime};
use std::time::Instant;

fn main() {
    for pending in [1_000usize, 100_000, 1_000_000] {
        let mut rng = Rng::from_seed(1);
        let mut q = EventQueue::with_capacity(pending + 1);
        for i in 0..pending {
            q.push(
                SimTime(0) + SimDuration::from_secs_f64(rng.exp(100e-9)),
                i as u32,
            );
        }
        let events = 20_000_000u64;
        let t0 = Instant::now();
        for _ in 0..events {
            let (now, id) = q.pop().expect("hold model never empties");
            q.push(now + SimDuration((rng.exp(100.0)) as u64), id);
        }
        let s = t0.elapsed().as_secs_f64();
        println!(
            "pending={pending} events={events} seconds={s:.3} events_per_s={:.0}",
            events as f64 / s
        );
    }
}
