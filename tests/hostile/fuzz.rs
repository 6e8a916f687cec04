//! A bounded fuzzer over `check`, `moves` and `replay`, run in-process with proptest:
//! rules files mutated byte-wise from seeds (the bundled samples, and the corpus files
//! when `ZRF_FUZZ_CORPUS` names the corpus folder, as CI does) are checked; each game
//! that lowers lists its moves, plays a few random turns, and a saved game of them,
//! mutated too, is replayed. Nothing may panic; `ZRF_FUZZ_CASES` sets the number of
//! cases (64 by default).

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use zrf::frontend::{self, FrontEndOptions};
use zrf::source::SourceMap;
use zrf::syntax::MemoryLoader;
use zrf_runtime::SplitMix64;

use crate::mutate::{edits, mutate, Edit};

/// The seeds: the samples, and the corpus's `.zrf` files when it is there.
fn seeds() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = ["tictactoe", "breakthrough", "checkers", "chess", "hopdrop"]
        .iter()
        .map(|name| root.join("zrf-samples").join(format!("{name}.zrf")))
        .collect();
    if let Some(corpus) = std::env::var_os("ZRF_FUZZ_CORPUS") {
        let mut pending = vec![root.join(corpus)];
        while let Some(dir) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for path in entries.flatten().map(|e| e.path()) {
                if path.is_dir() {
                    pending.push(path);
                } else if path.extension().is_some_and(|e| e == "zrf") {
                    files.push(path);
                }
            }
        }
        files.sort();
    }
    files.iter().filter_map(|f| std::fs::read(f).ok()).collect()
}

/// Check, moves and replay of one mutated rules file (and of a mutated saved game).
fn exercise(rules: &[u8], zsg_edits: &[Edit], seed: u64) {
    let mut loader = MemoryLoader::new();
    loader.insert("f.zrf", rules.to_vec());
    let mut options = FrontEndOptions::default();
    options.expand.max_nodes = 200_000;
    let mut sources = SourceMap::new();
    let Ok(result) = frontend::run(Path::new("f.zrf"), &loader, &options, &mut sources) else {
        return;
    };
    let _ = zrf::diag::render_plain(&sources, &result.diagnostics);
    for game in result.games.into_iter().filter_map(|g| g.game).take(2) {
        let Ok(engine) = zrf::interp::engine(game) else {
            continue;
        };
        // moves: the start, then a few random turns, each written down.
        let mut rng = SplitMix64::new(seed);
        let mut state = engine.start();
        let mut played = Vec::new();
        for _ in 0..6 {
            let moves = engine.legal_moves(&state);
            if moves.is_empty() || engine.outcome(&state, &moves).is_some() {
                break;
            }
            let mv = &moves[rng.below(moves.len())];
            played.extend(zrf_runtime::turn_records(&engine.tables, &state, mv));
            state = engine.play(&state, mv);
        }
        // replay: the saved game of those turns, mutated.
        let text = zrf_runtime::saved_game(&engine.tables, "f.zrf", &[], &played);
        let mangled = mutate(text.into_bytes(), zsg_edits);
        let mut zsg_sources = SourceMap::new();
        let file = zsg_sources.add("g.zsg", mangled);
        let names = engine.tables.player_names();
        if let (Some(saved), _) = zrf::zsg::parse(file, zsg_sources.file(file), Some(&names)) {
            let _ = zrf::zsg::replay(&engine, &saved);
        }
    }
}

#[test]
fn mutated_rules_and_saved_games_never_panic() {
    let seeds = seeds();
    let cases = std::env::var("ZRF_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        prop::sample::select(seeds),
        edits(0..8),
        edits(0..8),
        any::<u64>(),
    );
    runner
        .run(&strategy, |(seed_file, rules_edits, zsg_edits, seed)| {
            let rules = mutate(seed_file, &rules_edits);
            exercise(&rules, &zsg_edits, seed);
            Ok(())
        })
        .unwrap_or_else(|failure| panic!("{failure}"));
}
