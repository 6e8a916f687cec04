//! `zrfc` as a user runs it: exit codes, rendered and JSON diagnostics, corpus runs.

use std::path::Path;
use std::process::{Command, Output};

fn zrfc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zrfc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .output()
        .unwrap_or_else(|e| panic!("cannot run zrfc: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const BAD: &str = "tests/fixtures/syntax/unterminated_string_in_title.zrf";

#[test]
fn check_of_a_clean_sample_exits_0_with_one_line() {
    let out = zrfc(&["check", "zrf-samples/tictactoe.zrf"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "ok: zrf-samples/tictactoe.zrf: 1 game, 0 variants\n"
    );
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn check_of_a_malformed_file_exits_1_with_the_rendered_diagnostic() {
    let out = zrfc(&["check", "--color", "never", BAD]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        r#"error[E0103]: unterminated string
  ┌─ tests/fixtures/syntax/unterminated_string_in_title.zrf:2:11
  │
2 │    (title "Chess)
  │           ^ this string is never closed
  ·
5 │ 
  │ - the file ends inside the string
  │
  = the 2 `(` open at that point are not reported separately
  = help: add the closing `"`; strings may span lines and have no escapes, so a `"` cannot appear inside one

tests/fixtures/syntax/unterminated_string_in_title.zrf: 1 error, 0 warnings
"#
    );
}

#[test]
fn color_always_colours_and_never_does_not() {
    let coloured = zrfc(&["check", "--color", "always", BAD]);
    assert!(text(&coloured.stderr).contains("\u{1b}["));
    let plain = zrfc(&["check", "--color", "never", BAD]);
    assert!(!text(&plain.stderr).contains("\u{1b}["));
}

#[test]
fn json_messages_give_file_byte_and_line_ranges() {
    let out = zrfc(&[
        "check",
        "--message-format",
        "json",
        "tests/fixtures/syntax/stray_close_after_game.zrf",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), 1);
    let d = &lines[0];
    assert_eq!(d["severity"], "error");
    assert_eq!(d["code"], "E0102");
    assert_eq!(d["message"], "unexpected `)`");
    assert_eq!(
        d["file"],
        "tests/fixtures/syntax/stray_close_after_game.zrf"
    );
    let span = &d["span"];
    assert_eq!(
        (
            &span["byte_start"],
            &span["byte_end"],
            &span["line_start"],
            &span["column_start"]
        ),
        (
            &serde_json::json!(84),
            &serde_json::json!(85),
            &serde_json::json!(4),
            &serde_json::json!(28)
        )
    );
}

#[test]
fn missing_file_and_bad_usage_exit_2() {
    let out = zrfc(&["check", "no/such/file.zrf"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: cannot read no/such/file.zrf: no such file\n"
    );
    assert_eq!(zrfc(&["check"]).status.code(), Some(2));
    assert_eq!(zrfc(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(zrfc(&["--help"]).status.code(), Some(0));
}

#[test]
fn parse_prints_a_summary() {
    let out = zrfc(&["parse", "zrf-samples/tictactoe.zrf"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "zrf-samples/tictactoe.zrf: 1073 bytes (UTF-8), 35 lines, \
         3 top-level forms (2 define, 1 game), 158 nodes\n"
    );
}

#[test]
fn parse_tree_starts_with_the_first_form() {
    let out = zrfc(&["parse", "--tree", "zrf-samples/tictactoe.zrf"]);
    let stdout = text(&out.stdout);
    let first: Vec<&str> = stdout.lines().take(4).collect();
    assert_eq!(
        first,
        [
            "; zrf-samples/tictactoe.zrf",
            "list 4:1-13:65",
            "  atom define 4:2-4:8",
            "  atom board-3x3 4:9-4:18",
        ]
    );
}

fn write(dir: &Path, name: &str, contents: &str) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(path, contents).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn corpus_compares_statuses_with_expectations() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let corpus = dir.path().join("corpus");
    let good = "(game (title \"g\") (players A) (board (grid (dimensions (\"a\" (1 0))))))";
    write(&corpus, "a/good.zrf", good);
    write(&corpus, "b/bad.zrf", "(game (title \"g\")");
    let expect = dir.path().join("expected.tsv");
    let (corpus_arg, expect_arg) = (corpus.to_str().unwrap_or(""), expect.to_str().unwrap_or(""));

    let bless = zrfc(&["corpus", corpus_arg, "--expect", expect_arg, "--bless"]);
    assert_eq!(bless.status.code(), Some(0), "{}", text(&bless.stderr));
    let written = std::fs::read_to_string(&expect).unwrap_or_default();
    assert!(
        written.ends_with("a/good.zrf\tok\na/good.zrf #1\tlowered\nb/bad.zrf\terror:E0101\n"),
        "{written}"
    );

    let same = zrfc(&["corpus", corpus_arg, "--expect", expect_arg]);
    assert_eq!(same.status.code(), Some(0));
    assert!(
        text(&same.stdout).ends_with("3 passed, 0 failed\n"),
        "{}",
        text(&same.stdout)
    );

    // A regression: the good file breaks.
    write(&corpus, "a/good.zrf", &format!("{good})"));
    let worse = zrfc(&["corpus", corpus_arg, "--expect", expect_arg]);
    assert_eq!(worse.status.code(), Some(1));
    let stdout = text(&worse.stdout);
    assert!(
        stdout.contains("REGRESSION: a/good.zrf was ok, now error:E0102\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("MISSING: a/good.zrf #1 is expected but the run did not produce it\n"),
        "{stdout}"
    );
    assert!(stdout.ends_with("1 passed, 2 failed\n"), "{stdout}");

    // An improvement is pointed out; the games it brings are new and need --bless.
    write(&corpus, "a/good.zrf", good);
    write(&corpus, "b/bad.zrf", good);
    let better = zrfc(&["corpus", corpus_arg, "--expect", expect_arg]);
    assert_eq!(better.status.code(), Some(1));
    let stdout = text(&better.stdout);
    assert!(
        stdout.contains("improved: b/bad.zrf was error:E0101, now ok\n"),
        "{stdout}"
    );
    // The improved file's game is new to the expectations: record it with --bless.
    assert!(
        stdout.contains("NEW: b/bad.zrf #1 (lowered) is not in the expectations\n"),
        "{stdout}"
    );
}

#[test]
fn corpus_of_a_missing_folder_exits_2() {
    let out = zrfc(&["corpus", "no/such/folder"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn play_saves_a_game_that_replay_accepts() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let saved = dir.path().join("ttt.zsg");
    let saved = saved.to_str().unwrap_or_else(|| panic!("path"));
    let out = zrfc(&[
        "play",
        "zrf-samples/tictactoe.zrf",
        "--engine",
        "random",
        "--seed",
        "2",
        "--save",
        saved,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!(
            "Tic-Tac-Toe\n1. X Mark b2\n1. O Mark c3\n2. X Mark a3\n2. O Mark b3\n3. X Mark c1\n\
             game over: X wins\nsaved 5 records to {saved}\n"
        )
    );
    let out = zrfc(&["replay", saved, "-I", "zrf-samples"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).ends_with("5/5 records replayed; game over: X wins\n"),
        "{}",
        text(&out.stdout)
    );
    let out = zrfc(&["replay", saved, "-I", "zrf-samples", "--json"]);
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["replayed"], 5);
    assert_eq!(json["records"], 5);
    assert_eq!(json["outcome"], "X wins");
    assert_eq!(json["divergence"], serde_json::Value::Null);
}

#[test]
fn replay_shows_where_a_saved_game_diverges() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let saved = dir.path().join("bad.zsg");
    std::fs::write(
        &saved,
        "Zillions Save Game File Version 0.02 HC\r\nRulesFile=TicTacToe.ZRF\r\n\
         VariantName=Tic-Tac-Toe\r\n1. X Mark b2\r\n1. O Mark b2\r\n2. X Mark a1\r\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let saved = saved.to_str().unwrap_or_else(|| panic!("path"));
    let out = zrfc(&["replay", "--color", "never", saved, "-I", "zrf-samples"]);
    assert_eq!(out.status.code(), Some(1));
    let shown = format!("{}{}", text(&out.stdout), text(&out.stderr)).replace(saved, "bad.zsg");
    crate::snapshot_settings().bind(|| insta::assert_snapshot!("replay_divergence", shown));
}

#[test]
fn replay_without_its_rules_file_says_how_to_give_it() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let saved = dir.path().join("lost.zsg");
    std::fs::write(
        &saved,
        "Zillions Save Game File Version 0.02 CC\r\nRulesFile=C:\\Games\\Lost.zrf\r\nVariantName=Lost\r\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let saved = saved.to_str().unwrap_or_else(|| panic!("path"));
    let out = zrfc(&["replay", saved]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: cannot find the rules file \"C:\\\\Games\\\\Lost.zrf\" named in {saved}; give it \
             with --rules, or its folder with -I\n"
        )
    );
}

#[test]
fn differential_finds_included_rules_in_the_include_folders() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (corpus, lib) = (dir.path().join("corpus"), dir.path().join("lib"));
    for folder in [&corpus, &lib] {
        std::fs::create_dir(folder).unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(corpus.join("level.zrf"), "(include \"rules.inc\")\n")
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::copy("zrf-samples/tictactoe.zrf", lib.join("rules.inc"))
        .unwrap_or_else(|e| panic!("{e}"));
    let path = |p: &Path| p.to_str().unwrap_or_else(|| panic!("path")).to_string();
    let (corpus_arg, lib_arg) = (path(&corpus), path(&lib));
    let sample = path(&dir.path().join("sample.txt"));
    let choose = |extra: &[&str]| {
        let mut args = vec![
            "differential",
            &corpus_arg,
            "--choose",
            "1",
            "--sample",
            &sample,
        ];
        args.extend(extra);
        let out = zrfc(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        std::fs::read_to_string(&sample).unwrap_or_else(|e| panic!("{e}"))
    };
    let games = |listing: String| -> Vec<String> {
        let keys = listing.lines().filter(|l| !l.starts_with('#'));
        keys.map(str::to_string).collect()
    };
    assert_eq!(games(choose(&[])), Vec::<String>::new());
    assert_eq!(games(choose(&["-I", &lib_arg])), ["level.zrf #1"]);
}

#[test]
fn eval_shows_the_piece_values_worked_out_from_the_rules() {
    let out = zrfc(&["eval", "zrf-samples/chess.zrf"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    crate::snapshot_settings().bind(|| insta::assert_snapshot!("eval_chess", text(&out.stdout)));
}

#[test]
fn play_at_a_fixed_depth_plays_the_same_game_every_time() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let saved = dir.path().join("ttt.zsg");
    let saved = saved.to_str().unwrap_or_else(|| panic!("path"));
    let args = [
        "play",
        "zrf-samples/tictactoe.zrf",
        "--engine",
        "alphabeta",
        "--depth",
        "9",
        "--save",
        saved,
    ];
    let first = zrfc(&args);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let stdout = text(&first.stdout);
    // Perfect play on both sides draws.
    assert!(stdout.contains("game over: draw\n"), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.contains(" Mark ")).count(), 9);
    assert!(
        text(&first.stderr).contains("alphabeta: depth"),
        "{}",
        text(&first.stderr)
    );
    // The same game again (saved beside the first: saved games never overwrite).
    let again = text(&zrfc(&args).stdout);
    let game = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| !l.starts_with("saved "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(game(&again), game(&stdout));
    assert!(again.contains("-2.zsg"), "{again}");
}

#[test]
fn play_with_an_unknown_engine_is_a_usage_error() {
    let out = zrfc(&["play", "zrf-samples/tictactoe.zrf", "--engine", "deep-blue"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("unknown engine \"deep-blue\": expected alphabeta, mcts or random"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn selfplay_prints_a_results_table_and_saves_every_game() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let saved = dir.path().join("games");
    let out = zrfc(&[
        "selfplay",
        "zrf-samples/tictactoe.zrf",
        "--games",
        "4",
        "--engine",
        "alphabeta",
        "--vs-engine",
        "random",
        "--depth",
        "9",
        "--threads",
        "2",
        "--save-dir",
        saved.to_str().unwrap_or_else(|| panic!("path")),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("Tic-Tac-Toe: 4 games, alphabeta depth 9 against random depth 9\n"),
        "{stdout}"
    );
    assert!(stdout.contains("engine "), "{stdout}");
    // Searching the whole game, a side never loses to random moves at tic-tac-toe.
    let random_row = stdout
        .lines()
        .find(|l| l.starts_with("random depth 9"))
        .unwrap_or_else(|| panic!("{stdout}"));
    // Columns from the right: nodes/s, score, losses, draws, wins.
    let wins: usize = random_row
        .split_whitespace()
        .rev()
        .nth(4)
        .and_then(|w| w.parse().ok())
        .unwrap_or(99);
    assert_eq!(wins, 0, "{stdout}");
    for n in 1..=4 {
        let game = saved.join(format!("game-00{n}.zsg"));
        let replayed = zrfc(&[
            "replay",
            game.to_str().unwrap_or_default(),
            "-I",
            "zrf-samples",
        ]);
        assert_eq!(
            replayed.status.code(),
            Some(0),
            "{}",
            text(&replayed.stderr)
        );
    }
}

#[test]
fn show_prints_a_text_board_or_writes_an_svg() {
    let out = zrfc(&["show", "zrf-samples/tictactoe.zrf", "--after", "X Mark b2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "3 . . .\n2 . M .\n1 . . .\n  a b c\noff the board, X: Mark ×4\n\
         off the board, O: Mark ×4\nkey: M Mark (X in capitals, O in small letters)\nO to move\n"
    );
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let svg = dir.path().join("board.svg");
    let out = zrfc(&[
        "show",
        "zrf-samples/chess.zrf",
        "--svg",
        svg.to_str().unwrap_or_default(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let drawing = std::fs::read_to_string(&svg).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(drawing.matches("class=\"square\"").count(), 64);
    assert_eq!(drawing.matches("class=\"piece\"").count(), 32);
    let out = zrfc(&["show", "zrf-samples/chess.zrf", "--after", "Pawn e2 - e5"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn selfplay_saves_into_a_new_folder_named_after_the_rules_unless_told_not_to() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("zrf-samples/tictactoe.zrf");
    let selfplay = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_zrfc"))
            .args(["selfplay", &sample.to_string_lossy(), "--games", "2"])
            .args(["--engine", "random", "--threads", "1"])
            .args(extra)
            .current_dir(dir.path())
            .output()
            .unwrap_or_else(|e| panic!("cannot run zrfc: {e}"))
    };
    let listing = || {
        let mut names: Vec<String> = walk(dir.path());
        names.sort();
        names
    };
    fn walk(root: &Path) -> Vec<String> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(root).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let name = name.unwrap_or_default();
            if path.is_dir() {
                names.extend(walk(&path).into_iter().map(|n| format!("{name}/{n}")));
            } else {
                names.push(name);
            }
        }
        names
    }
    // A second match never writes into the first one's folder.
    for _ in 0..2 {
        let out = selfplay(&[]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    assert_eq!(
        listing(),
        [
            "selfplay-tictactoe-2/game-001.zsg",
            "selfplay-tictactoe-2/game-002.zsg",
            "selfplay-tictactoe/game-001.zsg",
            "selfplay-tictactoe/game-002.zsg",
        ]
    );
    let out = selfplay(&["--no-save"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        !text(&out.stdout).contains("saved"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(listing().len(), 4);
}

fn zrfc_with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;

    let mut child = Command::new(env!("CARGO_BIN_EXE_zrfc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run zrfc: {e}"));
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(input.as_bytes())
            .unwrap_or_else(|e| panic!("{e}"));
    }
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("zrfc: {e}"))
}

#[test]
fn terminal_play_takes_moves_by_squares_and_can_undo_redo_and_hint() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let saved = dir.path().join("game.zsg");
    let saved = saved.to_str().unwrap_or_else(|| panic!("path"));
    let out = zrfc_with_input(
        &[
            "play",
            "zrf-samples/chess.zrf",
            "--human",
            "White",
            "--depth",
            "1",
            "--save",
            saved,
        ],
        "e2 e4\nundo\nredo\nhint\nNf3\nd1h5h7\nKe3\nquit\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let talk = text(&out.stderr);
    assert!(talk.contains("took back 2 turn(s)\n"), "{talk}");
    assert!(talk.contains("hint: "), "{talk}");
    assert!(
        talk.contains("\"d1h5h7\" is not recognised as a move"),
        "{talk}"
    );
    assert!(
        talk.contains("\"Ke3\" is not legal here; `moves` lists the legal moves"),
        "{talk}"
    );
    // The board is drawn before each move asked for.
    assert!(
        talk.contains("  a b c d e f g h\nWhite to move\n"),
        "{talk}"
    );
    let game = std::fs::read_to_string(saved).unwrap_or_else(|e| panic!("{e}"));
    let records: Vec<&str> = game.lines().skip(3).collect();
    assert_eq!(records.len(), 4, "{game}");
    assert_eq!(records[0], "1. Pawn e2 - e4");
    assert_eq!(records[2], "2. Knight g1 - f3");
    let out = zrfc(&["replay", saved, "-I", "zrf-samples"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn terminal_play_asks_which_promotion_squares_name() {
    let out = zrfc_with_input(
        &[
            "play",
            "tests/fixtures/play/promotion.zrf",
            "--human",
            "White",
            "--depth",
            "1",
            "--save",
            "/dev/null",
        ],
        "a2 a3\n2\nquit\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(
            "\"a2 a3\" could be any of these; type its number:\n   1  Pawn a2 - a3 = Queen\n   2  Pawn a2 - a3 = Knight\n"
        ),
        "{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).starts_with("Promotion Test\n1. Pawn a2 - a3 = Knight\n"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn info_prints_what_the_rules_say_of_the_game_and_its_pieces() {
    let out = zrfc(&["info", "tests/fixtures/boards/hands.zrf"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "Hand Shogi\nplayers: Sente, Gote\ndescription:\n  Take the other King.\n\n  \
         Pawns taken come back in hand.\nstrategy:\n  Keep a Pawn in hand.\npieces:\n  King\n    \
         King: one step in any direction\n  Pawn\n"
    );
}

#[test]
fn a_macro_depth_limit_above_the_ceiling_is_a_usage_error() {
    let out = zrfc(&[
        "check",
        "zrf-samples/tictactoe.zrf",
        "--macro-depth-limit",
        "100000",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("expected a number from 1 to 1000"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn exit_codes_agree_across_commands() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out_dir = dir.path().join("out");
    let out_dir = out_dir.to_string_lossy();
    let a_file = dir.path().join("a-file");
    std::fs::write(&a_file, "").unwrap_or_else(|e| panic!("{e}"));
    let a_file = a_file.to_string_lossy();
    let no_game = "tests/ui/no_game.zrf";
    let cases: [(&[&str], i32); 9] = [
        // A rules file at fault: 1, with its diagnostic.
        (&["check", no_game], 1),
        (&["moves", no_game], 1),
        (&["perft", no_game, "--depth", "1"], 1),
        (&["build", no_game, "-o", &out_dir], 1),
        // Files that cannot be read or written, titles the file lacks: 2.
        (&["check", "tests/ui/missing.zrf"], 2),
        (&["build", "tests/ui/missing.zrf", "-o", &out_dir], 2),
        (&["build", "zrf-samples/tictactoe.zrf", "-o", &a_file], 2),
        (
            &[
                "build",
                "zrf-samples/tictactoe.zrf",
                "--variant",
                "Nope",
                "-o",
                &out_dir,
            ],
            2,
        ),
        (
            &["moves", "zrf-samples/tictactoe.zrf", "--variant", "Nope"],
            2,
        ),
    ];
    for (args, code) in cases {
        let out = zrfc(args);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}: {}",
            text(&out.stderr)
        );
        if args[1] == no_game {
            assert!(
                text(&out.stderr).contains("E0312"),
                "{args:?}: {}",
                text(&out.stderr)
            );
            assert!(!text(&out.stderr).contains("no game or variant titled"));
        }
    }
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    // Three thousand undefined positions: far more diagnostics than a pipe holds.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let rules = dir.path().join("errors.zrf");
    let positions: Vec<String> = (0..3000).map(|i| format!("x{i}")).collect();
    let source = format!(
        "(game (title \"E\") (players A B) (turn-order A B)\n\
         (board (grid (start-rectangle 0 0 10 10)\n\
           (dimensions (\"a/b\" (10 0)) (\"1\" (0 10))) (directions (e 1 0))))\n\
         (piece (name S) (moves (e add)))\n\
         (board-setup (A (S {}))))\n",
        positions.join(" ")
    );
    std::fs::write(&rules, source).unwrap_or_else(|e| panic!("{e}"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_zrfc"))
        .arg("check")
        .arg(&rules)
        .env("NO_COLOR", "1")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut stderr = child.stderr.take().unwrap_or_else(|| panic!("stderr"));
    let mut first = [0u8; 38];
    stderr
        .read_exact(&mut first)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&first, b"error[E0403]: undefined position `x0`\n");
    // The reader goes away, as `| head` does: the program must stop without a panic
    // (exit 101), by the pipe signal as Unix tools do.
    drop(stderr);
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(status.code(), Some(101));
    assert!(!status.success());
}

#[test]
fn commands_on_a_file_of_several_games_say_which_they_took() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let rules = dir.path().join("two.zrf");
    let source = "(game (title \"First\") (players A B) (turn-order A B)\n\
        (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1\" (0 10)))\n\
          (directions (e 1 0))))\n\
        (piece (name S) (drops ((verify empty?) add)))\n\
        (board-setup (A (S off 1)) (B (S off 1))))\n\
        (variant (title \"Second\"))\n";
    std::fs::write(&rules, source).unwrap_or_else(|e| panic!("{e}"));
    let rules = rules.to_string_lossy();
    let out = zrfc(&["moves", &rules]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "A S a1\nA S b1\n");
    assert_eq!(
        text(&out.stderr),
        format!(
            "note: {rules} has 2 games and variants; this is the first, \"First\" \
             (--variant chooses another: \"Second\")\n"
        )
    );
    let out = zrfc(&["moves", &rules, "--variant", "Second"]);
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn build_refuses_a_game_whose_moves_come_from_an_axiom_engine_unless_allowed() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = dir.path().join("pkg");
    let out = out.to_string_lossy();
    let refused = zrfc(&["build", "tests/ui/axiom_engine.zrf", "-o", &out]);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = text(&refused.stderr);
    assert!(
        stderr.contains("takes its moves from the Axiom engine")
            && stderr.contains("--allow-axiom"),
        "{stderr}"
    );
    assert!(!dir.path().join("pkg").exists());
    let allowed = zrfc(&[
        "build",
        "tests/ui/axiom_engine.zrf",
        "-o",
        &out,
        "--allow-axiom",
    ]);
    assert_eq!(allowed.status.code(), Some(0), "{}", text(&allowed.stderr));
    // stdout is the folder alone (for scripts); what to run next goes to stderr.
    assert_eq!(text(&allowed.stdout), format!("{out}\n"));
    assert!(
        text(&allowed.stderr).contains(&format!(
            "next: cargo run --release --manifest-path {out}/Cargo.toml -- play"
        )),
        "{}",
        text(&allowed.stderr)
    );
}

#[test]
fn names_that_reorder_text_reach_generated_code_only_escaped() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let rules = dir.path().join("bidi.zrf");
    // U+202E (right-to-left override) in the title and a piece name: rustc rejects it
    // raw in comments and literals.
    // A NUL in the title: Cargo passes the description to rustc in an environment
    // variable, where a NUL stops the build.
    let source = "(game (title \"Evil\u{202e}Title\u{0}\") (players A B) (turn-order A B)\n\
        (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1\" (0 10)))\n\
          (directions (e 1 0))))\n\
        (piece (name S\u{202e}X) (drops ((verify empty?) add)))\n\
        (board-setup (A (S\u{202e}X off 1)) (B (S\u{202e}X off 1))))\n";
    std::fs::write(&rules, source).unwrap_or_else(|e| panic!("{e}"));
    let package = dir.path().join("pkg");
    let out = zrfc(&[
        "build",
        &rules.to_string_lossy(),
        "-o",
        &package.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for file in ["Cargo.toml", "src/lib.rs", "src/main.rs"] {
        let written = std::fs::read_to_string(package.join(file)).unwrap_or_else(|e| panic!("{e}"));
        assert!(!written.contains('\u{202e}'), "{file} holds U+202E raw");
    }
    let manifest = std::fs::read_to_string(package.join("Cargo.toml")).unwrap_or_default();
    assert!(!manifest.contains("\\u0000"), "{manifest}");
    assert!(
        manifest.contains("from Evil\\\\u{202e}Title\\\\u{0}"),
        "{manifest}"
    );
    let library = std::fs::read_to_string(package.join("src/lib.rs")).unwrap_or_default();
    assert!(library.contains("// game: Evil\\u{202e}Title"), "{library}");
}

#[test]
fn bench_names_each_measure() {
    let out = zrfc(&["bench", "zrf-samples/tictactoe.zrf", "--time", "0.05"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let measures: Vec<&str> = stdout
        .lines()
        .skip(2)
        .map(|l| l.split("  ").next().unwrap_or(""))
        .collect();
    assert_eq!(
        measures,
        [
            "perft leaves",
            "random playouts",
            "alpha-beta nodes",
            "alpha-beta to depth 8",
            "monte carlo iterations"
        ],
        "{stdout}"
    );
}

#[test]
fn misspelt_words_get_the_name_meant_or_the_boards_directions() {
    let out = zrfc(&[
        "check",
        "--color",
        "never",
        "tests/fixtures/check/misspellings.zrf",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    let hints: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("error") || l.starts_with("   = "))
        .collect();
    let directions = "the board's directions are `n`, `e`, `s`, `w`, `nw`";
    assert_eq!(
        hints,
        [
            "error[E0309]: unknown top-level form `gme`",
            "   = help: did you mean `game`?",
            "error[E0401]: unknown statement, direction or position `step`",
            "   = help: did you mean `stepp`?",
            "error[E0401]: unknown statement, direction or position `stpp`",
            "   = help: did you mean `stepp`?",
            "error[E0401]: unknown statement, direction or position `north`",
            &format!("   = help: {directions}"),
            "error[E0403]: undefined direction or position `north`",
            &format!("   = {directions}"),
            "error[E0403]: undefined direction `nrth`",
            &format!("   = {directions}"),
            "   = help: declare it in a grid's (directions (nrth ...)) or with (links nrth ...)",
        ]
    );
}

#[test]
fn an_unused_macro_is_a_warning_that_allow_and_deny_tune() {
    let file = "tests/fixtures/check/unused_macro.zrf";
    let warned = zrfc(&["check", "--color", "never", file]);
    assert_eq!(warned.status.code(), Some(0));
    assert_eq!(
        text(&warned.stderr),
        "warning[W0303]: macro `slide` is never used\n  \
         ┌─ tests/fixtures/check/unused_macro.zrf:3:9\n  \
         │\n\
         3 │ (define slide ($1 (while empty? add $1)))\n  \
         │         ^^^^^ no game or variant calls it\n  \
         │\n  \
         = help: check the spelling of its calls, or remove it\n\n\
         tests/fixtures/check/unused_macro.zrf: 0 errors, 1 warning\n"
    );
    let allowed = zrfc(&["check", "--allow", "w0303", file]);
    assert_eq!(allowed.status.code(), Some(0));
    assert_eq!(
        text(&allowed.stdout),
        "ok: tests/fixtures/check/unused_macro.zrf: 1 game, 0 variants\n"
    );
    assert!(allowed.stderr.is_empty());
    let denied = zrfc(&["check", "--color", "never", "--deny", "W0303", file]);
    assert_eq!(denied.status.code(), Some(1));
    assert!(text(&denied.stderr).starts_with("error[W0303]: macro `slide` is never used"));
    let refused = zrfc(&["check", "--allow", "E0401", file]);
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(
        text(&refused.stderr),
        "error: E0401 is an error, not a warning\n"
    );
}

#[test]
fn a_game_whose_first_player_cannot_move_is_warned_of() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("nostock.zrf");
    let example = zrf::diag::codes::lookup("W0405")
        .and_then(|c| c.example)
        .unwrap_or_default();
    std::fs::write(&file, example).unwrap_or_else(|e| panic!("{e}"));
    let path = file.display().to_string();
    let out = zrfc(&["check", "--color", "never", &path]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("warning[W0405]: A has no legal move at the start of \"T\"\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains("^^^^^^^^^^^ the game ends before its first turn"),
        "{stderr}"
    );
    assert_eq!(
        zrfc(&["check", "--deny", "W0405", &path]).status.code(),
        Some(1)
    );
}

/// The warnings of `lint` on the rules `text` (named `name`), which must check clean.
fn lint_warnings(
    name: &str,
    text: &str,
    lint: fn(&zrf::frontend::FrontEnd, &zrf::expand::Expanded) -> Vec<zrf::diag::Diagnostic>,
) -> (zrf::source::SourceMap, Vec<zrf::diag::Diagnostic>) {
    let mut loader = zrf::syntax::MemoryLoader::new();
    loader.insert(name, text);
    let mut sources = zrf::source::SourceMap::new();
    let options = zrf::frontend::FrontEndOptions::default();
    let front_end = zrf::frontend::run(Path::new(name), &loader, &options, &mut sources)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        front_end.diagnostics.is_empty(),
        "{:?}",
        front_end.diagnostics
    );
    let expanded = front_end.expanded.as_ref().expect("expanded");
    let warnings = lint(&front_end, expanded);
    (sources, warnings)
}

/// Snapshots the warnings as `zrfc check` prints them.
fn snapshot_lints(
    name: &str,
    sources: &zrf::source::SourceMap,
    warnings: &[zrf::diag::Diagnostic],
) {
    crate::snapshot_settings().bind(|| {
        insta::assert_snapshot!(name, zrf::diag::render_plain(sources, warnings));
    });
}

/// A zone no rule tests and a piece nothing sets up, beside a zone that only a variant
/// uses (inherited from the game: used, so not reported).
const UNUSED_NAMES: &str = r#"(define step ($1 (verify empty?) add))
(game (title "Lint") (players A B) (turn-order A B)
   (board
      (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("1" (0 10)))
         (directions (e 1 0) (w -1 0)))
      (zone (name goal) (players A B) (positions c1))
      (zone (name far-end) (players A) (positions c1))
      (zone (name far-end) (players B) (positions a1)))
   (piece (name Stone) (moves (step e) (step w)))
   (piece (name Ghost) (moves (step e)))
   (board-setup (A (Stone a1)) (B (Stone c1))))
(variant (title "Lint to the end")
   (win-condition (A B) (absolute-config Stone (far-end))))
"#;

#[test]
fn zones_and_piece_types_that_nothing_uses_are_warned_of_once() {
    let (sources, warnings) = lint_warnings("lint.zrf", UNUSED_NAMES, zrf::lint::unused_names);
    let codes: Vec<&str> = warnings.iter().map(|w| w.code).collect();
    assert_eq!(codes, ["W0406", "W0407"]);
    snapshot_lints("lint_unused_names", &sources, &warnings);
}

/// Turns restricted to `place`; `slide` moves are listed, and `hop` moves are only a
/// continuation (`add-partial`), which is played.
const UNPLAYED_MOVE_TYPES: &str = r#"(game (title "Phases") (players A B) (turn-order (A place) (B place))
   (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("1" (0 10)))
      (directions (e 1 0))))
   (piece (name Stone)
      (drops (move-type place) ((verify empty?) (add-partial hop)))
      (moves (move-type slide) (e (verify empty?) add)
             (move-type hop) (e (verify empty?) add)))
   (board-setup (A (Stone off 2)) (B (Stone off 2))))
"#;

#[test]
fn move_types_that_no_turn_plays_are_warned_of() {
    let (sources, warnings) = lint_warnings(
        "phases.zrf",
        UNPLAYED_MOVE_TYPES,
        zrf::lint::unplayed_move_types,
    );
    snapshot_lints("lint_unplayed_move_types", &sources, &warnings);
}

/// Positions given by name with one link: `c1` is reached by nothing, while `d1` is
/// where a template jumps and `x0` is a dummy (the rules' workspace); a variant with
/// the same board says nothing more.
const UNREACHABLE_POSITIONS: &str = r#"(game (title "Row") (players A B) (turn-order A B)
   (board
      (positions (a1 0 0 10 10) (b1 10 0 20 10) (c1 20 0 30 10) (d1 30 0 40 10))
      (dummy x0)
      (links e (a1 b1)))
   (piece (name Stone) (moves (e (verify empty?) add) (d1 (verify empty?) add)))
   (board-setup (A (Stone a1)) (B (Stone b1))))
(variant (title "Row again"))
"#;

#[test]
fn positions_no_piece_can_reach_are_warned_of_once_per_board() {
    let (sources, warnings) = lint_warnings(
        "row.zrf",
        UNREACHABLE_POSITIONS,
        zrf::lint::unreachable_positions,
    );
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(
        warnings[0].message,
        "a position of \"Row\" can never hold a piece: c1"
    );
    snapshot_lints("lint_unreachable_positions", &sources, &warnings);
    // With drops any empty position can be reached.
    let with_drops =
        UNREACHABLE_POSITIONS.replace("(moves (e", "(drops ((verify empty?) add)) (moves (e");
    let (_, warnings) = lint_warnings("row.zrf", &with_drops, zrf::lint::unreachable_positions);
    assert!(warnings.is_empty(), "{warnings:?}");
}

/// Each template pitfall once, inside and outside a macro used by two pieces and a
/// variant, beside its mended twin, which gets no warning (and a drop, whose piece lands
/// where its template starts; a change and a capture on two branches of an `if`).
const TEMPLATE_PITFALLS: &str = r#"(define flying ($1 (while empty? $1) (verify enemy?) capture $1 (while empty? add $1)))
(game (title "Pitfalls") (players A B) (turn-order A B)
   (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("4/3/2/1" (0 10)))
      (directions (n 0 -1) (e 1 0))))
   (piece (name Stone) (attribute moved false)
      (moves
         ((set-attribute moved true) n (verify empty?) add)
         (n (verify empty?) (set-attribute moved true) add)
         (n (verify (flag? jumped)) add)
         (n (set-flag seen true) (while empty? (if (flag? seen) add) n))
         (e (while empty? (if (flag? late) add) (set-flag late true) e))
         (flying e)
         (n (while empty? add capture n))
         (n (while empty? (set-attribute moved true) add n))
         (e (verify enemy?) capture e (verify empty?) add)
         (e (verify enemy?) (change-type Rock) capture e (verify empty?) add)
         (e (verify enemy?) (change-type Rock) e (verify enemy?) capture add)
         (e (verify enemy?) (if (piece? Rock) (change-type Stone) else capture) e add))
      (drops ((verify empty?) (set-attribute moved true) mark n (verify empty?) back add)))
   (piece (name Rock) (moves (flying n)))
   (board-setup (A (Stone a1)) (B (Rock d4))))
(variant (title "Pitfalls again"))
"#;

#[test]
fn template_pitfalls_are_warned_of_once_each() {
    let (sources, warnings) = lint_warnings(
        "pitfalls.zrf",
        TEMPLATE_PITFALLS,
        zrf::lint::template_pitfalls,
    );
    let found: Vec<(&str, &str)> = (warnings.iter())
        .map(|w| (w.code, w.message.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "W0412",
                "attribute `moved` is set on the square the moving piece leaves"
            ),
            (
                "W0410",
                "flag `jumped` is read before anything in its template sets it"
            ),
            (
                "W0411",
                "`capture` is part of only the first move the loop after it adds"
            ),
            (
                "W0411",
                "`capture` after the loop's `add` is part of the next move it adds"
            ),
            (
                "W0413",
                "this capture is lost: the move already changed the piece here"
            ),
        ]
    );
    snapshot_lints("lint_template_pitfalls", &sources, &warnings);
}
