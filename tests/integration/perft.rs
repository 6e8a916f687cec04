//! Move generation of the reference interpreter, checked by perft on the bundled samples
//! against published counts (no ../shared needed). Corpus rows run in .ci/run.

use std::path::Path;

use zrf::interp;
use zrf_runtime::{Game, Outcome, State};

/// The bundled samples whose pieces move (not only drop): chess (castling, en passant,
/// promotion), checkers (capture chains), hop and drop (drops, stocks, attributes),
/// minishogi (hands, promotion) and xiangqi.
pub const PLAYED_SAMPLES: [&str; 5] = [
    "chess.zrf",
    "checkers.zrf",
    "hopdrop.zrf",
    "minishogi.zrf",
    "xiangqi.zrf",
];

pub fn engine(sample: &str) -> interp::Interpreted {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("zrf-samples")
        .join(sample);
    zrf::build::Config::new()
        .quiet(true)
        .select(zrf::build::Selection::First)
        .interpret(&path)
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
fn xiangqi_matches_published_perft() {
    // The counts Fairy-Stockfish and other xiangqi engines give; depth 4 (3,290,240)
    // runs in release in .ci/run.
    assert_eq!(counts("xiangqi.zrf", 3), [44, 1920, 79666]);
}

#[test]
fn minishogi_matches_fairy_stockfish_perft() {
    // Fairy-Stockfish's `minishogi` gives these, and 533,203 and 8,276,188 at depths 5
    // and 6 (depth 5 runs in release in .ci/run): drops, nifu and promotion choices
    // agree, the hands being grid positions as Zillions keeps them.
    assert_eq!(counts("minishogi.zrf", 4), [14, 181, 2512, 35401]);
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
fn move_priorities_keep_the_first_listed_type_present_and_rank_the_rest_alike() {
    // Listed: b-type (capture east) before a-type (two squares east). The untyped move
    // (one west) and c-type (two west, not listed) rank below both, and alike.
    let game = |white: &str, black: &str| {
        let rest = format!(
            r#"
   (move-priorities b-type a-type)
   (piece
      (name Runner)
      (moves
         (w (verify empty?) add)
         (move-type c-type) (w w (verify empty?) add)
         (move-type a-type) (e e (verify empty?) add)
         (move-type b-type) (e (verify enemy?) add)))
   (board-setup (White (Runner {white})) (Black (Runner {black})))"#
        );
        one_row_game("Priorities", "a/b/c/d/e/f/g", &rest)
    };
    let legal = |white: &str, black: &str| -> Vec<String> {
        let engine = interpret_text("priorities.zrf", &game(white, black));
        let start = engine.start();
        let moves = engine.legal_moves(&start);
        moves.iter().map(|m| engine.notation(&start, m)).collect()
    };
    // Every type present: only the capture.
    assert_eq!(legal("c1", "d1"), ["Runner c1 x d1"]);
    // No capture: only the second listed type.
    assert_eq!(legal("c1", "g1"), ["Runner c1 - e1"]);
    // Neither listed type: the untyped and the unlisted moves, in generation order.
    assert_eq!(legal("f1", "a1"), ["Runner f1 - e1", "Runner f1 - d1"]);
    // Several pieces: the moves found before the first capture (b1 - a1, d1 - c1) are
    // dropped, and so are those of a-type after it; both captures are kept.
    assert_eq!(
        legal("b1 d1 f1", "e1 g1"),
        ["Runner d1 x e1", "Runner f1 x g1"]
    );
}

#[test]
fn move_priorities_rank_only_the_legal_turns() {
    // White's Runner on d1 shields its King on e1 from Black's Slider on a1. Its a-type
    // jump over the King comes first in the priorities but exposes the King, so the
    // turns of the types ranked below it are the legal ones.
    let rest = r#"
   (move-priorities a-type)
   (piece (name King))
   (piece
      (name Runner)
      (moves
         (w (verify empty?) add)
         (move-type c-type) (w w (verify empty?) add)
         (move-type a-type) (e e (verify empty?) add)))
   (piece (name Slider) (moves (e (while empty? e) (verify enemy?) add)))
   (board-setup (White (King e1) (Runner d1)) (Black (Slider a1)))
   (loss-condition (White Black) (checkmated King))"#;
    let engine = interpret_text("shield.zrf", &one_row_game("Shield", "a/b/c/d/e/f/g", rest));
    let every_move = listed(&engine, &engine.start(), "");
    assert_eq!(every_move, ["Runner d1 - c1", "Runner d1 - b1"]);
}

#[test]
fn a_capture_counts_as_an_attack_unless_it_leaves_as_many_royal_type_pieces() {
    // Next to Black's King, White's King could be taken: stepping there is illegal.
    let kings = r#"
   (piece
      (name King)
      (moves (e (verify not-friend?) add) (w (verify not-friend?) add)))
   (board-setup (White (King a1)) (Black (King c1)))
   (loss-condition (White Black) (checkmated King))"#;
    let engine = interpret_text("kings.zrf", &one_row_game("Kings", "a/b/c/d", kings));
    assert_eq!(listed(&engine, &engine.start(), ""), Vec::<String>::new());
    // A taker that becomes a King as it takes leaves as many Kings on the board:
    // Zillions does not count that capture (PassiveChess.zsg record 31).
    let crowning = r#"
   (piece
      (name King)
      (moves (e (verify not-friend?) add) (w (verify not-friend?) add)))
   (piece (name Taker) (moves (w (verify enemy?) (add King))))
   (board-setup (White (King a1)) (Black (Taker c1)))
   (loss-condition (White Black) (checkmated King))"#;
    let engine = interpret_text(
        "crowning.zrf",
        &one_row_game("Crowning", "a/b/c/d", crowning),
    );
    assert_eq!(listed(&engine, &engine.start(), ""), ["King a1 - b1"]);
}

#[test]
fn kings_never_stand_side_by_side_in_chess() {
    let engine = engine("chess.zrf");
    let state = after(
        &engine,
        &[
            "Pawn e2 - e4",
            "Pawn e7 - e5",
            "King e1 - e2 @ e2 0 0",
            "King e8 - e7 @ e7 0 0",
            "King e2 - e3 @ e3 0 0",
            "King e7 - e6 @ e6 0 0",
            "King e3 - d3 @ d3 0 0",
            "King e6 - d6 @ d6 0 0",
            "King d3 - c4 @ c4 0 0",
        ],
    );
    // Not c5 nor d5 (next to the king on c4), not d7 (a pawn).
    assert_eq!(
        listed(&engine, &state, "King"),
        [
            "King d6 - e6 @ e6 0 0",
            "King d6 - c6 @ c6 0 0",
            "King d6 - e7 @ e7 0 0"
        ]
    );
}

#[test]
fn a_promotion_to_a_royal_type_is_tested_even_away_from_every_attack() {
    // Black's Hopper on e1 attacks c1 only, so the attack test on the position looks at
    // nothing near White's Runner. Its step to c1 promotes it to a King there, where the
    // Hopper can take it: the filter must test that turn, not take the position's answer.
    let rest = r#"
   (piece (name King))
   (piece
      (name Runner)
      (moves (e (verify empty?) (add King)) (e e (verify empty?) add)))
   (piece (name Hopper) (moves (w w (verify enemy?) add)))
   (board-setup (White (King a1) (Runner b1)) (Black (Hopper e1)))
   (loss-condition (White Black) (checkmated King))"#;
    let engine = interpret_text("crown.zrf", &one_row_game("Crown", "a/b/c/d/e/f/g", rest));
    assert_eq!(listed(&engine, &engine.start(), ""), ["Runner b1 - d1"]);
}

#[test]
fn the_royal_filter_handles_more_turns_than_it_screens() {
    // Seventy Runners may each step east, and the one on q144 may take the Black piece
    // on q145. When that piece is a Slider, White's King next to it is attacked: only
    // taking it, the last turn generated, is legal. A Rock attacks nothing: every turn is.
    let files: Vec<String> = (0..150).map(|i| format!("q{i}-")).collect();
    let runners: Vec<String> = (0..140).step_by(2).map(|i| format!("q{i}-1")).collect();
    let crowd = |black: &str| {
        let rest = format!(
            r#"
   (piece (name King))
   (piece (name Runner) (moves (e (verify empty?) add) (e (verify enemy?) add)))
   (piece (name Slider) (moves (e (while empty? e) (verify enemy?) add)))
   (piece (name Rock))
   (board-setup (White (King q149-1) (Runner {} q144-1)) (Black ({black} q145-1)))
   (loss-condition (White Black) (checkmated King))"#,
            runners.join(" ")
        );
        interpret_text("crowd.zrf", &one_row_game("Crowd", &files.join("/"), &rest))
    };
    let attacked = crowd("Slider");
    assert_eq!(
        listed(&attacked, &attacked.start(), ""),
        ["Runner q144-1 x q145-1"]
    );
    let safe = crowd("Rock");
    let every_move = listed(&safe, &safe.start(), "");
    assert_eq!(every_move.len(), 71);
    assert_eq!(every_move[70], "Runner q144-1 x q145-1");
    // Counted, not listed: the 70 steps onto empty squares that the screen decides, and
    // the capture (listed, as its square is the attack test's); with the Slider, none
    // of the steps (the position before is attacked) and the capture.
    let mut buffer = Vec::new();
    assert_eq!(safe.legal_move_count(&safe.start(), &mut buffer), 71);
    assert_eq!(attacked.legal_move_count(&attacked.start(), &mut buffer), 1);
}

#[test]
fn legal_moves_are_counted_as_many_as_are_listed() {
    // Two templates make the same step: the turns repeat, and counting them as they
    // come would count it twice. The count is the list's, with the repeat dropped.
    let rest = r#"
   (piece (name King))
   (piece (name Runner) (moves (e (verify empty?) add) (e (verify empty?) add)))
   (board-setup (White (King a1) (Runner c1)) (Black (King g1)))
   (loss-condition (White Black) (checkmated King))"#;
    let twice = interpret_text("twice.zrf", &one_row_game("Twice", "a/b/c/d/e/f/g", rest));
    let mut buffer = Vec::new();
    assert_eq!(listed(&twice, &twice.start(), ""), ["Runner c1 - d1"]);
    assert_eq!(twice.legal_move_count(&twice.start(), &mut buffer), 1);
    // Random positions of every sample (royal pieces, checks, promotions, drops,
    // castling, priorities, capture chains): the count is the list's length (debug
    // builds also check each count against the list).
    let samples = [
        "chess.zrf",
        "xiangqi.zrf",
        "minishogi.zrf",
        "checkers.zrf",
        "breakthrough.zrf",
        "hopdrop.zrf",
        "tictactoe.zrf",
    ];
    for sample in samples {
        let engine = engine(sample);
        let mut positions = 0;
        for seed in 1..=3 {
            zrf_search::playout(&engine, seed, 120, |state| {
                let count = engine.legal_move_count(state, &mut buffer);
                assert_eq!(
                    count,
                    engine.legal_moves(state).len(),
                    "{sample}, seed {seed}"
                );
                positions += 1;
                true
            });
        }
        assert!(positions > 20, "{sample}: {positions} positions");
    }
}

#[test]
fn turns_counted_unmade_are_ranked_by_move_priorities_with_those_listed() {
    // No royal piece: every plain step is counted, not made. The Runner may take (top
    // priority, none here), leap two squares (`fast`, crowning it in one template) or
    // step one (`slow`); priorities keep only the best type present.
    let runner = |fast: &str| {
        let rest = format!(
            r#"
   (move-priorities take fast slow)
   (piece (name King))
   (piece
      (name Runner)
      (moves
         (move-type take) (e (verify enemy?) add)
         (move-type fast) {fast}
         (move-type slow) (e (verify empty?) add) (w (verify empty?) add)))
   (board-setup (White (Runner c1)) (Black (King g1)))
   (loss-condition (White Black) stalemated)"#
        );
        interpret_text(
            "runner.zrf",
            &one_row_game("Runner", "a/b/c/d/e/f/g", &rest),
        )
    };
    let mut buffer = Vec::new();
    // Counted `slow` steps, then a counted `fast` leap: two types counted, so the list
    // is made to rank them.
    let plain = runner("(e e (verify empty?) add)");
    assert_eq!(listed(&plain, &plain.start(), ""), ["Runner c1 - e1"]);
    assert_eq!(plain.legal_move_count(&plain.start(), &mut buffer), 1);
    // The leap crowns: it is listed, not counted, and outranks the counted steps.
    let crowning = runner("(e e (verify empty?) (add King))");
    assert_eq!(
        listed(&crowning, &crowning.start(), ""),
        ["Runner c1 - e1 = King"]
    );
    assert_eq!(crowning.legal_move_count(&crowning.start(), &mut buffer), 1);
    // No leap: the counted steps are the best present.
    let stepping = runner("(e e (verify enemy?) add)");
    assert_eq!(listed(&stepping, &stepping.start(), "").len(), 2);
    assert_eq!(stepping.legal_move_count(&stepping.start(), &mut buffer), 2);
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

#[test]
fn jumps_counted_where_their_chains_end_are_counted_once_however_often_they_are_written() {
    // The jump is written twice: each of its turns comes twice and is listed once. A
    // perft's last ply counts a jump whose chain ends as it lands instead of listing
    // it, and must still count it once; a chain that goes on is listed as one turn.
    let rest = r#"
   (piece (name Man)
      (moves (move-type jumps) (jump e) (jump e) (move-type steps) (e (verify empty?) add)))
   (move-priorities jumps steps)
   (board-setup (White (Man a1 f1)) (Black (Man b1 d1 g1)))"#;
    let rules = one_row_game("Jumps", "a/b/c/d/e/f/g/h/i/j", rest).replace(
        "(game",
        "(define jump ($1 (verify enemy?) capture $1 (verify empty?) (add-partial jumps)))\n(game",
    );
    let engine = interpret_text("jumps.zrf", &rules);
    let start = engine.start();
    assert_eq!(
        listed(&engine, &start, ""),
        ["Man a1 - c1 x b1; Man c1 - e1 x d1", "Man f1 - h1 x g1"]
    );
    let mut buffer = Vec::new();
    assert_eq!(engine.legal_move_count(&start, &mut buffer), 2);
    // Written once, the ended jump is counted unlisted, beside the chain listed.
    let once = interpret_text("once.zrf", &rules.replace("(jump e) (jump e)", "(jump e)"));
    assert_eq!(once.legal_move_count(&once.start(), &mut buffer), 2);
}

/// The interpreter for rules given as text, written to a file named `name`.
fn interpret_text(name: &str, rules: &str) -> interp::Interpreted {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join(name);
    std::fs::write(&path, rules).expect("rules written");
    zrf::build::Config::new()
        .quiet(true)
        .interpret(&path)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The rules of a game for White and Black on one row of squares named `files` (as
/// `"a/b/c/d"`), linked east and west; `rest` gives its pieces, setup and goals.
fn one_row_game(title: &str, files: &str, rest: &str) -> String {
    format!(
        r#"
(game
   (title "{title}")
   (players White Black)
   (turn-order White Black)
   (board
      (grid
         (start-rectangle 0 0 10 10)
         (dimensions ("{files}" (10 0)) ("1" (0 10)))
         (directions (e 1 0) (w -1 0)))){rest})
"#
    )
}

/// The position after `moves`, each in saved-game notation.
pub fn after(engine: &interp::Interpreted, moves: &[&str]) -> State {
    let mut state = engine.start();
    for wanted in moves {
        let legal = engine.legal_moves(&state);
        let mv = legal
            .iter()
            .find(|m| engine.notation(&state, m) == *wanted)
            .unwrap_or_else(|| panic!("{wanted} should be legal"));
        state = engine.play(&state, mv);
    }
    state
}

fn listed(engine: &interp::Interpreted, state: &State, piece: &str) -> Vec<String> {
    engine
        .legal_moves(state)
        .iter()
        .map(|m| engine.notation(state, m))
        .filter(|m| m.starts_with(piece))
        .collect()
}

#[test]
fn chess_sample_matches_published_perft() {
    // Depths 4 and 5 (197,281 and 4,865,609, en passant included) run in release in
    // .ci/run.
    assert_eq!(counts("chess.zrf", 3), [20, 400, 8902]);
}

#[test]
fn chess_castling_needs_unattacked_squares() {
    let engine = engine("chess.zrf");
    let open = after(
        &engine,
        &[
            "Pawn e2 - e4",
            "Pawn b7 - b6",
            "Pawn g2 - g3",
            "Pawn e7 - e6",
            "Bishop f1 - g2",
            "Pawn e6 - e5",
            "Knight g1 - f3",
            "Pawn a7 - a6",
        ],
    );
    assert_eq!(
        listed(&engine, &open, "King"),
        [
            "King e1 - e2 @ e2 0 0",
            "King e1 - f1 @ f1 0 0",
            "King e1 - g1 Rook h1 - f1 @ g1 0 0 @ f1 0 0"
        ]
    );
    // The bishop on a6 sees e2 and f1: the king can neither step there nor castle.
    let covered = after(
        &engine,
        &[
            "Pawn e2 - e4",
            "Pawn b7 - b6",
            "Pawn g2 - g3",
            "Bishop c8 - a6",
            "Bishop f1 - g2",
            "Pawn e7 - e6",
            "Knight g1 - f3",
            "Pawn e6 - e5",
        ],
    );
    assert!(listed(&engine, &covered, "King").is_empty());
}

#[test]
fn chess_en_passant_follows_a_double_step_only() {
    let engine = engine("chess.zrf");
    let state = after(
        &engine,
        &[
            "Pawn e2 - e4",
            "Pawn a7 - a6",
            "Pawn e4 - e5",
            "Pawn f7 - f5",
        ],
    );
    assert_eq!(
        listed(&engine, &state, "Pawn e5"),
        ["Pawn e5 - e6", "Pawn e5 - f6 x f5"]
    );
    let state = after(
        &engine,
        &[
            "Pawn e2 - e4",
            "Pawn f7 - f6",
            "Pawn e4 - e5",
            "Pawn f6 - f5",
        ],
    );
    assert_eq!(listed(&engine, &state, "Pawn e5"), ["Pawn e5 - e6"]);
}

/// Blue stone on a3 with red stones on b3 and d3, c3 and e3 empty, Blue to move.
const HOP_SETUP: [&str; 7] = [
    "Stone b1 - b2",
    "Blue Stone a4",
    "Stone b2 - b3",
    "Stone a4 - a3",
    "Stone d1 - d2",
    "Stone d5 - e5",
    "Stone d2 - d3",
];

#[test]
fn hop_and_drop_combines_drops_partial_moves_and_attributes() {
    // 6 steps and 8 drops at depth 1; the sides cannot meet within two plies.
    assert_eq!(counts("hopdrop.zrf", 4), [14, 196, 2758, 38809]);
    let engine = engine("hopdrop.zrf");
    let state = after(&engine, &HOP_SETUP);
    // With "pass partial", the turn may stop after the first jump or go on.
    assert_eq!(
        listed(&engine, &state, "Stone a3"),
        [
            "Stone a3 - a4",
            "Stone a3 - a2",
            "Stone a3 - c3 x b3 @ c3 0 1",
            "Stone a3 - c3 x b3 @ c3 0 1; Stone c3 - e3 x d3 @ e3 0 1",
        ]
    );
    // The stone that captured is a veteran and may step diagonally.
    let mut moves = HOP_SETUP.to_vec();
    moves.extend([
        "Stone a3 - c3 x b3 @ c3 0 1; Stone c3 - e3 x d3 @ e3 0 1",
        "Red Stone a1",
    ]);
    let state = after(&engine, &moves);
    assert_eq!(
        listed(&engine, &state, "Stone e3"),
        [
            "Stone e3 - e4",
            "Stone e3 - e2",
            "Stone e3 - d3",
            "Stone e3 - d4",
            "Stone e3 - d2"
        ]
    );
    // Red lost both stones to the double jump but dropped one: the game goes on.
    assert_eq!(engine.outcome(&state, &engine.legal_moves(&state)), None);
}

/// The index of the square the chess sample calls `name`.
fn square(engine: &interp::Interpreted, name: &str) -> u32 {
    let positions = &engine.tables.positions;
    positions.iter().position(|p| p == name).expect("a square") as u32
}

#[test]
fn the_reach_of_a_knight_is_its_eight_leaps() {
    let engine = engine("chess.zrf");
    let tables = &engine.tables;
    let reach = tables
        .reach
        .as_ref()
        .expect("chess asks whether kings are attacked");
    let knight = tables
        .pieces
        .iter()
        .position(|p| p.name == "Knight")
        .expect("a knight") as u16;
    let d4 = square(&engine, "d4");
    let hit: Vec<&str> = (0..tables.positions.len() as u32)
        .filter(|&to| reach.may_hit(0, knight, d4, &[to]))
        .map(|to| tables.positions[to as usize].as_str())
        .collect();
    let mut expected = ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"];
    let mut hit = hit;
    hit.sort_unstable();
    expected.sort_unstable();
    assert_eq!(hit, expected);
}

#[test]
fn the_reach_table_holds_on_every_position_of_random_games() {
    let engine = engine("chess.zrf");
    for seed in 1..=6 {
        let mut checked = 0;
        zrf_search::playout(&engine, seed, 200, |state| {
            assert_eq!(
                engine.reach_violation(state),
                None,
                "seed {seed}, ply {checked}"
            );
            checked += 1;
            true
        });
        assert!(checked > 20, "seed {seed}: {checked} plies");
    }
}

#[test]
fn legal_moves_keep_exactly_the_pseudo_legal_moves_that_leave_the_king_safe() {
    // The legal-move filter carries the attack test's squares over from the position to
    // each candidate; the violation check plays each candidate and scans afresh.
    let engine = engine("chess.zrf");
    let mut tested = 0;
    for seed in 1..=4 {
        zrf_search::playout(&engine, seed, 150, |state| {
            assert_eq!(engine.royal_guard_violation(state), None, "seed {seed}");
            tested += 1;
            true
        });
    }
    assert!(tested > 100, "{tested} positions");
}

#[test]
fn position_hashes_kept_along_a_game_match_hashing_from_scratch() {
    // Each position's hash is worked out from the one before and the squares the move
    // changed; captures, promotions, attributes, drops and stocks must all come out as a
    // full rehash does.
    for sample in ["chess.zrf", "checkers.zrf", "hopdrop.zrf"] {
        let engine = engine(sample);
        let mut checked = 0;
        for seed in 1..=3 {
            zrf_search::playout(&engine, seed, 200, |state| {
                if let Some(hash) = state.played_hash() {
                    assert_eq!(hash, state.position_hash(&engine.tables), "{sample}");
                    checked += 1;
                }
                true
            });
        }
        assert!(checked > 50, "{sample}: {checked} positions");
    }
}

#[test]
fn a_turn_made_in_place_gives_the_position_play_gives_and_taking_it_back_restores_it() {
    // Every legal turn of every position of random games, made on the position itself
    // and taken back: castling, en passant and promotion (chess), capture chains
    // (checkers), drops, stocks and attributes (hop and drop), cannons (xiangqi).
    for sample in PLAYED_SAMPLES {
        let engine = engine(sample);
        let mut turns = 0;
        for seed in 1..=4 {
            zrf_search::playout(&engine, seed, 120, |state| {
                let before = state.snapshot();
                let mut scratch = state.clone();
                for mv in engine.legal_moves(state) {
                    let played = engine.play(state, &mv).snapshot();
                    let undo = engine.make(&mut scratch, &mv);
                    assert_eq!(scratch.snapshot(), played, "{sample}: made in place");
                    engine.unmake(&mut scratch, undo);
                    assert_eq!(scratch.snapshot(), before, "{sample}: taken back");
                    turns += 1;
                }
                true
            });
        }
        assert!(turns > 500, "{sample}: {turns} turns");
    }
}

#[test]
fn replies_made_and_taken_back_under_a_turn_made_in_place_see_the_history_play_gives() {
    // A search makes a turn, then each reply, taking each back before the next: the
    // history the position after a reply holds (its own and the turn's) is the one
    // play gives, and taking the replies back leaves the turn's position as it was.
    for sample in PLAYED_SAMPLES {
        let engine = engine(sample);
        let mut replies = 0;
        zrf_search::playout(&engine, 7, 40, |state| {
            let mut scratch = state.clone();
            for mv in engine.legal_moves(state).into_iter().take(3) {
                let played = engine.play(state, &mv);
                let undo = engine.make(&mut scratch, &mv);
                for reply in engine.legal_moves(&played) {
                    let expected = engine.play(&played, &reply).snapshot();
                    let inner = engine.make(&mut scratch, &reply);
                    assert_eq!(
                        scratch.snapshot(),
                        expected,
                        "{sample}: reply made in place"
                    );
                    engine.unmake(&mut scratch, inner);
                    replies += 1;
                }
                assert_eq!(
                    scratch.snapshot(),
                    played.snapshot(),
                    "{sample}: replies taken back"
                );
                engine.unmake(&mut scratch, undo);
            }
            true
        });
        assert!(replies > 300, "{sample}: {replies} replies");
    }
}

/// Chess perft 4 from `start` under an attack test that trusts a wrong reach table:
/// release builds miss checks and count otherwise than 197,281; debug builds check
/// every attack test (castling asks `attacked?`) against every template, and stop.
fn assert_perft_changes_or_is_stopped(engine: &interp::Interpreted, start: &State) {
    let counted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        zrf_search::perft(engine, start, 4)
    }));
    match (counted, cfg!(debug_assertions)) {
        (Ok(count), false) => assert_ne!(count, 197_281),
        (Ok(_), true) => panic!("the missed check went unnoticed"),
        (Err(_), debug) => assert!(debug, "perft panicked in a release build"),
    }
}

#[test]
fn a_reach_table_that_misses_a_move_is_caught() {
    let mut engine = engine("chess.zrf");
    let tables = &engine.tables;
    let (players, kinds, positions) =
        (tables.players.len(), tables.kinds(), tables.positions.len());
    // Every type bounded, reaching nothing: a capture is outside. (Moves onto squares
    // their templates found empty remove nothing, and are in no reach.)
    engine.tables.reach = Some(
        zrf_runtime::Reach::new(
            players,
            kinds,
            positions,
            vec![true; players * kinds],
            vec![0; players * kinds * positions * positions.div_ceil(64)],
        )
        .expect("sizes agree"),
    );
    let start = engine.start();
    assert_eq!(engine.reach_violation(&start), None);
    let capture = after(&engine, &["Pawn e2 - e4", "Pawn d7 - d5"]);
    let violation = engine.reach_violation(&capture).expect("a violation");
    // e4 takes d5: a move onto an occupied square.
    assert_eq!(
        violation,
        "Pawn on e4: Move { from: 36, to: 27 } outside its reach"
    );
    // And the attack test, trusting it, no longer sees checks: perft changes.
    assert_perft_changes_or_is_stopped(&engine, &start);
    // Debug builds check the attack test against every piece's every template.
    if cfg!(debug_assertions) {
        let check = after(&engine, &["Pawn e2 - e4", "Pawn f7 - f5", "Queen d1 - h5"]);
        let asked =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.in_check(&check)));
        assert!(asked.is_err(), "the missed check went unnoticed");
    }
}

