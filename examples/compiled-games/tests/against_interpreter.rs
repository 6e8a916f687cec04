//! The compiled samples against the reference interpreter: same tables, same perft counts,
//! same seeded random games move for move. The two share every rule primitive (the
//! runtime); these tests catch a code generator that calls them differently.

use std::path::Path;

use zrf::interp;
use zrf_example_games::{breakthrough, checkers, chess, flags, hopdrop, hostile, tictactoe};
use zrf_runtime::{Engine, Game, Templates};

/// The interpreter on a sample (or, with a `/`, a file of this crate).
fn interpreted(sample: &str) -> interp::Interpreted {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = if sample.contains('/') {
        here.join(sample)
    } else {
        here.join("../../zrf-samples").join(sample)
    };
    zrf::build::Config::new()
        .quiet(true)
        .select(zrf::build::Selection::First)
        .interpret(&path)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn perft_counts<G: Game>(game: &G, budget: u64) -> Vec<u64> {
    let start = game.start();
    let mut counts = Vec::new();
    for depth in 1.. {
        let count = zrf_search::perft(game, &start, depth);
        counts.push(count);
        if count == 0 || count > budget || depth == 12 {
            break;
        }
    }
    counts
}

/// Asserts that the compiled engine and the interpreter agree, and returns the perft
/// counts for the caller to check against known values.
fn agree<T: Templates>(sample: &str, compiled: Engine<T>, budget: u64) -> Vec<u64> {
    let reference = interpreted(sample);
    assert_eq!(
        format!("{:?}", compiled.tables),
        format!("{:?}", reference.tables),
        "{sample}: tables"
    );
    let counts = perft_counts(&compiled, budget);
    assert_eq!(counts, perft_counts(&reference, budget), "{sample}: perft");
    for seed in 1..=8 {
        let ours = zrf_search::playout(&compiled, seed, 300, |_| true);
        let theirs = zrf_search::playout(&reference, seed, 300, |_| true);
        assert_eq!(ours, theirs, "{sample}: playout with seed {seed}");
    }
    counts
}

#[test]
fn chess_agrees_with_the_interpreter() {
    assert_eq!(agree("chess.zrf", chess::engine(), 5_000), [20, 400, 8902]);
}

#[test]
fn checkers_agrees_with_the_interpreter() {
    assert_eq!(
        agree("checkers.zrf", checkers::engine(), 10_000),
        [7, 49, 302, 1469, 7361, 36768]
    );
}

#[test]
fn breakthrough_agrees_with_the_interpreter() {
    assert_eq!(
        agree("breakthrough.zrf", breakthrough::engine(), 10_000),
        [22, 484, 11132]
    );
}

#[test]
fn tictactoe_agrees_with_the_interpreter() {
    assert_eq!(
        agree("tictactoe.zrf", tictactoe::engine(), 100_000),
        [9, 72, 504, 3024, 15120, 54720, 148_176]
    );
}

#[test]
fn hopdrop_agrees_with_the_interpreter() {
    // Partial moves, drops and attributes: the counts themselves are the interpreter's.
    let counts = agree("hopdrop.zrf", hopdrop::engine(), 10_000);
    assert!(counts.len() >= 3, "{counts:?}");
}

#[test]
fn values_the_run_works_out_compile_and_play_like_the_interpreter() {
    // `run.set_flag(.., run.in_zone(..))` and the like: one borrow of the run inside
    // another, which must compile.
    assert_eq!(
        agree("games/flags.zrf", flags::engine(), 5_000),
        [4, 24, 105, 523, 2045, 8607]
    );
}

#[test]
fn generated_names_follow_the_rules_file() {
    assert_eq!(chess::TITLE, "Chess");
    assert_eq!(chess::kind::KING, 5);
    assert_eq!(chess::pos::A1, 56);
    let tables = chess::tables();
    assert_eq!(tables.positions[chess::pos::E1 as usize], "e1");
}

#[test]
fn hostile_names_compile_and_play_like_the_interpreter() {
    assert_eq!(
        agree("games/hostile.zrf", hostile::engine(), 1_000),
        [4, 16, 75, 278, 1236]
    );
    // Strings come through unchanged, whatever they hold.
    assert_eq!(hostile::TITLE, "Hostile \\ */ # {} ' r#fn ü \\");
    let tables = hostile::tables();
    assert_eq!(
        tables.pieces[hostile::kind::DRUNK_ELEPHANT as usize].name,
        "Drunk-Elephant!"
    );
    assert_eq!(tables.directions[hostile::dir::FN as usize], "fn");
    assert_eq!(tables.directions[hostile::dir::R_TYPE as usize], "r#type");
    assert_eq!(tables.directions[hostile::dir::N_2 as usize], "#2");
    assert_eq!(tables.players[hostile::player::SELF as usize].name, "self");
}
