//! Search algorithms generic over the runtime's [`Game`] trait, so the interpreter and
//! every compiled engine share them. Today: perft (move-path counting), the test of move
//! generation against published counts.

use zrf_runtime::Game;

/// Leaf count at `depth`: every complete turn is one edge (a chain of partial moves
/// counts once). A position where the game is over has no children.
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.legal_moves(state);
    if game.outcome(state, &moves).is_some() {
        return 0;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| perft(game, &game.play(state, mv), depth - 1))
        .sum()
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
