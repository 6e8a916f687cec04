//! Helpers shared by the benchmarks.

// Each benchmark is its own crate and uses only some of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Instant;

/// Items a second done by `run` (which returns how many it did): the best of three
/// runs, the one least disturbed by the rest of the machine.
pub fn best_rate(mut run: impl FnMut() -> u64) -> f64 {
    (0..3)
        .map(|_| {
            let clock = Instant::now();
            let done = run();
            done as f64 / clock.elapsed().as_secs_f64()
        })
        .fold(0.0, f64::max)
}

/// [`best_rate`] of each of `runs`, taken in turns (each round runs every one, in an
/// order rotated each round), so that the machine's slow and fast spells fall on all of
/// them alike: ratios between them hold better than between runs timed one after the
/// other.
pub fn best_rates(runs: &mut [&mut dyn FnMut() -> u64]) -> Vec<f64> {
    let mut best = vec![0.0f64; runs.len()];
    for round in 0..3 {
        for i in 0..runs.len() {
            let which = (i + round) % runs.len();
            let clock = Instant::now();
            let done = runs[which]();
            best[which] = best[which].max(done as f64 / clock.elapsed().as_secs_f64());
        }
    }
    best
}

/// Every `.zrf` and `.inc` file below `dir`.
pub fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "zrf" || e == "inc") {
            out.push(path);
        }
    }
}
