//! The Universal Chess Interface, so that chess GUIs, tournament managers and
//! python-chess can play zrf engines against others.
//!
//! Supported: `uci`, `debug`, `isready`, `ucinewgame`, `setoption` (`Hash`, `Threads`,
//! `Engine`, `Seed`, `UCI_Chess960`, and `UCI_Variant` where a package holds several
//! games), `position startpos|fen FEN [moves ...]`, `go` with `movetime`, `depth`,
//! `nodes`, `wtime`/`btime`/`winc`/`binc`/`movestogo` (the first two players' clocks) or
//! `infinite`, `stop`, `ponderhit`, `quit`. The engine answers `id`, `option`, `uciok`,
//! `readyok`, `info depth score cp|mate nodes nps time pv` and `bestmove`. Unknown words
//! before a command are skipped, as the protocol asks.
//!
//! A `position` that cannot be set up (an illegal move, a FEN the game cannot
//! represent) is refused with an `info string` saying why, and every `go` until the
//! next good `position` answers `bestmove 0000`: never a move for another position.
//! The GUI adjudicates: while the position has a legal move, `go` answers one even
//! where the rules file's own goals have ended the game.
//!
//! Moves are named as [`crate::names`] says (`e2e4`, `e7e8q`, `P@e4`, castling `e1g1`, or
//! `e1h1` under `UCI_Chess960`); positions as [`fen`] says.

pub mod fen;

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::Duration;

use zrf_runtime::{Engine, Game, State, Templates};
use zrf_search::{Ai, Algorithm, Iteration, Limits, Settings, WIN, WIN_BOUND};

use crate::move_text::{read_move, Reading};
pub use crate::names::{is_square_name, piece_letters, Castling, Namer};
pub use fen::FenBoard;

/// The UCI names of the legal moves in `state`, in move-list order (castling in the
/// standard style).
pub fn uci_names<T: Templates>(
    engine: &Engine<T>,
    state: &State,
    moves: &[zrf_runtime::Move],
) -> Vec<String> {
    Namer::new(&engine.tables, Castling::Standard).names(engine, state, moves)
}

/// What the reading thread passes to the searching one.
enum Command {
    NewGame,
    IsReady,
    Position(Vec<String>),
    Go(Vec<String>),
    SetOption(String, String),
}

/// One game a UCI engine offers: its title, and the loop that plays it
/// ([`play_variant`] with its engine).
pub struct Variant<'a> {
    pub title: String,
    pub play: &'a (dyn Fn(&mut Session<'_>) -> Option<String> + Sync),
}

/// What the game loops of a UCI engine share: the commands, the options set so far,
/// and the variants to switch between.
pub struct Session<'a> {
    commands: &'a mpsc::Receiver<Command>,
    stop: &'a AtomicBool,
    searching: &'a AtomicBool,
    settings: Settings,
    castling: Castling,
    titles: Vec<String>,
}

/// Runs the UCI protocol for one game on standard input and output until `quit` or
/// the end of input. `make_engine` builds the game on the searching thread.
pub fn run_uci<T: Templates>(make_engine: &(dyn Fn() -> Engine<T> + Sync)) -> io::Result<()> {
    let title = make_engine().tables.title;
    let play = |session: &mut Session<'_>| play_variant(make_engine, session);
    run_uci_variants(&[Variant { title, play: &play }], 0)
}

