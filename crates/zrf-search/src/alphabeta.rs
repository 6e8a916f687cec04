//! Alpha-beta search: negamax with iterative deepening, aspiration windows and
//! principal-variation search, a shared [`TranspositionTable`], move ordering (the
//! table's move, captures by most valuable victim and least valuable attacker,
//! promotions, two killers per ply, the counter-move to the move before, a history
//! table), check extensions, null-move pruning (never in check, nor for a side left
//! with its least valuable kinds alone: [`Evaluator::null_move_allowed`]), futility
//! pruning of quiet moves at the frontier, late-move reductions that grow with depth
//! and move number, and a quiescence search over captures and promotions with delta
//! pruning (every move when the side to move is in check). A capture by a piece worth
//! more than what it takes, where the other side can take it back
//! ([`Game::can_take`]), is ordered after the quiet moves and left out of the
//! quiescence search. Where no move is forced on the side to move there, the
//! quiescence search stands on the evaluation before listing any move, and lists
//! (and tests the legality of) only the captures and promotions it searches.
//!
//! Turn orders need not alternate: a child whose mover is on the same side as its
//! parent's is searched with the same window, not a negated one. With more than two
//! players the search is paranoid: the player to move at the root against all the
//! others. Players who move at random (`?` names) are chance nodes: the mean of their
//! moves. A whole chain of partial moves is one turn, as the game's move list gives it;
//! the game's own results (repetition included) end lines inside the search.

use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use zrf_runtime::{mix, Game, MoveTraits, Outcome, PlayerIx};

use crate::eval::{Evaluator, MoveGain};
use crate::tt::{Bound, Entry, TranspositionTable};

/// The score of a won game (less the plies to the win, so that nearer wins score
/// higher).
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses found by the search.
pub const WIN_BOUND: i32 = WIN - 10_000;
const INFINITY: i32 = WIN + 1;
/// Deepest ply searched (quiescence included).
const MAX_PLY: usize = 128;
/// Deepest quiescence, in plies past the nominal depth.
const QUIESCENCE_PLIES: u32 = 8;
/// Quiescence plies in which a side whose every move captures may not stand pat.
const FORCED_PLIES: u32 = 2;
/// Most moves of a random player averaged at a chance node.
const CHANCE_MOVES: usize = 12;
const HISTORY_SIZE: usize = 1 << 14;
/// The first half-width of an aspiration window around the last iteration's score.
const ASPIRATION: i32 = 40;
/// Depth from which the root is searched in an aspiration window.
const ASPIRATION_DEPTH: u32 = 4;
/// Depth from which a node tries a null move.
const NULL_MOVE_DEPTH: i32 = 3;
/// How far a quiet move at depth 1 and 2 must fall short of alpha, by the static
/// evaluation, to be pruned (futility), in the evaluation's units (a pawn is about 150).
const FUTILITY_MARGIN: [i32; 3] = [0, 250, 500];
/// A capture in the quiescence search is skipped when even its gain plus this leaves
/// the score under alpha (delta pruning).
const DELTA_MARGIN: i32 = 200;
/// How much more the capturing piece must be worth than what it takes before a
/// capture that can be taken back counts as losing (in the evaluation's units).
const EXCHANGE_MARGIN: i32 = 100;
/// Plies at most that check extensions may add to one line.
const MAX_EXTENSION_PLY: usize = MAX_PLY / 2;

/// When a search stops: the first limit reached ends it. With none, it goes to depth 64.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest full-width iteration.
    pub depth: Option<u32>,
    /// Most nodes visited (quiescence nodes included): with one thread the result is
    /// then the same on every run.
    pub nodes: Option<u64>,
    /// Longest time spent; an iteration is not started past half of it, unless
    /// `whole_time`.
    pub time: Option<Duration>,
    /// Iterations go on until `time` runs out (a fixed time a move, UCI's `movetime`):
    /// the iteration cut short still gives its best move of those it searched.
    pub whole_time: bool,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}

