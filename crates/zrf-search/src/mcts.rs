//! Monte Carlo tree search (UCT): for games where material means little (connection,
//! placement, sowing), it judges moves by how random games from them end.
//!
//! Each iteration walks down the tree by the UCB1 rule (a random player's node picks
//! at random), adds one new position, plays a random game from it (cut after a number
//! of plies and then judged by the evaluation, if one is given), and credits every
//! position on the way with the result for the player who chose the move into it. The
//! move played is the root's most visited.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use zrf_runtime::{Game, Outcome, PlayerIx, SplitMix64};

use crate::alphabeta::Limits;
use crate::eval::Evaluator;
use crate::playout::play_randomly;

/// Settings of one Monte Carlo search.
#[derive(Clone, Copy, Debug)]
pub struct MctsOptions<'s> {
    /// `nodes` counts iterations; `depth` is not used. With none, 10,000 iterations.
    pub limits: Limits,
    pub seed: u64,
    /// Plies of a random game before it is cut and judged.
    pub playout_plies: usize,
    /// The UCB1 exploration constant.
    pub exploration: f64,
    /// Set from another thread to stop the search.
    pub stop: Option<&'s AtomicBool>,
}

impl Default for MctsOptions<'_> {
    fn default() -> Self {
        MctsOptions {
            limits: Limits::default(),
            seed: 1,
            playout_plies: 200,
            exploration: 1.4,
            stop: None,
        }
    }
}

/// What a Monte Carlo search found.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsFound {
    /// The chosen move's index in the root's legal move list.
    pub index: usize,
    /// How often the chosen move was tried.
    pub visits: u32,
    /// Its mean result for the player to move (1 a win, 0 a loss).
    pub win_rate: f64,
    pub iterations: u64,
}

struct Node<M> {
    /// The move into this node (none for the root).
    mv: Option<M>,
    /// The player who chose that move.
    mover: PlayerIx,
    visits: u32,
    /// Total result for `mover`.
    reward: f64,
    /// First child and count, once expanded.
    children: Option<(u32, u32)>,
    /// The game's result here, if it is over.
    outcome: Option<Outcome>,
}

/// Searches `state` by Monte Carlo tree search; `None` if the game is over there.
pub fn mcts<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: Option<&E>,
    state: &G::State,
    options: &MctsOptions<'_>,
) -> Option<MctsFound> {
    let started = Instant::now();
    let root_moves = game.legal_moves(state);
    if root_moves.is_empty() || game.outcome(state, &root_moves).is_some() {
        return None;
    }
    let iterations = match (options.limits.nodes, options.limits.time) {
        (Some(n), _) => n,
        (None, Some(_)) => u64::MAX,
        (None, None) => 10_000,
    };
    let deadline = options.limits.time.map(|t| started + t);
    let mut search = Tree {
        game,
        eval,
        rng: SplitMix64::new(options.seed),
        nodes: vec![Node {
            mv: None,
            mover: game.to_move(state),
            visits: 0,
            reward: 0.0,
            children: None,
            outcome: None,
        }],
        exploration: options.exploration,
        playout_plies: options.playout_plies,
    };
    search.expand(0, state, root_moves);
    let mut done = 0;
    let mut position = state.clone();
    while done < iterations {
        let late = deadline.is_some_and(|d| Instant::now() >= d);
        let told = options.stop.is_some_and(|s| s.load(Relaxed));
        if (late || told) && done > 0 {
            break;
        }
        position.clone_from(state);
        search.iterate(&mut position);
        done += 1;
    }
    let (first, count) = search.nodes[0].children?;
    let best = (first..first + count).max_by_key(|&c| {
        let node = &search.nodes[c as usize];
        (node.visits, (node.reward * 1000.0) as i64)
    })?;
    let node = &search.nodes[best as usize];
    Some(MctsFound {
        index: (best - first) as usize,
        visits: node.visits,
        win_rate: node.reward / f64::from(node.visits.max(1)),
        iterations: done,
    })
}

struct Tree<'a, G: Game, E> {
    game: &'a G,
    eval: Option<&'a E>,
    rng: SplitMix64,
    nodes: Vec<Node<G::Move>>,
    exploration: f64,
    playout_plies: usize,
}

