//! A game at the terminal: the computer moves for some players, people for the others,
//! with the board drawn before each of their moves and commands to take moves back,
//! replay them, ask for a hint, list the moves, save the game or quit. Moves are
//! accepted by number, in saved-game notation, or by their squares (`e2 e4`, `e2-e4`,
//! `e2e4`, or one square for a drop) when that names one move.

use std::io::{self, BufRead, Read, Write};

use zrf_runtime::{Engine, Game, Move, Outcome, PlayerIx, State, Templates};
use zrf_search::{parallel::MakeEngine, Ai, Algorithm, Choice, Settings};

use crate::board::text_board;
use crate::move_text::{read_move, Reading};

/// Who moves for each player in [`play_game`].
#[derive(Clone, Debug)]
pub struct Seats {
    /// Per player: chosen by a person (`true`) or by the computer.
    pub humans: Vec<bool>,
    /// The computer's settings.
    pub settings: Settings,
    /// Stop after this many turns.
    pub max_turns: usize,
    /// Print what each search found on stderr.
    pub verbose: bool,
    /// The rules file as saved games name it (for `save`).
    pub rules_file: String,
}

/// A game played by [`play_game`].
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    pub records: Vec<String>,
    pub outcome: Option<Outcome>,
    pub turns: usize,
    /// How it ended, in words.
    pub ending: String,
}

/// What a person at the board asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Play the move of this index in the legal move list.
    Play(usize),
    /// Take back moves up to the person's previous turn.
    Undo,
    /// Play again what was taken back, up to the person's next turn.
    Redo,
    /// Show the computer's choice for this position.
    Hint,
    /// Write the game so far to this saved-game file.
    Save(String),
    Quit,
}

/// Plays a game from the start: the computer for the players that are not human
/// (searching on `seats.settings.threads` threads, with engines from `make_engine`),
/// `ask` for the others. Each record is printed to `out` as it is played; the search's
/// findings, the board and the answers to requests go to stderr.
pub fn play_game<'g, T: Templates>(
    engine: &'g Engine<T>,
    make_engine: MakeEngine<'g, T>,
    seats: &Seats,
    out: &mut dyn Write,
    mut ask: impl FnMut(&Engine<T>, &State, &[Move], PlayerIx) -> Request,
) -> PlayedGame {
    let tables = &engine.tables;
    let is_human = |p: PlayerIx| seats.humans.get(p as usize) == Some(&true);
    let mut ai = Ai::for_engine_on_threads(engine, make_engine, seats.settings);
    let mut state = engine.start();
    let mut records: Vec<String> = Vec::new();
    // Before each move played: the position (kept only when someone may take moves
    // back: the computer alone may play hundreds of thousands of turns), the records
    // so far, the move's index.
    let undo_possible = seats.humans.contains(&true);
    let mut played: Vec<(Option<State>, usize, usize)> = Vec::new();
    let mut taken_back: Vec<usize> = Vec::new();
    let (outcome, ending) = loop {
        let moves = engine.legal_moves(&state);
        if let Some(outcome) = engine.outcome(&state, &moves) {
            break (
                Some(outcome),
                format!("game over: {}", outcome.describe(tables)),
            );
        }
        let turns = played.len();
        if turns == seats.max_turns {
            break (None, format!("stopped after {turns} turns (--max-turns)"));
        }
        let player = engine.to_move(&state);
        let chosen = if is_human(player) {
            let _ = out.flush();
            eprint!("\n{}", text_board(tables, &state, player));
            match ask(engine, &state, &moves, player) {
                Request::Play(index) if index < moves.len() => {
                    taken_back.clear();
                    index
                }
                Request::Play(_) => continue,
                Request::Undo => {
                    if played.is_empty() {
                        eprintln!("nothing to take back");
                    }
                    // Back to this person's previous turn (past the computer's replies).
                    let mut undone = 0;
                    while let Some((Some(before), count, index)) = played.pop() {
                        state = before;
                        records.truncate(count);
                        taken_back.push(index);
                        undone += 1;
                        if is_human(engine.to_move(&state)) {
                            break;
                        }
                    }
                    if undone > 0 {
                        eprintln!("took back {undone} turn(s)");
                    }
                    continue;
                }
                Request::Redo => {
                    let Some(index) = taken_back.pop() else {
                        eprintln!("nothing to play again");
                        continue;
                    };
                    index
                }
                Request::Hint => {
                    match ai.choose(&state, None, |_| {}) {
                        Some(choice) => eprintln!(
                            "hint: {}{}",
                            engine.notation(&state, &moves[choice.index]),
                            describe_score(ai.algorithm(), &choice)
                        ),
                        None => eprintln!("no hint: the game is over"),
                    }
                    continue;
                }
                Request::Save(path) => {
                    let text =
                        zrf_runtime::saved_game(tables, &seats.rules_file, &seats.humans, &records);
                    match crate::save_new_file(std::path::Path::new(&path), &text) {
                        Ok(saved) => {
                            eprintln!("saved {} records to {}", records.len(), saved.display())
                        }
                        Err(err) => eprintln!("{err}"),
                    }
                    continue;
                }
                Request::Quit => break (None, "stopped at the player's request".to_string()),
            }
        } else if let Some(index) = taken_back.pop() {
            // Replaying taken-back turns, the computer's included.
            index
        } else {
            match ai.choose(&state, None, |_| {}) {
                Some(choice) => {
                    if seats.verbose && ai.algorithm() != Algorithm::Random {
                        eprintln!("  [{}]", describe_choice(ai.algorithm(), &choice));
                    }
                    choice.index
                }
                None => break (None, "no move found".to_string()),
            }
        };
        let Some(mv) = moves.get(chosen) else {
            taken_back.clear();
            continue;
        };
        let count = records.len();
        for record in zrf_runtime::turn_records(tables, &state, mv) {
            let _ = writeln!(out, "{record}");
            records.push(record);
        }
        let next = engine.play(&state, mv);
        let before = std::mem::replace(&mut state, next);
        played.push((undo_possible.then_some(before), count, chosen));
    };
    PlayedGame {
        records,
        turns: played.len(),
        outcome,
        ending,
    }
}

