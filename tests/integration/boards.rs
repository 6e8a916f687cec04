//! Pictures of positions: text boards and SVG drawings of a chess position, a hex
//! board (offset grid), a shogi-like board with pieces in hand, and a board given by
//! explicit positions, snapshotted.

use std::path::Path;

use zrf_play::board::{move_squares, svg_board, text_board, SvgOptions};
use zrf_play::move_text::{read_move, Reading};
use zrf_runtime::Game;

fn pictures(file: &str, after: &[&str]) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let engine = zrf::build::Config::new()
        .quiet(true)
        .select(zrf::build::Selection::First)
        .interpret(&path)
        .unwrap_or_else(|e| panic!("{e}"));
    let before_last = crate::perft::after(&engine, &after[..after.len().saturating_sub(1)]);
    let last_move = after.last().map_or(Vec::new(), |text| {
        let moves = engine.legal_moves(&before_last);
        match read_move(&engine, &before_last, &moves, text) {
            Reading::Move(i) => move_squares(&moves[i]),
            other => panic!("{text}: {other:?}"),
        }
    });
    let state = crate::perft::after(&engine, after);
    let to_move = engine.to_move(&state);
    let options = SvgOptions {
        last_move,
        zones: true,
    };
    format!(
        "{}\n{}",
        text_board(&engine.tables, &state, to_move),
        svg_board(&engine.tables, &state, to_move, &options)
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

/// Hands kept on the grid (outside the `board-zone`) are drawn apart: a blank column
/// in text, trays half a cell away in the drawing, neither chequered nor labelled.
#[test]
fn hands_on_the_grid_are_drawn_apart_from_the_board() {
    let shown = pictures("tests/fixtures/boards/grid-hands.zrf", &[]);
    assert!(
        shown.starts_with("3 .   . ♚ .   ♜\n2 .   . . .   .\n1 ♖   . ♔ .   .\n      a b c\n"),
        "{shown}"
    );
    // The left hand moved 20 (half a cell) to the left, the right hand to the right.
    assert!(
        shown.contains(r##"class="square hand" data-pos="l3" x="-20" y="0" width="40" height="40" fill="#e8dcc4""##),
        "{shown}"
    );
    assert!(
        shown.contains(r##"class="square hand" data-pos="r3" x="180" y="0""##),
        "{shown}"
    );
    // The board proper is still chequered, a dark a1 (and a3).
    assert!(
        shown.contains(
            r##"class="square" data-pos="a3" x="40" y="0" width="40" height="40" fill="#b58863""##
        ),
        "{shown}"
    );
    assert!(
        shown.contains(
            r##"class="square" data-pos="b3" x="80" y="0" width="40" height="40" fill="#f0d9b5""##
        ),
        "{shown}"
    );
    assert!(!shown.contains(r#"class="file" x="0""#), "{shown}");
    crate::snapshot_settings().bind(|| insta::assert_snapshot!("board_grid_hands", shown));
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

/// Ranks that two grids share label no row; pieces named by numbers get letters (a
/// digit would read as a count); players named by colours get those colours.
#[test]
fn repeated_ranks_are_left_out_and_numbered_pieces_get_letters() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/boards/two-grids.zrf");
    let engine = zrf::build::Config::new()
        .quiet(true)
        .interpret(&path)
        .unwrap_or_else(|e| panic!("{e}"));
    let start = engine.start();
    assert_eq!(
        text_board(&engine.tables, &start, 0),
        ". a\nP .\nA .\n. .\nkey: P P1, A P2 (Green in capitals, Red in small letters)\nGreen to move\n"
    );
    let svg = svg_board(&engine.tables, &start, 0, &SvgOptions::default());
    assert!(!svg.contains(r#"class="rank""#), "{svg}");
    assert!(
        svg.contains(r##"<circle cx="20" cy="60" r="16.0" fill="#37a837""##),
        "{svg}"
    );
    assert!(
        svg.contains(r##"<circle cx="60" cy="20" r="16.0" fill="#c83737""##),
        "{svg}"
    );
    assert!(!svg.contains("last-move"), "{svg}");
    // The zones are in the drawing, hidden until asked for.
    assert!(
        svg.contains("<g class=\"zones\" visibility=\"hidden\">\n<rect class=\"zone\""),
        "{svg}"
    );
    let shown = svg_board(
        &engine.tables,
        &start,
        0,
        &SvgOptions {
            last_move: vec![0],
            zones: true,
        },
    );
    assert!(
        shown.contains("<g class=\"zones\">\n<rect class=\"zone\""),
        "{shown}"
    );
    assert_eq!(shown.matches("class=\"last-move\"").count(), 1, "{shown}");
}
