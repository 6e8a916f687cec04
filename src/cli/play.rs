//! `zrfc perft`, `zrfc moves` and `zrfc play`: running a game with the reference
//! interpreter.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use codespan_reporting::term::termcolor::ColorChoice;
use zrf_runtime::Game;

use super::{choose_game, run_front_end};
use crate::frontend::FrontEndOptions;
use crate::interp::{self, Interpreted};

/// Runs the front end and builds the interpreter for one game; `Err` is the exit code.
fn load(
    file: &Path,
    variant: Option<&str>,
    options: &FrontEndOptions,
    color: ColorChoice,
) -> Result<Interpreted, u8> {
    let front_end = run_front_end(file, options, color, true)?;
    let chosen = choose_game(file, front_end, variant)?;
    let Some(game) = chosen.game else {
        eprintln!(
            "error: {:?} has errors; `zrfc check {}` shows them",
            chosen.title,
            file.display()
        );
        return Err(1);
    };
    if let Some(engine) = &game.engine {
        eprintln!("warning: the moves of {:?} come from the Axiom engine {engine:?}; its ZRF templates are placeholders", game.title);
    }
    interp::engine(game).map_err(|err| {
        eprintln!("error: {err}");
        1
    })
}

/// What `zrfc perft` was asked for.
pub struct PerftRequest {
    pub depth: u32,
    pub divide: bool,
    /// Published counts: (depth, count).
    pub expect: Vec<(u32, u64)>,
}

pub fn perft(
    file: &Path,
    variant: Option<&str>,
    request: PerftRequest,
    options: &FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    let engine = match load(file, variant, options, color) {
        Ok(engine) => engine,
        Err(code) => return code,
    };
    let start = engine.start();
    let mut stdout = io::stdout().lock();
    let _ = writeln!(stdout, "{}", engine.tables.title);
    let mut mismatches = 0;
    for d in 1..=request.depth {
        let clock = Instant::now();
        let count = zrf_search::perft(&engine, &start, d);
        let seconds = clock.elapsed().as_secs_f64();
        let speed = if seconds > 0.0 {
            count as f64 / seconds
        } else {
            0.0
        };
        let verdict = match request
            .expect
            .iter()
            .find(|(depth, _)| *depth == d)
            .map(|e| e.1)
        {
            Some(want) if want == count => " ok".to_string(),
            Some(want) => {
                mismatches += 1;
                format!(" MISMATCH: expected {want}")
            }
            None => String::new(),
        };
        let _ = writeln!(
            stdout,
            "depth {d}: {count} ({seconds:.3} s, {speed:.0} leaves/s){verdict}"
        );
        let _ = stdout.flush();
    }
    if request.divide && request.depth > 0 {
        for (notation, count) in zrf_search::divide(&engine, &start, request.depth) {
            let _ = writeln!(stdout, "{notation}: {count}");
        }
    }
    u8::from(mismatches > 0)
}

pub fn moves(
    file: &Path,
    variant: Option<&str>,
    after: &[String],
    options: &FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    let engine = match load(file, variant, options, color) {
        Ok(engine) => engine,
        Err(code) => return code,
    };
    let mut state = engine.start();
    for (i, wanted) in after.iter().enumerate() {
        let moves = engine.legal_moves(&state);
        let found = moves.iter().find(|m| engine.notation(&state, m) == *wanted);
        let Some(found) = found else {
            eprintln!(
                "error: move {} {wanted:?} is not legal here; the legal moves are:",
                i + 1
            );
            for m in &moves {
                eprintln!("  {}", engine.notation(&state, m));
            }
            return 1;
        };
        state = engine.play(&state, found);
    }
    let moves = engine.legal_moves(&state);
    let mut stdout = io::stdout().lock();
    for m in &moves {
        let _ = writeln!(stdout, "{}", engine.notation(&state, m));
    }
    if let Some(outcome) = engine.outcome(&state, &moves) {
        let _ = writeln!(stdout, "game over: {outcome:?}");
    }
    0
}

/// What `zrfc play` was asked for.
pub struct PlayRequest {
    /// Players moved by a person at the terminal; the others move at random.
    pub humans: Vec<String>,
    pub seed: u64,
    pub max_turns: usize,
    /// Where to write the saved game; `None`: `<rules file name>.zsg` here.
    pub save: Option<PathBuf>,
}

