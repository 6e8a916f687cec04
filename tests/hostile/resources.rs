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

/// Issue 28 item 2: a name pasted into itself at every call doubles 36 times from
/// 1 KB of source; the pasted bytes are counted.
#[test]
fn names_doubled_by_pasting_stop_at_the_paste_limit() {
    let mut text: String = (0..36)
        .map(|k| format!("(define s{k} (s{} \"$1$1\"))\n", k + 1))
        .collect();
    text.push_str("(define s36 (title $1))\n");
    text.push_str(&game("").replacen("(title \"Hostile\")", "(s0 \"ab\")", 1));
    let dir = folder(&[("paste.zrf", &text)]);
    zrfc(dir.path(), &["check", "paste.zrf"]).expect(
        1,
        "error[E0313]: pasting makes more than 16777216 bytes of names",
    );
}

/// Issue 28 item 3: nested `while` loops multiply the per-loop guard (10,000 x 100
/// moves here); the runtime bounds the work and the moves of one list and says so.
#[test]
fn nested_loops_are_cut_short_with_an_error() {
    let ring = 100;
    let positions: String = (0..ring)
        .map(|i| format!("(p{i} {} 0 {} 10) ", i * 10, i * 10 + 10))
        .collect();
    let links: String = (0..ring)
        .map(|i| format!("(p{i} p{}) ", (i + 1) % ring))
        .collect();
    let text = format!(
        "(game (title \"Loops\") (players White Black) (turn-order White Black)\n\
         (board (positions {positions}) (links n {links}))\n\
         (piece (name Man) (moves ((while (on-board? n) (while (not (position? p50)) add n) n))))\n\
         (board-setup (White (Man p0)) (Black (Man p99)))\n\
         (win-condition (White Black) stalemated))\n"
    );
    let dir = folder(&[("loops.zrf", &text)]);
    // `check` lists the first player's moves (for W0405), and says the rules ran away.
    zrfc(dir.path(), &["check", "loops.zrf"])
        .expect(1, "error: the rules ran away: a move list was cut short");
    let ran = zrfc(dir.path(), &["perft", "loops.zrf", "--depth", "1"]);
    ran.expect(1, "error: the rules ran away: a move list was cut short");
    assert!(ran.stdout.contains("depth 1: 99"), "{}", ran.stdout);
    // Issue 44: a deeper perft stops at the first runaway instead of running every
    // child into it again.
    let ran = zrfc(dir.path(), &["perft", "loops.zrf", "--depth", "4"]);
    ran.expect(1, "error: the rules ran away: a move list was cut short");
    assert!(!ran.stdout.contains("depth 2"), "{}", ran.stdout);
}

/// Issue 28 item 10: a megabyte on one line with an error in every form: columns are
/// found without counting from the line's start, errors past a thousand are counted,
/// and the line itself is not printed under each one.
#[test]
fn a_megabyte_on_one_line_is_reported_briefly() {
    let forms: Vec<String> = (0..100_000).map(|i| format!("(foo{i})")).collect();
    let text = format!("(game (title \"x\") {})", forms.join(" "));
    assert!(text.len() > 1_000_000);
    let dir = folder(&[("oneline.zrf", &text)]);
    let ran = zrfc(dir.path(), &["check", "oneline.zrf"]);
    ran.expect(1, "(the line is too long to show)");
    assert!(
        ran.stderr.len() < 20_000,
        "{} bytes of stderr",
        ran.stderr.len()
    );
    let json = zrfc(
        dir.path(),
        &["check", "oneline.zrf", "--message-format", "json"],
    );
    assert_eq!(json.code, Some(1));
    assert_eq!(json.stdout.lines().count(), 1001);
    assert!(
        json.stdout
            .contains("\"message\":\"99002 more errors in this game\""),
        "{}",
        &json.stdout[json.stdout.len().saturating_sub(2000)..]
    );
}

