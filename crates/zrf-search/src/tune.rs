//! Tuning a learned evaluation ([`crate::learn`]): self-play games played for their
//! positions and results ([`play_games`]), and the logistic (Texel-style) regression that
//! fits the weights to them ([`fit`]), pulled toward the rules-derived evaluation as far
//! as games held out of the fit say.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

use zrf_runtime::{Engine, Game, Kind, Outcome, PlayerIx, Pos, SplitMix64, State, Templates};

use crate::ai::{Ai, Algorithm, Settings};
use crate::alphabeta::Limits;
use crate::eval::RulesEval;
use crate::learn::{Features, Learned, Record};

/// How self-play games for learning are played.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    /// Nodes a move (the same games on every machine).
    pub nodes: u64,
    /// Plies played at random at the start of each game, so that games differ.
    pub random_plies: usize,
    /// Games still going after this many plies end as draws.
    pub max_plies: usize,
    /// Worker threads.
    pub threads: usize,
}

/// Plays the self-play games numbered `numbers` (game `n` is seeded by `n`, so a set
/// of games can be split between machines), each worker with its own engine; `on_game`
/// sees each game as it ends. Records in number order.
pub fn play_games<T: Templates>(
    make_engine: &(dyn Fn() -> Engine<T> + Sync),
    numbers: &[usize],
    options: &SelfPlay,
    on_game: &(dyn Fn(usize, &Record) + Sync),
) -> Vec<(usize, Record)> {
    let next = AtomicUsize::new(0);
    let finished = Mutex::new(Vec::with_capacity(numbers.len()));
    std::thread::scope(|scope| {
        for _ in 0..options.threads.clamp(1, numbers.len().max(1)) {
            scope.spawn(|| {
                let engine = make_engine();
                let Ok(features) = Features::new(&engine.tables) else {
                    return;
                };
                loop {
                    let at = next.fetch_add(1, Relaxed);
                    let Some(&number) = numbers.get(at) else {
                        break;
                    };
                    let record = play_one(&engine, &features, number, options);
                    on_game(number, &record);
                    if let Ok(mut finished) = finished.lock() {
                        finished.push((number, record));
                    }
                }
            });
        }
    });
    let mut games = finished.into_inner().unwrap_or_else(|e| e.into_inner());
    games.sort_by_key(|(n, _)| *n);
    games
}

fn play_one<T: Templates>(
    engine: &Engine<T>,
    features: &Features,
    number: usize,
    options: &SelfPlay,
) -> Record {
    let settings = Settings {
        algorithm: Some(Algorithm::AlphaBeta),
        limits: Limits::nodes(options.nodes),
        seed: number as u64,
        table_megabytes: 4,
        ..Settings::default()
    };
    let mut ai = Ai::for_engine(engine, settings);
    let mut rng = SplitMix64::new(0x5EED ^ number as u64);
    let mut state: State = engine.start();
    let (mut positions, mut scores) = (Vec::new(), Vec::new());
    let mut result = 0.5;
    for ply in 0..options.max_plies {
        let moves = engine.legal_moves(&state);
        if let Some(outcome) = engine.outcome(&state, &moves) {
            result = result_for(outcome, features.sides);
            break;
        }
        let (index, score) = if ply < options.random_plies {
            (rng.below(moves.len()), None)
        } else {
            match ai.choose(&state, None, |_| {}) {
                Some(choice) => (choice.index, choice.score),
                None => break,
            }
        };
        // The search scores for the player to move; records keep the first side's view.
        let first_to_move = engine.turn(&state).player == features.sides[0];
        let score = score.map(|s| if first_to_move { s } else { -s });
        // Quiet positions only: where a capture is played, the material the
        // evaluation counts is about to change, and says little of the result.
        let quiet = engine.move_traits(&state, &moves[index]).captures == 0;
        if ply >= options.random_plies && quiet {
            positions.push(
                state
                    .board()
                    .iter()
                    .enumerate()
                    .filter_map(|(pos, piece)| piece.map(|p| (pos as Pos, p.owner, p.kind)))
                    .collect(),
            );
            scores.push(score);
        }
        state = engine.play(&state, &moves[index]);
    }
    Record {
        result,
        positions,
        scores,
    }
}

