//! `zrfc perft` and `zrfc moves`: running a game with the reference interpreter.

use std::io::{self, Write};
use std::path::Path;
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
