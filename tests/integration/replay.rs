//! Saved games: what `zrfc play` writes replays record by record, divergences are
//! reported with the position and the engine's moves, and broken files never panic.

use zrf::source::SourceMap;
use zrf::zsg::{self, Replay};

use crate::perft::engine;

const SAMPLES: [&str; 5] = [
    "chess.zrf",
    "checkers.zrf",
    "breakthrough.zrf",
    "tictactoe.zrf",
    "hopdrop.zrf",
];

/// A seeded random game of a sample as a saved-game file, as a compiled engine's `play
/// --save` writes it.
fn played(sample: &str, seed: u64, max_turns: usize) -> String {
    let engine = engine(sample);
    let mut records = Vec::new();
    zrf_search::playout_with(
        &engine,
        seed,
        max_turns,
        |_| true,
        |state, mv| {
            records.extend(zrf_runtime::turn_records(&engine.tables, state, mv));
        },
    );
    zrf_runtime::saved_game(&engine.tables, sample, &[], &records)
}

fn replay_text(sample: &str, text: &str) -> Replay {
    replay_saved(&engine(sample), "game.zsg", text.as_bytes().to_vec())
}

/// Reads the saved game `bytes` (a file called `name`) with the players of `engine`,
/// and replays it.
fn replay_saved(engine: &zrf::interp::Interpreted, name: &str, bytes: Vec<u8>) -> Replay {
    let mut sources = SourceMap::new();
    let file = sources.add(name, bytes);
    let players = engine.tables.player_names();
    let (saved, errors) = zsg::parse(file, sources.file(file), Some(&players));
    assert!(errors.is_empty(), "{name}: {errors:?}");
    zsg::replay(
        engine,
        &saved.unwrap_or_else(|| panic!("{name}: no header")),
    )
}

#[test]
fn played_games_replay_to_the_last_record() {
    for sample in SAMPLES {
        for seed in 1..=3 {
            let text = played(sample, seed, 150);
            let report = replay_text(sample, &text);
            assert_eq!(report.divergence, None, "{sample} seed {seed}");
            assert_eq!(report.turn_numbers_differ, None, "{sample} seed {seed}");
            assert_eq!(report.replayed, report.records, "{sample} seed {seed}");
            assert_eq!(
                report.records,
                text.lines().count() - 3,
                "{sample} seed {seed}"
            );
        }
    }
}

#[test]
fn a_tic_tac_toe_game_is_written_as_zillions_writes_it() {
    let text = played("tictactoe.zrf", 2, 20);
    assert_eq!(
        text,
        "Zillions Save Game File Version 0.02 CC\r\nRulesFile=tictactoe.zrf\r\n\
         VariantName=Tic-Tac-Toe\r\n1. X Mark b2\r\n1. O Mark c3\r\n2. X Mark a3\r\n\
         2. O Mark b3\r\n3. X Mark c1\r\n"
    );
    let report = replay_text("tictactoe.zrf", &text);
    assert_eq!(report.outcome, Some(zrf_runtime::Outcome::Win(0)));
}

#[test]
fn partial_moves_are_numbered_by_turn_and_marked_partial() {
    let text = played("checkers.zrf", 7, 60);
    let partial: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("partial"))
        .take(3)
        .collect();
    assert_eq!(
        partial,
        [
            "3. partial 1 Man b4 - d6 x c5",
            "3. partial 1 Man e7 - c5 x d6",
            "4. partial 1 Man f4 - d6 x e5"
        ]
    );
}

#[test]
fn attribute_numbers_are_learned_from_the_records() {
    // Zillions numbers attributes its own way (zsg-format.md §3.5): write index 3 for
    // the sample's only attribute and the replay still matches, reporting the mapping.
    let text = played("chess.zrf", 1, 40);
    assert!(text.contains(" 0 0"), "the game should clear never-moved?");
    let renumbered = text.replace(" 0 0\r", " 3 0\r").replace(" 0 0 ", " 3 0 ");
    let report = replay_text("chess.zrf", &renumbered);
    assert_eq!(report.divergence, None);
    assert_eq!(report.attributes, [(3, "never-moved?".to_string())]);
}