/// A result for the first side: 1 a win, 0 a loss, 0.5 a draw.
fn result_for(outcome: Outcome, sides: [PlayerIx; 2]) -> f64 {
    match outcome {
        Outcome::Draw => 0.5,
        Outcome::Win(p) if p == sides[0] => 1.0,
        Outcome::Loss(p) if p == sides[1] => 1.0,
        Outcome::Win(_) | Outcome::Loss(_) => 0.0,
    }
}

/// How the fit went.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub learned: Learned,
    /// Mean squared error of the rules-derived evaluation, and of the learned one.
    pub error_before: f64,
    pub error_after: f64,
    /// The same on the held-out games (every [`HELD_OUT`]th), with the learned weights
    /// fitted without them: what the fit says of games it has not seen.
    pub held_out_before: f64,
    pub held_out_after: f64,
    /// The pull toward the rules-derived weights that did best on the held-out games.
    pub pull: f64,
    /// The scale of the logistic curve, per evaluation point.
    pub scale: f64,
}

/// One game in this many is held out of the fit that chooses the pull.
pub const HELD_OUT: usize = 5;

/// The pulls toward the rules-derived weights tried, strongest first: what the games
/// say little of (a square seen in few positions) stays where the rules put it.
const PULLS: [f64; 4] = [1e-3, 1e-4, 1e-5, 1e-6];

/// Passes over the positions that [`fit`] makes in all, at `passes` a fit.
pub fn passes_in_all(passes: usize) -> usize {
    passes * (PULLS.len() + 1)
}

/// Piece values are seen in every position: they are pulled this much less.
const VALUE_PULL_SHARE: f64 = 0.1;

/// A position's features and the result of its game.
type Sample = (Vec<(u32, f32)>, f64);

/// Fits a learned evaluation of `engine`'s game to `records`, starting from the
/// rules-derived evaluation: each of a few pulls toward it is fitted without the
/// held-out games, and the one that predicts them best is fitted again on every game.
/// A position's target is its game's result, weighed `result_weight` (from 0 to 1),
/// and for the rest its self-play search score through the logistic curve, where the
/// record has one: a search sees further than the evaluation, and says more of a
/// drawn game's positions than its result. `progress` sees each pass over the
/// positions ([`passes_in_all`]).
pub fn fit<T: Templates>(
    engine: &Engine<T>,
    records: &[Record],
    passes: usize,
    result_weight: f64,
    progress: &dyn Fn(usize),
) -> Result<Fit, String> {
    let features = Features::new(&engine.tables)?;
    let rules = RulesEval::new(engine);
    let mut games: Vec<Vec<Sample>> = records
        .iter()
        .map(|r| {
            r.positions
                .iter()
                .map(|p| {
                    let fullness = rules.fullness(p.iter().map(|&(_, _, kind)| kind));
                    (features.of(p, fullness, rules.room()), r.result)
                })
                .collect()
        })
        .collect();
    let start = rules_weights(&features, &rules);
    // The scale that fits the starting evaluation to the results best, on a
    // logarithmic grid.
    let scale = {
        let all: Vec<&Sample> = games.iter().flatten().collect();
        if all.is_empty() {
            return Err("no positions to learn from".into());
        }
        (0..80)
            .map(|i| 1e-5 * 10f64.powf(f64::from(i) / 20.0))
            .min_by(|&a, &b| error(&all, &start, a).total_cmp(&error(&all, &start, b)))
            .unwrap_or(1e-3)
    };
    let result_weight = result_weight.clamp(0.0, 1.0);
    if result_weight < 1.0 {
        for (game, record) in games.iter_mut().zip(records) {
            for ((_, target), score) in game.iter_mut().zip(&record.scores) {
                if let Some(score) = score {
                    let searched = 1.0 / (1.0 + (-scale * f64::from(*score)).exp());
                    *target = result_weight * *target + (1.0 - result_weight) * searched;
                }
            }
        }
    }
    let all: Vec<&Sample> = games.iter().flatten().collect();
    let held_out = |n: usize| n % HELD_OUT == HELD_OUT - 1;
    let part = |keep: bool| -> Vec<&Sample> {
        let games = games.iter().enumerate();
        games
            .filter(|(n, _)| held_out(*n) != keep)
            .flat_map(|(_, g)| g)
            .collect()
    };
    let (training, testing) = (part(true), part(false));
    let regression = Regression {
        start: &start,
        scale,
        kinds: features.kinds,
        passes,
        progress,
    };
    let mut pull = PULLS[0];
    let mut held_out_after = f64::NAN;
    if !testing.is_empty() && !training.is_empty() {
        held_out_after = f64::INFINITY;
        for candidate in PULLS {
            let weights = regression.run(&training, candidate);
            let on_held_out = error(&testing, &weights, scale);
            if on_held_out < held_out_after {
                (pull, held_out_after) = (candidate, on_held_out);
            }
        }
    }
    let mut weights = regression.run(&all, pull);
    // Royal pieces are never captured: their value means nothing.
    for (kind, weight) in weights.iter_mut().enumerate().take(features.kinds) {
        if engine
            .tables
            .royal
            .iter()
            .any(|r| r.get(kind) == Some(&true))
        {
            *weight = 0.0;
        }
    }
    Ok(Fit {
        learned: features.learned(&engine.tables, &weights, records.len(), all.len()),
        error_before: error(&all, &start, scale),
        error_after: error(&all, &weights, scale),
        held_out_before: error(&testing, &start, scale),
        held_out_after,
        pull,
        scale,
    })
}

