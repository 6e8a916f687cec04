//! UCI move names and FEN for the chess sample, checked against shakmaty (a hand-written
//! chess library) at every position of random games, and the protocol's answers that a
//! chess GUI relies on.

use std::io::{BufRead, BufReader, Lines, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use zrf::interp::Interpreted;
use zrf_play::uci::{Castling, FenBoard, Namer};
use zrf_runtime::{SplitMix64, State};

use crate::perft::engine;

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

fn shakmaty_names(position: &Chess, mode: CastlingMode) -> Vec<String> {
    sorted(
        position
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(mode).to_string())
            .collect(),
    )
}

/// The first four fields of a FEN: the half-move clock is not kept (Zillions has no
/// fifty-move rule) and the full-move number is compared apart.
fn fen_fields(fen: &str) -> String {
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

fn shakmaty_fen(position: &Chess) -> String {
    Fen::from_position(position, EnPassantMode::Always).to_string()
}

/// At every position of random games of the chess sample: the UCI names of its legal
/// moves are shakmaty's legal moves (standard and Chess960 castling), its FEN is
/// shakmaty's, and the position read back from shakmaty's FEN has the same moves.
#[test]
fn uci_names_and_fen_of_the_chess_sample_agree_with_shakmaty_over_random_games() {
    let engine = engine("chess.zrf");
    let fen = FenBoard::new(&engine).expect("the chess sample has FEN");
    let standard = Namer::new(&engine.tables, Castling::Standard);
    let chess960 = Namer::new(&engine.tables, Castling::KingTakesRook);
    let mut rng = SplitMix64::new(2026);
    let (mut positions, mut castlings, mut en_passants, mut promotions) = (0, 0, 0, 0);
    for game in 0..200 {
        let mut state = engine.start();
        let mut reference = Chess::default();
        for ply in 0..160 {
            let moves = engine.legal_moves(&state);
            let names = standard.names(&engine, &state, &moves);
            let context = || format!("game {game}, ply {ply}, {}", shakmaty_fen(&reference));
            assert_eq!(
                sorted(names.clone()),
                shakmaty_names(&reference, CastlingMode::Standard),
                "{}",
                context()
            );
            assert_eq!(
                sorted(chess960.names(&engine, &state, &moves)),
                shakmaty_names(&reference, CastlingMode::Chess960),
                "{}",
                context()
            );
            let written = fen.write(&engine, &state);
            assert_eq!(
                fen_fields(&written),
                fen_fields(&shakmaty_fen(&reference)),
                "{}",
                context()
            );
            let fields: Vec<String> = shakmaty_fen(&reference)
                .split(' ')
                .map(String::from)
                .collect();
            let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
            let read = fen
                .read(&engine, &fields)
                .unwrap_or_else(|e| panic!("{}: {e}", context()));
            let read_moves = engine.legal_moves(&read);
            assert_eq!(
                sorted(standard.names(&engine, &read, &read_moves)),
                sorted(names.clone()),
                "{}",
                context()
            );
            assert_eq!(fen_fields(&fen.write(&engine, &read)), fen_fields(&written));
            positions += 1;
            if moves.is_empty() {
                break;
            }
            let as_shakmaty = |name: &str| {
                let uci = shakmaty::uci::UciMove::from_ascii(name.as_bytes())
                    .unwrap_or_else(|e| panic!("{}: {e}", context()));
                uci.to_move(&reference)
                    .unwrap_or_else(|e| panic!("{}: {e}", context()))
            };
            // Half the time a castling, en passant or promotion when there is one: random
            // games alone seldom reach them.
            let special: Vec<usize> = (0..moves.len())
                .filter(|&i| {
                    let m = as_shakmaty(&names[i]);
                    m.is_castle() || m.is_en_passant() || m.is_promotion()
                })
                .collect();
            let index = match rng.below(2) {
                0 if !special.is_empty() => special[rng.below(special.len())],
                _ => rng.below(moves.len()),
            };
            let played = as_shakmaty(&names[index]);
            castlings += usize::from(played.is_castle());
            en_passants += usize::from(played.is_en_passant());
            promotions += usize::from(played.is_promotion());
            reference.play_unchecked(played);
            state = engine.play(&state, &moves[index]);
        }
    }
    // The random games reach the moves that perft of depth 4 does not.
    eprintln!("{positions} positions, {castlings} castlings, {en_passants} en passant, {promotions} promotions");
    assert!(positions > 20_000, "{positions} positions");
    assert!(castlings > 50, "{castlings} castlings");
    assert!(en_passants > 5, "{en_passants} en passant captures");
    assert!(promotions > 20, "{promotions} promotions");
}

fn read(engine: &Interpreted, fen: &str) -> Result<State, String> {
    let board = FenBoard::new(engine)?;
    let fields: Vec<&str> = fen.split(' ').collect();
    board.read(engine, &fields)
}

fn names(engine: &Interpreted, state: &State, castling: Castling) -> Vec<String> {
    let moves = engine.legal_moves(state);
    sorted(Namer::new(&engine.tables, castling).names(engine, state, &moves))
}

const CASTLING_BOTH_SIDES: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

#[test]
fn castling_is_named_by_the_kings_squares_and_read_back() {
    let engine = engine("chess.zrf");
    let state = read(&engine, CASTLING_BOTH_SIDES).expect("read");
    let king_moves: Vec<String> = names(&engine, &state, Castling::Standard)
        .into_iter()
        .filter(|n| n.starts_with("e1"))
        .collect();
    assert_eq!(king_moves, ["e1c1", "e1d1", "e1f1", "e1g1"]);
    let king_takes_rook: Vec<String> = names(&engine, &state, Castling::KingTakesRook)
        .into_iter()
        .filter(|n| n.starts_with("e1"))
        .collect();
    assert_eq!(king_takes_rook, ["e1a1", "e1d1", "e1f1", "e1h1"]);
    // Out: each castling played leaves the king and rook where chess puts them.
    let board = FenBoard::new(&engine).expect("fen");
    let standard = Namer::new(&engine.tables, Castling::Standard);
    let after = |state: &State, name: &str| {
        let moves = engine.legal_moves(state);
        let index = standard
            .find(&engine, state, &moves, name)
            .unwrap_or_else(|e| panic!("{e}"));
        engine.play(state, &moves[index])
    };
    let short = after(&state, "e1g1");
    assert_eq!(
        board.write(&engine, &short),
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 0 1"
    );
    let long = after(&after(&state, "e1c1"), "e8c8");
    assert_eq!(
        board.write(&engine, &long),
        "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R w - - 0 2"
    );
    // The Chess960 form is read in standard mode too, and the other way round.
    assert_eq!(after(&state, "e1h1"), short);
    let chess960 = Namer::new(&engine.tables, Castling::KingTakesRook);
    let moves = engine.legal_moves(&state);
    let index = chess960
        .find(&engine, &state, &moves, "e1g1")
        .expect("alias");
    assert_eq!(engine.play(&state, &moves[index]), short);
}

#[test]
fn castling_rights_in_a_fen_decide_which_castlings_are_legal() {
    let engine = engine("chess.zrf");
    let castles = |fen: &str| -> Vec<String> {
        let state = read(&engine, fen).expect("read");
        names(&engine, &state, Castling::Standard)
            .into_iter()
            .filter(|n| ["e1g1", "e1c1", "e8g8", "e8c8"].contains(&n.as_str()))
            .collect()
    };
    assert_eq!(castles(CASTLING_BOTH_SIDES), ["e1c1", "e1g1"]);
    assert_eq!(
        castles("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w Qk - 0 1"),
        ["e1c1"]
    );
    assert_eq!(
        castles("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w - - 0 1"),
        Vec::<String>::new()
    );
    assert_eq!(
        castles("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b Qk - 0 1"),
        ["e8g8"]
    );
    // Shredder-FEN names the rooks by file.
    assert_eq!(
        castles("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1"),
        ["e1c1", "e1g1"]
    );
}

#[test]
fn fen_round_trips_with_castling_rights_en_passant_and_the_move_number() {
    let engine = engine("chess.zrf");
    let board = FenBoard::new(&engine).expect("fen");
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b Kq d3 0 12",
        "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 40",
        "8/8/8/4k3/8/8/8/4K3 b - - 0 77",
    ] {
        let state = read(&engine, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(board.write(&engine, &state), fen);
    }
    // En passant is the last move: the pawn that passed f6 can be taken.
    let state = read(
        &engine,
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    )
    .expect("read");
    let captures: Vec<String> = names(&engine, &state, Castling::Standard)
        .into_iter()
        .filter(|n| n.starts_with("e5"))
        .collect();
    assert_eq!(captures, ["e5e6", "e5f6"]);
}

#[test]
fn fens_the_game_cannot_hold_are_refused_with_the_reason() {
    let engine = engine("chess.zrf");
    let refused = |fen: &str| read(&engine, fen).expect_err(fen);
    assert_eq!(
        refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1"),
        "no piece type has the letter Z"
    );
    assert_eq!(
        refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"),
        "the placement has 7 ranks; the board has 8"
    );
    assert_eq!(
        refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1"),
        "rank 8 of the placement is too long"
    );
    assert_eq!(
        refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
        "the side to move is \"x\", not w or b"
    );
    assert_eq!(
        refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"),
        "no pawn of the side that just moved stands in front of the en-passant square e6"
    );
    // Tic-tac-toe has three squares a side but one kind of mark, named alike.
    let tictactoe = crate::perft::engine("tictactoe.zrf");
    assert!(FenBoard::new(&tictactoe).is_ok());
    // A hand kept on the grid holds what its positions hold.
    let minishogi = crate::perft::engine("minishogi.zrf");
    let refused = |fen: &str| read(&minishogi, fen).expect_err(fen);
    assert_eq!(
        refused("4k/5/5/5/K4[PPPPPPPPPPP] w - - 0 1"),
        "the hand of South has room for 10 pieces"
    );
    assert_eq!(
        refused("4+k/5/5/5/K4[] w - - 0 1"),
        "no piece type is the promoted form of k"
    );
}

/// Minishogi keeps each side's hand as grid positions beside the board: its FEN
/// (Fairy-Stockfish's, with the holdings in brackets and promoted pieces as `+p`) reads
/// the start, names promoted pieces and holdings, and reads back every position of
/// random games to one with the same legal moves.
#[test]
fn fen_of_a_game_with_hands_on_the_grid_round_trips_over_random_games() {
    let engine = engine("minishogi.zrf");
    let board = FenBoard::new(&engine).expect("minishogi has FEN");
    let namer = Namer::new(&engine.tables, Castling::Standard);
    let start = engine.start();
    assert_eq!(
        board.write(&engine, &start),
        "rbsgk/4p/5/P4/KGSBR[] w - - 0 1"
    );
    // Fairy-Stockfish's start position: no castling or en-passant fields.
    assert_eq!(
        read(&engine, "rbsgk/4p/5/P4/KGSBR[-] w 0 1"),
        Ok(start.clone())
    );
    let state = read(&engine, "r+bsgk/4+p/5/P4/KGSBR[Ppg] b - - 0 5").expect("read");
    assert_eq!(
        board.write(&engine, &state),
        "r+bsgk/4+p/5/P4/KGSBR[Pgp] b - - 0 5"
    );
    let moves = names(&engine, &state, Castling::Standard);
    assert_eq!(moves.iter().filter(|n| n.starts_with("G@")).count(), 13);
    assert_eq!(moves.iter().filter(|n| n.starts_with("P@")).count(), 13);
    let mut rng = SplitMix64::new(33);
    let (mut held, mut promoted) = (0, 0);
    for game in 0..40 {
        let mut state = start.clone();
        for ply in 0..120 {
            let moves = engine.legal_moves(&state);
            if moves.is_empty() {
                break;
            }
            let fen = board.write(&engine, &state);
            let context = format!("game {game}, ply {ply}: {fen}");
            let back = read(&engine, &fen).unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(board.write(&engine, &back), fen, "{context}");
            assert_eq!(
                names(&engine, &back, Castling::Standard),
                sorted(namer.names(&engine, &state, &moves)),
                "{context}"
            );
            held += usize::from(!fen.contains("[]"));
            promoted += usize::from(fen.contains('+'));
            state = engine.play(&state, &moves[rng.below(moves.len())]);
        }
    }
    assert!(
        held > 500 && promoted > 100,
        "{held} with holdings, {promoted} with promoted pieces"
    );
}

/// `zrfc uci` on a sample: the process, its input, and its output's lines.
pub fn spawn_uci(sample: &str) -> (Child, ChildStdin, Lines<BufReader<ChildStdout>>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zrfc"))
        .args(["uci", &format!("zrf-samples/{sample}")])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("zrfc runs");
    let input = child.stdin.take().expect("stdin");
    let output = BufReader::new(child.stdout.take().expect("stdout")).lines();
    (child, input, output)
}

/// Talks to `zrfc uci` on a sample as a GUI does, waiting for the answer to each
/// `uci`, `go` and `isready`: the lines it answers, without the search's progress and
/// the options.
fn uci_session(sample: &str, commands: &[&str]) -> Vec<String> {
    let (mut child, mut input, mut output) = spawn_uci(sample);
    let mut lines = Vec::new();
    for command in commands {
        writeln!(input, "{command}").expect("sent");
        let last = match command.split_whitespace().last() {
            Some("uci") => "uciok",
            Some("isready") => "readyok",
            _ if command.contains("go ") => "bestmove",
            _ => continue,
        };
        loop {
            let line = output.next().expect("a line").expect("text");
            let done = line.starts_with(last);
            if !["info depth", "option ", "id "]
                .iter()
                .any(|p| line.starts_with(p))
            {
                lines.push(line);
            }
            if done {
                break;
            }
        }
    }
    writeln!(input, "quit").expect("sent");
    lines.extend(output.map(|l| l.expect("text")));
    assert!(child.wait().expect("exits").success());
    lines
}

#[test]
fn after_a_refused_position_go_answers_no_move_until_a_good_one() {
    let lines = uci_session(
        "chess.zrf",
        &[
            "uci",
            "position startpos moves e2e4 e7e5 e1e3",
            "go depth 1",
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
            "go depth 1",
            "xyzzy position startpos moves e2e4",
            "go depth 1",
            "isready",
        ],
    );
    assert_eq!(lines[0], "uciok");
    assert!(
        lines[1]
            .starts_with("info string position refused: move 3: e1e3 is not legal here; legal: "),
        "{}",
        lines[1]
    );
    assert!(lines[2].starts_with("info string no position to search: move 3: e1e3"));
    assert_eq!(lines[3], "bestmove 0000");
    assert_eq!(
        lines[4],
        "info string position refused: FEN refused: the placement has 7 ranks; the board has 8"
    );
    assert_eq!(
        lines[5],
        "info string no position to search: FEN refused: the placement has 7 ranks; the board has 8"
    );
    assert_eq!(lines[6], "bestmove 0000");
    // The unknown word before `position` is skipped; Black answers 1.e4.
    let reply = lines[7].strip_prefix("bestmove ").expect("a move");
    let black_moves = [
        "a7a6", "a7a5", "b7b6", "b7b5", "c7c6", "c7c5", "d7d6", "d7d5", "e7e6", "e7e5", "f7f6",
        "f7f5", "g7g6", "g7g5", "h7h6", "h7h5", "b8a6", "b8c6", "g8f6", "g8h6",
    ];
    assert!(black_moves.contains(&reply), "{reply}");
    assert_eq!(lines[8], "readyok");
    assert_eq!(lines.len(), 9, "{lines:?}");
}

#[test]
fn xiangqi_generals_may_not_face_each_other_on_an_open_file() {
    let engine = engine("xiangqi.zrf");
    // Only the horse stands between the generals: none of its moves is legal (as
    // Fairy-Stockfish's perft of this position agrees).
    let state = read(&engine, "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1").expect("read");
    assert_eq!(
        names(&engine, &state, Castling::Standard),
        ["e1d1", "e1e2", "e1f1"]
    );
    let board = FenBoard::new(&engine).expect("fen");
    assert_eq!(
        board.write(&engine, &engine.start()),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
}

#[test]
fn go_answers_a_move_where_the_rules_have_ended_the_game_but_moves_remain() {
    // X has three in a row; O may still drop, and the GUI, not the rules file, decides.
    let lines = uci_session(
        "tictactoe.zrf",
        &[
            "uci",
            "position startpos moves M@a1 M@b1 M@a2 M@b2 M@a3",
            "go depth 2",
        ],
    );
    let reply = lines[1].strip_prefix("bestmove ").expect("a move");
    assert!(
        ["M@c1", "M@c2", "M@c3", "M@b3"].contains(&reply),
        "{lines:?}"
    );
}

#[test]
fn null_moves_are_refused_to_a_side_with_only_its_least_valuable_kinds() {
    use zrf_search::{Evaluator, RulesEval};
    let engine = engine("chess.zrf");
    let eval = RulesEval::new(&engine);
    let allowed = |fen: &str| eval.null_move_allowed(&engine, &read(&engine, fen).expect("read"));
    assert!(allowed(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    ));
    // King and pawns: the endings where zugzwang decides.
    assert!(!allowed("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1"));
    assert!(allowed("4k3/4p3/8/8/8/8/4P3/3NK3 w - - 0 1"));
    assert!(!allowed("3nk3/4p3/8/8/8/8/4P3/4K3 w - - 0 1"));
    // Breakthrough has one kind of piece: never.
    let breakthrough = crate::perft::engine("breakthrough.zrf");
    let eval = RulesEval::new(&breakthrough);
    assert!(!eval.null_move_allowed(&breakthrough, &breakthrough.start()));
}

#[test]
fn uci_variant_switches_between_the_games_of_a_file() {
    let dir = tempfile::tempdir().expect("a folder");
    let rules = dir.path().join("two.zrf");
    let sample = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/zrf-samples/tictactoe.zrf"
    ))
    .expect("the sample");
    // The second game starts with O's mark on b2.
    let second =
        "(variant (title \"Small Chess\") (board-setup (X (Mark off 5)) (O (Mark b2 off 3))))";
    std::fs::write(&rules, format!("{sample}\n{second}\n")).expect("written");
    let mut child = Command::new(env!("CARGO_BIN_EXE_zrfc"))
        .arg("uci")
        .arg(&rules)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("zrfc runs");
    let mut input = child.stdin.take().expect("stdin");
    writeln!(
        input,
        "uci\nposition startpos moves M@b2\ngo depth 1\n\
         setoption name UCI_Variant value small-chess\nsetoption name UCI_Variant value Nope\n\
         position startpos moves M@b2\ngo depth 1\nquit"
    )
    .expect("sent");
    drop(input);
    let lines: Vec<String> = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| l.expect("text"))
        .filter(|l| {
            l.starts_with("option name UCI_Variant")
                || l.starts_with("info string")
                || l.starts_with("bestmove")
        })
        .collect();
    assert!(child.wait().expect("exits").success());
    assert_eq!(
        lines[0],
        "option name UCI_Variant type combo default Tic-Tac-Toe var Tic-Tac-Toe var Small Chess"
    );
    // In the first game b2 is free; in the second it is taken, and the move refused.
    assert!(lines[1].starts_with("bestmove M@"), "{lines:?}");
    assert_eq!(
        lines[2],
        "info string no variant \"Nope\"; the variants are Tic-Tac-Toe, Small Chess"
    );
    assert!(
        lines[3].starts_with("info string position refused: move 1: M@b2 is not legal here"),
        "{lines:?}"
    );
}