#[test]
fn can_take_names_the_pieces_a_first_step_could_remove() {
    let engine = engine("chess.zrf");
    let state = after(&engine, &["Pawn e2 - e4", "Pawn d7 - d5"]);
    let takeable = |state: &State| -> Vec<&str> {
        (0..engine.tables.positions.len() as u32)
            .filter(|&pos| engine.can_take(state, pos))
            .map(|pos| engine.tables.positions[pos as usize].as_str())
            .collect()
    };
    // White to move: only exd5 takes; its own pieces and empty squares are not asked.
    assert_eq!(takeable(&state), ["d5"]);
    let state = after(&engine, &["Pawn e2 - e4", "Pawn d7 - d5", "Bishop f1 - b5"]);
    // Black, in check from b5: only dxe4 takes anything; nothing reaches the bishop.
    assert_eq!(takeable(&state), ["e4"]);
    // The general path: every pseudo-legal first step of the player to move.
    for seed in 1..=4 {
        zrf_search::playout(&engine, seed, 150, |state| {
            let turn = engine.turn(state);
            let mut removed = vec![false; engine.tables.positions.len()];
            for mv in engine.pseudo_legal(state, turn) {
                for change in &mv.steps[0].changes {
                    if let zrf_runtime::Change::Move { to: pos, .. }
                    | zrf_runtime::Change::Capture { pos } = *change
                    {
                        removed[pos as usize] = true;
                    }
                }
            }
            for (pos, &hit) in removed.iter().enumerate() {
                let theirs = state.at(pos as u32).is_some_and(|p| p.owner != turn.player);
                assert_eq!(engine.can_take(state, pos as u32), hit && theirs, "{pos}");
            }
            true
        });
    }
}

