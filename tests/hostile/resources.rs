//! Files that ask for more memory, time or stack than a rules file may.

use super::{folder, game, zrfc};

/// Issue 28 item 1: a grid whose dimensions multiply past the limit, or past any
/// number (64 dimensions of 8 wrap a `u64` to 0).
#[test]
fn grids_too_large_to_hold_are_refused() {
    for dimensions in [8, 20, 64] {
        let dims = vec!["(\"a/b/c/d/e/f/g/h\" (1 0))"; dimensions].join(" ");
        let text = format!(
            "(game (title \"Big\") (players A B) (turn-order A B)\n\
             (board (grid (dimensions {dims}))) (piece (name P)))"
        );
        let dir = folder(&[("big.zrf", &text)]);
        for command in ["check", "moves"] {
            let ran = zrfc(dir.path(), &[command, "big.zrf"]);
            if command == "check" {
                ran.expect(1, "error[E0407]: the game has too many positions");
            } else {
                assert_eq!(ran.code, Some(1), "{}", ran.stderr_head());
            }
        }
    }
}

/// Issue 28 item 9: more players than a `u8` numbers (P256 would move P0's pieces).
#[test]
fn more_players_than_the_runtime_numbers_are_refused() {
    let players: Vec<String> = (0..257).map(|i| format!("P{i}")).collect();
    let text = format!(
        "(game (title \"Crowd\") (players {all}) (turn-order {all})\n\
         (board (grid (dimensions (\"a/b\" (1 0)) (\"1/2\" (0 1)))))\n\
         (piece (name Man)))",
        all = players.join(" ")
    );
    let dir = folder(&[("crowd.zrf", &text)]);
    let ran = zrfc(dir.path(), &["check", "crowd.zrf"]);
    ran.expect(1, "error[E0407]: the game has too many players");
    assert!(ran
        .stderr
        .contains("257 players; at most 256 are supported"));
    let built = zrfc(dir.path(), &["build", "crowd.zrf", "-o", "out"]);
    built.expect(1, "E0407");
    assert!(!dir.path().join("out").exists());
}

/// Issue 28 item 11: a macro depth limit past what the stack holds is a usage error,
/// not a stack overflow.
#[test]
fn a_macro_depth_limit_past_the_ceiling_is_a_usage_error() {
    let dir = folder(&[("game.zrf", &game(""))]);
    let ran = zrfc(
        dir.path(),
        &["check", "game.zrf", "--macro-depth-limit", "100000"],
    );
    ran.expect(2, "--macro-depth-limit");
}