fn describe_score(algorithm: Algorithm, choice: &Choice) -> String {
    match algorithm {
        Algorithm::AlphaBeta => format!(
            " (score {}, depth {})",
            choice.describe_score(),
            choice.depth
        ),
        _ => String::new(),
    }
}

fn describe_choice(algorithm: Algorithm, choice: &Choice) -> String {
    match algorithm {
        Algorithm::AlphaBeta => format!(
            "alphabeta: depth {}, score {}, {} nodes; line {}",
            choice.depth,
            choice.describe_score(),
            choice.nodes,
            choice.pv.join(" / ")
        ),
        Algorithm::Mcts => format!("mcts: {} playouts", choice.nodes),
        Algorithm::Random => "random".to_string(),
    }
}

const HELP: &str = "\
Type a move: its number in `moves`, its notation (as `moves` prints it), its
squares (`e2 e4`, `e2-e4`, `e2e4`, or the one square it goes to), or, where pieces
have letters, short algebraic notation (`Nf3`, `exd5`, `O-O`, `e8=Q`). Commands:
  moves       list the legal moves, numbered
  board       draw the board again
  hint        ask the computer for its move here
  undo        take back your last move (and the replies to it)
  redo        play again what undo took back
  save FILE   write the game so far as a Zillions saved game
  help        this text
  quit        stop the game
";

/// Asks the person at the terminal (standard input) for a move or a command; `Quit`
/// at the end of input.
pub fn ask_at_terminal<T: Templates>(
    engine: &Engine<T>,
    state: &State,
    moves: &[Move],
    player: PlayerIx,
) -> Request {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    ask(
        engine,
        state,
        moves,
        player,
        &mut input,
        &mut io::stderr().lock(),
    )
}

/// The next line of `input` (its line break included), `None` at the end of the
/// input, on an error, or when no line break comes within `limit` bytes: a stream that
/// never sends one (`/dev/zero`) is not read on for ever.
pub fn read_bounded_line(input: &mut dyn BufRead, limit: usize) -> Option<String> {
    let mut line = String::new();
    match input.take(limit as u64).read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) if !line.ends_with('\n') && line.len() >= limit => None,
        Ok(_) => Some(line),
    }
}

/// [`ask_at_terminal`] on any input and output.
pub fn ask<T: Templates>(
    engine: &Engine<T>,
    state: &State,
    moves: &[Move],
    player: PlayerIx,
    input: &mut dyn BufRead,
    talk: &mut dyn Write,
) -> Request {
    let texts: Vec<String> = moves.iter().map(|m| engine.notation(state, m)).collect();
    loop {
        // The board above says whose move it is: the prompt does not say it again.
        let _ = write!(talk, "move (or `help`): ");
        let _ = talk.flush();
        // A line longer than any move ends the game: input is bounded (`< /dev/zero`).
        let Some(line) = read_bounded_line(input, 4096) else {
            return Request::Quit;
        };
        let answer = line.trim();
        let (command, argument) = answer.split_once(' ').unwrap_or((answer, ""));
        match command {
            "" => continue,
            "quit" | "exit" => return Request::Quit,
            "undo" => return Request::Undo,
            "redo" => return Request::Redo,
            "hint" => return Request::Hint,
            "help" | "?" => {
                let _ = write!(talk, "{HELP}");
                continue;
            }
            "board" => {
                let _ = write!(talk, "{}", text_board(&engine.tables, state, player));
                continue;
            }
            "moves" => {
                for (i, text) in texts.iter().enumerate() {
                    let _ = writeln!(talk, "{:>4}  {text}", i + 1);
                }
                continue;
            }
            "save" if !argument.trim().is_empty() => {
                return Request::Save(argument.trim().to_string());
            }
            _ => {}
        }
        if let Some(i) = answer
            .parse::<usize>()
            .ok()
            .filter(|&i| (1..=moves.len()).contains(&i))
        {
            return Request::Play(i - 1);
        }
        match read_move(engine, state, moves, answer) {
            Reading::Move(i) => return Request::Play(i),
            Reading::Ambiguous(several) => {
                let _ = writeln!(talk, "{answer:?} could be any of these; type its number:");
                for i in several {
                    let _ = writeln!(talk, "{:>4}  {}", i + 1, texts[i]);
                }
            }
            reading => {
                let _ = writeln!(
                    talk,
                    "{}; `moves` lists the legal moves, `help` the commands",
                    reading.complaint(answer)
                );
            }
        }
    }
}