pub fn play(
    file: &Path,
    variant: Option<&str>,
    request: PlayRequest,
    options: &FrontEndOptions,
    color: ColorChoice,
) -> u8 {
    let engine = match load(file, variant, options, color) {
        Ok(engine) => engine,
        Err(code) => return code,
    };
    let tables = &engine.tables;
    let mut humans = vec![false; tables.players.len()];
    for name in &request.humans {
        match tables.players.iter().position(|p| p.name == *name) {
            Some(p) => humans[p] = true,
            None => {
                let names: Vec<&str> = tables.players.iter().map(|p| p.name.as_str()).collect();
                eprintln!(
                    "error: no player {name:?}; the players are {}",
                    names.join(", ")
                );
                return 2;
            }
        }
    }
    let mut rng = zrf_search::SplitMix64::new(request.seed);
    let mut state = engine.start();
    let mut records = Vec::new();
    let mut stdout = io::stdout().lock();
    let _ = writeln!(stdout, "{}", tables.title);
    let mut turns = 0;
    let ending = loop {
        let moves = engine.legal_moves(&state);
        if let Some(outcome) = engine.outcome(&state, &moves) {
            break format!("game over: {}", outcome.describe(tables));
        }
        if moves.is_empty() {
            break "no legal moves and no goal decides: the game stops".to_string();
        }
        if turns == request.max_turns {
            break format!("stopped after {turns} turns (--max-turns)");
        }
        let player = engine.turn(&state).player as usize;
        let chosen = if humans[player] {
            let _ = stdout.flush();
            match ask(&engine, &state, &moves, &tables.players[player].name) {
                Some(i) => i,
                None => break "stopped at the player's request".to_string(),
            }
        } else {
            rng.below(moves.len())
        };
        for record in zrf_runtime::turn_records(tables, &state, &moves[chosen]) {
            let _ = writeln!(stdout, "{record}");
            records.push(record);
        }
        state = engine.play(&state, &moves[chosen]);
        turns += 1;
    };
    let _ = writeln!(stdout, "{ending}");
    let rules_name = file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let path = request.save.unwrap_or_else(|| free_name(file));
    let text = zrf_runtime::saved_game(tables, &rules_name, &humans, &records);
    match std::fs::write(&path, text) {
        Ok(()) => {
            let _ = writeln!(
                stdout,
                "saved {} records to {}",
                records.len(),
                path.display()
            );
            0
        }
        Err(err) => {
            eprintln!("error: cannot write {}: {err}", path.display());
            2
        }
    }
}

/// `<rules file stem>.zsg` in the current folder, or `-2`, `-3`, ... appended to keep
/// earlier games.
fn free_name(rules: &Path) -> PathBuf {
    let stem = rules
        .file_stem()
        .map_or_else(|| "game".to_string(), |s| s.to_string_lossy().into_owned());
    let mut path = PathBuf::from(format!("{stem}.zsg"));
    let mut n = 2;
    while path.exists() {
        path = PathBuf::from(format!("{stem}-{n}.zsg"));
        n += 1;
    }
    path
}

/// Asks a person for a move: its number in the list or its notation. `None` at end of
/// input or `quit`.
fn ask(
    engine: &Interpreted,
    state: &zrf_runtime::State,
    moves: &[zrf_runtime::Move],
    player: &str,
) -> Option<usize> {
    let texts: Vec<String> = moves.iter().map(|m| engine.notation(state, m)).collect();
    let mut stderr = io::stderr().lock();
    for (i, text) in texts.iter().enumerate() {
        let _ = writeln!(stderr, "{:>4}  {text}", i + 1);
    }
    loop {
        let _ = write!(
            stderr,
            "{player} to move (number or move, `quit` to stop): "
        );
        let _ = stderr.flush();
        let mut line = String::new();
        if io::stdin().read_line(&mut line).ok()? == 0 {
            return None;
        }
        let answer = line.trim();
        if answer == "quit" {
            return None;
        }
        if let Some(i) = answer
            .parse::<usize>()
            .ok()
            .filter(|&i| (1..=moves.len()).contains(&i))
        {
            return Some(i - 1);
        }
        if let Some(i) = texts.iter().position(|t| t == answer) {
            return Some(i);
        }
        let _ = writeln!(stderr, "not a legal move here: {answer:?}");
    }
}
