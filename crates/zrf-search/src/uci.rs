//! The Universal Chess Interface, so that tools which drive chess-variant engines
//! (tournament managers, python-chess) can play zrf engines against others.
//!
//! Supported: `uci`, `isready`, `ucinewgame`,
//! `setoption name Hash|Engine|Seed|Threads value X`,
//! `position startpos [moves ...]`, `go` with `movetime`, `depth`, `nodes`,
//! `wtime`/`btime`/`winc`/`binc`/`movestogo` (the first two players' clocks) or
//! `infinite`, `stop`, `quit`; the engine answers `id`, `option`, `uciok`, `readyok`,
//! `info depth score cp|mate nodes nps time pv` and `bestmove`. `position fen` is refused
//! with an `info string` (ZRF games have no FEN).
//!
//! Moves: on boards whose positions are all named like `a1` or `k10` (a letter, then
//! digits) a move is its from-square and to-square, plus the first letter of the piece
//! type a promotion makes (`n` for a knight); a drop is `P@e4` (the piece type's first
//! letter). Other games use the saved-game notation with spaces written as `_`. Where
//! two legal moves would be written alike, the later ones get `~2`, `~3`, ...

use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::Duration;

use zrf_runtime::{Change, Engine, Game, Move, State, Templates};

use crate::ai::{Ai, Algorithm, Settings};
use crate::alphabeta::{Iteration, Limits, WIN, WIN_BOUND};

/// The UCI names of the legal moves in `state`, in move-list order.
pub fn uci_names<T: Templates>(engine: &Engine<T>, state: &State, moves: &[Move]) -> Vec<String> {
    let tables = &engine.tables;
    let squares = tables.positions.iter().all(|p| is_square_name(p));
    let mut seen: HashMap<String, usize> = HashMap::new();
    moves
        .iter()
        .map(|mv| {
            let name = if squares {
                square_move_name(engine, mv)
            } else {
                engine.notation(state, mv).replace(' ', "_")
            };
            let count = seen.entry(name.clone()).or_insert(0);
            *count += 1;
            if *count == 1 {
                name
            } else {
                format!("{name}~{count}")
            }
        })
        .collect()
}

/// `a1`, `k10`: one lowercase letter then digits.
fn is_square_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && name.len() > 1
        && chars.all(|c| c.is_ascii_digit())
}

fn square_move_name<T: Templates>(engine: &Engine<T>, mv: &Move) -> String {
    let tables = &engine.tables;
    let traits = engine.move_traits(mv);
    let square = |p: u32| tables.positions.get(p as usize).map_or("?", String::as_str);
    let letter = |kind: u16| {
        let name = tables
            .pieces
            .get(kind as usize)
            .map_or("?", |p| p.name.as_str());
        match name.to_ascii_lowercase().as_str() {
            "knight" => 'n',
            lower => lower.chars().next().unwrap_or('?'),
        }
    };
    let Some(to) = traits.to else {
        return "0000".to_string();
    };
    let changes = || mv.steps.iter().flat_map(|s| &s.changes);
    match traits.from {
        Some(from) => {
            let promotion = changes().find_map(|c| match *c {
                Change::ChangeType { kind, .. } => Some(letter(kind)),
                _ => None,
            });
            let mut name = format!("{}{}", square(from), square(to));
            name.extend(promotion);
            name
        }
        None => {
            let dropped = changes().find_map(|c| match *c {
                Change::Place { piece, .. } | Change::Create { piece, .. } => Some(piece.kind),
                _ => None,
            });
            let piece = dropped.map_or('?', |k| letter(k).to_ascii_uppercase());
            format!("{piece}@{}", square(to))
        }
    }
}

enum Command {
    /// `uci` (the first time) or `ucinewgame`.
    NewGame,
    IsReady,
    Position(Vec<String>),
    Go(Vec<String>),
    SetOption(String, String),
}

