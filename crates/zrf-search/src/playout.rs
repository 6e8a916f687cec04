//! Uniformly random games, seeded: the same seed plays the same game on every engine of
//! the same rules.

use zrf_runtime::{Game, Outcome, SplitMix64};

/// How a random playout ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Playout {
    /// Turns played.
    pub plies: usize,
    /// The result, if the game ended.
    pub outcome: Option<Outcome>,
    /// The moves, in notation.
    pub moves: Vec<String>,
}

/// Plays uniformly random legal moves from the start, at most `max_plies` turns, or until
/// `keep_going`, shown each position before its move, says stop (a time budget, say). The same seed gives the same game for
/// every engine of the same rules, which is what differential tests compare.
pub fn playout<G: Game>(
    game: &G,
    seed: u64,
    max_plies: usize,
    keep_going: impl FnMut(&G::State) -> bool,
) -> Playout {
    playout_with(game, seed, max_plies, keep_going, |_, _| {})
}

/// [`playout`], showing `on_move` each move chosen with the position it is played from
/// (to write a saved game of it, say).
pub fn playout_with<G: Game>(
    game: &G,
    seed: u64,
    max_plies: usize,
    mut keep_going: impl FnMut(&G::State) -> bool,
    mut on_move: impl FnMut(&G::State, &G::Move),
) -> Playout {
    let mut rng = SplitMix64::new(seed);
    let mut state = game.start();
    let mut moves_played = Vec::new();
    let mut outcome = None;
    while moves_played.len() < max_plies && keep_going(&state) {
        let moves = game.legal_moves(&state);
        if let Some(result) = game.outcome(&state, &moves) {
            outcome = Some(result);
            break;
        }
        let choice = &moves[rng.below(moves.len())];
        on_move(&state, choice);
        moves_played.push(game.notation(&state, choice));
        state = game.play(&state, choice);
    }
    Playout {
        plies: moves_played.len(),
        outcome,
        moves: moves_played,
    }
}

/// A uniformly random game from the start without writing its moves down (the speed
/// measure of engines): the turns played and the result, if the game ended within
/// `max_plies`.
pub fn random_game<G: Game>(game: &G, seed: u64, max_plies: usize) -> (usize, Option<Outcome>) {
    random_game_from(game, &game.start(), &mut SplitMix64::new(seed), max_plies)
}

/// [`random_game`] from `state`, drawing the moves with `rng`.
pub fn random_game_from<G: Game>(
    game: &G,
    state: &G::State,
    rng: &mut SplitMix64,
    max_plies: usize,
) -> (usize, Option<Outcome>) {
    play_randomly(game, &mut state.clone(), rng, max_plies)
}

/// Plays uniformly random legal moves on `state`, at most `max_plies` turns: the turns
/// played and the result, if the game ended. `state` is left at the last position (a
/// search judges it when the game was cut).
pub fn play_randomly<G: Game>(
    game: &G,
    state: &mut G::State,
    rng: &mut SplitMix64,
    max_plies: usize,
) -> (usize, Option<Outcome>) {
    let mut moves = Vec::new();
    for ply in 0..max_plies {
        // The result depends on the legal moves only through whether there are any:
        // known before the move is drawn, which plays it on `state`.
        let ended = game.outcome_with_a_move(state);
        if ended.is_some() {
            // The game ends here either way, the result told by whether there is a
            // move: drawn on a copy, as the draw goes on to play it.
            let drawn = game.make_random_move(&mut state.clone(), rng, &mut moves);
            return (ply, game.outcome(state, drawn.as_slice()));
        }
        if game.make_random_move(state, rng, &mut moves).is_none() {
            return (ply, game.outcome(state, &[]));
        }
    }
    (max_plies, None)
}