/// One completed iteration of iterative deepening, as a progress report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub depth: u32,
    /// The best move's index in the root's legal move list.
    pub index: usize,
    /// For the player to move at the root.
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The expected line, in saved-game notation.
    pub pv: Vec<String>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The chosen move's index in the root's legal move list.
    pub index: usize,
    /// The last completed iteration (depth 0 when the move was the only one).
    pub iteration: Iteration,
}

/// Settings of one alpha-beta search.
#[derive(Clone, Copy, Debug, Default)]
pub struct AlphaBetaOptions<'s> {
    pub limits: Limits,
    /// Varies the evaluation by a few points per position, so that games between the
    /// same players differ; the same seed gives the same search.
    pub seed: u64,
    /// Largest variation of the evaluation from the seed (0: none).
    pub noise: i32,
    /// Set from another thread to stop the search (its best move so far is returned).
    pub stop: Option<&'s AtomicBool>,
    /// Search only these root moves (indices in the legal move list), in this order:
    /// one share of a search split between threads.
    pub root_moves: Option<&'s [usize]>,
    /// Search the root's moves even when the rules have already decided the game there
    /// (a chess GUI adjudicates by its own rules and asks for a move all the same).
    pub past_result: bool,
}

/// Searches `state` and returns its best move, or `None` if the game is over there
/// (see [`AlphaBetaOptions::past_result`]).
pub fn alpha_beta<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    table: &TranspositionTable,
    state: &G::State,
    options: &AlphaBetaOptions<'_>,
    mut on_iteration: impl FnMut(&Iteration),
) -> Option<Found> {
    let started = Instant::now();
    let moves = game.legal_moves(state);
    if moves.is_empty() || (!options.past_result && game.outcome(state, &moves).is_some()) {
        return None;
    }
    let root_player = game.to_move(state);
    table.new_search();
    if game.players() > 2 {
        // Scores are for sides relative to the root's player: another root, other sides.
        table.clear();
    }
    let mut searcher = Searcher {
        game,
        eval,
        table,
        root_player,
        seed: options.seed,
        noise: options.noise.max(0),
        nodes: 0,
        node_limit: options.limits.nodes.unwrap_or(u64::MAX),
        deadline: options.limits.time.map(|t| started + t),
        clock_mask: if eval.is_slow() { 0 } else { 7 },
        stop: options.stop,
        stopped: false,
        plies: Vec::new(),
        killers: vec![[None; 2]; MAX_PLY + 1],
        history: vec![0; HISTORY_SIZE],
        counters: vec![None; HISTORY_SIZE],
        arrived_by: vec![None; MAX_PLY + 2],
        in_null: false,
        summaries: vec![eval.summarize(game, state)],
    };
    let mut order: Vec<usize> = match options.root_moves {
        Some(share) => share.iter().copied().filter(|&i| i < moves.len()).collect(),
        None => (0..moves.len()).collect(),
    };
    if order.is_empty() {
        return None;
    }
    let mut found: Option<Found> = None;
    // The only move is played at once; one ply still scores it.
    let max_depth = match moves.len() {
        1 => 1,
        _ => options.limits.depth.unwrap_or(64).max(1),
    };
    // The tree is walked on one position, each move made on it and taken back.
    let mut position = state.clone();
    for depth in 1..=max_depth {
        let last = found.as_ref().map(|f| f.iteration.score);
        let best = searcher.aspiration(&mut position, &moves, &order, depth, last);
        let Some((index, score)) = best else { break };
        if let Some(at) = order.iter().position(|&i| i == index) {
            order[..=at].rotate_right(1);
        }
        let iteration = Iteration {
            depth,
            index,
            score,
            nodes: searcher.nodes,
            elapsed: started.elapsed(),
            pv: searcher.principal_variation(state, &moves[index], depth as usize),
        };
        // An interrupted iteration still gives its best move when one was fully
        // searched, but it is not reported as a depth reached.
        if searcher.stopped {
            match &mut found {
                Some(found) => found.index = index,
                None => found = Some(Found { index, iteration }),
            }
            break;
        }
        on_iteration(&iteration);
        found = Some(Found { index, iteration });
        let decided = score.abs() > WIN_BOUND && WIN - score.abs() <= depth as i32;
        let half_time = !options.limits.whole_time
            && options
                .limits
                .time
                .is_some_and(|t| started.elapsed() * 2 > t);
        if decided || half_time {
            break;
        }
    }
    found.or_else(|| {
        // Stopped before the first iteration ended: the first move ordered.
        let index = order[0];
        Some(Found {
            index,
            iteration: Iteration {
                depth: 0,
                index,
                score: 0,
                nodes: searcher.nodes,
                elapsed: started.elapsed(),
                pv: vec![game.notation(state, &moves[index])],
            },
        })
    })
}