/// Runs the UCI protocol on standard input and output until `quit` or the end of
/// input. `make_engine` builds the game on the searching thread.
pub fn run_uci<T: Templates>(make_engine: &(dyn Fn() -> Engine<T> + Sync)) -> io::Result<()> {
    let stop = AtomicBool::new(false);
    let searching = AtomicBool::new(false);
    let (send, receive) = mpsc::channel::<Command>();
    std::thread::scope(|scope| {
        let (stop, searching) = (&stop, &searching);
        scope.spawn(move || searcher(make_engine, receive, stop, searching));
        let stdin = io::stdin();
        let mut input = stdin.lock();
        // A line is a command: none is longer than a long move list.
        while let Some(line) = crate::terminal::read_bounded_line(&mut input, 1 << 20) {
            let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
            let Some(verb) = words.first() else { continue };
            let sent = match verb.as_str() {
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
                "uci" | "ucinewgame" => send.send(Command::NewGame),
                "position" => send.send(Command::Position(words[1..].to_vec())),
                "go" => {
                    stop.store(false, Relaxed);
                    searching.store(true, Relaxed);
                    send.send(Command::Go(words[1..].to_vec()))
                }
                "setoption" => {
                    let text = words[1..].join(" ");
                    let (name, value) = text
                        .strip_prefix("name ")
                        .and_then(|t| t.split_once(" value "))
                        .unwrap_or((text.as_str(), ""));
                    send.send(Command::SetOption(name.to_string(), value.to_string()))
                }
                other => {
                    say(&format!("info string unknown command {other}"));
                    Ok(())
                }
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

fn say(line: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The searching thread: owns the game, the position and the computer player.
fn searcher<T: Templates>(
    make_engine: &(dyn Fn() -> Engine<T> + Sync),
    commands: mpsc::Receiver<Command>,
    stop: &AtomicBool,
    searching: &AtomicBool,
) {
    let engine = make_engine();
    let mut settings = Settings::default();
    let mut ai = Ai::for_engine_on_threads(&engine, make_engine, settings);
    let mut state = engine.start();
    let mut introduced = false;
    for command in commands {
        match command {
            Command::NewGame => {
                if !introduced {
                    introduced = true;
                    say(&format!(
                        "id name zrf {}",
                        zrf_runtime::printable(&engine.tables.title)
                    ));
                    say("id author zrf (rules by the game's authors)");
                    say("option name Hash type spin default 32 min 1 max 4096");
                    say("option name Engine type combo default auto var auto var alphabeta var mcts var random");
                    say("option name Seed type spin default 1 min 0 max 1000000000");
                    say("option name Threads type spin default 1 min 1 max 256");
                    say("uciok");
                } else {
                    ai.new_game();
                }
                state = engine.start();
            }
            Command::IsReady => say("readyok"),
            Command::SetOption(name, value) => {
                match name.to_ascii_lowercase().as_str() {
                    "hash" => settings.table_megabytes = value.parse().unwrap_or(32),
                    "engine" => settings.algorithm = value.parse::<Algorithm>().ok(),
                    "seed" => settings.seed = value.parse().unwrap_or(1),
                    "threads" => settings.threads = value.parse().unwrap_or(1),
                    _ => say(&format!("info string unknown option {name}")),
                }
                ai = Ai::for_engine_on_threads(&engine, make_engine, settings);
            }
            Command::Position(words) => match set_position(&engine, &words) {
                Ok(position) => state = position,
                Err(message) => say(&format!("info string {message}")),
            },
            Command::Go(words) => {
                let limits = go_limits(&engine, &state, &words);
                go(&engine, &mut ai, &state, limits, stop);
                searching.store(false, Relaxed);
            }
        }
    }
}

/// The position of `position startpos moves ...`.
fn set_position<T: Templates>(engine: &Engine<T>, words: &[String]) -> Result<State, String> {
    match words.first().map(String::as_str) {
        Some("startpos") => {}
        Some("fen") => return Err("position fen is not supported: use startpos moves ...".into()),
        _ => return Err("expected position startpos [moves ...]".into()),
    }
    let mut state = engine.start();
    let moves = match words.get(1).map(String::as_str) {
        Some("moves") => &words[2..],
        _ => &[],
    };
    for (n, wanted) in moves.iter().enumerate() {
        let legal = engine.legal_moves(&state);
        let names = uci_names(engine, &state, &legal);
        let Some(index) = names.iter().position(|name| name == wanted) else {
            return Err(format!(
                "move {} {wanted} is not legal; legal: {}",
                n + 1,
                names.join(" ")
            ));
        };
        state = engine.play(&state, &legal[index]);
    }
    Ok(state)
}

/// The limits of `go ...`: a fixed time, depth or node count, or a share of the
/// mover's clock.
fn go_limits<T: Templates>(engine: &Engine<T>, state: &State, words: &[String]) -> Limits {
    let value = |name: &str| {
        let at = words.iter().position(|w| w == name)?;
        words.get(at + 1)?.parse::<u64>().ok()
    };
    let mover = engine.to_move(state);
    let (clock, increment) = if mover == 0 {
        (value("wtime"), value("winc"))
    } else {
        (value("btime"), value("binc"))
    };
    let mut limits = Limits {
        depth: value("depth").map(|d| d.min(64) as u32),
        nodes: value("nodes"),
        time: value("movetime").map(Duration::from_millis),
    };
    if let (None, Some(clock)) = (limits.time, clock) {
        let moves_to_go = value("movestogo").unwrap_or(30).max(1);
        let share = clock / moves_to_go + increment.unwrap_or(0) * 3 / 4;
        limits.time = Some(Duration::from_millis(share.min(clock / 2).max(1)));
    }
    let infinite = words.iter().any(|w| w == "infinite");
    if limits == Limits::default() && !infinite {
        limits.time = Some(Duration::from_secs(1));
    }
    limits
}

fn go<T: Templates>(
    engine: &Engine<T>,
    ai: &mut Ai<'_, Engine<T>, crate::RulesEval>,
    state: &State,
    limits: Limits,
    stop: &AtomicBool,
) {
    let moves = engine.legal_moves(state);
    if moves.is_empty() || engine.outcome(state, &moves).is_some() {
        say("info string the game is over");
        say("bestmove 0000");
        return;
    }
    let names = uci_names(engine, state, &moves);
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
            pv_names(engine, state, &iteration.pv).join(" ")
        ));
    };
    let choice = ai.choose(state, Some(stop), report);
    ai.set_limits(saved.limits);
    let index = choice.map_or(0, |c| c.index).min(names.len() - 1);
    say(&format!("bestmove {}", names[index]));
}

/// A line given in saved-game notation, in UCI names (as far as it can be followed).
fn pv_names<T: Templates>(engine: &Engine<T>, state: &State, line: &[String]) -> Vec<String> {
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
        names.push(uci_names(engine, &position, &moves).swap_remove(index));
        position = engine.play(&position, &moves[index]);
    }
    names
}