/// A saved game's record of 10 MB, unreadable or naming no position, is quoted in
/// part: the long-line cap covers every message, the JSON report's too.
#[test]
fn a_ten_megabyte_record_is_quoted_in_part() {
    let rules = game("");
    let header =
        "Zillions Save Game File Version 0.02 HC\r\nRulesFile=game.zrf\r\nVariantName=Hostile\r\n";
    let unreadable = format!("{header}1. Pawn a1 - a2 {}\r\n", "x".repeat(10_000_000));
    let unknown = format!("{header}1. Pawn a1 - {}\r\n", "e".repeat(10_000_000));
    let dir = folder(&[
        ("game.zrf", &rules),
        ("unreadable.zsg", &unreadable),
        ("unknown.zsg", &unknown),
    ]);
    let ran = zrfc(dir.path(), &["replay", "unreadable.zsg"]);
    ran.expect(1, "more characters not shown)");
    assert!(
        ran.stderr.len() < 5_000,
        "{} bytes of stderr",
        ran.stderr.len()
    );
    for args in [
        &["replay", "unknown.zsg"][..],
        &["replay", "unknown.zsg", "--json"],
    ] {
        let ran = zrfc(dir.path(), args);
        assert_eq!(ran.code, Some(1), "{args:?}: {}", ran.stderr_head());
        let shown = ran.stdout.len() + ran.stderr.len();
        assert!(shown < 5_000, "{args:?}: {shown} bytes shown");
        assert!(
            format!("{}{}", ran.stdout, ran.stderr).contains("more characters not shown)"),
            "{args:?}: {}",
            ran.stderr_head()
        );
    }
}

/// Issue 28 item 4: a long game (two pieces running round rings of 997 and 991
/// squares never repeat a position) plays, saves and replays in bounded memory: no
/// state per turn is kept when nobody can take moves back, history is dropped without
/// recursion, and a saved game is replayed as it is read. Its speed is benched
/// (`benches/replay.rs`), not timed here.
#[test]
fn long_games_play_and_replay_in_bounded_memory() {
    let ring = |prefix: &str, n: usize, x0: usize| -> (String, String) {
        let positions = (0..n)
            .map(|i| format!("({prefix}{i} {} 0 {} 1) ", x0 + i, x0 + i + 1))
            .collect();
        let links = (0..n)
            .map(|i| format!("({prefix}{i} {prefix}{}) ", (i + 1) % n))
            .collect();
        (positions, links)
    };
    let (white_positions, white_links) = ring("w", 997, 0);
    let (black_positions, black_links) = ring("b", 991, 2000);
    let text = format!(
        "(game (title \"Rings\") (players White Black) (turn-order White Black)\n\
         (board (positions {white_positions}{black_positions})\n\
         (links next {white_links}{black_links}))\n\
         (piece (name Runner) (moves (next add)))\n\
         (board-setup (White (Runner w0)) (Black (Runner b0))))\n"
    );
    let dir = folder(&[("rings.zrf", &text)]);
    let turns = "50000";
    let args = [
        "play",
        "rings.zrf",
        "--engine",
        "random",
        "--max-turns",
        turns,
    ];
    let played = zrfc(dir.path(), &[&args[..], &["--save", "rings.zsg"]].concat());
    assert_eq!(played.code, Some(0), "{}", played.stderr_head());
    assert!(played.stdout.contains("saved 50000 records to rings.zsg"));
    let replayed = zrfc(dir.path(), &["replay", "rings.zsg", "--rules", "rings.zrf"]);
    assert_eq!(replayed.code, Some(0), "{}", replayed.stderr_head());
    assert!(
        replayed.stdout.contains("50000/50000 records replayed"),
        "{}",
        replayed.stdout
    );
    // A million records whose second is illegal: the records are checked and replayed
    // one at a time, none kept (kept, they took a kilobyte each, and a gigabyte here).
    let mut records = String::from(
        "Zillions Save Game File Version 0.02 HC\r\nRulesFile=rings.zrf\r\nVariantName=Rings\r\n",
    );
    for turn in 1..=500_000 {
        let (w, b) = ((turn - 1) % 997, (turn - 1) % 991);
        let black_from = if turn == 1 { 5 } else { b };
        records.push_str(&format!(
            "{turn}. Runner w{w} - w{}\r\n{turn}. Runner b{black_from} - b{}\r\n",
            (w + 1) % 997,
            (b + 1) % 991
        ));
    }
    std::fs::write(dir.path().join("million.zsg"), records).expect("saved game");
    let ran = super::zrfc_limited(
        dir.path(),
        &["replay", "million.zsg", "--rules", "rings.zrf"],
        None,
        400 * 1024,
    );
    assert_eq!(ran.code, Some(1), "{}", ran.stderr_head());
    assert!(
        ran.stdout.contains("1/1000000 records replayed"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stderr.contains("record 2 cannot be replayed"),
        "{}",
        ran.stderr_head()
    );
}
