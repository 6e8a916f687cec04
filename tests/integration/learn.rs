//! Learned evaluations: the board's symmetry, the fit, the file format, and `zrfc tune`
//! with its resumption, shards and merging, `--eval` and `zrfc build --eval`.

use std::process::Command;

use zrf_search::learn::{self, Features, Learned};
use zrf_search::tune::{self, SelfPlay};
use zrf_search::RulesEval;

use crate::perft::engine;
use crate::position;

#[test]
fn the_second_side_sees_the_board_mirrored_by_the_boards_symmetry() {
    let chess = engine("chess.zrf");
    let features = Features::new(&chess.tables).expect("two sides");
    let name = |p: u32| chess.tables.positions[p as usize].as_str();
    let black = features.canonical(1);
    assert_eq!(name(black[position(&chess, "e8") as usize]), "e1");
    assert_eq!(name(black[position(&chess, "a7") as usize]), "a2");
    assert_eq!(name(black[position(&chess, "h1") as usize]), "h8");
    let white = features.canonical(0);
    assert_eq!(name(white[position(&chess, "e8") as usize]), "e8");
    let mut near: Vec<&str> = features
        .near(position(&chess, "a1"))
        .iter()
        .map(|&p| name(p))
        .collect();
    near.sort_unstable();
    assert_eq!(near, ["a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]);
    let tictactoe = engine("tictactoe.zrf");
    assert!(Features::new(&tictactoe.tables).is_ok());
}

/// A hand kept on the grid is a pile: every hand square of either side is seen as the
/// first one, so that one weight per type learns the worth of a piece in hand.
#[test]
fn every_hand_square_is_seen_as_one() {
    let minishogi = engine("minishogi.zrf");
    let features = Features::new(&minishogi.tables).expect("two sides");
    let name = |p: u32| minishogi.tables.positions[p as usize].as_str();
    let seen = |player: u8, square: &str| {
        name(features.canonical(player)[position(&minishogi, square) as usize])
    };
    let hands = ["V1", "W5", "Y1", "Z5"];
    for player in [0, 1] {
        for square in hands {
            assert_eq!(seen(player, square), "V5", "{player} {square}");
        }
    }
    // The board is still mirrored.
    assert_eq!(seen(0, "a1"), "a1");
    assert_eq!(seen(1, "a1"), "e5");
}

#[test]
fn a_fit_on_self_play_games_explains_their_results_better_than_the_start() {
    let game = engine("breakthrough.zrf");
    let blueprint = zrf::interp::Blueprint::of(&game);
    let options = SelfPlay {
        nodes: 60,
        random_plies: 4,
        max_plies: 200,
        threads: 2,
    };
    let numbers: Vec<usize> = (1..=12).collect();
    let games = tune::play_games(&|| blueprint.engine(), &numbers, &options, &|_, _| {});
    assert_eq!(games.iter().map(|(n, _)| *n).collect::<Vec<_>>(), numbers);
    // The same game numbers give the same games.
    let again = tune::play_games(&|| blueprint.engine(), &[3], &options, &|_, _| {});
    assert_eq!(again[0], games[2]);
    let records: Vec<_> = games.into_iter().map(|(_, r)| r).collect();
    // Every position kept was searched (the random plies are not kept): each has the
    // search's score.
    for record in &records {
        assert_eq!(record.scores.len(), record.positions.len());
        assert!(
            record.scores.iter().all(Option::is_some),
            "{:?}",
            record.scores
        );
    }
    let fit = tune::fit(&game, &records, 100, 1.0, &|_| {}).expect("a fit");
    // Half the target from the searches' scores: another fit, that still explains its
    // targets better than the start.
    let searched = tune::fit(&game, &records, 100, 0.5, &|_| {}).expect("a fit");
    assert_ne!(searched.learned, fit.learned);
    assert!(searched.error_after < searched.error_before);
    // Records without scores (older files) learn from their results alone.
    let unscored: Vec<_> = (records.iter().cloned())
        .map(|r| learn::Record {
            scores: vec![None; r.positions.len()],
            ..r
        })
        .collect();
    let unscored = tune::fit(&game, &unscored, 100, 0.5, &|_| {}).expect("a fit");
    assert_eq!(unscored.learned, fit.learned);
    assert!(
        fit.error_after < fit.error_before,
        "{} !< {}",
        fit.error_after,
        fit.error_before
    );
    assert_eq!(fit.learned.games, 12);
    assert_eq!(fit.learned.check(&game.tables), Ok(()));
    // Read back, and taken by the evaluation of a game that carries it.
    let text = fit.learned.to_text();
    assert_eq!(Learned::parse(&text), Ok(fit.learned.clone()));
    let mut carried = engine("breakthrough.zrf");
    carried.tables.evaluation = Some(text);
    let eval = RulesEval::new(&carried);
    assert_eq!(eval.value(0), fit.learned.values[0].1);
    let a1 = position(&carried, "a1");
    assert_eq!(
        eval.square_bonus(0, 0, a1),
        fit.learned.squares[0].1[a1 as usize]
    );
    // Black's a8 is White's a1.
    assert_eq!(
        eval.square_bonus(1, 0, position(&carried, "a8")),
        fit.learned.squares[0].1[a1 as usize]
    );
    // The emptied board's table, blended in as material comes off.
    assert_eq!(
        eval.bonus_at(1, 0, position(&carried, "a8"), false),
        fit.learned.open_squares[0].1[a1 as usize]
    );
    // Games 5 and 10 were held out to choose the pull, then fitted with the rest.
    assert!(fit.held_out_before.is_finite() && fit.held_out_after.is_finite());
    assert!([1e-3, 1e-4, 1e-5, 1e-6].contains(&fit.pull), "{}", fit.pull);
}

/// A piece's room: the empty squares among those its turns reach on the empty board,
/// a line's farther squares only while the nearer ones are empty; weighed per type by a
/// learned evaluation's `room` lines.
#[test]
fn a_pieces_room_is_the_empty_squares_it_could_move_to() {
    let mut chess = engine("chess.zrf");
    let kind = |name: &str| {
        (chess.tables.pieces.iter())
            .position(|p| p.name == name)
            .unwrap_or_else(|| panic!("no {name}")) as u16
    };
    let (pawn, knight, bishop, rook) = (kind("Pawn"), kind("Knight"), kind("Bishop"), kind("Rook"));
    let eval = RulesEval::new(&chess);
    let mut state = chess.start();
    let room = |state: &zrf_runtime::State, player: u8, kind: u16, square: &str| {
        let at = position(&chess, square);
        eval.room().of(player, kind, at, |p| state.at(p).is_none())
    };
    assert_eq!(room(&state, 0, knight, "b1"), 2);
    assert_eq!(room(&state, 0, pawn, "e2"), 2);
    assert_eq!(room(&state, 1, pawn, "e7"), 2);
    assert_eq!(room(&state, 0, bishop, "c1"), 0);
    assert_eq!(room(&state, 0, rook, "a1"), 0);
    // A piece on e3 closes e4 to the pawn; the bishop's diagonal opens past d2.
    state.put(position(&chess, "e3"), state.at(position(&chess, "g1")));
    state.put(position(&chess, "d2"), None);
    assert_eq!(room(&state, 0, pawn, "e2"), 0);
    assert_eq!(room(&state, 0, bishop, "c1"), 1);
    state.put(position(&chess, "e3"), None);
    assert_eq!(room(&state, 0, bishop, "c1"), 5);
    // Read from a learned evaluation, weighed per type.
    chess.tables.evaluation = Some("game Chess\nroom Knight 6\nroom Rook -2\n".into());
    let learned = RulesEval::new(&chess);
    assert_eq!(
        [knight, rook, pawn].map(|k| learned.room_weight(k)),
        [6, -2, 0]
    );
    assert_eq!(eval.room_weight(knight), 0);
}

/// The evaluations tuned for the samples (`zrfc tune`, figures in the README) fit the
/// samples as they are now: a changed sample must be tuned again.
#[test]
fn the_bundled_learned_evaluations_fit_their_samples() {
    for (sample, games) in [("chess", 2000), ("minishogi", 1500), ("checkers", 1000)] {
        let engine = engine(&format!("{sample}.zrf"));
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("zrf-samples")
            .join(format!("{sample}.eval"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        let learned = Learned::parse(&text).unwrap_or_else(|e| panic!("{sample}: {e}"));
        assert_eq!(learned.check(&engine.tables), Ok(()), "{sample}");
        assert_eq!(learned.games, games, "{sample}");
    }
}

#[test]
fn learned_evaluation_files_are_checked_against_the_game() {
    let chess = engine("chess.zrf");
    let broken = [
        (
            "value Pawn 100\n",
            "no `game` line: not a learned evaluation",
        ),
        ("game Chess\nvalue Pawn\n", "line 2: a number is missing"),
        (
            "game Chess\nweight 3\n",
            "line 2: unknown setting \"weight\"",
        ),
    ];
    for (text, error) in broken {
        assert_eq!(Learned::parse(text), Err(error.to_string()));
    }
    let other = Learned::parse("game Checkers\n").expect("parses");
    assert_eq!(
        other.check(&chess.tables),
        Err("the evaluation is for \"Checkers\", not \"Chess\"".to_string())
    );
    let short = Learned::parse("game Chess\nsquares Pawn 1 2 3\n").expect("parses");
    assert_eq!(
        short.check(&chess.tables),
        Err("Pawn has 3 squares; the board has 64".to_string())
    );
    let unknown = Learned::parse("game Chess\nvalue Wazir 3\n").expect("parses");
    assert_eq!(
        unknown.check(&chess.tables),
        Err("the game has no piece type Wazir".to_string())
    );
    let open = Learned::parse("game Chess\nopen-squares Pawn 1 2\n").expect("parses");
    assert_eq!(
        open.check(&chess.tables),
        Err("Pawn has 2 squares; the board has 64".to_string())
    );
}

/// A file with one table per piece type (as `zrfc tune` wrote before it learned an
/// emptied board's) keeps that table whatever is left on the board; with both, the
/// King's table on the full board and on the emptied one are the file's two.
#[test]
fn learned_square_tables_hold_throughout_or_blend_by_the_material_left() {
    let mut chess = engine("chess.zrf");
    let e1 = position(&chess, "e1") as usize;
    let king = chess
        .tables
        .pieces
        .iter()
        .position(|p| p.name == "King")
        .expect("a King");
    let row = |at_e1: i32| {
        let numbers: Vec<String> = (0..64)
            .map(|p| if p == e1 { at_e1 } else { 0 }.to_string())
            .collect();
        numbers.join(" ")
    };
    chess.tables.evaluation = Some(format!("game Chess\nsquares King {}\n", row(40)));
    let eval = RulesEval::new(&chess);
    assert_eq!(
        eval.bonus_at(0, king as u16, e1 as zrf_runtime::Pos, true),
        40
    );
    assert_eq!(
        eval.bonus_at(0, king as u16, e1 as zrf_runtime::Pos, false),
        40
    );
    chess.tables.evaluation = Some(format!(
        "game Chess\nsquares King {}\nopen-squares King {}\n",
        row(40),
        row(-30)
    ));
    let eval = RulesEval::new(&chess);
    assert_eq!(
        eval.bonus_at(0, king as u16, e1 as zrf_runtime::Pos, true),
        40
    );
    assert_eq!(
        eval.bonus_at(0, king as u16, e1 as zrf_runtime::Pos, false),
        -30
    );
    // Black's e8 is White's e1.
    let e8 = position(&chess, "e8");
    assert_eq!(eval.bonus_at(1, king as u16, e8, false), -30);
}

fn zrfc(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_zrfc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("zrfc runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn tune_resumes_splits_merges_and_its_evaluation_is_played_and_built_in() {
    let dir = tempfile::tempdir().expect("a folder");
    let dir = dir.path();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/zrf-samples/breakthrough.zrf");
    let tune = |extra: &[&str]| {
        let mut args = vec![
            "tune",
            sample,
            "--nodes",
            "40",
            "--threads",
            "2",
            "--passes",
            "20",
        ];
        args.extend_from_slice(extra);
        zrfc(dir, &args)
    };
    let out = tune(&["--games", "3", "-o", "bt.eval"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("bt.eval: learned from 3 games, "),
        "{}",
        text(&out.stdout)
    );
    let lines = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .expect("written")
            .lines()
            .count()
    };
    assert_eq!(lines("bt.eval.jsonl"), 3);
    // A second run plays only the games the positions file lacks.
    let out = tune(&["--games", "5", "-o", "bt.eval"]);
    assert!(
        text(&out.stderr).contains("3 games already played, 2 to play"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(lines("bt.eval.jsonl"), 5);
    // Shards play every Nth game; --from merges them into the same evaluation.
    for shard in ["1/2", "2/2"] {
        let out = tune(&[
            "--games",
            "5",
            "--shard",
            shard,
            "-o",
            &format!("part{}.jsonl", &shard[..1]),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    assert_eq!((lines("part1.jsonl"), lines("part2.jsonl")), (3, 2));
    let out = tune(&["--from", "part1.jsonl", "part2.jsonl", "-o", "merged.eval"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).expect("written");
    assert_eq!(read("merged.eval"), read("bt.eval"));
    // Positions files written before scores were kept still read, and learn from the
    // results alone; a score that is not a number is refused with its line.
    let unscored: Vec<String> = read("part1.jsonl")
        .lines()
        .map(|line| {
            let mut game: serde_json::Value = serde_json::from_str(line).expect("json");
            game.as_object_mut().expect("an object").remove("scores");
            game.to_string()
        })
        .collect();
    std::fs::write(dir.join("old.jsonl"), unscored.join("\n")).expect("written");
    let out = tune(&[
        "--from",
        "old.jsonl",
        "part2.jsonl",
        "--result-weight",
        "0.5",
        "-o",
        "old.eval",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = tune(&[
        "--from",
        "part1.jsonl",
        "part2.jsonl",
        "--result-weight",
        "0.5",
        "-o",
        "half.eval",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_ne!(read("half.eval"), read("bt.eval"));
    let first: serde_json::Value =
        serde_json::from_str(read("part2.jsonl").lines().next().expect("a game")).expect("json");
    for (scores, why) in [
        (serde_json::json!(["x"]), "scores are not one a position"),
        (
            serde_json::json!(vec![
                "x";
                first["positions"].as_array().expect("a list").len()
            ]),
            "a score is not a whole number",
        ),
    ] {
        let mut broken = first.clone();
        broken["scores"] = scores;
        std::fs::write(dir.join("broken.jsonl"), broken.to_string()).expect("written");
        let out = tune(&["--from", "broken.jsonl", "-o", "broken.eval"]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let expected = format!("broken.jsonl:1: {why}");
        assert!(
            text(&out.stderr).contains(&expected),
            "{}",
            text(&out.stderr)
        );
    }
    // Played with, shown, and built into a package.
    let out = zrfc(dir, &["eval", sample, "--eval", "bt.eval"]);
    assert!(
        text(&out.stdout).contains("evaluation: learned from 5 self-play games"),
        "{}",
        text(&out.stdout)
    );
    let out = zrfc(
        dir,
        &[
            "build", sample, "--eval", "bt.eval", "--emit", "rs", "-o", "bt.rs",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(read("bt.rs").contains("evaluation: Some(\"# zrf learned evaluation"));
    let chess = concat!(env!("CARGO_MANIFEST_DIR"), "/zrf-samples/chess.zrf");
    let out = zrfc(dir, &["eval", chess, "--eval", "bt.eval"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("the evaluation is for \"Breakthrough\", not \"Chess\""),
        "{}",
        text(&out.stderr)
    );
    let out = zrfc(
        dir,
        &[
            "build", chess, "--eval", "bt.eval", "--emit", "rs", "-o", "c.rs",
        ],
    );
    assert_ne!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("it is for \"Breakthrough\""),
        "{}",
        text(&out.stderr)
    );
}