/// The position after the move `namer` calls `name` (which must be legal).
fn play_named(engine: &Interpreted, namer: &Namer, state: &State, name: &str) -> State {
    let moves = engine.legal_moves(state);
    let index = namer
        .find(engine, state, &moves, name)
        .unwrap_or_else(|e| panic!("{e}"));
    engine.play(state, &moves[index])
}

/// A shogi whose hands are grid columns (named `X1`..., not like squares): a capture
/// that sends the taken piece on into the taker's hand is named by the taker's own
/// squares, a move out of a hand is a drop, and a promotion into a type no piece has
/// at the start is written `+`, as Fairy-Stockfish writes shogi moves.
#[test]
fn grid_hands_give_drops_and_promoted_forms_give_a_plus() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/uci/pocket-shogi.zrf");
    let engine = zrf::build::Config::new()
        .quiet(true)
        .interpret(&path)
        .unwrap_or_else(|e| panic!("{e}"));
    let namer = Namer::new(&engine.tables, Castling::Standard);
    assert!(namer.names_squares());
    let mut state = engine.start();
    let mut play = |name: &str| {
        state = play_named(&engine, &namer, &state, name);
        names(&engine, &state, Castling::Standard)
    };
    assert_eq!(play("b2b3"), ["b4a4", "b4b3", "b4c4"]);
    assert_eq!(
        play("b4c4"),
        [
            "C@a1", "C@a2", "C@a3", "C@a4", "C@b2", "C@b4", "C@c1", "C@c2", "C@c3", "b1a1", "b1b2",
            "b1c1", "b3b4+"
        ]
    );
    // The Hen taken goes back to a Chick in Red's hand: not a promotion of the King.
    assert_eq!(play("b3b4+"), ["c4b4", "c4c3"]);
    assert_eq!(
        play("c4b4"),
        [
            "C@a1", "C@a2", "C@a3", "C@a4", "C@b2", "C@b3", "C@c1", "C@c2", "C@c3", "b1a1", "b1b2",
            "b1c1"
        ]
    );
    let red_drops = play("b1a1");
    assert!(red_drops.contains(&"C@b3".to_string()), "{red_drops:?}");
}