#[test]
fn step_bounds_too_small_or_a_wrong_anchor_are_caught() {
    let mut engine = engine("chess.zrf");
    let reach = engine
        .tables
        .reach
        .clone()
        .expect("chess has a reach table");
    let data = reach.data();
    let (bounds, anchored) = (data.step_bounds.to_vec(), data.anchored.to_vec());
    // As compiled: a knight on b1 may make 3 steps, a rook 14 anywhere, a queen 27 in
    // the centre; only the king's steps (castling moves the rook) start elsewhere.
    let tables = &engine.tables;
    let square = |name: &str| {
        tables
            .positions
            .iter()
            .position(|p| p == name)
            .expect("a square")
    };
    let kind = |name: &str| {
        tables
            .pieces
            .iter()
            .position(|p| p.name == name)
            .expect("a type")
    };
    let bound = |kind: usize, pos: usize| bounds[kind * tables.positions.len() + pos];
    assert_eq!(bound(kind("Knight"), square("b1")), 3);
    assert_eq!(bound(kind("Rook"), square("a1")), 14);
    assert_eq!(bound(kind("Queen"), square("d4")), 27);
    let loose: Vec<&str> = (0..tables.kinds())
        .filter(|&k| !anchored[k])
        .map(|k| tables.pieces[k].name.as_str())
        .collect();
    assert_eq!(loose, ["King"]);
    // And the king's steps start elsewhere only on the rooks' squares of its castlings:
    // from e1, on a1 and h1; from d4, only on g4, the long castling needing four
    // squares to its side (this file's castling needs no unmoved pieces).
    let starts = |kind: usize, from: &str| -> Vec<&str> {
        (tables.positions.iter().enumerate())
            .filter(|&(start, _)| start != square(from))
            .filter(|&(start, _)| reach.may_start_on(0, kind as _, square(from) as _, start as _))
            .map(|(_, name)| name.as_str())
            .collect()
    };
    assert_eq!(starts(kind("King"), "e1"), ["a1", "h1"]);
    assert_eq!(starts(kind("King"), "d4"), ["g4"]);
    assert_eq!(starts(kind("King"), "h1"), ["d1"]);
    assert!(starts(kind("Rook"), "h1").is_empty());
    // Castling is possible: the king's step that moves the rook starts on h1.
    let castling = after(
        &engine,
        &[
            "Pawn e2 - e4",
            "Pawn e7 - e5",
            "Knight g1 - f3",
            "Knight g8 - f6",
            "Bishop f1 - c4",
            "Bishop f8 - c5",
        ],
    );
    assert_eq!(engine.reach_violation(&castling), None);
    let with = |bounds: Vec<u16>, anchored: Vec<bool>| {
        Some(
            reach
                .clone()
                .with_step_bounds(bounds, anchored)
                .expect("sizes agree"),
        )
    };
    // Every bound one: the pawns' double steps are past it.
    engine.tables.reach = with(vec![1; bounds.len()], anchored.clone());
    let violation = engine.reach_violation(&castling).expect("a violation");
    assert!(
        violation.contains("more than its bound of 1"),
        "{violation}"
    );
    // Every type anchored: castling is not.
    engine.tables.reach = with(bounds.clone(), vec![true; anchored.len()]);
    let violation = engine.reach_violation(&castling).expect("a violation");
    assert!(
        violation.contains("King on e1") && violation.contains("elsewhere"),
        "{violation}"
    );
    // The king loose, but no square named where its steps start elsewhere.
    let nowhere = vec![0; reach.data().starts_elsewhere.len()];
    engine.tables.reach = with(bounds.clone(), anchored.clone())
        .map(|reach| reach.with_starts_elsewhere(nowhere).expect("sizes agree"));
    let violation = engine.reach_violation(&castling).expect("a violation");
    assert!(
        violation.contains("King on e1") && violation.contains("does not name"),
        "{violation}"
    );
}

