//! Move generation of the reference interpreter, checked by perft on the bundled samples
//! against published counts (no ../shared needed). Corpus rows run in .ci/run.

use std::path::Path;

use zrf::frontend::{self, FrontEndOptions};
use zrf::interp;
use zrf::source::SourceMap;
use zrf::syntax::FsLoader;
use zrf_runtime::Game;

fn engine(sample: &str) -> interp::Interpreted {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("zrf-samples")
        .join(sample);
    let mut sources = SourceMap::new();
    let result = frontend::run(&path, &FsLoader, &FrontEndOptions::default(), &mut sources)
        .unwrap_or_else(|e| panic!("{e}"));
    let game = result.games.into_iter().next().and_then(|g| g.game);
    interp::engine(game.unwrap_or_else(|| panic!("{sample} should lower")))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn counts(sample: &str, depth: u32) -> Vec<u64> {
    let engine = engine(sample);
    let start = engine.start();
    (1..=depth)
        .map(|d| zrf_search::perft(&engine, &start, d))
        .collect()
}

#[test]
fn english_checkers_matches_published_perft() {
    // Aart Bik's counts (duplicate capture paths kept, as a ZRF engine generates them).
    // Deeper rows (to 11) run in release in .ci/run on the corpus file.
    assert_eq!(counts("checkers.zrf", 6), [7, 49, 302, 1469, 7361, 36768]);
}

#[test]
fn breakthrough_matches_published_perft() {
    assert_eq!(counts("breakthrough.zrf", 4), [22, 484, 11132, 256036]);
}

#[test]
fn tictactoe_counts_every_game_once() {
    // 9!/(9-d)! until wins end games from ply 5; 127,872 games last all nine plies.
    assert_eq!(
        counts("tictactoe.zrf", 9),
        [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    );
}

#[test]
fn moves_are_listed_in_saved_game_notation() {
    let engine = engine("checkers.zrf");
    let start = engine.start();
    let moves: Vec<String> = engine
        .legal_moves(&start)
        .iter()
        .map(|m| engine.notation(&start, m))
        .collect();
    assert_eq!(
        moves,
        [
            "Man a3 - b4",
            "Man c3 - d4",
            "Man c3 - b4",
            "Man e3 - f4",
            "Man e3 - d4",
            "Man g3 - h4",
            "Man g3 - f4",
        ]
    );
}

#[test]
fn a_capture_chain_is_one_turn_and_captures_are_compulsory() {
    let engine = engine("checkers.zrf");
    let mut state = engine.start();
    for wanted in ["Man c3 - d4", "Man f6 - g5", "Man d4 - e5"] {
        let moves = engine.legal_moves(&state);
        let mv = moves
            .iter()
            .find(|m| engine.notation(&state, m) == wanted)
            .unwrap_or_else(|| panic!("{wanted} should be legal"));
        state = engine.play(&state, mv);
    }
    // White must capture: only the jump over e5 is legal.
    let moves: Vec<String> = engine
        .legal_moves(&state)
        .iter()
        .map(|m| engine.notation(&state, m))
        .collect();
    assert_eq!(moves, ["Man d6 - f4 x e5"]);
    // A double jump is one turn of two steps, written as two parts.
    let mut state = engine.start();
    for wanted in [
        "Man a3 - b4",
        "Man b6 - a5",
        "Man e3 - f4",
        "Man d6 - e5",
        "Man f4 - d6 x e5",
    ] {
        let moves = engine.legal_moves(&state);
        let mv = moves
            .iter()
            .find(|m| engine.notation(&state, m) == wanted)
            .unwrap_or_else(|| panic!("{wanted} should be legal"));
        state = engine.play(&state, mv);
    }
    let moves = engine.legal_moves(&state);
    let written: Vec<String> = moves.iter().map(|m| engine.notation(&state, m)).collect();
    assert_eq!(
        written,
        ["Man c7 - e5 x d6", "Man e7 - c5 x d6; Man c5 - a3 x b4"]
    );
    assert_eq!(moves[1].steps.len(), 2);
}
