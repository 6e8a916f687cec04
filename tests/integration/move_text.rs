//! The one reader of typed moves: every form it accepts, checked on the chess sample
//! against shakmaty's short algebraic notation over random games, and its answers to
//! ambiguous, illegal and unreadable text.

use shakmaty::san::San;
use shakmaty::{Chess, Position};
use zrf::interp::Interpreted;
use zrf_play::move_text::{read_move, Reading};
use zrf_play::uci::{Castling, Namer};
use zrf_runtime::{Game, SplitMix64, State};

use crate::perft::engine;

fn reading(engine: &Interpreted, state: &State, text: &str) -> Reading {
    read_move(engine, state, &engine.legal_moves(state), text)
}

/// The notation of the move `text` names, or the reading when it names none.
fn read_as(engine: &Interpreted, state: &State, text: &str) -> Result<String, Reading> {
    let moves = engine.legal_moves(state);
    match read_move(engine, state, &moves, text) {
        Reading::Move(i) => Ok(engine.notation(state, &moves[i])),
        other => Err(other),
    }
}

fn after(engine: &Interpreted, texts: &[&str]) -> State {
    let mut state = engine.start();
    for text in texts {
        let moves = engine.legal_moves(&state);
        match read_move(engine, &state, &moves, text) {
            Reading::Move(i) => state = engine.play(&state, &moves[i]),
            other => panic!("{text}: {other:?}"),
        }
    }
    state
}

/// At every position of random chess games, each legal move's short algebraic name
/// (as shakmaty writes it, with and without the check sign), its UCI name and its
/// saved-game notation with and without attribute suffixes all read as that move.
#[test]
fn every_form_of_every_legal_move_reads_as_that_move_over_random_chess_games() {
    let engine = engine("chess.zrf");
    let namer = Namer::new(&engine.tables, Castling::Standard);
    let mut rng = SplitMix64::new(44);
    let mut checked = 0;
    for game in 0..4 {
        let mut state = engine.start();
        let mut reference = Chess::default();
        for ply in 0..100 {
            let moves = engine.legal_moves(&state);
            if moves.is_empty() {
                break;
            }
            let names = namer.names(&engine, &state, &moves);
            for (i, name) in names.iter().enumerate() {
                let uci = shakmaty::uci::UciMove::from_ascii(name.as_bytes()).expect("a UCI name");
                let m = uci.to_move(&reference).expect("a legal move");
                let san = San::from_move(&reference, m);
                let with_sign = shakmaty::san::SanPlus::from_move(reference.clone(), m);
                let notation = engine.notation(&state, &moves[i]);
                let plain: Vec<&str> = notation.split(" @ ").take(1).collect();
                for text in [
                    san.to_string(),
                    with_sign.to_string(),
                    name.clone(),
                    notation.clone(),
                    plain[0].to_string(),
                ] {
                    assert_eq!(
                        reading(&engine, &state, &text),
                        Reading::Move(i),
                        "game {game} ply {ply}: {text:?} should be {notation}"
                    );
                    checked += 1;
                }
            }
            let index = rng.below(moves.len());
            let uci =
                shakmaty::uci::UciMove::from_ascii(names[index].as_bytes()).expect("a UCI name");
            reference.play_unchecked(uci.to_move(&reference).expect("a legal move"));
            state = engine.play(&state, &moves[index]);
        }
    }
    assert!(checked > 10_000, "{checked} texts read");
}

#[test]
fn squares_and_destinations_read_as_the_move_they_name() {
    let engine = engine("chess.zrf");
    let start = engine.start();
    for text in [
        "e2e4",
        "e2-e4",
        "e2 e4",
        "e4",
        "E2E4",
        "Pawn e2 - e4",
        "pawn e2 - e4",
    ] {
        assert_eq!(
            read_as(&engine, &start, text).as_deref(),
            Ok("Pawn e2 - e4"),
            "{text}"
        );
    }
    assert_eq!(
        read_as(&engine, &start, "Nf3").as_deref(),
        Ok("Knight g1 - f3")
    );
    let castled = after(&engine, &["e4", "e5", "Nf3", "Nf6", "Bc4", "Bc5", "O-O"]);
    assert_eq!(
        read_as(&engine, &castled, "0-0").as_deref(),
        Ok("King e8 - g8 Rook h8 - f8 @ g8 0 0 @ f8 0 0"),
    );
}