#[test]
fn a_move_the_engine_cannot_make_is_reported_with_the_position_and_candidates() {
    let text = "Zillions Save Game File Version 0.02 CC\r\nRulesFile=tictactoe.zrf\r\n\
                VariantName=Tic-Tac-Toe\r\n1. X Mark b2\r\n1. O Mark b2\r\n";
    let report = replay_text("tictactoe.zrf", text);
    assert_eq!(report.replayed, 1);
    let divergence = report
        .divergence
        .unwrap_or_else(|| panic!("should diverge"));
    assert_eq!(divergence.record, 1);
    assert_eq!(
        divergence.reason,
        "no legal move reproduces the record (8 candidates differ)"
    );
    assert_eq!(divergence.board, ["X: Mark b2"]);
    assert_eq!(
        divergence.candidates,
        [
            "O Mark a3",
            "O Mark b3",
            "O Mark c3",
            "O Mark a2",
            "O Mark c2",
            "O Mark a1",
            "O Mark b1",
            "O Mark c1"
        ]
    );
    let (closest, differences) = divergence.closest.unwrap_or_else(|| panic!("closest"));
    assert_eq!(closest, "O Mark a3");
    assert_eq!(
        differences,
        [
            "a3: the record leaves nothing, the engine O Mark",
            "b2: the record leaves O Mark, the engine X Mark"
        ]
    );
}

#[test]
fn unknown_names_and_wrong_movements_stop_the_replay_with_a_reason() {
    let header = "Zillions Save Game File Version 0.02 CC\r\nRulesFile=checkers.zrf\r\n\
                  VariantName=English Checkers\r\n";
    let cases = [
        (
            "1. Queen c3 - d4\r\n",
            "the rules have no piece type `Queen`",
        ),
        ("1. Man c3 - z9\r\n", "the rules have no position `z9`"),
        (
            "1. Man c4 - d5\r\n",
            "no legal move reproduces the record (it moves a Man from c4, which is empty here)",
        ),
        (
            "1. Man c3 x d4\r\n",
            "no legal move reproduces the record (it says d4 is occupied, which it is not here)",
        ),
        ("1. Pass\r\n", "the engine does not allow a pass here"),
        (
            "(x c3)\r\n1. Man b2 - c3\r\n(x d4)\r\n",
            "a board edit after the first move",
        ),
    ];
    for (records, reason) in cases {
        let report = replay_text("checkers.zrf", &format!("{header}{records}"));
        let divergence = report.divergence.unwrap_or_else(|| panic!("{records}"));
        assert_eq!(divergence.reason, reason, "{records}");
    }
}

#[test]
fn records_numbered_against_the_turn_order_are_reported() {
    let text = "Zillions Save Game File Version 0.02 CC\r\nRulesFile=tictactoe.zrf\r\n\
                VariantName=Tic-Tac-Toe\r\n1. X Mark b2\r\n2. O Mark c3\r\n2. X Mark a1\r\n";
    let report = replay_text("tictactoe.zrf", text);
    assert_eq!(report.replayed, 3);
    assert_eq!(report.turn_numbers_differ, Some((1, 1)));
}

#[test]
fn turn_numbers_count_passes_through_the_turn_order() {
    let engine = engine("hopdrop.zrf");
    let numbers: Vec<u32> = (0..6).map(|n| engine.tables.turn_number(n)).collect();
    assert_eq!(numbers, [1, 1, 2, 2, 3, 3]);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Lines of a real game deleted, duplicated or with one token replaced: the replay
    /// stops somewhere or finishes, never panics, and never claims more than it read.
    #[test]
    fn mutated_saved_games_never_panic_the_replayer(
        seed in 1u64..50,
        edits in proptest::collection::vec((0usize..200, 0u8..3, "[a-hx=@0-9A-Za-z-]{1,6}"), 1..4),
    ) {
        let sample = SAMPLES[(seed % 5) as usize];
        let text = played(sample, seed, 60);
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        for (at, kind, token) in edits {
            let at = 3 + at % (lines.len() - 2).max(1);
            let at = at.min(lines.len());
            match kind {
                0 if at < lines.len() => { lines.remove(at); }
                1 if at < lines.len() => { let line = lines[at].clone(); lines.insert(at, line); }
                _ if at < lines.len() => {
                    let mut words: Vec<String> = lines[at].split(' ').map(str::to_string).collect();
                    let i = token.len() % words.len();
                    words[i] = token;
                    lines[at] = words.join(" ");
                }
                _ => {}
            }
        }
        let engine = engine(sample);
        let mut sources = SourceMap::new();
        let file = sources.add("m.zsg", lines.join("\n").into_bytes());
        let players = engine.tables.player_names();
        let (saved, _) = zsg::parse(file, sources.file(file), Some(&players));
        if let Some(saved) = saved {
            let report = zsg::replay(&engine, &saved);
            proptest::prop_assert!(report.replayed <= report.records);
            proptest::prop_assert_eq!(report.divergence.is_none(), report.replayed == report.records);
        }
    }
}