/// A weighted sum of a position's features.
fn evaluate(weights: &[f64], sample: &[(u32, f32)]) -> f64 {
    sample
        .iter()
        .map(|&(i, v)| weights[i as usize] * f64::from(v))
        .sum()
}

/// Mean squared error of the predicted results (NaN for no samples).
fn error(samples: &[&Sample], weights: &[f64], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|(x, result)| {
            let predicted = 1.0 / (1.0 + (-scale * evaluate(weights, x)).exp());
            (result - predicted).powi(2)
        })
        .sum();
    total / samples.len() as f64
}

/// Logistic regression of results on features from a start.
struct Regression<'a> {
    start: &'a [f64],
    scale: f64,
    /// Weights below this index are piece values.
    kinds: usize,
    passes: usize,
    progress: &'a dyn Fn(usize),
}

impl Regression<'_> {
    /// Adam on the mean squared error, full batch, with a pull of `pull` toward the
    /// starting weights.
    fn run(&self, samples: &[&Sample], pull: f64) -> Vec<f64> {
        let (start, scale) = (self.start, self.scale);
        let n = start.len();
        let mut weights = start.to_vec();
        let (mut m, mut v) = (vec![0.0f64; n], vec![0.0f64; n]);
        let (rate, beta1, beta2, epsilon) = (1.0, 0.9, 0.999, 1e-8);
        let pull_of = |i: usize| {
            if i < self.kinds {
                pull * VALUE_PULL_SHARE
            } else {
                pull
            }
        };
        for pass in 1..=self.passes {
            let mut gradient = vec![0.0f64; n];
            for (x, result) in samples {
                let predicted = 1.0 / (1.0 + (-scale * evaluate(&weights, x)).exp());
                let slope = -2.0 * (result - predicted) * predicted * (1.0 - predicted) * scale;
                for &(i, value) in x {
                    gradient[i as usize] += slope * f64::from(value);
                }
            }
            for (i, g) in gradient.iter_mut().enumerate() {
                *g /= samples.len() as f64;
                *g += pull_of(i) * (weights[i] - start[i]) * scale;
            }
            for i in 0..n {
                m[i] = beta1 * m[i] + (1.0 - beta1) * gradient[i];
                v[i] = beta2 * v[i] + (1.0 - beta2) * gradient[i] * gradient[i];
                let m_hat = m[i] / (1.0 - beta1.powi(pass as i32));
                let v_hat = v[i] / (1.0 - beta2.powi(pass as i32));
                weights[i] -= rate * m_hat / (v_hat.sqrt() + epsilon);
            }
            (self.progress)(pass);
        }
        weights
    }
}

/// The weights `eval` (the rules-derived evaluation) stands for: its values, and
/// its square bonuses for the first side on a full board and an emptied one.
fn rules_weights(features: &Features, eval: &RulesEval) -> Vec<f64> {
    let mut weights = vec![0.0; features.len()];
    for kind in 0..features.kinds {
        weights[kind] = f64::from(eval.value(kind as Kind));
        for pos in 0..features.positions {
            for full in [true, false] {
                let bonus = eval.bonus_at(features.sides[0], kind as Kind, pos as Pos, full);
                weights[features.square_weight(kind, pos, full)] = f64::from(bonus);
            }
        }
        weights[features.room_weight(kind)] = f64::from(eval.room_weight(kind as Kind));
    }
    weights
}
