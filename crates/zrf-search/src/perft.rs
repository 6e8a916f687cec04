//! Perft (move-path counting, the test of move generation against published counts)
//! and the fingerprints differential tests compare.

use zrf_runtime::{Fnv1a, Game};

use crate::playout::playout;

/// Leaf count at `depth`: every complete turn is one edge (a chain of partial moves
/// counts once). A position where the game is over has no children.
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    let mut levels = vec![Vec::new(); depth as usize];
    perft_reusing(game, &mut state.clone(), &mut levels)
}

/// Perft to the depth of `levels`, one move list per depth reused by every position at
/// that depth, on one position: each move is made on it and taken back.
fn perft_reusing<G: Game>(game: &G, state: &mut G::State, levels: &mut [Vec<G::Move>]) -> u64 {
    let Some((moves, deeper)) = levels.split_first_mut() else {
        return 1;
    };
    if deeper.is_empty() {
        // The last ply is counted, not played: engines may count without making every
        // move, and the result depends on the moves only through whether there is one.
        let count = game.legal_move_count(state, moves);
        let over = match count {
            0 => game.outcome(state, &[]),
            _ => game.outcome_with_a_move(state),
        };
        return if over.is_some() { 0 } else { count as u64 };
    }
    game.legal_moves_into(state, moves);
    if game.outcome(state, moves).is_some() {
        return 0;
    }
    let mut leaves = 0;
    for mv in moves.iter() {
        let undo = game.make(state, mv);
        leaves += perft_reusing(game, state, deeper);
        game.unmake(state, undo);
    }
    leaves
}

/// Perft split by first move: each move in notation with its leaf count at `depth - 1`.
pub fn divide<G: Game>(game: &G, state: &G::State, depth: u32) -> Vec<(String, u64)> {
    let moves = game.legal_moves(state);
    if depth == 0 || game.outcome(state, &moves).is_some() {
        return Vec::new();
    }
    moves
        .iter()
        .map(|mv| {
            let count = perft(game, &game.play(state, mv), depth - 1);
            (game.notation(state, mv), count)
        })
        .collect()
}

/// What differential tests compare between two engines of the same rules, as one line:
/// perft counts from the start, depth by depth, until a depth exceeds `node_budget` leaves
/// or the next one would be expected to exceed ten times that; then, per seed, the
/// length, result and a digest of the moves of a random playout of at most `plies` turns.
pub fn fingerprint<G: Game>(game: &G, node_budget: u64, seeds: &[u64], plies: usize) -> String {
    let start = game.start();
    let mut counts: Vec<u64> = Vec::new();
    for depth in 1..=12 {
        let count = perft(game, &start, depth);
        counts.push(count);
        let previous = counts.len().checked_sub(2).map_or(1, |i| counts[i].max(1));
        let next_estimate = count.saturating_mul(count) / previous;
        if count == 0 || count > node_budget || next_estimate > node_budget * 10 {
            break;
        }
    }
    let counts: Vec<String> = counts.iter().map(u64::to_string).collect();
    let mut line = format!("perft {}", counts.join(","));
    for &seed in seeds {
        let played = playout(game, seed, plies, |_| true);
        let mut digest = Fnv1a::new();
        for m in &played.moves {
            digest.write(m.as_bytes());
            digest.write(b"\n");
        }
        let digest = digest.finish();
        let result = played
            .outcome
            .map_or("unfinished".to_string(), |o| format!("{o:?}"));
        line.push_str(&format!(
            "; seed {seed}: {} plies {result} {digest:016x}",
            played.plies
        ));
    }
    line
}
