//! Replay speed: random games of the chess sample written as saved games, read and
//! replayed record by record, against playing the same moves (the legal moves listed
//! and the chosen one played, the least a replay must do) in the same run; the closing
//! line prints the replay's cost as a multiple of that.

mod common;

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use zrf::build::{Config, Selection};
use zrf::interp::Interpreted;
use zrf::source::SourceMap;
use zrf_runtime::{Move, SplitMix64};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A random game's moves (as indices into each position's legal moves) and its saved
/// game text.
struct Recorded {
    choices: Vec<usize>,
    saved_game: String,
}

fn random_games(engine: &Interpreted, games: u64, max_plies: usize) -> Vec<Recorded> {
    (0..games)
        .map(|seed| {
            let mut rng = SplitMix64::new(seed + 1);
            let mut state = engine.start();
            let (mut choices, mut records) = (Vec::new(), Vec::new());
            for _ in 0..max_plies {
                let moves: Vec<Move> = engine.legal_moves(&state);
                if moves.is_empty() || engine.outcome(&state, &moves).is_some() {
                    break;
                }
                let choice = rng.below(moves.len());
                records.extend(zrf_runtime::turn_records(
                    &engine.tables,
                    &state,
                    &moves[choice],
                ));
                state = engine.play(&state, &moves[choice]);
                choices.push(choice);
            }
            let saved_game =
                zrf_runtime::saved_game(&engine.tables, "chess.zrf", &[true, false], &records);
            Recorded {
                choices,
                saved_game,
            }
        })
        .collect()
}

fn replay_all(engine: &Interpreted, games: &[Recorded]) -> usize {
    let players = engine.tables.player_names();
    let mut replayed = 0;
    for game in games {
        let mut sources = SourceMap::new();
        let file = sources.add("game.zsg", game.saved_game.clone().into_bytes());
        let records = zrf::zsg::records(file, sources.file(file), Some(&players));
        let report =
            zrf::zsg::replay_records(engine, records.filter_map(Result::ok), game.choices.len());
        assert!(report.divergence.is_none());
        replayed += report.replayed;
    }
    replayed
}

fn play_all(engine: &Interpreted, games: &[Recorded]) -> usize {
    let mut played = 0;
    for game in games {
        let mut state = engine.start();
        for &choice in &game.choices {
            let moves = engine.legal_moves(&state);
            state = engine.play(&state, &moves[choice]);
            played += 1;
        }
    }
    played
}

fn replay(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("zrf-samples/chess.zrf");
    let engine = Config::new()
        .quiet(true)
        .select(Selection::First)
        .interpret(&path)
        .unwrap_or_else(|e| panic!("{e}"));
    let games = random_games(&engine, 20, 300);
    let plies: usize = games.iter().map(|g| g.choices.len()).sum();
    let mut group = c.benchmark_group("replay");
    group.sample_size(10);
    group.throughput(Throughput::Elements(plies as u64));
    group.bench_function(format!("20 random chess games, {plies} records"), |b| {
        b.iter(|| replay_all(&engine, &games))
    });
    group.bench_function(format!("the same {plies} moves played"), |b| {
        b.iter(|| play_all(&engine, &games))
    });
    group.finish();
    let replayed = common::best_rate(|| replay_all(&engine, &games) as u64);
    let played = common::best_rate(|| play_all(&engine, &games) as u64);
    println!(
        "replay: {replayed:.0} records/s; playing the same moves {played:.0}/s; replay costs {:.2}x playing",
        played / replayed
    );
}

criterion_group!(benches, replay);
criterion_main!(benches);
