//! Searches on several threads. An engine keeps per-run state and a position shares
//! its history between copies, so neither crosses threads: each thread makes its own
//! engine and rebuilds the position from a [`Snapshot`](zrf_runtime::Snapshot).
//!
//! Alpha-beta splits the root moves: thread `k` searches the moves whose place in the
//! legal move list is `k` modulo the thread count, with its own transposition table
//! (which a player keeps from one search to the next), and at the deepest depth every
//! thread completed the best score wins (ties: the earlier move). The same thread
//! count, limits in depth or nodes and searches before give the same move on every
//! run. Perft splits the root moves the same way.

use std::thread;

use zrf_runtime::{Engine, State, Templates};

use crate::alphabeta::{alpha_beta, AlphaBetaOptions, Found, Iteration, WIN_BOUND};
use crate::eval::RulesEval;
use crate::tt::TranspositionTable;

/// Makes an engine of the game on the thread that calls it.
pub type MakeEngine<'a, T> = &'a (dyn Fn() -> Engine<T> + Sync);

/// [`alpha_beta`] with the root moves shared between threads, one per table of
/// `tables` (see the module documentation): thread `k` keeps what it finds in
/// `tables[k]`, which a player keeps from one search to the next, as a one-thread
/// search keeps its table. Without tables, one thread searches with a table of its own.
pub fn alpha_beta_split<T: Templates>(
    make_engine: MakeEngine<'_, T>,
    eval: &RulesEval,
    state: &State,
    options: &AlphaBetaOptions<'_>,
    tables: &[TranspositionTable],
) -> Option<Found> {
    let own_table;
    let tables = match tables {
        [] => {
            own_table = [TranspositionTable::with_megabytes(1)];
            &own_table[..]
        }
        tables => tables,
    };
    let engine = make_engine();
    let moves = engine.legal_moves(state);
    if moves.is_empty() || (!options.past_result && engine.outcome(state, &moves).is_some()) {
        return None;
    }
    let threads = tables.len().min(moves.len());
    let snapshot = state.snapshot();
    let shares: Vec<Vec<usize>> = (0..threads)
        .map(|k| (k..moves.len()).step_by(threads).collect())
        .collect();
    let results: Vec<(Vec<Iteration>, Option<Found>)> = thread::scope(|scope| {
        let handles: Vec<_> = shares
            .iter()
            .zip(tables)
            .map(|(share, table)| {
                let snapshot = &snapshot;
                scope.spawn(move || {
                    let engine = make_engine();
                    let state = State::from_snapshot(&engine.tables, snapshot);
                    let options = AlphaBetaOptions {
                        root_moves: Some(share),
                        ..*options
                    };
                    let mut iterations = Vec::new();
                    let found = alpha_beta(&engine, eval, table, &state, &options, |it| {
                        iterations.push(it.clone());
                    });
                    (iterations, found)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    combine(results)
}

/// The best of the threads' results at the deepest depth all completed (a thread that
/// found a forced result offers its last iteration, true at every depth).
fn combine(results: Vec<(Vec<Iteration>, Option<Found>)>) -> Option<Found> {
    let decided = |its: &[Iteration]| its.last().is_some_and(|it| it.score.abs() > WIN_BOUND);
    let common = results
        .iter()
        .filter(|(its, _)| !decided(its))
        .map(|(its, _)| its.last().map_or(0, |it| it.depth))
        .min();
    if common == Some(0) {
        // A thread completed no iteration: the first thread's choice.
        return results.into_iter().find_map(|(_, found)| found);
    }
    let offered = results.iter().filter_map(|(its, _)| match common {
        Some(depth) if !decided(its) => its.iter().find(|it| it.depth == depth),
        _ => its.last(),
    });
    let mut iteration = offered
        .max_by_key(|it| (it.score, std::cmp::Reverse(it.index)))?
        .clone();
    let reports = results.iter().filter_map(|(_, found)| found.as_ref());
    iteration.nodes = reports.clone().map(|f| f.iteration.nodes).sum();
    iteration.elapsed = reports
        .map(|f| f.iteration.elapsed)
        .max()
        .unwrap_or_default();
    Some(Found {
        index: iteration.index,
        iteration,
    })
}

/// [`crate::perft`] with the root moves shared between `threads` threads.
pub fn perft_split<T: Templates>(
    make_engine: MakeEngine<'_, T>,
    state: &State,
    depth: u32,
    threads: usize,
) -> u64 {
    let engine = make_engine();
    if depth <= 1 || threads <= 1 {
        return crate::perft(&engine, state, depth);
    }
    let moves = engine.legal_moves(state);
    if moves.is_empty() || engine.outcome(state, &moves).is_some() {
        return 0;
    }
    let threads = threads.min(moves.len());
    let snapshot = state.snapshot();
    thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let snapshot = &snapshot;
                scope.spawn(move || {
                    let engine = make_engine();
                    let state = State::from_snapshot(&engine.tables, snapshot);
                    let moves = engine.legal_moves(&state);
                    (k..moves.len())
                        .step_by(threads)
                        .map(|i| crate::perft(&engine, &engine.play(&state, &moves[i]), depth - 1))
                        .sum::<u64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    })
}
