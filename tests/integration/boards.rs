//! Pictures of positions: text boards and SVG drawings of a chess position, a hex
//! board (offset grid), a shogi-like board with pieces in hand, and a board given by
//! explicit positions, snapshotted.

use std::path::Path;

use zrf_runtime::Game;
use zrf_search::board::{svg_board, text_board};

fn pictures(file: &str, after: &[&str]) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let engine = zrf::build::Config::new()
        .quiet(true)
        .select(zrf::build::Selection::First)
        .interpret(&path)
        .unwrap_or_else(|e| panic!("{e}"));
    let state = crate::perft::after(&engine, after);
    let to_move = engine.to_move(&state);
    format!(
        "{}\n{}",
        text_board(&engine.tables, &state, to_move),
        svg_board(&engine.tables, &state, to_move)
    )
}

#[test]
fn chess_after_two_moves() {
    let shown = pictures("zrf-samples/chess.zrf", &["Pawn e2 - e4", "Pawn d7 - d5"]);
    crate::snapshot_settings().bind(|| insta::assert_snapshot!("board_chess", shown));
}

#[test]
fn hex_board_rows_are_offset() {
    let shown = pictures("tests/fixtures/boards/hex.zrf", &[]);
    assert!(shown.starts_with("1 .   .   .   .\n2   .   S"), "{shown}");
    crate::snapshot_settings().bind(|| insta::assert_snapshot!("board_hex", shown));
}

#[test]
fn pieces_in_hand_are_listed_beside_the_board() {
    let shown = pictures("tests/fixtures/boards/hands.zrf", &[]);
    assert!(shown.contains("off the board, Sente: Pawn ×2\n"), "{shown}");
    assert!(shown.contains(">Gote: Pawn ×1</text>"), "{shown}");
    crate::snapshot_settings().bind(|| insta::assert_snapshot!("board_hands", shown));
}

#[test]
fn explicit_positions_are_drawn_where_the_rules_put_them() {
    let shown = pictures("tests/fixtures/boards/positions.zrf", &[]);
    assert!(
        shown.contains(r#"data-pos="centre" x="40" y="45" width="40" height="40""#),
        "{shown}"
    );
    crate::snapshot_settings().bind(|| insta::assert_snapshot!("board_positions", shown));
}