/// The legal moves of the minishogi sample by name, as Fairy-Stockfish's `minishogi`
/// lists them (`go perft 1`) after the same moves: drops (no pawn onto the a-file,
/// where one stands, nor onto the last rank) and a promotion offered both ways.
#[test]
fn minishogi_moves_are_named_as_fairy_stockfish_names_them() {
    let engine = engine("minishogi.zrf");
    let namer = Namer::new(&engine.tables, Castling::Standard);
    let after = |moves: &[&str]| {
        let mut state = engine.start();
        for name in moves {
            state = play_named(&engine, &namer, &state, name);
        }
        names(&engine, &state, Castling::Standard)
    };
    let fairy = |text: &str| sorted(text.split(' ').map(String::from).collect());
    assert_eq!(
        after(&["e1e4", "e5e4"]),
        fairy(
            "d1c2 d1e2 d1b3 d1a4 c1b2 c1c2 c1d2 a2a3 b1b2 b1c2 P@e1 P@b2 P@c2 P@d2 P@e2 \
             P@b3 P@c3 P@d3 P@e3 P@b4 P@c4 P@d4 a1b2"
        )
    );
    assert_eq!(
        after(&["d1a4", "e4e3"]),
        fairy("a4d1 a4c2 a4b3 a4b5 a4b5+ e1d1 e1e2 e1e3 c1b2 c1c2 c1d2 a2a3 b1b2 b1c2 a1b2")
    );
}
