//! Search speed, printed as a table with shakmaty (a hand-written chess move generator)
//! measured in the same run as the ceiling: alpha-beta from the start of chess (depth 9,
//! one thread, repeated for two seconds: the mean time and nodes per second), random
//! playouts per second (games of at most 1,000 turns), for the compiled chess sample,
//! the interpreter on the same rules, and, with `ZRF_BENCH_CORPUS=../shared/corpus`,
//! the compiled corpus games of `benches/perft.rs` (chess.zrf, English checkers).
//!
//! `cargo bench --bench search` (about a minute).

use std::path::Path;
use std::time::Instant;

use shakmaty::{Chess, Position};
use zrf::build::{Config, Selection};
use zrf_play::driver::{measure_playouts, measure_search, PlayoutSpeed};
use zrf_search::{Iteration, Limits, SplitMix64};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const PLAYOUT_SECONDS: f64 = 3.0;
const DEPTH: u32 = 9;
const SEARCH_SECONDS: f64 = 2.0;

/// Random chess games with shakmaty, ended as its rules end them (mate, stalemate,
/// insufficient material) or at 1,000 plies.
fn shakmaty_playouts(seconds: f64) -> PlayoutSpeed {
    let clock = Instant::now();
    let (mut games, mut plies) = (0u64, 0u64);
    while games == 0 || clock.elapsed().as_secs_f64() < seconds {
        games += 1;
        let mut rng = SplitMix64::new(games);
        let mut position = Chess::default();
        for _ in 0..1000 {
            if position.is_game_over() {
                break;
            }
            let moves = position.legal_moves();
            position.play_unchecked(moves[rng.below(moves.len())]);
            plies += 1;
        }
    }
    PlayoutSpeed {
        games,
        plies,
        seconds: clock.elapsed().as_secs_f64(),
    }
}

fn playout_row(name: &str, speed: &PlayoutSpeed, ceiling: &PlayoutSpeed) -> String {
    let plies_per_second = speed.plies as f64 / speed.seconds;
    let ceiling_plies = ceiling.plies as f64 / ceiling.seconds;
    format!(
        "{name:<40} {:>10.0} games/s {:>11.0} plies/s (mean {:>5.1} plies)  {:.3} of shakmaty's plies/s",
        speed.games_per_second(),
        plies_per_second,
        speed.plies as f64 / speed.games as f64,
        plies_per_second / ceiling_plies
    )
}

/// The same search, each time with a fresh table, repeated until [`SEARCH_SECONDS`]
/// have passed: one search from the start takes a tenth of a second, too short to time
/// alone. The last search's result, with the searches made and the mean of their own
/// times (without making their tables). A first search is not counted: it pays for
/// the first touch of the table's memory, which a playing engine pays once a game.
fn repeated_search(search: impl Fn() -> Option<Iteration>) -> Option<(Iteration, u32, f64)> {
    search()?;
    let clock = Instant::now();
    let (mut searches, mut searching) = (0, 0.0);
    loop {
        let found = search()?;
        searches += 1;
        searching += found.elapsed.as_secs_f64();
        if clock.elapsed().as_secs_f64() >= SEARCH_SECONDS {
            return Some((found, searches, searching / f64::from(searches)));
        }
    }
}

fn search_row(name: &str, reached: Option<(Iteration, u32, f64)>) -> String {
    match reached {
        Some((it, searches, seconds)) => format!(
            "{name:<40} depth {} in {:>6.3} s (mean of {searches:>2}), {:>9} nodes, {:>9.0} nodes/s, best {}",
            it.depth,
            seconds,
            it.nodes,
            it.nodes as f64 / seconds.max(1e-9),
            it.pv.first().map_or("-", String::as_str)
        ),
        None => format!("{name:<40} the game is over at the start"),
    }
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument is a filter this harness does
    // not offer, so it runs everything.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut lines = Vec::new();

    let shakmaty = shakmaty_playouts(PLAYOUT_SECONDS);
    lines.push(format!(
        "{:<40} {:>10.0} games/s {:>11.0} plies/s (mean {:>5.1} plies)",
        "shakmaty random chess",
        shakmaty.games_per_second(),
        shakmaty.plies as f64 / shakmaty.seconds,
        shakmaty.plies as f64 / shakmaty.games as f64
    ));

    let compiled = zrf_example_games::chess::engine();
    let speed = measure_playouts(&compiled, PLAYOUT_SECONDS);
    lines.push(playout_row(
        "compiled chess sample playouts",
        &speed,
        &shakmaty,
    ));
    lines.push(search_row(
        "compiled chess sample alpha-beta",
        repeated_search(|| measure_search(&compiled, Limits::depth(DEPTH))),
    ));
    let interpreted = Config::new()
        .quiet(true)
        .select(Selection::First)
        .interpret(&root.join("zrf-samples/chess.zrf"));
    if let Ok(interpreted) = interpreted {
        let speed = measure_playouts(&interpreted, PLAYOUT_SECONDS);
        lines.push(playout_row(
            "interpreted chess sample playouts",
            &speed,
            &shakmaty,
        ));
        lines.push(search_row(
            "interpreted chess sample alpha-beta",
            repeated_search(|| measure_search(&interpreted, Limits::depth(DEPTH - 2))),
        ));
    }
    for game in zrf_example_games::corpus::GAMES {
        let name = format!("compiled {}", game.title);
        lines.push(playout_row(
            &format!("{name} playouts"),
            &(game.playouts)(PLAYOUT_SECONDS),
            &shakmaty,
        ));
        lines.push(search_row(
            &format!("{name} alpha-beta"),
            repeated_search(|| (game.search)(Limits::depth(DEPTH))),
        ));
    }
    if zrf_example_games::corpus::GAMES.is_empty() {
        lines.push(
            "(set ZRF_BENCH_CORPUS=../shared/corpus to measure the compiled corpus games)".into(),
        );
    }
    for line in lines {
        println!("{line}");
    }
}