/// The buffers of one ply: its moves and their order.
struct Ply<G: Game> {
    moves: Vec<G::Move>,
    /// Per move (by index): its traits, worked out once when the moves are ordered.
    traits: Vec<MoveTraits>,
    /// Per move (by index): what it wins at once, for captures and promotions.
    gains: Vec<MoveGain>,
    order: Vec<(i32, u32)>,
}

impl<G: Game> Default for Ply<G> {
    fn default() -> Self {
        Ply {
            moves: Vec::new(),
            traits: Vec::new(),
            gains: Vec::new(),
            order: Vec::new(),
        }
    }
}

struct Searcher<'a, 's, G: Game, E: Evaluator<G>> {
    game: &'a G,
    eval: &'a E,
    table: &'a TranspositionTable,
    root_player: PlayerIx,
    seed: u64,
    noise: i32,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// The clock and the stop flag are looked at when `nodes & clock_mask` is zero.
    clock_mask: u64,
    stop: Option<&'s AtomicBool>,
    stopped: bool,
    plies: Vec<Ply<G>>,
    killers: Vec<[Option<MoveTraits>; 2]>,
    history: Vec<i32>,
    /// By [`history_slot`] of a move: the quiet move that last refuted it.
    counters: Vec<Option<MoveTraits>>,
    /// Per ply: the move that led to the node there (none at the root and after a
    /// null move), whose counter-move is tried early.
    arrived_by: Vec<Option<MoveTraits>>,
    /// Whether a null move is being searched (no second one inside it).
    in_null: bool,
    /// Per ply: the evaluation's summary of the position there ([`Evaluator::Summary`]),
    /// brought up to date as each move is made ([`Searcher::make`]).
    summaries: Vec<E::Summary>,
}

