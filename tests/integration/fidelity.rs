//! Behaviours where Zillions' choice is decided in docs/semantics.md, each on a small
//! rules file written for it (`tests/fixtures/fidelity/`).

use std::process::Command;

/// `zrfc ARGS...` in the project folder: exit code, stdout lines, stderr.
fn zrfc(args: &[&str]) -> (Option<i32>, Vec<String>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_zrfc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap_or_else(|e| panic!("cannot run zrfc: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    (
        out.status.code(),
        stdout.lines().map(str::to_string).collect(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn fixture(name: &str) -> String {
    format!("tests/fixtures/fidelity/{name}")
}

/// The legal moves at the start (after `after`), which must be listed without error.
fn moves(name: &str, after: &[&str]) -> Vec<String> {
    let file = fixture(name);
    let mut args = vec!["moves", file.as_str()];
    if !after.is_empty() {
        args.push("--after");
        args.extend_from_slice(after);
    }
    let (code, lines, stderr) = zrfc(&args);
    assert_eq!(code, Some(0), "{stderr}");
    lines
}

#[test]
fn a_negated_predicate_looking_off_the_board_is_true() {
    assert_eq!(
        moves("negated_off_board.zrf", &[]),
        ["Stone a1 - b1", "Stone d1 - e1"]
    );
}

#[test]
fn off_the_board_empty_and_not_empty_are_both_false() {
    // Before: `not-empty?` was the negation of `empty?`, true off the board, which
    // added `Stone a1 - b1` and `White Chip a3`.
    assert_eq!(
        moves("off_board_tests.zrf", &[]),
        [
            "Stone a2 - b2",
            "White Chip b2",
            "White Chip b1",
            "White Ring b3",
            "White Ring c3",
            "White Ring b2",
            "White Ring c2",
            "White Ring b1",
            "White Ring c1",
            "White Disc b3",
            "White Disc c3",
            "White Disc b2",
            "White Disc c2",
        ]
    );
}

#[test]
fn not_in_absolute_config_is_about_the_goal_players_own_pieces() {
    // Black's goal: a1 holds no Black King. White's King stands there, so it holds
    // once goals are tested, after White's first turn.
    assert_eq!(
        moves("absolute_config_not.zrf", &["Stone b1 - c1"]),
        ["game over: Black wins"]
    );
    let (code, ir, stderr) = zrfc(&["ir", &fixture("absolute_config_not.zrf")]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(ir.contains(
        &"win-goal (White) (absolute-config (not (opponent King)) (not (any-owner King)) (b1))"
            .to_string()
    ));
}

#[test]
fn goals_are_tested_after_turns_not_on_the_setup() {
    assert_eq!(moves("goal_met_by_setup.zrf", &[]), ["Stone b1 - c1"]);
    assert_eq!(
        moves("goal_met_by_setup.zrf", &["Stone b1 - c1"]),
        ["game over: White wins"]
    );
}

#[test]
fn forms_the_reference_allows_are_accepted() {
    let file = fixture("reference_forms.zrf");
    let (code, out, stderr) = zrfc(&["check", &file]);
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    assert_eq!(out, [format!("ok: {file}: 1 game, 0 variants")]);
    assert_eq!(
        moves("reference_forms.zrf", &[]),
        [
            "Stone b1 - c1",
            "Stone b1 - d1",
            "Stone b1 - b1 White Stone a1",
            "Stone f1 - f1 White Stone e1",
        ]
    );
    let (_, ir, _) = zrfc(&["ir", &file]);
    for line in [
        "template t0 ((mark e) back (verify empty?) add)",
        "template t1 (e e (verify empty?) (verify (position? e1 e)) add)",
        "template t2 (w (verify empty?) (create) e add)",
        "count-goal (White Black) (total-piece-count 9)",
    ] {
        assert!(ir.iter().any(|l| l == line), "no {line:?} in {ir:#?}");
    }
    assert!(ir.iter().any(|l| l.ends_with("include-off-pieces=true")));
}

#[test]
fn flip_hands_a_piece_to_a_player_who_takes_turns() {
    let file = "flip_to_a_player_who_moves.zrf";
    assert_eq!(moves(file, &[]), ["Stone a1 - a1 flip b1"]);
    // The flipped Stone on b1 is X's (not N's, who never moves): X moves it next turn.
    assert_eq!(
        moves(file, &["Stone a1 - a1 flip b1", "Stone e1 - d1"]),
        ["Stone b1 - c1"]
    );
}

#[test]
fn a_move_generated_more_than_once_is_listed_once() {
    assert_eq!(
        moves("repeated_moves.zrf", &[]),
        ["Rook a1 - a2", "Rook a1 - a3", "White Stone b2"]
    );
    let (code, lines, stderr) = zrfc(&["perft", &fixture("repeated_moves.zrf"), "--depth", "2"]);
    assert_eq!(code, Some(0), "{stderr}");
    let counts: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split(" (").next().filter(|c| c.starts_with("depth")))
        .collect();
    assert_eq!(counts, ["depth 1: 3", "depth 2: 2"]);
}

#[test]
fn an_effect_aimed_off_the_board_does_nothing() {
    assert_eq!(
        moves("effect_off_board.zrf", &[]),
        ["Stone a1 - b1 x c1", "Stone d1 - e1"]
    );
}

#[test]
fn maximal_captures_counts_an_enemy_piece_changed_like_one_removed() {
    assert_eq!(
        moves("maximal_captures_count_changes.zrf", &[]),
        ["Lord a1 - c1 = Man on b1", "Lord e1 - c1 x d1"]
    );
}

/// Issue 40 item 2: `from` and `to` are registers read by `add` (and `cascade`): each
/// template of the fixture gives exactly `man C-1 - C-2`, but `from` on an empty square,
/// which moves nothing.
#[test]
fn from_and_to_are_registers_that_add_reads() {
    let file = fixture("from_to_registers.zrf");
    for title in [
        "from-to-from",
        "go-to-first",
        "go-to-unset",
        "to-twice",
        "to-then-walk",
        "to-go-to",
        "from-empty",
    ] {
        let (code, lines, stderr) = zrfc(&["moves", &file, "--variant", title]);
        assert_eq!(code, Some(0), "{title}: {stderr}");
        let expected: &[&str] = match title {
            "from-empty" => &["game over: draw"],
            _ => &["man C-1 - C-2"],
        };
        assert_eq!(lines, expected, "{title}");
    }
}

/// Issue 40 item 3: with the turn order `(X N) (O N)`, a goal of N's that a move meets
/// is the result of the player who made it, moving as N.
#[test]
fn a_goal_met_moving_for_another_player_is_the_movers() {
    let file = fixture("moving_for_another.zrf");
    for (title, after, result) in [
        ("win-for-mover", &["N man A-2"][..], "game over: X wins"),
        (
            "win-for-mover",
            &["N man B-2", "N man A-2"],
            "game over: O wins",
        ),
        ("loss-for-mover", &["N man A-2"], "game over: X loses"),
        (
            "loss-for-mover",
            &["N man B-2", "N man A-2"],
            "game over: O loses",
        ),
    ] {
        let mut args = vec!["moves", file.as_str(), "--variant", title, "--after"];
        args.extend_from_slice(after);
        let (code, lines, stderr) = zrfc(&args);
        assert_eq!(code, Some(0), "{title} {after:?}: {stderr}");
        assert_eq!(
            lines.last().map(String::as_str),
            Some(result),
            "{title} {after:?}"
        );
    }
}

/// `(pieces-remaining 0)` counts the board alone: a player whose pieces all wait in hand
/// has lost, though he could drop one (and plays on under a variant without the goal).
#[test]
fn a_player_with_pieces_only_in_hand_has_none_remaining() {
    let name = "no_pieces_on_the_board.zrf";
    let file = fixture(name);
    let drops = ["Black Stone a1", "Black Stone b1", "Black Stone d1"];
    let after = ["Stone b1 - c1"];
    let lost: Vec<&str> = drops
        .iter()
        .copied()
        .chain(["game over: Black loses"])
        .collect();
    assert_eq!(moves(name, &after), lost);
    let mut args = vec![
        "moves",
        file.as_str(),
        "--variant",
        "Stalemate Only",
        "--after",
    ];
    args.extend_from_slice(&after);
    let (code, lines, stderr) = zrfc(&args);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(lines, drops);
}