/// Generated code writes a reach out as its data ([`zrf_runtime::ReachData`]): read back,
/// it is the same table; a table of the wrong size is refused by name.
#[test]
fn a_reach_is_rebuilt_from_its_data_and_checked() {
    for sample in ["chess.zrf", "xiangqi.zrf", "minishogi.zrf"] {
        let engine = engine(sample);
        let reach = engine.tables.reach.as_ref().expect("a reach table");
        assert_eq!(
            zrf_runtime::Reach::from_data(reach.data()).as_ref(),
            Ok(reach),
            "{sample}"
        );
    }
    let chess = engine("chess.zrf");
    // A quiescence search runs only the templates that may remove a piece or promote:
    // the king's steps that stay on the board (n, e, w, ne, nw), not its castlings,
    // which land on squares they found empty; the pawn's push (it may promote), its
    // captures and en passant, not its double step.
    let reach = chess.tables.reach.as_ref().expect("a reach table");
    let kind = |name: &str| {
        (chess.tables.pieces.iter())
            .position(|p| p.name == name)
            .expect("a type") as u16
    };
    let (e1, e2) = (crate::position(&chess, "e1"), crate::position(&chess, "e2"));
    assert_eq!(reach.loud_templates(0, kind("King"), e1), 0b0011_1011);
    assert_eq!(reach.loud_templates(0, kind("Pawn"), e2), 0b111101);
    let data = reach.data();
    let short = &data.step_bounds[1..];
    let refused = zrf_runtime::Reach::from_data(zrf_runtime::ReachData {
        step_bounds: short,
        ..data
    });
    assert_eq!(
        refused.map(|_| ()).map_err(|e| e.to_string()),
        Err(
            "inconsistent game tables: reach: step bounds: 767 entries where 768 are needed".into()
        )
    );
}

