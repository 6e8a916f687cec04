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

/// Items a second done by each of `runs` (which return how many they did) in each of
/// `rounds` rounds, taken in turns (each round runs every one, in an order rotated each
/// round), so that the machine's slow and fast spells fall on all of them alike.
pub fn rates_by_round(runs: &mut [&mut dyn FnMut() -> u64], rounds: usize) -> Vec<Vec<f64>> {
    (0..rounds)
        .map(|round| {
            let mut rates = vec![0.0; runs.len()];
            for i in 0..runs.len() {
                let which = (i + round) % runs.len();
                let clock = Instant::now();
                let done = runs[which]();
                rates[which] = done as f64 / clock.elapsed().as_secs_f64();
            }
            rates
        })
        .collect()
}

/// The best rate of run `which` over the rounds of [`rates_by_round`].
pub fn best_of(rounds: &[Vec<f64>], which: usize) -> f64 {
    rounds.iter().map(|rates| rates[which]).fold(0.0, f64::max)
}

/// The median over the rounds of [`rates_by_round`] of the rate of run `a` over that of
/// run `b` in the same round: on a machine whose speed wanders by tens of percent, a
/// steadier ratio than that of the best rates.
pub fn median_ratio(rounds: &[Vec<f64>], a: usize, b: usize) -> f64 {
    let mut ratios: Vec<f64> = rounds.iter().map(|rates| rates[a] / rates[b]).collect();
    ratios.sort_by(f64::total_cmp);
    match ratios.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => ratios[n / 2],
        n => (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0,
    }
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
