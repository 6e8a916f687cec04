//! Move templates of the shapes the runtime counts in bulk (leaps, slides, cannons'
//! hops, openings that guard the rest) or reads attacks off (strikes): which the
//! lowering recognises, and counts found in bulk equal to the turns listed one by one,
//! on boards where the shortcut meets its edge cases (rays that come round a cylinder,
//! neutral pieces, leaps past a square that must be empty, promotion zones, a royal
//! piece whose safety the screen decides, boards of more than 64 and more than 128
//! squares).

use std::io::Write;

use zrf::interp;
use zrf_runtime::{Game, LeapStep, Shape, Test};

use crate::perft::engine;

/// A small game on a 4x4 cylinder (east and west wrap round) with a neutral player.
const CYLINDER: &str = r#"
(define slide ($1 (while empty? add $1) (verify not-friend?) add))
(game
   (title "Cylinder")
   (players White Black Gray)
   (turn-order White Black)
   (board
      (grid
         (start-rectangle 0 0 10 10)
         (dimensions ("a/b/c/d" (10 0)) ("4/3/2/1" (0 10)))
         (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
      (links e (d1 a1) (d2 a2) (d3 a3) (d4 a4))
      (links w (a1 d1) (a2 d2) (a3 d3) (a4 d4))
      (symmetry Black (n s) (s n) (ne se) (se ne) (nw sw) (sw nw))
      (zone (name top) (players White) (positions a4 b4 c4 d4))
      (zone (name top) (players Black) (positions a1 b1 c1 d1))
      (zone (name middle) (players White Black) (positions a2 b2 c2 d2 a3 b3 c3 d3)))
   (piece
      (name King)
      (moves (n (verify not-friend?) add) (s (verify not-friend?) add)
             (e (verify not-friend?) add) (w (verify not-friend?) add)))
   (piece
      (name Rook)
      (moves (slide n) (slide e) (slide s) (slide w)))
   (piece
      (name Pawn)
      (moves
         (n (verify empty?) (if (in-zone? top) (add Rook) else add))
         (n (verify empty?) n (verify empty?) add)
         (ne (verify enemy?) add)
         (nw (verify not-friend?) add)
         (e (verify empty?) to e (verify empty?) add)))
   (piece
      (name Runner)
      (moves (e (while empty? add e)) ((verify (in-zone? middle)) sw add)))
   (board-setup
      (White (King a1) (Rook b1) (Pawn c1 d2) (Runner a2))
      (Black (King d4) (Rook c4) (Pawn a4 b3) (Runner d3))
      (Gray (Pawn b2 c3)))
   (loss-condition (White Black) (checkmated King)))
"#;

/// Draughts on a board of 72 squares whose last rank lies beyond the first 64 the
/// targets hold (no piece starts there), with `move-priorities`, typed shaped
/// templates, and a link that makes the kings' east slides along the last rank come
/// round into a loop that does not pass their square again.
const WIDE_DRAUGHTS: &str = r#"
(define step ($1 (verify empty?) (if (in-zone? crown) (add King) else add)))
(define jump ($1 (verify enemy?) capture $1 (verify empty?) (add-partial jumps)))
(define slide ($1 (while empty? add $1)))
(game
   (title "Wide draughts")
   (players White Black)
   (turn-order White Black)
   (move-priorities jumps steps)
   (board
      (grid
         (start-rectangle 0 0 10 10)
         (dimensions ("a/b/c/d/e/f/g/h/i" (10 0)) ("8/7/6/5/4/3/2/1" (0 10)))
         (directions (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1) (e 1 0)))
      (links e (i8 f8))
      (symmetry Black (ne se) (se ne) (nw sw) (sw nw))
      (zone (name crown) (players White) (positions a8 b8 c8 d8 e8 f8 g8 h8 i8))
      (zone (name crown) (players Black) (positions a1 b1 c1 d1 e1 f1 g1 h1 i1)))
   (piece
      (name Man)
      (moves (move-type jumps) (jump nw) (jump ne) (move-type steps) (step nw) (step ne)))
   (piece
      (name King)
      (moves (move-type jumps) (jump nw) (jump ne) (jump sw) (jump se)
             (move-type steps) (slide nw) (slide ne) (slide sw) (slide se) (slide e)))
   (board-setup
      (White (Man b2 d2 f2 h2 a3 c3 e3 g3 i3) (King b4))
      (Black (Man b8 d8 f8 h8 a7 c7 e7 g7 i7) (King i6)))
   (loss-condition (White Black) stalemated))
"#;

/// Cannons (a slide, then a capture past one piece) and rooks on a board of 80 squares
/// where the pieces start on both sides of square 64, one rank a ring the rays come
/// round, and kings whose safety the screen decides.
const CANNONS: &str = r#"
(define step ($1 (verify not-friend?) add))
(define slide ($1 (while empty? add $1) (verify not-friend?) add))
(define cannon ($1 (while empty? add $1) $1 (while empty? $1) (verify enemy?) add))
(define hopper ($1 (while empty? add $1) $1 (while empty? $1) (verify not-friend?) (verify (in-zone? far)) add))
(game
   (title "Cannons")
   (players White Black)
   (turn-order White Black)
   (board
      (grid
         (start-rectangle 0 0 10 10)
         (dimensions ("a/b/c/d/e/f/g/h/i/j" (10 0)) ("8/7/6/5/4/3/2/1" (0 10)))
         (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
      (links e (j4 a4))
      (symmetry Black (n s) (s n) (ne se) (se ne) (nw sw) (sw nw))
      (zone (name far) (players White) (positions a6 b6 c6 d6 e6 f6 g6 h6 i6 j6 a7 b7 c7 d7 e7 f7 g7 h7 i7 j7 a8 b8 c8 d8 e8 f8 g8 h8 i8 j8))
      (zone (name far) (players Black) (positions a3 b3 c3 d3 e3 f3 g3 h3 i3 j3 a2 b2 c2 d2 e2 f2 g2 h2 i2 j2 a1 b1 c1 d1 e1 f1 g1 h1 i1 j1)))
   (piece
      (name King)
      (moves (step n) (step e) (step s) (step w) (step ne) (step nw) (step se) (step sw)))
   (piece (name Rook) (moves (slide n) (slide e) (slide s) (slide w)))
   (piece (name Cannon) (moves (cannon n) (cannon e) (cannon s) (cannon w) (hopper ne)))
   (piece (name Pawn) (moves (step n)))
   (board-setup
      (White (King e1) (Rook a1 j1) (Cannon b2 i2 c4) (Pawn c2 d2 e2 f2 g2 h2))
      (Black (King e8) (Rook a8 j8) (Cannon b7 i7 h5) (Pawn c7 d7 e7 f7 g7 h7)))
   (loss-condition (White Black) (checkmated King)))
"#;

/// Strikes: kings that take the other king along an open file (`piece?`), lancers that
/// take only at a distance, horses whose leap passes a square that must be empty, a
/// look that tests two types (not a strike), and jesters whose steps have no shape, on a board of 72 squares whose last
/// rank, where no piece starts, lies beyond the 64 the bulk targets hold: the pieces
/// that reach it keep their code.
const STRIKES: &str = r#"
(define step ($1 (verify not-friend?) add))
(define slide ($1 (while empty? add $1) (verify not-friend?) add))
(define fly ($1 (while empty? $1) (verify (piece? King)) (verify enemy?) add))
(define lance ($1 (while empty? $1) (verify enemy?) add))
(define horse ($1 (verify empty?) $2 (verify not-friend?) add))
(define jest ((set-flag jesting true) $1 (verify not-friend?) add))
(game
   (title "Strikes")
   (players White Black)
   (turn-order White Black)
   (board
      (grid
         (start-rectangle 0 0 10 10)
         (dimensions ("a/b/c/d/e/f/g/h" (10 0)) ("9/8/7/6/5/4/3/2/1" (0 10)))
         (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
      (symmetry Black (n s) (s n) (ne se) (se ne) (nw sw) (sw nw)))
   (piece
      (name King)
      (moves (step n) (step e) (step s) (step w) (fly n) (fly s)))
   (piece (name Rook) (moves (slide n) (slide e) (slide s) (slide w)))
   (piece
      (name Lancer)
      (moves (lance n) (lance e) (lance w) (lance s) (n (verify empty?) add)
             (w (while empty? w) (verify (piece? Rook)) (verify (piece? Lancer)) add)))
   (piece (name Horse) (moves (horse n ne) (horse n nw) (horse e ne) (horse w nw)))
   (piece (name Pawn) (moves (step n)))
   (piece (name Jester) (moves (jest n) (jest e) (jest s) (jest w)))
   (board-setup
      (White (King d2) (Rook a2 h3) (Lancer c3 f2) (Horse b2 g2) (Pawn a3 e3) (Jester h2))
      (Black (King e9) (Rook a9 h8) (Lancer f8 c9) (Horse b9 g9) (Pawn a8 d8) (Jester h9)))
   (loss-condition (White Black) (checkmated King)))
"#;

/// A board of 160 squares (16 by 10) where one side starts on the first 32 and the
/// other beyond square 128, counted on sets of four words: slides whose rays cross the
/// words, leaps past a square that must be empty, a promotion zone, and kings whose
/// safety the screen decides.
const GREAT_BOARD: &str = r#"
(define step ($1 (verify not-friend?) add))
(define leap ($1 $2 (verify not-friend?) add))
(define slide ($1 (while empty? add $1) (verify not-friend?) add))
(game
   (title "Great board")
   (players White Black)
   (turn-order White Black)
   (board
      (grid
         (start-rectangle 0 0 10 10)
         (dimensions ("a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p" (10 0)) ("10/9/8/7/6/5/4/3/2/1" (0 10)))
         (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
      (links e (p5 a5))
      (symmetry Black (n s) (s n) (ne se) (se ne) (nw sw) (sw nw))
      (zone (name far) (players White) (positions a10 b10 c10 d10 e10 f10 g10 h10 i10 j10 k10 l10 m10 n10 o10 p10))
      (zone (name far) (players Black) (positions a1 b1 c1 d1 e1 f1 g1 h1 i1 j1 k1 l1 m1 n1 o1 p1)))
   (piece
      (name King)
      (moves (step n) (step e) (step s) (step w) (step ne) (step nw) (step se) (step sw)))
   (piece (name Rook) (moves (slide n) (slide e) (slide s) (slide w)))
   (piece (name Bishop) (moves (slide ne) (slide nw) (slide se) (slide sw)))
   (piece (name Knight) (moves (leap n ne) (leap n nw) (leap e ne) (leap w nw)
                               (leap s se) (leap s sw) (leap e se) (leap w sw)))
   (piece
      (name Pawn)
      (moves
         (n (verify empty?) (if (in-zone? far) (add Rook) else add))
         (n (verify empty?) n (verify empty?) add)
         (ne (verify enemy?) add)
         (nw (verify enemy?) add)))
   (board-setup
      (White (King h1) (Rook a1 p1) (Bishop c1 n1) (Knight b1 o1) (Pawn c2 f2 h2 k2 n2))
      (Black (King h10) (Rook a10 p10) (Bishop c10 n10) (Knight b10 o10) (Pawn c9 f9 h9 k9 n9)))
   (loss-condition (White Black) (checkmated King)))
"#;

fn cylinder() -> interp::Interpreted {
    interpret(CYLINDER)
}

/// Draughts with men that jump every way (jumps, a chain going on with jumps) and
/// flying kings whose templates have no shape (a capture from afar going on
/// with a type of its own): the guards end most chains of men unplayed, and the
/// kings' chains are left to their code.
const FLYING_KINGS: &str = r#"
(define step ($1 (verify empty?) (if (in-zone? crown) (add King) else add)))
(define jump ($1 (verify enemy?) capture $1 (verify empty?) (add-partial jumps)))
(define fly ((while (empty? $1) $1) $1 (verify enemy?) capture $1 (verify empty?) (add-partial $2)))
(define glide ((while (empty? $1) $1 add)))
(game
   (title "Flying kings")
   (players White Black)
   (turn-order White Black)
   (move-priorities jumps steps)
   (board
      (grid
         (start-rectangle 0 0 10 10)
         (dimensions ("a/b/c/d/e/f" (10 0)) ("6/5/4/3/2/1" (0 10)))
         (directions (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
      (symmetry Black (ne se) (se ne) (nw sw) (sw nw))
      (zone (name crown) (players White) (positions a6 b6 c6 d6 e6 f6))
      (zone (name crown) (players Black) (positions a1 b1 c1 d1 e1 f1)))
   (piece
      (name Man)
      (moves (move-type jumps) (jump nw) (jump ne) (jump sw) (jump se) (move-type steps) (step nw) (step ne)))
   (piece
      (name King)
      (moves (move-type jumps) (fly nw flights) (fly ne flights) (fly sw flights) (fly se flights)
             (move-type flights) (fly nw flights) (fly ne flights) (fly sw flights) (fly se flights)
             (move-type steps) (glide nw) (glide ne) (glide sw) (glide se)))
   (board-setup
      (White (Man a1 c1 e1 b2 d2 f2) (King a3))
      (Black (Man b6 d6 f6 a5 c5 e5) (King f4)))
   (loss-condition (White Black) stalemated))
"#;

fn interpret(rules: &str) -> interp::Interpreted {
    let mut file = tempfile::Builder::new()
        .suffix(".zrf")
        .tempfile()
        .expect("a file");
    file.write_all(rules.as_bytes()).expect("written");
    zrf::build::Config::new()
        .quiet(true)
        .interpret(file.path())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Perft with every ply's moves listed and played: what the bulk count must match.
fn listed_perft<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    let moves = game.legal_moves(state);
    if depth <= 1 {
        return moves.len() as u64;
    }
    (moves.iter())
        .map(|m| listed_perft(game, &game.play(state, m), depth - 1))
        .sum()
}

/// Perft from the start to each depth up to `depth`, counted (the last ply in bulk),
/// checked against the same counts with every ply listed.
fn perft_counted_as_listed<G: Game>(engine: &G, depth: u32) -> Vec<u64> {
    let start = engine.start();
    let counted: Vec<u64> = (1..=depth)
        .map(|d| zrf_search::perft(engine, &start, d))
        .collect();
    let listed: Vec<u64> = (1..=depth)
        .map(|d| listed_perft(engine, &start, d))
        .collect();
    assert_eq!(counted, listed);
    counted
}

fn shapes_of(engine: &interp::Interpreted, piece: &str) -> Vec<Option<Shape>> {
    let tables = &engine.tables;
    let kind = tables
        .pieces
        .iter()
        .position(|p| p.name == piece)
        .expect("the piece");
    tables.pieces[kind].shapes.clone()
}

/// The number of `name` among `names`.
fn number(names: &[String], name: &str) -> u16 {
    let number = names.iter().position(|n| n == name);
    number.unwrap_or_else(|| panic!("{name} is named")) as u16
}

fn dir(engine: &interp::Interpreted, name: &str) -> u16 {
    number(&engine.tables.directions, name)
}

fn move_type(engine: &interp::Interpreted, name: &str) -> u16 {
    number(&engine.tables.move_types, name)
}

fn step(dir: u16, tests: &[Test]) -> LeapStep {
    LeapStep {
        dir,
        tests: tests.to_vec(),
    }
}

#[test]
fn the_lowering_recognises_leaps_slides_and_openings() {
    let engine = cylinder();
    let [n, e] = [dir(&engine, "n"), dir(&engine, "e")];
    let top = engine
        .tables
        .zone_names
        .iter()
        .position(|z| z == "top")
        .expect("a zone") as u16;
    let pawn = shapes_of(&engine, "Pawn");
    assert_eq!(
        pawn,
        [
            Some(Shape::Leap {
                origin: vec![],
                steps: vec![step(n, &[Test::Empty])],
                coded_in: Some(top),
            }),
            Some(Shape::Leap {
                origin: vec![],
                steps: vec![step(n, &[Test::Empty]), step(n, &[Test::Empty])],
                coded_in: None,
            }),
            Some(Shape::Leap {
                origin: vec![],
                steps: vec![step(dir(&engine, "ne"), &[Test::Enemy])],
                coded_in: None,
            }),
            Some(Shape::Leap {
                origin: vec![],
                steps: vec![step(dir(&engine, "nw"), &[Test::NotFriend])],
                coded_in: None,
            }),
            // `to` ends the opening: the rest runs its code.
            Some(Shape::Guarded {
                origin: vec![],
                steps: vec![step(e, &[Test::Empty])],
            }),
        ]
    );
    assert_eq!(
        shapes_of(&engine, "Rook")[1],
        Some(Shape::Slide {
            origin: vec![],
            dir: e,
            then: Some(vec![Test::NotFriend]),
        })
    );
    let middle = engine.tables.zone_names.iter().position(|z| z == "middle");
    assert_eq!(
        shapes_of(&engine, "Runner"),
        [
            Some(Shape::Slide {
                origin: vec![],
                dir: e,
                then: None,
            }),
            Some(Shape::Leap {
                origin: vec![Test::InZone(middle.expect("a zone") as u16)],
                steps: vec![step(dir(&engine, "sw"), &[])],
                coded_in: None,
            }),
        ]
    );
}

#[test]
fn the_lowering_recognises_jumps_that_capture_a_square_passed_and_go_on_as_partial_moves() {
    let engine = engine("checkers.zrf");
    let [ne, nw] = [dir(&engine, "ne"), dir(&engine, "nw")];
    let crown = engine
        .tables
        .zone_names
        .iter()
        .position(|z| z == "crown-zone");
    let jump_type = Some(move_type(&engine, "jump-type"));
    let jump = |dir: u16, coded_in: Option<u16>| {
        Some(Shape::Jump {
            origin: vec![],
            steps: vec![step(dir, &[Test::Enemy]), step(dir, &[Test::Empty])],
            captured: 0,
            continue_with: jump_type,
            coded_in,
        })
    };
    // A man crowned on the last row runs its code there.
    let crown = crown.map(|zone| zone as u16);
    assert_eq!(
        shapes_of(&engine, "Man")[..2],
        [jump(ne, crown), jump(nw, crown)]
    );
    assert_eq!(
        shapes_of(&engine, "King")[..2],
        [jump(ne, None), jump(nw, None)]
    );
    // A second capture, or one before any step, leaves only the opening as a guard.
    let written = "$1 (verify enemy?) capture $1 (verify empty?) (add-partial jumps)";
    for rewritten in [
        "$1 (verify enemy?) capture $1 (verify empty?) capture (add-partial jumps)",
        "capture $1 (verify enemy?) $1 (verify empty?) (add-partial jumps)",
    ] {
        let man = shapes_of(&interpret(&FLYING_KINGS.replace(written, rewritten)), "Man");
        assert!(
            matches!(man[0], Some(Shape::Guarded { .. })),
            "{rewritten}: {:?}",
            man[0]
        );
    }
}

#[test]
fn chess_castling_keeps_its_code_and_its_other_moves_have_shapes() {
    let engine = engine("chess.zrf");
    let king = shapes_of(&engine, "King");
    // Eight steps that set an attribute (guarded by their first test), two castlings.
    assert_eq!(king.len(), 10);
    assert!(king[..8]
        .iter()
        .all(|s| matches!(s, Some(Shape::Guarded { .. }))));
    assert_eq!(king[8..], [None, None]);
    assert!(shapes_of(&engine, "Knight")
        .iter()
        .all(|s| matches!(s, Some(Shape::Leap { steps, .. }) if steps.len() == 2)));
}

#[test]
fn a_template_that_only_tests_its_square_first_is_guarded_by_that_test() {
    let engine = engine("minishogi.zrf");
    let board = engine
        .tables
        .zone_names
        .iter()
        .position(|z| z == "board-zone");
    let board = board.expect("a zone") as u16;
    // The drop from the hand (`(verify (not-in-zone? board-zone)) a1 …`): never run
    // from a square of the board.
    assert_eq!(
        shapes_of(&engine, "Gold").last(),
        Some(&Some(Shape::Guarded {
            origin: vec![Test::NotInZone(board)],
            steps: vec![],
        }))
    );
}

#[test]
fn bulk_counts_equal_the_turns_listed_on_a_cylinder_with_neutral_pieces() {
    assert_eq!(perft_counted_as_listed(&cylinder(), 4), [5, 26, 171, 914]);
}

#[test]
fn bulk_counts_equal_the_turns_listed_under_priorities_on_a_board_of_72_squares() {
    let engine = interpret(WIDE_DRAUGHTS);
    assert_eq!(engine.tables.positions.len(), 72);
    assert_eq!(perft_counted_as_listed(&engine, 4), [16, 223, 3392, 51458]);
    let checked: usize = (1..=20)
        .map(|seed| count_along_playout(&engine, seed, 150, "wide draughts"))
        .sum();
    assert!(checked > 500, "wide draughts: {checked} plies");
}

#[test]
fn cannons_hop_and_bulk_counts_equal_the_turns_listed_on_a_board_of_80_squares() {
    let engine = interpret(CANNONS);
    assert_eq!(engine.tables.positions.len(), 80);
    let far = engine.tables.zone_names.iter().position(|z| z == "far");
    let cannon = shapes_of(&engine, "Cannon");
    assert_eq!(
        cannon[0],
        Some(Shape::Hop {
            origin: vec![],
            dir: dir(&engine, "n"),
            tests: vec![Test::Enemy],
        })
    );
    assert_eq!(
        cannon[4],
        Some(Shape::Hop {
            origin: vec![],
            dir: dir(&engine, "ne"),
            tests: vec![Test::NotFriend, Test::InZone(far.expect("a zone") as u16)],
        })
    );
    assert_eq!(perft_counted_as_listed(&engine, 3), [60, 3066, 161168]);
    let checked: usize = (1..=20)
        .map(|seed| count_along_playout(&engine, seed, 150, "cannons"))
        .sum();
    assert!(checked > 500, "cannons: {checked} plies");
}

#[test]
fn strikes_are_recognised_and_the_royal_guard_reading_them_lists_the_turns_listed() {
    // Debug builds check every answer of the guard's test after a turn that moves one
    // piece, which reads the strikes off the bulk targets, against the code run on the
    // position after.
    let engine = interpret(STRIKES);
    assert_eq!(engine.tables.positions.len(), 72);
    let king_kind = (engine.tables.pieces.iter()).position(|p| p.name == "King");
    let [n, e, w] = ["n", "e", "w"].map(|name| dir(&engine, name));
    assert_eq!(
        shapes_of(&engine, "King")[4],
        Some(Shape::Strike {
            origin: vec![],
            dir: n,
            tests: vec![Test::Enemy],
            piece: king_kind.map(|k| k as u16),
        })
    );
    let lancer = shapes_of(&engine, "Lancer");
    assert_eq!(
        lancer[1],
        Some(Shape::Strike {
            origin: vec![],
            dir: e,
            tests: vec![Test::Enemy],
            piece: None,
        })
    );
    // Two type tests are not a strike: only the opening guards the rest.
    assert_eq!(
        lancer[5],
        Some(Shape::Guarded {
            origin: vec![],
            steps: vec![step(w, &[])],
        })
    );
    assert_eq!(perft_counted_as_listed(&engine, 3), [24, 445, 10201]);
    let checked: usize = (1..=20)
        .map(|seed| count_along_playout(&engine, seed, 150, "strikes"))
        .sum();
    assert!(checked > 500, "strikes: {checked} plies");
}

#[test]
fn bulk_counts_equal_the_turns_listed_on_a_board_of_160_squares() {
    let engine = interpret(GREAT_BOARD);
    assert_eq!(engine.tables.positions.len(), 160);
    assert_eq!(perft_counted_as_listed(&engine, 3), [58, 3156, 182388]);
    let checked: usize = (1..=20)
        .map(|seed| count_along_playout(&engine, seed, 150, "great board"))
        .sum();
    assert!(checked > 500, "great board: {checked} plies");
}

#[test]
fn pieces_of_a_type_counted_together_on_a_board_of_160_squares_equal_the_turns_listed() {
    // Eleven men a side of one leap, more than one per word of the four-word set: each
    // side's men are counted together by shifting their bitset, White's on the set's
    // second word.
    let rules = GREAT_BOARD
        .replace(
            "   (board-setup",
            "   (piece (name Man) (moves (step n)))\n   (board-setup",
        )
        .replace(
            "(Pawn c2 f2 h2 k2 n2))",
            "(Pawn c2 f2 h2 k2 n2) (Man a3 b3 d3 e3 g3 i3 j3 l3 m3 o3 p3))",
        )
        .replace(
            "(Pawn c9 f9 h9 k9 n9))",
            "(Pawn c9 f9 h9 k9 n9) (Man a9 b9 d9 e9 g9 i9 j9 l9 m9 o9 p9))",
        );
    let engine = interpret(&rules);
    assert_eq!(perft_counted_as_listed(&engine, 3), [35, 945, 34561]);
    let checked: usize = (1..=20)
        .map(|seed| count_along_playout(&engine, seed, 150, "great board with men"))
        .sum();
    assert!(checked > 500, "great board with men: {checked} plies");
}

#[test]
fn chains_the_guards_end_unplayed_are_the_turns_their_code_lists() {
    // Debug builds check every chain the guards end against the templates' code run on
    // the position after its step.
    let engine = interpret(FLYING_KINGS);
    assert!(shapes_of(&engine, "King").is_empty());
    let nw = dir(&engine, "nw");
    assert_eq!(
        shapes_of(&engine, "Man")[0],
        Some(Shape::Jump {
            origin: vec![],
            steps: vec![step(nw, &[Test::Enemy]), step(nw, &[Test::Empty])],
            captured: 0,
            continue_with: Some(move_type(&engine, "jumps")),
            coded_in: None,
        })
    );
    assert_eq!(
        perft_counted_as_listed(&engine, 8),
        [5, 18, 42, 118, 335, 864, 2321, 6382]
    );
    let checked: usize = (1..=20)
        .map(|seed| count_along_playout(&engine, seed, 150, "flying kings"))
        .sum();
    assert!(checked > 300, "flying kings: {checked} plies");
    // Men's chains going on with the counted type, whose counted leaps add steps: only
    // the guards end those.
    let on_with_steps = FLYING_KINGS.replace("(add-partial jumps)", "(add-partial steps)");
    assert_eq!(
        perft_counted_as_listed(&interpret(&on_with_steps), 8),
        [5, 18, 45, 126, 364, 922, 2676, 7607]
    );
}

/// Plays a random game of `plies` from `seed`, checking at every position that the
/// legal turns counted are as many as those listed; how many positions it checked.
fn count_along_playout<G: Game>(engine: &G, seed: u64, plies: usize, what: &str) -> usize {
    let mut checked = 0;
    let mut buffer = Vec::new();
    zrf_search::playout(engine, seed, plies, |state: &G::State| {
        let listed = engine.legal_moves(state).len();
        let counted = engine.legal_move_count(state, &mut buffer);
        assert_eq!(counted, listed, "{what}, seed {seed}, ply {checked}");
        checked += 1;
        true
    });
    checked
}

#[test]
fn bulk_counts_equal_the_turns_listed_along_random_games() {
    for (sample, seeds) in [
        ("chess.zrf", 1..=6),
        ("breakthrough.zrf", 1..=3),
        ("checkers.zrf", 1..=6),
        ("xiangqi.zrf", 1..=4),
        ("minishogi.zrf", 1..=3),
    ] {
        let engine = engine(sample);
        for seed in seeds {
            let checked = count_along_playout(&engine, seed, 200, sample);
            assert!(checked > 20, "{sample}, seed {seed}: {checked} plies");
        }
    }
    let engine = cylinder();
    let checked: usize = (1..=20)
        .map(|seed| count_along_playout(&engine, seed, 100, "cylinder"))
        .sum();
    assert!(checked > 200, "cylinder: {checked} plies");
}