#[test]
fn a_template_reach_that_misses_a_move_is_caught() {
    let mut engine = engine("chess.zrf");
    let start = engine.start();
    let reach = engine
        .tables
        .reach
        .clone()
        .expect("chess has a reach table");
    let (bounded, _) = reach.parts();
    let (counts, template_bits) = reach.template_parts().expect("kept by template");
    // Within each piece type, each template given the next one's reach: the types' reach,
    // their union, is unchanged, but each template's moves are outside its own.
    let tables = &engine.tables;
    let (players, kinds, positions) =
        (tables.players.len(), tables.kinds(), tables.positions.len());
    let words = positions.div_ceil(64);
    let total: usize = counts.iter().map(|&c| c as usize).sum();
    let mut swapped = template_bits.to_vec();
    for player_square in 0..players * positions {
        let mut first = player_square * total;
        for &count in counts {
            let range = first * words..(first + count as usize) * words;
            swapped[range].rotate_left(words.min(count as usize * words));
            first += count as usize;
        }
    }
    engine.tables.reach = Some(
        zrf_runtime::Reach::from_templates(
            players,
            kinds,
            positions,
            bounded.to_vec(),
            counts.to_vec(),
            swapped,
        )
        .expect("sizes agree"),
    );
    assert!(engine
        .tables
        .reach
        .as_ref()
        .is_some_and(|r| r.parts() == reach.parts()));
    let capture = after(&engine, &["Pawn e2 - e4", "Pawn d7 - d5"]);
    let violation = engine.reach_violation(&capture).expect("a violation");
    assert!(
        violation.contains("outside the reach of its move template"),
        "{violation}"
    );
    assert_perft_changes_or_is_stopped(&engine, &start);
    // The table as compiled holds.
    engine.tables.reach = Some(reach);
    assert_eq!(engine.reach_violation(&capture), None);
    assert_eq!(zrf_search::perft(&engine, &start, 4), 197_281);
}