/// Runs the UCI protocol for several games, `first` played until `UCI_Variant` names
/// another (by title, ignoring case and anything but letters and digits).
pub fn run_uci_variants(variants: &[Variant<'_>], first: usize) -> io::Result<()> {
    let stop = AtomicBool::new(false);
    let searching = AtomicBool::new(false);
    let (send, receive) = mpsc::channel::<Command>();
    let titles: Vec<String> = variants.iter().map(|v| v.title.clone()).collect();
    std::thread::scope(|scope| {
        let (stop, searching, receive) = (&stop, &searching, receive);
        let titles_for_search = titles.clone();
        scope.spawn(move || {
            let mut session = Session {
                commands: &receive,
                stop,
                searching,
                settings: Settings {
                    past_result: true,
                    ..Settings::default()
                },
                castling: Castling::Standard,
                titles: titles_for_search,
            };
            let mut current = first.min(variants.len().saturating_sub(1));
            while let Some(variant) = variants.get(current) {
                let Some(next) = (variant.play)(&mut session) else {
                    break;
                };
                current = variant_index(&session.titles, &next).unwrap_or(current);
            }
        });
        let stdin = io::stdin();
        let mut input = stdin.lock();
        // A line is a command: none is longer than a long move list.
        while let Some(line) = crate::terminal::read_bounded_line(&mut input, 1 << 20) {
            let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
            // Unknown words before a command are skipped.
            let Some(at) = words.iter().position(|w| is_command(w)) else {
                continue;
            };
            let (verb, args) = (&words[at], words[at + 1..].to_vec());
            let sent = match verb.as_str() {
                "uci" => {
                    introduce(&variants[first.min(variants.len() - 1)].title, &titles);
                    send.send(Command::NewGame)
                }
                // Answered at once during a search, else in turn.
                "isready" if searching.load(Relaxed) => {
                    say("readyok");
                    Ok(())
                }
                "isready" => send.send(Command::IsReady),
                "stop" => {
                    stop.store(true, Relaxed);
                    Ok(())
                }
                "quit" => break,
                "ucinewgame" => send.send(Command::NewGame),
                "position" => send.send(Command::Position(args)),
                "go" => {
                    stop.store(false, Relaxed);
                    searching.store(true, Relaxed);
                    send.send(Command::Go(args))
                }
                "setoption" => {
                    let text = args.join(" ");
                    let (name, value) = text
                        .strip_prefix("name ")
                        .map(|t| t.split_once(" value ").unwrap_or((t, "")))
                        .unwrap_or((text.as_str(), ""));
                    send.send(Command::SetOption(name.to_string(), value.to_string()))
                }
                // Pondering is not offered; `debug` and `register` change nothing.
                _ => Ok(()),
            };
            if sent.is_err() {
                break;
            }
        }
        stop.store(true, Relaxed);
        drop(send);
    });
    Ok(())
}

fn is_command(word: &str) -> bool {
    matches!(
        word,
        "uci"
            | "debug"
            | "isready"
            | "setoption"
            | "register"
            | "ucinewgame"
            | "position"
            | "go"
            | "stop"
            | "ponderhit"
            | "quit"
    )
}

/// The variant a `UCI_Variant` value names: its title, ignoring case and everything
/// but letters and digits.
fn variant_index(titles: &[String], wanted: &str) -> Option<usize> {
    let key = |text: &str| -> String {
        text.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let wanted = key(wanted);
    titles.iter().position(|t| key(t) == wanted)
}

fn introduce(title: &str, titles: &[String]) {
    say(&format!("id name zrf {}", zrf_runtime::printable(title)));
    say("id author zrf (rules by the game's authors)");
    say("option name Hash type spin default 32 min 1 max 4096");
    say("option name Threads type spin default 1 min 1 max 256");
    say("option name Engine type combo default auto var auto var alphabeta var mcts var random");
    say("option name Seed type spin default 1 min 0 max 1000000000");
    say("option name UCI_Chess960 type check default false");
    if titles.len() > 1 {
        let vars: String = titles
            .iter()
            .map(|t| format!(" var {}", zrf_runtime::printable(t)))
            .collect();
        say(&format!(
            "option name UCI_Variant type combo default {}{vars}",
            zrf_runtime::printable(title)
        ));
    }
    say("uciok");
}

fn say(line: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Plays one game on the searching thread until the commands end (`None`) or
/// `UCI_Variant` names another of the session's games (its title).
pub fn play_variant<T: Templates>(
    make_engine: &(dyn Fn() -> Engine<T> + Sync),
    session: &mut Session<'_>,
) -> Option<String> {
    let engine = make_engine();
    let fen = FenBoard::new(&engine);
    let mut namer = Namer::new(&engine.tables, session.castling);
    let mut ai = Ai::for_engine_on_threads(&engine, make_engine, session.settings);
    // `Err`: the last `position` was refused, and why.
    let mut position: Result<State, String> = Ok(engine.start());
    while let Ok(command) = session.commands.recv() {
        match command {
            Command::NewGame => {
                ai.new_game();
                position = Ok(engine.start());
            }
            Command::IsReady => say("readyok"),
            Command::SetOption(name, value) => {
                let settings = &mut session.settings;
                match name.to_ascii_lowercase().as_str() {
                    "hash" => settings.table_megabytes = value.parse().unwrap_or(32),
                    "engine" => settings.algorithm = value.parse::<Algorithm>().ok(),
                    "seed" => settings.seed = value.parse().unwrap_or(1),
                    "threads" => settings.threads = value.parse().unwrap_or(1),
                    "uci_chess960" => {
                        session.castling = if value.eq_ignore_ascii_case("true") {
                            Castling::KingTakesRook
                        } else {
                            Castling::Standard
                        };
                        namer = Namer::new(&engine.tables, session.castling);
                    }
                    "uci_variant" => match variant_index(&session.titles, &value) {
                        Some(index) if session.titles[index] != engine.tables.title => {
                            return Some(session.titles[index].clone());
                        }
                        Some(_) => {}
                        None => say(&format!(
                            "info string no variant {value:?}; the variants are {}",
                            session.titles.join(", ")
                        )),
                    },
                    _ => say(&format!("info string unknown option {name}")),
                }
                ai = Ai::for_engine_on_threads(&engine, make_engine, session.settings);
            }
            Command::Position(words) => {
                position = set_position(&engine, &namer, fen.as_ref(), &words);
                if let Err(message) = &position {
                    say(&format!("info string position refused: {message}"));
                }
            }
            Command::Go(words) => {
                match &position {
                    Ok(state) => {
                        let limits = go_limits(&engine, state, &words);
                        go(&engine, &namer, &mut ai, state, limits, session.stop);
                    }
                    Err(message) => {
                        say(&format!("info string no position to search: {message}"));
                        say("bestmove 0000");
                    }
                }
                session.searching.store(false, Relaxed);
            }
        }
    }
    None
}

/// The position of `position startpos|fen FEN [moves ...]`.
fn set_position<T: Templates>(
    engine: &Engine<T>,
    namer: &Namer,
    fen: Result<&FenBoard, &String>,
    words: &[String],
) -> Result<State, String> {
    let moves_at = words.iter().position(|w| w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let mut state = match head.first().map(String::as_str) {
        Some("startpos") => engine.start(),
        Some("fen") => {
            let fen = fen.map_err(|why| format!("this game has no FEN: {why}"))?;
            let fields: Vec<&str> = head[1..].iter().map(String::as_str).collect();
            fen.read(engine, &fields)
                .map_err(|why| format!("FEN refused: {why}"))?
        }
        _ => return Err("expected position startpos|fen FEN [moves ...]".into()),
    };
    let moves = moves_at.map_or(&[][..], |at| &words[at + 1..]);
    for (n, wanted) in moves.iter().enumerate() {
        let legal = engine.legal_moves(&state);
        // A GUI sends UCI names; a person at the prompt may type any form the shared
        // reader takes (`Nf3`, the saved-game notation with `_` for spaces).
        let index = namer
            .find(engine, &state, &legal, wanted)
            .or_else(
                |why| match read_move(engine, &state, &legal, &wanted.replace('_', " ")) {
                    Reading::Move(index) => Ok(index),
                    _ => Err(why),
                },
            )
            .map_err(|why| format!("move {}: {why}", n + 1))?;
        state = engine.play(&state, &legal[index]);
    }
    Ok(state)
}

/// Milliseconds kept back from the clock for the time between our `bestmove` and the
/// GUI's reading it.
const MOVE_OVERHEAD_MS: u64 = 30;

/// The limits of `go ...` for the player to move.
fn go_limits<T: Templates>(engine: &Engine<T>, state: &State, words: &[String]) -> Limits {
    limits_of(words, engine.to_move(state) == 0)
}

/// The limits of `go ...`: a fixed time, depth or node count, or a share of the
/// mover's clock (`first`: the first player's) that never runs it out: a thirtieth of
/// what is left (or of `movestogo`) plus three quarters of the increment, at most half
/// of what is left, less the overhead.
fn limits_of(words: &[String], first: bool) -> Limits {
    let value = |name: &str| {
        let at = words.iter().position(|w| w == name)?;
        words.get(at + 1)?.parse::<u64>().ok()
    };
    let (clock, increment) = if first {
        (value("wtime"), value("winc"))
    } else {
        (value("btime"), value("binc"))
    };
    let mut limits = Limits {
        depth: value("depth").map(|d| d.min(64) as u32),
        nodes: value("nodes"),
        time: value("movetime")
            .map(|t| Duration::from_millis(t.saturating_sub(MOVE_OVERHEAD_MS / 3).max(1))),
        whole_time: value("movetime").is_some(),
    };
    if let (None, Some(clock)) = (limits.time, clock) {
        let usable = clock.saturating_sub(MOVE_OVERHEAD_MS);
        let moves_to_go = value("movestogo").unwrap_or(30).clamp(1, 1000);
        let share = usable / moves_to_go + increment.unwrap_or(0) * 3 / 4;
        limits.time = Some(Duration::from_millis(share.min(usable / 2).max(1)));
    }
    let infinite = words.iter().any(|w| w == "infinite");
    if limits == Limits::default() && !infinite {
        limits.time = Some(Duration::from_secs(1));
    }
    limits
}

fn go<T: Templates>(
    engine: &Engine<T>,
    namer: &Namer,
    ai: &mut Ai<'_, Engine<T>, zrf_search::RulesEval>,
    state: &State,
    limits: Limits,
    stop: &AtomicBool,
) {
    let moves = engine.legal_moves(state);
    if moves.is_empty() {
        say("info string no legal move: the game is over");
        say("bestmove 0000");
        return;
    }
    let names = namer.names(engine, state, &moves);
    let saved = *ai.settings();
    ai.set_limits(limits);
    let report = |iteration: &Iteration| {
        let score = match iteration.score {
            s if s > WIN_BOUND => format!("mate {}", (WIN - s + 1) / 2),
            s if s < -WIN_BOUND => format!("mate -{}", (WIN + s + 1) / 2),
            s => format!("cp {s}"),
        };
        let millis = iteration.elapsed.as_millis().max(1);
        say(&format!(
            "info depth {} score {score} nodes {} nps {} time {millis} pv {}",
            iteration.depth,
            iteration.nodes,
            u128::from(iteration.nodes) * 1000 / millis,
            pv_names(engine, namer, state, &iteration.pv).join(" ")
        ));
    };
    let choice = ai.choose(state, Some(stop), report);
    ai.set_limits(saved.limits);
    let index = choice.map_or(0, |c| c.index).min(names.len() - 1);
    say(&format!("bestmove {}", names[index]));
}

/// A line given in saved-game notation, in UCI names (as far as it can be followed).
fn pv_names<T: Templates>(
    engine: &Engine<T>,
    namer: &Namer,
    state: &State,
    line: &[String],
) -> Vec<String> {
    let mut position = state.clone();
    let mut names = Vec::new();
    for wanted in line {
        let moves = engine.legal_moves(&position);
        let Some(index) = moves
            .iter()
            .position(|m| engine.notation(&position, m) == *wanted)
        else {
            break;
        };
        names.push(namer.names(engine, &position, &moves).swap_remove(index));
        position = engine.play(&position, &moves[index]);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(go: &str, first: bool) -> Limits {
        let words: Vec<String> = go.split_whitespace().map(String::from).collect();
        limits_of(&words, first)
    }

    fn millis(limits: Limits) -> Option<u128> {
        limits.time.map(|t| t.as_millis())
    }

    #[test]
    fn the_clock_is_shared_out_and_never_run_out() {
        // 60 s left: a thirtieth of what is left after the overhead.
        assert_eq!(millis(limits("wtime 60000 btime 1000", true)), Some(1999));
        assert_eq!(millis(limits("wtime 60000 btime 1000", false)), Some(32));
        // The increment counts for three quarters; never more than half the clock.
        assert_eq!(millis(limits("wtime 3000 winc 2000", true)), Some(1485));
        assert_eq!(millis(limits("btime 100 binc 5000", false)), Some(35));
        assert_eq!(millis(limits("wtime 2000 movestogo 1", true)), Some(985));
        // Less than the overhead left: the least time there is.
        assert_eq!(millis(limits("wtime 10", true)), Some(1));
        assert_eq!(millis(limits("movetime 100", true)), Some(90));
        // A fixed time a move is used whole; a share of the clock is not.
        assert!(limits("movetime 100", true).whole_time);
        assert!(!limits("wtime 60000", true).whole_time);
        assert_eq!(limits("depth 5", true), Limits::depth(5));
        assert_eq!(millis(limits("", true)), Some(1000));
        assert_eq!(limits("infinite", true), Limits::default());
    }
}