#[test]
fn a_text_naming_several_moves_lists_them_all() {
    let engine = engine("chess.zrf");
    // Both knights can reach d2 here.
    let state = after(&engine, &["d4", "d5", "Nf3", "Nf6"]);
    let moves = engine.legal_moves(&state);
    let Reading::Ambiguous(several) = read_move(&engine, &state, &moves, "Nd2") else {
        panic!("Nd2 is ambiguous");
    };
    let texts: Vec<String> = several
        .iter()
        .map(|&i| engine.notation(&state, &moves[i]))
        .collect();
    assert_eq!(texts, ["Knight f3 - d2", "Knight b1 - d2"]);
    assert_eq!(
        read_as(&engine, &state, "Nbd2").as_deref(),
        Ok("Knight b1 - d2")
    );
}

#[test]
fn a_readable_illegal_move_and_unreadable_text_are_told_apart() {
    let engine = engine("chess.zrf");
    let start = engine.start();
    for text in [
        "e5",
        "Nf4",
        "O-O",
        "e2e5",
        "King e1 - e2",
        "Bxe7",
        "a1 a8",
        "e8=Q",
    ] {
        assert_eq!(reading(&engine, &start, text), Reading::NotLegal, "{text}");
    }
    for text in ["", "hello", "z9", "e2e4e6", "Kx", "Dragon e1 - e2", "12-"] {
        assert_eq!(
            reading(&engine, &start, text),
            Reading::NotRecognised,
            "{text}"
        );
    }
    assert_eq!(
        Reading::NotLegal.complaint("e5"),
        "\"e5\" is not legal here"
    );
}

/// On a board without `a1` squares and pieces without letters, the saved-game notation
/// and position names are read; a drop by its square.
#[test]
fn drops_and_named_positions_read_on_other_boards() {
    let engine = engine("tictactoe.zrf");
    let start = engine.start();
    let moves = engine.legal_moves(&start);
    let first = engine.notation(&start, &moves[0]);
    assert_eq!(
        read_as(&engine, &start, &first).as_deref(),
        Ok(first.as_str())
    );
    let square = first.rsplit(' ').next().expect("a square");
    assert_eq!(
        read_as(&engine, &start, square).as_deref(),
        Ok(first.as_str())
    );
}

/// What the search orders and extends by: a move captures exactly when shakmaty says
/// so (a chess capture moves onto the piece, with no `capture` in the rules), and
/// promotes exactly when it promotes. Quiescence searches only these.
#[test]
fn move_traits_tell_captures_and_promotions_as_chess_does_over_random_games() {
    let engine = engine("chess.zrf");
    let namer = Namer::new(&engine.tables, Castling::Standard);
    let mut rng = SplitMix64::new(7);
    let (mut captures, mut promotions) = (0, 0);
    for _ in 0..6 {
        let mut state = engine.start();
        let mut reference = Chess::default();
        for _ in 0..160 {
            let moves = engine.legal_moves(&state);
            if moves.is_empty() {
                break;
            }
            let names = namer.names(&engine, &state, &moves);
            for (mv, name) in moves.iter().zip(&names) {
                let uci = shakmaty::uci::UciMove::from_ascii(name.as_bytes()).expect("a UCI name");
                let m = uci.to_move(&reference).expect("a legal move");
                let traits = engine.move_traits(&state, mv);
                assert_eq!(traits.captures, u32::from(m.is_capture()), "{name}");
                assert_eq!(traits.promotes, m.is_promotion(), "{name}");
                captures += usize::from(m.is_capture());
                promotions += usize::from(m.is_promotion());
            }
            let index = rng.below(moves.len());
            let uci =
                shakmaty::uci::UciMove::from_ascii(names[index].as_bytes()).expect("a UCI name");
            reference.play_unchecked(uci.to_move(&reference).expect("a legal move"));
            state = engine.play(&state, &moves[index]);
        }
    }
    assert!(
        captures > 500 && promotions > 0,
        "{captures} captures, {promotions} promotions"
    );
}