/// The reach of a piece is where its moves may remove a piece: not the squares its
/// templates land on only after finding them empty (a pawn's push, a drop), which the
/// attack test then never runs.
#[test]
fn moves_onto_squares_found_empty_are_outside_the_reach() {
    let reach_of = |engine: &interp::Interpreted, piece: &str, from: &str| -> Vec<String> {
        let tables = &engine.tables;
        let reach = tables.reach.as_ref().expect("a reach table");
        let square = |name: &str| tables.positions.iter().position(|p| p == name);
        let kind = (tables.pieces.iter().position(|p| p.name == piece)).expect("a type");
        let from = square(from).expect("a square");
        (tables.positions.iter().enumerate())
            .filter(|&(to, _)| reach.may_hit(0, kind as _, from as _, &[to as _]))
            .map(|(_, name)| name.clone())
            .collect()
    };
    let chess = engine("chess.zrf");
    // Its captures, and en passant beside it; not e3 or e4.
    assert_eq!(reach_of(&chess, "Pawn", "e2"), ["d3", "f3", "d2", "f2"]);
    assert_eq!(reach_of(&chess, "Knight", "b1"), ["a3", "c3", "d2"]);
    // Minishogi's drops walk the board and add on the empty squares: a piece in hand
    // reaches nothing. On the board, a gold reaches its six neighbours, and the hand
    // where it banks what it takes.
    let minishogi = engine("minishogi.zrf");
    assert_eq!(reach_of(&minishogi, "Gold", "Z1"), Vec::<String>::new());
    let hand = ["Y5", "Z5", "Y4", "Z4", "Y3", "Z3", "Y2", "Z2", "Y1", "Z1"];
    let (in_hand, on_board): (Vec<_>, Vec<_>) = reach_of(&minishogi, "Gold", "c2")
        .into_iter()
        .partition(|square| hand.contains(&square.as_str()));
    assert_eq!(on_board, ["b3", "c3", "d3", "b2", "d2", "c1"]);
    assert_eq!(in_hand, hand);
}