impl<G: Game, E: Evaluator<G>> Searcher<'_, '_, G, E> {
    /// Counts a node; true when the search must stop.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes & self.clock_mask == 0 {
            // Often: in some games one move list takes milliseconds.
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let told = self.stop.is_some_and(|s| s.load(Relaxed));
            self.stopped |= late || told;
        }
        self.stopped
    }

    /// Whether `a` and `b` play on the same side (paranoid: the root's player against
    /// every other).
    fn same_side(&self, a: PlayerIx, b: PlayerIx) -> bool {
        (a == self.root_player) == (b == self.root_player)
    }

    fn take_ply(&mut self, ply: usize) -> Ply<G> {
        if self.plies.len() <= ply {
            self.plies.resize_with(ply + 1, Ply::default);
        }
        std::mem::take(&mut self.plies[ply])
    }

    fn give_ply(&mut self, ply: usize, level: Ply<G>) {
        self.plies[ply] = level;
    }

    /// This ply's buffers holding the legal moves of `state`, and its mover; or, when
    /// the game is over there, its score.
    fn open(&mut self, state: &G::State, ply: usize) -> Result<(Ply<G>, PlayerIx), i32> {
        let mut level = self.take_ply(ply);
        self.game.legal_moves_into(state, &mut level.moves);
        let mover = self.game.to_move(state);
        match self.game.outcome(state, &level.moves) {
            Some(outcome) => {
                self.give_ply(ply, level);
                Err(self.outcome_score(outcome, mover, ply))
            }
            None => Ok((level, mover)),
        }
    }

    /// The score of a finished game for the side of `mover`, `ply` plies from the root.
    fn outcome_score(&self, outcome: Outcome, mover: PlayerIx, ply: usize) -> i32 {
        let win = WIN - ply as i32;
        match outcome {
            Outcome::Win(p) if self.same_side(p, mover) => win,
            Outcome::Win(_) => -win,
            Outcome::Loss(p) if self.same_side(p, mover) => -win,
            Outcome::Loss(_) => win,
            Outcome::Draw => 0,
        }
    }

    /// Makes `mv` on `state`, the position at `ply`, and brings the evaluation's summary
    /// of the position after it (at `ply + 1`) up to date.
    fn make(&mut self, state: &mut G::State, mv: &G::Move, ply: usize) -> G::Undo {
        let undo = self.game.make(state, mv);
        self.summary_follows(ply);
        let after = &mut self.summaries[ply + 1];
        self.eval.summary_after(self.game, state, &undo, after);
        undo
    }

    /// Copies the summary at `ply` to `ply + 1`, for the position after a turn (to be
    /// brought up to date) or after a pass (the same board).
    fn summary_follows(&mut self, ply: usize) {
        if self.summaries.len() <= ply + 1 {
            self.summaries.resize_with(ply + 2, Default::default);
        }
        let (before, after) = self.summaries.split_at_mut(ply + 1);
        after[0].clone_from(&before[ply]);
    }

    /// The evaluation for the side of `mover` of `state`, the position at `ply`, with
    /// the seed's variation.
    fn static_score(&self, state: &G::State, mover: PlayerIx, ply: usize) -> i32 {
        let summary = &self.summaries[ply];
        let mut score =
            (self.eval).evaluate_summarized(self.game, state, self.root_player, summary);
        if self.noise > 0 {
            let spread = 2 * self.noise as u64 + 1;
            let key = self.game.search_key(state);
            score += (mix(key ^ self.seed) % spread) as i32 - self.noise;
        }
        if mover == self.root_player {
            score
        } else {
            -score
        }
    }

    /// The value for the side moving at its parent (`mover`) of the child `state` is
    /// now (the parent with a move made).
    fn child_value(
        &mut self,
        state: &mut G::State,
        mover: PlayerIx,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.same_side(mover, self.game.to_move(state)) {
            self.node(state, depth, alpha, beta, ply)
        } else {
            -self.node(state, depth, -beta, -alpha, ply)
        }
    }

    /// One iteration at the root: in a window around the last iteration's score
    /// (`last`), widened and searched again while the score falls outside it.
    fn aspiration(
        &mut self,
        state: &mut G::State,
        moves: &[G::Move],
        order: &[usize],
        depth: u32,
        last: Option<i32>,
    ) -> Option<(usize, i32)> {
        let (mut below, mut above) = (ASPIRATION, ASPIRATION);
        loop {
            let (alpha, beta) = match last {
                Some(score) if depth >= ASPIRATION_DEPTH && score.abs() < WIN_BOUND => (
                    score.saturating_sub(below).max(-INFINITY),
                    score.saturating_add(above).min(INFINITY),
                ),
                _ => (-INFINITY, INFINITY),
            };
            let best = self.root(state, moves, order, depth as i32, alpha, beta);
            match best {
                Some((_, score)) if !self.stopped && score <= alpha && alpha > -INFINITY => {
                    below = below.saturating_mul(4);
                }
                Some((_, score)) if !self.stopped && score >= beta && beta < INFINITY => {
                    above = above.saturating_mul(4);
                }
                _ => return best,
            }
        }
    }

    /// Searches the root's moves in `order` within (`alpha`, `beta`): the best move
    /// and its score (a bound when outside the window).
    fn root(
        &mut self,
        state: &mut G::State,
        moves: &[G::Move],
        order: &[usize],
        depth: i32,
        window_alpha: i32,
        beta: i32,
    ) -> Option<(usize, i32)> {
        let mover = self.game.to_move(state);
        let mut level = self.take_ply(0);
        level.moves.clear();
        level.moves.extend_from_slice(moves);
        let mut alpha = window_alpha;
        let mut best: Option<(usize, i32)> = None;
        for (n, &index) in order.iter().enumerate() {
            self.arrived_by[1] = Some(self.game.move_traits(state, &level.moves[index]));
            let undo = self.make(state, &level.moves[index], 0);
            let value = if n == 0 || self.same_side(mover, self.game.to_move(state)) {
                self.child_value(state, mover, depth - 1, alpha, beta, 1)
            } else {
                let probe = self.child_value(state, mover, depth - 1, alpha, alpha + 1, 1);
                if probe > alpha && !self.stopped {
                    self.child_value(state, mover, depth - 1, alpha, beta, 1)
                } else {
                    probe
                }
            };
            self.game.unmake(state, undo);
            if self.stopped {
                break;
            }
            if best.is_none_or(|(_, score)| value > score) {
                best = Some((index, value));
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        self.give_ply(0, level);
        if let Some((index, score)) = best.filter(|&(_, s)| s > window_alpha && s < beta) {
            let key = self.game.search_key(state);
            let depth = depth.clamp(0, 255) as u8;
            self.table.store(
                key,
                to_table(score, 0),
                depth,
                Bound::Exact,
                move_number(index),
            );
        }
        best
    }

    fn node(
        &mut self,
        state: &mut G::State,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        // A side in check is searched a ply deeper (within bounds: checks can go on).
        let asked = ply < MAX_EXTENSION_PLY;
        let in_check = asked && self.game.in_check(state);
        if in_check {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(state, alpha, beta, ply, 0, asked.then_some(in_check));
        }
        let key = self.game.search_key(state);
        let entry = self.table.probe(key);
        if let Some(e) = entry.filter(|e| i32::from(e.depth) >= depth) {
            let score = from_table(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }
        let (mut level, mover) = match self.open(state, ply) {
            Ok(opened) => opened,
            Err(over) => return over,
        };
        if self.game.plays_at_random(mover) {
            let value = self.chance(state, &mut level, mover, depth, ply);
            self.give_ply(ply, level);
            return value;
        }
        let scout = beta - alpha == 1;
        let decisive = alpha.abs() > WIN_BOUND || beta.abs() > WIN_BOUND;
        // The static evaluation, for the null move and futility, when either may apply.
        let stand = (scout && !in_check && !decisive).then(|| self.static_score(state, mover, ply));
        if let Some(stand) = stand.filter(|&s| s >= beta && depth >= NULL_MOVE_DEPTH) {
            if let Some(value) = self.null_move(state, mover, stand, depth, beta, ply) {
                self.give_ply(ply, level);
                return value;
            }
            if self.stopped {
                self.give_ply(ply, level);
                return 0;
            }
        }
        let futile = stand.and_then(|stand| {
            let margin = FUTILITY_MARGIN.get(depth as usize)?;
            (stand + margin <= alpha).then_some(stand + margin)
        });
        let table_move = entry
            .map(|e| e.best as usize)
            .filter(|&b| b != Entry::NO_MOVE as usize && b < level.moves.len());
        self.order(state, &mut level, table_move, ply);
        let original_alpha = alpha;
        let (mut best_score, mut best_index) = (-INFINITY, Entry::NO_MOVE);
        for n in 0..level.order.len() {
            let index = next_in_order(&mut level.order, n);
            let traits = level.traits[index];
            let quiet = traits.captures == 0 && !traits.promotes;
            let killer = self.killers[ply].contains(&Some(traits));
            if let Some(bound) = futile.filter(|_| n > 0 && quiet && !killer) {
                best_score = best_score.max(bound);
                continue;
            }
            self.arrived_by[ply + 1] = Some(traits);
            let undo = self.make(state, &level.moves[index], ply);
            let same = self.same_side(mover, self.game.to_move(state));
            let value = if n == 0 || same {
                self.child_value(state, mover, depth - 1, alpha, beta, ply + 1)
            } else {
                let reduction = if quiet && !killer && !in_check {
                    late_move_reduction(depth, n)
                } else {
                    0
                };
                let narrow = |s: &mut Self, state: &mut G::State, d| {
                    s.child_value(state, mover, d, alpha, alpha + 1, ply + 1)
                };
                let mut value = narrow(self, state, depth - 1 - reduction);
                if value > alpha && reduction > 0 {
                    value = narrow(self, state, depth - 1);
                }
                if value > alpha && value < beta {
                    value = self.child_value(state, mover, depth - 1, alpha, beta, ply + 1);
                }
                value
            };
            self.game.unmake(state, undo);
            if self.stopped {
                self.give_ply(ply, level);
                return 0;
            }
            if value > best_score {
                best_score = value;
                best_index = move_number(index);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                if quiet {
                    let killers = &mut self.killers[ply];
                    if killers[0] != Some(traits) {
                        killers[1] = killers[0];
                        killers[0] = Some(traits);
                    }
                    let slot = &mut self.history[history_slot(traits)];
                    *slot = (*slot + depth * depth).min(1 << 20);
                    if let Some(before) = self.arrived_by[ply] {
                        self.counters[history_slot(before)] = Some(traits);
                    }
                }
                break;
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_depth = depth.clamp(0, 255) as u8;
        self.table.store(
            key,
            to_table(best_score, ply),
            stored_depth,
            bound,
            best_index,
        );
        self.give_ply(ply, level);
        best_score
    }

    /// A random player's node: the mean value of (up to [`CHANCE_MOVES`] of) its moves.
    fn chance(
        &mut self,
        state: &mut G::State,
        level: &mut Ply<G>,
        mover: PlayerIx,
        depth: i32,
        ply: usize,
    ) -> i32 {
        let count = level.moves.len();
        let stride = count.div_ceil(CHANCE_MOVES).max(1);
        let (mut total, mut tried) = (0i64, 0i64);
        for index in (0..count).step_by(stride) {
            self.arrived_by[ply + 1] = None;
            let undo = self.make(state, &level.moves[index], ply);
            let value = self.child_value(state, mover, depth - 1, -INFINITY, INFINITY, ply + 1);
            self.game.unmake(state, undo);
            if self.stopped {
                return 0;
            }
            total += i64::from(value);
            tried += 1;
        }
        (total / tried.max(1)) as i32
    }

    /// The null move: the side to move passes and the other side, searched shallower,
    /// still cannot bring the score under `beta`; then the node fails high (`Some`).
    /// Not inside another null move, not in games whose next turn is the same side's,
    /// and not for a side whose pieces are all of the least valuable kinds (zugzwang).
    fn null_move(
        &mut self,
        state: &G::State,
        mover: PlayerIx,
        stand: i32,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        if self.in_null || ply + 2 >= MAX_PLY || !self.eval.null_move_allowed(self.game, state) {
            return None;
        }
        let mut passed = self.game.null_move(state)?;
        if self.same_side(mover, self.game.to_move(&passed)) {
            return None;
        }
        let reduction = 3 + depth / 6 + ((stand - beta) / 200).clamp(0, 2);
        self.in_null = true;
        self.arrived_by[ply + 1] = None;
        self.summary_follows(ply);
        let value = -self.node(
            &mut passed,
            depth - 1 - reduction,
            -beta,
            -beta + 1,
            ply + 1,
        );
        self.in_null = false;
        // A win found after passing is not one the side can count on.
        (value >= beta && !self.stopped).then_some(value.min(WIN_BOUND))
    }

    /// Scores the moves of `level` for the order they are tried in ([`next_in_order`]),
    /// best first: the table's move, captures (most valuable victim, then least
    /// valuable attacker) and promotions, killers, then by history.
    fn order(
        &self,
        state: &mut G::State,
        level: &mut Ply<G>,
        table_move: Option<usize>,
        ply: usize,
    ) {
        level.order.clear();
        level.traits.clear();
        let counter = self.arrived_by[ply].and_then(|before| self.counters[history_slot(before)]);
        for index in 0..level.moves.len() {
            let traits = self.game.move_traits(state, &level.moves[index]);
            level.traits.push(traits);
            let score = if Some(index) == table_move {
                1 << 30
            } else if traits.captures > 0 || traits.promotes {
                let gain = self.eval.move_gain(self.game, state, &level.moves[index]);
                let order = capture_order(gain, traits);
                let losing = may_lose_exchange(gain, traits) && {
                    let mover = self.game.to_move(state);
                    let undo = self.game.make(state, &level.moves[index]);
                    let losing = self.loses_exchange(mover, state, gain, traits);
                    self.game.unmake(state, undo);
                    losing
                };
                if losing {
                    // After every quiet move.
                    order - (1 << 23)
                } else {
                    (1 << 24) + order
                }
            } else if self.killers[ply][0] == Some(traits) {
                (1 << 22) + 1
            } else if self.killers[ply][1] == Some(traits) {
                1 << 22
            } else if counter == Some(traits) {
                (1 << 22) - 1
            } else {
                self.history[history_slot(traits)]
            };
            level.order.push((score, index as u32));
        }
    }

    /// Whether a capture by `mover` (`after` is the position after it) risks more than
    /// it takes: the piece that moves is worth more than what it takes, and the other
    /// side can take it where it lands. A static exchange cut short at the first
    /// recapture (what stands behind either side is not weighed), to put such captures
    /// last and leave them out of the quiescence search.
    fn loses_exchange(
        &self,
        mover: PlayerIx,
        after: &G::State,
        gain: MoveGain,
        traits: MoveTraits,
    ) -> bool {
        let Some(to) = traits.to.filter(|_| may_lose_exchange(gain, traits)) else {
            return false;
        };
        !self.same_side(mover, self.game.to_move(after)) && self.game.can_take(after, to)
    }

    /// Captures and promotions only, until the position is quiet; the side to move may
    /// stand on the evaluation unless every move it has is a capture (near the leaf) or
    /// its royal piece is attacked: then every move is searched (standing still in
    /// check would ignore a mate or the loss of what must move to parry it). `in_check`:
    /// whether that royal piece is attacked, where the caller has asked already.
    fn quiesce(
        &mut self,
        state: &mut G::State,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        depth: u32,
        in_check: Option<bool>,
    ) -> i32 {
        let mover = self.game.to_move(state);
        let searched =
            depth < QUIESCENCE_PLIES && ply + 1 < MAX_PLY && !self.game.plays_at_random(mover);
        let evading = searched && in_check.unwrap_or_else(|| self.game.in_check(state));
        // Where nothing forces a move on the side (no check; in the first plies, no rule
        // that may make captures compulsory), it may stand on the evaluation before its
        // moves are listed and tested, taking a position without moves for one with some.
        let mut stand = None;
        if !evading && (depth >= FORCED_PLIES || !self.game.captures_may_be_forced()) {
            if let Some(outcome) = self.game.outcome_with_a_move(state) {
                return self.outcome_score(outcome, mover, ply);
            }
            let score = self.static_score(state, mover, ply);
            if score >= beta || !searched {
                return score;
            }
            stand = Some(score);
        }
        let captures_only = stand.is_some();
        let mut level = if captures_only {
            // Then only its captures and promotions are searched, and only their
            // legality need be tested.
            let mut level = self.take_ply(ply);
            self.game.legal_loud_moves_into(state, &mut level.moves);
            level
        } else {
            match self.open(state, ply) {
                Ok((level, _)) => level,
                Err(over) => return over,
            }
        };
        let stand = stand.unwrap_or_else(|| self.static_score(state, mover, ply));
        level.order.clear();
        level.gains.clear();
        level.traits.clear();
        for (index, mv) in level.moves.iter().enumerate() {
            let traits = self.game.move_traits(state, mv);
            let mut gain = MoveGain::default();
            if traits.is_loud() {
                gain = self.eval.move_gain(self.game, state, mv);
                level
                    .order
                    .push((capture_order(gain, traits), index as u32));
            } else if evading {
                level.order.push((0, index as u32));
            }
            level.gains.push(gain);
            level.traits.push(traits);
        }
        // Where every move captures (captures compulsory), standing on the evaluation
        // would ignore the capture that must come; but in games where nearly every
        // move captures (sowing games) that would search everything, so only the first
        // plies of the quiescence search are held to it (where the rules may force
        // captures: the captures alone were listed where they cannot).
        let all_capture = !captures_only && level.order.len() == level.moves.len();
        let forced = evading || (depth < FORCED_PLIES && all_capture);
        if level.order.is_empty() || !searched {
            self.give_ply(ply, level);
            return stand;
        }
        let mut best = -INFINITY;
        if !forced {
            if stand >= beta {
                self.give_ply(ply, level);
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        for n in 0..level.order.len() {
            let index = next_in_order(&mut level.order, n);
            if self.tick() {
                break;
            }
            let (gain, traits) = (level.gains[index], level.traits[index]);
            // Delta pruning: a capture whose whole gain cannot lift the score to alpha.
            if !forced
                && alpha.abs() < WIN_BOUND
                && gain.gain > 0
                && stand + gain.gain + DELTA_MARGIN <= alpha
            {
                continue;
            }
            let undo = self.make(state, &level.moves[index], ply);
            if !forced && self.loses_exchange(mover, state, gain, traits) {
                self.game.unmake(state, undo);
                continue;
            }
            let value = if self.same_side(mover, self.game.to_move(state)) {
                self.quiesce(state, alpha, beta, ply + 1, depth + 1, None)
            } else {
                -self.quiesce(state, -beta, -alpha, ply + 1, depth + 1, None)
            };
            self.game.unmake(state, undo);
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        self.give_ply(ply, level);
        if self.stopped {
            return 0;
        }
        best
    }

    /// The expected line from the root: `first`, then the table's best moves.
    fn principal_variation(&self, state: &G::State, first: &G::Move, most: usize) -> Vec<String> {
        let mut line = vec![self.game.notation(state, first)];
        let mut position = self.game.play(state, first);
        let mut seen = vec![self.game.search_key(state)];
        while line.len() < most.max(1) {
            let key = self.game.search_key(&position);
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
            let Some(entry) = self.table.probe(key) else {
                break;
            };
            let moves = self.game.legal_moves(&position);
            let Some(mv) = moves.get(entry.best as usize) else {
                break;
            };
            if self.game.outcome(&position, &moves).is_some() {
                break;
            }
            line.push(self.game.notation(&position, mv));
            position = self.game.play(&position, mv);
        }
        line
    }
}

/// The order of a capture or promotion among others: the victim's worth first, the
/// attacker's (less is better) second; games whose evaluation values nothing order
/// by the number of pieces taken.
/// Moves the first of `order[n..]` by score, highest first, then by move index (the
/// keys differ), to `n`, and gives that move's index: the order a sort gives, found
/// as the moves are tried (most nodes stop after the first few).
fn next_in_order(order: &mut [(i32, u32)], n: usize) -> usize {
    let best = (n..order.len())
        .min_by_key(|&i| (Reverse(order[i].0), order[i].1))
        .unwrap_or(n);
    order.swap(n, best);
    order[n].1 as usize
}

fn capture_order(gain: MoveGain, traits: MoveTraits) -> i32 {
    let victims = gain.gain.clamp(-(1 << 12), 1 << 12) * 256;
    let attacker = 255 - (gain.mover / 16).clamp(0, 255);
    (1 << 20) + victims + attacker + traits.captures.min(64) as i32 * 4 + i32::from(traits.promotes)
}

/// Whether a move may lose material to a recapture: it captures with a piece worth
/// more than what it takes, and promotes nothing.
fn may_lose_exchange(gain: MoveGain, traits: MoveTraits) -> bool {
    !traits.promotes && gain.gain + EXCHANGE_MARGIN < gain.mover
}

/// Plies a late quiet move is searched shallower by: more the deeper the node and the
/// later the move (about ln(depth) ln(n) / 2), none for the first three.
fn late_move_reduction(depth: i32, n: usize) -> i32 {
    if depth < 3 || n < 3 {
        return 0;
    }
    let r = (f64::from(depth).ln() * (n as f64).ln() / 2.0) as i32;
    r.clamp(1, depth - 2)
}

/// A move's index as the table keeps it (lists longer than it can name keep none).
fn move_number(index: usize) -> u16 {
    u16::try_from(index)
        .ok()
        .filter(|&i| i != Entry::NO_MOVE)
        .unwrap_or(Entry::NO_MOVE)
}

fn history_slot(traits: MoveTraits) -> usize {
    let square = |p: Option<u32>| p.map_or(0, |p| u64::from(p) + 1);
    (mix(square(traits.from) << 32 | square(traits.to)) as usize) & (HISTORY_SIZE - 1)
}

/// A score as the table keeps it: wins counted from the node, not from the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}