/// Saved games Zillions recorded, each cut, shuffled and corrupted line by line: the
/// replay never panics (with ../shared present).
#[test]
fn mutated_oracle_games_never_panic_the_replayer() {
    let Some(oracles) = crate::shared_oracles() else {
        return;
    };
    let cases = [
        (
            "zsg/GlukKazan-ZoG/Rules/KoShogi.zsg",
            "recorded-zrf/6989e30678/KoShogi.zrf",
        ),
        (
            "zsg/GlukKazan-ZoG/Rules/bolotoudou.zsg",
            "recorded-zrf/4767ba3e2c/bolotoudou.zrf",
        ),
        (
            "zsg/GlukKazan-ZoG/Rules/Chase.zsg",
            "recorded-zrf/132210568f/Chase.zrf",
        ),
    ];
    for (zsg_path, rules) in cases {
        let mut sources = SourceMap::new();
        let result = zrf::frontend::run(
            &oracles.join(rules),
            &zrf::syntax::FsLoader,
            &zrf::frontend::FrontEndOptions::default(),
            &mut sources,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let game = result.games.into_iter().find_map(|g| g.game);
        let engine = zrf::interp::engine(game.unwrap_or_else(|| panic!("{rules}")))
            .unwrap_or_else(|e| panic!("{e}"));
        let players = engine.tables.player_names();
        let original = std::fs::read_to_string(oracles.join(zsg_path)).unwrap_or_default();
        let lines: Vec<&str> = original.lines().collect();
        let mut rng = zrf_search::SplitMix64::new(99);
        for _ in 0..25 {
            let mut mutated: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            for _ in 0..3 {
                let at = 3 + rng.below(mutated.len() - 3);
                match rng.below(4) {
                    0 => {
                        mutated.remove(at);
                    }
                    1 => {
                        let other = 3 + rng.below(mutated.len() - 3);
                        mutated.swap(at, other);
                    }
                    2 => mutated[at] = mutated[at].replacen(" - ", " x ", 1),
                    _ => {
                        let cut = rng.below(mutated[at].len().max(1));
                        mutated[at] = mutated[at].chars().take(cut).collect();
                    }
                }
                if mutated.len() <= 4 {
                    break;
                }
            }
            let file = sources.add("m.zsg", mutated.join("\r\n").into_bytes());
            let (saved, _) = zsg::parse(file, sources.file(file), Some(&players));
            if let Some(saved) = saved {
                let report = zsg::replay(&engine, &saved);
                assert!(report.replayed <= report.records);
            }
        }
    }
}

/// Replays a saved game of the oracles against the game or variant `title` of the rules
/// in `rules`.
fn replay_oracle(
    oracles: &std::path::Path,
    zsg_path: &str,
    rules: &std::path::Path,
    title: &str,
) -> Replay {
    let engine = zrf::build::Config::new()
        .quiet(true)
        .variant(title)
        .interpret(rules)
        .unwrap_or_else(|e| panic!("{}: {e}", rules.display()));
    let bytes = std::fs::read(oracles.join(zsg_path)).unwrap_or_else(|e| panic!("{e}"));
    replay_saved(&engine, zsg_path, bytes)
}

/// Zillions ends a game by `stalemated` as soon as the player to move has no legal move
/// and may not pass: recorded games stop exactly there. Chessence.zsg goes on past such
/// a position (record 82 is Black's `41. Pass`), and replays whole once its rules let a
/// player pass: it was recorded with such rules (docs/semantics.md).
#[test]
fn games_end_at_stalemate_and_chessence_was_recorded_with_passing_allowed() {
    let (Some(corpus), Some(oracles)) = (crate::shared_corpus(), crate::shared_oracles()) else {
        return;
    };
    use zrf_runtime::Outcome::Loss;
    let stalemates = [
        (
            "zsg/DagazProject-ZRF/HornChess/horn-chess.zsg",
            corpus.join("DagazProject-ZRF/HornChess/horn-chess.zrf"),
            "Horn Chess",
            Loss(1),
        ),
        (
            "zsg/DagazProject-ZRF/Gonu/Gonu.zsg",
            corpus.join("DagazProject-ZRF/Gonu/Gonu.zrf"),
            "4-line Gonu",
            Loss(0),
        ),
        (
            "zsg/GlukKazan-ZoG/Rules/Northern Checkers.zsg",
            oracles.join("recorded-zrf/95b3e3670a/CheckersCollection.zrf"),
            "Northern Checkers",
            Loss(0),
        ),
        (
            "zsg/DagazProject-ZRF/CheckersCollection/Northern Checkers.zsg",
            oracles.join("recorded-zrf/95b3e3670a/CheckersCollection.zrf"),
            "Northern Checkers",
            Loss(0),
        ),
    ];
    for (zsg_path, rules, title, loser) in stalemates {
        let report = replay_oracle(&oracles, zsg_path, &rules, title);
        assert_eq!(report.replayed, report.records, "{zsg_path}");
        assert_eq!(report.over_early, None, "{zsg_path}");
        assert_eq!(report.outcome, Some(loser), "{zsg_path}");
    }

    let chessence = "zsg/DagazProject-ZRF/Chessence/Chessence.zsg";
    let rules = corpus.join("DagazProject-ZRF/Chessence/Chessence.zrf");
    let as_published = replay_oracle(&oracles, chessence, &rules, "Free Chessence");
    assert_eq!((as_published.replayed, as_published.records), (81, 83));
    assert_eq!(as_published.over_early, Some((81, Loss(1))));

    // The same rules with passing allowed: the only change.
    let text = std::fs::read_to_string(&rules).unwrap_or_else(|e| panic!("{e}"));
    let option = option_value_span(&text, "\"pass turn\"");
    let passing = format!("{}forced{}", &text[..option.start], &text[option.end..]);
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let changed = dir.path().join("Chessence.zrf");
    std::fs::write(&changed, passing).unwrap_or_else(|e| panic!("{e}"));
    let with_passing = replay_oracle(&oracles, chessence, &changed, "Free Chessence");
    assert_eq!(with_passing.divergence, None);
    assert_eq!((with_passing.replayed, with_passing.records), (83, 83));
}

/// Where the value of the option named `name` (quoted) stands in `text`.
fn option_value_span(text: &str, name: &str) -> std::ops::Range<usize> {
    let at = text
        .find(name)
        .unwrap_or_else(|| panic!("no option {name}"))
        + name.len();
    let rest = &text[at..];
    let start = at + (rest.len() - rest.trim_start().len());
    let end = start
        + text[start..]
            .find(')')
            .unwrap_or_else(|| panic!("unclosed option"));
    start..end
}

/// Every legal move along seeded random games of `file` (under the project folder)
/// replays, from the position it was made in, to the position it leads to.
fn every_move_round_trips(file: &str, seed: u64, plies: usize) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let engine = zrf::build::Config::new()
        .quiet(true)
        .select(zrf::build::Selection::First)
        .interpret(&path)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut checked = 0;
    zrf_search::playout_with(
        &engine,
        seed,
        plies,
        |_| true,
        |state, _| {
            for mv in engine.legal_moves(state) {
                if let Err(why) = zsg::turn_round_trips(&engine, state, &mv) {
                    panic!("{file} seed {seed}: {why}");
                }
                checked += 1;
            }
        },
    );
    assert!(checked > 0, "{file}: no move checked");
}

#[test]
fn every_move_replays_from_its_own_notation() {
    for sample in SAMPLES {
        every_move_round_trips(&format!("zrf-samples/{sample}"), 5, 24);
    }
    for fixture in [
        "promotion_in_place.zrf",
        "reference_forms.zrf",
        "flip_to_a_player_who_moves.zrf",
        "marked_then_captured.zrf",
    ] {
        every_move_round_trips(&format!("tests/fixtures/fidelity/{fixture}"), 1, 12);
    }
}