/// Two kings on a row of four squares that can only shuffle, with `goals`.
fn shuffle_game(goals: &str) -> interp::Interpreted {
    let rest = format!(
        r#"
   (piece
      (name King)
      (moves (e (verify empty?) add) (w (verify empty?) add)))
   (board-setup (White (King a1)) (Black (King d1)))
   {goals}"#
    );
    interpret_text("shuffle.zrf", &one_row_game("Shuffle", "a/b/c/d", &rest))
}

/// Both kings out and back twice, so that the start position is seen a third time: the
/// position reached, the outcome asked before each move, and how often each position
/// after a move had occurred.
fn shuffle_twice(engine: &interp::Interpreted) -> (State, Vec<Option<Outcome>>, Vec<usize>) {
    let mut state = engine.start();
    let (mut results, mut seen) = (Vec::new(), Vec::new());
    // Moves are played into a reused position, as a search does, into a new one, and in
    // place, as a random playout does: the history must still be the game's.
    let mut spare = engine.start();
    let moves_played = ["a1 - b1", "d1 - c1", "b1 - a1", "c1 - d1"].repeat(2);
    for (ply, notation) in moves_played.into_iter().enumerate() {
        let moves = engine.legal_moves(&state);
        results.push(engine.outcome(&state, &moves));
        let mv = moves
            .iter()
            .find(|m| engine.notation(&state, m).ends_with(notation))
            .unwrap_or_else(|| panic!("{notation} should be legal"));
        match ply % 3 {
            0 => {
                engine.play_into(&state, mv, &mut spare);
                std::mem::swap(&mut state, &mut spare);
            }
            1 => state = engine.play(&state, mv),
            _ => drop(engine.make(&mut state, mv)),
        }
        seen.push(state.occurrences(&engine.tables));
    }
    (state, results, seen)
}