impl<G: Game, E: Evaluator<G>> Tree<'_, G, E> {
    /// Adds the children of node `at` (whose position is `state` and legal moves
    /// `moves`), or records that the game is over there.
    fn expand(&mut self, at: usize, state: &G::State, moves: Vec<G::Move>) {
        if let Some(outcome) = self.game.outcome(state, &moves) {
            self.nodes[at].outcome = Some(outcome);
            return;
        }
        let mover = self.game.to_move(state);
        let first = self.nodes.len() as u32;
        let count = moves.len() as u32;
        self.nodes.extend(moves.into_iter().map(|mv| Node {
            mv: Some(mv),
            mover,
            visits: 0,
            reward: 0.0,
            children: None,
            outcome: None,
        }));
        self.nodes[at].children = Some((first, count));
    }

    /// One iteration from the root, whose position `state` holds (and is played on).
    fn iterate(&mut self, state: &mut G::State) {
        let mut path = vec![0usize];
        let mut at = 0usize;
        let rewards = loop {
            if let Some(outcome) = self.nodes[at].outcome {
                break self.outcome_rewards(outcome);
            }
            let Some((first, count)) = self.nodes[at].children else {
                let moves = self.game.legal_moves(state);
                self.expand(at, state, moves);
                continue;
            };
            let unvisited = (first..first + count).find(|&c| self.nodes[c as usize].visits == 0);
            let child = match unvisited {
                Some(c) => c as usize,
                None => self.select(at, first, count),
            };
            self.play(state, child);
            path.push(child);
            at = child;
            if unvisited.is_some() {
                break self.playout(state);
            }
        };
        for &node in &path {
            let node = &mut self.nodes[node];
            node.visits += 1;
            node.reward += rewards.get(node.mover as usize).copied().unwrap_or(0.0);
        }
    }

    /// Plays the move into node `child` on `state` itself (nothing takes it back: each
    /// iteration works on its own copy of the root's position).
    fn play(&self, state: &mut G::State, child: usize) {
        if let Some(mv) = &self.nodes[child].mv {
            drop(self.game.make(state, mv));
        }
    }

    /// The child of `at` to descend to: by UCB1, or at random for a random player.
    fn select(&mut self, at: usize, first: u32, count: u32) -> usize {
        let mover = self.nodes[first as usize].mover;
        if self.game.plays_at_random(mover) {
            return first as usize + self.rng.below(count as usize);
        }
        let parent_visits = f64::from(self.nodes[at].visits.max(1)).ln();
        let score = |node: &Node<G::Move>| {
            let n = f64::from(node.visits.max(1));
            node.reward / n + self.exploration * (parent_visits / n).sqrt()
        };
        let mut best = first as usize;
        let mut best_score = f64::NEG_INFINITY;
        for c in first..first + count {
            let s = score(&self.nodes[c as usize]);
            if s > best_score {
                best = c as usize;
                best_score = s;
            }
        }
        best
    }

    /// A random game from `state`: the result for every player.
    fn playout(&mut self, state: &mut G::State) -> Vec<f64> {
        match play_randomly(self.game, state, &mut self.rng, self.playout_plies) {
            (_, Some(outcome)) => self.outcome_rewards(outcome),
            (_, None) => self.judged_rewards(state),
        }
    }

    fn outcome_rewards(&self, outcome: Outcome) -> Vec<f64> {
        let players = self.game.players();
        let others = (players.max(2) - 1) as f64;
        (0..players as PlayerIx)
            .map(|p| match outcome {
                Outcome::Win(w) => f64::from(u8::from(w == p)),
                Outcome::Loss(l) if l == p => 0.0,
                Outcome::Loss(_) => 1.0 / others,
                Outcome::Draw => 0.5,
            })
            .collect()
    }

    /// The result of a cut game: from the evaluation (a logistic of the score), or even.
    fn judged_rewards(&self, state: &G::State) -> Vec<f64> {
        let players = self.game.players();
        (0..players as PlayerIx)
            .map(|p| match self.eval {
                Some(eval) => {
                    let score = f64::from(eval.evaluate(self.game, state, p));
                    1.0 / (1.0 + (-score / 400.0).exp())
                }
                None => 0.5,
            })
            .collect()
    }
}