#[test]
fn the_third_repetition_of_a_position_ends_the_game_in_a_draw() {
    let engine = shuffle_game("(win-condition (White Black) (captured King))");
    let (state, results, seen) = shuffle_twice(&engine);
    assert!(results.iter().all(Option::is_none), "{results:?}");
    // The second round repeats each position of the first.
    assert_eq!(seen, [1, 1, 1, 2, 2, 2, 2, 3]);
    assert_eq!(state.occurrences(&engine.tables), 3);
    let moves = engine.legal_moves(&state);
    assert_eq!(engine.outcome(&state, &moves), Some(Outcome::Draw));
}

#[test]
fn goals_that_wait_for_no_move_or_a_repetition_are_told_by_the_history() {
    // Every goal is about having no move or about repetition: while the player to move
    // has a move, only the third occurrence of a position can end the game (here a loss
    // for the player to move, by the first goal that names it).
    let engine = shuffle_game(
        "(draw-condition (White Black) stalemated) (loss-condition (White Black) repetition)",
    );
    let (state, results, _) = shuffle_twice(&engine);
    assert!(results.iter().all(Option::is_none), "{results:?}");
    assert_eq!(state.occurrences(&engine.tables), 3);
    let moves = engine.legal_moves(&state);
    assert!(!moves.is_empty());
    assert_eq!(engine.outcome(&state, &moves), Some(Outcome::Loss(0)));
    // Without a move the stalemate goal, first in the file, decides.
    assert_eq!(engine.outcome(&state, &[]), Some(Outcome::Draw));
}

#[test]
fn a_partial_turn_is_completed_in_its_place_among_the_others() {
    // The Man's templates, in order: a step west, a step east that goes on (one more step
    // east, of the `hop` type), two steps east, and the `hop` step (a turn of its own too:
    // the turn order names no move type). The completed turn stands where its partial
    // step was generated, between the first and the third.
    let rest = r#"
   (piece
      (name Man)
      (moves
         (move-type normal)
         (w (verify empty?) add)
         (e (verify empty?) (add-partial hop))
         (e e (verify empty?) add)
         (move-type hop)
         (e (verify empty?) add)))
   (board-setup (White (Man c1)) (Black (Man h1)))
   (win-condition (White Black) (captured Man))"#;
    let engine = interpret_text("order.zrf", &one_row_game("Order", "a/b/c/d/e/f/g/h", rest));
    let state = engine.start();
    let moves = engine.legal_moves(&state);
    let written: Vec<String> = moves.iter().map(|m| engine.notation(&state, m)).collect();
    assert_eq!(
        written,
        [
            "Man c1 - b1",
            "Man c1 - d1; Man d1 - e1",
            "Man c1 - e1",
            "Man c1 - d1"
        ]
    );
}
